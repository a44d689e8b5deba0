//! Inference: which of the worlds consistent with a [`View`] the other seats' play makes
//! likely.
//!
//! The core's [`Worlds`] deals the unseen cards uniformly over the deals consistent with the
//! view: every hard constraint the history puts on the hands is kept (the suits a seat did not
//! follow, the cards Handjass's "beat when able" and Jass's undertrump and trump-lead rules
//! show it lacks, the joker's rules), and nothing else. But a seat's *choices* say more: a
//! seat that sheds high cards and played a small card under an ace probably holds no king;
//! a seat that did not declare the Lot probably does not hold all winners. This module weighs
//! each world by the likelihood of the other seats' observed actions in it, under an opponent
//! model (Buro et al.'s policy-based inference for Skat).
//!
//! **What it reads.** The deal's history is not part of a view, so the [`Observer`] rebuilds
//! it from the views it is shown, one per decision of its seat: each view shows the trick in
//! progress and the last trick completed, so a seat asked at least once a trick sees every
//! card played, by whom and in which order; the Lot's declarations are public in the view
//! ([`View::lot`]), the suit a joker lead named is the trick's led suit while the trick is in
//! progress, and whether a joker played last said it wins shows in the trick's winner. Only
//! public facts are read: the history is what every seat at the table saw. When the log has
//! a gap (an observer created in the middle of a deal, or a trick it was not asked in), it
//! is incomplete, and the worlds are left unweighted.
//!
//! **The likelihood.** Each world's starting hands are its hands plus the cards each seat has
//! played; the logged actions are replayed from them, and at every decision of another seat
//! that had a choice, the opponent model's probability of the action taken is multiplied in.
//! The model is the rule of thumb ([`Heuristic`]) with noise: it plays the heuristic's action
//! with probability `1 − ε` and otherwise any legal action uniformly ([`Inference::noise`]), so
//! no world consistent with the view gets weight zero and a seat that plays unlike the rule of
//! thumb only flattens the weights. A replay that cannot go on (a suit named by a joker
//! lead in a trick the observer saw only complete) stops there, and the likelihood is that of
//! the actions before it.
//!
//! **The noise, and how it was chosen.** With the `inference_quality` example, which scores
//! how much weight the worlds put on each unseen card's true owner, the best noise depends on
//! who plays: against the rule of thumb itself or the *Club* level (two thirds of its moves by
//! the rule of thumb) a noise of 0.5 places the cards much better than no weighting, but
//! against ISMCTS it places them *worse* than no weighting, while 0.9 is better than none
//! against every opponent measured except ISMCTS in `mittlere-jass`, where it is a hair worse. [`DEFAULT_NOISE`] is 0.9. Choosing each seat's noise
//! by the likelihood of its plays ([`Inference::adaptive`]) finds 0.5 against the rule of
//! thumb but is fooled by ISMCTS, which often plays as the rule of thumb would and yet
//! differs where it matters; it is kept as an option and measured in `docs/STATS.md`.
//!
//! **A search as the model.** Against players who search, the rule of thumb and the learned
//! policy describe their choices too poorly to read much ([`Inference::with_policy`]). With
//! [`Inference::with_search`], a card play is judged by a small ISMCTS searching the playing
//! seat's view of the world as it stood: the card's probability is its share of the root's
//! visits. It places the cards far better against ISMCTS (`docs/STATS.md`, "Does reading the
//! others' cards by searching as them make the search stronger?"), at the price of one search
//! per choice logged, per starting hand of the seat that made it: a seat's plays are read
//! once for each hand worlds deal it, and the readings are kept for the deal. One search's
//! reading is noisy, and multiplied over a long deal's many choices it can put nearly all the
//! weight on a few worlds; [`Inference::tempered`] spreads it ([`tempered_weights`]).
//!
//! **A learned network as the model.** [`Inference::with_reader`] judges a card play by the
//! learned reader ([`crate::reader`]), a small neural network fitted to ISMCTS's own cards: it
//! predicts them better than the learned policy in every preset, and costs one and a half to
//! two times what the policy costs, a hundredth of what the search costs. It places the cards
//! better than the policy, and since it reads the whole hand and where the seat stands, much
//! better in Mini Misère (`docs/STATS.md`, "Does a learned network read the others' cards
//! cheaply enough to pay?" and "Does reading the whole hand make the reader better?"). Its
//! readings are kept by starting hand as the search's are, so a seat's plays are read once
//! for each hand worlds deal it. *Expert* reads the cards with it ([`crate::level`]).
//!
//! **Use in search.** [`Inference::pool`] deals a pool of worlds with [`Worlds`], weighs
//! them, and the search draws its determinisations from the pool in proportion to the
//! weights (importance resampling). The hard constraints stay those of [`Worlds`]: a world the
//! pool holds is one [`Worlds`] dealt, so a seat that showed void in a suit is never dealt a
//! card of it.

use std::collections::HashMap;

use rand_chacha::ChaCha8Rng;
use torite_core::shuffle::below;
use torite_core::{
    Action, ActionSet, Card, CardSet, Deal, MAX_SEATS, Phase, Ruleset, Seat, Suit, View, Worlds,
};

use crate::eval::Scoring;
use crate::heuristic::Heuristic;
use crate::ismcts::Ismcts;
use crate::policy::Policy;
use crate::reader::Reader;
use crate::{Bot, Budget};

/// The opponent model's default noise: the share of decisions it plays any legal action
/// uniformly instead of the rule of thumb's.
pub const DEFAULT_NOISE: f64 = 0.9;

/// One trick as the observer logged it.
#[derive(Clone, Debug)]
struct LoggedTrick {
    leader: Seat,
    cards: Vec<Card>,
    /// The winner, once the trick is complete.
    winner: Option<Seat>,
    /// The suit a joker lead named, when it was seen.
    call: Option<Suit>,
}

/// The public history of the current deal, rebuilt from the views a seat is shown (see the
/// module documentation).
#[derive(Clone, Debug, Default)]
pub struct Observer {
    tricks: Vec<LoggedTrick>,
    /// Whether the log covers the deal from its first card.
    complete: bool,
    /// How many times the log has started again: what was read from the log before holds
    /// while this stays the same, for the log only grows.
    epoch: u64,
}

impl Observer {
    /// An observer that has seen nothing yet.
    #[must_use]
    pub fn new() -> Observer {
        Observer::default()
    }

    /// Whether the log covers every card played in the deal of the last view observed.
    #[must_use]
    pub const fn is_complete(&self) -> bool {
        self.complete
    }

    /// The cards logged, by seat.
    fn played_by(&self, players: usize) -> [CardSet; MAX_SEATS] {
        let mut out = [CardSet::EMPTY; MAX_SEATS];
        for t in &self.tricks {
            for (i, card) in t.cards.iter().enumerate() {
                out[(t.leader + i) % players].insert(*card);
            }
        }
        out
    }

