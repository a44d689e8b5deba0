//! The native half of the Python package `torite`: torite-core's rules engine and torite-bots'
//! players, wrapped with PyO3. Every rule is the engine's: nothing here decides what is legal or
//! how a deal scores. The Python half (`torite/*.py`) adds the OpenSpiel and PettingZoo shapes.
//!
//! Errors reach Python as one line: `ValueError` for a bad value (an illegal action with the
//! engine's message, an unknown preset, a bad house rule, a bad bot spec) and `TypeError` for a
//! value of the wrong type; nothing panics on input.

use std::fmt::Display;
use std::sync::Mutex;

use numpy::{IntoPyArray, PyArray1, PyArray2};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyList, PyString};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use serde_json::Value;
use torite_bots::arena::{ArenaConfig, Unit, run as run_arena};
use torite_bots::reward::{deal_rewards, score_scale};
use torite_bots::{Bot, BotSpec};
use torite_core::{
    Action, Card, CardSet, Deal, DealFacts, Game, MAX_SEATS, Phase, Preset, Record, RecordDeal,
    Ruleset, Seat, SeatSet, Seeds, Trump, View, Worlds, random_playout,
};

/// The most playouts one call of `random_playouts` or `playout_returns` may ask for.
const MAX_PLAYOUTS: usize = 10_000_000;
/// The most deals an arena run may play (as `torite arena --deals`).
const MAX_ARENA_DEALS: usize = 1_000_000;
/// The most games an arena run may play (as `torite arena --games`).
const MAX_ARENA_GAMES: usize = 100_000;
/// How many worlds `resample_from_infostate` deals before giving up on finding one in which
/// the whole history is legal.
const MAX_RESAMPLES: usize = 10_000;
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

/// A whole-number argument (a seed, a count, a seat) as `u64`: an int out of range is a
/// `ValueError` and anything else a `TypeError`, never Python's `OverflowError`.
#[derive(Clone, Copy, Debug)]
struct Whole(u64);

/// An integer argument (an action id, a seat) as `i64`, with the same errors as [`Whole`].
#[derive(Clone, Copy, Debug)]
struct Int(i64);

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

fn value_error(e: impl Display) -> PyErr {
    PyValueError::new_err(e.to_string())
}

/// A Python object (str, dict, list, numbers) as JSON, through Python's own `json` module.
fn to_json_value(obj: &Bound<'_, PyAny>) -> PyResult<Value> {
    let json = obj.py().import("json")?;
    let text: String = json.call_method1("dumps", (obj,))?.extract()?;
    serde_json::from_str(&text).map_err(value_error)
}

/// A JSON value as Python objects (dict, list, str, int, float, bool, None).
fn from_json_value<'py>(py: Python<'py>, value: &Value) -> PyResult<Bound<'py, PyAny>> {
    py.import("json")?
        .call_method1("loads", (value.to_string(),))
}

/// The fixed action space of a ruleset: the deck's cards in card order, then the actions of
/// [`EXTRA_NAMES`] that the engine reads (`lot`, `pass`, `call:S`, `call:H`, `call:D`,
/// `call:C`, ...), whether or not the ruleset uses them.
#[derive(Clone, Copy, Debug)]
struct Space {
    cards: [Card; 64],
    len: u8,
    /// Action id of each card index (255: not in the deck).
    ids: [u8; 64],
    extras: [Action; EXTRA_NAMES.len()],
    extra_len: u8,
}

