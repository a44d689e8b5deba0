//! `torite play`: a game against bots, full-screen or line by line (`--plain`).

pub mod plain;
pub mod session;
#[cfg(test)]
mod tests;
pub mod text;
pub mod tui;

use std::path::PathBuf;

use torite_bots::BotSpec;
use torite_i18n::{Catalog, Lang};

use crate::Failure;
use session::Session;
use text::{SuitStyle, Words};

/// The command-line settings of `torite play`.
#[derive(Debug)]
pub struct PlayArgs {
    /// A preset id or house-rule file (default `mini-misere-4`).
    pub ruleset: Option<String>,
    /// The human's seat.
    pub seat: usize,
    /// Bot specs for the other seats, in turn.
    pub bots: Vec<BotSpec>,
    /// Seed of the deals (default: from the clock).
    pub seed: Option<u64>,
    /// Language (default: from the locale).
    pub lang: Option<Lang>,
    /// Continue a saved game.
    pub resume: Option<PathBuf>,
    /// Line-oriented mode.
    pub plain: bool,
    /// Instant bots.
    pub fast: bool,
    /// How suits are drawn (default: [`suit_style`]'s).
    pub suits: Option<SuitStyle>,
    /// Where to save the record.
    pub save: Option<PathBuf>,
}

fn default_save_path(ruleset: &str, seed: u64) -> PathBuf {
    let base = std::env::var_os("XDG_DATA_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".local/share")))
        .unwrap_or_else(|| PathBuf::from("."));
    base.join("torite")
        .join("games")
        .join(format!("{ruleset}-{seed}.json"))
}

/// The rules summary shown by `?`: the same text as the printable rules sheet, in the
/// player's language (`## ` starts a section, `- ` an item, `|` separates table cells).
pub fn rules_text(rules: &torite_core::Ruleset, lang: Lang) -> Vec<String> {
    torite_sheets::Sheet::new(rules, torite_sheets::Kind::Rules, lang)
        .text()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(str::to_owned)
        .collect()
}

/// How suits are drawn unless `--suits` says: letters in the Japanese full screen, where
/// terminals set up for Japanese draw `♠ ♥ ♦ ♣` two cells wide and the table would not line
/// up; symbols elsewhere (and in plain mode, read line by line or by a screen reader).
pub fn suit_style(lang: Lang, full_screen: bool) -> SuitStyle {
    if lang == Lang::Ja && full_screen {
        SuitStyle::Letters
    } else {
        SuitStyle::Symbols
    }
}

/// A seat's name as the player reads it: a level by its name in the catalog ("Club" for
/// `club`), anything else as recorded.
fn shown_name(name: &str, catalog: &Catalog) -> String {
    match name.parse::<BotSpec>().ok().and_then(|s| s.as_level()) {
        Some(level) => catalog.get(&format!("level-{}", level.id()), &[]),
        None => name.to_owned(),
    }
}

/// Runs `torite play`.
pub fn run(args: PlayArgs) -> Result<String, Failure> {
    let lang = args.lang.unwrap_or_else(Lang::from_env);
    let catalog = Catalog::new(lang);
    let mut session = match &args.resume {
        Some(path) => Session::resume(path)?,
        None => {
            let rules =
                crate::input::load_rules(args.ruleset.as_deref().unwrap_or("mini-misere-4"))?;
            let seed = args.seed.unwrap_or_else(|| {
                std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_secs() % 1_000_000)
            });
            let bots = if args.bots.is_empty() {
                vec![if args.fast {
                    BotSpec::STRONGEST
                } else {
                    BotSpec::level(torite_bots::DEFAULT_LEVEL)
                }]
            } else {
                args.bots.clone()
            };
            let path = args
                .save
                .clone()
                .unwrap_or_else(|| default_save_path(rules.id(), seed));
            let you = catalog.get("seat-you", &[]);
            Session::new(rules, args.seat, &bots, seed, &you, path)?
        }
    };
    let full_screen = !args.plain && std::io::IsTerminal::is_terminal(&std::io::stdout());
    let names = session
        .names()
        .iter()
        .map(|name| shown_name(name, &catalog))
        .collect();
    let words = Words {
        catalog,
        suits: args.suits.unwrap_or(suit_style(lang, full_screen)),
        names,
        human: session.human(),
    };
    let summary = rules_text(session.rules(), lang);
    if !full_screen {
        let stdin = std::io::stdin();
        let mut input = stdin.lock();
        let mut output = std::io::stdout().lock();
        plain::run(&mut session, &words, &summary, &mut input, &mut output)?;
        Ok(String::new())
    } else {
        tui::run(&mut session, &words, &summary, args.fast)
    }
}

#[cfg(test)]
mod suit_tests {
    use super::*;

    #[test]
    fn suits_default_to_letters_only_in_the_japanese_full_screen() {
        assert_eq!(suit_style(Lang::Ja, true), SuitStyle::Letters);
        assert_eq!(suit_style(Lang::Ja, false), SuitStyle::Symbols);
        assert_eq!(suit_style(Lang::En, true), SuitStyle::Symbols);
        assert_eq!(suit_style(Lang::En, false), SuitStyle::Symbols);
    }
}
