//! Players for the torite games.
//!
//! A [`Bot`] sees only a [`View`] of its seat — its own hand and the public facts — and returns
//! an action; the driver ([`play_deal`]) checks every action against the rules. Every bot plays
//! every preset and house rule, and is reproducible from a seed.
//!
//! People choose among named levels ([`level`]): `beginner`, `casual`, `club`, `strong` and
//! `expert`, each a configuration of the algorithms below, calibrated so that each beats the
//! one below it. The algorithms keep their names for the arena and `torite stats`:
//!
//! | name | what it is |
//! |---|---|
//! | `random` | uniform over the legal actions |
//! | `heuristic` | a rule-based player per game family ([`heuristic`]) |
//! | `ismcts` | information-set Monte Carlo tree search ([`ismcts`]) |
//! | `ismcts-inf` | the same search over worlds weighed by the other seats' observed play ([`inference`]) |
//! | `ismcts-eval` | the same search with short rollouts valued by a learned evaluation ([`eval`]) |
//! | `ismcts-eq` | the same search with equivalent cards merged into one action ([`ismcts::Ismcts::with_merging`]) |
//! | `ismcts-duck` | the same search with rollouts half played by a ducking rule ([`ismcts::Ismcts::with_ducking`]) |
//! | `ismcts-lot` | the same search with rollouts that play a declared Lot out as its declarer and defenders would ([`ismcts::Ismcts::with_lot_rollouts`]) |
//! | `ismcts-pol` | `ismcts-inf` whose model of the others' cards is a policy learned from the search's own play ([`policy`]) |
//! | `ismcts-net` | `ismcts-inf` whose model of the others' cards is a small neural network learned from the search's own play ([`reader`]) |
//! | `ismcts-read` | `ismcts-inf` whose model of the others' cards is a small search from each world's hand ([`inference::Inference::with_search`]) |
//! | `ismcts-table` | the same search with every seat valuing a deal by its score less the table's mean ([`ismcts::Ismcts::with_table_rewards`]) and rollouts that play a declared Lot out, as `ismcts-lot`'s do: the strongest search measured, *Expert*'s |
//! | `pimc` | perfect-information Monte Carlo over the exact [`solver`] ([`pimc`]) |
//! | `omniscient` | cheats: tree search on the true deal, a reference for the value of seeing every hand ([`omniscient`]) |
//! | `maxn` | cheats: the exact max^n solution of the true deal in Mini Misère, the exact reference ([`maxn`]) |
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

pub mod analysis;
pub mod arena;
pub mod eval;
#[cfg(test)]
mod fixtures;
pub mod heuristic;
pub mod inference;
pub mod ismcts;
pub mod level;
pub mod maxn;
pub mod omniscient;
pub mod pimc;
pub mod policy;
pub mod random;
pub mod reader;
pub mod reward;
pub mod solver;
pub mod standing;
pub mod stats;
mod weights;

use std::fmt;

use torite_core::table::{Applied, Table};
use torite_core::{Action, Deal, GameError, PlayError, Seat, View};

pub use heuristic::Heuristic;
pub use level::Level;
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

    /// Tells the bot where the game stands (every seat's total, public on the score sheet)
    /// before it is asked to act. A bot that plays to the score of the game uses it; the
    /// default ignores it, and a bot never told plays each deal for its own score.
    fn observe_standing(&mut self, _standing: &standing::Standing) {}
}

impl fmt::Debug for dyn Bot {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bot({})", self.name())
    }
}

/// The names [`make_bot`] accepts.
pub const BOT_NAMES: [&str; 13] = [
    "random",
    "heuristic",
    "ismcts",
    "ismcts-inf",
    "ismcts-eval",
    "ismcts-eq",
    "ismcts-duck",
    "ismcts-lot",
    "ismcts-pol",
    "ismcts-net",
    "ismcts-read",
    "ismcts-table",
    "pimc",
];

/// Reference bots [`make_bot`] also accepts, for the arena only and never offered as opponents:
/// `omniscient` and `maxn` cheat when the arena shows them the true deal
/// ([`Bot::observe_true_deal`]).
pub const REFERENCE_BOTS: [&str; 2] = ["omniscient", "maxn"];

