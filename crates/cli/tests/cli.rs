//! Integration tests of the `torite` command: the `replay` and `perft` contract of
//! `RECORD.md` (outputs, every kind of bad input), `rules`, seeded `deal`s, `show`, `bench` and
//! `--help`.
//!
//! The records live in `tests/data/`. Most were written by hand; three whole Jass deals
//! (`molotow-three-way-tie`, `middler-joker-trump`, `mittlere-jass-no-trump`) were taken from
//! seeded random games (`torite deal ... --play`) for the rare situation each shows. Every
//! trick winner, point and score asserted about them was worked out from RULES.md without the
//! engine (see the comments at each test).

mod common;

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

/// mini-misere-4, dealer 3 so seat 0 leads. Deal 0, trick by trick:
/// AS KS JS 2S → seat 0 (ace); 2H AH TH QH → seat 0 (a led 2 is highest); TD 2D AD JD → seat 2;
/// AC KC JC TC → seat 2; QS TS QC 2C → seat 2 (the others are void); KH JH KD QD → seat 2.
/// Tricks [2, 0, 4, 0] score 2, 6, 8, 6 on the trick table. Deal 1 has no dealer (it rotates
/// to seat 0, so seat 1 leads): seat 1 declares the Lot and leads 2C, which wins; the second
/// trick has KS QS so far.
#[test]
fn replay_hand_checked_game_with_a_deal_in_progress() {
    let report = replay_file("mini-misere-4-two-deals.json");
    assert_has(
        &report,
        &json!({
            "ruleset": "mini-misere-4",
            "deals": [
                {
                    "dealer": 3,
                    "trump": null,
                    "lot": null,
                    "tricks": [
                        {"leader": 0, "cards": ["AS", "KS", "JS", "2S"], "winner": 0},
                        {"leader": 0, "cards": ["2H", "AH", "TH", "QH"], "winner": 0},
                        {"leader": 0, "cards": ["TD", "2D", "AD", "JD"], "winner": 2},
                        {"leader": 2, "cards": ["AC", "KC", "JC", "TC"], "winner": 2},
                        {"leader": 2, "cards": ["QS", "TS", "QC", "2C"], "winner": 2},
                        {"leader": 2, "cards": ["KH", "JH", "KD", "QD"], "winner": 2}
                    ],
                    "tricks_won": [2, 0, 4, 0],
                    "card_points": [0, 0, 0, 0],
                    "scores": [2, 6, 8, 6],
                    "totals": [2, 6, 8, 6],
                    "complete": true
                },
                {
                    "dealer": 0,
                    "trump": null,
                    "lot": {"declarers": [1], "success": null},
                    "tricks": [
                        {"leader": 1, "cards": ["2C", "AC", "KC", "QC"], "winner": 1},
                        {"leader": 1, "cards": ["KS", "QS"], "winner": null}
                    ],
                    "tricks_won": [0, 1, 0, 0],
                    "card_points": [0, 0, 0, 0],
                    "complete": false
                }
            ],
            "finished": false,
            "winners": []
        }),
    );
    assert_unscored(&report["deals"][1]);
}

/// The example of RECORD.md: seat 0 declares the Lot as it leads KS and loses the trick to AS,
/// so the Lot fails and the deal ends at once: the three others score the fail points (6).
/// The file writes its codes in mixed case (`ks`, `10s`, `LOT`, `10h`).
#[test]
fn replay_record_md_example_lot_fails_on_the_first_trick() {
    let report = replay_file("lot-fails-first-trick.json");
    assert_has(
        &report,
        &json!({
            "ruleset": "mini-misere-4",
            "deals": [
                {
                    "dealer": 3,
                    "trump": null,
                    "lot": {"declarers": [0], "success": false},
                    "tricks": [{"leader": 0, "cards": ["KS", "AS", "TS", "QS"], "winner": 1}],
                    "tricks_won": [0, 1, 0, 0],
                    "card_points": [0, 0, 0, 0],
                    "scores": [0, 6, 6, 6],
                    "totals": [0, 6, 6, 6],
                    "complete": true
                }
            ],
            "finished": false,
            "winners": []
        }),
    );
}

#[test]
fn replay_reads_standard_input() {
    for name in [
        "mini-misere-4-two-deals.json",
        "lot-fails-first-trick.json",
        "molotow-three-way-tie.json",
    ] {
        let text = std::fs::read_to_string(data(name)).expect("data file");
        let from_file = ok(torite(&["replay", &data(name)]));
        let from_stdin = ok(run(&["replay", "-"], Some(&text)));
        assert_eq!(from_file, from_stdin, "{name}");
    }
}

#[test]
fn replay_record_without_deals() {
    let report = replay_file("no-deals.json");
    assert_has(
        &report,
        &json!({"ruleset": "mura-3", "deals": [], "finished": false, "winners": []}),
    );
}

/// Action words and card codes in any case, `10` for `T`: the report is canonical.
#[test]
fn replay_accepts_any_case_and_prints_canonical_codes() {
    let upper = replay(&json!({
        "ruleset": "mini-misere-4",
        "deals": [{
            "dealer": 3,
            "hands": [
                ["KS", "JS", "AH", "KH", "QH", "JH"],
                ["AS", "2S", "TH", "2H", "AD", "KD"],
                ["TS", "QD", "JD", "TD", "2D", "AC"],
                ["QS", "KC", "QC", "JC", "TC", "2C"]
            ],
            "actions": ["lot", "KS", "AS", "TS", "QS"]
        }]
    }));
    let mixed = replay_file("lot-fails-first-trick.json");
    assert_eq!(upper["deals"], mixed["deals"]);
    let lower = replay(&with(&load("mini-misere-4-two-deals.json"), |r| {
        fn lower_codes(list: &mut Value) {
            for code in list.as_array_mut().expect("codes") {
                let text = code.as_str().expect("code").to_lowercase();
                // Card codes only: `10` for a ten.
                let text = match text.strip_prefix('t') {
                    Some(suit) if suit.len() == 1 => format!("10{suit}"),
                    _ => text,
                };
                *code = Value::from(text);
            }
        }
        for deal in r["deals"].as_array_mut().expect("deals") {
            for hand in deal["hands"].as_array_mut().expect("hands") {
                lower_codes(hand);
            }
            lower_codes(&mut deal["actions"]);
        }
    }));
    assert_eq!(
        lower["deals"],
        replay_file("mini-misere-4-two-deals.json")["deals"]
    );
    for deal in lower["deals"].as_array().expect("deals") {
        for trick in deal["tricks"].as_array().expect("tricks") {
            for card in trick["cards"].as_array().expect("cards") {
                let card = card.as_str().expect("a card code");
                assert!(is_canonical_card(card), "{card} is not canonical");
            }
        }
    }
}

