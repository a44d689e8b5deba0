//! Text laid out down a column: the sizes of a rules page and a score card, wrapped
//! paragraphs, lists and tables, and the scale at which a flow fits its room.

use super::*;

/// How text lines up in its box.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Align {
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
    pub(super) align_title: Align,
    /// Whether tables fill the width.
    pub(super) stretch_tables: bool,
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
pub(super) struct Flow {
    pub(super) face: &'static Face,
    pub(super) ops: Vec<Op>,
    pub(super) x: f32,
    pub(super) width: f32,
    pub(super) y: f32,
    pub(super) scale: f32,
    pub(super) sizes: Sizes,
}

impl Flow {
    pub(super) fn new(x: f32, y: f32, width: f32, scale: f32, sizes: Sizes) -> Flow {
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

    pub(super) fn baseline(&self, top: f32, line_height: f32, size: f32) -> f32 {
        top + line_height / 2.0 + size * (self.face.ascent + self.face.descent) / 2.0
    }

    /// Wrapped text at `x` (relative to the flow) in a box `width` wide; advances `y`.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn text(
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

    pub(super) fn header(&mut self, sheet: &Sheet) {
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

    pub(super) fn section(&mut self, section: &Section, first: bool) {
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

    pub(super) fn block(&mut self, block: &Block) {
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

    pub(super) fn table(&mut self, table: &Table) {
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
pub(super) fn fit(most: f32, height: f32, lay: impl Fn(f32) -> f32) -> f32 {
    let mut scale = most;
    while scale > 0.4 && lay(scale) > height {
        scale -= 0.025;
    }
    scale
}

/// Whether a rules page's table is wider than the page at full size, so that it is set with
/// its heading column a fifth of the width and the other columns equal (the HTML asks too).
pub(crate) fn too_wide(table: &Table) -> bool {
    let face = Face::get();
    let size = RULES_SIZES.table;
    let columns = table.rows.iter().map(Vec::len).max().unwrap_or(0);
    let mut widths = vec![0.0f32; columns];
    for row in &table.rows {
        for (c, cell) in row.iter().enumerate() {
            widths[c] = widths[c]
                .max(face.width(cell, size) + 1.1 * size)
                .max(size * 2.2);
        }
    }
    widths.iter().sum::<f32>() > PAGE_W - 2.0 * RULES_MARGIN_X
}
