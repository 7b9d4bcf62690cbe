//! Values fixed before play: define expansion (defines are macros), and the cells of zones on a
//! built board for one choice of options. Lowering can use these to compute what the checker
//! accepted as constant.

use std::cell::RefCell;
use std::collections::HashMap;

use super::consteval::{Const, ConstEnv, ConstError};
use super::geometry::Geometry;
use rulestone_syntax::ast::{BinaryOp, Expr, ExprKind, File, ItemKind};
use rulestone_syntax::Ident;

/// How deep zones and defines may refer to each other before evaluation gives up (the checker
/// reports cycles as E0105; past this a chain is refused as too deep, E0005).
pub const MAX_DEPTH: usize = rulestone_syntax::MAX_DEPTH + 1;
/// How many parts one call of a define may expand to here: the type check reports the same
/// expansions past its limit (E0007).
const MAX_CALL_PARTS: usize = 100_000;

/// The defines of a file, for macro expansion.
pub struct Defines<'a> {
    bodies: HashMap<&'a str, &'a Expr>,
    /// The parameters of each define that has some.
    params: HashMap<&'a str, &'a [Ident]>,
}

impl<'a> Defines<'a> {
    /// The first declaration of every define name in the file.
    #[must_use]
    pub fn new(file: &'a File) -> Self {
        let mut bodies = HashMap::new();
        let mut params = HashMap::new();
        for item in &file.items {
            if let ItemKind::Define {
                name,
                params: p,
                expr,
            } = &item.kind
            {
                if !p.is_empty() {
                    params.entry(name.name.as_str()).or_insert(p.as_slice());
                }
                bodies.entry(name.name.as_str()).or_insert(expr);
            }
        }
        Defines { bodies, params }
    }

    /// A call of a parameterised define, as it stands there: the body with its arguments in
    /// place.
    #[must_use]
    pub fn call(&self, e: &Expr) -> Option<Expr> {
        let ExprKind::Call { func, args } = &e.kind else {
            return None;
        };
        let params = self.params.get(func.name.as_str())?;
        let body = self.bodies.get(func.name.as_str())?;
        // Arguments used twice double the body at each nested call: past the limit on
        // expansions (E0007, reported by the type check) nothing is built.
        let sizes: Vec<usize> = args.iter().map(Expr::size).collect();
        if body.substituted_size(params, &sizes) > MAX_CALL_PARTS {
            return None;
        }
        Some(body.substitute(params, args))
    }

    /// The body of a define without parameters.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<&'a Expr> {
        if self.params.contains_key(name) {
            return None;
        }
        self.bodies.get(name).copied()
    }

    /// The expression with every define replaced by its body, recursively, so that e.g.
    /// [`ConstEnv::int`] can evaluate a counter's start value written with a define; `None` if
    /// the expansion nests too deep (a cycle).
    #[must_use]
    pub fn expand(&self, e: &Expr) -> Option<Expr> {
        self.expand_at(e, 0)
    }

    fn expand_at(&self, e: &Expr, depth: usize) -> Option<Expr> {
        if depth > MAX_DEPTH {
            return None;
        }
        let deeper = |x: &Expr| self.expand_at(x, depth + 1).map(Box::new);
        let kind = match &e.kind {
            ExprKind::Name(id) if self.params.contains_key(id.name.as_str()) => {
                ExprKind::Name(id.clone())
            }
            ExprKind::Name(id) => match self.bodies.get(id.name.as_str()) {
                Some(body) => return self.expand_at(body, depth + 1),
                None => ExprKind::Name(id.clone()),
            },
            ExprKind::Int(v) => ExprKind::Int(*v),
            ExprKind::Decimal(v) => ExprKind::Decimal(*v),
            ExprKind::Call { .. } if self.call(e).is_some() => {
                return self.expand_at(&self.call(e)?, depth + 1);
            }
            ExprKind::Call { func, args } => ExprKind::Call {
                func: func.clone(),
                args: self.expand_all(args, depth)?,
            },
            ExprKind::CellSet(items) => ExprKind::CellSet(self.expand_all(items, depth)?),
            ExprKind::Unary { op, operand } => ExprKind::Unary {
                op: *op,
                operand: deeper(operand)?,
            },
            ExprKind::Binary { op, lhs, rhs } => ExprKind::Binary {
                op: *op,
                lhs: deeper(lhs)?,
                rhs: deeper(rhs)?,
            },
            ExprKind::Field { base, field } => ExprKind::Field {
                base: deeper(base)?,
                field: field.clone(),
            },
            ExprKind::Index { base, index } => ExprKind::Index {
                base: deeper(base)?,
                index: deeper(index)?,
            },
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => ExprKind::If {
                cond: deeper(cond)?,
                then: deeper(then)?,
                otherwise: deeper(otherwise)?,
            },
        };
        Some(Expr { kind, span: e.span })
    }

    fn expand_all(&self, es: &[Expr], depth: usize) -> Option<Vec<Expr>> {
        es.iter().map(|a| self.expand_at(a, depth + 1)).collect()
    }
}

