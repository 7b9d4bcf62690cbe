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
    // A keyword and a built-in: their text from the language reference.
    let keyword = session.request("textDocument/hover", position(east - 3));
    snap!("hover_keyword", pretty(&keyword["result"]));
    let (line, call) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("if completes("))
        .expect("a call of completes");
    let completes = u32::try_from(call.find("completes").expect("completes")).expect("column");
    let builtin = session.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": completes + 3}}),
    );
    snap!("hover_builtin", pretty(&builtin["result"]));

    names_answers(&mut session, &text, &answer["result"]["capabilities"]);

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

/// Frames that would end a server reading with `lsp-server`'s own framing: each is answered
/// with JSON-RPC's error (`id: null`) and the session goes on; a request after `shutdown` is
/// refused, and `exit` still ends the session cleanly.
/// A JSON value as one frame.
fn framed(body: &serde_json::Value) -> String {
    let body = body.to_string();
    format!("Content-Length: {}\r\n\r\n{body}", body.len())
}

#[test]
fn malformed_frames_and_requests_after_shutdown_are_answered() {
    let mut session = Session::start();
    initialize(&mut session);
    let mut answers = Vec::new();
    let max = rulestone::lsp::transport::MAX_MESSAGE_BYTES;
    let hostile = [
        "Content-Length: 9\r\n\r\n{not json".to_string(),
        "X-Nothing: 1\r\n\r\n".to_string(),
        "Content-Length: ten\r\n\r\n".to_string(),
        format!(
            "Content-Length: {}\r\n\r\n{}",
            max + 1,
            " ".repeat(usize::try_from(max + 1).unwrap_or(0))
        ),
        format!(
            "Content-Length: 24\r\n\r\n{}",
            json!({"jsonrpc": "2.0", "x": 17})
        ),
        framed(&json!({"jsonrpc": "2.0", "id": 3.5, "method": "shutdown"})),
        framed(&json!({"jsonrpc": "2.0", "id": null, "method": "shutdown"})),
        framed(&json!({"jsonrpc": "2.0", "id": 1, "method": 5})),
    ];
    for frame in &hostile {
        let stdin = session.stdin.as_mut().expect("stdin open");
        stdin.write_all(frame.as_bytes()).expect("write");
        stdin.flush().expect("flush");
        let answer = session.receive();
        answers.push(format!(
            "id {} · code {}",
            answer["id"], answer["error"]["code"]
        ));
    }
    // The server still answers.
    let symbols = session.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": "file:///nowhere.game"}}),
    );
    assert_eq!(symbols["result"], Value::Null, "{symbols}");
    let answer = session.request("shutdown", Value::Null);
    assert_eq!(answer["result"], Value::Null, "{answer}");
    let late = session.request(
        "textDocument/documentSymbol",
        json!({"textDocument": {"uri": URI}}),
    );
    answers.push(format!(
        "after shutdown: code {} · {}",
        late["error"]["code"], late["error"]["message"]
    ));
    session.notify("exit", Value::Null);
    drop(session.stdin.take());
    let status = session.child.wait().expect("wait");
    assert_eq!(status.code(), Some(0), "{status}");
    snap!("malformed_frames", answers.join("\n"));
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

/// `line:column` (both from 1) of an LSP position.
fn at(position: &Value) -> String {
    format!(
        "{}:{}",
        position["line"].as_u64().unwrap_or(0) + 1,
        position["character"].as_u64().unwrap_or(0) + 1
    )
}

fn span(range: &Value) -> String {
    format!("{}-{}", at(&range["start"]), at(&range["end"]))
}

/// A list of locations, one `start-end` a line.
fn locations(result: &Value) -> String {
    result
        .as_array()
        .expect("locations")
        .iter()
        .map(|l| span(&l["range"]))
        .collect::<Vec<_>>()
        .join("\n")
}

