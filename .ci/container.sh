#!/usr/bin/env bash
# The container image, built and played through: deploy/image.sh builds it around a torite
# binary (by default the debug one the test suite built), and the test then
#   - serves from the image as its unprivileged user, its port published, the SQLite database in
#     a named volume;
#   - plays whole games through it with `torite loadtest --addr`;
#   - stops it with SIGTERM (a clean exit), starts it again and finds a table made before;
#   - serves from the image on PostgreSQL (TORITE_TEST_POSTGRES, from .ci/postgres.sh) and plays
#     games through that.
# Ends with "container: N passed, 0 failed". Under CI=true a container engine that cannot be
# installed or run fails the run; elsewhere the test says so and skips.
#
#   bash .ci/container.sh [BINARY]          # the image built around BINARY
#   bash .ci/container.sh --image NAME       # an image built already, e.g. from the Dockerfile
# (BINARY, by default target/debug/torite, also runs the load-test clients.)
set -euo pipefail
cd "$(dirname "$0")/.."

image=""
if [ "${1:-}" = --image ]; then
  image="${2:?--image needs the name of an image}"
  shift 2
fi
binary="${1:-target/debug/torite}"
skip() {
  if [ "${CI:-}" = true ]; then
    echo "error: the container test must run under CI=true: $1" >&2
    exit 1
  fi
  echo "== skipped: container ($1)"
  exit 0
}

if ! command -v podman >/dev/null 2>&1 || ! command -v runc >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== apt-get install podman runc (with the packages it recommends: its network)"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq podman runc >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null 2>&1 &&
        apt-get install -y -qq podman runc >/dev/null 2>&1; } || true
  fi
fi
command -v podman >/dev/null 2>&1 || skip "podman could not be installed"
[ -x "$binary" ] || skip "no torite binary at $binary"

# This machine's limits, not the image's needs: its cgroups are a v1/v2 hybrid, which crun
# refuses (runc runs there), and it may not set the default process limits podman asks for.
run_opts=(--ulimit nofile=4096:4096 --ulimit nproc=4096:4096)
if [ -d /sys/fs/cgroup/unified ] && command -v runc >/dev/null 2>&1; then
  run_opts=(--runtime runc "${run_opts[@]}")
fi

tag="${image:-localhost/torite:ci-$$}"
volume="torite-ci-data-$$"
name="torite-ci-$$"
passed=0
failed=0
cleanup() {
  podman rm -f -v "$name" >/dev/null 2>&1 || true
  podman volume rm -f "$volume" >/dev/null 2>&1 || true
  if [ -z "$image" ]; then podman rmi -f "$tag" >/dev/null 2>&1 || true; fi
}
trap cleanup EXIT
check() {
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "container: FAILED: $*" >&2
  fi
}

if [ -z "$image" ]; then
  deploy/image.sh --binary "$binary" --tag "$tag" --engine podman
fi

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
start() {
  podman rm -f -v "$name" >/dev/null 2>&1 || true
  podman run -d --name "$name" "${run_opts[@]}" "$@" "$tag" >/dev/null ||
    { echo "container: podman could not start $tag (its error is above)" >&2; exit 1; }
  for _ in $(seq 100); do
    if curl -fsS "$base/readyz" >/dev/null 2>&1; then return 0; fi
    sleep 0.1
  done
  podman logs "$name" >&2 || true
  echo "container: the server in the image did not become ready" >&2
  return 1
}

plays_games() {
  local out
  out="$("$binary" loadtest --addr "127.0.0.1:$port" --tables 4 --clients 4 --deals 1 --seconds 120)"
  grep -q '"finished_tables": 4' <<<"$out" && grep -q '"failed_clients": 0' <<<"$out" ||
    { echo "$out" >&2; return 1; }
}

runs_unprivileged() {
  [ "$(podman top "$name" user | awk 'NR == 2 { print $1 }')" = torite ] &&
    [ "$(podman image inspect --format '{{.Config.User}}' "$tag")" = 10001:10001 ]
}

# SQLite in the volume, the port published as the README shows.
podman volume create "$volume" >/dev/null
start -p "127.0.0.1:$port:8080" -v "$volume:/data"
check runs_unprivileged
check plays_games
made="$(curl -fsS -X POST -H 'content-type: application/json' -H "origin: $base" \
  -d '{"ruleset":"mini-misere-4","name":"Aiko"}' "$base/api/tables")"
table="$(sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p' <<<"$made")"
check test -n "$table"
stops_cleanly() {
  podman stop -t 20 "$name" >/dev/null &&
    [ "$(podman inspect --format '{{.State.ExitCode}}' "$name")" = 0 ] &&
    grep -q 'stop asked signal="SIGTERM"' <<<"$(podman logs "$name" 2>&1)"
}
check stops_cleanly
db_in_volume() {
  local dir
  dir="$(podman volume inspect --format '{{.Mountpoint}}' "$volume")"
  [ "$(stat -c %u "$dir/torite.db")" = 10001 ]
}
check db_in_volume
start -p "127.0.0.1:$port:8080" -v "$volume:/data"
check curl -fsS -o /dev/null "$base/api/tables/$table"

# PostgreSQL, a database of its own on the suite's cluster.
if [ -n "${TORITE_TEST_POSTGRES:-}" ]; then
  db="torite_container_$$"
  psql -q "$TORITE_TEST_POSTGRES" -c "create database $db" >/dev/null
  # The suite's cluster listens on the host's 127.0.0.1 only: the container shares the host's
  # network.
  start --network host -e TORITE_ADDR="127.0.0.1:$port" -e TORITE_DB="${TORITE_TEST_POSTGRES%/*}/$db"
  check plays_games
  check stops_cleanly
  psql -q "$TORITE_TEST_POSTGRES" -c "drop database $db" >/dev/null || true
elif [ "${CI:-}" = true ]; then
  echo "error: TORITE_TEST_POSTGRES is needed under CI=true for the container on PostgreSQL" >&2
  exit 1
else
  echo "== skipped: the container on PostgreSQL (no TORITE_TEST_POSTGRES)"
fi

echo "container: $passed passed, $failed failed"
[ "$failed" = 0 ]
