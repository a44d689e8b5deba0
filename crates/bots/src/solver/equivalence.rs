//! Rank-equivalent cards: which cards of the hand to act win and lose the same tricks and are
//! worth the same, so that only one of them is searched (module documentation of [`super`]).

use super::*;

/// One card of each class of equivalent cards among `cards` (all of the hand to act): the
/// lowest of each class in the cards' bit order, the joker and the cards never equivalent to
/// another kept as they are.
pub(crate) fn representatives(deal: &Deal, cards: CardSet) -> CardSet {
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
pub(super) struct Equivalence<'a> {
    deal: &'a Deal,
    /// Per suit, as rank bits: the cards outside the hand to act that are not gone in a
    /// completed trick (the trick in progress counts as live).
    live: [u16; 4],
    /// The low cards that win when led (never equivalent to another card).
    special: CardSet,
}

impl Equivalence<'_> {
    pub(super) fn new(deal: &Deal) -> Equivalence<'_> {
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
    pub(super) fn equivalent(&self, a: Card, b: Card) -> bool {
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
