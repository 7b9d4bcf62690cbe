//! `rulestone.State`, a position in play, and `rulestone.Batch`, states advanced together.

use std::sync::Arc;

use numpy::ndarray::{Array2, Array3};
use numpy::{IntoPyArray, PyArray1, PyArray2, PyArray3};
use pyo3::prelude::*;
use pyo3::types::PyList;
use rulestone_runtime::{GameResult, Move};
use rulestone_session::actions::ActionSpace;
use rulestone_session::{board, notation, observe, BadAction, Game, Position};

use crate::errors::{bad_action, bad_move, game_error};

/// `current_player()` at a chance node (OpenSpiel's `PlayerId.CHANCE`).
pub const CHANCE: i64 = -1;
/// `current_player()` once the game is over (OpenSpiel's `PlayerId.TERMINAL`).
pub const TERMINAL: i64 = -4;
/// The largest legal-action mask made (entries per state): a game with more action ids gets
/// `GameError` from the mask calls, not a huge array.
pub const MAX_MASK: u64 = 1 << 24;
/// The most states in one batch.
pub const MAX_BATCH: usize = 1 << 16;

self_cell::self_cell!(
    /// A game and a position of it, borrowing it.
    pub struct Live {
        owner: Arc<Game>,
        #[not_covariant]
        dependent: Position,
    }
);

impl Live {
    fn start(game: Arc<Game>) -> Live {
        Live::new(game, |g| Position::new(g))
    }

    fn with<R>(&mut self, f: impl FnOnce(&mut Position<'_>) -> R) -> R {
        self.with_dependent_mut(|_, position| f(position))
    }
}

/// Refuses a player number other than 0 and 1.
pub fn check_player(player: u8) -> PyResult<()> {
    if player > 1 {
        return Err(game_error(
            &format!("player {player}: players are 0 and 1"),
            Some("bad-player"),
        ));
    }
    Ok(())
}

/// `[1, -1]`, `[-1, 1]` or `[0, 0]`.
fn returns_of(result: Option<GameResult>) -> [f64; 2] {
    match result {
        Some(GameResult::Win(0)) => [1.0, -1.0],
        Some(GameResult::Win(_)) => [-1.0, 1.0],
        _ => [0.0, 0.0],
    }
}

/// The legal moves' decisions, none once the game is over. The moves are listed once: a game
/// with no result yet is over exactly when none is legal (`Position::outcome` lists them to
/// tell).
fn legal_decisions(p: &mut Position<'_>) -> Vec<Move> {
    let mut legal = Vec::new();
    if p.engine().state.result.is_none() {
        p.engine().legal_moves(&mut legal);
    }
    legal
}

/// The ids of `legal` with their moves, by ascending id; `GameError` for a game without ids
/// or a move without one.
fn ids_of(game: &Game, legal: &[Move]) -> PyResult<Vec<(u64, Move)>> {
    let space = game
        .actions()
        .map_err(|e| game_error(&e.to_string(), Some("no-action-ids")))?;
    let mut ids = Vec::with_capacity(legal.len());
    for m in legal {
        let id = space
            .id(m)
            .map_err(|e| game_error(&e.to_string(), Some("no-action-id")))?;
        ids.push((id, *m));
    }
    ids.sort_unstable_by_key(|&(id, _)| id);
    Ok(ids)
}

/// A position of a game in play, with the moves that led to it.
#[pyclass(name = "State", module = "rulestone")]
pub struct PyState {
    live: Live,
    /// The legal moves of this position, listed once and kept until it changes: a loop of
    /// `is_terminal`, `legal_actions` and `apply_action` lists them once a move.
    legal: Option<Vec<Move>>,
    /// Their action ids, ascending, each with its move, once asked for; kept as long as
    /// `legal`, so that `apply_action` finds the move of an id listed by `legal_actions`.
    ids: Option<Vec<(u64, Move)>>,
    /// Their notation, in generation order, once asked for; kept as long as `legal`, so that
    /// a loop of `legal_moves` and `apply_move` writes the moves once a move.
    texts: Option<Vec<(Move, String)>>,
}

impl PyState {
    pub fn start(game: Arc<Game>) -> PyState {
        PyState {
            live: Live::start(game),
            legal: None,
            ids: None,
            texts: None,
        }
    }

