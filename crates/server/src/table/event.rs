//! The entries of a table's log, as stored: [`Event`] and who chose an action ([`Actor`]).
//!
//! Their JSON is the stored form; logs written by earlier servers read unchanged
//! (`tests/migration.rs`).

use serde::{Deserialize, Serialize};
use serde_json::Value;
use torite_bots::BotSpec;
use torite_core::{Action, Seat};

/// One entry of a table's log, as stored.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Event {
    /// The table was created.
    Created {
        /// The ruleset in record form.
        ruleset: Value,
        /// Seed of the deals and draws.
        seed: u64,
        /// The host's token hash.
        host: String,
        /// Seconds a human seat has to act before a bot plays for it.
        timer: Option<u32>,
        /// Creation time, seconds since the Unix epoch.
        created: u64,
        /// A private table's invite secret, hashed like a seat token: only who shows the
        /// secret (or a token of the table) may see or join it. Absent for a public table.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        invite: Option<String>,
    },
    /// A person took a seat.
    Join {
        /// The seat.
        seat: Seat,
        /// The display name.
        name: String,
        /// The seat token's hash.
        token: String,
    },
    /// A bot took a seat (empty, or replacing a person).
    Bot {
        /// The seat.
        seat: Seat,
        /// The bot spec, stored as its text (`heuristic`, `ismcts:200ms`).
        #[serde(with = "as_text")]
        bot: BotSpec,
    },
    /// The host started the game.
    Start,
    /// A deal was dealt.
    Deal {
        /// Each seat's hand, as card codes.
        hands: Vec<String>,
    },
    /// A seat acted.
    Act {
        /// The seat.
        seat: Seat,
        /// The action, stored as its code (`AS`, `lot`, `pass`, `call:S`).
        action: Action,
        /// Who chose it; absent when the seat's occupant did.
        #[serde(default, skip_serializing_if = "Actor::is_occupant")]
        by: Actor,
    },
    /// A seat took back its last action of the deal in progress, with every action after
    /// it (the bots' answers): the game goes on as if they had never been taken. The log
    /// keeps the undone actions before this event; the record keeps only the final sequence.
    Undo {
        /// The seat whose last action is taken back.
        seat: Seat,
    },
    /// The finished deal was scored.
    Score {
        /// The seat whose drawn card was highest (Molotow three-way tie), where needed.
        draw: Option<Seat>,
    },
    /// A seat's person said something in the table's chat: a line of text or a quick
    /// reaction. It does not change the table's version.
    Chat {
        /// The seat.
        seat: Seat,
        /// The line, as checked ([`crate::table::check_chat_text`]).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        text: Option<String>,
        /// A quick reaction's code ([`crate::table::REACTIONS`]), instead of a line.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        reaction: Option<String>,
        /// When, ms since the Unix epoch.
        at: u64,
    },
    /// The second event of a rematch's table: the series it continues and whose seats it
    /// keeps for the people of the game before.
    Series {
        /// The series' games so far, oldest first.
        games: Vec<SeriesGame>,
        /// For each seat, the token hash of the person who held it in the game before (only
        /// they may take it), or `None` (a bot's seat then, or free).
        reserved: Vec<Option<String>>,
    },
    /// The game is over and its rematch has been created: the next table of the series.
    Next {
        /// The next table's id.
        table: String,
    },
    /// The host muted a seat's person in the chat, or let them speak again. It does not change
    /// the table's version.
    Mute {
        /// The seat.
        seat: Seat,
        /// Whether the seat is muted from now on.
        muted: bool,
    },
}

impl Event {
    /// Whether the event is the chat's ([`Event::Chat`], [`Event::Mute`]), which leaves the
    /// game and the table's version as they are.
    #[must_use]
    pub const fn is_talk(&self) -> bool {
        matches!(self, Event::Chat { .. } | Event::Mute { .. })
    }
}

/// A finished game of a series, as the games after it keep it ([`Event::Series`]).
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct SeriesGame {
    /// The game's table.
    pub table: String,
    /// Each seat's final total.
    pub totals: Vec<i32>,
    /// The winning seats.
    pub winners: Vec<Seat>,
}

/// Who chose a seat's action, stored as the `by` of [`Event::Act`].
///
/// Logs written before this type existed stored `by` as free text; the server only ever wrote
/// `"timer"` and `"fallback"` there, or left it out, which is exactly what this reads.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Actor {
    /// The seat's occupant: the person sitting there, or the bot given the seat (no `by`).
    #[default]
    Occupant,
    /// A bot standing in for a person whose move timer ran out (`"timer"`).
    Timer,
    /// The server itself: the first legal action, after the seat's bot chose an illegal one
    /// (`"fallback"`).
    Fallback,
}

impl Actor {
    /// Whether the seat's occupant chose the action (then the log leaves `by` out).
    #[must_use]
    pub const fn is_occupant(&self) -> bool {
        matches!(self, Actor::Occupant)
    }
}

/// Serde for a value stored as its text: written with `Display`, read back with `FromStr`.
mod as_text {
    use std::fmt::Display;
    use std::str::FromStr;

    use serde::{Deserialize, Deserializer, Serializer, de};

    pub(super) fn serialize<T: Display, S: Serializer>(v: &T, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(v)
    }

    pub(super) fn deserialize<'de, T, D>(d: D) -> Result<T, D::Error>
    where
        T: FromStr<Err: Display>,
        D: Deserializer<'de>,
    {
        String::deserialize(d)?.parse().map_err(de::Error::custom)
    }
}