/// A workspace edit's edits, one `start-end -> new text` a line.
fn edits(edit: &Value) -> String {
    edit["changes"]
        .as_object()
        .expect("changes")
        .values()
        .flat_map(|e| e.as_array().expect("edits").iter())
        .map(|e| {
            format!(
                "{} -> {}",
                span(&e["range"]),
                e["newText"].as_str().unwrap_or("")
            )
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// Semantic tokens decoded from their relative encoding: `line:column text type modifiers`.
fn decode_tokens(text: &str, data: &Value, legend: &Value) -> String {
    let data: Vec<u64> = data
        .as_array()
        .expect("data")
        .iter()
        .map(|n| n.as_u64().expect("a number"))
        .collect();
    let lines: Vec<Vec<u16>> = text.lines().map(|l| l.encode_utf16().collect()).collect();
    let (mut line, mut column) = (0usize, 0usize);
    let mut out = Vec::new();
    for t in data.chunks(5) {
        let [dl, ds, len, ty, mods] = t else {
            panic!("tokens come in fives");
        };
        let (dl, ds, len) = (*dl as usize, *ds as usize, *len as usize);
        column = if dl == 0 { column + ds } else { ds };
        line += dl;
        let word = String::from_utf16_lossy(&lines[line][column..column + len]);
        let names: Vec<&str> = (0..2)
            .filter(|b| mods & (1 << b) != 0)
            .map(|b| legend["tokenModifiers"][b].as_str().unwrap_or("?"))
            .collect();
        out.push(format!(
            "{}:{} {word} {} {}",
            line + 1,
            column + 1,
            legend["tokenTypes"][*ty as usize].as_str().unwrap_or("?"),
            names.join(",")
        ));
    }
    out.join("\n")
}

/// References, renaming, completion, quick fixes and semantic tokens on the broken game.
fn names_answers(session: &mut Session, text: &str, capabilities: &Value) {
    let find = |line_start: &str, word: &str| {
        let (line, l) = text
            .lines()
            .enumerate()
            .find(|(_, l)| l.trim_start().starts_with(line_start))
            .expect("the line");
        let column = l.find(word).expect("the word");
        json!({"line": line, "character": column + 1})
    };
    let doc = json!({"uri": URI});
    let east = find("pattern row", "east");
    let local = find("pick c", "c ");

    let mut refs = Vec::new();
    for (what, position) in [("east", &east), ("local c", &local)] {
        let answer = session.request(
            "textDocument/references",
            json!({"textDocument": doc, "position": position, "context": {"includeDeclaration": true}}),
        );
        refs.push(format!("{what}:\n{}", locations(&answer["result"])));
    }
    let axis = session.request(
        "textDocument/references",
        json!({"textDocument": doc, "position": find("axes", "x,"), "context": {"includeDeclaration": false}}),
    );
    refs.push(format!(
        "axis x without its declaration:\n{}",
        locations(&axis["result"])
    ));
    snap!("references", refs.join("\n\n"));

    // A variable's definition is where its item binds it.
    let definition = session.request(
        "textDocument/definition",
        json!({"textDocument": doc, "position": find("if completes", "c,")}),
    );
    assert_eq!(
        span(&definition["result"]["range"]),
        "25:10-25:11",
        "{definition}"
    );

    let prepare = session.request(
        "textDocument/prepareRename",
        json!({"textDocument": doc, "position": east}),
    );
    assert_eq!(span(&prepare["result"]), "17:20-17:24", "{prepare}");
    let keyword = session.request(
        "textDocument/prepareRename",
        json!({"textDocument": doc, "position": find("pattern row", "line")}),
    );
    assert_eq!(keyword["result"], Value::Null, "{keyword}");

    let mut renames = Vec::new();
    for (position, new_name) in [
        (&east, "eastward"),
        (&local, "here"),
        (&east, "while"),
        (&east, "north"),
        (&east, "9lives"),
        (&east, "mover"),
        (&local, "O"),
    ] {
        let answer = session.request(
            "textDocument/rename",
            json!({"textDocument": doc, "position": position, "newName": new_name}),
        );
        let shown = if answer["result"].is_object() {
            edits(&answer["result"])
        } else {
            format!(
                "error {}: {}",
                answer["error"]["code"],
                answer["error"]["message"].as_str().unwrap_or("")
            )
        };
        renames.push(format!("to `{new_name}`:\n{shown}"));
    }
    snap!("rename", renames.join("\n\n"));

    let completion = session.request(
        "textDocument/completion",
        json!({"textDocument": doc, "position": find("put", "put")}),
    );
    let items: Vec<String> = completion["result"]
        .as_array()
        .expect("items")
        .iter()
        .map(|i| {
            format!(
                "{} {} {}",
                i["label"].as_str().unwrap_or(""),
                i["kind"],
                i["detail"].as_str().unwrap_or("")
            )
        })
        .collect();
    snap!("completion", items.join("\n"));

    let whole = json!({"start": {"line": 0, "character": 0}, "end": {"line": 999, "character": 0}});
    let actions = session.request(
        "textDocument/codeAction",
        json!({"textDocument": doc, "range": whole, "context": {"diagnostics": []}}),
    );
    snap!("code_action", pretty(&actions["result"]));
    let refactors = session.request(
        "textDocument/codeAction",
        json!({"textDocument": doc, "range": whole, "context": {"diagnostics": [], "only": ["refactor"]}}),
    );
    assert_eq!(refactors["result"], Value::Null, "{refactors}");

    let tokens = session.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": doc}),
    );
    let legend = &capabilities["semanticTokensProvider"]["legend"];
    snap!(
        "semantic_tokens",
        decode_tokens(text, &tokens["result"]["data"], legend)
    );
}

/// The VS Code extension's TextMate grammar highlights what the language has: every reserved
/// keyword, built-in function and built-in value is one of its alternatives.
#[test]
fn the_editor_grammar_knows_every_keyword_and_builtin() {
    let grammar = include_str!("../editors/vscode/syntaxes/rulestone.tmLanguage.json");
    let listed = |word: &str| {
        ["(", "|"].iter().any(|before| {
            [")", "|"]
                .iter()
                .any(|after| grammar.contains(&format!("{before}{word}{after}")))
        })
    };
    let functions = rulestone::check::builtin_functions().map(|(f, _)| f);
    let missing: Vec<&str> = rulestone::syntax::keywords::reserved()
        .iter()
        .map(String::as_str)
        .chain(functions)
        .chain(rulestone::check::builtin_values())
        .filter(|w| !listed(w))
        .collect();
    assert!(missing.is_empty(), "not in the grammar: {missing:?}");
}

/// While the text being typed does not parse, completion still offers the names the document
/// declared when it last parsed.
#[test]
fn completion_remembers_names_while_the_text_does_not_parse() {
    let mut session = Session::start();
    initialize(&mut session);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/games/tictactoe.game");
    let text = std::fs::read_to_string(path).expect("read tictactoe");
    session.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "rulestone", "version": 1, "text": text}}),
    );
    let labels = |session: &mut Session| {
        let answer = session.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": URI}, "position": {"line": 25, "character": 4}}),
        );
        answer["result"]
            .as_array()
            .expect("items")
            .iter()
            .filter(|i| i["detail"] == json!("piece"))
            .map(|i| i["label"].clone())
            .collect::<Vec<_>>()
    };
    assert_eq!(labels(&mut session), vec![json!("stone")]);
    let broken = text.replace("put stone at c", "put ");
    session.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": broken}]}),
    );
    assert_eq!(labels(&mut session), vec![json!("stone")]);
    let status = session.finish();
    assert_eq!(status.code(), Some(0), "{status}");
}

