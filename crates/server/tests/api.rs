//! The server's HTTP API, driven over real HTTP: a server on a free port of 127.0.0.1 in this
//! process, and a small blocking client.

use std::path::PathBuf;
use std::time::Duration;

use rulestone_server::{Config, Server, MAX_BODY, MAX_BUSY};
use serde_json::{json, Value};

/// A server on any free port, serving `dir`.
fn server(dir: Option<PathBuf>) -> Server {
    let config = Config {
        dir,
        host: "127.0.0.1".to_string(),
        port: 0,
        ..Config::default()
    };
    Server::start(&config).unwrap_or_else(|e| panic!("the server starts: {e}"))
}

/// The status and JSON body of a GET (no body) or POST.
fn call(server: &Server, path: &str, body: Option<Value>) -> (u16, Value) {
    let url = format!("http://{}{path}", server.addr());
    let answer = match body {
        Some(b) => ureq::post(&url).send_json(b),
        None => ureq::get(&url).call(),
    };
    let response = match answer {
        Ok(r) | Err(ureq::Error::Status(_, r)) => r,
        Err(e) => panic!("{path}: {e}"),
    };
    let status = response.status();
    let text = response.into_string().unwrap_or_default();
    let value = serde_json::from_str(&text).unwrap_or(Value::String(text));
    (status, value)
}

fn ok(server: &Server, path: &str, body: Value) -> Value {
    let (status, v) = call(server, path, Some(body));
    assert_eq!(status, 200, "{path}: {v}");
    v
}

fn error_code(v: &Value) -> &str {
    v["error"]["code"].as_str().unwrap_or("")
}