    /// Takes in what `view` shows of the history since the last view: the trick in progress
    /// and the last trick completed. A view of another deal, or one that skips a trick,
    /// starts the log again (complete only if no trick has been completed yet).
    pub fn observe(&mut self, view: &View<'_>) {
        let done = view.tricks_completed();
        let logged_done = self.tricks.iter().filter(|t| t.winner.is_some()).count();
        let extended = self.complete && self.extend(view, done, logged_done);
        if !extended {
            self.epoch += 1;
            self.tricks.clear();
            self.complete = done == 0;
            if self.complete {
                self.push_current(view);
            }
        }
        // Every card played is in the log, or the log is not to be trusted.
        let players = view.rules().players as usize;
        let logged = self
            .played_by(players)
            .iter()
            .fold(CardSet::EMPTY, |a, b| a | *b);
        if logged != view.played() {
            self.complete = false;
        }
    }

    /// Extends the log by the view, when it follows on from it; false when it does not.
    fn extend(&mut self, view: &View<'_>, done: usize, logged_done: usize) -> bool {
        if done == logged_done {
            // The same trick in progress, with more cards.
            let current = view.current_trick();
            match self.tricks.last_mut() {
                Some(t) if t.winner.is_none() => {
                    if !current.starts_with(&t.cards)
                        || (!t.cards.is_empty() && t.leader != view.leader())
                    {
                        return false;
                    }
                    t.leader = view.leader();
                    t.cards = current.to_vec();
                    if t.call.is_none() && view.phase() != Phase::CallSuit {
                        t.call = joker_call(view);
                    }
                    true
                }
                _ => {
                    self.push_current(view);
                    true
                }
            }
        } else if done == logged_done + 1 {
            // The trick in progress was completed: the last trick ends it.
            let Some(last) = view.last_trick() else {
                return false;
            };
            match self.tricks.last_mut() {
                Some(t) if t.winner.is_none() => {
                    if !last.cards().starts_with(&t.cards)
                        || (!t.cards.is_empty() && t.leader != last.leader)
                    {
                        return false;
                    }
                    t.leader = last.leader;
                    t.cards = last.cards().to_vec();
                    t.winner = Some(last.winner);
                }
                _ => self.tricks.push(LoggedTrick {
                    leader: last.leader,
                    cards: last.cards().to_vec(),
                    winner: Some(last.winner),
                    call: None,
                }),
            }
            self.push_current(view);
            true
        } else {
            false
        }
    }

    /// Takes in the observing seat's own action just chosen: the suit it names after leading
    /// the joker, which no later view shows.
    pub fn note_own(&mut self, action: Action) {
        if let (Action::Call(suit), Some(t)) = (action, self.tricks.last_mut())
            && t.winner.is_none()
            && t.cards.len() == 1
        {
            t.call = Some(suit);
        }
    }

    fn push_current(&mut self, view: &View<'_>) {
        self.tricks.push(LoggedTrick {
            leader: view.leader(),
            cards: view.current_trick().to_vec(),
            winner: None,
            call: if view.phase() == Phase::CallSuit {
                None
            } else {
                joker_call(view)
            },
        });
    }
}

/// The suit named by a joker lead to the trick in progress, if it is one.
fn joker_call(view: &View<'_>) -> Option<Suit> {
    match view.current_trick().first() {
        Some(c) if c.is_joker() => view.led(),
        _ => None,
    }
}

/// The world weighting of the module documentation.
#[derive(Clone, Debug)]
pub struct Inference {
    observer: Observer,
    model: Opponent,
    noise: f64,
    /// Whether [`Inference::pool`] chooses each seat's noise among [`NOISES`].
    adaptive: bool,
    /// The least share of a pool's worlds that must count ([`tempered_weights`]).
    temper: f64,
}

impl Default for Inference {
    fn default() -> Inference {
        Inference::new()
    }
}

impl Inference {
    /// Inference with the default noise ([`DEFAULT_NOISE`]) for every seat.
    #[must_use]
    pub fn new() -> Inference {
        Inference {
            observer: Observer::new(),
            model: Opponent {
                heuristic: Heuristic::new(0),
                policy: false,
                reader: false,
                search: None,
                scratch: Vec::new(),
                scorings: Vec::new(),
                readings: Readings::default(),
            },
            noise: DEFAULT_NOISE,
            adaptive: false,
            temper: 0.0,
        }
    }

    /// Inference whose pools choose each seat's noise among [`NOISES`]: the one under which
    /// the seat's logged plays are most likely, averaged over the worlds ([`Pool::noises`];
    /// [`Inference::log_likelihood`] keeps the fixed noise).
    #[must_use]
    pub fn adaptive() -> Inference {
        Inference {
            adaptive: true,
            ..Inference::new()
        }
    }

    /// The same with the learned policy ([`crate::policy`]) as the model of the other seats'
    /// card plays, where the ruleset has one (the rule of thumb with the noise stays the model
    /// of their other decisions, and of every decision in a ruleset without a policy).
    #[must_use]
    pub fn with_policy(mut self) -> Inference {
        self.model.policy = true;
        self
    }

    /// The same with the learned reader ([`crate::reader`]) as the model of the other seats'
    /// card plays, mixed with [`READER_NOISE`] of uniform choice (the rule of thumb with the
    /// noise stays the model of their other decisions). In a ruleset without a reader (a house
    /// rule) [`Inference::pool`] weighs nothing, so that a search deals its worlds as the
    /// plain search does: weighing by the rule of thumb alone was measured to cost the search
    /// more than it reads (`docs/STATS.md`, "Does reading the others' play make the search
    /// stronger?").
    #[must_use]
    pub fn with_reader(mut self) -> Inference {
        self.model.reader = true;
        self
    }

    /// The same with a small search as the model of the other seats' card plays: at each
    /// logged card play of another seat with a choice, in each world, an ISMCTS of
    /// `iterations` iterations searches that seat's view of the world as it then stood, and
    /// the card's probability is its share of the root's visits raised to `sharpness`
    /// (normalised), mixed with [`SEARCH_NOISE`] of uniform choice. It reads the cards by
    /// asking what a searching player holding each world's hand would have played; it costs
    /// about `iterations` simulations per logged choice per world.
    #[must_use]
    pub fn with_search(mut self, iterations: u32, sharpness: f64) -> Inference {
        self.model.search = Some(SearchModel {
            bot: Box::new(Ismcts::with_budget(
                0,
                Budget::Iterations(iterations.max(1)),
            )),
            sharpness,
        });
        self
    }

    /// The same with each pool's weights tempered so that at least `share` of its worlds
    /// count ([`tempered_weights`]).
    #[must_use]
    pub fn tempered(mut self, share: f64) -> Inference {
        self.temper = share.clamp(0.0, 1.0);
        self
    }

    /// Whether the other seats' card plays are modelled by a search
    /// ([`Inference::with_search`]).
    #[must_use]
    pub const fn uses_search(&self) -> bool {
        self.model.search.is_some()
    }

