//! Reading what the user gives: record files (or standard input) and rulesets (a preset id or
//! a house-rule file).

use std::io::Read;
use std::path::Path;

use serde_json::Value;
use torite_core::{Preset, Replay, Ruleset, perft};

use crate::Failure;

/// The largest record or saved game (`torite play`, `torite score`) read, in bytes: 4 MiB.
/// The longest game of any preset is under 10 KB as a record; 4 MiB holds about 7,000 deals.
/// Checked before parsing, so a huge file or an endless standard input is never read whole.
pub const MAX_RECORD_BYTES: u64 = 4 * 1024 * 1024;

/// The largest house-rule file read, in bytes: 64 KiB (a full one is under 1 KB).
pub const MAX_HOUSE_RULES_BYTES: u64 = 64 * 1024;

/// `4 MiB`, `64 KiB`: a limit as people read it.
fn size(bytes: u64) -> String {
    if bytes.is_multiple_of(1024 * 1024) {
        format!("{} MiB", bytes / (1024 * 1024))
    } else if bytes.is_multiple_of(1024) {
        format!("{} KiB", bytes / 1024)
    } else {
        format!("{bytes} bytes")
    }
}

/// Reads a file, or standard input for `-`, refusing more than `limit` bytes (`what` names
/// the kind of file the limit is for). At most `limit + 1` bytes are ever read.
pub fn read_text(path: &Path, limit: u64, what: &str) -> Result<String, Failure> {
    let stdin = path.as_os_str() == "-";
    let name = if stdin {
        "standard input".to_owned()
    } else {
        path.display().to_string()
    };
    let mut bytes = Vec::new();
    let read = if stdin {
        std::io::stdin()
            .lock()
            .take(limit + 1)
            .read_to_end(&mut bytes)
    } else {
        std::fs::File::open(path).and_then(|f| f.take(limit + 1).read_to_end(&mut bytes))
    };
    read.map_err(|e| Failure::input(format!("cannot read {name}: {e}")))?;
    if bytes.len() as u64 > limit {
        return Err(Failure::input(format!(
            "{name} is larger than {}, the limit for {what}",
            size(limit)
        )));
    }
    String::from_utf8(bytes).map_err(|e| {
        Failure::input(format!(
            "{name} is not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        ))
    })
}

/// Reads a record or a saved game as JSON, within [`MAX_RECORD_BYTES`].
pub fn read_json(path: &Path) -> Result<Value, Failure> {
    let text = read_text(path, MAX_RECORD_BYTES, "records and saved games")?;
    serde_json::from_str(&text).map_err(|e| {
        let name = if path.as_os_str() == "-" {
            "standard input".to_owned()
        } else {
            path.display().to_string()
        };
        Failure::input(format!(
            "{name}:{}:{}: invalid JSON: {}",
            e.line(),
            e.column(),
            strip_position(&e.to_string())
        ))
    })
}

/// serde_json's message without its trailing ` at line L column C`.
fn strip_position(message: &str) -> &str {
    message
        .rfind(" at line ")
        .map_or(message, |at| &message[..at])
}

/// What a file the program wrote is: a game record (saved by `play`, `deal`, `arena
/// --records`) or a `torite score` sheet (each deal's facts, no cards).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Kind {
    /// A game record (`RECORD.md`), possibly a game saved by `torite play`.
    Record,
    /// A score-keeping save of `torite score`.
    ScoreSheet,
}

/// Tells a score-keeping save (deals of tricks and points, without hands) from a record.
pub fn kind(value: &Value) -> Kind {
    let deals = value.get("deals").and_then(Value::as_array);
    let score_deal = |d: &Value| d.get("hands").is_none() && d.get("tricks").is_some();
    if deals.is_some_and(|d| d.iter().any(score_deal)) {
        Kind::ScoreSheet
    } else {
        Kind::Record
    }
}

/// The refusal for a score-keeping save given where a game record is needed.
pub fn not_a_record(path: &Path) -> Failure {
    let p = path.display();
    Failure::input(format!(
        "{p} is a torite score-keeping save, not a game record (it has no cards): \
         show it with `torite show {p}` or continue it with `torite score --resume {p}`"
    ))
}

/// Reads and replays a record; a score-keeping save is refused with a line saying what it is.
pub fn replay_file(path: &Path) -> Result<Replay, Failure> {
    let value = read_json(path)?;
    if kind(&value) == Kind::ScoreSheet {
        return Err(not_a_record(path));
    }
    torite_core::record::replay_value(&value).map_err(Failure::input)
}

/// Reads a record, or a score-keeping save (as a replay of its deals' scores, without cards),
/// for `torite show`.
pub fn replay_or_sheet(path: &Path) -> Result<(Replay, Kind), Failure> {
    let value = read_json(path)?;
    match kind(&value) {
        Kind::ScoreSheet => {
            let sheet = crate::score::Sheet::from_value(&value, path)?;
            Ok((sheet.replay()?, Kind::ScoreSheet))
        }
        Kind::Record => torite_core::record::replay_value(&value)
            .map(|r| (r, Kind::Record))
            .map_err(Failure::input),
    }
}

/// Counts perft from the position after a record's last action.
pub fn perft_file(path: &Path, depth: u32) -> Result<u64, Failure> {
    let replay = replay_file(path)?;
    if replay.report.deals.is_empty() {
        return Err(Failure::input(
            "the record has no deals: there is no position to count from",
        ));
    }
    Ok(replay.game.deal().map_or(1, |deal| perft(deal, depth)))
}

/// How reports name a ruleset: the preset id, followed for a house rule by the options it
/// changes (`mini-misere-4 + lot_timing = "before-lead"`).
pub fn rules_label(rules: &Ruleset) -> String {
    let mut label = rules.id().to_owned();
    for (i, (name, value)) in rules.overrides().into_iter().enumerate() {
        label += if i == 0 { " + " } else { ", " };
        label += &format!("{name} = {value}");
    }
    label
}

/// A preset id, or a house-rule file: TOML (`base = "id"` plus options) or the JSON object
/// form of records.
pub fn load_rules(arg: &str) -> Result<Ruleset, Failure> {
    if let Some(preset) = Preset::from_id(arg) {
        return Ok(preset.ruleset());
    }
    let path = Path::new(arg);
    if !path.exists() {
        return Err(Failure::input(format!(
            "{arg:?} is neither a preset id nor a house-rule file (presets: {})",
            Preset::ALL.map(Preset::id).join(", ")
        )));
    }
    let text = read_text(path, MAX_HOUSE_RULES_BYTES, "house-rule files")?;
    let value = parse_house_rules(&text).map_err(|e| Failure::input(format!("{arg}: {e}")))?;
    Ruleset::from_json(&value).map_err(|e| Failure::input(format!("{arg}: {e}")))
}

/// Parses house-rule text: JSON when it starts with `{`, TOML otherwise.
pub fn parse_house_rules(text: &str) -> Result<Value, String> {
    if text.trim_start().starts_with('{') {
        let value: Value = serde_json::from_str(text).map_err(|e| format!("invalid JSON: {e}"))?;
        return Ok(value);
    }
    let table: toml::Table =
        toml::from_str(text).map_err(|e| format!("invalid TOML: {}", e.message()))?;
    if !table.contains_key("base") {
        return Err("a house-rule file needs base = \"<preset id>\"".into());
    }
    serde_json::to_value(table).map_err(|e| e.to_string())
}
