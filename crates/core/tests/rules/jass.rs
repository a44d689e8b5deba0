//! RULES.md 2–2.5: the Jass family's ranks, points, trump and following; Mittlere and Molotow.

use super::*;

// ---------------------------------------------------------------------------------------------
// 2. The Jass family: ranks, points, trump, following
// ---------------------------------------------------------------------------------------------

/// Jass deal A (three players, dealer 2): seat 1 is void in spades and holds hearts.
const JASS_A: [&str; 3] = [
    "AS KS QS JS TS AD KD QD JD TD AC KC",
    "AH KH QH TH 8H 6H 9D 8D 7D 6D QC JC",
    "9S 8S 7S 6S JH 9H 7H TC 9C 8C 7C 6C",
];
/// Jass deal B (dealer 2): seats 1 and 2 are void in diamonds; seat 2's trumps are J and 6.
const JASS_B: [&str; 3] = [
    "AD KD QD JD TD 9D 8D 7D 6D AS KS QS",
    "AH KH QH TH 9H 8H 7H JS TS 9S 8S 7S",
    "JH 6H AC KC QC JC TC 9C 8C 7C 6C 6S",
];
/// Jass deal C (dealer 2): hearts are led first, then made trump in the second trick.
const JASS_C: [&str; 3] = [
    "AH AS KS QS JS TS 9S 8S 7S 6S AD KD",
    "JH 6H 7H 8H QD JD TD 9D AC KC QC JC",
    "9H KH QH TH 8D 7D 6D TC 9C 8C 7C 6C",
];

#[test]
fn jass_rank_orders_plain_and_trump() {
    let r = Preset::MittlereJass.ruleset();
    let order = |suit: &str, trump: Trump| {
        let mut cards: Vec<Card> = r
            .deck()
            .iter()
            .filter(|c| c.to_string().ends_with(suit))
            .collect();
        cards.sort_by_key(|c| std::cmp::Reverse(r.strength(*c, c.suit(), trump, false)));
        cards
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(" ")
    };
    assert_eq!(order("S", Trump::None), "AS KS QS JS TS 9S 8S 7S 6S");
    assert_eq!(
        order("H", Trump::Suit(Suit::Hearts)),
        "JH 9H AH KH QH TH 8H 7H 6H"
    );
    assert_eq!(
        order("S", Trump::Suit(Suit::Hearts)),
        "AS KS QS JS TS 9S 8S 7S 6S"
    );
    // In play: the trump 9 beats the trump 10, and the trump Jack beats the ace.
    let mut d = deal(r, 2, &JASS_A);
    play(&mut d, "AS TH 9H");
    assert_eq!(winner_of_last_trick(&d), 2);
    let mut d = deal(r, 2, &JASS_B);
    play(&mut d, "6D 9H 6H | KH JH AS");
    assert_eq!(winner_of_last_trick(&d), 2);
}

#[test]
fn jass_trick_won_by_highest_trump_else_highest_of_led_suit() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_A);
    play(&mut d, "AS TH");
    assert_eq!(d.winning(), Some(1));
    play(&mut d, "9H");
    assert_eq!(winner_of_last_trick(&d), 2);
    // The lowest trump beats the king of the led suit.
    play(&mut d, "6C KC 6H");
    assert_eq!(winner_of_last_trick(&d), 1);
    // No trump in the trick: the highest card of the led suit.
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_C);
    play(&mut d, "AH JH 9H");
    assert_eq!(winner_of_last_trick(&d), 0);
}

#[test]
fn jass_card_points_table() {
    // Deal C: the first trick AH JH 9H is worth 13 with no trump; the 5 of the last trick and
    // the trump values are checked in the tests below.
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_C);
    play(&mut d, "AH JH 9H");
    assert_eq!(points(&d), [13, 0, 0]);
    // Deal A: seat 2 takes AS TH(trump 10) 9H(trump 14) = 35.
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_A);
    play(&mut d, "AS TH 9H");
    assert_eq!(points(&d), [0, 0, 35]);
    play(&mut d, "6C KC 6H | AH 7H TD");
    assert_eq!(points(&d), [0, 4 + 11 + 10, 35]);
}

