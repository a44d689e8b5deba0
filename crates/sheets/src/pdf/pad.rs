//! The score sheet: its grid, measured once for the PDF and the HTML form, and its pages.

use super::*;

/// The measurements of a score-sheet grid, shared with the HTML form.
#[derive(Clone, Debug)]
pub(crate) struct PadGrid {
    /// Width of the deal column, in millimetres.
    pub deal_mm: f32,
    /// Width of each player column, in millimetres.
    pub column_mm: f32,
    /// Width of the notes column, in millimetres.
    pub notes_mm: f32,
    /// Height of the name row, in millimetres.
    pub name_mm: f32,
    /// Height of the column-heading row, in millimetres.
    pub head_mm: f32,
    /// Height of each deal row, in millimetres.
    pub row_mm: f32,
    /// Deal numbers on each page (1-based, inclusive ranges).
    pub pages: Vec<(usize, usize)>,
    /// Top of the grid, in millimetres from the top of the page: [`PAD_TABLE_TOP`], or lower
    /// when a house-rule line makes the heading taller, so that the date line stays clear.
    pub top_mm: f32,
}

pub(crate) const PAD_MARGIN: f32 = 12.0;
pub(crate) const PAD_TABLE_TOP: f32 = 36.0;
/// Room from the grid's top up to the heading above the date and place line, in millimetres.
const PAD_FIELDS_ROOM: f32 = 9.0;

/// The heading of a score sheet (kicker, title, house rules), laid out at the top of a page.
fn pad_heading(sheet: &Sheet) -> Flow {
    let mut flow = Flow::new(
        PAD_MARGIN * MM,
        12.0 * MM,
        (210.0 - 2.0 * PAD_MARGIN) * MM,
        1.0,
        Sizes {
            title: 16.0,
            ..RULES_SIZES
        },
    );
    flow.header(sheet);
    flow
}

/// The score-sheet grid for `pad` on `sheet`'s pages.
pub(crate) fn pad_grid(sheet: &Sheet, pad: &Pad) -> PadGrid {
    let face = Face::get();
    let top_mm = PAD_TABLE_TOP.max(pad_heading(sheet).y / MM + PAD_FIELDS_ROOM);
    let width = 210.0 - 2.0 * PAD_MARGIN;
    let label = pad
        .totals
        .iter()
        .map(|(l, _)| face.width(l, 7.0) / MM + 3.0)
        .chain(std::iter::once(face.width(&pad.deal, 7.5) / MM + 3.0))
        .fold(12.0f32, f32::max)
        .min(22.0);
    let notes_mm = 26.0;
    let columns = (pad.players.len() * pad.columns.len()).max(1);
    let column_mm = (width - label - notes_mm) / columns as f32;
    let mut pages = Vec::new();
    let mut first = 1;
    while first <= pad.rows {
        let last = (first + PAD_ROWS_PER_PAGE - 1).min(pad.rows);
        pages.push((first, last));
        first = last + 1;
    }
    if pages.is_empty() {
        pages.push((1, 0));
    }
    let most = pages
        .iter()
        .map(|(a, b)| b + 1 - a)
        .max()
        .unwrap_or(1)
        .max(1);
    let (name_mm, head_mm) = (13.0, 6.5);
    // Room for the rows, the totals and the reminders below, and for the scoring rules and
    // the strokes-and-circles columns where the sheet has them.
    let below = match (&pad.scoring, &pad.tally) {
        (_, Some(_)) => 110.0,
        (Some(_), None) => 80.0,
        (None, None) => 40.0,
    };
    let room = 297.0 - top_mm - name_mm - head_mm - below;
    let row_mm = (room / (most + pad.totals.len()) as f32).clamp(5.5, 10.5);
    PadGrid {
        deal_mm: label,
        column_mm,
        notes_mm,
        name_mm,
        head_mm,
        row_mm,
        pages,
        top_mm,
    }
}

