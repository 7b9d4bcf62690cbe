//! The note on a `where` whose condition stays a test of every cell (W0608): a condition that
//! reads the candidate through two coordinates at once and otherwise only coordinates of known
//! cells, such as `abs(x - from.x) + abs(y - from.y) == 1`. The lowering answers a comparison on
//! one coordinate (and an `and` or `or` of such) by looking the cells up (`rulestone_ir`'s
//! axis filter); this condition it cannot, yet the cells it keeps are a fixed shape around the
//! known cells, which a relation, a map or a zone declared once would find by lookup.
//!
//! The note is narrow on purpose: a condition that reads anything else (a counter, the
//! candidate's owner or counters, a set, a define) or that the lowering turns into lookups gets
//! none, nor does a `where` one of whose other parts is a lookup (the test then runs only on
//! the cells the lookup leaves).

use rulestone_syntax::ast::{BinaryOp, Expr, ExprKind, UnaryOp};
#[cfg(test)]
use rulestone_syntax::Span;

use super::names::Sym;
use super::{builtins, Checker, Cx};

/// What a condition (or a number inside it) reads, for the note.
#[derive(Clone, Copy, Debug, Default)]
struct Reads {
    /// The candidate's coordinates read, one bit per axis.
    axes: u32,
    /// Some coordinate of a cell known at run time (a picked variable, a token).
    known_cells: bool,
    /// Anything else: a counter, a set, a call, the candidate's own counters...
    other: bool,
}

impl Reads {
    fn join(self, b: Reads) -> Reads {
        Reads {
            axes: self.axes | b.axes,
            known_cells: self.known_cells || b.known_cells,
            other: self.other || b.other,
        }
    }

    const OTHER: Reads = Reads {
        axes: 0,
        known_cells: false,
        other: true,
    };
}

impl Checker<'_> {
    /// W0608 on the parts of `base where cond` that stay a test of every cell of `base` and
    /// could be a lookup; only in play (a constant `where` is computed once).
    pub(super) fn lookup_note(&mut self, cond: &Expr, cx: Cx) {
        if cx.constant.is_some() || self.board.is_none() {
            return;
        }
        let mut parts = Vec::new();
        conjuncts(cond, &mut parts);
        let reads: Vec<Reads> = parts.iter().map(|p| self.reads(p)).collect();
        // Another part that is a lookup leaves few cells to test: no note then.
        let looked_up = parts
            .iter()
            .zip(&reads)
            .any(|(p, r)| r.axes != 0 && !r.other && self.plannable(p));
        if looked_up {
            return;
        }
        for (part, r) in parts.iter().zip(&reads) {
            if r.axes.count_ones() >= 2 && r.known_cells && !r.other && !self.plannable(part) {
                let axes = self.axis_names(r.axes);
                self.report(crate::error::Lint::CouldBeLookup {
                    axes,
                    span: part.span,
                });
            }
        }
    }

    /// Whether the lowering answers `e` by lookups: it reads at most one coordinate, or it is
    /// an `and` or an `or` of such conditions (as `rulestone_ir`'s axis filter plans it).
    fn plannable(&self, e: &Expr) -> bool {
        if self.reads(e).axes.count_ones() <= 1 {
            return true;
        }
        match &e.kind {
            ExprKind::Binary {
                op: BinaryOp::And | BinaryOp::Or,
                lhs,
                rhs,
            } => self.plannable(lhs) && self.plannable(rhs),
            _ => false,
        }
    }

    /// What `e`, inside a `where`, reads.
    fn reads(&self, e: &Expr) -> Reads {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Decimal(_) => Reads::default(),
            ExprKind::Name(id) => {
                if let Some(j) = self.axis_index(&id.name) {
                    return Reads {
                        axes: 1u32
                            .checked_shl(u32::try_from(j).unwrap_or(u32::MAX))
                            .unwrap_or(0),
                        ..Reads::default()
                    };
                }
                match self.names.get(&id.name).map(|&i| self.entries[i].sym) {
                    Some(Sym::Option { .. }) if self.lookup_var(&id.name).is_none() => {
                        Reads::default()
                    }
                    _ => Reads::OTHER,
                }
            }
            ExprKind::Field { base, field } => {
                let ExprKind::Name(id) = &base.kind else {
                    return Reads::OTHER;
                };
                if self.axis_index(&field.name).is_none() || !self.is_known_cell(&id.name) {
                    return Reads::OTHER;
                }
                Reads {
                    known_cells: true,
                    ..Reads::default()
                }
            }
            ExprKind::Unary { op, operand } => match op {
                UnaryOp::Not | UnaryOp::Neg => self.reads(operand),
            },
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::Where | BinaryOp::In | BinaryOp::Union | BinaryOp::Inter => Reads::OTHER,
                _ => self.reads(lhs).join(self.reads(rhs)),
            },
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => self
                .reads(cond)
                .join(self.reads(then))
                .join(self.reads(otherwise)),
            ExprKind::Call { func, args } => {
                let arithmetic = builtins::function(&func.name).is_some_and(|f| {
                    matches!(
                        f.func_id(),
                        Some(builtins::Func::Abs | builtins::Func::Max | builtins::Func::Min)
                    )
                });
                if !arithmetic {
                    return Reads::OTHER;
                }
                args.iter()
                    .fold(Reads::default(), |r, a| r.join(self.reads(a)))
            }
            ExprKind::CellSet(_) | ExprKind::Index { .. } => Reads::OTHER,
        }
    }

    /// Whether `name` is a cell known when the `where` runs: a picked (or parameter) cell
    /// variable or a token.
    fn is_known_cell(&self, name: &str) -> bool {
        if self.lookup_var(name).is_some() {
            return !(self.set_vars.contains(name)
                || self.placement_vars.contains(name)
                || self.dir_vars.contains(name)
                || self.player_vars.contains(name));
        }
        matches!(
            self.names.get(name).map(|&i| self.entries[i].sym),
            Some(Sym::Token)
        )
    }

    /// `x` and `y`: the names of the axes in a bit set, in board order.
    fn axis_names(&self, bits: u32) -> String {
        let names: Vec<String> = self
            .board
            .map(|b| {
                b.axes
                    .iter()
                    .enumerate()
                    .filter(|(j, _)| j < &32 && bits & (1 << j) != 0)
                    .map(|(_, a)| format!("`{}`", a.name))
                    .collect()
            })
            .unwrap_or_default();
        match names.split_last() {
            Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
            _ => names.join(""),
        }
    }
}

