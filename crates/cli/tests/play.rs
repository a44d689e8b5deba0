//! End-to-end tests of `torite play --plain`: whole games of several rulesets in Japanese and
//! English driven through standard input like a player at a pipe, the saved record checked
//! with `torite replay`, explanations of illegal input, quitting, and `--resume`.
//!
//! The binary is run as a child process; the test reads its output up to each prompt and
//! answers it, choosing from what was printed (the hand, the trick, the menu). The seats other
//! than the human are the deterministic `heuristic` bot and the deals are seeded, so every game
//! is the same on every run.

mod common;

use std::io::{Read, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{Receiver, RecvTimeoutError, channel};
use std::time::Duration;

use serde_json::Value;

use common::{BIN, LANGS, Lang, ok, path_str, refused, scratch, torite};

/// How long a prompt may take to appear before the test gives up (debug builds, shared
/// machines).
const PATIENCE: Duration = Duration::from_secs(120);

// ---------------------------------------------------------------------------------------------
// The words the tests look for, in both languages (from locales/*.ftl)
// ---------------------------------------------------------------------------------------------

impl Lang {
    /// "Seat 2 (heuristic)" / "2番席 (heuristic)"; the human is "You" / "あなた".
    fn seat(self, seat: usize) -> String {
        let name = if seat == 0 {
            self.pick("You", "あなた")
        } else {
            "heuristic"
        };
        match self {
            Lang::En => format!("Seat {seat} ({name})"),
            Lang::Ja => format!("{seat}番席 ({name})"),
        }
    }

    fn hand_label(self) -> &'static str {
        self.pick("Your hand: ", "手札: ")
    }

    fn game_over(self) -> &'static str {
        self.pick("== Game over ==", "== ゲーム終了 ==")
    }

    fn winner_line(self, winners: &[usize]) -> String {
        let seats: Vec<String> = winners.iter().map(|s| self.seat(*s)).collect();
        let seats = seats.join(", ");
        match (self, winners.len()) {
            (Lang::En, 1) => format!("Winner: {seats}"),
            (Lang::En, _) => format!("Winners (shared): {seats}"),
            (Lang::Ja, 1) => format!("勝者: {seats}"),
            (Lang::Ja, _) => format!("勝者（同点）: {seats}"),
        }
    }

    fn deal_summary(self, number: usize) -> String {
        match self {
            Lang::En => format!("End of deal {number}"),
            Lang::Ja => format!("第{number}ディール終了"),
        }
    }

    /// Where the header of deal `number` is in `text`: "Deal 2 — dealer: …", or
    /// "Deal 2 of 12 — dealer: …" in a game of a fixed number of deals.
    fn deal_header_at(self, text: &str, number: usize) -> Option<usize> {
        let (start, plain, counted) = match self {
            Lang::En => (format!("Deal {number} "), "— dealer: ", "of "),
            Lang::Ja => (format!("第{number}ディール"), " — ディーラー: ", "（全"),
        };
        text.match_indices(&start)
            .find(|(at, _)| {
                let rest = &text[at + start.len()..];
                rest.starts_with(plain) || rest.starts_with(counted)
            })
            .map(|(at, _)| at)
    }

    fn total_label(self) -> &'static str {
        self.pick("Total", "累計")
    }

    fn saved_to(self, path: &Path) -> String {
        match self {
            Lang::En => format!("Game record saved to {}", path.display()),
            Lang::Ja => format!("棋譜を保存しました: {}", path.display()),
        }
    }

    fn resume_with(self, path: &Path) -> String {
        match self {
            Lang::En => format!("Resume with: torite play --resume {}", path.display()),
            Lang::Ja => format!("続きから: torite play --resume {}", path.display()),
        }
    }

    fn suit_name(self, suit: char) -> &'static str {
        match (self, suit) {
            (Lang::En, 'S') => "spades",
            (Lang::En, 'H') => "hearts",
            (Lang::En, 'D') => "diamonds",
            (Lang::En, 'C') => "clubs",
            (Lang::Ja, 'S') => "スペード",
            (Lang::Ja, 'H') => "ハート",
            (Lang::Ja, 'D') => "ダイヤ",
            (Lang::Ja, 'C') => "クラブ",
            _ => panic!("no suit {suit}"),
        }
    }

    /// `illegal` with `err-must-follow`.
    fn must_follow(self, card: &str, led: char) -> String {
        let suit = self.suit_name(led);
        match self {
            Lang::En => format!("{card} cannot be played: you must follow {suit}"),
            Lang::Ja => format!("{card}は出せません: {suit}をフォローしなければなりません"),
        }
    }

    /// `illegal` with `err-not-in-hand`.
    fn not_in_hand(self, card: &str, code: &str) -> String {
        match self {
            Lang::En => format!("{card} cannot be played: {code} is not in your hand"),
            Lang::Ja => format!("{card}は出せません: {code}は手札にありません"),
        }
    }

    /// `unknown-input`.
    fn not_understood(self, input: &str) -> String {
        match self {
            Lang::En => format!(
                "Not understood: {input}. Type a number, a card code such as AS or 10H, lot, pass, ? for help or q to quit."
            ),
            Lang::Ja => format!(
                "「{input}」は分かりません。番号、AS や 10H のようなカード、lot、pass、?（ヘルプ）、q（終了）を入力してください。"
            ),
        }
    }

    fn lot_question(self) -> &'static str {
        self.pick(
            "Declare the Lot (win every trick)?",
            "ロット（全トリック獲得）を宣言しますか？",
        )
    }

    fn call_question(self) -> &'static str {
        self.pick(
            "You led the joker: name the suit the others must follow.",
            "ジョーカーをリードしました。フォローすべきスートを指定してください。",
        )
    }

    /// `calls-suit` for `seat`, any suit: the text before the suit.
    fn calls_suit(self, seat: usize, suit: char) -> String {
        let name = self.suit_name(suit);
        match self {
            Lang::En => format!("{} names {name}", self.seat(seat)),
            Lang::Ja => format!("{}は{name}を指定", self.seat(seat)),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// A game at the other end of a pipe
// ---------------------------------------------------------------------------------------------

/// `torite play --plain` running as a child process.
struct Plain {
    child: Child,
    stdin: Option<ChildStdin>,
    output: Receiver<Vec<u8>>,
    /// Output read but not yet returned (bytes: a chunk may end inside a character).
    pending: Vec<u8>,
    /// Everything printed so far, with the answers given.
    transcript: String,
}

/// What the program printed before asking, parsed.
#[derive(Debug)]
struct Turn {
    text: String,
    /// The hand, as card codes (`KH`, `TC`, `JK`).
    hand: Vec<String>,
    /// The first card of the trick in progress, as printed (`2♣`).
    led: Option<String>,
}

fn is_prompt(text: &str) -> bool {
    let last = text.rsplit('\n').next().unwrap_or_default();
    last.ends_with(": ") && last.contains(", ?, h, l, s, u, q")
}

/// A card code from the printed form: `K♥` → `KH`.
fn code(printed: &str) -> String {
    printed
        .chars()
        .map(|c| match c {
            '♠' => 'S',
            '♥' => 'H',
            '♦' => 'D',
            '♣' => 'C',
            other => other,
        })
        .collect()
}

/// The printed form of a code: `KH` → `K♥`.
fn printed(code: &str) -> String {
    if code == "JK" {
        return code.to_owned();
    }
    code.chars()
        .map(|c| match c {
            'S' => '♠',
            'H' => '♥',
            'D' => '♦',
            'C' => '♣',
            other => other,
        })
        .collect()
}

impl Turn {
    fn parse(text: String, lang: Lang) -> Turn {
        let mut hand = Vec::new();
        let mut led = None;
        let trick = lang.pick("Trick ", "第");
        for line in text.lines() {
            if let Some(groups) = line.strip_prefix(lang.hand_label()) {
                hand.clear();
                for group in groups.split(" | ") {
                    if group == "JK" {
                        hand.push("JK".to_owned());
                        continue;
                    }
                    let mut parts = group.split(' ');
                    let suit = code(parts.next().expect("a suit"));
                    hand.extend(parts.map(|rank| format!("{rank}{suit}")));
                }
            } else if line.starts_with(trick) && line.contains(lang.pick(": ", "トリック: ")) {
                let cards = line.split_once(": ").expect("a trick line").1;
                let first = cards.split(", ").next().expect("a card");
                led = first.rsplit(' ').next().map(str::to_owned);
            }
        }
        Turn { text, hand, led }
    }

    /// The suit letter of the card led to the trick in progress (none for a led joker).
    fn led_suit(&self) -> Option<char> {
        let led = code(self.led.as_deref()?);
        (led != "JK").then(|| led.chars().last().expect("a suit"))
    }
}

impl Plain {
    fn start(args: &[&str]) -> Plain {
        let mut child = Command::new(BIN)
            .args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("cannot start torite");
        let stdin = child.stdin.take();
        let mut stdout = child.stdout.take().expect("stdout is piped");
        let (sender, output) = channel();
        std::thread::spawn(move || {
            let mut buffer = [0u8; 8192];
            loop {
                match stdout.read(&mut buffer) {
                    Ok(0) | Err(_) => return,
                    Ok(n) => {
                        if sender.send(buffer[..n].to_vec()).is_err() {
                            return;
                        }
                    }
                }
            }
        });
        Plain {
            child,
            stdin,
            output,
            pending: Vec::new(),
            transcript: String::new(),
        }
    }

    /// The output up to the next prompt, or `None` when the program ended without asking.
    fn prompt(&mut self, lang: Lang) -> Option<Turn> {
        loop {
            if let Ok(text) = std::str::from_utf8(&self.pending)
                && is_prompt(text)
            {
                let text = text.to_owned();
                self.pending.clear();
                self.transcript.push_str(&text);
                return Some(Turn::parse(text, lang));
            }
            match self.output.recv_timeout(PATIENCE) {
                Ok(chunk) => self.pending.extend(chunk),
                Err(RecvTimeoutError::Disconnected) => return None,
                Err(RecvTimeoutError::Timeout) => {
                    let _ = self.child.kill();
                    panic!(
                        "no prompt for {PATIENCE:?}; the output so far:\n{}{}",
                        self.transcript,
                        String::from_utf8_lossy(&self.pending)
                    );
                }
            }
        }
    }

    fn answer(&mut self, line: &str) {
        self.transcript.push_str(line);
        self.transcript.push('\n');
        let stdin = self.stdin.as_mut().expect("standard input is open");
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|()| stdin.flush())
            .expect("torite reads its input");
    }

    /// Closes standard input and waits: the whole transcript, standard error and the status.
    fn finish(mut self) -> (String, String, ExitStatus) {
        drop(self.stdin.take());
        while let Ok(chunk) = self.output.recv_timeout(PATIENCE) {
            self.pending.extend(chunk);
        }
        self.transcript
            .push_str(&String::from_utf8(std::mem::take(&mut self.pending)).expect("UTF-8"));
        let mut stderr = String::new();
        if let Some(mut err) = self.child.stderr.take() {
            err.read_to_string(&mut stderr).expect("stderr");
        }
        let status = self.child.wait().expect("torite ends");
        (self.transcript, stderr, status)
    }
}

/// The usual answer: pass on a Lot question, otherwise the first choice.
fn first_choice(turn: &Turn, lang: Lang) -> String {
    if turn.text.contains(lang.lot_question()) {
        "pass".to_owned()
    } else {
        "1".to_owned()
    }
}

fn new_game(preset: &str, seed: u64, lang: Lang, save: &Path) -> Vec<String> {
    [
        "play",
        preset,
        "--plain",
        "--bots",
        "heuristic",
        "--seed",
        &seed.to_string(),
        "--lang",
        lang.code(),
        "--save",
        save.to_str().expect("a UTF-8 path"),
    ]
    .map(str::to_owned)
    .to_vec()
}

/// Plays on, answering with `choose`, until the program ends; the transcript.
fn play_out(
    mut game: Plain,
    lang: Lang,
    mut choose: impl FnMut(&Turn) -> String,
) -> (String, String, ExitStatus) {
    while let Some(turn) = game.prompt(lang) {
        let answer = choose(&turn);
        game.answer(&answer);
    }
    game.finish()
}

fn start(args: &[String]) -> Plain {
    Plain::start(&args.iter().map(String::as_str).collect::<Vec<_>>())
}

/// `torite replay FILE`, parsed.
fn replay(path: &Path) -> Value {
    let run = torite(&["replay", path_str(path)]);
    assert_eq!(
        run.status,
        Some(0),
        "replay {}: {}",
        path.display(),
        run.stderr
    );
    serde_json::from_str(&run.stdout).expect("replay prints JSON")
}

fn record(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("the record was saved"))
        .expect("the record is JSON")
}

