//! The games in play: each session's loaded game and the moves played, and what the page is
//! sent of a position. Everything here is blocking work, run on the runtime's blocking threads.

use std::cell::RefCell;
use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use rand::SeedableRng as _;
use rand_chacha::ChaCha8Rng;
use rulestone_agents::AgentSpec;
use rulestone_runtime::{BoardGame, Compiled, Game as _, Move};
use rulestone_session::{Game, Position};
use serde_json::{json, Value};

use crate::api::ApiError;
use crate::{MAX_AGENT_CPU, MAX_LEGAL, MAX_MOVES, MAX_SESSIONS};

/// The moves played, each marked when it was a chance move the program rolled.
pub(crate) type Played = Vec<(Move, bool)>;

/// The width of the board picture sent, in pixels (the page scales it).
const PICTURE_WIDTH: u32 = 640;
/// The most chance moves rolled in a row after one move.
const MAX_ROLLS: usize = 64;
/// An agent's thinking time per strength level, 1 (weakest) to 5, in ms of CPU time.
const STRENGTH_MS: [u64; 5] = [50, 150, 400, 1000, 3000];

/// A game loaded for one set of option values.
pub(crate) struct Loaded {
    /// The catalog id it was read from; `None` for a text sent by the page.
    pub id: Option<String>,
    pub game: Game,
    /// The declared options, each with what it accepts and its value here.
    pub options: Vec<Value>,
}

/// One browser tab's game.
pub(crate) struct Session {
    pub loaded: Arc<Loaded>,
    pub played: Played,
    /// Seeds the dice and the agents.
    pub seed: u64,
    /// When it was last used (a count of uses), for eviction.
    used: u64,
}

/// Every session, at most [`MAX_SESSIONS`].
#[derive(Default)]
pub(crate) struct Sessions {
    map: HashMap<String, Session>,
    clock: u64,
}

impl Sessions {
    /// Keeps `session` under `id`, evicting the least recently used session when full.
    pub fn put(&mut self, id: String, mut session: Session) {
        self.clock += 1;
        session.used = self.clock;
        if !self.map.contains_key(&id) && self.map.len() >= MAX_SESSIONS {
            let oldest = self
                .map
                .iter()
                .min_by_key(|(_, s)| s.used)
                .map(|(k, _)| k.clone());
            if let Some(k) = oldest {
                self.map.remove(&k);
            }
        }
        self.map.insert(id, session);
    }

    /// The session's game, moves and seed.
    ///
    /// # Errors
    /// No session has this id (it never existed, or was evicted).
    pub fn get(&mut self, id: &str) -> Result<(Arc<Loaded>, Played, u64), ApiError> {
        self.clock += 1;
        let clock = self.clock;
        let s = self.map.get_mut(id).ok_or_else(|| {
            ApiError::new(
                404,
                "no-session",
                "this page's game is no longer kept by the server (it was restarted, or too many \
                 other games were opened since)",
            )
            .note("open the game again")
        })?;
        s.used = clock;
        Ok((Arc::clone(&s.loaded), s.played.clone(), s.seed))
    }

    /// Replaces the moves of session `id`, if it still holds the game `loaded` after `before`.
    ///
    /// # Errors
    /// The session is gone or was changed meanwhile.
    pub fn set_moves(
        &mut self,
        id: &str,
        loaded: &Arc<Loaded>,
        before: usize,
        played: Played,
    ) -> Result<(), ApiError> {
        let s = self
            .map
            .get_mut(id)
            .filter(|s| Arc::ptr_eq(&s.loaded, loaded) && s.played.len() == before)
            .ok_or_else(|| {
                ApiError::new(
                    409,
                    "changed",
                    "the game changed while this request worked (another request of the same \
                     page came first)",
                )
            })?;
        s.played = played;
        Ok(())
    }

    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.map.len()
    }
}

impl Session {
    pub fn new(loaded: Arc<Loaded>, played: Played, seed: u64) -> Session {
        Session {
            loaded,
            played,
            seed,
            used: 0,
        }
    }
}