/// The operands of the `and`s at the top of `cond`, left to right.
fn conjuncts<'e>(cond: &'e Expr, out: &mut Vec<&'e Expr>) {
    if let ExprKind::Binary {
        op: BinaryOp::And,
        lhs,
        rhs,
    } = &cond.kind
    {
        conjuncts(lhs, out);
        conjuncts(rhs, out);
    } else {
        out.push(cond);
    }
}

/// The span of a condition, for tests.
#[cfg(test)]
fn span_text(source: &str, span: Span) -> &str {
    &source[span.start as usize..span.end as usize]
}

#[cfg(test)]
mod tests {
    const GAME: &str = "game \"T\"\nplayers A, B\noption n: 0..9 = 2\nboard {\n    axes x, y\n    cells x in 0..4, y in 0..4\n    name \"{x}{y}\"\n}\npiece stone\ncounter k = 0\ncounter height per cell = 0\nrelation king = (1, 0) | (0, 1)\nturn {\n    pick c in empty\n    pick d in SET\n    put stone at d\n    write \"{c}{d}\"\n}\non no moves {\n    lose mover\n}\n";

    /// The W0608 notes of the game with `SET` as the second pick's set, as the conditions'
    /// texts.
    fn notes(set: &str) -> Vec<String> {
        let source = GAME.replace("SET", set);
        let file = rulestone_syntax::parse(&source).expect("parses");
        let (_, diags) = crate::check(&file);
        let mut out = Vec::new();
        for d in &diags {
            let code = rulestone_diag::code_of(d.as_ref()).unwrap_or_default();
            assert!(
                rulestone_diag::severity(d.as_ref()) != miette::Severity::Error,
                "{set}: {d:?}"
            );
            if code == "W0608" {
                let label = d.labels().and_then(|mut l| l.next()).expect("a label");
                let span = rulestone_syntax::Span {
                    start: u32::try_from(label.offset()).expect("small"),
                    end: u32::try_from(label.offset() + label.len()).expect("small"),
                };
                out.push(super::span_text(&source, span).to_string());
            }
        }
        out
    }

    /// Two coordinates against a known cell's: a shape around it, tested on every cell.
    #[test]
    fn a_shape_around_a_known_cell_is_noted() {
        for cond in [
            "abs(x - c.x) + abs(y - c.y) == 1",
            "x + y == c.x + c.y",
            "max(abs(x - c.x), abs(y - c.y)) == n",
        ] {
            assert_eq!(notes(&format!("cells where {cond}")), [cond], "{cond}");
        }
        assert_eq!(
            notes("empty where x - y == c.x - c.y and height == 0"),
            ["x - y == c.x - c.y"]
        );
    }

    /// What the lowering looks up, what reads anything but coordinates, what is constant, and a
    /// `where` with a lookup beside the test: no note.
    #[test]
    fn lookups_and_other_conditions_are_not_noted() {
        for set in [
            "cells where x == c.x + 1",
            "cells where x == c.x + 1 and y == c.y",
            "cells where x / 3 == c.x / 3 and y / 3 == c.y / 3",
            "cells where (x == c.x and y > 1) or y == c.y",
            "cells where x + y == k",
            "cells where x + y == n",
            "cells where (x + y) % 2 == 0",
            "empty where x + y == c.x + height",
            "cells where x == c.x and x + y == c.x + c.y",
            "step(king, {c})",
        ] {
            assert!(notes(set).is_empty(), "{set}");
        }
    }
}
