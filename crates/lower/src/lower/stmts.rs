//! Statements: turn, setup and on-no-moves programs to bytecode.

use super::*;
use rulestone_check::model::Func;
use rulestone_ir::build::locals::Placed;
use rulestone_ir::passes::{endless, loop_memo, replay_lets};
use rulestone_ir::MAX_STEPS;
use rulestone_syntax::Span;

impl<'a> Lowerer<'a> {
    pub(super) fn code(&mut self, block: &Block) -> Result<Code> {
        let mut ops = Vec::new();
        self.block(block, &mut ops)?;
        ops.push(Op::Done);
        self.labels.resolve(&mut ops);
        loop_memo::run(&mut ops);
        replay_lets::run(&self.prog, &mut ops);
        Ok(Code::new(ops))
    }

    fn block(&mut self, block: &Block, ops: &mut Vec<Op>) -> Result<()> {
        for stmt in &block.stmts {
            self.stmt(stmt, ops).map_err(|e| e.at(stmt.span))?;
        }
        Ok(())
    }

    /// One statement's ops: a short dispatcher, with a helper for each statement that needs
    /// more than a few ops or labels.
    fn stmt(&mut self, stmt: &Stmt, ops: &mut Vec<Op>) -> Result<()> {
        match &stmt.kind {
            StmtKind::Pick { var, from, by } => self.pick(var, from, by.as_ref(), ops)?,
            StmtKind::Place {
                var,
                from,
                turned,
                layer,
                max,
                feet,
            } => {
                let place = self.place(var, from, turned, layer, max.as_ref(), feet.as_ref())?;
                ops.push(place);
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
            } => self.roll(counters, *lo, *hi, ops)?,
            StmtKind::Again => ops.push(Op::Again),
            StmtKind::While { cond, body } => self.while_loop(cond, body, stmt.span, ops)?,
            StmtKind::Put { piece, owner, at } => {
                let put = self.put(piece, owner.as_ref(), at)?;
                ops.push(put);
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
            StmtKind::Enter { track, owner, .. }
            | StmtKind::Advance { track, owner }
            | StmtKind::Take { track, owner } => {
                self.track_stmt(&stmt.kind, track, owner.as_ref(), ops)?;
            }
            StmtKind::Require(c) => {
                let c = self.bool(c)?;
                if self.prog.const_bool(c) != Some(true) {
                    let c = self.prog.rule_condition(c, stmt.span);
                    ops.push(Op::Require(c));
                }
            }
            StmtKind::If {
                cond,
                then,
                otherwise,
            } => self.if_stmt(cond, then, otherwise.as_ref(), ops)?,
            StmtKind::Either(blocks) => self.branches(blocks, false, ops)?,
            StmtKind::First(blocks) => self.branches(blocks, true, ops)?,
            StmtKind::Repeat {
                min,
                max,
                body,
                range,
            } => self.repeat(*min, *max, *range, body, ops)?,
            StmtKind::Distinct(body) => self.distinct(body, ops)?,
            StmtKind::Write(t) => ops.push(Op::Write(self.template(t)?)),
            StmtKind::Win(p) => ops.push(Op::Finish(Finish::Win(self.player(p)?))),
            StmtKind::Lose(p) => ops.push(Op::Finish(Finish::Lose(self.player(p)?))),
            StmtKind::Draw => ops.push(Op::Finish(Finish::Draw)),
            // A procedure call runs its body, written out with the arguments, in line.
            StmtKind::Call { body, .. } => match body {
                Some(b) => self.block(b, ops)?,
                None => return Err(LowerError::internal("a call the checker did not expand")),
            },
        }
        Ok(())
    }

    /// `pick VAR in FROM [by PLAYER]`: picking from a relation picks a direction, anything else
    /// a cell; `by` hands the choice to another player first.
    fn pick(
        &mut self,
        var: &Ident,
        from: &Expr,
        by: Option<&Expr>,
        ops: &mut Vec<Op>,
    ) -> Result<()> {
        if let Some(p) = by {
            let player = self.player(p)?;
            ops.push(Op::Chooser(player));
        }
        if let Some(Sym::Relation(relation)) = self.sym(from) {
            let var = self.locals.dir(&var.name, var.span, relation)?;
            ops.push(Op::PickDir { var, relation });
        } else {
            let set = self.set(from)?;
            let from = self.prog.pick_set(set, from.span);
            let var = self.locals.cell(&var.name, var.span)?;
            ops.push(Op::Pick { var, from });
        }
        Ok(())
    }

    /// The op of `place VAR in unplayed(PLAYER) turned T on LAYER [max …] [feet …]`; without a
    /// `max`, any number of cells may be covered.
    fn place(
        &mut self,
        var: &Ident,
        from: &Expr,
        turned: &Ident,
        layer: &Ident,
        max: Option<&Expr>,
        feet: Option<&Expr>,
    ) -> Result<Op> {
        let (Some(Func::Unplayed), ExprKind::Call { args, .. }) =
            (self.types.func(from), &from.kind)
        else {
            return err("`place` takes shapes from `unplayed(player)`");
        };
        let player = self.owner_or_mover(args.first())?;
        let layer = declared!(self, &layer.name, Sym::Layer(base) => base);
        let table = self.placements(&turned.name)?;
        let max = match max {
            Some(m) => self.int(m)?,
            None => self.prog.push_int(IntExpr::Const(i32::MAX)),
        };
        let feet = feet.map(|cells| self.set(cells)).transpose()?;
        let Placed { slot, anchor, .. } = self.locals.placed(&var.name, var.span, table)?;
        Ok(Op::Place {
            slot,
            anchor,
            table,
            player,
            layer,
            max,
            feet,
        })
    }

    /// `roll C, … in LO..HI`: one op per counter; the range must fit the op's `u16` count.
    fn roll(&mut self, counters: &[Ident], lo: i64, hi: i64, ops: &mut Vec<Op>) -> Result<()> {
        let (Ok(lo), Ok(count)) = (i32::try_from(lo), u16::try_from(hi - lo + 1)) else {
            return err("a roll range must hold 1 to 256 values");
        };
        for c in counters {
            let slot = declared!(self, &c.name, Sym::Counter(base) => base);
            ops.push(Op::Roll { slot, lo, count });
        }
        Ok(())
    }

    /// `while COND { … }`: a loop counter bounds the rounds, and a loop that can be shown never
    /// to end is refused here rather than left to hit that bound at run time.
    fn while_loop(
        &mut self,
        cond: &Expr,
        body: &Block,
        span: Span,
        ops: &mut Vec<Op>,
    ) -> Result<()> {
        let var = self.locals.loop_counter("while", ops.len())?;
        let (cond, exit) = (self.bool(cond)?, self.labels.new_label());
        ops.push(Op::RepeatStart { var });
        let head = ops.len();
        ops.push(Op::WhileCheck { var, cond, exit });
        self.loop_body(body, ops)?;
        if let Some(why) = endless::run(&self.prog, cond, &ops[head + 1..]) {
            return Err(BuildError::EndlessWhile {
                why,
                max: u32::from(u8::MAX),
                span: Some(span),
            }
            .into());
        }
        ops.push(Op::Jump(pc(head)?));
        self.labels.bind(exit, ops)?;
        Ok(())
    }

    /// The op of `put PIECE [of OWNER] at AT`: on a set of cells it puts one piece on each.
    fn put(&mut self, piece: &Ident, owner: Option<&Expr>, at: &Expr) -> Result<Op> {
        let k = declared!(self, &piece.name, Sym::Piece(k) => k);
        let owner = self.owner_or_mover(owner)?;
        let code_base = 1 + 2 * k;
        Ok(if self.ty(at)? == Ty::Cells {
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
        })
    }

    /// `enter`, `advance` and `take` on a track: each is an assembler routine over the track's
    /// lanes, for the owner (or the mover).
    fn track_stmt(
        &mut self,
        kind: &StmtKind,
        track: &Ident,
        owner: Option<&Expr>,
        ops: &mut Vec<Op>,
    ) -> Result<()> {
        let (base, track) = self.track(&track.name)?;
        let owner = self.owner_or_mover(owner)?;
        match kind {
            StmtKind::Enter { near, .. } => {
                let near = self.cell(near)?;
                self.asm(ops).enter(base, &lanes(&track), owner, near)?;
            }
            StmtKind::Advance { .. } => self.asm(ops).advance(base, &lanes(&track), owner)?,
            _ => self.asm(ops).take(base, &lanes(&track), owner)?,
        }
        Ok(())
    }

    /// `distinct { … }`: the body's choices are bracketed by a block id, kept on a stack so
    /// loops inside know to memoize ([`Self::loop_body`]).
    fn distinct(&mut self, body: &Block, ops: &mut Vec<Op>) -> Result<()> {
        let block = self.prog.new_distinct_block()?;
        ops.push(Op::DistinctStart { block });
        self.distinct_stack.push(block);
        self.block(body, ops)?;
        self.distinct_stack.pop();
        ops.push(Op::DistinctEnd { block });
        Ok(())
    }

    /// `if COND { … } [else { … }]`: a condition known when lowering keeps only the branch it
    /// takes, with no jump at all.
    fn if_stmt(
        &mut self,
        cond: &Expr,
        then: &Block,
        otherwise: Option<&Block>,
        ops: &mut Vec<Op>,
    ) -> Result<()> {
        let c = self.bool(cond)?;
        if let Some(v) = self.prog.const_bool(c) {
            if let Some(b) = if v { Some(then) } else { otherwise } {
                self.block(b, ops)?;
            }
            return Ok(());
        }
        let (cond, skip, end) = (c, self.labels.new_label(), self.labels.new_label());
        ops.push(Op::Unless { cond, target: skip });
        self.block(then, ops)?;
        if otherwise.is_some() {
            ops.push(Op::Jump(end));
        }
        self.labels.bind(skip, ops)?;
        if let Some(b) = otherwise {
            self.block(b, ops)?;
        }
        self.labels.bind(end, ops)?;
        Ok(())
    }

    /// `either { … } or { … }` (every branch) and `first { … } or { … }` (the first that can
    /// move): one op listing each branch's start, each branch ending in a jump past them all.
    fn branches(&mut self, blocks: &[Block], first: bool, ops: &mut Vec<Op>) -> Result<()> {
        let starts: Vec<u32> = blocks.iter().map(|_| self.labels.new_label()).collect();
        ops.push(if first {
            Op::First(starts.clone())
        } else {
            Op::Either(starts.clone())
        });
        let end = self.labels.new_label();
        for (b, start) in blocks.iter().zip(starts) {
            self.labels.bind(start, ops)?;
            self.block(b, ops)?;
            ops.push(Op::Jump(end));
        }
        self.labels.bind(end, ops)?;
        Ok(())
    }

    /// `repeat MIN..MAX { … }`: a counted loop; a bad range is reported at the range.
    fn repeat(
        &mut self,
        min: u32,
        max: u32,
        range: Span,
        body: &Block,
        ops: &mut Vec<Op>,
    ) -> Result<()> {
        let var = self.locals.loop_counter("repeat", ops.len())?;
        let (min, max) = rounds(min, max).map_err(|e| e.at(range))?;
        let outer = self.forced_rounds;
        self.forced_rounds = outer.saturating_mul(u64::from(min).max(1));
        if self.forced_rounds > MAX_STEPS {
            return Err(BuildError::NestedRoundsTooMany {
                found: self.forced_rounds,
                max: MAX_STEPS,
                span: Some(range),
            }
            .into());
        }
        ops.push(Op::RepeatStart { var });
        let (check, exit) = (pc(ops.len())?, self.labels.new_label());
        ops.push(Op::RepeatCheck {
            var,
            min,
            max,
            exit,
        });
        self.loop_body(body, ops)?;
        self.forced_rounds = outer;
        ops.push(Op::RepeatNext { var, check });
        self.labels.bind(exit, ops)?;
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
                let var = self.locals.dir(&name.name, name.span, relation)?;
                ops.push(Op::SetDir { var, relation, dir });
            }
            Ty::Cell => {
                let set = self.set(value)?;
                let var = self.locals.cell(&name.name, name.span)?;
                ops.push(Op::SetVar { var, set });
            }
            _ => {
                let set = self.set(value)?;
                let slot = self.locals.set(&name.name, name.span)?;
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
        let new_value = match self.locals.get(name) {
            Some(Local::Dir { var, relation }) => {
                let dir = self.dir(value)?.1;
                Some(Op::SetDir { var, relation, dir })
            }
            Some(Local::Set(slot)) => Some(Op::Let {
                slot,
                set: self.set(value)?,
                replay: true,
            }),
            Some(Local::Cell(var)) => Some(Op::SetVar {
                var,
                set: self.set(value)?,
            }),
            _ => None,
        };
        if let Some(op) = new_value {
            ops.push(op);
            return Ok(());
        }
        let op = rulestone_check::operators::assign_kind(op);
        let slot = match (self.syms.get(name).copied(), index) {
            (Some(Sym::Layer(base)), Some(i)) if self.ty(i)? == Ty::Cells => {
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
            (Some(Sym::Layer(base)), Some(i)) => AssignSlot::PerCell {
                base,
                cell: self.cell(i)?,
            },
            (Some(Sym::Counter(base)), Some(i)) => AssignSlot::PerPlayer {
                base,
                player: self.player(i)?,
            },
            (Some(Sym::Counter(base) | Sym::Layer(base)), None) => AssignSlot::Global(base),
            _ => return err(format!("`{name}` is not a counter")),
        };
        let value = self.int(value)?;
        ops.push(Op::Assign { slot, op, value });
        Ok(())
    }

    /// `move a to b`: a token's new cell, or a piece's move with the carried tokens on `a`.
    fn move_stmt(&mut self, what: &Expr, to: &Expr, ops: &mut Vec<Op>) -> Result<()> {
        let to = self.cell(to)?;
        let value = self.prog.push_int(IntExpr::CellId(to));
        if let Some(Sym::Token(slot)) = self.sym(what) {
            self.asm(ops).set_counter(slot, value);
            return Ok(());
        }
        let from = self.cell(what)?;
        ops.push(Op::Move { from, to });
        let (prog, labels) = (&mut self.prog, &mut self.labels);
        Ok(Asm { prog, labels, ops }.carry(&self.carried, from, value)?)
    }

    /// A track's per-cell slots and its lanes (see [`lanes`]).
    pub(super) fn track(&self, name: &str) -> Result<(u16, Track)> {
        match (self.syms.get(name), self.board.tracks.get(name)) {
            (Some(Sym::Layer(base)), Some(track)) => Ok((*base, track.clone())),
            _ => err(format!("`{name}` is not a track")),
        }
    }

    pub(super) fn owner_or_mover(&mut self, owner: Option<&Expr>) -> Result<PlayerRef> {
        owner.map_or(Ok(PlayerRef::Mover), |o| self.player(o))
    }
}

/// The checker's track as the lanes its ops read.
pub(super) fn lanes(track: &Track) -> rulestone_ir::build::tracks::Track<'_> {
    rulestone_ir::build::tracks::Track {
        lanes: &track.lanes,
        entries: &track.entries,
    }
}
