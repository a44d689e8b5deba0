//! The compare sheet: a ruleset beside every preset scored the same way, one row per option
//! that a player would ask about, each cell that differs from the first column marked.
//!
//! Like the other sheets it reads the option enums of each [`Ruleset`]; which rulesets are
//! set side by side is decided by their scoring rule (for Mini Misère, the trick table), never
//! by preset ids.

use std::mem::discriminant;

use torite_core::{GameEnd, JokerRule, LotTiming, Preset, Ruleset, Scoring};

use crate::content::{Words, order, para, play_section, rank_text, section};
use crate::{Block, Section, Table};

/// The mark put before a cell that differs from the first column.
pub(crate) const MARK: &str = "◆";

/// The rulesets set side by side: `rules` first, then every other preset scored the same way
/// (the same [`Scoring`] variant and, for a trick table, any table), in the presets' order.
pub(crate) fn family(rules: &Ruleset) -> Vec<Ruleset> {
    let mut out = vec![*rules];
    for preset in Preset::ALL {
        let other = preset.ruleset();
        if discriminant(&other.scoring) == discriminant(&rules.scoring) && other != *rules {
            out.push(other);
        }
    }
    out
}

/// The title of the compare sheet: the family's name for the trick-table games, else the
/// first ruleset's preset name.
pub(crate) fn title(rules: &Ruleset, w: &Words) -> String {
    match rules.scoring {
        Scoring::TrickTable { .. } => w.t("sheet-cmp-title-trick-table"),
        _ => w.catalog.preset_name(rules.base),
    }
}

/// A column's heading: the number of players and, where the Lot says it, which rules.
fn heading(rules: &Ruleset, w: &Words) -> String {
    let players = w.n(
        "sheet-cmp-head-players",
        &[("players", i64::from(rules.players))],
    );
    let era = match rules.lot.map(|l| l.timing) {
        Some(LotTiming::FirstCard) => w.t("sheet-cmp-head-current"),
        Some(LotTiming::BeforeLead) => w.t("sheet-cmp-head-1989"),
        None => String::new(),
    };
    let mut head = w.join(&[players, era]);
    if !rules.is_preset() {
        head = w.a("sheet-cmp-head-house", &[("head", head)], &[]);
    }
    head
}

fn deck(rules: &Ruleset, w: &Words) -> String {
    let count = rules.deck().len() as i64;
    if rules.joker.is_some() {
        w.n("sheet-cmp-deck-joker", &[("count", count)])
    } else {
        w.n("sheet-cmp-deck", &[("count", count)])
    }
}

fn low_card(rules: &Ruleset, w: &Words) -> String {
    match rules.low_card {
        Some(low) if rules.led_low_wins => {
            w.a("sheet-cmp-low-led-wins", &[("low", rank_text(low))], &[])
        }
        Some(low) => w.a("sheet-cmp-low-no-power", &[("low", rank_text(low))], &[]),
        None => w.t("sheet-cmp-none"),
    }
}

fn joker(rules: &Ruleset, w: &Words) -> String {
    match rules.joker {
        None => w.t("sheet-cmp-none"),
        Some(JokerRule::LeadWinsFreeFollow) => w.t("sheet-cmp-joker-free-follow"),
        Some(JokerRule::LeadWinsNamesSuit) => w.t("sheet-cmp-joker-names-suit"),
        Some(JokerRule::LastSays) => w.t("sheet-cmp-joker-last-says"),
        Some(JokerRule::HighestTrump) => w.t("sheet-cmp-joker-highest-trump"),
        Some(_) => w.t("sheet-cmp-none"),
    }
}

fn lot_timing(rules: &Ruleset, w: &Words) -> String {
    match rules.lot.map(|l| l.timing) {
        Some(LotTiming::FirstCard) => w.t("sheet-cmp-lot-first-card"),
        Some(LotTiming::BeforeLead) => w.t("sheet-cmp-lot-before-lead"),
        None => w.t("sheet-cmp-no-lot"),
    }
}

fn lot_points(rules: &Ruleset, w: &Words) -> String {
    match rules.lot {
        Some(lot) => w.a(
            "sheet-cmp-lot-points",
            &[],
            &[
                ("success", i64::from(lot.success)),
                ("fail", i64::from(lot.fail)),
            ],
        ),
        None => w.t("sheet-cmp-none"),
    }
}

