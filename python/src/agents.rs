//! The agents from Python: `rulestone.mcts`, `rulestone.alphabeta` and `rulestone.random_move`,
//! each searching a state's position with the GIL released and answering the move it chose.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rulestone_agents::AgentSpec;
use rulestone_runtime::{BoardGame, Game as _};

use crate::errors::game_error;
use crate::state::PyState;

/// The longest search, in CPU seconds (an hour, as the engine protocol's `go`).
const MAX_SECONDS: f64 = 3600.0;

/// The spec text's budget part: `:iterations=N` / `:depth=N`, `:cpu=Tms`.
fn budget(key: &str, count: Option<u64>, cpu_seconds: Option<f64>) -> PyResult<String> {
    let mut text = String::new();
    if let Some(n) = count {
        text.push_str(&format!(":{key}={n}"));
    }
    if let Some(s) = cpu_seconds {
        if !(s.is_finite() && s > 0.0 && s <= MAX_SECONDS) {
            return Err(game_error(
                &format!("cpu_seconds must be above 0 and at most {MAX_SECONDS}, not {s}"),
                Some("bad-agent"),
            ));
        }
        text.push_str(&format!(":cpu={}ms", (s * 1000.0).ceil()));
    }
    Ok(text)
}

/// Runs the agent of `spec` on the state's position, GIL released; the chosen move as a dict:
/// `action` (its id, or `None` for a game without ids), `move` (notation), `value` (the
/// expected result for the player to move, 0 to 1, when the agent estimates one), `summary`.
fn think<'py>(
    py: Python<'py>,
    state: &mut PyState,
    spec: &str,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let spec = AgentSpec::parse(spec).map_err(|e| {
        game_error(
            &format!("{}\n  help: {}", e.message, e.help),
            Some("bad-agent"),
        )
    })?;
    if let Some(result) = state.result_text() {
        return Err(game_error(
            &format!("the game is over: {result}"),
            Some("game-over"),
        ));
    }
    let space = state.game().actions().ok();
    let chosen = py.detach(|| {
        state.position(|position| {
            let mut agent = spec.build::<BoardGame<'_>>(seed);
            let game = position.as_game();
            agent.choose(game).map(|thought| {
                let text = game.text(&thought.decision);
                let action = space.and_then(|s| s.id(&thought.decision).ok());
                (action, text, thought.value, thought.summary)
            })
        })
    });
    let (action, text, value, summary) =
        chosen.ok_or_else(|| game_error("the agent found no move to play", Some("no-move")))?;
    let d = PyDict::new(py);
    d.set_item("action", action)?;
    d.set_item("move", text)?;
    d.set_item("value", value)?;
    d.set_item("summary", summary)?;
    Ok(d)
}

/// Monte Carlo tree search (UCT with random playouts) from `state` for its player to move:
/// `iterations` playouts and/or `cpu_seconds` of thinking (default 1,000 iterations),
/// exploration constant `c`. Returns `{"action", "move", "value", "summary"}`.
#[pyfunction]
#[pyo3(signature = (state, iterations = None, cpu_seconds = None, c = None, seed = 0))]
fn mcts<'py>(
    py: Python<'py>,
    state: &mut PyState,
    iterations: Option<u64>,
    cpu_seconds: Option<f64>,
    c: Option<f64>,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let mut spec = format!("mcts{}", budget("iterations", iterations, cpu_seconds)?);
    if let Some(c) = c {
        spec.push_str(&format!(":c={c}"));
    }
    think(py, state, &spec, seed)
}

/// Iterative-deepening alpha-beta from `state`: `depth` decisions and/or `cpu_seconds`
/// (default depth 4). Returns `{"action", "move", "value", "summary"}`.
#[pyfunction]
#[pyo3(signature = (state, depth = None, cpu_seconds = None, seed = 0))]
fn alphabeta<'py>(
    py: Python<'py>,
    state: &mut PyState,
    depth: Option<u64>,
    cpu_seconds: Option<f64>,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let spec = format!("alphabeta{}", budget("depth", depth, cpu_seconds)?);
    think(py, state, &spec, seed)
}

/// The move of the agent a spec names, as the command line reads it (`mcts:cpu=100ms:c=0.7`,
/// `alphabeta:depth=3`, `random`), seeded. Returns `{"action", "move", "value", "summary"}`.
#[pyfunction]
#[pyo3(signature = (state, spec, seed = 0))]
fn agent<'py>(
    py: Python<'py>,
    state: &mut PyState,
    spec: &str,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    think(py, state, spec, seed)
}

/// A uniformly random legal move, seeded. Returns `{"action", "move", "value", "summary"}`.
#[pyfunction]
#[pyo3(signature = (state, seed = 0))]
fn random_move<'py>(
    py: Python<'py>,
    state: &mut PyState,
    seed: u64,
) -> PyResult<Bound<'py, PyDict>> {
    think(py, state, "random", seed)
}

/// Adds the agents to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(mcts, m)?)?;
    m.add_function(wrap_pyfunction!(alphabeta, m)?)?;
    m.add_function(wrap_pyfunction!(random_move, m)?)?;
    m.add_function(wrap_pyfunction!(agent, m)?)?;
    Ok(())
}
