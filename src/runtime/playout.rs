//! Seeded random playouts: uniform choice among all legal moves every ply.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::{Engine, GameResult, Move};

/// How one random game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Playout {
    pub plies: u32,
    /// `None` when the ply limit stopped the game first.
    pub result: Option<GameResult>,
    /// The players' scores at the end, for games that declare `score`.
    pub scores: Option<[i32; 2]>,
}

/// Plays random moves from the engine's position until the game ends or `max_plies` moves were
/// made, then returns to the starting position. `moves` is a reusable buffer; `undos` is kept
/// for callers' convenience and left empty (the moves are not taken back one by one: the
/// start is saved and restored in one copy).
pub fn random_game(
    engine: &mut Engine<'_>,
    rng: &mut ChaCha8Rng,
    max_plies: u32,
    moves: &mut Vec<Move>,
    undos: &mut Vec<super::Undo>,
) -> Playout {
    undos.clear();
    engine.save();
    let mut result = None;
    let mut plies = 0;
    while plies < max_plies {
        if let Some(r) = engine.state.result {
            result = Some(r);
            break;
        }
        engine.legal_moves(moves);
        if moves.is_empty() {
            result = Some(engine.stuck_result());
            break;
        }
        let m = moves[rng.gen_range(0..moves.len())];
        engine.play_unlogged(&m);
        plies += 1;
    }
    if result.is_none() {
        result = engine.state.result;
    }
    let scores = if result.is_some() && engine.program().score.is_some() {
        engine.scores()
    } else {
        None
    };
    engine.restore();
    Playout {
        plies,
        result,
        scores,
    }
}
