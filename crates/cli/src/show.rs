//! `torite show`: a record as a readable sheet, trick by trick, with the running scores.

use std::fmt::Write;

use torite_core::{Replay, Ruleset, Suit};
use torite_i18n::Catalog;
use torite_i18n::present::{columns, pad, tick_cells};

use crate::Failure;
use crate::input::{self, Kind};

/// Reads a record, or a score-keeping save (as a replay of its deals' scores, without cards),
/// for `torite show`, saying which it was.
///
/// # Errors
///
/// The file's first problem, one line.
pub fn read(path: &std::path::Path) -> Result<(Replay, Kind), Failure> {
    let value = input::read_json(path)?;
    match input::kind(&value) {
        Kind::ScoreSheet => {
            let sheet = crate::score::Sheet::from_value(&value, path)?;
            Ok((sheet.replay()?, Kind::ScoreSheet))
        }
        Kind::Record => torite_core::record::replay_value(&value)
            .map(|r| (r, Kind::Record))
            .map_err(Failure::input),
    }
}

/// One line of the score table: the label padded to 12 terminal columns, then each value
/// right-aligned in a column `width` wide (the widest seat heading plus a space, so that
/// names never run together).
fn row(label: &str, values: &[String], width: usize) -> String {
    let mut line = format!("  {}", pad(label, 12));
    for v in values {
        // Right-aligned by terminal columns: a Japanese character takes two.
        let _ = write!(line, "{}{v}", " ".repeat(width.saturating_sub(columns(v))));
    }
    line
}

/// The game's name in the reader's language, and whether house rules change it.
fn name(rules: &Ruleset, catalog: &Catalog) -> String {
    let custom = if rules.is_preset() {
        String::new()
    } else {
        catalog.get("show-house-rules", &[])
    };
    format!("{}{custom}", catalog.preset_name(rules.base))
}

/// The scoring rule named `rule` in a report, in words.
fn rule_words(rule: &str, catalog: &Catalog) -> String {
    let key = format!("rule-{rule}");
    if catalog.has(&key) {
        catalog.get(&key, &[])
    } else {
        rule.to_owned()
    }
}

/// The trump as a report writes it (`S`, `JK`), in words.
fn trump_words(trump: &str, catalog: &Catalog) -> String {
    match Suit::ALL
        .into_iter()
        .find(|s| s.letter().to_string() == trump)
    {
        Some(suit) => catalog.suit(suit),
        None if trump == "JK" => catalog.get("show-trump-joker", &[]),
        None => trump.to_owned(),
    }
}

/// Renders the replayed record in `catalog`'s language; `tricks` adds every trick.
pub fn render(replay: &Replay, tricks: bool, catalog: &Catalog) -> String {
    let t = |key: &str, args: &[(&str, String)]| catalog.get(key, args);
    let seat = |s: usize| t("show-seat", &[("seat", s.to_string())]);
    let rules = replay.game.rules();
    let report = &replay.report;
    let n = rules.players as usize;
    let names = report.players.clone().unwrap_or_default();
    let seat_name = |s: usize| match names.get(s) {
        Some(name) if !name.is_empty() => format!("{s}:{name}"),
        _ => seat(s),
    };
    let seats: Vec<String> = (0..n).map(seat_name).collect();
    let width = seats
        .iter()
        .map(|s| columns(s) + 1)
        .max()
        .unwrap_or(0)
        .max(7);
    let mut out = String::new();
    let _ = writeln!(out, "{}", name(rules, catalog));
    for (i, deal) in report.deals.iter().enumerate() {
        let _ = writeln!(
            out,
            "\n{}",
            t(
                "show-deal",
                &[
                    ("number", (i + 1).to_string()),
                    ("dealer", seat(deal.dealer))
                ]
            )
        );
        if let Some(trump) = &deal.trump {
            let trump = trump_words(trump, catalog);
            let _ = writeln!(out, "  {}", t("show-trump", &[("trump", trump)]));
        }
        if let Some(lot) = &deal.lot {
            // Each declarer's own outcome: the one who won every trick succeeded, every other
            // declarer failed (a Lot that succeeded has one winner among several declarers).
            let winner = replay
                .game
                .results()
                .get(i)
                .and_then(|r| r.facts.lot)
                .and_then(|l| l.winner);
            let who: Vec<String> = lot
                .declarers
                .iter()
                .map(|s| {
                    let key = match lot.success {
                        None => "show-lot-declarer-open",
                        Some(true) if winner == Some(*s) => "show-lot-declarer-succeeded",
                        Some(_) => "show-lot-declarer-failed",
                    };
                    t(key, &[("seat", seat(*s))])
                })
                .collect();
            let comma = t("show-list-separator", &[]);
            let _ = writeln!(out, "  {}", t("show-lot", &[("seats", who.join(&comma))]));
        }
        if tricks {
            for (k, trick) in deal.tricks.iter().enumerate() {
                let cards: Vec<String> = trick
                    .cards
                    .iter()
                    .enumerate()
                    .map(|(j, c)| format!("{}:{c}", (trick.leader + j) % n))
                    .collect();
                let winner = trick.winner.map_or("…".to_owned(), seat);
                let label = t("show-trick", &[("number", (k + 1).to_string())]);
                let widest = t("show-trick", &[("number", deal.tricks.len().to_string())]);
                let _ = writeln!(
                    out,
                    "  {}  {}  → {winner}",
                    pad(&label, columns(&widest)),
                    cards.join(" ")
                );
            }
        }
        let _ = writeln!(out, "{}", row("", &seats, width));
        // A score sheet's Jass deal holds ticks ("took no trick", "took every trick") rather
        // than trick counts: it has no cards, and only the ticks count.
        let tricks_won: Vec<String> = if deal.tricks.is_empty() && rules.tricks_as_ticks() {
            tick_cells(catalog, &deal.tricks_won, rules.tricks())
        } else {
            deal.tricks_won.iter().map(u8::to_string).collect()
        };
        let _ = writeln!(out, "{}", row(&t("show-tricks", &[]), &tricks_won, width));
        if deal.card_points.iter().any(|p| *p > 0) {
            let points: Vec<String> = deal.card_points.iter().map(u32::to_string).collect();
            let _ = writeln!(out, "{}", row(&t("show-points", &[]), &points, width));
        }
        match (&deal.scores, &deal.totals) {
            (Some(scores), Some(totals)) => {
                let signed: Vec<String> = scores.iter().map(|s| format!("{s:+}")).collect();
                let _ = writeln!(out, "{}", row(&t("show-score", &[]), &signed, width));
                let totals: Vec<String> = totals.iter().map(i32::to_string).collect();
                let _ = writeln!(out, "{}", row(&t("show-total", &[]), &totals, width));
                if let Some(rule) = deal.rule.as_deref() {
                    let _ = writeln!(out, "  ({})", rule_words(rule, catalog));
                }
            }
            _ => {
                let _ = writeln!(out, "  ({})", t("show-deal-open", &[]));
            }
        }
    }
    if report.finished {
        let winners: Vec<String> = report.winners.iter().map(|s| seat_name(*s)).collect();
        let key = if winners.len() == 1 {
            "winner"
        } else {
            "winners"
        };
        let winners = t(key, &[("seats", winners.join(", "))]);
        let _ = writeln!(out, "\n{}", t("show-game-over", &[("winners", winners)]));
    } else {
        let _ = writeln!(out, "\n{}", t("show-game-open", &[]));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::render;
    use torite_core::record::replay_value;
    use torite_i18n::{Catalog, Lang};

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
        let sheet = render(&replay, true, &Catalog::new(Lang::En));
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
