//! Stage 4: the generic runtime. Depends only on `ir`.

pub mod codegen;
pub mod compiled;
mod engine;
pub mod game;
mod moves;
pub mod perft;
pub mod physics;
pub mod playout;
mod state;
pub mod table;

pub use compiled::{Backend, BackendKind, Compiled};
pub use engine::{Engine, Refusal, Undo, MAX_REFUSALS};
pub use game::{BoardGame, Clock, Clocks, Game};
pub use moves::{Move, MAX_DECISIONS};
pub use state::{GameResult, State, Zobrist};
