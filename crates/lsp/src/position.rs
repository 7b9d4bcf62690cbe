//! Byte offsets (what spans hold) to LSP positions and back: a line number and a column counted
//! in UTF-16 code units, the encoding every LSP client understands.

use lsp_types::{Position, Range};

/// The LSP position of a byte offset. An offset past the end is the end; an offset inside a
/// multi-byte character is the start of that character.
#[must_use]
pub fn position(source: &str, offset: usize) -> Position {
    let mut offset = offset.min(source.len());
    while !source.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &source[..offset];
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    let line = before.matches('\n').count();
    let character: usize = before[line_start..].chars().map(char::len_utf16).sum();
    Position {
        line: u32::try_from(line).unwrap_or(u32::MAX),
        character: u32::try_from(character).unwrap_or(u32::MAX),
    }
}

/// The LSP range of the byte range `[start, end)`.
#[must_use]
pub fn range(source: &str, start: usize, end: usize) -> Range {
    Range {
        start: position(source, start),
        end: position(source, end.max(start)),
    }
}

/// The byte offset of an LSP position. A line past the end is the end of the text; a column
/// past the end of its line is the end of the line; a column inside a character (between the
/// two halves of a surrogate pair) is the start of that character.
#[must_use]
pub fn offset(source: &str, position: Position) -> usize {
    let mut line_start = 0;
    for _ in 0..position.line {
        match source[line_start..].find('\n') {
            Some(i) => line_start += i + 1,
            None => return source.len(),
        }
    }
    let line_end = source[line_start..]
        .find('\n')
        .map_or(source.len(), |i| line_start + i);
    let mut units = 0usize;
    for (i, ch) in source[line_start..line_end].char_indices() {
        units += ch.len_utf16();
        if units > position.character as usize {
            return line_start + i;
        }
    }
    line_end
}

#[cfg(test)]
mod tests {
    use super::{offset, position, range};
    use lsp_types::Position;

    fn pos(line: u32, character: u32) -> Position {
        Position { line, character }
    }

    #[test]
    fn ascii_lines_and_columns() {
        let s = "ab\ncd\n";
        assert_eq!(position(s, 0), pos(0, 0));
        assert_eq!(position(s, 2), pos(0, 2));
        assert_eq!(position(s, 3), pos(1, 0));
        assert_eq!(position(s, 4), pos(1, 1));
        assert_eq!(position(s, 6), pos(2, 0));
        assert_eq!(position(s, 99), pos(2, 0));
        assert_eq!(range(s, 3, 5).end, pos(1, 2));
    }

    #[test]
    fn multi_byte_characters_count_in_utf16_units() {
        // `é` is 2 bytes and 1 UTF-16 unit; `🎲` is 4 bytes and 2 units.
        let s = "// é🎲x\nname";
        let x = s.find('x').unwrap_or_default();
        assert_eq!(position(s, x), pos(0, 6));
        assert_eq!(offset(s, pos(0, 6)), x);
        let dice = s.find('🎲').unwrap_or_default();
        assert_eq!(position(s, dice), pos(0, 4));
        // Inside the dice: its start.
        assert_eq!(position(s, dice + 2), pos(0, 4));
        assert_eq!(offset(s, pos(0, 5)), dice);
        let name = s.find("name").unwrap_or_default();
        assert_eq!(position(s, name + 2), pos(1, 2));
        assert_eq!(offset(s, pos(1, 2)), name + 2);
    }

    #[test]
    fn offsets_out_of_range_are_clamped() {
        let s = "ab\ncd";
        assert_eq!(offset(s, pos(0, 10)), 2);
        assert_eq!(offset(s, pos(7, 0)), s.len());
        assert_eq!(offset(s, pos(1, 1)), 4);
        assert_eq!(offset("", pos(0, 0)), 0);
    }
}
