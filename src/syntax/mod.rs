//! Stage 1: text → AST. Only this module knows pest; everything downstream sees `ast` types.

pub mod ast;
mod error;
pub mod format;
mod from_pairs;
pub mod keywords;
mod parser;
pub mod span;
mod table;

pub use error::SyntaxError;
pub use format::{format_source, FormatError};
pub use from_pairs::MAX_DEPTH;
pub use span::{Ident, Span};

/// Parses a `.game` source text into its syntax tree.
///
/// # Errors
/// Every syntax problem found, each with a code and a span.
pub fn parse(source: &str) -> Result<ast::File, Vec<SyntaxError>> {
    from_pairs::parse_file(source)
}

/// Parses a deck file: the `army` declarations a table game's players bring.
///
/// # Errors
/// Every syntax problem found, each with a code and a span.
pub fn parse_deck(source: &str) -> Result<Vec<ast::Army>, Vec<SyntaxError>> {
    table::parse_deck(source)
}
