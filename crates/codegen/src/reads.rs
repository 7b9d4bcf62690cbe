//! What each op reads and writes of the position value, and the analyses built on it: what the
//! rest of a walk reads ([`Emitter::reads`]), how an effect is emitted ([`Effect`]), where a
//! walk goes on ([`Emitter::gen_resolve`]), what a replay skips, and how many decisions a move
//! holds at each op ([`decision_counts`]).

use rulestone_ir::{
    AssignSlot, BoolExpr, CellRef, DirExpr, Finish, IntExpr, Op, PlayerRef, Program, SetExpr,
};

use crate::Emitter;

/// Parts of the position value an op, or the rest of a walk, looks at (or an op changes).
#[derive(Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct Reads {
    pub(crate) board: bool,
    pub(crate) counters: bool,
    /// The position's hash (`repetitions`).
    pub(crate) hash: bool,
    /// `Pos::locals` slots, one bit each (the `let`s, and the slots of unordered picks and
    /// `place`).
    pub(crate) locals: u64,
}

impl Reads {
    pub(crate) const BOARD: Reads = Reads {
        board: true,
        counters: false,
        hash: false,
        locals: 0,
    };
    pub(crate) const COUNTERS: Reads = Reads {
        board: false,
        counters: true,
        hash: false,
        locals: 0,
    };
    pub(crate) const HASH: Reads = Reads {
        board: false,
        counters: false,
        hash: true,
        locals: 0,
    };
    /// Every local slot.
    const ALL_LOCALS: Reads = Reads {
        board: false,
        counters: false,
        hash: false,
        locals: u64::MAX,
    };

    fn counters_if(read: bool) -> Reads {
        if read {
            Reads::COUNTERS
        } else {
            Reads::default()
        }
    }

    pub(crate) fn local(slot: usize) -> Reads {
        Reads {
            // A slot past the mask stands for every slot.
            locals: 1u64
                .checked_shl(u32::try_from(slot).unwrap_or(u32::MAX))
                .unwrap_or(u64::MAX),
            ..Reads::default()
        }
    }

    pub(crate) fn is_empty(self) -> bool {
        self == Reads::default()
    }

    /// Whether a reader of `self` sees a change to `o`.
    pub(crate) fn meets(self, o: Reads) -> bool {
        (self.board && o.board)
            || (self.counters && o.counters)
            || (self.hash && o.hash)
            || self.locals & o.locals != 0
    }
}

impl std::ops::BitOr for Reads {
    type Output = Reads;
    fn bitor(self, o: Reads) -> Reads {
        Reads {
            board: self.board || o.board,
            counters: self.counters || o.counters,
            hash: self.hash || o.hash,
            locals: self.locals | o.locals,
        }
    }
}

/// How an effect is emitted while moves are generated: every change is rolled back before the
/// move is listed, so one that nothing reads later is left out, and one outside `distinct`
/// blocks need not reach the hash.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Effect {
    Skip,
    Unhashed,
    Hashed,
}

/// What an op is to the analyses here: a change to the board or the counters (with the guard
/// that may end the walk), or something else.
enum Kind {
    /// A change to the board; `guarded` when it may end the walk (no player acts).
    Board {
        guarded: bool,
    },
    /// A change to the counters; `guarded` as above.
    Counters {
        guarded: bool,
    },
    Other,
}