    pub fn game(&self) -> &Arc<Game> {
        self.live.borrow_owner()
    }

    pub fn position<R>(&mut self, f: impl FnOnce(&mut Position<'_>) -> R) -> R {
        self.changed();
        self.live.with(f)
    }

    /// Forgets what was kept of the position before a change.
    fn changed(&mut self) {
        self.legal = None;
        self.ids = None;
        self.texts = None;
    }

    /// The legal moves with their notation (none once the game is over), written when the
    /// position changed since.
    fn texts(&mut self) -> &[(Move, String)] {
        let live = &mut self.live;
        self.texts.get_or_insert_with(|| {
            live.with(|p| {
                if p.engine().state.result.is_some() {
                    return Vec::new();
                }
                notation::legal_with_text(p.engine())
            })
        })
    }

    /// The legal moves' ids with their moves, ascending, listed when the position changed.
    fn ids(&mut self) -> PyResult<&[(u64, Move)]> {
        if self.ids.is_none() {
            let game = Arc::clone(self.game());
            self.ids = Some(ids_of(&game, self.legal())?);
        }
        Ok(self.ids.as_deref().unwrap_or_default())
    }

    /// The ids of the legal moves, ascending.
    fn legal_ids(&mut self) -> PyResult<Vec<u64>> {
        Ok(self.ids()?.iter().map(|&(id, _)| id).collect())
    }

    /// The legal moves, listed when the position changed since.
    fn legal(&mut self) -> &[Move] {
        let live = &mut self.live;
        self.legal.get_or_insert_with(|| live.with(legal_decisions))
    }

    pub fn apply_text(&mut self, text: &str) -> PyResult<String> {
        // A text that is exactly one listed move's is that move, as `find_move` reads it;
        // anything else (case, ambiguity, mistakes) is left to `find_move` and its reasons.
        let wanted = notation::normalize(text);
        let found = self.texts.as_ref().and_then(|texts| {
            let mut exact = texts.iter().filter(|(_, t)| *t == wanted);
            match (exact.next(), exact.next()) {
                (Some((m, _)), None) => Some(*m),
                _ => None,
            }
        });
        self.changed();
        match found {
            Some(m) => Ok(self.live.with(|p| p.play(m))),
            None => self
                .live
                .with(|p| p.apply_text(text))
                .map_err(|e| bad_move(text, &e)),
        }
    }

    /// A copy made by replaying this state's moves from the start.
    fn replayed(&mut self) -> PyState {
        let mut copy = PyState::start(Arc::clone(self.game()));
        let moves: Vec<Move> = self.live.with(|p| p.moves().to_vec());
        copy.live.with(|p| {
            for m in moves {
                p.play_unwritten(m);
            }
        });
        copy
    }

    pub fn result_text(&mut self) -> Option<String> {
        self.live.with(|p| p.result_text())
    }

    /// The legal move with id `action` in notation, or `GameError`.
    fn legal_text(&mut self, action: u64) -> PyResult<String> {
        let space = self
            .game()
            .actions()
            .map_err(|e| game_error(&e.to_string(), Some("no-action-ids")))?;
        let m = space
            .decisions(action)
            .map_err(|e| game_error(&e.to_string(), Some("bad-action")))?;
        let legal = self.legal().contains(&m);
        let text = legal.then(|| {
            self.live
                .with(|p| notation::normalize(&p.engine().move_text(&m)))
        });
        text.ok_or_else(|| {
            game_error(
                &format!("action {action} is not a legal move here"),
                Some("illegal"),
            )
        })
    }

    fn observation(&mut self, player: Option<u8>) -> PyResult<Array2<f32>> {
        let (planes, cells) = observe::shape(&self.game().program);
        let player = match player {
            Some(p) => p,
            None => self.live.with(|p| p.to_move()),
        };
        check_player(player)?;
        let mut values = vec![0.0f32; planes * cells];
        self.live
            .with(|p| observe::write(p.engine(), player, &mut values));
        Array2::from_shape_vec((planes, cells), values)
            .map_err(|e| game_error(&e.to_string(), Some("internal")))
    }
}

#[pymethods]
impl PyState {
    /// The player to move (0 or 1), `CHANCE_PLAYER` (-1) when chance decides, or
    /// `TERMINAL_PLAYER` (-4) once the game is over.
    fn current_player(&mut self) -> i64 {
        if self.legal().is_empty() {
            return TERMINAL;
        }
        self.live.with(|p| {
            if p.engine().chance() {
                CHANCE
            } else {
                i64::from(p.to_move())
            }
        })
    }

