//! Finds `distinct` blocks whose ends depend only on the *set* of cells picked, so a generator
//! may walk each set in one order instead of every order and comparing the ends afterwards.
//!
//! The shape is a take-back: `distinct { repeat lo..hi { pick x in E; remove x; ... } }`, where
//! the rest of the body only adds constants to counters and writes notation. Two facts about
//! `E`, proven from its expression, make the shortcut sound:
//!
//! - **Removal keeps others eligible**: removing a picked cell `c` leaves every other cell of
//!   `E` in `E`. Then if a later pick `y` was already in `E` when the earlier pick `x > y` was
//!   made, the order `y, x` is also legal, ends in the same position and is walked first (picks
//!   go in cell order), so `x, y` can be skipped. The rule keeps the first order of every set,
//!   which is the one `distinct` keeps.
//! - **Picks are pieces** (`E` lies within the occupied cells): each pick changes the position,
//!   so different sets end in different positions. With at most two picks the rule leaves one
//!   order per set (an order `x, y` with `y < x` survives only when `y` was not in `E` before
//!   `x` went, and then `y, x` is illegal), so the block's hash comparison can go too.

use super::{BoolExpr, CellRef, Code, IntExpr, Op, PlayerRef, Program, SetExpr};

/// One `distinct` block of the unordered shape.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unordered {
    /// The block's `distinct-start`.
    pub start: usize,
    /// The `pick` that opens each round.
    pub pick: usize,
    /// The variable the pick sets.
    pub var: u8,
    /// The round counter of the `repeat`.
    pub rounds: u8,
    /// Whether the skipping rule alone lists each end once, so no hashes need comparing.
    pub unique: bool,
}

/// Every `distinct` block of `code` with the unordered shape.
#[must_use]
pub fn unordered_blocks(p: &Program, code: &Code) -> Vec<Unordered> {
    (0..code.ops.len())
        .filter_map(|pc| unordered_at(p, &code.ops, pc))
        .collect()
}

fn unordered_at(p: &Program, ops: &[Op], start: usize) -> Option<Unordered> {
    let Op::DistinctStart { block } = ops[start] else {
        return None;
    };
    let Some(&Op::RepeatStart { var: rounds }) = ops.get(start + 1) else {
        return None;
    };
    let check = start + 2;
    let Some(&Op::RepeatCheck { var, max, exit, .. }) = ops.get(check) else {
        return None;
    };
    let exit = exit as usize;
    if var != rounds
        || !matches!(ops.get(exit), Some(&Op::DistinctEnd { block: b }) if b == block)
        || !matches!(ops.get(exit - 1), Some(&Op::RepeatNext { var: v, check: c }) if v == rounds && c as usize == check)
    {
        return None;
    }
    let pick = check + 1;
    let Some(&Op::Pick { var, from }) = ops.get(pick) else {
        return None;
    };
    let removes = round_body(p, &ops[pick + 1..exit - 1], var)?;
    let e = classify(p, from, var)?;
    if removes != 1 || !e.keeps_others || var == rounds {
        return None;
    }
    Some(Unordered {
        start,
        pick,
        var,
        rounds,
        unique: e.occupied && max <= 2,
    })
}

/// How many times the rest of a round removes the picked cell `var`; `None` when it does
/// anything but that, add constants to counters and write notation. (Adding constants is
/// taken as order-free; with saturating arithmetic it is, short of a counter at the end of
/// its 32-bit range.)
fn round_body(p: &Program, body: &[Op], var: u8) -> Option<usize> {
    let mut removes = 0;
    for op in body {
        match op {
            Op::Remove {
                at: CellRef::Var(v),
            } if *v == var => removes += 1,
            Op::Assign {
                op: super::AssignKind::Add | super::AssignKind::Sub,
                value,
                ..
            } if is_fixed_int(p, *value, var) => {}
            Op::Write(_) => {}
            Op::Pick { .. }
            | Op::PickDir { .. }
            | Op::Roll { .. }
            | Op::Again
            | Op::Chooser(_)
            | Op::SetVar { .. }
            | Op::SetDir { .. }
            | Op::WhileCheck { .. }
            | Op::Memo { .. }
            | Op::Place { .. }
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
            | Op::Finish(_)
            | Op::Assign { .. }
            | Op::AssignAll { .. }
            | Op::Done => return None,
        }
    }
    Some(removes)
}

/// How a set changes when one occupied cell `c` is emptied.
#[derive(Clone, Copy)]
struct Change {
    /// new ⊆ old
    shrinks: bool,
    /// new ⊇ old
    grows: bool,
    /// new ⊇ old − {c}
    keeps_others: bool,
    /// new ⊆ old ∪ {c}
    gains_only_c: bool,
    /// Always within the occupied cells.
    occupied: bool,
}

