//! The one renderer: walks the [`miette::Diagnostic`] trait (severity, code, message, labels,
//! help, related diagnostics) and draws each problem with ariadne, rustc style:
//!
//! ```text
//! error[E0101]: unknown name `reserv`
//!     ╭─[ games/example.game:22:28 ]
//!     │
//!  22 │ counter stock per player = reserv
//!     │                            ───┬──
//!     │                               ╰──── not found
//!     │
//!     │ help: did you mean `reserve`?
//! ────╯
//! ```
//!
//! With colour off the output is plain text and depends only on its inputs, so snapshot tests
//! can compare it byte for byte. Line and column numbers are computed here and nowhere else.

use std::fmt::Write as _;
use std::ops::Range;

use ariadne::{CharSet, Color, Config, Fmt, IndexType, Label, Report, ReportKind, Source};
use miette::{Diagnostic, LabeledSpan, Severity};
use serde::Serialize;

use super::visible::{escape, Pictured};
use super::{severity, Diag};

const MARGIN_COLOR: Color = Color::Fixed(246);
const NOTE_COLOR: Color = Color::Fixed(115);
const SECONDARY_COLOR: Color = Color::Blue;

/// Renders diagnostics for one source file as human-readable text.
///
/// `path` is shown as written (callers normalise it); `color` switches ANSI colours on.
///
/// At most [`MAX_RENDERED`] problems are drawn; a last note counts the others.
#[must_use]
pub fn render(diags: &[Diag], source: &str, path: &str, color: bool) -> String {
    let escaped = escape(path);
    let path: &str = &escaped;
    let mut out = String::new();
    let text = Text::new(source);
    let (drawn, rest) = diags.split_at(diags.len().min(MAX_RENDERED));
    for (i, diag) in drawn.iter().enumerate() {
        if i > 0 {
            out.push('\n');
        }
        render_one(&mut out, diag.as_ref(), &text, path, color);
    }
    if !rest.is_empty() {
        let errors = rest
            .iter()
            .filter(|d| severity(d.as_ref()) == Severity::Error)
            .count();
        let _ = writeln!(
            out,
            "\n{}: {} more problems in {path} are not shown ({errors} errors, {} warnings)",
            paint("note", NOTE_COLOR, color),
            rest.len(),
            rest.len() - errors
        );
    }
    out
}

/// The most problems drawn for one file. Past this many, the first ones are what to fix (the
/// rest often follow from them), and drawing each costs time in the distance between its
/// labels: thousands of problems, each pointing back to a first declaration, would take
/// minutes to draw.
pub const MAX_RENDERED: usize = 200;

/// A source text with what every problem drawn on it shares, built once per file rather than
/// once per problem: ariadne's index of its lines, the start of each line, and whether some
/// line is long enough to be cut. A file with thousands of problems renders in time linear
/// in its size and their number.
struct Text<'a> {
    source: &'a str,
    /// The source as drawn, hidden characters pictured (see [`crate::visible`]).
    shown: Pictured<'a>,
    lines: Source<std::borrow::Cow<'a, str>>,
    line_starts: Vec<usize>,
    long_lines: bool,
}

impl<'a> Text<'a> {
    fn new(source: &'a str) -> Self {
        let mut line_starts = vec![0];
        line_starts.extend(source.match_indices('\n').map(|(i, _)| i + 1));
        let shown = Pictured::new(source);
        let long_lines = shown.text.split('\n').any(|l| l.len() > LONG_LINE);
        Text {
            source,
            lines: Source::from(shown.text.clone()),
            shown,
            line_starts,
            long_lines,
        }
    }

    /// 1-based line and character column of a byte offset.
    fn line_col(&self, offset: usize) -> (usize, usize) {
        let source = self.source;
        let mut cut = offset.min(source.len());
        while !source.is_char_boundary(cut) {
            cut -= 1;
        }
        let line = self.line_starts.partition_point(|&s| s <= cut);
        let start = self
            .line_starts
            .get(line.wrapping_sub(1))
            .copied()
            .unwrap_or(0);
        (line, source[start..cut].chars().count() + 1)
    }
}