    /// The legal moves' action ids, ascending (at a chance node, the outcomes').
    fn legal_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let ids = self.ids()?.iter().map(|&(id, _)| id);
        PyList::new(py, ids)
    }

    /// A 0/1 array over every action id: 1 where the action is legal here.
    fn legal_actions_mask<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<u8>>> {
        let size = mask_size(self.game())?;
        let mut mask = vec![0u8; size];
        for id in self.legal_ids()? {
            if let Some(m) = usize::try_from(id).ok().and_then(|i| mask.get_mut(i)) {
                *m = 1;
            }
        }
        Ok(mask.into_pyarray(py))
    }

    /// The legal moves in notation, in generation order.
    fn legal_moves<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, self.texts().iter().map(|(_, t)| t.as_str()))
    }

    /// The notation of the legal move with id `action`.
    #[pyo3(signature = (action, player = None))]
    fn action_to_string(&mut self, action: u64, player: Option<i64>) -> PyResult<String> {
        let _ = player;
        self.legal_text(action)
    }

    /// The id of the legal move written `text` (as `play` reads a typed move).
    fn string_to_action(&mut self, text: &str) -> PyResult<u64> {
        let found = self
            .live
            .with(|p| rulestone_session::notation::find_move(p.engine(), text));
        let m: Move = found.map_err(|e| bad_move(text, &e))?;
        let space = self
            .game()
            .actions()
            .map_err(|e| game_error(&e.to_string(), Some("no-action-ids")))?;
        space
            .id(&m)
            .map_err(|e| game_error(&e.to_string(), Some("no-action-id")))
    }

    /// Plays the legal move with id `action`; returns nothing, as OpenSpiel's does (its
    /// notation is written only when asked for, by `moves()` or a record, which keeps a
    /// Python loop's step cheap).
    fn apply_action(&mut self, action: u64) -> PyResult<()> {
        // The move of an id `legal_actions` listed, found without decoding the id.
        let listed = self.ids.as_ref().and_then(|ids| {
            let at = ids.binary_search_by_key(&action, |&(id, _)| id).ok()?;
            Some(ids[at].1)
        });
        if let Some(m) = listed {
            self.changed();
            self.live.with(|p| p.play_unwritten(m));
            return Ok(());
        }
        let space = self
            .game()
            .actions()
            .map_err(|e| bad_action(&BadAction::NoSpace(e)))?;
        let m = space
            .decisions(action)
            .map_err(|e| bad_action(&BadAction::Invalid(e)))?;
        // No legal move and the game is over are one (see `legal_decisions`).
        if self.legal().is_empty() {
            let result = self.result_text().unwrap_or_default();
            return Err(bad_action(&BadAction::GameOver(result)));
        }
        if !self.legal().contains(&m) {
            return Err(bad_action(&BadAction::Illegal(action)));
        }
        self.changed();
        self.live.with(|p| p.play_unwritten(m));
        Ok(())
    }

    /// Plays the legal move written `text`; returns its notation.
    fn apply_move(&mut self, text: &str) -> PyResult<String> {
        self.apply_text(text)
    }

    /// Takes back the last move; returns its notation. `GameError` at the start.
    fn undo(&mut self) -> PyResult<String> {
        self.changed();
        self.live
            .with(|p| p.undo())
            .ok_or_else(|| game_error("no move has been played", Some("nothing-to-undo")))
    }

    /// Whether chance (a roll) takes the next decision.
    fn is_chance_node(&mut self) -> bool {
        self.current_player() == CHANCE
    }

    /// `[(action, probability)]` at a chance node (uniform over the outcomes); else empty.
    fn chance_outcomes(&mut self) -> PyResult<Vec<(u64, f64)>> {
        if !self.is_chance_node() {
            return Ok(Vec::new());
        }
        let ids = self.legal_ids()?;
        let p = 1.0 / ids.len().max(1) as f64;
        Ok(ids.into_iter().map(|id| (id, p)).collect())
    }

    fn is_terminal(&mut self) -> bool {
        self.legal().is_empty()
    }

    /// Each player's return: 1 for a win, -1 for a loss, 0 for a draw or while play goes on.
    fn returns(&mut self) -> Vec<f64> {
        returns_of(self.live.with(|p| p.outcome())).to_vec()
    }

    /// The rewards of the last move: the returns once it ended the game, else zeros.
    fn rewards(&mut self) -> Vec<f64> {
        self.returns()
    }

    /// `White wins`, `draw`, or `None` while the game goes on.
    fn result(&mut self) -> Option<String> {
        self.result_text()
    }

    /// Each player's score, for a game that declares one, once it is over.
    fn scores(&mut self) -> Option<Vec<i32>> {
        self.live.with(|p| p.engine().scores()).map(|s| s.to_vec())
    }

    /// An independent copy of this state (its position and history, and the moves listed of
    /// it), made without replaying the game.
    fn clone(&mut self) -> PyState {
        let game = Arc::clone(self.game());
        let live = Live::try_new(game, |g| {
            self.live
                .with_dependent(|_, p| p.copy_for(g))
                .ok_or("a position is copied with its own game")
        });
        let live = match live {
            Ok(live) => live,
            Err(_) => return self.replayed(),
        };
        PyState {
            live,
            legal: self.legal.clone(),
            ids: self.ids.clone(),
            texts: self.texts.clone(),
        }
    }

    fn __copy__(&mut self) -> PyState {
        self.clone()
    }

    fn __deepcopy__(&mut self, _memo: &Bound<'_, PyAny>) -> PyState {
        self.clone()
    }

    /// The action ids of the moves played, in order.
    fn history(&mut self) -> PyResult<Vec<u64>> {
        let space = self
            .game()
            .actions()
            .map_err(|e| game_error(&e.to_string(), Some("no-action-ids")))?;
        let played: Vec<Move> = self.live.with(|p| p.moves().to_vec());
        played
            .iter()
            .map(|m| {
                space
                    .id(m)
                    .map_err(|e| game_error(&e.to_string(), Some("no-action-id")))
            })
            .collect()
    }

    /// The moves played, in notation.
    fn moves(&mut self) -> Vec<String> {
        self.live.with(|p| p.texts().to_vec())
    }

    /// The number of moves played.
    fn move_number(&mut self) -> usize {
        self.live.with(|p| p.moves().len())
    }

    /// The observation for `player` (default: the player to move) as a float32 array of
    /// shape `game.observation_tensor_shape()` (docs/python.md lists the planes).
    #[pyo3(signature = (player = None))]
    fn observation_tensor<'py>(
        &mut self,
        py: Python<'py>,
        player: Option<u8>,
    ) -> PyResult<Bound<'py, PyArray2<f32>>> {
        Ok(self.observation(player)?.into_pyarray(py))
    }

    /// The text drawing of the board (every player sees the whole position).
    #[pyo3(signature = (player = None))]
    fn observation_string(&mut self, player: Option<u8>) -> PyResult<String> {
        if let Some(p) = player {
            check_player(p)?;
        }
        Ok(self.__str__())
    }

    /// The game record of the moves so far (the `.rec` format), naming the game by `path`.
    #[pyo3(signature = (path = None))]
    #[pyo3(name = "to_record")]
    fn record_text(&mut self, path: Option<String>) -> String {
        let path = std::path::PathBuf::from(path.unwrap_or_else(|| self.game().name.clone()));
        self.live.with(|p| p.record(&path).to_text())
    }

    fn __str__(&mut self) -> String {
        self.live.with(|p| board::draw(p.engine()))
    }

    fn __repr__(&mut self) -> String {
        let moves = self.moves();
        format!(
            "<rulestone.State after {} moves: {}>",
            moves.len(),
            moves.join("; ")
        )
    }
}