/// Loads a game's text for the option values `sets`.
///
/// # Errors
/// The text's or options' errors, rendered as `rulestone check` renders them.
pub(crate) fn load(
    id: Option<String>,
    name: &str,
    source: String,
    sets: &[(String, String)],
    compiled: Compiled,
) -> Result<Loaded, ApiError> {
    let options = declared_options(&source, sets);
    let game = Game::load(name, source, sets, compiled).map_err(|e| {
        ApiError::new(
            400,
            if e.bad_options {
                "bad-options"
            } else {
                "bad-game"
            },
            e.message,
        )
        .with_diag(e.code)
    })?;
    Ok(Loaded { id, game, options })
}

/// The options `source` declares, with what each accepts, its default and its value in `sets`.
pub(crate) fn declared_options(source: &str, sets: &[(String, String)]) -> Vec<Value> {
    let Ok(file) = rulestone_syntax::parse(source) else {
        return Vec::new();
    };
    rulestone_check::options::declared(&file)
        .map(|d| {
            let default = rulestone_check::options::default_text(d);
            let value = sets
                .iter()
                .find(|(k, _)| *k == d.name.name)
                .map_or_else(|| default.clone(), |(_, v)| v.clone());
            let kind = match &d.ty {
                rulestone_syntax::ast::OptionType::Enum(words) => json!({
                    "type": "enum",
                    "values": words.iter().map(|w| w.name.clone()).collect::<Vec<_>>(),
                }),
                rulestone_syntax::ast::OptionType::Range { lo, hi, .. } => {
                    json!({"type": "number", "min": lo, "max": hi})
                }
            };
            json!({
                "name": d.name.name,
                "accepts": rulestone_check::options::accepted(d),
                "kind": kind,
                "default": default,
                "value": value,
            })
        })
        .collect()
}

thread_local! {
    /// The cancel flag of the request this blocking thread works for, set by [`watching`].
    static CANCEL: RefCell<Option<Arc<AtomicBool>>> = const { RefCell::new(None) };
}

/// Clears the thread's cancel flag when the work ends, however it ends (blocking threads are
/// reused).
struct Unwatch;

impl Drop for Unwatch {
    fn drop(&mut self) {
        CANCEL.with(|c| *c.borrow_mut() = None);
    }
}

/// Runs one request's `work` on this thread under its cancel flag: every position made by
/// [`position`] shares the flag as its engine's alarm (raised, the engine lists no more moves,
/// so replays, searches and playouts end), and the checker asks [`cancelled`].
pub(crate) fn watching<T>(cancel: Arc<AtomicBool>, work: impl FnOnce() -> T) -> T {
    CANCEL.with(|c| *c.borrow_mut() = Some(cancel));
    let _unwatch = Unwatch;
    work()
}

/// Whether this thread's request was told to stop.
pub(crate) fn cancelled() -> bool {
    CANCEL.with(|c| {
        c.borrow()
            .as_ref()
            .is_some_and(|f| f.load(Ordering::Relaxed))
    })
}

/// The start of `game`, its engine watching the request's cancel flag.
fn position(game: &Game) -> Position<'_> {
    let mut pos = Position::new(game);
    if let Some(flag) = CANCEL.with(|c| c.borrow().clone()) {
        pos.engine().share_alarm(flag);
    }
    pos
}

/// The position after `played`.
fn replay<'g>(game: &'g Game, played: &[(Move, bool)]) -> Position<'g> {
    let mut pos = position(game);
    for (m, _) in played {
        pos.play(*m);
    }
    pos
}

/// Rolls the program's dice while the position waits for chance; the rolls are added to
/// `played`.
fn roll(pos: &mut Position<'_>, played: &mut Played, seed: u64) {
    for _ in 0..MAX_ROLLS {
        if pos.result_text().is_some() || !pos.chance() {
            return;
        }
        let mut rng =
            ChaCha8Rng::seed_from_u64(seed ^ (played.len() as u64).wrapping_mul(0x9e37_79b9));
        let Some(m) = pos.as_game().sample(&mut rng) else {
            return;
        };
        pos.play(m);
        played.push((m, true));
    }
}

