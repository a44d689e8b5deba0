//! Named levels for people: *Beginner*, *Casual*, *Club*, *Strong* and *Expert*.
//!
//! A person chooses an opponent by how well it plays, not by its algorithm. Each level is a
//! bot configuration ([`LevelConfig`]), data in one table ([`Level::config`]):
//!
//! - which search plays its moves, if any (ISMCTS at a fixed number of iterations, so a level
//!   plays the same on every machine);
//! - how many of its decisions it plays on instinct instead, by the rule of thumb
//!   ([`Heuristic`]) — a player who does not think hard about every card: *Casual* thinks
//!   about one card in ten, *Club* about a third, *Strong* most, *Expert* every one;
//! - which mistakes its rule of thumb makes ([`Mistakes`]): the beginner sometimes fails to
//!   duck, leads its highest card too early, or plays a card without thinking at all;
//! - whether its search plays to the score of the game ([`LevelConfig::match_play`]): only
//!   *Expert* weighs each deal by its chance of winning the game, not by the deal's points
//!   (but for its decisions on the Lot: [`Ismcts::with_match_play`]);
//! - whether its search values a deal against the table ([`LevelConfig::against_the_table`]):
//!   only *Expert*, whose every seat judges a single deal by its score less the table's mean,
//!   the way the duplicate comparison judges it, and whose rollouts then play a declared Lot
//!   out as its declarers and defenders would;
//! - whether its search reads the other seats' cards from their play
//!   ([`LevelConfig::inference`]): only *Expert*, which weighs the worlds it searches by how
//!   likely the learned reader ([`crate::reader`]) finds the others' cards played in each.
//!
//! The levels are calibrated with the duplicate arena ([`crate::arena`]): each beats the one
//! below it in every preset (`docs/STATS.md`, "Named levels"). More iterations alone do not
//! order the search bots in every game (in three-player Mura ISMCTS at 2,000 iterations does
//! not beat it at 300), while in every preset the search beats the rule of thumb: so the
//! levels that search share one search and differ in how often they play on instinct.
//!
//! Every level is reproducible from its seed: the mistakes and the instinct draws come from
//! the bot's own seeded generator, the search from its own.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::{Rng, SeedableRng};
use torite_core::shuffle::below;
use torite_core::{Action, Card, CardSet, View};

use crate::heuristic::{Heuristic, power};
use crate::inference::Inference;
use crate::ismcts::Ismcts;
use crate::{Bot, Budget};

/// A named level, weakest first ([`Level::ALL`]).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Level {
    /// Makes a beginner's mistakes.
    Beginner,
    /// Plays by the rule of thumb, searching one move in ten.
    Casual,
    /// Searches about a third of its moves.
    Club,
    /// Searches most of its moves.
    Strong,
    /// Searches every move.
    Expert,
}

/// Mistakes a rule-of-thumb player makes, each a percentage of the decisions where it can.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Mistakes {
    /// Fails to duck: where the rule of thumb would play a card that loses the trick while a
    /// card that wins it is at hand, plays its highest card instead.
    pub duck: u8,
    /// Leads its highest card instead of the rule of thumb's lead (high cards gone too early).
    pub lead: u8,
    /// Plays any legal card, without thinking (as if it had forgotten which cards are out).
    pub slip: u8,
}

impl Mistakes {
    /// No mistakes: the rule of thumb as it is.
    pub const NONE: Mistakes = Mistakes {
        duck: 0,
        lead: 0,
        slip: 0,
    };
}

/// What a level is: the search playing its moves and the rule of thumb it falls back on.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct LevelConfig {
    /// The ISMCTS budget of the moves it searches; `None`: the rule of thumb plays every move.
    pub search: Option<Budget>,
    /// Whether its search weighs the worlds by the other seats' observed play
    /// ([`crate::inference`]), with the learned reader as the model of their card plays
    /// ([`Inference::with_reader`]; in a house rule, which has no reader, it searches as
    /// the plain search does).
    pub inference: bool,
    /// Whether its search plays to the score of the game, valuing a deal by each seat's chance
    /// of winning the game from the standing ([`Ismcts::with_match_play`]); a single deal it
    /// plays for its own score either way.
    pub match_play: bool,
    /// Whether its search values a finished deal by each seat's score less the table's mean
    /// ([`Ismcts::with_table_rewards`]) rather than by the seat's score alone, where it does
    /// not play to the score of a game whose standing it knows.
    pub against_the_table: bool,
    /// The percentage of its decisions (with a search) played on instinct, by the rule of thumb.
    pub instinct: u8,
    /// The mistakes of its rule of thumb.
    pub mistakes: Mistakes,
}

/// The one search of the levels that search: ISMCTS at 1,000 iterations a decision, within
/// noise of its default budget in Mini Misère and Mura (`docs/STATS.md`) and about a
/// millisecond a decision.
const SEARCH: Option<Budget> = Some(Budget::Iterations(1_000));

