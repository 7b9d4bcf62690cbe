//! Evaluation of constant cell sets (zones) on a built board, for one choice of options.

use std::collections::HashMap;

use super::consteval::{Const, ConstEnv};
use super::geometry::Geometry;
use crate::syntax::ast::{BinaryOp, Expr, ExprKind, File, ItemKind};

/// Evaluates zones, given the zones and defines a file declares.
pub struct ZoneEval<'a> {
    geometry: &'a Geometry,
    /// Bodies of zones and defines, by name (the first declaration of each name).
    bodies: HashMap<&'a str, &'a Expr>,
}

/// How deep zones and defines may refer to each other before evaluation gives up.
const MAX_DEPTH: usize = 64;

impl<'a> ZoneEval<'a> {
    #[must_use]
    pub fn new(file: &'a File, geometry: &'a Geometry) -> Self {
        let mut bodies = HashMap::new();
        for item in &file.items {
            if let ItemKind::Zone { name, cells: e } | ItemKind::Define { name, expr: e } =
                &item.kind
            {
                bodies.entry(name.name.as_str()).or_insert(e);
            }
        }
        ZoneEval { geometry, bodies }
    }

    /// The cells of a constant cell-set expression as a membership vector indexed by cell id,
    /// or `None` when it is not a constant set (the checker reports why).
    #[must_use]
    pub fn cells(&self, e: &Expr, options: &ConstEnv) -> Option<Vec<bool>> {
        let mut env = options.clone();
        self.eval(e, &mut env, 0)
    }

    fn eval(&self, e: &Expr, env: &mut ConstEnv, depth: usize) -> Option<Vec<bool>> {
        if depth > MAX_DEPTH {
            return None;
        }
        let n = self.geometry.len();
        match &e.kind {
            ExprKind::Name(id) => {
                if let Some(body) = self.bodies.get(id.name.as_str()) {
                    self.eval(body, env, depth + 1)
                } else if id.name == "cells" {
                    Some(vec![true; n])
                } else {
                    let &cell = self.geometry.by_name.get(&id.name)?;
                    let mut set = vec![false; n];
                    set[cell] = true;
                    Some(set)
                }
            }
            ExprKind::CellSet(items) => {
                let mut set = vec![false; n];
                for item in items {
                    let s = self.eval(item, env, depth + 1)?;
                    set.iter_mut().zip(s).for_each(|(a, b)| *a |= b);
                }
                Some(set)
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
                        Some(a)
                    }
                    BinaryOp::Where => {
                        for (cell, keep) in a.iter_mut().enumerate() {
                            if !*keep {
                                continue;
                            }
                            for (axis, v) in self.geometry.axes.iter().zip(&self.geometry.coords[cell]) {
                                env.set(axis, Const::Int(*v));
                            }
                            *keep = env.bool(rhs).ok()?;
                        }
                        for axis in &self.geometry.axes {
                            env.values.remove(axis);
                        }
                        Some(a)
                    }
                    _ => None,
                }
            }
            _ => None,
        }
    }
}