/// The `{"base": ..., options}` form: the current four-player rules with the 1989 Lot timing.
/// Seat 0 passes, seat 1 declares (which ends the asking), seat 0 leads KS and seat 1 wins with
/// AS; seat 1 leads 2S and wins (a led 2); seat 1 leads TH and loses it to AH: the Lot fails.
#[test]
fn replay_ruleset_with_options() {
    let report = replay_file("lot-before-lead.json");
    assert_has(
        &report,
        &json!({
            "ruleset": {"base": "mini-misere-4", "lot_timing": "before-lead"},
            "deals": [{
                "dealer": 3,
                "trump": null,
                "lot": {"declarers": [1], "success": false},
                "tricks": [
                    {"leader": 0, "cards": ["KS", "AS", "TS", "QS"], "winner": 1},
                    {"leader": 1, "cards": ["2S", "AC", "2C", "JS"], "winner": 1},
                    {"leader": 1, "cards": ["TH", "2D", "TC", "AH"], "winner": 0}
                ],
                "tricks_won": [1, 2, 0, 0],
                "scores": [6, 0, 6, 6],
                "totals": [6, 0, 6, 6],
                "complete": true
            }],
            "finished": false
        }),
    );
    // The object form naming only the base is the preset itself.
    let plain = replay(&with(&load("lot-fails-first-trick.json"), |r| {
        r["ruleset"] = json!({"base": "mini-misere-4"});
    }));
    assert_eq!(
        plain["deals"],
        replay_file("lot-fails-first-trick.json")["deals"]
    );
    // Under the current timing the same actions are illegal: `pass` asks nothing.
    let line = refused_value(&with(&load("lot-before-lead.json"), |r| {
        r["ruleset"] = json!("mini-misere-4");
    }));
    assert!(
        line.starts_with("deal 0, trick 0, seat 0: ") && line.contains("pass"),
        "{line}"
    );
}

/// mura-4, dealer 3: seat 0 leads AS (wins its own trick: 2 points, plus AD and AC, 1 each);
/// then AH loses to TH (ranks 10 9 A K Q J 8 7 6) and seat 1, never losing the lead again,
/// takes the rest: K, Q and J are 1 each, the captured AH 1. Points [4, 13, 0, 0]; seats 0 and
/// 1 reach the threshold 4 and take no penalty, seats 2 and 3 take 0 tricks + 1.
#[test]
fn replay_mura_penalties_and_threshold_option() {
    let report = replay_file("mura-4.json");
    assert_has(
        &report,
        &json!({
            "ruleset": "mura-4",
            "deals": [{
                "dealer": 3,
                "trump": null,
                "lot": null,
                "tricks_won": [1, 8, 0, 0],
                "card_points": [4, 13, 0, 0],
                "scores": [0, 0, 1, 1],
                "totals": [0, 0, 1, 1],
                "complete": true
            }],
            "finished": false,
            "winners": []
        }),
    );
    let tricks = report["deals"][0]["tricks"].as_array().expect("tricks");
    assert_eq!(tricks.len(), 9);
    assert_eq!(
        tricks[1],
        json!({"leader": 0, "cards": ["AH", "TH", "KD", "KC"], "winner": 1})
    );
    // With the hard threshold 6, seat 0's 4 points no longer exempt it: 1 trick + 1.
    let hard = replay(&with(&load("mura-4.json"), |r| {
        r["ruleset"] = json!({"base": "mura-4", "threshold": 6});
    }));
    assert_has(
        &hard,
        &json!({
            "ruleset": {"base": "mura-4", "threshold": 6},
            "deals": [{"scores": [2, 0, 1, 1], "totals": [2, 0, 1, 1]}]
        }),
    );
}

/// The 1989 five-player rules: everybody passes, seat 0 leads the joker and calls spades
/// (`call:s`, lower case), which the others must follow; seat 0 wins every trick. The trick
/// table gives 0 for 5 tricks and 5 for none.
#[test]
fn replay_joker_lead_with_suit_call() {
    let report = replay_file("mini-misere-5-1989-joker-call.json");
    assert_has(
        &report,
        &json!({
            "ruleset": "mini-misere-5-1989",
            "deals": [{
                "dealer": 4,
                "trump": null,
                "lot": null,
                "tricks": [
                    {"leader": 0, "cards": ["JK", "AS", "KS", "JS", "9S"], "winner": 0},
                    {"leader": 0, "cards": ["AH", "9H", "QD", "AC", "JC"], "winner": 0},
                    {"leader": 0, "cards": ["KH", "TH", "9D", "QS", "TS"], "winner": 0},
                    {"leader": 0, "cards": ["QH", "AD", "JD", "KC", "TC"], "winner": 0},
                    {"leader": 0, "cards": ["JH", "KD", "TD", "QC", "9C"], "winner": 0}
                ],
                "tricks_won": [5, 0, 0, 0, 0],
                "scores": [0, 5, 5, 5, 5],
                "totals": [0, 5, 5, 5, 5],
                "complete": true
            }]
        }),
    );
    let record = load("mini-misere-5-1989-joker-call.json");
    for call in ["CALL:S", "Call:S", "call:S"] {
        let other = replay(&with(&record, |r| actions_mut(r, 0)[6] = json!(call)));
        assert_eq!(other["deals"], report["deals"], "{call}");
    }
    // Stopped right after the joker: the trick in progress is just the joker.
    let cut = replay(&truncated(&record, 1, 6));
    assert_has(
        &cut["deals"][0],
        &json!({
            "tricks": [{"leader": 0, "cards": ["JK"], "winner": null}],
            "complete": false
        }),
    );
    assert_unscored(&cut["deals"][0]);
    // A call must come right after the led joker, and the called suit must be followed.
    let line = refused_value(&with(&record, |r| {
        actions_mut(r, 0).remove(6);
    }));
    assert!(
        line.starts_with("deal 0, trick 0, seat 0: AS"),
        "a card instead of the call: {line}"
    );
    let line = refused_value(&with(&record, |r| {
        actions_mut(r, 0)[6] = json!("call:h");
        actions_mut(r, 0)[7] = json!("AD");
    }));
    assert!(
        line.starts_with("deal 0, trick 0, seat 1: AD is illegal"),
        "{line}"
    );
}

/// Molotow: card points [41, 34, 41, 41] (trump clubs, set by QC in the fourth trick; checked
/// without the engine). Three seats tie: the fourth (seat 1) scores +1, the tied seat that drew the
/// highest card -1, the two others 0.
#[test]
fn replay_molotow_three_way_tie_uses_the_draw() {
    let record = load("molotow-three-way-tie.json");
    let report = replay_file("molotow-three-way-tie.json");
    assert_has(
        &report,
        &json!({
            "ruleset": "molotow-jass",
            "deals": [{
                "dealer": 2,
                "trump": "C",
                "lot": null,
                "tricks_won": [1, 2, 2, 4],
                "card_points": [41, 34, 41, 41],
                "scores": [0, 1, 0, -1],
                "totals": [0, 1, 0, -1],
                "complete": true
            }],
            "finished": false,
            "winners": []
        }),
    );
    assert_eq!(
        report["deals"][0]["tricks"][3],
        json!({"leader": 2, "cards": ["KD", "QC", "7D", "6D"], "winner": 3})
    );
    for (draw, scores) in [(0, [-1, 1, 0, 0]), (2, [0, 1, -1, 0])] {
        let other = replay(&with(&record, |r| r["deals"][0]["draw"] = json!(draw)));
        assert_eq!(other["deals"][0]["scores"], json!(scores), "draw {draw}");
    }
}

