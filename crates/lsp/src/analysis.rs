//! One document read once for the answers that need names: its tokens, its syntax tree (if it
//! parses), the checker's names and uses (even when it has errors), and the declarations the
//! syntax tree shows (which also cover names the checker keeps apart, such as a board's axes
//! and a table game's parameters, lines and regions).
//!
//! A word spelt like a contextual keyword (`to`, `back`, `move`, ...) is a name where the
//! syntax tree has a name ([`NameSpans`]) and a keyword elsewhere; a reserved word never is one.
//!
//! Invariant: `names`, `decls` and `name_spans` are empty when the text does not parse; a
//! checker failure leaves `names` empty instead of taking the server down. Building an analysis
//! and asking it about every word are linear in the size of the text (lookups are hashed).

use std::collections::{HashMap, HashSet};
use std::sync::OnceLock;

use rulestone_check::model::{DeclId, Names};
use rulestone_syntax::ast::File;
use rulestone_syntax::{self as syntax, keywords, Span};

use super::names::NameSpans;
use super::symbols::{self, Decl};
use super::tokens::{self, Kind, Token};

/// A document read for name questions. It keeps its own copy of the text, so the server can
/// keep it for a document's version and answer every request about that version from it.
pub struct Analysis {
    pub source: String,
    pub tokens: Vec<Token>,
    pub file: Option<File>,
    pub names: Names,
    /// Every declaration of the syntax tree, nested ones included, in source order.
    pub decls: Vec<Decl>,
    /// Where the syntax tree has a name.
    pub name_spans: NameSpans,
    /// The first declaration of `decls` of each name that [`Analysis::declared`] finds.
    first_decl: HashMap<String, usize>,
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

impl Analysis {
    #[must_use]
    pub fn new(source: &str) -> Analysis {
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
        let mut first_decl = HashMap::new();
        for (i, d) in decls.iter().enumerate() {
            if !d.name_span.is_empty() && d.detail != "game" {
                first_decl.entry(d.name.clone()).or_insert(i);
            }
        }
        let mut name_spans = file.as_ref().map(NameSpans::of).unwrap_or_default();
        for d in decls.iter().filter(|d| !d.name_span.is_empty()) {
            name_spans.insert(d.name_span);
        }
        Analysis {
            source: source.to_string(),
            tokens,
            file,
            names,
            decls,
            name_spans,
            first_decl,
        }
    }

    /// Whether the word `t` may be a name where it stands: any word that is not a keyword,
    /// and a word spelt like a contextual keyword where the syntax tree has a name.
    #[must_use]
    pub fn is_name_here(&self, t: &Token) -> bool {
        let word = t.text(&self.source);
        !is_keyword(word) || (!is_reserved(word) && self.name_spans.contains(t.start, t.end))
    }

    /// The words of the document.
    pub fn words(&self) -> impl Iterator<Item = &Token> {
        self.tokens.iter().filter(|t| t.kind == Kind::Word)
    }

    /// The first declaration of the syntax tree with a name (not a keyword standing for it).
    #[must_use]
    pub fn declared(&self, name: &str) -> Option<&Decl> {
        self.decls.get(*self.first_decl.get(name)?)
    }

    /// The first declaration of `name` in the file, the game's own name included: what hover
    /// shows (`decls` is sorted by position).
    #[must_use]
    pub fn first_declaration(&self, name: &str) -> Option<&Decl> {
        self.decls
            .iter()
            .find(|d| d.name == name && !d.name_span.is_empty())
    }

    /// The name under the cursor: `None` on keywords, built-ins, cell names, numbers, comments.
    #[must_use]
    pub fn target(&self, offset: usize) -> Option<Target> {
        let at = tokens::word_at(&self.tokens, offset)?;
        let name = at.text(&self.source).to_string();
        let span = Span::new(at.start, at.end);
        if self.names.cell_named_at(span).is_some() {
            return None;
        }
        let whole = (0, self.source.len());
        let used = self.names.used_at(span);
        // A keyword where the grammar expects it (`move a to b`) names nothing.
        if used.is_none() && !self.is_name_here(&at) {
            return None;
        }
        if let Some(id) = used.or_else(|| self.names.lookup(&name)) {
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
        if is_builtin(&name) {
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
        let first = self.words().find(|t| {
            t.start >= scope.0
                && t.end <= scope.1
                && t.text(&self.source) == name
                && self.is_name_here(t)
        })?;
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
        // A name spelt like a contextual keyword: only where the tree has a name.
        spans.extend(
            self.words()
                .filter(|t| t.start >= target.scope.0 && t.end <= target.scope.1)
                .filter(|t| t.text(&self.source) == target.name && self.is_name_here(t))
                .map(|t| Span::new(t.start, t.end)),
        );
        spans.sort_by_key(|s| (s.start, s.end));
        spans.dedup();
        spans
    }
}

/// A set of words, made once (asked about every word of a file, a list would cost its length).
fn word_set(
    set: &'static OnceLock<HashSet<&'static str>>,
    words: impl FnOnce() -> Vec<&'static str>,
) -> &'static HashSet<&'static str> {
    set.get_or_init(|| words().into_iter().collect())
}

/// Whether a word is reserved: never a name.
#[must_use]
pub fn is_reserved(word: &str) -> bool {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    word_set(&SET, || {
        keywords::reserved().iter().map(String::as_str).collect()
    })
    .contains(word)
}

/// Whether a word is a keyword somewhere in the grammar (reserved or contextual).
#[must_use]
pub fn is_keyword(word: &str) -> bool {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    word_set(&SET, || {
        keywords::all().iter().map(String::as_str).collect()
    })
    .contains(word)
}

/// Whether a word is a built-in value or function.
#[must_use]
pub fn is_builtin(word: &str) -> bool {
    static SET: OnceLock<HashSet<&'static str>> = OnceLock::new();
    word_set(&SET, || {
        rulestone_check::builtins::TABLE
            .iter()
            .map(|b| b.name)
            .collect()
    })
    .contains(word)
}

fn flatten(decls: Vec<Decl>, into: &mut Vec<Decl>) {
    for mut d in decls {
        let children = std::mem::take(&mut d.children);
        into.push(d);
        flatten(children, into);
    }
}
