//! `rulestone moves`: every legal move of a position, in notation and generation order.

use crate::runtime::Compiled;
use clap::Args;

use super::load::{legal_with_text, load, play_list, result_text};
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
        return super::table::moves(&args.game, args.position.after.as_deref());
    }
    let loaded = load(&args.game, compiled)?;
    let mut engine = loaded.engine();
    if let Some(after) = &args.position.after {
        play_list(&mut engine, after, "`--after`")?;
    }
    let legal = legal_with_text(&mut engine);
    if legal.is_empty() {
        if let Some(r) = engine.outcome() {
            eprintln!(
                "note: the game is over: {}",
                result_text(&loaded.program, r)
            );
        }
        return Ok(());
    }
    let mut out = String::new();
    for (_, text) in legal {
        out.push_str(&text);
        out.push('\n');
    }
    emit(&out)
}
