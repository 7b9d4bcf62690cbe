//! The generic engine: one bytecode interpreter that enumerates a turn program's choice points
//! depth-first (legal moves) or follows one move's decisions (apply). Every effect is logged on a
//! trail, so backtracking and `undo` are the same operation.

use super::moves::Move;
use super::state::{GameResult, State, Zobrist};
use crate::ir::lower::{compare, int_op};
use crate::ir::{
    AssignKind, AssignSlot, BoolExpr, BoolId, CellRef, CellSet, Code, Finish, IntExpr, IntId, Op,
    PlayerRef, Program, SetExpr, SetId, TemplatePart, MAX_SET_LOCALS, MAX_VARS,
};

/// The turn's picked cells and repeat counts. Small and passed by value into each choice, so
/// backtracking needs no bookkeeping for them. (`let` sets live in the engine and are restored
/// when a walk backtracks past their `let`.)
#[derive(Clone, Copy)]
struct Vars {
    cells: [u8; MAX_VARS],
}

const NO_VARS: Vars = Vars {
    cells: [0; MAX_VARS],
};

/// One logged change, undone by writing `old` back.
#[derive(Clone, Copy, Debug)]
enum Change {
    Cell { cell: u8, old: u8 },
    Counter { slot: u16, old: i32 },
    Result(Option<GameResult>),
}

const FILTER_WORDS: usize = 16;

/// What `undo` needs beyond the trail.
#[derive(Clone, Copy, Debug)]
#[must_use]
pub struct Undo {
    trail: u32,
    mover: u8,
    ply: u32,
}

/// Per-walk bookkeeping of the interpreter.
struct Walk<'o> {
    out: Option<&'o mut Vec<Move>>,
    current: Move,
    /// Next decision to read when replaying.
    read: usize,
    text: Option<String>,
    leaves: u64,
    overflow: bool,
}

/// A game program with a position, ready to generate and play moves.
#[derive(Clone, Debug)]
pub struct Engine<'p> {
    program: &'p Program,
    zobrist: Zobrist,
    pub state: State,
    trail: Vec<Change>,
    /// Seen end-of-block hashes, one list per `distinct` block.
    seen: Vec<Vec<u64>>,
    /// Per `distinct` block, a bit filter over the hashes its current walk has seen: a clear
    /// bit proves a hash is new without scanning the list.
    filters: Vec<[u64; FILTER_WORDS]>,
    /// Per `distinct` block, where the current walk's entries start in `seen`.
    seen_start: Vec<usize>,
    /// The values of `let` sets.
    locals: [CellSet; MAX_SET_LOCALS],
    /// Set when a turn needed more decisions than a move holds.
    pub overflowed: bool,
}

impl<'p> Engine<'p> {
    /// The start position: an empty board, then the setup program.
    #[must_use]
    pub fn new(program: &'p Program) -> Engine<'p> {
        let zobrist = Zobrist::new(program);
        let state = State::empty(program, &zobrist);
        let mut engine = Engine {
            program,
            zobrist,
            state,
            trail: Vec::with_capacity(256),
            seen: vec![Vec::new(); program.distinct_blocks],
            filters: vec![[0; FILTER_WORDS]; program.distinct_blocks],
            seen_start: vec![0; program.distinct_blocks],
            overflowed: false,
            locals: [CellSet::EMPTY; MAX_SET_LOCALS],
        };
        let mut walk = Walk::replay(Move::default(), false);
        engine.exec::<false>(&program.setup, 0, NO_VARS, &mut walk);
        engine.trail.clear();
        engine
    }

    #[must_use]
    pub fn program(&self) -> &'p Program {
        self.program
    }

    #[must_use]
    pub fn zobrist(&self) -> &Zobrist {
        &self.zobrist
    }

    /// Every legal move of the position, in generation order (choice points in program order,
    /// cells in board order). Empty when the game is over.
    pub fn legal_moves(&mut self, out: &mut Vec<Move>) {
        out.clear();
        if self.state.result.is_some() {
            return;
        }
        let mark = self.trail.len();
        let mut walk = Walk {
            out: Some(out),
            current: Move::default(),
            read: 0,
            text: None,
            leaves: 0,
            overflow: false,
        };
        let program = self.program;
        self.exec::<true>(&program.turn, 0, NO_VARS, &mut walk);
        self.overflowed |= walk.overflow;
        self.rollback(mark);
    }