fn numbers(value: &Value) -> Vec<i64> {
    value
        .as_array()
        .expect("an array")
        .iter()
        .map(|v| v.as_i64().expect("a number"))
        .collect()
}

/// The numbers of the last line starting with `label` (after the indentation).
fn last_row(transcript: &str, label: &str) -> Vec<i64> {
    let line = transcript
        .lines()
        .rev()
        .find(|l| l.trim_start().starts_with(label))
        .unwrap_or_else(|| panic!("no {label} row"));
    line.trim_start()[label.len()..]
        .split_whitespace()
        .map(|n| n.parse().expect("a number"))
        .collect()
}

/// Checks a finished game's transcript against its saved record and `torite replay`; the
/// transcript shows the game from deal `first` on: from its start (1), or resumed in the
/// middle of deal `first`, whose header is then not printed again.
fn check_finished_game(
    transcript: &str,
    lang: Lang,
    path: &Path,
    first: usize,
    resumed: bool,
) -> Value {
    let report = replay(path);
    assert_eq!(report["finished"], true, "{transcript}");
    let winners: Vec<usize> = numbers(&report["winners"])
        .into_iter()
        .map(|s| s as usize)
        .collect();
    assert!(!winners.is_empty());
    let tail: Vec<&str> = transcript.lines().rev().take(3).collect();
    assert_eq!(
        tail,
        [
            lang.saved_to(path).as_str(),
            lang.winner_line(&winners).as_str(),
            lang.game_over(),
        ],
        "{transcript}"
    );
    // One summary per deal, the last one with the record's totals.
    let deals = report["deals"].as_array().expect("deals");
    let summaries: Vec<&str> = transcript
        .lines()
        .filter(|l| (1..=deals.len() + 1).any(|n| l.trim() == lang.deal_summary(n)))
        .collect();
    let expected: Vec<String> = (first..=deals.len())
        .map(|n| lang.deal_summary(n))
        .collect();
    assert_eq!(summaries, expected);
    let last = deals.last().expect("a deal");
    assert_eq!(
        last_row(transcript, lang.total_label()),
        numbers(&last["totals"])
    );
    // The hand printed under each deal's header is the hand the record dealt to the human.
    let saved = record(path);
    for (i, deal) in saved["deals"].as_array().expect("deals").iter().enumerate() {
        if i + 1 < first || (resumed && i + 1 == first) {
            // Dealt before the game was resumed.
            continue;
        }
        let at = lang
            .deal_header_at(transcript, i + 1)
            .expect("a deal header");
        let hand_line = transcript[at..]
            .lines()
            .nth(1)
            .and_then(|l| l.strip_prefix(lang.hand_label()))
            .expect("the hand under the header");
        let shown = Turn::parse(format!("{}{hand_line}", lang.hand_label()), lang).hand;
        let mut shown: Vec<String> = shown;
        let mut dealt: Vec<String> = deal["hands"][0]
            .as_array()
            .expect("the human's hand")
            .iter()
            .map(|c| c.as_str().expect("a card").to_owned())
            .collect();
        shown.sort();
        dealt.sort();
        assert_eq!(shown, dealt, "deal {}", i + 1);
    }
    report
}

