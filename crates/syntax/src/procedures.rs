//! Statement procedures: `procedure name(params) { ... }` declares a block of statements, and a
//! call `name(args)` stands for that block with each parameter replaced by its argument, as a
//! use of a define stands for its body. [`File::expand_procedures`] writes each call's block
//! into the call ([`StmtKind::Call`]'s `body`), so the checker, its analyses and the lowering
//! see the statements that run, each part keeping the span where it is written.

use std::collections::HashMap;

use super::ast::{
    Block, Expr, ExprKind, File, Item, ItemKind, Stmt, StmtKind, Template, TemplatePart,
};
use super::span::{Ident, Span};

/// How many statements the calls of a file may write out in all; beyond it, calls are left
/// unexpanded and the first one is reported (a chain of procedures each calling the next twice
/// doubles at each level).
pub const MAX_EXPANDED_STATEMENTS: usize = 100_000;

/// Each parameter's argument: replaces the names of the parameters in a block.
struct Subst<'a> {
    params: &'a [Ident],
    args: &'a [Expr],
}

impl Subst<'_> {
    fn expr(&self, e: &Expr) -> Expr {
        e.substitute(self.params, self.args)
    }

    fn exprs(&self, es: &[Expr]) -> Vec<Expr> {
        es.iter().map(|e| self.expr(e)).collect()
    }

    fn opt(&self, e: Option<&Expr>) -> Option<Expr> {
        e.map(|e| self.expr(e))
    }

    /// A name in a statement's own syntax (a piece, a counter, a map, a track): a parameter
    /// whose argument is a plain name stands for that name there too.
    fn ident(&self, id: &Ident) -> Ident {
        let arg = self
            .params
            .iter()
            .position(|p| p.name == id.name)
            .and_then(|i| self.args.get(i));
        match arg.map(|a| &a.kind) {
            Some(ExprKind::Name(name)) => name.clone(),
            _ => id.clone(),
        }
    }

    fn template(&self, t: &Template) -> Template {
        let parts = t
            .parts
            .iter()
            .map(|p| match p {
                TemplatePart::Text(s) => TemplatePart::Text(s.clone()),
                TemplatePart::Hole(e) => TemplatePart::Hole(self.expr(e)),
            })
            .collect();
        Template {
            parts,
            span: t.span,
        }
    }

    fn block(&self, b: &Block) -> Block {
        Block {
            stmts: b.stmts.iter().map(|s| self.stmt(s)).collect(),
            span: b.span,
        }
    }

    fn blocks(&self, bs: &[Block]) -> Vec<Block> {
        bs.iter().map(|b| self.block(b)).collect()
    }

    fn stmt(&self, s: &Stmt) -> Stmt {
        use StmtKind as K;
        let kind = match &s.kind {
            K::Place {
                var,
                from,
                turned,
                layer,
                max,
                feet,
            } => K::Place {
                var: var.clone(),
                from: self.expr(from),
                turned: self.ident(turned),
                layer: self.ident(layer),
                max: self.opt(max.as_ref()),
                feet: self.opt(feet.as_ref()),
            },
            K::Pick { var, from, by } => K::Pick {
                var: var.clone(),
                from: self.expr(from),
                by: self.opt(by.as_ref()),
            },
            K::Roll {
                counters,
                lo,
                hi,
                range,
            } => K::Roll {
                counters: counters.iter().map(|c| self.ident(c)).collect(),
                lo: *lo,
                hi: *hi,
                range: *range,
            },
            K::Again => K::Again,
            K::While { cond, body } => K::While {
                cond: self.expr(cond),
                body: self.block(body),
            },
            K::Put { piece, owner, at } => K::Put {
                piece: self.ident(piece),
                owner: self.opt(owner.as_ref()),
                at: self.expr(at),
            },
            K::Remove { at } => K::Remove { at: self.expr(at) },
            K::Move { what, to } => K::Move {
                what: self.expr(what),
                to: self.expr(to),
            },
            K::Shift { what, along } => K::Shift {
                what: self.expr(what),
                along: self.ident(along),
            },
            K::Enter { track, owner, near } => K::Enter {
                track: self.ident(track),
                owner: self.opt(owner.as_ref()),
                near: self.expr(near),
            },
            K::Advance { track, owner } => K::Advance {
                track: self.ident(track),
                owner: self.opt(owner.as_ref()),
            },
            K::Take { track, owner } => K::Take {
                track: self.ident(track),
                owner: self.opt(owner.as_ref()),
            },
            K::Require(e) => K::Require(self.expr(e)),
            K::If {
                cond,
                then,
                otherwise,
            } => K::If {
                cond: self.expr(cond),
                then: self.block(then),
                otherwise: otherwise.as_ref().map(|b| self.block(b)),
            },
            K::Either(bs) => K::Either(self.blocks(bs)),
            K::First(bs) => K::First(self.blocks(bs)),
            K::Repeat {
                min,
                max,
                range,
                body,
            } => K::Repeat {
                min: *min,
                max: *max,
                range: *range,
                body: self.block(body),
            },
            K::Distinct(b) => K::Distinct(self.block(b)),
            K::Write(t) => K::Write(self.template(t)),
            K::Win(e) => K::Win(self.expr(e)),
            K::Lose(e) => K::Lose(self.expr(e)),
            K::Draw => K::Draw,
            K::Assign {
                target,
                index,
                op,
                value,
            } => K::Assign {
                target: self.ident(target),
                index: self.opt(index.as_ref()),
                op: *op,
                value: self.expr(value),
            },
            K::Let { name, value } => K::Let {
                name: name.clone(),
                value: self.expr(value),
            },
            K::Call { name, args, .. } => K::Call {
                name: name.clone(),
                args: self.exprs(args),
                body: None,
            },
        };
        Stmt { kind, span: s.span }
    }
}

