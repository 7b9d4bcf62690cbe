//! The one place that knows what each node of the IR reads: every op, set, integer,
//! condition, direction, player reference and template names its operands here, with
//! exhaustive matches. Passes walk expressions through these visitors instead of matching
//! each kind by hand, so a new kind cannot slip past a pass: adding it fails to compile here
//! until its operands are listed.

use crate::{
    AssignSlot, BoolExpr, BoolId, CellRef, DirExpr, Finish, IntExpr, IntId, Op, PlayerRef, Program,
    SetExpr, SetId, Template, TemplatePart,
};

/// One thing a node reads: another expression by id, a cell or player reference, a direction
/// value or a template. Leaves (constants, counter slots, relation numbers) are not operands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand<'a> {
    Set(SetId),
    Int(IntId),
    Bool(BoolId),
    Cell(CellRef),
    Player(PlayerRef),
    Dir(&'a DirExpr),
    /// A template of [`Program::templates`], by index.
    Template(u16),
}

impl SetExpr {
    /// Calls `f` on each operand of this set, in field order.
    pub fn for_each_operand<'a>(&'a self, mut f: impl FnMut(Operand<'a>)) {
        match self {
            SetExpr::Const(_)
            | SetExpr::Empty
            | SetExpr::Occupied
            | SetExpr::Local(_)
            | SetExpr::Placed { .. } => {}
            SetExpr::PlayerPieces(p) | SetExpr::Pieces { player: p, .. } => f(Operand::Player(*p)),
            SetExpr::Single(c) => f(Operand::Cell(*c)),
            SetExpr::Union(a, b) | SetExpr::Inter(a, b) | SetExpr::Diff(a, b) => {
                f(Operand::Set(*a));
                f(Operand::Set(*b));
            }
            SetExpr::All { of, .. }
            | SetExpr::None { of, .. }
            | SetExpr::Any { of, .. }
            | SetExpr::Step { of, .. }
            | SetExpr::First(of) => f(Operand::Set(*of)),
            SetExpr::Group { from, through, .. } => {
                f(Operand::Set(*from));
                f(Operand::Set(*through));
            }
            SetExpr::StepDir { dir, of, .. } => {
                f(Operand::Dir(dir));
                f(Operand::Set(*of));
            }
            SetExpr::Line { dir, from, run, .. } => {
                if let Some(d) = dir {
                    f(Operand::Dir(d));
                }
                f(Operand::Cell(*from));
                if let Some(r) = run {
                    f(Operand::Set(*r));
                }
            }
            SetExpr::Between { from, run, end, .. } => {
                f(Operand::Cell(*from));
                f(Operand::Set(*run));
                f(Operand::Set(*end));
            }
            SetExpr::Brackets { run, end, .. } => {
                f(Operand::Set(*run));
                f(Operand::Set(*end));
            }
            SetExpr::Where { base, cond } => {
                f(Operand::Set(*base));
                f(Operand::Bool(*cond));
            }
            SetExpr::AxisCmp { value, .. } => f(Operand::Int(*value)),
            SetExpr::AxisRows { base, cond, .. } => {
                f(Operand::Set(*base));
                f(Operand::Bool(*cond));
            }
            SetExpr::AxisKey {
                base, key, value, ..
            } => {
                f(Operand::Set(*base));
                f(Operand::Int(*key));
                f(Operand::Int(*value));
            }
        }
    }
}

