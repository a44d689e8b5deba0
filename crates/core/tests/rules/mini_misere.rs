//! RULES.md 1: Mini Misère (1.1–1.6) and its three- and six-player forms (1.7).

use super::*;

// ---------------------------------------------------------------------------------------------
// 1. Mini Misère
// ---------------------------------------------------------------------------------------------

#[test]
fn mini_misere_decks_match_the_table() {
    let deck = |p: Preset| p.ruleset().deck().to_string();
    assert_eq!(
        deck(Preset::MiniMisere4),
        "AS KS QS JS TS 2S AH KH QH JH TH 2H AD KD QD JD TD 2D AC KC QC JC TC 2C"
    );
    assert_eq!(deck(Preset::MiniMisere4_1989).split(' ').count(), 28);
    assert!(
        Preset::MiniMisere4_1989
            .ruleset()
            .deck()
            .contains(card("9S"))
    );
    assert!(
        Preset::MiniMisere4_1989
            .ruleset()
            .deck()
            .contains(card("2S"))
    );
    assert_eq!(deck(Preset::MiniMisere5).split(' ').count(), 25);
    assert!(deck(Preset::MiniMisere5).ends_with("2C JK"));
    assert_eq!(deck(Preset::MiniMisere5_1989).split(' ').count(), 25);
    assert!(deck(Preset::MiniMisere5_1989).ends_with("9C JK"));
    assert!(
        !Preset::MiniMisere5_1989
            .ruleset()
            .deck()
            .contains(card("2S"))
    );
    let players: Vec<u8> = [
        Preset::MiniMisere4,
        Preset::MiniMisere4_1989,
        Preset::MiniMisere5,
        Preset::MiniMisere5_1989,
    ]
    .iter()
    .map(|p| p.ruleset().players)
    .collect();
    assert_eq!(players, [4, 4, 5, 5]);
}

#[test]
fn four_player_deck_has_no_joker() {
    for p in [Preset::MiniMisere4, Preset::MiniMisere4_1989] {
        assert!(!p.ruleset().deck().contains(Card::JOKER), "{p}");
        assert_eq!(p.ruleset().deck().len() % 4, 0, "{p}");
    }
}

#[test]
fn mini_misere_must_follow_suit_when_able_else_any_card() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &LED2);
    play(&mut d, "TH");
    assert_eq!(legal(&d), "AS JS AD KD QD JD");
    play(&mut d, "AD");
    assert_eq!(legal(&d), "KS TS TD 2D AC KC");
    play(&mut d, "AC");
    assert_eq!(legal(&d), "2H");
    assert_eq!(why(&d, "QC"), PlayError::MustFollow { led: Suit::Hearts });
    assert_eq!(why(&d, "AS"), PlayError::NotInHand(card("AS")));
}

#[test]
fn mini_misere_no_trumps_highest_of_led_suit_wins() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &LED2);
    play(&mut d, "TH AD AC 2H");
    assert_eq!(winner_of_last_trick(&d), 0);
    let mut d = deal(Preset::MiniMisere4.ruleset(), 1, &LED2);
    // Seat 2 leads the ten of diamonds; seat 1's jack of diamonds beats it.
    play(&mut d, "TD 2C KH JD");
    assert_eq!(winner_of_last_trick(&d), 1);
}

#[test]
fn led_two_beats_its_suit() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &LED2);
    play(&mut d, "2S AS KS");
    assert_eq!(d.winning(), Some(0));
    play(&mut d, "QS");
    assert_eq!(winner_of_last_trick(&d), 0);
    // The 4-player 1989 deck keeps the led 2 too.
    let r = Preset::MiniMisere4_1989.ruleset();
    assert!(r.led_low_wins);
    assert_eq!(r.low_card, Some(Rank::TWO));
}

#[test]
fn two_not_led_is_lowest() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &LED2);
    play(&mut d, "TH AD AC 2H");
    assert_eq!(winner_of_last_trick(&d), 0);
    // A led 2 still wins, a 2 that follows loses to the lowest other card.
    let mut d = deal(Preset::MiniMisere4.ruleset(), 1, &LED2);
    play(&mut d, "2D 2C TH");
    assert_eq!(d.winning(), Some(2));
}

