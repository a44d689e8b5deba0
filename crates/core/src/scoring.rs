//! Deal scoring: from the facts of a finished deal (tricks, card points, the Lot) to each
//! seat's score, following the first matching rule of the ruleset's [`Scoring`].
//!
//! Scoring works on [`DealFacts`] rather than on a [`crate::Deal`], so the same code scores a
//! deal played here and one played with real cards whose facts a club enters by hand.

use std::fmt;

use crate::deal::{Deal, Seat};
use crate::ruleset::{MAX_SEATS, Ruleset, Scoring};
use crate::seats::SeatSet;

/// What a finished deal's scoring depends on.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct DealFacts {
    /// The number of seats.
    pub players: usize,
    /// Tricks won per seat.
    pub tricks: [u8; MAX_SEATS],
    /// Card points per seat (last-trick bonus included).
    pub points: [u32; MAX_SEATS],
    /// The Lot, if one was declared.
    pub lot: Option<LotResult>,
}

/// The Lot's result in a finished deal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct LotResult {
    /// Declaring seats, as a bit mask.
    pub declarers: u8,
    /// The declarer who won every trick, if one did.
    pub winner: Option<Seat>,
}

impl LotResult {
    /// The declaring seats.
    #[must_use]
    pub const fn declaring(&self) -> SeatSet {
        SeatSet::from_bits(self.declarers)
    }
}

impl DealFacts {
    /// The facts of a deal that is over.
    #[must_use]
    pub fn of(deal: &Deal) -> DealFacts {
        let n = deal.players();
        let mut facts = DealFacts {
            players: n,
            ..DealFacts::default()
        };
        facts.tricks[..n].copy_from_slice(deal.tricks_won());
        for seat in 0..n {
            facts.points[seat] = deal.card_points(seat);
        }
        let lot = deal.lot();
        if !lot.declaring().is_empty() {
            facts.lot = Some(LotResult {
                declarers: lot.declarers,
                winner: lot.in_play().first().filter(|_| deal.all_tricks_played()),
            });
        }
        facts
    }

    fn seats(&self) -> std::ops::Range<usize> {
        0..self.players
    }

    /// Seats sorted by card points, highest first (ties in seat order); entries past
    /// `players` are unused. An array rather than a `Vec`: search bots score deals constantly.
    fn by_points(&self) -> [Seat; MAX_SEATS] {
        let mut seats: [Seat; MAX_SEATS] = std::array::from_fn(|s| s);
        seats[..self.players].sort_by_key(|s| std::cmp::Reverse(self.points[*s]));
        seats
    }

    /// The seats that have exactly `points`.
    fn with_points(&self, points: u32) -> SeatSet {
        self.seats().filter(|s| self.points[*s] == points).collect()
    }
}

impl Ruleset {
    /// The least and the most one seat can score in one deal by [`Ruleset::score`] (in the
    /// ruleset's own terms: penalty points for Mura). Plus-Minus points held over and paid in
    /// a later deal come on top of that deal's score.
    #[must_use]
    pub fn score_bounds(&self) -> (i32, i32) {
        match self.scoring {
            Scoring::TrickTable { points } => {
                let reachable = points.iter().take(self.tricks().min(points.len() - 1) + 1);
                let mut values: Vec<i32> = reachable.map(|p| i32::from(*p)).collect();
                if let Some(lot) = self.lot {
                    values.extend([0, lot.success, lot.fail]);
                }
                let low = values.iter().min().copied().unwrap_or(0);
                let high = values.iter().max().copied().unwrap_or(0);
                (low, high)
            }
            Scoring::Mittlere { .. } => (-2, 2),
            Scoring::Molotow { .. } => (-3, 3),
            Scoring::PlusMinus => (0, 2),
            Scoring::OwnPoints => (0, self.card_point_total().1 as i32),
            Scoring::Mura { bonus_at, .. } => {
                let bonus = if bonus_at.is_some() { -1 } else { 0 };
                (bonus, self.tricks() as i32 + 1)
            }
        }
    }
}

