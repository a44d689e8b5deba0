//! An exact perfect-information solver: every hand known, the seat to act searches the rest of
//! the deal.
//!
//! The games have three to five seats and scores that are not zero-sum, so the search is
//! *paranoid*: one seat, the root, maximises its own final deal reward
//! ([`deal_rewards`]) and every other seat minimises it. That turns the deal into a two-player
//! zero-sum game whose value is a guaranteed result for the root: what it scores if the others
//! gang up on it. The value is exact for that game; no evaluation function is involved.
//!
//! The search is fail-soft alpha-beta over [`Deal`]s (the engine's own state machine, so the
//! rules are exactly the referee's), driven by MTD(f): a sequence of null-window tests
//! descending from the upper bound ("can the root reach at least `v`?"), each answered with a
//! bound that becomes the next `v`, until the lower and upper bounds meet. With:
//!
//! - **A transposition table** keyed at trick boundaries by everything the rest of the deal
//!   and the root's reward can depend on: every seat's remaining hand, the leader, the trump,
//!   the Lot (declarers, failed declarers, whether it may still be declared) and the tallies
//!   the root's reward reads. For the trick table (Mini Misère) that is the root's tricks, for
//!   Mura the root's tricks and counting points, for the Jass games every seat's tricks and
//!   card points and, while no trump is set, who captured each Jack, Nine and Eight (whose
//!   value depends on the trump still to come). Entries hold a lower and an upper bound, so a
//!   result found with any window is reused with any other. Where only the order of the cards
//!   matters (no card points, no trump: Mini Misère) the hands are keyed by relative rank, so
//!   positions that differ only in which cards are gone share an entry; the 2 that wins when
//!   led and the joker keep their identity.
//! - **Score bounds** per node from the tallies so far (e.g. the trick-table rows still
//!   reachable with the remaining tricks, a Mura seat that can no longer reach its exemption,
//!   or a Lot declarer sure from the hands alone to win every trick or to lose one), which cut
//!   whole subtrees when they fall outside the window.
//! - **Rank-equivalent card pruning** as double-dummy solvers do: two cards of one suit in the
//!   hand to act, with no card between them (in every order the suit can still be ranked in:
//!   the plain order, and the trump order while the suit is or may become trump) outside that
//!   hand and not yet gone in a completed trick, win and lose exactly the same tricks; when they
//!   are also worth the same under every scoring the suit can still have, only one needs
//!   searching. Never equivalent to anything: the joker, a low card that wins when led (Mini
//!   Misère's 2), Mura's ace (it scores differently when it wins its own trick), and Jass cards
//!   whose points differ (in a suit that may become trump, the Jack and Nine; in a deal that
//!   may end without trump, the Eight).
//! - **Move ordering**: the best lead stored in the table first, then a history heuristic,
//!   then the card's strength in the trick when the root's aim is plain (high cards first when
//!   it needs tricks, low ones when it must shed them). Forced moves and the last trick are
//!   played straight through.
//! - **Plain endings played out directly**, as double-dummy solvers do with their last tricks:
//!   in a no-trump, no-joker, must-follow deal scored by the trick table alone (Mini Misère),
//!   once at most three tricks are left and no Lot is in play, alpha-beta runs on the bare hands
//!   instead of whole deals: no copies, no table, equivalent cards searched once, each suit's
//!   low cards first, each card's strength the rules' own. Its cut-offs feed the history
//!   heuristic, which orders the earlier tricks (without them the earlier tricks take about
//!   twice the positions).
//!
//! [`Solver::try_action_values`] bounds the work (a number of positions, so results do not
//! depend on the machine) for callers that must answer in time, such as [`crate::pimc`].
//!
//! `lot`, `pass`, `call:X`, `joker:win` and `joker:lose` are searched like any other action.
//!
//! The search is here; its parts have modules of their own: `transposition` (the keys, their
//! normalisation by relative rank, the entries and the hasher), `bounds` (the score bounds and
//! the Lot plain from the hands), `equivalence` (rank-equivalent cards) and `ending` (the
//! plain endings).
//!
//! ```
//! use torite_bots::solver::Solver;
//! use torite_core::{Deal, Preset};
//! use rand_chacha::{ChaCha8Rng, rand_core::SeedableRng};
//! let deal = Deal::random(Preset::MiniMisere4.ruleset(), 0, &mut ChaCha8Rng::seed_from_u64(3));
//! let mut solver = Solver::new();
//! let (action, value) = solver.best_action(&deal);
//! assert!(deal.is_legal(action));
//! assert_eq!(value, solver.solve(&deal, deal.to_act()));
//! ```

