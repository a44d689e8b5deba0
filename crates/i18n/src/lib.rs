//! Japanese and English text for every surface of torite.
//!
//! The messages live in Fluent catalogs, `locales/en.ftl` and `locales/ja.ftl` at the top of
//! the repository, embedded here at build time; the browser client reads the same files. A
//! [`Catalog`] formats a message by key with named arguments. Card and action names, the names
//! of games and of house-rule options are built here too, and [`present`] decides the rest of
//! what people see (hand order, score marks, the deal summary), so the terminal, the sheets
//! and the server say the same thing.
//!
//! ```
//! use torite_i18n::{Catalog, Lang};
//! let ja = Catalog::new(Lang::Ja);
//! assert_eq!(ja.get("seat", &[("seat", "2".into())]), "2番席");
//! let en = Catalog::new(Lang::En);
//! assert_eq!(en.get("suit-S", &[]), "spades");
//! ```

#![deny(missing_docs)]

pub mod present;

use std::fmt;
use std::str::FromStr;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};
use serde_json::Value;
use torite_core::{Action, Card, FactsError, PlayError, Preset, ScoreRule, Suit};

/// The English catalog source.
pub const EN_FTL: &str = include_str!("../../../locales/en.ftl");
/// The Japanese catalog source.
pub const JA_FTL: &str = include_str!("../../../locales/ja.ftl");

/// A language torite speaks.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Lang {
    /// English.
    En,
    /// Japanese.
    Ja,
}

impl Lang {
    /// Both languages.
    pub const ALL: [Lang; 2] = [Lang::En, Lang::Ja];

    /// The language code: `en` or `ja`.
    #[must_use]
    pub const fn code(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::Ja => "ja",
        }
    }

    /// The language of the environment's locale (`LC_ALL`, `LC_MESSAGES`, `LANG`): Japanese
    /// for a `ja` locale, English otherwise.
    #[must_use]
    pub fn from_env() -> Lang {
        for var in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            if let Ok(value) = std::env::var(var)
                && !value.is_empty()
            {
                return if value.to_ascii_lowercase().starts_with("ja") {
                    Lang::Ja
                } else {
                    Lang::En
                };
            }
        }
        Lang::En
    }

    fn source(self) -> &'static str {
        match self {
            Lang::En => EN_FTL,
            Lang::Ja => JA_FTL,
        }
    }
}

impl fmt::Display for Lang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.code())
    }
}

/// A language code that torite does not speak.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownLang(pub String);

impl fmt::Display for UnknownLang {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown language {:?} (ja or en)", self.0)
    }
}

impl std::error::Error for UnknownLang {}

impl FromStr for Lang {
    type Err = UnknownLang;
    fn from_str(s: &str) -> Result<Lang, UnknownLang> {
        match s.to_ascii_lowercase().as_str() {
            "en" | "english" => Ok(Lang::En),
            "ja" | "jp" | "japanese" | "日本語" => Ok(Lang::Ja),
            _ => Err(UnknownLang(s.to_owned())),
        }
    }
}

/// An argument of a [`Message`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MessageArg {
    /// Text shown as it is (a card code, a name, a number written out).
    Text(String),
    /// A number, which can choose a plural form.
    Number(i64),
    /// Another message of the catalog, without arguments, shown in the same language (a
    /// suit's name: `suit-H`).
    Key(&'static str),
}

impl From<String> for MessageArg {
    fn from(text: String) -> MessageArg {
        MessageArg::Text(text)
    }
}

impl From<&str> for MessageArg {
    fn from(text: &str) -> MessageArg {
        MessageArg::Text(text.to_owned())
    }
}

/// A message not yet in any language: a catalog key and its named arguments. The terminal
/// formats it with a [`Catalog`]; the server sends the key and arguments to the browser,
/// which formats them with the same catalogs.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Message {
    /// The catalog key (`err-not-in-hand`).
    pub key: &'static str,
    /// The named arguments.
    pub args: Vec<(&'static str, MessageArg)>,
}

