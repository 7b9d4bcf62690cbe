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
use std::path::{Path, PathBuf};
use std::time::Duration;

use clap::Args;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::agents::mcts::{Mcts, MctsConfig};
use crate::agents::Agent;
use crate::runtime::Game;

use super::any::{with_game, Games, OnGame};
use super::clock::Clock;
use super::load::{shown, split_moves};
use super::perft::{parse_rolls, roll_error};
use super::playout::mean;
use serde_json::json;

use super::{emit, grouped, json_text, per_second, CliError, Format, GameArgs, Result};

#[derive(Clone, Debug, Args)]
pub struct BenchArgs {
    /// The game files to measure (each with its default options, but for `--set`).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// Set an option of every game measured, e.g. `--set size=5` (repeatable); a game that
    /// does not declare it is an error.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,

    /// Time budget per game, in seconds: a third each for perft, playouts and MCTS.
    #[arg(long, value_name = "S", default_value = "3", value_parser = super::time_limit)]
    pub seconds: Duration,

    /// Repeat perft at this depth instead of deepening from 1.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,

    /// Seed of the random playouts.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,

    /// Count perft from the position after these moves (separated by `;`) instead of the start.
    #[arg(long, value_name = "MOVES", allow_hyphen_values = true)]
    pub after: Option<String>,

    /// Fix the rolls perft meets in a game with chance, e.g. "3 5 2; 1 1 4" (see `perft`);
    /// without them, every outcome of a roll is a branch of the count.
    #[arg(long, value_name = "ROLLS")]
    pub rolls: Option<String>,

    /// Stop a playout after this many moves (at most 100,000; it counts as unfinished).
    #[arg(long, value_name = "M", default_value_t = 1000,
          value_parser = clap::value_parser!(u32).range(0..=super::MAX_PLIES))]
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
    let mut report = Report {
        format: args.format,
        games: Vec::new(),
    };
    for file in &args.files {
        let game = GameArgs {
            file: file.clone(),
            set: args.set.clone(),
            army: Vec::new(),
            deal: 1,
        };
        let task = Bench {
            args,
            file,
            report: &mut report,
        };
        with_game(&game, None, compiled, task)?;
    }
    report.finish()
}

/// The measurements of one game, of any kind.
struct Bench<'a> {
    args: &'a BenchArgs,
    file: &'a Path,
    report: &'a mut Report,
}

impl OnGame for Bench<'_> {
    type Output = ();

    fn run<G: Game>(self, games: &Games<'_, G>) -> Result<()> {
        let (args, report) = (self.args, self.report);
        let mut game = (games.start)(games.deal)?;
        let backend = game.backend();
        report.game(
            format!("{} ({}, {backend})\n", games.name, shown(self.file)),
            json!({ "game": games.name, "file": shown(self.file), "backend": backend }),
        )?;
        // Continuous decisions leave no tree to count, and a search tree over them no
        // iterations that fit a budget: the whole budget goes to playouts then.
        let listed = !game.has_continuous_decisions();
        let total = args.seconds;
        let budget = if listed { total / 3 } else { total };
        if listed {
            measure_perft(args, games, budget, report)?;
        }
        let playouts = measure_playouts(args, games, &mut game, budget, report)?;
        if listed {
            measure_mcts(args, &mut game, budget, playouts, report)?;
        }
        Ok(())
    }
}

/// perft from the start (or `--after`), as deep as fits the budget.
fn measure_perft<G: Game>(
    args: &BenchArgs,
    games: &Games<'_, G>,
    budget: Duration,
    report: &mut Report,
) -> Result<()> {
    let mut game = (games.start)(games.deal)?;
    let rolls = parse_rolls(args.rolls.as_deref().unwrap_or(""))?;
    if let Some(after) = &args.after {
        play_after(&mut game, after)?;
    }
    // Without `--rolls`, a roll's outcomes are counted as branches like players' moves.
    let chance = (game.rolls_dice() && args.rolls.is_some()).then_some(rolls.as_slice());
    let every_outcome = game.rolls_dice() && chance.is_none();
    let (tally, depths) = bench_perft(&mut game, budget, args.depth, chance)?;
    let mut figures = tally.json("leaves");
    figures["depths"] = json!(depths);
    figures["every_roll_outcome"] = json!(every_outcome);
    let outcomes = if every_outcome {
        ", every roll's outcomes"
    } else {
        ""
    };
    report.measured(
        &format!(
            "  perft     {:>12} leaves/s   {}, {} leaves{outcomes}   {}\n",
            grouped(tally.rate()),
            depths,
            grouped(tally.count),
            tally.times()
        ),
        "perft",
        figures,
    )
}

/// Plays `list` (decisions separated by `;`) on `game`.
fn play_after<G: Game>(game: &mut G, list: &str) -> Result<()> {
    for (i, text) in split_moves(list).iter().enumerate() {
        let d = game.parse(text).map_err(|e| {
            CliError::new(format!(
                "move {} of `--after`, `{text}`, is not legal",
                i + 1
            ))
            .note(e)
        })?;
        game.apply(&d);
    }
    Ok(())
}