use std::collections::HashMap;
use std::hash::BuildHasherDefault;

use torite_core::{
    Action, ActionSet, Card, CardPoints, CardSet, Deal, FollowRule, JokerRule, MAX_SEATS, Phase,
    Rank, Ranking, Ruleset, Scoring, Seat, SeatSet, Suit, Trump, TrumpRule,
};

use crate::reward::deal_rewards;

mod bounds;
mod ending;
mod equivalence;
mod transposition;

pub mod maxn;

use ending::PlainRules;
use equivalence::Equivalence;
pub(crate) use equivalence::representatives;
use transposition::{Entry, FxHasher, Key, Normaliser};

/// The default bound on the number of transposition-table entries; the table is cleared when
/// it would grow past it (about 100 bytes an entry).
pub const DEFAULT_TT_ENTRIES: usize = 1 << 19;

/// [`Solver::direction`] when another seat declared the Lot and the root wants it to fail:
/// the declarer and the root play high, the others duck.
const LOT_OPPOSED: i8 = 2;

/// Slots of the history table: 64 card indices, then `lot`, `pass`, four calls and the two
/// joker sayings.
const HISTORY_SLOTS: usize = 72;

/// The exact paranoid solver described in the module documentation.
///
/// A solver keeps its transposition table between calls (entries stay valid: the key holds the
/// whole position and the root seat, and the table is emptied when the rules change), so
/// solving many related positions is cheaper; call [`Solver::clear`] to free it.
#[derive(Clone, Debug)]
pub struct Solver {
    tt: HashMap<Key, Entry, BuildHasherDefault<FxHasher>>,
    history: [[u32; HISTORY_SLOTS]; MAX_SEATS],
    root: Seat,
    /// The rules the table's entries belong to.
    rules: Option<Ruleset>,
    /// Those rules' bounds on a deal's score ([`Ruleset::score_bounds`]), as rewards.
    score_bounds: (f64, f64),
    /// How those rules let the table's keys be normalised.
    normaliser: Option<Normaliser>,
    /// What playing the last tricks out directly needs of those rules, when they allow it.
    plain: Option<PlainRules>,
    nodes: u64,
    max_entries: usize,
    /// The node count at which the current limited search gives up.
    stop_at: u64,
    /// Whether the current limited search gave up.
    aborted: bool,
}

impl Default for Solver {
    fn default() -> Solver {
        Solver::new()
    }
}

/// What a position inside a trick takes over from the one before it: the score bounds (they
/// change only when a trick completes, or with a Lot declared in the first), and the root's
/// aim ([`Solver::direction`]) for the window's `beta`.
#[derive(Clone, Copy, Debug)]
struct Inherited {
    bounds: (f64, f64),
    beta: f64,
    dir: i8,
}

/// A fixed-capacity list of actions (no allocation per node).
#[derive(Clone, Copy)]
struct Moves {
    list: [Action; 20],
    len: usize,
}

impl Moves {
    fn new() -> Moves {
        Moves {
            list: [Action::Pass; 20],
            len: 0,
        }
    }

    fn as_slice(&self) -> &[Action] {
        &self.list[..self.len]
    }
}

