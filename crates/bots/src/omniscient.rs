//! The `omniscient` bot: a cheating reference player that sees every hand.
//!
//! It runs the [`Ismcts`] tree search with the *true* deal, which the arena hands it through
//! [`Bot::observe_true_deal`] before each decision, as every iteration's determinisation:
//! perfect-information Monte Carlo tree search, each seat playing for its own score (max^n
//! style), with the same exploration constant and, by default, the same 10,000 iterations as
//! `ismcts`. It is not a fair opponent and exists only as a reference: the difference between
//! it and `ismcts` is what knowing every hand is worth to the same search. Nothing but the
//! arena passes it the true deal.
//!
//! # Why not the exact solver
//!
//! An earlier `omniscient` played the [`crate::solver::Solver`]'s exact solution of the true
//! deal. That solution is *paranoid* (it assumes every other seat plays against it), and
//! against a field of `heuristic` bots, who play for themselves, it is a poor reference: it
//! scored below `ismcts`, which does not see the hands, in every Mini Misère preset, and below
//! the heuristic itself in `mini-misere-5-1989`. In the 9- and 12-card games the solver cannot
//! finish early decisions within a second, so it could not even be played over 2,000 deals.
//! Measured with the strength example (`cargo run --release -p torite-bots --example
//! strength -- --deals 100 --best heuristic --reference omniscient PRESET`; the gain is the
//! mean score over `heuristic`'s in the same seats of the same deals, ± 95%):
//!
//! | `omniscient` playing | `mittlere-jass` gain | `mini-misere-4` gain |
//! |---|---|---|
//! | tree search, 3,000 iterations | +0.75 ± 0.11 | +1.14 ± 0.21 |
//! | the paranoid solver once it solves within 200,000 positions, tree search before | +0.52 ± 0.13 | +0.69 ± 0.18 |
//!
//! # The budget, and how it was chosen
//!
//! Over 200 deals (same command, `--reference omniscient:N`):
//!
//! | iterations | `mittlere-jass` | `mini-misere-4` | `molotow-jass` | ms a decision (mittlere) |
//! |---|---|---|---|---|
//! | 1,000 | +0.80 ± 0.06 | +1.18 ± 0.15 | +0.55 ± 0.06 | 0.8 |
//! | 10,000 | +0.87 ± 0.06 | +1.16 ± 0.15 | +0.58 ± 0.06 | 8.8 |
//! | 30,000 | +0.80 ± 0.07 | +1.12 ± 0.15 | +0.55 ± 0.06 | 29 |
//!
//! Strength levels off by 1,000 iterations: with every hand known there is no
//! determinisation noise, and what limits the search is its random rollouts. The default is
//! 10,000 iterations, `ismcts`'s own budget, so that the two differ only in what they know.
//!
//! In Mini Misère the exact reference is `maxn` ([`crate::maxn`]), the max^n solution of the
//! true deal rather than a search of it (its measurements are in `docs/STATS.md`).
//!
//! When it has not been shown the true deal of the position it is asked about (a driver other
//! than the arena, such as [`crate::play_deal`] or a game server), it cannot cheat and
//! searches one world sampled from its [`View`] instead.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_core::{Action, Deal, View};

use crate::ismcts::Ismcts;
use crate::{Bot, Budget};

/// The default tree-search budget per decision.
pub const DEFAULT_BUDGET: Budget = Budget::Iterations(10_000);

/// The cheating perfect-information player described in the module documentation.
#[derive(Debug, Clone)]
pub struct Omniscient {
    search: Ismcts,
    truth: Option<Deal>,
    rng: ChaCha8Rng,
}

impl Omniscient {
    /// An omniscient bot with the default budget; `seed` seeds its search.
    #[must_use]
    pub fn new(seed: u64) -> Omniscient {
        Omniscient::with_budget(seed, DEFAULT_BUDGET)
    }

    /// An omniscient bot whose tree search has `budget` per decision.
    #[must_use]
    pub fn with_budget(seed: u64, budget: Budget) -> Omniscient {
        Omniscient {
            search: Ismcts::with_budget(seed, budget),
            truth: None,
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x6f6d_6e69),
        }
    }
}

/// Whether `deal` is the position `view` shows (same seat to act, hand and public history).
pub(crate) fn matches(deal: &Deal, view: &View<'_>) -> bool {
    !deal.is_over()
        && deal.to_act() == view.to_act()
        && deal.hand(view.seat()) == view.hand()
        && deal.played() == view.played()
        && deal.current_trick() == view.current_trick()
        && deal.phase() == view.phase()
        && deal.lot() == view.lot()
}

impl Bot for Omniscient {
    fn name(&self) -> &str {
        "omniscient"
    }