/// Every menu lists the playable cards in the order of the hand's line above it (trumps in
/// trump order once a trump suit is set).
fn check_menu_order(transcript: &str, lang: Lang) {
    let legal = lang.pick("Legal: ", "出せるもの: ");
    let mut hand: Vec<String> = Vec::new();
    let mut menus = 0;
    for line in transcript.lines() {
        if line.starts_with(lang.hand_label()) {
            hand = Turn::parse(line.to_owned(), lang)
                .hand
                .iter()
                .map(|c| printed(c))
                .collect();
        } else if let Some(i) = line.find(legal) {
            menus += 1;
            let cards: Vec<&str> = line[i + legal.len()..]
                .split("  ")
                .map(|item| item.split_once(") ").expect("N) choice").1)
                .filter(|item| hand.iter().any(|c| c == item))
                .collect();
            let in_hand_order: Vec<&str> = hand
                .iter()
                .map(String::as_str)
                .filter(|c| cards.contains(c))
                .collect();
            assert_eq!(cards, in_hand_order, "{line}\nhand: {hand:?}");
        }
    }
    assert!(menus > 0);
}

/// A whole game answering the first choice (passing on Lot questions) to every prompt.
fn whole_game(preset: &str, seed: u64, lang: Lang) -> (String, Value) {
    let dir = scratch(&format!("{preset}-{seed}-{}", lang.code()));
    let path = dir.join("game.json");
    let game = start(&new_game(preset, seed, lang, &path));
    let (transcript, stderr, status) = play_out(game, lang, |turn| first_choice(turn, lang));
    assert!(status.success(), "{stderr}\n{transcript}");
    assert!(stderr.is_empty(), "{stderr}");
    let report = check_finished_game(&transcript, lang, &path, 1, false);
    assert_eq!(report["ruleset"], preset);
    check_menu_order(&transcript, lang);
    (transcript, report)
}

