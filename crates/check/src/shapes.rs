//! Shapes (`shape Beam count 3 points 9 { ... }`): their cells, spans and feet, and the board a
//! `place` statement turns them on.

use std::collections::HashMap;

use super::error::ShapeError;
use super::expr::Ty;
use super::{Axes, Checker, Constant, Cx};
use rulestone_syntax::ast::{vector_text, Block, File, ItemKind, StmtKind};

/// Every `place` statement of a block, nested blocks included.
fn places<'b>(block: &'b Block, out: &mut Vec<&'b rulestone_syntax::Ident>) {
    for s in &block.stmts {
        match &s.kind {
            StmtKind::Place { turned, .. } => out.push(turned),
            StmtKind::If {
                then, otherwise, ..
            } => {
                places(then, out);
                if let Some(o) = otherwise {
                    places(o, out);
                }
            }
            StmtKind::Either(bs) | StmtKind::First(bs) => {
                for b in bs {
                    places(b, out);
                }
            }
            StmtKind::Repeat { body, .. }
            | StmtKind::Distinct(body)
            | StmtKind::While { body, .. }
            | StmtKind::Call {
                body: Some(body), ..
            } => places(body, out),
            _ => {}
        }
    }
}

/// The relations the `place` statements of a game turn shapes along, in source order.
pub(super) fn turned(file: &File) -> Vec<&rulestone_syntax::Ident> {
    let mut turned = Vec::new();
    for item in &file.items {
        if let ItemKind::Turn(b) | ItemKind::Setup(b) | ItemKind::NoMoves(b) = &item.kind {
            places(b, &mut turned);
        }
    }
    turned
}

impl Checker<'_> {
    pub(super) fn check_shapes(&mut self) {
        let file = self.file;
        for (i, item) in file.items.iter().enumerate() {
            let ItemKind::Shape(shape) = &item.kind else {
                continue;
            };
            let cx = Cx {
                axes: Axes::Hidden,
                constant: Some(Constant::Shape(i)),
            };
            for e in shape.count.iter().chain(&shape.points) {
                self.constant_reported = false;
                self.expect(e, Ty::Int, cx);
            }
            if let Some((mark, span)) = &shape.flip {
                if mark.contains(rulestone_syntax::MOVE_SEPARATOR) {
                    // Written after the shape's name in the notation of a placement.
                    self.report(crate::error::GameError::SeparatorInNotation {
                        what: "a shape's flip mark",
                        sep: rulestone_syntax::MOVE_SEPARATOR,
                        span: *span,
                    });
                }
            }
            let name = &shape.name.name;
            let mut seen: HashMap<Vec<i64>, rulestone_syntax::Span> = HashMap::new();
            for part in &shape.parts {
                if part.bottom < 0 || part.top <= part.bottom {
                    self.report(ShapeError::EmptySpan {
                        shape: name.clone(),
                        bottom: part.bottom,
                        top: part.top,
                        span: part.span_span,
                    });
                }
                for v in &part.cells {
                    if !self.shape_cell_vector(v) {
                        continue;
                    }
                    if let Some(&first) = seen.get(&v.components) {
                        self.report(ShapeError::RepeatedCell {
                            shape: name.clone(),
                            cell: vector_text(&v.components),
                            span: v.span,
                            first,
                        });
                    } else {
                        seen.insert(v.components.clone(), v.span);
                    }
                }
            }
            for foot in shape.feet.iter().flatten() {
                if self.shape_cell_vector(foot) && !seen.contains_key(&foot.components) {
                    self.report(ShapeError::FootOutside {
                        shape: name.clone(),
                        cell: vector_text(&foot.components),
                        span: foot.span,
                    });
                }
            }
        }
        let turned = turned(file);
        if let Some(board) = self.board {
            let axes = board.axes.len();
            if axes != 2 {
                for t in turned {
                    self.report(ShapeError::NotPlanar { axes, span: t.span });
                }
            }
        }
    }
}
