//! What `check` adds to the checker's findings by playing: a few seeded random games from the
//! start of each program `check` lowers, looking at every position met for two legal moves
//! written the same (W0607). [`crate::notation::SameNotation`] (E1010) refuses such a text
//! wherever it is read; this finds the fault before anyone plays into it.
//!
//! The work is bounded by fixed numbers (games, plies, positions, moves written, generation
//! steps), so the same file gets the same report on every machine; a caller may also give a
//! `stop` check (the command line gives a time limit), asked before each position and every
//! [`STOP_EVERY`] moves written, which ends the exploration early with no finding.

use rand::Rng;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rulestone_diag::{self as diag, Diag};
use rulestone_ir::Program;
use rulestone_runtime::game::steps_exceeded;
use rulestone_runtime::{Engine, Move};
use rulestone_syntax::ast::{File, ItemKind, Span};

use crate::notation::{normalize, same_notation};

/// Seeded random games played from the start of each program.
pub const GAMES: u64 = 4;
/// The most moves of one exploring game.
pub const MAX_PLIES: usize = 60;
/// The most positions looked at for the first program `check` lowers (its given or default
/// settings), and for each further option combination.
pub const FIRST_POSITIONS: usize = 160;
pub const MORE_POSITIONS: usize = 24;
/// The most positions looked at for one file, over every option combination.
pub const FILE_POSITIONS: usize = 400;
/// The most legal moves written out (their notation) for one file: a game with hundreds of
/// moves a position is looked at in fewer positions.
pub const FILE_MOVES: usize = 4_000;
/// The generation steps one position may take while exploring; a position that needs more
/// ends that game (what other commands report about it is E1008's business).
pub const STEPS: u64 = 200_000;
/// How many moves are written between two questions to `stop`.
pub const STOP_EVERY: usize = 32;

/// What the exploration of one file may still do.
#[derive(Clone, Copy, Debug)]
pub struct Budget {
    positions: usize,
    moves: usize,
    programs: usize,
    stopped: bool,
}

impl Default for Budget {
    fn default() -> Budget {
        Budget {
            positions: FILE_POSITIONS,
            moves: FILE_MOVES,
            programs: 0,
            stopped: false,
        }
    }
}

/// A position where two legal moves are written alike, and how it was reached.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Sighting {
    /// The notation of the moves that lead to the position from the start.
    pub line: Vec<String>,
    /// The text the moves share, and how many legal moves share it.
    pub text: String,
    pub count: usize,
    /// The cells the first two of these moves change, each (empty when only counters differ).
    pub changes: [Vec<String>; 2],
}

/// Plays [`GAMES`] seeded random games of `program` from its start, within the budget and
/// until `stop` says so, and returns the first position met with two legal moves written the
/// same.
pub fn explore(
    program: &Program,
    budget: &mut Budget,
    stop: &mut dyn FnMut() -> bool,
) -> Option<Sighting> {
    let cap = if budget.programs == 0 {
        FIRST_POSITIONS
    } else {
        MORE_POSITIONS
    };
    budget.programs += 1;
    let mut left = Budget {
        positions: cap.min(budget.positions),
        ..*budget
    };
    let mut found = None;
    for seed in 0..GAMES {
        found = explore_game(program, seed, &mut left, stop);
        if found.is_some() || left.positions == 0 || left.moves == 0 || left.stopped {
            break;
        }
    }
    budget.positions -= cap.min(budget.positions) - left.positions;
    budget.moves = left.moves;
    budget.stopped = left.stopped;
    found
}

