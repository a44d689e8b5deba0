//! Page layout (shared with the HTML form for its font sizes) and the PDF writer.
//!
//! Layout turns a [`Sheet`] into drawing operations on A4 pages, measuring text with the
//! bundled font's advances; the PDF is those operations painted with krilla, which embeds the
//! font subset to the glyphs used.

use std::fmt;

use krilla::color::rgb;
use krilla::geom::{PathBuilder, Point, Rect};
use krilla::metadata::Metadata;
use krilla::num::NormalizedF32;
use krilla::page::PageSettings;
use krilla::paint::{Fill, LineCap, Stroke};
use krilla::surface::Surface;
use krilla::text::{Font, GlyphId, KrillaGlyph};
use krilla::{Data, Document};

use crate::font::Face;
use crate::{Block, Body, FONT, Pad, Section, Sheet, Table};

/// One millimetre in points.
pub(crate) const MM: f32 = 72.0 / 25.4;
/// A4 width in points.
pub(crate) const PAGE_W: f32 = 210.0 * MM;
/// A4 height in points.
pub(crate) const PAGE_H: f32 = 297.0 * MM;

/// Score card size (bridge playing card), in millimetres.
pub(crate) const CARD_W_MM: f32 = 57.0;
/// Score card height, in millimetres.
pub(crate) const CARD_H_MM: f32 = 89.0;
/// Cards across and down an A4 page.
pub(crate) const CARDS_ACROSS: usize = 3;
/// Cards down an A4 page.
pub(crate) const CARDS_DOWN: usize = 3;
/// The most deal rows on one score-sheet page.
pub(crate) const PAD_ROWS_PER_PAGE: usize = 30;

/// The left edge of the card grid, in millimetres.
pub(crate) fn card_grid_left_mm() -> f32 {
    (210.0 - CARD_W_MM * CARDS_ACROSS as f32) / 2.0
}

/// The top edge of the card grid, in millimetres.
pub(crate) fn card_grid_top_mm() -> f32 {
    (297.0 - CARD_H_MM * CARDS_DOWN as f32) / 2.0
}

/// Why a PDF could not be written.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PdfError(pub String);

impl fmt::Display for PdfError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "cannot write the PDF: {}", self.0)
    }
}

impl std::error::Error for PdfError {}

/// An RGB colour.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    /// `#rrggbb`, for CSS.
    pub fn css(self) -> String {
        format!("#{:02x}{:02x}{:02x}", self.0, self.1, self.2)
    }
}

/// Body text.
pub(crate) const INK: Rgb = Rgb(34, 34, 34);
/// Headings and frames.
pub(crate) const ACCENT: Rgb = Rgb(24, 78, 130);
/// House rules, which differ from the printed game's usual rules.
pub(crate) const HOUSE: Rgb = Rgb(170, 74, 10);
/// Small print.
pub(crate) const MUTED: Rgb = Rgb(105, 105, 105);
/// Table rules.
pub(crate) const GRID: Rgb = Rgb(150, 150, 150);
/// Table heading background.
pub(crate) const SHADE: Rgb = Rgb(228, 236, 245);
/// Every other score-sheet row.
pub(crate) const STRIPE: Rgb = Rgb(246, 246, 246);

/// One drawing operation, in points from the page's top left corner.
#[derive(Clone, PartialEq, Debug)]
pub(crate) enum Op {
    /// A line of text; `y` is the baseline.
    Text {
        x: f32,
        y: f32,
        size: f32,
        text: String,
        color: Rgb,
        bold: bool,
    },
    /// A straight line.
    Line {
        x1: f32,
        y1: f32,
        x2: f32,
        y2: f32,
        width: f32,
        color: Rgb,
    },
    /// A filled rectangle.
    Fill {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        color: Rgb,
    },
    /// A stroked rectangle with rounded corners.
    Frame {
        x: f32,
        y: f32,
        w: f32,
        h: f32,
        radius: f32,
        width: f32,
        color: Rgb,
    },
}

/// How text lines up in its box.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Align {
    Left,
    Center,
}

/// Text sizes of a flow, in points before scaling.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sizes {
    pub kicker: f32,
    pub title: f32,
    pub house: f32,
    pub heading: f32,
    pub body: f32,
    pub table: f32,
    /// Space before a section, in points.
    pub section_gap: f32,
    /// Space after a paragraph or list.
    pub block_gap: f32,
    /// Line height as a multiple of the size.
    pub leading: f32,
    align_title: Align,
    /// Whether tables fill the width.
    stretch_tables: bool,
}

pub(crate) const RULES_SIZES: Sizes = Sizes {
    kicker: 9.0,
    title: 19.0,
    house: 9.5,
    heading: 12.0,
    body: 10.0,
    table: 9.5,
    section_gap: 11.0,
    block_gap: 4.0,
    leading: 1.5,
    align_title: Align::Left,
    stretch_tables: false,
};