impl IntExpr {
    /// Calls `f` on each operand of this integer, in field order.
    pub fn for_each_operand<'a>(&'a self, mut f: impl FnMut(Operand<'a>)) {
        match self {
            IntExpr::Const(_) | IntExpr::Counter(_) | IntExpr::Repetitions => {}
            IntExpr::PlayerCounter { player: p, .. } | IntExpr::Points(p) | IntExpr::Won(p) => {
                f(Operand::Player(*p));
            }
            IntExpr::Axis { cell, .. }
            | IntExpr::CellCounter { cell, .. }
            | IntExpr::CellId(cell) => f(Operand::Cell(*cell)),
            IntExpr::DirIndex { dir, .. } => f(Operand::Dir(dir)),
            IntExpr::Cond {
                cond,
                then,
                otherwise,
            } => {
                f(Operand::Bool(*cond));
                f(Operand::Int(*then));
                f(Operand::Int(*otherwise));
            }
            IntExpr::Count(s) | IntExpr::CellSum { of: s, .. } => f(Operand::Set(*s)),
            IntExpr::Neg(x) => f(Operand::Int(*x)),
            IntExpr::Bin { lhs, rhs, .. } => {
                f(Operand::Int(*lhs));
                f(Operand::Int(*rhs));
            }
        }
    }
}

impl BoolExpr {
    /// Calls `f` on each operand of this condition, in field order.
    pub fn for_each_operand<'a>(&'a self, mut f: impl FnMut(Operand<'a>)) {
        match self {
            BoolExpr::Const(_) => {}
            BoolExpr::Not(x) => f(Operand::Bool(*x)),
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
                f(Operand::Bool(*a));
                f(Operand::Bool(*b));
            }
            BoolExpr::Cmp { lhs, rhs, .. } => {
                f(Operand::Int(*lhs));
                f(Operand::Int(*rhs));
            }
            BoolExpr::CellEq { lhs, rhs, .. } => {
                f(Operand::Cell(*lhs));
                f(Operand::Cell(*rhs));
            }
            BoolExpr::PlayerEq { lhs, rhs, .. } => {
                f(Operand::Player(*lhs));
                f(Operand::Player(*rhs));
            }
            BoolExpr::In { cell, set } | BoolExpr::Completes { cell, set, .. } => {
                f(Operand::Cell(*cell));
                f(Operand::Set(*set));
            }
            BoolExpr::DirIn { dir, .. } => f(Operand::Dir(dir)),
            BoolExpr::Connected {
                through, from, to, ..
            } => {
                f(Operand::Set(*through));
                f(Operand::Set(*from));
                f(Operand::Set(*to));
            }
        }
    }
}

impl DirExpr {
    /// Calls `f` on each operand of this direction value: the direction it turns, or the
    /// integer `dir(R, i)` reads.
    pub fn for_each_operand<'a>(&'a self, mut f: impl FnMut(Operand<'a>)) {
        match self {
            DirExpr::Var(_) => {}
            DirExpr::Neg(d) | DirExpr::Turn(d, _) | DirExpr::Mirror(d, _) => f(Operand::Dir(d)),
            DirExpr::Index(i) => f(Operand::Int(*i)),
        }
    }
}

impl PlayerRef {
    /// Calls `f` on the cell whose owner this is, if it is one.
    pub fn for_each_operand<'a>(&self, mut f: impl FnMut(Operand<'a>)) {
        match self {
            PlayerRef::Mover | PlayerRef::Opponent | PlayerRef::Const(_) => {}
            PlayerRef::Owner(c) => f(Operand::Cell(*c)),
        }
    }
}

impl TemplatePart {
    /// Calls `f` on each operand of this part of a text.
    pub fn for_each_operand<'a>(&'a self, mut f: impl FnMut(Operand<'a>)) {
        match self {
            TemplatePart::Text(_)
            | TemplatePart::ShapeName { .. }
            | TemplatePart::Facing { .. } => {}
            TemplatePart::Cell(c) => f(Operand::Cell(*c)),
            TemplatePart::Int(i) | TemplatePart::Letter(i) | TemplatePart::Decimal(i) => {
                f(Operand::Int(*i));
            }
            TemplatePart::Player(p) => f(Operand::Player(*p)),
            TemplatePart::Dir { dir, .. } => f(Operand::Dir(dir)),
        }
    }
}

