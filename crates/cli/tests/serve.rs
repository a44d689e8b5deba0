//! `torite serve` as a process: killed with SIGKILL in the middle of a game and restarted on the
//! same SQLite file, it resumes every table exactly where it was.

mod common;

use std::io::{BufRead, BufReader, Read};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use torite_server::client::{Session, request};

use common::BIN;

struct Served {
    child: Child,
    addr: SocketAddr,
    /// What it wrote on standard error after the address line (read as it comes, so that the
    /// server never waits on a full pipe).
    log: Arc<Mutex<String>>,
    /// The thread that reads standard error; it ends when the server's end of the pipe closes.
    reader: Option<std::thread::JoinHandle<()>>,
}

impl Served {
    /// Waits for the server to exit and for its last words on standard error, and gives both.
    /// (The log read at the moment of exit could still miss the lines written just before it.)
    fn exit(&mut self) -> (std::process::ExitStatus, String) {
        let status = self.child.wait().expect("torite serve is waited for");
        if let Some(reader) = self.reader.take() {
            reader.join().expect("the log reader ends cleanly");
        }
        (status, self.log.lock().unwrap().clone())
    }
}

/// Starts `torite serve` on a free port of 127.0.0.1 and reads the address it prints.
fn serve(db: &str) -> Served {
    serve_with(db, &[])
}

/// [`serve`] with more arguments.
fn serve_with(db: &str, more: &[&str]) -> Served {
    let mut child = Command::new(BIN)
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--db",
            db,
            "--instant-bots",
        ])
        .args(more)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("torite serve starts");
    let stderr = child.stderr.take().expect("stderr");
    let mut reader = BufReader::new(stderr);
    let mut line = String::new();
    reader.read_line(&mut line).expect("a line on stderr");
    let log = Arc::new(Mutex::new(String::new()));
    let kept = Arc::clone(&log);
    let reader = std::thread::spawn(move || {
        let mut buf = [0u8; 8192];
        while let Ok(n) = reader.read(&mut buf) {
            if n == 0 {
                break;
            }
            kept.lock()
                .unwrap()
                .push_str(&String::from_utf8_lossy(&buf[..n]));
        }
    });
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    Served {
        child,
        addr,
        log,
        reader: Some(reader),
    }
}

fn without_presence(state: &Value) -> Value {
    let mut state = state.clone();
    state.as_object_mut().unwrap().remove("table");
    state
}

#[test]
fn kill_9_and_restart_resumes_every_table() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("served.db").display());
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let mut served = serve(&db);
        let created = request(
            served.addr,
            "POST",
            "/api/tables",
            Some(&json!({"ruleset": {"base": "mittlere-jass", "deals": 1}, "name": "Aki", "fill": "heuristic", "start": true})),
        )
        .await
        .unwrap()
        .json();
        let id = created["id"].as_str().unwrap().to_owned();
        let token = created["token"].as_str().unwrap().to_owned();
        let mut kills = 0;
        loop {
            let mut seat = Session::connect(served.addr, &id, Some(&token)).await.unwrap();
            let state = seat
                .until(|s| s["finished"] == true || s["legal"].as_array().is_some_and(|l| !l.is_empty()))
                .await
                .unwrap();
            if state["finished"] == true {
                break;
            }
            // Act twice, then kill the server right after the second action was shown.
            for _ in 0..2 {
                let s = seat
                    .until(|s| s["finished"] == true || s["legal"].as_array().is_some_and(|l| !l.is_empty()))
                    .await
                    .unwrap();
                if s["finished"] == true {
                    break;
                }
                let version = s["version"].as_u64();
                seat.act(s["legal"][0].as_str().unwrap()).await.unwrap();
                seat.until(|n| n["version"].as_u64() > version).await.unwrap();
            }
            let before = seat
                .until(|s| s["finished"] == true || s["legal"].as_array().is_some_and(|l| !l.is_empty()))
                .await
                .unwrap();
            served.child.kill().unwrap(); // SIGKILL
            served.child.wait().unwrap();
            kills += 1;
            served = serve(&db);
            if before["finished"] == true {
                // A finished game is not loaded again; its record is kept.
                break;
            }
            let again = Session::connect(served.addr, &id, Some(&token)).await.unwrap();
            assert_eq!(without_presence(&again.state), without_presence(&before));
            assert!(kills < 50);
        }
        assert!(kills >= 2);
        let record = request(served.addr, "GET", &format!("/api/tables/{id}/record"), None)
            .await
            .unwrap()
            .json();
        let replay = torite_core::record::replay_value(&record).unwrap();
        assert!(replay.game.is_finished());
        served.child.kill().unwrap();
        served.child.wait().unwrap();
    });
}

