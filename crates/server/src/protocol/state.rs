//! The state message ([`super::ServerMsg::State`]): a snapshot of a table as one seat (or a
//! spectator) may see it, sent whenever the table changes and to every new socket.
//!
//! Its JSON is the one `docs/PROTOCOL.md` documents, key for key and in that order: the table's
//! facts ([`StateMsg`]), then, once a deal has been dealt, the shown deal's ([`DealMsg`]) at the
//! same level. The messages are built from a seat's `View` by
//! [`crate::table::TableState::state_message`].

use std::sync::Arc;

use serde::Serialize;
use torite_core::Seat;
use torite_core::report::{LotReport, TrickReport};

use super::Summary;

/// A table as one seat sees it.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct StateMsg {
    /// The number of the table's events so far ([`crate::table::TableState::version`]).
    pub version: u64,
    /// The receiving seat (`None`: a spectator).
    pub seat: Option<Seat>,
    /// The lobby summary, with presence; one value shared by every seat's message.
    pub table: Arc<Summary>,
    /// The preset the ruleset is based on.
    pub ruleset: &'static str,
    /// The number of seats.
    pub players: usize,
    /// Whether the host has started the game.
    pub started: bool,
    /// The index of the shown deal (`None` before the first).
    pub deal: Option<usize>,
    /// Each seat's total.
    pub totals: Vec<i32>,
    /// How many Plus-Minus deals' points are held over.
    pub held: usize,
    /// The scored deals; one list shared by every seat's message.
    pub results: Arc<[ResultMsg]>,
    /// Whether the game has ended.
    pub finished: bool,
    /// The winning seats (empty until the game has ended).
    pub winners: Vec<Seat>,
    /// The number of deals the game lasts, where the rules fix it (`None`: to a target).
    pub deals_total: Option<u32>,
    /// Which way play passes round the table, seen from above (`"clockwise"`,
    /// `"counter-clockwise"`): how a client draws the seats, never the logic.
    pub direction: &'static str,
    /// Whether the scores are penalty points, the fewest winning (Mura).
    pub penalties: bool,
    /// Whether a trump suit comes about in this game (a deal shows "no trump yet" until then).
    pub trumps: bool,
    /// Each seat's marks on the Jass score sheet (`||| ○○`, empty when none), where the rules
    /// keep the score in strokes and circles (`torite_i18n::present::tally`); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub tallies: Option<Vec<String>>,
    /// The undo request waiting for answers; absent when none waits.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub undo: Option<UndoMsg>,
    /// How the receiving seat may take back its last action now: `"now"` (every other seat
    /// is a bot's) or `"ask"` (a request the other people answer); absent when it may not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub may_undo: Option<&'static str>,
    /// When the move timer of the person to act runs out (milliseconds since the Unix epoch);
    /// absent when none runs.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deadline: Option<u64>,
    /// The series' games before this one, oldest first (a rematch's table); absent otherwise.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub series: Option<Vec<crate::table::SeriesGame>>,
    /// The rematch's table, once this game is over and someone asked for it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next: Option<String>,
    /// The shown deal, its keys beside the table's (absent before the first deal).
    #[serde(flatten)]
    pub shown: Option<DealMsg>,
}

/// The deal a state message shows: the one in progress, or the one just scored until the next
/// is dealt. Every field comes from the receiving seat's `View`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct DealMsg {
    /// The dealer.
    pub dealer: Seat,
    /// Where the deal is.
    pub phase: PhaseMsg,
    /// The seat to act (`None` once the deal is over).
    pub to_act: Option<Seat>,
    /// The leader of the trick in progress.
    pub leader: Seat,
    /// The cards played to the trick in progress, in order.
    pub trick: Vec<PlayedMsg>,
    /// The seat winning the trick in progress so far.
    pub winning: Option<Seat>,
    /// The suit led to the trick in progress, as its letter.
    pub led: Option<String>,
    /// How many cards each seat holds.
    pub hand_sizes: Vec<usize>,
    /// The trump: a suit letter, `JK` for the joker alone, or none.
    pub trump: Option<String>,
    /// The Lot's declarers and the seats whose Lot failed.
    pub lot: LotMsg,
    /// The tricks each seat has won.
    pub tricks_won: Vec<u8>,
    /// The card points each seat has taken.
    pub card_points: Vec<u32>,
    /// The seats whose card points have reached the threshold that exempts them from the
    /// deal's penalty (Mura; always empty elsewhere).
    pub exempt: Vec<Seat>,
    /// The number of completed tricks.
    pub tricks_completed: usize,
    /// The last completed trick.
    pub last_trick: Option<TrickReport>,
    /// The receiving seat's hand in display order (absent for spectators).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hand: Option<Vec<String>>,
    /// The receiving seat's legal actions as codes (empty unless it is to act).
    pub legal: Vec<String>,
}

/// Where a deal is, as the protocol words it.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum PhaseMsg {
    /// Seats are asked whether they declare the Lot (`"lot"`).
    Lot,
    /// Cards are played (`"play"`).
    Play,
    /// The joker's leader names a suit (`"call"`).
    Call,
    /// The joker's player, who played it last to the trick, says whether it wins
    /// (`"joker"`; three-player Mini Misère).
    Joker,
    /// The deal is over (`"over"`).
    Over,
}

impl From<torite_core::Phase> for PhaseMsg {
    fn from(phase: torite_core::Phase) -> PhaseMsg {
        use torite_core::Phase;
        match phase {
            Phase::LotQuestion => PhaseMsg::Lot,
            Phase::Play => PhaseMsg::Play,
            Phase::CallSuit => PhaseMsg::Call,
            Phase::SayJoker => PhaseMsg::Joker,
            Phase::Over => PhaseMsg::Over,
        }
    }
}

/// An undo request waiting for answers.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct UndoMsg {
    /// The seat asking to take back its last action.
    pub by: Seat,
    /// The people who have not yet accepted.
    pub waiting: Vec<Seat>,
}

/// A card played to the trick in progress.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct PlayedMsg {
    /// Who played it.
    pub seat: Seat,
    /// The card's code.
    pub card: String,
}

/// The Lot of the shown deal.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct LotMsg {
    /// The declaring seats, in seat order.
    pub declarers: Vec<Seat>,
    /// The declarers whose Lot has already failed.
    pub failed: Vec<Seat>,
}

/// A scored deal in a state message.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ResultMsg {
    /// The deal's index.
    pub deal: usize,
    /// Its dealer.
    pub dealer: Seat,
    /// The tricks each seat won.
    pub tricks: Vec<u8>,
    /// The card points each seat took.
    pub points: Vec<u32>,
    /// The Lot, if one was declared (its success always known).
    pub lot: Option<LotReport>,
    /// Each seat's score for the deal.
    pub scores: Vec<i32>,
    /// The totals after it.
    pub totals: Vec<i32>,
    /// The scoring rule that settled it (`rule-{rule}` in the catalogs).
    pub rule: &'static str,
    /// The seat that drew highest, when a draw settled it.
    pub draw: Option<Seat>,
}