/// A rename the words alone allow but after which the file would not check is refused: a
/// define reads the variable `c` of the turn that uses it, so renaming the turn's `c` breaks it.
#[test]
fn a_rename_that_breaks_the_file_is_refused() {
    let mut session = Session::start();
    initialize(&mut session);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/games/connect4.game");
    let text = std::fs::read_to_string(path).expect("read connect4");
    let (line, l) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains("pick c in"))
        .expect("a pick of c");
    let column = l.find("c in").expect("c");
    session.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "rulestone", "version": 1, "text": text}}),
    );
    let answer = session.request(
        "textDocument/rename",
        json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": column},
               "newName": "here"}),
    );
    assert_eq!(answer["error"]["code"], json!(-32803), "{answer}");
    let message = answer["error"]["message"].as_str().unwrap_or("");
    assert!(message.contains("[E0101] unknown name `c`"), "{message}");
    let status = session.finish();
    assert_eq!(status.code(), Some(0), "{status}");
}

/// Every answer about names, on every prefix of a bundled game and a string left open: no
/// panic, whatever the cursor and however broken the text.
#[test]
fn name_answers_never_fail_on_broken_text() {
    use rulestone::lsp::{analysis::Analysis, complete, refs, semantic};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/games/connect4.game");
    let text = std::fs::read_to_string(path).expect("read connect4") + "\nwrite \"{é\\";
    let uri: lsp_types::Uri = URI.parse().expect("a URI");
    let cuts = text
        .char_indices()
        .map(|(i, _)| i)
        .step_by(17)
        .chain([text.len()]);
    for cut in cuts {
        let prefix = &text[..cut];
        let analysis = Analysis::new(prefix);
        let _ = semantic::tokens(&analysis);
        let end = lsp_types::Position::new(u32::MAX, u32::MAX);
        for at in [
            lsp_types::Position::new(0, 0),
            end,
            lsp_types::Position::new(20, 9),
        ] {
            let _ = complete::complete(&analysis, cut, &complete::Model::of(&analysis));
            let _ = refs::references(&uri, &analysis, at, true);
            let _ = refs::prepare(&analysis, at);
            let _ = refs::rename(&uri, &analysis, at, "renamed");
        }
    }
}

