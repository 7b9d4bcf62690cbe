//! `rulestone dump`: an internal stage of a game, for debugging the pipeline.

use crate::runtime::Compiled;
use clap::{Args, ValueEnum};

use crate::ir;

use super::load::{load, parse};
use super::{emit, CliError, GameArgs, Result};

#[derive(Clone, Debug, Args)]
pub struct DumpArgs {
    /// The stage to print.
    #[arg(value_enum)]
    pub stage: Stage,
    #[command(flatten)]
    pub game: GameArgs,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub enum Stage {
    /// The syntax tree, straight from the parser (not checked; options do not apply).
    Ast,
    /// The lowered program the engine runs, for the given options, as text that
    /// `rulestone::ir::parse::parse` reads back into the same program.
    Ir,
}

pub(crate) fn run(args: &DumpArgs, compiled: Compiled) -> Result<()> {
    match args.stage {
        Stage::Ast => {
            if !args.game.set.is_empty() {
                return Err(CliError::new("`--set` has no effect on `dump ast`")
                    .note("options apply from lowering on: try `dump ir`")
                    .into());
            }
            let (_, file) = parse(&args.game.file)?;
            emit(&format!("{file:#?}\n"))
        }
        Stage::Ir => {
            let loaded = load(&args.game, compiled)?;
            emit(&ir::dump::dump(&loaded.program))
        }
    }
}
