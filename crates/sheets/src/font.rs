//! The bundled font's metrics, and line breaking for Japanese and English.

use std::sync::OnceLock;

use skrifa::charmap::Charmap;
use skrifa::instance::{LocationRef, Size};
use skrifa::metrics::GlyphMetrics;
use skrifa::{FontRef, MetadataProvider};

use crate::FONT;

/// Glyph ids and advances of the bundled font.
pub(crate) struct Face {
    charmap: Charmap<'static>,
    metrics: GlyphMetrics<'static>,
    units_per_em: f32,
    /// The ascender, in ems.
    pub ascent: f32,
    /// The descender, in ems (negative).
    pub descent: f32,
}

impl Face {
    /// The bundled font, read once.
    pub fn get() -> &'static Face {
        static FACE: OnceLock<Face> = OnceLock::new();
        FACE.get_or_init(|| {
            // The font is bundled and a test reads it: it always parses.
            let font = FontRef::new(FONT).expect("the bundled font parses");
            let metrics = font.metrics(Size::unscaled(), LocationRef::default());
            let units_per_em = f32::from(metrics.units_per_em);
            Face {
                charmap: font.charmap(),
                metrics: font.glyph_metrics(Size::unscaled(), LocationRef::default()),
                units_per_em,
                ascent: metrics.ascent / units_per_em,
                descent: metrics.descent / units_per_em,
            }
        })
    }

    /// Whether the font has a glyph for `c`.
    pub fn covers(&self, c: char) -> bool {
        self.charmap.map(c).is_some()
    }

    /// The glyph id of `c` (0, the missing glyph, if none) and its advance in ems.
    pub fn glyph(&self, c: char) -> (u32, f32) {
        let id = self.charmap.map(c).unwrap_or_default();
        let advance = self.metrics.advance_width(id).unwrap_or(0.0) / self.units_per_em;
        (id.to_u32(), advance)
    }

    /// The width of `text` at `size`.
    pub fn width(&self, text: &str, size: f32) -> f32 {
        text.chars().map(|c| self.glyph(c).1).sum::<f32>() * size
    }

    /// `text` broken into lines no wider than `width` at `size` (a word wider than a line is
    /// broken where it must).
    pub fn wrap(&self, text: &str, size: f32, width: f32) -> Vec<String> {
        let chars: Vec<char> = text.chars().collect();
        let mut lines = Vec::new();
        let mut start = 0;
        while start < chars.len() {
            // Skip spaces at the start of a line.
            while start < chars.len() && chars[start] == ' ' {
                start += 1;
            }
            if start >= chars.len() {
                break;
            }
            let mut used = 0.0;
            let mut end = start;
            let mut last_break = None;
            let mut last_good = None;
            while end < chars.len() {
                let advance = self.glyph(chars[end]).1 * size;
                if used + advance > width + 0.01 && end > start {
                    break;
                }
                used += advance;
                end += 1;
                if end < chars.len() && may_break(chars[end - 1], chars[end]) {
                    last_break = Some(end);
                    if good_break(chars[end - 1], chars[end]) {
                        last_good = Some((end, used));
                    }
                }
            }
            if end < chars.len() {
                // Break at the last opportunity, or mid-word if there was none; in Japanese,
                // at the end of a phrase (after 、 or 。, before （) when that still fills
                // most of the line, so that a line does not end in the middle of one.
                match (last_good, last_break) {
                    (Some((at, filled)), _) if filled >= width * GOOD_BREAK_FILL => end = at,
                    (_, Some(at)) => end = at,
                    _ => {}
                }
                // Never leave a line-start-forbidden mark alone at the start of the next line.
                while end < chars.len() && no_line_start(chars[end]) && end > start + 1 {
                    end -= 1;
                }
            }
            let line: String = chars[start..end].iter().collect();
            lines.push(line.trim_end().to_owned());
            start = end;
        }
        if lines.is_empty() {
            lines.push(String::new());
        }
        lines
    }
}

/// Whether a character is set as Japanese (ideographs, kana, full-width forms and marks).
fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3000..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF | 0xFF00..=0xFFEF)
}

