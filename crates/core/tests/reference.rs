//! A naive, independent reference move generator, written straight from the rule text of
//! `RULES.md`, OpenSpiel style: its own state (hands as `Vec<Card>`, the trick as
//! `Vec<(seat, Card)>`), its own legal-actions and apply functions, its own rank orders.
//!
//! It shares only the vocabulary with the engine (`Card`, `Suit`, `Rank`, `Action`) and reads
//! the options of a `Ruleset` (players, deck, rankings, low card, joker, Lot, trump and follow
//! rules). It never calls the engine's `Deal` or `Ruleset::strength`: the perft counts frozen in
//! `tests/data/*.perft` come from here, and the differential tests of `perft.rs` compare the
//! two generators position by position. Clarity over speed: every rule is one visible branch
//! with the section of `RULES.md` it comes from.

use torite_core::{
    Action, Card, FollowRule, JokerRule, LotTiming, Rank, Ranking, Ruleset, Suit, TrumpRule,
};

/// A plain suit, high to low (RULES.md 0, 1.1, 2.1): A K Q J T 9 8 7 6 2.
const PLAIN: [Rank; 10] = [
    Rank::ACE,
    Rank::KING,
    Rank::QUEEN,
    Rank::JACK,
    Rank::TEN,
    Rank::NINE,
    Rank::EIGHT,
    Rank::SEVEN,
    Rank::SIX,
    Rank::TWO,
];

/// The Jass trump suit, high to low (RULES.md 2.1): J 9 A K Q T 8 7 6.
const JASS_TRUMP: [Rank; 9] = [
    Rank::JACK,
    Rank::NINE,
    Rank::ACE,
    Rank::KING,
    Rank::QUEEN,
    Rank::TEN,
    Rank::EIGHT,
    Rank::SEVEN,
    Rank::SIX,
];

/// Mura, high to low (RULES.md 3): T 9 A K Q J 8 7 6.
const MURA: [Rank; 9] = [
    Rank::TEN,
    Rank::NINE,
    Rank::ACE,
    Rank::KING,
    Rank::QUEEN,
    Rank::JACK,
    Rank::EIGHT,
    Rank::SEVEN,
    Rank::SIX,
];

/// The written order of a ranking, high to low.
fn order(ranking: Ranking) -> &'static [Rank] {
    match ranking {
        Ranking::AceHigh => &PLAIN,
        Ranking::JassTrump => &JASS_TRUMP,
        Ranking::TenNineAce => &MURA,
        other => panic!("reference: no written order for {other:?}"),
    }
}

/// How high a rank stands in a ranking: the higher, the stronger.
fn height(ranking: Ranking, rank: Rank) -> usize {
    let order = order(ranking);
    let pos = order
        .iter()
        .position(|r| *r == rank)
        .unwrap_or_else(|| panic!("reference: {rank} is not in the order {ranking:?}"));
    order.len() - pos
}

/// The trump in force during a deal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RefTrump {
    /// No trump (yet).
    None,
    /// A trump suit.
    Suit(Suit),
    /// Middler with joker: the joker came first and is the only trump (RULES.md 2.8).
    JokerOnly,
}

/// Where a deal stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RefPhase {
    /// 1989 Lot timing: the seats are asked in turn before the first lead (RULES.md 1.4).
    Asking,
    /// Cards are played.
    Play,
    /// 1989 joker: the leader names a suit right after leading the joker (RULES.md 1.3).
    CallSuit,
    /// Three-player joker: it was played as the trick's last card and its player says
    /// whether it wins (RULES.md 1.7).
    SayJoker,
    /// The deal is over.
    Over,
}

/// One deal, the naive way.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RefState {
    /// The rules (only its option fields are read).
    pub rules: Ruleset,
    /// The number of seats.
    pub n: usize,
    /// Each seat's remaining cards.
    pub hands: Vec<Vec<Card>>,
    /// The trick in progress: (seat, card) in the order played.
    pub trick: Vec<(usize, Card)>,
    /// The seat that leads (or led) the trick in progress.
    pub leader: usize,
    /// The seat to act.
    pub to_act: usize,
    /// The suit to follow in the trick in progress (`None` before the lead, and after a led
    /// joker that leaves everyone free).
    pub led: Option<Suit>,
    /// The trump in force.
    pub trump: RefTrump,
    /// The phase.
    pub phase: RefPhase,
    /// Seats that declared the Lot, in the order they declared.
    pub declarers: Vec<usize>,
    /// Declarers that have lost a trick.
    pub fallen: Vec<usize>,
    /// First-card timing: the seat to act has just said `lot` and must now play its card.
    pub just_declared: bool,
    /// Completed tricks.
    pub tricks_played: usize,
    /// Tricks won per seat.
    pub tricks_won: Vec<usize>,
    /// Cards captured per seat.
    pub captured: Vec<Vec<Card>>,
    /// Completed tricks: (leader, cards, winner).
    pub history: Vec<(usize, Vec<Card>, usize)>,
}

