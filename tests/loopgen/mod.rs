//! Turn programs with nested loops, written from a small grammar, and the bounds every one of
//! them must keep when run. Shared by `tests/loops.rs` (a property test, and a fixed corpus on
//! both backends) and the `loops` fuzz target (`fuzz/checks.rs`).
//!
//! The grammar: counter assignments, `while` loops on counters (which end unless their body
//! resets the counter), `repeat` ranges (each round past the least a choice), `if`, and picks,
//! nested up to [`DEPTH`] deep, after a placement on a 3×3 board. For a program the bounds are:
//! - `check` passes it or refuses it with coded errors, never an internal error;
//! - listing the first position's moves under a step bound either finishes, with at most as
//!   many moves as steps, or stops with E1008 and lists none;
//! - memory stays bounded: a move played and taken back leaves the position and its history as
//!   they were, and a short random game keeps at most one history entry a ply.
#![allow(dead_code)]

use rand::{Rng, RngCore};
use rulestone::runtime::game::steps_exceeded;
use rulestone::runtime::{Engine, Move};

/// The step bound the programs run under (the default is far higher; a lower one finds a
/// runaway sooner and keeps the runs short).
pub const STEPS: u64 = 50_000;
/// How deep loops, `repeat`s and `if`s nest.
pub const DEPTH: u32 = 4;
/// The plies of the short random game.
pub const PLIES: u32 = 12;

const COUNTERS: [&str; 3] = ["a", "b", "c"];

/// One statement of the grammar.
#[derive(Clone, Debug)]
pub enum Stmt {
    /// `c = k`
    Set(usize, i32),
    /// `c += k`
    Add(usize, i32),
    /// `c = 0` then `while c < k { c += 1 ... }`: ends unless the body resets `c`.
    While(usize, i32, Vec<Stmt>),
    /// `repeat lo..hi { ... }`: every round past `lo` is a choice (stop or go on).
    Repeat(u8, u8, Vec<Stmt>),
    /// `if c < k { ... }`
    If(usize, i32, Vec<Stmt>),
    /// `pick tN in empty` and `write " {tN}"`: a choice among the empty cells.
    Pick,
}

/// One to three statements, nested at most `depth` deep, every choice from `rng`.
pub fn stmts(rng: &mut dyn RngCore, depth: u32) -> Vec<Stmt> {
    let n = rng.gen_range(1..=3);
    (0..n).map(|_| stmt(rng, depth)).collect()
}

fn stmt(rng: &mut dyn RngCore, depth: u32) -> Stmt {
    let c = rng.gen_range(0..COUNTERS.len());
    let kind = if depth == 0 {
        rng.gen_range(0..3)
    } else {
        rng.gen_range(0..6)
    };
    match kind {
        0 => Stmt::Set(c, rng.gen_range(0..4)),
        1 => Stmt::Add(c, rng.gen_range(1..4)),
        2 => Stmt::Pick,
        3 => {
            let k = if rng.gen_bool(0.5) {
                rng.gen_range(1..6)
            } else {
                rng.gen_range(100..300)
            };
            Stmt::While(c, k, stmts(rng, depth - 1))
        }
        4 => {
            let lo: u8 = rng.gen_range(0..3);
            let hi = lo.saturating_add(rng.gen_range(0..4)).max(1);
            Stmt::Repeat(lo, hi, stmts(rng, depth - 1))
        }
        _ => Stmt::If(c, rng.gen_range(0..4), stmts(rng, depth - 1)),
    }
}

/// Writes statements at `indent`, numbering picks from `picks`.
fn write_stmts(stmts: &[Stmt], indent: usize, picks: &mut usize, out: &mut String) {
    let pad = " ".repeat(indent);
    for s in stmts {
        match s {
            Stmt::Set(c, k) => out.push_str(&format!("{pad}{} = {k}\n", COUNTERS[*c])),
            Stmt::Add(c, k) => out.push_str(&format!("{pad}{} += {k}\n", COUNTERS[*c])),
            Stmt::While(c, k, body) => {
                let name = COUNTERS[*c];
                out.push_str(&format!(
                    "{pad}{name} = 0\n{pad}while {name} < {k} {{\n{pad}    {name} += 1\n"
                ));
                write_stmts(body, indent + 4, picks, out);
                out.push_str(&format!("{pad}}}\n"));
            }
            Stmt::Repeat(lo, hi, body) => {
                out.push_str(&format!("{pad}repeat {lo}..{hi} {{\n"));
                write_stmts(body, indent + 4, picks, out);
                out.push_str(&format!("{pad}}}\n"));
            }
            Stmt::If(c, k, body) => {
                out.push_str(&format!("{pad}if {} < {k} {{\n", COUNTERS[*c]));
                write_stmts(body, indent + 4, picks, out);
                out.push_str(&format!("{pad}}}\n"));
            }
            Stmt::Pick => {
                *picks += 1;
                let p = *picks;
                out.push_str(&format!(
                    "{pad}pick t{p} in empty\n{pad}write \" {{t{p}}}\"\n"
                ));
            }
        }
    }
}

