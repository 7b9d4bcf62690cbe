//! perft: the number of move sequences of a given length — the correctness oracle.

use super::{Engine, Move};

/// Counts leaf nodes `depth` plies below the current position, applying every move (no bulk
/// counting, so the count also measures apply/undo speed).
pub fn perft(engine: &mut Engine<'_>, depth: u32) -> u64 {
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
