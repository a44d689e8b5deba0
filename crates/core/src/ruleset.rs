//! The rules of a game as one value of independent options, and the named presets.
//!
//! Every game of the rules specification is a [`Preset`], which is nothing more than a
//! [`Ruleset`] value with a name. House rules start from a preset and change options by their
//! interchange names ([`Ruleset::set_option`]). Behaviour that differs between games lives in
//! small enums ([`FollowRule`], [`TrumpRule`], [`Scoring`], ...) that the engine matches in one
//! place each; nothing in the engine looks at which preset a ruleset came from.

use std::fmt;

use serde_json::Value;

use crate::card::{Card, CardSet, Rank, Suit};

/// The most seats any ruleset has.
pub const MAX_SEATS: usize = 5;

/// [`Ruleset::strength`] of a card that cannot win the trick: off the led suit and not a trump
/// (or a joker that was not led, where the joker then loses).
pub const STRENGTH_LOSES: u8 = 0;
/// [`Ruleset::strength`] of the low card led where it beats every card of its suit: above every
/// plain card of the suit (their strengths are the rank order's, from 1), below every trump.
pub const STRENGTH_LED_LOW: u8 = 31;
/// The least [`Ruleset::strength`] of a trump: a trump is this plus its rank's strength in the
/// trump order, so every trump beats every plain card.
pub const STRENGTH_TRUMP: u8 = 32;
/// [`Ruleset::strength`] of the joker that is the highest trump (Middler with joker).
pub const STRENGTH_JOKER_TRUMP: u8 = 48;
/// [`Ruleset::strength`] of a led Mini Misère joker: it wins the trick.
pub const STRENGTH_LED_JOKER: u8 = 64;

// The bands do not overlap: plain strengths are 1 to 10, so trumps run to `STRENGTH_TRUMP + 10`.
const _: () = assert!(
    STRENGTH_LOSES < 1
        && 10 < STRENGTH_LED_LOW
        && STRENGTH_LED_LOW < STRENGTH_TRUMP
        && STRENGTH_TRUMP + 10 < STRENGTH_JOKER_TRUMP
        && STRENGTH_JOKER_TRUMP < STRENGTH_LED_JOKER
);

/// Which card wins within a suit, high to low.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum Ranking {
    /// A K Q J T 9 8 7 6 2: the natural order.
    AceHigh,
    /// J 9 A K Q T 8 7 6: the Jass trump suit.
    JassTrump,
    /// T 9 A K Q J 8 7 6: Mura.
    TenNineAce,
}

impl Ranking {
    /// The strength of `rank` in this order (higher wins), from 1.
    #[must_use]
    pub const fn strength(self, rank: Rank) -> u8 {
        const ACE_HIGH: [u8; 16] = [0, 0, 1, 0, 0, 0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0];
        const JASS_TRUMP: [u8; 16] = [0, 0, 1, 0, 0, 0, 2, 3, 4, 9, 5, 10, 6, 7, 8, 0];
        const TEN_NINE_ACE: [u8; 16] = [0, 0, 1, 0, 0, 0, 2, 3, 4, 9, 10, 5, 6, 7, 8, 0];
        let table = match self {
            Ranking::AceHigh => &ACE_HIGH,
            Ranking::JassTrump => &JASS_TRUMP,
            Ranking::TenNineAce => &TEN_NINE_ACE,
        };
        table[rank.index() as usize]
    }

    /// The ranks of `deck` in this order, high to low.
    #[must_use]
    pub fn order(self, ranks: u16) -> Vec<Rank> {
        let mut out: Vec<Rank> = Rank::ALL
            .into_iter()
            .filter(|r| ranks & (1 << r.index()) != 0)
            .collect();
        out.sort_by_key(|r| std::cmp::Reverse(self.strength(*r)));
        out
    }
}

/// When the seats may declare the Lot (RULES.md 1.4).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum LotTiming {
    /// Current rules: as a seat plays its card to the first trick (`lot` just before it).
    FirstCard,
    /// 1989 rules: before the first lead, asked in turn from the leader; the first `lot` ends it.
    BeforeLead,
}

impl LotTiming {
    /// The interchange value: `"first-card"` or `"before-lead"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            LotTiming::FirstCard => "first-card",
            LotTiming::BeforeLead => "before-lead",
        }
    }
}

/// The Lot: a declaration to win every trick, scored instead of the trick table.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Lot {
    /// When it is declared.
    pub timing: LotTiming,
    /// What a declarer who wins every trick scores (nobody else scores).
    pub success: i32,
    /// What every non-declarer scores when no declarer wins every trick.
    pub fail: i32,
}

/// How the joker behaves, in the rulesets that have one (its presence puts it in the deck).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum JokerRule {
    /// Current Mini Misère: led, it wins and the others may play anything; not led, only a
    /// seat void in the led suit may play it, and it loses.
    LeadWinsFreeFollow,
    /// 1989 Mini Misère: led, it wins and the leader names a suit the others must follow;
    /// not led, it may be played at any time and loses.
    LeadWinsNamesSuit,
    /// Middler: the highest trump, worth one point (RULES.md 2.8).
    HighestTrump,
}

/// How a trump suit comes about.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum TrumpRule {
    /// No trumps.
    NoTrump,
    /// The first card that does not follow suit makes its suit trump (RULES.md 2.2).
    FirstOffSuit,
}

/// What a seat must play when it is not leading.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum FollowRule {
    /// Follow the led suit when able, otherwise any card.
    MustFollow,
    /// Jass (RULES.md 2.3): follow or trump, no undertrumping when able to follow, trump led
    /// must be followed with a trump, except by the trump Jack alone.
    Jass,
    /// Handjass (RULES.md 2.7): follow and beat when able; void, trump when able.
    Handjass,
}

impl FollowRule {
    /// The interchange value: `"must-follow"`, `"jass"` or `"handjass"`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            FollowRule::MustFollow => "must-follow",
            FollowRule::Jass => "jass",
            FollowRule::Handjass => "handjass",
        }
    }
}

