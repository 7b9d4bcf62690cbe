//! Building a [`Program`]: what any front end needs to write one, kept apart from the lowering
//! so that the lowering only translates the checked game.
//!
//! - Expressions are added to the program's tables by [`Program::push_set`] and its siblings;
//!   [`Program::union`], [`Program::inter`], [`Program::diff`], [`Program::not`],
//!   [`Program::and_or`] and [`Program::compare`] fold constant operands, so every program
//!   states a constant test as a constant; [`Program::filter`] writes a `where` in the cheapest
//!   form the passes find.
//! - [`Program::add_counter`] lays out a counter's slots; [`locals::Locals`] gives each local
//!   name (picked cell, direction value, `let` set, placed shape) its slot from a bounded file
//!   ([`Slots`]), each file with its own limit error (E1001-E1003).
//! - [`Labels`] assemble forward jumps: a jump names a label until [`Labels::resolve`] puts the
//!   index of the op its label was bound to.
//! - [`Asm`] emits ops into one program: the tests and failures the lowering writes, the tokens
//!   a moving piece carries, and the track statements ([`tracks`]), which have no op of their
//!   own.
//! - [`tables`] copies the checker's configured board tables into the program's, and holds the
//!   language's defaults for what a game leaves out (a piece's symbols, a marker's legend).
//!
//! Invariant: every id a builder returns indexes the table it was pushed to; past 2^16 entries
//! ids saturate, and [`Program::ids_fit`] reports it (the lowering calls it after each item).

pub mod locals;
pub mod tables;
pub mod tracks;

use std::collections::HashMap;

use super::ops::compare;
use super::passes::{axis_filter, set_order, static_where};
use super::{
    AssignKind, AssignSlot, BoolExpr, BoolId, CellRef, CellSet, CmpOp, Code, Counter, CounterView,
    Finish,
};
use super::{BuildError, IntExpr, IntId, IntOp, Op, Program, SetExpr, SetId};
use super::{Template, TemplatePart, DECIMAL_SCALE};
use rulestone_base::Span;

type Result<T> = std::result::Result<T, BuildError>;

/// The id of the entry `len - 1` of a table: 16 bits, saturating ([`Program::ids_fit`]).
fn last_id(len: usize) -> u16 {
    u16::try_from(len - 1).unwrap_or(u16::MAX)
}

impl Program {
    /// Adds a cell-set expression; its id.
    pub fn push_set(&mut self, s: SetExpr) -> SetId {
        self.sets.push(s);
        last_id(self.sets.len())
    }

    /// Adds an integer expression; its id.
    pub fn push_int(&mut self, i: IntExpr) -> IntId {
        self.ints.push(i);
        last_id(self.ints.len())
    }

    /// Adds a condition; its id.
    pub fn push_bool(&mut self, b: BoolExpr) -> BoolId {
        self.bools.push(b);
        last_id(self.bools.len())
    }

    /// The cells of set `id` when it is a constant.
    #[must_use]
    pub fn const_set(&self, id: SetId) -> Option<CellSet> {
        match self.sets[usize::from(id)] {
            SetExpr::Const(c) => Some(c),
            _ => None,
        }
    }

    /// The value of condition `id` when it is a constant.
    #[must_use]
    pub fn const_bool(&self, id: BoolId) -> Option<bool> {
        match self.bools[usize::from(id)] {
            BoolExpr::Const(v) => Some(v),
            _ => None,
        }
    }

    /// `a | b`.
    pub fn union(&mut self, a: SetId, b: SetId) -> SetId {
        match (self.const_set(a), self.const_set(b)) {
            (Some(x), Some(y)) => self.push_set(SetExpr::Const(x | y)),
            _ => self.push_set(SetExpr::Union(a, b)),
        }
    }

    /// `a & b`, its cheaper operand first ([`set_order`]).
    pub fn inter(&mut self, a: SetId, b: SetId) -> SetId {
        let s = match (self.const_set(a), self.const_set(b)) {
            (Some(x), Some(y)) => SetExpr::Const(x & y),
            _ => set_order::inter(self, a, b),
        };
        self.push_set(s)
    }

    /// `a - b`.
    pub fn diff(&mut self, a: SetId, b: SetId) -> SetId {
        let s = match (self.const_set(a), self.const_set(b)) {
            (Some(x), Some(y)) => SetExpr::Const(x - y),
            _ => SetExpr::Diff(a, b),
        };
        self.push_set(s)
    }

