//! Why a program cannot be written: a limit of the IR or the runtime (each with a stable code,
//! the number found and the limit). The lowering reports these with the span of what it was
//! lowering, and `check` runs the lowering (for the defaults, for each option's extreme values
//! and for `check --set`), so they reach a designer from `check`.
//!
//! `Internal` is the one variant no valid input should reach: a construct the checker should
//! have rejected. It is a bug in Rulestone, reported as such.

use miette::Diagnostic;
use thiserror::Error;

use rulestone_base::Span;

/// A program past a limit; `span` is filled in by the innermost expression, statement or
/// declaration being lowered when it happened (see [`BuildError::at`]).
#[derive(Clone, Debug, PartialEq, Eq, Error, Diagnostic)]
pub enum BuildError {
    #[error("a turn program uses {found} picked cells and repeats; at most {max} fit in a move")]
    #[diagnostic(
        code(E1001),
        help("a move records each picked cell and each running `repeat` or `while`; pick fewer cells in one turn, or reuse a variable's name")
    )]
    TooManyTurnVariables {
        found: usize,
        max: usize,
        #[label("this one is past the limit")]
        span: Option<Span>,
    },

    #[error("the game names {found} sets with `let`; at most {max} are allowed")]
    #[diagnostic(
        code(E1002),
        help("reuse a `let` name, or write the set where it is used")
    )]
    TooManySetLocals {
        found: usize,
        max: usize,
        #[label("this `let` is past the limit")]
        span: Option<Span>,
    },

    #[error("a turn binds {found} `place` variables; at most {max} are allowed")]
    #[diagnostic(code(E1003), help("reuse a `place` variable's name"))]
    TooManyPlaceVariables {
        found: usize,
        max: usize,
        #[label("this `place` is past the limit")]
        span: Option<Span>,
    },

    #[error("a repeat runs up to {found} times; at most {max} are allowed")]
    #[diagnostic(
        code(E1004),
        help("use `while` for a loop that runs until a condition fails")
    )]
    RepeatTooLong {
        found: i64,
        max: i64,
        #[label("too many rounds")]
        span: Option<Span>,
    },

    #[error("this `while` never ends: {why}")]
    #[diagnostic(
        code(E1006),
        help(
            "a `while` stops after {max} rounds, dropping the move it was building; change \
             something its condition reads in its body, or write the loop as `repeat`"
        )
    )]
    EndlessWhile {
        why: &'static str,
        max: u32,
        #[label("this loop")]
        span: Option<Span>,
    },

    #[error(
        "these nested loops run at least {found} rounds wherever they are reached; listing one \
         position's moves takes at most {max} steps"
    )]
    #[diagnostic(
        code(E1009),
        help(
            "every round of a `repeat` is a step of move generation, and nested loops multiply \
             their rounds; lower the `repeat`s' lower bounds or nest fewer of them"
        )
    )]
    NestedRoundsTooMany {
        found: u64,
        max: u64,
        #[label("the innermost loop")]
        span: Option<Span>,
    },

    #[error("a move of this turn may need {found} decisions; a move holds at most {max}")]
    #[diagnostic(
        code(E1007),
        help(
            "each `pick` (two on a board of more than 256 cells), `either`/`first` branch, \
             `place` (two) and each round a `repeat` may stop or go on is a decision; lower a \
             `repeat`'s upper bound or choose less per round"
        )
    )]
    TooManyDecisions {
        found: u64,
        max: usize,
        #[label("this turn")]
        span: Option<Span>,
    },

    #[error("the game needs {found} {what}; at most {max} are allowed")]
    #[diagnostic(
        code(E1005),
        help("the runtime numbers these in tables of fixed width; make the game smaller here")
    )]
    TableTooLarge {
        what: &'static str,
        found: u64,
        max: u64,
        #[label("past the limit here")]
        span: Option<Span>,
    },

    #[error("internal error: {message}")]
    #[diagnostic(
        code(E0999),
        help(
            "this is a bug in Rulestone: the checker accepted something the lowering cannot \
             build; please report it with the game file"
        )
    )]
    Internal {
        message: String,
        #[label("while lowering this")]
        span: Option<Span>,
    },
}

impl BuildError {
    /// A construct the checker should have rejected.
    pub fn internal(message: impl Into<String>) -> BuildError {
        BuildError::Internal {
            message: message.into(),
            span: None,
        }
    }

    /// A table of the IR or the runtime past its limit (`E1005`): `found` entries, `max` fit.
    pub fn too_large(what: &'static str, found: usize, max: u64) -> BuildError {
        let found = found as u64;
        BuildError::TableTooLarge {
            what,
            found,
            max,
            span: None,
        }
    }

    /// Points the error at `span` unless an inner expression already did.
    #[must_use]
    pub fn at(mut self, span: Span) -> BuildError {
        let slot = self.span_mut();
        if slot.is_none() {
            *slot = Some(span);
        }
        self
    }

    fn span_mut(&mut self) -> &mut Option<Span> {
        match self {
            BuildError::TooManyTurnVariables { span, .. }
            | BuildError::TooManySetLocals { span, .. }
            | BuildError::TooManyPlaceVariables { span, .. }
            | BuildError::RepeatTooLong { span, .. }
            | BuildError::EndlessWhile { span, .. }
            | BuildError::NestedRoundsTooMany { span, .. }
            | BuildError::TooManyDecisions { span, .. }
            | BuildError::TableTooLarge { span, .. }
            | BuildError::Internal { span, .. } => span,
        }
    }
}