    /// Plays a move taken from [`Engine::legal_moves`] of this position.
    pub fn apply(&mut self, m: &Move) -> Undo {
        let undo = Undo {
            trail: u32::try_from(self.trail.len()).unwrap_or(u32::MAX),
            mover: self.state.mover,
            ply: self.state.ply,
        };
        let mut walk = Walk::replay(*m, false);
        let program = self.program;
        self.exec::<false>(&program.turn, 0, NO_VARS, &mut walk);
        self.end_turn();
        undo
    }

    /// Takes back the move that returned `undo`.
    pub fn undo(&mut self, undo: Undo) {
        self.rollback(undo.trail as usize);
        self.state.set_mover(&self.zobrist, undo.mover);
        self.state.ply = undo.ply;
    }

    fn end_turn(&mut self) {
        if self.state.result.is_none() {
            let next = 1 - self.state.mover;
            self.state.set_mover(&self.zobrist, next);
        }
        self.state.ply += 1;
    }

    /// The notation of a legal move of this position.
    #[must_use]
    pub fn move_text(&mut self, m: &Move) -> String {
        let mark = self.trail.len();
        let mut walk = Walk::replay(*m, true);
        let program = self.program;
        self.exec::<false>(&program.turn, 0, NO_VARS, &mut walk);
        self.rollback(mark);
        walk.text.unwrap_or_default().trim().to_string()
    }

    /// The result if the game is over: decided by a `win`/`lose`/`draw`, or by `on no moves`
    /// when the player to move has no legal move.
    pub fn outcome(&mut self) -> Option<GameResult> {
        if let Some(r) = self.state.result {
            return Some(r);
        }
        let mut moves = Vec::new();
        self.legal_moves(&mut moves);
        if moves.is_empty() {
            Some(self.stuck_result())
        } else {
            None
        }
    }

    /// The result when the player to move has no legal move, from `on no moves`.
    pub fn stuck_result(&mut self) -> GameResult {
        let mark = self.trail.len();
        let mut walk = Walk::replay(Move::default(), false);
        let program = self.program;
        self.exec::<false>(&program.no_moves, 0, NO_VARS, &mut walk);
        let r = self.state.result.unwrap_or(GameResult::Draw);
        self.rollback(mark);
        r
    }

    /// Marks the game as ended with `result`, on the trail so that undo clears it.
    fn finish(&mut self, result: GameResult) {
        self.trail.push(Change::Result(self.state.result));
        self.state.result = Some(result);
    }

    fn rollback(&mut self, mark: usize) {
        while self.trail.len() > mark {
            let Some(change) = self.trail.pop() else {
                break;
            };
            match change {
                Change::Cell { cell, old } => {
                    self.state.set_cell(&self.zobrist, usize::from(cell), old);
                }
                Change::Counter { slot, old } => {
                    self.state
                        .set_counter(&self.zobrist, usize::from(slot), old);
                }
                Change::Result(old) => self.state.result = old,
            }
        }
    }

    #[inline]
    fn set_cell(&mut self, cell: usize, code: u8) {
        self.trail.push(Change::Cell {
            cell: u8::try_from(cell).unwrap_or(u8::MAX),
            old: self.state.board[cell],
        });
        self.state.set_cell(&self.zobrist, cell, code);
    }

    #[inline]
    fn set_counter(&mut self, slot: usize, value: i32) {
        self.trail.push(Change::Counter {
            slot: u16::try_from(slot).unwrap_or(u16::MAX),
            old: self.state.counters[slot],
        });
        self.state.set_counter(&self.zobrist, slot, value);
    }

    // ---- the interpreter --------------------------------------------------------------------