/// The moves after the start, with the program's first rolls, and then the moves `texts`.
///
/// # Errors
/// Too many moves, or one that is not legal (with its index and why).
pub(crate) fn start(loaded: &Loaded, texts: &[String], seed: u64) -> Result<Played, ApiError> {
    if texts.len() > MAX_MOVES {
        return Err(ApiError::new(
            400,
            "too-many-moves",
            format!(
                "{} moves given: at most {MAX_MOVES} are played",
                texts.len()
            ),
        ));
    }
    let mut pos = position(&loaded.game);
    let mut played = Vec::new();
    roll(&mut pos, &mut played, seed);
    for (i, text) in texts.iter().enumerate() {
        play_one(&mut pos, &mut played, text, seed)
            .map_err(|e| e.prefixed(&format!("move {} (`{text}`): ", i + 1)))?;
    }
    steps_ok(&mut pos)?;
    Ok(played)
}

fn play_one(
    pos: &mut Position<'_>,
    played: &mut Played,
    text: &str,
    seed: u64,
) -> Result<(), ApiError> {
    if played.len() >= MAX_MOVES {
        return Err(ApiError::new(
            400,
            "too-many-moves",
            format!("a game here holds at most {MAX_MOVES} moves"),
        ));
    }
    let before = pos.moves().len();
    pos.apply_text(text).map_err(|bad| bad_move(text, bad))?;
    if let Some(m) = pos.moves().get(before) {
        played.push((*m, false));
    }
    roll(pos, played, seed);
    Ok(())
}

/// Why the move written `text` was refused, for the page.
fn bad_move(text: &str, bad: rulestone_session::BadMove) -> ApiError {
    match bad {
        rulestone_session::BadMove::GameOver(result) => {
            ApiError::new(400, "game-over", format!("the game is over: {result}"))
        }
        rulestone_session::BadMove::Illegal { notes } => {
            let mut e = ApiError::new(400, "illegal-move", format!("`{text}` is not a legal move"));
            e.notes = notes;
            e
        }
        rulestone_session::BadMove::Ambiguous(same) => {
            let mut e = ApiError::new(400, "same-notation", same.message());
            e.notes = vec![same.note()];
            e
        }
    }
}

/// The moves of a saved game: each played as written, the rolls of its dice included (a roll
/// is a move of the record); the program rolls only after the last one.
///
/// # Errors
/// Too many moves, or one that is not legal (with its index and why).
pub(crate) fn start_recorded(
    loaded: &Loaded,
    texts: &[String],
    seed: u64,
) -> Result<Played, ApiError> {
    if texts.len() > MAX_MOVES {
        return Err(ApiError::new(
            400,
            "too-many-moves",
            format!(
                "{} moves recorded: at most {MAX_MOVES} are played",
                texts.len()
            ),
        ));
    }
    let mut pos = position(&loaded.game);
    let mut played = Vec::new();
    for (i, text) in texts.iter().enumerate() {
        let chance = pos.chance();
        let before = pos.moves().len();
        pos.apply_text(text)
            .map_err(|bad| bad_move(text, bad).prefixed(&format!("move {} (`{text}`): ", i + 1)))?;
        if let Some(m) = pos.moves().get(before) {
            played.push((*m, chance));
        }
    }
    roll(&mut pos, &mut played, seed);
    steps_ok(&mut pos)?;
    Ok(played)
}

/// The game so far as a record (`rulestone replay` reads it; the page loads it back), naming
/// the game by its catalog id.
///
/// # Errors
/// The game is a text sent by the page, which no file holds for the record to name.
pub(crate) fn record(loaded: &Loaded, played: &[(Move, bool)]) -> Result<String, ApiError> {
    let Some(id) = &loaded.id else {
        return Err(ApiError::new(
            400,
            "no-file",
            "an edited game has no file for its record to name",
        )
        .note("save the rules text as a .game file in the directory `rulestone serve` shows, open it from the list, and save the record from there"));
    };
    let mut pos = replay(&loaded.game, played);
    Ok(pos.record(std::path::Path::new(id)).to_text())
}

