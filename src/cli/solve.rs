//! `rulestone solve`: the exact value of a position (win, loss or draw for the player to move),
//! the distance to the end under best play and the principal variation, for any board game
//! without chance, through [`Game`] and [`Solver`] alone: no branch on the kind of game.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::json;

use crate::agents::solve::{
    LineEnd, Solution, SolveConfig, SolveError, Solver, Stage, Stats, Value,
};
use crate::runtime::{Compiled, Game, GameResult};

use super::any::{with_game, Games, OnGame};
use super::load::{shown, split_moves};
use super::Format;
use super::{emit, grouped, stderr_is_tty, CliError, GameArgs, PositionArgs, Result};

#[derive(Clone, Debug, Args)]
pub struct SolveArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub position: PositionArgs,

    /// The most memory the transposition table may take, in MB (1 to 1048576). The table starts
    /// small and doubles as it fills; at this size, entries that took little work make room for
    /// new ones.
    #[arg(
        long,
        value_name = "MB",
        default_value_t = 1024,
        value_parser = clap::value_parser!(u32).range(1..=1_048_576)
    )]
    pub memory: u32,

    /// Stop once this many seconds have passed (e.g. `30`, looked at every few thousand
    /// positions) and say how far the search got (exit status 3). Without it the search runs
    /// until it has the answer.
    #[arg(long, value_name = "SECONDS", value_parser = super::time_limit, allow_negative_numbers = true)]
    pub time_limit: Option<Duration>,

    /// How to report: `text` for people, or `json` (one object) for machines.
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub(crate) fn run(args: &SolveArgs, compiled: Compiled) -> Result<()> {
    let after = args.position.after.as_deref();
    with_game(&args.game, after, compiled, Solve { args })
}

/// Solves the position the command line names, of any kind of game.
struct Solve<'a> {
    args: &'a SolveArgs,
}

impl OnGame for Solve<'_> {
    type Output = ();

    fn run<G: Game>(self, games: &Games<'_, G>) -> Result<()> {
        let args = self.args;
        let path = shown(&args.game.file);
        let mut game = (games.start)(games.deal)?;
        refuse_unsolvable(&game, &path)?;
        refuse_more_than_the_machine(args.memory)?;
        let config = SolveConfig {
            table_bytes: usize::try_from(args.memory)
                .unwrap_or(usize::MAX)
                .saturating_mul(1 << 20),
        };
        let bar = spinner();
        let mut solver = Solver::new(&config).map_err(|e| {
            CliError::new(format!("{e}")).note("give a smaller table with --memory MB")
        })?;
        if let Some(bar) = &bar {
            solver = solver.with_progress(reporter(bar.clone()));
        }
        let clock = super::clock::Clock::start()?;
        if let Some(limit) = args.time_limit {
            solver = solver.with_deadline(Instant::now() + limit);
        }
        let solved = solver.solve(&mut game);
        let cpu = clock.elapsed().0;
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        if let (Err(SolveError::OutOfTime { positions }), Some(limit)) = (&solved, args.time_limit)
        {
            return stopped(*positions, super::Bound::Time(limit), cpu, args.format);
        }
        let solution = solved.map_err(|e| refusal(&e, &path))?;
        let report = Report {
            game: &mut game,
            name: &games.name,
            options: &games.option_values,
            after: args.position.after.as_deref().map(split_moves),
            memory: args.memory,
            solution: &solution,
            cpu,
        };
        let text = match args.format {
            Format::Text => report.text(),
            Format::Json => report.json(),
        };
        emit(&text)
    }
}

/// Refuses, before any search, a game whose positions have no exact win, loss or draw value.
fn refuse_unsolvable<G: Game>(game: &G, path: &str) -> Result<()> {
    if game.has_continuous_decisions() {
        return Err(CliError::new(format!(
            "`{path}` has continuous decisions (shots): no list of decisions can be searched \
             to the end"
        ))
        .note(format!(
            "play random games instead: rulestone playout {path}"
        ))
        .into());
    }
    if game.rolls_dice() {
        return Err(CliError::new(format!(
            "`{path}` rolls dice: a position's value is an expectation over the rolls, not a \
             win, loss or draw, so it cannot be solved exactly"
        ))
        .note(format!(
            "estimate it with random games instead: rulestone playout {path}"
        ))
        .into());
    }
    Ok(())
}

