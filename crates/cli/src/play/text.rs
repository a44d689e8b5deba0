//! Words for the table, shared by the plain and the full-screen interfaces.

use torite_core::{Action, Card, CardSet, Seat, Suit, Trump, View};
use torite_i18n::Catalog;

pub use torite_i18n::present::pad;

/// How suits are drawn.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum SuitStyle {
    /// `♠ ♥ ♦ ♣`.
    Symbols,
    /// `S H D C`: safe where symbols are drawn two cells wide.
    Letters,
}

/// Everything the interfaces need to write words.
#[derive(Debug)]
pub struct Words {
    /// The messages.
    pub catalog: Catalog,
    /// How suits are drawn.
    pub suits: SuitStyle,
    /// Display names per seat.
    pub names: Vec<String>,
    /// The human's seat.
    pub human: Seat,
}

impl Words {
    /// A message.
    pub fn t(&self, key: &str, args: &[(&str, String)]) -> String {
        self.catalog.get(key, args)
    }

    /// A seat: "Seat 2 (heuristic)" or "You".
    pub fn seat(&self, seat: Seat) -> String {
        if seat == self.human {
            format!(
                "{} ({})",
                self.catalog.seat(seat),
                self.catalog.get("seat-you", &[])
            )
        } else {
            format!("{} ({})", self.catalog.seat(seat), self.names[seat])
        }
    }

    /// A suit's mark.
    pub fn suit_mark(&self, suit: Suit) -> String {
        match self.suits {
            SuitStyle::Symbols => suit.symbol().to_string(),
            SuitStyle::Letters => suit.letter().to_string(),
        }
    }

    /// A card: `A♠` or `AS`; the joker is `JK`.
    pub fn card(&self, card: Card) -> String {
        match self.suits {
            SuitStyle::Symbols => card.symbolic(),
            SuitStyle::Letters => card.to_string(),
        }
    }

    /// An action for a player to read.
    pub fn action(&self, action: Action) -> String {
        match action {
            Action::Play(card) => self.card(card),
            other => self.catalog.action(other),
        }
    }

    /// A hand grouped by suit in the shared hand order
    /// ([`torite_i18n::present::hand_order`]): `♠ A K | ♥ Q 2 | JK`.
    pub fn hand(&self, view: &View<'_>, hand: CardSet) -> String {
        let mut groups: Vec<(Option<Suit>, Vec<String>)> = Vec::new();
        for card in torite_i18n::present::hand_order(view.rules(), view.trump(), hand) {
            let rank = card
                .rank()
                .map_or_else(|| "JK".to_owned(), |r| r.letter().to_string());
            match groups.last_mut() {
                Some((suit, ranks)) if *suit == card.suit() => ranks.push(rank),
                _ => groups.push((card.suit(), vec![rank])),
            }
        }
        groups
            .into_iter()
            .map(|(suit, ranks)| match suit {
                Some(suit) => format!("{} {}", self.suit_mark(suit), ranks.join(" ")),
                None => ranks.join(" "),
            })
            .collect::<Vec<_>>()
            .join(" | ")
    }

    /// The trump line.
    pub fn trump(&self, trump: Trump) -> String {
        match trump {
            Trump::None => self.t("trump-none", &[]),
            Trump::Suit(s) => self.t(
                "trump",
                &[(
                    "trump",
                    format!("{} {}", self.suit_mark(s), self.catalog.suit(s)),
                )],
            ),
            Trump::JokerOnly => self.t("trump-joker", &[]),
        }
    }

    /// A list of seats.
    pub fn seats(&self, seats: impl IntoIterator<Item = Seat>) -> String {
        seats
            .into_iter()
            .map(|s| self.seat(s))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The legal actions in order, as the menu shows them.
    pub fn menu(&self, view: &View<'_>) -> Vec<Action> {
        let legal = view.legal_actions();
        // The order of the hand's line.
        let cards = torite_i18n::present::hand_order(view.rules(), view.trump(), legal.cards);
        let mut menu: Vec<Action> = cards.into_iter().map(Action::Play).collect();
        menu.extend(legal.iter().filter(|a| !matches!(a, Action::Play(_))));
        menu
    }
}
