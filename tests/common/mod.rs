//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::path::{Path, PathBuf};

use rulestone::ir::Program;

pub mod cli;

/// The crate root, so tests find `games/` wherever cargo runs them from.
pub fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Compiles a game file with `NAME=VALUE` options, panicking with the reason (tests only).
pub fn program(path: &Path, options: &[(String, String)]) -> Program {
    let source = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    rulestone::compile(&source, options)
        .unwrap_or_else(|e| panic!("{} does not compile: {e}", path.display()))
}

/// One line of a `.perft` data file.
#[derive(Debug, Clone)]
pub struct PerftCase {
    pub depth: u32,
    pub nodes: u64,
    pub options: Vec<(String, String)>,
    /// The moves that lead to the counted position (`after: M1; M2`), in notation.
    pub after: Vec<String>,
    /// For games with chance, the rolls met along every line (`rolls: 3 5 2; 1 1 4`).
    pub rolls: Vec<Vec<i32>>,
    pub line: usize,
}

/// Reads `perft <depth> <nodes> [NAME=VALUE ...] [rolls: R1; R2] [after: M1; M2]` lines; `#`
/// starts a comment.
pub fn perft_cases(path: &Path) -> Vec<PerftCase> {
    let text = std::fs::read_to_string(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut cases = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let (line, after) = match line.split_once("after:") {
            Some((head, moves)) => (
                head,
                moves
                    .split(';')
                    .map(|m| m.trim().to_string())
                    .filter(|m| !m.is_empty())
                    .collect(),
            ),
            None => (line, Vec::new()),
        };
        let (line, rolls) = match line.split_once("rolls:") {
            Some((head, rolls)) => (
                head,
                rolls
                    .split(';')
                    .map(|r| {
                        r.split_whitespace()
                            .map(|v| v.parse().expect("a roll value"))
                            .collect::<Vec<i32>>()
                    })
                    .filter(|r| !r.is_empty())
                    .collect(),
            ),
            None => (line, Vec::new()),
        };
        let words: Vec<&str> = line.split_whitespace().collect();
        assert!(
            words.len() >= 3 && words[0] == "perft",
            "{}:{}: expected `perft <depth> <nodes> [NAME=VALUE ...] [after: M1; M2 ...]`",
            path.display(),
            i + 1
        );
        let options = words[3..]
            .iter()
            .map(|w| {
                let (n, v) = w
                    .split_once('=')
                    .unwrap_or_else(|| panic!("{}:{}: bad option `{w}`", path.display(), i + 1));
                (n.to_string(), v.to_string())
            })
            .collect();
        cases.push(PerftCase {
            depth: words[1].parse().expect("depth"),
            nodes: words[2].parse().expect("nodes"),
            options,
            after,
            rolls,
            line: i + 1,
        });
    }
    cases
}

/// Plays moves given in notation; panics naming the first one that is not legal.
pub fn play_moves(engine: &mut rulestone::runtime::Engine<'_>, moves: &[String]) {
    let mut legal = Vec::new();
    for (i, text) in moves.iter().enumerate() {
        engine.legal_moves(&mut legal);
        let m = legal
            .iter()
            .copied()
            .find(|m| engine.move_text(m) == *text)
            .unwrap_or_else(|| panic!("move {} `{text}` is not legal", i + 1));
        let _ = engine.apply(&m);
    }
}

/// Every `.perft` file under `dir` with its `.game` file beside it.
pub fn perft_files(dir: &Path) -> Vec<(PathBuf, PathBuf)> {
    let mut out = Vec::new();
    let Ok(entries) = std::fs::read_dir(dir) else {
        return out;
    };
    for e in entries.flatten() {
        let p = e.path();
        if p.extension().is_some_and(|x| x == "perft") {
            out.push((p.with_extension("game"), p));
        }
    }
    out.sort();
    out
}

/// Files under `dir` (recursively) with the extension, sorted.
pub fn files(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            files(&path, ext, out);
        } else if path.extension().is_some_and(|e| e == ext) {
            out.push(path);
        }
    }
    out.sort();
}

/// Every bundled game, `games/*.game`, sorted.
pub fn bundled_games() -> Vec<PathBuf> {
    let mut games = Vec::new();
    files(&root().join("games"), "game", &mut games);
    assert!(!games.is_empty(), "no games in games/");
    games.retain(|path| !is_table_game(path));
    games
}

/// Whether a game file is a table game (discs on a table: no board, no move tables).
pub fn is_table_game(path: &Path) -> bool {
    std::fs::read_to_string(path)
        .ok()
        .and_then(|s| rulestone::syntax::parse(&s).ok())
        .is_some_and(|f| rulestone::check::table::is_table_game(&f))
}

/// Every board game (no table games) under `games/` and `tests/games/`.
pub fn board_games() -> Vec<PathBuf> {
    let mut paths = bundled_games();
    files(&root().join("tests/games"), "game", &mut paths);
    paths.retain(|p| !is_table_game(p));
    paths
}

/// Each game in each combination of its enum options, labelled as `rulestone compile` labels
/// it (`Pylos (variant=basic)`), without repeated labels.
pub fn variants(paths: &[PathBuf]) -> Vec<(String, Program)> {
    let mut out: Vec<(String, Program)> = Vec::new();
    for path in paths {
        let source = std::fs::read_to_string(path).expect("readable game");
        let file = rulestone::parse(&source).expect("the game parses");
        for sets in rulestone::check::options::variants(&file) {
            let program = program(path, &sets);
            let label = rulestone::cli::compile::label(&program.name, &sets);
            if !out.iter().any(|(l, _)| *l == label) {
                out.push((label, program));
            }
        }
    }
    out
}

/// Asserts that the checked-in generated module at `generated` is what `codegen::emit` writes
/// for `units` today; `regenerate` is the command that rewrites it.
pub fn assert_generated_current(generated: &str, units: &[(String, Program)], regenerate: &str) {
    let text = rulestone::codegen::emit(
        &units
            .iter()
            .map(|(label, program)| rulestone::codegen::Unit {
                program,
                label: label.clone(),
            })
            .collect::<Vec<_>>(),
    );
    let old = std::fs::read_to_string(root().join(generated)).unwrap_or_default();
    assert!(
        old == text,
        "{generated} is stale: regenerate it with\n  {regenerate}"
    );
}

/// A table game's program for its default parameters.
pub fn table_program(file: &str) -> rulestone::ir::table::TableProgram {
    let source = std::fs::read_to_string(root().join(file)).expect("read the game");
    let file = rulestone::syntax::parse(&source).expect("parse");
    rulestone::compile_table_parsed(&file, &[])
        .expect("a table game")
        .1
}
