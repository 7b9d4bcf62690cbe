//! `rulestone bench`: perft leaves, random playouts and MCTS iterations per second, in CPU
//! time.
//!
//! A third of the time budget goes to perft from the start position (deepening one ply at a
//! time while the next depth is expected to fit, then repeating the deepest that does; or
//! repeating `--depth` when given), a third to seeded random playouts, a third to the `mcts`
//! agent deciding the first move (fresh trees of 1000 iterations, so the tree's cost per
//! iteration shows beside the playouts'). Times are the CPU time of this thread
//! (`cpu_time::ThreadTime`), so other load on the machine matters less; wall time is shown
//! beside them.

use crate::runtime::Compiled;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use cpu_time::ThreadTime;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::agents::mcts::{Mcts, MctsConfig};
use crate::agents::Agent;
use crate::runtime::perft::{perft, perft_with_rolls};
use crate::runtime::playout::random_game;
use crate::runtime::{BoardGame, Engine};

use super::load::{load, play_list, shown};
use super::perft::{parse_rolls, roll_error};
use serde_json::json;

use super::{emit, grouped, json_text, per_second, CliError, Format, GameArgs, Result};

#[derive(Clone, Debug, Args)]
pub struct BenchArgs {
    /// The game files to measure (each with its default options).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// Time budget per game, in seconds: a third each for perft, playouts and MCTS.
    #[arg(long, value_name = "S", default_value_t = 3.0)]
    pub seconds: f64,

    /// Repeat perft at this depth instead of deepening from 1.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,

    /// Seed of the random playouts.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,

    /// Count perft from the position after these moves (separated by `;`) instead of the start.
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    pub after: Option<String>,

    /// Fix the rolls perft meets in a game with chance, e.g. "3 5 2; 1 1 4" (see `perft`).
    #[arg(long, value_name = "ROLLS")]
    pub rolls: Option<String>,

    /// Stop a playout after this many moves (it counts as unfinished).
    #[arg(long, value_name = "M", default_value_t = 1000)]
    pub max_plies: u32,

    /// How to report: `text` (lines printed as each measurement ends), or `json` (at the end,
    /// an array with one object per game: each measurement's count, rate and times).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// Where the measurements go: text lines as they come, or one JSON object per game.
struct Report {
    format: Format,
    games: Vec<serde_json::Value>,
}

impl Report {
    /// A game's heading line, and its JSON object.
    fn game(&mut self, line: String, fields: serde_json::Value) -> Result<()> {
        self.games.push(fields);
        self.line(&line)
    }

    /// A measurement's line, and its figures in the game's JSON object under `key`.
    fn measured(&mut self, line: &str, key: &str, figures: serde_json::Value) -> Result<()> {
        if let Some(game) = self.games.last_mut().and_then(|g| g.as_object_mut()) {
            game.insert(key.to_string(), figures);
        }
        self.line(line)
    }

    fn line(&self, line: &str) -> Result<()> {
        match self.format {
            Format::Text => emit(line),
            Format::Json => Ok(()),
        }
    }

    fn finish(self) -> Result<()> {
        match self.format {
            Format::Text => Ok(()),
            Format::Json => emit(&json_text(&serde_json::Value::Array(self.games))),
        }
    }
}

/// CPU time and wall time of one measurement.
struct Clock {
    cpu: ThreadTime,
    wall: Instant,
}

impl Clock {
    fn start() -> Result<Clock> {
        let cpu = ThreadTime::try_now()
            .map_err(|e| CliError::new(format!("cannot read the thread's CPU time: {e}")))?;
        Ok(Clock {
            cpu,
            wall: Instant::now(),
        })
    }

