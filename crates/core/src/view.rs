//! What one seat may know about a deal: an information set.
//!
//! A [`View`] is a whitelist over a [`Deal`]: it hands out the seat's own hand and the public
//! facts, and has no method that reveals another seat's cards. Bots, the terminal game and the
//! server's messages to a seat are built from a `View`, so hidden cards cannot leak.

use crate::card::{Card, CardSet, Suit};
use crate::deal::{ActionSet, Deal, LotState, Phase, Seat, Trick};
use crate::ruleset::{Ruleset, Trump};

/// One seat's view of a deal.
#[derive(Clone, Copy, Debug)]
pub struct View<'a> {
    deal: &'a Deal,
    seat: Seat,
}

impl<'a> View<'a> {
    /// The view of `seat`.
    #[must_use]
    pub const fn new(deal: &'a Deal, seat: Seat) -> View<'a> {
        View { deal, seat }
    }

    /// The viewing seat.
    #[must_use]
    pub const fn seat(&self) -> Seat {
        self.seat
    }

    /// The rules.
    #[must_use]
    pub const fn rules(&self) -> &Ruleset {
        self.deal.rules()
    }

    /// The viewing seat's hand.
    #[must_use]
    pub const fn hand(&self) -> CardSet {
        self.deal.hand(self.seat)
    }

    /// The number of cards each seat still holds.
    #[must_use]
    pub fn hand_sizes(&self) -> Vec<usize> {
        (0..self.deal.players()).map(|s| self.hand_len(s)).collect()
    }

    /// How many cards `seat` holds.
    #[must_use]
    pub fn hand_len(&self, seat: Seat) -> usize {
        self.deal.hand(seat).len()
    }

    /// The cards no one has played and the viewer does not hold: the other seats' cards.
    #[must_use]
    pub fn unseen(&self) -> CardSet {
        self.rules().deck() - self.deal.played() - self.hand()
    }

    /// The seat to act, the phase, the dealer and the leader.
    #[must_use]
    pub const fn to_act(&self) -> Seat {
        self.deal.to_act()
    }

    /// The phase.
    #[must_use]
    pub const fn phase(&self) -> Phase {
        self.deal.phase()
    }

    /// The dealer.
    #[must_use]
    pub const fn dealer(&self) -> Seat {
        self.deal.dealer()
    }

    /// The seat that led the trick in progress.
    #[must_use]
    pub const fn leader(&self) -> Seat {
        self.deal.leader()
    }

    /// The trick in progress, from the leader's card.
    #[must_use]
    pub fn current_trick(&self) -> &[Card] {
        self.deal.current_trick()
    }

    /// The seat currently winning the trick in progress.
    #[must_use]
    pub const fn winning(&self) -> Option<Seat> {
        self.deal.winning()
    }

    /// The suit to follow.
    #[must_use]
    pub const fn led(&self) -> Option<Suit> {
        self.deal.led()
    }

    /// The last completed trick.
    #[must_use]
    pub const fn last_trick(&self) -> Option<Trick> {
        self.deal.last_trick()
    }

    /// Every card played so far.
    #[must_use]
    pub const fn played(&self) -> CardSet {
        self.deal.played()
    }

    /// Suits `seat` has shown it holds none of (bit `suit.index()`).
    #[must_use]
    pub const fn voids(&self, seat: Seat) -> u8 {
        self.deal.voids(seat)
    }

    /// The trump in force.
    #[must_use]
    pub const fn trump(&self) -> Trump {
        self.deal.trump()
    }

    /// Lot declarations.
    #[must_use]
    pub const fn lot(&self) -> LotState {
        self.deal.lot()
    }

    /// Tricks won per seat.
    #[must_use]
    pub fn tricks_won(&self) -> &[u8] {
        self.deal.tricks_won()
    }

    /// Cards `seat` has captured (tricks are public once played).
    #[must_use]
    pub const fn won(&self, seat: Seat) -> CardSet {
        self.deal.won(seat)
    }

    /// Card points captured so far per seat.
    #[must_use]
    pub fn card_points(&self) -> Vec<u32> {
        (0..self.deal.players())
            .map(|s| self.deal.card_points(s))
            .collect()
    }

    /// Whether the viewer, to act, would be winning the trick in progress right after playing
    /// `card` (or would win it, if `card` completes it). Uses only public facts and the
    /// viewer's own card.
    #[must_use]
    pub fn wins_with(&self, card: Card) -> bool {
        if self.deal.to_act() != self.seat || !self.deal.legal_plays().contains(card) {
            return false;
        }
        let mut after = self.deal.clone();
        let before = after.tricks_completed();
        after.apply_unchecked(crate::deal::Action::Play(card));
        if after.tricks_completed() > before {
            after.last_trick().is_some_and(|t| t.winner == self.seat)
        } else {
            after.winning() == Some(self.seat)
        }
    }

    /// The number of tricks completed.
    #[must_use]
    pub const fn tricks_completed(&self) -> usize {
        self.deal.tricks_completed()
    }

    /// The viewer's legal actions when it is to act, otherwise none.
    #[must_use]
    pub fn legal_actions(&self) -> ActionSet {
        if self.deal.to_act() == self.seat && !self.deal.is_over() {
            self.deal.legal_actions()
        } else {
            ActionSet::default()
        }
    }
}

impl View<'_> {
    /// The deal with the other seats' hands replaced by `hands` (the viewer's own entry is
    /// ignored). The caller is responsible for giving a consistent assignment, as
    /// [`View::sample_world`] does.
    #[must_use]
    pub fn world(&self, hands: &[CardSet]) -> Deal {
        let mut deal = self.deal.clone();
        for (seat, hand) in hands.iter().enumerate().take(deal.players()) {
            if seat != self.seat {
                deal.set_hand(seat, *hand);
            }
        }
        deal
    }

    /// The cards `seat` may hold as far as this view knows: the unseen cards it has not shown
    /// it lacks ([`Deal::excluded`]: the suits it did not follow, and what Handjass's "beat
    /// when able", Jass's undertrump and trump-lead rules and the joker's rules reveal). Every
    /// hand of these cards, of the right size, makes the seat's actions so far legal.
    #[must_use]
    pub fn possible(&self, seat: Seat) -> CardSet {
        if seat == self.seat {
            return self.hand();
        }
        self.unseen() - self.deal.excluded(seat)
    }

    /// The cards `seat` has shown it does not hold ([`Deal::excluded`]); public facts, as
    /// every seat saw the same plays.
    #[must_use]
    pub const fn excluded(&self, seat: Seat) -> CardSet {
        self.deal.excluded(seat)
    }
}
