//! `torite perft`, `rules`, `sheet --kind compare`, `deal`, `show`, `bench` and `--help`.

use super::*;

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

#[test]
fn show_prints_a_readable_sheet() {
    let out = ok(torite(&[
        "show",
        &data("mini-misere-4-two-deals.json"),
        "--lang",
        "en",
    ]));
    // The game by its name in the reader's language, never its id.
    let title = out.lines().next().unwrap_or_default();
    assert_eq!(title, "Mini Misère (current rules, 4 players)", "{out}");
    for text in ["Deal 1", "Deal 2", "AS", "2C", "seat 1", "Lot"] {
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
    // Each declarer of a Lot with its own outcome: one succeeded, the other failed.
    let lots = ok(torite(&[
        "show",
        &format!(
            "{}/../../examples/mini-misere-4.json",
            env!("CARGO_MANIFEST_DIR")
        ),
        "--lang",
        "en",
    ]));
    assert!(
        lots.contains("  Lot: seat 1 (succeeded), seat 2 (failed)\n"),
        "{lots}"
    );
    let ja = ok(torite(&[
        "show",
        &format!(
            "{}/../../examples/mini-misere-4.json",
            env!("CARGO_MANIFEST_DIR")
        ),
        "--lang",
        "ja",
    ]));
    assert!(ja.starts_with("ミニミゼール（現行ルール・4人）\n"), "{ja}");
    assert!(
        ja.contains("  ロット: 1番席（成功）、2番席（失敗）\n"),
        "{ja}"
    );
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