#[test]
fn jass_points_total_157() {
    for hands in [JASS_A, JASS_B, JASS_C] {
        let mut d = deal(Preset::MittlereJass.ruleset(), 2, &hands);
        autoplay(&mut d);
        assert!(matches!(d.trump(), Trump::Suit(_)));
        assert_eq!(points(&d).iter().sum::<u32>(), 157, "{hands:?}");
    }
    // Four players, hand-played: the leader takes 75, the seat opposite 82, the others nothing.
    let mut d = deal(Preset::MolotowJass.ruleset(), 3, &SPLIT);
    play(&mut d, SPLIT_PLAY);
    assert_eq!(d.trump(), Trump::Suit(Suit::Diamonds));
    assert_eq!(points(&d), [75, 0, 82, 0]);
    let mut d = deal(Preset::MolotowJass.ruleset(), 3, &ROUT);
    play(&mut d, ROUT_PLAY);
    assert_eq!(points(&d), [48, 0, 109, 0]);
}

#[test]
fn jass_last_trick_scores_five() {
    // X and Y capture cards of the same value (two whole suits each); Y wins the last trick.
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &[X, Y, Z]);
    autoplay(&mut d);
    assert_eq!(winner_of_last_trick(&d), 1);
    assert_eq!(points(&d), [76, 81, 0]);
    // In the hand-played four-player deal: the last trick QD 8H QH JH is 3 + 3 + 2, plus 5.
    let mut d = deal(Preset::MolotowJass.ruleset(), 3, &SPLIT);
    let (before, last) = SPLIT_PLAY.rsplit_once('|').unwrap();
    play(&mut d, before);
    let c = d.card_points(2);
    play(&mut d, last);
    assert_eq!(winner_of_last_trick(&d), 2);
    assert_eq!(d.card_points(2), c + 8 + 5);
}

#[test]
fn eights_worth_eight_when_no_trump() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &[X, Y, Z]);
    autoplay(&mut d);
    assert_eq!(d.trump(), Trump::None);
    // Each seat took two whole suits: A 11 + K 4 + Q 3 + J 2 + T 10 + 8 8 = 38 a suit.
    assert_eq!(points(&d), [2 * 38, 2 * 38 + 5, 0]);
    assert_eq!(points(&d).iter().sum::<u32>(), 157);
    // Once trump exists the 8s are worth nothing (deal B sets hearts trump at once).
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_B);
    play(&mut d, "6D 9H 6H");
    autoplay(&mut d);
    assert_eq!(points(&d).iter().sum::<u32>(), 157);
}

#[test]
fn jass_before_trump_must_follow_else_any_card() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_C);
    assert_eq!(d.trump(), Trump::None);
    play(&mut d, "AH");
    assert_eq!(legal(&d), "JH 8H 7H 6H");
    assert_eq!(why(&d, "QD"), PlayError::MustFollow { led: Suit::Hearts });
    play(&mut d, "JH 9H");
    assert_eq!(d.trump(), Trump::None);
    play(&mut d, "AS");
    assert_eq!(legal(&d), "8H 7H 6H QD JD TD 9D AC KC QC JC");
}

#[test]
fn jass_trump_set_by_first_discard_including_its_own_trick() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_A);
    play(&mut d, "AS");
    assert_eq!(d.trump(), Trump::None);
    play(&mut d, "TH");
    // Hearts are trump at once, within this trick: seat 2 may trump in although it holds
    // spades, but not under the 10 that set trump.
    assert_eq!(d.trump(), Trump::Suit(Suit::Hearts));
    assert_eq!(legal(&d), "9S 8S 7S 6S JH 9H");
    assert_eq!(why(&d, "7H"), PlayError::Undertrump { over: card("TH") });
    play(&mut d, "9H");
    assert_eq!(winner_of_last_trick(&d), 2);
    // The trump stays for the rest of the deal: a later discard of another suit sets nothing.
    play(&mut d, "6C KC 6H | AH 7H TD");
    assert_eq!(d.trump(), Trump::Suit(Suit::Hearts));
}

#[test]
fn trump_card_captured_before_trump_set_counts_as_trump() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_C);
    // Won by the plain ace: the jack and nine were plain cards when played.
    play(&mut d, "AH JH 9H");
    assert_eq!(winner_of_last_trick(&d), 0);
    assert_eq!(d.card_points(0), 11 + 2);
    play(&mut d, "AS 6H 6D");
    assert_eq!(d.trump(), Trump::Suit(Suit::Hearts));
    assert_eq!(winner_of_last_trick(&d), 1);
    // Counted with the final trump: J 20, 9 14.
    assert_eq!(d.card_points(0), 11 + 20 + 14);
    assert_eq!(d.card_points(1), 11);
}

