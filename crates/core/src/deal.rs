//! One deal's state machine: whose turn it is, what they may do, and what happens when they do.
//!
//! A [`Deal`] is a plain value of fixed-size arrays and bitsets (no heap), so search can clone
//! it millions of times a second. Legality is computed as a set: [`Deal::legal_actions`] starts
//! from the hand and narrows it, one helper per rule, and [`Deal::apply`] checks an action
//! against the same rules, reporting the specific rule it breaks.

use crate::card::{Card, CardSet, Rank, Suit};
use crate::points::Captured;
use crate::ruleset::{
    FollowRule, JokerRule, LotTiming, MAX_SEATS, Ruleset, STRENGTH_TRUMP, Trump, TrumpRule,
};
use crate::seats::SeatSet;

mod action;
mod error;

pub use action::{Action, ActionSet, ParseActionError};
pub use error::{PlayError, SetupError};

pub use crate::seats::Seat;

/// The phase of a deal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Phase {
    /// 1989 Lot timing: seats are asked in turn before the first lead.
    LotQuestion,
    /// Cards are being played.
    Play,
    /// The leader must name a suit for the joker just led.
    CallSuit,
    /// The joker was just played as the trick's last card: its player says whether it wins
    /// (`joker:win`) or loses (`joker:lose`) before the trick is complete (three-player Mini
    /// Misère).
    SayJoker,
    /// The deal is over.
    Over,
}

/// A completed trick.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Trick {
    /// The seat that led.
    pub leader: Seat,
    /// The cards in the order played (only the first `len` are meaningful).
    cards: [Card; MAX_SEATS],
    len: u8,
    /// The seat that won it.
    pub winner: Seat,
}

impl Trick {
    /// The cards in the order played, from the leader's.
    #[must_use]
    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
}

/// The Lot as it stands in a deal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct LotState {
    /// Declaring seats, as a bit mask.
    pub declarers: u8,
    /// Declarers that have lost a trick.
    pub failed: u8,
}

impl LotState {
    /// The declaring seats.
    #[must_use]
    pub const fn declaring(&self) -> SeatSet {
        SeatSet::from_bits(self.declarers)
    }

    /// The declarers that have lost a trick.
    #[must_use]
    pub const fn failing(&self) -> SeatSet {
        SeatSet::from_bits(self.failed)
    }

    /// The declarers still in the Lot: they have won every trick so far.
    #[must_use]
    pub const fn in_play(&self) -> SeatSet {
        SeatSet::from_bits(self.declarers & !self.failed)
    }
}

/// The state of one deal.
///
/// ```
/// use torite_core::{Action, Deal, Preset};
/// let rules = Preset::MiniMisere4.ruleset();
/// let hands = ["AS KS QS JS TS 2S", "AH KH QH JH TH 2H", "AD KD QD JD TD 2D", "AC KC QC JC TC 2C"]
///     .map(|h| h.parse().unwrap());
/// let mut deal = Deal::new(rules, 3, &hands)?;
/// assert_eq!(deal.to_act(), 0);
/// deal.apply("2S".parse().unwrap())?;
/// // Seat 1 has no spade: any of its six cards, or the Lot as it plays to the first trick.
/// assert_eq!(deal.legal_actions().len(), 7);
/// # Ok::<_, Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Deal {
    rules: Ruleset,
    players: u8,
    dealer: u8,
    phase: Phase,
    to_act: u8,
    hands: [CardSet; MAX_SEATS],
    won: [CardSet; MAX_SEATS],
    tricks_won: [u8; MAX_SEATS],
    /// Mura: tricks each seat won with an ace.
    ace_wins: [u8; MAX_SEATS],
    /// Suits each seat has shown it holds none of (bit `suit.index()`).
    voids: [u8; MAX_SEATS],
    /// Cards each seat has shown it does not hold: every card that would have made one of its
    /// plays illegal (see [`Deal::excluded`]).
    excluded: [CardSet; MAX_SEATS],
    played: CardSet,
    completed: u8,
    leader: u8,
    trick: [Card; MAX_SEATS],
    trick_len: u8,
    led: Option<Suit>,
    best_seat: u8,
    best_strength: u8,
    /// The card currently winning the trick in progress.
    best_card: Card,
    /// The cards of the trick in progress, as a set.
    trick_set: CardSet,
    /// The number of tricks in the deal.
    tricks: u8,
    trump: Trump,
    lot: LotState,
    /// First-card timing: the acting seat has just declared and must now play its card.
    lot_pending: bool,
    last_trick: Option<Trick>,
}

