//! `torite score`: a scorekeeper for games played with real cards. Each deal's facts are
//! entered line by line; the rules score them, keep the totals and held-over points, and say
//! when the game is over. The sheet is saved after every deal and can be resumed.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use torite_core::record::{LotReport, rule_name};
use torite_core::{
    DealFacts, DealReport, Game, LotResult, MAX_SEATS, Replay, Report, Ruleset, Scoring, SeatSet,
};
use torite_i18n::Catalog;
use torite_i18n::present::DealSummary;

use crate::Failure;

/// One entered deal.
#[derive(Clone, Debug, PartialEq)]
struct Entry {
    facts: DealFacts,
    draw: Option<usize>,
}

/// The scorekeeper's state: the rules, the entered deals and where the sheet is saved.
#[derive(Debug)]
pub struct Sheet {
    rules: Ruleset,
    entries: Vec<Entry>,
    path: PathBuf,
}

impl Sheet {
    /// A new, empty sheet.
    pub fn new(rules: Ruleset, path: PathBuf) -> Sheet {
        Sheet {
            rules,
            entries: Vec::new(),
            path,
        }
    }

    /// Loads a saved sheet, checking every deal again.
    pub fn load(path: &Path) -> Result<Sheet, Failure> {
        let value = crate::input::read_json(path)?;
        let is_record = value["deals"]
            .as_array()
            .is_some_and(|d| d.iter().any(|d| d.get("hands").is_some()));
        if is_record {
            let p = path.display();
            return Err(Failure::input(format!(
                "{p} is a game record, not a score-keeping save: show it with `torite show {p}`"
            )));
        }
        Sheet::from_value(&value, path)
    }

    /// A sheet from the JSON of a score-keeping save read from `path`, checking every deal.
    pub fn from_value(value: &Value, path: &Path) -> Result<Sheet, Failure> {
        let rules = Ruleset::from_json(&value["ruleset"])
            .map_err(|e| Failure::input(format!("{}: ruleset: {e}", path.display())))?;
        let mut sheet = Sheet::new(rules, path.to_owned());
        let n = rules.players as usize;
        for (i, deal) in value["deals"].as_array().into_iter().flatten().enumerate() {
            let numbers = |key: &str| -> Vec<u64> {
                deal[key]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_u64)
                    .collect()
            };
            let mut facts = DealFacts {
                players: n,
                ..DealFacts::default()
            };
            for (s, t) in numbers("tricks").iter().take(MAX_SEATS).enumerate() {
                facts.tricks[s] = *t as u8;
            }
            for (s, p) in numbers("points").iter().take(MAX_SEATS).enumerate() {
                facts.points[s] = *p as u32;
            }
            if let Some(lot) = deal.get("lot").filter(|l| !l.is_null()) {
                let declarers = lot["declarers"]
                    .as_array()
                    .into_iter()
                    .flatten()
                    .filter_map(Value::as_u64)
                    .map(|s| s.min(7) as usize)
                    .collect::<SeatSet>()
                    .bits();
                facts.lot = Some(LotResult {
                    declarers,
                    winner: lot["winner"].as_u64().map(|w| w as usize),
                });
            }
            let entry = Entry {
                facts,
                draw: deal["draw"].as_u64().map(|d| d as usize),
            };
            sheet.entries.push(entry);
            sheet
                .game()
                .map_err(|e| Failure::input(format!("{}: deal {i}: {e}", path.display())))?;
        }
        Ok(sheet)
    }

    /// The sheet as a replay for `torite show`: each deal's tricks won, card points, Lot,
    /// scores and totals, without cards (the sheet has none).
    pub fn replay(&self) -> Result<Replay, Failure> {
        let game = self.game().map_err(Failure::input)?;
        let n = self.rules.players as usize;
        let deals = game
            .results()
            .iter()
            .map(|r| DealReport {
                dealer: r.dealer,
                trump: None,
                lot: r.facts.lot.map(|l| LotReport {
                    declarers: (l.declaring() & SeatSet::all(n)).iter().collect(),
                    success: Some(l.winner.is_some()),
                }),
                tricks: Vec::new(),
                tricks_won: r.facts.tricks[..n].to_vec(),
                card_points: r.facts.points[..n].to_vec(),
                scores: Some(r.score.scores[..n].to_vec()),
                totals: Some(r.totals[..n].to_vec()),
                complete: true,
                rule: Some(rule_name(r.score.rule).to_owned()),
            })
            .collect();
        let report = Report {
            ruleset: self.rules.to_json(),
            players: None,
            deals,
            finished: game.is_finished(),
            winners: game.winners().to_vec(),
        };
        Ok(Replay { game, report })
    }

    /// The game the entries make.
    fn game(&self) -> Result<Game, String> {
        let mut game = Game::new(self.rules, 0).map_err(|e| e.to_string())?;
        for entry in &self.entries {
            game.record_facts(entry.facts, entry.draw)
                .map_err(|e| e.to_string())?;
        }
        Ok(game)
    }

    fn save(&self) -> Result<(), Failure> {
        let game = self.game().map_err(Failure::input)?;
        let n = self.rules.players as usize;
        let deals: Vec<Value> = self
            .entries
            .iter()
            .zip(game.results())
            .map(|(e, r)| {
                json!({
                    "tricks": e.facts.tricks[..n],
                    "points": e.facts.points[..n],
                    "lot": e.facts.lot.map(|l| json!({
                        "declarers": (l.declaring() & SeatSet::all(n)).iter().collect::<Vec<_>>(),
                        "winner": l.winner,
                    })),
                    "draw": e.draw,
                    "scores": r.score.scores[..n],
                    "totals": r.totals[..n],
                })
            })
            .collect();
        let value = json!({
            "ruleset": self.rules.to_json(),
            "deals": deals,
            "finished": game.is_finished(),
            "winners": game.winners(),
        });
        crate::save::save(&self.path, torite_core::to_pretty_json(&value).as_bytes())
    }
}