/// Evaluates zones on a built board.
pub struct ZoneEval<'a> {
    geometry: &'a Geometry,
    /// Bodies of zones, by name (the first declaration of each name).
    zones: HashMap<&'a str, &'a Expr>,
    defines: Defines<'a>,
    /// Each zone's cells once computed: a zone named twice in another (`z | z`) is computed
    /// once, so a chain of such zones takes linear time, not exponential.
    known: RefCell<HashMap<&'a str, Vec<bool>>>,
}

impl<'a> ZoneEval<'a> {
    #[must_use]
    pub fn new(file: &'a File, geometry: &'a Geometry) -> Self {
        let mut zones = HashMap::new();
        for item in &file.items {
            if let ItemKind::Zone { name, cells } = &item.kind {
                zones.entry(name.name.as_str()).or_insert(cells);
            }
        }
        ZoneEval {
            geometry,
            zones,
            defines: Defines::new(file),
            known: RefCell::new(HashMap::new()),
        }
    }

    /// The cells of a constant cell-set expression as a membership vector indexed by cell id.
    ///
    /// # Errors
    /// When the expression is not a constant set, or a `where` condition divides by zero or
    /// overflows.
    pub fn cells(&self, e: &Expr, options: &ConstEnv) -> Result<Vec<bool>, ConstError> {
        let mut env = options.clone();
        self.eval(e, &mut env, 0)
    }