/// Whether *Expert*'s search infers ([`crate::inference`], with the learned reader as the
/// model of the other seats' card plays, as `ismcts-net` does): with the reader's readings
/// kept by starting hand, *Expert* inferring is above `ismcts` at 20 ms a decision in every
/// one of the 14 presets over 400 deals, clear of zero in five, 9.2 standard errors above it
/// taken together (`docs/STATS.md`, "Does a learned network read the others' cards cheaply
/// enough to pay?"). The reader has since read the whole hand and the seat's standing too, and
/// on the same first 200 deals a preset *Expert* with it is as strong as it was ("Does reading
/// the whole hand make the reader better?").
const EXPERT_INFERS: bool = true;

/// Whether *Expert*'s search plays to the score of the game ([`Ismcts::with_match_play`]): in
/// whole games of `mini-misere-4` against three `ismcts` at equal time it wins more games
/// than the plain search (`docs/STATS.md`, "Does playing to the score win more games?").
/// A single deal it plays exactly as the plain search, so the levels' calibration over
/// duplicate deals is unchanged.
const EXPERT_PLAYS_TO_THE_SCORE: bool = true;

/// Whether *Expert*'s search values a deal against the table, with a declared Lot played out
/// in its rollouts ([`Ismcts::with_table_rewards`]): at equal time it beats the plain search
/// over duplicate deals in five presets and is within noise of it in the others
/// (`docs/STATS.md`, "Does valuing a deal against the table make the search stronger?"), so
/// *Expert* is the `ismcts-table` bot at a single deal. In a game whose standing it is told it
/// plays to the score as before: with the table's values there too it won fewer games of
/// `mini-misere-4` against three `ismcts` (24.2% ± 1.9%, seed 1), and with the Lot played out
/// too (25.1% ± 1.9% and 25.0% ± 2.0%, seeds 1 and 2), than without (26.3% ± 2.0% and 26.1% ±
/// 2.0%).
const EXPERT_AGAINST_THE_TABLE: bool = true;

/// The levels' configurations, weakest first, in [`Level::ALL`]'s order.
const CONFIGS: [LevelConfig; 5] = [
    // Beginner.
    LevelConfig {
        search: None,
        inference: false,
        match_play: false,
        against_the_table: false,
        instinct: 100,
        mistakes: Mistakes {
            duck: 50,
            lead: 40,
            slip: 15,
        },
    },
    // Casual.
    LevelConfig {
        search: SEARCH,
        inference: false,
        match_play: false,
        against_the_table: false,
        instinct: 90,
        mistakes: Mistakes::NONE,
    },
    // Club.
    LevelConfig {
        search: SEARCH,
        inference: false,
        match_play: false,
        against_the_table: false,
        instinct: 65,
        mistakes: Mistakes::NONE,
    },
    // Strong.
    LevelConfig {
        search: SEARCH,
        inference: false,
        match_play: false,
        against_the_table: false,
        instinct: 30,
        mistakes: Mistakes::NONE,
    },
    // Expert.
    LevelConfig {
        search: SEARCH,
        inference: EXPERT_INFERS,
        match_play: EXPERT_PLAYS_TO_THE_SCORE,
        against_the_table: EXPERT_AGAINST_THE_TABLE,
        instinct: 0,
        mistakes: Mistakes::NONE,
    },
];

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Beginner,
        Level::Casual,
        Level::Club,
        Level::Strong,
        Level::Expert,
    ];

    /// The level's id, as `--bots` and the server know it (`club`); its name and description
    /// are the catalogs' `level-{id}` and `level-{id}-description`.
    #[must_use]
    pub const fn id(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Casual => "casual",
            Level::Club => "club",
            Level::Strong => "strong",
            Level::Expert => "expert",
        }
    }

    /// The level of an id.
    #[must_use]
    pub fn from_id(id: &str) -> Option<Level> {
        Level::ALL.into_iter().find(|l| l.id() == id)
    }

    /// The level's configuration.
    #[must_use]
    pub const fn config(self) -> LevelConfig {
        CONFIGS[self as usize]
    }

    /// Makes the level's bot, seeded.
    #[must_use]
    pub fn bot(self, seed: u64) -> LevelBot {
        LevelBot::new(self, seed)
    }
}

/// The bot of a [`Level`].
#[derive(Debug)]
pub struct LevelBot {
    level: Level,
    config: LevelConfig,
    rule: Heuristic,
    search: Option<Ismcts>,
    rng: ChaCha8Rng,
}

impl LevelBot {
    /// The bot of `level`, seeded.
    #[must_use]
    pub fn new(level: Level, seed: u64) -> LevelBot {
        let config = level.config();
        LevelBot::with_config(level, config, seed)
    }

