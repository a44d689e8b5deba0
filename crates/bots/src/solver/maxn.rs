//! Exact max^n: every seat maximises its own final deal reward, every hand known.
//!
//! Where the [`Solver`](super::Solver) is *paranoid* (one seat against all the others), this
//! search gives each seat its own aim, as the players at a table have: the seat to act takes
//! the action whose outcome is best for its own [`deal_rewards`], knowing that every later seat
//! will do the same. The value of a position is then one reward per seat, and it is exact: no
//! evaluation function, no sampling, no depth limit.
//!
//! # Ties
//!
//! max^n is not unique: when two actions give the seat to act the same reward, they may give
//! the others different ones, and which it takes changes what the earlier seats should do.
//! The rule here, applied at every position:
//!
//! 1. the highest reward for the seat to act;
//! 2. among those, the lowest total reward of the other seats: a seat that is indifferent does
//!    the others no favours (every seat is playing to win the game, so what it concedes to
//!    anyone else counts against it);
//! 3. among those, the first action in the engine's order ([`torite_core::ActionSet::iter`]:
//!    cards lowest first within a suit, suits in their order, then `lot`, `pass`, the calls
//!    and the joker sayings).
//!
//! The rule is a function of the position alone, so the values are well defined (independent
//! of the search order and of what the table held before) and every seat's choice is
//! reproducible.
//!
//! # Where it is exact, and how it is fast enough
//!
//! It searches the rules whose deal score reads the trick table alone, with no trump and no
//! card points: Mini Misère in all its presets ([`MaxN::handles`]). The Lot, the 1989 asking,
//! the suit call after a led joker and the three-player joker sayings are actions like any
//! other. What makes a whole deal solvable:
//!
//! - **A transposition table** at trick boundaries, keyed by every seat's remaining hand (by
//!   relative rank, as the paranoid solver's: positions that differ only in which cards are gone
//!   share an entry), the seat to lead, every seat's tricks so far and the Lot's state
//!   (declarers, failed declarers, whether a seat may still declare). Entries hold the exact
//!   reward of every seat, so one search serves every seat's decisions and every later
//!   decision of the deal; the table is kept between calls and emptied when it would grow past
//!   its bound ([`DEFAULT_ENTRIES`]) or the rules change.
//! - **Rank-equivalent cards searched once**: two cards of the hand to act with no live card
//!   between them win and lose the same tricks, so their subtrees give every seat the same
//!   rewards (the paranoid solver's equivalence, which holds for any scoring of the tricks).
//! - **Plain deals played on the bare hands**: once no Lot is in play or can still be declared,
//!   a deal without a joker (`mini-misere-4`, `-4-1989`, `-6`) is searched on its hands alone
//!   (no deal to copy, each card's strength the rules' own), with the same table and keys, as
//!   the paranoid solver plays its last tricks. That is most of every search: the 1989 deals
//!   are plain from their first lead, the current ones from their second trick.
//! - **Forced moves** played in place, without a table look-up.
//!
//! max^n has no alpha-beta: with more than two seats and scores that are not constant-sum, no
//! bound from one seat's result cuts another's subtree, so the search visits every
//! non-transposed, non-equivalent line.

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use torite_core::{Action, CardSet, Deal, MAX_SEATS, Phase, Ruleset, Scoring, Trump};

use super::ending::{PlainRules, PlainTrick, last_trick_winner, next_seat};
use super::equivalence::representatives;
use super::table_value;
use super::transposition::{FxHasher, Normaliser};
use crate::reward::deal_rewards;

/// One reward per seat (seats beyond the deal's players hold 0).
pub type Values = [f64; MAX_SEATS];

/// The default bound on the number of table entries (about 100 bytes an entry).
pub const DEFAULT_ENTRIES: usize = 1 << 19;

/// A table key: a trick boundary of a deal of the rules the table belongs to.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
struct Key {
    hands: [u64; MAX_SEATS],
    state: u64,
}

