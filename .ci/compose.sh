#!/usr/bin/env bash
# compose.yaml, run with podman-compose (pinned, in a venv under target/) as a club runs it:
#   - PostgreSQL from the image compose.yaml names, docker.io/library/postgres:15: no image can be
#     pulled here, so .ci/postgres-image.sh builds a test stand-in under that name from Debian's
#     PostgreSQL 15 (an official image already on the machine is used as it is);
#   - torite from the image of deploy/image.sh, built around a torite binary (by default the
#     debug one the test suite built) and named by TORITE_IMAGE, so that compose does not build;
#   - the settings in an env file, as a club's .env; without POSTGRES_PASSWORD compose refuses;
#   - `up -d`: the database's healthcheck passes, torite becomes ready on the published port,
#     whole games are played through it with `torite loadtest --addr`, its pages name the public
#     address; each service runs as its unprivileged user; `torite admin export` in the service
#     writes the backup;
#   - torite stopped with SIGTERM exits 0 and logs it, then the database stops cleanly (torite
#     first: podman-compose stops the services of one `stop` or `down` at the same time);
#   - `down` (the volume kept) and `up -d` again: a table made before is there, and the
#     database was not initialized again;
#   - the backup imported into a new database (`down -v`, `up`) brings the table back;
#   - `down -v` when done.
# Ends with "compose: N passed, 0 failed". Under CI=true a podman or podman-compose that cannot be
# installed or run fails the run; elsewhere the test says so and skips.
#
#   bash .ci/compose.sh [BINARY]
set -euo pipefail
cd "$(dirname "$0")/.."

binary="${1:-target/debug/torite}"
podman_compose_version=1.6.0
skip() {
  if [ "${CI:-}" = true ]; then
    echo "error: the compose test must run under CI=true: $1" >&2
    exit 1
  fi
  echo "== skipped: compose ($1)"
  exit 0
}

# podman, runc (below) and netavark with aardvark-dns: the services find each other by name.
if ! command -v podman >/dev/null 2>&1 || ! command -v runc >/dev/null 2>&1 ||
  [ ! -x /usr/lib/podman/netavark ] || [ ! -x /usr/lib/podman/aardvark-dns ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== apt-get install podman runc netavark aardvark-dns"
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -qq podman runc netavark aardvark-dns >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null 2>&1 &&
        apt-get install -y -qq podman runc netavark aardvark-dns >/dev/null 2>&1; } || true
  fi
fi
command -v podman >/dev/null 2>&1 || skip "podman could not be installed"
[ -x "$binary" ] || skip "no torite binary at $binary"
[ -x /usr/lib/postgresql/15/bin/postgres ] ||
  skip "no PostgreSQL 15 at /usr/lib/postgresql/15 for the stand-in image (apt-get install postgresql-15)"

venv="target/compose-venv"
if [ ! -x "$venv/bin/podman-compose" ] ||
  [ "$("$venv/bin/python" -m pip show podman-compose 2>/dev/null | awk '/^Version:/ { print $2 }')" != "$podman_compose_version" ]; then
  echo "== pip install podman-compose==$podman_compose_version"
  rm -rf "$venv"
  { python3 -m venv "$venv" &&
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check \
      "podman-compose==$podman_compose_version" python-dotenv==1.2.4 PyYAML==6.0.4; } >/dev/null 2>&1 ||
    { rm -rf "$venv"; skip "podman-compose $podman_compose_version could not be installed with pip"; }
fi
compose_bin="$venv/bin/podman-compose"

work="$(mktemp -d /tmp/torite-compose.XXXXXX)"
# This machine's limits, not compose.yaml's: its cgroups are a v1/v2 hybrid, which crun refuses
# (runc runs there), and it may not set the default process limits podman asks for. Podman 4.3
# (Debian 12) reads CONTAINERS_CONF; later versions add CONTAINERS_CONF_OVERRIDE to the defaults.
{
  if [ -d /sys/fs/cgroup/unified ] && command -v runc >/dev/null 2>&1; then
    printf '[engine]\nruntime = "runc"\n'
  fi
  printf '[containers]\ndefault_ulimits = ["nofile=4096:4096", "nproc=4096:4096"]\n'
} >"$work/containers.conf"
export CONTAINERS_CONF="$work/containers.conf" CONTAINERS_CONF_OVERRIDE="$work/containers.conf"

project="torite-ci-$$"
torite_image="localhost/torite:compose-ci-$$"
pg_image="docker.io/library/postgres:15"
built_pg=""
passed=0
failed=0
compose() {
  "$compose_bin" --file compose.yaml --project-name "$project" --env-file "$work/env" "$@"
}
cleanup() {
  compose stop torite >/dev/null 2>&1 || true
  compose down -v >/dev/null 2>&1 || true
  podman rmi -f "$torite_image" >/dev/null 2>&1 || true
  if [ -n "$built_pg" ]; then podman rmi -f "$pg_image" >/dev/null 2>&1 || true; fi
  rm -rf "$work"
}
trap cleanup EXIT
check() {
  if "$@"; then
    passed=$((passed + 1))
  else
    failed=$((failed + 1))
    echo "compose: FAILED: $*" >&2
  fi
}

if podman image exists "$pg_image" &&
  [ "$(podman image inspect --format '{{index .Labels "org.torite.test-stand-in"}}' "$pg_image")" != postgres-15 ]; then
  echo "== $pg_image is on this machine: the test uses it"
else
  bash .ci/postgres-image.sh --tag "$pg_image" --engine podman
  built_pg=1
fi
deploy/image.sh --binary "$binary" --tag "$torite_image" --engine podman

port="$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
base="http://127.0.0.1:$port"
password="$(python3 -c 'import secrets; print(secrets.token_hex(24))')"

