//! Statements of the turn, setup and on-no-moves programs, and the scopes of `pick` variables:
//! a `pick` binds for the rest of its block; `either`/`first` export what every branch binds;
//! `distinct` exports its bindings; `if` and `repeat` export nothing.

use std::collections::HashMap;

use super::error::{GameError, ResolveError, TypeError};
use super::expr::Ty;
use super::model::Func;
use super::names::{builtin_value, Sym};
use super::{Checker, Cx, Frame};
use rulestone_syntax::ast::{AssignOp, Block, Expr, ExprKind, Stmt, StmtKind};
use rulestone_syntax::{Ident, Span};

/// Every variable picked in a block, nested blocks included, with its first pick.
pub(super) fn collect_picks(block: &Block, out: &mut HashMap<String, Span>) {
    for s in &block.stmts {
        match &s.kind {
            StmtKind::Pick { var, .. } | StmtKind::Place { var, .. } => {
                out.entry(var.name.clone()).or_insert(var.span);
            }
            StmtKind::If {
                then, otherwise, ..
            } => {
                collect_picks(then, out);
                if let Some(o) = otherwise {
                    collect_picks(o, out);
                }
            }
            StmtKind::Either(bs) | StmtKind::First(bs) => {
                for b in bs {
                    collect_picks(b, out);
                }
            }
            StmtKind::Repeat { body: b, .. }
            | StmtKind::Distinct(b)
            | StmtKind::While { body: b, .. }
            | StmtKind::Call { body: Some(b), .. } => collect_picks(b, out),
            StmtKind::Let { name, .. } => {
                out.entry(name.name.clone()).or_insert(name.span);
            }
            _ => {}
        }
    }
}

/// Whether a block can end the game somewhere (`win`, `lose` or `draw`).
pub(super) fn ends_game(block: &Block) -> bool {
    block.any_stmt(&|kind| matches!(kind, StmtKind::Win(_) | StmtKind::Lose(_) | StmtKind::Draw))
}

/// The span of a statement's own text: up to the end of its last expression, or its keyword for
/// statements with blocks. (A statement's parsed span may run on over the following blanks.)
pub(super) fn stmt_span(s: &Stmt) -> Span {
    let upto = |end: u32| Span {
        start: s.span.start,
        end: end.clamp(s.span.start, s.span.end),
    };
    let keyword = |len: u32| upto(s.span.start + len);
    match &s.kind {
        StmtKind::Place {
            layer, max, feet, ..
        } => upto(
            feet.as_ref()
                .or(max.as_ref())
                .map_or(layer.span.end, |e| e.span.end),
        ),
        StmtKind::Pick { from: e, .. }
        | StmtKind::Put { at: e, .. }
        | StmtKind::Move { to: e, .. }
        | StmtKind::Shift { what: e, .. }
        | StmtKind::Enter { near: e, .. }
        | StmtKind::Remove { at: e }
        | StmtKind::Require(e)
        | StmtKind::If { cond: e, .. }
        | StmtKind::While { cond: e, .. }
        | StmtKind::Win(e)
        | StmtKind::Lose(e)
        | StmtKind::Assign { value: e, .. }
        | StmtKind::Let { value: e, .. } => upto(e.span.end),
        StmtKind::Either(_) => keyword(6),
        StmtKind::First(_) => keyword(5),
        StmtKind::Repeat { range, .. } => upto(range.end),
        StmtKind::Distinct(_) => keyword(8),
        StmtKind::Write(t) => upto(t.span.end),
        StmtKind::Draw => keyword(4),
        StmtKind::Again => keyword(5),
        StmtKind::Roll { range, .. } => upto(range.end),
        // Up to the closing parenthesis, which follows the last argument (or the name's `(`).
        StmtKind::Call { name, args, .. } => upto(
            args.last()
                .map_or(name.span.end + 1, |a| a.span.end)
                .saturating_add(1),
        ),
        StmtKind::Advance { track, owner } | StmtKind::Take { track, owner } => {
            upto(owner.as_ref().map_or(track.span.end, |e| e.span.end))
        }
    }
}