impl RefState {
    /// A new deal: each seat's hand, the dealer; the seat after the dealer leads (RULES.md 0).
    pub fn new(rules: Ruleset, dealer: usize, hands: &[Vec<Card>]) -> RefState {
        let n = rules.players as usize;
        assert_eq!(hands.len(), n, "reference: one hand per seat");
        let share = rules.deck().len() / n;
        let mut all: Vec<Card> = hands.iter().flatten().copied().collect();
        assert!(
            hands.iter().all(|h| h.len() == share),
            "reference: equal shares"
        );
        all.sort();
        all.dedup();
        assert_eq!(
            all.len(),
            rules.deck().len(),
            "reference: hands are the deck"
        );
        assert!(
            all.iter().all(|c| rules.deck().contains(*c)),
            "reference: hands are the deck"
        );
        let leader = (dealer + 1) % n;
        // 1.4: under the 1989 timing the asking comes before the first lead.
        let asking = rules
            .lot
            .is_some_and(|lot| lot.timing == LotTiming::BeforeLead);
        RefState {
            rules,
            n,
            hands: hands.to_vec(),
            trick: Vec::new(),
            leader,
            to_act: leader,
            led: None,
            trump: RefTrump::None,
            phase: if asking {
                RefPhase::Asking
            } else {
                RefPhase::Play
            },
            declarers: Vec::new(),
            fallen: Vec::new(),
            just_declared: false,
            tricks_played: 0,
            tricks_won: vec![0; n],
            captured: vec![Vec::new(); n],
            history: Vec::new(),
        }
    }

    /// The number of tricks of a whole deal.
    pub fn total_tricks(&self) -> usize {
        self.rules.deck().len() / self.n
    }

    /// Whether the deal is over.
    pub fn is_over(&self) -> bool {
        self.phase == RefPhase::Over
    }

    /// Whether `card` counts as a trump now.
    fn is_trump(&self, card: Card) -> bool {
        match self.trump {
            RefTrump::None => false,
            // 2.8: the joker belongs to the trump suit once trump exists.
            RefTrump::Suit(t) => {
                card.suit() == Some(t)
                    || (card.is_joker() && self.rules.joker == Some(JokerRule::HighestTrump))
            }
            RefTrump::JokerOnly => card.is_joker(),
        }
    }

    /// The height of a trump in the trump order; the joker (2.8) above every other.
    fn trump_height(&self, card: Card) -> usize {
        match card.rank() {
            None => 1000,
            Some(rank) => height(self.rules.trump_ranking, rank),
        }
    }

    /// The winner of a (possibly partial) trick with the trump in force now.
    pub fn winner_of(&self, cards: &[(usize, Card)]) -> usize {
        let (leader, lead) = cards[0];
        // 1.3 and 2.8: a led joker wins its trick.
        if lead.is_joker() {
            return leader;
        }
        // 2.3: the highest trump wins; a joker that is a trump is the highest (2.8).
        if let Some((seat, _)) = cards
            .iter()
            .filter(|(_, c)| self.is_trump(*c))
            .max_by_key(|(_, c)| self.trump_height(*c))
        {
            return *seat;
        }
        // 1.2: a led low card beats every card of its suit.
        if self.rules.led_low_wins && lead.rank().is_some() && lead.rank() == self.rules.low_card {
            return leader;
        }
        // Otherwise the highest card of the led suit; a joker that is not led always loses.
        let suit = lead.suit();
        let (seat, _) = cards
            .iter()
            .filter(|(_, c)| !c.is_joker() && c.suit() == suit)
            .max_by_key(|(_, c)| height(self.rules.ranking, c.rank().expect("not a joker")))
            .expect("the lead follows its own suit");
        *seat
    }