/// Seeded random games; returns their rate per CPU second, for the MCTS ratio.
fn measure_playouts<G: Game>(
    args: &BenchArgs,
    games: &Games<'_, G>,
    game: &mut G,
    budget: Duration,
    report: &mut Report,
) -> Result<f64> {
    let run = bench_playouts(games, game, budget, args.seed, args.max_plies)?;
    let tally = &run.tally;
    let cpu = tally.cpu.as_secs_f64().max(1e-9);
    let mut figures = tally.json("games");
    figures["mean_plies"] = json!(mean(run.plies, tally.count));
    figures["unfinished"] = json!(run.unfinished);
    figures["moves_per_second"] = json!(per_second(run.plies, cpu));
    if let Some(turns) = run.turns {
        figures["mean_turns"] = json!(mean(turns, tally.count));
    }
    if run.shots > 0 {
        figures["shots_per_second"] = json!(per_second(run.shots, cpu));
        report.line(&format!(
            "  shots     {:>12} shots/s    each simulated until every stone is still\n",
            grouped(per_second(run.shots, cpu))
        ))?;
    }
    let unfinished = if run.unfinished > 0 {
        format!(
            " ({} cut at {} plies)",
            grouped(run.unfinished),
            args.max_plies
        )
    } else {
        String::new()
    };
    #[allow(clippy::cast_precision_loss)]
    let playouts = tally.count as f64 / cpu;
    // Long games (a whole match of many decisions) are counted in fractions per second.
    let rate = if tally.rate() < 100 {
        format!("{playouts:.2}")
    } else {
        grouped(tally.rate())
    };
    let per = format!("{}/s", plural_word(games.kind));
    let length = match run.turns {
        Some(turns) => format!("{:.1} turns", mean(turns, tally.count)),
        None => format!("{:.1} plies", mean(run.plies, tally.count)),
    };
    report.measured(
        &format!(
            "  playouts  {rate:>12} {per:<10} mean {length}, {}{unfinished}   {}\n",
            counted(tally.count, games.kind),
            tally.times()
        ),
        "playouts",
        figures,
    )?;
    report.line(&format!(
        "  moves     {:>12} moves/s    played in the playouts\n",
        grouped(per_second(run.plies, cpu)),
    ))?;
    Ok(playouts)
}

/// `games` of `game`, `matches` of `match`.
fn plural_word(kind: &str) -> String {
    let counted = super::plural(2, kind);
    counted.trim_start_matches("2 ").to_string()
}

/// `1,200 games`, `1 match`.
fn counted(n: u64, kind: &str) -> String {
    if n == 1 {
        format!("1 {kind}")
    } else {
        format!("{} {}", grouped(n), plural_word(kind))
    }
}

/// The `mcts` agent deciding the first move, against the playouts' rate.
fn measure_mcts<G: Game>(
    args: &BenchArgs,
    game: &mut G,
    budget: Duration,
    playouts: f64,
    report: &mut Report,
) -> Result<()> {
    let mcts = bench_mcts(game, budget, args.seed)?;
    #[allow(clippy::cast_precision_loss)]
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
    )
}

/// Decides the first move with the `mcts` agent, a fresh tree of 1000 iterations at a time,
/// until the budget is spent; returns the iterations it ran (fewer than 1000 a search when it
/// proves the position).
fn bench_mcts<G: Game>(game: &mut G, budget: Duration, seed: u64) -> Result<Tally> {
    const ITERATIONS: u32 = 1000;
    let config = MctsConfig {
        iterations: Some(ITERATIONS),
        ..MctsConfig::default()
    };
    let mut agent = Mcts::new(config, seed);
    // At a chance point (a game that starts by rolling or dealing) the agent has nothing to
    // decide: chance's seeded outcomes lead to the first decision a player makes.
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    while game.outcome().is_none() && game.chance() {
        let Some(roll) = game.sample(&mut rng) else {
            break;
        };
        game.apply(&roll);
    }
    let mut tally = Tally::default();
    let clock = Clock::start()?;
    while clock.elapsed().0 < budget {
        agent.reset();
        if agent.choose(game).is_none() {
            break;
        }
    }
    tally.add(agent.iterations(), clock.elapsed());
    Ok(tally)
}

/// Runs perft until the budget is spent; returns the totals and the depths used, as text.
/// With `rolls` (a game with chance), perft takes them in order at every roll.
fn bench_perft<G: Game>(
    game: &mut G,
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
        let leaves = game
            .perft(depth, rolls)
            .unwrap_or(Ok(0))
            .map_err(roll_error)?;
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

/// What the playouts of a bench played.
struct PlayoutRun {
    tally: Tally,
    plies: u64,
    unfinished: u64,
    /// Turns, for games that count them.
    turns: Option<u64>,
    shots: u64,
}

/// Plays seeded random games until the budget is spent (a game dealt afresh each time when
/// its start depends on the deal).
fn bench_playouts<G: Game>(
    games: &Games<'_, G>,
    game: &mut G,
    budget: Duration,
    seed: u64,
    max_plies: u32,
) -> Result<PlayoutRun> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let dealt = game.dealt();
    let mut run = PlayoutRun {
        tally: Tally::default(),
        plies: 0,
        unfinished: 0,
        turns: None,
        shots: 0,
    };
    let mut count = 0u64;
    let mut since_look = 0u64;
    let clock = Clock::start()?;
    loop {
        let p = if dealt {
            (games.start)(seed.wrapping_add(count))?.playout(&mut rng, max_plies, false)
        } else {
            game.playout(&mut rng, max_plies, false)
        };
        run.plies += u64::from(p.steps);
        run.unfinished += u64::from(p.result.is_none());
        run.shots += p.continuous;
        if let Some(t) = p.end.turns {
            *run.turns.get_or_insert(0) += u64::from(t);
        }
        count += 1;
        since_look += u64::from(p.steps);
        // Reading the clock is a system call: look every few games, or after long ones (a
        // game dealt afresh costs more than a look).
        let look = dealt || count.is_multiple_of(16) || since_look >= 20_000;
        if look && clock.elapsed().0 >= budget {
            break;
        }
        if look {
            since_look = 0;
        }
    }
    run.tally.add(count, clock.elapsed());
    Ok(run)
}
