//! Sampled worlds never contradict the history: in every world [`Worlds`] deals, the whole
//! deal so far, replayed action by action from the world's starting hands, is legal.
//!
//! The starting hands of a world are each seat's hand in the world plus the cards it has
//! played. A world that gives a seat a card it has shown it cannot hold (a suit it did not
//! follow, a Handjass card that would have beaten the trick, a Jass trump it would have had to
//! play to a trump lead) makes some earlier action illegal there.

use proptest::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use torite_core::{
    Action, Card, CardSet, Deal, MAX_SEATS, Preset, Ruleset, Suit, Trump, View, Worlds,
};

use crate::perft::{random_deal, variants};

/// A deal in progress with what is needed to replay it: the dealer, the actions and who
/// played which card.
struct History {
    deal: Deal,
    dealer: usize,
    actions: Vec<Action>,
    played_by: [CardSet; MAX_SEATS],
}

impl History {
    fn new(deal: Deal) -> History {
        History {
            dealer: deal.dealer(),
            deal,
            actions: Vec::new(),
            played_by: [CardSet::EMPTY; MAX_SEATS],
        }
    }

    fn apply(&mut self, action: Action) {
        if let Action::Play(card) = action {
            self.played_by[self.deal.to_act()].insert(card);
        }
        self.deal.apply(action).expect("a legal action");
        self.actions.push(action);
    }

    /// Replays the history from `world`'s starting hands; the first illegal action, if any.
    fn replay_in(&self, world: &Deal) -> Result<(), String> {
        let rules = *self.deal.rules();
        let start: Vec<CardSet> = (0..self.deal.players())
            .map(|s| world.hand(s) | self.played_by[s])
            .collect();
        let mut replay = Deal::new(rules, self.dealer, &start).map_err(|e| format!("{e}"))?;
        for (i, action) in self.actions.iter().enumerate() {
            let seat = replay.to_act();
            replay.apply(*action).map_err(|e| {
                format!("action {i} ({action}) of seat {seat}: {e}; start {start:?}")
            })?;
        }
        if &replay != world {
            return Err("the replayed deal differs from the world".to_string());
        }
        Ok(())
    }
}

fn random_action(deal: &Deal, rng: &mut ChaCha8Rng) -> Action {
    let legal = deal.legal_actions();
    let n = legal.len() as u64;
    legal.nth((rng.next_u64() % n) as usize).expect("in range")
}

/// Plays one random deal of `rules`, sampling worlds for every seat at random points.
fn check_deal(rules: Ruleset, rng: &mut ChaCha8Rng) -> Result<usize, String> {
    let (deal, _) = random_deal(rules, rng);
    let mut history = History::new(deal);
    let mut checked = 0;
    while !history.deal.is_over() {
        if rng.next_u32().is_multiple_of(3) {
            let to_act = history.deal.to_act();
            for seat in 0..history.deal.players() {
                let view = View::new(&history.deal, seat);
                let worlds = Worlds::new(view);
                let count = if seat == to_act { 6 } else { 2 };
                for _ in 0..count {
                    let world = worlds.sample(rng);
                    history.replay_in(&world).map_err(|e| {
                        format!(
                            "seat {seat}'s world after {} actions: {e}",
                            history.actions.len()
                        )
                    })?;
                    checked += 1;
                }
            }
        }
        let action = random_action(&history.deal, rng);
        history.apply(action);
    }
    Ok(checked)
}

proptest! {
    #![proptest_config(ProptestConfig {
        cases: 24,
        failure_persistence: None,
        ..ProptestConfig::default()
    })]

    /// Every ruleset: the worlds sampled at random points of a random deal replay its history.
    #[test]
    fn sampled_worlds_replay_the_history(seed in any::<u64>()) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for rules in variants() {
            check_deal(rules, &mut rng)
                .map_err(|e| TestCaseError::fail(format!("{}: {e}", rules.to_json())))?;
        }
    }
}

/// Middler's follow-and-beat rule is where a world most often contradicts the history when
/// only voids are respected: many deals, every one checked.
#[test]
fn middler_worlds_replay_the_history_in_many_deals() {
    let mut rng = ChaCha8Rng::seed_from_u64(2026);
    for rules in [
        Preset::Middler.ruleset(),
        Preset::MolotowJass.ruleset(),
        Preset::MittlereJass.ruleset(),
    ] {
        let mut checked = 0;
        for deal in 0..60 {
            checked += check_deal(rules, &mut rng)
                .unwrap_or_else(|e| panic!("{} deal {deal}: {e}", rules.id()));
        }
        assert!(checked > 500, "{}: only {checked} worlds", rules.id());
    }
}

fn hands(lists: &[&str]) -> Vec<CardSet> {
    lists
        .iter()
        .map(|h| h.parse::<CardSet>().expect("a hand"))
        .collect()
}

fn play(deal: &mut Deal, actions: &str) {
    for action in actions.split_whitespace() {
        let action: Action = action.parse().expect("an action");
        deal.apply(action).expect("legal");
    }
}