impl Space {
    fn new(rules: &Ruleset) -> Space {
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

    const fn deck_len(&self) -> usize {
        self.len as usize
    }

    const fn extra_len(&self) -> usize {
        self.extra_len as usize
    }

    const fn size(&self) -> usize {
        self.deck_len() + self.extra_len()
    }

    fn action(&self, id: i64) -> PyResult<Action> {
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
    fn extra(&self, action: Action) -> Option<usize> {
        self.extras[..self.extra_len()]
            .iter()
            .position(|a| *a == action)
    }

    fn id(&self, action: Action) -> PyResult<usize> {
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

    fn parse(&self, text: &str) -> PyResult<usize> {
        let action: Action = text.parse().map_err(value_error)?;
        self.id(action)
    }

    /// An action given as an id or as its text (`AS`, `lot`, `pass`, `call:S`).
    fn read(&self, action: &Bound<'_, PyAny>) -> PyResult<Action> {
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
struct PyRuleset {
    rules: Ruleset,
}

impl PyRuleset {
    fn read(spec: &Bound<'_, PyAny>) -> PyResult<Ruleset> {
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

    /// The size of the fixed action space: the deck's cards, then `lot`, `pass` and the four
    /// `call:S|H|D|C`.
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
fn presets() -> Vec<&'static str> {
    Preset::ALL.map(Preset::id).to_vec()
}

/// One deal, with what the engine does not keep: each seat's hand at the start and every
/// action taken, so that a seat's information state, the record and resampled worlds can be
/// given.
#[pyclass(module = "torite._torite", name = "Deal")]
#[derive(Clone, Debug)]
struct PyDeal {
    deal: Deal,
    space: Space,
    start: [CardSet; MAX_SEATS],
    played_by: [CardSet; MAX_SEATS],
    /// Every action with the seat that took it.
    history: Vec<(Seat, Action)>,
    /// Every completed trick: leader, cards from the leader's, winner.
    tricks: Vec<(Seat, Vec<Card>, Seat)>,
}

impl PyDeal {
    fn from_deal(deal: Deal) -> PyDeal {
        let mut start = [CardSet::EMPTY; MAX_SEATS];
        for (seat, hand) in start.iter_mut().enumerate().take(deal.players()) {
            *hand = deal.hand(seat);
        }
        PyDeal {
            space: Space::new(deal.rules()),
            deal,
            start,
            played_by: [CardSet::EMPTY; MAX_SEATS],
            history: Vec::new(),
            tricks: Vec::new(),
        }
    }

    fn step(&mut self, action: Action) -> PyResult<()> {
        let seat = self.deal.to_act();
        let completed = self.deal.tricks_completed();
        self.deal.apply(action).map_err(value_error)?;
        if let Action::Play(card) = action {
            self.played_by[seat].insert(card);
        }
        self.history.push((seat, action));
        if self.deal.tricks_completed() > completed
            && let Some(trick) = self.deal.last_trick()
        {
            self.tricks
                .push((trick.leader, trick.cards().to_vec(), trick.winner));
        }
        Ok(())
    }

    fn seat(&self, player: Int) -> PyResult<Seat> {
        let player = player.0;
        let n = self.deal.players() as i64;
        if (0..n).contains(&player) {
            Ok(player as Seat)
        } else {
            Err(PyValueError::new_err(format!(
                "player {player} is out of range: this deal's seats are 0 to {}",
                n - 1
            )))
        }
    }

    fn record(&self) -> Record {
        let n = self.deal.players();
        Record {
            ruleset: *self.deal.rules(),
            players: None,
            deals: vec![RecordDeal {
                dealer: self.deal.dealer(),
                hands: self.start[..n].to_vec(),
                actions: self.history.iter().map(|(_, a)| *a).collect(),
                draw: None,
            }],
        }
    }

    /// Replays one record deal from its hands.
    fn replay(rules: Ruleset, deal: &RecordDeal) -> PyResult<PyDeal> {
        let start = Deal::new(rules, deal.dealer, &deal.hands).map_err(value_error)?;
        let mut out = PyDeal::from_deal(start);
        for action in &deal.actions {
            out.step(*action)?;
        }
        Ok(out)
    }

    /// Whether the history is legal from these starting hands.
    fn consistent(&self, start: &[CardSet; MAX_SEATS]) -> bool {
        let n = self.deal.players();
        let Ok(mut deal) = Deal::new(*self.deal.rules(), self.deal.dealer(), &start[..n]) else {
            return false;
        };
        self.history.iter().all(|(_, a)| deal.apply(*a).is_ok())
    }

    fn observation(&self, seat: Seat) -> Vec<f32> {
        let deal = &self.deal;
        let view = View::new(deal, seat);
        let n = deal.players();
        let d = self.space.deck_len();
        let rel = |s: Seat| (s + n - seat) % n;
        let mut out = vec![0f32; observation_len(n, d)];
        let mut at = 0;
        let cards = |out: &mut [f32], at: usize, set: CardSet| {
            for card in set.iter() {
                out[at + self.space.ids[card.index() as usize] as usize] = 1.0;
            }
        };
        cards(&mut out, at, view.hand());
        at += d;
        for s in 0..n {
            cards(&mut out, at + rel(s) * d, view.won(s));
        }
        at += n * d;
        let leader = view.leader();
        for (k, card) in view.current_trick().iter().enumerate() {
            cards(
                &mut out,
                at + rel((leader + k) % n) * d,
                CardSet::single(*card),
            );
        }
        at += n * d;
        for s in 0..n {
            for suit in 0..4 {
                if view.voids(s) & (1 << suit) != 0 {
                    out[at + rel(s) * 4 + suit] = 1.0;
                }
            }
        }
        at += n * 4;
        let trump = match view.trump() {
            Trump::None => 0,
            Trump::Suit(suit) => 1 + suit.index(),
            Trump::JokerOnly => 5,
        };
        out[at + trump] = 1.0;
        at += 6;
        if let Some(led) = view.led() {
            out[at + led.index()] = 1.0;
        }
        at += 4;
        let lot = view.lot();
        for s in lot.declaring() {
            out[at + rel(s)] = 1.0;
        }
        at += n;
        for s in lot.failing() {
            out[at + rel(s)] = 1.0;
        }
        at += n;
        let phase = match view.phase() {
            Phase::LotQuestion => 0,
            Phase::Play => 1,
            Phase::CallSuit => 2,
            Phase::Over => 3,
            // A phase the engine adds later (the last slot).
            #[allow(unreachable_patterns)]
            _ => 4,
        };
        out[at + phase] = 1.0;
        at += 5;
        if !deal.is_over() {
            out[at + rel(view.to_act())] = 1.0;
        }
        at += n;
        out[at + rel(view.dealer())] = 1.0;
        at += n;
        out[at + rel(leader)] = 1.0;
        at += n;
        let tricks = deal.rules().tricks().max(1) as f32;
        for s in 0..n {
            out[at + rel(s)] = f32::from(view.tricks_won()[s]) / tricks;
        }
        at += n;
        debug_assert_eq!(at, out.len());
        out
    }

    fn information_state(&self, seat: Seat) -> Vec<f32> {
        let n = self.deal.players();
        let d = self.space.deck_len();
        let t = self.deal.rules().tricks();
        let mut out = self.observation(seat);
        let base = out.len();
        let e = self.space.extra_len();
        out.resize(information_state_len(n, d, t, e), 0.0);
        let rel = |s: Seat| (s + n - seat) % n;
        for card in self.start[seat].iter() {
            out[base + self.space.ids[card.index() as usize] as usize] = 1.0;
        }
        let mut at = base + d;
        let mut trick_no = 0;
        let mut in_trick = 0;
        for (s, action) in &self.history {
            if let Action::Play(card) = action {
                // Trick `trick_no`, position `in_trick` from the leader: seat and card.
                let slot = at + (trick_no * n + in_trick) * (n + d);
                out[slot + rel(*s)] = 1.0;
                out[slot + n + self.space.ids[card.index() as usize] as usize] = 1.0;
                in_trick += 1;
                if in_trick == n {
                    in_trick = 0;
                    trick_no += 1;
                }
            } else if let Some(i) = self.space.extra(*action) {
                // Which seat took each non-card action (`lot`, `pass`, a call).
                out[at + t * n * (n + d) + rel(*s) * e + i] = 1.0;
            }
        }
        at += t * n * (n + d) + n * e;
        debug_assert_eq!(at, out.len());
        out
    }
}

/// The length of `observation_tensor` for `n` seats and a deck of `d` cards.
const fn observation_len(n: usize, d: usize) -> usize {
    d + 2 * n * d + 4 * n + 6 + 4 + 2 * n + 5 + 4 * n
}

/// The length of `information_state_tensor` for `n` seats, `d` cards, `t` tricks and `e`
/// non-card actions.
const fn information_state_len(n: usize, d: usize, t: usize, e: usize) -> usize {
    observation_len(n, d) + d + t * n * (n + d) + n * e
}

fn cards_text(cards: impl IntoIterator<Item = Card>) -> String {
    cards
        .into_iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

fn seats_text(seats: SeatSet) -> String {
    seats
        .into_iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

#[pymethods]
impl PyDeal {
    /// A deal of `ruleset` dealt by `dealer` (by default the last seat, so that seat 0 leads,
    /// as on every surface: `torite_core::table::first_dealer`): from `hands` (one list of
    /// card codes or one space-separated string per seat) when given, otherwise the first
    /// deal of table seed `seed` (the deal `torite deal ID --seed SEED` prints).
    #[new]
    #[pyo3(signature = (ruleset, seed = Whole(0), dealer = None, hands = None), text_signature = "(ruleset, seed=0, dealer=None, hands=None)")]
    fn new(
        ruleset: &Bound<'_, PyAny>,
        seed: Whole,
        dealer: Option<Whole>,
        hands: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyDeal> {
        let rules = PyRuleset::read(ruleset)?;
        let dealer = dealer.map_or(torite_core::table::first_dealer(&rules) as u64, |d| d.0);
        let seed = seed.0;
        if dealer >= u64::from(rules.players) {
            return Err(PyValueError::new_err(format!(
                "dealer {dealer} is out of range: this ruleset's seats are 0 to {}",
                rules.players - 1
            )));
        }
        let hands: Vec<CardSet> = match hands {
            None => Seeds::hands(seed, &rules, 0)[..rules.players as usize].to_vec(),
            Some(hands) => {
                let list = hands
                    .cast::<PyList>()
                    .map_err(|_| PyTypeError::new_err("hands is a list with one hand per seat"))?;
                let mut out = Vec::new();
                for (seat, hand) in list.iter().enumerate() {
                    let text = match hand.cast::<PyString>() {
                        Ok(s) => s.to_str()?.to_owned(),
                        Err(_) => hand
                            .extract::<Vec<String>>()
                            .map_err(|_| {
                                PyTypeError::new_err(format!(
                                    "hand {seat} is a list of card codes or a string of them"
                                ))
                            })?
                            .join(" "),
                    };
                    out.push(
                        text.parse::<CardSet>()
                            .map_err(|e| value_error(format!("hand {seat}: {e}")))?,
                    );
                }
                out
            }
        };
        let deal = Deal::new(rules, dealer as usize, &hands).map_err(value_error)?;
        Ok(PyDeal::from_deal(deal))
    }

    /// The deal a record (RECORD.md JSON, as a dict or a str) ends in: its last deal, replayed
    /// from its hands. The record is checked as strictly as `torite replay` checks it.
    #[staticmethod]
    fn from_record(record: &Bound<'_, PyAny>) -> PyResult<PyDeal> {
        let record = read_record(record)?;
        let last = record
            .deals
            .last()
            .ok_or_else(|| PyValueError::new_err("the record has no deal"))?;
        PyDeal::replay(record.ruleset, last)
    }

    /// The deal as a record of one deal (RECORD.md), as a dict.
    fn to_record<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        from_json_value(py, &self.record().to_json())
    }

    /// The ruleset.
    #[getter]
    fn ruleset(&self) -> PyRuleset {
        PyRuleset {
            rules: *self.deal.rules(),
        }
    }

    /// The number of seats.
    #[getter]
    fn players(&self) -> usize {
        self.deal.players()
    }

    /// The dealer's seat.
    #[getter]
    fn dealer(&self) -> usize {
        self.deal.dealer()
    }

    /// The size of the action space (`Ruleset.num_actions`).
    #[getter]
    fn num_actions(&self) -> usize {
        self.space.size()
    }

    /// A copy.
    fn clone(&self) -> PyDeal {
        Clone::clone(self)
    }

    fn __copy__(&self) -> PyDeal {
        Clone::clone(self)
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyDeal {
        Clone::clone(self)
    }

    /// Pickled as its record (JSON text), read back by `Deal.from_record`.
    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (String,))> {
        let record = slf.try_borrow()?.record().to_json().to_string();
        Ok((slf.get_type().getattr("from_record")?, (record,)))
    }

    /// The seat to act, or -1 once the deal is over.
    fn current_player(&self) -> i64 {
        if self.deal.is_over() {
            -1
        } else {
            self.deal.to_act() as i64
        }
    }

    /// The legal action ids, ascending; empty once the deal is over.
    fn legal_actions(&self) -> PyResult<Vec<usize>> {
        let legal = self.deal.legal_actions();
        legal.iter().map(|a| self.space.id(a)).collect()
    }

    /// The legal actions as a 0/1 `int8` array over the action space.
    fn legal_actions_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let mut mask = vec![0i8; self.space.size()];
        for id in self.legal_actions()? {
            mask[id] = 1;
        }
        Ok(mask.into_pyarray(py))
    }

    /// Takes an action (an id or its text) for the seat to act. An illegal action raises
    /// `ValueError` with the engine's reason and changes nothing.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<()> {
        let action = self.space.read(action)?;
        self.step(action)
    }

    /// The text of an action id.
    fn action_to_string(&self, action: Int) -> PyResult<String> {
        let action = action.0;
        Ok(self.space.action(action)?.to_string())
    }

    /// The id of an action's text (`"AS"`, `"lot"`, `"pass"`, `"call:S"`).
    fn string_to_action(&self, text: &str) -> PyResult<usize> {
        self.space.parse(text)
    }

    /// Whether the deal is over.
    fn is_terminal(&self) -> bool {
        self.deal.is_over()
    }

    /// Each seat's return for the deal, higher is better: its score, counted negative where
    /// scores are penalties; a Molotow three-way tie is averaged over the possible draws. All
    /// zeros until the deal is over.
    fn returns(&self) -> Vec<f64> {
        if !self.deal.is_over() {
            return vec![0.0; self.deal.players()];
        }
        deal_rewards(&self.deal)[..self.deal.players()]
            .iter()
            .map(|r| r + 0.0)
            .collect()
    }

    /// The deal's scores as the rules write them (penalty points positive), as the first deal of
    /// a game; `draw` is the seat whose drawn card was highest where a Molotow tie needs it.
    #[pyo3(signature = (draw = None))]
    fn scores(&self, draw: Option<Whole>) -> PyResult<Vec<i32>> {
        let draw = draw.map(|d| usize::try_from(d.0).unwrap_or(usize::MAX));
        if !self.deal.is_over() {
            return Err(PyValueError::new_err("the deal is not over yet"));
        }
        let n = self.deal.players();
        let score = self
            .deal
            .rules()
            .score(&DealFacts::of(&self.deal), &[0; MAX_SEATS][..n], draw)
            .map_err(value_error)?;
        Ok(score.scores[..n].to_vec())
    }

    /// The seats that must draw a card to settle the finished deal (Molotow), if any.
    fn draw_needed(&self) -> Option<Vec<usize>> {
        if !self.deal.is_over() {
            return None;
        }
        let tied = self.deal.rules().draw_needed(&DealFacts::of(&self.deal))?;
        Some(SeatSet::from_bits(tied).into_iter().collect())
    }

    /// The completed tricks: `(leader, [card codes from the leader's], winner)`.
    fn tricks(&self) -> Vec<(usize, Vec<String>, usize)> {
        self.tricks
            .iter()
            .map(|(l, cards, w)| (*l, cards.iter().map(|c| c.to_string()).collect(), *w))
            .collect()
    }

    /// Tricks won per seat.
    fn tricks_won(&self) -> Vec<u32> {
        self.deal
            .tricks_won()
            .iter()
            .map(|t| u32::from(*t))
            .collect()
    }

    /// Card points per seat.
    fn card_points(&self) -> Vec<u32> {
        (0..self.deal.players())
            .map(|s| self.deal.card_points(s))
            .collect()
    }

    /// Every action taken, as `(seat, action id)`.
    fn history(&self) -> PyResult<Vec<(usize, usize)>> {
        self.history
            .iter()
            .map(|(s, a)| Ok((*s, self.space.id(*a)?)))
            .collect()
    }

    /// A seat's hand (card codes).
    fn hand(&self, player: Int) -> PyResult<Vec<String>> {
        let seat = self.seat(player)?;
        Ok(self.deal.hand(seat).iter().map(|c| c.to_string()).collect())
    }

    /// A seat's hand at the start of the deal (card codes).
    fn start_hand(&self, player: Int) -> PyResult<Vec<String>> {
        let seat = self.seat(player)?;
        Ok(self.start[seat].iter().map(|c| c.to_string()).collect())
    }

    /// What `player` knows, as text: its seat, the dealer, its hand at the start and every
    /// action so far with the seat that took it (every action is public). Two states give the
    /// same string exactly when they are in one information set of that seat.
    fn information_state_string(&self, player: Int) -> PyResult<String> {
        let seat = self.seat(player)?;
        let mut out = format!(
            "seat {seat}; dealer {}; hand {}; actions",
            self.deal.dealer(),
            cards_text(self.start[seat].iter())
        );
        for (s, action) in &self.history {
            out += &format!(" {s}:{action}");
        }
        Ok(out)
    }

    /// What `player` sees now, as text: its hand, the trick in progress, the tricks won, the
    /// trump, the Lot and whose turn it is.
    fn observation_string(&self, player: Int) -> PyResult<String> {
        let seat = self.seat(player)?;
        let view = View::new(&self.deal, seat);
        let trump = match view.trump() {
            Trump::None => "-".to_owned(),
            Trump::Suit(s) => s.letter().to_string(),
            Trump::JokerOnly => "JK".to_owned(),
        };
        let to_act = if self.deal.is_over() {
            "-".to_owned()
        } else {
            view.to_act().to_string()
        };
        Ok(format!(
            "seat {seat}; hand {}; trick {} (led by {}); won {:?}; trump {trump}; lot {}/{}; to act {to_act}",
            cards_text(view.hand().iter()),
            cards_text(view.current_trick().iter().copied()),
            view.leader(),
            view.tricks_won(),
            seats_text(view.lot().declaring()),
            seats_text(view.lot().failing()),
        ))
    }

    /// What `player` sees now, as a `float32` vector (layout in python/README.md).
    fn observation_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Int,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = self.seat(player)?;
        Ok(self.observation(seat).into_pyarray(py))
    }

    /// What `player` knows, as a `float32` vector: the observation tensor, then its hand at
    /// the start and the whole history (layout in python/README.md).
    fn information_state_tensor<'py>(
        &self,
        py: Python<'py>,
        player: Int,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let seat = self.seat(player)?;
        Ok(self.information_state(seat).into_pyarray(py))
    }

    /// The length of `observation_tensor`.
    #[getter]
    fn observation_tensor_size(&self) -> usize {
        observation_len(self.deal.players(), self.space.deck_len())
    }

    /// The length of `information_state_tensor`.
    #[getter]
    fn information_state_tensor_size(&self) -> usize {
        information_state_len(
            self.deal.players(),
            self.space.deck_len(),
            self.deal.rules().tricks(),
            self.space.extra_len(),
        )
    }

    /// A deal consistent with everything `player` knows: the other seats' unseen cards dealt
    /// at random (torite-core's `Worlds`, seeded by `seed`), respecting the voids they have
    /// shown; the history is the same. A world in which some earlier action would have been
    /// illegal (Middler's "beat the best card when you can" tells more than voids) is dealt
    /// again, up to `MAX_RESAMPLES` times.
    fn resample_from_infostate(&self, player: Int, seed: Whole) -> PyResult<PyDeal> {
        let seat = self.seat(player)?;
        let seed = seed.0;
        let worlds = Worlds::new(View::new(&self.deal, seat));
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        for _ in 0..MAX_RESAMPLES {
            let world = worlds.sample(&mut rng);
            let mut start = self.start;
            for (s, hand) in start.iter_mut().enumerate().take(self.deal.players()) {
                *hand = world.hand(s) | self.played_by[s];
            }
            if self.consistent(&start) {
                let mut out = Clone::clone(self);
                out.start = start;
                out.deal = world;
                return Ok(out);
            }
        }
        Err(PyValueError::new_err(format!(
            "no world consistent with seat {seat}'s information found in {MAX_RESAMPLES} samples"
        )))
    }

    fn __repr__(&self) -> String {
        format!(
            "Deal({}, dealer {}, {} actions{})",
            self.deal.rules().to_json(),
            self.deal.dealer(),
            self.history.len(),
            if self.deal.is_over() { ", over" } else { "" }
        )
    }
}

fn read_record(record: &Bound<'_, PyAny>) -> PyResult<Record> {
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

/// Replays a record (a dict or JSON text) with torite-core, checking every action, and returns
/// the report `torite replay` prints (RECORD.md), as a dict.
#[pyfunction]
fn replay<'py>(py: Python<'py>, record: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
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
struct PyGame {
    game: Game,
    seeds: Seeds,
    /// The finished deals' records.
    done: Vec<RecordDeal>,
    /// The deal in progress (or the last one, once the game is over).
    deal: PyDeal,
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
struct PyBot {
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
fn random_playouts<'py>(
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
fn playout_returns<'py>(
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
/// per bot of the lineup: `name`, `mean`, `ci95`, `diff`, `diff_ci95`, `win_rate` (games
/// only), `decision_ms`.
#[pyfunction]
#[pyo3(signature = (ruleset, bots, deals = Whole(100), games = None, seed = Whole(0)), text_signature = "(ruleset, bots, deals=100, games=None, seed=0)")]
fn arena<'py>(
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
    for spec in &bots {
        spec.parse::<BotSpec>().map_err(value_error)?;
    }
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
            dict.set_item("decision_ms", b.decision_ms)?;
            Ok(dict)
        })
        .collect()
}

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
