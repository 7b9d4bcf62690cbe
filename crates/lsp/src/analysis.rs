//! One document read once for the answers that need names: its tokens, its syntax tree (if it
//! parses), the checker's names and uses (even when it has errors), and the declarations the
//! syntax tree shows (which also cover names the checker keeps apart, such as a board's axes
//! and a table game's parameters, lines and regions).
//!
//! Invariant: `names` and `decls` are empty when the text does not parse; a checker failure
//! leaves `names` empty instead of taking the server down.

use rulestone_check::model::{DeclId, Names};
use rulestone_syntax::ast::File;
use rulestone_syntax::{self as syntax, keywords, Span};

use super::symbols::{self, Decl};
use super::tokens::{self, Kind, Token};

/// A document read for name questions.
pub struct Analysis<'a> {
    pub source: &'a str,
    pub tokens: Vec<Token>,
    pub file: Option<File>,
    pub names: Names,
    /// Every declaration of the syntax tree, nested ones included, in source order.
    pub decls: Vec<Decl>,
}

/// What the name under the cursor is, and where it is valid.
#[derive(Clone, Debug)]
pub struct Target {
    pub name: String,
    /// The word under the cursor.
    pub at: Token,
    /// The checker's declaration, for a global name.
    pub global: Option<DeclId>,
    /// Where the name is declared (for a local: its first occurrence in its item).
    pub declared: Option<Span>,
    /// The byte range its occurrences are looked for in: the file, or the item of a local.
    pub scope: (usize, usize),
}

impl<'a> Analysis<'a> {
    #[must_use]
    pub fn new(source: &'a str) -> Analysis<'a> {
        let tokens = tokens::scan(source);
        let file = syntax::parse(source).ok();
        let names = file
            .as_ref()
            .and_then(|f| {
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    rulestone_check::resolve_names(f)
                }))
                .ok()
            })
            .unwrap_or_default();
        let mut decls = Vec::new();
        if let Some(f) = &file {
            flatten(symbols::declarations(f), &mut decls);
        }
        decls.sort_by_key(|d| d.name_span.start);
        Analysis {
            source,
            tokens,
            file,
            names,
            decls,
        }
    }

    /// The words of the document.
    pub fn words(&self) -> impl Iterator<Item = &Token> {
        self.tokens.iter().filter(|t| t.kind == Kind::Word)
    }

    /// The first declaration of the syntax tree with a name (not a keyword standing for it).
    #[must_use]
    pub fn declared(&self, name: &str) -> Option<&Decl> {
        self.decls
            .iter()
            .find(|d| d.name == name && !d.name_span.is_empty() && d.detail != "game")
    }

    /// The name under the cursor: `None` on keywords, built-ins, cell names, numbers, comments.
    #[must_use]
    pub fn target(&self, offset: usize) -> Option<Target> {
        let at = tokens::word_at(&self.tokens, offset)?;
        let name = at.text(self.source).to_string();
        let span = Span::new(at.start, at.end);
        if self.names.cell_named_at(span).is_some() {
            return None;
        }
        let whole = (0, self.source.len());
        if let Some(id) = self
            .names
            .used_at(span)
            .or_else(|| self.names.lookup(&name))
        {
            let declared = self.names.decls.get(id).map(|d| d.span);
            return Some(Target {
                name,
                at,
                global: Some(id),
                declared,
                scope: whole,
            });
        }
        if let Some(d) = self.declared(&name) {
            let declared = Some(d.name_span);
            return Some(Target {
                name,
                at,
                global: None,
                declared,
                scope: whole,
            });
        }
        if keywords::is_keyword(&name) || is_builtin(&name) {
            return None;
        }
        // A local: bound inside the top-level item the cursor is in.
        let item = self
            .file
            .as_ref()?
            .items
            .iter()
            .find(|i| (i.span.start as usize) <= at.start && at.end <= i.span.end as usize)?;
        let scope = (item.span.start as usize, item.span.end as usize);
        let first = self
            .words()
            .find(|t| t.start >= scope.0 && t.end <= scope.1 && t.text(self.source) == name)?;
        Some(Target {
            declared: Some(Span::new(first.start, first.end)),
            name,
            at,
            global: None,
            scope,
        })
    }

    /// Every occurrence of a target's name, declaration included, in source order.
    #[must_use]
    pub fn occurrences(&self, target: &Target) -> Vec<Span> {
        let mut spans: Vec<Span> = Vec::new();
        if let Some(id) = target.global {
            spans.extend(target.declared);
            spans.extend(self.names.uses_of(id));
        }
        // A name spelt like a contextual keyword: only the checker knows which words are uses.
        if target.global.is_none() || !keywords::is_keyword(&target.name) {
            spans.extend(
                self.words()
                    .filter(|t| t.start >= target.scope.0 && t.end <= target.scope.1)
                    .filter(|t| t.text(self.source) == target.name)
                    .map(|t| Span::new(t.start, t.end)),
            );
        }
        spans.sort_by_key(|s| (s.start, s.end));
        spans.dedup();
        spans
    }
}

/// Whether a word is a built-in value or function.
#[must_use]
pub fn is_builtin(word: &str) -> bool {
    rulestone_check::builtins::TABLE
        .iter()
        .any(|b| b.name == word)
}

fn flatten(decls: Vec<Decl>, into: &mut Vec<Decl>) {
    for mut d in decls {
        let children = std::mem::take(&mut d.children);
        into.push(d);
        flatten(children, into);
    }
}
