//! The language's operators as the IR's: the one translation, used by the checker (table-game
//! conditions) and the lowering.

use rulestone_ir::{AssignKind, CmpOp, IntOp};
use rulestone_syntax::ast::{AssignOp, BinaryOp};

/// The arithmetic of a language operator.
#[must_use]
pub fn int_op(op: BinaryOp) -> Option<IntOp> {
    Some(match op {
        BinaryOp::Add => IntOp::Add,
        BinaryOp::Sub => IntOp::Sub,
        BinaryOp::Mul => IntOp::Mul,
        BinaryOp::Div => IntOp::Div,
        BinaryOp::Rem => IntOp::Rem,
        _ => return None,
    })
}

/// The comparison of a language operator.
#[must_use]
pub fn cmp_op(op: BinaryOp) -> Option<CmpOp> {
    Some(match op {
        BinaryOp::Eq => CmpOp::Eq,
        BinaryOp::Ne => CmpOp::Ne,
        BinaryOp::Lt => CmpOp::Lt,
        BinaryOp::Le => CmpOp::Le,
        BinaryOp::Gt => CmpOp::Gt,
        BinaryOp::Ge => CmpOp::Ge,
        _ => return None,
    })
}

/// The assignment of a language operator.
#[must_use]
pub fn assign_kind(op: AssignOp) -> AssignKind {
    match op {
        AssignOp::Set => AssignKind::Set,
        AssignOp::Add => AssignKind::Add,
        AssignOp::Sub => AssignKind::Sub,
    }
}
