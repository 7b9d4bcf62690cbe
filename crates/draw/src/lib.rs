//! Pictures of any board game's position, laid out from the game's geometry alone: SVG written
//! as structured text, PNG rasterized from it by `resvg` with one font shipped in the binary
//! (DejaVu Sans), so a picture is the same bytes on every machine. No game is named here.
//!
//! # How the geometry is read
//!
//! * **Direction vectors.** Each relation's vectors are read off its ray tables: one step from
//!   any cell that has a next cell gives the vector as a coordinate difference.
//! * **The plane.** The last two axes are the picture's plane (the second-to-last across, the
//!   last upwards, so row 1 is at the bottom). Among the vectors that change only these two
//!   axes: `(1, 0)` and `(0, 1)` with the diagonal pair `(1, -1)` / `(-1, 1)` (and not
//!   `(1, 1)`), or with `(1, 1)` / `(-1, -1)` (and not `(1, -1)`), are axial hex coordinates,
//!   drawn as hexagons on a skewed lattice (a triangle of cells comes out as a triangle); `(2,
//!   0)` with `(1, ±1)` and no `(1, 0)` are doubled-width hex coordinates, drawn as hexagons;
//!   anything else is a square grid.
//! * **Levels.** A leading axis is a level when some relation's vectors all step one level the
//!   same way on it and change only it and the plane, moving on average sideways (a cell
//!   resting on the cells below). Each level up is shifted by that average, so a cell sits at
//!   the centre of its supports; cells are then circles, drawn bottom level first.
//! * **Panels.** Every other leading axis gives one panel per value (`s = 1`), side by side.
//!
//! # What is drawn
//!
//! Cells from their real coordinates, each with its name; pieces as discs in their owner's
//! colour with their glyph; per-cell counters as numbers (or arrows, for counters shown as
//! directions); markers as tints with their mark; the cells the last move changed outlined;
//! a side panel with the game's name, the player to move or the result, status lines, the
//! counters and a legend. Each cell's elements are one group whose `data-cell` attribute is
//! the cell's name, so a page showing the picture can tell which cell was clicked.
//!
//! A table game's match is drawn by [`table::svg`], from its declared table and its stones'
//! simulated positions.

pub mod geometry;
pub mod svg;
pub mod table;

use std::fmt;
use std::sync::Arc;

use rulestone_ir::{piece_kind_and_owner, CellSet, CounterView, Program};
use rulestone_runtime::{Engine, GameResult};

use geometry::{CellShape, Layout};
use svg::{Svg, Val};

pub use geometry::layout;
/// The rasterizer's pixel maps, for callers that read a PNG back.
pub use resvg::tiny_skia;

/// The font every picture is written and rasterized with (DejaVu Sans; see
/// `assets/DejaVuSans-LICENSE.txt`).
pub static FONT: &[u8] = include_bytes!("../assets/DejaVuSans.ttf");
/// The font's family name, as the SVG asks for it.
pub const FONT_FAMILY: &str = "DejaVu Sans";

/// The default picture width in pixels.
pub const DEFAULT_SIZE: u32 = 640;
/// The narrowest and widest pictures drawn.
pub const SIZES: std::ops::RangeInclusive<u32> = 64..=8192;

/// What a picture shows: one position of a board game.
#[derive(Clone, Debug)]
pub struct View<'p> {
    pub program: &'p Program,
    /// The piece code of each cell (0 empty, `1 + 2 * kind + owner`).
    pub board: Vec<u8>,
    pub counters: Vec<i32>,
    pub mover: u8,
    /// The result, once the game is over.
    pub result: Option<GameResult>,
    /// Each marker's mark and cells.
    pub markers: Vec<(String, CellSet)>,
    /// The status lines that hold.
    pub status: Vec<String>,
    /// The cells the last move changed.
    pub last: CellSet,
    /// The last move's notation, if one was played.
    pub last_text: Option<String>,
}