fn parse_numbers(line: &str, count: usize) -> Option<Vec<u32>> {
    let numbers: Vec<u32> = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    (numbers.len() == count).then_some(numbers)
}

fn parse_seats(line: &str, players: usize) -> Option<Vec<usize>> {
    if line.trim() == "-" {
        return Some(Vec::new());
    }
    let seats: Vec<usize> = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    (!seats.is_empty() && seats.iter().all(|s| *s < players)).then_some(seats)
}

/// What a prompt got: an answer, or a command.
enum Reply {
    Line(String),
    Undo,
    Quit,
}

struct Io<'a> {
    input: &'a mut dyn BufRead,
    output: &'a mut dyn Write,
}

impl Io<'_> {
    fn ask(&mut self, prompt: &str) -> Result<Reply, Failure> {
        let io = |e: std::io::Error| Failure::input(format!("input/output: {e}"));
        write!(self.output, "{prompt} ").map_err(io)?;
        self.output.flush().map_err(io)?;
        let mut line = String::new();
        if self.input.read_line(&mut line).map_err(io)? == 0 {
            return Ok(Reply::Quit);
        }
        Ok(match line.trim() {
            "q" | "Q" => Reply::Quit,
            "u" | "U" => Reply::Undo,
            other => Reply::Line(other.to_owned()),
        })
    }

    fn say(&mut self, text: &str) -> Result<(), Failure> {
        writeln!(self.output, "{text}").map_err(|e| Failure::input(format!("cannot write: {e}")))
    }
}

