//! Tests of rulesets, presets and house-rule options.

use super::*;
use serde_json::{Value, json};

use super::presets::SWISS;

#[test]
fn every_preset_is_valid_and_named() {
    for p in Preset::ALL {
        let r = p.ruleset();
        r.validate().unwrap_or_else(|e| panic!("{p}: {e}"));
        assert_eq!(Preset::from_id(p.id()), Some(p));
        assert!(r.is_preset());
    }
}

#[test]
fn deck_sizes_match_the_rules() {
    let sizes = [24, 28, 25, 25, 36, 21, 36, 36, 36, 36, 36, 33, 36, 36];
    for (p, size) in Preset::ALL.into_iter().zip(sizes) {
        assert_eq!(p.ruleset().deck().len(), size, "{p}");
    }
}

#[test]
fn ids_are_exact() {
    assert_eq!(Preset::from_id("Mini-Misere-4"), None);
    assert_eq!(Preset::from_id("mini-misere-4 "), None);
}

#[test]
fn strength_bands_are_ordered() {
    // Every plain card's rank strength lies below the led low card's band.
    for ranking in [Ranking::AceHigh, Ranking::JassTrump, Ranking::TenNineAce] {
        for rank in Rank::ALL {
            let s = ranking.strength(rank);
            assert!(
                s > STRENGTH_LOSES && s < STRENGTH_LED_LOW,
                "{ranking:?} {rank:?}"
            );
        }
    }
    let rules = Preset::MiniMisere4.ruleset();
    let two: Card = "2S".parse().unwrap();
    assert_eq!(
        rules.strength(two, Some(Suit::Spades), Trump::None, true),
        STRENGTH_LED_LOW
    );
    let jass = Preset::MittlereJass.ruleset();
    let jack: Card = "JH".parse().unwrap();
    assert_eq!(
        jass.strength(jack, Some(Suit::Spades), Trump::Suit(Suit::Hearts), false),
        STRENGTH_TRUMP + Ranking::JassTrump.strength(Rank::JACK)
    );
    assert_eq!(
        jass.strength(jack, Some(Suit::Spades), Trump::None, false),
        STRENGTH_LOSES
    );
}

#[test]
fn rank_orders() {
    let names = |r: Ranking, ranks| {
        r.order(ranks)
            .iter()
            .map(|r| r.letter())
            .collect::<String>()
    };
    assert_eq!(names(Ranking::AceHigh, SWISS), "AKQJT9876");
    assert_eq!(names(Ranking::JassTrump, SWISS), "J9AKQT876");
    assert_eq!(names(Ranking::TenNineAce, SWISS), "T9AKQJ876");
}

#[test]
fn low_card_nine_replaces_the_twos() {
    let rules = Ruleset::from_options("mini-misere-4", [("low_card", &json!(9))]).unwrap();
    assert_eq!(
        rules
            .deck()
            .to_string()
            .split(' ')
            .filter(|c| c.starts_with('9'))
            .count(),
        4
    );
    assert!(!rules.deck().contains("2S".parse().unwrap()));
    assert_eq!(rules.low_card, Some(Rank::NINE));
}

#[test]
fn low_card_refused_for_1989_presets() {
    for base in ["mini-misere-4-1989", "mini-misere-5-1989"] {
        let other = if base == "mini-misere-4-1989" { 9 } else { 2 };
        let err = Ruleset::from_options(base, [("low_card", &json!(other))]).unwrap_err();
        assert!(err.to_string().contains("low_card"), "{err}");
    }
}

