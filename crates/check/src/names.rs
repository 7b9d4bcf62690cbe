//! The global namespace: declared names, built-in names, variables in scope, and the
//! "did you mean" search over all of them.

use super::error::ResolveError;
use super::expr::Ty;
use super::suggest;
use super::{Axes, Checker};
use rulestone_syntax::ast::{ItemKind, OptionType};
use rulestone_syntax::{Ident, Span};

pub(super) use super::model::DeclKind as Sym;

/// One declared name.
#[derive(Clone, Debug)]
pub(super) struct Entry {
    pub name: String,
    pub sym: Sym,
    pub span: Span,
    pub used: bool,
}

/// The kind of name a use accepts: one kind of declaration, or the kinds whose names have a
/// type (a relation is accepted where a direction is too).
#[derive(Clone, Copy, Debug)]
pub(super) enum Want {
    Sym(Sym),
    Ty(Ty),
}

impl Want {
    /// Whether a declaration of this kind is accepted.
    fn accepts(self, sym: Sym) -> bool {
        match self {
            Want::Sym(want) => std::mem::discriminant(&want) == std::mem::discriminant(&sym),
            Want::Ty(ty) => matches!(
                (ty, sym),
                (Ty::Relation, Sym::Relation { .. } | Sym::Direction)
                    | (Ty::Direction, Sym::Direction)
                    | (Ty::Piece, Sym::Piece)
                    | (Ty::Pattern, Sym::Pattern)
                    | (Ty::Shapes, Sym::Shape)
                    | (Ty::Map, Sym::Map)
                    | (Ty::Player, Sym::Player)
            ),
        }
    }

    /// The kind named in messages ("relation"), if names of one kind are wanted.
    fn kind(self) -> Option<&'static str> {
        match self {
            Want::Sym(sym) => Some(sym.kind()),
            Want::Ty(Ty::Relation) => Some("relation"),
            Want::Ty(Ty::Direction) => Some("direction"),
            Want::Ty(Ty::Piece) => Some("piece"),
            Want::Ty(Ty::Pattern) => Some("pattern"),
            Want::Ty(Ty::Shapes) => Some("shape"),
            Want::Ty(Ty::Map) => Some("map"),
            Want::Ty(Ty::Player) => Some("player"),
            Want::Ty(_) => None,
        }
    }
}

/// At most this many names of the wanted kind are listed for an unknown name; a longer list
/// would bury the message.
const LISTED: usize = 6;

/// The type of the built-in value called `name`.
pub(super) fn builtin_value(name: &str) -> Option<Ty> {
    super::builtins::value(name).map(|s| s.result)
}

