//! Argument parsers shared by the examples, for `clap`'s `value_parser`.

// Each example includes this module and uses only some of its parsers.
#![allow(dead_code)]

use std::str::FromStr;

use torite_core::Preset;

/// A preset by its id, or an error listing the ids.
pub fn preset(text: &str) -> Result<Preset, String> {
    Preset::from_id(text).ok_or_else(|| {
        format!(
            "no such preset; the presets are {}",
            Preset::ALL.map(Preset::id).join(", ")
        )
    })
}

/// A time per decision in whole milliseconds, 1 to the bots' limit.
pub fn millis(text: &str) -> Result<u32, String> {
    text.parse()
        .ok()
        .filter(|ms| (1..=torite_bots::MAX_MILLIS).contains(ms))
        .ok_or_else(|| {
            format!(
                "expected whole milliseconds, 1 to {}",
                torite_bots::MAX_MILLIS
            )
        })
}

/// A whole number no smaller than `min`.
pub fn at_least<T>(min: T) -> impl Fn(&str) -> Result<T, String> + Clone + Send + Sync + 'static
where
    T: FromStr + PartialOrd + std::fmt::Display + Copy + Send + Sync + 'static,
{
    move |text: &str| {
        text.parse()
            .ok()
            .filter(|n| *n >= min)
            .ok_or_else(|| format!("expected a whole number, at least {min}"))
    }
}

/// A bot spec the bots' registry knows (`ismcts:1000`, `club`, ...).
pub fn bot(text: &str) -> Result<String, String> {
    text.parse::<torite_bots::BotSpec>()
        .map(|_| text.to_owned())
        .map_err(|e| e.to_string())
}
