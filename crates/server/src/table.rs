//! Table games in the playground: a match of a game that declares a `table` (discs on a
//! simulated table, shots aimed and timed by the player), kept as the decisions typed since
//! its deal and replayed for each request, as `rulestone play` replays a record. The page is
//! sent the table's picture (`rulestone-draw`'s), the stones that may be shot with the cards
//! that shoot them and their top speeds, the other decisions open (skips, army choices) as
//! moves without cells, and the stones' positions along the last shot, from the runtime's own
//! simulation, to animate it.
//!
//! No game is named here: everything comes from the game's declarations. Each player may
//! choose among the armies the game file declares.

use std::collections::HashMap;
use std::sync::Arc;

use rulestone_agents::AgentSpec;
use rulestone_ir::table::{Army, TableProgram};
use rulestone_runtime::table::{Choice, Decision, TableMatch};
use rulestone_runtime::{Game as _, GameResult};
use serde_json::{json, Value};

use crate::api::ApiError;
use crate::{MAX_MOVES, MAX_SESSIONS};

/// Every this many simulation steps the stones' positions are recorded along a shot.
const TRACE_EVERY: u32 = 4;
/// The most positions of a shot sent to the page (the trace is thinned to this many).
const MAX_FRAMES: usize = 150;
/// The width of the table's picture, in pixels (the page scales it).
const PICTURE_WIDTH: u32 = 800;

/// A table game loaded for one set of option values.
pub(crate) struct TableLoaded {
    pub id: Option<String>,
    pub program: TableProgram,
    /// Each player's armies: the game file's own.
    pub armies: [Vec<Army>; 2],
    /// The declared options, as [`crate::play::Loaded::options`].
    pub options: Vec<Value>,
}

/// One browser tab's match.
pub(crate) struct TableSession {
    pub loaded: Arc<TableLoaded>,
    /// The decisions typed since the deal, in notation.
    pub texts: Vec<String>,
    /// Seeds the deal (who starts, the shuffles, the aim's noise) and the agents.
    pub deal: u64,
    used: u64,
}

/// Every match kept, at most [`MAX_SESSIONS`].
#[derive(Default)]
pub(crate) struct TableSessions {
    map: HashMap<String, TableSession>,
    clock: u64,
}

impl TableSessions {
    /// Keeps a match under `id`, evicting the least recently used when full.
    pub fn put(&mut self, id: String, loaded: Arc<TableLoaded>, texts: Vec<String>, deal: u64) {
        self.clock += 1;
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
        let session = TableSession {
            loaded,
            texts,
            deal,
            used: self.clock,
        };
        self.map.insert(id, session);
    }

    /// The match of `id`, if it is a table game's: its game, decisions and deal.
    pub fn get(&mut self, id: &str) -> Option<(Arc<TableLoaded>, Vec<String>, u64)> {
        self.clock += 1;
        let clock = self.clock;
        let s = self.map.get_mut(id)?;
        s.used = clock;
        Some((Arc::clone(&s.loaded), s.texts.clone(), s.deal))
    }

    /// Forgets `id` (its tab opened a board game).
    pub fn remove(&mut self, id: &str) {
        self.map.remove(id);
    }

    /// Replaces the decisions of `id`, if it still holds `loaded` after `before` decisions.
    ///
    /// # Errors
    /// The match is gone or was changed meanwhile.
    pub fn set_texts(
        &mut self,
        id: &str,
        loaded: &Arc<TableLoaded>,
        before: usize,
        texts: Vec<String>,
    ) -> Result<(), ApiError> {
        let s = self
            .map
            .get_mut(id)
            .filter(|s| Arc::ptr_eq(&s.loaded, loaded) && s.texts.len() == before)
            .ok_or_else(|| {
                ApiError::new(
                    409,
                    "changed",
                    "the match changed while this request worked (another request of the same \
                     page came first)",
                )
            })?;
        s.texts = texts;
        Ok(())
    }
}

/// Whether `file` declares a table (so it is a table game).
pub(crate) fn is_table(file: &rulestone_syntax::ast::File) -> bool {
    file.items
        .iter()
        .any(|i| matches!(i.kind, rulestone_syntax::ast::ItemKind::Table(_)))
}

