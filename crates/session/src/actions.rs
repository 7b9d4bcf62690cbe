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
//! - the radix `R` is the most values any decision of the turn program can take (the board's
//!   cells, a relation's rays, a roll's outcomes, a choice's branches, 2 for a round; up to 256
//!   per decision byte);
//! - the longest move `L` is the bound the IR's `decisions` pass finds for the turn;
//! - a move of `n` decisions `d0 d1 … d(n-1)` has the id `(R^0 + R^1 + … + R^(n-1)) + (d0·R^(n-1)
//!   + … + d(n-1))`: moves of each length fill a block of their own, in order of length, and
//!   within a block the decisions are the digits of a base-`R` number, first decision first;
//! - `num_distinct_actions` is `R^0 + R^1 + … + R^L`.
//!
//! The encoding is injective by construction (a length and base-`R` digits), so two moves never
//! share an id. Where the space would pass [`MAX_ACTIONS`] (2^53, the largest integer every
//! JSON reader keeps exactly), the game has no action ids: [`ActionSpace::of`] says so with
//! [`ActionSpaceError::TooLarge`], and moves are named by their notation alone. A move longer
//! than `L` (a `while` whose body chooses can outgrow the bound) has no id either
//! ([`ActionError::TooLong`]); neither case ever gives two moves one id.

use std::fmt;

use rulestone_ir::passes::decisions;
use rulestone_ir::{Op, Program, MAX_DECISIONS};
use rulestone_runtime::Move;

/// The most actions a game may have: 2^53, the largest integer a JSON number (a double) keeps
/// exactly in every language.
pub const MAX_ACTIONS: u64 = 1 << 53;

/// The action space of one program (for one set of option values).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ActionSpace {
    /// The most values one decision can take.
    radix: u64,
    /// The most decisions one move can take.
    longest: usize,
    /// `num_distinct_actions`.
    size: u64,
}

/// Why a game has no action ids.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ActionSpaceError {
    /// `radix^0 + … + radix^longest` passes [`MAX_ACTIONS`].
    TooLarge { radix: u64, longest: usize },
}

impl fmt::Display for ActionSpaceError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ActionSpaceError::TooLarge { radix, longest } => write!(
                f,
                "the game's moves take up to {longest} decisions of up to {radix} values each: \
                 more than 2^53 action ids, so its moves are named by notation only"
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
        let radix = radix(program);
        let found = decisions::run(program, &program.turn);
        let longest = usize::try_from(found)
            .unwrap_or(MAX_DECISIONS)
            .min(MAX_DECISIONS);
        let too_large = ActionSpaceError::TooLarge { radix, longest };
        let size = block_start(radix, longest + 1).ok_or(too_large)?;
        if size > MAX_ACTIONS {
            return Err(too_large);
        }
        Ok(ActionSpace {
            radix,
            longest,
            size,
        })
    }

    /// `num_distinct_actions`: every id is below it.
    #[must_use]
    pub fn size(&self) -> u64 {
        self.size
    }

    /// The most values one decision can take.
    #[must_use]
    pub fn radix(&self) -> u64 {
        self.radix
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
        for d in m.decisions() {
            if u64::from(d) >= self.radix {
                return Err(ActionError::OutOfRadix {
                    decision: d,
                    radix: self.radix,
                });
            }
            // Within the size checked in `of`, so no overflow.
            digits = digits * self.radix + u64::from(d);
        }
        let start = block_start(self.radix, m.len()).unwrap_or(u64::MAX);
        Ok(start + digits)
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
            if block_start(self.radix, n + 1).is_some_and(|end| id < end) {
                len = n;
                break;
            }
        }
        let mut digits = id - block_start(self.radix, len).ok_or(out_of_range)?;
        let mut reversed = Vec::with_capacity(len);
        for _ in 0..len {
            reversed.push(u8::try_from(digits % self.radix).map_err(|_| out_of_range)?);
            digits /= self.radix;
        }
        let mut m = Move::default();
        for d in reversed.into_iter().rev() {
            m.push(d);
        }
        Ok(m)
    }
}

/// `radix^0 + … + radix^(len-1)`: the first id of the moves of `len` decisions; `None` on
/// overflow.
fn block_start(radix: u64, len: usize) -> Option<u64> {
    let mut sum = 0u64;
    let mut power = 1u64;
    for _ in 0..len {
        sum = sum.checked_add(power)?;
        power = power.checked_mul(radix)?;
    }
    Some(sum)
}

/// The most values one decision of the turn program can take (at least 1).
fn radix(program: &Program) -> u64 {
    let bytes = |n: usize| n.clamp(1, 256) as u64;
    program
        .turn
        .ops
        .iter()
        .map(|op| match op {
            Op::Pick { .. } => bytes(program.board.len()),
            Op::PickDir { relation, .. } => program
                .relations
                .get(usize::from(*relation))
                .map_or(1, |r| bytes(r.rays.len())),
            Op::Roll { count, .. } => bytes(usize::from(*count)),
            Op::Place { table, .. } => program
                .placements
                .get(usize::from(*table))
                .map_or(1, |t| bytes(t.instances.len())),
            Op::Either(branches) | Op::First(branches) => bytes(branches.len()),
            Op::RepeatCheck { .. } => 2,
            _ => 1,
        })
        .max()
        .unwrap_or(1)
}

#[cfg(test)]
mod tests {
    use super::{block_start, ActionSpace, Move};

    #[test]
    fn ids_and_moves_round_trip_over_a_small_space() {
        let space = ActionSpace {
            radix: 3,
            longest: 2,
            size: block_start(3, 3).unwrap_or(0),
        };
        assert_eq!(space.size(), 1 + 3 + 9);
        for id in 0..space.size() {
            let m = space.decisions(id).expect("in range");
            assert_eq!(space.id(&m), Ok(id));
        }
        assert!(space.decisions(13).is_err());
        let mut long = Move::default();
        for _ in 0..3 {
            long.push(0);
        }
        assert!(space.id(&long).is_err());
    }
}
