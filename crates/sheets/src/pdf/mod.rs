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

mod flow;
mod pad;
mod pages;

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

pub(crate) use flow::{CARD_SIZES, RULES_SIZES, Sizes, too_wide};
use flow::{Flow, fit};
use pad::pad_pages;
pub(crate) use pad::{PAD_MARGIN, pad_grid};
pub(crate) use pages::{
    CARD_FRAME, CARD_INSET, FOOTER_CLEAR_MM, RULES_MARGIN_BOTTOM, RULES_MARGIN_TOP, RULES_MARGIN_X,
    card_scale, rules_scale,
};
use pages::{cards_page, footer, rules_page};

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
