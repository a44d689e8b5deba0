//! A game at the table: one human seat, bots in the others, the record kept and saved after
//! every action so that nothing is lost and `--resume` continues exactly where it stopped.

use std::path::{Path, PathBuf};

use serde_json::Value;
use torite_bots::{Bot, make_bot};
use torite_core::{
    Action, Deal, DealResult, Game, PlayError, Record, RecordDeal, Ruleset, Seat, SeatSet, Seeds,
    Trick, View,
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

/// The table: game, seats, record and where it is saved.
pub struct Session {
    game: Game,
    human: Seat,
    bots: Vec<Option<Box<dyn Bot>>>,
    names: Vec<String>,
    specs: Vec<String>,
    record: Record,
    seed: u64,
    /// The table seed's deals and draws ([`Seeds`]), past those of the record.
    seeds: Seeds,
    path: PathBuf,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Session({}, seat {})",
            self.game.rules().id(),
            self.human
        )
    }
}

/// The streams of table seed `seed` moved past the deals of `record` and the draws they
/// needed, so that a resumed game goes on with exactly the deals and draws it would have had.
/// The record's deals keep their own hands and draws; each is replayed to find the seats tied
/// where it needed a draw.
fn seeds_after(record: &Record, seed: u64) -> Result<Seeds, torite_core::GameError> {
    let mut seeds = Seeds::new(seed);
    let first_dealer = record.deals.first().map_or(0, |d| d.dealer);
    let mut game = Game::new(record.ruleset, first_dealer)?;
    for deal in &record.deals {
        let _ = seeds.next_hands(&record.ruleset);
        game.start_deal(&deal.hands)?;
        for action in &deal.actions {
            game.apply(*action)?;
        }
        if game.deal().is_some_and(Deal::is_over) {
            if let Some(tied) = game.draw_needed() {
                let _ = seeds.next_draw(SeatSet::from_bits(tied));
            }
            game.finish_deal(deal.draw)?;
        }
    }
    Ok(seeds)
}

fn bot_seed(seed: u64, seat: Seat) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(seat as u64 + 1)
}

impl Session {
    /// A new game: the human at `human`, the other seats filled with `bot_specs` in turn.
    pub fn new(
        rules: Ruleset,
        human: Seat,
        bot_specs: &[String],
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
        let specs: Vec<String> = (0..n)
            .map(|s| {
                if s == human {
                    String::new()
                } else {
                    let others_before = if s > human { s - 1 } else { s };
                    bot_specs[others_before % bot_specs.len()].clone()
                }
            })
            .collect();
        let names = (0..n)
            .map(|s| {
                if s == human {
                    you.to_owned()
                } else {
                    specs[s].clone()
                }
            })
            .collect();
        let game = Game::new(rules, human).map_err(Failure::input)?;
        let mut session = Session {
            bots: Vec::new(),
            game,
            human,
            names,
            specs,
            record: Record {
                ruleset: rules,
                players: None,
                deals: Vec::new(),
            },
            seed,
            seeds: Seeds::new(seed),
            path,
        };
        session.record.players = Some(session.names.clone());
        session.bots = session.make_bots()?;
        Ok(session)
    }

    fn make_bots(&self) -> Result<Vec<Option<Box<dyn Bot>>>, Failure> {
        self.specs
            .iter()
            .enumerate()
            .map(|(seat, spec)| {
                if seat == self.human {
                    Ok(None)
                } else {
                    make_bot(spec, bot_seed(self.seed, seat))
                        .map(Some)
                        .map_err(Failure::input)
                }
            })
            .collect()
    }

    /// Continues a saved game: the record is read by core's strict reader
    /// ([`Record::from_json`]: replayed, and so checked, with `torite replay`'s errors), the
    /// table settings come from its `table` entry, and later deals come from the same seed as
    /// before.
    pub fn resume(path: &Path) -> Result<Session, Failure> {
        let value = crate::input::read_json(path)?;
        if crate::input::kind(&value) == crate::input::Kind::ScoreSheet {
            let p = path.display();
            return Err(Failure::input(format!(
                "{p} is a torite score-keeping save, not a game: continue it with `torite score --resume {p}`"
            )));
        }
        let (record, replay) = torite_core::record::read(&value)
            .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
        let rules = *replay.game.rules();
        let n = rules.players as usize;
        let TableEntry { human, seed, specs } = TableEntry::read(&value, n)
            .map_err(|why| Failure::input(format!("{}: {why}", path.display())))?;
        let names = record
            .players
            .clone()
            .unwrap_or_else(|| (0..n).map(|s| s.to_string()).collect());
        let mut session = Session {
            game: replay.game,
            human,
            bots: Vec::new(),
            names,
            specs,
            record,
            seed,
            seeds: Seeds::new(seed),
            path: path.to_owned(),
        };
        session.seeds = seeds_after(&session.record, seed)
            .map_err(|e| Failure::input(format!("{}: {e}", path.display())))?;
        session.bots = session.make_bots()?;
        Ok(session)
    }

