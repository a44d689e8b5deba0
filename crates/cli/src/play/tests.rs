//! Snapshot tests of the full-screen game: whole screens drawn on a ratatui `TestBackend` of
//! 80×24 cells in both languages, driven with the same key handling as the terminal and
//! compared with the text files in `tests/data/screens/`.
//!
//! The games are seeded and the bots are the deterministic `heuristic` bot, so every screen
//! is the same on every run. To write the files again after a deliberate change of the
//! screens, run `UPDATE_SCREENS=1 cargo test -p torite-cli --bin torite screens` and review
//! the diff.

use std::path::{Path, PathBuf};

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::style::Modifier;
use torite_core::{Phase, Preset, Ruleset, Seat, Trump};
use torite_i18n::{Catalog, Lang};

use super::session::Session;
use super::text::{SuitStyle, Words};
use super::tui::{self, Choice, Overlay, Ui};

/// A game at the table, as `torite play` sets it up (Japanese draws suits as letters).
struct Table {
    session: Session,
    words: Words,
    summary: Vec<String>,
    /// Where the game is saved, to remove at the end.
    saved: PathBuf,
}

fn scratch(name: &str) -> PathBuf {
    std::env::temp_dir().join(format!("torite-screens-{}-{name}.json", std::process::id()))
}

/// Removes a saved game once its test is done.
fn remove(path: &Path) {
    let _ = std::fs::remove_file(path);
}

fn table(preset: &str, seed: u64, lang: Lang, name: &str) -> Table {
    let rules = Preset::from_id(preset).expect("a preset").ruleset();
    table_of(rules, seed, lang, name)
}

fn table_of(rules: Ruleset, seed: u64, lang: Lang, name: &str) -> Table {
    let catalog = Catalog::new(lang);
    let you = catalog.get("seat-you", &[]);
    let saved = scratch(&format!("{name}-{lang}"));
    let session = Session::new(
        rules,
        0,
        &[torite_bots::BotSpec::STRONGEST],
        seed,
        &you,
        saved.clone(),
    )
    .expect("a session");
    let words = Words {
        catalog,
        suits: if lang == Lang::Ja {
            SuitStyle::Letters
        } else {
            SuitStyle::Symbols
        },
        names: session.names().to_vec(),
        human: session.human(),
    };
    let summary = super::rules_text(session.rules(), words.catalog.lang());
    Table {
        session,
        words,
        summary,
        saved,
    }
}

fn new_ui<'a>(words: &'a Words, summary: &'a [String]) -> Ui<'a> {
    Ui {
        words,
        summary,
        cursor: 0,
        message: String::new(),
        overlay: Overlay::None,
        log: Vec::new(),
        scroll: 0,
        kept: None,
        review_worlds: 8,
    }
}

fn press(session: &mut Session, ui: &mut Ui<'_>, code: KeyCode) -> bool {
    tui::handle_key(session, ui, KeyEvent::new(code, KeyModifiers::NONE))
}

/// What the terminal's event loop does between key presses, without its pauses: the game-over
/// screen, a new deal, a deal's summary or one bot action. Whether anything happened.
fn tick(session: &mut Session, ui: &mut Ui<'_>) -> bool {
    if !matches!(ui.overlay, Overlay::None) {
        return false;
    }
    if ui.kept.is_some() {
        // Its time passes.
        ui.kept = None;
        return true;
    }
    if session.is_finished() {
        ui.overlay = Overlay::GameOver;
        return true;
    }
    if session.start_deal_if_needed().expect("a deal starts") {
        tui::new_deal(session, ui);
        return true;
    }
    if let Some(result) = session.finish_deal().expect("the deal is scored") {
        ui.overlay = Overlay::DealSummary(Box::new(result));
        return true;
    }
    match session.step_bot().expect("the bot acts") {
        Some(events) => {
            tui::log_events(ui, &events);
            tui::turn_begins(session, ui);
            true
        }
        None => false,
    }
}

/// Plays on until `stop` holds, pressing keys as a player would: any key to close a summary,
/// and the first legal choice (arrows, then Enter) when it is the human's turn.
fn play_until(session: &mut Session, ui: &mut Ui<'_>, stop: impl Fn(&Session, &Ui<'_>) -> bool) {
    for _ in 0..100_000 {
        if stop(session, ui) {
            return;
        }
        if tick(session, ui) {
            continue;
        }
        match ui.overlay {
            Overlay::None => {}
            Overlay::GameOver => panic!("the game ended first"),
            _ => {
                press(session, ui, KeyCode::Enter);
                continue;
            }
        }
        let view = session.view().expect("the human is to act");
        let legal = tui::choices(&view)
            .iter()
            .position(|c| !matches!(c, Choice::Card(_, false)))
            .expect("a legal choice");
        ui.cursor = 0;
        for _ in 0..legal {
            press(session, ui, KeyCode::Right);
        }
        assert_eq!(ui.cursor, legal);
        assert!(press(session, ui, KeyCode::Enter));
        assert!(ui.message.is_empty(), "{}", ui.message);
    }
    panic!("the stop condition never held");
}

fn human_in_trick(session: &Session, ui: &Ui<'_>) -> bool {
    matches!(ui.overlay, Overlay::None)
        && session.human_to_act()
        && session
            .view()
            .is_some_and(|v| v.tricks_completed() >= 1 && !v.current_trick().is_empty())
}

/// Draws the screen; returns the terminal to inspect styles.
fn draw(session: &Session, ui: &Ui<'_>) -> Terminal<TestBackend> {
    let mut terminal = Terminal::new(TestBackend::new(80, 24)).expect("a test terminal");
    terminal
        .draw(|f| tui::draw(f, session, ui))
        .expect("the screen is drawn");
    terminal
}

