//! The routes: the embedded page and the JSON API it calls. Every answer of the API is JSON,
//! every failure `{"error": {"code", "message", "notes"}}` with an HTTP status.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use axum::body::Bytes;
use axum::extract::rejection::BytesRejection;
use axum::extract::{DefaultBodyLimit, Query};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use rulestone_runtime::Compiled;

use crate::analysis::{Jobs, Settings, Subject};
use crate::catalog::Catalog;
use crate::play::{self, Session, Sessions};
use crate::table::{self, TableLoaded, TableSessions};
use crate::{MAX_BODY, MAX_BUSY, MAX_OVERDUE, MAX_TEXT};

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
const APP_CSS: &str = include_str!("../assets/app.css");

/// A refused or failed request.
#[derive(Debug)]
pub(crate) struct ApiError {
    status: u16,
    code: &'static str,
    message: String,
    pub notes: Vec<String>,
    /// The diagnostic code behind it (`E0303`), if any.
    diag: Option<String>,
}

impl ApiError {
    pub fn new(status: u16, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            notes: Vec::new(),
            diag: None,
        }
    }

    pub fn note(mut self, note: impl Into<String>) -> ApiError {
        self.notes.push(note.into());
        self
    }

    pub fn with_diag(mut self, code: Option<String>) -> ApiError {
        self.diag = code;
        self
    }

    pub fn prefixed(mut self, prefix: &str) -> ApiError {
        self.message = format!("{prefix}{}", self.message);
        self
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = StatusCode::from_u16(self.status).unwrap_or(StatusCode::BAD_REQUEST);
        let body = json!({"error": {
            "code": self.code,
            "message": self.message,
            "notes": self.notes,
            "diagnostic": self.diag,
        }});
        (status, Json(body)).into_response()
    }
}

type Answer = Result<Json<Value>, ApiError>;

/// What every request shares.
#[derive(Clone)]
pub(crate) struct State {
    catalog: Arc<Catalog>,
    sessions: Arc<Mutex<Sessions>>,
    tables: Arc<Mutex<TableSessions>>,
    busy: Arc<Semaphore>,
    /// The places of work past its deadline that has not stopped yet ([`MAX_OVERDUE`]).
    overdue: Arc<Semaphore>,
    /// The longest a request may work.
    work_time: Duration,
    compiled: Compiled,
    jobs: Arc<Jobs>,
}

/// A request's place among the working ones: its busy place, swapped for an overdue place when
/// its answer's deadline passes; given back when the work ends (the work holds it to the end).
type Place = Arc<Mutex<Option<OwnedSemaphorePermit>>>;

/// Raises a request's cancel flag when dropped: when the request was answered, or its client
/// went away and took the request's future with it. Work that already ended is not concerned.
struct CancelOnDrop(Arc<AtomicBool>);

impl Drop for CancelOnDrop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

impl State {
    pub fn new(catalog: Catalog, compiled: Compiled, work_time: Duration) -> State {
        State {
            catalog: Arc::new(catalog),
            compiled,
            sessions: Arc::default(),
            tables: Arc::default(),
            busy: Arc::new(Semaphore::new(MAX_BUSY)),
            overdue: Arc::new(Semaphore::new(MAX_OVERDUE)),
            work_time,
            jobs: Arc::default(),
        }
    }

    fn sessions(&self) -> MutexGuard<'_, Sessions> {
        // A panic while the lock was held left the map whole (every change is one call).
        self.sessions
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn tables(&self) -> MutexGuard<'_, TableSessions> {
        self.tables
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Runs `work` on a blocking thread, at most [`MAX_BUSY`] at once, answering within the
    /// work time (waiting for a place included); a panic in it is an error answer. Past the
    /// deadline the work is told to stop (see [`play::watching`]) and its busy place handed
    /// over to an overdue one while one is free, so that it cannot hold the server.
    async fn work<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> Result<T, ApiError> + Send + 'static,
    ) -> Result<T, ApiError> {
        let deadline = tokio::time::Instant::now() + self.work_time;
        let too_long = || {
            ApiError::new(
                503,
                "timeout",
                format!(
                    "the request did not finish within {} s",
                    self.work_time.as_secs_f64()
                ),
            )
        };
        let permit = tokio::time::timeout_at(deadline, Arc::clone(&self.busy).acquire_owned())
            .await
            .map_err(|_| too_long().note("the server is busy with other requests"))?
            .map_err(|_| ApiError::new(503, "closed", "the server is stopping"))?;
        let place: Place = Arc::new(Mutex::new(Some(permit)));
        let cancel = CancelOnDrop(Arc::new(AtomicBool::new(false)));
        let (held, flag) = (Arc::clone(&place), Arc::clone(&cancel.0));
        let mut task = tokio::task::spawn_blocking(move || {
            let _held = held;
            play::watching(flag, work)
        });
        match tokio::time::timeout_at(deadline, &mut task).await {
            Err(_) => {
                cancel.0.store(true, Ordering::Relaxed);
                let handed = match Arc::clone(&self.overdue).try_acquire_owned() {
                    Ok(late) => {
                        *place.lock().unwrap_or_else(std::sync::PoisonError::into_inner) =
                            Some(late);
                        "its work was told to stop"
                    }
                    Err(_) => "its work was told to stop; too much work is still stopping, so new requests may wait",
                };
                Err(too_long().note(handed))
            }
            Ok(Err(_)) => Err(ApiError::new(
                500,
                "internal",
                "internal error: the request failed (a bug of Rulestone; the server goes on)",
            )),
            Ok(Ok(result)) => result,
        }
    }
}