/// Reports a search the time limit stopped: how far it got, and no answer; exit status 3.
fn stopped(positions: u64, bound: super::Bound, cpu: Duration, format: Format) -> Result<()> {
    let text = match format {
        Format::Text => format!(
            "solve stopped by {} after {} positions ({:.2} CPU s): no answer yet\n",
            bound.flag(),
            grouped(positions),
            cpu.as_secs_f64()
        ),
        Format::Json => super::json_text(&json!({
            "value": null,
            "stopped_by": bound.json(),
            "positions": positions,
            "cpu_seconds": cpu.as_secs_f64(),
        })),
    };
    emit(&text)?;
    Err(super::Fail::Stopped)
}

/// A solver error as a one-line message with what to do.
fn refusal(e: &SolveError, path: &str) -> super::Fail {
    let error = CliError::new(format!("cannot solve `{path}`: {e}"));
    match e {
        SolveError::Chance => error.note(format!(
            "estimate it with random games instead: rulestone playout {path}"
        )),
        SolveError::History => error.note(format!(
            "play it with searching agents or random games instead: rulestone arena --agents mcts,alphabeta {path}, rulestone playout {path}"
        )),
        SolveError::LineTooLong => {
            error.note("this game is too large to solve exactly; try a smaller board")
        }
        _ => error,
    }
    .into()
}

/// A spinner on standard error while the search runs, only when it is a terminal.
fn spinner() -> Option<ProgressBar> {
    if !stderr_is_tty() {
        return None;
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} solve: {msg} [{elapsed}]") {
        bar.set_style(style);
    }
    bar.enable_steady_tick(Duration::from_millis(120));
    Some(bar)
}

/// The solver's progress callback: the bar's message, a few times a second at most.
fn reporter(bar: ProgressBar) -> Box<dyn FnMut(&Stats)> {
    let mut shown_at = Instant::now();
    Box::new(move |stats: &Stats| {
        if shown_at.elapsed() < Duration::from_millis(250) {
            return;
        }
        shown_at = Instant::now();
        bar.set_message(format!(
            "{}, {} positions, table {} full",
            stage_text(stats.stage),
            grouped(stats.positions),
            percent(stats.table_entries, stats.table_capacity)
        ));
    })
}

fn stage_text(stage: Stage) -> String {
    match stage {
        Stage::Value => "value".to_string(),
        Stage::Distance(d) => format!("distance, testing {d}"),
        Stage::Line => "principal variation".to_string(),
    }
}

/// `12.5%`.
fn percent(part: usize, whole: usize) -> String {
    #[allow(clippy::cast_precision_loss)]
    let p = if whole == 0 {
        0.0
    } else {
        100.0 * part as f64 / whole as f64
    };
    format!("{p:.1}%")
}

/// What the output says about one solved position.
struct Report<'a, G: Game> {
    game: &'a mut G,
    name: &'a str,
    options: &'a [(String, String)],
    after: Option<Vec<String>>,
    memory: u32,
    solution: &'a Solution<G::Decision>,
    /// CPU time of the search (the solution's stats hold its wall time).
    cpu: std::time::Duration,
}