/// The screen as text: one line per row, wide characters once, trailing blanks removed.
fn text(terminal: &Terminal<TestBackend>) -> String {
    let buffer = terminal.backend().buffer();
    let mut out = String::new();
    for y in 0..buffer.area.height {
        let mut line = String::new();
        let mut hidden = 0usize;
        for x in 0..buffer.area.width {
            let symbol = buffer[(x, y)].symbol();
            if hidden > 0 {
                hidden -= 1;
                continue;
            }
            line.push_str(symbol);
            hidden = ratatui::text::Span::raw(symbol).width().saturating_sub(1);
        }
        out.push_str(line.trim_end());
        out.push('\n');
    }
    out
}

/// Compares the screen with `tests/data/screens/NAME.LANG.txt` (or writes it with
/// `UPDATE_SCREENS=1`), and returns its text for further checks.
fn snapshot(name: &str, lang: Lang, session: &Session, ui: &Ui<'_>) -> String {
    let screen = text(&draw(session, ui));
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/screens")
        .join(format!("{name}.{lang}.txt"));
    if std::env::var_os("UPDATE_SCREENS").is_some_and(|v| v != "0" && !v.is_empty()) {
        std::fs::create_dir_all(path.parent().expect("a folder")).expect("the folder is made");
        std::fs::write(&path, &screen).expect("the screen is written");
        return screen;
    }
    let expected = std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}\nthe screen was:\n{screen}\n(UPDATE_SCREENS=1 writes it)",
            path.display()
        )
    });
    if expected != screen {
        let diff: Vec<String> = expected
            .lines()
            .zip(screen.lines())
            .enumerate()
            .filter(|(_, (e, a))| e != a)
            .map(|(i, (e, a))| format!("row {i:2} expected |{e}\n       actual   |{a}"))
            .collect();
        panic!(
            "{} differs:\n{}\nthe screen is:\n{screen}\n(UPDATE_SCREENS=1 writes it again)",
            path.display(),
            diff.join("\n")
        );
    }
    screen
}

fn t(lang: Lang, key: &str, args: &[(&str, String)]) -> String {
    Catalog::new(lang).get(key, args)
}

fn seat_name(lang: Lang, seat: Seat, name: &str) -> String {
    format!(
        "{} ({name})",
        t(lang, "seat", &[("seat", seat.to_string())])
    )
}

fn no_overlay(session: &Session, ui: &Ui<'_>) -> bool {
    matches!(ui.overlay, Overlay::None) && session.human_to_act()
}

/// Mini Misère, four players: the human (seat 0, dealer of the second deal, last to play) in
/// that deal's second trick, then `?`, `l` and an illegal card on the same table.
#[test]
fn screens_mini_misere_mid_trick_rules_last_trick_and_illegal_card() {
    for lang in Lang::ALL {
        let Table {
            mut session,
            words,
            summary,
            saved,
        } = table("mini-misere-4", 3, lang, "mid-trick");
        let mut ui = new_ui(&words, &summary);
        play_until(&mut session, &mut ui, human_in_trick);
        let view = session.view().expect("a deal");
        assert_eq!(view.tricks_completed(), 1);
        assert_eq!(view.current_trick().len(), 3);
        let screen = snapshot("mini-misere-4-mid-trick", lang, &session, &ui);
        let title = match lang {
            Lang::En => "Mini Misère (current rules, 4 players)",
            Lang::Ja => "ミニミゼール（現行ルール・4人）",
        };
        for expected in [
            title.to_owned(),
            t(
                lang,
                "deal-header",
                &[
                    ("number", "2".into()),
                    ("dealer", seat_name(lang, 0, &t(lang, "seat-you", &[]))),
                ],
            ),
            t(lang, "your-turn", &[]),
            format!("{}: ", t(lang, "hand", &[])),
            t(
                lang,
                "trick-won-by",
                &[("seat", seat_name(lang, 1, "heuristic"))],
            ),
            t(lang, "help-keys", &[("numbers", "1–9".to_owned())]),
            "★ ←".to_owned(),
        ] {
            assert!(
                screen.contains(&expected),
                "{lang}: no {expected:?} in\n{screen}"
            );
        }
        // Every card of the hand is listed, in the language's card notation.
        for card in view.hand().iter() {
            let code = match lang {
                Lang::En => card.symbolic(),
                Lang::Ja => card.to_string(),
            };
            assert!(screen.contains(&code), "{lang}: {code} not shown");
        }

        assert!(press(&mut session, &mut ui, KeyCode::Char('?')));
        assert!(matches!(ui.overlay, Overlay::Rules));
        let screen = snapshot("mini-misere-4-rules", lang, &session, &ui);
        // The summary starts at its first section; scrolling down reaches its last line.
        let first = summary[2].trim_start_matches("## ");
        assert!(screen.contains(first), "{lang}: no {first:?} in\n{screen}");
        for _ in 0..4 {
            assert!(press(&mut session, &mut ui, KeyCode::PageDown));
        }
        assert!(matches!(ui.overlay, Overlay::Rules));
        let screen = snapshot("mini-misere-4-rules-end", lang, &session, &ui);
        let last = summary.last().expect("a summary");
        let tail: String = last
            .chars()
            .rev()
            .take(12)
            .collect::<Vec<_>>()
            .into_iter()
            .rev()
            .collect();
        assert!(
            screen.contains(tail.trim()),
            "{lang}: no {tail:?} after scrolling in\n{screen}"
        );
        assert!(press(&mut session, &mut ui, KeyCode::Char('x')));
        assert!(matches!(ui.overlay, Overlay::None));

        assert!(press(&mut session, &mut ui, KeyCode::Char('l')));
        assert!(matches!(ui.overlay, Overlay::LastTrick));
        let screen = snapshot("mini-misere-4-last-trick", lang, &session, &ui);
        let last = session
            .view()
            .and_then(|v| v.last_trick())
            .expect("a trick");
        assert!(
            screen.contains(&t(
                lang,
                "trick-won-by",
                &[("seat", words.seat(last.winner))]
            )),
            "{lang}: the last trick's winner is not shown"
        );
        assert!(press(&mut session, &mut ui, KeyCode::Esc));
        assert!(matches!(ui.overlay, Overlay::None));

        // A card that does not follow suit: picked, explained, not played.
        let view = session.view().expect("a deal");
        let list = tui::choices(&view);
        let bad = list
            .iter()
            .position(|c| matches!(c, Choice::Card(_, false)))
            .expect("a card that cannot be played");
        let Choice::Card(card, _) = list[bad] else {
            unreachable!()
        };
        let led = view.current_trick()[0].suit().expect("a suit was led");
        let before = view.hand();
        ui.cursor = bad;
        assert!(press(&mut session, &mut ui, KeyCode::Enter));
        assert_eq!(session.view().expect("a deal").hand(), before);
        let reason = words
            .catalog
            .play_error(&torite_core::PlayError::MustFollow { led });
        assert_eq!(
            ui.message,
            t(
                lang,
                "illegal",
                &[("action", words.card(card)), ("reason", reason)]
            )
        );
        let screen = snapshot("mini-misere-4-illegal-card", lang, &session, &ui);
        assert!(screen.contains(&ui.message), "{lang}: {screen}");
        remove(&saved);
    }
}

