//! The `ismcts` bot: single-observer information-set Monte Carlo tree search (Cowling, Powley
//! and Whitehouse, "Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012).
//!
//! One tree is grown over the *viewer's* information set. Each iteration
//!
//! 1. deals the unseen cards at random, consistently with the view (a *determinisation*: the
//!    viewer's hand, the played cards, every void shown and every hand size are kept);
//! 2. descends the tree from the root, considering at each node only the actions legal in that
//!    determinisation, and choosing among them by UCB1 with *availability counts*: a child's
//!    exploration term uses the number of iterations in which it was available, not its
//!    parent's visits;
//! 3. adds one child for an action not yet tried (chosen uniformly);
//! 4. plays the deal out to its end (the rollout, below);
//! 5. scores the finished deal with [`deal_rewards`], divided by [`score_scale`], and adds to
//!    every node on the path the reward of the seat that acted into it (max^n style: each seat
//!    is assumed to play for its own score).
//!
//! The action played is the root action visited most often.
//!
//! Rollouts are uniformly random ([`random_playout`]). One cheap bias, rollouts that never
//! declare the Lot (a random seat declares with one first card in seven in `mini-misere-4`,
//! and nearly every such Lot fails), measured no different against three `heuristic`s: in
//! `mini-misere-4` +1.23 ± 0.13 points a deal against +1.17 ± 0.14 for uniform rollouts
//! (300 deals, 3,000 iterations), in `mini-misere-4-1989` +1.32 ± 0.15 against
//! +1.33 ± 0.14 (200 deals), and the same at 300 iterations. The tree covers the first
//! trick, where the Lot is decided, within a few hundred iterations, so random Lots in
//! rollouts cost little; the plain rollout stays.
//!
//! # Inference and exact endings
//!
//! Two options, off in `ismcts` itself. [`Ismcts::with_inference`] draws each iteration's
//! determinisation from a pool of worlds weighed by the other seats' observed play
//! ([`crate::inference`]; the `ismcts-inf` bot): the pool is dealt and weighed once per
//! decision, one world for every 25 iterations (16 to 400) under an iteration budget, or for at
//! most a quarter of a time budget. [`Ismcts::with_endings`] ends each rollout exactly by
//! max^n ([`maxn`]) once a few tricks are left. Neither has been measured to beat the plain
//! search at equal time (`docs/STATS.md`, "Does reading the others' play make the search
//! stronger?").
//!
//! # A learned evaluation
//!
//! [`Ismcts::with_eval`] (the `ismcts-eval` bot) cuts each rollout one trick past the one in
//! progress and takes every seat's reward from a linear model of its view trained on
//! self-play ([`crate::eval`]). It has not been measured to beat the plain search at equal
//! time either (`docs/STATS.md`, "Does a learned evaluation make the search stronger?").
//!
//! # Equivalent cards merged, and ducking rollouts
//!
//! [`Ismcts::with_merging`] (the `ismcts-eq` bot) makes each class of equivalent cards of the
//! hand to act one action of the tree: cards of one suit with nothing between them outside the
//! hand and not gone in a completed trick, worth the same (the solver's rank equivalence,
//! [`crate::solver`]), represented by the lowest. At the viewer's own nodes the classes depend
//! only on its hand and the public history, so they are worked out once a node; at the other
//! seats' nodes they are those of the determinisation. A decision whose legal cards are all one
//! class is played without search. [`Ismcts::with_ducking`] (the `ismcts-duck` bot) plays each
//! rollout card with probability one half by a ducking rule ([`duck`]: lead the weakest card,
//! stay under the trick's winner with the strongest card that does, else win with the
//! strongest) instead of uniformly. Neither has been measured to beat the plain search at equal
//! time (`docs/STATS.md`, "Does merging equivalent cards make the search stronger?"): merging
//! is within noise of it in all 14 presets (it runs about 0.85 times the simulations a
//! second); ducking rollouts run about 0.75 times the simulations and are within noise of it
//! in the four presets screened.
//!
//! # Rollouts that play a declared Lot out
//!
//! [`Ismcts::with_lot_rollouts`] (the `ismcts-lot` bot) plays each rollout uniformly at random
//! until a Lot is declared, then, while a declarer may still win every trick, by the Lot's
//! obvious play ([`lot_card`]): the declarer leads a card no other hand can beat and follows
//! with its strongest; the defenders beat it when they can and otherwise keep their high
//! cards. Uniform rollouts let a declarer through whenever the defenders happen not to beat
//! it, so they overrate declaring. At equal time it is within noise of the plain search in
//! four of the five presets with the Lot and above it in `mini-misere-6` only (`docs/STATS.md`,
//! "Does playing a declared Lot out in the rollouts make the search stronger?").
//!
//! # Valuing a deal against the table
//!
//! [`Ismcts::with_table_rewards`] (the `ismcts-table` bot, and *Expert*'s search) backs up,
//! for every seat, its deal score less the table's mean ([`over_the_table`]) instead of its
//! score alone, with the exploration constant [`TABLE_EXPLORATION`]. A seat of the search then
//! takes a trick that costs it a point when the trick costs another seat more, as a player
//! does who wants to finish ahead of the table rather than to score well alone: a deal is
//! judged so by the duplicate comparison and by the game's totals. Where the deal's scores
//! always add up to the same total (Mittlere, Molotow, the Middler: card points) it changes no
//! value, and only the exploration constant differs from the plain search. Its rollouts also
//! play a declared Lot out, as [`Ismcts::with_lot_rollouts`] does. It costs a few additions a
//! simulation. At equal iterations over 2,000 duplicate deals a preset it beats
//! the plain search with the interval clear of zero in five presets (both Mura games,
//! `middler-joker`, `mini-misere-4` and `mini-misere-5`) and is within noise of it in the others
//! (`docs/STATS.md`, "Does valuing a deal against the table make the search stronger?"). A
//! search playing to the score of a game whose standing it knows ([`Ismcts::with_match_play`])
//! ignores it.
//!
//! # Keeping the tree between decisions: not built
//!
//! A tree kept from one decision to the next within a deal could give a decision at most the
//! simulations the last one spent below the line actually played, less than doubling its time.
//! Doubling the time measured no gain at 10 ms a decision (four presets, 100 deals; four times
//! the time was clear of zero in `plus-minus-jass-3` only), so the tree is grown afresh at
//! every decision (`docs/STATS.md`, "Does keeping the tree between decisions make the search
//! stronger?"). Measured later over 2,000 duplicate deals, four times the simulations (16,000
//! against 4,000 a decision) is worth +0.04 to +0.11 points a deal in the three-player Jass
//! games and nothing measurable in `molotow-jass` and `plus-minus-jass-4` ("Is the search
//! short of simulations, or of knowledge?"); a kept tree would give a small share of that.
//!
//! # Defaults, and how they were chosen
//!
//! With the tuning example (`cargo run --release -p torite-bots --example ismcts_tune --
//! RULESET DEALS ITERATIONS@C...`), which plays each setting from every seat of the same
//! seeded deals against `heuristic` in the other seats, so that settings compare in pairs.
//! "vs field" is the bot's score per deal minus the heuristics' mean; "vs base" the paired
//! difference of the bot's score to the first setting of the run (± 95% intervals). The
//! Mini Misère runs were made with the no-Lot rollouts above (found equivalent); the other
//! games have no Lot, so their rollouts were the uniform ones.
//!
//! | ruleset (deals) | setting | vs field | vs base |
//! |---|---|---|---|
//! | `mini-misere-4` (200) | 1,000 @ 0.7 | +1.12 ± 0.16 | base |
//! | | 3,000 @ 0.7 | +1.16 ± 0.17 | +0.04 ± 0.07 |
//! | | 10,000 @ 0.7 | +1.19 ± 0.17 | +0.04 ± 0.07 |
//! | `mini-misere-4` (300) | 3,000 @ 0.7 | +1.23 ± 0.13 | base |
//! | | 3,000 @ 0.25 / 0.4 / 1.0 / 1.5 | +1.15 / +1.20 / +1.19 / +1.21 | −0.06 / −0.03 / −0.05 / −0.03 (± 0.04–0.06) |
//! | `mittlere-jass` (200) | 1,000 @ 0.7 | +0.93 ± 0.12 | base |
//! | | 3,000 @ 0.7 | +1.10 ± 0.10 | +0.12 ± 0.11 |
//! | | 10,000 @ 0.7 | +1.09 ± 0.11 | +0.11 ± 0.10 |
//! | `mittlere-jass` (200) | 3,000 @ 0.7 | +1.10 ± 0.10 | base |
//! | | 3,000 @ 0.4 / 1.0 / 1.5 | +0.89 / +0.98 / +0.88 | −0.14 / −0.08 / −0.15 (± 0.10) |
//! | `molotow-jass` (150) | 1,000 @ 0.7 | +0.36 ± 0.11 | base |
//! | | 3,000 @ 0.7 | +0.46 ± 0.10 | +0.07 ± 0.09 |
//! | | 10,000 @ 0.7 | +0.61 ± 0.10 | +0.18 ± 0.09 |
//! | `molotow-jass` (150) | 10,000 @ 0.7 | +0.61 ± 0.10 | base |
//! | | 30,000 @ 0.7 | +0.50 ± 0.12 | −0.08 ± 0.08 |
//! | `mura-4` (150) | 1,000 @ 0.7 | +0.57 ± 0.08 | base |
//! | | 3,000 @ 0.7 | +0.55 ± 0.07 | +0.01 ± 0.04 |
//! | | 10,000 @ 0.7 | +0.61 ± 0.07 | +0.04 ± 0.04 |
//! | | 3,000 @ 0.4 / 1.0 | +0.59 / +0.61 | +0.01 / +0.03 (± 0.04) |
//!
//! The exploration constant 0.7 (for rewards normalised by [`score_scale`]) was best or
//! level everywhere, clearly so in `mittlere-jass`. Strength grows with the budget up to
//! 3,000 iterations in `mittlere-jass` and up to 10,000 in `molotow-jass`, and not beyond
//! (30,000 was no better); the Mini Misère and Mura games gain little past 1,000. So the
//! default is 10,000 iterations: 20–50 ms a decision on the development machine (two
//! shared cores), far inside the one-second limit. A `ismcts:Nms` budget is available where
//! wall-clock time matters more than reproducibility.
//!
//! # Strength
//!
//! `torite arena --ruleset RULESET --bots ismcts,heuristic,... --deals N` (the default budget
//! against `heuristic` in every other seat, duplicate; points a deal, penalties negative):
//!
//! | ruleset | deals | `ismcts` mean | vs field | ms a decision |
//! |---|---|---|---|---|
//! | `mini-misere-4` | 300 | +5.68 ± 0.10 | +1.11 ± 0.12 | 20 |
//! | `mini-misere-4-1989` | 200 | +6.71 ± 0.13 | +1.30 ± 0.16 | 29 |
//! | `mini-misere-5` | 200 | +4.91 ± 0.10 | +0.84 ± 0.11 | 31 |
//! | `mini-misere-5-1989` | 200 | +4.72 ± 0.09 | +0.68 ± 0.10 | 26 |
//! | `mittlere-jass` | 200 | +0.72 ± 0.07 | +1.08 ± 0.10 | 35 |
//! | `molotow-jass` | 150 | +0.38 ± 0.07 | +0.50 ± 0.10 | 38 |
//! | `plus-minus-jass-3` | 150 | +0.83 ± 0.04 | +0.34 ± 0.05 | 24 |
//! | `plus-minus-jass-4` | 150 | +0.64 ± 0.04 | +0.24 ± 0.05 | 49 |
//! | `middler` | 150 | +0.79 ± 0.07 | +1.19 ± 0.10 | 35 |
//! | `middler-joker` | 150 | +48.8 ± 2.0 | +31.0 ± 3.0 | 27 |
//! | `mura-4` | 200 | −0.31 ± 0.04 | +0.62 ± 0.06 | 22 |
//! | `mura-3` | 150 | −0.23 ± 0.06 | +1.06 ± 0.12 | 27 |
//!
//! # Speed
//!
//! The tree is a `Vec` of 24-byte edges addressed by index: a node's edges sit side by side
//! in one block (grown by copying to the end of the vector), so selection scans contiguous
//! memory and nothing is allocated per node. Actions are one-byte codes, sets of them 128-bit
//! masks. UCB1 uses a table of `sqrt(ln n)` and keeps each edge's mean and `c / sqrt(visits)`
//! up to date, so scoring a child is a multiply and an add. Determinisations are dealt into
//! fixed arrays; the edge vector and the path are kept between decisions, so a
//! search allocates nothing once its vectors have grown (but see the scoring, below). A
//! position with one legal action is answered without search.
//!
//! The determinisations come from the core's [`Worlds`], which works the view's constraints
//! out once per decision and then deals a world without allocating, in about 200 ns.
//!
//! Measured with `cargo bench -p torite-bots --bench ismcts` (one 10,000-iteration decision,
//! the second seat's first, single-threaded) on the two-core development machine, otherwise
//! idle: about 624,000 simulations a second on `mini-misere-4` (95% interval
//! 615,000–635,000) and 435,000 on `mittlere-jass` (430,000–442,000). Most of the remaining
//! time is the engine's own `Deal::apply_unchecked` and `Deal::legal_plays`. Scoring a
//! finished deal with [`deal_rewards`] allocates only where a draw decides the scores.

