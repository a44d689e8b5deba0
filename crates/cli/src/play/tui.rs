//! The full-screen game (ratatui + crossterm), laid out for an 80×24 terminal: the table with
//! the seats around it in the ruleset's direction and each card of the trick in front of its
//! player, scores on top, the hand and the choices at the bottom.

use std::time::{Duration, Instant};

use ratatui::Frame;
use ratatui::crossterm::event::{self, Event as TermEvent, KeyCode, KeyEvent, KeyEventKind};
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders, Clear, Paragraph, Wrap};
use torite_core::{Action, Card, DealResult, Direction, Phase, Seat, SeatSet, Suit, Trick, View};

use super::session::{Event, Session};
use super::text::{self, Words};
use crate::Failure;

/// What covers the table.
#[derive(Clone, Debug)]
pub enum Overlay {
    /// Nothing.
    None,
    /// The rules summary.
    Rules,
    /// The last completed trick.
    LastTrick,
    /// The end of a deal.
    DealSummary(Box<DealResult>),
    /// The end of the game.
    GameOver,
    /// "Quit?"
    QuitConfirm,
    /// "Declare the Lot?", asked when a number key picks the Lot (the cursor is on it).
    LotConfirm,
    /// The review of the human's decisions in the deal that just ended (`a` on its summary):
    /// the deal's number and the lines.
    Review(usize, Vec<String>),
}

/// The interface's own state.
#[derive(Debug)]
pub struct Ui<'a> {
    /// Words.
    pub words: &'a Words,
    /// The rules summary lines.
    pub summary: &'a [String],
    /// The selected choice.
    pub cursor: usize,
    /// The message line.
    pub message: String,
    /// The overlay.
    pub overlay: Overlay,
    /// Recent events, newest last.
    pub log: Vec<String>,
    /// How far the rules overlay is scrolled.
    pub scroll: u16,
    /// The trick just completed, kept in view until a key or [`KEEP_TRICK`] has passed.
    pub kept: Option<Kept>,
    /// Worlds a decision for the review of a deal (`a`).
    pub review_worlds: u32,
}

/// A completed trick kept on the table.
#[derive(Clone, Copy, Debug)]
pub struct Kept {
    /// The trick.
    pub trick: Trick,
    /// When it goes.
    pub until: Instant,
}

/// How long a completed trick stays on the table when no key is pressed.
pub const KEEP_TRICK: Duration = Duration::from_millis(1500);

/// One thing the human can choose at the bottom of the screen.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Choice {
    /// A card of the hand, legal or not.
    Card(Card, bool),
    /// Another action (Lot, pass, a suit).
    Other(Action),
}

/// The human's choices: every card of the hand in display order (so that an illegal one can be
/// picked and explained), then the other legal actions.
pub fn choices(view: &View<'_>) -> Vec<Choice> {
    let legal = view.legal_actions();
    let cards = hand_order(view);
    let mut out: Vec<Choice> = match view.phase() {
        Phase::Play => cards
            .into_iter()
            .map(|c| Choice::Card(c, legal.cards.contains(c)))
            .collect(),
        _ => Vec::new(),
    };
    out.extend(
        legal
            .iter()
            .filter(|a| !matches!(a, Action::Play(_)))
            .map(Choice::Other),
    );
    out
}

/// The hand in display order ([`torite_i18n::present::hand_order`]).
fn hand_order(view: &View<'_>) -> Vec<Card> {
    torite_i18n::present::hand_order(view.rules(), view.trump(), view.hand())
}

/// Where seat `seat` sits on screen, relative to the human at the bottom: (x, y) in eighths of
/// the table area.
fn place(players: usize, human: Seat, seat: Seat, direction: Direction) -> (u16, u16) {
    let offset = (seat + players - human) % players;
    let spots: &[(u16, u16)] = match players {
        3 => &[(4, 7), (1, 2), (7, 2)],
        4 => &[(4, 7), (1, 4), (4, 0), (7, 4)],
        5 => &[(4, 7), (0, 5), (2, 0), (6, 0), (8, 5)],
        _ => &[(4, 7), (0, 5), (0, 0), (4, 0), (8, 0), (8, 5)],
    };
    let index = match direction {
        Direction::Clockwise => offset,
        Direction::CounterClockwise => (players - offset) % players,
    };
    spots[index.min(spots.len() - 1)]
}

fn card_span(words: &Words, card: Card) -> Span<'static> {
    let style = match card.suit() {
        Some(Suit::Hearts | Suit::Diamonds) => Style::default().fg(Color::Red),
        _ => Style::default(),
    };
    Span::styled(words.card(card), style.add_modifier(Modifier::BOLD))
}

