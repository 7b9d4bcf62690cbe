//! The `rulestone` binary: [`rulestone::cli::main`] with the interpreter for every game.

use std::process::ExitCode;

fn main() -> ExitCode {
    rulestone::cli::main()
}
