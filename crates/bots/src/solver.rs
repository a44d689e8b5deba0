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
//! `lot`, `pass` and `call:X` are searched like any other action.
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
use std::hash::{BuildHasherDefault, Hash, Hasher};

use torite_core::{
    Action, ActionSet, Card, CardPoints, CardSet, Deal, FollowRule, JokerRule, MAX_SEATS, Phase,
    Rank, Ranking, Ruleset, Scoring, Seat, SeatSet, Suit, Trump, TrumpRule,
};

use crate::reward::deal_rewards;

/// The default bound on the number of transposition-table entries; the table is cleared when
/// it would grow past it (about 100 bytes an entry).
pub const DEFAULT_TT_ENTRIES: usize = 1 << 19;

/// [`Solver::direction`] when another seat declared the Lot and the root wants it to fail:
/// the declarer and the root play high, the others duck.
const LOT_OPPOSED: i8 = 2;

/// Slots of the history table: 64 card indices, then `lot`, `pass` and four calls.
const HISTORY_SLOTS: usize = 70;

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

/// A transposition-table key: the position at a trick boundary, as seen by the root's reward.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Key {
    hands: [u64; MAX_SEATS],
    state: u128,
}

impl Hash for Key {
    /// One word for the whole key (fewer hasher rounds than field by field).
    fn hash<H: Hasher>(&self, h: &mut H) {
        let mut x = (self.state as u64) ^ ((self.state >> 64) as u64).rotate_left(29);
        for hand in self.hands {
            x = (x.rotate_left(23) ^ hand).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        }
        h.write_u64(x ^ (x >> 31));
    }
}

/// Bounds on the exact value of a position, and the best lead found there.
#[derive(Clone, Copy, Debug)]
struct Entry {
    lower: f64,
    upper: f64,
    best: Option<Action>,
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