use std::time::{Duration, Instant};

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use torite_core::shuffle::below;
use torite_core::{
    Action, ActionSet, Card, CardSet, Deal, Ruleset, STRENGTH_LOSES, Suit, Trump, View, Worlds,
    random_playout,
};

use crate::eval::{Model, Scoring};
use crate::inference::Inference;
use crate::policy::{Policy, policy_playout};
use crate::reward::{deal_rewards, over_the_table, score_scale};
use crate::solver::representatives;
use crate::standing::{Equity, Standing};
use crate::{Bot, Budget};

/// The default number of iterations per decision.
pub const DEFAULT_ITERATIONS: u32 = 10_000;

/// The default budget per decision.
pub const DEFAULT_BUDGET: Budget = Budget::Iterations(DEFAULT_ITERATIONS);

/// The default UCB1 exploration constant, for rewards normalised to about `[-1, 1]`.
pub const DEFAULT_EXPLORATION: f64 = 0.7;

/// The UCB1 exploration constant of the searches that value deals against the table
/// ([`Ismcts::with_table_rewards`]): chosen over 0.5 and [`DEFAULT_EXPLORATION`] (tuned against
/// the rule of thumb) on a 400-deal screen against `ismcts`; over 2,000 deals it is within
/// noise of 0.7 in the games whose scores add up to the same total, where it is the only
/// difference (`docs/STATS.md`, "Does valuing a deal against the table make the search
/// stronger?").
pub const TABLE_EXPLORATION: f64 = 1.0;

/// Under an iteration budget, an inferring search weighs one world for this many iterations
/// (at least 16, at most 400 worlds).
const POOL_PER_ITERATIONS: u32 = 25;

/// Under a time budget, an inferring search weighs worlds for at most this share of the time,
/// in thousandths...
const POOL_TIME_PERMILLE: u64 = 250;

/// ... or this share when a search models the other seats ([`Inference::with_search`]),
/// whose worlds cost far more to weigh and which gains little from more iterations of its own.
const READ_TIME_PERMILLE: u64 = 800;

/// ... and at most this many.
const MAX_POOL: u32 = 1_000;

/// How many iterations run between clock checks under a [`Budget::Millis`] budget.
const CLOCK_EVERY: u32 = 16;

/// Action codes: a card's bit index (0..64), then the Lot, pass, the four suit calls and the
/// two joker sayings.
const LOT: u8 = 64;
const PASS: u8 = 65;
const CALL: u8 = 66;
const JOKER_WINS: u8 = 70;
const JOKER_LOSES: u8 = 71;

/// A set of action codes.
type Mask = u128;

fn mask_of(set: &ActionSet) -> Mask {
    Mask::from(set.cards.bits())
        | Mask::from(set.lot) << LOT
        | Mask::from(set.pass) << PASS
        | Mask::from(set.calls & 0b1111) << CALL
        | Mask::from(set.joker) << JOKER_WINS
        | Mask::from(set.joker) << JOKER_LOSES
}

fn decode(code: u8) -> Action {
    match code {
        LOT => Action::Lot,
        PASS => Action::Pass,
        JOKER_WINS => Action::JokerWins,
        JOKER_LOSES => Action::JokerLoses,
        c if c >= CALL => Action::Call(Suit::from_index(c - CALL).unwrap_or(Suit::Spades)),
        c => Action::Play(Card::from_index(c).unwrap_or(Card::JOKER)),
    }
}

/// The `n`-th set bit of `mask` (`n < mask.count_ones()`).
fn nth_bit(mask: Mask, n: u32) -> u8 {
    let low = mask as u64;
    let low_count = low.count_ones();
    let (mut bits, mut n, base) = if n < low_count {
        (low, n, 0)
    } else {
        ((mask >> 64) as u64, n - low_count, 64)
    };
    while n > 0 {
        bits &= bits - 1;
        n -= 1;
    }
    base + bits.trailing_zeros() as u8
}

/// An edge of the tree: an action tried at a node, the statistics of the seat that took it,
/// and where the edges of the node below it are. A node's edges sit side by side in one block
/// of [`Ismcts::edges`], so the scan of a node's children in selection reads contiguous memory;
/// there is no separate node record. Edge 0 stands for the root.
#[derive(Clone, Copy, Debug, Default)]
struct Edge {
    /// Mean normalised reward of `seat` over the iterations through this edge.
    mean: f32,
    /// The exploration constant over the square root of `visits`.
    spread: f32,
    /// Iterations through this edge.
    visits: u32,
    /// Iterations in which this action was legal at its node (the availability count).
    avail: u32,
    /// The first edge of the block of the node below.
    first: u32,
    /// Edges in use in that block.
    len: u8,
    /// The block's size.
    cap: u8,
    /// The action code.
    action: u8,
    /// The seat that takes the action.
    seat: u8,
}

/// The size of the `sqrt(ln n)` table.
const SQRT_LN_TABLE: u32 = 4096;

/// What the last search did.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct SearchStats {
    /// Iterations (simulations) run.
    pub iterations: u32,
    /// Tree edges allocated, spare room in their blocks included (24 bytes each).
    pub edges: usize,
    /// Wall-clock time spent, weighing worlds included.
    pub elapsed: Duration,
    /// The worlds of the weighted pool the determinisations were drawn from (0: dealt
    /// afresh each iteration, without inference).
    pub pool: usize,
}

/// The ISMCTS player described in the module documentation.
#[derive(Debug, Clone)]
pub struct Ismcts {
    rng: ChaCha8Rng,
    budget: Budget,
    exploration: f64,
    /// The tree, as blocks of edges (see [`Edge`]). A block that fills up is copied to the
    /// end at twice the size (the old one is abandoned), so every node's edges stay contiguous.
    edges: Vec<Edge>,
    /// With merging, the actions of the node below each edge when the viewer acts there, as
    /// merged ([`merged`]; 0 until first computed): at the viewer's own nodes they are the
    /// same in every world, so they are worked out once. Kept in step with `edges`.
    viewer_actions: Vec<Mask>,
    /// The edges of the current iteration, root first.
    path: Vec<u32>,
    /// `sqrt(ln n)` for small `n`, for the exploration term.
    sqrt_ln: Vec<f32>,
    stats: SearchStats,
    /// The world weighting, when the bot infers ([`Ismcts::with_inference`]).
    inference: Option<Inference>,
    /// Tricks left at which a rollout ends exactly, by max^n ([`Ismcts::with_endings`]); 0:
    /// random to the end.
    endings: u8,
    /// Whether rollouts are truncated and valued by the learned evaluation
    /// ([`Ismcts::with_eval`]).
    eval: bool,
    /// Whether equivalent cards are one action of the tree ([`Ismcts::with_merging`]).
    merge: bool,
    /// The share of rollout card plays, in thousandths, chosen by the ducking rule
    /// ([`Ismcts::with_ducking`]); 0: uniformly random rollouts.
    duck_permille: u32,
    /// Whether rollouts play a declared Lot out as its declarers and defenders would
    /// ([`Ismcts::with_lot_rollouts`]).
    lot_rollouts: bool,
    /// The share of rollout card plays, in thousandths, drawn from the learned policy
    /// ([`Ismcts::with_policy_rollouts`]); 0: none.
    policy_permille: u32,
    /// The weight of the learned policy's bias at the other seats' nodes
    /// ([`Ismcts::with_policy_prior`]); 0: none.
    prior: f32,
    /// The policy's probabilities at the node in hand (kept to reuse its room).
    scratch: Vec<(Card, f64)>,
    /// Whether the bot plays to the score of the game ([`Ismcts::with_match_play`]).
    match_play: bool,
    /// Where the game stands, when the bot has been told ([`Bot::observe_standing`]).
    standing: Option<Standing>,
    /// The outcomes' worth towards winning the game, built when first needed.
    equity: Option<Box<Equity>>,
    /// Whether every seat values a deal by its score less the table's mean
    /// ([`Ismcts::with_table_rewards`]).
    table: bool,
}

