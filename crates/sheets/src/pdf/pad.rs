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
    // Room for the rows, the totals and the reminders below.
    let room = 297.0 - top_mm - name_mm - head_mm - 40.0;
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

/// Draws the grid of one score-sheet page; returns its bottom edge.
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
}