    /// The value for the root of a trick boundary with at most [`PLAIN_ENDING_TRICKS`] tricks
    /// left, in rules accepted by [`PlainRules::new`] and with no Lot in play, by fail-soft
    /// alpha-beta over the hands alone, as double-dummy solvers play out their last tricks:
    /// no deal to copy, no table, each card's strength the rules' own
    /// ([`Ruleset::strength`], so a led low card wins as it does in the deal). `None` when the
    /// position is not such an ending.
    fn plain_ending(&mut self, deal: &Deal, alpha: f64, beta: f64) -> Option<f64> {
        let plain = self.plain?;
        let left = deal.rules().tricks() - deal.tricks_completed();
        if left > PLAIN_ENDING_TRICKS
            || deal.tricks_completed() == 0
            || deal.phase() != Phase::Play
            || !deal.current_trick().is_empty()
            || !deal.lot().declaring().is_empty()
        {
            return None;
        }
        let rules = deal.rules();
        let n = deal.players();
        let mut hands = [CardSet::EMPTY; MAX_SEATS];
        let mut held = CardSet::EMPTY;
        for (seat, hand) in hands.iter_mut().enumerate().take(n) {
            *hand = deal.hand(seat);
            held |= *hand;
        }
        // Seats, tricks and counts below MAX_SEATS and 16 fit a byte.
        let byte = |x: usize| x as u8;
        let mut ending = PlainEnding {
            rules,
            plain,
            root: byte(self.root),
            players: byte(n),
            hands,
            held,
            history: &mut self.history,
        };
        let won = deal.tricks_won()[self.root];
        Some(ending.trick(byte(deal.to_act()), byte(left), won, alpha, beta))
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

    /// Records what a search of the window `(alpha, beta)` found at a position whose value was
    /// known to lie in `[lo, hi]`: its fail-soft result `value` and the best move.
    fn store(
        &mut self,
        key: Key,
        (lo, hi): (f64, f64),
        (alpha, beta): (f64, f64),
        value: f64,
        best: Option<Action>,
    ) {
        let (lower, upper) = if value <= alpha {
            (lo, value)
        } else if value >= beta {
            (value, hi)
        } else {
            (value, value)
        };
        if self.tt.len() >= self.max_entries {
            self.tt.clear();
        }
        self.tt
            .entry(key)
            .and_modify(|e| {
                e.lower = e.lower.max(lower);
                e.upper = e.upper.min(upper);
                if best.is_some() {
                    e.best = best;
                }
            })
            .or_insert(Entry { lower, upper, best });
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

    /// Lower and upper bounds on the root's reward from the tallies so far.
    fn bounds(&self, deal: &Deal) -> (f64, f64) {
        let rules = deal.rules();
        let root = self.root;
        let tricks = usize::from(deal.tricks_won()[root]);
        let remaining = rules.tricks() - deal.tricks_completed();
        match rules.scoring {
            Scoring::TrickTable { points } => {
                let row = |k: usize| table_value(&points, k);
                let table = (tricks..=tricks + remaining)
                    .map(row)
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                        (a.min(v), b.max(v))
                    });
                let Some(lot_rules) = rules.lot else {
                    return table;
                };
                let success = f64::from(lot_rules.success);
                let fail = f64::from(lot_rules.fail);
                let lot = deal.lot();
                if deal.lot_open() {
                    let (a, b) = table;
                    return (
                        a.min(0.0).min(success).min(fail),
                        b.max(0.0).max(success).max(fail),
                    );
                }
                let (declaring, failing) = (lot.declaring(), lot.failing());
                if declaring.is_empty() {
                    return table;
                }
                let declared = declaring.contains(root);
                let other = if declared {
                    if failing.contains(root) { 0.0 } else { success }
                } else {
                    fail
                };
                // The other value is 0; which one comes may already be settled.
                let settled = if success > 0.0 && fail > 0.0 {
                    lot_outcome(deal, root)
                } else {
                    None
                };
                match settled {
                    Some(true) if !declared => (0.0, 0.0),
                    Some(true) => (other, other),
                    Some(false) if !declared => (other, other),
                    Some(false) => (0.0, 0.0),
                    None => (other.min(0.0), other.max(0.0)),
                }
            }
            Scoring::Mura {
                threshold,
                bonus_at,
            } => {
                let points = deal.card_points(root);
                if bonus_at.is_some_and(|b| points >= u32::from(b)) {
                    return (1.0, 1.0);
                }
                let mut gone = CardSet::EMPTY;
                for s in 0..deal.players() {
                    gone |= deal.won(s);
                }
                let most = points + rules.most_points(rules.deck() - gone);
                let hi = if bonus_at.is_some_and(|b| most >= u32::from(b)) {
                    1.0
                } else if most >= u32::from(threshold) {
                    0.0
                } else {
                    -((tricks + 1) as f64)
                };
                let lo = if points >= u32::from(threshold) {
                    0.0
                } else {
                    -((tricks + remaining + 1) as f64)
                };
                (lo, hi)
            }
            // The other games' rewards are their scores: the rules' bounds, worked out once.
            _ => self.score_bounds,
        }
    }

    /// The table key of a trick boundary (Play phase, no card in the trick).
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
        let trump: u128 = match deal.trump() {
            Trump::None => 0,
            Trump::Suit(s) => 1 + s as u128,
            Trump::JokerOnly => 5,
        };
        let mut state: u128 = self.root as u128
            | (deal.to_act() as u128) << 3
            | trump << 6
            | u128::from(lot.declarers) << 9
            | u128::from(lot.failed) << 14
            | u128::from(deal.may_declare_with_card()) << 19;
        let tricks = deal.tricks_won();
        let root = self.root;
        match deal.rules().scoring {
            Scoring::TrickTable { .. } => state |= u128::from(tricks[root]) << 20,
            Scoring::Mura { .. } => {
                state |= u128::from(tricks[root]) << 20;
                state |= u128::from(deal.card_points(root)) << 24;
            }
            _ => {
                let mut shift = 20;
                for (s, t) in tricks.iter().enumerate() {
                    state |= u128::from(*t) << shift;
                    state |= u128::from(deal.card_points(s).min(255)) << (shift + 4);
                    shift += 12;
                }
                // Cards whose value waits for the trump: who captured each Jack, Nine, Eight.
                if deal.trump() == Trump::None
                    && matches!(deal.rules().card_points, CardPoints::Jass { .. })
                {
                    let waiting = deal.rules().deck()
                        & CardSet::of_ranks(
                            1 << Rank::JACK.index()
                                | 1 << Rank::NINE.index()
                                | 1 << Rank::EIGHT.index(),
                        );
                    for card in waiting {
                        let owner = (0..n).find(|s| deal.won(*s).contains(card));
                        state |= owner.map_or(0, |s| s as u128 + 1) << shift;
                        shift += 3;
                    }
                }
            }
        }
        Key { hands, state }
    }
}