    /// (cpu, wall) since the start.
    fn elapsed(&self) -> (Duration, Duration) {
        let cpu = self
            .cpu
            .try_elapsed()
            .unwrap_or_else(|_| self.wall.elapsed());
        (cpu, self.wall.elapsed())
    }
}

/// Totals of one kind of measurement.
#[derive(Default)]
struct Tally {
    count: u64,
    cpu: Duration,
    wall: Duration,
}

impl Tally {
    fn add(&mut self, count: u64, (cpu, wall): (Duration, Duration)) {
        self.count += count;
        self.cpu += cpu;
        self.wall += wall;
    }

    fn rate(&self) -> u64 {
        per_second(self.count, self.cpu.as_secs_f64())
    }

    /// The count, its rate per CPU second and the times, for JSON.
    fn json(&self, unit: &str) -> serde_json::Value {
        let cpu = self.cpu.as_secs_f64();
        #[allow(clippy::cast_precision_loss)]
        let rate = self.count as f64 / cpu.max(1e-9);
        json!({
            unit: self.count,
            "per_second": rate,
            "cpu_seconds": cpu,
            "wall_seconds": self.wall.as_secs_f64(),
        })
    }

    fn times(&self) -> String {
        format!(
            "cpu {:.2} s, wall {:.2} s",
            self.cpu.as_secs_f64(),
            self.wall.as_secs_f64()
        )
    }
}

pub(crate) fn run(args: &BenchArgs, compiled: Compiled) -> Result<()> {
    if !(args.seconds.is_finite() && args.seconds > 0.0) {
        return Err(CliError::new(format!(
            "`--seconds` must be a positive number of seconds, not `{}`",
            args.seconds
        ))
        .into());
    }
    let budget = Duration::from_secs_f64(args.seconds / 3.0);
    let mut report = Report {
        format: args.format,
        games: Vec::new(),
    };
    for file in &args.files {
        if super::table::is_table(file) {
            bench_table(file, budget * 3, args.seed, &mut report)?;
            continue;
        }
        let loaded = load(
            &GameArgs {
                file: file.clone(),
                set: Vec::new(),
                army: Vec::new(),
                deal: 1,
            },
            compiled,
        )?;
        let mut engine = loaded.engine();
        report.game(
            format!(
                "{} ({}, {} move generation)\n",
                loaded.program.name,
                shown(file),
                engine.backend()
            ),
            json!({
                "game": loaded.program.name,
                "file": shown(file),
                "backend": engine.backend().to_string(),
            }),
        )?;

        let rolls = parse_rolls(args.rolls.as_deref().unwrap_or(""))?;
        if let Some(after) = &args.after {
            let played = play_list(&mut engine, after, "`--after`");
            loaded.steps_ok()?;
            played?;
        }
        let chance = loaded.program.has_chance().then_some(rolls.as_slice());
        let (tally, depths) = bench_perft(&mut engine, budget, args.depth, chance)?;
        loaded.steps_ok()?;
        let mut figures = tally.json("leaves");
        figures["depths"] = json!(depths);
        report.measured(
            &format!(
                "  perft     {:>12} leaves/s   {}, {} leaves   {}\n",
                grouped(tally.rate()),
                depths,
                grouped(tally.count),
                tally.times()
            ),
            "perft",
            figures,
        )?;

        let mut engine = loaded.engine();
        let (tally, plies, unfinished) =
            bench_playouts(&mut engine, budget, args.seed, args.max_plies)?;
        #[allow(clippy::cast_precision_loss)]
        let mean = if tally.count > 0 {
            plies as f64 / tally.count as f64
        } else {
            0.0
        };
        let mut figures = tally.json("games");
        figures["mean_plies"] = json!(mean);
        figures["unfinished"] = json!(unfinished);
        figures["moves_per_second"] = json!(per_second(plies, tally.cpu.as_secs_f64()));
        let unfinished = if unfinished > 0 {
            format!(" ({} cut at {} plies)", grouped(unfinished), args.max_plies)
        } else {
            String::new()
        };
        // Long games (a whole match of many decisions) are counted in fractions per second.
        let rate = if tally.rate() < 100 {
            format!(
                "{:.2}",
                tally.count as f64 / tally.cpu.as_secs_f64().max(1e-9)
            )
        } else {
            grouped(tally.rate())
        };
        report.measured(
            &format!(
                "  playouts  {rate:>12} games/s    mean {mean:.1} plies, {} games{unfinished}   {}\n",
                grouped(tally.count),
                tally.times()
            ),
            "playouts",
            figures,
        )?;
        report.line(&format!(
            "  moves     {:>12} moves/s    played in the playouts\n",
            grouped(per_second(plies, tally.cpu.as_secs_f64())),
        ))?;
        let playouts = tally.count as f64 / tally.cpu.as_secs_f64().max(1e-9);
        let mut board = BoardGame::new(loaded.engine());
        let mcts = bench_mcts(&mut board, budget, args.seed)?;
        let rate = mcts.count as f64 / mcts.cpu.as_secs_f64().max(1e-9);
        let mut figures = mcts.json("iterations");
        figures["playout_ratio"] = json!(rate / playouts.max(1e-9));
        report.measured(
            &format!(
                "  mcts      {:>12} iterations/s {:.2}× playouts/s, {} iterations   {}\n",
                grouped(mcts.rate()),
                rate / playouts.max(1e-9),
                grouped(mcts.count),
                mcts.times()
            ),
            "mcts",
            figures,
        )?;
    }
    report.finish()
}

/// Decides the first move with the `mcts` agent, a fresh tree of 1000 iterations at a time,
/// until the budget is spent; returns the iterations.
fn bench_mcts(board: &mut BoardGame<'_>, budget: Duration, seed: u64) -> Result<Tally> {
    const ITERATIONS: u32 = 1000;
    let config = MctsConfig {
        iterations: Some(ITERATIONS),
        ..MctsConfig::default()
    };
    let mut agent = Mcts::new(config, seed);
    let mut tally = Tally::default();
    let clock = Clock::start()?;
    let mut runs = 0u64;
    while clock.elapsed().0 < budget {
        agent.reset();
        if agent.choose(board).is_none() {
            break;
        }
        runs += 1;
    }
    tally.add(runs * u64::from(ITERATIONS), clock.elapsed());
    Ok(tally)
}

/// A table game: whole simulated matches with random shots until the budget is spent.
fn bench_table(
    file: &std::path::Path,
    budget: Duration,
    seed: u64,
    report: &mut Report,
) -> Result<()> {
    use crate::runtime::table::{Decision, TableMatch};
    let t = super::table::load(&GameArgs {
        file: file.to_path_buf(),
        set: Vec::new(),
        army: Vec::new(),
        deal: 1,
    })?;
    report.game(
        format!("{} ({}, simulated table)\n", t.program.name, shown(file)),
        json!({ "game": t.program.name, "file": shown(file), "backend": "simulated table" }),
    )?;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut matches, mut shots, mut decisions, mut turns) = (0u64, 0u64, 0u64, 0u64);
    let clock = Clock::start()?;
    while clock.elapsed().0 < budget {
        let mut m = TableMatch::new(&t.program, t.armies.clone(), seed.wrapping_add(matches));
        while m.outcome().is_none() {
            let Some(d) = m.random_decision(&mut rng) else {
                break;
            };
            shots += u64::from(matches!(d, Decision::Shot { .. }));
            decisions += 1;
            if m.apply(&d).is_err() {
                break;
            }
        }
        turns += u64::from(m.turns_played());
        matches += 1;
    }
    let mut tally = Tally::default();
    tally.add(matches, clock.elapsed());
    let cpu = tally.cpu.as_secs_f64().max(1e-9);
    #[allow(clippy::cast_precision_loss)]
    let (rate, mean) = (matches as f64 / cpu, turns as f64 / matches.max(1) as f64);
    let mut figures = tally.json("matches");
    figures["mean_turns"] = json!(mean);
    figures["shots_per_second"] = json!(per_second(shots, cpu));
    figures["decisions_per_second"] = json!(per_second(decisions, cpu));
    report.line(&format!(
        "  shots     {:>12} shots/s    each simulated until every stone is still\n",
        grouped(per_second(shots, cpu))
    ))?;
    report.measured(
        &format!(
            "  playouts  {rate:>12.2} matches/s  mean {mean:.1} turns, {} matches   {}\n",
            grouped(matches),
            tally.times()
        ),
        "playouts",
        figures,
    )?;
    report.line(&format!(
        "  moves     {:>12} decisions/s played in the matches\n",
        grouped(per_second(decisions, cpu))
    ))
}

