//! The two backends on generated programs: random, well-typed games from the seeded generator
//! in `tests/generator/`, each run by the interpreter and by its compiled code, which must list
//! the same moves in the same order, reach the same positions and count the same perft. The
//! games are checked in under `tests/differential/games/` (one `gen_SEED.game` per seed of
//! [`SEEDS`]) and their compiled code in `tests/differential/generated.rs`, made by the same
//! command as the bundled games' code, and both are kept current.
//!
//! A third engine runs each program as a plain interpreter: every `let` recomputed when a move
//! is applied, every move generated to the end of the turn. It checks two shortcuts both
//! backends share (which `let`s a replay skips, where generation may stop), which the two
//! backends alone cannot tell apart from the rules.
//!
//! After a change to the generator or [`SEEDS`], regenerate the games, then their code; after a
//! change to the lowering or the code generator, only the code:
//!
//! ```text
//! cargo test --test differential -- --ignored write_generated_games
//! cargo run --release -- compile tests/differential/games/*.game --module tests/differential/generated.rs
//! ```
//!
//! (When `generated.rs` no longer builds against the library, run the second command first.)
//! To choose [`SEEDS`] after a change to the generator,
//! `cargo test --test differential -- --ignored candidate_seeds --nocapture` lists the first
//! seeds whose games check clean and have a move, and those among them that hit a bug. A bug
//! the generator finds is kept as a small game under `tests/differential/found/`, and the seeds
//! that hit it are left out of [`SEEDS`].

mod common;
mod generator;

#[rustfmt::skip]
#[path = "differential/generated.rs"]
mod generated;

use std::path::PathBuf;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rulestone::diag;
use rulestone::ir::{Op, Program};
use rulestone::runtime::perft::{perft, perft_by_engine};
use rulestone::runtime::playout::random_game;
use rulestone::runtime::{BackendKind, Compiled, Engine, GameResult, Move};

/// The seeds of the checked-in games: the first 40 from 0 whose games check clean and have a
/// move from the start, as `candidate_seeds` lists them (none of them hits a known bug).
const SEEDS: &[u64] = &[
    0, 1, 2, 3, 4, 6, 7, 8, 9, 10, 11, 12, 13, 14, 17, 18, 19, 20, 21, 22, 23, 25, 27, 28, 29, 30,
    32, 33, 34, 35, 36, 37, 38, 39, 40, 42, 43, 44, 45, 46,
];

const GAMES: &str = "tests/differential/games";
const GENERATED: &str = "tests/differential/generated.rs";

/// The generated table, as a binary built by `rulestone compile` passes it in.
const COMPILED: Compiled = Compiled::new(&generated::TURNS);

fn game_path(seed: u64) -> PathBuf {
    common::root()
        .join(GAMES)
        .join(format!("gen_{seed:04}.game"))
}

/// Whether the checker finds no error in a source (warnings are fine: generated games leave
/// many declarations unused).
fn accepted(source: &str) -> bool {
    !diag::has_errors(&rulestone::diagnose(source, &[]))
}

/// Every checked-in game in each of its enum variants, in the order `rulestone compile` takes
/// them from `tests/differential/games/*.game`.
fn units() -> Vec<(String, Program)> {
    let mut paths = Vec::new();
    common::files(&common::root().join(GAMES), "game", &mut paths);
    common::variants(&paths)
}

#[test]
fn generated_games_are_current() {
    let mut on_disk = Vec::new();
    common::files(&common::root().join(GAMES), "game", &mut on_disk);
    let wanted: Vec<PathBuf> = SEEDS.iter().map(|&s| game_path(s)).collect();
    let mut sorted = wanted.clone();
    sorted.sort();
    assert_eq!(
        on_disk, sorted,
        "{GAMES} does not hold exactly the games of SEEDS: regenerate them with\n  \
         cargo test --test differential -- --ignored write_generated_games"
    );
    for (&seed, path) in SEEDS.iter().zip(&wanted) {
        let text = std::fs::read_to_string(path).expect("readable game");
        assert!(
            text == generator::game(seed),
            "{} is not what the generator makes of seed {seed}: regenerate the games with\n  \
             cargo test --test differential -- --ignored write_generated_games",
            path.display()
        );
    }
    common::assert_generated_current(
        GENERATED,
        &units(),
        &format!("cargo run --release -- compile {GAMES}/*.game --module {GENERATED}"),
    );
}

