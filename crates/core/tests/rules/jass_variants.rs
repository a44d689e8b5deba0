//! RULES.md 2.6–2.8: Plus-Minus Jass, Middler and Middler with joker.

use super::*;

// ---------------------------------------------------------------------------------------------
// 2.6 Plus-Minus Jass
// ---------------------------------------------------------------------------------------------

#[test]
fn plus_minus_1_all_but_one_equal_3_players() {
    let r = Preset::PlusMinusJass3.ruleset();
    assert_eq!(
        score(&r, &[50, 57, 50], &[4, 4, 4]),
        (vec![0, 2, 0], ScoreRule::AllButOneEqual)
    );
    // Rule 1 comes first: [0, 0, 157] gives the 157 seat 2 despite its 100 points.
    assert_eq!(
        score(&r, &[0, 0, 157], &[0, 0, 12]),
        (vec![0, 0, 2], ScoreRule::AllButOneEqual)
    );
}

#[test]
fn plus_minus_1_all_but_one_equal_4_players() {
    let r = Preset::PlusMinusJass4.ruleset();
    assert_eq!(
        score(&r, &[40, 40, 37, 40], &[2, 2, 3, 2]),
        (vec![0, 0, 2, 0], ScoreRule::AllButOneEqual)
    );
    assert_eq!(score(&r, &[0, 157, 0, 0], &[0, 9, 0, 0]).0, [0, 2, 0, 0]);
    let mut d = deal(r, 1, &SWISS_ONE_SUIT);
    autoplay(&mut d);
    assert_eq!(
        score_deal(&d),
        (vec![0, 0, 0, 2], ScoreRule::AllButOneEqual)
    );
}

#[test]
fn plus_minus_2_highest_and_lowest_3_players() {
    let r = Preset::PlusMinusJass3.ruleset();
    assert_eq!(
        score(&r, &[76, 81, 0], &[6, 6, 0]),
        (vec![0, 1, 1], ScoreRule::PlusMinus)
    );
    let mut d = deal(r, 2, &[Z, X, Y]);
    autoplay(&mut d);
    assert_eq!(score_deal(&d), (vec![1, 0, 1], ScoreRule::PlusMinus));
}

#[test]
fn plus_minus_2_highest_and_lowest_4_players() {
    let r = Preset::PlusMinusJass4.ruleset();
    assert_eq!(
        score(&r, &[50, 7, 60, 40], &[3, 1, 3, 2]),
        (vec![0, 1, 1, 0], ScoreRule::PlusMinus)
    );
}

#[test]
fn plus_minus_2_hundred_does_not_score_only_lowest() {
    let r = Preset::PlusMinusJass3.ruleset();
    assert_eq!(
        score(&r, &[40, 110, 7], &[3, 8, 1]),
        (vec![0, 0, 1], ScoreRule::PlusMinus)
    );
    let r = Preset::PlusMinusJass4.ruleset();
    assert_eq!(
        score(&r, &[100, 30, 20, 7], &[5, 2, 1, 1]),
        (vec![0, 0, 0, 1], ScoreRule::PlusMinus)
    );
}

#[test]
fn plus_minus_shared_highest_or_lowest_is_held_over() {
    let r = Preset::PlusMinusJass4.ruleset();
    let f = facts(&[60, 60, 30, 7], &[3, 3, 2, 1]);
    let s = r.score(&f, &[], None).unwrap();
    assert_eq!(
        (s.scores[..4].to_vec(), s.held),
        (vec![0, 0, 0, 1], [0b0011, 0])
    );
    let f = facts(&[80, 57, 10, 10], &[4, 3, 1, 1]);
    let s = r.score(&f, &[], None).unwrap();
    assert_eq!(
        (s.scores[..4].to_vec(), s.held),
        (vec![1, 0, 0, 0], [0, 0b1100])
    );
    // A 100+ top does not score and the shared bottom is held: nobody scores now.
    let f = facts(&[117, 20, 10, 10], &[6, 1, 1, 1]);
    let s = r.score(&f, &[], None).unwrap();
    assert_eq!(
        (s.scores[..4].to_vec(), s.held),
        (vec![0, 0, 0, 0], [0, 0b1100])
    );
    // Played: the two trickless seats share the lowest (0).
    let mut d = deal(r, 3, &SPLIT);
    play(&mut d, SPLIT_PLAY);
    let s = r.score(&DealFacts::of(&d), &[], None).unwrap();
    assert_eq!(
        (s.scores[..4].to_vec(), s.held),
        (vec![0, 0, 1, 0], [0, 0b1010])
    );
}