    /// The game.
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// The rules.
    pub fn rules(&self) -> &Ruleset {
        self.game.rules()
    }

    /// The human's seat.
    pub fn human(&self) -> Seat {
        self.human
    }

    /// Display names per seat.
    pub fn names(&self) -> &[String] {
        &self.names
    }

    /// The deal in progress.
    pub fn deal(&self) -> Option<&Deal> {
        self.game.deal()
    }

    /// The human's view of the deal in progress.
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

    /// The number of deals started.
    pub fn deal_number(&self) -> usize {
        self.record.deals.len()
    }

    /// Starts the next deal if none is in progress and the game goes on.
    pub fn start_deal_if_needed(&mut self) -> Result<bool, Failure> {
        if self.game.deal().is_some() || self.game.is_finished() {
            return Ok(false);
        }
        let rules = *self.game.rules();
        let hands = self.seeds.next_hands(&rules);
        let n = rules.players as usize;
        let deal = self.game.start_deal(&hands[..n]).map_err(Failure::input)?;
        self.record.deals.push(RecordDeal {
            dealer: deal.dealer(),
            hands: hands[..n].to_vec(),
            actions: Vec::new(),
            draw: None,
        });
        self.save()?;
        Ok(true)
    }

    /// Whether the human is to act in the deal in progress.
    pub fn human_to_act(&self) -> bool {
        self.deal()
            .is_some_and(|d| !d.is_over() && d.to_act() == self.human)
    }

    /// Lets the bot to act take its action; `None` when the human is to act or no deal runs.
    pub fn step_bot(&mut self) -> Result<Option<Vec<Event>>, Failure> {
        let Some(deal) = self.game.deal().filter(|d| !d.is_over()) else {
            return Ok(None);
        };
        let seat = deal.to_act();
        let Some(bot) = self.bots[seat].as_mut() else {
            return Ok(None);
        };
        let action = bot.act(&View::new(deal, seat));
        self.apply(action)
            .map(Some)
            .map_err(|e| Failure::input(format!("bot {} chose {action}: {e}", self.names[seat])))
    }

    /// A hint for the human: what the table's strongest bot would do.
    pub fn hint(&self) -> Option<Action> {
        let view = self.view().filter(|_| self.human_to_act())?;
        let mut bot = make_bot(torite_bots::BEST, self.seed).ok()?;
        Some(bot.act(&view))
    }

    /// The human's action.
    pub fn play(&mut self, action: Action) -> Result<Vec<Event>, PlayError> {
        if !self.human_to_act() {
            return Err(PlayError::DealOver);
        }
        self.apply(action)
    }

    fn apply(&mut self, action: Action) -> Result<Vec<Event>, PlayError> {
        let deal = self.game.deal().ok_or(PlayError::DealOver)?;
        let seat = deal.to_act();
        let before = deal.tricks_completed();
        let led = matches!(action, Action::Play(_)) && deal.current_trick().is_empty();
        if let Some(err) = deal.check(action) {
            return Err(err);
        }
        let _ = self.game.apply(action);
        if let Some(last) = self.record.deals.last_mut() {
            last.actions.push(action);
        }
        let mut events = vec![Event::Acted { seat, action, led }];
        if let Some(deal) = self.game.deal()
            && deal.tricks_completed() > before
            && let Some(trick) = deal.last_trick()
        {
            events.push(Event::TrickWon(trick));
        }
        // Saving is best effort here; a failure is reported by the next explicit save.
        let _ = self.save();
        Ok(events)
    }

    /// Scores the finished deal (drawing a card for Molotow's three-way tie).
    pub fn finish_deal(&mut self) -> Result<Option<DealResult>, Failure> {
        if !self.deal().is_some_and(Deal::is_over) {
            return Ok(None);
        }
        let draw = self
            .game
            .draw_needed()
            .and_then(|tied| self.seeds.next_draw(SeatSet::from_bits(tied)));
        if let Some(last) = self.record.deals.last_mut() {
            last.draw = draw;
        }
        let result = self.game.finish_deal(draw).map_err(Failure::input)?.clone();
        self.save()?;
        Ok(Some(result))
    }

    /// Writes the record, with the table settings needed to resume.
    pub fn save(&self) -> Result<(), Failure> {
        let mut value = self.record.to_json();
        value["table"] = serde_json::json!({
            "human": self.human,
            "seed": self.seed,
            "bots": self.specs.iter().enumerate().map(|(s, b)| if s == self.human { "human".to_owned() } else { b.clone() }).collect::<Vec<_>>(),
        });
        crate::save::save(&self.path, torite_core::to_pretty_json(&value).as_bytes())
    }
}

/// The `table` entry `torite play` adds to the record it saves: the human's seat, the table
/// seed and each seat's bot (`"human"` at the human's seat).
struct TableEntry {
    human: Seat,
    seed: u64,
    specs: Vec<String>,
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
        Ok(TableEntry { human, seed, specs })
    }
}

#[cfg(test)]
mod tests {
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
        assert_eq!(session.record.to_json(), kept);
        for _ in 0..1000 {
            if session.game().is_finished() {
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
