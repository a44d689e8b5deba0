//! End-to-end tests of `torite score`, the scorekeeper for games played with real cards: whole
//! score sheets entered line by line in Japanese and English and compared with sheets worked
//! out by hand from RULES.md (the comment at each deal gives the working), entries that cannot
//! be right refused with a reason, `u` (undo), `q` (quit) and `--resume`.

mod common;

use std::path::Path;

use serde_json::{Value, json};

use common::{LANGS, Lang, path_str, run, scratch};

/// The scorekeeper's words the tests look for (from locales/*.ftl).
impl Lang {
    fn seat(self, seat: usize) -> String {
        match self {
            Lang::En => format!("Seat {seat}"),
            Lang::Ja => format!("{seat}番席"),
        }
    }

    fn winners(self, seats: &[usize]) -> String {
        let names: Vec<String> = seats.iter().map(|s| self.seat(*s)).collect();
        let names = names.join(", ");
        match (self, seats.len()) {
            (Lang::En, 1) => format!("Winner: {names}"),
            (Lang::En, _) => format!("Winners (shared): {names}"),
            (Lang::Ja, 1) => format!("勝者: {names}"),
            (Lang::Ja, _) => format!("勝者（同点）: {names}"),
        }
    }

    fn deal(self, number: usize, dealer: usize) -> String {
        match self {
            Lang::En => format!("Deal {number} (dealer: Seat {dealer})"),
            Lang::Ja => format!("第{number}ディール（ディーラー: {dealer}番席）"),
        }
    }

    fn bad(self, why: &str) -> String {
        match self {
            Lang::En => format!("Not accepted: {why}"),
            Lang::Ja => format!("受け付けられません: {why}"),
        }
    }

    /// A refusal of impossible facts, in each language's words.
    fn bad_facts(self, en: &str, ja: &str) -> String {
        match self {
            Lang::En => self.bad(en),
            Lang::Ja => self.bad(ja),
        }
    }

    fn bad_numbers(self, count: usize, given: usize) -> String {
        match self {
            Lang::En => self.bad(&format!(
                "expected {count} whole numbers, one per seat; got {given}"
            )),
            Lang::Ja => self.bad(&format!(
                "1席に1つ、{count}つの整数が必要ですが、{given}つです"
            )),
        }
    }

    fn not_number(self, token: &str) -> String {
        match self {
            Lang::En => self.bad(&format!("“{token}” is not a whole number of 0 or more")),
            Lang::Ja => self.bad(&format!("「{token}」は0以上の整数ではありません")),
        }
    }

    /// The question at the end of a game.
    fn over_ask(self) -> &'static str {
        self.pick(
            "u takes back the last deal; Enter saves and quits: ",
            "u で直前のディールを取り消し、Enter で保存して終了: ",
        )
    }

    fn undone(self, number: usize) -> String {
        match self {
            Lang::En => format!("Deal {number} removed."),
            Lang::Ja => format!("第{number}ディールを取り消しました。"),
        }
    }

    fn saved(self, path: &Path) -> String {
        match self {
            Lang::En => format!("Score sheet saved to {}", path.display()),
            Lang::Ja => format!("得点表を保存しました: {}", path.display()),
        }
    }

    fn game_over(self) -> &'static str {
        self.pick("== Game over ==", "== ゲーム終了 ==")
    }

    fn held(self, count: usize) -> String {
        match self {
            Lang::En => format!("  Held-over points: {count}"),
            Lang::Ja => format!("  持ち越し点: {count}"),
        }
    }

    /// A scoring rule's name, by its key in the catalogs (`rule-…`).
    fn rule(self, key: &str) -> &'static str {
        let (en, ja) = match key {
            "trick-table" => ("points by tricks won", "取ったトリック数による得点"),
            "lot-succeeded" => ("the Lot succeeded", "ロット成功"),
            "lot-failed" => ("the Lot failed", "ロット失敗"),
            "all-tricks" => ("a seat won every trick", "全トリックを取った人がいる"),
            "no-trick" => ("a seat won no trick", "トリックを1つも取らなかった人がいる"),
            "hundred" => ("a seat took 100 points or more", "100点以上取った人がいる"),
            "two-equal" => ("two seats have equal points", "2人が同点"),
            "highest-and-lowest" => (
                "highest and lowest score, the middle loses",
                "最高点と最低点の人が勝ち、真ん中が負け",
            ),
            "all-points" => ("a seat took all the points", "1人が全得点を取った"),
            "three-equal" => (
                "three seats have equal points: the draw decides",
                "3人が同点：カードを引いて決める",
            ),
            "two-lowest-equal" => ("the two lowest are equal", "下位2人が同点"),
            "two-highest-equal" => ("the two highest are equal", "上位2人が同点"),
            "two-middle-equal" => ("the two middle seats are equal", "中位2人が同点"),
            "all-differ" => ("all points differ", "全員の点数が異なる"),
            "all-but-one-equal" => ("all seats but one have equal points", "1人を除いて全員同点"),
            "plus-minus" => (
                "highest and lowest score one each",
                "最高点と最低点の人が1点ずつ",
            ),
            "penalty" => (
                "penalty: tricks won plus one, unless exempt",
                "失点：取ったトリック数＋1（免除点に達すれば0）",
            ),
            _ => panic!("no rule {key}"),
        };
        self.pick(en, ja)
    }
}

// ---------------------------------------------------------------------------------------------
// Running the scorekeeper
// ---------------------------------------------------------------------------------------------

/// A new sheet of `preset` saved at `path`, fed `input` after Enter for the players' names
/// (seats keep their numbers).
fn new_sheet(preset: &str, lang: Lang, path: &Path, input: &str) -> String {
    let input = format!("\n{input}");
    let input = input.as_str();
    let run = run(
        &[
            "score",
            preset,
            "--lang",
            lang.code(),
            "--save",
            path_str(path),
        ],
        Some(input),
    );
    assert_eq!(run.status, Some(0), "{}{}", run.stdout, run.stderr);
    assert!(run.stderr.is_empty(), "{}", run.stderr);
    run.stdout
}

fn resume_sheet(lang: Lang, path: &Path, input: &str) -> String {
    let run = run(
        &["score", "--resume", path_str(path), "--lang", lang.code()],
        Some(input),
    );
    assert_eq!(run.status, Some(0), "{}{}", run.stdout, run.stderr);
    run.stdout
}

