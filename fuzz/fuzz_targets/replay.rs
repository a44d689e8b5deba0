//! Record parsing and replay, what `torite replay` and `torite perft` run on a file.
//!
//! Any text: never a panic, and a refusal is one line. An accepted record replays the same
//! way twice; rebuilt as a `Record` (dealers as the replay found them) it replays to the same
//! report, and so does its JSON written back out (`Record::to_json`, `to_pretty_json`). From
//! the last position, every legal action is accepted by the checked `apply`, and perft to
//! depth 2 equals the sum of depth 1 over those children.

#![no_main]

use libfuzzer_sys::fuzz_target;
use serde_json::Value;
use torite_core::{Action, CardSet, Record, RecordDeal, Ruleset, perft, to_pretty_json};

fuzz_target!(|data: &[u8]| {
    if let Ok(text) = std::str::from_utf8(data) {
        check(text);
    }
});

fn check(text: &str) {
    let replay = match Record::replay_json(text) {
        Ok(replay) => replay,
        Err(e) => {
            let line = e.to_string();
            assert!(
                !line.contains('\n'),
                "a refusal of more than one line: {line:?}"
            );
            return;
        }
    };
    let again = Record::replay_json(text).expect("an accepted record is accepted again");
    assert_eq!(again.report, replay.report, "replaying twice differs");

    let value: Value = serde_json::from_str(text).expect("accepted, so JSON");
    let record = rebuild(
        &value,
        &replay
            .report
            .deals
            .iter()
            .map(|d| d.dealer)
            .collect::<Vec<_>>(),
    );
    let rebuilt = record.replay().expect("the rebuilt record replays");
    assert_eq!(
        rebuilt.report, replay.report,
        "the rebuilt record replays differently"
    );
    let written = to_pretty_json(&record.to_json());
    let reread = Record::replay_json(&written).expect("a written record is accepted");
    assert_eq!(
        reread.report, replay.report,
        "the written record replays differently"
    );
    let rewritten = rebuild(
        &serde_json::from_str(&written).expect("written JSON"),
        &reread
            .report
            .deals
            .iter()
            .map(|d| d.dealer)
            .collect::<Vec<_>>(),
    );
    assert_eq!(rewritten, record, "writing a record is not a fixed point");

    if let Some(deal) = replay.game.deal() {
        let legal = deal.legal_actions();
        assert_eq!(perft(deal, 1), legal.len() as u64);
        let mut two = 0;
        for action in legal.iter() {
            let mut child = deal.clone();
            if let Err(e) = child.apply(action) {
                panic!("{action} is listed as legal but refused: {e}");
            }
            two += perft(&child, 1);
        }
        assert_eq!(
            perft(deal, 2),
            two,
            "perft 2 is not the sum over the legal actions"
        );
    }
}

/// The `Record` an accepted record's JSON stands for.
fn rebuild(value: &Value, dealers: &[usize]) -> Record {
    let ruleset = Ruleset::from_json(&value["ruleset"]).expect("accepted ruleset");
    let players = value.get("players").and_then(Value::as_array).map(|names| {
        names
            .iter()
            .map(|n| n.as_str().expect("name").to_owned())
            .collect()
    });
    let deals = value["deals"]
        .as_array()
        .expect("deals")
        .iter()
        .zip(dealers)
        .map(|(deal, &dealer)| RecordDeal {
            dealer,
            hands: deal["hands"]
                .as_array()
                .expect("hands")
                .iter()
                .map(|hand| {
                    let codes: Vec<&str> = hand
                        .as_array()
                        .expect("hand")
                        .iter()
                        .map(|c| c.as_str().expect("card code"))
                        .collect();
                    codes.join(" ").parse::<CardSet>().expect("accepted hand")
                })
                .collect(),
            actions: deal
                .get("actions")
                .and_then(Value::as_array)
                .map(|actions| {
                    actions
                        .iter()
                        .map(|a| {
                            a.as_str()
                                .expect("action")
                                .parse::<Action>()
                                .expect("accepted action")
                        })
                        .collect()
                })
                .unwrap_or_default(),
            draw: deal.get("draw").and_then(Value::as_u64).map(|d| d as usize),
        })
        .collect();
    Record {
        ruleset,
        players,
        deals,
    }
}
