//! The page in a real browser: Debian's chromium, headless, driven through chromedriver
//! (WebDriver) with fantoccini. It plays whole games by clicking cells, plays against an agent,
//! plays a move of several parts whose second part the other player chooses (a Stoneball
//! ram), a turn that starts with the program's roll (Tankball), makes an error in the editor
//! and sees the diagnostic at its line, changes an option and sees the board change, runs the
//! analysis tab to its plots, shoots a table game's stone by dragging (WarStone) and sees the
//! shot animated, and saves screenshots of each seed game's board and of the page into
//! `target/screenshots/`.
//!
//! Skipped, with a message, where `chromium` or `chromedriver` is not installed
//! (`apt-get install chromium chromium-driver`; `.ci/run` installs them).

use std::net::TcpListener;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use fantoccini::actions::{InputSource as _, MouseActions, PointerAction, MOUSE_BUTTON_LEFT};
use fantoccini::{Client, ClientBuilder, Locator};
use rulestone_server::{Config, Server};
use serde_json::{json, Value};

/// How long any one thing the page does may take before the test fails.
const PATIENCE: Duration = Duration::from_secs(60);
/// The seed games whose boards are saved as screenshots.
const SEED_GAMES: [&str; 5] = ["pylos", "stoneball", "steinplatz", "tankball", "warstone"];

fn find(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .chain([
            PathBuf::from("/usr/bin"),
            PathBuf::from("/usr/lib/chromium"),
        ])
        .flat_map(|dir| names.iter().map(move |n| dir.join(n)))
        .find(|p| p.is_file())
}

/// chromedriver in a process group of its own, with the browsers it starts: the whole group is
/// ended when dropped, so a failing test leaves no browser behind.
struct Driver(Child);

