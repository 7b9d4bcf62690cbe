//! Expressions: sets of cells, integers, conditions, cells, players, directions and text. A
//! built-in is lowered by the id the checker resolved it to ([`Func`], [`Value`]); the `where`
//! and intersection optimisations are passes ([`rulestone_ir::passes`]).

use super::*;
use rulestone_check::model::{Func, Value};
use rulestone_ir::build::locals::Placed;
use rulestone_ir::build::tracks::waiting;

/// What a built-in lowers to, by the kind of its result; each context takes its kind.
enum Lowered {
    Set(SetExpr),
    Int(IntExpr),
    Bool(BoolExpr),
    Dir(u16, DirExpr),
    Player(PlayerRef),
    /// `letter(n)`: a template's letter for `n`.
    Letter(IntId),
    /// `unplayed(p)`: only `place` reads it, from the call's argument.
    Stocks,
}

/// Argument `i` of a built-in's call (the checker has matched them to its signature).
fn arg(args: &[Expr], i: usize) -> Result<&Expr> {
    args.get(i)
        .ok_or_else(|| LowerError::internal("a built-in is missing an argument"))
}

/// The arguments of a call (none for any other expression).
fn call_args(e: &Expr) -> &[Expr] {
    match &e.kind {
        ExprKind::Call { args, .. } => args,
        _ => &[],
    }
}

impl<'a> Lowerer<'a> {
    /// Lowers `e` with `f`: a define's use becomes its body (a call's parameters replaced by its
    /// arguments; the checker has matched their numbers and types), and an error with no place
    /// is placed at `e`.
    fn lower<T>(&mut self, e: &Expr, f: fn(&mut Self, &Expr) -> Result<T>) -> Result<T> {
        let (name, args) = match &e.kind {
            ExprKind::Call { func, args } => (func, args.as_slice()),
            ExprKind::Name(n) => (n, &[][..]),
            _ => return f(self, e).map_err(|err| err.at(e.span)),
        };
        match self.syms.get(&name.name) {
            Some(Sym::Define(body, params)) if params.len() == args.len() => {
                self.lower(&body.substitute(params, args), f)
            }
            _ => f(self, e).map_err(|err| err.at(e.span)),
        }
    }

    /// The built-in function the checker resolved the call `e` to.
    fn func(&self, e: &Expr) -> Result<Func> {
        self.types
            .func(e)
            .ok_or_else(|| LowerError::internal("a call the checker did not resolve"))
    }

    pub(super) fn template_part(&mut self, e: &Expr) -> Result<TemplatePart> {
        self.lower(e, Self::template_part_at)
    }

    fn template_part_at(&mut self, e: &Expr) -> Result<TemplatePart> {
        let placed = match &e.kind {
            ExprKind::Field { base, .. } => self.placed(base),
            _ => self.placed(e),
        };
        Ok(match (self.ty(e)?, placed) {
            (Ty::Placement, Some(p)) => TemplatePart::ShapeName {
                slot: p.slot,
                table: p.table,
            },
            // `facing` is a placed shape's one field of text.
            (Ty::Text, Some(p)) => TemplatePart::Facing {
                slot: p.slot,
                table: p.table,
            },
            _ if self.types.func(e) == Some(Func::Letter) => match self.call(e)? {
                Lowered::Letter(n) => TemplatePart::Letter(n),
                _ => return err("expected a letter"),
            },
            (Ty::Dir, _) => {
                let (relation, dir) = self.dir(e)?;
                TemplatePart::Dir { relation, dir }
            }
            (Ty::Cell, _) => TemplatePart::Cell(self.cell(e)?),
            (Ty::Int, _) => TemplatePart::Int(self.int(e)?),
            (Ty::Decimal, _) => TemplatePart::Decimal(self.int(e)?),
            (Ty::Player, _) => TemplatePart::Player(self.player(e)?),
            _ => match self.env.eval(e) {
                Ok(Const::Word(w) | Const::Text(w)) => TemplatePart::Text(w),
                _ => return err("this value cannot be written"),
            },
        })
    }

    /// A direction value: its relation and how to compute it.
    pub(super) fn dir(&mut self, e: &Expr) -> Result<(u16, DirExpr)> {
        self.lower(e, Self::dir_at)
    }