impl Deal {
    /// Starts a deal from each seat's hand, checking that the hands are exactly the deck in
    /// equal shares. The first leader is the seat after the dealer.
    ///
    /// # Errors
    ///
    /// A [`SetupError`] naming the bad seat or card.
    pub fn new(rules: Ruleset, dealer: Seat, hands: &[CardSet]) -> Result<Deal, SetupError> {
        rules.validate().map_err(SetupError::Rules)?;
        let players = rules.players as usize;
        if dealer >= players {
            return Err(SetupError::BadDealer { dealer, players });
        }
        if hands.len() != players {
            return Err(SetupError::HandCount {
                given: hands.len(),
                players,
            });
        }
        let deck = rules.deck();
        let mut seen = CardSet::EMPTY;
        for hand in hands {
            if let Some(card) = (*hand - deck).first() {
                return Err(SetupError::NotInDeck(card));
            }
            if let Some(card) = (*hand & seen).first() {
                return Err(SetupError::Duplicate(card));
            }
            seen |= *hand;
        }
        let share = rules.tricks();
        for (seat, hand) in hands.iter().enumerate() {
            if hand.len() != share {
                return Err(SetupError::HandSize {
                    seat,
                    given: hand.len(),
                    expected: share,
                });
            }
        }
        if seen != deck {
            return Err(SetupError::Missing(deck - seen));
        }
        let mut all = [CardSet::EMPTY; MAX_SEATS];
        all[..players].copy_from_slice(hands);
        Ok(Deal::from_parts(rules, dealer, all))
    }

    /// Deals a uniformly random partition of the deck with `rng` (see [`crate::shuffle`]).
    ///
    /// # Panics
    ///
    /// For a ruleset that fails [`Ruleset::validate`] (no seats, a deck that does not divide);
    /// presets and rulesets built with [`Ruleset::from_options`] are always valid.
    pub fn random(rules: Ruleset, dealer: Seat, rng: &mut impl rand_core::Rng) -> Deal {
        let hands = crate::shuffle::deal_hands(&rules, rng);
        Deal::from_parts(rules, dealer % rules.players as usize, hands)
    }

    fn from_parts(rules: Ruleset, dealer: Seat, hands: [CardSet; MAX_SEATS]) -> Deal {
        let players = rules.players;
        let leader = (dealer as u8 + 1) % players;
        let asking = matches!(rules.lot, Some(lot) if lot.timing == LotTiming::BeforeLead);
        Deal {
            rules,
            players,
            dealer: dealer as u8,
            phase: if asking {
                Phase::LotQuestion
            } else {
                Phase::Play
            },
            to_act: leader,
            hands,
            won: [CardSet::EMPTY; MAX_SEATS],
            tricks_won: [0; MAX_SEATS],
            ace_wins: [0; MAX_SEATS],
            voids: [0; MAX_SEATS],
            excluded: [CardSet::EMPTY; MAX_SEATS],
            played: CardSet::EMPTY,
            completed: 0,
            leader,
            trick: [Card::JOKER; MAX_SEATS],
            trick_len: 0,
            led: None,
            best_seat: leader,
            best_strength: 0,
            best_card: Card::JOKER,
            trick_set: CardSet::EMPTY,
            tricks: rules.tricks() as u8,
            trump: Trump::None,
            lot: LotState {
                declarers: 0,
                failed: 0,
            },
            lot_pending: false,
            last_trick: None,
        }
    }

    /// The rules of this deal.
    #[must_use]
    pub const fn rules(&self) -> &Ruleset {
        &self.rules
    }

