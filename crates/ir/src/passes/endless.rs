//! A `while` that provably never ends: no `win`, `lose` or `draw` in its body ends the turn
//! from inside, and its (folded) condition is constant true or its body changes nothing the
//! condition could read (it only tests, writes and steers, or changes counters the condition
//! does not read), so a condition true once stays true. Such a loop only ever runs into its
//! round limit, which drops every move through it; the lowering reports it (E1006).

use std::collections::HashSet;

use crate::visit::Operand;
use crate::{AssignSlot, BoolExpr, BoolId, CellRef, IntExpr, Op, PlayerRef, Program};

/// Why the `while` with condition `cond` and the lowered `body` never ends, if it does not.
#[must_use]
pub fn run(program: &Program, cond_id: BoolId, body: &[Op]) -> Option<&'static str> {
    let cond = &program.bools[usize::from(cond_id)];
    if matches!(cond, BoolExpr::Const(false)) || body.iter().any(|op| matches!(op, Op::Finish(_))) {
        return None;
    }
    if matches!(cond, BoolExpr::Const(true)) {
        return Some("its condition is always true");
    }
    let read = counters_read(program, cond_id);
    body.iter()
        .all(|op| inert(op) || assigns_unread(program, op, read.as_ref()))
        .then_some("its body changes nothing its condition reads")
}

/// The counters (by name) a condition reads, when it reads nothing but counters, constants,
/// the turn's variables and cells' coordinates; `None` when it reads anything else (the
/// board, a set, the history), which a change of any counter might reach.
fn counters_read(program: &Program, cond: BoolId) -> Option<HashSet<&str>> {
    let mut names = HashSet::new();
    let mut only_counters = true;
    let name = |slot: u16| {
        program
            .counters
            .get(usize::from(slot))
            .map(|c| c.name.as_str())
    };
    program.walk(Operand::Bool(cond), &mut |operand| {
        let (plain, read) = match operand {
            Operand::Int(i) => program.ints.get(usize::from(i)).map_or((false, None), |e| {
                int_reads(e).map_or((false, None), |slot| (true, slot.and_then(name)))
            }),
            Operand::Bool(b) => (
                program.bools.get(usize::from(b)).is_some_and(bool_is_plain),
                None,
            ),
            Operand::Cell(c) => match c {
                CellRef::Var(_) | CellRef::Const(_) | CellRef::Candidate => (true, None),
                CellRef::Slot(slot) => (true, name(slot)),
            },
            Operand::Player(p) => (!matches!(p, PlayerRef::Owner(_)), None),
            Operand::Dir(_) => (true, None),
            Operand::Set(_) | Operand::Template(_) => (false, None),
        };
        names.extend(read);
        only_counters &= plain;
        only_counters
    });
    only_counters.then_some(names)
}

/// For an integer that reads no more than counters, constants and variables: the counter
/// slot it reads, if any (`Some(None)` for none); `None` for one that reads anything else.
fn int_reads(e: &IntExpr) -> Option<Option<u16>> {
    match e {
        IntExpr::Counter(slot) => Some(Some(*slot)),
        IntExpr::PlayerCounter { base, .. }
        | IntExpr::CellCounter { base, .. }
        | IntExpr::CellSum { base, .. } => Some(Some(*base)),
        IntExpr::Const(_)
        | IntExpr::Axis { .. }
        | IntExpr::DirIndex { .. }
        | IntExpr::CellId(_)
        | IntExpr::Cond { .. }
        | IntExpr::Neg(_)
        | IntExpr::Bin { .. } => Some(None),
        IntExpr::Points(_) | IntExpr::Won(_) | IntExpr::Repetitions | IntExpr::Count(_) => None,
    }
}

/// Whether a condition node reads nothing of its own beyond its operands (the board,
/// patterns and paths are read by the others).
fn bool_is_plain(e: &BoolExpr) -> bool {
    match e {
        BoolExpr::Const(_)
        | BoolExpr::Not(_)
        | BoolExpr::And(..)
        | BoolExpr::Or(..)
        | BoolExpr::Cmp { .. }
        | BoolExpr::CellEq { .. }
        | BoolExpr::PlayerEq { .. }
        | BoolExpr::DirIn { .. } => true,
        BoolExpr::In { .. } | BoolExpr::Completes { .. } | BoolExpr::Connected { .. } => false,
    }
}

