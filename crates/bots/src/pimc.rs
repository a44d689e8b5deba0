//! The `pimc` bot: perfect-information Monte Carlo.
//!
//! For each decision it samples worlds consistent with its [`View`] ([`Worlds`]: the unseen
//! cards dealt at random to the other seats, respecting the voids they have shown),
//! solves each world exactly with the [`Solver`] for every legal action (the paranoid value for
//! the seat to act), and plays the action with the best mean value over the worlds. Ties go to
//! the first action in [`torite_core::ActionSet::iter`] order. A single legal action is
//! returned at once, without sampling.
//!
//! PIMC's known weaknesses apply: it assumes it will learn every hand after this decision
//! ("strategy fusion") and never plays to hide or gather information. The paranoid solver
//! also assumes the other seats cooperate against it, which makes it cautious.
//!
//! # Budget
//!
//! [`Budget::Iterations`]`(n)` samples `n` worlds (reproducible whatever the machine);
//! [`Budget::Millis`]`(ms)` samples worlds until `ms` milliseconds have passed (at least one).
//! Each bot has its own seeded ChaCha8 generator, so a given seed and iteration budget always
//! plays the same way.
//!
//! Exact solving is cheap at the end of a deal and explodes towards its start. Measured in a
//! release build on the (shared, two-core) development machine, solving one world for the seat
//! to act takes a median of about 0.6 ms for a whole `mini-misere-4` deal (6 cards each),
//! 2 ms for `mittlere-jass` or `mura-4` with 6 cards each, but some 40 ms with 7 and over a
//! second with 8; `molotow-jass` already needs 30 ms with 5 cards each. So every world's
//! search is capped at [`WORLD_NODES`] positions (a count, not a time, so play stays
//! reproducible): when a world cannot be solved within the cap, sampling stops and the worlds
//! solved so far decide; when not even the first can be, the bot plays that decision as the
//! [`Heuristic`]. In practice Mini Misère is searched from the first card, the 9- to 12-card
//! games from about the middle of the deal.
//!
//! The default budget, [`DEFAULT_WORLDS`] worlds, was chosen by measurement (same machine):
//! in `mini-misere-4` against three `heuristic` seats, over the same 150 duplicate deals (600
//! deals played), `pimc:5`, `pimc:10`, `pimc:20` and `pimc:40` scored +0.79, +0.93, +0.96 and
//! +0.99 points a deal above the heuristic seats (95% intervals about ±0.18): the gain flattens
//! out after 10 to 20 worlds, while the mean time per decision grows with the worlds (4, 8, 14
//! and 67 ms; since the solver plays the last three tricks out on the bare hands, 1.6, 3.8, 7.4
//! and 15 ms: `torite arena --ruleset mini-misere-4 --bots pimc:N,heuristic,heuristic,heuristic
//! --deals 40 --seed 3 --threads 1`). With 20 worlds the slowest decisions seen were about 0.5 s (the 1989 Lot
//! question, both answers solved on whole 7-card deals) and 0.6 s (`mittlere-jass` at 8 cards,
//! the cap reached), so every decision stays under a second.

use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_core::{Action, View, Worlds};

use crate::solver::Solver;
use crate::{Bot, Budget, Heuristic};

/// The default number of worlds per decision.
pub const DEFAULT_WORLDS: u32 = 20;

/// The most positions one world's search may visit (for all the legal actions together) before
/// the bot gives up on it: some 50 to 100 ms in a release build.
pub const WORLD_NODES: u64 = 300_000;

/// The perfect-information Monte Carlo player described in the module documentation.
#[derive(Debug, Clone)]
pub struct Pimc {
    budget: Budget,
    rng: ChaCha8Rng,
    solver: Solver,
    fallback: Heuristic,
}

impl Pimc {
    /// A PIMC bot with the given budget (`None`: [`DEFAULT_WORLDS`] worlds), seeded.
    #[must_use]
    pub fn new(budget: Option<Budget>, seed: u64) -> Pimc {
        Pimc {
            budget: budget.unwrap_or(Budget::Iterations(DEFAULT_WORLDS)),
            rng: ChaCha8Rng::seed_from_u64(seed),
            solver: Solver::new(),
            fallback: Heuristic::new(seed),
        }
    }

