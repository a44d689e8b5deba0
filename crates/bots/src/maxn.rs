//! The `maxn` bot: the exact omniscient reference for Mini Misère.
//!
//! It **sees every hand**: the arena shows it the true deal through [`Bot::observe_true_deal`]
//! before each decision, and it plays the exact max^n solution of that deal
//! ([`crate::solver::maxn`]): every seat maximising its own deal score, each knowing all the
//! cards, ties broken as that module documents. It is a reference for measuring the other bots
//! ("how far is this bot from exact play with every card known?"), never an opponent: it is
//! listed among [`crate::REFERENCE_BOTS`], not [`crate::BOT_NAMES`], and no level, server table
//! or hint uses it.
//!
//! Unlike `omniscient` ([`crate::omniscient`], tree search on the true deal with `ismcts`'s
//! budget), its play does not depend on a budget or a seed: the same position always gets the
//! same action. The Lot decisions (`lot`, `pass`) are solved with the rest of the deal.
//!
//! It is exact only where the max^n search handles the rules ([`MaxN::handles`]: Mini Misère).
//! In the other games, whose whole deals it could not solve in time, it plays as `omniscient`
//! (the same tree search on the true deal, with that bot's budget), so that a lineup of any
//! preset still runs; the strength tables use it for Mini Misère only.
//!
//! When it has not been shown the true deal of the position it is asked about (a driver other
//! than the arena), it cannot cheat and solves one world sampled from its [`View`] instead.
//!
//! Its table is kept between decisions and deals and shared by every `maxn` bot on the same
//! thread (entries stay valid: each holds a whole position, and max^n values do not depend on
//! which seat asks), so the arena's rotations of one deal, each with a new bot, solve the
//! deal's start once. It is bounded by [`crate::solver::maxn::DEFAULT_ENTRIES`] entries a
//! thread.

use std::cell::RefCell;

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_core::{Action, Deal, View};

use crate::Bot;
use crate::omniscient::{self, Omniscient};
use crate::solver::maxn::MaxN;

thread_local! {
    /// The table of every `maxn` bot on this thread (module documentation).
    static SEARCH: RefCell<MaxN> = RefCell::new(MaxN::new());
}

/// The exact max^n reference described in the module documentation.
#[derive(Debug, Clone)]
pub struct MaxnReference {
    fallback: Omniscient,
    truth: Option<Deal>,
    rng: ChaCha8Rng,
}

impl MaxnReference {
    /// The reference; `seed` seeds only the world it samples when not shown the true deal and
    /// the tree search it plays in rules the exact search does not handle.
    #[must_use]
    pub fn new(seed: u64) -> MaxnReference {
        MaxnReference {
            fallback: Omniscient::with_budget(seed, omniscient::DEFAULT_BUDGET),
            truth: None,
            rng: ChaCha8Rng::seed_from_u64(seed ^ 0x6d61_786e),
        }
    }

    /// Positions the exact search of this thread's `maxn` bots has visited (a measure of
    /// work).
    #[must_use]
    pub fn nodes() -> u64 {
        SEARCH.with(|search| search.borrow().nodes())
    }
}

impl Bot for MaxnReference {
    fn name(&self) -> &str {
        "maxn"
    }

    fn observe_true_deal(&mut self, deal: &Deal) {
        if MaxN::handles(deal.rules()) {
            self.truth = Some(deal.clone());
        } else {
            self.fallback.observe_true_deal(deal);
        }
    }

    fn act(&mut self, view: &View<'_>) -> Action {
        if !MaxN::handles(view.rules()) {
            return self.fallback.act(view);
        }
        let legal = view.legal_actions();
        if legal.len() == 1 {
            return legal.nth(0).unwrap_or(Action::Pass);
        }
        let deal = match self.truth.take() {
            Some(deal) if omniscient::matches(&deal, view) => deal,
            _ => view.sample_world(&mut self.rng),
        };
        SEARCH.with(|search| search.borrow_mut().best_action(&deal).0)
    }
}

#[cfg(test)]
mod tests {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;
    use torite_core::shuffle::below;
    use torite_core::{Deal, Preset, View};

    use super::*;

    /// A random `preset` deal played at random for `steps` actions.
    fn position(preset: Preset, seed: u64, steps: usize) -> Deal {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut deal = Deal::random(preset.ruleset(), 0, &mut rng);
        for _ in 0..steps {
            let legal = deal.legal_actions();
            if legal.is_empty() {
                break;
            }
            let pick = below(&mut rng, legal.len() as u32) as usize;
            deal.apply_unchecked(legal.nth(pick).expect("in range"));
        }
        deal
    }

    #[test]
    fn shown_the_deal_it_plays_the_max_n_choice_of_that_deal() {
        for (i, preset) in [
            Preset::MiniMisere4,
            Preset::MiniMisere5,
            Preset::MiniMisere3,
        ]
        .into_iter()
        .enumerate()
        {
            for seed in 0..6 {
                let deal = position(preset, seed + 10 * i as u64, 8 + seed as usize);
                if deal.is_over() || deal.legal_actions().len() < 2 {
                    continue;
                }
                let mut bot = MaxnReference::new(seed);
                bot.observe_true_deal(&deal);
                let chose = bot.act(&View::new(&deal, deal.to_act()));
                assert_eq!(chose, MaxN::new().best_action(&deal).0, "{preset} {seed}");
            }
        }
    }

    #[test]
    fn a_stale_or_missing_deal_is_never_used() {
        let mut deal = position(Preset::MiniMisere4, 3, 9);
        let stale = deal.clone();
        deal.apply_unchecked(deal.legal_actions().nth(0).expect("in progress"));
        let mut bot = MaxnReference::new(1);
        bot.observe_true_deal(&stale); // an old position is ignored
        let view = View::new(&deal, deal.to_act());
        assert!(deal.is_legal(bot.act(&view)));
        // Nothing shown: it solves a world of its own view, legally.
        let mut blind = MaxnReference::new(2);
        assert!(deal.is_legal(blind.act(&view)));
    }

    #[test]
    fn it_is_a_reference_never_offered_as_a_player() {
        assert!(crate::REFERENCE_BOTS.contains(&"maxn"));
        assert!(!crate::BOT_NAMES.contains(&"maxn"));
        for level in crate::Level::ALL {
            assert_ne!(crate::BotSpec::level(level).build(0).name(), "maxn");
        }
        assert_eq!(
            crate::make_bot("maxn", 0).map(|b| b.name().to_owned()),
            Ok("maxn".into())
        );
    }

    #[test]
    fn outside_mini_misere_it_plays_as_omniscient() {
        let deal = position(Preset::Mura4, 5, 6);
        let mut bot = MaxnReference::new(4);
        let mut reference = Omniscient::with_budget(4, omniscient::DEFAULT_BUDGET);
        bot.observe_true_deal(&deal);
        reference.observe_true_deal(&deal);
        let view = View::new(&deal, deal.to_act());
        let nodes = MaxnReference::nodes();
        assert_eq!(bot.act(&view), reference.act(&view));
        assert_eq!(MaxnReference::nodes(), nodes);
    }
}
