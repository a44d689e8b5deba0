//! The transposition table: its keys, taken at trick boundaries, their normalisation by
//! relative rank, the bounds its entries keep and the hasher it uses (module documentation of
//! [`super`]).

use std::hash::{Hash, Hasher};

use super::*;

/// A transposition-table key: the position at a trick boundary, as seen by the root's reward.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) struct Key {
    hands: [u64; MAX_SEATS],
    state: u128,
}

impl Hash for Key {
    /// One word for the whole key (fewer hasher rounds than field by field).
    fn hash<H: Hasher>(&self, h: &mut H) {
        let mut x = (self.state as u64) ^ ((self.state >> 64) as u64).rotate_left(29);
        for hand in self.hands {
            x = (x.rotate_left(23) ^ hand).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        h.write_u64(x ^ (x >> 31));
    }
}

/// Bounds on the exact value of a position, and the best lead found there.
#[derive(Clone, Copy, Debug)]
pub(super) struct Entry {
    pub(super) lower: f64,
    pub(super) upper: f64,
    pub(super) best: Option<Action>,
}

impl Solver {
    /// Records what a search of the window `(alpha, beta)` found at a position whose value was
    /// known to lie in `[lo, hi]`: its fail-soft result `value` and the best move.
    pub(super) fn store(
        &mut self,
        key: Key,
        (lo, hi): (f64, f64),
        (alpha, beta): (f64, f64),
        value: f64,
        best: Option<Action>,
    ) {
        let (lower, upper) = if value <= alpha {
            (lo, value)
        } else if value >= beta {
            (value, hi)
        } else {
            (value, value)
        };
        if self.tt.len() >= self.max_entries {
            self.tt.clear();
        }
        self.tt
            .entry(key)
            .and_modify(|e| {
                e.lower = e.lower.max(lower);
                e.upper = e.upper.min(upper);
                if best.is_some() {
                    e.best = best;
                }
            })
            .or_insert(Entry { lower, upper, best });
    }

    /// The table key of a trick boundary (Play phase, no card in the trick).
    pub(super) fn key(&self, deal: &Deal) -> Key {
        let n = deal.players();
        let mut hands = [0; MAX_SEATS];
        for (s, h) in hands.iter_mut().enumerate().take(n) {
            *h = deal.hand(s).bits();
        }
        if let Some(normaliser) = &self.normaliser {
            normaliser.apply(&mut hands[..n]);
        }
        let lot = deal.lot();
        let trump: u128 = match deal.trump() {
            Trump::None => 0,
            Trump::Suit(s) => 1 + s as u128,
            Trump::JokerOnly => 5,
        };
        let mut state: u128 = self.root as u128
            | (deal.to_act() as u128) << 3
            | trump << 6
            | u128::from(lot.declarers) << 9
            | u128::from(lot.failed) << 14
            | u128::from(deal.may_declare_with_card()) << 19;
        let tricks = deal.tricks_won();
        let root = self.root;
        match deal.rules().scoring {
            Scoring::TrickTable { .. } => state |= u128::from(tricks[root]) << 20,
            Scoring::Mura { .. } => {
                state |= u128::from(tricks[root]) << 20;
                state |= u128::from(deal.card_points(root)) << 24;
            }
            _ => {
                let mut shift = 20;
                for (s, t) in tricks.iter().enumerate() {
                    state |= u128::from(*t) << shift;
                    state |= u128::from(deal.card_points(s).min(255)) << (shift + 4);
                    shift += 12;
                }
                // Cards whose value waits for the trump: who captured each Jack, Nine, Eight.
                if deal.trump() == Trump::None
                    && matches!(deal.rules().card_points, CardPoints::Jass { .. })
                {
                    let waiting = deal.rules().deck()
                        & CardSet::of_ranks(
                            1 << Rank::JACK.index()
                                | 1 << Rank::NINE.index()
                                | 1 << Rank::EIGHT.index(),
                        );
                    for card in waiting {
                        let owner = (0..n).find(|s| deal.won(*s).contains(card));
                        state |= owner.map_or(0, |s| s as u128 + 1) << shift;
                        shift += 3;
                    }
                }
            }
        }
        Key { hands, state }
    }
}

/// Replaces the cards of a trick boundary's hands (together every live card) by their
/// relative ranks, in rules where only the order of cards matters: no card points, no trump,
/// and the natural order (the bit order). In each suit the live cards, strongest first, take
/// the strongest ranks of the deck; the low card that wins when led keeps its identity, and so
/// does the joker. Positions with the same relative ranks play out identically, so they share
/// one table entry.
#[derive(Clone, Copy, Debug)]
pub(super) struct Normaliser {
    /// The deck's ranks that take part (all but the low card that wins when led).
    deck_lane: u16,
    /// The deck's ranks, strongest first: the k-th strongest live card becomes `top[k]`.
    top: [u8; 16],
}

impl Normaliser {
    /// The normaliser for `rules`, if only the order of their cards matters.
    pub(super) fn new(rules: &Ruleset) -> Option<Normaliser> {
        if rules.card_points != CardPoints::None
            || rules.trump != TrumpRule::NoTrump
            || rules.ranking != Ranking::AceHigh
        {
            return None;
        }
        let special = led_low_rank(rules).map_or(0, |low| 1u16 << low.index());
        let deck_lane = rules.ranks & !special;
        let mut top = [0u8; 16];
        let mut rest = deck_lane;
        let mut k = 0;
        while rest != 0 {
            let r = 15 - rest.leading_zeros() as u8;
            rest &= !(1 << r);
            top[k] = r;
            k += 1;
        }
        Some(Normaliser { deck_lane, top })
    }

    /// Normalises `sets`, the hands of a trick boundary.
    pub(super) fn apply(&self, sets: &mut [u64]) {
        let deck_lane = self.deck_lane;
        let live: u64 = sets.iter().fold(0, |m, h| m | h);
        for suit in 0..4 {
            let shift = 16 * suit;
            let lane = ((live >> shift) as u16) & deck_lane;
            if lane == 0 {
                continue;
            }
            // Nothing to do when no deck rank above the lowest live one is gone.
            let lowest = lane & lane.wrapping_neg();
            if deck_lane & !lane & !(lowest - 1) == 0 {
                continue;
            }
            for h in sets.iter_mut() {
                let mut bits = ((*h >> shift) as u16) & deck_lane;
                if bits == 0 {
                    continue;
                }
                let mut out = 0u16;
                while bits != 0 {
                    let f = bits.trailing_zeros();
                    bits &= bits - 1;
                    // Its place among the live cards, from the strongest.
                    let above = (u32::from(lane) >> (f + 1)).count_ones() as usize;
                    out |= 1 << self.top[above];
                }
                *h = (*h & !(u64::from(deck_lane) << shift)) | u64::from(out) << shift;
            }
        }
    }
}

/// A fast non-cryptographic hasher (the multiply-rotate scheme of rustc's FxHash) for the
/// transposition table's fixed-size keys.
#[derive(Clone, Copy, Default, Debug)]
pub(super) struct FxHasher {
    hash: u64,
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(buf));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.hash = (self.hash.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u128(&mut self, n: u128) {
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}