/// Runs the scorekeeper on `input` and `output`.
pub fn run(
    sheet: &mut Sheet,
    catalog: &Catalog,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<(), Failure> {
    let mut io = Io { input, output };
    let rules = sheet.rules;
    let n = rules.players as usize;
    let t = |key: &str, args: &[(&str, String)]| catalog.get(key, args);
    io.say(&t(
        "score-title",
        &[("name", torite_i18n::present::both_names(rules.base))],
    ))?;
    io.say(&t("score-help", &[]))?;
    let total_points = match rules.card_point_total() {
        (0, 0) => None,
        (low, high) if low == high => Some(high.to_string()),
        (low, high) => Some(format!("{low}–{high}")),
    };
    'deals: loop {
        let game = sheet.game().map_err(Failure::input)?;
        if game.is_finished() {
            let winners: Vec<String> = game.winners().iter().map(|s| catalog.seat(*s)).collect();
            let key = if winners.len() == 1 {
                "winner"
            } else {
                "winners"
            };
            io.say(&format!("== {} ==", t("game-over", &[])))?;
            io.say(&t(key, &[("seats", winners.join(", "))]))?;
            break;
        }
        io.say(&format!(
            "\n{}",
            t(
                "score-deal",
                &[
                    ("number", (sheet.entries.len() + 1).to_string()),
                    ("dealer", catalog.seat(game.next_dealer()))
                ]
            )
        ))?;
        let mut facts = DealFacts {
            players: n,
            ..DealFacts::default()
        };
        macro_rules! ask {
            ($prompt:expr) => {
                match io.ask(&$prompt)? {
                    Reply::Quit => break 'deals,
                    Reply::Undo => {
                        if let Some(_) = sheet.entries.pop() {
                            io.say(&t(
                                "undone",
                                &[("number", (sheet.entries.len() + 1).to_string())],
                            ))?;
                            sheet.save()?;
                        }
                        continue 'deals;
                    }
                    Reply::Line(line) => line,
                }
            };
        }
        if rules.lot.is_some() {
            let declarers = loop {
                let line = ask!(t("ask-lot", &[]));
                match parse_seats(&line, n) {
                    Some(seats) => break seats,
                    None => io.say(&t("bad-entry", &[("why", line)]))?,
                }
            };
            if !declarers.is_empty() {
                let mask: SeatSet = declarers.iter().copied().collect();
                let winner = loop {
                    let line = ask!(t("ask-lot-winner", &[]));
                    match parse_seats(&line, n) {
                        Some(w) if w.len() <= 1 && w.iter().all(|s| mask.contains(*s)) => {
                            break w.first().copied();
                        }
                        _ => io.say(&t("bad-entry", &[("why", line)]))?,
                    }
                };
                facts.lot = Some(LotResult {
                    declarers: mask.bits(),
                    winner,
                });
            }
        }
        let lot_game = facts.lot.is_some() && matches!(rules.scoring, Scoring::TrickTable { .. });
        loop {
            if !lot_game {
                let line = ask!(t(
                    "ask-tricks",
                    &[
                        ("count", n.to_string()),
                        ("total", rules.tricks().to_string())
                    ]
                ));
                match parse_numbers(&line, n) {
                    Some(tricks) => {
                        for (s, v) in tricks.iter().enumerate() {
                            facts.tricks[s] = (*v).min(255) as u8;
                        }
                    }
                    None => {
                        io.say(&t(
                            "bad-entry",
                            &[("why", t("bad-numbers", &[("count", n.to_string())]))],
                        ))?;
                        continue;
                    }
                }
            }
            if let Some(total) = &total_points {
                let points = loop {
                    let line = ask!(t(
                        "ask-points",
                        &[("count", n.to_string()), ("total", total.clone())]
                    ));
                    match parse_numbers(&line, n) {
                        Some(points) => break points,
                        None => io.say(&t(
                            "bad-entry",
                            &[("why", t("bad-numbers", &[("count", n.to_string())]))],
                        ))?,
                    }
                };
                facts.points[..n].copy_from_slice(&points);
            }
            match rules.check_facts(&facts) {
                Ok(()) => break,
                Err(why) => io.say(&t("bad-entry", &[("why", catalog.facts_error(&why))]))?,
            }
        }
        let draw = match rules.draw_needed(&facts) {
            None => None,
            Some(tied) => {
                let seats: Vec<usize> = (SeatSet::from_bits(tied) & SeatSet::all(n))
                    .iter()
                    .collect();
                let names: Vec<String> = seats.iter().map(|s| catalog.seat(*s)).collect();
                loop {
                    let line = ask!(t("ask-draw", &[("seats", names.join(", "))]));
                    match line.parse::<usize>() {
                        Ok(s) if seats.contains(&s) => break Some(s),
                        _ => io.say(&t("bad-entry", &[("why", line)]))?,
                    }
                }
            }
        };
        sheet.entries.push(Entry { facts, draw });
        let game = sheet.game().map_err(Failure::input)?;
        sheet.save()?;
        if let Some(result) = game.results().last() {
            let summary = DealSummary::new(catalog, &rules, result, None);
            for line in summary.lines() {
                io.say(&format!("  {line}"))?;
            }
            io.say(&format!("  {}", summary.rule))?;
            if !game.held().is_empty() {
                io.say(&format!(
                    "  {}",
                    t("held-points", &[("count", game.held().len().to_string())])
                ))?;
            }
        }
    }
    sheet.save()?;
    io.say(&t(
        "sheet-saved",
        &[("path", sheet.path.display().to_string())],
    ))
}