/// The smallest terminal the full-screen table is laid out for (six seats and a twelve-card
/// hand); a smaller one is told so instead of shown a table with parts missing.
pub const MIN_SIZE: (u16, u16) = (60, 20);

/// Draws the whole screen.
pub fn draw(frame: &mut Frame<'_>, session: &Session, ui: &Ui<'_>) {
    let words = ui.words;
    let area = frame.area();
    if area.width < MIN_SIZE.0 || area.height < MIN_SIZE.1 {
        let text = words.t(
            "screen-too-small",
            &[
                ("width", area.width.to_string()),
                ("height", area.height.to_string()),
                ("min-width", MIN_SIZE.0.to_string()),
                ("min-height", MIN_SIZE.1.to_string()),
            ],
        );
        // Quitting still works: its question is asked here.
        let mut parts = vec![text];
        if matches!(ui.overlay, Overlay::QuitConfirm) {
            parts.push(words.t("quit-confirm", &[]));
        }
        let lines: Vec<Line> = parts
            .iter()
            .flat_map(|p| text::wrap(p, usize::from(area.width.max(1)), ""))
            .map(Line::from)
            .collect();
        frame.render_widget(Paragraph::new(lines), area);
        return;
    }
    let rules = session.rules();
    let [top, table, bottom] = Layout::vertical([
        Constraint::Length(3),
        Constraint::Min(9),
        Constraint::Length(7),
    ])
    .areas(area);

    // Scores.
    let totals = session.game().totals();
    let label = format!("{}:  ", words.t("total", &[]));
    // "You 3", "2:heuristic 5": the seats named as on the table, the names cut short (to
    // "2:heur…") when six seats would not fit on the line otherwise.
    let names: Vec<String> = (0..totals.len()).map(|s| words.short_seat(s)).collect();
    let marks: Vec<Option<String>> = (0..totals.len())
        .map(|s| strokes_and_circles(session, s))
        .collect();
    let room = usize::from(top.width.saturating_sub(2));
    let line_width = |cut: usize| {
        let seats: usize = names
            .iter()
            .zip(totals)
            .zip(&marks)
            .map(|((name, total), mark)| {
                let name = cut_to(name, cut);
                text::columns(&format!("{name} {total}  "))
                    + mark.as_ref().map_or(0, |m| text::columns(m) + 1)
            })
            .sum();
        text::columns(&label) + seats - 2
    };
    let mut cut = names.iter().map(|n| text::columns(n)).max().unwrap_or(0);
    while cut > 4 && line_width(cut) > room {
        cut -= 1;
    }
    let mut score_spans = vec![Span::styled(
        label.clone(),
        Style::default().add_modifier(Modifier::BOLD),
    )];
    for (seat, total) in totals.iter().enumerate() {
        let name = cut_to(&names[seat], cut);
        score_spans.push(Span::raw(format!("{name} {total}")));
        if let Some(marks) = &marks[seat] {
            score_spans.push(Span::styled(
                format!(" {marks}"),
                Style::default().fg(Color::Cyan),
            ));
        }
        score_spans.push(Span::raw("  "));
    }
    // The game's name in the player's language: both would not fit in 80 columns.
    let title = format!(
        " {} — {} ",
        words.t("app-title", &[]),
        words.catalog.preset_name(rules.base)
    );
    frame.render_widget(
        Paragraph::new(Line::from(score_spans))
            .block(Block::default().borders(Borders::ALL).title(title)),
        top,
    );

    // The table.
    let deal_title = session
        .deal()
        .map(|d| {
            format!(
                " {} ",
                words.deal_header(rules, session.deal_number(), d.dealer())
            )
        })
        .unwrap_or_default();
    let mut block = Block::default().borders(Borders::ALL).title(deal_title);
    // The trump and the Lot on the table's border, clear of every seat's corner.
    if let Some(view) = session.view() {
        let bold = Style::default().add_modifier(Modifier::BOLD);
        if rules.trump != torite_core::TrumpRule::NoTrump {
            let trump = format!(" {} ", words.trump(view.trump()));
            block = block.title(Line::styled(trump, bold).right_aligned());
        }
        let lot = view.lot().declaring() & SeatSet::all(rules.players as usize);
        if !lot.is_empty() {
            let declared = format!(
                " {} ",
                words.t("lot-declared", &[("seats", words.seats(lot))])
            );
            block = block.title_bottom(Line::styled(declared, bold).centered());
        }
    }
    let inner = block.inner(table);
    frame.render_widget(block, table);
    if let Some(view) = session.view() {
        draw_table(frame, inner, session, ui, &view);
        draw_bottom(frame, bottom, session, ui, &view);
    }

    match &ui.overlay {
        Overlay::None => {}
        Overlay::Rules => {
            let lines = help_lines(words, ui.summary, popup_width(area).saturating_sub(2));
            let title = words.t(
                "rules-title",
                &[("name", words.catalog.preset_name(rules.base))],
            );
            popup_scrolled(frame, area, &title, lines, ui.scroll);
        }
        Overlay::LastTrick => {
            let lines = match session.view().and_then(|v| v.last_trick()) {
                Some(trick) => {
                    let mut spans = Vec::new();
                    for (i, c) in trick.cards().iter().enumerate() {
                        let seat = (trick.leader + i) % rules.players as usize;
                        spans.push(Span::raw(format!("{}: ", words.seat(seat))));
                        spans.push(card_span(words, *c));
                        spans.push(Span::raw("  "));
                    }
                    vec![
                        Line::from(spans),
                        Line::from(words.t("trick-won-by", &[("seat", words.seat(trick.winner))])),
                    ]
                }
                None => vec![Line::from(words.t("last-trick-none", &[]))],
            };
            popup(frame, area, &words.t("last-trick", &[]), lines);
        }
        Overlay::DealSummary(result) => {
            let lines = summary_lines(session, words, result);
            popup(
                frame,
                area,
                &words.t(
                    "deal-summary",
                    &[("number", session.deal_number().to_string())],
                ),
                lines,
            );
        }
        Overlay::GameOver => {
            let winners = session.game().winners();
            let key = if winners.len() == 1 {
                "winner"
            } else {
                "winners"
            };
            let n = rules.players as usize;
            let results = session.game().results();
            // The running totals deal by deal, the latest ones when they do not all fit.
            let room = usize::from(area.height.saturating_sub(2)).saturating_sub(10);
            let shown = results.len().min(room.max(1));
            let mut lines = vec![
                Line::from(words.t(key, &[("seats", words.seats(winners.iter().copied()))])),
                Line::from(""),
            ];
            // The running totals under the seats' names.
            let mut rows = vec![(String::new(), (0..n).map(|s| words.short_seat(s)).collect())];
            if shown < results.len() {
                rows.push(("…".to_owned(), Vec::new()));
            }
            for (i, result) in results.iter().enumerate().skip(results.len() - shown) {
                rows.push((
                    (i + 1).to_string(),
                    result.totals[..n].iter().map(i32::to_string).collect(),
                ));
            }
            lines.extend(text::table_lines(&rows, n).into_iter().map(Line::from));
            lines.push(Line::from(""));
            lines.push(Line::from(words.t(
                "saved-to",
                &[("path", session.path().display().to_string())],
            )));
            lines.push(Line::from(words.t("press-key", &[])));
            popup(frame, area, &words.t("game-over", &[]), lines);
        }
        Overlay::Review(number, lines) => {
            let title = words.t("review-title", &[("number", number.to_string())]);
            // Wrapped here, where Japanese is kept from starting a line with `。` or `）`.
            let width = usize::from(popup_width(area).saturating_sub(2));
            let mut lines: Vec<Line<'static>> = lines
                .iter()
                .flat_map(|l| text::wrap(l, width, "  "))
                .map(Line::from)
                .collect();
            lines.push(Line::from(words.t("press-key", &[])));
            popup_scrolled(frame, area, &title, lines, ui.scroll);
        }
        Overlay::QuitConfirm => {
            popup(
                frame,
                area,
                &words.t("quit-title", &[]),
                vec![Line::from(words.t("quit-confirm", &[]))],
            );
        }
        Overlay::LotConfirm => {
            popup(
                frame,
                area,
                &words.t("action-lot", &[]),
                vec![
                    Line::from(words.t("lot-confirm", &[])),
                    Line::from(words.t("lot-confirm-keys", &[])),
                ],
            );
        }
    }
}