/// The position after `played`, refused when its game is over.
fn unfinished<'g>(loaded: &'g Loaded, played: &[(Move, bool)]) -> Result<Position<'g>, ApiError> {
    let mut pos = replay(&loaded.game, played);
    if let Some(result) = pos.result_text() {
        return Err(ApiError::new(
            400,
            "game-over",
            format!("the game is over: {result}"),
        ));
    }
    Ok(pos)
}

/// The moves after playing `text` (and the rolls that follow it).
///
/// # Errors
/// The move is not legal here.
pub(crate) fn play(
    loaded: &Loaded,
    mut played: Played,
    text: &str,
    seed: u64,
) -> Result<Played, ApiError> {
    let mut pos = unfinished(loaded, &played)?;
    play_one(&mut pos, &mut played, text, seed)?;
    steps_ok(&mut pos)?;
    Ok(played)
}

/// The moves with the last player's move (and the rolls after it) taken back.
pub(crate) fn undo(mut played: Played) -> Played {
    while played.last().is_some_and(|(_, chance)| *chance) {
        played.pop();
    }
    played.pop();
    played
}

/// The agent `agent` at strength `strength` (1 to 5): its spec, thinking for a CPU time.
///
/// # Errors
/// An unknown agent or a strength out of range.
pub(crate) fn agent_spec(agent: &str, strength: u8) -> Result<AgentSpec, ApiError> {
    let ms = STRENGTH_MS
        .get(usize::from(strength).wrapping_sub(1))
        .copied()
        .ok_or_else(|| {
            ApiError::new(
                400,
                "bad-strength",
                format!("strength {strength} is not 1 to 5"),
            )
        })?
        .min(MAX_AGENT_CPU.as_millis() as u64);
    let text = match agent {
        "random" => "random".to_string(),
        "mcts" | "alphabeta" => format!("{agent}:cpu={ms}ms"),
        _ => {
            return Err(
                ApiError::new(400, "bad-agent", format!("`{agent}` is not an agent here"))
                    .note("the agents are `mcts`, `alphabeta` and `random`"),
            )
        }
    };
    AgentSpec::parse(&text).map_err(|e| ApiError::new(400, "bad-agent", e.message))
}

/// The moves after the agent's move for the player to move (and the rolls after it).
///
/// # Errors
/// The game is over, or the agent found no move.
pub(crate) fn agent_move(
    loaded: &Loaded,
    mut played: Played,
    spec: &AgentSpec,
    seed: u64,
) -> Result<Played, ApiError> {
    let mut pos = unfinished(loaded, &played)?;
    let mut agent = spec.build::<BoardGame<'_>>(seed.wrapping_add(played.len() as u64));
    let thought = agent
        .choose(pos.as_game())
        .ok_or_else(|| ApiError::new(400, "no-move", "the agent found no move to play"))?;
    pos.play(thought.decision);
    played.push((thought.decision, false));
    roll(&mut pos, &mut played, seed);
    steps_ok(&mut pos)?;
    Ok(played)
}

/// Refuses a position whose move generation ran out of steps (E1008).
fn steps_ok(pos: &mut Position<'_>) -> Result<(), ApiError> {
    if pos.as_game().out_of_steps() {
        return Err(ApiError::new(
            400,
            "out-of-steps",
            "the game's move generation ran out of steps in this position: its turn does more \
             work than the runtime allows",
        )
        .with_diag(Some("E1008".to_string())));
    }
    Ok(())
}

