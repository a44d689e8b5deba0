//! torite's bots from Python (`Bot`), and the calls that play many deals without the GIL: the
//! batch playouts (`random_playouts`, `playout_returns`) and the duplicate arena (`arena`).

use std::sync::Mutex;

use numpy::{IntoPyArray, PyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_bots::arena::{ArenaConfig, Unit, run as run_arena};
use torite_bots::reward::deal_rewards;
use torite_bots::{Bot, BotSpec};
use torite_core::{Deal, View, random_playout};

use crate::convert::{Int, Whole, value_error};
use crate::deal::PyDeal;
use crate::game::PyGame;
use crate::rules::PyRuleset;

/// The most playouts one call of `random_playouts` or `playout_returns` may ask for.
const MAX_PLAYOUTS: usize = 10_000_000;
/// The most deals an arena run may play (as `torite arena --deals`).
const MAX_ARENA_DEALS: usize = 1_000_000;
/// The most games an arena run may play (as `torite arena --games`).
const MAX_ARENA_GAMES: usize = 100_000;

/// A deal to act in, from a `Deal`, a `Game` (its deal in progress) or any object with a
/// `torite_deal()` method (the OpenSpiel and PettingZoo wrappers).
fn deal_of(state: &Bound<'_, PyAny>) -> PyResult<PyDeal> {
    if let Ok(deal) = state.cast::<PyDeal>() {
        return Ok(deal.try_borrow()?.clone());
    }
    if let Ok(game) = state.cast::<PyGame>() {
        return Ok(game.try_borrow()?.deal.clone());
    }
    if state.hasattr("torite_deal")? {
        let deal = state.call_method0("torite_deal")?;
        if let Ok(deal) = deal.cast::<PyDeal>() {
            return Ok(deal.try_borrow()?.clone());
        }
    }
    Err(PyTypeError::new_err(format!(
        "a state is a torite Deal, a torite Game or a wrapper with torite_deal(), not {}",
        state.get_type().name()?
    )))
}

/// One of torite's bots (`random`, `heuristic`, `ismcts[:BUDGET]`, `pimc[:BUDGET]`): it is
/// shown only the acting seat's view, as in every torite surface.
#[pyclass(module = "torite._torite", name = "Bot")]
#[derive(Debug)]
pub(crate) struct PyBot {
    spec: BotSpec,
    bot: Mutex<Box<dyn Bot>>,
}

#[pymethods]
impl PyBot {
    /// A bot from a spec (`"ismcts:2000"`), seeded; a bad spec raises `ValueError`.
    #[new]
    #[pyo3(signature = (spec, seed = Whole(0)), text_signature = "(spec, seed=0)")]
    fn new(spec: &str, seed: Whole) -> PyResult<PyBot> {
        let seed = seed.0;
        let spec: BotSpec = spec.parse().map_err(value_error)?;
        Ok(PyBot {
            spec,
            bot: Mutex::new(spec.build(seed)),
        })
    }

    /// The spec, as written back (`"ismcts:2000"`).
    #[getter]
    fn spec(&self) -> String {
        self.spec.to_string()
    }

    /// The action id the bot chooses for the seat to act in `state` (a `Deal`, a `Game` or an
    /// OpenSpiel/PettingZoo wrapper); `player`, when given, must be that seat. The search runs
    /// without the GIL.
    #[pyo3(signature = (state, player = None))]
    fn act(
        &self,
        py: Python<'_>,
        state: &Bound<'_, PyAny>,
        player: Option<Int>,
    ) -> PyResult<usize> {
        let deal = deal_of(state)?;
        if deal.deal.is_over() {
            return Err(PyValueError::new_err("the deal is over: no seat is to act"));
        }
        let seat = deal.deal.to_act();
        if let Some(Int(player)) = player
            && player != seat as i64
        {
            return Err(PyValueError::new_err(format!(
                "player {player} is not to act: seat {seat} is"
            )));
        }
        let action = py.detach(|| {
            let mut bot = self.bot.lock().unwrap_or_else(|e| e.into_inner());
            bot.act(&View::new(&deal.deal, seat))
        });
        if !deal.deal.is_legal(action) {
            return Err(PyValueError::new_err(format!(
                "bot {} at seat {seat} chose {action}, which is illegal",
                self.spec
            )));
        }
        deal.space.id(action)
    }

    fn __repr__(&self) -> String {
        format!("Bot({:?})", self.spec.to_string())
    }
}

fn check_playouts(n: Whole) -> PyResult<usize> {
    match usize::try_from(n.0) {
        Ok(n) if n <= MAX_PLAYOUTS => Ok(n),
        _ => Err(PyValueError::new_err(format!(
            "n = {} is out of range: 0 to {MAX_PLAYOUTS} playouts a call",
            n.0
        ))),
    }
}

/// `n` random deals of `ruleset` played out with uniformly random legal actions, without the
/// GIL; each row of the `(n, players)` `float64` result is one deal's returns.
#[pyfunction]
#[pyo3(signature = (ruleset, n, seed = Whole(0)), text_signature = "(ruleset, n, seed=0)")]
pub(crate) fn random_playouts<'py>(
    py: Python<'py>,
    ruleset: &Bound<'py, PyAny>,
    n: Whole,
    seed: Whole,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let rules = PyRuleset::read(ruleset)?;
    let (n, seed) = (check_playouts(n)?, seed.0);
    let players = rules.players as usize;
    let out = py.detach(|| {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::with_capacity(n * players);
        for i in 0..n {
            let mut deal = Deal::random(rules, i % players, &mut rng);
            random_playout(&mut deal, &mut rng);
            out.extend(deal_rewards(&deal)[..players].iter().map(|r| r + 0.0));
        }
        out
    });
    numpy::ndarray::Array2::from_shape_vec((n, players), out)
        .map_err(value_error)
        .map(|a| a.into_pyarray(py))
}

