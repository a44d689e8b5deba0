#!/usr/bin/env bash
# The Python package (python/): installs the pinned test requirements (wheels only) into a
# virtual environment under target/python/, builds and installs the package with
# `pip install ./python` (its Cargo build kept in target/python/cargo), checks its Rust with
# fmt and clippy, plays a game through OpenSpiel from outside the source tree, and runs the
# pytest suites (OpenSpiel's and PettingZoo's checks on every preset, the equivalence with
# `torite replay`). Ends with `python: N passed, N failed`. Under CI=true a missing Python
# (3.10 or newer, with venv) fails the run; elsewhere the stage says it is skipped.
set -euo pipefail
cd "$(dirname "$0")/.."
root="$PWD"

skip() {
  if [ "${CI:-}" = true ]; then
    echo "error: the Python package's tests are needed under CI=true and cannot run: $1" >&2
    exit 1
  fi
  echo "   skipped: python ($1)"
  exit 0
}
python="${PYTHON:-python3}"
command -v "$python" >/dev/null 2>&1 || skip "no $python"
"$python" -c 'import sys, venv, ensurepip; sys.exit(sys.version_info < (3, 10))' 2>/dev/null ||
  skip "$python is older than 3.10 or has no venv module (Debian: apt-get install python3-venv)"

target="${CARGO_TARGET_DIR:-$root/target}"
venv="$target/python/venv"
stamp="$venv/.requirements"
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
if ! cmp -s python/requirements-dev.txt "$stamp"; then
  echo "   pip install -r python/requirements-dev.txt"
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --only-binary=:all: \
    -r python/requirements-dev.txt
  cp python/requirements-dev.txt "$stamp"
fi
export PATH="$venv/bin:$PATH" VIRTUAL_ENV="$venv" PYO3_PYTHON="$venv/bin/python"

# The package's own workspace: formatting and lints, as the main stages do for the workspace.
cargo fmt --manifest-path python/Cargo.toml -- --check
CARGO_TARGET_DIR="$target/python/cargo" \
  cargo clippy --quiet --locked --manifest-path python/Cargo.toml --all-targets -- -D warnings

# The documented install, from the source tree; the Cargo build is kept in target/.
echo "   pip install ./python"
CARGO_TARGET_DIR="$target/python/cargo" \
  python -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps ./python

# Outside the source tree: the installed package plays a deal through OpenSpiel.
(cd /tmp && python - <<'PY'
import random
import pyspiel
import torite.openspiel

game = pyspiel.load_game("torite_mini_misere_4")
state = game.new_initial_state()
rng = random.Random(0)
while not state.is_terminal():
    if state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    else:
        state.apply_action(rng.choice(state.legal_actions()))
print("   smoke: a deal of", game, "returned", state.returns())
PY
)

# The `torite` binary the equivalence tests compare with (the test stage has built it).
[ -n "${TORITE_BIN:-}" ] || { cargo build --quiet --locked -p torite-cli; TORITE_BIN="$target/debug/torite"; }
junit="$(mktemp /tmp/torite-pytest.XXXXXX.xml)"
trap 'rm -f "$junit"' EXIT
status=0
TORITE_BIN="$TORITE_BIN" timeout 900 python -m pytest -q -p no:cacheprovider \
  -W ignore::UserWarning --junitxml="$junit" python/tests || status=$?
python - "$junit" <<'PY'
import sys
import xml.etree.ElementTree as ET

root = ET.parse(sys.argv[1]).getroot()
suite = root if root.tag == "testsuite" else root.find("testsuite")
tests, failures, errors, skipped = (int(suite.get(k, 0)) for k in ("tests", "failures", "errors", "skipped"))
print(f"python: {tests - failures - errors - skipped} passed, {failures + errors} failed")
if tests == 0:
    sys.exit("python: pytest ran no test")
PY
exit "$status"