    /// A bot named as `level` that plays `config`, seeded (for measuring a configuration
    /// before it becomes a level's).
    #[must_use]
    pub fn with_config(level: Level, config: LevelConfig, seed: u64) -> LevelBot {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let search = config.search.map(|budget| {
            let mut search = Ismcts::with_budget(rng.next_u64(), budget);
            if config.inference {
                search = search.with_inference(Inference::new().with_reader());
            }
            if config.match_play {
                search = search.with_match_play();
            }
            if config.against_the_table {
                search = search.with_table_rewards();
            }
            search
        });
        LevelBot {
            level,
            config,
            rule: Heuristic::new(rng.next_u64()),
            search,
            rng,
        }
    }

    /// The level it plays.
    #[must_use]
    pub const fn level(&self) -> Level {
        self.level
    }

    /// Whether a draw of `percent` percent comes up.
    fn chance(&mut self, percent: u8) -> bool {
        percent > 0 && below(&mut self.rng, 100) < u32::from(percent)
    }

    /// The rule of thumb's action, with the level's mistakes.
    fn by_rule(&mut self, view: &View<'_>) -> Action {
        let action = self.rule.act(view);
        let legal = view.legal_actions();
        let Action::Play(card) = action else {
            return action;
        };
        if legal.cards.len() < 2 {
            return action;
        }
        let mistakes = self.config.mistakes;
        if self.chance(mistakes.slip) {
            let n = below(&mut self.rng, legal.cards.len() as u32) as usize;
            return legal.cards.iter().nth(n).map_or(action, Action::Play);
        }
        if view.current_trick().is_empty() {
            if self.chance(mistakes.lead) {
                return Action::Play(highest(view, legal.cards).unwrap_or(card));
            }
            return action;
        }
        let can_win = legal.cards.iter().any(|c| view.wins_with(c));
        if !view.wins_with(card) && can_win && self.chance(mistakes.duck) {
            return Action::Play(highest(view, legal.cards).unwrap_or(card));
        }
        action
    }
}

/// The highest card by the heuristic's order (trumps above plain cards).
fn highest(view: &View<'_>, cards: CardSet) -> Option<Card> {
    cards.iter().max_by_key(|c| power(view, *c))
}

impl Bot for LevelBot {
    fn name(&self) -> &str {
        self.level.id()
    }

    fn observe_standing(&mut self, standing: &crate::standing::Standing) {
        if let Some(search) = &mut self.search {
            search.observe_standing(standing);
        }
    }

    fn act(&mut self, view: &View<'_>) -> Action {
        let legal = view.legal_actions();
        if legal.len() == 1 {
            let action = legal.nth(0).unwrap_or(Action::Pass);
            if let Some(search) = &mut self.search {
                search.observe(view);
                search.note_own(action);
            }
            return action;
        }
        let instinct = self.config.instinct;
        let on_instinct = self.search.is_none() || self.chance(instinct);
        match (&mut self.search, on_instinct) {
            (Some(search), false) => search.act(view),
            (Some(_), true) => {
                let action = self.by_rule(view);
                if let Some(search) = &mut self.search {
                    search.observe(view);
                    search.note_own(action);
                }
                action
            }
            (None, _) => self.by_rule(view),
        }
    }
}

#[cfg(test)]
mod tests {
    use torite_core::{Deal, Preset};

    use super::*;
    use crate::play_deal;

    #[test]
    fn levels_are_ordered_and_named() {
        for (i, level) in Level::ALL.into_iter().enumerate() {
            assert_eq!(level as usize, i);
            assert_eq!(Level::from_id(level.id()), Some(level));
            assert_eq!(level.bot(0).name(), level.id());
        }
        assert_eq!(Level::from_id("grandmaster"), None);
        // Weakest first: the beginner's mistakes, then more and more moves searched.
        let configs: Vec<LevelConfig> = Level::ALL.iter().map(|l| l.config()).collect();
        assert!(configs[0].search.is_none() && configs[0].mistakes.duck > 0);
        for c in &configs[1..] {
            assert!(c.search.is_some() && c.mistakes == Mistakes::NONE);
        }
        assert!(configs[1].instinct > configs[2].instinct);
        assert!(configs[2].instinct > configs[3].instinct);
        assert!(configs[3].instinct > configs[4].instinct);
        assert_eq!(configs[4].instinct, 0);
    }