/// Whether `op` changes the board or the counters.
fn kind(op: &Op) -> Kind {
    match op {
        Op::Put { owner, .. } | Op::PutAll { owner, .. } => Kind::Board {
            guarded: matches!(owner, PlayerRef::Owner(_)),
        },
        Op::Remove { .. } | Op::Move { .. } | Op::RemoveAll { .. } | Op::Shift { .. } => {
            Kind::Board { guarded: false }
        }
        Op::Assign { slot, .. } => Kind::Counters {
            guarded: matches!(
                slot,
                AssignSlot::PerPlayer {
                    player: PlayerRef::Owner(_),
                    ..
                }
            ),
        },
        Op::AssignAll { .. } => Kind::Counters { guarded: false },
        Op::Place { .. }
        | Op::PickDir { .. }
        | Op::Pick { .. }
        | Op::Let { .. }
        | Op::Require(_)
        | Op::Unless { .. }
        | Op::Jump(_)
        | Op::Either(_)
        | Op::First(_)
        | Op::RepeatStart { .. }
        | Op::RepeatCheck { .. }
        | Op::RepeatNext { .. }
        | Op::DistinctStart { .. }
        | Op::DistinctEnd { .. }
        | Op::Memo { .. }
        | Op::Roll { .. }
        | Op::Again
        | Op::SetVar { .. }
        | Op::SetDir { .. }
        | Op::WhileCheck { .. }
        | Op::Write(_)
        | Op::Chooser(_)
        | Op::Finish(_)
        | Op::Done => Kind::Other,
    }
}

