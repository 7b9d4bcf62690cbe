//! `rulestone moves`: every legal move of a position, in notation and generation order, for
//! any kind of game (through the one engine interface, [`Game`]).

use clap::Args;

use crate::runtime::{Compiled, Game, GameResult};

use super::any::{with_game, Games, OnGame};
use super::{emit, GameArgs, PositionArgs, Result};

#[derive(Clone, Debug, Args)]
pub struct MovesArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub position: PositionArgs,
}

pub(crate) fn run(args: &MovesArgs, compiled: Compiled) -> Result<()> {
    with_game(&args.game, args.position.after.as_deref(), compiled, List)
}

/// Prints the open decisions of any game, one per line, or says that it is over.
struct List;

impl OnGame for List {
    type Output = ();

    fn run<G: Game>(self, games: &Games<'_, G>) -> Result<()> {
        let mut game = (games.start)(games.deal)?;
        list(&mut game, games.kind)
    }
}

fn list<G: Game>(game: &mut G, what: &str) -> Result<()> {
    let open = game.decisions_text();
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