/// Mittlere Jass, three players: the human's turn once a trump suit is set, then the summary
/// of the first deal with its card points.
#[test]
fn screens_mittlere_jass_trump_and_deal_summary() {
    for lang in Lang::ALL {
        let Table {
            mut session,
            words,
            summary,
            saved,
        } = table("mittlere-jass", 7, lang, "jass");
        let mut ui = new_ui(&words, &summary);
        play_until(&mut session, &mut ui, |s, ui| {
            human_in_trick(s, ui) && s.view().is_some_and(|v| v.trump() != Trump::None)
        });
        let view = session.view().expect("a deal");
        let screen = snapshot("mittlere-jass-trump", lang, &session, &ui);
        assert!(
            screen.contains(&words.trump(view.trump())),
            "{lang}: {screen}"
        );
        // Each seat's tricks and card points are shown whole.
        for (seat, points) in view.card_points().iter().enumerate() {
            let info = format!(
                "{} {}  {} {points}",
                t(lang, "tricks-won", &[]),
                view.tricks_won()[seat],
                t(lang, "card-points", &[])
            );
            assert!(screen.contains(&info), "{lang}: no {info:?} in\n{screen}");
        }

        play_until(&mut session, &mut ui, |_, ui| {
            matches!(ui.overlay, Overlay::DealSummary(_))
        });
        let Overlay::DealSummary(result) = &ui.overlay else {
            unreachable!()
        };
        assert_eq!(result.facts.points[..3].iter().sum::<u32>(), 157);
        let rule = t(
            lang,
            "rule-applied",
            &[("rule", words.catalog.score_rule(result.score.rule))],
        );
        let screen = snapshot("mittlere-jass-deal-summary", lang, &session, &ui);
        assert!(screen.contains(&rule), "{lang}: {screen}");
        assert!(screen.contains(&t(lang, "press-key", &[])));
        // A key closes the summary and the next deal starts.
        assert!(press(&mut session, &mut ui, KeyCode::Char(' ')));
        assert!(tick(&mut session, &mut ui));
        assert_eq!(session.deal_number(), 2);
        remove(&saved);
    }
}

/// Mini Misère 1989: the Lot is asked before the first lead, the human first as leader (the
/// first deal: the last seat deals it, so seat 0 leads).
#[test]
fn screens_lot_question_to_the_leader() {
    for lang in Lang::ALL {
        let Table {
            mut session,
            words,
            summary,
            saved,
        } = table("mini-misere-4-1989", 7, lang, "lot");
        let mut ui = new_ui(&words, &summary);
        play_until(&mut session, &mut ui, |s, ui| {
            no_overlay(s, ui)
                && s.view()
                    .is_some_and(|v| v.phase() == Phase::LotQuestion && v.leader() == 0)
        });
        assert_eq!(session.deal_number(), 1);
        let screen = snapshot("mini-misere-4-1989-lot-question", lang, &session, &ui);
        assert!(screen.contains(&t(lang, "lot-question", &[])));
        assert!(screen.contains(&format!(
            "[{}] [{}]",
            t(lang, "action-lot", &[]),
            t(lang, "action-pass", &[])
        )));
        // The hand is shown to decide on: seven cards.
        let view = session.view().expect("a deal");
        assert_eq!(view.hand().len(), 7);
        let hand_row = screen
            .lines()
            .find(|l| l.contains(&format!("{}: ", t(lang, "hand", &[]))))
            .expect("the hand's row");
        for card in view.hand().iter() {
            assert!(hand_row.contains(&words.card(card)), "{lang}: {hand_row}");
        }
        // The Lot (the first choice) by its number key is asked again, and any key but y or
        // Enter keeps the question open.
        assert!(press(&mut session, &mut ui, KeyCode::Char('1')));
        assert!(matches!(ui.overlay, Overlay::LotConfirm));
        let screen = snapshot("mini-misere-4-1989-lot-confirm", lang, &session, &ui);
        assert!(screen.contains(&t(lang, "lot-confirm", &[])), "{screen}");
        assert!(
            screen.contains(&t(lang, "lot-confirm-keys", &[])),
            "{screen}"
        );
        assert!(press(&mut session, &mut ui, KeyCode::Char('n')));
        assert!(matches!(ui.overlay, Overlay::None));
        assert_eq!(session.view().map(|v| v.phase()), Some(Phase::LotQuestion));
        assert!(ui.log.is_empty(), "{:?}", ui.log);
        // Picking "Pass" (the second choice) answers the question.
        assert!(press(&mut session, &mut ui, KeyCode::Char('2')));
        assert!(ui.message.is_empty(), "{}", ui.message);
        assert_eq!(
            ui.log.last(),
            Some(&t(lang, "passes", &[("seat", words.seat(0))]))
        );
        // Taken back, the Lot by its number key and y declares it.
        assert!(press(&mut session, &mut ui, KeyCode::Char('u')));
        assert_eq!(session.view().map(|v| v.phase()), Some(Phase::LotQuestion));
        assert!(press(&mut session, &mut ui, KeyCode::Char('1')));
        assert!(press(&mut session, &mut ui, KeyCode::Char('y')));
        assert!(matches!(ui.overlay, Overlay::None));
        assert_eq!(
            ui.log.last(),
            Some(&t(lang, "declares-lot", &[("seat", words.seat(0))]))
        );
        remove(&saved);
    }
}

