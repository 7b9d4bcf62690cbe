//! Variant analysis and round robins in shares, for campaigns that play them on many workers
//! (`rulestone.campaign`, on Ray): `analysis_share` plays a range of one variant's games and
//! answers them as JSON text; `analysis_report` merges every variant's shares and renders the
//! report `rulestone analyze` writes (its table, JSON or HTML page); `arena_share` and
//! `arena_report` do the same for `rulestone arena`. They call the command line's own code
//! (`rulestone-agents`' analysis and contests, `rulestone-report`), so the same seeds give the
//! same report wherever the games were played.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use rulestone_agents::analysis::{self, AnalysisConfig, PlayedGames};
use rulestone_agents::contest::{self, ArenaConfig, ArenaGames};
use rulestone_agents::AgentSpec;
use rulestone_report::arena::ArenaReport;
use rulestone_report::{Axis, Grid, Report, VariantReport};
use rulestone_runtime::BoardGame;
use rulestone_session::Game;
use serde::Deserialize;

use crate::errors::game_error;
use crate::game::MAX_PLIES;

/// The most games per variant and kind of play, as `rulestone analyze --games`.
const MAX_GAMES: u32 = 10_000;
/// The most variants of one report, as `rulestone analyze`.
const MAX_VARIANTS: usize = 64;
/// The most worker threads of one share, as `rulestone analyze --threads`.
const MAX_THREADS: usize = 256;

/// An agent spec as `rulestone analyze --agent` reads it.
fn spec(what: &str, text: &str) -> PyResult<AgentSpec> {
    AgentSpec::parse(text).map_err(|e| {
        game_error(
            &format!("bad {what} `{text}`: {}\n  help: {}", e.message, e.help),
            Some("bad-agent"),
        )
    })
}

/// The agent and the stronger agent, the latter by default as `analyze` chooses it.
fn agents(agent: &str, stronger: Option<&str>) -> PyResult<(AgentSpec, AgentSpec)> {
    let agent = spec("agent", agent)?;
    let stronger = match stronger {
        Some(text) => spec("stronger agent", text)?,
        None => analysis::stronger(&agent),
    };
    Ok((agent, stronger))
}

/// Games and step limit within `analyze`'s bounds.
fn check_counts(games: u32, max_steps: u32) -> PyResult<()> {
    if !(1..=MAX_GAMES).contains(&games) {
        return Err(game_error(
            &format!("games must be 1 to {MAX_GAMES}, not {games}"),
            Some("bad-count"),
        ));
    }
    if !(1..=MAX_PLIES).contains(&max_steps) {
        return Err(game_error(
            &format!("max_steps must be 1 to {MAX_PLIES}, not {max_steps}"),
            Some("bad-count"),
        ));
    }
    Ok(())
}

/// The agent and the stronger agent as `analyze` writes them in its report: `(agent,
/// stronger)`. Raises `GameError` for a spec that does not read.
#[pyfunction]
#[pyo3(signature = (agent, stronger = None))]
fn analysis_agents(agent: &str, stronger: Option<&str>) -> PyResult<(String, String)> {
    let (agent, stronger) = agents(agent, stronger)?;
    Ok((agent.to_string(), stronger.to_string()))
}

/// Plays games `first .. first + count` (of `games`, numbered from 0) of every kind of play of
/// one variant's analysis, seeded as `rulestone analyze --seed SEED` seeds them, with the GIL
/// released; answers them, unmeasured, as JSON text for `analysis_report`.
#[pyfunction]
#[pyo3(signature = (path_or_text, options, agent, stronger, games, seed, first, count,
                    max_steps = 1000, threads = 1))]
#[allow(clippy::too_many_arguments)] // One keyword argument per `analyze` flag.
fn analysis_share(
    py: Python<'_>,
    path_or_text: &str,
    options: Option<&Bound<'_, PyDict>>,
    agent: &str,
    stronger: Option<&str>,
    games: u32,
    seed: u64,
    first: u32,
    count: u32,
    max_steps: u32,
    threads: usize,
) -> PyResult<String> {
    check_counts(games, max_steps)?;
    let end = first
        .checked_add(count)
        .filter(|e| count > 0 && *e <= games);
    let Some(end) = end else {
        return Err(game_error(
            &format!(
                "the share of games {first} to {first}+{count} is not a nonempty range within \
                 the {games} games"
            ),
            Some("bad-range"),
        ));
    };
    if threads > MAX_THREADS {
        return Err(game_error(
            &format!("threads must be 0 (one per core) to {MAX_THREADS}, not {threads}"),
            Some("bad-count"),
        ));
    }
    let (agent, stronger) = agents(agent, stronger)?;
    let (game, _) = crate::load_game(py, path_or_text, options)?;
    let config = AnalysisConfig {
        agent,
        stronger,
        games,
        seed,
        max_steps,
        threads,
        deadline: None,
    };
    let played = py.detach(|| {
        let make = |_: usize, _: u64| BoardGame::new(game.engine());
        analysis::play(&config, first..end, 1, &make, &|_| {})
    });
    let played = played.map_err(|e| game_error(&e, Some("threads")))?;
    let share = played.first().cloned().unwrap_or_default();
    serde_json::to_string(&share).map_err(|e| game_error(&e.to_string(), Some("bad-share")))
}

