//! Files a command writes where the user says (`--record`, `save`, `--html`, `draw -o`): an
//! existing file is replaced only by one of its own kind — a record by a record, a report page
//! by a report page, a picture by a picture — so a slip of the path (the game file itself, a
//! page of one's own) loses nothing.

use std::io::Read;
use std::path::Path;

use super::load::shown;
use super::{CliError, Result};

/// What a command writes, and so what it may replace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Output {
    /// A game record (`--record`, `save`).
    Record,
    /// `analyze --html`'s page.
    Page,
    /// `draw`'s SVG picture.
    Svg,
    /// `draw`'s PNG picture.
    Png,
}

/// How much of an existing file is read to tell its kind.
const HEAD: u64 = 1024;

impl Output {
    fn what(self) -> &'static str {
        match self {
            Output::Record => "a game record",
            Output::Page => "a page written by `rulestone analyze --html`",
            Output::Svg => "an SVG picture",
            Output::Png => "a PNG picture",
        }
    }

    /// Whether a file that starts with `head` is of this kind.
    fn is_kind(self, head: &[u8]) -> bool {
        let text = String::from_utf8_lossy(head);
        match self {
            Output::Record => text.starts_with(rulestone_session::record::HEADER),
            Output::Page => text.contains(&format!(
                "<meta name=\"generator\" content=\"{}\">",
                rulestone_report::html::GENERATOR
            )),
            Output::Svg => {
                let text = text.trim_start();
                text.starts_with("<svg") || text.starts_with("<?xml")
            }
            Output::Png => head.starts_with(b"\x89PNG\r\n\x1a\n"),
        }
    }
}

/// Refuses to write `kind` at `path` when a file of another kind is there. A missing or empty
/// file is new; what is not a regular file (a directory, a device, a pipe) is not read, and
/// the write itself says what is wrong with it.
pub(crate) fn refuse_other(path: &Path, kind: Output) -> Result<()> {
    let Ok(meta) = std::fs::metadata(path) else {
        return Ok(());
    };
    if !meta.is_file() || meta.len() == 0 {
        return Ok(());
    }
    let mut head = Vec::new();
    let read = std::fs::File::open(path).and_then(|f| f.take(HEAD).read_to_end(&mut head));
    if read.is_ok() && kind.is_kind(&head) {
        return Ok(());
    }
    Err(CliError::new(format!(
        "`{}` exists and is not {}: nothing was written to it",
        shown(path),
        kind.what()
    ))
    .note("give a new file, or remove this one first")
    .into())
}

#[cfg(test)]
mod tests {
    use super::Output;

    #[test]
    fn each_kind_knows_its_own_files() {
        assert!(Output::Record.is_kind(b"rulestone-record 1\ngame g.game\n"));
        assert!(!Output::Record.is_kind(b"game \"G\"\nplayers A, B\n"));
        let page = "<!DOCTYPE html>\n<meta name=\"generator\" content=\"rulestone analyze\">";
        assert!(Output::Page.is_kind(page.as_bytes()));
        assert!(!Output::Page.is_kind(b"<!DOCTYPE html>\n<p>my notes</p>"));
        assert!(Output::Svg.is_kind(b"<svg xmlns=\"http://www.w3.org/2000/svg\">"));
        assert!(!Output::Svg.is_kind(b"board \"x\""));
        assert!(Output::Png.is_kind(b"\x89PNG\r\n\x1a\nrest"));
        assert!(!Output::Png.is_kind(b"<svg"));
    }
}