/// One deal as the scorekeeper printed it.
#[derive(Debug, PartialEq)]
struct Row {
    scores: Vec<i32>,
    totals: Vec<i32>,
    rule: String,
}

fn numbers_after(line: &str, label: &str) -> Option<Vec<i32>> {
    let rest = line.strip_prefix("  ")?.strip_prefix(label)?;
    let numbers: Vec<i32> = rest
        .split_whitespace()
        .map(str::parse)
        .collect::<Result<_, _>>()
        .ok()?;
    (!numbers.is_empty()).then_some(numbers)
}

/// The deals printed: each one's scores, totals and scoring rule.
fn rows(output: &str, lang: Lang) -> Vec<Row> {
    let lines: Vec<&str> = output.lines().collect();
    let mut rows = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        if let Some(scores) = numbers_after(line, lang.pick("Score", "得点")) {
            let totals = numbers_after(lines[i + 1], lang.pick("Total", "累計")).expect("totals");
            let rule = lines[i + 2]
                .strip_prefix(lang.pick("  Scoring: ", "  採点: "))
                .expect("the rule")
                .to_owned();
            rows.push(Row {
                scores,
                totals,
                rule,
            });
        }
    }
    rows
}

fn expected_rows(lang: Lang, sheet: &[(&[i32], &[i32], &str)]) -> Vec<Row> {
    sheet
        .iter()
        .map(|(scores, totals, rule)| Row {
            scores: scores.to_vec(),
            totals: totals.to_vec(),
            rule: lang.rule(rule).to_owned(),
        })
        .collect()
}

fn saved(path: &Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).expect("the sheet was saved"))
        .expect("the sheet is JSON")
}

fn input<S: AsRef<str>>(lines: &[S]) -> String {
    lines.iter().map(|l| format!("{}\n", l.as_ref())).collect()
}

/// The answers to the Jass games' two tick questions (a seat that took every trick, else the
/// seats that took none) that stand for `tricks`, the trick counts per seat: the scorekeeper
/// asks for the ticks, as the paper sheet keeps them, not for counts.
fn ticked(tricks: &str) -> String {
    let counts: Vec<u32> = tricks
        .split_whitespace()
        .map(|t| t.parse().expect("a trick count"))
        .collect();
    let total: u32 = counts.iter().sum();
    if let Some(every) = counts.iter().position(|c| *c == total) {
        return every.to_string();
    }
    let none: Vec<String> = (0..counts.len())
        .filter(|s| counts[*s] == 0)
        .map(|s| s.to_string())
        .collect();
    if none.is_empty() {
        "-\n-".to_owned()
    } else {
        format!("-\n{}", none.join(" "))
    }
}

/// The end of a finished sheet whose input ends there: game over, the winners, the offer to
/// take back the last deal, the saved path.
fn assert_ends(output: &str, lang: Lang, winners: &[usize], path: &Path) {
    let tail: Vec<&str> = output.lines().rev().take(4).collect();
    assert_eq!(
        tail,
        [
            lang.saved(path).as_str(),
            lang.over_ask(),
            lang.winners(winners).as_str(),
            lang.game_over()
        ],
        "{output}"
    );
}

// ---------------------------------------------------------------------------------------------
// Whole sheets
// ---------------------------------------------------------------------------------------------