#[test]
fn held_point_paid_in_first_later_deal_where_exactly_one_of_pair_scores() {
    let mut game = Game::new(Preset::PlusMinusJass4.ruleset(), 3).unwrap();
    // Deal 1 (leader 0): seats 1 and 3 share the lowest; the 109 top does not score.
    let r = game_deal(&mut game, &ROUT, ROUT_PLAY);
    assert_eq!(
        (r.facts.points[..4].to_vec(), r.score.scores[..4].to_vec()),
        (vec![48, 0, 109, 0], vec![0; 4])
    );
    assert_eq!(game.held(), [0b1010]);
    // Deal 2 (leader 1): only seat 2 scores, neither of the pair: still held.
    let r = game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(r.score.scores[..4], [0, 0, 2, 0]);
    assert_eq!(game.held(), [0b1010]);
    // Deal 3 (leader 2): seat 3 alone of the pair scores, and gets the held point too.
    let r = game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(r.score.scores[..4], [0, 0, 0, 3]);
    assert!(game.held().is_empty());
    assert_eq!(game.totals(), [0, 0, 2, 3]);
}

#[test]
fn held_points_several_outstanding_each_paid_on_its_own() {
    let mut game = Game::new(Preset::PlusMinusJass4.ruleset(), 3).unwrap();
    game_deal(&mut game, &rotate(&ROUT, 0), ROUT_PLAY);
    game_deal(&mut game, &rotate(&ROUT, 1), ROUT_PLAY);
    game_deal(&mut game, &rotate(&ROUT, 2), ROUT_PLAY);
    assert_eq!(game.totals(), [0, 0, 0, 0]);
    assert_eq!(game.held(), [0b1010, 0b0101, 0b1010]);
    // Leader 3: seat 0 scores 2 and the {0, 2} point.
    let r = game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(r.score.scores[..4], [3, 0, 0, 0]);
    assert_eq!(game.held(), [0b1010, 0b1010]);
    // Leader 0: seat 1 scores 2 and both {1, 3} points.
    let r = game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(r.score.scores[..4], [0, 4, 0, 0]);
    assert!(game.held().is_empty());
    assert_eq!(game.totals(), [3, 4, 0, 0]);
}

#[test]
fn held_points_lost_at_game_end() {
    let r = rules("plus-minus-jass-4", &[("target", json!(2))]);
    let mut game = Game::new(r, 3).unwrap();
    game_deal(&mut game, &ROUT, ROUT_PLAY);
    assert_eq!(game.held(), [0b1010]);
    game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert!(game.is_finished());
    assert_eq!(game.winners(), [2]);
    // The point held for seats 1 and 3 was never paid, and cannot be any more.
    assert_eq!(game.totals(), [0, 0, 2, 0]);
    assert_eq!(
        game.start_deal(&hands(&SWISS_ONE_SUIT)).unwrap_err(),
        GameError::GameOver
    );
}

#[test]
fn plus_minus_game_ends_at_7_and_plays_on_while_tied() {
    for p in [Preset::PlusMinusJass3, Preset::PlusMinusJass4] {
        assert!(
            matches!(p.ruleset().end, GameEnd::Target { points: 7, .. }),
            "{p}"
        );
    }
    // Each deal the Y seat (81 points) and the Z seat (0) score one each.
    let mut game = Game::new(Preset::PlusMinusJass3.ruleset(), 0).unwrap();
    for _ in 0..6 {
        game_deal(&mut game, &[Y, Z, X], "");
    }
    assert_eq!(game.totals(), [6, 6, 0]);
    assert!(!game.is_finished());
    game_deal(&mut game, &[Y, Z, X], "");
    // Both reach 7 together: one more deal.
    assert_eq!(game.totals(), [7, 7, 0]);
    assert!(!game.is_finished());
    game_deal(&mut game, &[Y, X, Z], "");
    assert_eq!(game.totals(), [8, 7, 1]);
    assert!(game.is_finished());
    assert_eq!(game.winners(), [0]);
}

