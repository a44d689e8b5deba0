//! `torite score`: a scorekeeper for games played with real cards. Each deal's facts are
//! entered line by line; the rules score them, keep the totals and held-over points, and say
//! when the game is over. The sheet is saved after every deal and can be resumed.

use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use torite_core::record::{LotReport, rule_name};
use torite_core::{
    DealFacts, DealReport, FactsError, Game, LotResult, MAX_SEATS, Replay, Report, Ruleset, SeatSet,
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
    players: Vec<String>,
    entries: Vec<Entry>,
    path: PathBuf,
}

impl Sheet {
    /// A new, empty sheet.
    pub fn new(rules: Ruleset, path: PathBuf) -> Sheet {
        Sheet {
            rules,
            players: Vec::new(),
            entries: Vec::new(),
            path,
        }
    }

    /// Whether the players have names (given with `--players`, asked, or saved).
    pub fn has_names(&self) -> bool {
        !self.players.is_empty()
    }

    /// Names the players, one per seat in seat order, each checked by [`check_names`].
    ///
    /// # Errors
    ///
    /// Why the names cannot be used, in the catalog's words.
    pub fn set_names(&mut self, catalog: &Catalog, names: &str) -> Result<(), String> {
        self.players = check_names(catalog, names, self.rules.players as usize)?;
        Ok(())
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
        if let Some(names) = value.get("players").filter(|p| !p.is_null()) {
            let names: Option<Vec<&str>> = names
                .as_array()
                .map(|a| a.iter().filter_map(Value::as_str).collect());
            let joined = names.map(|n| n.join(","));
            sheet.players = joined
                .and_then(|j| check_names(&Catalog::new(torite_i18n::Lang::En), &j, n).ok())
                .ok_or_else(|| {
                    Failure::input(format!(
                        "{}: players: expected {n} distinct names",
                        path.display()
                    ))
                })?;
        }
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

    /// Whether `path` holds a score-keeping save (a ruleset and deals of facts, no cards)
    /// rather than house rules or a game record; unreadable files are not saves.
    pub fn is_save(path: &Path) -> bool {
        let Ok(value) = crate::input::read_json(path) else {
            return false;
        };
        value.get("ruleset").is_some()
            && value["deals"]
                .as_array()
                .is_some_and(|d| d.iter().all(|d| d.get("hands").is_none()))
    }

    /// The rules the game is kept under.
    pub fn rules(&self) -> Ruleset {
        self.rules
    }

    /// The game so far written into the printable score sheet of its rules, in `lang`.
    pub fn printed(&self, lang: torite_i18n::Lang) -> Result<torite_sheets::Sheet, Failure> {
        let game = self.game().map_err(Failure::input)?;
        Ok(torite_sheets::Sheet::kept(
            &self.rules,
            lang,
            &self.players,
            game.results(),
        ))
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
            players: self.has_names().then(|| self.players.clone()),
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
            "players": self.has_names().then_some(&self.players),
            "deals": deals,
            "finished": game.is_finished(),
            "winners": game.winners(),
        });
        crate::save::save(&self.path, torite_core::to_pretty_json(&value).as_bytes())
    }
}

/// The longest player name, in characters.
pub const NAME_MAX: usize = 16;

