//! A game at the table: one human seat, bots in the others, the record kept and saved after
//! every action so that nothing is lost and `--resume` continues exactly where it stopped.
//!
//! The game itself is core's [`Table`]: it deals every deal and makes every Molotow draw from
//! the table seed, keeps the record, scores each deal as it ends and resumes a save through
//! the strict replay. The session adds what a person at a terminal needs around it: the bots
//! in the other seats, the seats' names, where the game is saved, and how far the player has
//! been shown the game, which trails the table at the end of each deal (the table has already
//! scored it and dealt the next one while the player still sees the deal end and then reads
//! its result).

use std::path::{Path, PathBuf};

use serde_json::Value;
use torite_bots::standing::Standing;
use torite_bots::{Bot, BotSpec};
use torite_core::table::{Step, Table, first_dealer};
use torite_core::{
    Action, Deal, DealResult, Game, GameError, PlayError, Ruleset, Seat, Trick, View,
};

use crate::Failure;

/// Something that happened at the table, for the interfaces to show.
#[derive(Clone, Debug)]
pub enum Event {
    /// A seat took an action.
    Acted {
        /// The seat.
        seat: Seat,
        /// The action.
        action: Action,
        /// Whether the action was a card that led a trick.
        led: bool,
    },
    /// A trick was completed.
    TrickWon(Trick),
}

/// How far the player has been shown the table's game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Shown {
    /// The table's deal in progress.
    Playing,
    /// The deal that just ended ([`Table::last_deal`]), whose result is still to be shown.
    Ended,
    /// The result of the deal that ended, or nothing yet: the table's deal in progress (or
    /// the end of the game) is still to be shown.
    Between,
}

/// The table: core's [`Table`], the bots, the seats' names and where the game is saved.
pub struct Session {
    table: Table,
    human: Seat,
    /// Each seat's bot spec; `None` at the human's seat.
    specs: Vec<Option<BotSpec>>,
    bots: Vec<Option<Box<dyn Bot>>>,
    names: Vec<String>,
    path: PathBuf,
    shown: Shown,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Session({}, seat {})", self.rules().id(), self.human)
    }
}

/// The seed of the bot at `seat` of a table seeded `seed`: apart from the table's streams, so
/// that the bots' randomness never moves the deals.
fn bot_seed(seed: u64, seat: Seat) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(seat as u64 + 1)
}

impl Session {
    /// A new game of table seed `seed`: the human at `human`, the other seats filled with
    /// `bot_specs` in turn, the first deal dealt by core's [`first_dealer`] (the last seat,
    /// as on every surface).
    pub fn new(
        rules: Ruleset,
        human: Seat,
        bot_specs: &[BotSpec],
        seed: u64,
        you: &str,
        path: PathBuf,
    ) -> Result<Session, Failure> {
        let n = rules.players as usize;
        if human >= n {
            return Err(Failure::input(format!(
                "--seat {human}: {} has seats 0 to {}",
                rules.id(),
                n - 1
            )));
        }
        if bot_specs.is_empty() {
            return Err(Failure::input("--bots needs at least one bot"));
        }
        let specs: Vec<Option<BotSpec>> = (0..n)
            .map(|s| {
                let others_before = if s > human { s - 1 } else { s };
                (s != human).then(|| bot_specs[others_before % bot_specs.len()])
            })
            .collect();
        let names: Vec<String> = specs
            .iter()
            .map(|spec| spec.map_or_else(|| you.to_owned(), |spec| spec.to_string()))
            .collect();
        let mut table = Table::new(rules, first_dealer(&rules), seed).map_err(Failure::input)?;
        table
            .set_players(names.clone())
            .map_err(|_| Failure::input("one name per seat"))?;
        Ok(Session::seated(table, human, specs, names, path))
    }