/// Middler (RULES.md 2.7): a seat that follows without beating holds no card of the suit that
/// beats the best card so far; it may still hold lower ones.
#[test]
fn middler_a_follow_that_does_not_beat_shows_no_higher_card() {
    let rules = Preset::Middler.ruleset();
    let start = hands(&[
        "KS 6S 7H 8H 9H TH JH QH KH AH 6D 7D",
        "7S 8S 9S AS 8D 9D TD JD QD KD AD 6C",
        "QS TS JS 6H 7C 8C 9C TC JC QC KC AC",
    ]);
    let mut deal = Deal::new(rules, 2, &start).expect("a deal");
    // Seat 1 must beat KS with AS; seat 2 cannot beat it and plays any spade.
    play(&mut deal, "KS AS TS");
    // Seat 1 leads 9S; seat 2 beats it with JS (QS would beat it too); seat 0's 6S does not
    // beat JS, so seat 0 holds no spade above JS: QS, the only one unseen by seat 1, is seat
    // 2's in every world.
    play(&mut deal, "9S JS 6S");
    let view = View::new(&deal, 1);
    let qs: Card = "QS".parse().expect("a card");
    assert!(view.unseen().contains(qs));
    assert!(!view.possible(0).contains(qs));
    assert!(view.possible(2).contains(qs));
    assert_eq!(
        deal.voids(0),
        0,
        "not a void: lower spades are not excluded"
    );
    let worlds = Worlds::new(view);
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for _ in 0..200 {
        assert!(worlds.sample(&mut rng).hand(2).contains(qs));
    }
}

/// Jass (RULES.md 2.3.3 and 2.3.4): a seat answering a trump lead with another suit holds no
/// trump, except perhaps the trump Jack.
#[test]
fn jass_a_trump_lead_answered_off_suit_shows_no_trump_but_the_jack() {
    let rules = Preset::MittlereJass.ruleset();
    let start = hands(&[
        "AS KS 6H 7H 8H 9H TH 6D 7D 8D 9D TD",
        "QS 8S 9S TS JH QH KH AH JD QD KD JC",
        "6S 7S JS 6C 7C 8C 9C TC AD QC KC AC",
    ]);
    let mut deal = Deal::new(rules, 2, &start).expect("a deal");
    // Seat 0 wins the spade trick and leads 6H; seat 2 has no heart and 6C makes clubs trump.
    play(&mut deal, "AS QS 6S 6H JH 6C");
    assert_eq!(deal.trump(), Trump::Suit(Suit::Clubs));
    // Seat 2 leads trump; seat 0 has none; seat 1's only trump is the Jack, so it may keep
    // it and play a spade.
    play(&mut deal, "7C 7H 8S");
    let view = View::new(&deal, 0);
    let jc: Card = "JC".parse().expect("a card");
    assert_eq!(
        view.possible(1).of_suit(Suit::Clubs),
        CardSet::single(jc),
        "seat 1 may hold the trump Jack and no other trump"
    );
    assert_eq!(deal.voids(1) & (1 << Suit::Clubs.index()), 0, "not a void");
    // Seat 0 answered off suit holding no trump at all: from seat 1's view, which holds the
    // Jack, seat 0 holds no trump.
    assert!(
        View::new(&deal, 1)
            .possible(0)
            .of_suit(Suit::Clubs)
            .is_empty()
    );
}

/// Jass (RULES.md 2.3.1): undertrumping is allowed only to a seat that cannot follow, so an
/// undertrump shows a void in the led suit.
#[test]
fn jass_an_undertrump_shows_a_void_in_the_led_suit() {
    let rules = Preset::MolotowJass.ruleset();
    let start = hands(&[
        "AS KS QS JS TS 9S 8S 7D 6D",
        "9H AH KH QH JD QD KD AD TD",
        "7S 6S 8D 9D AC KC QC JC TC",
        "6H 7H 8H TH JH 9C 8C 7C 6C",
    ]);
    let mut deal = Deal::new(rules, 3, &start).expect("a deal");
    // Seat 1 has no spade and 9H makes hearts trump; seat 2 follows; seat 3 plays 6H, under
    // the 9H: allowed only because it has no spade.
    play(&mut deal, "AS 9H 7S 6H");
    let spades = 1 << Suit::Spades.index();
    assert_eq!(deal.voids(3) & spades, spades);
    let view = View::new(&deal, 0);
    assert!(view.unseen().contains("6S".parse().expect("a card")));
    assert!(view.possible(3).of_suit(Suit::Spades).is_empty());
}

/// 1989 Mini Misère (RULES.md 1.3): the joker may be played at any time, so playing it not led
/// shows nothing about the led suit.
#[test]
fn the_1989_joker_not_led_shows_nothing() {
    let rules = Preset::MiniMisere5_1989.ruleset();
    let start = hands(&[
        "AS KS QS JS TS",
        "JK 9S AH KH QH",
        "9H JH TH AD KD",
        "QD JD TD 9D AC",
        "KC QC JC TC 9C",
    ]);
    let mut deal = Deal::new(rules, 4, &start).expect("a deal");
    play(&mut deal, "pass pass pass pass pass AS JK");
    assert_eq!(deal.voids(1), 0);
    let view = View::new(&deal, 0);
    assert!(view.possible(1).contains("9S".parse().expect("a card")));
}
