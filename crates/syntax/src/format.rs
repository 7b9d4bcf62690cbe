//! The canonical layout of `.game` text (`rulestone fmt`).
//!
//! A token-stream printer: the pest parse tree gives the tokens (its leaves) and, for each, its
//! place in the structure; the text between two tokens holds only whitespace, comments and the
//! odd anonymous literal (the `.` of `x.l`). The printer re-emits every token and every comment
//! in order with canonical whitespace:
//!
//! - indentation is 4 spaces per open block (`turn { ... }`, `board { ... }`, ...); a line that
//!   continues a statement or declaration (the user broke a long expression) is indented 4 more;
//! - each declaration and each statement of a block starts a line; a block written on one line
//!   stays on one line if it holds at most one statement or only other members (a shape's
//!   parts: `{ (0, 0): 0..2  (1, 0): 0..1 }`, members two spaces apart); any other block has
//!   each member on its own line and `}` on a line of its own; a block's `{` stays on the line
//!   of what it belongs to;
//! - within a line, one space between tokens, none inside `()`, `[]` and cell sets `{a1, b2}`,
//!   before `,` and `:`, around `.` and `..`, after a unary `-`, or before a call's `(`;
//! - the user's other line breaks are kept; runs of blank lines become one blank line, blank
//!   lines at the start and end of the file and just inside a block's braces go;
//! - every comment is kept: a comment after code stays on that line (one space before it), a
//!   comment on its own line is indented like the line that follows it;
//! - consecutive `card` declarations, one a line, are aligned in columns (a deck reads as a
//!   table).
//!
//! Strings and templates are printed exactly as written. [`format_source`] checks its own work:
//! the result must parse to the same syntax tree (spans aside) as the input, or it is refused.

use pest::iterators::Pair;
use pest::Parser as _;

use super::ast::File;
use super::error::SyntaxError;
use super::from_pairs::parse_file;
use super::parser::{GameParser, Rule};

const INDENT: usize = 4;

/// Why a source text could not be formatted.
#[derive(Debug)]
pub enum FormatError {
    /// The text does not parse: its syntax errors (nothing was formatted).
    Syntax(Vec<SyntaxError>),
    /// The formatted text would not mean the same as the input (a bug in the formatter; the
    /// input is left as it is). The message says what differed.
    Changed(String),
}

impl std::fmt::Display for FormatError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            FormatError::Syntax(errors) => {
                write!(
                    f,
                    "the text does not parse ({} syntax errors)",
                    errors.len()
                )
            }
            FormatError::Changed(why) => write!(f, "formatting would change the meaning: {why}"),
        }
    }
}

impl std::error::Error for FormatError {}

/// Formats a `.game` source text in the canonical layout.
///
/// # Errors
/// [`FormatError::Syntax`] when the text does not parse; [`FormatError::Changed`] when the
/// formatted text would not parse to the same syntax tree (a formatter bug, never expected).
pub fn format_source(source: &str) -> Result<String, FormatError> {
    let before = parse_file(source).map_err(FormatError::Syntax)?;
    let mut pairs = GameParser::parse(Rule::file, source)
        .map_err(|e| FormatError::Changed(format!("the parser failed the second time: {e}")))?;
    let mut walker = Walker::default();
    if let Some(file) = pairs.next() {
        walker.container(file, true);
    }
    let elems = elements(source, &walker.leaves);
    let text = layout(&elems, &walker.containers);
    let after = parse_file(&text).map_err(|errors| {
        FormatError::Changed(format!(
            "the formatted text does not parse: {}",
            errors.first().map(ToString::to_string).unwrap_or_default()
        ))
    })?;
    if fingerprint(&before) != fingerprint(&after) {
        return Err(FormatError::Changed(
            "the formatted text parses to another syntax tree".to_string(),
        ));
    }
    Ok(text)
}

/// The syntax tree as text without its spans: two sources with equal fingerprints mean the
/// same, whatever their layout and comments.
#[must_use]
pub fn fingerprint(file: &File) -> String {
    strip_spans(&format!("{file:?}"))
}