// ---------------------------------------------------------------------------------------------
// Whole games
// ---------------------------------------------------------------------------------------------

#[test]
fn whole_game_mini_misere_4() {
    for lang in LANGS {
        let (transcript, report) = whole_game("mini-misere-4", 7, lang);
        assert_eq!(report["winners"], serde_json::json!([2]));
        assert!(transcript.starts_with(
            "== Mini Misère (current rules, 4 players) / ミニミゼール（現行ルール・4人） ==\n"
        ));
        assert!(transcript.contains(lang.pick("You play Seat 0.", "あなたは0番席です。")));
    }
}

#[test]
fn whole_game_mini_misere_5_1989_with_joker_calls() {
    for lang in LANGS {
        let (transcript, report) = whole_game("mini-misere-5-1989", 8, lang);
        // The human led the joker and was asked for a suit: the first choice, spades.
        assert!(transcript.contains(lang.call_question()), "{transcript}");
        assert!(
            transcript.contains(&lang.calls_suit(0, 'S')),
            "{transcript}"
        );
        // Every Lot question was answered.
        assert!(transcript.contains(lang.lot_question()));
        let passes = lang.pick("Seat 0 (You) passes", "0番席 (あなた)はパス");
        assert_eq!(
            transcript.matches(passes).count(),
            transcript.matches(lang.lot_question()).count()
        );
        assert_eq!(report["ruleset"], "mini-misere-5-1989");
    }
}

#[test]
fn whole_game_mittlere_jass() {
    for lang in LANGS {
        let (transcript, report) = whole_game("mittlere-jass", 7, lang);
        assert_eq!(report["deals"].as_array().expect("deals").len(), 12);
        // Trump shows once set, and card points are in every summary.
        assert!(transcript.contains(lang.pick("Trump: ", "切札: ")));
        assert_eq!(
            transcript
                .lines()
                .filter(|l| l.trim_start().starts_with(lang.pick("Points", "点数")))
                .count(),
            12
        );
    }
}

#[test]
fn whole_game_molotow_jass() {
    for lang in LANGS {
        let (_, report) = whole_game("molotow-jass", 7, lang);
        assert_eq!(report["deals"].as_array().expect("deals").len(), 12);
    }
}

