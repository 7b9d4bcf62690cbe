//! Invariants on seeded random playouts of every bundled game: every listed move applies and has
//! a distinct notation; apply then undo restores the state and its hash exactly; the incremental
//! hash equals the hash recomputed from scratch; in games whose rules read the history, apply adds
//! the new position's hash to it and undo takes it off again.

mod common;

use std::collections::HashSet;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rulestone::runtime::Engine;

fn check_game(path: &std::path::Path, options: &[(String, String)], games: u32, seed: u64) {
    let program = common::program(path, options);
    let mut engine = Engine::new(&program);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = Vec::new();
    for _ in 0..games {
        let start = engine.state.clone();
        let start_history = engine.history().to_vec();
        let mut undos = Vec::new();
        for _ply in 0..400 {
            engine.legal_moves(&mut moves);
            if moves.is_empty() {
                break;
            }
            let before = engine.state.clone();
            let before_history = engine.history().to_vec();
            let mut texts = HashSet::new();
            for m in &moves {
                let text = engine.move_text(m);
                assert!(!text.is_empty(), "a move has no notation");
                assert!(texts.insert(text.clone()), "two moves are written `{text}`");
                let undo = engine.apply(m);
                assert_eq!(
                    engine.state.hash,
                    engine.state.compute_hash(engine.zobrist()),
                    "incremental hash differs after `{text}`"
                );
                if program.uses_history() {
                    assert_eq!(engine.history().len(), before_history.len() + 1);
                    assert_eq!(engine.history().last(), Some(&engine.position_key()));
                }
                engine.undo(undo);
                assert_eq!(
                    engine.state, before,
                    "apply/undo of `{text}` changed the state"
                );
                assert_eq!(
                    engine.history(),
                    &before_history[..],
                    "apply/undo of `{text}` changed the history"
                );
            }
            let m = moves[rng.gen_range(0..moves.len())];
            undos.push(engine.apply(&m));
        }
        while let Some(u) = undos.pop() {
            engine.undo(u);
        }
        assert_eq!(
            engine.state, start,
            "undoing a whole game did not restore the start"
        );
        assert_eq!(
            engine.history(),
            &start_history[..],
            "undoing a whole game did not restore the history"
        );
    }
    assert!(
        !engine.overflowed,
        "a move needed more decisions than a move holds"
    );
}

#[test]
fn bundled_games_keep_their_invariants() {
    let games = common::bundled_games();
    for g in games {
        check_game(&g, &[], 12, 7);
    }
}

#[test]
fn pylos_variants_keep_their_invariants() {
    let path = common::root().join("games/pylos.game");
    for (name, value) in [
        ("variant", "basic"),
        ("variant", "advanced"),
        ("base", "3"),
        ("reserve", "5"),
    ] {
        check_game(&path, &[(name.to_string(), value.to_string())], 8, 11);
    }
}

#[test]
fn boards_wider_than_two_words_keep_their_invariants() {
    let path = common::root().join("tests/games/flankfive.game");
    for size in ["15", "13", "9"] {
        check_game(&path, &[("size".to_string(), size.to_string())], 3, 5);
    }
}

#[test]
fn games_reading_their_history_keep_their_invariants() {
    for (game, options) in [
        ("tests/games/shuffle.game", vec![]),
        ("tests/games/shuffle.game", vec![("repeats", "2")]),
        ("tests/games/lift.game", vec![]),
    ] {
        let options: Vec<(String, String)> = options
            .iter()
            .map(|(n, v)| ((*n).to_string(), (*v).to_string()))
            .collect();
        check_game(&common::root().join(game), &options, 12, 5);
    }
}
