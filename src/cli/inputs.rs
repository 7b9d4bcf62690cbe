//! The texts a person types or saves, read without files or a terminal: move lists (`--after`,
//! `--moves`) and game records. The fuzz targets (`fuzz/`) and their stable replay
//! (`tests/fuzz_replay.rs`) drive these functions, so what they try is what the commands run.
//!
//! Invariant: every input gets a value or an error message, never a panic, after work bounded by
//! the input's length and the game's move generation.

use std::path::Path;

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

/// A command's failure as the text it would print.
fn message(fail: Fail) -> String {
    match fail {
        Fail::Error(e) => e.to_string(),
        Fail::Reported | Fail::ReportedUsage => "error: reported".to_string(),
        Fail::Stopped => "error: stopped by a bound".to_string(),
    }
}