/// The exact max^n search described in the module documentation.
#[derive(Clone, Debug)]
pub struct MaxN {
    tt: HashMap<Key, [f32; MAX_SEATS], BuildHasherDefault<FxHasher>>,
    rules: Option<Ruleset>,
    normaliser: Option<Normaliser>,
    plain: Option<PlainRules>,
    max_entries: usize,
    nodes: u64,
}

impl Default for MaxN {
    fn default() -> MaxN {
        MaxN::new()
    }
}

impl MaxN {
    /// A search with an empty table of at most [`DEFAULT_ENTRIES`] entries.
    #[must_use]
    pub fn new() -> MaxN {
        MaxN::with_capacity(DEFAULT_ENTRIES)
    }

    /// A search whose table is emptied whenever it would exceed `max_entries` entries.
    #[must_use]
    pub fn with_capacity(max_entries: usize) -> MaxN {
        MaxN {
            tt: HashMap::with_capacity_and_hasher(
                max_entries.clamp(1, 1 << 12),
                BuildHasherDefault::default(),
            ),
            rules: None,
            normaliser: None,
            plain: None,
            max_entries: max_entries.max(1),
            nodes: 0,
        }
    }

    /// Whether the search handles `rules`: scored by the trick table alone, with no trump and
    /// no card points (every Mini Misère preset and its house rules).
    #[must_use]
    pub fn handles(rules: &Ruleset) -> bool {
        matches!(rules.scoring, Scoring::TrickTable { .. }) && Normaliser::new(rules).is_some()
    }

    /// Positions visited since the search was made (a measure of work).
    #[must_use]
    pub const fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The number of table entries held.
    #[must_use]
    pub fn table_len(&self) -> usize {
        self.tt.len()
    }

    /// Empties the table.
    pub fn clear(&mut self) {
        self.tt.clear();
    }

    fn start(&mut self, deal: &Deal) {
        assert!(
            MaxN::handles(deal.rules()),
            "max^n search of rules it does not handle"
        );
        if self.rules != Some(*deal.rules()) {
            self.tt.clear();
            self.rules = Some(*deal.rules());
            self.normaliser = Normaliser::new(deal.rules());
            self.plain = PlainRules::new(deal.rules());
        }
    }

    /// The max^n value of `deal`: every seat's final reward ([`deal_rewards`]) when each seat
    /// plays by the rule of the module documentation. A finished deal's value is its rewards.
    ///
    /// # Panics
    ///
    /// If the rules are not ones the search [handles](MaxN::handles).
    pub fn values(&mut self, deal: &Deal) -> Values {
        self.start(deal);
        self.value(deal.clone())
    }

    /// The max^n value of each legal action of the seat to act, one per class of equivalent
    /// cards (the first card of each class), in the engine's action order.
    ///
    /// # Panics
    ///
    /// If the deal is over, or its rules are not ones the search [handles](MaxN::handles).
    pub fn action_values(&mut self, deal: &Deal) -> Vec<(Action, Values)> {
        assert!(!deal.is_over(), "action_values on a finished deal");
        self.start(deal);
        candidates(deal)
            .map(|action| {
                let mut child = deal.clone();
                child.apply_unchecked(action);
                (action, self.value(child))
            })
            .collect()
    }

    /// The action the seat to act takes under the rule of the module documentation, and the
    /// value it leads to.
    ///
    /// # Panics
    ///
    /// As [`MaxN::action_values`].
    pub fn best_action(&mut self, deal: &Deal) -> (Action, Values) {
        let seat = deal.to_act();
        let n = deal.players();
        let mut best: Option<(Action, Values)> = None;
        for (action, v) in self.action_values(deal) {
            if best.is_none_or(|(_, b)| better(&v, &b, seat, n)) {
                best = Some((action, v));
            }
        }
        best.expect("a deal in progress has a legal action")
    }

