//! The loading pipeline every game command shares, and the reading of moves typed as text.
//!
//! read → [`parse`](crate::syntax::parse) → [`check`](crate::check::check) → options →
//! [`lower`](crate::ir::lower) → [`Engine::new`], then the `--after` moves.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use crate::check::options::split_set;
use crate::diag::{self, Diag};
use crate::ir::Program;
use crate::runtime::compiled::{Backend, Compiled};
use crate::runtime::{Engine, Move};
use crate::syntax::{self, ast};
use crate::Built;

use super::{color_stderr, CliError, Fail, GameArgs, Result};

pub(crate) use rulestone_session::notation::{
    find_move, normalize, options_text, refusing_rules, result_text, shown, split_moves, BadMove,
};

/// The note for a command that runs board games only, given a table game.
pub(crate) const TABLE_COMMANDS: &str =
    "table games run with `check`, `info`, `moves`, `play`, `playout`, `arena`, `analyze` and `replay`";

/// A game file read, checked and lowered for a set of option values.
#[derive(Debug)]
pub(crate) struct Loaded {
    /// The path as given on the command line (or in a record).
    pub path: PathBuf,
    pub program: Program,
    /// The generator this program's engines use.
    pub backend: Backend,
    /// The game file's text, for quoting its rules.
    pub source: String,
    /// Raised when one of this program's engines runs out of generation steps (E1008): the
    /// command's figures are then wrong, and it ends with that error.
    pub exhausted: Arc<AtomicBool>,
}

impl Loaded {
    /// A new engine at the start position, on this program's backend.
    pub fn engine(&self) -> Engine<'_> {
        let mut engine = Engine::with_backend(&self.program, self.backend);
        engine.share_alarm(Arc::clone(&self.exhausted));
        engine
    }

    /// The E1008 error once one of this program's engines ran out of generation steps.
    ///
    /// # Errors
    /// That error, rendered on standard error.
    pub fn steps_ok(&self) -> Result<()> {
        if self.exhausted.load(Ordering::Relaxed) {
            return super::steps_exceeded(&self.path);
        }
        Ok(())
    }
}

/// Reads a file to a string.
pub(crate) fn read(path: &Path) -> Result<String> {
    super::read_file(path).map_err(|e| CliError::io("read", path, &e).into())
}

/// Renders the errors among `diags` on standard error (warnings are `check`'s business); the
/// first error's code, for the closing hint (see [`Fail::Reported`]).
pub(crate) fn report_errors(diags: Vec<Diag>, source: &str, path: &Path) -> Option<String> {
    let errors: Vec<Diag> = diags
        .into_iter()
        .filter(|d| diag::severity(d.as_ref()) == diag::Severity::Error)
        .collect();
    eprint!(
        "{}",
        diag::render(&errors, source, &shown(path), color_stderr())
    );
    eprintln!(
        "error: cannot load `{}` due to {}",
        shown(path),
        super::plural(errors.len(), "previous error")
    );
    errors.iter().find_map(|d| diag::code_of(d.as_ref()))
}

/// Reads and parses a game file; syntax errors, or that it is no game file, are rendered
/// (exit 1).
pub(crate) fn parse(path: &Path) -> Result<(String, ast::File)> {
    let source = read(path)?;
    if let Some(d) = crate::not_a_game_file(&shown(path), &source) {
        return Err(Fail::Reported(report_errors(vec![d], &source, path)));
    }
    match syntax::parse(&source) {
        Ok(file) => Ok((source, file)),
        Err(errors) => Err(Fail::Reported(report_errors(
            diag::boxed(errors),
            &source,
            path,
        ))),
    }
}

/// Splits the `--set NAME=VALUE` arguments.
pub(crate) fn split_sets(sets: &[String]) -> Result<Vec<(String, String)>> {
    sets.iter()
        .map(|s| split_set(s).map_err(|e| CliError::new(e.to_string()).into()))
        .collect()
}

/// The whole pipeline for a game file and `--set` arguments.
pub(crate) fn load(args: &GameArgs, compiled: Compiled) -> Result<Loaded> {
    let sets = split_sets(&args.set)?;
    load_with(&args.file, &sets, compiled)
}