    /// Whether the seat to act would be winning the trick by playing `card` (which follows
    /// suit, so the trump does not change).
    fn would_win(&self, card: Card) -> bool {
        let mut cards = self.trick.clone();
        cards.push((self.to_act, card));
        self.winner_of(&cards) == self.to_act
    }

    /// The cards the seat to act may play.
    pub fn legal_cards(&self) -> Vec<Card> {
        let hand = &self.hands[self.to_act];
        let anything = hand.clone();
        // The leader may lead any card.
        if self.trick.is_empty() {
            return anything;
        }
        // 1.3 (current) and 2.8: after a led joker every other seat may play any card.
        let Some(led) = self.led else {
            return anything;
        };
        // The cards that follow: the led suit, and the joker when it belongs to a trump suit
        // that was led (2.8).
        let following: Vec<Card> = hand
            .iter()
            .copied()
            .filter(|c| {
                c.suit() == Some(led)
                    || (c.is_joker()
                        && self.rules.joker == Some(JokerRule::HighestTrump)
                        && self.trump == RefTrump::Suit(led))
            })
            .collect();
        match self.rules.follow {
            FollowRule::MustFollow => {
                if following.is_empty() {
                    return anything;
                }
                let mut out = following;
                // 1.3 (1989): the joker may be played at any time, even by a seat that could
                // follow. (Current rules: only by a void seat, i.e. only via `anything`.)
                if self.rules.joker == Some(JokerRule::LeadWinsNamesSuit)
                    && hand.contains(&Card::JOKER)
                {
                    out.push(Card::JOKER);
                }
                out
            }
            FollowRule::Jass => match self.trump {
                // 2.2: no trump yet: follow when able, any card otherwise.
                RefTrump::None | RefTrump::JokerOnly => {
                    if following.is_empty() {
                        anything
                    } else {
                        following
                    }
                }
                RefTrump::Suit(t) if t == led => {
                    // 2.3.3: trump led: a seat holding a trump must play a trump;
                    // 2.3.4: ... unless its only trump is the trump Jack.
                    if following.is_empty() || following == [Card::new(t, Rank::JACK)] {
                        anything
                    } else {
                        following
                    }
                }
                RefTrump::Suit(t) => {
                    // 2.3.2: a seat that cannot follow may play anything, a low trump included.
                    if following.is_empty() {
                        return anything;
                    }
                    // 2.3.1: follow, or trump, but not lower than a trump already in the trick.
                    let top = self
                        .trick
                        .iter()
                        .filter(|(_, c)| self.is_trump(*c))
                        .map(|(_, c)| self.trump_height(*c))
                        .max();
                    let mut out = following;
                    for card in hand {
                        if card.suit() == Some(t)
                            && top.is_none_or(|top| self.trump_height(*card) > top)
                        {
                            out.push(*card);
                        }
                    }
                    out
                }
            },
            FollowRule::Handjass => {
                if !following.is_empty() {
                    // 2.7: follow, and beat the best card so far when able.
                    let beating: Vec<Card> = following
                        .iter()
                        .copied()
                        .filter(|c| self.would_win(*c))
                        .collect();
                    if beating.is_empty() {
                        following
                    } else {
                        beating
                    }
                } else if let RefTrump::Suit(t) = self.trump {
                    // 2.7: void: a trump if the seat holds one (any trump), otherwise any card.
                    let trumps: Vec<Card> = hand
                        .iter()
                        .copied()
                        .filter(|c| c.suit() == Some(t))
                        .collect();
                    if trumps.is_empty() { anything } else { trumps }
                } else {
                    // 2.7: before trump exists, a void seat plays any card (and sets trump).
                    anything
                }
            }
        }
    }

    /// Whether the seat to act may say `lot` now (first-card timing, 1.4).
    fn may_declare_with_card(&self) -> bool {
        self.rules
            .lot
            .is_some_and(|lot| lot.timing == LotTiming::FirstCard)
            && self.tricks_played == 0
            && !self.just_declared
    }

    /// The legal actions, in no particular order.
    pub fn legal_actions(&self) -> Vec<Action> {
        match self.phase {
            RefPhase::Over => Vec::new(),
            RefPhase::Asking => vec![Action::Lot, Action::Pass],
            RefPhase::CallSuit => Suit::ALL.into_iter().map(Action::Call).collect(),
            RefPhase::SayJoker => vec![Action::JokerWins, Action::JokerLoses],
            RefPhase::Play => {
                let mut out: Vec<Action> =
                    self.legal_cards().into_iter().map(Action::Play).collect();
                if self.may_declare_with_card() {
                    out.push(Action::Lot);
                }
                out
            }
        }
    }