/// Breakthrough with its variables named `back` and `to`, words that are keywords elsewhere
/// (`to` in `move a to b`, `back` in a table game's `back to`), and a `move` statement that
/// uses `to` both ways.
fn contextual_game() -> String {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/games/breakthrough.game");
    let text = std::fs::read_to_string(path).expect("read breakthrough");
    text.replace("from", "back").replace(
        "    remove back\n    put pawn at to\n",
        "    move back to to\n",
    )
}

/// The line and column of the `n`th (from 0) whole word `word` on the first line containing
/// `line`, as an LSP position one character into the word.
fn word_position(text: &str, line: &str, word: &str, n: usize) -> Value {
    let (number, l) = text
        .lines()
        .enumerate()
        .find(|(_, l)| l.contains(line))
        .expect("the line");
    let is_word = |c: char| c.is_ascii_alphanumeric() || c == '_';
    let column = l
        .match_indices(word)
        .filter(|(i, _)| !l[..*i].ends_with(is_word) && !l[i + word.len()..].starts_with(is_word))
        .nth(n)
        .expect("the word")
        .0;
    json!({"line": number, "character": column + 1})
}

/// Words that are keywords only in some places (`to`, `back`) are names where the syntax tree
/// has a name: definition, references, rename and hover find them as any other variable, and
/// the keyword `to` of `move back to to` stays a keyword.
#[test]
fn contextual_keywords_used_as_names_resolve() {
    let mut session = Session::start();
    initialize(&mut session);
    let text = contextual_game();
    session.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "rulestone", "version": 1, "text": text}}),
    );
    let diagnostics = session.notification("textDocument/publishDiagnostics");
    assert_eq!(
        diagnostics["params"]["diagnostics"],
        json!([]),
        "{diagnostics}"
    );
    let doc = json!({"uri": URI});
    let at = |line: &str, word: &str, n: usize| json!({"textDocument": doc, "position": word_position(&text, line, word, n)});
    let mut out = Vec::new();
    let places = [
        ("`to` in `write`", at("write", "to", 0)),
        ("`back` in `write`", at("write", "back", 0)),
        (
            "the variable `to` of `move back to to`",
            at("move back", "to", 1),
        ),
        (
            "the keyword `to` of `move back to to`",
            at("move back", "to", 0),
        ),
    ];
    for (what, position) in &places {
        let definition = session.request("textDocument/definition", position.clone());
        let shown = match definition["result"]["range"] {
            Value::Null => "none".to_string(),
            ref range => span(range),
        };
        out.push(format!("definition of {what}: {shown}"));
        let mut params = position.clone();
        params["context"] = json!({"includeDeclaration": true});
        let references = session.request("textDocument/references", params);
        let shown = match &references["result"] {
            Value::Null => "none".to_string(),
            result => locations(result).replace('\n', ", "),
        };
        out.push(format!("references of {what}: {shown}"));
        let hover = session.request("textDocument/hover", position.clone());
        let shown = hover["result"]["contents"]["value"]
            .as_str()
            .map_or("none".to_string(), |v| {
                v.lines().take(4).collect::<Vec<_>>().join(" | ")
            });
        out.push(format!("hover on {what}: {shown}"));
    }
    for (what, position, new_name) in [
        ("`to`", &places[0].1, "dest"),
        ("`back`", &places[1].1, "origin"),
    ] {
        let mut params = position.clone();
        params["newName"] = json!(new_name);
        let rename = session.request("textDocument/rename", params);
        out.push(format!(
            "rename {what} to `{new_name}`:\n{}",
            edits(&rename["result"])
        ));
    }
    let keyword = session.request("textDocument/prepareRename", places[3].1.clone());
    out.push(format!(
        "prepare rename of the keyword `to`: {}",
        keyword["result"]
    ));
    // Coloured as what they are, on the line that has both.
    let legend = serde_json::to_value(rulestone::lsp::semantic::legend()).expect("a legend");
    let tokens = session.request(
        "textDocument/semanticTokens/full",
        json!({"textDocument": doc}),
    );
    let line = 1 + text
        .lines()
        .position(|l| l.contains("move back to to"))
        .expect("the move");
    let decoded = decode_tokens(&text, &tokens["result"]["data"], &legend);
    out.push(format!("semantic tokens of line {line}:"));
    let prefix = format!("{line}:");
    out.extend(
        decoded
            .lines()
            .filter(|t| t.starts_with(&prefix))
            .map(str::to_string),
    );
    snap!("contextual_names", out.join("\n"));
    let status = session.finish();
    assert_eq!(status.code(), Some(0), "{status}");
}

