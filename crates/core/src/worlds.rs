//! Dealing the unseen cards of a [`View`] at random: the worlds ("determinisations") a search
//! bot imagines.
//!
//! [`Worlds`] works a view's constraints out once ([`View::possible`] for each other seat,
//! and each seat's hand size), then deals as many worlds as asked without allocating. A world
//! keeps the viewer's hand and every public fact; the unseen cards go to the other seats, each
//! receiving as many as it holds and none it has shown it cannot hold ([`Deal::excluded`]:
//! suits it did not follow, Handjass cards that would have beaten a trick it did not beat,
//! Jass trumps it would have had to play). Those are exactly the constraints the history puts
//! on the hands, so in every world dealt the whole history of the deal, replayed from the
//! world's starting hands (each hand plus the cards its seat has played), is legal action by
//! action; `crates/core/tests/worlds.rs` checks it for every ruleset.
//!
//! The cards that only some seats may hold are placed first, each to an allowed seat with
//! probability proportional to the room left in that seat's hand; the cards any seat may hold
//! are then shuffled into the room left. Without constraints this is exactly uniform over the
//! consistent deals. Weighting by room also keeps it exact when the cards that two or more
//! seats, but not every other seat, may hold all share the same seats (say one seat void in
//! one suit), where picking uniformly among the seats with room is not: with three unseen
//! spades that two seats of three cards each may hold, uniform picking gives one seat all
//! three an eighth of the time instead of a twentieth. Cards only one seat may hold are
//! simply its own, so every world of a three-player game (two other seats) is exactly
//! uniform, Middler's included.
//!
//! **Bias.** With three or more other seats and constrained cards shared by different sets of
//! seats (seat 1 void in spades and seat 2 in hearts, say), the sampling is not exactly
//! uniform: a world is dealt with probability proportional to `∏ₖ room(sₖ) / Σ_{t ∈ Aₖ}
//! room(t)` times `1 / multinomial(free; room left)`, where card `k` of the constrained ones
//! (fewest allowed seats first, then card order) went to seat `sₖ` of its allowed seats `Aₖ`,
//! with `room` the room left in each hand just before it, and `free` the cards every other
//! seat may hold; uniform dealing would weigh every consistent world alike. (After
//! [`RESTARTS`] dead ends in a row the world is the exhaustive search's first, which is rarer
//! still.) Every consistent world can be dealt, and no inconsistent one is.
//!
//! With several overlapping constraints the randomised dealing can reach a dead end (a card
//! no seat with room may take); it then starts again, and after [`RESTARTS`] dead ends it
//! searches for an assignment exhaustively, which always exists for a view of a real deal.

use crate::card::{Card, CardSet};
use crate::deal::Deal;
use crate::ruleset::MAX_SEATS;
use crate::seats::SeatSet;
use crate::shuffle::below;
use crate::view::View;

/// How many dead ends the randomised dealing may reach before the exhaustive search.
pub const RESTARTS: usize = 16;

/// The constraints of one view, ready to deal worlds from: each other seat's hand size and
/// the unseen cards it may hold ([`View::possible`]). Every world it deals is consistent with
/// the whole history of the deal (see the module documentation for how exactly uniform it is).
#[derive(Clone, Debug)]
pub struct Worlds<'v> {
    view: View<'v>,
    /// The unseen cards, most constrained first.
    cards: [Card; 64],
    /// For each card of `cards`, the seats that may hold it.
    allowed: [SeatSet; 64],
    /// How many cards are unseen.
    len: usize,
    /// Where the cards that every other seat may hold begin in `cards` (they come last).
    free: usize,
    /// How many cards each seat must receive (0 for the viewer).
    sizes: [u8; MAX_SEATS],
}

