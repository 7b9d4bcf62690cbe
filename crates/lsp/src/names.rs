//! Where the syntax tree has a name: the spans of every identifier it holds in the place of a
//! name (declared names, variables, the names an expression or statement reads or binds).
//!
//! A contextual keyword (`to`, `back`, `move`, `line`, ...) is an ordinary name outside the
//! places the grammar expects the keyword, and the commonest variable names of games are among
//! them (`pick to in ...`). The lexical scan cannot tell `move a to to` apart, the tree can:
//! a word spelt like a keyword is a name exactly where its span is one of these.
//!
//! Invariant: one walk of the tree, each node visited once (linear in the file's size).

use std::collections::HashSet;

use rulestone_syntax::ast::{
    Block, Board, Expr, ExprKind, File, Ident, ItemKind, OptionType, OptionValue, PatternShape,
    RelItem, StmtKind, Template, TemplatePart,
};

/// The `(start, end)` byte spans of the names of a syntax tree.
#[derive(Debug, Default)]
pub struct NameSpans(HashSet<(u32, u32)>);

impl NameSpans {
    /// Every name of a file's items (a table game's items give their declared names only).
    #[must_use]
    pub fn of(file: &File) -> NameSpans {
        let mut spans = NameSpans::default();
        for item in &file.items {
            spans.item(&item.kind);
        }
        spans
    }

    /// Whether the word at `[start, end)` stands in a name's place.
    #[must_use]
    pub fn contains(&self, start: usize, end: usize) -> bool {
        match (u32::try_from(start), u32::try_from(end)) {
            (Ok(s), Ok(e)) => self.0.contains(&(s, e)),
            _ => false,
        }
    }

    /// Adds the span of a name found elsewhere (a declaration of a table game, say).
    pub fn insert(&mut self, span: rulestone_syntax::Span) {
        self.0.insert((span.start, span.end));
    }

    fn ident(&mut self, i: &Ident) {
        self.0.insert((i.span.start, i.span.end));
    }

    fn item(&mut self, kind: &ItemKind) {
        if let Some(name) = kind.declared_name() {
            self.ident(name);
        }
        match kind {
            ItemKind::Players(players) | ItemKind::RepetitionsIgnore(players) => {
                players.iter().for_each(|p| self.ident(p));
            }
            ItemKind::Option(o) => {
                if let OptionType::Enum(words) = &o.ty {
                    words.iter().for_each(|w| self.ident(w));
                }
                if let OptionValue::Word(w) = &o.default {
                    self.ident(w);
                }
            }
            ItemKind::Board(board) => self.board(board),
            ItemKind::Preset { sets, .. } => sets.iter().for_each(|s| self.ident(&s.option)),
            ItemKind::Relation {
                members, players, ..
            } => {
                for m in members {
                    if let RelItem::Name(n) = m {
                        self.ident(n);
                    }
                }
                players.iter().flatten().for_each(|p| self.ident(p));
            }
            ItemKind::Map { coords, .. } => coords.iter().for_each(|e| self.expr(e)),
            ItemKind::Pattern {
                shape: PatternShape::Line(RelItem::Name(n)),
                ..
            } => self.ident(n),
            ItemKind::Zone { cells: e, .. }
            | ItemKind::Counter { init: e, .. }
            | ItemKind::Token { start: e, .. }
            | ItemKind::Marker { cells: e, .. } => self.expr(e),
            ItemKind::Status { text, when } => {
                self.template(text);
                when.iter().for_each(|e| self.expr(e));
            }
            ItemKind::Score { player, expr } | ItemKind::Heuristic { player, expr } => {
                self.ident(player);
                self.expr(expr);
            }
            ItemKind::Define { params, expr, .. } => {
                params.iter().for_each(|p| self.ident(p));
                self.expr(expr);
            }
            ItemKind::Procedure { params, body, .. } => {
                params.iter().for_each(|p| self.ident(p));
                self.block(body);
            }
            ItemKind::Setup(body) | ItemKind::Turn(body) | ItemKind::NoMoves(body) => {
                self.block(body);
            }
            _ => {}
        }
    }

    fn board(&mut self, board: &Board) {
        board.axes.iter().for_each(|a| self.ident(a));
        for r in &board.ranges {
            self.ident(&r.axis);
            self.expr(&r.lo);
            self.expr(&r.hi);
        }
        board.filter.iter().for_each(|e| self.expr(e));
        self.template(&board.name);
    }

