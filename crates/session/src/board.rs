//! Text drawing of any board, from the IR's axes, coordinates and cell names alone.
//!
//! The last two axes make a grid (columns = the second-to-last axis, rows = the last, highest
//! row on top); every combination of values of the leading axes gets its own panel, titled
//! `l = 2`, drawn side by side when they fit and stacked otherwise. Empty cells are `.`,
//! coordinates without a cell are blank. Column and row labels are read off the cell names:
//! the part of a name that changes when only that axis changes (`1a1` → `1b1`: `a`, `b`).
//! A game with per-cell counters (layers, such as heights) shows each cell's values after its
//! symbol (`X3`: a cell showing `X` at height 3); values of 0 are left out.
//!
//! Every drawing ends with a legend of the glyphs it used: the pieces on the board, `.` when a
//! cell is empty, each marker shown (with its `legend` text) and each per-cell counter drawn.
//! Cells are as wide as the widest text any position can give (a symbol, a marker and the
//! layers' widest values), so columns stay put from move to move.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use rulestone_ir::{piece_kind_and_owner, Board, CellSet, CounterView, Program};
use rulestone_runtime::Engine;

use crate::notation::result_text;

/// The widest drawing, in characters, that is laid out side by side.
const MAX_WIDTH: usize = 100;
/// Spaces between panels side by side.
const GAP: usize = 4;

/// The board, then whose turn it is (or the result) and the counters.
pub fn draw(engine: &mut Engine<'_>) -> String {
    let markers = engine.markers();
    let program = engine.program();
    let (cells, values) = (&engine.state.board, &engine.state.counters);
    let mut out = board(program, cells, values, &markers);
    out.push_str(&legend(program, cells, values, &markers));
    out.push('\n');
    out.push_str(&status(engine));
    out
}

/// `White to move` or `game over: White wins`, then one line per counter.
pub fn status(engine: &mut Engine<'_>) -> String {
    let program = engine.program();
    let mut out = match engine.outcome() {
        Some(r) => {
            let mut text = format!("game over: {}\n", result_text(program, r));
            if let Some(s) = engine.scores() {
                let _ = writeln!(
                    text,
                    "score: {} {}, {} {}",
                    program.player_name(0),
                    program.score_text(s[0].into()),
                    program.player_name(1),
                    program.score_text(s[1].into())
                );
            }
            text
        }
        None => format!("{} to move\n", program.player_name(engine.state.mover)),
    };
    for line in engine.status_lines() {
        let _ = writeln!(out, "{line}");
    }
    out.push_str(&counters(program, &engine.state.counters));
    out
}

/// `stock: White 15, Black 14` for per-player counters, `name: value` for the others, and
/// each player's unplayed shapes (`Black stones: 6 Block, 4 Brick`). Per-cell counters are
/// drawn on the board instead.
pub fn counters(program: &Program, values: &[i32]) -> String {
    let mut out = String::new();
    let value = |slot: usize| {
        values
            .get(slot)
            .copied()
            .unwrap_or(program.counters[slot].initial)
    };
    let in_layer = |slot: usize| {
        program.layers.iter().any(|(_, base)| {
            (usize::from(*base)..usize::from(*base) + program.board.len()).contains(&slot)
        })
    };
    let is_stock = |slot: usize| {
        program
            .shapes
            .iter()
            .any(|s| slot == usize::from(s.stock) || slot == usize::from(s.stock) + 1)
    };
    if !program.shapes.is_empty() {
        for p in 0..2u8 {
            let stones: Vec<String> = program
                .shapes
                .iter()
                .filter_map(|s| {
                    let n = value(usize::from(s.stock) + usize::from(p));
                    (n > 0).then(|| format!("{n} {}", s.name))
                })
                .collect();
            let list = if stones.is_empty() {
                "none".to_string()
            } else {
                stones.join(", ")
            };
            let _ = writeln!(out, "{} unplayed: {list}", program.player_name(p));
        }
    }
    let mut i = 0;
    while i < program.counters.len() {
        if in_layer(i) || is_stock(i) || program.counters[i].view == CounterView::Hidden {
            i += 1;
            continue;
        }
        let name = &program.counters[i].name;
        let mut parts = Vec::new();
        let mut j = i;
        while j < program.counters.len() && program.counters[j].name == *name {
            let value = values
                .get(j)
                .copied()
                .unwrap_or(program.counters[j].initial);
            let value = match program.counters[j].view {
                CounterView::Directions(r) => direction_name(program, r, value),
                _ => value.to_string(),
            };
            match program.counters[j].player {
                Some(p) => parts.push(format!("{} {value}", program.player_name(p))),
                None => parts.push(value),
            }
            j += 1;
        }
        let _ = writeln!(out, "{name}: {}", parts.join(", "));
        i = j;
    }
    out
}

