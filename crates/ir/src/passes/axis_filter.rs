//! A `where` filter `axis <op> value` (or mirrored), with a value that does not depend on the
//! candidate, becomes a lookup in the board's table of cells by coordinate.

use crate::{BoolExpr, BoolId, CellRef, CmpOp, IntExpr, IntId, Operand, Program, SetExpr};

/// The table lookup that gives the cells passing `cond`, when it is such a filter.
#[must_use]
pub fn run(program: &Program, cond: BoolId) -> Option<SetExpr> {
    let BoolExpr::Cmp { op, lhs, rhs } = program.bools[usize::from(cond)] else {
        return None;
    };
    let axis_of = |i: IntId| {
        let IntExpr::Axis {
            cell: CellRef::Candidate,
            axis,
        } = program.ints[usize::from(i)]
        else {
            return None;
        };
        Some(axis)
    };
    let free = |i: IntId| !mentions_candidate(program, i);
    if let Some(axis) = axis_of(lhs).filter(|_| free(rhs)) {
        return Some(lookup(program, axis, op, rhs));
    }
    let axis = axis_of(rhs).filter(|_| free(lhs))?;
    let op = op.mirrored();
    Some(lookup(program, axis, op, lhs))
}

/// The lookup, made once here when the value is a constant (a filter on a set that is not
/// constant, such as `own & home where x == 7`).
fn lookup(program: &Program, axis: u8, op: CmpOp, value: IntId) -> SetExpr {
    if let IntExpr::Const(v) = program.ints[usize::from(value)] {
        return SetExpr::Const(program.board.axis_cmp(usize::from(axis), op, v));
    }
    SetExpr::AxisCmp { axis, op, value }
}

/// Whether an integer may read the candidate cell: it names the candidate somewhere, or it
/// reads a set (a set's own `where` has a candidate of its own; any set counts, to be safe).
fn mentions_candidate(program: &Program, i: IntId) -> bool {
    program.any_reachable(Operand::Int(i), |o| match o {
        Operand::Cell(c) => c == CellRef::Candidate,
        Operand::Set(_) => true,
        Operand::Int(_)
        | Operand::Bool(_)
        | Operand::Player(_)
        | Operand::Dir(_)
        | Operand::Template(_) => false,
    })
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

    /// A value reading the candidate through its cell id or a condition is no lookup either
    /// (the program's compared value edited in place).
    #[test]
    fn a_value_reading_the_candidate_anywhere_stays_a_filter() {
        use crate::{BoolExpr, CellRef, IntExpr};
        let mut program =
            crate::compile(&GAME.replace("SET", "cells where x < n"), &[]).expect("compiles");
        let (cond, rhs) = program
            .bools
            .iter()
            .enumerate()
            .find_map(|(b, x)| {
                let BoolExpr::Cmp { rhs, .. } = x else {
                    return None;
                };
                Some((u16::try_from(b).ok()?, *rhs))
            })
            .expect("the filter's comparison");
        assert!(super::run(&program, cond).is_some());
        let candidate = IntExpr::CellId(CellRef::Candidate);
        program.ints[usize::from(rhs)] = candidate.clone();
        assert!(super::run(&program, cond).is_none());
        let yes = u16::try_from(program.ints.len()).expect("few ints");
        program.ints.push(candidate);
        program.ints.push(IntExpr::Const(1));
        program.bools.push(BoolExpr::Const(true));
        let test = u16::try_from(program.bools.len() - 1).expect("few bools");
        let (then, otherwise) = (yes, yes + 1);
        program.ints[usize::from(rhs)] = IntExpr::Cond {
            cond: test,
            then,
            otherwise,
        };
        assert!(super::run(&program, cond).is_none());
    }
}