impl<'v> Worlds<'v> {
    /// Works out `view`'s constraints.
    #[must_use]
    pub fn new(view: View<'v>) -> Worlds<'v> {
        let me = view.seat();
        let n = usize::from(view.rules().players);
        let mut possible = [CardSet::EMPTY; MAX_SEATS];
        let mut sizes = [0u8; MAX_SEATS];
        let mut others = SeatSet::EMPTY;
        for seat in (0..n).filter(|s| *s != me) {
            possible[seat] = view.possible(seat);
            sizes[seat] = view.hand_len(seat) as u8;
            others.insert(seat);
        }
        let mut entries = [(0u32, Card::JOKER, SeatSet::EMPTY); 64];
        let mut len = 0;
        for card in view.unseen() {
            let allowed: SeatSet = (0..n).filter(|s| possible[*s].contains(card)).collect();
            entries[len] = (allowed.len() as u32, card, allowed);
            len += 1;
        }
        entries[..len].sort_unstable_by_key(|(count, card, _)| (*count, *card));
        let mut worlds = Worlds {
            view,
            cards: [Card::JOKER; 64],
            allowed: [SeatSet::EMPTY; 64],
            len,
            free: len,
            sizes,
        };
        for (i, (_, card, allowed)) in entries[..len].iter().enumerate() {
            worlds.cards[i] = *card;
            worlds.allowed[i] = *allowed;
            if *allowed == others {
                worlds.free = worlds.free.min(i);
            }
        }
        worlds
    }

    /// The view the worlds are dealt for.
    #[must_use]
    pub const fn view(&self) -> View<'v> {
        self.view
    }

    /// One world at random: the viewer's hand and the public facts as they are, the unseen
    /// cards dealt to the other seats within [`View::possible`] and their hand sizes.
    pub fn sample(&self, rng: &mut (impl rand_core::Rng + ?Sized)) -> Deal {
        for _ in 0..RESTARTS {
            if let Some(hands) = self.deal_hands(rng) {
                return self.view.world(&hands);
            }
        }
        // Rare: constraints too tight for the randomised dealing.
        let mut hands = [CardSet::EMPTY; MAX_SEATS];
        let mut room = self.sizes;
        if !self.assign(0, &mut room, &mut hands) {
            // Unreachable for a view of a real deal, whose true hands satisfy every
            // constraint. Deal by hand size alone rather than panic.
            hands = [CardSet::EMPTY; MAX_SEATS];
            let mut room = self.sizes;
            for &card in &self.cards[..self.len] {
                if let Some(seat) = (0..MAX_SEATS).find(|s| room[*s] > 0) {
                    room[seat] -= 1;
                    hands[seat].insert(card);
                }
            }
        }
        self.view.world(&hands)
    }

    /// The other seats' hands of one world, or `None` at a dead end.
    fn deal_hands(&self, rng: &mut (impl rand_core::Rng + ?Sized)) -> Option<[CardSet; MAX_SEATS]> {
        let mut room = self.sizes;
        let mut hands = [CardSet::EMPTY; MAX_SEATS];
        // The constrained cards, one at a time, each to an allowed seat with probability
        // proportional to the room left in its hand.
        for (card, allowed) in self.cards[..self.free].iter().zip(&self.allowed) {
            let total: u32 = allowed.iter().map(|s| u32::from(room[s])).sum();
            if total == 0 {
                return None;
            }
            let mut pick = below(rng, total);
            for seat in allowed.iter() {
                let r = u32::from(room[seat]);
                if pick < r {
                    hands[seat].insert(*card);
                    room[seat] -= 1;
                    break;
                }
                pick -= r;
            }
        }
        // The cards any seat may hold: shuffled into the room left, seat by seat (the last
        // seat with room takes the rest without drawing).
        let mut deck = [Card::JOKER; 64];
        let mut rest = self.len - self.free;
        deck[..rest].copy_from_slice(&self.cards[self.free..self.len]);
        let mut open = room.iter().enumerate().filter(|(_, r)| **r > 0).peekable();
        while let Some((seat, r)) = open.next() {
            let r = usize::from(*r);
            if r > rest {
                return None;
            }
            if open.peek().is_none() {
                hands[seat] |= deck[..rest].iter().copied().collect::<CardSet>();
                rest = 0;
                break;
            }
            for _ in 0..r {
                let j = below(rng, rest as u32) as usize;
                rest -= 1;
                deck.swap(j, rest);
                hands[seat].insert(deck[rest]);
            }
        }
        (rest == 0).then_some(hands)
    }