# Without the password, compose refuses in one line that names it.
: >"$work/env"
refuses_without_password() {
  local out
  out="$(env -u POSTGRES_PASSWORD TORITE_PUBLIC_URL="$base" "$compose_bin" --file compose.yaml \
    --project-name "$project" --env-file "$work/env" config 2>&1)" && return 1
  grep -q 'set POSTGRES_PASSWORD in .env' <<<"$out" || { echo "$out" >&2; return 1; }
}
check refuses_without_password

# A club's .env.
cat >"$work/env" <<EOF
POSTGRES_PASSWORD=$password
TORITE_PUBLIC_URL=$base
TORITE_PORT=127.0.0.1:$port
TORITE_IMAGE=$torite_image
EOF

container_of() {
  podman ps -a --filter "label=com.docker.compose.project=$project" \
    --filter "label=com.docker.compose.service=$1" --format '{{.Names}}' | head -n 1
}

# Up, the database healthy (podman runs a healthcheck only when asked, without systemd's timers:
# the test asks), torite ready.
up() {
  compose up -d >"$work/up.log" 2>&1 || { cat "$work/up.log" >&2; return 1; }
  local pg=""
  for _ in $(seq 120); do
    pg="$(container_of postgres)"
    if [ -n "$pg" ] && podman healthcheck run "$pg" >/dev/null 2>&1; then break; fi
    sleep 0.5
  done
  [ "$(podman inspect --format '{{.State.Health.Status}}' "$pg" 2>/dev/null)" = healthy ] ||
    { podman logs "$pg" >&2 || true; echo "compose: the database did not become healthy" >&2; return 1; }
  for _ in $(seq 240); do
    if curl -fsS "$base/readyz" >/dev/null 2>&1; then return 0; fi
    sleep 0.25
  done
  podman logs "$(container_of torite)" >&2 || true
  echo "compose: torite did not become ready on $base" >&2
  return 1
}

plays_games() {
  local out
  out="$("$binary" loadtest --addr "127.0.0.1:$port" --tables 4 --clients 4 --deals 1 --seconds 120)"
  grep -q '"finished_tables": 4' <<<"$out" && grep -q '"failed_clients": 0' <<<"$out" ||
    { echo "$out" >&2; return 1; }
}

runs_unprivileged() {
  [ "$(podman top "$(container_of torite)" user | awk 'NR == 2 { print $1 }')" = torite ] &&
    [ "$(podman top "$(container_of postgres)" user | awk 'NR == 2 { print $1 }')" = postgres ]
}

names_public_url() {
  curl -fsS "$base/" | grep -q "<meta name=\"torite-public-url\" content=\"$base\""
}

on_postgres() {
  grep -q 'database postgres://torite:\*\*\*@postgres:5432/torite' <<<"$(podman logs "$(container_of torite)" 2>&1)"
}

check up
check on_postgres
check runs_unprivileged
check names_public_url
check plays_games
made="$(curl -fsS -X POST -H 'content-type: application/json' -H "origin: $base" \
  -d '{"ruleset":"mini-misere-4","name":"Aiko"}' "$base/api/tables")"
table="$(sed -n 's/.*"id":"\([0-9a-f]*\)".*/\1/p' <<<"$made")"
check test -n "$table"

exports_backup() {
  compose exec -T torite torite admin export >"$work/backup.jsonl" 2>"$work/export.log" ||
    { cat "$work/export.log" >&2; return 1; }
  grep -q "\"$table\"" "$work/backup.jsonl"
}
check exports_backup

stops_cleanly() {
  local c
  c="$(container_of torite)"
  compose stop torite >/dev/null 2>&1 &&
    [ "$(podman inspect --format '{{.State.ExitCode}}' "$c")" = 0 ] &&
    grep -q 'stop asked signal="SIGTERM"' <<<"$(podman logs "$c" 2>&1)"
}
check stops_cleanly
database_stops_cleanly() {
  local c
  c="$(container_of postgres)"
  compose stop postgres >/dev/null 2>&1 &&
    [ "$(podman inspect --format '{{.State.ExitCode}}' "$c")" = 0 ] &&
    grep -q 'database system is shut down' <<<"$(podman logs "$c" 2>&1)"
}
check database_stops_cleanly

compose down >"$work/down.log" 2>&1 || { cat "$work/down.log" >&2; echo "compose: down failed" >&2; exit 1; }
volume_kept() {
  podman volume exists "${project}_postgres-data"
}
check volume_kept
check up
check curl -fsS -o /dev/null "$base/api/tables/$table"
not_initialized_again() {
  ! grep -q 'init process complete' <<<"$(podman logs "$(container_of postgres)" 2>&1)"
}
check not_initialized_again

# The backup restored into a new database: `down -v`, `up`, the table gone; imported, torite
# restarted (it loads the tables on start), the table back.
compose stop torite >/dev/null 2>&1
compose down -v >"$work/down.log" 2>&1 || { cat "$work/down.log" >&2; echo "compose: down -v failed" >&2; exit 1; }
check up
check test "$(curl -s -o /dev/null -w '%{http_code}' "$base/api/tables/$table")" = 404
restores_backup() {
  compose exec -T torite torite admin import - <"$work/backup.jsonl" >"$work/import.log" 2>&1 &&
    compose restart torite >>"$work/import.log" 2>&1 || { cat "$work/import.log" >&2; return 1; }
  for _ in $(seq 240); do
    if curl -fsS "$base/readyz" >/dev/null 2>&1; then break; fi
    sleep 0.25
  done
  curl -fsS -o /dev/null "$base/api/tables/$table" || { cat "$work/import.log" >&2; return 1; }
}
check restores_backup

echo "compose: $passed passed, $failed failed"
[ "$failed" = 0 ]
