//! The stable action encoding: every move of a game has one integer id in
//! `0..num_distinct_actions`, the same in every position and every run.
//!
//! A move is the sequence of decisions its turn took (`rulestone_runtime::Move`), and each
//! decision means the same thing wherever it is taken: a picked cell is the cell's index (two
//! decisions, high byte then low, on a board of more than 256 cells), a picked direction the
//! ray's index in its relation, a roll the outcome's index, a placement the instance's index
//! (two decisions), an `either` or `first` the branch taken, a `repeat` round 0 to stop and 1
//! to go on. So the id is read off the decisions alone, with no position:
//!
//! - the radix `r(i)` of decision position `i` is the most values the `i`-th decision of a move
//!   can take, over every op of the turn program a move can reach as its `i`-th decision (a
//!   cell pick's cells, or on a board of more than 256 cells its high byte's values then 256, a
//!   relation's rays, a roll's outcomes, a choice's branches, 2 for a round, a placement's high
//!   byte then low byte);
//! - the longest move `L` is the bound the IR's `decisions` pass finds for the turn;
//! - a move of `n` decisions `d0 d1 … d(n-1)` has the id `start(n) + digits`, where `start(n)`
//!   `= 1 + r(0) + r(0)·r(1) + … + r(0)·…·r(n-2)` counts the moves shorter than `n`, and
//!   `digits` reads the decisions as a mixed-radix number, first decision first (`d0`'s place is
//!   worth `r(1)·…·r(n-1)`): moves of each length fill a block of their own, in order of
//!   length;
//! - `num_distinct_actions` is `start(L + 1)`.
//!
//! The encoding is injective by construction (a length and mixed-radix digits), so two moves never
//! share an id. Where the space would pass [`MAX_ACTIONS`] (2^63, so that every id is a signed
//! 64-bit integer, as OpenSpiel's `Action` and numpy's `int64` are), the game has no action
//! ids: [`ActionSpace::of`] says so with [`ActionSpaceError::TooLarge`], and moves are named by
//! their notation alone. Front ends that speak JSON number a space only up to
//! [`MAX_JSON_ACTIONS`] (2^53, the largest integer every JSON reader keeps exactly):
//! [`ActionSpace::for_json`] refuses a larger one, and its moves are named by notation there
//! while Python, whose integers are exact, still numbers them. A move longer
//! than `L` (a `while` whose body chooses can outgrow the bound) has no id either
//! ([`ActionError::TooLong`]); neither case ever gives two moves one id.

use std::fmt;

use rulestone_ir::passes::decisions;
use rulestone_ir::{Op, Program, MAX_DECISIONS};
use rulestone_runtime::Move;

/// The most actions a game may have: 2^63, so that every id is a signed 64-bit integer.
pub const MAX_ACTIONS: u64 = 1 << 63;

/// The most actions a game may have where ids travel as JSON numbers: 2^53, the largest integer
/// a JSON number (a double) keeps exactly in every language.
pub const MAX_JSON_ACTIONS: u64 = 1 << 53;

/// The action space of one program (for one set of option values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionSpace {
    /// Per decision position, the most values that decision can take (1 past `longest`).
    radices: [u16; MAX_DECISIONS],
    /// The most decisions one move can take.
    longest: usize,
    /// `num_distinct_actions`.
    size: u64,
    /// By number of decisions `n` (up to `longest + 1`), the first id of the moves of `n`
    /// decisions ([`block_start`]), so that an id costs no more than its digits.
    starts: [u64; MAX_DECISIONS + 2],
}

/// Why a game has no action ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionSpaceError {
    /// `radix^0 + … + radix^longest` passes `2^limit_bits` ([`MAX_ACTIONS`], or
    /// [`MAX_JSON_ACTIONS`] where ids are JSON numbers).
    TooLarge {
        radix: u64,
        longest: usize,
        limit_bits: u32,
    },
}

impl fmt::Display for ActionSpaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionSpaceError::TooLarge {
                radix,
                longest,
                limit_bits,
            } => write!(
                f,
                "the game's moves take up to {longest} decisions of up to {radix} values each: \
                 more than 2^{limit_bits} action ids, so its moves are named by notation only"
            ),
        }
    }
}

/// Why a move or an id has no counterpart.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionError {
    /// The move takes more decisions than the program's bound.
    TooLong { decisions: usize, longest: usize },
    /// A decision outside the radix (not a move of this program).
    OutOfRadix { decision: u8, radix: u64 },
    /// An id at or past `num_distinct_actions`.
    OutOfRange { id: u64, size: u64 },
}

