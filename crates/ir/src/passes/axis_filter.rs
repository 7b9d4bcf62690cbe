//! A `where` filter that the board's table of cells by coordinate can answer, instead of a
//! test of every cell: `axis <op> value` (or mirrored), with a value that does not read the
//! candidate, is a lookup; a condition that reads the candidate only through one coordinate
//! is tested once per row along that axis; an `and` of such conditions is the intersection of
//! their lookups (the rest of the `and`, if any, is then tested only on the cells they leave),
//! and an `or` of them the union.

use crate::ops::{int_op, neg};
use crate::{
    BoolExpr, BoolId, CellRef, CellSet, CmpOp, IntExpr, IntId, Operand, Program, SetExpr, SetId,
};

/// How a condition is answered without testing each cell.
enum Lookup {
    /// `axis op value`, the value not reading the candidate.
    Cmp {
        axis: u8,
        op: CmpOp,
        value: IntId,
    },
    /// `key op value`: `key` reads the candidate only through `axis` and is computed once per
    /// row, `value` does not read it and is computed once.
    Key {
        axis: u8,
        key: IntId,
        op: CmpOp,
        value: IntId,
    },
    /// A condition reading the candidate only through `axis`, tested once per row.
    Rows {
        axis: u8,
        cond: BoolId,
    },
    /// A condition that does not read the candidate: all cells or none, tested once.
    Whole(BoolId),
    Union(Box<Lookup>, Box<Lookup>),
    Inter(Box<Lookup>, Box<Lookup>),
}

/// `base where cond` with as much of `cond` as possible answered by lookups; `None` when no
/// part of it can be. Comparisons come first (cheapest), then the per-row tests, each on the
/// cells the previous ones left; the rest of the `and` last, on the cells left then.
pub fn run(program: &mut Program, base: SetId, cond: BoolId) -> Option<SetId> {
    let mut conjuncts = Vec::new();
    flatten(program, cond, &mut conjuncts);
    let mut lookups = Vec::new();
    let mut rest = Vec::new();
    for c in conjuncts {
        match plan(program, c, false) {
            Some(l) => lookups.push(l),
            None => rest.push(c),
        }
    }
    if lookups.is_empty() {
        return None;
    }
    lookups.sort_by_key(|l| match l {
        Lookup::Cmp { .. } | Lookup::Whole(_) => 0,
        Lookup::Key { .. } => 1,
        Lookup::Rows { .. } | Lookup::Union(..) | Lookup::Inter(..) => 2,
    });
    let mut set = base;
    for l in lookups {
        set = build(program, l, set);
    }
    if let Some((&first, others)) = rest.split_first() {
        let cond = others
            .iter()
            .fold(first, |a, &b| program.and_or(true, a, b));
        set = program.push_set(SetExpr::Where { base: set, cond });
    }
    Some(set)
}

/// The operands of the `and`s at the top of `cond`, left to right.
fn flatten(program: &Program, cond: BoolId, out: &mut Vec<BoolId>) {
    if let BoolExpr::And(a, b) = program.bools[usize::from(cond)] {
        flatten(program, a, out);
        flatten(program, b, out);
    } else {
        out.push(cond);
    }
}

/// How `cond` as a whole is answered by lookups, if it can be. `nested`: inside an `or`,
/// where a condition that does not read the candidate at all is answered once, all cells or
/// none (at the top of the filter it is left to be tested on the cells the lookups leave).
fn plan(program: &Program, cond: BoolId, nested: bool) -> Option<Lookup> {
    if let Some(l) = comparison(program, cond) {
        return Some(l);
    }
    match one_axis(program, Operand::Bool(cond)) {
        Some(Some(axis)) => return Some(keyed(program, cond, axis)),
        Some(None) if nested && !program.board.axes.is_empty() => {
            return Some(Lookup::Whole(cond));
        }
        _ => {}
    }
    match program.bools[usize::from(cond)] {
        BoolExpr::And(a, b) => Some(Lookup::Inter(
            Box::new(plan(program, a, nested)?),
            Box::new(plan(program, b, nested)?),
        )),
        BoolExpr::Or(a, b) => Some(Lookup::Union(
            Box::new(plan(program, a, true)?),
            Box::new(plan(program, b, true)?),
        )),
        _ => None,
    }
}

/// A condition that reads the candidate through `axis` alone: a comparison of a key on that
/// coordinate with a value that does not read the candidate computes the value once.
fn keyed(program: &Program, cond: BoolId, axis: u8) -> Lookup {
    if let BoolExpr::Cmp { op, lhs, rhs } = program.bools[usize::from(cond)] {
        let free = |i: IntId| one_axis(program, Operand::Int(i)) == Some(None);
        if free(rhs) {
            return Lookup::Key {
                axis,
                key: lhs,
                op,
                value: rhs,
            };
        }
        if free(lhs) {
            return Lookup::Key {
                axis,
                key: rhs,
                op: op.mirrored(),
                value: lhs,
            };
        }
    }
    Lookup::Rows { axis, cond }
}