/// A whole game of Mini Misère played to its end: the game-over screen.
#[test]
fn screens_game_over() {
    for lang in Lang::ALL {
        let Table {
            mut session,
            words,
            summary,
            saved,
        } = table("mini-misere-4", 7, lang, "game-over");
        let mut ui = new_ui(&words, &summary);
        play_until(&mut session, &mut ui, |_, ui| {
            matches!(ui.overlay, Overlay::GameOver)
        });
        assert!(session.game().is_finished());
        // The saved record replays to the same finished game.
        let record = std::fs::read_to_string(session.path()).expect("the record was saved");
        let replay = torite_core::Record::replay_json(&record).expect("the record replays");
        assert!(replay.game.is_finished());
        assert_eq!(replay.game.totals(), session.game().totals());
        // A fixed path to show, whatever the temporary folder.
        session.set_path(PathBuf::from(
            "/home/you/.local/share/torite/games/mini-misere-4-7.json",
        ));
        let screen = snapshot("mini-misere-4-game-over", lang, &session, &ui);
        let winners = session.game().winners().to_vec();
        assert_eq!(winners.len(), 1);
        assert!(screen.contains(&t(lang, "winner", &[("seats", words.seat(winners[0]))])));
        assert!(screen.contains(&t(lang, "game-over", &[])));
        assert!(screen.contains(&t(lang, "press-key", &[])));
        // The final totals are the last row of the table, under the seats' names.
        let totals: Vec<String> = session
            .game()
            .totals()
            .iter()
            .map(|t| format!("{t:>12}"))
            .collect();
        assert!(screen.contains(&totals.join("")), "{lang}: {screen}");
        let names = format!(
            "{}{:>12}{:>12}{:>12}",
            t(lang, "seat-you", &[]),
            "1:heuristic",
            "2:heuristic",
            "3:heuristic"
        );
        assert!(screen.contains(&names), "{lang}: {screen}");
        // Any key leaves.
        assert!(!press(&mut session, &mut ui, KeyCode::Enter));
        remove(&saved);
    }
}

/// A game longer than the screen: the game-over table keeps the latest deals, and the lines
/// under it stay in view.
#[test]
fn screens_game_over_after_many_deals() {
    let rules = Ruleset::from_json(&serde_json::json!({"base": "mini-misere-4", "deals": 15}))
        .expect("a house rule");
    for lang in Lang::ALL {
        let Table {
            mut session,
            words,
            summary,
            saved,
        } = table_of(rules, 3, lang, "long-game");
        let mut ui = new_ui(&words, &summary);
        play_until(&mut session, &mut ui, |_, ui| {
            matches!(ui.overlay, Overlay::GameOver)
        });
        assert_eq!(session.game().results().len(), 15);
        session.set_path(PathBuf::from("games/mini-misere-4-3.json"));
        let screen = snapshot("mini-misere-4-15-deals-game-over", lang, &session, &ui);
        // The popup's text starts in the sixth column.
        let rows: Vec<String> = screen
            .lines()
            .map(|l| l.chars().skip(5).collect())
            .collect();
        assert!(rows.iter().any(|r| r.starts_with("…")), "{screen}");
        for deal in 1..=15 {
            let shown = rows.iter().any(|r| r.starts_with(&format!("{deal:<10}")));
            assert_eq!(shown, deal >= 4, "deal {deal}:\n{screen}");
        }
        assert!(screen.contains(&t(lang, "press-key", &[])), "{screen}");
        assert!(screen.contains("games/mini-misere-4-3.json"), "{screen}");
        remove(&saved);
    }
}

