//! A game: deals strung together with dealer rotation, running totals, held-over points and
//! the end of the game.

use std::fmt;

use crate::card::CardSet;
use crate::deal::{Action, Deal, PlayError, Seat, SetupError};
use crate::ruleset::{GameEnd, MAX_SEATS, Ruleset, TieRule};
use crate::scoring::{DealFacts, DealScore, ScoreError};
use crate::seats::SeatSet;

impl Ruleset {
    /// The winners if a game of these rules is over with these `totals` after `deals_played`
    /// deals (the best total wins: the highest, or the lowest where scores are penalties), or
    /// `None` while it goes on. [`Game`] ends by this; searches use it to look ahead to the
    /// end of the game.
    #[must_use]
    pub fn winners(&self, totals: &[i32], deals_played: usize) -> Option<SeatSet> {
        let totals = &totals[..totals.len().min(self.players as usize)];
        let best_seats = self.leaders(totals);
        let over = match self.end {
            GameEnd::Deals(n) => deals_played >= n as usize,
            GameEnd::Target { points, tie } => {
                let reached = totals.iter().any(|t| *t >= points);
                reached && (tie == TieRule::Share || best_seats.len() == 1)
            }
        };
        over.then_some(best_seats)
    }

    /// The seats with the best of these `totals` (the highest, or the lowest where scores are
    /// penalties), whether or not the game is over: the winners once [`Ruleset::winners`]
    /// says it is.
    #[must_use]
    pub fn leaders(&self, totals: &[i32]) -> SeatSet {
        let totals = &totals[..totals.len().min(self.players as usize)];
        let best = if self.scoring.is_penalty() {
            totals.iter().min()
        } else {
            totals.iter().max()
        };
        match best.copied() {
            Some(best) => (0..totals.len()).filter(|s| totals[*s] == best).collect(),
            None => SeatSet::default(),
        }
    }
}

/// A finished deal, scored.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DealResult {
    /// The dealer's seat.
    pub dealer: Seat,
    /// The facts the score came from.
    pub facts: DealFacts,
    /// The deal's score, held-over points paid in this deal included.
    pub score: DealScore,
    /// The seat whose drawn card was highest, when a draw was needed.
    pub draw: Option<Seat>,
    /// Totals after this deal.
    pub totals: [i32; MAX_SEATS],
}

/// Why a game refused a step.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum GameError {
    /// The game has ended: no more deals.
    GameOver,
    /// A deal is still in progress.
    DealInProgress,
    /// No deal is in progress.
    NoDeal,
    /// The deal is not over yet, so it cannot be scored.
    DealNotOver,
    /// The hands could not start a deal.
    Setup(SetupError),
    /// An action was refused.
    Play(PlayError),
    /// The finished deal could not be scored.
    Score(ScoreError),
    /// Entered facts that cannot happen under the rules.
    Facts(crate::scoring::FactsError),
}