/// Replaces the cards of a trick boundary's hands (together every live card) by their
/// relative ranks, in rules where only the order of cards matters: no card points, no trump,
/// and the natural order (the bit order). In each suit the live cards, strongest first, take
/// the strongest ranks of the deck; the low card that wins when led keeps its identity, and so
/// does the joker. Positions with the same relative ranks play out identically, so they share
/// one table entry.
#[derive(Clone, Copy, Debug)]
struct Normaliser {
    /// The deck's ranks that take part (all but the low card that wins when led).
    deck_lane: u16,
    /// The deck's ranks, strongest first: the k-th strongest live card becomes `top[k]`.
    top: [u8; 16],
}

impl Normaliser {
    /// The normaliser for `rules`, if only the order of their cards matters.
    fn new(rules: &Ruleset) -> Option<Normaliser> {
        if rules.card_points != CardPoints::None
            || rules.trump != TrumpRule::NoTrump
            || rules.ranking != Ranking::AceHigh
        {
            return None;
        }
        let special = led_low_rank(rules).map_or(0, |low| 1u16 << low.index());
        let deck_lane = rules.ranks & !special;
        let mut top = [0u8; 16];
        let mut rest = deck_lane;
        let mut k = 0;
        while rest != 0 {
            let r = 15 - rest.leading_zeros() as u8;
            rest &= !(1 << r);
            top[k] = r;
            k += 1;
        }
        Some(Normaliser { deck_lane, top })
    }

    /// Normalises `sets`, the hands of a trick boundary.
    fn apply(&self, sets: &mut [u64]) {
        let deck_lane = self.deck_lane;
        let live: u64 = sets.iter().fold(0, |m, h| m | h);
        for suit in 0..4 {
            let shift = 16 * suit;
            let lane = ((live >> shift) as u16) & deck_lane;
            if lane == 0 {
                continue;
            }
            // Nothing to do when no deck rank above the lowest live one is gone.
            let lowest = lane & lane.wrapping_neg();
            if deck_lane & !lane & !(lowest - 1) == 0 {
                continue;
            }
            for h in sets.iter_mut() {
                let mut bits = ((*h >> shift) as u16) & deck_lane;
                if bits == 0 {
                    continue;
                }
                let mut out = 0u16;
                while bits != 0 {
                    let f = bits.trailing_zeros();
                    bits &= bits - 1;
                    // Its place among the live cards, from the strongest.
                    let above = (u32::from(lane) >> (f + 1)).count_ones() as usize;
                    out |= 1 << self.top[above];
                }
                *h = (*h & !(u64::from(deck_lane) << shift)) | u64::from(out) << shift;
            }
        }
    }
}

/// The most tricks left at which [`Solver::plain_ending`] plays a deal out directly.
const PLAIN_ENDING_TRICKS: usize = 3;

/// What [`Solver::plain_ending`] needs of rules simple enough for it: no trump, no joker, no
/// card points, every seat following suit when it can, and a score read from the trick table
/// alone.
#[derive(Clone, Copy, Debug)]
struct PlainRules {
    /// The trick table.
    points: [i8; 8],
    /// Whether the plain order is the natural (bit) order.
    natural: bool,
    /// The low cards that win when led (never equivalent to another).
    special: CardSet,
}

impl PlainRules {
    fn new(rules: &Ruleset) -> Option<PlainRules> {
        let Scoring::TrickTable { points } = rules.scoring else {
            return None;
        };
        (rules.trump == TrumpRule::NoTrump
            && rules.follow == FollowRule::MustFollow
            && rules.joker.is_none()
            && matches!(rules.card_points, CardPoints::None))
        .then(|| PlainRules {
            points,
            natural: rules.ranking == Ranking::AceHigh,
            special: led_low_cards(rules),
        })
    }
}

/// The search state of [`Solver::plain_ending`].
struct PlainEnding<'a> {
    rules: &'a Ruleset,
    plain: PlainRules,
    root: u8,
    players: u8,
    hands: [CardSet; MAX_SEATS],
    /// Every card still held.
    held: CardSet,
    /// The solver's move-ordering history, which the cut-offs here feed.
    history: &'a mut [[u32; HISTORY_SLOTS]; MAX_SEATS],
}