#[test]
fn low_card_nine_makes_nine_the_led_highest_card() {
    let r = rules("mini-misere-4", &[("low_card", json!(9))]);
    assert!(!r.deck().contains(card("2S")));
    assert!(r.deck().contains(card("9S")));
    let nines = LED2.map(|h| h.replace('2', "9"));
    let nines: Vec<&str> = nines.iter().map(String::as_str).collect();
    let mut d = deal(r, 3, &nines);
    play(&mut d, "9S AS KS QS");
    assert_eq!(winner_of_last_trick(&d), 0);
    // Not led, the 9 is the lowest of its suit.
    play(&mut d, "TH AD AC 9H");
    assert_eq!(winner_of_last_trick(&d), 0);
    play(&mut d, "JH");
    assert_eq!(legal(&d), "JS KD QD JD");
}

#[test]
fn led_low_wins_false_makes_led_two_ordinary() {
    let r = rules("mini-misere-4", &[("led_low_wins", json!(false))]);
    let mut d = deal(r, 3, &LED2);
    play(&mut d, "2S AS KS QS");
    assert_eq!(winner_of_last_trick(&d), 1);
}

#[test]
fn nine_has_no_special_power_in_1989_five_player_rules() {
    let r = Preset::MiniMisere5_1989.ruleset();
    assert!(!r.led_low_wins);
    let mut d = deal(
        r,
        4,
        &[
            "9S AH KH QH JH",
            "AS KS QS JS TS",
            "JK TH 9H AD KD",
            "QD JD TD 9D AC",
            "KC QC JC TC 9C",
        ],
    );
    play(&mut d, "pass pass pass pass pass | 9S TS TH AC 9C");
    assert_eq!(winner_of_last_trick(&d), 1);
}

const MM5: [&str; 5] = [
    "JK AS KS QS JS",
    "TS 2S AH KH QH",
    "JH TH 2H AD KD",
    "QD JD TD 2D AC",
    "KC QC JC TC 2C",
];

#[test]
fn joker_current_led_wins_and_frees_followers() {
    let mut d = deal(Preset::MiniMisere5.ruleset(), 4, &MM5);
    play(&mut d, "JK");
    assert_eq!(d.led(), None);
    assert_eq!(legal(&d), "TS 2S AH KH QH");
    play(&mut d, "AH");
    assert_eq!(legal(&d), "JH TH 2H AD KD");
    play(&mut d, "AD AC KC");
    assert_eq!(winner_of_last_trick(&d), 0);
}

#[test]
fn joker_current_not_led_only_when_void_and_loses() {
    let r = Preset::MiniMisere5.ruleset();
    let mut d = deal(
        r,
        4,
        &[
            "AS KS QS JS TS",
            "JK 2S AH KH QH",
            "JH TH 2H AD KD",
            "QD JD TD 2D AC",
            "KC QC JC TC 2C",
        ],
    );
    play(&mut d, "AS");
    assert_eq!(legal(&d), "2S");
    assert_eq!(
        why(&d, "JK"),
        PlayError::JokerOnlyWhenVoid { led: Suit::Spades }
    );
    play(&mut d, "2S 2H AC 2C | KS");
    assert_eq!(legal(&d), "AH KH QH JK");
    play(&mut d, "JK JH 2D KC");
    assert_eq!(winner_of_last_trick(&d), 0);
    assert_eq!(d.tricks_won(), [2, 0, 0, 0, 0]);
}

const MM5_1989: [&str; 5] = [
    "JK AS KS QS JS",
    "TS 9S AH KH QH",
    "JH TH 9H AD KD",
    "QD JD TD 9D AC",
    "KC QC JC TC 9C",
];

#[test]
fn joker_1989_led_names_suit_which_must_be_followed() {
    let mut d = deal(Preset::MiniMisere5_1989.ruleset(), 4, &MM5_1989);
    play(&mut d, "pass pass pass pass pass");
    assert_eq!(why(&d, "call:H"), PlayError::NoCallExpected);
    play(&mut d, "JK");
    assert_eq!(d.phase(), Phase::CallSuit);
    assert_eq!(d.to_act(), 0);
    let calls: Vec<String> = d.legal_actions().iter().map(|a| a.to_string()).collect();
    assert_eq!(calls, ["call:S", "call:H", "call:D", "call:C"]);
    assert_eq!(why(&d, "AS"), PlayError::MustCallSuit);
    play(&mut d, "call:H");
    assert_eq!(d.led(), Some(Suit::Hearts));
    assert_eq!(legal(&d), "AH KH QH");
    assert_eq!(why(&d, "TS"), PlayError::MustFollow { led: Suit::Hearts });
    play(&mut d, "AH");
    assert_eq!(legal(&d), "JH TH 9H");
    play(&mut d, "9H");
    assert_eq!(legal(&d), "QD JD TD 9D AC");
    play(&mut d, "AC 9C");
    assert_eq!(winner_of_last_trick(&d), 0);
}