/// `axis op value` (or mirrored) with a value that does not read the candidate.
fn comparison(program: &Program, cond: BoolId) -> Option<Lookup> {
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
        return Some(Lookup::Cmp {
            axis,
            op,
            value: rhs,
        });
    }
    let axis = axis_of(rhs).filter(|_| free(lhs))?;
    let op = op.mirrored();
    Some(Lookup::Cmp {
        axis,
        op,
        value: lhs,
    })
}

/// The axis through which `cond` (a condition or an integer) reads the candidate: `Some(None)`
/// when it does not read it,
/// `None` when it reads it otherwise (its cell, owner or membership), through two axes, or
/// reads a set (a set's own `where` has a candidate of its own; any set counts, to be safe).
fn one_axis(program: &Program, cond: Operand<'_>) -> Option<Option<u8>> {
    let mut axis = None;
    let mut other = false;
    program.walk(cond, &mut |o| {
        if other {
            return false;
        }
        match o {
            Operand::Int(i) => match program.ints[usize::from(i)] {
                IntExpr::Axis {
                    cell: CellRef::Candidate,
                    axis: a,
                } => {
                    other |= axis.is_some_and(|x| x != a);
                    axis = Some(a);
                    false
                }
                _ => true,
            },
            Operand::Cell(CellRef::Candidate) | Operand::Set(_) => {
                other = true;
                false
            }
            _ => true,
        }
    });
    (!other).then_some(axis)
}

