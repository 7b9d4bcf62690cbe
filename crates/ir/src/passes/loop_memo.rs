//! Inside a `distinct` block, a loop whose rounds choose between branches (`either`,
//! `first`) can reach one position by many paths: its body starts with a memo that stops the
//! repeats. The lowering starts every such loop body with a memo, right after the loop's check;
//! this removes the memo of a body that never chooses.

use crate::Op;

/// Removes each loop body's memo whose body (up to the loop's exit) never chooses.
pub fn run(ops: &mut Vec<Op>) {
    for start in (1..ops.len()).rev() {
        let (Op::WhileCheck { exit, .. } | Op::RepeatCheck { exit, .. }, Op::Memo { .. }) =
            (&ops[start - 1], &ops[start])
        else {
            continue;
        };
        let exit = *exit as usize;
        let body = ops.get(start..exit).unwrap_or_default();
        if body
            .iter()
            .any(|op| matches!(op, Op::Either(_) | Op::First(_)))
        {
            continue;
        }
        ops.remove(start);
        for op in ops.iter_mut() {
            op.for_each_target(|t| {
                if *t as usize > start {
                    *t -= 1;
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use crate::Op;

    /// The loop `[check -> exit, memo, unless -> exit, again, jump -> check]` keeps its jumps
    /// right once the memo goes; a body with `either` keeps its memo.
    #[test]
    fn a_body_that_never_chooses_loses_its_memo() {
        let check = |exit| Op::RepeatCheck {
            var: 0,
            min: 0,
            max: 3,
            exit,
        };
        let mut ops = vec![
            check(5),
            Op::Memo { block: 0 },
            Op::Unless { cond: 0, target: 5 },
            Op::Again,
            Op::RepeatNext { var: 0, check: 0 },
            Op::Done,
        ];
        super::run(&mut ops);
        let want = [
            check(4),
            Op::Unless { cond: 0, target: 4 },
            Op::Again,
            Op::RepeatNext { var: 0, check: 0 },
            Op::Done,
        ];
        assert_eq!(format!("{ops:?}"), format!("{want:?}"));
        let mut chooses = vec![
            check(3),
            Op::Memo { block: 0 },
            Op::Either(vec![2]),
            Op::Done,
        ];
        super::run(&mut chooses);
        assert!(matches!(chooses[1], Op::Memo { .. }));
    }
}
