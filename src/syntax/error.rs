//! Syntax diagnostics: pest's failures renamed into "expected `{`" style messages.

use miette::{Diagnostic, SourceSpan};
use thiserror::Error;

#[derive(Debug, Error, Diagnostic)]
pub enum SyntaxError {
    #[error("expected {expected}")]
    #[diagnostic(code(E0001), help("the language reference is grammar/README.md"))]
    Unexpected {
        expected: String,
        #[label("{found}")]
        span: SourceSpan,
        found: String,
    },

    #[error("integer literal `{text}` is too large")]
    #[diagnostic(
        code(E0002),
        help("integers must lie between -2147483648 and 2147483647")
    )]
    NumberTooLarge {
        text: String,
        #[label("does not fit in 32 bits")]
        span: SourceSpan,
    },

    #[error("unclosed `{open}`")]
    #[diagnostic(code(E0004), help("add `{close}` where the block or list ends"))]
    Unclosed {
        open: char,
        close: char,
        #[label("this `{open}` is never closed")]
        span: SourceSpan,
    },

    #[error("nesting deeper than {limit} levels")]
    #[diagnostic(
        code(E0005),
        help("brackets, blocks, `else if` chains, `not`s, unary `-`s and chained operators nest at most {limit} levels deep; drop redundant brackets and `not`s, or split the expression or the block")
    )]
    TooDeep {
        limit: usize,
        #[label("level {limit} is reached here")]
        span: SourceSpan,
    },

    #[error("unknown escape `{text}` in string")]
    #[diagnostic(
        code(E0003),
        help("the escapes are `\\\\`, `\\\"`, `\\{{`, `\\}}` and `\\n`")
    )]
    BadEscape {
        text: String,
        #[label("not an escape")]
        span: SourceSpan,
    },
}