/// The mask length of `game`'s actions, or `GameError`.
fn mask_size(game: &Game) -> PyResult<usize> {
    let size = game
        .actions()
        .map_err(|e| game_error(&e.to_string(), Some("no-action-ids")))?
        .size();
    if size > MAX_MASK {
        return Err(game_error(
            &format!("{size} action ids: more than the {MAX_MASK} a mask holds"),
            Some("mask-too-large"),
        ));
    }
    usize::try_from(size).map_err(|_| game_error("mask too large", Some("mask-too-large")))
}

/// `n` states of one game advanced together, for reinforcement learning: one call steps every
/// state by its action (with the GIL released), and observations and legal-action masks come
/// back as one numpy array each. A state whose game ends is reported by `step` and starts over.
#[pyclass(name = "Batch", module = "rulestone")]
pub struct PyBatch {
    game: Arc<Game>,
    states: Vec<Slot>,
}

/// A state of a batch and its legal moves, listed once a step: `masks`, `current_players` and
/// the next `step` read them, and whether the game ended is whether there are none.
struct Slot {
    live: Live,
    legal: Vec<Move>,
}

impl Slot {
    fn start(game: Arc<Game>) -> Slot {
        let mut live = Live::start(game);
        let legal = live.with(legal_decisions);
        Slot { live, legal }
    }

