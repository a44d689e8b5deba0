//! The lobby and the HTTP API: endpoints, bad requests, per-address limits, printable sheets.

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn lobby_endpoints() {
    let server = memory();
    let (status, presets) = get(server.addr, "/api/presets").await;
    assert_eq!(status, 200);
    assert_eq!(
        presets.as_array().unwrap().len(),
        torite_core::Preset::ALL.len()
    );
    assert_eq!(presets[0]["id"], "mini-misere-4");
    assert_eq!(presets[0]["options"]["target"], 25);
    // Names and option labels come from the catalogs, in both languages.
    assert_eq!(presets[0]["name_ja"], "ミニミゼール（現行ルール・4人）");
    assert_eq!(presets[0]["labels"]["lot_timing"]["en"], "Lot timing");
    assert_eq!(presets[0]["labels"]["lot_timing"]["ja"], "ロットの宣言");
    for preset in presets.as_array().unwrap() {
        let options = preset["options"].as_object().unwrap();
        let labels = preset["labels"].as_object().unwrap();
        assert_eq!(options.len(), labels.len(), "{preset}");
    }
    // The named levels, weakest first, in the asked language (English by default).
    let (status, bots) = get(server.addr, "/api/bots").await;
    assert_eq!(status, 200);
    let ids: Vec<&str> = bots
        .as_array()
        .unwrap()
        .iter()
        .map(|b| b["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, ["beginner", "casual", "club", "strong", "expert"]);
    assert_eq!(bots[2]["name"], "Club");
    assert!(bots[0]["description"].as_str().unwrap().contains("duck"));
    let (_, en) = get(server.addr, "/api/bots?lang=en").await;
    assert_eq!(en, bots);
    let (status, ja) = get(server.addr, "/api/bots?lang=ja").await;
    assert_eq!(status, 200);
    assert_eq!(ja[0]["id"], "beginner");
    assert_eq!(ja[0]["name"], "初心者");
    assert_eq!(ja[4]["name"], "エキスパート");
    for level in ja.as_array().unwrap() {
        assert_eq!(level.as_object().unwrap().len(), 3, "{level}");
        assert!(!level["description"].as_str().unwrap().is_empty());
        assert!(!level["description"].as_str().unwrap().contains("level-"));
    }
    let (status, refused) = get(server.addr, "/api/bots?lang=fr").await;
    assert_eq!(status, 400);
    assert_eq!(refused["code"], "unknown-lang", "{refused}");
    assert_eq!(refused["error"], "lang: unknown value \"fr\" (en or ja)");
    let ja = request(server.addr, "GET", "/api/i18n/ja", None)
        .await
        .unwrap();
    assert_eq!(ja.status, 200);
    assert!(ja.body.contains("番席"));
    let (status, _) = get(server.addr, "/api/i18n/xx").await;
    assert_eq!(status, 404);
    let page = request(server.addr, "GET", "/", None).await.unwrap();
    assert_eq!(page.status, 200);

    let (status, created) = post(
        server.addr,
        "/api/tables",
        json!({"ruleset": {"base": "mura-4", "threshold": 6}, "name": "Aki"}),
    )
    .await;
    assert_eq!(status, 201, "{created}");
    let id = created["id"].as_str().unwrap();
    let (_, list) = get(server.addr, "/api/tables").await;
    let table = list
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["id"] == id)
        .unwrap();
    assert_eq!(table["status"], "open");
    assert_eq!(table["ruleset"], json!({"base": "mura-4", "threshold": 6}));
    assert_eq!(table["seats"][0]["name"], "Aki");
    assert_eq!(table["seats"][0]["kind"], "human");
    assert_eq!(table["seats"][1]["kind"], "empty");
    // Nobody's token appears in the lobby.
    assert!(
        !list
            .to_string()
            .contains(created["token"].as_str().unwrap())
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_http_requests() {
    let server = memory();
    let addr = server.addr;
    let (status, body) = post(
        addr,
        "/api/tables",
        json!({"ruleset": "whist", "name": "A"}),
    )
    .await;
    assert_eq!(status, 400);
    assert!(body["error"].as_str().unwrap().contains("whist"), "{body}");
    let (status, body) = post(
        addr,
        "/api/tables",
        json!({"ruleset": {"base": "mura-4", "lot_timing": "before-lead"}, "name": "A"}),
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        body["error"].as_str().unwrap().contains("lot_timing"),
        "{body}"
    );
    let (status, _) = post(addr, "/api/tables", json!({"name": ""})).await;
    assert_eq!(status, 400);
    let (status, _) = post(addr, "/api/tables", json!({"name": "x".repeat(100)})).await;
    assert_eq!(status, 400);
    let (status, _) = post(addr, "/api/tables", json!({"name": "A", "seat": 9})).await;
    assert_eq!(status, 400);
    // A seed is a whole number a JavaScript client can send exactly: 0 to 2^53 - 1.
    for seed in [
        json!(-1),
        json!(1.5),
        json!("7"),
        json!(1_u64 << 53),
        json!(u64::MAX),
    ] {
        let (status, body) = post(addr, "/api/tables", json!({"name": "A", "seed": seed})).await;
        assert_eq!(status, 400, "{seed}: {body}");
        assert_eq!(
            body["error"],
            format!("\"seed\" must be a whole number from 0 to 9007199254740991, not {seed}"),
        );
        assert_eq!(body["code"], "seed-range");
        assert_eq!(
            body["args"],
            json!({"max": "9007199254740991", "value": seed.to_string()})
        );
    }
    for seed in [json!(0), json!((1_u64 << 53) - 1), Value::Null] {
        let (status, body) = post(addr, "/api/tables", json!({"name": "A", "seed": seed})).await;
        assert_eq!(status, 201, "{seed}: {body}");
    }
    let bad = torite_server::client::raw(
        addr,
        b"POST /api/tables HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\
          Content-Type: application/json\r\nContent-Length: 5\r\n\r\n{oops",
    )
    .await
    .unwrap();
    assert_eq!(bad.status, 400);
    assert!(bad.json()["error"].is_string(), "{}", bad.body);
    let big = json!({"name": "A", "pad": "x".repeat(20_000)});
    let (status, _) = post(addr, "/api/tables", big).await;
    assert_eq!(status, 413);

    let (_, created) = post(addr, "/api/tables", json!({"name": "Aki"})).await;
    let id = created["id"].as_str().unwrap();
    let host = created["token"].as_str().unwrap();
    let (status, _) = post(
        addr,
        &format!("/api/tables/{id}/join"),
        json!({"seat": 0, "name": "B"}),
    )
    .await;
    assert_eq!(status, 409);
    let (status, joined) = post(
        addr,
        &format!("/api/tables/{id}/join"),
        json!({"seat": 1, "name": "Ben"}),
    )
    .await;
    assert_eq!(status, 200);
    let guest = joined["token"].as_str().unwrap();
    let (status, _) = post(
        addr,
        &format!("/api/tables/{id}/bot"),
        json!({"seat": 2, "bot": "random", "token": guest}),
    )
    .await;
    assert_eq!(status, 403);
    let (status, _) = post(
        addr,
        &format!("/api/tables/{id}/bot"),
        json!({"seat": 2, "bot": "nobody", "token": host}),
    )
    .await;
    assert_eq!(status, 400);
    // A named level takes a seat as an algorithm does, and the lobby names it by its id.
    let (status, refused) = post(
        addr,
        &format!("/api/tables/{id}/bot"),
        json!({"seat": 2, "bot": "experts", "token": host}),
    )
    .await;
    assert_eq!(status, 400);
    assert!(
        refused["error"]
            .as_str()
            .unwrap()
            .contains("beginner, casual, club, strong, expert, random"),
        "{refused}"
    );
    let (status, seated) = post(
        addr,
        &format!("/api/tables/{id}/bot"),
        json!({"seat": 2, "bot": "club", "token": host}),
    )
    .await;
    assert_eq!(status, 200, "{seated}");
    let (_, table) = get(addr, &format!("/api/tables/{id}")).await;
    assert_eq!(table["seats"][2]["kind"], "bot", "{table}");
    assert_eq!(table["seats"][2]["bot"], "club", "{table}");
    let (status, filled) = post(
        addr,
        "/api/tables",
        json!({"name": "Aki", "fill": "beginner"}),
    )
    .await;
    assert_eq!(status, 201, "{filled}");
    let (status, _) = post(
        addr,
        &format!("/api/tables/{id}/start"),
        json!({"token": host}),
    )
    .await;
    assert_eq!(status, 409);
    let (status, _) = post(
        addr,
        &format!("/api/tables/{id}/start"),
        json!({"token": guest}),
    )
    .await;
    assert_eq!(status, 403);
    let (status, _) = post(addr, "/api/tables/nope/start", json!({"token": host})).await;
    assert_eq!(status, 404);
    let (status, _) = get(addr, "/api/tables/nope/record").await;
    assert_eq!(status, 404);
    // A socket with a token of another table is refused.
    assert!(Session::connect(addr, id, Some("00")).await.is_err());
}

/// Every sheet of a preset in both languages and forms, a table's sheet with its house rules,
/// and bad requests refused with a JSON error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn printable_sheets_of_presets_and_tables() {
    let server = memory();
    let addr = server.addr;
    for kind in ["rules", "scores", "scorepad"] {
        for (lang, name) in [
            ("en", "Mini Misère (current rules, 4 players)"),
            ("ja", "ミニミゼール（現行ルール・4人）"),
        ] {
            let path = format!("/api/presets/mini-misere-4/sheet?kind={kind}&lang={lang}");
            let (status, headers, body) = get_bytes(addr, &format!("{path}&format=pdf")).await;
            assert_eq!(status, 200, "{path}");
            assert_eq!(header(&headers, "content-type"), "application/pdf");
            assert_eq!(
                header(&headers, "content-disposition"),
                format!("attachment; filename=\"torite-mini-misere-4-{kind}-{lang}.pdf\"")
            );
            assert!(body.starts_with(b"%PDF"), "{path}");
            let (status, headers, body) = get_bytes(addr, &format!("{path}&format=html")).await;
            assert_eq!(status, 200, "{path}");
            assert_eq!(header(&headers, "content-type"), "text/html; charset=utf-8");
            let html = String::from_utf8(body).unwrap();
            assert!(html.starts_with("<!DOCTYPE html>"), "{path}");
            assert!(html.contains(&format!("<html lang=\"{lang}\">")), "{path}");
            assert!(html.contains(name), "{path}: {name} not in the sheet");
        }
    }
    // Defaults: the rules in English, as HTML.
    let (status, _, body) = get_bytes(addr, "/api/presets/mura-3/sheet").await;
    assert_eq!(status, 200);
    assert!(
        String::from_utf8(body)
            .unwrap()
            .contains("Mura (3 players)")
    );
    // The compare sheet, by a game's family or by one of its presets.
    for path in [
        "/api/presets/mini-misere/sheet?kind=compare&lang=ja",
        "/api/presets/mini-misere-4/sheet?kind=compare&lang=ja",
    ] {
        let (status, _, body) = get_bytes(addr, path).await;
        assert_eq!(status, 200, "{path}");
        let html = String::from_utf8(body).unwrap();
        assert!(
            html.contains("ルール比較表") && html.contains("4人（1989年）"),
            "{path}"
        );
    }
    let (status, headers, _) = get_bytes(
        addr,
        "/api/presets/mini-misere/sheet?kind=compare&format=pdf",
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(
        header(&headers, "content-disposition"),
        "attachment; filename=\"torite-mini-misere-4-compare-en.pdf\""
    );
    for (path, status, word) in [
        ("/api/presets/mini-misere/sheet", 404, "no preset"),
        ("/api/presets/nope/sheet", 404, "no preset"),
        ("/api/presets/mura-3/sheet?kind=menu", 400, "kind"),
        ("/api/presets/mura-3/sheet?lang=fr", 400, "lang"),
        ("/api/presets/mura-3/sheet?format=docx", 400, "format"),
        ("/api/presets/mura-3/sheet?size=a5", 400, "size"),
        ("/api/tables/nope/sheet", 404, "no table"),
        ("/api/tables/nope/sheet?kind=menu", 400, "kind"),
    ] {
        let (got, body) = get(addr, path).await;
        assert_eq!(got, status, "{path}: {body}");
        assert!(
            body["error"].as_str().unwrap().contains(word),
            "{path}: {body}"
        );
    }
    // A table's sheet shows its house rules.
    let (status, made) = post(
        addr,
        "/api/tables",
        json!({"name": "Aki", "ruleset": {"base": "mini-misere-4", "lot_timing": "before-lead"}}),
    )
    .await;
    assert_eq!(status, 201);
    let id = made["id"].as_str().unwrap();
    let (status, headers, body) =
        get_bytes(addr, &format!("/api/tables/{id}/sheet?lang=ja&format=pdf")).await;
    assert_eq!(status, 200);
    assert!(body.starts_with(b"%PDF"));
    assert!(header(&headers, "content-disposition").contains(&format!("{id}-rules-ja.pdf")));
    let (status, _, body) = get_bytes(addr, &format!("/api/tables/{id}/sheet?lang=en")).await;
    assert_eq!(status, 200);
    let html = String::from_utf8(body).unwrap();
    assert!(html.contains("House rules"), "no house rules on the sheet");
    assert!(
        html.contains("before the first card is led"),
        "the 1989 Lot timing"
    );
    let (_, _, preset) = get_bytes(addr, "/api/presets/mini-misere-4/sheet?lang=en").await;
    assert!(!String::from_utf8(preset).unwrap().contains("House rules"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn table_creation_is_limited_per_address() {
    let config = Config {
        creates_per_minute: Some(2),
        ..Config::instant()
    };
    let server = Server::start("sqlite::memory:", config);
    for _ in 0..2 {
        let (status, _) = post(server.addr, "/api/tables", json!({"name": "Aki"})).await;
        assert_eq!(status, 201);
    }
    let (status, body) = post(server.addr, "/api/tables", json!({"name": "Aki"})).await;
    assert_eq!(status, 429, "{body}");
    assert!(body["error"].is_string());
}