#[test]
fn jass_follow_or_trump_without_undertrumping() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_A);
    play(&mut d, "AS TH 9H | 6C");
    // Seat 0 holds clubs and no trump.
    assert_eq!(legal(&d), "AC KC");
    play(&mut d, "KC");
    // Seat 1 may follow or play any trump (no trump in the trick yet), not a plain diamond.
    assert_eq!(legal(&d), "AH KH QH 8H 6H QC JC");
    assert_eq!(why(&d, "9D"), PlayError::MustFollow { led: Suit::Clubs });
    play(&mut d, "6H");
    assert_eq!(winner_of_last_trick(&d), 1);
}

#[test]
fn jass_no_undertrump_only_when_able_to_follow() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_B);
    play(&mut d, "6D 9H");
    // Seat 2 cannot follow diamonds: any card, its lower trump 6H included.
    assert_eq!(legal(&d), "6S JH 6H AC KC QC JC TC 9C 8C 7C 6C");
    play(&mut d, "6H");
    assert_eq!(winner_of_last_trick(&d), 1);
    // Seat 2 in deal A could follow spades, so there it may not undertrump.
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_A);
    play(&mut d, "AS TH");
    assert!(!d.is_legal(act("7H")));
}

#[test]
fn jass_trump_led_must_be_followed_with_trump() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_A);
    play(&mut d, "AS TH 9H | 6C KC 6H | AH");
    // Any trump, not necessarily a higher one.
    assert_eq!(legal(&d), "JH 7H");
    assert_eq!(
        why(&d, "6S"),
        PlayError::MustPlayTrump {
            trump: Suit::Hearts
        }
    );
    play(&mut d, "7H");
    // Seat 0 holds no trump: any card.
    assert_eq!(legal(&d), "KS QS JS TS AD KD QD JD TD AC");
}

#[test]
fn jass_trump_jack_exception() {
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_B);
    play(&mut d, "6D 9H 6H | AH");
    // Seat 2's only trump is the Jack: it may play it or any other card.
    assert_eq!(legal(&d), "6S JH AC KC QC JC TC 9C 8C 7C 6C");
    play(&mut d, "6C AS");
    assert_eq!(winner_of_last_trick(&d), 1);
    // With the Jack and another trump the seat must play a trump.
    let mut d = deal(Preset::MittlereJass.ruleset(), 2, &JASS_A);
    play(&mut d, "AS TH 9S | AH");
    assert_eq!(legal(&d), "JH 9H 7H");
}

// ---------------------------------------------------------------------------------------------
// 2.4 Mittlere Jass
// ---------------------------------------------------------------------------------------------

#[test]
fn mittlere_1_all_tricks() {
    let r = Preset::MittlereJass.ruleset();
    assert_eq!(
        score(&r, &[157, 0, 0], &[12, 0, 0]),
        (vec![2, -1, -1], ScoreRule::AllTricks)
    );
    assert_eq!(score(&r, &[0, 0, 157], &[0, 0, 12]).0, [-1, -1, 2]);
}

#[test]
fn mittlere_2_no_trick() {
    let r = Preset::MittlereJass.ruleset();
    assert_eq!(
        score(&r, &[76, 81, 0], &[6, 6, 0]),
        (vec![1, 1, -2], ScoreRule::NoTrick)
    );
    // Before the 100-point rule.
    assert_eq!(
        score(&r, &[0, 120, 37], &[0, 8, 4]),
        (vec![-2, 1, 1], ScoreRule::NoTrick)
    );
    let mut d = deal(r, 2, &[X, Y, Z]);
    autoplay(&mut d);
    assert_eq!(score_deal(&d), (vec![1, 1, -2], ScoreRule::NoTrick));
}

#[test]
fn mittlere_3_hundred_points() {
    let r = Preset::MittlereJass.ruleset();
    assert_eq!(
        score(&r, &[30, 110, 17], &[2, 8, 2]),
        (vec![1, -2, 1], ScoreRule::Hundred)
    );
    assert_eq!(score(&r, &[100, 30, 27], &[6, 3, 3]).0, [-2, 1, 1]);
    // Before the equal-points rule.
    assert_eq!(
        score(&r, &[101, 28, 28], &[6, 3, 3]),
        (vec![-2, 1, 1], ScoreRule::Hundred)
    );
}

