//! What a file declares, read from its syntax tree: the outline (document symbols) and the
//! declaration shown when hovering a name.

use lsp_types::{
    DocumentSymbol, Hover, HoverContents, MarkupContent, MarkupKind, Position, SymbolKind,
};

use rulestone_syntax::ast::{File, ItemKind, Span, TableItem};
use rulestone_syntax::Ident;

use super::position::{offset, LineIndex};

/// One declaration: a name (or a keyword for an unnamed item such as `turn`), what it is, the
/// whole item and the name, and the names declared inside it.
#[derive(Clone, Debug)]
pub struct Decl {
    pub name: String,
    pub detail: &'static str,
    pub kind: SymbolKind,
    pub span: Span,
    pub name_span: Span,
    pub children: Vec<Decl>,
}

impl Decl {
    fn named(ident: &Ident, detail: &'static str, kind: SymbolKind, span: Span) -> Decl {
        Decl {
            name: ident.name.clone(),
            detail,
            kind,
            span,
            name_span: ident.span,
            children: Vec::new(),
        }
    }

    /// An item without a name of its own: its keyword stands for it.
    fn keyword(keyword: &str, detail: &'static str, kind: SymbolKind, span: Span) -> Decl {
        Decl {
            name: keyword.to_string(),
            detail,
            kind,
            span,
            name_span: Span::new(span.start as usize, span.start as usize),
            children: Vec::new(),
        }
    }

    fn with(mut self, children: Vec<Decl>) -> Decl {
        self.children = children;
        self
    }
}

/// Each name of a list as a child declaration; the span of each is its name.
fn each(names: &[Ident], detail: &'static str, kind: SymbolKind) -> Vec<Decl> {
    names
        .iter()
        .map(|n| Decl::named(n, detail, kind, n.span))
        .collect()
}

/// The top-level declarations of a file, in order, with the names declared inside them.
#[must_use]
pub fn declarations(file: &File) -> Vec<Decl> {
    file.items
        .iter()
        .map(|item| {
            let span = item.span;
            match &item.kind {
                ItemKind::Game { name, name_span } => Decl {
                    name: name.clone(),
                    detail: "game",
                    kind: SymbolKind::MODULE,
                    span,
                    name_span: *name_span,
                    children: Vec::new(),
                },
                ItemKind::Players(players) => {
                    Decl::keyword("players", "players", SymbolKind::NAMESPACE, span).with(each(
                        players,
                        "player",
                        SymbolKind::ENUM_MEMBER,
                    ))
                }
                ItemKind::Option(o) => Decl::named(&o.name, "option", SymbolKind::PROPERTY, span),
                ItemKind::Preset { name, .. } => {
                    Decl::named(name, "preset", SymbolKind::CONSTANT, span)
                }
                ItemKind::Board(board) => Decl::keyword("board", "board", SymbolKind::STRUCT, span)
                    .with(each(&board.axes, "axis", SymbolKind::FIELD)),
                ItemKind::Direction { name, .. } => {
                    Decl::named(name, "direction", SymbolKind::CONSTANT, span)
                }
                ItemKind::Relation { name, .. } => {
                    Decl::named(name, "relation", SymbolKind::ENUM, span)
                }
                ItemKind::Pattern { name, .. } => {
                    Decl::named(name, "pattern", SymbolKind::OBJECT, span)
                }
                ItemKind::Map { name, .. } => Decl::named(name, "map", SymbolKind::FUNCTION, span),
                ItemKind::Zone { name, .. } => Decl::named(name, "zone", SymbolKind::ARRAY, span),
                ItemKind::Piece { name, .. } => Decl::named(name, "piece", SymbolKind::CLASS, span),
                ItemKind::Counter { name, .. } => {
                    Decl::named(name, "counter", SymbolKind::VARIABLE, span)
                }
                ItemKind::Token { name, .. } => {
                    Decl::named(name, "token", SymbolKind::OBJECT, span)
                }
                ItemKind::Track { name, .. } => Decl::named(name, "track", SymbolKind::ARRAY, span),
                ItemKind::Status { .. } => {
                    Decl::keyword("status", "status", SymbolKind::STRING, span)
                }
                ItemKind::Shape(shape) => {
                    Decl::named(&shape.name, "shape", SymbolKind::STRUCT, span)
                }
                ItemKind::Marker { .. } => {
                    Decl::keyword("marker", "marker", SymbolKind::STRING, span)
                }
                ItemKind::Score { player, .. } => Decl {
                    name: format!("score {}", player.name),
                    ..Decl::named(player, "score", SymbolKind::FUNCTION, span)
                },
                ItemKind::Heuristic { player, .. } => Decl {
                    name: format!("heuristic {}", player.name),
                    ..Decl::named(player, "heuristic", SymbolKind::FUNCTION, span)
                },
                ItemKind::RepetitionsIgnore(_) => Decl::keyword(
                    "repetitions ignore",
                    "repetitions",
                    SymbolKind::PROPERTY,
                    span,
                ),
                ItemKind::Define { name, .. } => {
                    Decl::named(name, "define", SymbolKind::FUNCTION, span)
                }
                ItemKind::Procedure { name, .. } => {
                    Decl::named(name, "procedure", SymbolKind::METHOD, span)
                }
                ItemKind::Setup(_) => Decl::keyword("setup", "setup", SymbolKind::EVENT, span),
                ItemKind::Turn(_) => Decl::keyword("turn", "turn", SymbolKind::METHOD, span),
                ItemKind::NoMoves(_) => {
                    Decl::keyword("on no moves", "on no moves", SymbolKind::EVENT, span)
                }
                ItemKind::Table(table) => table_decl(table, span),
            }
        })
        .collect()
}

