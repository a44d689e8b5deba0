//! House rules: options by interchange name (RULES.md 4), their problems, and the record's
//! JSON form of a ruleset.

use std::fmt;

use serde_json::Value;

use super::*;

/// One problem with a ruleset or with an option given for one.
#[derive(Clone, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum RulesetProblem {
    /// The ruleset id is not one of the presets.
    UnknownRuleset(String),
    /// The option name is not known at all.
    UnknownOption(String),
    /// The option exists but not for this game.
    NotApplicable {
        /// The option's name.
        option: &'static str,
        /// Why it does not apply.
        why: String,
    },
    /// The option's value is of the wrong type or out of range.
    BadValue {
        /// The option's name.
        option: &'static str,
        /// The value as given.
        value: String,
        /// What is accepted.
        expected: &'static str,
    },
    /// Options that cannot go together.
    Conflict {
        /// The options involved.
        options: Vec<&'static str>,
        /// Why.
        why: String,
    },
}

impl fmt::Display for RulesetProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesetProblem::UnknownRuleset(id) => {
                write!(f, "unknown ruleset {id:?} (known: ")?;
                for (i, p) in Preset::ALL.iter().enumerate() {
                    write!(f, "{}{}", if i > 0 { ", " } else { "" }, p.id())?;
                }
                f.write_str(")")
            }
            RulesetProblem::UnknownOption(name) => write!(
                f,
                "unknown option {name:?} (known: {})",
                OPTION_NAMES.join(", ")
            ),
            RulesetProblem::NotApplicable { option, why } => {
                write!(f, "option {option} does not apply: {why}")
            }
            RulesetProblem::BadValue {
                option,
                value,
                expected,
            } => write!(
                f,
                "option {option} = {value} is invalid: expected {expected}"
            ),
            RulesetProblem::Conflict { options, why } => {
                write!(f, "options {} conflict: {why}", options.join(" and "))
            }
        }
    }
}

/// Why a ruleset or a set of house-rule options was refused: every problem found.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct RulesetError {
    /// The problems, in the order found.
    pub problems: Vec<RulesetProblem>,
}

impl From<RulesetProblem> for RulesetError {
    fn from(p: RulesetProblem) -> RulesetError {
        RulesetError { problems: vec![p] }
    }
}

impl fmt::Display for RulesetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, p) in self.problems.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for RulesetError {}

/// The interchange option names that [`Ruleset::set_option`] accepts.
pub const OPTION_NAMES: [&str; 9] = [
    "target",
    "deals",
    "lot_timing",
    "low_card",
    "led_low_wins",
    "molotow_middle_wins",
    "follow",
    "threshold",
    "bonus_at",
];

fn bad(option: &'static str, value: &Value, expected: &'static str) -> RulesetProblem {
    RulesetProblem::BadValue {
        option,
        value: value.to_string(),
        expected,
    }
}

/// The values an option accepts ([`option_values`]): what a form offers and a label names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[non_exhaustive]
pub enum OptionValues {
    /// An integer from `min` to `max`; with `or_null`, `null` too (the rule is off).
    Integer {
        /// The least value.
        min: i64,
        /// The greatest value.
        max: i64,
        /// Whether `null` is accepted.
        or_null: bool,
    },
    /// `true` or `false`.
    Bool,
    /// One of these strings.
    Strings(&'static [&'static str]),
    /// One of these integers.
    Integers(&'static [i64]),
}

impl OptionValues {
    /// The values that can be listed one by one: every string, integer or boolean, and `null`
    /// where accepted; a range of integers lists only its `null`.
    #[must_use]
    pub fn listed(self) -> Vec<Value> {
        match self {
            OptionValues::Integer { or_null, .. } => {
                if or_null {
                    vec![Value::Null]
                } else {
                    Vec::new()
                }
            }
            OptionValues::Bool => vec![Value::from(true), Value::from(false)],
            OptionValues::Strings(values) => values.iter().map(|v| Value::from(*v)).collect(),
            OptionValues::Integers(values) => values.iter().map(|v| Value::from(*v)).collect(),
        }
    }
}