/// Styles the text snapshots do not show: legal cards bold, illegal ones dim, the selected
/// one reversed, and the seat to act reversed on the table.
#[test]
fn choice_styles() {
    let Table {
        mut session,
        words,
        summary,
        saved,
    } = table("mini-misere-4", 3, Lang::En, "styles");
    let mut ui = new_ui(&words, &summary);
    play_until(&mut session, &mut ui, human_in_trick);
    let view = session.view().expect("a deal");
    let list = tui::choices(&view);
    ui.cursor = list
        .iter()
        .position(|c| matches!(c, Choice::Card(_, true)))
        .expect("a legal card");
    let terminal = draw(&session, &ui);
    let buffer = terminal.backend().buffer();
    let row = (0..24)
        .find(|y| {
            let text: String = (0..80).map(|x| buffer[(x, *y)].symbol()).collect();
            text.contains("Your hand:")
        })
        .expect("the hand's row");
    let cells: Vec<(String, Modifier)> = (0..80)
        .map(|x| {
            let cell = &buffer[(x, row)];
            (cell.symbol().to_owned(), cell.modifier)
        })
        .collect();
    let line: String = cells.iter().map(|(s, _)| s.as_str()).collect();
    for (i, choice) in list.iter().enumerate() {
        let Choice::Card(card, legal) = choice else {
            continue;
        };
        let at = line.find(&words.card(*card)).expect("the card is shown");
        let x = line[..at].chars().count();
        let modifier = cells[x].1;
        assert_eq!(modifier.contains(Modifier::BOLD), *legal, "{card}");
        assert_eq!(modifier.contains(Modifier::DIM), !*legal, "{card}");
        assert_eq!(
            modifier.contains(Modifier::REVERSED),
            i == ui.cursor,
            "{card}"
        );
    }
    // "You" on the table, reversed: the human is to act.
    let you = (0..24)
        .flat_map(|y| (0..80).map(move |x| (x, y)))
        .find(|&(x, y)| {
            buffer[(x, y)].symbol() == "Y"
                && buffer[(x + 1, y)].symbol() == "o"
                && buffer[(x + 2, y)].symbol() == "u"
                && buffer[(x + 3, y)].symbol() == " "
                && y > 3
                && y < 17
        })
        .expect("the human's seat");
    assert!(buffer[you].modifier.contains(Modifier::REVERSED));
    remove(&saved);
}

/// Keys: `q` asks first, `n` goes back, `y` quits; digits pick a choice; `h` gives a hint.
#[test]
fn keys() {
    let Table {
        mut session,
        words,
        summary,
        saved,
    } = table("mini-misere-4", 7, Lang::Ja, "keys");
    let mut ui = new_ui(&words, &summary);
    play_until(&mut session, &mut ui, human_in_trick);
    assert!(press(&mut session, &mut ui, KeyCode::Char('q')));
    assert!(matches!(ui.overlay, Overlay::QuitConfirm));
    let screen = text(&draw(&session, &ui));
    assert!(
        screen.contains(&t(Lang::Ja, "quit-confirm", &[])),
        "{screen}"
    );
    assert!(press(&mut session, &mut ui, KeyCode::Char('n')));
    assert!(matches!(ui.overlay, Overlay::None));
    assert!(press(&mut session, &mut ui, KeyCode::Char('h')));
    assert!(ui.message.starts_with("ヒント: "), "{}", ui.message);
    // A digit picks that choice: here the first legal card.
    let view = session.view().expect("a deal");
    let list = tui::choices(&view);
    let legal = list
        .iter()
        .position(|c| matches!(c, Choice::Card(_, true)))
        .expect("a legal card");
    let Choice::Card(card, _) = list[legal] else {
        unreachable!()
    };
    let digit = char::from_digit(legal as u32 + 1, 10).expect("a digit");
    assert!(press(&mut session, &mut ui, KeyCode::Char(digit)));
    assert!(ui.message.is_empty(), "{}", ui.message);
    assert!(!session.view().expect("a deal").hand().contains(card));
    assert!(press(&mut session, &mut ui, KeyCode::Esc));
    assert!(matches!(ui.overlay, Overlay::QuitConfirm));
    assert!(!press(&mut session, &mut ui, KeyCode::Char('y')));
    remove(&saved);
}

/// `u` in the full screen takes back the player's cards one decision at a time, the bots'
/// cards after each with it, and says so on the message line in both languages; with nothing
/// of the player's left in the deal it says that instead.
#[test]
fn undo_key_takes_back_the_last_decision() {
    for lang in [Lang::En, Lang::Ja] {
        let Table {
            mut session,
            words,
            summary,
            saved,
        } = table("mini-misere-4", 7, lang, "undo");
        let mut ui = new_ui(&words, &summary);
        play_until(&mut session, &mut ui, no_overlay);
        let first = session.view().expect("a deal").hand().len();
        let mut hands = Vec::new();
        for _ in 0..2 {
            hands.push(session.view().expect("a deal").hand());
            let at = tui::first_legal(&session);
            ui.cursor = at;
            press(&mut session, &mut ui, KeyCode::Enter);
            play_until(&mut session, &mut ui, no_overlay);
        }
        assert!(session.view().expect("a deal").hand().len() < first);
        for hand in hands.iter().rev() {
            assert!(press(&mut session, &mut ui, KeyCode::Char('u')));
            assert_eq!(ui.message, t(lang, "play-undone", &[]));
            assert!(session.human_to_act());
            assert_eq!(session.view().expect("a deal").hand(), *hand);
        }
        assert!(press(&mut session, &mut ui, KeyCode::Char('u')));
        assert_eq!(ui.message, t(lang, "undo-none", &[]));
        assert_eq!(session.view().expect("a deal").hand().len(), first);
        remove(&saved);
    }
}