    fn template(&mut self, t: &Template) {
        for part in &t.parts {
            if let TemplatePart::Hole(e) = part {
                self.expr(e);
            }
        }
    }

    /// Every statement of a block at any depth (`for_each_stmt` goes into nested blocks).
    fn block(&mut self, block: &Block) {
        block.for_each_stmt(&mut |stmt| match &stmt.kind {
            StmtKind::Place {
                var,
                from,
                turned,
                layer,
                max,
                feet,
            } => {
                [var, turned, layer].into_iter().for_each(|i| self.ident(i));
                [Some(from), max.as_ref(), feet.as_ref()]
                    .into_iter()
                    .flatten()
                    .for_each(|e| self.expr(e));
            }
            StmtKind::Pick { var, from, by } => {
                self.ident(var);
                self.expr(from);
                by.iter().for_each(|e| self.expr(e));
            }
            StmtKind::Roll { counters, .. } => counters.iter().for_each(|c| self.ident(c)),
            StmtKind::While { cond: e, .. }
            | StmtKind::If { cond: e, .. }
            | StmtKind::Remove { at: e }
            | StmtKind::Require(e)
            | StmtKind::Win(e)
            | StmtKind::Lose(e) => self.expr(e),
            StmtKind::Put { piece, owner, at } => {
                self.ident(piece);
                owner.iter().for_each(|e| self.expr(e));
                self.expr(at);
            }
            StmtKind::Move { what, to } => {
                self.expr(what);
                self.expr(to);
            }
            StmtKind::Shift { what, along } => {
                self.expr(what);
                self.ident(along);
            }
            StmtKind::Enter { track, owner, near } => {
                self.ident(track);
                owner.iter().for_each(|e| self.expr(e));
                self.expr(near);
            }
            StmtKind::Advance { track, owner } | StmtKind::Take { track, owner } => {
                self.ident(track);
                owner.iter().for_each(|e| self.expr(e));
            }
            StmtKind::Write(t) => self.template(t),
            StmtKind::Assign {
                target,
                index,
                value,
                ..
            } => {
                self.ident(target);
                index.iter().for_each(|e| self.expr(e));
                self.expr(value);
            }
            StmtKind::Let { name, value } => {
                self.ident(name);
                self.expr(value);
            }
            StmtKind::Call { name, args, .. } => {
                self.ident(name);
                args.iter().for_each(|e| self.expr(e));
            }
            StmtKind::Again
            | StmtKind::Either(_)
            | StmtKind::First(_)
            | StmtKind::Repeat { .. }
            | StmtKind::Distinct(_)
            | StmtKind::Draw => {}
        });
    }

    fn expr(&mut self, e: &Expr) {
        // An explicit stack: a long chain of operators is no deep recursion.
        let mut stack = vec![e];
        while let Some(e) = stack.pop() {
            match &e.kind {
                ExprKind::Int(_) | ExprKind::Decimal(_) => {}
                ExprKind::Name(n) => self.ident(n),
                ExprKind::Call { func, args } => {
                    self.ident(func);
                    stack.extend(args);
                }
                ExprKind::CellSet(items) => stack.extend(items),
                ExprKind::Unary { operand, .. } => stack.push(operand),
                ExprKind::Binary { lhs, rhs, .. } => stack.extend([&**lhs, &**rhs]),
                ExprKind::Field { base, .. } => stack.push(base),
                ExprKind::Index { base, index } => stack.extend([&**base, &**index]),
                ExprKind::If {
                    cond,
                    then,
                    otherwise,
                } => stack.extend([&**cond, &**then, &**otherwise]),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::NameSpans;

    #[test]
    fn a_word_spelt_like_a_keyword_is_a_name_where_the_tree_has_one() {
        let source = "turn {\n    pick to in empty\n    move to to to\n}\n";
        let file = rulestone_syntax::parse(source).expect("parses");
        let spans = NameSpans::of(&file);
        let tos: Vec<bool> = source
            .match_indices("to")
            .map(|(i, _)| spans.contains(i, i + 2))
            .collect();
        // `pick to`, `move to`, the keyword `to`, the last `to`.
        assert_eq!(tos, [true, true, false, true]);
    }
}