/// The log on standard error has a line per request (path without its query) and per socket,
/// and never a token, even at the most detailed level.
#[test]
fn the_log_shows_requests_and_never_a_token() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("logged.db").display());
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let mut served = serve_with(&db, &["--log", "trace"]);
        let made = request(
            served.addr,
            "POST",
            "/api/tables",
            Some(&json!({"name": "Aki", "ruleset": {"base": "mura-3", "deals": 1}})),
        )
        .await
        .unwrap()
        .json();
        let id = made["id"].as_str().unwrap().to_owned();
        let host = made["token"].as_str().unwrap().to_owned();
        let joined = request(
            served.addr,
            "POST",
            &format!("/api/tables/{id}/join"),
            Some(&json!({"seat": 1, "name": "Ben"})),
        )
        .await
        .unwrap()
        .json();
        let guest = joined["token"].as_str().unwrap().to_owned();
        request(
            served.addr,
            "POST",
            &format!("/api/tables/{id}/bot"),
            Some(&json!({"seat": 2, "bot": "random", "token": host})),
        )
        .await
        .unwrap();
        request(
            served.addr,
            "POST",
            &format!("/api/tables/{id}/start"),
            Some(&json!({"token": host})),
        )
        .await
        .unwrap();
        let mut seat = Session::connect(served.addr, &id, Some(&guest))
            .await
            .unwrap();
        seat.until(|s| s["deal"].is_u64()).await.unwrap();
        seat.close().await;
        let queried = request(
            served.addr,
            "GET",
            &format!("/api/tables/{id}?token={host}"),
            None,
        )
        .await
        .unwrap();
        assert_eq!(queried.status, 200);
        // Let the log catch up (the socket's end and the last request's access line, which is
        // written once its answer has gone), then stop the server.
        let mut log = String::new();
        for _ in 0..100 {
            log = served.log.lock().unwrap().clone();
            if log.contains("socket closed") && log.contains(&format!("path=/api/tables/{id} ")) {
                break;
            }
            tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        }
        served.child.kill().unwrap();
        served.child.wait().unwrap();
        for token in [&host, &guest] {
            assert!(!log.contains(token.as_str()), "a token in the log:\n{log}");
        }
        let access = log
            .lines()
            .find(|l| {
                l.contains("request")
                    && l.contains("method=POST")
                    && l.contains("path=/api/tables ")
            })
            .unwrap_or_else(|| panic!("no access line:\n{log}"));
        assert!(access.contains("status=201"), "{access}");
        assert!(access.contains("ms="), "{access}");
        assert!(log.contains(&format!("path=/api/tables/{id} ")), "{log}");
        assert!(
            log.contains("socket opened") && log.contains("seat 1"),
            "{log}"
        );
        assert!(
            log.contains("table created") && log.contains("table started"),
            "{log}"
        );
    });
}

/// `--log warn` leaves out the access lines; a bad level is refused in one line.
#[test]
fn the_log_level_is_chosen_on_the_command_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("quiet.db").display());
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let mut served = serve_with(&db, &["--log", "warn"]);
        let answer = request(served.addr, "GET", "/api/tables", None)
            .await
            .unwrap();
        assert_eq!(answer.status, 200);
        tokio::time::sleep(std::time::Duration::from_millis(200)).await;
        served.child.kill().unwrap();
        let (_, log) = served.exit();
        assert!(!log.contains("method=GET"), "{log}");
    });
    // A bad value of either option is refused in one line that names the option.
    for (option, value) in [("--log", "loud=[x"), ("--allow-origin", "ftp://x")] {
        let out = Command::new(BIN)
            .args(["serve", "--addr", "127.0.0.1:0", "--db", &db, option, value])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{option} {value}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(option) && err.lines().count() == 1,
            "{option} {value}: {err}"
        );
    }
}