// ---------------------------------------------------------------------------------------------
// 2.7 Middler
// ---------------------------------------------------------------------------------------------

/// Middler deal (dealer 2): seat 2 is void in spades, seats 0 and 1 in diamonds; seat 2's
/// trumps will be the Jack and the 6.
const MIDDLER: [&str; 3] = [
    "KS QS JS AH KH QH TH 9H TC 9C 8C 7C",
    "AS TS 9S 8S 7S 6S 8H 7H AC KC QC JC",
    "JH 6H AD KD QD JD TD 9D 8D 7D 6D 6C",
];

#[test]
fn middler_must_beat_when_able_even_before_trump() {
    let mut d = deal(Preset::Middler.ruleset(), 2, &MIDDLER);
    play(&mut d, "KS");
    assert_eq!(d.trump(), Trump::None);
    assert_eq!(legal(&d), "AS");
    assert_eq!(why(&d, "6S"), PlayError::MustBeat { best: card("KS") });
    // Mittlere has no such duty.
    let mut m = deal(Preset::MittlereJass.ruleset(), 2, &MIDDLER);
    play(&mut m, "KS");
    assert_eq!(legal(&m), "AS TS 9S 8S 7S 6S");
    // Once trump exists: follow and beat when able, otherwise any card of the suit.
    play(&mut d, "AS 6H | QD 9H 8H | AH 7H JH | 6C");
    assert_eq!(legal(&d), "TC 9C 8C 7C");
    play(&mut d, "7C");
    assert_eq!(legal(&d), "AC KC QC JC");
    play(&mut d, "AC | TS 6D");
    assert_eq!(legal(&d), "QS JS");
}

#[test]
fn middler_before_trump_void_plays_any_card_and_sets_trump() {
    let mut d = deal(Preset::Middler.ruleset(), 2, &MIDDLER);
    play(&mut d, "KS AS");
    assert_eq!(legal(&d), "JH 6H AD KD QD JD TD 9D 8D 7D 6D 6C");
    play(&mut d, "6H");
    assert_eq!(d.trump(), Trump::Suit(Suit::Hearts));
    assert_eq!(winner_of_last_trick(&d), 2);
}

#[test]
fn middler_void_must_trump_when_able_any_trump() {
    let mut d = deal(Preset::Middler.ruleset(), 2, &MIDDLER);
    play(&mut d, "KS AS 6H | QD");
    assert_eq!(legal(&d), "AH KH QH TH 9H");
    assert_eq!(
        why(&d, "QS"),
        PlayError::MustTrump {
            trump: Suit::Hearts
        }
    );
    play(&mut d, "9H");
    // No duty to overtrump: seat 1 must trump although both its trumps are lower.
    assert_eq!(legal(&d), "8H 7H");
    assert_eq!(
        why(&d, "AC"),
        PlayError::MustTrump {
            trump: Suit::Hearts
        }
    );
    play(&mut d, "8H");
    assert_eq!(winner_of_last_trick(&d), 0);
    // Void with no trump left: any card.
    play(&mut d, "AH 7H JH | 6C 7C AC | TS");
    assert_eq!(legal(&d), "AD KD JD TD 9D 8D 7D 6D");
}

#[test]
fn middler_must_follow_not_trump() {
    let mut d = deal(Preset::Middler.ruleset(), 2, &MIDDLER);
    play(&mut d, "KS AS 6H | QD 9H 8H | AH 7H JH | 6C");
    assert_eq!(why(&d, "KH"), PlayError::MustFollow { led: Suit::Clubs });
    // Under the Jass rule seat 0 could trump instead of following.
    let mut m = deal(Preset::MittlereJass.ruleset(), 2, &MIDDLER);
    play(&mut m, "KS AS 6H | QD 9H 8H | AH 7H JH | 6C");
    assert!(m.is_legal(act("KH")));
}