    fn observe_true_deal(&mut self, deal: &Deal) {
        self.truth = Some(deal.clone());
    }

    fn act(&mut self, view: &View<'_>) -> Action {
        let legal = view.legal_actions();
        if legal.len() == 1 {
            return legal.nth(0).unwrap_or(Action::Pass);
        }
        let deal = match self.truth.take() {
            Some(deal) if matches(&deal, view) => deal,
            _ => view.sample_world(&mut self.rng),
        };
        self.search.search_known(&deal)
    }
}

#[cfg(test)]
mod tests {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;
    use torite_core::shuffle::below;
    use torite_core::{Deal, MAX_SEATS, Preset, View};

    use super::*;
    use crate::reward::deal_rewards;

    /// Every max^n value `deal` may have (each seat playing for its own [`deal_rewards`]),
    /// whichever way seats break ties between actions worth the same to them; a superset: a
    /// child counts when its best possible value to the seat reaches the others' worst.
    fn max_n(deal: &Deal) -> Vec<[f64; MAX_SEATS]> {
        if deal.is_over() {
            return vec![deal_rewards(deal)];
        }
        let seat = deal.to_act();
        let children: Vec<Vec<[f64; MAX_SEATS]>> = deal
            .legal_actions()
            .iter()
            .map(|action| {
                let mut child = deal.clone();
                child.apply(action).expect("legal");
                max_n(&child)
            })
            .collect();
        let floor = children
            .iter()
            .map(|c| c.iter().map(|v| v[seat]).fold(f64::INFINITY, f64::min))
            .fold(f64::NEG_INFINITY, f64::max);
        let mut out: Vec<[f64; MAX_SEATS]> = Vec::new();
        for c in children {
            if c.iter().any(|v| v[seat] >= floor) {
                for v in c {
                    if !out.contains(&v) {
                        out.push(v);
                    }
                }
            }
        }
        out
    }

    /// The action that is best for the seat to act under max^n however ties are broken, if
    /// there is one.
    fn max_n_action(deal: &Deal) -> Option<Action> {
        let seat = deal.to_act();
        let ranges: Vec<(Action, f64, f64)> = deal
            .legal_actions()
            .iter()
            .map(|action| {
                let mut child = deal.clone();
                child.apply(action).expect("legal");
                let values = max_n(&child);
                let low = values.iter().map(|v| v[seat]).fold(f64::INFINITY, f64::min);
                let high = values
                    .iter()
                    .map(|v| v[seat])
                    .fold(f64::NEG_INFINITY, f64::max);
                (action, low, high)
            })
            .collect();
        ranges.iter().find_map(|&(action, low, _)| {
            ranges
                .iter()
                .all(|&(other, _, high)| other == action || low > high)
                .then_some(action)
        })
    }

    #[test]
    fn plays_the_max_n_solution_of_the_true_deal_in_endings() {
        let mut checked = 0;
        for (i, preset) in Preset::ALL.into_iter().enumerate() {
            for seed in 0..48 {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut deal = Deal::random(
                    preset.ruleset(),
                    i % usize::from(preset.ruleset().players),
                    &mut rng,
                );
                // Play at random into a two-card ending.
                while !deal.is_over() && deal.hand(deal.to_act()).len() > 2 {
                    let legal = deal.legal_actions();
                    let pick = below(&mut rng, legal.len() as u32) as usize;
                    deal.apply(legal.nth(pick).expect("in range"))
                        .expect("legal");
                }
                if deal.is_over() {
                    continue;
                }
                let Some(best) = max_n_action(&deal) else {
                    continue;
                };
                let mut bot = Omniscient::new(seed);
                bot.observe_true_deal(&deal);
                let chose = bot.act(&View::new(&deal, deal.to_act()));
                assert_eq!(chose, best, "{} seed {seed}: {deal:?}", preset.id());
                checked += 1;
            }
        }
        assert!(checked >= 30, "only {checked} unambiguous endings");
    }

    #[test]
    fn without_the_true_deal_it_still_plays_legally() {
        let mut rng = ChaCha8Rng::seed_from_u64(6);
        let mut deal = Deal::random(Preset::Mura4.ruleset(), 0, &mut rng);
        while deal.hand(deal.to_act()).len() > 3 {
            let a = deal.legal_actions().nth(0).expect("in progress");
            deal.apply(a).expect("legal");
        }
        let stale = deal.clone();
        let a = deal.legal_actions().nth(0).expect("in progress");
        deal.apply(a).expect("legal");
        let mut bot = Omniscient::new(1);
        bot.observe_true_deal(&stale); // an old position is ignored
        let action = bot.act(&View::new(&deal, deal.to_act()));
        assert!(deal.is_legal(action));
    }
}
