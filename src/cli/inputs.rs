//! The texts a person types or saves, read without files or a terminal: move lists (`--after`,
//! `--moves`) and game records. The fuzz targets (`fuzz/`) and their stable replay
//! (`tests/fuzz_replay.rs`) drive these functions, so what they try is what the commands run.
//!
//! Invariant: every input gets a value or an error message, never a panic, after work bounded by
//! the input's length and the game's move generation.

use std::path::Path;

use crate::ir::table::{Army, TableProgram};
use crate::runtime::Engine;

use super::record::{self, Record};
use super::{load, Fail};

/// Plays a `;`-separated list of typed moves from the engine's position, as `--after` does.
/// Returns how many moves were played.
///
/// # Errors
/// The message `--after` would print: an illegal move (with its hints) or a move after the end.
pub fn play_typed(engine: &mut Engine<'_>, list: &str) -> Result<usize, String> {
    load::play_list(engine, list, "`--after`")
        .map(|played| played.len())
        .map_err(message)
}

/// The option settings a record's text gives (`option NAME=VALUE` lines).
///
/// # Errors
/// The reason the text is no record, naming the line.
pub fn record_options(text: &str) -> Result<Vec<(String, String)>, String> {
    Record::parse(text).map(|r| r.options)
}

/// Replays a record's text on `engine`, whose program stands for the record's game: its moves,
/// then its `result` line, as `replay` and `load` do. Returns how many moves were played.
///
/// # Errors
/// The message the commands would print: a bad record, an illegal move, a wrong result.
pub fn replay_record(engine: &mut Engine<'_>, text: &str) -> Result<usize, String> {
    let record = Record::parse(text)?;
    record::replay_moves(engine, &record, Path::new("record"))
        .map(|played| played.len())
        .map_err(message)
}

/// The option settings of `--set NAME=VALUE` arguments, as every game command reads them.
///
/// # Errors
/// The message of an argument that is no `NAME=VALUE`.
pub fn option_settings(sets: &[String]) -> Result<Vec<(String, String)>, String> {
    load::split_sets(sets).map_err(message)
}

/// The rolls of `--rolls "3 5 2; 1 1 4"`, as `perft` and `bench` read them.
///
/// # Errors
/// The message of a roll that is no list of numbers.
pub fn rolls(text: &str) -> Result<Vec<Vec<i32>>, String> {
    super::perft::parse_rolls(text).map_err(message)
}

/// A table match drawn as `play` shows it.
#[must_use]
pub fn draw_table(m: &crate::runtime::table::TableMatch<'_>) -> String {
    super::table::draw(m)
}

/// A table game's program from its source and `--set` values (parameters and options), with
/// each player's armies as the game file declares them: what a table command loads.
///
/// # Errors
/// The first error's message: the checker's, a refused setting's, the lowering's.
pub fn table_program(
    source: &str,
    sets: &[(String, String)],
) -> Result<(TableProgram, [Vec<Army>; 2]), String> {
    let file = crate::syntax::parse(source).map_err(|_| "error: syntax errors".to_string())?;
    let (_, program) =
        crate::compile_table_parsed(&file, sets).map_err(|e| format!("error: {e}"))?;
    let armies = program.armies.clone();
    Ok((program, [armies.clone(), armies]))
}

/// A command's failure as the text it would print.
fn message(fail: Fail) -> String {
    match fail {
        Fail::Error(e) => e.to_string(),
        Fail::Reported(_) | Fail::ReportedUsage(_) => "error: reported".to_string(),
        Fail::Stopped => "error: stopped by a bound".to_string(),
    }
}