impl fmt::Display for ActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionError::TooLong { decisions, longest } => write!(
                f,
                "the move takes {decisions} decisions, more than the {longest} the action space \
                 counts: it has no action id"
            ),
            ActionError::OutOfRadix { decision, radix } => write!(
                f,
                "decision {decision} is outside the game's {radix} values: not a move of this game"
            ),
            ActionError::OutOfRange { id, size } => {
                write!(
                    f,
                    "action {id} is out of range: the game has {size} action ids"
                )
            }
        }
    }
}

impl ActionSpace {
    /// The action space of `program`'s turn.
    ///
    /// # Errors
    /// [`ActionSpaceError::TooLarge`] when it would pass [`MAX_ACTIONS`].
    pub fn of(program: &Program) -> Result<ActionSpace, ActionSpaceError> {
        let found = decisions::run(program, &program.turn);
        let longest = usize::try_from(found)
            .unwrap_or(MAX_DECISIONS)
            .min(MAX_DECISIONS);
        let radices = radices(program, longest);
        let radix = radices.iter().copied().max().map_or(1, u64::from);
        let too_large = ActionSpaceError::TooLarge {
            radix,
            longest,
            limit_bits: MAX_ACTIONS.trailing_zeros(),
        };
        let size = block_start(&radices, longest + 1).ok_or(too_large)?;
        if size > MAX_ACTIONS {
            return Err(too_large);
        }
        Ok(ActionSpace::with(radices, longest, size))
    }

    /// The space of these radices, its block starts counted (each below `size`, checked).
    fn with(radices: [u16; MAX_DECISIONS], longest: usize, size: u64) -> ActionSpace {
        let mut starts = [size; MAX_DECISIONS + 2];
        for (n, start) in starts.iter_mut().enumerate().take(longest + 2) {
            *start = block_start(&radices, n).unwrap_or(size);
        }
        ActionSpace {
            radices,
            longest,
            size,
            starts,
        }
    }

    /// This space where ids travel as JSON numbers (the engine protocol, `replay --format
    /// json`): the same ids, or none when the space passes [`MAX_JSON_ACTIONS`].
    ///
    /// # Errors
    /// [`ActionSpaceError::TooLarge`] naming 2^53.
    pub fn for_json(self) -> Result<ActionSpace, ActionSpaceError> {
        if self.size > MAX_JSON_ACTIONS {
            return Err(ActionSpaceError::TooLarge {
                radix: self.radix(),
                longest: self.longest,
                limit_bits: MAX_JSON_ACTIONS.trailing_zeros(),
            });
        }
        Ok(self)
    }

    /// `num_distinct_actions`: every id is below it.
    #[must_use]
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The most values any one decision can take.
    #[must_use]
    pub fn radix(&self) -> u64 {
        self.radices().iter().copied().max().map_or(1, u64::from)
    }

    /// Per decision position of a move, the most values that decision can take.
    #[must_use]
    pub fn radices(&self) -> &[u16] {
        &self.radices[..self.longest]
    }

    /// The most decisions one move can take.
    #[must_use]
    pub fn longest(&self) -> usize {
        self.longest
    }

    /// The id of a move of this program.
    ///
    /// # Errors
    /// A move longer than the bound, or with a decision outside the radix.
    pub fn id(&self, m: &Move) -> Result<u64, ActionError> {
        if m.len() > self.longest {
            return Err(ActionError::TooLong {
                decisions: m.len(),
                longest: self.longest,
            });
        }
        let mut digits = 0u64;
        for (d, &radix) in m.decisions().zip(&self.radices) {
            let radix = u64::from(radix);
            if u64::from(d) >= radix {
                return Err(ActionError::OutOfRadix { decision: d, radix });
            }
            // Within the size checked in `of`, so no overflow.
            digits = digits * radix + u64::from(d);
        }
        Ok(self.starts[m.len()] + digits)
    }

    /// The move whose id is `id` (whether it is legal is the position's business).
    ///
    /// # Errors
    /// An id at or past [`ActionSpace::size`].
    pub fn decisions(&self, id: u64) -> Result<Move, ActionError> {
        let out_of_range = ActionError::OutOfRange {
            id,
            size: self.size,
        };
        if id >= self.size {
            return Err(out_of_range);
        }
        let mut len = self.longest;
        for n in 0..=self.longest {
            if id < self.starts[n + 1] {
                len = n;
                break;
            }
        }
        let mut digits = id - self.starts[len];
        let mut reversed = Vec::with_capacity(len);
        for &radix in self.radices[..len].iter().rev() {
            let radix = u64::from(radix);
            reversed.push(u8::try_from(digits % radix).map_err(|_| out_of_range)?);
            digits /= radix;
        }
        let mut m = Move::default();
        for d in reversed.into_iter().rev() {
            m.push(d);
        }
        Ok(m)
    }
}