/// `name` cut to `width` terminal columns, its end marked `…` when cut.
fn cut_to(name: &str, width: usize) -> String {
    if text::columns(name) <= width {
        return name.to_owned();
    }
    let mut out = String::new();
    for c in name.chars() {
        if text::columns(&format!("{out}{c}…")) > width {
            break;
        }
        out.push(c);
    }
    out.push('…');
    out
}

/// A Jass score sheet's marks for a seat ([`torite_i18n::present::tally`]): `None` for games
/// not kept in strokes and circles.
pub fn strokes_and_circles(session: &Session, seat: Seat) -> Option<String> {
    let scores = session
        .game()
        .results()
        .iter()
        .map(|r| r.score.scores[seat]);
    torite_i18n::present::tally(session.rules(), scores)
}

fn summary_lines(session: &Session, words: &Words, result: &DealResult) -> Vec<Line<'static>> {
    let summary = torite_i18n::present::DealSummary::new(
        &words.catalog,
        session.rules(),
        result,
        Some(session.human()),
    );
    let mut lines: Vec<Line<'static>> = words
        .summary_lines(session.rules(), result)
        .into_iter()
        .map(Line::from)
        .collect();
    lines.push(Line::from(summary.rule));
    lines.push(Line::from(words.t("review-key", &[])));
    lines.push(Line::from(words.t("press-key", &[])));
    lines
}