    /// The value of a position the search owns; forced moves are played in place.
    fn value(&mut self, mut deal: Deal) -> Values {
        loop {
            self.nodes += 1;
            if deal.is_over() {
                return deal_rewards(&deal);
            }
            let legal = deal.legal_actions();
            if legal.len() != 1 {
                break;
            }
            let action = legal.iter().next().unwrap_or(Action::Pass);
            deal.apply_unchecked(action);
        }
        let boundary = deal.phase() == Phase::Play && deal.current_trick().is_empty();
        if boundary
            && deal.lot().declarers == 0
            && !deal.lot_open()
            && let Some(plain) = self.plain
        {
            return self.plain_rest(&deal, plain);
        }
        let key = boundary.then(|| self.key(&deal));
        if let Some(entry) = key.and_then(|k| self.tt.get(&k)) {
            return entry.map(f64::from);
        }
        let seat = deal.to_act();
        let n = deal.players();
        let mut best: Option<Values> = None;
        for action in candidates(&deal) {
            let mut child = deal.clone();
            child.apply_unchecked(action);
            let v = self.value(child);
            if best.is_none_or(|b| better(&v, &b, seat, n)) {
                best = Some(v);
            }
        }
        let best = best.expect("a position with a choice has actions");
        if let Some(k) = key {
            if self.tt.len() >= self.max_entries {
                self.tt.clear();
            }
            // Rewards are small whole numbers (or halves and thirds of them): exact in f32
            // to the precision the comparisons need.
            self.tt.insert(k, best.map(|x| x as f32));
        }
        best
    }

    /// The table key of a trick boundary.
    fn key(&self, deal: &Deal) -> Key {
        let n = deal.players();
        let mut hands = [0; MAX_SEATS];
        for (s, h) in hands.iter_mut().enumerate().take(n) {
            *h = deal.hand(s).bits();
        }
        if let Some(normaliser) = &self.normaliser {
            normaliser.apply(&mut hands[..n]);
        }
        let lot = deal.lot();
        let trump: u64 = match deal.trump() {
            Trump::None => 0,
            Trump::Suit(s) => 1 + s as u64,
            Trump::JokerOnly => 5,
        };
        let mut won = [0; MAX_SEATS];
        won[..n].copy_from_slice(deal.tricks_won());
        let state = state_word(deal.to_act() as u8, &won)
            | trump << 3
            | u64::from(lot.declarers) << 6
            | u64::from(lot.failed) << 12
            | u64::from(deal.may_declare_with_card()) << 18;
        Key { hands, state }
    }

    /// The value of a trick boundary from which the deal is plain (no Lot in play or still to
    /// be declared, rules accepted by [`PlainRules::new`]): played out on the bare hands, with
    /// the same table and keys as whole deals.
    fn plain_rest(&mut self, deal: &Deal, plain: PlainRules) -> Values {
        let n = deal.players();
        let mut hands = [CardSet::EMPTY; MAX_SEATS];
        let mut held = CardSet::EMPTY;
        for (seat, hand) in hands.iter_mut().enumerate().take(n) {
            *hand = deal.hand(seat);
            held |= *hand;
        }
        let mut won = [0; MAX_SEATS];
        won[..n].copy_from_slice(deal.tricks_won());
        let rules = *deal.rules();
        let left = (rules.tricks() - deal.tricks_completed()) as u8;
        let mut ending = Plain {
            search: self,
            rules: &rules,
            plain,
            players: n as u8,
            hands,
            held,
        };
        ending.trick(deal.to_act() as u8, left, won)
    }
}

/// The part of a key's state word that plain positions have too: the seat to lead and every
/// seat's tricks (the Lot's bits, the trump and the first-card declaration are 0 there).
fn state_word(leader: u8, won: &[u8; MAX_SEATS]) -> u64 {
    let mut state = u64::from(leader);
    for (s, t) in won.iter().enumerate() {
        state |= u64::from(*t & 0xf) << (20 + 4 * s);
    }
    state
}

