//! Completion: the names declared in the file (each with its kind), the variables bound in the
//! item the cursor is in, the built-in values and functions, and the keywords of the grammar,
//! narrowed to what fits the place being typed.
//!
//! The declared names come from a [`Model`]: the last text of the document that parsed, kept by
//! the server, so that completion still offers the game's own names while the line being typed
//! does not parse. The place is read from the current text's words alone, which never fails:
//! after `in`, `at`, `to`, `move`, `remove` or a set operator (`&`, `|`) a set of cells fits
//! (zones, defines, tokens, variables and built-ins giving cells); after `put` a piece; after
//! `of`, `win` or `lose` a player; after `line` or `along` a direction; after `if`, `require`,
//! `while`, `where`, `and`, `or`, `not` or a comparison or arithmetic operator a value (every
//! name but procedures, the built-ins and the keywords of expressions). Anywhere else every
//! name and keyword is offered. Variables are the words after `pick`, `let`, `for`, `roll` and
//! `place` in the item the cursor is in (found in the words when the text does not parse).
//!
//! Invariant: each label is offered once; declared names come first, keywords last.

use lsp_types::{CompletionItem, CompletionItemKind};

use rulestone_check::builtins;
use rulestone_check::model::{DeclKind, Ty};
use rulestone_syntax::keywords;

use super::analysis::{is_builtin, is_reserved, Analysis};
use super::tokens::{Kind, Token};

/// What a place in the text takes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// Cells: a set or one cell.
    Cells,
    Piece,
    Player,
    Direction,
    /// A value in an expression: every name but procedures, the built-ins and the keywords
    /// of expressions.
    Value,
    /// A statement (only procedures fit only there).
    Statement,
    /// Anything: every name and keyword.
    Any,
}

/// The keywords that may stand inside an expression.
const EXPRESSION_KEYWORDS: &[&str] = &["not", "and", "or", "in", "if", "then", "else", "cells"];