/// The review popup's lines: one per decision of the human in the deal that ended last, then
/// the deal's summary and what the values mean; `worlds` worlds a decision.
pub(super) fn review_lines(session: &Session, words: &Words, worlds: u32) -> Vec<String> {
    let Some(review) = session.review(worlds) else {
        return vec![words.t("review-none", &[])];
    };
    let rules = session.rules();
    let places = crate::analyse::decimals(rules);
    let value = |d: &torite_bots::analysis::Decision, a: Action| {
        d.value_of(a)
            .map_or_else(String::new, |v| crate::analyse::signed(v, places))
    };
    let mut lines: Vec<String> = review
        .decisions
        .iter()
        .map(|d| {
            let better = if d.best == d.chosen {
                String::new()
            } else {
                words.t(
                    "review-better",
                    &[
                        ("best", words.action(d.best)),
                        ("best-value", value(d, d.best)),
                    ],
                )
            };
            words.t(
                "review-line",
                &[
                    ("trick", (d.trick + 1).to_string()),
                    ("chosen", words.action(d.chosen)),
                    ("value", value(d, d.chosen)),
                    ("better", better),
                    ("verdict", crate::analyse::verdict_words(d, &words.catalog)),
                ],
            )
        })
        .collect();
    if lines.is_empty() {
        return vec![words.t("review-none", &[])];
    }
    for s in &review.seats {
        lines.push(String::new());
        lines.push(crate::analyse::summary_line(s, rules, &words.catalog));
    }
    lines.push(words.t("review-legend", &[]));
    lines
}

/// The `?` popup's lines for an inner width of `width` columns: the keys, then the rules sheet
/// (`## ` headings bold, `- ` items as bullets, `| a | b |` tables with their columns aligned),
/// each wrapped to the width, a bullet's lines after the first indented under its text.
fn help_lines(words: &Words, summary: &[String], width: u16) -> Vec<Line<'static>> {
    let width = usize::from(width);
    let bold = Style::default().add_modifier(Modifier::BOLD);
    let mut lines = vec![Line::styled(words.t("keys-title", &[]), bold)];
    let bullet = |text: &str| {
        text::wrap(&format!("• {text}"), width, "  ")
            .into_iter()
            .map(Line::from)
            .collect::<Vec<_>>()
    };
    for key in ["keys-choose", "keys-numbers", "keys-other", "keys-marks"] {
        lines.extend(bullet(&words.t(key, &[])));
    }
    let sheet: Vec<&str> = summary
        .iter()
        .map(String::as_str)
        .filter(|l| !l.starts_with("# "))
        .collect();
    let mut i = 0;
    while i < sheet.len() {
        let line = sheet[i];
        if text::is_table_row(line) {
            let end = (i..sheet.len())
                .find(|&j| !text::is_table_row(sheet[j]))
                .unwrap_or(sheet.len());
            for row in text::table_rows(&sheet[i..end]) {
                lines.extend(text::wrap(&row, width, "  ").into_iter().map(Line::from));
            }
            i = end;
            continue;
        }
        match (line.strip_prefix("## "), line.strip_prefix("- ")) {
            (Some(heading), _) => lines.extend(
                text::wrap(heading, width, "")
                    .into_iter()
                    .map(|l| Line::styled(l, bold)),
            ),
            (None, Some(item)) => lines.extend(bullet(item)),
            (None, None) => lines.extend(text::wrap(line, width, "").into_iter().map(Line::from)),
        }
        i += 1;
    }
    lines
}

/// A popup's width on a screen of `area`.
fn popup_width(area: Rect) -> u16 {
    area.width.saturating_sub(8).min(72)
}

fn popup(frame: &mut Frame<'_>, area: Rect, title: &str, lines: Vec<Line<'static>>) {
    popup_scrolled(frame, area, title, lines, 0);
}

