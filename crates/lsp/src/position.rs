//! Byte offsets (what spans hold) to LSP positions and back: a line number and a column counted
//! in UTF-16 code units, the encoding every LSP client understands.

use lsp_types::{Position, Range};

/// Where each line of a text starts, found once so that many positions cost a binary search and
/// a walk along one line each rather than a walk from the start of the text: answers that
/// convert a position per token or per declaration stay linear in the size of the file.
#[derive(Clone, Debug)]
pub struct LineIndex<'a> {
    source: &'a str,
    /// The byte offset of each line's start; the first is 0.
    starts: Vec<usize>,
}

impl<'a> LineIndex<'a> {
    #[must_use]
    pub fn new(source: &'a str) -> LineIndex<'a> {
        let starts = std::iter::once(0)
            .chain(source.match_indices('\n').map(|(i, _)| i + 1))
            .collect();
        LineIndex { source, starts }
    }

    /// The text indexed.
    #[must_use]
    pub fn source(&self) -> &'a str {
        self.source
    }

    /// The same as [`position`], in time proportional to the length of the offset's line.
    #[must_use]
    pub fn position(&self, offset: usize) -> Position {
        let source = self.source;
        let mut offset = offset.min(source.len());
        while !source.is_char_boundary(offset) {
            offset -= 1;
        }
        let line = self
            .starts
            .partition_point(|&s| s <= offset)
            .saturating_sub(1);
        let line_start = self.starts.get(line).copied().unwrap_or(0);
        let character: usize = source[line_start..offset]
            .chars()
            .map(char::len_utf16)
            .sum();
        Position {
            line: u32::try_from(line).unwrap_or(u32::MAX),
            character: u32::try_from(character).unwrap_or(u32::MAX),
        }
    }

    /// The same as [`range`].
    #[must_use]
    pub fn range(&self, start: usize, end: usize) -> Range {
        Range {
            start: self.position(start),
            end: self.position(end.max(start)),
        }
    }

    /// The same as [`offset`], in time proportional to the length of the position's line.
    #[must_use]
    pub fn offset(&self, position: Position) -> usize {
        let source = self.source;
        let Some(&line_start) = self.starts.get(position.line as usize) else {
            return source.len();
        };
        let line_end = self
            .starts
            .get(position.line as usize + 1)
            .map_or(source.len(), |next| next - 1);
        column_offset(source, line_start, line_end, position.character)
    }
}

/// The byte offset of a column (in UTF-16 units) of the line `[line_start, line_end)`.
fn column_offset(source: &str, line_start: usize, line_end: usize, character: u32) -> usize {
    let mut units = 0usize;
    for (i, ch) in source[line_start..line_end].char_indices() {
        units += ch.len_utf16();
        if units > character as usize {
            return line_start + i;
        }
    }
    line_end
}

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
    column_offset(source, line_start, line_end, position.character)
}

#[cfg(test)]
mod tests {
    use super::{offset, position, range, LineIndex};
    use lsp_types::Position;

    /// The index gives what the walks from the start give, at every offset and position.
    #[test]
    fn the_line_index_agrees_with_the_walks() {
        for s in ["", "ab\ncd\n", "// é🎲x\nname\n\n\u{1F3B2}é", "\n\n"] {
            let index = LineIndex::new(s);
            for at in 0..=s.len() + 2 {
                assert_eq!(index.position(at), position(s, at), "{s:?} at {at}");
            }
            for line in 0..5 {
                for character in 0..9 {
                    let p = pos(line, character);
                    assert_eq!(index.offset(p), offset(s, p), "{s:?} at {p:?}");
                }
            }
        }
    }

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