impl Checker<'_> {
    /// Checks a whole program (the block of `turn`, `setup` or `on no moves`).
    pub(super) fn program(&mut self, block: &Block) {
        self.picks.clear();
        collect_picks(block, &mut self.picks);
        self.frames.clear();
        self.block(block);
        self.picks.clear();
        for (span, emptied) in owners_of_emptied(block) {
            self.report(GameError::OwnerOfEmptied { span, emptied });
        }
    }

    /// Checks a block in a new scope and returns what it bound.
    pub(super) fn block(&mut self, block: &Block) -> Frame {
        self.frames.push(Frame::default());
        let mut ended: Option<Span> = None;
        let mut warned = false;
        for s in &block.stmts {
            if let Some(end) = ended {
                if !warned {
                    warned = true;
                    self.report(GameError::Unreachable {
                        span: stmt_span(s),
                        end,
                    });
                }
            }
            self.stmt(s);
            if ended.is_none()
                && matches!(
                    s.kind,
                    StmtKind::Win(_) | StmtKind::Lose(_) | StmtKind::Draw
                )
            {
                ended = Some(stmt_span(s));
            }
        }
        self.frames.pop().unwrap_or_default()
    }

    /// What `shift` moves along: a map, or a direction (the relation of one vector).
    fn shift_along(&mut self, along: &Ident) {
        if self.lookup_var(&along.name).is_none()
            && matches!(self.use_global(along), Some((_, Sym::Direction)))
        {
            return;
        }
        self.expect_kind(
            along,
            Sym::Map,
            Some("`shift` moves along a map (`map m = (...)`) or a direction".into()),
        );
    }

    fn current(&mut self) -> &mut Frame {
        if self.frames.is_empty() {
            self.frames.push(Frame::default());
        }
        let last = self.frames.len() - 1;
        &mut self.frames[last]
    }

    /// Keeps what a nested block bound as bound on some paths only.
    fn keep_partial(&mut self, inner: Frame) {
        let frame = self.current();
        frame.partial.extend(inner.bound);
        frame.partial.extend(inner.partial);
    }

    fn stmt(&mut self, s: &Stmt) {
        let cx = Cx::PLAY;
        match &s.kind {
            StmtKind::Pick { var, from, by } => self.pick(var, from, by.as_ref()),
            StmtKind::Place {
                var,
                from,
                turned,
                layer,
                max,
                feet,
            } => self.place(var, from, turned, layer, (max.as_ref(), feet.as_ref())),
            StmtKind::Let { name, value } => self.let_stmt(name, value),
            StmtKind::Roll {
                counters,
                lo,
                hi,
                range,
            } => self.roll(counters, (*lo, *hi), *range),
            StmtKind::Again => {}
            StmtKind::While { cond, body } => {
                self.expect(cond, Ty::Bool, cx);
                let f = self.block(body);
                self.keep_partial(f);
            }
            StmtKind::Put { piece, owner, at } => {
                self.expect_kind(piece, Sym::Piece, None);
                if let Some(o) = owner {
                    self.expect(o, Ty::Player, cx);
                }
                self.expect(at, Ty::Cells, cx);
            }
            StmtKind::Remove { at } => {
                self.expect(at, Ty::Cells, cx);
            }
            StmtKind::Move { what, to } => self.move_stmt(what, to),
            StmtKind::Shift { what, along } => {
                self.expect(what, Ty::Cells, cx);
                self.shift_along(along);
            }
            StmtKind::Enter { track, owner, near } => {
                self.track_statement(track, owner.as_ref());
                self.expect(near, Ty::Cell, cx);
            }
            StmtKind::Advance { track, owner } | StmtKind::Take { track, owner } => {
                self.track_statement(track, owner.as_ref());
            }
            StmtKind::Require(e) => {
                self.expect(e, Ty::Bool, cx);
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                self.expect(cond, Ty::Bool, cx);
                let f = self.block(then);
                if let Some(o) = otherwise {
                    // With an `else`, one branch always runs: names bound in both stay bound.
                    let g = self.block(o);
                    self.merge_branches(vec![f, g]);
                } else {
                    self.keep_partial(f);
                }
            }
            StmtKind::Either(branches) | StmtKind::First(branches) => {
                let frames: Vec<Frame> = branches.iter().map(|b| self.block(b)).collect();
                self.merge_branches(frames);
            }
            StmtKind::Repeat {
                min,
                max,
                range,
                body,
            } => self.repeat((*min, *max), *range, body),
            StmtKind::Distinct(body) => {
                let f = self.block(body);
                let frame = self.current();
                frame.bound.extend(f.bound);
                frame.partial.extend(f.partial);
            }
            StmtKind::Write(t) => {
                self.template(t, cx);
                self.notation_text(t, "a move's notation");
            }
            StmtKind::Win(p) | StmtKind::Lose(p) => {
                self.expect(p, Ty::Player, cx);
            }
            StmtKind::Draw => {}
            StmtKind::Call { name, args, body } => self.call_stmt(name, args, body.as_ref()),
            StmtKind::Assign {
                target,
                index,
                op,
                value,
            } if self.lookup_var(&target.name).is_some() => {
                self.assign_var(target, index.as_ref(), *op, value)
            }
            StmtKind::Assign {
                target,
                index,
                op: _,
                value,
            } => {
                let per_cell = self.assign_target(target, index.is_some());
                if let Some(i) = index {
                    // A per-cell counter takes one cell, or a set: each of its cells.
                    self.expect(i, if per_cell { Ty::Cells } else { Ty::Player }, cx);
                }
                self.expect(value, Ty::Int, cx);
            }
        }
    }

    /// `pick VAR in FROM [by PLAYER]`: a cell, or a direction of a relation.
    fn pick(&mut self, var: &Ident, from: &Expr, by: Option<&Expr>) {
        let cx = Cx::PLAY;
        if let Some(p) = by {
            self.expect(p, Ty::Player, cx);
        }
        // `pick d in RELATION` chooses a direction; anything else picks a cell.
        if matches!(self.infer_quiet(from, cx), Ty::Relation | Ty::Direction) {
            self.infer(from, cx);
            self.bind(var);
            self.dir_vars.insert(var.name.clone());
        } else {
            self.expect(from, Ty::Cells, cx);
            self.bind(var);
        }
    }

    /// `place VAR in unplayed(P) turned R on LAYER [max N] [feet CELLS]`.
    fn place(
        &mut self,
        var: &Ident,
        from: &Expr,
        turned: &Ident,
        layer: &Ident,
        (max, feet): (Option<&Expr>, Option<&Expr>),
    ) {
        let cx = Cx::PLAY;
        let found = self.infer(from, cx);
        let is_unplayed = self.types.func(from) == Some(Func::Unplayed);
        if !is_unplayed && found != Ty::Error {
            self.report(TypeError::Mismatch {
                expected: "`unplayed(player)`".into(),
                found: self.describe_expr(from, found),
                span: from.span,
                help: Some("`place` takes a copy from a player's stock of shapes, e.g. `place s in unplayed(mover) ...`".into()),
            });
        }
        self.expect_kind(turned, Sym::Relation { item: 0 }, None);
        self.expect_kind(
            layer,
            Sym::Layer,
            Some("declare the heights with `counter height per cell = 0`".into()),
        );
        if let Some(m) = max {
            self.expect(m, Ty::Int, cx);
        }
        if let Some(f) = feet {
            self.expect(f, Ty::Cells, cx);
        }
        self.bind(var);
        self.placement_vars.insert(var.name.clone());
    }

    /// `let NAME = VALUE`: a set of cells, one cell, or a direction value.
    fn let_stmt(&mut self, name: &Ident, value: &Expr) {
        let cx = Cx::PLAY;
        // `let` names a set of cells, one cell, or a direction value.
        match self.infer_quiet(value, cx) {
            Ty::Dir => {
                self.infer(value, cx);
                self.bind(name);
                self.dir_vars.insert(name.name.clone());
            }
            Ty::Cell => {
                self.infer(value, cx);
                self.bind(name);
            }
            _ => {
                self.expect(value, Ty::Cells, cx);
                self.bind(name);
                self.set_vars.insert(name.name.clone());
            }
        }
    }

    /// `roll COUNTERS LO..HI`.
    fn roll(&mut self, counters: &[Ident], (lo, hi): (i64, i64), range: Span) {
        let why = if lo > hi {
            Some("the lower bound is above the upper bound")
        } else if hi - lo >= 256 {
            Some("more than 256 values")
        } else {
            None
        };
        if let Some(why) = why {
            self.report(GameError::RollRange {
                lo,
                hi,
                span: range,
                why,
            });
        }
        for c in counters {
            if self.lookup_var(&c.name).is_some() {
                self.report(GameError::VariableArithmetic {
                    name: c.name.clone(),
                    op: "roll",
                    span: c.span,
                });
            } else {
                self.assign_target(c, false);
            }
        }
    }

    /// `move WHAT to CELL`: a piece on a cell, or a token.
    fn move_stmt(&mut self, what: &Expr, to: &Expr) {
        let cx = Cx::PLAY;
        let token = match &what.kind {
            ExprKind::Name(id) if self.lookup_var(&id.name).is_none() => {
                matches!(self.names.get(&id.name), Some(&i) if self.entries[i].sym == Sym::Token)
            }
            _ => false,
        };
        if token {
            self.infer(what, cx);
        } else {
            self.expect(what, Ty::Cell, cx);
        }
        self.expect(to, Ty::Cell, cx);
    }

    /// `repeat MIN..MAX { ... }`.
    fn repeat(&mut self, (min, max): (u32, u32), range: Span, body: &Block) {
        if max == 0 {
            self.report(GameError::RepeatNever {
                min,
                max,
                span: range,
            });
        } else if min > max {
            self.report(GameError::RepeatEmpty {
                min,
                max,
                span: range,
            });
        }
        let f = self.block(body);
        self.keep_partial(f);
    }

    /// A new value for a variable: a cell (from a one-cell set), a direction or a set.
    fn assign_var(&mut self, target: &Ident, index: Option<&Expr>, op: AssignOp, value: &Expr) {
        let cx = Cx::PLAY;
        // A new value for a variable: a cell (from a one-cell set), a direction or a set.
        if op != AssignOp::Set {
            self.report(GameError::VariableArithmetic {
                name: target.name.clone(),
                op: if op == AssignOp::Add { "+=" } else { "-=" },
                span: target.span,
            });
            self.infer(value, cx);
            return;
        }
        if let Some(i) = index {
            self.report(TypeError::NotIndexable {
                what: format!("variable `{}`", target.name),
                span: i.span,
            });
        }
        let n = target.name.as_str();
        if self.dir_vars.contains(n) {
            self.expect(value, Ty::Dir, cx);
        } else if self.set_vars.contains(n) {
            self.expect(value, Ty::Cells, cx);
        } else if self.placement_vars.contains(n) || self.player_vars.contains(n) {
            self.report(TypeError::Mismatch {
                expected: "a variable holding a cell, a direction or cells".into(),
                found: format!("`{n}`"),
                span: target.span,
                help: Some("only `pick`, `let` and direction variables take new values".into()),
            });
        } else {
            self.expect(value, Ty::Cells, cx);
        }
    }

    /// The track and the player of `enter`, `advance` and `take`.
    fn track_statement(&mut self, track: &Ident, owner: Option<&rulestone_syntax::ast::Expr>) {
        self.expect_kind(
            track,
            Sym::Track,
            Some("declare lanes with `track name { Player: a1 -> a2 }`".into()),
        );
        if let Some(o) = owner {
            self.expect(o, Ty::Player, Cx::PLAY);
        }
    }

    /// After `either`/`first`: bound if every branch binds it, else bound on some paths only.
    fn merge_branches(&mut self, frames: Vec<Frame>) {
        let mut bound = Vec::new();
        let mut partial = Vec::new();
        if let Some((first, rest)) = frames.split_first() {
            for (name, span) in &first.bound {
                if rest.iter().all(|f| f.bound.iter().any(|(n, _)| n == name)) {
                    bound.push((name.clone(), *span));
                }
            }
        }
        for f in frames {
            for (name, span) in f.bound.into_iter().chain(f.partial) {
                if !bound.iter().any(|(n, _)| *n == name) {
                    partial.push((name, span));
                }
            }
        }
        let frame = self.current();
        frame.bound.extend(bound);
        frame.partial.extend(partial);
    }

    /// Binds a variable outside a program (the player of `score p = ...`).
    pub(super) fn bind_name(&mut self, var: &Ident) {
        self.bind(var);
    }

    /// Binds a `pick` variable, reporting a clash with any other name (E0102).
    fn bind(&mut self, var: &Ident) {
        let name = var.name.clone();
        let first = self
            .lookup_var(&name)
            .or_else(|| self.names.get(&name).map(|&i| self.entries[i].span))
            .or_else(|| {
                let j = self.axis_index(&name)?;
                self.board.map(|b| b.axes[j].span)
            });
        if let Some(first) = first {
            self.report(ResolveError::Duplicate {
                name: name.clone(),
                span: var.span,
                first,
            });
        } else if builtin_value(&name).is_some() {
            self.report(ResolveError::Builtin {
                name: name.clone(),
                span: var.span,
            });
        } else if self.is_cell_name(&name) {
            self.report(ResolveError::CellName {
                name: name.clone(),
                span: var.span,
            });
        }
        self.current().bound.push((name, var.span));
    }

    /// The counter on the left of `=`, `+=` or `-=`, and whether it needs `[player]` (or,
    /// per cell, `[cell]`: then this returns true).
    fn assign_target(&mut self, target: &Ident, indexed: bool) -> bool {
        if self.lookup_var(&target.name).is_none()
            && self
                .names
                .get(&target.name)
                .is_some_and(|&i| matches!(self.entries[i].sym, Sym::Layer | Sym::Track))
        {
            self.use_global(target);
            if !indexed {
                self.report(TypeError::LayerNeedsCell {
                    name: target.name.clone(),
                    span: target.span,
                });
            }
            return true;
        }
        if self.lookup_var(&target.name).is_none() {
            if let Some((_, Sym::Counter { per_player })) = self.use_global(target) {
                if per_player && !indexed {
                    self.report(TypeError::NeedsIndex {
                        name: target.name.clone(),
                        span: target.span,
                    });
                } else if !per_player && indexed {
                    self.report(TypeError::NotIndexable {
                        what: format!("counter `{}`", target.name),
                        span: target.span,
                    });
                }
                return false;
            }
        }
        self.expect_kind(
            target,
            Sym::Counter { per_player: false },
            Some("only counters can be assigned; declare one with `counter name = 0`".into()),
        );
        false
    }
}

