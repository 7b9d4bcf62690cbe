//! A lexical scan of a source text for the editor: words, numbers, comments and the text of
//! strings, with their byte ranges. It never fails, so that it serves files that do not parse.
//!
//! Invariants: tokens are in source order and do not overlap; a word is a run of ASCII letters,
//! digits and `_` that is not all digits (a cell name such as `1a1` is a word, as the grammar
//! reads it); words inside a string's `{...}` holes are words, the rest of a string is text.

/// What a token is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Word,
    Number,
    Comment,
    /// A piece of a string literal's text (up to a hole or the closing quote, quotes included).
    Text,
}

/// One token: its kind and byte range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

impl Token {
    /// The text of the token.
    #[must_use]
    pub fn text<'a>(&self, source: &'a str) -> &'a str {
        &source[self.start..self.end]
    }
}

fn is_word_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// Every token of a source text.
#[must_use]
pub fn scan(source: &str) -> Vec<Token> {
    let bytes = source.as_bytes();
    let mut tokens = Vec::new();
    let mut i = 0;
    // Depth of `{` inside the current string hole, and whether we are in one.
    let mut in_hole = false;
    let mut depth = 0usize;
    while i < bytes.len() {
        let b = bytes[i];
        if b == b'/' && bytes.get(i + 1) == Some(&b'/') {
            let end = source[i..].find('\n').map_or(source.len(), |n| i + n);
            tokens.push(Token {
                kind: Kind::Comment,
                start: i,
                end,
            });
            i = end;
        } else if b == b'"' || (in_hole && b == b'}' && depth == 0) {
            // A string's text runs to a hole, the closing quote or the end of the line.
            let start = i;
            i += 1;
            in_hole = false;
            while i < bytes.len() {
                match bytes[i] {
                    b'\\' => i += 2,
                    b'"' => {
                        i += 1;
                        break;
                    }
                    b'{' => {
                        in_hole = true;
                        depth = 0;
                        i += 1;
                        break;
                    }
                    b'\n' => break,
                    _ => i += 1,
                }
            }
            i = i.min(bytes.len());
            tokens.push(Token {
                kind: Kind::Text,
                start,
                end: i,
            });
        } else if is_word_byte(b) {
            let start = i;
            while i < bytes.len() && is_word_byte(bytes[i]) {
                i += 1;
            }
            let all_digits = bytes[start..i].iter().all(u8::is_ascii_digit);
            if all_digits
                && bytes.get(i) == Some(&b'.')
                && bytes.get(i + 1).is_some_and(u8::is_ascii_digit)
            {
                i += 1;
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
            }
            tokens.push(Token {
                kind: if all_digits { Kind::Number } else { Kind::Word },
                start,
                end: i,
            });
        } else {
            if in_hole {
                match b {
                    b'{' => depth += 1,
                    b'}' => depth = depth.saturating_sub(1),
                    _ => {}
                }
            }
            // Skip one character (whole, so that `i` stays on a character boundary).
            i += source[i..].chars().next().map_or(1, char::len_utf8);
        }
    }
    tokens
}

/// The word token covering or ending at a byte offset.
#[must_use]
pub fn word_at(tokens: &[Token], at: usize) -> Option<Token> {
    tokens
        .iter()
        .find(|t| t.kind == Kind::Word && t.start <= at && at <= t.end)
        .copied()
}

#[cfg(test)]
mod tests {
    use super::{scan, Kind};

    fn kinds(source: &str) -> Vec<(Kind, &str)> {
        scan(source)
            .into_iter()
            .map(|t| (t.kind, t.text(source)))
            .collect()
    }

    #[test]
    fn words_numbers_comments_and_strings() {
        use Kind::{Comment, Number, Text, Word};
        assert_eq!(
            kinds("put stone at 1a1 // é here\nx = 12 + 0.5"),
            vec![
                (Word, "put"),
                (Word, "stone"),
                (Word, "at"),
                (Word, "1a1"),
                (Comment, "// é here"),
                (Word, "x"),
                (Number, "12"),
                (Number, "0.5"),
            ]
        );
        assert_eq!(
            kinds(r#"write "é {c.x} and {f({a})}\" ok" then"#),
            vec![
                (Word, "write"),
                (Text, "\"é {"),
                (Word, "c"),
                (Word, "x"),
                (Text, "} and {"),
                (Word, "f"),
                (Word, "a"),
                (Text, "}\\\" ok\""),
                (Word, "then"),
            ]
        );
        // An unterminated string ends at its line.
        assert_eq!(kinds("\"abc\nd"), vec![(Text, "\"abc"), (Word, "d")]);
    }
}