/// Entered deal facts that cannot happen under the rules.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum FactsError {
    /// Facts for the wrong number of seats.
    PlayerCount {
        /// Seats in the facts.
        given: usize,
        /// Seats in the game.
        players: usize,
    },
    /// A Lot in a game that has none.
    NoLot,
    /// A Lot whose declarers are not seats of the game.
    BadDeclarers,
    /// A Lot won by a seat that did not declare it.
    WinnerDidNotDeclare {
        /// The seat.
        seat: Seat,
    },
    /// Tricks that do not add up to the deal's.
    TricksTotal {
        /// Their sum.
        given: usize,
        /// The deal's tricks.
        expected: usize,
    },
    /// Card points outside the deal's total.
    PointsTotal {
        /// Their sum.
        given: u32,
        /// The least a deal can have.
        low: u32,
        /// The most a deal can have.
        high: u32,
    },
    /// A seat with no trick but card points.
    PointsWithoutTrick {
        /// The seat.
        seat: Seat,
        /// Its points.
        points: u32,
    },
}

impl fmt::Display for FactsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FactsError::PlayerCount { given, players } => {
                write!(f, "{given} seats given, the game has {players}")
            }
            FactsError::NoLot => f.write_str("this game has no Lot"),
            FactsError::BadDeclarers => {
                f.write_str("the Lot's declarers must be seats of the game")
            }
            FactsError::WinnerDidNotDeclare { seat } => {
                write!(f, "seat {seat} won the Lot but did not declare it")
            }
            FactsError::TricksTotal { given, expected } => {
                write!(f, "tricks add up to {given}, but a deal has {expected}")
            }
            FactsError::PointsTotal { given, low, high } if low == high => {
                write!(f, "card points add up to {given}, but a deal has {low}")
            }
            FactsError::PointsTotal { given, low, high } => {
                write!(
                    f,
                    "card points add up to {given}, but a deal has {low} to {high}"
                )
            }
            FactsError::PointsWithoutTrick { seat, points } => {
                write!(f, "seat {seat} won no trick but has {points} points")
            }
        }
    }
}

impl std::error::Error for FactsError {}

/// Which scoring rule settled a deal.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum ScoreRule {
    /// Mini Misère: the trick table.
    TrickTable,
    /// A declarer won every trick.
    LotSucceeded,
    /// No declarer won every trick.
    LotFailed,
    /// A seat won every trick (Mittlere 1).
    AllTricks,
    /// Middler: one seat took 100 or more and another no trick.
    HundredAndNoTrick,
    /// A seat won no trick (Mittlere 2).
    NoTrick,
    /// A seat took 100 points or more.
    Hundred,
    /// Two seats have equal points (Mittlere 4).
    TwoEqual,
    /// Highest and lowest +1, the middle −2 (Mittlere 5).
    HighestAndLowest,
    /// A seat took all the points (Molotow 1).
    AllPoints,
    /// Three seats have equal points; a draw decides (Molotow 3).
    ThreeEqual,
    /// The two lowest are equal (Molotow 4).
    TwoLowestEqual,
    /// The two highest are equal (Molotow 5).
    TwoHighestEqual,
    /// The two middle seats are equal (Molotow 6).
    TwoMiddleEqual,
    /// All points differ (Molotow 7).
    AllDiffer,
    /// All seats but one have equal points (Plus-Minus 1).
    AllButOneEqual,
    /// Plus-Minus 2: highest and lowest score one each.
    PlusMinus,
    /// Middler with joker: the highest and the lowest score their card points.
    OwnPoints,
    /// Middler with joker: two equal, the third scores its card points.
    OwnPointsTwoEqual,
    /// Mura: penalty for tricks, exemption and bonus.
    Penalty,
}