impl<'p> View<'p> {
    /// The engine's position; `before` is the position before the last move (its board and
    /// counters), whose differences are the last move's cells.
    pub fn of(
        engine: &mut Engine<'p>,
        before: Option<(&[u8], &[i32])>,
        last_text: Option<String>,
    ) -> View<'p> {
        let program = engine.program();
        let result = engine.outcome();
        let state = &engine.state;
        let mut last = CellSet::EMPTY;
        if let Some((board, counters)) = before {
            for c in 0..program.board.len() {
                let moved = board.get(c) != state.board.get(c)
                    || program.layers.iter().any(|(_, base)| {
                        let slot = usize::from(*base) + c;
                        counters.get(slot) != state.counters.get(slot)
                    });
                if moved {
                    last.insert(c);
                }
            }
        }
        View {
            program,
            board: state.board.clone(),
            counters: state.counters.clone(),
            mover: state.mover,
            result,
            markers: engine.markers(),
            status: engine.status_lines(),
            last,
            last_text,
        }
    }
}

/// Why a picture could not be made.
#[derive(Debug)]
pub enum DrawError {
    /// The SVG could not be read back (a bug) or the picture is too large.
    Render(String),
}

impl fmt::Display for DrawError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DrawError::Render(why) => write!(f, "cannot render the picture: {why}"),
        }
    }
}

impl std::error::Error for DrawError {}

/// Disc fill and glyph colour of each player's pieces; further players cycle.
const PLAYER_COLOURS: &[(&str, &str)] = &[
    ("#f7f3ea", "#202020"),
    ("#2a2a2a", "#f7f3ea"),
    ("#c0392b", "#ffffff"),
    ("#2c6fbb", "#ffffff"),
];
/// Marker tints, in marker order.
const MARKER_COLOURS: &[&str] = &[
    "#e67e22", "#2980b9", "#27ae60", "#8e44ad", "#c0392b", "#16a085", "#7f8c8d",
];
/// How far each level is lifted in the picture, in cells.
const LEVEL_LIFT: f64 = 0.3;
const LAST_COLOUR: &str = "#d62828";
const INK: &str = "#202020";
const FAINT: &str = "#6b5d45";

fn player_colours(p: u8) -> (&'static str, &'static str) {
    PLAYER_COLOURS[usize::from(p) % PLAYER_COLOURS.len()]
}

/// The hexagon corners around `(x, y)` (picture coordinates, `y` down), pointy top, sides
/// `2 r` apart.
fn hexagon(x: f64, y: f64, r: f64) -> Vec<(f64, f64)> {
    let circum = r * 2.0 / 3f64.sqrt();
    (0..6)
        .map(|k| {
            let a = std::f64::consts::PI / 180.0 * (90.0 + 60.0 * f64::from(k));
            (x + circum * a.cos(), y - circum * a.sin())
        })
        .collect()
}

/// Word-wraps `text` at `width` characters.
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = Vec::new();
    let mut line = String::new();
    for word in text.split_whitespace() {
        if !line.is_empty() && line.chars().count() + 1 + word.chars().count() > width {
            lines.push(std::mem::take(&mut line));
        }
        if !line.is_empty() {
            line.push(' ');
        }
        line.push_str(word);
    }
    if !line.is_empty() {
        lines.push(line);
    }
    lines
}

