//! Playing to the score of the game: where the game stands, and what a deal's outcome is worth
//! towards winning it.
//!
//! A search values a finished deal by the seats' deal scores ([`deal_rewards`]). Over a whole
//! game that is not what a player wants: the game is won by the best total once some seat
//! reaches the target (or after the last deal), so ten points matter less to a seat far ahead
//! than to one just behind, and in the game's last deal only the order of the totals counts.
//! [`Equity`] turns a deal's scores into each seat's chance of winning the game from there:
//!
//! - the rest of the game is played out many times from the totals the outcome leaves, each
//!   later deal's scores drawn from deals played by `heuristic` bots in these rules (seats
//!   rotated at random), and the game ends where the rules end it ([`Ruleset::winners`]);
//!   a shared win counts as a share;
//! - every outcome is played out against the *same* continuations (common random numbers), so
//!   two outcomes differ only by what they change, not by sampling noise;
//! - each seat's chance is rescaled so that its spread over the deal's likely outcomes is the
//!   spread of the deal scores themselves. A search tuned for deal scores then needs no other
//!   exploration constant: early in a game the values are the deal scores in all but scale,
//!   and late in it they are ranks.
//!
//! The totals are public: every seat sees the score sheet. Held-over Plus-Minus points and
//! Mura's bonus are left out of the look-ahead, and a draw's averaged score is rounded.

use std::collections::HashMap;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_core::shuffle::below;
use torite_core::{Deal, Game, MAX_SEATS, Ruleset};

use crate::reward::deal_rewards;
use crate::{Bot, Heuristic, play_deal};

/// Where a game stands before (and during) a deal: every seat's total and the deals scored.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Standing {
    /// Each seat's total so far (seats past the table's size are 0).
    pub totals: [i32; MAX_SEATS],
    /// How many deals have been scored.
    pub deals: u32,
}

impl Standing {
    /// Where `game` stands.
    #[must_use]
    pub fn of(game: &Game) -> Standing {
        let mut totals = [0; MAX_SEATS];
        for (t, g) in totals.iter_mut().zip(game.totals()) {
            *t = *g;
        }
        Standing {
            totals,
            deals: u32::try_from(game.results().len()).unwrap_or(u32::MAX),
        }
    }
}

/// What a deal reward ([`deal_rewards`], the more the better) is multiplied by to be points in
/// the ruleset's own terms, penalties positive: the reverse too.
fn own_terms(rules: &Ruleset) -> f64 {
    if rules.scoring.is_penalty() {
        -1.0
    } else {
        1.0
    }
}

/// How many continuations of the game each outcome is played out against.
const CONTINUATIONS: usize = 600;

/// The longest continuation, in deals (a game not over by then goes to its best total).
const HORIZON: usize = 40;

/// How many heuristic deals the later deals' scores are drawn from.
const SAMPLE_DEALS: u64 = 400;

/// How many of those deals measure the spread of a seat's chance over this deal's outcomes.
const SPREAD_DEALS: usize = 120;

/// The least spread of a chance of winning that the rescaling divides by.
const LEAST_SPREAD: f64 = 0.004;

/// The later deals' scores for one ruleset, and the continuations built from them.
#[derive(Clone, Debug)]
struct Futures {
    /// Each sample deal's scores, in the ruleset's own terms (penalties positive).
    deals: Vec<[i32; MAX_SEATS]>,
    /// `CONTINUATIONS` runs of `HORIZON` deals' scores each, seats rotated.
    runs: Vec<[i32; MAX_SEATS]>,
    /// The spread (standard deviation) of one seat's deal reward.
    points_spread: f64,
}

impl Futures {
    fn new(rules: Ruleset, seed: u64) -> Futures {
        let n = rules.players as usize;
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let sign = own_terms(&rules);
        let mut deals = Vec::new();
        let mut bots: Vec<Box<dyn Bot>> = (0..n)
            .map(|s| Box::new(Heuristic::new(seed + s as u64)) as Box<dyn Bot>)
            .collect();
        for d in 0..SAMPLE_DEALS {
            let mut deal = Deal::random(rules, (d as usize) % n, &mut rng);
            if play_deal(&mut deal, &mut bots).is_err() {
                continue;
            }
            let rewards = deal_rewards(&deal);
            let mut scores = [0; MAX_SEATS];
            for (s, r) in scores.iter_mut().zip(rewards).take(n) {
                *s = (sign * r).round() as i32;
            }
            deals.push(scores);
        }
        if deals.is_empty() {
            deals.push([0; MAX_SEATS]);
        }
        let mut runs = Vec::with_capacity(CONTINUATIONS * HORIZON);
        for _ in 0..CONTINUATIONS * HORIZON {
            let drawn = deals[below(&mut rng, deals.len() as u32) as usize];
            let turn = below(&mut rng, n as u32) as usize;
            let mut rotated = [0; MAX_SEATS];
            for (s, r) in rotated.iter_mut().enumerate().take(n) {
                *r = drawn[(s + turn) % n];
            }
            runs.push(rotated);
        }
        let values: Vec<f64> = deals
            .iter()
            .flat_map(|d| d[..n].iter().map(|v| f64::from(*v)))
            .collect();
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let var = values.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / values.len() as f64;
        Futures {
            deals,
            runs,
            points_spread: var.sqrt().max(1e-9),
        }
    }
}

