//! Seeded, reproducible dealing: the project's own Fisher–Yates shuffle over any
//! [`rand_core::Rng`].
//!
//! The shuffle draws bounded integers with its own unbiased method (Lemire's multiply-and-reject
//! over `next_u32`), so a seed gives the same deal on every machine and with every version of
//! the `rand` crates: only the generator's raw output is used, and that is fixed by its
//! algorithm (ChaCha8 for seeded deals, see `torite deal`). Golden tests pin it.

use rand_core::Rng;

use crate::card::{Card, CardSet};
use crate::ruleset::{MAX_SEATS, Ruleset};

/// A uniform integer in `0..n` (`n > 0`).
pub fn below(rng: &mut (impl Rng + ?Sized), n: u32) -> u32 {
    debug_assert!(n > 0);
    let mut m = u64::from(rng.next_u32()) * u64::from(n);
    if (m as u32) < n {
        let threshold = n.wrapping_neg() % n;
        while (m as u32) < threshold {
            m = u64::from(rng.next_u32()) * u64::from(n);
        }
    }
    (m >> 32) as u32
}

/// Shuffles `cards` in place, uniformly (Fisher–Yates, from the end).
pub fn shuffle(rng: &mut (impl Rng + ?Sized), cards: &mut [Card]) {
    for i in (1..cards.len()).rev() {
        let j = below(rng, i as u32 + 1) as usize;
        cards.swap(i, j);
    }
}

/// Deals the ruleset's deck into equal hands, uniformly at random: the deck in bit order is
/// shuffled and seat `s` receives the `s`-th run of cards.
pub fn deal_hands(rules: &Ruleset, rng: &mut (impl Rng + ?Sized)) -> [CardSet; MAX_SEATS] {
    let deck = rules.deck();
    let mut cards = [Card::JOKER; 64];
    let n = deck.len();
    for (slot, card) in cards.iter_mut().zip(deck) {
        *slot = card;
    }
    shuffle(rng, &mut cards[..n]);
    let share = rules.tricks();
    let mut hands = [CardSet::EMPTY; MAX_SEATS];
    for (seat, hand) in hands.iter_mut().take(rules.players as usize).enumerate() {
        *hand = cards[seat * share..(seat + 1) * share]
            .iter()
            .copied()
            .collect();
    }
    hands
}
