//! Statements: turn, setup and on-no-moves programs to bytecode.

use super::*;
use crate::check::model::Func;
use crate::ir::passes::{endless, loop_memo, replay_lets};

impl<'a> Lowerer<'a> {
    pub(super) fn code(&mut self, block: &Block) -> Result<Code> {
        self.in_code = true;
        let mut ops = Vec::new();
        self.block(block, &mut ops)?;
        ops.push(Op::Done);
        for op in &mut ops {
            op.for_each_target(|t| {
                if *t >= LABEL {
                    *t = self.labels[(*t - LABEL) as usize];
                }
            });
        }
        self.labels.clear();
        loop_memo::run(&mut ops);
        replay_lets::run(&self.prog, &mut ops);
        Ok(Code::new(ops))
    }

    /// A new label for a forward jump, to be bound with [`Self::bind`].
    fn label(&mut self) -> u32 {
        self.labels.push(0);
        LABEL | u32::try_from(self.labels.len() - 1).unwrap_or(0)
    }

    /// Binds `label` to the next op.
    fn bind(&mut self, label: u32, ops: &[Op]) -> Result<()> {
        self.labels[(label - LABEL) as usize] = pc(ops.len())?;
        Ok(())
    }

    pub(super) fn var(&mut self, name: &str) -> Result<u8> {
        if let Some(v) = self.vars.get(name) {
            return Ok(*v);
        }
        self.new_var(name)
    }

    fn new_var(&mut self, name: &str) -> Result<u8> {
        if usize::from(self.next_var) >= MAX_VARS {
            return Err(LowerError::TooManyTurnVariables {
                found: usize::from(self.next_var) + 1,
                max: MAX_VARS,
                span: None,
            });
        }
        let v = self.next_var;
        self.next_var += 1;
        self.vars.insert(name.to_string(), v);
        Ok(v)
    }

    fn block(&mut self, block: &Block, ops: &mut Vec<Op>) -> Result<()> {
        for stmt in &block.stmts {
            self.stmt(stmt, ops).map_err(|e| e.at(stmt.span))?;
        }
        Ok(())
    }