/// While the line being typed does not parse, completion answers from the last text that
/// checked and offers what fits the place: sets of cells after `in`, pieces after `put`,
/// players after `win`, values after a comparison.
#[test]
fn completion_on_an_incomplete_line_offers_what_fits() {
    let mut session = Session::start();
    initialize(&mut session);
    let text = contextual_game();
    session.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "rulestone", "version": 1, "text": text}}),
    );
    session.notification("textDocument/publishDiagnostics");
    let mut out = Vec::new();
    for (version, typed) in [
        (2, "pick to in "),
        (3, "put "),
        (4, "win "),
        (5, "require count(to) < "),
    ] {
        let broken = text.replace("pick to in step(ahead, back) & empty", typed);
        assert!(
            rulestone::syntax::parse(&broken).is_err(),
            "{typed:?} parses"
        );
        session.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": URI, "version": version},
                   "contentChanges": [{"text": broken}]}),
        );
        let (line, l) = broken
            .lines()
            .enumerate()
            .find(|(_, l)| l.trim() == typed.trim_end())
            .expect("the typed line");
        let answer = session.request(
            "textDocument/completion",
            json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": l.len()}}),
        );
        let items: Vec<String> = answer["result"]
            .as_array()
            .expect("items")
            .iter()
            .map(|i| {
                format!(
                    "{} ({})",
                    i["label"].as_str().unwrap_or(""),
                    i["detail"].as_str().unwrap_or("")
                )
            })
            .collect();
        out.push(format!("after `{typed}`:\n{}", items.join("\n")));
    }
    snap!("completion_incomplete_line", out.join("\n\n"));
    let status = session.finish();
    assert_eq!(status.code(), Some(0), "{status}");
}

