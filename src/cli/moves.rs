//! `rulestone moves`: every legal move of a position, in notation and generation order, for
//! any kind of game (through the one engine interface, [`Game`]).

use clap::Args;

use crate::runtime::{BoardGame, Compiled, Game, GameResult};

use super::load::{load, play_list};
use super::{emit, GameArgs, PositionArgs, Result};

#[derive(Clone, Debug, Args)]
pub struct MovesArgs {
    #[command(flatten)]
    pub game: GameArgs,
    #[command(flatten)]
    pub position: PositionArgs,
}

pub(crate) fn run(args: &MovesArgs, compiled: Compiled) -> Result<()> {
    if super::table::is_table(&args.game.file) {
        let t = super::table::load(&args.game)?;
        let mut m = super::table::start(&t, args.game.deal, args.position.after.as_deref())?;
        return list(&mut m, "match");
    }
    let loaded = load(&args.game, compiled)?;
    let mut engine = loaded.engine();
    if let Some(after) = &args.position.after {
        play_list(&mut engine, after, "`--after`")?;
    }
    list(&mut BoardGame::new(engine), "game")
}

/// Prints the open decisions of any game, one per line, or says that it is over.
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