/// The router of the page and the API.
pub(crate) fn router(state: State) -> Router {
    Router::new()
        .route(
            "/",
            get(|| async { page(INDEX_HTML, "text/html; charset=utf-8") }),
        )
        .route(
            "/app.js",
            get(|| async { page(APP_JS, "text/javascript; charset=utf-8") }),
        )
        .route(
            "/app.css",
            get(|| async { page(APP_CSS, "text/css; charset=utf-8") }),
        )
        .route("/api/games", get(games))
        .route("/api/source", get(source))
        .route("/api/diagnose", post(diagnose))
        .route("/api/new", post(new_game))
        .route("/api/state", post(state_of))
        .route("/api/play", post(play_move))
        .route("/api/undo", post(undo))
        .route("/api/record", post(record))
        .route("/api/agent", post(agent))
        .route("/api/analyze", post(analyze))
        .route("/api/analysis", get(analysis_of))
        .route("/api/analysis/cancel", post(cancel_analysis))
        .fallback(|| async {
            ApiError::new(404, "not-found", "no such page or API route").into_response()
        })
        .method_not_allowed_fallback(|| async {
            ApiError::new(
                405,
                "bad-method",
                "this route is not called so: the API's reads are GET, its changes POST",
            )
            .into_response()
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        .with_state(state)
}

fn page(text: &'static str, kind: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, kind),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        text,
    )
        .into_response()
}

/// A request body read as JSON of type `T`.
fn body<T: DeserializeOwned>(bytes: Result<Bytes, BytesRejection>) -> Result<T, ApiError> {
    let bytes = bytes.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            ApiError::new(
                413,
                "too-large",
                format!("the request is larger than {} KiB", MAX_BODY >> 10),
            )
        } else {
            ApiError::new(400, "bad-body", format!("cannot read the request: {e}"))
        }
    })?;
    serde_json::from_slice(&bytes).map_err(|e| {
        ApiError::new(
            400,
            "bad-json",
            format!("the request is not what was expected: {e}"),
        )
    })
}

fn text_ok(source: &str) -> Result<(), ApiError> {
    if source.len() > MAX_TEXT {
        return Err(ApiError::new(
            413,
            "too-large",
            format!("the game text is larger than {} KiB", MAX_TEXT >> 10),
        ));
    }
    Ok(())
}

async fn games(axum::extract::State(state): axum::extract::State<State>) -> Answer {
    let catalog = Arc::clone(&state.catalog);
    let list = state.work(move || Ok(catalog.list())).await?;
    Ok(Json(json!({ "games": list })))
}

#[derive(Deserialize)]
struct SourceQuery {
    id: String,
}

async fn source(
    axum::extract::State(state): axum::extract::State<State>,
    query: Result<Query<SourceQuery>, axum::extract::rejection::QueryRejection>,
) -> Answer {
    let Query(q) = query.map_err(|e| ApiError::new(400, "bad-query", e.body_text()))?;
    let catalog = Arc::clone(&state.catalog);
    let id = q.id.clone();
    let text = state
        .work(move || {
            catalog
                .read(&id)
                .map_err(|m| ApiError::new(404, "no-game", m))
        })
        .await?;
    Ok(Json(json!({ "id": q.id, "source": text })))
}

#[derive(Deserialize)]
struct DiagnoseRequest {
    source: String,
}