/// The piece kind and the owner a non-empty cell's code stands for.
/// The symbol of a piece code (`0` is empty: `.`).
fn symbol(program: &Program, code: u8) -> String {
    if code == 0 {
        return ".".to_string();
    }
    program.piece_symbol(code)
}

/// What is drawn on the board besides the pieces: counters and markers.
struct Extras<'a> {
    counters: &'a [i32],
    markers: &'a [(String, CellSet)],
}

/// The text of one cell: its piece's symbol, then its markers, then its non-zero layer values.
fn cell_text(program: &Program, cells: &[u8], extras: &Extras<'_>, c: usize) -> String {
    let mut text = symbol(program, cells.get(c).copied().unwrap_or(0));
    for (mark, set) in extras.markers {
        if set.contains(c) {
            text.push_str(mark);
        }
    }
    for (_, base) in &program.layers {
        let view = program
            .counters
            .get(usize::from(*base))
            .map_or(CounterView::Plain, |k| k.view);
        match (extras.counters.get(usize::from(*base) + c), view) {
            (_, CounterView::Hidden) | (None, _) => {}
            (Some(&v), CounterView::Directions(r)) if v != 0 => {
                text.push_str(&direction_name(program, r, v));
            }
            (Some(&v), CounterView::Plain) if v != 0 => text.push_str(&v.to_string()),
            _ => {}
        }
    }
    text
}

/// The name of direction `value` of a relation, counting from 1 (wrapping), for counters
/// `shown as` it; 0 shows as `-`.
fn direction_name(program: &Program, relation: u16, value: i32) -> String {
    let Some(rel) = program.relations.get(usize::from(relation)) else {
        return value.to_string();
    };
    if value == 0 {
        return "-".to_string();
    }
    let n = i32::try_from(rel.names.len()).unwrap_or(1).max(1);
    let i = usize::try_from((value - 1).rem_euclid(n)).unwrap_or(0);
    rel.names
        .get(i)
        .cloned()
        .unwrap_or_else(|| value.to_string())
}

/// Draws the board with the piece codes `cells` (one per cell, in cell order) and the
/// counters (for per-cell values).
pub fn board(
    program: &Program,
    cells: &[u8],
    counters: &[i32],
    markers: &[(String, CellSet)],
) -> String {
    let extras = Extras { counters, markers };
    let b = &program.board;
    let axes = b.axes.len();
    if axes == 0 || b.is_empty() {
        // No geometry to draw: list the cells.
        let mut out = String::new();
        for (c, name) in b.names.iter().enumerate() {
            let _ = writeln!(out, "{name} {}", cell_text(program, cells, &extras, c));
        }
        return out;
    }
    let labels = axis_labels(b);
    let (col_axis, row_axis) = if axes >= 2 {
        (axes - 2, Some(axes - 1))
    } else {
        (0, None)
    };
    let lead = col_axis;

    // Cells grouped by the values of their leading axes, in increasing order.
    let mut groups: BTreeMap<Vec<i32>, Vec<usize>> = BTreeMap::new();
    for c in 0..b.len() {
        let key: Vec<i32> = (0..lead).map(|a| b.coord(c, a)).collect();
        groups.entry(key).or_default().push(c);
    }

    let mut widest = widest_cell(program);
    for c in 0..b.len() {
        widest = widest.max(cell_text(program, cells, &extras, c).chars().count());
    }
    let label_w = labels[col_axis]
        .values()
        .map(|v| v.chars().count())
        .max()
        .unwrap_or(1);
    // On a board whose rows never hold two neighbouring columns (a hex board in doubled
    // coordinates), a cell's text may run into the free column beside it.
    let cell_w = if every_other_column(b, col_axis, row_axis) {
        label_w.max(widest / 2)
    } else {
        label_w.max(widest)
    };

    let panels: Vec<Vec<String>> = groups
        .iter()
        .map(|(key, members)| {
            let title = (!key.is_empty()).then(|| {
                key.iter()
                    .enumerate()
                    .map(|(a, v)| format!("{} = {v}", b.axes[a]))
                    .collect::<Vec<_>>()
                    .join(", ")
            });
            let grid = Grid {
                program,
                cells,
                extras: &extras,
                members,
                col_axis,
                row_axis,
                labels: &labels,
                cell_w,
            };
            grid.lines(title)
        })
        .collect();
    layout(&panels)
}