/// The strongest bot that decides instantly (no search): for bots that must never keep a table
/// waiting, such as the server's stand-ins for absent players.
pub const STRONGEST: &str = "heuristic";

/// The strongest bot measured, deciding in tens of milliseconds: the *Expert* level's search
/// (which values a deal against the table and, told the standing, plays to the score of the
/// game) given the default search's budget. The source of the terminal game's hints.
pub const BEST: BotSpec = BotSpec::level(Level::Expert).searching(ismcts::DEFAULT_BUDGET);

/// The level the terminal game seats by default: the middle one, beaten by `strong` and
/// `expert` for a player who wants more and beating `beginner` and `casual`.
pub const DEFAULT_LEVEL: Level = Level::Club;

/// How much thinking a search bot may do per decision.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Budget {
    /// A fixed amount of work (iterations, samples): reproducible whatever the machine.
    Iterations(u32),
    /// Wall-clock milliseconds per decision.
    Millis(u32),
}

/// The largest iteration budget a spec may give (`ismcts:1000000`).
pub const MAX_ITERATIONS: u32 = 1_000_000;

/// The largest time budget a spec may give, in milliseconds (`ismcts:60000ms`, a minute).
pub const MAX_MILLIS: u32 = 60_000;

/// Parses the `BUDGET` of a spec `name:BUDGET`: `2000` (iterations) or `200ms`.
fn parse_budget(spec: &str, budget: &str) -> Result<Budget, BotError> {
    let (digits, max, make): (&str, u32, fn(u32) -> Budget) = match budget.strip_suffix("ms") {
        Some(ms) => (ms, MAX_MILLIS, Budget::Millis),
        None => (budget, MAX_ITERATIONS, Budget::Iterations),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(BotError::BadBudget(spec.to_owned()));
    }
    // All digits: anything that does not fit is out of range, however long.
    match digits.parse::<u32>() {
        Ok(n) if (1..=max).contains(&n) => Ok(make(n)),
        _ => Err(BotError::BudgetOutOfRange(spec.to_owned())),
    }
}

impl fmt::Display for Budget {
    /// As a spec writes it: `2000` (iterations) or `200ms`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Budget::Iterations(n) => write!(f, "{n}"),
            Budget::Millis(ms) => write!(f, "{ms}ms"),
        }
    }
}

/// Which bot a spec names.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Kind {
    Level(Level),
    Random,
    Heuristic,
    Ismcts,
    IsmctsInf,
    IsmctsEval,
    IsmctsEq,
    IsmctsDuck,
    IsmctsLot,
    IsmctsPol,
    IsmctsNet,
    IsmctsRead,
    IsmctsTable,
    Pimc,
    Omniscient,
    Maxn,
}

impl Kind {
    const ALL: [Kind; 15] = [
        Kind::Random,
        Kind::Heuristic,
        Kind::Ismcts,
        Kind::IsmctsInf,
        Kind::IsmctsEval,
        Kind::IsmctsEq,
        Kind::IsmctsDuck,
        Kind::IsmctsLot,
        Kind::IsmctsPol,
        Kind::IsmctsNet,
        Kind::IsmctsRead,
        Kind::IsmctsTable,
        Kind::Pimc,
        Kind::Omniscient,
        Kind::Maxn,
    ];

    const fn name(self) -> &'static str {
        match self {
            Kind::Level(level) => level.id(),
            Kind::Random => "random",
            Kind::Heuristic => "heuristic",
            Kind::Ismcts => "ismcts",
            Kind::IsmctsInf => "ismcts-inf",
            Kind::IsmctsEval => "ismcts-eval",
            Kind::IsmctsEq => "ismcts-eq",
            Kind::IsmctsDuck => "ismcts-duck",
            Kind::IsmctsLot => "ismcts-lot",
            Kind::IsmctsPol => "ismcts-pol",
            Kind::IsmctsNet => "ismcts-net",
            Kind::IsmctsRead => "ismcts-read",
            Kind::IsmctsTable => "ismcts-table",
            Kind::Pimc => "pimc",
            Kind::Omniscient => "omniscient",
            Kind::Maxn => "maxn",
        }
    }
}