fn table_decl(item: &TableItem, span: Span) -> Decl {
    match item {
        TableItem::Param { name, .. } => Decl::named(name, "param", SymbolKind::CONSTANT, span),
        TableItem::Table { lines, regions, .. } => {
            let mut children: Vec<Decl> = lines
                .iter()
                .map(|(n, _)| Decl::named(n, "line", SymbolKind::FIELD, n.span))
                .collect();
            children.extend(
                regions
                    .iter()
                    .map(|r| Decl::named(&r.name, "region", SymbolKind::FIELD, r.name.span)),
            );
            Decl::keyword("table", "table", SymbolKind::STRUCT, span).with(children)
        }
        TableItem::Home { player, .. } => Decl {
            name: format!("home {}", player.name),
            ..Decl::named(player, "home", SymbolKind::PROPERTY, span)
        },
        TableItem::Disc { name, .. } => Decl::named(name, "disc", SymbolKind::CLASS, span),
        TableItem::Factions(factions) => {
            Decl::keyword("factions", "factions", SymbolKind::NAMESPACE, span).with(each(
                factions,
                "faction",
                SymbolKind::ENUM_MEMBER,
            ))
        }
        TableItem::Card(card) => Decl::named(&card.name, "card", SymbolKind::OBJECT, span),
        TableItem::ArmyRules(_) => {
            Decl::keyword("army rules", "army rules", SymbolKind::NAMESPACE, span)
        }
        TableItem::Army(army) => Decl::named(&army.name, "army", SymbolKind::OBJECT, span),
        TableItem::Setup(_) => Decl::keyword("setup table", "setup", SymbolKind::EVENT, span),
        TableItem::Turn(_) => Decl::keyword("table turn", "turn", SymbolKind::METHOD, span),
        TableItem::BasicShot(_) => Decl::keyword("basic shot", "basic", SymbolKind::CONSTANT, span),
        TableItem::AimNoise(_) => Decl::keyword("aim noise", "aim", SymbolKind::CONSTANT, span),
        TableItem::Points(_) => Decl::keyword("points", "points", SymbolKind::CONSTANT, span),
        TableItem::Capture(_) => Decl::keyword("capture", "capture", SymbolKind::EVENT, span),
        TableItem::Match(_) => Decl::keyword("match", "match", SymbolKind::EVENT, span),
        TableItem::Penalty { name, .. } => Decl::named(name, "penalty", SymbolKind::CONSTANT, span),
    }
}

/// The outline of a file: its declarations as LSP document symbols.
#[must_use]
pub fn document_symbols(source: &str, file: &File) -> Vec<DocumentSymbol> {
    let index = LineIndex::new(source);
    declarations(file)
        .iter()
        .map(|d| symbol(&index, d))
        .collect()
}