/// The players' names from `line` (separated by commas), one per seat of `players`: each
/// non-empty, at most [`NAME_MAX`] characters, without control characters, not a number or
/// `-` (seats are also entered by number, `-` means none), and no two the same.
///
/// # Errors
///
/// Why the names cannot be used, in the catalog's words.
pub fn check_names(catalog: &Catalog, line: &str, players: usize) -> Result<Vec<String>, String> {
    let names: Vec<String> = line.split(',').map(|n| n.trim().to_owned()).collect();
    if names.len() != players {
        return Err(catalog.get(
            "score-name-count",
            &[
                ("count", players.to_string()),
                ("given", names.len().to_string()),
            ],
        ));
    }
    for (i, name) in names.iter().enumerate() {
        let arg = || vec![("name", name.clone())];
        if name.is_empty() {
            return Err(catalog.get("score-name-empty", &[("seat", catalog.seat(i))]));
        }
        if name.chars().count() > NAME_MAX {
            return Err(catalog.get(
                "score-name-long",
                &[("name", name.clone()), ("max", NAME_MAX.to_string())],
            ));
        }
        if name.chars().any(char::is_control) {
            return Err(catalog.get("score-name-control", &[("seat", catalog.seat(i))]));
        }
        if name == "-" || name.chars().all(|c| c.is_ascii_digit()) {
            return Err(catalog.get("score-name-reserved", &arg()));
        }
        if names[..i]
            .iter()
            .any(|o| o.to_lowercase() == name.to_lowercase())
        {
            return Err(catalog.get("score-name-twice", &arg()));
        }
    }
    Ok(names)
}

/// How the scorekeeper names seats and reads them back: by number, or by the players' names.
struct Seats<'a> {
    catalog: &'a Catalog,
    names: &'a [String],
    players: usize,
}

impl Seats<'_> {
    /// A seat as a person reads it: its player's name, or "Seat 2".
    fn label(&self, seat: usize) -> String {
        self.names
            .get(seat)
            .cloned()
            .unwrap_or_else(|| self.catalog.seat(seat))
    }

    fn labels(&self, seats: &[usize]) -> String {
        let labels: Vec<String> = seats.iter().map(|s| self.label(*s)).collect();
        labels.join(", ")
    }

    /// The seat a token names: its number, or its player's name (in any case).
    fn seat(&self, token: &str) -> Result<usize, String> {
        if let Ok(seat) = token.parse::<usize>()
            && seat < self.players
        {
            return Ok(seat);
        }
        if let Some(seat) = self
            .names
            .iter()
            .position(|n| n.to_lowercase() == token.to_lowercase())
        {
            return Ok(seat);
        }
        let last = (self.players - 1).to_string();
        Err(if self.names.is_empty() {
            self.catalog.get(
                "score-no-seat",
                &[("token", token.to_owned()), ("last", last)],
            )
        } else {
            self.catalog.get(
                "score-no-seat-named",
                &[
                    ("token", token.to_owned()),
                    ("last", last),
                    ("names", self.names.join(", ")),
                ],
            )
        })
    }

    /// The seats a line names, each once (`-` for none). Names holding blanks are entered
    /// with commas between the seats.
    fn seats(&self, line: &str) -> Result<Vec<usize>, String> {
        if line == "-" {
            return Ok(Vec::new());
        }
        let tokens: Vec<&str> = if line.contains(',') {
            line.split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .collect()
        } else {
            line.split_whitespace().collect()
        };
        let mut seats = Vec::new();
        for token in tokens {
            let seat = self.seat(token)?;
            if seats.contains(&seat) {
                return Err(self
                    .catalog
                    .get("score-seat-twice", &[("seat", self.label(seat))]));
            }
            seats.push(seat);
        }
        Ok(seats)
    }
}

/// How many seats a line names: its parts between commas if it has any, else between blanks.
fn tokens(line: &str) -> usize {
    if line.contains(',') {
        line.split(',').filter(|t| !t.trim().is_empty()).count()
    } else {
        line.split_whitespace().count()
    }
}