/// A bot spec, read once: a [`Level`] (`club`), or an algorithm (one of [`BOT_NAMES`] or
/// [`REFERENCE_BOTS`]) and the budget it was given, if any. An algorithm is written `name` or
/// `name:BUDGET`, where `BUDGET` is a number of iterations (`ismcts:2000`, 1 to
/// [`MAX_ITERATIONS`]) or milliseconds (`ismcts:200ms`, 1 to [`MAX_MILLIS`]); bots without a
/// search ignore it, and each search bot has a default budget. A level has its own budget.
/// [`str::parse`] (its [`FromStr`](std::str::FromStr)) reads that form and [`fmt::Display`] writes it back.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct BotSpec {
    kind: Kind,
    budget: Option<Budget>,
}

impl BotSpec {
    /// The spec of [`STRONGEST`], the strongest bot that decides instantly.
    pub const STRONGEST: BotSpec = BotSpec {
        kind: Kind::Heuristic,
        budget: None,
    };

    /// The spec of a level.
    #[must_use]
    pub const fn level(level: Level) -> BotSpec {
        BotSpec {
            kind: Kind::Level(level),
            budget: None,
        }
    }

    /// The level the spec names, if it names one.
    #[must_use]
    pub const fn as_level(&self) -> Option<Level> {
        match self.kind {
            Kind::Level(level) => Some(level),
            _ => None,
        }
    }

    /// The bot's name (`ismcts` for `ismcts:200ms`, `club` for the level), as [`Bot::name`]
    /// reports it.
    #[must_use]
    pub const fn name(&self) -> &'static str {
        self.kind.name()
    }

    /// The budget the spec gives, if it gives one.
    #[must_use]
    pub const fn budget(&self) -> Option<Budget> {
        self.budget
    }

    /// Whether the bot decides at once, without a search (`random`, `heuristic`, and the
    /// levels that do not search).
    #[must_use]
    pub const fn is_instant(&self) -> bool {
        match self.kind {
            Kind::Level(level) => level.config().search.is_none(),
            Kind::Random | Kind::Heuristic => true,
            Kind::Ismcts
            | Kind::IsmctsInf
            | Kind::IsmctsEval
            | Kind::IsmctsEq
            | Kind::IsmctsDuck
            | Kind::IsmctsLot
            | Kind::IsmctsPol
            | Kind::IsmctsNet
            | Kind::IsmctsRead
            | Kind::IsmctsTable
            | Kind::Pimc
            | Kind::Omniscient
            | Kind::Maxn => false,
        }
    }

    /// The same bot with `ms` milliseconds of wall-clock time per decision, whatever budget
    /// it had, when it searches (a level that searches included: its search gets the time);
    /// a bot that decides at once is left as it is. The arena's `--movetime`: every search bot
    /// of a lineup thinks for the same time, as engine-testing tools compare engines. A level
    /// so timed writes itself `expert:20ms` (as the arena's JSON names it), a form no spec
    /// gives: a level's own budget cannot be asked for.
    #[must_use]
    pub const fn with_movetime(self, ms: u32) -> BotSpec {
        self.searching(Budget::Millis(ms))
    }

    /// The same bot with `budget` a decision, whatever budget it had, when it searches (a
    /// level that searches included); a bot that decides at once is left as it is.
    #[must_use]
    pub const fn searching(self, budget: Budget) -> BotSpec {
        if self.is_instant() {
            return self;
        }
        BotSpec {
            kind: self.kind,
            budget: Some(budget),
        }
    }

    /// Makes the bot, seeded.
    #[must_use]
    pub fn build(&self, seed: u64) -> Box<dyn Bot> {
        let budget = self.budget;
        match self.kind {
            Kind::Level(level) => {
                let mut config = level.config();
                if let (Some(budget), Some(_)) = (budget, config.search) {
                    config.search = Some(budget);
                }
                Box::new(level::LevelBot::with_config(level, config, seed))
            }
            Kind::Random => Box::new(RandomBot::new(seed)),
            Kind::Heuristic => Box::new(Heuristic::new(seed)),
            Kind::Ismcts => Box::new(ismcts::Ismcts::with_budget(
                seed,
                budget.unwrap_or(ismcts::DEFAULT_BUDGET),
            )),
            Kind::IsmctsInf => Box::new(
                ismcts::Ismcts::with_budget(seed, budget.unwrap_or(ismcts::DEFAULT_BUDGET))
                    .with_inference(inference::Inference::new())
                    .with_endings(ismcts::INF_ENDINGS),
            ),
            Kind::IsmctsEval => Box::new(
                ismcts::Ismcts::with_budget(seed, budget.unwrap_or(ismcts::DEFAULT_BUDGET))
                    .with_eval(),
            ),
            Kind::IsmctsEq => Box::new(
                ismcts::Ismcts::with_budget(seed, budget.unwrap_or(ismcts::DEFAULT_BUDGET))
                    .with_merging(),
            ),
            Kind::IsmctsDuck => Box::new(
                ismcts::Ismcts::with_budget(seed, budget.unwrap_or(ismcts::DEFAULT_BUDGET))
                    .with_ducking(ismcts::DUCK_PERMILLE),
            ),
            Kind::IsmctsLot => Box::new(
                ismcts::Ismcts::with_budget(seed, budget.unwrap_or(ismcts::DEFAULT_BUDGET))
                    .with_lot_rollouts(),
            ),
            Kind::IsmctsPol => Box::new(
                ismcts::Ismcts::with_budget(seed, budget.unwrap_or(ismcts::DEFAULT_BUDGET))
                    .with_inference(inference::Inference::new().with_policy())
                    .with_endings(ismcts::INF_ENDINGS),
            ),
            Kind::IsmctsNet => Box::new(
                ismcts::Ismcts::with_budget(seed, budget.unwrap_or(ismcts::DEFAULT_BUDGET))
                    .with_inference(inference::Inference::new().with_reader()),
            ),
            Kind::IsmctsRead => Box::new(
                ismcts::Ismcts::with_budget(seed, budget.unwrap_or(ismcts::DEFAULT_BUDGET))
                    .with_inference(
                        inference::Inference::new()
                            .with_search(inference::READ_ITERATIONS, inference::READ_SHARPNESS)
                            .tempered(inference::READ_TEMPER),
                    ),
            ),
            Kind::IsmctsTable => Box::new(
                ismcts::Ismcts::with_budget(seed, budget.unwrap_or(ismcts::DEFAULT_BUDGET))
                    .with_table_rewards(),
            ),
            Kind::Pimc => Box::new(pimc::Pimc::new(budget, seed)),
            // Cheats (sees every hand through `observe_true_deal`): a reference, not an opponent.
            Kind::Omniscient => Box::new(omniscient::Omniscient::with_budget(
                seed,
                budget.unwrap_or(omniscient::DEFAULT_BUDGET),
            )),
            // Cheats too, and exact: it has no budget (one given is ignored).
            Kind::Maxn => Box::new(maxn::MaxnReference::new(seed)),
        }
    }
}

