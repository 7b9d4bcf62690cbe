//! Rulestone: a rules language, checker, compiler and generic runtime for two-player board games.
//!
//! Data flows one way through the stages; each stage has its own types:
//!
//! ```text
//!  .game text ──parse──▶ syntax::ast::File ──check──▶ check::Checked ──lower──▶ ir::Program
//!   (syntax)              (spans, names)     (diag)    (resolved, typed)  (ir)   (dense tables,
//!                                                                                 bytecode)
//!                                                            runtime::Engine ◀──────┘
//!                                          (state, legal moves, apply/undo, perft, playouts)
//! ```
//!
//! Optionally, `runtime::codegen` translates a `Program`'s move generation into Rust that
//! `rulestone compile` builds into a faster binary; engines use it only for the exact program
//! it was generated from (`runtime::compiled`).
//!
//! `cli` is the only module that touches files or the terminal; the stages are pure.

pub mod check;
pub mod cli;
pub mod diag;
pub mod ir;
pub mod runtime;
pub mod syntax;

pub use check::check;
pub use ir::lower;
pub use syntax::parse;

/// Why a game source could not be turned into a program.
#[derive(Debug)]
pub enum CompileError {
    /// Syntax or checker diagnostics (at least one is an error).
    Diagnostics(Vec<diag::Diag>),
    Option(check::options::OptionError),
    Lower(ir::LowerError),
}

impl std::fmt::Display for CompileError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CompileError::Diagnostics(d) => {
                let codes: Vec<String> = d
                    .iter()
                    .map(|d| d.code().map_or_else(|| d.to_string(), |c| c.to_string()))
                    .collect();
                write!(f, "the game has errors: {}", codes.join(", "))
            }
            CompileError::Option(e) => e.fmt(f),
            CompileError::Lower(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for CompileError {}

/// All stages in one call: source text and `NAME=VALUE` option settings to a runnable program.
///
/// # Errors
/// Diagnostics with at least one error, a bad option, or a board the options make unusable.
pub fn compile(source: &str, options: &[(String, String)]) -> Result<ir::Program, CompileError> {
    let file = parse(source).map_err(|errors| {
        CompileError::Diagnostics(
            errors
                .into_iter()
                .map(|e| Box::new(e) as diag::Diag)
                .collect(),
        )
    })?;
    let (checked, diags) = check(&file);
    let Some(checked) = checked else {
        return Err(CompileError::Diagnostics(diags));
    };
    let env = check::options::resolve(&checked.file, options).map_err(CompileError::Option)?;
    lower(&checked, &env).map_err(CompileError::Lower)
}