/// The search of [`MaxN::plain_rest`].
struct Plain<'a> {
    search: &'a mut MaxN,
    rules: &'a Ruleset,
    plain: PlainRules,
    players: u8,
    hands: [CardSet; MAX_SEATS],
    /// Every card still held.
    held: CardSet,
}

impl Plain<'_> {
    /// Every seat's reward for the tricks it won in all.
    fn rewards(&self, won: &[u8; MAX_SEATS]) -> Values {
        let mut out = [0.0; MAX_SEATS];
        for s in 0..usize::from(self.players) {
            out[s] = table_value(&self.plain.points, usize::from(won[s]));
        }
        out
    }

    /// The value of the trick `leader` is to lead, with `left` tricks to play.
    fn trick(&mut self, leader: u8, left: u8, mut won: [u8; MAX_SEATS]) -> Values {
        self.search.nodes += 1;
        if left == 0 {
            return self.rewards(&won);
        }
        if left == 1 {
            // Every seat holds one card: nothing to choose.
            if let Some(winner) = last_trick_winner(self.rules, &self.hands, self.players, leader) {
                won[usize::from(winner)] += 1;
            }
            return self.rewards(&won);
        }
        let n = usize::from(self.players);
        let mut hands = [0; MAX_SEATS];
        for (h, hand) in hands.iter_mut().zip(&self.hands).take(n) {
            *h = hand.bits();
        }
        if let Some(normaliser) = &self.search.normaliser {
            normaliser.apply(&mut hands[..n]);
        }
        let key = Key {
            hands,
            state: state_word(leader, &won),
        };
        if let Some(entry) = self.search.tt.get(&key) {
            return entry.map(f64::from);
        }
        let v = self.card(PlainTrick::lead(leader, left, won));
        if self.search.tt.len() >= self.search.max_entries {
            self.search.tt.clear();
        }
        self.search.tt.insert(key, v.map(|x| x as f32));
        v
    }

    fn card(&mut self, t: PlainTrick<[u8; MAX_SEATS]>) -> Values {
        if t.played == self.players {
            let mut won = t.won;
            won[usize::from(t.winner)] += 1;
            return self.trick(t.winner, t.left - 1, won);
        }
        self.search.nodes += 1;
        let seat = usize::from(t.seat);
        let hand = self.hands[seat];
        let mut best: Option<Values> = None;
        let next_seat = next_seat(t.seat, self.players);
        let plain = self.plain;
        for card in plain.distinct(t.options(hand), t.others(self.held, hand)) {
            let next = t.after(self.rules, card, next_seat);
            self.hands[seat].remove(card);
            self.held.remove(card);
            let v = self.card(next);
            self.hands[seat].insert(card);
            self.held.insert(card);
            if best.is_none_or(|b| better(&v, &b, seat, usize::from(self.players))) {
                best = Some(v);
            }
        }
        best.expect("a seat in a trick holds a card")
    }
}

/// Whether `a` is better than `b` for `seat` under the tie rule of the module documentation
/// (strictly: the first of equals is kept).
fn better(a: &Values, b: &Values, seat: usize, n: usize) -> bool {
    if a[seat] != b[seat] {
        return a[seat] > b[seat];
    }
    let others = |v: &Values| (0..n).filter(|s| *s != seat).map(|s| v[s]).sum::<f64>();
    others(a) < others(b)
}

/// The actions to search, in the engine's order: one card of each class of equivalent cards.
fn candidates(deal: &Deal) -> impl Iterator<Item = Action> + use<> {
    let legal = deal.legal_actions();
    let cards = representatives(deal, legal.cards);
    let mut rest = legal;
    rest.cards = torite_core::CardSet::EMPTY;
    let rest: Vec<Action> = rest.iter().collect();
    cards.into_iter().map(Action::Play).chain(rest)
}

#[cfg(test)]
mod tests;
