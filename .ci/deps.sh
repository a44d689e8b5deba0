#!/usr/bin/env bash
# Sourced by .ci/run: makes sure the real dependencies that the suite exercises are on the
# machine, installing what is missing from Debian's packages (as root, with apt-get):
#
#   pdftoppm      poppler-utils            the sheet tests render a PDF page
#   chromium      chromium, IPAex Gothic   the browser end-to-end tests
#   initdb        postgresql               the server's store tests on a throwaway cluster
#
# Under CI=true a dependency that is still missing afterwards fails the run with one line.
# Elsewhere the run goes on and says which stages are skipped (the tests that need the missing
# program are `#[ignore]`d, so `cargo test` reports them as ignored, never as passed).

torite_pg_bin_dir() {
  local found=""
  for d in /usr/lib/postgresql/*/bin; do
    [ -x "$d/initdb" ] && found="$d"
  done
  printf '%s' "$found"
}

torite_missing_packages() {
  local packages=()
  command -v pdftoppm >/dev/null 2>&1 || packages+=(poppler-utils)
  command -v chromium >/dev/null 2>&1 || packages+=(chromium)
  [ -e /usr/share/fonts/opentype/ipaexfont-gothic/ipaexg.ttf ] ||
    [ -e /usr/share/fonts/truetype/ipaexfont-gothic/ipaexg.ttf ] || packages+=(fonts-ipaexfont-gothic)
  [ -n "$(torite_pg_bin_dir)" ] || packages+=(postgresql)
  [ "${#packages[@]}" -eq 0 ] || printf '%s\n' "${packages[@]}"
}

mapfile -t torite_packages < <(torite_missing_packages)
if [ "${#torite_packages[@]}" -gt 0 ]; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "== apt-get install ${torite_packages[*]}"
    export DEBIAN_FRONTEND=noninteractive
    { apt-get install -y -qq --no-install-recommends "${torite_packages[@]}" >/dev/null 2>&1 ||
      { apt-get update -qq >/dev/null 2>&1 &&
        apt-get install -y -qq --no-install-recommends "${torite_packages[@]}" >/dev/null 2>&1; }; } ||
      echo "   apt-get could not install: ${torite_packages[*]}"
  else
    echo "== not root or no apt-get: cannot install ${torite_packages[*]}"
  fi
fi

# What is still missing decides the stages: a failure under CI, a visible skip elsewhere.
TORITE_SKIPPED=()
mapfile -t torite_packages < <(torite_missing_packages)
for p in "${torite_packages[@]}"; do
  case "$p" in
    poppler-utils) TORITE_SKIPPED+=("pdf-render (no pdftoppm)") ;;
    chromium) TORITE_SKIPPED+=("browser (no chromium)") ;;
    fonts-ipaexfont-gothic) ;; # the browser tests still run; Japanese screenshots use a fallback font
    postgresql) ;; # .ci/postgres.sh says so, or fails under CI
  esac
done
if [ "${CI:-}" = true ] && [ "${#TORITE_SKIPPED[@]}" -gt 0 ]; then
  echo "error: under CI=true every real dependency must run; missing: ${TORITE_SKIPPED[*]}" >&2
  exit 1
fi
