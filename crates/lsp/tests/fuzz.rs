//! The server's message handling under random input: a session in memory on a bundled game,
//! driven by random edits (insertions and deletions of random text, changes of random ranges),
//! requests at random positions and malformed messages. Whatever comes, nothing panics, every
//! request is answered, and a well-formed request at the end still gets its answer.

use std::collections::BTreeSet;
use std::time::Duration;

use lsp_server::{Connection, Message, Notification, Request, RequestId};
use proptest::prelude::*;
use serde_json::{json, Value};

const GAME: &str = include_str!("../../../games/breakthrough.game");
const URI: &str = "file:///fuzz.game";

/// Pieces of text that insertions are made of: the language's words and punctuation, line
/// breaks, quotes, holes and characters of several UTF-8 and UTF-16 lengths.
const PIECES: &[&str] = &[
    "pick ",
    "to",
    "back",
    "in ",
    "move ",
    "put ",
    " at ",
    "{",
    "}",
    "(",
    ")",
    "\"",
    "\\",
    "\n",
    "\r\n",
    " ",
    "//",
    "é",
    "🎲",
    "=",
    "==",
    "&",
    "1",
    "99999999999999999999",
    "x",
    "win ",
    "zone ",
    "define ",
    "turn",
    "on no moves",
    ",",
    "..",
    "-",
];

const METHODS: &[&str] = &[
    "textDocument/hover",
    "textDocument/definition",
    "textDocument/references",
    "textDocument/prepareRename",
    "textDocument/rename",
    "textDocument/completion",
    "textDocument/documentSymbol",
    "textDocument/semanticTokens/full",
    "textDocument/formatting",
    "textDocument/codeAction",
];

#[derive(Clone, Debug)]
enum Op {
    /// Insert text at a fraction of the text's length (in 1/1000).
    Insert(usize, String),
    /// Delete up to `len` bytes from a fraction of the text's length.
    Delete(usize, usize),
    /// A change of a range given as positions, which may lie anywhere.
    Range((u32, u32), (u32, u32), String),
    /// A well-formed request of one of [`METHODS`] at a position.
    Request(usize, u32, u32),
    /// A request whose parameters are of the wrong shape.
    BadRequest(usize, u8),
    /// A notification or response the server has no use for.
    Noise(u8),
}

fn text() -> impl Strategy<Value = String> {
    prop::collection::vec(prop::sample::select(PIECES), 0..6).prop_map(|p| p.concat())
}

fn line_or_column() -> impl Strategy<Value = u32> {
    prop_oneof![8 => 0u32..60, 1 => Just(u32::MAX)]
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        3 => (0usize..=1000, text()).prop_map(|(at, t)| Op::Insert(at, t)),
        2 => (0usize..=1000, 0usize..40).prop_map(|(at, n)| Op::Delete(at, n)),
        1 => ((line_or_column(), line_or_column()), (line_or_column(), line_or_column()), text())
            .prop_map(|(a, b, t)| Op::Range(a, b, t)),
        4 => (0..METHODS.len(), line_or_column(), 0u32..90)
            .prop_map(|(m, l, c)| Op::Request(m, l, c)),
        1 => (0..METHODS.len(), any::<u8>()).prop_map(|(m, k)| Op::BadRequest(m, k)),
        1 => any::<u8>().prop_map(Op::Noise),
    ]
}

/// The byte offset `at` thousandths into the text, moved back to a character boundary.
fn offset(text: &str, at: usize) -> usize {
    let mut i = text.len() * at / 1000;
    while !text.is_char_boundary(i) {
        i -= 1;
    }
    i
}

/// The parameters of a well-formed request of `method` at a position.
fn params(method: &str, position: Value) -> Value {
    let doc = json!({"uri": URI});
    match method {
        "textDocument/documentSymbol" | "textDocument/semanticTokens/full" => {
            json!({"textDocument": doc})
        }
        "textDocument/formatting" => {
            json!({"textDocument": doc, "options": {"tabSize": 4, "insertSpaces": true}})
        }
        "textDocument/codeAction" => json!({"textDocument": doc,
            "range": {"start": position, "end": position}, "context": {"diagnostics": []}}),
        "textDocument/references" => json!({"textDocument": doc, "position": position,
            "context": {"includeDeclaration": true}}),
        "textDocument/rename" => {
            json!({"textDocument": doc, "position": position, "newName": "renamed"})
        }
        _ => json!({"textDocument": doc, "position": position}),
    }
}

