//! perft: the number of move sequences of a given length — the correctness oracle.

use super::{Engine, Move};

/// Counts leaf nodes `depth` plies below the current position, applying every move (no bulk
/// counting, so the count also measures apply/undo speed). Compiled programs without
/// `distinct` blocks count on the position value (copy-make); others through the engine.
pub fn perft(engine: &mut Engine<'_>, depth: u32) -> u64 {
    match engine.fast_runs() {
        Some(fast) => (fast.perft)(engine, depth),
        None => perft_by_engine(engine, depth),
    }
}

/// [`perft`] through [`Engine::apply`] and [`Engine::undo`] whatever the backend (tests hold
/// the two ways to one count).
pub fn perft_by_engine(engine: &mut Engine<'_>, depth: u32) -> u64 {
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    count(engine, &mut buffers)
}

fn count(engine: &mut Engine<'_>, buffers: &mut [Vec<Move>]) -> u64 {
    let Some((moves, deeper)) = buffers.split_first_mut() else {
        return 1;
    };
    engine.legal_moves(moves);
    let mut nodes = 0;
    for m in moves.iter() {
        let undo = engine.apply(m);
        nodes += count(engine, deeper);
        engine.undo(undo);
    }
    nodes
}

/// How far a bounded count may go: at most `leaves` leaves, and not past `deadline`.
#[derive(Clone, Copy, Debug, Default)]
pub struct Budget {
    pub leaves: Option<u64>,
    pub deadline: Option<std::time::Instant>,
}

/// Why a bounded count stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exceeded {
    /// More leaves than the budget allows.
    Leaves,
    /// The deadline passed.
    Time,
}

/// Why a bounded count with fixed rolls stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Stop {
    /// A bound of the budget.
    Bound(Exceeded),
    /// The rolls given do not fit the line of play.
    Rolls(RollError),
}

impl From<Exceeded> for Stop {
    fn from(why: Exceeded) -> Stop {
        Stop::Bound(why)
    }
}

/// Positions visited between two looks at the clock: often enough to stop within a few
/// milliseconds, rarely enough to cost nothing measurable.
const CLOCK_EVERY: u32 = 1 << 12;

/// [`perft_by_engine`] within a [`Budget`]: `Err` says which bound stopped it, so a caller can
/// refuse a count that would run too long.
///
/// # Errors
/// [`Exceeded::Leaves`] once more than `budget.leaves` leaves are counted,
/// [`Exceeded::Time`] once the deadline has passed.
pub fn perft_within(engine: &mut Engine<'_>, depth: u32, budget: Budget) -> Result<u64, Exceeded> {
    Bounded::new(budget).count(engine, depth)
}

/// Counts that share one budget (a command's whole run: several depths, several first moves),
/// and the leaves they counted so far, also when a bound stopped them midway. Looks at the
/// clock every `CLOCK_EVERY` positions, never at each one.
#[derive(Clone, Debug)]
pub struct Bounded {
    /// Leaves the budget still allows.
    left: u64,
    deadline: Option<std::time::Instant>,
    until_clock: u32,
    /// Leaves counted by every count so far, finished or not.
    pub leaves: u64,
}

impl Bounded {
    #[must_use]
    pub fn new(budget: Budget) -> Bounded {
        Bounded {
            left: budget.leaves.unwrap_or(u64::MAX),
            deadline: budget.deadline,
            until_clock: CLOCK_EVERY,
            leaves: 0,
        }
    }

    /// perft `depth` plies below the engine's position, within what is left of the budget.
    ///
    /// # Errors
    /// The bound that stopped the count; [`Bounded::leaves`] then holds what was counted.
    pub fn count(&mut self, engine: &mut Engine<'_>, depth: u32) -> Result<u64, Exceeded> {
        let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
        let before = self.leaves;
        self.walk(engine, &mut buffers)?;
        Ok(self.leaves - before)
    }

    /// [`perft_with_rolls`] within what is left of the budget.
    ///
    /// # Errors
    /// The bound that stopped the count, or rolls that do not fit the line of play.
    pub fn count_with_rolls(
        &mut self,
        engine: &mut Engine<'_>,
        depth: u32,
        rolls: &[Vec<i32>],
    ) -> Result<u64, Stop> {
        let before = self.leaves;
        self.walk_with_rolls(engine, depth, rolls, 0)?;
        Ok(self.leaves - before)
    }

    /// One more position: looks at the clock when its turn has come.
    fn visit(&mut self) -> Result<(), Exceeded> {
        self.until_clock -= 1;
        if self.until_clock == 0 {
            self.until_clock = CLOCK_EVERY;
            if self
                .deadline
                .is_some_and(|d| std::time::Instant::now() >= d)
            {
                return Err(Exceeded::Time);
            }
        }
        Ok(())
    }