    /// The mean value of every legal action over the sampled worlds that could be solved, in
    /// [`torite_core::ActionSet::iter`] order, and the number of those worlds (0: none could
    /// be solved within [`WORLD_NODES`], and the values are meaningless).
    pub fn evaluate(&mut self, view: &View<'_>) -> (Vec<(Action, f64)>, u32) {
        let legal = view.legal_actions();
        let mut sums: Vec<(Action, f64)> = legal.iter().map(|a| (a, 0.0)).collect();
        let start = Instant::now();
        let mut worlds = 0u32;
        let dealer = Worlds::new(*view);
        // One decision's worlds share little with the next decision's: start afresh.
        self.solver.clear();
        loop {
            let world = dealer.sample(&mut self.rng);
            let Some(values) = self.solver.try_action_values(&world, WORLD_NODES) else {
                break;
            };
            for ((_, sum), (_, v)) in sums.iter_mut().zip(values) {
                *sum += v;
            }
            worlds += 1;
            let done = match self.budget {
                Budget::Iterations(n) => worlds >= n,
                Budget::Millis(ms) => start.elapsed() >= Duration::from_millis(u64::from(ms)),
            };
            if done {
                break;
            }
        }
        if worlds > 0 {
            for (_, sum) in &mut sums {
                *sum /= f64::from(worlds);
            }
        }
        (sums, worlds)
    }
}

impl Bot for Pimc {
    fn name(&self) -> &str {
        "pimc"
    }

    fn act(&mut self, view: &View<'_>) -> Action {
        let legal = view.legal_actions();
        if legal.len() == 1 {
            return legal.nth(0).unwrap_or(Action::Pass);
        }
        let (values, worlds) = self.evaluate(view);
        if worlds == 0 {
            return self.fallback.act(view);
        }
        let mut best = values[0];
        for &(action, value) in &values[1..] {
            if value > best.1 {
                best = (action, value);
            }
        }
        best.0
    }
}

#[cfg(test)]
mod tests {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;
    use torite_core::{Deal, Preset, View};

    use super::*;
    use crate::make_bot;

    /// A deal of `preset` played by heuristic bots until the seat to act holds `cards` cards.
    fn position(preset: Preset, seed: u64, cards: usize) -> Deal {
        let mut deal = Deal::random(preset.ruleset(), 0, &mut ChaCha8Rng::seed_from_u64(seed));
        let mut bots: Vec<_> = (0..deal.players())
            .map(|s| make_bot("heuristic", s as u64).expect("a bot"))
            .collect();
        while !deal.is_over() && deal.hand(deal.to_act()).len() > cards {
            let seat = deal.to_act();
            crate::step(&mut deal, bots[seat].as_mut()).expect("legal");
        }
        deal
    }

    #[test]
    fn plays_legal_reproducible_actions() {
        for (preset, cards) in [
            (Preset::MiniMisere4, 3),
            (Preset::MittlereJass, 3),
            (Preset::Mura4, 3),
            (Preset::MiniMisere5_1989, 2),
        ] {
            for seed in 0..3 {
                let deal = position(preset, seed, cards);
                if deal.is_over() {
                    continue;
                }
                let view = View::new(&deal, deal.to_act());
                let a = Pimc::new(Some(Budget::Iterations(4)), seed).act(&view);
                let b = Pimc::new(Some(Budget::Iterations(4)), seed).act(&view);
                assert!(deal.is_legal(a), "{a} in {deal:?}");
                assert_eq!(a, b);
            }
        }
    }

    #[test]
    fn averages_the_worlds() {
        let deal = position(Preset::Mura4, 7, 3);
        let view = View::new(&deal, deal.to_act());
        let mut bot = Pimc::new(Some(Budget::Iterations(5)), 1);
        let (values, worlds) = bot.evaluate(&view);
        assert_eq!(worlds, 5);
        assert_eq!(values.len(), view.legal_actions().len());
        // Mura rewards are penalties: between -(tricks + 1) and 0.
        for (_, v) in values {
            assert!((-10.0..=0.0).contains(&v));
        }
    }

    #[test]
    fn a_time_budget_samples_at_least_one_world() {
        let deal = position(Preset::MiniMisere4, 2, 2);
        let view = View::new(&deal, deal.to_act());
        let mut bot = Pimc::new(Some(Budget::Millis(1)), 1);
        assert!(bot.evaluate(&view).1 >= 1);
    }
}