    /// The legal actions as sorted text, for comparisons.
    pub fn legal_texts(&self) -> Vec<String> {
        let mut out: Vec<String> = self.legal_actions().iter().map(Action::to_string).collect();
        out.sort();
        out
    }

    /// Applies a legal action.
    ///
    /// # Panics
    ///
    /// When the action is not legal.
    pub fn apply(&mut self, action: Action) {
        assert!(
            self.legal_actions().contains(&action),
            "reference: illegal {action}"
        );
        let seat = self.to_act;
        match action {
            Action::Lot if self.phase == RefPhase::Asking => {
                // 1.4 (1989): the first `lot` ends the asking; the leader then leads.
                self.declarers.push(seat);
                self.phase = RefPhase::Play;
                self.to_act = self.leader;
            }
            Action::Lot => {
                // 1.4 (current): `lot` right before the seat's card to the first trick.
                self.declarers.push(seat);
                self.just_declared = true;
            }
            Action::Pass => {
                // 1.4 (1989): asked in turn from the leader; all pass: no Lot.
                self.to_act = (seat + 1) % self.n;
                if self.to_act == self.leader {
                    self.phase = RefPhase::Play;
                }
            }
            Action::Call(suit) => {
                // 1.3 (1989): the others must follow the named suit.
                self.led = Some(suit);
                self.phase = RefPhase::Play;
                self.to_act = (seat + 1) % self.n;
            }
            Action::JokerWins => {
                // 1.7: the joker's player says it wins: the trick is its.
                self.phase = RefPhase::Play;
                self.finish_trick(seat);
            }
            Action::JokerLoses => {
                // 1.7: it loses: the highest card of the led suit wins.
                self.phase = RefPhase::Play;
                let winner = self.winner_of(&self.trick);
                self.finish_trick(winner);
            }
            Action::Play(card) => self.play(seat, card),
        }
    }

    fn play(&mut self, seat: usize, card: Card) {
        self.just_declared = false;
        let pos = self.hands[seat]
            .iter()
            .position(|c| *c == card)
            .expect("in hand");
        self.hands[seat].remove(pos);
        if self.trick.is_empty() {
            self.leader = seat;
            self.led = card.suit();
            if card.is_joker() {
                match self.rules.joker {
                    // 1.3 (1989): the leader names the suit next.
                    Some(JokerRule::LeadWinsNamesSuit) => self.phase = RefPhase::CallSuit,
                    // 2.8: a led joker is a trump: it leads the trump suit if there is one,
                    // otherwise it becomes the only trump and leaves everyone free.
                    Some(JokerRule::HighestTrump) => match self.trump {
                        RefTrump::Suit(t) => self.led = Some(t),
                        _ => self.trump = RefTrump::JokerOnly,
                    },
                    // 1.3 (current): everyone is free.
                    _ => {}
                }
            }
        } else if self.rules.trump == TrumpRule::FirstOffSuit
            && self.trump == RefTrump::None
            && let Some(led) = self.led
            && card.suit() != Some(led)
        {
            // 2.2: the first card that does not follow sets trump, in its own trick too;
            // 2.8: a joker does so as the only trump.
            self.trump = match card.suit() {
                Some(suit) => RefTrump::Suit(suit),
                None => RefTrump::JokerOnly,
            };
        }
        self.trick.push((seat, card));
        if self.phase == RefPhase::CallSuit {
            return;
        }
        if self.trick.len() < self.n {
            self.to_act = (seat + 1) % self.n;
            return;
        }
        // 1.7: the three-player joker played as the last card: its player says first.
        if card.is_joker() && self.trick.len() > 1 && self.rules.joker == Some(JokerRule::LastSays)
        {
            self.phase = RefPhase::SayJoker;
            return;
        }
        // The trick is complete.
        let winner = self.winner_of(&self.trick);
        self.finish_trick(winner);
    }

    /// Completes the trick in progress, won by `winner`.
    fn finish_trick(&mut self, winner: usize) {
        let cards: Vec<Card> = self.trick.iter().map(|(_, c)| *c).collect();
        self.captured[winner].extend(&cards);
        self.tricks_won[winner] += 1;
        self.tricks_played += 1;
        self.history.push((self.leader, cards, winner));
        self.trick.clear();
        self.led = None;
        self.leader = winner;
        self.to_act = winner;
        for d in &self.declarers {
            if *d != winner && !self.fallen.contains(d) {
                self.fallen.push(*d);
            }
        }
        // 1.4: once every declarer has lost a trick the deal ends at once.
        let settled = !self.declarers.is_empty() && self.fallen.len() == self.declarers.len();
        if settled || self.tricks_played == self.total_tricks() {
            self.phase = RefPhase::Over;
        }
    }