/// The operators after which a value comes.
const OPERATORS: &[&str] = &["==", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/", "%"];

/// A declared name and the places it fits.
#[derive(Clone, Debug)]
struct Offer {
    item: CompletionItem,
    fits: Place,
    /// Fits where cells do too: a map, applied as a function (`m(c)`), gives cells.
    gives_cells: bool,
}

/// What completion keeps of a text that parsed: the names it declares.
#[derive(Clone, Debug, Default)]
pub struct Model {
    names: Vec<Offer>,
}

impl Model {
    /// The names an analysis declares: the checker's, then the other names of its syntax tree
    /// (axes, a table game's names).
    #[must_use]
    pub fn of(analysis: &Analysis) -> Model {
        let mut names: Vec<Offer> = analysis
            .names
            .decls
            .iter()
            .map(|d| Offer {
                item: item(&d.name, kind_of(d.kind), d.kind.kind(), 0),
                fits: fits(d.kind),
                gives_cells: d.kind == DeclKind::Map,
            })
            .collect();
        for d in &analysis.decls {
            let is_name = !d.name_span.is_empty() && d.detail != "game" && !d.name.contains(' ');
            if is_name && analysis.names.lookup(&d.name).is_none() {
                names.push(Offer {
                    item: item(&d.name, CompletionItemKind::FIELD, d.detail, 0),
                    fits: Place::Any,
                    gives_cells: false,
                });
            }
        }
        Model { names }
    }

    /// The declared names, as completion items.
    #[must_use]
    pub fn items(&self) -> Vec<CompletionItem> {
        self.names.iter().map(|o| o.item.clone()).collect()
    }
}

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

/// The place a declared name fits best (every name fits [`Place::Any`]). A define may give
/// anything, and is offered wherever cells fit too.
fn fits(kind: DeclKind) -> Place {
    match kind {
        DeclKind::Zone { .. } | DeclKind::Token | DeclKind::Define { .. } => Place::Cells,
        DeclKind::Piece => Place::Piece,
        DeclKind::Player => Place::Player,
        DeclKind::Direction | DeclKind::Relation { .. } | DeclKind::Map => Place::Direction,
        DeclKind::Procedure { .. } => Place::Statement,
        _ => Place::Any,
    }
}

/// Whether a built-in's result fits a place.
fn builtin_fits(result: Ty, place: Place) -> bool {
    match place {
        Place::Cells => matches!(result, Ty::Cells | Ty::Cell),
        Place::Player => result == Ty::Player,
        Place::Direction => matches!(result, Ty::Dir | Ty::Direction),
        Place::Piece => result == Ty::Piece,
        Place::Statement => false,
        Place::Value | Place::Any => true,
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

/// Every completion at a byte offset of the analysed text. `model` is [`Model::of`] this text,
/// or of the last version that parsed when this one does not.
#[must_use]
pub fn complete(analysis: &Analysis, offset: usize, model: &Model) -> Vec<CompletionItem> {
    let place = place_at(analysis, offset);
    let declared = model
        .names
        .iter()
        .filter(|o| match place {
            Place::Any => true,
            Place::Value => o.fits != Place::Statement,
            Place::Cells => o.fits == place || o.gives_cells,
            _ => o.fits == place,
        })
        .map(|o| o.item.clone());
    let mut items: Vec<CompletionItem> = declared.collect();
    if matches!(
        place,
        Place::Any | Place::Value | Place::Cells | Place::Player
    ) {
        items.extend(locals(analysis, offset, model));
    }
    items.extend(
        builtins::values()
            .filter(|b| builtin_fits(b.result, place))
            .map(|b| item(b.name, CompletionItemKind::CONSTANT, "built-in", 2)),
    );
    items.extend(
        builtins::functions()
            .filter(|b| builtin_fits(b.result, place))
            .map(|b| item(b.name, CompletionItemKind::FUNCTION, b.signature, 2)),
    );
    let keywords = keywords::all().iter().filter(|k| match place {
        Place::Any => true,
        Place::Value => EXPRESSION_KEYWORDS.contains(&k.as_str()),
        _ => false,
    });
    items.extend(keywords.map(|k| item(k, CompletionItemKind::KEYWORD, "keyword", 3)));
    let mut seen = std::collections::HashSet::new();
    items.retain(|i| seen.insert(i.label.clone()));
    items
}

/// What the place at `offset` takes, from the word before the one being typed and what stands
/// between them.
#[must_use]
pub fn place_at(analysis: &Analysis, offset: usize) -> Place {
    let source = analysis.source.as_str();
    let offset = offset.min(source.len());
    // The word being typed (the cursor inside or at its end) is left out.
    let typed_start = analysis
        .tokens
        .iter()
        .take_while(|t| t.start < offset)
        .last()
        .filter(|t| t.kind == Kind::Word && offset <= t.end)
        .map_or(offset, |t| t.start);
    let Some(before) = analysis
        .tokens
        .iter()
        .take_while(|t| t.end <= typed_start)
        .last()
    else {
        return Place::Any;
    };
    let between = source.get(before.end..typed_start).unwrap_or("").trim();
    // The operator last before the cursor, after a closing bracket (`count(s) < `).
    let operator = between
        .split_whitespace()
        .last()
        .unwrap_or("")
        .trim_start_matches([')', ']']);
    if matches!(operator, "&" | "|") {
        return Place::Cells;
    }
    if OPERATORS.contains(&operator) {
        return Place::Value;
    }
    if !between.is_empty() || before.kind != Kind::Word {
        return Place::Any;
    }
    match before.text(source) {
        "in" | "at" | "to" | "move" | "remove" => Place::Cells,
        "put" => Place::Piece,
        "of" | "win" | "lose" => Place::Player,
        "line" | "along" => Place::Direction,
        "if" | "require" | "while" | "where" | "and" | "or" | "not" => Place::Value,
        _ => Place::Any,
    }
}

/// The words that bind a variable to the word after them.
const BINDERS: &[&str] = &["pick", "let", "for", "roll", "place"];

/// The variables bound in the item the cursor is in: the words after a binding keyword. While
/// the text does not parse, the item runs from the last line before the cursor that begins a
/// declaration at its first column to the next such line.
fn locals(analysis: &Analysis, offset: usize, model: &Model) -> Vec<CompletionItem> {
    let (start, end) = match &analysis.file {
        Some(file) => {
            let Some(span) = file
                .items
                .iter()
                .map(|i| i.span)
                .find(|s| (s.start as usize) <= offset && offset <= s.end as usize)
            else {
                return Vec::new();
            };
            (span.start as usize, span.end as usize)
        }
        None => lexical_item(analysis, offset),
    };
    let words: Vec<&str> = analysis
        .words()
        .filter(|t| t.start >= start && t.end <= end)
        .filter(|t| !(t.start <= offset && offset <= t.end))
        .map(|t| t.text(&analysis.source))
        .collect();
    let declared = |w: &str| {
        model.names.iter().any(|o| o.item.label == w)
            || analysis.names.lookup(w).is_some()
            || analysis.declared(w).is_some()
    };
    words
        .windows(2)
        .filter(|w| BINDERS.contains(&w[0]))
        .map(|w| w[1])
        .filter(|w| !is_reserved(w) && !is_builtin(w) && !declared(w))
        .map(|w| item(w, CompletionItemKind::VARIABLE, "local", 1))
        .collect()
}

/// The byte range of the item around `offset`, read from the words: from the last word before
/// it that begins a line and a declaration, to the next one after it.
fn lexical_item(analysis: &Analysis, offset: usize) -> (usize, usize) {
    let source = analysis.source.as_str();
    let starts_item = |t: &&Token| {
        t.kind == Kind::Word
            && (t.start == 0 || source.as_bytes().get(t.start - 1) == Some(&b'\n'))
            && (keywords::declaration_starts()
                .iter()
                .any(|k| k == t.text(source))
                || t.text(source) == "on")
    };
    let start = analysis
        .tokens
        .iter()
        .rev()
        .filter(|t| t.start <= offset)
        .find(starts_item)
        .map_or(0, |t| t.start);
    let end = analysis
        .tokens
        .iter()
        .filter(|t| t.start > offset)
        .find(starts_item)
        .map_or(source.len(), |t| t.start);
    (start, end)
}

#[cfg(test)]
mod tests {
    use super::{place_at, Analysis, Place};

    #[test]
    fn the_place_is_read_from_the_word_before() {
        let at_end = |s: &str| place_at(&Analysis::new(s), s.len());
        assert_eq!(at_end("turn {\n    pick c in "), Place::Cells);
        assert_eq!(at_end("turn {\n    pick c in em"), Place::Cells);
        assert_eq!(at_end("turn {\n    pick c in empty & "), Place::Cells);
        assert_eq!(at_end("turn {\n    put "), Place::Piece);
        assert_eq!(at_end("turn {\n    win "), Place::Player);
        assert_eq!(at_end("pattern row = line "), Place::Direction);
        assert_eq!(at_end("turn {\n    pick c in step("), Place::Any);
        assert_eq!(at_end("turn {\n    require n < "), Place::Value);
        assert_eq!(at_end("turn {\n    require 3 + n"), Place::Value);
        assert_eq!(at_end("turn {\n    if "), Place::Value);
        assert_eq!(at_end("turn {\n    require count(c) < "), Place::Value);
        assert_eq!(at_end("turn {\n    pick c in (empty)&"), Place::Cells);
        assert_eq!(at_end("turn {\n    "), Place::Any);
        assert_eq!(at_end(""), Place::Any);
    }

    /// A map is offered where cells fit (applied as a function) as well as after `along`.
    #[test]
    fn a_map_is_offered_where_cells_fit() {
        let source = "game \"T\"\nplayers A, B\nboard {\n    axes x\n    cells x in 0..3\n    name \"{x}\"\n}\nmap nxt = (x + 1)\npiece stone\nturn {\n    pick c in empty\n    put stone at c\n    write \"{c}\"\n}\n";
        let analysis = Analysis::new(source);
        let model = super::Model::of(&analysis);
        let at = source.find("empty").expect("the pick's set");
        let labels: Vec<String> = super::complete(&analysis, at, &model)
            .into_iter()
            .map(|i| i.label)
            .collect();
        assert!(labels.iter().any(|l| l == "nxt"), "{labels:?}");
    }
}