/// Sends SIGTERM to the server.
fn terminate(served: &Served) {
    let status = Command::new("kill")
        .args(["-TERM", &served.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
}

/// On SIGTERM the server closes every socket with 1001 (going away) and a reason, exits 0,
/// and what it acknowledged before is there after a restart; `/healthz` and `/readyz` answer
/// while it runs.
#[test]
fn sigterm_closes_the_sockets_and_keeps_what_was_acknowledged() {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    use tokio_tungstenite::tungstenite::protocol::frame::coding::CloseCode;

    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("stopped.db").display());
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let mut served = serve(&db);
        for (path, status) in [("/healthz", "ok"), ("/readyz", "ready")] {
            let answer = request(served.addr, "GET", path, None).await.unwrap();
            assert_eq!(answer.status, 200, "{path}");
            assert_eq!(answer.json()["status"], status, "{path}");
            assert_eq!(answer.header("cache-control"), Some("no-store"), "{path}");
        }
        let created = request(
            served.addr,
            "POST",
            "/api/tables",
            Some(&json!({"ruleset": {"base": "mura-4", "deals": 1}, "name": "Aki", "fill": "heuristic", "start": true})),
        )
        .await
        .unwrap()
        .json();
        let id = created["id"].as_str().unwrap().to_owned();
        let token = created["token"].as_str().unwrap().to_owned();
        let mut seat = Session::connect(served.addr, &id, Some(&token)).await.unwrap();
        let mine = |s: &Value| s["legal"].as_array().is_some_and(|l| !l.is_empty());
        let s = seat.until(mine).await.unwrap();
        let version = s["version"].as_u64();
        seat.act(s["legal"][0].as_str().unwrap()).await.unwrap();
        // Acknowledged: the state that includes the action has been shown; then the bots play
        // up to this seat's next turn, where the table waits.
        seat.until(|n| n["version"].as_u64() > version).await.unwrap();
        let before = seat.until(mine).await.unwrap();
        let (mut watcher, _) =
            tokio_tungstenite::connect_async(format!("ws://{}/ws/{id}", served.addr))
                .await
                .unwrap();
        terminate(&served);
        let close = loop {
            match tokio::time::timeout(std::time::Duration::from_secs(10), watcher.next())
                .await
                .expect("the socket closes within 10 s")
            {
                Some(Ok(Message::Close(frame))) => break frame,
                Some(Ok(_)) => {}
                other => panic!("no close frame: {other:?}"),
            }
        };
        let close = close.expect("a close frame with a code");
        assert_eq!(close.code, CloseCode::Away);
        assert_eq!(close.reason.as_str(), "the server is shutting down");
        let (status, log) = served.exit();
        assert_eq!(status.code(), Some(0), "{log}");
        assert!(log.contains("signal=\"SIGTERM\"") || log.contains("signal=SIGTERM"), "{log}");
        assert!(log.contains("every socket closed"), "{log}");
        drop(seat);
        let mut again = serve(&db);
        let seat = Session::connect(again.addr, &id, Some(&token)).await.unwrap();
        assert_eq!(without_presence(&seat.state), without_presence(&before));
        terminate(&again);
        assert_eq!(again.child.wait().unwrap().code(), Some(0));
    });
}