    /// Runs `code` from `pc`. In generating mode (`GEN`) every choice point tries each option
    /// and backtracks; otherwise options are read from the walk's move.
    #[allow(clippy::too_many_lines)]
    fn exec<const GEN: bool>(
        &mut self,
        code: &Code,
        mut pc: usize,
        mut vars: Vars,
        walk: &mut Walk,
    ) {
        loop {
            if GEN {
                pc = code.busy[pc] as usize;
            }
            if GEN && code.decided[pc] {
                self.leaf::<GEN>(walk);
                return;
            }
            match &code.ops[pc] {
                Op::Pick { var, from } => {
                    if GEN {
                        let set = self.eval_set(*from, &vars, self.program.board.all, 0);
                        let len = walk.current.len();
                        if code.decided[pc + 1] {
                            // Each candidate completes a move at once: no need to run the rest.
                            for c in set.iter() {
                                if walk.current.push(c as u8) {
                                    self.leaf::<true>(walk);
                                } else {
                                    walk.overflow = true;
                                }
                                walk.current.truncate(len);
                            }
                            return;
                        }
                        let mark = self.trail.len();
                        for c in set.iter() {
                            let mut v = vars;
                            v.cells[usize::from(*var)] = c as u8;
                            if walk.current.push(c as u8) {
                                self.exec::<true>(code, pc + 1, v, walk);
                            } else {
                                walk.overflow = true;
                            }
                            walk.current.truncate(len);
                            self.rollback(mark);
                        }
                        return;
                    }
                    vars.cells[usize::from(*var)] = walk.next();
                    pc += 1;
                }
                Op::Let { slot, set, replay } => {
                    if !GEN && !*replay {
                        pc += 1;
                        continue;
                    }
                    let value = self.eval_set(*set, &vars, self.program.board.all, 0);
                    let slot = usize::from(*slot);
                    if GEN {
                        // Later ops of this walk read the value; restore it on the way back.
                        let outer = std::mem::replace(&mut self.locals[slot], value);
                        self.exec::<true>(code, pc + 1, vars, walk);
                        self.locals[slot] = outer;
                        return;
                    }
                    self.locals[slot] = value;
                    pc += 1;
                }
                Op::Put {
                    code_base,
                    owner,
                    at,
                } => {
                    let owner = self.player(*owner, &vars, 0);
                    let cell = self.cell(*at, &vars, 0);
                    self.set_cell(cell, code_base + owner);
                    pc += 1;
                }
                Op::PutAll {
                    code_base,
                    owner,
                    at,
                } => {
                    let code = code_base + self.player(*owner, &vars, 0);
                    for cell in self.eval_set(*at, &vars, self.program.board.all, 0).iter() {
                        self.set_cell(cell, code);
                    }
                    pc += 1;
                }
                Op::RemoveAll { at } => {
                    for cell in self.eval_set(*at, &vars, self.program.board.all, 0).iter() {
                        self.set_cell(cell, 0);
                    }
                    pc += 1;
                }
                Op::Remove { at } => {
                    let cell = self.cell(*at, &vars, 0);
                    self.set_cell(cell, 0);
                    pc += 1;
                }
                Op::Require(cond) => {
                    if GEN && !self.eval_bool(*cond, &vars, 0) {
                        return;
                    }
                    pc += 1;
                }
                Op::Unless { cond, target } => {
                    pc = if self.eval_bool(*cond, &vars, 0) {
                        pc + 1
                    } else {
                        *target as usize
                    };
                }
                Op::Jump(target) => pc = *target as usize,
                Op::Either(branches) => {
                    if GEN {
                        let mark = self.trail.len();
                        let len = walk.current.len();
                        for (i, start) in branches.iter().enumerate() {
                            if walk.current.push(i as u8) {
                                self.exec::<true>(code, *start as usize, vars, walk);
                            } else {
                                walk.overflow = true;
                            }
                            walk.current.truncate(len);
                            self.rollback(mark);
                        }
                        return;
                    }
                    let i = usize::from(walk.next());
                    pc = branches.get(i).map_or(code.ops.len() - 1, |s| *s as usize);
                }
                Op::First(branches) => {
                    if GEN {
                        let mark = self.trail.len();
                        let len = walk.current.len();
                        for (i, start) in branches.iter().enumerate() {
                            let before = walk.leaves;
                            if walk.current.push(i as u8) {
                                self.exec::<true>(code, *start as usize, vars, walk);
                            } else {
                                walk.overflow = true;
                            }
                            walk.current.truncate(len);
                            self.rollback(mark);
                            if walk.leaves != before {
                                break;
                            }
                        }
                        return;
                    }
                    let i = usize::from(walk.next());
                    pc = branches.get(i).map_or(code.ops.len() - 1, |s| *s as usize);
                }
                Op::RepeatStart { var } => {
                    vars.cells[usize::from(*var)] = 0;
                    pc += 1;
                }
                Op::RepeatCheck {
                    var,
                    min,
                    max,
                    exit,
                } => {
                    let rounds = vars.cells[usize::from(*var)];
                    let can_stop = rounds >= *min;
                    let can_go = rounds < *max;
                    match (can_stop, can_go) {
                        (true, true) => {
                            if GEN {
                                let mark = self.trail.len();
                                let len = walk.current.len();
                                for (d, target) in [(0u8, *exit as usize), (1, pc + 1)] {
                                    if walk.current.push(d) {
                                        self.exec::<true>(code, target, vars, walk);
                                    } else {
                                        walk.overflow = true;
                                    }
                                    walk.current.truncate(len);
                                    self.rollback(mark);
                                }
                                return;
                            }
                            pc = if walk.next() == 0 {
                                *exit as usize
                            } else {
                                pc + 1
                            };
                        }
                        (true, false) => pc = *exit as usize,
                        _ => pc += 1,
                    }
                }
                Op::RepeatNext { var, check } => {
                    vars.cells[usize::from(*var)] += 1;
                    pc = *check as usize;
                }
                Op::DistinctStart { block } => {
                    if GEN {
                        let b = usize::from(*block);
                        let start = self.seen[b].len();
                        let outer = std::mem::replace(&mut self.filters[b], [0; FILTER_WORDS]);
                        let outer_start = std::mem::replace(&mut self.seen_start[b], start);
                        self.exec::<true>(code, pc + 1, vars, walk);
                        self.seen[b].truncate(start);
                        self.filters[b] = outer;
                        self.seen_start[b] = outer_start;
                        return;
                    }
                    pc += 1;
                }
                Op::DistinctEnd { block } => {
                    if GEN {
                        // Only ends reached within this walk of the block compete; entries of
                        // enclosing walks lie below, and inner walks truncate their own.
                        let h = self.state.hash;
                        let b = usize::from(*block);
                        let bit = (h >> 58) as usize; // 0..64
                        let word = (h as usize) % FILTER_WORDS;
                        let filter = &mut self.filters[b][word];
                        let seen = &mut self.seen[b];
                        // Only the current walk's entries compete (enclosing walks lie below).
                        if *filter >> bit & 1 != 0 && seen[self.seen_start[b]..].contains(&h) {
                            return;
                        }
                        *filter |= 1 << bit;
                        seen.push(h);
                    }
                    pc += 1;
                }
                Op::Write(t) => {
                    if walk.text.is_some() {
                        let s = self.render(*t, &vars);
                        if let Some(text) = walk.text.as_mut() {
                            text.push_str(&s);
                        }
                    }
                    pc += 1;
                }
                Op::Assign { slot, op, value } => {
                    let slot = match slot {
                        AssignSlot::Global(s) => usize::from(*s),
                        AssignSlot::PerPlayer { base, player } => {
                            usize::from(*base) + usize::from(self.player(*player, &vars, 0))
                        }
                    };
                    let v = self.eval_int(*value, &vars, 0);
                    let old = self.state.counters[slot];
                    let new = match op {
                        AssignKind::Set => v,
                        AssignKind::Add => old.wrapping_add(v),
                        AssignKind::Sub => old.wrapping_sub(v),
                    };
                    self.set_counter(slot, new);
                    pc += 1;
                }
                Op::Finish(f) => {
                    let result = match f {
                        Finish::Win(p) => GameResult::Win(self.player(*p, &vars, 0)),
                        Finish::Lose(p) => GameResult::Win(1 - self.player(*p, &vars, 0)),
                        Finish::Draw => GameResult::Draw,
                    };
                    self.finish(result);
                    self.leaf::<GEN>(walk);
                    return;
                }
                Op::Done => {
                    self.leaf::<GEN>(walk);
                    return;
                }
            }
        }
    }