#[test]
fn whole_game_mura_4() {
    for lang in LANGS {
        let (transcript, report) = whole_game("mura-4", 7, lang);
        // Mura ends once a seat reaches 10 penalty points; the fewest wins.
        let totals = numbers(&report["deals"].as_array().expect("deals").last().unwrap()["totals"]);
        assert!(totals.iter().any(|t| *t >= 10), "{totals:?}");
        let fewest = totals.iter().min().copied();
        for w in numbers(&report["winners"]) {
            assert_eq!(Some(totals[w as usize]), fewest);
        }
        assert!(transcript.contains(lang.pick(
            "penalty: tricks won plus one, unless exempt",
            "失点：取ったトリック数＋1（免除点に達すれば0）"
        )));
    }
}

// ---------------------------------------------------------------------------------------------
// Input that is not a legal move
// ---------------------------------------------------------------------------------------------

#[test]
fn illegal_input_is_explained_and_the_game_goes_on() {
    for lang in LANGS {
        let dir = scratch(&format!("illegal-{}", lang.code()));
        let path = dir.join("game.json");
        let mut game = start(&new_game("mini-misere-4", 7, lang, &path));
        let mut must_follow = 0;
        let mut not_in_hand = 0;
        let mut not_understood = 0;
        let mut last_trick = 0;
        while let Some(turn) = game.prompt(lang) {
            // A card of another suit while the hand holds the suit led.
            if let Some(led) = turn.led_suit()
                && turn.hand.iter().any(|c| c.ends_with(led))
                && let Some(other) = turn.hand.iter().find(|c| !c.ends_with(led))
                && must_follow < 3
            {
                must_follow += 1;
                let other = other.clone();
                game.answer(&other.to_lowercase());
                let turn = game.prompt(lang).expect("asked again");
                assert!(
                    turn.text
                        .starts_with(&format!("{}\n", lang.must_follow(&printed(&other), led))),
                    "{}",
                    turn.text
                );
                // Nothing was played: the same hand and trick are shown again.
                assert!(turn.hand.contains(&other));
                game.answer("1");
                continue;
            }
            // A card that is not in the hand.
            if not_in_hand == 0 {
                let missing = ["AS", "AH", "AD", "AC"]
                    .into_iter()
                    .find(|c| !turn.hand.iter().any(|h| h == c))
                    .expect("a missing ace");
                not_in_hand += 1;
                // `10` for `T` and lower case are accepted too.
                game.answer(missing);
                let again = game.prompt(lang).expect("asked again");
                assert!(
                    again.text.starts_with(&format!(
                        "{}\n",
                        lang.not_in_hand(&printed(missing), missing)
                    )),
                    "{}",
                    again.text
                );
                assert_eq!(again.hand, turn.hand);
                game.answer("1");
                continue;
            }
            // Input that is neither a number of the menu nor an action.
            if not_understood == 0 {
                not_understood += 1;
                for bad in ["xyz", "99", "0", "call:S"] {
                    game.answer(bad);
                    let again = game.prompt(lang).expect("asked again");
                    let expected = if bad == "call:S" {
                        lang.pick(
                            "Name spades cannot be played: a suit is named only right after leading the joker",
                            "スペードを指定は出せません: スートの指定はジョーカーをリードした直後だけです",
                        )
                        .to_owned()
                    } else {
                        lang.not_understood(bad)
                    };
                    assert!(
                        again.text.starts_with(&format!("{expected}\n")),
                        "{bad}: {}",
                        again.text
                    );
                }
                game.answer("1");
                continue;
            }
            // The last trick, and the rules.
            if last_trick == 0 && turn.text.contains(lang.pick("Trick 3", "第3トリック")) {
                last_trick += 1;
                game.answer("l");
                let again = game.prompt(lang).expect("asked again");
                let line = again.text.lines().next().expect("a line");
                assert!(
                    line.starts_with(lang.pick("Last trick: ", "直前のトリック: "))
                        && line.contains(" → "),
                    "{line}"
                );
                game.answer("?");
                let again = game.prompt(lang).expect("asked again");
                // The rules sheet's text, in the player's language.
                let expected = lang.pick(
                    "  Mini Misère (current rules, 4 players)\n  Rules at a glance\n  Players and cards\n",
                    "  ミニミゼール（現行ルール・4人）\n  ルールのまとめ\n  人数とカード\n",
                );
                assert!(again.text.starts_with(expected), "{}", again.text);
                game.answer("1");
                continue;
            }
            game.answer("1");
        }
        let (transcript, stderr, status) = game.finish();
        assert!(status.success(), "{stderr}");
        assert_eq!(must_follow, 3, "{transcript}");
        assert_eq!(last_trick, 1);
        check_finished_game(&transcript, lang, &path, 1, false);
    }
}

#[test]
fn last_trick_before_any_trick() {
    let dir = scratch("last-trick-none");
    let path = dir.join("game.json");
    // Mittlere Jass: the last seat deals, so the human (seat 0) leads the first card and is
    // asked before anything is played.
    let mut game = start(&new_game("mittlere-jass", 3, Lang::Ja, &path));
    let turn = game.prompt(Lang::Ja).expect("a prompt");
    assert!(turn.text.contains("ディーラー: 2番席"), "{}", turn.text);
    assert!(!turn.text.contains("第1トリック: "), "{}", turn.text);
    game.answer("l");
    let again = game.prompt(Lang::Ja).expect("asked again");
    assert!(
        again
            .text
            .starts_with("まだ終わったトリックはありません。\n"),
        "{}",
        again.text
    );
    game.answer("q");
    game.answer("y");
    let (_, stderr, status) = game.finish();
    assert!(status.success(), "{stderr}");
}