fn symbol(index: &LineIndex, d: &Decl) -> DocumentSymbol {
    let whole = d.span.merge(d.name_span);
    let children: Vec<DocumentSymbol> = d.children.iter().map(|c| symbol(index, c)).collect();
    #[allow(deprecated)] // `deprecated` is a required field of the struct, though deprecated.
    DocumentSymbol {
        name: d.name.clone(),
        detail: Some(d.detail.to_string()),
        kind: d.kind,
        tags: None,
        deprecated: None,
        range: index.range(whole.start as usize, whole.end as usize),
        selection_range: index.range(d.name_span.start as usize, d.name_span.end as usize),
        children: if children.is_empty() {
            None
        } else {
            Some(children)
        },
    }
}

/// The name at a position: the identifier the cursor is on or just after.
fn word_at(source: &str, at: usize) -> Option<&str> {
    let is_word = |c: char| c.is_alphanumeric() || c == '_';
    let start = source[..at]
        .char_indices()
        .rev()
        .take_while(|(_, c)| is_word(*c))
        .last()
        .map_or(at, |(i, _)| i);
    let end = source[at..]
        .char_indices()
        .find(|(_, c)| !is_word(*c))
        .map_or(source.len(), |(i, _)| at + i);
    let word = &source[start..end];
    let first = word.chars().next()?;
    (first.is_alphabetic() || first == '_').then_some(word)
}

/// The declaration of the name at a position: the first one of that name in the file.
#[must_use]
pub fn declaration_at(source: &str, file: &File, at: Position) -> Option<Decl> {
    let word = word_at(source, offset(source, at))?;
    let decls = declarations(file);
    let mut stack: Vec<&Decl> = decls.iter().collect();
    let mut found: Option<&Decl> = None;
    while let Some(d) = stack.pop() {
        if d.name == word
            && !d.name_span.is_empty()
            && found.is_none_or(|f| f.name_span.start > d.name_span.start)
        {
            found = Some(d);
        }
        stack.extend(d.children.iter());
    }
    found.cloned()
}

/// Hovering a declared name: the line that declares it and what it is. Anything else gives
/// nothing here (keywords and built-ins are [`super::reference`]'s).
#[must_use]
pub fn hover(source: &str, file: &File, at: Position) -> Option<Hover> {
    let d = declaration_at(source, file, at)?;
    Some(hover_line(source, d.detail, &d.name, d.name_span))
}

/// [`hover`] from an analysis of the text, which already holds its declarations: the same
/// answer without walking the syntax tree again.
#[must_use]
pub fn hover_in(analysis: &super::analysis::Analysis, at: Position) -> Option<Hover> {
    let source = analysis.source.as_str();
    let word = word_at(source, offset(source, at))?;
    let d = analysis.first_declaration(word)?;
    Some(hover_line(source, d.detail, &d.name, d.name_span))
}

/// The hover of a name declared at `declared`: what it is and the line that declares it.
#[must_use]
pub fn hover_line(source: &str, what: &str, name: &str, declared: Span) -> Hover {
    let start = (declared.start as usize).min(source.len());
    let line_start = source
        .get(..start)
        .and_then(|s| s.rfind('\n'))
        .map_or(0, |i| i + 1);
    let line_end = source
        .get(start..)
        .and_then(|s| s.find('\n'))
        .map_or(source.len(), |i| start + i);
    let line = source.get(line_start..line_end).unwrap_or("").trim();
    Hover {
        contents: HoverContents::Markup(MarkupContent {
            kind: MarkupKind::Markdown,
            value: format!("{what} `{name}`\n\n```\n{line}\n```"),
        }),
        range: None,
    }
}

#[cfg(test)]
mod tests {
    use super::word_at;

    #[test]
    fn the_word_under_the_cursor() {
        let s = "put stone at c";
        assert_eq!(word_at(s, 4), Some("stone"));
        assert_eq!(word_at(s, 6), Some("stone"));
        assert_eq!(word_at(s, 9), Some("stone"));
        assert_eq!(word_at(s, s.len()), Some("c"));
        assert_eq!(word_at("a 12", 3), None);
        assert_eq!(word_at("  ", 1), None);
    }
}