#[test]
fn joker_1989_call_even_in_last_trick() {
    let mut d = deal(Preset::MiniMisere5_1989.ruleset(), 4, &MM5_1989);
    play(
        &mut d,
        "pass pass pass pass pass | AS TS JH QD KC | KS 9S TH JD QC | QS AH 9H TD JC | JS KH AD 9D TC",
    );
    assert_eq!(d.tricks_completed(), 4);
    play(&mut d, "JK");
    assert!(!d.is_over());
    assert_eq!(d.phase(), Phase::CallSuit);
    assert_eq!(d.legal_actions().calls, 0b1111);
    play(&mut d, "call:D");
    assert_eq!(legal(&d), "QH");
    play(&mut d, "QH");
    assert_eq!(legal(&d), "KD");
    play(&mut d, "KD AC 9C");
    assert!(d.is_over());
    assert_eq!(d.tricks_won(), [5, 0, 0, 0, 0]);
}

#[test]
fn joker_1989_playable_any_time_and_loses() {
    let mut d = deal(
        Preset::MiniMisere5_1989.ruleset(),
        4,
        &[
            "9S TS AH KH QH",
            "JK AS KS QS JS",
            "JH TH 9H AD KD",
            "QD JD TD 9D AC",
            "KC QC JC TC 9C",
        ],
    );
    play(&mut d, "pass pass pass pass pass | 9S");
    assert_eq!(legal(&d), "AS KS QS JS JK");
    play(&mut d, "JK JH AC KC");
    // The joker lost even to the 9 led.
    assert_eq!(winner_of_last_trick(&d), 0);
}

#[test]
fn lot_current_timing_declared_with_first_card() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &LED2);
    assert!(d.legal_actions().lot);
    assert_eq!(why(&d, "pass"), PlayError::PassNotAllowed);
    play(&mut d, "lot");
    // The declarer now plays its card; it cannot declare twice.
    assert!(!d.legal_actions().lot);
    assert_eq!(d.to_act(), 0);
    assert!(matches!(why(&d, "lot"), PlayError::LotNotAllowed(_)));
    assert_eq!(legal(&d), "2S AH KH QH JH TH");
    play(&mut d, "2S");
    // The next seat has seen the lead and may still declare with its card.
    assert!(d.legal_actions().lot);
    play(&mut d, "AS KS QS");
    assert_eq!(d.tricks_completed(), 1);
    assert!(!d.legal_actions().lot);
    assert_eq!(
        why(&d, "lot"),
        PlayError::LotNotAllowed("it is declared only with a seat's card to the first trick")
    );
    assert_eq!(d.lot().declarers, 0b0001);
}

#[test]
fn lot_current_several_seats_may_declare() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &LED2);
    play(&mut d, "lot 2S lot AS KS lot QS");
    assert_eq!(d.lot().declarers, 0b1011);
}

#[test]
fn lot_1989_asked_in_turn_first_lot_ends_asking() {
    let r = Preset::MiniMisere4_1989.ruleset();
    let one_suit = [
        "AS KS QS JS TS 9S 2S",
        "AH KH QH JH TH 9H 2H",
        "AD KD QD JD TD 9D 2D",
        "AC KC QC JC TC 9C 2C",
    ];
    let mut d = deal(r, 1, &one_suit);
    assert_eq!((d.phase(), d.to_act()), (Phase::LotQuestion, 2));
    assert_eq!(d.legal_actions().len(), 2);
    assert_eq!(why(&d, "AD"), PlayError::MustAnswerLot);
    play(&mut d, "pass");
    assert_eq!(d.to_act(), 3);
    play(&mut d, "lot");
    // Seat 3's Lot ends the asking: seats 0 and 1 are not asked, seat 2 leads.
    assert_eq!((d.phase(), d.to_act()), (Phase::Play, 2));
    assert_eq!(d.lot().declarers, 0b1000);
    assert!(!d.legal_actions().lot);
    assert_eq!(
        why(&d, "lot"),
        PlayError::LotNotAllowed("it is declared before the first lead, when asked")
    );
    assert_eq!(why(&d, "pass"), PlayError::PassNotAllowed);
    assert_eq!(legal(&d), "AD KD QD JD TD 9D 2D");
}