// ---------------------------------------------------------------------------------------------
// Quitting and resuming
// ---------------------------------------------------------------------------------------------

fn deal_hands(record: &Value) -> Vec<Value> {
    record["deals"]
        .as_array()
        .expect("deals")
        .iter()
        .map(|d| d["hands"].clone())
        .collect()
}

fn actions(record: &Value) -> Vec<Value> {
    record["deals"]
        .as_array()
        .expect("deals")
        .iter()
        .flat_map(|d| d["actions"].as_array().expect("actions").clone())
        .collect()
}

/// `q` in the middle of the second deal saves the game; `--resume` (in the other language)
/// goes on from that very position to the end, with the deals the uninterrupted game had.
#[test]
fn quit_then_resume_continues_the_same_game() {
    for (preset, lang) in [("molotow-jass", Lang::En), ("mini-misere-4", Lang::Ja)] {
        let dir = scratch(&format!("resume-{preset}"));
        // The game played straight through.
        let straight = dir.join("straight.json");
        let game = start(&new_game(preset, 11, lang, &straight));
        let (_, stderr, status) = play_out(game, lang, |turn| first_choice(turn, lang));
        assert!(status.success(), "{stderr}");
        let reference = record(&straight);

        // The same game, quit at the human's third turn of deal 2.
        let path = dir.join("game.json");
        let mut game = start(&new_game(preset, 11, lang, &path));
        let mut turns_in_deal_2 = 0;
        while let Some(turn) = game.prompt(lang) {
            if lang.deal_header_at(&game.transcript, 2).is_some() {
                turns_in_deal_2 += 1;
                if turns_in_deal_2 == 3 {
                    game.answer("q");
                    game.answer("y");
                    continue;
                }
            }
            game.answer(&first_choice(&turn, lang));
        }
        let (transcript, stderr, status) = game.finish();
        assert!(status.success(), "{stderr}");
        // Quitting asks first (answered yes above), then says where the game is saved.
        let tail: Vec<&str> = transcript.lines().rev().take(2).collect();
        assert_eq!(tail[0], lang.resume_with(&path), "{transcript}");
        let confirm = lang.pick(
            "Quit now? The game is saved and can be resumed (y/n): ",
            "終了しますか？ゲームは保存され、あとで再開できます（y/n）: ",
        );
        assert_eq!(
            tail[1],
            format!("{confirm}{}", lang.saved_to(&path)),
            "{transcript}"
        );
        let saved = record(&path);
        assert_eq!(saved["deals"].as_array().expect("deals").len(), 2);
        assert_eq!(saved["table"]["seed"], 11);
        let report = replay(&path);
        assert_eq!(report["finished"], false);
        let played = actions(&saved);
        assert_eq!(played[..], actions(&reference)[..played.len()]);

        // Resumed in the other language, to the end.
        let other = if lang == Lang::En { Lang::Ja } else { Lang::En };
        let game = Plain::start(&[
            "play",
            "--resume",
            path.to_str().expect("UTF-8"),
            "--plain",
            "--lang",
            other.code(),
        ]);
        let (resumed, stderr, status) = play_out(game, other, |turn| first_choice(turn, other));
        assert!(status.success(), "{stderr}");
        // No deal header before the first prompt: the second deal goes on.
        let first_prompt = resumed.find(other.pick("Your turn.", "あなたの番です。"));
        assert!(first_prompt < other.deal_header_at(&resumed, 3));
        assert!(other.deal_header_at(&resumed, 2).is_none());
        assert!(resumed.contains(&other.deal_summary(2)));
        check_finished_game(&resumed, other, &path, 2, true);
        let finished = record(&path);
        // The same deals as the uninterrupted game, and the moves before quitting kept; the
        // bots being deterministic, the whole game is the uninterrupted one.
        assert_eq!(deal_hands(&finished), deal_hands(&reference));
        assert_eq!(actions(&finished)[..played.len()], played[..]);
        assert_eq!(finished["deals"], reference["deals"]);
        assert_eq!(finished["table"], reference["table"]);
    }
}

/// End of input is a quit too; resuming a finished game only says who won.
#[test]
fn end_of_input_saves_and_a_finished_game_resumes_to_its_result() {
    let lang = Lang::En;
    let dir = scratch("eof");
    let path = dir.join("game.json");
    let game = start(&new_game("mura-4", 5, lang, &path));
    let (transcript, stderr, status) = game.finish();
    assert!(status.success(), "{stderr}");
    assert!(transcript.ends_with(&format!(
        "{}\n{}\n",
        lang.saved_to(&path),
        lang.resume_with(&path)
    )));
    let game = Plain::start(&["play", "--resume", path.to_str().expect("UTF-8"), "--plain"]);
    let (transcript, stderr, status) = play_out(game, lang, |turn| first_choice(turn, lang));
    assert!(status.success(), "{stderr}");
    check_finished_game(&transcript, lang, &path, 1, true);
    let before = std::fs::read_to_string(&path).expect("the record");
    let stdout = ok(torite(&[
        "play",
        "--resume",
        path.to_str().expect("UTF-8"),
        "--plain",
        "--lang",
        "ja",
    ]));
    let winners: Vec<usize> = numbers(&replay(&path)["winners"])
        .into_iter()
        .map(|s| s as usize)
        .collect();
    assert!(stdout.contains(&format!(
        "\n== ゲーム終了 ==\n{}\n",
        Lang::Ja.winner_line(&winners)
    )));
    assert_eq!(std::fs::read_to_string(&path).expect("the record"), before);
}