/// A popup as tall as its text allows, scrolled down by `scroll` lines when the text is
/// taller than the screen (↑/↓ scroll it).
fn popup_scrolled(
    frame: &mut Frame<'_>,
    area: Rect,
    title: &str,
    lines: Vec<Line<'static>>,
    scroll: u16,
) {
    let width = popup_width(area);
    let paragraph = Paragraph::new(lines).wrap(Wrap { trim: false }).block(
        Block::default()
            .borders(Borders::ALL)
            .title(format!(" {title} ")),
    );
    // As tall as the text once wrapped inside the borders (`line_count` counts the top and
    // bottom borders but takes the inner width), so that no line is cut off.
    let wrapped = u16::try_from(paragraph.line_count(width.saturating_sub(2))).unwrap_or(u16::MAX);
    let height = wrapped.min(area.height.saturating_sub(2));
    let rect = Rect {
        x: area.x + (area.width.saturating_sub(width)) / 2,
        y: area.y + (area.height.saturating_sub(height)) / 2,
        width,
        height,
    };
    let hidden = wrapped.saturating_sub(height);
    let paragraph = if hidden > 0 {
        // Say that there is more to read.
        let more = if scroll >= hidden {
            " ↑ "
        } else if scroll == 0 {
            " ↓ "
        } else {
            " ↑↓ "
        };
        paragraph.block(
            Block::default()
                .borders(Borders::ALL)
                .title(format!(" {title} "))
                .title_bottom(Line::from(more).right_aligned()),
        )
    } else {
        paragraph
    };
    // Clear one more column on each side: a double-width character of the table straddling the
    // popup's edge would otherwise swallow its border.
    let left = rect.x.saturating_sub(1).max(area.x);
    let right = (rect.x + rect.width + 1).min(area.x + area.width);
    let margin = Rect {
        x: left,
        width: right.saturating_sub(left),
        ..rect
    };
    frame.render_widget(Clear, margin);
    frame.render_widget(paragraph.scroll((scroll.min(hidden), 0)), rect);
}

/// The width of a seat's corner of the table: room for "トリック 12  点数 157".
const SEAT_WIDTH: u16 = 24;

fn draw_table(frame: &mut Frame<'_>, area: Rect, session: &Session, ui: &Ui<'_>, view: &View<'_>) {
    let words = ui.words;
    let rules = view.rules();
    let n = rules.players as usize;
    // The trick in progress, or the one just completed while it is kept in view.
    let (trick, leader, winning) = match &ui.kept {
        Some(kept) => (
            kept.trick.cards().to_vec(),
            kept.trick.leader,
            Some(kept.trick.winner),
        ),
        None => (view.current_trick().to_vec(), view.leader(), view.winning()),
    };
    let lot = view.lot();
    let points = view.card_points();
    for seat in 0..n {
        let (px, py) = place(n, session.human(), seat, rules.direction);
        let x = area.x + (area.width.saturating_sub(SEAT_WIDTH)) * px / 8;
        let y = area.y + (area.height.saturating_sub(3)) * py / 7;
        let mut name = words.short_seat(seat);
        if seat == view.dealer() {
            name.push_str(" (D)");
        }
        // Mura: a seat whose card points have reached the threshold pays no penalty.
        if let torite_core::Scoring::Mura { threshold, .. } = rules.scoring
            && points[seat] >= u32::from(threshold)
        {
            name.push_str(&format!(" {}", words.t("play-exempt", &[])));
        }
        let mut info = format!("{} {}", words.t("tricks-won", &[]), view.tricks_won()[seat]);
        if points.iter().any(|p| *p > 0) {
            info.push_str(&format!(
                "  {} {}",
                words.t("card-points", &[]),
                points[seat]
            ));
        }
        let mut style = Style::default();
        if seat == view.to_act() && !matches!(view.phase(), Phase::Over) {
            style = style.add_modifier(Modifier::REVERSED);
        }
        if lot.declaring().contains(seat) {
            name.push_str(" LOT");
        }
        let card = trick
            .iter()
            .enumerate()
            .find(|(i, _)| (leader + i) % n == seat)
            .map(|(_, c)| *c);
        let mut card_line = vec![];
        if let Some(card) = card {
            card_line.push(card_span(words, card));
            if winning == Some(seat) {
                card_line.push(Span::styled(" ★", Style::default().fg(Color::Yellow)));
            }
            if leader == seat {
                card_line.push(Span::raw(" ←"));
            }
        }
        let lines = vec![
            Line::styled(name, style),
            Line::from(info),
            Line::from(card_line),
        ];
        let rect = Rect {
            x,
            y,
            width: SEAT_WIDTH.min(area.width),
            height: 3.min(area.height),
        };
        frame.render_widget(Paragraph::new(lines), rect);
    }
}

