//! User text made safe to print: control characters (an escape sequence that recolours or clears
//! the terminal, a bell, a NUL) and bidirectional overrides (which reorder what a line appears
//! to say) are shown, never sent to the terminal as they are. Every message that quotes a game
//! file, a record or a typed move goes through [`escape`]; the source lines a diagnostic draws
//! go through [`Pictured`].

use std::borrow::Cow;

/// Whether `c` is hidden or acts on the terminal rather than showing: a control character
/// other than a tab or a line break, or a bidirectional formatting character.
#[must_use]
pub fn is_hidden(c: char) -> bool {
    (c.is_control() && !matches!(c, '\t' | '\n' | '\r'))
        || matches!(c, '\u{61c}' | '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
}

/// The text with each hidden character ([`is_hidden`]) written as a Rust escape, `\u{1b}`.
#[must_use]
pub fn escape(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_hidden) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if is_hidden(c) {
            out.push_str(&format!("\\u{{{:x}}}", u32::from(c)));
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A source text as a diagnostic draws it: each hidden character replaced by one visible
/// character (its control picture, `␛` for ESC, or `�`), so columns stay right; byte offsets
/// into the original move by what the replacements add, which [`Pictured::offset`] gives.
pub struct Pictured<'a> {
    pub text: Cow<'a, str>,
    /// For each replaced character, its end in the original and the bytes added up to there.
    shifts: Vec<(usize, usize)>,
}

impl<'a> Pictured<'a> {
    #[must_use]
    pub fn new(source: &'a str) -> Self {
        if !source.chars().any(is_hidden) {
            return Pictured {
                text: Cow::Borrowed(source),
                shifts: Vec::new(),
            };
        }
        let (mut text, mut shifts, mut added) =
            (String::with_capacity(source.len()), Vec::new(), 0);
        for (i, c) in source.char_indices() {
            if !is_hidden(c) {
                text.push(c);
                continue;
            }
            let picture = match u32::from(c) {
                n @ 0..=0x1f => char::from_u32(0x2400 + n).unwrap_or('\u{fffd}'),
                0x7f => '\u{2421}',
                _ => '\u{fffd}',
            };
            text.push(picture);
            added += picture.len_utf8();
            added -= c.len_utf8().min(added);
            shifts.push((i + c.len_utf8(), added));
        }
        Pictured {
            text: Cow::Owned(text),
            shifts,
        }
    }

    /// Where byte `offset` of the original (on a character boundary) is in [`Pictured::text`].
    #[must_use]
    pub fn offset(&self, offset: usize) -> usize {
        let before = self.shifts.partition_point(|&(end, _)| end <= offset);
        before
            .checked_sub(1)
            .map_or(offset, |i| offset + self.shifts[i].1)
    }
}

#[cfg(test)]
mod tests {
    use super::{escape, Pictured};

    #[test]
    fn hidden_characters_are_escaped_and_pictured() {
        assert_eq!(escape("a1\u{1b}[2J\u{7}"), "a1\\u{1b}[2J\\u{7}");
        assert_eq!(escape("x\u{202e}y\tz\n"), "x\\u{202e}y\tz\n");
        assert_eq!(escape("plain"), "plain");
        let source = "ab\u{1b}cd\u{202e}e\n";
        let p = Pictured::new(source);
        assert_eq!(p.text, "ab\u{241b}cd\u{fffd}e\n");
        for (i, c) in source.char_indices() {
            if c.is_alphabetic() {
                assert_eq!(p.text[p.offset(i)..].chars().next(), Some(c));
            }
        }
        assert_eq!(p.offset(source.len()), p.text.len());
    }
}