    fn seated(
        table: Table,
        human: Seat,
        specs: Vec<Option<BotSpec>>,
        names: Vec<String>,
        path: PathBuf,
    ) -> Session {
        let seed = table.seeds().seed();
        let bots = specs
            .iter()
            .enumerate()
            .map(|(seat, spec)| spec.map(|spec| spec.build(bot_seed(seed, seat))))
            .collect();
        Session {
            table,
            human,
            specs,
            bots,
            names,
            path,
            shown: Shown::Between,
        }
    }

    /// Continues a saved game: the record is read by core's strict reader
    /// ([`torite_core::record::read`]: replayed, and so checked, with `torite replay`'s
    /// errors), the table settings come from its `table` entry, and the table resumes at the
    /// saved seed ([`Table::resume`]), so later deals and draws are those the game would have
    /// had.
    pub fn resume(path: &Path) -> Result<Session, Failure> {
        let value = crate::input::read_json(path)?;
        if crate::input::kind(&value) == crate::input::Kind::ScoreSheet {
            let p = path.display();
            return Err(Failure::input(format!(
                "{p} is a torite score-keeping save, not a game: continue it with `torite score --resume {p}`"
            )));
        }
        let at = |why: String| Failure::input(format!("{}: {why}", path.display()));
        let (record, _) = torite_core::record::read(&value).map_err(|e| at(e.to_string()))?;
        let n = record.ruleset.players as usize;
        let TableEntry { human, seed, specs } = TableEntry::read(&value, n).map_err(at)?;
        let names = record
            .players
            .clone()
            .unwrap_or_else(|| (0..n).map(|s| s.to_string()).collect());
        let saved_deals = record.deals.len();
        let table = Table::resume(record, seed).map_err(|e| at(e.to_string()))?;
        let mut session = Session::seated(table, human, specs, names, path.to_owned());
        if session.table.deal().is_some() && session.table.record().deals.len() == saved_deals {
            // Saved during a deal: the player goes on with it (a deal the table has just
            // dealt, after a complete last deal, begins for the player as a new deal).
            session.shown = Shown::Playing;
        }
        Ok(session)
    }

    /// The game.
    pub fn game(&self) -> &Game {
        self.table.game()
    }

    /// Whether the game is over for the player: it has ended and its last deal has been shown.
    pub fn is_finished(&self) -> bool {
        self.game().is_finished() && self.shown == Shown::Between
    }

    /// The rules.
    pub fn rules(&self) -> &Ruleset {
        self.game().rules()
    }

    /// The human's seat.
    pub fn human(&self) -> Seat {
        self.human
    }

    /// Display names per seat.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The deal the player is shown: the one in progress, or the one that just ended until
    /// its result is shown ([`Session::finish_deal`]); none between a result and the next
    /// deal.
    pub fn deal(&self) -> Option<&Deal> {
        match self.shown {
            Shown::Playing => self.table.deal(),
            Shown::Ended => self.table.last_deal(),
            Shown::Between => None,
        }
    }