/// A Jass deal: tricks and card points entered, then the scores, the totals and the rule.
type Jass<const N: usize> = (&'static str, &'static str, [i32; N], [i32; N], &'static str);

/// A Molotow deal: the lines entered (a draw's answers included), scores, totals, rule.
type Molotow = (&'static [&'static str], [i32; 4], [i32; 4], &'static str);

/// A Plus-Minus deal: as [`Jass`], and the number of points held over after it.
type PlusMinus = (
    &'static str,
    &'static str,
    [i32; 4],
    [i32; 4],
    &'static str,
    usize,
);

/// Mini Misère (current rules): trick table 0:6 1:1 2:2 3:3 4:8 5:10 6:0, Lot 12 / 6, to 25;
/// a shared lead at the end plays on.
#[test]
fn sheet_mini_misere_4() {
    let entries = input(&[
        // Deal 1: no Lot; tricks 2 1 3 0 → 2 1 3 6.
        "-", "2 1 3 0", //
        // Deal 2: seat 2 declares and wins every trick: 12 to it, nothing to the others.
        "2", "2", //
        // Deal 3: seats 0 and 3 declare, the Lot fails: 6 to each seat that did not declare.
        "0 3", "-", //
        // Deal 4: tricks 0 0 2 4 → 6 6 2 8.
        "-", "0 0 2 4", //
        // Deal 5: tricks 0 0 1 5 → 6 6 1 10: totals 14 19 24 24, nobody at 25 yet.
        "-", "0 0 1 5", //
        // Deal 6: seat 0's Lot fails: 6 to seats 1 to 3: 14 25 30 30, the lead is shared.
        "0", "-", //
        // Deal 7: tricks 0 3 2 1 → 6 3 2 1: 20 28 32 31, seat 2 alone ahead.
        "-", "0 3 2 1",
    ]);
    let sheet: [(&[i32], &[i32], &str); 7] = [
        (&[2, 1, 3, 6], &[2, 1, 3, 6], "trick-table"),
        (&[0, 0, 12, 0], &[2, 1, 15, 6], "lot-succeeded"),
        (&[0, 6, 6, 0], &[2, 7, 21, 6], "lot-failed"),
        (&[6, 6, 2, 8], &[8, 13, 23, 14], "trick-table"),
        (&[6, 6, 1, 10], &[14, 19, 24, 24], "trick-table"),
        (&[0, 6, 6, 6], &[14, 25, 30, 30], "lot-failed"),
        (&[6, 3, 2, 1], &[20, 28, 32, 31], "trick-table"),
    ];
    for lang in LANGS {
        let dir = scratch(&format!("mini-misere-4-{}", lang.code()));
        let path = dir.join("sheet.json");
        let out = new_sheet("mini-misere-4", lang, &path, &entries);
        assert_eq!(rows(&out, lang), expected_rows(lang, &sheet), "{out}");
        assert!(out.starts_with(lang.pick(
            "Score sheet: Mini Misère (current rules, 4 players) / ミニミゼール（現行ルール・4人）\n",
            "得点表: Mini Misère (current rules, 4 players) / ミニミゼール（現行ルール・4人）\n",
        )));
        // The dealer turns with each deal.
        for (i, dealer) in [0, 1, 2, 3, 0, 1, 2].into_iter().enumerate() {
            assert!(out.contains(&lang.deal(i + 1, dealer)), "{out}");
        }
        // The Lot's questions; no tricks asked when a Lot was declared.
        assert_eq!(
            out.matches(lang.pick(
                "Lot declared? The declaring seats, or - for none:",
                "ロット宣言は？宣言した席の番号、なければ - :"
            ))
            .count(),
            7
        );
        assert_eq!(
            out.matches(lang.pick(
                "Tricks won per seat (4 numbers adding up to 6):",
                "各席の取ったトリック数（4つの数、合計6）:"
            ))
            .count(),
            4
        );
        assert_ends(&out, lang, &[2], &path);
        let sheet = saved(&path);
        assert_eq!(sheet["finished"], true);
        assert_eq!(sheet["winners"], json!([2]));
        assert_eq!(sheet["ruleset"], "mini-misere-4");
        assert_eq!(
            sheet["deals"][2]["lot"],
            json!({"declarers": [0, 3], "winner": null})
        );
        assert_eq!(
            sheet["deals"][1]["lot"],
            json!({"declarers": [2], "winner": 2})
        );
        assert_eq!(sheet["deals"][6]["totals"], json!([20, 28, 32, 31]));
    }
}

/// Mittlere Jass: the first matching rule of five; a game is 12 deals.
#[test]
fn sheet_mittlere_jass() {
    let deals: [Jass<3>; 12] = [
        // Every trick: +2 to it, −1 to the others.
        ("12 0 0", "157 0 0", [2, -1, -1], [2, -1, -1], "all-tricks"),
        // Seat 2 won no trick: −2 to it, +1 to the others.
        ("5 7 0", "60 97 0", [1, 1, -2], [3, 0, -3], "no-trick"),
        // Seat 1 took 110: −2 to it, +1 to the others.
        ("2 8 2", "20 110 27", [1, -2, 1], [4, -2, -2], "hundred"),
        // Seats 0 and 1 both 50: −1 each, the third +2.
        ("4 4 4", "50 50 57", [-1, -1, 2], [3, -3, 0], "two-equal"),
        // 30 70 57: highest (1) and lowest (0) +1, the middle (2) −2.
        (
            "3 5 4",
            "30 70 57",
            [1, 1, -2],
            [4, -2, -2],
            "highest-and-lowest",
        ),
        (
            "4 4 4",
            "40 60 57",
            [1, 1, -2],
            [5, -1, -4],
            "highest-and-lowest",
        ),
        ("0 6 6", "0 80 77", [-2, 1, 1], [3, 0, -3], "no-trick"),
        // Seat 0 took 100 but seat 2 no trick: "no trick" comes first.
        ("6 6 0", "100 57 0", [1, 1, -2], [4, 1, -5], "no-trick"),
        ("1 5 6", "52 52 53", [-1, -1, 2], [3, 0, -3], "two-equal"),
        (
            "5 3 4",
            "99 28 30",
            [1, 1, -2],
            [4, 1, -5],
            "highest-and-lowest",
        ),
        // Every trick comes before no trick and 100 points.
        ("0 0 12", "0 0 157", [-1, -1, 2], [3, 0, -3], "all-tricks"),
        ("4 4 4", "45 45 67", [-1, -1, 2], [2, -1, -1], "two-equal"),
    ];
    let entries: Vec<String> = deals
        .iter()
        .flat_map(|d| [ticked(d.0), d.1.to_owned()])
        .collect();
    let sheet: Vec<(&[i32], &[i32], &str)> =
        deals.iter().map(|d| (&d.2[..], &d.3[..], d.4)).collect();
    for lang in LANGS {
        let dir = scratch(&format!("mittlere-{}", lang.code()));
        let path = dir.join("sheet.json");
        let out = new_sheet("mittlere-jass", lang, &path, &input(&entries));
        assert_eq!(rows(&out, lang), expected_rows(lang, &sheet), "{out}");
        assert!(out.contains(lang.pick(
            "Card points per seat (3 numbers, total 157; the last may be left out):",
            "各席のカードの点数（3つの数、合計157。最後は省略可）:"
        )));
        assert!(out.contains(&lang.deal(12, 2)));
        assert!(!out.contains(&lang.deal(13, 0)));
        assert_ends(&out, lang, &[0], &path);
        let sheet = saved(&path);
        assert_eq!(sheet["deals"].as_array().expect("deals").len(), 12);
        assert_eq!(sheet["deals"][7]["points"], json!([100, 57, 0]));
        assert_eq!(sheet["deals"][7]["tricks"], json!([6, 6, 0]));
    }
}

/// Molotow Jass: seven rules; a three-way tie asks which tied seat drew the highest card.
#[test]
fn sheet_molotow_jass() {
    let deals: [Molotow; 12] = [
        // All 157 points: +3, the others −1.
        (
            &["9 0 0 0", "157 0 0 0"],
            [3, -1, -1, -1],
            [3, -1, -1, -1],
            "all-points",
        ),
        // Seats 1 to 3 all 39: the fourth +1; seat 2 drew highest: −1 (a seat that is not
        // tied is refused first).
        (
            &["3 2 2 2", "40 39 39 39", "0", "2"],
            [1, 0, -1, 0],
            [4, -1, -2, -1],
            "three-equal",
        ),
        // 100 points: −3, the others +1 (before the two equal middle seats).
        (
            &["4 2 2 1", "100 20 20 17"],
            [-3, 1, 1, 1],
            [1, 0, -1, 0],
            "hundred",
        ),
        // 30 30 40 57: the two lowest 0, the highest +1, the second −1.
        (
            &["2 2 2 3", "30 30 40 57"],
            [0, 0, -1, 1],
            [1, 0, -2, 1],
            "two-lowest-equal",
        ),
        // 50 50 40 17: the two highest 0, the third −1, the lowest +1.
        (
            &["3 3 2 1", "50 50 40 17"],
            [0, 0, -1, 1],
            [1, 0, -3, 2],
            "two-highest-equal",
        ),
        // 60 40 40 17: highest and lowest +1, the two middle −1.
        (
            &["3 2 2 2", "60 40 40 17"],
            [1, -1, -1, 1],
            [2, -1, -4, 3],
            "two-middle-equal",
        ),
        (
            &["3 3 2 1", "60 50 30 17"],
            [1, -1, -1, 1],
            [3, -2, -5, 4],
            "all-differ",
        ),
        // No penalty for no trick: 0 52 52 53 has two equal middle seats.
        (
            &["0 3 3 3", "0 52 52 53"],
            [1, -1, -1, 1],
            [4, -3, -6, 5],
            "two-middle-equal",
        ),
        // Seats 0 to 2 all 39: seat 0 drew highest.
        (
            &["2 2 2 3", "39 39 39 40", "0"],
            [-1, 0, 0, 1],
            [3, -3, -6, 6],
            "three-equal",
        ),
        (
            &["0 0 4 5", "0 0 70 87"],
            [0, 0, -1, 1],
            [3, -3, -7, 7],
            "two-lowest-equal",
        ),
        (
            &["1 2 3 3", "10 20 30 97"],
            [1, -1, -1, 1],
            [4, -4, -8, 8],
            "all-differ",
        ),
        // All the points: three seats at 0 need no draw.
        (
            &["0 0 0 9", "0 0 0 157"],
            [-1, -1, -1, 3],
            [3, -5, -9, 11],
            "all-points",
        ),
    ];
    let entries: Vec<String> = deals
        .iter()
        .flat_map(|d| {
            d.0.iter()
                .enumerate()
                .map(|(i, l)| if i == 0 { ticked(l) } else { (*l).to_owned() })
        })
        .collect();
    let sheet: Vec<(&[i32], &[i32], &str)> =
        deals.iter().map(|d| (&d.1[..], &d.2[..], d.3)).collect();
    for lang in LANGS {
        let dir = scratch(&format!("molotow-{}", lang.code()));
        let path = dir.join("sheet.json");
        let out = new_sheet("molotow-jass", lang, &path, &input(&entries));
        assert_eq!(rows(&out, lang), expected_rows(lang, &sheet), "{out}");
        let ask = |seats: &str| match lang {
            Lang::En => format!("{seats} tie: which of them drew the highest card?"),
            Lang::Ja => format!("{seats}が同点です。いちばん強いカードを引いたのはどの席？"),
        };
        let seats = |list: [usize; 3]| list.map(|s| lang.seat(s)).join(", ");
        // Deal 2 asks twice (seat 0 is not tied), deal 9 once, deal 12 never.
        assert_eq!(out.matches(&ask(&seats([1, 2, 3]))).count(), 2, "{out}");
        assert_eq!(out.matches(&ask(&seats([0, 1, 2]))).count(), 1, "{out}");
        let not_tied = match lang {
            Lang::En => lang.bad("Seat 0 is not one of the tied seats (Seat 1, Seat 2, Seat 3)"),
            Lang::Ja => lang.bad("0番席は同点の席（1番席, 2番席, 3番席）ではありません"),
        };
        assert_eq!(out.matches(&not_tied).count(), 1, "{out}");
        assert_ends(&out, lang, &[3], &path);
        let sheet = saved(&path);
        let draws: Vec<Value> = sheet["deals"]
            .as_array()
            .expect("deals")
            .iter()
            .map(|d| d["draw"].clone())
            .collect();
        let mut expected = vec![Value::Null; 12];
        expected[1] = json!(2);
        expected[8] = json!(0);
        assert_eq!(draws, expected);
    }
}

/// Plus-Minus Jass with four: only plus points; a shared highest or lowest is held over and
/// paid to the first of the pair to score alone in a later deal; to 7.
#[test]
fn sheet_plus_minus_jass_4() {
    let deals: [PlusMinus; 7] = [
        // Highest 50 shared by seats 1 and 2: held over; lowest seat 3 +1.
        (
            "3 2 2 2",
            "40 50 50 17",
            [0, 0, 0, 1],
            [0, 0, 0, 1],
            "plus-minus",
            1,
        ),
        // Highest seat 1 and lowest seat 3 +1; seat 1 scores alone of the pair {1, 2}: +1
        // more.
        (
            "2 3 2 2",
            "30 60 47 20",
            [0, 2, 0, 1],
            [0, 2, 0, 2],
            "plus-minus",
            0,
        ),
        // Lowest 30 shared by seats 0 and 1: held; highest seat 2 +1.
        (
            "3 2 2 2",
            "30 30 60 37",
            [0, 0, 1, 0],
            [0, 2, 1, 2],
            "plus-minus",
            1,
        ),
        // All but seat 3 have 39: it scores 2; the pair {0, 1} did not score: still held.
        (
            "2 2 2 3",
            "39 39 39 40",
            [0, 0, 0, 2],
            [0, 2, 1, 4],
            "all-but-one-equal",
            1,
        ),
        // Seat 0 took 100: the highest does not score; lowest seat 1 +1, and +1 held for
        // the pair {0, 1}.
        (
            "4 1 2 2",
            "100 10 27 20",
            [0, 2, 0, 0],
            [0, 4, 1, 4],
            "plus-minus",
            0,
        ),
        // Highest 50 shared by seats 0 and 1: held; lowest seat 3 +1.
        (
            "3 3 2 1",
            "50 50 40 17",
            [0, 0, 0, 1],
            [0, 4, 1, 5],
            "plus-minus",
            1,
        ),
        // Seat 3 scores 2 and reaches 7 alone: the game ends, the held point is lost.
        (
            "3 3 2 1",
            "45 45 45 22",
            [0, 0, 0, 2],
            [0, 4, 1, 7],
            "all-but-one-equal",
            1,
        ),
    ];
    let entries: Vec<String> = deals
        .iter()
        .flat_map(|d| [ticked(d.0), d.1.to_owned()])
        .collect();
    let sheet: Vec<(&[i32], &[i32], &str)> =
        deals.iter().map(|d| (&d.2[..], &d.3[..], d.4)).collect();
    for lang in LANGS {
        let dir = scratch(&format!("plus-minus-{}", lang.code()));
        let path = dir.join("sheet.json");
        let out = new_sheet("plus-minus-jass-4", lang, &path, &input(&entries));
        assert_eq!(rows(&out, lang), expected_rows(lang, &sheet), "{out}");
        // The held-over count follows each deal's rule line.
        let lines: Vec<&str> = out.lines().collect();
        let rule_lines: Vec<usize> = lines
            .iter()
            .enumerate()
            .filter(|(_, l)| l.starts_with(lang.pick("  Scoring: ", "  採点: ")))
            .map(|(i, _)| i)
            .collect();
        assert_eq!(rule_lines.len(), 7);
        for (i, deal) in rule_lines.iter().zip(&deals) {
            let next = lines[i + 1];
            if deal.5 == 0 {
                assert!(!next.starts_with("  "), "{next}");
            } else {
                assert_eq!(next, lang.held(deal.5));
            }
        }
        assert_ends(&out, lang, &[3], &path);
        assert_eq!(saved(&path)["winners"], json!([3]));
    }
}

/// Mura with four: penalty = tricks + 1, none with 4 card points or more; the game ends when
/// a seat reaches 10, the fewest winning (ties share).
#[test]
fn sheet_mura_4() {
    let deals: [(&str, &str, [i32; 4], [i32; 4]); 5] = [
        // Seats 0 and 1 have 4 points or more: exempt; seats 2 and 3: 2 tricks + 1.
        ("3 2 2 2", "6 5 3 2", [0, 0, 3, 3], [0, 0, 3, 3]),
        // No trick: 1.
        ("0 4 3 2", "0 8 6 2", [1, 0, 0, 3], [1, 0, 3, 6]),
        // Seat 0: 5 tricks, 3 points: 6.
        ("5 0 2 2", "3 0 9 8", [6, 1, 0, 0], [7, 1, 3, 6]),
        ("1 1 1 6", "1 1 1 14", [2, 2, 2, 0], [9, 3, 5, 6]),
        // Exactly 4 points exempts (seat 3); seat 0 reaches 13; seats 1 and 2 share 5.
        ("3 1 3 2", "3 2 8 4", [4, 2, 0, 0], [13, 5, 5, 6]),
    ];
    let entries: Vec<&str> = deals.iter().flat_map(|d| [d.0, d.1]).collect();
    let sheet: Vec<(&[i32], &[i32], &str)> = deals
        .iter()
        .map(|d| (&d.2[..], &d.3[..], "penalty"))
        .collect();
    for lang in LANGS {
        let dir = scratch(&format!("mura-{}", lang.code()));
        let path = dir.join("sheet.json");
        let out = new_sheet("mura-4", lang, &path, &input(&entries));
        assert_eq!(rows(&out, lang), expected_rows(lang, &sheet), "{out}");
        assert!(out.contains(lang.pick(
            "Card points per seat (4 numbers adding up to 16–20):",
            "各席のカードの点数（4つの数、合計16–20）:"
        )));
        assert_ends(&out, lang, &[1, 2], &path);
        assert_eq!(saved(&path)["winners"], json!([1, 2]));
    }
}

// ---------------------------------------------------------------------------------------------
// Entries that cannot be right
// ---------------------------------------------------------------------------------------------

/// Each bad entry is refused with its reason and asked again; the deal then scores as if
/// entered right the first time.
#[test]
fn bad_entries_are_refused_with_a_reason() {
    for lang in LANGS {
        let dir = scratch(&format!("bad-{}", lang.code()));

        // Mini Misère: seats, Lot winner and tricks.
        let path = dir.join("mini.json");
        let out = new_sheet(
            "mini-misere-4",
            lang,
            &path,
            &input(&[
                "4",     // not a seat
                "x",     // not a number
                "",      // nothing
                "1",     // seat 1 declares
                "2",     // not a declarer
                "1 2",   // two seats cannot both have won every trick
                "1",     // seat 1 won every trick
                "-",     // deal 2: no Lot
                "1 2 3", // three numbers
                "1 2 3 4 5",
                "a b c d",
                "1 1 1 1", // 4 tricks, not 6
                "-1 1 3 3",
                "0 0 0 6",
                "q",
            ]),
        );
        let reasons = match lang {
            Lang::En => [
                "there is no seat “4”: the seats are 0 to 3",
                "there is no seat “x”: the seats are 0 to 3",
                "enter the seats that declared the Lot, or - if nobody did",
                "Seat 2 did not declare the Lot (declared: Seat 1)",
                "only one seat can win every trick",
            ],
            Lang::Ja => [
                "「4」という席はありません。席は0から3までです",
                "「x」という席はありません。席は0から3までです",
                "ロットを宣言した席を入力してください。誰も宣言しなかったら - です",
                "2番席はロットを宣言していません（宣言: 1番席）",
                "全トリックを取れるのは1席だけです",
            ],
        };
        for why in reasons {
            assert!(
                out.contains(&format!("{}\n", lang.bad(why))),
                "{why}: {out}"
            );
        }
        for given in [3, 5] {
            assert_eq!(out.matches(&lang.bad_numbers(4, given)).count(), 1, "{out}");
        }
        assert_eq!(out.matches(&lang.not_number("a")).count(), 1, "{out}");
        assert_eq!(out.matches(&lang.not_number("-1")).count(), 1, "{out}");
        assert!(
            out.contains(&lang.bad_facts(
                "tricks add up to 4, but a deal has 6",
                "トリック数の合計が4ですが、1ディールは6トリックです"
            )),
            "{out}"
        );
        assert_eq!(
            rows(&out, lang),
            expected_rows(
                lang,
                &[
                    (&[0, 12, 0, 0], &[0, 12, 0, 0], "lot-succeeded"),
                    (&[6, 6, 6, 0], &[6, 18, 6, 0], "trick-table"),
                ]
            )
        );

        // Jass: ticks that contradict each other, points that are not 157, a seat with points
        // but no trick.
        let path = dir.join("jass.json");
        let out = new_sheet(
            "mittlere-jass",
            lang,
            &path,
            &input(&[
                "0 1", // two seats cannot both have taken every trick
                "-",
                "0 1 2", // nobody left to take the tricks: both questions again
                "-",
                "0 1", // then seat 2 took every trick, which "-" denied
                "-",
                "-",
                "50 50 50",   // 150: the points are asked again
                "50 50 58 1", // four numbers
                "50 50 58",   // 158
                "r",          // the deal again, from its ticks
                "-",
                "0",
                "10 70 77", // seat 0: no trick, 10 points
                "r",
                "-",
                "0",
                "0 80 77",
                "q",
            ]),
        );
        for (en, ja) in [
            (
                "only one seat can take every trick",
                "全トリックを取れるのは1席だけです",
            ),
            (
                "if 3 seats took no trick, the last one took every trick: say so at the first question",
                "3席がトリックなしなら、残る1席が全トリックを取っています。最初の質問でその席を答えてください",
            ),
            (
                "if 2 seats took no trick, the last one took every trick: say so at the first question",
                "2席がトリックなしなら、残る1席が全トリックを取っています。最初の質問でその席を答えてください",
            ),
            (
                "card points add up to 150, but a deal has 157",
                "カードの点数の合計が150ですが、1ディールの合計は157です",
            ),
            (
                "card points add up to 158, but a deal has 157",
                "カードの点数の合計が158ですが、1ディールの合計は157です",
            ),
            (
                "Seat 0 won no trick but has 10 points",
                "0番席はトリックを取っていないのに10点あります",
            ),
        ] {
            let why = lang.bad_facts(en, ja);
            assert!(out.contains(&format!("{why}\n")), "{why}: {out}");
        }
        let four = match lang {
            Lang::En => lang.bad(
                "expected 3 whole numbers, one per seat (or 2, and the last is worked out); got 4",
            ),
            Lang::Ja => {
                lang.bad("1席に1つ、3つの整数が必要です（2つなら最後は自動で計算）が、4つです")
            }
        };
        assert_eq!(out.matches(&four).count(), 1, "{out}");
        // Contradicting ticks are refused at once, and both questions are asked again.
        let every = lang.pick(
            "Did one seat take every trick? Its seat, or - for no:",
            "全トリックを取った席は？その席の番号、なければ - :",
        );
        let none = lang.pick(
            "Which seats took no trick? The seats, or - for none:",
            "トリックを1つも取らなかった席は？その席の番号、なければ - :",
        );
        assert_eq!(out.matches(every).count(), 7, "{out}");
        assert_eq!(out.matches(none).count(), 5, "{out}");
        // The deal's tricks row shows the ticks: seat 0 none, the others some.
        let tricks_row = out
            .lines()
            .find(|l| l.starts_with(lang.pick("  Tricks", "  トリック")))
            .expect("a tricks row");
        assert_eq!(
            tricks_row.split_whitespace().skip(1).collect::<Vec<_>>(),
            ["0", "1+", "1+"],
            "{out}"
        );
        assert_eq!(
            rows(&out, lang),
            expected_rows(lang, &[(&[-2, 1, 1], &[-2, 1, 1], "no-trick")])
        );

        // Mura: 16 to 20 card points.
        let path = dir.join("mura.json");
        let out = new_sheet(
            "mura-4",
            lang,
            &path,
            &input(&["3 2 2 2", "6 5 5 5", "6 5 3 2", "q"]),
        );
        assert!(
            out.contains(&lang.bad_facts(
                "card points add up to 21, but a deal has 16–20",
                "カードの点数の合計が21ですが、1ディールの合計は16–20です"
            )),
            "{out}"
        );
        assert_eq!(rows(&out, lang).len(), 1);
    }
}

// ---------------------------------------------------------------------------------------------
// Undo, quit and resume
// ---------------------------------------------------------------------------------------------

#[test]
fn undo_quit_and_resume() {
    for lang in LANGS {
        let dir = scratch(&format!("undo-{}", lang.code()));
        let path = dir.join("sheet.json");
        let out = new_sheet(
            "molotow-jass",
            lang,
            &path,
            &input(&[
                "u", // nothing to undo yet: deal 1 is asked again
                "-",
                "-",
                "60 50 30 17", // deal 1: all differ, 1 -1 -1 1
                "-",
                "-",
                "50 50 40 17", // deal 2, wrong: two highest equal
                "-",           // deal 3's ticks, then undo from the middle of the deal
                "-",
                "u",
                "-", // deal 2 again: 60 50 30 17, all differ
                "-",
                "60 50 30 17",
                "-", // deal 3's ticks, then quit in the middle
                "-",
                "q",
            ]),
        );
        assert_eq!(out.matches(&lang.undone(2)).count(), 1, "{out}");
        assert!(!out.contains(&lang.undone(1)), "{out}");
        assert_eq!(out.matches(&lang.deal(1, 0)).count(), 2, "{out}");
        assert_eq!(out.matches(&lang.deal(2, 1)).count(), 2, "{out}");
        assert_eq!(out.matches(&lang.deal(3, 2)).count(), 2, "{out}");
        assert!(out.ends_with(&format!("{}\n", lang.saved(&path))), "{out}");
        assert!(!out.contains(lang.game_over()));
        let sheet = saved(&path);
        assert_eq!(sheet["finished"], false);
        assert_eq!(sheet["winners"], json!([]));
        assert_eq!(sheet["deals"].as_array().expect("deals").len(), 2);
        assert_eq!(sheet["deals"][1]["totals"], json!([2, -2, -2, 2]));

        // Resumed: deal 3 is next, and the totals go on from the saved ones. Undo reaches
        // back into the deals entered before.
        let out = resume_sheet(
            lang,
            &path,
            &input(&[
                "u",
                "-",
                "-",
                "60 50 30 17", // deal 2 again
            ]),
        );
        assert!(out.contains(&lang.undone(2)), "{out}");
        assert!(out.contains(&lang.deal(3, 2)), "{out}");
        // End of input saves and quits.
        assert!(out.ends_with(&format!("{}\n", lang.saved(&path))), "{out}");
        let mut lines = vec![];
        for _ in 3..=12 {
            lines.extend(["-", "-", "60 50 30 17"]);
        }
        let out = resume_sheet(lang, &path, &input(&lines));
        let printed = rows(&out, lang);
        assert_eq!(printed.len(), 10, "{out}");
        assert_eq!(printed[0].totals, [3, -3, -3, 3]);
        assert_eq!(printed[9].totals, [12, -12, -12, 12]);
        assert_ends(&out, lang, &[0, 3], &path);
        assert_eq!(saved(&path)["finished"], true);

        // A finished sheet resumes to its result.
        let out = resume_sheet(lang, &path, "");
        assert!(
            out.ends_with(&format!(
                "{}\n{}\n{}\n{}\n",
                lang.game_over(),
                lang.winners(&[0, 3]),
                lang.over_ask(),
                lang.saved(&path)
            )),
            "{out}"
        );
    }
}

/// Settings that cannot work are refused on one line of standard error, exit status 2.
#[test]
fn bad_score_settings() {
    let dir = scratch("bad-settings");
    let broken = dir.join("broken.json");
    std::fs::write(
        &broken,
        "{\"ruleset\": \"mini-misere-4\", \"deals\": [{\"tricks\": [1, 1, 1, 1]}]}",
    )
    .expect("a file");
    let cases: [(Vec<&str>, &str); 3] = [
        (
            vec!["score", "no-such-game"],
            "\"no-such-game\" is neither a preset id",
        ),
        (
            vec!["score", "--resume", "/nonexistent/sheet.json"],
            "cannot read /nonexistent/sheet.json",
        ),
        (
            vec!["score", "--resume", path_str(&broken)],
            "tricks add up to 4, but a deal has 6",
        ),
    ];
    for (args, expected) in cases {
        let run = run(&args, Some(""));
        assert_eq!(
            run.status,
            Some(2),
            "{args:?}: {}{}",
            run.stdout,
            run.stderr
        );
        assert!(run.stdout.is_empty(), "{}", run.stdout);
        assert!(run.stderr.contains(expected), "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1);
    }
}

// ---------------------------------------------------------------------------------------------
// Players' names, the last card points worked out, undo after the end
// ---------------------------------------------------------------------------------------------

/// The names are asked first and checked, each refusal saying why; the seats are then
/// entered by number or by name, the dealer and the winners named, and the names saved and
/// resumed.
#[test]
fn players_are_named() {
    for lang in LANGS {
        let dir = scratch(&format!("names-{}", lang.code()));
        let path = dir.join("sheet.json");
        let run1 = run(
            &[
                "score",
                "mini-misere-4",
                "--lang",
                lang.code(),
                "--save",
                path_str(&path),
            ],
            Some(&input(&[
                "Aki,Ben",
                "Aki,Ben,aki,Dan",
                "Aki,Ben,3,Dan",
                "Aki, ,Chie,Dan",
                "Aki,Ben,Chie,Dan",
                "ben",  // deal 1: Ben declares, by name
                "Chie", // not a declarer
                "Ben",  // and wins every trick
                "Zoe",  // deal 2: no such player
                "-",
                "3 1 2 0",
            ])),
        );
        assert_eq!(run1.status, Some(0), "{}{}", run1.stdout, run1.stderr);
        let out = run1.stdout;
        let reasons = match lang {
            Lang::En => [
                "expected 4 names, one per seat; got 2",
                "“aki” is given twice: each player needs a name of their own",
                "“3” cannot be a name: seats are also entered by number, - means none, and u, r and q are commands",
                "the name for Seat 1 is empty",
                "Chie did not declare the Lot (declared: Ben)",
                "there is no seat or player “Zoe”: the seats are 0 to 3 (Aki, Ben, Chie, Dan)",
            ],
            Lang::Ja => [
                "名前は1席に1つ、4つ必要ですが、2つです",
                "「aki」が2回あります。1人ずつ別の名前が必要です",
                "「3」は名前にできません。席は番号でも入力でき、- は「なし」、u・r・q はコマンドです",
                "1番席の名前が空です",
                "Chieはロットを宣言していません（宣言: Ben）",
                "「Zoe」という席もプレイヤーもいません。席は0から3まで（Aki, Ben, Chie, Dan）です",
            ],
        };
        for why in reasons {
            assert!(
                out.contains(&format!("{}\n", lang.bad(why))),
                "{why}: {out}"
            );
        }
        assert!(
            out.contains(lang.pick(
                "Seats: 0 Aki · 1 Ben · 2 Chie · 3 Dan\n",
                "席: 0 Aki · 1 Ben · 2 Chie · 3 Dan\n"
            )),
            "{out}"
        );
        let dealer = |number: usize, name: &str| match lang {
            Lang::En => format!("Deal {number} (dealer: {name})"),
            Lang::Ja => format!("第{number}ディール（ディーラー: {name}）"),
        };
        assert!(out.contains(&dealer(1, "Aki")), "{out}");
        assert!(out.contains(&dealer(2, "Ben")), "{out}");
        assert_eq!(
            rows(&out, lang),
            expected_rows(
                lang,
                &[
                    (&[0, 12, 0, 0], &[0, 12, 0, 0], "lot-succeeded"),
                    (&[3, 1, 2, 6], &[3, 13, 2, 6], "trick-table"),
                ]
            )
        );
        let sheet = saved(&path);
        assert_eq!(sheet["players"], json!(["Aki", "Ben", "Chie", "Dan"]));

        // Resumed, the names are not asked again; the game ends with its winner named.
        let mut lines = vec![];
        for _ in 0..4 {
            lines.extend(["-", "0 6 0 0"]);
        }
        let out = resume_sheet(lang, &path, &input(&lines));
        assert!(
            !out.contains(lang.pick("Players' names", "プレイヤーの名前")),
            "{out}"
        );
        // Ben wins every trick four times: 0 each time, the others 6: 27 13 26 30.
        assert_eq!(rows(&out, lang)[3].totals, [27, 13, 26, 30], "{out}");
        assert!(
            out.contains(&format!("{}\n", lang.pick("Winner: Dan", "勝者: Dan"))),
            "{out}"
        );

        // Names given with --players are checked the same way: one line, exit status 2.
        let bad = run(
            &[
                "score",
                "mura-4",
                "--lang",
                lang.code(),
                "--players",
                "Aki,Ben",
            ],
            Some(""),
        );
        assert_eq!(bad.status, Some(2), "{}{}", bad.stdout, bad.stderr);
        assert_eq!(bad.stderr.lines().count(), 1, "{}", bad.stderr);
        assert!(
            bad.stderr.contains(&format!("--players: {}", reasons[0])),
            "{}",
            bad.stderr
        );
    }
}

/// In a game of a fixed card-point total the last seat's points may be left out: the
/// scorekeeper works them out and says so; points already over the total are refused.
#[test]
fn the_last_card_points_are_worked_out() {
    for lang in LANGS {
        let dir = scratch(&format!("last-points-{}", lang.code()));
        let path = dir.join("sheet.json");
        let out = new_sheet(
            "mittlere-jass",
            lang,
            &path,
            &input(&["-", "-", "150 10", "30 70", "q"]),
        );
        assert!(
            out.contains(&lang.bad(lang.pick(
                "the first 2 seats' points add up to 160, more than the deal's 157",
                "最初の2席の点数の合計が160で、1ディールの157を超えています"
            ))),
            "{out}"
        );
        assert!(
            out.contains(lang.pick(
                "  Seat 2: 57 (to make 157)\n",
                "  2番席: 57（合計157にするため）\n"
            )),
            "{out}"
        );
        assert_eq!(
            rows(&out, lang),
            expected_rows(lang, &[(&[1, 1, -2], &[1, 1, -2], "highest-and-lowest")])
        );
        assert_eq!(saved(&path)["deals"][0]["points"], json!([30, 70, 57]));
    }
}

/// A finished game still takes back its last deal, at once or when resumed; anything else
/// at its end is refused with the reason.
#[test]
fn undo_after_the_game_has_ended() {
    // Mura with four, to 10: the five deals of `sheet_mura_4`, Ben and Chie sharing 5.
    let deals = [
        "3 2 2 2", "6 5 3 2", "0 4 3 2", "0 8 6 2", "5 0 2 2", "3 0 9 8", "1 1 1 6", "1 1 1 14",
        "3 1 3 2", "3 2 8 4",
    ];
    for lang in LANGS {
        let dir = scratch(&format!("undo-end-{}", lang.code()));
        let path = dir.join("sheet.json");
        let mut lines = deals.to_vec();
        // At the end: a wrong answer, then undo; deal 5 again, every seat exempt.
        lines.extend(["x", "u", "2 2 2 3", "4 4 4 4", "q"]);
        let out = new_sheet("mura-4", lang, &path, &input(&lines));
        assert_eq!(out.matches(lang.game_over()).count(), 1, "{out}");
        assert!(
            out.contains(&lang.bad(lang.pick(
                "the game is over: u takes back the last deal, Enter or q saves and quits",
                "ゲームは終了しています。u で直前のディールを取り消し、Enter か q で保存して終了"
            ))),
            "{out}"
        );
        assert!(out.contains(&lang.undone(5)), "{out}");
        let printed = rows(&out, lang);
        assert_eq!(printed.len(), 6, "{out}");
        assert_eq!(printed[4].totals, [13, 5, 5, 6]);
        assert_eq!(printed[5].totals, [9, 3, 5, 6]);
        let sheet = saved(&path);
        assert_eq!(sheet["finished"], false);
        assert_eq!(sheet["deals"].as_array().expect("deals").len(), 5);

        // Resumed: deal 6 ends the game (seat 0 at 11); undo it, then end it again.
        let out = resume_sheet(
            lang,
            &path,
            &input(&["1 1 1 6", "1 1 1 14", "u", "1 1 1 6", "1 1 1 14"]),
        );
        assert_eq!(out.matches(lang.game_over()).count(), 2, "{out}");
        assert!(out.contains(&lang.undone(6)), "{out}");
        assert_ends(&out, lang, &[1], &path);
        let sheet = saved(&path);
        assert_eq!(sheet["finished"], true);
        assert_eq!(sheet["deals"][5]["totals"], json!([11, 5, 7, 6]));
    }
}

/// `torite show` of a score sheet: of several Lot declarers, the one the sheet names as winning
/// every trick succeeded and the others failed; a Jass deal's tricks show as its ticks.
#[test]
fn a_sheet_is_shown_with_each_declarer_s_outcome_and_the_jass_ticks() {
    let dir = scratch("show-sheet");
    let mini = dir.join("mini.json");
    new_sheet("mini-misere-4", Lang::En, &mini, &input(&["0 3", "3", "q"]));
    let shown = run(&["show", path_str(&mini), "--lang", "en"], None);
    assert_eq!(shown.status, Some(0), "{}", shown.stderr);
    assert!(
        shown
            .stdout
            .contains("Lot: seat 0 (failed), seat 3 (succeeded)"),
        "{}",
        shown.stdout
    );
    let jass = dir.join("jass.json");
    new_sheet(
        "mittlere-jass",
        Lang::Ja,
        &jass,
        &input(&[
            &ticked("0 0 12"),
            "0 0 157",
            &ticked("0 5 7"),
            "0 60 97",
            "q",
        ]),
    );
    let shown = run(&["show", path_str(&jass), "--lang", "ja"], None);
    assert_eq!(shown.status, Some(0), "{}", shown.stderr);
    let rows: Vec<Vec<&str>> = shown
        .stdout
        .lines()
        .filter(|l| l.starts_with("  トリック"))
        .map(|l| l.split_whitespace().skip(1).collect())
        .collect();
    assert_eq!(
        rows,
        [["0", "0", "全部"], ["0", "1+", "1+"]],
        "{}",
        shown.stdout
    );
}

/// `torite sheet SAVE`: the score sheet of a kept game, the game so far written in (HTML or
/// PDF); `--kind` still gives the other sheets of its rules.
#[test]
fn a_kept_game_prints_as_its_score_sheet() {
    let dir = scratch("kept-sheet");
    let save = dir.join("mura.json");
    let run_ok = |args: &[&str], input: Option<&str>| {
        let out = run(args, input);
        assert_eq!(out.status, Some(0), "{}{}", out.stdout, out.stderr);
        out.stdout
    };
    run_ok(
        &[
            "score",
            "mura-4",
            "--lang",
            "en",
            "--players",
            "Aki,Ben,Chie,Dan",
            "--save",
            path_str(&save),
        ],
        Some("3 2 2 2\n6 5 3 2\nq\n"),
    );
    let html = run_ok(&["sheet", path_str(&save), "--lang", "en"], None);
    assert!(
        html.contains("<strong class=\"kept-name\">Chie</strong>"),
        "{html}"
    );
    let pdf = dir.join("mura.pdf");
    let said = run_ok(&["sheet", path_str(&save), "-o", path_str(&pdf)], None);
    assert!(said.starts_with(&format!("{}: ", pdf.display())), "{said}");
    assert!(std::fs::read(&pdf).expect("written").starts_with(b"%PDF"));
    let rules = run_ok(
        &["sheet", path_str(&save), "--kind", "rules", "--lang", "en"],
        None,
    );
    assert!(
        !rules.contains("kept-name") && rules.contains("Mura"),
        "{rules}"
    );
}
