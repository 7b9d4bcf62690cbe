//! `rulestone engine`: the engine protocol ([`rulestone_engine`]) on standard input and
//! output, for programs that drive a game and its agents.

use clap::Args;
use std::path::PathBuf;

use rulestone_session::Game;

use super::load::{self, shown, split_sets};
use super::{CliError, Result};
use crate::runtime::Compiled;

#[derive(Clone, Debug, Args)]
pub struct EngineArgs {
    /// The game file (`.game`).
    #[arg(value_name = "FILE")]
    pub file: PathBuf,

    /// Set an option the game declares, e.g. `--set size=5` (repeatable); `new` may set more.
    #[arg(long = "set", value_name = "NAME=VALUE")]
    pub set: Vec<String>,
}

/// Loads the game (its problems are reported as by every command, before any line is read),
/// then serves the protocol until the end of input or `quit`.
pub(crate) fn run(args: &EngineArgs, compiled: Compiled) -> Result<()> {
    let sets = split_sets(&args.set)?;
    let loaded = load::load_with(&args.file, &sets, compiled)?;
    let config = rulestone_engine::Config {
        name: shown(&args.file),
        source: loaded.source.clone(),
        sets,
        compiled,
    };
    let game = Game::new(&config.name, loaded.source, loaded.program, loaded.backend);
    let stdin = std::io::stdin();
    let mut input = stdin.lock();
    let mut output = std::io::stdout().lock();
    rulestone_engine::serve(&config, game, &mut input, &mut output)
        .map_err(|e| CliError::new(format!("engine: {e}")).into())
}