impl Change {
    const FIXED: Change = Change {
        shrinks: true,
        grows: true,
        keeps_others: true,
        gains_only_c: true,
        occupied: false,
    };

    fn closed(mut self) -> Change {
        self.keeps_others |= self.grows;
        self.gains_only_c |= self.shrinks;
        self
    }
}

/// `None` when the set reads something removals could change in ways not tracked here
/// (counters, owners, the picked variable itself).
fn classify(p: &Program, id: u16, var: u8) -> Option<Change> {
    let c = match &p.sets[usize::from(id)] {
        SetExpr::Const(_) | SetExpr::Local(_) => Change::FIXED,
        SetExpr::Single(cell) => {
            fixed_cell(*cell, var)?;
            Change::FIXED
        }
        SetExpr::AxisCmp { value, .. } => {
            if !is_fixed_int(p, *value, var) {
                return None;
            }
            Change::FIXED
        }
        SetExpr::Empty => Change {
            shrinks: false,
            grows: true,
            keeps_others: true,
            gains_only_c: true,
            occupied: false,
        },
        SetExpr::Occupied => Change {
            shrinks: true,
            grows: false,
            keeps_others: true,
            gains_only_c: true,
            occupied: true,
        },
        SetExpr::PlayerPieces(who) | SetExpr::Pieces { player: who, .. } => {
            if matches!(who, PlayerRef::Owner(_)) {
                return None;
            }
            Change {
                shrinks: true,
                grows: false,
                keeps_others: true,
                gains_only_c: true,
                occupied: true,
            }
        }
        SetExpr::Union(a, b) | SetExpr::Inter(a, b) => {
            let (a_, b_) = (classify(p, *a, var)?, classify(p, *b, var)?);
            let inter = matches!(&p.sets[usize::from(id)], SetExpr::Inter(..));
            Change {
                shrinks: a_.shrinks && b_.shrinks,
                grows: a_.grows && b_.grows,
                keeps_others: a_.keeps_others && b_.keeps_others,
                gains_only_c: a_.gains_only_c && b_.gains_only_c,
                occupied: if inter {
                    a_.occupied || b_.occupied
                } else {
                    a_.occupied && b_.occupied
                },
            }
        }
        SetExpr::Diff(a, b) => {
            let (a_, b_) = (classify(p, *a, var)?, classify(p, *b, var)?);
            Change {
                shrinks: a_.shrinks && b_.grows,
                grows: a_.grows && b_.shrinks,
                keeps_others: a_.keeps_others && b_.gains_only_c,
                gains_only_c: a_.gains_only_c && b_.keeps_others,
                occupied: a_.occupied,
            }
        }
        // Monotone in the set they read.
        SetExpr::All { of, .. } | SetExpr::Any { of, .. } | SetExpr::Step { of, .. } => {
            let x = classify(p, *of, var)?;
            Change {
                occupied: false,
                ..monotone(x)
            }
        }
        // Antitone in the set it reads.
        SetExpr::None { of, .. } => {
            let x = classify(p, *of, var)?;
            Change {
                shrinks: x.grows,
                grows: x.shrinks,
                keeps_others: x.shrinks,
                gains_only_c: x.grows,
                occupied: false,
            }
        }
        // Lines change shape with every piece: not tracked.
        SetExpr::Between { .. }
        | SetExpr::Group { .. }
        | SetExpr::First(_)
        | SetExpr::Brackets { .. }
        | SetExpr::Placed { .. }
        | SetExpr::StepDir { .. }
        | SetExpr::Line { .. } => return None,
        SetExpr::Where { base, cond } => {
            if !is_fixed_bool(p, *cond, var) {
                return None;
            }
            classify(p, *base, var)?
        }
        SetExpr::AxisKey {
            base, key, value, ..
        } => {
            if !is_fixed_int(p, *key, var) || !is_fixed_int(p, *value, var) {
                return None;
            }
            classify(p, *base, var)?
        }
        SetExpr::AxisRows { base, cond, .. } => {
            if !is_fixed_bool(p, *cond, var) {
                return None;
            }
            classify(p, *base, var)?
        }
    };
    Some(c.closed())
}

fn monotone(x: Change) -> Change {
    Change {
        shrinks: x.shrinks,
        grows: x.grows,
        keeps_others: x.grows,
        gains_only_c: x.shrinks,
        occupied: x.occupied,
    }
}