#[test]
fn lot_1989_all_pass_no_lot() {
    let mut d = deal(Preset::MiniMisere5_1989.ruleset(), 4, &MM5_1989);
    play(&mut d, "pass pass pass pass");
    assert_eq!(d.phase(), Phase::LotQuestion);
    play(&mut d, "pass");
    assert_eq!((d.phase(), d.to_act()), (Phase::Play, 0));
    assert_eq!(d.lot().declarers, 0);
    assert_eq!(legal(&d), "AS KS QS JS JK");
    autoplay(&mut d);
    assert_eq!(score_deal(&d).1, ScoreRule::TrickTable);
}

#[test]
fn lot_timing_option_before_lead_on_current_rules() {
    let r = rules("mini-misere-4", &[("lot_timing", json!("before-lead"))]);
    assert_eq!(r.lot.unwrap().timing, LotTiming::BeforeLead);
    let mut d = deal(r, 3, &LED2);
    assert_eq!(d.phase(), Phase::LotQuestion);
    play(&mut d, "pass lot");
    assert_eq!(
        (d.phase(), d.to_act(), d.lot().declarers),
        (Phase::Play, 0, 0b0010)
    );
    let r = rules("mini-misere-4-1989", &[("lot_timing", json!("first-card"))]);
    let one_suit = [
        "AS KS QS JS TS 9S 2S",
        "AH KH QH JH TH 9H 2H",
        "AD KD QD JD TD 9D 2D",
        "AC KC QC JC TC 9C 2C",
    ];
    let d = deal(r, 3, &one_suit);
    assert_eq!(d.phase(), Phase::Play);
    assert!(d.legal_actions().lot);
}

#[test]
fn failed_lot_ends_deal_when_every_declarer_has_lost_a_trick() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &MM4_ONE_SUIT);
    play(&mut d, "AS lot 2H");
    // Seat 1 has lost this trick already, but the trick must complete; seat 2 may still declare.
    assert!(!d.is_over());
    assert!(d.legal_actions().lot);
    play(&mut d, "lot 2D 2C");
    assert!(d.is_over());
    assert_eq!(d.tricks_completed(), 1);
    assert!(!d.all_tricks_played());
    assert!(d.legal_actions().is_empty());
    assert_eq!(why(&d, "KS"), PlayError::DealOver);
    // The 1989 timing: the declarer loses the first trick and the deal ends there.
    let one_suit = [
        "AS KS QS JS TS 9S 2S",
        "AH KH QH JH TH 9H 2H",
        "AD KD QD JD TD 9D 2D",
        "AC KC QC JC TC 9C 2C",
    ];
    let mut d = deal(Preset::MiniMisere4_1989.ruleset(), 3, &one_suit);
    play(&mut d, "pass pass lot | 2S 2H 2D");
    assert!(!d.is_over());
    play(&mut d, "2C");
    assert!(d.is_over());
    assert_eq!(d.tricks_completed(), 1);
}

#[test]
fn lot_deal_continues_while_a_declarer_is_unbeaten() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &MM4_ONE_SUIT);
    play(&mut d, "lot AS lot 2H 2D 2C");
    assert!(!d.is_over());
    assert_eq!(d.lot().failed, 0b0010);
    autoplay(&mut d);
    assert!(d.all_tricks_played());
    assert_eq!(score_deal(&d), (vec![12, 0, 0, 0], ScoreRule::LotSucceeded));
}