pub(super) fn pad_pages(sheet: &Sheet, pad: &Pad) -> Vec<Vec<Op>> {
    let grid = pad_grid(sheet, pad);
    let face = Face::get();
    let pages = grid.pages.len();
    let mut out = Vec::new();
    for (page, &(first, last)) in grid.pages.iter().enumerate() {
        let mut flow = pad_heading(sheet);
        // Fields to fill in: date, place.
        let field_y = (grid.top_mm - 4.0) * MM;
        let mut x = flow.x;
        for field in &pad.fields {
            flow.ops.push(Op::Text {
                x,
                y: field_y,
                size: 9.0,
                text: field.clone(),
                color: MUTED,
                bold: false,
            });
            let start = x + face.width(field, 9.0) + 2.0 * MM;
            flow.ops.push(Op::Line {
                x1: start,
                y1: field_y + 1.0,
                x2: start + 55.0 * MM,
                y2: field_y + 1.0,
                width: 0.5,
                color: GRID,
            });
            x = start + 65.0 * MM;
        }
        let mut ops = flow.ops;
        let last_page = page + 1 == pages;
        let bottom = pad_table(&mut ops, pad, &grid, first, last, last_page);
        if last_page {
            let mut y = bottom + 5.0 * MM;
            for hint in &pad.hints {
                for line in face.wrap(hint, 8.5, (210.0 - 2.0 * PAD_MARGIN) * MM) {
                    ops.push(Op::Text {
                        x: PAD_MARGIN * MM,
                        y,
                        size: 8.5,
                        text: line,
                        color: MUTED,
                        bold: false,
                    });
                    y += 8.5 * 1.45;
                }
            }
            below_grid(&mut ops, pad, y + 2.0 * MM);
        }
        footer(
            &mut ops,
            &sheet.footer,
            PAD_MARGIN * MM,
            (210.0 - 2.0 * PAD_MARGIN) * MM,
        );
        out.push(ops);
    }
    out
}

/// The foot of the room under a score sheet's grid, above the footer, in points.
const BELOW_BOTTOM: f32 = PAGE_H - 16.0 * MM;

/// The scoring rules and the strokes-and-circles columns, side by side under the grid from
/// `top`: the rules take the left (all the width without the columns), set as small as they
/// need to fit.
pub(crate) fn below_grid(ops: &mut Vec<Op>, pad: &Pad, top: f32) {
    let left = PAD_MARGIN * MM;
    let width = (210.0 - 2.0 * PAD_MARGIN) * MM;
    let gap = 6.0 * MM;
    let rules_w = if pad.tally.is_some() {
        width * 0.56
    } else {
        width
    };
    let sizes = Sizes {
        heading: 10.0,
        body: 8.5,
        section_gap: 0.0,
        block_gap: 2.5,
        leading: 1.4,
        ..RULES_SIZES
    };
    if let Some(scoring) = &pad.scoring {
        let lay = |scale: f32| {
            let mut flow = Flow::new(left, top, rules_w, scale, sizes);
            flow.section(scoring, true);
            flow
        };
        let scale = fit(1.0, BELOW_BOTTOM, |k| lay(k).y);
        ops.extend(lay(scale).ops);
    }
    let Some(tally) = &pad.tally else {
        return;
    };
    let face = Face::get();
    let x = left + rules_w + gap;
    let w = width - rules_w - gap;
    let mut flow = Flow::new(x, top, w, 1.0, sizes);
    flow.section(
        &Section {
            heading: tally.heading.clone(),
            blocks: vec![Block::Para(tally.how.clone())],
        },
        true,
    );
    ops.append(&mut flow.ops);
    // The three marks, drawn as they are written, each with its meaning.
    let mut y = flow.y + 1.5 * MM;
    let size = 8.0;
    let mark_w = 6.0 * MM;
    for (marks, meaning) in [
        (&["|"][..], &tally.plus),
        (&["○"][..], &tally.minus),
        (&["○", "|"][..], &tally.zero),
    ] {
        let lines = face.wrap(meaning, size, w - mark_w);
        let baseline = y + size * face.ascent;
        for mark in marks {
            let mark_size = 11.0;
            ops.push(Op::Text {
                x: x + (mark_w - face.width(mark, mark_size)) / 2.0 - 1.0 * MM,
                y: baseline + 1.0,
                size: mark_size,
                text: (*mark).to_owned(),
                color: INK,
                bold: false,
            });
        }
        for (i, line) in lines.into_iter().enumerate() {
            ops.push(Op::Text {
                x: x + mark_w,
                y: baseline + i as f32 * size * 1.35,
                size,
                text: line,
                color: MUTED,
                bold: false,
            });
        }
        y += (face.wrap(meaning, size, w - mark_w).len() as f32 * 1.35 * size).max(5.0 * MM);
    }
    // One column a player, down to the foot of the room.
    let col_top = y + 1.5 * MM;
    let players = pad.players.len().max(1);
    let col_w = w / players as f32;
    let height = BELOW_BOTTOM - col_top;
    if height < 15.0 * MM {
        return;
    }
    for (i, player) in pad.players.iter().enumerate() {
        let cx = x + i as f32 * col_w;
        ops.push(Op::Frame {
            x: cx,
            y: col_top,
            w: col_w,
            h: height,
            radius: 0.0,
            width: 0.6,
            color: GRID,
        });
        ops.push(Op::Text {
            x: cx + 1.5 * MM,
            y: col_top + 3.2 * MM,
            size: 6.5,
            text: player.clone(),
            color: MUTED,
            bold: false,
        });
    }
    // The outer frame, heavy like the grid's.
    ops.push(Op::Frame {
        x,
        y: col_top,
        w,
        h: height,
        radius: 0.0,
        width: 1.6,
        color: INK,
    });
}