impl Ismcts {
    /// An ISMCTS bot with the default budget and exploration constant, seeded with `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Ismcts {
        Ismcts::with_budget(seed, DEFAULT_BUDGET)
    }

    /// An ISMCTS bot with `budget` per decision.
    #[must_use]
    pub fn with_budget(seed: u64, budget: Budget) -> Ismcts {
        Ismcts {
            rng: ChaCha8Rng::seed_from_u64(seed),
            budget,
            exploration: DEFAULT_EXPLORATION,
            edges: Vec::new(),
            viewer_actions: Vec::new(),
            path: Vec::new(),
            sqrt_ln: (0..SQRT_LN_TABLE)
                .map(|n| (n.max(1) as f32).ln().sqrt())
                .collect(),
            stats: SearchStats::default(),
            inference: None,
            endings: 0,
            eval: false,
            merge: false,
            duck_permille: 0,
            lot_rollouts: false,
            policy_permille: 0,
            prior: 0.0,
            scratch: Vec::new(),
            match_play: false,
            standing: None,
            equity: None,
            table: false,
        }
    }

    /// The same bot ending each rollout exactly once `tricks` tricks (at most
    /// [`MAX_ENDING_TRICKS`]) are left: the rest of the deal is played by max^n, each seat
    /// choosing the action best for its own score in the determinisation ([`maxn`]), instead
    /// of at random.
    #[must_use]
    pub fn with_endings(mut self, tricks: u8) -> Ismcts {
        self.endings = tricks.min(MAX_ENDING_TRICKS);
        self
    }

    /// The same bot with truncated rollouts valued by the learned evaluation ([`crate::eval`];
    /// the `ismcts-eval` bot): a rollout plays at random one whole trick past the one in
    /// progress ([`truncated_playout`]), then each seat's reward is [`Model::values`]. Where
    /// the ruleset has no model (it is not exactly a preset), rollouts are played out as
    /// without it.
    #[must_use]
    pub fn with_eval(mut self) -> Ismcts {
        self.eval = true;
        self
    }

    /// Whether the bot values its rollouts by the learned evaluation ([`Ismcts::with_eval`]).
    #[must_use]
    pub const fn evaluates(&self) -> bool {
        self.eval
    }

    /// The same bot searching each class of equivalent cards as one action (the `ismcts-eq`
    /// bot): at every node of the tree, of the cards of the hand to act that win and lose the
    /// same tricks and are worth the same for the rest of the deal (the solver's rank
    /// equivalence, [`crate::solver`]), only the lowest is an action, so the visits spread
    /// over fewer branches. At the viewer's own nodes the classes depend only on its hand and
    /// the public history; at the other seats' they are those of the determinisation. A
    /// decision whose legal cards are all one class is answered without search.
    #[must_use]
    pub fn with_merging(mut self) -> Ismcts {
        self.merge = true;
        self
    }

    /// Whether the bot merges equivalent cards ([`Ismcts::with_merging`]).
    #[must_use]
    pub const fn merges(&self) -> bool {
        self.merge
    }

    /// The same bot with informed rollouts (the `ismcts-duck` bot): each card played in a
    /// rollout is, with probability `permille` / 1000 (at most 1), the ducking rule's
    /// ([`ducking_playout`]) and otherwise uniformly random.
    #[must_use]
    pub fn with_ducking(mut self, permille: u32) -> Ismcts {
        self.duck_permille = permille.min(1000);
        self
    }

    /// The share of rollout card plays, in thousandths, that the ducking rule chooses
    /// ([`Ismcts::with_ducking`]; 0 for uniform rollouts).
    #[must_use]
    pub const fn ducking(&self) -> u32 {
        self.duck_permille
    }

    /// The same bot with rollouts that play a declared Lot out as its declarers and
    /// defenders would (the `ismcts-lot` bot, [`lot_playout`]): while a declarer may still win
    /// every trick, it plays to win each one and the other seats play to beat it; otherwise
    /// the rollout is uniformly random. Uniform rollouts let a Lot succeed whenever the
    /// defenders happen not to beat the declarer, so they overrate declaring and underrate
    /// defending.
    #[must_use]
    pub fn with_lot_rollouts(mut self) -> Ismcts {
        self.lot_rollouts = true;
        self
    }

    /// Whether rollouts play a declared Lot out ([`Ismcts::with_lot_rollouts`]).
    #[must_use]
    pub const fn lot_rollouts(&self) -> bool {
        self.lot_rollouts
    }

    /// The same bot with rollouts whose card plays are, with probability `permille` / 1000
    /// (at most 1), drawn from the learned policy ([`crate::policy::policy_playout`]) and
    /// otherwise uniformly random. Where the ruleset has no policy (it is not exactly a
    /// preset), rollouts are uniformly random.
    #[must_use]
    pub fn with_policy_rollouts(mut self, permille: u32) -> Ismcts {
        self.policy_permille = permille.min(1000);
        self
    }

    /// The same bot whose selection at the other seats' nodes favours the cards the learned
    /// policy ([`crate::policy`]) expects of that seat, holding the hand the determinisation
    /// gives it: each tried card's UCB1 value gains `weight` × its probability / (visits + 1),
    /// a bias that fades as the card is tried (progressive bias). In plain ISMCTS the other
    /// seats choose by statistics shared over every world, as if they did not know their own
    /// cards; the bias makes them play, in each world, more as the search would with those
    /// cards. Where the ruleset has no policy, selection is plain UCB1.
    #[must_use]
    pub fn with_policy_prior(mut self, weight: f32) -> Ismcts {
        self.prior = weight.max(0.0);
        self
    }

    /// The weight of the policy's bias at the other seats' nodes
    /// ([`Ismcts::with_policy_prior`]; 0 for none).
    #[must_use]
    pub const fn policy_prior(&self) -> f32 {
        self.prior
    }

    /// The share of rollout card plays, in thousandths, drawn from the learned policy
    /// ([`Ismcts::with_policy_rollouts`]).
    #[must_use]
    pub const fn policy_rollouts(&self) -> u32 {
        self.policy_permille
    }

    /// The same bot playing to the score of the game: once told where the game stands
    /// ([`Bot::observe_standing`]), it values each finished deal of its search by every seat's
    /// chance of winning the game from there ([`crate::standing`]) instead of by the deal's
    /// scores. Never told (a single deal), it plays as without.
    ///
    /// A decision where the Lot may be declared is still valued by the deal's scores. The
    /// search's rollouts do not defend against a Lot, so they overrate its success; by the
    /// chance of winning, a seat behind, for whom only a made Lot still wins, then declares
    /// on any hand. Four such bots in the 1989 four-player game declared in 80% of the deals
    /// and made 1.9% of them (`docs/STATS.md`, the Lot with the *Expert* level). Rollouts that
    /// play a declared Lot out ([`Ismcts::with_lot_rollouts`]) do not change that: by the
    /// chance of winning, the same four bots with them still declared in 68% of the deals and
    /// made 2.7% (`docs/STATS.md`, "Does playing a declared Lot out in the rollouts make the
    /// search stronger?"); to a seat that cannot win otherwise, a long shot is worth taking.
    #[must_use]
    pub fn with_match_play(mut self) -> Ismcts {
        self.match_play = true;
        self
    }

    /// Whether the bot plays to the score of the game ([`Ismcts::with_match_play`]).
    #[must_use]
    pub const fn plays_to_the_score(&self) -> bool {
        self.match_play
    }

    /// The same bot with every seat of its search valuing a finished deal by its score less
    /// the table's mean ([`over_the_table`]) instead of by its score alone, and playing a
    /// declared Lot out in its rollouts as [`Ismcts::with_lot_rollouts`] does (the
    /// `ismcts-table` bot). A seat is then glad of a trick it takes when the trick costs the
    /// others more, and a deal's outcome is judged as the duplicate comparison and the game's
    /// totals judge it: against the other seats; and a Lot, which moves every seat's score
    /// against the others', is valued as its declarers and defenders would play it. Where a
    /// deal's scores always add up to the same total and there is no Lot, it plays as the
    /// plain search but for its exploration constant, [`TABLE_EXPLORATION`] (the bot's own,
    /// [`Ismcts::exploration`], applies to the searches not so valued). A bot that plays to the
    /// score ([`Ismcts::with_match_play`]) and has been told where the game stands searches as
    /// without, random rollouts included: a seat's chance of winning the game is already judged
    /// against the table, and neither change won more games (`docs/STATS.md`).
    #[must_use]
    pub fn with_table_rewards(mut self) -> Ismcts {
        self.table = true;
        self
    }

    /// Whether the seats of the search value a deal against the table
    /// ([`Ismcts::with_table_rewards`]).
    #[must_use]
    pub const fn plays_against_the_table(&self) -> bool {
        self.table
    }

    /// The same bot drawing its determinisations from worlds weighed by the other seats'
    /// observed play ([`crate::inference`]): the `ismcts-inf` bot.
    #[must_use]
    pub fn with_inference(mut self, inference: Inference) -> Ismcts {
        self.inference = Some(inference);
        self
    }

    /// Whether the bot infers ([`Ismcts::with_inference`]).
    #[must_use]
    pub const fn infers(&self) -> bool {
        self.inference.is_some()
    }

    /// Takes in the view's public history without deciding, for a decision made without the
    /// search (a single legal action, or a level playing on instinct), so that an inferring
    /// bot misses no trick.
    pub fn observe(&mut self, view: &View<'_>) {
        if let Some(inference) = &mut self.inference {
            inference.observe(view);
        }
    }

    /// Whether the bot infers and its log of the deal's public history is complete
    /// ([`crate::inference::Observer::is_complete`]).
    #[must_use]
    pub fn observer_complete(&self) -> bool {
        self.inference
            .as_ref()
            .is_some_and(|i| i.observer().is_complete())
    }

    /// Takes in the bot's own action, chosen without the search ([`Inference::note_own`]).
    pub fn note_own(&mut self, action: Action) {
        if let Some(inference) = &mut self.inference {
            inference.note_own(action);
        }
    }

    /// The same bot with UCB1 exploration constant `c` (rewards are normalised to about
    /// `[-1, 1]`).
    #[must_use]
    pub fn exploration(mut self, c: f64) -> Ismcts {
        self.exploration = c;
        self
    }

    /// The budget per decision.
    #[must_use]
    pub const fn budget(&self) -> Budget {
        self.budget
    }

    /// What the last decision's search did (zero when it had a single legal action).
    #[must_use]
    pub const fn last_search(&self) -> SearchStats {
        self.stats
    }

    /// Searches the view's position and returns the chosen action.
    pub fn search(&mut self, view: &View<'_>) -> Action {
        let start = Instant::now();
        let legal = view.legal_actions();
        if let Some(inference) = &mut self.inference {
            inference.observe(view);
            if legal.len() > 1 {
                let (size, deadline) = match self.budget {
                    Budget::Iterations(n) => ((n / POOL_PER_ITERATIONS).clamp(16, 400), None),
                    Budget::Millis(ms) => {
                        let share = if inference.uses_search() {
                            READ_TIME_PERMILLE
                        } else {
                            POOL_TIME_PERMILLE
                        };
                        (
                            MAX_POOL,
                            Some(start + Duration::from_micros(u64::from(ms) * share)),
                        )
                    }
                };
                let pool = inference.pool(view, size as usize, &mut self.rng, || {
                    deadline.is_none_or(|d| Instant::now() < d)
                });
                if let Some(pool) = pool {
                    self.stats.pool = pool.len();
                    return self.decide(legal, view.rules(), start, |rng| pool.draw(rng));
                }
            }
        }
        let worlds = Worlds::new(*view);
        self.decide(legal, view.rules(), start, |rng| worlds.sample(rng))
    }

    /// Searches `deal` with every hand known: the same tree search, with the true deal as
    /// every iteration's determinisation (perfect-information Monte Carlo tree search, max^n
    /// style). Only a reference player that is shown the true deal may use this.
    pub fn search_known(&mut self, deal: &Deal) -> Action {
        self.decide(deal.legal_actions(), deal.rules(), Instant::now(), |_| {
            deal.clone()
        })
    }

    /// The action to play among `legal`: the only one, or the root action most visited by a
    /// search whose iterations run on worlds from `world`.
    fn decide(
        &mut self,
        legal: ActionSet,
        rules: &Ruleset,
        start: Instant,
        world: impl Fn(&mut ChaCha8Rng) -> Deal,
    ) -> Action {
        let pool = std::mem::take(&mut self.stats.pool);
        let legal = if self.merge && legal.cards.len() > 1 {
            // The classes of the viewer's cards are the same in every world of its view.
            merged(&world(&mut self.rng), legal)
        } else {
            legal
        };
        if legal.len() <= 1 {
            self.stats = SearchStats::default();
            return legal.nth(0).unwrap_or(Action::Pass);
        }
        self.grow(rules, start, world, legal.lot);
        self.stats.pool = pool;
        self.best_root_action()
            .unwrap_or_else(|| legal.nth(0).unwrap_or(Action::Pass))
    }

    /// Grows a fresh tree within the budget (a time budget counted from `start`), each
    /// iteration on a world from `world`; `lot`: the Lot may be declared at the root.
    fn grow(
        &mut self,
        rules: &Ruleset,
        start: Instant,
        world: impl Fn(&mut ChaCha8Rng) -> Deal,
        lot: bool,
    ) {
        let scale = 1.0 / score_scale(rules);
        let model = if self.eval {
            Model::for_rules(rules)
        } else {
            None
        };
        let policy = if self.policy_permille > 0 || self.prior > 0.0 {
            Policy::for_rules(rules)
        } else {
            None
        };
        self.edges.clear();
        self.edges.push(Edge::default());
        self.viewer_actions.clear();
        if self.merge {
            self.viewer_actions.push(0);
        }
        let (limit, deadline) = match self.budget {
            Budget::Iterations(n) => (n.max(1), None),
            Budget::Millis(ms) => (u32::MAX, Some(start + Duration::from_millis(ms.into()))),
        };
        let mut equity = if lot { None } else { self.equity_for(rules) };
        // A bot playing to the score of a game it knows the standing of values every decision
        // by the chance of winning (or, the Lot's, by the deal's scores) as before, with the
        // rollouts it had before: the table's values and Lot play-outs are for a single deal.
        let table = self.table && !(self.match_play && self.standing.is_some());
        let mut done = 0;
        while done < limit {
            let world = world(&mut self.rng);
            self.iterate(world, scale, model, policy, equity.as_deref_mut(), table);
            done += 1;
            if done % CLOCK_EVERY == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
        }
        self.equity = equity.or(self.equity.take());
        self.stats = SearchStats {
            iterations: done,
            edges: self.edges.len(),
            elapsed: start.elapsed(),
            pool: 0,
        };
    }

    /// The equity to value this search's outcomes by, taken out of the bot (put back after
    /// the search): only when the bot plays to the score and knows where the game stands (and
    /// not for a decision on the Lot: [`Ismcts::with_match_play`]).
    fn equity_for(&mut self, rules: &Ruleset) -> Option<Box<Equity>> {
        let standing = self.standing.filter(|_| self.match_play)?;
        let mut equity = match self.equity.take() {
            Some(e) if e.rules() == rules => e,
            _ => Box::new(Equity::new(*rules, self.rng.next_u64())),
        };
        equity.set_standing(standing);
        Some(equity)
    }

    /// The block of edges below edge `parent`.
    fn block(&self, parent: usize) -> std::ops::Range<usize> {
        let p = &self.edges[parent];
        p.first as usize..p.first as usize + usize::from(p.len)
    }

    /// Adds `edge` below edge `parent`, moving the block to the end of the edge vector when
    /// it is full; `hint` (the number of actions legal now) is the block's first size.
    fn add_edge(&mut self, parent: usize, edge: Edge, hint: u32) -> usize {
        let p = self.edges[parent];
        let mut first = p.first as usize;
        if p.len == p.cap {
            let cap = (usize::from(p.cap) * 2).max(hint as usize).clamp(2, 128);
            let start = self.edges.len();
            self.edges
                .extend_from_within(first..first + usize::from(p.len));
            self.edges.resize(start + cap, Edge::default());
            if self.merge {
                self.viewer_actions
                    .extend_from_within(first..first + usize::from(p.len));
                self.viewer_actions.resize(start + cap, 0);
            }
            first = start;
            let p = &mut self.edges[parent];
            p.first = start as u32;
            p.cap = cap as u8;
        }
        let p = &mut self.edges[parent];
        let index = first + usize::from(p.len);
        p.len += 1;
        self.edges[index] = edge;
        index
    }

    /// One iteration on the determinisation `world`: select, expand, roll out, back up.
    fn iterate(
        &mut self,
        mut world: Deal,
        scale: f64,
        model: Option<&Model>,
        policy: Option<&Policy>,
        equity: Option<&mut Equity>,
        table: bool,
    ) {
        let c = if table {
            TABLE_EXPLORATION as f32
        } else {
            self.exploration as f32
        };
        self.path.clear();
        let mut parent = 0;
        let viewer = world.to_act();
        let prior = if self.prior > 0.0 { policy } else { None };
        let mut scratch = std::mem::take(&mut self.scratch);
        // The scoring changes only when a trick is completed.
        let mut scored = usize::MAX;
        let mut scoring = Scoring::default();
        while !world.is_over() {
            let legal = if !self.merge {
                mask_of(&world.legal_actions())
            } else if world.to_act() != viewer {
                mask_of(&merged(&world, world.legal_actions()))
            } else if self.viewer_actions[parent] != 0 {
                self.viewer_actions[parent]
            } else {
                let legal = mask_of(&merged(&world, world.legal_actions()));
                self.viewer_actions[parent] = legal;
                legal
            };
            let block = self.block(parent);
            // The policy's probabilities of the cards of another seat, in this world.
            scratch.clear();
            if let Some(policy) = prior
                && world.to_act() != viewer
            {
                let actions = world.legal_actions();
                if actions.cards.len() > 1 && actions.len() == actions.cards.len() {
                    if scored != world.tricks_completed() {
                        scored = world.tricks_completed();
                        scoring = Scoring::of(&View::new(&world, 0));
                    }
                    let view = View::new(&world, world.to_act());
                    policy.probabilities_with(&view, actions.cards, &scoring, &mut scratch);
                }
            }
            let weight = self.prior;
            // One pass over the node's edges: those legal in this world were available once
            // more, and the best of them by UCB1 is the selection's candidate.
            let lanes = [legal as u64, (legal >> 64) as u64];
            let mut found = 0;
            let mut best = block.start;
            let mut best_value = f32::NEG_INFINITY;
            for (i, e) in self.edges[block.clone()].iter_mut().enumerate() {
                if lanes[usize::from(e.action >> 6)] >> (e.action & 63) & 1 != 0 {
                    found += 1;
                    e.avail += 1;
                    let sqrt_ln = match self.sqrt_ln.get(e.avail as usize) {
                        Some(v) => *v,
                        None => fast_ln(e.avail as f32).sqrt(),
                    };
                    let mut value = e.mean + e.spread * sqrt_ln;
                    if !scratch.is_empty() {
                        let p = scratch
                            .iter()
                            .find(|(card, _)| card.index() == e.action)
                            .map_or(0.0, |(_, p)| *p as f32);
                        value += weight * p / (e.visits + 1) as f32;
                    }
                    if value > best_value {
                        best_value = value;
                        best = block.start + i;
                    }
                }
            }
            let untried = if found == legal.count_ones() {
                0
            } else {
                let tried = self.edges[block.clone()]
                    .iter()
                    .fold(0, |m: Mask, e| m | 1 << e.action);
                legal & !tried
            };
            if untried != 0 {
                // Expansion: one untried action, uniformly.
                let code = nth_bit(untried, below(&mut self.rng, untried.count_ones()));
                let edge = Edge {
                    avail: 1,
                    action: code,
                    seat: world.to_act() as u8,
                    ..Edge::default()
                };
                let index = self.add_edge(parent, edge, legal.count_ones());
                self.path.push(index as u32);
                world.apply_unchecked(decode(code));
                break;
            }
            self.path.push(best as u32);
            world.apply_unchecked(decode(self.edges[best].action));
            parent = best;
        }
        self.scratch = scratch;
        let rewards = if let Some(model) = model {
            truncated_playout(&mut world, &mut self.rng);
            model.values(&world)
        } else if self.endings == 0 {
            if let Some(policy) = policy.filter(|_| self.policy_permille > 0) {
                policy_playout(&mut world, &mut self.rng, policy, self.policy_permille);
            } else if self.lot_rollouts || table {
                lot_playout(&mut world, &mut self.rng);
            } else if self.duck_permille == 0 {
                random_playout(&mut world, &mut self.rng);
            } else {
                ducking_playout(&mut world, &mut self.rng, self.duck_permille);
            }
            deal_rewards(&world)
        } else {
            let exact = world.players() * usize::from(self.endings);
            while !world.is_over() && held(&world) > exact {
                let legal = world.legal_actions();
                match legal.nth(below(&mut self.rng, legal.len() as u32) as usize) {
                    Some(a) => world.apply_unchecked(a),
                    None => break,
                }
            }
            maxn(&world)
        };
        let rewards = match equity {
            Some(equity) => equity.values(&rewards),
            None => rewards,
        };
        let rewards = if table {
            over_the_table(&rewards, world.players())
        } else {
            rewards
        };
        for &i in &self.path {
            let e = &mut self.edges[i as usize];
            e.visits += 1;
            let visits = e.visits as f32;
            let reward = (rewards[e.seat as usize] * scale) as f32;
            e.mean += (reward - e.mean) / visits;
            e.spread = c / visits.sqrt();
        }
    }

    /// The root's edges.
    fn root_edges(&self) -> &[Edge] {
        if self.edges.is_empty() {
            return &[];
        }
        &self.edges[self.block(0)]
    }

    /// The root action with the most visits (ties: the better mean, then the lower code).
    fn best_root_action(&self) -> Option<Action> {
        self.root_edges()
            .iter()
            .max_by(|a, b| {
                (a.visits, a.mean, b.action)
                    .partial_cmp(&(b.visits, b.mean, a.action))
                    .unwrap_or(std::cmp::Ordering::Equal)
            })
            .map(|e| decode(e.action))
    }

    /// Root statistics of the last search: each tried action with its visits and mean reward,
    /// most visited first.
    #[must_use]
    pub fn root_children(&self) -> Vec<(Action, u32, f64)> {
        let mut out: Vec<_> = self
            .root_edges()
            .iter()
            .map(|e| (decode(e.action), e.visits, f64::from(e.mean)))
            .collect();
        out.sort_by_key(|(_, v, _)| std::cmp::Reverse(*v));
        out
    }
}