/// The counters shown in the side panel: per-player counters one line per name, others
/// `name: value`; per-cell counters, shape stocks and hidden counters are left out.
fn counter_lines(program: &Program, values: &[i32]) -> Vec<String> {
    let value = |slot: usize| {
        values
            .get(slot)
            .copied()
            .unwrap_or_else(|| program.counters.get(slot).map_or(0, |c| c.initial))
    };
    let in_layer = |slot: usize| {
        program.layers.iter().any(|(_, base)| {
            (usize::from(*base)..usize::from(*base) + program.board.len()).contains(&slot)
        })
    };
    let mut lines = Vec::new();
    let mut i = 0;
    while i < program.counters.len() {
        if in_layer(i) || program.counters[i].view == CounterView::Hidden {
            i += 1;
            continue;
        }
        let name = program.counters[i].name.clone();
        let mut parts = Vec::new();
        let mut j = i;
        while j < program.counters.len() && program.counters[j].name == name && !in_layer(j) {
            let v = value(j).to_string();
            match program.counters[j].player {
                Some(p) => parts.push(format!("{} {v}", program.player_name(p))),
                None => parts.push(v),
            }
            j += 1;
        }
        lines.push(format!("{name}: {}", parts.join(", ")));
        i = j.max(i + 1);
    }
    lines
}

/// The SVG picture of `view`, `width` pixels wide.
#[must_use]
pub fn svg(view: &View<'_>, width: u32) -> String {
    let program = view.program;
    let layout = layout(program);
    Picture::new(view, &layout).write(width)
}