    /// The human's view of the deal the player is shown.
    pub fn view(&self) -> Option<View<'_>> {
        self.deal().map(|d| View::new(d, self.human))
    }

    /// Where the game is saved.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Saves the game somewhere else from now on (tests: a fixed path to show on screen).
    #[cfg(test)]
    pub fn set_path(&mut self, path: PathBuf) {
        self.path = path;
    }

    /// The number of the deal the player is shown (1 for the first), or of the last one shown
    /// between deals.
    pub fn deal_number(&self) -> usize {
        match self.shown {
            Shown::Playing => self.table.record().deals.len(),
            Shown::Ended | Shown::Between => self.game().results().len(),
        }
    }

    /// Moves the player on to the deal the table has dealt, once the last deal's result has
    /// been shown, and saves the game; whether a new deal began for the player.
    pub fn start_deal_if_needed(&mut self) -> Result<bool, Failure> {
        if self.shown != Shown::Between || self.table.deal().is_none() {
            return Ok(false);
        }
        self.shown = Shown::Playing;
        self.save()?;
        Ok(true)
    }

    /// Whether the human is to act in the deal in progress.
    pub fn human_to_act(&self) -> bool {
        self.seat_to_act() == Some(self.human)
    }

    /// The seat to act in the deal the player is shown.
    fn seat_to_act(&self) -> Option<Seat> {
        match (self.shown, self.table.next_step()) {
            (Shown::Playing, Step::Act { seat }) => Some(seat),
            _ => None,
        }
    }

    /// Lets the bot to act take its action; `None` when the human is to act or no deal runs.
    pub fn step_bot(&mut self) -> Result<Option<Vec<Event>>, Failure> {
        let Some(seat) = self.seat_to_act() else {
            return Ok(None);
        };
        let Some(bot) = self.bots[seat].as_mut() else {
            return Ok(None);
        };
        let Some(view) = self.table.view(seat) else {
            return Ok(None);
        };
        bot.observe_standing(&Standing::of(self.table.game()));
        let action = bot.act(&view);
        self.apply(action)
            .map(Some)
            .map_err(|e| Failure::input(format!("bot {} chose {action}: {e}", self.names[seat])))
    }

    /// A hint for the human: what the table's strongest bot would do.
    pub fn hint(&self) -> Option<Action> {
        let view = self.view().filter(|_| self.human_to_act())?;
        let mut bot = torite_bots::BEST.build(self.table.seeds().seed());
        bot.observe_standing(&Standing::of(self.table.game()));
        Some(bot.act(&view))
    }

    /// The review of the human's decisions in the deal that ended last
    /// ([`torite_bots::analysis`], with `worlds` worlds a decision, seeded from the table's
    /// seed): `None` before any deal has ended.
    pub fn review(&self, worlds: u32) -> Option<torite_bots::analysis::Analysis> {
        let deal = self.game().results().len().checked_sub(1)?;
        let settings = torite_bots::analysis::Settings {
            worlds,
            seed: self.table.seeds().seed(),
        };
        let seats = [self.human].into_iter().collect();
        Some(torite_bots::analysis::analyse(
            self.table.record(),
            seats,
            Some(deal),
            settings,
            &|| {},
        ))
    }

    /// The human's action.
    pub fn play(&mut self, action: Action) -> Result<Vec<Event>, PlayError> {
        if !self.human_to_act() {
            return Err(PlayError::DealOver);
        }
        self.apply(action).map_err(|e| match e {
            GameError::Play(e) => e,
            _ => PlayError::DealOver,
        })
    }

    /// Takes back the human's last decision in the deal in progress (a card, the Lot or any
    /// other action), with every bot action after it, and saves the game: the record keeps
    /// only what is still played ([`Table::undo_last`]). The human is then to act again, as
    /// before that decision. `false`, with nothing changed, when the human has not acted yet
    /// in this deal or the deal is over (it is scored as its last card is played).
    pub fn undo(&mut self) -> Result<bool, Failure> {
        if self.shown != Shown::Playing {
            return Ok(false);
        }
        let mut table = self.table.clone();
        loop {
            if table
                .record()
                .deals
                .last()
                .is_none_or(|d| d.actions.is_empty())
            {
                return Ok(false);
            }
            if table.undo_last().is_none() {
                return Ok(false);
            }
            if table.next_step() == (Step::Act { seat: self.human }) {
                break;
            }
        }
        self.table = table;
        self.save()?;
        Ok(true)
    }

    /// Applies the action of the seat to act; a deal it ends is scored by the table (with the
    /// seed's draw when the deal needs one) and shown to the player as ended.
    fn apply(&mut self, action: Action) -> Result<Vec<Event>, GameError> {
        let deal = self.table.deal().ok_or(GameError::NoDeal)?;
        let seat = deal.to_act();
        let led = matches!(action, Action::Play(_)) && deal.current_trick().is_empty();
        let applied = self.table.apply(action)?;
        let mut ended = applied.scored.is_some();
        if let Step::Draw { .. } = self.table.next_step() {
            self.table.draw()?;
            ended = true;
        }
        if ended {
            self.shown = Shown::Ended;
        }
        let mut events = vec![Event::Acted { seat, action, led }];
        let played = if ended {
            self.table.last_deal()
        } else {
            self.table.deal()
        };
        if applied.trick.is_some()
            && let Some(trick) = played.and_then(Deal::last_trick)
        {
            events.push(Event::TrickWon(trick));
        }
        // Saving is best effort here; a failure is reported by the next explicit save.
        let _ = self.save();
        Ok(events)
    }

    /// The result of the deal that just ended, once (the table scored it as it ended, with
    /// the seed's draw for Molotow's three-way tie); the game is saved.
    pub fn finish_deal(&mut self) -> Result<Option<DealResult>, Failure> {
        if self.shown != Shown::Ended {
            return Ok(None);
        }
        self.shown = Shown::Between;
        self.save()?;
        Ok(self.game().results().last().cloned())
    }

    /// Writes the record, with the table settings needed to resume.
    pub fn save(&self) -> Result<(), Failure> {
        let mut value = self.table.record().to_json();
        value["table"] = serde_json::json!({
            "human": self.human,
            "seed": self.table.seeds().seed(),
            "bots": self
                .specs
                .iter()
                .map(|spec| spec.map_or_else(|| "human".to_owned(), |spec| spec.to_string()))
                .collect::<Vec<_>>(),
        });
        crate::save::save(&self.path, torite_core::to_pretty_json(&value).as_bytes())
    }
}

