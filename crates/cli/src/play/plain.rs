//! `torite play --plain`: the game as lines of text on standard input and output, for screen
//! readers, pipes and scripted tests. No escape codes.

use std::io::{BufRead, Write};

use torite_core::{Action, DealResult, Trump};

use super::session::{Event, Session};
use super::text::Words;
use crate::Failure;

/// Runs the game on `input` and `output` until it ends or the input does.
pub fn run(
    session: &mut Session,
    words: &Words,
    rules_summary: &[String],
    input: &mut dyn BufRead,
    output: &mut dyn Write,
) -> Result<(), Failure> {
    let io = |e: std::io::Error| Failure::input(format!("cannot write: {e}"));
    let rules = *session.rules();
    writeln!(
        output,
        "== {} ==",
        torite_i18n::present::both_names(rules.base)
    )
    .map_err(io)?;
    writeln!(
        output,
        "{}",
        words.t("you-are", &[("seat", words.catalog.seat(session.human()))])
    )
    .map_err(io)?;
    writeln!(output, "{}", words.t("help-plain", &[])).map_err(io)?;
    // Whether the hand was just shown under a deal's header, with nothing played since.
    let mut hand_shown = false;
    // After an undo, a forced move is asked for instead of played at once, so that another
    // undo can go back further.
    let mut ask_forced = false;
    loop {
        if session.is_finished() {
            game_over(session, words, output).map_err(io)?;
            return Ok(());
        }
        if session.start_deal_if_needed()? {
            let deal = session.deal().expect("a deal was just started");
            writeln!(
                output,
                "\n{}",
                words.deal_header(&rules, session.deal_number(), deal.dealer())
            )
            .map_err(io)?;
            if let Some(view) = session.view() {
                hand_shown = true;
                writeln!(
                    output,
                    "{}: {}",
                    words.t("hand", &[]),
                    words.hand(&view, view.hand())
                )
                .map_err(io)?;
            }
        }
        if let Some(result) = session.finish_deal()? {
            deal_summary(session, words, &result, output).map_err(io)?;
            continue;
        }
        let trump = session.deal().map(|d| d.trump());
        if let Some(events) = session.step_bot()? {
            hand_shown = false;
            show_events(words, &events, output).map_err(io)?;
            trump_set(session, words, trump, &events, output).map_err(io)?;
            continue;
        }
        if !session.human_to_act() {
            continue;
        }
        let view = session.view().expect("the human is to act");
        let menu = words.menu(&view);
        // A move that is the only one possible is played with a notice, not asked for.
        if menu.len() == 1 && !std::mem::take(&mut ask_forced) {
            let action = menu[0];
            let trump = view.trump();
            writeln!(
                output,
                "{}",
                words.t("forced-move", &[("action", words.action(action))])
            )
            .map_err(io)?;
            let events = session
                .play(action)
                .map_err(|e| Failure::input(words.catalog.play_error(&e)))?;
            hand_shown = false;
            show_events(words, &events, output).map_err(io)?;
            trump_set(session, words, Some(trump), &events, output).map_err(io)?;
            continue;
        }
        if !view.current_trick().is_empty() {
            let cards: Vec<String> = view
                .current_trick()
                .iter()
                .enumerate()
                .map(|(i, c)| {
                    format!(
                        "{} {}",
                        words.seat((view.leader() + i) % rules.players as usize),
                        words.card(*c)
                    )
                })
                .collect();
            let winning = view
                .winning()
                .map(|w| words.t("winning", &[("seat", words.seat(w))]))
                .unwrap_or_default();
            writeln!(
                output,
                "{}: {} ({winning})",
                words.t(
                    "trick",
                    &[("number", (view.tricks_completed() + 1).to_string())]
                ),
                cards.join(", ")
            )
            .map_err(io)?;
        }
        if rules.trump != torite_core::TrumpRule::NoTrump {
            writeln!(output, "{}", words.trump(view.trump())).map_err(io)?;
        }
        // A player who leads the deal's first trick was shown the hand just above.
        if !std::mem::take(&mut hand_shown) {
            writeln!(
                output,
                "{}: {}",
                words.t("hand", &[]),
                words.hand(&view, view.hand())
            )
            .map_err(io)?;
        }
        match view.phase() {
            torite_core::Phase::LotQuestion => {
                writeln!(output, "{}", words.t("lot-question", &[])).map_err(io)?
            }
            torite_core::Phase::CallSuit => {
                writeln!(output, "{}", words.t("call-question", &[])).map_err(io)?
            }
            torite_core::Phase::SayJoker => {
                writeln!(output, "{}", words.t("joker-question", &[])).map_err(io)?
            }
            _ if view.legal_actions().lot => {
                writeln!(output, "{}", words.t("lot-question-first-card", &[])).map_err(io)?;
            }
            _ => {}
        }
        let listed: Vec<String> = menu
            .iter()
            .enumerate()
            .map(|(i, a)| format!("{}) {}", i + 1, words.action(*a)))
            .collect();
        writeln!(
            output,
            "{} {}",
            words.t("your-turn", &[]),
            words.t("legal-actions", &[("actions", listed.join("  "))])
        )
        .map_err(io)?;
        write!(
            output,
            "{} ",
            words.t(
                "choose",
                &[("keys", format!("1-{}, ?, h, l, s, u, q", menu.len()))]
            )
        )
        .map_err(io)?;
        output.flush().map_err(io)?;
        let mut line = String::new();
        if input
            .read_line(&mut line)
            .map_err(|e| Failure::input(format!("cannot read input: {e}")))?
            == 0
        {
            writeln!(
                output,
                "\n{}",
                words.t(
                    "saved-to",
                    &[("path", session.path().display().to_string())]
                )
            )
            .map_err(io)?;
            writeln!(
                output,
                "{}",
                words.t(
                    "resume-with",
                    &[("path", session.path().display().to_string())]
                )
            )
            .map_err(io)?;
            return Ok(());
        }
        let answer = line.trim();
        let view_trump = view.trump();
        match answer {
            "" => {}
            "?" => {
                for l in rules_summary {
                    // Plain text: the sheet's heading marks are dropped.
                    let text = l.trim_start_matches('#').trim_start();
                    writeln!(output, "  {text}").map_err(io)?;
                }
            }
            "h" | "H" => {
                if let Some(hint) = session.hint() {
                    writeln!(
                        output,
                        "{}",
                        words.t("hint", &[("action", words.action(hint))])
                    )
                    .map_err(io)?;
                }
            }
            "a" | "A" if !session.game().results().is_empty() => {
                let number = session.game().results().len().to_string();
                writeln!(output, "{}", words.t("review-title", &[("number", number)]))
                    .map_err(io)?;
                let lines =
                    super::tui::review_lines(session, words, torite_bots::analysis::DEFAULT_WORLDS);
                for l in lines.iter().filter(|l| !l.is_empty()) {
                    writeln!(output, "  {l}").map_err(io)?;
                }
            }
            "l" | "L" => match view.last_trick() {
                Some(trick) => {
                    let cards: Vec<String> = trick
                        .cards()
                        .iter()
                        .enumerate()
                        .map(|(i, c)| {
                            format!(
                                "{} {}",
                                words.seat((trick.leader + i) % rules.players as usize),
                                words.card(*c)
                            )
                        })
                        .collect();
                    writeln!(
                        output,
                        "{}: {} → {}",
                        words.t("last-trick", &[]),
                        cards.join(", "),
                        words.seat(trick.winner)
                    )
                    .map_err(io)?;
                }
                None => writeln!(output, "{}", words.t("last-trick-none", &[])).map_err(io)?,
            },
            "s" | "S" => {
                writeln!(output, "{}", scores_so_far(session, words)).map_err(io)?;
            }
            "u" | "U" | "undo" => {
                let key = if session.undo()? {
                    ask_forced = true;
                    "play-undone"
                } else {
                    "undo-none"
                };
                writeln!(output, "{}", words.t(key, &[])).map_err(io)?;
            }
            "q" | "Q" | "quit" => {
                write!(output, "{} ", words.t("quit-confirm-plain", &[])).map_err(io)?;
                output.flush().map_err(io)?;
                let mut sure = String::new();
                input
                    .read_line(&mut sure)
                    .map_err(|e| Failure::input(format!("cannot read input: {e}")))?;
                // Only a yes quits (the end of the input too: nothing more can be asked).
                let yes =
                    sure.is_empty() || matches!(sure.trim(), "y" | "Y" | "yes" | "はい" | "ｙ");
                if !yes {
                    continue;
                }
                writeln!(
                    output,
                    "{}",
                    words.t(
                        "saved-to",
                        &[("path", session.path().display().to_string())]
                    )
                )
                .map_err(io)?;
                writeln!(
                    output,
                    "{}",
                    words.t(
                        "resume-with",
                        &[("path", session.path().display().to_string())]
                    )
                )
                .map_err(io)?;
                return Ok(());
            }
            _ => {
                let action = match answer.parse::<usize>() {
                    Ok(i) if (1..=menu.len()).contains(&i) => Some(menu[i - 1]),
                    Ok(_) => None,
                    Err(_) => answer.parse::<Action>().ok(),
                };
                match action {
                    None => writeln!(
                        output,
                        "{}",
                        words.t("unknown-input", &[("input", answer.to_owned())])
                    )
                    .map_err(io)?,
                    Some(action) => match session.play(action) {
                        Ok(events) => {
                            show_events(words, &events, output).map_err(io)?;
                            trump_set(session, words, Some(view_trump), &events, output)
                                .map_err(io)?;
                        }
                        Err(e) => writeln!(
                            output,
                            "{}",
                            words.t(
                                "illegal",
                                &[
                                    ("action", words.action(action)),
                                    ("reason", words.catalog.play_error(&e))
                                ]
                            )
                        )
                        .map_err(io)?,
                    },
                }
            }
        }
    }
}

