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
