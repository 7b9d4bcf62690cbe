//! The most decisions one move of a program can record. A move holds at most
//! [`crate::MAX_DECISIONS`], so the lowering refuses a turn whose moves may need more.

use std::collections::HashMap;

use crate::{BuildError, Code, Op, Program, MAX_DECISIONS};

/// The most decisions a move of `code` can record: a `pick` one, two when cell ids may pass
/// 255 ([`Program::wide_picks`]; a direction pick is counted as a cell pick), a `roll` one, a
/// `place` two (its placement index may pass 255), an `either` or `first` one plus its longest
/// branch, a `repeat lo..hi` its body `hi` times plus a stop-or-go decision for each round past
/// `lo`. A `while` counts its body once: its rounds are not known before play, so a `while`
/// whose body chooses is not refused here (the engine drops a move that outgrows the limit).
#[must_use]
pub fn run(program: &Program, code: &Code) -> u64 {
    let pick = if program.wide_picks() { 2 } else { 1 };
    let mut bound = Bound {
        ops: &code.ops,
        pick,
        memo: HashMap::new(),
    };
    bound.from(0, None)
}

/// Refuses `code` when one of its moves may record more decisions than a move holds.
///
/// # Errors
/// [`BuildError::TooManyDecisions`], with the bound found.
pub fn fit(program: &Program, code: &Code) -> Result<(), BuildError> {
    let found = run(program, code);
    if found > MAX_DECISIONS as u64 {
        let (max, span) = (MAX_DECISIONS, None);
        return Err(BuildError::TooManyDecisions { found, max, span });
    }
    Ok(())
}

struct Bound<'c> {
    ops: &'c [Op],
    pick: u64,
    /// By start and loop head: the bound found.
    memo: HashMap<(usize, Option<usize>), u64>,
}

impl Bound<'_> {
    /// The most decisions from `pc` to the end of the program, or back to `head`, the loop
    /// whose body is measured.
    fn from(&mut self, pc: usize, head: Option<usize>) -> u64 {
        if let Some(&n) = self.memo.get(&(pc, head)) {
            return n;
        }
        let ops = self.ops;
        let (mut here, mut rest, mut at) = (0u64, 0, pc);
        // Bounded: a jump cycle outside any loop (no lowered program has one) ends the walk.
        for _ in 0..=ops.len() {
            let Some(op) = ops.get(at).filter(|_| Some(at) != head) else {
                break;
            };
            match op {
                Op::Pick { .. } | Op::PickDir { .. } => here += self.pick,
                Op::Roll { .. } => here += 1,
                Op::Place { .. } => here += 2,
                Op::Jump(to) | Op::RepeatNext { check: to, .. } => {
                    at = *to as usize;
                    continue;
                }
                Op::Finish(_) | Op::Done => break,
                Op::Unless { target, .. } => {
                    rest = self
                        .from(at + 1, head)
                        .max(self.from(*target as usize, head));
                    break;
                }
                Op::Either(starts) | Op::First(starts) => {
                    let longest = starts.iter().map(|&s| self.from(s as usize, head)).max();
                    rest = 1 + longest.unwrap_or(0);
                    break;
                }
                Op::WhileCheck { exit, .. } => {
                    let body = self.from(at + 1, Some(at));
                    rest = body.saturating_add(self.from(*exit as usize, head));
                    break;
                }
                Op::RepeatCheck { min, max, exit, .. } => {
                    let rounds = u64::from(*max).saturating_mul(self.from(at + 1, Some(at)));
                    let stops = u64::from(max.saturating_sub(*min));
                    let after = self.from(*exit as usize, head);
                    rest = rounds.saturating_add(stops).saturating_add(after);
                    break;
                }
                Op::Again
                | Op::Chooser(_)
                | Op::SetVar { .. }
                | Op::SetDir { .. }
                | Op::Memo { .. }
                | Op::Let { .. }
                | Op::Put { .. }
                | Op::Remove { .. }
                | Op::Move { .. }
                | Op::Shift { .. }
                | Op::PutAll { .. }
                | Op::RemoveAll { .. }
                | Op::Require(_)
                | Op::RepeatStart { .. }
                | Op::DistinctStart { .. }
                | Op::DistinctEnd { .. }
                | Op::Write(_)
                | Op::Assign { .. }
                | Op::AssignAll { .. } => {}
            }
            at += 1;
        }
        let n = here.saturating_add(rest);
        self.memo.insert((pc, head), n);
        n
    }
}

#[cfg(test)]
mod tests {
    use crate::parse::parse;

    /// The bound of a program on a board of `cells` cells whose turn runs `turn`, one op a line.
    fn bound(cells: usize, turn: &[&str]) -> u64 {
        let cells: String = (0..cells)
            .map(|i| format!("    {i} c{i} ({i})\n"))
            .collect();
        let ops: String = turn
            .iter()
            .enumerate()
            .map(|(i, op)| format!("    {i}  {op}\n"))
            .collect();
        let text = format!(
            "game \"T\"\nplayers A, B\ncells {} (axes x)\n{cells}piece #0 stone symbols [\"S\", \"s\"]\n\
             sets\n  s0 = empty\nints\nbools\n  b0 = true\nsetup\n    0  done\nturn\n{ops}\
             no moves\n    0  lose mover\n    1  done\nend\n",
            cells.lines().count()
        );
        let program = parse(&text).unwrap_or_else(|e| panic!("{e}\n{text}"));
        super::run(&program, &program.turn)
    }

    #[test]
    fn a_repeat_counts_its_body_each_round_and_each_stop_or_go() {
        let turn = [
            "repeat-start v0",
            "repeat-check v0 1..3 exit 5",
            "pick v1 in s0",
            "put code 1+mover at v1",
            "repeat-next v0 goto 1",
            "done",
        ];
        assert_eq!(bound(3, &turn), 3 + 2);
        assert_eq!(bound(300, &turn), 2 * 3 + 2, "a wide pick is two decisions");
    }

    #[test]
    fn branches_count_their_longest_and_a_while_its_body_once() {
        let turn = [
            "either [1, 4]",
            "pick v0 in s0",
            "pick v1 in s0",
            "goto 5",
            "goto 5",
            "repeat-start v2",
            "while b0 (rounds v2) exit 9",
            "pick v3 in s0",
            "goto 6",
            "unless b0 goto 11",
            "pick v4 in s0",
            "done",
        ];
        assert_eq!(bound(3, &turn), 1 + 2 + 1 + 1);
    }

    #[test]
    fn the_game_ends_where_it_finishes() {
        let turn = [
            "unless b0 goto 3",
            "pick v0 in s0",
            "draw",
            "pick v1 in s0",
            "pick v2 in s0",
            "done",
        ];
        assert_eq!(bound(3, &turn), 2);
    }
}
