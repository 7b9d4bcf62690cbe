//! Statements: turn, setup and on-no-moves programs to bytecode.

use super::*;

impl<'a> Lowerer<'a> {
    pub(super) fn code(&mut self, block: &Block) -> Result<Code> {
        self.in_code = true;
        let mut ops = Vec::new();
        self.block(block, &mut ops)?;
        ops.push(Op::Done);
        crate::ir::passes::replay_lets::run(&self.prog, &mut ops);
        Ok(Code::new(ops))
    }

    pub(super) fn var(&mut self, name: &str) -> Result<u8> {
        if let Some(v) = self.vars.get(name) {
            return Ok(*v);
        }
        self.new_var(name)
    }

    pub(super) fn new_var(&mut self, name: &str) -> Result<u8> {
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

    pub(super) fn block(&mut self, block: &Block, ops: &mut Vec<Op>) -> Result<()> {
        for stmt in &block.stmts {
            self.stmt(stmt, ops).map_err(|e| e.at(stmt.span))?;
        }
        Ok(())
    }

    #[allow(clippy::too_many_lines)] // one arm per statement kind
    pub(super) fn stmt(&mut self, stmt: &Stmt, ops: &mut Vec<Op>) -> Result<()> {
        {
            match &stmt.kind {
                StmtKind::Pick { var, from, by } => {
                    if let Some(p) = by {
                        let player = self.player(p)?;
                        ops.push(Op::Chooser(player));
                    }
                    let relation = match &from.kind {
                        ExprKind::Name(n) => match self.syms.get(n.name.as_str()) {
                            Some(Sym::Relation(r)) => Some(*r),
                            _ => None,
                        },
                        _ => None,
                    };
                    if let Some(relation) = relation {
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
                    let player = match &from.kind {
                        ExprKind::Call { func, args }
                            if func.name == "unplayed" && args.len() == 1 =>
                        {
                            self.player(&args[0])?
                        }
                        _ => return err("`place` takes shapes from `unplayed(player)`"),
                    };
                    let Some(Sym::Layer { base }) = self.syms.get(layer.name.as_str()).copied()
                    else {
                        return err(format!("`{}` is not a per-cell counter", layer.name));
                    };
                    let table = self.placements(&turned.name)?;
                    let max = match max {
                        Some(m) => self.int(m)?,
                        None => self.push_int(IntExpr::Const(i32::MAX)),
                    };
                    let feet = match feet {
                        Some(cells) => Some(self.set(cells)?),
                        None => None,
                    };
                    let anchor = self.var(&format!("{}.anchor", var.name))?;
                    let slot = match self.placed_vars.get(&var.name) {
                        Some(p) => p.slot,
                        None => {
                            let slot = self.placed_vars.len();
                            if slot >= crate::ir::MAX_PLACED {
                                return Err(LowerError::TooManyPlaceVariables {
                                    found: slot + 1,
                                    max: crate::ir::MAX_PLACED,
                                    span: Some(var.span),
                                });
                            }
                            u8::try_from(slot).unwrap_or(0)
                        }
                    };
                    self.placed_vars.insert(
                        var.name.clone(),
                        PlacedVar {
                            slot,
                            table,
                            anchor,
                        },
                    );
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
                StmtKind::Let { name, value } if self.ty(value)? == Ty::Dir => {
                    let (relation, dir) = self.dir(value)?;
                    let var = self.var(&name.name)?;
                    self.dir_vars.insert(name.name.clone(), (var, relation));
                    ops.push(Op::SetDir { var, relation, dir });
                }
                StmtKind::Let { name, value } if self.ty(value)? == Ty::Cell => {
                    let set = self.set(value)?;
                    let var = self.var(&name.name)?;
                    ops.push(Op::SetVar { var, set });
                }
                StmtKind::Assign { target, value, .. }
                    if self.dir_vars.contains_key(&target.name) =>
                {
                    let (_, dir) = self.dir(value)?;
                    let (var, relation) = self.dir_vars[&target.name];
                    ops.push(Op::SetDir { var, relation, dir });
                }
                StmtKind::Assign { target, value, .. }
                    if self.set_locals.contains_key(&target.name) =>
                {
                    let set = self.set(value)?;
                    let slot = self.set_locals[&target.name];
                    ops.push(Op::Let {
                        slot,
                        set,
                        replay: true,
                    });
                }
                StmtKind::Assign {
                    target,
                    index: Some(index),
                    op,
                    value,
                } if matches!(self.syms.get(target.name.as_str()), Some(Sym::Layer { .. }))
                    && self.ty(index)? == Ty::Cells =>
                {
                    let Some(Sym::Layer { base }) = self.syms.get(target.name.as_str()).copied()
                    else {
                        return err(format!("`{}` is not a per-cell counter", target.name));
                    };
                    let cells = self.set(index)?;
                    let value = self.int(value)?;
                    let op = match op {
                        AssignOp::Set => AssignKind::Set,
                        AssignOp::Add => AssignKind::Add,
                        AssignOp::Sub => AssignKind::Sub,
                    };
                    ops.push(Op::AssignAll {
                        base,
                        cells,
                        op,
                        value,
                    });
                }
                StmtKind::Assign { target, value, .. } if self.vars.contains_key(&target.name) => {
                    let set = self.set(value)?;
                    let var = self.vars[&target.name];
                    ops.push(Op::SetVar { var, set });
                }
                StmtKind::Roll {
                    counters, lo, hi, ..
                } => {
                    let (Ok(lo), Ok(count)) = (i32::try_from(*lo), u16::try_from(hi - lo + 1))
                    else {
                        return err("a roll range must hold 1 to 256 values");
                    };
                    for c in counters {
                        let Some(Sym::Counter { base, .. }) =
                            self.syms.get(c.name.as_str()).copied()
                        else {
                            return err(format!("`{}` is not a counter", c.name));
                        };
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
                    let cond = self.bool(cond)?;
                    if let Some(why) = endless(&self.prog.bools[cond as usize], body) {
                        return Err(LowerError::EndlessWhile {
                            why,
                            max: u32::from(u8::MAX),
                            span: Some(stmt.span),
                        });
                    }
                    ops.push(Op::RepeatStart { var });
                    let head = ops.len();
                    ops.push(Op::Jump(0));
                    self.loop_memo(body, ops);
                    self.block(body, ops)?;
                    ops.push(Op::Jump(pc(head)?));
                    ops[head] = Op::WhileCheck {
                        var,
                        cond,
                        exit: pc(ops.len())?,
                    };
                }
                StmtKind::Let { name, value } => {
                    let set = self.set(value)?;
                    let slot = match self.set_locals.get(&name.name) {
                        Some(s) => *s,
                        None => {
                            let s = self.set_locals.len();
                            if s >= crate::ir::MAX_SET_LOCALS {
                                return Err(LowerError::TooManySetLocals {
                                    found: s + 1,
                                    max: crate::ir::MAX_SET_LOCALS,
                                    span: Some(name.span),
                                });
                            }
                            let s = u8::try_from(s).unwrap_or(0);
                            self.set_locals.insert(name.name.clone(), s);
                            s
                        }
                    };
                    ops.push(Op::Let {
                        slot,
                        set,
                        replay: true,
                    });
                }
                StmtKind::Put { piece, owner, at } => {
                    let Some(Sym::Piece(k)) = self.syms.get(piece.name.as_str()).copied() else {
                        return err(format!("`{}` is not a piece", piece.name));
                    };
                    let owner = match owner {
                        Some(o) => self.player(o)?,
                        None => PlayerRef::Mover,
                    };
                    let code_base = 1 + 2 * k;
                    if self.ty(at)? == Ty::Cells {
                        let at = self.set(at)?;
                        ops.push(Op::PutAll {
                            code_base,
                            owner,
                            at,
                        });
                    } else {
                        let at = self.cell(at)?;
                        ops.push(Op::Put {
                            code_base,
                            owner,
                            at,
                        });
                    }
                }
                StmtKind::Move { what, to } => self.move_stmt(what, to, ops)?,
                StmtKind::Shift { what, along } => {
                    let at = self.set(what)?;
                    let Some(Sym::Relation(relation)) = self.syms.get(along.name.as_str()).copied()
                    else {
                        return Err(LowerError::internal(format!(
                            "`{}` is not a map or direction",
                            along.name
                        ))
                        .at(along.span));
                    };
                    ops.push(Op::Shift { at, relation });
                }
                StmtKind::Enter { track, owner, near } => {
                    let (base, lanes) = self.track(&track.name)?;
                    let owner = self.owner_or_mover(owner.as_ref())?;
                    let near = self.cell(near)?;
                    self.per_player(owner, true, ops, |this, p, ops| {
                        this.enter(base, &lanes, p, near, ops)
                    })?;
                }
                StmtKind::Advance { track, owner } => {
                    let (base, lanes) = self.track(&track.name)?;
                    let owner = self.owner_or_mover(owner.as_ref())?;
                    self.per_player(owner, false, ops, |this, p, ops| {
                        for (_, cells) in lanes.iter().filter(|(q, _)| *q == p) {
                            this.advance_lane(base, cells, ops)?;
                        }
                        Ok(())
                    })?;
                }
                StmtKind::Take { track, owner } => {
                    let (base, lanes) = self.track(&track.name)?;
                    let owner = self.owner_or_mover(owner.as_ref())?;
                    self.per_player(owner, true, ops, |this, p, ops| {
                        this.take(base, &lanes, p, ops)
                    })?;
                }
                StmtKind::Remove { at } => {
                    if self.ty(at)? == Ty::Cells {
                        let at = self.set(at)?;
                        ops.push(Op::RemoveAll { at });
                    } else {
                        let at = self.cell(at)?;
                        ops.push(Op::Remove { at });
                    }
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
                    match self.prog.bools[c as usize] {
                        BoolExpr::Const(true) => self.block(then, ops)?,
                        BoolExpr::Const(false) => {
                            if let Some(b) = otherwise {
                                self.block(b, ops)?;
                            }
                        }
                        _ => {
                            let unless = ops.len();
                            ops.push(Op::Unless { cond: c, target: 0 });
                            self.block(then, ops)?;
                            if let Some(b) = otherwise {
                                let jump = ops.len();
                                ops.push(Op::Jump(0));
                                let else_start = pc(ops.len())?;
                                ops[unless] = Op::Unless {
                                    cond: c,
                                    target: else_start,
                                };
                                self.block(b, ops)?;
                                ops[jump] = Op::Jump(pc(ops.len())?);
                            } else {
                                ops[unless] = Op::Unless {
                                    cond: c,
                                    target: pc(ops.len())?,
                                };
                            }
                        }
                    }
                }
                StmtKind::Either(blocks) | StmtKind::First(blocks) => {
                    let first = matches!(stmt.kind, StmtKind::First(_));
                    let at = ops.len();
                    ops.push(Op::Jump(0));
                    let mut starts = Vec::new();
                    let mut jumps = Vec::new();
                    for b in blocks {
                        starts.push(pc(ops.len())?);
                        self.block(b, ops)?;
                        jumps.push(ops.len());
                        ops.push(Op::Jump(0));
                    }
                    let join = pc(ops.len())?;
                    for j in jumps {
                        ops[j] = Op::Jump(join);
                    }
                    ops[at] = if first {
                        Op::First(starts)
                    } else {
                        Op::Either(starts)
                    };
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
                    let check = ops.len();
                    ops.push(Op::Jump(0));
                    self.loop_memo(body, ops);
                    self.block(body, ops)?;
                    ops.push(Op::RepeatNext {
                        var,
                        check: pc(check)?,
                    });
                    ops[check] = Op::RepeatCheck {
                        var,
                        min,
                        max,
                        exit: pc(ops.len())?,
                    };
                }
                StmtKind::Distinct(body) => {
                    let block = u8::try_from(self.prog.distinct_blocks).map_err(|_| {
                        LowerError::TableTooLarge {
                            what: "`distinct` blocks",
                            found: self.prog.distinct_blocks as u64 + 1,
                            max: u64::from(u8::MAX) + 1,
                            span: None,
                        }
                    })?;
                    self.prog.distinct_blocks += 1;
                    ops.push(Op::DistinctStart { block });
                    self.distinct_stack.push(block);
                    self.block(body, ops)?;
                    self.distinct_stack.pop();
                    ops.push(Op::DistinctEnd { block });
                }
                StmtKind::Write(t) => {
                    let mut parts = Vec::new();
                    for p in &t.parts {
                        parts.push(match p {
                            AstPart::Text(s) => TemplatePart::Text(s.clone()),
                            AstPart::Hole(e) => self.template_part(e)?,
                        });
                    }
                    let id = u16::try_from(self.prog.templates.len()).unwrap_or(u16::MAX);
                    self.prog.templates.push(Template { parts });
                    ops.push(Op::Write(id));
                }
                StmtKind::Win(p) => {
                    let p = self.player(p)?;
                    ops.push(Op::Finish(Finish::Win(p)));
                }
                StmtKind::Lose(p) => {
                    let p = self.player(p)?;
                    ops.push(Op::Finish(Finish::Lose(p)));
                }
                StmtKind::Draw => ops.push(Op::Finish(Finish::Draw)),
                StmtKind::Assign {
                    target,
                    index,
                    op,
                    value,
                } => {
                    let (base, per_cell) = match self.syms.get(target.name.as_str()).copied() {
                        Some(Sym::Counter { base, .. }) => (base, false),
                        Some(Sym::Layer { base }) => (base, true),
                        _ => return err(format!("`{}` is not a counter", target.name)),
                    };
                    let slot = match index {
                        Some(i) if per_cell => AssignSlot::PerCell {
                            base,
                            cell: self.cell(i)?,
                        },
                        Some(i) => AssignSlot::PerPlayer {
                            base,
                            player: self.player(i)?,
                        },
                        None => AssignSlot::Global(base),
                    };
                    let value = self.int(value)?;
                    let op = match op {
                        AssignOp::Set => AssignKind::Set,
                        AssignOp::Add => AssignKind::Add,
                        AssignOp::Sub => AssignKind::Sub,
                    };
                    ops.push(Op::Assign { slot, op, value });
                }
            }
        }
        Ok(())
    }

    /// `move a to b`: a token's new cell, or a piece's move with the carried tokens on `a`.
    pub(super) fn move_stmt(&mut self, what: &Expr, to: &Expr, ops: &mut Vec<Op>) -> Result<()> {
        let to = self.cell(to)?;
        let value = self.push_int(IntExpr::CellId(to));
        if let ExprKind::Name(n) = &what.kind {
            if let Some(Sym::Token { slot }) = self.syms.get(n.name.as_str()).copied() {
                if !self.vars.contains_key(&n.name) {
                    ops.push(Op::Assign {
                        slot: AssignSlot::Global(slot),
                        op: AssignKind::Set,
                        value,
                    });
                    return Ok(());
                }
            }
        }
        let from = self.cell(what)?;
        ops.push(Op::Move { from, to });
        for slot in self.carried.clone() {
            let cond = self.push_bool(BoolExpr::CellEq {
                eq: true,
                lhs: CellRef::Slot(slot),
                rhs: from,
            });
            let unless = ops.len();
            ops.push(Op::Unless { cond, target: 0 });
            ops.push(Op::Assign {
                slot: AssignSlot::Global(slot),
                op: AssignKind::Set,
                value,
            });
            ops[unless] = Op::Unless {
                cond,
                target: pc(ops.len())?,
            };
        }
        Ok(())
    }

    /// A track's per-cell slots and its lanes.
    pub(super) fn track(&self, name: &str) -> Result<(u16, Lanes)> {
        match (self.syms.get(name), self.tracks.get(name)) {
            (Some(Sym::Layer { base }), Some(lanes)) => Ok((*base, lanes.clone())),
            _ => err(format!("`{name}` is not a track")),
        }
    }

    pub(super) fn owner_or_mover(&mut self, owner: Option<&Expr>) -> Result<PlayerRef> {
        owner.map_or(Ok(PlayerRef::Mover), |o| self.player(o))
    }

    /// Emits `body` for each player `owner` may be, behind a test of who it is; with `fail`,
    /// a player with no branch (no lanes) ends the walk.
    pub(super) fn per_player(
        &mut self,
        owner: PlayerRef,
        fail: bool,
        ops: &mut Vec<Op>,
        mut body: impl FnMut(&mut Self, u8, &mut Vec<Op>) -> Result<()>,
    ) -> Result<()> {
        let mut ends = Vec::new();
        for p in 0..2u8 {
            if matches!(owner, PlayerRef::Const(q) if q != p) {
                continue;
            }
            let guard = if matches!(owner, PlayerRef::Const(_)) {
                None
            } else {
                let cond = self.push_bool(BoolExpr::PlayerEq {
                    eq: true,
                    lhs: owner,
                    rhs: PlayerRef::Const(p),
                });
                ops.push(Op::Unless { cond, target: 0 });
                Some((ops.len() - 1, cond))
            };
            body(self, p, ops)?;
            ends.push(ops.len());
            ops.push(Op::Jump(0));
            patch_guard(ops, guard)?;
        }
        if fail {
            self.fail(ops);
        }
        patch_jumps(ops, &ends)
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
    pub(super) fn fail(&mut self, ops: &mut Vec<Op>) {
        let never = self.push_bool(BoolExpr::Const(false));
        ops.push(Op::Require(never));
    }

    /// `enter`: one more piece on the entry of player `p`'s lane nearest to `near` (squared
    /// distance between coordinates; ties go to the lane written first).
    pub(super) fn enter(
        &mut self,
        base: u16,
        lanes: &[(u8, Vec<usize>)],
        p: u8,
        near: CellRef,
        ops: &mut Vec<Op>,
    ) -> Result<()> {
        let entries: Vec<usize> = lanes
            .iter()
            .filter(|(q, _)| *q == p)
            .filter_map(|(_, cells)| cells.first().copied())
            .collect();
        if entries.is_empty() {
            self.fail(ops);
            return Ok(());
        }
        let axes = self.prog.board.axes.len();
        let coords = &self.prog.board.coords;
        let dist = |a: usize, b: usize| -> i64 {
            (0..axes)
                .map(|k| {
                    let d = i64::from(coords[a * axes + k]) - i64::from(coords[b * axes + k]);
                    d * d
                })
                .sum()
        };
        let mut regions = vec![CellSet::EMPTY; entries.len()];
        for c in 0..self.prog.board.len() {
            let nearest = (0..entries.len())
                .min_by_key(|&k| (dist(c, entries[k]), k))
                .unwrap_or(0);
            regions[nearest].insert(c);
        }
        let value = self.push_int(IntExpr::Const(1));
        let mut ends = Vec::new();
        for (k, &entry) in entries.iter().enumerate() {
            let last = k + 1 == entries.len();
            let guard = if last {
                None
            } else {
                let set = self.push_set(SetExpr::Const(regions[k]));
                let cond = self.push_bool(BoolExpr::In { cell: near, set });
                ops.push(Op::Unless { cond, target: 0 });
                Some((ops.len() - 1, cond))
            };
            ops.push(Op::Assign {
                slot: AssignSlot::PerCell {
                    base,
                    cell: CellRef::Const(u16::try_from(entry).unwrap_or(u16::MAX)),
                },
                op: AssignKind::Add,
                value,
            });
            if !last {
                ends.push(ops.len());
                ops.push(Op::Jump(0));
            }
            patch_guard(ops, guard)?;
        }
        patch_jumps(ops, &ends)
    }

    /// `advance` on one lane: the end gains the field before it, each field takes the one
    /// before it, the entry empties.
    pub(super) fn advance_lane(
        &mut self,
        base: u16,
        cells: &[usize],
        ops: &mut Vec<Op>,
    ) -> Result<()> {
        let slot = |c: usize| AssignSlot::PerCell {
            base,
            cell: CellRef::Const(u16::try_from(c).unwrap_or(u16::MAX)),
        };
        for i in (1..cells.len()).rev() {
            let before = self.push_int(IntExpr::CellCounter {
                base,
                cell: CellRef::Const(u16::try_from(cells[i - 1]).unwrap_or(u16::MAX)),
            });
            let op = if i + 1 == cells.len() {
                AssignKind::Add
            } else {
                AssignKind::Set
            };
            ops.push(Op::Assign {
                slot: slot(cells[i]),
                op,
                value: before,
            });
        }
        if cells.len() > 1 {
            let zero = self.push_int(IntExpr::Const(0));
            ops.push(Op::Assign {
                slot: slot(cells[0]),
                op: AssignKind::Set,
                value: zero,
            });
        }
        Ok(())
    }

    /// `take`: one piece leaves the end of player `p`'s first lane that holds one.
    pub(super) fn take(
        &mut self,
        base: u16,
        lanes: &[(u8, Vec<usize>)],
        p: u8,
        ops: &mut Vec<Op>,
    ) -> Result<()> {
        let one = self.push_int(IntExpr::Const(1));
        let zero = self.push_int(IntExpr::Const(0));
        let mut ends = Vec::new();
        for (_, cells) in lanes.iter().filter(|(q, _)| *q == p) {
            let Some(&end) = cells.last() else { continue };
            let cell = CellRef::Const(u16::try_from(end).unwrap_or(u16::MAX));
            let count = self.push_int(IntExpr::CellCounter { base, cell });
            let cond = self.push_bool(BoolExpr::Cmp {
                op: CmpOp::Gt,
                lhs: count,
                rhs: zero,
            });
            let at = ops.len();
            ops.push(Op::Unless { cond, target: 0 });
            ops.push(Op::Assign {
                slot: AssignSlot::PerCell { base, cell },
                op: AssignKind::Sub,
                value: one,
            });
            ends.push(ops.len());
            ops.push(Op::Jump(0));
            ops[at] = Op::Unless {
                cond,
                target: pc(ops.len())?,
            };
        }
        self.fail(ops);
        patch_jumps(ops, &ends)
    }

    /// `waiting(T, p)`: how many of `p`'s pieces wait at the ends of `p`'s lanes.
    pub(super) fn waiting(&mut self, args: &[Expr]) -> Result<IntExpr> {
        let Some(ExprKind::Name(t)) = args.first().map(|a| &a.kind) else {
            return err("`waiting` expects a track");
        };
        let (base, lanes) = self.track(&t.name)?;
        let owner = self.owner_or_mover(args.get(1))?;
        let mut sums = [IntExpr::Const(0), IntExpr::Const(0)];
        for (p, sum) in sums.iter_mut().enumerate() {
            let mut acc: Option<IntId> = None;
            for (_, cells) in lanes.iter().filter(|(q, _)| usize::from(*q) == p) {
                let Some(&end) = cells.last() else { continue };
                let cell = CellRef::Const(u16::try_from(end).unwrap_or(u16::MAX));
                let here = self.push_int(IntExpr::CellCounter { base, cell });
                acc = Some(match acc {
                    None => here,
                    Some(a) => self.push_int(IntExpr::Bin {
                        op: IntOp::Add,
                        lhs: a,
                        rhs: here,
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
            _ => {
                let cond = self.push_bool(BoolExpr::PlayerEq {
                    eq: true,
                    lhs: owner,
                    rhs: PlayerRef::Const(0),
                });
                let then = self.push_int(first);
                let otherwise = self.push_int(second);
                IntExpr::Cond {
                    cond,
                    then,
                    otherwise,
                }
            }
        })
    }

    /// Inside a `distinct` block, a loop whose rounds choose between branches can reach one
    /// position by many paths: its body starts with a memo that stops the repeats.
    pub(super) fn loop_memo(&self, body: &Block, ops: &mut Vec<Op>) {
        fn chooses(b: &Block) -> bool {
            b.stmts.iter().any(|s| match &s.kind {
                StmtKind::Either(_) | StmtKind::First(_) => true,
                StmtKind::If {
                    then, otherwise, ..
                } => chooses(then) || otherwise.as_ref().is_some_and(chooses),
                StmtKind::Repeat { body, .. }
                | StmtKind::Distinct(body)
                | StmtKind::While { body, .. } => chooses(body),
                _ => false,
            })
        }
        if let Some(&block) = self.distinct_stack.last() {
            if chooses(body) {
                ops.push(Op::Memo { block });
            }
        }
    }
}

/// Why a `while` with this (folded) condition and body provably never ends, if it does: no
/// `win`, `lose` or `draw` in its body ends the turn from inside, and its condition is constant
/// true or its body changes nothing the condition could read (no assignment, piece change, pick
/// or roll), so a condition true once stays true. Such a loop only ever runs into its round
/// limit, which drops every move through it.
fn endless(cond: &BoolExpr, body: &Block) -> Option<&'static str> {
    if matches!(cond, BoolExpr::Const(false)) || reaches(body, &|k| is_finish(k)) {
        return None;
    }
    if matches!(cond, BoolExpr::Const(true)) {
        return Some("its condition is always true");
    }
    if reaches(body, &|k| !is_finish(k) && !is_inert(k)) {
        return None;
    }
    Some("its body changes nothing its condition reads")
}

/// Whether some statement of the block, or of a block nested in it, is one `found` accepts.
fn reaches(block: &Block, found: &dyn Fn(&StmtKind) -> bool) -> bool {
    block.stmts.iter().any(|stmt| match &stmt.kind {
        StmtKind::If {
            then, otherwise, ..
        } => reaches(then, found) || otherwise.as_ref().is_some_and(|b| reaches(b, found)),
        StmtKind::Either(blocks) | StmtKind::First(blocks) => {
            blocks.iter().any(|b| reaches(b, found))
        }
        StmtKind::Repeat { body, .. } | StmtKind::Distinct(body) | StmtKind::While { body, .. } => {
            reaches(body, found)
        }
        kind => found(kind),
    })
}

/// A statement that ends the turn where it runs.
fn is_finish(kind: &StmtKind) -> bool {
    matches!(kind, StmtKind::Win(_) | StmtKind::Lose(_) | StmtKind::Draw)
}

/// A statement that changes nothing a condition reads.
fn is_inert(kind: &StmtKind) -> bool {
    matches!(
        kind,
        StmtKind::Require(_) | StmtKind::Write(_) | StmtKind::Again
    )
}
