//! Evaluation of expressions whose value is fixed once the options are chosen: board ranges and
//! filters, cell names, counter initial values, and option tests such as `variant != basic`.

use std::collections::HashMap;

use crate::syntax::ast::{BinaryOp, Expr, ExprKind, Template, TemplatePart, UnaryOp};
use crate::syntax::Span;

/// A value known before play starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Const {
    Int(i64),
    Bool(bool),
    /// An enumerated word, such as an option value `basic`.
    Word(String),
    Text(String),
}

/// Why an expression has no constant value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConstError {
    /// The expression depends on the position or on a turn variable.
    NotConstant(Span),
    DivisionByZero(Span),
    Overflow(Span),
    WrongType(Span),
}

impl ConstError {
    /// The expression that could not be evaluated.
    #[must_use]
    pub fn span(&self) -> Span {
        match self {
            ConstError::NotConstant(s)
            | ConstError::DivisionByZero(s)
            | ConstError::Overflow(s)
            | ConstError::WrongType(s) => *s,
        }
    }

    /// Why, in a few words: `division by zero`.
    #[must_use]
    pub fn reason(&self) -> &'static str {
        match self {
            ConstError::NotConstant(_) => "not constant",
            ConstError::DivisionByZero(_) => "division by zero",
            ConstError::Overflow(_) => "value out of range",
            ConstError::WrongType(_) => "wrong type",
        }
    }
}

/// Names with known values: options, enum words, board axes while enumerating cells.
#[derive(Clone, Debug, Default)]
pub struct ConstEnv {
    pub values: HashMap<String, Const>,
}

impl ConstEnv {
    pub fn set(&mut self, name: &str, value: Const) {
        self.values.insert(name.to_string(), value);
    }

    /// Evaluates an expression.
    ///
    /// # Errors
    /// When it is not constant, divides by zero, overflows or mixes types.
    pub fn eval(&self, e: &Expr) -> Result<Const, ConstError> {
        match &e.kind {
            ExprKind::Int(v) => Ok(Const::Int(*v)),
            ExprKind::Name(n) => self
                .values
                .get(&n.name)
                .cloned()
                .ok_or(ConstError::NotConstant(e.span)),
            ExprKind::Call { func, args } if func.name == "letter" && args.len() == 1 => {
                let v = self.int(&args[0])?;
                let letters = u8::try_from(v)
                    .ok()
                    .filter(|v| *v < 26)
                    .ok_or(ConstError::Overflow(e.span))?;
                Ok(Const::Text(char::from(b'a' + letters).to_string()))
            }
            ExprKind::Unary { op, operand } => match op {
                UnaryOp::Not => Ok(Const::Bool(!self.bool(operand)?)),
                UnaryOp::Neg => Ok(Const::Int(
                    self.int(operand)?
                        .checked_neg()
                        .ok_or(ConstError::Overflow(e.span))?,
                )),
            },
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, e.span),
            _ => Err(ConstError::NotConstant(e.span)),
        }
    }

    fn binary(
        &self,
        op: BinaryOp,
        lhs: &Expr,
        rhs: &Expr,
        span: Span,
    ) -> Result<Const, ConstError> {
        let overflow = ConstError::Overflow(span);
        Ok(match op {
            BinaryOp::And => Const::Bool(self.bool(lhs)? && self.bool(rhs)?),
            BinaryOp::Or => Const::Bool(self.bool(lhs)? || self.bool(rhs)?),
            BinaryOp::Eq | BinaryOp::Ne => {
                let (a, b) = (self.eval(lhs)?, self.eval(rhs)?);
                if std::mem::discriminant(&a) != std::mem::discriminant(&b) {
                    return Err(ConstError::WrongType(span));
                }
                Const::Bool((a == b) == (op == BinaryOp::Eq))
            }
            BinaryOp::Lt => Const::Bool(self.int(lhs)? < self.int(rhs)?),
            BinaryOp::Le => Const::Bool(self.int(lhs)? <= self.int(rhs)?),
            BinaryOp::Gt => Const::Bool(self.int(lhs)? > self.int(rhs)?),
            BinaryOp::Ge => Const::Bool(self.int(lhs)? >= self.int(rhs)?),
            BinaryOp::Add => {
                Const::Int(self.int(lhs)?.checked_add(self.int(rhs)?).ok_or(overflow)?)
            }
            BinaryOp::Sub => {
                Const::Int(self.int(lhs)?.checked_sub(self.int(rhs)?).ok_or(overflow)?)
            }
            BinaryOp::Mul => {
                Const::Int(self.int(lhs)?.checked_mul(self.int(rhs)?).ok_or(overflow)?)
            }
            BinaryOp::Div | BinaryOp::Rem => {
                let (a, b) = (self.int(lhs)?, self.int(rhs)?);
                if b == 0 {
                    return Err(ConstError::DivisionByZero(rhs.span));
                }
                // Floor division, so that negative coordinates divide the way boards expect.
                Const::Int(if op == BinaryOp::Div {
                    a.div_euclid(b)
                } else {
                    a.rem_euclid(b)
                })
            }
            BinaryOp::Where | BinaryOp::In | BinaryOp::Union | BinaryOp::Inter => {
                return Err(ConstError::NotConstant(span))
            }
        })
    }

    /// Evaluates an integer expression.
    ///
    /// # Errors
    /// As [`ConstEnv::eval`], or when the value is not an integer.
    pub fn int(&self, e: &Expr) -> Result<i64, ConstError> {
        match self.eval(e)? {
            Const::Int(v) => Ok(v),
            _ => Err(ConstError::WrongType(e.span)),
        }
    }

    /// Evaluates a condition.
    ///
    /// # Errors
    /// As [`ConstEnv::eval`], or when the value is not a condition.
    pub fn bool(&self, e: &Expr) -> Result<bool, ConstError> {
        match self.eval(e)? {
            Const::Bool(v) => Ok(v),
            _ => Err(ConstError::WrongType(e.span)),
        }
    }

    /// Renders a template whose holes are all constant.
    ///
    /// # Errors
    /// As [`ConstEnv::eval`].
    pub fn render(&self, t: &Template) -> Result<String, ConstError> {
        let mut out = String::new();
        for part in &t.parts {
            match part {
                TemplatePart::Text(s) => out.push_str(s),
                TemplatePart::Hole(e) => match self.eval(e)? {
                    Const::Int(v) => out.push_str(&v.to_string()),
                    Const::Bool(b) => out.push_str(if b { "true" } else { "false" }),
                    Const::Word(w) | Const::Text(w) => out.push_str(&w),
                },
            }
        }
        Ok(out)
    }
}