/// A whole game around the statements: they run after a placement, and a full board ends the
/// game.
#[must_use]
pub fn game(stmts: &[Stmt]) -> String {
    let mut body = String::new();
    write_stmts(stmts, 4, &mut 0, &mut body);
    format!(
        "game \"Loops\"\nplayers X, O\nboard {{\n    axes x, y\n    cells x in 0..2, y in 0..2\n    \
         name \"{{letter(x)}}{{y + 1}}\"\n}}\npiece stone\ncounter a = 0\ncounter b = 0\n\
         counter c = 0\nturn {{\n    pick s in empty\n    put stone at s\n    write \"{{s}}\"\n\
         {body}    if count(empty) == 0 {{\n        draw\n    }}\n}}\non no moves {{\n    draw\n}}\n"
    )
}

/// What listing the first position's moves did, on one engine.
#[derive(Debug, PartialEq, Eq)]
pub struct Listed {
    pub moves: Vec<Move>,
    pub exhausted: bool,
}

/// Lists the first position's moves under [`STEPS`] and asserts the bounds; then plays the
/// first move and takes it back, and plays a short random game.
pub fn run_bounded(engine: &mut Engine<'_>, label: &str) -> Listed {
    engine.set_step_limit(STEPS);
    let mut moves = Vec::new();
    engine.legal_moves(&mut moves);
    if engine.exhausted {
        assert!(
            moves.is_empty(),
            "{label}: an exhausted generation lists nothing"
        );
        let error = steps_exceeded(engine).expect("E1008 says why");
        assert_eq!(error.limit, STEPS, "{label}");
    } else {
        assert!(
            moves.len() as u64 <= STEPS,
            "{label}: more moves than steps"
        );
    }
    if let Some(m) = moves.first() {
        let (board, counters, hash) = (
            engine.state.board.clone(),
            engine.state.counters.clone(),
            engine.state.hash,
        );
        let history = engine.history().len();
        let undo = engine.apply(m);
        assert!(engine.history().len() <= history + 1, "{label}");
        engine.undo(undo);
        assert_eq!(
            engine.state.board, board,
            "{label}: undo restores the board"
        );
        assert_eq!(engine.state.counters, counters, "{label}: and the counters");
        assert_eq!(engine.state.hash, hash, "{label}: and the hash");
        assert_eq!(engine.history().len(), history, "{label}: and the history");
    }
    let listed = Listed {
        exhausted: engine.exhausted,
        moves,
    };
    let mut rng = <rand_chacha::ChaCha8Rng as rand::SeedableRng>::seed_from_u64(7);
    let (mut buffer, mut undos) = (Vec::new(), Vec::new());
    let played =
        rulestone::runtime::playout::random_game(engine, &mut rng, PLIES, &mut buffer, &mut undos);
    assert!(played.plies <= PLIES, "{label}");
    assert!(
        engine.history().len() <= PLIES as usize + 1,
        "{label}: history bounded by plies"
    );
    listed
}

/// `check` passes the program or refuses it with coded errors (never an internal one); a
/// program it passes compiles and runs within the bounds on the interpreter.
pub fn check_and_run(source: &str) {
    let diags = rulestone::diagnose(source, &[]);
    for d in &diags {
        let code = rulestone::diag::code_of(d.as_ref());
        assert!(
            code.is_some() && code.as_deref() != Some("E0999"),
            "uncoded or internal diagnostic {:?} for\n{source}",
            d.to_string()
        );
    }
    if rulestone::diag::has_errors(&diags) {
        return;
    }
    let program = match rulestone::compile(source, &[]) {
        Ok(program) => program,
        Err(_) => panic!("checks but does not compile:\n{source}"),
    };
    let mut engine = Engine::new(&program);
    run_bounded(&mut engine, source);
}