    fn list(&mut self) {
        self.legal = self.live.with(legal_decisions);
    }

    /// Plays the move with id `action` when it is legal here.
    fn apply(&mut self, space: ActionSpace, action: u64) -> Result<(), BadAction> {
        let m = space.decisions(action).map_err(BadAction::Invalid)?;
        if self.legal.is_empty() {
            let result = self.live.with(|p| p.result_text()).unwrap_or_default();
            return Err(BadAction::GameOver(result));
        }
        if !self.legal.contains(&m) {
            return Err(BadAction::Illegal(action));
        }
        self.live.with(|p| p.play_unwritten(m));
        Ok(())
    }
}

impl PyBatch {
    pub fn new(game: Arc<Game>, n: usize) -> PyResult<PyBatch> {
        if n == 0 || n > MAX_BATCH {
            return Err(game_error(
                &format!("a batch holds 1 to {MAX_BATCH} states, not {n}"),
                Some("bad-count"),
            ));
        }
        game.actions()
            .map_err(|e| game_error(&e.to_string(), Some("no-action-ids")))?;
        let states = (0..n).map(|_| Slot::start(Arc::clone(&game))).collect();
        Ok(PyBatch { game, states })
    }
}

/// Each state's returns after a step, and whether its game ended.
type Stepped = (Vec<[f64; 2]>, Vec<bool>);

/// Plays `actions[i]` in `states[i]`, every one or none: on the first refused, the moves
/// already made are taken back. The returns and whether each game ended, then the ended
/// games started over.
fn step_all(
    space: ActionSpace,
    states: &mut [Slot],
    actions: &[u64],
) -> Result<Stepped, (usize, rulestone_session::BadAction)> {
    for (i, (slot, &action)) in states.iter_mut().zip(actions).enumerate() {
        if let Err(e) = slot.apply(space, action) {
            for done in &mut states[..i] {
                done.live.with(|p| p.undo());
            }
            return Err((i, e));
        }
    }
    let mut rewards = Vec::with_capacity(states.len());
    let mut ended = Vec::with_capacity(states.len());
    for slot in states.iter_mut() {
        slot.list();
        // Over exactly when nothing is legal (see `legal_decisions`).
        let outcome = if slot.legal.is_empty() {
            slot.live.with(|p| p.outcome())
        } else {
            None
        };
        rewards.push(returns_of(outcome));
        ended.push(outcome.is_some());
        if outcome.is_some() {
            *slot = Slot::start(Arc::clone(slot.live.borrow_owner()));
        }
    }
    Ok((rewards, ended))
}

#[pymethods]
impl PyBatch {
    fn __len__(&self) -> usize {
        self.states.len()
    }

    /// Each state's player to move (`CHANCE_PLAYER` at a chance node).
    fn current_players(&mut self) -> Vec<i64> {
        self.states
            .iter_mut()
            .map(|slot| {
                let listed = !slot.legal.is_empty();
                slot.live.with(|p| {
                    if listed && p.engine().chance() {
                        CHANCE
                    } else {
                        i64::from(p.to_move())
                    }
                })
            })
            .collect()
    }