fn draw_bottom(frame: &mut Frame<'_>, area: Rect, session: &Session, ui: &Ui<'_>, view: &View<'_>) {
    let words = ui.words;
    let mut lines = Vec::new();
    let question = match view.phase() {
        Phase::LotQuestion if session.human_to_act() => words.t("lot-question", &[]),
        Phase::CallSuit if session.human_to_act() => words.t("call-question", &[]),
        Phase::SayJoker if session.human_to_act() => words.t("joker-question", &[]),
        _ if session.human_to_act() && view.legal_actions().lot => {
            words.t("lot-question-first-card", &[])
        }
        _ if session.human_to_act() => words.t("your-turn", &[]),
        _ => words.t("thinking", &[("seat", words.seat(view.to_act()))]),
    };
    lines.push(Line::from(question));
    let human = session.human_to_act();
    let mut hand = vec![Span::raw(format!("{}: ", words.t("hand", &[])))];
    if human && view.phase() != Phase::Play {
        // The Lot question and the suit call offer no card, but the hand decides the answer:
        // it is shown on a line of its own above the choices.
        hand.extend(choice_spans(words, &choices_idle(view), None));
        lines.push(Line::from(hand));
        lines.push(Line::from(choice_spans(
            words,
            &choices(view),
            Some(ui.cursor),
        )));
    } else {
        let list = if human {
            choices(view)
        } else {
            choices_idle(view)
        };
        hand.extend(choice_spans(words, &list, human.then_some(ui.cursor)));
        lines.push(Line::from(hand));
    }
    if ui.message.is_empty() {
        let last = ui.log.last().cloned().unwrap_or_default();
        lines.push(Line::styled(last, Style::default().fg(Color::DarkGray)));
    } else {
        lines.push(Line::styled(
            ui.message.clone(),
            Style::default().fg(Color::Yellow),
        ));
    }
    lines.push(Line::styled(
        words.t(
            "help-keys",
            &[("numbers", number_keys(view.hand().len() + 1))],
        ),
        Style::default().fg(Color::DarkGray),
    ));
    frame.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(Block::default().borders(Borders::ALL)),
        area,
    );
}

/// The number keys that pick one of `choices` choices: `1–9`, and `0`, `-` and `=` for the
/// tenth to twelfth ones when there are more than nine.
fn number_keys(choices: usize) -> String {
    if choices > 9 {
        "1–9 0-=".to_owned()
    } else {
        "1–9".to_owned()
    }
}

/// The choice a number key picks: `1`–`9` the first nine, `0`, `-` and `=` the next three.
fn number_key(c: char) -> Option<usize> {
    match c {
        '1'..='9' => Some(c as usize - '1' as usize),
        '0' => Some(9),
        '-' => Some(10),
        '=' => Some(11),
        _ => None,
    }
}

/// The hand while another seat is acting: cards only.
fn choices_idle(view: &View<'_>) -> Vec<Choice> {
    hand_order(view)
        .into_iter()
        .map(|c| Choice::Card(c, false))
        .collect()
}

/// The choices as spans: cards grouped by suit, and with `cursor` (the human's turn) legal
/// ones bold, illegal ones dim and the selected one reversed.
fn choice_spans(words: &Words, list: &[Choice], cursor: Option<usize>) -> Vec<Span<'static>> {
    let mut spans = Vec::new();
    let mut last_suit = None;
    for (i, choice) in list.iter().enumerate() {
        let (text, legal, suit) = match choice {
            Choice::Card(card, legal) => (words.card(*card), *legal, card.suit()),
            Choice::Other(action) => (format!("[{}]", words.action(*action)), true, None),
        };
        if last_suit.is_some() && suit != last_suit {
            spans.push(Span::raw(" |"));
        }
        last_suit = suit;
        let mut style = match suit {
            Some(Suit::Hearts | Suit::Diamonds) => Style::default().fg(Color::Red),
            _ => Style::default(),
        };
        if cursor.is_some() {
            style = if legal {
                style.add_modifier(Modifier::BOLD)
            } else {
                style.add_modifier(Modifier::DIM)
            };
        }
        if cursor == Some(i) {
            style = style.add_modifier(Modifier::REVERSED);
        }
        spans.push(Span::raw(" "));
        spans.push(Span::styled(text, style));
    }
    spans
}

