//! The one seed scheme of a table: every deal and every Molotow draw of a game from one seed.
//!
//! A table seed `N` stands for two ChaCha8 streams (`rand_chacha`'s `seed_from_u64`, whose
//! output is fixed by the algorithm, with the engine's own shuffle and bounded draws of
//! [`crate::shuffle`], so a seed means the same game on every machine and version):
//!
//! - **the deals**: the stream seeded `N`. Deal *i* of the game is the *(i+1)*-th
//!   [`crate::shuffle::deal_hands`] from it: the deck in bit order shuffled, seat `s` taking the
//!   `s`-th run of cards. Deal 0 is therefore the deal `torite deal ID --seed N` prints, and the
//!   deals are those `torite play --seed N` has always dealt.
//! - **the draws**: the stream seeded `N ^ 0xD1CE`. When a deal needs a draw (Molotow's three
//!   seats tied on points), the seat that drew highest is `tied[below(tied.len())]`, the next
//!   bounded draw from that stream, the tied seats in seat order: the *k*-th draw of a game is
//!   the *k*-th draw from the stream, whichever deal needed it.
//!
//! Deals and draws take separate streams so that a deal does not depend on how the deals
//! before it were played. Golden tests pin the scheme.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;

use crate::card::CardSet;
use crate::deal::Seat;
use crate::ruleset::{MAX_SEATS, Ruleset};
use crate::seats::SeatSet;
use crate::shuffle::{below, deal_hands};

/// What the table seed is mixed with to seed the stream of draws.
pub const DRAW_STREAM: u64 = 0xD1CE;

/// The deals and draws of one table seed, in the order a game uses them (module
/// documentation).
///
/// ```
/// use torite_core::{Preset, SeatSet, Seeds};
/// let rules = Preset::MolotowJass.ruleset();
/// let mut seeds = Seeds::new(7);
/// let first = seeds.next_hands(&rules);
/// assert_eq!(first, Seeds::hands(7, &rules, 0));
/// assert_eq!(seeds.next_hands(&rules), Seeds::hands(7, &rules, 1));
/// let tied = SeatSet::from_bits(0b1011);
/// assert!(tied.contains(seeds.next_draw(tied).unwrap()));
/// ```
#[derive(Clone, Debug)]
pub struct Seeds {
    seed: u64,
    deals: ChaCha8Rng,
    draws: ChaCha8Rng,
    dealt: usize,
    drawn: usize,
}

impl Seeds {
    /// The streams of table seed `seed`, before the first deal.
    #[must_use]
    pub fn new(seed: u64) -> Seeds {
        Seeds {
            seed,
            deals: ChaCha8Rng::seed_from_u64(seed),
            draws: ChaCha8Rng::seed_from_u64(seed ^ DRAW_STREAM),
            dealt: 0,
            drawn: 0,
        }
    }

    /// The table seed.
    #[must_use]
    pub const fn seed(&self) -> u64 {
        self.seed
    }

    /// How many deals have been dealt from the stream.
    #[must_use]
    pub const fn dealt(&self) -> usize {
        self.dealt
    }

    /// How many draws have been made from the stream.
    #[must_use]
    pub const fn drawn(&self) -> usize {
        self.drawn
    }

    /// The hands of the next deal, one per seat of `rules` (entries past the seats are empty).
    pub fn next_hands(&mut self, rules: &Ruleset) -> [CardSet; MAX_SEATS] {
        self.dealt += 1;
        deal_hands(rules, &mut self.deals)
    }

    /// The seat among `tied` that draws the highest card, from the next draw; `None` (and no
    /// draw used) when no seat is tied.
    pub fn next_draw(&mut self, tied: SeatSet) -> Option<Seat> {
        if tied.is_empty() {
            return None;
        }
        self.drawn += 1;
        tied.nth(below(&mut self.draws, tied.len() as u32) as usize)
    }

    /// The hands of deal `index` of a game with table seed `seed`.
    #[must_use]
    pub fn hands(seed: u64, rules: &Ruleset, index: usize) -> [CardSet; MAX_SEATS] {
        let mut seeds = Seeds::new(seed);
        for _ in 0..index {
            let _ = seeds.next_hands(rules);
        }
        seeds.next_hands(rules)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ruleset::Preset;

    fn hands(rules: &Ruleset, hands: &[CardSet; MAX_SEATS]) -> Vec<String> {
        hands[..rules.players as usize]
            .iter()
            .map(ToString::to_string)
            .collect()
    }

    /// Golden: these hands are what `torite deal mini-misere-4 --seed 1` has always printed
    /// (deal 0) and what `torite play --seed 1` deals next (deal 1).
    #[test]
    fn seed_to_deals_is_pinned() {
        let rules = Preset::MiniMisere4.ruleset();
        let mut seeds = Seeds::new(1);
        let deal0 = seeds.next_hands(&rules);
        let deal1 = seeds.next_hands(&rules);
        assert_eq!(hands(&rules, &deal0), GOLDEN_MM4_SEED1_DEAL0);
        assert_eq!(hands(&rules, &deal1), GOLDEN_MM4_SEED1_DEAL1);
        assert_eq!(seeds.dealt(), 2);
        assert_eq!(Seeds::hands(1, &rules, 1), deal1);
        let molotow = Preset::MolotowJass.ruleset();
        assert_eq!(
            hands(&molotow, &Seeds::hands(42, &molotow, 0)),
            GOLDEN_MOLOTOW_SEED42_DEAL0
        );
    }

    /// Golden: the first draws of seed 1 among seats 0, 2 and 3.
    #[test]
    fn seed_to_draws_is_pinned() {
        let mut seeds = Seeds::new(1);
        let tied = SeatSet::from_bits(0b1101);
        let draws: Vec<Seat> = (0..6).filter_map(|_| seeds.next_draw(tied)).collect();
        assert_eq!(draws, GOLDEN_DRAWS_SEED1);
        assert_eq!(seeds.drawn(), 6);
        // No tie, no draw: the stream is not used.
        assert_eq!(seeds.next_draw(SeatSet::EMPTY), None);
        assert_eq!(seeds.drawn(), 6);
        // The draws do not move the deals.
        let rules = Preset::MolotowJass.ruleset();
        assert_eq!(seeds.next_hands(&rules), Seeds::hands(1, &rules, 0));
    }

    const GOLDEN_MM4_SEED1_DEAL0: [&str; 4] = [
        "JS KH JH KD QD JD",
        "AS 2S TH AD JC 2C",
        "QS 2H 2D AC KC TC",
        "KS TS AH QH TD QC",
    ];
    const GOLDEN_MM4_SEED1_DEAL1: [&str; 4] = [
        "QS AH 2H KD QD KC",
        "TS KH AD JD 2D QC",
        "KS 2S QH TH AC 2C",
        "AS JS JH TD JC TC",
    ];
    const GOLDEN_MOLOTOW_SEED42_DEAL0: [&str; 4] = [
        "QS 8S 7S 6S QH 6H 9D 9C 6C",
        "JS AH 8H TD 7D AC QC 8C 7C",
        "KS 9S KH JH 9H AD KD KC JC",
        "AS TS TH 7H QD JD 8D 6D TC",
    ];
    const GOLDEN_DRAWS_SEED1: [Seat; 6] = [0, 2, 2, 2, 0, 3];
}