    /// Whether the other seats' card plays are modelled by the learned reader
    /// ([`Inference::with_reader`]).
    #[must_use]
    pub const fn uses_reader(&self) -> bool {
        self.model.reader
    }

    /// Whether the other seats' card plays are modelled by the learned policy
    /// ([`Inference::with_policy`]).
    #[must_use]
    pub const fn uses_policy(&self) -> bool {
        self.model.policy
    }

    /// The same with one noise `epsilon` for every seat (in `(0, 1]`; at 1 the model plays
    /// uniformly at random, and a world weighs the product of one over the choices each
    /// decision had).
    #[must_use]
    pub fn noise(mut self, epsilon: f64) -> Inference {
        self.noise = epsilon.clamp(1e-3, 1.0);
        self.adaptive = false;
        self
    }

    /// Takes in the view's history ([`Observer::observe`]); call once per decision.
    pub fn observe(&mut self, view: &View<'_>) {
        self.observer.observe(view);
        self.model.scorings.clear();
        self.model.readings.follow(self.observer.epoch);
    }

    /// Takes in the observing seat's own action just chosen ([`Observer::note_own`]).
    pub fn note_own(&mut self, action: Action) {
        self.observer.note_own(action);
        self.model.scorings.clear();
    }

    /// The observer's log.
    #[must_use]
    pub const fn observer(&self) -> &Observer {
        &self.observer
    }

    /// The natural logarithm of the likelihood of the other seats' logged actions in `world`
    /// (a deal [`Worlds`] dealt from `view`), under the opponent model; 0 when the log is
    /// incomplete or records no choice of another seat.
    pub fn log_likelihood(&mut self, view: &View<'_>, world: &Deal) -> f64 {
        self.replay(view, world).0.fixed()
    }

    /// [`Inference::log_likelihood`], and whether the replay went through every logged action
    /// (false when it stopped early, as the module documentation says it may).
    fn replay(&mut self, view: &View<'_>, world: &Deal) -> (Likelihood, bool) {
        if !self.observer.complete {
            return (Likelihood::ZERO, false);
        }
        let rules = view.rules();
        let n = rules.players as usize;
        let mut hands = [CardSet::EMPTY; MAX_SEATS];
        let played = self.observer.played_by(n);
        for (seat, hand) in hands.iter_mut().enumerate().take(n) {
            *hand = world.hand(seat) | played[seat];
        }
        let Ok(mut deal) = Deal::new(*rules, view.dealer(), &hands[..n]) else {
            return (Likelihood::ZERO, false);
        };
        let me = view.seat();
        let declarers = view.lot().declaring();
        let mut replay = Replay {
            model: &mut self.model,
            noise: self.noise,
            me,
            starts: hands,
            read: [0; MAX_SEATS],
            ll: Likelihood::ZERO,
        };
        let tricks = self.observer.tricks.len();
        for (t, trick) in self.observer.tricks.iter().enumerate() {
            for (i, &card) in trick.cards.iter().enumerate() {
                let last = t + 1 == tricks && i + 1 == trick.cards.len();
                let seat = (trick.leader + i) % n;
                // The actions before the card: the Lot's questions and declarations.
                loop {
                    let action = match deal.phase() {
                        Phase::LotQuestion => {
                            if declarers.contains(deal.to_act()) {
                                Action::Lot
                            } else {
                                Action::Pass
                            }
                        }
                        Phase::Play
                            if deal.to_act() == seat
                                && declarers.contains(seat)
                                && !deal.lot().declaring().contains(seat)
                                && deal.legal_actions().lot =>
                        {
                            Action::Lot
                        }
                        Phase::SayJoker => {
                            match (trick_winner_before(&self.observer, &deal), deal.to_act()) {
                                (Some(w), s) if w == s => Action::JokerWins,
                                (Some(_), _) => Action::JokerLoses,
                                (None, _) => return (replay.ll, false),
                            }
                        }
                        _ => break,
                    };
                    if !replay.take(&mut deal, action) {
                        return (replay.ll, false);
                    }
                }
                if deal.to_act() != seat || !replay.take(&mut deal, Action::Play(card)) {
                    return (replay.ll, false);
                }
                if deal.phase() == Phase::CallSuit {
                    let Some(suit) = trick.call else {
                        // Unknown unless it is the viewer's own call, still to make.
                        return (replay.ll, last && deal.to_act() == me);
                    };
                    if !replay.take(&mut deal, Action::Call(suit)) {
                        return (replay.ll, false);
                    }
                }
            }
        }
        (replay.ll, true)
    }
}

/// The opponent model's noises among which [`Inference::pool`] chooses, seat by seat, when it
/// adapts (see the module documentation).
pub const NOISES: [f64; 5] = [0.25, 0.5, 0.75, 0.9, 1.0];

/// The columns of a [`Likelihood`]: one per noise of [`NOISES`], then the fixed noise.
const COLUMNS: usize = NOISES.len() + 1;

/// The log-likelihoods of one world's logged actions, seat by seat, under each noise of
/// [`NOISES`] and under the fixed noise (the last column).
#[derive(Clone, Copy, Debug)]
struct Likelihood {
    by_seat: [[f64; COLUMNS]; MAX_SEATS],
}

impl Likelihood {
    const ZERO: Likelihood = Likelihood {
        by_seat: [[0.0; COLUMNS]; MAX_SEATS],
    };

    /// The total under the fixed noise.
    fn fixed(&self) -> f64 {
        self.by_seat.iter().map(|s| s[COLUMNS - 1]).sum()
    }
}

/// The opponent model: the rule of thumb with noise, and for card plays, where the ruleset
/// has one, the learned reader ([`crate::reader`]) mixed with [`READER_NOISE`] of uniform
/// choice when [`Inference::with_reader`] asked for it, else the learned policy
/// ([`crate::policy`]) mixed with [`POLICY_NOISE`] when [`Inference::with_policy`] did, or a
/// search ([`Inference::with_search`]).
#[derive(Clone, Debug)]
struct Opponent {
    heuristic: Heuristic,
    policy: bool,
    /// Whether the learned reader models card plays ([`Inference::with_reader`]); it comes
    /// before the policy.
    reader: bool,
    /// The search that models card plays, when [`Inference::with_search`] asked for one.
    search: Option<SearchModel>,
    /// The learned model's probabilities of the decision in hand (kept to reuse its room).
    scratch: Vec<(Card, f64)>,
    /// The scoring of the public facts at each card play of the logged history, by its place
    /// in the deal (tricks completed × seats + cards in the trick): the same in every world
    /// replayed, so worked out once for them all; emptied when the log changes.
    scorings: Vec<Option<Scoring>>,
    /// The card-play model's readings of each seat's logged card plays (the search's, the
    /// reader's or the policy's), by the hand it started the deal with.
    readings: Readings,
}

