//! What the checker hands on besides the syntax tree: every declared name with what it
//! stands for ([`Names`]: declarations, and which declaration each use of a name refers to),
//! and the type of every expression it checked ([`ExprTypes`]), so that the lowering translates
//! and never resolves a name or infers a type of its own, and editors can go from a use to its
//! declaration and back.
//!
//! Invariant: every expression of a game that checks clean, in a place the lowering reads
//! (declarations, programs, used defines), has its type here. Defines are macros checked at
//! each use; their body's expressions have the same type at every use (the checker refuses a
//! define whose arguments give a part of its body another type at another use, E0201).

use std::collections::HashMap;

use rulestone_syntax::ast::{Expr, ExprKind};

/// What a declared name stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum DeclKind {
    Option {
        index: usize,
        is_enum: bool,
    },
    Word {
        option: usize,
    },
    Player,
    Direction,
    Relation {
        item: usize,
    },
    Pattern,
    /// A `map`: each cell's image, used by `shift`.
    Map,
    Zone {
        item: usize,
    },
    Piece,
    Counter {
        per_player: bool,
    },
    /// A `counter ... per cell`.
    Layer,
    /// A `token`: a cell value that changes during play.
    Token,
    /// A `track`: read and written like a per-cell counter (pieces waiting per field).
    Track,
    Shape,
    Define {
        item: usize,
    },
    /// A `procedure`: a named block of statements, called as a statement.
    Procedure {
        item: usize,
    },
}

impl DeclKind {
    #[must_use]
    pub fn kind(self) -> &'static str {
        match self {
            DeclKind::Option { .. } => "option",
            DeclKind::Word { .. } => "option word",
            DeclKind::Player => "player",
            DeclKind::Direction => "direction",
            DeclKind::Relation { .. } => "relation",
            DeclKind::Pattern => "pattern",
            DeclKind::Map => "map",
            DeclKind::Zone { .. } => "zone",
            DeclKind::Piece => "piece",
            DeclKind::Counter { .. } => "counter",
            DeclKind::Layer => "per-cell counter",
            DeclKind::Token => "token",
            DeclKind::Track => "track",
            DeclKind::Shape => "shape",
            DeclKind::Define { .. } => "definition",
            DeclKind::Procedure { .. } => "procedure",
        }
    }
}

/// A declaration's index in [`Names::decls`], in file order.
pub type DeclId = usize;

/// One declared name.
#[derive(Clone, Debug)]
pub struct Decl {
    pub name: String,
    pub kind: DeclKind,
    /// The name where it is declared.
    pub span: rulestone_syntax::Span,
}

/// Every declared name of a checked game and, for each use of a name the checker resolved to a
/// declaration, which one.
#[derive(Clone, Debug, Default)]
pub struct Names {
    pub decls: Vec<Decl>,
    by_name: HashMap<String, DeclId>,
    uses: Uses,
}

impl Names {
    pub(super) fn new(decls: Vec<Decl>, uses: Uses) -> Names {
        let by_name = decls
            .iter()
            .enumerate()
            .map(|(i, d)| (d.name.clone(), i))
            .collect();
        Names {
            decls,
            by_name,
            uses,
        }
    }

    /// The declaration of a global name.
    #[must_use]
    pub fn lookup(&self, name: &str) -> Option<DeclId> {
        self.by_name.get(name).copied()
    }

    /// The declaration the name at `span` refers to, if it is a use of a declared name.
    #[must_use]
    pub fn used_at(&self, span: rulestone_syntax::Span) -> Option<DeclId> {
        self.uses.at.get(&(span.start, span.end)).copied()
    }

    /// The cell name at `span`, if the name there is a cell's (for the default options: with
    /// other option values the board may have no such cell).
    #[must_use]
    pub fn cell_named_at(&self, span: rulestone_syntax::Span) -> Option<&str> {
        self.uses
            .cells
            .get(&(span.start, span.end))
            .map(String::as_str)
    }

