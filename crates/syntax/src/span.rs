//! Names with where they were written; spans themselves are [`rulestone_base::Span`], shared
//! with the stages that report problems in a game file.

pub use rulestone_base::Span;

/// A name as written, with where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}
