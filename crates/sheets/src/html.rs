//! The HTML form: one self-contained page (inline CSS, no scripts, no external resources)
//! whose print CSS gives the same A4 pages as the PDF: same margins, card grid, cut marks and
//! text sizes (the scale that fits the PDF is used here too).

use std::fmt::Write;

use crate::pdf::{
    ACCENT, CARD_FRAME, CARD_H_MM, CARD_INSET, CARD_SIZES, CARD_W_MM, CARDS_ACROSS, CARDS_DOWN,
    FOOTER_CLEAR_MM, GRID, HOUSE, INK, MM, MUTED, PAD_MARGIN, RULES_MARGIN_BOTTOM,
    RULES_MARGIN_TOP, RULES_MARGIN_X, RULES_SIZES, SHADE, STRIPE, Sizes, card_grid_left_mm,
    card_grid_top_mm, pad_grid,
};
use crate::{Block, Body, Pad, Section, Sheet, Table};

/// `s` with the HTML special characters escaped.
fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            _ => out.push(c),
        }
    }
    out
}

/// A length for CSS, to two decimals without trailing zeros.
fn length(v: f32, unit: &str) -> String {
    let text = format!("{v:.2}");
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text}{unit}")
}

/// Points, for CSS.
fn pt(v: f32) -> String {
    length(v, "pt")
}

/// Millimetres, for CSS.
fn mm(v: f32) -> String {
    length(v, "mm")
}