/// Why an action is illegal, as a message (`err-…`); `None` for a reason the catalogs do
/// not have words for yet (its `Display` is then the reason).
#[must_use]
pub fn play_error_message(error: &PlayError) -> Option<Message> {
    let card = |c: &Card| MessageArg::Text(c.to_string());
    let suit = |s: &Suit| MessageArg::Key(suit_key(*s));
    let (key, args) = match error {
        PlayError::DealOver => ("err-deal-over", vec![]),
        PlayError::NotInHand(c) => ("err-not-in-hand", vec![("card", card(c))]),
        PlayError::MustFollow { led } => ("err-must-follow", vec![("suit", suit(led))]),
        PlayError::Undertrump { over } => ("err-undertrump", vec![("card", card(over))]),
        PlayError::MustPlayTrump { trump } => ("err-must-play-trump", vec![("suit", suit(trump))]),
        PlayError::MustBeat { best } => ("err-must-beat", vec![("card", card(best))]),
        PlayError::MustTrump { trump } => ("err-must-trump", vec![("suit", suit(trump))]),
        PlayError::JokerOnlyWhenVoid { led } => ("err-joker-only-void", vec![("suit", suit(led))]),
        PlayError::MustCallSuit => ("err-must-call", vec![]),
        PlayError::NoCallExpected => ("err-no-call", vec![]),
        PlayError::MustSayJoker => ("err-must-say-joker", vec![]),
        PlayError::NoJokerSayExpected => ("err-no-joker-say", vec![]),
        PlayError::MustAnswerLot => ("err-must-answer-lot", vec![]),
        PlayError::LotNotAllowed(_) => ("err-lot-not-now", vec![]),
        PlayError::PassNotAllowed => ("err-pass-not-now", vec![]),
        _ => return None,
    };
    Some(Message { key, args })
}

/// The catalog key of a suit's name (`suit-S`).
#[must_use]
pub const fn suit_key(suit: Suit) -> &'static str {
    match suit {
        Suit::Spades => "suit-S",
        Suit::Hearts => "suit-H",
        Suit::Diamonds => "suit-D",
        Suit::Clubs => "suit-C",
    }
}

/// A language's messages.
pub struct Catalog {
    lang: Lang,
    bundle: FluentBundle<FluentResource>,
}

impl fmt::Debug for Catalog {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Catalog({})", self.lang)
    }
}

/// An argument value for a message.
pub type Arg = String;

impl Catalog {
    /// The catalog of `lang`.
    ///
    /// # Panics
    ///
    /// Never for the embedded catalogs, which a test parses.
    #[must_use]
    pub fn new(lang: Lang) -> Catalog {
        let resource = FluentResource::try_new(lang.source().to_owned())
            .unwrap_or_else(|(resource, _)| resource);
        let id = lang.code().parse().unwrap_or_default();
        let mut bundle = FluentBundle::new_concurrent(vec![id]);
        // Terminals show Unicode isolation marks as stray characters.
        bundle.set_use_isolating(false);
        // The embedded catalogs have unique keys; a duplicate would only be ignored.
        let _ = bundle.add_resource(resource);
        Catalog { lang, bundle }
    }

    /// The language.
    #[must_use]
    pub const fn lang(&self) -> Lang {
        self.lang
    }

    /// Whether the catalog has a message with this key.
    #[must_use]
    pub fn has(&self, key: &str) -> bool {
        self.bundle.has_message(key)
    }