/// Writes the games of [`SEEDS`] and removes other generated games.
#[test]
#[ignore = "writes tests/differential/games/; run after changing the generator or SEEDS"]
fn write_generated_games() {
    let dir = common::root().join(GAMES);
    std::fs::create_dir_all(&dir).expect("the games directory");
    let mut old = Vec::new();
    common::files(&dir, "game", &mut old);
    for path in old {
        std::fs::remove_file(&path).expect("a removable game");
    }
    for &seed in SEEDS {
        let source = generator::game(seed);
        assert!(accepted(&source), "seed {seed} does not check clean");
        std::fs::write(game_path(seed), source).expect("a writable game");
    }
}

/// The program as a plain interpreter runs it: every `let` recomputed when a move is applied
/// (not only those the replay-lets pass marks), and no shortcut where the rest of a turn could
/// not reject the move. It must do exactly what the program does.
fn plain(program: &Program) -> Program {
    let mut plain = program.clone();
    for op in &mut plain.turn.ops {
        if let Op::Let { replay, .. } = op {
            *replay = true;
        }
    }
    plain.turn.decided.fill(false);
    plain
}

/// Plays seeded random games on the interpreter and the plain interpreter (see [`plain`]),
/// comparing moves, notation and positions; the number of moves listed at the start.
fn interpreters_agree(program: &Program, games: u32) -> Result<usize, String> {
    let plain_program = plain(program);
    let mut engine = Engine::new(program);
    let mut reference = Engine::new(&plain_program);
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let (mut a, mut b): (Vec<Move>, Vec<Move>) = (Vec::new(), Vec::new());
    engine.legal_moves(&mut a);
    let first = a.len();
    for game in 0..games {
        let mut undos = Vec::new();
        for ply in 0..200 {
            engine.legal_moves(&mut a);
            reference.legal_moves(&mut b);
            if a != b {
                return Err(format!("game {game}, ply {ply}: the moves differ"));
            }
            if a.is_empty() || engine.state.result.is_some() || a.len() > MOVE_CAP {
                break;
            }
            let m = a[rng.gen_range(0..a.len())];
            let (text, plain_text) = (engine.move_text(&m), reference.move_text(&m));
            if text != plain_text {
                return Err(format!(
                    "game {game}, ply {ply}: `{text}` is `{plain_text}` to the plain interpreter"
                ));
            }
            undos.push((engine.apply(&m), reference.apply(&m)));
            if engine.state != reference.state {
                return Err(format!(
                    "game {game}, ply {ply}: the positions after `{text}` differ"
                ));
            }
        }
        while let Some((u, v)) = undos.pop() {
            engine.undo(u);
            reference.undo(v);
        }
    }
    Ok(first)
}

/// Lists the first seeds whose games check clean and have a move from the start, to choose
/// [`SEEDS`] from, and those among them that hit a bug (a panic, or the interpreters differ).
#[test]
#[ignore = "prints candidate seeds; run with --nocapture"]
fn candidate_seeds() {
    let n: usize = std::env::var("SEEDS_WANTED")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(40);
    let (mut seeds, mut bugs) = (Vec::new(), Vec::new());
    for seed in 0.. {
        if seeds.len() == n {
            break;
        }
        let source = generator::game(seed);
        if !accepted(&source) {
            continue;
        }
        let run = std::panic::catch_unwind(|| {
            let program = rulestone::compile(&source, &[]).map_err(|e| e.to_string())?;
            interpreters_agree(&program, 20)
        });
        match run {
            Ok(Ok(0)) => {}
            Ok(Ok(_)) => seeds.push(seed),
            Ok(Err(why)) => bugs.push(format!("{seed}: {why}")),
            Err(_) => bugs.push(format!("{seed}: panics")),
        }
    }
    println!("playable: {seeds:?}");
    println!("hitting a bug (leave out, keep a small game under tests/differential/found/):");
    for b in bugs {
        println!("  {b}");
    }
}