/// The language server's diagnostics of a text, with 1-based lines and columns.
async fn diagnose(
    axum::extract::State(state): axum::extract::State<State>,
    bytes: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: DiagnoseRequest = body(bytes)?;
    text_ok(&req.source)?;
    let found = state
        .work(move || {
            let uri: lsp_types::Uri = "file:///edited.game"
                .parse()
                .map_err(|_| ApiError::new(500, "internal", "internal error: a bad URI"))?;
            rulestone_lsp::diagnostics::diagnose_until(&uri, &req.source, &mut play::cancelled)
                .ok_or_else(|| ApiError::new(503, "timeout", "the check was stopped"))
        })
        .await?;
    let list: Vec<Value> = found
        .iter()
        .map(|d| {
            let severity = match d.severity {
                Some(lsp_types::DiagnosticSeverity::WARNING) => "warning",
                Some(lsp_types::DiagnosticSeverity::ERROR) | None => "error",
                Some(_) => "note",
            };
            let code = match &d.code {
                Some(lsp_types::NumberOrString::String(s)) => Some(s.clone()),
                Some(lsp_types::NumberOrString::Number(n)) => Some(n.to_string()),
                None => None,
            };
            json!({
                "code": code,
                "severity": severity,
                "message": d.message,
                "line": d.range.start.line + 1,
                "column": d.range.start.character + 1,
                "end_line": d.range.end.line + 1,
                "end_column": d.range.end.character + 1,
            })
        })
        .collect();
    Ok(Json(json!({ "diagnostics": list })))
}

/// A game loaded: a board game, or a table game.
enum Opened {
    Board(Box<play::Loaded>),
    Table(Box<TableLoaded>),
}

/// The game a request names, by catalog id or by text, loaded for the option values `sets`.
fn load(
    catalog: &Catalog,
    game: Option<String>,
    source: Option<String>,
    sets: &[(String, String)],
    compiled: Compiled,
) -> Result<Opened, ApiError> {
    let (name, text, from) = match (game, source) {
        (_, Some(text)) => ("edited.game".to_string(), text, None),
        (Some(g), None) => {
            let text = catalog
                .read(&g)
                .map_err(|m| ApiError::new(404, "no-game", m))?;
            (
                g.rsplit('/').next().unwrap_or(&g).to_string(),
                text,
                Some(g),
            )
        }
        (None, None) => {
            return Err(ApiError::new(
                400,
                "bad-json",
                "the request names no game: give `game` (an id) or `source` (a text)",
            ))
        }
    };
    // A board game first (the common case, parsed once); a text the board pipeline refuses is
    // looked at again as a table game.
    let board = play::load(from.clone(), &name, text.clone(), sets, compiled);
    match board {
        Ok(b) => Ok(Opened::Board(Box::new(b))),
        Err(e) => match rulestone_syntax::parse(&text) {
            Ok(file) if table::is_table(&file) => {
                let options = play::declared_options(&text, sets);
                table::load(from, &name, &text, &file, sets, options)
                    .map(|t| Opened::Table(Box::new(t)))
            }
            _ => Err(e),
        },
    }
}

/// The option values of a request, as text.
fn option_sets(options: &serde_json::Map<String, Value>) -> Vec<(String, String)> {
    options
        .iter()
        .map(|(k, v)| {
            let value = match v {
                Value::String(s) => s.clone(),
                other => other.to_string(),
            };
            (k.clone(), value)
        })
        .collect()
}

#[derive(Deserialize)]
struct NewRequest {
    /// The session to replace (the tab's), or none for a new one.
    session: Option<String>,
    /// A catalog id, or
    game: Option<String>,
    /// a game's text.
    source: Option<String>,
    #[serde(default)]
    options: serde_json::Map<String, Value>,
    #[serde(default)]
    moves: Vec<String>,
    /// A saved game's record (its text), instead of `game`, `options` and `moves`.
    record: Option<String>,
}

/// The game, option values and moves a saved record names: its game by catalog id, or else a
/// bundled game of the same file name. A record's dice rolls are moves of it; a table game's
/// record gives its deal.
struct Recorded {
    game: String,
    sets: Vec<(String, String)>,
    moves: Vec<String>,
    deal: Option<u64>,
}

fn recorded(catalog: &Catalog, text: &str) -> Result<Recorded, ApiError> {
    text_ok(text)?;
    let record = rulestone_session::Record::parse(text).map_err(|e| {
        ApiError::new(
            400,
            "bad-record",
            format!("this is not a record the page can read: {e}"),
        )
    })?;
    let named = record.game.to_string_lossy().replace('\\', "/");
    let file = named.rsplit('/').next().unwrap_or(&named).to_string();
    let game = [named.clone(), format!("bundled/{file}"), file]
        .into_iter()
        .find(|id| catalog.read(id).is_ok())
        .ok_or_else(|| {
            ApiError::new(404, "no-game", format!("the record's game `{named}` is neither a bundled game nor a file of this directory"))
                .note("start `rulestone serve` in the directory that holds the game file")
        })?;
    Ok(Recorded {
        game,
        sets: record.options,
        moves: record.moves.into_iter().map(|(_, m)| m).collect(),
        deal: record.deal,
    })
}