/// What the card-play model (a search, the learned reader or the learned policy) made of
/// each seat's logged card plays, kept for the deal.
///
/// A seat's view, and so what a model standing in for it plays, depends only on the cards it
/// holds and on the public history: its hand at each logged play is its starting hand less
/// the cards it played before. So the probabilities of its plays are the same in every world
/// that deals it the same starting hand, at this decision and at every later one of the deal
/// (the log only grows). Worlds deal the same hands over and over, the more so the fewer
/// cards are unseen; each seat's plays are read once per hand. For the learned reader this
/// makes a world two to three times cheaper to weigh over whole deals (the `inference`
/// bench's pools over a deal; `docs/STATS.md`).
#[derive(Clone, Debug, Default)]
struct Readings {
    /// The logarithm of each read play's probability, in the order the seat made them, by
    /// the seat and its starting hand.
    by_hand: HashMap<(Seat, CardSet), Vec<f64>>,
    /// The [`Observer`]'s epoch the readings are of.
    epoch: u64,
}

/// The most starting hands [`Readings`] keeps; past it, it starts again (memory stays
/// bounded whatever the pool sizes).
const MAX_READINGS: usize = 1 << 16;

impl Readings {
    /// Forgets every reading when the log has started again since they were made.
    fn follow(&mut self, epoch: u64) {
        if self.epoch != epoch {
            self.by_hand.clear();
            self.epoch = epoch;
        }
    }
}

/// A learned model of card plays ([`Opponent::learned_model`]).
#[derive(Clone, Copy, Debug)]
enum Learned {
    Reader(&'static Reader),
    Policy(&'static Policy),
}

/// A small search standing in for another seat ([`Inference::with_search`]).
#[derive(Clone, Debug)]
struct SearchModel {
    bot: Box<Ismcts>,
    sharpness: f64,
}

/// The iterations of `ismcts-read`'s model search ([`Inference::with_search`]).
pub const READ_ITERATIONS: u32 = 200;

/// The sharpness of `ismcts-read`'s model search ([`Inference::with_search`]).
pub const READ_SHARPNESS: f64 = 2.0;

/// The share of uniform choice mixed into the search model's probabilities.
pub const SEARCH_NOISE: f64 = 0.2;

/// The least share of the pool's worlds that count for `ismcts-read` ([`Inference::tempered`]).
pub const READ_TEMPER: f64 = 0.2;

impl Opponent {
    /// The logarithm of the card-play model's probability of `action` among the `legal`
    /// actions of `deal`'s seat to act, when a search, the reader or the policy models that
    /// decision: the seat's `index`th read play (from 0) of the deal, which it started with
    /// the hand `start`. Read once per seat and starting hand ([`Readings`]).
    fn read(
        &mut self,
        deal: &Deal,
        legal: &ActionSet,
        action: Action,
        start: CardSet,
        index: usize,
    ) -> Option<f64> {
        if !matches!(action, Action::Play(_)) {
            return None;
        }
        let learned = if self.search.is_some() {
            None
        } else {
            // Only a decision a learned model judges is read: the others take no index.
            Some(self.learned_model(deal.rules(), legal)?)
        };
        if self.readings.by_hand.len() >= MAX_READINGS {
            self.readings.by_hand.clear();
        }
        let key = (deal.to_act(), start);
        if let Some(ln) = self.readings.by_hand.get(&key).and_then(|r| r.get(index)) {
            return Some(*ln);
        }
        let ln = match learned {
            Some(model) => self.learned(model, deal, legal, action)?,
            None => self.search(deal, legal, action)?,
        }
        .ln();
        let read = self.readings.by_hand.entry(key).or_default();
        if read.len() == index {
            read.push(ln);
        }
        Some(ln)
    }

    /// The search model's probability of `action` among the `legal` actions of `deal`'s seat
    /// to act, searched afresh.
    fn search(&mut self, deal: &Deal, legal: &ActionSet, action: Action) -> Option<f64> {
        let Action::Play(card) = action else {
            return None;
        };
        // A card played where the seat might have declared the Lot is the search's choice
        // among both: its probability is its share of the visits of every root action.
        let model = self.search.as_mut()?;
        model.bot.search(&View::new(deal, deal.to_act()));
        let children = model.bot.root_children();
        let weight = |visits: u32| f64::from(visits).powf(model.sharpness);
        let total: f64 = children.iter().map(|(_, v, _)| weight(*v)).sum();
        let mine = children
            .iter()
            .find(|(a, _, _)| *a == Action::Play(card))
            .map_or(0.0, |(_, v, _)| weight(*v));
        let p = if total > 0.0 { mine / total } else { 0.0 };
        Some((1.0 - SEARCH_NOISE) * p + SEARCH_NOISE / legal.len() as f64)
    }

    /// The learned model that judges a card play among the `legal` actions under `rules`, if
    /// any: the reader when [`Inference::with_reader`] asked for it, else the policy when
    /// [`Inference::with_policy`] did, where the ruleset has one; none where the seat might
    /// also declare the Lot (the rule of thumb judges that decision).
    fn learned_model(&self, rules: &Ruleset, legal: &ActionSet) -> Option<Learned> {
        if legal.len() != legal.cards.len() {
            return None;
        }
        let reader = self.reader.then(|| Reader::for_rules(rules)).flatten();
        let policy = (self.policy && reader.is_none())
            .then(|| Policy::for_rules(rules))
            .flatten();
        reader.map(Learned::Reader).or(policy.map(Learned::Policy))
    }

    /// The probability of `action` among the `legal` actions of `deal`'s seat to act under
    /// the learned `model`: the reader's mixed with [`READER_NOISE`] of uniform choice, the
    /// policy's with [`POLICY_NOISE`].
    fn learned(
        &mut self,
        model: Learned,
        deal: &Deal,
        legal: &ActionSet,
        action: Action,
    ) -> Option<f64> {
        let Action::Play(card) = action else {
            return None;
        };
        let place = deal.tricks_completed() * deal.players() + deal.current_trick().len();
        if self.scorings.len() <= place {
            self.scorings.resize(place + 1, None);
        }
        let scoring = *self.scorings[place].get_or_insert_with(|| Scoring::of(&View::new(deal, 0)));
        let view = View::new(deal, deal.to_act());
        let noise = match model {
            Learned::Reader(reader) => {
                reader.probabilities_with(&view, legal.cards, &scoring, &mut self.scratch);
                READER_NOISE
            }
            Learned::Policy(policy) => {
                policy.probabilities_with(&view, legal.cards, &scoring, &mut self.scratch);
                POLICY_NOISE
            }
        };
        let p = self
            .scratch
            .iter()
            .find(|(c, _)| *c == card)
            .map_or(0.0, |(_, p)| *p);
        Some((1.0 - noise) * p + noise / legal.len() as f64)
    }
}

/// The share of uniform choice mixed into the learned reader's probabilities: the share the
/// `train_reader` example's report mixes in.
pub const READER_NOISE: f64 = 0.05;

/// The share of uniform choice mixed into the learned policy's probabilities: the best of
/// those the `train_policy` example compares on held-out ISMCTS decisions in Mini Misère and
/// Mura (0.02 to 0.05), on the side of caution.
pub const POLICY_NOISE: f64 = 0.05;

/// A replay of the log in one world, under way ([`Inference::replay`]).
struct Replay<'a> {
    model: &'a mut Opponent,
    /// The fixed noise.
    noise: f64,
    /// The observing seat, whose own actions are not weighed.
    me: Seat,
    /// Each seat's hand at the start of the deal in the world replayed.
    starts: [CardSet; MAX_SEATS],
    /// How many of each seat's card plays the card-play model has read so far.
    read: [usize; MAX_SEATS],
    ll: Likelihood,
}

impl Replay<'_> {
    /// Applies `action` to the replay, adding the logarithm of its probability under the
    /// model (for every noise) when another seat than the observer's chose it among several;
    /// false (and nothing applied) when it is illegal there.
    fn take(&mut self, deal: &mut Deal, action: Action) -> bool {
        if !deal.is_legal(action) {
            return false;
        }
        let seat = deal.to_act();
        if seat != self.me {
            let actions = deal.legal_actions();
            let legal = actions.len();
            if legal > 1 {
                let index = self.read[seat];
                let modelled = self
                    .model
                    .read(deal, &actions, action, self.starts[seat], index);
                if modelled.is_some() {
                    self.read[seat] += 1;
                }
                let row = &mut self.ll.by_seat[seat];
                if let Some(ln) = modelled {
                    for cell in row.iter_mut() {
                        *cell += ln;
                    }
                } else {
                    let matches = self.model.heuristic.act(&View::new(deal, seat)) == action;
                    for (cell, eps) in row.iter_mut().zip(NOISES.iter().chain([&self.noise])) {
                        let uniform = eps / legal as f64;
                        *cell += if matches {
                            1.0 - eps + uniform
                        } else {
                            uniform
                        }
                        .ln();
                    }
                }
            }
        }
        deal.apply_unchecked(action);
        true
    }
}

