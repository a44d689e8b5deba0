//! Post-game analysis: the value of every legal action at each decision of a recorded game,
//! from the deciding seat's own information, and how much the action chosen gave away.
//!
//! # What a decision's values are
//!
//! At each decision (a position where the seat to act had more than one legal action) the
//! analysis looks only at what that seat could know: its [`View`]. It deals `worlds` worlds
//! consistent with the view ([`Worlds`]: the unseen cards dealt uniformly at random to the
//! other seats, keeping every void and every hand size shown), and values every legal action
//! in every world, the same worlds for every action (so that the differences between actions
//! are measured far more precisely than the values themselves). An action's value is its mean
//! over the worlds, in the seat's own deal-score units ([`deal_rewards`]: higher is better,
//! penalty points negative), with the standard error of that mean.
//!
//! A world is valued in one of two ways ([`Method`]):
//!
//! - **`solver`**: where the true position can be searched exactly within
//!   [`EXACT_NODES`] positions, so can the worlds (they are of the same size): each world is
//!   solved by the exact [`Solver`] for every action (the paranoid value: what the seat is
//!   sure of with every hand known, the others playing against it), as [`crate::pimc`] does.
//!   Should one world need more than [`WORLD_NODES`] positions, the decision is valued by
//!   rollouts instead.
//! - **`rollout`**: earlier in the deal, the action is played and the deal is played out by
//!   the [`Heuristic`] at every seat; the world's value is what the deal then scores.
//!
//! # Verdicts
//!
//! The *best* action is the one of highest value (the first in
//! [`torite_core::ActionSet::iter`] order among equals); the *loss* is the best value minus the
//! chosen action's, with the standard error of that paired difference. Thresholds are
//! fractions of the ruleset's range of deal scores `R` ([`Ruleset::score_bounds`]: 12 points
//! in `mini-misere-4`, 4 in `mittlere-jass`, 10 in `mura-4`):
//!
//! | verdict | loss |
//! |---|---|
//! | `best` | under [`INACCURACY`] × R, or under twice its standard error |
//! | `inaccuracy` | from [`INACCURACY`] × R |
//! | `mistake` | from [`MISTAKE`] × R |
//! | `blunder` | from [`BLUNDER`] × R |
//!
//! # Exact values
//!
//! Each decision also gets the value of every action on the true deal, every hand known
//! ([`Solver::try_action_values`] within [`EXACT_NODES`] positions), or `None` where the
//! position is too large; and each seat's deal, the best score it could be sure of with every
//! hand known from its first decision on (its *double-dummy* score).
//!
//! Everything is reproducible from the seed: each decision has its own generator, seeded from
//! the seed and the decision's place in the game, so the decisions may be analysed in parallel.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use rayon::prelude::*;
use torite_core::{Action, Deal, Record, Ruleset, Seat, SeatSet, View, Worlds};

use crate::reward::deal_rewards;
use crate::solver::Solver;
use crate::{Bot, Heuristic};

/// The default number of worlds per decision.
pub const DEFAULT_WORLDS: u32 = 256;

/// The most worlds per decision a budget may give.
pub const MAX_WORLDS: u32 = 10_000;

/// The most positions the exact search of the true deal may visit per decision.
pub const EXACT_NODES: u64 = 200_000;

/// The most positions one sampled world's exact search may visit (solver method).
pub const WORLD_NODES: u64 = 200_000;

/// A loss of at least this fraction of the score range is an inaccuracy.
pub const INACCURACY: f64 = 0.02;

/// A loss of at least this fraction of the score range is a mistake.
pub const MISTAKE: f64 = 0.06;

/// A loss of at least this fraction of the score range is a blunder.
pub const BLUNDER: f64 = 0.15;

/// How an analysis is run.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Settings {
    /// Worlds per decision, 1 to [`MAX_WORLDS`].
    pub worlds: u32,
    /// The seed of every decision's generator.
    pub seed: u64,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings {
            worlds: DEFAULT_WORLDS,
            seed: 0,
        }
    }
}

/// How the worlds of a decision were valued (module documentation).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Method {
    /// Each world solved exactly.
    Solver,
    /// Each world played out by the heuristic bot.
    Rollout,
}

impl Method {
    /// `solver` or `rollout`, as the JSON writes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Method::Solver => "solver",
            Method::Rollout => "rollout",
        }
    }
}

/// How good a decision was.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Verdict {
    /// The best action, or as good within the estimates' precision.
    Best,
    /// A small loss.
    Inaccuracy,
    /// A clear loss.
    Mistake,
    /// A large loss.
    Blunder,
}