/// Runs `torite serve --print-config` with these arguments and variables.
fn printed(args: &[&str], env: &[(&str, &str)]) -> String {
    let mut command = Command::new(BIN);
    command.arg("serve").args(args).arg("--print-config");
    for var in [
        "TORITE_CONFIG",
        "TORITE_DB",
        "TORITE_ADDR",
        "TORITE_DATA_DIR",
        "TORITE_PUBLIC_URL",
        "TORITE_ALLOW_ORIGIN",
        "TORITE_LOG",
    ] {
        command.env_remove(var);
    }
    let out = command.envs(env.iter().copied()).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// A setting comes from its flag, else its `TORITE_*` variable, else the config file, else
/// the default.
#[test]
fn flags_then_variables_then_the_file_then_the_defaults() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("torite.toml");
    std::fs::write(
        &file,
        "addr = \"127.0.0.1:7001\"\ndb = \"sqlite:file.db\"\nlog = \"debug\"\n",
    )
    .unwrap();
    let file = file.to_str().unwrap();
    let defaults = printed(&[], &[]);
    assert!(
        defaults.contains("addr = \"127.0.0.1:8080\"\n"),
        "{defaults}"
    );
    assert!(
        defaults.contains("db = \"sqlite:torite.db\"\n"),
        "{defaults}"
    );
    let from_file = printed(&["--config", file], &[]);
    assert!(
        from_file.contains("addr = \"127.0.0.1:7001\"\n"),
        "{from_file}"
    );
    assert!(from_file.contains("log = \"debug\"\n"), "{from_file}");
    // The file named by a variable is read as well.
    assert_eq!(printed(&[], &[("TORITE_CONFIG", file)]), from_file);
    let env = [
        ("TORITE_ADDR", "127.0.0.1:7002"),
        ("TORITE_DB", "sqlite:env.db"),
    ];
    let from_env = printed(&["--config", file], &env);
    assert!(
        from_env.contains("addr = \"127.0.0.1:7002\"\n"),
        "{from_env}"
    );
    assert!(from_env.contains("db = \"sqlite:env.db\"\n"), "{from_env}");
    assert!(from_env.contains("log = \"debug\"\n"), "{from_env}");
    let from_flag = printed(&["--config", file, "--addr", "127.0.0.1:7003"], &env);
    assert!(
        from_flag.contains("addr = \"127.0.0.1:7003\"\n"),
        "{from_flag}"
    );
    assert!(
        from_flag.contains("db = \"sqlite:env.db\"\n"),
        "{from_flag}"
    );
    let data = printed(&["--data-dir", "/srv/torite"], &[]);
    assert!(
        data.contains("db = \"sqlite:/srv/torite/torite.db\"\n"),
        "{data}"
    );
    let origins = printed(
        &[],
        &[("TORITE_ALLOW_ORIGIN", "https://a.example,https://b.example")],
    );
    assert!(
        origins.contains("allow_origin = [\"https://a.example\", \"https://b.example\"]"),
        "{origins}"
    );
}

/// A bad config file is refused in one line naming the file, the line and the key.
#[test]
fn a_bad_config_file_is_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("torite.toml");
    std::fs::write(&file, "db = \"sqlite:x.db\"\nport = 8080\n").unwrap();
    let out = Command::new(BIN)
        .args(["serve", "--config", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with(&format!(
            "--config {}: line 2, key port: unknown field `port`",
            file.display()
        )),
        "{err}"
    );
}