#[test]
fn middler_no_trump_jack_exception() {
    let mut d = deal(Preset::Middler.ruleset(), 2, &MIDDLER);
    play(&mut d, "KS AS 6H | QD 9H 8H | AH 7H");
    assert_eq!(legal(&d), "JH");
    assert_eq!(why(&d, "6C"), PlayError::MustFollow { led: Suit::Hearts });
    let mut m = deal(Preset::MittlereJass.ruleset(), 2, &MIDDLER);
    play(&mut m, "KS AS 6H | QD 9H 8H | AH 7H");
    assert_eq!(legal(&m), "JH AD KD JD TD 9D 8D 7D 6D 6C");
}

#[test]
fn middler_follow_must_follow_option() {
    let r = rules("middler", &[("follow", json!("must-follow"))]);
    let mut d = deal(r, 2, &MIDDLER);
    play(&mut d, "KS");
    assert_eq!(legal(&d), "AS TS 9S 8S 7S 6S");
    play(&mut d, "6S 6H | QD");
    // Void: no obligation to trump.
    assert_eq!(legal(&d), "QS JS AH KH QH TH 9H TC 9C 8C 7C");
    play(&mut d, "TC");
    assert_eq!(legal(&d), "AS TS 9S 8S 7S 8H 7H AC KC QC JC");
    let r = rules("middler", &[("follow", json!("jass"))]);
    let mut d = deal(r, 2, &MIDDLER);
    play(&mut d, "KS AS 6H | QD 9H");
    assert_eq!(legal(&d), "TS 9S 8S 7S 6S 8H 7H AC KC QC JC");
}

#[test]
fn middler_hundred_and_no_trick_rule() {
    let r = Preset::Middler.ruleset();
    assert_eq!(
        score(&r, &[110, 47, 0], &[8, 4, 0]),
        (vec![-1, 2, -1], ScoreRule::HundredAndNoTrick)
    );
    // Rule 1 still comes first; without a 100 seat the no-trick rule applies as in Mittlere.
    assert_eq!(
        score(&r, &[157, 0, 0], &[12, 0, 0]),
        (vec![2, -1, -1], ScoreRule::AllTricks)
    );
    assert_eq!(
        score(&r, &[76, 81, 0], &[6, 6, 0]),
        (vec![1, 1, -2], ScoreRule::NoTrick)
    );
    assert_eq!(
        score(&r, &[30, 110, 17], &[2, 8, 2]),
        (vec![1, -2, 1], ScoreRule::Hundred)
    );
    // Played: seat 0 takes three whole suits (114), seat 1 the clubs and the last trick (43).
    let xx = "AS KS QS AH KH QH AD KD QD JC TC 9C";
    let yy = "JS TS 9S JH TH 9H JD TD 9D AC KC QC";
    let mut d = deal(r, 2, &[xx, yy, Z]);
    autoplay(&mut d);
    assert_eq!(points(&d), [114, 43, 0]);
    assert_eq!(
        score_deal(&d),
        (vec![-1, 2, -1], ScoreRule::HundredAndNoTrick)
    );
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &[xx, yy, Z]);
    autoplay(&mut d);
    assert_eq!(score_deal(&d), (vec![1, 1, -2], ScoreRule::NoTrick));
}

#[test]
fn middler_game_is_twelve_deals() {
    let mut game = Game::new(Preset::Middler.ruleset(), 0).unwrap();
    for _ in 0..11 {
        game_deal(&mut game, &[X, Y, Z], "");
    }
    assert!(!game.is_finished());
    game_deal(&mut game, &[X, Y, Z], "");
    assert!(game.is_finished());
    assert_eq!(game.results().len(), 12);
}

// ---------------------------------------------------------------------------------------------
// 2.8 Middler with joker
// ---------------------------------------------------------------------------------------------

/// Middler with joker (dealer 2): seat 1 holds the joker and no spade.
const MJ1: [&str; 3] = [
    "AS KS QS JS QD JD TD 9D 8D 7D AC",
    "JK AH KH QH JH TH 9H 8H 7H AD KD",
    "TS 9S 8S 7S KC QC JC TC 9C 8C 7C",
];
/// Middler with joker (dealer 2): seat 2 holds the joker and no heart.
const MJ3: [&str; 3] = [
    "AS KS QS JS TS AD KD QD JD TD 9D",
    "AH KH QH JH TH 9H 8H 7H 8D 7D AC",
    "JK 9S 8S 7S KC QC JC TC 9C 8C 7C",
];

