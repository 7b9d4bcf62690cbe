//! Which `let` sets a replay needs. Applying a known move replays its decisions instead of
//! searching, so a `let` whose set only `pick`s read (to list the choices) can be skipped; one
//! read by a condition, an assignment, a `put`/`remove` on a set or a `write` cannot.

use crate::{BoolExpr, BoolId, DirExpr, IntExpr, IntId, Op, Program, SetExpr, SetId, TemplatePart};

/// Marks each `let` of `ops` that a replay needs (`replay: true`): one whose set something
/// other than a `pick` reads. The others are skipped when a known move is replayed.
pub fn run(program: &Program, ops: &mut [Op]) {
    let mut read = [false; crate::MAX_SET_LOCALS];
    for op in ops.iter() {
        locals_read(program, op, &mut read);
    }
    for op in ops.iter_mut() {
        if let Op::Let { slot, replay, .. } = op {
            *replay = read[usize::from(*slot)];
        }
    }
}

/// Marks in `read` the `let` slots `op` reads (a `let` reads those of its set; a `pick`,
/// listing choices, reads none).
pub fn locals_read(program: &Program, op: &Op, read: &mut [bool]) {
    match op {
        Op::Let { set, .. } => locals_in_set(program, *set, read),
        Op::Require(b) | Op::Unless { cond: b, .. } => locals_in_bool(program, *b, read),
        Op::Assign { value, .. } => locals_in_int(program, *value, read),
        Op::PutAll { at, .. }
        | Op::RemoveAll { at }
        | Op::Shift { at, .. }
        | Op::SetVar { set: at, .. } => {
            locals_in_set(program, *at, read);
        }
        Op::AssignAll { cells, value, .. } => {
            locals_in_set(program, *cells, read);
            locals_in_int(program, *value, read);
        }
        Op::WhileCheck { cond, .. } => locals_in_bool(program, *cond, read),
        Op::SetDir { dir, .. } => locals_in_dir(program, dir, read),
        Op::Write(t) => {
            for part in &program.templates[usize::from(*t)].parts {
                match part {
                    TemplatePart::Int(i) | TemplatePart::Letter(i) | TemplatePart::Decimal(i) => {
                        locals_in_int(program, *i, read);
                    }
                    TemplatePart::Dir { dir, .. } => locals_in_dir(program, dir, read),
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

fn locals_in_set(program: &Program, id: SetId, read: &mut [bool]) {
    match &program.sets[id as usize] {
        SetExpr::Local(slot) => read[usize::from(*slot)] = true,
        SetExpr::Union(a, b) | SetExpr::Inter(a, b) | SetExpr::Diff(a, b) => {
            locals_in_set(program, *a, read);
            locals_in_set(program, *b, read);
        }
        SetExpr::All { of, .. }
        | SetExpr::None { of, .. }
        | SetExpr::Any { of, .. }
        | SetExpr::Step { of, .. } => locals_in_set(program, *of, read),
        SetExpr::Group { from, through, .. } => {
            locals_in_set(program, *from, read);
            locals_in_set(program, *through, read);
        }
        SetExpr::First(of) => locals_in_set(program, *of, read),
        SetExpr::StepDir { of, dir, .. } => {
            locals_in_set(program, *of, read);
            locals_in_dir(program, dir, read);
        }
        SetExpr::Line { run, dir, .. } => {
            if let Some(r) = run {
                locals_in_set(program, *r, read);
            }
            if let Some(d) = dir {
                locals_in_dir(program, d, read);
            }
        }
        SetExpr::Between { run, end, .. } | SetExpr::Brackets { run, end, .. } => {
            locals_in_set(program, *run, read);
            locals_in_set(program, *end, read);
        }
        SetExpr::Where { base, cond } => {
            locals_in_set(program, *base, read);
            locals_in_bool(program, *cond, read);
        }
        SetExpr::AxisCmp { value, .. } => locals_in_int(program, *value, read),
        _ => {}
    }
}

fn locals_in_bool(program: &Program, id: BoolId, read: &mut [bool]) {
    match &program.bools[id as usize] {
        BoolExpr::Not(x) => locals_in_bool(program, *x, read),
        BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
            locals_in_bool(program, *a, read);
            locals_in_bool(program, *b, read);
        }
        BoolExpr::Cmp { lhs, rhs, .. } => {
            locals_in_int(program, *lhs, read);
            locals_in_int(program, *rhs, read);
        }
        BoolExpr::In { set, .. } | BoolExpr::Completes { set, .. } => {
            locals_in_set(program, *set, read);
        }
        BoolExpr::DirIn { dir, .. } => locals_in_dir(program, dir, read),
        BoolExpr::Connected {
            through, from, to, ..
        } => {
            for s in [through, from, to] {
                locals_in_set(program, *s, read);
            }
        }
        _ => {}
    }
}

fn locals_in_int(program: &Program, id: IntId, read: &mut [bool]) {
    match &program.ints[id as usize] {
        IntExpr::Count(s) => locals_in_set(program, *s, read),
        IntExpr::Neg(x) => locals_in_int(program, *x, read),
        IntExpr::Bin { lhs, rhs, .. } => {
            locals_in_int(program, *lhs, read);
            locals_in_int(program, *rhs, read);
        }
        IntExpr::Cond {
            cond,
            then,
            otherwise,
        } => {
            locals_in_bool(program, *cond, read);
            locals_in_int(program, *then, read);
            locals_in_int(program, *otherwise, read);
        }
        IntExpr::DirIndex { dir, .. } => locals_in_dir(program, dir, read),
        _ => {}
    }
}

/// A direction value reads sets through `dir(R, i)`'s integer.
fn locals_in_dir(program: &Program, dir: &DirExpr, read: &mut [bool]) {
    match dir {
        DirExpr::Index(i) => locals_in_int(program, *i, read),
        DirExpr::Neg(d) | DirExpr::Turn(d, _) | DirExpr::Mirror(d, _) => {
            locals_in_dir(program, d, read);
        }
        DirExpr::Var(_) => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::Op;

    /// The `replay` flag of each `let` in the turn program, in order.
    fn flags(source: &str) -> Vec<bool> {
        let program = crate::compile(source, &[]).expect("the test game compiles");
        program
            .turn
            .ops
            .iter()
            .filter_map(|op| match op {
                Op::Let { replay, .. } => Some(*replay),
                _ => None,
            })
            .collect()
    }

    const GAME: &str = "game \"T\"\nplayers A, B\nboard {\n    axes x\n    cells x in 0..3\n    name \"{x}\"\n}\npiece stone\nturn {\n    let open = empty\n    pick c in open\n    put stone at c\n    let free = empty\n    require count(free) > 1\n}\non no moves {\n    lose mover\n}\n";

    #[test]
    fn a_let_only_picks_read_is_skipped_on_replay() {
        assert_eq!(flags(GAME), [false, true]);
    }

    /// A `let` read through a direction value (`dir(R, count(free))`) is needed on replay.
    #[test]
    fn a_let_read_through_a_direction_is_kept() {
        let game = GAME
            .replace(
                "piece stone\n",
                "direction e = (1)\ndirection w = (-1)\nrelation lr = e | w\npiece stone\n",
            )
            .replace(
                "    let free = empty\n    require count(free) > 1\n",
                "    let free = empty\n    let d = dir(lr, count(free))\n    write \"{d}\"\n",
            );
        assert_eq!(flags(&game), [false, true]);
    }
}