/// `1 + r(0) + r(0)·r(1) + … + r(0)·…·r(len-2)`: the first id of the moves of `len`
/// decisions; `None` on overflow.
fn block_start(radices: &[u16], len: usize) -> Option<u64> {
    let mut sum = 0u64;
    let mut power = 1u64;
    for n in 0..len {
        sum = sum.checked_add(power)?;
        let radix = radices.get(n).copied().unwrap_or(1);
        power = power.checked_mul(u64::from(radix))?;
    }
    Some(sum)
}

/// Raises position `at`'s radix to at least `values` (clamped to 1..=256, a decision byte).
fn widen(radices: &mut [u16; MAX_DECISIONS], at: usize, values: usize) {
    if let Some(r) = radices.get_mut(at) {
        let values = u16::try_from(values.clamp(1, 256)).unwrap_or(256);
        *r = (*r).max(values);
    }
}

/// The values of the two decisions of a choice among `n` that takes two bytes (a pick on a
/// board of more than 256 cells, a placement): the high byte's, then the low byte's.
fn two_bytes(n: usize) -> [usize; 2] {
    [n.div_ceil(256), n.min(256)]
}

/// The most walk states [`radices`] visits counting the rounds of `repeat` loops; past it, the
/// walk starts over without counting them.
const MAX_WALK_STATES: usize = 1 << 18;

/// Per decision position, the most values the decision there can take: every op of the turn
/// program that a move can reach as its `i`-th decision widens position `i`. The walk follows
/// every branch, loop and jump whatever its condition, positions up to `longest`, so it finds
/// every decision a move can record there (and may find more, which only makes the space
/// larger). It counts the rounds of each `repeat` it entered, so that a round's check records
/// a decision exactly where play does (between the loop's minimum and maximum) and a capture
/// of nine jumps does not widen every later position; should that make too many states, it
/// walks again with each check taken both ways, with and without a decision.
fn radices(program: &Program, longest: usize) -> [u16; MAX_DECISIONS] {
    // The walk that does not count rounds always ends; 256 (any decision byte) is never used.
    walk_radices(program, longest, true)
        .or_else(|| walk_radices(program, longest, false))
        .unwrap_or([256; MAX_DECISIONS])
}

/// A point of the radix walk: the op, the decisions recorded before it, and the rounds done of
/// each `repeat` entered since the turn's start (loop variable, rounds), by variable.
type WalkState = (usize, usize, Vec<(u8, u16)>);