fn base_css() -> String {
    format!(
        r#"@page {{ size: A4; margin: 0; }}
* {{ box-sizing: border-box; }}
html, body {{ margin: 0; padding: 0; }}
body {{
  font-family: "IPAexGothic", "IPAexゴシック", "Hiragino Sans", "Hiragino Kaku Gothic ProN",
    "Yu Gothic", "Noto Sans CJK JP", "Noto Sans JP", sans-serif;
  color: {ink};
  -webkit-print-color-adjust: exact;
  print-color-adjust: exact;
}}
.page {{
  position: relative; width: 210mm; height: 297mm; overflow: hidden; background: #fff;
  break-after: page; page-break-after: always;
}}
.page:last-child {{ break-after: auto; page-break-after: auto; }}
@media screen {{
  body {{ background: #8a8a8a; padding: 1px 0; }}
  .page {{ margin: 8mm auto; box-shadow: 0 0 3mm rgba(0, 0, 0, 0.45); }}
}}
h1, h2, p, ol, ul {{ margin: 0; }}
.kicker {{ color: {accent}; }}
.house {{ color: {house}; }}
footer {{ position: absolute; bottom: 8mm; font-size: 7pt; color: {muted}; overflow-wrap: anywhere; }}
table {{ border-collapse: collapse; }}
th, td {{ border: 0.5pt solid {grid}; text-align: center; font-weight: normal; }}
tr:first-child > th {{ background: {shade}; }}
th {{ font-weight: bold; }}
th.row {{ text-align: left; }}
li::marker {{ color: {accent}; font-weight: bold; }}
"#,
        ink = INK.css(),
        accent = ACCENT.css(),
        house = HOUSE.css(),
        muted = MUTED.css(),
        grid = GRID.css(),
        shade = SHADE.css(),
    )
}

/// CSS of a flow of sections at `scale` (rules pages and cards).
fn flow_css(scope: &str, sizes: Sizes, scale: f32) -> String {
    let k = scale;
    format!(
        r#"{scope} {{ font-size: {body}; line-height: {leading}; }}
{scope} .kicker {{ font-size: {kicker}; }}
{scope} h1 {{ font-size: {title}; line-height: {leading}; }}
{scope} .house {{ font-size: {house}; }}
{scope} h2 {{ font-size: {heading}; color: {accent}; border-bottom: 0.5pt solid {accent}; margin: {gap} 0 {after_heading}; line-height: {leading}; }}
{scope} section:first-of-type h2 {{ margin-top: 0; }}
{scope} p, {scope} ol, {scope} ul, {scope} table {{ margin-bottom: {block}; }}
{scope} ol, {scope} ul {{ padding-left: 1.6em; }}
{scope} li + li {{ margin-top: 0.2em; }}
{scope} th, {scope} td {{ font-size: {table}; line-height: 1.3; padding: {pad_y} {pad_x}; min-width: {min_cell}; }}
"#,
        body = pt(sizes.body * k),
        leading = sizes.leading,
        kicker = pt(sizes.kicker * k),
        title = pt(sizes.title * k),
        house = pt(sizes.house * k),
        heading = pt(sizes.heading * k),
        accent = ACCENT.css(),
        gap = pt(sizes.section_gap * k),
        block = pt(sizes.block_gap * k),
        after_heading = pt((sizes.block_gap + 1.0) * k),
        table = pt(sizes.table * k),
        pad_y = pt(sizes.table * k * 0.25),
        pad_x = pt(sizes.table * k * 0.55),
        min_cell = pt(sizes.table * k * 2.2),
    )
}

fn header(out: &mut String, sheet: &Sheet) {
    out.push_str("<header>");
    let _ = write!(out, "<p class=\"kicker\">{}</p>", esc(&sheet.kicker));
    let _ = write!(out, "<h1>{}</h1>", esc(&sheet.title));
    if let Some(house) = &sheet.house_rules {
        let _ = write!(out, "<p class=\"house\">{}</p>", esc(house));
    }
    out.push_str("</header>\n");
}

fn table(out: &mut String, table: &Table, stretch: bool) {
    let columns = table.rows.iter().map(Vec::len).max().unwrap_or(0);
    if !stretch && table.header_column && columns > 2 && crate::pdf::too_wide(table) {
        // As the PDF sets a table too wide for the page (the compare sheet): the heading
        // column a fifth of the width, the others equal, their text wrapped.
        let _ = write!(
            out,
            "<table style=\"width: 100%; table-layout: fixed\"><colgroup><col style=\"width: 20%\">{}</colgroup>",
            "<col>".repeat(columns - 1)
        );
    } else if stretch {
        out.push_str("<table style=\"width: 100%\">");
    } else {
        out.push_str("<table>");
    }
    for (r, row) in table.rows.iter().enumerate() {
        out.push_str("<tr>");
        for (c, cell) in row.iter().enumerate() {
            if table.header_column && c == 0 {
                let _ = write!(out, "<th scope=\"row\" class=\"row\">{}</th>", esc(cell));
            } else if r == 0 {
                let _ = write!(out, "<th scope=\"col\">{}</th>", esc(cell));
            } else {
                let _ = write!(out, "<td>{}</td>", esc(cell));
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</table>\n");
}

fn sections(out: &mut String, sections: &[Section], stretch_tables: bool) {
    for section in sections {
        out.push_str("<section>");
        if !section.heading.is_empty() {
            let _ = write!(out, "<h2>{}</h2>", esc(&section.heading));
        }
        for block in &section.blocks {
            match block {
                Block::Para(text) => {
                    let _ = write!(out, "<p>{}</p>", esc(text));
                }
                Block::List { numbered, items } => {
                    let tag = if *numbered { "ol" } else { "ul" };
                    let _ = write!(out, "<{tag}>");
                    for item in items {
                        let _ = write!(out, "<li>{}</li>", esc(item));
                    }
                    let _ = write!(out, "</{tag}>");
                }
                Block::Table(t) => table(out, t, stretch_tables),
            }
        }
        out.push_str("</section>\n");
    }
}

fn footer(out: &mut String, sheet: &Sheet, left_mm: f32, width_mm: f32) {
    let _ = writeln!(
        out,
        "<footer style=\"left: {}; width: {}\">{}</footer>",
        mm(left_mm),
        mm(width_mm),
        esc(&sheet.footer)
    );
}

fn rules(out: &mut String, css: &mut String, sheet: &Sheet, body: &[Section]) {
    // A browser wraps a fixed-layout table's narrow cells a little sooner than the PDF does:
    // a page with one is set a little smaller so that it still fits.
    let wide = body
        .iter()
        .flat_map(|s| &s.blocks)
        .any(|b| matches!(b, Block::Table(t) if t.header_column && crate::pdf::too_wide(t)));
    let scale = crate::pdf::rules_scale(sheet, body) * if wide { 0.95 } else { 1.0 };
    let _ = write!(
        css,
        ".rules .inner {{ position: absolute; top: {top}; left: {x}; right: {x}; bottom: {bottom}; overflow: hidden; }}\n\
         .rules header {{ border-bottom: 1.5pt solid {accent}; padding-bottom: {below}; margin-bottom: {after}; }}\n{flow}",
        top = mm(RULES_MARGIN_TOP / MM),
        x = mm(RULES_MARGIN_X / MM),
        bottom = mm(RULES_MARGIN_BOTTOM / MM),
        accent = ACCENT.css(),
        below = mm(2.0 * scale),
        after = mm(3.0 * scale),
        flow = flow_css(".rules", RULES_SIZES, scale)
    );
    // Margins as an inset box: padding on a page-sized box makes browsers print a blank page.
    out.push_str("<div class=\"page rules\">\n<div class=\"inner\">\n");
    header(out, sheet);
    sections(out, body, false);
    out.push_str("</div>\n");
    footer(
        out,
        sheet,
        RULES_MARGIN_X / MM,
        210.0 - 2.0 * RULES_MARGIN_X / MM,
    );
    out.push_str("</div>\n");
}

fn cards(out: &mut String, css: &mut String, sheet: &Sheet, body: &[Section]) {
    let scale = crate::pdf::card_scale(sheet, body);
    let _ = write!(
        css,
        ".card {{ position: absolute; width: {w}; height: {h}; padding: {inset}; overflow: hidden; }}\n\
         .card::before {{ content: \"\"; position: absolute; left: {frame}; top: {frame}; right: {frame}; bottom: {frame}; border: 0.6pt solid {accent}; border-radius: 2.5mm; }}\n\
         .card header {{ text-align: center; margin-bottom: {after}; }}\n\
         .card h2 {{ margin-top: {gap}; }}\n\
         .cut {{ position: absolute; background: #000; }}\n{flow}",
        w = mm(CARD_W_MM),
        h = mm(CARD_H_MM),
        inset = mm(CARD_INSET / MM),
        frame = mm(CARD_FRAME / MM),
        accent = ACCENT.css(),
        after = mm(scale),
        gap = pt(CARD_SIZES.section_gap * scale),
        flow = flow_css(".card", CARD_SIZES, scale),
    );
    let mut card = String::new();
    header(&mut card, sheet);
    sections(&mut card, body, true);
    let (left, top) = (card_grid_left_mm(), card_grid_top_mm());
    out.push_str("<div class=\"page cards\">\n");
    for row in 0..CARDS_DOWN {
        for col in 0..CARDS_ACROSS {
            let _ = writeln!(
                out,
                "<div class=\"card\" style=\"left: {}; top: {}\">\n{card}</div>",
                mm(left + col as f32 * CARD_W_MM),
                mm(top + row as f32 * CARD_H_MM)
            );
        }
    }
    // Cut marks in the margins, in line with every card edge.
    let (gap, length, weight) = (2.0, 6.0, 0.4 / MM);
    let right = left + CARD_W_MM * CARDS_ACROSS as f32;
    let bottom = top + CARD_H_MM * CARDS_DOWN as f32;
    let mut mark = |x: f32, y: f32, w: f32, h: f32| {
        let _ = writeln!(
            out,
            "<div class=\"cut\" style=\"left: {}; top: {}; width: {}; height: {}\"></div>",
            mm(x),
            mm(y),
            mm(w),
            mm(h)
        );
    };
    for c in 0..=CARDS_ACROSS {
        let x = left + c as f32 * CARD_W_MM - weight / 2.0;
        mark(x, top - gap - length, weight, length);
        mark(x, bottom + gap, weight, length);
    }
    for r in 0..=CARDS_DOWN {
        let y = top + r as f32 * CARD_H_MM - weight / 2.0;
        mark(left - gap - length, y, length, weight);
        mark(right + gap, y, length, weight);
    }
    // Between the first two cut marks under the cards, clear of both.
    footer(
        out,
        sheet,
        left + FOOTER_CLEAR_MM,
        CARD_W_MM - 2.0 * FOOTER_CLEAR_MM,
    );
    out.push_str("</div>\n");
}

fn pad(out: &mut String, css: &mut String, sheet: &Sheet, pad: &Pad) {
    let grid = pad_grid(sheet, pad);
    let width = 210.0 - 2.0 * PAD_MARGIN;
    let _ = write!(
        css,
        r#".pad .inner {{ position: absolute; top: 12mm; left: {margin}; right: {margin}; }}
.pad header {{ line-height: 1.5; }}
.pad .kicker {{ font-size: {kicker}; }}
.pad h1 {{ font-size: 16pt; }}
.pad .house {{ font-size: {house}; }}
.fields {{ position: absolute; left: {margin}; top: {fields_top}; font-size: 9pt; color: {muted}; }}
.fields span {{ display: inline-block; margin-right: 8mm; white-space: nowrap; }}
.fields span::after {{ content: ""; display: inline-block; width: 55mm; margin-left: 2mm; border-bottom: 0.5pt solid {grid}; }}
table.grid {{ position: absolute; left: {margin}; top: {table_top}; width: {width}; table-layout: fixed; border: 1.6pt solid {ink}; }}
.grid th, .grid td {{ padding: 0; font-size: 8pt; line-height: 1.2; }}
.grid thead th {{ background: {shade}; font-weight: normal; }}
.grid thead tr:first-child th.player {{ background: #fff; height: {name}; vertical-align: top; text-align: left; padding: 1mm 1.5mm; font-size: 6.5pt; color: {muted}; }}
.grid thead tr + tr th {{ height: {head}; }}
.grid thead tr:first-child th.side {{ border-bottom: 1.6pt solid {ink}; }}
.grid thead tr + tr th {{ border-bottom: 1.6pt solid {ink}; }}
.grid tbody td {{ height: {row}; }}
.grid tbody tr:nth-child(even) td {{ background: {stripe}; }}
.grid td.deal {{ color: {muted}; font-size: 8.5pt; }}
.grid tfoot td {{ height: {row}; background: {shade}; font-size: 7pt; }}
.grid tfoot tr:first-child td {{ border-top: 1.6pt solid {ink}; }}
.grid .first {{ border-left: 1.6pt solid {ink}; }}
.grid .single {{ font-size: 10pt; }}
.hints {{ position: absolute; left: {margin}; width: {width}; bottom: 16mm; display: flex; flex-direction: column; font-size: 8.5pt; color: {muted}; line-height: 1.45; }}
.below {{ flex: 1; display: flex; gap: 6mm; margin-top: 4mm; color: {ink}; line-height: 1.4; }}
.below h2 {{ font-size: 10pt; color: {accent}; border-bottom: 0.5pt solid {accent}; margin-bottom: 1mm; }}
.below ol {{ padding-left: 5mm; }}
.below li {{ margin-bottom: 0.8mm; }}
.below .scoring {{ flex: 56; }}
.below .tally {{ flex: 44; display: flex; flex-direction: column; }}
.tally .marks {{ list-style: none; padding-left: 0; color: {muted}; font-size: 8pt; margin: 1mm 0; }}
.tally .mark {{ display: inline-block; width: 6mm; font-size: 11pt; color: {ink}; position: relative; text-align: center; }}
.tally .mark span {{ position: absolute; left: 0; right: 0; }}
.tally .cols {{ flex: 1; display: flex; border: 1.6pt solid {ink}; min-height: 15mm; }}
.tally .cols div {{ flex: 1; border-left: 0.6pt solid {grid}; padding: 0.5mm 1.5mm; font-size: 6.5pt; color: {muted}; }}
.tally .cols div:first-child {{ border-left: none; }}
"#,
        margin = mm(PAD_MARGIN),
        accent = ACCENT.css(),
        kicker = pt(RULES_SIZES.kicker),
        house = pt(RULES_SIZES.house),
        fields_top = mm(grid.top_mm - 7.5),
        muted = MUTED.css(),
        grid = GRID.css(),
        table_top = mm(grid.top_mm),
        width = mm(width),
        ink = INK.css(),
        shade = SHADE.css(),
        stripe = STRIPE.css(),
        name = mm(grid.name_mm),
        head = mm(grid.head_mm),
        row = mm(grid.row_mm),
    );
    let columns = pad.columns.len();
    let last_page = grid.pages.len().saturating_sub(1);
    for (page, &(first, last)) in grid.pages.iter().enumerate() {
        out.push_str("<div class=\"page pad\">\n<div class=\"inner\">\n");
        header(out, sheet);
        out.push_str("</div>\n");
        out.push_str("<p class=\"fields\">");
        for field in &pad.fields {
            let _ = write!(out, "<span>{}</span>", esc(field));
        }
        out.push_str("</p>\n<table class=\"grid\">\n<colgroup>");
        let _ = write!(out, "<col style=\"width: {}\">", mm(grid.deal_mm));
        for _ in 0..pad.players.len() * columns {
            let _ = write!(out, "<col style=\"width: {}\">", mm(grid.column_mm));
        }
        let _ = write!(out, "<col style=\"width: {}\">", mm(grid.notes_mm));
        out.push_str("</colgroup>\n<thead><tr>");
        let _ = write!(
            out,
            "<th rowspan=\"2\" class=\"side\">{}</th>",
            esc(&pad.deal)
        );
        for (p, player) in pad.players.iter().enumerate() {
            let name = pad.filled.as_ref().and_then(|f| f.names.get(p));
            let _ = match name {
                Some(name) => write!(
                    out,
                    "<th colspan=\"{columns}\" class=\"player first\">{}<br><strong class=\"kept-name\">{}</strong></th>",
                    esc(player),
                    esc(name)
                ),
                None => write!(
                    out,
                    "<th colspan=\"{columns}\" class=\"player first\">{}</th>",
                    esc(player)
                ),
            };
        }
        let _ = write!(
            out,
            "<th rowspan=\"2\" class=\"side first\">{}</th></tr>\n<tr>",
            esc(&pad.notes)
        );
        for _ in &pad.players {
            for (c, column) in pad.columns.iter().enumerate() {
                let mut classes = Vec::new();
                if c == 0 {
                    classes.push("first");
                }
                if column.chars().count() <= 1 {
                    classes.push("single");
                }
                let _ = write!(
                    out,
                    "<th scope=\"col\" class=\"{}\">{}</th>",
                    classes.join(" "),
                    esc(column)
                );
            }
        }
        out.push_str("</tr></thead>\n<tbody>\n");
        for n in first..=last {
            let _ = write!(out, "<tr><td class=\"deal\">{n}</td>");
            let row = pad.filled.as_ref().and_then(|f| f.rows.get(n - 1));
            for p in 0..pad.players.len() {
                for c in 0..columns {
                    let cell = row.and_then(|(cells, _)| cells.get(p * columns + c));
                    let class = if c == 0 { " class=\"first\"" } else { "" };
                    let _ = write!(
                        out,
                        "<td{class}>{}</td>",
                        esc(cell.map_or("", String::as_str))
                    );
                }
            }
            let notes = row.map_or("", |(_, notes)| notes.as_str());
            let _ = writeln!(out, "<td class=\"first\">{}</td></tr>", esc(notes));
        }
        out.push_str("</tbody>\n");
        if page == last_page && !pad.totals.is_empty() {
            out.push_str("<tfoot>\n");
            for (t, (label, merged)) in pad.totals.iter().enumerate() {
                let _ = write!(out, "<tr><td>{}</td>", esc(label));
                let written = pad.filled.as_ref().and_then(|f| f.totals.get(t));
                let cell = |i: usize| written.and_then(|w| w.get(i)).map_or("", String::as_str);
                for p in 0..pad.players.len() {
                    if *merged {
                        let _ = write!(
                            out,
                            "<td colspan=\"{columns}\" class=\"first\">{}</td>",
                            esc(cell(p))
                        );
                    } else {
                        for c in 0..columns {
                            let class = if c == 0 { " class=\"first\"" } else { "" };
                            let _ = write!(out, "<td{class}>{}</td>", esc(cell(p * columns + c)));
                        }
                    }
                }
                out.push_str("<td class=\"first\"></td></tr>\n");
            }
            out.push_str("</tfoot>\n");
        }
        out.push_str("</table>\n");
        if page == last_page {
            let rows = last + 1 - first + pad.totals.len();
            let top = grid.top_mm + grid.name_mm + grid.head_mm + rows as f32 * grid.row_mm + 5.0;
            let _ = write!(out, "<div class=\"hints\" style=\"top: {}\">", mm(top));
            for hint in &pad.hints {
                let _ = write!(out, "<p>{}</p>", esc(hint));
            }
            below_grid(out, pad);
            out.push_str("</div>");
        }
        footer(out, sheet, PAD_MARGIN, width);
        out.push_str("</div>\n");
    }
}

/// The scoring rules and the strokes-and-circles columns under a score sheet's grid, as the
/// PDF sets them.
fn below_grid(out: &mut String, pad: &Pad) {
    if pad.scoring.is_none() && pad.tally.is_none() {
        return;
    }
    out.push_str("<div class=\"below\">");
    if let Some(scoring) = &pad.scoring {
        let _ = write!(
            out,
            "<section class=\"scoring\"><h2>{}</h2>",
            esc(&scoring.heading)
        );
        for block in &scoring.blocks {
            if let Block::List { numbered, items } = block {
                let tag = if *numbered { "ol" } else { "ul" };
                let _ = write!(out, "<{tag}>");
                for item in items {
                    let _ = write!(out, "<li>{}</li>", esc(item));
                }
                let _ = write!(out, "</{tag}>");
            }
        }
        out.push_str("</section>");
    }
    if let Some(tally) = &pad.tally {
        let _ = write!(
            out,
            "<section class=\"tally\"><h2>{}</h2><p>{}</p><ul class=\"marks\">\
             <li><span class=\"mark\">|</span>{}</li>\
             <li><span class=\"mark\">○</span>{}</li>\
             <li><span class=\"mark\">○<span>|</span></span>{}</li></ul><div class=\"cols\">",
            esc(&tally.heading),
            esc(&tally.how),
            esc(&tally.plus),
            esc(&tally.minus),
            esc(&tally.zero)
        );
        for player in &pad.players {
            let _ = write!(out, "<div>{}</div>", esc(player));
        }
        out.push_str("</div></section>");
    }
    out.push_str("</div>");
}

/// The sheet as one HTML page.
pub(crate) fn render(sheet: &Sheet) -> String {
    let mut css = base_css();
    let mut body = String::new();
    match &sheet.body {
        Body::Rules(s) => rules(&mut body, &mut css, sheet, s),
        Body::Card(s) => cards(&mut body, &mut css, sheet, s),
        Body::Pad(p) => pad(&mut body, &mut css, sheet, p),
    }
    format!(
        "<!DOCTYPE html>\n<html lang=\"{lang}\">\n<head>\n<meta charset=\"utf-8\">\n\
         <meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n\
         <meta name=\"generator\" content=\"torite\">\n<title>{title} — {kicker}</title>\n\
         <style>\n{css}</style>\n</head>\n<body class=\"{kind}\">\n{body}</body>\n</html>\n",
        lang = sheet.lang.code(),
        title = esc(&sheet.title),
        kicker = esc(&sheet.kicker),
        kind = sheet.kind,
    )
}
