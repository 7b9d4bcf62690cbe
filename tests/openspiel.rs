//! The differential test against OpenSpiel: Rulestone's games agree move for move with
//! OpenSpiel's independent C++ implementations.
//!
//! `tests/openspiel/traces.py` (run by `.ci/run` after installing the `open_spiel` package)
//! writes, per game, OpenSpiel's perft counts from the start and seeded random games: the legal
//! moves at every ply and the move played, translated into the Rulestone file's notation, and
//! the returns at the end. This test replays each trace in Rulestone's interpreter and requires
//! the same perft counts, the same legal move set at every ply, the end at the same ply and the
//! same returns (`tests/compiled.rs` holds the compiled backend to the interpreter on these
//! games). The traces are read from the directory in `RULESTONE_OPENSPIEL_TRACES`; without it
//! the test says it was skipped.

mod common;

use std::path::{Path, PathBuf};

use rulestone::ir::Program;
use rulestone::runtime::perft::perft;
use rulestone::runtime::{Engine, GameResult, Move};

/// One trace file: the game, its options, perft counts and games.
struct Trace {
    file: String,
    sets: Vec<(String, String)>,
    perft: Vec<(u32, u64)>,
    games: Vec<TracedGame>,
}

struct TracedGame {
    seed: String,
    /// Per ply: the legal moves (sorted) and the move played.
    plies: Vec<(Vec<String>, String)>,
    returns: Vec<f64>,
}

fn read_trace(path: &Path) -> Trace {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut trace = Trace {
        file: String::new(),
        sets: Vec::new(),
        perft: Vec::new(),
        games: Vec::new(),
    };
    let mut legal: Vec<String> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let game = trace.games.last_mut();
        match (word, game) {
            ("file", _) => trace.file = rest.to_string(),
            ("set", _) => {
                let (k, v) = rest.split_once('=').expect("set NAME=VALUE");
                trace.sets.push((k.to_string(), v.to_string()));
            }
            ("perft", _) => {
                let (d, n) = rest.split_once(' ').expect("perft DEPTH COUNT");
                trace
                    .perft
                    .push((d.parse().expect("depth"), n.parse().expect("count")));
            }
            ("game", _) => trace.games.push(TracedGame {
                seed: rest.to_string(),
                plies: Vec::new(),
                returns: Vec::new(),
            }),
            ("legal", Some(_)) => legal = rest.split(' ').map(str::to_string).collect(),
            ("play", Some(g)) => g.plies.push((std::mem::take(&mut legal), rest.to_string())),
            ("returns", Some(g)) => {
                g.returns = rest
                    .split(' ')
                    .map(|r| r.parse().expect("return"))
                    .collect();
            }
            _ => panic!("{}: unexpected line `{line}`", path.display()),
        }
    }
    trace
}

/// The legal moves of `engine`, with their notation, sorted by it. The traces separate moves
/// by spaces, so a space inside a move's notation (`roll 4`) is written `_` there.
fn legal(engine: &mut Engine<'_>) -> Vec<(String, Move)> {
    let mut moves = Vec::new();
    engine.legal_moves(&mut moves);
    let mut texts: Vec<(String, Move)> = moves
        .iter()
        .map(|m| (engine.move_text(m).replace(' ', "_"), *m))
        .collect();
    texts.sort_by(|a, b| a.0.cmp(&b.0));
    texts
}

/// OpenSpiel's returns for a Rulestone result: 1 to the winner, -1 to the loser, 0 each in a
/// draw.
fn returns(result: GameResult) -> Vec<f64> {
    match result {
        GameResult::Win(0) => vec![1.0, -1.0],
        GameResult::Win(_) => vec![-1.0, 1.0],
        GameResult::Draw => vec![0.0, 0.0],
    }
}

/// Replays one traced game; the first disagreement, as a message.
fn replay(program: &Program, game: &TracedGame) -> Result<(), String> {
    let mut engine = Engine::new(program);
    for (ply, (expected, played)) in game.plies.iter().enumerate() {
        let moves = legal(&mut engine);
        let texts: Vec<&str> = moves.iter().map(|(t, _)| t.as_str()).collect();
        if texts != *expected {
            return Err(format!(
                "game {}, ply {ply}: Rulestone lists {texts:?}, OpenSpiel {expected:?}",
                game.seed
            ));
        }
        let Some((_, m)) = moves.iter().find(|(t, _)| t == played) else {
            return Err(format!("game {}, ply {ply}: no move `{played}`", game.seed));
        };
        let _ = engine.apply(m);
    }
    match engine.outcome() {
        Some(result) if returns(result) == game.returns => Ok(()),
        other => Err(format!(
            "game {}: after {} plies Rulestone ends with {other:?}, OpenSpiel returns {:?}",
            game.seed,
            game.plies.len(),
            game.returns
        )),
    }
}

fn traces_dir() -> Option<PathBuf> {
    std::env::var_os("RULESTONE_OPENSPIEL_TRACES").map(PathBuf::from)
}

#[test]
fn every_traced_game_agrees_with_openspiel() {
    let Some(dir) = traces_dir() else {
        eprintln!(
            "skipped: RULESTONE_OPENSPIEL_TRACES is not set (`.ci/run` sets it, after \
             `python3 tests/openspiel/traces.py DIR` with the open_spiel package)"
        );
        return;
    };
    let mut paths: Vec<PathBuf> = std::fs::read_dir(&dir)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()))
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "trace"))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "no .trace files in {}", dir.display());
    let mut failures = Vec::new();
    for path in &paths {
        let trace = read_trace(path);
        let program = common::program(&common::root().join(&trace.file), &trace.sets);
        for &(depth, count) in &trace.perft {
            let found = perft(&mut Engine::new(&program), depth);
            if found != count {
                failures.push(format!(
                    "{}: perft {depth} is {found}, OpenSpiel {count}",
                    path.display()
                ));
            }
        }
        for game in &trace.games {
            if let Err(e) = replay(&program, game) {
                failures.push(format!("{}: {e}", path.display()));
                break;
            }
        }
        eprintln!(
            "{}: {} perft depths, {} games agree",
            path.display(),
            trace.perft.len(),
            trace.games.len()
        );
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