/// A deal outcome's worth towards winning the game, for one standing (module documentation).
#[derive(Clone, Debug)]
pub struct Equity {
    rules: Ruleset,
    futures: Futures,
    standing: Standing,
    /// Each seat's chance of winning per outcome, keyed by the outcome's rewards' bits.
    chances: HashMap<[u64; MAX_SEATS], [f64; MAX_SEATS]>,
    /// Each seat's rescaling of its chance.
    gain: [f64; MAX_SEATS],
}

impl Equity {
    /// The equity for games of `rules`; `seed` makes its sample deals and continuations
    /// reproducible. It starts at the standing of a new game.
    #[must_use]
    pub fn new(rules: Ruleset, seed: u64) -> Equity {
        let mut equity = Equity {
            rules,
            futures: Futures::new(rules, seed),
            standing: Standing::default(),
            chances: HashMap::new(),
            gain: [1.0; MAX_SEATS],
        };
        equity.calibrate();
        equity
    }

    /// The rules it is for.
    #[must_use]
    pub const fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// The standing it values outcomes from.
    #[must_use]
    pub const fn standing(&self) -> Standing {
        self.standing
    }

    /// Values outcomes from `standing` from now on (nothing is redone if it is the same).
    pub fn set_standing(&mut self, standing: Standing) {
        if standing != self.standing {
            self.standing = standing;
            self.chances.clear();
            self.calibrate();
        }
    }

    /// Each seat's chance of winning the game if this deal ends with these `rewards`
    /// ([`deal_rewards`]), the rest of the game played out.
    pub fn chances(&mut self, rewards: &[f64; MAX_SEATS]) -> [f64; MAX_SEATS] {
        let key = rewards.map(f64::to_bits);
        if let Some(c) = self.chances.get(&key) {
            return *c;
        }
        let c = self.play_out(rewards);
        self.chances.insert(key, c);
        c
    }

    /// [`Equity::chances`] rescaled to the spread of the deal rewards (module documentation):
    /// what a search adds up in place of the rewards.
    pub fn values(&mut self, rewards: &[f64; MAX_SEATS]) -> [f64; MAX_SEATS] {
        let chances = self.chances(rewards);
        let mut out = [0.0; MAX_SEATS];
        for ((o, c), g) in out.iter_mut().zip(chances).zip(self.gain) {
            *o = c * g;
        }
        out
    }

    /// Plays the rest of the game out from the totals `rewards` leave, against every
    /// continuation.
    fn play_out(&self, rewards: &[f64; MAX_SEATS]) -> [f64; MAX_SEATS] {
        let n = self.rules.players as usize;
        let sign = own_terms(&self.rules);
        let mut after = self.standing.totals;
        for (t, r) in after.iter_mut().zip(rewards).take(n) {
            *t += (sign * r).round() as i32;
        }
        let played = self.standing.deals as usize + 1;
        let mut wins = [0.0; MAX_SEATS];
        if let Some(winners) = self.rules.winners(&after[..n], played) {
            let share = 1.0 / winners.len() as f64;
            for w in winners {
                wins[w] = share;
            }
            return wins;
        }
        for run in self.futures.runs.chunks_exact(HORIZON) {
            let mut totals = after;
            let mut winners = None;
            for (j, scores) in run.iter().enumerate() {
                for (t, s) in totals.iter_mut().zip(scores).take(n) {
                    *t += s;
                }
                winners = self.rules.winners(&totals[..n], played + j + 1);
                if winners.is_some() {
                    break;
                }
            }
            let winners = winners.unwrap_or_else(|| self.rules.leaders(&totals[..n]));
            let share = 1.0 / winners.len() as f64;
            for w in winners {
                wins[w] += share;
            }
        }
        let runs = CONTINUATIONS as f64;
        wins.map(|w| w / runs)
    }