/// Whether `op` only changes counters that a condition reading just `read` does not read.
fn assigns_unread(program: &Program, op: &Op, read: Option<&HashSet<&str>>) -> bool {
    let base = match op {
        Op::Assign { slot, .. } => match slot {
            AssignSlot::Global(s) => *s,
            AssignSlot::PerPlayer { base, .. } | AssignSlot::PerCell { base, .. } => *base,
        },
        Op::AssignAll { base, .. } => *base,
        _ => return false,
    };
    let written = program
        .counters
        .get(usize::from(base))
        .map(|c| c.name.as_str());
    read.is_some_and(|read| written.is_some_and(|w| !read.contains(w)))
}

/// An op that changes nothing a condition reads: a test, a text, a jump or a loop's or
/// block's bookkeeping.
fn inert(op: &Op) -> bool {
    match op {
        Op::Require(_)
        | Op::Write(_)
        | Op::Again
        | Op::Unless { .. }
        | Op::Jump(_)
        | Op::Either(_)
        | Op::First(_)
        | Op::RepeatStart { .. }
        | Op::RepeatCheck { .. }
        | Op::RepeatNext { .. }
        | Op::WhileCheck { .. }
        | Op::Memo { .. }
        | Op::DistinctStart { .. }
        | Op::DistinctEnd { .. } => true,
        Op::Pick { .. }
        | Op::PickDir { .. }
        | Op::Roll { .. }
        | Op::Chooser(_)
        | Op::SetVar { .. }
        | Op::SetDir { .. }
        | Op::Place { .. }
        | Op::Let { .. }
        | Op::Put { .. }
        | Op::Remove { .. }
        | Op::Move { .. }
        | Op::Shift { .. }
        | Op::PutAll { .. }
        | Op::RemoveAll { .. }
        | Op::Finish(_)
        | Op::Assign { .. }
        | Op::AssignAll { .. }
        | Op::Done => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::{BoolExpr, Finish, IntExpr, Op, PlayerRef};

    /// A program whose one condition is `cond`.
    fn program(cond: BoolExpr) -> crate::Program {
        let game = "game \"T\"\nplayers A, B\nboard {\n    axes x\n    cells x in 0..3\n    name \"{x}\"\n}\npiece stone\nturn {\n    pick c in empty\n    put stone at c\n}\non no moves {\n    lose mover\n}\n";
        let text = crate::dump::dump(&crate::compile(game, &[]).expect("compiles"));
        let mut program = crate::parse::parse(&text).expect("parses");
        program.bools = vec![cond];
        program
    }

    #[test]
    fn a_constant_true_loop_without_an_end_is_endless() {
        let p = program(BoolExpr::Const(true));
        let body = [Op::Again, Op::Jump(0)];
        assert_eq!(
            super::run(&p, 0, &body),
            Some("its condition is always true")
        );
        let ends = [Op::Finish(Finish::Win(PlayerRef::Mover))];
        assert_eq!(super::run(&p, 0, &ends), None);
    }

    #[test]
    fn a_body_that_changes_only_other_counters_is_endless() {
        let mut p = program(BoolExpr::Cmp {
            op: crate::CmpOp::Lt,
            lhs: 0,
            rhs: 1,
        });
        let counter = |name: &str| crate::Counter {
            name: name.into(),
            player: None,
            initial: 0,
            view: crate::CounterView::Plain,
        };
        p.counters = vec![counter("n"), counter("k")];
        p.ints = vec![IntExpr::Counter(0), IntExpr::Const(3)];
        let add_to = |slot| Op::Assign {
            slot: crate::AssignSlot::Global(slot),
            op: crate::AssignKind::Add,
            value: 1,
        };
        assert!(
            super::run(&p, 0, &[add_to(1)]).is_some(),
            "k never changes n"
        );
        assert_eq!(super::run(&p, 0, &[add_to(0)]), None, "n changes");
        // A condition that reads a set may read anything: no counter is known unread.
        p.bools.push(BoolExpr::In {
            cell: crate::CellRef::Var(0),
            set: 0,
        });
        assert_eq!(super::run(&p, 1, &[add_to(1)]), None);
    }

    #[test]
    fn a_body_that_changes_nothing_is_endless() {
        let mut p = program(BoolExpr::Not(1));
        p.bools.push(BoolExpr::In {
            cell: crate::CellRef::Var(0),
            set: 0,
        });
        assert!(super::run(&p, 0, &[Op::Require(0), Op::Write(0)]).is_some());
        assert_eq!(
            super::run(
                &p,
                0,
                &[Op::Remove {
                    at: crate::CellRef::Var(0)
                }]
            ),
            None
        );
    }
}