/// Runs `torite admin` with these arguments; its exit status, standard output and error.
fn admin(args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(BIN)
        .arg("admin")
        .args(args)
        .env_remove("TORITE_CONFIG")
        .env_remove("TORITE_DB")
        .env_remove("TORITE_DATA_DIR")
        .output()
        .unwrap();
    (
        out.status.code(),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

/// The lines of a backup that belong to these tables (a shared PostgreSQL database may hold
/// others).
fn lines_of(backup: &str, ids: &[String]) -> Vec<String> {
    backup
        .lines()
        .filter(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            ["table", "scoresheet", "series"].contains(&v["type"].as_str().unwrap())
                && ids.iter().any(|id| v["id"] == id.as_str())
        })
        .map(str::to_owned)
        .collect()
}

/// Plays a server's tables into three states (finished, under way, never started), keeps a
/// scorekeeper's sheet of two deals and a duplicate series, backs the database up with
/// `torite admin export`, imports the backup into `target` and checks that a server on
/// `target` shows each table, the sheet and the series as they were, and that the backup of
/// `target` holds the same lines.
fn backup_and_restore(target: &str) {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("club.db").display());
    let rt = tokio::runtime::Runtime::new().unwrap();
    let (ids, token, before, record, pages) = rt.block_on(async {
        let served = serve(&db);
        let mut ids = Vec::new();
        let mut tokens = Vec::new();
        for ruleset in ["mini-misere-4", "mura-4"] {
            let created = request(
                served.addr,
                "POST",
                "/api/tables",
                Some(&json!({"ruleset": {"base": ruleset, "deals": 1}, "name": "Aki", "fill": "heuristic", "start": true})),
            )
            .await
            .unwrap()
            .json();
            ids.push(created["id"].as_str().unwrap().to_owned());
            tokens.push(created["token"].as_str().unwrap().to_owned());
        }
        let open = request(
            served.addr,
            "POST",
            "/api/tables",
            Some(&json!({"ruleset": "mura-3", "name": "Ben"})),
        )
        .await
        .unwrap()
        .json();
        ids.push(open["id"].as_str().unwrap().to_owned());
        // A player profile keeping the open table's seat: in the backup too.
        let profile = request(served.addr, "POST", "/api/profiles", Some(&json!({"name": "Ben"})))
            .await
            .unwrap()
            .json();
        let key = profile["key"].as_str().unwrap();
        let body = json!({"token": open["token"]}).to_string();
        let kept = torite_server::client::raw(
            served.addr,
            format!(
                "POST /api/tables/{}/profile HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\
                 Authorization: Bearer {key}\r\nContent-Type: application/json\r\n\
                 Content-Length: {}\r\n\r\n{body}",
                ids[2],
                served.addr,
                body.len()
            )
            .as_bytes(),
        )
        .await
        .unwrap();
        assert_eq!(kept.status, 200, "{}", kept.body);
        let mine = |s: &Value| s["finished"] == true || s["legal"].as_array().is_some_and(|l| !l.is_empty());
        // The first table is played to its end, the second for one action.
        let mut seat = Session::connect(served.addr, &ids[0], Some(&tokens[0])).await.unwrap();
        loop {
            let s = seat.until(mine).await.unwrap();
            if s["finished"] == true {
                break;
            }
            let version = s["version"].as_u64();
            seat.act(s["legal"][0].as_str().unwrap()).await.unwrap();
            seat.until(|n| n["version"].as_u64() > version).await.unwrap();
        }
        seat.close().await;
        let record = request(served.addr, "GET", &format!("/api/tables/{}/record", ids[0]), None)
            .await
            .unwrap()
            .json();
        let mut seat = Session::connect(served.addr, &ids[1], Some(&tokens[1])).await.unwrap();
        let s = seat.until(mine).await.unwrap();
        let version = s["version"].as_u64();
        seat.act(s["legal"][0].as_str().unwrap()).await.unwrap();
        seat.until(|n| n["version"].as_u64() > version).await.unwrap();
        let before = seat.until(mine).await.unwrap();
        seat.close().await;
        // A scorekeeper's sheet of two deals, and a series whose table waits for its player.
        let sheet = request(
            served.addr,
            "POST",
            "/api/scoresheets",
            Some(&json!({"ruleset": "mura-4", "players": ["Aki", "Ben", "Chie", "Dan"]})),
        )
        .await
        .unwrap()
        .json();
        let sheet_id = sheet["id"].as_str().unwrap().to_owned();
        let sheet_key = sheet["key"].as_str().unwrap().to_owned();
        for points in [[6, 5, 3, 2], [2, 3, 5, 6]] {
            let dealt = request(
                served.addr,
                "POST",
                &format!("/api/scoresheets/{sheet_id}/deals"),
                Some(&json!({"key": sheet_key, "tricks": [3, 2, 2, 2], "points": points})),
            )
            .await
            .unwrap();
            assert_eq!(dealt.status, 200, "{}", dealt.body);
        }
        let series = request(
            served.addr,
            "POST",
            "/api/series",
            Some(&json!({"ruleset": "mini-misere-4", "deals": 2, "tables": 1, "seed": 7,
                         "seats": ["person", "heuristic", "heuristic", "heuristic"]})),
        )
        .await
        .unwrap();
        assert_eq!(series.status, 201, "{}", series.body);
        let series = series.json();
        let series_id = series["id"].as_str().unwrap().to_owned();
        let series_key = series["key"].as_str().unwrap().to_owned();
        let series_table = series["series"]["tables"][0]["id"].as_str().unwrap().to_owned();
        let paths = [
            format!("/api/scoresheets/{sheet_id}?key={sheet_key}"),
            format!("/api/series/{series_id}"),
            format!("/api/series/{series_id}?key={series_key}"),
        ];
        let mut pages = Vec::new();
        for path in paths {
            let shown = request(served.addr, "GET", &path, None).await.unwrap();
            assert_eq!(shown.status, 200, "{path}: {}", shown.body);
            pages.push((path, shown.json()));
        }
        assert_eq!(pages[0].1["deals"].as_array().unwrap().len(), 2, "{}", pages[0].1);
        ids.extend([series_table, sheet_id, series_id]);
        terminate(&served);
        let mut served = served;
        assert_eq!(served.child.wait().unwrap().code(), Some(0));
        (ids, tokens[1].clone(), before, record, pages)
    });
    let file = dir.path().join("backup.jsonl");
    let file = file.to_str().unwrap();
    let (status, out, err) = admin(&["export", "--db", &db, file]);
    assert_eq!(status, Some(0), "{err}");
    assert!(out.is_empty());
    assert!(
        err.contains("4 tables (1 finished), 1 profiles, 1 score sheets, 1 duplicate series"),
        "{err}"
    );
    let backup = std::fs::read_to_string(file).unwrap();
    let lines: Vec<Value> = backup
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0], json!({"type": "torite-backup", "version": 1}));
    assert_eq!(lines[5]["type"], "profile");
    assert_eq!(lines[5]["name"], "Ben");
    assert!(lines[5].get("key").is_none(), "a backup holds no key");
    assert_eq!(lines[6]["type"], "profile_seat");
    assert_eq!(lines[6]["table"], ids[2].as_str());
    assert_eq!(lines[7]["type"], "scoresheet");
    assert_eq!(lines[7]["id"], ids[4].as_str());
    assert_eq!(lines[7]["body"]["deals"].as_array().unwrap().len(), 2);
    assert_eq!(lines[8]["type"], "series");
    assert_eq!(lines[8]["id"], ids[5].as_str());
    for (line, key) in [(7, &pages[0].0), (8, &pages[2].0)] {
        let secret = key.rsplit_once("key=").unwrap().1;
        assert!(
            !backup.lines().nth(line).unwrap().contains(secret),
            "a backup holds no key"
        );
    }
    assert_eq!(
        lines[9],
        json!({"type": "end", "tables": 4, "profiles": 1, "profile_seats": 1,
               "scoresheets": 1, "series": 1})
    );
    let finished = lines.iter().find(|l| l["id"] == ids[0].as_str()).unwrap();
    assert_eq!(finished["record"], record);
    torite_core::record::replay_value(&finished["record"]).unwrap();
    // The same backup on standard output.
    let (status, out, _) = admin(&["export", "--db", &db, "-"]);
    assert_eq!(status, Some(0));
    assert_eq!(out, backup);

    let (status, _, err) = admin(&["import", "--db", target, file]);
    assert_eq!(status, Some(0), "{err}");
    // Again: refused in one line naming the score sheet, before anything is written.
    let (status, _, err) = admin(&["import", "--db", target, file]);
    assert_eq!(status, Some(2));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.ends_with(&format!(
            "score sheet {} is already in the database (--replace overwrites it); nothing was imported\n",
            ids[4]
        )),
        "{err}"
    );
    // The series alone: refused naming it.
    let alone = dir.path().join("series.jsonl");
    std::fs::write(
        &alone,
        format!(
            "{}\n{}\n{}\n",
            backup.lines().next().unwrap(),
            backup.lines().nth(8).unwrap(),
            json!({"type": "end", "tables": 0, "series": 1})
        ),
    )
    .unwrap();
    let (status, _, err) = admin(&["import", "--db", target, alone.to_str().unwrap()]);
    assert_eq!(status, Some(2));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.ends_with(&format!(
            "duplicate series {} is already in the database (--replace overwrites it); nothing was imported\n",
            ids[5]
        )),
        "{err}"
    );
    // A backup made before sheets and series: refused naming a table.
    let old = dir.path().join("old.jsonl");
    let old_text: String = backup
        .lines()
        .filter(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["type"] != "scoresheet" && v["type"] != "series"
        })
        .map(|l| format!("{l}\n"))
        .collect::<String>()
        .replace(r#","scoresheets":1,"series":1"#, "");
    std::fs::write(&old, old_text).unwrap();
    let (status, _, err) = admin(&["import", "--db", target, old.to_str().unwrap()]);
    assert_eq!(status, Some(2));
    assert_eq!(err.lines().count(), 1, "{err}");
    let first: Value = serde_json::from_str(backup.lines().nth(1).unwrap()).unwrap();
    assert!(
        err.ends_with(&format!(
            "table {} is already in the database (--replace overwrites it); nothing was imported\n",
            first["id"].as_str().unwrap()
        )),
        "{err}"
    );
    let (status, _, err) = admin(&["import", "--db", target, "--replace", file]);
    assert_eq!(status, Some(0), "{err}");
    let (status, again, err) = admin(&["export", "--db", target]);
    assert_eq!(status, Some(0), "{err}");
    assert_eq!(lines_of(&again, &ids), lines_of(&backup, &ids));
    for profile_line in &backup.lines().collect::<Vec<_>>()[5..7] {
        assert!(
            again.lines().any(|l| l == *profile_line),
            "{profile_line} not in {again}"
        );
    }

    rt.block_on(async {
        let mut served = serve(target);
        let seat = Session::connect(served.addr, &ids[1], Some(&token))
            .await
            .unwrap();
        assert_eq!(without_presence(&seat.state), without_presence(&before));
        let kept = request(
            served.addr,
            "GET",
            &format!("/api/tables/{}/record", ids[0]),
            None,
        )
        .await
        .unwrap()
        .json();
        assert_eq!(kept, record);
        let open = request(served.addr, "GET", &format!("/api/tables/{}", ids[2]), None)
            .await
            .unwrap();
        assert_eq!(open.status, 200);
        // The sheet with its key and the series, with and without the host's key, as they were.
        for (path, shown) in &pages {
            let now = request(served.addr, "GET", path, None).await.unwrap();
            assert_eq!(now.status, 200, "{path}: {}", now.body);
            assert_eq!(&now.json(), shown, "{path}");
        }
        terminate(&served);
        assert_eq!(served.child.wait().unwrap().code(), Some(0));
    });
}