impl Checker<'_> {
    /// Declares every name in file order, reporting duplicates (E0102).
    pub(super) fn declare_all(&mut self) {
        let file = self.file;
        let mut players_seen = false;
        for (item_index, item) in file.items.iter().enumerate() {
            match &item.kind {
                ItemKind::Players(players) => {
                    // A second `players` is E0502; its names are not declared again.
                    if !players_seen {
                        for p in players {
                            self.declare(p, Sym::Player);
                        }
                    }
                    players_seen = true;
                }
                ItemKind::Option(o) => {
                    let index = self.options.len();
                    self.options.push(o);
                    let is_enum = matches!(o.ty, OptionType::Enum(_));
                    self.declare(&o.name, Sym::Option { index, is_enum });
                    if let OptionType::Enum(words) = &o.ty {
                        let mut listed = std::collections::HashSet::new();
                        for w in words {
                            // A word repeated within one option is E0302, reported with options.
                            if listed.insert(w.name.as_str()) {
                                self.declare(w, Sym::Word { option: index });
                            }
                        }
                    }
                }
                ItemKind::Direction { name, .. } => self.declare(name, Sym::Direction),
                ItemKind::Relation { name, .. } => {
                    self.declare(name, Sym::Relation { item: item_index });
                }
                ItemKind::Pattern { name, .. } => self.declare(name, Sym::Pattern),
                ItemKind::Map { name, .. } => self.declare(name, Sym::Map),
                ItemKind::Zone { name, .. } => self.declare(name, Sym::Zone { item: item_index }),
                ItemKind::Piece { name, .. } => self.declare(name, Sym::Piece),
                ItemKind::Counter {
                    name,
                    per_cell: true,
                    ..
                } => self.declare(name, Sym::Layer),
                ItemKind::Counter {
                    name, per_player, ..
                } => self.declare(
                    name,
                    Sym::Counter {
                        per_player: *per_player,
                    },
                ),
                ItemKind::Token { name, .. } => self.declare(name, Sym::Token),
                ItemKind::Track { name, .. } => self.declare(name, Sym::Track),
                ItemKind::Shape(shape) => self.declare(&shape.name, Sym::Shape),
                ItemKind::Define { name, params, .. } => {
                    self.declare_params(name, params);
                    self.declare(name, Sym::Define { item: item_index });
                }
                ItemKind::Procedure { name, params, .. } => {
                    self.declare_params(name, params);
                    if params.is_empty() && super::builtins::function(&name.name).is_some() {
                        self.report(ResolveError::Builtin {
                            name: name.name.clone(),
                            span: name.span,
                        });
                    }
                    self.declare(name, Sym::Procedure { item: item_index });
                }
                ItemKind::Game { .. }
                | ItemKind::Board(_)
                | ItemKind::Score { .. }
                | ItemKind::Heuristic { .. }
                | ItemKind::RepetitionsIgnore(_)
                | ItemKind::Marker { .. }
                | ItemKind::Status { .. }
                | ItemKind::Setup(_)
                | ItemKind::Turn(_)
                | ItemKind::NoMoves(_)
                | ItemKind::Preset { .. }
                | ItemKind::Table(_) => {}
            }
        }
    }

    /// A define's parameters must differ from each other (E0102), and a define that takes
    /// arguments must not be named like a built-in function, whose calls it would never get.
    fn declare_params(&mut self, name: &Ident, params: &[Ident]) {
        let is_function = super::builtins::function(&name.name).is_some();
        if !params.is_empty() && is_function {
            self.report(ResolveError::Builtin {
                name: name.name.clone(),
                span: name.span,
            });
        }
        for (i, p) in params.iter().enumerate() {
            if let Some(first) = params[..i].iter().find(|q| q.name == p.name) {
                self.report(ResolveError::Duplicate {
                    name: p.name.clone(),
                    span: p.span,
                    first: first.span,
                });
            }
        }
    }

    fn declare(&mut self, id: &Ident, sym: Sym) {
        if builtin_value(&id.name).is_some() {
            self.report(ResolveError::Builtin {
                name: id.name.clone(),
                span: id.span,
            });
            return;
        }
        if let Some(&first) = self.names.get(&id.name) {
            self.report(ResolveError::Duplicate {
                name: id.name.clone(),
                span: id.span,
                first: self.entries[first].span,
            });
            return;
        }
        self.names.insert(id.name.clone(), self.entries.len());
        self.entries.push(Entry {
            name: id.name.clone(),
            sym,
            span: id.span,
            used: false,
        });
    }

    /// The declared entry for a name, marking it used and recording this use of it.
    pub(super) fn use_global(&mut self, id: &Ident) -> Option<(usize, Sym)> {
        let &index = self.names.get(&id.name)?;
        self.mark_used(index);
        self.uses.record(id.span, index);
        Some((index, self.entries[index].sym))
    }

    /// Marks a declaration used, remembering that it was not before (so that
    /// [`Checker::infer_quiet`] can undo what it marks without walking every declaration).
    pub(super) fn mark_used(&mut self, index: usize) {
        if let Some(entry) = self.entries.get_mut(index) {
            if !entry.used {
                entry.used = true;
                self.newly_used.push(index);
            }
        }
    }

    pub(super) fn axis_index(&self, name: &str) -> Option<usize> {
        self.board?.axes.iter().position(|a| a.name == name)
    }

    pub(super) fn axis_list(&self) -> String {
        self.board.map_or_else(String::new, |b| {
            b.axes
                .iter()
                .map(|a| a.name.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        })
    }

    pub(super) fn is_cell_name(&self, name: &str) -> bool {
        self.geometry
            .as_ref()
            .is_some_and(|g| g.by_name.contains_key(name))
    }

    /// The binding of a variable in scope.
    pub(super) fn lookup_var(&self, name: &str) -> Option<Span> {
        self.frames
            .iter()
            .rev()
            .flat_map(|f| f.bound.iter().rev())
            .find(|(n, _)| n == name)
            .map(|(_, s)| *s)
    }

    /// Where a variable was bound on some paths only.
    pub(super) fn lookup_partial(&self, name: &str) -> Option<Span> {
        self.frames
            .iter()
            .rev()
            .flat_map(|f| f.partial.iter().rev())
            .find(|(n, _)| n == name)
            .map(|(_, s)| *s)
    }

    /// Describes what a name stands for, for messages: "zone `top`", "variable `to`".
    pub(super) fn describe_name(&self, name: &str) -> String {
        if self.lookup_var(name).is_some() {
            format!("variable `{name}`")
        } else if let Some(&i) = self.names.get(name) {
            format!("{} `{name}`", self.entries[i].sym.kind())
        } else if let Some(t) = builtin_value(name) {
            format!("{} `{name}`", self.describe_ty(t))
        } else if self.axis_index(name).is_some() {
            format!("axis `{name}`")
        } else if self.is_cell_name(name) {
            format!("cell `{name}`")
        } else {
            format!("`{name}`")
        }
    }

    /// Reports an unknown name (E0101), with the closest name in scope as a suggestion.
    pub(super) fn unknown_name(&mut self, id: &Ident, axes: Axes) {
        let help = if self.axis_index(&id.name).is_some() {
            Some(format!(
                "`{0}` is a board axis: it names the coordinate of the candidate cell only on the \
                 right of `where`; elsewhere take it from a cell, e.g. `c.{0}`",
                id.name
            ))
        } else if let Some(help) = truth_value_help(&id.name) {
            Some(help.to_string())
        } else {
            let suggestion = self.suggest_name(&id.name, axes);
            // The misspelt use was meant for the suggested declaration: don't also call it unused.
            if let Some(&i) = suggestion.as_ref().and_then(|s| self.names.get(s)) {
                self.mark_used(i);
            }
            suggestion
                .map(|s| format!("did you mean `{s}`?"))
                .or_else(|| self.names_of_wanted_kind(id))
        };
        self.report(ResolveError::UnknownName {
            name: id.name.clone(),
            span: id.span,
            help,
        });
    }

    /// For an unknown name where one kind of name is wanted: the declared names of that kind
    /// when there are a few, or that there is none.
    fn names_of_wanted_kind(&self, id: &Ident) -> Option<String> {
        let want = match self.wanted {
            Some((span, want)) if span == id.span => want,
            _ => return None,
        };
        let kind = want.kind()?;
        let names: Vec<String> = self
            .entries
            .iter()
            .filter(|e| want.accepts(e.sym))
            .map(|e| format!("`{}`", e.name))
            .collect();
        match names.as_slice() {
            [] => Some(format!("the game declares no {kind}")),
            [one] => Some(format!("the game's only {kind} is {one}")),
            [init @ .., last] if names.len() <= LISTED => Some(format!(
                "the game's {kind}s are {} and {last}",
                init.join(", ")
            )),
            _ => None,
        }
    }

    fn suggest_name(&self, name: &str, axes: Axes) -> Option<String> {
        let mut candidates: Vec<&str> = self.names.keys().map(String::as_str).collect();
        candidates.extend(super::builtins::values().map(|s| s.name));
        candidates.extend(
            self.frames
                .iter()
                .flat_map(|f| f.bound.iter().map(|(n, _)| n.as_str())),
        );
        if let Some(board) = self.board {
            let visible = match axes {
                Axes::Hidden => 0,
                Axes::Upto(i) => i,
                Axes::All => board.axes.len(),
            };
            candidates.extend(board.axes.iter().take(visible).map(|a| a.name.as_str()));
        }
        if let Some(g) = &self.geometry {
            candidates.extend(g.names.iter().map(String::as_str));
        }
        suggest::closest(name, candidates).map(str::to_string)
    }
}

/// `true` and `false`, which other languages have and this one does not: what to write.
fn truth_value_help(name: &str) -> Option<&'static str> {
    match name {
        "true" | "True" | "TRUE" => Some(
            "the language has no `true`: leave the condition out (an `if` that always holds is \
             its body alone), or write a comparison that holds, e.g. `1 == 1`",
        ),
        "false" | "False" | "FALSE" => Some(
            "the language has no `false`: leave out what would never run, or write a comparison \
             that fails, e.g. `1 == 0`",
        ),
        _ => None,
    }
}
