//! `rulestone lsp` end to end: the real binary as a child process, driven over its standard
//! input and output with Content-Length framed JSON-RPC, as an editor drives it.
//!
//! Snapshots live in `snapshots/lsp/`. Update them with `INSTA_UPDATE=always cargo test --test lsp`.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::Duration;

use serde_json::{json, Value};

/// How long to wait for one message before the server counts as broken.
const TIMEOUT: Duration = Duration::from_secs(60);

const URI: &str = "file:///work/tictactoe.game";

macro_rules! snap {
    ($name:expr, $value:expr) => {
        insta::with_settings!({
            snapshot_path => "../snapshots/lsp",
            prepend_module_to_snapshot => false,
            omit_expression => true,
        }, {
            insta::assert_snapshot!($name, $value);
        })
    };
}

/// A running server and the messages it has written.
struct Session {
    child: Child,
    stdin: Option<ChildStdin>,
    messages: Receiver<Value>,
    next_id: i64,
}

impl Session {
    fn start() -> Session {
        let mut child = Command::new(env!("CARGO_BIN_EXE_rulestone"))
            .arg("lsp")
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("start rulestone lsp");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().expect("stdout");
        let (tx, rx) = mpsc::channel();
        std::thread::spawn(move || {
            let mut reader = BufReader::new(stdout);
            while let Some(message) = read_message(&mut reader) {
                if tx.send(message).is_err() {
                    break;
                }
            }
        });
        Session {
            child,
            stdin,
            messages: rx,
            next_id: 1,
        }
    }

    fn write(&mut self, message: &Value) {
        let body = message.to_string();
        let stdin = self.stdin.as_mut().expect("stdin open");
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).expect("write");
        stdin.flush().expect("flush");
    }

    fn notify(&mut self, method: &str, params: Value) {
        self.write(&json!({"jsonrpc": "2.0", "method": method, "params": params}));
    }

    /// Sends a request and waits for its response (notifications before it are dropped).
    fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.next_id;
        self.next_id += 1;
        self.write(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}));
        loop {
            let message = self.receive();
            if message.get("id") == Some(&json!(id)) {
                return message;
            }
        }
    }

    /// The next message, failing the test if none comes in time.
    fn receive(&self) -> Value {
        self.messages
            .recv_timeout(TIMEOUT)
            .expect("the server answers in time")
    }

    /// The next notification of a method (other messages before it are dropped).
    fn notification(&self, method: &str) -> Value {
        loop {
            let message = self.receive();
            if message.get("method") == Some(&json!(method)) {
                return message;
            }
        }
    }

    /// `shutdown`, then `exit`: the server's exit status.
    fn finish(mut self) -> std::process::ExitStatus {
        let answer = self.request("shutdown", Value::Null);
        assert_eq!(answer["result"], Value::Null, "{answer}");
        self.notify("exit", Value::Null);
        drop(self.stdin.take());
        for _ in 0..600 {
            if let Some(status) = self.child.try_wait().expect("wait") {
                return status;
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        let _ = self.child.kill();
        panic!("the server did not exit after `exit`");
    }
}

/// One framed message: headers, a blank line, then `Content-Length` bytes of JSON.
fn read_message(reader: &mut impl BufRead) -> Option<Value> {
    let mut length = None;
    loop {
        let mut line = String::new();
        if reader.read_line(&mut line).ok()? == 0 {
            return None;
        }
        let line = line.trim_end();
        if line.is_empty() {
            break;
        }
        if let Some(n) = line.strip_prefix("Content-Length:") {
            length = n.trim().parse::<usize>().ok();
        }
    }
    let mut body = vec![0; length?];
    reader.read_exact(&mut body).ok()?;
    serde_json::from_slice(&body).ok()
}

fn pretty(value: &Value) -> String {
    serde_json::to_string_pretty(value).expect("json")
}

/// Tic-tac-toe with two misspelled names (`stnoe`, and `cx` after multi-byte characters on its
/// line, whose columns count in UTF-16 units), and a line not in the canonical layout.
fn broken_game() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/games/tictactoe.game");
    let text = std::fs::read_to_string(path).expect("read tictactoe");
    text.replace("put stone at c", "put stnoe at c")
        .replace("write \"{c}\"", "write \"é🎲 {cx}\"")
        .replace("direction east = (1, 0)", "direction east = (1,0)")
}

fn initialize(session: &mut Session) -> Value {
    let answer = session.request(
        "initialize",
        json!({"processId": null, "rootUri": null, "capabilities": {}}),
    );
    session.notify("initialized", json!({}));
    answer
}

