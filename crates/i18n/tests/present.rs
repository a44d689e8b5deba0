//! The presentation layer: hand order per game family, the stroke-and-circle decision, the
//! deal summary, and a name or label for every game, option and option value.

use serde_json::Value;
use torite_core::{
    CardSet, DealResult, OPTION_NAMES, Preset, Ruleset, Step, Suit, Table, Trump, option_values,
};
use torite_i18n::present::{DealSummary, hand_order, strokes_and_circles, tally};
use torite_i18n::{Catalog, Lang};

fn order(preset: Preset, trump: Trump, hand: &str) -> String {
    let cards: CardSet = hand.parse().expect("a hand");
    hand_order(&preset.ruleset(), trump, cards)
        .iter()
        .map(ToString::to_string)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn hands_are_grouped_by_suit_strongest_first_in_each_game_s_order() {
    // Mini Misère: A K Q J T … 2 in every suit, the joker last; the 2 (the low card) last in
    // its suit; suits in the order S H D C whatever order the cards come in.
    assert_eq!(
        order(Preset::MiniMisere4, Trump::None, "2C JK AH TS 2S KS QH"),
        "KS TS 2S AH QH 2C JK"
    );
    // Jass: plain order until trump is set, then J 9 A K Q T 8 7 6 in the trump suit only;
    // the suits keep their places.
    let jass = "6S 9S JS AS TS 9H JH AH";
    assert_eq!(
        order(Preset::MittlereJass, Trump::None, jass),
        "AS JS TS 9S 6S AH JH 9H"
    );
    assert_eq!(
        order(Preset::MittlereJass, Trump::Suit(Suit::Spades), jass),
        "JS 9S AS TS 6S AH JH 9H"
    );
    assert_eq!(
        order(Preset::MolotowJass, Trump::Suit(Suit::Hearts), jass),
        "AS JS TS 9S 6S JH 9H AH"
    );
    // Middler with joker: every suit A K Q J T 9 8 7, trump too; the joker last.
    assert_eq!(
        order(
            Preset::MiddlerJoker,
            Trump::Suit(Suit::Clubs),
            "JK 7C JC AC 9C"
        ),
        "AC JC 9C 7C JK"
    );
    // Mura: T 9 A K Q J 8 7 6 in every suit.
    assert_eq!(
        order(Preset::Mura4, Trump::None, "AD TD 9D KD 6D JD"),
        "TD 9D AD KD JD 6D"
    );
}

#[test]
fn strokes_and_circles_for_mittlere_and_molotow_only() {
    let kept: Vec<&str> = Preset::ALL
        .into_iter()
        .filter(|p| strokes_and_circles(&p.ruleset()))
        .map(Preset::id)
        .collect();
    // Plus-Minus scores plus points only, toward 7: not kept in strokes and circles.
    assert_eq!(kept, ["mittlere-jass", "molotow-jass", "middler"]);
    let mittlere = Preset::MittlereJass.ruleset();
    assert_eq!(tally(&mittlere, [1, 1, -2, 1]).as_deref(), Some("||| ○○"));
    assert_eq!(tally(&mittlere, [2, 2, 1, -1]).as_deref(), Some("|×5 ○"));
    assert_eq!(tally(&mittlere, []), None);
    assert_eq!(tally(&Preset::PlusMinusJass3.ruleset(), [1, 2]), None);
    assert_eq!(tally(&Preset::Mura4.ruleset(), [3]), None);
}

/// The first deal of a table of `rules` seeded `seed`, played with the first legal action.
fn played_deal(rules: Ruleset, seed: u64) -> DealResult {
    let mut table = Table::new(rules, 0, seed).expect("a table");
    loop {
        match table.next_step() {
            Step::Act { seat } => {
                let view = table.view(seat).expect("a deal");
                let action = view.legal_actions().iter().next().expect("an action");
                if let Some(i) = table.apply(action).expect("legal").scored {
                    return table.game().results()[i].clone();
                }
            }
            Step::Draw { .. } => {
                table.draw().expect("a draw");
                return table.game().results()[0].clone();
            }
            Step::GameOver => unreachable!("a deal ends before the game"),
        }
    }
}

#[test]
fn the_deal_summary_marks_you_and_shows_points_only_when_taken() {
    let en = Catalog::new(Lang::En);
    let rules = Preset::MiniMisere4.ruleset();
    let result = played_deal(rules, 3);
    let summary = DealSummary::new(&en, &rules, &result, Some(2));
    let lines = summary.lines();
    assert_eq!(
        lines[0],
        format!("{}{:>6}{:>6}{:>6}{:>6}", " ".repeat(10), 0, 1, "*2", 3)
    );
    let labels: Vec<&str> = summary.rows.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(labels, ["", "Tricks", "Score", "Total"]);
    assert!(summary.rule.starts_with("Scoring: "), "{}", summary.rule);
    let tricks: usize = summary.rows[1]
        .cells
        .iter()
        .map(|c| c.parse::<usize>().unwrap())
        .sum();
    assert!(tricks <= rules.tricks());

    let ja = Catalog::new(Lang::Ja);
    let jass = Preset::MittlereJass.ruleset();
    let summary = DealSummary::new(&ja, &jass, &played_deal(jass, 3), None);
    let labels: Vec<&str> = summary.rows.iter().map(|r| r.label.as_str()).collect();
    assert_eq!(labels, ["", "トリック", "点数", "得点", "累計"]);
    // A Japanese label takes two columns a character: the cells still line up.
    let lines = summary.lines();
    assert!(lines[2].starts_with("点数      "), "{lines:?}");
    assert_eq!(
        unicode_columns(&lines[2]),
        unicode_columns(&lines[0]),
        "{lines:?}"
    );
}

fn unicode_columns(line: &str) -> usize {
    line.chars().map(|c| if c.is_ascii() { 1 } else { 2 }).sum()
}

#[test]
fn every_game_option_and_value_has_words_in_both_languages() {
    for lang in Lang::ALL {
        let c = Catalog::new(lang);
        let mut names = Vec::new();
        for preset in Preset::ALL {
            let name = c.preset_name(preset);
            assert!(!name.starts_with("preset-"), "{lang}: {name}");
            names.push(name);
        }
        names.sort();
        names.dedup();
        assert_eq!(
            names.len(),
            Preset::ALL.len(),
            "{lang}: two games share a name"
        );
        for option in OPTION_NAMES {
            let label = c.option_label(option);
            assert!(!label.starts_with("option-"), "{lang}: {label}");
            let domain = option_values(option).expect("a domain");
            let mut values = domain.listed();
            // Every preset's own value, integers included.
            for preset in Preset::ALL {
                values.extend(
                    preset
                        .ruleset()
                        .options()
                        .into_iter()
                        .filter(|(n, _)| *n == option)
                        .map(|(_, v)| v),
                );
            }
            if let torite_core::OptionValues::Integer { min, max, .. } = domain {
                values.extend([Value::from(min), Value::from(max)]);
            }
            for value in values {
                let text = c.option_value(option, &value);
                assert!(
                    !text.starts_with("option-") && !text.contains('{'),
                    "{lang}: {option} = {value}: {text}"
                );
                // A word, never the raw value, except a number shown with its unit.
                if !value.is_i64() || option == "low_card" {
                    assert_ne!(text, value.to_string(), "{lang}: {option} = {value}");
                }
            }
        }
    }
    let en = Catalog::new(Lang::En);
    assert_eq!(en.option_label("lot_timing"), "Lot timing");
    assert_eq!(
        en.option_value("lot_timing", &Value::from("before-lead")),
        "before the first lead (1989 rules)"
    );
    assert_eq!(en.option_value("deals", &Value::from(1)), "1 deal");
    assert_eq!(en.option_value("deals", &Value::from(12)), "12 deals");
    assert_eq!(en.option_value("bonus_at", &Value::Null), "no bonus");
    let ja = Catalog::new(Lang::Ja);
    assert_eq!(ja.option_label("lot_timing"), "ロットの宣言");
    assert_eq!(ja.option_value("deals", &Value::from(12)), "12ディール");
}

#[test]
fn jass_ticks_show_none_some_and_every_trick() {
    use torite_i18n::present::tick_cells;
    for (lang, every) in [(Lang::En, "all"), (Lang::Ja, "全部")] {
        let catalog = Catalog::new(lang);
        assert_eq!(
            tick_cells(&catalog, &[0, 5, 7], 12),
            ["0", "1+", "1+"],
            "{lang:?}"
        );
        assert_eq!(tick_cells(&catalog, &[12, 0, 0], 12), [every, "0", "0"]);
    }
    // Right-aligned by terminal columns: the two-column Japanese word takes four of the six.
    let catalog = Catalog::new(Lang::Ja);
    let summary = DealSummary {
        rows: vec![torite_i18n::present::SummaryRow {
            label: String::new(),
            cells: tick_cells(&catalog, &[12, 0, 0], 12),
        }],
        rule: String::new(),
    };
    assert_eq!(summary.lines(), ["            全部     0     0"]);
}