    /// The number of seats.
    #[must_use]
    pub const fn players(&self) -> usize {
        self.players as usize
    }

    /// The dealer's seat.
    #[must_use]
    pub const fn dealer(&self) -> Seat {
        self.dealer as usize
    }

    /// The current phase.
    #[must_use]
    pub const fn phase(&self) -> Phase {
        self.phase
    }

    /// The seat whose turn it is (meaningless once the deal is over).
    #[must_use]
    pub const fn to_act(&self) -> Seat {
        self.to_act as usize
    }

    /// Whether the deal is over: every trick played, or a failed Lot settled early.
    #[must_use]
    pub const fn is_over(&self) -> bool {
        matches!(self.phase, Phase::Over)
    }

    /// A seat's current hand. Hidden information: only for that seat, referees and solvers.
    #[must_use]
    pub const fn hand(&self, seat: Seat) -> CardSet {
        self.hands[seat]
    }

    /// Replaces a seat's hand (for determinised worlds, see [`crate::View::sample_world`]).
    pub(crate) fn set_hand(&mut self, seat: Seat, hand: CardSet) {
        self.hands[seat] = hand;
    }

    /// The cards a seat has captured in tricks.
    #[must_use]
    pub const fn won(&self, seat: Seat) -> CardSet {
        self.won[seat]
    }

    /// Tricks won per seat.
    #[must_use]
    pub fn tricks_won(&self) -> &[u8] {
        &self.tricks_won[..self.players()]
    }

    /// Every card played so far, the trick in progress included.
    #[must_use]
    pub const fn played(&self) -> CardSet {
        self.played
    }

    /// The suits `seat` has shown it holds none of, as a bit mask (bit `suit.index()`).
    ///
    /// Only certain inferences count: a Jass seat that trumps instead of following shows nothing.
    #[must_use]
    pub const fn voids(&self, seat: Seat) -> u8 {
        self.voids[seat]
    }

    /// The cards `seat` has shown it does not hold (some may since have been played by
    /// others): any of them in its hand would have made one of its plays illegal. Exactly the
    /// cards it cannot hold: every hand without them, together with the cards the seat has
    /// played, makes every one of its actions so far legal. What each play shows:
    ///
    /// - a card that does not follow: the led suit (with the joker, where it follows a trump
    ///   lead); in Handjass, if it is not a trump once trump exists, every trump too; in Jass,
    ///   an undertrump shows the led suit, another trump shows nothing, and a trump lead
    ///   answered off suit shows every trump but the trump Jack (RULES.md 2.3.4);
    /// - in Handjass, a card that follows without beating the best card so far: every card of
    ///   the led suit that would have beaten it (RULES.md 2.7);
    /// - nothing else: a lead, a 1989 joker not led, a Lot answer or declaration, a suit call,
    ///   the three-player joker's saying, a Jass trump that does not undertrump.
    #[must_use]
    pub const fn excluded(&self, seat: Seat) -> CardSet {
        self.excluded[seat]
    }

    /// The number of completed tricks.
    #[must_use]
    pub const fn tricks_completed(&self) -> usize {
        self.completed as usize
    }

    /// The seat that led (or is to lead) the current trick.
    #[must_use]
    pub const fn leader(&self) -> Seat {
        self.leader as usize
    }

    /// The cards of the trick in progress, from the leader's.
    #[must_use]
    pub fn current_trick(&self) -> &[Card] {
        &self.trick[..self.trick_len as usize]
    }

    /// The seat currently winning the trick in progress, if a card has been played to it.
    #[must_use]
    pub const fn winning(&self) -> Option<Seat> {
        if self.trick_len == 0 {
            None
        } else {
            Some(self.best_seat as usize)
        }
    }

    /// The suit to follow in the trick in progress (`None` before the lead, or when a led
    /// joker leaves the others free).
    #[must_use]
    pub const fn led(&self) -> Option<Suit> {
        self.led
    }

