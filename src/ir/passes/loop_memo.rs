//! Inside a `distinct` block, a loop whose rounds choose between branches (`either`,
//! `first`) can reach one position by many paths: its body starts with a memo that stops the
//! repeats. The lowering starts every such loop body with a memo; this removes the memo of a
//! body that never chooses.

use crate::ir::Op;

/// Keeps the memo at `start` (if there is one) only when the ops after it choose.
pub fn run(ops: &mut Vec<Op>, start: usize) {
    let Some(Op::Memo { .. }) = ops.get(start) else {
        return;
    };
    if ops[start..]
        .iter()
        .any(|op| matches!(op, Op::Either(_) | Op::First(_)))
    {
        return;
    }
    ops.remove(start);
    let fix = |t: &mut u32| {
        if *t as usize > start {
            *t -= 1;
        }
    };
    for op in ops.iter_mut() {
        match op {
            Op::Jump(t)
            | Op::Unless { target: t, .. }
            | Op::WhileCheck { exit: t, .. }
            | Op::RepeatCheck { exit: t, .. }
            | Op::RepeatNext { check: t, .. } => fix(t),
            Op::Either(ts) | Op::First(ts) => ts.iter_mut().for_each(fix),
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::ir::Op;

    /// The body `[memo, unless -> end, again, jump -> memo's successor]` keeps its jumps right
    /// once the memo goes; a body with `either` keeps its memo.
    #[test]
    fn a_body_that_never_chooses_loses_its_memo() {
        let mut ops = vec![
            Op::Jump(5),
            Op::Memo { block: 0 },
            Op::Unless { cond: 0, target: 5 },
            Op::Again,
            Op::Jump(2),
            Op::Done,
        ];
        super::run(&mut ops, 1);
        let want = [
            Op::Jump(4),
            Op::Unless { cond: 0, target: 4 },
            Op::Again,
            Op::Jump(1),
            Op::Done,
        ];
        assert_eq!(format!("{ops:?}"), format!("{want:?}"));
        let mut chooses = vec![Op::Memo { block: 0 }, Op::Either(vec![1]), Op::Done];
        super::run(&mut chooses, 0);
        assert!(matches!(chooses[0], Op::Memo { .. }));
    }
}