/// Removes every `Span { start: N, end: M }` from a `Debug` dump.
fn strip_spans(dump: &str) -> String {
    const OPEN: &str = "Span { start: ";
    let mut out = String::with_capacity(dump.len());
    let mut rest = dump;
    while let Some(at) = rest.find(OPEN) {
        out.push_str(&rest[..at]);
        out.push_str("Span");
        let after = &rest[at + OPEN.len()..];
        match after.find('}') {
            Some(close) => rest = &after[close + 1..],
            None => {
                rest = after;
                break;
            }
        }
    }
    out.push_str(rest);
    out
}

// ---- tokens from the parse tree ------------------------------------------------------------

/// A token: a leaf of the parse tree, with what the printer needs to know about its place.
#[derive(Clone, Copy, Debug, Default)]
struct Leaf {
    start: usize,
    end: usize,
    /// The first token of a declaration or of a member of a block.
    member_start: bool,
    /// The first token of a declaration whose runs are aligned in columns (`card`).
    table: bool,
    /// The `{` (`open`) or `}` of block number `n` in [`Walker::containers`].
    open: Option<usize>,
    close: Option<usize>,
    /// No space between this token and the next (`(`, `[`, unary `-`, ...).
    tight_after: bool,
    /// No space between the previous token and this one (`,`, `)`, a call's `(`, ...).
    tight_before: bool,
}

/// A block: how many members it holds, and whether they are statements.
#[derive(Clone, Copy, Debug, Default)]
struct Container {
    members: usize,
    statements: bool,
}

#[derive(Default)]
struct Walker {
    leaves: Vec<Leaf>,
    containers: Vec<Container>,
    pending_member: bool,
    pending_table: bool,
}

impl Walker {
    fn leaf(&mut self, pair: &Pair<'_, Rule>, parent: Option<Rule>) -> usize {
        let span = pair.as_span();
        let rule = pair.as_rule();
        let in_set = parent == Some(Rule::cell_set);
        let tight_after = matches!(
            rule,
            Rule::lparen | Rule::lbrack | Rule::dotdot | Rule::op_neg
        ) || (rule == Rule::lbrace && in_set);
        let tight_before = matches!(
            rule,
            Rule::comma | Rule::colon | Rule::rparen | Rule::rbrack | Rule::lbrack | Rule::dotdot
        ) || (rule == Rule::rbrace && in_set)
            || (rule == Rule::lparen
                && matches!(
                    parent,
                    Some(
                        Rule::call | Rule::define_params | Rule::procedure_params | Rule::call_stmt
                    )
                ));
        // A rule such as `eq = { "=" ~ !"=" }` spans the whitespace and comments its lookahead
        // skipped: the token ends where they begin (only strings hold spaces).
        let text = span.as_str();
        let len = if matches!(rule, Rule::string | Rule::template) {
            text.len()
        } else {
            text.find(|c: char| c.is_whitespace())
                .into_iter()
                .chain(text.find("//"))
                .min()
                .unwrap_or(text.len())
        };
        self.leaves.push(Leaf {
            start: span.start(),
            end: span.start() + len,
            member_start: std::mem::take(&mut self.pending_member),
            table: std::mem::take(&mut self.pending_table),
            tight_after,
            tight_before,
            ..Leaf::default()
        });
        self.leaves.len() - 1
    }

    fn visit(&mut self, pair: Pair<'_, Rule>, parent: Option<Rule>) {
        let rule = pair.as_rule();
        if rule == Rule::EOI {
            return;
        }
        let is_leaf = matches!(rule, Rule::string | Rule::template)
            || pair.clone().into_inner().next().is_none();
        if is_leaf {
            self.leaf(&pair, parent);
        } else if rule != Rule::cell_set
            && pair
                .clone()
                .into_inner()
                .any(|c| c.as_rule() == Rule::lbrace)
        {
            self.container(pair, false);
        } else {
            for child in pair.into_inner() {
                self.visit(child, Some(rule));
            }
        }
    }