/// Bad settings are refused on one line of standard error, exit status 2.
#[test]
fn bad_play_settings() {
    let dir = scratch("bad");
    let cases: [(&[&str], &str); 4] = [
        (
            &["play", "mittlere-jass", "--plain", "--seat", "3"],
            "--seat 3: mittlere-jass has seats 0 to 2",
        ),
        (
            &["play", "no-such-game", "--plain"],
            "\"no-such-game\" is neither a preset id nor a house-rule file",
        ),
        (
            &["play", "--plain", "--resume", "/nonexistent/torite.json"],
            "cannot read /nonexistent/torite.json",
        ),
        (
            &["play", "--plain", "--bots", "nobody", "--save", "x.json"],
            "nobody",
        ),
    ];
    for (args, expected) in cases {
        let mut args = args.to_vec();
        let save = dir.join("x.json");
        if let Some(i) = args.iter().position(|a| *a == "x.json") {
            args[i] = save.to_str().expect("UTF-8");
        }
        let line = refused(&torite(&args));
        assert!(line.contains(expected), "{args:?}: {line}");
    }
}

/// `u` takes back the player's last decision with the bots' moves after it, twice in a row
/// back to the first turn, where there is nothing left to take back; the save then holds only
/// what is still played, and the game played on, quit and resumed is the game never undone.
#[test]
fn undo_twice_then_play_on_saves_only_the_final_sequence_and_resumes() {
    for lang in LANGS {
        let dir = scratch(&format!("undo-{}", lang.code()));
        let straight = dir.join("straight.json");
        let game = start(&new_game("mini-misere-4", 11, lang, &straight));
        let (_, stderr, status) = play_out(game, lang, |turn| first_choice(turn, lang));
        assert!(status.success(), "{stderr}");
        let reference = record(&straight);

        let path = dir.join("game.json");
        let mut game = start(&new_game("mini-misere-4", 11, lang, &path));
        let mut before = Vec::new();
        for _ in 0..3 {
            let turn = game.prompt(lang).expect("a turn");
            before.push(actions(&record(&path)));
            game.answer(&first_choice(&turn, lang));
        }
        game.prompt(lang).expect("a fourth turn");
        assert!(actions(&record(&path)).len() > before[2].len());
        // Back to the third turn, then the second, then the first.
        for back in (0..3).rev() {
            game.answer("u");
            let turn = game.prompt(lang).expect("the turn again");
            assert!(turn.text.contains(lang.pick(
                "Taken back: your last move, and the bots' moves after it.",
                "直前のあなたの手を、その後のボットの手と一緒に取り消しました。"
            )));
            assert_eq!(actions(&record(&path)), before[back]);
        }
        game.answer("u");
        let turn = game.prompt(lang).expect("the first turn still");
        assert!(turn.text.contains(lang.pick(
            "Nothing of yours to take back in this deal.",
            "このディールで取り消せるあなたの手はありません。"
        )));
        assert_eq!(actions(&record(&path)), before[0]);
        let mut turn = turn;
        for _ in 0..2 {
            game.answer(&first_choice(&turn, lang));
            turn = game.prompt(lang).expect("the next turn");
        }
        game.answer("q");
        game.answer("y");
        let (_, stderr, status) = game.finish();
        assert!(status.success(), "{stderr}");
        let saved = actions(&record(&path));
        assert_eq!(saved[..], actions(&reference)[..saved.len()]);
        assert_eq!(replay(&path)["finished"], false);

        let game = Plain::start(&[
            "play",
            "--resume",
            path.to_str().expect("UTF-8"),
            "--plain",
            "--lang",
            lang.code(),
        ]);
        let (_, stderr, status) = play_out(game, lang, |turn| first_choice(turn, lang));
        assert!(status.success(), "{stderr}");
        assert_eq!(record(&path)["deals"], reference["deals"]);
    }
}

