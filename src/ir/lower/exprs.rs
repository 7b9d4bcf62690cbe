//! Expressions: sets of cells, integers, conditions, cells, players, directions and text.

use super::*;

impl<'a> Lowerer<'a> {
    pub(super) fn template_part(&mut self, e: &Expr) -> Result<TemplatePart> {
        if let Some(body) = self.expand_call(e) {
            return self.template_part(&body);
        }
        self.template_part_at(e).map_err(|err| err.at(e.span))
    }

    pub(super) fn template_part_at(&mut self, e: &Expr) -> Result<TemplatePart> {
        match &e.kind {
            ExprKind::Name(n) => {
                if let Some(p) = self.placed_vars.get(&n.name) {
                    return Ok(TemplatePart::ShapeName {
                        slot: p.slot,
                        table: p.table,
                    });
                }
            }
            ExprKind::Field { base, field } if field.name == "facing" => {
                if let Some(p) = self.placed(base) {
                    return Ok(TemplatePart::Facing {
                        slot: p.slot,
                        table: p.table,
                    });
                }
            }
            _ => {}
        }
        if let ExprKind::Call { func, args } = &e.kind {
            if func.name == "letter" && args.len() == 1 {
                return Ok(TemplatePart::Letter(self.int(&args[0])?));
            }
        }
        Ok(match self.ty(e)? {
            Ty::Dir => {
                let (relation, dir) = self.dir(e)?;
                TemplatePart::Dir { relation, dir }
            }
            Ty::Cell => TemplatePart::Cell(self.cell(e)?),
            Ty::Int => TemplatePart::Int(self.int(e)?),
            Ty::Decimal => TemplatePart::Decimal(self.int(e)?),
            Ty::Player => TemplatePart::Player(self.player(e)?),
            _ => match self.env.eval(e) {
                Ok(Const::Word(w) | Const::Text(w)) => TemplatePart::Text(w),
                _ => return err("this value cannot be written"),
            },
        })
    }

    // ---- expressions ------------------------------------------------------------------------

    /// A call of a parameterised define as it stands there: the body with each parameter
    /// replaced by its argument (the checker has matched their numbers and types).
    pub(super) fn expand_call(&self, e: &Expr) -> Option<Expr> {
        let ExprKind::Call { func, args } = &e.kind else {
            return None;
        };
        match self.syms.get(&func.name) {
            Some(Sym::Define(body, params)) if !params.is_empty() => {
                Some(body.substitute(params, args))
            }
            _ => None,
        }
    }

    /// A direction value: its relation and how to compute it.
    pub(super) fn dir(&mut self, e: &Expr) -> Result<(u16, DirExpr)> {
        if let Some(body) = self.expand_call(e) {
            return self.dir(&body);
        }
        self.dir_at(e).map_err(|err| err.at(e.span))
    }

    pub(super) fn dir_at(&mut self, e: &Expr) -> Result<(u16, DirExpr)> {
        match &e.kind {
            ExprKind::Name(n) => match self.dir_vars.get(&n.name) {
                Some(&(slot, relation)) => Ok((relation, DirExpr::Var(slot))),
                None => match self.syms.get(n.name.as_str()) {
                    Some(Sym::Define(d, _)) => self.dir(d),
                    _ => err(format!("`{}` is not a direction value", n.name)),
                },
            },
            ExprKind::Unary {
                op: UnaryOp::Neg,
                operand,
            } => {
                let (r, d) = self.dir(operand)?;
                Ok((r, DirExpr::Neg(Box::new(d))))
            }
            ExprKind::Call { func, args }
                if matches!(func.name.as_str(), "left" | "right") && args.len() == 2 =>
            {
                let (r, d) = self.dir(&args[0])?;
                let Ok(k) = self.env.int(&args[1]) else {
                    return err(format!("the turn of `{}` must be a constant", func.name));
                };
                let k = i32::try_from(k).unwrap_or(0);
                let k = if func.name == "left" { -k } else { k };
                Ok((r, DirExpr::Turn(Box::new(d), k)))
            }
            ExprKind::Call { func, args } if func.name == "dir" && args.len() == 2 => {
                let relation = match &args[0].kind {
                    ExprKind::Name(n) => match self.syms.get(n.name.as_str()) {
                        Some(Sym::Relation(r)) => *r,
                        _ => return err(format!("`{}` is not a relation", n.name)),
                    },
                    _ => return err("`dir` takes a relation's name"),
                };
                let i = self.int(&args[1])?;
                Ok((relation, DirExpr::Index(i)))
            }
            ExprKind::Call { func, args } if func.name == "flip" && args.len() == 2 => {
                let (r, d) = self.dir(&args[0])?;
                let axis = match &args[1].kind {
                    ExprKind::Name(n) => self.geo.axes.iter().position(|a| *a == n.name),
                    _ => None,
                };
                let Some(axis) = axis.and_then(|a| u8::try_from(a).ok()) else {
                    return err("`flip` takes an axis of the board");
                };
                Ok((r, DirExpr::Mirror(Box::new(d), axis)))
            }
            _ => err("expected a direction value"),
        }
    }

