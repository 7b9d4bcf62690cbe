//! Analyses and optimisations on the IR, one per file, each a function from a [`Program`]'s
//! tables (and one program's ops) to their improved or annotated form. The lowering calls them;
//! each is tested on its own, on small programs.
//!
//! [`Program`]: crate::Program

pub mod axis_filter;
pub mod decisions;
pub mod endless;
pub mod loop_memo;
pub mod replay_lets;
pub mod set_order;
pub mod static_where;
