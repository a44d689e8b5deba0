//! Printable sheets: golden text of every rules sheet, house rules, HTML and PDF checks.
//!
//! The golden files are `tests/golden/<preset>.<lang>.txt`; after a deliberate change of the
//! words, regenerate them with `UPDATE_GOLDEN=1 cargo test -p torite-sheets` and review the
//! diff. `SHEETS_OUT=<dir>` also writes every sheet there as HTML and PDF, to look at.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::json;
use torite_core::{Preset, Ruleset};
use torite_i18n::Lang;
use torite_sheets::{Body, Format, Kind, Sheet, font_covers};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn house(base: &str, options: serde_json::Value) -> Ruleset {
    let map = options.as_object().unwrap();
    Ruleset::from_options(base, map.iter().map(|(k, v)| (k.as_str(), v))).unwrap()
}

#[test]
fn rules_text_matches_the_golden_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let mut stale = Vec::new();
    for preset in Preset::ALL {
        for lang in Lang::ALL {
            let text = Sheet::new(&preset.ruleset(), Kind::Rules, lang).text();
            let path = golden_dir().join(format!("{}.{}.txt", preset.id(), lang.code()));
            if update {
                std::fs::create_dir_all(golden_dir()).unwrap();
                std::fs::write(&path, &text).unwrap();
                continue;
            }
            let expected = std::fs::read_to_string(&path).unwrap_or_default();
            if expected != text {
                stale.push(format!(
                    "{}\n--- expected\n{expected}\n--- got\n{text}",
                    path.display()
                ));
            }
        }
    }
    assert!(
        stale.is_empty(),
        "rules text differs from the golden files (UPDATE_GOLDEN=1 to regenerate):\n{}",
        stale.join("\n")
    );
}

#[test]
fn the_compare_sheet_matches_its_golden_files() {
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    for lang in Lang::ALL {
        let text = Sheet::new(&Preset::MiniMisere4.ruleset(), Kind::Compare, lang).text();
        let path = golden_dir().join(format!("compare-mini-misere.{}.txt", lang.code()));
        if update {
            std::fs::write(&path, &text).unwrap();
            continue;
        }
        let expected = std::fs::read_to_string(&path).unwrap_or_default();
        assert_eq!(expected, text, "{} (UPDATE_GOLDEN=1)", path.display());
    }
}

/// The compare table's rows, cells split.
fn compare_rows(sheet: &Sheet) -> Vec<Vec<String>> {
    let Body::Rules(sections) = &sheet.body else {
        panic!("not a rules page")
    };
    let Some(torite_sheets::Block::Table(table)) = sections[0].blocks.first() else {
        panic!("no table first")
    };
    table.rows.clone()
}