    /// Sets each seat's rescaling from the spread of its chance over the sample deals'
    /// outcomes, played from the standing.
    fn calibrate(&mut self) {
        let n = self.rules.players as usize;
        let sign = own_terms(&self.rules);
        let outcomes: Vec<[f64; MAX_SEATS]> = self
            .futures
            .deals
            .iter()
            .take(SPREAD_DEALS)
            .map(|d| d.map(|s| sign * f64::from(s)))
            .collect();
        let mut sum = [0.0; MAX_SEATS];
        let mut squares = [0.0; MAX_SEATS];
        for outcome in &outcomes {
            let c = self.chances(outcome);
            for s in 0..n {
                sum[s] += c[s];
                squares[s] += c[s] * c[s];
            }
        }
        let count = outcomes.len() as f64;
        for s in 0..n {
            let mean = sum[s] / count;
            let spread = (squares[s] / count - mean * mean).max(0.0).sqrt();
            self.gain[s] = self.futures.points_spread / spread.max(LEAST_SPREAD);
        }
    }
}

#[cfg(test)]
mod tests {
    use torite_core::Preset;

    use super::*;

    fn rewards(scores: &[f64]) -> [f64; MAX_SEATS] {
        let mut out = [0.0; MAX_SEATS];
        out[..scores.len()].copy_from_slice(scores);
        out
    }

    /// In the deal that ends the game only the order of the totals counts: the seat that
    /// finishes alone on top has won, whatever the margin.
    #[test]
    fn in_the_last_deal_only_finishing_first_counts() {
        let rules = Preset::MiniMisere4.ruleset();
        let mut equity = Equity::new(rules, 1);
        equity.set_standing(Standing {
            totals: [22, 20, 10, 10, 0, 0],
            deals: 5,
        });
        let narrow = equity.chances(&rewards(&[3.0, 2.0, 1.0, 0.0]));
        assert_eq!(&narrow[..4], &[1.0, 0.0, 0.0, 0.0]);
        let overtaken = equity.chances(&rewards(&[3.0, 6.0, 1.0, 0.0]));
        assert_eq!(&overtaken[..4], &[0.0, 1.0, 0.0, 0.0]);
    }

    /// Before the end, more points are a better chance, and the chances of all seats add up
    /// to one.
    #[test]
    fn more_points_are_a_better_chance_of_winning() {
        let rules = Preset::MiniMisere4.ruleset();
        let mut equity = Equity::new(rules, 1);
        let low = equity.chances(&rewards(&[1.0, 2.0, 2.0, 1.0]));
        let high = equity.chances(&rewards(&[8.0, 2.0, 2.0, 1.0]));
        assert!(high[0] > low[0] + 0.05, "{low:?} {high:?}");
        for c in [low, high] {
            assert!((c.iter().sum::<f64>() - 1.0).abs() < 1e-9, "{c:?}");
        }
    }

    /// A penalty game (Mura): fewer penalty points are the better chance, and a seat that
    /// passes the limit with the most loses.
    #[test]
    fn in_a_penalty_game_fewer_points_are_better() {
        let rules = Preset::Mura4.ruleset();
        let mut equity = Equity::new(rules, 1);
        let clean = equity.chances(&rewards(&[0.0, -3.0, -3.0, -3.0]));
        let hit = equity.chances(&rewards(&[-4.0, -1.0, -2.0, -2.0]));
        assert!(clean[0] > hit[0], "{clean:?} {hit:?}");
    }

    /// Early in a game the values follow the deal scores: the rescaled chances rise with the
    /// points by about one for one.
    #[test]
    fn early_in_a_game_the_values_follow_the_points() {
        let rules = Preset::MiniMisere4.ruleset();
        let mut equity = Equity::new(rules, 1);
        let one = equity.values(&rewards(&[1.0, 2.0, 2.0, 1.0]))[0];
        let six = equity.values(&rewards(&[6.0, 2.0, 2.0, 1.0]))[0];
        let per_point = (six - one) / 5.0;
        assert!((0.5..2.0).contains(&per_point), "{per_point}");
    }

    /// The same seed gives the same chances.
    #[test]
    fn the_equity_is_reproducible() {
        let rules = Preset::MiniMisere4.ruleset();
        let outcome = rewards(&[2.0, 3.0, 1.0, 0.0]);
        let a = Equity::new(rules, 7).chances(&outcome);
        let b = Equity::new(rules, 7).chances(&outcome);
        assert_eq!(a, b);
    }
}