    /// Every state's observation for its player to move: float32, `[n, planes, cells]`.
    fn observations<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray3<f32>>> {
        let (planes, cells) = observe::shape(&self.game.program);
        let n = self.states.len();
        let states = &mut self.states;
        let values = py.detach(|| {
            let mut values = vec![0.0f32; n * planes * cells];
            let per = (planes * cells).max(1);
            for (slot, out) in states.iter_mut().zip(values.chunks_mut(per)) {
                slot.live.with(|p| {
                    let mover = p.to_move();
                    observe::write(p.engine(), mover, out);
                });
            }
            values
        });
        let array = Array3::from_shape_vec((n, planes, cells), values)
            .map_err(|e| game_error(&e.to_string(), Some("internal")))?;
        Ok(array.into_pyarray(py))
    }

    /// Every state's legal actions as a 0/1 mask: uint8, `[n, num_distinct_actions]`.
    fn masks<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyArray2<u8>>> {
        let size = mask_size(&self.game)?;
        let n = self.states.len();
        let total = n.saturating_mul(size);
        if total as u64 > MAX_MASK * 16 {
            return Err(game_error(
                &format!(
                    "{n} masks of {size} entries: more than {} in all",
                    MAX_MASK * 16
                ),
                Some("mask-too-large"),
            ));
        }
        let game = Arc::clone(&self.game);
        let states = &mut self.states;
        let mask = py.detach(|| {
            let mut mask = vec![0u8; total];
            let space = game.actions().ok();
            for (slot, row) in states.iter_mut().zip(mask.chunks_mut(size.max(1))) {
                for m in &slot.legal {
                    let id = space.and_then(|s| s.id(m).ok());
                    if let Some(cell) = id
                        .and_then(|i| usize::try_from(i).ok())
                        .and_then(|i| row.get_mut(i))
                    {
                        *cell = 1;
                    }
                }
            }
            mask
        });
        let array = Array2::from_shape_vec((n, size), mask)
            .map_err(|e| game_error(&e.to_string(), Some("internal")))?;
        Ok(array.into_pyarray(py))
    }

    /// Plays `actions[i]` (an action id) in state `i`, all of them or, when one is refused,
    /// none (`GameError` naming the state). Returns `(returns, ended)`: float64 `[n, 2]`, each
    /// player's return in a game the step ended (else zeros), and bool `[n]`; an ended game
    /// starts over at once.
    #[allow(clippy::type_complexity)]
    fn step<'py>(
        &mut self,
        py: Python<'py>,
        actions: Vec<u64>,
    ) -> PyResult<(Bound<'py, PyArray2<f64>>, Bound<'py, PyArray1<bool>>)> {
        if actions.len() != self.states.len() {
            return Err(game_error(
                &format!(
                    "{} actions for a batch of {} states",
                    actions.len(),
                    self.states.len()
                ),
                Some("bad-count"),
            ));
        }
        let space = self
            .game
            .actions()
            .map_err(|e| game_error(&e.to_string(), Some("no-action-ids")))?;
        let states = &mut self.states;
        let (rewards, ended) =
            py.detach(|| step_all(space, states, &actions))
                .map_err(|(i, e)| {
                    let err = bad_action(&e);
                    game_error(&format!("state {i}: {}", err), Some("illegal"))
                })?;
        let n = rewards.len();
        let flat: Vec<f64> = rewards.into_iter().flatten().collect();
        let array = Array2::from_shape_vec((n, 2), flat)
            .map_err(|e| game_error(&e.to_string(), Some("internal")))?;
        Ok((array.into_pyarray(py), ended.into_pyarray(py)))
    }

    /// A copy of state `i`.
    fn state(&mut self, i: usize) -> PyResult<PyState> {
        let live = self
            .states
            .get_mut(i)
            .map(|slot| &mut slot.live)
            .ok_or_else(|| game_error(&format!("no state {i} in this batch"), Some("bad-index")))?;
        let moves: Vec<Move> = live.with(|p| p.moves().to_vec());
        let mut copy = PyState::start(Arc::clone(&self.game));
        copy.position(|p| {
            for m in moves {
                p.play_unwritten(m);
            }
        });
        Ok(copy)
    }
}