    fn eval(&self, e: &Expr, env: &mut ConstEnv, depth: usize) -> Result<Vec<bool>, ConstError> {
        let not_constant = ConstError::NotConstant(e.span);
        if depth > MAX_DEPTH {
            return Err(ConstError::TooDeep(e.span));
        }
        let n = self.geometry.len();
        match &e.kind {
            ExprKind::Name(id) => {
                if let Some((&name, &body)) = self.zones.get_key_value(id.name.as_str()) {
                    if let Some(set) = self.known.borrow().get(name) {
                        return Ok(set.clone());
                    }
                    let set = self.eval(body, env, depth + 1)?;
                    self.known.borrow_mut().insert(name, set.clone());
                    Ok(set)
                } else if let Some(body) = self.defines.get(&id.name) {
                    self.eval(body, env, depth + 1)
                } else if id.name == "cells" {
                    Ok(vec![true; n])
                } else {
                    let &cell = self.geometry.by_name.get(&id.name).ok_or(not_constant)?;
                    let mut set = vec![false; n];
                    set[cell] = true;
                    Ok(set)
                }
            }
            ExprKind::CellSet(items) => {
                let mut set = vec![false; n];
                for item in items {
                    let s = self.eval(item, env, depth + 1)?;
                    set.iter_mut().zip(s).for_each(|(a, b)| *a |= b);
                }
                Ok(set)
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let mut a = self.eval(lhs, env, depth + 1)?;
                match op {
                    BinaryOp::Union | BinaryOp::Inter | BinaryOp::Sub => {
                        let b = self.eval(rhs, env, depth + 1)?;
                        for (x, y) in a.iter_mut().zip(b) {
                            *x = match op {
                                BinaryOp::Union => *x || y,
                                BinaryOp::Inter => *x && y,
                                _ => *x && !y,
                            };
                        }
                        Ok(a)
                    }
                    BinaryOp::Where => {
                        let condition = self
                            .defines
                            .expand(rhs)
                            .ok_or(ConstError::NotConstant(rhs.span))?;
                        for (cell, keep) in a.iter_mut().enumerate() {
                            if !*keep {
                                continue;
                            }
                            let coords = &self.geometry.coords[cell];
                            for (axis, v) in self.geometry.axes.iter().zip(coords) {
                                env.set(axis, Const::Int(*v));
                            }
                            *keep = env.bool(&condition)?;
                        }
                        for axis in &self.geometry.axes {
                            env.values.remove(axis);
                        }
                        Ok(a)
                    }
                    _ => Err(not_constant),
                }
            }
            ExprKind::Call { .. } => match self.defines.call(e) {
                Some(body) => self.eval(&body, env, depth + 1),
                None => Err(not_constant),
            },
            _ => Err(not_constant),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Defines, ZoneEval};
    use crate::geometry::Geometry;
    use crate::options;
    use rulestone_syntax::ast::{Expr, File, ItemKind};

    const SOURCE: &str = r#"
        option size: 2..5 = 3
        board { axes x, y  cells x in 0..size - 1, y in 0..size - 1  name "{letter(x)}{y + 1}" }
        define low = y < 1
        define start = size * 2
        define row(k) = cells where y == k
        define twice(v) = v + v
        zone bottom = cells where low
        zone corner = bottom & {a1, c3}
        zone rest = cells - bottom - corner
        zone middle = row(twice(1) - 1)
        counter n = start
        counter m = twice(start) + twice(1)
    "#;

    fn body<'a>(file: &'a File, wanted: &str) -> Option<&'a Expr> {
        file.items.iter().find_map(|i| match &i.kind {
            ItemKind::Zone { name, cells: e } | ItemKind::Counter { name, init: e, .. }
                if name.name == wanted =>
            {
                Some(e)
            }
            _ => None,
        })
    }

    #[test]
    fn zones_are_computed_with_defines_expanded() {
        let file = rulestone_syntax::parse(SOURCE).expect("parses");
        let env = options::resolve(&file, &[]).expect("options");
        let board = file.items.iter().find_map(|i| match &i.kind {
            ItemKind::Board(b) => Some(b),
            _ => None,
        });
        let geometry = Geometry::build(board.expect("board"), &env).expect("geometry");
        let eval = ZoneEval::new(&file, &geometry);
        let count = |name: &str| {
            let set = eval
                .cells(body(&file, name).expect("zone"), &env)
                .expect("constant");
            set.iter().filter(|c| **c).count()
        };
        assert_eq!(count("bottom"), 3);
        assert_eq!(count("corner"), 1);
        assert_eq!(count("rest"), 6);
        assert_eq!(count("middle"), 3);
    }

    #[test]
    fn counter_start_values_expand_defines() {
        let file = rulestone_syntax::parse(SOURCE).expect("parses");
        let env = options::resolve(&file, &[]).expect("options");
        let init = Defines::new(&file).expand(body(&file, "n").expect("counter"));
        assert_eq!(env.int(&init.expect("expands")), Ok(6));
        let init = Defines::new(&file).expand(body(&file, "m").expect("counter"));
        assert_eq!(env.int(&init.expect("expands")), Ok(14));
    }
}