#[test]
fn middler_joker_deck_and_ranks() {
    let r = Preset::MiddlerJoker.ruleset();
    assert_eq!(r.deck().len(), 33);
    assert_eq!(r.tricks(), 11);
    assert!(r.deck().contains(Card::JOKER));
    assert!(!r.deck().contains(card("6S")));
    // Every suit, trump included, ranks A K Q J T 9 8 7; the joker is above the trump ace.
    let trump = Trump::Suit(Suit::Hearts);
    let mut cards: Vec<Card> = r
        .deck()
        .iter()
        .filter(|c| c.suit() == Some(Suit::Hearts) || c.is_joker())
        .collect();
    cards.sort_by_key(|c| std::cmp::Reverse(r.strength(*c, Some(Suit::Hearts), trump, false)));
    let order: Vec<String> = cards.iter().map(ToString::to_string).collect();
    assert_eq!(order.join(" "), "JK AH KH QH JH TH 9H 8H 7H");
}

#[test]
fn middler_joker_is_highest_trump_worth_one() {
    let mut d = deal(Preset::MiddlerJoker.ruleset(), 2, &MJ3);
    play(&mut d, "AS 7H");
    assert_eq!(d.trump(), Trump::Suit(Suit::Hearts));
    // The joker is a trump now, so it may not be played on a spade lead by a seat with spades.
    assert_eq!(legal(&d), "9S 8S 7S");
    assert_eq!(why(&d, "JK"), PlayError::MustFollow { led: Suit::Spades });
    play(&mut d, "7S | AH");
    // It belongs to the trump suit: a seat whose only trump is the joker must play it.
    assert_eq!(legal(&d), "JK");
    play(&mut d, "JK 9D");
    assert_eq!(winner_of_last_trick(&d), 2);
    assert_eq!(d.card_points(2), 11 + 1);
}

#[test]
fn middler_joker_led_after_trump_exists_calls_for_trump() {
    let mj4 = [
        "AS KS QS JS TS AD KD QD JD TD 9D",
        "AH KH QH JH TH 9H 8H 7H 8D 7D 7C",
        "JK 9S 8S 7S AC KC QC JC TC 9C 8C",
    ];
    let mut d = deal(Preset::MiddlerJoker.ruleset(), 2, &mj4);
    play(&mut d, "AS 7H 7S | 7C AC TD | JK");
    // Once hearts are trump the joker is a heart: led, it calls for trumps.
    assert_eq!(d.led(), Some(Suit::Hearts));
    assert_eq!(legal(&d), "KS QS JS TS AD KD QD JD 9D");
    play(&mut d, "9D");
    assert_eq!(legal(&d), "AH KH QH JH TH 9H 8H");
    play(&mut d, "AH");
    assert_eq!(winner_of_last_trick(&d), 2);
    assert_eq!(d.trump(), Trump::Suit(Suit::Hearts));
}

#[test]
fn middler_joker_seat_void_in_trump_cannot_hold_the_joker() {
    let hands = [
        "AS KS QS JS TS AD KD QD JD TD 9D",
        "AH KH QH JH TH 8H 7H 8D 7D 7C 8C",
        "JK 9H 9S 8S 7S AC KC QC JC TC 9C",
    ];
    let mut d = deal(Preset::MiddlerJoker.ruleset(), 2, &hands);
    play(&mut d, "AS 7H 7S | AH 9H 9D");
    assert_eq!(d.trump(), Trump::Suit(Suit::Hearts));
    // Seat 0 did not follow a trump lead, so it holds no trump, and the joker is a trump: as
    // far as seat 1 can tell, only seat 2 may hold it.
    let view = View::new(&d, 1);
    assert!(!view.possible(0).contains(card("JK")));
    assert!(view.possible(2).contains(card("JK")));
    // Its other unseen cards stay possible.
    assert!(view.possible(0).contains(card("KS")));
}

#[test]
fn middler_joker_plain_must_follow() {
    let mut d = deal(Preset::MiddlerJoker.ruleset(), 2, &MJ3);
    play(&mut d, "AS 7H 7S | AH JK 9D | KC AD");
    // Seat 1 holds a club and trumps: it must follow, it may not trump.
    assert_eq!(legal(&d), "AC");
    assert_eq!(why(&d, "8H"), PlayError::MustFollow { led: Suit::Clubs });
    play(&mut d, "AC");
    assert_eq!(winner_of_last_trick(&d), 1);
    let r = Preset::MiddlerJoker.ruleset();
    assert_eq!(r.follow, torite_core::FollowRule::MustFollow);
}

