//! Completion: the names declared in the file (each with its kind), the variables bound in the
//! item the cursor is in, the built-in values and functions, and the keywords of the grammar.
//!
//! Invariant: each label is offered once; declared names come first, keywords last.

use lsp_types::{CompletionItem, CompletionItemKind};

use rulestone_check::builtins;
use rulestone_check::model::DeclKind;
use rulestone_syntax::keywords;

use super::analysis::{is_builtin, Analysis};

/// How a declared name is shown in the completion list.
fn kind_of(kind: DeclKind) -> CompletionItemKind {
    match kind {
        DeclKind::Option { .. } => CompletionItemKind::PROPERTY,
        DeclKind::Word { .. } | DeclKind::Player => CompletionItemKind::ENUM_MEMBER,
        DeclKind::Direction => CompletionItemKind::CONSTANT,
        DeclKind::Relation { .. } => CompletionItemKind::ENUM,
        DeclKind::Pattern | DeclKind::Shape | DeclKind::Map => CompletionItemKind::STRUCT,
        DeclKind::Zone { .. } => CompletionItemKind::MODULE,
        DeclKind::Piece => CompletionItemKind::CLASS,
        DeclKind::Counter { .. } | DeclKind::Layer | DeclKind::Token | DeclKind::Track => {
            CompletionItemKind::VARIABLE
        }
        DeclKind::Define { .. } => CompletionItemKind::FUNCTION,
        DeclKind::Procedure { .. } => CompletionItemKind::METHOD,
    }
}

fn item(label: &str, kind: CompletionItemKind, detail: &str, rank: u8) -> CompletionItem {
    CompletionItem {
        label: label.to_string(),
        kind: Some(kind),
        detail: Some(detail.to_string()),
        sort_text: Some(format!("{rank}{label}")),
        ..CompletionItem::default()
    }
}

/// The names the file declares: the checker's, then the other names of its syntax tree (axes,
/// a table game's names).
#[must_use]
pub fn declared(analysis: &Analysis) -> Vec<CompletionItem> {
    let mut items: Vec<CompletionItem> = analysis
        .names
        .decls
        .iter()
        .map(|d| item(&d.name, kind_of(d.kind), d.kind.kind(), 0))
        .collect();
    for d in &analysis.decls {
        let is_name = !d.name_span.is_empty() && d.detail != "game" && !d.name.contains(' ');
        if is_name && analysis.names.lookup(&d.name).is_none() {
            items.push(item(&d.name, CompletionItemKind::FIELD, d.detail, 0));
        }
    }
    items
}

/// Every completion at a byte offset. `declared` is what [`declared`] gave for this text, or
/// for the last version that parsed when this one does not.
#[must_use]
pub fn complete(
    analysis: &Analysis,
    offset: usize,
    declared: Vec<CompletionItem>,
) -> Vec<CompletionItem> {
    let mut items = declared;
    items.extend(locals(analysis, offset));
    items.extend(
        builtins::values().map(|b| item(b.name, CompletionItemKind::CONSTANT, "built-in", 2)),
    );
    items.extend(
        builtins::functions().map(|b| item(b.name, CompletionItemKind::FUNCTION, b.signature, 2)),
    );
    items.extend(
        keywords::all()
            .iter()
            .map(|k| item(k, CompletionItemKind::KEYWORD, "keyword", 3)),
    );
    let mut seen = std::collections::HashSet::new();
    items.retain(|i| seen.insert(i.label.clone()));
    items
}

/// The words that bind a variable to the word after them.
const BINDERS: &[&str] = &["pick", "let", "for", "roll"];

/// The variables bound in the item the cursor is in: the words after a binding keyword.
fn locals(analysis: &Analysis, offset: usize) -> Vec<CompletionItem> {
    let Some(file) = &analysis.file else {
        return Vec::new();
    };
    let Some(item_span) = file
        .items
        .iter()
        .map(|i| i.span)
        .find(|s| (s.start as usize) <= offset && offset <= s.end as usize)
    else {
        return Vec::new();
    };
    let words: Vec<&str> = analysis
        .words()
        .filter(|t| t.start >= item_span.start as usize && t.end <= item_span.end as usize)
        .filter(|t| !(t.start <= offset && offset <= t.end))
        .map(|t| t.text(analysis.source))
        .collect();
    words
        .windows(2)
        .filter(|w| BINDERS.contains(&w[0]))
        .map(|w| w[1])
        .filter(|w| {
            !keywords::is_keyword(w)
                && !is_builtin(w)
                && analysis.names.lookup(w).is_none()
                && analysis.declared(w).is_none()
        })
        .map(|w| item(w, CompletionItemKind::VARIABLE, "local", 1))
        .collect()
}