/// `owner(c)` of a cell variable `c` after a statement of the same block (or of a block within
/// it) emptied `c` with `remove c` or `move c to ...`: the owner of an empty cell is no player,
/// so an action for it fails the turn and a comparison with it is false. Each such use, with
/// the statement that emptied the cell. Only plain variables are tracked; `put ... at c` and
/// `move ... to c` fill the cell again, and a new `pick c` forgets it.
pub(super) fn owners_of_emptied(block: &Block) -> Vec<(Span, Span)> {
    let mut found = Vec::new();
    emptied_in(block, &mut HashMap::new(), &mut found);
    found
}

/// The variable a cell expression names, if it is a plain name.
fn var_name(e: &rulestone_syntax::ast::Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Name(id) => Some(&id.name),
        _ => None,
    }
}

fn emptied_in(block: &Block, emptied: &mut HashMap<String, Span>, found: &mut Vec<(Span, Span)>) {
    for s in &block.stmts {
        // Uses first: the statement's own expressions read the state before its effect.
        let mut exprs: Vec<&rulestone_syntax::ast::Expr> = Vec::new();
        match &s.kind {
            StmtKind::Place {
                from, max, feet, ..
            } => {
                exprs.push(from);
                exprs.extend(max.iter().chain(feet.iter()));
            }
            StmtKind::Pick { from, by, .. } => {
                exprs.push(from);
                exprs.extend(by.iter());
            }
            StmtKind::While { cond: e, .. }
            | StmtKind::Remove { at: e }
            | StmtKind::Require(e)
            | StmtKind::If { cond: e, .. }
            | StmtKind::Win(e)
            | StmtKind::Lose(e)
            | StmtKind::Let { value: e, .. } => exprs.push(e),
            StmtKind::Put { owner, at, .. } => {
                exprs.push(at);
                exprs.extend(owner.iter());
            }
            StmtKind::Move { what, to } => exprs.extend([what, to]),
            StmtKind::Shift { what, .. } => exprs.push(what),
            StmtKind::Enter { owner, near, .. } => {
                exprs.push(near);
                exprs.extend(owner.iter());
            }
            StmtKind::Advance { owner, .. } | StmtKind::Take { owner, .. } => {
                exprs.extend(owner.iter());
            }
            StmtKind::Assign { index, value, .. } => {
                exprs.push(value);
                exprs.extend(index.iter());
            }
            StmtKind::Write(t) => {
                for part in &t.parts {
                    if let rulestone_syntax::ast::TemplatePart::Hole(e) = part {
                        exprs.push(e);
                    }
                }
            }
            StmtKind::Roll { .. }
            | StmtKind::Call { .. }
            | StmtKind::Again
            | StmtKind::Either(_)
            | StmtKind::First(_)
            | StmtKind::Repeat { .. }
            | StmtKind::Distinct(_)
            | StmtKind::Draw => {}
        }
        if !emptied.is_empty() {
            for e in exprs {
                owner_uses(e, emptied, found);
            }
        }
        // Then the statement's effect on which variables name emptied cells.
        match &s.kind {
            StmtKind::Remove { at } => {
                if let Some(v) = var_name(at) {
                    emptied.insert(v.to_string(), stmt_span(s));
                }
            }
            StmtKind::Move { what, to } => {
                if let Some(v) = var_name(to) {
                    emptied.remove(v);
                }
                if let Some(v) = var_name(what) {
                    emptied.insert(v.to_string(), stmt_span(s));
                }
            }
            StmtKind::Put { at, .. } => {
                if let Some(v) = var_name(at) {
                    emptied.remove(v);
                }
            }
            StmtKind::Pick { var, .. } | StmtKind::Place { var, .. } => {
                emptied.remove(&var.name);
            }
            StmtKind::Let { name, .. } => {
                emptied.remove(&name.name);
            }
            // A nested block sees what was emptied before it; what it empties itself is
            // reported inside it and not carried past it (it may not have run).
            StmtKind::If {
                then, otherwise, ..
            } => {
                emptied_in(then, &mut emptied.clone(), found);
                if let Some(o) = otherwise {
                    emptied_in(o, &mut emptied.clone(), found);
                }
            }
            StmtKind::Either(bs) | StmtKind::First(bs) => {
                for b in bs {
                    emptied_in(b, &mut emptied.clone(), found);
                }
            }
            StmtKind::Repeat { body: b, .. }
            | StmtKind::Distinct(b)
            | StmtKind::While { body: b, .. } => emptied_in(b, &mut emptied.clone(), found),
            // A call's statements run in line: what they empty stays emptied after them.
            StmtKind::Call { body: Some(b), .. } => emptied_in(b, emptied, found),
            _ => {}
        }
    }
}