/// Which captured cards are worth points.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum CardPoints {
    /// No card points.
    None,
    /// Jass values: A 11, K 4, Q 3, J 2, T 10; in the trump suit under the Jass trump order
    /// J 20 and 9 14. The joker is worth `joker`.
    Jass {
        /// Whether each 8 is worth 8 when a deal ends with no trump set.
        no_trump_eights: bool,
        /// The joker's value.
        joker: u8,
    },
    /// Mura: K, Q, J one point each; an ace one point, two to its owner when it wins its trick.
    Mura,
}

/// How a finished deal is scored.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub enum Scoring {
    /// Mini Misère: points by tricks won (`points[tricks]`), the Lot replacing the table.
    TrickTable {
        /// Score for 0, 1, 2, ... tricks.
        points: [i8; 8],
    },
    /// Mittlere Jass (RULES.md 2.4), optionally with Middler's extra rule (2.7).
    Mittlere {
        /// Middler: one seat with 100 points or more and another with no trick score −1
        /// each, the third +2 (checked before the no-trick rule).
        hundred_with_no_trick: bool,
    },
    /// Molotow Jass (RULES.md 2.5).
    Molotow {
        /// The seed's literal signs for rules 6 and 7 (highest and lowest −1, middle +1).
        middle_wins: bool,
    },
    /// Plus-Minus Jass (RULES.md 2.6), with held-over points when the top or bottom is shared.
    PlusMinus,
    /// Middler with joker: the highest and the lowest score their own card points.
    OwnPoints,
    /// Mura penalty points (RULES.md 3).
    Mura {
        /// Captured points that exempt a seat from its penalty.
        threshold: u8,
        /// Captured points that take one penalty point off instead.
        bonus_at: Option<u8>,
    },
}

impl Scoring {
    /// Whether scores are penalties, so that the fewest wins.
    #[must_use]
    pub const fn is_penalty(self) -> bool {
        matches!(self, Scoring::Mura { .. })
    }
}

/// What happens at the end of a game when the best total is shared at the target.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum TieRule {
    /// Keep dealing until one seat alone has the best total.
    PlayOn,
    /// The tied seats share the win.
    Share,
}

/// When a game ends.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum GameEnd {
    /// After a deal in which some seat's total reaches `points`.
    Target {
        /// The total to reach (a penalty limit when scores are penalties).
        points: i32,
        /// What a shared best total does.
        tie: TieRule,
    },
    /// After exactly this many deals; seats tied for the best total share the win.
    Deals(u32),
}

/// A game's full set of rules: one plain value of independent options.
///
/// Build one from a [`Preset`] and adjust it with [`Ruleset::set_option`] (which checks
/// applicability) or by assigning fields and calling [`Ruleset::validate`].
///
/// ```
/// use torite_core::{Preset, Ruleset, LotTiming};
/// let mut rules = Preset::MiniMisere4.ruleset();
/// rules.set_option("lot_timing", &serde_json::json!("before-lead"))?;
/// assert_eq!(rules.lot.unwrap().timing, LotTiming::BeforeLead);
/// # Ok::<_, torite_core::RulesetError>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
#[non_exhaustive]
pub struct Ruleset {
    /// The preset this ruleset was made from: a name for display and records only.
    pub base: Preset,
    /// The number of seats.
    pub players: u8,
    /// The ranks in the deck, as a lane mask (bit `rank.index()`); every suit has them.
    pub ranks: u16,
    /// The plain order within a suit.
    pub ranking: Ranking,
    /// The "low card" of Mini Misère (the 2, or a 9 replacing it), if the ruleset has one.
    pub low_card: Option<Rank>,
    /// Whether the low card, when led, beats every card of its suit.
    pub led_low_wins: bool,
    /// The joker and its behaviour; `Some` puts a joker in the deck.
    pub joker: Option<JokerRule>,
    /// The Lot, if the ruleset has one.
    pub lot: Option<Lot>,
    /// How trump comes about.
    pub trump: TrumpRule,
    /// The order within the trump suit.
    pub trump_ranking: Ranking,
    /// What a seat must play to a trick.
    pub follow: FollowRule,
    /// Which captured cards are worth points.
    pub card_points: CardPoints,
    /// Points for winning the last trick.
    pub last_trick_bonus: u8,
    /// How a deal is scored.
    pub scoring: Scoring,
    /// When the game ends.
    pub end: GameEnd,
    /// Which way play goes round the table: only how a table is drawn, never the logic.
    pub direction: Direction,
}

/// Which way play passes round the table (seen from above).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Direction {
    /// Clockwise: the next seat sits to a player's left (Mini Misère).
    Clockwise,
    /// Counter-clockwise: the next seat sits to a player's right (Jass, Mura).
    CounterClockwise,
}

/// One of the named games of the rules specification.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Preset {
    /// `mini-misere-4`: Mini Misère, current rules, four players.
    MiniMisere4,
    /// `mini-misere-4-1989`: Mini Misère, 1989 rules, four players.
    MiniMisere4_1989,
    /// `mini-misere-5`: Mini Misère, current rules, five players.
    MiniMisere5,
    /// `mini-misere-5-1989`: Mini Misère, 1989 rules, five players.
    MiniMisere5_1989,
    /// `mittlere-jass`: Mittlere Jass, three players.
    MittlereJass,
    /// `molotow-jass`: Molotow Jass, four players.
    MolotowJass,
    /// `plus-minus-jass-3`: Plus-Minus Jass, three players.
    PlusMinusJass3,
    /// `plus-minus-jass-4`: Plus-Minus Jass, four players.
    PlusMinusJass4,
    /// `middler`: Parlett's Middler, three players.
    Middler,
    /// `middler-joker`: Middler with the 33-card pack and joker.
    MiddlerJoker,
    /// `mura-4`: Mura as the Tokyo club plays it, four players.
    Mura4,
    /// `mura-3`: Mura, three players.
    Mura3,
}