#[test]
fn options_that_do_not_apply_are_refused_by_name() {
    let cases = [
        ("mittlere-jass", "target", json!(10), "target"),
        (
            "mittlere-jass",
            "lot_timing",
            json!("before-lead"),
            "lot_timing",
        ),
        ("mini-misere-4", "follow", json!("jass"), "follow"),
        ("middler-joker", "follow", json!("jass"), "follow"),
        (
            "mura-4",
            "molotow_middle_wins",
            json!(true),
            "molotow_middle_wins",
        ),
        ("mini-misere-4", "threshold", json!(6), "threshold"),
        ("mini-misere-4", "colour", json!(1), "colour"),
        ("mura-4", "threshold", json!("6"), "threshold"),
        ("mura-4", "bonus_at", json!(3), "bonus_at"),
        ("mini-misere-4", "lot_timing", json!("never"), "lot_timing"),
    ];
    for (base, name, value, named) in cases {
        let err = Ruleset::from_options(base, [(name, &value)]).unwrap_err();
        assert!(err.to_string().contains(named), "{base} {name}: {err}");
    }
}

#[test]
fn target_and_deals_together_are_refused() {
    let err = Ruleset::from_options(
        "mini-misere-4",
        [("target", &json!(30)), ("deals", &json!(4))],
    )
    .unwrap_err();
    assert!(err.to_string().contains("target and deals"), "{err}");
}

#[test]
fn house_rules_from_the_rules_text() {
    let r =
        Ruleset::from_options("mini-misere-4", [("lot_timing", &json!("before-lead"))]).unwrap();
    assert_eq!(r.lot.unwrap().timing, LotTiming::BeforeLead);
    let r = Ruleset::from_options(
        "mura-4",
        [("threshold", &json!(6)), ("bonus_at", &json!(7))],
    )
    .unwrap();
    assert_eq!(
        r.scoring,
        Scoring::Mura {
            threshold: 6,
            bonus_at: Some(7)
        }
    );
    let r = Ruleset::from_options("mittlere-jass", [("deals", &json!(24))]).unwrap();
    assert_eq!(r.end, GameEnd::Deals(24));
}

#[test]
fn options_round_trip_through_json() {
    for p in Preset::ALL {
        let r = p.ruleset();
        let opts = r.options();
        let back = Ruleset::from_options(p.id(), opts.iter().map(|(n, v)| (*n, v))).unwrap();
        assert_eq!(back, r);
        assert_eq!(Ruleset::from_json(&r.to_json()).unwrap(), r);
    }
    let r = Ruleset::from_options(
        "mini-misere-4",
        [("deals", &json!(3)), ("low_card", &json!(9))],
    )
    .unwrap();
    let j = r.to_json();
    assert_eq!(
        j,
        json!({"base": "mini-misere-4", "deals": 3, "low_card": 9})
    );
    assert_eq!(Ruleset::from_json(&j).unwrap(), r);
}

#[test]
fn option_values_are_what_set_option_accepts() {
    for name in OPTION_NAMES {
        let values = option_values(name).unwrap_or_else(|| panic!("{name} has no values"));
        // The presets where the option applies.
        let applies: Vec<Ruleset> = Preset::ALL
            .iter()
            .map(|p| p.ruleset())
            .filter(|r| r.options().iter().any(|(n, _)| *n == name))
            .collect();
        assert!(!applies.is_empty(), "{name} applies nowhere");
        for value in values.listed() {
            let accepted = applies.iter().any(|r| {
                let mut r = *r;
                r.set_option(name, &value).is_ok()
            });
            assert!(accepted, "{name} = {value} is refused everywhere");
        }
        if let OptionValues::Integer { min, max, .. } = values {
            let mut r = applies[0];
            // Mura's bonus must stay above its threshold: measure it on its own.
            if name == "threshold" {
                r.set_option("bonus_at", &Value::Null).unwrap();
            }
            assert!(r.set_option(name, &json!(max)).is_ok(), "{name} = {max}");
            assert!(r.set_option(name, &json!(min)).is_ok(), "{name} = {min}");
            assert!(r.set_option(name, &json!(min - 1)).is_err(), "{name} below");
            assert!(r.set_option(name, &json!(max + 1)).is_err(), "{name} above");
        }
    }
    assert_eq!(option_values("trump"), None);
}
