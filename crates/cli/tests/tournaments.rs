//! Integration tests of `torite arena` and `torite stats`: their JSON and table outputs, house
//! rules, records, plots, reproducibility across thread counts and bad input. Quick bots
//! (`heuristic`, `random`) keep them fast.

mod common;

use std::path::PathBuf;

use serde_json::Value;

use common::{Run, refused, scratch, torite};

fn assert_ok(out: &Run) {
    assert_eq!(out.status, Some(0), "failed: {}", out.stderr);
}

fn stdout_json(out: &Run) -> Value {
    assert_ok(out);
    serde_json::from_str(&out.stdout).expect("one JSON object on standard output")
}

/// `mini-misere-4` with the 1989 Lot timing, as a house-rule file in `dir`.
fn late_lot(dir: &std::path::Path) -> PathBuf {
    let file = dir.join("late-lot.toml");
    std::fs::write(
        &file,
        "base = \"mini-misere-4\"\nlot_timing = \"before-lead\"\n",
    )
    .unwrap();
    file
}

#[test]
fn arena_json_has_the_documented_keys_for_every_bot() {
    let out = torite(&[
        "arena",
        "--ruleset",
        "mittlere-jass",
        "--bots",
        "heuristic,random",
        "--deals",
        "6",
        "--seed",
        "3",
        "--json",
    ]);
    let v = stdout_json(&out);
    assert_eq!(v["ruleset"], "mittlere-jass");
    assert_eq!(v["deals"], 6);
    let bots = v["bots"].as_array().expect("a bots array");
    // Three seats filled in turn from two names (heuristic, random, heuristic): one entry per
    // name.
    let names: Vec<&str> = bots.iter().map(|b| b["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["heuristic", "random"]);
    for bot in bots {
        assert!(bot["name"].is_string(), "{bot}");
        for key in ["mean", "ci95", "decision_ms"] {
            assert!(bot[key].is_number(), "{key} in {bot}");
        }
        assert!(bot["ci95"].as_f64().unwrap() >= 0.0);
    }
}

#[test]
fn arena_results_do_not_depend_on_the_number_of_threads() {
    let run = |threads: &str| {
        let out = torite(&[
            "arena",
            "--ruleset",
            "mini-misere-4",
            "--bots",
            "heuristic,random",
            "--deals",
            "12",
            "--seed",
            "9",
            "--threads",
            threads,
            "--json",
        ]);
        let mut v = stdout_json(&out);
        // Decision times are measured, not computed: everything else must match.
        for bot in v["bots"].as_array_mut().unwrap() {
            bot.as_object_mut().unwrap().remove("decision_ms");
            bot.as_object_mut().unwrap().remove("decision_max_ms");
        }
        v
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn arena_saves_every_game_as_a_record_that_replays() {
    let dir = scratch("records");
    let out = torite(&[
        "arena",
        "--ruleset",
        "mura-3",
        "--bots",
        "heuristic",
        "--deals",
        "2",
        "--records",
        dir.to_str().unwrap(),
    ]);
    assert_ok(&out);
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    // Two deals, each played in three seat rotations.
    assert_eq!(files.len(), 6, "{files:?}");
    for file in &files {
        let replay = torite(&["replay", file.to_str().unwrap()]);
        let v = stdout_json(&replay);
        assert_eq!(v["ruleset"], "mura-3", "{}", file.display());
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_names_a_house_rule_by_its_changes() {
    let dir = scratch("house-arena");
    let file = late_lot(&dir);
    let out = torite(&[
        "arena",
        "--ruleset",
        file.to_str().unwrap(),
        "--bots",
        "heuristic",
        "--deals",
        "2",
        "--lang",
        "en",
    ]);
    assert_ok(&out);
    let text = &out.stdout;
    assert!(
        text.starts_with(
            "Mini Misère (current rules, 4 players), with Lot timing: before the first lead \
             (1989 rules): 2 deals"
        ),
        "{text}"
    );
    let json = torite(&[
        "arena",
        "--ruleset",
        file.to_str().unwrap(),
        "--bots",
        "heuristic",
        "--deals",
        "2",
        "--json",
    ]);
    let v = stdout_json(&json);
    assert_eq!(v["ruleset"]["base"], "mini-misere-4");
    assert_eq!(v["ruleset"]["lot_timing"], "before-lead");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn arena_refuses_bad_input_with_a_clear_message() {
    let cases: [(&[&str], &str); 3] = [
        (
            &[
                "arena",
                "--ruleset",
                "mini-misere-4",
                "--bots",
                "clever",
                "--deals",
                "1",
            ],
            "clever",
        ),
        (
            &[
                "arena",
                "--ruleset",
                "mini-misere-4",
                "--bots",
                "heuristic",
                "--deals",
                "0",
            ],
            "--deals <DEALS>': 0 is not in 1..=1000000",
        ),
        (
            &[
                "arena",
                "--ruleset",
                "mini-misere-9",
                "--bots",
                "heuristic",
                "--deals",
                "1",
            ],
            "mini-misere-9",
        ),
    ];
    for (args, needle) in cases {
        let out = torite(args);
        let err = refused(&out);
        assert!(err.contains(needle), "{args:?}: {err}");
    }
}

#[test]
fn stats_json_reports_the_lot_and_the_positions() {
    let out = torite(&[
        "stats",
        "--ruleset",
        "mini-misere-4",
        "--bots",
        "random",
        "--games",
        "4",
        "--seed",
        "2",
        "--json",
    ]);
    let v = stdout_json(&out);
    assert_eq!(v["ruleset"], "mini-misere-4");
    assert_eq!(v["games"], 4);
    let deals = v["deals"].as_u64().unwrap();
    assert!(deals >= 4);
    assert_eq!(v["score_by_position"].as_array().unwrap().len(), 4);
    let lot = &v["lot"];
    assert!(lot["declared"].as_u64().unwrap() <= deals);
    assert!(lot["succeeded"].as_u64().unwrap() <= lot["declared"].as_u64().unwrap());
    // Every deal fires exactly one scoring rule.
    let fired: u64 = v["rules_fired"]
        .as_object()
        .unwrap()
        .values()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(fired, deals);
}

#[test]
fn stats_of_a_house_rule_play_that_house_rule() {
    let dir = scratch("house-stats");
    let file = late_lot(&dir);
    let args = |ruleset: &str| {
        let out = torite(&[
            "stats",
            "--ruleset",
            ruleset,
            "--bots",
            "random",
            "--games",
            "20",
            "--seed",
            "5",
            "--lang",
            "en",
        ]);
        assert_ok(&out);
        out.stdout.clone()
    };
    let house = args(file.to_str().unwrap());
    let preset = args("mini-misere-4");
    assert!(
        house.starts_with(
            "Mini Misère (current rules, 4 players), with Lot timing: before the first lead \
             (1989 rules): 20 games"
        ),
        "{house}"
    );
    assert!(
        preset.starts_with("Mini Misère (current rules, 4 players): 20 games"),
        "{preset}"
    );
    assert_ne!(house, preset, "the timing changed nothing");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stats_writes_svg_plots() {
    let dir = scratch("plots");
    let out = torite(&[
        "stats",
        "--ruleset",
        "mura-4",
        "--games",
        "3",
        "--plots",
        dir.to_str().unwrap(),
    ]);
    assert_ok(&out);
    let svgs: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "svg"))
        .collect();
    assert!(!svgs.is_empty());
    for svg in svgs {
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.contains("<svg"), "{}", svg.display());
    }
    let text = &out.stdout;
    assert!(text.contains("exempt"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn stats_refuses_zero_games() {
    let out = torite(&["stats", "--ruleset", "mura-4", "--games", "0"]);
    assert!(refused(&out).contains("--games"));
}

/// Item 5 of the club's questions: the defaults answer. In a game with the Lot the default
/// players are the search (the rule-of-thumb player never declares), the Lot is declared, and
/// the report names the players by their level.
#[test]
fn stats_defaults_declare_the_lot_and_say_who_played() {
    let args = [
        "stats",
        "--ruleset",
        "mini-misere-4",
        "--games",
        "3",
        "--seed",
        "1",
    ];
    let v = stdout_json(&torite(&[&args[..], &["--json"]].concat()));
    assert_eq!(v["bots"], serde_json::json!(["ismcts:1000"]));
    assert_eq!(v["default_bots"], true);
    assert!(v["lot"]["declared"].as_u64().unwrap() > 0, "{v}");
    let out = torite(&[&args[..], &["--lang", "en"]].concat());
    assert_ok(&out);
    assert!(
        out.stdout.contains(
            "Players: search (1000 iterations a decision) (the default for a game with the Lot"
        ),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("0 of 0"), "{}", out.stdout);
    // Without a Lot the default stays the instant rule-of-thumb player.
    let v = stdout_json(&torite(&[
        "stats",
        "--ruleset",
        "mura-3",
        "--games",
        "1",
        "--json",
    ]));
    assert_eq!(v["bots"], serde_json::json!(["heuristic"]));
    // Bots given are said as given, without "default".
    let out = torite(&[
        "stats",
        "--ruleset",
        "mura-3",
        "--games",
        "1",
        "--bots",
        "random",
        "--lang",
        "en",
    ]);
    assert_ok(&out);
    assert!(
        out.stdout.contains("Players: random play\n"),
        "{}",
        out.stdout
    );
}

/// `--lang ja` prints the report in Japanese, `--lang en` in English, neither with a bot's
/// spec or a rule's identifier in it.
#[test]
fn stats_reports_in_the_language_asked() {
    let run = |lang: &str| {
        let out = torite(&[
            "stats",
            "--ruleset",
            "mura-4",
            "--games",
            "2",
            "--seed",
            "4",
            "--lang",
            lang,
        ]);
        assert_ok(&out);
        out.stdout
    };
    let ja = run("ja");
    for needle in [
        "ムーラ（4人）：2ゲーム",
        "プレイヤー：定石",
        "失点 ± 95%",
        "低いほど良い",
        "失点の免除",
    ] {
        assert!(ja.contains(needle), "{needle} in {ja}");
    }
    let en = run("en");
    for needle in [
        "Mura (4 players): 2 games",
        "Players: rule of thumb",
        "penalty ± 95%",
        "lower is better",
    ] {
        assert!(en.contains(needle), "{needle} in {en}");
    }
    for text in [&ja, &en] {
        for raw in ["heuristic", "penalty-", "trick-table", "mura-4"] {
            assert!(!text.contains(raw), "{raw} in {text}");
        }
    }
    // The plots speak the same language.
    let dir = scratch("plots-ja");
    let out = torite(&[
        "stats",
        "--ruleset",
        "mura-4",
        "--games",
        "1",
        "--lang",
        "ja",
        "--plots",
        dir.to_str().unwrap(),
    ]);
    assert_ok(&out);
    let svg = std::fs::read_to_string(dir.join("score-by-position.svg")).unwrap();
    assert!(svg.contains("失点"), "{svg}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 6: one sign convention. A Mura penalty is a positive number of penalty points in
/// `arena` as in `stats`, in the table and the JSON, and every table says which way is
/// better.
#[test]
fn arena_and_stats_show_penalties_as_penalties() {
    let arena = stdout_json(&torite(&[
        "arena",
        "--ruleset",
        "mura-4",
        "--bots",
        "heuristic",
        "--deals",
        "8",
        "--seed",
        "2",
        "--json",
    ]));
    assert_eq!(arena["scores"], "penalty");
    assert_eq!(arena["higher_is_better"], false);
    let mean = arena["bots"][0]["mean"].as_f64().unwrap();
    assert!(mean > 0.0, "{arena}");
    let stats = stdout_json(&torite(&[
        "stats",
        "--ruleset",
        "mura-4",
        "--games",
        "1",
        "--json",
    ]));
    assert_eq!(stats["scores"], "penalty");
    assert_eq!(stats["higher_is_better"], false);
    assert!(stats["score_by_position"][0]["mean"].as_f64().unwrap() > 0.0);
    let table = torite(&[
        "arena",
        "--ruleset",
        "mura-4",
        "--bots",
        "heuristic,random",
        "--deals",
        "8",
        "--lang",
        "en",
    ]);
    assert_ok(&table);
    assert!(
        table
            .stdout
            .contains("Penalty points per deal and seat, lower is better.")
    );
    assert!(table.stdout.contains("penalty ± 95%"), "{}", table.stdout);
    // The rule-of-thumb player takes fewer penalty points than random play: its difference
    // from the field is negative, a penalty saved.
    let line = table
        .stdout
        .lines()
        .find(|l| l.starts_with("rule of thumb"))
        .unwrap();
    assert!(line.contains(" -0.") || line.contains(" -1."), "{line}");
    let points = torite(&[
        "arena",
        "--ruleset",
        "mini-misere-4",
        "--bots",
        "heuristic,random",
        "--deals",
        "8",
        "--lang",
        "ja",
    ]);
    assert_ok(&points);
    assert!(
        points
            .stdout
            .contains("1ディール・1席あたりの得点、高いほど良い。"),
        "{}",
        points.stdout
    );
}

/// Item 1: the Lot by the declarer's position, in the JSON (counts add up to the Lots
/// declared) and the table, with first-trick failures, and its plot.
#[test]
fn stats_report_the_lot_by_declarer_position() {
    let dir = scratch("plots-lot");
    let out = torite(&[
        "stats",
        "--ruleset",
        "mini-misere-4",
        "--bots",
        "random",
        "--games",
        "10",
        "--seed",
        "2",
        "--json",
        "--plots",
        dir.to_str().unwrap(),
    ]);
    let v = stdout_json(&out);
    let lot = &v["lot"];
    let rows = lot["declarers_by_position"].as_array().unwrap();
    assert_eq!(rows.len(), 4);
    let declared: u64 = rows.iter().map(|r| r["declared"].as_u64().unwrap()).sum();
    let by_position: u64 = lot["by_position"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_u64().unwrap())
        .sum();
    assert_eq!(declared, by_position);
    let failed: u64 = rows
        .iter()
        .map(|r| r["first_trick_failed"].as_u64().unwrap())
        .sum();
    assert_eq!(lot["first_trick_failed"].as_u64().unwrap(), failed);
    assert!(failed > 0, "{lot}");
    let svg = std::fs::read_to_string(dir.join("lot-by-position.svg")).unwrap();
    assert!(svg.contains("failed in trick 1"), "{svg}");
    let _ = std::fs::remove_dir_all(&dir);
    let table = torite(&[
        "stats",
        "--ruleset",
        "mini-misere-4",
        "--bots",
        "random",
        "--games",
        "10",
        "--seed",
        "2",
        "--lang",
        "ja",
    ]);
    assert_ok(&table);
    assert!(
        table.stdout.contains("第1トリックでのロット失敗："),
        "{}",
        table.stdout
    );
    assert!(
        table.stdout.contains("宣言者の手番位置別のロット"),
        "{}",
        table.stdout
    );
}

#[test]
fn arena_movetime_gives_every_search_bot_the_same_time() {
    // Every bot that searches, the level included, thinks for the time given; the rule of
    // thumb is left as it is.
    let out = torite(&[
        "arena",
        "--ruleset",
        "mini-misere-4",
        "--bots",
        "expert,ismcts-inf:50,ismcts,heuristic",
        "--movetime",
        "2",
        "--deals",
        "1",
        "--threads",
        "1",
        "--lang",
        "en",
    ]);
    assert_ok(&out);
    assert!(out.stdout.contains("\nExpert\n"), "{}", out.stdout);
    assert!(
        out.stdout
            .contains("search that reads the others' play (2 ms a decision)"),
        "{}",
        out.stdout
    );
    assert!(
        out.stdout.contains("search (2 ms a decision)"),
        "{}",
        out.stdout
    );
    // The longest name has a line of its own, and so has every other.
    assert!(out.stdout.contains("\nrule of thumb\n"), "{}", out.stdout);
    let ja = torite(&[
        "arena",
        "--ruleset",
        "mini-misere-4",
        "--bots",
        "ismcts-inf,heuristic",
        "--movetime",
        "2",
        "--deals",
        "1",
        "--lang",
        "ja",
    ]);
    assert_ok(&ja);
    assert!(
        ja.stdout.contains("相手の手札を読む探索（1手2ミリ秒）"),
        "{}",
        ja.stdout
    );
    for bad in ["0", "60001", "fast"] {
        let out = torite(&[
            "arena",
            "--ruleset",
            "mini-misere-4",
            "--bots",
            "ismcts,heuristic",
            "--movetime",
            bad,
        ]);
        let err = refused(&out);
        assert!(err.contains("--movetime"), "{err}");
    }
}

/// Terminal columns of `text`: two for the wide (CJK) characters, one for the rest.
fn terminal_columns(text: &str) -> usize {
    text.chars()
        .map(|ch| {
            if ('\u{2e80}'..='\u{ffdc}').contains(&ch) {
                2
            } else {
                1
            }
        })
        .sum()
}

#[test]
fn the_arena_table_fits_an_80_column_terminal_in_both_languages() {
    for lang in ["en", "ja"] {
        for (bots, unit, short) in [
            // Short names share a line with their figures; a deal has no games won.
            ("heuristic,random", "--deals", true),
            // A long name (and, in whole games, the extra column) puts every name on its own
            // line.
            ("ismcts-table:20,heuristic", "--deals", false),
            ("heuristic,ismcts:20", "--games", false),
        ] {
            let out = torite(&[
                "arena",
                "--ruleset",
                "mini-misere-4",
                "--bots",
                bots,
                unit,
                "2",
                "--threads",
                "1",
                "--lang",
                lang,
            ]);
            assert_ok(&out);
            let lines: Vec<&str> = out.stdout.lines().collect();
            // The title and the note above the table are prose; the table is the rest.
            for line in &lines[2..] {
                assert!(
                    terminal_columns(line) <= 80,
                    "{lang} {bots}: {line:?}\n{}",
                    out.stdout
                );
            }
            let won = if lang == "en" {
                "games won"
            } else {
                "勝ったゲーム"
            };
            assert_eq!(
                out.stdout.contains(won),
                unit == "--games",
                "{}",
                out.stdout
            );
            let rule_of_thumb = if lang == "en" {
                "rule of thumb"
            } else {
                "定石"
            };
            let shared = lines
                .iter()
                .any(|l| l.starts_with(rule_of_thumb) && l.contains('±'));
            assert_eq!(shared, short, "{lang} {bots}\n{}", out.stdout);
        }
    }
}

#[test]
fn a_single_deal_shows_its_figures_without_an_interval() {
    // One deal gives no interval: the table shows the means alone, never "inf".
    let out = torite(&[
        "arena",
        "--ruleset",
        "mini-misere-4",
        "--bots",
        "heuristic,random",
        "--deals",
        "1",
        "--lang",
        "en",
    ]);
    assert_ok(&out);
    assert!(out.stdout.contains(": 1 deal × 4 seat"), "{}", out.stdout);
    assert!(!out.stdout.contains("inf"), "{}", out.stdout);
    assert!(!out.stdout.contains("NaN"), "{}", out.stdout);
}

#[test]
fn the_stats_table_fits_an_80_column_terminal_in_both_languages() {
    // The 12-trick Middler with joker, six players and Mura's exemption lines are the widest.
    for lang in ["en", "ja"] {
        for preset in [
            "middler-joker",
            "mini-misere-6",
            "mura-4",
            "mini-misere-4-1989",
        ] {
            let out = torite(&[
                "stats",
                "--ruleset",
                preset,
                "--bots",
                "heuristic",
                "--games",
                "2",
                "--lang",
                lang,
            ]);
            assert_ok(&out);
            for line in out.stdout.lines() {
                assert!(
                    terminal_columns(line) <= 80,
                    "{lang} {preset}: {line:?}\n{}",
                    out.stdout
                );
            }
        }
    }
    // Tricks won have a row each, the positions a column each.
    let out = torite(&[
        "stats",
        "--ruleset",
        "middler-joker",
        "--bots",
        "heuristic",
        "--games",
        "2",
        "--lang",
        "en",
    ]);
    assert_ok(&out);
    assert!(out.stdout.contains("\ntricks "), "{}", out.stdout);
    assert!(out.stdout.contains("\n11 "), "{}", out.stdout);
}