/// Draws the grid of one score-sheet page; returns its bottom edge.
/// The colour of what is written into a kept sheet, a pen's blue beside the printed grid.
const PEN: Rgb = Rgb(20, 52, 140);

/// The largest size, from `most` down to 5 points, at which `text` wraps into a box `w` wide
/// and `h` high (the smallest when none does).
fn fitted(text: &str, w: f32, h: f32, most: f32) -> f32 {
    let face = Face::get();
    let mut size = most;
    while size > 5.0 && face.wrap(text, size, w - 2.0).len() as f32 * size * 1.2 > h {
        size -= 0.5;
    }
    size
}

fn pad_table(
    ops: &mut Vec<Op>,
    pad: &Pad,
    grid: &PadGrid,
    first: usize,
    last: usize,
    with_totals: bool,
) -> f32 {
    let face = Face::get();
    let left = PAD_MARGIN * MM;
    let top = grid.top_mm * MM;
    let deal_w = grid.deal_mm * MM;
    let col_w = grid.column_mm * MM;
    let block_w = col_w * pad.columns.len() as f32;
    let players_left = left + deal_w;
    let notes_left = players_left + block_w * pad.players.len() as f32;
    let right = notes_left + grid.notes_mm * MM;
    let name_h = grid.name_mm * MM;
    let head_h = grid.head_mm * MM;
    let row_h = grid.row_mm * MM;
    let body_top = top + name_h + head_h;
    let rows = last + 1 - first;
    let total_rows = if with_totals { pad.totals.len() } else { 0 };
    let bottom = body_top + (rows + total_rows) as f32 * row_h;
    let text = |ops: &mut Vec<Op>, x: f32, w: f32, top: f32, h: f32, s: &str, size: f32, color| {
        let lines = face.wrap(s, size, w - 2.0);
        let line_h = size * 1.2;
        let mut y = top + (h - line_h * lines.len() as f32) / 2.0;
        for line in lines {
            let tw = face.width(&line, size);
            ops.push(Op::Text {
                x: x + (w - tw) / 2.0,
                y: y + line_h / 2.0 + size * (face.ascent + face.descent) / 2.0,
                size,
                text: line,
                color,
                bold: false,
            });
            y += line_h;
        }
    };
    // Shading: headings, every other row, totals.
    ops.push(Op::Fill {
        x: left,
        y: top + name_h,
        w: right - left,
        h: head_h,
        color: SHADE,
    });
    for r in 0..rows {
        if (first + r).is_multiple_of(2) {
            ops.push(Op::Fill {
                x: left,
                y: body_top + r as f32 * row_h,
                w: right - left,
                h: row_h,
                color: STRIPE,
            });
        }
    }
    if total_rows > 0 {
        ops.push(Op::Fill {
            x: left,
            y: body_top + rows as f32 * row_h,
            w: right - left,
            h: total_rows as f32 * row_h,
            color: SHADE,
        });
    }
    // Headings.
    text(ops, left, deal_w, top, name_h + head_h, &pad.deal, 7.5, INK);
    text(
        ops,
        notes_left,
        grid.notes_mm * MM,
        top,
        name_h + head_h,
        &pad.notes,
        8.0,
        INK,
    );
    for (p, player) in pad.players.iter().enumerate() {
        let x = players_left + p as f32 * block_w;
        ops.push(Op::Text {
            x: x + 1.5 * MM,
            y: top + 3.2 * MM,
            size: 6.5,
            text: player.clone(),
            color: MUTED,
            bold: false,
        });
        for (c, column) in pad.columns.iter().enumerate() {
            let size = if column.chars().count() <= 1 {
                10.0
            } else {
                7.5
            };
            text(
                ops,
                x + c as f32 * col_w,
                col_w,
                top + name_h,
                head_h,
                column,
                size,
                INK,
            );
        }
    }
    // Deal numbers and totals labels.
    for r in 0..rows {
        let y = body_top + r as f32 * row_h;
        text(
            ops,
            left,
            deal_w,
            y,
            row_h,
            &(first + r).to_string(),
            8.5,
            MUTED,
        );
    }
    for (t, (label, _)) in pad.totals.iter().enumerate().take(total_rows) {
        let y = body_top + (rows + t) as f32 * row_h;
        text(ops, left, deal_w, y, row_h, label, 7.0, INK);
    }
    // A kept game written in: the names under the players' labels, each deal's cells and
    // notes, the totals.
    if let Some(filled) = &pad.filled {
        let columns = pad.columns.len();
        for (p, name) in filled.names.iter().enumerate().take(pad.players.len()) {
            let x = players_left + p as f32 * block_w;
            let size = fitted(name, block_w - 3.0 * MM, name_h - 3.6 * MM, 9.0);
            text(
                ops,
                x,
                block_w,
                top + 3.6 * MM,
                name_h - 3.6 * MM,
                name,
                size,
                PEN,
            );
        }
        for r in 0..rows {
            let Some((cells, notes)) = filled.rows.get(first + r - 1) else {
                continue;
            };
            let y = body_top + r as f32 * row_h;
            for (i, cell) in cells.iter().enumerate().take(pad.players.len() * columns) {
                let x =
                    players_left + (i / columns) as f32 * block_w + (i % columns) as f32 * col_w;
                let size = fitted(cell, col_w, row_h, 9.0);
                text(ops, x, col_w, y, row_h, cell, size, PEN);
            }
            let w = grid.notes_mm * MM;
            let size = fitted(notes, w, row_h, 7.0);
            text(ops, notes_left, w, y, row_h, notes, size, PEN);
        }
        for (t, (_, merged)) in pad.totals.iter().enumerate().take(total_rows) {
            let Some(written) = filled.totals.get(t) else {
                continue;
            };
            let y = body_top + (rows + t) as f32 * row_h;
            let (per, w) = if *merged {
                (1, block_w)
            } else {
                (columns, col_w)
            };
            for (i, cell) in written.iter().enumerate().take(pad.players.len() * per) {
                let x = players_left + (i / per) as f32 * block_w + (i % per) as f32 * col_w;
                let size = fitted(cell, w, row_h, 9.0);
                text(ops, x, w, y, row_h, cell, size, PEN);
            }
        }
    }
    // Rules of the grid.
    let thin = |x1, y1, x2, y2| Op::Line {
        x1,
        y1,
        x2,
        y2,
        width: 0.4,
        color: GRID,
    };
    let thick = |x1, y1, x2, y2| Op::Line {
        x1,
        y1,
        x2,
        y2,
        width: 1.2,
        color: INK,
    };
    for r in 0..=(rows + total_rows) {
        let y = body_top + r as f32 * row_h;
        ops.push(if r == rows && total_rows > 0 {
            thick(left, y, right, y)
        } else {
            thin(left, y, right, y)
        });
    }
    ops.push(thin(players_left, top + name_h, notes_left, top + name_h));
    ops.push(thick(left, body_top, right, body_top));
    for p in 0..pad.players.len() {
        let x = players_left + p as f32 * block_w;
        for c in 1..pad.columns.len() {
            let cx = x + c as f32 * col_w;
            ops.push(thin(cx, top + name_h, cx, body_top + rows as f32 * row_h));
            // Totals kept per player (merged) have no inner rules.
            for (t, (_, merged)) in pad.totals.iter().enumerate().take(total_rows) {
                if !merged {
                    let y = body_top + (rows + t) as f32 * row_h;
                    ops.push(thin(cx, y, cx, y + row_h));
                }
            }
        }
    }
    for x in (0..=pad.players.len()).map(|p| players_left + p as f32 * block_w) {
        ops.push(thick(x, top, x, bottom));
    }
    ops.push(thick(left, top, right, top));
    ops.push(thick(left, bottom, right, bottom));
    ops.push(thick(left, top, left, bottom));
    ops.push(thick(right, top, right, bottom));
    bottom
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Kind;
    use torite_core::Ruleset;
    use torite_i18n::Lang;

    #[test]
    fn the_house_rule_line_stays_clear_of_the_date_line() {
        let face = Face::get();
        let value = serde_json::json!({"base": "mura-4", "threshold": 6, "bonus_at": 7});
        let house = Ruleset::from_json(&value).unwrap();
        for lang in Lang::ALL {
            let sheet = Sheet::new(&house, Kind::Scorepad, lang);
            let ops = &pages(&sheet)[0];
            let bottom_of = |wanted: Rgb| {
                ops.iter()
                    .filter_map(|op| match op {
                        Op::Text { y, size, color, .. } if *color == wanted => {
                            Some(y + face.descent.abs() * size)
                        }
                        _ => None,
                    })
                    .fold(f32::MIN, f32::max)
            };
            let house_bottom = bottom_of(HOUSE);
            assert!(house_bottom > 0.0, "{lang}: no house-rule line");
            let Body::Pad(pad) = &sheet.body else {
                panic!("not a pad")
            };
            let field_top = ops
                .iter()
                .filter_map(|op| match op {
                    Op::Text { y, size, text, .. } if *text == pad.fields[0] => {
                        Some(y - face.ascent * size)
                    }
                    _ => None,
                })
                .next()
                .expect("a date field");
            assert!(
                house_bottom + 1.0 * MM <= field_top,
                "{lang}: the house rules end at {house_bottom}, the date line starts at {field_top}"
            );
            // Without house rules the grid stays where it was.
            let plain = Sheet::new(&torite_core::Preset::Mura4.ruleset(), Kind::Scorepad, lang);
            let Body::Pad(plain_pad) = &plain.body else {
                panic!("not a pad")
            };
            assert_eq!(pad_grid(&plain, plain_pad).top_mm, PAD_TABLE_TOP);
        }
    }

    #[test]
    fn the_jass_score_sheet_sets_its_scoring_and_tally_columns_under_the_grid() {
        for lang in Lang::ALL {
            let sheet = Sheet::new(
                &torite_core::Preset::MolotowJass.ruleset(),
                Kind::Scorepad,
                lang,
            );
            let Body::Pad(pad) = &sheet.body else {
                panic!("not a pad")
            };
            let grid = pad_grid(&sheet, pad);
            let grid_bottom = (grid.top_mm
                + grid.name_mm
                + grid.head_mm
                + (pad.rows + pad.totals.len()) as f32 * grid.row_mm)
                * MM;
            let ops = &pages(&sheet)[0];
            // One column a player and the frame round them, under the grid and above the footer,
            // at least 4 cm tall.
            let columns: Vec<_> = ops
                .iter()
                .filter_map(|op| match op {
                    Op::Frame { y, h, .. } if *y > grid_bottom => Some((*y, y + h)),
                    _ => None,
                })
                .collect();
            assert_eq!(columns.len(), pad.players.len() + 1, "{lang}");
            for (top, bottom) in columns {
                assert!(bottom <= BELOW_BOTTOM + 0.1, "{lang}");
                assert!(
                    bottom - top >= 40.0 * MM,
                    "{lang}: {} mm",
                    (bottom - top) / MM
                );
            }
            // Every rule is printed, none over the footer.
            let texts: Vec<&Op> = ops
                .iter()
                .filter(|op| matches!(op, Op::Text { y, .. } if *y > grid_bottom))
                .collect();
            let numbers = texts
                .iter()
                .filter(|op| matches!(op, Op::Text { text, bold: true, .. } if text.ends_with('.')))
                .count();
            assert_eq!(numbers, 7, "{lang}: the seven Molotow rules");
            let footer_top = PAGE_H - 13.0 * MM;
            for op in texts {
                if let Op::Text { y, text, .. } = op
                    && *text != sheet.footer
                {
                    assert!(*y < footer_top, "{lang}: {text} at {y}");
                }
            }
        }
    }

    #[test]
    fn six_players_fit_the_score_sheet_with_room_to_write() {
        for lang in Lang::ALL {
            let rules = torite_core::Preset::MiniMisere6.ruleset();
            let sheet = Sheet::new(&rules, Kind::Scorepad, lang);
            let Body::Pad(pad) = &sheet.body else {
                panic!("not a pad")
            };
            assert_eq!(pad.players.len(), 6);
            let grid = pad_grid(&sheet, pad);
            let width = grid.deal_mm
                + grid.column_mm * (pad.players.len() * pad.columns.len()) as f32
                + grid.notes_mm;
            assert!(
                width <= 210.0 - 2.0 * PAD_MARGIN + 0.01,
                "{lang}: {width} mm"
            );
            assert!(
                grid.column_mm >= 10.0,
                "{lang}: columns {} mm",
                grid.column_mm
            );
            assert_eq!(pages(&sheet).len(), 1, "{lang}");
        }
    }
}

