//! Whole games (`Game`, dealt from a table seed as every surface deals them) and the replay of
//! records (`replay`).

use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_core::{Deal, Game, Record, RecordDeal, Ruleset, SeatSet, Seeds};

use crate::convert::{Whole, from_json_value, read_record, value_error};
use crate::deal::PyDeal;
use crate::rules::PyRuleset;

/// Replays a record (a dict or JSON text) with torite-core, checking every action, and returns
/// the report `torite replay` prints (RECORD.md), as a dict.
#[pyfunction]
pub(crate) fn replay<'py>(
    py: Python<'py>,
    record: &Bound<'py, PyAny>,
) -> PyResult<Bound<'py, PyAny>> {
    let record = read_record(record)?;
    let report = record.replay().map_err(value_error)?.report;
    let value = serde_json::to_value(&report).map_err(value_error)?;
    from_json_value(py, &value)
}

/// A whole game: deals strung together, dealt from table seed `seed` (torite-core's `Seeds`,
/// the scheme `torite deal ID --seed N --play` and the server use), with dealer rotation,
/// totals and the end of the game. Molotow draws come from the same seed.
#[pyclass(module = "torite._torite", name = "Game")]
#[derive(Clone, Debug)]
pub(crate) struct PyGame {
    game: Game,
    seeds: Seeds,
    /// The finished deals' records.
    done: Vec<RecordDeal>,
    /// The deal in progress (or the last one, once the game is over).
    pub(crate) deal: PyDeal,
}

impl PyGame {
    fn create(rules: Ruleset, seed: u64, dealer: usize) -> PyResult<PyGame> {
        let game = Game::new(rules, dealer).map_err(value_error)?;
        let placeholder =
            PyDeal::from_deal(Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(0)));
        let mut out = PyGame {
            game,
            seeds: Seeds::new(seed),
            done: Vec::new(),
            deal: placeholder,
        };
        out.start_next()?;
        Ok(out)
    }

    fn start_next(&mut self) -> PyResult<()> {
        let hands = self.seeds.next_hands(self.game.rules());
        let n = self.game.rules().players as usize;
        let deal = self.game.start_deal(&hands[..n]).map_err(value_error)?;
        self.deal = PyDeal::from_deal(deal.clone());
        Ok(())
    }

    /// Scores the finished deal (drawing where needed) and starts the next unless the game is
    /// over.
    fn settle(&mut self) -> PyResult<()> {
        let draw = self
            .game
            .draw_needed()
            .and_then(|tied| self.seeds.next_draw(SeatSet::from_bits(tied)));
        self.game.finish_deal(draw).map_err(value_error)?;
        let mut record = self.deal.record().deals.remove(0);
        record.draw = draw;
        self.done.push(record);
        if !self.game.is_finished() {
            self.start_next()?;
        }
        Ok(())
    }
}

#[pymethods]
impl PyGame {
    /// A game of `ruleset` from table seed `seed`, its first deal dealt by `dealer` (by
    /// default the last seat, so that seat 0 leads, as on every surface).
    #[new]
    #[pyo3(signature = (ruleset, seed = Whole(0), dealer = None), text_signature = "(ruleset, seed=0, dealer=None)")]
    fn new(ruleset: &Bound<'_, PyAny>, seed: Whole, dealer: Option<Whole>) -> PyResult<PyGame> {
        let rules = PyRuleset::read(ruleset)?;
        let dealer = Whole(dealer.map_or(torite_core::table::first_dealer(&rules) as u64, |d| d.0));
        if dealer.0 >= u64::from(rules.players) {
            return Err(PyValueError::new_err(format!(
                "dealer {} is out of range: this ruleset's seats are 0 to {}",
                dealer.0,
                rules.players - 1
            )));
        }
        PyGame::create(rules, seed.0, dealer.0 as usize)
    }