/// The Lot declared: the table's bottom border says so, whole, clear of the seats' labels,
/// which it no longer writes over or leaves a label's letters after (seed 130435 once showed
/// `Lot declared by Seat 2 (ismcts)s` in the middle of the table).
#[test]
fn screens_lot_declared_on_the_table_border() {
    for lang in Lang::ALL {
        let Table {
            mut session,
            words,
            summary,
            saved,
        } = table("mini-misere-4", 130435, lang, "lot-declared");
        let mut ui = new_ui(&words, &summary);
        play_until(&mut session, &mut ui, |s, ui| {
            no_overlay(s, ui) && s.view().is_some_and(|v| v.legal_actions().lot)
        });
        let view = session.view().expect("a deal");
        ui.cursor = tui::choices(&view)
            .iter()
            .position(|c| *c == Choice::Other(torite_core::Action::Lot))
            .expect("the Lot is offered");
        assert!(press(&mut session, &mut ui, KeyCode::Enter));
        let screen = snapshot("mini-misere-4-lot-declared", lang, &session, &ui);
        let declared = t(lang, "lot-declared", &[("seats", words.seat(0))]);
        let border = screen.lines().nth(16).expect("the table's bottom border");
        assert!(border.contains(&format!("─ {declared} ─")), "{border}");
        // Every seat's label whole, at the end of its text.
        for seat in 1..4 {
            let label = format!("{seat}:heuristic");
            let row = screen
                .lines()
                .skip(3)
                .find(|l| l.contains(&label))
                .unwrap_or_else(|| panic!("{label}:\n{screen}"));
            let before = row.split(&label).next().unwrap_or_default();
            assert!(before.ends_with(' ') || before.ends_with('│'), "{row}");
            assert!(
                row.split(&label).nth(1).is_some_and(|after| {
                    after.starts_with(' ') || after.starts_with('│') || after.is_empty()
                }),
                "{row}"
            );
        }
        remove(&saved);
    }
}

/// A completed trick stays on the table, each card in front of its player and the winner's
/// starred, until a key (or its time) takes it off; the key does nothing else.
#[test]
fn screens_completed_trick_kept_in_view() {
    for lang in Lang::ALL {
        let Table {
            mut session,
            words,
            summary,
            saved,
        } = table("mini-misere-4", 7, lang, "kept");
        let mut ui = new_ui(&words, &summary);
        play_until(&mut session, &mut ui, |s, ui| {
            ui.kept.is_some() && s.view().is_some_and(|v| v.tricks_completed() == 2)
        });
        let kept = ui.kept.expect("a kept trick").trick;
        let view = session.view().expect("a deal");
        assert!(view.current_trick().is_empty());
        let screen = snapshot("mini-misere-4-trick-kept", lang, &session, &ui);
        for card in kept.cards() {
            assert!(screen.contains(&words.card(*card)), "{screen}");
        }
        let winner = words.card(kept.cards()[(kept.winner + 4 - kept.leader) % 4]);
        assert!(screen.contains(&format!("{winner} ★")), "{screen}");
        assert!(
            screen.contains(&t(
                lang,
                "trick-won-by",
                &[("seat", words.seat(kept.winner))]
            )),
            "{screen}"
        );
        let hand = view.hand().len();
        assert!(press(&mut session, &mut ui, KeyCode::Char('1')));
        assert!(ui.kept.is_none());
        assert_eq!(session.view().expect("a deal").hand().len(), hand);
        assert!(!text(&draw(&session, &ui)).contains(&format!("{winner} ★")));
        remove(&saved);
    }
}

/// The cursor starts each turn on a legal choice, also when the first card of the hand may not
/// be played.
#[test]
fn the_cursor_starts_on_a_legal_card() {
    let Table {
        mut session,
        words,
        summary,
        saved,
    } = table("mini-misere-4", 7, Lang::En, "cursor");
    let mut ui = new_ui(&words, &summary);
    play_until(&mut session, &mut ui, |s, ui| {
        no_overlay(s, ui)
            && s.view()
                .is_some_and(|v| matches!(tui::choices(&v)[0], Choice::Card(_, false)))
    });
    let view = session.view().expect("a deal");
    let list = tui::choices(&view);
    assert!(ui.cursor > 0);
    assert!(matches!(list[ui.cursor], Choice::Card(_, true)), "{list:?}");
    assert!(
        list[..ui.cursor]
            .iter()
            .all(|c| matches!(c, Choice::Card(_, false)))
    );
    remove(&saved);
}

/// Jass hands have twelve cards: `0`, `-` and `=` pick the tenth to twelfth, and the help line
/// says so while there are more than nine choices.
#[test]
fn number_keys_reach_the_tenth_to_twelfth_card() {
    for (lang, key, index) in [(Lang::En, '0', 9), (Lang::Ja, '-', 10), (Lang::En, '=', 11)] {
        let Table {
            mut session,
            words,
            summary,
            saved,
        } = table("mittlere-jass", 3, lang, &format!("keys-{index}"));
        let mut ui = new_ui(&words, &summary);
        play_until(&mut session, &mut ui, no_overlay);
        let view = session.view().expect("a deal");
        assert_eq!(view.hand().len(), 12);
        let list = tui::choices(&view);
        let Choice::Card(card, true) = list[index] else {
            panic!("{lang}: the first turn's cards are all legal: {list:?}")
        };
        let screen = text(&draw(&session, &ui));
        assert!(screen.contains(" 1–9 0-= "), "{screen}");
        assert!(press(&mut session, &mut ui, KeyCode::Char(key)));
        assert!(ui.message.is_empty(), "{}", ui.message);
        assert!(!session.view().expect("a deal").hand().contains(card));
        remove(&saved);
    }
}