    /// The message `key` with named arguments; the key itself if the catalog lacks it.
    #[must_use]
    pub fn get(&self, key: &str, args: &[(&str, Arg)]) -> String {
        let Some(pattern) = self.bundle.get_message(key).and_then(|m| m.value()) else {
            return key.to_owned();
        };
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            fluent_args.set(*name, FluentValue::from(value.clone()));
        }
        let mut errors = Vec::new();
        self.bundle
            .format_pattern(pattern, Some(&fluent_args), &mut errors)
            .into_owned()
    }

    /// The message `key` with named text arguments and named number arguments; a number can
    /// choose a plural form (`{ $n -> [one] one point *[other] { $n } points }`).
    #[must_use]
    pub fn get_counted(&self, key: &str, args: &[(&str, Arg)], numbers: &[(&str, i64)]) -> String {
        let Some(pattern) = self.bundle.get_message(key).and_then(|m| m.value()) else {
            return key.to_owned();
        };
        let mut fluent_args = FluentArgs::new();
        for (name, value) in args {
            fluent_args.set(*name, FluentValue::from(value.clone()));
        }
        for (name, value) in numbers {
            fluent_args.set(*name, FluentValue::from(*value));
        }
        let mut errors = Vec::new();
        self.bundle
            .format_pattern(pattern, Some(&fluent_args), &mut errors)
            .into_owned()
    }

    /// A seat's name: "Seat 2" / "2番席".
    #[must_use]
    pub fn seat(&self, seat: usize) -> String {
        self.get("seat", &[("seat", seat.to_string())])
    }

    /// A suit's name.
    #[must_use]
    pub fn suit(&self, suit: Suit) -> String {
        self.get(&format!("suit-{}", suit.letter()), &[])
    }

    /// An action as a player reads it (card codes stay in the interchange notation).
    #[must_use]
    pub fn action(&self, action: Action) -> String {
        match action {
            Action::Play(card) => card.to_string(),
            Action::Lot => self.get("action-lot", &[]),
            Action::Pass => self.get("action-pass", &[]),
            Action::Call(suit) => self.get("action-call", &[("suit", self.suit(suit))]),
            Action::JokerWins => self.get("action-joker-win", &[]),
            Action::JokerLoses => self.get("action-joker-lose", &[]),
        }
    }

    /// Why an action is illegal, in words for the player ([`play_error_message`] in this
    /// language).
    #[must_use]
    pub fn play_error(&self, error: &PlayError) -> String {
        match play_error_message(error) {
            Some(message) => self.message(&message),
            None => error.to_string(),
        }
    }

    /// A [`Message`] in this language, its [`MessageArg::Key`] arguments formatted first.
    #[must_use]
    pub fn message(&self, message: &Message) -> String {
        let mut texts = Vec::new();
        let mut numbers = Vec::new();
        for (name, arg) in &message.args {
            match arg {
                MessageArg::Text(text) => texts.push((*name, text.clone())),
                MessageArg::Number(n) => numbers.push((*name, *n)),
                MessageArg::Key(key) => texts.push((*name, self.get(key, &[]))),
            }
        }
        self.get_counted(message.key, &texts, &numbers)
    }

    /// Why entered deal facts cannot happen, in words for the scorekeeper.
    #[must_use]
    pub fn facts_error(&self, error: &FactsError) -> String {
        match *error {
            FactsError::PlayerCount { given, players } => self.get(
                "facts-player-count",
                &[
                    ("given", given.to_string()),
                    ("players", players.to_string()),
                ],
            ),
            FactsError::NoLot => self.get("facts-no-lot", &[]),
            FactsError::BadDeclarers => self.get("facts-bad-declarers", &[]),
            FactsError::WinnerDidNotDeclare { seat } => {
                self.get("facts-winner-did-not-declare", &[("seat", self.seat(seat))])
            }
            FactsError::TricksTotal { given, expected } => self.get(
                "facts-tricks-total",
                &[
                    ("given", given.to_string()),
                    ("expected", expected.to_string()),
                ],
            ),
            FactsError::PointsTotal { given, low, high } => {
                let expected = if low == high {
                    low.to_string()
                } else {
                    format!("{low}–{high}")
                };
                self.get(
                    "facts-points-total",
                    &[("given", given.to_string()), ("expected", expected)],
                )
            }
            FactsError::PointsWithoutTrick { seat, points } => self.get_counted(
                "facts-points-without-trick",
                &[("seat", self.seat(seat))],
                &[("points", i64::from(points))],
            ),
            _ => error.to_string(),
        }
    }

    /// A game's name: "Mittlere Jass" / "ミットレール・ヤス" (`preset-{id}` in the catalogs).
    #[must_use]
    pub fn preset_name(&self, preset: Preset) -> String {
        self.get(&format!("preset-{}", preset.id()), &[])
    }

    /// A house-rule option's label: `lot_timing` is "Lot timing" (`option-{name}`).
    #[must_use]
    pub fn option_label(&self, name: &str) -> String {
        self.get(&format!("option-{name}"), &[])
    }

    /// A value of a house-rule option as a player reads it: `option-{name}-{value}` for a
    /// listed value (`lot_timing = "before-lead"`, `led_low_wins = true`, `bonus_at = null`),
    /// otherwise a number through `option-{name}-value` ("12 deals"); anything else as written.
    #[must_use]
    pub fn option_value(&self, name: &str, value: &Value) -> String {
        let listed = format!("option-{name}-{}", present::value_key(value));
        if self.has(&listed) {
            return self.get(&listed, &[]);
        }
        match value.as_i64() {
            Some(n) if self.has(&format!("option-{name}-value")) => {
                self.get_counted(&format!("option-{name}-value"), &[], &[("value", n)])
            }
            _ => present::value_key(value),
        }
    }

    /// The name of a scoring rule.
    #[must_use]
    pub fn score_rule(&self, rule: ScoreRule) -> String {
        self.get(
            &format!("rule-{}", torite_core::record::rule_name(rule)),
            &[],
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fluent_bundle::FluentResource;

    fn keys(source: &str) -> Vec<String> {
        source
            .lines()
            .filter(|l| !l.starts_with('#') && !l.starts_with(' ') && l.contains(" = "))
            .map(|l| l.split(" = ").next().unwrap_or_default().trim().to_owned())
            .collect()
    }

    #[test]
    fn catalogs_parse_without_errors() {
        for lang in Lang::ALL {
            assert!(
                FluentResource::try_new(lang.source().to_owned()).is_ok(),
                "{lang}"
            );
        }
    }

    /// A key defined twice would make one of its uses show the other's words (the bundle
    /// keeps the first and ignores the rest).
    #[test]
    fn no_key_is_defined_twice() {
        for lang in Lang::ALL {
            let mut seen = std::collections::HashSet::new();
            let twice: Vec<String> = keys(lang.source())
                .into_iter()
                .filter(|k| !seen.insert(k.clone()))
                .collect();
            assert!(twice.is_empty(), "{lang}: defined twice: {twice:?}");
            let resource = FluentResource::try_new(lang.source().to_owned()).expect("parses");
            let mut bundle = FluentBundle::new_concurrent(vec![lang.code().parse().expect("id")]);
            assert!(bundle.add_resource(resource).is_ok(), "{lang}");
        }
    }

    #[test]
    fn both_languages_have_the_same_keys() {
        let mut en = keys(EN_FTL);
        let mut ja = keys(JA_FTL);
        en.sort();
        ja.sort();
        assert_eq!(en, ja);
        assert!(en.len() > 50);
    }

    #[test]
    fn every_play_error_and_rule_has_words() {
        use torite_core::{Rank, ScoreRule::*};
        let errors = [
            PlayError::DealOver,
            PlayError::NotInHand(Card::JOKER),
            PlayError::MustFollow { led: Suit::Hearts },
            PlayError::Undertrump {
                over: Card::new(Suit::Clubs, Rank::NINE),
            },
            PlayError::MustPlayTrump { trump: Suit::Clubs },
            PlayError::MustBeat { best: Card::JOKER },
            PlayError::MustTrump {
                trump: Suit::Spades,
            },
            PlayError::JokerOnlyWhenVoid {
                led: Suit::Diamonds,
            },
            PlayError::MustCallSuit,
            PlayError::NoCallExpected,
            PlayError::MustSayJoker,
            PlayError::NoJokerSayExpected,
            PlayError::MustAnswerLot,
            PlayError::LotNotAllowed("x"),
            PlayError::PassNotAllowed,
        ];
        let rules = [
            TrickTable,
            LotSucceeded,
            LotFailed,
            AllTricks,
            HundredAndNoTrick,
            NoTrick,
            Hundred,
            TwoEqual,
            HighestAndLowest,
            AllPoints,
            ThreeEqual,
            TwoLowestEqual,
            TwoHighestEqual,
            TwoMiddleEqual,
            AllDiffer,
            AllButOneEqual,
            PlusMinus,
            OwnPoints,
            OwnPointsTwoEqual,
            Penalty,
        ];
        for lang in Lang::ALL {
            let c = Catalog::new(lang);
            for e in &errors {
                let text = c.play_error(e);
                assert!(
                    !text.starts_with("err-") && !text.contains('{'),
                    "{lang}: {text}"
                );
                // Words, never an action code such as joker:win.
                assert!(!text.contains("joker:"), "{lang}: {text}");
            }
            for r in rules {
                let text = c.score_rule(r);
                assert!(!text.starts_with("rule-"), "{lang}: {text}");
            }
        }
        assert_eq!(
            Catalog::new(Lang::Ja).play_error(&errors[2]),
            "ハートをフォローしなければなりません"
        );
        assert_eq!(
            Catalog::new(Lang::En).play_error(&errors[2]),
            "you must follow hearts"
        );
    }

    #[test]
    fn languages_parse() {
        assert_eq!("JA".parse::<Lang>().unwrap(), Lang::Ja);
        assert_eq!("en".parse::<Lang>().unwrap(), Lang::En);
        assert!("fr".parse::<Lang>().is_err());
    }
}