fn kind_word(severity: Severity) -> (&'static str, Color) {
    match severity {
        Severity::Error => ("error", Color::Red),
        Severity::Warning => ("warning", Color::Yellow),
        Severity::Advice => ("note", NOTE_COLOR),
    }
}

fn paint(text: &str, c: Color, color: bool) -> String {
    if color {
        text.fg(c).to_string()
    } else {
        text.to_string()
    }
}

fn render_one(out: &mut String, diag: &dyn Diagnostic, text: &Text<'_>, path: &str, color: bool) {
    let (word, kind_color) = kind_word(severity(diag));
    let code = diag.code().map(|c| format!("[{c}]")).unwrap_or_default();
    let _ = writeln!(
        out,
        "{}: {}",
        paint(&format!("{word}{code}"), kind_color, color),
        escape(&diag.to_string())
    );

    let labels: Vec<LabeledSpan> = diag.labels().map(Iterator::collect).unwrap_or_default();
    let helps: Vec<String> = diag
        .help()
        .map(|h| escape(&h.to_string()).into_owned())
        .into_iter()
        .collect();

    let body = if labels.is_empty() {
        render_unlabelled(path, color)
    } else {
        render_labels(&labels, text, path, color, kind_color)
    };
    // `body` is ariadne's output without its header; its last line is the closing `───╯`.
    let mut lines: Vec<&str> = body.lines().collect();
    let tail = lines.pop().unwrap_or_default();
    let width = tail.chars().filter(|c| *c == '─').count();
    for line in lines {
        // Ariadne pads some lines with spaces; trailing blanks only make snapshot diffs noisy.
        let _ = writeln!(out, "{}", line.trim_end_matches(' '));
    }
    let bar = paint("│", MARGIN_COLOR, color);
    for help in &helps {
        let _ = writeln!(out, "{:width$}{bar}", "");
        for (i, line) in help.lines().enumerate() {
            if i == 0 {
                let _ = writeln!(
                    out,
                    "{:width$}{bar} {}: {line}",
                    "",
                    paint("help", NOTE_COLOR, color)
                );
            } else {
                let _ = writeln!(out, "{:width$}{bar}       {line}", "");
            }
        }
    }
    let _ = writeln!(out, "{tail}");

    if let Some(related) = diag.related() {
        for r in related {
            out.push('\n');
            render_one(out, r, text, path, color);
        }
    }
}

/// A byte range that lies inside the source, on character boundaries, and is not empty unless
/// the source is.
fn clamp(source: &str, start: usize, len: usize) -> Range<usize> {
    let mut start = start.min(source.len());
    while !source.is_char_boundary(start) {
        start -= 1;
    }
    let mut end = start.saturating_add(len).min(source.len());
    while !source.is_char_boundary(end) {
        end += 1;
    }
    if end == start {
        // Widen an empty span to the character under it, so the caret has something to point at.
        if let Some(c) = source[start..].chars().next() {
            end = start + c.len_utf8();
        } else if let Some(c) = source[..start].chars().next_back() {
            start -= c.len_utf8();
        }
    }
    start..end
}

fn config(color: bool) -> Config {
    Config::default()
        .with_color(color)
        .with_index_type(IndexType::Byte)
        .with_char_set(CharSet::Unicode)
}

