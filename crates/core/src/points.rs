//! Card points: what the cards a seat captures are worth (RULES.md 2.1 and 3), counted beside
//! the scoring that reads them.
//!
//! [`Ruleset::points_of`] counts a seat's points from what it captured ([`Captured`]), and
//! [`crate::Deal::card_points`] asks it; [`Ruleset::card_value`] values one card as play goes,
//! [`Ruleset::most_points`] bounds what cards still to be won can bring, and
//! [`Ruleset::card_point_total`] is what a whole deal holds (157, 121, 16 to 20).

use crate::card::{Card, CardSet, Rank, Suit};
use crate::ruleset::{CardPoints, Ranking, Ruleset, Trump, TrumpRule};

/// What one seat has captured in a deal, as its card points are counted.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Captured {
    /// The cards it has won in tricks.
    pub cards: CardSet,
    /// Mura: the tricks it won with an ace.
    pub ace_wins: u8,
    /// Whether it won the last trick of a deal in which every trick was played.
    pub last_trick: bool,
}

/// The rank bit of `rank` in a lane.
const fn bit(rank: Rank) -> u16 {
    1 << rank.index()
}

/// Jass values of plain cards: A 11, K 4, Q 3, J 2, T 10 (RULES.md 2.1).
const JASS_VALUES: [(Rank, u32); 5] = [
    (Rank::ACE, 11),
    (Rank::KING, 4),
    (Rank::QUEEN, 3),
    (Rank::JACK, 2),
    (Rank::TEN, 10),
];

/// What the trump Jack and Nine are worth above their plain value under the Jass trump order
/// (J 20 in all, 9 14).
const TRUMP_JACK_EXTRA: u32 = 18;
const TRUMP_NINE_EXTRA: u32 = 14;
/// What each Eight is worth in a deal that ends with no trump, where the rules count them.
const NO_TRUMP_EIGHT: u32 = 8;

impl CardPoints {
    /// The ranks worth points whatever the trump, as lane bits (bit `rank.index()`): Mura's
    /// counting cards K, Q, J and A; the Jass A, K, Q, J and T; none without card points.
    #[must_use]
    pub const fn counting_ranks(self) -> u16 {
        match self {
            CardPoints::None => 0,
            CardPoints::Mura => {
                bit(Rank::KING) | bit(Rank::QUEEN) | bit(Rank::JACK) | bit(Rank::ACE)
            }
            CardPoints::Jass { .. } => {
                bit(Rank::ACE)
                    | bit(Rank::KING)
                    | bit(Rank::QUEEN)
                    | bit(Rank::JACK)
                    | bit(Rank::TEN)
            }
        }
    }
}

impl Ruleset {
    /// Whether the trump Jack and Nine count at their Jass trump values (J 20, 9 14).
    const fn trump_values(&self) -> bool {
        matches!(self.trump_ranking, Ranking::JassTrump)
    }

    /// A seat's card points from what it captured, with `trump` the trump known so far and
    /// `over` whether the deal has ended (RULES.md 2.1; Eights count only once a deal has
    /// ended with no trump set): Jass values with the trump Jack and Nine and the joker, the
    /// last-trick bonus, or Mura's counting cards and the point of each ace that won its own
    /// trick.
    #[must_use]
    pub fn points_of(&self, captured: &Captured, trump: Trump, over: bool) -> u32 {
        let won = captured.cards;
        let count = |ranks: u16| (won & CardSet::of_ranks(ranks)).len() as u32;
        match self.card_points {
            CardPoints::None => 0,
            CardPoints::Mura => {
                count(self.card_points.counting_ranks()) + u32::from(captured.ace_wins)
            }
            CardPoints::Jass {
                no_trump_eights,
                joker,
            } => {
                let mut points: u32 = JASS_VALUES
                    .iter()
                    .map(|(rank, value)| value * count(bit(*rank)))
                    .sum();
                if won.contains(Card::JOKER) {
                    points += u32::from(joker);
                }
                match trump {
                    Trump::Suit(trump) if self.trump_values() => {
                        if won.contains(Card::new(trump, Rank::JACK)) {
                            points += TRUMP_JACK_EXTRA;
                        }
                        if won.contains(Card::new(trump, Rank::NINE)) {
                            points += TRUMP_NINE_EXTRA;
                        }
                    }
                    Trump::None if no_trump_eights && over => {
                        points += NO_TRUMP_EIGHT * count(bit(Rank::EIGHT));
                    }
                    _ => {}
                }
                if captured.last_trick {
                    points += u32::from(self.last_trick_bonus);
                }
                points
            }
        }
    }

    /// What one captured card is worth with `trump` in force, as play goes: the Jass value (the
    /// trump Jack and Nine at their trump values, the joker its value) or one for a Mura
    /// counting card. Left out, as they are not any one card's: Mura's point for an ace that
    /// wins its own trick, the Eights of a deal that ends with no trump and the last-trick
    /// bonus ([`Ruleset::points_of`] counts them).
    #[must_use]
    pub fn card_value(&self, card: Card, trump: Trump) -> u32 {
        let captured = Captured {
            cards: CardSet::single(card),
            ..Captured::default()
        };
        self.points_of(&captured, trump, false)
    }