#[cfg(test)]
mod kept_tests {
    use torite_core::{DealFacts, Game, Preset};
    use torite_i18n::Lang;

    use super::*;

    /// A kept Mura game's PDF: the names in the players' heads, each deal's penalties and
    /// running totals in their cells, in the pen's colour and inside the grid's columns.
    #[test]
    fn a_kept_game_is_written_into_the_pdf() {
        let rules = Preset::Mura4.ruleset();
        let mut game = Game::new(rules, 0).expect("a game");
        let mut facts = DealFacts {
            players: 4,
            ..DealFacts::default()
        };
        facts.tricks[..4].copy_from_slice(&[3, 2, 2, 2]);
        facts.points[..4].copy_from_slice(&[6, 5, 3, 2]);
        game.record_facts(facts, None).expect("scored");
        let names: Vec<String> = ["Aki", "Ben", "Chie", "Dan"].map(String::from).to_vec();
        for lang in Lang::ALL {
            let sheet = Sheet::kept(&rules, lang, &names, game.results());
            let Body::Pad(pad) = &sheet.body else {
                panic!("a score sheet");
            };
            let grid = pad_grid(&sheet, pad);
            let ops = &pad_pages(&sheet, pad)[0];
            let written: Vec<(&str, f32)> = ops
                .iter()
                .filter_map(|op| match op {
                    Op::Text { text, color, x, .. } if *color == PEN => Some((text.as_str(), *x)),
                    _ => None,
                })
                .collect();
            let texts: Vec<&str> = written.iter().map(|(t, _)| *t).collect();
            // The four names, then the deal's eight cells (penalty, total per player).
            assert_eq!(
                texts[..12],
                [
                    "Aki", "Ben", "Chie", "Dan", "0", "0", "0", "0", "3", "3", "3", "3"
                ],
                "{lang:?}"
            );
            // Each name in its player's block.
            let block = grid.column_mm * MM * pad.columns.len() as f32;
            let players_left = (PAD_MARGIN + grid.deal_mm) * MM;
            for (p, (_, x)) in written[..4].iter().enumerate() {
                let left = players_left + p as f32 * block;
                assert!(*x >= left && *x < left + block, "{p}: {x} not in {left}");
            }
            // A blank sheet has nothing written in.
            let blank = Sheet::new(&rules, crate::Kind::Scorepad, lang);
            let Body::Pad(pad) = &blank.body else {
                panic!("a score sheet");
            };
            assert!(
                !pad_pages(&blank, pad)[0]
                    .iter()
                    .any(|op| matches!(op, Op::Text { color, .. } if *color == PEN))
            );
            assert!(sheet.pdf().expect("a PDF").starts_with(b"%PDF"));
        }
    }
}
