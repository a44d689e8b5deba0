//! `torite analyse`: a recorded game reviewed decision by decision, from each seat's own view
//! (the method is [`torite_bots::analysis`]'s; the JSON form, documented in `docs/ANALYSIS.md`,
//! is [`torite_server::analysis::to_json`], which the server's analyses share).

use std::fmt::Write;
use std::path::PathBuf;

use indicatif::{ProgressBar, ProgressStyle};
use torite_bots::analysis::{
    self, Analysis, BLUNDER, Decision, INACCURACY, MISTAKE, SeatDeal, Settings, Verdict,
};
use torite_core::{Action, Record, Ruleset, SeatSet};
use torite_i18n::Catalog;
use torite_i18n::present::both_names;

use crate::Failure;
use crate::input;

/// The settings of `torite analyse`.
#[derive(Debug)]
pub struct Args {
    /// The record file, or `-`.
    pub file: PathBuf,
    /// The one seat to review (default: every seat).
    pub seat: Option<usize>,
    /// The one deal to review, 1-based as `torite show` numbers deals (default: every deal).
    pub deal: Option<usize>,
    /// Worlds per decision.
    pub worlds: u32,
    /// The seed.
    pub seed: u64,
    /// JSON instead of text.
    pub json: bool,
    /// The text's language.
    pub catalog: Catalog,
}

/// Reads the record, checks the options against it and analyses it.
///
/// # Errors
///
/// The record's replay error, or an option the record does not allow, one line.
pub fn run(args: &Args) -> Result<String, Failure> {
    let value = input::read_json(&args.file)?;
    if input::kind(&value) == input::Kind::ScoreSheet {
        return Err(input::not_a_record(&args.file));
    }
    let (record, _) = torite_core::record::read(&value).map_err(Failure::input)?;
    let rules = record.ruleset;
    let n = usize::from(rules.players);
    let seats: SeatSet = match args.seat {
        Some(s) if s >= n => {
            return Err(Failure::input(format!(
                "--seat {s} is not a seat of {} (seats are 0 to {})",
                rules.id(),
                n - 1
            )));
        }
        Some(s) => [s].into_iter().collect(),
        None => (0..n).collect(),
    };
    let only = match args.deal {
        Some(d) if record.deals.is_empty() => {
            return Err(Failure::input(format!(
                "--deal {d}: the record has no deals"
            )));
        }
        Some(d) if d == 0 || d > record.deals.len() => {
            return Err(Failure::input(format!(
                "--deal {d} is not a deal of the record (deals are 1 to {})",
                record.deals.len()
            )));
        }
        Some(d) => Some(d - 1),
        None => None,
    };
    let total = analysis::count_decisions(&record, seats, only);
    if total == 0 {
        let whose = match args.seat {
            Some(s) => format!("seat {s} has no decision"),
            None => "no seat has a decision".to_owned(),
        };
        let scope = match args.deal {
            Some(d) => format!("in deal {d}"),
            None => "in the record".to_owned(),
        };
        return Err(Failure::input(format!(
            "{whose} {scope} (a decision is a turn with more than one legal action)"
        )));
    }
    let bar = if std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        ProgressBar::new(total as u64)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} eta {eta}")
            .unwrap_or_else(|_| ProgressStyle::default_bar()),
    );
    let settings = Settings {
        worlds: args.worlds,
        seed: args.seed,
    };
    let result = analysis::analyse(&record, seats, only, settings, &|| bar.inc(1));
    bar.finish_and_clear();
    if args.json {
        Ok(torite_core::to_pretty_json(
            &torite_server::analysis::to_json(&result, &record, settings),
        ))
    } else {
        Ok(render(&result, &record, seats, settings, &args.catalog))
    }
}

/// Decimals shown for values under `rules`: one where deal scores run to ten points or more,
/// two below.
pub(crate) fn decimals(rules: &Ruleset) -> usize {
    if analysis::score_range(rules) >= 10.0 {
        1
    } else {
        2
    }
}

/// A signed value with a true minus sign: `+1.4`, `−0.25`.
pub(crate) fn signed(x: f64, decimals: usize) -> String {
    let text = format!("{x:+.decimals$}");
    match text.strip_prefix('-') {
        // −0.0 reads as +0.0.
        Some(rest) if rest.bytes().all(|b| matches!(b, b'0' | b'.')) => format!("+{rest}"),
        Some(rest) => format!("\u{2212}{rest}"),
        None => text,
    }
}

/// The verdict in words: `best`, or `within the error` when another action's estimate was
/// higher by less than the estimates can tell apart.
#[must_use]
pub fn verdict_words(d: &Decision, catalog: &Catalog) -> String {
    if d.verdict == Verdict::Best && d.best != d.chosen {
        catalog.get("analyse-verdict-close", &[])
    } else {
        catalog.get(&format!("analyse-verdict-{}", d.verdict.name()), &[])
    }
}