/// What the page is sent of session `id`'s position: the picture, whose turn, the result,
/// the moves played and the legal moves with the cells each names, part by part.
pub(crate) fn state(id: &str, loaded: &Loaded, played: &[(Move, bool)]) -> Value {
    let game = &loaded.game;
    let program = &game.program;
    let split = played.len().saturating_sub(1);
    let mut pos = replay(game, &played[..split]);
    let before = (!played.is_empty()).then(|| {
        let engine = pos.engine();
        (engine.state.board.clone(), engine.state.counters.clone())
    });
    for (m, _) in &played[split..] {
        pos.play(*m);
    }
    let moves: Vec<Value> = pos
        .texts()
        .iter()
        .zip(played)
        .map(|(text, (_, chance))| json!({"text": text, "chance": chance}))
        .collect();
    let last_text = pos.texts().last().cloned();
    let result = pos.result_text();
    let legal = pos.legal();
    let chance = pos.chance();
    let names: HashSet<&str> = program.board.names.iter().map(String::as_str).collect();
    let longest = program
        .board
        .names
        .iter()
        .map(String::len)
        .max()
        .unwrap_or(0);
    let listed: Vec<Value> = legal
        .iter()
        .take(MAX_LEGAL)
        .map(|m| {
            let parts: Vec<Value> = m
                .parts
                .iter()
                .map(|(p, text)| {
                    json!({"player": p, "text": text, "cells": cells_in(text, &names, longest)})
                })
                .collect();
            json!({"text": m.text, "cells": cells_in(&m.text, &names, longest), "parts": parts})
        })
        .collect();
    let before = before.as_ref().map(|(b, c)| (b.as_slice(), c.as_slice()));
    let view = rulestone_draw::View::of(pos.engine(), before, last_text);
    let svg = rulestone_draw::svg(&view, PICTURE_WIDTH);
    let mover = pos.to_move();
    json!({
        "session": id,
        "game": loaded.id,
        "title": program.name,
        "options": loaded.options,
        "players": (0..program.players.len()).map(|p| program.player_name(p as u8)).collect::<Vec<_>>(),
        "to_move": mover,
        "to_move_name": program.player_name(mover),
        "result": result,
        "chance": chance,
        "moves": moves,
        "legal": listed,
        "legal_total": legal.len(),
        "cells": program.board.names,
        "svg": svg,
    })
}

/// The cell names `text` mentions, in order: at each word boundary, the longest cell name
/// that ends at a word boundary.
pub(crate) fn cells_in(text: &str, names: &HashSet<&str>, longest: usize) -> Vec<String> {
    let word = |c: Option<char>| c.is_some_and(|c| c.is_alphanumeric() || c == '_');
    let mut out = Vec::new();
    let mut i = 0;
    while i < text.len() {
        let prev = text[..i].chars().next_back();
        let mut step = text[i..].chars().next().map_or(1, char::len_utf8);
        if !word(prev) {
            let mut end = (i + longest).min(text.len());
            while end > i {
                if text.is_char_boundary(end)
                    && names.contains(&text[i..end])
                    && !word(text[end..].chars().next())
                {
                    out.push(text[i..end].to_string());
                    step = end - i;
                    break;
                }
                end -= 1;
            }
        }
        i += step;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_read_at_word_boundaries_longest_first() {
        let names: HashSet<&str> = ["a1", "a10", "b2", "c3"].into_iter().collect();
        assert_eq!(cells_in("a1-b2", &names, 3), ["a1", "b2"]);
        assert_eq!(cells_in("a10xc3", &names, 3), Vec::<String>::new());
        assert_eq!(cells_in("a10 x c3", &names, 3), ["a10", "c3"]);
        assert_eq!(cells_in("Ba1", &names, 3), Vec::<String>::new());
        assert_eq!(cells_in("pass", &names, 3), Vec::<String>::new());
        assert_eq!(cells_in("é a1", &names, 3), ["a1"]);
    }

    #[test]
    fn the_least_recently_used_session_is_evicted() {
        let Ok(loaded) = load(
            None,
            "t.game",
            crate::catalog::tests_source(),
            &[],
            Compiled::NONE,
        ) else {
            panic!("the bundled game loads");
        };
        let loaded = Arc::new(loaded);
        let mut sessions = Sessions::default();
        for i in 0..MAX_SESSIONS {
            sessions.put(
                format!("s{i}"),
                Session::new(Arc::clone(&loaded), Vec::new(), 0),
            );
        }
        assert!(sessions.get("s0").is_ok());
        sessions.put("new".to_string(), Session::new(loaded, Vec::new(), 0));
        assert_eq!(sessions.len(), MAX_SESSIONS);
        assert!(sessions.get("s0").is_ok());
        assert!(sessions.get("s1").is_err());
        assert!(sessions.get("new").is_ok());
    }
}