/// `n` playouts from `state` (a `Deal`, a `Game` or a wrapper, seen whole: its true hands) to
/// the end of its deal, without the GIL: `policy` is `"random"` (uniform legal actions), a bot
/// spec or a `Bot`, whose spec then makes fresh bots, seeded from `seed`, for every seat of every
/// playout. Each row of the `(n, players)` `float64` result is one playout's returns.
#[pyfunction]
#[pyo3(signature = (state, policy = None, n = Whole(1), seed = Whole(0)), text_signature = "(state, policy=\"random\", n=1, seed=0)")]
pub(crate) fn playout_returns<'py>(
    py: Python<'py>,
    state: &Bound<'py, PyAny>,
    policy: Option<&Bound<'py, PyAny>>,
    n: Whole,
    seed: Whole,
) -> PyResult<Bound<'py, PyArray2<f64>>> {
    let start = deal_of(state)?.deal;
    let (n, seed) = (check_playouts(n)?, seed.0);
    let spec: Option<BotSpec> = match policy {
        None => None,
        Some(policy) => {
            if let Ok(bot) = policy.cast::<PyBot>() {
                Some(bot.try_borrow()?.spec)
            } else if let Ok(text) = policy.cast::<PyString>() {
                match text.to_str()? {
                    "random" => None,
                    spec => Some(spec.parse().map_err(value_error)?),
                }
            } else {
                return Err(PyTypeError::new_err(format!(
                    "a policy is \"random\", a bot spec or a Bot, not {}",
                    policy.get_type().name()?
                )));
            }
        }
    };
    let players = start.players();
    let out = py.detach(|| -> Result<Vec<f64>, String> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::with_capacity(n * players);
        for i in 0..n {
            let mut deal = start.clone();
            match spec {
                None => {
                    random_playout(&mut deal, &mut rng);
                }
                Some(spec) => {
                    let mut bots: Vec<Box<dyn Bot>> = (0..players)
                        .map(|s| spec.build(seed ^ ((i * players + s) as u64) << 1))
                        .collect();
                    torite_bots::play_deal(&mut deal, &mut bots).map_err(|e| e.to_string())?;
                }
            }
            out.extend(deal_rewards(&deal)[..players].iter().map(|r| r + 0.0));
        }
        Ok(out)
    });
    let out = out.map_err(value_error)?;
    numpy::ndarray::Array2::from_shape_vec((n, players), out)
        .map_err(value_error)
        .map(|a| a.into_pyarray(py))
}

/// A duplicate match (`torite arena`): every seeded deal, or whole game with `games`, played
/// with the bots rotated through the seats, on all cores and without the GIL. Returns one dict
/// per bot of the lineup: `name`, `mean`, `ci95`, `diff`, `diff_ci95`, `win_rate` and `win_ci95` (games
/// only), `decision_ms`.
#[pyfunction]
#[pyo3(signature = (ruleset, bots, deals = Whole(100), games = None, seed = Whole(0)), text_signature = "(ruleset, bots, deals=100, games=None, seed=0)")]
pub(crate) fn arena<'py>(
    py: Python<'py>,
    ruleset: &Bound<'py, PyAny>,
    bots: Vec<String>,
    deals: Whole,
    games: Option<Whole>,
    seed: Whole,
) -> PyResult<Vec<Bound<'py, PyDict>>> {
    let seed = seed.0;
    let deals = usize::try_from(deals.0).unwrap_or(usize::MAX);
    let games = games.map(|g| usize::try_from(g.0).unwrap_or(usize::MAX));
    let rules = PyRuleset::read(ruleset)?;
    if bots.is_empty() || bots.len() > rules.players as usize {
        return Err(PyValueError::new_err(format!(
            "bots: give 1 to {} bot specs for {}, not {}",
            rules.players,
            rules.id(),
            bots.len()
        )));
    }
    let bots = bots
        .iter()
        .map(|spec| spec.parse::<BotSpec>())
        .collect::<Result<Vec<_>, _>>()
        .map_err(value_error)?;
    let (unit, units) = match games {
        Some(g) if !(1..=MAX_ARENA_GAMES).contains(&g) => {
            return Err(PyValueError::new_err(format!(
                "games = {g} is out of range: 1 to {MAX_ARENA_GAMES}"
            )));
        }
        Some(g) => (Unit::Game, g),
        None if !(1..=MAX_ARENA_DEALS).contains(&deals) => {
            return Err(PyValueError::new_err(format!(
                "deals = {deals} is out of range: 1 to {MAX_ARENA_DEALS}"
            )));
        }
        None => (Unit::Deal, deals),
    };
    let config = ArenaConfig {
        rules,
        bots,
        units,
        unit,
        seed,
        keep_records: false,
    };
    let result = py
        .detach(|| run_arena(&config, &|| {}))
        .map_err(value_error)?;
    result
        .bots
        .iter()
        .map(|b| {
            let dict = PyDict::new(py);
            dict.set_item("name", &b.name)?;
            dict.set_item("mean", b.mean)?;
            dict.set_item("ci95", b.ci95)?;
            dict.set_item("diff", b.diff)?;
            dict.set_item("diff_ci95", b.diff_ci95)?;
            dict.set_item("win_rate", b.win_rate)?;
            dict.set_item("win_ci95", b.win_ci95)?;
            dict.set_item("decision_ms", b.decision_ms)?;
            Ok(dict)
        })
        .collect()
}