impl Block {
    /// A procedure's body as it stands at one call: every name that is one of `params` replaced
    /// by the matching argument (see [`Expr::substitute`]); a parameter whose argument is a
    /// plain name also stands for it where a statement names a piece, counter, map or track.
    #[must_use]
    pub fn substitute(&self, params: &[Ident], args: &[Expr]) -> Block {
        Subst { params, args }.block(self)
    }
}

/// Writes procedure calls out, keeping count of the statements written.
struct Expander<'a> {
    procedures: HashMap<&'a str, (&'a [Ident], &'a Block)>,
    /// The procedures being written out, innermost last: a call of one of them recurses.
    stack: Vec<&'a str>,
    budget: usize,
    too_large: Option<Span>,
}

impl<'a> Expander<'a> {
    fn block(&mut self, b: &Block) -> Block {
        Block {
            stmts: b.stmts.iter().map(|s| self.stmt(s)).collect(),
            span: b.span,
        }
    }

    fn stmt(&mut self, s: &Stmt) -> Stmt {
        use StmtKind as K;
        let mut s = s.clone();
        match &mut s.kind {
            K::While { body, .. } | K::Repeat { body, .. } | K::Distinct(body) => {
                *body = self.block(body)
            }
            K::If {
                then, otherwise, ..
            } => {
                *then = self.block(then);
                if let Some(o) = otherwise {
                    *o = self.block(o);
                }
            }
            K::Either(bs) | K::First(bs) => {
                for b in bs {
                    *b = self.block(b);
                }
            }
            K::Call { name, args, body } => *body = self.call(name, args, s.span),
            _ => {}
        }
        s
    }

    /// The block a call stands for, or `None` when it names no procedure, gives another number
    /// of arguments, recurses or exceeds the budget (the checker says which).
    fn call(&mut self, name: &Ident, args: &[Expr], span: Span) -> Option<Block> {
        let &(params, body) = self.procedures.get(name.name.as_str())?;
        if params.len() != args.len() || self.stack.contains(&name.name.as_str()) {
            return None;
        }
        let size = count_statements(body);
        if size > self.budget {
            self.too_large.get_or_insert(span);
            return None;
        }
        self.budget -= size;
        let written = body.substitute(params, args);
        let key = self.procedures.get_key_value(name.name.as_str())?.0;
        self.stack.push(key);
        let out = self.block(&written);
        self.stack.pop();
        Some(out)
    }
}

fn count_statements(b: &Block) -> usize {
    let mut n = 0;
    for s in &b.stmts {
        n += 1;
        n += match &s.kind {
            StmtKind::While { body, .. }
            | StmtKind::Repeat { body, .. }
            | StmtKind::Distinct(body) => count_statements(body),
            StmtKind::If {
                then, otherwise, ..
            } => count_statements(then) + otherwise.as_ref().map_or(0, count_statements),
            StmtKind::Either(bs) | StmtKind::First(bs) => bs.iter().map(count_statements).sum(),
            _ => 0,
        };
    }
    n
}

impl File {
    /// This file with every procedure call in `setup`, `turn` and `on no moves` written out
    /// (calls inside the written blocks too), and the first call that would have written more
    /// than [`MAX_EXPANDED_STATEMENTS`] statements, if any. Calls that name no procedure, give
    /// another number of arguments than it has parameters, or call a procedure being written
    /// out (recursion) stay unexpanded, for the checker to report.
    #[must_use]
    pub fn expand_procedures(&self) -> (File, Option<Span>) {
        let mut procedures = HashMap::new();
        for item in &self.items {
            if let ItemKind::Procedure { name, params, body } = &item.kind {
                procedures
                    .entry(name.name.as_str())
                    .or_insert((params.as_slice(), body));
            }
        }
        if procedures.is_empty() {
            return (self.clone(), None);
        }
        let mut ex = Expander {
            procedures,
            stack: Vec::new(),
            budget: MAX_EXPANDED_STATEMENTS,
            too_large: None,
        };
        let items = self
            .items
            .iter()
            .map(|item| {
                let kind = match &item.kind {
                    ItemKind::Setup(b) => ItemKind::Setup(ex.block(b)),
                    ItemKind::Turn(b) => ItemKind::Turn(ex.block(b)),
                    ItemKind::NoMoves(b) => ItemKind::NoMoves(ex.block(b)),
                    other => other.clone(),
                };
                Item {
                    kind,
                    span: item.span,
                }
            })
            .collect();
        (File { items }, ex.too_large)
    }
}