pub(super) fn log_events(ui: &mut Ui<'_>, events: &[Event]) {
    for event in events {
        let line = match event {
            Event::Acted { seat, action, .. } => match action {
                Action::Lot => ui
                    .words
                    .t("declares-lot", &[("seat", ui.words.seat(*seat))]),
                Action::Pass => ui.words.t("passes", &[("seat", ui.words.seat(*seat))]),
                Action::Call(s) => ui.words.t(
                    "calls-suit",
                    &[
                        ("seat", ui.words.seat(*seat)),
                        ("suit", ui.words.catalog.suit(*s)),
                    ],
                ),
                Action::JokerWins => ui
                    .words
                    .t("says-joker-win", &[("seat", ui.words.seat(*seat))]),
                Action::JokerLoses => ui
                    .words
                    .t("says-joker-lose", &[("seat", ui.words.seat(*seat))]),
                Action::Play(_) => continue,
            },
            Event::TrickWon(trick) => {
                ui.kept = Some(Kept {
                    trick: *trick,
                    until: Instant::now() + KEEP_TRICK,
                });
                ui.words
                    .t("trick-won-by", &[("seat", ui.words.seat(trick.winner))])
            }
        };
        ui.log.push(line);
    }
    if ui.log.len() > 20 {
        ui.log.drain(..ui.log.len() - 20);
    }
}

/// What a key press asks for.
pub(super) fn handle_key(session: &mut Session, ui: &mut Ui<'_>, key: KeyEvent) -> bool {
    // A key takes a kept trick off the table, and does nothing else.
    if ui.kept.is_some() && matches!(ui.overlay, Overlay::None) {
        ui.kept = None;
        return true;
    }
    match ui.overlay {
        Overlay::QuitConfirm => {
            if matches!(key.code, KeyCode::Char('y' | 'Y')) {
                return false;
            }
            ui.overlay = Overlay::None;
            return true;
        }
        Overlay::LotConfirm => {
            ui.overlay = Overlay::None;
            if matches!(key.code, KeyCode::Char('y' | 'Y') | KeyCode::Enter) {
                choose(session, ui);
            }
            return true;
        }
        Overlay::GameOver => return false,
        Overlay::None => {}
        Overlay::DealSummary(_) if key.code == KeyCode::Char('a') => {
            let number = session.game().results().len();
            ui.scroll = 0;
            let lines = review_lines(session, ui.words, ui.review_worlds);
            ui.overlay = Overlay::Review(number, lines);
            return true;
        }
        Overlay::Rules | Overlay::Review(..)
            if matches!(
                key.code,
                KeyCode::Down | KeyCode::PageDown | KeyCode::Up | KeyCode::PageUp
            ) =>
        {
            let step = if matches!(key.code, KeyCode::PageDown | KeyCode::PageUp) {
                10
            } else {
                1
            };
            ui.scroll = if matches!(key.code, KeyCode::Down | KeyCode::PageDown) {
                ui.scroll.saturating_add(step).min(200)
            } else {
                ui.scroll.saturating_sub(step)
            };
            return true;
        }
        _ => {
            ui.overlay = Overlay::None;
            return true;
        }
    }
    match key.code {
        KeyCode::Char('q') | KeyCode::Esc => ui.overlay = Overlay::QuitConfirm,
        KeyCode::Char('?') => {
            ui.scroll = 0;
            ui.overlay = Overlay::Rules;
        }
        KeyCode::Char('l') => ui.overlay = Overlay::LastTrick,
        KeyCode::Char('h') => {
            if let Some(hint) = session.hint() {
                ui.message = ui.words.t("hint", &[("action", ui.words.action(hint))]);
            }
        }
        KeyCode::Char('u') => undo(session, ui),
        _ if !session.human_to_act() => {}
        KeyCode::Left => ui.cursor = ui.cursor.saturating_sub(1),
        KeyCode::Right => ui.cursor += 1,
        KeyCode::Enter | KeyCode::Char(' ') => choose(session, ui),
        KeyCode::Char(c) if let Some(index) = number_key(c) => {
            ui.cursor = index;
            let lot = session.view().is_some_and(|view| {
                choices(&view).get(ui.cursor) == Some(&Choice::Other(Action::Lot))
            });
            if lot {
                // A number key is quickly pressed by mistake: the Lot is asked again.
                ui.overlay = Overlay::LotConfirm;
            } else {
                choose(session, ui);
            }
        }
        _ => {}
    }
    if let Some(view) = session.view() {
        let count = if session.human_to_act() {
            choices(&view).len()
        } else {
            0
        };
        ui.cursor = ui.cursor.min(count.saturating_sub(1));
    }
    true
}

/// A deal begins for the player: the last deal's events and messages go, and the cursor is
/// on the first legal choice.
pub(super) fn new_deal(session: &Session, ui: &mut Ui<'_>) {
    ui.log.clear();
    ui.message.clear();
    ui.cursor = first_legal(session);
}

