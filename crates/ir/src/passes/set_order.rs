//! Intersections test their cheap side first: `a & b` is evaluated by narrowing with its
//! first operand, so the operand with fewer per-cell tests goes first.

use crate::{Program, SetExpr, SetId};

/// `a & b` with its cheaper operand first (the written order on a tie).
#[must_use]
pub fn inter(program: &Program, a: SetId, b: SetId) -> SetExpr {
    if cost(program, a) > cost(program, b) {
        SetExpr::Inter(b, a)
    } else {
        SetExpr::Inter(a, b)
    }
}

/// A rough cost of evaluating a set: per-cell tests cost more than bitset lookups.
fn cost(program: &Program, id: SetId) -> u32 {
    let cost = |id: &SetId| self::cost(program, *id);
    match &program.sets[usize::from(id)] {
        SetExpr::Union(a, b) | SetExpr::Inter(a, b) | SetExpr::Diff(a, b) => cost(a) + cost(b),
        SetExpr::All { of, .. }
        | SetExpr::None { of, .. }
        | SetExpr::Any { of, .. }
        | SetExpr::Step { of, .. } => 10 + cost(of),
        SetExpr::Group { from, through, .. } => 40 + cost(from) + cost(through),
        SetExpr::First(of) => 2 + cost(of),
        SetExpr::Where { base, .. } => 20 + cost(base),
        SetExpr::AxisRows { base, .. } | SetExpr::AxisKey { base, .. } => 5 + cost(base),
        // Lookups, and walks counted as one (their operands are not weighed).
        SetExpr::Const(_)
        | SetExpr::Empty
        | SetExpr::Occupied
        | SetExpr::PlayerPieces(_)
        | SetExpr::Pieces { .. }
        | SetExpr::Single(_)
        | SetExpr::StepDir { .. }
        | SetExpr::Line { .. }
        | SetExpr::Between { .. }
        | SetExpr::Brackets { .. }
        | SetExpr::Local(_)
        | SetExpr::Placed { .. }
        | SetExpr::AxisCmp { .. } => 1,
    }
}

#[cfg(test)]
mod tests {
    use crate::dump::dump;

    const GAME: &str = "game \"T\"\nplayers A, B\nboard {\n    axes x\n    cells x in 0..3\n    name \"{x}\"\n}\ndirection e = (1)\npiece stone\nturn {\n    pick c in SET\n    put stone at c\n}\non no moves {\n    lose mover\n}\n";

    fn sets(set: &str) -> String {
        let program = crate::compile(&GAME.replace("SET", set), &[]).expect("compiles");
        let text = dump(&program);
        let start = text.find("sets\n").expect("a sets table");
        let end = text.find("ints\n").expect("an ints table");
        text[start..end].to_string()
    }

    /// A neighbourhood (10 per cell) is costlier than `empty` (a bitset): it goes second.
    #[test]
    fn the_cheap_operand_goes_first() {
        let text = sets("step(e, own) & empty");
        assert!(text.ends_with("  s3 = s2 & s1\n"), "{text}");
        let text = sets("empty & step(e, own)");
        assert!(text.ends_with("  s3 = s0 & s2\n"), "{text}");
    }
}
