//! The bundled games' move generation, compiled into every front end (the command line,
//! `rulestone serve` and the Python package), so that they run at compiled speed with no
//! build step of the user's.
//!
//! The code is not written here: the build script runs the code generator on every `.game`
//! file of the repository's `games/` directory (every combination of each game's enum
//! options, then each preset) when Rulestone is built, exactly as `rulestone compile --module`
//! would. A program is run by this code only when its fingerprint matches
//! ([`Compiled::backend_for`]), so a changed game file, other option values or any other game
//! run on the interpreter.

use rulestone_runtime::Compiled;

#[allow(
    unused,
    unused_comparisons,
    clippy::all,
    clippy::pedantic,
    clippy::nursery,
    clippy::unwrap_used
)]
mod games {
    include!(concat!(env!("OUT_DIR"), "/games.rs"));
}

/// The bundled games' compiled generators, for [`Compiled::backend_for`].
pub const BUNDLED: Compiled = Compiled::new(&games::TURNS);

/// Labels of the programs compiled in, in order (a game and the enum options set).
#[must_use]
pub fn labels() -> Vec<&'static str> {
    BUNDLED.turns().iter().map(|t| t.label).collect()
}