/// One decision as a line of text.
#[must_use]
pub fn decision_line(d: &Decision, rules: &Ruleset, catalog: &Catalog) -> String {
    let places = decimals(rules);
    let t = |key: &str, args: &[(&str, String)]| catalog.get(key, args);
    let action = |a: Action| catalog.action(a);
    let chosen = match d.chosen {
        Action::Play(card) => t("analyse-play", &[("card", card.to_string())]),
        other => catalog.action(other),
    };
    let value = |a: Action| {
        d.value_of(a)
            .map_or_else(String::new, |v| signed(v, places))
    };
    let played = t(
        "analyse-played",
        &[
            ("trick", (d.trick + 1).to_string()),
            ("seat", t("show-seat", &[("seat", d.seat.to_string())])),
            ("chosen", chosen),
            ("value", value(d.chosen)),
        ],
    );
    let better = if d.best == d.chosen {
        String::new()
    } else {
        t(
            "analyse-better",
            &[("best", action(d.best)), ("best-value", value(d.best))],
        )
    };
    let verdict = verdict_words(d, catalog);
    let loss = if d.best == d.chosen {
        String::new()
    } else {
        t(
            "analyse-loss",
            &[
                ("loss", format!("{:.places$}", d.loss)),
                ("stderr", format!("{:.places$}", d.loss_stderr)),
            ],
        )
    };
    let exact = match (&d.exact, d.exact_of(d.chosen)) {
        (Some(values), Some(chosen)) => {
            let best = values.iter().map(|(_, v)| *v).fold(f64::MIN, f64::max);
            t(
                "analyse-exact",
                &[
                    ("chosen", signed(chosen, places)),
                    ("best", signed(best, places)),
                ],
            )
        }
        _ => t("analyse-exact-unsolved", &[]),
    };
    t(
        "analyse-line",
        &[
            ("played", played),
            ("better", better),
            ("verdict", verdict),
            ("loss", loss),
            ("exact", exact),
        ],
    )
}

/// One seat's deal summed up as a line of text.
#[must_use]
pub fn summary_line(s: &SeatDeal, rules: &Ruleset, catalog: &Catalog) -> String {
    let places = decimals(rules);
    let seat = catalog.get("show-seat", &[("seat", s.seat.to_string())]);
    let counts = catalog.get_counted(
        "analyse-summary",
        &[("seat", seat), ("loss", format!("{:.places$}", s.loss))],
        &[
            ("decisions", s.decisions as i64),
            (
                "inaccuracies",
                s.verdicts[Verdict::Inaccuracy as usize] as i64,
            ),
            ("mistakes", s.verdicts[Verdict::Mistake as usize] as i64),
            ("blunders", s.verdicts[Verdict::Blunder as usize] as i64),
        ],
    );
    let score = match (s.score, s.double_dummy) {
        (None, _) => catalog.get("analyse-score-open", &[]),
        (Some(score), Some(best)) => catalog.get(
            "analyse-score",
            &[
                ("score", signed(score, places)),
                ("best", signed(best, places)),
            ],
        ),
        (Some(score), None) => catalog.get(
            "analyse-score-unsolved",
            &[("score", signed(score, places))],
        ),
    };
    catalog.get("analyse-seat-line", &[("counts", counts), ("score", score)])
}

/// The analysis as text in `catalog`'s language.
#[must_use]
pub fn render(
    result: &Analysis,
    record: &Record,
    seats: SeatSet,
    settings: Settings,
    catalog: &Catalog,
) -> String {
    let rules = &record.ruleset;
    let t = |key: &str, args: &[(&str, String)]| catalog.get(key, args);
    let mut out = String::new();
    let custom = if rules.is_preset() {
        String::new()
    } else {
        t("show-house-rules", &[])
    };
    let who: Vec<String> = seats
        .into_iter()
        .map(|s| t("show-seat", &[("seat", s.to_string())]))
        .collect();
    let _ = writeln!(
        out,
        "{}",
        t(
            "analyse-title",
            &[
                (
                    "game",
                    format!("{}{custom} ({})", both_names(rules.base), rules.id())
                ),
                ("seats", who.join(", ")),
                ("worlds", settings.worlds.to_string()),
                ("seed", settings.seed.to_string()),
            ]
        )
    );
    let mut deals: Vec<usize> = result.seats.iter().map(|s| s.deal).collect();
    deals.dedup();
    for deal in deals {
        let _ = writeln!(
            out,
            "\n{}",
            t("analyse-deal", &[("number", (deal + 1).to_string())])
        );
        for d in result.decisions.iter().filter(|d| d.deal == deal) {
            let _ = writeln!(out, "  {}", decision_line(d, rules, catalog));
        }
        for s in result.seats.iter().filter(|s| s.deal == deal) {
            let _ = writeln!(out, "  {}", summary_line(s, rules, catalog));
        }
    }
    let range = analysis::score_range(rules);
    let places = 2;
    let _ = writeln!(
        out,
        "\n{}",
        t(
            "analyse-legend",
            &[
                ("inaccuracy", format!("{:.places$}", INACCURACY * range)),
                ("mistake", format!("{:.places$}", MISTAKE * range)),
                ("blunder", format!("{:.places$}", BLUNDER * range)),
            ]
        )
    );
    out
}

#[cfg(test)]
mod tests {
    use super::signed;

    #[test]
    fn values_are_signed_with_a_true_minus() {
        assert_eq!(signed(1.44, 1), "+1.4");
        assert_eq!(signed(-0.25, 2), "\u{2212}0.25");
        assert_eq!(signed(-0.001, 1), "+0.0");
    }
}
