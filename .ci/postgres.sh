# Sourced by .ci/run after .ci/deps.sh: starts a throwaway PostgreSQL on 127.0.0.1 for the
# server's store tests and exports TORITE_TEST_POSTGRES; `torite_pg_stop` (called when the run
# ends) stops the cluster and removes it. Under CI=true a cluster that cannot start fails the
# run with one line; elsewhere the PostgreSQL stage is reported as skipped.
torite_pg_bin=""
for d in /usr/lib/postgresql/*/bin; do
  [ -x "$d/initdb" ] && torite_pg_bin="$d"
done
torite_pg_dir=""

torite_pg_stop() {
  if [ -n "$torite_pg_dir" ]; then
    torite_pg_as "'$torite_pg_bin/pg_ctl' -D '$torite_pg_dir/data' -m immediate stop" >/dev/null 2>&1 || true
    rm -rf "$torite_pg_dir"
    torite_pg_dir=""
  fi
}

# Runs a shell command as the cluster's owner: `postgres` when running as root (initdb refuses
# root), the current user otherwise.
torite_pg_as() {
  if [ "$(id -u)" = 0 ]; then
    su postgres -s /bin/sh -c "$1"
  else
    sh -c "$1"
  fi
}

torite_pg_why=""
if [ -z "$torite_pg_bin" ]; then
  torite_pg_why="no server programs"
elif [ "$(id -u)" = 0 ] && ! id postgres >/dev/null 2>&1; then
  torite_pg_why="no postgres user to run the server as"
else
  torite_pg_dir="$(mktemp -d /tmp/torite-ci-pg.XXXXXX)"
  [ "$(id -u)" = 0 ] && chown postgres "$torite_pg_dir"
  torite_pg_started=""
  if torite_pg_as "'$torite_pg_bin/initdb' -D '$torite_pg_dir/data' -A trust -U torite >'$torite_pg_dir/initdb.log' 2>&1"; then
    # A port below the kernel's range for outgoing connections (32768 and up), where the
    # suite's own many loopback connections could hold it; another port if it is taken.
    for _ in 1 2 3 4 5; do
      torite_pg_port=$((20000 + RANDOM % 12000))
      if torite_pg_as "'$torite_pg_bin/pg_ctl' -D '$torite_pg_dir/data' -l '$torite_pg_dir/log' -w \
          -o \"-k $torite_pg_dir -c listen_addresses=127.0.0.1 -p $torite_pg_port\" start >/dev/null"; then
        export TORITE_TEST_POSTGRES="postgres://torite@127.0.0.1:$torite_pg_port/postgres"
        torite_pg_started=1
        break
      fi
    done
  fi
  if [ -n "$torite_pg_started" ]; then
    echo "== PostgreSQL $("$torite_pg_bin/postgres" --version | awk '{print $3}') on 127.0.0.1:$torite_pg_port for the store tests"
  else
    torite_pg_why="the cluster did not start: $(grep -h -m 1 -E 'FATAL|ERROR' "$torite_pg_dir/log" "$torite_pg_dir/initdb.log" 2>/dev/null || tail -n 1 "$torite_pg_dir/log" 2>/dev/null || tail -n 1 "$torite_pg_dir/initdb.log")"
    torite_pg_stop
  fi
fi
if [ -n "$torite_pg_why" ]; then
  if [ "${CI:-}" = true ]; then
    echo "error: PostgreSQL is needed under CI=true and cannot run: $torite_pg_why" >&2
    exit 1
  fi
  echo "== skipped: postgres ($torite_pg_why)"
  TORITE_SKIPPED+=("postgres ($torite_pg_why)")
fi