impl Emitter<'_> {
    /// Marks the ops inside `distinct` blocks that compare hashes ([`Emitter::in_distinct`]):
    /// a block whose picks are listed once per set compares nothing.
    pub(crate) fn mark_distinct(&mut self) {
        let ops = &self.p.turn.ops;
        let mut depth = 0usize;
        let mut stack = Vec::new();
        for (pc, op) in ops.iter().enumerate() {
            if let Op::DistinctStart { .. } = op {
                let compares = !self.skips_distinct_check(pc);
                stack.push(compares);
                depth += usize::from(compares);
            }
            self.in_distinct[pc] = depth > 0;
            if let Op::DistinctEnd { .. } = op {
                depth -= usize::from(stack.pop().unwrap_or(false));
            }
        }
    }

    /// [`Emitter::reads`], grown backwards to a fixed point: loops (`repeat`) jump back.
    pub(crate) fn grow_reads(&mut self) {
        let p = self.p;
        let ops = &p.turn.ops;
        let own: Vec<Reads> = (0..ops.len()).map(|pc| self.op_reads(pc)).collect();
        let mut changed = true;
        while changed {
            changed = false;
            for pc in (0..ops.len()).rev() {
                // Generation lists the move at a decided op and runs nothing after it, so
                // what the rest of the turn reads (`repetitions` at its end) costs nothing.
                if p.turn.decided.get(pc).copied().unwrap_or(false) {
                    continue;
                }
                let mut r = own[pc];
                for next in successors(&ops[pc], pc) {
                    r = r | self.reads.get(next).copied().unwrap_or_default();
                }
                if r != self.reads[pc] {
                    self.reads[pc] = r;
                    changed = true;
                }
            }
        }
    }

    /// The first op at or after `pc` that does something while moves are generated: text,
    /// jumps, changes that nothing reads before the move is listed (see [`Effect`]), `let`s
    /// nothing reads and `if`s whose branches meet before anything is done are passed (`pc`
    /// itself at a decided op, or when the search goes too deep).
    pub(crate) fn gen_resolve(&self, start: usize, depth: usize) -> usize {
        let code = &self.p.turn;
        let mut pc = start;
        for _ in 0..=code.ops.len() {
            if code.decided[pc] {
                return pc;
            }
            let op = &code.ops[pc];
            let nothing = match kind(op) {
                Kind::Board { guarded } => !guarded && self.effect(pc, true) == Effect::Skip,
                Kind::Counters { guarded } => !guarded && self.effect(pc, false) == Effect::Skip,
                Kind::Other => match op {
                    Op::Write(_) | Op::Chooser(_) | Op::Again => true,
                    Op::Jump(target) => {
                        pc = *target as usize;
                        continue;
                    }
                    Op::Let { slot, .. } => !self.let_kept(pc, *slot),
                    Op::Unless { target, .. } if depth < 8 => {
                        let then = self.gen_resolve(pc + 1, depth + 1);
                        if then != self.gen_resolve(*target as usize, depth + 1) {
                            return pc;
                        }
                        pc = then;
                        continue;
                    }
                    Op::Place { .. }
                    | Op::PickDir { .. }
                    | Op::Pick { .. }
                    | Op::Put { .. }
                    | Op::Remove { .. }
                    | Op::Move { .. }
                    | Op::PutAll { .. }
                    | Op::RemoveAll { .. }
                    | Op::Shift { .. }
                    | Op::Assign { .. }
                    | Op::AssignAll { .. }
                    | Op::Require(_)
                    | Op::Unless { .. }
                    | Op::Either(_)
                    | Op::First(_)
                    | Op::RepeatStart { .. }
                    | Op::RepeatCheck { .. }
                    | Op::RepeatNext { .. }
                    | Op::DistinctStart { .. }
                    | Op::DistinctEnd { .. }
                    | Op::Memo { .. }
                    | Op::Roll { .. }
                    | Op::SetVar { .. }
                    | Op::SetDir { .. }
                    | Op::WhileCheck { .. }
                    | Op::Finish(_)
                    | Op::Done => false,
                },
            };
            if !nothing {
                return pc;
            }
            pc += 1;
        }
        pc
    }

    /// Whether the walk keeps the value of the `let` at `pc` (something after it reads it).
    pub(crate) fn let_kept(&self, pc: usize, slot: u8) -> bool {
        self.reads
            .get(pc + 1)
            .copied()
            .unwrap_or_default()
            .meets(Reads::local(usize::from(slot)))
    }

    /// What the op at `pc` changes in the position value the walk passes on, as generation
    /// emits it (a change nothing reads before the move is listed is left out, see
    /// [`Effect`]). `place` and `roll` change a copy of their own per choice.
    pub(crate) fn op_writes(&self, pc: usize) -> Reads {
        let none = Reads::default();
        let effect = |board: bool| {
            let part = if board { Reads::BOARD } else { Reads::COUNTERS };
            match self.effect(pc, board) {
                Effect::Skip => none,
                Effect::Unhashed => part,
                Effect::Hashed => part | Reads::HASH,
            }
        };
        let op = &self.p.turn.ops[pc];
        match kind(op) {
            Kind::Board { .. } => effect(true),
            Kind::Counters { .. } => effect(false),
            Kind::Other => match op {
                Op::Let { slot, .. } if self.let_kept(pc, *slot) => {
                    Reads::local(usize::from(*slot))
                }
                Op::Pick { .. } => self
                    .unordered_pick(pc)
                    .map_or(none, |(_, slot)| Reads::local(slot)),
                Op::Place { .. }
                | Op::PickDir { .. }
                | Op::Let { .. }
                | Op::Put { .. }
                | Op::Remove { .. }
                | Op::Move { .. }
                | Op::PutAll { .. }
                | Op::RemoveAll { .. }
                | Op::Shift { .. }
                | Op::Assign { .. }
                | Op::AssignAll { .. }
                | Op::Require(_)
                | Op::Unless { .. }
                | Op::Jump(_)
                | Op::Either(_)
                | Op::First(_)
                | Op::RepeatStart { .. }
                | Op::RepeatCheck { .. }
                | Op::RepeatNext { .. }
                | Op::DistinctStart { .. }
                | Op::DistinctEnd { .. }
                | Op::Memo { .. }
                | Op::Roll { .. }
                | Op::Again
                | Op::SetVar { .. }
                | Op::SetDir { .. }
                | Op::WhileCheck { .. }
                | Op::Write(_)
                | Op::Chooser(_)
                | Op::Finish(_)
                | Op::Done => none,
            },
        }
    }

    /// The position value's parts the generating walk reads anywhere (what the walk from the
    /// first op reads, [`Emitter::reads`]): a copy made for a change needs no others. A
    /// `distinct` block's comparison keys hold the hash and every slot.
    pub(crate) fn walk_reads(&self) -> Reads {
        let code = &self.p.turn;
        let r = self.reads.first().copied().unwrap_or_default();
        if self.p.distinct_blocks > 0 || code.ops.iter().any(|op| matches!(op, Op::Memo { .. })) {
            return r | Reads::HASH | Reads::ALL_LOCALS;
        }
        r
    }

    /// Which `if`s and `let`s a replay skips: a `let` nothing replayed reads, and an `if`
    /// whose branches meet before anything a replay does (tests, text and such `let`s are
    /// nothing). Grown from nothing to a fixed point: a slot is read only by an op that runs.
    pub(crate) fn plan_replay(&mut self) {
        let p = self.p;
        let ops = &p.turn.ops;
        loop {
            let mut read = vec![false; self.replay_locals.len()];
            let mut skips = vec![false; ops.len()];
            for (pc, op) in ops.iter().enumerate() {
                let skipped = match op {
                    Op::Unless { .. } if self.replay_resolve(pc, 0) != pc => {
                        skips[pc] = true;
                        true
                    }
                    Op::Let { slot, replay, .. } => {
                        !(*replay && self.replay_locals[usize::from(*slot)])
                    }
                    Op::Require(_) | Op::Write(_) => true,
                    Op::Place { .. }
                    | Op::PickDir { .. }
                    | Op::Pick { .. }
                    | Op::Put { .. }
                    | Op::Remove { .. }
                    | Op::Move { .. }
                    | Op::PutAll { .. }
                    | Op::RemoveAll { .. }
                    | Op::Shift { .. }
                    | Op::Assign { .. }
                    | Op::AssignAll { .. }
                    | Op::Unless { .. }
                    | Op::Jump(_)
                    | Op::Either(_)
                    | Op::First(_)
                    | Op::RepeatStart { .. }
                    | Op::RepeatCheck { .. }
                    | Op::RepeatNext { .. }
                    | Op::DistinctStart { .. }
                    | Op::DistinctEnd { .. }
                    | Op::Memo { .. }
                    | Op::Roll { .. }
                    | Op::Again
                    | Op::SetVar { .. }
                    | Op::SetDir { .. }
                    | Op::WhileCheck { .. }
                    | Op::Chooser(_)
                    | Op::Finish(_)
                    | Op::Done => false,
                };
                if !skipped {
                    rulestone_ir::passes::replay_lets::locals_read(p, op, &mut read);
                }
            }
            self.replay_skips = skips;
            if read == self.replay_locals {
                return;
            }
            for (r, n) in self.replay_locals.iter_mut().zip(read) {
                *r |= n;
            }
        }
    }

    /// The first op at or after `pc` that does something when a move is replayed (`pc`
    /// itself when it does, or when the search goes too deep).
    pub(crate) fn replay_resolve(&self, start: usize, depth: usize) -> usize {
        let ops = &self.p.turn.ops;
        let mut pc = start;
        for _ in 0..=ops.len() {
            match &ops[pc] {
                Op::Require(_)
                | Op::Write(_)
                | Op::Chooser(_)
                | Op::Memo { .. }
                | Op::DistinctStart { .. }
                | Op::DistinctEnd { .. } => pc += 1,
                Op::Let { slot, replay, .. }
                    if !(*replay && self.replay_locals[usize::from(*slot)]) =>
                {
                    pc += 1;
                }
                Op::Jump(target) => pc = *target as usize,
                Op::Unless { target, .. } if depth < 8 => {
                    let then = self.replay_resolve(pc + 1, depth + 1);
                    if then != self.replay_resolve(*target as usize, depth + 1) {
                        return pc;
                    }
                    pc = then;
                }
                Op::Let { .. }
                | Op::Unless { .. }
                | Op::Place { .. }
                | Op::PickDir { .. }
                | Op::Pick { .. }
                | Op::Put { .. }
                | Op::Remove { .. }
                | Op::Move { .. }
                | Op::PutAll { .. }
                | Op::RemoveAll { .. }
                | Op::Shift { .. }
                | Op::Assign { .. }
                | Op::AssignAll { .. }
                | Op::Either(_)
                | Op::First(_)
                | Op::RepeatStart { .. }
                | Op::RepeatCheck { .. }
                | Op::RepeatNext { .. }
                | Op::Roll { .. }
                | Op::Again
                | Op::SetVar { .. }
                | Op::SetDir { .. }
                | Op::WhileCheck { .. }
                | Op::Finish(_)
                | Op::Done => return pc,
            }
        }
        pc
    }

    /// How the effect at `pc` on the board (`board`) or the counters is emitted.
    pub(crate) fn effect(&self, pc: usize, board: bool) -> Effect {
        let later = self.reads.get(pc + 1).copied().unwrap_or_default();
        let read = if board { later.board } else { later.counters };
        if self.in_distinct[pc] || (read && later.hash) {
            // `repetitions`, read later while the move is generated, reads the hash of the
            // position the turn has made.
            Effect::Hashed
        } else if read {
            Effect::Unhashed
        } else {
            Effect::Skip
        }
    }

    /// Whether an effect at `pc` can wait: no guard that ends the walk, outside `distinct`
    /// blocks, and not at a decided op (what it changes is [`Emitter::op_writes`]).
    pub(crate) fn deferrable(&self, pc: usize) -> bool {
        let code = &self.p.turn;
        if self.in_distinct[pc] || code.decided[pc] {
            return false;
        }
        match kind(&code.ops[pc]) {
            Kind::Board { guarded } | Kind::Counters { guarded } => !guarded,
            Kind::Other => false,
        }
    }

    /// What the op at `pc` reads of the position value.
    pub(crate) fn op_reads(&self, pc: usize) -> Reads {
        let none = Reads::default();
        match &self.p.turn.ops[pc] {
            Op::Pick { from, .. } => {
                // An unordered block's pick reads the set the previous round chose from.
                let earlier = self
                    .unordered_pick(pc)
                    .map_or(none, |(_, slot)| Reads::local(slot));
                self.set_reads(*from) | earlier
            }
            Op::Let { set, .. } | Op::SetVar { set, .. } => self.set_reads(*set),
            Op::Put { owner, at, .. } => player_reads(*owner) | cell_reads(*at),
            Op::Remove { at } => cell_reads(*at),
            Op::Move { from, to } => cell_reads(*from) | cell_reads(*to),
            Op::PutAll { owner, at, .. } => player_reads(*owner) | self.set_reads(*at),
            Op::RemoveAll { at } | Op::Shift { at, .. } => self.set_reads(*at),
            Op::Require(b) | Op::Unless { cond: b, .. } | Op::WhileCheck { cond: b, .. } => {
                self.bool_reads(*b)
            }
            Op::Assign { slot, value, .. } => {
                let who = match slot {
                    AssignSlot::Global(_) => none,
                    AssignSlot::PerCell { cell, .. } => cell_reads(*cell),
                    AssignSlot::PerPlayer { player, .. } => player_reads(*player),
                };
                who | self.int_reads(*value)
            }
            Op::Finish(Finish::Win(p) | Finish::Lose(p)) => player_reads(*p),
            // The covered cells go to the slot whether or not something reads them, so the
            // walk's position keeps it.
            Op::Place {
                slot, feet, max, ..
            } => {
                Reads::COUNTERS
                    | Reads::local(self.placed_local(*slot))
                    | self.int_reads(*max)
                    | feet.map_or(none, |s| self.set_reads(s))
            }
            Op::AssignAll { cells, value, .. } => self.set_reads(*cells) | self.int_reads(*value),
            Op::SetDir { dir, .. } => self.dir_reads(Some(dir)),
            // The key of a loop head's memo holds the hash and every local slot.
            Op::Memo { .. } => Reads::HASH | Reads::ALL_LOCALS,
            // `distinct` compares hashes, but only of ends of one walk of its block: they share
            // every change made before the block, so only changes inside it must reach the hash
            // (those are always kept, see `effect`).
            Op::Finish(Finish::Draw)
            | Op::Done
            | Op::PickDir { .. }
            | Op::Jump(_)
            | Op::Either(_)
            | Op::First(_)
            | Op::RepeatStart { .. }
            | Op::RepeatCheck { .. }
            | Op::RepeatNext { .. }
            | Op::DistinctStart { .. }
            | Op::DistinctEnd { .. }
            | Op::Roll { .. }
            | Op::Again
            | Op::Write(_)
            | Op::Chooser(_) => none,
        }
    }

    pub(crate) fn set_reads(&self, id: u16) -> Reads {
        let board = Reads::BOARD;
        match &self.p.sets[usize::from(id)] {
            SetExpr::Const(_) => Reads::default(),
            SetExpr::Local(slot) => Reads::local(usize::from(*slot)),
            SetExpr::Single(c) => cell_reads(*c),
            SetExpr::Empty | SetExpr::Occupied => board,
            SetExpr::PlayerPieces(p) | SetExpr::Pieces { player: p, .. } => {
                board | player_reads(*p)
            }
            SetExpr::Union(a, b) | SetExpr::Inter(a, b) | SetExpr::Diff(a, b) => {
                self.set_reads(*a) | self.set_reads(*b)
            }
            SetExpr::All { of, .. }
            | SetExpr::None { of, .. }
            | SetExpr::Any { of, .. }
            | SetExpr::Step { of, .. } => self.set_reads(*of),
            SetExpr::Group { from, through, .. } => {
                self.set_reads(*from) | self.set_reads(*through)
            }
            SetExpr::First(of) => self.set_reads(*of),
            SetExpr::StepDir { of, dir, .. } => self.set_reads(*of) | self.dir_reads(Some(dir)),
            SetExpr::Line { run, from, dir, .. } => {
                run.map_or(Reads::default(), |r| self.set_reads(r))
                    | cell_reads(*from)
                    | self.dir_reads(dir.as_ref())
            }
            SetExpr::Where { base, cond } => self.set_reads(*base) | self.bool_reads(*cond),
            SetExpr::Between { run, end, from, .. } => {
                self.set_reads(*run) | self.set_reads(*end) | cell_reads(*from)
            }
            SetExpr::Brackets { run, end, .. } => self.set_reads(*run) | self.set_reads(*end),
            SetExpr::AxisCmp { value, .. } => self.int_reads(*value),
            SetExpr::AxisRows { base, cond, .. } => self.set_reads(*base) | self.bool_reads(*cond),
            SetExpr::AxisKey {
                base, key, value, ..
            } => self.set_reads(*base) | self.int_reads(*key) | self.int_reads(*value),
            // A turn variable's value, kept in a local slot.
            SetExpr::Placed { slot, .. } => Reads::local(self.placed_local(*slot)),
        }
    }

    pub(crate) fn int_reads(&self, id: u16) -> Reads {
        match &self.p.ints[usize::from(id)] {
            IntExpr::Const(_) => Reads::default(),
            IntExpr::Axis { cell, .. } | IntExpr::CellId(cell) => cell_reads(*cell),
            IntExpr::Cond {
                cond,
                then,
                otherwise,
            } => self.bool_reads(*cond) | self.int_reads(*then) | self.int_reads(*otherwise),
            IntExpr::Counter(_) => Reads::COUNTERS,
            IntExpr::PlayerCounter { player, .. } => player_reads(*player) | Reads::COUNTERS,
            IntExpr::Count(s) => self.set_reads(*s),
            IntExpr::CellSum { of, .. } => self.set_reads(*of) | Reads::COUNTERS,
            IntExpr::CellCounter { .. } | IntExpr::Points(_) | IntExpr::Won(_) => Reads::COUNTERS,
            IntExpr::Repetitions => Reads::BOARD | Reads::COUNTERS | Reads::HASH,
            IntExpr::DirIndex { dir, .. } => self.dir_reads(Some(dir)),
            IntExpr::Neg(x) => self.int_reads(*x),
            IntExpr::Bin { lhs, rhs, .. } => self.int_reads(*lhs) | self.int_reads(*rhs),
        }
    }

    pub(crate) fn bool_reads(&self, id: u16) -> Reads {
        match &self.p.bools[usize::from(id)] {
            BoolExpr::Const(_) => Reads::default(),
            BoolExpr::CellEq { lhs, rhs, .. } => cell_reads(*lhs) | cell_reads(*rhs),
            BoolExpr::DirIn { dir, .. } => self.dir_reads(Some(dir)),
            BoolExpr::Not(x) => self.bool_reads(*x),
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) => self.bool_reads(*a) | self.bool_reads(*b),
            BoolExpr::Cmp { lhs, rhs, .. } => self.int_reads(*lhs) | self.int_reads(*rhs),
            BoolExpr::PlayerEq { lhs, rhs, .. } => player_reads(*lhs) | player_reads(*rhs),
            BoolExpr::In { set, cell } | BoolExpr::Completes { set, cell, .. } => {
                self.set_reads(*set) | cell_reads(*cell)
            }
            BoolExpr::Connected {
                through, from, to, ..
            } => self.set_reads(*through) | self.set_reads(*from) | self.set_reads(*to),
        }
    }

    /// A direction reads the position through `dir(R, i)`, whose index is an integer.
    pub(crate) fn dir_reads(&self, dir: Option<&DirExpr>) -> Reads {
        match dir {
            None | Some(DirExpr::Var(_)) => Reads::default(),
            Some(DirExpr::Neg(d) | DirExpr::Turn(d, _) | DirExpr::Mirror(d, _)) => {
                self.dir_reads(Some(d))
            }
            Some(DirExpr::Index(i)) => Reads::COUNTERS | self.int_reads(*i),
        }
    }
}

