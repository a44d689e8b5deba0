//! Why an action is refused ([`PlayError`]) or a deal cannot be set up ([`SetupError`]).

use std::fmt;

use super::Seat;
use crate::card::{Card, CardSet, Suit};

/// Why an action was refused. The deal is unchanged.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum PlayError {
    /// The deal is already over.
    DealOver,
    /// The card is not in the acting seat's hand.
    NotInHand(Card),
    /// The seat holds the led suit and must play it.
    MustFollow {
        /// The suit to follow.
        led: Suit,
    },
    /// Jass: the seat could follow, so it may not play a trump lower than one in the trick.
    Undertrump {
        /// The highest trump already in the trick.
        over: Card,
    },
    /// Trump was led and the seat holds a trump other than the Jack alone.
    MustPlayTrump {
        /// The trump suit.
        trump: Suit,
    },
    /// Handjass: the seat follows and holds a card that beats the trick so far.
    MustBeat {
        /// The best card so far.
        best: Card,
    },
    /// Handjass: the seat cannot follow and holds a trump.
    MustTrump {
        /// The trump suit.
        trump: Suit,
    },
    /// Current Mini Misère: the joker may be played only by a seat void in the led suit.
    JokerOnlyWhenVoid {
        /// The led suit.
        led: Suit,
    },
    /// The leader must name a suit for the joker first.
    MustCallSuit,
    /// The joker was played as the trick's last card: its player must say `joker:win` or
    /// `joker:lose` first (three-player Mini Misère).
    MustSayJoker,
    /// `joker:win` or `joker:lose` when no joker was just played as a trick's last card.
    NoJokerSayExpected,
    /// A suit was named when there was no joker lead to name it for.
    NoCallExpected,
    /// The seat is being asked about the Lot and must answer `lot` or `pass`.
    MustAnswerLot,
    /// `lot` now: not this ruleset's time for it, or the seat already declared.
    LotNotAllowed(&'static str),
    /// `pass` now: there is no Lot question being asked.
    PassNotAllowed,
}

impl fmt::Display for PlayError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlayError::DealOver => f.write_str("the deal is over"),
            PlayError::NotInHand(card) => write!(f, "{card} is not in the seat's hand"),
            PlayError::MustFollow { led } => write!(f, "seat must follow {}", led.name()),
            PlayError::Undertrump { over } => write!(
                f,
                "seat may not undertrump {over} while it can follow suit"
            ),
            PlayError::MustPlayTrump { trump } => {
                write!(f, "trump was led: seat must play a trump ({})", trump.name())
            }
            PlayError::MustBeat { best } => {
                write!(f, "seat must beat {best}, the best card so far, when it can")
            }
            PlayError::MustTrump { trump } => write!(
                f,
                "seat cannot follow and holds a trump: it must play a trump ({})",
                trump.name()
            ),
            PlayError::JokerOnlyWhenVoid { led } => write!(
                f,
                "the joker may be played only by a seat with no {}",
                led.name()
            ),
            PlayError::MustCallSuit => f.write_str(
                "the leader must name a suit for the joker first (call:S, call:H, call:D or call:C)",
            ),
            PlayError::NoCallExpected => {
                f.write_str("a suit is named only right after leading the joker")
            }
            PlayError::MustSayJoker => f.write_str(
                "the joker was played last to the trick: its player must first say joker:win or joker:lose",
            ),
            PlayError::NoJokerSayExpected => f.write_str(
                "joker:win and joker:lose are said only right after the joker is played as the last card of a trick",
            ),
            PlayError::MustAnswerLot => {
                f.write_str("seat is asked about the Lot and must answer lot or pass")
            }
            PlayError::LotNotAllowed(why) => write!(f, "the Lot cannot be declared now: {why}"),
            PlayError::PassNotAllowed => f.write_str("no Lot question is being asked"),
        }
    }
}

impl std::error::Error for PlayError {}

/// Why a deal could not be set up from the given hands.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum SetupError {
    /// The dealer is not a seat.
    BadDealer {
        /// The dealer given.
        dealer: usize,
        /// The number of seats.
        players: usize,
    },
    /// Not one hand per seat.
    HandCount {
        /// Hands given.
        given: usize,
        /// Seats.
        players: usize,
    },
    /// A hand of the wrong size.
    HandSize {
        /// The seat.
        seat: Seat,
        /// Its number of cards.
        given: usize,
        /// The equal share.
        expected: usize,
    },
    /// A card that is not in this ruleset's deck.
    NotInDeck(Card),
    /// A card dealt more than once.
    Duplicate(Card),
    /// Cards of the deck dealt to nobody.
    Missing(CardSet),
    /// The ruleset itself is not valid.
    Rules(crate::ruleset::RulesetError),
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::BadDealer { dealer, players } => {
                write!(
                    f,
                    "dealer {dealer} is not a seat (seats are 0 to {})",
                    players - 1
                )
            }
            SetupError::HandCount { given, players } => {
                write!(f, "{given} hands given for {players} seats")
            }
            SetupError::HandSize {
                seat,
                given,
                expected,
            } => write!(
                f,
                "seat {seat} has {given} cards, expected {expected} (hands must be equal shares of the deck)"
            ),
            SetupError::NotInDeck(card) => write!(f, "{card} is not in this ruleset's deck"),
            SetupError::Duplicate(card) => write!(f, "{card} is dealt more than once"),
            SetupError::Missing(cards) => write!(f, "cards of the deck dealt to nobody: {cards}"),
            SetupError::Rules(e) => write!(f, "invalid ruleset: {e}"),
        }
    }
}

impl std::error::Error for SetupError {}
