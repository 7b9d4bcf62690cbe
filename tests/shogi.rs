//! Shogi's rules where random games seldom go, each on a position OpenSpiel's `shogi` agrees on
//! (`games/shogi.game` plays OpenSpiel's rules): the drops a pawn may not make (nifu, pawn-drop
//! mate), forced promotion, and the ends by repetition, by perpetual check and by two entered
//! kings.

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

/// Seed 908's whole game, 191 moves: Black's last move takes its king into White's camp while
/// White's stands in Black's, and Black holds fewer than 28 points.
const KINGS_ENTERED: &str = concat!(
    "2h1h; 8c8d; 3g3f; 8b6b; 6i5h; 4a3b; 7i7h; 6b9b; 3f3e; 6a5b; 7h6i; 3a4b; 5g5f; 3b3a; ",
    "3i2h; 1a1b; 5i4h; 5a6b; 5h5g; 2c2d; 4i5i; 6c6d; 4h3g; 6b7b; 5g6f; 5c5d; 5i4i; 4c4d; ",
    "3g2f; 4b5a; 2f3g; 2d2e; 8h7i; 5b4c; 4i5i; 7b8b; 5f5e; 8d8e; 6f5f; 4c5c; 3g3f; 2b1a; ",
    "5i5h; 5c6c; 5e5d; 1c1d; 2h3g; 4d4e; 8g8f; 6c6b; 3g2f; 1d1e; 5h6h; 6b6a; 3e3d; 7c7d; ",
    "5d5c; 8b8c; 5f4f; 7a8b; 7g7f; 5a6b; 6h7h; 8c9d; 2i3g; 3a4b; 7h7g; 2e2f; 1h4h; S*7e; ",
    "3g2e; 6a7a; 7i5g; 4b4c; 4f3e; 7e8d; 4g4f; 2f2g+; 5c5b; 9d8c; P*2h; 8a7c; 7f7e; 4e4f; ",
    "3e4e; 6b5c; 1i1h; P*2f; 2e1c; 4c5d; 4h5h; 5d6e; 3f2e; 5c4d; 6g6f; 1e1f; 7g7h; 4d3e; ",
    "7h7g; 6e6f; 9i9h; 8d9e; 3d3c; 7a7b; P*6h; 9e9f; 2e3e; 2g3h; S*3d; 6f5f; 5h5i; 9f9g; ",
    "4e4d; 5f5g; 4d4e; 8c9d; 5i1i; 1f1g+; 3d4c+; 9d9e; 1i3i; B*5e; 7g7f; 5e4d; 3e2d; 2f2g+; ",
    "7f7g; P*5h; 8f8e; P*8f; 3i1i; 3h3i; P*4b; 5g5f; 4e4f; P*2e; 8i9g; 2g2h; P*1e; P*3b; ",
    "7e7d; P*4h; 4f5e; 8f8g; S*6e; 7b8c; 2d1d; 2h1i; 8e8d; R*5d; 8d8c; 5h5i+; 4c4d; 9c9d; ",
    "4d5d; 1g1f; R*5g; 1f1g; B*4a; 3i4i; 5e5f; 2a1c; G*2h; N*3a; G*3g; 2e2f; 7g7f; 2f2g; ",
    "3c3b+; 1a5e; 5f4e; 4i3i; 5g5i; 5e3c; 2h1g; 3c4d; 7f8e; 9e9f; 4e4d; 8g8h; 5d5e; 3a4c; ",
    "5i5f; 9f8g; P*2f; 8b8c; 6i5h; 9b5b; P*3h; P*1a; 1d2c",
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

#[test]
fn two_entered_kings_draw_under_openspiels_impasse_rule() {
    let program = shogi();
    let (before, _) = KINGS_ENTERED.rsplit_once(';').expect("moves");
    assert_eq!(engine_after(&program, before).outcome(), None);
    assert_eq!(
        engine_after(&program, KINGS_ENTERED).outcome(),
        Some(GameResult::Draw)
    );
    // Without the impasse rules the game goes on.
    let options = [("impasse".to_string(), "0".to_string())];
    let published = common::program(&common::root().join("games/shogi.game"), &options);
    assert_eq!(engine_after(&published, KINGS_ENTERED).outcome(), None);
}
