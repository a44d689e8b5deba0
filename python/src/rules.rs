//! Rulesets and the fixed action space of each: `Ruleset`, `presets()` and the mapping between
//! action ids, the engine's actions and their text.

use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use torite_bots::reward::score_scale;
use torite_core::{Action, Card, Preset, Ruleset};

use crate::convert::{Int, from_json_value, to_json_value, value_error};

/// The actions past the cards, in action-id order: every one of these the engine knows (an
/// engine that adds one, such as a joker's say, makes the space grow by it, with no other change
/// here).
const EXTRA_NAMES: [&str; 8] = [
    "lot",
    "pass",
    "call:S",
    "call:H",
    "call:D",
    "call:C",
    "joker:win",
    "joker:lose",
];

/// The fixed action space of a ruleset: the deck's cards in card order, then the actions of
/// [`EXTRA_NAMES`] that the engine reads (`lot`, `pass`, `call:S`, `call:H`, `call:D`,
/// `call:C`, ...), whether or not the ruleset uses them.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Space {
    cards: [Card; 64],
    len: u8,
    /// Action id of each card index (255: not in the deck).
    pub(crate) ids: [u8; 64],
    extras: [Action; EXTRA_NAMES.len()],
    extra_len: u8,
}

impl Space {
    pub(crate) fn new(rules: &Ruleset) -> Space {
        let mut space = Space {
            cards: [Card::JOKER; 64],
            len: 0,
            ids: [u8::MAX; 64],
            extras: [Action::Lot; EXTRA_NAMES.len()],
            extra_len: 0,
        };
        for action in EXTRA_NAMES
            .iter()
            .filter_map(|name| name.parse::<Action>().ok())
        {
            space.extras[space.extra_len as usize] = action;
            space.extra_len += 1;
        }
        for card in rules.deck().iter() {
            space.cards[space.len as usize] = card;
            space.ids[card.index() as usize] = space.len;
            space.len += 1;
        }
        space
    }

    pub(crate) const fn deck_len(&self) -> usize {
        self.len as usize
    }

    pub(crate) const fn extra_len(&self) -> usize {
        self.extra_len as usize
    }

    pub(crate) const fn size(&self) -> usize {
        self.deck_len() + self.extra_len()
    }

    pub(crate) fn action(&self, id: i64) -> PyResult<Action> {
        let n = self.deck_len() as i64;
        match id {
            _ if (0..n).contains(&id) => Ok(Action::Play(self.cards[id as usize])),
            _ if (n..self.size() as i64).contains(&id) => Ok(self.extras[(id - n) as usize]),
            _ => Err(PyValueError::new_err(format!(
                "action {id} is out of range: this ruleset's actions are 0 to {}",
                self.size() - 1
            ))),
        }
    }

    /// The index among the extras of a non-card action.
    pub(crate) fn extra(&self, action: Action) -> Option<usize> {
        self.extras[..self.extra_len()]
            .iter()
            .position(|a| *a == action)
    }

    pub(crate) fn id(&self, action: Action) -> PyResult<usize> {
        if let Action::Play(card) = action {
            return match self.ids[card.index() as usize] {
                u8::MAX => Err(PyValueError::new_err(format!(
                    "card {card} is not in this ruleset's deck"
                ))),
                id => Ok(id as usize),
            };
        }
        self.extra(action)
            .map(|i| self.deck_len() + i)
            .ok_or_else(|| PyValueError::new_err(format!("action {action} has no id")))
    }

    pub(crate) fn parse(&self, text: &str) -> PyResult<usize> {
        let action: Action = text.parse().map_err(value_error)?;
        self.id(action)
    }

    /// An action given as an id or as its text (`AS`, `lot`, `pass`, `call:S`).
    pub(crate) fn read(&self, action: &Bound<'_, PyAny>) -> PyResult<Action> {
        if let Ok(text) = action.cast::<PyString>() {
            return text.to_str()?.parse().map_err(value_error);
        }
        match action.extract::<i64>() {
            Ok(id) => self.action(id),
            Err(_) => Err(PyTypeError::new_err(format!(
                "an action is an int id or a str such as \"AS\" or \"lot\", not {}",
                action.get_type().name()?
            ))),
        }
    }
}

