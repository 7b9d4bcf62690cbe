//! `rulestone.Game`: a board game loaded for one set of option values.

use std::sync::Arc;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rulestone_runtime::perft::{perft, perft_within, Budget};
use rulestone_runtime::{Game as _, GameResult};
use rulestone_session::{observe, record::Record, Game, Position};

use crate::errors::game_error;
use crate::state::PyState;

/// The most random games one `playouts` call plays (a billion, as the command line's).
pub const MAX_GAMES: u64 = 1_000_000_000;
/// The longest random game, in moves (as the command line's `--max-plies`).
pub const MAX_PLIES: u32 = 100_000;
/// The deepest perft.
pub const MAX_DEPTH: u32 = 64;

/// A board game, loaded by `rulestone.load` for one set of option values. Immutable: states
/// made from it share it.
#[pyclass(name = "Game", module = "rulestone", frozen)]
pub struct PyGame {
    pub game: Arc<Game>,
    /// The option values given to `load`.
    sets: Vec<(String, String)>,
}

impl PyGame {
    pub fn new(game: Arc<Game>, sets: Vec<(String, String)>) -> PyGame {
        PyGame { game, sets }
    }
}

/// Figures of a run of random games, as a dict.
fn playout_figures<'py>(
    py: Python<'py>,
    games: u64,
    wins: [u64; 2],
    draws: u64,
    plies: u64,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("games", games)?;
    d.set_item("wins", wins.to_vec())?;
    d.set_item("draws", draws)?;
    d.set_item("unfinished", games - wins[0] - wins[1] - draws)?;
    d.set_item("plies", plies)?;
    Ok(d)
}

#[pymethods]
impl PyGame {
    /// The start position.
    fn new_initial_state(&self) -> PyState {
        PyState::start(Arc::clone(&self.game))
    }

    /// Always 2: Rulestone's games are for two players.
    fn num_players(&self) -> usize {
        self.game.program.players.len()
    }

    /// The players' names, first player first.
    fn players(&self) -> Vec<String> {
        self.game.program.players.clone()
    }

    /// The game's name as its file declares it.
    #[getter]
    fn name(&self) -> String {
        self.game.program.name.clone()
    }