    #[inline]
    fn leaf<const GEN: bool>(&mut self, walk: &mut Walk) {
        walk.leaves += 1;
        if GEN {
            if let Some(out) = walk.out.as_mut() {
                out.push(walk.current);
            }
        }
    }

    #[inline]
    fn cell(&self, c: CellRef, vars: &Vars, candidate: u8) -> usize {
        usize::from(match c {
            CellRef::Var(v) => vars.cells[usize::from(v)],
            CellRef::Const(c) => c,
            CellRef::Candidate => candidate,
        })
    }

    #[inline]
    fn player(&self, p: PlayerRef, vars: &Vars, candidate: u8) -> u8 {
        match p {
            PlayerRef::Mover => self.state.mover,
            PlayerRef::Opponent => 1 - self.state.mover,
            PlayerRef::Const(i) => i,
            PlayerRef::Owner(c) => self
                .state
                .owner(self.cell(c, vars, candidate))
                .unwrap_or(u8::MAX),
        }
    }

    /// The set's cells that lie in `domain`: callers narrow the domain so that per-cell tests
    /// run only where they can matter.
    fn eval_set(&self, id: SetId, vars: &Vars, domain: CellSet, candidate: u8) -> CellSet {
        let p = self.program;
        let s = &self.state;
        match &p.sets[usize::from(id)] {
            SetExpr::Const(c) => *c & domain,
            SetExpr::Empty => domain - s.occupied,
            SetExpr::Occupied => domain & s.occupied,
            SetExpr::PlayerPieces(pl) => {
                let who = self.player(*pl, vars, candidate);
                s.by_player
                    .get(usize::from(who))
                    .map_or(CellSet::EMPTY, |b| *b & domain)
            }
            SetExpr::Pieces { code, player } => {
                let who = self.player(*player, vars, candidate);
                s.by_code
                    .get(usize::from(code + who))
                    .map_or(CellSet::EMPTY, |b| *b & domain)
            }
            SetExpr::Single(c) => {
                let mut one = CellSet::EMPTY;
                one.insert(self.cell(*c, vars, candidate));
                one & domain
            }
            SetExpr::Union(a, b) => {
                self.eval_set(*a, vars, domain, candidate)
                    | self.eval_set(*b, vars, domain, candidate)
            }
            SetExpr::Inter(a, b) => {
                let x = self.eval_set(*a, vars, domain, candidate);
                if x.is_empty() {
                    x
                } else {
                    self.eval_set(*b, vars, x, candidate)
                }
            }
            SetExpr::Diff(a, b) => {
                let x = self.eval_set(*a, vars, domain, candidate);
                if x.is_empty() {
                    x
                } else {
                    x - self.eval_set(*b, vars, x, candidate)
                }
            }
            SetExpr::All { relation, of } => {
                self.neighbours_filter(*relation, *of, vars, domain, candidate, |m, of| {
                    m.is_subset(of)
                })
            }
            SetExpr::None { relation, of } => {
                self.neighbours_filter(*relation, *of, vars, domain, candidate, |m, of| {
                    !m.intersects(of)
                })
            }
            SetExpr::Any { relation, of } => {
                self.neighbours_filter(*relation, *of, vars, domain, candidate, |m, of| {
                    m.intersects(of)
                })
            }
            SetExpr::Step { relation, of } => {
                let masks = p.relations[usize::from(*relation)].masks_for(self.state.mover);
                let of = self.eval_set(*of, vars, p.board.all, candidate);
                let mut out = CellSet::EMPTY;
                for c in of.iter() {
                    out |= masks[c];
                }
                out & domain
            }
            SetExpr::Local(slot) => self.locals[usize::from(*slot)] & domain,
            SetExpr::AxisCmp { axis, op, value } => {
                let v = self.eval_int(*value, vars, candidate);
                p.board.axis_cmp(usize::from(*axis), *op, v) & domain
            }
            SetExpr::Where { base, cond } => {
                let x = self.eval_set(*base, vars, domain, candidate);
                let mut out = x;
                for c in x.iter() {
                    if !self.eval_bool(*cond, vars, c as u8) {
                        out.remove(c);
                    }
                }
                out
            }
        }
    }

