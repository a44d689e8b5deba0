//! Players for the torite games.
//!
//! A [`Bot`] sees only a [`View`] of its seat — its own hand and the public facts — and returns
//! an action; the driver ([`play_deal`]) checks every action against the rules. Every bot plays
//! every preset and house rule, and is reproducible from a seed.
//!
//! | name | what it is |
//! |---|---|
//! | `random` | uniform over the legal actions |
//! | `heuristic` | a rule-based player per game family ([`heuristic`]) |
//! | `ismcts` | information-set Monte Carlo tree search ([`ismcts`]) |
//! | `pimc` | perfect-information Monte Carlo over the exact [`solver`] ([`pimc`]) |
//! | `omniscient` | cheats: tree search on the true deal, a reference for the value of seeing every hand ([`omniscient`]) |
//!
//! ```
//! use torite_bots::{make_bot, play_deal};
//! use torite_core::{Deal, Preset};
//! use rand_chacha::{ChaCha8Rng, rand_core::SeedableRng};
//! let rules = Preset::Mura4.ruleset();
//! let mut deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(1));
//! let mut bots: Vec<_> = (0..4).map(|s| make_bot("heuristic", s).unwrap()).collect();
//! play_deal(&mut deal, &mut bots)?;
//! assert!(deal.is_over());
//! # Ok::<_, torite_bots::BotError>(())
//! ```

#![deny(missing_docs)]

pub mod arena;
pub mod heuristic;
pub mod ismcts;
pub mod omniscient;
pub mod pimc;
pub mod random;
pub mod reward;
pub mod solver;
pub mod stats;

use std::fmt;

use torite_core::{Action, Deal, PlayError, Seat, View};

pub use heuristic::Heuristic;
pub use random::RandomBot;

/// A player: chooses an action for the seat whose view it is given.
pub trait Bot: Send {
    /// The bot's name, as the arena and the command line know it.
    fn name(&self) -> &str;

    /// Chooses an action. The view is that of the seat to act; the action must be legal.
    fn act(&mut self, view: &View<'_>) -> Action;

    /// **Cheating**: shows the bot the true deal, every hand included, just before it is asked
    /// to act in it. Only the arena calls this, so that the `omniscient` reference bot can
    /// measure how far the honest bots are from play with all cards known; every other
    /// bot ignores it (the default does nothing), and no honest bot may use it.
    fn observe_true_deal(&mut self, _deal: &Deal) {}
}

impl fmt::Debug for dyn Bot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bot({})", self.name())
    }
}

/// The names [`make_bot`] accepts.
pub const BOT_NAMES: [&str; 4] = ["random", "heuristic", "ismcts", "pimc"];

/// Reference bots [`make_bot`] also accepts, for the arena only and never offered as opponents:
/// `omniscient` cheats when the arena shows it the true deal ([`Bot::observe_true_deal`]).
pub const REFERENCE_BOTS: [&str; 1] = ["omniscient"];

/// The strongest bot that decides instantly (no search): for bots that must never keep a table
/// waiting, such as the server's stand-ins for absent players.
pub const STRONGEST: &str = "heuristic";

/// The strongest bot measured, deciding in tens of milliseconds (ISMCTS at its default budget):
/// the terminal game's default opponent and the source of hints.
pub const BEST: &str = "ismcts";

/// How much thinking a search bot may do per decision.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Budget {
    /// A fixed amount of work (iterations, samples): reproducible whatever the machine.
    Iterations(u32),
    /// Wall-clock milliseconds per decision.
    Millis(u32),
}

/// Makes a bot from a spec `name` or `name:BUDGET`, seeded. `BUDGET` is a number of
/// iterations (`ismcts:2000`) or milliseconds (`ismcts:200ms`); bots without a search ignore
/// it, and each search bot has a default budget.
///
/// # Errors
///
/// [`BotError::UnknownBot`] for a name not in [`BOT_NAMES`] or a malformed budget.
pub fn make_bot(spec: &str, seed: u64) -> Result<Box<dyn Bot>, BotError> {
    let (name, budget) = match spec.split_once(':') {
        None => (spec, None),
        Some((name, budget)) => {
            let parsed = match budget.strip_suffix("ms") {
                Some(ms) => ms.parse().ok().filter(|n| *n > 0).map(Budget::Millis),
                None => budget
                    .parse()
                    .ok()
                    .filter(|n| *n > 0)
                    .map(Budget::Iterations),
            };
            match parsed {
                Some(b) => (name, Some(b)),
                None => return Err(BotError::UnknownBot(spec.to_owned())),
            }
        }
    };
    let _ = budget; // used by the search bots
    match name {
        "random" => Ok(Box::new(RandomBot::new(seed))),
        "heuristic" => Ok(Box::new(Heuristic::new(seed))),
        "ismcts" => Ok(Box::new(ismcts::Ismcts::with_budget(
            seed,
            budget.unwrap_or(ismcts::DEFAULT_BUDGET),
        ))),
        "pimc" => Ok(Box::new(pimc::Pimc::new(budget, seed))),
        // Cheats (sees every hand through `observe_true_deal`): a reference, not an opponent.
        "omniscient" => Ok(Box::new(omniscient::Omniscient::with_budget(
            seed,
            budget.unwrap_or(omniscient::DEFAULT_BUDGET),
        ))),
        // Search bots register here.
        _ => Err(BotError::UnknownBot(spec.to_owned())),
    }
}

/// Something went wrong while bots played.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum BotError {
    /// No bot has this name.
    UnknownBot(String),
    /// A bot chose an illegal action (a bug in that bot).
    Illegal {
        /// The bot's name.
        bot: String,
        /// Its seat.
        seat: Seat,
        /// The action.
        action: Action,
        /// Why it is illegal.
        why: PlayError,
    },
    /// The engine refused a step of the game (a bug in the driver).
    Engine(String),
}

impl fmt::Display for BotError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BotError::UnknownBot(name) => {
                write!(f, "unknown bot {name:?} (known: {})", BOT_NAMES.join(", "))
            }
            BotError::Illegal {
                bot,
                seat,
                action,
                why,
            } => write!(
                f,
                "bot {bot} at seat {seat} chose {action}, which is illegal: {why}"
            ),
            BotError::Engine(why) => write!(f, "the engine refused a step: {why}"),
        }
    }
}

impl std::error::Error for BotError {}

/// Asks the seat to act for its action and applies it, checking legality.
///
/// # Errors
///
/// [`BotError::Illegal`] if the bot chose an illegal action; the deal is unchanged then.
pub fn step(deal: &mut Deal, bot: &mut dyn Bot) -> Result<Action, BotError> {
    let seat = deal.to_act();
    let action = bot.act(&View::new(deal, seat));
    deal.apply(action).map_err(|why| BotError::Illegal {
        bot: bot.name().to_owned(),
        seat,
        action,
        why,
    })?;
    Ok(action)
}

/// Plays a deal to its end, `bots[seat]` acting for each seat; returns the actions taken.
///
/// # Errors
///
/// [`BotError::Illegal`] if a bot chose an illegal action.
pub fn play_deal(deal: &mut Deal, bots: &mut [Box<dyn Bot>]) -> Result<Vec<Action>, BotError> {
    let mut actions = Vec::new();
    while !deal.is_over() {
        let seat = deal.to_act();
        actions.push(step(deal, bots[seat].as_mut())?);
    }
    Ok(actions)
}
