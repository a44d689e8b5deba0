//! The native half of the Python package `torite`: torite-core's rules engine and torite-bots'
//! players, wrapped with PyO3. Every rule is the engine's: nothing here decides what is legal or
//! how a deal scores. The Python half (`torite/*.py`) adds the OpenSpiel and PettingZoo shapes.
//!
//! Errors reach Python as one line: `ValueError` for a bad value (an illegal action with the
//! engine's message, an unknown preset, a bad house rule, a bad bot spec) and `TypeError` for a
//! value of the wrong type; nothing panics on input.

mod bots;
mod convert;
mod deal;
mod game;
mod rules;
mod tensors;

use pyo3::prelude::*;

use crate::bots::{PyBot, arena, playout_returns, random_playouts};
use crate::deal::PyDeal;
use crate::game::{PyGame, replay};
use crate::rules::{PyRuleset, presets};

/// The native module `torite._torite`.
#[pymodule]
fn _torite(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyRuleset>()?;
    m.add_class::<PyDeal>()?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyBot>()?;
    m.add_function(wrap_pyfunction!(presets, m)?)?;
    m.add_function(wrap_pyfunction!(replay, m)?)?;
    m.add_function(wrap_pyfunction!(random_playouts, m)?)?;
    m.add_function(wrap_pyfunction!(playout_returns, m)?)?;
    m.add_function(wrap_pyfunction!(arena, m)?)?;
    m.add("BOT_NAMES", torite_bots::BOT_NAMES.to_vec())?;
    m.add("OPTION_NAMES", torite_core::OPTION_NAMES.to_vec())?;
    Ok(())
}
