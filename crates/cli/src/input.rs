//! Reading what the user gives: record files (or standard input) and rulesets (a preset id or
//! a house-rule file).

use std::io::Read;
use std::path::Path;

use serde_json::Value;
use torite_core::{Preset, Record, Replay, Ruleset, perft};

use crate::Failure;

/// Reads a file, or standard input for `-`.
pub fn read_text(path: &Path) -> Result<String, Failure> {
    if path.as_os_str() == "-" {
        let mut text = String::new();
        std::io::stdin()
            .read_to_string(&mut text)
            .map_err(|e| Failure::input(format!("cannot read standard input: {e}")))?;
        Ok(text)
    } else {
        std::fs::read_to_string(path)
            .map_err(|e| Failure::input(format!("cannot read {}: {e}", path.display())))
    }
}

/// Reads and replays a record.
pub fn replay_file(path: &Path) -> Result<Replay, Failure> {
    Record::replay_json(&read_text(path)?).map_err(Failure::input)
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
    let text = read_text(path)?;
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