    /// `base where cond`, in the cheapest form the passes find: the cells themselves when they
    /// are known before play ([`static_where`]), lookups for what of `cond` reads the
    /// candidate through one coordinate at a time ([`axis_filter`]), else a test of each cell.
    pub fn filter(&mut self, base: SetId, cond: BoolId) -> SetId {
        if self.const_bool(cond) == Some(true) {
            return base;
        }
        let s = match static_where::run(self, base, cond) {
            Some(cells) => SetExpr::Const(cells),
            None => match axis_filter::run(self, base, cond) {
                Some(set) => return set,
                None => SetExpr::Where { base, cond },
            },
        };
        self.push_set(s)
    }

    /// The number `v` (saturated to the IR's 32 bits).
    pub fn push_const(&mut self, v: i64) -> IntId {
        self.push_int(IntExpr::Const(i32::try_from(v).unwrap_or(i32::MAX)))
    }

    /// `not x`.
    pub fn not(&mut self, x: BoolId) -> BoolId {
        match self.const_bool(x) {
            Some(v) => self.push_bool(BoolExpr::Const(!v)),
            None => self.push_bool(BoolExpr::Not(x)),
        }
    }

    /// `a and b` (with `and`) or `a or b`: a constant side decides, or leaves the other.
    pub fn and_or(&mut self, and: bool, a: BoolId, b: BoolId) -> BoolId {
        let folded = match (self.const_bool(a), self.const_bool(b)) {
            (Some(x), _) if x != and => BoolExpr::Const(x),
            (Some(_), _) => return b,
            (_, Some(y)) if y != and => BoolExpr::Const(y),
            (_, Some(_)) => return a,
            _ if and => BoolExpr::And(a, b),
            _ => BoolExpr::Or(a, b),
        };
        self.push_bool(folded)
    }

    /// `lhs op rhs` on numbers.
    pub fn compare(&mut self, op: CmpOp, lhs: IntId, rhs: IntId) -> BoolId {
        let b = match (&self.ints[usize::from(lhs)], &self.ints[usize::from(rhs)]) {
            (IntExpr::Const(x), IntExpr::Const(y)) => BoolExpr::Const(compare(op, *x, *y)),
            _ => BoolExpr::Cmp { op, lhs, rhs },
        };
        self.push_bool(b)
    }

    /// An integer in hundredths, to meet a decimal in a sum or a comparison.
    pub fn to_decimal(&mut self, value: IntId) -> IntId {
        let scale = i32::try_from(DECIMAL_SCALE).unwrap_or(1);
        match self.ints[usize::from(value)] {
            IntExpr::Const(v) => self.push_int(IntExpr::Const(v.saturating_mul(scale))),
            _ => {
                let rhs = self.push_int(IntExpr::Const(scale));
                let (op, lhs) = (IntOp::Mul, value);
                self.push_int(IntExpr::Bin { op, lhs, rhs })
            }
        }
    }

    /// Adds a `write` or `status` text; its id.
    pub fn push_template(&mut self, parts: Vec<TemplatePart>) -> u16 {
        self.templates.push(Template { parts });
        last_id(self.templates.len())
    }

    /// Notes `c` as the condition of the `require` at `span` ([`Program::rule_spans`]); a
    /// condition another `require` already uses is copied first, so each names one statement.
    pub fn rule_condition(&mut self, c: BoolId, span: Span) -> BoolId {
        let c = if self.rule_spans.of(c).is_some() {
            let copy = self.bools[usize::from(c)].clone();
            self.push_bool(copy)
        } else {
            c
        };
        let range = (span.start as usize, span.end as usize);
        self.rule_spans.0.push((c, range));
        c
    }

    /// Notes `s` as the set of the `pick` whose set is at `span` ([`Program::pick_spans`]); a
    /// set another `pick` already uses is copied first, so each names one expression.
    pub fn pick_set(&mut self, s: SetId, span: Span) -> SetId {
        let s = if self.pick_spans.of(s).is_some() {
            let copy = self.sets[usize::from(s)].clone();
            self.push_set(copy)
        } else {
            s
        };
        self.pick_spans
            .0
            .push((s, (span.start as usize, span.end as usize)));
        s
    }

