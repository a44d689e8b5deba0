//! The named games of the rules specification: each a [`Ruleset`] value with an id.

use std::fmt;

use super::*;

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
    /// `mini-misere-6`: Mini Misère, six players (RULES.md 1.7).
    MiniMisere6,
    /// `mini-misere-3`: Mini Misère, three players, with the three-player joker (RULES.md 1.7).
    MiniMisere3,
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

pub(super) const MM_CURRENT: u16 = 1 << 14 | 1 << 13 | 1 << 12 | 1 << 11 | 1 << 10;
pub(super) const SWISS: u16 = MM_CURRENT | 1 << 9 | 1 << 8 | 1 << 7 | 1 << 6;
const NO_BONUS_JASS: CardPoints = CardPoints::Jass {
    no_trump_eights: true,
    joker: 1,
};

impl Preset {
    /// Every preset, in the order the rules list them.
    pub const ALL: [Preset; 14] = [
        Preset::MiniMisere4,
        Preset::MiniMisere4_1989,
        Preset::MiniMisere5,
        Preset::MiniMisere5_1989,
        Preset::MiniMisere6,
        Preset::MiniMisere3,
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
            Preset::MiniMisere6 => "mini-misere-6",
            Preset::MiniMisere3 => "mini-misere-3",
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
            Preset::MiniMisere6 => Ruleset {
                players: 6,
                ranks: MM_CURRENT | 1 << 9 | 1 << 8 | 1 << 7 | 1 << 2,
                ..mini_misere
            },
            Preset::MiniMisere3 => Ruleset {
                players: 3,
                ranks: MM_CURRENT,
                low_card: None,
                led_low_wins: false,
                joker: Some(JokerRule::LastSays),
                lot: None,
                scoring: Scoring::TrickTable {
                    points: [7, 1, 2, 3, 8, 10, 12, 0],
                },
                end: GameEnd::Target {
                    points: 31,
                    tie: TieRule::PlayOn,
                },
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