    #[allow(clippy::too_many_lines)] // one arm per statement kind
    fn stmt(&mut self, stmt: &Stmt, ops: &mut Vec<Op>) -> Result<()> {
        match &stmt.kind {
            StmtKind::Pick { var, from, by } => {
                if let Some(p) = by {
                    let player = self.player(p)?;
                    ops.push(Op::Chooser(player));
                }
                if let Some(Sym::Relation(relation)) = self.sym(from) {
                    let slot = self.var(&var.name).map_err(|e| e.at(var.span))?;
                    self.dir_vars.insert(var.name.clone(), (slot, relation));
                    ops.push(Op::PickDir {
                        var: slot,
                        relation,
                    });
                } else {
                    let from = self.set(from)?;
                    let var = self.var(&var.name).map_err(|e| e.at(var.span))?;
                    ops.push(Op::Pick { var, from });
                }
            }
            StmtKind::Place {
                var,
                from,
                turned,
                layer,
                max,
                feet,
            } => {
                let (Some(Func::Unplayed), ExprKind::Call { args, .. }) =
                    (self.types.func(from), &from.kind)
                else {
                    return err("`place` takes shapes from `unplayed(player)`");
                };
                let player = self.owner_or_mover(args.first())?;
                let base = declared!(self, &layer.name, Sym::Layer { base } => base);
                let table = self.placements(&turned.name)?;
                let max = match max {
                    Some(m) => self.int(m)?,
                    None => self.push_int(IntExpr::Const(i32::MAX)),
                };
                let feet = feet.as_ref().map(|cells| self.set(cells)).transpose()?;
                let anchor = self.var(&format!("{}.anchor", var.name))?;
                let slot = match self.placed_vars.get(&var.name) {
                    Some(p) => p.slot,
                    None if self.placed_vars.len() >= crate::ir::MAX_PLACED => {
                        return Err(LowerError::TooManyPlaceVariables {
                            found: self.placed_vars.len() + 1,
                            max: crate::ir::MAX_PLACED,
                            span: Some(var.span),
                        });
                    }
                    None => u8::try_from(self.placed_vars.len()).unwrap_or(0),
                };
                let placed = PlacedVar {
                    slot,
                    table,
                    anchor,
                };
                self.placed_vars.insert(var.name.clone(), placed);
                ops.push(Op::Place {
                    slot,
                    anchor,
                    table,
                    player,
                    layer: base,
                    max,
                    feet,
                });
            }
            StmtKind::Let { name, value } => self.let_stmt(name, value, ops)?,
            StmtKind::Assign {
                target,
                index,
                op,
                value,
            } => self.assign(target, index.as_ref(), *op, value, ops)?,
            StmtKind::Roll {
                counters, lo, hi, ..
            } => {
                let (Ok(lo), Ok(count)) = (i32::try_from(*lo), u16::try_from(hi - lo + 1)) else {
                    return err("a roll range must hold 1 to 256 values");
                };
                for c in counters {
                    let base = declared!(self, &c.name, Sym::Counter { base } => base);
                    ops.push(Op::Roll {
                        slot: base,
                        lo,
                        count,
                    });
                }
            }
            StmtKind::Again => ops.push(Op::Again),
            StmtKind::While { cond, body } => {
                let var = self.new_var(&format!("#while{}", ops.len()))?;
                let (cond, exit) = (self.bool(cond)?, self.label());
                ops.push(Op::RepeatStart { var });
                let head = ops.len();
                ops.push(Op::WhileCheck { var, cond, exit });
                self.loop_body(body, ops)?;
                if let Some(why) = endless::run(&self.prog, cond, &ops[head + 1..]) {
                    return Err(LowerError::EndlessWhile {
                        why,
                        max: u32::from(u8::MAX),
                        span: Some(stmt.span),
                    });
                }
                ops.push(Op::Jump(pc(head)?));
                self.bind(exit, ops)?;
            }
            StmtKind::Put { piece, owner, at } => {
                let k = declared!(self, &piece.name, Sym::Piece(k) => k);
                let owner = self.owner_or_mover(owner.as_ref())?;
                let code_base = 1 + 2 * k;
                ops.push(if self.ty(at)? == Ty::Cells {
                    let at = self.set(at)?;
                    Op::PutAll {
                        code_base,
                        owner,
                        at,
                    }
                } else {
                    let at = self.cell(at)?;
                    Op::Put {
                        code_base,
                        owner,
                        at,
                    }
                });
            }
            StmtKind::Remove { at } => ops.push(if self.ty(at)? == Ty::Cells {
                Op::RemoveAll { at: self.set(at)? }
            } else {
                Op::Remove { at: self.cell(at)? }
            }),
            StmtKind::Move { what, to } => self.move_stmt(what, to, ops)?,
            StmtKind::Shift { what, along } => {
                let at = self.set(what)?;
                let relation = declared!(self, &along.name, Sym::Relation(r) => r);
                ops.push(Op::Shift { at, relation });
            }
            StmtKind::Enter { track, owner, near } => {
                let (base, track) = self.track(&track.name)?;
                let owner = self.owner_or_mover(owner.as_ref())?;
                let near = self.cell(near)?;
                self.per_player(owner, true, ops, |this, p, ops| {
                    this.enter(base, &track.entries[usize::from(p)], near, ops)
                })?;
            }
            StmtKind::Advance { track, owner } => {
                let (base, track) = self.track(&track.name)?;
                let owner = self.owner_or_mover(owner.as_ref())?;
                self.per_player(owner, false, ops, |this, p, ops| {
                    for (_, cells) in track.lanes.iter().filter(|(q, _)| *q == p) {
                        this.advance_lane(base, cells, ops);
                    }
                    Ok(())
                })?;
            }
            StmtKind::Take { track, owner } => {
                let (base, track) = self.track(&track.name)?;
                let owner = self.owner_or_mover(owner.as_ref())?;
                self.per_player(owner, true, ops, |this, p, ops| {
                    this.take(base, &track.lanes, p, ops)
                })?;
            }
            StmtKind::Require(c) => {
                let c = self.bool(c)?;
                if !matches!(self.prog.bools[c as usize], BoolExpr::Const(true)) {
                    let c = self.rule_condition(c, stmt.span);
                    ops.push(Op::Require(c));
                }
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => {
                let c = self.bool(cond)?;
                if let BoolExpr::Const(v) = self.prog.bools[c as usize] {
                    if let Some(b) = if v { Some(then) } else { otherwise.as_ref() } {
                        self.block(b, ops)?;
                    }
                    return Ok(());
                }
                let (cond, skip, end) = (c, self.label(), self.label());
                ops.push(Op::Unless { cond, target: skip });
                self.block(then, ops)?;
                if otherwise.is_some() {
                    ops.push(Op::Jump(end));
                }
                self.bind(skip, ops)?;
                if let Some(b) = otherwise {
                    self.block(b, ops)?;
                }
                self.bind(end, ops)?;
            }
            StmtKind::Either(blocks) | StmtKind::First(blocks) => {
                let starts: Vec<u32> = blocks.iter().map(|_| self.label()).collect();
                ops.push(if matches!(stmt.kind, StmtKind::First(_)) {
                    Op::First(starts.clone())
                } else {
                    Op::Either(starts.clone())
                });
                let end = self.label();
                for (b, start) in blocks.iter().zip(starts) {
                    self.bind(start, ops)?;
                    self.block(b, ops)?;
                    ops.push(Op::Jump(end));
                }
                self.bind(end, ops)?;
            }
            StmtKind::Repeat {
                min,
                max,
                body,
                range,
            } => {
                let var = self.new_var(&format!("#repeat{}", ops.len()))?;
                let (Ok(min), Ok(max)) = (u8::try_from(*min), u8::try_from(*max)) else {
                    return Err(LowerError::RepeatTooLong {
                        found: i64::from((*min).max(*max)),
                        max: i64::from(u8::MAX),
                        span: Some(*range),
                    });
                };
                ops.push(Op::RepeatStart { var });
                let (check, exit) = (pc(ops.len())?, self.label());
                ops.push(Op::RepeatCheck {
                    var,
                    min,
                    max,
                    exit,
                });
                self.loop_body(body, ops)?;
                ops.push(Op::RepeatNext { var, check });
                self.bind(exit, ops)?;
            }
            StmtKind::Distinct(body) => {
                let found = self.prog.distinct_blocks + 1;
                let block = u8::try_from(self.prog.distinct_blocks).map_err(|_| {
                    LowerError::too_large("`distinct` blocks", found, u64::from(u8::MAX) + 1)
                })?;
                self.prog.distinct_blocks += 1;
                ops.push(Op::DistinctStart { block });
                self.distinct_stack.push(block);
                self.block(body, ops)?;
                self.distinct_stack.pop();
                ops.push(Op::DistinctEnd { block });
            }
            StmtKind::Write(t) => ops.push(Op::Write(self.template(t)?)),
            StmtKind::Win(p) => ops.push(Op::Finish(Finish::Win(self.player(p)?))),
            StmtKind::Lose(p) => ops.push(Op::Finish(Finish::Lose(self.player(p)?))),
            StmtKind::Draw => ops.push(Op::Finish(Finish::Draw)),
        }
        Ok(())
    }

    /// A loop's body, which inside a `distinct` block starts with a memo (kept only when its
    /// rounds choose between branches: [`loop_memo`]).
    fn loop_body(&mut self, body: &Block, ops: &mut Vec<Op>) -> Result<()> {
        if let Some(&block) = self.distinct_stack.last() {
            ops.push(Op::Memo { block });
        }
        self.block(body, ops)
    }

    /// `let name = value`: a direction value, a cell or a set of cells.
    fn let_stmt(&mut self, name: &Ident, value: &Expr, ops: &mut Vec<Op>) -> Result<()> {
        match self.ty(value)? {
            Ty::Dir => {
                let (relation, dir) = self.dir(value)?;
                let var = self.var(&name.name)?;
                self.dir_vars.insert(name.name.clone(), (var, relation));
                ops.push(Op::SetDir { var, relation, dir });
            }
            Ty::Cell => {
                let set = self.set(value)?;
                let var = self.var(&name.name)?;
                ops.push(Op::SetVar { var, set });
            }
            _ => {
                let set = self.set(value)?;
                let slot = match self.set_locals.get(&name.name) {
                    Some(s) => *s,
                    None if self.set_locals.len() >= crate::ir::MAX_SET_LOCALS => {
                        return Err(LowerError::TooManySetLocals {
                            found: self.set_locals.len() + 1,
                            max: crate::ir::MAX_SET_LOCALS,
                            span: Some(name.span),
                        });
                    }
                    None => {
                        let s = u8::try_from(self.set_locals.len()).unwrap_or(0);
                        self.set_locals.insert(name.name.clone(), s);
                        s
                    }
                };
                let replay = true;
                ops.push(Op::Let { slot, set, replay });
            }
        }
        Ok(())
    }

    /// `target = value` (or `+=`, `-=`): a variable, a `let` set or a counter, a per-cell
    /// counter's cells at once when indexed by a set.
    fn assign(
        &mut self,
        target: &Ident,
        index: Option<&Expr>,
        op: AssignOp,
        value: &Expr,
        ops: &mut Vec<Op>,
    ) -> Result<()> {
        let name = target.name.as_str();
        if let Some(&(var, relation)) = self.dir_vars.get(name) {
            let (_, dir) = self.dir(value)?;
            ops.push(Op::SetDir { var, relation, dir });
            return Ok(());
        }
        if let Some(&slot) = self.set_locals.get(name) {
            let set = self.set(value)?;
            let replay = true;
            ops.push(Op::Let { slot, set, replay });
            return Ok(());
        }
        if let Some(&var) = self.vars.get(name) {
            let set = self.set(value)?;
            ops.push(Op::SetVar { var, set });
            return Ok(());
        }
        let op = match op {
            AssignOp::Set => AssignKind::Set,
            AssignOp::Add => AssignKind::Add,
            AssignOp::Sub => AssignKind::Sub,
        };
        let slot = match (self.syms.get(name).copied(), index) {
            (Some(Sym::Layer { base }), Some(i)) if self.ty(i)? == Ty::Cells => {
                let cells = self.set(i)?;
                let value = self.int(value)?;
                ops.push(Op::AssignAll {
                    base,
                    cells,
                    op,
                    value,
                });
                return Ok(());
            }
            (Some(Sym::Layer { base }), Some(i)) => AssignSlot::PerCell {
                base,
                cell: self.cell(i)?,
            },
            (Some(Sym::Counter { base, .. }), Some(i)) => AssignSlot::PerPlayer {
                base,
                player: self.player(i)?,
            },
            (Some(Sym::Counter { base, .. } | Sym::Layer { base }), None) => {
                AssignSlot::Global(base)
            }
            _ => return err(format!("`{name}` is not a counter")),
        };
        let value = self.int(value)?;
        ops.push(Op::Assign { slot, op, value });
        Ok(())
    }

    /// `move a to b`: a token's new cell, or a piece's move with the carried tokens on `a`.
    fn move_stmt(&mut self, what: &Expr, to: &Expr, ops: &mut Vec<Op>) -> Result<()> {
        let to = self.cell(to)?;
        let value = self.push_int(IntExpr::CellId(to));
        let set = AssignKind::Set;
        if let Some(Sym::Token { slot }) = self.sym(what) {
            let slot = AssignSlot::Global(slot);
            ops.push(Op::Assign {
                slot,
                op: set,
                value,
            });
            return Ok(());
        }
        let from = self.cell(what)?;
        ops.push(Op::Move { from, to });
        for slot in self.carried.clone() {
            let (lhs, eq) = (CellRef::Slot(slot), true);
            let skip = self.unless(BoolExpr::CellEq { eq, lhs, rhs: from }, ops);
            let slot = AssignSlot::Global(slot);
            ops.push(Op::Assign {
                slot,
                op: set,
                value,
            });
            self.bind(skip, ops)?;
        }
        Ok(())
    }

    /// A track's per-cell slots and its lanes.
    fn track(&self, name: &str) -> Result<(u16, Track)> {
        match (self.syms.get(name), self.board.tracks.get(name)) {
            (Some(Sym::Layer { base }), Some(track)) => Ok((*base, track.clone())),
            _ => err(format!("`{name}` is not a track")),
        }
    }

    fn owner_or_mover(&mut self, owner: Option<&Expr>) -> Result<PlayerRef> {
        owner.map_or(Ok(PlayerRef::Mover), |o| self.player(o))
    }

    /// Emits `body` for each player `owner` may be, behind a test of who it is; with `fail`,
    /// a player with no branch (no lanes) ends the walk.
    fn per_player(
        &mut self,
        owner: PlayerRef,
        fail: bool,
        ops: &mut Vec<Op>,
        mut body: impl FnMut(&mut Self, u8, &mut Vec<Op>) -> Result<()>,
    ) -> Result<()> {
        let end = self.label();
        for p in 0..2u8 {
            if matches!(owner, PlayerRef::Const(q) if q != p) {
                continue;
            }
            let known = matches!(owner, PlayerRef::Const(_));
            let skip = (!known).then(|| self.unless(player_is(owner, p), ops));
            body(self, p, ops)?;
            ops.push(Op::Jump(end));
            skip.map_or(Ok(()), |skip| self.bind(skip, ops))?;
        }
        if fail {
            self.fail(ops);
        }
        self.bind(end, ops)
    }

    /// Pushes `b` and a test of it that jumps, when it is false, to the label returned.
    fn unless(&mut self, b: BoolExpr, ops: &mut Vec<Op>) -> u32 {
        let (cond, target) = (self.push_bool(b), self.label());
        ops.push(Op::Unless { cond, target });
        target
    }

    /// The condition `c` of the `require` at `span`, noted with that span in
    /// [`Program::rule_spans`]; a condition another `require` already uses is copied first, so
    /// each condition names one statement.
    fn rule_condition(&mut self, c: BoolId, span: crate::syntax::Span) -> BoolId {
        let c = if self.prog.rule_spans.of(c).is_some() {
            let copy = self.prog.bools[c as usize].clone();
            self.push_bool(copy)
        } else {
            c
        };
        let range = (span.start as usize, span.end as usize);
        self.prog.rule_spans.0.push((c, range));
        c
    }

    /// Ends this way through the program.
    fn fail(&mut self, ops: &mut Vec<Op>) {
        let never = self.push_bool(BoolExpr::Const(false));
        ops.push(Op::Require(never));
    }

    /// `enter`: one more piece on the entry of player `p`'s lane nearest to `near`: `entries`
    /// holds each such entry and the cells nearest to it.
    fn enter(
        &mut self,
        base: u16,
        entries: &[(usize, Vec<usize>)],
        near: CellRef,
        ops: &mut Vec<Op>,
    ) -> Result<()> {
        if entries.is_empty() {
            self.fail(ops);
            return Ok(());
        }
        let (value, end) = (self.push_int(IntExpr::Const(1)), self.label());
        for (k, (entry, region)) in entries.iter().enumerate() {
            let last = k + 1 == entries.len();
            let skip = (!last).then(|| {
                let set = self.push_set(SetExpr::Const(cell_set(region)));
                self.unless(BoolExpr::In { cell: near, set }, ops)
            });
            let cell = const_cell(*entry);
            let slot = AssignSlot::PerCell { base, cell };
            let op = AssignKind::Add;
            ops.push(Op::Assign { slot, op, value });
            if let Some(skip) = skip {
                ops.push(Op::Jump(end));
                self.bind(skip, ops)?;
            }
        }
        self.bind(end, ops)
    }

    /// `advance` on one lane: the end gains the field before it, each field takes the one
    /// before it, the entry empties.
    fn advance_lane(&mut self, base: u16, cells: &[usize], ops: &mut Vec<Op>) {
        let slot = |c: usize| AssignSlot::PerCell {
            base,
            cell: const_cell(c),
        };
        for i in (1..cells.len()).rev() {
            let cell = const_cell(cells[i - 1]);
            let value = self.push_int(IntExpr::CellCounter { base, cell });
            let op = if i + 1 == cells.len() {
                AssignKind::Add
            } else {
                AssignKind::Set
            };
            ops.push(Op::Assign {
                slot: slot(cells[i]),
                op,
                value,
            });
        }
        if cells.len() > 1 {
            let value = self.push_int(IntExpr::Const(0));
            let (slot, op) = (slot(cells[0]), AssignKind::Set);
            ops.push(Op::Assign { slot, op, value });
        }
    }

    /// `take`: one piece leaves the end of player `p`'s first lane that holds one.
    fn take(
        &mut self,
        base: u16,
        lanes: &[(u8, Vec<usize>)],
        p: u8,
        ops: &mut Vec<Op>,
    ) -> Result<()> {
        let value = self.push_int(IntExpr::Const(1));
        let (zero, done) = (self.push_int(IntExpr::Const(0)), self.label());
        for (_, cells) in lanes.iter().filter(|(q, _)| *q == p) {
            let Some(&end) = cells.last() else { continue };
            let cell = const_cell(end);
            let lhs = self.push_int(IntExpr::CellCounter { base, cell });
            let (op, rhs) = (CmpOp::Gt, zero);
            let skip = self.unless(BoolExpr::Cmp { op, lhs, rhs }, ops);
            let (slot, op) = (AssignSlot::PerCell { base, cell }, AssignKind::Sub);
            ops.push(Op::Assign { slot, op, value });
            ops.push(Op::Jump(done));
            self.bind(skip, ops)?;
        }
        self.fail(ops);
        self.bind(done, ops)
    }

    /// `waiting(T, p)`: how many of `p`'s pieces wait at the ends of `p`'s lanes.
    pub(super) fn waiting(&mut self, args: &[Expr]) -> Result<IntExpr> {
        let Some(ExprKind::Name(t)) = args.first().map(|a| &a.kind) else {
            return err("`waiting` expects a track");
        };
        let (base, Track { lanes, .. }) = self.track(&t.name)?;
        let owner = self.owner_or_mover(args.get(1))?;
        let mut sums = [IntExpr::Const(0), IntExpr::Const(0)];
        for (p, sum) in sums.iter_mut().enumerate() {
            let mut acc: Option<IntId> = None;
            for (_, cells) in lanes.iter().filter(|(q, _)| usize::from(*q) == p) {
                let Some(&end) = cells.last() else { continue };
                let cell = const_cell(end);
                let rhs = self.push_int(IntExpr::CellCounter { base, cell });
                acc = Some(match acc {
                    None => rhs,
                    Some(lhs) => self.push_int(IntExpr::Bin {
                        op: IntOp::Add,
                        lhs,
                        rhs,
                    }),
                });
            }
            if let Some(a) = acc {
                *sum = self.prog.ints[usize::from(a)].clone();
            }
        }
        let [first, second] = sums;
        Ok(match owner {
            PlayerRef::Const(0) => first,
            PlayerRef::Const(_) => second,
            _ => IntExpr::Cond {
                cond: self.push_bool(player_is(owner, 0)),
                then: self.push_int(first),
                otherwise: self.push_int(second),
            },
        })
    }
}

/// Whether `owner` is player `p`.
fn player_is(owner: PlayerRef, p: u8) -> BoolExpr {
    BoolExpr::PlayerEq {
        eq: true,
        lhs: owner,
        rhs: PlayerRef::Const(p),
    }
}

/// The cell with index `c`.
fn const_cell(c: usize) -> CellRef {
    CellRef::Const(u16::try_from(c).unwrap_or(u16::MAX))
}