/// A cell that stays put while the block runs (not the picked variable).
fn fixed_cell(c: CellRef, var: u8) -> Option<()> {
    match c {
        CellRef::Var(v) => (v != var).then_some(()),
        CellRef::Const(_) | CellRef::Candidate | CellRef::Slot(_) => Some(()),
    }
}

/// An integer no removal changes: constants and coordinates of fixed cells.
fn is_fixed_int(p: &Program, id: u16, var: u8) -> bool {
    match &p.ints[usize::from(id)] {
        IntExpr::Const(_) => true,
        IntExpr::Axis { cell, .. } => fixed_cell(*cell, var).is_some(),
        IntExpr::Neg(x) => is_fixed_int(p, *x, var),
        IntExpr::CellId(cell) => fixed_cell(*cell, var).is_some(),
        IntExpr::Cond {
            cond,
            then,
            otherwise,
        } => {
            is_fixed_bool(p, *cond, var)
                && is_fixed_int(p, *then, var)
                && is_fixed_int(p, *otherwise, var)
        }
        IntExpr::Bin { lhs, rhs, .. } => is_fixed_int(p, *lhs, var) && is_fixed_int(p, *rhs, var),
        IntExpr::Counter(_)
        | IntExpr::PlayerCounter { .. }
        | IntExpr::Count(_)
        | IntExpr::CellSum { .. }
        | IntExpr::CellCounter { .. }
        | IntExpr::Points(_)
        | IntExpr::DirIndex { .. }
        | IntExpr::Won(_)
        | IntExpr::Repetitions => false,
    }
}

/// A condition no removal changes.
fn is_fixed_bool(p: &Program, id: u16, var: u8) -> bool {
    match &p.bools[usize::from(id)] {
        BoolExpr::Const(_) => true,
        BoolExpr::Not(x) => is_fixed_bool(p, *x, var),
        BoolExpr::And(a, b) | BoolExpr::Or(a, b) => {
            is_fixed_bool(p, *a, var) && is_fixed_bool(p, *b, var)
        }
        BoolExpr::Cmp { lhs, rhs, .. } => is_fixed_int(p, *lhs, var) && is_fixed_int(p, *rhs, var),
        BoolExpr::CellEq { lhs, rhs, .. } => {
            fixed_cell(*lhs, var).is_some() && fixed_cell(*rhs, var).is_some()
        }
        BoolExpr::PlayerEq { lhs, rhs, .. } => {
            ![lhs, rhs].iter().any(|r| matches!(r, PlayerRef::Owner(_)))
        }
        BoolExpr::In { .. } | BoolExpr::Completes { .. } | BoolExpr::Connected { .. } => false,
        // A direction is a turn variable: unordered picks never involve one.
        BoolExpr::DirIn { .. } => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small board where the mover takes back pieces chosen by `from`, `rounds` times.
    fn program(from: &str, rounds: &str) -> Program {
        let source = format!(
            "game \"T\"\nplayers A, B\nboard {{\n    axes x, y\n    cells x in 0..2, y in 0..2\n    name \"{{x}}{{y}}\"\n}}\n\
             relation up = (0, 1)\npiece p \"A\" \"B\"\n\
             turn {{\n    pick to in empty\n    put p at to\n    distinct {{\n        repeat {rounds} {{\n            pick back in {from}\n            remove back\n        }}\n    }}\n}}\n\
             on no moves {{\n    lose mover\n}}\n"
        );
        match crate::compile(&source, &[]) {
            Ok(p) => p,
            Err(e) => panic!("test game does not compile: {e:?}"),
        }
    }

    fn found(from: &str, rounds: &str) -> Option<Unordered> {
        let p = program(from, rounds);
        let blocks = unordered_blocks(&p, &p.turn);
        assert!(blocks.len() <= 1);
        blocks.first().copied()
    }

    #[test]
    fn free_pieces_taken_back_in_pairs_are_unique() {
        let u = found("own & none(up, occupied)", "1..2");
        assert!(u.is_some_and(|u| u.unique));
    }

    #[test]
    fn three_rounds_still_skip_orders_but_compare_ends() {
        let u = found("own", "0..3");
        assert!(u.is_some_and(|u| !u.unique));
    }

    #[test]
    fn picks_of_empty_cells_are_not_pieces() {
        let u = found("empty", "1..2");
        assert!(u.is_some_and(|u| !u.unique));
    }

    #[test]
    fn a_set_that_loses_cells_when_others_go_is_not_unordered() {
        // Removing the piece below can make a piece lose its support, so order matters.
        assert_eq!(found("own & any(up, occupied)", "1..2"), None);
        assert_eq!(found("own - none(up, occupied)", "1..2"), None);
    }
}
