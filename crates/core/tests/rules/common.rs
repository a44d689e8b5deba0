//! RULES.md 0: the common model (seats, dealing, tricks, notation).

use super::*;

// ---------------------------------------------------------------------------------------------
// 0. Common model
// ---------------------------------------------------------------------------------------------

#[test]
fn first_leader_is_seat_after_dealer() {
    for (dealer, leader) in [(0, 1), (1, 2), (2, 3), (3, 0)] {
        let d = deal(Preset::MiniMisere4.ruleset(), dealer, &MM4_ONE_SUIT);
        assert_eq!(
            (d.dealer(), d.leader(), d.to_act()),
            (dealer, leader, leader)
        );
    }
    let d = deal(Preset::MittlereJass.ruleset(), 2, &[X, Y, Z]);
    assert_eq!(d.to_act(), 0);
}

#[test]
fn dealer_rotates_to_next_seat() {
    let mut game = Game::new(Preset::MiniMisere4.ruleset(), 2).unwrap();
    let mut seen = Vec::new();
    for _ in 0..5 {
        let d = game.start_deal(&hands(&MM4_ONE_SUIT)).unwrap();
        seen.push((d.dealer(), d.to_act()));
        while let Some(a) = game.deal().filter(|d| !d.is_over()).map(first_action) {
            game.apply(a).unwrap();
        }
        game.finish_deal(None).unwrap();
    }
    assert_eq!(seen, [(2, 3), (3, 0), (0, 1), (1, 2), (2, 3)]);
    let dealers: Vec<Seat> = game.results().iter().map(|r| r.dealer).collect();
    assert_eq!(dealers, [2, 3, 0, 1, 2]);
}

#[test]
fn dealing_gives_equal_shares_of_the_whole_deck() {
    let r = Preset::MiniMisere4.ruleset();
    let mut short = MM4_ONE_SUIT.to_vec();
    short[0] = "AS KS QS JS TS";
    let err = Deal::new(r, 0, &hands(&short)).unwrap_err();
    assert_eq!(
        err.to_string(),
        "seat 0 has 5 cards, expected 6 (hands must be equal shares of the deck)"
    );
    let mut dup = MM4_ONE_SUIT.to_vec();
    dup[0] = "AS KS QS JS TS AH";
    assert_eq!(
        Deal::new(r, 0, &hands(&dup)).unwrap_err().to_string(),
        "AH is dealt more than once"
    );
    let mut foreign = MM4_ONE_SUIT.to_vec();
    foreign[0] = "AS KS QS JS TS 9S";
    assert_eq!(
        Deal::new(r, 0, &hands(&foreign)).unwrap_err().to_string(),
        "9S is not in this ruleset's deck"
    );
    let tricks: Vec<usize> = Preset::ALL.iter().map(|p| p.ruleset().tricks()).collect();
    assert_eq!(tricks, [6, 7, 5, 5, 6, 7, 12, 9, 12, 9, 12, 11, 9, 12]);
}

#[test]
fn trick_winner_leads_next_trick() {
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &LED2);
    play(&mut d, "TH AD AC 2H");
    assert_eq!(
        (winner_of_last_trick(&d), d.to_act(), d.leader()),
        (0, 0, 0)
    );
    play(&mut d, "2S JS TS QS");
    assert_eq!(
        (winner_of_last_trick(&d), d.to_act(), d.tricks_won()),
        (0, 0, &[2, 0, 0, 0][..])
    );
    let mut d = deal(Preset::MiniMisere4.ruleset(), 3, &LED2);
    play(&mut d, "KH JD 2D 2H");
    assert_eq!(d.to_act(), 0);
    let mut d = deal(Preset::MiniMisere4.ruleset(), 0, &LED2);
    play(&mut d, "JS TS QS 2S");
    assert_eq!((winner_of_last_trick(&d), d.to_act()), (3, 3));
}

#[test]
fn card_notation_is_case_insensitive_and_accepts_10() {
    assert_eq!(card("10h"), Card::new(Suit::Hearts, Rank::TEN));
    assert_eq!(card("th").to_string(), "TH");
    assert_eq!(card("jk"), Card::JOKER);
    assert_eq!(card("2c").to_string(), "2C");
    assert!("1S".parse::<Card>().is_err());
    assert_eq!(act("LOT"), Action::Lot);
    assert_eq!(act("pass"), Action::Pass);
    assert_eq!(act("call:d"), Action::Call(Suit::Diamonds));
    assert_eq!(act("call:S").to_string(), "call:S");
}