impl<G: Game> Report<'_, G> {
    fn mover(&self) -> String {
        self.game.player_name(self.game.to_move())
    }

    fn other(&self) -> String {
        self.game.player_name(1 - (self.game.to_move() & 1))
    }

    fn value_text(&self) -> String {
        match self.solution.value {
            Value::Win => format!("win for {}, to move", self.mover()),
            Value::Loss => format!("loss for {}, to move: {} wins", self.mover(), self.other()),
            Value::Draw => "draw".to_string(),
        }
    }

    fn distance_text(&self) -> String {
        let d = self.solution.distance;
        let decisions = if d == 1 { "decision" } else { "decisions" };
        let why = match self.solution.value {
            Value::Win => "the shortest win",
            Value::Loss => "the longest loss",
            Value::Draw => "the length of the principal variation",
        };
        format!("{d} {decisions} ({why})")
    }

    fn end_text(&self) -> String {
        match self.solution.end {
            LineEnd::Over(GameResult::Win(p)) => format!("{} wins", self.game.player_name(p)),
            LineEnd::Over(GameResult::Draw) => "draw".to_string(),
            LineEnd::Repeats { after } => format!(
                "the position after {after} of these decisions comes back: endless play, a draw"
            ),
        }
    }

    fn line(&self) -> Vec<String> {
        self.solution.line.iter().map(|(_, t)| t.clone()).collect()
    }

    fn text(&self) -> String {
        let s = self.solution;
        let mut out = String::new();
        let _ = writeln!(out, "game: {}", self.name);
        if !self.options.is_empty() {
            let opts: Vec<String> = self
                .options
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            let _ = writeln!(out, "options: {}", opts.join(", "));
        }
        let position = match &self.after {
            Some(moves) if !moves.is_empty() => format!("after {}", moves.join("; ")),
            _ => "the start".to_string(),
        };
        let _ = writeln!(out, "position: {position}, {} to move", self.mover());
        let _ = writeln!(out, "value: {}", self.value_text());
        let _ = writeln!(out, "distance: {}", self.distance_text());
        let line = self.line();
        let line = if line.is_empty() {
            "(none: the game is over)".to_string()
        } else {
            line.join("; ")
        };
        let _ = writeln!(out, "principal variation: {line}");
        let _ = writeln!(out, "ends: {}", self.end_text());
        let _ = writeln!(out, "positions searched: {}", grouped(s.stats.positions));
        let _ = writeln!(
            out,
            "table: {} entries, {} full (of {}; it may grow to {} MB)",
            grouped(s.stats.table_entries as u64),
            percent(s.stats.table_entries, s.stats.table_capacity),
            grouped(s.stats.table_capacity as u64),
            self.memory
        );
        let _ = writeln!(
            out,
            "time: CPU {:.2} s, wall {:.2} s",
            self.cpu.as_secs_f64(),
            s.stats.elapsed.as_secs_f64()
        );
        out
    }

    fn json(&self) -> String {
        let s = self.solution;
        let (winner, value) = match s.value {
            Value::Win => (Some(self.mover()), "win"),
            Value::Loss => (Some(self.other()), "loss"),
            Value::Draw => (None, "draw"),
        };
        let (end, repeats_after) = match s.end {
            LineEnd::Repeats { after } => ("repetition".to_string(), Some(after)),
            _ => (self.end_text(), None),
        };
        let options: serde_json::Map<String, serde_json::Value> = self
            .options
            .iter()
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect();
        let value = json!({
            "game": self.name,
            "options": options,
            "after": self.after.clone().unwrap_or_default(),
            "to_move": self.mover(),
            "value": value,
            "winner": winner,
            "distance": s.distance,
            "line": self.line(),
            "end": end,
            "repeats_after": repeats_after,
            "positions": s.stats.positions,
            "table_entries": s.stats.table_entries,
            "table_capacity": s.stats.table_capacity,
            "memory_mb": self.memory,
            "cpu_seconds": self.cpu.as_secs_f64(),
            "seconds": s.stats.elapsed.as_secs_f64(),
        });
        super::json_text(&value)
    }
}

/// A table budget past the machine's memory would not end in an error but in the system
/// killing the process once the table grows (allocations succeed and fail only when used), so
/// it is refused up front where the machine's memory is known (Linux: `/proc/meminfo`).
fn refuse_more_than_the_machine(memory_mb: u32) -> Result<()> {
    let Some(total_mb) = machine_memory_mb() else {
        return Ok(());
    };
    if u64::from(memory_mb) <= total_mb {
        return Ok(());
    }
    Err(CliError::new(format!(
        "--memory {memory_mb} MB is more than this machine's memory ({total_mb} MB)"
    ))
    .note("give a table that fits, e.g. --memory 1024 (the default)")
    .into())
}

/// The machine's memory in MB, when the system says (`MemTotal` of `/proc/meminfo`).
fn machine_memory_mb() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}