    /// One more leaf, if the budget allows it.
    fn leaf(&mut self) -> Result<(), Exceeded> {
        self.left = self.left.checked_sub(1).ok_or(Exceeded::Leaves)?;
        self.leaves += 1;
        Ok(())
    }

    fn walk(&mut self, engine: &mut Engine<'_>, buffers: &mut [Vec<Move>]) -> Result<(), Exceeded> {
        self.visit()?;
        let Some((moves, deeper)) = buffers.split_first_mut() else {
            return self.leaf();
        };
        engine.legal_moves(moves);
        for m in moves.iter() {
            let undo = engine.apply(m);
            let counted = self.walk(engine, deeper);
            engine.undo(undo);
            counted?;
        }
        Ok(())
    }

    fn walk_with_rolls(
        &mut self,
        engine: &mut Engine<'_>,
        depth: u32,
        rolls: &[Vec<i32>],
        used: usize,
    ) -> Result<(), Stop> {
        self.visit()?;
        if depth == 0 {
            return Ok(self.leaf()?);
        }
        let mut moves = Vec::new();
        engine.legal_moves(&mut moves);
        if engine.chance() {
            let values = rolls
                .get(used)
                .ok_or(Stop::Rolls(RollError::OutOfRolls { needed: used + 1 }))?;
            let m = outcome(engine, &moves, values)
                .ok_or(Stop::Rolls(RollError::NotAnOutcome { index: used }))?;
            let undo = engine.apply(&m);
            let counted = self.walk_with_rolls(engine, depth, rolls, used + 1);
            engine.undo(undo);
            return counted;
        }
        for m in &moves {
            let undo = engine.apply(m);
            let counted = self.walk_with_rolls(engine, depth - 1, rolls, used);
            engine.undo(undo);
            counted?;
        }
        Ok(())
    }
}

/// perft of each legal move's subtree, in move order: `(move, count)`.
pub fn divide(engine: &mut Engine<'_>, depth: u32) -> Vec<(Move, u64)> {
    let mut moves = Vec::new();
    engine.legal_moves(&mut moves);
    moves
        .into_iter()
        .map(|m| {
            let undo = engine.apply(&m);
            let n = perft(engine, depth.saturating_sub(1));
            engine.undo(undo);
            (m, n)
        })
        .collect()
}

/// Why a count with fixed rolls stopped.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RollError {
    /// A line met more chance points than rolls were given (`needed` in all).
    OutOfRolls { needed: usize },
    /// The roll at this index is not an outcome of the chance point that met it.
    NotAnOutcome { index: usize },
}

impl std::fmt::Display for RollError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RollError::OutOfRolls { needed } => match needed - 1 {
                0 => write!(f, "a roll is due, but no rolls were given"),
                1 => write!(
                    f,
                    "a line of play needs roll number {needed}, but 1 was given"
                ),
                given => write!(
                    f,
                    "a line of play needs roll number {needed}, but {given} were given"
                ),
            },
            RollError::NotAnOutcome { index } => write!(
                f,
                "roll number {} is not an outcome of the roll it meets",
                index + 1
            ),
        }
    }
}

/// The chance move among `moves` (a chance point's outcomes) that rolls `values`.
pub fn outcome(engine: &mut Engine<'_>, moves: &[Move], values: &[i32]) -> Option<Move> {
    moves
        .iter()
        .find(|m| engine.rolled_values(m) == values)
        .copied()
}

/// perft for games with chance: chance points are not plies; the k-th one met along a line
/// (from this position) takes `rolls[k]`.
pub fn perft_with_rolls(
    engine: &mut Engine<'_>,
    depth: u32,
    rolls: &[Vec<i32>],
) -> Result<u64, RollError> {
    count_with_rolls(engine, depth, rolls, 0)
}

fn count_with_rolls(
    engine: &mut Engine<'_>,
    depth: u32,
    rolls: &[Vec<i32>],
    used: usize,
) -> Result<u64, RollError> {
    if depth == 0 {
        return Ok(1);
    }
    let mut moves = Vec::new();
    engine.legal_moves(&mut moves);
    if engine.chance() {
        let values = rolls
            .get(used)
            .ok_or(RollError::OutOfRolls { needed: used + 1 })?;
        let m = outcome(engine, &moves, values).ok_or(RollError::NotAnOutcome { index: used })?;
        let undo = engine.apply(&m);
        let n = count_with_rolls(engine, depth, rolls, used + 1);
        engine.undo(undo);
        return n;
    }
    let mut nodes = 0;
    for m in &moves {
        let undo = engine.apply(m);
        let n = count_with_rolls(engine, depth - 1, rolls, used);
        engine.undo(undo);
        nodes += n?;
    }
    Ok(nodes)
}