/// Per op of the turn: how many decisions a move holds on arriving there when every walk that
/// reaches it agrees (`None` where walks differ, e.g. in a `repeat` that chooses whether to go
/// on, or where none goes), and the most it can hold (up to [`rulestone_ir::MAX_DECISIONS`], also
/// where no walk goes). Generated code writes a decision at a place fixed when compiling
/// (`Gen::extend_at`) and lists a short move as one word.
pub(crate) fn decision_counts(p: &Program) -> (Vec<Option<u8>>, Vec<usize>) {
    let ops = &p.turn.ops;
    let cap = rulestone_ir::MAX_DECISIONS;
    let pick = if p.wide_picks() { 2 } else { 1 };
    let mut depth = vec![Depth::Unreached; ops.len() + 1];
    let mut most: Vec<Option<usize>> = vec![None; ops.len() + 1];
    depth[0] = Depth::At(0);
    most[0] = Some(0);
    let mut work = vec![0usize];
    while let Some(pc) = work.pop() {
        let (Some(op), Some(here)) = (ops.get(pc), most[pc]) else {
            continue;
        };
        let (added, always) = decisions_added(op, pick);
        let exact = match depth[pc] {
            Depth::At(d) if always && !matches!(op, Op::RepeatCheck { .. }) => u8::try_from(added)
                .ok()
                .and_then(|n| d.checked_add(n))
                .map_or(Depth::Varies, Depth::At),
            Depth::At(d) if always => Depth::At(d),
            Depth::At(_) | Depth::Unreached | Depth::Varies => Depth::Varies,
        };
        // Capped, so that a loop that chooses stops growing.
        let at_most = (here + added).min(cap);
        for next in successors(op, pc) {
            let (Some(slot), Some(high)) = (depth.get(next).copied(), most.get(next).copied())
            else {
                continue;
            };
            let merged = match slot {
                Depth::Unreached => exact,
                old if old == exact => old,
                Depth::At(_) | Depth::Varies => Depth::Varies,
            };
            let higher = high.map_or(at_most, |h| h.max(at_most));
            if merged != slot || high != Some(higher) {
                depth[next] = merged;
                most[next] = Some(higher);
                work.push(next);
            }
        }
    }
    let exact = depth
        .into_iter()
        .map(|d| match d {
            Depth::At(d) => Some(d),
            Depth::Unreached | Depth::Varies => None,
        })
        .collect();
    (exact, most.into_iter().map(|n| n.unwrap_or(cap)).collect())
}