/// A set of rules: a preset, or a preset with house-rule options.
///
/// `Ruleset("mini-misere-4")` or `Ruleset({"base": "mini-misere-4", "lot_timing":
/// "before-lead"})` (the JSON object form of records, `RECORD.md`); a bad id or option raises
/// `ValueError` with the engine's message, the one `torite replay` prints.
#[pyclass(module = "torite._torite", name = "Ruleset", frozen, eq)]
#[derive(Clone, PartialEq, Debug)]
pub(crate) struct PyRuleset {
    pub(crate) rules: Ruleset,
}

impl PyRuleset {
    pub(crate) fn read(spec: &Bound<'_, PyAny>) -> PyResult<Ruleset> {
        if let Ok(rules) = spec.cast::<PyRuleset>() {
            return Ok(rules.get().rules);
        }
        if spec.is_instance_of::<PyString>() || spec.is_instance_of::<PyDict>() {
            let value = to_json_value(spec)?;
            return Ruleset::from_json(&value).map_err(value_error);
        }
        Err(PyTypeError::new_err(format!(
            "a ruleset is a preset id (str), a house-rule dict or a Ruleset, not {}",
            spec.get_type().name()?
        )))
    }
}

#[pymethods]
impl PyRuleset {
    #[new]
    fn new(spec: &Bound<'_, PyAny>) -> PyResult<PyRuleset> {
        Ok(PyRuleset {
            rules: PyRuleset::read(spec)?,
        })
    }

    /// The base preset's id (`"mini-misere-4"`).
    #[getter]
    fn id(&self) -> &'static str {
        self.rules.id()
    }

    /// Whether this is a preset unchanged.
    #[getter]
    fn is_preset(&self) -> bool {
        self.rules.is_preset()
    }

    /// The number of seats.
    #[getter]
    fn players(&self) -> usize {
        self.rules.players as usize
    }

    /// The number of tricks in a deal.
    #[getter]
    fn tricks(&self) -> usize {
        self.rules.tricks()
    }

    /// Whether scores are penalty points (lower is better); `returns()` counts them negative.
    #[getter]
    fn penalty(&self) -> bool {
        self.rules.scoring.is_penalty()
    }

    /// A bound on the size of a deal's returns: every return lies in `[-scale, scale]`.
    #[getter]
    fn score_scale(&self) -> f64 {
        score_scale(&self.rules)
    }

    /// The size of the fixed action space: the deck's cards, then `lot`, `pass`, the four
    /// `call:S|H|D|C` and the two sayings `joker:win` and `joker:lose`.
    #[getter]
    fn num_actions(&self) -> usize {
        Space::new(&self.rules).size()
    }

    /// The deck's card codes, in action-id order.
    fn deck(&self) -> Vec<String> {
        self.rules.deck().iter().map(|c| c.to_string()).collect()
    }

    /// The text of action `action` (`"AS"`, `"lot"`, `"pass"`, `"call:S"`).
    fn action_to_string(&self, action: Int) -> PyResult<String> {
        let action = action.0;
        Ok(Space::new(&self.rules).action(action)?.to_string())
    }

    /// The id of the action written `text`.
    fn string_to_action(&self, text: &str) -> PyResult<usize> {
        Space::new(&self.rules).parse(text)
    }

    /// The ruleset in record form: the preset id, or `{"base": id, ...options}`.
    fn to_json<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        from_json_value(py, &self.rules.to_json())
    }

    /// Every interchange option that applies, with its value.
    fn options<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let dict = PyDict::new(py);
        for (name, value) in self.rules.options() {
            dict.set_item(name, from_json_value(py, &value)?)?;
        }
        Ok(dict)
    }

    fn __reduce__<'py>(
        slf: &Bound<'py, Self>,
    ) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyAny>,))> {
        let py = slf.py();
        Ok((
            slf.get_type().into_any(),
            (from_json_value(py, &slf.get().rules.to_json())?,),
        ))
    }

    fn __repr__(&self) -> String {
        format!("Ruleset({})", self.rules.to_json())
    }
}

/// The ids of every preset, in the order the rules list them.
#[pyfunction]
pub(crate) fn presets() -> Vec<&'static str> {
    Preset::ALL.map(Preset::id).to_vec()
}