/// What `analysis_report` is told about the analysis, as JSON.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Header {
    /// The game file as the report shows it.
    file: String,
    agent: String,
    stronger: Option<String>,
    games: u32,
    seed: u64,
    max_steps: u32,
    /// The options given several values, in order: `[[name, [values...]], ...]`.
    grid: Vec<(String, Vec<String>)>,
}

/// One variant's shares merged, checked to hold each of its games exactly once.
fn merged(label: &str, games: u32, shares: &[String]) -> PyResult<PlayedGames> {
    let bad = |why: String| game_error(&format!("variant {label}: {why}"), Some("bad-share"));
    let mut all = PlayedGames::default();
    for text in shares {
        let share: PlayedGames =
            serde_json::from_str(text).map_err(|e| bad(format!("a share does not read: {e}")))?;
        all.merge(share).map_err(bad)?;
    }
    let every: Vec<u32> = (0..games).collect();
    for (numbers, play) in all.numbers().iter().zip(["random", "self-play", "skill"]) {
        if *numbers != every {
            return Err(bad(format!(
                "the shares hold {} of the {games} {play} games",
                numbers.len()
            )));
        }
    }
    Ok(all)
}

/// The report of an analysis whose games were played in shares: `header` (JSON: `file`,
/// `agent`, `stronger`, `games`, `seed`, `max_steps`, `grid`), `shares[v]` the shares of
/// variant `v` of the grid (every combination of the grid's values, the last option varying
/// fastest), rendered as `format`: `text` (the table), `json` or `html`, as `rulestone
/// analyze` renders it. Raises `GameError` when the shares do not hold every game once.
#[pyfunction]
#[pyo3(signature = (path_or_text, header, shares, format = "json"))]
fn analysis_report(
    py: Python<'_>,
    path_or_text: &str,
    header: &str,
    shares: Vec<Vec<String>>,
    format: &str,
) -> PyResult<String> {
    let header: Header = serde_json::from_str(header)
        .map_err(|e| game_error(&format!("bad report header: {e}"), Some("bad-share")))?;
    check_counts(header.games, header.max_steps)?;
    let (agent, stronger) = agents(&header.agent, header.stronger.as_deref())?;
    let grid = Grid {
        axes: header
            .grid
            .into_iter()
            .map(|(option, values)| Axis { option, values })
            .collect(),
    };
    let sets = grid.variants();
    if sets.len() > MAX_VARIANTS || sets.len() != shares.len() {
        return Err(game_error(
            &format!(
                "the grid makes {} variants (at most {MAX_VARIANTS}), and shares are given for {}",
                sets.len(),
                shares.len()
            ),
            Some("bad-share"),
        ));
    }
    let mut variants = Vec::new();
    let mut first: Option<Game> = None;
    for (v, (set, parts)) in sets.iter().zip(&shares).enumerate() {
        let (game, _) = crate::load_sets(py, path_or_text, set.clone())?;
        let label = grid.label(v);
        let stats = merged(&label, header.games, parts)?.stats();
        variants.push(VariantReport {
            label,
            options: game.program.options.iter().cloned().collect(),
            stats,
        });
        first.get_or_insert(game);
    }
    let Some(game) = first else {
        return Err(game_error("no variant to report", Some("bad-share")));
    };
    let report = Report {
        game: game.program.name.clone(),
        file: rulestone_session::notation::shown(std::path::Path::new(&header.file)),
        players: [game.program.player_name(0), game.program.player_name(1)],
        agent: agent.to_string(),
        stronger: stronger.to_string(),
        games: header.games,
        seed: header.seed,
        max_steps: header.max_steps,
        grid: grid.axes,
        variants,
        stopped_by: None,
        unplayed: None,
        stopped_flag: None,
    };
    let rendered = match format {
        "text" => Ok(rulestone_report::table(&report)),
        "json" => rulestone_report::json(&report),
        "html" => py.detach(|| rulestone_report::html::page(&report)),
        other => {
            return Err(game_error(
                &format!("format must be `text`, `json` or `html`, not `{other}`"),
                Some("bad-format"),
            ))
        }
    };
    rendered.map_err(|e| game_error(&e, Some("render")))
}

/// The most agents of one round robin, as `rulestone arena --agents`.
const MAX_AGENTS: usize = 32;