impl Bot for Ismcts {
    fn name(&self) -> &str {
        if self.inference.as_ref().is_some_and(Inference::uses_search) {
            "ismcts-read"
        } else if self.inference.as_ref().is_some_and(Inference::uses_reader) {
            "ismcts-net"
        } else if self.inference.as_ref().is_some_and(Inference::uses_policy) {
            "ismcts-pol"
        } else if self.infers() {
            "ismcts-inf"
        } else if self.eval {
            "ismcts-eval"
        } else if self.merge {
            "ismcts-eq"
        } else if self.duck_permille != 0 {
            "ismcts-duck"
        } else if self.table {
            "ismcts-table"
        } else if self.lot_rollouts {
            "ismcts-lot"
        } else {
            "ismcts"
        }
    }

    fn act(&mut self, view: &View<'_>) -> Action {
        let action = self.search(view);
        self.note_own(action);
        action
    }

    fn observe_standing(&mut self, standing: &Standing) {
        self.standing = Some(*standing);
    }
}

/// The tricks left at which `ismcts-inf` ends its rollouts exactly ([`Ismcts::with_endings`]):
/// none, random rollouts to the end (exact endings measured no better at equal time;
/// `docs/STATS.md`).
pub const INF_ENDINGS: u8 = 0;

/// The most tricks left at which [`Ismcts::with_endings`] plays a rollout's end exactly.
pub const MAX_ENDING_TRICKS: u8 = 3;

/// Plays `deal` at random one whole trick past the one in progress (the trick in progress
/// finished, then the next; at a trick's start, that trick), or to its end: the rollout of
/// [`Ismcts::with_eval`]. Once a seat has declared the Lot the deal is played out: its score
/// is then all or nothing on every trick, which the linear evaluation cannot value (and the
/// rule of thumb it learned from never declares).
pub fn truncated_playout(deal: &mut Deal, rng: &mut ChaCha8Rng) {
    let stop = deal.tricks_completed() + 1 + usize::from(!deal.current_trick().is_empty());
    while !deal.is_over() && (deal.tricks_completed() < stop || deal.lot().declarers != 0) {
        let legal = deal.legal_actions();
        match legal.nth(below(rng, legal.len() as u32) as usize) {
            Some(a) => deal.apply_unchecked(a),
            None => break,
        }
    }
}

/// The share of rollout card plays, in thousandths, that `ismcts-duck` gives the ducking rule.
pub const DUCK_PERMILLE: u32 = 500;