/// Marks that may not start a line (kinsoku).
fn no_line_start(c: char) -> bool {
    matches!(
        c,
        '、' | '。'
            | '，'
            | '．'
            | '）'
            | '」'
            | '』'
            | '】'
            | '！'
            | '？'
            | '：'
            | '；'
            | '・'
            | 'ー'
            | '…'
            | 'ぁ'
            | 'ぃ'
            | 'ぅ'
            | 'ぇ'
            | 'ぉ'
            | 'っ'
            | 'ゃ'
            | 'ゅ'
            | 'ょ'
            | 'ァ'
            | 'ィ'
            | 'ゥ'
            | 'ェ'
            | 'ォ'
            | 'ッ'
            | 'ャ'
            | 'ュ'
            | 'ョ'
            | ','
            | '.'
            | ')'
            | ':'
            | ';'
            | '!'
            | '?'
    )
}

/// Marks that may not end a line.
fn no_line_end(c: char) -> bool {
    matches!(c, '（' | '「' | '『' | '【' | '(')
}

/// Whether `c` is katakana (a word written in katakana is not broken).
fn is_katakana(c: char) -> bool {
    matches!(c as u32, 0x30A1..=0x30FA | 0x30FC)
}

/// How full a line must be for a Japanese line to end at a phrase's end rather than at the
/// last character that fits.
const GOOD_BREAK_FILL: f32 = 0.75;

/// Whether a line may break between `a` and `b`: at a space, between Japanese characters
/// (but not inside a katakana word), and before a full-width opening bracket.
fn may_break(a: char, b: char) -> bool {
    if no_line_start(b) || no_line_end(a) {
        return false;
    }
    if is_katakana(a) && is_katakana(b) {
        return false;
    }
    a == ' ' || (is_cjk(a) && is_cjk(b)) || (is_cjk(a) && b == ' ') || (is_cjk(b) && no_line_end(b))
}

/// Whether a break between `a` and `b` ends a phrase: after a Japanese comma, full stop,
/// colon or closing bracket, or before an opening bracket.
fn good_break(a: char, b: char) -> bool {
    matches!(a, '、' | '。' | '）' | '」' | '：' | '，') || matches!(b, '（' | '「')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_breaks_at_spaces() {
        let face = Face::get();
        let lines = face.wrap("one two three four five six", 10.0, 60.0);
        assert!(lines.len() > 1);
        for line in &lines {
            assert!(face.width(line, 10.0) <= 60.0, "{line}");
            assert!(!line.starts_with(' ') && !line.ends_with(' '));
        }
        assert_eq!(lines.join(" "), "one two three four five six");
    }

    #[test]
    fn japanese_breaks_between_characters_but_not_before_marks() {
        let face = Face::get();
        let text = "リードされたスートのカードを持っていれば必ず出します。持っていなければ、どのカードでもかまいません。";
        let lines = face.wrap(text, 10.0, 75.0);
        assert!(lines.len() > 2);
        assert_eq!(lines.concat(), text);
        for line in &lines {
            let first = line.chars().next().unwrap();
            assert!(!no_line_start(first), "{line}");
        }
    }

    #[test]
    fn japanese_lines_end_at_a_phrase_and_keep_katakana_words_whole() {
        let face = Face::get();
        let size = 10.0;
        // Wide enough for the phrase before the bracket and a few characters more: the line
        // ends before the bracket, not inside it.
        let text = "失点: 取ったトリック数＋1（トリックなしでも1）";
        let head = "失点: 取ったトリック数＋1";
        let width = face.width(head, size) + face.width("（トリ", size);
        let lines = face.wrap(text, size, width);
        assert_eq!(lines, [head, "（トリックなしでも1）"]);
        // Narrower than a phrase: still never inside トリック.
        for width in [40.0, 55.0, 70.0] {
            for line in face.wrap(text, size, width) {
                assert!(!line.ends_with('ト') && !line.starts_with('リ'), "{line}");
            }
        }
    }

    #[test]
    fn the_font_has_the_card_symbols() {
        let face = Face::get();
        for c in "♠♥♦♣○|−→·".chars() {
            assert!(face.covers(c), "{c}");
        }
    }
}
