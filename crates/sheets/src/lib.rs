//! Printable sheets for the games of torite, in Japanese and English.
//!
//! Three kinds of sheet ([`Kind`]), each generated from a [`Ruleset`]'s options (never from
//! the name of the preset it came from), so a house rule prints its own rules:
//!
//! - [`Kind::Rules`]: a one-page A4 summary of the rules;
//! - [`Kind::Scores`]: a quick-reference card the size of a bridge playing card (57×89 mm),
//!   nine to an A4 page with cut marks;
//! - [`Kind::Scorepad`]: a blank score sheet for the ruleset's players and game length;
//! - [`Kind::Compare`]: one A4 page setting the ruleset beside the presets of its family (the
//!   presets scored the same way: the six Mini Misère presets), differences marked.
//!
//! A [`Sheet`] is the content of one sheet, independent of its form: [`Sheet::text`] gives
//! its words as plain text, [`Sheet::html`] a self-contained HTML page with print CSS (A4), and
//! [`Sheet::pdf`] a PDF that embeds only the glyphs it uses of the bundled IPAex Gothic font.
//!
//! ```
//! use torite_core::Preset;
//! use torite_i18n::Lang;
//! use torite_sheets::{Format, Kind, Sheet};
//!
//! let sheet = Sheet::new(&Preset::MiniMisere4.ruleset(), Kind::Rules, Lang::En);
//! assert!(sheet.text().contains("A led 2 beats every card of its suit"));
//! let pdf = sheet.render(Format::Pdf)?;
//! assert!(pdf.starts_with(b"%PDF"));
//! # Ok::<_, torite_sheets::PdfError>(())
//! ```

#![deny(missing_docs)]

mod compare;
mod content;
mod font;
mod html;
mod pdf;

use std::fmt::{self, Write};
use std::path::Path;
use std::str::FromStr;

use torite_core::{Preset, Ruleset};
use torite_i18n::{Catalog, Lang};

pub use pdf::PdfError;

/// The bundled font: IPAex Gothic, under the IPA Font License v1.0 (see
/// `assets/fonts/IPA_Font_License_Agreement_v1.0.txt`).
pub const FONT: &[u8] = include_bytes!("../../../assets/fonts/ipaexg.ttf");

/// Which sheet to make.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Kind {
    /// A one-page A4 summary of the rules.
    Rules,
    /// Quick-reference score cards (57×89 mm), nine to an A4 page, with cut marks.
    Scores,
    /// A blank score sheet.
    Scorepad,
    /// One A4 page setting the ruleset beside every preset scored the same way (for Mini
    /// Misère: the current and 1989 rules, three to six players), each difference from the
    /// first column marked.
    Compare,
}

impl Kind {
    /// Every kind.
    pub const ALL: [Kind; 4] = [Kind::Rules, Kind::Scores, Kind::Scorepad, Kind::Compare];

    /// The name used on the command line: `rules`, `scores`, `scorepad` or `compare`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::Rules => "rules",
            Kind::Scores => "scores",
            Kind::Scorepad => "scorepad",
            Kind::Compare => "compare",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A name that is not one of the accepted values.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnknownName {
    /// What was given.
    pub given: String,
    /// What is accepted.
    pub expected: &'static str,
}

impl fmt::Display for UnknownName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "unknown value {:?} ({})", self.given, self.expected)
    }
}

impl std::error::Error for UnknownName {}

impl FromStr for Kind {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Kind, UnknownName> {
        Kind::ALL
            .into_iter()
            .find(|k| k.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| UnknownName {
                given: s.to_owned(),
                expected: "rules, scores, scorepad or compare",
            })
    }
}

/// The form of a sheet.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Format {
    /// A self-contained HTML page with print CSS (`@page` A4).
    Html,
    /// A PDF with the bundled font, subset to the glyphs used.
    Pdf,
}

impl Format {
    /// The name used on the command line and as the file extension: `html` or `pdf`.
    #[must_use]
    pub const fn as_str(self) -> &'static str {
        match self {
            Format::Html => "html",
            Format::Pdf => "pdf",
        }
    }

    /// The media type, for a server's `Content-Type`.
    #[must_use]
    pub const fn mime(self) -> &'static str {
        match self {
            Format::Html => "text/html; charset=utf-8",
            Format::Pdf => "application/pdf",
        }
    }

    /// The format a file name asks for by its extension (`.pdf`, `.html`, `.htm`).
    #[must_use]
    pub fn from_path(path: &Path) -> Option<Format> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "pdf" => Some(Format::Pdf),
            "html" | "htm" => Some(Format::Html),
            _ => None,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Format {
    type Err = UnknownName;
    fn from_str(s: &str) -> Result<Format, UnknownName> {
        match s.to_ascii_lowercase().as_str() {
            "html" | "htm" => Ok(Format::Html),
            "pdf" => Ok(Format::Pdf),
            _ => Err(UnknownName {
                given: s.to_owned(),
                expected: "html or pdf",
            }),
        }
    }
}