/// The values the option `name` accepts ([`Ruleset::set_option`] checks them); `None` for
/// a name not in [`OPTION_NAMES`].
#[must_use]
pub const fn option_values(name: &str) -> Option<OptionValues> {
    const COUNT: OptionValues = OptionValues::Integer {
        min: 1,
        max: 10_000,
        or_null: false,
    };
    const LOT_TIMINGS: [&str; 2] = [
        LotTiming::FirstCard.as_str(),
        LotTiming::BeforeLead.as_str(),
    ];
    const FOLLOWS: [&str; 3] = [
        FollowRule::MustFollow.as_str(),
        FollowRule::Jass.as_str(),
        FollowRule::Handjass.as_str(),
    ];
    Some(match name.as_bytes() {
        b"target" | b"deals" => COUNT,
        b"lot_timing" => OptionValues::Strings(&LOT_TIMINGS),
        b"low_card" => OptionValues::Integers(&[2, 9]),
        b"led_low_wins" | b"molotow_middle_wins" => OptionValues::Bool,
        b"follow" => OptionValues::Strings(&FOLLOWS),
        b"threshold" => OptionValues::Integer {
            min: 0,
            max: 40,
            or_null: false,
        },
        b"bonus_at" => OptionValues::Integer {
            min: 1,
            max: 40,
            or_null: true,
        },
        _ => return None,
    })
}

/// The integer value of `option`, within the range [`option_values`] gives it.
fn int_in(option: &'static str, value: &Value) -> Result<i64, RulesetProblem> {
    const EXPECTED: &[(&str, &str)] = &[
        ("target", "an integer from 1 to 10000"),
        ("deals", "an integer from 1 to 10000"),
        ("threshold", "an integer from 0 to 40"),
        ("bonus_at", "an integer from 1 to 40, or null"),
    ];
    let expected = EXPECTED
        .iter()
        .find(|(n, _)| *n == option)
        .map_or("an integer", |(_, e)| *e);
    let (lo, hi) = match option_values(option) {
        Some(OptionValues::Integer { min, max, .. }) => (min, max),
        _ => (i64::MIN, i64::MAX),
    };
    match value.as_i64() {
        Some(n) if (lo..=hi).contains(&n) => Ok(n),
        _ => Err(bad(option, value, expected)),
    }
}