/// A deal's score.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct DealScore {
    /// Score per seat (penalty points when the ruleset's scores are penalties).
    pub scores: [i32; MAX_SEATS],
    /// The rule that settled it.
    pub rule: ScoreRule,
    /// Plus-Minus: points held over because the highest or the lowest was shared by two
    /// seats; each is the pair's seat mask (0: none).
    pub held: [u8; 2],
}

/// Why a deal could not be scored.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum ScoreError {
    /// Molotow rule 3 needs to know which of the tied seats drew the highest card.
    NeedsDraw {
        /// The tied seats, as a mask.
        tied: u8,
    },
    /// The draw names a seat that is not tied.
    BadDraw {
        /// The seat named.
        seat: Seat,
        /// The tied seats, as a mask.
        tied: u8,
    },
}

fn seat_list(mask: u8) -> String {
    SeatSet::from_bits(mask).to_string()
}

impl fmt::Display for ScoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScoreError::NeedsDraw { tied } => write!(
                f,
                "missing draw: seats {} tie and a card drawn decides (give \"draw\": the seat that drew highest)",
                seat_list(*tied)
            ),
            ScoreError::BadDraw { seat, tied } => write!(
                f,
                "draw names seat {seat}, which is not one of the tied seats {}",
                seat_list(*tied)
            ),
        }
    }
}

impl std::error::Error for ScoreError {}

impl Ruleset {
    /// Checks that entered facts can happen under these rules: tricks add up to the deal's
    /// tricks, card points to the deal's total (157 in Jass, 121 with the joker, 16 to 20 in
    /// Mura), a seat with no trick has no points, and the Lot names declaring seats. With a
    /// Lot declared in a trick-table game the tricks are not needed (the deal may have ended
    /// early) and are not checked.
    ///
    /// # Errors
    ///
    /// A [`FactsError`] saying what does not add up.
    pub fn check_facts(&self, facts: &DealFacts) -> Result<(), FactsError> {
        let n = self.players as usize;
        if facts.players != n {
            return Err(FactsError::PlayerCount {
                given: facts.players,
                players: n,
            });
        }
        if let Some(lot) = facts.lot {
            if self.lot.is_none() {
                return Err(FactsError::NoLot);
            }
            let declarers = lot.declaring();
            if declarers.is_empty() || !(declarers - SeatSet::all(n)).is_empty() {
                return Err(FactsError::BadDeclarers);
            }
            if let Some(w) = lot.winner
                && !lot.declaring().contains(w)
            {
                return Err(FactsError::WinnerDidNotDeclare { seat: w });
            }
            if matches!(self.scoring, Scoring::TrickTable { .. }) {
                return Ok(());
            }
        }
        let tricks: Vec<u32> = facts.tricks[..n].iter().map(|t| u32::from(*t)).collect();
        self.check_tricks(&tricks)?;
        self.check_points(&tricks, &facts.points[..n])
    }

    /// Checks the tricks won per seat alone, as a scorekeeper checks them before asking for
    /// the card points: they add up to the deal's tricks. The first part of
    /// [`check_facts`](Self::check_facts).
    ///
    /// # Errors
    ///
    /// [`FactsError::PlayerCount`] or [`FactsError::TricksTotal`].
    pub fn check_tricks(&self, tricks: &[u32]) -> Result<(), FactsError> {
        let n = self.players as usize;
        if tricks.len() != n {
            return Err(FactsError::PlayerCount {
                given: tricks.len(),
                players: n,
            });
        }
        let given: u64 = tricks.iter().map(|t| u64::from(*t)).sum();
        if given != self.tricks() as u64 {
            return Err(FactsError::TricksTotal {
                given: usize::try_from(given).unwrap_or(usize::MAX),
                expected: self.tricks(),
            });
        }
        Ok(())
    }

