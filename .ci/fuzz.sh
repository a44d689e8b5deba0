#!/usr/bin/env bash
# Fuzzing: builds the cargo-fuzz targets of fuzz/ and runs each from its seed corpus
# (fuzz/corpus/<target>, plus the kept crash inputs of fuzz/regressions/<target>), copied to a
# scratch directory so the committed corpus is not changed.
#
#   bash .ci/fuzz.sh                     # every target, FUZZ_SECONDS (30) each
#   FUZZ_SECONDS=600 bash .ci/fuzz.sh replay
#
# Prints one line per target with the runs executed; fails with one line naming the target
# and the crash input (kept under fuzz/artifacts/<target>/) when a run finds one.
set -euo pipefail
cd "$(dirname "$0")/.."

CARGO_FUZZ_VERSION=0.13.2
seconds="${FUZZ_SECONDS:-30}"
targets=("$@")
[ ${#targets[@]} -gt 0 ] || targets=(replay house_rules client_messages)
# The longest input each target is given: records up to a whole game, a house-rule file, a
# few dozen client messages.
declare -A max_len=([replay]=8192 [house_rules]=2048 [client_messages]=4096)

export CARGO_TERM_COLOR=never
# libFuzzer's instrumentation needs unstable compiler flags; the stable toolchain takes them
# with RUSTC_BOOTSTRAP.
export RUSTC_BOOTSTRAP=1

if [ "$(cargo fuzz --version 2>/dev/null)" != "cargo-fuzz $CARGO_FUZZ_VERSION" ]; then
  echo "== cargo install cargo-fuzz $CARGO_FUZZ_VERSION"
  cargo install cargo-fuzz --locked --version "$CARGO_FUZZ_VERSION"
fi

# Optimised, with debug assertions and overflow checks (cargo fuzz's defaults), and no
# sanitizer: the project's code forbids `unsafe`, so AddressSanitizer would find little that a
# panic does not, at a much slower build and run; the coverage instrumentation stays.
fuzz_flags=(--sanitizer none)
# Sixteen codegen units: a much faster cold build on two cores, for somewhat slower runs.
fuzz_flags+=(--codegen-units 16)

for target in "${targets[@]}"; do
  [ -n "${max_len[$target]:-}" ] ||
    { echo "fuzz: unknown target $target (replay, house_rules, client_messages)"; exit 2; }
done

# The committed fuzz/Cargo.lock must be current (cargo fuzz has no --locked of its own).
cargo metadata --locked --format-version 1 --manifest-path fuzz/Cargo.toml >/dev/null 2>&1 ||
  { echo "fuzz: fuzz/Cargo.lock is not up to date with fuzz/Cargo.toml (or crates.io cannot be reached)"; exit 1; }

echo "== cargo fuzz build (fuzz/target)"
started=$SECONDS
build_log=$(mktemp)
# Every target in one build, or those named one by one.
builds=("")
[ $# -eq 0 ] || builds=("${targets[@]}")
for target in "${builds[@]}"; do
  (cd fuzz && cargo fuzz build "${fuzz_flags[@]}" $target) >"$build_log" 2>&1 || {
    tail -n 30 "$build_log"
    echo "fuzz: the fuzz targets do not build (cd fuzz && RUSTC_BOOTSTRAP=1 cargo fuzz build ${fuzz_flags[*]} $target)"
    exit 1
  }
done
rm -f "$build_log"
echo "   built in $((SECONDS - started)) s"
# Run the built binaries themselves: `cargo fuzz run` would check the build again each time.
bin_dir="fuzz/target/$(rustc -vV | sed -n 's/^host: //p')/release"

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for target in "${targets[@]}"; do
  corpus="$scratch/$target"
  mkdir -p "$corpus" "fuzz/artifacts/$target"
  cp fuzz/corpus/"$target"/* "$corpus"/
  if [ -d "fuzz/regressions/$target" ]; then cp fuzz/regressions/"$target"/* "$corpus"/; fi
  log="$scratch/$target.log"
  status=0
  "$bin_dir/$target" "$corpus" \
    -max_total_time="$seconds" -rss_limit_mb=2048 -max_len="${max_len[$target]}" \
    -timeout=10 -print_final_stats=1 \
    -artifact_prefix="fuzz/artifacts/$target/" >"$log" 2>&1 || status=$?
  runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
  if [ "$status" -ne 0 ]; then
    artifact=$(grep -o "fuzz/artifacts/$target/[^ ]*" "$log" | tail -n 1 || true)
    tail -n 40 "$log"
    echo "fuzz: $target failed (exit $status) after ${runs:-?} runs: input in ${artifact:-fuzz/artifacts/$target/} (replay it: fuzz/target/*/release/$target FILE)"
    exit 1
  fi
  echo "fuzz: $target: ${runs:-?} runs in ${seconds} s, no crash ($(ls "$corpus" | wc -l) inputs in the corpus)"
done