/// The generator's own promises: most seeds check clean, and games differ.
#[test]
fn generator_makes_valid_and_varied_games() {
    let seeds = 0..200u64;
    let sources: Vec<String> = seeds.clone().map(generator::game).collect();
    for (seed, source) in seeds.clone().zip(&sources) {
        assert_eq!(
            *source,
            generator::game(seed),
            "seed {seed} is not repeatable"
        );
    }
    let ok = sources.iter().filter(|s| accepted(s)).count();
    assert!(
        ok * 10 >= sources.len() * 9,
        "only {ok} of {} generated games check clean",
        sources.len()
    );
    let mut distinct = sources.clone();
    distinct.sort();
    distinct.dedup();
    assert!(
        distinct.len() * 10 >= sources.len() * 9,
        "only {} of {} generated games differ",
        distinct.len(),
        sources.len()
    );
    let turns: std::collections::BTreeSet<&str> = sources
        .iter()
        .filter_map(|s| s.split("\nturn {").nth(1))
        .collect();
    assert!(
        turns.len() > 150,
        "only {} distinct turn programs",
        turns.len()
    );
}

/// Most moves a position may list before a random game stops there (the generator keeps
/// well under it; this only bounds the test's time).
const MOVE_CAP: usize = 5_000;

#[test]
fn both_backends_agree_on_generated_games() {
    let units_ = units();
    assert!(
        units_.len() >= SEEDS.len(),
        "fewer programs than seeds: are the games written?"
    );
    let (mut plies, mut deepest) = (0u64, 0u32);
    for (label, program) in &units_ {
        let mut fast = Engine::with_backend(program, COMPILED.backend_for(program));
        assert_eq!(
            fast.backend(),
            BackendKind::Compiled,
            "{label}: no current compiled code; regenerate {GENERATED}"
        );
        let mut slow = Engine::new(program);
        assert_eq!(slow.backend(), BackendKind::Interpreter);
        assert_eq!(fast.state, slow.state, "{label}: the start");
        let start = slow.state.clone();
        if let Err(why) = interpreters_agree(program, 10) {
            panic!("{label}: the interpreter and the plain interpreter differ: {why}");
        }

        // Seeded random games, compared move list by move list and position by position, then
        // taken back.
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let (mut a, mut b): (Vec<Move>, Vec<Move>) = (Vec::new(), Vec::new());
        let mut widest = 1;
        for game in 0..20 {
            let mut undos = Vec::new();
            for ply in 0..200 {
                fast.legal_moves(&mut a);
                slow.legal_moves(&mut b);
                assert_eq!(a, b, "{label}: game {game}, ply {ply}: the moves differ");
                assert_eq!(
                    fast.chance(),
                    slow.chance(),
                    "{label}: game {game}, ply {ply}"
                );
                widest = widest.max(a.len());
                if a.is_empty() {
                    assert_eq!(
                        fast.outcome(),
                        slow.outcome(),
                        "{label}: game {game}, ply {ply}: the stuck result"
                    );
                    break;
                }
                if fast.state.result.is_some() || a.len() > MOVE_CAP {
                    break;
                }
                let m = a[rng.gen_range(0..a.len())];
                let text = slow.move_text(&m);
                assert_eq!(fast.move_text(&m), text, "{label}");
                undos.push((fast.apply(&m), slow.apply(&m)));
                assert_eq!(
                    fast.state, slow.state,
                    "{label}: game {game}, ply {ply}: the positions differ after `{text}`"
                );
                plies += 1;
            }
            assert_eq!(fast.state.result, slow.state.result, "{label}: game {game}");
            while let Some((u, v)) = undos.pop() {
                fast.undo(u);
                slow.undo(v);
            }
            assert_eq!(fast.state, start, "{label}: game {game}: undone (compiled)");
            assert_eq!(
                slow.state, start,
                "{label}: game {game}: undone (interpreter)"
            );
        }
        assert!(
            !fast.overflowed && !slow.overflowed,
            "{label}: a move overflowed"
        );

        // perft from the start: compiled (on the position value when it can), compiled through
        // the engine, interpreted, and plainly interpreted, as deep as stays cheap.
        let plain_program = plain(program);
        let mut reference = Engine::new(&plain_program);
        let mut depth = 1;
        loop {
            let nodes = perft(&mut slow, depth);
            assert_eq!(perft(&mut fast, depth), nodes, "{label}: perft {depth}");
            assert_eq!(
                perft_by_engine(&mut fast, depth),
                nodes,
                "{label}: perft {depth} through the engine"
            );
            assert_eq!(
                perft(&mut reference, depth),
                nodes,
                "{label}: perft {depth} of the plain interpreter"
            );
            deepest = deepest.max(depth);
            if depth == 5 || nodes == 0 || nodes.saturating_mul(widest as u64) > 2_000_000 {
                break;
            }
            depth += 1;
        }
        assert_eq!(fast.state, start, "{label}: perft leaves the start");

        // Whole random games on the compiled position value against the interpreter's.
        let (mut x, mut y) = (ChaCha8Rng::seed_from_u64(5), ChaCha8Rng::seed_from_u64(5));
        let (mut moves, mut undos) = (Vec::new(), Vec::new());
        for game in 0..10 {
            let p = random_game(&mut fast, &mut x, 200, &mut moves, &mut undos);
            let q = random_game(&mut slow, &mut y, 200, &mut moves, &mut undos);
            assert_eq!(p, q, "{label}: random game {game}");
            assert_eq!(fast.state, start, "{label}: the start is restored");
        }
    }
    assert!(plies > 0 && deepest > 1, "the games were hardly played");
}