/// The server keeps one analysis of a document's text for all the requests about it; a change
/// drops it, so definition, hover and references answer from the new text at once.
#[test]
fn answers_follow_a_change_of_the_text() {
    let mut session = Session::start();
    initialize(&mut session);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/games/tictactoe.game");
    let text = std::fs::read_to_string(path).expect("read tictactoe");
    session.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "rulestone", "version": 1, "text": text}}),
    );
    let ask = |session: &mut Session, text: &str| {
        let at = word_position(text, "put stone at c", "stone", 0);
        let params = json!({"textDocument": {"uri": URI}, "position": at});
        let definition = session.request("textDocument/definition", params.clone());
        let hover = session.request("textDocument/hover", params.clone());
        let mut with_context = params;
        with_context["context"] = json!({"includeDeclaration": true});
        let references = session.request("textDocument/references", with_context);
        (
            definition["result"]["range"]["start"]["line"].clone(),
            hover["result"]["contents"]["value"].clone(),
            references["result"].as_array().map_or(0, Vec::len),
        )
    };
    let (line, hover, uses) = ask(&mut session, &text);
    // Asked twice, from the kept analysis: the same answers.
    assert_eq!(
        ask(&mut session, &text),
        (line.clone(), hover.clone(), uses)
    );
    let changed = text.replace(
        "piece stone \"X\" \"O\"\n",
        "\n\npiece stone \"X\" \"O\" // moved\n",
    );
    assert_ne!(changed, text);
    session.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": URI, "version": 2}, "contentChanges": [{"text": changed}]}),
    );
    let (new_line, new_hover, new_uses) = ask(&mut session, &changed);
    assert_eq!(new_line, json!(line.as_u64().expect("a line") + 2));
    assert_ne!(new_hover, hover);
    assert!(
        new_hover.as_str().is_some_and(|h| h.contains("// moved")),
        "{new_hover}"
    );
    assert_eq!(new_uses, uses);
    let status = session.finish();
    assert_eq!(status.code(), Some(0), "{status}");
}

/// A legal text whose check is slow: eight options, whose extreme values the checker lowers
/// the game for in every combination (256 lowerings), and a turn that a chain of procedures
/// writes out to some 16,000 statements.
fn slow_game() -> String {
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

/// A slow check of one document delays nothing of another: a small document opened after a
/// slow one gets its diagnostics, and its hover and definition their answers, before the slow
/// one's check ends; a change of the slow document then supersedes its check, and only the
/// new text's diagnostics are published for it. Only the order of messages is asserted.
#[test]
fn a_slow_document_delays_no_other() {
    const SLOW: &str = "file:///work/slow.game";
    let mut session = Session::start();
    initialize(&mut session);
    let open = |uri: &str, text: &str| json!({"textDocument": {"uri": uri, "languageId": "rulestone", "version": 1, "text": text}});
    session.notify("textDocument/didOpen", open(SLOW, &slow_game()));
    let small = broken_game();
    session.notify("textDocument/didOpen", open(URI, &small));
    let (line, row) = small
        .lines()
        .enumerate()
        .find(|(_, l)| l.starts_with("pattern row"))
        .expect("a row pattern");
    let east = row.find("east").expect("east") + 2;
    let at = json!({"textDocument": {"uri": URI}, "position": {"line": line, "character": east}});
    let (hover, definition) = (session.next_id, session.next_id + 1);
    session.next_id += 2;
    for (id, method) in [
        (hover, "textDocument/hover"),
        (definition, "textDocument/definition"),
    ] {
        session.write(&json!({"jsonrpc": "2.0", "id": id, "method": method, "params": at}));
    }
    // Until the small document's diagnostics and both answers are in, nothing of the slow one.
    let mut waiting = vec![json!(hover), json!(definition), json!(URI)];
    while !waiting.is_empty() {
        let message = session.receive();
        let about = match message.get("id") {
            Some(id) => id.clone(),
            None => message["params"]["uri"].clone(),
        };
        assert_ne!(
            about,
            json!(SLOW),
            "the slow document came first: {message}"
        );
        if message.get("id").is_some() {
            assert!(message["result"].is_object(), "{message}");
        }
        waiting.retain(|w| *w != about);
    }
    // The slow text replaced: its check is superseded; the new text's diagnostics come.
    session.notify(
        "textDocument/didChange",
        json!({"textDocument": {"uri": SLOW, "version": 2},
               "contentChanges": [{"text": "game \"quick\"\nplayers X, O\nturn { win X }\n"}]}),
    );
    loop {
        let published = session.notification("textDocument/publishDiagnostics");
        if published["params"]["uri"] == json!(SLOW) {
            assert_eq!(published["params"]["version"], json!(2), "{published}");
            break;
        }
    }
    let status = session.finish();
    assert_eq!(status.code(), Some(0), "{status}");
}