async fn new_game(
    axum::extract::State(state): axum::extract::State<State>,
    bytes: Result<Bytes, BytesRejection>,
) -> Answer {
    let mut req: NewRequest = body(bytes)?;
    let mut sets = option_sets(&req.options);
    let catalog = Arc::clone(&state.catalog);
    let mut seed = rand::random::<u64>();
    let from_record = match req.record.take() {
        Some(text) => {
            let r = recorded(&catalog, &text)?;
            (req.game, req.source, req.moves, sets) = (Some(r.game), None, r.moves, r.sets);
            seed = r.deal.unwrap_or(seed);
            true
        }
        None => false,
    };
    let compiled = state.compiled;
    let id = req
        .session
        .filter(|s| !s.is_empty() && s.len() <= 64 && s.chars().all(|c| c.is_ascii_alphanumeric()))
        .unwrap_or_else(|| format!("{:016x}", rand::random::<u64>()));
    let (game, source) = (req.game, req.source);
    if let Some(text) = &source {
        text_ok(text)?;
    }
    let moves = req.moves;
    let session = id.clone();
    let (opened, answer) = state
        .work(
            move || match load(&catalog, game, source, &sets, compiled)? {
                Opened::Board(loaded) => {
                    let loaded = Arc::new(*loaded);
                    let played = if from_record {
                        play::start_recorded(&loaded, &moves, seed)?
                    } else {
                        play::start(&loaded, &moves, seed)?
                    };
                    let answer = play::state(&session, &loaded, &played);
                    Ok((Ok((loaded, played)), answer))
                }
                Opened::Table(loaded) => {
                    let answer = table::state(&session, &loaded, &moves, seed)?;
                    Ok((Err((Arc::new(*loaded), moves)), answer))
                }
            },
        )
        .await?;
    match opened {
        Ok((loaded, played)) => {
            state.tables().remove(&id);
            state.sessions().put(id, Session::new(loaded, played, seed));
        }
        Err((loaded, texts)) => state.tables().put(id, loaded, texts, seed),
    }
    Ok(Json(answer))
}

#[derive(Deserialize)]
struct SessionRequest {
    session: String,
    #[serde(rename = "move")]
    text: Option<String>,
    agent: Option<String>,
    strength: Option<u8>,
}

/// A change of a table game's match: its decisions after it.
type TableChange = Box<
    dyn FnOnce(&TableLoaded, Vec<String>, u64, &SessionRequest) -> Result<Vec<String>, ApiError>
        + Send,
>;

/// Runs `change` (`table`, for a table game's match) on the session's moves and keeps what it
/// returns; answers the new state.
async fn change(
    state: &State,
    req: SessionRequest,
    change: impl FnOnce(&play::Loaded, play::Played, u64, &SessionRequest) -> Result<play::Played, ApiError>
        + Send
        + 'static,
    table: TableChange,
) -> Answer {
    let in_table = state.tables().get(&req.session);
    if let Some((loaded, texts, deal)) = in_table {
        let before = texts.len();
        let kept = Arc::clone(&loaded);
        let (texts, answer) = state
            .work(move || {
                let texts = table(&loaded, texts, deal, &req)?;
                let answer = table::state(&req.session, &loaded, &texts, deal)?;
                Ok((texts, answer))
            })
            .await?;
        let id = answer["session"].as_str().unwrap_or_default().to_string();
        state.tables().set_texts(&id, &kept, before, texts)?;
        return Ok(Json(answer));
    }
    let (loaded, played, seed) = state.sessions().get(&req.session)?;
    let before = played.len();
    let kept = Arc::clone(&loaded);
    let (played, answer) = state
        .work(move || {
            let played = change(&loaded, played, seed, &req)?;
            let answer = play::state(&req.session, &loaded, &played);
            Ok((played, answer))
        })
        .await?;
    let id = answer["session"].as_str().unwrap_or_default().to_string();
    state.sessions().set_moves(&id, &kept, before, played)?;
    Ok(Json(answer))
}

async fn state_of(
    axum::extract::State(state): axum::extract::State<State>,
    bytes: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: SessionRequest = body(bytes)?;
    change(
        &state,
        req,
        |_, played, _, _| Ok(played),
        Box::new(|_, texts, _, _| Ok(texts)),
    )
    .await
}