    /// Gives the programs a game leaves out their meaning: no setup, and without `on no
    /// moves`, a player who cannot move ends the game drawn.
    pub fn default_programs(&mut self) {
        if self.no_moves.ops.is_empty() {
            self.no_moves = Code::new(vec![Op::Finish(Finish::Draw), Op::Done]);
        }
        if self.setup.ops.is_empty() {
            self.setup = Code::new(vec![Op::Done]);
        }
    }

    /// A new `distinct` block's number.
    ///
    /// # Errors
    /// When the game has more `distinct` blocks than a move's 8-bit block number can name.
    pub fn new_distinct_block(&mut self) -> Result<u8> {
        let found = self.distinct_blocks + 1;
        let max = u64::from(u8::MAX) + 1;
        let block = u8::try_from(self.distinct_blocks)
            .map_err(|_| BuildError::too_large("`distinct` blocks", found, max))?;
        self.distinct_blocks += 1;
        Ok(block)
    }

    /// Adds a counter's slots, one for each entry of `players` (the player a slot is for);
    /// returns the first.
    ///
    /// # Errors
    /// When the slots' ids do not fit in 16 bits.
    pub fn add_counter(
        &mut self,
        name: &str,
        players: &[Option<u8>],
        initial: i32,
        view: CounterView,
    ) -> Result<u16> {
        let base = id16(self.counters.len())?;
        let counter = |&player| Counter {
            name: name.to_string(),
            player,
            initial,
            view,
        };
        self.counters.extend(players.iter().map(counter));
        Ok(base)
    }

    /// Expressions and templates are numbered with 16 bits; past that, their ids would name
    /// other expressions.
    ///
    /// # Errors
    /// The first table with more entries than its ids can number.
    pub fn ids_fit(&self) -> Result<()> {
        let max = usize::from(u16::MAX) + 1;
        for (what, len) in [
            ("cell-set expressions", self.sets.len()),
            ("integer expressions", self.ints.len()),
            ("conditions", self.bools.len()),
            ("`write` templates", self.templates.len()),
        ] {
            if len > max {
                return Err(BuildError::too_large(what, len, max as u64));
            }
        }
        Ok(())
    }
}

/// The id of entry `n` of a table numbered with 16 bits.
///
/// # Errors
/// When `n` does not fit.
pub fn id16(n: usize) -> Result<u16> {
    let what = "entries in one table (counters, relations, sets, ...)";
    u16::try_from(n).map_err(|_| BuildError::too_large(what, n + 1, u64::from(u16::MAX) + 1))
}

/// The rounds of `repeat min..max` as a loop counter counts them.
///
/// # Errors
/// E1004, when a bound is past what the counter holds.
pub fn rounds(min: u32, max: u32) -> Result<(u8, u8)> {
    match (u8::try_from(min), u8::try_from(max)) {
        (Ok(min), Ok(max)) => Ok((min, max)),
        _ => Err(BuildError::RepeatTooLong {
            found: i64::from(min.max(max)),
            max: i64::from(u8::MAX),
            span: None,
        }),
    }
}

/// A forward jump's target until its place is known: a label's number with this bit set.
const LABEL: u32 = 1 << 31;

/// The index of op `n` as a jump target.
///
/// # Errors
/// When a program has more ops than a jump can name.
pub fn pc(n: usize) -> Result<u32> {
    let what = "instructions in one program";
    match u32::try_from(n) {
        Ok(pc) if pc < LABEL => Ok(pc),
        _ => Err(BuildError::too_large(what, n + 1, u64::from(LABEL))),
    }
}

/// The labels of the program being assembled: a jump to a label made by [`Labels::new_label`]
/// holds that label until [`Labels::resolve`] replaces it with the index of the op it was bound
/// to.
#[derive(Default)]
pub struct Labels(Vec<u32>);

impl Labels {
    /// A new label for a forward jump, to be bound with [`Labels::bind`].
    pub fn new_label(&mut self) -> u32 {
        self.0.push(0);
        LABEL | u32::try_from(self.0.len() - 1).unwrap_or(0)
    }

    /// Binds `label` to the next op of `ops`.
    ///
    /// # Errors
    /// When `ops` is too long for a jump to reach its end.
    pub fn bind(&mut self, label: u32, ops: &[Op]) -> Result<()> {
        self.0[(label - LABEL) as usize] = pc(ops.len())?;
        Ok(())
    }

    /// Replaces each label in `ops` with the index it was bound to, and forgets the labels.
    pub fn resolve(&mut self, ops: &mut [Op]) {
        for op in ops {
            op.for_each_target(|t| {
                if *t >= LABEL {
                    *t = self.0[(*t - LABEL) as usize];
                }
            });
        }
        self.0.clear();
    }
}

