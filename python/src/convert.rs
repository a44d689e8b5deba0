//! Arguments from Python and errors back to it: whole numbers and integers that fail as
//! `ValueError` or `TypeError` (never `OverflowError`), JSON values through Python's `json`
//! module, and records given as a dict or as JSON text.

use std::fmt::Display;

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyString};
use serde_json::Value;
use torite_core::Record;

/// A whole-number argument (a seed, a count, a seat) as `u64`: an int out of range is a
/// `ValueError` and anything else a `TypeError`, never Python's `OverflowError`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Whole(pub(crate) u64);

/// An integer argument (an action id, a seat) as `i64`, with the same errors as [`Whole`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Int(pub(crate) i64);

fn int_error(obj: Borrowed<'_, '_, PyAny>, range: &str) -> PyErr {
    let shown = obj
        .repr()
        .map_or_else(|_| "?".to_owned(), |r| r.to_string());
    if !obj.is_instance_of::<PyBool>() && obj.hasattr("__index__").unwrap_or(false) {
        PyValueError::new_err(format!("{shown} is out of range: expected {range}"))
    } else {
        let name = obj
            .get_type()
            .name()
            .map_or_else(|_| "?".to_owned(), |n| n.to_string());
        PyTypeError::new_err(format!("expected an int, not {name}"))
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Whole {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Whole> {
        if obj.is_instance_of::<PyBool>() {
            return Err(int_error(obj, ""));
        }
        obj.extract::<u64>()
            .map(Whole)
            .map_err(|_| int_error(obj, "a whole number from 0 to 18446744073709551615"))
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(obj: Borrowed<'a, 'py, PyAny>) -> PyResult<Int> {
        if obj.is_instance_of::<PyBool>() {
            return Err(int_error(obj, ""));
        }
        obj.extract::<i64>()
            .map(Int)
            .map_err(|_| int_error(obj, "a 64-bit integer"))
    }
}

pub(crate) fn value_error(e: impl Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A Python object (str, dict, list, numbers) as JSON, through Python's own `json` module.
pub(crate) fn to_json_value(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    let json = obj.py().import("json")?;
    let text: String = json.call_method1("dumps", (obj,))?.extract()?;
    serde_json::from_str(&text).map_err(value_error)
}

/// A JSON value as Python objects (dict, list, str, int, float, bool, None).
pub(crate) fn from_json_value<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?
        .call_method1("loads", (value.to_string(),))
}

pub(crate) fn read_record(record: &Bound<'_, PyAny>) -> PyResult<Record> {
    if let Ok(text) = record.cast::<PyString>() {
        return Record::from_json(text.to_str()?).map_err(value_error);
    }
    if record.is_instance_of::<PyDict>() {
        return Record::from_value(&to_json_value(record)?).map_err(value_error);
    }
    Err(PyTypeError::new_err(format!(
        "a record is a dict or a JSON str, not {}",
        record.get_type().name()?
    )))
}
