//! Reading what the user gives: record files (or standard input) and rulesets (a preset id or
//! a house-rule file).

use std::io::Read;
use std::path::Path;

use serde_json::Value;
use torite_core::{Preset, Replay, Ruleset, RulesetProblem, perft};

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
    let value = parse_house_rules(&text).map_err(|e| match e.at {
        Some((line, column)) => Failure::input(format!("{arg}:{line}:{column}: {}", e.message)),
        None => Failure::input(format!("{arg}: {}", e.message)),
    })?;
    Ruleset::from_json(&value).map_err(|e| {
        // Point at the option the first problem names, when the file has it.
        let option = e.problems.first().and_then(|p| match p {
            RulesetProblem::UnknownOption(name) => Some(name.as_str()),
            RulesetProblem::NotApplicable { option, .. }
            | RulesetProblem::BadValue { option, .. } => Some(*option),
            _ => None,
        });
        match option.and_then(|o| key_position(&text, o)) {
            Some((line, column)) => Failure::input(format!("{arg}:{line}:{column}: {e}")),
            None => Failure::input(format!("{arg}: {e}")),
        }
    })
}

/// Where house-rule text sets `key`: a TOML `key = ...` line or a JSON `"key":`.
fn key_position(text: &str, key: &str) -> Option<(usize, usize)> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let indent = line.len() - trimmed.len();
        let toml_key = trimmed
            .split_once('=')
            .map(|(k, _)| k.trim().trim_matches(['"', '\'']));
        if toml_key == Some(key) {
            return Some(line_column(text, offset + indent));
        }
        if let Some(at) = line.find(&format!("\"{key}\""))
            && line[at + key.len() + 2..].trim_start().starts_with(':')
        {
            return Some(line_column(text, offset + at));
        }
        offset += line.len();
    }
    None
}

/// Why house-rule text cannot be read, and where.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct HouseRulesError {
    /// Line and column (from 1, in characters), when the problem has a place.
    pub at: Option<(usize, usize)>,
    /// What is wrong, naming the key where there is one.
    pub message: String,
}

/// The line and column (from 1, the column in characters) of byte `offset` of `text`.
fn line_column(text: &str, offset: usize) -> (usize, usize) {
    let before = &text[..text.floor_char_boundary(offset)];
    let line = before.matches('\n').count() + 1;
    let start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[start..].chars().count() + 1)
}

/// A TOML error as one line naming the key: the toml crate's message and span, reworded.
fn toml_error(text: &str, e: &toml::de::Error) -> HouseRulesError {
    let message = e.message().trim();
    let Some(span) = e.span().filter(|s| text.get(s.clone()).is_some()) else {
        return HouseRulesError {
            at: None,
            message: format!("invalid TOML: {message}"),
        };
    };
    let found = text[span.clone()].trim();
    // The key of a `key = value` line the span is in (the value's key for a bad value).
    let line_start = text[..span.start].rfind('\n').map_or(0, |i| i + 1);
    let key = text[line_start..span.start]
        .split_once('=')
        .map(|(k, _)| k.trim().trim_matches(['"', '\'']))
        .filter(|k| !k.is_empty());
    let message = if message == "duplicate key" {
        format!("duplicate key `{found}`")
    } else if message.starts_with("invalid type: integer") {
        match key {
            Some(key) => format!("`{key}` = {found}: the integer is out of range"),
            None => format!("{found}: the integer is out of range"),
        }
    } else {
        match key {
            Some(key) => format!("`{key}`: invalid TOML: {message}"),
            None => format!("invalid TOML: {message}"),
        }
    };
    HouseRulesError {
        at: Some(line_column(text, span.start)),
        message,
    }
}

/// Parses house-rule text: JSON when it starts with `{`, TOML otherwise.
///
/// # Errors
///
/// Where the text is not valid JSON or TOML (with the key for TOML), or has no `base`.
pub fn parse_house_rules(text: &str) -> Result<Value, HouseRulesError> {
    if text.trim_start().starts_with('{') {
        return serde_json::from_str(text).map_err(|e| HouseRulesError {
            at: Some((e.line(), e.column())),
            message: format!("invalid JSON: {}", strip_position(&e.to_string())),
        });
    }
    let table: toml::Table = toml::from_str(text).map_err(|e| toml_error(text, &e))?;
    if !table.contains_key("base") {
        return Err(HouseRulesError {
            at: None,
            message: "a house-rule file needs base = \"<preset id>\"".into(),
        });
    }
    serde_json::to_value(table).map_err(|e| HouseRulesError {
        at: None,
        message: e.to_string(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn error(text: &str) -> (Option<(usize, usize)>, String) {
        let e = parse_house_rules(text).unwrap_err();
        (e.at, e.message)
    }

    #[test]
    fn a_duplicate_key_is_named_with_its_line() {
        assert_eq!(
            error("base = \"mura-4\"\nthreshold = 3\nthreshold = 4\n"),
            (Some((3, 1)), "duplicate key `threshold`".to_owned())
        );
    }

    #[test]
    fn an_integer_too_large_for_toml_names_its_key() {
        assert_eq!(
            error("base = \"mura-4\"\n  threshold = 99999999999999999999\n"),
            (
                Some((2, 15)),
                "`threshold` = 99999999999999999999: the integer is out of range".to_owned()
            )
        );
    }

    #[test]
    fn other_toml_errors_name_the_key_and_the_place() {
        assert_eq!(
            error("base = \"mura-4\"\nthreshold = \n"),
            (
                Some((2, 13)),
                "`threshold`: invalid TOML: string values must be quoted, expected literal string"
                    .to_owned()
            )
        );
    }

    #[test]
    fn json_errors_have_their_place() {
        let (at, message) = error("{\"base\": \"mura-4\",\n \"threshold\": }");
        assert_eq!(at, Some((2, 15)));
        assert_eq!(message, "invalid JSON: expected value");
    }

    #[test]
    fn options_are_found_in_toml_and_json() {
        let toml = "base = \"mura-4\"\n# threshold = 1\n  threshold = 300\n";
        assert_eq!(key_position(toml, "threshold"), Some((3, 3)));
        let json = "{\"base\": \"mura-4\",\n \"threshold\": 300}";
        assert_eq!(key_position(json, "threshold"), Some((2, 2)));
        assert_eq!(key_position(json, "target"), None);
    }

    #[test]
    fn columns_count_characters() {
        assert_eq!(line_column("a\nトリテ = 1", 11), (2, 4));
    }
}
