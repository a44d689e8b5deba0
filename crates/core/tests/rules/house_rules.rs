//! RULES.md 4: house rules and option names.

use super::*;

// ---------------------------------------------------------------------------------------------
// 4. House rules and option names
// ---------------------------------------------------------------------------------------------

#[test]
fn deals_option_ends_game_with_shared_winners() {
    let mut game = Game::new(rules("mini-misere-4", &[("deals", json!(2))]), 0).unwrap();
    game_deal(&mut game, &MM4_ONE_SUIT, "");
    assert!(!game.is_finished());
    game_deal(&mut game, &MM4_ONE_SUIT, "");
    assert_eq!(game.totals(), [12, 6, 6, 12]);
    assert!(game.is_finished());
    assert_eq!(game.winners(), [0, 3]);
    // Penalty games: the fewest share.
    let mut game = Game::new(rules("mura-4", &[("deals", json!(2))]), 0).unwrap();
    game_deal(&mut game, &SWISS_ONE_SUIT, "");
    game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(game.totals(), [2, 1, 1, 2]);
    assert_eq!(game.winners(), [1, 2]);
}

#[test]
fn every_ruleset_can_be_played_for_a_fixed_number_of_deals() {
    for p in Preset::ALL {
        let r = rules(p.id(), &[("deals", json!(5))]);
        assert_eq!(r.end, GameEnd::Deals(5), "{p}");
    }
}

#[test]
fn house_rules_start_from_a_preset() {
    let r = rules("mini-misere-4", &[("lot_timing", json!("before-lead"))]);
    assert_eq!(
        (r.players, r.lot.unwrap().success, r.lot.unwrap().timing),
        (4, 12, LotTiming::BeforeLead)
    );
    let r = rules("mura-4", &[("threshold", json!(6))]);
    assert_eq!(
        r.scoring,
        torite_core::Scoring::Mura {
            threshold: 6,
            bonus_at: None
        }
    );
    let r = rules(
        "mini-misere-5",
        &[("low_card", json!(9)), ("led_low_wins", json!(false))],
    );
    assert_eq!(
        (r.low_card, r.led_low_wins, r.deck().len()),
        (Some(Rank::NINE), false, 25)
    );
    let r = rules("plus-minus-jass-3", &[("target", json!(10))]);
    assert!(matches!(r.end, GameEnd::Target { points: 10, .. }));
    let r = rules("mittlere-jass", &[("follow", json!("handjass"))]);
    assert_eq!(r.follow, torite_core::FollowRule::Handjass);
}

#[test]
fn low_card_refused_for_1989_presets() {
    let msg = refused("mini-misere-4-1989", &[("low_card", json!(9))]);
    assert!(msg.contains("option low_card does not apply"), "{msg}");
    let msg = refused("mini-misere-5-1989", &[("low_card", json!(2))]);
    assert!(msg.contains("option low_card does not apply"), "{msg}");
    // Jass decks have no low card at all.
    assert!(refused("mittlere-jass", &[("low_card", json!(9))]).contains("low_card"));
    // Refused whatever the value (RULES.md 4), and not offered in their option lists.
    assert!(refused("mini-misere-4-1989", &[("low_card", json!(2))]).contains("low_card"));
    assert!(refused("mini-misere-5-1989", &[("low_card", json!(9))]).contains("low_card"));
    for base in ["mini-misere-4-1989", "mini-misere-5-1989"] {
        let preset = torite_core::Preset::from_id(base).unwrap().ruleset();
        assert!(preset.options().iter().all(|(name, _)| *name != "low_card"));
    }
}

#[test]
fn follow_jass_refused_for_mini_misere() {
    for base in [
        "mini-misere-4",
        "mini-misere-4-1989",
        "mini-misere-5",
        "mini-misere-5-1989",
        "mura-4",
        "mura-3",
    ] {
        for follow in ["jass", "handjass"] {
            let msg = refused(base, &[("follow", json!(follow))]);
            assert!(
                msg.contains("option follow does not apply"),
                "{base}: {msg}"
            );
        }
        assert_eq!(
            rules(base, &[("follow", json!("must-follow"))]),
            Preset::from_id(base).unwrap().ruleset()
        );
    }
}

#[test]
fn target_with_deals_refused() {
    let msg = refused(
        "mini-misere-4",
        &[("target", json!(30)), ("deals", json!(4))],
    );
    assert!(msg.contains("options target and deals conflict"), "{msg}");
    let msg = refused("mura-4", &[("deals", json!(4)), ("target", json!(7))]);
    assert!(msg.contains("target") && msg.contains("deals"), "{msg}");
}

#[test]
fn unknown_option_refused_by_name() {
    let err = Ruleset::from_options("mini-misere-4", [("colour", &json!(1))]).unwrap_err();
    assert_eq!(
        err.problems,
        [RulesetProblem::UnknownOption("colour".into())]
    );
    assert!(
        err.to_string().contains("unknown option \"colour\""),
        "{err}"
    );
    let err = Ruleset::from_options("mini-misere-7", []).unwrap_err();
    assert!(
        err.to_string()
            .contains("unknown ruleset \"mini-misere-7\""),
        "{err}"
    );
}

#[test]
fn options_of_another_game_refused_by_name() {
    let cases = [
        ("mura-4", "molotow_middle_wins", json!(true)),
        ("mini-misere-4", "threshold", json!(6)),
        ("mittlere-jass", "lot_timing", json!("before-lead")),
        ("mittlere-jass", "target", json!(10)),
        ("molotow-jass", "bonus_at", json!(8)),
        ("mura-4", "led_low_wins", json!(true)),
        ("plus-minus-jass-4", "molotow_middle_wins", json!(true)),
    ];
    for (base, name, value) in cases {
        let msg = refused(base, &[(name, value)]);
        assert!(
            msg.contains(&format!("option {name} does not apply")),
            "{base} {name}: {msg}"
        );
    }
}

#[test]
fn bad_option_values_refused_by_name() {
    let cases = [
        ("mura-4", "threshold", json!("6")),
        ("mura-4", "bonus_at", json!(true)),
        ("mini-misere-4", "lot_timing", json!("never")),
        ("mini-misere-4", "low_card", json!(3)),
        ("mini-misere-4", "led_low_wins", json!("yes")),
        ("mittlere-jass", "follow", json!("strict")),
        ("molotow-jass", "molotow_middle_wins", json!(1)),
        ("mini-misere-4", "target", json!(-1)),
        ("mittlere-jass", "deals", json!(0)),
        ("mittlere-jass", "deals", json!(2.5)),
    ];
    for (base, name, value) in cases {
        let err = Ruleset::from_options(base, [(name, &value)]).unwrap_err();
        assert!(
            matches!(&err.problems[..], [RulesetProblem::BadValue { option, .. }] if *option == name),
            "{base} {name}: {err:?}"
        );
        assert!(
            err.to_string()
                .contains(&format!("option {name} = {value} is invalid")),
            "{err}"
        );
    }
}