    /// Every declaration used somewhere (once each, whatever the number of uses).
    #[must_use]
    pub fn used(&self) -> std::collections::HashSet<DeclId> {
        self.uses.at.values().copied().collect()
    }

    /// Every place a declaration is used, in source order.
    #[must_use]
    pub fn uses_of(&self, decl: DeclId) -> Vec<rulestone_syntax::Span> {
        let mut spans: Vec<rulestone_syntax::Span> = self
            .uses
            .at
            .iter()
            .filter(|(_, &d)| d == decl)
            .map(|(&(start, end), _)| rulestone_syntax::Span { start, end })
            .collect();
        spans.sort_by_key(|s| s.start);
        spans
    }
}

/// Which declaration each resolved use of a name refers to, by the use's span, and which names
/// the checker read as cell names.
#[derive(Clone, Debug, Default)]
pub struct Uses {
    at: HashMap<(u32, u32), DeclId>,
    /// The cell names used, by span.
    cells: HashMap<(u32, u32), String>,
}

impl Uses {
    pub(super) fn record(&mut self, span: rulestone_syntax::Span, decl: DeclId) {
        self.at.insert((span.start, span.end), decl);
    }

    pub(super) fn record_cell(&mut self, id: &rulestone_syntax::Ident) {
        self.cells
            .insert((id.span.start, id.span.end), id.name.clone());
    }
}

/// The type of an expression. The last group are kinds of names that only built-in functions
/// and statements take as arguments.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Ty {
    Int,
    /// A decimal number, kept in hundredths (`7.5`, a decimal option): an integer promotes to
    /// it in arithmetic and comparisons.
    Decimal,
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
    /// A `map`: taken only by `shift`.
    Map,
    /// Already reported: compatible with everything so one mistake gives one error.
    Error,
}

impl Ty {
    /// A kind of name that only built-in functions and statements take.
    pub(crate) fn is_kind(self) -> bool {
        matches!(
            self,
            Ty::Piece | Ty::Direction | Ty::Relation | Ty::Pattern | Ty::Shapes | Ty::Map
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

pub use super::builtins::{Builtin, Func, Value};

/// The type of each checked expression, keyed by the expression's span and kind (a parent and
/// its child never share both), and the built-in each call or name of a built-in resolved to.
#[derive(Clone, Debug, Default)]
pub struct ExprTypes {
    types: HashMap<(u32, u32, u8), Ty>,
    builtins: HashMap<(u32, u32, u8), Builtin>,
}

impl ExprTypes {
    /// Records `ty` for `e`. A type already known is kept over `Error` (a lenient pass that
    /// could not tell must not hide what a full pass found); the type known before is returned
    /// when it differs from `ty` (a define's body given different types by its arguments).
    pub(super) fn record(&mut self, e: &Expr, ty: Ty) -> Option<Ty> {
        let slot = self.types.entry(key(e)).or_insert(ty);
        if *slot == Ty::Error {
            *slot = ty;
        }
        (ty != Ty::Error && *slot != ty).then_some(*slot)
    }

    /// The type the checker found for `e`, if it checked `e`.
    #[must_use]
    pub fn of(&self, e: &Expr) -> Option<Ty> {
        self.types.get(&key(e)).copied()
    }

    /// Records that `e` (a call or a name) is a use of the built-in `b`.
    pub(super) fn record_builtin(&mut self, e: &Expr, b: Builtin) {
        self.builtins.insert(key(e), b);
    }

    /// The built-in function a call resolved to.
    #[must_use]
    pub fn func(&self, e: &Expr) -> Option<Func> {
        match self.builtins.get(&key(e)) {
            Some(Builtin::Func(f)) => Some(*f),
            _ => None,
        }
    }

    /// The built-in value a name resolved to.
    #[must_use]
    pub fn value(&self, e: &Expr) -> Option<Value> {
        match self.builtins.get(&key(e)) {
            Some(Builtin::Value(v)) => Some(*v),
            _ => None,
        }
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
        ExprKind::Decimal(_) => 8,
        ExprKind::If { .. } => 9,
    };
    (e.span.start, e.span.end, kind)
}
