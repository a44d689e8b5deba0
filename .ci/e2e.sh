#!/usr/bin/env bash
# Browser end-to-end tests: `torite serve` on 127.0.0.1 driven through headless Chromium
# (Debian's chromium, installed by .ci/deps.sh) by playwright-core. Under CI=true a missing
# Node.js or Chromium fails the run; elsewhere the stage says it is skipped. The cluster's test
# (web/e2e/cluster.mjs) runs three nodes on the PostgreSQL of TORITE_TEST_POSTGRES, or of a
# throwaway cluster started here by .ci/postgres.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
skip() {
  if [ "${CI:-}" = true ]; then
    echo "error: the browser tests are needed under CI=true and cannot run: $1" >&2
    exit 1
  fi
  echo "   skipped: browser ($1)"
  exit 0
}
command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || skip "no Node.js"
chromium="${CHROMIUM:-$(command -v chromium || true)}"
[ -n "$chromium" ] || skip "no chromium"
[ -d web/node_modules/playwright-core ] || (cd web && npm ci --no-audit --no-fund --loglevel=error >/dev/null)
cargo build --quiet --locked
# The cluster's test needs PostgreSQL: .ci/run has started it; by hand, a throwaway one.
if [ -z "${TORITE_TEST_POSTGRES:-}" ]; then
  source .ci/postgres.sh
  trap torite_pg_stop EXIT
fi
bin="$(cd "${CARGO_TARGET_DIR:-target}" && pwd)/debug/torite"
cd web
CHROMIUM="$chromium" TORITE_BIN="$bin" timeout 600 node e2e/run.mjs
