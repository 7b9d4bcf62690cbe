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

/// [`perft_by_engine`] that gives up once it has counted more than `max` leaves: `Err` with
/// the count reached (`max + 1`), so a caller can refuse a count that would run too long.
///
/// # Errors
/// `Err(max + 1)` when the count exceeds `max`.
pub fn perft_within(engine: &mut Engine<'_>, depth: u32, max: u64) -> Result<u64, u64> {
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    let mut left = max;
    match count_within(engine, &mut buffers, &mut left) {
        Some(()) => Ok(max - left),
        None => Err(max.saturating_add(1)),
    }
}

/// Counts leaves into `left` (down from the budget); `None` when the budget runs out.
fn count_within(engine: &mut Engine<'_>, buffers: &mut [Vec<Move>], left: &mut u64) -> Option<()> {
    let Some((moves, deeper)) = buffers.split_first_mut() else {
        *left = left.checked_sub(1)?;
        return Some(());
    };
    engine.legal_moves(moves);
    for m in moves.iter() {
        let undo = engine.apply(m);
        let counted = count_within(engine, deeper, left);
        engine.undo(undo);
        counted?;
    }
    Some(())
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