#[test]
fn mittlere_4_two_equal() {
    let r = Preset::MittlereJass.ruleset();
    assert_eq!(
        score(&r, &[60, 60, 37], &[4, 4, 4]),
        (vec![-1, -1, 2], ScoreRule::TwoEqual)
    );
    assert_eq!(
        score(&r, &[40, 77, 40], &[4, 4, 4]),
        (vec![-1, 2, -1], ScoreRule::TwoEqual)
    );
}

#[test]
fn mittlere_5_highest_and_lowest_win_middle_loses() {
    let r = Preset::MittlereJass.ruleset();
    assert_eq!(
        score(&r, &[50, 80, 27], &[4, 5, 3]),
        (vec![-2, 1, 1], ScoreRule::HighestAndLowest)
    );
    assert_eq!(score(&r, &[99, 1, 57], &[7, 1, 4]).0, [1, 1, -2]);
}

#[test]
fn jass_games_are_twelve_deals() {
    for p in [
        Preset::MittlereJass,
        Preset::MolotowJass,
        Preset::Middler,
        Preset::MiddlerJoker,
    ] {
        assert_eq!(p.ruleset().end, GameEnd::Deals(12), "{p}");
    }
    let mut game = Game::new(Preset::MittlereJass.ruleset(), 2).unwrap();
    for _ in 0..11 {
        game_deal(&mut game, &[X, Y, Z], "");
    }
    assert!(!game.is_finished());
    game_deal(&mut game, &[X, Y, Z], "");
    assert!(game.is_finished());
    assert_eq!(game.totals(), [12, 12, -24]);
    assert_eq!(game.winners(), [0, 1]);
    // Molotow: each deal the seat after the leader takes all 157 points (+3, others −1).
    let mut game = Game::new(Preset::MolotowJass.ruleset(), 0).unwrap();
    for _ in 0..12 {
        assert!(!game.is_finished());
        game_deal(&mut game, &SWISS_ONE_SUIT, "");
    }
    assert!(game.is_finished());
    assert_eq!(game.totals(), [0, 0, 0, 0]);
    assert_eq!(game.winners(), [0, 1, 2, 3]);
    // Any other number of deals can be chosen.
    let r = rules("mittlere-jass", &[("deals", json!(24))]);
    assert_eq!(r.end, GameEnd::Deals(24));
}

// ---------------------------------------------------------------------------------------------
// 2.5 Molotow Jass
// ---------------------------------------------------------------------------------------------

#[test]
fn molotow_1_all_points() {
    let r = Preset::MolotowJass.ruleset();
    assert_eq!(
        score(&r, &[0, 157, 0, 0], &[0, 9, 0, 0]),
        (vec![-1, 3, -1, -1], ScoreRule::AllPoints)
    );
    // Without every trick: seat 3 won a trick worth nothing.
    assert_eq!(
        score(&r, &[0, 157, 0, 0], &[0, 8, 0, 1]),
        (vec![-1, 3, -1, -1], ScoreRule::AllPoints)
    );
    let mut d = deal(r, 0, &SWISS_ONE_SUIT);
    autoplay(&mut d);
    assert_eq!(score_deal(&d), (vec![-1, -1, 3, -1], ScoreRule::AllPoints));
}

#[test]
fn molotow_2_hundred() {
    let r = Preset::MolotowJass.ruleset();
    assert_eq!(
        score(&r, &[30, 20, 100, 7], &[2, 2, 4, 1]),
        (vec![1, 1, -3, 1], ScoreRule::Hundred)
    );
    let mut d = deal(r, 3, &ROUT);
    play(&mut d, ROUT_PLAY);
    assert_eq!(score_deal(&d), (vec![1, 1, -3, 1], ScoreRule::Hundred));
}

