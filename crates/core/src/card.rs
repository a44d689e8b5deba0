//! Suits, ranks, cards and the `u64` card-set bitset, with the text notation of the rules.
//!
//! A card is a small integer and a set of cards is a bitset, so that legal-move generation,
//! void tracking and trick evaluation are a handful of bit operations.

use std::fmt;
use std::iter::FusedIterator;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub, SubAssign};
use std::str::FromStr;

/// One of the four suits. The interchange letters are `S H D C`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Suit {
    /// Spades (`S`, ♠; Eicheln in the Swiss pack).
    Spades = 0,
    /// Hearts (`H`, ♥; Rosen in the Swiss pack).
    Hearts = 1,
    /// Diamonds (`D`, ♦; Schellen in the Swiss pack).
    Diamonds = 2,
    /// Clubs (`C`, ♣; Schilten in the Swiss pack).
    Clubs = 3,
}

impl Suit {
    /// All suits in index order.
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    /// The suit with index `i` (0..4), if any.
    #[must_use]
    pub const fn from_index(i: u8) -> Option<Suit> {
        match i {
            0 => Some(Suit::Spades),
            1 => Some(Suit::Hearts),
            2 => Some(Suit::Diamonds),
            3 => Some(Suit::Clubs),
            _ => None,
        }
    }