    fn dir_at(&mut self, e: &Expr) -> Result<(u16, DirExpr)> {
        let args = match &e.kind {
            ExprKind::Name(n) => {
                return match self.locals.get(&n.name) {
                    Some(Local::Dir { var, relation }) => Ok((relation, DirExpr::Var(var))),
                    _ => err(format!("`{}` is not a direction value", n.name)),
                }
            }
            ExprKind::Unary {
                op: UnaryOp::Neg,
                operand,
            } => {
                let (r, d) = self.dir(operand)?;
                return Ok((r, DirExpr::Neg(Box::new(d))));
            }
            ExprKind::Call { args, .. } => args,
            _ => return err("expected a direction value"),
        };
        match self.call_with(self.func(e)?, args)? {
            Lowered::Dir(r, d) => Ok((r, d)),
            _ => err("expected a direction value"),
        }
    }

    fn is_dir(&self, e: &Expr) -> bool {
        self.ty(e).is_ok_and(|t| t == Ty::Dir)
    }

    /// The `place` variable an expression names, if it does.
    fn placed(&self, e: &Expr) -> Option<Placed> {
        match &e.kind {
            ExprKind::Name(n) => match self.locals.get(&n.name) {
                Some(Local::Placed(p)) => Some(p),
                _ => None,
            },
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

    pub(super) fn set(&mut self, e: &Expr) -> Result<SetId> {
        self.lower(e, Self::set_at)
    }

    fn set_at(&mut self, e: &Expr) -> Result<SetId> {
        let s = match &e.kind {
            ExprKind::Field { base, .. } if self.ty(e)? == Ty::Cells => {
                let p = self
                    .placed(base)
                    .ok_or_else(|| LowerError::internal("no placement"))?;
                SetExpr::Placed {
                    slot: p.slot,
                    table: p.table,
                }
            }
            ExprKind::Name(n) => match (self.locals.get(&n.name), self.value(e), self.sym(e)) {
                (Some(Local::Set(slot)), ..) => SetExpr::Local(slot),
                (_, Some(Lowered::Set(s)), _) => s,
                (.., Some(Sym::Zone(z))) => SetExpr::Const(self.prog.zones[z as usize].cells),
                _ => match self.cell(e)? {
                    CellRef::Const(c) => SetExpr::Const(CellSet::single(usize::from(c))),
                    c => SetExpr::Single(c),
                },
            },
            ExprKind::CellSet(items) => {
                let mut acc = self.prog.push_set(SetExpr::Const(CellSet::EMPTY));
                for item in items {
                    let s = self.set(item)?;
                    acc = self.prog.union(acc, s);
                }
                return Ok(acc);
            }
            // A map applied to cells: their images, a step along the map's relation.
            ExprKind::Call { func, args } if self.types.func(e).is_none() => {
                let (Some(Sym::Relation(relation)), [arg]) =
                    (self.syms.get(&func.name).copied(), args.as_slice())
                else {
                    return err("a call the checker did not resolve");
                };
                SetExpr::Step {
                    relation,
                    of: self.set(arg)?,
                }
            }
            ExprKind::Call { .. } => match self.call(e)? {
                Lowered::Set(s) => s,
                _ => return err("expected a set of cells"),
            },
            ExprKind::Binary {
                op: BinaryOp::Where,
                lhs,
                rhs,
            } => {
                let base = self.set(lhs)?;
                let outer = std::mem::replace(&mut self.in_where, true);
                let cond = self.bool(rhs);
                self.in_where = outer;
                return Ok(self.prog.filter(base, cond?));
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let (a, b) = (self.set(lhs)?, self.set(rhs)?);
                return match op {
                    BinaryOp::Union => Ok(self.prog.union(a, b)),
                    BinaryOp::Inter => Ok(self.prog.inter(a, b)),
                    BinaryOp::Sub => Ok(self.prog.diff(a, b)),
                    _ => err(format!("`{}` does not give a set of cells", op.symbol())),
                };
            }
            _ => SetExpr::Single(self.cell(e)?),
        };
        Ok(self.prog.push_set(s))
    }

    /// What the name `e` lowers to, if it names a declaration.
    pub(super) fn sym(&self, e: &Expr) -> Option<Sym<'a>> {
        match &e.kind {
            ExprKind::Name(n) => self.syms.get(&n.name).copied(),
            _ => None,
        }
    }

    /// The relation (or direction) `e` names.
    fn relation(&self, e: &Expr) -> Result<u16> {
        match self.sym(e) {
            Some(Sym::Relation(r)) => Ok(r),
            _ => err("expected a relation"),
        }
    }

    /// A relation, or a direction value and its relation.
    fn relation_or_dir(&mut self, e: &Expr) -> Result<(u16, Option<DirExpr>)> {
        if self.is_dir(e) {
            let (relation, dir) = self.dir(e)?;
            return Ok((relation, Some(dir)));
        }
        Ok((self.relation(e)?, None))
    }

    pub(super) fn cell(&mut self, e: &Expr) -> Result<CellRef> {
        self.lower(e, Self::cell_at)
    }

    fn cell_at(&mut self, e: &Expr) -> Result<CellRef> {
        match &e.kind {
            ExprKind::Field { base, .. } => match self.placed(base) {
                Some(p) => Ok(CellRef::Var(p.anchor)),
                None => err("only a placed shape has an anchor"),
            },
            ExprKind::Name(n) => {
                let name = n.name.as_str();
                if let Some(Local::Cell(var)) = self.locals.get(name) {
                    return Ok(CellRef::Var(var));
                }
                if let Some(Sym::Token(slot)) = self.syms.get(name) {
                    return Ok(CellRef::Slot(*slot));
                }
                if let Some(&c) = self.board.geometry.by_name.get(name) {
                    return Ok(CellRef::Const(u16::try_from(c).unwrap_or(u16::MAX)));
                }
                if self.syms.names.cell_named_at(n.span).is_some() {
                    let (name, span) = (name.to_string(), n.span);
                    return Err(ConfigureError::MissingCell { name, span }.into());
                }
                Ok(CellRef::Var(self.locals.cell(name, n.span)?))
            }
            _ => err("only a picked cell or a cell name can be used here"),
        }
    }

    pub(super) fn player(&mut self, e: &Expr) -> Result<PlayerRef> {
        self.lower(e, Self::player_at)
    }

    fn player_at(&mut self, e: &Expr) -> Result<PlayerRef> {
        if let Some(Sym::Player(p)) = self.sym(e) {
            return Ok(PlayerRef::Const(p));
        }
        let lowered = match &e.kind {
            ExprKind::Name(_) => self.value(e),
            ExprKind::Call { .. } => Some(self.call(e)?),
            _ => None,
        };
        match lowered {
            Some(Lowered::Player(p)) => Ok(p),
            _ => err("expected a player"),
        }
    }

    pub(super) fn int(&mut self, e: &Expr) -> Result<IntId> {
        self.lower(e, Self::int_at)
    }

    fn int_at(&mut self, e: &Expr) -> Result<IntId> {
        // Every name is unique (E0102), so an expression the options decide reads no variable.
        if let Ok(Const::Int(v) | Const::Decimal(v)) = self.env.eval(e) {
            return Ok(self.prog.push_const(v));
        }
        let axis = |this: &Self, name: &str| {
            let axis = this.board.geometry.axes.iter().position(|a| a == name)?;
            Some(u8::try_from(axis).unwrap_or(0))
        };
        let i = match &e.kind {
            ExprKind::Int(v) | ExprKind::Decimal(v) => return Ok(self.prog.push_const(*v)),
            ExprKind::Name(n) => match (self.sym(e), axis(self, &n.name)) {
                (_, Some(axis)) if self.in_where => IntExpr::Axis {
                    cell: CellRef::Candidate,
                    axis,
                },
                (Some(Sym::Counter(base)), _) => IntExpr::Counter(base),
                (Some(Sym::Layer(base)), _) if self.in_where => IntExpr::CellCounter {
                    base,
                    cell: CellRef::Candidate,
                },
                _ => match self.value(e) {
                    Some(Lowered::Int(i)) => i,
                    _ => return err(format!("`{}` is not a number", n.name)),
                },
            },
            ExprKind::Field { base, field } => {
                let cell = self.cell(base)?;
                let Some(axis) = axis(self, &field.name) else {
                    return err(format!("the board has no axis `{}`", field.name));
                };
                IntExpr::Axis { cell, axis }
            }
            ExprKind::Index { base, index } => match self.sym(base) {
                Some(Sym::Layer(base)) => IntExpr::CellCounter {
                    base,
                    cell: self.cell(index)?,
                },
                Some(Sym::Counter(base)) => IntExpr::PlayerCounter {
                    base,
                    player: self.player(index)?,
                },
                _ => return err("only a counter can be indexed"),
            },
            ExprKind::Call { .. } => match self.call(e)? {
                Lowered::Int(i) => i,
                _ => return err("expected a number"),
            },
            ExprKind::Unary {
                op: UnaryOp::Neg,
                operand,
            } => IntExpr::Neg(self.int(operand)?),
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => IntExpr::Cond {
                cond: self.bool(cond)?,
                then: self.int(then)?,
                otherwise: self.int(otherwise)?,
            },
            ExprKind::Binary { op, lhs, rhs } => {
                let Some(op) = rulestone_check::operators::int_op(*op) else {
                    return err("expected a number");
                };
                // A sum with a decimal side is in hundredths: its integer side is scaled. A
                // product or quotient keeps the decimal side's scale.
                let scaled = matches!(op, IntOp::Add | IntOp::Sub) && self.ty(e)? == Ty::Decimal;
                let (lhs, rhs) = (self.number(lhs, scaled)?, self.number(rhs, scaled)?);
                IntExpr::Bin { op, lhs, rhs }
            }
            _ => return err("expected a number"),
        };
        Ok(self.prog.push_int(i))
    }

    /// A number, in hundredths when `decimal` (an integer is multiplied by 100 to meet a
    /// decimal in a sum or comparison).
    fn number(&mut self, e: &Expr, decimal: bool) -> Result<IntId> {
        let value = self.int(e)?;
        if !decimal || self.ty(e)? == Ty::Decimal {
            return Ok(value);
        }
        Ok(self.prog.to_decimal(value))
    }

    pub(super) fn bool(&mut self, e: &Expr) -> Result<BoolId> {
        self.lower(e, Self::bool_at)
    }

    fn bool_at(&mut self, e: &Expr) -> Result<BoolId> {
        if let Ok(Const::Bool(v)) = self.env.eval(e) {
            return Ok(self.prog.push_bool(BoolExpr::Const(v)));
        }
        let (op, lhs, rhs) = match &e.kind {
            ExprKind::Unary {
                op: UnaryOp::Not,
                operand,
            } => {
                let x = self.bool(operand)?;
                return Ok(self.prog.not(x));
            }
            ExprKind::Call { .. } => {
                let Lowered::Bool(b) = self.call(e)? else {
                    return err("expected a condition");
                };
                return Ok(self.prog.push_bool(b));
            }
            ExprKind::Binary { op, lhs, rhs } => (*op, lhs, rhs),
            _ => return err("expected a condition"),
        };
        let b = match op {
            BinaryOp::And | BinaryOp::Or => {
                let (a, b) = (self.bool(lhs)?, self.bool(rhs)?);
                return Ok(self.prog.and_or(op == BinaryOp::And, a, b));
            }
            BinaryOp::In if self.is_dir(lhs) => {
                let (relation, dir) = self.dir(lhs)?;
                // Per player, the vectors of `dir`'s relation that are `rhs`'s for that player.
                let mine = &self.prog.relations[usize::from(relation)].name;
                let members = match &rhs.kind {
                    ExprKind::Name(n) => self.board.vector_masks(mine, &n.name),
                    _ => None,
                };
                let Some(members) = members else {
                    return err("expected a relation after `in`");
                };
                BoolExpr::DirIn {
                    relation,
                    dir,
                    members,
                }
            }
            BinaryOp::In => BoolExpr::In {
                cell: self.cell(lhs)?,
                set: self.set(rhs)?,
            },
            _ => {
                let Some(cmp) = rulestone_check::operators::cmp_op(op) else {
                    return err("expected a condition");
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
                        let decimal = self.ty(lhs)? == Ty::Decimal || self.ty(rhs)? == Ty::Decimal;
                        let (l, r) = (self.number(lhs, decimal)?, self.number(rhs, decimal)?);
                        return Ok(self.prog.compare(cmp, l, r));
                    }
                }
            }
        };
        Ok(self.prog.push_bool(b))
    }
}