/// A trick in progress in a [`PlainEnding`].
#[derive(Clone, Copy)]
struct PlainTrick {
    /// The seat to play.
    seat: u8,
    /// Cards played to the trick.
    played: u8,
    led: Option<Suit>,
    /// The winning card so far, its strength and its seat (meaningless before the lead).
    winning: Card,
    best: u8,
    winner: u8,
    /// Tricks left, this one included.
    left: u8,
    /// The root's tricks so far.
    won: u8,
}

impl PlainEnding<'_> {
    /// The value of the trick `leader` is to lead, with `left` tricks to play and `won` taken by
    /// the root, by fail-soft alpha-beta.
    fn trick(&mut self, leader: u8, left: u8, won: u8, alpha: f64, beta: f64) -> f64 {
        let start = PlainTrick {
            seat: leader,
            played: 0,
            led: None,
            winning: Card::JOKER,
            best: 0,
            winner: leader,
            left,
            won,
        };
        self.card(start, alpha, beta)
    }

    /// The root's reward for `won` tricks in all.
    fn value(&self, won: u8) -> f64 {
        table_value(&self.plain.points, usize::from(won))
    }

    /// The seat after `seat`.
    fn next(&self, seat: u8) -> u8 {
        if seat + 1 == self.players {
            0
        } else {
            seat + 1
        }
    }

    /// The value of the last trick, every seat holding one card, `leader` to lead.
    fn last_trick(&self, leader: u8, won: u8) -> f64 {
        let Some(lead) = self.hands[usize::from(leader)].first() else {
            return self.value(won);
        };
        let led = lead.suit();
        let mut best = self.rules.strength(lead, led, Trump::None, true);
        let mut winner = leader;
        let mut seat = self.next(leader);
        while seat != leader {
            if let Some(card) = self.hands[usize::from(seat)].first() {
                let strength = self.rules.strength(card, led, Trump::None, false);
                if strength > best {
                    best = strength;
                    winner = seat;
                }
            }
            seat = self.next(seat);
        }
        self.value(won + u8::from(winner == self.root))
    }

    fn card(&mut self, t: PlainTrick, mut alpha: f64, mut beta: f64) -> f64 {
        if t.played == self.players {
            let won = t.won + u8::from(t.winner == self.root);
            return match t.left {
                2 => self.last_trick(t.winner, won),
                1 => self.value(won),
                _ => self.trick(t.winner, t.left - 1, won, alpha, beta),
            };
        }
        let seat = usize::from(t.seat);
        let hand = self.hands[seat];
        let options = match t.led {
            Some(led) if !hand.of_suit(led).is_empty() => hand.of_suit(led),
            _ => hand,
        };
        let leading = t.played == 0;
        let maximising = t.seat == self.root;
        let mut best = if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        // Cards of one suit with no card between them in another hand or on the trick's
        // winning card win and lose alike: the first of each run is searched.
        let mut others = self.held - hand;
        if !leading {
            others.insert(t.winning);
        }
        let mut previous: Option<Card> = None;
        for card in options {
            if let Some(p) = previous
                && self.plain.natural
                && !self.plain.special.contains(card)
                && !self.plain.special.contains(p)
                && p.suit() == card.suit()
                && others.bits() & ((1u64 << card.index()) - 1) & !((2u64 << p.index()) - 1) == 0
            {
                continue;
            }
            previous = Some(card);
            let led = if leading { card.suit() } else { t.led };
            let strength = self.rules.strength(card, led, Trump::None, leading);
            let next = if leading || strength > t.best {
                PlainTrick {
                    winning: card,
                    best: strength,
                    winner: t.seat,
                    ..t
                }
            } else {
                t
            };
            let next = PlainTrick {
                seat: self.next(t.seat),
                played: t.played + 1,
                led,
                ..next
            };
            self.hands[seat].remove(card);
            self.held.remove(card);
            let v = self.card(next, alpha, beta);
            self.hands[seat].insert(card);
            self.held.insert(card);
            if maximising {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                self.history[seat][card.index() as usize] += 1;
                break;
            }
        }
        best
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
    }
}

