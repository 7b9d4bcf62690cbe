//! Diagnostics shared by every stage: the boxed diagnostic type, the one renderer, and the
//! registry of stable codes with their long explanations.
//!
//! Stages define their problems as enums deriving `thiserror::Error` + `miette::Diagnostic`
//! (codes, labels and help live next to each message); this module only walks the
//! [`miette::Diagnostic`] trait, so it never needs to know which stage a problem came from.

pub mod codes;
pub mod render;
pub mod suggest;
pub mod visible;

pub use codes::{explain, CodeInfo, CODES};
pub use miette::Severity;
pub use render::{render, render_json};
pub use visible::escape;

/// One reported problem, of any stage.
pub type Diag = Box<dyn miette::Diagnostic + Send + Sync + 'static>;

/// The severity of a diagnostic; a diagnostic that states none is an error.
#[must_use]
pub fn severity(diag: &dyn miette::Diagnostic) -> Severity {
    diag.severity().unwrap_or(Severity::Error)
}

/// Whether any of the diagnostics is an error (warnings and advice do not count).
#[must_use]
pub fn has_errors(diags: &[Diag]) -> bool {
    diags
        .iter()
        .any(|d| severity(d.as_ref()) == Severity::Error)
}

/// The stable code of a diagnostic (`E0101`), if it has one.
#[must_use]
pub fn code_of(diag: &dyn miette::Diagnostic) -> Option<String> {
    diag.code().map(|c| c.to_string())
}

/// Boxes a list of errors of one stage, e.g. the parser's `Vec<SyntaxError>`.
#[must_use]
pub fn boxed<E>(errors: Vec<E>) -> Vec<Diag>
where
    E: miette::Diagnostic + Send + Sync + 'static,
{
    errors.into_iter().map(|e| Box::new(e) as Diag).collect()
}
