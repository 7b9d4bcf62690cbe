//! The board's cells, enumerated from the `board` declaration for one choice of options.

use std::collections::HashMap;

use super::consteval::{Const, ConstEnv, ConstError};
use rulestone_syntax::ast::Board;
use rulestone_syntax::Span;

/// The most cells a board may have (the engine's cell sets are sized by the same limit).
pub use rulestone_base::MAX_CELLS;

/// Every cell of a board, in declaration order, with coordinates and names.
#[derive(Clone, Debug, Default)]
pub struct Geometry {
    pub axes: Vec<String>,
    /// `coords[cell][axis]`
    pub coords: Vec<Vec<i64>>,
    pub names: Vec<String>,
    pub by_coords: HashMap<Vec<i64>, usize>,
    pub by_name: HashMap<String, usize>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GeometryError {
    Const(ConstError),
    /// Two cells got the same name; the second cell's coordinates are given.
    DuplicateName {
        name: String,
        span: Span,
    },
    /// More than [`MAX_CELLS`] cells: `found` of them (counted to the first
    /// [`MAX_COORDINATES`] coordinate tuples, so a lower bound on huge ranges).
    TooManyCells {
        found: usize,
        span: Span,
    },
    /// A cell's coordinate outside [`COORDINATES`]; the span is its axis's range.
    CoordinateRange {
        span: Span,
    },
}

/// The values a cell's coordinate may take: the 32-bit integers but their two ends. Arithmetic
/// saturates at the ends (a step past the edge of the integers stays there), so no cell may sit
/// at one: `offset(c, 2147483647, 0)` must find no cell rather than the last one.
pub const COORDINATES: std::ops::RangeInclusive<i64> =
    (i32::MIN as i64 + 1)..=(i32::MAX as i64 - 1);

impl From<ConstError> for GeometryError {
    fn from(e: ConstError) -> Self {
        GeometryError::Const(e)
    }
}

impl Geometry {
    /// Enumerates the cells: nested ranges in axis order, then the filter, then the name.
    ///
    /// # Errors
    /// A range bound or name that is not constant, duplicate names, or too many cells.
    pub fn build(board: &Board, options: &ConstEnv) -> Result<Geometry, GeometryError> {
        let mut g = Geometry {
            axes: board.axes.iter().map(|a| a.name.clone()).collect(),
            ..Geometry::default()
        };
        let mut env = options.clone();
        let mut coord = Vec::with_capacity(board.ranges.len());
        let mut count = Count::default();
        enumerate(board, 0, &mut env, &mut coord, &mut g, &mut count)?;
        if count.past_limit > 0 {
            let span = match (board.ranges.first(), board.ranges.last()) {
                (Some(first), Some(last)) => first.span.merge(last.span),
                _ => board.name.span,
            };
            return Err(GeometryError::TooManyCells {
                found: MAX_CELLS + count.past_limit,
                span,
            });
        }
        Ok(g)
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.coords.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.coords.is_empty()
    }

    /// The cell at `from + step`, if it exists.
    #[must_use]
    pub fn offset(&self, from: usize, step: &[i64]) -> Option<usize> {
        if step.len() != self.axes.len() {
            return None;
        }
        let target: Vec<i64> = self.coords[from]
            .iter()
            .zip(step)
            .map(|(a, b)| a + b)
            .collect();
        self.by_coords.get(&target).copied()
    }
}

/// What enumeration counts besides the cells it keeps: past [`MAX_CELLS`] it only counts, so
/// that the error can say how many cells the board would have.
#[derive(Default)]
struct Count {
    tuples: u64,
    past_limit: usize,
}

fn enumerate(
    board: &Board,
    depth: usize,
    env: &mut ConstEnv,
    coord: &mut Vec<i64>,
    g: &mut Geometry,
    count: &mut Count,
) -> Result<(), GeometryError> {
    if depth == board.ranges.len() {
        count.tuples += 1;
        if let Some(filter) = &board.filter {
            if !env.bool(filter)? {
                return Ok(());
            }
        }
        if g.coords.len() >= MAX_CELLS {
            count.past_limit += 1;
            return Ok(());
        }
        if let Some(axis) = coord.iter().position(|v| !COORDINATES.contains(v)) {
            return Err(GeometryError::CoordinateRange {
                span: board.ranges[axis].span,
            });
        }
        let name = env.render(&board.name)?;
        let id = g.coords.len();
        if g.by_name.insert(name.clone(), id).is_some() {
            return Err(GeometryError::DuplicateName {
                name,
                span: board.name.span,
            });
        }
        g.by_coords.insert(coord.clone(), id);
        g.coords.push(coord.clone());
        g.names.push(name);
        return Ok(());
    }
    let range = &board.ranges[depth];
    let lo = env.int(&range.lo)?;
    let hi = env.int(&range.hi)?;
    for v in lo..=hi {
        if count.tuples >= MAX_COORDINATES && count.past_limit > 0 {
            break;
        }
        env.set(&range.axis.name, Const::Int(v));
        coord.push(v);
        enumerate(board, depth + 1, env, coord, g, count)?;
        coord.pop();
    }
    env.values.remove(&range.axis.name);
    Ok(())
}

/// The most coordinate tuples the cell ranges may span, before the `if` filter: beyond this,
/// building the board would take too long even if the filter keeps few cells.
pub const MAX_COORDINATES: u64 = 1 << 20;

/// Counts the coordinate tuples the ranges enumerate (before the filter), stopping as soon as
/// the count passes `limit`; run it before [`Geometry::build`] to keep building fast.
///
/// # Errors
/// A range bound that cannot be evaluated.
pub fn count_coordinates(board: &Board, options: &ConstEnv, limit: u64) -> Result<u64, ConstError> {
    let mut env = options.clone();
    let mut count = 0;
    count_from(board, 0, &mut env, limit, &mut count)?;
    Ok(count)
}

fn count_from(
    board: &Board,
    depth: usize,
    env: &mut ConstEnv,
    limit: u64,
    count: &mut u64,
) -> Result<(), ConstError> {
    let Some(range) = board.ranges.get(depth) else {
        *count += 1;
        return Ok(());
    };
    let lo = env.int(&range.lo)?;
    let hi = env.int(&range.hi)?;
    if hi < lo {
        return Ok(());
    }
    if depth + 1 == board.ranges.len() {
        let n = u64::try_from(i128::from(hi) - i128::from(lo) + 1).unwrap_or(u64::MAX);
        *count = count.saturating_add(n);
        return Ok(());
    }
    for v in lo..=hi {
        if *count > limit {
            break;
        }
        env.set(&range.axis.name, Const::Int(v));
        count_from(board, depth + 1, env, limit, count)?;
    }
    env.values.remove(&range.axis.name);
    Ok(())
}