    /// A block (or the whole file): the pairs between its braces are its members.
    fn container(&mut self, pair: Pair<'_, Rule>, file: bool) {
        let rule = pair.as_rule();
        let id = self.containers.len();
        self.containers.push(Container {
            members: 0,
            statements: rule == Rule::block,
        });
        let mut inside = file;
        for child in pair.into_inner() {
            match child.as_rule() {
                Rule::EOI => {}
                Rule::lbrace if !inside => {
                    let at = self.leaf(&child, Some(rule));
                    self.leaves[at].open = Some(id);
                    inside = true;
                }
                Rule::rbrace if inside && !file => {
                    let at = self.leaf(&child, Some(rule));
                    self.leaves[at].close = Some(id);
                    inside = false;
                }
                _ if inside => {
                    self.containers[id].members += 1;
                    self.pending_member = true;
                    self.pending_table = file && child.as_rule() == Rule::card_decl;
                    self.visit(child, Some(rule));
                }
                _ => self.visit(child, Some(rule)),
            }
        }
    }
}

// ---- the element stream: tokens and comments -------------------------------------------------

#[derive(Clone, Copy, Debug)]
enum Kind {
    Token(Leaf),
    Comment,
}

#[derive(Clone, Copy, Debug)]
struct Elem<'a> {
    text: &'a str,
    kind: Kind,
    /// Line breaks in the source between the previous element and this one.
    breaks: usize,
}

/// Every token and comment in order, with the line breaks before each.
fn elements<'a>(source: &'a str, leaves: &[Leaf]) -> Vec<Elem<'a>> {
    let mut out = Vec::new();
    let mut at = 0;
    let mut breaks = 0;
    for leaf in leaves {
        gap(source, at, leaf.start, &mut breaks, &mut out);
        out.push(Elem {
            text: &source[leaf.start..leaf.end],
            kind: Kind::Token(*leaf),
            breaks: std::mem::take(&mut breaks),
        });
        at = leaf.end;
    }
    gap(source, at, source.len(), &mut breaks, &mut out);
    out
}

/// The text between two tokens: whitespace, comments and anonymous literals (the `.` of a field).
fn gap<'a>(source: &'a str, from: usize, to: usize, breaks: &mut usize, out: &mut Vec<Elem<'a>>) {
    let text = &source[from..to];
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c == b'\n' {
            *breaks += 1;
            i += 1;
        } else if c.is_ascii_whitespace() {
            i += 1;
        } else if text[i..].starts_with("//") {
            let end = text[i..].find('\n').map_or(text.len(), |n| i + n);
            out.push(Elem {
                text: text[i..end].trim_end(),
                kind: Kind::Comment,
                breaks: std::mem::take(breaks),
            });
            i = end;
        } else {
            let end = text[i..]
                .find(|ch: char| ch.is_whitespace() || ch == '/')
                .map_or(text.len(), |n| i + n.max(1));
            let literal = &text[i..end];
            let dot = literal == ".";
            out.push(Elem {
                text: literal,
                kind: Kind::Token(Leaf {
                    start: from + i,
                    end: from + end,
                    tight_after: dot,
                    tight_before: dot,
                    ..Leaf::default()
                }),
                breaks: std::mem::take(breaks),
            });
            i = end;
        }
    }
}

// ---- layout ----------------------------------------------------------------------------------

