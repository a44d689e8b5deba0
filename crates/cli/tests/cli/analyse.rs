//! `torite analyse`: every example record reviewed, the JSON's keys, reproducibility, the
//! text in both languages and every kind of bad input.

use serde_json::Value;

use super::common::{data, ok, refused, run, torite};

/// The example records, one per preset family.
const EXAMPLES: [&str; 4] = ["mini-misere-4", "mittlere-jass", "molotow-jass", "mura-4"];

fn example(name: &str) -> String {
    format!("{}/../../examples/{name}.json", env!("CARGO_MANIFEST_DIR"))
}

fn analysis(args: &[&str]) -> Value {
    let mut all = vec!["analyse"];
    all.extend_from_slice(args);
    all.push("--json");
    serde_json::from_str(&ok(torite(&all))).expect("JSON")
}

#[test]
fn every_example_is_analysed_with_the_documented_keys() {
    for name in EXAMPLES {
        let path = example(name);
        // One deal keeps the test quick in a debug build (the exact searches of the early Jass
        // positions are the slow part, whatever the budget).
        let out = analysis(&[
            &path, "--seat", "1", "--deal", "1", "--budget", "2", "--seed", "5",
        ]);
        assert_eq!(out["ruleset"], name);
        assert_eq!(out["worlds"], 2);
        let decisions = out["decisions"].as_array().expect("decisions");
        assert!(!decisions.is_empty(), "{name}: no decisions");
        for d in decisions {
            assert_eq!(d["seat"], 1, "{name}: {d}");
            let actions = d["actions"].as_array().expect("actions");
            assert!(actions.len() > 1, "{name}: a forced action analysed: {d}");
            let listed: Vec<&str> = actions
                .iter()
                .map(|a| a["action"].as_str().expect("an action"))
                .collect();
            assert!(
                listed.contains(&d["chosen"].as_str().expect("chosen")),
                "{d}"
            );
            assert!(listed.contains(&d["best"].as_str().expect("best")), "{d}");
            let value = |a: &str| {
                actions.iter().find(|x| x["action"] == a).expect("listed")["value"]
                    .as_f64()
                    .expect("a value")
            };
            let loss = d["loss"].as_f64().expect("a loss");
            let chosen = value(d["chosen"].as_str().unwrap_or_default());
            let best = value(d["best"].as_str().unwrap_or_default());
            assert!((best - chosen - loss).abs() < 1e-3, "{d}");
            assert!(
                actions
                    .iter()
                    .all(|a| a["value"].as_f64() <= Some(best + 1e-9))
            );
            assert!(actions.iter().all(|a| a["stderr"].as_f64() >= Some(0.0)));
            assert!(
                ["best", "inaccuracy", "mistake", "blunder"]
                    .contains(&d["verdict"].as_str().unwrap_or_default()),
                "{d}"
            );
            assert!(["solver", "rollout"].contains(&d["method"].as_str().unwrap_or_default()));
            for key in ["deal", "trick", "index", "loss_stderr", "exact"] {
                assert!(d.get(key).is_some(), "{name}: no {key} in {d}");
            }
            if let Some(exact) = d["exact"].as_object() {
                assert_eq!(
                    exact["actions"].as_array().map(Vec::len),
                    Some(actions.len())
                );
            }
        }
        let seats = out["seats"].as_array().expect("seats");
        let total: u64 = seats
            .iter()
            .map(|s| s["decisions"].as_u64().unwrap_or(0))
            .sum();
        assert_eq!(total, decisions.len() as u64, "{name}");
        for s in seats {
            for key in [
                "deal",
                "seat",
                "loss",
                "inaccuracies",
                "mistakes",
                "blunders",
                "score",
                "double_dummy",
            ] {
                assert!(s.get(key).is_some(), "{name}: no {key} in {s}");
            }
        }
    }
}