async fn play_move(
    axum::extract::State(state): axum::extract::State<State>,
    bytes: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: SessionRequest = body(bytes)?;
    let named = |req: &SessionRequest| {
        req.text
            .clone()
            .ok_or_else(|| ApiError::new(400, "bad-json", "the request names no `move`"))
    };
    change(
        &state,
        req,
        move |loaded, played, seed, req| play::play(loaded, played, &named(req)?, seed),
        Box::new(move |loaded, texts, deal, req| table::play(loaded, texts, deal, &named(req)?)),
    )
    .await
}

async fn undo(
    axum::extract::State(state): axum::extract::State<State>,
    bytes: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: SessionRequest = body(bytes)?;
    change(
        &state,
        req,
        |_, played, _, _| Ok(play::undo(played)),
        Box::new(|_, mut texts, _, _| {
            texts.pop();
            Ok(texts)
        }),
    )
    .await
}

/// `record`: the session's game as a record's text, to save.
async fn record(
    axum::extract::State(state): axum::extract::State<State>,
    bytes: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: SessionRequest = body(bytes)?;
    if state.tables().get(&req.session).is_some() {
        return Err(ApiError::new(
            400,
            "table-record",
            "a table game's record is saved by `rulestone play --record`, not by the page yet",
        ));
    }
    let (loaded, played, _) = state.sessions().get(&req.session)?;
    let text = state.work(move || play::record(&loaded, &played)).await?;
    Ok(Json(json!({ "record": text })))
}

async fn agent(
    axum::extract::State(state): axum::extract::State<State>,
    bytes: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: SessionRequest = body(bytes)?;
    let spec = play::agent_spec(
        req.agent.as_deref().unwrap_or("mcts"),
        req.strength.unwrap_or(2),
    )?;
    let for_table = spec.clone();
    change(
        &state,
        req,
        move |loaded, played, seed, _| play::agent_move(loaded, played, &spec, seed),
        Box::new(move |loaded, texts, deal, _| table::agent_move(loaded, texts, deal, &for_table)),
    )
    .await
}

#[derive(Deserialize)]
struct AnalyzeRequest {
    game: Option<String>,
    source: Option<String>,
    #[serde(default)]
    options: serde_json::Map<String, Value>,
    /// Games per kind of play.
    #[serde(default = "default_games")]
    games: u32,
    /// MCTS iterations per decision of the agent measured.
    #[serde(default = "default_iterations")]
    iterations: u32,
}

fn default_games() -> u32 {
    10
}

fn default_iterations() -> u32 {
    50
}

/// Loads the game (under every request's limits) and starts analysing it; the job's id.
async fn analyze(
    axum::extract::State(state): axum::extract::State<State>,
    bytes: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: AnalyzeRequest = body(bytes)?;
    if let Some(text) = &req.source {
        text_ok(text)?;
    }
    let sets = option_sets(&req.options);
    let settings = Settings {
        games: req.games,
        iterations: req.iterations,
        sets: sets.clone(),
    }
    .checked()?;
    let catalog = Arc::clone(&state.catalog);
    let compiled = state.compiled;
    let (game, source) = (req.game, req.source);
    let subject = state
        .work(
            move || match load(&catalog, game, source, &sets, compiled)? {
                Opened::Board(loaded) => {
                    // The start is played as a game starts, so that a game that cannot be played
                    // answers with its error now.
                    play::start(&loaded, &[], 0)?;
                    Ok(Subject::Board(Arc::from(loaded)))
                }
                Opened::Table(loaded) => Ok(Subject::Table(Arc::from(loaded))),
            },
        )
        .await?;
    let job = state.jobs.start(subject, settings)?;
    Ok(Json(state.jobs.answer(&job)?))
}

#[derive(Deserialize)]
struct JobQuery {
    job: String,
}

/// An analysis's progress, and its report (HTML) once done.
async fn analysis_of(
    axum::extract::State(state): axum::extract::State<State>,
    query: Result<Query<JobQuery>, axum::extract::rejection::QueryRejection>,
) -> Answer {
    let Query(q) = query.map_err(|e| ApiError::new(400, "bad-query", e.body_text()))?;
    Ok(Json(state.jobs.answer(&q.job)?))
}

async fn cancel_analysis(
    axum::extract::State(state): axum::extract::State<State>,
    bytes: Result<Bytes, BytesRejection>,
) -> Answer {
    let req: JobQuery = body(bytes)?;
    Ok(Json(state.jobs.cancel(&req.job)?))
}