/// Plays `deal` to its end as [`random_playout`] does, except that each card play is, with
/// probability `permille` / 1000, the ducking rule's ([`duck`]): a cheap bias towards the
/// play of the avoidance games, where taking tricks and points costs.
pub fn ducking_playout(deal: &mut Deal, rng: &mut ChaCha8Rng, permille: u32) {
    while !deal.is_over() {
        let actions = deal.legal_actions();
        let cards = actions.cards;
        let action =
            if cards.len() > 1 && cards.len() == actions.len() && below(rng, 1000) < permille {
                duck(deal, cards).map(Action::Play)
            } else {
                actions.nth(below(rng, actions.len() as u32) as usize)
            };
        match action {
            Some(a) => deal.apply_unchecked(a),
            None => break,
        }
    }
}

/// Plays `deal` to its end as [`random_playout`] does, except that while a declared Lot is
/// still in play (a declarer has won every trick so far), every card is the Lot's play
/// ([`lot_card`]): the declarers play to win every trick and the other seats to beat them.
/// A Lot's declaration itself stays a random choice among the legal actions.
pub fn lot_playout(deal: &mut Deal, rng: &mut ChaCha8Rng) {
    while !deal.is_over() {
        let actions = deal.legal_actions();
        let cards = actions.cards;
        let action = if !deal.lot().in_play().is_empty() && cards.len() == actions.len() {
            lot_card(deal, cards, rng).map(Action::Play)
        } else {
            actions.nth(below(rng, actions.len() as u32) as usize)
        };
        match action {
            Some(a) => deal.apply_unchecked(a),
            None => break,
        }
    }
}

/// The Lot's card among `cards` (legal in `deal`, where a card is to be played, with a
/// declarer still in play), read from the whole deal as a rollout may:
///
/// - a declarer leads a card that no other hand can beat when it is led, else its strongest;
///   following, it plays its strongest card;
/// - another seat beats a declarer who is winning the trick, with its weakest card that does;
///   when a declarer is still to play to the trick, it plays its strongest card of the suit
///   led (to make beating it harder); when it can do neither, it throws its lowest card and
///   keeps its high ones for a later trick; once every declarer in the trick is beaten, it
///   plays at random.
pub fn lot_card(deal: &Deal, cards: CardSet, rng: &mut ChaCha8Rng) -> Option<Card> {
    let rules = deal.rules();
    let trump = deal.trump();
    let seat = deal.to_act();
    let declaring = deal.lot().in_play();
    let trick = deal.current_trick();
    let led = deal.led();
    let following = |c: Card| rules.strength(c, led, trump, false);
    let rank = |c: Card| c.rank().map_or(0, |r| rules.ranking.strength(r));
    if trick.is_empty() {
        let as_led = |c: Card| rules.strength(c, c.suit(), trump, true);
        let strongest = cards.iter().max_by_key(|&c| (as_led(c), c.index()));
        if !declaring.contains(seat) {
            return strongest;
        }
        let others = (0..deal.players())
            .filter(|&s| s != seat)
            .fold(CardSet::EMPTY, |all, s| all | deal.hand(s));
        let safe = |c: Card| {
            let height = as_led(c);
            others
                .iter()
                .all(|d| rules.strength(d, c.suit(), trump, false) < height)
        };
        return cards
            .iter()
            .filter(|&c| safe(c))
            .max_by_key(|&c| (as_led(c), c.index()))
            .or(strongest);
    }
    let strongest = cards
        .iter()
        .max_by_key(|&c| (following(c), rank(c), c.index()));
    if declaring.contains(seat) {
        return strongest;
    }
    let lowest = || {
        cards
            .iter()
            .min_by_key(|&c| (following(c), rank(c), c.index()))
    };
    let winning = trick
        .iter()
        .enumerate()
        .map(|(i, &c)| rules.strength(c, led, trump, i == 0))
        .max()
        .unwrap_or(STRENGTH_LOSES);
    if deal.winning().is_some_and(|w| declaring.contains(w)) {
        return cards
            .iter()
            .filter(|&c| following(c) > winning)
            .min_by_key(|&c| (following(c), c.index()))
            .or_else(lowest);
    }
    let players = deal.players();
    let still_to_play = players - trick.len() - 1;
    if (1..=still_to_play).any(|k| declaring.contains((seat + k) % players)) {
        return strongest
            .filter(|&c| following(c) > STRENGTH_LOSES)
            .or_else(lowest);
    }
    cards.iter().nth(below(rng, cards.len() as u32) as usize)
}

/// The ducking rule's card among `cards` (legal in `deal`, where a card is to be played): the
/// weakest to lead; when following, the strongest card that stays under the trick's winning
/// card (a discard: the one worth most, then the highest), or the strongest card when every
/// card wins. Strength is [`Ruleset::strength`] with the trump in force.
#[must_use]
pub fn duck(deal: &Deal, cards: CardSet) -> Option<Card> {
    duck_in(
        deal.rules(),
        deal.trump(),
        deal.current_trick(),
        deal.led(),
        cards,
    )
}

/// [`duck`] from the facts it reads: the rules, the trump in force, the trick so far and its
/// led suit (what a seat's [`View`] shows as well as a deal).
pub(crate) fn duck_in(
    rules: &Ruleset,
    trump: Trump,
    trick: &[Card],
    led: Option<Suit>,
    cards: CardSet,
) -> Option<Card> {
    if trick.is_empty() {
        return cards
            .iter()
            .min_by_key(|&c| (rules.strength(c, c.suit(), trump, true), c.index()));
    }
    let winning = trick
        .iter()
        .enumerate()
        .map(|(i, &c)| rules.strength(c, led, trump, i == 0))
        .max()
        .unwrap_or(0);
    let key = |c: Card| {
        let strength = rules.strength(c, led, trump, false);
        let rank = c.rank().map_or(0, |r| rules.ranking.strength(r));
        (strength, rules.card_value(c, trump), rank)
    };
    cards
        .iter()
        .filter(|&c| rules.strength(c, led, trump, false) < winning)
        .max_by_key(|&c| key(c))
        .or_else(|| cards.iter().max_by_key(|&c| key(c)))
}

/// `legal`, the actions legal in `deal`, with one card of each class of equivalent cards
/// of the hand to act ([`representatives`]: the lowest).
fn merged(deal: &Deal, legal: ActionSet) -> ActionSet {
    ActionSet {
        cards: representatives(deal, legal.cards),
        ..legal
    }
}

/// The cards still held, every hand together.
fn held(deal: &Deal) -> usize {
    (0..deal.players()).map(|s| deal.hand(s).len()).sum()
}

/// Each seat's reward ([`deal_rewards`]) at the end of `deal` played by max^n: every seat to
/// act takes the action best for its own reward (the first of equals, in
/// [`ActionSet::iter`] order), knowing every hand. Exponential in the actions left: for the
/// last few tricks only.
#[must_use]
pub fn maxn(deal: &Deal) -> [f64; torite_core::MAX_SEATS] {
    if deal.is_over() {
        return deal_rewards(deal);
    }
    let me = deal.to_act();
    let legal = deal.legal_actions();
    let mut best: Option<[f64; torite_core::MAX_SEATS]> = None;
    for action in legal.iter() {
        let mut next = deal.clone();
        next.apply_unchecked(action);
        let value = maxn(&next);
        if best.is_none_or(|b| value[me] > b[me]) {
            best = Some(value);
        }
    }
    best.unwrap_or_else(|| deal_rewards(deal))
}