    fn actions(level: Level, seed: u64, deal_seed: u64) -> Vec<Action> {
        let rules = Preset::MiniMisere4.ruleset();
        let mut deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(deal_seed));
        let mut bots: Vec<Box<dyn Bot>> = (0..4)
            .map(|s| Box::new(level.bot(seed + s)) as Box<dyn Bot>)
            .collect();
        play_deal(&mut deal, &mut bots).expect("legal play")
    }

    /// A level's configuration with its search cut to a few iterations, so that a test can
    /// play every preset quickly; everything else as defined.
    fn cheap(level: Level) -> LevelConfig {
        let mut config = level.config();
        if config.search.is_some() {
            config.search = Some(Budget::Iterations(24));
        }
        config
    }

    #[test]
    fn every_level_plays_every_preset_legally() {
        for preset in Preset::ALL {
            let rules = preset.ruleset();
            let n = rules.players as usize;
            for (i, level) in Level::ALL.into_iter().enumerate() {
                for deal_seed in 0..2u64 {
                    let seed = deal_seed * 31 + i as u64;
                    let mut deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(seed));
                    // The level alone, and the level among all the others.
                    let mut bots: Vec<Box<dyn Bot>> = (0..n)
                        .map(|s| {
                            let at = if deal_seed == 0 {
                                level
                            } else {
                                Level::ALL[(i + s) % 5]
                            };
                            Box::new(LevelBot::with_config(at, cheap(at), seed + s as u64))
                                as Box<dyn Bot>
                        })
                        .collect();
                    let played = play_deal(&mut deal, &mut bots);
                    assert!(played.is_ok(), "{preset:?} {level:?}: {played:?}");
                    assert!(deal.is_over());
                }
            }
        }
    }

    #[test]
    fn a_level_whose_search_infers_watches_every_move() {
        // Strong's mix of searched and instinct moves, its search inferring: the moves played
        // on instinct or forced are watched too, so the search's log stays complete.
        for preset in [Preset::MiniMisere5_1989, Preset::MolotowJass, Preset::Mura3] {
            let rules = preset.ruleset();
            let mut config = cheap(Level::Strong);
            config.inference = true;
            let mut deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(4));
            let mut bots: Vec<LevelBot> = (0..rules.players as u64)
                .map(|s| LevelBot::with_config(Level::Strong, config, s))
                .collect();
            while !deal.is_over() {
                let seat = deal.to_act();
                let a = bots[seat].act(&View::new(&deal, seat));
                deal.apply(a).expect("legal");
                let search = bots[seat].search.as_ref().expect("a search");
                assert!(search.infers());
            }
            for bot in &bots {
                let search = bot.search.as_ref().expect("a search");
                assert!(search.observer_complete(), "{preset:?}");
            }
        }
    }

    #[test]
    fn the_levels_as_defined_play_a_deal() {
        let rules = Preset::Mura3.ruleset();
        for level in Level::ALL {
            let mut deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(3));
            let mut bots: Vec<Box<dyn Bot>> = (0..3)
                .map(|s| Box::new(level.bot(s)) as Box<dyn Bot>)
                .collect();
            assert!(play_deal(&mut deal, &mut bots).is_ok(), "{level:?}");
            assert!(deal.is_over());
        }
    }

    #[test]
    fn the_beginner_is_reproducible_and_not_the_heuristic() {
        let mut differ = 0;
        for deal_seed in 0..20 {
            let a = actions(Level::Beginner, 5, deal_seed);
            assert_eq!(
                a,
                actions(Level::Beginner, 5, deal_seed),
                "deal {deal_seed}"
            );
            let rules = Preset::MiniMisere4.ruleset();
            let mut deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(deal_seed));
            let mut bots: Vec<Box<dyn Bot>> = (0..4)
                .map(|s| Box::new(Heuristic::new(s)) as Box<dyn Bot>)
                .collect();
            let h = play_deal(&mut deal, &mut bots).expect("legal play");
            differ += usize::from(a != h);
        }
        // Its mistakes show in most deals, and another seed makes other mistakes.
        assert!(
            differ >= 10,
            "the beginner played as the heuristic in {differ} of 20"
        );
        assert!((0..20).any(|d| actions(Level::Beginner, 5, d) != actions(Level::Beginner, 6, d)));
    }

    #[test]
    fn the_beginner_mostly_keeps_to_the_rule_of_thumb() {
        // Over many decisions each kind of mistake is made, and the rule of thumb's own play
        // is kept most of the time.
        let rules = Preset::MittlereJass.ruleset();
        let (mut same, mut other) = (0, 0);
        for deal_seed in 0..30 {
            let mut deal = Deal::random(rules, 0, &mut ChaCha8Rng::seed_from_u64(deal_seed));
            let mut beginner = Level::Beginner.bot(deal_seed);
            let mut rule = Heuristic::new(0);
            while !deal.is_over() {
                let view = View::new(&deal, deal.to_act());
                let mine = beginner.act(&view);
                let theirs = rule.act(&view);
                if view.legal_actions().len() > 1 {
                    if mine == theirs {
                        same += 1;
                    } else {
                        other += 1;
                    }
                }
                deal.apply(theirs).expect("legal");
            }
        }
        assert!(other > 0 && same > other, "same {same}, other {other}");
    }
}