/// Whether no cell has a neighbour in the next column of its own row (and panel).
fn every_other_column(b: &Board, col_axis: usize, row_axis: Option<usize>) -> bool {
    let place = |c: usize| -> Vec<i32> { (0..b.axes.len()).map(|a| b.coord(c, a)).collect() };
    let taken: std::collections::HashSet<Vec<i32>> = (0..b.len()).map(place).collect();
    row_axis.is_some()
        && (0..b.len()).all(|c| {
            let mut next = place(c);
            next[col_axis] += 1;
            !taken.contains(&next)
        })
}

/// The widest cell text any position can give, as far as the program tells: the widest symbol,
/// the widest marker, and the widest direction name of each layer shown as directions (a plain
/// layer's numbers are counted as one digit; wider values widen the drawing when they appear).
fn widest_cell(program: &Program) -> usize {
    let width = |s: &String| s.chars().count();
    let symbol = program
        .pieces
        .iter()
        .flat_map(|p| p.symbols.iter().map(width))
        .max()
        .unwrap_or(1)
        .max(1);
    let marker = program.markers.iter().map(|m| width(&m.text)).max();
    let layers: usize = program
        .layers
        .iter()
        .map(
            |(_, base)| match program.counters.get(usize::from(*base)).map(|k| k.view) {
                Some(CounterView::Directions(r)) => program
                    .relations
                    .get(usize::from(r))
                    .and_then(|rel| rel.names.iter().map(width).max())
                    .unwrap_or(1),
                Some(CounterView::Hidden) => 0,
                _ => 1,
            },
        )
        .sum();
    symbol + marker.unwrap_or(0) + layers
}

/// `legend: W White man, . empty, o ball, 3 after a symbol: height`: the glyphs this drawing
/// used, wrapped to [`MAX_WIDTH`].
fn legend(
    program: &Program,
    cells: &[u8],
    counters: &[i32],
    markers: &[(String, CellSet)],
) -> String {
    let mut entries: Vec<String> = Vec::new();
    let mut codes: Vec<u8> = cells.iter().copied().filter(|&c| c != 0).collect();
    codes.sort_unstable();
    codes.dedup();
    for code in codes {
        let (kind, owner) = piece_kind_and_owner(code);
        let Some(piece) = program.pieces.get(kind) else {
            continue;
        };
        let shared = piece.symbols.windows(2).all(|w| w[0] == w[1]);
        let entry = if shared {
            format!("{} {}", symbol(program, code), piece.name)
        } else {
            let player = program.player_name(owner);
            format!("{} {player} {}", symbol(program, code), piece.name)
        };
        if !entries.contains(&entry) {
            entries.push(entry);
        }
    }
    if cells.iter().take(program.board.len()).any(|&c| c == 0) {
        entries.push(". empty".to_string());
    }
    for ((text, set), marker) in markers.iter().zip(&program.markers) {
        let entry = format!("{text} {}", marker.legend);
        if !set.is_empty() && !entries.contains(&entry) {
            entries.push(entry);
        }
    }
    for (name, base) in &program.layers {
        let base = usize::from(*base);
        let view = program.counters.get(base).map(|k| k.view);
        let shown = (base..base + program.board.len())
            .filter_map(|slot| counters.get(slot).copied())
            .find(|&v| v != 0);
        match (view, shown) {
            (Some(CounterView::Hidden) | None, _) | (_, None) => {}
            (Some(CounterView::Directions(r)), Some(v)) => entries.push(format!(
                "{} after a symbol: {name}",
                direction_name(program, r, v)
            )),
            (Some(_), Some(v)) => entries.push(format!("{v} after a symbol: {name}")),
        }
    }
    comma_lines("legend: ", &entries, MAX_WIDTH)
}