/// `?` opens with the keys, the number keys and the table's marks (★, ←) explained; the quit
/// popup is titled in words; a new deal starts without the last deal's "wins the trick".
#[test]
fn help_keys_quit_title_and_a_clean_new_deal() {
    for lang in Lang::ALL {
        let Table {
            mut session,
            words,
            summary,
            saved,
        } = table("mini-misere-4", 7, lang, "help");
        let mut ui = new_ui(&words, &summary);
        play_until(&mut session, &mut ui, no_overlay);
        assert!(press(&mut session, &mut ui, KeyCode::Char('?')));
        let screen = snapshot("mini-misere-4-help", lang, &session, &ui);
        for key in ["keys-title", "keys-numbers", "keys-marks"] {
            let first = t(lang, key, &[]);
            let first = first.split(' ').next().expect("a word");
            assert!(screen.contains(first), "{key}:\n{screen}");
        }
        assert!(screen.contains('★') && screen.contains("← "), "{screen}");
        assert!(press(&mut session, &mut ui, KeyCode::Esc));
        assert!(press(&mut session, &mut ui, KeyCode::Char('q')));
        let screen = text(&draw(&session, &ui));
        assert!(
            screen.contains(&format!("┌ {} ─", t(lang, "quit-title", &[]))),
            "{screen}"
        );
        assert!(press(&mut session, &mut ui, KeyCode::Char('n')));
        play_until(&mut session, &mut ui, |s, ui| {
            no_overlay(s, ui)
                && s.deal_number() == 2
                && s.view().is_some_and(|v| v.tricks_completed() == 0)
        });
        let screen = snapshot("mini-misere-4-new-deal", lang, &session, &ui);
        let won = t(lang, "trick-won-by", &[("seat", String::new())]);
        assert!(!screen.contains(won.trim()), "{screen}");
        assert!(
            screen
                .lines()
                .nth(1)
                .is_some_and(|l| l.starts_with(&format!(
                    "│{}:  {} ",
                    t(lang, "total", &[]),
                    t(lang, "seat-you", &[])
                ))),
            "{screen}"
        );
        remove(&saved);
    }
}

/// The whole `?` popup of every preset, scrolled from top to bottom at 80×24 in both
/// languages: no raw table pipes, every line inside the border, and no Japanese line starting
/// with a closing mark.
#[test]
fn help_popup_reads_cleanly_to_its_end() {
    for preset in Preset::ALL {
        for lang in Lang::ALL {
            let Table {
                mut session,
                words,
                summary,
                saved,
            } = table(preset.id(), 1, lang, &format!("help-{}", preset.id()));
            let mut ui = new_ui(&words, &summary);
            session.start_deal_if_needed().expect("a deal");
            assert!(press(&mut session, &mut ui, KeyCode::Char('?')));
            let mut seen = Vec::new();
            for _ in 0..60 {
                let terminal = draw(&session, &ui);
                let buffer = terminal.backend().buffer();
                let screen = text(&terminal);
                // The popup's borders are columns 4 and 75 (72 wide on 80 columns).
                for y in 2..23 {
                    let left = buffer[(4, y)].symbol();
                    if left != "│" {
                        continue;
                    }
                    assert_eq!(
                        buffer[(75, y)].symbol(),
                        "│",
                        "{preset:?} {lang}: row {y}\n{screen}"
                    );
                    let mut inside = String::new();
                    for x in 5..75 {
                        inside.push_str(buffer[(x, y)].symbol());
                    }
                    let body = inside.trim();
                    assert!(
                        !body.starts_with(['。', '、', 'ー', '）', '」']),
                        "{preset:?} {lang}: {inside}\n{screen}"
                    );
                    assert!(!body.starts_with('|'), "{preset:?} {lang}: {inside}");
                    seen.push(inside.trim_end().to_owned());
                }
                if screen.contains(" ↑ ┘") || !screen.contains('↓') {
                    break;
                }
                assert!(press(&mut session, &mut ui, KeyCode::Down));
            }
            assert!(seen.len() > 10, "{preset:?} {lang}");
            remove(&saved);
        }
    }
}

/// Mura: the deal's penalty points on a 失点 (Penalty) row without a sign, and a seat whose card
/// points reach the threshold marked exempt on the table; Jass: the deal's heading says how
/// many deals the game has.
#[test]
fn screens_mura_penalty_and_exemption_and_jass_deal_count() {
    for lang in Lang::ALL {
        let Table {
            mut session,
            words,
            summary,
            saved,
        } = table("mura-4", 2, lang, "mura");
        let mut ui = new_ui(&words, &summary);
        let torite_core::Scoring::Mura { threshold, .. } = session.rules().scoring else {
            panic!("Mura is scored in penalties");
        };
        play_until(&mut session, &mut ui, |s, ui| {
            no_overlay(s, ui)
                && s.view()
                    .is_some_and(|v| v.card_points().iter().any(|p| *p >= u32::from(threshold)))
        });
        let screen = snapshot("mura-4-exempt", lang, &session, &ui);
        assert!(
            screen.contains(&format!(" {}", t(lang, "play-exempt", &[]))),
            "{screen}"
        );
        play_until(&mut session, &mut ui, |_, ui| {
            matches!(ui.overlay, Overlay::DealSummary(_))
        });
        let screen = snapshot("mura-4-deal-summary", lang, &session, &ui);
        let penalty = t(lang, "play-penalty", &[]);
        let row = screen
            .lines()
            .find(|l| l.contains(&format!("│{penalty} ")))
            .unwrap_or_else(|| panic!("no {penalty} row:\n{screen}"));
        assert!(!row.contains('+'), "{row}");
        assert!(
            !screen.contains(&format!("│{} ", t(lang, "score", &[]))),
            "{screen}"
        );
        remove(&saved);

        let Table {
            mut session,
            words,
            summary,
            saved,
        } = table("mittlere-jass", 3, lang, "deal-count");
        let mut ui = new_ui(&words, &summary);
        play_until(&mut session, &mut ui, no_overlay);
        let screen = text(&draw(&session, &ui));
        let heading = t(
            lang,
            "play-deal-header-of",
            &[
                ("number", "1".to_owned()),
                ("deals", "12".to_owned()),
                (
                    "dealer",
                    words.seat(session.deal().expect("a deal").dealer()),
                ),
            ],
        );
        assert!(screen.contains(&format!("┌ {heading} ─")), "{screen}");
        remove(&saved);
    }
}