/// The whole pipeline for a game file and option values ([`crate::compile_parsed`]); every
/// problem is rendered against the source (exit 1).
pub(crate) fn load_with(
    path: &Path,
    sets: &[(String, String)],
    compiled: Compiled,
) -> Result<Loaded> {
    let (source, file) = parse(path)?;
    load_parsed(path, &source, &file, sets, compiled)
}

/// [`load_with`] for a file already read and parsed (`compile` lowers one file for several
/// option values).
pub(crate) fn load_parsed(
    path: &Path,
    source: &str,
    file: &ast::File,
    sets: &[(String, String)],
    compiled: Compiled,
) -> Result<Loaded> {
    match build(path, source, file, sets)? {
        Built::Board(program) => Ok(board(path, source, program, compiled)),
        Built::Table(..) => Err(CliError::new(format!(
            "`{}` is a table game: its shots are continuous, so this command does not apply",
            shown(path)
        ))
        .note(TABLE_COMMANDS)
        .into()),
    }
}

/// A board game's program, loaded for the backend `compiled` offers.
pub(crate) fn board(path: &Path, source: &str, program: Program, compiled: Compiled) -> Loaded {
    Loaded {
        path: path.to_path_buf(),
        backend: compiled.backend_for(&program),
        exhausted: Arc::default(),
        program,
        source: source.to_string(),
    }
}

/// The whole pipeline for a parsed file of either kind ([`crate::build_parsed`]); every
/// problem is rendered against the source (exit 1, or 2 for a refused option).
pub(crate) fn build(
    path: &Path,
    source: &str,
    file: &ast::File,
    sets: &[(String, String)],
) -> Result<Built> {
    crate::build_parsed(file, sets).map_err(|e| {
        let code = report_errors(e.diags, source, path);
        if e.bad_options {
            Fail::ReportedUsage(code)
        } else {
            Fail::Reported(code)
        }
    })
}

/// Plays a `;`-separated list of moves from the engine's position. `source` names the list in
/// messages (`--after`, `--moves`). Returns the moves played with their notation.
pub(crate) fn play_list(
    engine: &mut Engine<'_>,
    list: &str,
    source: &str,
) -> Result<Vec<(Move, String)>> {
    let texts = split_moves(list);
    play_texts(engine, &texts, |i| format!("move {} of {source}", i + 1))
}

/// The most moves a typed list (`--after`) or a record may hold: far more than any game lasts,
/// few enough that playing them all ends within seconds.
pub(crate) const MAX_LISTED_MOVES: usize = 100_000;

/// Refuses a list of more than [`MAX_LISTED_MOVES`] moves; `last` names its last move.
///
/// # Errors
/// The count and the limit.
pub(crate) fn list_fits(count: usize, last: impl FnOnce() -> String) -> Result<()> {
    if count <= MAX_LISTED_MOVES {
        return Ok(());
    }
    Err(CliError::new(format!(
        "{} moves are too many: a list of moves holds at most {}",
        super::grouped(count as u64),
        super::grouped(MAX_LISTED_MOVES as u64)
    ))
    .note(format!("the last would be {}", last()))
    .into())
}

/// Plays moves given as text; `place(i)` names the `i`th (0-based) in messages. A list longer
/// than [`MAX_LISTED_MOVES`] is refused before any is played.
pub(crate) fn play_texts(
    engine: &mut Engine<'_>,
    texts: &[String],
    place: impl Fn(usize) -> String,
) -> Result<Vec<(Move, String)>> {
    list_fits(texts.len(), || place(texts.len() - 1))?;
    let mut played = Vec::with_capacity(texts.len());
    for (i, text) in texts.iter().enumerate() {
        match find_move(engine, text) {
            Ok(m) => {
                let shown = normalize(&engine.move_text(&m));
                let _ = engine.apply(&m);
                played.push((m, shown));
            }
            Err(BadMove::GameOver(result)) => {
                return Err(CliError::new(format!(
                    "{}, `{text}`, comes after the end of the game",
                    place(i)
                ))
                .note(format!("the game ended: {result}"))
                .into());
            }
            Err(BadMove::Illegal { notes }) => {
                return Err(
                    CliError::new(format!("{}, `{text}`, is not a legal move", place(i)))
                        .notes(notes)
                        .into(),
                );
            }
            Err(BadMove::Ambiguous(same)) => {
                return Err(CliError::new(format!("{}: {}", place(i), same.message()))
                    .note(same.note())
                    .into());
            }
        }
    }
    Ok(played)
}
