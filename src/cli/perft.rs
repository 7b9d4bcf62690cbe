//! `rulestone perft`: the number of move sequences of a given length, optionally per first move.

use crate::runtime::Compiled;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};

use crate::runtime::perft::{
    outcome, perft, perft_with_rolls, Bounded, Budget, Exceeded, RollError, Stop,
};
use crate::runtime::{Engine, Move};

use serde_json::json;

use super::load::{load, normalize, play_list, split_moves};
use super::{
    emit, grouped, json_text, per_second, stderr_is_tty, Bound, CliError, Format, GameArgs,
};
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

    /// Count at most N leaves, then stop and report what was finished (exit status 3).
    ///
    /// With a bound (this or `--time-limit`) the depths are counted in turn, 1 to `--depth`,
    /// so that a stop still gives every depth finished; N bounds the leaves of all of them
    /// together (the shallower depths add a small fraction to the last one's). The report says which bound stopped the count, the count of each finished
    /// depth, and how far the unfinished one got (its leaves so far and its first moves
    /// finished). Without a bound nothing changes: one count of the depth asked.
    #[arg(long, value_name = "N", value_parser = super::max_nodes, allow_negative_numbers = true)]
    pub max_nodes: Option<u64>,

    /// Stop counting once this many seconds have passed (e.g. `2.5`, at most a few
    /// milliseconds late) and report what was finished (exit status 3), as with
    /// `--max-nodes`.
    #[arg(long, value_name = "SECONDS", value_parser = super::time_limit, allow_negative_numbers = true)]
    pub time_limit: Option<Duration>,

    /// How to report: `text` (the `--divide` lines, then the count), or `json` (one object:
    /// the game, options, position, depth, count, the counts per first move with `--divide`,
    /// and the time).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
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
    let counted = count(args, &mut engine, chance.then_some(&rolls[..]), start);
    let (total, divided) = match counted? {
        Counted::Done { total, divided } => (total, divided),
        Counted::Stopped(partial) => {
            loaded.steps_ok()?;
            return report_stop(args, &partial, &loaded.program, start);
        }
    };
    let divided: Vec<(String, u64)> = if args.divide { divided } else { Vec::new() };
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

/// The count the arguments ask for, bounded when they give a bound, with a spinner while it
/// runs; `rolls` in a game with chance.
fn count(
    args: &PerftArgs,
    engine: &mut Engine<'_>,
    rolls: Option<&[Vec<i32>]>,
    start: Instant,
) -> Result<Counted> {
    let (first, used) = first_moves(engine, rolls, args.depth)?;
    let bar = spinner(args.depth).filter(|_| args.depth > 0);
    let counted = if args.max_nodes.is_some() || args.time_limit.is_some() {
        let bounds = Budget {
            leaves: args.max_nodes,
            deadline: args.time_limit.map(|limit| start + limit),
        };
        let mut count = Deepening {
            engine,
            first: &first,
            rolls: rolls.map(|r| r.get(used..).unwrap_or_default()),
            used,
            walk: Bounded::new(bounds),
            bar: bar.as_ref(),
        };
        count.depths(args.depth)
    } else {
        let rolls = rolls.map(|r| (r, used));
        count_plain(engine, &first, rolls, args.depth, bar.as_ref())
    };
    if let Some(bar) = bar {
        bar.finish_and_clear();
    }
    counted
}

