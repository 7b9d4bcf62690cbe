//! `rulestone moves`: every legal move of a position, in notation and generation order, for
//! any kind of game (through the one engine interface, [`Game`]).

use clap::Args;

use crate::runtime::{Compiled, Game, GameResult};

use serde_json::json;

use super::any::{with_game, Games, OnGame};
use super::listing;
use super::load::split_moves;
use super::{emit, json_text, Format, GameArgs, PositionArgs, Result};

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

    /// How to report: `text` (one move per line), or `json` (one object: the game, options,
    /// position, the player to move, the result once over, and the moves).
    #[arg(long, value_enum, default_value_t = Format::Text)]
    pub format: Format,
}

pub(crate) fn run(args: &MovesArgs, compiled: Compiled) -> Result<()> {
    let after = args.position.after.as_deref();
    with_game(&args.game, after, compiled, List { args })
}

/// Prints the open decisions of any game, one per line, or says that it is over.
struct List<'a> {
    args: &'a MovesArgs,
}

impl OnGame for List<'_> {
    type Output = ();

    fn run<G: Game>(self, games: &Games<'_, G>) -> Result<()> {
        let mut game = (games.start)(games.deal)?;
        if game.out_of_steps() {
            // Nothing to show: `with_game` ends the command with E1008.
            return Ok(());
        }
        let shown = match self.args.format {
            Format::Text => list(&mut game, games.kind, self.args),
            Format::Json => emit(&json_text(&report(&mut game, games, self.args))),
        };
        super::warn_dropped(game.dropped_moves());
        shown
    }
}

/// The position and its open decisions as one JSON object.
fn report<G: Game>(game: &mut G, games: &Games<'_, G>, args: &MovesArgs) -> serde_json::Value {
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
    json!({
        "game": games.name,
        "options": options,
        "after": after.unwrap_or_default(),
        "to_move": game.player_name(game.to_move()),
        "result": result,
        "moves": shown_moves(game, args),
    })
}

/// The open decisions that `--from` keeps.
fn shown_moves<G: Game>(game: &mut G, args: &MovesArgs) -> Vec<String> {
    let open = game.decisions_text();
    match &args.from {
        Some(prefix) => listing::starting_with(&open, prefix)
            .into_iter()
            .cloned()
            .collect(),
        None => open,
    }
}

fn list<G: Game>(game: &mut G, what: &str, args: &MovesArgs) -> Result<()> {
    let open = shown_moves(game, args);
    if args.group {
        return emit(&listing::groups_text(&listing::groups(&open)));
    }
    if open.is_empty() {
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
