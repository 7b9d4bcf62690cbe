//! `rulestone perft`: the number of move sequences of a given length, optionally per first move.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::runtime::{perft::perft, Engine, Move};

use super::load::{load, normalize, play_list};
use super::{emit, grouped, per_second, stderr_is_tty, CliError, GameArgs, PositionArgs, Result};

#[derive(Clone, Debug, Args)]
pub struct PerftArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub position: PositionArgs,

    /// How many moves deep to count (0 counts the position itself: 1).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(0..=64))]
    pub depth: u32,

    /// First print `MOVE: COUNT` for every legal move, then the total.
    #[arg(long)]
    pub divide: bool,

    /// Fix the dice rolls of a game with chance, e.g. "3 5; 2" (one entry per roll).
    #[arg(long, value_name = "ROLLS")]
    pub rolls: Option<String>,
}

/// A spinner on standard error while the count runs, only when it is a terminal.
fn spinner(depth: u32) -> Option<ProgressBar> {
    if !stderr_is_tty() {
        return None;
    }
    let bar = ProgressBar::new_spinner();
    if let Ok(style) = ProgressStyle::with_template("{spinner} perft {prefix}: {msg} [{elapsed}]") {
        bar.set_style(style);
    }
    bar.set_prefix(depth.to_string());
    bar.enable_steady_tick(Duration::from_millis(120));
    Some(bar)
}

pub(crate) fn run(args: &PerftArgs) -> Result<()> {
    let loaded = load(&args.game)?;
    if args.rolls.is_some() {
        return Err(
            CliError::new("`--rolls` was given, but this game has no dice")
                .note(format!(
                    "`{}` declares no random events; drop `--rolls`",
                    super::load::shown(&loaded.path)
                ))
                .into(),
        );
    }
    let mut engine = Engine::new(&loaded.program);
    if let Some(after) = &args.position.after {
        play_list(&mut engine, after, "`--after`")?;
    }
    let start = Instant::now();
    let mut out = String::new();
    let total = if args.depth == 0 {
        perft(&mut engine, 0)
    } else {
        let bar = spinner(args.depth);
        let mut roots: Vec<Move> = Vec::new();
        engine.legal_moves(&mut roots);
        let mut total = 0;
        for (i, m) in roots.iter().enumerate() {
            let text = normalize(&engine.move_text(m));
            if let Some(bar) = &bar {
                bar.set_message(format!("move {}/{} {text}", i + 1, roots.len()));
            }
            let undo = engine.apply(m);
            let n = perft(&mut engine, args.depth - 1);
            engine.undo(undo);
            total += n;
            if args.divide {
                let _ = writeln!(out, "{text}: {n}");
            }
        }
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        total
    };
    let _ = writeln!(out, "{total}");
    emit(&out)?;
    if stderr_is_tty() {
        let secs = start.elapsed().as_secs_f64();
        eprintln!(
            "{} leaves in {secs:.2} s ({} leaves/s)",
            grouped(total),
            grouped(per_second(total, secs))
        );
    }
    Ok(())
}