    /// This suit's index, 0..4.
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The interchange letter: `S`, `H`, `D` or `C`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Suit::Spades => 'S',
            Suit::Hearts => 'H',
            Suit::Diamonds => 'D',
            Suit::Clubs => 'C',
        }
    }

    /// The suit symbol `♠ ♥ ♦ ♣`.
    #[must_use]
    pub const fn symbol(self) -> char {
        match self {
            Suit::Spades => '♠',
            Suit::Hearts => '♥',
            Suit::Diamonds => '♦',
            Suit::Clubs => '♣',
        }
    }

    /// The English plural name, lower case (`"spades"`), as used in messages.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Suit::Spades => "spades",
            Suit::Hearts => "hearts",
            Suit::Diamonds => "diamonds",
            Suit::Clubs => "clubs",
        }
    }

    /// Parses a suit letter (case-insensitive).
    #[must_use]
    pub const fn from_letter(c: char) -> Option<Suit> {
        match c.to_ascii_uppercase() {
            'S' => Some(Suit::Spades),
            'H' => Some(Suit::Hearts),
            'D' => Some(Suit::Diamonds),
            'C' => Some(Suit::Clubs),
            _ => None,
        }
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A rank, stored as its bit index inside a suit lane: 2 for the deuce up to 14 for the ace.
///
/// `Rank` has no trick-taking order of its own: which card wins depends on the ruleset (led 2,
/// Jass trump order, Mura's 10-9-A order), see [`crate::Ruleset::strength`]. The derived `Ord`
/// is the natural index order, for sorting displays only.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Rank(pub(crate) u8);

impl Rank {
    /// The deuce.
    pub const TWO: Rank = Rank(2);
    /// The six.
    pub const SIX: Rank = Rank(6);
    /// The seven.
    pub const SEVEN: Rank = Rank(7);
    /// The eight.
    pub const EIGHT: Rank = Rank(8);
    /// The nine.
    pub const NINE: Rank = Rank(9);
    /// The ten (`T`, Banner in the Swiss pack).
    pub const TEN: Rank = Rank(10);
    /// The jack (Under in the Swiss pack).
    pub const JACK: Rank = Rank(11);
    /// The queen (Ober in the Swiss pack).
    pub const QUEEN: Rank = Rank(12);
    /// The king.
    pub const KING: Rank = Rank(13);
    /// The ace.
    pub const ACE: Rank = Rank(14);

    /// Every rank the notation knows, high to low by index.
    pub const ALL: [Rank; 10] = [
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

    /// The rank with bit index `i`, if the notation has one (2 and 6..=14).
    #[must_use]
    pub const fn from_index(i: u8) -> Option<Rank> {
        match i {
            2 | 6..=14 => Some(Rank(i)),
            _ => None,
        }
    }

    /// The bit index of this rank inside a suit lane (2..=14).
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The interchange letter: `A K Q J T 9 8 7 6 2`.
    #[must_use]
    pub const fn letter(self) -> char {
        match self.0 {
            14 => 'A',
            13 => 'K',
            12 => 'Q',
            11 => 'J',
            10 => 'T',
            9 => '9',
            8 => '8',
            7 => '7',
            6 => '6',
            _ => '2',
        }
    }

    /// Parses a rank token: a letter or digit, or `10` (case-insensitive).
    #[must_use]
    pub fn from_token(s: &str) -> Option<Rank> {
        if s == "10" {
            return Some(Rank::TEN);
        }
        let mut chars = s.chars();
        let c = chars.next()?;
        if chars.next().is_some() {
            return None;
        }
        match c.to_ascii_uppercase() {
            'A' => Some(Rank::ACE),
            'K' => Some(Rank::KING),
            'Q' => Some(Rank::QUEEN),
            'J' => Some(Rank::JACK),
            'T' => Some(Rank::TEN),
            '9' => Some(Rank::NINE),
            '8' => Some(Rank::EIGHT),
            '7' => Some(Rank::SEVEN),
            '6' => Some(Rank::SIX),
            '2' => Some(Rank::TWO),
            _ => None,
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A playing card: `16 * suit + rank`, or the joker.
///
/// The derived `Ord` sorts by suit, then rank index; it says nothing about which card wins a
/// trick (see [`crate::Ruleset::strength`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub struct Card(u8);

impl Card {
    /// The joker, kept in a bit of the spades lane that no rank uses.
    pub const JOKER: Card = Card(15);

    /// The card of `rank` in `suit`.
    #[must_use]
    pub const fn new(suit: Suit, rank: Rank) -> Card {
        Card(16 * suit as u8 + rank.0)
    }

    /// The card with bit index `i` in a [`CardSet`], if that bit is a card.
    #[must_use]
    pub const fn from_index(i: u8) -> Option<Card> {
        if i == Card::JOKER.0 {
            return Some(Card::JOKER);
        }
        if i >= 64 {
            return None;
        }
        match Rank::from_index(i % 16) {
            Some(_) => Some(Card(i)),
            None => None,
        }
    }

    /// The bit index of this card in a [`CardSet`] (0..64).
    #[must_use]
    pub const fn index(self) -> u8 {
        self.0
    }

    /// Whether this is the joker.
    #[must_use]
    pub const fn is_joker(self) -> bool {
        self.0 == Card::JOKER.0
    }

    /// The card's printed suit; `None` for the joker.
    #[must_use]
    pub const fn suit(self) -> Option<Suit> {
        const LANES: [Option<Suit>; 4] = [
            Some(Suit::Spades),
            Some(Suit::Hearts),
            Some(Suit::Diamonds),
            Some(Suit::Clubs),
        ];
        if self.is_joker() {
            None
        } else {
            LANES[(self.0 / 16) as usize]
        }
    }

    /// The card's rank; `None` for the joker.
    #[must_use]
    pub const fn rank(self) -> Option<Rank> {
        if self.is_joker() {
            None
        } else {
            Some(Rank(self.0 % 16))
        }
    }

    /// Writes the card with a suit symbol instead of a letter (`A♠`, `JK`).
    #[must_use]
    pub fn symbolic(self) -> String {
        match (self.rank(), self.suit()) {
            (Some(r), Some(s)) => format!("{}{}", r.letter(), s.symbol()),
            _ => "JK".to_owned(),
        }
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.rank(), self.suit()) {
            (Some(r), Some(s)) => write!(f, "{}{}", r.letter(), s.letter()),
            _ => f.write_str("JK"),
        }
    }
}

/// A card code that is not in the notation of the rules.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct ParseCardError {
    /// The offending token, as given.
    pub token: String,
}

impl fmt::Display for ParseCardError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown card code {:?}: expected a rank (A K Q J T 10 9 8 7 6 2) then a suit (S H D C), or JK",
            self.token
        )
    }
}

impl std::error::Error for ParseCardError {}

impl FromStr for Card {
    type Err = ParseCardError;