#[test]
fn lot_success_scores_only_declarer() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &MM4_ONE_SUIT);
    play(&mut d, "lot");
    autoplay(&mut d);
    assert_eq!(d.tricks_won(), [6, 0, 0, 0]);
    assert_eq!(score_deal(&d), (vec![12, 0, 0, 0], ScoreRule::LotSucceeded));
    let one_suit = [
        "AS KS QS JS TS 9S 2S",
        "AH KH QH JH TH 9H 2H",
        "AD KD QD JD TD 9D 2D",
        "AC KC QC JC TC 9C 2C",
    ];
    let mut d = deal(Preset::MiniMisere4_1989.ruleset(), 2, &one_suit);
    play(&mut d, "lot");
    autoplay(&mut d);
    assert_eq!(score_deal(&d), (vec![0, 0, 0, 14], ScoreRule::LotSucceeded));
}

#[test]
fn lot_fail_scores_non_declarers() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &MM4_ONE_SUIT);
    play(&mut d, "AS lot 2H 2D 2C");
    assert_eq!(score_deal(&d), (vec![6, 0, 6, 6], ScoreRule::LotFailed));
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &MM4_ONE_SUIT);
    play(&mut d, "AS lot 2H lot 2D 2C");
    assert_eq!(score_deal(&d), (vec![6, 0, 0, 6], ScoreRule::LotFailed));
}

#[test]
fn lot_points_per_ruleset() {
    let lot = |p: Preset| p.ruleset().lot.map(|l| (l.timing, l.success, l.fail));
    assert_eq!(
        lot(Preset::MiniMisere4),
        Some((LotTiming::FirstCard, 12, 6))
    );
    assert_eq!(
        lot(Preset::MiniMisere4_1989),
        Some((LotTiming::BeforeLead, 14, 7))
    );
    assert_eq!(
        lot(Preset::MiniMisere5),
        Some((LotTiming::FirstCard, 10, 5))
    );
    assert_eq!(
        lot(Preset::MiniMisere5_1989),
        Some((LotTiming::BeforeLead, 10, 5))
    );
    // Scored from facts: success for the declarer, fail for every non-declarer.
    let r = Preset::MiniMisere5_1989.ruleset();
    let mut f = facts(&[0; 5], &[1, 1, 1, 1, 1]);
    f.lot = Some(torite_core::LotResult {
        declarers: 0b00100,
        winner: None,
    });
    assert_eq!(r.score(&f, &[], None).unwrap().scores[..5], [5, 5, 0, 5, 5]);
    let r = Preset::MiniMisere4_1989.ruleset();
    let mut f = facts(&[0; 4], &[0, 7, 0, 0]);
    f.lot = Some(torite_core::LotResult {
        declarers: 0b0010,
        winner: Some(1),
    });
    assert_eq!(r.score(&f, &[], None).unwrap().scores[..4], [0, 14, 0, 0]);
}

#[test]
fn trick_table_mini_misere_4() {
    let r = Preset::MiniMisere4.ruleset();
    assert_eq!(
        score(&r, &[0; 4], &[0, 1, 2, 3]),
        (vec![6, 1, 2, 3], ScoreRule::TrickTable)
    );
    assert_eq!(score(&r, &[0; 4], &[4, 2, 0, 0]).0, [8, 2, 6, 6]);
    assert_eq!(score(&r, &[0; 4], &[5, 1, 0, 0]).0, [10, 1, 6, 6]);
    assert_eq!(score(&r, &[0; 4], &[6, 0, 0, 0]).0, [0, 6, 6, 6]);
    let mut d = deal(r, 3, &MM4_ONE_SUIT);
    autoplay(&mut d);
    assert_eq!(score_deal(&d), (vec![0, 6, 6, 6], ScoreRule::TrickTable));
}

#[test]
fn trick_table_mini_misere_4_1989() {
    let r = Preset::MiniMisere4_1989.ruleset();
    assert_eq!(score(&r, &[0; 4], &[0, 1, 2, 4]).0, [7, 1, 2, 8]);
    assert_eq!(score(&r, &[0; 4], &[3, 4, 0, 0]).0, [3, 8, 7, 7]);
    assert_eq!(score(&r, &[0; 4], &[5, 2, 0, 0]).0, [10, 2, 7, 7]);
    assert_eq!(score(&r, &[0; 4], &[6, 1, 0, 0]).0, [12, 1, 7, 7]);
    assert_eq!(score(&r, &[0; 4], &[7, 0, 0, 0]).0, [0, 7, 7, 7]);
}