impl Solver {
    /// A solver with an empty table of at most [`DEFAULT_TT_ENTRIES`] entries.
    #[must_use]
    pub fn new() -> Solver {
        Solver::with_capacity(DEFAULT_TT_ENTRIES)
    }

    /// A solver whose table is cleared whenever it would exceed `max_entries` entries.
    #[must_use]
    pub fn with_capacity(max_entries: usize) -> Solver {
        Solver {
            tt: HashMap::with_capacity_and_hasher(
                max_entries.clamp(1, 1 << 12),
                BuildHasherDefault::default(),
            ),
            history: [[0; HISTORY_SLOTS]; MAX_SEATS],
            root: 0,
            rules: None,
            normaliser: None,
            plain: None,
            score_bounds: (f64::NEG_INFINITY, f64::INFINITY),
            nodes: 0,
            max_entries: max_entries.max(1),
            stop_at: u64::MAX,
            aborted: false,
        }
    }

    /// Empties the transposition table and the move-ordering history.
    pub fn clear(&mut self) {
        self.tt.clear();
        self.history = [[0; HISTORY_SLOTS]; MAX_SEATS];
    }

    /// Positions visited since the solver was made (a measure of work). A plain ending played
    /// out directly counts as the one position it starts from: its lines are few and cheap.
    #[must_use]
    pub const fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Prepares a search for `root`: the table's keys do not hold the rules, so it is emptied
    /// when the rules change.
    fn start(&mut self, deal: &Deal, root: Seat) {
        if self.rules != Some(*deal.rules()) {
            self.tt.clear();
            self.rules = Some(*deal.rules());
            self.normaliser = Normaliser::new(deal.rules());
            self.plain = PlainRules::new(deal.rules());
            let (low, high) = deal.rules().score_bounds();
            self.score_bounds = (f64::from(low), f64::from(high));
        }
        self.root = root;
    }

    /// The number of transposition-table entries held.
    #[must_use]
    pub fn table_len(&self) -> usize {
        self.tt.len()
    }

    /// The exact value of `deal` for `root`: the final deal reward ([`deal_rewards`]) `root`
    /// is sure of when every other seat plays against it and all hands are known. `root` need
    /// not be the seat to act. A finished deal's value is its reward.
    pub fn solve(&mut self, deal: &Deal, root: Seat) -> f64 {
        self.start(deal, root);
        self.exact(deal)
    }

    /// The exact value by a sequence of null-window tests (MTD(f), descending from the upper
    /// bound): each test asks whether the value reaches `beta`, with the window
    /// `(next_down(beta), beta)` that no value lies strictly inside, and answers with a bound.
    fn exact(&mut self, deal: &Deal) -> f64 {
        if deal.is_over() {
            return deal_rewards(deal)[self.root];
        }
        let (mut lower, mut upper) = self.bounds(deal);
        while lower < upper && !self.aborted {
            let beta = upper;
            let g = self.search(deal, beta.next_down(), beta);
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
        }
        lower
    }

    /// The best action of the seat to act and its exact value for that seat. Among actions of
    /// equal value, the first searched is chosen.
    ///
    /// # Panics
    ///
    /// If the deal is over.
    pub fn best_action(&mut self, deal: &Deal) -> (Action, f64) {
        assert!(!deal.is_over(), "best_action on a finished deal");
        self.start(deal, deal.to_act());
        let moves = self.moves(deal, deal.legal_actions(), None, 0);
        let first = moves.list[0];
        let mut best = (first, self.child_value(deal, first));
        for &action in &moves.as_slice()[1..] {
            let mut child = deal.clone();
            child.apply_unchecked(action);
            // A null-window test: is this action better than the best so far? Only then is its
            // exact value needed.
            let v = self.search(&child, best.1, best.1.next_up());
            if v > best.1 {
                best = (action, self.exact(&child));
            }
        }
        best
    }