/// Loads a table game's text for the option values `sets`.
///
/// # Errors
/// The text's or options' errors, rendered as `rulestone check` renders them; a game that
/// declares no army.
pub(crate) fn load(
    id: Option<String>,
    name: &str,
    source: &str,
    file: &rulestone_syntax::ast::File,
    sets: &[(String, String)],
    options: Vec<Value>,
) -> Result<TableLoaded, ApiError> {
    let program = match rulestone_lower::build_parsed(file, sets) {
        Ok(rulestone_lower::Built::Table(_, program)) => program,
        Ok(rulestone_lower::Built::Board(_)) => {
            return Err(ApiError::new(
                500,
                "internal",
                "internal error: a table game built as a board game",
            ))
        }
        Err(e) => {
            let errors: Vec<_> = e
                .diags
                .into_iter()
                .filter(|d| rulestone_diag::severity(d.as_ref()) == rulestone_diag::Severity::Error)
                .collect();
            let code = errors
                .iter()
                .find_map(|d| rulestone_diag::code_of(d.as_ref()));
            let message = rulestone_diag::render(&errors, source, name, false);
            let kind = if e.bad_options {
                "bad-options"
            } else {
                "bad-game"
            };
            return Err(ApiError::new(400, kind, message).with_diag(code));
        }
    };
    if program.armies.is_empty() {
        return Err(ApiError::new(
            400,
            "no-army",
            format!("`{name}` declares no army, so there is nothing to play with here"),
        )
        .note("declare an army in the game file (`rulestone play --army` takes deck files)"));
    }
    let armies = [program.armies.clone(), program.armies.clone()];
    Ok(TableLoaded {
        id,
        program,
        armies,
        options,
    })
}

/// The match after the deal and `texts`; with `trace`, the last decision's shot traced, and
/// the stone it shot.
fn replay<'t>(
    loaded: &'t TableLoaded,
    texts: &[String],
    deal: u64,
    trace: bool,
) -> Result<(TableMatch<'t>, Option<usize>), ApiError> {
    if texts.len() > MAX_MOVES {
        return Err(ApiError::new(
            400,
            "too-many-moves",
            format!("a match here holds at most {MAX_MOVES} decisions"),
        ));
    }
    let mut m = TableMatch::new(&loaded.program, loaded.armies.clone(), deal);
    let mut shot = None;
    for (i, text) in texts.iter().enumerate() {
        if trace && i + 1 == texts.len() {
            m.trace_shots(TRACE_EVERY);
            if let Ok(Decision::Shot { stone, .. }) = m.parse(text) {
                shot = Some(stone);
            }
        }
        apply(&mut m, text).map_err(|e| e.prefixed(&format!("decision {} (`{text}`): ", i + 1)))?;
    }
    Ok((m, shot))
}

fn result_text(m: &TableMatch<'_>, r: GameResult) -> String {
    match r {
        GameResult::Win(p) => format!("{} wins", m.player(p)),
        GameResult::Draw => "draw".to_string(),
    }
}

fn apply(m: &mut TableMatch<'_>, text: &str) -> Result<(), ApiError> {
    if let Some(r) = m.outcome() {
        return Err(ApiError::new(
            400,
            "game-over",
            format!("the match is over: {}", result_text(m, r)),
        ));
    }
    let d = m.parse(text.trim()).map_err(|e| {
        ApiError::new(
            400,
            "illegal-move",
            format!("`{text}` is not a decision of this game"),
        )
        .note(e)
    })?;
    m.apply(&d).map_err(|e| {
        ApiError::new(400, "illegal-move", format!("`{text}` is not legal here")).note(e.0)
    })
}

/// The decisions after `text` is played.
///
/// # Errors
/// It is not a legal decision here.
pub(crate) fn play(
    loaded: &TableLoaded,
    mut texts: Vec<String>,
    deal: u64,
    text: &str,
) -> Result<Vec<String>, ApiError> {
    let (mut m, _) = replay(loaded, &texts, deal, false)?;
    apply(&mut m, text)?;
    texts.push(text.trim().to_string());
    Ok(texts)
}