pub(crate) const CARD_SIZES: Sizes = Sizes {
    kicker: 6.0,
    title: 8.5,
    house: 5.5,
    heading: 6.8,
    body: 6.6,
    table: 7.0,
    section_gap: 5.0,
    block_gap: 1.5,
    leading: 1.35,
    align_title: Align::Center,
    stretch_tables: true,
};

/// Text laid out down a column.
struct Flow {
    face: &'static Face,
    ops: Vec<Op>,
    x: f32,
    width: f32,
    y: f32,
    scale: f32,
    sizes: Sizes,
}

impl Flow {
    fn new(x: f32, y: f32, width: f32, scale: f32, sizes: Sizes) -> Flow {
        Flow {
            face: Face::get(),
            ops: Vec::new(),
            x,
            width,
            y,
            scale,
            sizes,
        }
    }

    fn baseline(&self, top: f32, line_height: f32, size: f32) -> f32 {
        top + line_height / 2.0 + size * (self.face.ascent + self.face.descent) / 2.0
    }

    /// Wrapped text at `x` (relative to the flow) in a box `width` wide; advances `y`.
    #[allow(clippy::too_many_arguments)]
    fn text(
        &mut self,
        text: &str,
        size: f32,
        color: Rgb,
        bold: bool,
        indent: f32,
        width: f32,
        align: Align,
    ) {
        let line_height = size * self.sizes.leading;
        for line in self.face.wrap(text, size, width) {
            let offset = match align {
                Align::Left => 0.0,
                Align::Center => (width - self.face.width(&line, size)) / 2.0,
            };
            let y = self.baseline(self.y, line_height, size);
            self.ops.push(Op::Text {
                x: self.x + indent + offset,
                y,
                size,
                text: line,
                color,
                bold,
            });
            self.y += line_height;
        }
    }

    fn header(&mut self, sheet: &Sheet) {
        let s = self.sizes;
        let k = self.scale;
        let width = self.width;
        self.text(
            &sheet.kicker,
            s.kicker * k,
            ACCENT,
            false,
            0.0,
            width,
            s.align_title,
        );
        self.text(
            &sheet.title,
            s.title * k,
            INK,
            true,
            0.0,
            width,
            s.align_title,
        );
        if let Some(house) = &sheet.house_rules {
            self.text(house, s.house * k, HOUSE, false, 0.0, width, s.align_title);
        }
    }

    fn section(&mut self, section: &Section, first: bool) {
        let s = self.sizes;
        let k = self.scale;
        if !first {
            self.y += s.section_gap * k;
        }
        if !section.heading.is_empty() {
            let width = self.width;
            self.text(
                &section.heading,
                s.heading * k,
                ACCENT,
                true,
                0.0,
                width,
                Align::Left,
            );
            self.ops.push(Op::Line {
                x1: self.x,
                y1: self.y,
                x2: self.x + self.width,
                y2: self.y,
                width: 0.5 * k,
                color: ACCENT,
            });
            self.y += (s.block_gap + 1.0) * k;
        }
        for (i, block) in section.blocks.iter().enumerate() {
            if i > 0 {
                self.y += s.block_gap * k;
            }
            self.block(block);
        }
    }

    fn block(&mut self, block: &Block) {
        let size = self.sizes.body * self.scale;
        let width = self.width;
        match block {
            Block::Para(text) => self.text(text, size, INK, false, 0.0, width, Align::Left),
            Block::List { numbered, items } => {
                let marker = |i: usize| {
                    if *numbered {
                        format!("{}.", i + 1)
                    } else {
                        "•".to_owned()
                    }
                };
                let indent = self
                    .face
                    .width(&marker(items.len().saturating_sub(1)), size)
                    + size * 0.6;
                for (i, item) in items.iter().enumerate() {
                    let top = self.y;
                    let line_height = size * self.sizes.leading;
                    let y = self.baseline(top, line_height, size);
                    self.ops.push(Op::Text {
                        x: self.x,
                        y,
                        size,
                        text: marker(i),
                        color: ACCENT,
                        bold: *numbered,
                    });
                    self.text(item, size, INK, false, indent, width - indent, Align::Left);
                    if i + 1 < items.len() {
                        self.y += size * 0.2;
                    }
                }
            }
            Block::Table(table) => self.table(table),
        }
    }

