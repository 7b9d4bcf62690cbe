//! Semantic tokens: every word coloured by what it names (each kind of declaration, built-ins,
//! keywords, locals), numbers, comments and string text, encoded as LSP's relative positions.
//!
//! Invariant: token types and modifiers are indices into [`legend`]; tokens never span lines
//! (the scanner ends comments and string pieces at the end of a line).

use lsp_types::{
    SemanticToken, SemanticTokenModifier, SemanticTokenType, SemanticTokens, SemanticTokensLegend,
};

use rulestone_check::builtins;
use rulestone_check::model::DeclKind;
use rulestone_syntax::Span;

use super::analysis::{is_builtin, Analysis};
use super::position::LineIndex;
use super::tokens::{Kind, Token};

/// The token types, in the order their indices refer to.
const TYPES: &[SemanticTokenType] = &[
    SemanticTokenType::KEYWORD,
    SemanticTokenType::NUMBER,
    SemanticTokenType::COMMENT,
    SemanticTokenType::STRING,
    SemanticTokenType::FUNCTION,
    SemanticTokenType::VARIABLE,
    SemanticTokenType::ENUM_MEMBER,
    SemanticTokenType::PROPERTY,
    SemanticTokenType::ENUM,
    SemanticTokenType::STRUCT,
    SemanticTokenType::NAMESPACE,
    SemanticTokenType::CLASS,
    SemanticTokenType::MACRO,
    SemanticTokenType::PARAMETER,
];

/// The modifiers, as bits in this order.
const MODIFIERS: &[SemanticTokenModifier] = &[
    SemanticTokenModifier::DECLARATION,
    SemanticTokenModifier::DEFAULT_LIBRARY,
];

const DECLARATION: u32 = 1;
const DEFAULT_LIBRARY: u32 = 2;

/// The token types and modifiers the server uses, for the `initialize` answer.
#[must_use]
pub fn legend() -> SemanticTokensLegend {
    SemanticTokensLegend {
        token_types: TYPES.to_vec(),
        token_modifiers: MODIFIERS.to_vec(),
    }
}

fn index(t: &SemanticTokenType) -> u32 {
    TYPES
        .iter()
        .position(|x| x == t)
        .and_then(|i| u32::try_from(i).ok())
        .unwrap_or(0)
}

fn type_of(kind: DeclKind) -> SemanticTokenType {
    match kind {
        DeclKind::Player | DeclKind::Word { .. } => SemanticTokenType::ENUM_MEMBER,
        DeclKind::Option { .. } => SemanticTokenType::PARAMETER,
        DeclKind::Direction => SemanticTokenType::PROPERTY,
        DeclKind::Relation { .. } => SemanticTokenType::ENUM,
        DeclKind::Pattern | DeclKind::Shape | DeclKind::Map => SemanticTokenType::STRUCT,
        DeclKind::Zone { .. } => SemanticTokenType::NAMESPACE,
        DeclKind::Piece => SemanticTokenType::CLASS,
        DeclKind::Counter { .. } | DeclKind::Layer | DeclKind::Token | DeclKind::Track => {
            SemanticTokenType::VARIABLE
        }
        DeclKind::Define { .. } => SemanticTokenType::MACRO,
        DeclKind::Procedure { .. } => SemanticTokenType::FUNCTION,
    }
}

/// What a word is: a type and modifier bits, or nothing (a cell name).
fn classify_word(a: &Analysis, t: &Token) -> Option<(SemanticTokenType, u32)> {
    let word = t.text(&a.source);
    let span = Span::new(t.start, t.end);
    let global = a.names.used_at(span).or_else(|| {
        let id = a.names.lookup(word)?;
        // A name spelt like a contextual keyword: only its declaration and resolved uses.
        let decl = a.names.decls.get(id)?;
        (a.is_name_here(t) || decl.span == span).then_some(id)
    });
    if let Some(d) = global.and_then(|id| a.names.decls.get(id)) {
        let declaration = if d.span == span { DECLARATION } else { 0 };
        return Some((type_of(d.kind), declaration));
    }
    if let Some(d) = a.declared(word).filter(|_| a.is_name_here(t)) {
        let declaration = if d.name_span == span { DECLARATION } else { 0 };
        return Some((SemanticTokenType::PROPERTY, declaration));
    }
    let called = a.source[t.end..].trim_start().starts_with('(');
    let builtin = is_builtin(word);
    if builtin && called && builtins::function(word).is_some() {
        return Some((SemanticTokenType::FUNCTION, DEFAULT_LIBRARY));
    }
    if !a.is_name_here(t) {
        return Some((SemanticTokenType::KEYWORD, 0));
    }
    if builtin && builtins::value(word).is_some() {
        return Some((SemanticTokenType::VARIABLE, DEFAULT_LIBRARY));
    }
    if a.names.cell_named_at(span).is_some() || word.starts_with(|c: char| c.is_ascii_digit()) {
        return None;
    }
    Some((SemanticTokenType::VARIABLE, 0))
}

/// The semantic tokens of a whole document.
#[must_use]
pub fn tokens(a: &Analysis) -> SemanticTokens {
    let mut data = Vec::new();
    let (mut line, mut column) = (0u32, 0u32);
    let lines = LineIndex::new(&a.source);
    for t in &a.tokens {
        let class = match t.kind {
            Kind::Word => classify_word(a, t),
            Kind::Number => Some((SemanticTokenType::NUMBER, 0)),
            Kind::Comment => Some((SemanticTokenType::COMMENT, 0)),
            Kind::Text => Some((SemanticTokenType::STRING, 0)),
        };
        let Some((ty, modifiers)) = class else {
            continue;
        };
        let start = lines.position(t.start);
        let end = lines.position(t.end);
        let length = if end.line == start.line {
            end.character.saturating_sub(start.character)
        } else {
            0
        };
        let delta_line = start.line.saturating_sub(line);
        let delta_start = if delta_line == 0 {
            start.character.saturating_sub(column)
        } else {
            start.character
        };
        data.push(SemanticToken {
            delta_line,
            delta_start,
            length,
            token_type: index(&ty),
            token_modifiers_bitset: modifiers,
        });
        (line, column) = (start.line, start.character);
    }
    SemanticTokens {
        result_id: None,
        data,
    }
}