/// The `table` entry `torite play` adds to the record it saves: the human's seat, the table
/// seed and each seat's bot (`"human"` at the human's seat).
struct TableEntry {
    human: Seat,
    seed: u64,
    /// Each seat's bot; `None` at the human's seat.
    specs: Vec<Option<BotSpec>>,
}

impl TableEntry {
    /// Reads the entry of a save whose ruleset has `n` seats; the error says which key is wrong.
    fn read(save: &Value, n: usize) -> Result<TableEntry, String> {
        let table = save
            .get("table")
            .ok_or("not a game saved by torite play (no \"table\" entry)")?;
        let human = table
            .get("human")
            .and_then(Value::as_u64)
            .filter(|&h| h < n as u64)
            .ok_or_else(|| {
                format!(
                    "table: human must be a seat (0 to {}), not {}",
                    n - 1,
                    table.get("human").unwrap_or(&Value::Null)
                )
            })? as Seat;
        let seed = table.get("seed").and_then(Value::as_u64).ok_or_else(|| {
            format!(
                "table: seed must be an integer from 0, not {}",
                table.get("seed").unwrap_or(&Value::Null)
            )
        })?;
        let bots = table.get("bots").unwrap_or(&Value::Null);
        let specs = bots
            .as_array()
            .filter(|a| a.len() == n)
            .and_then(|a| {
                a.iter()
                    .map(|v| v.as_str().map(str::to_owned))
                    .collect::<Option<Vec<String>>>()
            })
            .ok_or_else(|| format!("table: bots must be {n} bot names (strings), not {bots}"))?;
        let specs = specs
            .iter()
            .enumerate()
            .map(|(seat, spec)| {
                (seat != human)
                    .then(|| spec.parse::<BotSpec>())
                    .transpose()
                    .map_err(|e| format!("table: bots: seat {seat}: {e}"))
            })
            .collect::<Result<_, _>>()?;
        Ok(TableEntry { human, seed, specs })
    }
}

#[cfg(test)]
mod tests {
    use torite_core::Record;

    use super::*;

    /// A save written by `torite play mini-misere-4 --seed 11` (before the strict reader), the
    /// human's turn in the second deal.
    const SAVE: &str =
        include_str!("../../tests/data/saves/play-mini-misere-4-seed-11-deal-2.json");

    /// `save` written to a scratch file of its own (resuming saves there again).
    fn scratch(name: &str, save: &Value) -> PathBuf {
        let path =
            std::env::temp_dir().join(format!("torite-session-{}-{name}.json", std::process::id()));
        std::fs::write(&path, save.to_string()).unwrap();
        path
    }

    fn save() -> Value {
        serde_json::from_str(SAVE).unwrap()
    }