const MM_CURRENT: u16 = 1 << 14 | 1 << 13 | 1 << 12 | 1 << 11 | 1 << 10;
const SWISS: u16 = MM_CURRENT | 1 << 9 | 1 << 8 | 1 << 7 | 1 << 6;
const NO_BONUS_JASS: CardPoints = CardPoints::Jass {
    no_trump_eights: true,
    joker: 1,
};

impl Preset {
    /// Every preset, in the order the rules list them.
    pub const ALL: [Preset; 12] = [
        Preset::MiniMisere4,
        Preset::MiniMisere4_1989,
        Preset::MiniMisere5,
        Preset::MiniMisere5_1989,
        Preset::MittlereJass,
        Preset::MolotowJass,
        Preset::PlusMinusJass3,
        Preset::PlusMinusJass4,
        Preset::Middler,
        Preset::MiddlerJoker,
        Preset::Mura4,
        Preset::Mura3,
    ];

    /// The interchange id, e.g. `"mini-misere-4"`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Preset::MiniMisere4 => "mini-misere-4",
            Preset::MiniMisere4_1989 => "mini-misere-4-1989",
            Preset::MiniMisere5 => "mini-misere-5",
            Preset::MiniMisere5_1989 => "mini-misere-5-1989",
            Preset::MittlereJass => "mittlere-jass",
            Preset::MolotowJass => "molotow-jass",
            Preset::PlusMinusJass3 => "plus-minus-jass-3",
            Preset::PlusMinusJass4 => "plus-minus-jass-4",
            Preset::Middler => "middler",
            Preset::MiddlerJoker => "middler-joker",
            Preset::Mura4 => "mura-4",
            Preset::Mura3 => "mura-3",
        }
    }

    /// The preset with this exact id (ids are lower case).
    #[must_use]
    pub fn from_id(id: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.id() == id)
    }

    /// The English name.
    #[must_use]
    pub const fn name_en(self) -> &'static str {
        match self {
            Preset::MiniMisere4 => "Mini Misère (current rules, 4 players)",
            Preset::MiniMisere4_1989 => "Mini Misère (1989 rules, 4 players)",
            Preset::MiniMisere5 => "Mini Misère (current rules, 5 players)",
            Preset::MiniMisere5_1989 => "Mini Misère (1989 rules, 5 players)",
            Preset::MittlereJass => "Mittlere Jass",
            Preset::MolotowJass => "Molotow Jass",
            Preset::PlusMinusJass3 => "Plus-Minus Jass (3 players)",
            Preset::PlusMinusJass4 => "Plus-Minus Jass (4 players)",
            Preset::Middler => "Middler",
            Preset::MiddlerJoker => "Middler with joker (33 cards)",
            Preset::Mura4 => "Mura (4 players)",
            Preset::Mura3 => "Mura (3 players)",
        }
    }

    /// The Japanese name.
    #[must_use]
    pub const fn name_ja(self) -> &'static str {
        match self {
            Preset::MiniMisere4 => "ミニミゼール（現行ルール・4人）",
            Preset::MiniMisere4_1989 => "ミニミゼール（1989年ルール・4人）",
            Preset::MiniMisere5 => "ミニミゼール（現行ルール・5人）",
            Preset::MiniMisere5_1989 => "ミニミゼール（1989年ルール・5人）",
            Preset::MittlereJass => "ミットレール・ヤス",
            Preset::MolotowJass => "モロトフ・ヤス",
            Preset::PlusMinusJass3 => "プラス・マイナス・ヤス（3人）",
            Preset::PlusMinusJass4 => "プラス・マイナス・ヤス（4人）",
            Preset::Middler => "ミドラー",
            Preset::MiddlerJoker => "ミドラー（ジョーカー入り33枚）",
            Preset::Mura4 => "ムーラ（4人）",
            Preset::Mura3 => "ムーラ（3人）",
        }
    }

    /// The preset's rules.
    #[must_use]
    pub const fn ruleset(self) -> Ruleset {
        let mini_misere = Ruleset {
            base: self,
            players: 4,
            ranks: MM_CURRENT | 1 << 2,
            ranking: Ranking::AceHigh,
            low_card: Some(Rank::TWO),
            led_low_wins: true,
            joker: None,
            lot: Some(Lot {
                timing: LotTiming::FirstCard,
                success: 12,
                fail: 6,
            }),
            trump: TrumpRule::NoTrump,
            trump_ranking: Ranking::AceHigh,
            follow: FollowRule::MustFollow,
            card_points: CardPoints::None,
            last_trick_bonus: 0,
            scoring: Scoring::TrickTable {
                points: [6, 1, 2, 3, 8, 10, 0, 0],
            },
            end: GameEnd::Target {
                points: 25,
                tie: TieRule::PlayOn,
            },
            direction: Direction::Clockwise,
        };
        let mittlere = Ruleset {
            base: self,
            players: 3,
            ranks: SWISS,
            ranking: Ranking::AceHigh,
            low_card: None,
            led_low_wins: false,
            joker: None,
            lot: None,
            trump: TrumpRule::FirstOffSuit,
            trump_ranking: Ranking::JassTrump,
            follow: FollowRule::Jass,
            card_points: NO_BONUS_JASS,
            last_trick_bonus: 5,
            scoring: Scoring::Mittlere {
                hundred_with_no_trick: false,
            },
            end: GameEnd::Deals(12),
            direction: Direction::CounterClockwise,
        };
        let mura = Ruleset {
            base: self,
            players: 4,
            ranks: SWISS,
            ranking: Ranking::TenNineAce,
            low_card: None,
            led_low_wins: false,
            joker: None,
            lot: None,
            trump: TrumpRule::NoTrump,
            trump_ranking: Ranking::TenNineAce,
            follow: FollowRule::MustFollow,
            card_points: CardPoints::Mura,
            last_trick_bonus: 0,
            scoring: Scoring::Mura {
                threshold: 4,
                bonus_at: None,
            },
            end: GameEnd::Target {
                points: 10,
                tie: TieRule::Share,
            },
            direction: Direction::CounterClockwise,
        };
        let five_lot = Some(Lot {
            timing: LotTiming::FirstCard,
            success: 10,
            fail: 5,
        });
        let five_table = Scoring::TrickTable {
            points: [5, 1, 2, 6, 8, 0, 0, 0],
        };
        match self {
            Preset::MiniMisere4 => mini_misere,
            Preset::MiniMisere4_1989 => Ruleset {
                ranks: MM_CURRENT | 1 << 9 | 1 << 2,
                lot: Some(Lot {
                    timing: LotTiming::BeforeLead,
                    success: 14,
                    fail: 7,
                }),
                scoring: Scoring::TrickTable {
                    points: [7, 1, 2, 3, 8, 10, 12, 0],
                },
                end: GameEnd::Target {
                    points: 31,
                    tie: TieRule::PlayOn,
                },
                ..mini_misere
            },
            Preset::MiniMisere5 => Ruleset {
                players: 5,
                joker: Some(JokerRule::LeadWinsFreeFollow),
                lot: five_lot,
                scoring: five_table,
                ..mini_misere
            },
            Preset::MiniMisere5_1989 => Ruleset {
                players: 5,
                ranks: MM_CURRENT | 1 << 9,
                low_card: Some(Rank::NINE),
                led_low_wins: false,
                joker: Some(JokerRule::LeadWinsNamesSuit),
                lot: Some(Lot {
                    timing: LotTiming::BeforeLead,
                    success: 10,
                    fail: 5,
                }),
                scoring: five_table,
                ..mini_misere
            },
            Preset::MittlereJass => mittlere,
            Preset::MolotowJass => Ruleset {
                players: 4,
                scoring: Scoring::Molotow { middle_wins: false },
                ..mittlere
            },
            Preset::PlusMinusJass3 => Ruleset {
                scoring: Scoring::PlusMinus,
                end: GameEnd::Target {
                    points: 7,
                    tie: TieRule::PlayOn,
                },
                ..mittlere
            },
            Preset::PlusMinusJass4 => Ruleset {
                players: 4,
                scoring: Scoring::PlusMinus,
                end: GameEnd::Target {
                    points: 7,
                    tie: TieRule::PlayOn,
                },
                ..mittlere
            },
            Preset::Middler => Ruleset {
                follow: FollowRule::Handjass,
                scoring: Scoring::Mittlere {
                    hundred_with_no_trick: true,
                },
                ..mittlere
            },
            Preset::MiddlerJoker => Ruleset {
                ranks: SWISS & !(1 << 6),
                joker: Some(JokerRule::HighestTrump),
                trump_ranking: Ranking::AceHigh,
                follow: FollowRule::MustFollow,
                card_points: CardPoints::Jass {
                    no_trump_eights: false,
                    joker: 1,
                },
                last_trick_bonus: 0,
                scoring: Scoring::OwnPoints,
                ..mittlere
            },
            Preset::Mura4 => mura,
            Preset::Mura3 => Ruleset {
                players: 3,
                scoring: Scoring::Mura {
                    threshold: 5,
                    bonus_at: None,
                },
                ..mura
            },
        }
    }
}