impl Verdict {
    /// Every verdict, best first.
    pub const ALL: [Verdict; 4] = [
        Verdict::Best,
        Verdict::Inaccuracy,
        Verdict::Mistake,
        Verdict::Blunder,
    ];

    /// `best`, `inaccuracy`, `mistake` or `blunder`, as the JSON writes it.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Verdict::Best => "best",
            Verdict::Inaccuracy => "inaccuracy",
            Verdict::Mistake => "mistake",
            Verdict::Blunder => "blunder",
        }
    }

    /// The verdict on a loss of `loss` with standard error `stderr`, under `rules`.
    #[must_use]
    pub fn of(loss: f64, stderr: f64, rules: &Ruleset) -> Verdict {
        let range = score_range(rules);
        if loss < INACCURACY * range || loss < 2.0 * stderr {
            Verdict::Best
        } else if loss < MISTAKE * range {
            Verdict::Inaccuracy
        } else if loss < BLUNDER * range {
            Verdict::Mistake
        } else {
            Verdict::Blunder
        }
    }
}

/// The range of a deal's scores under `rules` (at least 1).
#[must_use]
pub fn score_range(rules: &Ruleset) -> f64 {
    let (low, high) = rules.score_bounds();
    f64::from(high - low).max(1.0)
}

/// One action's estimated value.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct ActionValue {
    /// The action.
    pub action: Action,
    /// Its mean value over the worlds, in the seat's deal-score units.
    pub value: f64,
    /// The standard error of that mean (0 with one world).
    pub stderr: f64,
}

/// A decision analysed.
#[derive(Clone, PartialEq, Debug)]
pub struct Decision {
    /// The deal's index in the record.
    pub deal: usize,
    /// The action's index in the deal's actions.
    pub index: usize,
    /// The trick's index (0 for the first trick, and for the Lot question before it).
    pub trick: usize,
    /// The deciding seat.
    pub seat: Seat,
    /// The action taken.
    pub chosen: Action,
    /// The action of highest value (the chosen one when they are equal).
    pub best: Action,
    /// Best value minus the chosen action's (never negative).
    pub loss: f64,
    /// The standard error of the loss (a paired difference over the same worlds).
    pub loss_stderr: f64,
    /// The verdict on the loss.
    pub verdict: Verdict,
    /// Every legal action's value, in [`torite_core::ActionSet::iter`] order.
    pub actions: Vec<ActionValue>,
    /// How the worlds were valued.
    pub method: Method,
    /// The worlds dealt.
    pub worlds: u32,
    /// Every legal action's exact value on the true deal (every hand known), in the same
    /// order, or `None` where it could not be solved within [`EXACT_NODES`] positions.
    pub exact: Option<Vec<(Action, f64)>>,
}

impl Decision {
    /// The estimated value of `action`, if it was legal.
    #[must_use]
    pub fn value_of(&self, action: Action) -> Option<f64> {
        self.actions
            .iter()
            .find(|a| a.action == action)
            .map(|a| a.value)
    }

    /// The exact value of `action` on the true deal, where solved.
    #[must_use]
    pub fn exact_of(&self, action: Action) -> Option<f64> {
        self.exact
            .as_ref()?
            .iter()
            .find(|(a, _)| *a == action)
            .map(|(_, v)| *v)
    }
}

/// One seat's deal, summed up.
#[derive(Clone, PartialEq, Debug)]
pub struct SeatDeal {
    /// The deal's index.
    pub deal: usize,
    /// The seat.
    pub seat: Seat,
    /// Decisions analysed.
    pub decisions: usize,
    /// The sum of their losses.
    pub loss: f64,
    /// Decisions of each verdict, in [`Verdict::ALL`] order.
    pub verdicts: [usize; 4],
    /// What the deal scored for the seat (`None` while it is unfinished).
    pub score: Option<f64>,
    /// The best score the seat could be sure of with every hand known, from its first decision
    /// on; `None` where that could not be solved within [`EXACT_NODES`] positions.
    pub double_dummy: Option<f64>,
}

/// A game analysed.
#[derive(Clone, PartialEq, Debug)]
pub struct Analysis {
    /// The decisions, in the game's order.
    pub decisions: Vec<Decision>,
    /// Per deal and seat analysed, in deal then seat order.
    pub seats: Vec<SeatDeal>,
}

