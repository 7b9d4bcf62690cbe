//! Standard input and output as an LSP [`Connection`], framed here rather than by
//! `lsp-server`, so that no frame a client sends can end or crash the session.
//!
//! A frame is headers (`Content-Length: N`, others ignored), a blank line and `N` bytes of
//! JSON-RPC. What `lsp-server`'s own reader would die on is answered with JSON-RPC's error
//! (`id: null`) and the next frame is read:
//! - a body longer than [`MAX_MESSAGE_BYTES`] is skipped without being held in memory
//!   (error `-32600`, invalid request);
//! - a header without a valid `Content-Length`, or a header line longer than
//!   [`MAX_HEADER_LINE`], is skipped (error `-32700`, parse error);
//! - a body that is not JSON, or not a request, response or notification (`-32700`).
//!
//! Only the end of the input, or an `exit` notification, ends the reader.

use std::io::{self, BufRead, Read, Write};
use std::thread::JoinHandle;

use lsp_server::{Connection, Message};

/// The largest message body read: 64 MiB, far above any game file's text.
pub const MAX_MESSAGE_BYTES: u64 = 64 << 20;

/// The longest header line read.
pub const MAX_HEADER_LINE: u64 = 8 << 10;

/// JSON-RPC's code for a message that cannot be parsed.
const PARSE_ERROR: i32 = -32700;
/// JSON-RPC's code for a message that is not a valid request.
const INVALID_REQUEST: i32 = -32600;

/// The threads that carry a [`stdio`] connection.
pub struct IoThreads {
    writer: JoinHandle<io::Result<()>>,
}

impl IoThreads {
    /// Waits until every message the server sent is written. (The reader is not waited for: it
    /// may be blocked on input that never comes once the session ended.)
    ///
    /// # Errors
    /// Writing to standard output failed.
    pub fn join(self) -> io::Result<()> {
        self.writer
            .join()
            .map_err(|_| io::Error::other("the writer thread panicked"))?
    }
}

/// A connection over standard input and output.
#[must_use]
pub fn stdio() -> (Connection, IoThreads) {
    let (to_client, outgoing) = crossbeam_channel::unbounded::<Message>();
    let (incoming, from_client) = crossbeam_channel::unbounded::<Message>();
    let writer = std::thread::spawn(move || {
        for message in outgoing {
            message.write(&mut io::stdout().lock())?;
        }
        Ok(())
    });
    std::thread::spawn(move || {
        let mut input = io::stdin().lock();
        read_frames(&mut input, &incoming, &mut |code, message| {
            write_error(&mut io::stdout().lock(), code, message)
        })
    });
    let connection = Connection {
        sender: to_client,
        receiver: from_client,
    };
    (connection, IoThreads { writer })
}

/// One frame read: a message, a frame to answer with an error, or the end of the input.
#[derive(Debug)]
enum Frame {
    Message(Message),
    Bad { code: i32, message: String },
    End,
}

/// Reads frames until the input ends or an `exit` notification came, passing messages on and
/// answering bad frames on `out`.
fn read_frames(
    input: &mut impl BufRead,
    incoming: &crossbeam_channel::Sender<Message>,
    answer: &mut impl FnMut(i32, &str) -> io::Result<()>,
) -> io::Result<()> {
    loop {
        match read_frame(input)? {
            Frame::End => return Ok(()),
            Frame::Message(message) => {
                let exit = matches!(&message, Message::Notification(n) if n.method == "exit");
                if incoming.send(message).is_err() || exit {
                    return Ok(());
                }
            }
            Frame::Bad { code, message } => answer(code, &message)?,
        }
    }
}

/// Writes a JSON-RPC error with `id: null`, framed.
fn write_error(out: &mut impl Write, code: i32, message: &str) -> io::Result<()> {
    let body = serde_json::json!({
        "jsonrpc": "2.0",
        "id": null,
        "error": { "code": code, "message": message },
    })
    .to_string();
    write!(out, "Content-Length: {}\r\n\r\n{body}", body.len())?;
    out.flush()
}