/// Prints what a count stopped by a bound had finished; the command then exits with 3.
fn report_stop(
    args: &PerftArgs,
    partial: &Partial,
    program: &crate::ir::Program,
    start: Instant,
) -> Result<()> {
    let bound = match partial.why {
        Exceeded::Leaves => Bound::Nodes(args.max_nodes.unwrap_or_default()),
        Exceeded::Time => Bound::Time(args.time_limit.unwrap_or_default()),
    };
    let out = match args.format {
        Format::Text => partial.text(bound, args.divide),
        Format::Json => json_text(&partial.json(bound, args, program, start)),
    };
    emit(&out)?;
    Err(super::Fail::Stopped)
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

/// The first moves of the count: the position's moves, after the rolls it awaits if any (taken
/// from the first of `rolls`, given in a game with chance, one for each chance point that
/// follows the one before); with the number of rolls so used.
fn first_moves(
    engine: &mut Engine<'_>,
    rolls: Option<&[Vec<i32>]>,
    depth: u32,
) -> Result<(Vec<Move>, usize)> {
    let mut first: Vec<Move> = Vec::new();
    if depth == 0 {
        return Ok((first, 0));
    }
    engine.legal_moves(&mut first);
    let mut used = 0;
    if let Some(rolls) = rolls {
        while engine.chance() && !first.is_empty() {
            let m = roll_outcome(engine, &first, rolls, used)?;
            let _ = engine.apply(&m);
            engine.legal_moves(&mut first);
            used += 1;
        }
    }
    Ok((first, used))
}

/// A count that finished, or how far a bounded one got.
enum Counted {
    Done {
        total: u64,
        divided: Vec<(String, u64)>,
    },
    Stopped(Partial),
}

/// What a count stopped by a bound had finished.
struct Partial {
    why: Exceeded,
    /// The counts of depths 1, 2, ... that were finished.
    finished: Vec<u64>,
    /// The depth being counted when the bound stopped it.
    depth: u32,
    /// Its leaves counted so far.
    leaves: u64,
    /// Its first moves finished, with their counts.
    divided: Vec<(String, u64)>,
    /// Its first moves in all.
    first_moves: usize,
}

impl Partial {
    fn text(&self, bound: Bound, divide: bool) -> String {
        let mut out = String::new();
        if divide {
            for (text, n) in &self.divided {
                let _ = writeln!(out, "{text}: {n}");
            }
        }
        for (d, n) in self.finished.iter().enumerate() {
            let _ = writeln!(out, "depth {}: {n}", d + 1);
        }
        let _ = writeln!(
            out,
            "depth {}: unfinished, {} {} counted so far ({} of {} first moves finished)",
            self.depth,
            self.leaves,
            if self.leaves == 1 { "leaf" } else { "leaves" },
            self.divided.len(),
            self.first_moves
        );
        let _ = writeln!(
            out,
            "perft stopped by {} at depth {}: the counts above are all it finished",
            bound.flag(),
            self.depth
        );
        out
    }

    fn json(
        &self,
        bound: Bound,
        args: &PerftArgs,
        program: &crate::ir::Program,
        start: Instant,
    ) -> serde_json::Value {
        let finished: Vec<serde_json::Value> = self
            .finished
            .iter()
            .enumerate()
            .map(|(d, n)| json!({ "depth": d + 1, "nodes": n }))
            .collect();
        let divide: Vec<serde_json::Value> = self
            .divided
            .iter()
            .map(|(text, n)| json!({ "move": text, "nodes": n }))
            .collect();
        let after = args.position.after.as_deref().map(split_moves);
        let options: serde_json::Map<String, serde_json::Value> = program
            .options
            .iter()
            .map(|(k, v)| (k.clone(), json!(v)))
            .collect();
        json!({
            "game": program.name,
            "options": options,
            "after": after.unwrap_or_default(),
            "depth": args.depth,
            "nodes": null,
            "stopped_by": bound.json(),
            "finished_depths": finished,
            "unfinished": {
                "depth": self.depth,
                "leaves_so_far": self.leaves,
                "first_moves_finished": self.divided.len(),
                "first_moves": self.first_moves,
            },
            "divide": args.divide.then_some(divide),
            "seconds": start.elapsed().as_secs_f64(),
        })
    }
}

/// The count without bounds: each first move's subtree at the depth asked, on compiled code
/// when there is some.
fn count_plain(
    engine: &mut Engine<'_>,
    first: &[Move],
    rolls: Option<(&[Vec<i32>], usize)>,
    depth: u32,
    bar: Option<&ProgressBar>,
) -> Result<Counted> {
    if depth == 0 {
        return Ok(Counted::Done {
            total: perft(engine, 0),
            divided: Vec::new(),
        });
    }
    let mut divided = Vec::with_capacity(first.len());
    for (i, m) in first.iter().enumerate() {
        let text = normalize(&engine.move_text(m));
        if let Some(bar) = bar {
            bar.set_message(format!("move {}/{} {text}", i + 1, first.len()));
        }
        let undo = engine.apply(m);
        let n = match rolls {
            Some((rolls, used)) => perft_with_rolls(engine, depth - 1, &rolls[used..])
                .map_err(|e| roll_error(shifted(e, used))),
            None => Ok(perft(engine, depth - 1)),
        };
        engine.undo(undo);
        divided.push((text, n?));
    }
    Ok(Counted::Done {
        total: divided.iter().map(|(_, n)| n).sum(),
        divided,
    })
}

/// A roll error of a line that started after `used` rolls, numbered from the count's start.
fn shifted(e: RollError, used: usize) -> RollError {
    match e {
        RollError::OutOfRolls { needed } => RollError::OutOfRolls {
            needed: needed + used,
        },
        RollError::NotAnOutcome { index } => RollError::NotAnOutcome {
            index: index + used,
        },
    }
}

/// A bounded count: depths 1 to the one asked in turn (each costs a fraction of the next), all
/// within one budget, so that a stop still reports every depth it finished.
struct Deepening<'e, 'p, 'b> {
    engine: &'e mut Engine<'p>,
    first: &'e [Move],
    /// The rolls left after the first moves' own, in a game with chance.
    rolls: Option<&'e [Vec<i32>]>,
    used: usize,
    walk: Bounded,
    bar: Option<&'b ProgressBar>,
}

