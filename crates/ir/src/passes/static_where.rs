//! A `where` decided while lowering: a filter that reads nothing but constants and the
//! candidate's coordinates, on a constant set, is evaluated cell by cell into a constant set;
//! a filter that is constantly false gives no cells.

use crate::ops::{compare, int_op};
use crate::{BoolExpr, BoolId, CellRef, CellSet, IntExpr, IntId, Program, SetExpr, SetId};

/// The cells of `base where cond`, when they are known before play.
#[must_use]
pub fn run(program: &Program, base: SetId, cond: BoolId) -> Option<CellSet> {
    if matches!(program.bools[usize::from(cond)], BoolExpr::Const(false)) {
        return Some(CellSet::EMPTY);
    }
    let SetExpr::Const(cells) = program.sets[usize::from(base)] else {
        return None;
    };
    if !candidate_only(program, cond) {
        return None;
    }
    let mut out = CellSet::EMPTY;
    for c in cells.iter() {
        if eval_bool(program, cond, c)? {
            out.insert(c);
        }
    }
    Some(out)
}

/// Whether a condition reads nothing but constants and the candidate's coordinates.
fn candidate_only(program: &Program, b: BoolId) -> bool {
    let bool = |b: &BoolId| candidate_only(program, *b);
    match &program.bools[usize::from(b)] {
        BoolExpr::Const(_) => true,
        BoolExpr::Not(x) => bool(x),
        BoolExpr::And(x, y) | BoolExpr::Or(x, y) => bool(x) && bool(y),
        BoolExpr::Cmp { lhs, rhs, .. } => int_only(program, *lhs) && int_only(program, *rhs),
        BoolExpr::CellEq { .. }
        | BoolExpr::PlayerEq { .. }
        | BoolExpr::In { .. }
        | BoolExpr::Completes { .. }
        | BoolExpr::DirIn { .. }
        | BoolExpr::Connected { .. } => false,
    }
}

fn int_only(program: &Program, i: IntId) -> bool {
    match &program.ints[usize::from(i)] {
        IntExpr::Const(_) => true,
        IntExpr::Axis { cell, .. } => *cell == CellRef::Candidate,
        IntExpr::Neg(x) => int_only(program, *x),
        IntExpr::Bin { lhs, rhs, .. } => int_only(program, *lhs) && int_only(program, *rhs),
        IntExpr::Counter(_)
        | IntExpr::PlayerCounter { .. }
        | IntExpr::CellCounter { .. }
        | IntExpr::Points(_)
        | IntExpr::DirIndex { .. }
        | IntExpr::Won(_)
        | IntExpr::Repetitions
        | IntExpr::CellId(_)
        | IntExpr::Cond { .. }
        | IntExpr::Count(_)
        | IntExpr::CellSum { .. } => false,
    }
}

/// The condition on candidate `cand`; `None` for what [`candidate_only`] refuses.
fn eval_bool(program: &Program, b: BoolId, cand: usize) -> Option<bool> {
    let bool = |b: &BoolId| eval_bool(program, *b, cand);
    Some(match &program.bools[usize::from(b)] {
        BoolExpr::Const(v) => *v,
        BoolExpr::Not(x) => !bool(x)?,
        BoolExpr::And(x, y) => bool(x)? && bool(y)?,
        BoolExpr::Or(x, y) => bool(x)? || bool(y)?,
        BoolExpr::Cmp { op, lhs, rhs } => compare(
            *op,
            eval_int(program, *lhs, cand)?,
            eval_int(program, *rhs, cand)?,
        ),
        BoolExpr::CellEq { .. }
        | BoolExpr::PlayerEq { .. }
        | BoolExpr::In { .. }
        | BoolExpr::Completes { .. }
        | BoolExpr::DirIn { .. }
        | BoolExpr::Connected { .. } => return None,
    })
}

fn eval_int(program: &Program, i: IntId, cand: usize) -> Option<i32> {
    let int = |i: &IntId| eval_int(program, *i, cand);
    Some(match &program.ints[usize::from(i)] {
        IntExpr::Const(v) => *v,
        IntExpr::Axis { axis, .. } => program.board.coord(cand, usize::from(*axis)),
        IntExpr::Neg(x) => int(x)?.wrapping_neg(),
        IntExpr::Bin { op, lhs, rhs } => int_op(*op, int(lhs)?, int(rhs)?),
        IntExpr::Counter(_)
        | IntExpr::PlayerCounter { .. }
        | IntExpr::CellCounter { .. }
        | IntExpr::Points(_)
        | IntExpr::DirIndex { .. }
        | IntExpr::Won(_)
        | IntExpr::Repetitions
        | IntExpr::CellId(_)
        | IntExpr::Cond { .. }
        | IntExpr::Count(_)
        | IntExpr::CellSum { .. } => return None,
    })
}

#[cfg(test)]
mod tests {
    use crate::dump::dump;
    use crate::parse::parse;

    const GAME: &str = "game \"T\"\nplayers A, B\nboard {\n    axes x\n    cells x in 0..4\n    name \"{x}\"\n}\npiece stone\nturn {\n    pick c in cells where COND\n    put stone at c\n}\non no moves {\n    lose mover\n}\n";

    /// The program's text with `COND` as the filter.
    fn text(cond: &str) -> String {
        dump(&crate::compile(&GAME.replace("COND", cond), &[]).expect("compiles"))
    }

    #[test]
    fn a_filter_on_coordinates_is_a_constant_set() {
        let text = text("x % 2 == 1 or x == 0");
        assert!(text.contains("  s1 = {0 1 3}\n"), "{text}");
        assert!(!text.contains(" where "), "{text}");
    }

    /// A filter that reads the position stays; the same program with the filter's count made
    /// a constant (edited in its text) is decided by the pass.
    #[test]
    fn a_filter_reading_the_position_stays() {
        let before = text("x < count(own)");
        assert!(before.contains("  s2 = s0 where b0\n"), "{before}");
        let edited = before.replace("  i1 = Count(1)", "  i1 = Const(2)");
        let program = parse(&edited).expect("the edited text parses");
        assert_eq!(
            super::run(&program, 0, 0).map(|c| c.iter().collect::<Vec<_>>()),
            Some(vec![0, 1])
        );
    }
}
