//! `rulestone perft`: the number of move sequences of a given length, optionally per first move.

use crate::runtime::Compiled;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::runtime::perft::{
    outcome, perft, perft_with_rolls, perft_within, Budget, Exceeded, RollError,
};
use crate::runtime::{Engine, Move};

use serde_json::json;

use super::load::{load, normalize, play_list, split_moves};
use super::{emit, grouped, json_text, per_second, stderr_is_tty, CliError, Format, GameArgs};
use super::{PositionArgs, Result};

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

    /// Fix the rolls of a game with chance: "3 5 2; 1 1 4" gives the values of the first and
    /// the second roll met along every line (rolls are not counted as moves).
    #[arg(long, value_name = "ROLLS")]
    pub rolls: Option<String>,

    /// Stop with an error (exit code 2) once more than N leaves were counted, instead of
    /// running on: a bound for counts of unknown size. With `--rolls`, checked after each
    /// first move.
    #[arg(long, value_name = "N")]
    pub max_nodes: Option<u64>,

    /// Stop with an error (exit code 2) once the count has run this many seconds (e.g. `2.5`):
    /// a bound for counts of unknown length. With `--rolls`, checked after each first move.
    #[arg(long, value_name = "SECONDS", value_parser = super::time_limit)]
    pub time_limit: Option<Duration>,

    /// How to report: `text` (the `--divide` lines, then the count), or `json` (one object:
    /// the game, options, position, depth, count, the counts per first move with `--divide`,
    /// and the time).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

/// The error of a count stopped by `--max-nodes`.
fn too_many(max: u64, depth: u32) -> super::Fail {
    CliError::new(format!(
        "perft stopped: more than {} leaves at depth {depth}",
        grouped(max)
    ))
    .note("`--max-nodes` bounds the count; raise it, or count a smaller depth")
    .into()
}