/// Ariadne's drawing of the labels, minus its header line.
fn render_labels(
    labels: &[LabeledSpan],
    text: &Text<'_>,
    path: &str,
    color: bool,
    kind_color: Color,
) -> String {
    let primary = labels.iter().position(LabeledSpan::primary).unwrap_or(0);
    // Spans are found in the source as read, then moved to where they are in the source as
    // drawn (hidden characters pictured).
    let spans: Vec<Range<usize>> = labels
        .iter()
        .map(|l| {
            let r = clamp(text.source, l.offset(), l.len());
            text.shown.offset(r.start)..text.shown.offset(r.end)
        })
        .collect();
    let source: &str = &text.shown.text;
    // Long lines are cut to a window around the labels, so that a label on a 40,000-character
    // line prints a screenful, not the whole line. Line numbers stay; the column in the header
    // is put back to the one in the real source.
    let shown = if text.long_lines {
        Shortened::new(source, &spans, primary)
    } else {
        None
    };
    let (source, spans) = match &shown {
        Some(s) => (s.text.as_str(), s.spans.clone()),
        None => (source, spans),
    };
    let span_of = |i: usize| clamp(source, spans[i].start, spans[i].len());
    let mut report = Report::build(
        ReportKind::Custom("error", kind_color),
        (path, span_of(primary)),
    )
    .with_config(config(color));
    for (i, l) in labels.iter().enumerate() {
        let mut label = Label::new((path, span_of(i))).with_order(i32::try_from(i).unwrap_or(0));
        if let Some(text) = l.label() {
            label = label.with_message(escape(text));
        }
        if color {
            label = label.with_color(if i == primary {
                kind_color
            } else {
                SECONDARY_COLOR
            });
        }
        report = report.with_label(label);
    }
    let mut buf = Vec::new();
    let written = match &shown {
        Some(_) => report
            .finish()
            .write((path, Source::from(source)), &mut buf),
        None => report.finish().write((path, &text.lines), &mut buf),
    };
    if written.is_err() {
        return format!("  --> {path}\n──╯\n");
    }
    let text = String::from_utf8_lossy(&buf);
    let rest = match text.split_once('\n') {
        Some((_, rest)) => rest.to_string(),
        None => String::new(),
    };
    match &shown {
        Some(s) => {
            let (line, col) = line_col(source, span_of(primary).start);
            let (_, real) = line_col(s.original, s.primary_start);
            rest.replacen(
                &format!("{path}:{line}:{col} "),
                &format!("{path}:{line}:{real} "),
                1,
            )
        }
        None => rest,
    }
}

/// Lines longer than this many characters are cut when shown.
const LONG_LINE: usize = 160;
/// Characters kept before the first label of a cut line.
const BEFORE: usize = 60;

/// A source whose long lines are cut to a window around the labels on them, with `…` where
/// text was left out, and the labels' spans moved to match.
struct Shortened<'a> {
    original: &'a str,
    text: String,
    spans: Vec<Range<usize>>,
    /// Where the primary label starts in the original source.
    primary_start: usize,
}

impl<'a> Shortened<'a> {
    /// `None` when no line is long (the source is shown as it is).
    fn new(source: &'a str, spans: &[Range<usize>], primary: usize) -> Option<Self> {
        if !source.split('\n').any(|l| l.len() > LONG_LINE) {
            return None;
        }
        let primary_start = spans.get(primary).map_or(0, |r| r.start);
        // Kept pieces of the original: (start, end) byte ranges, in order; `…` goes between
        // pieces of one line and where a line is cut.
        let mut text = String::with_capacity(source.len().min(1 << 16));
        // (original start, original end, start in `text`) of each kept piece.
        let mut kept: Vec<(usize, usize, usize)> = Vec::new();
        let mut line_start = 0;
        for line in source.split_inclusive('\n') {
            let line_end = line_start + line.len();
            let body = line.strip_suffix('\n').unwrap_or(line);
            let chars = body.chars().count();
            if chars <= LONG_LINE {
                kept.push((line_start, line_end, text.len()));
                text.push_str(line);
            } else {
                // The first label starting on this line anchors the window.
                let anchor = spans
                    .iter()
                    .map(|r| r.start)
                    .filter(|&st| st >= line_start && st <= line_start + body.len())
                    .min()
                    .map_or(0, |st| body[..st - line_start].chars().count());
                let from = anchor.saturating_sub(BEFORE).min(chars - LONG_LINE);
                let to = from + LONG_LINE;
                let byte = |c: usize| body.char_indices().nth(c).map_or(body.len(), |(b, _)| b);
                let (a, b) = (byte(from), byte(to));
                if from > 0 {
                    text.push('…');
                }
                kept.push((line_start + a, line_start + b, text.len()));
                text.push_str(&body[a..b]);
                if to < chars {
                    text.push('…');
                }
                if line.ends_with('\n') {
                    kept.push((line_end - 1, line_end, text.len()));
                    text.push('\n');
                }
            }
            line_start = line_end;
        }
        // An original offset in the shown text: inside a kept piece it moves with it; in a cut
        // it goes to the nearest edge of the piece before or after.
        let map = |o: usize| -> usize {
            let i = kept.partition_point(|&(_, end, _)| end <= o);
            match kept.get(i) {
                Some(&(start, _, at)) if o >= start => at + (o - start),
                Some(&(_, _, at)) => at,
                None => text.len(),
            }
        };
        let spans = spans
            .iter()
            .map(|r| {
                let start = map(r.start);
                let end = map(r.end).max(start);
                start..end
            })
            .collect();
        Some(Shortened {
            original: source,
            primary_start,
            text,
            spans,
        })
    }
}

