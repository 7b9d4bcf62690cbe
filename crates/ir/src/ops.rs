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
    }
}
