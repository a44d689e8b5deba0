//! Words for the table, shared by the plain and the full-screen interfaces.

use torite_core::{Action, Card, CardSet, DealResult, GameEnd, Ruleset, Seat, Suit, Trump, View};
use torite_i18n::Catalog;

pub use torite_i18n::present::{columns, pad};

/// How suits are drawn (`--suits symbols|letters`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, clap::ValueEnum)]
pub enum SuitStyle {
    /// ♠ ♥ ♦ ♣
    Symbols,
    /// S H D C, which line up where the symbols are drawn two cells wide
    Letters,
}

/// Everything the interfaces need to write words.
#[derive(Debug)]
pub struct Words {
    /// The messages.
    pub catalog: Catalog,
    /// How suits are drawn.
    pub suits: SuitStyle,
    /// Display names per seat.
    pub names: Vec<String>,
    /// The human's seat.
    pub human: Seat,
}

impl Words {
    /// A message.
    pub fn t(&self, key: &str, args: &[(&str, String)]) -> String {
        self.catalog.get(key, args)
    }

    /// A seat: "Seat 2 (heuristic)" or "You".
    pub fn seat(&self, seat: Seat) -> String {
        if seat == self.human {
            format!(
                "{} ({})",
                self.catalog.seat(seat),
                self.catalog.get("seat-you", &[])
            )
        } else {
            format!("{} ({})", self.catalog.seat(seat), self.names[seat])
        }
    }

    /// A seat as a table's column or corner names it: "You", or "2:heuristic".
    pub fn short_seat(&self, seat: Seat) -> String {
        if seat == self.human {
            self.catalog.get("seat-you", &[])
        } else {
            format!("{seat}:{}", self.names[seat])
        }
    }

    /// The heading of deal `number` dealt by `dealer`, "Deal 3 of 12" where the game has a
    /// fixed number of deals.
    pub fn deal_header(&self, rules: &Ruleset, number: usize, dealer: Seat) -> String {
        let mut args = vec![
            ("number", number.to_string()),
            ("dealer", self.seat(dealer)),
        ];
        match rules.end {
            GameEnd::Deals(deals) => {
                args.push(("deals", deals.to_string()));
                self.t("play-deal-header-of", &args)
            }
            _ => self.t("deal-header", &args),
        }
    }

    /// The end of a deal as a table: a column per seat headed by its name, the tricks, the card
    /// points taken (when any were), the deal's score (Mura's as 失点, penalty points, without a
    /// sign) and the totals.
    pub fn summary_lines(&self, rules: &Ruleset, result: &DealResult) -> Vec<String> {
        let summary =
            torite_i18n::present::DealSummary::new(&self.catalog, rules, result, Some(self.human));
        let n = rules.players as usize;
        let penalty = rules.scoring.is_penalty();
        let score = self.t("score", &[]);
        let mut rows: Vec<(String, Vec<String>)> = summary
            .rows
            .into_iter()
            .map(|row| {
                if penalty && row.label == score {
                    let cells = row
                        .cells
                        .iter()
                        .map(|c| c.trim_start_matches('+').to_owned())
                        .collect();
                    (self.t("play-penalty", &[]), cells)
                } else {
                    (row.label, row.cells)
                }
            })
            .collect();
        if let Some(first) = rows.first_mut() {
            first.1 = (0..n).map(|s| self.short_seat(s)).collect();
        }
        table_lines(&rows, n)
    }
    /// A suit's mark.
    pub fn suit_mark(&self, suit: Suit) -> String {
        match self.suits {
            SuitStyle::Symbols => suit.symbol().to_string(),
            SuitStyle::Letters => suit.letter().to_string(),
        }
    }

    /// A card: `A♠` or `AS`; the joker is `JK`.
    pub fn card(&self, card: Card) -> String {
        match self.suits {
            SuitStyle::Symbols => card.symbolic(),
            SuitStyle::Letters => card.to_string(),
        }
    }

    /// An action for a player to read.
    pub fn action(&self, action: Action) -> String {
        match action {
            Action::Play(card) => self.card(card),
            other => self.catalog.action(other),
        }
    }

    /// A hand grouped by suit in the shared hand order
    /// ([`torite_i18n::present::hand_order`]): `♠ A K | ♥ Q 2 | JK`.
    pub fn hand(&self, view: &View<'_>, hand: CardSet) -> String {
        let mut groups: Vec<(Option<Suit>, Vec<String>)> = Vec::new();
        for card in torite_i18n::present::hand_order(view.rules(), view.trump(), hand) {
            let rank = card
                .rank()
                .map_or_else(|| "JK".to_owned(), |r| r.letter().to_string());
            match groups.last_mut() {
                Some((suit, ranks)) if *suit == card.suit() => ranks.push(rank),
                _ => groups.push((card.suit(), vec![rank])),
            }
        }
        groups
            .into_iter()
            .map(|(suit, ranks)| match suit {
                Some(suit) => format!("{} {}", self.suit_mark(suit), ranks.join(" ")),
                None => ranks.join(" "),
            })
            .collect::<Vec<_>>()
            .join(" | ")
    }