/// The frame drawn for a problem with no span (e.g. a missing declaration): just the file.
fn render_unlabelled(path: &str, color: bool) -> String {
    format!(
        "   {}\n{}\n",
        paint(&format!("╭─[ {path} ]"), MARGIN_COLOR, color),
        paint("───╯", MARGIN_COLOR, color)
    )
}

#[derive(Serialize)]
struct JsonDiag {
    code: Option<String>,
    severity: &'static str,
    message: String,
    file: String,
    labels: Vec<JsonLabel>,
    help: Option<String>,
    related: Vec<JsonDiag>,
}

#[derive(Serialize)]
struct JsonLabel {
    start: usize,
    end: usize,
    /// 1-based line of `start`.
    line: usize,
    /// 1-based column of `start`, counted in characters.
    column: usize,
    /// 1-based line of `end`.
    end_line: usize,
    /// 1-based column of `end` (just past the label's last character), counted in characters.
    end_column: usize,
    /// The label the problem is about (the one the text renderer draws in the problem's
    /// colour): the label marked primary, or else the first. Exactly one label is primary.
    primary: bool,
    text: Option<String>,
}

/// 1-based line and character column of a byte offset.
fn line_col(source: &str, offset: usize) -> (usize, usize) {
    let offset = offset.min(source.len());
    let mut cut = offset;
    while !source.is_char_boundary(cut) {
        cut -= 1;
    }
    let before = &source[..cut];
    let line = before.matches('\n').count() + 1;
    let line_start = before.rfind('\n').map_or(0, |i| i + 1);
    (line, before[line_start..].chars().count() + 1)
}

fn to_json(diag: &dyn Diagnostic, text: &Text<'_>, path: &str) -> JsonDiag {
    let labels: Vec<LabeledSpan> = diag.labels().map(Iterator::collect).unwrap_or_default();
    let primary = labels.iter().position(LabeledSpan::primary).unwrap_or(0);
    let labels = labels
        .iter()
        .enumerate()
        .map(|(i, l)| {
            let end = l.offset() + l.len();
            let (line, column) = text.line_col(l.offset());
            let (end_line, end_column) = text.line_col(end);
            JsonLabel {
                start: l.offset(),
                end,
                line,
                column,
                end_line,
                end_column,
                primary: i == primary,
                text: l.label().map(str::to_string),
            }
        })
        .collect();
    JsonDiag {
        code: diag.code().map(|c| c.to_string()),
        severity: match severity(diag) {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Advice => "advice",
        },
        message: diag.to_string(),
        file: path.to_string(),
        labels,
        help: diag.help().map(|h| h.to_string()),
        related: diag
            .related()
            .map(|rs| rs.map(|r| to_json(r, text, path)).collect())
            .unwrap_or_default(),
    }
}