/// Whether each block stays on one line: it was written on one line, and it holds at most one
/// statement (blocks of other members, such as a shape's parts, may hold more).
fn inline_blocks(elems: &[Elem<'_>], containers: &[Container]) -> Vec<bool> {
    let mut opened = vec![None; containers.len()];
    let mut inline = vec![false; containers.len()];
    // How many elements before each index start a line: a block is on one line when none of
    // its elements does, found without walking the block again at its end.
    let mut broken = Vec::with_capacity(elems.len() + 1);
    broken.push(0_usize);
    for e in elems {
        broken.push(broken.last().copied().unwrap_or(0) + usize::from(e.breaks > 0));
    }
    for (i, e) in elems.iter().enumerate() {
        if let Kind::Token(leaf) = e.kind {
            if let Some(id) = leaf.open {
                opened[id] = Some(i);
            }
            if let Some(id) = leaf.close {
                if let Some(open) = opened[id] {
                    let one_line = broken[i + 1] == broken[open + 1];
                    let c = containers[id];
                    inline[id] = one_line && (c.members <= 1 || !c.statements);
                }
            }
        }
    }
    inline
}

fn layout(elems: &[Elem<'_>], containers: &[Container]) -> String {
    let inline = inline_blocks(elems, containers);
    let next = next_tokens(elems);
    let mut lines: Vec<String> = Vec::new();
    let mut line = String::new();
    // Per line: a whole declaration of a kind aligned in columns (`card`).
    let mut tabular: Vec<bool> = Vec::new();
    let mut tab = false;
    // Open blocks, innermost last: whether each stays on one line.
    let mut open: Vec<bool> = Vec::new();
    let mut prev: Option<Kind> = None;
    // The last element opened a block spread over lines: what follows starts a line.
    let mut after_open = false;
    for (i, e) in elems.iter().enumerate() {
        let first = prev.is_none();
        let after_comment = matches!(prev, Some(Kind::Comment));
        let in_inline = open.last().copied().unwrap_or(false);
        let depth = open.len();
        let (brk, indent) = match e.kind {
            Kind::Comment => {
                let brk = !first && (e.breaks > 0 || after_comment);
                (brk, comment_indent(next[i], &open, &inline))
            }
            Kind::Token(leaf) => {
                let closes_spread = leaf.close.is_some_and(|id| !inline[id]);
                let brk = !first
                    && if leaf.open.is_some() {
                        after_comment
                    } else {
                        e.breaks > 0
                            || after_comment
                            || after_open
                            || (leaf.member_start && !in_inline)
                            || closes_spread
                    };
                (brk, token_indent(&leaf, depth))
            }
        };
        let starts_table = matches!(e.kind, Kind::Token(l) if l.member_start && l.table);
        if brk {
            lines.push(std::mem::take(&mut line));
            tabular.push(tab);
            tab = starts_table;
            if matches!(e.kind, Kind::Token(l) if !l.member_start && l.close.is_none()) {
                // A continuation line: the line before is not a whole declaration.
                if let Some(t) = tabular.last_mut() {
                    *t = false;
                }
            }
            // Blank lines are kept (one of a run) except at a block's edges.
            let at_close = matches!(e.kind, Kind::Token(l) if l.close.is_some());
            let after_brace = matches!(prev, Some(Kind::Token(p)) if p.open.is_some());
            let edge = after_brace || at_close;
            if e.breaks >= 2 && !edge {
                lines.push(String::new());
                tabular.push(false);
            }
            line.push_str(&" ".repeat(indent));
        } else if first {
            tab = starts_table;
        } else if !line.trim().is_empty() && space_between(prev, e.kind) {
            line.push(' ');
            // Members of a block kept on one line are two spaces apart.
            let opened = matches!(prev, Some(Kind::Token(p)) if p.open.is_some());
            if in_inline && !opened && matches!(e.kind, Kind::Token(l) if l.member_start) {
                line.push(' ');
            }
        }
        line.push_str(e.text);
        if !brk && !first && matches!(e.kind, Kind::Comment) {
            tab = false;
        }
        if let Kind::Token(leaf) = e.kind {
            after_open = false;
            if let Some(id) = leaf.open {
                open.push(inline[id]);
                after_open = !inline[id];
            }
            if leaf.close.is_some() {
                open.pop();
            }
        }
        prev = Some(e.kind);
    }
    lines.push(line);
    tabular.push(tab);
    align_tables(&mut lines, &tabular);
    let mut out = String::new();
    for l in &lines {
        out.push_str(l.trim_end());
        out.push('\n');
    }
    let trimmed = out.trim_start_matches('\n').trim_end();
    if trimmed.is_empty() {
        String::new()
    } else {
        format!("{trimmed}\n")
    }
}

/// Aligns the words of consecutive whole `card` declarations in columns (a deck reads as a
/// table): each word but a line's last is padded to the widest word of its column.
fn align_tables(lines: &mut [String], tabular: &[bool]) {
    let mut i = 0;
    while i < lines.len() {
        let run = tabular[i..].iter().take_while(|&&t| t).count();
        if run >= 2 {
            let rows: Vec<Vec<String>> = lines[i..i + run]
                .iter()
                .map(|l| l.split(' ').map(str::to_string).collect())
                .collect();
            let mut widths: Vec<usize> = Vec::new();
            for row in &rows {
                for (c, word) in row.iter().enumerate().take(row.len().saturating_sub(1)) {
                    if widths.len() <= c {
                        widths.resize(c + 1, 0);
                    }
                    widths[c] = widths[c].max(word.chars().count());
                }
            }
            for (line, row) in lines[i..i + run].iter_mut().zip(&rows) {
                let mut text = String::new();
                for (c, word) in row.iter().enumerate() {
                    text.push_str(word);
                    if c + 1 < row.len() {
                        let pad = widths[c].saturating_sub(word.chars().count());
                        text.push_str(&" ".repeat(pad + 1));
                    }
                }
                *line = text;
            }
        }
        i += run.max(1);
    }
}

/// The indentation of a line that starts with this token, `depth` blocks deep.
fn token_indent(leaf: &Leaf, depth: usize) -> usize {
    if leaf.close.is_some() {
        depth.saturating_sub(1) * INDENT
    } else if leaf.member_start {
        depth * INDENT
    } else {
        (depth + 1) * INDENT
    }
}

/// For each element, the first token after it: one pass from the end, so that a run of
/// thousands of comments costs no more than its length.
fn next_tokens(elems: &[Elem<'_>]) -> Vec<Option<Leaf>> {
    let mut next = vec![None; elems.len()];
    let mut after = None;
    for (i, e) in elems.iter().enumerate().rev() {
        next[i] = after;
        if let Kind::Token(leaf) = e.kind {
            after = Some(leaf);
        }
    }
    next
}

/// A comment on its own line is indented like the line of the next token (inside the block when
/// that token closes it).
fn comment_indent(next: Option<Leaf>, open: &[bool], inline: &[bool]) -> usize {
    let depth = open.len();
    match next {
        None => depth * INDENT,
        Some(leaf) if leaf.close.is_some_and(|id| !inline[id]) => depth * INDENT,
        Some(leaf) if leaf.open.is_some() => (depth + 1) * INDENT,
        Some(leaf) => token_indent(&leaf, depth),
    }
}

fn space_between(prev: Option<Kind>, next: Kind) -> bool {
    match (prev, next) {
        (Some(Kind::Token(a)), Kind::Token(b)) => {
            let empty_block = a.open.is_some() && a.open == b.close;
            !(a.tight_after || b.tight_before || empty_block)
        }
        _ => true,
    }
}

#[cfg(test)]
mod tests {
    use super::format_source;

    fn fmt(s: &str) -> String {
        match format_source(s) {
            Ok(t) => t,
            Err(e) => panic!("{e}"),
        }
    }

    #[test]
    fn spacing_and_indentation() {
        let src = "game   \"X\"\nplayers A,B\n\n\n\nboard{axes x,y\ncells x in 0 .. 2,y in 0..2\n  name \"{letter(x)}{y + 1}\"}\npiece p\nturn{pick c in empty&{a1,b2}  // where\nput p at c\nstock [ mover ] -= - 1 write \"{c}\"}\n";
        let want = "game \"X\"\nplayers A, B\n\nboard {\n    axes x, y\n    cells x in 0..2, y in 0..2\n    name \"{letter(x)}{y + 1}\"\n}\npiece p\nturn {\n    pick c in empty & {a1, b2} // where\n    put p at c\n    stock[mover] -= -1\n    write \"{c}\"\n}\n";
        assert_eq!(fmt(src), want);
        assert_eq!(fmt(want), want);
    }

    #[test]
    fn one_line_blocks_and_comments() {
        let src = "// head\n\ngame \"X\"\nshape B count 2 points 1 { (0,0): 0..1 }\n  // before turn\nturn {\n  if a.x == 1 { win mover }\n  else {\n// inside\n  draw\n  // last\n  }\n}\n// tail\n";
        let want = "// head\n\ngame \"X\"\nshape B count 2 points 1 { (0, 0): 0..1 }\n// before turn\nturn {\n    if a.x == 1 { win mover }\n        else {\n        // inside\n        draw\n        // last\n    }\n}\n// tail\n";
        assert_eq!(fmt(src), want);
        assert_eq!(fmt(want), want);
    }
}