    /// A copy.
    fn clone(&self) -> PyGame {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyGame {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyGame {
        Clone::clone(self)
    }

    /// The ruleset.
    #[getter]
    fn ruleset(&self) -> PyRuleset {
        PyRuleset {
            rules: *self.game.rules(),
        }
    }

    /// The deal in progress (the last deal once the game is over), as a copy.
    fn deal(&self) -> PyDeal {
        Clone::clone(&self.deal)
    }

    /// How many deals have been finished.
    fn deals_played(&self) -> usize {
        self.done.len()
    }

    /// The seat to act, or -1 once the game is over.
    fn current_player(&self) -> i64 {
        if self.game.is_finished() {
            -1
        } else {
            self.deal.current_player()
        }
    }

    /// The legal action ids of the seat to act.
    fn legal_actions(&self) -> PyResult<Vec<usize>> {
        if self.game.is_finished() {
            return Ok(Vec::new());
        }
        self.deal.legal_actions()
    }

    /// The legal actions as a 0/1 `int8` array.
    fn legal_actions_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        if self.game.is_finished() {
            return Ok(vec![0i8; self.deal.space.size()].into_pyarray(py));
        }
        self.deal.legal_actions_mask(py)
    }

    /// Takes an action (id or text). When it ends a deal, the deal is scored (a Molotow draw
    /// made from the seed) and the next deal dealt, unless the game is over.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        if self.game.is_finished() {
            return Err(PyValueError::new_err("the game is over"));
        }
        let action = self.deal.space.read(action)?;
        self.game.apply(action).map_err(value_error)?;
        self.deal.step(action)?;
        if self.deal.deal.is_over() {
            self.settle()?;
        }
        Ok(())
    }

    /// Whether the game is over.
    fn is_terminal(&self) -> bool {
        self.game.is_finished()
    }

    /// The totals as the rules write them (penalty points positive).
    fn totals(&self) -> Vec<i32> {
        self.game.totals().to_vec()
    }

    /// Each seat's total, higher is better (penalty totals negative).
    fn returns(&self) -> Vec<f64> {
        let sign = if self.game.rules().scoring.is_penalty() {
            -1.0
        } else {
            1.0
        };
        self.game
            .totals()
            .iter()
            .map(|t| sign * f64::from(*t))
            .collect()
    }

    /// The winners, once the game is over.
    fn winners(&self) -> Vec<usize> {
        self.game.winners().to_vec()
    }

    /// Each finished deal's scores (penalty points positive).
    fn deal_scores(&self) -> Vec<Vec<i32>> {
        let n = self.game.rules().players as usize;
        self.game
            .results()
            .iter()
            .map(|r| r.score.scores[..n].to_vec())
            .collect()
    }

    /// The game so far as a record (RECORD.md), as a dict.
    fn to_record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let mut deals = self.done.clone();
        if !self.game.is_finished() {
            deals.extend(self.deal.record().deals);
        }
        let record = Record {
            ruleset: *self.game.rules(),
            players: None,
            deals,
        };
        from_json_value(py, &record.to_json())
    }

    /// A game from a record (a dict or JSON text), checked as `torite replay` checks it, going
    /// on from where it stops; its later deals and draws come from table seed `seed`, after
    /// as many deals and draws as the record has.
    #[staticmethod]
    #[pyo3(signature = (record, seed = Whole(0)), text_signature = "(record, seed=0)")]
    fn from_record(record: &Bound<'_, PyAny>, seed: Whole) -> PyResult<PyGame> {
        let seed = seed.0;
        let record = read_record(record)?;
        let rules = record.ruleset;
        let first = record.deals.first().map_or(0, |d| d.dealer);
        let mut out = PyGame::create(rules, seed, first)?;
        out.done.clear();
        out.seeds = Seeds::new(seed);
        out.game = Game::new(rules, first).map_err(value_error)?;
        for deal in &record.deals {
            let _ = out.seeds.next_hands(&rules);
            out.game.start_deal(&deal.hands).map_err(value_error)?;
            out.deal = PyDeal::replay(rules, deal)?;
            for action in &deal.actions {
                out.game.apply(*action).map_err(value_error)?;
            }
            if out.deal.deal.is_over() {
                if let Some(tied) = out.game.draw_needed() {
                    let _ = out.seeds.next_draw(SeatSet::from_bits(tied));
                }
                out.game.finish_deal(deal.draw).map_err(value_error)?;
                out.done.push(deal.clone());
            }
        }
        if !out.game.is_finished() && out.game.deal().is_none() {
            out.start_next()?;
        }
        Ok(out)
    }

    fn __repr__(&self) -> String {
        format!(
            "Game({}, {} deals played{})",
            self.game.rules().to_json(),
            self.done.len(),
            if self.game.is_finished() {
                ", over"
            } else {
                ""
            }
        )
    }
}