/// Renders diagnostics as a JSON array of
/// `{code, severity, message, file, labels: [{start, end, line, column, end_line, end_column,
/// primary, text}], help, related}`; offsets are bytes, lines and columns are 1-based (the end
/// is exclusive: just past the label), and one label of each problem is primary.
#[must_use]
pub fn render_json(diags: &[Diag], source: &str, path: &str) -> String {
    let text = Text::new(source);
    let all: Vec<JsonDiag> = diags
        .iter()
        .map(|d| to_json(d.as_ref(), &text, path))
        .collect();
    serde_json::to_string_pretty(&all).unwrap_or_else(|_| "[]".to_string())
}

#[cfg(test)]
mod tests {
    use super::{clamp, line_col, Shortened, LONG_LINE};

    #[test]
    fn long_lines_are_cut_around_their_labels() {
        let line = format!("{}BAD{}", "a".repeat(30_000), "b".repeat(10_000));
        let source = format!("first\n{line}\nlast\n");
        let at = source.find("BAD").unwrap_or(0);
        let shown =
            Shortened::new(&source, std::slice::from_ref(&(at..at + 3)), 0).expect("a long line");
        let lines: Vec<&str> = shown.text.lines().collect();
        assert_eq!(lines.len(), 3);
        assert_eq!(lines[0], "first");
        assert_eq!(lines[2], "last");
        assert!(lines[1].starts_with('…') && lines[1].ends_with('…'));
        assert_eq!(lines[1].chars().count(), LONG_LINE + 2);
        assert_eq!(&shown.text[shown.spans[0].clone()], "BAD");
        assert_eq!(shown.primary_start, at);
        assert!(Shortened::new("short\nlines\n", std::slice::from_ref(&(0..1)), 0).is_none());
    }

    #[test]
    fn line_and_column_are_one_based() {
        let src = "ab\ncdé\nf";
        assert_eq!(line_col(src, 0), (1, 1));
        assert_eq!(line_col(src, 3), (2, 1));
        assert_eq!(line_col(src, 7), (2, 4));
        assert_eq!(line_col(src, 8), (3, 1));
        assert_eq!(line_col(src, 100), (3, 2));
        let text = super::Text::new(src);
        for offset in 0..=10 {
            assert_eq!(
                text.line_col(offset),
                line_col(src, offset),
                "offset {offset}"
            );
        }
    }

    #[test]
    fn past_the_cap_problems_are_counted_not_drawn() {
        let source = "line\n".repeat(300);
        let diags: Vec<crate::Diag> = (0..super::MAX_RENDERED + 5)
            .map(|i| {
                let severity = if i % 2 == 0 {
                    miette::Severity::Error
                } else {
                    miette::Severity::Warning
                };
                let d = miette::MietteDiagnostic::new(format!("problem {i}"))
                    .with_severity(severity)
                    .with_label(miette::LabeledSpan::at(i * 5..i * 5 + 4, "here"));
                Box::new(d) as crate::Diag
            })
            .collect();
        let text = super::render(&diags, &source, "f.game", false);
        assert!(text.contains(&format!("problem {}", super::MAX_RENDERED - 1)));
        assert!(!text.contains(&format!("problem {}", super::MAX_RENDERED)));
        assert!(
            text.ends_with(
                "note: 5 more problems in f.game are not shown (3 errors, 2 warnings)\n"
            ),
            "{text}"
        );
    }

    #[test]
    fn clamping_keeps_spans_inside_and_non_empty() {
        assert_eq!(clamp("abc", 1, 0), 1..2);
        assert_eq!(clamp("abc", 3, 0), 2..3);
        assert_eq!(clamp("abc", 9, 9), 2..3);
        assert_eq!(clamp("", 0, 0), 0..0);
        assert_eq!(clamp("é", 1, 0), 0..2);
    }
}