/// One seeded random game, looking at each of its positions while the budget allows.
fn explore_game(
    program: &Program,
    seed: u64,
    left: &mut Budget,
    stop: &mut dyn FnMut() -> bool,
) -> Option<Sighting> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut engine = Engine::new(program);
    engine.set_step_limit(STEPS);
    let mut line = Vec::new();
    let mut moves = Vec::new();
    while line.len() <= MAX_PLIES && engine.state.result.is_none() {
        if left.positions == 0 || left.moves == 0 || left.stopped {
            return None;
        }
        if stop() {
            left.stopped = true;
            return None;
        }
        left.positions -= 1;
        engine.legal_moves(&mut moves);
        if moves.is_empty() || steps_exceeded(&engine).is_some() {
            return None;
        }
        let legal = written(&mut engine, &moves, left, stop)?;
        if let Some(same) = same_notation(&legal) {
            let alike: Vec<Move> = legal
                .iter()
                .filter(|(_, t)| *t == same.text)
                .map(|(m, _)| *m)
                .take(2)
                .collect();
            let changes = [
                changed_cells(&mut engine, alike.first()),
                changed_cells(&mut engine, alike.get(1)),
            ];
            return Some(Sighting {
                line,
                text: same.text,
                count: same.count,
                changes,
            });
        }
        let (m, text) = &legal[rng.gen_range(0..legal.len())];
        line.push(text.clone());
        let _ = engine.apply(m);
    }
    None
}

/// The notation of `moves`, as [`crate::notation::legal_with_text`] writes it, or nothing when
/// the budget of moves runs out or `stop` says so first.
fn written(
    engine: &mut Engine<'_>,
    moves: &[Move],
    left: &mut Budget,
    stop: &mut dyn FnMut() -> bool,
) -> Option<Vec<(Move, String)>> {
    let mut legal = Vec::with_capacity(moves.len());
    for (i, m) in moves.iter().enumerate() {
        if left.moves == 0 {
            return None;
        }
        if i > 0 && i % STOP_EVERY == 0 && stop() {
            left.stopped = true;
            return None;
        }
        left.moves -= 1;
        legal.push((*m, normalize(&engine.move_text(m))));
    }
    Some(legal)
}

/// The names of the cells whose contents `m` changes, in board order (the move is taken back).
fn changed_cells(engine: &mut Engine<'_>, m: Option<&Move>) -> Vec<String> {
    let Some(m) = m else {
        return Vec::new();
    };
    let before = engine.state.board.clone();
    let undo = engine.apply(m);
    let names = &engine.program().board.names;
    let changed = before
        .iter()
        .zip(&engine.state.board)
        .zip(names)
        .filter(|((a, b), _)| a != b)
        .map(|(_, name)| name.clone())
        .collect();
    engine.undo(undo);
    changed
}

/// Two legal moves of a position met while exploring are written the same (see the module).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error, miette::Diagnostic)]
#[error("{count} legal moves are written `{text}` {at}")]
#[diagnostic(
    code(W0607),
    severity(Warning),
    help(
        "a move's notation must name it alone: this text would be refused (E1010) wherever it is \
         read, a typed move, `--after` or a saved game, since it cannot tell which move is \
         meant; make the turn's `write`s spell what tells these moves apart (every cell or \
         value the player chooses). `rulestone moves FILE{after}` lists the position's moves"
    )
)]
pub struct SameNotationMet {
    pub text: String,
    pub count: usize,
    /// Where: `in the start position`, ``after `a1-b2; c3-b2` ``, with the option settings.
    pub at: String,
    /// The arguments that reach the position from the command line (`--after "..."`).
    pub after: String,
    /// What tells the moves apart, for the label.
    pub apart: String,
    #[label("{apart}")]
    pub span: Span,
}

/// [`rulestone_lower::diagnose_file`], then, when the file holds no error, the exploration:
/// everything `rulestone check` reports on a file called `name`. At most one W0607 per file,
/// and none beside W0602.
/// `stop` may end the exploration early (see the module); `&mut || false` lets the budget
/// alone bound it.
#[must_use]
pub fn diagnose_file(
    name: &str,
    source: &str,
    sets: &[(String, String)],
    stop: &mut dyn FnMut() -> bool,
) -> Vec<Diag> {
    if let Some(d) = rulestone_lower::not_a_game_file(name, source) {
        return vec![d];
    }
    let mut budget = Budget::default();
    let mut found: Option<Diag> = None;
    let mut diags = rulestone_lower::diagnose_each(source, sets, &mut |file, sets, program| {
        if found.is_none() {
            found = explore(program, &mut budget, stop).map(|s| warning(file, sets, s));
        }
    });
    // A turn that writes nothing (W0602) writes every move the same: said once is enough.
    let silent = diags
        .iter()
        .any(|d| diag::code_of(d.as_ref()).as_deref() == Some("W0602"));
    if !diag::has_errors(&diags) && !silent {
        diags.extend(found);
    }
    diags
}