impl std::str::FromStr for BotSpec {
    type Err = BotError;

    /// Reads `name` or `name:BUDGET`.
    ///
    /// # Errors
    ///
    /// [`BotError::UnknownBot`] for a name that is neither a [`Level`] nor in [`BOT_NAMES`] or
    /// [`REFERENCE_BOTS`], [`BotError::LevelBudget`] for a level given a budget,
    /// [`BotError::BadBudget`] for a budget that is not a number, [`BotError::BudgetOutOfRange`]
    /// for one outside those ranges.
    fn from_str(spec: &str) -> Result<BotSpec, BotError> {
        let (name, budget) = match spec.split_once(':') {
            None => (spec, None),
            Some((name, budget)) => (name, Some(budget)),
        };
        if let Some(level) = Level::from_id(name) {
            return match budget {
                None => Ok(BotSpec::level(level)),
                Some(_) => Err(BotError::LevelBudget(spec.to_owned())),
            };
        }
        let Some(kind) = Kind::ALL.into_iter().find(|k| k.name() == name) else {
            return Err(BotError::UnknownBot(name.to_owned()));
        };
        let budget = budget.map(|b| parse_budget(spec, b)).transpose()?;
        Ok(BotSpec { kind, budget })
    }
}

impl fmt::Display for BotSpec {
    /// As `name` or `name:BUDGET`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())?;
        match self.budget {
            Some(budget) => write!(f, ":{budget}"),
            None => Ok(()),
        }
    }
}

