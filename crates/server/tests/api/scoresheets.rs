//! The scorekeeper's sheets (`/api/scoresheets`): whole games of each family entered as the
//! clubs' paper methods give them and scored by the rules (each deal's working in its
//! comment, from RULES.md), undo of any deal also after the end, the keys, hostile input
//! refused with its code, the live view, and sheets that survive the server's death.

use std::net::SocketAddr;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use torite_server::Config;

use super::common::{Server, get, post};
use super::memory;

/// A new sheet: its id, write key and view key.
async fn create(addr: SocketAddr, ruleset: Value, players: &[&str]) -> (String, String, String) {
    let (status, body) = post(
        addr,
        "/api/scoresheets",
        json!({"ruleset": ruleset, "players": players}),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let s = |k: &str| body[k].as_str().unwrap().to_owned();
    assert_eq!(body["sheet"]["players"], json!(players));
    assert_eq!(body["sheet"]["deals"], json!([]));
    assert_eq!(
        body["view"],
        format!("/score/{}/view?key={}", s("id"), s("view_key"))
    );
    (s("id"), s("key"), s("view_key"))
}

/// Adds a deal; the sheet after it.
async fn deal(addr: SocketAddr, id: &str, key: &str, mut facts: Value) -> Value {
    facts["key"] = json!(key);
    let (status, body) = post(addr, &format!("/api/scoresheets/{id}/deals"), facts).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// A refused request: its status and code.
async fn refused(addr: SocketAddr, path: &str, body: Value) -> (u16, String, Value) {
    let (status, answer) = post(addr, path, body).await;
    assert!(answer["error"].is_string(), "{answer}");
    (
        status,
        answer["code"].as_str().unwrap().to_owned(),
        answer["args"].clone(),
    )
}

async fn read(addr: SocketAddr, id: &str, key: &str) -> Value {
    let (status, body) = get(addr, &format!("/api/scoresheets/{id}?key={key}")).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// Each deal's scores, totals and rule as the sheet gives them.
fn rows(sheet: &Value) -> Vec<(Value, Value, String)> {
    sheet["deals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| {
            (
                d["scores"].clone(),
                d["totals"].clone(),
                d["rule"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

fn expected(rows: &[(&[i32], &[i32], &str)]) -> Vec<(Value, Value, String)> {
    rows.iter()
        .map(|(s, t, r)| (json!(s), json!(t), (*r).to_owned()))
        .collect()
}

async fn undo(addr: SocketAddr, id: &str, key: &str, number: Option<usize>) -> Value {
    let (status, body) = post(
        addr,
        &format!("/api/scoresheets/{id}/undo"),
        json!({"key": key, "deal": number}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    body
}

/// Mini Misère (current rules): the trick table, the Lot by its declarers and its result, to
/// 25 with a shared lead playing on; then deal 3 taken back after the end.
#[tokio::test]
async fn mini_misere_sheet() {
    let server = memory();
    let addr = server.addr;
    let (id, key, view) =
        create(addr, json!("mini-misere-4"), &["Aki", "Ben", "Chie", "Dan"]).await;
    let lot = |d: &[usize], w: Option<usize>| json!({"lot": {"declarers": d, "winner": w}});
    let deals = [
        // Tricks 2 1 3 0 → 2 1 3 6.
        json!({"tricks": [2, 1, 3, 0]}),
        // Chie declares and takes every trick: 12 to her.
        lot(&[2], Some(2)),
        // Aki and Dan declare, the Lot fails: 6 to each who did not declare.
        lot(&[0, 3], None),
        json!({"tricks": [0, 0, 2, 4]}),
        json!({"tricks": [0, 0, 1, 5]}),
        // Aki's Lot fails: 14 25 30 30, the lead is shared: play on.
        lot(&[0], None),
        json!({"tricks": [0, 3, 2, 1]}),
    ];
    let mut sheet = Value::Null;
    for (i, facts) in deals.into_iter().enumerate() {
        assert_ne!(sheet["finished"], true, "deal {i}");
        sheet = deal(addr, &id, &key, facts).await;
    }
    let rows_expected: [(&[i32], &[i32], &str); 7] = [
        (&[2, 1, 3, 6], &[2, 1, 3, 6], "trick-table"),
        (&[0, 0, 12, 0], &[2, 1, 15, 6], "lot-succeeded"),
        (&[0, 6, 6, 0], &[2, 7, 21, 6], "lot-failed"),
        (&[6, 6, 2, 8], &[8, 13, 23, 14], "trick-table"),
        (&[6, 6, 1, 10], &[14, 19, 24, 24], "trick-table"),
        (&[0, 6, 6, 6], &[14, 25, 30, 30], "lot-failed"),
        (&[6, 3, 2, 1], &[20, 28, 32, 31], "trick-table"),
    ];
    assert_eq!(rows(&sheet), expected(&rows_expected));
    assert_eq!(sheet["finished"], true);
    assert_eq!(sheet["winners"], json!([2]));
    assert_eq!(
        sheet["deals"][1]["tricks"],
        Value::Null,
        "the Lot alone scores"
    );
    assert_eq!(sheet["deals"][1]["rule_en"], "the Lot succeeded");
    assert_eq!(sheet["deals"][1]["rule_ja"], "ロット成功");
    assert_eq!(sheet["deals"][0]["marks"], Value::Null, "numbers only");
    assert_eq!(sheet["facts"]["tricks_with_lot"], false);
    // A finished game takes no deal, but any deal can be taken back. Without deal 3 Dan
    // would reach 30 alone after the fifth deal left, before the seventh: that deal goes
    // first.
    let (status, code, _) = refused(
        addr,
        &format!("/api/scoresheets/{id}/deals"),
        json!({"key": key, "tricks": [1, 1, 1, 3]}),
    )
    .await;
    assert_eq!((status, code.as_str()), (409, "scoresheet-over"));
    let (status, code, args) = refused(
        addr,
        &format!("/api/scoresheets/{id}/undo"),
        json!({"key": key, "deal": 3}),
    )
    .await;
    assert_eq!((status, code.as_str()), (409, "scoresheet-undo-ends"));
    assert_eq!(args, json!({"number": "3", "ends": "5", "count": "7"}));
    // Deal 7 back: 14 25 30 30, the lead shared, the game goes on.
    let sheet = undo(addr, &id, &key, None).await;
    assert_eq!(sheet["totals"], json!([14, 25, 30, 30]));
    assert_eq!(sheet["finished"], false);
    // Then deal 3: 14 19 24 30 after the fifth deal left: Dan alone ahead.
    let sheet = undo(addr, &id, &key, Some(3)).await;
    assert_eq!(sheet["deals"].as_array().unwrap().len(), 5);
    assert_eq!(sheet["totals"], json!([14, 19, 24, 30]));
    assert_eq!(sheet["finished"], true);
    assert_eq!(sheet["winners"], json!([3]));
    // The dealer turns with each deal that remains.
    let dealers: Vec<Value> = sheet["deals"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["dealer"].clone())
        .collect();
    assert_eq!(dealers, [0, 1, 2, 3, 0].map(|d| json!(d)));
    // The view key reads it too, and cannot change it.
    let seen = read(addr, &id, &view).await;
    assert_eq!(seen["write"], false);
    assert_eq!(seen["totals"], sheet["totals"]);
    let (status, code, _) = refused(
        addr,
        &format!("/api/scoresheets/{id}/undo"),
        json!({"key": view}),
    )
    .await;
    assert_eq!((status, code.as_str()), (403, "scoresheet-view-only"));
}

/// A Jass deal: tricks, card points, then the scores, the totals and the rule.
type Jass = ([u32; 3], [u32; 3], [i32; 3], [i32; 3], &'static str);

/// A Mura deal: tricks, card points, scores, totals and the exempt players.
type Mura = ([u32; 4], [u32; 4], [i32; 4], [i32; 4], &'static [usize]);

/// Mittlere Jass: card points per player making 157, the first matching rule of five, 12
/// deals, kept in strokes and circles.
#[tokio::test]
async fn mittlere_jass_sheet() {
    let server = memory();
    let addr = server.addr;
    let (id, key, _) = create(addr, json!("mittlere-jass"), &["Aki", "Ben", "Chie"]).await;
    let deals: [Jass; 12] = [
        (
            [12, 0, 0],
            [157, 0, 0],
            [2, -1, -1],
            [2, -1, -1],
            "all-tricks",
        ),
        ([5, 7, 0], [60, 97, 0], [1, 1, -2], [3, 0, -3], "no-trick"),
        ([2, 8, 2], [20, 110, 27], [1, -2, 1], [4, -2, -2], "hundred"),
        (
            [4, 4, 4],
            [50, 50, 57],
            [-1, -1, 2],
            [3, -3, 0],
            "two-equal",
        ),
        (
            [3, 5, 4],
            [30, 70, 57],
            [1, 1, -2],
            [4, -2, -2],
            "highest-and-lowest",
        ),
        (
            [4, 4, 4],
            [40, 60, 57],
            [1, 1, -2],
            [5, -1, -4],
            "highest-and-lowest",
        ),
        ([0, 6, 6], [0, 80, 77], [-2, 1, 1], [3, 0, -3], "no-trick"),
        ([6, 6, 0], [100, 57, 0], [1, 1, -2], [4, 1, -5], "no-trick"),
        (
            [1, 5, 6],
            [52, 52, 53],
            [-1, -1, 2],
            [3, 0, -3],
            "two-equal",
        ),
        (
            [5, 3, 4],
            [99, 28, 30],
            [1, 1, -2],
            [4, 1, -5],
            "highest-and-lowest",
        ),
        (
            [0, 0, 12],
            [0, 0, 157],
            [-1, -1, 2],
            [3, 0, -3],
            "all-tricks",
        ),
        (
            [4, 4, 4],
            [45, 45, 67],
            [-1, -1, 2],
            [2, -1, -1],
            "two-equal",
        ),
    ];
    let mut sheet = Value::Null;
    for (tricks, points, ..) in &deals {
        sheet = deal(addr, &id, &key, json!({"tricks": tricks, "points": points})).await;
    }
    let want: Vec<(&[i32], &[i32], &str)> =
        deals.iter().map(|d| (&d.2[..], &d.3[..], d.4)).collect();
    assert_eq!(rows(&sheet), expected(&want));
    assert_eq!(sheet["finished"], true);
    assert_eq!(sheet["winners"], json!([0]));
    assert_eq!(sheet["facts"]["card_points"], json!([157, 157]));
    assert_eq!(sheet["facts"]["marks"], true);
    // Strokes and circles so far: after deal 1, Aki || and the others ○; after all 12, Aki
    // has won 2+1+1+1+1+1+1 = 8 and lost 1+2+1+1+1 = 6.
    assert_eq!(sheet["deals"][0]["marks"], json!(["||", "○", "○"]));
    assert_eq!(sheet["deals"][11]["marks"][0], "|×8 ○×6");
    // The printable sheet, with the names and the game so far written in.
    let printed = torite_server::client::request(
        addr,
        "GET",
        &format!("/api/scoresheets/{id}/sheet?key={key}&lang=ja"),
        None,
    )
    .await
    .unwrap();
    assert_eq!(printed.status, 200);
    let html = printed.body;
    assert!(
        html.contains("<strong class=\"kept-name\">Chie</strong>"),
        "{html}"
    );
    // Deal 1: Aki 157 points and two strokes, the others a circle each; Aki's net 2.
    assert!(
        html.contains("<td class=\"first\">157</td><td>||</td><td></td>"),
        "{html}"
    );
    assert!(html.contains("<td>○</td>"), "{html}");
    assert!(
        html.contains("<td colspan=\"3\" class=\"first\">2</td>"),
        "{html}"
    );
    let (status, body) = get(addr, &format!("/api/scoresheets/{id}/sheet?key=nope")).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("scoresheet-key"))
    );
    // The same as an A4 PDF to keep, downloaded under the sheet's name; a format it does not
    // make is refused.
    let (status, headers, pdf) = super::get_bytes(
        addr,
        &format!("/api/scoresheets/{id}/sheet?key={key}&lang=ja&format=pdf"),
    )
    .await;
    assert_eq!(status, 200);
    assert!(pdf.starts_with(b"%PDF"));
    let header = |name: &str| {
        headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    };
    assert_eq!(header("content-type"), Some("application/pdf"));
    assert_eq!(
        header("content-disposition"),
        Some(format!("attachment; filename=\"torite-score-{id}.pdf\"").as_str())
    );
    let (status, body) = get(
        addr,
        &format!("/api/scoresheets/{id}/sheet?key={key}&format=docx"),
    )
    .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (400, Some("bad-sheet-format"))
    );
    // Undo after the end: the last deal back, then entered again differently.
    let sheet = undo(addr, &id, &key, None).await;
    assert_eq!(sheet["finished"], false);
    assert_eq!(sheet["totals"], json!([3, 0, -3]));
    let sheet = deal(
        addr,
        &id,
        &key,
        json!({"tricks": [12, 0, 0], "points": [157, 0, 0]}),
    )
    .await;
    assert_eq!(sheet["totals"], json!([5, -1, -4]));
    assert_eq!(sheet["finished"], true);
}

/// Mura with four: tricks and counting-card points per player, the exemption at 4 points,
/// to 10, the fewest winning (ties share).
#[tokio::test]
async fn mura_sheet() {
    let server = memory();
    let addr = server.addr;
    let (id, key, _) = create(addr, json!("mura-4"), &["Aki", "Ben", "Chie", "Dan"]).await;
    let deals: [Mura; 5] = [
        (
            [3, 2, 2, 2],
            [6, 5, 3, 2],
            [0, 0, 3, 3],
            [0, 0, 3, 3],
            &[0, 1],
        ),
        (
            [0, 4, 3, 2],
            [0, 8, 6, 2],
            [1, 0, 0, 3],
            [1, 0, 3, 6],
            &[1, 2],
        ),
        (
            [5, 0, 2, 2],
            [3, 0, 9, 8],
            [6, 1, 0, 0],
            [7, 1, 3, 6],
            &[2, 3],
        ),
        (
            [1, 1, 1, 6],
            [1, 1, 1, 14],
            [2, 2, 2, 0],
            [9, 3, 5, 6],
            &[3],
        ),
        (
            [3, 1, 3, 2],
            [3, 2, 8, 4],
            [4, 2, 0, 0],
            [13, 5, 5, 6],
            &[2, 3],
        ),
    ];
    let mut sheet = Value::Null;
    for (i, (tricks, points, _, _, exempt)) in deals.iter().enumerate() {
        sheet = deal(addr, &id, &key, json!({"tricks": tricks, "points": points})).await;
        assert_eq!(sheet["deals"][i]["exempt"], json!(exempt), "deal {}", i + 1);
    }
    let want: Vec<(&[i32], &[i32], &str)> = deals
        .iter()
        .map(|d| (&d.2[..], &d.3[..], "penalty"))
        .collect();
    assert_eq!(rows(&sheet), expected(&want));
    assert_eq!(sheet["finished"], true);
    assert_eq!(sheet["winners"], json!([1, 2]));
    assert_eq!(sheet["facts"]["card_points"], json!([16, 20]));
    // Deal 1 taken back after the end: everything after it is scored again.
    let sheet = undo(addr, &id, &key, Some(1)).await;
    assert_eq!(sheet["totals"], json!([13, 5, 2, 3]));
    assert_eq!(sheet["deals"][0]["number"], 1);
    assert_eq!(sheet["deals"][0]["dealer"], 0);
    assert_eq!(sheet["winners"], json!([2]));
}

/// Bad input is refused with its code and arguments, and changes nothing.
#[tokio::test]
async fn hostile_sheets_are_refused() {
    let server = memory();
    let addr = server.addr;
    let create_refused = |body: Value| refused(addr, "/api/scoresheets", body);
    let (s, code, args) = create_refused(json!({"ruleset": "mura-4", "players": ["A", "B"]})).await;
    assert_eq!((s, code.as_str()), (400, "scoresheet-players"));
    assert_eq!(args, json!({"count": "4", "given": "2"}));
    let (s, code, _) =
        create_refused(json!({"ruleset": "mittlere-jass", "players": ["A", "b", "B"]})).await;
    assert_eq!((s, code.as_str()), (400, "scoresheet-name-twice"));
    let (s, code, _) =
        create_refused(json!({"ruleset": "mittlere-jass", "players": ["A", "", "B"]})).await;
    assert_eq!((s, code.as_str()), (400, "name-needed"));
    let long = "x".repeat(100);
    let (s, code, _) =
        create_refused(json!({"ruleset": "mittlere-jass", "players": ["A", long, "B"]})).await;
    assert_eq!((s, code.as_str()), (400, "name-too-long"));
    let (s, code, _) = create_refused(json!({"ruleset": "no-such", "players": []})).await;
    assert_eq!((s, code.as_str()), (400, "unknown-ruleset"));

    let (id, key, view) = create(addr, json!("mini-misere-4"), &["A", "B", "C", "D"]).await;
    let path = format!("/api/scoresheets/{id}/deals");
    let cases: Vec<(Value, u16, &str, Value)> = vec![
        (
            json!({"tricks": [2, 2, 2, 1]}),
            400,
            "scoresheet-tricks-total",
            json!({"given": "7", "expected": "6"}),
        ),
        (
            json!({"tricks": [2, 2, 2]}),
            400,
            "scoresheet-numbers",
            json!({"field": "tricks", "count": "4"}),
        ),
        (
            json!({"tricks": [2, 2, 2, -1]}),
            400,
            "scoresheet-numbers",
            json!({"field": "tricks", "count": "4"}),
        ),
        (
            json!({"tricks": [1e30, 0, 0, 0]}),
            400,
            "scoresheet-numbers",
            json!({"field": "tricks", "count": "4"}),
        ),
        (
            json!({"tricks": "6 0 0 0"}),
            400,
            "scoresheet-numbers",
            json!({"field": "tricks", "count": "4"}),
        ),
        (
            json!({}),
            400,
            "scoresheet-numbers",
            json!({"field": "tricks", "count": "4"}),
        ),
        (
            json!({"lot": {"declarers": [4], "winner": null}}),
            400,
            "scoresheet-lot",
            json!({"last": "3"}),
        ),
        (
            json!({"lot": {"declarers": [1, 1], "winner": null}}),
            400,
            "scoresheet-lot",
            json!({"last": "3"}),
        ),
        (
            json!({"lot": {"declarers": [], "winner": null}}),
            400,
            "scoresheet-lot",
            json!({"last": "3"}),
        ),
        (
            json!({"lot": {"declarers": [1], "winner": 2}}),
            400,
            "scoresheet-winner",
            json!({"player": "C"}),
        ),
    ];
    for (mut facts, status, code, args) in cases {
        facts["key"] = json!(key);
        let (s, c, a) = refused(addr, &path, facts.clone()).await;
        assert_eq!((s, c.as_str(), &a), (status, code, &args), "{facts}");
    }
    let (s, code, _) = refused(addr, &path, json!({"key": view, "tricks": [6, 0, 0, 0]})).await;
    assert_eq!((s, code.as_str()), (403, "scoresheet-view-only"));
    let (s, code, _) = refused(addr, &path, json!({"key": "nope", "tricks": [6, 0, 0, 0]})).await;
    assert_eq!((s, code.as_str()), (403, "scoresheet-key"));
    let (s, code, _) = refused(addr, &path, json!({"tricks": [6, 0, 0, 0]})).await;
    assert_eq!((s, code.as_str()), (400, "field-needed"));
    let (s, code, _) = refused(
        addr,
        "/api/scoresheets/000000000000/deals",
        json!({"key": key}),
    )
    .await;
    assert_eq!((s, code.as_str()), (404, "no-scoresheet"));
    let (s, body) = get(addr, &format!("/api/scoresheets/{id}?key=wrong")).await;
    assert_eq!((s, body["code"].as_str()), (403, Some("scoresheet-key")));
    assert!(body.get("deals").is_none(), "{body}");
    let (s, code, _) = refused(
        addr,
        &format!("/api/scoresheets/{id}/undo"),
        json!({"key": key}),
    )
    .await;
    assert_eq!((s, code.as_str()), (409, "scoresheet-nothing-to-undo"));
    deal(addr, &id, &key, json!({"tricks": [6, 0, 0, 0]})).await;
    for bad in [json!(0), json!(2), json!("1"), json!(-1)] {
        let (s, code, _) = refused(
            addr,
            &format!("/api/scoresheets/{id}/undo"),
            json!({"key": key, "deal": bad}),
        )
        .await;
        assert_eq!((s, code.as_str()), (400, "scoresheet-no-deal"), "{bad}");
    }
    assert_eq!(
        read(addr, &id, &key).await["deals"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // Jass: points, a seat without tricks, no Lot; Molotow's draw.
    let (id, key, _) = create(addr, json!("mittlere-jass"), &["Aki", "Ben", "Chie"]).await;
    let path = format!("/api/scoresheets/{id}/deals");
    let cases: Vec<(Value, &str, Value)> = vec![
        (
            json!({"tricks": [4, 4, 4], "points": [50, 50, 58]}),
            "scoresheet-points-total",
            json!({"given": "158", "expected": "157"}),
        ),
        (
            json!({"tricks": [0, 6, 6], "points": [10, 70, 77]}),
            "scoresheet-points-without-trick",
            json!({"player": "Aki", "points": "10"}),
        ),
        (
            json!({"tricks": [4, 4, 4]}),
            "scoresheet-numbers",
            json!({"field": "points", "count": "3"}),
        ),
        (
            json!({"tricks": [4, 4, 4], "points": [50, 50, 57], "lot": {"declarers": [0], "winner": 0}}),
            "scoresheet-no-lot",
            json!({}),
        ),
        (
            json!({"tricks": [4, 4, 4], "points": [4294967295_u64, 4294967295_u64, 4]}),
            "scoresheet-numbers",
            json!({"field": "points", "count": "3"}),
        ),
    ];
    for (mut facts, code, args) in cases {
        facts["key"] = json!(key);
        let (s, c, a) = refused(addr, &path, facts.clone()).await;
        assert_eq!((s, c.as_str(), &a), (400, code, &args), "{facts}");
    }
    let (id, key, _) = create(addr, json!("molotow-jass"), &["A", "B", "C", "D"]).await;
    let path = format!("/api/scoresheets/{id}/deals");
    let tie = json!({"key": key, "tricks": [3, 2, 2, 2], "points": [40, 39, 39, 39]});
    let (s, code, args) = refused(addr, &path, tie.clone()).await;
    assert_eq!(
        (s, code.as_str(), args),
        (400, "scoresheet-draw", json!({"players": "B, C, D"}))
    );
    let mut wrong = tie.clone();
    wrong["draw"] = json!(0);
    assert_eq!(refused(addr, &path, wrong).await.1, "scoresheet-draw");
    let mut right = tie;
    right["draw"] = json!(2);
    let (status, sheet) = post(addr, &path, right).await;
    assert_eq!(status, 200, "{sheet}");
    assert_eq!(sheet["deals"][0]["scores"], json!([1, 0, -1, 0]));
    assert_eq!(sheet["deals"][0]["draw"], 2);
}

/// The events of a sheet as its read-only view gets them: the sheet at once, then after
/// each change.
#[tokio::test]
async fn the_view_follows_the_sheet_live() {
    let server = memory();
    let addr = server.addr;
    let (id, key, view) = create(addr, json!("mura-4"), &["Aki", "Ben", "Chie", "Dan"]).await;
    let mut stream = tokio::net::TcpStream::connect(addr).await.unwrap();
    let request = format!(
        "GET /api/scoresheets/{id}/events?key={view} HTTP/1.1\r\nHost: {addr}\r\nAccept: text/event-stream\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.unwrap();
    let mut lines = BufReader::new(stream).lines();
    let mut next_sheet = async || -> Value {
        loop {
            let line = tokio::time::timeout(Duration::from_secs(10), lines.next_line())
                .await
                .expect("an event in time")
                .unwrap()
                .expect("the stream stays open");
            if let Some(data) = line.strip_prefix("data: ") {
                return serde_json::from_str(data).unwrap();
            }
        }
    };
    let first = next_sheet().await;
    assert_eq!(first["deals"], json!([]));
    assert_eq!(first["write"], false);
    deal(
        addr,
        &id,
        &key,
        json!({"tricks": [3, 2, 2, 2], "points": [6, 5, 3, 2]}),
    )
    .await;
    let second = next_sheet().await;
    assert_eq!(second["totals"], json!([0, 0, 3, 3]));
    undo(addr, &id, &key, None).await;
    let third = next_sheet().await;
    assert_eq!(third["deals"], json!([]));
    // A sheet takes 32 live views at once: the 33rd is refused (this one is the first).
    let mut open = Vec::new();
    for _ in 1..32 {
        let mut s = tokio::net::TcpStream::connect(addr).await.unwrap();
        s.write_all(request.as_bytes()).await.unwrap();
        let mut lines = BufReader::new(s).lines();
        loop {
            let line = lines.next_line().await.unwrap().expect("an event");
            if line.starts_with("data: ") {
                break;
            }
        }
        open.push(lines);
    }
    let (status, body) = get(addr, &format!("/api/scoresheets/{id}/events?key={view}")).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (429, Some("scoresheet-followers"))
    );
    assert_eq!(body["args"], json!({"max": "32"}));
    // A wrong key gets no stream.
    let (status, body) = get(addr, &format!("/api/scoresheets/{id}/events?key={id}")).await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("scoresheet-key"))
    );
}

/// Killed dead after every change and restarted on the same database, the sheet keeps every
/// acknowledged deal and goes on.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scoresheets_survive_kill() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("torite.db").display());
    survive_kill(&db).await;
}

/// The same against PostgreSQL, in the database that `TORITE_TEST_POSTGRES` names (ignored by
/// a plain `cargo test`; `.ci/run`'s PostgreSQL stage runs it with `--ignored`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs PostgreSQL: .ci/run starts one; by hand, set TORITE_TEST_POSTGRES and pass --ignored"]
async fn scoresheets_survive_kill_on_postgres() {
    let url = std::env::var("TORITE_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())
        .expect(
            "TORITE_TEST_POSTGRES must name a PostgreSQL database (postgres://user@host:port/db)",
        );
    survive_kill(&url).await;
}

async fn survive_kill(db: &str) {
    let server = Server::start(db, Config::instant());
    let (id, key, view) =
        create(server.addr, json!("mittlere-jass"), &["Aki", "Ben", "Chie"]).await;
    let deals = [
        json!({"tricks": [12, 0, 0], "points": [157, 0, 0]}),
        json!({"tricks": [5, 7, 0], "points": [60, 97, 0]}),
        json!({"tricks": [4, 4, 4], "points": [50, 50, 57]}),
    ];
    let mut server = server;
    let mut last = Value::Null;
    for facts in deals {
        last = deal(server.addr, &id, &key, facts).await;
        server.kill();
        server = Server::start(db, Config::instant());
        let seen = read(server.addr, &id, &view).await;
        assert_eq!(seen["deals"], last["deals"]);
        assert_eq!(seen["version"], last["version"]);
    }
    assert_eq!(last["totals"], json!([2, -1, -1]));
    let sheet = undo(server.addr, &id, &key, Some(2)).await;
    server.kill();
    let server = Server::start(db, Config::instant());
    let seen = read(server.addr, &id, &key).await;
    assert_eq!(seen["deals"], sheet["deals"]);
    assert_eq!(seen["totals"], json!([1, -2, 1]));
}

/// The Jass games take the paper method's ticks instead of trick counts: who took no trick,
/// who took every trick; contradicting ticks are refused.
#[tokio::test]
async fn jass_deals_by_ticks() {
    let server = memory();
    let addr = server.addr;
    let (id, key, _) = create(addr, json!("mittlere-jass"), &["Aki", "Ben", "Chie"]).await;
    let path = format!("/api/scoresheets/{id}/deals");
    // Aki took every trick: +2, the others −1.
    let sheet = deal(
        addr,
        &id,
        &key,
        json!({"every_trick": 0, "points": [157, 0, 0]}),
    )
    .await;
    assert_eq!(sheet["facts"]["ticks"], true);
    assert_eq!(sheet["deals"][0]["tricks"], Value::Null);
    assert_eq!(
        sheet["deals"][0]["ticks"],
        json!({"no_trick": [], "every_trick": 0})
    );
    assert_eq!(sheet["deals"][0]["rule"], "all-tricks");
    // Chie took no trick: −2 to her, +1 to the others.
    let sheet = deal(
        addr,
        &id,
        &key,
        json!({"no_trick": [2], "points": [60, 97, 0]}),
    )
    .await;
    assert_eq!(sheet["deals"][1]["scores"], json!([1, 1, -2]));
    // No tick: everybody took a trick; Ben's 110 points: −2 to him.
    let sheet = deal(
        addr,
        &id,
        &key,
        json!({"no_trick": [], "points": [20, 110, 27]}),
    )
    .await;
    assert_eq!(sheet["deals"][2]["rule"], "hundred");
    assert_eq!(sheet["totals"], json!([4, -2, -2]));
    for (ticks, code) in [
        (
            json!({"no_trick": [0], "points": [10, 70, 77]}),
            "scoresheet-points-without-trick",
        ),
        (
            json!({"no_trick": [1], "every_trick": 1, "points": [0, 157, 0]}),
            "scoresheet-ticks",
        ),
        (
            json!({"no_trick": [0, 1, 2], "points": [0, 0, 157]}),
            "scoresheet-ticks",
        ),
        (
            json!({"no_trick": [3], "points": [50, 50, 57]}),
            "scoresheet-ticks",
        ),
        (
            json!({"no_trick": "0", "points": [50, 50, 57]}),
            "scoresheet-ticks",
        ),
    ] {
        let mut body = ticks.clone();
        body["key"] = json!(key);
        let (status, c, _) = refused(addr, &path, body).await;
        assert_eq!((status, c.as_str()), (400, code), "{ticks}");
    }
    // Mini Misère counts tricks: ticks are not taken for them.
    let (id, key, _) = create(addr, json!("mini-misere-4"), &["A", "B", "C", "D"]).await;
    let (status, code, _) = refused(
        addr,
        &format!("/api/scoresheets/{id}/deals"),
        json!({"key": key, "no_trick": [0]}),
    )
    .await;
    assert_eq!((status, code.as_str()), (400, "scoresheet-numbers"));
}
