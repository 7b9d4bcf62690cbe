//! `rulestone` from Python: a pyo3 extension module (`rulestone._rulestone`, built by maturin
//! from `python/pyproject.toml`) with an API modelled on OpenSpiel's: `load` a `.game` file
//! or text into a `Game`, play `State`s by action id or notation, read
//! numpy observation tensors, and run perft, random playouts and the agents with the GIL
//! released. `docs/python.md` is the reference.
//!
//! Invariants: nothing here names or special-cases a game (the session, the agents and the
//! runtime do the work; this crate converts values); bad input (a file that does not load, a bad
//! option, an id or text that names no legal move, a move after the end) raises a Python
//! exception and never panics; every loop a caller starts is bounded by the caller's numbers,
//! each checked against a limit here. No `unsafe` is written here: the crate denies
//! `unsafe_code` and allows it only where pyo3's macros expand (see below).

// pyo3's `#[pyclass]`, `#[pymethods]`, `#[pyfunction]` and `#[pymodule]` expand to `unsafe`
// blocks (FFI calls into the interpreter) inside this crate; the workspace forbids
// `unsafe_code`, which no item could then allow, so this crate denies it (Cargo.toml) and allows
// it at the root for those expansions. No hand-written unsafe code is in the crate.
#![allow(unsafe_code)]

mod agents;
mod campaign;
mod errors;
mod game;
mod state;

use std::path::Path;
use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyString};
use rulestone_runtime::Compiled;
use rulestone_session::Game;

pub use errors::GameError;
use game::PyGame;
use state::PyState;

/// The longest game text read (16 MiB), as for the command line: a longer file is refused, not
/// read whole.
const MAX_SOURCE: u64 = 16 << 20;

/// An option value as the command line's `--set` reads it: a string, an integer, a number or a
/// boolean (`true`/`false`).
fn option_value(name: &str, value: &Bound<'_, PyAny>) -> PyResult<String> {
    if value.is_instance_of::<PyBool>() {
        return Ok(if value.extract::<bool>()? {
            "true"
        } else {
            "false"
        }
        .to_string());
    }
    if value.is_instance_of::<PyString>()
        || value.is_instance_of::<PyInt>()
        || value.is_instance_of::<PyFloat>()
    {
        return Ok(value.str()?.to_string());
    }
    Err(errors::game_error(
        &format!(
            "option `{name}`: a value must be a string, a whole number, a number or a boolean, \
             not {}",
            value.get_type().name()?
        ),
        Some("bad-option"),
    ))
}

/// The game's name and text: `path_or_text` names a file when no newline is in it.
fn source_of(path_or_text: &str) -> PyResult<(String, String)> {
    if path_or_text.contains('\n') {
        return Ok(("<text>".to_string(), path_or_text.to_string()));
    }
    let path = Path::new(path_or_text);
    let refuse = |why: String| errors::game_error(&why, Some("bad-file"));
    let meta = std::fs::metadata(path)
        .map_err(|e| refuse(format!("cannot read `{path_or_text}`: {e}")))?;
    if meta.len() > MAX_SOURCE {
        return Err(refuse(format!(
            "`{path_or_text}` holds {} bytes, more than the {MAX_SOURCE} a game file may",
            meta.len()
        )));
    }
    let text = std::fs::read_to_string(path)
        .map_err(|e| refuse(format!("cannot read `{path_or_text}`: {e}")))?;
    Ok((path_or_text.to_string(), text))
}

/// The game `path_or_text` names (see [`source_of`]) with `sets`, loaded with the GIL
/// released; `GameError` when it does not load.
pub(crate) fn load_sets(
    py: Python<'_>,
    path_or_text: &str,
    sets: Vec<(String, String)>,
) -> PyResult<(Game, Vec<(String, String)>)> {
    let (name, source) = source_of(path_or_text)?;
    let compiled = compiled_now();
    let loaded = py.detach(|| Game::load(&name, source, &sets, compiled));
    let game = loaded.map_err(|e| errors::load_error(&e))?;
    Ok((game, sets))
}

/// The compiled generators games load with: every plugin loaded with [`load_compiled`] (the
/// latest first) and the bundled games'. Which plugins are loaded, `rulestone_plugin` knows.
static COMPILED: std::sync::Mutex<Compiled> = std::sync::Mutex::new(rulestone_precompiled::BUNDLED);

fn compiled_now() -> Compiled {
    *COMPILED
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// Loads a game compiled by `rulestone compile` (the library it builds, e.g.
/// `target/rulestone-compiled/rulestone-compiled.so`): every game loaded after this call whose
/// rules and options the library was compiled from runs on its compiled move generation
/// (`game.backend` says `"compiled"`), even one compiled into the package. Returns the labels
/// of the programs it holds; loading it again changes nothing. Raises `GameError` when the
/// file is not such a library, or was built by another build of rulestone (another Rust
/// compiler or rulestone source).
#[pyfunction]
fn load_compiled(py: Python<'_>, path: std::path::PathBuf) -> PyResult<Vec<String>> {
    let (loaded, new) = py
        .detach(|| rulestone_plugin::load_once(&path))
        .map_err(|e| errors::game_error(&format!("{e}\nhelp: {}", e.help()), Some("bad-plugin")))?;
    if new {
        let mut all = COMPILED
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *all = loaded.and(*all);
    }
    Ok(loaded.turns().iter().map(|t| t.label.to_string()).collect())
}

/// [`load_sets`] with option values from keyword arguments.
pub(crate) fn load_game(
    py: Python<'_>,
    path_or_text: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<(Game, Vec<(String, String)>)> {
    let mut sets = Vec::new();
    if let Some(options) = options {
        for (key, value) in options.iter() {
            let key: String = key.extract()?;
            let value = option_value(&key, &value)?;
            sets.push((key, value));
        }
    }
    load_sets(py, path_or_text, sets)
}

/// Loads a board game from a `.game` file's path (or its text, when the string holds a line
/// break) with option values as keyword arguments, e.g. `load("variant.game", size=7)`.
/// Raises `GameError` with the rendered diagnostics (codes, spans, help) when it does not load.
#[pyfunction]
#[pyo3(signature = (path_or_text, **options))]
fn load(
    py: Python<'_>,
    path_or_text: &str,
    options: Option<&Bound<'_, PyDict>>,
) -> PyResult<PyGame> {
    let (game, sets) = load_game(py, path_or_text, options)?;
    Ok(PyGame::new(Arc::new(game), sets))
}

#[pymodule]
fn _rulestone(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("GameError", m.py().get_type::<GameError>())?;
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_class::<state::PyBatch>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(load_compiled, m)?)?;
    agents::register(m)?;
    campaign::register(m)?;
    m.add("CHANCE_PLAYER", state::CHANCE)?;
    m.add("TERMINAL_PLAYER", state::TERMINAL)?;
    Ok(())
}