    /// The most card points capturing all of `cards` can bring one seat: each card at its
    /// highest value (a Mura ace with the point for winning its own trick; a Jass Jack and
    /// Nine at their trump values, an Eight at 8 where a deal without trump counts them) and
    /// the last-trick bonus. Exact for Mura; for Jass a bound, as only one suit is trump.
    #[must_use]
    pub fn most_points(&self, cards: CardSet) -> u32 {
        let count = |ranks: u16| (cards & CardSet::of_ranks(ranks)).len() as u32;
        match self.card_points {
            CardPoints::None => 0,
            CardPoints::Mura => count(self.card_points.counting_ranks()) + count(bit(Rank::ACE)),
            CardPoints::Jass {
                no_trump_eights, ..
            } => {
                let mut points = self.card_value_sum(cards, Trump::None);
                if self.trump_values() {
                    points += TRUMP_JACK_EXTRA * count(bit(Rank::JACK))
                        + TRUMP_NINE_EXTRA * count(bit(Rank::NINE));
                }
                if no_trump_eights {
                    points += NO_TRUMP_EIGHT * count(bit(Rank::EIGHT));
                }
                points + u32::from(self.last_trick_bonus)
            }
        }
    }

    fn card_value_sum(&self, cards: CardSet, trump: Trump) -> u32 {
        let captured = Captured {
            cards,
            ..Captured::default()
        };
        self.points_of(&captured, trump, false)
    }

    /// The card points of a whole deal in which every trick is played, as `(least, most)`:
    /// every card captured by someone, under each way the deal can end (with a trump suit or without, every Mura ace winning
    /// its own trick or none). 157 in the Jass games, 121 with the 33-card pack and joker, 16
    /// to 20 in Mura, 0 without card points.
    #[must_use]
    pub fn card_point_total(&self) -> (u32, u32) {
        let deck = self.deck();
        let count = |ranks: u16| (deck & CardSet::of_ranks(ranks)).len() as u32;
        match self.card_points {
            CardPoints::None => (0, 0),
            CardPoints::Mura => {
                let base = count(self.card_points.counting_ranks());
                (base, base + count(bit(Rank::ACE)))
            }
            CardPoints::Jass {
                no_trump_eights, ..
            } => {
                let base = self.card_value_sum(deck, Trump::None);
                let mut ends = Vec::with_capacity(2);
                // Without a trump (the only way in a game without trumps; in a game with them,
                // when every card followed suit), the Eights may count.
                let eights = if no_trump_eights {
                    NO_TRUMP_EIGHT * count(bit(Rank::EIGHT))
                } else {
                    0
                };
                ends.push(base + eights);
                if self.trump == TrumpRule::FirstOffSuit {
                    let extra = Suit::ALL
                        .into_iter()
                        .map(|suit| {
                            let trump = Trump::Suit(suit);
                            self.card_value_sum(deck, trump)
                        })
                        .collect::<Vec<_>>();
                    ends.extend(extra);
                }
                let bonus = u32::from(self.last_trick_bonus);
                let low = ends.iter().min().copied().unwrap_or(0);
                let high = ends.iter().max().copied().unwrap_or(0);
                (low + bonus, high + bonus)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::random_finished_deal;
    use crate::ruleset::Preset;

    #[test]
    fn card_point_totals_are_the_rules_own() {
        let expected = |p: Preset| match p {
            Preset::MittlereJass
            | Preset::MolotowJass
            | Preset::PlusMinusJass3
            | Preset::PlusMinusJass4
            | Preset::Middler => (157, 157),
            Preset::MiddlerJoker => (121, 121),
            Preset::Mura4 | Preset::Mura3 => (16, 20),
            _ => (0, 0),
        };
        for p in Preset::ALL {
            let rules = p.ruleset();
            assert_eq!(rules.card_point_total(), expected(p), "{p}");
            let (low, high) = rules.card_point_total();
            for seed in 0..40 {
                let deal = random_finished_deal(rules, seed);
                let sum: u32 = (0..deal.players()).map(|s| deal.card_points(s)).sum();
                assert!((low..=high).contains(&sum), "{p} seed {seed}: {sum}");
                let left =
                    rules.deck() - (0..deal.players()).fold(CardSet::EMPTY, |m, s| m | deal.won(s));
                assert!(
                    left.is_empty() || rules.lot.is_some(),
                    "{p}: every card captured"
                );
            }
        }
    }

    #[test]
    fn card_values_add_up_to_points_during_play() {
        for p in Preset::ALL {
            let rules = p.ruleset();
            let trumps = [Trump::None, Trump::Suit(Suit::Hearts), Trump::JokerOnly];
            for trump in trumps {
                let deck = rules.deck();
                let each: u32 = deck.iter().map(|c| rules.card_value(c, trump)).sum();
                let all = Captured {
                    cards: deck,
                    ..Captured::default()
                };
                assert_eq!(rules.points_of(&all, trump, false), each, "{p} {trump}");
                assert!(rules.most_points(deck) >= rules.card_point_total().1, "{p}");
            }
        }
        let mura = Preset::Mura4.ruleset();
        assert_eq!(mura.most_points(mura.deck()), 20);
        assert_eq!(mura.card_value("AS".parse().unwrap(), Trump::None), 1);
        assert_eq!(mura.card_value("TS".parse().unwrap(), Trump::None), 0);
        let jass = Preset::MittlereJass.ruleset();
        let jack: Card = "JH".parse().unwrap();
        assert_eq!(jass.card_value(jack, Trump::None), 2);
        assert_eq!(jass.card_value(jack, Trump::Suit(Suit::Hearts)), 20);
        assert_eq!(
            jass.card_value("9H".parse().unwrap(), Trump::Suit(Suit::Hearts)),
            14
        );
        let counting: CardSet = "KS QS JS AS".parse().unwrap();
        assert_eq!(
            CardSet::of_ranks(CardPoints::Mura.counting_ranks()).of_suit(Suit::Spades),
            counting
        );
    }
}