/// Whether the one declarer still in the Lot is sure to win every remaining trick (`Some(true)`)
/// or sure to lose one (`Some(false)`), from the hands alone, at a trick boundary after the
/// first trick of a no-trump must-follow game (Mini Misère). `None` when neither is plain.
///
/// The declarer has won every trick so far, so it leads every trick from now on and must lead
/// each of its cards in turn. It is sure to win all when each of its cards wins whenever led:
/// a low card or joker that wins when led, or a card above every card of its suit the others
/// hold. It is sure to lose one when a seat that wants it to fail (the root if the root did not
/// declare, any other seat if it did) holds the highest card left in a suit the declarer must
/// still lead a plain card of: that seat keeps its card (it discards others when void, and
/// follows with its lowest), and can only be made to give it up by following a led low card or
/// a led joker with a named suit while it is its last card of the suit, which more cards of
/// the suit than such leads prevent.
fn lot_outcome(deal: &Deal, root: Seat) -> Option<bool> {
    let rules = deal.rules();
    if rules.trump != TrumpRule::NoTrump
        || rules.follow != FollowRule::MustFollow
        || rules.ranking != Ranking::AceHigh
        || deal.tricks_completed() == 0
        || deal.phase() != Phase::Play
        || !deal.current_trick().is_empty()
    {
        return None;
    }
    let alive = deal.lot().in_play();
    let (1, Some(d)) = (alive.len(), alive.first()) else {
        return None;
    };
    let hand = deal.hand(d);
    let low = led_low_cards(rules);
    let led_joker_wins = matches!(
        rules.joker,
        Some(JokerRule::LeadWinsFreeFollow | JokerRule::LeadWinsNamesSuit)
    );
    let calls = rules.joker == Some(JokerRule::LeadWinsNamesSuit) && hand.contains(Card::JOKER);
    let mut others = CardSet::EMPTY;
    for s in (0..deal.players()).filter(|s| *s != d) {
        others |= deal.hand(s);
    }
    // The seats that want the declarer to fail.
    let opposed = if root == d {
        !SeatSet::single(d)
    } else {
        SeatSet::single(root)
    };
    let mut sure = true;
    for suit in Suit::ALL {
        let mine = hand.of_suit(suit);
        let plain = mine - low;
        let theirs = others.of_suit(suit);
        if plain.is_empty() {
            continue;
        }
        // The strongest card of the suit left, if another seat holds it (natural order: the
        // highest bit; the low card is the lowest bit and never the highest unless alone).
        let top = (plain | theirs).last();
        if let Some(top) = top
            && !plain.contains(top)
        {
            let holder = (0..deal.players()).find(|s| deal.hand(*s).contains(top));
            if let Some(o) = holder
                && opposed.contains(o)
            {
                let forcing = (mine & low).len() + usize::from(calls);
                if deal.hand(o).of_suit(suit).len() > forcing {
                    return Some(false);
                }
            }
        }
        let their_best = theirs.last();
        if plain.iter().any(|c| their_best.is_some_and(|t| t > c)) {
            sure = false;
        }
    }
    if hand.contains(Card::JOKER) && !led_joker_wins {
        sure = false;
    }
    sure.then_some(true)
}

/// One card of each class of equivalent cards among `cards` (all of the hand to act).
fn representatives(deal: &Deal, cards: CardSet) -> CardSet {
    if cards.len() <= 1 {
        return cards;
    }
    let mut eq = None;
    let mut keep = cards & CardSet::single(Card::JOKER);
    for suit in Suit::ALL {
        let lane = cards.of_suit(suit);
        if lane.len() <= 1 {
            keep |= lane;
            continue;
        }
        let eq = eq.get_or_insert_with(|| Equivalence::new(deal));
        if eq.natural(suit) {
            keep |= eq.natural_representatives(suit, lane);
            continue;
        }
        let mut kept = CardSet::EMPTY;
        for card in lane {
            if !kept.iter().any(|k| eq.equivalent(k, card)) {
                kept.insert(card);
            }
        }
        keep |= kept;
    }
    keep
}

/// What deciding card equivalence needs to know about a position (module documentation).
struct Equivalence<'a> {
    deal: &'a Deal,
    /// Per suit, as rank bits: the cards outside the hand to act that are not gone in a
    /// completed trick (the trick in progress counts as live).
    live: [u16; 4],
    /// The low cards that win when led (never equivalent to another card).
    special: CardSet,
}

