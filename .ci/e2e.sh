#!/usr/bin/env bash
# Browser end-to-end tests: `torite serve` on 127.0.0.1 driven through headless Chromium
# (Debian's chromium, installed here when missing and possible) by playwright-core.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v node >/dev/null 2>&1 || ! command -v npm >/dev/null 2>&1; then
  echo "   node not found: browser tests skipped"
  exit 0
fi
if ! command -v chromium >/dev/null 2>&1 && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
  echo "   apt-get install chromium fonts-ipaexfont-gothic"
  { apt-get install -y -qq --no-install-recommends chromium fonts-ipaexfont-gothic >/dev/null 2>&1 ||
    { apt-get update -qq >/dev/null 2>&1 &&
      apt-get install -y -qq --no-install-recommends chromium fonts-ipaexfont-gothic >/dev/null 2>&1; }; } || true
fi
if ! command -v chromium >/dev/null 2>&1; then
  echo "   chromium not available: browser tests skipped"
  exit 0
fi
[ -d web/node_modules/playwright-core ] || (cd web && npm install --no-audit --no-fund --loglevel=error >/dev/null)
cargo build --quiet --locked
bin="$(cd "${CARGO_TARGET_DIR:-target}" && pwd)/debug/torite"
cd web
TORITE_BIN="$bin" timeout 600 node e2e/run.mjs
