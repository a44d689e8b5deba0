//! Integration tests of the `torite` command: the `replay` and `perft` contract of
//! `RECORD.md` (outputs, every kind of bad input), `rules`, seeded `deal`s, `show`, `bench` and
//! `--help`.
//!
//! The records live in `tests/data/`. Most were written by hand; three whole Jass deals
//! (`molotow-three-way-tie`, `middler-joker-trump`, `mittlere-jass-no-trump`) were taken from
//! seeded random games (`torite deal ... --play`) for the rare situation each shows. Every
//! trick winner, point and score asserted about them was worked out from RULES.md without the
//! engine (see the comments at each test).

mod analyse;
mod bad_records;
mod commands;
#[path = "../common/mod.rs"]
mod common;
mod replay;

use serde_json::{Value, json};
use torite_i18n::Lang;

use common::{data, ok, refused, run, scratch, torite};

/// Every preset: id, seats, English and Japanese names, deck size.
const PRESETS: [(&str, usize, &str, &str, usize); 14] = [
    (
        "mini-misere-4",
        4,
        "Mini Misère (current rules, 4 players)",
        "ミニミゼール（現行ルール・4人）",
        24,
    ),
    (
        "mini-misere-4-1989",
        4,
        "Mini Misère (1989 rules, 4 players)",
        "ミニミゼール（1989年ルール・4人）",
        28,
    ),
    (
        "mini-misere-5",
        5,
        "Mini Misère (current rules, 5 players)",
        "ミニミゼール（現行ルール・5人）",
        25,
    ),
    (
        "mini-misere-5-1989",
        5,
        "Mini Misère (1989 rules, 5 players)",
        "ミニミゼール（1989年ルール・5人）",
        25,
    ),
    (
        "mini-misere-6",
        6,
        "Mini Misère (6 players)",
        "ミニミゼール（6人）",
        36,
    ),
    (
        "mini-misere-3",
        3,
        "Mini Misère (3 players, with the joker)",
        "ミニミゼール（3人・ジョーカー入り）",
        21,
    ),
    (
        "mittlere-jass",
        3,
        "Mittlere Jass",
        "ミットレール・ヤス",
        36,
    ),
    ("molotow-jass", 4, "Molotow Jass", "モロトフ・ヤス", 36),
    (
        "plus-minus-jass-3",
        3,
        "Plus-Minus Jass (3 players)",
        "プラス・マイナス・ヤス（3人）",
        36,
    ),
    (
        "plus-minus-jass-4",
        4,
        "Plus-Minus Jass (4 players)",
        "プラス・マイナス・ヤス（4人）",
        36,
    ),
    ("middler", 3, "Middler", "ミドラー", 36),
    (
        "middler-joker",
        3,
        "Middler with joker (33 cards)",
        "ミドラー（ジョーカー入り33枚）",
        33,
    ),
    ("mura-4", 4, "Mura (4 players)", "ムーラ（4人）", 36),
    ("mura-3", 3, "Mura (3 players)", "ムーラ（3人）", 36),
];

// ---------------------------------------------------------------------------------------------
// Running the binary
// ---------------------------------------------------------------------------------------------

/// A data file, parsed.
fn load(name: &str) -> Value {
    let text = std::fs::read_to_string(data(name)).expect("data file");
    serde_json::from_str(&text).expect("data files are valid JSON")
}

fn parse(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// Replays a data file by path.
fn replay_file(name: &str) -> Value {
    parse(&ok(torite(&["replay", &data(name)])))
}

/// Replays a record given as a value, through standard input.
fn replay(record: &Value) -> Value {
    parse(&ok(run(&["replay", "-"], Some(&record.to_string()))))
}

/// Checks that a record is bad input for `replay` and `perft` alike (same single line) and
/// returns the line.
fn refused_record(record: &str) -> String {
    let line = refused(&run(&["replay", "-"], Some(record)));
    let perft = refused(&run(&["perft", "-", "--depth", "1"], Some(record)));
    assert_eq!(line, perft, "replay and perft should refuse alike");
    line
}

fn refused_value(record: &Value) -> String {
    refused_record(&record.to_string())
}

/// Runs perft on a record given as a value; the output must be the count alone on one line.
fn perft(record: &Value, depth: u32) -> u64 {
    let out = ok(run(
        &["perft", "-", "--depth", &depth.to_string()],
        Some(&record.to_string()),
    ));
    let count = out
        .strip_suffix('\n')
        .unwrap_or_else(|| panic!("perft output must end with a newline: {out:?}"));
    assert!(
        !count.is_empty() && count.bytes().all(|b| b.is_ascii_digit()),
        "perft must print the count alone: {out:?}"
    );
    count.parse().expect("a count")
}

/// A copy of `record` changed by `f`.
fn with(record: &Value, f: impl FnOnce(&mut Value)) -> Value {
    let mut copy = record.clone();
    f(&mut copy);
    copy
}

/// The first `deals` deals of `record`, the last one cut after `actions` actions.
fn truncated(record: &Value, deals: usize, actions: usize) -> Value {
    with(record, |r| {
        let list = r["deals"].as_array_mut().expect("deals");
        list.truncate(deals);
        let last = list.last_mut().expect("a deal");
        last["actions"]
            .as_array_mut()
            .expect("actions")
            .truncate(actions);
    })
}

fn actions_mut(record: &mut Value, deal: usize) -> &mut Vec<Value> {
    record["deals"][deal]["actions"]
        .as_array_mut()
        .expect("actions")
}

fn hand_mut(record: &mut Value, deal: usize, seat: usize) -> &mut Vec<Value> {
    record["deals"][deal]["hands"][seat]
        .as_array_mut()
        .expect("hand")
}

/// Asserts that `actual` has everything `expected` has: objects may have extra keys (the
/// contract allows them), arrays must have the same length, other values must be equal.
fn assert_has(actual: &Value, expected: &Value) {
    fn walk(actual: &Value, expected: &Value, path: &str) {
        match (actual, expected) {
            (Value::Object(a), Value::Object(e)) => {
                for (key, value) in e {
                    let here = format!("{path}.{key}");
                    let got = a
                        .get(key)
                        .unwrap_or_else(|| panic!("missing key {here} in {actual}"));
                    walk(got, value, &here);
                }
            }
            (Value::Array(a), Value::Array(e)) => {
                assert_eq!(a.len(), e.len(), "length of {path}: got {actual}");
                for (i, (x, y)) in a.iter().zip(e).enumerate() {
                    walk(x, y, &format!("{path}[{i}]"));
                }
            }
            _ => assert_eq!(actual, expected, "at {path}"),
        }
    }
    walk(actual, expected, "$");
}

/// `scores` and `totals` of a deal in progress are absent or null.
fn assert_unscored(deal: &Value) {
    for key in ["scores", "totals"] {
        assert!(
            deal.get(key).is_none_or(Value::is_null),
            "{key} of a deal in progress must be absent or null: {deal}"
        );
    }
}

fn is_canonical_card(code: &str) -> bool {
    let b = code.as_bytes();
    code == "JK" || (b.len() == 2 && b"AKQJT98762".contains(&b[0]) && b"SHDC".contains(&b[1]))
}

// ---------------------------------------------------------------------------------------------
// replay: valid records
// ---------------------------------------------------------------------------------------------