    /// Checks the card points per seat against tricks already checked by
    /// [`check_tricks`](Self::check_tricks): they add up to the deal's total and a seat with
    /// no trick has none. The rest of [`check_facts`](Self::check_facts).
    ///
    /// # Errors
    ///
    /// [`FactsError::PlayerCount`], [`FactsError::PointsTotal`] or
    /// [`FactsError::PointsWithoutTrick`].
    pub fn check_points(&self, tricks: &[u32], points: &[u32]) -> Result<(), FactsError> {
        let n = self.players as usize;
        if points.len() != n || tricks.len() != n {
            return Err(FactsError::PlayerCount {
                given: points.len(),
                players: n,
            });
        }
        let given: u64 = points.iter().map(|p| u64::from(*p)).sum();
        let (low, high) = self.card_point_total();
        if !(u64::from(low)..=u64::from(high)).contains(&given) {
            return Err(FactsError::PointsTotal {
                given: u32::try_from(given).unwrap_or(u32::MAX),
                low,
                high,
            });
        }
        if let Some(seat) = (0..n).find(|s| tricks[*s] == 0 && points[*s] > 0) {
            return Err(FactsError::PointsWithoutTrick {
                seat,
                points: points[seat],
            });
        }
        Ok(())
    }

    /// Whether a deal's tricks count only as "took no trick" and "took every trick" (the Jass
    /// games, scored by card points): a scorekeeper ticks those instead of counting tricks.
    #[must_use]
    pub const fn tricks_as_ticks(&self) -> bool {
        matches!(
            self.scoring,
            Scoring::Mittlere { .. }
                | Scoring::Molotow { .. }
                | Scoring::PlusMinus
                | Scoring::OwnPoints
        )
    }

    /// Tricks per seat that stand for a scorekeeper's ticks where only they count
    /// ([`tricks_as_ticks`](Self::tricks_as_ticks)): every trick to `every`, none to the seats
    /// in `none`, the others sharing the deal's tricks as evenly as possible. `None` when the
    /// ticks contradict each other (`every` also in `none`) or leave no seat a trick.
    #[must_use]
    pub fn tricks_from_ticks(&self, none: &[Seat], every: Option<Seat>) -> Option<Vec<u32>> {
        let n = self.players as usize;
        let total = u32::try_from(self.tricks()).ok()?;
        let mut tricks = vec![0; n];
        if let Some(s) = every {
            if s >= n || none.contains(&s) {
                return None;
            }
            tricks[s] = total;
            return Some(tricks);
        }
        let takers: Vec<usize> = (0..n).filter(|s| !none.contains(s)).collect();
        let count = u32::try_from(takers.len()).ok().filter(|c| *c > 0)?;
        for (i, s) in takers.iter().enumerate() {
            let extra = u32::from((i as u32) < total % count);
            tricks[*s] = total / count + extra;
        }
        Some(tricks)
    }

    /// Whether a deal's tricks are entered given its Lot: not when a Lot was declared in a
    /// trick-table game (the Lot alone scores it, and the deal may have ended early).
    #[must_use]
    pub fn tricks_needed(&self, lot: Option<LotResult>) -> bool {
        !(lot.is_some() && matches!(self.scoring, Scoring::TrickTable { .. }))
    }

    /// The seats that must draw a card to settle this deal (Molotow rule 3), if any.
    #[must_use]
    pub fn draw_needed(&self, facts: &DealFacts) -> Option<u8> {
        let Scoring::Molotow { .. } = self.scoring else {
            return None;
        };
        match molotow_rule(facts) {
            (ScoreRule::ThreeEqual, tied) => Some(tied),
            _ => None,
        }
    }

