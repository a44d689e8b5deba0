//! `torite replay` on bad input: exit status 2 and one line naming where and why.

use super::*;

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