    /// The exact value, for the seat to act, of each of its legal actions, in the order of
    /// [`torite_core::ActionSet::iter`]. Equivalent cards share one search.
    #[must_use]
    pub fn action_values(&mut self, deal: &Deal) -> Vec<(Action, f64)> {
        let legal = deal.legal_actions();
        self.start(deal, deal.to_act());
        let eq = Equivalence::new(deal);
        let mut rep_values: Vec<(Card, f64)> = Vec::with_capacity(legal.cards.len());
        let mut out = Vec::with_capacity(legal.len());
        for action in legal.iter() {
            let value = match action {
                Action::Play(card) => {
                    let rep = rep_values
                        .iter()
                        .find(|(r, _)| *r == card || eq.equivalent(*r, card))
                        .map(|(_, v)| *v);
                    match rep {
                        Some(v) => v,
                        None => {
                            let v = self.child_value(deal, action);
                            rep_values.push((card, v));
                            v
                        }
                    }
                }
                _ => self.child_value(deal, action),
            };
            out.push((action, value));
        }
        out
    }

    /// [`Solver::action_values`] within a budget of `max_nodes` positions: `None` if the
    /// search would need more (the table keeps only what was fully solved, so it stays exact).
    pub fn try_action_values(&mut self, deal: &Deal, max_nodes: u64) -> Option<Vec<(Action, f64)>> {
        self.limited(max_nodes, |solver| solver.action_values(deal))
    }

    /// [`Solver::best_action`] within a budget of `max_nodes` positions: `None` if the search
    /// would need more.
    ///
    /// # Panics
    ///
    /// If the deal is over.
    pub fn try_best_action(&mut self, deal: &Deal, max_nodes: u64) -> Option<(Action, f64)> {
        self.limited(max_nodes, |solver| solver.best_action(deal))
    }

    fn limited<T>(&mut self, max_nodes: u64, f: impl FnOnce(&mut Solver) -> T) -> Option<T> {
        self.stop_at = self.nodes.saturating_add(max_nodes);
        self.aborted = false;
        let out = f(self);
        self.stop_at = u64::MAX;
        if std::mem::take(&mut self.aborted) {
            None
        } else {
            Some(out)
        }
    }

    fn child_value(&mut self, deal: &Deal, action: Action) -> f64 {
        let mut child = deal.clone();
        child.apply_unchecked(action);
        self.exact(&child)
    }

    /// Fail-soft alpha-beta: the exact value if it lies strictly inside `(alpha, beta)`, an upper
    /// bound at or below `alpha`, a lower bound at or above `beta`.
    fn search(&mut self, deal: &Deal, alpha: f64, beta: f64) -> f64 {
        self.node(deal.clone(), alpha, beta, None)
    }

