//! What the checker hands on besides the syntax tree: the type of every expression it checked,
//! so that the lowering translates and never infers or guesses a type of its own.
//!
//! Invariant: every expression of a game that checks clean, in a place the lowering reads
//! (declarations, programs, used defines), has its type here. Defines are macros checked at
//! each use; their body's expressions have the same type at every use.

use std::collections::HashMap;

use crate::syntax::ast::{Expr, ExprKind};

/// The type of an expression. The last group are kinds of names that only built-in functions
/// and statements take as arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Int,
    Bool,
    Cell,
    Cells,
    Player,
    /// A word of the option with this index.
    Enum(usize),
    Text,
    Piece,
    Direction,
    Relation,
    Pattern,
    /// A set of shapes, such as `unplayed(mover)`.
    Shapes,
    /// A shape placed by `place`.
    Placement,
    /// A direction value (`pick d in R`): one vector of a relation.
    Dir,
    /// Already reported: compatible with everything so one mistake gives one error.
    Error,
}

impl Ty {
    /// A kind of name that only built-in functions and statements take.
    pub(crate) fn is_kind(self) -> bool {
        matches!(
            self,
            Ty::Piece | Ty::Direction | Ty::Relation | Ty::Pattern | Ty::Shapes
        )
    }

    /// Whether a value of type `self` may stand where `want` is expected.
    pub(crate) fn fits(self, want: Ty) -> bool {
        self == want
            || self == Ty::Error
            || want == Ty::Error
            || (self == Ty::Cell && want == Ty::Cells)
            // A direction is the relation of its one vector.
            || (self == Ty::Direction && want == Ty::Relation)
    }
}

/// The type of each checked expression, keyed by the expression's span and kind (a parent and
/// its child never share both).
#[derive(Clone, Debug, Default)]
pub struct ExprTypes {
    types: HashMap<(u32, u32, u8), Ty>,
}

impl ExprTypes {
    /// Records `ty` for `e`. A type already known is kept over `Error` (a lenient pass that
    /// could not tell must not hide what a full pass found).
    pub(super) fn record(&mut self, e: &Expr, ty: Ty) {
        let slot = self.types.entry(key(e)).or_insert(ty);
        if *slot == Ty::Error {
            *slot = ty;
        }
    }

    /// The type the checker found for `e`, if it checked `e`.
    #[must_use]
    pub fn of(&self, e: &Expr) -> Option<Ty> {
        self.types.get(&key(e)).copied()
    }
}

fn key(e: &Expr) -> (u32, u32, u8) {
    let kind = match &e.kind {
        ExprKind::Int(_) => 0,
        ExprKind::Name(_) => 1,
        ExprKind::Call { .. } => 2,
        ExprKind::CellSet(_) => 3,
        ExprKind::Unary { .. } => 4,
        ExprKind::Binary { .. } => 5,
        ExprKind::Field { .. } => 6,
        ExprKind::Index { .. } => 7,
    };
    (e.span.start, e.span.end, kind)
}