/// Makes a bot from a spec `name` or `name:BUDGET` (see [`BotSpec`]), seeded.
///
/// # Errors
///
/// The spec does not read as a [`BotSpec`].
pub fn make_bot(spec: &str, seed: u64) -> Result<Box<dyn Bot>, BotError> {
    Ok(spec.parse::<BotSpec>()?.build(seed))
}

/// Something went wrong while bots played.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum BotError {
    /// No bot has this name (the spec as given).
    UnknownBot(String),
    /// The spec's budget is neither a number of iterations nor of milliseconds.
    BadBudget(String),
    /// A level was given a budget (the spec as given): a level has its own.
    LevelBudget(String),
    /// The spec's budget is outside 1 to [`MAX_ITERATIONS`] iterations or 1 to
    /// [`MAX_MILLIS`] milliseconds.
    BudgetOutOfRange(String),
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
            BotError::UnknownBot(name) => write!(f, "unknown bot {name:?} ({})", known_bots()),
            BotError::LevelBudget(spec) => write!(
                f,
                "bot {spec:?}: a level has its own budget; give one to an algorithm instead \
                 (ismcts:2000)"
            ),
            BotError::BadBudget(spec) => write!(
                f,
                "bot {spec:?}: the budget after the colon is a number of iterations \
                 (ismcts:2000) or milliseconds (ismcts:200ms)"
            ),
            BotError::BudgetOutOfRange(spec) => write!(
                f,
                "bot {spec:?}: the budget is out of range: 1 to {MAX_ITERATIONS} iterations \
                 or 1ms to {MAX_MILLIS}ms"
            ),
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

/// The bots a spec may name, in words: "levels: beginner, casual, …; algorithms: random, …".
#[must_use]
pub fn known_bots() -> String {
    let levels: Vec<&str> = Level::ALL.iter().map(|l| l.id()).collect();
    let algorithms: Vec<&str> = BOT_NAMES.iter().chain(&REFERENCE_BOTS).copied().collect();
    format!(
        "levels: {}; algorithms: {}",
        levels.join(", "),
        algorithms.join(", ")
    )
}

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

/// Applies `action`, which `bot` chose for `seat`, at `table`: a refusal of the action itself
/// is the bot's [`BotError::Illegal`], any other the engine's ([`engine_error`]).
///
/// # Errors
///
/// As said.
pub fn apply_at(
    table: &mut Table,
    bot: &dyn Bot,
    seat: Seat,
    action: Action,
) -> Result<Applied, BotError> {
    table.apply(action).map_err(|e| match e {
        GameError::Play(why) => BotError::Illegal {
            bot: bot.name().to_owned(),
            seat,
            action,
            why,
        },
        other => engine_error(other),
    })
}

