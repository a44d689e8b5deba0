# Sourced by .ci/run: starts a throwaway PostgreSQL on 127.0.0.1 for the server's store tests
# when the machine has PostgreSQL's server programs, and exports TORITE_TEST_POSTGRES; the
# cluster is stopped and removed when the run ends. Without PostgreSQL those tests say so and
# pass, SQLite being tested either way.
torite_pg_bin=""
for d in /usr/lib/postgresql/*/bin; do
  [ -x "$d/initdb" ] && torite_pg_bin="$d"
done
if [ -n "$torite_pg_bin" ] && [ "$(id -u)" = 0 ] && id postgres >/dev/null 2>&1; then
  torite_pg_dir="$(mktemp -d /tmp/torite-ci-pg.XXXXXX)"
  chown postgres "$torite_pg_dir"
  torite_pg_port=$((40000 + RANDOM % 20000))
  if su postgres -s /bin/sh -c "'$torite_pg_bin/initdb' -D '$torite_pg_dir/data' -A trust -U torite >/dev/null &&
      '$torite_pg_bin/pg_ctl' -D '$torite_pg_dir/data' -l '$torite_pg_dir/log' -w \
        -o \"-k $torite_pg_dir -c listen_addresses=127.0.0.1 -p $torite_pg_port\" start >/dev/null"; then
    export TORITE_TEST_POSTGRES="postgres://torite@127.0.0.1:$torite_pg_port/postgres"
    echo "== PostgreSQL on 127.0.0.1:$torite_pg_port for the store tests"
    trap "su postgres -s /bin/sh -c \"'$torite_pg_bin/pg_ctl' -D '$torite_pg_dir/data' -m immediate stop\" >/dev/null 2>&1; rm -rf '$torite_pg_dir'" EXIT
  else
    echo "== PostgreSQL could not be started: its store tests are skipped"
  fi
else
  echo "== no PostgreSQL server programs: its store tests are skipped"
fi
