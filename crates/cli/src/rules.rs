//! `torite rules`: the list of presets, one ruleset's description (the printable rules
//! sheet's text), or its options as a house-rule TOML file (`--toml`).

use std::fmt::Write;

use serde_json::Value;
use torite_core::{GameEnd, Preset, Ruleset};
use torite_i18n::present::both_names;
use torite_i18n::{Catalog, Lang};
use torite_sheets::{Kind, Sheet};

/// One line per preset: id, players, English and Japanese names.
pub fn list() -> String {
    let mut out = String::new();
    for preset in Preset::ALL {
        let rules = preset.ruleset();
        let _ = writeln!(
            out,
            "{:<20} {}p  {}",
            preset.id(),
            rules.players,
            both_names(preset)
        );
    }
    out
}

/// The ruleset's description in `lang`: the text of its printable rules sheet
/// (`torite sheet ID --kind rules`), house rules included.
pub fn describe(rules: &Ruleset, lang: Lang) -> String {
    Sheet::new(rules, Kind::Rules, lang).text()
}

fn toml_value(value: &Value) -> String {
    match value {
        Value::Null => "\"none\"".into(),
        other => other.to_string(),
    }
}

/// The ruleset as a house-rule file: `base` and every option that applies, with its current
/// value, each after a comment with the option's label and value in `lang`; the options left
/// out (no Mura bonus, a number of deals instead of a target) are commented out.
pub fn toml(rules: &Ruleset, lang: Lang) -> String {
    let catalog = Catalog::new(lang);
    let mut out = String::new();
    let preset = rules.base;
    let _ = writeln!(out, "# {}", both_names(preset));
    let _ = writeln!(out, "\nbase = \"{}\"", preset.id());
    for (name, value) in rules.options() {
        let label = catalog.option_label(name);
        let _ = writeln!(out, "\n# {label}: {}", catalog.option_value(name, &value));
        match (name, &value) {
            // TOML has no null: no bonus is the option left out.
            ("bonus_at", Value::Null) => {
                let _ = writeln!(out, "# bonus_at = 7");
            }
            _ => {
                let _ = writeln!(out, "{name} = {}", toml_value(&value));
            }
        }
    }
    if let GameEnd::Target { .. } = rules.end {
        let _ = writeln!(
            out,
            "\n# {}: {}\n# deals = 12",
            catalog.option_label("deals"),
            catalog.option_value("deals", &Value::from(12))
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_toml_labels_every_option_in_the_chosen_language() {
        let rules = Preset::Mura4.ruleset();
        let en = toml(&rules, Lang::En);
        assert!(
            en.contains("# Points that exempt from the penalty: "),
            "{en}"
        );
        assert!(
            en.contains("# Points that take a penalty point off: no bonus\n# bonus_at = 7"),
            "{en}"
        );
        let ja = toml(&rules, Lang::Ja);
        assert!(
            ja.contains("# ボーナスなし") || ja.contains(": ボーナスなし"),
            "{ja}"
        );
        assert!(!ja.contains("Points that"), "{ja}");
        // Nothing but comments, `base` and option lines.
        for line in ja.lines().filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let key = line.split(" = ").next().unwrap_or_default();
            assert!(
                key == "base" || torite_core::OPTION_NAMES.contains(&key),
                "{line}"
            );
        }
    }
}
