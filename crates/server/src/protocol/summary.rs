//! The lobby's summary of a table: who sits where and how far the game is, public (no
//! token); built by [`crate::table::TableState::summary`], sent in `GET /api/tables` and in every
//! state message.

use serde::Serialize;
use serde_json::Value;

/// A table in the lobby (public: no token).
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Summary {
    /// The table id.
    pub id: String,
    /// The ruleset in record form.
    pub ruleset: Value,
    /// The preset it is based on.
    pub base: &'static str,
    /// The number of seats.
    pub players: usize,
    /// `open`, `playing` or `finished`.
    pub status: &'static str,
    /// Who sits where.
    pub seats: Vec<SeatSummary>,
    /// Creation time, seconds since the Unix epoch.
    pub created: u64,
    /// The move timer in seconds.
    pub timer: Option<u32>,
    /// Deals scored so far.
    pub deals: usize,
    /// How long a person must have been absent before the host may give the seat to a bot,
    /// in milliseconds.
    pub replace_after_ms: u64,
}

impl Summary {
    /// The summary with the server's presence facts: since when each absent person's seat
    /// has had no socket (milliseconds since the Unix epoch; kept only for a person who is
    /// not connected) and how long an absence must last before the seat may be replaced.
    #[must_use]
    pub fn with_presence(mut self, absent_since: &[Option<u64>], replace_after_ms: u64) -> Summary {
        for (seat, since) in self.seats.iter_mut().zip(absent_since) {
            seat.absent_since = (seat.kind == "human" && !seat.connected)
                .then_some(*since)
                .flatten();
        }
        self.replace_after_ms = replace_after_ms;
        self
    }
}

/// A seat in a [`Summary`].
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct SeatSummary {
    /// Display name (a bot's spec for a bot).
    pub name: String,
    /// `empty`, `human` or `bot`.
    pub kind: &'static str,
    /// The bot spec, for a bot.
    pub bot: Option<String>,
    /// Whether a socket of this seat is open.
    pub connected: bool,
    /// For a person with no socket open: since when (milliseconds since the Unix epoch).
    pub absent_since: Option<u64>,
}