    /// The trump in force.
    #[must_use]
    pub const fn trump(&self) -> Trump {
        self.trump
    }

    /// The Lot declarations so far.
    #[must_use]
    pub const fn lot(&self) -> LotState {
        self.lot
    }

    /// The last completed trick.
    #[must_use]
    pub const fn last_trick(&self) -> Option<Trick> {
        self.last_trick
    }

    const fn next(&self, seat: u8) -> u8 {
        if seat + 1 == self.players {
            0
        } else {
            seat + 1
        }
    }

    /// The legal actions of the seat to act; empty once the deal is over.
    #[must_use]
    pub fn legal_actions(&self) -> ActionSet {
        match self.phase {
            Phase::Over => ActionSet::default(),
            Phase::LotQuestion => ActionSet {
                lot: true,
                pass: true,
                ..ActionSet::default()
            },
            Phase::CallSuit => ActionSet {
                calls: 0b1111,
                ..ActionSet::default()
            },
            Phase::SayJoker => ActionSet {
                joker: true,
                ..ActionSet::default()
            },
            Phase::Play => ActionSet {
                cards: self.legal_plays(),
                lot: self.may_declare_with_card(),
                ..ActionSet::default()
            },
        }
    }

    /// Whether `action` is legal now (the same as `legal_actions().contains(action)`).
    #[must_use]
    pub fn is_legal(&self, action: Action) -> bool {
        self.legal_actions().contains(action)
    }

    /// Whether the Lot may still be declared in this deal by some seat: before the first lead
    /// while the seats are asked (1989 timing), or until the first trick is complete
    /// (first-card timing). Always false in a game without the Lot.
    #[must_use]
    pub fn lot_open(&self) -> bool {
        match self.rules.lot {
            None => false,
            Some(lot) => match lot.timing {
                LotTiming::FirstCard => self.completed == 0,
                LotTiming::BeforeLead => self.phase == Phase::LotQuestion,
            },
        }
    }

    /// Whether the seat to act may declare the Lot with its card (first-card timing).
    #[must_use]
    pub fn may_declare_with_card(&self) -> bool {
        matches!(self.rules.lot, Some(lot) if lot.timing == LotTiming::FirstCard)
            && self.completed == 0
            && !self.lot_pending
    }

    /// The cards the seat to act may play (Play phase).
    #[must_use]
    pub fn legal_plays(&self) -> CardSet {
        let hand = self.hands[self.to_act as usize];
        if self.trick_len == 0 {
            return hand;
        }
        let Some(led) = self.led else {
            return hand; // a led joker left everyone free
        };
        let follow = self.following_cards(hand, led);
        match self.rules.follow {
            FollowRule::MustFollow => {
                if follow.is_empty() {
                    hand
                } else {
                    follow | self.free_joker(hand)
                }
            }
            FollowRule::Jass => match self.trump {
                Trump::Suit(trump) if trump == led => {
                    // 2.3.3 and its exception 2.3.4: the trump Jack alone need not be played.
                    let jack = CardSet::single(Card::new(trump, Rank::JACK));
                    if follow.is_empty() || follow == jack {
                        hand
                    } else {
                        follow
                    }
                }
                Trump::Suit(trump) if !follow.is_empty() => {
                    // 2.3.1: follow, or trump without undertrumping.
                    follow | self.trumps_above_best(hand.of_suit(trump))
                }
                _ => {
                    if follow.is_empty() {
                        hand
                    } else {
                        follow
                    }
                }
            },
            FollowRule::Handjass => {
                if !follow.is_empty() {
                    let beating = self.beating(follow);
                    if beating.is_empty() { follow } else { beating }
                } else {
                    match self.trump {
                        Trump::Suit(trump) if !hand.of_suit(trump).is_empty() => {
                            hand.of_suit(trump)
                        }
                        _ => hand,
                    }
                }
            }
        }
    }