impl Inference {
    /// A pool of `size` worlds dealt from `view` with their weights (normalised so that the
    /// largest is 1), or `None` when the log is incomplete, when every world weighs the same
    /// (no choice of another seat logged yet), or when the reader was asked for and the
    /// ruleset has none ([`Inference::with_reader`]).
    /// `keep_going` is asked before each world after the first few, so that a time budget can
    /// cut the pool short.
    pub fn pool(
        &mut self,
        view: &View<'_>,
        size: usize,
        rng: &mut ChaCha8Rng,
        mut keep_going: impl FnMut() -> bool,
    ) -> Option<Pool> {
        if !self.observer.complete
            || (self.model.reader && Reader::for_rules(view.rules()).is_none())
        {
            return None;
        }
        let worlds = Worlds::new(*view);
        let mut pool = Pool {
            worlds: Vec::with_capacity(size),
            cumulative: Vec::with_capacity(size),
            noises: [1.0; MAX_SEATS],
        };
        let mut lls = Vec::with_capacity(size);
        while pool.worlds.len() < size {
            if pool.worlds.len() >= MIN_POOL && !keep_going() {
                break;
            }
            let world = worlds.sample(rng);
            lls.push(self.replay(view, &world).0);
            pool.worlds.push(world);
        }
        // The noise of each seat: the fixed one, or the one under which its plays are most
        // likely, averaged over the worlds dealt uniformly (its marginal likelihood).
        let mut column = [COLUMNS - 1; MAX_SEATS];
        if self.adaptive {
            for (seat, col) in column.iter_mut().enumerate() {
                let evidence = |c: usize| log_mean_exp(lls.iter().map(|l| l.by_seat[seat][c]));
                *col = (0..NOISES.len())
                    .max_by(|a, b| evidence(*a).total_cmp(&evidence(*b)))
                    .unwrap_or(COLUMNS - 1);
                pool.noises[seat] = NOISES[*col];
            }
        } else {
            pool.noises = [self.noise; MAX_SEATS];
        }
        let totals: Vec<f64> = lls
            .iter()
            .map(|l| (0..MAX_SEATS).map(|s| l.by_seat[s][column[s]]).sum())
            .collect();
        let top = totals.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        if totals.iter().all(|ll| *ll == top) {
            // Nothing to weigh: worlds dealt afresh are as good and more varied.
            return None;
        }
        let mut total = 0.0;
        for weight in tempered_weights(&totals, self.temper) {
            total += weight;
            pool.cumulative.push(total);
        }
        (total > 0.0).then_some(pool)
    }
}

/// `ln(mean(exp(x)))`, computed without overflow; 0 for no values.
fn log_mean_exp(values: impl Iterator<Item = f64> + Clone) -> f64 {
    let top = values.clone().fold(f64::NEG_INFINITY, f64::max);
    if !top.is_finite() {
        return 0.0;
    }
    let (sum, n) = values.fold((0.0, 0.0), |(s, n), v| (s + (v - top).exp(), n + 1.0));
    top + (sum / n).ln()
}

/// The fewest worlds [`Inference::pool`] deals whatever the time.
const MIN_POOL: usize = 8;

/// The winner of the trick in progress in `deal`, as the log has it.
fn trick_winner_before(observer: &Observer, deal: &Deal) -> Option<Seat> {
    observer.tricks.get(deal.tricks_completed())?.winner
}

/// The weights of worlds whose log-likelihoods are `lls`, relative to the likeliest (whose
/// weight is 1), tempered so that at least `share` of them count: the likelihoods are raised
/// to the largest power at most 1 that leaves an effective number of worlds, `(Σw)² / Σw²`,
/// of at least `share` times their number.
///
/// A model that is sure of itself, multiplied over many choices, can put nearly all the
/// weight on a handful of worlds; tempering keeps the ordering of the worlds and spreads the
/// weight so that the search still sees enough of them. The effective number falls as the
/// power rises (its logarithm's derivative is twice the difference of the mean
/// log-likelihood under the weights and under their squares), so the power is found by
/// bisection.
#[must_use]
pub fn tempered_weights(lls: &[f64], share: f64) -> Vec<f64> {
    let top = lls.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    if !top.is_finite() {
        return vec![1.0; lls.len()];
    }
    let floor = share.clamp(0.0, 1.0) * lls.len() as f64;
    let weights = |power: f64| lls.iter().map(move |l| ((l - top) * power).exp());
    let effective = |power: f64| {
        let (sum, squares) = weights(power).fold((0.0, 0.0), |(s, q), w| (s + w, q + w * w));
        sum * sum / squares
    };
    let mut power = 1.0;
    if effective(1.0) < floor {
        let (mut low, mut high) = (0.0, 1.0);
        for _ in 0..40 {
            let mid = f64::midpoint(low, high);
            if effective(mid) >= floor {
                low = mid;
            } else {
                high = mid;
            }
        }
        power = low;
    }
    weights(power).collect()
}

/// Weighted worlds to draw determinisations from.
#[derive(Clone, Debug)]
pub struct Pool {
    worlds: Vec<Deal>,
    /// The running sum of the weights.
    cumulative: Vec<f64>,
    /// The opponent model's noise for each seat.
    noises: [f64; MAX_SEATS],
}

