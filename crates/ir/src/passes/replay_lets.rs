//! Which `let` sets a replay needs. Applying a known move replays its decisions instead of
//! searching, so a `let` whose set only `pick`s read (to list the choices) can be skipped; one
//! read by a condition, an assignment, a `put`/`remove` on a set or a `write` cannot.

use crate::{Op, Operand, Program, SetExpr};

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

/// Marks in `read` the `let` slots `op` reads (a `let` reads those of its set; a `pick` or a
/// `place`, listing choices, reads none: a replay takes its choice from the move).
pub fn locals_read(program: &Program, op: &Op, read: &mut [bool]) {
    if choices_only(op) {
        return;
    }
    op.for_each_operand(|o| {
        program.walk(o, &mut |o| {
            if let Operand::Set(s) = o {
                if let Some(SetExpr::Local(slot)) = program.sets.get(usize::from(s)) {
                    if let Some(r) = read.get_mut(usize::from(*slot)) {
                        *r = true;
                    }
                }
            }
            true
        });
    });
}

/// Whether the op's operands only list the choices of a decision.
fn choices_only(op: &Op) -> bool {
    match op {
        Op::Pick { .. } | Op::Place { .. } => true,
        Op::PickDir { .. }
        | Op::Roll { .. }
        | Op::Again
        | Op::Chooser(_)
        | Op::SetVar { .. }
        | Op::SetDir { .. }
        | Op::WhileCheck { .. }
        | Op::Memo { .. }
        | Op::Let { .. }
        | Op::Put { .. }
        | Op::Remove { .. }
        | Op::Move { .. }
        | Op::Shift { .. }
        | Op::PutAll { .. }
        | Op::RemoveAll { .. }
        | Op::Require(_)
        | Op::Unless { .. }
        | Op::Jump(_)
        | Op::Either(_)
        | Op::First(_)
        | Op::RepeatStart { .. }
        | Op::RepeatCheck { .. }
        | Op::RepeatNext { .. }
        | Op::DistinctStart { .. }
        | Op::DistinctEnd { .. }
        | Op::Write(_)
        | Op::Finish(_)
        | Op::Assign { .. }
        | Op::AssignAll { .. }
        | Op::Done => false,
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
