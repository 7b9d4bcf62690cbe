//! Rulestone: a rules language, checker, compiler and generic runtime for two-player board games.
//!
//! This package is the command line (`cli`) on top of the stages, each a crate of its own under
//! `crates/` (see `docs/architecture.md`):
//!
//! ```text
//!  .game text ──parse──▶ syntax::ast::File ──check──▶ check::Checked ──lower──▶ ir::Program
//!   (rulestone-syntax)                       (rulestone-check)      (rulestone-lower)
//!                                                            runtime::Engine ◀──────┘
//!                                      (rulestone-runtime: state, legal moves, apply/undo,
//!                                                                     perft, playouts)
//! ```
//!
//! The stages are re-exported under their short names, so that `rulestone::runtime::Engine`
//! names the same type as `rulestone_runtime::Engine`. `cli` is the only module that touches
//! files or the terminal; the stages are pure.

pub mod cli;

pub use rulestone_agents as agents;
pub use rulestone_base as base;
pub use rulestone_check as check;
pub use rulestone_codegen as codegen;
pub use rulestone_diag as diag;
pub use rulestone_engine as engine;
pub use rulestone_ir as ir;
pub use rulestone_lower as lower;
pub use rulestone_lsp as lsp;
pub use rulestone_runtime as runtime;
pub use rulestone_server as server;
pub use rulestone_session as session;
pub use rulestone_syntax as syntax;

pub use rulestone_check::check;
pub use rulestone_lower::{
    build_parsed, compile, compile_parsed, compile_table_parsed, diagnose, lower, not_a_game_file,
    Built, CompileError,
};
/// What `rulestone check` reports on a file: the checker's and the lowering's diagnostics, then
/// what a few seeded random games meet ([`session::explore`]).
pub use rulestone_session::diagnose_file;
pub use rulestone_syntax::parse;