#[test]
fn bad_molotow_draw() {
    let record = load("molotow-three-way-tie.json");
    let missing = with(&record, |r| {
        r["deals"][0].as_object_mut().expect("deal").remove("draw");
    });
    let null = with(&record, |r| r["deals"][0]["draw"] = Value::Null);
    for bad in [missing, null] {
        let line = refused_value(&bad);
        assert!(
            line.starts_with("deal 0") && line.contains("draw"),
            "missing draw: {line}"
        );
    }
    for seat in [1, 4, 9] {
        let line = refused_value(&with(&record, |r| r["deals"][0]["draw"] = json!(seat)));
        assert!(
            line.starts_with("deal 0") && line.contains("draw") && line.contains(&seat.to_string()),
            "draw {seat} is not a tied seat: {line}"
        );
    }
    for draw in [json!("3"), json!(3.5), json!(-1), json!(true), json!([3])] {
        let line = refused_value(&with(&record, |r| r["deals"][0]["draw"] = draw.clone()));
        assert!(
            line.starts_with("deal 0") && line.contains("draw"),
            "draw {draw} is not an integer: {line}"
        );
    }
    // The draw must be a seat number even on a deal that needs none.
    let line = refused_value(&with(&load("lot-fails-first-trick.json"), |r| {
        r["deals"][0]["draw"] = json!("2");
    }));
    assert!(
        line.starts_with("deal 0") && line.contains("draw"),
        "{line}"
    );
}

/// On a deal that needs no draw, `draw` is ignored.
#[test]
fn replay_ignores_an_unneeded_draw() {
    let report = replay_file("lot-fails-first-trick.json");
    for draw in [0, 2, 3] {
        let other = replay(&with(&load("lot-fails-first-trick.json"), |r| {
            r["deals"][0]["draw"] = json!(draw);
        }));
        assert_eq!(other["deals"], report["deals"]);
    }
}

/// Middler with joker: the joker led in the fourth trick before any suit failed, so it is the
/// only trump all deal (`"JK"`). Points [48, 35, 38] (121 a deal, the joker worth 1, no
/// last-trick bonus); the highest and the lowest score their own points.
#[test]
fn replay_joker_as_the_only_trump() {
    let report = replay_file("middler-joker-trump.json");
    assert_has(
        &report,
        &json!({
            "ruleset": "middler-joker",
            "deals": [{
                "dealer": 0,
                "trump": "JK",
                "lot": null,
                "tricks_won": [4, 2, 5],
                "card_points": [48, 35, 38],
                "scores": [48, 35, 0],
                "totals": [48, 35, 0],
                "complete": true
            }]
        }),
    );
    assert_eq!(
        report["deals"][0]["tricks"][3],
        json!({"leader": 2, "cards": ["JK", "8D", "7D"], "winner": 2})
    );
}

/// Mittlere Jass where every card followed suit all deal: no trump, so each 8 is worth 8 at the
/// end, and the last trick 5 more: [38, 40, 79] (157). Highest and lowest +1, the middle -2.
/// In progress, the completed tricks count with 8s at 0 and no bonus: after 11 tricks
/// [30, 32, 56].
#[test]
fn replay_card_points_without_trump_and_in_progress() {
    let record = load("mittlere-jass-no-trump.json");
    let report = replay_file("mittlere-jass-no-trump.json");
    assert_has(
        &report,
        &json!({
            "ruleset": "mittlere-jass",
            "deals": [{
                "dealer": 0,
                "trump": null,
                "lot": null,
                "tricks_won": [4, 3, 5],
                "card_points": [38, 40, 79],
                "scores": [1, -2, 1],
                "totals": [1, -2, 1],
                "complete": true
            }]
        }),
    );
    let cut = replay(&truncated(&record, 1, 33));
    assert_has(
        &cut["deals"][0],
        &json!({"trump": null, "tricks_won": [4, 3, 4], "card_points": [30, 32, 56], "complete": false}),
    );
    assert_unscored(&cut["deals"][0]);
    let cut = replay(&truncated(&record, 1, 34));
    assert_has(
        &cut["deals"][0],
        &json!({"card_points": [30, 32, 56], "complete": false}),
    );
    assert_eq!(
        cut["deals"][0]["tricks"][11],
        json!({"leader": 0, "cards": ["6S"], "winner": null})
    );
    // Molotow in progress: after two tricks, plain values (TC AC 6C JC = 23 to seat 0, 9S KS
    // JS QS = 9 to seat 1); once QC sets clubs as trump in the fourth trick, the first trick's
    // JC counts 20 (41 to seat 0), JD AD TD 9D gives 23 to seat 2 and KD QC 7D 6D 7 to seat 3.
    let molotow = load("molotow-three-way-tie.json");
    for (actions, trump, points) in [
        (8, Value::Null, [23, 9, 0, 0]),
        (16, json!("C"), [41, 9, 23, 7]),
        (18, json!("C"), [41, 9, 23, 7]),
    ] {
        let cut = replay(&truncated(&molotow, 1, actions));
        assert_has(
            &cut["deals"][0],
            &json!({"trump": trump, "card_points": points, "complete": false}),
        );
        assert_unscored(&cut["deals"][0]);
    }
}

/// A game of one deal (`deals = 1`) ends after it; seats tied for the best total share the win.
#[test]
fn replay_finished_game() {
    let report = replay_file("one-deal-game.json");
    assert_has(
        &report,
        &json!({
            "ruleset": {"base": "mini-misere-4", "deals": 1},
            "deals": [{"scores": [0, 6, 6, 6], "totals": [0, 6, 6, 6], "complete": true}],
            "finished": true,
            "winners": [1, 2, 3]
        }),
    );
}