    /// Places `cards[i..]` by backtracking; true when every card found a seat.
    fn assign(
        &self,
        i: usize,
        room: &mut [u8; MAX_SEATS],
        hands: &mut [CardSet; MAX_SEATS],
    ) -> bool {
        if i == self.len {
            return true;
        }
        let card = self.cards[i];
        for seat in self.allowed[i] {
            if room[seat] > 0 {
                room[seat] -= 1;
                hands[seat].insert(card);
                if self.assign(i + 1, room, hands) {
                    return true;
                }
                hands[seat].remove(card);
                room[seat] += 1;
            }
        }
        false
    }
}

impl View<'_> {
    /// A complete deal consistent with this view: the viewer's hand and every public fact are
    /// kept, and the unseen cards are dealt to the other seats at random, each receiving as many
    /// as it holds and none it has shown it cannot hold ([`View::possible`]), so the history
    /// of the deal is legal in it. Search bots sample
    /// these worlds ("determinisations"); nothing in the result comes from the other seats'
    /// real hands. To deal many worlds of one view, make its [`Worlds`] once.
    pub fn sample_world(&self, rng: &mut (impl rand_core::Rng + ?Sized)) -> Deal {
        Worlds::new(*self).sample(rng)
    }
}

#[cfg(test)]
mod tests {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;

    use super::*;
    use crate::{Action, Preset};

    fn hand(list: &str) -> CardSet {
        list.split_whitespace()
            .map(|c| c.parse::<Card>().expect("a card"))
            .collect()
    }

    /// The share of `trials` worlds of `view` in which `seat` holds all of `cards`.
    fn share_holding(view: View<'_>, seat: usize, cards: CardSet, trials: u32) -> f64 {
        let worlds = Worlds::new(view);
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let hits = (0..trials)
            .filter(|_| cards.is_subset(worlds.sample(&mut rng).hand(seat)))
            .count();
        hits as f64 / f64::from(trials)
    }

    #[test]
    fn uniform_without_voids() {
        // Seat 0 to lead in mini-misere-4: 18 unseen cards in three hands of 6, so seat 1
        // holds a given one a third of the time.
        let deal = Deal::random(
            Preset::MiniMisere4.ruleset(),
            3,
            &mut ChaCha8Rng::seed_from_u64(3),
        );
        let view = View::new(&deal, 0);
        let card = view.unseen().first().expect("unseen cards");
        let share = share_holding(view, 1, CardSet::EMPTY.with(card), 6000);
        assert!((share - 1.0 / 3.0).abs() < 0.03, "share {share}");
    }

    #[test]
    fn exact_with_one_seat_void_in_one_suit() {
        let hands = [
            "AS AH KH QH JH TH",
            "2H AD KD QD JD TD",
            "KS QS JS 2D AC KC",
            "TS 2S QC JC TC 2C",
        ]
        .map(hand);
        let mut deal = Deal::new(Preset::MiniMisere4.ruleset(), 3, &hands).expect("a deal");
        for card in ["AS", "2H", "KS", "2S"] {
            let action = Action::Play(card.parse().expect("a card"));
            deal.apply(action).expect("legal");
        }
        // Seat 1 has shown void in spades: the three unseen spades are shared by seats 2 and
        // 3 (five cards each, with seat 1's five non-spades among the ten others). Of the
        // C(10, 5) = 252 ways to fill seat 2 from the ten cards seats 2 and 3 share, C(7, 2) = 21
        // give it all three spades: 1/12 (picking seats uniformly would give 1/8).
        let view = View::new(&deal, 0);
        assert_eq!(view.voids(1), 1 << crate::Suit::Spades.index());
        let spades = hand("QS JS TS");
        assert!(spades.is_subset(view.unseen()));
        for seat in [2, 3] {
            let share = share_holding(view, seat, spades, 12_000);
            assert!(
                (share - 1.0 / 12.0).abs() < 0.015,
                "seat {seat}: share {share}"
            );
        }
        assert_eq!(share_holding(view, 1, hand("QS"), 500), 0.0);
    }
}