impl fmt::Display for Preset {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// One problem with a ruleset or with an option given for one.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum RulesetProblem {
    /// The ruleset id is not one of the presets.
    UnknownRuleset(String),
    /// The option name is not known at all.
    UnknownOption(String),
    /// The option exists but not for this game.
    NotApplicable {
        /// The option's name.
        option: &'static str,
        /// Why it does not apply.
        why: String,
    },
    /// The option's value is of the wrong type or out of range.
    BadValue {
        /// The option's name.
        option: &'static str,
        /// The value as given.
        value: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// Options that cannot go together.
    Conflict {
        /// The options involved.
        options: Vec<&'static str>,
        /// Why.
        why: String,
    },
}

impl fmt::Display for RulesetProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesetProblem::UnknownRuleset(id) => {
                write!(f, "unknown ruleset {id:?} (known: ")?;
                for (i, p) in Preset::ALL.iter().enumerate() {
                    write!(f, "{}{}", if i > 0 { ", " } else { "" }, p.id())?;
                }
                f.write_str(")")
            }
            RulesetProblem::UnknownOption(name) => write!(
                f,
                "unknown option {name:?} (known: {})",
                OPTION_NAMES.join(", ")
            ),
            RulesetProblem::NotApplicable { option, why } => {
                write!(f, "option {option} does not apply: {why}")
            }
            RulesetProblem::BadValue {
                option,
                value,
                expected,
            } => write!(
                f,
                "option {option} = {value} is invalid: expected {expected}"
            ),
            RulesetProblem::Conflict { options, why } => {
                write!(f, "options {} conflict: {why}", options.join(" and "))
            }
        }
    }
}

/// Why a ruleset or a set of house-rule options was refused: every problem found.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RulesetError {
    /// The problems, in the order found.
    pub problems: Vec<RulesetProblem>,
}

impl From<RulesetProblem> for RulesetError {
    fn from(p: RulesetProblem) -> RulesetError {
        RulesetError { problems: vec![p] }
    }
}

impl fmt::Display for RulesetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for RulesetError {}

/// The interchange option names that [`Ruleset::set_option`] accepts.
pub const OPTION_NAMES: [&str; 9] = [
    "target",
    "deals",
    "lot_timing",
    "low_card",
    "led_low_wins",
    "molotow_middle_wins",
    "follow",
    "threshold",
    "bonus_at",
];

fn bad(option: &'static str, value: &Value, expected: &'static str) -> RulesetProblem {
    RulesetProblem::BadValue {
        option,
        value: value.to_string(),
        expected,
    }
}