/// Numbered slots of a bounded file (turn variables, `let` sets, `place` variables), each
/// given to a name for the whole program.
pub struct Slots {
    names: HashMap<String, u8>,
    max: usize,
    /// The limit's error: the slots needed, the most the file holds, where the one too many is.
    too_many: fn(usize, usize, Option<Span>) -> BuildError,
}

impl Slots {
    /// An empty file of `max` slots, whose overflow is reported by `too_many`.
    #[must_use]
    pub fn new(max: usize, too_many: fn(usize, usize, Option<Span>) -> BuildError) -> Slots {
        let names = HashMap::new();
        Slots {
            names,
            max,
            too_many,
        }
    }

    /// The slot of `name` (bound at `span`), the next free one when it has none.
    ///
    /// # Errors
    /// The file's limit, when no slot is free.
    pub fn slot(&mut self, name: &str, span: Option<Span>) -> Result<u8> {
        if let Some(&slot) = self.names.get(name) {
            return Ok(slot);
        }
        let next = self.names.len();
        match u8::try_from(next) {
            Ok(slot) if next < self.max => {
                self.names.insert(name.to_string(), slot);
                Ok(slot)
            }
            _ => Err((self.too_many)(next + 1, self.max, span)),
        }
    }
}

/// Ops being emitted at the end of `ops`, with the program whose tables they add to and the
/// labels of the code being assembled.
pub struct Asm<'a> {
    pub prog: &'a mut Program,
    pub labels: &'a mut Labels,
    pub ops: &'a mut Vec<Op>,
}