impl Deepening<'_, '_, '_> {
    fn depths(&mut self, depth: u32) -> Result<Counted> {
        if depth == 0 {
            // The position itself: one leaf, within any node bound (at least 1).
            return Ok(Counted::Done {
                total: 1,
                divided: Vec::new(),
            });
        }
        let mut finished = Vec::new();
        for d in 1..=depth {
            let start = self.walk.leaves;
            match self.depth(d)? {
                Ok(divided) => {
                    if d == depth {
                        let total = self.walk.leaves - start;
                        return Ok(Counted::Done { total, divided });
                    }
                    finished.push(self.walk.leaves - start);
                }
                Err((why, divided)) => {
                    return Ok(Counted::Stopped(Partial {
                        why,
                        finished,
                        depth: d,
                        leaves: self.walk.leaves - start,
                        divided,
                        first_moves: self.first.len(),
                    }))
                }
            }
        }
        Ok(Counted::Done {
            total: 0,
            divided: Vec::new(),
        })
    }

    /// One depth, first move by first move: their counts, or the bound that stopped it with
    /// the counts of the first moves finished.
    #[allow(clippy::type_complexity)]
    fn depth(
        &mut self,
        depth: u32,
    ) -> Result<std::result::Result<Vec<(String, u64)>, (Exceeded, Vec<(String, u64)>)>> {
        let mut divided = Vec::with_capacity(self.first.len());
        for (i, m) in self.first.iter().enumerate() {
            let text = normalize(&self.engine.move_text(m));
            if let Some(bar) = self.bar {
                bar.set_prefix(depth.to_string());
                bar.set_message(format!("move {}/{} {text}", i + 1, self.first.len()));
            }
            let undo = self.engine.apply(m);
            let n = match self.rolls {
                Some(rolls) => self.walk.count_with_rolls(self.engine, depth - 1, rolls),
                None => self.walk.count(self.engine, depth - 1).map_err(Stop::Bound),
            };
            self.engine.undo(undo);
            match n {
                Ok(n) => divided.push((text, n)),
                Err(Stop::Bound(why)) => return Ok(Err((why, divided))),
                Err(Stop::Rolls(e)) => return Err(roll_error(shifted(e, self.used))),
            }
        }
        Ok(Ok(divided))
    }
}
