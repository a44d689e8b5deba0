//! The rules page and the page of score cards with their cut marks, and the footer both
//! share.

use super::*;

pub(crate) const RULES_MARGIN_X: f32 = 17.0 * MM;
pub(crate) const RULES_MARGIN_TOP: f32 = 15.0 * MM;
/// Room at the foot of a rules page, footer included.
pub(crate) const RULES_MARGIN_BOTTOM: f32 = 18.0 * MM;

fn rules_flow(sheet: &Sheet, sections: &[Section], scale: f32) -> Flow {
    let mut flow = Flow::new(
        RULES_MARGIN_X,
        RULES_MARGIN_TOP,
        PAGE_W - 2.0 * RULES_MARGIN_X,
        scale,
        RULES_SIZES,
    );
    flow.header(sheet);
    flow.y += 2.0 * MM * scale;
    flow.ops.push(Op::Line {
        x1: flow.x,
        y1: flow.y,
        x2: flow.x + flow.width,
        y2: flow.y,
        width: 1.5,
        color: ACCENT,
    });
    flow.y += 3.0 * MM * scale;
    for (i, section) in sections.iter().enumerate() {
        flow.section(section, i == 0);
    }
    flow
}

/// The scale at which a rules sheet fits one page.
pub(crate) fn rules_scale(sheet: &Sheet, sections: &[Section]) -> f32 {
    fit(1.2, PAGE_H - RULES_MARGIN_BOTTOM, |scale| {
        rules_flow(sheet, sections, scale).y
    })
}

/// The page of a rules sheet.
pub(super) fn rules_page(sheet: &Sheet, sections: &[Section]) -> Vec<Op> {
    let scale = rules_scale(sheet, sections);
    let mut ops = rules_flow(sheet, sections, scale).ops;
    footer(
        &mut ops,
        &sheet.footer,
        RULES_MARGIN_X,
        PAGE_W - 2.0 * RULES_MARGIN_X,
    );
    ops
}

pub(super) fn footer(ops: &mut Vec<Op>, text: &str, x: f32, width: f32) {
    let face = Face::get();
    let size = 7.0;
    let mut y = PAGE_H - 10.0 * MM;
    for line in face.wrap(text, size, width).into_iter().rev() {
        ops.push(Op::Text {
            x,
            y,
            size,
            text: line,
            color: MUTED,
            bold: false,
        });
        y -= size * 1.3;
    }
}

/// Room between a cut mark and the footer set between two of them, in millimetres.
pub(crate) const FOOTER_CLEAR_MM: f32 = 2.0;
/// Inset of a card's frame from its edges.
pub(crate) const CARD_FRAME: f32 = 2.2 * MM;
/// Inset of a card's text from its edges.
pub(crate) const CARD_INSET: f32 = 4.4 * MM;

fn card_flow(sheet: &Sheet, sections: &[Section], x: f32, y: f32, scale: f32) -> Flow {
    let mut flow = Flow::new(
        x + CARD_INSET,
        y + CARD_INSET,
        CARD_W_MM * MM - 2.0 * CARD_INSET,
        scale,
        CARD_SIZES,
    );
    flow.header(sheet);
    flow.y += 1.0 * MM * scale;
    for section in sections {
        flow.section(section, false);
    }
    flow
}

/// The scale at which a score card's content fits the card.
pub(crate) fn card_scale(sheet: &Sheet, sections: &[Section]) -> f32 {
    fit(1.25, CARD_H_MM * MM - 2.0 * CARD_INSET, |scale| {
        card_flow(sheet, sections, 0.0, 0.0, scale).y
    })
}

