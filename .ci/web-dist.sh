#!/usr/bin/env bash
# Rebuilds the browser client from web/src with the locked build tools (`npm ci`) and fails if
# the committed web/dist differs, naming the files: the server embeds web/dist, so it must
# always be the build of the sources beside it.
set -euo pipefail
cd "$(dirname "$0")/../web"
if ! command -v npm >/dev/null 2>&1; then
  if [ "${CI:-}" = true ]; then
    echo "error: npm is needed under CI=true to rebuild web/dist (Node.js >= 20.19)" >&2
    exit 1
  fi
  echo "   skipped: web-dist (no npm): web/dist is used as committed"
  exit 0
fi
npm ci --no-audit --no-fund --loglevel=error >/dev/null
npm run build --silent >/dev/null
changed="$(git status --porcelain --untracked-files=all -- dist package-lock.json)"
if [ -n "$changed" ]; then
  echo "$changed"
  files="$(awk '{print $NF}' <<<"$changed" | tr '\n' ' ')"
  echo "error: the build of web/src differs from the committed web/dist in: $files(run 'npm ci && npm run build' in web/ and commit web/dist)" >&2
  exit 1
fi
echo "   web/dist is the build of web/src"
