//! `torite rules`: the list of presets, and one ruleset as a house-rule TOML file.

use std::fmt::Write;

use serde_json::Value;
use torite_core::{
    CardPoints, FollowRule, GameEnd, JokerRule, LotTiming, Preset, Ruleset, Scoring, TieRule,
    TrumpRule,
};

/// One line per preset: id, players, English and Japanese names.
pub fn list() -> String {
    let mut out = String::new();
    for preset in Preset::ALL {
        let rules = preset.ruleset();
        let _ = writeln!(
            out,
            "{:<20} {}p  {}  /  {}",
            preset.id(),
            rules.players,
            preset.name_en(),
            preset.name_ja()
        );
    }
    out
}

fn toml_value(value: &Value) -> String {
    match value {
        Value::Null => "\"none\"".into(),
        other => other.to_string(),
    }
}

/// The ruleset as a house-rule file: a commented summary of the fixed rules, then `base` and
/// every option that applies, with its current value.
pub fn toml(rules: &Ruleset) -> String {
    let mut out = String::new();
    let preset = rules.base;
    let _ = writeln!(out, "# {} / {}", preset.name_en(), preset.name_ja());
    for line in summary(rules) {
        let _ = writeln!(out, "# {line}");
    }
    let _ = writeln!(out, "\nbase = \"{}\"", preset.id());
    for (name, value) in rules.options() {
        match (name, &value) {
            ("bonus_at", Value::Null) => {
                let _ = writeln!(
                    out,
                    "# bonus_at = 7  (no bonus unless set; must be above threshold)"
                );
            }
            _ => {
                let _ = writeln!(out, "{name} = {}", toml_value(&value));
            }
        }
    }
    if let GameEnd::Target { .. } = rules.end {
        let _ = writeln!(
            out,
            "# deals = 12  (a fixed number of deals instead of target)"
        );
    }
    out
}

/// Short English lines describing the fixed parts of a ruleset.
pub fn summary(rules: &Ruleset) -> Vec<String> {
    let mut lines = Vec::new();
    let order: String = rules
        .ranking
        .order(rules.ranks)
        .iter()
        .map(|r| r.letter().to_string())
        .collect::<Vec<_>>()
        .join(" ");
    let joker = if rules.joker.is_some() {
        " + joker"
    } else {
        ""
    };
    lines.push(format!(
        "{} players, {} cards ({order}{joker}), {} each",
        rules.players,
        rules.deck().len(),
        rules.tricks()
    ));
    if let Some(low) = rules.low_card
        && rules.led_low_wins
    {
        lines.push(format!(
            "a led {} beats every card of its suit",
            low.letter()
        ));
    }
    match rules.joker {
        Some(JokerRule::LeadWinsFreeFollow) => lines.push(
            "joker: led, it wins and the others play anything; otherwise only when void, and it loses".into(),
        ),
        Some(JokerRule::LeadWinsNamesSuit) => lines.push(
            "joker: led, it wins and the leader names a suit to follow; otherwise any time, and it loses".into(),
        ),
        Some(JokerRule::HighestTrump) => lines.push("joker: the highest trump, worth 1".into()),
        _ => {}
    }
    match rules.trump {
        TrumpRule::NoTrump => lines.push("no trumps".into()),
        _ => {
            let trump: String = rules
                .trump_ranking
                .order(rules.ranks)
                .iter()
                .map(|r| r.letter().to_string())
                .collect::<Vec<_>>()
                .join(" ");
            lines.push(format!(
                "trump: the suit of the first card that does not follow; trump order {trump}"
            ));
        }
    }
    lines.push(match rules.follow {
        FollowRule::MustFollow => "follow suit when able, otherwise any card".into(),
        FollowRule::Jass => {
            "Jass following: follow or trump, no undertrumping when able to follow".into()
        }
        FollowRule::Handjass => {
            "Handjass following: follow and beat when able; void, trump when able".into()
        }
    });
    if let Some(lot) = rules.lot {
        let when = match lot.timing {
            LotTiming::FirstCard => "with the first card",
            LotTiming::BeforeLead => "before the first lead",
        };
        lines.push(format!(
            "the Lot ({when}): success {}, failure {} to the others",
            lot.success, lot.fail
        ));
    }
    if let CardPoints::Jass { .. } = rules.card_points {
        let (_, total) = rules.card_point_total();
        lines.push(format!(
            "card points: {total} a deal, last trick {}",
            rules.last_trick_bonus
        ));
    }
    lines.push(match rules.scoring {
        Scoring::TrickTable { points } => format!(
            "tricks → points: {}",
            (0..=rules.tricks())
                .map(|t| format!("{t}:{}", points[t]))
                .collect::<Vec<_>>()
                .join(" ")
        ),
        Scoring::Mittlere { .. } => {
            "scoring: Mittlere (all tricks, no trick, 100+, equal, high/low)".into()
        }
        Scoring::Molotow { .. } => "scoring: Molotow (all points, 100+, ties, high/low)".into(),
        Scoring::PlusMinus => "scoring: Plus-Minus (highest and lowest score)".into(),
        Scoring::OwnPoints => "scoring: highest and lowest score their own card points".into(),
        Scoring::Mura { threshold, .. } => {
            format!("penalty: tricks + 1, none with {threshold} points or more")
        }
        _ => "scoring: see the rules".into(),
    });
    lines.push(match rules.end {
        GameEnd::Deals(n) => format!("game: {n} deals"),
        GameEnd::Target { points, tie } => {
            let tie = match tie {
                TieRule::PlayOn => "a shared lead plays on",
                TieRule::Share => "ties share the win",
            };
            if rules.scoring.is_penalty() {
                format!("game: until a seat reaches {points} penalty points; fewest wins, {tie}")
            } else {
                format!("game: until a seat reaches {points}; {tie}")
            }
        }
    });
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use torite_core::Preset;

    #[test]
    fn the_summary_gives_core_s_card_point_total() {
        let line = |p: Preset| {
            summary(&p.ruleset())
                .into_iter()
                .find(|l| l.starts_with("card points"))
        };
        assert_eq!(
            line(Preset::MittlereJass).as_deref(),
            Some("card points: 157 a deal, last trick 5")
        );
        assert_eq!(
            line(Preset::MiddlerJoker).as_deref(),
            Some("card points: 121 a deal, last trick 0")
        );
        assert_eq!(line(Preset::Mura4), None);
    }
}