/// A club's SQLite database, backed up and restored into another SQLite file.
#[test]
fn backup_sqlite_to_sqlite() {
    let dir = tempfile::tempdir().unwrap();
    backup_and_restore(&format!(
        "sqlite:{}",
        dir.path().join("restored.db").display()
    ));
}

/// The move from SQLite to PostgreSQL, in the database `TORITE_TEST_POSTGRES` names. Ignored
/// by a plain `cargo test`; `.ci/run` runs it with `--ignored` beside the store's PostgreSQL
/// tests, and without the variable it fails rather than pass having tested nothing.
#[test]
#[ignore = "needs PostgreSQL: .ci/run starts one; by hand, set TORITE_TEST_POSTGRES and pass --ignored"]
fn backup_sqlite_to_postgres() {
    let url = std::env::var("TORITE_TEST_POSTGRES")
        .ok()
        .filter(|u| !u.is_empty())
        .expect(
            "TORITE_TEST_POSTGRES must name a PostgreSQL database (postgres://user@host:port/db)",
        );
    backup_and_restore(&url);
}

/// Bad backups and missing databases are refused in one line.
#[test]
fn a_bad_backup_is_refused_in_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("t.db").display());
    let (status, _, err) = admin(&["export", "--db", &db]);
    assert_eq!(status, Some(2));
    assert!(err.contains("there is no such file"), "{err}");
    assert!(!dir.path().join("t.db").exists());
    let bad = dir.path().join("bad.jsonl");
    std::fs::write(
        &bad,
        "{\"type\":\"torite-backup\",\"version\":1}\n{\"type\":\"table\"}\n",
    )
    .unwrap();
    let (status, _, err) = admin(&["import", "--db", &db, bad.to_str().unwrap()]);
    assert_eq!(status, Some(2));
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.ends_with("line 2: a table line without its \"id\"\n"),
        "{err}"
    );
    let (status, _, err) = admin(&["import", "--db", &db, "/nonexistent/backup"]);
    assert_eq!(status, Some(2));
    assert!(
        err.starts_with("/nonexistent/backup: cannot read it"),
        "{err}"
    );
}

