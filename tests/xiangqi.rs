//! Xiangqi's length limit as OpenSpiel ends it: the last move allowed draws, unless it leaves
//! the opponent without a move, which wins (`games/xiangqi.game` tries the opponent's replies
//! on the board to tell). Played on a random game of OpenSpiel's that Red wins by mate on its
//! 91st move.

mod common;

use rulestone::runtime::{Engine, GameResult};

/// OpenSpiel's random game (seed 1 of `tests/openspiel/traces.py`'s xiangqi traces, in the game
/// file's notation): Red mates on the 91st move.
const MATED_ON_91: &str = concat!(
    "b2b4; h7h0; b4c4; b7a7; c4g4; a7d7; h2h1; a6a5; h1d1; h9i7; g4e4; g9e7; e4e5; c6c5; ",
    "a0a2; h0f0; e5e7; f0f8; a2a1; f8d8; e3e4; d7c7; e7d7; a9a7; d7a7; e6e5; a7a9; c7a7; ",
    "d1d7; d8h8; a9a8; c5c4; d7h7; e5e4; a1g1; h8g8; a3a4; g8h8; i0i2; h8g8; c0e2; a5a4; ",
    "h7h3; c9e7; i2i0; e4d4; a8a4; g8c8; i0i1; c8c6; a4a0; e7c5; d0e1; c6c7; b0c2; a7a4; ",
    "e2c0; i7h9; g0i2; a4a2; c2e3; a2c2; e3f5; c2b2; h3h1; c4b4; a0a6; c7c8; g3g4; b2c2; ",
    "g4g5; f9e8; e1d0; c2h2; a6e6; e8f9; d0e1; b4b3; e1d2; h2h6; e6e7; d4c4; e7e5; g6g5; ",
    "e0f0; b3a3; g1d1; c8a8; f5e7; f9e8; e7c8 ",
);

/// The result after the first `plies` moves of the game, with `max_length` set.
fn result_after(plies: usize, max_length: u32) -> Option<GameResult> {
    let path = common::root().join("games/xiangqi.game");
    let options = [("max_length".to_string(), max_length.to_string())];
    let program = common::program(&path, &options);
    let mut engine = Engine::new(&program);
    let moves: Vec<String> = MATED_ON_91
        .split("; ")
        .map(|m| m.trim().to_string())
        .collect();
    assert_eq!(moves.len(), 91);
    common::play_moves(&mut engine, &moves[..plies]);
    engine.outcome()
}

#[test]
fn a_mate_on_the_last_move_allowed_wins() {
    assert_eq!(result_after(91, 91), Some(GameResult::Win(0)));
    assert_eq!(result_after(91, 0), Some(GameResult::Win(0)));
}

#[test]
fn any_other_last_move_allowed_draws() {
    assert_eq!(result_after(90, 90), Some(GameResult::Draw));
    assert_eq!(result_after(2, 2), Some(GameResult::Draw));
    assert_eq!(result_after(90, 91), None);
}