#[test]
fn middler_joker_played_before_trump_makes_joker_only_trump() {
    let mut d = deal(Preset::MiddlerJoker.ruleset(), 2, &MJ1);
    play(&mut d, "AS");
    assert_eq!(legal(&d), "AH KH QH JH TH 9H 8H 7H AD KD JK");
    play(&mut d, "JK");
    assert_eq!(d.trump(), Trump::JokerOnly);
    assert_eq!(d.trump().to_string(), "JK");
    play(&mut d, "7S");
    assert_eq!(winner_of_last_trick(&d), 1);
    assert_eq!(d.card_points(1), 11 + 1);
    // Later cards that do not follow set nothing, and do not win.
    play(&mut d, "AH KC AC");
    assert_eq!(d.trump(), Trump::JokerOnly);
    assert_eq!(winner_of_last_trick(&d), 1);
    autoplay(&mut d);
    assert_eq!(d.trump(), Trump::JokerOnly);
}

#[test]
fn middler_joker_led_before_trump_wins_others_free_set_no_trump() {
    let mut d = deal(Preset::MiddlerJoker.ruleset(), 0, &MJ1);
    assert_eq!(d.to_act(), 1);
    play(&mut d, "JK");
    assert_eq!(d.led(), None);
    assert_eq!(legal(&d), "TS 9S 8S 7S KC QC JC TC 9C 8C 7C");
    play(&mut d, "KC");
    assert_eq!(legal(&d), "AS KS QS JS QD JD TD 9D 8D 7D AC");
    play(&mut d, "AS");
    assert_eq!(winner_of_last_trick(&d), 1);
    assert_eq!(d.trump(), Trump::JokerOnly);
}

#[test]
fn middler_joker_121_points_no_last_trick_bonus() {
    // 120 in the four suits plus 1 for the joker, whether the joker or a suit is trump: no
    // last-trick bonus, and the 8s are worth nothing even in a deal with no trump suit.
    for (dealer, hands, trump) in [
        (2, MJ1, Trump::JokerOnly),
        (0, MJ1, Trump::JokerOnly),
        (2, MJ3, Trump::Suit(Suit::Hearts)),
    ] {
        let mut d = deal(Preset::MiddlerJoker.ruleset(), dealer, &hands);
        autoplay(&mut d);
        assert_eq!(d.trump(), trump);
        assert_eq!(points(&d).iter().sum::<u32>(), 121, "{hands:?}");
    }
    assert_eq!(Preset::MiddlerJoker.ruleset().last_trick_bonus, 0);
}

#[test]
fn middler_joker_own_points_scoring() {
    let r = Preset::MiddlerJoker.ruleset();
    assert_eq!(
        score(&r, &[40, 70, 11], &[3, 6, 2]),
        (vec![0, 70, 11], ScoreRule::OwnPoints)
    );
    // No penalty for many points or no trick.
    assert_eq!(
        score(&r, &[0, 110, 11], &[0, 9, 2]),
        (vec![0, 110, 0], ScoreRule::OwnPoints)
    );
}

#[test]
fn middler_joker_two_equal_only_third_scores() {
    let r = Preset::MiddlerJoker.ruleset();
    assert_eq!(
        score(&r, &[50, 21, 50], &[4, 2, 5]),
        (vec![0, 21, 0], ScoreRule::OwnPointsTwoEqual)
    );
    assert_eq!(
        score(&r, &[30, 61, 30], &[3, 5, 3]),
        (vec![0, 61, 0], ScoreRule::OwnPointsTwoEqual)
    );
}

#[test]
fn middler_joker_accepts_only_must_follow() {
    assert!(refused("middler-joker", &[("follow", json!("jass"))]).contains("follow"));
    assert!(refused("middler-joker", &[("follow", json!("handjass"))]).contains("follow"));
    assert!(rules("middler-joker", &[("follow", json!("must-follow"))]).is_preset());
}