/// The decisions after the agent's decision for the player to move.
///
/// # Errors
/// The match is over, or the agent found no decision.
pub(crate) fn agent_move(
    loaded: &TableLoaded,
    mut texts: Vec<String>,
    deal: u64,
    spec: &AgentSpec,
) -> Result<Vec<String>, ApiError> {
    let (mut m, _) = replay(loaded, &texts, deal, false)?;
    if let Some(r) = m.outcome() {
        return Err(ApiError::new(
            400,
            "game-over",
            format!("the match is over: {}", result_text(&m, r)),
        ));
    }
    let mut agent = spec.build::<TableMatch<'_>>(deal.wrapping_add(texts.len() as u64));
    let thought = agent
        .choose(&mut m)
        .ok_or_else(|| ApiError::new(400, "no-move", "the agent found no decision to take"))?;
    texts.push(m.decision_text(&thought.decision));
    Ok(texts)
}

/// What the page is sent of match `id`: as a board game's state (whose turn, the result, the
/// decisions, the open decisions that are not shots as moves without cells, the picture), and
/// `table`: the stones, the shots open and the last shot's positions.
pub(crate) fn state(
    id: &str,
    loaded: &TableLoaded,
    texts: &[String],
    deal: u64,
) -> Result<Value, ApiError> {
    let (m, shot) = replay(loaded, texts, deal, true)?;
    let result = m.outcome().map(|r| result_text(&m, r));
    let frames = thinned(&m);
    let path: Vec<(f64, f64)> = shot.map(|s| frames_of(&m, s)).unwrap_or_default();
    let svg = rulestone_draw::table::svg(&m, &path, PICTURE_WIDTH);
    let mut shots = Vec::new();
    let mut other = Vec::new();
    for c in m.choices() {
        match c {
            Choice::Shot {
                card,
                stone,
                max_speed,
            } if !m.program.referee => {
                let text = m.choice_text(&c);
                let head = text.split(' ').take(2).collect::<Vec<_>>().join(" ");
                shots.push(json!({
                    "head": head,
                    "card": card.map(|c| m.program.cards[c].name.clone()),
                    "stone": stone,
                    "name": m.stone_name(stone),
                    "max_speed": max_speed,
                }));
            }
            Choice::Result => {}
            _ => {
                let text = m.choice_text(&c);
                other.push(json!({"text": text, "cells": [], "parts": []}));
            }
        }
    }
    let stones: Vec<Value> = m
        .position
        .stones
        .iter()
        .enumerate()
        .map(|(i, s)| {
            json!({
                "name": m.stone_name(i),
                "owner": s.owner,
                "x": s.disc.x,
                "y": s.disc.y,
                "radius": s.disc.radius,
                "on_table": s.disc.on_table,
            })
        })
        .collect();
    let program = m.program;
    let mover = m.position.mover;
    Ok(json!({
        "session": id,
        "game": loaded.id,
        "title": program.name,
        "surface": "table",
        "options": loaded.options,
        "players": program.players,
        "to_move": mover,
        "to_move_name": m.player(mover),
        "result": result,
        "chance": false,
        "moves": texts.iter().map(|t| json!({"text": t, "chance": false})).collect::<Vec<_>>(),
        "legal_total": other.len(),
        "legal": other,
        "cells": [],
        "svg": svg,
        "status": m.status(),
        "log": m.position.log.iter().rev().take(12).rev().collect::<Vec<_>>(),
        "table": {
            "length": program.length,
            "width": program.width,
            "stones": stones,
            "shots": shots,
            "frames": frames,
        },
    }))
}

/// Stone `stone`'s centres along the last shot.
fn frames_of(m: &TableMatch<'_>, stone: usize) -> Vec<(f64, f64)> {
    m.shot_trace()
        .iter()
        .filter_map(|f| f.positions.get(stone).copied())
        .collect()
}

/// The last shot's frames, at most [`MAX_FRAMES`] (the last one always kept): each the
/// stones' positions, `[x, y]` in table units.
fn thinned(m: &TableMatch<'_>) -> Vec<Vec<[f64; 2]>> {
    let trace = m.shot_trace();
    if trace.is_empty() {
        return Vec::new();
    }
    let step = trace.len().div_ceil(MAX_FRAMES).max(1);
    let mut picked: Vec<usize> = (0..trace.len()).step_by(step).collect();
    if picked.last() != Some(&(trace.len() - 1)) {
        picked.push(trace.len() - 1);
    }
    picked
        .into_iter()
        .map(|i| trace[i].positions.iter().map(|&(x, y)| [x, y]).collect())
        .collect()
}