    /// `"compiled"` when the game runs on move generation compiled into the package (a
    /// bundled game with its file and enum options unchanged), else `"interpreter"`.
    #[getter]
    fn backend(&self) -> &'static str {
        if self.game.is_compiled() {
            "compiled"
        } else {
            "interpreter"
        }
    }

    /// Every option with its value for this game (given or default), as strings.
    fn options(&self) -> Vec<(String, String)> {
        self.game.program.options.clone()
    }

    /// The option values given to `load`.
    fn given_options(&self) -> Vec<(String, String)> {
        self.sets.clone()
    }

    /// The size of the action space: every move's id is below it (docs/actions.md). Raises
    /// `GameError` for a game whose moves have no ids.
    fn num_distinct_actions(&self) -> PyResult<u64> {
        self.game
            .actions()
            .map(|s| s.size())
            .map_err(|e| game_error(&e.to_string(), Some("no-action-ids")))
    }

    /// `[planes, cells]`: the shape of every observation tensor of this game.
    fn observation_tensor_shape(&self) -> Vec<usize> {
        let (planes, cells) = observe::shape(&self.game.program);
        vec![planes, cells]
    }

    /// What each plane of an observation holds, for `player` (default 0), in order.
    #[pyo3(signature = (player = 0))]
    fn observation_planes(&self, player: u8) -> PyResult<Vec<String>> {
        crate::state::check_player(player)?;
        Ok(observe::planes(&self.game.program, player)
            .iter()
            .map(ToString::to_string)
            .collect())
    }

    /// The board's cell names, in the order of an observation's columns.
    fn cells(&self) -> Vec<String> {
        self.game.program.board.names.clone()
    }

    /// No bound on a game's length is known from the rules in general: `None`.
    fn max_game_length(&self) -> Option<u64> {
        None
    }

    /// The number of move sequences `depth` moves deep from the start, as `rulestone perft`
    /// counts them, with the GIL released. `max_nodes` bounds the count: past it, `GameError`.
    #[pyo3(signature = (depth, max_nodes = None))]
    fn perft(&self, py: Python<'_>, depth: u32, max_nodes: Option<u64>) -> PyResult<u64> {
        if depth > MAX_DEPTH {
            return Err(game_error(
                &format!("depth {depth} is past the deepest perft, {MAX_DEPTH}"),
                Some("bad-depth"),
            ));
        }
        let game = &*self.game;
        let counted = py.detach(|| {
            let mut engine = game.engine();
            match max_nodes {
                None => Ok(perft(&mut engine, depth)),
                Some(leaves) => {
                    let budget = Budget {
                        leaves: Some(leaves),
                        deadline: None,
                    };
                    perft_within(&mut engine, depth, budget)
                }
            }
        });
        counted.map_err(|_| {
            game_error(
                &format!(
                    "perft {depth} counts more than {} leaves",
                    max_nodes.unwrap_or(0)
                ),
                Some("too-many-nodes"),
            )
        })
    }

    /// `n` seeded random games from the start, as `rulestone playout --games N --seed S
    /// --max-plies M` plays them (the same seed, the same games), with the GIL released: a dict
    /// of `games`, `wins` (per player), `draws`, `unfinished` and `plies` (moves in all).
    #[pyo3(signature = (n, seed = 0, max_plies = 1000))]
    fn playouts<'py>(
        &self,
        py: Python<'py>,
        n: u64,
        seed: u64,
        max_plies: u32,
    ) -> PyResult<Bound<'py, PyDict>> {
        if n > MAX_GAMES || max_plies > MAX_PLIES {
            return Err(game_error(
                &format!(
                    "at most {MAX_GAMES} games of at most {MAX_PLIES} moves: asked {n} of \
                     {max_plies}"
                ),
                Some("bad-count"),
            ));
        }
        let game = &*self.game;
        let (wins, draws, plies) = py.detach(|| {
            let mut position = Position::new(game);
            let board = position.as_game();
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let (mut wins, mut draws, mut plies) = ([0u64; 2], 0u64, 0u64);
            for _ in 0..n {
                let played = board.playout(&mut rng, max_plies, false);
                plies += u64::from(played.steps);
                match played.result {
                    Some(GameResult::Win(p)) => wins[usize::from(p.min(1))] += 1,
                    Some(GameResult::Draw) => draws += 1,
                    None => {}
                }
            }
            (wins, draws, plies)
        });
        playout_figures(py, n, wins, draws, plies)
    }

    /// The state a game record's text (the `.rec` format, as `to_record` writes it) reaches.
    /// Raises `GameError` for a record that does not read, a move of it that is not legal, or a
    /// result that its moves do not reach.
    #[pyo3(name = "from_record")]
    fn state_from_record(&self, text: &str) -> PyResult<PyState> {
        let record = Record::parse(text).map_err(|e| game_error(&e, Some("bad-record")))?;
        let mut state = PyState::start(Arc::clone(&self.game));
        for (_, m) in &record.moves {
            state.apply_text(m)?;
        }
        if let Some((_, claimed)) = record.result {
            let reached = state.result_text();
            if reached.as_deref() != Some(claimed.as_str()) {
                return Err(game_error(
                    &format!(
                        "the record says `{claimed}`, but its moves end with {}",
                        reached.map_or("the game still going".to_string(), |r| format!("`{r}`"))
                    ),
                    Some("bad-record"),
                ));
            }
        }
        Ok(state)
    }

    /// A batch of `n` states at the start, advanced together (`rulestone.Batch`).
    fn batch(&self, n: usize) -> PyResult<crate::state::PyBatch> {
        crate::state::PyBatch::new(Arc::clone(&self.game), n)
    }

    fn __repr__(&self) -> String {
        let options: Vec<String> = self
            .sets
            .iter()
            .map(|(k, v)| format!(", {k}={v:?}"))
            .collect();
        format!("rulestone.load({:?}{})", self.game.name, options.join(""))
    }
}