#[test]
fn trick_table_mini_misere_5() {
    for p in [Preset::MiniMisere5, Preset::MiniMisere5_1989] {
        let r = p.ruleset();
        assert_eq!(
            score(&r, &[0; 5], &[0, 1, 2, 2, 0]).0,
            [5, 1, 2, 2, 5],
            "{p}"
        );
        assert_eq!(
            score(&r, &[0; 5], &[3, 2, 0, 0, 0]).0,
            [6, 2, 5, 5, 5],
            "{p}"
        );
        assert_eq!(
            score(&r, &[0; 5], &[4, 1, 0, 0, 0]).0,
            [8, 1, 5, 5, 5],
            "{p}"
        );
        assert_eq!(
            score(&r, &[0; 5], &[5, 0, 0, 0, 0]).0,
            [0, 5, 5, 5, 5],
            "{p}"
        );
    }
}

#[test]
fn mini_misere_targets() {
    let target = |p: Preset| p.ruleset().end;
    for (p, points) in [
        (Preset::MiniMisere4, 25),
        (Preset::MiniMisere4_1989, 31),
        (Preset::MiniMisere5, 25),
        (Preset::MiniMisere5_1989, 25),
    ] {
        assert!(
            matches!(target(p), GameEnd::Target { points: t, .. } if t == points),
            "{p}"
        );
    }
}

#[test]
fn mini_misere_game_ends_at_target_with_unique_highest_and_plays_on_when_shared() {
    // Every deal the leader takes all six tricks (0 points) and the others none (6 each).
    let mut game = Game::new(Preset::MiniMisere4.ruleset(), 0).unwrap();
    let mut totals = Vec::new();
    for _ in 0..6 {
        game_deal(&mut game, &MM4_ONE_SUIT, "");
        totals.push(game.totals().to_vec());
    }
    assert_eq!(totals[4], [24, 18, 24, 24]);
    // Deal 6 reaches 30 but seats 0 and 3 share the highest total: play on.
    assert_eq!(totals[5], [30, 24, 24, 30]);
    assert!(!game.is_finished());
    assert!(game.winners().is_empty());
    game_deal(&mut game, &MM4_ONE_SUIT, "");
    assert_eq!(game.totals(), [36, 30, 30, 30]);
    assert!(game.is_finished());
    assert_eq!(game.winners(), [0]);
    assert_eq!(
        game.start_deal(&hands(&MM4_ONE_SUIT)).unwrap_err(),
        GameError::GameOver
    );
}

// ---------------------------------------------------------------------------------------------
// 1.7 Three and six players
// ---------------------------------------------------------------------------------------------

/// Six seats of one suit's worth each: seat s holds cards of suit s % 4 where it can.
const MM6: [&str; 6] = [
    "AS KS QS JS TS 9S",
    "AH KH QH JH TH 9H",
    "AD KD QD JD TD 9D",
    "AC KC QC JC TC 9C",
    "8S 7S 2S 8H 7H 2H",
    "8D 7D 2D 8C 7C 2C",
];

/// Three-player hands (dealer 2, so seat 0 leads): seat 2 holds the joker and no spade or
/// heart.
const MM3: [&str; 3] = [
    "AS KS QS JS TS AH KH",
    "QH JH TH AD KD QD JD",
    "JK TD AC KC QC JC TC",
];

#[test]
fn mini_misere_6_deck_is_36_cards_six_each() {
    let r = Preset::MiniMisere6.ruleset();
    assert_eq!(r.players, 6);
    assert_eq!(r.deck().len(), 36);
    assert_eq!(r.tricks(), 6);
    let deck = r.deck().to_string();
    for rank in ['A', 'K', 'Q', 'J', 'T', '9', '8', '7', '2'] {
        assert_eq!(deck.matches(rank).count(), 4, "{rank} in {deck}");
    }
    assert!(!r.deck().contains(Card::JOKER));
    assert_eq!(
        r.lot.map(|l| (l.timing, l.success, l.fail)),
        Some((LotTiming::FirstCard, 12, 6))
    );
    assert!(matches!(r.end, GameEnd::Target { points: 25, .. }));
}

#[test]
fn mini_misere_6_led_two_beats_its_suit_and_lot_is_declared_with_the_first_card() {
    let r = Preset::MiniMisere6.ruleset();
    let mut d = deal(r, 3, &MM6);
    // Seat 4 leads: it may declare with its card.
    assert_eq!(d.to_act(), 4);
    assert!(d.legal_actions().lot);
    play(&mut d, "lot 2S 8D AS AH AD AC");
    assert_eq!(winner_of_last_trick(&d), 4, "the led 2 beats the ace");
    assert!(
        !d.legal_actions().lot,
        "only with a card to the first trick"
    );
}

