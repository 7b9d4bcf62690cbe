//! The analysis tab: `rulestone analyze` of one game and its option values, run as a job the
//! page polls for its progress, answered with the HTML report of `rulestone analyze --html`
//! (its tables and plots). The games are played by `rulestone-agents`' analysis and rendered
//! by `rulestone-report`, exactly as the command line does; only the limits are the server's.
//!
//! Invariants: at most [`MAX_ANALYSES`] jobs run at once, each on a thread of its own (never
//! on the request threads), each stopped by [`ANALYSIS_TIME`] (no decision is started after
//! it), by a cancel, or when its page has not asked for it for [`ABANDONED`] (these two between
//! games: the analysis is played game number by game number); at most [`MAX_JOBS`] jobs are
//! kept, the oldest forgotten (and stopped) first. The game is loaded and checked by the request that starts
//! the job, under the limits of every request, so a text that does not load answers with its
//! error at once.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use rulestone_agents::analysis::{self, AnalysisConfig, Play, PlayedGames};
use rulestone_agents::AgentSpec;
use rulestone_report::{Axis, Grid, Report, VariantReport};
use rulestone_runtime::table::TableMatch;
use rulestone_runtime::{BoardGame, Game};
use serde_json::{json, Value};

use crate::api::ApiError;
use crate::play::Loaded;
use crate::table::TableLoaded;

/// The most analyses running at once; another is refused until one ends.
pub const MAX_ANALYSES: usize = 2;
/// The most jobs kept, running or finished.
pub const MAX_JOBS: usize = 32;
/// The longest an analysis plays; the report is of the games finished by then.
pub const ANALYSIS_TIME: Duration = Duration::from_secs(60);
/// A job whose page has not asked for it this long is stopped (the page was closed).
pub const ABANDONED: Duration = Duration::from_secs(15);
/// The most games per kind of play an analysis asks for.
pub const MAX_GAMES: u32 = 100;
/// The MCTS iterations per decision the page may ask for, at most.
pub const MAX_ITERATIONS: u32 = 500;
/// A game is stopped after this many decisions and counted apart.
const MAX_STEPS: u32 = 500;

/// What a job has come to.
#[derive(Clone)]
enum Outcome {
    Running,
    Done(Value),
    Failed(String),
    Cancelled,
}

/// One analysis: its progress, what stops it, and its outcome.
pub(crate) struct Job {
    done: AtomicU64,
    total: u64,
    cancel: AtomicBool,
    /// When the page last asked for it.
    asked: Mutex<Instant>,
    outcome: Mutex<Outcome>,
    /// When it was started, for eviction.
    started: Instant,
}

impl Job {
    fn stopped(&self) -> bool {
        self.cancel.load(Ordering::Relaxed)
            || self
                .asked
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .elapsed()
                > ABANDONED
    }

    fn finish(&self, outcome: Outcome) {
        *self.outcome.lock().unwrap_or_else(PoisonError::into_inner) = outcome;
    }

    /// The job as the page is sent it: its progress, and its report once done.
    fn answer(&self, id: &str) -> Value {
        *self.asked.lock().unwrap_or_else(PoisonError::into_inner) = Instant::now();
        let outcome = self
            .outcome
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .clone();
        let (state, html, error) = match outcome {
            Outcome::Running => ("running", Value::Null, Value::Null),
            Outcome::Done(html) => ("done", html, Value::Null),
            Outcome::Failed(e) => ("failed", Value::Null, Value::String(e)),
            Outcome::Cancelled => ("cancelled", Value::Null, Value::Null),
        };
        json!({
            "job": id,
            "state": state,
            "done": self.done.load(Ordering::Relaxed).min(self.total),
            "total": self.total,
            "html": html,
            "error": error,
        })
    }
}

/// Every job kept, and the slots of the running ones.
pub(crate) struct Jobs {
    map: Mutex<HashMap<String, Arc<Job>>>,
    running: Arc<tokio::sync::Semaphore>,
}

impl Default for Jobs {
    fn default() -> Self {
        Jobs {
            map: Mutex::default(),
            running: Arc::new(tokio::sync::Semaphore::new(MAX_ANALYSES)),
        }
    }
}