#[test]
fn molotow_3_three_equal_draw() {
    let r = Preset::MolotowJass.ruleset();
    let f = facts(&[40, 37, 40, 40], &[2, 3, 2, 2]);
    assert_eq!(r.draw_needed(&f), Some(0b1101));
    let s = r.score(&f, &[], Some(2)).unwrap();
    assert_eq!(
        (s.scores[..4].to_vec(), s.rule),
        (vec![0, 1, -1, 0], ScoreRule::ThreeEqual)
    );
    let s = r.score(&f, &[], Some(0)).unwrap();
    assert_eq!(s.scores[..4], [-1, 1, 0, 0]);
    // Three equal at the bottom.
    let f = facts(&[7, 50, 50, 50], &[1, 3, 3, 2]);
    assert_eq!(
        r.score(&f, &[], Some(3)).unwrap().scores[..4],
        [1, 0, 0, -1]
    );
    assert_eq!(
        r.draw_needed(&facts(&[70, 40, 30, 17], &[3, 2, 2, 2])),
        None
    );
}

#[test]
fn molotow_3_missing_draw_is_an_error() {
    let r = Preset::MolotowJass.ruleset();
    let f = facts(&[40, 37, 40, 40], &[2, 3, 2, 2]);
    let err = r.score(&f, &[], None).unwrap_err();
    assert_eq!(err, ScoreError::NeedsDraw { tied: 0b1101 });
    assert!(err.to_string().contains("seats 0, 2, 3"), "{err}");
}

#[test]
fn molotow_3_bad_draw_is_an_error() {
    let r = Preset::MolotowJass.ruleset();
    let f = facts(&[40, 37, 40, 40], &[2, 3, 2, 2]);
    assert_eq!(
        r.score(&f, &[], Some(1)).unwrap_err(),
        ScoreError::BadDraw {
            seat: 1,
            tied: 0b1101
        }
    );
    assert_eq!(
        r.score(&f, &[], Some(7)).unwrap_err(),
        ScoreError::BadDraw {
            seat: 7,
            tied: 0b1101
        }
    );
}

#[test]
fn molotow_4_two_lowest_equal() {
    let r = Preset::MolotowJass.ruleset();
    assert_eq!(
        score(&r, &[20, 80, 37, 20], &[2, 4, 2, 1]),
        (vec![0, 1, -1, 0], ScoreRule::TwoLowestEqual)
    );
}

#[test]
fn molotow_5_two_highest_equal() {
    let r = Preset::MolotowJass.ruleset();
    assert_eq!(
        score(&r, &[60, 7, 60, 30], &[3, 1, 3, 2]),
        (vec![0, 1, 0, -1], ScoreRule::TwoHighestEqual)
    );
}

#[test]
fn molotow_6_two_middle_equal() {
    let r = Preset::MolotowJass.ruleset();
    assert_eq!(
        score(&r, &[30, 80, 30, 17], &[2, 4, 2, 1]),
        (vec![-1, 1, -1, 1], ScoreRule::TwoMiddleEqual)
    );
}

#[test]
fn molotow_7_all_differ() {
    let r = Preset::MolotowJass.ruleset();
    assert_eq!(
        score(&r, &[40, 70, 17, 30], &[2, 4, 1, 2]),
        (vec![-1, 1, 1, -1], ScoreRule::AllDiffer)
    );
    // No penalty for taking no trick: the trickless lowest seat still scores +1.
    assert_eq!(
        score(&r, &[70, 40, 30, 17], &[5, 2, 2, 0]).0,
        [1, -1, -1, 1]
    );
}

#[test]
fn molotow_middle_wins_option() {
    let r = rules("molotow-jass", &[("molotow_middle_wins", json!(true))]);
    assert_eq!(
        score(&r, &[40, 70, 17, 30], &[2, 4, 1, 2]),
        (vec![1, -1, -1, 1], ScoreRule::AllDiffer)
    );
    assert_eq!(
        score(&r, &[30, 80, 30, 17], &[2, 4, 2, 1]),
        (vec![1, -1, 1, -1], ScoreRule::TwoMiddleEqual)
    );
    // Rules 1 to 5 keep their signs.
    assert_eq!(score(&r, &[20, 80, 37, 20], &[2, 4, 2, 1]).0, [0, 1, -1, 0]);
    assert_eq!(score(&r, &[60, 7, 60, 30], &[3, 1, 3, 2]).0, [0, 1, 0, -1]);
    assert_eq!(score(&r, &[0, 157, 0, 0], &[0, 9, 0, 0]).0, [-1, 3, -1, -1]);
    let r = rules("molotow-jass", &[("molotow_middle_wins", json!(false))]);
    assert!(r.is_preset());
}