#[test]
fn mini_misere_6_trick_table_is_the_four_player_one() {
    let r = Preset::MiniMisere6.ruleset();
    assert_eq!(
        score(&r, &[0; 6], &[0, 1, 2, 3, 0, 0]).0,
        [6, 1, 2, 3, 6, 6]
    );
    assert_eq!(
        score(&r, &[0; 6], &[4, 2, 0, 0, 0, 0]).0,
        [8, 2, 6, 6, 6, 6]
    );
    assert_eq!(
        score(&r, &[0; 6], &[5, 1, 0, 0, 0, 0]).0,
        [10, 1, 6, 6, 6, 6]
    );
    assert_eq!(
        score(&r, &[0; 6], &[6, 0, 0, 0, 0, 0]).0,
        [0, 6, 6, 6, 6, 6]
    );
}

#[test]
fn mini_misere_3_deck_is_21_cards_with_the_joker_and_no_lot() {
    let r = Preset::MiniMisere3.ruleset();
    assert_eq!((r.players, r.deck().len(), r.tricks()), (3, 21, 7));
    assert!(r.deck().contains(Card::JOKER));
    assert_eq!(r.low_card, None);
    assert!(r.lot.is_none());
    assert!(matches!(r.end, GameEnd::Target { points: 31, .. }));
    let d = deal(r, 2, &MM3);
    assert!(!d.legal_actions().lot, "no Lot in the three-player game");
    assert_eq!(
        why(&d, "lot"),
        PlayError::LotNotAllowed("this game has no Lot")
    );
}

#[test]
fn mini_misere_3_trick_table() {
    let r = Preset::MiniMisere3.ruleset();
    assert_eq!(score(&r, &[0; 3], &[0, 1, 6]).0, [7, 1, 12]);
    assert_eq!(score(&r, &[0; 3], &[2, 2, 3]).0, [2, 2, 3]);
    assert_eq!(score(&r, &[0; 3], &[4, 3, 0]).0, [8, 3, 7]);
    assert_eq!(score(&r, &[0; 3], &[5, 2, 0]).0, [10, 2, 7]);
    assert_eq!(score(&r, &[0; 3], &[7, 0, 0]).0, [0, 7, 7]);
}

#[test]
fn three_player_joker_led_wins_and_frees_the_others() {
    let mut d = deal(Preset::MiniMisere3.ruleset(), 1, &MM3);
    assert_eq!(d.to_act(), 2);
    play(&mut d, "JK");
    assert_eq!(legal(&d), MM3[0].parse::<CardSet>().unwrap().to_string());
    play(&mut d, "AH QH");
    assert_eq!(winner_of_last_trick(&d), 2);
    assert_eq!(d.phase(), Phase::Play, "a led joker needs no saying");
}

#[test]
fn three_player_joker_not_led_only_when_void() {
    let mut d = deal(Preset::MiniMisere3.ruleset(), 1, &MM3);
    // Seat 2 leads a diamond; seat 0 has none, seat 1 must follow.
    play(&mut d, "TD KH");
    assert_eq!(legal(&d), "AD KD QD JD");
    // Seat 2 holds clubs: it may not play the joker to a club lead.
    let mut d = deal(Preset::MiniMisere3.ruleset(), 0, &MM3);
    play(&mut d, "QD");
    assert_eq!(
        why(&d, "JK"),
        PlayError::JokerOnlyWhenVoid {
            led: Suit::Diamonds
        }
    );
}

#[test]
fn three_player_joker_played_second_loses() {
    let mut d = deal(Preset::MiniMisere3.ruleset(), 0, &MM3);
    // Seat 1 leads the queen of hearts; seat 2, void in hearts, plays the joker second.
    play(&mut d, "QH JK");
    assert_eq!(d.phase(), Phase::Play, "no saying for the second card");
    assert_eq!(legal(&d), "AH KH");
    play(&mut d, "KH");
    assert_eq!(winner_of_last_trick(&d), 0);
}

