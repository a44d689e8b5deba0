#![doc = include_str!("../README.md")]
#![deny(missing_docs)]

pub mod card;
pub mod deal;
pub mod game;
pub mod perft;
pub mod playout;
pub mod points;
pub mod record;
pub mod report;
pub mod ruleset;
pub mod scoring;
pub mod seats;
pub mod seeds;
pub mod shuffle;
pub mod table;
pub mod view;
pub mod worlds;

pub use card::{Card, CardSet, CardSetIter, ParseCardError, Rank, Suit};
pub use deal::{
    Action, ActionSet, Deal, LotState, ParseActionError, Phase, PlayError, Seat, SetupError, Trick,
};
pub use game::{DealResult, Game, GameError};
pub use perft::perft;
pub use playout::random_playout;
pub use points::Captured;
pub use record::{
    DealReport, Loc, Record, RecordDeal, RecordError, Replay, Report, to_pretty_json,
};
pub use ruleset::{
    CardPoints, Direction, FollowRule, GameEnd, JokerRule, Lot, LotTiming, MAX_SEATS, OPTION_NAMES,
    OptionValues, Preset, Ranking, Ruleset, RulesetError, RulesetProblem, STRENGTH_JOKER_TRUMP,
    STRENGTH_LED_JOKER, STRENGTH_LED_LOW, STRENGTH_LOSES, STRENGTH_TRUMP, Scoring, TieRule, Trump,
    TrumpRule, option_values,
};
pub use scoring::{DealFacts, DealScore, FactsError, LotResult, ScoreError, ScoreRule};
pub use seats::{SeatSet, SeatSetIter};
pub use seeds::Seeds;
pub use table::{Applied, Step, Table};
pub use view::View;
pub use worlds::Worlds;
