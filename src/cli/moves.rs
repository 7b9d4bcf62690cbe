//! `rulestone moves`: every legal move of a position, in notation and generation order, for
//! any kind of game (through the one engine interface, [`Game`]).

use std::time::Instant;

use clap::Args;

use crate::runtime::{Compiled, Game, GameResult};

use serde_json::json;

use super::any::{with_game, Games, OnGame};
use super::listing;
use super::load::split_moves;
use super::{emit, json_text, Bound, Format, GameArgs, PositionArgs, Result};

#[derive(Clone, Debug, Args)]
pub struct MovesArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub position: PositionArgs,

    /// Only the moves whose notation starts with this text (letter case and extra spaces
    /// ignored): `--from d6`, `--from "m4 c6"`.
    #[arg(long, value_name = "TEXT")]
    pub from: Option<String>,

    /// The moves in groups by their first parts, one line each with its count, instead of
    /// every move (with `--from`, the groups of the moves it keeps).
    #[arg(long)]
    pub group: bool,

    /// Write at most N moves (the first N in generation order, before `--from` and `--group`
    /// pick among them), then stop: a note on standard error says how many moves the position
    /// has, and the exit status is 3. For a position with more moves than you want to read.
    #[arg(long, value_name = "N", value_parser = super::max_nodes, allow_negative_numbers = true)]
    pub max_nodes: Option<u64>,

    /// Stop putting moves in notation once this many seconds have passed (e.g. `0.5`): the
    /// moves written by then are shown, a note says the limit stopped the list, and the exit
    /// status is 3. Generating one position's moves is itself bounded by the step limit
    /// (E1008), so this bounds the rest of the work a long list takes.
    #[arg(long, value_name = "SECONDS", value_parser = super::time_limit, allow_negative_numbers = true)]
    pub time_limit: Option<std::time::Duration>,

    /// How to report: `text` (one move per line), or `json` (one object: the game, options,
    /// position, the player to move, the result once over, and the moves).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub(crate) fn run(args: &MovesArgs, compiled: Compiled) -> Result<()> {
    let after = args.position.after.as_deref();
    let deadline = args.time_limit.map(|limit| Instant::now() + limit);
    with_game(&args.game, after, compiled, List { args, deadline })
}

/// Prints the open decisions of any game, one per line, or says that it is over.
struct List<'a> {
    args: &'a MovesArgs,
    /// When `--time-limit` stops the list.
    deadline: Option<Instant>,
}

impl OnGame for List<'_> {
    type Output = ();

    fn run<G: Game>(self, games: &Games<'_, G>) -> Result<()> {
        let mut game = (games.start)(games.deal)?;
        if game.out_of_steps() {
            // Nothing to show: `with_game` ends the command with E1008.
            return Ok(());
        }
        let written = in_notation(&mut game, self.args, self.deadline);
        let shown = match self.args.format {
            Format::Text => list(&mut game, games.kind, self.args, &written),
            Format::Json => emit(&json_text(&report(&mut game, games, self.args, &written))),
        };
        super::warn_dropped(game.dropped_moves());
        shown?;
        match written.stopped {
            Some(bound) => {
                eprintln!(
                    "note: stopped by {}: {} of {} written",
                    bound.flag(),
                    written.texts.len(),
                    super::plural(written.total, "move")
                );
                Err(super::Fail::Stopped)
            }
            None => Ok(()),
        }
    }
}

/// The position and its open decisions as one JSON object.
fn report<G: Game>(
    game: &mut G,
    games: &Games<'_, G>,
    args: &MovesArgs,
    written: &Written,
) -> serde_json::Value {
    let options: serde_json::Map<String, serde_json::Value> = games
        .option_values
        .iter()
        .map(|(k, v)| (k.clone(), json!(v)))
        .collect();
    let result = game.outcome().map(|r| match r {
        GameResult::Win(p) => format!("{} wins", game.player_name(p)),
        GameResult::Draw => "draw".to_string(),
    });
    let after = args.position.after.as_deref().map(split_moves);
    let mut report = json!({
        "game": games.name,
        "options": options,
        "after": after.unwrap_or_default(),
        "to_move": game.player_name(game.to_move()),
        "result": result,
        "moves": shown_moves(written, args),
    });
    if let (Some(bound), Some(fields)) = (written.stopped, report.as_object_mut()) {
        fields.insert("stopped_by".to_string(), bound.json());
        fields.insert("moves_in_all".to_string(), json!(written.total));
    }
    report
}

/// The position's moves in notation, as far as the bounds let them be written.
struct Written {
    texts: Vec<String>,
    /// How many moves the position has.
    total: usize,
    /// The bound that stopped the writing, if one did.
    stopped: Option<Bound>,
}

/// Moves between two looks at the clock.
const CLOCK_EVERY: usize = 256;

/// Puts the open decisions in notation, in generation order, until `--max-nodes` of them are
/// written or the deadline passes (looked at every [`CLOCK_EVERY`] moves).
fn in_notation<G: Game>(game: &mut G, args: &MovesArgs, deadline: Option<Instant>) -> Written {
    let max = args
        .max_nodes
        .map_or(usize::MAX, |n| usize::try_from(n).unwrap_or(usize::MAX));
    let mut decisions = Vec::new();
    if game.has_continuous_decisions() || !game.decisions(&mut decisions) {
        // Ranges of continuous decisions: a few lines, nothing to bound but their number.
        let mut texts = game.decisions_text();
        let total = texts.len();
        texts.truncate(max);
        let stopped = (total > max).then(|| Bound::Nodes(args.max_nodes.unwrap_or_default()));
        return Written {
            texts,
            total,
            stopped,
        };
    }
    let total = decisions.len();
    let mut texts = Vec::with_capacity(total.min(max));
    let mut stopped = None;
    for (i, d) in decisions.iter().enumerate() {
        if i == max {
            stopped = Some(Bound::Nodes(args.max_nodes.unwrap_or_default()));
            break;
        }
        let late = i % CLOCK_EVERY == 0 && deadline.is_some_and(|d| Instant::now() >= d);
        if late {
            stopped = Some(Bound::Time(args.time_limit.unwrap_or_default()));
            break;
        }
        texts.push(game.text(d));
    }
    Written {
        texts,
        total,
        stopped,
    }
}

/// The open decisions that `--from` keeps.
fn shown_moves(written: &Written, args: &MovesArgs) -> Vec<String> {
    match &args.from {
        Some(prefix) => listing::starting_with(&written.texts, prefix)
            .into_iter()
            .cloned()
            .collect(),
        None => written.texts.clone(),
    }
}

fn list<G: Game>(game: &mut G, what: &str, args: &MovesArgs, written: &Written) -> Result<()> {
    let open = shown_moves(written, args);
    if args.group {
        return emit(&listing::groups_text(&listing::groups(&open)));
    }
    if open.is_empty() && written.total == 0 {
        if let Some(r) = game.outcome() {
            let result = match r {
                GameResult::Win(p) => format!("{} wins", game.player_name(p)),
                GameResult::Draw => "draw".to_string(),
            };
            eprintln!("note: the {what} is over: {result}");
        }
        return Ok(());
    }
    let mut out = String::new();
    for text in open {
        out.push_str(&text);
        out.push('\n');
    }
    emit(&out)
}