/// The error of a count stopped by `--time-limit`.
fn out_of_time(limit: Duration, depth: u32) -> super::Fail {
    CliError::new(format!(
        "perft stopped: the count to depth {depth} ran past the time limit of {:.1} s",
        limit.as_secs_f64()
    ))
    .note("`--time-limit` bounds the time; raise it, or count a smaller depth")
    .into()
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

pub(crate) fn run(args: &PerftArgs, compiled: Compiled) -> Result<()> {
    let loaded = load(&args.game, compiled)?;
    let chance = loaded.program.has_chance();
    if args.rolls.is_some() && !chance {
        return Err(
            CliError::new("`--rolls` was given, but this game has no dice")
                .note(format!(
                    "`{}` declares no random events; drop `--rolls`",
                    super::load::shown(&loaded.path)
                ))
                .into(),
        );
    }
    let rolls = parse_rolls(args.rolls.as_deref().unwrap_or(""))?;
    let mut engine = loaded.engine();
    if let Some(after) = &args.position.after {
        let played = play_list(&mut engine, after, "`--after`");
        loaded.steps_ok()?;
        played?;
    }
    let start = Instant::now();
    let deadline = args.time_limit.map(|limit| start + limit);
    let stopped = |why: Exceeded| match why {
        Exceeded::Leaves => too_many(args.max_nodes.unwrap_or(0), args.depth),
        Exceeded::Time => out_of_time(args.time_limit.unwrap_or_default(), args.depth),
    };
    let mut divided: Vec<(String, u64)> = Vec::new();
    let total = if args.depth == 0 {
        let total = perft(&mut engine, 0);
        if args.max_nodes.is_some_and(|max| total > max) {
            return Err(too_many(args.max_nodes.unwrap_or(0), 0));
        }
        total
    } else {
        let bar = spinner(args.depth);
        let mut roots: Vec<Move> = Vec::new();
        engine.legal_moves(&mut roots);
        // A position awaiting a roll takes the first one; the rest go down the lines.
        let mut used = 0;
        if chance && engine.chance() {
            let m = roll_outcome(&mut engine, &roots, &rolls, 0)?;
            let _ = engine.apply(&m);
            used = 1;
            engine.legal_moves(&mut roots);
        }
        let mut total = 0;
        for (i, m) in roots.iter().enumerate() {
            let text = normalize(&engine.move_text(m));
            if let Some(bar) = &bar {
                bar.set_message(format!("move {}/{} {text}", i + 1, roots.len()));
            }
            let undo = engine.apply(m);
            let n = if chance {
                perft_with_rolls(&mut engine, args.depth - 1, &rolls[used..]).map_err(|e| {
                    roll_error(match e {
                        RollError::OutOfRolls { needed } => RollError::OutOfRolls {
                            needed: needed + used,
                        },
                        RollError::NotAnOutcome { index } => RollError::NotAnOutcome {
                            index: index + used,
                        },
                    })
                })?
            } else if args.max_nodes.is_some() || deadline.is_some() {
                let budget = Budget {
                    leaves: args.max_nodes.map(|max| max.saturating_sub(total)),
                    deadline,
                };
                match perft_within(&mut engine, args.depth - 1, budget) {
                    Ok(n) => n,
                    Err(why) => {
                        engine.undo(undo);
                        if let Some(bar) = &bar {
                            bar.finish_and_clear();
                        }
                        return Err(stopped(why));
                    }
                }
            } else {
                perft(&mut engine, args.depth - 1)
            };
            engine.undo(undo);
            total += n;
            // Past the deadline with first moves still to count (a finished count stands).
            let more = i + 1 < roots.len();
            let late = more && deadline.is_some_and(|d| Instant::now() >= d);
            if args.max_nodes.is_some_and(|max| total > max) || late {
                if let Some(bar) = &bar {
                    bar.finish_and_clear();
                }
                return Err(stopped(if late {
                    Exceeded::Time
                } else {
                    Exceeded::Leaves
                }));
            }
            if args.divide {
                divided.push((text, n));
            }
        }
        if let Some(bar) = bar {
            bar.finish_and_clear();
        }
        total
    };
    loaded.steps_ok()?;
    let secs = start.elapsed().as_secs_f64();
    let out = match args.format {
        Format::Text => {
            let mut out = String::new();
            for (text, n) in &divided {
                let _ = writeln!(out, "{text}: {n}");
            }
            let _ = writeln!(out, "{total}");
            out
        }
        Format::Json => {
            let options: serde_json::Map<String, serde_json::Value> = loaded
                .program
                .options
                .iter()
                .map(|(k, v)| (k.clone(), json!(v)))
                .collect();
            let divide: Vec<serde_json::Value> = divided
                .iter()
                .map(|(text, n)| json!({ "move": text, "nodes": n }))
                .collect();
            let after = args.position.after.as_deref().map(split_moves);
            json_text(&json!({
                "game": loaded.program.name,
                "options": options,
                "after": after.unwrap_or_default(),
                "depth": args.depth,
                "nodes": total,
                "divide": args.divide.then_some(divide),
                "seconds": secs,
            }))
        }
    };
    emit(&out)?;
    super::warn_dropped(crate::runtime::game::dropped_moves(&engine));
    if stderr_is_tty() {
        eprintln!(
            "{} leaves in {secs:.2} s ({} leaves/s)",
            grouped(total),
            grouped(per_second(total, secs))
        );
    }
    Ok(())
}

/// `"3 5 2; 1 1 4"`: the values of each roll in turn.
pub(crate) fn parse_rolls(text: &str) -> Result<Vec<Vec<i32>>> {
    let mut rolls = Vec::new();
    for (i, entry) in text.split(';').enumerate() {
        let entry = entry.trim();
        if entry.is_empty() {
            continue;
        }
        let values: std::result::Result<Vec<i32>, _> =
            entry.split_whitespace().map(str::parse::<i32>).collect();
        match values {
            Ok(v) => rolls.push(v),
            Err(_) => {
                return Err(CliError::new(format!(
                    "roll {} in `--rolls` is `{entry}`, not a list of numbers",
                    i + 1
                ))
                .note("give each roll as its values separated by spaces, rolls separated by `;`: --rolls \"3 5 2; 1 1 4\"")
                .into())
            }
        }
    }
    Ok(rolls)
}

pub(crate) fn roll_error(e: RollError) -> super::Fail {
    CliError::new(format!("cannot count with these rolls: {e}"))
        .note("give one roll per turn that any line of play reaches, in order: --rolls \"3 5 2; 1 1 4\"")
        .into()
}

/// The outcome among a chance point's moves that rolls `rolls[index]`.
fn roll_outcome(
    engine: &mut Engine<'_>,
    moves: &[Move],
    rolls: &[Vec<i32>],
    index: usize,
) -> Result<Move> {
    let values = rolls
        .get(index)
        .ok_or_else(|| roll_error(RollError::OutOfRolls { needed: index + 1 }))?;
    outcome(engine, moves, values).ok_or_else(|| roll_error(RollError::NotAnOutcome { index }))
}
