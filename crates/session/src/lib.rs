//! A game in play, for every front end (the command line, the `engine` protocol, and the
//! Python module and web server to come): a board game loaded from its text and option values
//! through `rulestone-lower`'s one pipeline ([`Game`]), a position with the moves that led to
//! it and undo ([`Position`]), legal moves with their notation, parts and action ids, a typed
//! move read by the rules `play` reads it by ([`notation::find_move`]), results as text, the
//! text drawing of a board ([`board`]) and game records to and from text ([`record`]), and
//! what `check` finds by playing a few seeded random games ([`explore`]).
//!
//! Invariants: no IO (no files, no terminal, no clock); nothing here names or special-cases a
//! game; every move id comes from [`actions::ActionSpace`], which is the same for a program in
//! every position and run, and gives two moves one id never.

pub mod actions;
pub mod board;
pub mod explore;
mod game;
pub mod notation;
pub mod observe;
pub mod record;

pub use actions::{ActionError, ActionSpace, ActionSpaceError, MAX_ACTIONS, MAX_JSON_ACTIONS};
pub use explore::diagnose_file;
pub use game::{BadAction, Game, LegalMove, LoadError, Position};
pub use notation::{BadMove, SameNotation};
pub use record::Record;