/// The messages of one run, and the ids of the requests among them.
fn messages(ops: &[Op]) -> (Vec<Message>, BTreeSet<i32>) {
    let mut text = GAME.to_string();
    let mut out: Vec<Message> = Vec::new();
    let mut ids = BTreeSet::new();
    let mut version = 1;
    let mut next_id = 10;
    let notify = |method: &str, params: Value| -> Message {
        Notification::new(method.to_string(), params).into()
    };
    out.push(notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": URI, "languageId": "rulestone", "version": 1, "text": text}}),
    ));
    for op in ops {
        let change = |version: i32, change: Value| {
            notify(
                "textDocument/didChange",
                json!({"textDocument": {"uri": URI, "version": version}, "contentChanges": [change]}),
            )
        };
        match op {
            Op::Insert(at, piece) => {
                text.insert_str(offset(&text, *at), piece);
                version += 1;
                out.push(change(version, json!({"text": text})));
            }
            Op::Delete(at, n) => {
                let start = offset(&text, *at);
                let mut end = (start + n).min(text.len());
                while !text.is_char_boundary(end) {
                    end -= 1;
                }
                text.replace_range(start..end, "");
                version += 1;
                out.push(change(version, json!({"text": text})));
            }
            Op::Range(a, b, piece) => {
                version += 1;
                let range = json!({"start": {"line": a.0, "character": a.1},
                                   "end": {"line": b.0, "character": b.1}});
                out.push(change(version, json!({"range": range, "text": piece})));
            }
            Op::Request(m, line, character) => {
                let position = json!({"line": line, "character": character});
                let params = params(METHODS[*m], position);
                out.push(Request::new(RequestId::from(next_id), METHODS[*m].into(), params).into());
                ids.insert(next_id);
                next_id += 1;
            }
            Op::BadRequest(m, k) => {
                let params = match k % 4 {
                    0 => json!(null),
                    1 => json!({"textDocument": 7}),
                    2 => json!({"textDocument": {"uri": URI}, "position": {"line": -1}}),
                    _ => json!([k]),
                };
                let method = if k % 5 == 0 {
                    "rulestone/none"
                } else {
                    METHODS[*m]
                };
                out.push(Request::new(RequestId::from(next_id), method.into(), params).into());
                ids.insert(next_id);
                next_id += 1;
            }
            Op::Noise(k) => out.push(match k % 3 {
                0 => notify("textDocument/didChange", json!({"textDocument": k})),
                1 => notify("$/cancelRequest", json!({"id": k})),
                _ => lsp_server::Response::new_ok(RequestId::from(i32::from(*k)), json!(k)).into(),
            }),
        }
    }
    (out, ids)
}

/// Runs a session on the messages: every request is answered, and so is a last well-formed one.
fn run(ops: &[Op]) -> Result<(), TestCaseError> {
    let (server, client) = Connection::memory();
    let running = std::thread::spawn(move || rulestone_lsp::serve(&server));
    let send = |m: Message| client.sender.send(m).is_ok();
    let wait = || client.receiver.recv_timeout(Duration::from_secs(60)).ok();
    let initialize = Request::new(
        RequestId::from(1),
        "initialize".into(),
        json!({"capabilities": {}}),
    );
    prop_assert!(send(initialize.into()));
    prop_assert!(matches!(wait(), Some(Message::Response(_))));
    let initialized = Notification::new("initialized".into(), json!({}));
    prop_assert!(send(initialized.into()));
    let (messages, mut ids) = messages(ops);
    for m in messages {
        prop_assert!(send(m));
    }
    let last = 9_999;
    let symbols = Request::new(
        RequestId::from(last),
        "textDocument/hover".into(),
        json!({"textDocument": {"uri": URI}, "position": {"line": 0, "character": 0}}),
    );
    prop_assert!(send(symbols.into()));
    ids.insert(last);
    let mut answered = BTreeSet::new();
    while !answered.contains(&last) {
        match wait() {
            Some(Message::Response(r)) => {
                prop_assert!(
                    r.result.is_some() != r.error.is_some(),
                    "a result or an error: {r:?}"
                );
                answered.insert(r.id.to_string().parse::<i32>().unwrap_or(-1));
            }
            Some(_) => {}
            None => prop_assert!(false, "the server stopped answering"),
        }
    }
    prop_assert_eq!(&answered, &ids);
    prop_assert!(send(
        Request::new(RequestId::from(2), "shutdown".into(), json!(null)).into()
    ));
    prop_assert!(send(Notification::new("exit".into(), json!(null)).into()));
    let ended = running.join();
    prop_assert!(
        matches!(ended, Ok(Ok(()))),
        "the session ended badly: {ended:?}"
    );
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn random_edits_and_requests_are_all_answered(ops in prop::collection::vec(op(), 1..32)) {
        run(&ops)?;
    }
}