    fn refusal(name: &str, save: &Value) -> (PathBuf, String) {
        let path = scratch(name, save);
        let err = Session::resume(&path).unwrap_err();
        let _ = std::fs::remove_file(&path);
        (path, err.message)
    }

    #[test]
    fn a_save_written_by_play_resumes_and_plays_to_the_end() {
        let path = scratch("resumes", &save());
        let mut session = Session::resume(&path).unwrap();
        assert_eq!(session.human(), 0);
        assert_eq!(session.deal_number(), 2);
        assert!(session.human_to_act());
        let mut kept = save();
        kept.as_object_mut().unwrap().remove("table");
        assert_eq!(session.table.record().to_json(), kept);
        for _ in 0..1000 {
            if session.is_finished() {
                break;
            }
            session.start_deal_if_needed().unwrap();
            while session.step_bot().unwrap().is_some() {}
            if session.human_to_act() {
                let action = session.view().unwrap().legal_actions().nth(0).unwrap();
                session.play(action).unwrap();
            }
            session.finish_deal().unwrap();
        }
        assert!(session.game().is_finished());
        let saved = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        let record = Record::from_json(&saved).unwrap();
        assert!(record.replay().unwrap().report.finished);
        let before = Record::from_json(SAVE).unwrap();
        assert_eq!(record.deals[0], before.deals[0]);
        assert_eq!(record.deals[1].hands, before.deals[1].hands);
        assert!(
            record.deals[1]
                .actions
                .starts_with(&before.deals[1].actions)
        );
        assert!(record.deals.len() > 2);
    }

    /// A Molotow game saved by `torite play --plain` (random bots, seed 5) before the session
    /// played on core's table: its first deal is the three-way tie of
    /// `tests/data/molotow-three-way-tie.json` with its draw, and it was quit in the sixth
    /// deal; and the same save resumed by that `torite play`, answering the first choice at
    /// every prompt, to the end.
    const TIE_SAVE: &str =
        include_str!("../../tests/data/saves/play-molotow-tie-seed-5-deal-6.json");
    const TIE_FINISHED: &str =
        include_str!("../../tests/data/saves/play-molotow-tie-seed-5-finished.json");

    #[test]
    fn an_earlier_save_resumes_to_exactly_the_game_it_had() {
        let path = scratch("tie", &serde_json::from_str(TIE_SAVE).unwrap());
        let mut session = Session::resume(&path).unwrap();
        assert_eq!(session.deal_number(), 6);
        assert!(!session.start_deal_if_needed().unwrap(), "in a deal");
        let expected: Value = serde_json::from_str(TIE_FINISHED).unwrap();
        let reference = Record::from_value(&expected).unwrap();
        for _ in 0..10_000 {
            if session.is_finished() {
                break;
            }
            session.start_deal_if_needed().unwrap();
            while session.step_bot().unwrap().is_some() {}
            if session.human_to_act() {
                // The human's answer in the reference game at the same place.
                let deal = session.deal_number() - 1;
                let at = session.table.record().deals[deal].actions.len();
                session.play(reference.deals[deal].actions[at]).unwrap();
            }
            session.finish_deal().unwrap();
        }
        assert!(session.is_finished());
        let saved: Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
        let _ = std::fs::remove_file(&path);
        assert_eq!(saved, expected);
    }