impl Asm<'_> {
    /// Pushes `b` and a test of it that jumps, when it is false, to the label returned.
    pub fn unless(&mut self, b: BoolExpr) -> u32 {
        let (cond, target) = (self.prog.push_bool(b), self.labels.new_label());
        self.ops.push(Op::Unless { cond, target });
        target
    }

    /// Binds `label` to the next op.
    ///
    /// # Errors
    /// When the program is too long for a jump to reach its end.
    pub fn bind(&mut self, label: u32) -> Result<()> {
        self.labels.bind(label, self.ops)
    }

    /// Ends this way through the program.
    pub fn fail(&mut self) {
        let never = self.prog.push_bool(BoolExpr::Const(false));
        self.ops.push(Op::Require(never));
    }

    /// Sets the counter at `slot` to the integer `value`.
    pub fn set_counter(&mut self, slot: u16, value: IntId) {
        let (slot, op) = (AssignSlot::Global(slot), AssignKind::Set);
        self.ops.push(Op::Assign { slot, op, value });
    }

    /// After a piece moves from `from`: each carried token (a counter slot in `carried` holding
    /// a cell) that stands on `from` moves with it, to the cell `to` (an integer: the cell's id).
    ///
    /// # Errors
    /// When the program is too long for a jump to reach its end.
    pub fn carry(&mut self, carried: &[u16], from: CellRef, to: IntId) -> Result<()> {
        for &slot in carried {
            let (lhs, eq) = (CellRef::Slot(slot), true);
            let skip = self.unless(BoolExpr::CellEq { eq, lhs, rhs: from });
            self.set_counter(slot, to);
            self.bind(skip)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{CellRef, PlayerRef};

    /// A condition the builder cannot decide.
    fn unknown(p: &mut Program) -> BoolId {
        let (lhs, rhs) = (PlayerRef::Mover, PlayerRef::Const(0));
        p.push_bool(BoolExpr::PlayerEq { eq: true, lhs, rhs })
    }

    #[test]
    fn a_constant_side_decides_or_leaves_the_other() {
        let mut p = Program::default();
        let (t, f, x) = (
            p.push_bool(BoolExpr::Const(true)),
            p.push_bool(BoolExpr::Const(false)),
            unknown(&mut p),
        );
        assert_eq!(p.and_or(true, t, x), x);
        assert_eq!(p.and_or(false, x, f), x);
        let (no, yes) = (p.and_or(true, x, f), p.and_or(false, t, x));
        assert_eq!(
            (p.const_bool(no), p.const_bool(yes)),
            (Some(false), Some(true))
        );
        let both = p.and_or(true, x, x);
        assert!(matches!(p.bools[usize::from(both)], BoolExpr::And(..)));
        let not = p.not(t);
        assert_eq!(p.const_bool(not), Some(false));
        let not = p.not(x);
        assert!(matches!(p.bools[usize::from(not)], BoolExpr::Not(_)));
    }

    #[test]
    fn constant_numbers_and_sets_fold() {
        let mut p = Program::default();
        let (two, three) = (p.push_int(IntExpr::Const(2)), p.push_int(IntExpr::Const(3)));
        let less = p.compare(CmpOp::Lt, two, three);
        assert_eq!(p.const_bool(less), Some(true));
        let axis = p.push_int(IntExpr::Axis {
            cell: CellRef::Candidate,
            axis: 0,
        });
        let open = p.compare(CmpOp::Lt, axis, three);
        assert!(matches!(p.bools[usize::from(open)], BoolExpr::Cmp { .. }));
        let hundredths = p.to_decimal(three);
        assert!(matches!(
            p.ints[usize::from(hundredths)],
            IntExpr::Const(300)
        ));
        let scaled = p.to_decimal(axis);
        assert!(matches!(
            p.ints[usize::from(scaled)],
            IntExpr::Bin { op: IntOp::Mul, .. }
        ));
        let a = p.push_set(SetExpr::Const([1, 2].into_iter().collect()));
        let b = p.push_set(SetExpr::Const([5].into_iter().collect()));
        let u = p.union(a, b);
        assert_eq!(p.const_set(u), Some([1, 2, 5].into_iter().collect()));
        let open = p.push_set(SetExpr::Empty);
        let u = p.union(a, open);
        assert!(matches!(p.sets[usize::from(u)], SetExpr::Union(..)));
    }

    #[test]
    fn intersections_differences_and_filters_fold_what_is_known() {
        let mut p = Program::default();
        p.board.all = [0, 1, 2, 3].into_iter().collect();
        let a = p.push_set(SetExpr::Const([1, 2].into_iter().collect()));
        let b = p.push_set(SetExpr::Const([2, 3].into_iter().collect()));
        let (both, left) = (p.inter(a, b), p.diff(a, b));
        assert_eq!(p.const_set(both), Some([2].into_iter().collect()));
        assert_eq!(p.const_set(left), Some([1].into_iter().collect()));
        let open = p.push_set(SetExpr::Empty);
        let left = p.diff(open, b);
        assert!(matches!(p.sets[usize::from(left)], SetExpr::Diff(..)));
        let always = p.push_bool(BoolExpr::Const(true));
        assert_eq!(p.filter(open, always), open);
        let unknown = unknown(&mut p);
        let tested = p.filter(open, unknown);
        assert!(matches!(p.sets[usize::from(tested)], SetExpr::Where { .. }));
    }

    #[test]
    fn a_repeat_counts_at_most_255_rounds() {
        assert_eq!(rounds(2, 255), Ok((2, 255)));
        assert!(matches!(
            rounds(1, 256),
            Err(BuildError::RepeatTooLong { found: 256, .. })
        ));
    }

    #[test]
    fn a_program_left_out_gets_its_meaning() {
        let mut p = Program::default();
        p.default_programs();
        assert!(matches!(p.setup.ops[..], [Op::Done]));
        assert!(matches!(
            p.no_moves.ops[..],
            [Op::Finish(Finish::Draw), Op::Done]
        ));
    }

    #[test]
    fn labels_aim_jumps_at_the_op_they_were_bound_before() {
        let mut labels = Labels::default();
        let (skip, end) = (labels.new_label(), labels.new_label());
        let mut ops = vec![Op::Jump(end), Op::Jump(skip), Op::Again];
        labels.bind(skip, &ops).expect("binds");
        ops.push(Op::Again);
        labels.bind(end, &ops).expect("binds");
        ops.push(Op::Done);
        labels.resolve(&mut ops);
        assert!(matches!(ops[..2], [Op::Jump(4), Op::Jump(3)]));
    }

    #[test]
    fn a_name_keeps_its_slot_and_the_file_refuses_one_too_many() {
        let too_many = |found, max, span| BuildError::TooManySetLocals { found, max, span };
        let mut slots = Slots::new(2, too_many);
        let ids = ["a", "b", "a"].map(|name| slots.slot(name, None));
        assert_eq!(ids, [Ok(0), Ok(1), Ok(0)]);
        assert_eq!(slots.slot("c", None), Err(too_many(3, 2, None)));
        assert_eq!(slots.slot("b", None), Ok(1));
    }
}
