//! Syntax diagnostics: pest's failures renamed into "expected `{`" style messages, or replaced
//! by their likelier cause (a misspelt keyword, a bracket left open), and the file that is no
//! game file at all.

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

    #[error("expected {what}, found `{word}`")]
    #[diagnostic(code(E0001), help("did you mean `{keyword}`?"))]
    MisspeltKeyword {
        /// "a statement" or "a declaration".
        what: &'static str,
        word: String,
        keyword: String,
        #[label(primary, "not a keyword")]
        span: SourceSpan,
        /// Where reading the word as the name of an assignment failed, if it was read so.
        #[label("an assignment `{word} = ...` would need `=` here")]
        assignment: Option<SourceSpan>,
    },

    #[error("`{found}` {what}")]
    #[diagnostic(code(E0001), help("write `{instead}`: {meaning}"))]
    ForeignOperator {
        found: &'static str,
        /// "is not an operator of this language", or what is wrong with it here.
        what: &'static str,
        instead: &'static str,
        /// What the operator written instead does.
        meaning: &'static str,
        #[label("did you mean `{instead}`?")]
        span: SourceSpan,
    },

    #[error("`{name}` is not a .game file")]
    #[diagnostic(
        code(E0006),
        help("rules are read from `.game` files, which begin with a declaration such as `game \"Name\"`; give only those, e.g. `games/*.game` rather than `games/*`")
    )]
    NotAGameFile {
        name: String,
        #[label("a `.game` file would begin with a declaration here")]
        span: SourceSpan,
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

    #[error("decimal number `{text}` cannot be represented")]
    #[diagnostic(
        code(E0008),
        help("decimal numbers have at most two decimal places and lie between -21474836.48 and 21474836.47")
    )]
    DecimalOutOfRange {
        text: String,
        #[label("too many decimal places or too large")]
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

    #[error("unclosed `{{`")]
    #[diagnostic(
        code(E0004),
        help("add `}}` where the block ends (the line marked is the first after the `{{` indented no deeper than the line of the `{{`)")
    )]
    UnclosedBefore {
        #[label("this `{{` opens a block")]
        open: SourceSpan,
        #[label(primary, "`}}` is likely missing before this line")]
        missing: SourceSpan,
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