#[test]
fn a_whole_session() {
    let mut session = Session::start();
    let answer = initialize(&mut session);
    assert_eq!(answer["result"]["serverInfo"]["name"], json!("rulestone"));
    snap!("initialize", pretty(&answer["result"]["capabilities"]));

    let text = broken_game();
    session.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "rulestone", "version": 1, "text": text}}),
    );
    let diagnostics = session.notification("textDocument/publishDiagnostics");
    snap!("diagnostics", pretty(&diagnostics["params"]));

    let formatting = session.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    snap!("formatting", pretty(&formatting["result"]));

    let symbols = session.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": URI}}),
    );
    snap!("symbols", pretty(&symbols["result"]));

    // `east` in `pattern row = line east`, then the keyword `line` before it.
    let (line, row) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with("pattern row"))
        .expect("a row pattern");
    let east = u32::try_from(row.find("east").expect("east")).expect("column");
    let position = |character: u32| json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": character}});
    let hover = session.request("textDocument/hover", position(east + 2));
    snap!("hover", pretty(&hover["result"]));
    let definition = session.request("textDocument/definition", position(east + 2));
    snap!("definition", pretty(&definition["result"]));
    let keyword = session.request("textDocument/hover", position(east - 3));
    assert_eq!(keyword["result"], Value::Null, "{keyword}");

    // The typo fixed: no more diagnostics; closing clears them too.
    session.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2},
               "contentChanges": [{"text": text.replace("stnoe", "stone").replace("cx", "c")}]}),
    );
    let fixed = session.notification("textDocument/publishDiagnostics");
    assert_eq!(fixed["params"]["diagnostics"], json!([]), "{fixed}");
    assert_eq!(fixed["params"]["version"], json!(2), "{fixed}");
    session.notify(
        "textDocument/didClose",
        json!({"textDocument": {"uri": URI}}),
    );
    let closed = session.notification("textDocument/publishDiagnostics");
    assert_eq!(closed["params"]["diagnostics"], json!([]), "{closed}");

    let status = session.finish();
    assert_eq!(status.code(), Some(0), "{status}");
}

#[test]
fn bad_requests_get_errors_and_the_server_goes_on() {
    let mut session = Session::start();
    initialize(&mut session);
    // Parameters of the wrong shape, an unknown method, a malformed notification.
    let bad = session.request("textDocument/formatting", json!({"textDocument": 7}));
    assert_eq!(bad["error"]["code"], json!(-32602), "{bad}");
    let unknown = session.request("rulestone/nothing", json!({}));
    assert_eq!(unknown["error"]["code"], json!(-32601), "{unknown}");
    session.notify("textDocument/didOpen", json!({"textDocument": null}));
    // A document that does not parse: syntax diagnostics, no edit, no symbols.
    session.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "rulestone", "version": 1,
                                "text": "game \"x\"\nplayers A, B\nboard {"}}),
    );
    let diagnostics = session.notification("textDocument/publishDiagnostics");
    let codes: Vec<&Value> = diagnostics["params"]["diagnostics"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|d| &d["code"])
        .collect();
    assert!(!codes.is_empty(), "{diagnostics}");
    let formatting = session.request(
        "textDocument/formatting",
        json!({"textDocument": {"uri": URI}, "options": {"tabSize": 4, "insertSpaces": true}}),
    );
    assert_eq!(formatting["result"], Value::Null, "{formatting}");
    // A document never opened: no symbols.
    let symbols = session.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": "file:///nowhere.game"}}),
    );
    assert_eq!(symbols["result"], Value::Null, "{symbols}");
    let status = session.finish();
    assert_eq!(status.code(), Some(0), "{status}");
}

#[test]
fn exit_without_shutdown_is_a_failure() {
    let mut session = Session::start();
    initialize(&mut session);
    session.notify("exit", Value::Null);
    drop(session.stdin.take());
    let status = session.child.wait().expect("wait");
    assert_ne!(status.code(), Some(0), "{status}");
}

#[test]
fn secondary_labels_become_related_information() {
    let mut session = Session::start();
    initialize(&mut session);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/games/tictactoe.game");
    let text = std::fs::read_to_string(path).expect("read tictactoe")
        + "\nzone edge = cells where x == 0\nzone edge = cells where y == 0\n";
    session.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "rulestone", "version": 3, "text": text}}),
    );
    let diagnostics = session.notification("textDocument/publishDiagnostics");
    snap!("related", pretty(&diagnostics["params"]));
    let status = session.finish();
    assert_eq!(status.code(), Some(0), "{status}");
}