    /// A deal ending in Molotow's three-way tie is drawn as it ends: the save written after
    /// its last card already holds the draw and loads, and the result shown is the drawn one.
    #[test]
    fn a_tie_is_drawn_as_the_deal_ends_and_saved_with_it() {
        let mut save: Value =
            serde_json::from_str(include_str!("../../tests/data/molotow-three-way-tie.json"))
                .unwrap();
        let deal = &mut save["deals"][0];
        let last: Action = deal["actions"]
            .as_array_mut()
            .unwrap()
            .pop()
            .unwrap()
            .as_str()
            .unwrap()
            .parse()
            .unwrap();
        deal.as_object_mut().unwrap().remove("draw");
        let record = Record::from_value(&save).unwrap();
        let Step::Act { seat } = Table::resume(record, 5).unwrap().next_step() else {
            panic!("a card is still to play");
        };
        let mut bots = vec!["heuristic"; 4];
        bots[seat] = "human";
        save["table"] = serde_json::json!({"human": seat, "seed": 5, "bots": bots});
        let path = scratch("tie-drawn", &save);
        let mut session = Session::resume(&path).unwrap();
        assert!(session.human_to_act());
        session.play(last).unwrap();
        let saved = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_file(&path);
        let record = Record::from_json(&saved).unwrap();
        let drawn = record.deals[0].draw.expect("the draw is saved");
        assert_eq!(record.deals.len(), 2, "the next deal is dealt");
        // The player is still shown the deal that ended, then its result.
        assert_eq!(session.deal_number(), 1);
        assert!(session.deal().is_some_and(Deal::is_over));
        let result = session.finish_deal().unwrap().expect("the deal's result");
        assert_eq!(result.draw, Some(drawn));
        assert!(session.start_deal_if_needed().unwrap());
        assert_eq!(session.deal_number(), 2);
    }

    #[test]
    fn a_corrupted_card_in_a_save_is_refused_with_the_replay_error() {
        let mut bad = save();
        bad["deals"][1]["hands"][2][0] = "QX".into();
        let (path, message) = refusal("bad-card", &bad);
        let why = Record::from_value(&bad).unwrap_err().to_string();
        assert!(
            why.starts_with("deal 1, seat 2: hands: unknown card code \"QX\""),
            "{why}"
        );
        assert_eq!(message, format!("{}: {why}", path.display()));
        let mut bad = save();
        bad["deals"][1]["actions"][3] = "Q#".into();
        let (path, message) = refusal("bad-action", &bad);
        let why = Record::from_value(&bad).unwrap_err().to_string();
        assert!(why.starts_with("deal 1, trick 0, seat "), "{why}");
        assert!(why.contains("unknown action \"Q#\""), "{why}");
        assert_eq!(message, format!("{}: {why}", path.display()));
    }

    #[test]
    fn a_bad_table_entry_is_refused_with_its_key() {
        let cases = [
            (
                "seed",
                serde_json::json!("eleven"),
                "table: seed must be an integer from 0, not \"eleven\"",
            ),
            (
                "seed",
                serde_json::json!(-1),
                "table: seed must be an integer from 0, not -1",
            ),
            (
                "human",
                serde_json::json!(4),
                "table: human must be a seat (0 to 3), not 4",
            ),
            (
                "human",
                Value::Null,
                "table: human must be a seat (0 to 3), not null",
            ),
            (
                "bots",
                serde_json::json!(["human", "heuristic", 3, "heuristic"]),
                "table: bots must be 4 bot names (strings), not [\"human\",\"heuristic\",3,\"heuristic\"]",
            ),
            (
                "bots",
                serde_json::json!(["human", "heuristic"]),
                "table: bots must be 4 bot names (strings), not [\"human\",\"heuristic\"]",
            ),
            (
                "bots",
                serde_json::json!(["human", "heuristic", "nobody", "heuristic"]),
                "table: bots: seat 2: unknown bot \"nobody\" (levels: beginner, casual, club, \
                 strong, expert; algorithms: random, heuristic, ismcts, ismcts-inf, ismcts-eval, ismcts-eq, ismcts-duck, ismcts-lot, ismcts-pol, ismcts-net, ismcts-read, ismcts-table, pimc, omniscient, maxn)",
            ),
        ];
        for (key, value, expected) in cases {
            let mut bad = save();
            bad["table"][key] = value;
            let (path, message) = refusal(key, &bad);
            assert_eq!(message, format!("{}: {expected}", path.display()));
        }
        let mut bad = save();
        bad.as_object_mut().unwrap().remove("table");
        let (path, message) = refusal("no-table", &bad);
        assert_eq!(
            message,
            format!(
                "{}: not a game saved by torite play (no \"table\" entry)",
                path.display()
            )
        );
    }
}