/// Reads one frame.
fn read_frame(input: &mut impl BufRead) -> io::Result<Frame> {
    let mut length: Option<Result<u64, String>> = None;
    let mut any_header = false;
    loop {
        let mut line = Vec::new();
        let read = input.take(MAX_HEADER_LINE).read_until(b'\n', &mut line)?;
        if read == 0 {
            return Ok(Frame::End);
        }
        if !line.ends_with(b"\n") {
            if read as u64 == MAX_HEADER_LINE {
                skip_line(input)?;
                any_header = true;
                length = Some(Err(format!(
                    "a header line is longer than {MAX_HEADER_LINE} bytes"
                )));
                continue;
            }
            // The input ended inside a header.
            return Ok(Frame::End);
        }
        let text = String::from_utf8_lossy(&line);
        let text = text.trim_end_matches(['\r', '\n']);
        if text.is_empty() {
            if !any_header {
                // Blank lines between frames are tolerated.
                continue;
            }
            break;
        }
        any_header = true;
        if let Some((name, value)) = text.split_once(':') {
            if name.trim().eq_ignore_ascii_case("content-length") && length.is_none() {
                length =
                    Some(value.trim().parse::<u64>().map_err(|_| {
                        format!("`Content-Length: {}` is not a length", value.trim())
                    }));
            }
        }
    }
    match length {
        None => Ok(bad(PARSE_ERROR, "a frame without `Content-Length`")),
        Some(Err(message)) => Ok(bad(PARSE_ERROR, &message)),
        Some(Ok(n)) if n > MAX_MESSAGE_BYTES => {
            let skipped = io::copy(&mut input.take(n), &mut io::sink())?;
            if skipped < n {
                return Ok(Frame::End);
            }
            Ok(bad(
                INVALID_REQUEST,
                &format!("a message of {n} bytes is over the limit of {MAX_MESSAGE_BYTES} bytes"),
            ))
        }
        Some(Ok(n)) => read_body(input, n),
    }
}

/// Reads a body of `n` bytes (at most [`MAX_MESSAGE_BYTES`]) as a message.
fn read_body(input: &mut impl BufRead, n: u64) -> io::Result<Frame> {
    let mut body = Vec::new();
    let read = input.take(n).read_to_end(&mut body)?;
    if (read as u64) < n {
        return Ok(Frame::End);
    }
    let value = match serde_json::from_slice::<serde_json::Value>(&body) {
        Ok(value) => value,
        Err(e) => return Ok(bad(PARSE_ERROR, &format!("not JSON: {e}"))),
    };
    if let Some(why) = not_a_message(&value) {
        return Ok(bad(
            INVALID_REQUEST,
            &format!("not a JSON-RPC message: {why}"),
        ));
    }
    Ok(match serde_json::from_value::<Message>(value) {
        Ok(message) => Frame::Message(message),
        Err(e) => bad(INVALID_REQUEST, &format!("not a JSON-RPC message: {e}")),
    })
}

/// What makes a JSON value no JSON-RPC message, where the lenient reading of `Message` would
/// take it for another kind and answer nothing: a request's `id` that is not an integer or a
/// string (`3.5`, `null`), or a `method` that is not a string (which would read as a response).
fn not_a_message(value: &serde_json::Value) -> Option<&'static str> {
    let Some(object) = value.as_object() else {
        return Some("not an object");
    };
    if object.get("method").is_some_and(|m| !m.is_string()) {
        return Some("`method` is not a string");
    }
    let id_ok = |id: &serde_json::Value| id.is_string() || id.is_i64() || id.is_u64();
    match object.get("id") {
        Some(id) if !id_ok(id) => Some("`id` is not an integer or a string"),
        None if !object.contains_key("method") => Some("no `method`, and no `id` to answer"),
        _ => None,
    }
}