#[test]
fn the_compare_sheet_sets_the_six_mini_misere_forms_side_by_side_with_differences_marked() {
    for lang in Lang::ALL {
        let sheet = Sheet::new(&Preset::MiniMisere4.ruleset(), Kind::Compare, lang);
        let rows = compare_rows(&sheet);
        // A heading column and six forms: 4, 4 (1989), 5, 5 (1989), 6, 3.
        assert_eq!(rows[0].len(), 7, "{lang}: {:?}", rows[0]);
        let players: Vec<&str> = rows[1][1..]
            .iter()
            .map(|c| c.trim_start_matches("◆ "))
            .collect();
        assert_eq!(players, ["4", "4", "5", "5", "6", "3"], "{lang}");
        // The first column is the reference: never marked; a cell equal to it is not marked,
        // a cell that differs is.
        for row in &rows[1..] {
            assert!(!row[1].starts_with('◆'), "{lang}: {row:?}");
            for cell in &row[2..] {
                let same = cell == &row[1];
                assert_eq!(!same, cell.starts_with("◆ "), "{lang}: {row:?}");
            }
        }
        // The 1989 four-player deck has the 9s (28 cards); the 1989 Lot comes before the lead;
        // three players have no Lot and a target of 31.
        let text = sheet.text();
        match lang {
            Lang::En => {
                assert!(
                    text.contains("| Cards | 24 | ◆ 28 | ◆ 25 with the joker |"),
                    "{text}"
                );
                assert!(
                    text.contains("◆ Before the first lead, the leader first"),
                    "{text}"
                );
                assert!(text.contains("◆ No Lot"), "{text}");
                assert!(text.contains("◆ To 31 points"), "{text}");
            }
            Lang::Ja => {
                assert!(text.contains("| カード枚数 | 24枚 | ◆ 28枚 |"), "{text}");
                assert!(
                    text.contains("◆ 最初のリードの前（リードする人から順に）"),
                    "{text}"
                );
                assert!(text.contains("◆ ロットなし"), "{text}");
            }
        }
        // The trick tables side by side: a row a form, a column a number of tricks, the
        // four-player 1989 form's 7 and 12 marked.
        let Body::Rules(sections) = &sheet.body else {
            panic!("not a rules page")
        };
        let Some(torite_sheets::Block::Table(tricks)) = sections[1].blocks.first() else {
            panic!("no trick table")
        };
        assert_eq!(tricks.rows.len(), 7, "{lang}");
        assert_eq!(tricks.rows[0].len(), 9, "{lang}: 0 to 7 tricks");
        assert_eq!(tricks.rows[2][1..4], ["◆ 7", "1", "2"], "{lang}");
        assert_eq!(tricks.rows[2][7], "◆ 12", "{lang}");
        assert_eq!(
            tricks.rows[1][8], "",
            "{lang}: six cards each, no seventh trick"
        );
        // One A4 page at a readable size; in HTML the wide table is laid out as in the PDF.
        assert!(sheet.fit_scale() >= 0.8, "{lang}: {}", sheet.fit_scale());
        assert!(sheet.html().contains("table-layout: fixed"), "{lang}");
        let rules = Sheet::new(&Preset::MittlereJass.ruleset(), Kind::Rules, lang).html();
        assert!(!rules.contains("table-layout: fixed"), "{lang}");
        assert_eq!(page_count(&sheet.pdf().unwrap()), 1);
    }
    // A house rule is set first, beside every preset of its family.
    let before_lead = house("mini-misere-4", json!({"lot_timing": "before-lead"}));
    let rows = compare_rows(&Sheet::new(&before_lead, Kind::Compare, Lang::En));
    assert_eq!(rows[0].len(), 8, "{:?}", rows[0]);
    assert!(rows[0][1].starts_with("House rules"), "{:?}", rows[0]);
    // Other games compare their own family: Mura for four and for three.
    let rows = compare_rows(&Sheet::new(
        &Preset::Mura4.ruleset(),
        Kind::Compare,
        Lang::En,
    ));
    assert_eq!(rows[0].len(), 3, "{:?}", rows[0]);
}

#[test]
fn the_lot_ends_with_one_declarer_in_the_1989_rules_and_every_declarer_now() {
    let now = Sheet::new(&Preset::MiniMisere4.ruleset(), Kind::Rules, Lang::Ja).text();
    assert!(
        now.contains("宣言者が全員どこかのトリックに負けた時点で"),
        "{now}"
    );
    let old = Sheet::new(&Preset::MiniMisere4_1989.ruleset(), Kind::Rules, Lang::Ja).text();
    assert!(old.contains("宣言者がトリックに1回負けた時点で"), "{old}");
    assert!(!old.contains("宣言者が全員"), "{old}");
    let old = Sheet::new(&Preset::MiniMisere5_1989.ruleset(), Kind::Rules, Lang::En).text();
    assert!(
        old.contains("As soon as the declarer loses a trick"),
        "{old}"
    );
}

