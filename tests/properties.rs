//! Property tests (proptest) on every bundled board game, at positions reached by seeded random
//! play of arbitrary length: proptest draws the seed and the number of plies, and shrinks a
//! failure to the shortest game that shows it.
//!
//! - apply then undo restores the state and the position key, and the key kept up to date move
//!   by move equals the key recomputed from scratch (`State::compute_hash`);
//! - every listed move's notation reads back to that move alone;
//! - a record of the game (its moves in notation, what a saved record holds) read on a fresh
//!   engine replays to the same position and key;
//! - the same seed gives the same random game, through `Game` and through the engine's playouts.
//!
//! `tests/invariants.rs` checks the first two on fixed seeds at every ply of whole games, and
//! `tests/game_interface.rs` seeded replay and notation through the `Game` interface; these add
//! positions proptest chooses and shrinks, the key after undo, and the record round trip.
//! `games/warstone.game` is a table game (continuous shots, no move list to enumerate) and is
//! left out; `tests/warstone.rs` covers its replay and undo.

mod common;

use std::sync::OnceLock;

use proptest::prelude::*;
use proptest::test_runner::{Config, TestCaseError, TestRunner};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use rulestone::ir::Program;
use rulestone::runtime::game::random_play;
use rulestone::runtime::{BoardGame, Engine, Game, Move};

/// Random games never run longer than this many plies here.
const MAX_PLIES: usize = 60;
/// At most this many of a position's listed moves are tried (spread over the list).
const SPREAD: usize = 16;

/// Every bundled board game, compiled once.
fn games() -> &'static [(String, Program)] {
    static GAMES: OnceLock<Vec<(String, Program)>> = OnceLock::new();
    GAMES.get_or_init(|| {
        common::bundled_games()
            .iter()
            .map(|path| {
                let label = path
                    .file_name()
                    .map_or_else(String::new, |n| n.to_string_lossy().into_owned());
                (label, common::program(path, &[]))
            })
            .collect()
    })
}

/// Runs `property` on `cases` seeded random positions of every game.
fn for_every_game(
    cases: u32,
    property: impl Fn(&Program, u64, usize) -> Result<(), TestCaseError>,
) {
    for (label, program) in games() {
        let mut runner = TestRunner::new(Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        });
        let result = runner.run(&(any::<u64>(), 0..=MAX_PLIES), |(seed, plies)| {
            property(program, seed, plies)
        });
        if let Err(e) = result {
            panic!("{label}: {e}");
        }
    }
}

/// Plays up to `plies` random moves from the start (fewer if the game ends) and returns them.
fn reach(game: &mut BoardGame<'_>, seed: u64, plies: usize) -> Vec<Move> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = Vec::new();
    let mut played = Vec::new();
    for _ in 0..plies {
        game.decisions(&mut moves);
        if moves.is_empty() {
            break;
        }
        let m = moves[rng.gen_range(0..moves.len())];
        game.apply(&m);
        played.push(m);
    }
    played
}

/// A spread of at most [`SPREAD`] of the listed moves.
fn spread(moves: &[Move]) -> impl Iterator<Item = &Move> {
    moves.iter().step_by(moves.len() / SPREAD + 1)
}

#[test]
fn apply_undo_and_the_position_key() {
    for_every_game(16, |program, seed, plies| {
        let mut game = BoardGame::new(Engine::new(program));
        let start = game.engine.state.clone();
        let played = reach(&mut game, seed, plies);
        let state = &game.engine.state;
        prop_assert_eq!(
            state.hash,
            state.compute_hash(game.engine.zobrist()),
            "the key after {} plies is not the recomputed one",
            played.len()
        );
        let before = game.engine.state.clone();
        let mut moves = Vec::new();
        game.decisions(&mut moves);
        for m in spread(&moves) {
            let text = game.text(m);
            game.apply(m);
            let state = &game.engine.state;
            prop_assert_eq!(
                state.hash,
                state.compute_hash(game.engine.zobrist()),
                "after `{}`, the key is not the recomputed one",
                text
            );
            prop_assert!(game.undo());
            prop_assert_eq!(&game.engine.state, &before, "undoing `{}`", text);
            prop_assert_eq!(game.position_key(), Some(before.hash));
        }
        for _ in &played {
            prop_assert!(game.undo());
        }
        prop_assert_eq!(&game.engine.state, &start, "undoing the whole game");
        Ok(())
    });
}

#[test]
fn notation_reads_back_to_that_move_alone() {
    for_every_game(16, |program, seed, plies| {
        let mut game = BoardGame::new(Engine::new(program));
        reach(&mut game, seed, plies);
        let mut moves = Vec::new();
        game.decisions(&mut moves);
        let texts: Vec<String> = moves.iter().map(|m| game.text(m)).collect();
        for (m, text) in moves.iter().zip(&texts) {
            let same = texts
                .iter()
                .filter(|t| t.eq_ignore_ascii_case(text))
                .count();
            prop_assert_eq!(same, 1, "`{}` is written for {} moves", text, same);
            prop_assert_eq!(game.parse(text), Ok(*m), "`{}` reads back", text);
        }
        Ok(())
    });
}

#[test]
fn a_record_replays_to_the_same_position() {
    for_every_game(16, |program, seed, plies| {
        let mut game = BoardGame::new(Engine::new(program));
        let played = reach(&mut game, seed, plies);
        // What a saved record holds: one move per line, in notation.
        let mut record = String::new();
        let mut replay = BoardGame::new(Engine::new(program));
        for m in &played {
            record.push_str(&replay.text(m));
            record.push('\n');
            replay.apply(m);
        }
        let mut loaded = BoardGame::new(Engine::new(program));
        for line in record.lines() {
            let m = loaded.parse(line);
            prop_assert!(m.is_ok(), "`{}` does not read back: {:?}", line, m);
            if let Ok(m) = m {
                loaded.apply(&m);
            }
        }
        prop_assert_eq!(&loaded.engine.state, &game.engine.state);
        prop_assert_eq!(loaded.position_key(), game.position_key());
        prop_assert_eq!(loaded.outcome(), game.outcome());
        Ok(())
    });
}

#[test]
fn the_same_seed_gives_the_same_game() {
    for_every_game(8, |program, seed, plies| {
        let mut game = BoardGame::new(Engine::new(program));
        let max = u32::try_from(plies).unwrap_or(u32::MAX);
        let (first, end) = random_play(&mut game, &mut ChaCha8Rng::seed_from_u64(seed), plies);
        for _ in &first {
            prop_assert!(game.undo());
        }
        let (again, end_again) =
            random_play(&mut game, &mut ChaCha8Rng::seed_from_u64(seed), plies);
        prop_assert_eq!(&first, &again);
        prop_assert_eq!(end, end_again);

        // The engine's own playouts (the fast path of `playout` and the agents).
        let mut engine = Engine::new(program);
        let mut moves = Vec::new();
        let mut undos = Vec::new();
        let mut playout = |seed: u64| {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            rulestone::runtime::playout::random_game(
                &mut engine,
                &mut rng,
                max,
                &mut moves,
                &mut undos,
            )
        };
        let (a, b) = (playout(seed), playout(seed));
        prop_assert_eq!(a.plies, b.plies);
        prop_assert_eq!(a.result, b.result);
        prop_assert_eq!(a.scores, b.scores);
        Ok(())
    });
}
