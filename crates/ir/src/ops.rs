//! The semantics of the IR's operators, shared by the interpreter, constant folding in the
//! lowering and generated code: one definition of each.

use super::{CmpOp, IntOp};

/// Compares two integers. (`#[inline]` so that generated code, another crate, inlines it.)
#[inline]
#[must_use]
pub fn compare(op: CmpOp, a: i32, b: i32) -> bool {
    op.holds(a, b)
}

/// Integer arithmetic with floor division; division by zero gives zero.
#[inline]
#[must_use]
pub fn int_op(op: IntOp, a: i32, b: i32) -> i32 {
    match op {
        IntOp::Add => a.wrapping_add(b),
        IntOp::Sub => a.wrapping_sub(b),
        IntOp::Mul => a.wrapping_mul(b),
        IntOp::Div => a.checked_div_euclid(b).unwrap_or(0),
        IntOp::Rem => a.checked_rem_euclid(b).unwrap_or(0),
        IntOp::Max => a.max(b),
        IntOp::Min => a.min(b),
    }
}

#[cfg(test)]
mod tests {
    use super::{int_op, IntOp};

    /// `max` and `min` pick an operand, at the ends of the range too; `abs` is lowered as
    /// `max(a, -a)`, which wraps at `i32::MIN` as negation does.
    #[test]
    fn max_and_min_pick_an_operand() {
        assert_eq!(int_op(IntOp::Max, 3, -7), 3);
        assert_eq!(int_op(IntOp::Min, 3, -7), -7);
        assert_eq!(int_op(IntOp::Max, i32::MIN, i32::MAX), i32::MAX);
        assert_eq!(int_op(IntOp::Min, i32::MIN, i32::MAX), i32::MIN);
        let abs = |a: i32| int_op(IntOp::Max, a, a.wrapping_neg());
        assert_eq!((abs(-5), abs(5), abs(0)), (5, 5, 0));
        assert_eq!(abs(i32::MIN), i32::MIN);
    }
}
