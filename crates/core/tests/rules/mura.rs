//! RULES.md 3: Mura.

use super::*;

// ---------------------------------------------------------------------------------------------
// 3. Mura
// ---------------------------------------------------------------------------------------------

/// Mura, four players, dealer 3.
const MURA: [&str; 4] = [
    "AS 6S 7S 8S AH 6H 7H 8H 6D",
    "9S KH TH 9H 7D 8D 9D TD JD",
    "TS QH QD KD AD 6C 7C 8C 9C",
    "KS QS JS JH TC JC QC KC AC",
];

#[test]
fn mura_deck_and_hands() {
    let r = Preset::Mura4.ruleset();
    assert_eq!((r.deck().len(), r.players, r.tricks()), (36, 4, 9));
    let r = Preset::Mura3.ruleset();
    assert_eq!((r.deck().len(), r.players, r.tricks()), (36, 3, 12));
    assert_eq!(r.trump, torite_core::TrumpRule::NoTrump);
}

#[test]
fn mura_rank_order_ten_nine_ace() {
    let r = Preset::Mura4.ruleset();
    let mut spades: Vec<Card> = r.deck().of_suit(Suit::Spades).iter().collect();
    spades
        .sort_by_key(|c| std::cmp::Reverse(r.strength(*c, Some(Suit::Spades), Trump::None, false)));
    let order: Vec<String> = spades.iter().map(ToString::to_string).collect();
    assert_eq!(order.join(" "), "TS 9S AS KS QS JS 8S 7S 6S");
    let mut d = deal(r, 3, &MURA);
    play(&mut d, "AS 9S");
    assert_eq!(d.winning(), Some(1));
    play(&mut d, "TS KS");
    assert_eq!(winner_of_last_trick(&d), 2);
}

#[test]
fn mura_no_trump_must_follow() {
    let mut d = deal(Preset::Mura4.ruleset(), 3, &MURA);
    play(&mut d, "AS");
    assert_eq!(legal(&d), "9S");
    play(&mut d, "9S TS");
    assert_eq!(legal(&d), "KS QS JS");
    play(&mut d, "KS | QH JH AH KH | 6D");
    // Seat 1 may follow only with diamonds; a void seat plays anything, which never wins.
    assert_eq!(legal(&d), "JD TD 9D 8D 7D");
    play(&mut d, "7D");
    assert_eq!(legal(&d), "AD KD QD");
    play(&mut d, "QD TC");
    assert_eq!(winner_of_last_trick(&d), 2);
}

#[test]
fn mura_figures_worth_one_point_each() {
    let mut d = deal(Preset::Mura4.ruleset(), 3, &MURA);
    play(&mut d, "AS 9S TS KS | QH JH AH KH | 6D 7D QD TC");
    // Seat 2 won the spade trick (AS, KS: the losing ace is one point) and QD.
    assert_eq!(points(&d), [5, 0, 3, 0]);
}

#[test]
fn mura_ace_worth_two_when_it_wins_its_trick() {
    let mut d = deal(Preset::Mura4.ruleset(), 3, &MURA);
    play(&mut d, "AS 9S TS KS | QH JH AH KH");
    assert_eq!(winner_of_last_trick(&d), 0);
    // A 2 (it won its own trick) + K + Q + J.
    assert_eq!(d.card_points(0), 5);
}

#[test]
fn mura_ace_worth_one_to_winner_when_it_loses() {
    let mut d = deal(Preset::Mura4.ruleset(), 3, &MURA);
    play(&mut d, "AS 9S TS KS");
    assert_eq!(winner_of_last_trick(&d), 2);
    assert_eq!(points(&d), [0, 0, 2, 0]);
}

#[test]
fn mura_points_total_16_to_20() {
    // The leader takes every trick: 16 counters plus its own winning ace.
    let mut d = deal(Preset::Mura4.ruleset(), 3, &SWISS_ONE_SUIT);
    autoplay(&mut d);
    assert_eq!(points(&d), [17, 0, 0, 0]);
}

#[test]
fn mura_penalty_tricks_plus_one() {
    let r = Preset::Mura4.ruleset();
    assert_eq!(
        score(&r, &[3, 2, 1, 0], &[4, 3, 2, 0]),
        (vec![5, 4, 3, 1], ScoreRule::Penalty)
    );
    let mut d = deal(r, 3, &SWISS_ONE_SUIT);
    autoplay(&mut d);
    assert_eq!(score_deal(&d).0, [0, 1, 1, 1]);
}