fn int_in(option: &'static str, value: &Value, lo: i64, hi: i64) -> Result<i64, RulesetProblem> {
    const EXPECTED: &[(&str, &str)] = &[
        ("target", "an integer from 1 to 10000"),
        ("deals", "an integer from 1 to 10000"),
        ("threshold", "an integer from 0 to 40"),
        ("bonus_at", "an integer from 1 to 40, or null"),
    ];
    let expected = EXPECTED
        .iter()
        .find(|(n, _)| *n == option)
        .map_or("an integer", |(_, e)| *e);
    match value.as_i64() {
        Some(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(bad(option, value, expected)),
    }
}

impl Ruleset {
    /// The deck: every rank of [`Ruleset::ranks`] in four suits, plus the joker if any.
    #[must_use]
    pub const fn deck(&self) -> CardSet {
        let deck = CardSet::of_ranks(self.ranks);
        if self.joker.is_some() {
            deck.with(Card::JOKER)
        } else {
            deck
        }
    }

    /// Whether the `low_card` option applies: the deck's low card is a 2 and the deck has no
    /// 9s (the current Mini Misère decks). The 1989 decks already have 9s (the five-player
    /// deck's 9 is its low card), so the option is refused there.
    #[must_use]
    pub const fn low_card_replaceable(&self) -> bool {
        matches!(self.low_card, Some(Rank::TWO)) && self.ranks & (1 << Rank::NINE.index()) == 0
    }

    /// The number of tricks in a deal (every seat's hand size).
    #[must_use]
    pub const fn tricks(&self) -> usize {
        self.deck().len() / self.players as usize
    }

    /// The short id used in records: the preset id.
    #[must_use]
    pub const fn id(&self) -> &'static str {
        self.base.id()
    }

    /// Whether this is exactly its base preset (no option changed).
    #[must_use]
    pub fn is_preset(&self) -> bool {
        *self == self.base.ruleset()
    }

    /// Checks that the options make sense together, reporting every problem.
    ///
    /// # Errors
    ///
    /// A [`RulesetError`] listing each problem.
    pub fn validate(&self) -> Result<(), RulesetError> {
        let mut problems = Vec::new();
        let mut conflict = |options: &[&'static str], why: String| {
            problems.push(RulesetProblem::Conflict {
                options: options.to_vec(),
                why,
            });
        };
        let deck = self.deck().len();
        if !(2..=MAX_SEATS as u8).contains(&self.players)
            || !deck.is_multiple_of(self.players as usize)
        {
            conflict(
                &["players", "deck"],
                format!(
                    "{deck} cards cannot be dealt evenly to {} seats",
                    self.players
                ),
            );
        }
        if self.follow != FollowRule::MustFollow
            && (self.trump != TrumpRule::FirstOffSuit || self.joker.is_some())
        {
            conflict(
                &["follow"],
                format!(
                    "follow = \"{}\" needs a trump suit set by the first card off suit and no joker; this game accepts only \"must-follow\"",
                    self.follow.as_str()
                ),
            );
        }
        match (self.joker, self.trump) {
            (Some(JokerRule::HighestTrump), TrumpRule::NoTrump) => {
                conflict(
                    &["joker", "trump"],
                    "a joker that is the highest trump needs trumps".into(),
                );
            }
            (
                Some(JokerRule::LeadWinsFreeFollow | JokerRule::LeadWinsNamesSuit),
                TrumpRule::FirstOffSuit,
            ) => {
                conflict(
                    &["joker", "trump"],
                    "a Mini Misère joker needs a game without trumps".into(),
                );
            }
            _ => {}
        }
        if let Some(low) = self.low_card
            && self.ranks & (1 << low.index()) == 0
        {
            conflict(
                &["low_card"],
                format!("the deck has no {} to be the low card", low.letter()),
            );
        }
        if self.led_low_wins && self.low_card.is_none() {
            conflict(&["led_low_wins"], "the deck has no low card".into());
        }
        match (self.scoring, self.card_points) {
            (Scoring::Mura { .. }, CardPoints::Mura) => {}
            (Scoring::Mura { .. }, _) => {
                conflict(&["scoring"], "Mura scoring needs Mura card points".into())
            }
            (
                Scoring::Mittlere { .. }
                | Scoring::Molotow { .. }
                | Scoring::PlusMinus
                | Scoring::OwnPoints,
                CardPoints::Jass { .. },
            ) => {}
            (
                Scoring::Mittlere { .. }
                | Scoring::Molotow { .. }
                | Scoring::PlusMinus
                | Scoring::OwnPoints,
                _,
            ) => {
                conflict(&["scoring"], "Jass scoring needs Jass card points".into());
            }
            (Scoring::TrickTable { .. }, _) => {}
        }
        match self.scoring {
            Scoring::Mittlere { .. } if self.players != 3 => {
                conflict(&["scoring"], "Mittlere scoring is for three players".into());
            }
            Scoring::Molotow { .. } if self.players != 4 => {
                conflict(&["scoring"], "Molotow scoring is for four players".into());
            }
            Scoring::TrickTable { .. } if self.tricks() >= 8 => {
                conflict(
                    &["scoring"],
                    "the trick table has room for at most 7 tricks".into(),
                );
            }
            Scoring::Mura {
                threshold,
                bonus_at: Some(bonus),
            } if bonus <= threshold => conflict(
                &["bonus_at", "threshold"],
                format!("bonus_at ({bonus}) must be above threshold ({threshold})"),
            ),
            _ => {}
        }
        match self.end {
            GameEnd::Target { points, .. } if points < 1 => {
                problems.push(RulesetProblem::BadValue {
                    option: "target",
                    value: points.to_string(),
                    expected: "an integer from 1 to 10000",
                });
            }
            GameEnd::Deals(0) => problems.push(RulesetProblem::BadValue {
                option: "deals",
                value: "0".into(),
                expected: "an integer from 1 to 10000",
            }),
            _ => {}
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(RulesetError { problems })
        }
    }

    /// Sets one option by its interchange name (RULES.md 4), checking that it applies to this
    /// game and that its value is valid. Setting an option to the value it already has is
    /// always accepted.
    ///
    /// # Errors
    ///
    /// [`RulesetProblem::UnknownOption`], [`RulesetProblem::NotApplicable`] or
    /// [`RulesetProblem::BadValue`], naming the option.
    pub fn set_option(&mut self, name: &str, value: &Value) -> Result<(), RulesetProblem> {
        let name: &'static str = OPTION_NAMES
            .into_iter()
            .find(|n| *n == name)
            .ok_or_else(|| RulesetProblem::UnknownOption(name.to_owned()))?;
        let game = self.id();
        let not_applicable = |why: String| RulesetProblem::NotApplicable { option: name, why };
        match name {
            "target" => {
                let points = int_in(name, value, 1, 10_000)? as i32;
                match &mut self.end {
                    GameEnd::Target { points: p, .. } => *p = points,
                    GameEnd::Deals(_) => {
                        return Err(not_applicable(format!(
                            "{game} is played for a number of deals, not to a target (use deals)"
                        )));
                    }
                }
            }
            "deals" => {
                let deals = int_in(name, value, 1, 10_000)? as u32;
                self.end = GameEnd::Deals(deals);
            }
            "lot_timing" => {
                let timing = match value.as_str() {
                    Some("first-card") => LotTiming::FirstCard,
                    Some("before-lead") => LotTiming::BeforeLead,
                    _ => return Err(bad(name, value, "\"first-card\" or \"before-lead\"")),
                };
                let lot = self
                    .lot
                    .as_mut()
                    .ok_or_else(|| not_applicable(format!("{game} has no Lot")))?;
                lot.timing = timing;
            }
            "low_card" => {
                let rank = match value.as_i64() {
                    Some(2) => Rank::TWO,
                    Some(9) => Rank::NINE,
                    _ => return Err(bad(name, value, "2 or 9")),
                };
                if self.low_card.is_none() {
                    return Err(not_applicable(format!("{game} has no low card")));
                }
                if !self.low_card_replaceable() {
                    return Err(not_applicable(format!(
                        "the deck of {game} already has 9s; low_card only replaces the 2s of a deck without 9s"
                    )));
                }
                self.ranks = self.ranks & !(1 << Rank::TWO.index()) | 1 << rank.index();
                self.low_card = Some(rank);
            }
            "led_low_wins" => {
                let wins = value
                    .as_bool()
                    .ok_or_else(|| bad(name, value, "true or false"))?;
                if self.low_card.is_none() {
                    return Err(not_applicable(format!("{game} has no low card")));
                }
                self.led_low_wins = wins;
            }
            "molotow_middle_wins" => {
                let wins = value
                    .as_bool()
                    .ok_or_else(|| bad(name, value, "true or false"))?;
                match &mut self.scoring {
                    Scoring::Molotow { middle_wins } => *middle_wins = wins,
                    _ => {
                        return Err(not_applicable(format!(
                            "{game} is not scored as Molotow Jass"
                        )));
                    }
                }
            }
            "follow" => {
                let follow = match value.as_str() {
                    Some("must-follow") => FollowRule::MustFollow,
                    Some("jass") => FollowRule::Jass,
                    Some("handjass") => FollowRule::Handjass,
                    _ => {
                        return Err(bad(
                            name,
                            value,
                            "\"must-follow\", \"jass\" or \"handjass\"",
                        ));
                    }
                };
                if follow != FollowRule::MustFollow
                    && (self.trump != TrumpRule::FirstOffSuit || self.joker.is_some())
                {
                    return Err(not_applicable(format!(
                        "{game} has no trump suit set by the first card off suit, so it accepts only \"must-follow\""
                    )));
                }
                self.follow = follow;
            }
            "threshold" => {
                let t = int_in(name, value, 0, 40)? as u8;
                match &mut self.scoring {
                    Scoring::Mura { threshold, .. } => *threshold = t,
                    _ => {
                        return Err(not_applicable(format!(
                            "{game} has no exemption threshold (Mura only)"
                        )));
                    }
                }
            }
            "bonus_at" => {
                let b = if value.is_null() {
                    None
                } else {
                    Some(int_in(name, value, 1, 40)? as u8)
                };
                match &mut self.scoring {
                    Scoring::Mura { bonus_at, .. } => *bonus_at = b,
                    _ => return Err(not_applicable(format!("{game} has no bonus (Mura only)"))),
                }
            }
            _ => unreachable!("every name of OPTION_NAMES is matched"),
        }
        Ok(())
    }

    /// A preset with house-rule options applied, as in a record's `{"base": ..., ...}` form.
    /// `target` and `deals` together are refused; every problem is reported.
    ///
    /// # Errors
    ///
    /// A [`RulesetError`] listing the unknown ruleset, unknown or inapplicable options, bad
    /// values and conflicting combinations.
    pub fn from_options<'a>(
        base: &str,
        options: impl IntoIterator<Item = (&'a str, &'a Value)>,
    ) -> Result<Ruleset, RulesetError> {
        let preset =
            Preset::from_id(base).ok_or_else(|| RulesetProblem::UnknownRuleset(base.to_owned()))?;
        let mut rules = preset.ruleset();
        let options: Vec<(&str, &Value)> = options.into_iter().collect();
        let mut problems = Vec::new();
        if options.iter().any(|(n, _)| *n == "target") && options.iter().any(|(n, _)| *n == "deals")
        {
            problems.push(RulesetProblem::Conflict {
                options: vec!["target", "deals"],
                why: "a game ends either at a target or after a number of deals, not both".into(),
            });
        }
        for (name, value) in options {
            if let Err(p) = rules.set_option(name, value) {
                problems.push(p);
            }
        }
        if let Err(e) = rules.validate() {
            problems.extend(e.problems);
        }
        if problems.is_empty() {
            Ok(rules)
        } else {
            Err(RulesetError { problems })
        }
    }

    /// Parses a record's `ruleset` value: a preset id or `{"base": id, ...options}`.
    ///
    /// # Errors
    ///
    /// A [`RulesetError`] as for [`Ruleset::from_options`], or when the value has neither form.
    pub fn from_json(value: &Value) -> Result<Ruleset, RulesetError> {
        match value {
            Value::String(id) => Ruleset::from_options(id, []),
            Value::Object(map) => {
                let base = map.get("base").and_then(Value::as_str).ok_or_else(|| {
                    RulesetError::from(RulesetProblem::BadValue {
                        option: "base",
                        value: map.get("base").map_or("nothing".into(), Value::to_string),
                        expected: "a preset id string",
                    })
                })?;
                Ruleset::from_options(
                    base,
                    map.iter()
                        .filter(|(k, _)| *k != "base")
                        .map(|(k, v)| (k.as_str(), v)),
                )
            }
            other => Err(RulesetProblem::BadValue {
                option: "ruleset",
                value: other.to_string(),
                expected: "a preset id or an object {\"base\": id, ...options}",
            }
            .into()),
        }
    }

    /// The interchange options that apply to this ruleset, with their current values: applied
    /// to the base preset they give this ruleset back.
    #[must_use]
    pub fn options(&self) -> Vec<(&'static str, Value)> {
        let mut out = Vec::new();
        match self.end {
            GameEnd::Target { points, .. } => out.push(("target", Value::from(points))),
            GameEnd::Deals(n) => out.push(("deals", Value::from(n))),
        }
        if let Some(lot) = self.lot {
            out.push(("lot_timing", Value::from(lot.timing.as_str())));
        }
        if let Some(low) = self.low_card {
            if self.base.ruleset().low_card_replaceable() {
                out.push(("low_card", Value::from(low.index())));
            }
            out.push(("led_low_wins", Value::from(self.led_low_wins)));
        }
        if let Scoring::Molotow { middle_wins } = self.scoring {
            out.push(("molotow_middle_wins", Value::from(middle_wins)));
        }
        if self.trump == TrumpRule::FirstOffSuit && self.joker.is_none() {
            out.push(("follow", Value::from(self.follow.as_str())));
        }
        if let Scoring::Mura {
            threshold,
            bonus_at,
        } = self.scoring
        {
            out.push(("threshold", Value::from(threshold)));
            out.push(("bonus_at", bonus_at.map_or(Value::Null, Value::from)));
        }
        out
    }

    /// The options that differ from the base preset (what a record's object form carries).
    #[must_use]
    pub fn overrides(&self) -> Vec<(&'static str, Value)> {
        let base = self.base.ruleset().options();
        let mut out: Vec<_> = self
            .options()
            .into_iter()
            .filter(|o| !base.contains(o))
            .collect();
        // A fixed number of deals replaces the target: the base's own end option is not named.
        if matches!(self.end, GameEnd::Deals(_))
            && !matches!(self.base.ruleset().end, GameEnd::Deals(_))
        {
            out.retain(|(n, _)| *n != "target");
        }
        out
    }

    /// The record form of this ruleset: the id for a preset, otherwise the object form.
    #[must_use]
    pub fn to_json(&self) -> Value {
        if self.is_preset() {
            return Value::from(self.id());
        }
        let mut map = serde_json::Map::new();
        map.insert("base".into(), Value::from(self.id()));
        for (name, value) in self.overrides() {
            map.insert(name.into(), value);
        }
        Value::Object(map)
    }

    /// How strongly `card` competes in a trick: higher wins. [`STRENGTH_LOSES`] (0) means it
    /// cannot win; plain cards of the led suit have their rank order's strength (from 1, at most
    /// 10), a led low card that wins [`STRENGTH_LED_LOW`], trumps [`STRENGTH_TRUMP`] and above,
    /// the joker as the highest trump [`STRENGTH_JOKER_TRUMP`], a led winning joker
    /// [`STRENGTH_LED_JOKER`].
    ///
    /// `led` is the suit to follow (`None` when a led joker left the others free), `trump` the
    /// trump in force, and `leading` whether `card` is the trick's first card.
    #[must_use]
    pub fn strength(&self, card: Card, led: Option<Suit>, trump: Trump, leading: bool) -> u8 {
        let lane = card.index() >> 4;
        let rank = Rank(card.index() & 15);
        if card.is_joker() {
            return match self.joker {
                Some(JokerRule::HighestTrump) => STRENGTH_JOKER_TRUMP,
                _ if leading => STRENGTH_LED_JOKER,
                _ => STRENGTH_LOSES,
            };
        }
        if let Trump::Suit(t) = trump
            && t as u8 == lane
        {
            return STRENGTH_TRUMP + self.trump_ranking.strength(rank);
        }
        match led {
            Some(l) if l as u8 == lane => {}
            _ => return STRENGTH_LOSES,
        }
        if leading && self.led_low_wins && self.low_card == Some(rank) {
            return STRENGTH_LED_LOW;
        }
        self.ranking.strength(rank)
    }
}