    fn from_str(s: &str) -> Result<Card, ParseCardError> {
        let err = || ParseCardError {
            token: s.to_owned(),
        };
        if s.eq_ignore_ascii_case("JK") {
            return Ok(Card::JOKER);
        }
        if !s.is_ascii() || s.len() < 2 {
            return Err(err());
        }
        let (rank, suit) = s.split_at(s.len() - 1);
        let suit = suit
            .chars()
            .next()
            .and_then(Suit::from_letter)
            .ok_or_else(err)?;
        let rank = Rank::from_token(rank).ok_or_else(err)?;
        Ok(Card::new(suit, rank))
    }
}

/// A set of cards as a `u64` bitset: four 16-bit suit lanes, a rank at its own bit index.
///
/// ```text
///  bit  63      48 47      32 31      16 15       0
///       ├─clubs──┤ ├diamonds┤ ├─hearts─┤ ├─spades─┤
///  lane bit:  15 14 13 12 11 10  9  8  7  6  5  4  3  2  1  0
///  card:      JK  A  K  Q  J  T  9  8  7  6  -  -  -  2  -  -
///             (JK only in the spades lane)
/// ```
///
/// Iteration runs from the lowest bit: spades low to high, then hearts, diamonds, clubs.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CardSet(u64);

const LANE_RANKS: u64 = 0x7FC4; // bits 2 and 6..=14