    /// The cells of `domain` whose neighbours along `relation` satisfy `keep` against the set
    /// `of` (`all`, `none` and `any`).
    #[inline]
    fn neighbours_filter(
        &self,
        relation: u16,
        of: SetId,
        vars: &Vars,
        domain: CellSet,
        candidate: u8,
        keep: impl Fn(&CellSet, &CellSet) -> bool,
    ) -> CellSet {
        let p = self.program;
        let masks = p.relations[usize::from(relation)].masks_for(self.state.mover);
        let of = self.eval_set(of, vars, p.board.all, candidate);
        let mut out = domain;
        for c in domain.iter() {
            if !keep(&masks[c], &of) {
                out.remove(c);
            }
        }
        out
    }

    fn eval_int(&self, id: IntId, vars: &Vars, candidate: u8) -> i32 {
        let p = self.program;
        match &p.ints[usize::from(id)] {
            IntExpr::Const(v) => *v,
            IntExpr::Counter(slot) => self.state.counters[usize::from(*slot)],
            IntExpr::PlayerCounter { base, player } => {
                let who = self.player(*player, vars, candidate);
                self.state
                    .counters
                    .get(usize::from(*base) + usize::from(who))
                    .copied()
                    .unwrap_or(0)
            }
            IntExpr::Axis { cell, axis } => p
                .board
                .coord(self.cell(*cell, vars, candidate), usize::from(*axis)),
            IntExpr::Count(s) => {
                let set = self.eval_set(*s, vars, p.board.all, candidate);
                i32::try_from(set.len()).unwrap_or(i32::MAX)
            }
            IntExpr::Neg(x) => self.eval_int(*x, vars, candidate).wrapping_neg(),
            IntExpr::Bin { op, lhs, rhs } => int_op(
                *op,
                self.eval_int(*lhs, vars, candidate),
                self.eval_int(*rhs, vars, candidate),
            ),
        }
    }