impl Ruleset {
    /// Sets one option by its interchange name (RULES.md 4), checking that it applies to this
    /// game and that its value is valid. Setting an option to the value it already has is
    /// always accepted.
    ///
    /// # Errors
    ///
    /// [`RulesetProblem::UnknownOption`], [`RulesetProblem::NotApplicable`] or
    /// [`RulesetProblem::BadValue`], naming the option.
    pub fn set_option(&mut self, name: &str, value: &Value) -> Result<(), RulesetProblem> {
        let name: &'static str = OPTION_NAMES
            .into_iter()
            .find(|n| *n == name)
            .ok_or_else(|| RulesetProblem::UnknownOption(name.to_owned()))?;
        let game = self.id();
        let not_applicable = |why: String| RulesetProblem::NotApplicable { option: name, why };
        match name {
            "target" => {
                let points = int_in(name, value)? as i32;
                match &mut self.end {
                    GameEnd::Target { points: p, .. } => *p = points,
                    GameEnd::Deals(_) => {
                        return Err(not_applicable(format!(
                            "{game} is played for a number of deals, not to a target (use deals)"
                        )));
                    }
                }
            }
            "deals" => {
                let deals = int_in(name, value)? as u32;
                self.end = GameEnd::Deals(deals);
            }
            "lot_timing" => {
                let timing = match value.as_str() {
                    Some("first-card") => LotTiming::FirstCard,
                    Some("before-lead") => LotTiming::BeforeLead,
                    _ => return Err(bad(name, value, "\"first-card\" or \"before-lead\"")),
                };
                let lot = self
                    .lot
                    .as_mut()
                    .ok_or_else(|| not_applicable(format!("{game} has no Lot")))?;
                lot.timing = timing;
            }
            "low_card" => {
                let rank = match value.as_i64() {
                    Some(2) => Rank::TWO,
                    Some(9) => Rank::NINE,
                    _ => return Err(bad(name, value, "2 or 9")),
                };
                if self.low_card.is_none() {
                    return Err(not_applicable(format!("{game} has no low card")));
                }
                if !self.low_card_replaceable() {
                    return Err(not_applicable(format!(
                        "the deck of {game} already has 9s; low_card only replaces the 2s of a deck without 9s"
                    )));
                }
                self.ranks = self.ranks & !(1 << Rank::TWO.index()) | 1 << rank.index();
                self.low_card = Some(rank);
            }
            "led_low_wins" => {
                let wins = value
                    .as_bool()
                    .ok_or_else(|| bad(name, value, "true or false"))?;
                if self.low_card.is_none() {
                    return Err(not_applicable(format!("{game} has no low card")));
                }
                self.led_low_wins = wins;
            }
            "molotow_middle_wins" => {
                let wins = value
                    .as_bool()
                    .ok_or_else(|| bad(name, value, "true or false"))?;
                match &mut self.scoring {
                    Scoring::Molotow { middle_wins } => *middle_wins = wins,
                    _ => {
                        return Err(not_applicable(format!(
                            "{game} is not scored as Molotow Jass"
                        )));
                    }
                }
            }
            "follow" => {
                let follow = match value.as_str() {
                    Some("must-follow") => FollowRule::MustFollow,
                    Some("jass") => FollowRule::Jass,
                    Some("handjass") => FollowRule::Handjass,
                    _ => {
                        return Err(bad(
                            name,
                            value,
                            "\"must-follow\", \"jass\" or \"handjass\"",
                        ));
                    }
                };
                if follow != FollowRule::MustFollow
                    && (self.trump != TrumpRule::FirstOffSuit || self.joker.is_some())
                {
                    return Err(not_applicable(format!(
                        "{game} has no trump suit set by the first card off suit, so it accepts only \"must-follow\""
                    )));
                }
                self.follow = follow;
            }
            "threshold" => {
                let t = int_in(name, value)? as u8;
                match &mut self.scoring {
                    Scoring::Mura { threshold, .. } => *threshold = t,
                    _ => {
                        return Err(not_applicable(format!(
                            "{game} has no exemption threshold (Mura only)"
                        )));
                    }
                }
            }
            "bonus_at" => {
                let b = if value.is_null() {
                    None
                } else {
                    Some(int_in(name, value)? as u8)
                };
                match &mut self.scoring {
                    Scoring::Mura { bonus_at, .. } => *bonus_at = b,
                    _ => return Err(not_applicable(format!("{game} has no bonus (Mura only)"))),
                }
            }
            _ => unreachable!("every name of OPTION_NAMES is matched"),
        }
        Ok(())
    }