/// Not reached yet; a known count; walks that differ.
#[derive(Clone, Copy, PartialEq)]
enum Depth {
    Unreached,
    At(u8),
    Varies,
}

/// How many decisions `op` adds to a move (`pick`: those of a cell), and whether always. A
/// direction is one decision on any board; a cell two past 255 cells. A `repeat` that chooses
/// adds one only in the rounds where it may stop or go on.
fn decisions_added(op: &Op, pick: usize) -> (usize, bool) {
    match op {
        Op::Pick { .. } => (pick, true),
        Op::Place { .. } => (2, true),
        Op::PickDir { .. } | Op::Roll { .. } | Op::Either(_) | Op::First(_) => (1, true),
        Op::RepeatCheck { min, max, .. } => (1, min >= max),
        Op::Let { .. }
        | Op::Put { .. }
        | Op::Remove { .. }
        | Op::Move { .. }
        | Op::PutAll { .. }
        | Op::RemoveAll { .. }
        | Op::Shift { .. }
        | Op::Assign { .. }
        | Op::AssignAll { .. }
        | Op::Require(_)
        | Op::Unless { .. }
        | Op::Jump(_)
        | Op::RepeatStart { .. }
        | Op::RepeatNext { .. }
        | Op::DistinctStart { .. }
        | Op::DistinctEnd { .. }
        | Op::Memo { .. }
        | Op::Again
        | Op::SetVar { .. }
        | Op::SetDir { .. }
        | Op::WhileCheck { .. }
        | Op::Write(_)
        | Op::Chooser(_)
        | Op::Finish(_)
        | Op::Done => (0, true),
    }
}