    fn eval_bool(&self, id: BoolId, vars: &Vars, candidate: u8) -> bool {
        let p = self.program;
        match &p.bools[usize::from(id)] {
            BoolExpr::Const(v) => *v,
            BoolExpr::Not(x) => !self.eval_bool(*x, vars, candidate),
            BoolExpr::And(a, b) => {
                self.eval_bool(*a, vars, candidate) && self.eval_bool(*b, vars, candidate)
            }
            BoolExpr::Or(a, b) => {
                self.eval_bool(*a, vars, candidate) || self.eval_bool(*b, vars, candidate)
            }
            BoolExpr::Cmp { op, lhs, rhs } => compare(
                *op,
                self.eval_int(*lhs, vars, candidate),
                self.eval_int(*rhs, vars, candidate),
            ),
            BoolExpr::CellEq { eq, lhs, rhs } => {
                (self.cell(*lhs, vars, candidate) == self.cell(*rhs, vars, candidate)) == *eq
            }
            BoolExpr::PlayerEq { eq, lhs, rhs } => {
                (self.player(*lhs, vars, candidate) == self.player(*rhs, vars, candidate)) == *eq
            }
            BoolExpr::In { cell, set } => {
                let c = self.cell(*cell, vars, candidate);
                let mut one = CellSet::EMPTY;
                one.insert(c);
                !self.eval_set(*set, vars, one, candidate).is_empty()
            }
            BoolExpr::Connected {
                relation,
                through,
                from,
                to,
            } => {
                let all = p.board.all;
                let through = self.eval_set(*through, vars, all, candidate);
                let to = self.eval_set(*to, vars, all, candidate) & through;
                if to.is_empty() {
                    return false;
                }
                let masks = p.relations[usize::from(*relation)].masks_for(self.state.mover);
                // Grow the region reachable from `from` one ring at a time.
                let mut reached = self.eval_set(*from, vars, through, candidate);
                let mut frontier = reached;
                while !frontier.is_empty() {
                    if frontier.intersects(&to) {
                        return true;
                    }
                    let mut ring = CellSet::EMPTY;
                    for c in frontier.iter() {
                        ring |= masks[c];
                    }
                    frontier = (ring & through) - reached;
                    reached |= frontier;
                }
                false
            }
            BoolExpr::Completes { pattern, cell, set } => {
                let pat = &p.patterns[usize::from(*pattern)];
                let c = self.cell(*cell, vars, candidate);
                let (a, b) = (pat.offsets[c] as usize, pat.offsets[c + 1] as usize);
                if a == b {
                    return false;
                }
                let s = self.eval_set(*set, vars, p.board.all, candidate);
                pat.instances[a..b].iter().any(|inst| inst.is_subset(&s))
            }
        }
    }

    fn render(&self, t: u16, vars: &Vars) -> String {
        let p = self.program;
        let mut out = String::new();
        for part in &p.templates[usize::from(t)].parts {
            match part {
                TemplatePart::Text(s) => out.push_str(s),
                TemplatePart::Cell(c) => out.push_str(&p.board.names[self.cell(*c, vars, 0)]),
                TemplatePart::Int(i) => out.push_str(&self.eval_int(*i, vars, 0).to_string()),
                TemplatePart::Player(pl) => {
                    let who = usize::from(self.player(*pl, vars, 0));
                    out.push_str(p.players.get(who).map_or("?", String::as_str));
                }
                TemplatePart::Letter(i) => {
                    let v = self.eval_int(*i, vars, 0);
                    let c = u8::try_from(v)
                        .ok()
                        .filter(|v| *v < 26)
                        .map_or('?', |v| char::from(b'a' + v));
                    out.push(c);
                }
            }
        }
        out
    }
}

impl Walk<'_> {
    fn replay(m: Move, text: bool) -> Walk<'static> {
        Walk {
            out: None,
            current: m,
            read: 0,
            text: text.then(String::new),
            leaves: 0,
            overflow: false,
        }
    }

    /// The next recorded decision (0 past the end, so a malformed move cannot panic).
    #[inline]
    fn next(&mut self) -> u8 {
        let d = self.current.get(self.read).unwrap_or(0);
        self.read += 1;
        d
    }
}