#[test]
fn score_cards_say_how_trump_is_set_the_eights_and_the_lot_priority() {
    let jass = Sheet::new(&Preset::MittlereJass.ruleset(), Kind::Scores, Lang::En).text();
    assert!(
        jass.contains("Trump is set by the first card played off suit"),
        "{jass}"
    );
    assert!(
        jass.contains("No trump all deal: each 8 is worth 8"),
        "{jass}"
    );
    let ja = Sheet::new(&Preset::MittlereJass.ruleset(), Kind::Scores, Lang::Ja).text();
    assert!(ja.contains("切札が決まらなければ各スートの8が8点"), "{ja}");
    assert!(!ja.contains("得点札"), "{ja}");
    let old = Sheet::new(&Preset::MiniMisere4_1989.ruleset(), Kind::Scores, Lang::En).text();
    assert!(
        old.contains("Asked in turn from the leader: the first to declare has it"),
        "{old}"
    );
    let old = Sheet::new(&Preset::MiniMisere4_1989.ruleset(), Kind::Scores, Lang::Ja).text();
    assert!(old.contains("先に宣言した人が優先"), "{old}");
    let now = Sheet::new(&Preset::MiniMisere4.ruleset(), Kind::Scores, Lang::En).text();
    assert!(now.contains("More than one may declare"), "{now}");
}

#[test]
fn a_house_rule_footer_names_its_base_in_words_not_json() {
    let mura = house("mura-4", json!({"threshold": 6}));
    for kind in Kind::ALL {
        for lang in Lang::ALL {
            let sheet = Sheet::new(&mura, kind, lang);
            for raw in ["{", "mura-4"] {
                assert!(
                    !sheet.footer.contains(raw),
                    "{kind} {lang}: {}",
                    sheet.footer
                );
            }
        }
    }
    let en = Sheet::new(&mura, Kind::Rules, Lang::En);
    assert_eq!(
        en.footer,
        "Made with torite · house rules based on Mura (4 players)"
    );
    let ja = Sheet::new(&mura, Kind::Rules, Lang::Ja);
    assert_eq!(
        ja.footer,
        "torite で作成 · ムーラ（4人）をもとにしたハウスルール"
    );
}

#[test]
fn every_sheet_has_words_for_every_message() {
    for preset in Preset::ALL {
        for lang in Lang::ALL {
            for kind in Kind::ALL {
                let sheet = Sheet::new(&preset.ruleset(), kind, lang);
                let text = sheet.text();
                assert!(
                    !text.contains("sheet-") && !text.contains('{') && !text.contains("{$"),
                    "{preset} {lang} {kind}: a message is missing:\n{text}"
                );
                for c in sheet.chars() {
                    assert!(font_covers(c), "{preset} {lang} {kind}: no glyph for {c:?}");
                }
            }
        }
    }
}