    /// Scores a finished deal. `totals` are the seats' totals before it (Mura's bonus never
    /// takes a total below 0); `draw` is the seat whose drawn card was highest, where a rule
    /// needs one (it is ignored otherwise).
    ///
    /// # Errors
    ///
    /// [`ScoreError::NeedsDraw`] or [`ScoreError::BadDraw`] for Molotow's three-way tie.
    pub fn score(
        &self,
        facts: &DealFacts,
        totals: &[i32],
        draw: Option<Seat>,
    ) -> Result<DealScore, ScoreError> {
        let mut out = DealScore {
            scores: [0; MAX_SEATS],
            rule: ScoreRule::TrickTable,
            held: [0; 2],
        };
        let n = facts.players;
        let s = &mut out.scores;
        let everyone = |s: &mut [i32; MAX_SEATS], v: i32| s[..n].fill(v);
        match self.scoring {
            Scoring::TrickTable { points } => match (facts.lot, self.lot) {
                (Some(lot), Some(rules)) => match lot.winner {
                    Some(winner) => {
                        s[winner] = rules.success;
                        out.rule = ScoreRule::LotSucceeded;
                    }
                    None => {
                        for seat in facts.seats().filter(|x| !lot.declaring().contains(*x)) {
                            s[seat] = rules.fail;
                        }
                        out.rule = ScoreRule::LotFailed;
                    }
                },
                _ => {
                    for seat in facts.seats() {
                        s[seat] = i32::from(points[usize::from(facts.tricks[seat]).min(7)]);
                    }
                }
            },
            Scoring::Mittlere {
                hundred_with_no_trick,
            } => {
                let total: u8 = facts.tricks[..n].iter().sum();
                let all = facts.seats().find(|x| facts.tricks[*x] == total);
                let none = facts.seats().find(|x| facts.tricks[*x] == 0);
                let hundred = facts.seats().find(|x| facts.points[*x] >= 100);
                if let Some(seat) = all {
                    everyone(s, -1);
                    s[seat] = 2;
                    out.rule = ScoreRule::AllTricks;
                } else if let (true, Some(h), Some(z)) = (hundred_with_no_trick, hundred, none) {
                    everyone(s, 2);
                    s[h] = -1;
                    s[z] = -1;
                    out.rule = ScoreRule::HundredAndNoTrick;
                } else if let Some(seat) = none {
                    everyone(s, 1);
                    s[seat] = -2;
                    out.rule = ScoreRule::NoTrick;
                } else if let Some(seat) = hundred {
                    everyone(s, 1);
                    s[seat] = -2;
                    out.rule = ScoreRule::Hundred;
                } else {
                    let order = facts.by_points();
                    let (hi, mid, lo) = (order[0], order[1], order[2]);
                    if facts.points[hi] == facts.points[mid]
                        || facts.points[mid] == facts.points[lo]
                    {
                        everyone(s, -1);
                        let third = if facts.points[hi] == facts.points[mid] {
                            lo
                        } else {
                            hi
                        };
                        s[third] = 2;
                        out.rule = ScoreRule::TwoEqual;
                    } else {
                        s[hi] = 1;
                        s[lo] = 1;
                        s[mid] = -2;
                        out.rule = ScoreRule::HighestAndLowest;
                    }
                }
            }
            Scoring::Molotow { middle_wins } => {
                let (rule, tied) = molotow_rule(facts);
                out.rule = rule;
                let order = facts.by_points();
                let (sign_ends, sign_middle) = if middle_wins { (-1, 1) } else { (1, -1) };
                match rule {
                    ScoreRule::AllPoints => {
                        everyone(s, -1);
                        s[order[0]] = 3;
                    }
                    ScoreRule::Hundred => {
                        everyone(s, 1);
                        s[order[0]] = -3;
                    }
                    ScoreRule::ThreeEqual => {
                        let Some(drawer) = draw else {
                            return Err(ScoreError::NeedsDraw { tied });
                        };
                        let tied_seats = SeatSet::from_bits(tied);
                        if drawer >= n || !tied_seats.contains(drawer) {
                            return Err(ScoreError::BadDraw { seat: drawer, tied });
                        }
                        let fourth = facts
                            .seats()
                            .find(|x| !tied_seats.contains(*x))
                            .unwrap_or(0);
                        s[fourth] = 1;
                        s[drawer] = -1;
                    }
                    ScoreRule::TwoLowestEqual => {
                        s[order[0]] = 1;
                        s[order[1]] = -1;
                    }
                    ScoreRule::TwoHighestEqual => {
                        s[order[2]] = -1;
                        s[order[3]] = 1;
                    }
                    _ => {
                        s[order[0]] = sign_ends;
                        s[order[3]] = sign_ends;
                        s[order[1]] = sign_middle;
                        s[order[2]] = sign_middle;
                    }
                }
            }
            Scoring::PlusMinus => {
                let order = facts.by_points();
                let (hi, lo) = (order[0], order[n - 1]);
                let odd_one = facts.seats().find(|x| {
                    let mut others = facts.seats().filter(|y| y != x).map(|y| facts.points[y]);
                    let first = others.next();
                    first.is_some_and(|f| f != facts.points[*x] && others.all(|p| p == f))
                });
                if let Some(seat) = odd_one {
                    s[seat] = 2;
                    out.rule = ScoreRule::AllButOneEqual;
                } else {
                    out.rule = ScoreRule::PlusMinus;
                    let top = facts.with_points(facts.points[hi]);
                    let bottom = facts.with_points(facts.points[lo]);
                    if facts.points[hi] < 100 {
                        match top.len() {
                            1 => s[hi] = 1,
                            2 => out.held[0] = top.bits(),
                            _ => {}
                        }
                    }
                    match bottom.len() {
                        1 => s[lo] = 1,
                        2 => out.held[1] = bottom.bits(),
                        _ => {}
                    }
                }
            }
            Scoring::OwnPoints => {
                let order = facts.by_points();
                let p = |seat: Seat| facts.points[seat] as i32;
                let (hi, mid, lo) = (order[0], order[1], order[n - 1]);
                if p(hi) == p(mid) {
                    s[lo] = p(lo);
                    out.rule = ScoreRule::OwnPointsTwoEqual;
                } else if p(mid) == p(lo) {
                    s[hi] = p(hi);
                    out.rule = ScoreRule::OwnPointsTwoEqual;
                } else {
                    s[hi] = p(hi);
                    s[lo] = p(lo);
                    out.rule = ScoreRule::OwnPoints;
                }
            }
            Scoring::Mura {
                threshold,
                bonus_at,
            } => {
                out.rule = ScoreRule::Penalty;
                for seat in facts.seats() {
                    let points = facts.points[seat];
                    s[seat] = match bonus_at {
                        Some(b) if points >= u32::from(b) => {
                            if totals.get(seat).copied().unwrap_or(0) > 0 {
                                -1
                            } else {
                                0
                            }
                        }
                        _ if points >= u32::from(threshold) => 0,
                        _ => i32::from(facts.tricks[seat]) + 1,
                    };
                }
            }
        }
        Ok(out)
    }
}

