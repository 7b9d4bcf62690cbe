//! Text → syntax tree. Only this crate knows pest; every stage after it sees `ast` types.

pub mod ast;
mod error;
pub mod format;
mod from_pairs;
pub mod keywords;
mod parser;
pub mod procedures;
pub mod span;
mod table;

pub use error::SyntaxError;
pub use format::{format_source, FormatError};
pub use from_pairs::MAX_DEPTH;
pub use span::{Ident, Span};

/// What separates the moves of a typed list (`--after "a1; b2"`): no cell name or move
/// notation may hold it (E0420), or that move could never be typed.
pub const MOVE_SEPARATOR: char = ';';

/// Reads every lone carriage return (the line ending of old Mac files) as a line feed, in
/// place: lines are then counted alike everywhere (diagnostics, the formatter, the editor), and
/// every byte keeps its offset, so spans stay valid for the text as it was read.
pub fn normalize_line_breaks(text: &mut String) {
    if !text.contains('\r') {
        return;
    }
    let mut bytes = std::mem::take(text).into_bytes();
    for i in 0..bytes.len() {
        if bytes[i] == b'\r' && bytes.get(i + 1) != Some(&b'\n') {
            bytes[i] = b'\n';
        }
    }
    // One ASCII byte for another: still UTF-8.
    *text = String::from_utf8(bytes)
        .unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned());
}

/// Parses a `.game` source text into its syntax tree.
///
/// # Errors
/// Every syntax problem found, each with a code and a span.
pub fn parse(source: &str) -> Result<ast::File, Vec<SyntaxError>> {
    from_pairs::parse_file(source)
}

/// Parses a deck file: the `army` declarations a table game's players bring.
///
/// # Errors
/// Every syntax problem found, each with a code and a span.
pub fn parse_deck(source: &str) -> Result<Vec<ast::Army>, Vec<SyntaxError>> {
    table::parse_deck(source)
}

/// Whether a text begins as a `.game` file does: with a keyword that opens a declaration, once
/// comments and blank space are skipped (an empty text counts as one).
///
/// # Errors
/// The span of the first word or symbol, when it opens no declaration.
pub fn looks_like_game(source: &str) -> Result<(), Span> {
    let mut rest = source;
    loop {
        let trimmed = rest.trim_start();
        match trimmed.strip_prefix("//") {
            Some(comment) => rest = comment.split_once('\n').map_or("", |(_, r)| r),
            None => {
                rest = trimmed;
                break;
            }
        }
    }
    if rest.is_empty() {
        return Ok(());
    }
    let start = source.len() - rest.len();
    let word_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .unwrap_or(rest.len());
    if keywords::declaration_starts()
        .iter()
        .any(|k| *k == rest[..word_len])
    {
        return Ok(());
    }
    let len = if word_len > 0 {
        word_len
    } else {
        rest.chars().next().map_or(0, char::len_utf8)
    };
    Err(Span::new(start, start + len))
}

#[cfg(test)]
mod tests {
    #[test]
    fn lone_carriage_returns_become_line_feeds_in_place() {
        let mut text = "a\rb\r\nc\r".to_string();
        super::normalize_line_breaks(&mut text);
        assert_eq!(text, "a\nb\r\nc\n");
    }

    #[test]
    fn a_byte_order_mark_and_lone_carriage_returns_parse() {
        let text = "\u{FEFF}game \"x\" // a comment\rplayers A, B\rturn { win nobody }\r";
        assert!(super::parse(text).is_ok());
    }

    use super::looks_like_game;

    #[test]
    fn a_game_file_begins_with_a_declaration() {
        assert!(looks_like_game("// rules\n\n  game \"T\"\nplayers A, B\n").is_ok());
        assert!(looks_like_game("").is_ok());
        assert!(looks_like_game("// only a comment").is_ok());
        let perft = "# perft\n1 20\n";
        assert_eq!(
            looks_like_game(perft).map_err(|s| (s.start, s.end)),
            Err((0, 1))
        );
        let notes = "// header\nnotes about the game\n";
        let word = looks_like_game(notes).map_err(|s| &notes[s.start as usize..s.end as usize]);
        assert_eq!(word, Err("notes"));
    }
}