fn texts(state: &Value) -> Vec<String> {
    state["moves"]
        .as_array()
        .map(|m| {
            m.iter()
                .filter_map(|m| m["text"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default()
}

/// A fresh directory under the target directory.
fn scratch(name: &str) -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    dir
}

fn games_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../games")
}

#[test]
fn the_page_and_its_assets_are_served() {
    let s = server(None);
    for (path, needle) in [
        ("/", "<title>Rulestone"),
        ("/app.js", "data-cell"),
        ("/app.css", "#board"),
    ] {
        let url = format!("http://{}{path}", s.addr());
        let body = ureq::get(&url)
            .call()
            .unwrap_or_else(|e| panic!("{path}: {e}"))
            .into_string()
            .unwrap_or_default();
        assert!(body.contains(needle), "{path} lacks {needle}");
    }
    let (status, v) = call(&s, "/nothing/here", None);
    assert_eq!((status, error_code(&v)), (404, "not-found"));
    assert!(s.url().starts_with("http://127.0.0.1:"));
}

#[test]
fn a_whole_game_is_played_undone_and_shared() {
    let s = server(None);
    let (_, list) = call(&s, "/api/games", None);
    let ids: Vec<&str> = list["games"]
        .as_array()
        .map(|g| g.iter().filter_map(|g| g["id"].as_str()).collect())
        .unwrap_or_default();
    assert!(ids.contains(&"bundled/tictactoe.game"), "{ids:?}");
    let state = ok(&s, "/api/new", json!({"game": "bundled/tictactoe.game"}));
    let session = state["session"].as_str().unwrap_or_default().to_string();
    assert_eq!(state["legal"].as_array().map(Vec::len), Some(9));
    assert_eq!(state["legal"][0]["cells"], json!(["a1"]));
    assert!(state["svg"]
        .as_str()
        .unwrap_or_default()
        .contains("data-cell=\"b2\""));
    for m in ["a1", "b1", "a2", "b2"] {
        let last = ok(&s, "/api/play", json!({"session": session, "move": m}));
        assert!(last["result"].is_null());
    }
    let (status, bad) = call(
        &s,
        "/api/play",
        Some(json!({"session": session, "move": "a1"})),
    );
    assert_eq!((status, error_code(&bad)), (400, "illegal-move"), "{bad}");
    let undone = ok(&s, "/api/undo", json!({"session": session}));
    assert_eq!(texts(&undone), ["a1", "b1", "a2"]);
    ok(&s, "/api/play", json!({"session": session, "move": "b2"}));
    let last = ok(&s, "/api/play", json!({"session": session, "move": "a3"}));
    assert_eq!(last["result"], json!("X wins"));
    assert_eq!(last["legal"].as_array().map(Vec::len), Some(0));
    let (status, over) = call(
        &s,
        "/api/play",
        Some(json!({"session": session, "move": "c3"})),
    );
    assert_eq!((status, error_code(&over)), (400, "game-over"));
    // A shared link's position: the game and its moves.
    let shared = ok(
        &s,
        "/api/new",
        json!({"game": "bundled/tictactoe.game", "moves": ["a1", "b1", "a2", "b2", "a3"]}),
    );
    assert_eq!(shared["result"], json!("X wins"));
    assert_ne!(shared["session"], json!(session));
    let (status, v) = call(
        &s,
        "/api/new",
        Some(json!({"game": "bundled/tictactoe.game", "moves": ["a1", "a1"]})),
    );
    assert_eq!((status, error_code(&v)), (400, "illegal-move"));
    assert!(v["error"]["message"]
        .as_str()
        .unwrap_or_default()
        .starts_with("move 2"));
}

#[test]
fn agents_play_and_chance_is_rolled() {
    let s = server(None);
    let state = ok(&s, "/api/new", json!({"game": "bundled/connect4.game"}));
    let session = state["session"].as_str().unwrap_or_default().to_string();
    for (agent, strength) in [("random", 1), ("mcts", 1), ("alphabeta", 1)] {
        let before = texts(&ok(&s, "/api/state", json!({"session": session}))).len();
        let after = ok(
            &s,
            "/api/agent",
            json!({"session": session, "agent": agent, "strength": strength}),
        );
        assert_eq!(texts(&after).len(), before + 1, "{agent}");
    }
    for (body, code) in [
        (json!({"session": session, "agent": "oracle"}), "bad-agent"),
        (
            json!({"session": session, "agent": "mcts", "strength": 9}),
            "bad-strength",
        ),
        (json!({"session": "nope", "agent": "random"}), "no-session"),
    ] {
        let (_, v) = call(&s, "/api/agent", Some(body));
        assert_eq!(error_code(&v), code, "{v}");
    }
    // A game with dice: the program rolls them, and the rolls are in the move list.
    let dice = ok(&s, "/api/new", json!({"game": "bundled/einstein.game"}));
    let id = dice["session"].as_str().unwrap_or_default().to_string();
    assert_eq!(dice["chance"], json!(false));
    let after = ok(&s, "/api/agent", json!({"session": id, "agent": "random"}));
    let rolled = after["moves"].as_array().map_or(0, |m| {
        m.iter().filter(|m| m["chance"] == json!(true)).count()
    });
    assert!(rolled >= 1, "{}", after["moves"]);
    assert_eq!(after["chance"], json!(false));
}

#[test]
fn options_change_the_board_and_bad_ones_are_refused() {
    let s = server(None);
    let start = ok(&s, "/api/new", json!({"game": "bundled/hex.game"}));
    let small = ok(
        &s,
        "/api/new",
        json!({"game": "bundled/hex.game", "options": {"size": 3}}),
    );
    assert_eq!(start["options"][0]["name"], json!("size"));
    assert_eq!(small["options"][0]["value"], json!("3"));
    assert_eq!(small["cells"].as_array().map(Vec::len), Some(9));
    assert_ne!(start["svg"], small["svg"]);
    let (status, v) = call(
        &s,
        "/api/new",
        Some(json!({"game": "bundled/hex.game", "options": {"size": 99}})),
    );
    assert_eq!((status, error_code(&v)), (400, "bad-options"), "{v}");
    assert_eq!(v["error"]["diagnostic"], json!("E0304"));
}

#[test]
fn the_editor_gets_the_language_servers_diagnostics() {
    let s = server(None);
    let good = std::fs::read_to_string(games_dir().join("tictactoe.game")).unwrap_or_default();
    let v = ok(&s, "/api/diagnose", json!({"source": good}));
    assert_eq!(v["diagnostics"], json!([]));
    let bad = good.replace("put stone at c", "put stonne at c");
    let v = ok(&s, "/api/diagnose", json!({"source": bad}));
    let first = &v["diagnostics"][0];
    assert_eq!(first["severity"], json!("error"));
    assert!(
        first["code"].as_str().is_some_and(|c| c.starts_with('E')),
        "{first}"
    );
    let line = good
        .lines()
        .position(|l| l.contains("put stone at c"))
        .map(|l| l + 1);
    assert_eq!(first["line"].as_u64(), line.map(|l| l as u64));
    // Run: the edited text is played.
    let edited = good.replace("cells x in 0..2, y in 0..2", "cells x in 0..3, y in 0..3");
    let state = ok(&s, "/api/new", json!({"source": edited}));
    assert_eq!(state["legal"].as_array().map(Vec::len), Some(16));
    assert!(state["game"].is_null());
    let (status, v) = call(&s, "/api/new", Some(json!({"source": bad})));
    assert_eq!((status, error_code(&v)), (400, "bad-game"));
}

#[test]
fn bad_requests_are_json_errors() {
    let s = server(None);
    let url = format!("http://{}/api/new", s.addr());
    let cases: Vec<(String, u16, &str)> = vec![
        ("not json".to_string(), 400, "bad-json"),
        ("{}".to_string(), 400, "bad-json"),
        ("x".repeat(MAX_BODY + 10), 413, "too-large"),
        (
            json!({"source": "x".repeat(rulestone_server::MAX_TEXT + 1)}).to_string(),
            413,
            "too-large",
        ),
    ];
    for (body, status, code) in cases {
        let answer = ureq::post(&url)
            .set("content-type", "application/json")
            .send_string(&body);
        let response = match answer {
            Ok(r) | Err(ureq::Error::Status(_, r)) => r,
            Err(e) => panic!("{e}"),
        };
        assert_eq!(response.status(), status);
        let v: Value = response.into_json().unwrap_or(Value::Null);
        assert_eq!(error_code(&v), code, "{v}");
        assert!(v["error"]["message"]
            .as_str()
            .is_some_and(|m| !m.is_empty()));
    }
    let (status, v) = call(&s, "/api/play", None);
    assert_eq!((status, error_code(&v)), (405, "bad-method"));
    let (status, v) = call(&s, "/api/state", Some(json!({"session": "gone"})));
    assert_eq!((status, error_code(&v)), (404, "no-session"));
    let (status, v) = call(&s, "/api/source?id=bundled/none.game", None);
    assert_eq!((status, error_code(&v)), (404, "no-game"));
}

#[test]
fn only_files_under_the_directory_are_read() {
    let dir = scratch("served");
    let outside = scratch("outside");
    let text = std::fs::read_to_string(games_dir().join("tictactoe.game")).unwrap_or_default();
    std::fs::create_dir_all(dir.join("sub")).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(dir.join("sub/mine.game"), &text).unwrap_or_else(|e| panic!("{e}"));
    std::fs::write(outside.join("secret.game"), &text).unwrap_or_else(|e| panic!("{e}"));
    #[cfg(unix)]
    {
        let _ = std::os::unix::fs::symlink(outside.join("secret.game"), dir.join("link.game"));
        let _ = std::os::unix::fs::symlink(&outside, dir.join("linked"));
    }
    let s = server(Some(dir.clone()));
    let (_, list) = call(&s, "/api/games", None);
    let ids: Vec<String> = list["games"]
        .as_array()
        .map(|g| {
            g.iter()
                .filter_map(|g| g["id"].as_str().map(String::from))
                .collect()
        })
        .unwrap_or_default();
    assert!(ids.contains(&"dir/sub/mine.game".to_string()), "{ids:?}");
    assert!(
        !ids.iter()
            .any(|i| i.contains("link") || i.contains("secret")),
        "{ids:?}"
    );
    let (status, v) = call(&s, "/api/source?id=dir/sub/mine.game", None);
    assert_eq!(status, 200);
    assert_eq!(v["source"], json!(text));
    for id in [
        "dir/../outside/secret.game",
        "dir/sub/../../outside/secret.game",
        "dir//etc/passwd",
        "dir/link.game",
        "dir/linked/secret.game",
        "dir/sub",
        "/etc/passwd",
    ] {
        let (status, v) = call(
            &s,
            &format!("/api/source?id={}", id.replace('/', "%2F")),
            None,
        );
        assert_eq!((status, error_code(&v)), (404, "no-game"), "{id}: {v}");
        let (status, v) = call(&s, "/api/new", Some(json!({"game": id})));
        assert_eq!((status, error_code(&v)), (404, "no-game"), "{id}: {v}");
    }
    let state = ok(&s, "/api/new", json!({"game": "dir/sub/mine.game"}));
    assert_eq!(state["game"], json!("dir/sub/mine.game"));
}

/// Texts written to hurt: nesting far too deep, a `repeat` whose moves run past the step
/// limit, a board past the cell limit. Each gets an error answer, and another session is
/// served meanwhile.
#[test]
fn hostile_texts_get_errors_and_other_sessions_go_on() {
    let s = server(None);
    let ui = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/ui");
    let read = |p: &str| std::fs::read_to_string(ui.join(p)).unwrap_or_else(|e| panic!("{p}: {e}"));
    let tictactoe = std::fs::read_to_string(games_dir().join("tictactoe.game")).unwrap_or_default();
    let deep = tictactoe.replace(
        "pick c in empty",
        &format!(
            "pick c in {}empty{}",
            "(".repeat(50_000),
            ")".repeat(50_000)
        ),
    );
    let hostile = [
        (deep, "bad-game"),
        (read("runtime/E1008-wide-repeat.game"), "out-of-steps"),
        (read("board/E0403-too-many-cells.game"), "bad-game"),
        (read("limits/E1004-repeat-too-long.game"), "bad-game"),
    ];
    let calm = ok(&s, "/api/new", json!({"game": "bundled/tictactoe.game"}));
    let session = calm["session"].as_str().unwrap_or_default().to_string();
    let addr = s.addr();
    let attackers: Vec<_> = hostile
        .into_iter()
        .map(|(text, code)| {
            std::thread::spawn(move || {
                let url = format!("http://{addr}/api/new");
                let response = match ureq::post(&url).send_json(json!({"source": text})) {
                    Ok(r) | Err(ureq::Error::Status(_, r)) => r,
                    Err(e) => panic!("{e}"),
                };
                let v: Value = response.into_json().unwrap_or(Value::Null);
                assert_eq!(error_code(&v), code, "{v}");
            })
        })
        .collect();
    // The calm session is served while the hostile texts are worked on.
    for m in ["a1", "b1", "a2", "b2", "a3"] {
        ok(&s, "/api/play", json!({"session": session, "move": m}));
    }
    for a in attackers {
        a.join()
            .unwrap_or_else(|_| panic!("a hostile request failed"));
    }
    let end = ok(&s, "/api/state", json!({"session": session}));
    assert_eq!(end["result"], json!("X wins"));
}

/// A legal text that checks slowly: eight options, whose extreme values the checker lowers the
/// game for in every combination (256 lowerings), and a turn that a chain of procedures writes
/// out to some 16,000 statements.
fn slow_text() -> String {
    let mut text = String::from("game \"slow\"\nplayers X, O\n");
    for i in 0..8 {
        text.push_str(&format!("option o{i}: 1..2 = 1\n"));
    }
    text.push_str(
        "board {\n  axes x, y\n  cells x in 0..7, y in 0..7\n  name \"{letter(x)}{y + 1}\"\n}\n",
    );
    text.push_str("piece stone \"X\" \"O\"\nprocedure p0(c) {\n");
    text.push_str(&"  if c in empty { put stone at c }\n".repeat(8));
    text.push_str("}\n");
    for k in 1..=11 {
        text.push_str(&format!(
            "procedure p{k}(c) {{ p{}(c) p{}(c) }}\n",
            k - 1,
            k - 1
        ));
    }
    // The rules read every option, so `check` tries each option's extremes (256 lowerings).
    text.push_str("turn {\n  require o0 + o1 + o2 + o3 + o4 + o5 + o6 + o7 > 0\n");
    text.push_str("  pick c in empty\n  p11(c)\n  put stone at c\n  write \"{c}\"\n}\n");
    text.push_str("on no moves {\n  draw\n}\n");
    text
}

/// `MAX_BUSY` slow checks at once, each answered 503 at its deadline; the status and error
/// code of each.
fn slow_checks(s: &Server) -> Vec<(u16, String)> {
    let addr = s.addr();
    let checks: Vec<_> = (0..MAX_BUSY)
        .map(|_| {
            std::thread::spawn(move || {
                let url = format!("http://{addr}/api/diagnose");
                let response = match ureq::post(&url).send_json(json!({"source": slow_text()})) {
                    Ok(r) | Err(ureq::Error::Status(_, r)) => r,
                    Err(e) => panic!("{e}"),
                };
                let status = response.status();
                let v: Value = response.into_json().unwrap_or(Value::Null);
                (status, error_code(&v).to_string())
            })
        })
        .collect();
    checks
        .into_iter()
        .map(|c| c.join().unwrap_or_else(|_| panic!("a slow check failed")))
        .collect()
}

/// Work past its answer's deadline does not keep holding the server: as many slow checks as
/// there are workers are answered 503 and told to stop, and a normal request after them is
/// answered (not queued behind them until it too times out); twice, so the places the stopped
/// work held were given back.
#[test]
fn work_past_its_deadline_stops_and_the_server_goes_on() {
    let config = Config {
        port: 0,
        work_time: Duration::from_secs(2),
        ..Config::default()
    };
    let s = Server::start(&config).unwrap_or_else(|e| panic!("the server starts: {e}"));
    for _ in 0..2 {
        for (status, code) in slow_checks(&s) {
            assert_eq!((status, code.as_str()), (503, "timeout"));
        }
        let v = ok(&s, "/api/diagnose", json!({"source": "players A, B"}));
        assert!(
            v["diagnostics"].as_array().is_some_and(|d| !d.is_empty()),
            "{v}"
        );
        ok(&s, "/api/new", json!({"game": "bundled/tictactoe.game"}));
    }
}

/// Polls the analysis `job` until it is no longer running; its last answer.
fn finished(s: &Server, job: &str) -> Value {
    let started = std::time::Instant::now();
    loop {
        let (status, v) = call(s, &format!("/api/analysis?job={job}"), None);
        assert_eq!(status, 200, "{v}");
        assert!(v["done"].as_u64() <= v["total"].as_u64(), "{v}");
        if v["state"] != json!("running") {
            return v;
        }
        assert!(
            started.elapsed() < std::time::Duration::from_secs(120),
            "the analysis ends"
        );
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
}

#[test]
fn an_analysis_runs_to_its_report_and_can_be_cancelled() {
    let s = server(None);
    let started = ok(
        &s,
        "/api/analyze",
        json!({"game": "bundled/tictactoe.game", "games": 4, "iterations": 20}),
    );
    assert_eq!(started["total"], json!(12), "{started}");
    let job = started["job"].as_str().unwrap_or_default().to_string();
    let done = finished(&s, &job);
    assert_eq!(done["state"], json!("done"), "{done}");
    assert_eq!(done["done"], json!(12), "{done}");
    let html = done["html"].as_str().unwrap_or_default();
    assert!(html.contains("variant analysis"), "{html}");
    assert_eq!(html.matches("<svg").count(), 4, "four plots");
    // Options are the analysed variant's.
    let hex = ok(
        &s,
        "/api/analyze",
        json!({"game": "bundled/hex.game", "options": {"size": 3}, "games": 50, "iterations": 200}),
    );
    let job = hex["job"].as_str().unwrap_or_default().to_string();
    let (status, cancelled) = call(&s, "/api/analysis/cancel", Some(json!({"job": job})));
    assert_eq!(status, 200, "{cancelled}");
    assert_eq!(finished(&s, &job)["state"], json!("cancelled"));
    // Bad requests.
    for (body, code) in [
        (
            json!({"game": "bundled/tictactoe.game", "games": 0}),
            "bad-games",
        ),
        (
            json!({"game": "bundled/tictactoe.game", "iterations": 100_000}),
            "bad-iterations",
        ),
        (json!({"game": "bundled/nothing.game"}), "no-game"),
        (
            json!({"game": "bundled/hex.game", "options": {"size": 99}}),
            "bad-options",
        ),
    ] {
        let (status, v) = call(&s, "/api/analyze", Some(body));
        assert_eq!(status / 100, 4, "{v}");
        assert_eq!(error_code(&v), code, "{v}");
    }
    let (status, v) = call(&s, "/api/analysis?job=nope", None);
    assert_eq!((status, error_code(&v)), (404, "no-job"));
}

/// A hostile text's analysis answers with its error; the analysis slots stay free.
#[test]
fn an_analysis_of_a_hostile_text_is_an_error() {
    let s = server(None);
    let ui = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../tests/ui");
    let read = |p: &str| std::fs::read_to_string(ui.join(p)).unwrap_or_else(|e| panic!("{p}: {e}"));
    for (text, code) in [
        (read("runtime/E1008-wide-repeat.game"), "out-of-steps"),
        (read("board/E0403-too-many-cells.game"), "bad-game"),
        (read("limits/E1004-repeat-too-long.game"), "bad-game"),
    ] {
        let (status, v) = call(&s, "/api/analyze", Some(json!({"source": text})));
        assert_eq!((status, error_code(&v)), (400, code), "{v}");
    }
    let mut jobs = Vec::new();
    for _ in 0..rulestone_server::MAX_ANALYSES {
        let v = ok(
            &s,
            "/api/analyze",
            json!({"game": "bundled/tictactoe.game", "games": 100, "iterations": 500}),
        );
        jobs.push(v["job"].as_str().unwrap_or_default().to_string());
    }
    let (status, v) = call(
        &s,
        "/api/analyze",
        Some(json!({"game": "bundled/tictactoe.game"})),
    );
    assert_eq!((status, error_code(&v)), (503, "busy"), "{v}");
    for job in &jobs {
        ok(&s, "/api/analysis/cancel", json!({"job": job}));
    }
    for job in &jobs {
        assert_eq!(finished(&s, job)["state"], json!("cancelled"));
    }
    // The other requests were served throughout.
    ok(&s, "/api/new", json!({"game": "bundled/tictactoe.game"}));
}

/// A table game: its open decisions that are not shots are moves without cells, a shot is
/// typed as `rulestone play` takes it, and the answer holds the stones' positions along it.
#[test]
fn a_table_game_is_played_by_shots() {
    let s = server(None);
    let mut state = ok(&s, "/api/new", json!({"game": "bundled/warstone.game"}));
    assert_eq!(state["surface"], json!("table"), "{state}");
    let session = state["session"].as_str().unwrap_or_default().to_string();
    let shots = |st: &Value| st["table"]["shots"].as_array().cloned().unwrap_or_default();
    for _ in 0..4 {
        if !shots(&state).is_empty() {
            break;
        }
        let text = state["legal"][0]["text"]
            .as_str()
            .unwrap_or_default()
            .to_string();
        assert_eq!(state["legal"][0]["cells"], json!([]), "{state}");
        state = ok(&s, "/api/play", json!({"session": session, "move": text}));
    }
    let shot = shots(&state)[0].clone();
    let stone = shot["stone"].as_u64().unwrap_or(0) as usize;
    let before = state["table"]["stones"][stone].clone();
    let text = format!(
        "{} 0@{:.1}",
        shot["head"].as_str().unwrap_or_default(),
        20.0
    );
    let after = ok(&s, "/api/play", json!({"session": session, "move": text}));
    let frames = after["table"]["frames"]
        .as_array()
        .cloned()
        .unwrap_or_default();
    assert!(frames.len() > 2, "{after}");
    let stones = after["table"]["stones"].as_array().map_or(0, Vec::len);
    assert!(frames
        .iter()
        .all(|f| f.as_array().map(Vec::len) == Some(stones)));
    assert_eq!(
        frames[0][stone],
        json!([before["x"], before["y"]]),
        "the shot starts where the stone was"
    );
    let last = &after["table"]["stones"][stone];
    if last["on_table"] == json!(true) {
        assert_eq!(
            frames[frames.len() - 1][stone],
            json!([last["x"], last["y"]])
        );
    }
    assert!(after["svg"]
        .as_str()
        .is_some_and(|s| s.contains("class=\"path\"")));
    assert!(after["svg"]
        .as_str()
        .is_some_and(|s| s.contains("data-stone=")));
    // Undo, a bad shot, the agent.
    let undone = ok(&s, "/api/undo", json!({"session": session}));
    assert_eq!(
        undone["moves"].as_array().map(Vec::len),
        Some(texts(&after).len() - 1)
    );
    let (status, v) = call(
        &s,
        "/api/play",
        Some(json!({"session": session, "move": "nonsense 1@2"})),
    );
    assert_eq!((status, error_code(&v)), (400, "illegal-move"), "{v}");
    let moved = ok(
        &s,
        "/api/agent",
        json!({"session": session, "agent": "random"}),
    );
    assert_eq!(texts(&moved).len(), texts(&undone).len() + 1);
    let searched = ok(
        &s,
        "/api/agent",
        json!({"session": session, "agent": "mcts", "strength": 1}),
    );
    assert_eq!(texts(&searched).len(), texts(&moved).len() + 1);
    // The same tab then opens a board game.
    let board = ok(
        &s,
        "/api/new",
        json!({"session": session, "game": "bundled/tictactoe.game"}),
    );
    assert_eq!(board["surface"], Value::Null);
    ok(&s, "/api/play", json!({"session": session, "move": "a1"}));
}

/// A table game's analysis runs as a board game's does (its matches start with the deal of
/// each game's seed).
#[test]
fn a_table_games_analysis_runs_too() {
    let s = server(None);
    let started = ok(
        &s,
        "/api/analyze",
        json!({"game": "bundled/warstone.game", "games": 1, "iterations": 4}),
    );
    let job = started["job"].as_str().unwrap_or_default().to_string();
    let done = finished(&s, &job);
    assert_eq!(done["state"], json!("done"), "{done}");
    let html = done["html"].as_str().unwrap_or_default();
    assert!(html.contains("WarStone: variant analysis"), "{html}");
    assert_eq!(html.matches("<svg").count(), 4, "four plots");
}

/// A game saved as a record and loaded back is the same position, dice rolls included; a
/// record that cannot be read, or names no game the server has, is a JSON error.
#[test]
fn records_are_saved_and_loaded_back() {
    let s = server(None);
    let state = ok(&s, "/api/new", json!({"game": "bundled/einstein.game"}));
    let session = state["session"].as_str().unwrap_or_default().to_string();
    let mut last = state;
    for _ in 0..6 {
        let Some(m) = last["legal"][0]["text"].as_str().map(str::to_string) else {
            break;
        };
        last = ok(&s, "/api/play", json!({"session": session, "move": m}));
    }
    let saved = ok(&s, "/api/record", json!({"session": session}));
    let text = saved["record"].as_str().unwrap_or_default().to_string();
    assert!(
        text.starts_with("rulestone-record 1\ngame bundled/einstein.game\n"),
        "{text}"
    );
    let loaded = ok(&s, "/api/new", json!({"record": text}));
    assert_eq!(texts(&loaded), texts(&last));
    assert_eq!(loaded["svg"], last["svg"]);
    assert_eq!(loaded["game"], json!("bundled/einstein.game"));
    // A record naming the game by another path finds the bundled game of that file name.
    let elsewhere = text.replace("game bundled/einstein.game", "game ../games/einstein.game");
    assert_eq!(
        texts(&ok(&s, "/api/new", json!({"record": elsewhere}))),
        texts(&last)
    );
    for (bad, code) in [
        ("not a record".to_string(), "bad-record"),
        (
            text.replace("bundled/einstein.game", "nowhere.game"),
            "no-game",
        ),
        (format!("{text}move zz99\n"), "illegal-move"),
    ] {
        let (status, v) = call(&s, "/api/new", Some(json!({"record": bad})));
        assert_eq!(error_code(&v), code, "{status} {v}");
    }
    // An edited text has no file for its record to name.
    let text = std::fs::read_to_string(games_dir().join("tictactoe.game")).unwrap_or_default();
    let edited = ok(&s, "/api/new", json!({"source": text}));
    let (status, v) = call(
        &s,
        "/api/record",
        Some(json!({"session": edited["session"]})),
    );
    assert_eq!((status, error_code(&v)), (400, "no-file"), "{v}");
}