#[test]
fn three_player_joker_played_last_its_player_says_win_or_lose() {
    let r = Preset::MiniMisere3.ruleset();
    // Seat 0 leads the ace of spades; seats 1 and 2 are void; seat 2 plays the joker last.
    let mut d = deal(r, 2, &MM3);
    play(&mut d, "AS QH JK");
    assert_eq!(d.phase(), Phase::SayJoker);
    assert_eq!(d.to_act(), 2, "the joker's player says");
    assert_eq!(d.tricks_completed(), 0, "the trick waits for the saying");
    let said: Vec<String> = d.legal_actions().iter().map(|a| a.to_string()).collect();
    assert_eq!(said, ["joker:win", "joker:lose"]);
    assert_eq!(why(&d, "AC"), PlayError::MustSayJoker);
    let mut won = d.clone();
    play(&mut won, "joker:win");
    assert_eq!(winner_of_last_trick(&won), 2);
    assert_eq!(won.to_act(), 2, "the winner leads the next trick");
    let mut lost = d;
    play(&mut lost, "JOKER:LOSE");
    assert_eq!(
        winner_of_last_trick(&lost),
        0,
        "the highest card of the led suit"
    );
    assert_eq!(lost.to_act(), 0);
    // Saying is only for the joker just played last.
    let d = deal(r, 2, &MM3);
    assert_eq!(why(&d, "joker:win"), PlayError::NoJokerSayExpected);
}

#[test]
fn three_player_joker_saying_comes_even_in_the_last_trick() {
    let mut d = deal(Preset::MiniMisere3.ruleset(), 2, &MM3);
    // Seat 0 wins five spade tricks while the others throw; seat 2 keeps the joker.
    play(
        &mut d,
        "AS QH TC | KS JH JC | QS TH QC | JS JD KC | TS QD AC",
    );
    assert_eq!(d.tricks_completed(), 5);
    play(&mut d, "AH AD TD | KH KD JK");
    assert_eq!(d.phase(), Phase::SayJoker);
    assert!(!d.is_over(), "the deal waits for the saying");
    play(&mut d, "joker:win");
    assert!(d.is_over());
    assert_eq!(d.tricks_won()[..3], [6, 0, 1]);
}

#[test]
fn three_and_six_player_options_refused() {
    for (base, option, value) in [
        ("mini-misere-6", "low_card", json!(9)),
        ("mini-misere-6", "low_card", json!(2)),
        ("mini-misere-3", "low_card", json!(9)),
        ("mini-misere-3", "lot_timing", json!("before-lead")),
        ("mini-misere-3", "lot_timing", json!("first-card")),
        ("mini-misere-3", "led_low_wins", json!(true)),
    ] {
        let msg = refused(base, &[(option, value.clone())]);
        assert!(
            msg.contains(&format!("option {option} does not apply")),
            "{base} {option}: {msg}"
        );
    }
    // What applies still does.
    let r = rules(
        "mini-misere-6",
        &[
            ("lot_timing", json!("before-lead")),
            ("led_low_wins", json!(false)),
        ],
    );
    assert_eq!(r.lot.unwrap().timing, LotTiming::BeforeLead);
    assert!(!r.led_low_wins);
    let r = rules("mini-misere-3", &[("target", json!(25))]);
    assert!(matches!(r.end, GameEnd::Target { points: 25, .. }));
}

/// 1.6, asked of the rules alone (as a search looking ahead asks them): the game goes on until
/// some seat reaches 25, then ends only if one seat alone has the highest total.
#[test]
fn end_of_game_the_rules_name_the_winner_from_the_totals() {
    let rules = torite_core::Preset::MiniMisere4.ruleset();
    assert_eq!(rules.winners(&[24, 20, 10, 3], 6), None);
    let alone = rules.winners(&[25, 20, 10, 3], 6).expect("over");
    assert_eq!(alone.iter().collect::<Vec<_>>(), [0]);
    assert_eq!(
        rules.winners(&[26, 26, 10, 3], 6),
        None,
        "a shared top plays on"
    );
    let below = rules.winners(&[12, 27, 26, 3], 6).expect("over");
    assert_eq!(below.iter().collect::<Vec<_>>(), [1]);
    let shared = rules.leaders(&[26, 26, 10, 3]);
    assert_eq!(
        shared.iter().collect::<Vec<_>>(),
        [0, 1],
        "the leaders of a game that plays on"
    );
}