/// The W0607 warning for a sighting, pointing at the file's turn.
fn warning(file: &File, sets: &[(String, String)], s: Sighting) -> Diag {
    let span = file
        .items
        .iter()
        .find(|i| matches!(i.kind, ItemKind::Turn(_)))
        .map_or(Span { start: 0, end: 0 }, |i| Span {
            start: i.span.start,
            end: i.span.end.min(i.span.start + 4),
        });
    let settings: String = sets
        .iter()
        .map(|(k, v)| format!(" --set {k}={v}"))
        .collect();
    let with = if sets.is_empty() {
        String::new()
    } else {
        let list: Vec<String> = sets.iter().map(|(k, v)| format!("{k}={v}")).collect();
        format!(" (with {})", list.join(", "))
    };
    let (at, after) = if s.line.is_empty() {
        (format!("in the start position{with}"), settings)
    } else {
        let line = s.line.join("; ");
        (
            format!("after `{line}`{with}"),
            format!("{settings} --after \"{line}\""),
        )
    };
    let apart = match &s.changes {
        [a, b] if a != b && !a.is_empty() && !b.is_empty() => format!(
            "this turn writes `{}` both for a move that changes {} and for one that changes {}",
            s.text,
            a.join(", "),
            b.join(", ")
        ),
        _ => format!("this turn writes `{}` for each of them", s.text),
    };
    Box::new(SameNotationMet {
        text: s.text,
        count: s.count,
        at,
        after,
        apart,
        span,
    })
}

#[cfg(test)]
mod tests {
    use super::{diagnose_file, explore, Budget, FILE_MOVES, FILE_POSITIONS};

    /// Two men that can both step onto one cell, in a game whose moves write only that cell.
    const SAME: &str = "game \"g\"\nplayers W, B\nboard {\n    axes x, y\n    cells x in 0..2, y in 0..2\n    name \"{letter(x)}{y + 1}\"\n}\nrelation fwd = (-1, 1) | (1, 1)\npiece man\nsetup {\n    put man of W at {a1, c1}\n    put man of B at {a3}\n}\nturn {\n    pick from in own\n    pick to in step(fwd, from) & empty\n    remove from\n    put man at to\n    write \"{to}\"\n}\non no moves {\n    lose mover\n}\n";

    fn program(source: &str) -> rulestone_ir::Program {
        rulestone_lower::compile(source, &[]).expect("compiles")
    }

    #[test]
    fn two_moves_written_alike_are_met_and_named() {
        let found = explore(&program(SAME), &mut Budget::default(), &mut || false)
            .expect("met in the start position");
        assert!(found.line.is_empty());
        assert_eq!((found.text.as_str(), found.count), ("b2", 2));
        assert_eq!(found.changes, [vec!["a1", "b2"], vec!["b2", "c1"]]);
        let codes: Vec<String> = diagnose_file("g.game", SAME, &[], &mut || false)
            .iter()
            .filter_map(|d| rulestone_diag::code_of(d.as_ref()))
            .collect();
        assert_eq!(codes, ["W0607"]);
    }

    #[test]
    fn moves_written_apart_pass_within_the_budget() {
        let apart = SAME.replace("write \"{to}\"", "write \"{from}-{to}\"");
        let mut budget = Budget::default();
        assert!(explore(&program(&apart), &mut budget, &mut || false).is_none());
        assert!(budget.positions < FILE_POSITIONS && budget.moves < FILE_MOVES);
        assert!(!budget.stopped);
    }

    #[test]
    fn a_stop_ends_the_exploration_with_no_finding() {
        let mut budget = Budget::default();
        assert!(explore(&program(SAME), &mut budget, &mut || true).is_none());
        assert!(budget.stopped);
        assert_eq!(budget.positions, FILE_POSITIONS);
    }
}
