//! Expression types: every expression is inferred bottom-up and checked against what its
//! context expects. Defines are macros, so a define's body is checked at each use, in the
//! context of that use.

use super::builtins::{self, Rule, Spec};
use super::error::{BoardError, GameError, ResolveError, TypeError};
use super::names::{builtin_value, Sym, Want};
use super::suggest;
use super::{Axes, Checker, Constant, Cx};
use rulestone_syntax::ast::{BinaryOp, Expr, ExprKind, ItemKind, Template, TemplatePart, UnaryOp};
use rulestone_syntax::{Ident, Span};

pub use super::model::Ty;
use super::model::{Builtin as Resolved, Value};

/// How many expression parts the expansions of defines may add to a game in all (E0007); the
/// bundled games need a few hundred.
const MAX_EXPANDED: usize = 100_000;

fn count_words(n: usize, word: &str) -> String {
    if n == 1 {
        format!("1 {word}")
    } else {
        format!("{n} {word}s")
    }
}

impl Checker<'_> {
    /// "`int`", "a `variant` word", "a piece".
    pub(super) fn describe_ty(&self, t: Ty) -> String {
        match t {
            Ty::Int => "`int`".into(),
            Ty::Decimal => "a decimal number".into(),
            Ty::Bool => "`bool`".into(),
            Ty::Cell => "`cell`".into(),
            Ty::Cells => "`cells`".into(),
            Ty::Player => "`player`".into(),
            Ty::Text => "`text`".into(),
            Ty::Enum(o) => match self.options.get(o) {
                Some(decl) => format!("a `{}` word", decl.name.name),
                None => "an option word".into(),
            },
            Ty::Piece => "a piece".into(),
            Ty::Direction => "a direction".into(),
            Ty::Relation => "a relation".into(),
            Ty::Pattern => "a pattern".into(),
            Ty::Shapes => "a set of shapes".into(),
            Ty::Placement => "a placed shape".into(),
            Ty::Dir => "a direction value".into(),
            Ty::Map => "a map".into(),
            Ty::Error => "an erroneous value".into(),
        }
    }

    /// Describes an expression of type `t`: a name by what it names, anything else by type.
    pub(super) fn describe_expr(&self, e: &Expr, t: Ty) -> String {
        match &e.kind {
            ExprKind::Name(id) if t.is_kind() || self.names.contains_key(&id.name) => {
                self.describe_name(&id.name)
            }
            _ => self.describe_ty(t),
        }
    }

    /// Checks that `e` has type `want` (a cell stands for a one-cell set).
    pub(super) fn expect(&mut self, e: &Expr, want: Ty, cx: Cx) -> Ty {
        let found = self.infer_wanted(e, Want::Ty(want), cx);
        if found.fits(want) {
            return found;
        }
        self.mismatch(e, want, found);
        Ty::Error
    }

    fn mismatch(&mut self, e: &Expr, want: Ty, found: Ty) {
        if want.is_kind() || found.is_kind() {
            let help = match (want, found) {
                (Ty::Relation, Ty::Dir) => Some(
                    "a direction value stands for its relation's one vector only in `step`, `ray` \
                     and `run` (and is tested with `d in R`); elsewhere name the relation"
                        .to_string(),
                ),
                (Ty::Relation, Ty::Direction) => Some(match &e.kind {
                    ExprKind::Name(id) => {
                        format!(
                            "declare a relation such as `relation r = {}` and use `r`",
                            id.name
                        )
                    }
                    _ => "declare a relation with this direction and use it".to_string(),
                }),
                (Ty::Direction, Ty::Relation) => Some(
                    "`line` follows one direction; declare `direction d = (...)` and use it"
                        .to_string(),
                ),
                (Ty::Cells | Ty::Cell, Ty::Piece) => match &e.kind {
                    ExprKind::Name(id) => Some(format!(
                        "the cells holding this piece are `pieces({})`",
                        id.name
                    )),
                    _ => None,
                },
                _ => None,
            };
            self.report(ResolveError::WrongKind {
                expected: self.describe_ty(want),
                found: self.describe_expr(e, found),
                span: e.span,
                help,
            });
            return;
        }
        let help = match (want, found) {
            (Ty::Cell, Ty::Cells) => {
                Some("choose one cell of the set with `pick c in ...` and use `c`".to_string())
            }
            (Ty::Bool, Ty::Cells) => {
                Some("to test whether the set has cells, write `count(...) > 0`".to_string())
            }
            (Ty::Bool, Ty::Int | Ty::Decimal) => {
                Some("compare the number, e.g. `... > 0`".to_string())
            }
            (Ty::Int, Ty::Decimal) => Some(
                "decimal numbers can be compared, added, negated, multiplied or divided by an \
                 integer, and given as a `score`; counts, counters and coordinates hold integers"
                    .to_string(),
            ),
            (Ty::Int, Ty::Cells | Ty::Cell) => {
                Some("to count cells, write `count(...)`".to_string())
            }
            (Ty::Player, Ty::Cell) => {
                Some("the owner of the piece on a cell is `owner(...)`".to_string())
            }
            (Ty::Enum(o), Ty::Enum(_)) => self.options.get(o).map(|decl| {
                format!(
                    "option `{}` takes {}",
                    decl.name.name,
                    super::options::accepted(decl)
                )
            }),
            _ => None,
        };
        self.report(TypeError::Mismatch {
            expected: self.describe_ty(want),
            found: self.describe_ty(found),
            span: e.span,
            help,
        });
    }

    /// Reports that a constant expression uses something that is not constant (once per
    /// expression).
    pub(super) fn not_constant(&mut self, cx: Cx, span: Span, reason: String) {
        let Some(constant) = cx.constant else {
            return;
        };
        if self.constant_reported {
            return;
        }
        self.constant_reported = true;
        let item_name = |i: usize| {
            self.file
                .items
                .get(i)
                .and_then(|it| it.kind.declared_name())
                .map_or_else(String::new, |n| n.name.clone())
        };
        let (what, help) = match constant {
            Constant::Board => (
                "the board declaration".to_string(),
                "cell ranges, the `if` filter and the name may use only integers, options, \
                 earlier axes and `letter`",
            ),
            Constant::Zone(i) => (
                format!("zone `{}`", item_name(i)),
                "a zone may use only cell names, `cells`, other zones, `|`, `&`, `-` and `where` \
                 conditions on axes and options",
            ),
            Constant::Counter(i) => (
                format!("the start value of counter `{}`", item_name(i)),
                "a counter starts from integers and options; change it during play with `=`, `+=` \
                 or `-=`",
            ),
            Constant::Token(i) => (
                format!("the start of token `{}`", item_name(i)),
                "a token starts on a cell named in the file, such as `d5`",
            ),
            Constant::Shape(i) => (
                format!("the count or points of shape `{}`", item_name(i)),
                "a shape's count and points are integers or options",
            ),
        };
        self.report(BoardError::NotConstant {
            what,
            reason,
            span,
            help: Some(help.to_string()),
        });
    }

    /// The type of an expression without reporting anything (for choosing how to check it).
    pub(super) fn infer_quiet(&mut self, e: &Expr, cx: Cx) -> Ty {
        // What the quiet run adds is undone from logs of it, so that its cost is the
        // expression's, not the file's.
        let diags = self.diags.len();
        let errors = self.errors;
        let reported = self.constant_reported;
        let used = self.newly_used.len();
        let t = self.infer(e, cx);
        for d in self.diags.drain(diags..) {
            self.seen.remove(&super::seen_key(d.as_ref()));
        }
        self.errors = errors;
        self.constant_reported = reported;
        for i in self.newly_used.drain(used..) {
            self.entries[i].used = false;
        }
        t
    }

    /// Infers the type of an expression, reporting what is wrong inside it, and records it for
    /// the lowering ([`ExprTypes`](super::model::ExprTypes)).
    pub(super) fn infer(&mut self, e: &Expr, cx: Cx) -> Ty {
        // The parser bounds the depth of each expression as written; expanding defines inside
        // one another can still nest deeper, and every later stage would recurse as deep.
        if self.depth > rulestone_syntax::MAX_DEPTH {
            // Reported once, at the outermost use of the first expansion found too deep: kept
            // aside so that a quiet inference cannot drop it.
            if self.too_deep.is_none() {
                let (define, at) = self.expanding.first().map_or_else(
                    || (String::new(), e.span),
                    |&(entry, at)| (self.entries[entry].name.clone(), at),
                );
                self.too_deep = Some(Box::new(GameError::DefinesTooDeep {
                    limit: rulestone_syntax::MAX_DEPTH,
                    define,
                    span: at,
                }));
            }
            return Ty::Error;
        }
        if !self.expanding.is_empty() {
            // Arguments can double a body at each level (`d(d(d(x)))` with `d(x) = x + x`):
            // the parts all expansions add together are bounded too, so checking stays quick.
            self.expanded += 1;
            if self.expanded > MAX_EXPANDED {
                if self.too_deep.is_none() {
                    let &(entry, at) = &self.expanding[0];
                    self.too_deep = Some(Box::new(GameError::DefinesTooLarge {
                        limit: MAX_EXPANDED,
                        define: self.entries[entry].name.clone(),
                        span: at,
                    }));
                }
                return Ty::Error;
            }
        }
        self.depth += 1;
        let t = self.infer_kind(e, cx);
        self.depth -= 1;
        if let Some(before) = self.types.record(e, t) {
            self.body_types_differ(e, before, t);
        }
        t
    }

    /// A part of a define's body whose type differs from one use to another, as arguments of
    /// different types can make it: the body is compiled once for all uses, so this is refused
    /// (E0201).
    fn body_types_differ(&mut self, e: &Expr, before: Ty, now: Ty) {
        let file = self.file;
        let inside = self.expanding.iter().rev().find_map(|&(entry, _)| {
            let (Sym::Define { item } | Sym::Procedure { item }) = self.entries[entry].sym else {
                return None;
            };
            match file.items.get(item).map(|i| &i.kind) {
                Some(ItemKind::Procedure { params, body, .. })
                    if !params.is_empty()
                        && body.span.start <= e.span.start
                        && e.span.end <= body.span.end =>
                {
                    Some(entry)
                }
                Some(ItemKind::Define { params, expr, .. })
                    if !params.is_empty()
                        && expr.span.start <= e.span.start
                        && e.span.end <= expr.span.end =>
                {
                    Some(entry)
                }
                _ => None,
            }
        });
        let Some(entry) = inside else {
            return;
        };
        self.report(TypeError::DefineBodyTypes {
            define: self.entries[entry].name.clone(),
            before: self.describe_ty(before),
            now: self.describe_ty(now),
            span: e.span,
        });
    }

    fn infer_kind(&mut self, e: &Expr, cx: Cx) -> Ty {
        match &e.kind {
            ExprKind::Int(_) => Ty::Int,
            ExprKind::Decimal(_) => Ty::Decimal,
            ExprKind::Name(id) => self.name(e, id, cx),
            ExprKind::Call { func, args } => self.call(e, func, args, cx),
            ExprKind::CellSet(items) => {
                for item in items {
                    self.expect(item, Ty::Cell, cx);
                }
                Ty::Cells
            }
            ExprKind::Unary { op, operand } => match op {
                UnaryOp::Not => {
                    self.expect(operand, Ty::Bool, cx);
                    Ty::Bool
                }
                UnaryOp::Neg => {
                    // The operand is typed once: typing it again at each level of a chain of
                    // minus signs took time exponential in its length.
                    let t = self.infer(operand, cx);
                    if t == Ty::Dir || t == Ty::Decimal {
                        return t;
                    }
                    // Reports the mismatch, if any, once more in terms of `int`.
                    if !t.fits(Ty::Int) {
                        self.mismatch(operand, Ty::Int, t);
                    }
                    Ty::Int
                }
            },
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, cx),
            ExprKind::Field { base, field } => {
                let reason = format!("`.{}` is not allowed here", field.name);
                self.not_constant(cx, field.span, reason);
                if let ExprKind::Name(id) = &base.kind {
                    if self.placement_vars.contains(&id.name) && self.lookup_var(&id.name).is_some()
                    {
                        return match field.name.as_str() {
                            "anchor" => Ty::Cell,
                            "cells" => Ty::Cells,
                            "facing" => Ty::Text,
                            _ => {
                                self.report(TypeError::NoSuchField {
                                    what: format!("placed shape `{}`", id.name),
                                    field: field.name.clone(),
                                    span: field.span,
                                });
                                Ty::Error
                            }
                        };
                    }
                }
                self.expect(base, Ty::Cell, cx);
                if self.board.is_none() || self.axis_index(&field.name).is_some() {
                    return Ty::Int;
                }
                let axes: Vec<&str> = self
                    .board
                    .map(|b| b.axes.iter().map(|a| a.name.as_str()).collect())
                    .unwrap_or_default();
                let help = match suggest::closest(&field.name, axes) {
                    Some(s) => format!("did you mean `{s}`?"),
                    None => format!("the axes are `{}`", self.axis_list()),
                };
                self.report(ResolveError::UnknownAxis {
                    name: field.name.clone(),
                    span: field.span,
                    help: Some(help),
                });
                Ty::Error
            }
            ExprKind::Index { base, index } => self.index(base, index, cx),
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.expect(cond, Ty::Bool, cx);
                let mut number = true;
                for branch in [then, otherwise] {
                    let t = self.infer(branch, cx);
                    if !t.fits(Ty::Int) {
                        number = false;
                        self.report(TypeError::IfNotNumber {
                            found: self.describe_expr(branch, t),
                            span: branch.span,
                        });
                    }
                }
                // A branch already reported: what the `if` stands in adds no second report.
                if number {
                    Ty::Int
                } else {
                    Ty::Error
                }
            }
        }
    }

    fn binary(&mut self, op: BinaryOp, lhs: &Expr, rhs: &Expr, cx: Cx) -> Ty {
        match op {
            BinaryOp::Where => {
                self.expect(lhs, Ty::Cells, cx);
                self.expect(rhs, Ty::Bool, cx.with_axes(Axes::All));
                self.lookup_note(rhs, cx);
                Ty::Cells
            }
            BinaryOp::Or | BinaryOp::And => {
                self.expect(lhs, Ty::Bool, cx);
                self.expect(rhs, Ty::Bool, cx);
                Ty::Bool
            }
            BinaryOp::Eq | BinaryOp::Ne => {
                let l = self.infer(lhs, cx);
                match l {
                    Ty::Int | Ty::Decimal => {
                        self.expect_number(rhs, cx);
                    }
                    Ty::Player | Ty::Enum(_) | Ty::Cell => {
                        self.expect(rhs, l, cx);
                    }
                    Ty::Error => {
                        self.infer(rhs, cx);
                    }
                    _ => {
                        self.report(TypeError::NotComparable {
                            op: op.symbol(),
                            found: self.describe_expr(lhs, l),
                            span: lhs.span,
                        });
                        self.infer(rhs, cx);
                    }
                }
                Ty::Bool
            }
            BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge => {
                self.expect_number(lhs, cx);
                self.expect_number(rhs, cx);
                Ty::Bool
            }
            BinaryOp::In => {
                let span = lhs.span.merge(rhs.span);
                self.not_constant(cx, span, "`in` is not allowed here".to_string());
                if self.infer_quiet(lhs, cx) == Ty::Dir {
                    // `d in R`: whether the direction is one of the relation's.
                    let t = self.infer(rhs, cx);
                    if !matches!(t, Ty::Relation | Ty::Direction | Ty::Error) {
                        self.mismatch(rhs, Ty::Relation, t);
                    }
                    return Ty::Bool;
                }
                self.expect(lhs, Ty::Cell, cx);
                self.expect(rhs, Ty::Cells, cx);
                Ty::Bool
            }
            BinaryOp::Union | BinaryOp::Inter => {
                self.expect(lhs, Ty::Cells, cx);
                self.expect(rhs, Ty::Cells, cx);
                if op == BinaryOp::Inter {
                    self.disjoint_intersection(lhs, rhs);
                }
                Ty::Cells
            }
            BinaryOp::Add | BinaryOp::Mul | BinaryOp::Div | BinaryOp::Rem => {
                self.arithmetic(op, lhs, rhs, cx)
            }
            BinaryOp::Sub => match self.infer(lhs, cx) {
                l @ (Ty::Int | Ty::Decimal) => {
                    let r = self.expect_number(rhs, cx);
                    wider(l, r)
                }
                Ty::Cell | Ty::Cells => {
                    self.expect(rhs, Ty::Cells, cx);
                    Ty::Cells
                }
                Ty::Error => {
                    self.infer(rhs, cx);
                    Ty::Error
                }
                other => {
                    let found = self.describe_expr(lhs, other);
                    let span = lhs.span;
                    if other.is_kind() {
                        self.report(ResolveError::WrongKind {
                            expected: "`int` or `cells`".into(),
                            found,
                            span,
                            help: None,
                        });
                    } else {
                        self.report(TypeError::Mismatch {
                            expected: "`int` or `cells`".into(),
                            found,
                            span,
                            help: None,
                        });
                    }
                    self.infer(rhs, cx);
                    Ty::Error
                }
            },
        }
    }

    /// Checks that `e` is a number (an integer or a decimal) and returns which.
    pub(super) fn expect_number(&mut self, e: &Expr, cx: Cx) -> Ty {
        let found = self.infer_wanted(e, Want::Ty(Ty::Int), cx);
        if found.fits(Ty::Int) || found == Ty::Decimal {
            return found;
        }
        self.mismatch(e, Ty::Int, found);
        Ty::Error
    }

    /// `+ * / %` on numbers. A decimal is exact in hundredths, so it may be added to a number,
    /// multiplied by an integer or divided by one (truncating to hundredths); a product or
    /// quotient of two decimals, and `%`, need integers.
    fn arithmetic(&mut self, op: BinaryOp, lhs: &Expr, rhs: &Expr, cx: Cx) -> Ty {
        let l = self.expect_number(lhs, cx);
        let r = match op {
            BinaryOp::Mul if l == Ty::Decimal => self.expect(rhs, Ty::Int, cx),
            BinaryOp::Div | BinaryOp::Rem => self.expect(rhs, Ty::Int, cx),
            _ => self.expect_number(rhs, cx),
        };
        if op == BinaryOp::Rem && l == Ty::Decimal {
            self.mismatch(lhs, Ty::Int, l);
            return Ty::Error;
        }
        wider(l, r)
    }

    /// `counter[player]`, or `layer[cell]` for a per-cell counter.
    fn index(&mut self, base: &Expr, index: &Expr, cx: Cx) -> Ty {
        if let ExprKind::Name(id) = &base.kind {
            if self.lookup_var(&id.name).is_none()
                && self
                    .names
                    .get(&id.name)
                    .is_some_and(|&i| matches!(self.entries[i].sym, Sym::Layer | Sym::Track))
            {
                self.use_global(id);
                if cx.constant.is_some() {
                    let reason = format!("`{}` changes during play", id.name);
                    self.not_constant(cx, id.span, reason);
                }
                self.expect(index, Ty::Cell, cx);
                return Ty::Int;
            }
        }
        self.expect(index, Ty::Player, cx);
        if let ExprKind::Name(id) = &base.kind {
            if self.lookup_var(&id.name).is_none() {
                if let Some((_, Sym::Counter { per_player })) = self.use_global(id) {
                    if cx.constant.is_some() {
                        let reason = format!("`{}` changes during play", id.name);
                        self.not_constant(cx, id.span, reason);
                    } else if !per_player {
                        self.report(TypeError::NotIndexable {
                            what: format!("counter `{}`", id.name),
                            span: base.span,
                        });
                    }
                    return Ty::Int;
                }
            }
        }
        let t = self.infer(base, cx);
        if t != Ty::Error {
            self.report(TypeError::NotIndexable {
                what: self.describe_expr(base, t),
                span: base.span,
            });
        }
        Ty::Error
    }

    /// Resolves a name used as a value.
    pub(super) fn name(&mut self, e: &Expr, id: &Ident, cx: Cx) -> Ty {
        let n = id.name.as_str();
        if let Some(j) = self.axis_index(n) {
            match cx.axes {
                Axes::All => return Ty::Int,
                Axes::Upto(i) if j < i => return Ty::Int,
                Axes::Upto(_) => {
                    let range = self
                        .board
                        .and_then(|b| b.ranges.iter().find(|r| r.axis.name == n))
                        .map_or(id.span, |r| Span {
                            start: r.axis.span.start,
                            end: r.hi.span.end,
                        });
                    self.report(ResolveError::AxisBeforeRange {
                        name: n.to_string(),
                        span: id.span,
                        range,
                    });
                    return Ty::Int;
                }
                Axes::Hidden => {}
            }
        }
        let position = |what: &str| format!("{what} `{n}` depends on the position");
        if self.lookup_var(n).is_some() {
            self.not_constant(cx, id.span, position("variable"));
            return if self.set_vars.contains(n) {
                Ty::Cells
            } else if self.placement_vars.contains(n) {
                Ty::Placement
            } else if self.dir_vars.contains(n) {
                Ty::Dir
            } else if self.player_vars.contains(n) {
                self.player_var_reads += 1;
                Ty::Player
            } else {
                Ty::Cell
            };
        }
        if let Some((index, sym)) = self.use_global(id) {
            return self.global(id, index, sym, cx);
        }
        if let Some((t, value)) = builtins::value(n).and_then(|s| Some((s.result, s.value_id()?))) {
            self.types.record_builtin(e, Resolved::Value(value));
            if cx.constant == Some(Constant::Board)
                || (value != Value::Cells && cx.constant.is_some())
            {
                let reason = if value == Value::Cells {
                    "the cells are not known while the board is built".to_string()
                } else {
                    position("built-in")
                };
                self.not_constant(cx, id.span, reason);
            } else if value == Value::Repetitions {
                self.history_read(id.span);
            }
            return t;
        }
        if self.is_cell_name(n) {
            self.uses.record_cell(id);
            if cx.constant == Some(Constant::Board) {
                let reason = "cells are not known while the board is built".to_string();
                self.not_constant(cx, id.span, reason);
            }
            return Ty::Cell;
        }
        if let Some(pick) = self.lookup_partial(n) {
            self.report(ResolveError::MaybeUnbound {
                name: n.to_string(),
                span: id.span,
                pick,
            });
            return Ty::Error;
        }
        if let Some(&pick) = self.picks.get(n) {
            if !self.lenient {
                self.report(ResolveError::UsedBeforePick {
                    name: n.to_string(),
                    span: id.span,
                    pick,
                });
            }
            return Ty::Error;
        }
        let could_be_cell = self.cells_unknown && cx.constant != Some(Constant::Board);
        if !self.lenient && !could_be_cell {
            self.unknown_name(id, cx.axes);
        }
        Ty::Error
    }

    fn global(&mut self, id: &Ident, index: usize, sym: Sym, cx: Cx) -> Ty {
        let n = id.name.as_str();
        let in_board = cx.constant == Some(Constant::Board);
        let unavailable =
            |kind: &str| format!("{kind} `{n}` is not known while the board is built");
        match sym {
            Sym::Option { index, is_enum } => {
                let decimal = self.options.get(index).is_some_and(|o| o.is_decimal());
                match (is_enum, decimal) {
                    (true, _) => Ty::Enum(index),
                    (false, true) => Ty::Decimal,
                    (false, false) => Ty::Int,
                }
            }
            Sym::Word { option } => Ty::Enum(option),
            Sym::Player => {
                if cx.constant.is_some() {
                    let reason = format!("player `{n}` is not allowed here");
                    self.not_constant(cx, id.span, reason);
                }
                Ty::Player
            }
            Sym::Procedure { .. } => {
                self.report(ResolveError::WrongKind {
                    expected: "a value".into(),
                    found: self.describe_name(n),
                    span: id.span,
                    help: Some(format!("a procedure runs as a statement, `{n}(...)`")),
                });
                Ty::Error
            }
            Sym::Direction => Ty::Direction,
            Sym::Relation { .. } => Ty::Relation,
            Sym::Pattern => Ty::Pattern,
            Sym::Map => Ty::Map,
            Sym::Piece => Ty::Piece,
            Sym::Zone { .. } => {
                if in_board {
                    self.not_constant(cx, id.span, unavailable("zone"));
                }
                Ty::Cells
            }
            Sym::Counter { per_player } => {
                if cx.constant.is_some() {
                    self.not_constant(cx, id.span, format!("counter `{n}` changes during play"));
                } else if per_player {
                    self.report(TypeError::NeedsIndex {
                        name: n.to_string(),
                        span: id.span,
                    });
                }
                Ty::Int
            }
            Sym::Token => {
                if cx.constant.is_some() {
                    self.not_constant(cx, id.span, format!("token `{n}` moves during play"));
                }
                Ty::Cell
            }
            Sym::Layer | Sym::Track => {
                if cx.constant.is_some() {
                    self.not_constant(cx, id.span, format!("`{n}` changes during play"));
                } else if cx.axes != Axes::All {
                    self.report(TypeError::LayerNeedsCell {
                        name: n.to_string(),
                        span: id.span,
                    });
                }
                Ty::Int
            }
            Sym::Shape => Ty::Shapes,
            Sym::Define { item } => {
                let file = self.file;
                let params = match file.items.get(item).map(|i| &i.kind) {
                    Some(ItemKind::Define { params, .. }) => params.as_slice(),
                    _ => &[],
                };
                if !params.is_empty() {
                    self.define_arity(id, params, 0, id.span);
                    return Ty::Error;
                }
                self.expand(id, index, item, cx)
            }
        }
    }

    /// Reports a use of a define with another number of arguments than it has parameters
    /// (E0202).
    fn define_arity(&mut self, name: &Ident, params: &[Ident], supplied: usize, span: Span) {
        let (expected, help) = if params.is_empty() {
            (
                "no arguments".to_string(),
                format!(
                    "`{}` has no parameters: write it without parentheses",
                    name.name
                ),
            )
        } else {
            let list: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
            (
                count_words(params.len(), "argument"),
                format!(
                    "it is declared as `define {}({})`",
                    name.name,
                    list.join(", ")
                ),
            )
        };
        let supplied = match supplied {
            0 if params.is_empty() => "empty parentheses were".to_string(),
            0 => "none was".to_string(),
            1 => "1 argument was".to_string(),
            n => format!("{n} arguments were"),
        };
        self.report(TypeError::DefineArity {
            name: name.name.clone(),
            expected,
            supplied,
            help,
            span,
        });
    }

    /// Checks a call of a define: its body with each parameter standing for its argument, in
    /// the context of the call (arguments belong to the caller, as the body does).
    fn call_define(&mut self, func: &Ident, args: &[Expr], span: Span, cx: Cx) -> Option<Ty> {
        let &index = self.names.get(&func.name)?;
        let Sym::Define { item } = self.entries[index].sym else {
            return None;
        };
        self.use_global(func);
        let file = self.file;
        let Some(ItemKind::Define { params, expr, .. }) = file.items.get(item).map(|i| &i.kind)
        else {
            return Some(Ty::Error);
        };
        // `name()` of a plain define is refused too: its parentheses would suggest a call.
        if params.len() != args.len() || params.is_empty() {
            self.define_arity(func, params, args.len(), span);
            for a in args {
                self.infer(a, cx);
            }
            return Some(Ty::Error);
        }
        // Recursion is found on the graph of references before any body is checked (E0105).
        // A define met again inside its own expansion is not recursion by itself: in
        // `f(f(v))` the inner call is an argument, which belongs to the caller.
        if self.cyclic.contains(&func.name) {
            return Some(Ty::Error);
        }
        // Arguments copied into the body can double it at each level of nested calls: the
        // copy is refused before it is built, so memory stays bounded too.
        let sizes: Vec<usize> = args.iter().map(Expr::size).collect();
        let size = expr.substituted_size(params, &sizes);
        if self.expanded.saturating_add(size) > MAX_EXPANDED {
            if self.too_deep.is_none() {
                let &(entry, at) = self.expanding.first().unwrap_or(&(index, span));
                self.too_deep = Some(Box::new(GameError::DefinesTooLarge {
                    limit: MAX_EXPANDED,
                    define: self.entries[entry].name.clone(),
                    span: at,
                }));
            }
            return Some(Ty::Error);
        }
        let body = expr.substitute(params, args);
        self.expanding.push((index, span));
        let t = self.infer(&body, cx);
        self.expanding.pop();
        Some(t)
    }

    /// A map applied to cells, `m(S)`: the images of the cells of `S` (a cell is a one-cell
    /// set), as `step` gives a relation's; a cell without an image adds none.
    fn call_map(&mut self, func: &Ident, args: &[Expr], cx: Cx) -> Option<Ty> {
        let &index = self.names.get(&func.name)?;
        if self.entries[index].sym != Sym::Map {
            return None;
        }
        self.use_global(func);
        if let [arg] = args {
            self.expect(arg, Ty::Cells, cx);
            return Some(Ty::Cells);
        }
        self.report(TypeError::DefineArity {
            name: func.name.clone(),
            expected: "1 argument".into(),
            supplied: match args.len() {
                0 => "none was".to_string(),
                n => format!("{n} arguments were"),
            },
            help: format!(
                "a map takes the cell or set whose images it gives: `{}(c)`",
                func.name
            ),
            span: func.span,
        });
        for a in args {
            self.infer(a, cx);
        }
        Some(Ty::Error)
    }

    /// Checks a define's body in the context of one of its uses.
    fn expand(&mut self, id: &Ident, entry: usize, item: usize, cx: Cx) -> Ty {
        if self.cyclic.contains(&id.name) || self.expanding.iter().any(|(e, _)| *e == entry) {
            return Ty::Error;
        }
        let Some(ItemKind::Define { expr, .. }) = self.file.items.get(item).map(|i| &i.kind) else {
            return Ty::Error;
        };
        self.expanding.push((entry, id.span));
        let t = self.infer(expr, cx);
        self.expanding.pop();
        t
    }

    fn call(&mut self, e: &Expr, func: &Ident, args: &[Expr], cx: Cx) -> Ty {
        let span = e.span;
        let Some(f) = builtins::function(&func.name) else {
            if let Some(t) = self.call_define(func, args, span, cx) {
                return t;
            }
            if let Some(t) = self.call_map(func, args, cx) {
                return t;
            }
            if self.names.contains_key(&func.name) || builtin_value(&func.name).is_some() {
                self.report(ResolveError::WrongKind {
                    expected: "a function".into(),
                    found: self.describe_name(&func.name),
                    span: func.span,
                    help: Some(format!(
                        "the built-in functions are {}",
                        builtins::functions()
                            .map(|f| format!("`{}`", f.name))
                            .collect::<Vec<_>>()
                            .join(", ")
                    )),
                });
            } else {
                let help = suggest::closest(&func.name, builtins::functions().map(|f| f.name))
                    .map(|s| format!("did you mean `{s}`?"));
                self.report(ResolveError::UnknownFunction {
                    name: func.name.clone(),
                    span: func.span,
                    help,
                });
            }
            for a in args {
                self.infer(a, cx);
            }
            return Ty::Error;
        };
        self.types.record_builtin(e, f.id);
        if f.rule == Rule::Stocks {
            // Every shape is in a stock, so these read them all.
            for i in 0..self.entries.len() {
                if self.entries[i].sym == Sym::Shape {
                    self.mark_used(i);
                }
            }
        }
        let constant_ok = f.rule == Rule::BoardConstant && cx.constant == Some(Constant::Board);
        if cx.constant.is_some() && !constant_ok {
            self.not_constant(cx, func.span, format!("`{}` is not allowed here", f.name));
        }
        self.arity(f, args.len(), span);
        for (i, a) in args.iter().enumerate() {
            if f.rule == Rule::Coordinates {
                // A cell, then integers (`offset`); integers only (`cell`).
                let want = if i == 0 { f.args[0] } else { Ty::Int };
                self.expect(a, want, cx);
                continue;
            }
            self.call_arg(f, i, a, cx);
        }
        f.result
    }

    /// Reports a call of `f` with the wrong number of arguments.
    fn arity(&mut self, f: &Spec, supplied: usize, span: Span) {
        let (required, most) = match f.rule {
            // One integer per axis, after the cell if there is one.
            Rule::Coordinates => {
                let axes = self.board.map_or(2, |b| b.axes.len());
                let n = axes + f.required - 2;
                (n, n)
            }
            _ => (f.required, f.args.len()),
        };
        if supplied >= required && supplied <= most {
            return;
        }
        let expected = if required == most {
            count_words(required, "argument")
        } else {
            format!("{required} or {most} arguments")
        };
        let supplied = match supplied {
            1 => "1 argument was".to_string(),
            n => format!("{n} arguments were"),
        };
        self.report(TypeError::Arity {
            func: f.name.to_string(),
            expected,
            supplied,
            signature: f.signature,
            span,
        });
    }

    /// Checks argument `i` of a call of `f`, by its type and the function's rule.
    fn call_arg(&mut self, f: &Spec, i: usize, a: &Expr, cx: Cx) {
        let Some(&want) = f.args.get(i) else {
            self.infer(a, cx);
            return;
        };
        match f.rule {
            Rule::Axis if i == 1 => self.axis_arg(a, cx),
            Rule::Track if i == 0 => self.track_arg(a, cx),
            Rule::Layer if i == 0 => self.layer_arg(a, cx),
            // A direction value stands for the relation of its one vector here.
            Rule::RelationOrDir if i == 0 => {
                let t = self.infer_wanted(a, Want::Ty(Ty::Relation), cx);
                if !matches!(t, Ty::Relation | Ty::Direction | Ty::Dir | Ty::Error) {
                    self.mismatch(a, Ty::Relation, t);
                }
            }
            Rule::Plain
            | Rule::RelationOrDir
            | Rule::Axis
            | Rule::Track
            | Rule::Layer
            | Rule::Stocks
            | Rule::Coordinates
            | Rule::BoardConstant => {
                self.expect(a, want, cx);
            }
        }
    }

    /// `flip(d, x)` names an axis of the board.
    fn axis_arg(&mut self, a: &Expr, cx: Cx) {
        let is_axis = matches!(&a.kind, ExprKind::Name(n) if self.axis_index(&n.name).is_some());
        if !is_axis {
            let found = self.infer_quiet(a, cx);
            self.report(TypeError::Mismatch {
                expected: "an axis of the board".into(),
                found: self.describe_expr(a, found),
                span: a.span,
                help: Some("`flip(d, y)` negates the `y` part of the direction's vector".into()),
            });
        }
    }

    /// The pieces waiting at the ends of a track's lanes.
    fn track_arg(&mut self, a: &Expr, cx: Cx) {
        match &a.kind {
            ExprKind::Name(id) => self.expect_kind(
                id,
                Sym::Track,
                Some("declare lanes with `track name { Player: a1 -> a2 }`".into()),
            ),
            _ => {
                let found = self.infer_quiet(a, cx);
                self.report(TypeError::Mismatch {
                    expected: "a track".into(),
                    found: self.describe_expr(a, found),
                    span: a.span,
                    help: None,
                });
            }
        }
    }

    /// `sum(counter, S)` adds up a per-cell counter.
    fn layer_arg(&mut self, a: &Expr, cx: Cx) {
        let help = "`sum` adds up a counter declared `per cell` over a set of cells";
        match &a.kind {
            ExprKind::Name(id) => {
                let per_player = matches!(
                    self.names.get(&id.name).map(|&i| self.entries[i].sym),
                    Some(Sym::Counter { per_player: true })
                );
                // Two players: a per-player counter's total is two reads, no `sum`.
                let help = if per_player {
                    format!(
                        "`sum` adds up a counter declared `per cell` over a set of cells; the total of a per-player counter is `{0}[mover] + {0}[opponent]`",
                        id.name
                    )
                } else {
                    help.to_string()
                };
                self.expect_kind(id, Sym::Layer, Some(help));
            }
            _ => {
                let found = self.infer_quiet(a, cx);
                self.report(TypeError::Mismatch {
                    expected: "a per-cell counter".into(),
                    found: self.describe_expr(a, found),
                    span: a.span,
                    help: Some(help.into()),
                });
            }
        }
    }

    /// Checks a template's holes: each must be something that can be shown as text.
    pub(super) fn template(&mut self, t: &Template, cx: Cx) {
        for part in &t.parts {
            if let TemplatePart::Hole(e) = part {
                let ty = self.infer(e, cx);
                if !matches!(
                    ty,
                    Ty::Int
                        | Ty::Decimal
                        | Ty::Cell
                        | Ty::Player
                        | Ty::Enum(_)
                        | Ty::Text
                        | Ty::Placement
                        | Ty::Dir
                        | Ty::Error
                ) {
                    self.report(TypeError::NotWritable {
                        found: self.describe_expr(e, ty),
                        span: e.span,
                    });
                }
            }
        }
    }

    /// Refuses (E0420) the separator of move lists, and control characters, in the text of a
    /// cell name or a move's notation: a move written with them could be typed or listed
    /// (`--after`) by no one. The holes
    /// cannot bring one in (numbers, letters, cell names checked here, declared names).
    pub(super) fn notation_text(&mut self, t: &Template, what: &'static str) {
        let sep = rulestone_syntax::MOVE_SEPARATOR;
        let holds = |p: &TemplatePart| matches!(p, TemplatePart::Text(s) if s.contains(sep));
        if t.parts.iter().any(holds) {
            self.report(GameError::SeparatorInNotation {
                what,
                sep,
                span: t.span,
            });
        }
        let control = t.parts.iter().find_map(|p| match p {
            TemplatePart::Text(s) => s.chars().find(|c| c.is_control()),
            TemplatePart::Hole(_) => None,
        });
        if let Some(c) = control {
            self.report(GameError::ControlInNotation {
                what,
                shown: c.escape_default().to_string(),
                span: t.span,
            });
        }
    }

    /// Warns (W0606) when the two sides of `&` name board sets that never share a cell, such
    /// as `empty` and `enemy`: the intersection is empty in every position. Each pair of
    /// operands of a chain `a & b & c` meets at exactly one `&`, so each is reported once.
    fn disjoint_intersection(&mut self, lhs: &Expr, rhs: &Expr) {
        let (mut left, mut right) = (Vec::new(), Vec::new());
        self.board_set_operands(lhs, &mut left);
        self.board_set_operands(rhs, &mut right);
        for (a, a_span) in &left {
            for (b, b_span) in &right {
                if board_sets_disjoint(a, b) {
                    self.report(crate::error::Lint::DisjointSets {
                        left: (*a).to_string(),
                        right: (*b).to_string(),
                        span: a_span.merge(*b_span),
                    });
                    return;
                }
            }
        }
    }

    /// The built-in board sets (`empty`, `own`, ...) among the operands of a chain of `&`.
    fn board_set_operands<'e>(&self, e: &'e Expr, out: &mut Vec<(&'e str, Span)>) {
        match &e.kind {
            ExprKind::Binary {
                op: BinaryOp::Inter,
                lhs,
                rhs,
            } => {
                self.board_set_operands(lhs, out);
                self.board_set_operands(rhs, out);
            }
            ExprKind::Name(id)
                if BOARD_SETS.contains(&id.name.as_str())
                    && self.lookup_var(&id.name).is_none()
                    && !self.names.contains_key(&id.name) =>
            {
                out.push((id.name.as_str(), id.span));
            }
            _ => {}
        }
    }

    /// Infers an expression where names of one kind are wanted: if it is a bare name that is
    /// not declared, the report lists the names of that kind.
    fn infer_wanted(&mut self, e: &Expr, want: Want, cx: Cx) -> Ty {
        if let ExprKind::Name(id) = &e.kind {
            self.wanted = Some((id.span, want));
        }
        let t = self.infer(e, cx);
        self.wanted = None;
        t
    }

    /// Resolves a name that must be of one kind (`put ball ...`): reports another kind
    /// (E0104) or an unknown name (E0101).
    pub(super) fn expect_kind(&mut self, id: &Ident, want: Sym, help: Option<String>) {
        if self.lookup_var(&id.name).is_none() {
            if let Some((_, sym)) = self.use_global(id) {
                if std::mem::discriminant(&sym) == std::mem::discriminant(&want) {
                    return;
                }
            } else if builtin_value(&id.name).is_none()
                && !self.is_cell_name(&id.name)
                && self.axis_index(&id.name).is_none()
            {
                self.wanted = Some((id.span, Want::Sym(want)));
                self.unknown_name(id, Axes::Hidden);
                self.wanted = None;
                return;
            }
        }
        self.report(ResolveError::WrongKind {
            expected: format!("a {}", want.kind()),
            found: self.describe_name(&id.name),
            span: id.span,
            help,
        });
    }
}

/// The type of arithmetic on numbers of types `a` and `b`: decimal when either is.
fn wider(a: Ty, b: Ty) -> Ty {
    match (a, b) {
        (Ty::Error, _) | (_, Ty::Error) => Ty::Error,
        (Ty::Decimal, _) | (_, Ty::Decimal) => Ty::Decimal,
        _ => Ty::Int,
    }
}

/// The built-in sets of cells by what stands on them.
const BOARD_SETS: [&str; 4] = ["empty", "occupied", "own", "enemy"];

/// Whether two built-in board sets never share a cell: an empty cell has no piece, and a
/// piece is the mover's or the opponent's, never both.
fn board_sets_disjoint(a: &str, b: &str) -> bool {
    matches!(
        (a, b),
        ("empty", "occupied" | "own" | "enemy")
            | ("occupied" | "own" | "enemy", "empty")
            | ("own", "enemy")
            | ("enemy", "own")
    )
}