    /// A preset with house-rule options applied, as in a record's `{"base": ..., ...}` form.
    /// `target` and `deals` together are refused; every problem is reported.
    ///
    /// # Errors
    ///
    /// A [`RulesetError`] listing the unknown ruleset, unknown or inapplicable options, bad
    /// values and conflicting combinations.
    pub fn from_options<'a>(
        base: &str,
        options: impl IntoIterator<Item = (&'a str, &'a Value)>,
    ) -> Result<Ruleset, RulesetError> {
        let preset =
            Preset::from_id(base).ok_or_else(|| RulesetProblem::UnknownRuleset(base.to_owned()))?;
        let mut rules = preset.ruleset();
        let options: Vec<(&str, &Value)> = options.into_iter().collect();
        let mut problems = Vec::new();
        if options.iter().any(|(n, _)| *n == "target") && options.iter().any(|(n, _)| *n == "deals")
        {
            problems.push(RulesetProblem::Conflict {
                options: vec!["target", "deals"],
                why: "a game ends either at a target or after a number of deals, not both".into(),
            });
        }
        for (name, value) in options {
            if let Err(p) = rules.set_option(name, value) {
                problems.push(p);
            }
        }
        if let Err(e) = rules.validate() {
            problems.extend(e.problems);
        }
        if problems.is_empty() {
            Ok(rules)
        } else {
            Err(RulesetError { problems })
        }
    }

    /// Parses a record's `ruleset` value: a preset id or `{"base": id, ...options}`.
    ///
    /// # Errors
    ///
    /// A [`RulesetError`] as for [`Ruleset::from_options`], or when the value has neither form.
    pub fn from_json(value: &Value) -> Result<Ruleset, RulesetError> {
        match value {
            Value::String(id) => Ruleset::from_options(id, []),
            Value::Object(map) => {
                let base = map.get("base").and_then(Value::as_str).ok_or_else(|| {
                    RulesetError::from(RulesetProblem::BadValue {
                        option: "base",
                        value: map.get("base").map_or("nothing".into(), Value::to_string),
                        expected: "a preset id string",
                    })
                })?;
                Ruleset::from_options(
                    base,
                    map.iter()
                        .filter(|(k, _)| *k != "base")
                        .map(|(k, v)| (k.as_str(), v)),
                )
            }
            other => Err(RulesetProblem::BadValue {
                option: "ruleset",
                value: other.to_string(),
                expected: "a preset id or an object {\"base\": id, ...options}",
            }
            .into()),
        }
    }

    /// The interchange options that apply to this ruleset, with their current values: applied
    /// to the base preset they give this ruleset back.
    #[must_use]
    pub fn options(&self) -> Vec<(&'static str, Value)> {
        let mut out = Vec::new();
        match self.end {
            GameEnd::Target { points, .. } => out.push(("target", Value::from(points))),
            GameEnd::Deals(n) => out.push(("deals", Value::from(n))),
        }
        if let Some(lot) = self.lot {
            out.push(("lot_timing", Value::from(lot.timing.as_str())));
        }
        if let Some(low) = self.low_card {
            if self.base.ruleset().low_card_replaceable() {
                out.push(("low_card", Value::from(low.index())));
            }
            out.push(("led_low_wins", Value::from(self.led_low_wins)));
        }
        if let Scoring::Molotow { middle_wins } = self.scoring {
            out.push(("molotow_middle_wins", Value::from(middle_wins)));
        }
        if self.trump == TrumpRule::FirstOffSuit && self.joker.is_none() {
            out.push(("follow", Value::from(self.follow.as_str())));
        }
        if let Scoring::Mura {
            threshold,
            bonus_at,
        } = self.scoring
        {
            out.push(("threshold", Value::from(threshold)));
            out.push(("bonus_at", bonus_at.map_or(Value::Null, Value::from)));
        }
        out
    }

    /// The options that differ from the base preset (what a record's object form carries).
    #[must_use]
    pub fn overrides(&self) -> Vec<(&'static str, Value)> {
        let base = self.base.ruleset().options();
        let mut out: Vec<_> = self
            .options()
            .into_iter()
            .filter(|o| !base.contains(o))
            .collect();
        // A fixed number of deals replaces the target: the base's own end option is not named.
        if matches!(self.end, GameEnd::Deals(_))
            && !matches!(self.base.ruleset().end, GameEnd::Deals(_))
        {
            out.retain(|(n, _)| *n != "target");
        }
        out
    }

    /// The record form of this ruleset: the id for a preset, otherwise the object form.
    #[must_use]
    pub fn to_json(&self) -> Value {
        if self.is_preset() {
            return Value::from(self.id());
        }
        let mut map = serde_json::Map::new();
        map.insert("base".into(), Value::from(self.id()));
        for (name, value) in self.overrides() {
            map.insert(name.into(), value);
        }
        Value::Object(map)
    }
}
