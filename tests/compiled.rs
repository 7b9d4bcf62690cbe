//! The compiled backend against the interpreter, on every bundled game and test game and every
//! combination of its enum options: the bundled games' code built into the binary (feature
//! `bundled`, generated from `games/` when the package is built) and the test games' code in
//! `tests/compiled/test_games.rs` (what `codegen` emits today) are the code engines pick up, and
//! they list exactly the interpreter's moves, in the same order, along seeded random games and in
//! the perft tables.
//!
//! After a change to the lowering or the code generator, regenerate the test games' file with
//! `cargo run --release -- compile tests/games/*.game --module tests/compiled/test_games.rs`.

mod common;

#[rustfmt::skip]
#[path = "compiled/test_games.rs"]
mod test_games;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rulestone::ir::Program;
use rulestone::runtime::perft::{perft, perft_by_engine, perft_with_rolls};
use rulestone::runtime::playout::{random_game, random_game_looking};
use rulestone::runtime::{Backend, BackendKind, Compiled, Engine, Move};

const GENERATED: &str = "tests/compiled/test_games.rs";

/// Every bundled game (`games/`, `tests/games/`) in each of its enum variants.
fn units() -> Vec<(String, Program)> {
    common::variants(&common::board_games())
}

/// The test games' generated table, as a binary built by `rulestone compile` passes it in.
const TEST_GAMES: Compiled = Compiled::new(&test_games::TURNS);

/// An engine on the compiled backend when the generated code (the bundled games' built into
/// the binary, or the test games') is for this program.
fn compiled_engine(program: &Program) -> Engine<'_> {
    let backend = match rulestone::cli::bundled().backend_for(program) {
        Backend::Interpreter => TEST_GAMES.backend_for(program),
        compiled => compiled,
    };
    Engine::with_backend(program, backend)
}

#[test]
fn generated_code_is_current() {
    let mut test_games = Vec::new();
    common::files(&common::root().join("tests/games"), "game", &mut test_games);
    test_games.retain(|p| !common::is_table_game(p));
    common::assert_generated_current(
        GENERATED,
        &common::variants(&test_games),
        &format!("cargo run --release -- compile tests/games/*.game --module {GENERATED}"),
    );
}

#[test]
fn every_bundled_variant_runs_compiled() {
    for (label, program) in units() {
        let engine = compiled_engine(&program);
        assert_eq!(engine.backend(), BackendKind::Compiled, "{label}");
        assert_eq!(Engine::new(&program).backend(), BackendKind::Interpreter);
    }
}

#[test]
fn compiled_lists_the_interpreters_moves_along_random_games() {
    for (label, program) in units() {
        let mut fast = compiled_engine(&program);
        let mut slow = Engine::new(&program);
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut a, mut b): (Vec<Move>, Vec<Move>) = (Vec::new(), Vec::new());
        let mut plies = 0;
        for _game in 0..20 {
            let mut undos = Vec::new();
            for _ply in 0..200 {
                fast.legal_moves(&mut a);
                slow.legal_moves(&mut b);
                assert_eq!(a, b, "{label}: ply {} of a random game", undos.len());
                if a.is_empty() || fast.state.result.is_some() {
                    break;
                }
                let m = a[rng.gen_range(0..a.len())];
                undos.push((fast.apply(&m), slow.apply(&m)));
                assert_eq!(fast.state, slow.state, "{label}");
                assert_eq!(fast.heuristic(), slow.heuristic(), "{label}");
                plies += 1;
            }
            while let Some((u, v)) = undos.pop() {
                fast.undo(u);
                slow.undo(v);
            }
        }
        assert!(plies > 0, "{label}: no moves played");
    }
}

#[test]
fn compiled_perft_matches_the_tables() {
    let mut checked = 0;
    for dir in ["games", "tests/games"] {
        for (game, table) in common::perft_files(&common::root().join(dir)) {
            for case in common::perft_cases(&table) {
                if case.nodes > 2_000_000 {
                    continue;
                }
                let program = common::program(&game, &case.options);
                let mut engine = compiled_engine(&program);
                if engine.backend() != BackendKind::Compiled {
                    continue;
                }
                common::play_moves(&mut engine, &case.after);
                let nodes = if program.has_chance() {
                    perft_with_rolls(&mut engine, case.depth, &case.rolls).unwrap_or(u64::MAX)
                } else {
                    perft(&mut engine, case.depth)
                };
                assert_eq!(nodes, case.nodes, "{}:{}", table.display(), case.line);
                checked += 1;
            }
        }
    }
    assert!(checked > 0, "no perft line ran compiled");
}

/// Whole searches on the compiled position value (copy-make, no trail) count and play as the
/// engine does: perft against apply/undo through the engine, seeded random games against the
/// interpreter's, ply for ply and result for result.
#[test]
fn runs_on_the_position_value_match_the_engine() {
    for (label, program) in units() {
        let mut fast = compiled_engine(&program);
        let mut slow = Engine::new(&program);
        for depth in 0..=3 {
            let nodes = perft(&mut fast, depth);
            assert_eq!(
                nodes,
                perft_by_engine(&mut fast, depth),
                "{label}: perft {depth}"
            );
            if nodes > 20_000 {
                break;
            }
        }
        let start = fast.state.clone();
        let (mut a, mut b) = (ChaCha8Rng::seed_from_u64(3), ChaCha8Rng::seed_from_u64(3));
        let (mut moves, mut undos) = (Vec::new(), Vec::new());
        for game in 0..20 {
            let x = random_game(&mut fast, &mut a, 200, &mut moves, &mut undos);
            let y = random_game(&mut slow, &mut b, 200, &mut moves, &mut undos);
            assert_eq!(x, y, "{label}: random game {game}");
            assert_eq!(fast.state, start, "{label}: the start is restored");
        }
    }
}

