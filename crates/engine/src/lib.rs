//! The engine protocol: a game and its agents driven by any program, one JSON object a line
//! each way on a byte stream (standard input and output for `rulestone engine`), in the spirit
//! of UCI and GTP. The commands are the `protocol` module's; the reference is the README's
//! "Driving a game from another program".
//!
//! Invariants: every line read gets exactly one answer line (blank lines aside), in order; a
//! bad line (not JSON, too long, an unknown command, a missing or mistyped field, an illegal
//! move) answers `{"error": {...}}` and the session goes on; nothing a line holds can panic
//! the engine or end the session, which ends only at the end of input or on `quit`. The game
//! logic is `rulestone-session`'s and the agents `rulestone-agents`'s: this crate only reads
//! requests and writes answers.

mod protocol;

use std::io::{self, BufRead, Write};

use rulestone_runtime::Compiled;
use rulestone_session::Game;
use serde_json::{json, Value};

pub use protocol::Refusal;

/// The longest line read, in bytes (1 MiB): a longer one is answered with the error
/// `line-too-long` and skipped to its end, never held whole.
pub const MAX_LINE: usize = 1 << 20;

/// What the engine was started with: the game's text and the option values given on the
/// command line (`new` may set more).
pub struct Config {
    /// The game's name in messages and records (its file's path).
    pub name: String,
    pub source: String,
    pub sets: Vec<(String, String)>,
    pub compiled: Compiled,
}

/// One line as read.
enum Line {
    Text(String),
    /// A line of this many bytes, longer than [`MAX_LINE`].
    TooLong(usize),
    NotUtf8,
}

/// Reads one line of at most `cap` bytes (without its end); a longer line is read to its end
/// and dropped. `None` at the end of input.
fn read_line(input: &mut impl BufRead, cap: usize) -> io::Result<Option<Line>> {
    let mut kept = Vec::new();
    let (mut total, mut any) = (0usize, false);
    loop {
        let chunk = input.fill_buf()?;
        if chunk.is_empty() {
            break;
        }
        any = true;
        let end = chunk.iter().position(|&b| b == b'\n');
        let content = &chunk[..end.unwrap_or(chunk.len())];
        total = total.saturating_add(content.len());
        if kept.len() <= cap {
            let room = (cap + 1 - kept.len()).min(content.len());
            kept.extend_from_slice(&content[..room]);
        }
        let used = end.map_or(chunk.len(), |e| e + 1);
        input.consume(used);
        if end.is_some() {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if total > cap {
        return Ok(Some(Line::TooLong(total)));
    }
    if kept.last() == Some(&b'\r') {
        kept.pop();
    }
    Ok(Some(
        String::from_utf8(kept).map_or(Line::NotUtf8, Line::Text),
    ))
}

/// Writes one answer line and flushes it, so a program waiting for it gets it now.
fn answer(output: &mut impl Write, value: &Value) -> io::Result<()> {
    writeln!(output, "{value}")?;
    output.flush()
}

/// Serves requests from `input` on `game` (loaded from `config`) until the end of input or
/// `quit`.
///
/// # Errors
/// Only reading or writing failing: every bad request is answered.
pub fn serve(
    config: &Config,
    game: Game,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> io::Result<()> {
    let mut game = game;
    let mut sets = config.sets.clone();
    let mut opening = None;
    loop {
        let end = {
            let mut session = protocol::Session::new(config, &game, sets.clone());
            if let Some((id, moves)) = opening.take() {
                answer(output, &protocol::with_id(session.open(moves), id))?;
            }
            session_lines(&mut session, input, output)?
        };
        match end {
            protocol::End::Quit => return Ok(()),
            protocol::End::Reload(reload) => {
                game = reload.game;
                sets = reload.sets;
                opening = Some((reload.id, reload.opening));
            }
        }
    }
}

/// Answers lines until the session ends: the end of input, `quit`, or a `new` that loads the
/// game anew.
fn session_lines(
    session: &mut protocol::Session<'_>,
    input: &mut impl BufRead,
    output: &mut impl Write,
) -> io::Result<protocol::End> {
    while let Some(line) = read_line(input, MAX_LINE)? {
        let text = match line {
            Line::Text(text) => text,
            Line::TooLong(bytes) => {
                let refusal = Refusal::new(
                    "line-too-long",
                    format!(
                        "a line of {bytes} bytes is longer than the {MAX_LINE} a request may take"
                    ),
                );
                answer(output, &json!({ "error": refusal.to_json() }))?;
                continue;
            }
            Line::NotUtf8 => {
                let refusal = Refusal::new("bad-json", "the line is not UTF-8 text");
                answer(output, &json!({ "error": refusal.to_json() }))?;
                continue;
            }
        };
        if text.trim().is_empty() {
            continue;
        }
        match session.handle(&text) {
            protocol::Step::Answer(value) => answer(output, &value)?,
            protocol::Step::End(value, end) => {
                if let Some(value) = value {
                    answer(output, &value)?;
                }
                return Ok(end);
            }
        }
    }
    Ok(protocol::End::Quit)
}

#[cfg(test)]
mod tests {
    use super::{read_line, Line};

    #[test]
    fn long_lines_are_dropped_whole_and_the_next_is_read() {
        let text = format!("{}\nshort\r\nlast", "x".repeat(50));
        let mut input = std::io::BufReader::with_capacity(8, text.as_bytes());
        let first = read_line(&mut input, 10).ok().flatten();
        assert!(matches!(first, Some(Line::TooLong(50))));
        let second = read_line(&mut input, 10).ok().flatten();
        assert!(matches!(second, Some(Line::Text(t)) if t == "short"));
        let third = read_line(&mut input, 10).ok().flatten();
        assert!(matches!(third, Some(Line::Text(t)) if t == "last"));
        assert!(read_line(&mut input, 10).ok().flatten().is_none());
    }
}