/// The trump in force during a deal: a fact of the state, not a rule.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub enum Trump {
    /// No trump (yet).
    #[default]
    None,
    /// A trump suit.
    Suit(Suit),
    /// Middler with joker: the joker came before any trump suit and is the only trump.
    JokerOnly,
}

impl Trump {
    /// The trump suit, if one is set.
    #[must_use]
    pub const fn suit(self) -> Option<Suit> {
        match self {
            Trump::Suit(s) => Some(s),
            _ => None,
        }
    }
}

impl fmt::Display for Trump {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Trump::None => f.write_str("none"),
            Trump::Suit(s) => write!(f, "{s}"),
            Trump::JokerOnly => f.write_str("JK"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn every_preset_is_valid_and_named() {
        for p in Preset::ALL {
            let r = p.ruleset();
            r.validate().unwrap_or_else(|e| panic!("{p}: {e}"));
            assert_eq!(Preset::from_id(p.id()), Some(p));
            assert!(r.is_preset());
        }
    }

    #[test]
    fn deck_sizes_match_the_rules() {
        let sizes = [24, 28, 25, 25, 36, 36, 36, 36, 36, 33, 36, 36];
        for (p, size) in Preset::ALL.into_iter().zip(sizes) {
            assert_eq!(p.ruleset().deck().len(), size, "{p}");
        }
    }

    #[test]
    fn ids_are_exact() {
        assert_eq!(Preset::from_id("Mini-Misere-4"), None);
        assert_eq!(Preset::from_id("mini-misere-4 "), None);
    }

    #[test]
    fn strength_bands_are_ordered() {
        // Every plain card's rank strength lies below the led low card's band.
        for ranking in [Ranking::AceHigh, Ranking::JassTrump, Ranking::TenNineAce] {
            for rank in Rank::ALL {
                let s = ranking.strength(rank);
                assert!(
                    s > STRENGTH_LOSES && s < STRENGTH_LED_LOW,
                    "{ranking:?} {rank:?}"
                );
            }
        }
        let rules = Preset::MiniMisere4.ruleset();
        let two: Card = "2S".parse().unwrap();
        assert_eq!(
            rules.strength(two, Some(Suit::Spades), Trump::None, true),
            STRENGTH_LED_LOW
        );
        let jass = Preset::MittlereJass.ruleset();
        let jack: Card = "JH".parse().unwrap();
        assert_eq!(
            jass.strength(jack, Some(Suit::Spades), Trump::Suit(Suit::Hearts), false),
            STRENGTH_TRUMP + Ranking::JassTrump.strength(Rank::JACK)
        );
        assert_eq!(
            jass.strength(jack, Some(Suit::Spades), Trump::None, false),
            STRENGTH_LOSES
        );
    }

    #[test]
    fn rank_orders() {
        let names = |r: Ranking, ranks| {
            r.order(ranks)
                .iter()
                .map(|r| r.letter())
                .collect::<String>()
        };
        assert_eq!(names(Ranking::AceHigh, SWISS), "AKQJT9876");
        assert_eq!(names(Ranking::JassTrump, SWISS), "J9AKQT876");
        assert_eq!(names(Ranking::TenNineAce, SWISS), "T9AKQJ876");
    }

    #[test]
    fn low_card_nine_replaces_the_twos() {
        let rules = Ruleset::from_options("mini-misere-4", [("low_card", &json!(9))]).unwrap();
        assert_eq!(
            rules
                .deck()
                .to_string()
                .split(' ')
                .filter(|c| c.starts_with('9'))
                .count(),
            4
        );
        assert!(!rules.deck().contains("2S".parse().unwrap()));
        assert_eq!(rules.low_card, Some(Rank::NINE));
    }

    #[test]
    fn low_card_refused_for_1989_presets() {
        for base in ["mini-misere-4-1989", "mini-misere-5-1989"] {
            let other = if base == "mini-misere-4-1989" { 9 } else { 2 };
            let err = Ruleset::from_options(base, [("low_card", &json!(other))]).unwrap_err();
            assert!(err.to_string().contains("low_card"), "{err}");
        }
    }

    #[test]
    fn options_that_do_not_apply_are_refused_by_name() {
        let cases = [
            ("mittlere-jass", "target", json!(10), "target"),
            (
                "mittlere-jass",
                "lot_timing",
                json!("before-lead"),
                "lot_timing",
            ),
            ("mini-misere-4", "follow", json!("jass"), "follow"),
            ("middler-joker", "follow", json!("jass"), "follow"),
            (
                "mura-4",
                "molotow_middle_wins",
                json!(true),
                "molotow_middle_wins",
            ),
            ("mini-misere-4", "threshold", json!(6), "threshold"),
            ("mini-misere-4", "colour", json!(1), "colour"),
            ("mura-4", "threshold", json!("6"), "threshold"),
            ("mura-4", "bonus_at", json!(3), "bonus_at"),
            ("mini-misere-4", "lot_timing", json!("never"), "lot_timing"),
        ];
        for (base, name, value, named) in cases {
            let err = Ruleset::from_options(base, [(name, &value)]).unwrap_err();
            assert!(err.to_string().contains(named), "{base} {name}: {err}");
        }
    }

    #[test]
    fn target_and_deals_together_are_refused() {
        let err = Ruleset::from_options(
            "mini-misere-4",
            [("target", &json!(30)), ("deals", &json!(4))],
        )
        .unwrap_err();
        assert!(err.to_string().contains("target and deals"), "{err}");
    }

    #[test]
    fn house_rules_from_the_rules_text() {
        let r = Ruleset::from_options("mini-misere-4", [("lot_timing", &json!("before-lead"))])
            .unwrap();
        assert_eq!(r.lot.unwrap().timing, LotTiming::BeforeLead);
        let r = Ruleset::from_options(
            "mura-4",
            [("threshold", &json!(6)), ("bonus_at", &json!(7))],
        )
        .unwrap();
        assert_eq!(
            r.scoring,
            Scoring::Mura {
                threshold: 6,
                bonus_at: Some(7)
            }
        );
        let r = Ruleset::from_options("mittlere-jass", [("deals", &json!(24))]).unwrap();
        assert_eq!(r.end, GameEnd::Deals(24));
    }

    #[test]
    fn options_round_trip_through_json() {
        for p in Preset::ALL {
            let r = p.ruleset();
            let opts = r.options();
            let back = Ruleset::from_options(p.id(), opts.iter().map(|(n, v)| (*n, v))).unwrap();
            assert_eq!(back, r);
            assert_eq!(Ruleset::from_json(&r.to_json()).unwrap(), r);
        }
        let r = Ruleset::from_options(
            "mini-misere-4",
            [("deals", &json!(3)), ("low_card", &json!(9))],
        )
        .unwrap();
        let j = r.to_json();
        assert_eq!(
            j,
            json!({"base": "mini-misere-4", "deals": 3, "low_card": 9})
        );
        assert_eq!(Ruleset::from_json(&j).unwrap(), r);
    }
}