#[test]
fn a_house_rule_prints_its_own_rules() {
    // The current four-player Mini Misère with the 1989 Lot timing.
    let preset = Preset::MiniMisere4.ruleset();
    let before_lead = house("mini-misere-4", json!({"lot_timing": "before-lead"}));
    for lang in Lang::ALL {
        let plain = Sheet::new(&preset, Kind::Rules, lang).text();
        let changed = Sheet::new(&before_lead, Kind::Rules, lang).text();
        assert_ne!(plain, changed);
        let expected_1989 = Sheet::new(&Preset::MiniMisere4_1989.ruleset(), Kind::Rules, lang);
        let lot_1989 = section_text(&expected_1989, 3);
        let lot_changed = section_text(&Sheet::new(&before_lead, Kind::Rules, lang), 3);
        // Same Lot timing text as the 1989 rules, with this deck's points.
        let first_line = |s: &str| s.lines().nth(1).unwrap_or_default().to_owned();
        assert_eq!(first_line(&lot_1989), first_line(&lot_changed), "{lang}");
        // The house rule in words, not as the option's name and value.
        let house = match lang {
            Lang::En => "House rules — Lot timing: before the first lead (1989 rules)",
            Lang::Ja => "ハウスルール — ロットの宣言: 最初のリードの前（1989年ルール）",
        };
        let line = changed.lines().nth(2).unwrap_or_default();
        assert_eq!(line, house, "{changed}");
    }
    let en = Sheet::new(&before_lead, Kind::Rules, Lang::En).text();
    assert!(
        en.contains("Declare it before the first card is led"),
        "{en}"
    );
    assert!(
        !en.contains("as you play your card to the first trick"),
        "{en}"
    );

    // Mura with the hard threshold, and the seed's bonus.
    let mura = house("mura-4", json!({"threshold": 6, "bonus_at": 7}));
    let en = Sheet::new(&mura, Kind::Rules, Lang::En).text();
    assert!(
        en.contains("captured points reach 6 takes no penalty"),
        "{en}"
    );
    assert!(en.contains("capturing 7 points or more"), "{en}");
    let ja = Sheet::new(&mura, Kind::Rules, Lang::Ja).text();
    assert!(ja.contains("合計6以上なら"), "{ja}");
    let card = Sheet::new(&mura, Kind::Scores, Lang::En).text();
    assert!(card.contains("6 points or more: no penalty"), "{card}");
    assert!(
        card.contains("7 points or more: −1 off your total"),
        "{card}"
    );

    // A Jass game for 24 deals: the score sheet has 24 rows.
    let long = house("mittlere-jass", json!({"deals": 24}));
    let sheet = Sheet::new(&long, Kind::Scorepad, Lang::En);
    let Body::Pad(pad) = &sheet.body else {
        panic!("not a pad")
    };
    assert_eq!(pad.rows, 24);
    assert!(sheet.text().contains("Game: 24 deals"));

    // Molotow with the seed's literal signs.
    let literal = house("molotow-jass", json!({"molotow_middle_wins": true}));
    let en = Sheet::new(&literal, Kind::Rules, Lang::En).text();
    assert!(en.contains("All points differ: the highest and the lowest −1 each"));
}

/// The text of the `n`th section (0-based) of a rules sheet.
fn section_text(sheet: &Sheet, n: usize) -> String {
    sheet
        .text()
        .split("\n## ")
        .nth(n + 1)
        .unwrap_or_default()
        .to_owned()
}

#[test]
fn plurals_follow_the_numbers() {
    let one = house("mittlere-jass", json!({"deals": 1}));
    let text = Sheet::new(&one, Kind::Rules, Lang::En).text();
    assert!(text.contains("A game is 1 deal."), "{text}");
    let joker = Sheet::new(&Preset::MiddlerJoker.ruleset(), Kind::Rules, Lang::En).text();
    assert!(joker.contains("The joker is worth 1 point."), "{joker}");
}

#[test]
fn score_cards_and_pads_follow_the_scoring() {
    let card = Sheet::new(&Preset::MiniMisere4.ruleset(), Kind::Scores, Lang::Ja).text();
    for row in ["| 0 | 6 |", "| 4 | 8 |", "| 6 | 0 |"] {
        assert!(card.contains(row), "{card}");
    }
    assert!(card.contains("成功: 宣言者に12点"), "{card}");
    let card = Sheet::new(&Preset::MolotowJass.ruleset(), Kind::Scores, Lang::En).text();
    assert!(card.contains("7. All differ"), "{card}");
    let pad = Sheet::new(&Preset::MolotowJass.ruleset(), Kind::Scorepad, Lang::En);
    let Body::Pad(grid) = &pad.body else {
        panic!("not a pad")
    };
    assert_eq!(grid.players.len(), 4);
    assert_eq!(grid.columns, ["Pts", "|", "○"]);
    assert_eq!(grid.rows, 12);
    let pad = Sheet::new(&Preset::Mura3.ruleset(), Kind::Scorepad, Lang::Ja);
    let Body::Pad(grid) = &pad.body else {
        panic!("not a pad")
    };
    assert_eq!(grid.players.len(), 3);
    assert_eq!(grid.columns, ["失点", "累計"]);
}