/// Every `owner(v)` in an expression whose `v` names an emptied cell.
fn owner_uses(
    e: &rulestone_syntax::ast::Expr,
    emptied: &HashMap<String, Span>,
    found: &mut Vec<(Span, Span)>,
) {
    // An explicit stack: expressions can be deep.
    let mut stack = vec![e];
    while let Some(e) = stack.pop() {
        match &e.kind {
            ExprKind::Call { func, args } => {
                if func.name == "owner" {
                    if let [arg] = args.as_slice() {
                        if let Some(at) = var_name(arg).and_then(|v| emptied.get(v)) {
                            found.push((e.span, *at));
                        }
                    }
                }
                stack.extend(args.iter().rev());
            }
            ExprKind::CellSet(items) => stack.extend(items.iter().rev()),
            ExprKind::Unary { operand, .. } => stack.push(operand),
            ExprKind::Binary { lhs, rhs, .. } => {
                stack.push(rhs);
                stack.push(lhs);
            }
            ExprKind::Field { base, .. } => stack.push(base),
            ExprKind::Index { base, index } => {
                stack.push(index);
                stack.push(base);
            }
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => {
                stack.push(otherwise);
                stack.push(then);
                stack.push(cond);
            }
            ExprKind::Int(_) | ExprKind::Decimal(_) | ExprKind::Name(_) => {}
        }
    }
}
