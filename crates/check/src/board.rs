//! The board and everything measured against it: axes and cell ranges, the cells built with
//! the default options, direction/relation/pattern vectors, zones and counter start values.

use super::consteval::ConstError;
use super::error::{BoardError, GameError, ResolveError, TypeError};
use super::expr::Ty;
use super::geometry::{self, Geometry, GeometryError, MAX_CELLS};
use super::names::{builtin_value, Sym};
use super::options;
use super::zones::ZoneEval;
use super::{Axes, Checker, Constant, Cx};
use rulestone_syntax::ast::{Board, Expr, ItemKind, PatternShape, RelItem, Vector};
use rulestone_syntax::{Ident, Span};

fn components(n: usize) -> String {
    if n == 1 {
        "1 component".to_string()
    } else {
        format!("{n} components")
    }
}

/// From the first axis of `cells` to the end of the last range.
fn ranges_span(board: &Board) -> Option<Span> {
    Some(Span {
        start: board.ranges.first()?.axis.span.start,
        end: board.ranges.last()?.hi.span.end,
    })
}

/// A span covering the first `len` bytes of `span` (a declaration's keyword).
pub(super) fn head(span: Span, len: u32) -> Span {
    Span {
        start: span.start,
        end: span.end.min(span.start + len),
    }
}