/// The trick tables of the family, one row a ruleset, one column a number of tricks (blank
/// past a ruleset's hand), each cell that differs from the first row's marked.
fn trick_table(family: &[Ruleset], w: &Words) -> Option<Table> {
    let tables: Vec<(String, Vec<String>)> = family
        .iter()
        .filter_map(|r| match r.scoring {
            Scoring::TrickTable { points } => Some((
                heading(r, w),
                points
                    .iter()
                    .take(r.tricks() + 1)
                    .map(ToString::to_string)
                    .collect(),
            )),
            _ => None,
        })
        .collect();
    let most = tables.iter().map(|(_, p)| p.len()).max()?;
    let mut head = vec![w.t("sheet-tricks")];
    head.extend((0..most).map(|t| t.to_string()));
    let mut rows = vec![head];
    let first = tables[0].1.clone();
    for (name, points) in tables {
        let mut row = vec![name];
        for t in 0..most {
            let cell = points.get(t).cloned().unwrap_or_default();
            if !cell.is_empty() && first.get(t) != Some(&cell) {
                row.push(format!("{MARK} {cell}"));
            } else {
                row.push(cell);
            }
        }
        rows.push(row);
    }
    Some(Table {
        rows,
        header_column: true,
    })
}

fn end(rules: &Ruleset, w: &Words) -> String {
    match rules.end {
        GameEnd::Deals(n) => w.n("sheet-cmp-end-deals", &[("deals", i64::from(n))]),
        GameEnd::Target { points, .. } => {
            w.n("sheet-cmp-end-target", &[("target", i64::from(points))])
        }
    }
}

/// The table: one row per question, one column per ruleset, differences from the first
/// column marked with [`MARK`].
fn table(family: &[Ruleset], w: &Words) -> Table {
    type Cell = fn(&Ruleset, &Words) -> String;
    let rows: [(&str, Cell); 8] = [
        ("sheet-cmp-row-players", |r, _| r.players.to_string()),
        ("sheet-cmp-row-deck", deck),
        ("sheet-cmp-row-ranks", |r, _| order(r.ranking, r.ranks, " ")),
        ("sheet-cmp-row-hand", |r, _| r.tricks().to_string()),
        ("sheet-cmp-row-low", low_card),
        ("sheet-cmp-row-joker", joker),
        ("sheet-cmp-row-lot", lot_timing),
        ("sheet-cmp-row-lot-points", lot_points),
    ];
    let mut head = vec![String::new()];
    head.extend(family.iter().map(|r| heading(r, w)));
    let mut out = vec![head];
    let lines = rows
        .iter()
        .map(|(key, cell)| (w.t(key), family.iter().map(|r| cell(r, w)).collect()))
        .chain(std::iter::once((
            w.t("sheet-cmp-row-end"),
            family.iter().map(|r| end(r, w)).collect::<Vec<_>>(),
        )));
    for (label, cells) in lines {
        let mut row = vec![label];
        for (i, cell) in cells.iter().enumerate() {
            if i > 0 && *cell != cells[0] {
                row.push(format!("{MARK} {cell}"));
            } else {
                row.push(cell.clone());
            }
        }
        out.push(row);
    }
    Table {
        rows: out,
        header_column: true,
    }
}

/// The sections of the compare sheet.
pub(crate) fn sections(rules: &Ruleset, w: &Words) -> Vec<Section> {
    let family = family(rules);
    let mut blocks = vec![Block::Table(table(&family, w))];
    blocks.push(para(w.a(
        "sheet-cmp-legend",
        &[("mark", MARK.to_owned()), ("first", heading(rules, w))],
        &[],
    )));
    let mut out = vec![section(w.t("sheet-cmp-sec-table"), blocks)];
    if let Some(tricks) = trick_table(&family, w) {
        let key = if family.iter().any(|r| r.lot.is_some()) {
            "sheet-cmp-sec-tricks-lot"
        } else {
            "sheet-cmp-sec-tricks"
        };
        out.push(section(w.t(key), vec![Block::Table(tricks)]));
    }
    // The play, where every column plays alike (the same follow and trump rules).
    if family
        .iter()
        .all(|r| r.follow == rules.follow && r.trump == rules.trump)
    {
        let mut play = play_section(rules, w);
        play.heading = w.t("sheet-cmp-sec-play");
        out.push(play);
    }
    if family.iter().any(|r| r.lot.is_some()) {
        out.push(section(
            w.t("sheet-cmp-sec-lot"),
            vec![Block::List {
                numbered: false,
                items: vec![
                    w.t("sheet-cmp-lot-first-card-text"),
                    w.t("sheet-cmp-lot-before-lead-text"),
                    w.t("sheet-cmp-lot-scoring"),
                ],
            }],
        ));
    }
    out
}
