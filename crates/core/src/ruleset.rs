//! The rules of a game as one value of independent options, and the named presets
//! (`presets.rs`); house-rule options by name and the JSON form are in `options.rs`.
//!
//! Every game of the rules specification is a [`Preset`], which is nothing more than a
//! [`Ruleset`] value with a name. House rules start from a preset and change options by their
//! interchange names ([`Ruleset::set_option`]). Behaviour that differs between games lives in
//! small enums ([`FollowRule`], [`TrumpRule`], [`Scoring`], ...) that the engine matches in one
//! place each; nothing in the engine looks at which preset a ruleset came from.

use std::fmt;

use crate::card::{Card, CardSet, Rank, Suit};

mod options;
mod presets;
#[cfg(test)]
mod tests;

pub use options::{OPTION_NAMES, OptionValues, RulesetError, RulesetProblem, option_values};
pub use presets::Preset;

/// The most seats any ruleset has.
pub const MAX_SEATS: usize = 6;

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
    /// Three-player Mini Misère (RULES.md 1.7): led, it wins and the others may play
    /// anything; not led, only a seat void in the led suit may play it. Played as the trick's
    /// last card, its player says whether it wins or loses (`joker:win`, `joker:lose`);
    /// played anywhere else in the trick, it loses.
    LastSays,
}

impl JokerRule {
    /// Whether a seat may play the joker only when it holds no card of the led suit.
    #[must_use]
    pub const fn only_when_void(self) -> bool {
        matches!(self, JokerRule::LeadWinsFreeFollow | JokerRule::LastSays)
    }
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
                Some(
                    JokerRule::LeadWinsFreeFollow
                    | JokerRule::LeadWinsNamesSuit
                    | JokerRule::LastSays,
                ),
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