fn bad(code: i32, message: &str) -> Frame {
    Frame::Bad {
        code,
        message: message.to_string(),
    }
}

/// Skips the rest of an overlong line.
fn skip_line(input: &mut impl BufRead) -> io::Result<()> {
    loop {
        let buf = input.fill_buf()?;
        if buf.is_empty() {
            return Ok(());
        }
        if let Some(i) = buf.iter().position(|&b| b == b'\n') {
            input.consume(i + 1);
            return Ok(());
        }
        let n = buf.len();
        input.consume(n);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn frame(body: &str) -> String {
        format!("Content-Length: {}\r\n\r\n{body}", body.len())
    }

    /// The messages passed on and the error codes answered, for this input.
    fn read_all(input: &str) -> (Vec<String>, Vec<i64>) {
        let (incoming, received) = crossbeam_channel::unbounded();
        let mut out = Vec::new();
        let mut reader = io::BufReader::new(input.as_bytes());
        read_frames(&mut reader, &incoming, &mut |code, message| {
            write_error(&mut out, code, message)
        })
        .expect("reads");
        let methods = received
            .try_iter()
            .map(|m| match m {
                Message::Request(r) => r.method,
                Message::Notification(n) => n.method,
                Message::Response(r) => format!("response {:?}", r.id),
            })
            .collect();
        let codes = answered_codes(&String::from_utf8_lossy(&out));
        (methods, codes)
    }

    /// The error codes of the framed answers in `out` (`id: null` answers are no
    /// `lsp_server::Message`, so they are read as plain JSON).
    fn answered_codes(mut out: &str) -> Vec<i64> {
        let mut codes = Vec::new();
        while let Some((head, rest)) = out.split_once("\r\n\r\n") {
            let n: usize = head
                .trim_start_matches("Content-Length: ")
                .parse()
                .expect("a length");
            let body: serde_json::Value = serde_json::from_str(&rest[..n]).expect("JSON");
            codes.push(body["error"]["code"].as_i64().expect("an error code"));
            out = &rest[n..];
        }
        codes
    }

    #[test]
    fn good_frames_pass_and_bad_ones_are_answered() {
        let ping = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let input = [
            frame(ping),
            "Content-Length: 99999999999\r\n\r\n".to_string(),
        ]
        .concat();
        // The huge frame: skipped to the end of the input, which ends the reader.
        let (methods, codes) = read_all(&input);
        assert_eq!(methods, ["initialized"]);
        assert!(codes.is_empty());

        let input = [
            "X-Nothing: 1\r\n\r\n".to_string(),
            frame("{not json"),
            frame(r#"{"jsonrpc":"2.0","weird":1}"#),
            "Content-Length: ten\r\n\r\n".to_string(),
            frame(ping),
            frame(r#"{"jsonrpc":"2.0","method":"exit"}"#),
            frame(ping),
        ]
        .concat();
        let (methods, codes) = read_all(&input);
        // Everything after `exit` is left unread.
        assert_eq!(methods, ["initialized", "exit"]);
        assert_eq!(
            codes,
            [PARSE_ERROR, PARSE_ERROR, INVALID_REQUEST, PARSE_ERROR].map(i64::from)
        );
    }

    /// A request's `id` that is no integer or string, or a `method` that is no string, is
    /// answered as an invalid request, not taken for a notification or a response.
    #[test]
    fn odd_ids_and_methods_are_answered() {
        let input = [
            frame(r#"{"jsonrpc":"2.0","id":3.5,"method":"shutdown"}"#),
            frame(r#"{"jsonrpc":"2.0","id":null,"method":"shutdown"}"#),
            frame(r#"{"jsonrpc":"2.0","id":1,"method":5}"#),
            frame(r#"[1, 2]"#),
            frame(r#"{"jsonrpc":"2.0","id":"a","method":"shutdown"}"#),
        ]
        .concat();
        let (methods, codes) = read_all(&input);
        assert_eq!(methods, ["shutdown"]);
        assert_eq!(codes, [INVALID_REQUEST; 4].map(i64::from));
    }

    #[test]
    fn an_overlong_header_line_is_skipped() {
        let long = format!("X-Long: {}\r\n", "a".repeat(20_000));
        let ping = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let input = [long, "\r\n".to_string(), frame(ping)].concat();
        let (methods, codes) = read_all(&input);
        assert_eq!(methods, ["initialized"]);
        assert_eq!(codes, [i64::from(PARSE_ERROR)]);
    }

    #[test]
    fn an_oversized_body_is_skipped_not_held() {
        let n = MAX_MESSAGE_BYTES + 1;
        let body = " ".repeat(usize::try_from(n).unwrap_or(0));
        let ping = r#"{"jsonrpc":"2.0","method":"initialized","params":{}}"#;
        let input = [format!("Content-Length: {n}\r\n\r\n"), body, frame(ping)].concat();
        let (methods, codes) = read_all(&input);
        assert_eq!(methods, ["initialized"]);
        assert_eq!(codes, [i64::from(INVALID_REQUEST)]);
    }

    /// One self-contained piece of input: a good frame (`true`) or a bad one (`false`).
    fn unit() -> impl proptest::strategy::Strategy<Value = (Vec<u8>, bool)> {
        use proptest::prelude::*;
        let body = prop::collection::vec(any::<u8>(), 0..40);
        prop_oneof![
            "[a-z]{1,12}"
                .prop_filter("not exit", |m| m != "exit")
                .prop_map(|m| {
                    let body = format!(r#"{{"jsonrpc":"2.0","method":"{m}","params":{{}}}}"#);
                    (frame(&body).into_bytes(), true)
                }),
            body.clone().prop_map(|mut b| {
                // Not JSON: it starts with a byte no JSON starts with.
                b.insert(0, b'#');
                let mut f = format!("Content-Length: {}\r\n\r\n", b.len()).into_bytes();
                f.extend(b);
                (f, false)
            }),
            "[A-Za-z-]{1,20}: [ -~]{0,30}"
                .prop_map(|h| (format!("{h}\r\n\r\n").into_bytes(), false))
                .prop_filter("not a length", |(h, _)| !h
                    .to_ascii_lowercase()
                    .starts_with(b"content-length")),
            "[ -~]{0,12}"
                .prop_map(|v| (format!("Content-Length: x{v}\r\n\r\n").into_bytes(), false)),
            (9_000usize..10_000)
                .prop_map(|n| (format!("X: {}\r\n\r\n", "a".repeat(n)).into_bytes(), false)),
        ]
    }

    /// The messages passed on and the number of errors answered, for bytes.
    fn read_bytes(input: &[u8]) -> (usize, usize) {
        let (incoming, received) = crossbeam_channel::unbounded();
        let mut errors = 0;
        let mut reader = io::BufReader::new(input);
        let read = read_frames(&mut reader, &incoming, &mut |_, _| {
            errors += 1;
            Ok(())
        });
        assert!(read.is_ok());
        (received.try_iter().count(), errors)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig { cases: 64, ..Default::default() })]

        /// Good and bad frames in any order: every good one is passed on, every bad one
        /// answered, and reading goes on to the end.
        #[test]
        fn any_mix_of_frames_is_read_to_the_end(units in proptest::collection::vec(unit(), 0..10)) {
            let good = units.iter().filter(|(_, ok)| *ok).count();
            let bad = units.len() - good;
            let input: Vec<u8> = units.into_iter().flat_map(|(bytes, _)| bytes).collect();
            proptest::prop_assert_eq!(read_bytes(&input), (good, bad));
        }

        /// Any bytes at all: the reader ends without a panic.
        #[test]
        fn any_bytes_end_the_reader(input in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..400)) {
            let mut framed = b"Content-Length: 5\r\n\r\n".to_vec();
            framed.extend(&input);
            let _ = read_bytes(&input);
            let _ = read_bytes(&framed);
        }
    }
}
