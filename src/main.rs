//! The `rulestone` binary: parses the command line and hands it to [`rulestone::cli::run`].

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = rulestone::cli::Cli::parse();
    rulestone::cli::run(cli).into()
}