    fn table(&mut self, table: &Table) {
        let size = self.sizes.table * self.scale;
        let pad_x = size * 0.55;
        let pad_y = size * 0.25;
        let columns = table.rows.iter().map(Vec::len).max().unwrap_or(0);
        if columns == 0 {
            return;
        }
        let mut widths = vec![0.0f32; columns];
        for row in &table.rows {
            for (c, cell) in row.iter().enumerate() {
                widths[c] = widths[c]
                    .max(self.face.width(cell, size) + 2.0 * pad_x)
                    .max(size * 2.2);
            }
        }
        let natural: f32 = widths.iter().sum();
        if natural > self.width && table.header_column && columns > 2 {
            // Too wide (the compare sheet): the heading column keeps at most a fifth of the
            // width, the others share the rest equally and wrap.
            widths[0] = widths[0].min(self.width * 0.2);
            let each = (self.width - widths[0]) / (columns - 1) as f32;
            for w in &mut widths[1..] {
                *w = each;
            }
        } else if self.sizes.stretch_tables || natural > self.width {
            // Spread the room left over (or take the excess) evenly over the columns.
            let extra = (self.width - natural) / columns as f32;
            for w in &mut widths {
                *w = (*w + extra).max(size * 1.5);
            }
        }
        let total: f32 = widths.iter().sum();
        let line_height = size * 1.3;
        let top = self.y;
        let mut y = top;
        let mut row_edges = vec![y];
        for (r, row) in table.rows.iter().enumerate() {
            let wrapped: Vec<Vec<String>> = row
                .iter()
                .enumerate()
                .map(|(c, cell)| self.face.wrap(cell, size, widths[c] - 2.0 * pad_x))
                .collect();
            let lines = wrapped.iter().map(Vec::len).max().unwrap_or(1);
            let height = lines as f32 * line_height + 2.0 * pad_y;
            if r == 0 {
                self.ops.push(Op::Fill {
                    x: self.x,
                    y,
                    w: total,
                    h: height,
                    color: SHADE,
                });
            }
            let mut x = self.x;
            for (c, cell_lines) in wrapped.iter().enumerate() {
                let heading = r == 0 || (table.header_column && c == 0);
                let left_aligned = table.header_column && c == 0;
                for (l, line) in cell_lines.iter().enumerate() {
                    let line_top = y + pad_y + l as f32 * line_height;
                    let offset = if left_aligned {
                        pad_x
                    } else {
                        (widths[c] - self.face.width(line, size)) / 2.0
                    };
                    self.ops.push(Op::Text {
                        x: x + offset,
                        y: self.baseline(line_top, line_height, size),
                        size,
                        text: line.clone(),
                        color: INK,
                        bold: heading,
                    });
                }
                x += widths[c];
            }
            y += height;
            row_edges.push(y);
        }
        let grid = 0.5 * self.scale.max(0.6);
        for edge in &row_edges {
            self.ops.push(Op::Line {
                x1: self.x,
                y1: *edge,
                x2: self.x + total,
                y2: *edge,
                width: grid,
                color: GRID,
            });
        }
        let edges = std::iter::once(0.0).chain(widths.iter().scan(0.0, |at, w| {
            *at += w;
            Some(*at)
        }));
        for edge in edges {
            let x = self.x + edge;
            self.ops.push(Op::Line {
                x1: x,
                y1: top,
                x2: x,
                y2: y,
                width: grid,
                color: GRID,
            });
        }
        self.y = y;
    }
}