    /// The cards of `hand` that follow `led`: the suit itself, and the joker when it belongs to
    /// the trump suit being led (Middler with joker).
    fn following_cards(&self, hand: CardSet, led: Suit) -> CardSet {
        let suit = hand.of_suit(led);
        if self.rules.joker == Some(JokerRule::HighestTrump) && self.trump == Trump::Suit(led) {
            suit | (hand & CardSet::single(Card::JOKER))
        } else {
            suit
        }
    }

    /// 1989 Mini Misère: the joker may be played at any time.
    fn free_joker(&self, hand: CardSet) -> CardSet {
        if self.rules.joker == Some(JokerRule::LeadWinsNamesSuit) {
            hand & CardSet::single(Card::JOKER)
        } else {
            CardSet::EMPTY
        }
    }

    /// The trumps of `trumps` that beat every trump already in the trick.
    fn trumps_above_best(&self, trumps: CardSet) -> CardSet {
        if self.best_strength < STRENGTH_TRUMP {
            return trumps;
        }
        self.beating(trumps)
    }

    /// The cards of `cards` that would beat the best card of the trick so far.
    fn beating(&self, cards: CardSet) -> CardSet {
        cards
            .iter()
            .filter(|c| self.rules.strength(*c, self.led, self.trump, false) > self.best_strength)
            .collect()
    }

    /// Applies an action of the seat to act.
    ///
    /// # Errors
    ///
    /// A [`PlayError`] naming the rule the action breaks; the deal is then unchanged.
    pub fn apply(&mut self, action: Action) -> Result<(), PlayError> {
        if let Some(err) = self.check(action) {
            return Err(err);
        }
        self.apply_unchecked(action);
        Ok(())
    }

    /// Why `action` is illegal now, if it is.
    #[must_use]
    pub fn check(&self, action: Action) -> Option<PlayError> {
        if self.is_legal(action) {
            return None;
        }
        Some(self.explain(action))
    }

    fn explain(&self, action: Action) -> PlayError {
        match (self.phase, action) {
            (Phase::Over, _) => PlayError::DealOver,
            (Phase::LotQuestion, _) => PlayError::MustAnswerLot,
            (Phase::CallSuit, _) => PlayError::MustCallSuit,
            (Phase::SayJoker, _) => PlayError::MustSayJoker,
            (Phase::Play, Action::Call(_)) => PlayError::NoCallExpected,
            (Phase::Play, Action::JokerWins | Action::JokerLoses) => PlayError::NoJokerSayExpected,
            (Phase::Play, Action::Pass) => PlayError::PassNotAllowed,
            (Phase::Play, Action::Lot) => PlayError::LotNotAllowed(match self.rules.lot {
                None => "this game has no Lot",
                Some(lot) if lot.timing == LotTiming::BeforeLead => {
                    "it is declared before the first lead, when asked"
                }
                Some(_) if self.lot_pending => "seat has already declared and must now play a card",
                Some(_) => "it is declared only with a seat's card to the first trick",
            }),
            (Phase::Play, Action::Play(card)) => self.explain_card(card),
        }
    }

    fn explain_card(&self, card: Card) -> PlayError {
        let hand = self.hands[self.to_act as usize];
        if !hand.contains(card) {
            return PlayError::NotInHand(card);
        }
        let led = self.led.unwrap_or(Suit::Spades);
        let follow = self.following_cards(hand, led);
        match (self.rules.follow, self.trump) {
            (FollowRule::Jass, Trump::Suit(trump)) if trump == led => {
                PlayError::MustPlayTrump { trump }
            }
            (FollowRule::Jass, Trump::Suit(trump))
                if card.suit() == Some(trump) && !follow.is_empty() =>
            {
                let best = self.trick[..self.trick_len as usize]
                    .iter()
                    .copied()
                    .filter(|c| c.suit() == Some(trump))
                    .max_by_key(|c| self.rules.strength(*c, self.led, self.trump, false))
                    .unwrap_or(card);
                PlayError::Undertrump { over: best }
            }
            (FollowRule::Handjass, trump) if follow.is_empty() => PlayError::MustTrump {
                trump: trump.suit().unwrap_or(led),
            },
            (FollowRule::Handjass, _) if follow.contains(card) => PlayError::MustBeat {
                best: self.best_card,
            },
            _ if card.is_joker() && self.rules.joker.is_some_and(JokerRule::only_when_void) => {
                PlayError::JokerOnlyWhenVoid { led }
            }
            _ => PlayError::MustFollow { led },
        }
    }