    /// [`Solver::search`] of a position it owns, with the score bounds of the trick's first
    /// position when they are known (they change only when a trick completes, or with a Lot
    /// declared in the first). Forced moves are played in place, each counted as a position.
    fn node(
        &mut self,
        mut deal: Deal,
        mut alpha: f64,
        mut beta: f64,
        mut inherited: Option<Inherited>,
    ) -> f64 {
        let (legal, boundary, bounds, known_dir) = loop {
            self.nodes += 1;
            if self.nodes >= self.stop_at {
                self.aborted = true;
            }
            if self.aborted {
                return 0.0;
            }
            if deal.is_over() {
                return self.reward(&deal);
            }
            let legal = deal.legal_actions();
            let boundary = deal.phase() == Phase::Play && deal.current_trick().is_empty();
            if boundary && legal.len() == 1 && deal.tricks_completed() + 1 == deal.rules().tricks()
            {
                return self.play_out(deal, alpha, beta);
            }

            let (bounds, known_dir) = match inherited {
                Some(i) if !boundary && deal.tricks_completed() > 0 => {
                    (i.bounds, (i.beta == beta).then_some(i.dir))
                }
                _ => (self.bounds(&deal), None),
            };
            if legal.len() != 1 {
                break (legal, boundary, bounds, known_dir);
            }
            // Forced: no choice to search, store or order.
            let action = match legal.cards.first() {
                Some(card) => Action::Play(card),
                None => legal.nth(0).unwrap_or(Action::Pass),
            };
            let dir = known_dir.unwrap_or_else(|| self.direction(&deal, beta));
            deal.apply_unchecked(action);
            inherited = Some(Inherited { bounds, beta, dir });
        };
        let deal = &deal;
        let (mut lo, mut hi) = bounds;
        let mut key = None;
        let mut tt_move = None;
        if boundary {
            let k = self.key(deal);
            if let Some(e) = self.tt.get(&k) {
                lo = lo.max(e.lower);
                hi = hi.min(e.upper);
                tt_move = e.best;
            }
            key = Some(k);
        }
        if lo >= hi || lo >= beta {
            return lo;
        }
        if hi <= alpha {
            return hi;
        }
        alpha = alpha.max(lo);
        beta = beta.min(hi);
        let (alpha0, beta0) = (alpha, beta);
        if let Some(k) = key
            && let Some(v) = self.plain_ending(deal, alpha, beta)
        {
            self.store(k, (lo, hi), (alpha0, beta0), v, None);
            return v;
        }
        let seat = deal.to_act();
        let maximising = seat == self.root;
        let dir = known_dir.unwrap_or_else(|| self.direction(deal, beta));
        let moves = self.moves(deal, legal, tt_move, dir);
        let mut best = if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let mut best_move = None;
        for &action in moves.as_slice() {
            let mut child = deal.clone();
            child.apply_unchecked(action);
            let inherit = Inherited {
                bounds,
                beta,
                dir: if beta == beta0 {
                    dir
                } else {
                    self.direction(deal, beta)
                },
            };
            let v = self.node(child, alpha, beta, Some(inherit));
            if self.aborted {
                return 0.0; // nothing stored from an unfinished search
            }
            if maximising {
                if v > best {
                    best = v;
                    best_move = Some(action);
                    alpha = alpha.max(v);
                }
            } else if v < best {
                best = v;
                best_move = Some(action);
                beta = beta.min(v);
            }
            if alpha >= beta {
                self.history[seat][slot(action)] += 1;
                break;
            }
        }
        if let Some(k) = key {
            self.store(k, (lo, hi), (alpha0, beta0), best, best_move);
        }
        best
    }

    /// The root's reward in a finished deal ([`deal_rewards`]; the plain trick table is read
    /// directly).
    fn reward(&self, deal: &Deal) -> f64 {
        match deal.rules().scoring {
            Scoring::TrickTable { points } if deal.lot().declarers == 0 => {
                table_value(&points, usize::from(deal.tricks_won()[self.root]))
            }
            _ => deal_rewards(deal)[self.root],
        }
    }

    /// Plays out the rest of a deal while every action is forced (the last trick), searching
    /// from the first real choice if one comes (a suit to call).
    fn play_out(&mut self, mut deal: Deal, alpha: f64, beta: f64) -> f64 {
        loop {
            if deal.is_over() {
                return self.reward(&deal);
            }
            let legal = deal.legal_actions();
            match (legal.cards.first(), legal.len()) {
                (Some(card), 1) => deal.apply_unchecked(Action::Play(card)),
                _ if legal.len() == 1 => deal.apply_unchecked(legal.nth(0).unwrap_or(Action::Pass)),
                _ => return self.search(&deal, alpha, beta),
            }
        }
    }