/// Where the walk may go after `op` at `pc`.
pub(crate) fn successors(op: &Op, pc: usize) -> Vec<usize> {
    match op {
        Op::Unless { target, .. } => vec![pc + 1, *target as usize],
        Op::Jump(target) => vec![*target as usize],
        Op::Either(branches) | Op::First(branches) => {
            branches.iter().map(|b| *b as usize).collect()
        }
        Op::RepeatCheck { exit, .. } | Op::WhileCheck { exit, .. } => {
            vec![pc + 1, *exit as usize]
        }
        Op::RepeatNext { check, .. } => vec![*check as usize],
        Op::Finish(_) | Op::Done => Vec::new(),
        Op::Pick { .. }
        | Op::PickDir { .. }
        | Op::Place { .. }
        | Op::Let { .. }
        | Op::Put { .. }
        | Op::Remove { .. }
        | Op::Move { .. }
        | Op::PutAll { .. }
        | Op::RemoveAll { .. }
        | Op::Shift { .. }
        | Op::Assign { .. }
        | Op::AssignAll { .. }
        | Op::Require(_)
        | Op::RepeatStart { .. }
        | Op::DistinctStart { .. }
        | Op::DistinctEnd { .. }
        | Op::Memo { .. }
        | Op::Roll { .. }
        | Op::Again
        | Op::SetVar { .. }
        | Op::SetDir { .. }
        | Op::Write(_)
        | Op::Chooser(_) => vec![pc + 1],
    }
}

/// Reading the owner of a cell reads the board.
fn player_reads(p: PlayerRef) -> Reads {
    match p {
        PlayerRef::Owner(c) => Reads::BOARD | cell_reads(c),
        PlayerRef::Mover | PlayerRef::Opponent | PlayerRef::Const(_) => Reads::default(),
    }
}

/// A token's cell is read from its counter slot; other cell values are not position reads.
fn cell_reads(c: CellRef) -> Reads {
    Reads::counters_if(matches!(c, CellRef::Slot(_)))
}