    /// Applies an action without checking it: for search over known-legal actions.
    ///
    /// # Panics
    ///
    /// Debug builds assert legality; in release builds an illegal action corrupts the deal.
    pub fn apply_unchecked(&mut self, action: Action) {
        debug_assert!(self.is_legal(action), "illegal {action} in {self:?}");
        match action {
            Action::Play(card) => self.play_card(card),
            Action::Lot => {
                self.lot.declarers |= SeatSet::single(self.to_act()).bits();
                match self.phase {
                    Phase::LotQuestion => {
                        self.phase = Phase::Play;
                        self.to_act = self.leader;
                    }
                    _ => self.lot_pending = true,
                }
            }
            Action::Pass => {
                self.to_act = self.next(self.to_act);
                if self.to_act == self.leader {
                    self.phase = Phase::Play;
                }
            }
            Action::Call(suit) => {
                self.led = Some(suit);
                self.phase = Phase::Play;
                self.to_act = self.next(self.to_act);
            }
            Action::JokerWins => {
                self.best_seat = self.to_act;
                self.best_card = Card::JOKER;
                self.phase = Phase::Play;
                self.complete_trick();
            }
            Action::JokerLoses => {
                self.phase = Phase::Play;
                self.complete_trick();
            }
        }
    }

    fn play_card(&mut self, card: Card) {
        let seat = self.to_act;
        self.hands[seat as usize].remove(card);
        self.played.insert(card);
        self.lot_pending = false;
        let leading = self.trick_len == 0;
        if leading {
            self.leader = seat;
            self.led = card.suit();
            if card.is_joker() {
                self.lead_joker();
            }
        } else {
            self.note_follow(seat, card);
        }
        let strength = self.rules.strength(card, self.led, self.trump, leading);
        if leading || strength > self.best_strength {
            self.best_strength = strength;
            self.best_seat = seat;
            self.best_card = card;
        }
        self.trick[self.trick_len as usize] = card;
        self.trick_set.insert(card);
        self.trick_len += 1;
        if self.phase == Phase::CallSuit {
            return; // the leader names a suit before anyone follows
        }
        if self.trick_len == self.players
            && card.is_joker()
            && !leading
            && self.rules.joker == Some(JokerRule::LastSays)
        {
            self.phase = Phase::SayJoker; // its player says whether it wins (RULES.md 1.7)
            return;
        }
        if self.trick_len == self.players {
            self.complete_trick();
        } else {
            self.to_act = self.next(seat);
        }
    }

    fn lead_joker(&mut self) {
        match self.rules.joker {
            Some(JokerRule::LeadWinsNamesSuit) => self.phase = Phase::CallSuit,
            Some(JokerRule::HighestTrump) => match self.trump {
                Trump::Suit(trump) => self.led = Some(trump),
                _ => self.trump = Trump::JokerOnly,
            },
            _ => {}
        }
    }

