//! What people see of a game, decided once for every surface: the terminal, the plain mode,
//! the printable sheets and the server's messages all ask here.
//!
//! - [`hand_order`]: the order a hand is shown in;
//! - [`strokes_and_circles`] and [`tally`]: whether scores are kept as Jass strokes and
//!   circles, and a seat's marks;
//! - [`DealSummary`]: the table shown at the end of a deal;
//! - names and labels (games, scoring rules, house-rule options and their values) are
//!   [`Catalog`] methods, from the Fluent catalogs.

use serde_json::Value;
use torite_core::{Card, CardSet, DealResult, Ruleset, Scoring, Seat, Suit, Trump};

use crate::Catalog;

/// A hand (or any set of cards) in the order players expect to see it.
///
/// Suits are grouped in a fixed order, ♠ ♥ ♦ ♣, which does not change when a trump suit is
/// set (so cards do not jump between places mid-deal). Within a suit the cards run from the
/// strongest to the weakest in the order in force for that suit: the trump order once the suit
/// is `trump` (Jass: J 9 A K Q T 8 7 6), the ruleset's plain order otherwise (A K Q … 2; Mura:
/// T 9 A K Q J 8 7 6). Mini Misère's low card sits last in its suit, where it is when it is
/// not led. The joker comes last, after every suit, whatever its role.
#[must_use]
pub fn hand_order(rules: &Ruleset, trump: Trump, cards: CardSet) -> Vec<Card> {
    let mut out: Vec<Card> = cards.iter().collect();
    out.sort_by_key(|card| match (card.suit(), card.rank()) {
        (Some(suit), Some(rank)) => {
            let order = if trump == Trump::Suit(suit) {
                rules.trump_ranking
            } else {
                rules.ranking
            };
            (suit.index(), std::cmp::Reverse(order.strength(rank)))
        }
        _ => (Suit::ALL.len(), std::cmp::Reverse(0)),
    });
    out
}

/// Whether a game's scores are kept as the Jass score sheet keeps them: a stroke for each
/// point won, a circle for each point lost.
///
/// That is Mittlere Jass (and Middler, scored the same way) and Molotow Jass: the seed gives
/// the convention with Mittlere's scoring, and Molotow, its ancestor, scores in the same single
/// points either way. Plus-Minus scores only plus points toward a target of 7 ("得点はプラス点
/// だけでマイナス点はつけません"): its totals are what players count, so it is not
/// (`docs/RULES-NOTES.md`). No other scoring is.
#[must_use]
pub const fn strokes_and_circles(rules: &Ruleset) -> bool {
    matches!(
        rules.scoring,
        Scoring::Mittlere { .. } | Scoring::Molotow { .. }
    )
}

/// A seat's marks on a Jass score sheet, from its deal scores: a stroke for each point won
/// and a circle for each point lost (`||| ○○`), counted when there are more than four (`|×7
/// ○×4`). `None` when the game is not kept in strokes and circles ([`strokes_and_circles`]) or
/// nothing is marked yet.
#[must_use]
pub fn tally(rules: &Ruleset, scores: impl IntoIterator<Item = i32>) -> Option<String> {
    if !strokes_and_circles(rules) {
        return None;
    }
    let (mut plus, mut minus) = (0, 0);
    for score in scores {
        plus += score.max(0);
        minus += (-score).max(0);
    }
    let mark = |c: &str, n: i32| match n {
        0 => String::new(),
        1..=4 => c.repeat(n.unsigned_abs() as usize),
        _ => format!("{c}×{n}"),
    };
    let marks = [mark("|", plus), mark("○", minus)]
        .into_iter()
        .filter(|m| !m.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    (!marks.is_empty()).then_some(marks)
}

/// One row of a [`DealSummary`]: a label and a cell per seat.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct SummaryRow {
    /// What the row counts ("Tricks", "Score", …); empty for the seats' row.
    pub label: String,
    /// One cell per seat.
    pub cells: Vec<String>,
}

/// The table shown at the end of a deal: the seats, tricks won, card points (when any were
/// taken), the deal's score and the totals, and the scoring rule that settled it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct DealSummary {
    /// The rows, the seats' numbers first.
    pub rows: Vec<SummaryRow>,
    /// "Scoring: …", the rule applied.
    pub rule: String,
}

