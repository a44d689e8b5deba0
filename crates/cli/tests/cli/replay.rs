//! `torite replay`: the report of legal records, by RECORD.md.

use super::*;

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

/// RULES.md 1.7 through the record contract: the three-player joker played as the last card
/// of a trick is followed by its player's `joker:win` or `joker:lose` (any case), which
/// decides the trick; perft counts both sayings, and anything else then is refused.
#[test]
fn replay_three_player_joker_saying() {
    let record = json!({
        "ruleset": "mini-misere-3",
        "deals": [{
            "dealer": 2,
            "hands": [
                ["AS", "KS", "QS", "JS", "TS", "AH", "KH"],
                ["QH", "JH", "TH", "AD", "KD", "QD", "JD"],
                ["JK", "TD", "AC", "KC", "QC", "JC", "TC"]
            ],
            "actions": ["AS", "QH", "JK"]
        }]
    });
    // The trick waits for the saying: two sequences of one action.
    assert_eq!(perft(&record, 1), 2);
    let report = replay(&record);
    assert_eq!(report["deals"][0]["tricks"][0]["winner"], Value::Null);
    let said = |word: &str| {
        with(&record, |r| {
            r["deals"][0]["actions"]
                .as_array_mut()
                .expect("actions")
                .push(json!(word));
        })
    };
    let won = replay(&said("Joker:WIN"));
    assert_eq!(
        won["deals"][0]["tricks"][0]["cards"],
        json!(["AS", "QH", "JK"])
    );
    assert_eq!(won["deals"][0]["tricks"][0]["winner"], 2);
    assert_eq!(won["deals"][0]["tricks_won"], json!([0, 0, 1]));
    let lost = replay(&said("joker:lose"));
    assert_eq!(lost["deals"][0]["tricks"][0]["winner"], 0);
    // After the saying the winner leads a new trick: six cards each way.
    assert_eq!(perft(&record, 2), 12);
    let line = refused_value(&said("TD"));
    assert!(line.starts_with("deal 0, trick 0, seat 2: TD"), "{line}");
    assert!(line.contains("joker:win or joker:lose"), "{line}");
}