/// A line of the side panel: its text, its size factor and an optional swatch colour.
type Line = (String, f64, Option<&'static str>);

/// A picture being laid out: the board's extent and the panel's.
struct Picture<'v, 'p> {
    view: &'v View<'p>,
    layout: &'v Layout,
    /// Picture coordinates (`y` down) of each cell's centre.
    at: Vec<(f64, f64)>,
    /// The board's box: left, top, right, bottom.
    bounds: (f64, f64, f64, f64),
}

impl<'v, 'p> Picture<'v, 'p> {
    fn new(view: &'v View<'p>, layout: &'v Layout) -> Self {
        // Each level up is lifted a little, so a ball shows above the ones it rests on.
        let at: Vec<(f64, f64)> = layout
            .centres
            .iter()
            .zip(&layout.levels)
            .map(|(&(x, y), &level)| (x, -y - LEVEL_LIFT * level as f64))
            .collect();
        let r = match layout.shape {
            CellShape::Hex => 1.0 / 3f64.sqrt(),
            _ => 0.5,
        };
        let mut b = (
            f64::INFINITY,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NEG_INFINITY,
        );
        for &(x, y) in &at {
            b = (
                b.0.min(x - r),
                b.1.min(y - r),
                b.2.max(x + r),
                b.3.max(y + r),
            );
        }
        if !b.0.is_finite() {
            b = (0.0, 0.0, 1.0, 1.0);
        }
        Picture {
            view,
            layout,
            at,
            bounds: b,
        }
    }

    fn write(&self, width: u32) -> String {
        let mut s = Svg::default();
        let (l, t, r, b) = self.bounds;
        let margin = 0.4;
        let title_h = if self.layout.panel_titles.len() > 1 {
            0.7
        } else {
            0.0
        };
        let board_w = r - l;
        let board_h = b - t + title_h;
        // The panel's text scales with the board, so it reads the same at any board size.
        let k = (board_w.max(board_h) / 9.0).max(0.8);
        let panel_x = r + margin * 2.0;
        let lines = self.panel_lines();
        let line_h = 0.5 * k;
        let panel_w = 6.2 * k;
        let panel_h = line_h * (lines.len() as f64 + 1.0);
        let left = l - margin;
        let top = t - margin - title_h;
        let total_w = panel_x + panel_w + margin - left;
        let total_h = (board_h.max(panel_h) + 2.0 * margin).max(1.0);
        s.el(
            "rect",
            &[
                ("x", Val::N(left)),
                ("y", Val::N(top)),
                ("width", Val::N(total_w)),
                ("height", Val::N(total_h)),
                ("fill", Val::T("#fbf8f1")),
            ],
        );
        self.panel_titles(&mut s, t);
        self.cells(&mut s);
        self.write_panel(&mut s, &lines, panel_x, t, k);
        let w = f64::from(width);
        s.finish(
            w,
            (w * total_h / total_w).round(),
            (left, top, total_w, total_h),
        )
    }

    fn panel_titles(&self, s: &mut Svg, top: f64) {
        if self.layout.panel_titles.len() < 2 {
            return;
        }
        for (p, title) in self.layout.panel_titles.iter().enumerate() {
            let xs: Vec<f64> = (0..self.at.len())
                .filter(|&c| self.layout.panels[c] == p)
                .map(|c| self.at[c].0)
                .collect();
            let (lo, hi) = xs
                .iter()
                .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), &x| {
                    (a.min(x), b.max(x))
                });
            if !lo.is_finite() {
                continue;
            }
            s.text_el(
                "text",
                &[
                    ("x", Val::N((lo + hi) / 2.0)),
                    ("y", Val::N(top - 0.25)),
                    ("font-size", Val::N(0.4)),
                    ("text-anchor", Val::T("middle")),
                    ("fill", Val::T(INK)),
                ],
                title,
            );
        }
    }

    /// Every cell, bottom level first: its outline, tints, name, piece, counters, last-move
    /// ring.
    fn cells(&self, s: &mut Svg) {
        let view = self.view;
        let program = view.program;
        let layout = self.layout;
        let mut order: Vec<usize> = (0..self.at.len()).collect();
        order.sort_by_key(|&c| layout.levels[c]);
        for c in order {
            let (x, y) = self.at[c];
            let code = view.board.get(c).copied().unwrap_or(0);
            let level = layout.levels[c];
            let name = program.board.names.get(c).map_or("", String::as_str);
            // Each cell is one group named by its cell, so a page can tell what is clicked.
            s.group(&[("data-cell", Val::T(name))]);
            // The outline.
            let fill = match layout.shape {
                CellShape::Square => {
                    let (px, py) = layout.centres[c];
                    if (px.round() + py.round()).rem_euclid(2.0) == 0.0 {
                        "#d9c49c"
                    } else {
                        "#efe2c4"
                    }
                }
                CellShape::Hex => "#eadcbf",
                CellShape::Circle => {
                    if level == 0 {
                        "#e6d6b5"
                    } else {
                        "none"
                    }
                }
            };
            // An empty cell of an upper level is a small dot at the centre of its supports:
            // its outline would hide the balls below.
            let floating = layout.shape == CellShape::Circle && level > 0;
            if floating && code == 0 {
                s.el(
                    "circle",
                    &[
                        ("cx", Val::N(x)),
                        ("cy", Val::N(y)),
                        ("r", Val::N(0.07)),
                        ("fill", Val::T("#8a7650")),
                    ],
                );
            } else if !floating {
                self.outline(s, c, fill, "#8a7650", 0.03);
            }
            // Markers: a tint and the mark in the top-right corner.
            for (i, (mark, cells)) in view.markers.iter().enumerate() {
                if cells.contains(c) {
                    let colour = MARKER_COLOURS[i % MARKER_COLOURS.len()];
                    self.tint(s, c, colour);
                    let dx = 0.3 - 0.14 * (i % 3) as f64;
                    s.text_el(
                        "text",
                        &[
                            ("x", Val::N(x + dx)),
                            ("y", Val::N(y - 0.26)),
                            ("font-size", Val::N(0.2)),
                            ("text-anchor", Val::T("middle")),
                            ("fill", Val::T(colour)),
                            ("font-weight", Val::T("bold")),
                        ],
                        mark,
                    );
                }
            }
            // The cell's name.
            let (nx, ny, anchor) = match layout.shape {
                CellShape::Square => (x - 0.45, y - 0.33, "start"),
                CellShape::Hex => (x, y + 0.47, "middle"),
                CellShape::Circle => (x, y + 0.07, "middle"),
            };
            if layout.shape != CellShape::Circle || (code == 0 && level == 0) {
                s.text_el(
                    "text",
                    &[
                        ("x", Val::N(nx)),
                        ("y", Val::N(ny)),
                        ("font-size", Val::N(0.15)),
                        ("text-anchor", Val::T(anchor)),
                        ("fill", Val::T(FAINT)),
                    ],
                    name,
                );
            }
            // The piece.
            let has_piece = code != 0;
            if has_piece {
                let (_, owner) = piece_kind_and_owner(code);
                let (disc, ink) = player_colours(owner);
                let radius = if layout.shape == CellShape::Circle {
                    0.46
                } else {
                    0.34
                };
                s.el(
                    "circle",
                    &[
                        ("cx", Val::N(x)),
                        ("cy", Val::N(y)),
                        ("r", Val::N(radius)),
                        ("fill", Val::T(disc)),
                        ("stroke", Val::T(INK)),
                        ("stroke-width", Val::N(0.035)),
                    ],
                );
                let g = program.piece_symbol(code);
                let size = if g.chars().count() > 1 { 0.28 } else { 0.38 };
                s.text_el(
                    "text",
                    &[
                        ("x", Val::N(x)),
                        ("y", Val::N(y + size * 0.36)),
                        ("font-size", Val::N(size)),
                        ("text-anchor", Val::T("middle")),
                        ("fill", Val::T(ink)),
                    ],
                    &g,
                );
            }
            self.layers(s, c, has_piece);
            if view.last.contains(c) {
                self.outline(s, c, "none", LAST_COLOUR, 0.07);
            }
            s.end("g");
        }
    }

    /// A cell's outline: a square, hexagon or circle slightly inside the cell.
    fn outline(&self, s: &mut Svg, c: usize, fill: &str, stroke: &str, width: f64) {
        let (x, y) = self.at[c];
        match self.layout.shape {
            CellShape::Square => s.el(
                "rect",
                &[
                    ("x", Val::N(x - 0.5)),
                    ("y", Val::N(y - 0.5)),
                    ("width", Val::N(1.0)),
                    ("height", Val::N(1.0)),
                    ("fill", Val::T(fill)),
                    ("stroke", Val::T(stroke)),
                    ("stroke-width", Val::N(width)),
                ],
            ),
            CellShape::Hex => s.el(
                "polygon",
                &[
                    ("points", Val::T(&svg::points(&hexagon(x, y, 0.5)))),
                    ("fill", Val::T(fill)),
                    ("stroke", Val::T(stroke)),
                    ("stroke-width", Val::N(width)),
                ],
            ),
            CellShape::Circle => s.el(
                "circle",
                &[
                    ("cx", Val::N(x)),
                    ("cy", Val::N(y)),
                    ("r", Val::N(0.47)),
                    ("fill", Val::T(fill)),
                    ("stroke", Val::T(stroke)),
                    ("stroke-width", Val::N(width)),
                ],
            ),
        }
    }

    fn tint(&self, s: &mut Svg, c: usize, colour: &str) {
        let (x, y) = self.at[c];
        match self.layout.shape {
            CellShape::Square => s.el(
                "rect",
                &[
                    ("x", Val::N(x - 0.5)),
                    ("y", Val::N(y - 0.5)),
                    ("width", Val::N(1.0)),
                    ("height", Val::N(1.0)),
                    ("fill", Val::T(colour)),
                    ("fill-opacity", Val::N(0.22)),
                ],
            ),
            CellShape::Hex => s.el(
                "polygon",
                &[
                    ("points", Val::T(&svg::points(&hexagon(x, y, 0.5)))),
                    ("fill", Val::T(colour)),
                    ("fill-opacity", Val::N(0.22)),
                ],
            ),
            CellShape::Circle => s.el(
                "circle",
                &[
                    ("cx", Val::N(x)),
                    ("cy", Val::N(y)),
                    ("r", Val::N(0.47)),
                    ("fill", Val::T(colour)),
                    ("fill-opacity", Val::N(0.22)),
                ],
            ),
        }
    }

    /// The cell's per-cell counters: numbers, or arrows for directions.
    fn layers(&self, s: &mut Svg, c: usize, has_piece: bool) {
        let view = self.view;
        let program = view.program;
        let (x, y) = self.at[c];
        let mut badges = Vec::new();
        for (_, base) in &program.layers {
            let slot = usize::from(*base) + c;
            let Some(&v) = view.counters.get(slot) else {
                continue;
            };
            let counter_view = program
                .counters
                .get(usize::from(*base))
                .map_or(CounterView::Plain, |k| k.view);
            match counter_view {
                CounterView::Hidden => {}
                CounterView::Directions(r) if v != 0 => {
                    if let Some((dx, dy)) = direction(self.layout, program, r, v) {
                        arrow(s, x, y, dx, -dy);
                    }
                }
                CounterView::Plain if v != 0 => badges.push(v.to_string()),
                _ => {}
            }
        }
        if badges.is_empty() {
            return;
        }
        let text = badges.join(" ");
        if has_piece {
            s.text_el(
                "text",
                &[
                    ("x", Val::N(x + 0.3)),
                    ("y", Val::N(y + 0.42)),
                    ("font-size", Val::N(0.22)),
                    ("text-anchor", Val::T("middle")),
                    ("fill", Val::T(INK)),
                    ("font-weight", Val::T("bold")),
                ],
                &text,
            );
        } else {
            s.text_el(
                "text",
                &[
                    ("x", Val::N(x)),
                    ("y", Val::N(y + 0.13)),
                    ("font-size", Val::N(0.36)),
                    ("text-anchor", Val::T("middle")),
                    ("fill", Val::T(INK)),
                ],
                &text,
            );
        }
    }

    /// The side panel's lines: each with its size factor and an optional swatch colour.
    fn panel_lines(&self) -> Vec<Line> {
        let view = self.view;
        let program = view.program;
        let mut lines: Vec<Line> = Vec::new();
        lines.push((program.name.clone(), 1.3, None));
        let width = 28;
        let push = |lines: &mut Vec<_>, text: &str, swatch| {
            for (i, l) in wrap(text, width).into_iter().enumerate() {
                lines.push((l, 1.0, if i == 0 { swatch } else { None }));
            }
        };
        match view.result {
            Some(GameResult::Win(p)) => push(
                &mut lines,
                &format!("game over: {} wins", program.player_name(p)),
                Some(player_colours(p).0),
            ),
            Some(GameResult::Draw) => push(&mut lines, "game over: draw", None),
            None => push(
                &mut lines,
                &format!("{} to move", program.player_name(view.mover)),
                Some(player_colours(view.mover).0),
            ),
        }
        if let Some(m) = &view.last_text {
            push(&mut lines, &format!("last move: {m}"), Some(LAST_COLOUR));
        }
        for line in &view.status {
            push(&mut lines, line, None);
        }
        for line in counter_lines(program, &view.counters) {
            push(&mut lines, &line, None);
        }
        // The legend: the pieces on the board, then the markers.
        let mut seen: Vec<u8> = view.board.iter().copied().filter(|&c| c != 0).collect();
        seen.sort_unstable();
        seen.dedup();
        if !seen.is_empty() || !program.markers.is_empty() {
            lines.push((String::new(), 0.6, None));
            lines.push(("legend".to_string(), 1.0, None));
        }
        for code in seen {
            let (kind, owner) = piece_kind_and_owner(code);
            let piece = program
                .pieces
                .get(kind)
                .map_or("piece", |p| p.name.as_str());
            push(
                &mut lines,
                &format!(
                    "{} {}: {}",
                    program.player_name(owner),
                    piece,
                    program.piece_symbol(code)
                ),
                Some(player_colours(owner).0),
            );
        }
        for (i, marker) in program.markers.iter().enumerate() {
            let text = if marker.legend.is_empty() {
                marker.text.clone()
            } else {
                format!("{} {}", marker.text, marker.legend)
            };
            push(
                &mut lines,
                &text,
                Some(MARKER_COLOURS[i % MARKER_COLOURS.len()]),
            );
        }
        lines
    }

    fn write_panel(&self, s: &mut Svg, lines: &[Line], x: f64, top: f64, k: f64) {
        let size = 0.34 * k;
        let mut y = top + size;
        for (text, factor, swatch) in lines {
            let fs = size * factor;
            if let Some(colour) = swatch {
                s.el(
                    "circle",
                    &[
                        ("cx", Val::N(x + 0.17 * k)),
                        ("cy", Val::N(y - fs * 0.35)),
                        ("r", Val::N(0.14 * k)),
                        ("fill", Val::T(colour)),
                        ("stroke", Val::T(INK)),
                        ("stroke-width", Val::N(0.02 * k)),
                    ],
                );
            }
            if !text.is_empty() {
                s.text_el(
                    "text",
                    &[
                        ("x", Val::N(x + 0.42 * k)),
                        ("y", Val::N(y)),
                        ("font-size", Val::N(fs)),
                        ("fill", Val::T(INK)),
                    ],
                    text,
                );
            }
            y += fs * 1.4;
        }
    }
}