impl DealSummary {
    /// The summary of `result` in a game of `rules`; `you` is marked `*` in the seats' row.
    #[must_use]
    pub fn new(
        catalog: &Catalog,
        rules: &Ruleset,
        result: &DealResult,
        you: Option<Seat>,
    ) -> DealSummary {
        let n = rules.players as usize;
        let row = |label: String, cells: Vec<String>| SummaryRow { label, cells };
        let seats = (0..n)
            .map(|s| {
                if Some(s) == you {
                    format!("*{s}")
                } else {
                    s.to_string()
                }
            })
            .collect();
        let mut rows = vec![
            row(String::new(), seats),
            row(
                catalog.get("tricks-won", &[]),
                result.facts.tricks[..n].iter().map(u8::to_string).collect(),
            ),
        ];
        if result.facts.points[..n].iter().any(|p| *p > 0) {
            rows.push(row(
                catalog.get("card-points", &[]),
                result.facts.points[..n]
                    .iter()
                    .map(u32::to_string)
                    .collect(),
            ));
        }
        rows.push(row(
            catalog.get("score", &[]),
            result.score.scores[..n]
                .iter()
                .map(|s| format!("{s:+}"))
                .collect(),
        ));
        rows.push(row(
            catalog.get("total", &[]),
            result.totals[..n].iter().map(i32::to_string).collect(),
        ));
        DealSummary {
            rows,
            rule: catalog.get(
                "rule-applied",
                &[("rule", catalog.score_rule(result.score.rule))],
            ),
        }
    }

    /// The summary with its tricks row as a scorekeeper's ticks (see [`tick_cells`]): for a
    /// Jass deal entered as "took no trick" and "took every trick", whose trick counts stand
    /// only for those.
    #[must_use]
    pub fn with_ticks(mut self, catalog: &Catalog, rules: &Ruleset, result: &DealResult) -> Self {
        let n = rules.players as usize;
        if let Some(row) = self.rows.get_mut(1) {
            row.cells = tick_cells(catalog, &result.facts.tricks[..n], rules.tricks());
        }
        self
    }

    /// The rows as lines of text: each label padded to 10 terminal columns (a Japanese
    /// character takes two), each cell right-aligned in 6.
    #[must_use]
    pub fn lines(&self) -> Vec<String> {
        self.rows
            .iter()
            .map(|row| {
                let cells: String = row
                    .cells
                    .iter()
                    .map(|c| format!("{}{c}", " ".repeat(6usize.saturating_sub(columns(c)))))
                    .collect();
                format!("{}{cells}", pad(&row.label, 10))
            })
            .collect()
    }
}

/// Tricks won as a scorekeeper ticks them where only "none" and "every one" count (the Jass
/// games): `0`, "1+" or "all" per seat, of a deal of `total` tricks.
#[must_use]
pub fn tick_cells(catalog: &Catalog, tricks: &[u8], total: usize) -> Vec<String> {
    tricks
        .iter()
        .map(|t| match usize::from(*t) {
            0 => "0".to_owned(),
            t if t == total => catalog.get("tick-every", &[]),
            _ => catalog.get("tick-some", &[]),
        })
        .collect()
}

/// `text` followed by blanks up to `width` terminal columns (East Asian wide characters take
/// two).
#[must_use]
pub fn pad(text: &str, width: usize) -> String {
    format!("{text}{}", " ".repeat(width.saturating_sub(columns(text))))
}

/// How many terminal columns `text` takes (East Asian wide characters take two).
#[must_use]
pub fn columns(text: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(text)
}

/// An option value as its catalog key's last part: `first-card`, `true`, `9`, `none`.
pub(crate) fn value_key(value: &Value) -> String {
    match value {
        Value::Null => "none".to_owned(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// A game's name in both languages, "Mittlere Jass / ミットレール・ヤス": for output that is
/// not in one language (`torite rules`, `torite show`, the headings of plain mode and the
/// scorekeeper).
#[must_use]
pub fn both_names(preset: torite_core::Preset) -> String {
    let [en, ja] = crate::Lang::ALL.map(|lang| Catalog::new(lang).preset_name(preset));
    format!("{en} / {ja}")
}
