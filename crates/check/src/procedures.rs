//! Statement procedures: a call is checked as the procedure's body written out where the call
//! stands (the syntax tree's `File::expand_procedures` wrote it there), so its parts are checked
//! in the context of each call, as a define's body is at each use. Here: what a call needs
//! besides its body (a procedure of that name, one argument per parameter, no recursion) and
//! what a procedure's body may not do (bind names, E0509).

use super::error::{GameError, TypeError};
use super::names::Sym;
use super::{Checker, Cx};
use rulestone_syntax::ast::{Block, Expr, ItemKind, StmtKind};
use rulestone_syntax::Ident;

/// The names of the procedures a block calls, nested blocks included.
pub(super) fn calls_in<'b>(block: &'b Block, out: &mut Vec<&'b Ident>) {
    block.for_each_stmt(&mut |s| {
        if let StmtKind::Call { name, .. } = &s.kind {
            out.push(name);
        }
    });
}

/// The first name a block binds (`pick`, `place`, `let`), nested blocks included.
fn first_binding(block: &Block) -> Option<&Ident> {
    let mut first = None;
    block.for_each_stmt(&mut |s| {
        let bound = match &s.kind {
            StmtKind::Pick { var, .. } | StmtKind::Place { var, .. } => Some(var),
            StmtKind::Let { name, .. } => Some(name),
            _ => None,
        };
        first = first.or(bound);
    });
    first
}

impl Checker<'_> {
    /// What a procedure's body may not do wherever it is called: bind a name (E0509).
    pub(super) fn check_procedures(&mut self) {
        let file = self.file;
        for item in &file.items {
            if let ItemKind::Procedure { name, body, .. } = &item.kind {
                if let Some(var) = first_binding(body) {
                    self.report(GameError::ProcedureBinds {
                        name: name.name.clone(),
                        var: var.name.clone(),
                        span: var.span,
                    });
                }
            }
        }
    }

    /// A call statement `name(args)`: a procedure with one argument per parameter, whose body
    /// (written out with the arguments) is checked here, in the caller's context.
    pub(super) fn call_stmt(&mut self, name: &Ident, args: &[Expr], body: Option<&Block>) {
        let procedure = match self
            .names
            .get(&name.name)
            .map(|&i| (i, self.entries[i].sym))
        {
            Some((index, Sym::Procedure { item })) => Some((index, item)),
            _ => None,
        };
        let Some((index, item)) = procedure else {
            self.expect_kind(
                name,
                Sym::Procedure { item: 0 },
                Some(
                    "a statement calls a procedure, declared as `procedure name(...) { ... }`"
                        .into(),
                ),
            );
            self.args_alone(args);
            return;
        };
        self.use_global(name);
        let file = self.file;
        let params = match file.items.get(item).map(|i| &i.kind) {
            Some(ItemKind::Procedure { params, .. }) => params.as_slice(),
            _ => &[],
        };
        if params.len() != args.len() {
            let list: Vec<&str> = params.iter().map(|p| p.name.as_str()).collect();
            self.report(TypeError::DefineArity {
                name: name.name.clone(),
                expected: match params.len() {
                    0 => "no arguments".to_string(),
                    1 => "1 argument".to_string(),
                    n => format!("{n} arguments"),
                },
                supplied: match args.len() {
                    0 => "none was".to_string(),
                    1 => "1 argument was".to_string(),
                    n => format!("{n} arguments were"),
                },
                help: format!(
                    "it is declared as `procedure {}({})`",
                    name.name,
                    list.join(", ")
                ),
                span: name.span,
            });
            self.args_alone(args);
            return;
        }
        // Recursion is reported on the graph of calls (E0105); such a call is not written out.
        let Some(body) = body else {
            if !self.cyclic.contains(&name.name) {
                self.args_alone(args);
            }
            return;
        };
        self.expanding.push((index, name.span));
        self.block(body);
        self.expanding.pop();
    }

    /// The arguments of a call that is not written out: checked on their own, for what is
    /// wrong inside them.
    fn args_alone(&mut self, args: &[Expr]) {
        for a in args {
            self.infer(a, Cx::PLAY);
        }
    }
}