/// The entries after `head`, separated by commas, in lines no wider than `width` (a longer
/// entry stands alone; later lines are indented under the first entry).
pub fn comma_lines(head: &str, entries: &[String], width: usize) -> String {
    let indent = " ".repeat(head.chars().count());
    let mut out = String::new();
    let mut line = head.to_string();
    for (i, entry) in entries.iter().enumerate() {
        let piece = if i + 1 < entries.len() {
            format!("{entry},")
        } else {
            entry.clone()
        };
        let fits = line.chars().count() + 1 + piece.chars().count() <= width;
        if i > 0 && !fits {
            out.push_str(line.trim_end());
            out.push('\n');
            line.clone_from(&indent);
        } else if i > 0 {
            line.push(' ');
        }
        line.push_str(&piece);
    }
    out.push_str(line.trim_end());
    out.push('\n');
    out
}

/// One panel: the cells sharing the values of the leading axes.
struct Grid<'a> {
    program: &'a Program,
    cells: &'a [u8],
    extras: &'a Extras<'a>,
    members: &'a [usize],
    col_axis: usize,
    row_axis: Option<usize>,
    labels: &'a [BTreeMap<i32, String>],
    cell_w: usize,
}

impl Grid<'_> {
    fn lines(&self, title: Option<String>) -> Vec<String> {
        let b = &self.program.board;
        let row_of = |c: usize| self.row_axis.map_or(0, |a| b.coord(c, a));
        let cols = span(self.members.iter().map(|&c| b.coord(c, self.col_axis)));
        let rows = span(self.members.iter().map(|&c| row_of(c)));
        let at: BTreeMap<(i32, i32), usize> = self
            .members
            .iter()
            .map(|&c| ((b.coord(c, self.col_axis), row_of(c)), c))
            .collect();
        let label = |axis: usize, v: i32| {
            self.labels[axis]
                .get(&v)
                .cloned()
                .unwrap_or_else(|| v.to_string())
        };
        let row_labels: Vec<(i32, String)> = rows
            .clone()
            .rev()
            .map(|r| (r, self.row_axis.map_or(String::new(), |a| label(a, r))))
            .collect();
        let row_w = row_labels
            .iter()
            .map(|(_, l)| l.chars().count())
            .max()
            .unwrap_or(0);
        let margin = if row_w > 0 { row_w + 1 } else { 0 };
        let w = self.cell_w;

        let mut lines = Vec::new();
        if let Some(t) = title {
            lines.push(t);
        }
        for (r, rl) in &row_labels {
            let mut line = if row_w > 0 {
                format!("{rl:>row_w$} ")
            } else {
                String::new()
            };
            // Each text starts at its column's slot; one may run into an empty slot beside it.
            let start = line.chars().count();
            for (i, col) in cols.clone().enumerate() {
                if let Some(&c) = at.get(&(col, *r)) {
                    let at_slot = start + i * (w + 1);
                    let pad = at_slot.saturating_sub(line.chars().count());
                    line.push_str(&" ".repeat(pad));
                    line.push_str(&cell_text(self.program, self.cells, self.extras, c));
                    line.push(' ');
                }
            }
            lines.push(line);
        }
        let col_labels: Vec<String> = cols
            .map(|col| format!("{:<w$}", label(self.col_axis, col)))
            .collect();
        lines.push(format!("{}{}", " ".repeat(margin), col_labels.join(" ")));
        lines.iter().map(|l| l.trim_end().to_string()).collect()
    }
}

