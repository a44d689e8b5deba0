//! Words for the table, shared by the plain and the full-screen interfaces.

use torite_core::{Action, Card, CardSet, Seat, Suit, Trump, View};
use torite_i18n::Catalog;

/// `text` followed by blanks up to `width` terminal columns (Japanese characters take two).
pub fn pad(text: &str, width: usize) -> String {
    let used = ratatui::text::Span::raw(text).width();
    format!("{text}{}", " ".repeat(width.saturating_sub(used)))
}

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

    /// A hand grouped by suit, high ranks first: `♠ A K | ♥ Q 2 | JK`.
    pub fn hand(&self, view: &View<'_>, hand: CardSet) -> String {
        let rules = view.rules();
        let mut groups = Vec::new();
        for suit in Suit::ALL {
            let mut cards: Vec<Card> = hand.of_suit(suit).iter().collect();
            if cards.is_empty() {
                continue;
            }
            let order = if view.trump() == Trump::Suit(suit) {
                rules.trump_ranking
            } else {
                rules.ranking
            };
            cards.sort_by_key(|c| std::cmp::Reverse(c.rank().map_or(0, |r| order.strength(r))));
            let ranks: Vec<String> = cards
                .iter()
                .filter_map(|c| c.rank())
                .map(|r| r.letter().to_string())
                .collect();
            groups.push(format!("{} {}", self.suit_mark(suit), ranks.join(" ")));
        }
        if hand.contains(Card::JOKER) {
            groups.push("JK".to_owned());
        }
        groups.join(" | ")
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
        let mut cards: Vec<Card> = legal.cards.iter().collect();
        let rules = view.rules();
        // The order of the hand's line: trumps in trump order.
        cards.sort_by_key(|c| {
            let suit = c.suit().map_or(4, |s| s as u8);
            let order = match c.suit() {
                Some(s) if view.trump() == Trump::Suit(s) => rules.trump_ranking,
                _ => rules.ranking,
            };
            let strength = c.rank().map_or(99, |r| order.strength(r));
            (suit, std::cmp::Reverse(strength))
        });
        let mut menu: Vec<Action> = cards.into_iter().map(Action::Play).collect();
        menu.extend(legal.iter().filter(|a| !matches!(a, Action::Play(_))));
        menu
    }
}