/// The largest scale, from `most` down to 40 %, at which `lay` fits `height`.
fn fit(most: f32, height: f32, lay: impl Fn(f32) -> f32) -> f32 {
    let mut scale = most;
    while scale > 0.4 && lay(scale) > height {
        scale -= 0.025;
    }
    scale
}

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
fn rules_page(sheet: &Sheet, sections: &[Section]) -> Vec<Op> {
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

fn footer(ops: &mut Vec<Op>, text: &str, x: f32, width: f32) {
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
fn cards_page(sheet: &Sheet, sections: &[Section]) -> Vec<Op> {
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
    footer(&mut ops, &sheet.footer, left, w * CARDS_ACROSS as f32);
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
}

pub(crate) const PAD_MARGIN: f32 = 12.0;
pub(crate) const PAD_TABLE_TOP: f32 = 36.0;

/// The score-sheet grid for `pad`.
pub(crate) fn pad_grid(pad: &Pad) -> PadGrid {
    let face = Face::get();
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
    let room = 297.0 - PAD_TABLE_TOP - name_mm - head_mm - 40.0;
    let row_mm = (room / (most + pad.totals.len()) as f32).clamp(5.5, 10.5);
    PadGrid {
        deal_mm: label,
        column_mm,
        notes_mm,
        name_mm,
        head_mm,
        row_mm,
        pages,
    }
}

fn pad_pages(sheet: &Sheet, pad: &Pad) -> Vec<Vec<Op>> {
    let grid = pad_grid(pad);
    let face = Face::get();
    let pages = grid.pages.len();
    let mut out = Vec::new();
    for (page, &(first, last)) in grid.pages.iter().enumerate() {
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
        // Fields to fill in: date, place.
        let field_y = (PAD_TABLE_TOP - 4.0) * MM;
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
    let top = PAD_TABLE_TOP * MM;
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

/// The pages of a sheet as drawing operations.
pub(crate) fn pages(sheet: &Sheet) -> Vec<Vec<Op>> {
    match &sheet.body {
        Body::Rules(sections) => vec![rules_page(sheet, sections)],
        Body::Card(sections) => vec![cards_page(sheet, sections)],
        Body::Pad(pad) => pad_pages(sheet, pad),
    }
}

fn fill(color: Rgb) -> Fill {
    Fill {
        paint: rgb::Color::new(color.0, color.1, color.2).into(),
        opacity: NormalizedF32::ONE,
        rule: Default::default(),
    }
}

fn stroke(color: Rgb, width: f32) -> Stroke {
    Stroke {
        paint: rgb::Color::new(color.0, color.1, color.2).into(),
        width,
        line_cap: LineCap::Butt,
        ..Stroke::default()
    }
}

fn paint(surface: &mut Surface, font: &Font, ops: &[Op]) {
    let face = Face::get();
    for op in ops {
        match op {
            Op::Text {
                x,
                y,
                size,
                text,
                color,
                bold,
            } => {
                let glyphs: Vec<KrillaGlyph> = text
                    .char_indices()
                    .map(|(i, c)| {
                        let (id, advance) = face.glyph(c);
                        KrillaGlyph::new(
                            GlyphId::new(id),
                            advance,
                            0.0,
                            0.0,
                            0.0,
                            i..i + c.len_utf8(),
                            None,
                        )
                    })
                    .collect();
                surface.set_fill(Some(fill(*color)));
                // Headings are set a little heavier by stroking the glyphs' outlines too.
                surface.set_stroke(bold.then(|| stroke(*color, size * 0.03)));
                surface.draw_glyphs(
                    Point::from_xy(*x, *y),
                    &glyphs,
                    font.clone(),
                    text,
                    *size,
                    false,
                );
            }
            Op::Line {
                x1,
                y1,
                x2,
                y2,
                width,
                color,
            } => {
                let mut path = PathBuilder::new();
                path.move_to(*x1, *y1);
                path.line_to(*x2, *y2);
                if let Some(path) = path.finish() {
                    surface.set_fill(None);
                    surface.set_stroke(Some(stroke(*color, *width)));
                    surface.draw_path(&path);
                }
            }
            Op::Fill { x, y, w, h, color } => {
                let mut path = PathBuilder::new();
                if let Some(rect) = Rect::from_xywh(*x, *y, *w, *h) {
                    path.push_rect(rect);
                }
                if let Some(path) = path.finish() {
                    surface.set_stroke(None);
                    surface.set_fill(Some(fill(*color)));
                    surface.draw_path(&path);
                }
            }
            Op::Frame {
                x,
                y,
                w,
                h,
                radius,
                width,
                color,
            } => {
                let (l, t, r, b, k) = (*x, *y, x + w, y + h, *radius);
                // Quarter circles as cubic curves.
                let c = k * 0.447_715;
                let mut path = PathBuilder::new();
                path.move_to(l + k, t);
                path.line_to(r - k, t);
                path.cubic_to(r - c, t, r, t + c, r, t + k);
                path.line_to(r, b - k);
                path.cubic_to(r, b - c, r - c, b, r - k, b);
                path.line_to(l + k, b);
                path.cubic_to(l + c, b, l, b - c, l, b - k);
                path.line_to(l, t + k);
                path.cubic_to(l, t + c, l + c, t, l + k, t);
                path.close();
                if let Some(path) = path.finish() {
                    surface.set_fill(None);
                    surface.set_stroke(Some(stroke(*color, *width)));
                    surface.draw_path(&path);
                }
            }
        }
    }
}

/// The sheet as a PDF.
pub(crate) fn render(sheet: &Sheet) -> Result<Vec<u8>, PdfError> {
    let font = Font::new(Data::from(FONT), 0)
        .ok_or_else(|| PdfError("the bundled font cannot be read".into()))?;
    let mut document = Document::new();
    let settings =
        PageSettings::from_wh(PAGE_W, PAGE_H).ok_or_else(|| PdfError("bad page size".into()))?;
    for ops in pages(sheet) {
        let mut page = document.start_page_with(settings.clone());
        let mut surface = page.surface();
        paint(&mut surface, &font, &ops);
        surface.finish();
        page.finish();
    }
    document.set_metadata(
        Metadata::new()
            .title(format!("{} — {}", sheet.title, sheet.kicker))
            .language(sheet.lang.code().to_owned())
            .creator("torite".to_owned()),
    );
    document.finish().map_err(|e| PdfError(format!("{e:?}")))
}
