//! A `where` filter `axis <op> value` (or mirrored), with a value that does not depend on the
//! candidate, becomes a lookup in the board's table of cells by coordinate.

use crate::{BoolExpr, BoolId, CellRef, CmpOp, IntExpr, IntId, Program, SetExpr};

/// The table lookup that gives the cells passing `cond`, when it is such a filter.
#[must_use]
pub fn run(program: &Program, cond: BoolId) -> Option<SetExpr> {
    let BoolExpr::Cmp { op, lhs, rhs } = program.bools[usize::from(cond)] else {
        return None;
    };
    let axis_of = |i: IntId| match program.ints[usize::from(i)] {
        IntExpr::Axis {
            cell: CellRef::Candidate,
            axis,
        } => Some(axis),
        _ => None,
    };
    let free = |i: IntId| !mentions_candidate(program, i);
    if let Some(axis) = axis_of(lhs).filter(|_| free(rhs)) {
        return Some(lookup(program, axis, op, rhs));
    }
    let axis = axis_of(rhs).filter(|_| free(lhs))?;
    let op = match op {
        CmpOp::Lt => CmpOp::Gt,
        CmpOp::Le => CmpOp::Ge,
        CmpOp::Gt => CmpOp::Lt,
        CmpOp::Ge => CmpOp::Le,
        other => other,
    };
    Some(lookup(program, axis, op, lhs))
}

/// The lookup, made once here when the value is a constant (a filter on a set that is not
/// constant, such as `own & home where x == 7`).
fn lookup(program: &Program, axis: u8, op: CmpOp, value: IntId) -> SetExpr {
    match program.ints[usize::from(value)] {
        IntExpr::Const(v) => SetExpr::Const(program.board.axis_cmp(usize::from(axis), op, v)),
        _ => SetExpr::AxisCmp { axis, op, value },
    }
}

/// Whether an integer may read the candidate cell.
fn mentions_candidate(program: &Program, i: IntId) -> bool {
    match &program.ints[usize::from(i)] {
        IntExpr::Axis { cell, .. } | IntExpr::CellCounter { cell, .. } => {
            *cell == CellRef::Candidate
        }
        IntExpr::Neg(x) => mentions_candidate(program, *x),
        IntExpr::Bin { lhs, rhs, .. } => {
            mentions_candidate(program, *lhs) || mentions_candidate(program, *rhs)
        }
        IntExpr::Count(_) => true,
        _ => false,
    }
}

#[cfg(test)]
mod tests {
    use crate::dump::dump;

    const GAME: &str = "game \"T\"\nplayers A, B\nboard {\n    axes x\n    cells x in 0..4\n    name \"{x}\"\n}\npiece stone\ncounter n = 0\nturn {\n    pick c in SET\n    put stone at c\n    n += 1\n}\non no moves {\n    lose mover\n}\n";

    fn text(set: &str) -> String {
        dump(&crate::compile(&GAME.replace("SET", set), &[]).expect("compiles"))
    }

    /// `x < n` and `n > x` are the same lookup; on all cells it is the whole set.
    #[test]
    fn a_coordinate_against_a_value_is_a_lookup() {
        for cond in ["x < n", "n > x"] {
            let text = text(&format!("cells where {cond}"));
            assert!(text.contains(" = cells with x Lt i"), "{cond}: {text}");
            assert!(!text.contains(" where "), "{cond}: {text}");
        }
        let text = text("empty where x < n");
        assert!(text.contains(" = s") && text.contains(" & s0\n"), "{text}");
    }

    /// A constant value gives the cells themselves, on a set that is not constant too.
    #[test]
    fn a_constant_value_is_looked_up_once() {
        let text = text("empty where x >= 2");
        assert!(text.contains(" = {2 3 4}\n"), "{text}");
        assert!(!text.contains(" with x "), "{text}");
    }

    /// A value that reads the candidate (its own coordinate) is no lookup.
    #[test]
    fn a_value_reading_the_candidate_stays_a_filter() {
        let text = text("empty where x < x * n");
        assert!(text.contains(" where "), "{text}");
    }
}