fn show_events(words: &Words, events: &[Event], output: &mut dyn Write) -> std::io::Result<()> {
    for event in events {
        match event {
            Event::Acted { seat, action, led } => {
                let who = words.seat(*seat);
                let line = match action {
                    Action::Play(card) if *led => {
                        words.t("leads-card", &[("seat", who), ("card", words.card(*card))])
                    }
                    Action::Play(card) => {
                        words.t("plays", &[("seat", who), ("card", words.card(*card))])
                    }
                    Action::Lot => words.t("declares-lot", &[("seat", who)]),
                    Action::Pass => words.t("passes", &[("seat", who)]),
                    Action::Call(suit) => words.t(
                        "calls-suit",
                        &[("seat", who), ("suit", words.catalog.suit(*suit))],
                    ),
                    Action::JokerWins => words.t("says-joker-win", &[("seat", who)]),
                    Action::JokerLoses => words.t("says-joker-lose", &[("seat", who)]),
                };
                writeln!(output, "{line}")?;
            }
            Event::TrickWon(trick) => {
                writeln!(
                    output,
                    "{}",
                    words.t("trick-won-by", &[("seat", words.seat(trick.winner))])
                )?;
            }
        }
    }
    Ok(())
}

/// Says who made a suit trump, when the events just shown did (the first card off suit, under
/// the rules that set trump so), or that the deal now has its trump.
fn trump_set(
    session: &Session,
    words: &Words,
    before: Option<Trump>,
    events: &[Event],
    output: &mut dyn Write,
) -> std::io::Result<()> {
    // The deal that the events belong to: the one in progress, or the one they ended.
    let Some(deal) = session.deal() else {
        return Ok(());
    };
    let now = deal.trump();
    if before.is_none_or(|b| b == now) || now == Trump::None {
        return Ok(());
    }
    let Trump::Suit(suit) = now else {
        return writeln!(output, "{}", words.trump(now));
    };
    let setter = events.iter().find_map(|e| match e {
        Event::Acted {
            seat,
            action: Action::Play(card),
            led: false,
        } if card.suit() == Some(suit) => Some(*seat),
        _ => None,
    });
    match setter {
        Some(seat) => writeln!(
            output,
            "{}",
            words.t(
                "trump-set-by",
                &[("seat", words.seat(seat)), ("trump", words.trump(now))]
            )
        ),
        None => writeln!(output, "{}", words.trump(now)),
    }
}

