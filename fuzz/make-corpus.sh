#!/usr/bin/env bash
# Regenerates the seed corpora of the fuzz targets (fuzz/corpus/<target>/) from the project's
# test data: the example and test records, a seeded deal and a whole random game of every
# preset, every preset's house-rule TOML and the house rules of the tests, and the client
# messages of docs/PROTOCOL.md at a table of every preset. Inputs that fuzzing found (crashes
# since fixed, kept as regressions) live in fuzz/regressions/<target>/ and are not touched.
set -euo pipefail
cd "$(dirname "$0")/.."

torite() { cargo run --quiet --locked -- "$@"; }
out=fuzz/corpus
rm -rf "$out"
mkdir -p "$out/replay" "$out/house_rules" "$out/client_messages"

# 1. Records.
for f in examples/*.json; do cp "$f" "$out/replay/example-$(basename "$f")"; done
for f in crates/cli/tests/data/*.json; do cp "$f" "$out/replay/test-$(basename "$f")"; done
for f in crates/cli/tests/data/bad/*.json; do cp "$f" "$out/replay/bad-$(basename "$f")"; done
presets=$(torite rules | awk '{print $1}')
for id in $presets; do
  torite deal "$id" --seed 1 >"$out/replay/deal-$id.json"
  torite deal "$id" --seed 2 --play >"$out/replay/play-$id.json"
done
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
printf 'base = "mura-4"\nthreshold = 6\ndeals = 3\n' >"$scratch/hard-mura.toml"
torite deal "$scratch/hard-mura.toml" --seed 5 --play >"$out/replay/play-hard-mura.json"
printf 'base = "mini-misere-4"\nlot_timing = "before-lead"\n' >"$scratch/lot.toml"
torite deal "$scratch/lot.toml" --seed 3 --play >"$out/replay/play-lot-before-lead.json"

# 2. House rules: every preset's TOML and the forms and mistakes the tests use.
for id in $presets; do
  torite rules "$id" >"$out/house_rules/$id.toml"
  printf '{"base": "%s"}\n' "$id" >"$out/house_rules/$id.json"
done
cp "$scratch/hard-mura.toml" "$scratch/lot.toml" "$out/house_rules/"
printf '{"base": "mura-4", "threshold": 6, "deals": 3}\n' >"$out/house_rules/hard-mura.json"
printf '{"base": "mura-4", "threshold": 6, "bonus_at": 7, "target": 20}\n' >"$out/house_rules/bonus.json"
printf '{"base": "middler", "follow": "jass", "deals": 6}\n' >"$out/house_rules/follow.json"
printf '{"base": "mini-misere-4", "low_card": 7, "led_low_wins": false}\n' >"$out/house_rules/low.json"
printf '{"base": "molotow-jass", "molotow_middle_wins": true}\n' >"$out/house_rules/molotow.json"
printf 'base = "mura-4"\nthreshhold = 6\n' >"$out/house_rules/bad-typo.toml"
printf 'base = "mura-4"\nlot_timing = "before-lead"\n' >"$out/house_rules/bad-other.toml"
printf 'base = "mura-4"\nfollow = "jass"\n' >"$out/house_rules/bad-value.toml"
printf 'threshold = 6\n' >"$out/house_rules/bad-nobase.toml"
printf 'base = "MURA-4"\n' >"$out/house_rules/bad-upper.toml"
printf 'base = mura-4\n' >"$out/house_rules/bad-syntax.toml"
printf 'base = "mura-4"\ntarget = 10\ndeals = 3\n' >"$out/house_rules/bad-both.toml"

# 3. Client messages (fuzz/fuzz_targets/client_messages.rs describes the input): a table of
# each preset, a random bot in seat 1, three actions in; then the seat to act plays legal
# actions between every kind of message of docs/PROTOCOL.md and its mistakes.
messages='t{"type":"act","action":"@A","version":@V}
0{"type":"ping"}
t{"type":"act","action":"@A","version":@V}
s{"type":"act","action":"AS","version":@V}
1{"type":"act","action":"AS","version":17}
x{"type":"act","action":"lot","version":@V}
h{"type":"act"}
t{"type":"act","action":"call:S","version":@V}
t{"type":"act","action":"pass","version":@V}
t{"type":"act","action":"lot","version":@V}
t{"type":"act","action":"@A","version":@V}
t{"type":"hello"}
tnot json
t{"type":"act","action":"@A","version":@V}
t{"type":"act","action":"@A","version":@V}
t{"type":"act","action":"@A","version":@V}'
i=0
for id in $presets; do
  { printf "\\x$(printf %02x "$i")\\x07\\x03\\x02"; printf '%s\n' "$messages"; } \
    >"$out/client_messages/$id"
  i=$((i + 1))
done
echo "seed corpora in $out: $(ls "$out/replay" | wc -l) records, $(ls "$out/house_rules" | wc -l) house rules, $(ls "$out/client_messages" | wc -l) message scripts"
