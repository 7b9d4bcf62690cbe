//! Limits every stage agrees on: the checker refuses a game past them, and the IR and the
//! runtime size their tables by them.

/// The most cells a board may have: the engine's cell sets hold this many.
pub const MAX_CELLS: usize = 1024;