    /// The actions to search, best first: equivalent cards reduced to one.
    fn moves(&self, deal: &Deal, legal: ActionSet, tt_move: Option<Action>, dir: i8) -> Moves {
        // Ordered by history, then, when the root's aim is known, by the card's rank in its
        // suit's order (everyone high when the root needs tricks, low when it must shed them);
        // the stored best move first. Scores are built in one pass and insertion-sorted.
        let history = &self.history[deal.to_act()];
        let rules = deal.rules();
        let tt_move = tt_move.filter(|m| legal.contains(*m));
        let dir = if dir == LOT_OPPOSED {
            if deal.lot().in_play().with(self.root).contains(deal.to_act()) {
                1
            } else {
                -1
            }
        } else {
            dir
        };
        let leading = deal.current_trick().is_empty();
        let mut moves = Moves::new();
        let mut scores = [0i64; 20];
        let mut add = |action: Action, rank: i64| {
            let score = if Some(action) == tt_move {
                i64::MAX
            } else {
                (i64::from(history[slot(action)]) << 8) + 64 + rank * i64::from(dir)
            };
            // Insertion: keep the list sorted, highest score first.
            let mut j = moves.len;
            while j > 0 && scores[j - 1] < score {
                scores[j] = scores[j - 1];
                moves.list[j] = moves.list[j - 1];
                j -= 1;
            }
            scores[j] = score;
            moves.list[j] = action;
            moves.len += 1;
        };
        let mut cards = representatives(deal, legal.cards);
        if let Some(Action::Play(card)) = tt_move {
            cards.insert(card);
        }
        let (led, trump) = (deal.led(), deal.trump());
        for card in cards {
            let rank = if dir == 0 {
                0
            } else {
                let led = if leading { card.suit() } else { led };
                i64::from(rules.strength(card, led, trump, leading))
            };
            add(Action::Play(card), rank);
        }
        if legal.lot {
            add(Action::Lot, 0);
        }
        if legal.pass {
            add(Action::Pass, 0);
        }
        if legal.calls != 0 {
            for suit in Suit::ALL {
                if legal.calls & (1 << suit.index()) != 0 {
                    add(Action::Call(suit), 0);
                }
            }
        }
        if legal.joker {
            add(Action::JokerWins, 0);
            add(Action::JokerLoses, 0);
        }
        moves
    }

    /// Whether the root, to reach `beta`, needs more tricks (1) or must lose the rest (-1);
    /// 0 when that is not clear.
    fn direction(&self, deal: &Deal, beta: f64) -> i8 {
        let rules = deal.rules();
        let root = self.root;
        let tricks = usize::from(deal.tricks_won()[root]);
        let remaining = rules.tricks() - deal.tricks_completed();
        match rules.scoring {
            Scoring::TrickTable { points } => {
                let lot = deal.lot();
                if !lot.declaring().is_empty() {
                    // A declarer must win every trick: it and whoever wants it to fail play
                    // high; whoever wants it to succeed ducks.
                    return if lot.in_play().contains(root) {
                        1
                    } else {
                        LOT_OPPOSED
                    };
                }
                let good = |k: usize| table_value(&points, k) >= beta;
                let now = good(tricks);
                let more = (tricks + 1..=tricks + remaining).any(good);
                match (now, more) {
                    (false, true) => 1,
                    (true, _) => -1,
                    _ => 0,
                }
            }
            Scoring::Mura { .. } => -1,
            _ => 0,
        }
    }
}

/// A trick table's score for `tricks` tricks (its last entry for more).
fn table_value(points: &[i8; 8], tricks: usize) -> f64 {
    f64::from(points[tricks.min(points.len() - 1)])
}

/// The rank of the low card that wins when led, if `rules` have one.
fn led_low_rank(rules: &Ruleset) -> Option<Rank> {
    rules.low_card.filter(|_| rules.led_low_wins)
}

/// The low cards that win when led (one a suit), if `rules` have them.
fn led_low_cards(rules: &Ruleset) -> CardSet {
    led_low_rank(rules).map_or(CardSet::EMPTY, |low| CardSet::of_ranks(1 << low.index()))
}

/// The history-table slot of an action.
fn slot(action: Action) -> usize {
    match action {
        Action::Play(card) => card.index() as usize,
        Action::Lot => 64,
        Action::Pass => 65,
        Action::Call(suit) => 66 + suit.index(),
        Action::JokerWins => 70,
        Action::JokerLoses => 71,
    }
}

#[cfg(test)]
mod tests;