/// A round robin's settings, as `rulestone arena` checks them.
fn arena_config(agents: &str, games: u32, seed: u64, max_steps: u32) -> PyResult<ArenaConfig> {
    let specs = AgentSpec::parse_list(agents).map_err(|e| {
        game_error(
            &format!("bad agents `{agents}`: {}\n  help: {}", e.message, e.help),
            Some("bad-agent"),
        )
    })?;
    if !(2..=MAX_AGENTS).contains(&specs.len()) {
        return Err(game_error(
            &format!(
                "a round robin has 2 to {MAX_AGENTS} agents, not {}",
                specs.len()
            ),
            Some("bad-agent"),
        ));
    }
    if !(1..=MAX_GAMES).contains(&games) || max_steps > MAX_PLIES {
        return Err(game_error(
            &format!(
                "games must be 1 to {MAX_GAMES} and max_steps 0 to {MAX_PLIES}, not {games} and \
                 {max_steps}"
            ),
            Some("bad-count"),
        ));
    }
    Ok(ArenaConfig {
        specs,
        games,
        seed,
        max_steps,
        threads: 1,
        deadline: None,
    })
}

/// Plays games `first .. first + count` (of `games` per pair, numbered from 0) of every pair of
/// a round robin of `agents` (comma-separated specs, as `rulestone arena --agents` reads them),
/// seeded as `rulestone arena --seed SEED` seeds them, with the GIL released; answers their
/// tallies as JSON text for `arena_report`.
#[pyfunction]
#[pyo3(signature = (path_or_text, options, agents, games, seed, first, count, max_steps = 1000))]
#[allow(clippy::too_many_arguments)] // One keyword argument per `arena` flag.
fn arena_share(
    py: Python<'_>,
    path_or_text: &str,
    options: Option<&Bound<'_, PyDict>>,
    agents: &str,
    games: u32,
    seed: u64,
    first: u32,
    count: u32,
    max_steps: u32,
) -> PyResult<String> {
    let config = arena_config(agents, games, seed, max_steps)?;
    let end = first
        .checked_add(count)
        .filter(|e| count > 0 && *e <= games);
    let Some(end) = end else {
        return Err(game_error(
            &format!(
                "the share of games {first} to {first}+{count} is not a nonempty range within \
                 the {games} games"
            ),
            Some("bad-range"),
        ));
    };
    let (game, _) = crate::load_game(py, path_or_text, options)?;
    let played = py.detach(|| {
        let make = |_: u64| Ok(BoardGame::new(game.engine()));
        contest::arena_games(&config, first..end, &make, &|| {})
    });
    let share = played.map_err(|e| game_error(&e, Some("threads")))?;
    serde_json::to_string(&share).map_err(|e| game_error(&e.to_string(), Some("bad-share")))
}

/// The report of a round robin whose games were played in shares, as `rulestone arena FILE
/// --set ... --agents AGENTS --games GAMES --seed SEED --max-steps MAX_STEPS` writes it:
/// `format` `text` (the tables) or `json`. `file` is the game file as the report names it.
/// Raises `GameError` when the shares do not hold every game of every pair once.
#[pyfunction]
#[pyo3(signature = (path_or_text, options, file, agents, games, seed, max_steps, shares,
                    format = "json"))]
#[allow(clippy::too_many_arguments)] // One keyword argument per `arena` flag.
fn arena_report(
    py: Python<'_>,
    path_or_text: &str,
    options: Option<&Bound<'_, PyDict>>,
    file: &str,
    agents: &str,
    games: u32,
    seed: u64,
    max_steps: u32,
    shares: Vec<String>,
    format: &str,
) -> PyResult<String> {
    let config = arena_config(agents, games, seed, max_steps)?;
    let (game, _) = crate::load_game(py, path_or_text, options)?;
    let bad = |why: String| game_error(&why, Some("bad-share"));
    let mut all = ArenaGames::default();
    for text in &shares {
        let share: ArenaGames =
            serde_json::from_str(text).map_err(|e| bad(format!("a share does not read: {e}")))?;
        all.merge(share).map_err(bad)?;
    }
    let n = config.specs.len();
    if !all.covers(n * (n - 1) / 2, games) {
        return Err(bad(format!(
            "the shares do not hold games 0 to {} of every pair exactly once",
            games - 1
        )));
    }
    let program = &game.program;
    let report = ArenaReport {
        title: format!(
            "{} ({})",
            program.name,
            rulestone_session::notation::shown(std::path::Path::new(file))
        ),
        options: rulestone_session::notation::options_text(program),
        games,
        seed,
        players: [program.player_name(0), program.player_name(1)],
        arena: all.arena(&config),
        stopped: None,
    };
    match format {
        "text" => Ok(rulestone_report::arena::table(&report)),
        "json" => Ok(rulestone_report::arena::json(&report)),
        other => Err(game_error(
            &format!("format must be `text` or `json`, not `{other}`"),
            Some("bad-format"),
        )),
    }
}

/// Adds the campaign functions to the module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(arena_share, m)?)?;
    m.add_function(wrap_pyfunction!(arena_report, m)?)?;
    m.add_function(wrap_pyfunction!(analysis_agents, m)?)?;
    m.add_function(wrap_pyfunction!(analysis_share, m)?)?;
    m.add_function(wrap_pyfunction!(analysis_report, m)?)?;
    Ok(())
}