impl Equivalence<'_> {
    fn new(deal: &Deal) -> Equivalence<'_> {
        let hand = deal.hand(deal.to_act());
        let mut trick = CardSet::EMPTY;
        for card in deal.current_trick() {
            trick.insert(*card);
        }
        let live = (deal.rules().deck() - deal.played() - hand) | trick;
        let lane = |suit: Suit| (live.of_suit(suit).bits() >> (16 * suit.index())) as u16;
        Equivalence {
            deal,
            live: Suit::ALL.map(lane),
            special: led_low_cards(deal.rules()),
        }
    }

    /// The orders `suit` can still be ranked in (module documentation).
    fn orders(&self, suit: Suit) -> [Option<Ranking>; 2] {
        let rules = self.deal.rules();
        let trump = self.deal.trump();
        let is_trump = trump == Trump::Suit(suit);
        let may_become_trump = trump == Trump::None && rules.trump == TrumpRule::FirstOffSuit;
        [
            (!is_trump).then_some(rules.ranking),
            (is_trump || may_become_trump).then_some(rules.trump_ranking),
        ]
    }

    /// Whether every order `suit` can still be ranked in is the natural one (the bit order).
    fn natural(&self, suit: Suit) -> bool {
        self.orders(suit)
            .into_iter()
            .flatten()
            .all(|order| order == Ranking::AceHigh)
    }

    /// One card of each class of equivalent cards among `lane` (cards of the hand to act, all
    /// of `suit`, a suit ranked only in the natural order): the live cards cut the hand's cards
    /// of the suit into runs, and within a run the cards of one point class are equivalent.
    fn natural_representatives(&self, suit: Suit, lane: CardSet) -> CardSet {
        let live = u64::from(self.live[suit.index()]) << (16 * suit.index());
        let mut kept = CardSet::EMPTY;
        if matches!(self.deal.rules().card_points, CardPoints::None) {
            // One point class, so one card a run: the first, the one whose next card down the
            // suit (among the hand's and the live cards) is not the hand's. The low card that
            // wins when led is never equivalent to another.
            let special = lane & self.special;
            let hand = (lane - special).bits();
            let occupied = hand | live;
            for card in lane - special {
                let below = occupied & ((1u64 << card.index()) - 1);
                if below == 0 || hand & (1u64 << (63 - below.leading_zeros())) == 0 {
                    kept.insert(card);
                }
            }
            return kept | special;
        }
        let mut classes_in_run = 0u32;
        let mut previous: Option<Card> = None;
        for card in lane {
            if let Some(p) = previous {
                // Live bits strictly between the previous card and this one end the run.
                let between = ((1u64 << card.index()) - 1) & !((2u64 << p.index()) - 1);
                if live & between != 0 {
                    classes_in_run = 0;
                }
            }
            previous = Some(card);
            match point_class(self.deal, card) {
                Some(class) if classes_in_run & (1 << class) != 0 => {}
                Some(class) => {
                    classes_in_run |= 1 << class;
                    kept.insert(card);
                }
                None => kept.insert(card),
            }
        }
        kept
    }

    /// Whether two different cards of the hand to act are interchangeable for the rest of the
    /// deal.
    fn equivalent(&self, a: Card, b: Card) -> bool {
        let (Some(suit), Some(ra), Some(rb)) = (a.suit(), a.rank(), b.rank()) else {
            return false;
        };
        if b.suit() != Some(suit) {
            return false;
        }
        match (point_class(self.deal, a), point_class(self.deal, b)) {
            (Some(x), Some(y)) if x == y => {}
            _ => return false,
        }
        let live = self.live[suit.index()];
        if live == 0 {
            return true;
        }
        self.orders(suit)
            .into_iter()
            .flatten()
            .all(|order| nothing_between(order, ra, rb, live))
    }
}

/// Whether no rank of `live` (lane bits) lies strictly between `a` and `b` in `order`.
fn nothing_between(order: Ranking, a: Rank, b: Rank, live: u16) -> bool {
    if order == Ranking::AceHigh {
        // The natural order is the bit order (the low card 2 is the lowest bit).
        let (lo, hi) = (a.index().min(b.index()), a.index().max(b.index()));
        let between = ((1u16 << hi) - 1) & !((1u16 << (lo + 1)) - 1);
        return live & between == 0;
    }
    let (sa, sb) = (order.strength(a), order.strength(b));
    let (lo, hi) = (sa.min(sb), sa.max(sb));
    let mut bits = live;
    while bits != 0 {
        let r = bits.trailing_zeros() as u8;
        bits &= bits - 1;
        if let Some(rank) = Rank::from_index(r) {
            let s = order.strength(rank);
            if s > lo && s < hi {
                return false;
            }
        }
    }
    true
}