/// The built-ins: one exhaustive match over the ids the checker resolved, so a new built-in is
/// lowered here or does not compile.
impl Lowerer<'_> {
    /// What the call `e` of a built-in lowers to.
    fn call(&mut self, e: &Expr) -> Result<Lowered> {
        self.call_with(self.func(e)?, call_args(e))
    }

    fn call_with(&mut self, func: Func, args: &[Expr]) -> Result<Lowered> {
        let a = |i| arg(args, i);
        Ok(match func {
            Func::Pieces => Lowered::Set(self.pieces(args)?),
            Func::Step => Lowered::Set(match (self.relation_or_dir(a(0)?)?, self.set(a(1)?)?) {
                ((relation, Some(dir)), of) => SetExpr::StepDir { relation, dir, of },
                ((relation, None), of) => SetExpr::Step { relation, of },
            }),
            Func::Ray | Func::Run => Lowered::Set(self.line(args)?),
            Func::One => Lowered::Set(SetExpr::First(self.set(a(0)?)?)),
            Func::Cell => {
                let coords = args
                    .iter()
                    .map(|x| self.int(x))
                    .collect::<Result<Vec<_>>>()?;
                Lowered::Set(self.at_coordinates(&coords))
            }
            Func::Offset => Lowered::Set(self.offset(args)?),
            Func::Group => Lowered::Set(SetExpr::Group {
                relation: self.relation(a(0)?)?,
                from: self.set(a(1)?)?,
                through: self.set(a(2)?)?,
            }),
            Func::Between => Lowered::Set(SetExpr::Between {
                relation: self.relation(a(0)?)?,
                from: self.cell(a(1)?)?,
                run: self.set(a(2)?)?,
                end: self.set(a(3)?)?,
            }),
            Func::Brackets => Lowered::Set(SetExpr::Brackets {
                relation: self.relation(a(0)?)?,
                run: self.set(a(1)?)?,
                end: self.set(a(2)?)?,
            }),
            Func::All | Func::None | Func::Any => {
                let (relation, of) = (self.relation(a(0)?)?, self.set(a(1)?)?);
                Lowered::Set(match func {
                    Func::All => SetExpr::All { relation, of },
                    Func::None => SetExpr::None { relation, of },
                    _ => SetExpr::Any { relation, of },
                })
            }
            Func::Count => Lowered::Int(IntExpr::Count(self.set(a(0)?)?)),
            Func::Sum => {
                let Some(Sym::Layer(base)) = self.sym(a(0)?) else {
                    return err("`sum` expects a per-cell counter");
                };
                Lowered::Int(IntExpr::CellSum {
                    base,
                    of: self.set(a(1)?)?,
                })
            }
            Func::Max | Func::Min => Lowered::Int(IntExpr::Bin {
                op: if func == Func::Max {
                    IntOp::Max
                } else {
                    IntOp::Min
                },
                lhs: self.int(a(0)?)?,
                rhs: self.int(a(1)?)?,
            }),
            // `abs(a)` is `max(a, -a)`: negation and `max` already mean what `abs` should.
            Func::Abs => {
                let x = self.int(a(0)?)?;
                let neg = self.prog.push_int(IntExpr::Neg(x));
                Lowered::Int(IntExpr::Bin {
                    op: IntOp::Max,
                    lhs: x,
                    rhs: neg,
                })
            }
            Func::Points => Lowered::Int(IntExpr::Points(self.player(a(0)?)?)),
            Func::Won => Lowered::Int(IntExpr::Won(self.player(a(0)?)?)),
            Func::Waiting => Lowered::Int(self.waiting(args)?),
            Func::Index => {
                let (relation, dir) = self.dir(a(0)?)?;
                Lowered::Int(IntExpr::DirIndex { relation, dir })
            }
            Func::Connected => Lowered::Bool(BoolExpr::Connected {
                relation: self.relation(a(0)?)?,
                through: self.set(a(1)?)?,
                from: self.set(a(2)?)?,
                to: self.set(a(3)?)?,
            }),
            Func::Completes => Lowered::Bool(self.completes(args)?),
            Func::Dir => {
                let relation = self.relation(a(0)?)?;
                Lowered::Dir(relation, DirExpr::Index(self.int(a(1)?)?))
            }
            Func::Left | Func::Right | Func::Flip => self.turn(func, args)?,
            Func::Owner => Lowered::Player(PlayerRef::Owner(self.cell(a(0)?)?)),
            Func::Letter => Lowered::Letter(self.int(a(0)?)?),
            Func::Unplayed => Lowered::Stocks,
        })
    }

    /// What the name `e` of a built-in value lowers to.
    fn value(&self, e: &Expr) -> Option<Lowered> {
        Some(match self.types.value(e)? {
            Value::Cells => Lowered::Set(SetExpr::Const(self.prog.board.all)),
            Value::Empty => Lowered::Set(SetExpr::Empty),
            Value::Occupied => Lowered::Set(SetExpr::Occupied),
            Value::Own => Lowered::Set(SetExpr::PlayerPieces(PlayerRef::Mover)),
            Value::Enemy => Lowered::Set(SetExpr::PlayerPieces(PlayerRef::Opponent)),
            Value::Mover => Lowered::Player(PlayerRef::Mover),
            Value::Opponent => Lowered::Player(PlayerRef::Opponent),
            Value::Repetitions => Lowered::Int(IntExpr::Repetitions),
        })
    }

    /// `pieces(k)` (of either player) or `pieces(k, p)`.
    fn pieces(&mut self, args: &[Expr]) -> Result<SetExpr> {
        let Some(Sym::Piece(kind)) = self.sym(arg(args, 0)?) else {
            return err("`pieces` expects a piece");
        };
        let code = 1 + 2 * kind;
        if let Some(p) = args.get(1) {
            let player = self.player(p)?;
            return Ok(SetExpr::Pieces { code, player });
        }
        let [x, y] = [0, 1].map(|p| {
            let player = PlayerRef::Const(p);
            self.prog.push_set(SetExpr::Pieces { code, player })
        });
        Ok(SetExpr::Union(x, y))
    }

    /// `ray(R, c)` or `run(R, c, S)`.
    fn line(&mut self, args: &[Expr]) -> Result<SetExpr> {
        let (relation, dir) = self.relation_or_dir(arg(args, 0)?)?;
        let from = self.cell(arg(args, 1)?)?;
        // `run` takes the set its cells must stay in; `ray` has no third argument.
        let run = args.get(2).map(|cells| self.set(cells)).transpose()?;
        Ok(SetExpr::Line {
            relation,
            dir,
            from,
            run,
        })
    }

    /// The cell whose coordinate on each axis is the value: one lookup per axis in the board's
    /// table of cells by coordinate, intersected (no cell when a value is off the board).
    fn at_coordinates(&mut self, coords: &[IntId]) -> SetExpr {
        let lookups: Vec<SetExpr> = coords
            .iter()
            .enumerate()
            .map(|(axis, &value)| match self.prog.ints[usize::from(value)] {
                IntExpr::Const(v) => SetExpr::Const(self.prog.board.axis_cmp(axis, CmpOp::Eq, v)),
                _ => SetExpr::AxisCmp {
                    axis: u8::try_from(axis).unwrap_or(u8::MAX),
                    op: CmpOp::Eq,
                    value,
                },
            })
            .collect();
        let mut known = self.prog.board.all;
        let mut sets = Vec::new();
        for l in lookups {
            match l {
                SetExpr::Const(c) => known &= c,
                other => sets.push(self.prog.push_set(other)),
            }
        }
        let Some((&first, rest)) = sets.split_first() else {
            return SetExpr::Const(known);
        };
        let mut acc = first;
        for &s in rest {
            acc = self.prog.push_set(SetExpr::Inter(acc, s));
        }
        if known == self.prog.board.all {
            return self.prog.sets[usize::from(acc)].clone();
        }
        let known = self.prog.push_set(SetExpr::Const(known));
        SetExpr::Inter(acc, known)
    }

    /// `offset(c, d1, d2, ...)`: the cell at `c`'s coordinates plus the offsets.
    fn offset(&mut self, args: &[Expr]) -> Result<SetExpr> {
        let from = arg(args, 0)?;
        let axes = args.len().saturating_sub(1);
        let mut coords = Vec::with_capacity(axes);
        let mut first = None;
        if self.ty(from)? == Ty::Cell {
            let cell = self.cell(from)?;
            for axis in 0..axes {
                let axis = u8::try_from(axis).unwrap_or(u8::MAX);
                coords.push(self.prog.push_int(IntExpr::Axis { cell, axis }));
            }
        } else {
            let set = self.set(from)?;
            let one = self.prog.push_set(SetExpr::First(set));
            coords = self.set_coordinates(one, axes);
            first = Some(one);
        }
        for (i, c) in coords.iter_mut().enumerate() {
            let d = self.int(arg(args, i + 1)?)?;
            *c = self.prog.push_int(IntExpr::Bin {
                op: IntOp::Add,
                lhs: *c,
                rhs: d,
            });
        }
        if let Some(first) = first {
            // No cell in the set: a first coordinate no cell has, so no cell.
            let n = self.prog.push_int(IntExpr::Count(first));
            let one = self.prog.push_const(1);
            let cond = self.prog.compare(CmpOp::Eq, n, one);
            let none = self.prog.push_const(i64::from(i32::MIN));
            if let Some(c) = coords.first_mut() {
                *c = self.prog.push_int(IntExpr::Cond {
                    cond,
                    then: *c,
                    otherwise: none,
                });
            }
        }
        Ok(self.at_coordinates(&coords))
    }

    /// The coordinates of the cell of a one-cell set, with no IR op of its own: on each axis,
    /// the lowest value plus each bit of the offset from it, read as whether the cell lies in
    /// the (constant) cells with that bit set. A handful of intersections per axis.
    fn set_coordinates(&mut self, first: SetId, axes: usize) -> Vec<IntId> {
        let mut coords = Vec::with_capacity(axes);
        for axis in 0..axes {
            let Some((lo, table)) = self.prog.board.axis_tables.get(axis).cloned() else {
                coords.push(self.prog.push_const(i64::from(i32::MIN)));
                continue;
            };
            let mut value = self.prog.push_const(i64::from(lo));
            let mut bit = 0;
            while (1usize << bit) < table.len() {
                let mut with_bit = CellSet::EMPTY;
                let mut below = CellSet::EMPTY;
                for (k, &at_most) in table.iter().enumerate() {
                    if k & (1 << bit) != 0 {
                        with_bit |= at_most - below;
                    }
                    below = at_most;
                }
                let mask = self.prog.push_set(SetExpr::Const(with_bit));
                let hit = self.prog.push_set(SetExpr::Inter(first, mask));
                let n = self.prog.push_int(IntExpr::Count(hit));
                let weight = self.prog.push_const(1 << bit);
                let part = self.prog.push_int(IntExpr::Bin {
                    op: IntOp::Mul,
                    lhs: n,
                    rhs: weight,
                });
                value = self.prog.push_int(IntExpr::Bin {
                    op: IntOp::Add,
                    lhs: value,
                    rhs: part,
                });
                bit += 1;
            }
            coords.push(value);
        }
        coords
    }

    /// `waiting(T)` or `waiting(T, p)`.
    fn waiting(&mut self, args: &[Expr]) -> Result<IntExpr> {
        let ExprKind::Name(t) = &arg(args, 0)?.kind else {
            return err("`waiting` expects a track");
        };
        let (base, track) = self.track(&t.name)?;
        let owner = self.owner_or_mover(args.get(1))?;
        Ok(waiting(
            &mut self.prog,
            base,
            &super::stmts::lanes(&track),
            owner,
        ))
    }

    /// `completes(P, c, S)`.
    fn completes(&mut self, args: &[Expr]) -> Result<BoolExpr> {
        let Some(Sym::Pattern(pattern)) = self.sym(arg(args, 0)?) else {
            return err("`completes` expects a pattern");
        };
        let cell = self.cell(arg(args, 1)?)?;
        Ok(BoolExpr::Completes {
            pattern,
            cell,
            set: self.set(arg(args, 2)?)?,
        })
    }

    /// `left(d, k)`, `right(d, k)` (a constant turn) or `flip(d, axis)`.
    fn turn(&mut self, func: Func, args: &[Expr]) -> Result<Lowered> {
        let (r, d) = self.dir(arg(args, 0)?)?;
        let d = Box::new(d);
        if func == Func::Flip {
            let axis = match &arg(args, 1)?.kind {
                ExprKind::Name(n) => self.board.geometry.axes.iter().position(|a| *a == n.name),
                _ => None,
            };
            let Some(axis) = axis.and_then(|a| u8::try_from(a).ok()) else {
                return err("`flip` takes an axis of the board");
            };
            return Ok(Lowered::Dir(r, DirExpr::Mirror(d, axis)));
        }
        let Ok(k) = self.env.int(arg(args, 1)?) else {
            return err("the turn of `left` or `right` must be a constant");
        };
        let k = i32::try_from(k).unwrap_or(0);
        Ok(Lowered::Dir(
            r,
            DirExpr::Turn(d, if func == Func::Left { -k } else { k }),
        ))
    }
}