/// Whole numbers 0 or more from `line`, separated by blanks or commas, `count` of them (or
/// `count - 1` where `short` allows the last to be worked out).
fn parse_numbers(
    catalog: &Catalog,
    line: &str,
    count: usize,
    short: bool,
) -> Result<Vec<u32>, String> {
    let tokens: Vec<&str> = line
        .split(|c: char| c.is_whitespace() || c == ',')
        .filter(|t| !t.is_empty())
        .collect();
    let mut numbers = Vec::with_capacity(tokens.len());
    for token in &tokens {
        match token.parse::<u32>() {
            Ok(n) => numbers.push(n),
            Err(_) => {
                return Err(catalog.get("score-not-number", &[("token", (*token).to_owned())]));
            }
        }
    }
    if numbers.len() == count || (short && numbers.len() + 1 == count) {
        return Ok(numbers);
    }
    let key = if short {
        "score-points-count"
    } else {
        "score-numbers-count"
    };
    Err(catalog.get(
        key,
        &[
            ("count", count.to_string()),
            ("less", (count - 1).to_string()),
            ("given", numbers.len().to_string()),
        ],
    ))
}

/// What a prompt got: an answer, or a command.
enum Reply {
    Line(String),
    Undo,
    Restart,
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
            writeln!(self.output).map_err(io)?;
            return Ok(Reply::Quit);
        }
        Ok(match line.trim() {
            "q" | "Q" => Reply::Quit,
            "u" | "U" => Reply::Undo,
            "r" | "R" => Reply::Restart,
            other => Reply::Line(other.to_owned()),
        })
    }

    fn say(&mut self, text: &str) -> Result<(), Failure> {
        writeln!(self.output, "{text}").map_err(|e| Failure::input(format!("cannot write: {e}")))
    }
}

/// Asks for the players' names until they can be used; an empty answer keeps seat numbers.
/// `false` when the input ended or asked to quit.
fn ask_names(sheet: &mut Sheet, catalog: &Catalog, io: &mut Io<'_>) -> Result<bool, Failure> {
    let count = sheet.rules.players.to_string();
    loop {
        match io.ask(&catalog.get("score-players-ask", &[("count", count.clone())]))? {
            Reply::Quit => return Ok(false),
            Reply::Line(line) if line.is_empty() => return Ok(true),
            Reply::Line(line) => match sheet.set_names(catalog, &line) {
                Ok(()) => return Ok(true),
                Err(why) => io.say(&catalog.get("bad-entry", &[("why", why)]))?,
            },
            Reply::Undo | Reply::Restart => io.say(&catalog.get(
                "bad-entry",
                &[(
                    "why",
                    catalog.get(
                        "score-name-count",
                        &[("count", count.clone()), ("given", "1".into())],
                    ),
                )],
            ))?,
        }
    }
}

