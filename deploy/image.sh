#!/usr/bin/env bash
# Builds torite's container image (deploy/Containerfile) around a torite binary built on this
# machine, with podman or docker. The image holds the binary, the C library it links and the
# files an unprivileged user needs; nothing is downloaded.
#
#   cargo build --release --locked -p torite-cli
#   deploy/image.sh                          # the image localhost/torite:latest
#   deploy/image.sh --binary PATH --tag NAME --engine docker
#
# Run it with the database in a volume, e.g.
#   podman run -d --name torite -p 8080:8080 -v torite-data:/data localhost/torite
set -euo pipefail

# The comment above, without its marks.
usage() {
  awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
}

here="$(cd "$(dirname "$0")" && pwd)"
binary="$here/../target/release/torite"
tag="localhost/torite:latest"
engine="${CONTAINER_ENGINE:-}"
while [ $# -gt 0 ]; do
  case "$1" in
    --binary) binary="${2:?--binary needs a path}"; shift 2 ;;
    --tag) tag="${2:?--tag needs a name}"; shift 2 ;;
    --engine) engine="${2:?--engine needs podman or docker}"; shift 2 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "image.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
  esac
done

if [ ! -x "$binary" ]; then
  echo "image.sh: no torite binary at $binary: build it first with 'cargo build --release --locked -p torite-cli', or pass --binary PATH" >&2
  exit 1
fi
if [ -z "$engine" ]; then
  for e in podman docker; do
    if command -v "$e" >/dev/null 2>&1; then engine="$e"; break; fi
  done
fi
if [ -z "$engine" ] || ! command -v "$engine" >/dev/null 2>&1; then
  echo "image.sh: no container engine: install podman or docker, or name one with --engine" >&2
  exit 1
fi
context="$(mktemp -d /tmp/torite-image.XXXXXX)"
trap 'rm -rf "$context"' EXIT
"$here/rootfs.sh" "$binary" "$context"
cp "$here/Containerfile" "$context/Containerfile"
"$engine" build --quiet -t "$tag" -f "$context/Containerfile" "$context" >/dev/null
size="$("$engine" image inspect --format '{{.Size}}' "$tag")"
echo "image.sh: built $tag with $engine ($((size / 1048576)) MiB)"
