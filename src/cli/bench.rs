//! `rulestone bench`: perft leaves per second and random playouts per second, in CPU time.
//!
//! Half of the time budget goes to perft from the start position (deepening one ply at a time
//! while the next depth is expected to fit, then repeating the deepest that does; or repeating
//! `--depth` when given), half to seeded random playouts. Times are the CPU time of this thread
//! (`cpu_time::ThreadTime`), so other load on the machine matters less; wall time is shown
//! beside them.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use clap::Args;
use cpu_time::ThreadTime;
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::runtime::perft::perft;
use crate::runtime::playout::random_game;
use crate::runtime::Engine;

use super::load::{load, shown};
use super::{emit, grouped, per_second, CliError, GameArgs, Result};

#[derive(Clone, Debug, Args)]
pub struct BenchArgs {
    /// The game files to measure (each with its default options).
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,

    /// Time budget per game, in seconds: half for perft, half for playouts.
    #[arg(long, value_name = "S", default_value_t = 3.0)]
    pub seconds: f64,

    /// Repeat perft at this depth instead of deepening from 1.
    #[arg(long, value_name = "D", value_parser = clap::value_parser!(u32).range(1..=64))]
    pub depth: Option<u32>,

    /// Seed of the random playouts.
    #[arg(long, value_name = "S", default_value_t = 0)]
    pub seed: u64,
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

    fn times(&self) -> String {
        format!(
            "cpu {:.2} s, wall {:.2} s",
            self.cpu.as_secs_f64(),
            self.wall.as_secs_f64()
        )
    }
}

pub(crate) fn run(args: &BenchArgs) -> Result<()> {
    if !(args.seconds.is_finite() && args.seconds > 0.0) {
        return Err(CliError::new(format!(
            "`--seconds` must be a positive number of seconds, not `{}`",
            args.seconds
        ))
        .into());
    }
    let budget = Duration::from_secs_f64(args.seconds / 2.0);
    for file in &args.files {
        let loaded = load(&GameArgs {
            file: file.clone(),
            set: Vec::new(),
        })?;
        let mut engine = Engine::new(&loaded.program);
        emit(&format!(
            "{} ({}, {} move generation)\n",
            loaded.program.name,
            shown(file),
            engine.backend()
        ))?;

        let (tally, depths) = bench_perft(&mut engine, budget, args.depth)?;
        emit(&format!(
            "  perft     {:>12} leaves/s   {}, {} leaves   {}\n",
            grouped(tally.rate()),
            depths,
            grouped(tally.count),
            tally.times()
        ))?;

        let (tally, plies) = bench_playouts(&mut engine, budget, args.seed)?;
        #[allow(clippy::cast_precision_loss)]
        let mean = if tally.count > 0 {
            plies as f64 / tally.count as f64
        } else {
            0.0
        };
        emit(&format!(
            "  playouts  {:>12} games/s    mean {mean:.1} plies, {} games   {}\n",
            grouped(tally.rate()),
            grouped(tally.count),
            tally.times()
        ))?;
    }
    Ok(())
}

/// Runs perft until the budget is spent; returns the totals and the depths used, as text.
fn bench_perft(
    engine: &mut Engine<'_>,
    budget: Duration,
    fixed: Option<u32>,
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
        let leaves = perft(engine, depth);
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

/// Plays seeded random games until the budget is spent; returns the totals and all plies.
fn bench_playouts(engine: &mut Engine<'_>, budget: Duration, seed: u64) -> Result<(Tally, u64)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut moves = Vec::new();
    let mut undos = Vec::new();
    let mut plies = 0u64;
    let mut games = 0u64;
    let clock = Clock::start()?;
    loop {
        let p = random_game(engine, &mut rng, 1000, &mut moves, &mut undos);
        plies += u64::from(p.plies);
        games += 1;
        // Reading the clock is a system call: look every few games.
        if games.is_multiple_of(16) && clock.elapsed().0 >= budget {
            break;
        }
    }
    let mut tally = Tally::default();
    tally.add(games, clock.elapsed());
    Ok((tally, plies))
}