/// The systemd unit and the config example of `deploy/` work together: the unit's command
/// reads the example, and its variables give the database in the unit's state directory.
#[test]
fn the_deployment_files_resolve() {
    let deploy = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../deploy");
    let unit = std::fs::read_to_string(deploy.join("torite.service")).unwrap();
    let exec = unit
        .lines()
        .find_map(|l| l.strip_prefix("ExecStart="))
        .expect("an ExecStart line");
    let args: Vec<&str> = exec.split_whitespace().collect();
    assert_eq!(
        args[..3],
        ["/usr/local/bin/torite", "serve", "--config"],
        "{exec}"
    );
    assert_eq!(args[3], "/etc/torite/torite.toml");
    // systemd's %S is /var/lib for a system service.
    let env: Vec<(String, String)> = unit
        .lines()
        .filter_map(|l| l.strip_prefix("Environment="))
        .map(|e| {
            let (k, v) = e.split_once('=').unwrap();
            (k.to_owned(), v.replace("%S", "/var/lib"))
        })
        .collect();
    assert!(unit.contains("StateDirectory=torite\n"));
    let env: Vec<(&str, &str)> = env.iter().map(|(k, v)| (k.as_str(), v.as_str())).collect();
    let example = deploy.join("torite.toml");
    let settings = printed(&["--config", example.to_str().unwrap()], &env);
    assert_eq!(
        settings.lines().skip(1).collect::<Vec<_>>(),
        [
            "addr = \"127.0.0.1:8080\"",
            "db = \"sqlite:/var/lib/torite/torite.db\"",
            "data_dir = \"/var/lib/torite\"",
            "allow_origin = []",
            "log = \"info\"",
        ],
        "{settings}"
    );
}

