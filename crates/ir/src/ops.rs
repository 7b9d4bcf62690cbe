//! The semantics of the IR's operators, shared by the interpreter, constant folding in the
//! lowering and generated code: one definition of each.

use super::{CmpOp, IntOp};

/// Compares two integers. (`#[inline]` so that generated code, another crate, inlines it.)
#[inline]
#[must_use]
pub fn compare(op: CmpOp, a: i32, b: i32) -> bool {
    op.holds(a, b)
}

/// Integer arithmetic on 32 bits with floor division. A result past the range saturates at
/// its end (`i32::MAX` or `i32::MIN`), as a counter's start value does, so a growing count
/// never turns negative; division by zero gives zero.
#[inline]
#[must_use]
pub fn int_op(op: IntOp, a: i32, b: i32) -> i32 {
    match op {
        IntOp::Add => a.saturating_add(b),
        IntOp::Sub => a.saturating_sub(b),
        IntOp::Mul => a.saturating_mul(b),
        // `i32::MIN / -1` is the one quotient past the range.
        IntOp::Div if b == 0 => 0,
        IntOp::Div => a.checked_div_euclid(b).unwrap_or(i32::MAX),
        IntOp::Rem => a.checked_rem_euclid(b).unwrap_or(0),
        IntOp::Max => a.max(b),
        IntOp::Min => a.min(b),
    }
}

/// `-a`, saturating as [`int_op`] does: `-i32::MIN` is `i32::MAX`.
#[inline]
#[must_use]
pub fn neg(a: i32) -> i32 {
    a.saturating_neg()
}

/// A player's points: each shape's copies left in the player's stock times the shape's
/// points, added up, saturating as [`int_op`] does.
#[inline]
#[must_use]
pub fn stock_points(shapes: &[crate::Shape], counters: &[i32], who: usize) -> i32 {
    shapes.iter().fold(0, |total: i32, s| {
        let copies = counters
            .get(usize::from(s.stock) + who)
            .copied()
            .unwrap_or(0);
        total.saturating_add(copies.saturating_mul(s.points))
    })
}

#[cfg(test)]
mod tests {
    use super::{int_op, neg, IntOp};

    /// Results past 32 bits saturate at the end of the range they passed, so a count that
    /// keeps growing stays the largest number instead of turning negative.
    #[test]
    fn arithmetic_saturates() {
        assert_eq!(int_op(IntOp::Add, i32::MAX, 1), i32::MAX);
        assert_eq!(int_op(IntOp::Sub, i32::MIN, 1), i32::MIN);
        assert_eq!(int_op(IntOp::Mul, 1 << 20, 1 << 20), i32::MAX);
        assert_eq!(int_op(IntOp::Mul, -(1 << 20), 1 << 20), i32::MIN);
        assert_eq!(int_op(IntOp::Div, i32::MIN, -1), i32::MAX);
        assert_eq!(int_op(IntOp::Div, 7, 0), 0);
        assert_eq!(int_op(IntOp::Div, -7, 2), -4);
        assert_eq!(int_op(IntOp::Rem, i32::MIN, -1), 0);
        assert_eq!(neg(i32::MIN), i32::MAX);
        assert_eq!(int_op(IntOp::Add, 2, 3), 5);
    }

    /// `max` and `min` pick an operand, at the ends of the range too; `abs` is lowered as
    /// `max(a, -a)`, which saturates at `i32::MIN` as negation does.
    #[test]
    fn max_and_min_pick_an_operand() {
        assert_eq!(int_op(IntOp::Max, 3, -7), 3);
        assert_eq!(int_op(IntOp::Min, 3, -7), -7);
        assert_eq!(int_op(IntOp::Max, i32::MIN, i32::MAX), i32::MAX);
        assert_eq!(int_op(IntOp::Min, i32::MIN, i32::MAX), i32::MIN);
        let abs = |a: i32| int_op(IntOp::Max, a, neg(a));
        assert_eq!((abs(-5), abs(5), abs(0)), (5, 5, 0));
        assert_eq!(abs(i32::MIN), i32::MAX);
    }
}