/// The inclusive range of the values (an empty range for none).
fn span(values: impl Iterator<Item = i32>) -> std::ops::RangeInclusive<i32> {
    let mut lo = i32::MAX;
    let mut hi = i32::MIN;
    for v in values {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi {
        // An empty range that iterates nothing.
        #[allow(clippy::reversed_empty_ranges)]
        return 1..=0;
    }
    lo..=hi
}

/// Panels side by side when they fit in [`MAX_WIDTH`], else one below the other.
fn layout(panels: &[Vec<String>]) -> String {
    let widths: Vec<usize> = panels
        .iter()
        .map(|p| p.iter().map(|l| l.chars().count()).max().unwrap_or(0))
        .collect();
    let total = widths.iter().sum::<usize>() + GAP * panels.len().saturating_sub(1);
    let mut out = String::new();
    if total <= MAX_WIDTH {
        let height = panels.iter().map(Vec::len).max().unwrap_or(0);
        for row in 0..height {
            let mut line = String::new();
            for (i, p) in panels.iter().enumerate() {
                let text = p.get(row).map_or("", String::as_str);
                if i + 1 < panels.len() {
                    let pad = widths[i] + GAP;
                    let _ = write!(line, "{text:<pad$}");
                } else {
                    line.push_str(text);
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
    } else {
        for (i, p) in panels.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            for l in p {
                out.push_str(l);
                out.push('\n');
            }
        }
    }
    out
}

/// Per axis, the label of each coordinate value, read off the cell names.
fn axis_labels(b: &Board) -> Vec<BTreeMap<i32, String>> {
    let axes = b.axes.len();
    let n = b.len();
    let tokens: Vec<Vec<&str>> = b.names.iter().map(|s| tokenize(s)).collect();
    let mut labels = vec![BTreeMap::new(); axes];
    for (axis, map) in labels.iter_mut().enumerate() {
        for c in 0..n {
            let v = b.coord(c, axis);
            if map.contains_key(&v) {
                continue;
            }
            // Another cell that differs from `c` on this axis only.
            let other = (0..n).find(|&d| {
                d != c && (0..axes).all(|a| (a == axis) != (b.coord(c, a) == b.coord(d, a)))
            });
            if let Some(d) = other {
                if let Some(l) = differing(&tokens[c], &tokens[d], &b.names[c], &b.names[d]) {
                    map.insert(v, l);
                }
            }
        }
    }
    labels
}

/// Splits a name into runs of digits, of letters, and of other characters.
fn tokenize(name: &str) -> Vec<&str> {
    fn class(c: char) -> u8 {
        if c.is_ascii_digit() {
            0
        } else if c.is_alphabetic() {
            1
        } else {
            2
        }
    }
    let mut out = Vec::new();
    let mut start = 0;
    let mut last = None;
    for (i, ch) in name.char_indices() {
        let k = class(ch);
        if last.is_some_and(|l| l != k) {
            out.push(&name[start..i]);
            start = i;
        }
        last = Some(k);
    }
    if start < name.len() {
        out.push(&name[start..]);
    }
    out
}

/// The part of name `a` that differs from name `b`: whole tokens when both names have the same
/// shape, else the characters between the common prefix and suffix.
fn differing(a: &[&str], b: &[&str], name_a: &str, name_b: &str) -> Option<String> {
    if a.len() == b.len() {
        let first = (0..a.len()).find(|&i| a[i] != b[i])?;
        let last = (0..a.len()).rev().find(|&i| a[i] != b[i])?;
        return Some(a[first..=last].concat());
    }
    let ca: Vec<char> = name_a.chars().collect();
    let cb: Vec<char> = name_b.chars().collect();
    let prefix = ca.iter().zip(&cb).take_while(|(x, y)| x == y).count();
    let suffix = ca[prefix..]
        .iter()
        .rev()
        .zip(cb[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let mid: String = ca[prefix..ca.len() - suffix].iter().collect();
    (!mid.is_empty()).then_some(mid)
}

#[cfg(test)]
mod tests {
    use super::{differing, tokenize};

    fn diff(a: &str, b: &str) -> Option<String> {
        differing(&tokenize(a), &tokenize(b), a, b)
    }

    #[test]
    fn labels_come_from_the_varying_part_of_names() {
        assert_eq!(diff("1a1", "1b1").as_deref(), Some("a"));
        assert_eq!(diff("1a1", "1a2").as_deref(), Some("1"));
        assert_eq!(diff("1a10", "1a11").as_deref(), Some("10"));
        assert_eq!(diff("a9", "a10").as_deref(), Some("9"));
        assert_eq!(diff("x", "x"), None);
    }
}