/// The picture direction (y up) of direction `value - 1` of relation `r`.
fn direction(layout: &Layout, program: &Program, r: u16, value: i32) -> Option<(f64, f64)> {
    let rel = program.relations.get(usize::from(r))?;
    let n = i32::try_from(rel.rays.len()).ok()?.max(1);
    let i = usize::try_from((value - 1).rem_euclid(n)).ok()?;
    let ray = rel.rays.get(i)?;
    let board = &program.board;
    let axes = board.axes.len();
    if axes < 2 {
        return None;
    }
    let (from, to) = ray.next.iter().enumerate().find(|&(c, &t)| {
        t != rulestone_ir::NO_CELL && c < board.len() && usize::from(t) < board.len()
    })?;
    let to = usize::from(*to);
    let dx = board.coord(to, axes - 2) - board.coord(from, axes - 2);
    let dy = board.coord(to, axes - 1) - board.coord(from, axes - 1);
    Some(layout.lattice.direction(dx, dy))
}

/// An arrow from the cell's centre towards `(dx, dy)` (picture coordinates, `y` down).
fn arrow(s: &mut Svg, x: f64, y: f64, dx: f64, dy: f64) {
    let tip = (x + dx * 0.44, y + dy * 0.44);
    let base = (x + dx * 0.2, y + dy * 0.2);
    let (nx, ny) = (-dy, dx);
    let head = [
        tip,
        (base.0 + nx * 0.13, base.1 + ny * 0.13),
        (base.0 - nx * 0.13, base.1 - ny * 0.13),
    ];
    s.el(
        "polygon",
        &[
            ("points", Val::T(&svg::points(&head))),
            ("fill", Val::T(LAST_COLOUR)),
            ("stroke", Val::T(INK)),
            ("stroke-width", Val::N(0.02)),
        ],
    );
}

/// Rasterizes an SVG written by [`svg()`] to PNG, with the shipped font and no other.
///
/// # Errors
/// The SVG cannot be read, or the picture is empty or too large.
pub fn png(svg_text: &str) -> Result<Vec<u8>, DrawError> {
    use resvg::usvg;
    let mut db = usvg::fontdb::Database::new();
    db.load_font_data(FONT.to_vec());
    db.set_sans_serif_family(FONT_FAMILY);
    let options = usvg::Options {
        font_family: FONT_FAMILY.to_string(),
        fontdb: Arc::new(db),
        ..usvg::Options::default()
    };
    let tree =
        usvg::Tree::from_str(svg_text, &options).map_err(|e| DrawError::Render(e.to_string()))?;
    let size = tree.size().to_int_size();
    let mut pixmap =
        resvg::tiny_skia::Pixmap::new(size.width(), size.height()).ok_or_else(|| {
            DrawError::Render(format!(
                "no picture of {}x{} pixels",
                size.width(),
                size.height()
            ))
        })?;
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| DrawError::Render(e.to_string()))
}