/// A position of a recorded deal where a seat decided.
#[derive(Clone, Debug)]
pub struct Point {
    /// The deal's index.
    pub deal: usize,
    /// The action's index in the deal.
    pub index: usize,
    /// The position before the action.
    pub position: Deal,
    /// The action taken.
    pub chosen: Action,
}

/// The decisions of `seats` in the record (of deal `only` alone, if given): every position
/// where one of them was to act with more than one legal action. The record must replay
/// (as [`torite_core::record::read`] checks): a deal that cannot be set up, or an action
/// that is illegal, ends its deal's decisions there.
#[must_use]
pub fn decision_points(record: &Record, seats: SeatSet, only: Option<usize>) -> Vec<Point> {
    let mut out = Vec::new();
    for (d, rd) in record.deals.iter().enumerate() {
        if only.is_some_and(|o| o != d) {
            continue;
        }
        let Ok(mut deal) = Deal::new(record.ruleset, rd.dealer, &rd.hands) else {
            continue;
        };
        for (i, action) in rd.actions.iter().enumerate() {
            if deal.is_over() || !deal.is_legal(*action) {
                break;
            }
            if seats.contains(deal.to_act()) && deal.legal_actions().len() > 1 {
                out.push(Point {
                    deal: d,
                    index: i,
                    position: deal.clone(),
                    chosen: *action,
                });
            }
            deal.apply_unchecked(*action);
        }
    }
    out
}

/// The final position of each of the record's deals (the position after its last action).
fn final_positions(record: &Record) -> Vec<Option<Deal>> {
    record
        .deals
        .iter()
        .map(|rd| {
            let mut deal = Deal::new(record.ruleset, rd.dealer, &rd.hands).ok()?;
            for action in &rd.actions {
                if deal.is_over() || !deal.is_legal(*action) {
                    break;
                }
                deal.apply_unchecked(*action);
            }
            Some(deal)
        })
        .collect()
}

/// Mean and standard error of the mean.
fn mean_stderr(samples: &[f64]) -> (f64, f64) {
    let n = samples.len() as f64;
    if samples.is_empty() {
        return (0.0, 0.0);
    }
    let mean = samples.iter().sum::<f64>() / n;
    if samples.len() < 2 {
        return (mean, 0.0);
    }
    let var = samples.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    (mean, (var / n).sqrt())
}

/// Plays `world` out with the heuristic bot at every seat and returns `seat`'s reward.
fn rollout(mut world: Deal, seat: Seat, bot: &mut Heuristic) -> f64 {
    while !world.is_over() {
        let action = bot.act(&View::new(&world, world.to_act()));
        world.apply_unchecked(action);
    }
    deal_rewards(&world)[seat]
}

/// The generator of the decision at action `index` of deal `deal`.
fn decision_rng(seed: u64, deal: usize, index: usize) -> ChaCha8Rng {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    rng.set_stream(((deal as u64) << 16) | index as u64);
    rng
}

/// Values every legal action at `position` from the view of the seat to act, with `worlds`
/// worlds from `rng`, by `method`: per action, one value per world (the same worlds for every
/// action). `None` when a world could not be solved within [`WORLD_NODES`] positions.
fn world_values(
    position: &Deal,
    worlds: u32,
    method: Method,
    rng: &mut ChaCha8Rng,
    solver: &mut Solver,
    sample: &dyn Fn(&mut ChaCha8Rng) -> Deal,
) -> Option<Vec<Vec<f64>>> {
    let seat = position.to_act();
    let legal: Vec<Action> = position.legal_actions().iter().collect();
    let mut values = vec![Vec::with_capacity(worlds as usize); legal.len()];
    let mut bot = Heuristic::new(0);
    for _ in 0..worlds {
        let world = sample(rng);
        match method {
            Method::Solver => {
                let solved = solver.try_action_values(&world, WORLD_NODES)?;
                for (column, (_, v)) in values.iter_mut().zip(solved) {
                    column.push(v);
                }
            }
            Method::Rollout => {
                for (column, action) in values.iter_mut().zip(&legal) {
                    let mut child = world.clone();
                    child.apply_unchecked(*action);
                    column.push(rollout(child, seat, &mut bot));
                }
            }
        }
    }
    Some(values)
}

/// Where a decision's worlds come from.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Knowledge {
    /// Worlds consistent with the deciding seat's view: the analysis proper.
    View,
    /// The true deal alone, every hand known: a check of the method against the exact
    /// solver, never a review of a player.
    AllHands,
}