/// The totals so far, seat by seat, with the deals played.
fn scores_so_far(session: &Session, words: &Words) -> String {
    let game = session.game();
    let totals: Vec<String> = game
        .totals()
        .iter()
        .enumerate()
        .map(|(seat, total)| format!("{} {total}", words.seat(seat)))
        .collect();
    words.catalog.get_counted(
        "scores-so-far",
        &[("totals", totals.join(", "))],
        &[("deals", game.results().len() as i64)],
    )
}

fn deal_summary(
    session: &Session,
    words: &Words,
    result: &DealResult,
    output: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(
        output,
        "\n{}",
        words.t(
            "deal-summary",
            &[("number", session.deal_number().to_string())]
        )
    )?;
    let summary = torite_i18n::present::DealSummary::new(
        &words.catalog,
        session.rules(),
        result,
        Some(session.human()),
    );
    for line in words.summary_lines(session.rules(), result) {
        writeln!(output, "  {line}")?;
    }
    writeln!(output, "  {}", summary.rule)?;
    if !session.is_finished() {
        writeln!(output, "  {}", words.t("review-key-plain", &[]))?;
    }
    Ok(())
}

fn game_over(session: &Session, words: &Words, output: &mut dyn Write) -> std::io::Result<()> {
    let winners = session.game().winners();
    writeln!(output, "\n== {} ==", words.t("game-over", &[]))?;
    let key = if winners.len() == 1 {
        "winner"
    } else {
        "winners"
    };
    writeln!(
        output,
        "{}",
        words.t(key, &[("seats", words.seats(winners.iter().copied()))])
    )?;
    writeln!(
        output,
        "{}",
        words.t(
            "saved-to",
            &[("path", session.path().display().to_string())]
        )
    )
}
