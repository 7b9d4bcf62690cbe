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
    play_and_look(engine, rng, max_plies, moves, None, &mut || false).unwrap_or(Playout {
        plies: 0,
        result: None,
        scores: None,
    })
}

/// [`random_game`], given up when `stop` says so: it is asked before each ply, and `None`
/// then tells that the game was cut (the engine is back at the start). What a command
/// bounded by a time or a number of plies plays, so that a long game cannot outlast the bound.
pub fn random_game_until(
    engine: &mut Engine<'_>,
    rng: &mut ChaCha8Rng,
    max_plies: u32,
    moves: &mut Vec<Move>,
    stop: &mut dyn FnMut() -> bool,
) -> Option<Playout> {
    play_and_look(engine, rng, max_plies, moves, None, stop)
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
    play_and_look(engine, rng, max_plies, moves, Some(look), &mut || false).unwrap_or(Playout {
        plies: 0,
        result: None,
        scores: None,
    })
}

fn play_and_look(
    engine: &mut Engine<'_>,
    rng: &mut ChaCha8Rng,
    max_plies: u32,
    moves: &mut Vec<Move>,
    look: Option<&mut dyn FnMut(&mut Engine<'_>)>,
    stop: &mut dyn FnMut() -> bool,
) -> Option<Playout> {
    let scored = engine.program().score.is_some();
    let keep = scored || look.is_some();
    let (plies, stuck, result, stored, cut) = match engine.fast_runs() {
        Some(fast) => {
            let run = (fast.play)(engine, rng, max_plies, moves, keep, stop);
            (run.plies, run.stuck, run.result, run.stored, run.cut)
        }
        None => {
            engine.save();
            let (plies, stuck, cut) = play_by_engine(engine, rng, max_plies, moves, stop);
            (plies, stuck, engine.state.result, true, cut)
        }
    };
    if cut {
        if stored {
            engine.restore();
        }
        return None;
    }
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
    Some(Playout {
        plies,
        result,
        scores,
    })
}

/// The moves of [`random_game`] through [`Engine::play_unlogged`]: the plies played, whether
/// the player to move was left with no legal move, and whether `stop` cut the game.
fn play_by_engine(
    engine: &mut Engine<'_>,
    rng: &mut ChaCha8Rng,
    max_plies: u32,
    moves: &mut Vec<Move>,
    stop: &mut dyn FnMut() -> bool,
) -> (u32, bool, bool) {
    let mut plies = 0;
    while plies < max_plies && engine.state.result.is_none() {
        if stop() {
            return (plies, false, true);
        }
        engine.legal_moves(moves);
        if moves.is_empty() {
            return (plies, true, false);
        }
        let m = moves[rng.gen_range(0..moves.len())];
        engine.play_unlogged(&m);
        plies += 1;
    }
    (plies, false, false)
}