    /// The number of legal action sequences of length `depth`; a sequence ending the deal
    /// earlier counts once. No bulk counting: every leaf is visited.
    pub fn perft(&self, depth: u32) -> u64 {
        if depth == 0 || self.is_over() {
            return 1;
        }
        self.legal_actions()
            .into_iter()
            .map(|action| {
                let mut child = self.clone();
                child.apply(action);
                child.perft(depth - 1)
            })
            .sum()
    }
}

/// Parses a space-separated list of card codes.
pub fn cards(text: &str) -> Vec<Card> {
    text.split_whitespace()
        .map(|t| t.parse().unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// Parses `hand | hand | ...`.
pub fn hands(text: &str) -> Vec<Vec<Card>> {
    text.split('|').map(cards).collect()
}

/// Parses a space-separated list of actions.
pub fn actions(text: &str) -> Vec<Action> {
    text.split_whitespace()
        .map(|t| t.parse().unwrap_or_else(|e| panic!("{e}")))
        .collect()
}

/// The reference's own checks, on positions worked out by hand from the rule text.
mod tests {
    use super::*;
    use torite_core::Preset;

    fn state(preset: Preset, dealer: usize, hands_text: &str, moves: &str) -> RefState {
        let mut s = RefState::new(preset.ruleset(), dealer, &hands(hands_text));
        for a in actions(moves) {
            s.apply(a);
        }
        s
    }

    const MM4_SUITS: &str =
        "AS KS QS JS TS 2S | AH KH QH JH TH 2H | AD KD QD JD TD 2D | AC KC QC JC TC 2C";

    #[test]
    fn rank_orders_are_written_from_the_text() {
        let text = |r: Ranking| {
            let mut ranks: Vec<Rank> = order(r).to_vec();
            ranks.sort_by_key(|x| std::cmp::Reverse(height(r, *x)));
            ranks.iter().map(|x| x.letter()).collect::<String>()
        };
        assert_eq!(text(Ranking::AceHigh), "AKQJT98762");
        assert_eq!(text(Ranking::JassTrump), "J9AKQT876");
        assert_eq!(text(Ranking::TenNineAce), "T9AKQJ876");
    }

    #[test]
    fn lead_any_card_or_declare_with_it() {
        let s = state(Preset::MiniMisere4, 3, MM4_SUITS, "");
        assert_eq!(s.to_act, 0);
        assert_eq!(s.legal_actions().len(), 7);
        // Everyone holds one suit only: after the lead every seat is void, 6 cards + lot.
        assert_eq!(s.perft(2), 6 * 7 + 6);
    }

    #[test]
    fn led_two_is_highest() {
        let mut s = state(Preset::MiniMisere4, 3, MM4_SUITS, "2S AH AD AC");
        assert_eq!(s.history[0].2, 0);
        assert_eq!(s.tricks_won, vec![1, 0, 0, 0]);
        // The led 2 of hearts beats the ace of hearts.
        s = state(
            Preset::MiniMisere4,
            3,
            "AS 2H QS JS TS 2S | KS KH QH JH TH AH | AD KD QD JD TD 2D | AC KC QC JC TC 2C",
            "2H",
        );
        assert_eq!(s.legal_texts(), vec!["AH", "JH", "KH", "QH", "TH", "lot"]);
        s.apply("AH".parse().unwrap());
        s.apply("AD".parse().unwrap());
        s.apply("AC".parse().unwrap());
        assert_eq!(s.history[0].2, 0, "led 2 beats the ace");
        // A 2 that is not led is the lowest card of its suit.
        let h = "AS KS QS JS TS 2H | 2S AH KH QH JH TH | AD KD QD JD TD 2D | AC KC QC JC TC 2C";
        let s = state(Preset::MiniMisere4, 3, h, "TS 2S AD AC");
        assert_eq!(s.history[0].2, 0, "the ten beats a 2 that is not led");
    }

    #[test]
    fn failed_lot_ends_the_deal_when_the_trick_completes() {
        // Seat 0 declares and leads KS; seat 1 wins the trick with the ace.
        let h = "KS QS JS TS 2S 2H | AS AH KH QH JH TH | AD KD QD JD TD 2D | AC KC QC JC TC 2C";
        let mut s = state(Preset::MiniMisere4, 3, h, "lot KS AS");
        // Seats 2 and 3 may still declare before the trick completes.
        assert!(s.legal_actions().contains(&Action::Lot));
        s.apply("AD".parse().unwrap());
        s.apply("AC".parse().unwrap());
        assert!(s.is_over());
        assert_eq!(s.tricks_played, 1);
        // A later declarer who wins keeps the deal going.
        let mut s = state(Preset::MiniMisere4, 3, h, "lot KS lot AS AD AC");
        assert!(!s.is_over());
        assert_eq!(s.to_act, 1);
        assert!(
            !s.legal_actions().contains(&Action::Lot),
            "only in the first trick"
        );
        s.apply("AH".parse().unwrap());
        assert_eq!(s.legal_cards().len(), 5, "seat 2 holds no heart");
    }

    #[test]
    fn nineteen_eighty_nine_asking() {
        let h = "AS KS QS JS TS 9S 2S | AH KH QH JH TH 9H 2H | AD KD QD JD TD 9D 2D | AC KC QC JC TC 9C 2C";
        let s = state(Preset::MiniMisere4_1989, 0, h, "");
        assert_eq!(s.legal_texts(), vec!["lot", "pass"]);
        // Two passes, then a lot: the leader (seat 1) leads.
        let s = state(Preset::MiniMisere4_1989, 0, h, "pass pass lot");
        assert_eq!(s.declarers, vec![3]);
        assert_eq!(s.to_act, 1);
        assert_eq!(s.legal_actions().len(), 7, "no lot with the card");
        let s = state(Preset::MiniMisere4_1989, 0, h, "pass pass pass pass");
        assert_eq!(s.phase, RefPhase::Play);
        assert_eq!(s.to_act, 1);
        assert!(s.declarers.is_empty());
    }

    #[test]
    fn jokers() {
        let h =
            "JK AS KS QS JS | TS 2S AH KH QH | JH TH 2H AD KD | QD JD TD 2D AC | KC QC JC TC 2C";
        // Current: led, everyone free, and it wins.
        let s = state(Preset::MiniMisere5, 4, h, "JK");
        assert_eq!(s.legal_cards().len(), 5);
        let s = state(Preset::MiniMisere5, 4, h, "JK AH AD AC KC");
        assert_eq!(s.history[0].2, 0);
        // Current, not led: only by a void seat. Seat 0 holds spades.
        let s = state(Preset::MiniMisere5, 0, h, "TS JH QD KC");
        assert_eq!(s.legal_texts(), vec!["AS", "JS", "KS", "QS", "lot"]);
        // ... and a void seat may play it, and it loses.
        let s = state(Preset::MiniMisere5, 3, h, "KC JK TS JH AC");
        assert_eq!(s.history[0].2, 3);
        // 1989: the leader names a suit, which the others must follow.
        let h89 =
            "JK AS KS QS JS | TS 9S AH KH QH | JH TH 9H AD KD | QD JD TD 9D AC | KC QC JC TC 9C";
        let s = state(Preset::MiniMisere5_1989, 4, h89, "lot JK");
        assert_eq!(
            s.legal_texts(),
            vec!["call:C", "call:D", "call:H", "call:S"]
        );
        let s = state(Preset::MiniMisere5_1989, 4, h89, "lot JK call:H");
        assert_eq!(s.legal_texts(), vec!["AH", "KH", "QH"]);
        // 1989, not led: any time, even holding the led suit.
        let s = state(
            Preset::MiniMisere5_1989,
            0,
            h89,
            "pass pass pass pass lot 9S AD AC KC",
        );
        assert_eq!(s.declarers, vec![0]);
        assert_eq!(s.legal_texts(), vec!["AS", "JK", "JS", "KS", "QS"]);
    }

    #[test]
    fn jass_trump_set_in_its_own_trick() {
        let h = "AH 8H 7H 9S JS AS KS 6S TS 8S 7S 8D | KH QH JH TH 9H 6H AD KD QD JD TD 9D | \
                 QS 7D 6D AC KC QC JC TC 9C 8C 7C 6C";
        // Seat 1 leads hearts; seat 2 has none: any card.
        let s = state(Preset::MittlereJass, 0, h, "KH");
        assert_eq!(s.legal_cards().len(), 12);
        // Its queen of spades makes spades trump from that card on. Seat 0 holds hearts: it
        // may follow, or overtrump (J 9 A K), but not undertrump the queen.
        let mut s = state(Preset::MittlereJass, 0, h, "KH QS");
        assert_eq!(s.trump, RefTrump::Suit(Suit::Spades));
        assert_eq!(
            s.legal_texts(),
            vec!["7H", "8H", "9S", "AH", "AS", "JS", "KS"]
        );
        s.apply("AH".parse().unwrap());
        assert_eq!(s.history[0].2, 2, "the trump beats the ace of the led suit");
    }

    #[test]
    fn trump_jack_alone_need_not_be_played() {
        let h = "JH AS KS QS JS TS 9S 8S 7S 6S AD KD | AH KH QH TH 9H 8H 7H 6H QD JD TD 9D | \
                 8D 7D 6D AC KC QC JC TC 9C 8C 7C 6C";
        let mut s = state(Preset::MittlereJass, 0, h, "QD 8D AD AS AH AC");
        assert_eq!(s.trump, RefTrump::Suit(Suit::Hearts));
        assert_eq!(s.to_act, 1);
        // Seat 1 leads a trump; seat 2 has none (any card), seat 0 holds only the Jack.
        s.apply("KH".parse().unwrap());
        assert_eq!(s.legal_cards().len(), 10);
        s.apply("KC".parse().unwrap());
        assert_eq!(s.legal_cards().len(), 10, "the trump Jack alone: any card");
    }

    #[test]
    fn handjass_follow_and_beat() {
        let h = "AH 6H AS KS QS JS TS 9S 8S 7S 6S AD | KH QH JH TH 9H 7H KD QD JD TD 9D 8D | \
                 8H 7D 6D AC KC QC JC TC 9C 8C 7C 6C";
        let s = state(Preset::Middler, 0, h, "9H");
        assert_eq!(s.legal_texts(), vec!["8H"], "follow, cannot beat");
        let s = state(Preset::Middler, 0, h, "9H 8H");
        assert_eq!(s.legal_texts(), vec!["AH"], "follow and beat");
        let s = state(Preset::Middler, 0, h, "9H 8H AH 6H 7H");
        assert_eq!(s.legal_cards().len(), 11, "void before trump: anything");
        // A club sets trump; the trump wins. Seat 2 leads 7D: seat 0 beats with AD, and seat 1
        // then cannot beat: any diamond.
        let s = state(Preset::Middler, 0, h, "9H 8H AH 6H 7H AC 7D AD");
        assert_eq!(s.trump, RefTrump::Suit(Suit::Clubs));
        assert_eq!(s.legal_cards().len(), 6);
        // Seat 0 leads a spade: seat 1 is void with no trump (anything), seat 2 void with trumps:
        // a trump, any trump.
        let s = state(Preset::Middler, 0, h, "9H 8H AH 6H 7H AC 7D AD KD AS");
        assert_eq!(s.legal_cards().len(), 9);
        let s = state(Preset::Middler, 0, h, "9H 8H AH 6H 7H AC 7D AD KD AS QH");
        assert_eq!(
            s.legal_texts(),
            vec!["6C", "7C", "8C", "9C", "JC", "KC", "QC", "TC"]
        );
    }

    #[test]
    fn middler_joker_before_trump_is_the_only_trump() {
        let h = "JK AS KS QS JS TS 9S 8S 7S AH KH | QH JH TH 9H 8H 7H AD KD QD JD TD | \
                 9D 8D 7D AC KC QC JC TC 9C 8C 7C";
        let s = state(Preset::MiddlerJoker, 0, h, "QH");
        assert_eq!(s.legal_cards().len(), 11, "seat 2 holds no heart");
        let s = state(Preset::MiddlerJoker, 0, h, "QH AC");
        assert_eq!(s.trump, RefTrump::Suit(Suit::Clubs));
        // Seat 0 holds hearts: must follow; the joker is not a heart.
        assert_eq!(s.legal_texts(), vec!["AH", "KH"]);
        // Joker led before trump: the only trump, everyone free, no trump set.
        let s = state(Preset::MiddlerJoker, 2, h, "JK QH AC");
        assert_eq!(s.trump, RefTrump::JokerOnly);
        assert_eq!(s.history[0].2, 0);
    }
}