/// [`radices`]' walk, counting rounds when `rounds`; `None` when counting them passes
/// [`MAX_WALK_STATES`].
fn walk_radices(program: &Program, longest: usize, rounds: bool) -> Option<[u16; MAX_DECISIONS]> {
    let ops = &program.turn.ops;
    let mut radices = [1u16; MAX_DECISIONS];
    let mut seen = std::collections::HashSet::new();
    let mut todo: Vec<WalkState> = vec![(0, 0, Vec::new())];
    while let Some(state) = todo.pop() {
        let (pc, at) = (state.0, state.1);
        if at > longest || pc >= ops.len() || !seen.insert(state.clone()) {
            continue;
        }
        // Without counting rounds, the states are at most the ops times the positions.
        if rounds && seen.len() > MAX_WALK_STATES {
            return None;
        }
        let count = state.2;
        let mut record = |values: &[usize]| {
            for (k, &v) in values.iter().enumerate() {
                widen(&mut radices, at + k, v);
            }
            at + values.len()
        };
        let mut go = |pc: usize, at: usize, count: &Vec<(u8, u16)>| {
            todo.push((pc, at, count.clone()));
        };
        match &ops[pc] {
            Op::Pick { .. } => {
                let cells = program.board.len();
                let next = if program.wide_picks() {
                    record(&two_bytes(cells))
                } else {
                    record(&[cells])
                };
                go(pc + 1, next, &count);
            }
            Op::PickDir { relation, .. } => {
                let rays = program.relations.get(usize::from(*relation));
                go(pc + 1, record(&[rays.map_or(1, |r| r.rays.len())]), &count);
            }
            Op::Roll { count: n, .. } => go(pc + 1, record(&[usize::from(*n)]), &count),
            Op::Place { table, .. } => {
                let table = program.placements.get(usize::from(*table));
                let n = table.map_or(1, |t| t.instances.len());
                go(pc + 1, record(&two_bytes(n)), &count);
            }
            Op::Either(starts) | Op::First(starts) => {
                let next = record(&[starts.len()]);
                for &s in starts {
                    go(s as usize, next, &count);
                }
            }
            Op::RepeatStart { var } if rounds => {
                go(pc + 1, at, &with_rounds(&count, *var, Some(0)));
            }
            // A round past the minimum records 0 (stop) or 1 (go on); before it, or at the
            // maximum, the bounds decide with no decision (`ops::repeat_bounds`, the way the
            // engine reads them). With the rounds unknown, each way is taken with and without
            // a decision.
            Op::RepeatCheck {
                var,
                min,
                max,
                exit,
            } => {
                let (exit, body) = (*exit as usize, pc + 1);
                let left = with_rounds(&count, *var, None);
                let bounds = rounds_of(&count, *var)
                    .map(|r| rulestone_runtime::ops::repeat_bounds(r, *min, *max));
                match bounds {
                    Some((true, true)) => {
                        let next = record(&[2]);
                        go(exit, next, &left);
                        go(body, next, &count);
                    }
                    Some((true, false)) => go(exit, at, &left),
                    Some((false, _)) => go(body, at, &count),
                    None => {
                        for after in [record(&[2]), at] {
                            go(exit, after, &left);
                            go(body, after, &count);
                        }
                    }
                }
            }
            Op::RepeatNext { var, check } => {
                let next = rounds_of(&count, *var).map(|r| r.saturating_add(1));
                go(*check as usize, at, &with_rounds(&count, *var, next));
            }
            Op::WhileCheck { exit: to, .. } | Op::Unless { target: to, .. } => {
                go(pc + 1, at, &count);
                go(*to as usize, at, &count);
            }
            Op::Jump(to) => go(*to as usize, at, &count),
            Op::Finish(_) | Op::Done => {}
            _ => go(pc + 1, at, &count),
        }
    }
    Some(radices)
}

/// The rounds done of the `repeat` whose variable is `var`, when the walk counts them.
fn rounds_of(count: &[(u8, u16)], var: u8) -> Option<u16> {
    count.iter().find(|(v, _)| *v == var).map(|&(_, r)| r)
}

/// `count` with `var`'s rounds set to `rounds`, or forgotten (`None`: the loop was left).
fn with_rounds(count: &[(u8, u16)], var: u8, rounds: Option<u16>) -> Vec<(u8, u16)> {
    let mut out: Vec<(u8, u16)> = count.iter().copied().filter(|(v, _)| *v != var).collect();
    if let Some(r) = rounds {
        out.push((var, r));
        out.sort_unstable();
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{block_start, ActionSpace, Move, MAX_ACTIONS, MAX_DECISIONS, MAX_JSON_ACTIONS};

    #[test]
    fn ids_and_moves_round_trip_over_a_small_space() {
        let mut radices = [1u16; MAX_DECISIONS];
        radices[0] = 3;
        radices[1] = 4;
        let space = ActionSpace::with(radices, 2, block_start(&radices, 3).unwrap_or(0));
        assert_eq!(space.size(), 1 + 3 + 3 * 4);
        for id in 0..space.size() {
            let m = space.decisions(id).expect("in range");
            assert_eq!(space.id(&m), Ok(id));
        }
        assert!(space.decisions(16).is_err());
        let mut long = Move::default();
        for _ in 0..3 {
            long.push(0);
        }
        assert!(space.id(&long).is_err());
    }

    #[test]
    fn a_space_past_2_53_is_numbered_but_not_for_json() {
        let mut radices = [1u16; MAX_DECISIONS];
        radices[..7].fill(256);
        let size = block_start(&radices, 8).unwrap_or(0);
        let space = ActionSpace::with(radices, 7, size);
        assert!(size > MAX_JSON_ACTIONS && size < MAX_ACTIONS);
        assert!(space.for_json().is_err());
        let mut last = Move::default();
        for _ in 0..7 {
            last.push(255);
        }
        assert_eq!(space.id(&last), Ok(size - 1));
        assert_eq!(space.decisions(size - 1), Ok(last));
        let small = ActionSpace::with(radices, 2, block_start(&radices, 3).unwrap_or(0));
        assert_eq!(small.for_json(), Ok(small));
    }
}