/// Runs perft until the budget is spent; returns the totals and the depths used, as text.
/// With `rolls` (a game with chance), perft takes them in order at every roll.
fn bench_perft(
    engine: &mut Engine<'_>,
    budget: Duration,
    fixed: Option<u32>,
    rolls: Option<&[Vec<i32>]>,
) -> Result<(Tally, String)> {
    let mut tally = Tally::default();
    let mut depth = fixed.unwrap_or(1);
    let (mut lowest, mut highest) = (depth, depth);
    // Leaves of the run one depth shallower, to guess the next depth's cost.
    let mut shallower: Option<u64> = None;
    // Deepening stops for good at a depth past the end of every game.
    let mut deepen = fixed.is_none();
    loop {
        let clock = Clock::start()?;
        let leaves = match rolls {
            Some(r) => perft_with_rolls(engine, depth, r).map_err(roll_error)?,
            None => perft(engine, depth),
        };
        let times = clock.elapsed();
        if leaves == 0 && deepen && depth > 1 {
            // Every game is over before this depth: a run here walks the tree but has no
            // leaves to count, so repeat the last depth that had some.
            depth -= 1;
            deepen = false;
            continue;
        }
        tally.add(leaves, times);
        lowest = lowest.min(depth);
        highest = highest.max(depth);
        let spent = tally.cpu;
        if spent >= budget {
            break;
        }
        let left = budget.saturating_sub(spent);
        if deepen && depth < 64 && leaves > 0 {
            // Next depth's cost ≈ this cost times the branching factor seen last.
            let factor = shallower.map_or(leaves, |b| leaves / b.max(1)).max(1);
            let guess = times
                .0
                .saturating_mul(u32::try_from(factor).unwrap_or(u32::MAX));
            if guess <= left {
                shallower = Some(leaves);
                depth += 1;
                continue;
            }
        }
        // Repeat this depth while it fits; stop when even that would overshoot a lot.
        if times.0 > left.saturating_mul(2) {
            break;
        }
    }
    let depths = if lowest == highest {
        format!("depth {highest}")
    } else {
        format!("depths {lowest}-{highest}")
    };
    Ok((tally, depths))
}

/// Plays seeded random games until the budget is spent; returns the totals, all plies and the
/// games cut at `max_plies`.
fn bench_playouts(
    engine: &mut Engine<'_>,
    budget: Duration,
    seed: u64,
    max_plies: u32,
) -> Result<(Tally, u64, u64)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = Vec::new();
    let mut undos = Vec::new();
    let mut plies = 0u64;
    let mut games = 0u64;
    let mut unfinished = 0u64;
    let mut since_look = 0u64;
    let clock = Clock::start()?;
    loop {
        let p = random_game(engine, &mut rng, max_plies, &mut moves, &mut undos);
        plies += u64::from(p.plies);
        unfinished += u64::from(p.result.is_none());
        games += 1;
        since_look += u64::from(p.plies);
        // Reading the clock is a system call: look every few games, or after long ones.
        if (games.is_multiple_of(16) || since_look >= 20_000) && clock.elapsed().0 >= budget {
            break;
        }
        if games.is_multiple_of(16) || since_look >= 20_000 {
            since_look = 0;
        }
    }
    let mut tally = Tally::default();
    tally.add(games, clock.elapsed());
    Ok((tally, plies, unfinished))
}