#[test]
fn mura_threshold_exemption() {
    let r = Preset::Mura4.ruleset();
    assert_eq!(score(&r, &[6, 3, 5, 2], &[4, 3, 2, 0]).0, [0, 4, 0, 1]);
    assert_eq!(score(&r, &[4, 3, 0, 0], &[5, 3, 1, 0]).0, [0, 4, 2, 1]);
    // The hard variant: threshold 6.
    let r = rules("mura-4", &[("threshold", json!(6))]);
    assert_eq!(score(&r, &[6, 3, 5, 2], &[4, 3, 2, 0]).0, [0, 4, 3, 1]);
    // Three players: 5.
    let r = Preset::Mura3.ruleset();
    assert_eq!(score(&r, &[4, 5, 8], &[5, 4, 3]).0, [6, 0, 0]);
}

#[test]
fn mura_bonus_at_7_takes_one_off_never_below_zero() {
    let r = rules("mura-4", &[("bonus_at", json!(7))]);
    let f = facts(&[8, 3, 5, 2], &[4, 3, 2, 0]);
    assert_eq!(
        r.score(&f, &[3, 0, 0, 0], None).unwrap().scores[..4],
        [-1, 4, 0, 1]
    );
    assert_eq!(
        r.score(&f, &[0, 0, 0, 0], None).unwrap().scores[..4],
        [0, 4, 0, 1]
    );
    let f = facts(&[7, 3, 5, 1], &[4, 3, 2, 0]);
    assert_eq!(
        r.score(&f, &[1, 2, 2, 2], None).unwrap().scores[..4],
        [-1, 4, 0, 1]
    );
    // Without the option, 7 points only exempt.
    let r = Preset::Mura4.ruleset();
    assert_eq!(
        r.score(&f, &[1, 2, 2, 2], None).unwrap().scores[..4],
        [0, 4, 0, 1]
    );
    // In a game the total stops at 0.
    let mut game = Game::new(rules("mura-4", &[("bonus_at", json!(7))]), 3).unwrap();
    let r = game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(r.score.scores[..4], [0, 1, 1, 1]);
    let r = game_deal(&mut game, &rotate(&SWISS_ONE_SUIT, 1), "");
    assert_eq!(r.score.scores[..4], [1, -1, 1, 1]);
    assert_eq!(game.totals(), [1, 0, 2, 2]);
}

#[test]
fn mura_bonus_at_must_be_above_threshold() {
    let msg = refused("mura-4", &[("bonus_at", json!(4))]);
    assert!(
        msg.contains("bonus_at") && msg.contains("threshold"),
        "{msg}"
    );
    let msg = refused("mura-4", &[("threshold", json!(6)), ("bonus_at", json!(6))]);
    assert!(
        msg.contains("bonus_at (6) must be above threshold (6)"),
        "{msg}"
    );
    let r = rules("mura-4", &[("threshold", json!(6)), ("bonus_at", json!(7))]);
    assert_eq!(
        r.scoring,
        torite_core::Scoring::Mura {
            threshold: 6,
            bonus_at: Some(7)
        }
    );
    let r = rules("mura-4", &[("bonus_at", Value::Null)]);
    assert!(r.is_preset());
}

#[test]
fn mura_game_ends_at_10_fewest_wins() {
    // Each deal the leader takes everything and is exempt; the three others take 1 each.
    let mut game = Game::new(Preset::Mura4.ruleset(), 0).unwrap();
    for _ in 0..12 {
        game_deal(&mut game, &SWISS_ONE_SUIT, "");
    }
    assert_eq!(game.totals(), [9, 9, 9, 9]);
    assert!(!game.is_finished());
    game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(game.totals(), [10, 9, 10, 10]);
    assert!(game.is_finished());
    assert_eq!(game.winners(), [1]);
}

#[test]
fn mura_target_7_option() {
    let mut game = Game::new(rules("mura-4", &[("target", json!(7))]), 0).unwrap();
    for _ in 0..8 {
        game_deal(&mut game, &SWISS_ONE_SUIT, "");
    }
    assert_eq!(game.totals(), [6, 6, 6, 6]);
    assert!(!game.is_finished());
    game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(game.totals(), [7, 6, 7, 7]);
    assert!(game.is_finished());
    assert_eq!(game.winners(), [1]);
}

#[test]
fn mura_tied_fewest_share_the_win() {
    // No exemption: the leader takes 9 tricks, 10 penalty points, and ends the game.
    let mut game = Game::new(rules("mura-4", &[("threshold", json!(40))]), 0).unwrap();
    game_deal(&mut game, &SWISS_ONE_SUIT, "");
    assert_eq!(game.totals(), [1, 10, 1, 1]);
    assert!(game.is_finished());
    assert_eq!(game.winners(), [0, 2, 3]);
}

#[test]
fn mura_the_fewest_points_lead_before_the_end_too() {
    let rules = Preset::Mura4.ruleset();
    assert_eq!(rules.winners(&[3, 9, 1, 1], 4), None);
    let leaders = rules.leaders(&[3, 9, 1, 1]);
    assert_eq!(leaders.iter().collect::<Vec<_>>(), [2, 3]);
}