impl Drop for Driver {
    fn drop(&mut self) {
        let group = format!("-{}", self.0.id());
        let _ = Command::new("kill").args(["-TERM", "--", &group]).status();
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap_or_else(|e| panic!("no free port: {e}"))
}

async fn browser(chromium: &Path, driver_port: u16, profile: &Path) -> Client {
    let args = [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1280,1600",
    ]
    .iter()
    .map(ToString::to_string)
    .chain([format!("--user-data-dir={}", profile.display())])
    .collect::<Vec<_>>();
    let mut caps = serde_json::Map::new();
    caps.insert(
        "goog:chromeOptions".to_string(),
        json!({"binary": chromium.display().to_string(), "args": args}),
    );
    let connector = hyper_util::client::legacy::connect::HttpConnector::new();
    let started = Instant::now();
    loop {
        let connected = ClientBuilder::new(connector.clone())
            .capabilities(caps.clone())
            .connect(&format!("http://127.0.0.1:{driver_port}"))
            .await;
        match connected {
            Ok(c) => return c,
            Err(e) if started.elapsed() > PATIENCE => panic!("cannot start chromium: {e}"),
            Err(_) => tokio::time::sleep(Duration::from_millis(200)).await,
        }
    }
}

/// Waits until `script` (the body of a function) returns a truthy value; that value.
async fn until(c: &Client, what: &str, script: &str) -> Value {
    let started = Instant::now();
    loop {
        let v = c.execute(script, vec![]).await.unwrap_or(Value::Null);
        let truthy = match &v {
            Value::Null | Value::Bool(false) => false,
            Value::Number(n) => n.as_f64() != Some(0.0),
            Value::String(s) => !s.is_empty(),
            _ => true,
        };
        if truthy {
            return v;
        }
        assert!(started.elapsed() < PATIENCE, "waited too long for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Waits until the page is idle with a state shown; the state.
async fn idle(c: &Client) -> Value {
    until(
        c,
        "the page to be idle",
        "return (typeof st !== 'undefined' && st && !busy) ? st : null;",
    )
    .await
}

async fn click(c: &Client, css: &str) {
    let el = c
        .wait()
        .at_most(PATIENCE)
        .for_element(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no element {css}: {e}"));
    el.click()
        .await
        .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
}

async fn open(c: &Client, base: &str, hash: &str) -> Value {
    c.goto(&format!("{base}blank"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    c.goto(&format!("{base}{hash}"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    idle(c).await
}

/// Plays `text`, a legal move of the shown position, by clicking the cells its notation
/// names in order, then its button if the cells alone leave a choice.
async fn play_by_clicks(c: &Client, m: &Value) {
    let before = idle(c).await["moves"].as_array().map_or(0, Vec::len);
    let text = m["text"].as_str().unwrap_or_default();
    let played = format!("return !busy && st.moves.length > {before}");
    for cell in m["cells"].as_array().into_iter().flatten() {
        let cell = cell.as_str().unwrap_or_default();
        click(c, &format!("#board [data-cell=\"{cell}\"]")).await;
        // The click may have played the move: wait for its answer before looking.
        tokio::time::sleep(Duration::from_millis(30)).await;
        until(c, "the click's answer", "return !busy").await;
        let moved = c.execute(&played, vec![]).await.unwrap_or(Value::Null);
        if moved == json!(true) {
            break;
        }
    }
    let moved = c.execute(&played, vec![]).await.unwrap_or(Value::Null);
    if moved != json!(true) {
        let button = format!(
            "#choices button[data-move=\"{}\"]",
            text.replace('"', "\\\"")
        );
        click(c, &button).await;
    }
    until(c, &format!("the move {text} to be played"), &played).await;
}

/// Plays the shown game to its end by clicks, each move the first legal one (at most
/// `limit` moves); the result.
async fn play_to_the_end(c: &Client, limit: usize) -> String {
    for _ in 0..limit {
        let state = idle(c).await;
        if let Some(result) = state["result"].as_str() {
            return result.to_string();
        }
        let legal = state["legal"].as_array().cloned().unwrap_or_default();
        let pick = legal.len() / 2;
        play_by_clicks(c, &legal[pick]).await;
    }
    panic!("the game did not end within {limit} moves");
}

async fn tictactoe_and_an_agent(c: &Client, base: &str) {
    open(c, base, "#game=bundled%2Ftictactoe.game").await;
    for cell in ["a1", "b1", "a2", "b2", "a3"] {
        let n = idle(c).await["moves"].as_array().map_or(0, Vec::len);
        click(c, &format!("#board [data-cell=\"{cell}\"]")).await;
        until(
            c,
            cell,
            &format!("return !busy && st.moves.length === {}", n + 1),
        )
        .await;
    }
    let status = until(c, "the result", "return document.querySelector('#status.over') && document.querySelector('#status').textContent").await;
    assert_eq!(status, json!("Game over: X wins"));
    let share = c
        .execute("return document.querySelector('#share').value", vec![])
        .await
        .unwrap_or(Value::Null);
    assert!(
        share.as_str().is_some_and(|s| s.contains("moves=a1%3Bb1")),
        "{share}"
    );
    // The link opens the same position.
    let shared = open(
        c,
        base,
        &format!(
            "#{}",
            share
                .as_str()
                .and_then(|s| s.split('#').nth(1))
                .unwrap_or("")
        ),
    )
    .await;
    assert_eq!(shared["result"], json!("X wins"));
    // Undo, then the computer plays O.
    click(c, "#undo").await;
    until(c, "undo", "return !busy && st.moves.length === 4").await;
    c.execute("document.querySelector('#opponent').value = '1'; document.querySelector('#opponent').dispatchEvent(new Event('change'));", vec![]).await.unwrap_or(Value::Null);
    click(c, "#board [data-cell=\"c1\"]").await;
    until(
        c,
        "the agent's answer",
        "return !busy && st.moves.length === 6",
    )
    .await;
    c.execute("document.querySelector('#opponent').value = ''", vec![])
        .await
        .unwrap_or(Value::Null);
}

async fn editor_diagnostics(c: &Client, base: &str) {
    open(c, base, "#game=bundled%2Ftictactoe.game").await;
    until(
        c,
        "no problems",
        "return document.querySelector('#diagnostics li.ok')",
    )
    .await;
    let original = c
        .execute("return document.querySelector('#source').value", vec![])
        .await
        .unwrap_or(Value::Null);
    let area = c
        .find(Locator::Css("#source"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    area.click().await.unwrap_or_else(|e| panic!("{e}"));
    c.execute("const t = document.querySelector('#source'); t.setSelectionRange(t.value.length, t.value.length);", vec![]).await.unwrap_or(Value::Null);
    area.send_keys("\nbogus line here\n")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    let text = c
        .execute("return document.querySelector('#source').value", vec![])
        .await
        .unwrap_or(Value::Null);
    let line = text
        .as_str()
        .and_then(|t| t.lines().position(|l| l.contains("bogus line here")))
        .map(|l| l + 1)
        .unwrap_or_else(|| panic!("the typed line is in the editor"));
    let shown = until(c, "the diagnostic", "const li = document.querySelector('#diagnostics li.error'); return li && [li.dataset.line, li.dataset.code, li.textContent];").await;
    assert_eq!(shown[0], json!(line.to_string()), "{shown}");
    assert!(
        shown[1].as_str().is_some_and(|c| c.starts_with('E')),
        "{shown}"
    );
    // Fixed again: no problems, and Run plays the edited text.
    c.execute(
        "const t = document.querySelector('#source'); t.value = arguments[0]; t.dispatchEvent(new Event('input'));",
        vec![original],
    )
    .await
    .unwrap_or(Value::Null);
    until(
        c,
        "the fix",
        "return document.querySelector('#diagnostics li.ok')",
    )
    .await;
    click(c, "#run").await;
    until(
        c,
        "the edited game",
        "return !busy && st && st.game === null",
    )
    .await;
}

async fn options_change_the_board(c: &Client, base: &str) {
    let start = open(c, base, "#game=bundled%2Fhex.game").await;
    let cells = start["cells"].as_array().map_or(0, Vec::len);
    let input = c
        .find(Locator::Css("#options [data-option=\"size\"]"))
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    // Emptied without an event, then typed into: one change, when the field is left.
    c.execute(
        "document.querySelector('#options [data-option=\"size\"]').value = ''",
        vec![],
    )
    .await
    .unwrap_or(Value::Null);
    input
        .send_keys("3\u{E004}")
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    until(
        c,
        "the smaller board",
        "return !busy && document.querySelectorAll('#board [data-cell]').length === 9",
    )
    .await;
    assert_ne!(cells, 9);
}

/// A record saved by the button is the game so far; a record file chosen in "Load record"
/// opens its game at its position (the file chosen through WebDriver, as a person picks it).
async fn records_save_and_load(c: &Client, base: &str) {
    open(c, base, "#game=bundled%2Fconnect4.game&moves=d%3Bd").await;
    // The record the button downloads is the one `/api/record` answers: asked for here too.
    let saved = c
        .execute_async(
            "const done = arguments[0]; fetch('/api/record', {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({session: st.session})}).then((r) => r.json()).then((v) => done(v.record));",
            vec![],
        )
        .await
        .unwrap_or(Value::Null);
    let text = saved.as_str().unwrap_or_default().to_string();
    assert!(text.contains("move d\nmove d\n"), "{text}");
    click(c, "#save-record").await;
    idle(c).await;
    let error = c
        .execute(
            "return document.querySelector('#error').textContent",
            vec![],
        )
        .await
        .unwrap_or(Value::Null);
    assert_eq!(error, Value::String(String::new()));
    // Another game on the board; then the saved file is loaded, with one move more.
    open(c, base, "#game=bundled%2Ftictactoe.game").await;
    let file = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("browser-connect4.rec");
    std::fs::write(&file, format!("{text}move e\n")).unwrap_or_else(|e| panic!("{e}"));
    c.find(Locator::Css("#load-record"))
        .await
        .unwrap_or_else(|e| panic!("{e}"))
        .send_keys(&file.to_string_lossy())
        .await
        .unwrap_or_else(|e| panic!("{e}"));
    until(
        c,
        "the record's position",
        "return !busy && st && st.game === 'bundled/connect4.game' && st.moves.length === 3 && document.querySelector('#game-select').value === 'bundled/connect4.game'",
    )
    .await;
}

/// The analysis tab: a small analysis of the game shown, its progress bar filled, its report's
/// plots shown.
async fn analysis_tab(c: &Client, base: &str) {
    open(c, base, "#game=bundled%2Ftictactoe.game").await;
    click(c, "#tabs button[data-tab=\"analysis\"]").await;
    c.execute(
        "document.querySelector('#analysis-games').value = '6'; \
         document.querySelector('#analysis-iterations').value = '20';",
        vec![],
    )
    .await
    .unwrap_or(Value::Null);
    click(c, "#analysis-go").await;
    let plots = until(
        c,
        "the analysis's plots",
        "const f = document.querySelector('#analysis-report'); \
         const d = !f.hidden && f.contentDocument; \
         return d && d.querySelectorAll('svg').length;",
    )
    .await;
    assert_eq!(plots, json!(4), "the report's four plots");
    let bar = c
        .execute(
            "const b = document.querySelector('#analysis-progress'); return [b.value, b.max];",
            vec![],
        )
        .await
        .unwrap_or(Value::Null);
    assert_eq!(bar, json!([18, 18]), "the progress bar is full");
    save(&part(c, "#analysis").await, "page-analysis");
    click(c, "#tabs button[data-tab=\"playing\"]").await;
}

/// The moves of the first line of `games/FILE` that holds `needle`, up to it.
fn moves_before(file: &str, needle: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../games")
        .join(file);
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{file}: {e}"));
    let line = text
        .lines()
        .find(|l| l.contains(needle))
        .unwrap_or_else(|| panic!("{file} has a line with {needle}"));
    let history = line.split("after:").nth(1).unwrap_or_default().trim();
    history
        .split(&format!("; {needle}"))
        .next()
        .unwrap_or_default()
        .to_string()
}

/// The cells highlighted as the next click of the move under way.
async fn highlighted(c: &Client) -> Vec<String> {
    let v = c
        .execute(
            "return [...document.querySelectorAll('#board circle.hl')].map((m) => m.getAttribute('data-mark')).sort();",
            vec![],
        )
        .await
        .unwrap_or(Value::Null);
    serde_json::from_value(v).unwrap_or_default()
}

/// A Stoneball ram whose rammed piece's owner, the other player, chooses where it goes: the
/// move is clicked part by part, the owner's choices highlighted and named.
async fn ram_with_the_owners_choice(c: &Client, base: &str) {
    let ram = "f4*d6/b7";
    let before = moves_before("stoneball.perft", ram);
    let hash = format!(
        "#game=bundled%2Fstoneball.game&moves={}",
        before
            .replace(' ', "%20")
            .replace('+', "%2B")
            .replace(';', "%3B")
    );
    let state = open(c, base, &hash).await;
    let mover = state["to_move"].clone();
    let legal = state["legal"].as_array().cloned().unwrap_or_default();
    let m = legal
        .iter()
        .find(|m| m["text"] == json!(ram))
        .unwrap_or_else(|| panic!("{ram} is legal"));
    let parts = m["parts"].as_array().cloned().unwrap_or_default();
    assert_eq!(parts.len(), 2, "{m}");
    assert_eq!(parts[0]["player"], mover);
    assert_ne!(parts[1]["player"], mover, "the owner chooses");
    // The ram's two cells, then the owner's choices are highlighted.
    for cell in ["f4", "d6"] {
        click(c, &format!("#board [data-cell=\"{cell}\"]")).await;
        until(c, "the click", "return !busy").await;
    }
    let choices: Vec<String> = legal
        .iter()
        .filter(|l| l["text"].as_str().is_some_and(|t| t.starts_with("f4*d6/")))
        .filter_map(|l| l["cells"][2].as_str().map(String::from))
        .collect();
    let mut expected = choices.clone();
    expected.sort();
    expected.dedup();
    assert!(expected.len() > 1, "{choices:?}");
    assert_eq!(highlighted(c).await, expected);
    let other = &state["players"][parts[1]["player"].as_u64().unwrap_or(0) as usize];
    let hint = c
        .execute(
            "return document.querySelector('#choices .hint').textContent",
            vec![],
        )
        .await
        .unwrap_or(Value::Null);
    assert!(
        hint.as_str()
            .is_some_and(|h| h.starts_with(other.as_str().unwrap_or("?"))),
        "{hint}"
    );
    save(
        &c.screenshot().await.unwrap_or_else(|e| panic!("{e}")),
        "page-stoneball-ram",
    );
    let n = state["moves"].as_array().map_or(0, Vec::len);
    click(c, "#board [data-cell=\"b7\"]").await;
    let end = until(
        c,
        "the ram played",
        &format!("return !busy && st.moves.length === {} && st", n + 1),
    )
    .await;
    assert_eq!(end["moves"][n]["text"], json!(ram));
}

/// A Tankball turn: the program rolls the dice, shown in the move list; the mover's moves are
/// clicked (facings and `end` by their buttons) until the turn passes, and the next roll is
/// made.
async fn tankball_turn_with_its_roll(c: &Client, base: &str) {
    let setup = moves_before("tankball.perft", "roll 6 2 4");
    let hash = format!(
        "#game=bundled%2Ftankball.game&moves={}",
        setup.replace(' ', "%20").replace(';', "%3B")
    );
    let state = open(c, base, &hash).await;
    let rolled = |st: &Value| {
        st["moves"].as_array().map_or(0, |m| {
            m.iter().filter(|m| m["chance"] == json!(true)).count()
        })
    };
    let rolls = rolled(&state);
    assert!(rolls >= 1, "the program rolled: {}", state["moves"]);
    until(
        c,
        "the roll shown",
        "return document.querySelector('#moves li.chance')",
    )
    .await;
    let mover = state["to_move"].clone();
    for _ in 0..12 {
        let st = idle(c).await;
        if st["to_move"] != mover || st["result"].is_string() {
            break;
        }
        let legal = st["legal"].as_array().cloned().unwrap_or_default();
        // A move with cells when there is one, else the first (`end`).
        let pick = legal
            .iter()
            .find(|m| m["cells"].as_array().is_some_and(|c| c.len() >= 2))
            .or(legal.first())
            .cloned()
            .unwrap_or_else(|| panic!("a legal move"));
        play_by_clicks(c, &pick).await;
    }
    let end = idle(c).await;
    assert_ne!(end["to_move"], mover, "the turn passed");
    assert!(
        rolled(&end) > rolls,
        "the next player's roll: {}",
        end["moves"]
    );
    save(
        &c.screenshot().await.unwrap_or_else(|e| panic!("{e}")),
        "page-tankball-turn",
    );
}

/// A table game's shot: the decisions before the first shot (army choices) by their buttons,
/// then a drag from a stone that may be shot; the shot is played and animated along the
/// simulation's positions.
async fn table_shot_by_dragging(c: &Client, base: &str) {
    let mut state = open(c, base, "#game=bundled%2Fwarstone.game").await;
    let shots = |st: &Value| st["table"]["shots"].as_array().cloned().unwrap_or_default();
    for _ in 0..4 {
        if !shots(&state).is_empty() {
            break;
        }
        let n = state["moves"].as_array().map_or(0, Vec::len);
        click(c, "#choices button[data-move]").await;
        state = until(
            c,
            "the army chosen",
            &format!("return !busy && st.moves.length === {} && st", n + 1),
        )
        .await;
    }
    let shot = shots(&state)[0].clone();
    let n = state["moves"].as_array().map_or(0, Vec::len);
    let stone = c
        .find(Locator::Css(&format!(
            "#board [data-index=\"{}\"]",
            shot["stone"]
        )))
        .await
        .unwrap_or_else(|e| panic!("the stone to shoot: {e}"));
    let drag = MouseActions::new("mouse".to_string())
        .then(PointerAction::MoveToElement {
            element: stone,
            duration: None,
            x: 0,
            y: 0,
        })
        .then(PointerAction::Down {
            button: MOUSE_BUTTON_LEFT,
        })
        .then(PointerAction::MoveBy {
            duration: Some(Duration::from_millis(200)),
            x: 160,
            y: -30,
        })
        .then(PointerAction::Up {
            button: MOUSE_BUTTON_LEFT,
        });
    c.perform_actions(drag)
        .await
        .unwrap_or_else(|e| panic!("the drag: {e}"));
    // Several cards may shoot the stone: then the first is picked.
    let played = format!("!busy && st.moves.length === {}", n + 1);
    let picked = until(
        c,
        "the shot or its cards",
        &format!(
            "return ({played}) ? 'played' : (document.querySelector('#choices button[data-move*=\"@\"]') ? 'cards' : null)"
        ),
    )
    .await;
    if picked == json!("cards") {
        click(c, "#choices button[data-move*=\"@\"]").await;
    }
    let end = until(
        c,
        "the shot animated",
        &format!("return ({played}) && animated > 1 && st"),
    )
    .await;
    let text = end["moves"][n]["text"].as_str().unwrap_or_default();
    assert!(
        text.contains(shot["name"].as_str().unwrap_or("?")) && text.contains('@'),
        "{text}"
    );
    assert!(end["table"]["frames"]
        .as_array()
        .is_some_and(|f| f.len() > 1));
    until(
        c,
        "the shot's path",
        "return document.querySelector('#board .path')",
    )
    .await;
    save(&part(c, "#play").await, "page-table-shot");
}

/// A screenshot of the page's element `css`.
async fn part(c: &Client, css: &str) -> Vec<u8> {
    let el = c
        .find(Locator::Css(css))
        .await
        .unwrap_or_else(|e| panic!("no element {css}: {e}"));
    el.screenshot()
        .await
        .unwrap_or_else(|e| panic!("a screenshot of {css}: {e}"))
}

/// Saves a PNG screenshot as `target/screenshots/NAME.png`.
fn save(shot: &[u8], name: &str) {
    assert!(shot.starts_with(b"\x89PNG"), "{name} is a PNG");
    let dir = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("../screenshots");
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
    let path = dir.join(format!("{name}.png"));
    std::fs::write(&path, shot).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

async fn screenshots(c: &Client, base: &str) {
    for game in SEED_GAMES {
        c.goto(&format!("{base}blank"))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        c.goto(&format!("{base}#game=bundled%2F{game}.game"))
            .await
            .unwrap_or_else(|e| panic!("{e}"));
        until(
            c,
            game,
            "return !busy && document.querySelector('#board svg')",
        )
        .await;
        let shot = match c.find(Locator::Css("#board svg")).await {
            Ok(board) => board.screenshot().await,
            Err(_) => c.screenshot().await,
        }
        .unwrap_or_else(|e| panic!("{game}: {e}"));
        save(&shot, game);
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_page_works_in_chromium() {
    let (Some(chromium), Some(chromedriver)) = (
        find(&["chromium", "chromium-browser"]),
        find(&["chromedriver"]),
    ) else {
        eprintln!("skipped: chromium or chromedriver is not installed (apt-get install chromium chromium-driver)");
        return;
    };
    let server = Server::start(&Config {
        dir: None,
        host: "127.0.0.1".to_string(),
        port: 0,
        ..Config::default()
    })
    .unwrap_or_else(|e| panic!("{e}"));
    let base = server.url();
    let port = free_port();
    let _driver = Driver(
        Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .process_group(0)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("cannot start {}: {e}", chromedriver.display())),
    );
    let profile =
        PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("chromium-profile-{port}"));
    let _ = std::fs::remove_dir_all(&profile);
    let c = browser(&chromium, port, &profile).await;
    tictactoe_and_an_agent(&c, &base).await;
    // A whole Pylos game (a small one), by clicks: placements, raises and take-backs alike.
    open(&c, &base, "#game=bundled%2Fpylos.game&set.base=3").await;
    let result = play_to_the_end(&c, 400).await;
    assert!(result.contains("wins") || result == "draw", "{result}");
    save(
        &c.screenshot().await.unwrap_or_else(|e| panic!("{e}")),
        "page-pylos-end",
    );
    editor_diagnostics(&c, &base).await;
    options_change_the_board(&c, &base).await;
    records_save_and_load(&c, &base).await;
    ram_with_the_owners_choice(&c, &base).await;
    tankball_turn_with_its_roll(&c, &base).await;
    analysis_tab(&c, &base).await;
    table_shot_by_dragging(&c, &base).await;
    screenshots(&c, &base).await;
    let _ = c.close().await;
    let _ = std::fs::remove_dir_all(&profile);
}
