//! Shogi's rules where random games seldom go, each on a position OpenSpiel's `shogi` agrees on
//! (`games/shogi.game` plays OpenSpiel's rules): the drops a pawn may not make (nifu, pawn-drop
//! mate), forced promotion, and the ends by repetition and by perpetual check.

mod common;

use rulestone::runtime::{Engine, GameResult};

/// A line of OpenSpiel's seeded random games (`tests/openspiel/traces.py`): seed 0's first 64
/// moves, after which Black's horse checks from 9c and 8d in turn while White's king steps
/// between 7a and 6b.
const PERPETUAL: &str = concat!(
    "3g3f; 8b5b; 7g7f; 5b4b; 7i7h; 1c1d; 4g4f; 2b1c; 2h4h; 4b2b; 5g5f; 7a7b; 8h7i; 2b1b; ",
    "7i5g; 1c4f; 4i3h; 4f3g; 8g8f; 6a7a; 2i3g; 7b6a; 4h4i; 6c6d; B*3b; 1b3b; 5g7e; B*7b; ",
    "5i5h; 6a5b; 6g6f; 7a8b; 7e9c; 7b6c; 6f6e; 3a2b; 9g9f; 1a1b; 3i2h; 7c7d; 9c8d; 5a6a; ",
    "P*4e; 7d7e; 6i5i; 9a9e; 8d5a; 9e9f; 5a8d; 6a7a; 5h6g; 4c4d; 3h4g; 9f9g+; 7h6i; 4a3a; ",
    "2h3i; 5c5d; 5i4h; 2a1c; 3f3e; 6d6e; 6i6h; 8b7b",
);

/// Seed 786's first 75 moves: White to move, with pawns in hand, and Black's king on 5e with
/// no safe square left should a pawn land on 5d.
const PAWN_MATE: &str = concat!(
    "5g5f; 8b6b; 7i7h; 4a5b; 4i4h; 3a3b; 5i5h; 4c4d; 7g7f; 1a1b; 2h3h; 8c8d; 6i5i; 6b8b; ",
    "5i4i; 7a7b; 5f5e; 2b3a; 8h7i; 6c6d; 5h5g; 7c7d; 7h7g; 5b4b; 9i9h; 6a6b; 9g9f; 6b5b; ",
    "8g8f; 7b8c; 4i5h; 9c9d; 7f7e; 3a2b; 8i9g; 5b4c; 5g4f; 5a6a; 5h6h; 8b6b; 5e5d; 8a7c; ",
    "4h4i; 1c1d; 3h2h; 8d8e; 6g6f; 8c7b; 2h5h; 6b5b; 9f9e; 2c2d; 5d5c; 7c6e; 3g3f; 5b6b; ",
    "8f8e; 1d1e; 9e9d; 4b5b; 6h6i; 2d2e; 2g2f; 6e7g+; 2f2e; S*3d; 7i6h; 7b6c; 1g1f; 9a9b; ",
    "6h7g; 3d4e; 4f5e; 4c5c; 5h4h",
);

fn engine_after<'p>(program: &'p rulestone::ir::Program, line: &str) -> Engine<'p> {
    let mut engine = Engine::new(program);
    let moves: Vec<String> = line
        .split(';')
        .map(str::trim)
        .filter(|m| !m.is_empty())
        .map(str::to_string)
        .collect();
    common::play_moves(&mut engine, &moves);
    engine
}

fn shogi() -> rulestone::ir::Program {
    common::program(&common::root().join("games/shogi.game"), &[])
}

/// The legal moves after `line`, in notation.
fn moves_after(program: &rulestone::ir::Program, line: &str) -> Vec<String> {
    let mut engine = engine_after(program, line);
    let mut legal = Vec::new();
    engine.legal_moves(&mut legal);
    legal.iter().map(|m| engine.move_text(m)).collect()
}

fn drops(moves: &[String]) -> Vec<&str> {
    let mut drops: Vec<&str> = moves
        .iter()
        .map(String::as_str)
        .filter(|m| m.starts_with("P*"))
        .collect();
    drops.sort_unstable();
    drops
}

#[test]
fn a_pawn_is_never_dropped_on_a_file_with_the_movers_pawn() {
    let program = shogi();
    // Black's rook has taken the pawn White took on 2d: Black holds a pawn, and file 2 is the
    // only one without a Black pawn.
    let moves = moves_after(&program, "2g2f; 8c8d; 2f2e; 8d8e; 2e2d; 2c2d; 2h2d; 8e8f");
    assert_eq!(drops(&moves), ["P*2c", "P*2e", "P*2f", "P*2g", "P*2h"]);
    // A pawn on every file: no pawn drop at all (seed 976's first 12 moves).
    let moves = moves_after(
        &program,
        "4g4f; 8b7b; 7g7f; 5a5b; 4i3h; 4a5a; 8i7g; 7b9b; 7g8e; 6a7b; 8e9c; 1a1b",
    );
    assert!(drops(&moves).is_empty(), "{moves:?}");
}

#[test]
fn a_pawn_drop_that_mates_is_refused_and_one_that_checks_is_not() {
    let program = shogi();
    let moves = moves_after(&program, PAWN_MATE);
    assert!(!moves.iter().any(|m| m == "P*5d"), "{moves:?}");
    assert!(moves.iter().any(|m| m == "P*5f"), "{moves:?}");
    // Seed 95's first 17 moves: a pawn on 5h checks Black's king on 5i, which can step away.
    let moves = moves_after(
        &program,
        "6g6f; 7a6b; 2h6h; 1a1b; 6h2h; 5c5d; 2h7h; 5d5e; 5i6h; 5e5f; 3g3f; 9c9d; 2g2f; 2c2d; \
         4i3h; 5f5g+; 6h5i",
    );
    assert_eq!(
        drops(&moves),
        ["P*5b", "P*5c", "P*5d", "P*5e", "P*5f", "P*5h"]
    );
}

#[test]
fn a_knight_that_could_never_move_again_must_promote() {
    let program = shogi();
    let moves = moves_after(
        &program,
        "4g4f; 8b7b; 7g7f; 5a5b; 4i3h; 4a5a; 8i7g; 7b9b; 7g8e; 6a7b; 8e9c; 1a1b",
    );
    let knight: Vec<&str> = moves
        .iter()
        .map(String::as_str)
        .filter(|m| m.starts_with("9c"))
        .collect();
    assert_eq!(knight, ["9c8a+"]);
}

#[test]
fn the_fourth_occurrence_of_a_position_draws() {
    let program = shogi();
    let shuffle = "5i5h; 5a5b; 5h5i; 5b5a; ".repeat(3);
    let line = shuffle.trim_end().trim_end_matches(';');
    let (before, _) = line.rsplit_once(';').expect("moves");
    assert_eq!(engine_after(&program, before).outcome(), None);
    assert_eq!(
        engine_after(&program, line).outcome(),
        Some(GameResult::Draw)
    );
}

#[test]
fn perpetual_check_loses_on_the_fourth_occurrence() {
    let program = shogi();
    let cycle = "; 8d9c; 7a6b; 9c8d; 6b7a";
    let line = format!("{PERPETUAL}{cycle}{cycle}{cycle}");
    let (before, _) = line.rsplit_once(';').expect("moves");
    assert_eq!(engine_after(&program, before).outcome(), None);
    // Black's last six moves all gave check: Black loses (OpenSpiel returns -1, 1).
    assert_eq!(
        engine_after(&program, &line).outcome(),
        Some(GameResult::Win(1))
    );
}