    /// The trump line.
    pub fn trump(&self, trump: Trump) -> String {
        match trump {
            Trump::None => self.t("trump-none", &[]),
            Trump::Suit(s) => self.t(
                "trump",
                &[(
                    "trump",
                    format!("{} {}", self.suit_mark(s), self.catalog.suit(s)),
                )],
            ),
            Trump::JokerOnly => self.t("trump-joker", &[]),
        }
    }

    /// A list of seats.
    pub fn seats(&self, seats: impl IntoIterator<Item = Seat>) -> String {
        seats
            .into_iter()
            .map(|s| self.seat(s))
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// The legal actions in order, as the menu shows them.
    pub fn menu(&self, view: &View<'_>) -> Vec<Action> {
        let legal = view.legal_actions();
        // The order of the hand's line.
        let cards = torite_i18n::present::hand_order(view.rules(), view.trump(), legal.cards);
        let mut menu: Vec<Action> = cards.into_iter().map(Action::Play).collect();
        menu.extend(legal.iter().filter(|a| !matches!(a, Action::Play(_))));
        menu
    }
}

/// Rows of a label and one cell per seat, in columns wide enough for the seats' names within
/// 70 terminal columns (names cut to fit), the label column 10 wide.
pub fn table_lines(rows: &[(String, Vec<String>)], seats: usize) -> Vec<String> {
    let widest = rows
        .iter()
        .flat_map(|(_, cells)| cells.iter().map(|c| columns(c) + 1))
        .max()
        .unwrap_or(6);
    let width = widest.clamp(6, (60 / seats.max(1)).max(6));
    rows.iter()
        .map(|(label, cells)| {
            let cells: String = cells
                .iter()
                .map(|cell| {
                    let mut cut = String::new();
                    for c in cell.chars() {
                        if columns(&format!("{cut}{c}")) >= width {
                            break;
                        }
                        cut.push(c);
                    }
                    format!("{}{cut}", " ".repeat(width - columns(&cut)))
                })
                .collect();
            format!("{}{cells}", pad(label, 10)).trim_end().to_owned()
        })
        .collect()
}

/// Characters a line may not start with (Japanese line breaking, 行頭禁則): closing brackets,
/// punctuation, the long vowel mark and small kana.
fn no_line_start(c: char) -> bool {
    "。、，．・：；？！）」』】〕〉》ー～ぁぃぅぇぉっゃゅょゎァィゥェォッャュョヮヵヶ々,.:;?!)]}%"
        .contains(c)
}

/// Characters a line may not end with (行末禁則): opening brackets.
fn no_line_end(c: char) -> bool {
    "（「『【〔〈《([{".contains(c)
}

/// `text` wrapped to `width` terminal columns, the lines after the first starting with
/// `indent`: at blanks between words, and between any two East Asian wide characters except
/// where a line would start with a closing mark (`。`, `ー`, `）`…) or end with an opening one,
/// whose neighbour then moves to the next line with it. A word longer than a line is cut.
pub fn wrap(text: &str, width: usize, indent: &str) -> Vec<String> {
    // Units: a word, one blank, or one wide character.
    let mut units: Vec<String> = Vec::new();
    let mut word = String::new();
    for c in text.chars() {
        let wide = columns(c.encode_utf8(&mut [0; 4])) > 1 || (no_line_start(c) && !c.is_ascii());
        if c == ' ' || wide {
            if !word.is_empty() {
                units.push(std::mem::take(&mut word));
            }
            units.push(c.to_string());
        } else {
            word.push(c);
        }
    }
    if !word.is_empty() {
        units.push(word);
    }
    let mut lines: Vec<String> = Vec::new();
    let mut line: Vec<String> = Vec::new();
    let room = |lines: &Vec<String>| {
        if lines.is_empty() {
            width.max(1)
        } else {
            width.saturating_sub(columns(indent)).max(1)
        }
    };
    let finish = |lines: &mut Vec<String>, line: &mut Vec<String>| {
        while line.last().is_some_and(|u| u == " ") {
            line.pop();
        }
        let prefix = if lines.is_empty() { "" } else { indent };
        lines.push(format!("{prefix}{}", line.concat()));
        line.clear();
    };
    let mut queue: std::collections::VecDeque<String> = units.into();
    while let Some(unit) = queue.pop_front() {
        let used: usize = line.iter().map(|u| columns(u)).sum();
        let limit = room(&lines);
        if used + columns(&unit) <= limit {
            if !(line.is_empty() && unit == " ") {
                line.push(unit);
            }
            continue;
        }
        if unit == " " {
            finish(&mut lines, &mut line);
            continue;
        }
        if line.is_empty() {
            // A word longer than a line: cut it.
            let mut head = String::new();
            let mut rest = String::new();
            for c in unit.chars() {
                if rest.is_empty() && columns(&format!("{head}{c}")) <= limit {
                    head.push(c);
                } else {
                    rest.push(c);
                }
            }
            line.push(head);
            finish(&mut lines, &mut line);
            if !rest.is_empty() {
                queue.push_front(rest);
            }
            continue;
        }
        // Break before `unit`, moving units down with it while the break is forbidden there.
        queue.push_front(unit);
        while line.len() > 1 {
            let starts_badly = queue
                .front()
                .and_then(|u| u.chars().next())
                .is_some_and(no_line_start);
            let ends_badly = line
                .last()
                .and_then(|u| u.chars().last())
                .is_some_and(no_line_end);
            if !(starts_badly || ends_badly) {
                break;
            }
            let last = line.pop().expect("a unit");
            queue.push_front(last);
        }
        finish(&mut lines, &mut line);
    }
    if !line.is_empty() || lines.is_empty() {
        finish(&mut lines, &mut line);
    }
    lines
}

/// A table written as `| a | b |` lines, its columns aligned: the first on the left, the
/// others on the right, two blanks apart.
pub fn table_rows(rows: &[&str]) -> Vec<String> {
    let cells: Vec<Vec<String>> = rows
        .iter()
        .map(|row| {
            row.trim()
                .trim_start_matches('|')
                .trim_end_matches('|')
                .split('|')
                .map(|c| c.trim().to_owned())
                .collect()
        })
        .collect();
    let count = cells.iter().map(Vec::len).max().unwrap_or(0);
    let widths: Vec<usize> = (0..count)
        .map(|i| {
            cells
                .iter()
                .filter_map(|row| row.get(i))
                .map(|c| columns(c))
                .max()
                .unwrap_or(0)
        })
        .collect();
    cells
        .iter()
        .map(|row| {
            let mut out = String::new();
            for (i, cell) in row.iter().enumerate() {
                let blank = " ".repeat(widths[i].saturating_sub(columns(cell)));
                if i == 0 {
                    out.push_str(cell);
                    out.push_str(&blank);
                } else {
                    out.push_str("  ");
                    out.push_str(&blank);
                    out.push_str(cell);
                }
            }
            out.trim_end().to_owned()
        })
        .collect()
}

/// Whether a line of the rules text is a row of a table (`| a | b |`).
pub fn is_table_row(line: &str) -> bool {
    let line = line.trim();
    line.len() > 1 && line.starts_with('|') && line.ends_with('|')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wrap_keeps_lines_inside_the_width_and_japanese_marks_off_a_line_start() {
        let text = "カードをすべて配ります（1人6枚）。時計回りに進みます。ディーラーの左隣が最初のトリックのリードを行い、次のディールではその人がディーラーになります。";
        for width in 10..40 {
            let lines = wrap(text, width, "  ");
            assert_eq!(
                lines.concat().replace("  ", ""),
                text.replace(' ', ""),
                "{width}"
            );
            for (i, line) in lines.iter().enumerate() {
                assert!(columns(line) <= width, "{width}: {line}");
                let body = if i == 0 { line.as_str() } else { &line[2..] };
                let first = body.chars().next().expect("a character");
                assert!(!no_line_start(first), "{width}: {lines:?}");
                assert!(!line.ends_with('（'), "{width}: {lines:?}");
            }
        }
        assert_eq!(
            wrap("A led 2 beats every card of its suit", 12, "  "),
            ["A led 2", "  beats", "  every card", "  of its", "  suit"]
        );
        assert_eq!(wrap("abcdefghij", 4, ""), ["abcd", "efgh", "ij"]);
        assert_eq!(wrap("", 4, ""), [""]);
    }

    #[test]
    fn table_rows_are_aligned_without_pipes() {
        let rows = table_rows(&[
            "| Card | A | K | 10 |",
            "| Plain suits | 11 | 4 | 10 |",
            "| トリック数 | 0 | 1 | 2 |",
        ]);
        assert_eq!(
            rows,
            [
                "Card          A  K  10",
                "Plain suits  11  4  10",
                "トリック数    0  1   2",
            ]
        );
        assert!(is_table_row("| a | b |") && !is_table_row("a stroke (|)"));
    }
}