/// What the page asks to analyse, beyond the game.
pub(crate) struct Settings {
    /// Games per kind of play.
    pub games: u32,
    /// MCTS iterations per decision of the agent measured.
    pub iterations: u32,
    /// The option values, for the report's heading.
    pub sets: Vec<(String, String)>,
}

impl Settings {
    /// # Errors
    /// A count out of range.
    pub fn checked(self) -> Result<Settings, ApiError> {
        if !(1..=MAX_GAMES).contains(&self.games) {
            return Err(ApiError::new(
                400,
                "bad-games",
                format!("{} games asked: 1 to {MAX_GAMES} are played", self.games),
            ));
        }
        if !(1..=MAX_ITERATIONS).contains(&self.iterations) {
            return Err(ApiError::new(
                400,
                "bad-iterations",
                format!(
                    "{} iterations asked: the agent thinks 1 to {MAX_ITERATIONS} iterations",
                    self.iterations
                ),
            ));
        }
        Ok(self)
    }
}

impl Jobs {
    /// Starts analysing `loaded` on a thread of its own; the job's id.
    ///
    /// # Errors
    /// [`MAX_ANALYSES`] are running already, or the thread could not be started.
    pub fn start(&self, subject: Subject, settings: Settings) -> Result<String, ApiError> {
        let permit = Arc::clone(&self.running).try_acquire_owned().map_err(|_| {
            ApiError::new(
                503,
                "busy",
                format!("{MAX_ANALYSES} analyses are running already"),
            )
            .note("try again when one of them has finished")
        })?;
        let id = format!("{:016x}", rand::random::<u64>());
        let job = Arc::new(Job {
            done: AtomicU64::new(0),
            total: u64::from(settings.games) * Play::ALL.len() as u64,
            cancel: AtomicBool::new(false),
            asked: Mutex::new(Instant::now()),
            outcome: Mutex::new(Outcome::Running),
            started: Instant::now(),
        });
        let running = Arc::clone(&job);
        std::thread::Builder::new()
            .name("rulestone-analysis".to_string())
            .spawn(move || {
                let _permit = permit;
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    run(&subject, &settings, &running)
                }))
                .unwrap_or_else(|_| {
                    Outcome::Failed(
                        "internal error: the analysis failed (a bug of Rulestone; the server \
                         goes on)"
                            .to_string(),
                    )
                });
                running.finish(outcome);
            })
            .map_err(|e| ApiError::new(500, "internal", format!("cannot start a thread: {e}")))?;
        let mut map = self.map.lock().unwrap_or_else(PoisonError::into_inner);
        if map.len() >= MAX_JOBS {
            let oldest = map
                .iter()
                .min_by_key(|(_, j)| j.started)
                .map(|(k, _)| k.clone());
            if let Some(old) = oldest.and_then(|k| map.remove(&k)) {
                old.cancel.store(true, Ordering::Relaxed);
            }
        }
        map.insert(id.clone(), job);
        Ok(id)
    }

    /// The job's progress and outcome.
    ///
    /// # Errors
    /// No job has this id (any more).
    pub fn answer(&self, id: &str) -> Result<Value, ApiError> {
        Ok(self.get(id)?.answer(id))
    }

    /// Stops the job (it answers `cancelled` once its current game is over).
    ///
    /// # Errors
    /// No job has this id (any more).
    pub fn cancel(&self, id: &str) -> Result<Value, ApiError> {
        let job = self.get(id)?;
        job.cancel.store(true, Ordering::Relaxed);
        Ok(job.answer(id))
    }

    fn get(&self, id: &str) -> Result<Arc<Job>, ApiError> {
        self.map
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .get(id)
            .cloned()
            .ok_or_else(|| {
                ApiError::new(404, "no-job", "no analysis has this id (any more)")
                    .note("start the analysis again")
            })
    }
}

/// What is analysed: a board game or a table game, loaded for the options chosen.
pub(crate) enum Subject {
    Board(Arc<Loaded>),
    Table(Arc<TableLoaded>),
}

/// What the report's heading says of the game.
struct Heading {
    game: String,
    file: Option<String>,
    players: [String; 2],
}