/// Random complete games of every preset replay, and their reports hold together: trick
/// cards come from the right hands, dealers rotate, totals add up, card points sum to the
/// deal's value, the game is finished and the winners have the best total.
#[test]
fn replay_complete_games_of_every_preset() {
    for (id, n, _, _, deck) in PRESETS {
        let text = ok(torite(&["deal", id, "--seed", "2024", "--play"]));
        let record = parse(&text);
        let report = parse(&ok(run(&["replay", "-"], Some(&text))));
        assert_eq!(report["ruleset"], json!(id));
        assert_eq!(report["finished"], json!(true), "{id}");
        let deals = report["deals"].as_array().expect("deals");
        assert_eq!(
            deals.len(),
            record["deals"].as_array().expect("deals").len()
        );
        let first_dealer = deals[0]["dealer"].as_u64().expect("dealer") as usize;
        let mut totals = vec![0i64; n];
        for (i, deal) in deals.iter().enumerate() {
            let ctx = format!("{id} deal {i}");
            assert_eq!(deal["dealer"], json!((first_dealer + i) % n), "{ctx}");
            assert_eq!(deal["complete"], json!(true), "{ctx}");
            let hands = &record["deals"][i]["hands"];
            let tricks = deal["tricks"].as_array().expect("tricks");
            let mut won = vec![0u64; n];
            for trick in tricks {
                let leader = trick["leader"].as_u64().expect("leader") as usize;
                let cards = trick["cards"].as_array().expect("cards");
                assert_eq!(cards.len(), n, "{ctx}: {trick}");
                for (k, card) in cards.iter().enumerate() {
                    let code = card.as_str().expect("card");
                    assert!(is_canonical_card(code), "{ctx}: {code}");
                    let hand = hands[(leader + k) % n].as_array().expect("hand");
                    assert!(
                        hand.contains(card),
                        "{ctx}: {code} not in the player's hand"
                    );
                }
                won[trick["winner"].as_u64().expect("a winner") as usize] += 1;
            }
            let tricks_won: Vec<u64> = deal["tricks_won"]
                .as_array()
                .expect("tricks_won")
                .iter()
                .map(|t| t.as_u64().expect("count"))
                .collect();
            assert_eq!(tricks_won, won, "{ctx}");
            if deal["lot"].is_null() {
                assert_eq!(tricks.len(), deck / n, "{ctx}");
            } else {
                assert!(id.starts_with("mini-misere"), "{ctx}: a Lot");
                assert!(deal["lot"]["success"].is_boolean(), "{ctx}");
            }
            let points: Vec<i64> = deal["card_points"]
                .as_array()
                .expect("card_points")
                .iter()
                .map(|p| p.as_i64().expect("points"))
                .collect();
            let sum: i64 = points.iter().sum();
            let trump = &deal["trump"];
            match id {
                _ if id.starts_with("mini-misere") => {
                    assert_eq!(sum, 0, "{ctx}");
                    assert!(trump.is_null(), "{ctx}");
                }
                _ if id.starts_with("mura") => {
                    assert!((16..=20).contains(&sum), "{ctx}: {sum}");
                    assert!(trump.is_null(), "{ctx}");
                }
                "middler-joker" => {
                    assert_eq!(sum, 121, "{ctx}");
                    assert!(
                        trump.is_null()
                            || ["S", "H", "D", "C", "JK"].contains(&trump.as_str().expect("trump")),
                        "{ctx}: {trump}"
                    );
                }
                _ => {
                    assert_eq!(sum, 157, "{ctx}");
                    assert!(
                        trump.is_null()
                            || ["S", "H", "D", "C"].contains(&trump.as_str().expect("trump")),
                        "{ctx}: {trump}"
                    );
                }
            }
            let scores = deal["scores"].as_array().expect("scores");
            assert_eq!(scores.len(), n);
            for (seat, score) in scores.iter().enumerate() {
                totals[seat] += score.as_i64().expect("an integer score");
            }
            assert_eq!(deal["totals"], json!(totals), "{ctx}");
        }
        let best = if id.starts_with("mura") {
            totals.iter().min()
        } else {
            totals.iter().max()
        };
        let best_seats: Vec<usize> = (0..n).filter(|&s| Some(&totals[s]) == best).collect();
        assert_eq!(
            report["winners"],
            json!(best_seats),
            "{id}: totals {totals:?}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// replay: bad input
// ---------------------------------------------------------------------------------------------

#[test]
fn bad_invalid_json() {
    for text in [
        "",
        "{",
        "{\"ruleset\": \"mura-4\", \"deals\": [}",
        "{\"ruleset\": \"mura-4\", \"deals\": []} trailing",
        "ruleset = \"mura-4\"",
    ] {
        let line = refused_record(text);
        assert!(line.contains("JSON"), "{text:?}: {line}");
    }
    let path = scratch("broken").join("broken.json");
    std::fs::write(&path, "{\"ruleset\": \"mura-4\",").expect("write");
    let line = refused(&torite(&["replay", path.to_str().expect("path")]));
    assert!(line.contains("JSON"), "{line}");
}

#[test]
fn bad_record_shape() {
    for (record, word) in [
        (json!([]), "object"),
        (json!({"deals": []}), "ruleset"),
        (json!({"ruleset": "mura-4"}), "deals"),
        (json!({"ruleset": "mura-4", "deals": {}}), "deals"),
        (json!({"ruleset": "mura-4", "deals": [3]}), "deal"),
    ] {
        let line = refused_value(&record);
        assert!(line.contains(word), "{record}: {line}");
    }
    let line = refused_value(&with(&load("lot-fails-first-trick.json"), |r| {
        r["deals"][0].as_object_mut().expect("deal").remove("hands");
    }));
    assert!(
        line.starts_with("deal 0") && line.contains("hands"),
        "{line}"
    );
}

#[test]
fn bad_unknown_ruleset() {
    for ruleset in [json!("mini-misere-7"), json!("jass"), json!(4)] {
        let line = refused_value(&json!({"ruleset": ruleset, "deals": []}));
        assert!(line.contains("ruleset"), "{ruleset}: {line}");
        if let Some(id) = ruleset.as_str() {
            assert!(line.contains(id), "{line}");
        }
    }
    let line = refused_value(&json!({"ruleset": {"base": "skat"}, "deals": []}));
    assert!(line.contains("skat"), "{line}");
    let line = refused_value(&json!({"ruleset": {"target": 30}, "deals": []}));
    assert!(line.contains("base"), "{line}");
}

/// Ids are lower case and must be exactly a preset's.
#[test]
fn bad_ruleset_id_not_exactly_a_preset() {
    for id in [
        "Mini-Misere-4",
        "MINI-MISERE-4",
        "Mura-4",
        " mura-4",
        "mura-4 ",
        "mura_4",
        "mura",
    ] {
        let record = with(&load("lot-fails-first-trick.json"), |r| {
            r["ruleset"] = json!(id);
        });
        let line = refused_value(&record);
        assert!(line.contains(id), "{id:?}: {line}");
        let line = refused_value(&json!({"ruleset": {"base": id}, "deals": []}));
        assert!(line.contains(id), "{id:?} as a base: {line}");
    }
}

#[test]
fn bad_options() {
    for (ruleset, name) in [
        (json!({"base": "mura-4", "threshhold": 6}), "threshhold"),
        (json!({"base": "mura-4", "Threshold": 6}), "Threshold"),
        // An option of another game.
        (
            json!({"base": "mini-misere-4", "threshold": 6}),
            "threshold",
        ),
        (
            json!({"base": "mura-4", "lot_timing": "before-lead"}),
            "lot_timing",
        ),
        (json!({"base": "mura-4", "follow": "jass"}), "follow"),
        // Bad values.
        (json!({"base": "mini-misere-4", "low_card": 7}), "low_card"),
        (
            json!({"base": "mini-misere-4", "lot_timing": "never"}),
            "lot_timing",
        ),
        (json!({"base": "mura-4", "threshold": "4"}), "threshold"),
        (json!({"base": "mura-4", "deals": 0}), "deals"),
        (
            json!({"base": "mini-misere-4-1989", "low_card": 9}),
            "low_card",
        ),
        // Options that do not go together.
        (
            json!({"base": "mura-4", "threshold": 6, "bonus_at": 5}),
            "bonus_at",
        ),
        (
            json!({"base": "mini-misere-4", "target": 30, "deals": 4}),
            "deals",
        ),
    ] {
        let line = refused_value(&json!({"ruleset": ruleset, "deals": []}));
        assert!(line.contains(name), "{ruleset}: {line}");
    }
}

#[test]
fn bad_card_codes() {
    let record = load("mini-misere-4-two-deals.json");
    for code in ["ZZ", "1S", "AX", "11H", "", "A", "JOKER"] {
        let line = refused_value(&with(&record, |r| hand_mut(r, 0, 3)[2] = json!(code)));
        assert!(
            line.starts_with("deal 0") && line.contains(&format!("\"{code}\"")),
            "{code:?} in a hand: {line}"
        );
        let line = refused_value(&with(&record, |r| actions_mut(r, 0)[5] = json!(code)));
        assert!(
            line.starts_with("deal 0, trick 1, seat 1: ") && line.contains(&format!("\"{code}\"")),
            "{code:?} as an action: {line}"
        );
    }
    // In the deal in progress: the 7th action of deal 1 is seat 2's card to trick 1.
    let line = refused_value(&with(&record, |r| actions_mut(r, 1)[6] = json!("QX")));
    assert!(
        line.starts_with("deal 1, trick 1, seat 2: ") && line.contains("QX"),
        "{line}"
    );
    for word in ["lots", "call:x", "call", "play:AS"] {
        let line = refused_value(&with(&record, |r| actions_mut(r, 0)[0] = json!(word)));
        assert!(
            line.starts_with("deal 0, trick 0, seat 0: ") && line.contains(word),
            "{word}: {line}"
        );
    }
    let line = refused_value(&with(&record, |r| actions_mut(r, 0)[0] = json!(7)));
    assert!(line.starts_with("deal 0, trick 0, seat 0: "), "{line}");
    let line = refused_value(&with(&record, |r| hand_mut(r, 0, 1)[0] = json!(7)));
    assert!(line.starts_with("deal 0"), "{line}");
}

#[test]
fn bad_hands_not_a_partition_of_the_deck() {
    let record = load("mini-misere-4-two-deals.json");
    // A card dealt twice (so another is missing): across seats, then within one hand.
    let line = refused_value(&with(&record, |r| hand_mut(r, 0, 3)[0] = json!("AS")));
    assert!(line.starts_with("deal 0") && line.contains("AS"), "{line}");
    let line = refused_value(&with(&record, |r| hand_mut(r, 0, 3)[0] = json!("2S")));
    assert!(line.starts_with("deal 0") && line.contains("2S"), "{line}");
    // A card that is not in this ruleset's deck (in place of one that is).
    for code in ["9C", "JK", "6S"] {
        let line = refused_value(&with(&record, |r| hand_mut(r, 0, 3)[5] = json!(code)));
        assert!(
            line.starts_with("deal 0") && line.contains(code),
            "{code}: {line}"
        );
    }
    // Equal shares of too few cards: a card is missing from every hand.
    let line = refused_value(&with(&record, |r| {
        for seat in 0..4 {
            hand_mut(r, 0, seat).pop();
        }
    }));
    assert!(line.starts_with("deal 0"), "{line}");
    // One card missing.
    let line = refused_value(&with(&record, |r| {
        hand_mut(r, 0, 2).pop();
    }));
    assert!(line.starts_with("deal 0"), "{line}");
    // Wrong number of hands; the error is in the second deal.
    let line = refused_value(&with(&record, |r| {
        r["deals"][1]["hands"].as_array_mut().expect("hands").pop();
    }));
    assert!(line.starts_with("deal 1"), "{line}");
}

#[test]
fn bad_hands_in_unequal_shares() {
    let line = refused_value(&with(&load("mini-misere-4-two-deals.json"), |r| {
        let card = hand_mut(r, 0, 3).pop().expect("a card");
        hand_mut(r, 0, 0).push(card);
    }));
    assert!(
        line.starts_with("deal 0") && line.contains("seat"),
        "{line}"
    );
}

/// The example line of RECORD.md: trick 2, seat 1 plays 9H while holding JS, spades led.
#[test]
fn bad_illegal_action_must_follow_suit() {
    let line = refused(&torite(&["replay", &data("bad/must-follow.json")]));
    assert_eq!(
        line,
        "deal 0, trick 2, seat 1: 9H is illegal: seat must follow spades"
    );
    let perft = refused(&torite(&[
        "perft",
        &data("bad/must-follow.json"),
        "--depth",
        "1",
    ]));
    assert_eq!(perft, line);
    let show = refused(&torite(&["show", &data("bad/must-follow.json")]));
    assert_eq!(show, line);
}

#[test]
fn bad_illegal_actions() {
    let record = load("mini-misere-4-two-deals.json");
    // Deal 1: seat 2 holds AC but plays QS to the 2C lead.
    let line = refused_value(&with(&record, |r| actions_mut(r, 1)[2] = json!("QS")));
    assert!(
        line.starts_with("deal 1, trick 0, seat 2: QS is illegal") && line.contains("clubs"),
        "{line}"
    );
    // A card the seat does not hold.
    let line = refused_value(&with(&record, |r| actions_mut(r, 0)[0] = json!("KS")));
    assert!(
        line.starts_with("deal 0, trick 0, seat 0: KS is illegal"),
        "{line}"
    );
    // The Lot after the first trick, and `pass` where nothing is asked.
    let line = refused_value(&with(&record, |r| {
        actions_mut(r, 0).insert(4, json!("lot"))
    }));
    assert!(
        line.starts_with("deal 0, trick 1, seat 0: lot is illegal"),
        "{line}"
    );
    let line = refused_value(&with(&record, |r| {
        actions_mut(r, 0).insert(1, json!("pass"))
    }));
    assert!(
        line.starts_with("deal 0, trick 0, seat 1: pass is illegal"),
        "{line}"
    );
    // Declaring twice, and calling a suit without a joker.
    let line = refused_value(&with(&record, |r| {
        actions_mut(r, 1).insert(1, json!("LOT"))
    }));
    assert!(
        line.starts_with("deal 1, trick 0, seat 1: lot is illegal"),
        "{line}"
    );
    let line = refused_value(&with(&record, |r| {
        actions_mut(r, 0).insert(1, json!("call:S"))
    }));
    assert!(
        line.starts_with("deal 0, trick 0, seat 1: call:S is illegal"),
        "{line}"
    );
}

#[test]
fn bad_action_after_the_deal_is_over() {
    // The Lot failed with the first trick: the deal is over.
    let line = refused_value(&with(&load("lot-fails-first-trick.json"), |r| {
        actions_mut(r, 0).push(json!("2s"));
    }));
    assert!(
        line.starts_with("deal 0, trick 1") && line.contains("2s"),
        "{line}"
    );
    // All six tricks played.
    let line = refused_value(&with(&load("mini-misere-4-two-deals.json"), |r| {
        actions_mut(r, 0).push(json!("AS"));
    }));
    assert!(
        line.starts_with("deal 0, trick 6") && line.contains("AS"),
        "{line}"
    );
}

#[test]
fn bad_action_or_deal_after_the_game_is_over() {
    let record = load("one-deal-game.json");
    let line = refused_value(&with(&record, |r| actions_mut(r, 0).push(json!("JS"))));
    assert!(line.starts_with("deal 0") && line.contains("JS"), "{line}");
    let next = json!({
        "hands": record["deals"][0]["hands"].clone(),
        "actions": []
    });
    let line = refused_value(&with(&record, |r| {
        r["deals"].as_array_mut().expect("deals").push(next.clone());
    }));
    assert!(line.starts_with("deal 1"), "{line}");
}

#[test]
fn bad_first_deal_without_dealer() {
    let record = load("lot-fails-first-trick.json");
    let missing = with(&record, |r| {
        r["deals"][0]
            .as_object_mut()
            .expect("deal")
            .remove("dealer");
    });
    let null = with(&record, |r| r["deals"][0]["dealer"] = Value::Null);
    for bad in [missing, null] {
        let line = refused_value(&bad);
        assert!(
            line.starts_with("deal 0") && line.contains("dealer"),
            "{line}"
        );
    }
}

#[test]
fn bad_dealer() {
    let record = load("mini-misere-4-two-deals.json");
    // Deal 1's dealer is seat 0 (after seat 3): saying so is fine, anything else is not.
    let explicit = replay(&with(&record, |r| r["deals"][1]["dealer"] = json!(0)));
    assert_eq!(
        explicit["deals"],
        replay_file("mini-misere-4-two-deals.json")["deals"]
    );
    for dealer in [1, 2, 3] {
        let line = refused_value(&with(&record, |r| r["deals"][1]["dealer"] = json!(dealer)));
        assert!(
            line.starts_with("deal 1") && line.contains("dealer"),
            "dealer {dealer}: {line}"
        );
    }
    // Not a seat, not a number.
    for dealer in [json!(4), json!(-1), json!("3"), json!(2.5)] {
        let line = refused_value(&with(&record, |r| r["deals"][0]["dealer"] = dealer.clone()));
        assert!(
            line.starts_with("deal 0") && line.contains("dealer"),
            "dealer {dealer}: {line}"
        );
    }
}

#[test]
fn bad_incomplete_deal_that_is_not_the_last() {
    let record = load("mini-misere-4-two-deals.json");
    for cut in [0, 10, 23] {
        let line = refused_value(&with(&record, |r| {
            actions_mut(r, 0).truncate(cut);
        }));
        assert!(line.starts_with("deal 0"), "{cut} actions: {line}");
    }
}

#[test]
fn bad_players() {
    let record = load("mini-misere-4-two-deals.json");
    for players in [
        json!(["Aki", "Ben", "Chie"]),
        json!(["Aki", "Ben", "Chie", "Dan", "Emi"]),
        json!([]),
        json!("Aki"),
        json!(["Aki", "Ben", "Chie", 4]),
    ] {
        let line = refused_value(&with(&record, |r| r["players"] = players.clone()));
        assert!(line.contains("players"), "{players}: {line}");
    }
    let none = replay(&with(&record, |r| {
        r.as_object_mut().expect("record").remove("players");
    }));
    assert_eq!(
        none["deals"],
        replay_file("mini-misere-4-two-deals.json")["deals"]
    );
}

#[test]
fn bad_nonexistent_file() {
    let missing = data("no-such-record.json");
    for args in [
        vec!["replay", missing.as_str()],
        vec!["perft", missing.as_str(), "--depth", "1"],
        vec!["show", missing.as_str()],
    ] {
        let line = refused(&torite(&args));
        assert!(line.contains("no-such-record.json"), "{args:?}: {line}");
    }
}

// ---------------------------------------------------------------------------------------------
// perft
// ---------------------------------------------------------------------------------------------

#[test]
fn perft_depth_zero_is_one() {
    for name in [
        "mini-misere-4-two-deals.json",
        "lot-fails-first-trick.json",
        "molotow-three-way-tie.json",
    ] {
        let out = ok(torite(&["perft", &data(name), "--depth", "0"]));
        assert_eq!(out, "1\n", "{name}");
    }
}

/// The first position of the hand-checked deal: seat 0 leads with 6 cards.
/// Depth 1: 6 cards + `lot` = 7.
/// Depth 2: `lot` then a card (6), or a card then seat 1's answer: a card following suit or
/// `lot`: AS → KS (1 + 1), 2H → AH (2), KD, TD → QD 2D (3 each), QC, JC → TC 2C (3 each): 16.
/// Depth 3: `lot`, card, seat 1's answer: 16; card, `lot`, seat 1's card: 1+1+2+2+2+2 = 10;
/// card, card, seat 2's card or `lot` (spades 2+1, hearts 2+1, diamonds 1+1, clubs 1+1):
/// 3 + 3 + 2·2 + 2·2 + 2·2 + 2·2 = 22. Total 48.
#[test]
fn perft_first_position_of_a_deal() {
    let start = truncated(&load("mini-misere-4-two-deals.json"), 1, 0);
    assert_eq!(perft(&start, 0), 1);
    assert_eq!(perft(&start, 1), 7);
    assert_eq!(perft(&start, 2), 22);
    assert_eq!(perft(&start, 3), 48);
}

/// After four tricks of deal 0: seat 2 leads from QS KH, seat 3 follows (TS or JH), seats 0
/// and 1 are void in both suits and play either card; seat 2 wins and the last trick is forced.
#[test]
fn perft_near_the_end_of_a_deal() {
    let end = truncated(&load("mini-misere-4-two-deals.json"), 1, 16);
    for (depth, count) in [
        (0, 1),
        (1, 2),
        (2, 2),
        (3, 4),
        (4, 8),
        (5, 8),
        (8, 8),
        (12, 8),
    ] {
        assert_eq!(perft(&end, depth), count, "depth {depth}");
    }
}

/// Deal 1 in progress: seat 3 must follow KS with TS or 2S, seat 0 with AS, which wins the
/// trick: seat 1's Lot fails and the deal ends there, so longer sequences count once.
#[test]
fn perft_sequences_that_end_the_deal_count_once() {
    let record = load("mini-misere-4-two-deals.json");
    for depth in 1..=5 {
        assert_eq!(perft(&record, depth), 2, "depth {depth}");
    }
}

#[test]
fn perft_lot_questions_joker_calls() {
    // 1989 timing: the leader answers lot or pass; after `lot` it leads one of 7 cards, after
    // `pass` the next seat answers.
    let record = load("bad/must-follow.json");
    let ask = truncated(&record, 1, 0);
    assert_eq!(perft(&ask, 1), 2);
    assert_eq!(perft(&ask, 2), 7 + 2);
    // All four passed: seat 0 leads.
    assert_eq!(perft(&truncated(&record, 1, 4), 1), 7);
    // A led joker: four calls; then seat 1 follows the called suit: S 1, H 2, D 2, C none so 5.
    let joker = load("mini-misere-5-1989-joker-call.json");
    assert_eq!(perft(&truncated(&joker, 1, 6), 1), 4);
    assert_eq!(perft(&truncated(&joker, 1, 6), 2), 1 + 2 + 2 + 5);
    assert_eq!(perft(&truncated(&joker, 1, 7), 1), 1);
}

#[test]
fn perft_from_a_finished_deal_is_one() {
    for name in [
        "lot-fails-first-trick.json",
        "one-deal-game.json",
        "mura-4.json",
        "molotow-three-way-tie.json",
    ] {
        for depth in ["1", "3"] {
            let out = ok(torite(&["perft", &data(name), "--depth", depth]));
            assert_eq!(out, "1\n", "{name} depth {depth}");
        }
    }
}

#[test]
fn perft_bad_input() {
    let line = refused(&torite(&["perft", &data("no-deals.json"), "--depth", "1"]));
    assert!(line.contains("deals"), "{line}");
    let line = refused(&torite(&["perft", &data("no-deals.json"), "--depth", "0"]));
    assert!(line.contains("deals"), "{line}");
    let line = refused(&run(&["perft", "-", "--depth", "2"], Some("{")));
    assert!(line.contains("JSON"), "{line}");
}

// ---------------------------------------------------------------------------------------------
// rules
// ---------------------------------------------------------------------------------------------

#[test]
fn rules_lists_every_preset() {
    let out = ok(torite(&["rules"]));
    let lines: Vec<&str> = out.lines().filter(|l| !l.trim().is_empty()).collect();
    assert_eq!(lines.len(), PRESETS.len(), "{out}");
    for (line, (id, n, en, ja, _)) in lines.iter().zip(PRESETS) {
        assert_eq!(line.split_whitespace().next(), Some(id), "{line}");
        assert!(line.contains(&format!("{n}p")), "{line}");
        assert!(line.contains(en), "{line} lacks {en}");
        assert!(line.contains(ja), "{line} lacks {ja}");
    }
}

#[test]
fn sheet_compare_sets_the_mini_misere_family_side_by_side_in_either_language() {
    for (lang, kicker, heads) in [
        (
            "en",
            "The rules side by side",
            [
                "4 players (current)",
                "4 players (1989)",
                "6 players (current)",
                "3 players",
            ],
        ),
        (
            "ja",
            "ルール比較表",
            ["4人（現行）", "4人（1989年）", "6人（現行）", "3人"],
        ),
    ] {
        let html = ok(torite(&[
            "sheet",
            "mini-misere",
            "--kind",
            "compare",
            "--lang",
            lang,
        ]));
        assert!(html.starts_with("<!DOCTYPE html>"), "{lang}");
        assert!(html.contains(kicker), "{lang}");
        for head in heads {
            assert!(html.contains(head), "{lang}: no column {head}");
        }
        assert!(html.contains("◆"), "{lang}: no difference marked");
        // A preset id compares the same family, starting from that preset.
        let by_id = ok(torite(&[
            "sheet",
            "mini-misere-4",
            "--kind",
            "compare",
            "--lang",
            lang,
        ]));
        assert_eq!(by_id, html, "{lang}");
    }
    let dir = scratch("sheet-compare");
    let pdf = dir.join("compare.pdf");
    ok(torite(&[
        "sheet",
        "mini-misere",
        "--kind",
        "compare",
        "-o",
        common::path_str(&pdf),
    ]));
    assert!(std::fs::read(&pdf).unwrap().starts_with(b"%PDF-"));
    // A family name is only a compare sheet's; other kinds still want a preset or a file.
    let line = refused(&torite(&["sheet", "mini-misere", "--kind", "rules"]));
    assert!(
        line.contains("is neither a preset id nor a house-rule file"),
        "{line}"
    );
    let line = refused(&torite(&["sheet", "nonesuch", "--kind", "compare"]));
    assert!(line.contains("\"nonesuch\""), "{line}");
}

#[test]
fn rules_describes_a_ruleset_as_its_rules_sheet_in_either_language() {
    for (id, _, en, ja, _) in PRESETS {
        let english = ok(torite(&["rules", id, "--lang", "en"]));
        assert!(
            english.starts_with(&format!("# {en}\n")),
            "{id}:\n{english}"
        );
        assert!(english.contains("\n## "), "{id}:\n{english}");
        let japanese = ok(torite(&["rules", id, "--lang", "ja"]));
        assert!(
            japanese.starts_with(&format!("# {ja}\n")),
            "{id}:\n{japanese}"
        );
        // The same text as the printable rules sheet.
        let rules = torite_core::Preset::from_id(id)
            .expect("a preset")
            .ruleset();
        for (lang, text) in [(Lang::En, &english), (Lang::Ja, &japanese)] {
            let sheet = torite_sheets::Sheet::new(&rules, torite_sheets::Kind::Rules, lang);
            assert_eq!(**text, sheet.text(), "{id} {lang}");
        }
    }
    let mura = ok(torite(&["rules", "mura-4", "--lang", "en"]));
    assert!(mura.contains("## End of the game"), "{mura}");
}

#[test]
fn rules_toml_round_trips_through_deal_and_replay() {
    for (id, _, en, ja, _) in PRESETS {
        let text = ok(torite(&["rules", id, "--toml", "--lang", "en"]));
        let table: toml::Table =
            toml::from_str(&text).unwrap_or_else(|e| panic!("{id}: not TOML ({e}):\n{text}"));
        assert_eq!(table.get("base").and_then(|b| b.as_str()), Some(id));
        assert!(text.contains(en) && text.contains(ja), "{id}:\n{text}");
        let path = scratch(id).join(format!("{id}.toml"));
        std::fs::write(&path, &text).expect("write");
        let file = path.to_str().expect("path");
        assert_eq!(
            ok(torite(&["rules", file, "--toml", "--lang", "en"])),
            text,
            "{id}: rules FILE"
        );
        // The labels are in the language asked for; the options are the same.
        let japanese = ok(torite(&["rules", id, "--toml", "--lang", "ja"]));
        assert_eq!(toml::from_str::<toml::Table>(&japanese).ok(), Some(table));
        let dealt = ok(torite(&["deal", file, "--seed", "1"]));
        assert_eq!(dealt, ok(torite(&["deal", id, "--seed", "1"])), "{id}");
        let report = parse(&ok(run(&["replay", "-"], Some(&dealt))));
        assert_eq!(report["deals"][0]["complete"], json!(false), "{id}");
        let played = ok(torite(&["deal", file, "--seed", "1", "--play"]));
        let report = parse(&ok(run(&["replay", "-"], Some(&played))));
        assert_eq!(report["finished"], json!(true), "{id}");
    }
}

#[test]
fn rules_house_rule_files() {
    let path = scratch("hard-mura").join("hard-mura.toml");
    std::fs::write(&path, "base = \"mura-4\"\nthreshold = 6\ndeals = 3\n").expect("write");
    let file = path.to_str().expect("path");
    let text = ok(torite(&["rules", file, "--toml"]));
    let table: toml::Table = toml::from_str(&text).expect("TOML");
    assert_eq!(table["base"].as_str(), Some("mura-4"));
    assert_eq!(table["threshold"].as_integer(), Some(6));
    assert_eq!(table["deals"].as_integer(), Some(3));
    let played = ok(torite(&["deal", file, "--seed", "5", "--play"]));
    let report = parse(&ok(run(&["replay", "-"], Some(&played))));
    assert_has(
        &report,
        &json!({"ruleset": {"base": "mura-4", "threshold": 6, "deals": 3}, "finished": true}),
    );
    assert_eq!(report["deals"].as_array().expect("deals").len(), 3);
    // The JSON object form works as a file too.
    let json_path = path.with_file_name("hard-mura.json");
    std::fs::write(
        &json_path,
        r#"{"base": "mura-4", "threshold": 6, "deals": 3}"#,
    )
    .expect("write");
    assert_eq!(
        ok(torite(&[
            "rules",
            json_path.to_str().expect("path"),
            "--toml"
        ])),
        text
    );
    // Described, it names its house rules.
    let described = ok(torite(&["rules", file, "--lang", "en"]));
    assert!(
        described.contains("House rules — Number of deals: 3 deals; "),
        "{described}"
    );
}

#[test]
fn rules_bad_house_rules() {
    let dir = scratch("bad-house-rules");
    for (name, text, word) in [
        (
            "typo.toml",
            "base = \"mura-4\"\nthreshhold = 6\n",
            "threshhold",
        ),
        (
            "other.toml",
            "base = \"mura-4\"\nlot_timing = \"before-lead\"\n",
            "lot_timing",
        ),
        (
            "value.toml",
            "base = \"mura-4\"\nfollow = \"jass\"\n",
            "follow",
        ),
        ("nobase.toml", "threshold = 6\n", "base"),
        ("upper.toml", "base = \"MURA-4\"\n", "MURA-4"),
        ("syntax.toml", "base = mura-4\n", "TOML"),
    ] {
        let path = dir.join(name);
        std::fs::write(&path, text).expect("write");
        let file = path.to_str().expect("path");
        for args in [
            vec!["rules", file],
            vec!["deal", file, "--seed", "1"],
            vec!["bench", "--ruleset", file, "--seconds", "0.01"],
        ] {
            let line = refused(&torite(&args));
            assert!(line.contains(word), "{args:?}: {line}");
        }
    }
    for id in ["Mura-4", "no-such-preset"] {
        let line = refused(&torite(&["rules", id]));
        assert!(line.contains(id), "{line}");
    }
}

// ---------------------------------------------------------------------------------------------
// deal
// ---------------------------------------------------------------------------------------------

#[test]
fn deal_same_seed_same_bytes() {
    for (id, ..) in PRESETS {
        for args in [
            vec!["deal", id, "--seed", "7"],
            vec!["deal", id, "--seed", "7", "--play"],
        ] {
            let first = ok(torite(&args));
            assert_eq!(first, ok(torite(&args)), "{args:?}");
        }
        assert_ne!(
            ok(torite(&["deal", id, "--seed", "7"])),
            ok(torite(&["deal", id, "--seed", "8"])),
            "{id}"
        );
    }
}

/// Seed → deal is part of the interface ("the same seed gives the same deal on every machine
/// and version"): these hands are frozen. The dealer is the default first dealer, the last
/// seat (`torite_core::table::first_dealer`).
#[test]
fn deal_golden_mini_misere_4_seed_1() {
    let record = parse(&ok(torite(&["deal", "mini-misere-4", "--seed", "1"])));
    assert_eq!(
        record,
        json!({
            "ruleset": "mini-misere-4",
            "deals": [{
                "dealer": 3,
                "hands": [
                    ["JS", "KH", "JH", "KD", "QD", "JD"],
                    ["AS", "2S", "TH", "AD", "JC", "2C"],
                    ["QS", "2H", "2D", "AC", "KC", "TC"],
                    ["KS", "TS", "AH", "QH", "TD", "QC"]
                ],
                "actions": []
            }]
        })
    );
}

#[test]
fn deal_golden_mittlere_jass_seed_42() {
    let record = parse(&ok(torite(&["deal", "mittlere-jass", "--seed", "42"])));
    assert_eq!(
        record,
        json!({
            "ruleset": "mittlere-jass",
            "deals": [{
                "dealer": 2,
                "hands": [
                    ["QS", "8S", "7S", "6S", "AH", "QH", "6H", "9D", "7D", "9C", "8C", "6C"],
                    ["JS", "JH", "9H", "8H", "AD", "KD", "TD", "AC", "KC", "QC", "JC", "7C"],
                    ["AS", "KS", "TS", "9S", "KH", "TH", "7H", "QD", "JD", "8D", "6D", "TC"]
                ],
                "actions": []
            }]
        })
    );
}

#[test]
fn deal_play_replays_to_a_finished_game() {
    for (id, ..) in PRESETS {
        for seed in ["1", "99"] {
            let played = ok(torite(&["deal", id, "--seed", seed, "--play"]));
            let report = parse(&ok(run(&["replay", "-"], Some(&played))));
            assert_eq!(report["finished"], json!(true), "{id} seed {seed}");
            assert!(
                !report["winners"].as_array().expect("winners").is_empty(),
                "{id} seed {seed}"
            );
        }
    }
}

#[test]
fn deal_first_dealer() {
    let record = parse(&ok(torite(&[
        "deal", "mura-3", "--seed", "3", "--dealer", "2",
    ])));
    assert_eq!(record["deals"][0]["dealer"], json!(2));
    let report = parse(&ok(run(&["replay", "-"], Some(&record.to_string()))));
    assert_eq!(report["deals"][0]["dealer"], json!(2));
    let line = refused(&torite(&["deal", "mura-3", "--dealer", "3"]));
    assert!(line.contains('3'), "{line}");
    let line = refused(&torite(&["deal", "Mura-3"]));
    assert!(line.contains("Mura-3"), "{line}");
}

// ---------------------------------------------------------------------------------------------
// show, bench, help
// ---------------------------------------------------------------------------------------------

#[test]
fn show_prints_a_readable_sheet() {
    let out = ok(torite(&[
        "show",
        &data("mini-misere-4-two-deals.json"),
        "--lang",
        "en",
    ]));
    for text in [
        "Mini Misère",
        "ミニミゼール",
        "Deal 1",
        "Deal 2",
        "AS",
        "2C",
        "seat 1",
        "Lot",
    ] {
        assert!(out.contains(text), "missing {text:?} in:\n{out}");
    }
    let totals: Vec<&str> = out
        .lines()
        .find(|l| l.trim_start().starts_with("total"))
        .expect("a total row")
        .split_whitespace()
        .skip(1)
        .collect();
    assert_eq!(totals, ["2", "6", "8", "6"], "{out}");
    // The scoring rule in words, never its interchange name.
    assert!(
        out.contains("  (points by tricks won)") || out.contains("  (the Lot "),
        "{out}"
    );
    assert!(
        !out.contains("(trick-table)") && !out.contains("(lot-"),
        "{out}"
    );
    // In Japanese.
    let ja = ok(torite(&[
        "show",
        &data("mini-misere-4-two-deals.json"),
        "--lang",
        "ja",
    ]));
    for text in ["第1ディール（ディーラー: ", "  累計", "1番席", "ロット: "] {
        assert!(ja.contains(text), "missing {text:?} in:\n{ja}");
    }
    assert!(!ja.contains("Deal 1") && !ja.contains("total"), "{ja}");
    // From standard input, the same sheet.
    let text = std::fs::read_to_string(data("mini-misere-4-two-deals.json")).expect("data");
    assert_eq!(ok(run(&["show", "-", "--lang", "en"], Some(&text))), out);
    // Only the scores.
    let short = ok(torite(&[
        "show",
        "--scores-only",
        &data("mini-misere-4-two-deals.json"),
        "--lang",
        "en",
    ]));
    assert!(short.len() < out.len());
    assert!(!short.contains("AS"), "{short}");
    assert!(short.contains("Deal 1"), "{short}");
    // A finished game names its winners.
    let done = ok(torite(&[
        "show",
        &data("one-deal-game.json"),
        "--lang",
        "en",
    ]));
    for seat in ["seat 1", "seat 2", "seat 3"] {
        assert!(done.contains(seat), "{done}");
    }
    let bad = refused(&run(
        &["show", "-"],
        Some("{\"ruleset\": \"Mura-4\", \"deals\": []}"),
    ));
    assert!(bad.contains("Mura-4"), "{bad}");
}

#[test]
fn bench_prints_one_json_line() {
    let out = ok(torite(&[
        "bench",
        "--ruleset",
        "mini-misere-4",
        "--seconds",
        "0.05",
    ]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 1, "{out}");
    let line = parse(lines[0]);
    assert_eq!(line["ruleset"], json!("mini-misere-4"));
    for key in ["deals_per_sec", "actions_per_sec"] {
        assert!(
            line[key].as_f64().is_some_and(|v| v >= 0.0),
            "{key}: {line}"
        );
    }
    for seconds in ["0", "-1", "nan"] {
        let out = torite(&["bench", "--ruleset", "mini-misere-4", "--seconds", seconds]);
        assert_eq!(out.status, Some(2), "--seconds {seconds}");
        assert!(out.stdout.is_empty());
    }
    let line = refused(&torite(&[
        "bench",
        "--ruleset",
        "skat",
        "--seconds",
        "0.01",
    ]));
    assert!(line.contains("skat"), "{line}");
}

#[test]
fn help_for_every_subcommand() {
    let top = ok(torite(&["--help"]));
    // The subcommands as the top-level help lists them, so that new ones are covered too.
    let listed: Vec<&str> = top
        .lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|&sub| sub != "help")
        .collect();
    for sub in ["replay", "perft", "rules", "deal", "show", "bench"] {
        assert!(listed.contains(&sub), "top-level help lacks {sub}:\n{top}");
    }
    for sub in listed {
        let help = ok(torite(&[sub, "--help"]));
        assert!(
            help.contains(&format!("Usage: torite {sub}")),
            "{sub} --help:\n{help}"
        );
        assert_eq!(ok(torite(&["help", sub])), help, "help {sub}");
        assert!(!ok(torite(&[sub, "-h"])).is_empty());
    }
    assert!(ok(torite(&["perft", "--help"])).contains("--depth"));
    assert!(ok(torite(&["deal", "--help"])).contains("--seed"));
    assert!(ok(torite(&["--version"])).starts_with("torite "));
}
