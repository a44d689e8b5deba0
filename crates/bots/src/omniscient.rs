//! The `omniscient` bot: a cheating reference player that sees every hand.
//!
//! It plays the [`Solver`]'s best action on the *true* deal, which the arena hands it through
//! [`Bot::observe_true_deal`] before each decision. It is not a fair opponent and exists only
//! as a reference: how far the other bots are from perfect play with all cards known (an upper
//! bound on what any honest bot can hope for). Nothing but the arena passes it the true deal.
//!
//! Solving a whole deal exactly is out of reach early in the 9- and 12-card games (Jass, Mura),
//! so each decision's search is capped at [`DECISION_NODES`] positions (a count, so results do
//! not depend on the machine); a decision that cannot be solved within it is played as the
//! [`Heuristic`] would. In Mini Misère every decision is solved; in the longer games the bot
//! is perfect from about the middle of the deal on.
//!
//! When it has not been shown the true deal of the position it is asked about (a driver other
//! than the arena, such as [`crate::play_deal`] or a game server), it cannot cheat and solves
//! one world sampled from its [`View`] instead, i.e. plays as a one-world
//! [`crate::pimc::Pimc`].

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_core::{Action, Deal, View};

use crate::solver::Solver;
use crate::{Bot, Heuristic};

/// The most positions one decision's search may visit before the bot plays as the heuristic:
/// about a second in a release build.
pub const DECISION_NODES: u64 = 5_000_000;

/// The cheating perfect-information player described in the module documentation.
#[derive(Debug, Clone)]
pub struct Omniscient {
    solver: Solver,
    truth: Option<Deal>,
    rng: ChaCha8Rng,
    fallback: Heuristic,
}

impl Omniscient {
    /// An omniscient bot; `seed` only matters without the true deal.
    #[must_use]
    pub fn new(seed: u64) -> Omniscient {
        Omniscient {
            solver: Solver::new(),
            truth: None,
            rng: ChaCha8Rng::seed_from_u64(seed),
            fallback: Heuristic::new(seed),
        }
    }
}

/// Whether `deal` is the position `view` shows (same seat to act, hand and public history).
fn matches(deal: &Deal, view: &View<'_>) -> bool {
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
        match self.solver.try_best_action(&deal, DECISION_NODES) {
            Some((action, _)) => action,
            None => self.fallback.act(view),
        }
    }
}

#[cfg(test)]
mod tests {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;
    use torite_core::{Deal, Preset, View};

    use super::*;

    #[test]
    fn plays_the_solver_best_action_on_the_true_deal() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut deal = Deal::random(Preset::MittlereJass.ruleset(), 0, &mut rng);
        // Play into the endgame first (first legal action each time).
        while deal.hand(deal.to_act()).len() > 3 {
            let a = deal.legal_actions().nth(0).expect("in progress");
            deal.apply(a).expect("legal");
        }
        let mut bot = Omniscient::new(1);
        while !deal.is_over() {
            let seat = deal.to_act();
            bot.observe_true_deal(&deal);
            let action = bot.act(&View::new(&deal, seat));
            if deal.legal_actions().len() > 1 {
                let (_, best) = Solver::new().best_action(&deal);
                let mut child = deal.clone();
                child.apply(action).expect("legal");
                assert_eq!(Solver::new().solve(&child, seat), best);
            }
            deal.apply(action).expect("legal");
        }
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
