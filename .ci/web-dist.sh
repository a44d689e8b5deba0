#!/usr/bin/env bash
# Rebuilds the browser client from web/src and fails if the committed web/dist differs: the
# server embeds web/dist, so it must always be the build of the sources beside it.
set -euo pipefail
cd "$(dirname "$0")/../web"
if ! command -v npm >/dev/null 2>&1; then
  echo "   npm not found: web/dist is used as committed"
  exit 0
fi
# `npm install` rather than `npm ci`: npm leaves Vite's Windows-only optional dependency out of
# the lock file and `npm ci` then refuses it. The lock file must come out unchanged.
npm install --no-audit --no-fund --loglevel=error >/dev/null
npm run build --silent >/dev/null
if [ -n "$(git status --porcelain -- dist package-lock.json)" ]; then
  git status --short -- dist package-lock.json
  echo "web/dist is out of date with web/src: run 'npm run build' in web/ and commit web/dist"
  exit 1
fi
echo "   web/dist is the build of web/src"
