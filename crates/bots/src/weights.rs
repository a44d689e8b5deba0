//! The form of the compiled-in weights files (`crates/bots/weights/`): one line per preset,
//! its id then its weights, `#` comments and blank lines skipped. The learned evaluation
//! ([`crate::eval`]) and the learned policy ([`crate::policy`]) are read this way.

use torite_core::{Preset, Ruleset};

/// Reads a weights file of `N` numbers a line: one weight vector per preset, in
/// [`Preset::ALL`] order (`None` for a preset without a line). `what` names what a line holds,
/// in the errors ("model", "policy").
///
/// # Errors
///
/// A line that names no preset, names one twice, has a word that is not a number, or does not
/// have `N` numbers; the message names the line.
pub(crate) fn parse<const N: usize>(
    text: &str,
    what: &str,
) -> Result<Vec<Option<[f32; N]>>, String> {
    let mut out: Vec<Option<[f32; N]>> = vec![None; Preset::ALL.len()];
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let mut words = line.split_whitespace();
        let id = words.next().unwrap_or_default();
        let index = Preset::ALL
            .iter()
            .position(|p| p.id() == id)
            .ok_or_else(|| format!("line {}: no preset is called {id:?}", number + 1))?;
        if out[index].is_some() {
            return Err(format!("line {}: a second {what} of {id}", number + 1));
        }
        let mut weights = [0.0; N];
        let mut count = 0;
        for word in words {
            let w: f32 = word
                .parse()
                .map_err(|_| format!("line {}: {word:?} is not a number", number + 1))?;
            if count < N {
                weights[count] = w;
            }
            count += 1;
        }
        if count != N {
            return Err(format!(
                "line {}: {count} weights for {id}, not {N}",
                number + 1
            ));
        }
        out[index] = Some(weights);
    }
    Ok(out)
}

/// The place in [`Preset::ALL`] of the preset `rules` is exactly (no house rule changed).
pub(crate) fn preset_index(rules: &Ruleset) -> Option<usize> {
    if !rules.is_preset() {
        return None;
    }
    Preset::ALL.iter().position(|p| p.id() == rules.id())
}