/// `SELECT_IN_BYTE[r << 8 | b]`: the position of the `r`-th set bit of byte `b` (8 if none).
const SELECT_IN_BYTE: [u8; 2048] = {
    let mut table = [8u8; 2048];
    let mut byte = 0;
    while byte < 256 {
        let (mut rank, mut bit) = (0, 0);
        while bit < 8 {
            if byte >> bit & 1 == 1 {
                table[rank << 8 | byte] = bit as u8;
                rank += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

impl CardSet {
    /// The empty set.
    pub const EMPTY: CardSet = CardSet(0);
    /// Every card the notation knows: 2 and 6 to ace in four suits, plus the joker.
    pub const ALL: CardSet = CardSet(
        LANE_RANKS | (LANE_RANKS << 16) | (LANE_RANKS << 32) | (LANE_RANKS << 48) | 1 << 15,
    );

    /// The set with exactly these bits; `None` if a bit is not a card.
    #[must_use]
    pub const fn from_bits(bits: u64) -> Option<CardSet> {
        if bits & !CardSet::ALL.0 == 0 {
            Some(CardSet(bits))
        } else {
            None
        }
    }

    /// The set of the card bits among `bits`, dropping the others.
    #[must_use]
    pub const fn from_bits_truncate(bits: u64) -> CardSet {
        CardSet(bits & CardSet::ALL.0)
    }

    /// The raw bits.
    #[must_use]
    pub const fn bits(self) -> u64 {
        self.0
    }

    /// All cards of `suit` (never the joker).
    #[must_use]
    pub const fn suit(suit: Suit) -> CardSet {
        CardSet(LANE_RANKS << (16 * suit as u32))
    }

    /// Every card of the given ranks in all four suits; `ranks` is a 16-bit lane mask.
    #[must_use]
    pub const fn of_ranks(ranks: u16) -> CardSet {
        let lane = ranks as u64 & LANE_RANKS;
        CardSet(lane | lane << 16 | lane << 32 | lane << 48)
    }

    /// The set holding one card.
    #[must_use]
    pub const fn single(card: Card) -> CardSet {
        CardSet(1 << card.0)
    }

    /// The number of cards.
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// Whether the set holds `card`.
    #[must_use]
    pub const fn contains(self, card: Card) -> bool {
        self.0 & (1 << card.0) != 0
    }

    /// Adds `card`.
    pub const fn insert(&mut self, card: Card) {
        self.0 |= 1 << card.0;
    }

    /// Removes `card`.
    pub const fn remove(&mut self, card: Card) {
        self.0 &= !(1 << card.0);
    }

    /// The set with `card` added.
    #[must_use = "with returns a new set"]
    pub const fn with(self, card: Card) -> CardSet {
        CardSet(self.0 | 1 << card.0)
    }

    /// The lowest-bit card.
    #[must_use]
    pub const fn first(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card(self.0.trailing_zeros() as u8))
        }
    }

    /// The highest-bit card.
    #[must_use]
    pub const fn last(self) -> Option<Card> {
        if self.0 == 0 {
            None
        } else {
            Some(Card(63 - self.0.leading_zeros() as u8))
        }
    }

    /// Removes and returns the lowest-bit card.
    pub const fn pop_first(&mut self) -> Option<Card> {
        let card = self.first();
        self.0 &= self.0.wrapping_sub(1);
        card
    }

    /// The `n`-th card in iteration order, if the set has that many.
    ///
    /// Without branches that depend on `n`: random playouts pick a card this way at every
    /// turn, and a loop of `n` steps would be mispredicted nearly every time. The byte that
    /// holds the card is found from running byte counts compared in parallel, then the card
    /// inside that byte from a table.
    #[must_use]
    pub fn nth(self, n: usize) -> Option<Card> {
        const ONES: u64 = 0x0101_0101_0101_0101;
        const HIGHS: u64 = 0x8080_8080_8080_8080;
        if n >= 64 {
            return None;
        }
        let x = self.0;
        let k = n as u64;
        // Bits set in each byte, then running totals: byte i of `sums` counts bytes 0..=i.
        let mut counts = x - ((x >> 1) & 0x5555_5555_5555_5555);
        counts = (counts & 0x3333_3333_3333_3333) + ((counts >> 2) & 0x3333_3333_3333_3333);
        counts = (counts + (counts >> 4)) & 0x0F0F_0F0F_0F0F_0F0F;
        let sums = counts.wrapping_mul(ONES);
        // Byte i gets its high bit when sums[i] <= k (no borrow crosses bytes: k < 64 and
        // sums[i] <= 64); the card lies in the first byte whose running total passes k.
        let at_most = (((k * ONES) | HIGHS) - sums) & HIGHS;
        let byte = ((at_most >> 7).wrapping_mul(ONES) >> 56) as u32;
        if byte == 8 {
            return None;
        }
        let shift = 8 * byte;
        let before = ((sums << 8) >> shift) & 0xFF;
        let rank = (k - before) as usize;
        let bits = ((x >> shift) & 0xFF) as usize;
        let bit = u32::from(SELECT_IN_BYTE[rank << 8 | bits]);
        Some(Card((shift + bit) as u8))
    }

    /// The cards of `suit` in this set.
    #[must_use]
    pub const fn of_suit(self, suit: Suit) -> CardSet {
        CardSet(self.0 & CardSet::suit(suit).0)
    }

    /// Whether the two sets share no card.
    #[must_use]
    pub const fn is_disjoint(self, other: CardSet) -> bool {
        self.0 & other.0 == 0
    }

    /// Whether every card of `self` is in `other`.
    #[must_use]
    pub const fn is_subset(self, other: CardSet) -> bool {
        self.0 & !other.0 == 0
    }

    /// An iterator over the cards, lowest bit first.
    pub const fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }
}

impl fmt::Debug for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set()
            .entries(self.iter().map(|c| c.to_string()))
            .finish()
    }
}

/// Writes the cards as space-separated codes, suit by suit (S H D C), high ranks first, then
/// the joker.
impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ordered = Suit::ALL
            .into_iter()
            .flat_map(|suit| self.of_suit(suit).iter().rev())
            .chain(self.contains(Card::JOKER).then_some(Card::JOKER));
        for (i, card) in ordered.enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{card}")?;
        }
        Ok(())
    }
}

impl FromStr for CardSet {
    type Err = ParseCardError;

    /// Parses whitespace- or comma-separated card codes.
    fn from_str(s: &str) -> Result<CardSet, ParseCardError> {
        s.split(|c: char| c.is_whitespace() || c == ',')
            .filter(|t| !t.is_empty())
            .map(str::parse::<Card>)
            .collect()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut set = CardSet::EMPTY;
        for card in iter {
            set.insert(card);
        }
        set
    }
}