/// A block of a section: a paragraph, a list or a table.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Block {
    /// A paragraph.
    Para(String),
    /// A list; numbered lists are read in order (the first rule that applies).
    List {
        /// Whether the items are numbered.
        numbered: bool,
        /// The items.
        items: Vec<String>,
    },
    /// A table.
    Table(Table),
}

/// A small table: its first row, and optionally its first column, are headings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Table {
    /// The rows, each with the same number of cells.
    pub rows: Vec<Vec<String>>,
    /// Whether the first column holds headings too.
    pub header_column: bool,
}

/// A titled part of a sheet (the title may be empty).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Section {
    /// The heading; empty for none.
    pub heading: String,
    /// The content.
    pub blocks: Vec<Block>,
}

/// A blank score sheet's grid.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Pad {
    /// The heading of the deal-number column.
    pub deal: String,
    /// One heading per player, above a space for the name.
    pub players: Vec<String>,
    /// The columns under each player.
    pub columns: Vec<String>,
    /// The heading of the last column, for the Lot, held-over points, draws.
    pub notes: String,
    /// The number of deal rows.
    pub rows: usize,
    /// Rows after the deals, by label: `true` for one box per player, `false` for one per
    /// column.
    pub totals: Vec<(String, bool)>,
    /// Labels of the fields above the grid (date, place).
    pub fields: Vec<String>,
    /// Reminders printed under the grid.
    pub hints: Vec<String>,
    /// The scoring rules, printed under the grid where the page has room (the Jass games).
    pub scoring: Option<Section>,
    /// The strokes-and-circles columns beside the scoring rules (Mittlere and Molotow).
    pub tally: Option<Tally>,
    /// The game so far written in, for a sheet of a game being kept (the HTML shows it; a
    /// blank sheet has none).
    pub filled: Option<Filled>,
}

/// A score sheet's grid written in: the players' names, a row a deal, the totals.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Filled {
    /// The players' names, in seat order.
    pub names: Vec<String>,
    /// A row a deal: a cell a player and column, then the notes.
    pub rows: Vec<(Vec<String>, String)>,
    /// A row a total of [`Pad::totals`]: a cell a player (merged) or a player and column.
    pub totals: Vec<Vec<String>>,
}

/// The strokes-and-circles columns of a Jass score sheet: one tall column a player, where a
/// stroke is written for each point won and a circle for each point lost, deal after deal.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Tally {
    /// The heading above the columns.
    pub heading: String,
    /// How the columns are kept.
    pub how: String,
    /// What a stroke means (+1).
    pub plus: String,
    /// What a circle means (−1).
    pub minus: String,
    /// What a stroke written over a circle means: a plus and a minus that cancel (0).
    pub zero: String,
}

/// What a sheet holds besides its title.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Body {
    /// The rules, section by section.
    Rules(Vec<Section>),
    /// One score card, printed as many times as fit on a page.
    Card(Vec<Section>),
    /// A score sheet (boxed: it is much larger than the other bodies).
    Pad(Box<Pad>),
}

/// The content of one sheet, ready to print as HTML or PDF.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Sheet {
    /// Which sheet it is.
    pub kind: Kind,
    /// Its language.
    pub lang: Lang,
    /// The game's name.
    pub title: String,
    /// What the sheet is ("Rules at a glance", "Score card", ...).
    pub kicker: String,
    /// The options changed from the preset, for a house rule.
    pub house_rules: Option<String>,
    /// The body.
    pub body: Body,
    /// The small print at the foot of the page: the preset the rules are (or are based on).
    pub footer: String,
}

impl Sheet {
    /// The sheet of `kind` for `rules`, in `lang`.
    #[must_use]
    pub fn new(rules: &Ruleset, kind: Kind, lang: Lang) -> Sheet {
        content::build(rules, kind, &Catalog::new(lang))
    }

    /// The score sheet of a game being kept with real cards: the blank sheet of `rules` with
    /// the players' `names` and each deal of `results` written in as the paper method keeps
    /// it (the scores or penalties and running totals; card points, strokes and circles in
    /// the Jass games), the Lot and Molotow's draw in the notes.
    #[must_use]
    pub fn kept(
        rules: &Ruleset,
        lang: Lang,
        names: &[String],
        results: &[torite_core::DealResult],
    ) -> Sheet {
        let catalog = Catalog::new(lang);
        let mut sheet = content::build(rules, Kind::Scorepad, &catalog);
        if let Body::Pad(pad) = &mut sheet.body {
            let filled = content::fill(rules, &catalog, names, results, &pad.totals);
            pad.rows = pad.rows.max(filled.rows.len());
            pad.filled = Some(filled);
        }
        sheet
    }