/// Runs the scorekeeper on `input` and `output`, first asking the players' names when
/// `ask_for_names` (a new sheet without `--players`).
pub fn run(
    sheet: &mut Sheet,
    catalog: &Catalog,
    ask_for_names: bool,
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<(), Failure> {
    let mut io = Io { input, output };
    let rules = sheet.rules;
    let n = rules.players as usize;
    let t = |key: &str, args: &[(&str, String)]| catalog.get(key, args);
    let bad = |why: String| t("bad-entry", &[("why", why)]);
    io.say(&t(
        "score-title",
        &[("name", torite_i18n::present::both_names(rules.base))],
    ))?;
    if ask_for_names && !ask_names(sheet, catalog, &mut io)? {
        return Ok(());
    }
    let names = sheet.players.clone();
    let seats = Seats {
        catalog,
        names: &names,
        players: n,
    };
    if sheet.has_names() {
        let list: Vec<String> = (0..n).map(|s| format!("{s} {}", names[s])).collect();
        io.say(&t("score-players", &[("list", list.join(" · "))]))?;
    }
    io.say(&t("score-help", &[]))?;
    let (low, high) = rules.card_point_total();
    let total_points = match (low, high) {
        (0, 0) => None,
        (low, high) if low == high => Some(high.to_string()),
        (low, high) => Some(format!("{low}–{high}")),
    };
    'deals: loop {
        let game = sheet.game().map_err(Failure::input)?;
        if game.is_finished() {
            let winners: Vec<usize> = game.winners().to_vec();
            let key = if winners.len() == 1 {
                "winner"
            } else {
                "winners"
            };
            io.say(&format!("== {} ==", t("game-over", &[])))?;
            io.say(&t(key, &[("seats", seats.labels(&winners))]))?;
            loop {
                match io.ask(&t("score-over-ask", &[]))? {
                    Reply::Undo => {
                        sheet.entries.pop();
                        io.say(&t(
                            "undone",
                            &[("number", (sheet.entries.len() + 1).to_string())],
                        ))?;
                        sheet.save()?;
                        continue 'deals;
                    }
                    Reply::Quit => break 'deals,
                    Reply::Line(line) if line.is_empty() => break 'deals,
                    _ => io.say(&bad(t("score-over-refused", &[])))?,
                }
            }
        }
        io.say(&format!(
            "\n{}",
            t(
                "score-deal",
                &[
                    ("number", (sheet.entries.len() + 1).to_string()),
                    ("dealer", seats.label(game.next_dealer()))
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
                    Reply::Restart => continue 'deals,
                    Reply::Undo => {
                        if sheet.entries.pop().is_some() {
                            io.say(&t(
                                "undone",
                                &[("number", (sheet.entries.len() + 1).to_string())],
                            ))?;
                            sheet.save()?;
                        } else {
                            io.say(&bad(t("score-nothing-to-undo", &[])))?;
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
                if line.is_empty() {
                    io.say(&bad(t("score-empty-lot", &[])))?;
                    continue;
                }
                match seats.seats(&line) {
                    Ok(list) => break list,
                    Err(why) => io.say(&bad(why))?,
                }
            };
            if !declarers.is_empty() {
                let mask: SeatSet = declarers.iter().copied().collect();
                let winner = loop {
                    let line = ask!(t("ask-lot-winner", &[]));
                    if line.is_empty() {
                        io.say(&bad(t("score-empty-winner", &[])))?;
                        continue;
                    }
                    if tokens(&line) > 1 {
                        io.say(&bad(t("score-one-winner", &[])))?;
                        continue;
                    }
                    match seats.seats(&line) {
                        Ok(w) => match w.first() {
                            Some(s) if !mask.contains(*s) => io.say(&bad(t(
                                "score-not-declarer",
                                &[
                                    ("seat", seats.label(*s)),
                                    ("seats", seats.labels(&declarers)),
                                ],
                            )))?,
                            first => break first.copied(),
                        },
                        Err(why) => io.say(&bad(why))?,
                    }
                };
                facts.lot = Some(LotResult {
                    declarers: mask.bits(),
                    winner,
                });
            }
        }
        let mut tricks = vec![0; n];
        if rules.tricks_needed(facts.lot) && rules.tricks_as_ticks() {
            // The Jass games score card points; of the tricks only "took none" and "took every
            // one" count, and the paper sheet ticks those rather than counting tricks.
            tricks = loop {
                let every = loop {
                    let line = ask!(t("ask-every-trick", &[]));
                    if line.is_empty() {
                        io.say(&bad(t("score-empty-every-trick", &[])))?;
                        continue;
                    }
                    if tokens(&line) > 1 {
                        io.say(&bad(t("score-one-every-trick", &[])))?;
                        continue;
                    }
                    match seats.seats(&line) {
                        Ok(w) => break w.first().copied(),
                        Err(why) => io.say(&bad(why))?,
                    }
                };
                if let Some(every) = every {
                    let none: Vec<usize> = (0..n).filter(|s| *s != every).collect();
                    break rules
                        .tricks_from_ticks(&none, Some(every))
                        .unwrap_or_default();
                }
                let none = loop {
                    let line = ask!(t("ask-no-trick", &[]));
                    if line.is_empty() {
                        io.say(&bad(t("score-empty-no-trick", &[])))?;
                        continue;
                    }
                    match seats.seats(&line) {
                        Ok(none) => break none,
                        Err(why) => io.say(&bad(why))?,
                    }
                };
                // Every seat but one without a trick means that one took them all, which the
                // first answer denied: both questions are asked again.
                match rules.tricks_from_ticks(&none, None) {
                    Some(tricks) if none.len() + 1 < n => break tricks,
                    _ => io.say(&bad(t(
                        "score-no-trick-too-many",
                        &[("count", none.len().to_string())],
                    )))?,
                }
            };
            for (s, v) in tricks.iter().enumerate() {
                facts.tricks[s] = u8::try_from(*v).unwrap_or(u8::MAX);
            }
        } else if rules.tricks_needed(facts.lot) {
            tricks = loop {
                let line = ask!(t(
                    "ask-tricks",
                    &[
                        ("count", n.to_string()),
                        ("total", rules.tricks().to_string())
                    ]
                ));
                let checked = parse_numbers(catalog, &line, n, false).and_then(|tricks| {
                    rules
                        .check_tricks(&tricks)
                        .map(|()| tricks)
                        .map_err(|e| catalog.facts_error(&e))
                });
                match checked {
                    Ok(tricks) => break tricks,
                    Err(why) => io.say(&bad(why))?,
                }
            };
            for (s, v) in tricks.iter().enumerate() {
                facts.tricks[s] = u8::try_from(*v).unwrap_or(u8::MAX);
            }
        }
        if let Some(total) = &total_points {
            let short = low == high;
            let key = if short {
                "ask-points-last"
            } else {
                "ask-points"
            };
            let points = loop {
                let line = ask!(t(
                    key,
                    &[
                        ("count", n.to_string()),
                        ("less", (n - 1).to_string()),
                        ("total", total.clone())
                    ]
                ));
                let mut points = match parse_numbers(catalog, &line, n, short) {
                    Ok(points) => points,
                    Err(why) => {
                        io.say(&bad(why))?;
                        continue;
                    }
                };
                if points.len() + 1 == n {
                    let given: u64 = points.iter().map(|p| u64::from(*p)).sum();
                    let Some(last) = u64::from(high)
                        .checked_sub(given)
                        .and_then(|l| u32::try_from(l).ok())
                    else {
                        io.say(&bad(t(
                            "score-points-over",
                            &[
                                ("count", (n - 1).to_string()),
                                ("given", given.to_string()),
                                ("total", total.clone()),
                            ],
                        )))?;
                        continue;
                    };
                    points.push(last);
                    io.say(&format!(
                        "  {}",
                        t(
                            "score-points-last",
                            &[
                                ("seat", seats.label(n - 1)),
                                ("points", last.to_string()),
                                ("total", total.clone()),
                            ],
                        )
                    ))?;
                }
                match rules.check_points(&tricks, &points) {
                    Ok(()) => break points,
                    Err(why) => io.say(&bad(points_error(catalog, &seats, &why)))?,
                }
            };
            facts.points[..n].copy_from_slice(&points);
        }
        if let Err(why) = rules.check_facts(&facts) {
            io.say(&bad(catalog.facts_error(&why)))?;
            continue 'deals;
        }
        let draw = match rules.draw_needed(&facts) {
            None => None,
            Some(tied) => {
                let tied: Vec<usize> = (SeatSet::from_bits(tied) & SeatSet::all(n))
                    .iter()
                    .collect();
                loop {
                    let line = ask!(t("ask-draw", &[("seats", seats.labels(&tied))]));
                    if line.is_empty() {
                        io.say(&bad(t("score-empty-draw", &[])))?;
                        continue;
                    }
                    if tokens(&line) > 1 {
                        io.say(&bad(t("score-one-draw", &[])))?;
                        continue;
                    }
                    match seats.seat(&line) {
                        Ok(s) if tied.contains(&s) => break Some(s),
                        Ok(s) => io.say(&bad(t(
                            "score-not-tied",
                            &[("seat", seats.label(s)), ("seats", seats.labels(&tied))],
                        )))?,
                        Err(why) => io.say(&bad(why))?,
                    }
                }
            }
        };
        sheet.entries.push(Entry { facts, draw });
        let game = sheet.game().map_err(Failure::input)?;
        sheet.save()?;
        if let Some(result) = game.results().last() {
            let mut summary = DealSummary::new(catalog, &rules, result, None);
            if rules.tricks_as_ticks() {
                summary = summary.with_ticks(catalog, &rules, result);
            }
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

/// Why card points are refused, naming a seat by its player where the players have names.
fn points_error(catalog: &Catalog, seats: &Seats<'_>, error: &FactsError) -> String {
    match *error {
        FactsError::PointsWithoutTrick { seat, points } => catalog.get_counted(
            "facts-points-without-trick",
            &[("seat", seats.label(seat))],
            &[("points", i64::from(points))],
        ),
        _ => catalog.facts_error(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use torite_i18n::Lang;

    #[test]
    fn names_are_checked() {
        let en = Catalog::new(Lang::En);
        assert_eq!(
            check_names(&en, " Aki , Ben,Chie ", 3),
            Ok(vec!["Aki".to_owned(), "Ben".to_owned(), "Chie".to_owned()])
        );
        let refused = |line: &str| check_names(&en, line, 3).expect_err(line);
        assert_eq!(refused("Aki,Ben"), "expected 3 names, one per seat; got 2");
        assert_eq!(refused("Aki,,Ben"), "the name for Seat 1 is empty");
        assert!(refused("Aki,Ben,ABCDEFGHIJKLMNOPQ").contains("at most 16 characters"));
        assert_eq!(
            refused("Aki,B\u{7}n,Chie"),
            "the name for Seat 1 holds a control character"
        );
        assert!(refused("Aki,-,Chie").starts_with("“-” cannot be a name"));
        assert!(refused("Aki,BEN,ben").starts_with("“ben” is given twice"));
    }

    #[test]
    fn seats_are_read_by_number_or_name() {
        let en = Catalog::new(Lang::En);
        let names = ["Aki".to_owned(), "Ben Lee".to_owned(), "Chie".to_owned()];
        let named = Seats {
            catalog: &en,
            names: &names,
            players: 3,
        };
        assert_eq!(named.seats("-"), Ok(vec![]));
        assert_eq!(named.seats("2 aki"), Ok(vec![2, 0]));
        assert_eq!(named.seats("Ben Lee, 2"), Ok(vec![1, 2]));
        assert_eq!(named.seats("0 aki"), Err("Aki is named twice".to_owned()));
        assert_eq!(
            named.seats("3"),
            Err(
                "there is no seat or player “3”: the seats are 0 to 2 (Aki, Ben Lee, Chie)"
                    .to_owned()
            )
        );
        let numbered = Seats {
            catalog: &en,
            names: &[],
            players: 3,
        };
        assert_eq!(numbered.label(1), "Seat 1");
        assert_eq!(
            numbered.seat("-1"),
            Err("there is no seat “-1”: the seats are 0 to 2".to_owned())
        );
        assert_eq!(tokens("Ben Lee, 2"), 2);
        assert_eq!(tokens("1 2 3"), 3);
    }

    #[test]
    fn numbers_are_read_with_the_reason_when_refused() {
        let en = Catalog::new(Lang::En);
        assert_eq!(parse_numbers(&en, "1, 2 3", 3, false), Ok(vec![1, 2, 3]));
        assert_eq!(parse_numbers(&en, "1 2", 3, true), Ok(vec![1, 2]));
        assert_eq!(
            parse_numbers(&en, "1 2", 3, false),
            Err("expected 3 whole numbers, one per seat; got 2".to_owned())
        );
        assert_eq!(
            parse_numbers(&en, "1 2.5 3", 3, false),
            Err("“2.5” is not a whole number of 0 or more".to_owned())
        );
        assert_eq!(
            parse_numbers(&en, "99999999999 1 1", 3, false),
            Err("“99999999999” is not a whole number of 0 or more".to_owned())
        );
    }
}
