//! The generic runtime: states, legal moves, apply and undo, perft and playouts over an IR
//! program. It depends on `rulestone-ir` (and `rulestone-base`) alone: no syntax tree, no
//! checker, no parser, no command line; generated code builds on it and nothing above.

/// The IR the runtime runs, for code that builds on the runtime alone (generated code).
pub use rulestone_ir as ir;

pub mod compiled;
mod engine;
pub mod game;
mod moves;
pub mod ops;
pub mod perft;
pub mod physics;
pub mod playout;
pub mod plugin;
mod state;
pub mod table;

pub use compiled::{Backend, BackendKind, Compiled};
pub use engine::{Engine, Refusal, RefusedBy, Undo, MAX_FAILURES, MAX_REFUSALS};
pub use game::{BoardGame, Clock, Clocks, Game};
pub use moves::{Move, MAX_DECISIONS};
pub use state::{GameResult, State, Zobrist};