/// Pushes the sets that answer `l` on the cells of `within`; the set's id.
fn build(program: &mut Program, l: Lookup, within: SetId) -> SetId {
    match l {
        Lookup::Cmp { axis, op, value } => {
            let s = lookup(program, axis, op, value);
            let s = program.push_set(s);
            if program.const_set(within) == Some(program.board.all) {
                return s;
            }
            program.inter(s, within)
        }
        Lookup::Key {
            axis,
            key,
            op,
            value,
        } => program.push_set(SetExpr::AxisKey {
            base: within,
            axis,
            key,
            op,
            value,
        }),
        Lookup::Rows { axis, cond } => program.push_set(SetExpr::AxisRows {
            base: within,
            axis,
            cond,
        }),
        Lookup::Whole(cond) => {
            // All cells (every coordinate is at most the largest) or none, by one test.
            let all = program.push_const(i64::from(i32::MAX));
            let none = program.push_const(i64::from(i32::MIN));
            let value = program.push_int(IntExpr::Cond {
                cond,
                then: all,
                otherwise: none,
            });
            let l = Lookup::Cmp {
                axis: 0,
                op: CmpOp::Le,
                value,
            };
            build(program, l, within)
        }
        Lookup::Union(a, b) => {
            let (a, b) = (build(program, *a, within), build(program, *b, within));
            program.union(a, b)
        }
        Lookup::Inter(a, b) => {
            let a = build(program, *a, within);
            build(program, *b, a)
        }
    }
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

/// For an [`SetExpr::AxisKey`] whose key reads nothing but constants and the candidate's
/// coordinate on the set's axis (`x / 3`), each key value with the cells that have it, in
/// ascending order: the key is then known before the game starts, and the set is a lookup in
/// this table instead of a computation of the key on every row. `None` for any other set.
#[must_use]
pub fn key_table(program: &Program, set: SetId) -> Option<Vec<(i32, CellSet)>> {
    let SetExpr::AxisKey { axis, key, .. } = program.sets.get(usize::from(set))? else {
        return None;
    };
    let board = &program.board;
    let axis = usize::from(*axis);
    let mut table: Vec<(i32, CellSet)> = Vec::new();
    let mut below = CellSet::EMPTY;
    for at_most in &board.axis_tables.get(axis)?.1 {
        let row = *at_most - below;
        below = *at_most;
        let Some(cell) = row.first() else { continue };
        let value = coordinate_key(program, *key, axis, board.coord(cell, axis))?;
        match table.binary_search_by_key(&value, |(k, _)| *k) {
            Ok(i) => table[i].1 |= row,
            Err(i) => table.insert(i, (value, row)),
        }
    }
    Some(table)
}

/// The value of `key` for a cell whose coordinate on `axis` is `coord`, when `key` reads
/// nothing but constants and that coordinate of the candidate; `None` when it reads more.
fn coordinate_key(program: &Program, key: IntId, axis: usize, coord: i32) -> Option<i32> {
    let at = |i| coordinate_key(program, i, axis, coord);
    match program.ints[usize::from(key)] {
        IntExpr::Const(v) => Some(v),
        IntExpr::Axis {
            cell: CellRef::Candidate,
            axis: a,
        } if usize::from(a) == axis => Some(coord),
        IntExpr::Neg(x) => Some(neg(at(x)?)),
        IntExpr::Bin { op, lhs, rhs } => Some(int_op(op, at(lhs)?, at(rhs)?)),
        _ => None,
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

    /// A value that reads the candidate's own coordinate is no lookup, but the condition reads
    /// the candidate through that coordinate alone: it is tested once per row.
    #[test]
    fn a_condition_on_one_coordinate_is_tested_per_row() {
        let text = text("empty where x < x * n");
        assert!(text.contains(" by rows of x where b"), "{text}");
        assert!(!text.contains(" s0 where "), "{text}");
    }

    const GRID: &str = "game \"T\"\nplayers A, B\nboard {\n    axes x, y\n    cells x in 0..5, y in 0..5\n    name \"{x}{y}\"\n}\npiece stone\ncounter n = 0\nturn {\n    pick c in empty\n    pick d in SET\n    put stone at d\n    n += 1\n}\non no moves {\n    lose mover\n}\n";

    /// A line of the dump that tests each cell of a set (`sN where bM`).
    fn tests_each_cell(line: &str) -> bool {
        line.contains(" = s") && line.contains(" where b") && !line.contains(" by rows of ")
    }

    fn grid(set: &str) -> String {
        dump(&crate::compile(&GRID.replace("SET", set), &[]).expect("compiles"))
    }

    /// An `and` of lookups is their intersection; an `or`, their union: no cell is tested.
    #[test]
    fn and_and_or_of_lookups_are_lookups() {
        for cond in [
            "x == c.x + 1 and y == c.y",
            "x / 3 == c.x / 3 and y / 3 == c.y / 3",
            "x == c.x or y == c.y",
            "(x == c.x and y > n) or x + 1 == n",
        ] {
            let text = grid(&format!("cells where {cond}"));
            assert!(!text.lines().any(tests_each_cell), "{cond}: {text}");
        }
        let text = grid("cells where x / 3 == n and y == c.y");
        assert!(text.contains(" by rows of x where i"), "{text}");
        let text = grid("cells where x / 3 == c.x / 3 and y / 3 == c.y / 3");
        assert!(
            text.contains("rows of x where i") && text.contains("rows of y where i"),
            "{text}"
        );
    }

    /// `cell` and `offset` (of a cell or of a one-cell set) are lookups too, one per axis.
    #[test]
    fn cells_by_coordinates_are_lookups() {
        for set in [
            "cell(c.x + 1, n)",
            "offset(c, 1, -1)",
            "offset({c}, 2, 0) & empty",
            "offset(one(empty where x == n), 0, 1)",
        ] {
            let text = grid(set);
            assert!(!text.lines().any(tests_each_cell), "{set}: {text}");
            assert!(text.contains(" with y Eq i"), "{set}: {text}");
        }
        let text = grid("cell(1, 2)");
        assert!(text.contains(" = {12}\n"), "{text}");
    }

    /// What of an `and` is no lookup is tested only on the cells the lookups leave.
    #[test]
    fn the_rest_of_an_and_tests_what_the_lookups_leave() {
        let text = grid("empty where x == c.x and x + y == n");
        assert!(text.contains(" = cells with x Eq i"), "{text}");
        assert!(text.lines().any(tests_each_cell), "{text}");
    }

    /// A condition on two coordinates at once, or on the candidate cell itself, is tested on
    /// each cell.
    #[test]
    fn a_condition_on_two_coordinates_stays_a_filter() {
        for cond in ["x + y == n", "x < y and x > n"] {
            let text = grid(&format!("empty where {cond}"));
            assert!(text.lines().any(tests_each_cell), "{cond}: {text}");
        }
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
        assert!(super::plan(&program, cond, false).is_some());
        let candidate = IntExpr::CellId(CellRef::Candidate);
        program.ints[usize::from(rhs)] = candidate.clone();
        assert!(super::plan(&program, cond, false).is_none());
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
        assert!(super::plan(&program, cond, false).is_none());
    }

    /// A key that reads only the candidate's coordinate (`x / 3`) is computed before the game
    /// starts: each key value with its cells. A key that reads a counter is not.
    #[test]
    fn a_key_of_the_coordinate_alone_is_a_table() {
        let program = crate::compile(
            &GRID.replace("SET", "cells where x / 3 == c.x / 3 and y + n == c.y"),
            &[],
        )
        .expect("compiles");
        let keyed: Vec<_> = (0..program.sets.len())
            .filter(|&s| matches!(program.sets[s], crate::SetExpr::AxisKey { .. }))
            .map(|s| super::key_table(&program, s as crate::SetId))
            .collect();
        assert_eq!(keyed.len(), 2, "{}", dump(&program));
        let tables: Vec<_> = keyed.into_iter().flatten().collect();
        assert_eq!(tables.len(), 1, "only `x / 3` is known in advance");
        let names = |cells: &crate::CellSet| -> Vec<&str> {
            cells
                .iter()
                .map(|c| program.board.names[c].as_str())
                .collect()
        };
        let table = &tables[0];
        assert_eq!(table.iter().map(|(k, _)| *k).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(names(&table[0].1).len(), 18);
        assert!(names(&table[1].1)
            .iter()
            .all(|n| n.starts_with(['3', '4', '5'])));
    }
}