impl Pool {
    /// How many worlds the pool holds.
    #[must_use]
    pub fn len(&self) -> usize {
        self.worlds.len()
    }

    /// Whether the pool is empty (a pool [`Inference::pool`] returns never is).
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.worlds.is_empty()
    }

    /// The worlds and their weights (the largest 1).
    pub fn weighted(&self) -> impl Iterator<Item = (&Deal, f64)> + '_ {
        let mut before = 0.0;
        self.worlds.iter().zip(&self.cumulative).map(move |(w, c)| {
            let weight = c - before;
            before = *c;
            (w, weight)
        })
    }

    /// The effective number of worlds, `(Σw)² / Σw²`: the pool's size when every weight is
    /// equal, near 1 when one world outweighs the others.
    #[must_use]
    pub fn effective_size(&self) -> f64 {
        let (sum, squares) = self
            .weighted()
            .fold((0.0, 0.0), |(s, q), (_, w)| (s + w, q + w * w));
        if squares > 0.0 {
            sum * sum / squares
        } else {
            0.0
        }
    }

    /// The opponent model's noise the weights used for each seat (1 for the viewer and for a
    /// seat that plays no more like the rule of thumb than at random).
    #[must_use]
    pub const fn noises(&self) -> [f64; MAX_SEATS] {
        self.noises
    }

    /// A world drawn in proportion to the weights.
    pub fn draw(&self, rng: &mut ChaCha8Rng) -> Deal {
        let total = self.cumulative.last().copied().unwrap_or(0.0);
        let u = f64::from(below(rng, 1 << 30)) / f64::from(1u32 << 30) * total;
        let i = self.cumulative.partition_point(|c| *c <= u);
        self.worlds[i.min(self.worlds.len() - 1)].clone()
    }
}

#[cfg(test)]
mod tests {
    use rand_chacha::rand_core::SeedableRng;
    use torite_core::{Preset, Ruleset};

    use super::*;
    use crate::fixtures::{MOLOTOW_HEARTS, after, hands};
    use crate::make_bot;

    /// The deal after `actions`, the inference of `seat` having watched it at each of its
    /// turns (and now).
    fn watched(
        rules: Ruleset,
        hands: &[CardSet],
        actions: &[&str],
        seat: Seat,
    ) -> (Deal, Inference) {
        let mut deal = Deal::new(rules, rules.players as usize - 1, hands).expect("deal");
        let mut inference = Inference::new();
        for a in actions {
            if deal.to_act() == seat {
                inference.observe(&View::new(&deal, seat));
            }
            deal.apply(a.parse().expect("action")).expect("legal");
        }
        inference.observe(&View::new(&deal, seat));
        (deal, inference)
    }

    #[test]
    fn a_seat_that_showed_void_is_never_dealt_the_suit() {
        // Mini Misère: seat 0 leads a spade, seat 1 and seat 2 show void in spades; seat 3 is
        // to act and weighs its worlds.
        let rules = Preset::MiniMisere4.ruleset();
        let hands = hands([
            "AS KS QS JS TS 2S",
            "AH KH QH JH TH 2H",
            "AD KD QD JD TD 2D",
            "AC KC QC 2C TC JC",
        ]);
        let (deal, mut inference) = watched(rules, &hands, &["2S", "2H", "TD"], 3);
        let view = View::new(&deal, 3);
        assert!(inference.observer().is_complete());
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let pool = inference
            .pool(&view, 300, &mut rng, || true)
            .expect("choices were observed");
        assert_eq!(pool.len(), 300);
        let spades: CardSet = "AS KS QS JS TS".parse().expect("cards");
        for (world, weight) in pool.weighted() {
            assert!(weight > 0.0 && weight <= 1.0);
            assert!(world.hand(1).is_disjoint(spades));
            assert!(world.hand(2).is_disjoint(spades));
            assert_eq!(world.hand(0).of_suit(Suit::Spades), spades);
        }
        // Drawn worlds are pool worlds.
        for _ in 0..50 {
            assert!(pool.draw(&mut rng).hand(1).is_disjoint(spades));
        }
    }

    /// Molotow (points are bad): seat 0 leads the ace of hearts and seat 1 follows with the
    /// six; seat 2, to act, weighs 2,000 worlds with `inference`. The share of them that put
    /// the king of hearts in seat 1's hand, unweighted and weighted, and the pool's effective
    /// size.
    fn king_under_the_ace(mut inference: Inference) -> (f64, f64, f64) {
        let deal = after(Preset::MolotowJass, MOLOTOW_HEARTS, &["AH", "6H"]);
        let view = View::new(&deal, 2);
        inference.observe(&view);
        assert!(inference.observer().is_complete());
        let king: Card = "KH".parse().expect("card");
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let pool = inference
            .pool(&view, 2000, &mut rng, || true)
            .expect("choices were observed");
        let (mut uniform, mut weighted, mut total) = (0.0, 0.0, 0.0);
        for (world, weight) in pool.weighted() {
            let holds = f64::from(u8::from(world.hand(1).contains(king)));
            uniform += holds;
            weighted += holds * weight;
            total += weight;
        }
        (
            uniform / pool.len() as f64,
            weighted / total,
            pool.effective_size(),
        )
    }

    #[test]
    fn a_seat_that_ducked_under_an_ace_is_less_likely_to_hold_the_king() {
        // The rule of thumb sheds the king (four points) on a trick it cannot win if it has
        // it.
        let (uniform, weighted, effective) = king_under_the_ace(Inference::new().noise(0.5));
        // Uniformly, 8 of the 25 unseen cards are seat 1's: about 0.32.
        assert!((0.25..0.40).contains(&uniform), "uniform {uniform}");
        assert!(
            weighted < uniform - 0.1,
            "weighted {weighted}, uniform {uniform}"
        );
        assert!(effective > 100.0, "{effective}");
    }

    #[test]
    fn under_the_learned_policy_a_seat_that_ducked_under_an_ace_is_less_likely_to_hold_the_king() {
        // The search, too, sheds points on a trick it cannot win, and the policy learned it,
        // less sharply than the rule of thumb plays it (about 0.23 against 0.33).
        let (uniform, weighted, effective) = king_under_the_ace(Inference::new().with_policy());
        assert!((0.25..0.40).contains(&uniform), "uniform {uniform}");
        assert!(
            weighted < uniform - 0.05,
            "weighted {weighted}, uniform {uniform}"
        );
        assert!(effective > 100.0, "{effective}");
    }

    #[test]
    fn under_the_learned_reader_a_seat_that_ducked_under_an_ace_is_less_likely_to_hold_the_king() {
        // The network learned the same from the search's play as the policy did, less sharply
        // in this first trick (about 0.28 against 0.33; two standard errors of the pool's
        // share are about 0.03).
        let (uniform, weighted, effective) = king_under_the_ace(Inference::new().with_reader());
        assert!((0.25..0.40).contains(&uniform), "uniform {uniform}");
        assert!(
            weighted < uniform - 0.03,
            "weighted {weighted}, uniform {uniform}"
        );
        assert!(effective > 100.0, "{effective}");
    }