/// A refusal of the engine's that no bot caused, as a [`BotError::Engine`].
#[must_use]
pub fn engine_error(e: GameError) -> BotError {
    BotError::Engine(e.to_string())
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn specs_read_once_and_write_back() {
        for text in [
            "random",
            "heuristic",
            "ismcts:200ms",
            "ismcts:100",
            "pimc:40",
            "omniscient",
        ] {
            let spec: BotSpec = text.parse().unwrap();
            assert_eq!(spec.to_string(), text);
            assert_eq!(spec.build(0).name(), spec.name(), "{text}");
        }
        let spec: BotSpec = "ismcts:200ms".parse().unwrap();
        assert_eq!(
            (spec.name(), spec.budget()),
            ("ismcts", Some(Budget::Millis(200)))
        );
        assert!(!spec.is_instant());
        assert!("heuristic".parse::<BotSpec>().unwrap().is_instant());
        assert_eq!(STRONGEST.parse::<BotSpec>(), Ok(BotSpec::STRONGEST));
        assert!(BotSpec::STRONGEST.is_instant());
        // Every name offered is a spec; nothing else is.
        for name in BOT_NAMES.into_iter().chain(REFERENCE_BOTS) {
            assert_eq!(name.parse::<BotSpec>().unwrap().name(), name);
        }
        assert_eq!(
            "ismcts2".parse::<BotSpec>(),
            Err(BotError::UnknownBot("ismcts2".into()))
        );
        assert_eq!(
            "pimc:fast".parse::<BotSpec>(),
            Err(BotError::BadBudget("pimc:fast".into()))
        );
    }

    #[test]
    fn a_movetime_gives_every_search_bot_the_same_time() {
        for (text, searches) in [
            ("random", false),
            ("heuristic", false),
            ("beginner", false),
            ("ismcts", true),
            ("ismcts:2000", true),
            ("ismcts-inf:300ms", true),
            ("ismcts-eval", true),
            ("ismcts-eq:300ms", true),
            ("ismcts-duck:40", true),
            ("ismcts-lot:40", true),
            ("ismcts-pol:40", true),
            ("ismcts-net:40", true),
            ("pimc:40", true),
            ("omniscient", true),
            ("club", true),
            ("expert", true),
        ] {
            let spec: BotSpec = text.parse().unwrap();
            let timed = spec.with_movetime(20);
            assert_eq!(timed.name(), spec.name(), "{text}");
            if searches {
                assert_eq!(timed.budget(), Some(Budget::Millis(20)), "{text}");
            } else {
                assert_eq!(timed, spec, "{text}");
            }
            assert_eq!(timed.build(3).name(), spec.name(), "{text}");
        }
        let expert = BotSpec::level(Level::Expert).with_movetime(20);
        assert_eq!(expert.to_string(), "expert:20ms");
        assert_eq!(expert.as_level(), Some(Level::Expert));
    }

    fn refusal(spec: &str) -> String {
        make_bot(spec, 0).map(|_| ()).unwrap_err().to_string()
    }

    #[test]
    fn budgets_in_range_make_bots() {
        for spec in [
            "ismcts:1",
            "ismcts:1000000",
            "ismcts:1ms",
            "ismcts:60000ms",
            "pimc:40",
            "random:5",
        ] {
            assert!(make_bot(spec, 0).is_ok(), "{spec}");
        }
    }

    #[test]
    fn a_budget_out_of_range_says_the_range() {
        for spec in [
            "ismcts:0",
            "ismcts:1000001",
            "ismcts:99999999999",
            "pimc:0ms",
            "ismcts:60001ms",
        ] {
            assert_eq!(
                refusal(spec),
                format!(
                    "bot {spec:?}: the budget is out of range: 1 to 1000000 iterations or 1ms to 60000ms"
                )
            );
        }
    }

    #[test]
    fn a_budget_that_is_not_a_number_says_what_a_budget_is() {
        for spec in [
            "ismcts:",
            "ismcts:fast",
            "ismcts:-5",
            "ismcts:2s",
            "ismcts:ms",
        ] {
            assert_eq!(
                refusal(spec),
                format!(
                    "bot {spec:?}: the budget after the colon is a number of iterations \
                     (ismcts:2000) or milliseconds (ismcts:200ms)"
                )
            );
        }
    }

    #[test]
    fn an_unknown_name_is_named_whatever_its_budget() {
        assert_eq!(
            refusal("alphazero:0"),
            "unknown bot \"alphazero\" (levels: beginner, casual, club, strong, expert; \
             algorithms: random, heuristic, ismcts, ismcts-inf, ismcts-eval, ismcts-eq, \
             ismcts-duck, ismcts-lot, ismcts-pol, ismcts-net, ismcts-read, ismcts-table, pimc, omniscient, maxn)"
        );
    }

    #[test]
    fn levels_are_specs_without_a_budget() {
        for level in Level::ALL {
            let spec: BotSpec = level.id().parse().unwrap();
            assert_eq!(spec, BotSpec::level(level));
            assert_eq!(spec.as_level(), Some(level));
            assert_eq!(spec.to_string(), level.id());
            assert_eq!(spec.build(1).name(), level.id());
            assert_eq!(spec.budget(), None);
            assert_eq!(spec.is_instant(), level.config().search.is_none());
        }
        assert!(BotSpec::level(Level::Beginner).is_instant());
        assert!(!BotSpec::level(Level::Expert).is_instant());
        assert_eq!("ismcts".parse::<BotSpec>().unwrap().as_level(), None);
        assert_eq!(
            refusal("club:500"),
            "bot \"club:500\": a level has its own budget; give one to an algorithm instead \
             (ismcts:2000)"
        );
    }
}