    pub(super) fn is_dir(&self, e: &Expr) -> bool {
        self.ty(e).is_ok_and(|t| t == Ty::Dir)
    }

    /// `d in R`: per player, the vectors of `d`'s relation that are `R`'s for that player.
    pub(super) fn dir_members(&self, relation: u16, other: &Expr) -> Result<[u64; 2]> {
        let ExprKind::Name(n) = &other.kind else {
            return err("expected a relation after `in`");
        };
        let mine = &self.prog.relations[usize::from(relation)].name;
        let (Some(vs), Some(ws)) = (
            self.vectors.get(mine.as_str()),
            self.vectors.get(n.name.as_str()),
        ) else {
            return err(format!("`{}` is not a relation", n.name));
        };
        let mut members = [0u64; 2];
        for (p, mask) in members.iter_mut().enumerate() {
            let p = u8::try_from(p).unwrap_or(0);
            for (i, (v, _)) in vs.iter().enumerate().take(64) {
                if ws
                    .iter()
                    .any(|(w, who)| w == v && who.is_none_or(|o| o == p))
                {
                    *mask |= 1 << i;
                }
            }
        }
        Ok(members)
    }

    /// The `place` variable an expression names, if it does.
    pub(super) fn placed(&self, e: &Expr) -> Option<PlacedVar> {
        match &e.kind {
            ExprKind::Name(n) => self.placed_vars.get(&n.name).copied(),
            _ => None,
        }
    }

    /// The type the checker found for `e`: the lowering never infers or guesses one.
    pub(super) fn ty(&self, e: &Expr) -> Result<Ty> {
        match self.types.of(e) {
            Some(Ty::Error) | None => err("an expression the checker did not type"),
            Some(t) => Ok(t),
        }
    }

    pub(super) fn push_set(&mut self, s: SetExpr) -> SetId {
        self.prog.sets.push(s);
        u16::try_from(self.prog.sets.len() - 1).unwrap_or(u16::MAX)
    }

    pub(super) fn push_int(&mut self, i: IntExpr) -> IntId {
        self.prog.ints.push(i);
        u16::try_from(self.prog.ints.len() - 1).unwrap_or(u16::MAX)
    }

    pub(super) fn push_bool(&mut self, b: BoolExpr) -> BoolId {
        self.prog.bools.push(b);
        u16::try_from(self.prog.bools.len() - 1).unwrap_or(u16::MAX)
    }

    pub(super) fn const_set(&self, id: SetId) -> Option<CellSet> {
        match self.prog.sets[id as usize] {
            SetExpr::Const(c) => Some(c),
            _ => None,
        }
    }

    pub(super) fn set(&mut self, e: &Expr) -> Result<SetId> {
        if let Some(body) = self.expand_call(e) {
            return self.set(&body);
        }
        self.set_at(e).map_err(|err| err.at(e.span))
    }

