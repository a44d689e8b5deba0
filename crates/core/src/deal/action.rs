//! What a seat does ([`Action`]), its text form, and the set of actions legal at a position
//! ([`ActionSet`]).

use std::fmt;
use std::str::FromStr;

use crate::card::{Card, CardSet, ParseCardError, Suit};

/// Something a seat does.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Action {
    /// Play a card.
    Play(Card),
    /// Declare the Lot.
    Lot,
    /// Decline to declare the Lot (1989 timing).
    Pass,
    /// Name the suit to follow after leading the joker (1989 five-player Mini Misère).
    Call(Suit),
    /// Say that the joker just played as the trick's last card wins it (`joker:win`,
    /// three-player Mini Misère).
    JokerWins,
    /// Say that the joker just played as the trick's last card loses (`joker:lose`): the
    /// trick goes to the highest card of the led suit.
    JokerLoses,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Play(card) => write!(f, "{card}"),
            Action::Lot => f.write_str("lot"),
            Action::Pass => f.write_str("pass"),
            Action::Call(suit) => write!(f, "call:{suit}"),
            Action::JokerWins => f.write_str("joker:win"),
            Action::JokerLoses => f.write_str("joker:lose"),
        }
    }
}

/// An action word that is neither a card code nor `lot`, `pass`, `call:X`, `joker:win` or
/// `joker:lose`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseActionError {
    /// The offending token.
    pub token: String,
}

impl fmt::Display for ParseActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown action {:?}: expected a card code (e.g. AS, TH, 10H, JK), lot, pass, call:S|H|D|C or joker:win|lose",
            self.token
        )
    }
}

impl std::error::Error for ParseActionError {}

impl From<ParseCardError> for ParseActionError {
    fn from(e: ParseCardError) -> ParseActionError {
        ParseActionError { token: e.token }
    }
}

impl FromStr for Action {
    type Err = ParseActionError;

    /// Parses `lot`, `pass`, `call:X`, `joker:win`, `joker:lose` or a card code,
    /// case-insensitively.
    fn from_str(s: &str) -> Result<Action, ParseActionError> {
        let lower = s.to_ascii_lowercase();
        match lower.as_str() {
            "lot" => return Ok(Action::Lot),
            "pass" => return Ok(Action::Pass),
            "joker:win" => return Ok(Action::JokerWins),
            "joker:lose" => return Ok(Action::JokerLoses),
            _ => {}
        }
        if let Some(rest) = lower.strip_prefix("call:") {
            let mut chars = rest.chars();
            return match (chars.next().and_then(Suit::from_letter), chars.next()) {
                (Some(suit), None) => Ok(Action::Call(suit)),
                _ => Err(ParseActionError {
                    token: s.to_owned(),
                }),
            };
        }
        Ok(Action::Play(s.parse()?))
    }
}

impl serde::Serialize for Action {
    /// As its code (`AS`, `lot`, `pass`, `call:S`, `joker:win`), the form records and the
    /// protocol use.
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Action {
    /// From its code, read as [`Action::from_str`] reads it.
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Action, D::Error> {
        let code = String::deserialize(deserializer)?;
        code.parse().map_err(serde::de::Error::custom)
    }
}

/// The set of legal actions at a position, without allocation.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct ActionSet {
    /// Cards that may be played.
    pub cards: CardSet,
    /// Whether `lot` may be declared.
    pub lot: bool,
    /// Whether `pass` may be answered.
    pub pass: bool,
    /// Suits that may be named (bit `suit.index()`).
    pub calls: u8,
    /// Whether the joker's player is to say `joker:win` or `joker:lose` (both are legal then).
    pub joker: bool,
}

impl ActionSet {
    /// The number of legal actions.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.cards.len()
            + self.lot as usize
            + self.pass as usize
            + self.calls.count_ones() as usize
            + 2 * self.joker as usize
    }

    /// Whether there is no legal action (the deal is over).
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether `action` is in the set.
    #[must_use]
    pub const fn contains(&self, action: Action) -> bool {
        match action {
            Action::Play(card) => self.cards.contains(card),
            Action::Lot => self.lot,
            Action::Pass => self.pass,
            Action::Call(suit) => self.calls & (1 << suit as u8) != 0,
            Action::JokerWins | Action::JokerLoses => self.joker,
        }
    }

    /// The `n`-th action in iteration order (cards first, then `lot`, `pass`, calls,
    /// `joker:win`, `joker:lose`).
    #[must_use]
    pub fn nth(&self, n: usize) -> Option<Action> {
        let cards = self.cards.len();
        if n < cards {
            return self.cards.nth(n).map(Action::Play);
        }
        self.iter().nth(n)
    }

    /// Every action in the set.
    pub fn iter(&self) -> impl Iterator<Item = Action> + '_ {
        self.cards
            .iter()
            .map(Action::Play)
            .chain(self.lot.then_some(Action::Lot))
            .chain(self.pass.then_some(Action::Pass))
            .chain(
                Suit::ALL
                    .into_iter()
                    .filter(|s| self.calls & (1 << *s as u8) != 0)
                    .map(Action::Call),
            )
            .chain(
                [Action::JokerWins, Action::JokerLoses]
                    .into_iter()
                    .filter(|_| self.joker),
            )
    }
}
