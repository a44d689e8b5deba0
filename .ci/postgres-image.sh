#!/usr/bin/env bash
# A test stand-in for the image docker.io/library/postgres:15, which compose.yaml names and which
# cannot be pulled on the machines torite is tested on. It is built here from Debian's PostgreSQL
# 15 (/usr/lib/postgresql/15) on an empty base, and is not part of what torite ships: a club runs
# compose.yaml with the official image. It keeps the part of the official image's interface that
# compose.yaml relies on:
#   - POSTGRES_PASSWORD (required), POSTGRES_USER (default postgres), POSTGRES_DB (default the
#     user), PGDATA (default /var/lib/postgresql/data, a volume);
#   - initdb on an empty data directory only (a restart keeps the data), then the database made;
#   - port 5432 on every address, password (scram-sha-256) authentication for other hosts;
#   - run as the unprivileged user postgres (999), with pg_isready and psql on PATH;
#   - postgres itself is process 1: SIGINT (the stop signal) or SIGTERM shuts it down cleanly.
# Its shell is the host's dash at /bin/sh (the entrypoint, pg_ctl and healthchecks need one).
#
#   bash .ci/postgres-image.sh [--tag NAME] [--engine podman|docker]
#        (default tag: docker.io/library/postgres:15)
set -euo pipefail

tag="docker.io/library/postgres:15"
engine="${CONTAINER_ENGINE:-podman}"
while [ $# -gt 0 ]; do
  case "$1" in
    --tag) tag="${2:?--tag needs a name}"; shift 2 ;;
    --engine) engine="${2:?--engine needs podman or docker}"; shift 2 ;;
    *) echo "postgres-image.sh: unknown argument '$1'" >&2; exit 2 ;;
  esac
done

pg=/usr/lib/postgresql/15
share=/usr/share/postgresql/15
for need in "$pg/bin/postgres" "$pg/bin/initdb" "$pg/bin/pg_isready" "$pg/bin/psql" "$share/postgres.bki"; do
  [ -e "$need" ] || { echo "postgres-image.sh: $need is missing: apt-get install postgresql-15" >&2; exit 1; }
done
command -v ldd >/dev/null 2>&1 || { echo "postgres-image.sh: ldd is needed" >&2; exit 1; }

context="$(mktemp -d /tmp/torite-pg-image.XXXXXX)"
trap 'rm -rf "$context"' EXIT
root="$context/root"
# What the user postgres owns (copied in with --chown: COPY makes everything else root's).
owned="$context/owned"
mkdir -p "$root$pg" "$root/usr/share/postgresql" "$root/usr/lib/locale" "$root/usr/share" \
  "$root/bin" "$root/etc" "$root/tmp" "$root/usr/local/bin" \
  "$owned/var/run/postgresql" "$owned/var/lib/postgresql/data"
chmod 1777 "$root/tmp"
chmod 700 "$owned/var/lib/postgresql/data"
chmod 3777 "$owned/var/run/postgresql"

# The programs, the modules initdb and the server load (without the JIT, which would bring LLVM),
# the shared files, the time zones and the C.UTF-8 locale.
cp -a "$pg/bin" "$root$pg/bin"
mkdir -p "$root$pg/lib"
find "$pg/lib" -maxdepth 1 -name '*.so' ! -name 'llvmjit*' -exec cp -L {} "$root$pg/lib/" \;
cp -a "$share" "$root/usr/share/postgresql/"
cp -a /usr/share/zoneinfo "$root/usr/share/zoneinfo"
cp -a /usr/lib/locale/C.utf8 "$root/usr/lib/locale/C.utf8"
cp -L /bin/dash "$root/bin/sh"

# The shared libraries all of them load, where the dynamic loader looks for them.
while read -r lib; do
  [ -e "$root$lib" ] && continue
  mkdir -p "$root$(dirname "$lib")"
  cp -L "$lib" "$root$lib"
done < <(for f in "$root$pg"/bin/* "$root$pg"/lib/*.so /bin/dash; do
  ldd "$(readlink -f "$f")" 2>/dev/null || true
done | awk '$2 == "=>" && $3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }' | sort -u)

printf 'root:x:0:0:root:/root:/bin/sh\npostgres:x:999:999:PostgreSQL:/var/lib/postgresql:/bin/sh\n' >"$root/etc/passwd"
printf 'root:x:0:\npostgres:x:999:\n' >"$root/etc/group"
printf 'passwd: files\ngroup: files\nhosts: files dns\n' >"$root/etc/nsswitch.conf"

# The entrypoint: what the official image's docker-entrypoint.sh does for these variables.
cat >"$root/usr/local/bin/docker-entrypoint.sh" <<'ENTRYPOINT'
#!/bin/sh
# Test stand-in for the official postgres image's entrypoint (see .ci/postgres-image.sh).
set -eu
case "${1:-}" in -*) set -- postgres "$@" ;; esac
if [ "${1:-}" != postgres ]; then exec "$@"; fi

: "${POSTGRES_USER:=postgres}"
: "${POSTGRES_DB:=$POSTGRES_USER}"
: "${PGDATA:=/var/lib/postgresql/data}"
export PGDATA

if [ ! -s "$PGDATA/PG_VERSION" ]; then
  if [ -z "${POSTGRES_PASSWORD:-}" ]; then
    echo "error: the database is not initialized and POSTGRES_PASSWORD is not set: give the superuser a password" >&2
    exit 1
  fi
  printf '%s\n' "$POSTGRES_PASSWORD" | initdb --username="$POSTGRES_USER" --pwfile=/dev/stdin \
    --auth-local=trust --auth-host=scram-sha-256 --encoding=UTF8 --locale=C.UTF-8 -D "$PGDATA"
  printf '\nhost all all all scram-sha-256\n' >>"$PGDATA/pg_hba.conf"
  printf "\nlisten_addresses = '*'\n" >>"$PGDATA/postgresql.conf"
  if [ "$POSTGRES_DB" != postgres ]; then
    pg_ctl -D "$PGDATA" -o "-c listen_addresses=''" -w start
    psql -v ON_ERROR_STOP=1 --username="$POSTGRES_USER" --dbname=postgres --set db="$POSTGRES_DB" <<'SQL'
CREATE DATABASE :"db";
SQL
    pg_ctl -D "$PGDATA" -m fast -w stop
  fi
  echo "PostgreSQL init process complete; ready for start up."
fi
exec "$@"
ENTRYPOINT
chmod 755 "$root/usr/local/bin/docker-entrypoint.sh"

cat >"$context/Containerfile" <<'CONTAINERFILE'
FROM scratch
COPY root/ /
COPY --chown=999:999 owned/ /
ENV PATH=/usr/local/bin:/usr/lib/postgresql/15/bin:/usr/bin:/bin \
    PGDATA=/var/lib/postgresql/data LANG=C.UTF-8
USER 999:999
VOLUME /var/lib/postgresql/data
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["docker-entrypoint.sh"]
CMD ["postgres"]
LABEL org.torite.test-stand-in=postgres-15
CONTAINERFILE
"$engine" build --quiet -t "$tag" -f "$context/Containerfile" "$context" >/dev/null
size="$("$engine" image inspect --format '{{.Size}}' "$tag")"
echo "postgres-image.sh: built the stand-in $tag with $engine ($((size / 1048576)) MiB)"