impl Template {
    /// Calls `f` on each operand of each part, in order.
    pub fn for_each_operand<'a>(&'a self, mut f: impl FnMut(Operand<'a>)) {
        for part in &self.parts {
            part.for_each_operand(&mut f);
        }
    }
}

impl Op {
    /// Calls `f` on each operand this op reads, in field order (a `write`'s template as one
    /// operand; jump targets are [`Op::for_each_target`]'s).
    pub fn for_each_operand<'a>(&'a self, mut f: impl FnMut(Operand<'a>)) {
        match self {
            Op::PickDir { .. }
            | Op::Roll { .. }
            | Op::Again
            | Op::Memo { .. }
            | Op::Jump(_)
            | Op::Either(_)
            | Op::First(_)
            | Op::RepeatStart { .. }
            | Op::RepeatCheck { .. }
            | Op::RepeatNext { .. }
            | Op::DistinctStart { .. }
            | Op::DistinctEnd { .. }
            | Op::Done => {}
            Op::Pick { from: s, .. }
            | Op::SetVar { set: s, .. }
            | Op::Let { set: s, .. }
            | Op::Shift { at: s, .. }
            | Op::RemoveAll { at: s } => f(Operand::Set(*s)),
            Op::Chooser(p) => f(Operand::Player(*p)),
            Op::SetDir { dir, .. } => f(Operand::Dir(dir)),
            Op::WhileCheck { cond: b, .. } | Op::Require(b) | Op::Unless { cond: b, .. } => {
                f(Operand::Bool(*b));
            }
            Op::Place {
                player, max, feet, ..
            } => {
                f(Operand::Player(*player));
                f(Operand::Int(*max));
                if let Some(s) = feet {
                    f(Operand::Set(*s));
                }
            }
            Op::Put { owner, at, .. } => {
                f(Operand::Player(*owner));
                f(Operand::Cell(*at));
            }
            Op::Remove { at } => f(Operand::Cell(*at)),
            Op::Move { from, to } => {
                f(Operand::Cell(*from));
                f(Operand::Cell(*to));
            }
            Op::PutAll { owner, at, .. } => {
                f(Operand::Player(*owner));
                f(Operand::Set(*at));
            }
            Op::Write(t) => f(Operand::Template(*t)),
            Op::Finish(finish) => finish.for_each_operand(f),
            Op::Assign { slot, value, .. } => {
                slot.for_each_operand(&mut f);
                f(Operand::Int(*value));
            }
            Op::AssignAll { cells, value, .. } => {
                f(Operand::Set(*cells));
                f(Operand::Int(*value));
            }
        }
    }
}

impl Finish {
    /// Calls `f` on the player who wins or loses.
    pub fn for_each_operand<'a>(&self, mut f: impl FnMut(Operand<'a>)) {
        match self {
            Finish::Win(p) | Finish::Lose(p) => f(Operand::Player(*p)),
            Finish::Draw => {}
        }
    }
}

impl AssignSlot {
    /// Calls `f` on the player or cell that picks the counter slot.
    pub fn for_each_operand<'a>(&self, mut f: impl FnMut(Operand<'a>)) {
        match self {
            AssignSlot::Global(_) => {}
            AssignSlot::PerPlayer { player, .. } => f(Operand::Player(*player)),
            AssignSlot::PerCell { cell, .. } => f(Operand::Cell(*cell)),
        }
    }
}