impl fmt::Display for GameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameError::GameOver => f.write_str("the game is over"),
            GameError::DealInProgress => f.write_str("a deal is still in progress"),
            GameError::NoDeal => f.write_str("no deal is in progress"),
            GameError::DealNotOver => f.write_str("the deal is not over yet"),
            GameError::Setup(e) => e.fmt(f),
            GameError::Play(e) => e.fmt(f),
            GameError::Score(e) => e.fmt(f),
            GameError::Facts(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for GameError {}

/// A game in progress or finished.
///
/// ```
/// use torite_core::{Game, Preset};
/// use rand_chacha::{ChaCha8Rng, rand_core::SeedableRng};
/// let mut rng = ChaCha8Rng::seed_from_u64(7);
/// let mut game = Game::new(Preset::MiniMisere4.ruleset(), 0)?;
/// while !game.is_finished() {
///     game.start_random_deal(&mut rng)?;
///     while let Some(action) = game.deal().and_then(|d| d.legal_actions().nth(0)) {
///         game.apply(action)?;
///     }
///     game.finish_deal(None)?;
/// }
/// assert!(!game.winners().is_empty());
/// # Ok::<_, torite_core::GameError>(())
/// ```
#[derive(Clone, Debug)]
pub struct Game {
    rules: Ruleset,
    first_dealer: Seat,
    results: Vec<DealResult>,
    deal: Option<Deal>,
    totals: [i32; MAX_SEATS],
    held: Vec<u8>,
    winners: Vec<Seat>,
    finished: bool,
}

impl Game {
    /// A new game whose first deal is dealt by `first_dealer`.
    ///
    /// # Errors
    ///
    /// The ruleset's problems, or a dealer that is not a seat.
    pub fn new(rules: Ruleset, first_dealer: Seat) -> Result<Game, GameError> {
        rules
            .validate()
            .map_err(|e| GameError::Setup(SetupError::Rules(e)))?;
        let players = rules.players as usize;
        if first_dealer >= players {
            return Err(GameError::Setup(SetupError::BadDealer {
                dealer: first_dealer,
                players,
            }));
        }
        Ok(Game {
            rules,
            first_dealer,
            results: Vec::new(),
            deal: None,
            totals: [0; MAX_SEATS],
            held: Vec::new(),
            winners: Vec::new(),
            finished: false,
        })
    }

    /// The rules.
    #[must_use]
    pub const fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// The scored deals so far.
    #[must_use]
    pub fn results(&self) -> &[DealResult] {
        &self.results
    }

    /// The deal in progress, or the finished deal not yet scored.
    #[must_use]
    pub const fn deal(&self) -> Option<&Deal> {
        self.deal.as_ref()
    }

    /// Running totals per seat.
    #[must_use]
    pub fn totals(&self) -> &[i32] {
        &self.totals[..self.rules.players as usize]
    }

    /// Plus-Minus points held over, each as the seat mask of the pair that shares it.
    #[must_use]
    pub fn held(&self) -> &[u8] {
        &self.held
    }

    /// Whether the game has ended.
    #[must_use]
    pub const fn is_finished(&self) -> bool {
        self.finished
    }

    /// The winning seats (empty until the game has ended).
    #[must_use]
    pub fn winners(&self) -> &[Seat] {
        &self.winners
    }

    /// The dealer of the next deal to start (or of the one in progress).
    #[must_use]
    pub fn next_dealer(&self) -> Seat {
        (self.first_dealer + self.results.len()) % self.rules.players as usize
    }

    fn can_start(&self) -> Result<(), GameError> {
        if self.finished {
            return Err(GameError::GameOver);
        }
        if self.deal.is_some() {
            return Err(GameError::DealInProgress);
        }
        Ok(())
    }

    /// Starts the next deal with these hands (one per seat), dealt by the next dealer.
    ///
    /// # Errors
    ///
    /// [`GameError::GameOver`], [`GameError::DealInProgress`] or the hands' [`SetupError`].
    pub fn start_deal(&mut self, hands: &[CardSet]) -> Result<&Deal, GameError> {
        self.can_start()?;
        let deal = Deal::new(self.rules, self.next_dealer(), hands).map_err(GameError::Setup)?;
        Ok(self.deal.insert(deal))
    }

    /// Deals the deal in progress again with these hands, by the same dealer, for a
    /// [`crate::table::Table`] that takes a deal made elsewhere; the caller checks that none
    /// of the deal's actions has been played.
    ///
    /// # Errors
    ///
    /// [`GameError::NoDeal`] or the hands' [`SetupError`]; nothing changes then.
    pub(crate) fn redeal(&mut self, hands: &[CardSet]) -> Result<&Deal, GameError> {
        let dealer = self.deal.as_ref().ok_or(GameError::NoDeal)?.dealer();
        let deal = Deal::new(self.rules, dealer, hands).map_err(GameError::Setup)?;
        Ok(self.deal.insert(deal))
    }

    /// Starts the next deal with a random partition of the deck.
    ///
    /// # Errors
    ///
    /// [`GameError::GameOver`] or [`GameError::DealInProgress`].
    pub fn start_random_deal(&mut self, rng: &mut impl rand_core::Rng) -> Result<&Deal, GameError> {
        self.can_start()?;
        let deal = Deal::random(self.rules, self.next_dealer(), rng);
        Ok(self.deal.insert(deal))
    }

    /// Applies an action to the deal in progress.
    ///
    /// # Errors
    ///
    /// [`GameError::NoDeal`] or the action's [`PlayError`]; nothing changes then.
    pub fn apply(&mut self, action: Action) -> Result<(), GameError> {
        let deal = self.deal.as_mut().ok_or(GameError::NoDeal)?;
        deal.apply(action).map_err(GameError::Play)
    }

    /// The tied seats that must draw to settle the finished deal, if a rule needs it.
    #[must_use]
    pub fn draw_needed(&self) -> Option<u8> {
        let deal = self.deal.as_ref().filter(|d| d.is_over())?;
        self.rules.draw_needed(&DealFacts::of(deal))
    }

    /// Scores the finished deal, pays held-over points, updates the totals and checks the end
    /// of the game. `draw` is the seat whose drawn card was highest, where needed.
    ///
    /// # Errors
    ///
    /// [`GameError::NoDeal`], [`GameError::DealNotOver`] or a [`ScoreError`]; nothing
    /// changes then.
    pub fn finish_deal(&mut self, draw: Option<Seat>) -> Result<&DealResult, GameError> {
        let deal = self.deal.as_ref().ok_or(GameError::NoDeal)?;
        if !deal.is_over() {
            return Err(GameError::DealNotOver);
        }
        let facts = DealFacts::of(deal);
        let dealer = deal.dealer();
        self.settle(dealer, facts, draw)
    }

    /// Scores a deal played with real cards from its facts (tricks, card points, the Lot),
    /// as a scorekeeper does: the facts are checked against the rules first, then scored like
    /// a deal played here.
    ///
    /// # Errors
    ///
    /// [`GameError::GameOver`], [`GameError::DealInProgress`], [`GameError::Facts`] for facts
    /// that cannot happen, or a [`ScoreError`]; nothing changes then.
    pub fn record_facts(
        &mut self,
        facts: DealFacts,
        draw: Option<Seat>,
    ) -> Result<&DealResult, GameError> {
        self.can_start()?;
        self.rules.check_facts(&facts).map_err(GameError::Facts)?;
        let dealer = self.next_dealer();
        self.settle(dealer, facts, draw)
    }

    fn settle(
        &mut self,
        dealer: Seat,
        facts: DealFacts,
        draw: Option<Seat>,
    ) -> Result<&DealResult, GameError> {
        let n = self.rules.players as usize;
        let mut score = self
            .rules
            .score(&facts, self.totals(), draw)
            .map_err(GameError::Score)?;
        // Held-over points (Plus-Minus): each goes to the first later deal in which exactly one
        // of its pair scores.
        let scorers: SeatSet = (0..n).filter(|s| score.scores[*s] > 0).collect();
        self.held.retain(|pair| {
            let scoring = SeatSet::from_bits(*pair) & scorers;
            match (scoring.len(), scoring.first()) {
                (1, Some(seat)) => {
                    score.scores[seat] += 1;
                    false
                }
                _ => true,
            }
        });
        self.held.extend(score.held.iter().filter(|p| **p != 0));
        for seat in 0..n {
            self.totals[seat] += score.scores[seat];
        }
        let needed = self.rules.draw_needed(&facts).is_some();
        self.results.push(DealResult {
            dealer,
            facts,
            score,
            draw: draw.filter(|_| needed),
            totals: self.totals,
        });
        self.deal = None;
        self.check_end();
        Ok(self.results.last().expect("a result was just pushed"))
    }

    fn check_end(&mut self) {
        if let Some(winners) = self.rules.winners(self.totals(), self.results.len()) {
            self.finished = true;
            self.winners = winners.iter().collect();
        }
    }
}