/// Cards with the same class are worth the same under every scoring their suit can still have;
/// `None` for a card that is never interchangeable with another.
fn point_class(deal: &Deal, card: Card) -> Option<u8> {
    let rules = deal.rules();
    let rank = card.rank()?;
    if led_low_rank(rules) == Some(rank) {
        return None;
    }
    match rules.card_points {
        CardPoints::None => Some(0),
        // The ace scores differently when it wins its own trick.
        CardPoints::Mura if rank == Rank::ACE => None,
        CardPoints::Mura => Some(u8::from(
            rules.card_points.counting_ranks() & 1 << rank.index() != 0,
        )),
        CardPoints::Jass {
            no_trump_eights, ..
        } => {
            let suit = card.suit()?;
            let trump = deal.trump();
            let jass_trump = rules.trump_ranking == Ranking::JassTrump
                && (trump == Trump::Suit(suit)
                    || (trump == Trump::None && rules.trump == TrumpRule::FirstOffSuit));
            let eights = no_trump_eights && trump == Trump::None;
            let zero = match rank {
                Rank::SIX | Rank::SEVEN => true,
                Rank::EIGHT => !eights,
                Rank::NINE => !jass_trump,
                _ => false,
            };
            Some(if zero { 0 } else { rank.index() })
        }
        _ => None,
    }
}

/// A fast non-cryptographic hasher (the multiply-rotate scheme of rustc's FxHash) for the
/// transposition table's fixed-size keys.
#[derive(Clone, Copy, Default, Debug)]
struct FxHasher {
    hash: u64,
}

impl Hasher for FxHasher {
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut buf = [0u8; 8];
            buf[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(buf));
        }
    }

    fn write_u64(&mut self, n: u64) {
        self.hash = (self.hash.rotate_left(5) ^ n).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }

    fn write_u128(&mut self, n: u128) {
        self.write_u64(n as u64);
        self.write_u64((n >> 64) as u64);
    }

    fn write_usize(&mut self, n: usize) {
        self.write_u64(n as u64);
    }

    fn finish(&self) -> u64 {
        self.hash
    }
}

#[cfg(test)]
mod tests {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;
    use torite_core::Preset;
    use torite_core::shuffle::below;

    use super::*;

    /// A deal of `preset` after random legal actions, with `left` tricks still to play.
    fn late_position(preset: Preset, seed: u64, left: usize) -> Deal {
        let rules = preset.ruleset();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut deal = Deal::random(rules, 0, &mut rng);
        while rules.tricks() - deal.tricks_completed() > left || deal.phase() != Phase::Play {
            let legal = deal.legal_actions();
            let action = legal.nth(below(&mut rng, legal.len() as u32) as usize);
            deal.apply_unchecked(action.expect("a deal in progress has a legal action"));
        }
        deal
    }

    /// Middler with joker deals 121 card points, not the 157 of the 36-card pack: the highest
    /// seat's own points, its best score, are bounded by the rules' total.
    #[test]
    fn own_points_bounds_are_the_deal_total() {
        let deal = late_position(Preset::MiddlerJoker, 4, 3);
        let mut solver = Solver::new();
        for root in 0..deal.players() {
            solver.start(&deal, root);
            assert_eq!(solver.bounds(&deal), (0.0, 121.0));
            let value = solver.solve(&deal, root);
            assert!((0.0..=121.0).contains(&value), "{value}");
        }
    }

    /// The other Jass games' rewards keep their bounds.
    #[test]
    fn jass_bounds_are_the_score_bounds() {
        for (preset, bounds) in [
            (Preset::MittlereJass, (-2.0, 2.0)),
            (Preset::MolotowJass, (-3.0, 3.0)),
            (Preset::PlusMinusJass4, (0.0, 2.0)),
        ] {
            let deal = late_position(preset, 1, 3);
            let mut solver = Solver::new();
            solver.start(&deal, 0);
            assert_eq!(solver.bounds(&deal), bounds, "{preset}");
        }
    }
}
