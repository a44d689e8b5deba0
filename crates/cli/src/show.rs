//! `torite show`: a record as a readable sheet, trick by trick, with the running scores.

use std::fmt::Write;

use torite_core::{Replay, Ruleset};

/// One line of the score table: the label, then each value right-aligned in a column `width`
/// wide (the widest seat heading plus a space, so that names never run together).
fn row(label: &str, values: &[String], width: usize) -> String {
    let mut line = format!("  {label:<12}");
    for v in values {
        let _ = write!(line, "{v:>width$}");
    }
    line
}

fn name(rules: &Ruleset) -> String {
    let custom = if rules.is_preset() {
        ""
    } else {
        " with house rules"
    };
    format!(
        "{}{custom} ({})",
        torite_i18n::present::both_names(rules.base),
        rules.id()
    )
}

/// Renders the replayed record; `tricks` adds every trick.
pub fn render(replay: &Replay, tricks: bool) -> String {
    let rules = replay.game.rules();
    let report = &replay.report;
    let n = rules.players as usize;
    let names = report.players.clone().unwrap_or_default();
    let seat_name = |s: usize| match names.get(s) {
        Some(name) if !name.is_empty() => format!("{s}:{name}"),
        _ => format!("seat {s}"),
    };
    let seats: Vec<String> = (0..n).map(seat_name).collect();
    let width = seats
        .iter()
        .map(|s| s.chars().count() + 1)
        .max()
        .unwrap_or(0)
        .max(7);
    let mut out = String::new();
    let _ = writeln!(out, "{}", name(rules));
    for (i, deal) in report.deals.iter().enumerate() {
        let _ = writeln!(out, "\nDeal {} (dealer: seat {})", i + 1, deal.dealer);
        if let Some(trump) = &deal.trump {
            let _ = writeln!(out, "  trump: {trump}");
        }
        if let Some(lot) = &deal.lot {
            let who: Vec<String> = lot.declarers.iter().map(|s| format!("seat {s}")).collect();
            let result = match lot.success {
                Some(true) => "succeeded",
                Some(false) => "failed",
                None => "in progress",
            };
            let _ = writeln!(out, "  Lot: {} ({result})", who.join(", "));
        }
        if tricks {
            for (t, trick) in deal.tricks.iter().enumerate() {
                let cards: Vec<String> = trick
                    .cards
                    .iter()
                    .enumerate()
                    .map(|(k, c)| format!("{}:{c}", (trick.leader + k) % n))
                    .collect();
                let winner = trick.winner.map_or("…".to_owned(), |w| format!("seat {w}"));
                let _ = writeln!(out, "  trick {:>2}  {}  → {winner}", t + 1, cards.join(" "));
            }
        }
        let _ = writeln!(out, "{}", row("", &seats, width));
        let _ = writeln!(
            out,
            "{}",
            row(
                "tricks",
                &deal
                    .tricks_won
                    .iter()
                    .map(u8::to_string)
                    .collect::<Vec<_>>(),
                width
            )
        );
        if deal.card_points.iter().any(|p| *p > 0) {
            let _ = writeln!(
                out,
                "{}",
                row(
                    "points",
                    &deal
                        .card_points
                        .iter()
                        .map(u32::to_string)
                        .collect::<Vec<_>>(),
                    width
                )
            );
        }
        match (&deal.scores, &deal.totals) {
            (Some(scores), Some(totals)) => {
                let signed: Vec<String> = scores.iter().map(|s| format!("{s:+}")).collect();
                let _ = writeln!(out, "{}", row("score", &signed, width));
                let _ = writeln!(
                    out,
                    "{}",
                    row(
                        "total",
                        &totals.iter().map(i32::to_string).collect::<Vec<_>>(),
                        width
                    )
                );
                if let Some(rule) = &deal.rule {
                    let _ = writeln!(out, "  ({rule})");
                }
            }
            _ => {
                let _ = writeln!(out, "  (deal in progress)");
            }
        }
    }
    if report.finished {
        let winners: Vec<String> = report.winners.iter().map(|s| seat_name(*s)).collect();
        let label = if winners.len() == 1 {
            "Winner"
        } else {
            "Winners (shared)"
        };
        let _ = writeln!(out, "\nGame over. {label}: {}", winners.join(", "));
    } else {
        let _ = writeln!(out, "\nGame not finished.");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::render;
    use torite_core::record::replay_value;

    /// Seat headings longer than a column (named players) stay apart, and the numbers stay
    /// under their headings.
    #[test]
    fn named_seats_never_run_together() {
        let record = serde_json::json!({
            "ruleset": "mini-misere-4",
            "players": ["You", "ismcts", "ismcts", "A very long name"],
            "deals": [{"dealer": 0, "hands": [
                ["AS", "KS", "QS", "JS", "TS", "2S"],
                ["AH", "KH", "QH", "JH", "TH", "2H"],
                ["AD", "KD", "QD", "JD", "TD", "2D"],
                ["AC", "KC", "QC", "JC", "TC", "2C"]
            ], "actions": []}]
        });
        let replay = replay_value(&record).expect("a record");
        let sheet = render(&replay, true);
        let heading = sheet
            .lines()
            .find(|l| l.contains("0:You"))
            .expect("a heading");
        assert!(
            heading.contains(" 1:ismcts ") && heading.contains(" 3:A very long name"),
            "{sheet}"
        );
        let tricks = sheet.lines().find(|l| l.contains("tricks")).unwrap();
        assert_eq!(tricks.len(), heading.len(), "{sheet}");
    }
}
