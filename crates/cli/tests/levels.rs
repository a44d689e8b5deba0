//! Integration tests of the named bot levels on the command line: `--bots club` for
//! `torite play`, `arena` and `stats`, the levels' names in both languages, and the refusals.

mod common;

use serde_json::Value;

use common::{ok, path_str, refused, run, scratch, torite};

/// The first prompts of a plain game against `bots`, then the end of input (which saves it).
fn plain_game(bots: &str, lang: &str) -> (String, Value) {
    let dir = scratch(&format!("play-{bots}-{lang}"));
    let save = dir.join("game.json");
    let out = ok(run(
        &[
            "play",
            "mura-4",
            "--plain",
            "--bots",
            bots,
            "--seed",
            "3",
            "--lang",
            lang,
            "--save",
            path_str(&save),
        ],
        Some(""),
    ));
    let record = std::fs::read_to_string(&save).expect("the game was saved");
    (out, serde_json::from_str(&record).expect("a JSON record"))
}

#[test]
fn play_seats_levels_by_name_in_both_languages() {
    let (out, record) = plain_game("club,beginner", "en");
    // The dealer is seat 3, the first bot's again.
    assert!(out.contains("dealer: Seat 3 (Club)"), "{out}");
    assert!(!out.contains("(club)"), "{out}");
    // The record keeps the levels' ids, so that the game resumes with the same bots.
    assert_eq!(
        record["players"],
        serde_json::json!(["You", "club", "beginner", "club"])
    );
    let (out, _) = plain_game("expert", "ja");
    assert!(out.contains("(エキスパート)"), "{out}");
}

#[test]
fn play_without_bots_seats_the_default_level() {
    let dir = scratch("default");
    let save = dir.join("game.json");
    ok(run(
        &["play", "--plain", "--seed", "1", "--save", path_str(&save)],
        Some(""),
    ));
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(&save).expect("saved")).expect("JSON");
    assert_eq!(record["players"][1], "club");
    ok(run(
        &[
            "play",
            "--plain",
            "--fast",
            "--seed",
            "1",
            "--save",
            path_str(&save),
        ],
        Some(""),
    ));
    let record: Value =
        serde_json::from_str(&std::fs::read_to_string(&save).expect("saved")).expect("JSON");
    assert_eq!(record["players"][1], "heuristic");
}

#[test]
fn arena_and_stats_take_levels_and_algorithms() {
    let out = ok(torite(&[
        "arena",
        "--ruleset",
        "mittlere-jass",
        "--bots",
        "beginner,casual",
        "--deals",
        "4",
        "--json",
    ]));
    let v: Value = serde_json::from_str(&out).expect("JSON");
    let names: Vec<&str> = v["bots"]
        .as_array()
        .expect("bots")
        .iter()
        .map(|b| b["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(names, ["beginner", "casual"]);
    for bot in v["bots"].as_array().expect("bots") {
        assert!(bot["decision_max_ms"].as_f64().expect("a time") >= 0.0);
    }
    let table = ok(torite(&[
        "arena",
        "--ruleset",
        "mittlere-jass",
        "--bots",
        "casual,heuristic",
        "--deals",
        "2",
        "--lang",
        "ja",
    ]));
    assert!(table.contains("カジュアル"), "{table}");
    let stats = ok(torite(&[
        "stats",
        "--ruleset",
        "mura-3",
        "--bots",
        "beginner",
        "--games",
        "2",
        "--lang",
        "en",
    ]));
    assert!(stats.contains("Players: Beginner"), "{stats}");
}

#[test]
fn a_level_is_refused_a_budget_and_a_misspelt_one_is_told_the_names() {
    assert_eq!(
        refused(&torite(&["play", "--plain", "--bots", "club:500"])),
        "invalid value 'club:500' for '--bots <BOTS>': bot \"club:500\": a level has its own \
         budget; give one to an algorithm instead (ismcts:2000); see 'torite play --help'"
    );
    assert_eq!(
        refused(&torite(&[
            "arena",
            "--ruleset",
            "mura-4",
            "--bots",
            "club,experts"
        ])),
        "invalid value 'experts' for '--bots <BOTS>': unknown bot \"experts\" (levels: \
         beginner, casual, club, strong, expert; algorithms: random, heuristic, ismcts, \
         ismcts-inf, ismcts-eval, ismcts-eq, ismcts-duck, ismcts-lot, ismcts-pol, ismcts-net, ismcts-read, ismcts-table, pimc, omniscient, maxn); see 'torite arena --help'"
    );
}