/// A page of score cards with cut marks.
pub(super) fn cards_page(sheet: &Sheet, sections: &[Section]) -> Vec<Op> {
    let scale = card_scale(sheet, sections);
    let left = card_grid_left_mm() * MM;
    let top = card_grid_top_mm() * MM;
    let (w, h) = (CARD_W_MM * MM, CARD_H_MM * MM);
    let mut ops = Vec::new();
    for row in 0..CARDS_DOWN {
        for col in 0..CARDS_ACROSS {
            let x = left + col as f32 * w;
            let y = top + row as f32 * h;
            ops.push(Op::Frame {
                x: x + CARD_FRAME,
                y: y + CARD_FRAME,
                w: w - 2.0 * CARD_FRAME,
                h: h - 2.0 * CARD_FRAME,
                radius: 2.5 * MM,
                width: 0.6,
                color: ACCENT,
            });
            ops.extend(card_flow(sheet, sections, x, y, scale).ops);
        }
    }
    ops.extend(cut_marks(left, top, w, h));
    // Between the first two cut marks under the cards, clear of both.
    let clear = FOOTER_CLEAR_MM * MM;
    footer(&mut ops, &sheet.footer, left + clear, w - 2.0 * clear);
    ops
}

/// Cut marks in the margins, in line with every card edge.
fn cut_marks(left: f32, top: f32, w: f32, h: f32) -> Vec<Op> {
    let (gap, length) = (2.0 * MM, 6.0 * MM);
    let right = left + w * CARDS_ACROSS as f32;
    let bottom = top + h * CARDS_DOWN as f32;
    let mark = |x1, y1, x2, y2| Op::Line {
        x1,
        y1,
        x2,
        y2,
        width: 0.4,
        color: Rgb(0, 0, 0),
    };
    let mut ops = Vec::new();
    for c in 0..=CARDS_ACROSS {
        let x = left + c as f32 * w;
        ops.push(mark(x, top - gap - length, x, top - gap));
        ops.push(mark(x, bottom + gap, x, bottom + gap + length));
    }
    for r in 0..=CARDS_DOWN {
        let y = top + r as f32 * h;
        ops.push(mark(left - gap - length, y, left - gap, y));
        ops.push(mark(right + gap, y, right + gap + length, y));
    }
    ops
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Kind;
    use torite_core::Ruleset;
    use torite_i18n::Lang;

    /// A text op's box: left, top, right, bottom.
    pub(crate) fn text_box(op: &Op) -> Option<(f32, f32, f32, f32)> {
        let face = Face::get();
        match op {
            Op::Text {
                x, y, size, text, ..
            } => Some((
                *x,
                y - face.ascent * size,
                x + face.width(text, *size),
                y + face.descent.abs() * size,
            )),
            _ => None,
        }
    }

    #[test]
    fn the_score_cards_footer_runs_into_no_cut_mark() {
        let value = serde_json::json!({"base": "mini-misere-4-1989", "lot_timing": "first-card"});
        let house = Ruleset::from_json(&value).unwrap();
        for lang in Lang::ALL {
            let sheet = Sheet::new(&house, Kind::Scores, lang);
            let ops = &pages(&sheet)[0];
            let footer: Vec<_> = ops
                .iter()
                .filter(|op| matches!(op, Op::Text { color, .. } if *color == MUTED))
                .filter_map(text_box)
                .collect();
            assert!(!footer.is_empty(), "{lang}: no footer");
            let marks = ops.iter().filter_map(|op| match op {
                Op::Line {
                    x1,
                    y1,
                    x2,
                    y2,
                    color,
                    ..
                } if *color == Rgb(0, 0, 0) => {
                    Some((x1.min(*x2), y1.min(*y2), x1.max(*x2), y1.max(*y2)))
                }
                _ => None,
            });
            let clear = 0.5 * MM;
            for (mx1, my1, mx2, my2) in marks {
                for &(l, t, r, b) in &footer {
                    let apart =
                        mx2 + clear < l || r + clear < mx1 || my2 + clear < t || b + clear < my1;
                    assert!(
                        apart,
                        "{lang}: a cut mark at x {mx1}..{mx2} y {my1}..{my2} touches the footer at {l}..{r}, {t}..{b}"
                    );
                }
            }
        }
    }
}