impl IntoIterator for CardSet {
    type Item = Card;
    type IntoIter = CardSetIter;
    fn into_iter(self) -> CardSetIter {
        self.iter()
    }
}

macro_rules! set_op {
    ($trait:ident, $fn:ident, $assign:ident, $afn:ident, $op:tt) => {
        impl $trait for CardSet {
            type Output = CardSet;
            fn $fn(self, rhs: CardSet) -> CardSet {
                CardSet(self.0 $op rhs.0)
            }
        }
        impl $assign for CardSet {
            fn $afn(&mut self, rhs: CardSet) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
set_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
set_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);

impl Sub for CardSet {
    type Output = CardSet;
    fn sub(self, rhs: CardSet) -> CardSet {
        CardSet(self.0 & !rhs.0)
    }
}

impl SubAssign for CardSet {
    fn sub_assign(&mut self, rhs: CardSet) {
        self.0 &= !rhs.0;
    }
}

impl Not for CardSet {
    type Output = CardSet;
    /// The complement within [`CardSet::ALL`].
    fn not(self) -> CardSet {
        CardSet(!self.0 & CardSet::ALL.0)
    }
}

/// Iterator over a [`CardSet`], lowest bit first.
#[derive(Clone, Debug)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;
    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let card = Card(self.0.trailing_zeros() as u8);
        self.0 &= self.0 - 1;
        Some(card)
    }
    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl DoubleEndedIterator for CardSetIter {
    fn next_back(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = 63 - self.0.leading_zeros() as u8;
        self.0 &= !(1 << i);
        Some(Card(i))
    }
}

impl ExactSizeIterator for CardSetIter {}
impl FusedIterator for CardSetIter {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nth_agrees_with_iteration() {
        let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
        let mut sets = vec![0, 1, 1 << 63, u64::MAX, 0xFF00, 0x8000_0000_0000_0001];
        for _ in 0..2000 {
            // xorshift64, and sparser sets by and-ing two draws
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let y = x.rotate_left(29);
            sets.extend([x, x & y, x & y & y.rotate_left(11)]);
        }
        for bits in sets {
            let set = CardSet(bits);
            let cards: Vec<Card> = set.iter().collect();
            for n in 0..70 {
                assert_eq!(set.nth(n), cards.get(n).copied(), "{bits:#x} nth({n})");
            }
        }
    }

    #[test]
    fn parse_accepts_case_and_ten() {
        let c: Card = "10h".parse().unwrap();
        assert_eq!(c, Card::new(Suit::Hearts, Rank::TEN));
        assert_eq!(c.to_string(), "TH");
        assert_eq!("jk".parse::<Card>().unwrap(), Card::JOKER);
        assert_eq!("as".parse::<Card>().unwrap().to_string(), "AS");
    }

    #[test]
    fn parse_names_the_bad_token() {
        for bad in ["", "A", "1S", "AX", "11S", "JKK", "ＡS", "3S", "5D"] {
            let err = bad.parse::<Card>().unwrap_err();
            assert_eq!(err.token, bad);
            assert!(err.to_string().contains(&format!("{bad:?}")));
        }
    }

    #[test]
    fn every_card_round_trips() {
        assert_eq!(CardSet::ALL.len(), 41);
        for card in CardSet::ALL {
            assert_eq!(card.to_string().parse::<Card>().unwrap(), card);
            assert_eq!(Card::from_index(card.index()), Some(card));
        }
    }

    #[test]
    fn set_operations() {
        let s: CardSet = "AS KS 2H JK".parse().unwrap();
        assert_eq!(s.len(), 4);
        assert_eq!(s.of_suit(Suit::Spades).len(), 2);
        assert!(!CardSet::suit(Suit::Spades).contains(Card::JOKER));
        assert_eq!((s - CardSet::suit(Suit::Spades)).len(), 2);
        assert_eq!(s.iter().rev().count(), 4);
        assert_eq!(s.to_string(), "AS KS 2H JK");
        assert_eq!(s.nth(3), s.iter().nth(3));
        assert_eq!(s.nth(4), None);
        assert_eq!((!s).len(), 37);
    }
}