impl Checker<'_> {
    /// Checks the board declaration and builds its cells with the default options.
    pub(super) fn check_board(&mut self) {
        let file = self.file;
        let mut boards = file.items.iter().filter_map(|i| match &i.kind {
            ItemKind::Board(b) => Some((b, i.span)),
            _ => None,
        });
        let Some((board, board_span)) = boards.next() else {
            self.report(GameError::Missing {
                what: "board",
                example:
                    "board { axes x, y  cells x in 0..2, y in 0..2  name \"{letter(x)}{y + 1}\" }"
                        .into(),
            });
            self.cells_unknown = true;
            return;
        };
        for (_, span) in boards {
            self.report(GameError::Twice {
                what: "board",
                span: head(span, 5),
                first: head(board_span, 5),
            });
        }
        self.board = Some(board);
        let errors_before = self.error_count();
        self.check_axes(board);

        let board_cx = |axes| Cx {
            axes,
            constant: Some(Constant::Board),
        };
        for (i, r) in board.ranges.iter().enumerate() {
            match board.axes.get(i) {
                None => self.report(BoardError::ExtraRange {
                    name: r.axis.name.clone(),
                    span: r.axis.span,
                }),
                Some(a) if a.name != r.axis.name => self.report(BoardError::RangeAxis {
                    expected: a.name.clone(),
                    found: r.axis.name.clone(),
                    span: r.axis.span,
                }),
                Some(_) => {}
            }
            let cx = board_cx(Axes::Upto(i.min(board.axes.len())));
            self.constant_reported = false;
            self.expect(&r.lo, Ty::Int, cx);
            self.expect(&r.hi, Ty::Int, cx);
        }
        for a in board.axes.iter().skip(board.ranges.len()) {
            self.report(BoardError::MissingRange {
                name: a.name.clone(),
                span: a.span,
            });
        }
        if let Some(filter) = &board.filter {
            self.constant_reported = false;
            self.expect(filter, Ty::Bool, board_cx(Axes::All));
        }
        self.constant_reported = false;
        self.template(&board.name, board_cx(Axes::All));
        self.notation_text(&board.name, "a cell name");

        if self.error_count() > errors_before || !self.options_ok {
            self.cells_unknown = true;
            return;
        }
        let Ok(env) = options::resolve(file, &[]) else {
            self.cells_unknown = true;
            return;
        };
        match geometry::count_coordinates(board, &env, geometry::MAX_COORDINATES) {
            Ok(n) if n > geometry::MAX_COORDINATES => {
                self.report(BoardError::TooManyCoordinates {
                    max: geometry::MAX_COORDINATES,
                    span: ranges_span(board).unwrap_or(head(board_span, 5)),
                });
                self.cells_unknown = true;
                return;
            }
            Ok(_) => {}
            Err(e) => {
                self.geometry_error(board, GeometryError::Const(e));
                self.cells_unknown = true;
                return;
            }
        }
        match Geometry::build(board, &env) {
            Ok(g) if g.is_empty() => {
                self.report(BoardError::NoCells {
                    span: head(board_span, 5),
                });
                self.cells_unknown = true;
            }
            Ok(g) => self.geometry = Some(g),
            Err(e) => {
                self.geometry_error(board, e);
                self.cells_unknown = true;
            }
        }
    }

    /// Axis names must be unique and must not clash with declared or built-in names.
    fn check_axes(&mut self, board: &Board) {
        for (j, a) in board.axes.iter().enumerate() {
            if let Some(first) = board.axes[..j].iter().find(|b| b.name == a.name) {
                self.report(ResolveError::Duplicate {
                    name: a.name.clone(),
                    span: a.span,
                    first: first.span,
                });
            } else if let Some(&i) = self.names.get(&a.name) {
                let other = self.entries[i].span;
                let (span, first) = if other.start < a.span.start {
                    (a.span, other)
                } else {
                    (other, a.span)
                };
                self.report(ResolveError::Duplicate {
                    name: a.name.clone(),
                    span,
                    first,
                });
            } else if builtin_value(&a.name).is_some() {
                self.report(ResolveError::Builtin {
                    name: a.name.clone(),
                    span: a.span,
                });
            }
        }
    }

    fn geometry_error(&mut self, board: &Board, e: GeometryError) {
        match e {
            GeometryError::DuplicateName { name, span } => {
                self.report(BoardError::DuplicateCellName { name, span });
            }
            GeometryError::TooManyCells { found, span } => {
                // From the first axis to the end of the last range (the parsed range spans may
                // run on over blanks).
                let span = ranges_span(board).unwrap_or(span);
                self.report(BoardError::TooManyCells {
                    found,
                    max: MAX_CELLS,
                    span,
                });
            }
            GeometryError::CoordinateRange { span } => {
                self.report(BoardError::Evaluation {
                    reason: "a coordinate out of range".to_string(),
                    help: format!(
                        "cell coordinates must lie between {} and {}: arithmetic stays at an \
                         end of the integers when it passes it, so a step off the board there \
                         would land on a cell",
                        geometry::COORDINATES.start(),
                        geometry::COORDINATES.end()
                    ),
                    span,
                });
            }
            GeometryError::Const(c) => {
                let (reason, help, span) = match c {
                    ConstError::DivisionByZero(s) => (
                        "division by zero",
                        "make sure the divisor is never 0 for the default options",
                        s,
                    ),
                    ConstError::Overflow(s) => (
                        "value out of range",
                        "`letter` takes 0 to 25, and values must fit in 64 bits",
                        s,
                    ),
                    ConstError::NotConstant(s)
                    | ConstError::WrongType(s)
                    | ConstError::TooDeep(s) => (
                        "cannot be evaluated",
                        "use only integers, options, earlier axes and `letter`",
                        s,
                    ),
                };
                let span = if span.is_empty() {
                    board.name.span
                } else {
                    span
                };
                self.report(BoardError::Evaluation {
                    reason: reason.to_string(),
                    help: help.to_string(),
                    span,
                });
            }
        }
    }

    /// Checks a vector's length against the axes and, on a built board, that it links some
    /// cell to another (`what` names it in the warning). Returns whether its length is right.
    fn vector(&mut self, v: &Vector, what: impl FnOnce() -> String) -> bool {
        let Some(board) = self.board else {
            return false;
        };
        let axes = board.axes.len();
        if v.components.len() != axes {
            self.report(TypeError::VectorLength {
                found: components(v.components.len()),
                axes,
                expected: components(axes),
                axis_list: self.axis_list(),
                span: v.span,
            });
            return false;
        }
        if let Some(g) = &self.geometry {
            let links = (0..g.len()).any(|c| g.offset(c, &v.components).is_some_and(|d| d != c));
            if !links {
                self.report(BoardError::NoLinks {
                    what: what(),
                    axis_list: self.axis_list(),
                    span: v.span,
                });
            }
        }
        true
    }

    /// Directions, relations and patterns.
    pub(super) fn check_geometry_items(&mut self) {
        let file = self.file;
        for item in &file.items {
            match &item.kind {
                ItemKind::Direction { name, vector } => {
                    self.vector(vector, || format!("direction `{}`", name.name));
                }
                ItemKind::Relation {
                    name,
                    members,
                    players,
                } => {
                    for id in players.iter().flatten() {
                        match self.use_global(id) {
                            Some((_, Sym::Player)) => {}
                            Some(_) => self.report(ResolveError::WrongKind {
                                expected: "a player".into(),
                                found: self.describe_name(&id.name),
                                span: id.span,
                                help: None,
                            }),
                            None => self.unknown_name(id, Axes::Hidden),
                        }
                    }
                    for m in members {
                        match m {
                            RelItem::Vector(v) => {
                                self.vector(v, || format!("a vector of relation `{}`", name.name));
                            }
                            RelItem::Name(id) => match self.use_global(id) {
                                Some((_, Sym::Direction | Sym::Relation { .. })) => {}
                                Some(_) => self.report(ResolveError::WrongKind {
                                    expected: "a direction or relation".into(),
                                    found: self.describe_name(&id.name),
                                    span: id.span,
                                    help: None,
                                }),
                                None => self.unknown_name(id, Axes::Hidden),
                            },
                        }
                    }
                }
                ItemKind::Map { coords, .. } => self.map_coords(coords),
                ItemKind::Pattern { name, shape } => match shape {
                    PatternShape::Line(RelItem::Vector(v)) => {
                        self.vector(v, || format!("the line of pattern `{}`", name.name));
                    }
                    PatternShape::Line(RelItem::Name(id)) => match self.use_global(id) {
                        Some((_, Sym::Direction)) => {}
                        Some((_, sym)) => self.report(ResolveError::WrongKind {
                            expected: "a direction".into(),
                            found: self.describe_name(&id.name),
                            span: id.span,
                            help: matches!(sym, Sym::Relation { .. }).then(|| {
                                "`line` follows one direction; declare `direction d = (...)` \
                                 and use it"
                                    .to_string()
                            }),
                        }),
                        None => self.unknown_name(id, Axes::Hidden),
                    },
                    PatternShape::Shape(vectors) => {
                        let mut ok = true;
                        for v in vectors {
                            ok &= self.shape_vector(v);
                        }
                        if ok && !self.shape_fits(vectors) {
                            self.report(BoardError::PatternFitsNowhere {
                                name: name.name.clone(),
                                span: name.span,
                            });
                        }
                    }
                },
                _ => {}
            }
        }
    }

    /// A map's coordinates: one integer per axis, computed from the cell's own coordinates
    /// (the axis names) and the options, as the board's `if` is.
    fn map_coords(&mut self, coords: &[Expr]) {
        let Some(board) = self.board else {
            return;
        };
        let axes = board.axes.len();
        if coords.len() != axes {
            let span = match (coords.first(), coords.last()) {
                (Some(a), Some(b)) => a.span.merge(b.span),
                _ => return,
            };
            self.report(TypeError::VectorLength {
                found: components(coords.len()),
                axes,
                expected: components(axes),
                axis_list: self.axis_list(),
                span,
            });
        }
        let cx = Cx {
            axes: Axes::All,
            constant: Some(Constant::Board),
        };
        for c in coords {
            self.constant_reported = false;
            self.expect(c, Ty::Int, cx);
        }
    }

    /// A shape vector only needs the right length (it may be the anchor itself).
    fn shape_vector(&mut self, v: &Vector) -> bool {
        let Some(board) = self.board else {
            return false;
        };
        if v.components.len() == board.axes.len() {
            return true;
        }
        self.report(TypeError::VectorLength {
            found: components(v.components.len()),
            axes: board.axes.len(),
            expected: components(board.axes.len()),
            axis_list: self.axis_list(),
            span: v.span,
        });
        false
    }

    /// A cell of a `shape` declaration: the right length, like a pattern's.
    pub(super) fn shape_cell_vector(&mut self, v: &Vector) -> bool {
        self.shape_vector(v)
    }

    /// Whether some cell anchors a whole instance of the shape (true when the board is unknown).
    fn shape_fits(&self, vectors: &[Vector]) -> bool {
        let Some(g) = &self.geometry else {
            return true;
        };
        (0..g.len()).any(|c| vectors.iter().all(|v| g.offset(c, &v.components).is_some()))
    }

    /// Zones: constant cell sets, warned about when empty with the default options.
    pub(super) fn check_zones(&mut self) {
        let file = self.file;
        // The zones that type-check, evaluated afterwards with one evaluator and one set of
        // option values for them all (each built from the whole file).
        let mut constant = Vec::new();
        for (i, item) in file.items.iter().enumerate() {
            let ItemKind::Zone { name, cells } = &item.kind else {
                continue;
            };
            let cx = Cx {
                axes: Axes::Hidden,
                constant: Some(Constant::Zone(i)),
            };
            self.constant_reported = false;
            let errors_before = self.error_count();
            self.expect(cells, Ty::Cells, cx);
            if self.error_count() == errors_before && !self.cyclic.contains(&name.name) {
                constant.push((name, cells));
            }
        }
        let (Some(g), Ok(env)) = (&self.geometry, options::resolve(file, &[])) else {
            return;
        };
        let eval = ZoneEval::new(file, g);
        // A chain too deep is reported once, for the first zone that reaches through it.
        let mut too_deep = false;
        let found: Vec<BoardError> = constant
            .into_iter()
            .filter_map(|(name, cells)| match eval.cells(cells, &env) {
                Ok(set) if !set.contains(&true) => Some(BoardError::EmptyZone {
                    name: name.name.clone(),
                    span: cells.span,
                }),
                Err(ConstError::DivisionByZero(span)) => Some(BoardError::ZoneEvaluation {
                    name: name.name.clone(),
                    reason: "division by zero".into(),
                    span,
                }),
                Err(ConstError::Overflow(span)) => Some(BoardError::ZoneEvaluation {
                    name: name.name.clone(),
                    reason: "value out of range".into(),
                    span,
                }),
                Err(ConstError::TooDeep(span)) => {
                    (!std::mem::replace(&mut too_deep, true)).then(|| BoardError::ZonesTooDeep {
                        name: name.name.clone(),
                        limit: rulestone_syntax::MAX_DEPTH,
                        span,
                    })
                }
                // A non-empty zone is fine; anything else was reported by the type and constant
                // checks above.
                Ok(_) | Err(ConstError::NotConstant(_) | ConstError::WrongType(_)) => None,
            })
            .collect();
        for e in found {
            self.report(e);
        }
    }

    /// Token starts (cells named in the file) and track lanes (a player's, over distinct cells).
    pub(super) fn check_tracks(&mut self) {
        let file = self.file;
        for (i, item) in file.items.iter().enumerate() {
            match &item.kind {
                ItemKind::Token { start, .. } => {
                    let cx = Cx {
                        axes: Axes::Hidden,
                        constant: Some(Constant::Token(i)),
                    };
                    self.constant_reported = false;
                    self.expect(start, Ty::Cell, cx);
                }
                ItemKind::Track { name, lanes } => {
                    let mut seen: Vec<&Ident> = Vec::new();
                    for lane in lanes {
                        self.expect_kind(&lane.player, Sym::Player, None);
                        for cell in &lane.cells {
                            if self.is_cell_name(&cell.name) {
                                self.uses.record_cell(cell);
                            }
                            if !self.is_cell_name(&cell.name) {
                                if self.names.contains_key(&cell.name) {
                                    self.report(ResolveError::WrongKind {
                                        expected: "a cell name".into(),
                                        found: self.describe_name(&cell.name),
                                        span: cell.span,
                                        help: Some("a lane lists cells of the board, entry first: `a4 -> a3 -> a2`".into()),
                                    });
                                } else {
                                    self.unknown_name(cell, Axes::Hidden);
                                }
                            } else if let Some(first) = seen.iter().find(|c| c.name == cell.name) {
                                self.report(BoardError::TrackCellTwice {
                                    name: cell.name.clone(),
                                    track: name.name.clone(),
                                    span: cell.span,
                                    first: first.span,
                                });
                            } else {
                                seen.push(cell);
                            }
                        }
                    }
                }
                _ => {}
            }
        }
    }

    /// Counter start values: integers known before play.
    pub(super) fn check_counters(&mut self) {
        let file = self.file;
        for (i, item) in file.items.iter().enumerate() {
            if let ItemKind::Counter { init, .. } = &item.kind {
                let cx = Cx {
                    axes: Axes::Hidden,
                    constant: Some(Constant::Counter(i)),
                };
                self.constant_reported = false;
                self.expect(init, Ty::Int, cx);
            }
        }
    }
}