/// A small game under `tests/differential/found/` that reproduced a bug the generator found
/// (each file says what went wrong), with what must hold once it is fixed.
struct Found {
    file: &'static str,
    /// Still open when the test was written: only the ignored test expects it to hold.
    open: bool,
    holds: fn(&str) -> bool,
}

/// No panic, and no game won by a player who is not one of the two, along random games.
fn plays_with_two_players(source: &str) -> bool {
    if !accepted(source) {
        return true; // refused by the checker: fixed another way
    }
    std::panic::catch_unwind(|| {
        let program = rulestone::compile(source, &[]).expect("checks clean");
        let mut engine = Engine::new(&program);
        let mut rng = ChaCha8Rng::seed_from_u64(1);
        let (mut moves, mut undos) = (Vec::new(), Vec::new());
        (0..10)
            .map(|_| random_game(&mut engine, &mut rng, 100, &mut moves, &mut undos).result)
            .all(|r| !matches!(r, Some(GameResult::Win(w)) if w > 1))
    })
    .unwrap_or(false)
}

const FOUND: &[Found] = &[
    Found {
        file: "put-of-no-player.game",
        open: false,
        holds: plays_with_two_players,
    },
    Found {
        file: "counter-of-no-player.game",
        open: false,
        holds: plays_with_two_players,
    },
    Found {
        file: "win-of-no-player.game",
        open: false,
        holds: plays_with_two_players,
    },
    Found {
        file: "points-of-no-player.game",
        open: false,
        holds: plays_with_two_players,
    },
    Found {
        file: "cell-missing-for-an-option-value.game",
        open: false,
        holds: |source| {
            let width = [("width".to_string(), "3".to_string())];
            diag::has_errors(&rulestone::diagnose(source, &width))
        },
    },
    Found {
        file: "zone-cell-missing-for-an-option-value.game",
        open: false,
        holds: |source| {
            let diags = rulestone::diagnose(source, &[]);
            diag::has_errors(&diags)
                && !diags
                    .iter()
                    .any(|d| diag::code_of(d.as_ref()).as_deref() == Some("E0999"))
        },
    },
    Found {
        file: "let-read-through-a-direction.game",
        open: false,
        holds: |source| {
            let program = rulestone::compile(source, &[]).expect("checks clean");
            interpreters_agree(&program, 5).is_ok()
        },
    },
];

/// The games in `tests/differential/found/` that fail what they should hold, among those
/// `open` or not.
fn found_failing(open: bool) -> Vec<&'static str> {
    let dir = common::root().join("tests/differential/found");
    let mut listed = Vec::new();
    common::files(&dir, "game", &mut listed);
    assert_eq!(
        listed.len(),
        FOUND.len(),
        "every game in tests/differential/found/ has an entry in FOUND"
    );
    FOUND
        .iter()
        .filter(|f| f.open == open)
        .filter(|f| {
            let source = std::fs::read_to_string(dir.join(f.file)).expect("a found game");
            !(f.holds)(&source)
        })
        .map(|f| f.file)
        .collect()
}

/// Bugs the generator found and that were fixed stay fixed.
#[test]
fn found_bugs_stay_fixed() {
    let failing = found_failing(false);
    assert!(failing.is_empty(), "broken again: {failing:?}");
}

/// Bugs the generator found that are still open; this fails while any of them is.
#[test]
#[ignore = "known bugs in src/, kept as games in tests/differential/found/"]
fn open_found_bugs_are_fixed() {
    let failing = found_failing(true);
    assert!(failing.is_empty(), "still failing: {failing:?}");
}