/// Plays the analysis of either kind of game and renders its report.
fn run(subject: &Subject, settings: &Settings, job: &Job) -> Outcome {
    match subject {
        Subject::Board(loaded) => {
            let make = |_: usize, _: u64| BoardGame::new(loaded.game.engine());
            let game = make(0, 0);
            let heading = Heading {
                game: loaded.game.program.name.clone(),
                file: loaded.id.clone(),
                players: [game.player_name(0), game.player_name(1)],
            };
            measure(&make, &heading, settings, job)
        }
        Subject::Table(loaded) => {
            let make =
                |_: usize, deal: u64| TableMatch::new(&loaded.program, loaded.armies.clone(), deal);
            let game = make(0, 0);
            let heading = Heading {
                game: loaded.program.name.clone(),
                file: loaded.id.clone(),
                players: [game.player_name(0), game.player_name(1)],
            };
            measure(&make, &heading, settings, job)
        }
    }
}

/// Plays the analysis game number by game number (so that a cancel stops it between two),
/// then renders the report.
fn measure<G, F>(make: &F, heading: &Heading, settings: &Settings, job: &Job) -> Outcome
where
    G: Game,
    F: Fn(usize, u64) -> G + Sync,
{
    let agent = AgentSpec::parse(&format!("mcts:iterations={}", settings.iterations));
    let Ok(agent) = agent else {
        return Outcome::Failed("internal error: a bad agent".to_string());
    };
    let config = AnalysisConfig {
        stronger: analysis::stronger(&agent),
        agent,
        games: settings.games,
        seed: 0,
        max_steps: MAX_STEPS,
        threads: 1,
        deadline: Some(Instant::now() + ANALYSIS_TIME),
    };
    let tick = |_: usize| {
        job.done.fetch_add(1, Ordering::Relaxed);
    };
    let mut played = PlayedGames::default();
    for g in 0..settings.games {
        if job.stopped() {
            return Outcome::Cancelled;
        }
        if config.deadline.is_some_and(|d| Instant::now() >= d) {
            break;
        }
        match analysis::play(&config, g..g + 1, 1, make, &tick) {
            Ok(shares) => {
                for share in shares {
                    if let Err(e) = played.merge(share) {
                        return Outcome::Failed(e);
                    }
                }
            }
            Err(e) => return Outcome::Failed(e),
        }
    }
    let mut stats = played.stats();
    let held: u64 = played.numbers().iter().map(|n| n.len() as u64).sum();
    let unplayed = job.total.saturating_sub(held);
    stats.unplayed = u32::try_from(unplayed).unwrap_or(u32::MAX);
    let report = report(heading, settings, &config, stats, unplayed);
    match rulestone_report::html::page(&report) {
        Ok(html) => Outcome::Done(Value::String(html)),
        Err(e) => Outcome::Failed(format!("cannot draw the report's plots: {e}")),
    }
}

fn report(
    heading: &Heading,
    settings: &Settings,
    config: &AnalysisConfig,
    stats: analysis::VariantStats,
    unplayed: u64,
) -> Report {
    let axes: Vec<Axis> = settings
        .sets
        .iter()
        .map(|(option, value)| Axis {
            option: option.clone(),
            values: vec![value.clone()],
        })
        .collect();
    let grid = Grid { axes };
    let stopped = unplayed > 0;
    Report {
        game: heading.game.clone(),
        file: heading
            .file
            .clone()
            .unwrap_or_else(|| "the edited text".to_string()),
        players: heading.players.clone(),
        agent: config.agent.to_string(),
        stronger: config.stronger.to_string(),
        games: config.games,
        seed: config.seed,
        max_steps: config.max_steps,
        variants: vec![VariantReport {
            label: grid.label(0),
            options: settings.sets.iter().cloned().collect(),
            stats,
        }],
        grid: grid.axes,
        stopped_by: stopped
            .then(|| json!({"bound": "time_limit", "value": ANALYSIS_TIME.as_secs_f64()})),
        unplayed: stopped.then_some(unplayed),
        stopped_flag: stopped.then(|| {
            format!(
                "the playground's time limit of {} s",
                ANALYSIS_TIME.as_secs()
            )
        }),
    }
}