/// `--suits letters` (or the older `--letters`) writes suits as letters, `--suits symbols` as
/// symbols, in either language; `--help` says which is the default where.
#[test]
fn suits_option_chooses_letters_or_symbols() {
    let dir = scratch("suits");
    for (lang, args, letters) in [
        (Lang::Ja, &["--suits", "letters"][..], true),
        (Lang::En, &["--letters"][..], true),
        (Lang::Ja, &["--suits", "symbols"][..], false),
        (Lang::Ja, &[][..], false),
    ] {
        let path = dir.join("game.json");
        let mut all = new_game("mini-misere-4", 11, lang, &path);
        all.extend(args.iter().map(|a| (*a).to_owned()));
        let mut game = start(&all);
        let turn = game.prompt(lang).expect("a turn");
        game.answer("q");
        game.answer("y");
        let (_, stderr, status) = game.finish();
        assert!(status.success(), "{stderr}");
        let hand = turn
            .text
            .lines()
            .find(|l| l.starts_with(lang.hand_label()))
            .expect("the hand");
        let symbols = hand.contains(['♠', '♥', '♦', '♣']);
        assert_eq!(symbols, !letters, "{args:?}: {hand}");
        if letters {
            assert!(hand.contains(" | "), "{hand}");
            assert!(
                hand.split(" | ")
                    .all(|group| group.starts_with(['S', 'H', 'D', 'C'])
                        || group.starts_with(lang.hand_label())),
                "{hand}"
            );
        }
    }
    let help = torite(&["play", "--help"]);
    assert_eq!(help.status, Some(0));
    assert!(help.stdout.contains("--suits <SUITS>"), "{}", help.stdout);
    assert!(
        help.stdout.contains("letters in the Japanese full screen"),
        "{}",
        help.stdout
    );
    let both = torite(&["play", "--plain", "--suits", "symbols", "--letters"]);
    assert_eq!(both.status, Some(2), "{}", both.stderr);
    let bad = refused(&torite(&["play", "--plain", "--suits", "pictures"]));
    assert!(bad.contains("pictures"), "{bad}");
}

/// After a deal the summary says how to review it, and `a` at the next turn prints the review of
/// the human's own decisions in that deal, in both languages.
#[test]
fn a_at_the_next_turn_reviews_the_deal_that_ended() {
    let dir = scratch("review");
    for lang in LANGS {
        let save = dir.join(format!("review-{}.json", lang.code()));
        // Seat 0's six turns of the first deal (the first legal action each time), then `a`.
        let answers = "1\n1\n1\n1\n1\n1\na\nq\ny\n";
        let out = common::run(
            &[
                "play",
                "mini-misere-4",
                "--plain",
                "--fast",
                "--seed",
                "3",
                "--bots",
                "heuristic",
                "--lang",
                lang.code(),
                "--save",
                path_str(&save),
            ],
            Some(answers),
        );
        let text = ok(out);
        let hint = lang.pick(
            "(Answer a at your next turn to review your decisions of this deal.)",
            "（次の手番で a と答えると、このディールの自分の手を検討できます。）",
        );
        assert!(text.contains(hint), "{text}");
        let title = lang.pick("Your decisions in deal 1", "第1ディールの自分の手");
        let review = text
            .split(title)
            .nth(1)
            .unwrap_or_else(|| panic!("no review: {text}"));
        let trick = lang.pick("  trick 1: ", "  第1トリック：");
        assert!(review.contains(trick), "{review}");
        let summary = lang.pick("seat 0: 5 decisions, loss ", "0番席：5手、損失");
        assert!(review.contains(summary), "{review}");
    }
}

/// The plain mode's conveniences: a move that is the only one possible is played with a notice
/// (not asked for), the seat that sets the trump is named, `s` prints the totals so far, and
/// `q` asks before quitting (no goes on).
#[test]
fn forced_moves_trump_scores_and_quitting_are_said() {
    for lang in [Lang::En, Lang::Ja] {
        let dir = scratch(&format!("plain-words-{lang:?}"));
        let path = dir.join("game.json");
        let mut game = start(&new_game("mittlere-jass", 3, lang, &path));
        let mut asked_scores = false;
        let mut declined = false;
        while let Some(turn) = game.prompt(lang) {
            if !asked_scores && lang.deal_header_at(&game.transcript, 2).is_some() {
                asked_scores = true;
                game.answer("s");
            } else if asked_scores && !declined {
                declined = true;
                game.answer("q");
                game.answer("n");
            } else if declined && lang.deal_header_at(&game.transcript, 3).is_some() {
                game.answer("q");
                game.answer("y");
            } else {
                game.answer(&first_choice(&turn, lang));
            }
        }
        let (transcript, stderr, status) = game.finish();
        assert!(status.success(), "{stderr}");
        let (forced, trump, totals, confirm) = match lang {
            Lang::En => (
                "Only one move is possible: ",
                " played off suit and set the trump. Trump: ",
                "Totals after 1 deal: Seat 0 (You) ",
                "Quit now? The game is saved and can be resumed (y/n): ",
            ),
            Lang::Ja => (
                "出せる手は一つだけです：",
                "がフォローせずに出したので切札が決まりました。切札: ",
                "1ディール後の累計：0番席 (あなた) ",
                "終了しますか？ゲームは保存され、あとで再開できます（y/n）: ",
            ),
        };
        for text in [forced, trump, totals] {
            assert!(
                transcript.contains(text),
                "missing {text:?} in:\n{transcript}"
            );
        }
        // Asked twice: declined (the game went on into deal 3), then accepted.
        assert_eq!(transcript.matches(confirm).count(), 2, "{transcript}");
        assert!(
            lang.deal_header_at(&transcript, 3).is_some(),
            "{transcript}"
        );
        // The forced moves are in the record like any other.
        assert!(record(&path)["deals"].as_array().expect("deals").len() >= 3);
    }
}