/// Natural logarithm to about five decimals, for the exploration term (`x >= 1`): the
/// exponent, plus the `atanh` series of the mantissa's logarithm.
fn fast_ln(x: f32) -> f32 {
    let bits = x.to_bits();
    let exponent = ((bits >> 23) & 0xff) as i32 - 127;
    let m = f32::from_bits((bits & 0x007f_ffff) | 0x3f80_0000);
    // ln m = 2 atanh t with t = (m - 1) / (m + 1) in [0, 1/3).
    let t = (m - 1.0) / (m + 1.0);
    let t2 = t * t;
    let ln_m = 2.0 * t * (1.0 + t2 * (1.0 / 3.0 + t2 * (1.0 / 5.0 + t2 * (1.0 / 7.0))));
    exponent as f32 * std::f32::consts::LN_2 + ln_m
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::after;
    use crate::inference::Inference;
    use crate::make_bot;
    use torite_core::{CardSet, JokerRule, Phase, Preset, Ruleset, Trump};

    /// A random position of `rules`: a random deal played `steps` random actions in.
    fn position(rules: Ruleset, seed: u64, steps: usize) -> Deal {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut deal = Deal::random(rules, (seed % 5) as usize, &mut rng);
        for _ in 0..steps {
            if deal.is_over() {
                break;
            }
            let legal = deal.legal_actions();
            let a = legal
                .nth(below(&mut rng, legal.len() as u32) as usize)
                .expect("legal action");
            deal.apply_unchecked(a);
        }
        deal
    }

    /// Random positions of every preset, from the first action to the last.
    fn positions() -> Vec<Deal> {
        let mut out = Vec::new();
        for (p, preset) in Preset::ALL.into_iter().enumerate() {
            let rules = preset.ruleset();
            let actions = rules.deck().len() + 8;
            for i in 0..12u64 {
                let steps = (i as usize * actions) / 12;
                let deal = position(rules, 1000 * p as u64 + i, steps);
                if !deal.is_over() {
                    out.push(deal);
                }
            }
        }
        out
    }

    fn check_world(view: &View<'_>, world: &Deal, what: &str) {
        let n = view.rules().players as usize;
        let me = view.seat();
        assert_eq!(
            world.hand(me),
            view.hand(),
            "{what}: the viewer's hand is kept"
        );
        let sizes = view.hand_sizes();
        assert_eq!(sizes.len(), n);
        let mut all = CardSet::EMPTY;
        for (seat, size) in sizes.into_iter().enumerate() {
            let hand = world.hand(seat);
            assert_eq!(hand.len(), size, "{what}: seat {seat}'s hand size");
            assert!(
                hand.is_disjoint(view.played()),
                "{what}: seat {seat} holds a played card"
            );
            assert!(hand.is_disjoint(all), "{what}: a card dealt twice");
            all |= hand;
            if seat != me {
                if let Trump::Suit(trump) = view.trump()
                    && view.rules().joker == Some(JokerRule::HighestTrump)
                    && view.voids(seat) & (1 << trump.index()) != 0
                {
                    assert!(
                        !hand.contains(Card::JOKER),
                        "{what}: seat {seat} holds the joker after showing void in trump"
                    );
                }
                for suit in Suit::ALL {
                    if view.voids(seat) & (1 << suit.index()) != 0 {
                        assert!(
                            hand.of_suit(suit).is_empty(),
                            "{what}: seat {seat} holds {suit} after showing void"
                        );
                    }
                }
            }
        }
        assert_eq!(
            all | view.played(),
            view.rules().deck(),
            "{what}: every card is somewhere"
        );
        assert_eq!(world.played(), view.played(), "{what}: public facts kept");
        assert_eq!(
            world.to_act(),
            view.to_act(),
            "{what}: the seat to act is kept"
        );
    }

    #[test]
    fn determinisations_never_contradict_the_view() {
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        for deal in positions() {
            for seat in 0..deal.players() {
                let view = View::new(&deal, seat);
                let worlds = Worlds::new(view);
                for _ in 0..4 {
                    let world = worlds.sample(&mut rng);
                    check_world(&view, &world, deal.rules().id());
                    let world = view.sample_world(&mut rng);
                    check_world(&view, &world, "View::sample_world");
                }
            }
        }
    }

    #[test]
    fn middler_joker_void_in_trump_holds_no_joker() {
        let rules = Preset::MiddlerJoker.ruleset();
        let mut checked = 0;
        for seed in 0..400 {
            let deal = position(rules, seed, 20);
            let Trump::Suit(trump) = deal.trump() else {
                continue;
            };
            for seat in 0..3 {
                if seat == deal.to_act() || deal.voids(seat) & (1 << trump.index()) == 0 {
                    continue;
                }
                let view = View::new(&deal, deal.to_act());
                assert!(!view.possible(seat).contains(Card::JOKER));
                assert!(!deal.hand(seat).contains(Card::JOKER));
                let worlds = Worlds::new(view);
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                for _ in 0..8 {
                    check_world(&view, &worlds.sample(&mut rng), "Worlds");
                    check_world(&view, &view.sample_world(&mut rng), "View::sample_world");
                }
                checked += 1;
            }
        }
        assert!(checked > 0);
    }

    fn small(seed: u64) -> Ismcts {
        Ismcts::with_budget(seed, Budget::Iterations(150))
    }

    /// A search playing to the score but never told the standing (a single deal) plays as
    /// the plain search, card for card.
    #[test]
    fn playing_to_the_score_untold_plays_as_the_plain_search() {
        for deal in positions() {
            let view = View::new(&deal, deal.to_act());
            let plain = small(4).act(&view);
            let to_the_score = small(4).with_match_play().act(&view);
            assert_eq!(plain, to_the_score);
        }
    }

    /// Told where the game stands, a search playing to the score values its decisions by the
    /// chance of winning whether or not it values deals against the table, visit for visit:
    /// *Expert*'s whole games are played as before the table's values.
    #[test]
    fn told_the_standing_a_search_playing_to_the_score_ignores_the_table() {
        let standing = Standing {
            totals: [3, 9, 14, 6, 0, 0],
            deals: 2,
        };
        let mut checked = 0;
        for deal in positions() {
            if ![Preset::MiniMisere4.ruleset(), Preset::Mura4.ruleset()].contains(deal.rules()) {
                continue;
            }
            searches_alike(
                told(small(4).with_match_play(), &standing),
                told(small(4).with_match_play().with_table_rewards(), &standing),
                &deal,
            );
            checked += 1;
        }
        assert!(checked >= 2, "{checked}");
        // Nor does it play a declared Lot out in its rollouts: at the first card of a deal,
        // where every seat may still declare, it searches as the plain search to the score.
        searches_alike(
            told(small(4).with_match_play(), &standing),
            told(small(4).with_match_play().with_table_rewards(), &standing),
            &lot_still_open(),
        );
    }

    /// `bot` told `standing`.
    fn told(mut bot: Ismcts, standing: &Standing) -> Ismcts {
        bot.observe_standing(standing);
        bot
    }

    /// Asserts that `a` and `b`, deciding for the seat to act in `deal`, choose the same
    /// action with the same visits and means at the root.
    fn searches_alike(mut a: Ismcts, mut b: Ismcts, deal: &Deal) {
        let view = View::new(deal, deal.to_act());
        assert_eq!(a.act(&view), b.act(&view));
        assert_eq!(a.root_children(), b.root_children());
    }

    /// A `mini-misere-4` deal at its first card, where every seat may still declare the Lot.
    fn lot_still_open() -> Deal {
        let deal = Deal::random(
            Preset::MiniMisere4.ruleset(),
            0,
            &mut ChaCha8Rng::seed_from_u64(5),
        );
        assert!(deal.legal_actions().lot);
        deal
    }

    /// A search that values a single deal against the table plays a declared Lot out in its
    /// rollouts, as `ismcts-lot`'s do: from the first card of a deal, where every seat may
    /// still declare, it searches exactly as the same search with Lot play-outs asked for.
    #[test]
    fn against_the_table_a_search_plays_a_declared_lot_out() {
        searches_alike(
            small(4).with_table_rewards(),
            small(4).with_table_rewards().with_lot_rollouts(),
            &lot_still_open(),
        );
    }

    /// A `mini-misere-4-1989` standing after three deals in which seat 0 is far behind.
    const FAR_BEHIND: Standing = Standing {
        totals: [0, 20, 28, 12, 0, 0],
        deals: 3,
    };

    /// A decision on the Lot is valued by the deal's scores even when playing to the score: a
    /// seat far behind, whose only way to win is a made Lot, decides as the plain search does,
    /// visit for visit (the rollouts overrate a Lot; `Ismcts::with_match_play`).
    #[test]
    fn a_seat_far_behind_decides_the_lot_by_the_deal_not_by_despair() {
        let rules = Preset::MiniMisere4_1989.ruleset();
        let deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(2));
        assert!(deal.legal_actions().lot);
        searches_alike(
            told(small(6).with_match_play(), &FAR_BEHIND),
            small(6),
            &deal,
        );
    }

    /// Rollouts that play the Lot out do not change that: the decision on the Lot is still
    /// the one the same search makes for the deal, visit for visit.
    #[test]
    fn with_the_lot_played_out_a_seat_far_behind_still_decides_the_lot_by_the_deal() {
        let rules = Preset::MiniMisere4_1989.ruleset();
        let deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(2));
        searches_alike(
            told(small(6).with_match_play().with_lot_rollouts(), &FAR_BEHIND),
            small(6).with_lot_rollouts(),
            &deal,
        );
    }

    /// Once the game is decided whatever this deal brings (one seat far past the target), every
    /// outcome is worth the same to a search playing to the score: all its root means are
    /// equal, where the plain search's differ.
    #[test]
    fn when_the_game_is_decided_every_card_is_worth_the_same() {
        let rules = Preset::MiniMisere4.ruleset();
        let mut deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(3));
        // Past the first trick, where the Lot may no longer be declared (a decision on the
        // Lot is valued by the deal's scores).
        while deal.tricks_completed() == 0 {
            let card = deal
                .legal_actions()
                .cards
                .iter()
                .next()
                .expect("a card to play");
            deal.apply(Action::Play(card)).expect("a legal card");
        }
        let view = View::new(&deal, deal.to_act());
        assert!(!view.legal_actions().lot);
        let mut bot = small(5).with_match_play();
        bot.observe_standing(&Standing {
            totals: [90, 0, 0, 0, 0, 0],
            deals: 9,
        });
        bot.act(&view);
        let means: Vec<f64> = bot.root_children().iter().map(|c| c.2).collect();
        assert!(means.len() > 1);
        assert!(
            means.iter().all(|m| (m - means[0]).abs() < 1e-6),
            "{means:?}"
        );
        let mut plain = small(5);
        plain.act(&view);
        let means: Vec<f64> = plain.root_children().iter().map(|c| c.2).collect();
        assert!(
            means.iter().any(|m| (m - means[0]).abs() > 1e-3),
            "{means:?}"
        );
    }

    #[test]
    fn only_legal_actions_in_every_preset() {
        for deal in positions() {
            let view = View::new(&deal, deal.to_act());
            let action = small(1).act(&view);
            assert!(
                deal.is_legal(action),
                "{}: {action} illegal",
                deal.rules().id()
            );
        }
    }

    /// Plays `deal` to its end, `seat` choosing with ISMCTS and the others at random; checks
    /// every choice of the bot.
    fn play_out_with(mut deal: Deal, seat: usize, seed: u64) -> Vec<Action> {
        let mut bot = small(seed);
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut chosen = Vec::new();
        while !deal.is_over() {
            let action = if deal.to_act() == seat {
                let a = bot.act(&View::new(&deal, seat));
                chosen.push(a);
                a
            } else {
                let legal = deal.legal_actions();
                legal
                    .nth(below(&mut rng, legal.len() as u32) as usize)
                    .expect("legal")
            };
            deal.apply(action)
                .unwrap_or_else(|e| panic!("{}: {action}: {e}", deal.rules().id()));
        }
        chosen
    }

    #[test]
    fn lot_questions_calls_and_first_card_lot() {
        // 1989 timing: the first seat to act is asked about the Lot.
        let rules = Preset::MiniMisere4_1989.ruleset();
        let deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(5));
        assert_eq!(deal.phase(), Phase::LotQuestion);
        let a = small(2).act(&View::new(&deal, deal.to_act()));
        assert!(matches!(a, Action::Lot | Action::Pass));
        // Current timing: lot or a card with the first card.
        let rules = Preset::MiniMisere4.ruleset();
        let deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(6));
        assert!(deal.legal_actions().lot);
        assert!(deal.is_legal(small(3).act(&View::new(&deal, deal.to_act()))));
        // After declaring, the same seat must play a card.
        let mut declared = deal.clone();
        declared.apply(Action::Lot).expect("lot is legal");
        let a = small(3).act(&View::new(&declared, declared.to_act()));
        assert!(matches!(a, Action::Play(_)) && declared.is_legal(a));
        // 1989 five players: a leader holding the joker leads it and names a suit.
        let rules = Preset::MiniMisere5_1989.ruleset();
        let mut calls = 0;
        for seed in 0..200 {
            let mut deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(seed));
            while deal.phase() == Phase::LotQuestion {
                deal.apply(Action::Pass).expect("pass");
            }
            if deal.hand(deal.to_act()).contains(Card::JOKER) {
                deal.apply(Action::Play(Card::JOKER)).expect("joker lead");
                assert_eq!(deal.phase(), Phase::CallSuit);
                let a = small(seed).act(&View::new(&deal, deal.to_act()));
                assert!(matches!(a, Action::Call(_)) && deal.is_legal(a));
                calls += 1;
                if calls == 3 {
                    break;
                }
            }
        }
        assert_eq!(calls, 3);
        // Whole deals of every preset, every seat.
        for (p, preset) in Preset::ALL.into_iter().enumerate() {
            let rules = preset.ruleset();
            let seed = 50 + p as u64;
            let deal = Deal::random(rules, p, &mut ChaCha8Rng::seed_from_u64(seed));
            play_out_with(deal, p % rules.players as usize, seed);
        }
    }

    #[test]
    fn same_seed_same_decisions() {
        for preset in [
            Preset::MiniMisere5_1989,
            Preset::MittlereJass,
            Preset::Mura4,
        ] {
            let rules = preset.ruleset();
            let deal = Deal::random(rules, 1, &mut ChaCha8Rng::seed_from_u64(9));
            let a = play_out_with(deal.clone(), 0, 11);
            let b = play_out_with(deal.clone(), 0, 11);
            assert_eq!(a, b, "{}", preset.id());
        }
        let deal = Deal::random(
            Preset::MolotowJass.ruleset(),
            0,
            &mut ChaCha8Rng::seed_from_u64(10),
        );
        let view = View::new(&deal, deal.to_act());
        let mut x = make_bot("ismcts:300", 4).expect("ismcts is a bot");
        let mut y = make_bot("ismcts:300", 4).expect("ismcts is a bot");
        assert_eq!(x.act(&view), y.act(&view));
    }

    #[test]
    fn a_time_budget_stops_the_search() {
        let deal = Deal::random(
            Preset::Mura4.ruleset(),
            0,
            &mut ChaCha8Rng::seed_from_u64(12),
        );
        let mut bot = Ismcts::with_budget(1, Budget::Millis(20));
        let a = bot.act(&View::new(&deal, deal.to_act()));
        assert!(deal.is_legal(a));
        let stats = bot.last_search();
        assert!(stats.iterations > 0);
        assert!(stats.elapsed < Duration::from_millis(1000), "{stats:?}");
    }

    #[test]
    fn an_inferring_search_out_of_time_still_plays_legally() {
        // A millisecond is gone before the worlds are weighed: the search still weighs its
        // few worlds, runs its iterations and returns a legal action, in every preset and at
        // every decision of whole deals.
        for (p, preset) in Preset::ALL.into_iter().enumerate() {
            let rules = preset.ruleset();
            let mut deal = Deal::random(rules, p % 3, &mut ChaCha8Rng::seed_from_u64(p as u64));
            let n = deal.players();
            let mut bots: Vec<Ismcts> = (0..n)
                .map(|s| {
                    Ismcts::with_budget(s as u64, Budget::Millis(1))
                        .with_inference(Inference::new())
                })
                .collect();
            let mut pooled = 0;
            while !deal.is_over() {
                let seat = deal.to_act();
                let a = bots[seat].act(&View::new(&deal, seat));
                let stats = bots[seat].last_search();
                if deal.legal_actions().len() > 1 {
                    assert!(stats.iterations >= 1, "{preset:?}");
                }
                pooled += usize::from(stats.pool > 0);
                deal.apply(a)
                    .unwrap_or_else(|e| panic!("{}: {a}: {e}", preset.id()));
            }
            assert!(pooled > 0, "{preset:?}: no decision weighed its worlds");
            assert_eq!(bots[0].name(), "ismcts-inf");
        }
    }

    #[test]
    fn an_inferring_search_is_reproducible_under_an_iteration_budget() {
        let rules = Preset::MolotowJass.ruleset();
        let deal = Deal::random(rules, 1, &mut ChaCha8Rng::seed_from_u64(21));
        let play = || {
            let mut deal = deal.clone();
            let mut bots: Vec<Ismcts> = (0..4)
                .map(|s| {
                    Ismcts::with_budget(s, Budget::Iterations(200)).with_inference(Inference::new())
                })
                .collect();
            let mut actions = Vec::new();
            while !deal.is_over() {
                let seat = deal.to_act();
                let a = bots[seat].act(&View::new(&deal, seat));
                deal.apply(a).expect("legal");
                actions.push(a);
            }
            actions
        };
        assert_eq!(play(), play());
    }

    #[test]
    fn maxn_endings_take_each_seats_best() {
        // In every preset, with two tricks left: the seat to act gets the best of its
        // actions' max^n values, and the values are those of a deal played to its end.
        for (p, preset) in Preset::ALL.into_iter().enumerate() {
            let rules = preset.ruleset();
            let n = rules.players as usize;
            for seed in 0..4u64 {
                let mut deal = position(rules, 300 * p as u64 + seed, 0);
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                while !deal.is_over() && held(&deal) > 2 * n {
                    let legal = deal.legal_actions();
                    let a = legal.nth(below(&mut rng, legal.len() as u32) as usize);
                    deal.apply_unchecked(a.expect("an action"));
                }
                if deal.is_over() {
                    continue;
                }
                let value = maxn(&deal);
                let me = deal.to_act();
                let best = deal
                    .legal_actions()
                    .iter()
                    .map(|a| {
                        let mut next = deal.clone();
                        next.apply_unchecked(a);
                        maxn(&next)[me]
                    })
                    .fold(f64::NEG_INFINITY, f64::max);
                assert_eq!(value[me], best, "{preset:?}");
                let bounds = score_scale(&rules);
                assert!(value[..n].iter().all(|v| v.abs() <= bounds), "{preset:?}");
            }
        }
        // With one card each, max^n is the play-out.
        let rules = Preset::MiniMisere4.ruleset();
        let mut deal = position(rules, 5, 0);
        while !deal.is_over() && held(&deal) > 4 {
            let a = deal.legal_actions().nth(0).expect("an action");
            deal.apply_unchecked(a);
        }
        let value = maxn(&deal);
        random_playout(&mut deal, &mut ChaCha8Rng::seed_from_u64(1));
        assert_eq!(value, deal_rewards(&deal));
    }

    #[test]
    fn endings_play_legally_and_reproducibly() {
        for preset in [Preset::MiniMisere4, Preset::MolotowJass, Preset::Mura3] {
            let rules = preset.ruleset();
            let deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(8));
            let play = || {
                let mut deal = deal.clone();
                let mut bot = Ismcts::with_budget(3, Budget::Iterations(150)).with_endings(2);
                let mut chosen = Vec::new();
                while !deal.is_over() {
                    let a = bot.act(&View::new(&deal, deal.to_act()));
                    deal.apply(a).expect("legal");
                    chosen.push(a);
                }
                chosen
            };
            assert_eq!(play(), play(), "{preset:?}");
        }
    }

    #[test]
    fn single_legal_action_needs_no_search() {
        let rules = Preset::MittlereJass.ruleset();
        for seed in 0..50 {
            let deal = position(rules, seed, 34);
            if deal.is_over() || deal.legal_actions().len() != 1 {
                continue;
            }
            let mut bot = Ismcts::new(1);
            let a = bot.act(&View::new(&deal, deal.to_act()));
            assert!(deal.is_legal(a));
            assert_eq!(bot.last_search().iterations, 0);
            return;
        }
        panic!("no forced position found");
    }

    #[test]
    fn action_codes_round_trip() {
        let set = ActionSet {
            cards: "AS 2H JK".parse().expect("cards"),
            lot: true,
            pass: true,
            calls: 0b1010,
            joker: true,
        };
        let mask = mask_of(&set);
        assert_eq!(mask.count_ones() as usize, set.len());
        let decoded: Vec<Action> = (0..mask.count_ones())
            .map(|i| decode(nth_bit(mask, i)))
            .collect();
        assert_eq!(decoded, set.iter().collect::<Vec<_>>());
    }

    #[test]
    fn fast_ln_is_close() {
        for x in [1.0f32, 2.0, 3.0, 10.0, 1000.0, 123_456.0] {
            assert!((fast_ln(x) - x.ln()).abs() < 1e-4, "{x}");
        }
    }

    /// Mini Misère with each seat holding one whole suit, seat 0 (spades) to lead: declaring
    /// the Lot scores 12, while winning all six tricks without it scores 0.
    fn one_suit_each() -> Deal {
        let hands = [
            "AS KS QS JS TS 2S",
            "AH KH QH JH TH 2H",
            "AD KD QD JD TD 2D",
            "AC KC QC JC TC 2C",
        ]
        .map(|h| h.parse().expect("hand"));
        Deal::new(Preset::MiniMisere4.ruleset(), 3, &hands).expect("deal")
    }

    #[test]
    fn search_finds_the_sure_win() {
        let deal = one_suit_each();
        let mut bot = Ismcts::with_budget(1, Budget::Iterations(2000));
        assert_eq!(bot.act(&View::new(&deal, 0)), Action::Lot);
    }

    #[test]
    fn truncated_rollouts_stop_one_trick_on_with_values_in_the_score_range() {
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for deal in positions() {
            let rules = *deal.rules();
            let model = crate::eval::Model::for_rules(&rules).expect("every preset has a model");
            let mut world = deal.clone();
            let before = world.tricks_completed();
            let mid_trick = !world.current_trick().is_empty();
            truncated_playout(&mut world, &mut rng);
            if !world.is_over() {
                assert_eq!(world.lot().declarers, 0, "a Lot is played out");
                assert_eq!(
                    world.tricks_completed(),
                    before + 1 + usize::from(mid_trick),
                    "{}",
                    rules.id()
                );
                assert!(world.current_trick().is_empty(), "{}", rules.id());
            }
            // Normalised as the search normalises, the values stay near [-1, 1].
            let scale = score_scale(&rules);
            for v in &model.values(&world)[..world.players()] {
                assert!(
                    v.is_finite() && (v / scale).abs() <= 1.5,
                    "{}: {v}",
                    rules.id()
                );
            }
        }
    }

    #[test]
    fn the_evaluating_search_plays_legally_and_reproducibly() {
        for deal in positions().into_iter().step_by(3) {
            let view = View::new(&deal, deal.to_act());
            let mut a = Ismcts::with_budget(9, Budget::Iterations(300)).with_eval();
            let mut b = Ismcts::with_budget(9, Budget::Iterations(300)).with_eval();
            assert_eq!(a.name(), "ismcts-eval");
            assert!(a.evaluates());
            let action = a.act(&view);
            assert!(deal.is_legal(action), "{}: {action}", deal.rules().id());
            assert_eq!(b.act(&view), action, "{}", deal.rules().id());
        }
        // A ruleset with a house rule has no model: the rollouts are played out.
        let mut rules = Preset::MiniMisere4.ruleset();
        rules.lot = None;
        let deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(2));
        let mut bot = Ismcts::with_budget(3, Budget::Iterations(200)).with_eval();
        let action = bot.act(&View::new(&deal, deal.to_act()));
        assert!(deal.is_legal(action));
        assert_eq!(bot.last_search().iterations, 200);
    }

    /// The cards the merging search considers at `deal`'s position.
    fn merged_cards(deal: &Deal) -> CardSet {
        merged(deal, deal.legal_actions()).cards
    }

    fn cards(text: &str) -> CardSet {
        text.parse().expect("cards")
    }

    /// Mini Misère, seat 0 to lead holding KS QS TS, with JS (seat 1) still out.
    fn spades_apart() -> Deal {
        let hands = [
            "KS QS TS AH 2C JD",
            "JS AS 2S AD KD QD",
            "KH QH JH TH 2H TD",
            "AC KC QC JC TC 2D",
        ]
        .map(|h| h.parse().expect("hand"));
        Deal::new(Preset::MiniMisere4.ruleset(), 3, &hands).expect("deal")
    }

    #[test]
    fn adjacent_cards_merge_and_an_unseen_card_between_keeps_them_apart() {
        let deal = spades_apart();
        assert_eq!(deal.to_act(), 0);
        // KS and QS: nothing between them outside the hand, one class (its lowest, QS). TS:
        // the unseen JS lies between it and QS.
        assert_eq!(merged_cards(&deal), cards("QS TS AH 2C JD"));
        // The Lot stays an action beside the cards.
        assert!(merged(&deal, deal.legal_actions()).lot);
        // Once JS has gone in a completed trick, KS, QS and TS are one class.
        let mut deal = deal;
        for card in ["AH", "JS", "KH", "AC"] {
            let card = card.parse().expect("card");
            deal.apply(Action::Play(card)).expect("legal");
        }
        assert_eq!(deal.to_act(), 0, "AH won the trick");
        assert_eq!(merged_cards(&deal), cards("TS 2C JD"));
        // A card between them in the trick in progress keeps them apart: seat 1 leads JS
        // to seat 2, who holds QS and TS.
        let hands = [
            "AH KH QH JH TH 2H",
            "JS AS 2S AD KD QD",
            "KS QS TS AC 2C JD",
            "KC QC JC TC 2D TD",
        ]
        .map(|h| h.parse().expect("hand"));
        let mut deal = Deal::new(Preset::MiniMisere4.ruleset(), 0, &hands).expect("deal");
        assert_eq!(deal.to_act(), 1);
        deal.apply(Action::Play("JS".parse().expect("card")))
            .expect("legal");
        assert_eq!(merged_cards(&deal), cards("QS TS"));
    }

    #[test]
    fn jass_card_points_keep_adjacent_cards_apart() {
        // Mittlere Jass, no trump yet: 6S and 7S are worth nothing and merge; QS (3) and
        // KS (4) are adjacent but worth different points.
        let rules = Preset::MittlereJass.ruleset();
        let mine = cards("6S 7S QS KS 6H 7H 6D 7D 6C 7C AC KC");
        let rest: Vec<Card> = (rules.deck() - mine).iter().collect();
        let (a, b) = rest.split_at(12);
        let (a, b): (CardSet, CardSet) = (a.iter().copied().collect(), b.iter().copied().collect());
        // The hand goes to the first leader, whoever the dealer.
        let leader = Deal::new(rules, 0, &[mine, a, b]).expect("deal").to_act();
        let mut hands = [a, b, a];
        hands[leader] = mine;
        hands[(leader + 1) % 3] = a;
        hands[(leader + 2) % 3] = b;
        let deal = Deal::new(rules, 0, &hands).expect("deal");
        assert_eq!(deal.hand(deal.to_act()), mine);
        let kept = merged_cards(&deal);
        assert!(kept.contains("6S".parse().expect("card")));
        assert!(!kept.contains("7S".parse().expect("card")));
        assert!(kept.contains("QS".parse().expect("card")));
        assert!(kept.contains("KS".parse().expect("card")));
        // The ace counts 11 and the king 4: both clubs stay.
        assert!(kept.contains("AC".parse().expect("card")));
        assert!(kept.contains("KC".parse().expect("card")));
        assert_eq!(kept.len(), 8, "{kept}");
    }

    #[test]
    fn the_merging_search_plays_representatives_legally_and_reproducibly() {
        for deal in positions().into_iter().step_by(3) {
            let view = View::new(&deal, deal.to_act());
            let mut a = Ismcts::with_budget(9, Budget::Iterations(300)).with_merging();
            let mut b = Ismcts::with_budget(9, Budget::Iterations(300)).with_merging();
            assert_eq!(a.name(), "ismcts-eq");
            assert!(a.merges());
            let action = a.act(&view);
            assert!(deal.is_legal(action), "{}: {action}", deal.rules().id());
            if let Action::Play(card) = action {
                assert!(merged_cards(&deal).contains(card), "{}", deal.rules().id());
            }
            assert_eq!(b.act(&view), action, "{}", deal.rules().id());
        }
        // The root's children are exactly the classes (and the Lot).
        let deal = spades_apart();
        let mut bot = Ismcts::with_budget(2, Budget::Iterations(3000)).with_merging();
        bot.act(&View::new(&deal, 0));
        let tried: Vec<Action> = bot.root_children().into_iter().map(|c| c.0).collect();
        let expected: Vec<Action> = merged(&deal, deal.legal_actions()).iter().collect();
        assert_eq!(tried.len(), expected.len());
        assert!(tried.iter().all(|a| expected.contains(a)), "{tried:?}");
        // Every legal card one class: answered without search. Seat 0 wins the first trick
        // with AS and leads AH; seat 1 must follow with KH or QH, and no heart is left
        // between them.
        let hands = [
            "AS AH JH KS QS JS",
            "2S KH QH AD KD QD",
            "TS TH 2H 2D TD JD",
            "AC KC QC JC TC 2C",
        ]
        .map(|h| h.parse().expect("hand"));
        let mut led = Deal::new(Preset::MiniMisere4.ruleset(), 3, &hands).expect("deal");
        for card in ["AS", "2S", "TS", "AC", "AH"] {
            led.apply(Action::Play(card.parse().expect("card")))
                .expect("legal");
        }
        assert_eq!(led.to_act(), 1);
        assert_eq!(led.legal_actions().len(), 2);
        assert_eq!(merged_cards(&led), cards("QH"));
        let mut bot = Ismcts::with_budget(1, Budget::Iterations(500)).with_merging();
        assert_eq!(
            bot.act(&View::new(&led, led.to_act())),
            Action::Play("QH".parse().expect("card"))
        );
        assert_eq!(bot.last_search().iterations, 0);
        // And it still finds the sure win.
        let deal = one_suit_each();
        let mut bot = Ismcts::with_budget(1, Budget::Iterations(2000)).with_merging();
        assert_eq!(bot.act(&View::new(&deal, 0)), Action::Lot);
    }

    #[test]
    fn the_ducking_rule_leads_low_ducks_under_the_winner_and_wins_high_when_it_must() {
        let card = |c: &str| c.parse::<Card>().expect("card");
        let deal = spades_apart();
        // Leading: the weakest card (the 2 of clubs wins when led, so it is not the weakest).
        assert_eq!(duck(&deal, deal.legal_plays()), Some(card("TS")));
        // Following AH: seat 1 has no heart and throws its highest card; seat 2 stays under
        // AH with its strongest heart.
        let mut deal = deal;
        deal.apply(Action::Play(card("AH"))).expect("legal");
        deal.apply(Action::Play(card("JS"))).expect("legal");
        assert_eq!(duck(&deal, deal.legal_plays()), Some(card("KH")));
        // Every card wins: the strongest. Seat 0 leads JD after taking the trick; seat 1
        // holds AD KD QD.
        for c in ["KH", "AC", "JD"] {
            deal.apply(Action::Play(card(c))).expect("legal");
        }
        assert_eq!(deal.legal_plays(), cards("AD KD QD"));
        assert_eq!(duck(&deal, deal.legal_plays()), Some(card("AD")));
    }

    #[test]
    fn ducking_rollouts_finish_the_deal_and_the_search_plays_legally() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for deal in positions() {
            for permille in [0, 500, 1000] {
                let mut world = deal.clone();
                ducking_playout(&mut world, &mut rng, permille);
                assert!(world.is_over(), "{}", deal.rules().id());
            }
        }
        for deal in positions().into_iter().step_by(4) {
            let view = View::new(&deal, deal.to_act());
            let mut a = Ismcts::with_budget(5, Budget::Iterations(200)).with_ducking(DUCK_PERMILLE);
            let mut b = Ismcts::with_budget(5, Budget::Iterations(200)).with_ducking(DUCK_PERMILLE);
            assert_eq!(a.name(), "ismcts-duck");
            assert_eq!(a.ducking(), DUCK_PERMILLE);
            let action = a.act(&view);
            assert!(deal.is_legal(action), "{}: {action}", deal.rules().id());
            assert_eq!(b.act(&view), action, "{}", deal.rules().id());
        }
    }

    #[test]
    fn the_evaluating_search_finds_the_sure_win() {
        let deal = one_suit_each();
        let mut bot = Ismcts::with_budget(1, Budget::Iterations(2000)).with_eval();
        assert_eq!(bot.act(&View::new(&deal, 0)), Action::Lot);
    }

    /// Mini Misère two tricks from the end, seat 0 to lead {2H, KD} after taking one trick
    /// (seat 1 has three, seats 2 and 3 none), every other card forced: led first, the 2 of
    /// hearts wins and seat 2's ace of diamonds takes the last trick (tricks 2, 3, 1, 0: scores
    /// 2, 3, 1, 6); the king of diamonds first gives seat 2 both tricks (1, 3, 2, 0: scores
    /// 1, 3, 2, 6).
    fn two_tricks_from_the_end() -> Deal {
        let hands = [
            "TS AH KH QD 2H KD",
            "AS KS QS JD KC QC",
            "2S QH JH TD AD TH",
            "JS 2D AC 2C JC TC",
        ];
        #[rustfmt::skip]
        let moves = [
            "TS", "AS", "2S", "JS", // seat 1 takes the first three tricks
            "KS", "QH", "AC", "AH",
            "QS", "JH", "2C", "KH",
            "JD", "TD", "2D", "QD", // and seat 0 the fourth
        ];
        after(Preset::MiniMisere4, hands, &moves)
    }

    /// The mean reward of each root action of a search of the known `deal`.
    fn root_means(mut search: Ismcts, deal: &Deal) -> Vec<(String, f64)> {
        search.search_known(deal);
        let mut means: Vec<(String, f64)> = search
            .root_children()
            .into_iter()
            .map(|(action, _, mean)| (action.to_string(), mean))
            .collect();
        means.sort_by(|a, b| a.0.cmp(&b.0));
        means
    }

    #[test]
    fn against_the_table_a_seat_values_a_deal_by_its_score_less_the_tables_mean() {
        let deal = two_tricks_from_the_end();
        assert_eq!(deal.to_act(), 0);
        assert_eq!(deal.hand(0), "2H KD".parse().expect("hand"));
        let search = Ismcts::with_budget(1, Budget::Iterations(200));
        let close = |got: &[(String, f64)], want: [(&str, f64); 2]| {
            assert_eq!(got.len(), 2, "{got:?}");
            for ((action, mean), (want_action, want_mean)) in got.iter().zip(want) {
                assert_eq!(action, want_action);
                assert!((mean - want_mean / 12.0).abs() < 1e-6, "{got:?}");
            }
        };
        // By its own score: 2 with the 2 of hearts led first, 1 with the king.
        close(
            &root_means(search.clone(), &deal),
            [("2H", 2.0), ("KD", 1.0)],
        );
        // Against the table (mean 3 either way): 2 − 3 and 1 − 3.
        let table = search.with_table_rewards();
        assert!(table.plays_against_the_table());
        assert_eq!(table.name(), "ismcts-table");
        close(&root_means(table, &deal), [("2H", -1.0), ("KD", -2.0)]);
    }

    /// The card [`lot_card`] plays in `deal`, as its record writes it.
    fn lot_choice(deal: &Deal) -> String {
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        lot_card(deal, deal.legal_plays(), &mut rng).map_or_else(String::new, |c| c.to_string())
    }

    #[test]
    fn a_lot_declarer_leads_a_card_no_other_hand_can_beat_and_the_defenders_keep_their_winners() {
        let card = |c: &str| c.parse::<Card>().expect("card");
        let hands = [
            "AS KS KH 2D QC JC",
            "2S AH QH JH TH AD",
            "QS AC KC TC 2C KD",
            "JS TS QD JD TD 2H",
        ];
        // Seat 0 declares with AS and takes the first trick.
        let deal = after(Preset::MiniMisere4, hands, &["lot", "AS", "2S", "QS", "JS"]);
        assert_eq!(deal.to_act(), 0);
        assert!(deal.lot().in_play().contains(0));
        // KS and the led 2D cannot be beaten (AH and AC can beat KH and the clubs): the 2,
        // which wins whatever is out.
        assert_eq!(lot_choice(&deal), "2D");
        // Led QC instead: seat 1, with no club, throws its lowest card and keeps AH; seat 2
        // beats QC with the weaker of its two clubs that do.
        let mut deal = deal;
        deal.apply(Action::Play(card("QC"))).expect("legal");
        assert_eq!(lot_choice(&deal), "TH");
        deal.apply(Action::Play(card("TH"))).expect("legal");
        assert_eq!(lot_choice(&deal), "KC");
    }

    #[test]
    fn a_defender_ahead_of_a_lot_declarer_plays_high_and_the_declarer_plays_its_strongest() {
        let card = |c: &str| c.parse::<Card>().expect("card");
        let hands = [
            "AS KS QH JH TH 9H 2C",
            "QS JS TS AH KH AD KD",
            "9S 2S AC KC QC JC TC",
            "2H QD JD TD 9D 2D 9C",
        ];
        // 1989 timing: seat 1 declares before the lead. Seat 0 leads the 2 of clubs, which
        // nothing beats and the declarer cannot follow.
        let deal = after(Preset::MiniMisere4_1989, hands, &["pass", "lot"]);
        assert_eq!(deal.to_act(), 0);
        assert_eq!(lot_choice(&deal), "2C");
        // Seat 2 declares instead and seat 0 leads AS: seat 1, with the declarer still to
        // play, plays its highest spade; the declarer then plays its strongest.
        let mut deal = after(
            Preset::MiniMisere4_1989,
            hands,
            &["pass", "pass", "lot", "AS"],
        );
        assert_eq!(lot_choice(&deal), "QS");
        deal.apply(Action::Play(card("QS"))).expect("legal");
        assert_eq!(lot_choice(&deal), "9S");
    }

    #[test]
    fn lot_rollouts_finish_the_deal_and_the_search_plays_legally() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for deal in positions() {
            let mut world = deal.clone();
            lot_playout(&mut world, &mut rng);
            assert!(world.is_over(), "{}", deal.rules().id());
        }
        for deal in positions().into_iter().step_by(4) {
            let view = View::new(&deal, deal.to_act());
            let mut a = Ismcts::with_budget(5, Budget::Iterations(200)).with_lot_rollouts();
            let mut b = Ismcts::with_budget(5, Budget::Iterations(200)).with_lot_rollouts();
            assert_eq!(a.name(), "ismcts-lot");
            assert!(a.lot_rollouts());
            let action = a.act(&view);
            assert!(deal.is_legal(action), "{}", deal.rules().id());
            assert_eq!(b.act(&view), action, "{}", deal.rules().id());
        }
    }
}