/// Analyses the decision of `point`: its worlds dealt from a generator seeded from
/// `settings.seed` and the point's place in the game, by `knowledge`; `solver` is a scratch
/// solver (cleared first).
#[must_use]
pub fn analyse_point(
    point: &Point,
    settings: Settings,
    knowledge: Knowledge,
    solver: &mut Solver,
) -> Decision {
    let position = &point.position;
    let mut rng = decision_rng(settings.seed, point.deal, point.index);
    solver.clear();
    let exact = solver.try_action_values(position, EXACT_NODES);
    let worlds = settings.worlds.max(1);
    let view = View::new(position, position.to_act());
    let dealer = Worlds::new(view);
    let sample = |rng: &mut ChaCha8Rng| match knowledge {
        Knowledge::View => dealer.sample(rng),
        Knowledge::AllHands => position.clone(),
    };
    let mut method = if exact.is_some() {
        Method::Solver
    } else {
        Method::Rollout
    };
    let start = rng.clone();
    let samples = match world_values(position, worlds, method, &mut rng, solver, &sample) {
        Some(v) => v,
        None => {
            // The same worlds again, played out.
            method = Method::Rollout;
            let mut rng = start;
            world_values(position, worlds, method, &mut rng, solver, &sample).unwrap_or_default()
        }
    };
    let actions: Vec<ActionValue> = position
        .legal_actions()
        .iter()
        .zip(&samples)
        .map(|(action, column)| {
            let (value, stderr) = mean_stderr(column);
            ActionValue {
                action,
                value,
                stderr,
            }
        })
        .collect();
    let chosen_at = actions
        .iter()
        .position(|a| a.action == point.chosen)
        .unwrap_or(0);
    let mut best_at = chosen_at;
    for (i, a) in actions.iter().enumerate() {
        if a.value > actions[best_at].value {
            best_at = i;
        }
    }
    let loss = (actions[best_at].value - actions[chosen_at].value).max(0.0);
    let diffs: Vec<f64> = samples[best_at]
        .iter()
        .zip(&samples[chosen_at])
        .map(|(b, c)| b - c)
        .collect();
    let loss_stderr = mean_stderr(&diffs).1;
    Decision {
        deal: point.deal,
        index: point.index,
        trick: position.tricks_completed(),
        seat: position.to_act(),
        chosen: point.chosen,
        best: actions[best_at].action,
        loss,
        loss_stderr,
        verdict: Verdict::of(loss, loss_stderr, position.rules()),
        actions,
        method,
        worlds,
        exact,
    }
}

/// Analyses every decision of `seats` in `record` (of deal `only` alone, if given), calling
/// `progress` once per decision done. The record must replay (check it with
/// [`torite_core::record::read`] first). Decisions run in parallel on rayon's pool; the result
/// does not depend on the number of threads.
#[must_use]
pub fn analyse(
    record: &Record,
    seats: SeatSet,
    only: Option<usize>,
    settings: Settings,
    progress: &(dyn Fn() + Sync),
) -> Analysis {
    let points = decision_points(record, seats, only);
    let decisions: Vec<Decision> = points
        .par_iter()
        .map_init(Solver::new, |solver, point| {
            let d = analyse_point(point, settings, Knowledge::View, solver);
            progress();
            d
        })
        .collect();
    let finals = final_positions(record);
    let mut summaries = Vec::new();
    for (d, last) in finals.iter().enumerate() {
        if only.is_some_and(|o| o != d) {
            continue;
        }
        for seat in seats {
            let mine: Vec<&Decision> = decisions
                .iter()
                .filter(|x| x.deal == d && x.seat == seat)
                .collect();
            if mine.is_empty() {
                continue;
            }
            let mut verdicts = [0; 4];
            for x in &mine {
                verdicts[x.verdict as usize] += 1;
            }
            let double_dummy = mine
                .first()
                .and_then(|x| x.exact.as_ref())
                .and_then(|e| e.iter().map(|(_, v)| *v).reduce(f64::max));
            summaries.push(SeatDeal {
                deal: d,
                seat,
                decisions: mine.len(),
                loss: mine.iter().map(|x| x.loss).sum(),
                verdicts,
                score: last
                    .as_ref()
                    .filter(|l| l.is_over())
                    .map(|l| deal_rewards(l)[seat]),
                double_dummy,
            });
        }
    }
    Analysis {
        decisions,
        seats: summaries,
    }
}

/// The number of decisions [`analyse`] would analyse (for a progress bar).
#[must_use]
pub fn count_decisions(record: &Record, seats: SeatSet, only: Option<usize>) -> usize {
    decision_points(record, seats, only).len()
}

#[cfg(test)]
mod tests;