/// Runs on the position value of rules that read `repetitions` keep the game's history beside
/// it: from a position reached by a random line (so that the history lent to them is not
/// empty, and in small games holds repeated positions), perft counts as through the engine,
/// random games play as the interpreter's, the end position a search looks at has the history
/// of the line that led to it, and the engine's history is as it was afterwards.
#[test]
fn runs_on_the_position_value_read_the_line_that_led_there() {
    let mut checked = 0;
    for (label, program) in units() {
        if !program.uses_history() {
            continue;
        }
        let mut fast = compiled_engine(&program);
        let mut slow = Engine::new(&program);
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        let mut moves = Vec::new();
        for _ in 0..12 {
            fast.legal_moves(&mut moves);
            if moves.is_empty() || fast.state.result.is_some() {
                break;
            }
            let m = moves[rng.gen_range(0..moves.len())];
            let _ = fast.apply(&m);
            let _ = slow.apply(&m);
        }
        assert_eq!(fast.history(), slow.history(), "{label}");
        let (start, line) = (fast.state.clone(), fast.history().to_vec());
        for depth in 0..=4 {
            let nodes = perft(&mut fast, depth);
            assert_eq!(
                nodes,
                perft_by_engine(&mut slow, depth),
                "{label}: perft {depth}"
            );
            assert_eq!(fast.history(), line, "{label}: perft {depth}");
            if nodes > 20_000 {
                break;
            }
        }
        let (mut a, mut b) = (ChaCha8Rng::seed_from_u64(3), ChaCha8Rng::seed_from_u64(3));
        let mut undos = Vec::new();
        for game in 0..20 {
            let x = random_game(&mut fast, &mut a, 300, &mut moves, &mut undos);
            let y = random_game(&mut slow, &mut b, 300, &mut moves, &mut undos);
            assert_eq!(x, y, "{label}: random game {game}");
            assert_eq!(fast.state, start, "{label}: the start is restored");
            assert_eq!(fast.history(), line, "{label}: the history is restored");
            let (mut seen_fast, mut seen_slow) = (Vec::new(), Vec::new());
            let x = random_game_looking(&mut fast, &mut a, 8, &mut moves, &mut |e| {
                seen_fast = e.history().to_vec();
            });
            let y = random_game_looking(&mut slow, &mut b, 8, &mut moves, &mut |e| {
                seen_slow = e.history().to_vec();
            });
            assert_eq!(x, y, "{label}: cut game {game}");
            assert_eq!(seen_fast, seen_slow, "{label}: cut game {game}");
            assert_eq!(fast.history(), line, "{label}: the history is restored");
        }
        checked += 1;
    }
    assert!(checked > 0, "no bundled game reads the history");
}

/// Where a `require` stands in the file (kept for `play`'s `why`) is no part of the program's
/// meaning: moving it down a line leaves the fingerprint of generated code unchanged.
#[test]
fn rule_positions_leave_the_fingerprint_unchanged() {
    let source = std::fs::read_to_string("games/pylos.game").unwrap_or_default();
    let moved = source.replacen("turn {", "\n\nturn {", 1);
    assert_ne!(source, moved);
    let fp = |text: &str| {
        let program = rulestone::compile(text, &[]).unwrap_or_else(|e| panic!("{e:?}"));
        assert!(!program.rule_spans.0.is_empty());
        rulestone::runtime::compiled::fingerprint(&program)
    };
    assert_eq!(fp(&source), fp(&moved));
}

/// A generation that runs out of steps lists nothing on either backend, through every way
/// moves are listed (the engine's list, the fast perft, the fast random game), and leaves the
/// engine exhausted; with the default limit no bundled game comes near it.
#[test]
fn step_limit_stops_both_backends() {
    for (label, program) in units() {
        let backends = [Engine::new(&program), compiled_engine(&program)];
        for (k, fresh) in backends.into_iter().enumerate() {
            let mut engine = fresh.clone();
            let mut moves = Vec::new();
            engine.legal_moves(&mut moves);
            assert!(!engine.exhausted, "{label} #{k}");
            if moves.is_empty() {
                continue;
            }
            engine.set_step_limit(1);
            engine.legal_moves(&mut moves);
            assert!(moves.is_empty() && engine.exhausted, "{label} #{k}: list");

            let mut engine = fresh.clone();
            engine.set_step_limit(1);
            assert_eq!(perft(&mut engine, 3), 0, "{label} #{k}: perft");
            assert!(engine.exhausted, "{label} #{k}: perft");

            let mut engine = fresh;
            engine.set_step_limit(1);
            let mut rng = ChaCha8Rng::seed_from_u64(7);
            let (mut moves, mut undos) = (Vec::new(), Vec::new());
            let p = random_game(&mut engine, &mut rng, 50, &mut moves, &mut undos);
            assert_eq!(p.plies, 0, "{label} #{k}: random game");
            assert!(engine.exhausted, "{label} #{k}: random game");
        }
    }
}