impl Program {
    /// Calls `f` on each operand of `operand` itself: an id's expression (or template) is
    /// looked up in this program's tables. A cell reference has none. An id out of range
    /// (a program not yet checked) has none either.
    pub fn for_each_child<'a>(&'a self, operand: Operand<'a>, f: impl FnMut(Operand<'a>)) {
        match operand {
            Operand::Set(s) => {
                if let Some(x) = self.sets.get(usize::from(s)) {
                    x.for_each_operand(f);
                }
            }
            Operand::Int(i) => {
                if let Some(x) = self.ints.get(usize::from(i)) {
                    x.for_each_operand(f);
                }
            }
            Operand::Bool(b) => {
                if let Some(x) = self.bools.get(usize::from(b)) {
                    x.for_each_operand(f);
                }
            }
            Operand::Template(t) => {
                if let Some(x) = self.templates.get(usize::from(t)) {
                    x.for_each_operand(f);
                }
            }
            Operand::Dir(d) => d.for_each_operand(f),
            Operand::Player(p) => p.for_each_operand(f),
            Operand::Cell(_) => {}
        }
    }

    /// Visits `operand` and, while `f` returns true for a node, what that node reads, depth
    /// first. Shared expressions are visited once per path that reaches them.
    pub fn walk<'a>(&'a self, operand: Operand<'a>, f: &mut impl FnMut(Operand<'a>) -> bool) {
        if f(operand) {
            self.for_each_child(operand, |o| self.walk(o, f));
        }
    }

    /// Whether `pred` holds for `operand` or for something it reads, depth first; the walk
    /// stops at the first node it holds for.
    pub fn any_reachable<'a>(
        &'a self,
        operand: Operand<'a>,
        mut pred: impl FnMut(Operand<'a>) -> bool,
    ) -> bool {
        let mut found = false;
        self.walk(operand, &mut |o| {
            found = found || pred(o);
            !found
        });
        found
    }
}

#[cfg(test)]
mod tests {
    use std::collections::HashSet;
    use std::mem::discriminant;

    use super::Operand::{self, Bool, Cell, Dir, Int, Player, Set, Template};
    use crate::{
        AssignKind, AssignSlot, BoolExpr, CellRef, CellSet, CmpOp, DirExpr, Finish, IntExpr, IntOp,
        Op, PlayerRef, Program, SetExpr, TemplatePart,
    };

    const C: CellRef = CellRef::Var(1);
    const P: PlayerRef = PlayerRef::Owner(CellRef::Const(2));

    fn dir() -> DirExpr {
        DirExpr::Neg(Box::new(DirExpr::Index(9)))
    }