/// Six players: every seat has its own corner of the table (seats 4 and 5 once shared one),
/// and the totals line fits, the bots' names cut short.
#[test]
fn screens_six_players_every_seat_in_view() {
    for lang in Lang::ALL {
        let Table {
            mut session,
            words,
            summary,
            saved,
        } = table("mini-misere-6", 5, lang, "six");
        let mut ui = new_ui(&words, &summary);
        play_until(&mut session, &mut ui, human_in_trick);
        let screen = snapshot("mini-misere-6-mid-trick", lang, &session, &ui);
        let table_rows: Vec<&str> = screen.lines().skip(3).take(14).collect();
        for seat in 1..6 {
            let label = format!("{seat}:heuristic");
            assert!(
                table_rows.iter().any(|r| r.contains(&label)),
                "{label}:\n{screen}"
            );
        }
        let totals = screen.lines().nth(1).expect("the totals");
        let last = session.game().totals()[5];
        assert!(
            totals
                .trim_end_matches('│')
                .trim_end()
                .ends_with(&format!(" {last}")),
            "{totals}"
        );
        assert!(
            totals.contains("5:heur") && totals.contains("…"),
            "{totals}"
        );
        remove(&saved);
    }
}

/// After a deal, `a` on its summary reviews the human's own decisions of that deal, in a
/// popup that fits 80×24; ↑↓ scroll it and any other key goes on to the next deal.
#[test]
fn the_deal_summary_offers_a_review_of_your_decisions() {
    for lang in [Lang::En, Lang::Ja] {
        let Table {
            mut session,
            words,
            summary,
            saved,
        } = table("mini-misere-4", 3, lang, "review");
        let mut ui = new_ui(&words, &summary);
        play_until(&mut session, &mut ui, |_, ui| {
            matches!(ui.overlay, Overlay::DealSummary(_))
        });
        let screen = text(&draw(&session, &ui));
        assert!(screen.contains(&t(lang, "review-key", &[])), "{screen}");
        assert!(press(&mut session, &mut ui, KeyCode::Char('a')));
        let Overlay::Review(number, lines) = &ui.overlay else {
            panic!("no review: {:?}", ui.overlay)
        };
        assert_eq!(*number, 1);
        let review = session.review(ui.review_worlds).expect("a deal has ended");
        assert!(!review.decisions.is_empty());
        assert!(review.decisions.iter().all(|d| d.seat == session.human()));
        // A line per decision, then a blank line, the deal's summary and the legend.
        assert_eq!(lines.len(), review.decisions.len() + 3, "{lines:?}");
        let screen = snapshot("mini-misere-4-review", lang, &session, &ui);
        assert!(
            screen.contains(&t(lang, "review-title", &[("number", "1".to_owned())])),
            "{screen}"
        );
        assert!(
            !screen.contains("analyse-") && !screen.contains("review-"),
            "{screen}"
        );
        assert!(press(&mut session, &mut ui, KeyCode::Down));
        assert!(matches!(ui.overlay, Overlay::Review(..)));
        assert!(press(&mut session, &mut ui, KeyCode::Enter));
        assert!(matches!(ui.overlay, Overlay::None));
        assert!(tick(&mut session, &mut ui));
        assert_eq!(session.deal_number(), 2);
        remove(&saved);
    }
}

/// A terminal smaller than the table's layout is told how large it must be and how to play
/// line by line, in both languages, and can still be quit; at the smallest size the table is
/// drawn with every seat and the hand.
#[test]
fn a_small_terminal_is_told_its_size_and_the_plain_mode() {
    for lang in Lang::ALL {
        let Table {
            mut session,
            words,
            summary,
            saved,
        } = table("mini-misere-5", 4, lang, "small");
        session.start_deal_if_needed().expect("the first deal");
        let mut ui = new_ui(&words, &summary);
        let screen = |ui: &Ui<'_>, w: u16, h: u16| {
            let mut terminal = Terminal::new(TestBackend::new(w, h)).expect("a test terminal");
            terminal
                .draw(|f| tui::draw(f, &session, ui))
                .expect("the screen is drawn");
            text(&terminal)
        };
        let small = screen(&ui, 44, 14);
        let (size, plain) = match lang {
            Lang::Ja => (
                "この画面は44×14です。ゲームには60×20以上",
                "torite\u{a0}play\u{a0}--plain",
            ),
            _ => (
                "This window is 44×14; the game needs at least 60×20",
                "torite\u{a0}play\u{a0}--plain",
            ),
        };
        let flat: String = small.lines().collect::<Vec<_>>().join(" ");
        let flat_ja: String = small.lines().collect();
        assert!(flat.contains(size) || flat_ja.contains(size), "{small}");
        assert!(flat.contains(plain) || flat_ja.contains(plain), "{small}");
        ui.overlay = Overlay::QuitConfirm;
        let quitting: String = screen(&ui, 44, 14).lines().collect();
        assert!(
            quitting.contains("(y/n)") || quitting.contains("（y/n）"),
            "{quitting}"
        );
        ui.overlay = Overlay::None;
        // At the smallest size, the table: five seats and the hand.
        let fits = screen(&ui, 60, 20);
        assert!(!fits.contains(plain), "{fits}");
        for seat in 1..5 {
            assert!(fits.contains(&format!("{seat}:")), "{fits}");
        }
        let hand = t(lang, "hand", &[]);
        assert!(fits.contains(&hand), "{fits}");
        remove(&saved);
    }
}