/// Molotow's first matching rule and, for the three-way tie, the tied seats.
fn molotow_rule(facts: &DealFacts) -> (ScoreRule, u8) {
    let total: u32 = facts.points[..facts.players].iter().sum();
    let order = facts.by_points();
    let p = |i: usize| facts.points[order[i]];
    if total > 0 && p(0) == total {
        return (ScoreRule::AllPoints, 0);
    }
    if p(0) >= 100 {
        return (ScoreRule::Hundred, 0);
    }
    for i in 0..facts.players {
        let tied = facts.with_points(facts.points[i]);
        if tied.len() == 3 {
            return (ScoreRule::ThreeEqual, tied.bits());
        }
    }
    let rule = if p(2) == p(3) {
        ScoreRule::TwoLowestEqual
    } else if p(0) == p(1) {
        ScoreRule::TwoHighestEqual
    } else if p(1) == p(2) {
        ScoreRule::TwoMiddleEqual
    } else {
        ScoreRule::AllDiffer
    };
    (rule, 0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::deal::random_finished_deal;
    use crate::ruleset::Preset;

    #[test]
    fn tricks_and_points_are_checked_apart() {
        let jass = Preset::MittlereJass.ruleset();
        assert_eq!(jass.check_tricks(&[4, 4, 4]), Ok(()));
        assert_eq!(
            jass.check_tricks(&[4, 4, 5]),
            Err(FactsError::TricksTotal {
                given: 13,
                expected: 12
            })
        );
        assert_eq!(
            jass.check_tricks(&[u32::MAX, u32::MAX, 0]),
            Err(FactsError::TricksTotal {
                given: usize::try_from(2 * u64::from(u32::MAX)).unwrap_or(usize::MAX),
                expected: 12
            })
        );
        assert_eq!(
            jass.check_tricks(&[6, 6]),
            Err(FactsError::PlayerCount {
                given: 2,
                players: 3
            })
        );
        assert_eq!(jass.check_points(&[4, 4, 4], &[50, 50, 57]), Ok(()));
        assert_eq!(
            jass.check_points(&[4, 4, 4], &[50, 50, 58]),
            Err(FactsError::PointsTotal {
                given: 158,
                low: 157,
                high: 157
            })
        );
        assert_eq!(
            jass.check_points(&[0, 6, 6], &[10, 70, 77]),
            Err(FactsError::PointsWithoutTrick {
                seat: 0,
                points: 10
            })
        );
        let mini = Preset::MiniMisere4.ruleset();
        let lot = Some(LotResult {
            declarers: 1,
            winner: None,
        });
        assert!(mini.tricks_needed(None));
        assert!(!mini.tricks_needed(lot));
        assert!(Preset::Mura4.ruleset().tricks_needed(None));
        assert!(jass.tricks_as_ticks());
        assert!(!mini.tricks_as_ticks());
        assert!(!Preset::Mura4.ruleset().tricks_as_ticks());
        assert_eq!(jass.tricks_from_ticks(&[], Some(1)), Some(vec![0, 12, 0]));
        assert_eq!(jass.tricks_from_ticks(&[2], None), Some(vec![6, 6, 0]));
        assert_eq!(jass.tricks_from_ticks(&[], None), Some(vec![4, 4, 4]));
        let molotow = Preset::MolotowJass.ruleset();
        assert_eq!(
            molotow.tricks_from_ticks(&[0], None),
            Some(vec![0, 3, 3, 3])
        );
        assert_eq!(molotow.tricks_from_ticks(&[], None), Some(vec![3, 2, 2, 2]));
        assert_eq!(jass.tricks_from_ticks(&[1], Some(1)), None);
        assert_eq!(jass.tricks_from_ticks(&[0, 1, 2], None), None);
    }

    #[test]
    fn score_bounds_hold_every_deal_score() {
        let expected = |p: Preset| match p {
            Preset::MiniMisere4 | Preset::MiniMisere6 | Preset::MiniMisere3 => (0, 12),
            Preset::MiniMisere4_1989 => (0, 14),
            Preset::MiniMisere5 | Preset::MiniMisere5_1989 => (0, 10),
            Preset::MittlereJass | Preset::Middler => (-2, 2),
            Preset::MolotowJass => (-3, 3),
            Preset::PlusMinusJass3 | Preset::PlusMinusJass4 => (0, 2),
            Preset::MiddlerJoker => (0, 121),
            Preset::Mura4 => (0, 10),
            Preset::Mura3 => (0, 13),
        };
        for p in Preset::ALL {
            let rules = p.ruleset();
            assert_eq!(rules.score_bounds(), expected(p), "{p}");
            let (low, high) = rules.score_bounds();
            for seed in 0..40 {
                let deal = random_finished_deal(rules, seed);
                let facts = DealFacts::of(&deal);
                let draw = rules
                    .draw_needed(&facts)
                    .and_then(|t| SeatSet::from_bits(t).first());
                let score = rules.score(&facts, &[0; MAX_SEATS], draw).expect("scored");
                for s in &score.scores[..deal.players()] {
                    assert!((low..=high).contains(s), "{p} seed {seed}: {s}");
                }
            }
        }
        let bonus = Ruleset::from_options("mura-4", [("bonus_at", &serde_json::json!(8))]).unwrap();
        assert_eq!(bonus.score_bounds(), (-1, 10));
    }
}