    /// Each node's operands, collected with `visit`.
    fn operands<'a, T>(
        node: &'a T,
        visit: fn(&'a T, &mut dyn FnMut(Operand<'a>)),
    ) -> Vec<Operand<'a>> {
        let mut out = Vec::new();
        visit(node, &mut |o| out.push(o));
        out
    }

    /// Checks every case against its operands, and that the cases cover `kinds` variants.
    fn check<T: std::fmt::Debug>(
        cases: &[(T, Vec<Operand<'_>>)],
        kinds: usize,
        visit: for<'a> fn(&'a T, &mut dyn FnMut(Operand<'a>)),
    ) {
        let seen: HashSet<_> = cases.iter().map(|(x, _)| discriminant(x)).collect();
        assert_eq!(seen.len(), kinds, "one case per kind");
        for (node, want) in cases {
            assert_eq!(&operands(node, visit), want, "{node:?}");
        }
    }

    #[test]
    fn every_set_kind_names_its_operands() {
        let d = dir();
        let cases = vec![
            (SetExpr::Const(CellSet::EMPTY), vec![]),
            (SetExpr::Empty, vec![]),
            (SetExpr::Occupied, vec![]),
            (SetExpr::PlayerPieces(P), vec![Player(P)]),
            (SetExpr::Pieces { code: 1, player: P }, vec![Player(P)]),
            (SetExpr::Single(C), vec![Cell(C)]),
            (SetExpr::Union(1, 2), vec![Set(1), Set(2)]),
            (SetExpr::Inter(1, 2), vec![Set(1), Set(2)]),
            (SetExpr::Diff(1, 2), vec![Set(1), Set(2)]),
            (SetExpr::All { relation: 0, of: 3 }, vec![Set(3)]),
            (SetExpr::None { relation: 0, of: 3 }, vec![Set(3)]),
            (SetExpr::Any { relation: 0, of: 3 }, vec![Set(3)]),
            (SetExpr::Step { relation: 0, of: 3 }, vec![Set(3)]),
            (
                SetExpr::Group {
                    relation: 0,
                    from: 1,
                    through: 2,
                },
                vec![Set(1), Set(2)],
            ),
            (SetExpr::First(4), vec![Set(4)]),
            (
                SetExpr::StepDir {
                    relation: 0,
                    dir: dir(),
                    of: 3,
                },
                vec![Dir(&d), Set(3)],
            ),
            (
                SetExpr::Line {
                    relation: 0,
                    dir: Some(dir()),
                    from: C,
                    run: Some(5),
                },
                vec![Dir(&d), Cell(C), Set(5)],
            ),
            (
                SetExpr::Between {
                    relation: 0,
                    from: C,
                    run: 1,
                    end: 2,
                },
                vec![Cell(C), Set(1), Set(2)],
            ),
            (
                SetExpr::Brackets {
                    relation: 0,
                    run: 1,
                    end: 2,
                },
                vec![Set(1), Set(2)],
            ),
            (SetExpr::Where { base: 1, cond: 2 }, vec![Set(1), Bool(2)]),
            (SetExpr::Local(0), vec![]),
            (SetExpr::Placed { slot: 0, table: 0 }, vec![]),
            (
                SetExpr::AxisCmp {
                    axis: 0,
                    op: CmpOp::Lt,
                    value: 7,
                },
                vec![Int(7)],
            ),
            (
                SetExpr::AxisRows {
                    base: 1,
                    axis: 0,
                    cond: 3,
                },
                vec![Set(1), Bool(3)],
            ),
            (
                SetExpr::AxisKey {
                    base: 1,
                    axis: 0,
                    key: 4,
                    op: CmpOp::Eq,
                    value: 5,
                },
                vec![Set(1), Int(4), Int(5)],
            ),
        ];
        check(&cases, 25, |x, f| x.for_each_operand(f));
    }

    #[test]
    fn every_int_and_bool_kind_names_its_operands() {
        let d = dir();
        let ints = vec![
            (IntExpr::Const(1), vec![]),
            (IntExpr::Counter(1), vec![]),
            (
                IntExpr::PlayerCounter { base: 0, player: P },
                vec![Player(P)],
            ),
            (IntExpr::Axis { cell: C, axis: 0 }, vec![Cell(C)]),
            (IntExpr::CellCounter { base: 0, cell: C }, vec![Cell(C)]),
            (IntExpr::Points(P), vec![Player(P)]),
            (
                IntExpr::DirIndex {
                    relation: 0,
                    dir: dir(),
                },
                vec![Dir(&d)],
            ),
            (IntExpr::Won(P), vec![Player(P)]),
            (IntExpr::Repetitions, vec![]),
            (IntExpr::CellId(C), vec![Cell(C)]),
            (
                IntExpr::Cond {
                    cond: 1,
                    then: 2,
                    otherwise: 3,
                },
                vec![Bool(1), Int(2), Int(3)],
            ),
            (IntExpr::Count(4), vec![Set(4)]),
            (IntExpr::CellSum { base: 0, of: 4 }, vec![Set(4)]),
            (IntExpr::Neg(5), vec![Int(5)]),
            (
                IntExpr::Bin {
                    op: IntOp::Add,
                    lhs: 1,
                    rhs: 2,
                },
                vec![Int(1), Int(2)],
            ),
        ];
        check(&ints, 15, |x, f| x.for_each_operand(f));
        let bools = vec![
            (BoolExpr::Const(true), vec![]),
            (BoolExpr::Not(1), vec![Bool(1)]),
            (BoolExpr::And(1, 2), vec![Bool(1), Bool(2)]),
            (BoolExpr::Or(1, 2), vec![Bool(1), Bool(2)]),
            (
                BoolExpr::Cmp {
                    op: CmpOp::Eq,
                    lhs: 1,
                    rhs: 2,
                },
                vec![Int(1), Int(2)],
            ),
            (
                BoolExpr::CellEq {
                    eq: true,
                    lhs: C,
                    rhs: CellRef::Candidate,
                },
                vec![Cell(C), Cell(CellRef::Candidate)],
            ),
            (
                BoolExpr::PlayerEq {
                    eq: true,
                    lhs: P,
                    rhs: PlayerRef::Mover,
                },
                vec![Player(P), Player(PlayerRef::Mover)],
            ),
            (BoolExpr::In { cell: C, set: 3 }, vec![Cell(C), Set(3)]),
            (
                BoolExpr::Completes {
                    pattern: 0,
                    cell: C,
                    set: 3,
                },
                vec![Cell(C), Set(3)],
            ),
            (
                BoolExpr::DirIn {
                    relation: 0,
                    dir: dir(),
                    members: [0; 2],
                },
                vec![Dir(&d)],
            ),
            (
                BoolExpr::Connected {
                    relation: 0,
                    through: 1,
                    from: 2,
                    to: 3,
                },
                vec![Set(1), Set(2), Set(3)],
            ),
        ];
        check(&bools, 11, |x, f| x.for_each_operand(f));
    }

    #[test]
    fn every_op_kind_names_its_operands() {
        let d = dir();
        let global = AssignSlot::Global(0);
        let per_cell = AssignSlot::PerCell { base: 0, cell: C };
        let cases = vec![
            (Op::Pick { var: 0, from: 1 }, vec![Set(1)]),
            (
                Op::PickDir {
                    var: 0,
                    relation: 0,
                },
                vec![],
            ),
            (
                Op::Roll {
                    slot: 0,
                    lo: 1,
                    count: 6,
                },
                vec![],
            ),
            (Op::Again, vec![]),
            (Op::Chooser(P), vec![Player(P)]),
            (Op::SetVar { var: 0, set: 2 }, vec![Set(2)]),
            (
                Op::SetDir {
                    var: 0,
                    relation: 0,
                    dir: dir(),
                },
                vec![Dir(&d)],
            ),
            (
                Op::WhileCheck {
                    var: 0,
                    cond: 3,
                    exit: 9,
                },
                vec![Bool(3)],
            ),
            (Op::Memo { block: 0 }, vec![]),
            (
                Op::Place {
                    slot: 0,
                    anchor: 1,
                    table: 0,
                    player: P,
                    layer: 0,
                    max: 4,
                    feet: Some(5),
                },
                vec![Player(P), Int(4), Set(5)],
            ),
            (
                Op::Let {
                    slot: 0,
                    set: 6,
                    replay: true,
                },
                vec![Set(6)],
            ),
            (
                Op::Put {
                    code_base: 1,
                    owner: P,
                    at: C,
                },
                vec![Player(P), Cell(C)],
            ),
            (Op::Remove { at: C }, vec![Cell(C)]),
            (
                Op::Move {
                    from: C,
                    to: CellRef::Slot(3),
                },
                vec![Cell(C), Cell(CellRef::Slot(3))],
            ),
            (Op::Shift { at: 7, relation: 0 }, vec![Set(7)]),
            (
                Op::PutAll {
                    code_base: 1,
                    owner: P,
                    at: 8,
                },
                vec![Player(P), Set(8)],
            ),
            (Op::RemoveAll { at: 9 }, vec![Set(9)]),
            (Op::Require(1), vec![Bool(1)]),
            (Op::Unless { cond: 2, target: 0 }, vec![Bool(2)]),
            (Op::Jump(0), vec![]),
            (Op::Either(vec![1, 2]), vec![]),
            (Op::First(vec![1, 2]), vec![]),
            (Op::RepeatStart { var: 0 }, vec![]),
            (
                Op::RepeatCheck {
                    var: 0,
                    min: 0,
                    max: 2,
                    exit: 0,
                },
                vec![],
            ),
            (Op::RepeatNext { var: 0, check: 0 }, vec![]),
            (Op::DistinctStart { block: 0 }, vec![]),
            (Op::DistinctEnd { block: 0 }, vec![]),
            (Op::Write(3), vec![Template(3)]),
            (Op::Finish(Finish::Lose(P)), vec![Player(P)]),
            (
                Op::Assign {
                    slot: per_cell,
                    op: AssignKind::Add,
                    value: 4,
                },
                vec![Cell(C), Int(4)],
            ),
            (
                Op::AssignAll {
                    base: 0,
                    cells: 5,
                    op: AssignKind::Set,
                    value: 6,
                },
                vec![Set(5), Int(6)],
            ),
            (Op::Done, vec![]),
        ];
        check(&cases, 32, |x, f| x.for_each_operand(f));
        let assign = Op::Assign {
            slot: global,
            op: AssignKind::Set,
            value: 1,
        };
        assert_eq!(
            operands(&assign, |x, f| x.for_each_operand(f)),
            vec![Int(1)]
        );
    }

    #[test]
    fn references_and_templates_name_their_operands() {
        let d = dir();
        assert_eq!(
            operands(&d, |x, f| x.for_each_operand(f)),
            vec![Dir(&DirExpr::Index(9))]
        );
        assert_eq!(
            operands(&DirExpr::Index(9), |x, f| x.for_each_operand(f)),
            vec![Int(9)]
        );
        assert_eq!(
            operands(&P, |x, f| x.for_each_operand(f)),
            vec![Cell(CellRef::Const(2))]
        );
        let parts = [
            TemplatePart::Text("a".into()),
            TemplatePart::Cell(C),
            TemplatePart::Int(1),
            TemplatePart::Player(P),
            TemplatePart::Letter(2),
            TemplatePart::Decimal(3),
            TemplatePart::ShapeName { slot: 0, table: 0 },
            TemplatePart::Facing { slot: 0, table: 0 },
            TemplatePart::Dir {
                relation: 0,
                dir: dir(),
            },
        ];
        let template = crate::Template {
            parts: parts.to_vec(),
        };
        let want = vec![Cell(C), Int(1), Player(P), Int(2), Int(3), Dir(&d)];
        assert_eq!(operands(&template, |x, f| x.for_each_operand(f)), want);
    }

    /// `s1 = s0 where b0`, `b0 = i0 < i1`, `i1 = count(s2)`: a walk reaches each once and
    /// stops where told; an id out of range has no children.
    #[test]
    fn a_walk_reaches_what_an_expression_reads() {
        let p = Program {
            sets: vec![
                SetExpr::Empty,
                SetExpr::Where { base: 0, cond: 0 },
                SetExpr::Single(CellRef::Candidate),
            ],
            ints: vec![IntExpr::Axis { cell: C, axis: 0 }, IntExpr::Count(2)],
            bools: vec![BoolExpr::Cmp {
                op: CmpOp::Lt,
                lhs: 0,
                rhs: 1,
            }],
            ..Program::default()
        };
        let mut seen = Vec::new();
        p.walk(Set(1), &mut |o| {
            seen.push(o);
            true
        });
        let want = [
            Set(1),
            Set(0),
            Bool(0),
            Int(0),
            Cell(C),
            Int(1),
            Set(2),
            Cell(CellRef::Candidate),
        ];
        assert_eq!(seen, want);
        assert!(p.any_reachable(Set(1), |o| o == Cell(CellRef::Candidate)));
        assert!(!p.any_reachable(Set(0), |o| o == Cell(CellRef::Candidate)));
        let mut seen = 0;
        p.walk(Set(1), &mut |o| {
            seen += 1;
            !matches!(o, Bool(_))
        });
        assert_eq!(seen, 3, "not into the condition");
        p.walk(Set(99), &mut |_| true);
    }
}
