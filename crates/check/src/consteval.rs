//! Evaluation of expressions whose value is fixed once the options are chosen: board ranges and
//! filters, cell names, counter initial values, and option tests such as `variant != basic`.

use std::collections::HashMap;

use rulestone_syntax::ast::{
    decimal_text, BinaryOp, Expr, ExprKind, File, Template, TemplatePart, UnaryOp, DECIMAL_SCALE,
};
use rulestone_syntax::Span;

/// A value known before play starts.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Const {
    Int(i64),
    /// A decimal number in hundredths (`7.5` is 750).
    Decimal(i64),
    Bool(bool),
    /// An enumerated word, such as an option value `basic`.
    Word(String),
    Text(String),
}

impl Const {
    /// The value as it is written (a decimal with its point, a word or text as it is).
    #[must_use]
    pub fn text(&self) -> String {
        match self {
            Const::Int(v) => v.to_string(),
            Const::Decimal(v) => decimal_text(*v),
            Const::Bool(b) => b.to_string(),
            Const::Word(w) | Const::Text(w) => w.clone(),
        }
    }
}

/// Why an expression has no constant value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ConstError {
    /// The expression depends on the position or on a turn variable.
    NotConstant(Span),
    DivisionByZero(Span),
    Overflow(Span),
    WrongType(Span),
    /// Zones and defines naming one another deeper than evaluation follows: the name reached
    /// at the limit.
    TooDeep(Span),
}

impl ConstError {
    /// The expression that could not be evaluated.
    #[must_use]
    pub fn span(&self) -> Span {
        match self {
            ConstError::NotConstant(s)
            | ConstError::DivisionByZero(s)
            | ConstError::Overflow(s)
            | ConstError::WrongType(s)
            | ConstError::TooDeep(s) => *s,
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
            ConstError::TooDeep(_) => "zones and defines built from one another nest too deep",
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

    /// Each option `file` declares, with its value as text (empty when it has none).
    #[must_use]
    pub fn texts(&self, file: &File) -> Vec<(String, String)> {
        let text = |name: &String| self.values.get(name).map(Const::text).unwrap_or_default();
        let options = super::options::declared(file);
        options
            .map(|d| (d.name.name.clone(), text(&d.name.name)))
            .collect()
    }

    /// Evaluates an expression.
    ///
    /// # Errors
    /// When it is not constant, divides by zero, overflows or mixes types.
    pub fn eval(&self, e: &Expr) -> Result<Const, ConstError> {
        match &e.kind {
            ExprKind::Int(v) => Ok(Const::Int(*v)),
            ExprKind::Decimal(v) => Ok(Const::Decimal(*v)),
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
                UnaryOp::Neg => {
                    let (v, decimal) = self.number(operand)?;
                    let v = v.checked_neg().ok_or(ConstError::Overflow(e.span))?;
                    Ok(if decimal {
                        Const::Decimal(v)
                    } else {
                        Const::Int(v)
                    })
                }
            },
            ExprKind::Binary { op, lhs, rhs } => self.binary(*op, lhs, rhs, e.span),
            ExprKind::If {
                cond,
                then,
                otherwise,
            } => self.eval(if self.bool(cond)? { then } else { otherwise }),
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
        match op {
            BinaryOp::And => return Ok(Const::Bool(self.bool(lhs)? && self.bool(rhs)?)),
            BinaryOp::Or => return Ok(Const::Bool(self.bool(lhs)? || self.bool(rhs)?)),
            BinaryOp::Where | BinaryOp::In | BinaryOp::Union | BinaryOp::Inter => {
                return Err(ConstError::NotConstant(span))
            }
            _ => {}
        }
        // Each side is evaluated once: a chain of operators stays linear.
        let (a, b) = (self.eval(lhs)?, self.eval(rhs)?);
        match (&a, &b) {
            (Const::Decimal(_), Const::Int(_) | Const::Decimal(_))
            | (Const::Int(_), Const::Decimal(_)) => {
                return decimal_binary(op, number(&a, lhs)?, number(&b, rhs)?, rhs.span, span)
            }
            _ => {}
        }
        if matches!(op, BinaryOp::Eq | BinaryOp::Ne) {
            if std::mem::discriminant(&a) != std::mem::discriminant(&b) {
                return Err(ConstError::WrongType(span));
            }
            return Ok(Const::Bool((a == b) == (op == BinaryOp::Eq)));
        }
        let (x, y) = (integer(&a, lhs)?, integer(&b, rhs)?);
        if let Some(cmp) = crate::operators::cmp_op(op) {
            return Ok(Const::Bool(cmp.holds(x, y)));
        }
        let overflow = ConstError::Overflow(span);
        Ok(match op {
            BinaryOp::Add => Const::Int(x.checked_add(y).ok_or(overflow)?),
            BinaryOp::Sub => Const::Int(x.checked_sub(y).ok_or(overflow)?),
            BinaryOp::Mul => Const::Int(x.checked_mul(y).ok_or(overflow)?),
            _ => {
                if y == 0 {
                    return Err(ConstError::DivisionByZero(rhs.span));
                }
                // Floor division, so that negative coordinates divide the way boards expect.
                Const::Int(if op == BinaryOp::Div {
                    x.div_euclid(y)
                } else {
                    x.rem_euclid(y)
                })
            }
        })
    }

    /// Evaluates a number: its value (in hundredths for a decimal) and whether it is decimal.
    fn number(&self, e: &Expr) -> Result<(i64, bool), ConstError> {
        number(&self.eval(e)?, e)
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
                TemplatePart::Hole(e) => out.push_str(&self.eval(e)?.text()),
            }
        }
        Ok(out)
    }
}

/// A number's value (in hundredths for a decimal) and whether it is decimal.
fn number(c: &Const, e: &Expr) -> Result<(i64, bool), ConstError> {
    match c {
        Const::Int(v) => Ok((*v, false)),
        Const::Decimal(v) => Ok((*v, true)),
        _ => Err(ConstError::WrongType(e.span)),
    }
}

/// An integer's value.
fn integer(c: &Const, e: &Expr) -> Result<i64, ConstError> {
    match c {
        Const::Int(v) => Ok(*v),
        _ => Err(ConstError::WrongType(e.span)),
    }
}

/// Arithmetic and comparisons with a decimal side, in hundredths: an integer side of a sum or
/// comparison is scaled; a product takes an integer as one side, a quotient as its divisor.
fn decimal_binary(
    op: BinaryOp,
    a: (i64, bool),
    b: (i64, bool),
    divisor: Span,
    span: Span,
) -> Result<Const, ConstError> {
    let overflow = ConstError::Overflow(span);
    let scaled = |(v, decimal): (i64, bool)| {
        if decimal {
            Ok(v)
        } else {
            v.checked_mul(DECIMAL_SCALE).ok_or(overflow.clone())
        }
    };
    let (x, y) = (scaled(a)?, scaled(b)?);
    if let Some(cmp) = crate::operators::cmp_op(op) {
        return Ok(Const::Bool(cmp.holds(x, y)));
    }
    let value = match op {
        BinaryOp::Add => x.checked_add(y),
        BinaryOp::Sub => x.checked_sub(y),
        BinaryOp::Mul if !(a.1 && b.1) => a.0.checked_mul(b.0),
        BinaryOp::Div if !b.1 => {
            if b.0 == 0 {
                return Err(ConstError::DivisionByZero(divisor));
            }
            Some(a.0.div_euclid(b.0))
        }
        _ => return Err(ConstError::WrongType(span)),
    };
    value.map(Const::Decimal).ok_or(overflow)
}
