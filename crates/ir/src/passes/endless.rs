//! A `while` that provably never ends: no `win`, `lose` or `draw` in its body ends the turn
//! from inside, and its (folded) condition is constant true or its body changes nothing the
//! condition could read (it only tests, writes and steers), so a condition true once stays
//! true. Such a loop only ever runs into its round limit, which drops every move through it;
//! the lowering reports it (E1006).

use crate::{BoolExpr, BoolId, Op, Program};

/// Why the `while` with condition `cond` and the lowered `body` never ends, if it does not.
#[must_use]
pub fn run(program: &Program, cond: BoolId, body: &[Op]) -> Option<&'static str> {
    let cond = &program.bools[usize::from(cond)];
    if matches!(cond, BoolExpr::Const(false)) || body.iter().any(|op| matches!(op, Op::Finish(_))) {
        return None;
    }
    if matches!(cond, BoolExpr::Const(true)) {
        return Some("its condition is always true");
    }
    body.iter()
        .all(inert)
        .then_some("its body changes nothing its condition reads")
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
    use crate::{BoolExpr, Finish, Op, PlayerRef};

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
    fn a_body_that_changes_nothing_is_endless() {
        let p = program(BoolExpr::Not(0));
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
