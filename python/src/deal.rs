//! One deal: `Deal`, with each seat's hand at the start and the whole history kept beside
//! the engine's state, its strings, its records and the worlds a seat may imagine. The tensors
//! are in `tensors.rs`.

use numpy::{IntoPyArray, PyArray1};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString};
use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_bots::reward::deal_rewards;
use torite_core::{
    Action, Card, CardSet, Deal, DealFacts, MAX_SEATS, Record, RecordDeal, Ruleset, Seat, SeatSet,
    Seeds, Trump, View, Worlds,
};

use crate::convert::{Int, Whole, from_json_value, read_record, value_error};
use crate::rules::{PyRuleset, Space};
use crate::tensors::{information_state_len, observation_len};

/// How many worlds `resample_from_infostate` deals before giving up on finding one in which
/// the whole history is legal.
const MAX_RESAMPLES: usize = 10_000;

/// One deal, with what the engine does not keep: each seat's hand at the start and every
/// action taken, so that a seat's information state, the record and resampled worlds can be
/// given.
#[pyclass(module = "torite._torite", name = "Deal")]
#[derive(Clone, Debug)]
pub(crate) struct PyDeal {
    pub(crate) deal: Deal,
    pub(crate) space: Space,
    pub(crate) start: [CardSet; MAX_SEATS],
    played_by: [CardSet; MAX_SEATS],
    /// Every action with the seat that took it.
    pub(crate) history: Vec<(Seat, Action)>,
    /// Every completed trick: leader, cards from the leader's, winner.
    tricks: Vec<(Seat, Vec<Card>, Seat)>,
}

impl PyDeal {
    pub(crate) fn from_deal(deal: Deal) -> PyDeal {
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

    pub(crate) fn step(&mut self, action: Action) -> PyResult<()> {
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

    pub(crate) fn record(&self) -> Record {
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
    pub(crate) fn replay(rules: Ruleset, deal: &RecordDeal) -> PyResult<PyDeal> {
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
    pub(crate) fn current_player(&self) -> i64 {
        if self.deal.is_over() {
            -1
        } else {
            self.deal.to_act() as i64
        }
    }

    /// The legal action ids, ascending; empty once the deal is over.
    pub(crate) fn legal_actions(&self) -> PyResult<Vec<usize>> {
        let legal = self.deal.legal_actions();
        legal.iter().map(|a| self.space.id(a)).collect()
    }

    /// The legal actions as a 0/1 `int8` array over the action space.
    pub(crate) fn legal_actions_mask<'py>(
        &self,
        py: Python<'py>,
    ) -> PyResult<Bound<'py, PyArray1<i8>>> {
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
