//! What every stage of Rulestone shares and nothing else: byte spans into a game file, decimal
//! numbers as the language writes them, the limits the checker and the engine agree on, and the
//! hasher of keys that are hashes already.
//!
//! The bottom of the workspace: it depends on no other Rulestone crate, and only on `miette`
//! (so that a span can label a diagnostic).

pub mod decimal;
pub mod hash;
pub mod limits;
pub mod span;

pub use limits::MAX_CELLS;
pub use span::Span;
