//! Why a checked game cannot be lowered for a set of option values: a board the options make
//! unusable (the checker's [`ConfigureError`]), or a limit of the IR or the runtime
//! ([`BuildError`], each with a stable code, the number found and the limit). Both are passed
//! on as they are; the lowering only points a limit at what it was lowering.

use miette::Diagnostic;
use thiserror::Error;

use rulestone_base::Span;
use rulestone_check::error::ConfigureError;
use rulestone_ir::BuildError;

/// A lowering failure.
#[derive(Clone, Debug, PartialEq, Eq, Error, Diagnostic)]
pub enum LowerError {
    /// A limit of the board for these option values, found by the checker.
    #[error(transparent)]
    #[diagnostic(transparent)]
    Configure(#[from] ConfigureError),

    /// A limit of the program, or a construct the checker should have refused (E0999).
    #[error(transparent)]
    #[diagnostic(transparent)]
    Build(#[from] BuildError),
}

impl LowerError {
    /// A construct the checker should have rejected: a bug, reported as E0999.
    pub(crate) fn internal(message: impl Into<String>) -> LowerError {
        LowerError::Build(BuildError::internal(message))
    }

    /// Points the error at `span` unless an inner expression already did.
    #[must_use]
    pub fn at(self, span: Span) -> LowerError {
        match self {
            LowerError::Build(e) => LowerError::Build(e.at(span)),
            configure @ LowerError::Configure(_) => configure,
        }
    }
}
