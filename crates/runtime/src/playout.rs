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
    play_and_look(engine, rng, max_plies, moves, None)
}

/// [`random_game`], and when `max_plies` stopped the game first, `look` at the end position
/// before returning to the start (a search evaluates the position it cut at).
pub fn random_game_looking(
    engine: &mut Engine<'_>,
    rng: &mut ChaCha8Rng,
    max_plies: u32,
    moves: &mut Vec<Move>,
    look: &mut dyn FnMut(&mut Engine<'_>),
) -> Playout {
    play_and_look(engine, rng, max_plies, moves, Some(look))
}

fn play_and_look(
    engine: &mut Engine<'_>,
    rng: &mut ChaCha8Rng,
    max_plies: u32,
    moves: &mut Vec<Move>,
    look: Option<&mut dyn FnMut(&mut Engine<'_>)>,
) -> Playout {
    let scored = engine.program().score.is_some();
    let keep = scored || look.is_some();
    let (plies, stuck, result, stored) = match engine.fast_runs() {
        Some(fast) => {
            let run = (fast.play)(engine, rng, max_plies, moves, keep);
            (run.plies, run.stuck, run.result, run.stored)
        }
        None => {
            engine.save();
            let (plies, stuck) = play_by_engine(engine, rng, max_plies, moves);
            (plies, stuck, engine.state.result, true)
        }
    };
    // When the game ended stuck or has scores, the engine holds its end position.
    let result = if stuck {
        Some(engine.stuck_result())
    } else {
        result
    };
    let scores = if result.is_some() && scored {
        engine.scores()
    } else {
        None
    };
    if let Some(look) = look.filter(|_| result.is_none() && stored) {
        look(engine);
    }
    if stored {
        engine.restore();
    }
    Playout {
        plies,
        result,
        scores,
    }
}

/// The moves of [`random_game`] through [`Engine::play_unlogged`]: the plies played and
/// whether the player to move was left with no legal move.
fn play_by_engine(
    engine: &mut Engine<'_>,
    rng: &mut ChaCha8Rng,
    max_plies: u32,
    moves: &mut Vec<Move>,
) -> (u32, bool) {
    let mut plies = 0;
    while plies < max_plies && engine.state.result.is_none() {
        engine.legal_moves(moves);
        if moves.is_empty() {
            return (plies, true);
        }
        let m = moves[rng.gen_range(0..moves.len())];
        engine.play_unlogged(&m);
        plies += 1;
    }
    (plies, false)
}
