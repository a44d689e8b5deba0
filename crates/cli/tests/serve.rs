//! `torite serve` as a process: killed with SIGKILL in the middle of a game and restarted on the
//! same SQLite file, it resumes every table exactly where it was.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::process::{Child, Command, Stdio};

use serde_json::{Value, json};
use torite_server::client::{Session, request};

struct Served {
    child: Child,
    addr: SocketAddr,
}

/// Starts `torite serve` on a free port of 127.0.0.1 and reads the address it prints.
fn serve(db: &str) -> Served {
    let mut child = Command::new(env!("CARGO_BIN_EXE_torite"))
        .args([
            "serve",
            "--addr",
            "127.0.0.1:0",
            "--db",
            db,
            "--instant-bots",
        ])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("torite serve starts");
    let stderr = child.stderr.take().expect("stderr");
    let mut line = String::new();
    BufReader::new(stderr)
        .read_line(&mut line)
        .expect("a line on stderr");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .and_then(|a| a.parse().ok())
        .unwrap_or_else(|| panic!("no address in {line:?}"));
    Served { child, addr }
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