    /// Records what a card that is not the lead shows (see [`Deal::excluded`]), and sets trump
    /// if it is the first card off suit (RULES.md 2.2). Runs before the card enters the trick,
    /// so the best card so far is the one it was played against.
    fn note_follow(&mut self, seat: u8, card: Card) {
        let Some(led) = self.led else { return };
        let deck = self.rules.deck();
        let following = self.following_cards(deck, led);
        let shown = if following.contains(card) {
            match self.rules.follow {
                // Follow and beat when able: a card that does not beat shows none that would.
                FollowRule::Handjass
                    if self.rules.strength(card, self.led, self.trump, false)
                        <= self.best_strength =>
                {
                    self.beating(following)
                }
                _ => CardSet::EMPTY,
            }
        } else {
            match (self.rules.follow, self.trump) {
                // Jass: a trump lead answered off suit; the trump Jack may be held alone.
                (FollowRule::Jass, Trump::Suit(trump)) if trump == led => {
                    deck.of_suit(trump) - CardSet::single(Card::new(trump, Rank::JACK))
                }
                // Jass: trumping in shows nothing, undertrumping the led suit's void.
                (FollowRule::Jass, Trump::Suit(trump)) if card.suit() == Some(trump) => {
                    if self.trumps_above_best(CardSet::single(card)).is_empty() {
                        following
                    } else {
                        CardSet::EMPTY
                    }
                }
                (FollowRule::Handjass, Trump::Suit(trump)) if card.suit() != Some(trump) => {
                    following | deck.of_suit(trump)
                }
                // 1989 Mini Misère: the joker may be played at any time.
                _ if card.is_joker() && self.rules.joker == Some(JokerRule::LeadWinsNamesSuit) => {
                    CardSet::EMPTY
                }
                _ => following,
            }
        };
        if !shown.is_empty() {
            let s = seat as usize;
            self.excluded[s] |= shown;
            for suit in Suit::ALL {
                let cards = deck.of_suit(suit);
                if !cards.is_empty() && cards.is_subset(shown) {
                    self.voids[s] |= 1 << suit as u8;
                }
            }
        }
        if self.rules.trump == TrumpRule::FirstOffSuit
            && self.trump == Trump::None
            && !following.contains(card)
        {
            self.trump = match card.suit() {
                Some(suit) => Trump::Suit(suit),
                None => Trump::JokerOnly,
            };
        }
    }

    fn complete_trick(&mut self) {
        let winner = self.best_seat;
        let w = winner as usize;
        self.won[w] |= self.trick_set;
        self.trick_set = CardSet::EMPTY;
        self.tricks_won[w] += 1;
        if self.best_card.rank() == Some(Rank::ACE) {
            self.ace_wins[w] += 1;
        }
        self.last_trick = Some(Trick {
            leader: self.leader as usize,
            cards: self.trick,
            len: self.trick_len,
            winner: w,
        });
        self.completed += 1;
        self.trick_len = 0;
        self.led = None;
        self.best_strength = 0;
        self.leader = winner;
        self.to_act = winner;
        if self.lot.declarers != 0 {
            self.lot.failed |= (self.lot.declaring() - SeatSet::single(w)).bits();
            if self.lot.failed == self.lot.declarers {
                self.phase = Phase::Over; // RULES.md 1.4: a failed Lot ends the deal at once
                return;
            }
        }
        if self.completed == self.tricks {
            self.phase = Phase::Over;
        }
    }

    /// Whether every trick of the deal was played (false for a Lot settled early).
    #[must_use]
    pub fn all_tricks_played(&self) -> bool {
        self.completed == self.tricks
    }

    /// Card points captured by `seat`, with the last-trick bonus once the deal is complete,
    /// valued with the trump known so far (RULES.md 2.1; 8s count 0 until a deal ends with no
    /// trump set): [`Ruleset::points_of`] what the seat has captured.
    #[must_use]
    pub fn card_points(&self, seat: Seat) -> u32 {
        let captured = Captured {
            cards: self.won[seat],
            ace_wins: self.ace_wins[seat],
            last_trick: self.all_tricks_played()
                && self.last_trick.is_some_and(|t| t.winner == seat),
        };
        self.rules.points_of(&captured, self.trump, self.is_over())
    }
}

/// A deal of `rules` played to its end with random legal actions from `seed`, for the tests
/// that check what holds at the end of every deal.
#[cfg(test)]
pub(crate) fn random_finished_deal(rules: Ruleset, seed: u64) -> Deal {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;

    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut deal = Deal::random(rules, 0, &mut rng);
    while !deal.is_over() {
        let legal = deal.legal_actions();
        let action = legal.nth(crate::shuffle::below(&mut rng, legal.len() as u32) as usize);
        deal.apply(action.expect("a legal action")).expect("legal");
    }
    deal
}

#[cfg(test)]
mod tests;
