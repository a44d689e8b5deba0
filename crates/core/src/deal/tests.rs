//! Unit tests of the deal state machine.

use super::*;
use crate::ruleset::Preset;

#[test]
fn actions_serialize_as_their_codes() {
    let actions = [
        Action::Play("TH".parse().unwrap()),
        Action::Lot,
        Action::Pass,
        Action::Call(Suit::Spades),
    ];
    let text = serde_json::to_string(&actions).unwrap();
    assert_eq!(text, r#"["TH","lot","pass","call:S"]"#);
    assert_eq!(serde_json::from_str::<Vec<Action>>(&text).unwrap(), actions);
    let bad = serde_json::from_str::<Action>(r#""lots""#).unwrap_err();
    assert!(bad.to_string().contains("unknown action \"lots\""), "{bad}");
    assert!(serde_json::from_str::<Action>("3").is_err());
}

#[test]
fn actions_parse_case_insensitively() {
    assert_eq!("LOT".parse::<Action>().unwrap(), Action::Lot);
    assert_eq!("Pass".parse::<Action>().unwrap(), Action::Pass);
    assert_eq!(
        "call:h".parse::<Action>().unwrap(),
        Action::Call(Suit::Hearts)
    );
    assert_eq!("10s".parse::<Action>().unwrap().to_string(), "TS");
    for bad in ["call:", "call:X", "call:HH", "lots", "ZZ"] {
        assert_eq!(bad.parse::<Action>().unwrap_err().token, bad);
    }
}

#[test]
fn the_lot_is_open_until_its_time_is_past() {
    let h = |s: &str| s.parse::<CardSet>().unwrap();
    let hands = [
        h("AS KS QS JS TS 2S"),
        h("AH KH QH JH TH 2H"),
        h("AD KD QD JD TD 2D"),
        h("AC KC QC JC TC 2C"),
    ];
    let play = |deal: &mut Deal, actions: &str| {
        for a in actions.split_whitespace() {
            deal.apply(a.parse().unwrap()).unwrap();
        }
    };
    // First-card timing: open through the first trick, whoever has played.
    let mut deal = Deal::new(Preset::MiniMisere4.ruleset(), 3, &hands).unwrap();
    assert!(deal.lot_open());
    play(&mut deal, "2S AH AD");
    assert!(deal.lot_open() && deal.may_declare_with_card());
    play(&mut deal, "AC");
    assert!(!deal.lot_open());
    // 1989 timing: open only while the seats are asked.
    let mut rules = Preset::MiniMisere4.ruleset();
    rules
        .set_option("lot_timing", &serde_json::json!("before-lead"))
        .unwrap();
    let mut deal = Deal::new(rules, 3, &hands).unwrap();
    assert!(deal.lot_open());
    play(&mut deal, "pass pass pass");
    assert!(deal.lot_open());
    play(&mut deal, "pass");
    assert!(!deal.lot_open() && deal.phase() == Phase::Play);
    // No Lot at all.
    let mut rng =
        <rand_chacha::ChaCha8Rng as rand_chacha::rand_core::SeedableRng>::seed_from_u64(0);
    let jass = Deal::random(Preset::MittlereJass.ruleset(), 0, &mut rng);
    assert!(!jass.lot_open());
}

#[test]
fn setup_errors_name_the_problem() {
    let rules = Preset::MiniMisere4.ruleset();
    let h = |s: &str| s.parse::<CardSet>().unwrap();
    let good = [
        h("AS KS QS JS TS 2S"),
        h("AH KH QH JH TH 2H"),
        h("AD KD QD JD TD 2D"),
        h("AC KC QC JC TC 2C"),
    ];
    assert!(Deal::new(rules, 0, &good).is_ok());
    assert_eq!(
        Deal::new(rules, 4, &good).unwrap_err(),
        SetupError::BadDealer {
            dealer: 4,
            players: 4
        }
    );
    assert!(matches!(
        Deal::new(rules, 0, &good[..3]),
        Err(SetupError::HandCount { .. })
    ));
    let mut bad = good;
    bad[0] = h("AS KS QS JS TS 9S");
    assert_eq!(
        Deal::new(rules, 0, &bad).unwrap_err(),
        SetupError::NotInDeck("9S".parse().unwrap())
    );
    bad[0] = h("AS KS QS JS TS AH");
    assert_eq!(
        Deal::new(rules, 0, &bad).unwrap_err(),
        SetupError::Duplicate("AH".parse().unwrap())
    );
    bad[0] = h("AS KS QS JS TS");
    assert!(matches!(
        Deal::new(rules, 0, &bad),
        Err(SetupError::HandSize {
            seat: 0,
            given: 5,
            expected: 6
        })
    ));
}