/// `--help` never shows the value of `TORITE_DB`, which may hold a password.
#[test]
fn help_does_not_show_the_database_password() {
    let out = Command::new(BIN)
        .args(["serve", "--help"])
        .env("TORITE_DB", "postgres://torite:hunter2@db/torite")
        .output()
        .unwrap();
    assert!(out.status.success());
    let help = String::from_utf8_lossy(&out.stdout);
    assert!(help.contains("TORITE_DB"), "{help}");
    assert!(!help.contains("hunter2"), "{help}");
}

/// Ctrl-C (SIGINT) stops the server as SIGTERM does, with exit status 0.
#[test]
fn ctrl_c_stops_it_gracefully_too() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("int.db").display());
    let mut served = serve(&db);
    let status = Command::new("kill")
        .args(["-INT", &served.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    let (status, log) = served.exit();
    assert_eq!(status.code(), Some(0), "{log}");
    assert!(log.contains("SIGINT"), "{log}");
}

/// A bad value from a variable is refused in one line naming the option and its variable.
#[test]
fn a_bad_variable_is_one_line_naming_it() {
    let out = Command::new(BIN)
        .arg("serve")
        .env("TORITE_ADDR", "nowhere")
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(
        err.starts_with("--addr (or TORITE_ADDR) = nowhere: "),
        "{err}"
    );
}

/// With `--public-url` the page names the public address (for invite links) and the pages of
/// that origin are admitted, also when the proxy does not pass `Host` on; without it, the page
/// names none.
#[test]
fn the_public_url_is_told_to_the_page_and_admitted() {
    let dir = tempfile::tempdir().unwrap();
    let db = format!("sqlite:{}", dir.path().join("public.db").display());
    let rt = tokio::runtime::Runtime::new().unwrap();
    rt.block_on(async {
        let meta = "<meta name=\"torite-public-url\" content=\"https://torite.example\" />";
        let mut plain = serve(&db);
        let page = request(plain.addr, "GET", "/", None).await.unwrap();
        assert!(!page.body.contains("torite-public-url"), "{}", page.body);
        terminate(&plain);
        plain.child.wait().unwrap();
        let mut public = serve_with(&db, &["--public-url", "https://torite.example/"]);
        let page = request(public.addr, "GET", "/", None).await.unwrap();
        assert!(page.body.contains(meta), "{}", page.body);
        let from = |origin: &str| {
            format!(
                "GET /api/tables HTTP/1.1\r\nHost: {}\r\nOrigin: {origin}\r\nConnection: close\r\n\r\n",
                public.addr
            )
        };
        let admitted = torite_server::client::raw(public.addr, from("https://torite.example").as_bytes())
            .await
            .unwrap();
        assert_eq!(admitted.status, 200);
        let refused = torite_server::client::raw(public.addr, from("https://elsewhere.example").as_bytes())
            .await
            .unwrap();
        assert_eq!(refused.status, 403);
        terminate(&public);
        assert_eq!(public.child.wait().unwrap().code(), Some(0));
    });
}