#[test]
fn jass_score_sheets_print_the_scoring_rules_and_the_strokes_and_circles() {
    let sheet = Sheet::new(&Preset::MittlereJass.ruleset(), Kind::Scorepad, Lang::En);
    let Body::Pad(pad) = &sheet.body else {
        panic!("not a pad")
    };
    let Some(torite_sheets::Block::List { numbered, items }) =
        pad.scoring.as_ref().and_then(|s| s.blocks.first())
    else {
        panic!("no scoring rules")
    };
    assert!(*numbered);
    assert_eq!(items.len(), 5, "{items:?}");
    let text = sheet.text();
    assert!(text.contains("## Strokes and circles"), "{text}");
    assert!(
        text.contains("○+| a plus after a minus, or a minus after a plus: the stroke is written over the circle, for 0"),
        "{text}"
    );
    let html = sheet.html();
    assert!(html.contains("class=\"tally\"") && html.contains("class=\"scoring\""));
    let ja = Sheet::new(&Preset::MittlereJass.ruleset(), Kind::Scorepad, Lang::Ja).text();
    assert!(ja.contains("丸と縦棒を重ねて0点"), "{ja}");
    // Middler with the joker scores its own card points: the rules, no strokes and circles.
    let middler = Sheet::new(&Preset::MiddlerJoker.ruleset(), Kind::Scorepad, Lang::En);
    let Body::Pad(pad) = &middler.body else {
        panic!("not a pad")
    };
    assert!(pad.scoring.is_some() && pad.tally.is_none());
    // Mini Misère and Mura fill the page with deal rows: neither.
    for preset in [Preset::MiniMisere4, Preset::Mura4] {
        let sheet = Sheet::new(&preset.ruleset(), Kind::Scorepad, Lang::En);
        let Body::Pad(pad) = &sheet.body else {
            panic!("not a pad")
        };
        assert!(pad.scoring.is_none() && pad.tally.is_none(), "{preset}");
    }
}