    /// Mini Misère: seat 0 leads the two of spades, which wins its trick, and seat 1 sheds
    /// the jack under it; seat 2, to act, weighs 2,000 worlds with `inference`. The share of
    /// them (weighted) that give seat 1 the ace or the king of spades, which it would rather
    /// have shed.
    fn jack_under_the_led_two(mut inference: Inference) -> f64 {
        let deal = after(
            Preset::MiniMisere4,
            [
                "2S 2H TH 2D TD 2C",
                "JS TS AH KH QH JH",
                "QS AD KD QD JD TC",
                "AS KS AC KC QC JC",
            ],
            &["2S", "JS"],
        );
        let view = View::new(&deal, 2);
        inference.observe(&view);
        let high: CardSet = "AS KS".parse().expect("cards");
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let pool = inference
            .pool(&view, 2000, &mut rng, || true)
            .expect("choices were observed");
        let (mut weighted, mut total) = (0.0, 0.0);
        for (world, weight) in pool.weighted() {
            weighted += weight * f64::from(u8::from(!world.hand(1).is_disjoint(high)));
            total += weight;
        }
        weighted / total
    }

    #[test]
    fn read_by_a_search_a_seat_that_shed_a_jack_under_a_led_two_is_less_likely_to_hold_the_ace_or_king()
     {
        // A searching seat holding the ace or king sheds it on a trick it cannot win: the
        // search model finds the jack less likely from such a hand (its card counts even
        // though the seat might have declared the Lot with it). Weighing by the number of
        // choices alone (uniform play) reads nothing of the kind: about 0.37 against 0.43.
        let uniform = jack_under_the_led_two(Inference::new().noise(1.0));
        let searched = jack_under_the_led_two(Inference::new().with_search(40, READ_SHARPNESS));
        assert!(
            searched < uniform - 0.04,
            "searched {searched}, uniform {uniform}"
        );
    }

    #[test]
    fn a_tempered_pool_lets_the_share_of_its_worlds_count() {
        // Mini Misère, watched by seat 0, whose led twos win two tricks: six plays to read.
        let rules = Preset::MiniMisere4.ruleset();
        let dealt = hands([
            "2S 2H TH 2D TD 2C",
            "JS TS AH KH QH JH",
            "QS AD KD QD JD TC",
            "AS KS AC KC QC JC",
        ]);
        let mut deal = Deal::new(rules, 3, &dealt).expect("deal");
        let mut watcher = Inference::new().with_search(40, 4.0);
        for a in ["2S", "JS", "QS", "AS", "2H", "AH", "AD", "AC"] {
            if deal.to_act() == 0 {
                watcher.observe(&View::new(&deal, 0));
            }
            deal.apply(a.parse().expect("action")).expect("legal");
        }
        let view = View::new(&deal, 0);
        watcher.observe(&view);
        let effective = |inference: Inference| {
            let mut inference = inference;
            let mut rng = ChaCha8Rng::seed_from_u64(12);
            let pool = inference
                .pool(&view, 200, &mut rng, || true)
                .expect("choices were observed");
            pool.effective_size() / pool.len() as f64
        };
        let plain = effective(watcher.clone());
        assert!(
            plain < 0.5,
            "the sharp model alone lets {plain} of the worlds count"
        );
        let tempered = effective(watcher.tempered(0.5));
        assert!(tempered >= 0.5 - 1e-9, "tempered, {tempered} count");
    }

    /// A Mini Misère deal (dealt from `seed`) played by `heuristic` bots until `tricks` tricks
    /// are complete and seat 2 is to act, `watcher` watching as seat 2 at each of its turns
    /// (and now).
    fn watched_by_seat_2(seed: u64, tricks: usize, watcher: &mut Inference) -> Deal {
        watched_by_seat_2_in(Preset::MiniMisere4.ruleset(), seed, tricks, watcher)
    }

    /// [`watched_by_seat_2`] under `rules` (four seats).
    fn watched_by_seat_2_in(
        rules: Ruleset,
        seed: u64,
        tricks: usize,
        watcher: &mut Inference,
    ) -> Deal {
        let mut deal = Deal::random(rules, 1, &mut ChaCha8Rng::seed_from_u64(seed));
        let mut bots: Vec<_> = (0..4)
            .map(|s| make_bot("heuristic", s).expect("bot"))
            .collect();
        while deal.tricks_completed() < tricks || deal.to_act() != 2 {
            let seat = deal.to_act();
            if seat == 2 {
                watcher.observe(&View::new(&deal, 2));
            }
            let action = crate::step(&mut deal, bots[seat].as_mut()).expect("legal");
            if seat == 2 {
                watcher.note_own(action);
            }
        }
        watcher.observe(&View::new(&deal, 2));
        deal
    }

    #[test]
    fn the_reader_stands_aside_in_a_house_rule() {
        // Mini Misère without the Lot has no reader: the pool weighs nothing and the search
        // deals its worlds as the plain search does, though the others' choices are logged.
        // With the preset's rules the same history is weighed.
        let mut rules = Preset::MiniMisere4.ruleset();
        rules.lot = None;
        for (rules, weighed) in [(rules, false), (Preset::MiniMisere4.ruleset(), true)] {
            let mut watcher = Inference::new().with_reader();
            let deal = watched_by_seat_2_in(rules, 3, 2, &mut watcher);
            let view = View::new(&deal, 2);
            assert!(watcher.observer().is_complete());
            let pool = watcher.pool(&view, 32, &mut ChaCha8Rng::seed_from_u64(4), || true);
            assert_eq!(pool.is_some(), weighed, "lot: {:?}", rules.lot.is_some());
        }
    }

    #[test]
    fn the_learned_models_weigh_every_world_as_if_it_were_the_first() {
        // The scoring and the readings kept between worlds must give each world the weight a
        // fresh inference gives it: a Mini Misère deal watched by seat 2 for half its cards,
        // the Lot included (a card played where the Lot could be declared is the rule of
        // thumb's to judge, and must not take the place of the next reading).
        for model in [
            Inference::new().with_policy(),
            Inference::new().with_reader(),
        ] {
            let mut watcher = model;
            let deal = watched_by_seat_2(5, 3, &mut watcher);
            let view = View::new(&deal, 2);
            let fresh = watcher.clone();
            let worlds = Worlds::new(view);
            let mut rng = ChaCha8Rng::seed_from_u64(6);
            for _ in 0..40 {
                let world = worlds.sample(&mut rng);
                let kept = watcher.log_likelihood(&view, &world);
                let first = fresh.clone().log_likelihood(&view, &world);
                assert!(kept < 0.0, "the others' plays weigh something");
                assert_eq!(kept.to_bits(), first.to_bits());
            }
            assert!(
                !watcher.model.readings.by_hand.is_empty(),
                "the learned model's readings are kept"
            );
        }
    }