    /// The sheet in the given form: HTML (UTF-8) or PDF bytes.
    ///
    /// # Errors
    ///
    /// A [`PdfError`] if the PDF cannot be written (not expected with the bundled font).
    pub fn render(&self, format: Format) -> Result<Vec<u8>, PdfError> {
        match format {
            Format::Html => Ok(self.html().into_bytes()),
            Format::Pdf => self.pdf(),
        }
    }

    /// A self-contained HTML page (inline CSS, `@page` A4): printing it from a browser gives
    /// the same pages as the PDF.
    #[must_use]
    pub fn html(&self) -> String {
        html::render(self)
    }

    /// A PDF of A4 pages that embeds only the glyphs it uses.
    ///
    /// # Errors
    ///
    /// A [`PdfError`] if the PDF cannot be written.
    pub fn pdf(&self) -> Result<Vec<u8>, PdfError> {
        pdf::render(self)
    }

    /// The words of the sheet as plain text, without any layout: title, sections, lists
    /// (`- ` or `1. `) and tables (cells separated by ` | `).
    #[must_use]
    pub fn text(&self) -> String {
        let mut out = String::new();
        let _ = writeln!(out, "# {}", self.title);
        let _ = writeln!(out, "{}", self.kicker);
        if let Some(house) = &self.house_rules {
            let _ = writeln!(out, "{house}");
        }
        match &self.body {
            Body::Rules(sections) | Body::Card(sections) => {
                for section in sections {
                    out.push('\n');
                    if !section.heading.is_empty() {
                        let _ = writeln!(out, "## {}", section.heading);
                    }
                    for block in &section.blocks {
                        block_text(&mut out, block);
                    }
                }
            }
            Body::Pad(pad) => {
                out.push('\n');
                let _ = writeln!(out, "{}", pad.fields.join(" | "));
                let mut head = vec![pad.deal.clone()];
                for player in &pad.players {
                    head.push(format!("{player} ({})", pad.columns.join(", ")));
                }
                head.push(pad.notes.clone());
                let _ = writeln!(out, "{}", head.join(" | "));
                let _ = writeln!(out, "1–{}", pad.rows);
                for (label, _) in &pad.totals {
                    let _ = writeln!(out, "{label}");
                }
                for hint in &pad.hints {
                    let _ = writeln!(out, "{hint}");
                }
                if let Some(scoring) = &pad.scoring {
                    let _ = writeln!(out, "\n## {}", scoring.heading);
                    for block in &scoring.blocks {
                        block_text(&mut out, block);
                    }
                }
                if let Some(tally) = &pad.tally {
                    let _ = writeln!(out, "\n## {}", tally.heading);
                    let _ = writeln!(out, "{}", tally.how);
                    let _ = writeln!(out, "| {}", tally.plus);
                    let _ = writeln!(out, "○ {}", tally.minus);
                    let _ = writeln!(out, "○+| {}", tally.zero);
                }
            }
        }
        let _ = writeln!(out, "\n{}", self.footer);
        out
    }

    /// The text scale at which the sheet fits its page (rules) or its card (scores), at most 1;
    /// score sheets are not scaled.
    #[must_use]
    pub fn fit_scale(&self) -> f32 {
        match &self.body {
            Body::Rules(sections) => pdf::rules_scale(self, sections),
            Body::Card(sections) => pdf::card_scale(self, sections),
            Body::Pad(_) => 1.0,
        }
    }

    /// Every character the sheet prints (for checking the font covers them).
    #[must_use]
    pub fn chars(&self) -> Vec<char> {
        let mut text = self.text();
        if let Body::Pad(pad) = &self.body {
            for n in 1..=pad.rows {
                let _ = write!(text, "{n}");
            }
        }
        let mut chars: Vec<char> = text.chars().filter(|c| !c.is_control()).collect();
        chars.sort_unstable();
        chars.dedup();
        chars
    }
}

fn block_text(out: &mut String, block: &Block) {
    match block {
        Block::Para(text) => {
            let _ = writeln!(out, "{text}");
        }
        Block::List { numbered, items } => {
            for (i, item) in items.iter().enumerate() {
                if *numbered {
                    let _ = writeln!(out, "{}. {item}", i + 1);
                } else {
                    let _ = writeln!(out, "- {item}");
                }
            }
        }
        Block::Table(table) => {
            for row in &table.rows {
                let _ = writeln!(out, "| {} |", row.join(" | "));
            }
        }
    }
}

/// The preset a family name stands for on a compare sheet: `mini-misere` is the first preset
/// whose id starts `mini-misere-` (the current four-player rules, which the compare sheet then
/// sets beside the rest of its family). A preset id stands for itself.
#[must_use]
pub fn family_preset(name: &str) -> Option<Preset> {
    Preset::from_id(name).or_else(|| {
        let prefix = format!("{name}-");
        Preset::ALL
            .into_iter()
            .find(|p| p.id().starts_with(&prefix))
    })
}

/// Whether the bundled font has a glyph for `c`.
#[must_use]
pub fn font_covers(c: char) -> bool {
    font::Face::get().covers(c)
}