    pub(super) fn set_at(&mut self, e: &Expr) -> Result<SetId> {
        let all = self.prog.board.all;
        let s = match &e.kind {
            ExprKind::Field { base, field }
                if field.name == "cells" && self.placed(base).is_some() =>
            {
                let p = self
                    .placed(base)
                    .ok_or_else(|| LowerError::internal("no placement"))?;
                SetExpr::Placed {
                    slot: p.slot,
                    table: p.table,
                }
            }
            ExprKind::Name(n) => {
                let name = n.name.as_str();
                if self.vars.contains_key(name) {
                    let c = self.cell(e)?;
                    return Ok(self.push_set(SetExpr::Single(c)));
                }
                if let Some(slot) = self.set_locals.get(name) {
                    let local = SetExpr::Local(*slot);
                    return Ok(self.push_set(local));
                }
                match self.syms.get(name).copied() {
                    Some(Sym::Zone(z)) => SetExpr::Const(self.prog.zones[z as usize].cells),
                    Some(Sym::Token { slot }) => SetExpr::Single(CellRef::Slot(slot)),
                    Some(Sym::Define(d, _)) => return self.set(d),
                    Some(_) => return err(format!("`{name}` is not a set of cells")),
                    None => match name {
                        "empty" => SetExpr::Empty,
                        "occupied" => SetExpr::Occupied,
                        "own" => SetExpr::PlayerPieces(PlayerRef::Mover),
                        "enemy" => SetExpr::PlayerPieces(PlayerRef::Opponent),
                        "cells" => SetExpr::Const(all),
                        _ => match self.cell(e)? {
                            CellRef::Const(c) => {
                                let mut one = CellSet::EMPTY;
                                one.insert(usize::from(c));
                                SetExpr::Const(one)
                            }
                            c => SetExpr::Single(c),
                        },
                    },
                }
            }
            ExprKind::CellSet(items) => {
                let mut acc = self.push_set(SetExpr::Const(CellSet::EMPTY));
                for item in items {
                    let s = self.set(item)?;
                    acc = self.union(acc, s);
                }
                return Ok(acc);
            }
            ExprKind::Call { func, args } => {
                let arg = |i: usize| {
                    args.get(i).map_or_else(
                        || err(format!("`{}` is missing an argument", func.name)),
                        Ok,
                    )
                };
                match func.name.as_str() {
                    "pieces" => {
                        let Some(ExprKind::Name(k)) = args.first().map(|a| &a.kind) else {
                            return err("`pieces` expects a piece");
                        };
                        let Some(Sym::Piece(kind)) = self.syms.get(k.name.as_str()).copied() else {
                            return err(format!("`{}` is not a piece", k.name));
                        };
                        let code = 1 + 2 * kind;
                        if let Some(p) = args.get(1) {
                            let player = self.player(p)?;
                            SetExpr::Pieces { code, player }
                        } else {
                            let a = self.push_set(SetExpr::Pieces {
                                code,
                                player: PlayerRef::Const(0),
                            });
                            let b = self.push_set(SetExpr::Pieces {
                                code,
                                player: PlayerRef::Const(1),
                            });
                            SetExpr::Union(a, b)
                        }
                    }
                    "step" if args.first().is_some_and(|a| self.is_dir(a)) => {
                        let (relation, dir) = self.dir(arg(0)?)?;
                        let of = self.set(arg(1)?)?;
                        SetExpr::StepDir { relation, dir, of }
                    }
                    f @ ("ray" | "run") => {
                        let first = arg(0)?;
                        let (relation, dir) = if self.is_dir(first) {
                            let (r, d) = self.dir(first)?;
                            (r, Some(d))
                        } else {
                            (self.relation_arg(f, args)?, None)
                        };
                        let from = self.cell(arg(1)?)?;
                        let run = if f == "run" {
                            Some(self.set(arg(2)?)?)
                        } else {
                            None
                        };
                        SetExpr::Line {
                            relation,
                            dir,
                            from,
                            run,
                        }
                    }
                    f @ ("all" | "none" | "any" | "step") => {
                        let relation = self.relation_arg(&func.name, args)?;
                        let of = self.set(arg(1)?)?;
                        match f {
                            "all" => SetExpr::All { relation, of },
                            "none" => SetExpr::None { relation, of },
                            "any" => SetExpr::Any { relation, of },
                            _ => SetExpr::Step { relation, of },
                        }
                    }
                    "one" => SetExpr::First(self.set(arg(0)?)?),
                    "group" => {
                        let relation = self.relation_arg(&func.name, args)?;
                        let from = self.set(arg(1)?)?;
                        let through = self.set(arg(2)?)?;
                        SetExpr::Group {
                            relation,
                            from,
                            through,
                        }
                    }
                    "between" => {
                        let relation = self.relation_arg(&func.name, args)?;
                        let from = self.cell(arg(1)?)?;
                        let run = self.set(arg(2)?)?;
                        let end = self.set(arg(3)?)?;
                        SetExpr::Between {
                            relation,
                            from,
                            run,
                            end,
                        }
                    }
                    "brackets" => {
                        let relation = self.relation_arg(&func.name, args)?;
                        let run = self.set(arg(1)?)?;
                        let end = self.set(arg(2)?)?;
                        SetExpr::Brackets { relation, run, end }
                    }
                    other => return err(format!("`{other}` does not give a set of cells")),
                }
            }
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::Union => {
                    let (a, b) = (self.set(lhs)?, self.set(rhs)?);
                    return Ok(self.union(a, b));
                }
                BinaryOp::Inter | BinaryOp::Sub => {
                    let (a, b) = (self.set(lhs)?, self.set(rhs)?);
                    if let (Some(x), Some(y)) = (self.const_set(a), self.const_set(b)) {
                        SetExpr::Const(if *op == BinaryOp::Inter { x & y } else { x - y })
                    } else if *op == BinaryOp::Inter {
                        // Cheap operand first: it narrows the cells the costly one must test.
                        if self.set_cost(a) > self.set_cost(b) {
                            SetExpr::Inter(b, a)
                        } else {
                            SetExpr::Inter(a, b)
                        }
                    } else {
                        SetExpr::Diff(a, b)
                    }
                }
                BinaryOp::Where => {
                    let base = self.set(lhs)?;
                    let outer = self.in_where;
                    self.in_where = true;
                    let cond = self.bool(rhs);
                    self.in_where = outer;
                    let cond = cond?;
                    match (&self.prog.bools[cond as usize], self.const_set(base)) {
                        (BoolExpr::Const(true), _) => return Ok(base),
                        (BoolExpr::Const(false), _) => SetExpr::Const(CellSet::EMPTY),
                        (_, Some(cells)) if self.candidate_only(cond) => {
                            // A filter on coordinates alone is decided now, cell by cell.
                            let mut out = CellSet::EMPTY;
                            for c in cells.iter() {
                                if self.eval_static_bool(cond, c) {
                                    out.insert(c);
                                }
                            }
                            SetExpr::Const(out)
                        }
                        _ => match self.axis_filter(cond) {
                            Some(filter) => {
                                let f = self.push_set(filter);
                                if matches!(self.prog.sets[base as usize], SetExpr::Const(c) if c == self.prog.board.all)
                                {
                                    return Ok(f);
                                }
                                SetExpr::Inter(f, base)
                            }
                            None => SetExpr::Where { base, cond },
                        },
                    }
                }
                _ => return err(format!("`{}` does not give a set of cells", op.symbol())),
            },
            _ => {
                let c = self.cell(e)?;
                SetExpr::Single(c)
            }
        };
        Ok(self.push_set(s))
    }

    /// A `where` condition `axis <op> value` (or mirrored) with a value that does not depend on
    /// the candidate becomes a table lookup.
    pub(super) fn axis_filter(&mut self, cond: BoolId) -> Option<SetExpr> {
        let BoolExpr::Cmp { op, lhs, rhs } = self.prog.bools[cond as usize].clone() else {
            return None;
        };
        let axis_of = |i: IntId, this: &Self| match this.prog.ints[i as usize] {
            IntExpr::Axis {
                cell: CellRef::Candidate,
                axis,
            } => Some(axis),
            _ => None,
        };
        let free = |i: IntId, this: &Self| !this.int_mentions_candidate(i);
        if let Some(axis) = axis_of(lhs, self) {
            if free(rhs, self) {
                return Some(SetExpr::AxisCmp {
                    axis,
                    op,
                    value: rhs,
                });
            }
        }
        if let Some(axis) = axis_of(rhs, self) {
            if free(lhs, self) {
                let mirrored = match op {
                    CmpOp::Lt => CmpOp::Gt,
                    CmpOp::Le => CmpOp::Ge,
                    CmpOp::Gt => CmpOp::Lt,
                    CmpOp::Ge => CmpOp::Le,
                    other => other,
                };
                return Some(SetExpr::AxisCmp {
                    axis,
                    op: mirrored,
                    value: lhs,
                });
            }
        }
        None
    }

    pub(super) fn int_mentions_candidate(&self, i: IntId) -> bool {
        match &self.prog.ints[i as usize] {
            IntExpr::Axis { cell, .. } => *cell == CellRef::Candidate,
            IntExpr::Neg(x) => self.int_mentions_candidate(*x),
            IntExpr::Bin { lhs, rhs, .. } => {
                self.int_mentions_candidate(*lhs) || self.int_mentions_candidate(*rhs)
            }
            IntExpr::Count(_) => true,
            IntExpr::CellCounter { cell, .. } => *cell == CellRef::Candidate,
            _ => false,
        }
    }

    /// A rough cost of evaluating a set: per-cell tests cost more than bitset lookups.
    pub(super) fn set_cost(&self, id: SetId) -> u32 {
        match &self.prog.sets[id as usize] {
            SetExpr::Union(a, b) | SetExpr::Inter(a, b) | SetExpr::Diff(a, b) => {
                self.set_cost(*a) + self.set_cost(*b)
            }
            SetExpr::All { of, .. }
            | SetExpr::None { of, .. }
            | SetExpr::Any { of, .. }
            | SetExpr::Step { of, .. } => 10 + self.set_cost(*of),
            SetExpr::Group { from, through, .. } => {
                40 + self.set_cost(*from) + self.set_cost(*through)
            }
            SetExpr::First(of) => 2 + self.set_cost(*of),
            SetExpr::Where { base, .. } => 20 + self.set_cost(*base),
            _ => 1,
        }
    }

    /// The relation (or direction) named by a built-in's first argument.
    pub(super) fn relation_arg(&self, func: &str, args: &[Expr]) -> Result<u16> {
        match args.first().map(|a| &a.kind) {
            Some(ExprKind::Name(n)) => match self.syms.get(n.name.as_str()) {
                Some(Sym::Relation(r)) => Ok(*r),
                _ => err(format!("`{}` is not a relation", n.name)),
            },
            _ => err(format!("`{func}` expects a relation")),
        }
    }

    pub(super) fn union(&mut self, a: SetId, b: SetId) -> SetId {
        if let (Some(x), Some(y)) = (self.const_set(a), self.const_set(b)) {
            self.push_set(SetExpr::Const(x | y))
        } else {
            self.push_set(SetExpr::Union(a, b))
        }
    }

    /// Whether a condition reads nothing but constants and the candidate's coordinates.
    pub(super) fn candidate_only(&self, b: BoolId) -> bool {
        match &self.prog.bools[b as usize] {
            BoolExpr::Const(_) => true,
            BoolExpr::Not(x) => self.candidate_only(*x),
            BoolExpr::And(x, y) | BoolExpr::Or(x, y) => {
                self.candidate_only(*x) && self.candidate_only(*y)
            }
            BoolExpr::Cmp { lhs, rhs, .. } => {
                self.int_candidate_only(*lhs) && self.int_candidate_only(*rhs)
            }
            _ => false,
        }
    }

    pub(super) fn int_candidate_only(&self, i: IntId) -> bool {
        match &self.prog.ints[i as usize] {
            IntExpr::Const(_) => true,
            IntExpr::Axis { cell, .. } => *cell == CellRef::Candidate,
            IntExpr::Neg(x) => self.int_candidate_only(*x),
            IntExpr::Bin { lhs, rhs, .. } => {
                self.int_candidate_only(*lhs) && self.int_candidate_only(*rhs)
            }
            _ => false,
        }
    }

    pub(super) fn eval_static_bool(&self, b: BoolId, cand: usize) -> bool {
        match &self.prog.bools[b as usize] {
            BoolExpr::Const(v) => *v,
            BoolExpr::Not(x) => !self.eval_static_bool(*x, cand),
            BoolExpr::And(x, y) => {
                self.eval_static_bool(*x, cand) && self.eval_static_bool(*y, cand)
            }
            BoolExpr::Or(x, y) => {
                self.eval_static_bool(*x, cand) || self.eval_static_bool(*y, cand)
            }
            BoolExpr::Cmp { op, lhs, rhs } => {
                let (a, b) = (
                    self.eval_static_int(*lhs, cand),
                    self.eval_static_int(*rhs, cand),
                );
                compare(*op, a, b)
            }
            _ => false,
        }
    }

    pub(super) fn eval_static_int(&self, i: IntId, cand: usize) -> i32 {
        match &self.prog.ints[i as usize] {
            IntExpr::Const(v) => *v,
            IntExpr::Axis { axis, .. } => self.prog.board.coord(cand, usize::from(*axis)),
            IntExpr::Neg(x) => self.eval_static_int(*x, cand).wrapping_neg(),
            IntExpr::Bin { op, lhs, rhs } => int_op(
                *op,
                self.eval_static_int(*lhs, cand),
                self.eval_static_int(*rhs, cand),
            ),
            _ => 0,
        }
    }

    pub(super) fn cell(&mut self, e: &Expr) -> Result<CellRef> {
        if let Some(body) = self.expand_call(e) {
            return self.cell(&body);
        }
        self.cell_at(e).map_err(|err| err.at(e.span))
    }

    pub(super) fn cell_at(&mut self, e: &Expr) -> Result<CellRef> {
        match &e.kind {
            ExprKind::Field { base, field } if field.name == "anchor" => match self.placed(base) {
                Some(p) => Ok(CellRef::Var(p.anchor)),
                None => err("only a placed shape has an anchor"),
            },
            ExprKind::Name(n) => {
                let name = n.name.as_str();
                if let Some(Sym::Define(d, _)) = self.syms.get(name).copied() {
                    return self.cell(d);
                }
                if let Some(Sym::Token { slot }) = self.syms.get(name).copied() {
                    if !self.vars.contains_key(name) {
                        return Ok(CellRef::Slot(slot));
                    }
                }
                if let Some(&c) = self.geo.by_name.get(name) {
                    if !self.vars.contains_key(name) {
                        return Ok(CellRef::Const(u16::try_from(c).unwrap_or(u16::MAX)));
                    }
                } else if self.syms.names.names_a_cell(n.span) {
                    return Err(LowerError::MissingCell {
                        name: name.to_string(),
                        span: Some(n.span),
                    });
                }
                if !self.in_code {
                    return err(format!("`{name}` is not known yet"));
                }
                Ok(CellRef::Var(self.var(name)?))
            }
            _ => err("only a picked cell or a cell name can be used here"),
        }
    }

    pub(super) fn player(&mut self, e: &Expr) -> Result<PlayerRef> {
        if let Some(body) = self.expand_call(e) {
            return self.player(&body);
        }
        self.player_at(e).map_err(|err| err.at(e.span))
    }

    pub(super) fn player_at(&mut self, e: &Expr) -> Result<PlayerRef> {
        match &e.kind {
            ExprKind::Name(n) => match (n.name.as_str(), self.syms.get(n.name.as_str()).copied()) {
                (_, Some(Sym::Player(p))) => Ok(PlayerRef::Const(p)),
                (_, Some(Sym::Define(d, _))) => self.player(d),
                ("mover", None) => Ok(PlayerRef::Mover),
                ("opponent", None) => Ok(PlayerRef::Opponent),
                (name, _) => err(format!("`{name}` is not a player")),
            },
            ExprKind::Call { func, args } if func.name == "owner" && args.len() == 1 => {
                Ok(PlayerRef::Owner(self.cell(&args[0])?))
            }
            _ => err("expected a player"),
        }
    }

    pub(super) fn int(&mut self, e: &Expr) -> Result<IntId> {
        if let Some(body) = self.expand_call(e) {
            return self.int(&body);
        }
        self.int_at(e).map_err(|err| err.at(e.span))
    }

    pub(super) fn int_at(&mut self, e: &Expr) -> Result<IntId> {
        if let Ok(Const::Int(v) | Const::Decimal(v)) = self.env.eval(e) {
            if !self.mentions_runtime_name(e) {
                return Ok(self.push_int(IntExpr::Const(i32::try_from(v).unwrap_or(i32::MAX))));
            }
        }
        let i = match &e.kind {
            ExprKind::Int(v) | ExprKind::Decimal(v) => {
                IntExpr::Const(i32::try_from(*v).unwrap_or(i32::MAX))
            }
            ExprKind::Name(n) => {
                let name = n.name.as_str();
                if self.in_where && !self.vars.contains_key(name) {
                    if let Some(axis) = self.geo.axes.iter().position(|a| a == name) {
                        return Ok(self.push_int(IntExpr::Axis {
                            cell: CellRef::Candidate,
                            axis: u8::try_from(axis).unwrap_or(0),
                        }));
                    }
                }
                match self.syms.get(name).copied() {
                    Some(Sym::IntConst(v)) => IntExpr::Const(i32::try_from(v).unwrap_or(i32::MAX)),
                    Some(Sym::Counter { base, .. }) => IntExpr::Counter(base),
                    Some(Sym::Layer { base }) if self.in_where => IntExpr::CellCounter {
                        base,
                        cell: CellRef::Candidate,
                    },
                    Some(Sym::Define(d, _)) => return self.int(d),
                    None if name == "repetitions" => IntExpr::Repetitions,
                    _ => return err(format!("`{name}` is not a number")),
                }
            }
            ExprKind::Field { base, field } => {
                let cell = self.cell(base)?;
                let Some(axis) = self.geo.axes.iter().position(|a| *a == field.name) else {
                    return err(format!("the board has no axis `{}`", field.name));
                };
                IntExpr::Axis {
                    cell,
                    axis: u8::try_from(axis).unwrap_or(0),
                }
            }
            ExprKind::Index { base, index } => {
                let ExprKind::Name(n) = &base.kind else {
                    return err("only a per-player counter can be indexed");
                };
                if let Some(Sym::Layer { base }) = self.syms.get(n.name.as_str()).copied() {
                    let cell = self.cell(index)?;
                    return Ok(self.push_int(IntExpr::CellCounter { base, cell }));
                }
                let Some(Sym::Counter { base, .. }) = self.syms.get(n.name.as_str()).copied()
                else {
                    return err(format!("`{}` is not a counter", n.name));
                };
                IntExpr::PlayerCounter {
                    base,
                    player: self.player(index)?,
                }
            }
            ExprKind::Call { func, args } if func.name == "count" && args.len() == 1 => {
                IntExpr::Count(self.set(&args[0])?)
            }
            ExprKind::Call { func, args } if func.name == "points" && args.len() == 1 => {
                IntExpr::Points(self.player(&args[0])?)
            }
            ExprKind::Call { func, args } if func.name == "won" && args.len() == 1 => {
                IntExpr::Won(self.player(&args[0])?)
            }
            ExprKind::Call { func, args } if func.name == "waiting" => self.waiting(args)?,
            ExprKind::Call { func, args } if func.name == "index" && args.len() == 1 => {
                let (relation, dir) = self.dir(&args[0])?;
                IntExpr::DirIndex { relation, dir }
            }
            ExprKind::Unary {
                op: UnaryOp::Neg,
                operand,
            } => IntExpr::Neg(self.int(operand)?),
            ExprKind::Binary { op, lhs, rhs } => {
                let op = match op {
                    BinaryOp::Add => IntOp::Add,
                    BinaryOp::Sub => IntOp::Sub,
                    BinaryOp::Mul => IntOp::Mul,
                    BinaryOp::Div => IntOp::Div,
                    BinaryOp::Rem => IntOp::Rem,
                    _ => return err("expected a number"),
                };
                // A sum with a decimal side is in hundredths: its integer side is scaled. A
                // product or quotient keeps the decimal side's scale.
                let scaled = matches!(op, IntOp::Add | IntOp::Sub) && self.ty(e)? == Ty::Decimal;
                let (lhs, rhs) = (self.number(lhs, scaled)?, self.number(rhs, scaled)?);
                IntExpr::Bin { op, lhs, rhs }
            }
            _ => return err("expected a number"),
        };
        Ok(self.push_int(i))
    }

    /// A number, in hundredths when `decimal` (an integer is multiplied by 100 to meet a
    /// decimal in a sum or comparison).
    fn number(&mut self, e: &Expr, decimal: bool) -> Result<IntId> {
        let value = self.int(e)?;
        if !decimal || self.ty(e)? == Ty::Decimal {
            return Ok(value);
        }
        let scale = i32::try_from(crate::syntax::ast::DECIMAL_SCALE).unwrap_or(1);
        Ok(match self.prog.ints[value as usize] {
            IntExpr::Const(v) => self.push_int(IntExpr::Const(v.saturating_mul(scale))),
            _ => {
                let rhs = self.push_int(IntExpr::Const(scale));
                self.push_int(IntExpr::Bin {
                    op: IntOp::Mul,
                    lhs: value,
                    rhs,
                })
            }
        })
    }

    /// Whether a name in the expression means something else than its option value here
    /// (a turn variable or, inside `where`, an axis).
    pub(super) fn mentions_runtime_name(&self, e: &Expr) -> bool {
        match &e.kind {
            ExprKind::Name(n) => {
                self.vars.contains_key(&n.name)
                    || self.set_locals.contains_key(&n.name)
                    || (self.in_where && self.geo.axes.contains(&n.name))
            }
            ExprKind::Unary { operand, .. } => self.mentions_runtime_name(operand),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.mentions_runtime_name(lhs) || self.mentions_runtime_name(rhs)
            }
            ExprKind::Call { args, .. } => args.iter().any(|a| self.mentions_runtime_name(a)),
            _ => true,
        }
    }

    pub(super) fn bool(&mut self, e: &Expr) -> Result<BoolId> {
        if let Some(body) = self.expand_call(e) {
            return self.bool(&body);
        }
        self.bool_at(e).map_err(|err| err.at(e.span))
    }

    pub(super) fn bool_at(&mut self, e: &Expr) -> Result<BoolId> {
        if !self.mentions_runtime_name(e) {
            if let Ok(Const::Bool(v)) = self.env.eval(e) {
                return Ok(self.push_bool(BoolExpr::Const(v)));
            }
        }
        let b = match &e.kind {
            ExprKind::Name(n) => match self.syms.get(n.name.as_str()).copied() {
                Some(Sym::Define(d, _)) => return self.bool(d),
                _ => return err(format!("`{}` is not a condition", n.name)),
            },
            ExprKind::Unary {
                op: UnaryOp::Not,
                operand,
            } => {
                let x = self.bool(operand)?;
                match self.prog.bools[x as usize] {
                    BoolExpr::Const(v) => BoolExpr::Const(!v),
                    _ => BoolExpr::Not(x),
                }
            }
            ExprKind::Call { func, args } if func.name == "connected" && args.len() == 4 => {
                let relation = self.relation_arg(&func.name, args)?;
                let through = self.set(&args[1])?;
                let from = self.set(&args[2])?;
                let to = self.set(&args[3])?;
                BoolExpr::Connected {
                    relation,
                    through,
                    from,
                    to,
                }
            }
            ExprKind::Call { func, args } if func.name == "completes" && args.len() == 3 => {
                let ExprKind::Name(p) = &args[0].kind else {
                    return err("`completes` expects a pattern");
                };
                let Some(Sym::Pattern(pattern)) = self.syms.get(p.name.as_str()).copied() else {
                    return err(format!("`{}` is not a pattern", p.name));
                };
                let cell = self.cell(&args[1])?;
                let set = self.set(&args[2])?;
                BoolExpr::Completes { pattern, cell, set }
            }
            ExprKind::Binary { op, lhs, rhs } => match op {
                BinaryOp::And | BinaryOp::Or => {
                    let a = self.bool(lhs)?;
                    let b = self.bool(rhs)?;
                    let and = *op == BinaryOp::And;
                    match (&self.prog.bools[a as usize], &self.prog.bools[b as usize]) {
                        (BoolExpr::Const(x), _) if *x != and => BoolExpr::Const(*x),
                        (BoolExpr::Const(_), _) => return Ok(b),
                        (_, BoolExpr::Const(y)) if *y != and => BoolExpr::Const(*y),
                        (_, BoolExpr::Const(_)) => return Ok(a),
                        _ if and => BoolExpr::And(a, b),
                        _ => BoolExpr::Or(a, b),
                    }
                }
                BinaryOp::In if self.is_dir(lhs) => {
                    let (relation, dir) = self.dir(lhs)?;
                    let members = self.dir_members(relation, rhs)?;
                    BoolExpr::DirIn {
                        relation,
                        dir,
                        members,
                    }
                }
                BinaryOp::In => {
                    let cell = self.cell(lhs)?;
                    let set = self.set(rhs)?;
                    BoolExpr::In { cell, set }
                }
                BinaryOp::Eq
                | BinaryOp::Ne
                | BinaryOp::Lt
                | BinaryOp::Le
                | BinaryOp::Gt
                | BinaryOp::Ge => {
                    let cmp = match op {
                        BinaryOp::Eq => CmpOp::Eq,
                        BinaryOp::Ne => CmpOp::Ne,
                        BinaryOp::Lt => CmpOp::Lt,
                        BinaryOp::Le => CmpOp::Le,
                        BinaryOp::Gt => CmpOp::Gt,
                        _ => CmpOp::Ge,
                    };
                    let eq = cmp == CmpOp::Eq;
                    match self.ty(lhs)? {
                        Ty::Cell => BoolExpr::CellEq {
                            eq,
                            lhs: self.cell(lhs)?,
                            rhs: self.cell(rhs)?,
                        },
                        Ty::Player => BoolExpr::PlayerEq {
                            eq,
                            lhs: self.player(lhs)?,
                            rhs: self.player(rhs)?,
                        },
                        _ => {
                            let decimal =
                                self.ty(lhs)? == Ty::Decimal || self.ty(rhs)? == Ty::Decimal;
                            let (l, r) = (self.number(lhs, decimal)?, self.number(rhs, decimal)?);
                            match (&self.prog.ints[l as usize], &self.prog.ints[r as usize]) {
                                (IntExpr::Const(x), IntExpr::Const(y)) => {
                                    BoolExpr::Const(compare(cmp, *x, *y))
                                }
                                _ => BoolExpr::Cmp {
                                    op: cmp,
                                    lhs: l,
                                    rhs: r,
                                },
                            }
                        }
                    }
                }
                _ => return err("expected a condition"),
            },
            _ => return err("expected a condition"),
        };
        Ok(self.push_bool(b))
    }
}