    #[test]
    fn the_search_model_reads_each_seats_starting_hand_once_a_deal() {
        // Mini Misère watched by seat 2 for two tricks: weighing a world again reads every
        // seat's plays from the readings (the model search, whose random numbers run on, would
        // find other visit shares), and a view of another deal forgets them.
        let mut watcher = Inference::new().with_search(40, READ_SHARPNESS);
        let deal = watched_by_seat_2(8, 2, &mut watcher);
        let view = View::new(&deal, 2);
        let rules = Preset::MiniMisere4.ruleset();
        let worlds = Worlds::new(view);
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let world = worlds.sample(&mut rng);
        let first = watcher.log_likelihood(&view, &world);
        assert!(first < 0.0, "the others' plays weigh something");
        let read = watcher.model.readings.by_hand.len();
        assert_eq!(read, 3, "one starting hand for each other seat");
        let mut searched_afresh = watcher.clone();
        searched_afresh.model.readings.by_hand.clear();
        let again = searched_afresh.log_likelihood(&view, &world);
        assert_ne!(
            again.to_bits(),
            first.to_bits(),
            "searched again, read otherwise"
        );
        assert_eq!(
            watcher.log_likelihood(&view, &world).to_bits(),
            first.to_bits()
        );
        assert_eq!(watcher.model.readings.by_hand.len(), read);

        let other = Deal::random(rules, 1, &mut ChaCha8Rng::seed_from_u64(10));
        watcher.observe(&View::new(&other, other.to_act()));
        assert!(watcher.model.readings.by_hand.is_empty());
    }

    #[test]
    fn tempering_keeps_the_order_of_the_worlds_and_lets_a_share_of_them_count() {
        let effective = |w: &[f64]| {
            let sum: f64 = w.iter().sum();
            sum * sum / w.iter().map(|x| x * x).sum::<f64>()
        };
        // One world far likelier than 99 others: barely more than one counts.
        let lls: Vec<f64> = (0..100)
            .map(|i| {
                if i == 0 {
                    0.0
                } else {
                    -20.0 - f64::from(i) / 10.0
                }
            })
            .collect();
        let plain = tempered_weights(&lls, 0.0);
        assert!(effective(&plain) < 1.01);
        let tempered = tempered_weights(&lls, 0.25);
        assert!(
            (effective(&tempered) - 25.0).abs() < 0.01,
            "{}",
            effective(&tempered)
        );
        assert_eq!(tempered[0], 1.0);
        assert!(
            tempered.windows(2).all(|w| w[0] > w[1]),
            "the order is kept"
        );
        // Weights already spread enough are left as they are.
        let close: Vec<f64> = (0..100).map(|i| -f64::from(i) / 100.0).collect();
        let weights = tempered_weights(&close, 0.25);
        for (w, l) in weights.iter().zip(&close) {
            assert_eq!(w.to_bits(), l.exp().to_bits());
        }
    }

    #[test]
    fn an_adaptive_pool_trusts_the_seats_that_play_by_the_rule_of_thumb() {
        // Seats 0 and 1 play by the rule of thumb, seat 2 at random; seat 3 watches.
        let rules = Preset::MolotowJass.ruleset();
        let mut trusted = 0;
        for seed in 0..6 {
            let mut deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(seed));
            let mut bots: Vec<_> = ["heuristic", "heuristic", "random", "heuristic"]
                .iter()
                .enumerate()
                .map(|(s, b)| make_bot(b, seed * 4 + s as u64).expect("bot"))
                .collect();
            let mut inference = Inference::adaptive();
            while deal.tricks_completed() < 5 {
                let seat = deal.to_act();
                if seat == 3 {
                    inference.observe(&View::new(&deal, 3));
                }
                crate::step(&mut deal, bots[seat].as_mut()).expect("legal");
            }
            while deal.to_act() != 3 {
                let seat = deal.to_act();
                crate::step(&mut deal, bots[seat].as_mut()).expect("legal");
            }
            let view = View::new(&deal, 3);
            inference.observe(&view);
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let pool = inference
                .pool(&view, 300, &mut rng, || true)
                .expect("choices");
            let noises = pool.noises();
            assert!(noises[..4].iter().all(|e| NOISES.contains(e)), "{noises:?}");
            trusted += usize::from(noises[0] < noises[2] && noises[1] < noises[2]);
        }
        assert!(
            trusted >= 5,
            "the rule of thumb trusted over random play in {trusted} of 6"
        );
    }

    #[test]
    fn an_observer_that_missed_tricks_weighs_nothing() {
        let rules = Preset::Mura4.ruleset();
        let mut deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(4));
        let mut bots: Vec<_> = (0..4)
            .map(|s| make_bot("heuristic", s).expect("bot"))
            .collect();
        for _ in 0..9 {
            let seat = deal.to_act();
            crate::step(&mut deal, bots[seat].as_mut()).expect("legal");
        }
        let mut inference = Inference::new();
        let view = View::new(&deal, deal.to_act());
        inference.observe(&view);
        assert!(!inference.observer().is_complete());
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        assert!(inference.pool(&view, 20, &mut rng, || true).is_none());
        assert_eq!(inference.log_likelihood(&view, &deal), 0.0);
    }

    #[test]
    fn the_whole_history_replays_in_every_preset() {
        // Every seat watches whole deals of heuristic play; at each of its turns the replay
        // from the true hands goes through every logged action, and a world that contradicts
        // the plays of the rule of thumb is less likely than the true deal.
        for (p, preset) in Preset::ALL.into_iter().enumerate() {
            let rules = preset.ruleset();
            for seed in 0..3u64 {
                let mut deal = Deal::random(
                    rules,
                    p % 3,
                    &mut ChaCha8Rng::seed_from_u64(seed * 17 + p as u64),
                );
                let n = deal.players();
                let mut bots: Vec<_> = (0..n)
                    .map(|s| make_bot("heuristic", s as u64).expect("bot"))
                    .collect();
                // The rule of thumb as the model for even seeds, the learned policy for odd.
                let model = || {
                    if seed % 2 == 0 {
                        Inference::new()
                    } else {
                        Inference::new().with_policy()
                    }
                };
                let mut watchers: Vec<Inference> = (0..n).map(|_| model()).collect();
                while !deal.is_over() {
                    let seat = deal.to_act();
                    let view = View::new(&deal, seat);
                    let watcher = &mut watchers[seat];
                    watcher.observe(&view);
                    assert!(watcher.observer().is_complete(), "{preset:?}");
                    let (ll, whole) = watcher.replay(&view, &deal);
                    assert!(whole, "{preset:?} seed {seed}: the replay stopped");
                    let ll = ll.fixed();
                    assert!(ll.is_finite() && ll <= 0.0);
                    let action = crate::step(&mut deal, bots[seat].as_mut()).expect("legal");
                    watchers[seat].note_own(action);
                }
            }
        }
    }
}