/// After a bot's action: when the human is now to act, the cursor starts on a legal choice.
pub(super) fn turn_begins(session: &Session, ui: &mut Ui<'_>) {
    if session.human_to_act() {
        ui.cursor = first_legal(session);
    }
}

/// Takes back the human's last decision of the deal (`u`), the bots' actions after it with it.
fn undo(session: &mut Session, ui: &mut Ui<'_>) {
    ui.message = match session.undo() {
        Ok(true) => {
            ui.log.clear();
            ui.cursor = first_legal(session);
            ui.words.t("play-undone", &[])
        }
        Ok(false) => ui.words.t("undo-none", &[]),
        Err(e) => e.message,
    };
}

/// The first legal choice of the human's turn (0 when there is none).
pub(super) fn first_legal(session: &Session) -> usize {
    session
        .view()
        .filter(|_| session.human_to_act())
        .and_then(|view| {
            choices(&view)
                .iter()
                .position(|c| !matches!(c, Choice::Card(_, false)))
        })
        .unwrap_or(0)
}

fn choose(session: &mut Session, ui: &mut Ui<'_>) {
    let Some(view) = session.view() else { return };
    let Some(choice) = choices(&view).get(ui.cursor).copied() else {
        return;
    };
    let action = match choice {
        Choice::Card(card, _) => Action::Play(card),
        Choice::Other(action) => action,
    };
    match session.play(action) {
        Ok(events) => {
            ui.message.clear();
            log_events(ui, &events);
        }
        Err(e) => {
            ui.message = ui.words.t(
                "illegal",
                &[
                    ("action", ui.words.action(action)),
                    ("reason", ui.words.catalog.play_error(&e)),
                ],
            );
        }
    }
}

/// Runs the full-screen game until it ends or the player quits.
pub fn run(
    session: &mut Session,
    words: &Words,
    summary: &[String],
    fast: bool,
) -> Result<String, Failure> {
    let mut terminal = ratatui::init();
    let result = event_loop(&mut terminal, session, words, summary, fast);
    ratatui::restore();
    result?;
    let path = session.path().display().to_string();
    Ok(format!(
        "{}\n{}\n",
        words.t("saved-to", &[("path", path.clone())]),
        if session.game().is_finished() {
            String::new()
        } else {
            words.t("resume-with", &[("path", path)])
        }
    ))
}

fn event_loop(
    terminal: &mut ratatui::DefaultTerminal,
    session: &mut Session,
    words: &Words,
    summary: &[String],
    fast: bool,
) -> Result<(), Failure> {
    let io = |e: std::io::Error| Failure::input(format!("terminal: {e}"));
    let mut ui = Ui {
        words,
        summary,
        cursor: first_legal(session),
        message: String::new(),
        overlay: Overlay::None,
        log: Vec::new(),
        scroll: 0,
        kept: None,
        review_worlds: torite_bots::analysis::DEFAULT_WORLDS,
    };
    let bot_pause = Duration::from_millis(if fast { 60 } else { 450 });
    let mut next_bot = Instant::now();
    loop {
        terminal.draw(|f| draw(f, session, &ui)).map_err(io)?;
        if ui.kept.is_some_and(|kept| Instant::now() >= kept.until) {
            ui.kept = None;
            next_bot = Instant::now() + bot_pause;
            continue;
        }
        if matches!(ui.overlay, Overlay::None) && ui.kept.is_none() {
            if session.is_finished() {
                ui.overlay = Overlay::GameOver;
                continue;
            }
            if session.start_deal_if_needed()? {
                new_deal(session, &mut ui);
                continue;
            }
            if let Some(result) = session.finish_deal()? {
                ui.overlay = Overlay::DealSummary(Box::new(result));
                continue;
            }
            if !session.human_to_act() && Instant::now() >= next_bot {
                if let Some(events) = session.step_bot()? {
                    log_events(&mut ui, &events);
                    turn_begins(session, &mut ui);
                }
                next_bot = Instant::now() + bot_pause;
                continue;
            }
        }
        let wait = if let Some(kept) = ui.kept {
            kept.until.saturating_duration_since(Instant::now())
        } else if session.human_to_act() || !matches!(ui.overlay, Overlay::None) {
            Duration::from_millis(250)
        } else {
            next_bot.saturating_duration_since(Instant::now())
        };
        if event::poll(wait).map_err(io)?
            && let TermEvent::Key(key) = event::read().map_err(io)?
            && key.kind == KeyEventKind::Press
            && !handle_key(session, &mut ui, key)
        {
            return Ok(());
        }
    }
}
