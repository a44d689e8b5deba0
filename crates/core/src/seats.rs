//! Sets of seats: a bit per seat in one byte.
//!
//! Masks of seats come up wherever a rule names several seats at once: the Lot's declarers and
//! the failed ones, the seats tied in Molotow's draw, the pairs sharing Plus-Minus points, the
//! seats that may hold a card of a world. [`SeatSet`] is that mask with a name, so code asks
//! `contains`, `len` and `iter` instead of shifting bits by hand.

use std::fmt;
use std::iter::FusedIterator;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, Not, Sub};

use serde::{Serialize, Serializer};

/// A seat number, `0..players`, in turn order.
pub type Seat = usize;

/// A set of seats (`0..8`), bit `s` for seat `s`; iterated in seat order.
///
/// ```
/// use torite_core::SeatSet;
/// let mut tied = SeatSet::EMPTY;
/// tied.insert(2);
/// tied.insert(0);
/// assert!(tied.contains(2) && !tied.contains(1));
/// assert_eq!(tied.iter().collect::<Vec<_>>(), [0, 2]);
/// assert_eq!(format!("{tied:?}"), "[0, 2]");
/// assert_eq!(tied.to_string(), "0, 2");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct SeatSet(u8);

impl SeatSet {
    /// No seat.
    pub const EMPTY: SeatSet = SeatSet(0);

    /// The set with these bits (bit `s` for seat `s`).
    #[must_use]
    pub const fn from_bits(bits: u8) -> SeatSet {
        SeatSet(bits)
    }

    /// The bits (bit `s` for seat `s`).
    #[must_use]
    pub const fn bits(self) -> u8 {
        self.0
    }

    /// Seats `0..players` (at most 8).
    #[must_use]
    pub const fn all(players: usize) -> SeatSet {
        if players >= 8 {
            SeatSet(u8::MAX)
        } else {
            SeatSet((1u8 << players) - 1)
        }
    }

    /// The set of one seat (seats past 7 give the empty set).
    #[must_use]
    pub const fn single(seat: Seat) -> SeatSet {
        if seat < 8 {
            SeatSet(1 << seat)
        } else {
            SeatSet(0)
        }
    }

    /// Whether `seat` is in the set.
    #[must_use]
    pub const fn contains(self, seat: Seat) -> bool {
        seat < 8 && self.0 & (1 << seat) != 0
    }

    /// Adds `seat` (seats past 7 are ignored).
    pub const fn insert(&mut self, seat: Seat) {
        self.0 |= SeatSet::single(seat).0;
    }

    /// Removes `seat`.
    pub const fn remove(&mut self, seat: Seat) {
        self.0 &= !SeatSet::single(seat).0;
    }

    /// The set with `seat` added.
    #[must_use]
    pub const fn with(self, seat: Seat) -> SeatSet {
        SeatSet(self.0 | SeatSet::single(seat).0)
    }

    /// The number of seats in the set.
    #[must_use]
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The lowest seat, if any.
    #[must_use]
    pub const fn first(self) -> Option<Seat> {
        if self.0 == 0 {
            None
        } else {
            Some(self.0.trailing_zeros() as usize)
        }
    }

    /// The `n`-th seat in seat order, if the set has that many.
    #[must_use]
    pub fn nth(self, n: usize) -> Option<Seat> {
        self.iter().nth(n)
    }

    /// The seats in seat order.
    #[must_use]
    pub const fn iter(self) -> SeatSetIter {
        SeatSetIter(self.0)
    }
}

/// The seats of a [`SeatSet`], in seat order.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct SeatSetIter(u8);

impl Iterator for SeatSetIter {
    type Item = Seat;

    fn next(&mut self) -> Option<Seat> {
        if self.0 == 0 {
            return None;
        }
        let seat = self.0.trailing_zeros() as usize;
        self.0 &= self.0 - 1;
        Some(seat)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for SeatSetIter {}
impl FusedIterator for SeatSetIter {}

impl IntoIterator for SeatSet {
    type Item = Seat;
    type IntoIter = SeatSetIter;

    fn into_iter(self) -> SeatSetIter {
        self.iter()
    }
}

impl FromIterator<Seat> for SeatSet {
    fn from_iter<I: IntoIterator<Item = Seat>>(iter: I) -> SeatSet {
        let mut set = SeatSet::EMPTY;
        for seat in iter {
            set.insert(seat);
        }
        set
    }
}

impl BitOr for SeatSet {
    type Output = SeatSet;
    fn bitor(self, other: SeatSet) -> SeatSet {
        SeatSet(self.0 | other.0)
    }
}

impl BitOrAssign for SeatSet {
    fn bitor_assign(&mut self, other: SeatSet) {
        self.0 |= other.0;
    }
}

impl BitAnd for SeatSet {
    type Output = SeatSet;
    fn bitand(self, other: SeatSet) -> SeatSet {
        SeatSet(self.0 & other.0)
    }
}

impl BitAndAssign for SeatSet {
    fn bitand_assign(&mut self, other: SeatSet) {
        self.0 &= other.0;
    }
}

impl Sub for SeatSet {
    type Output = SeatSet;
    /// The seats of `self` not in `other`.
    fn sub(self, other: SeatSet) -> SeatSet {
        SeatSet(self.0 & !other.0)
    }
}

impl Not for SeatSet {
    type Output = SeatSet;
    /// Every seat `0..8` not in the set (intersect with [`SeatSet::all`] for a table's seats).
    fn not(self) -> SeatSet {
        SeatSet(!self.0)
    }
}

impl fmt::Debug for SeatSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl fmt::Display for SeatSet {
    /// The seats in seat order, separated by commas: `0, 2, 3`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, seat) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(", ")?;
            }
            write!(f, "{seat}")?;
        }
        Ok(())
    }
}

impl Serialize for SeatSet {
    /// As the list of its seats in seat order, as records and reports write seats.
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq(self.iter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sets_hold_seats_in_order() {
        let set: SeatSet = [3, 0, 4, 3].into_iter().collect();
        assert_eq!(set.bits(), 0b1_1001);
        assert_eq!(set.len(), 3);
        assert_eq!(set.iter().collect::<Vec<_>>(), [0, 3, 4]);
        assert_eq!(set.iter().len(), 3);
        assert_eq!(set.first(), Some(0));
        assert_eq!(set.nth(2), Some(4));
        assert_eq!(set.nth(3), None);
        assert!(set.contains(4) && !set.contains(1) && !set.contains(9));
        assert_eq!(format!("{set:?}"), "[0, 3, 4]");
        assert_eq!(set.to_string(), "0, 3, 4");
        assert_eq!(format!("{:?}", SeatSet::EMPTY), "[]");
        assert_eq!(serde_json::to_string(&set).unwrap(), "[0,3,4]");
    }

    #[test]
    fn set_operations() {
        let a = SeatSet::from_bits(0b0110);
        let b = SeatSet::single(1).with(3);
        assert_eq!(a | b, SeatSet::from_bits(0b1110));
        assert_eq!(a & b, SeatSet::single(1));
        assert_eq!(a - b, SeatSet::single(2));
        assert_eq!(!a & SeatSet::all(4), SeatSet::from_bits(0b1001));
        assert_eq!(SeatSet::all(5).len(), 5);
        assert_eq!(SeatSet::all(8), SeatSet::from_bits(u8::MAX));
        let mut c = a;
        c.remove(1);
        c.insert(9); // not a seat: ignored
        assert_eq!(c, SeatSet::single(2));
        assert!(SeatSet::EMPTY.is_empty() && SeatSet::EMPTY.first().is_none());
    }
}