#[test]
fn html_is_self_contained_and_prints_on_a4() {
    for kind in Kind::ALL {
        for lang in Lang::ALL {
            let sheet = Sheet::new(&Preset::MolotowJass.ruleset(), kind, lang);
            let html = sheet.html();
            assert!(html.starts_with("<!DOCTYPE html>"), "{kind}");
            assert!(html.contains("@page"), "{kind}");
            assert!(html.contains("size: A4"), "{kind}");
            assert!(html.contains(&format!("<html lang=\"{}\">", lang.code())));
            assert!(
                !html.contains("<link") && !html.contains("src=\"http"),
                "{kind}"
            );
            assert!(html.contains(&escape(&sheet.title)), "{kind}");
        }
    }
    let html = Sheet::new(&Preset::MiniMisere4.ruleset(), Kind::Scores, Lang::En).html();
    assert_eq!(html.matches("class=\"card\"").count(), 9);
    assert!(html.contains("width: 57mm") && html.contains("height: 89mm"));
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The page count of a PDF, from its page tree.
fn page_count(pdf: &[u8]) -> usize {
    let text = String::from_utf8_lossy(pdf);
    let at = text.find("/Type/Pages/Count ").expect("a page tree") + "/Type/Pages/Count ".len();
    text[at..]
        .chars()
        .take_while(char::is_ascii_digit)
        .collect::<String>()
        .parse()
        .unwrap()
}

#[test]
fn pdfs_are_valid_small_and_one_page() {
    let mut largest = 0;
    for preset in [Preset::MiniMisere5_1989, Preset::Middler, Preset::Mura4] {
        for lang in Lang::ALL {
            for kind in Kind::ALL {
                let sheet = Sheet::new(&preset.ruleset(), kind, lang);
                let pdf = sheet.render(Format::Pdf).unwrap();
                assert!(pdf.starts_with(b"%PDF-"), "{preset} {lang} {kind}");
                assert!(pdf.ends_with(b"%%EOF") || pdf.ends_with(b"%%EOF\n"));
                assert_eq!(page_count(&pdf), 1, "{preset} {lang} {kind}");
                largest = largest.max(pdf.len());
            }
        }
    }
    // The whole font is 6 MB: only the glyphs used are embedded.
    assert!(largest < 120_000, "a PDF is {largest} bytes");
    let long = house("mittlere-jass", json!({"deals": 40}));
    let pdf = Sheet::new(&long, Kind::Scorepad, Lang::En).pdf().unwrap();
    assert_eq!(page_count(&pdf), 2);
}

#[test]
fn rules_fit_one_page_at_a_readable_size() {
    for preset in Preset::ALL {
        for lang in Lang::ALL {
            let sheet = Sheet::new(&preset.ruleset(), Kind::Rules, lang);
            let scale = sheet.fit_scale();
            assert!(scale >= 0.8, "{preset} {lang}: rules shrunk to {scale}");
            let card = Sheet::new(&preset.ruleset(), Kind::Scores, lang);
            let scale = card.fit_scale();
            assert!(
                scale >= 0.75,
                "{preset} {lang}: score card shrunk to {scale}"
            );
        }
    }
}

/// Renders page 1 with poppler's `pdftoppm` (Debian `poppler-utils`). Ignored by a plain
/// `cargo test`, since it needs that program; `.ci/run` installs it and runs this with
/// `--ignored`, and without it the test fails rather than pass having checked nothing.
#[test]
#[ignore = "needs poppler's pdftoppm: .ci/run installs it; by hand, pass --ignored"]
fn pdf_renders_with_poppler() {
    if let Err(e) = Command::new("pdftoppm").arg("-v").output() {
        panic!("pdftoppm cannot run ({e}): install poppler-utils");
    }
    let dir = std::env::temp_dir().join(format!("torite-sheets-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for (preset, lang, kind) in [
        (Preset::MiniMisere4, Lang::Ja, Kind::Rules),
        (Preset::MolotowJass, Lang::En, Kind::Scores),
        (Preset::Mura4, Lang::Ja, Kind::Scorepad),
    ] {
        let pdf = Sheet::new(&preset.ruleset(), kind, lang).pdf().unwrap();
        let input = dir.join(format!("{preset}-{lang}-{kind}.pdf"));
        std::fs::write(&input, &pdf).unwrap();
        let prefix = dir.join(format!("{preset}-{lang}-{kind}"));
        let out = Command::new("pdftoppm")
            .args(["-png", "-r", "40", "-f", "1", "-l", "1", "-singlefile"])
            .arg(&input)
            .arg(&prefix)
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{preset} {lang} {kind}: {stderr}");
        assert!(
            !stderr.to_lowercase().contains("error"),
            "{preset} {lang} {kind}: {stderr}"
        );
        let png = std::fs::read(prefix.with_extension("png")).unwrap();
        assert!(png.starts_with(b"\x89PNG"));
        assert!(png.len() > 1000);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Writes every sheet as HTML and PDF into `$SHEETS_OUT`, to look at.
#[test]
fn write_every_sheet_when_asked() {
    let Some(out) = std::env::var_os("SHEETS_OUT") else {
        return;
    };
    let out = PathBuf::from(out);
    std::fs::create_dir_all(&out).unwrap();
    for preset in Preset::ALL {
        for lang in Lang::ALL {
            for kind in Kind::ALL {
                let sheet = Sheet::new(&preset.ruleset(), kind, lang);
                for format in [Format::Html, Format::Pdf] {
                    let name = format!("{preset}.{kind}.{lang}.{format}");
                    std::fs::write(out.join(name), sheet.render(format).unwrap()).unwrap();
                }
            }
        }
    }
}