#[test]
fn an_analysis_is_reproducible_from_its_seed() {
    let path = example("mura-4");
    let args = [
        "analyse", &path, "--deal", "2", "--seat", "1", "--budget", "4", "--seed", "9", "--json",
    ];
    let first = ok(torite(&args));
    assert_eq!(first, ok(torite(&args)));
    let other = ok(torite(&[
        "analyse", &path, "--deal", "2", "--seat", "1", "--budget", "4", "--seed", "10", "--json",
    ]));
    assert_ne!(first, other, "another seed deals other worlds");
    // Standard input reads the same.
    let text = std::fs::read_to_string(&path).expect("the example");
    let piped = ok(run(
        &[
            "analyse", "-", "--deal", "2", "--seat", "1", "--budget", "4", "--seed", "9", "--json",
        ],
        Some(&text),
    ));
    assert_eq!(first, piped);
    let out: Value = serde_json::from_str(&first).expect("JSON");
    let decisions = out["decisions"].as_array().expect("decisions");
    assert!(
        decisions.iter().all(|d| d["deal"] == 1),
        "deal 2 is index 1"
    );
    // Every seat by default, and with --all.
    let path = example("mini-misere-4");
    let every = ok(torite(&[
        "analyse", &path, "--deal", "2", "--budget", "4", "--json",
    ]));
    let all = ok(torite(&[
        "analyse", &path, "--deal", "2", "--budget", "4", "--all", "--json",
    ]));
    assert_eq!(every, all);
    let out: Value = serde_json::from_str(&all).expect("JSON");
    assert!(out["seats"].as_array().map_or(0, Vec::len) > 1, "{all}");
}

#[test]
fn the_text_reads_in_english_and_japanese() {
    let path = example("mini-misere-4");
    let en = ok(torite(&[
        "analyse", &path, "--seat", "0", "--deal", "1", "--budget", "4", "--lang", "en",
    ]));
    assert!(en.contains("review of seat 0"), "{en}");
    assert!(en.contains("Deal 1"), "{en}");
    assert!(en.contains("trick 1, seat 0: played "), "{en}");
    assert!(en.contains("seat 0: "), "{en}");
    assert!(
        en.contains("Values: the seat's expected deal score"),
        "{en}"
    );
    let ja = ok(torite(&[
        "analyse", &path, "--seat", "0", "--deal", "1", "--budget", "4", "--lang", "ja",
    ]));
    assert!(ja.contains("0番席の検討"), "{ja}");
    assert!(ja.contains("第1ディール"), "{ja}");
    assert!(ja.contains("第1トリック、0番席："), "{ja}");
    assert!(!ja.contains("analyse-"), "an untranslated key: {ja}");
    // The same decisions, line for line.
    let lines = |text: &str, mark: &str| text.lines().filter(|l| l.contains(mark)).count();
    assert_eq!(lines(&en, "trick "), lines(&ja, "トリック、"));
}

#[test]
fn a_record_that_does_not_replay_is_refused_with_the_replay_error() {
    let bad = data("bad/must-follow.json");
    let line = refused(&torite(&["analyse", &bad]));
    let replay = refused(&torite(&["replay", &bad]));
    assert_eq!(line, replay);
    assert!(line.contains("must follow"), "{line}");
    let line = refused(&run(&["analyse", "-"], Some("{\"ruleset\": 3")));
    assert!(line.contains("invalid JSON"), "{line}");
}

#[test]
fn options_out_of_range_are_refused_in_one_line() {
    let path = example("mini-misere-4");
    let line = refused(&torite(&["analyse", &path, "--seat", "4"]));
    assert_eq!(
        line,
        "--seat 4 is not a seat of mini-misere-4 (seats are 0 to 3)"
    );
    let line = refused(&torite(&["analyse", &path, "--deal", "0"]));
    assert_eq!(
        line,
        "--deal 0 is not a deal of the record (deals are 1 to 5)"
    );
    let line = refused(&torite(&["analyse", &path, "--deal", "6"]));
    assert_eq!(
        line,
        "--deal 6 is not a deal of the record (deals are 1 to 5)"
    );
    for budget in ["0", "10001", "many"] {
        let line = refused(&torite(&["analyse", &path, "--budget", budget]));
        assert!(line.contains("--budget"), "{line}");
    }
    let line = refused(&torite(&["analyse", &path, "--seat", "1", "--all"]));
    assert!(line.contains("--all"), "{line}");
}

#[test]
fn a_seat_without_a_decision_is_told_so() {
    // A deal just dealt: no one has acted yet.
    let record = ok(torite(&["deal", "mini-misere-4", "--seed", "1"]));
    let line = refused(&run(&["analyse", "-", "--seat", "2"], Some(&record)));
    assert_eq!(
        line,
        "seat 2 has no decision in the record (a decision is a turn with more than one legal action)"
    );
    let line = refused(&run(&["analyse", "-"], Some(&record)));
    assert!(
        line.starts_with("no seat has a decision in the record"),
        "{line}"
    );
    let empty = data("no-deals.json");
    let line = refused(&torite(&["analyse", &empty, "--deal", "1"]));
    assert_eq!(line, "--deal 1: the record has no deals");
}
