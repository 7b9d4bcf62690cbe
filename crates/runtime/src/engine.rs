//! The generic engine: one bytecode interpreter that enumerates a turn program's choice points
//! depth-first (legal moves) or follows one move's decisions (apply). Every effect is logged on a
//! trail, so backtracking and `undo` are the same operation.
//!
//! The interpreter is built once per set width `W` (1, 2, 4 or 16 words) and runs in the
//! fewest words the board needs. Sets kept in the program, the position and the `let` slots
//! are stored sixteen words wide and read through their first `W` words; the others stay empty,
//! since no cell id reaches past the board.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use super::compiled::{Backend, BackendKind, CompiledTurn, Gen};
use super::moves::Move;
use super::ops;
use super::state::{GameResult, State, Zobrist};
use rulestone_base::hash::{BuildKeyHasher, KeySet};
use rulestone_ir::ops::{compare, int_op, neg, stock_points};
use rulestone_ir::passes::axis_filter::key_table;
use rulestone_ir::{
    words_for, AssignKind, AssignSlot, BoolExpr, BoolId, CellBits, CellRef, CellSet, CmpOp, Code,
    DirExpr, Finish, IntExpr, IntId, Op, Placement, PlayerRef, Program, SetExpr, SetId,
    TemplatePart, MAX_PATH_ROUNDS, MAX_PLACED, MAX_SET_LOCALS, MAX_STEPS, MAX_VARS, NO_CELL,
    NO_DIR, SET_WORDS,
};
use std::collections::HashMap;

/// Evaluates `$e` with the constant `W` bound to the engine's set width: the interpreter is
/// built once per width, so that a small board's sets are one or two words while the program
/// stores them as wide as the largest board.
macro_rules! at_width {
    ($words:expr, $e:expr) => {
        match $words {
            1 => {
                const W: usize = 1;
                $e
            }
            2 => {
                const W: usize = 2;
                $e
            }
            4 => {
                const W: usize = 4;
                $e
            }
            _ => {
                const W: usize = SET_WORDS;
                $e
            }
        }
    };
}

/// A set the interpreter answers in one step instead of walking its expressions, worked out
/// when the engine is made from the program alone: the meaning stays the expressions'.
#[derive(Clone, Debug)]
enum Shortcut {
    /// An [`SetExpr::AxisKey`] whose key is known before the game starts: the cells of each
    /// key value, ascending ([`key_table`]).
    Keys(Box<[(i32, CellSet)]>),
    /// A `where` that compares the candidate's per-cell counter with a number
    /// (`where height == 0`): one read per cell.
    CellCounter { base: u16, op: CmpOp, value: i32 },
}

impl Shortcut {
    fn of(program: &Program, set: SetId) -> Option<Shortcut> {
        match &program.sets[usize::from(set)] {
            SetExpr::AxisKey { .. } => key_table(program, set)
                .map(Vec::into_boxed_slice)
                .map(Shortcut::Keys),
            SetExpr::Where { cond, .. } => {
                let BoolExpr::Cmp { op, lhs, rhs } = program.bools[usize::from(*cond)] else {
                    return None;
                };
                let int = |i: IntId| &program.ints[usize::from(i)];
                match (int(lhs), int(rhs)) {
                    (
                        IntExpr::CellCounter {
                            base,
                            cell: CellRef::Candidate,
                        },
                        IntExpr::Const(value),
                    ) => Some(Shortcut::CellCounter {
                        base: *base,
                        op,
                        value: *value,
                    }),
                    (
                        IntExpr::Const(value),
                        IntExpr::CellCounter {
                            base,
                            cell: CellRef::Candidate,
                        },
                    ) => Some(Shortcut::CellCounter {
                        base: *base,
                        op: op.mirrored(),
                        value: *value,
                    }),
                    _ => None,
                }
            }
            _ => None,
        }
    }
}

/// The turn's picked cells and repeat counts. Small and passed by value into each choice, so
/// backtracking needs no bookkeeping for them. (`let` sets live in the engine and are restored
/// when a walk backtracks past their `let`.)
#[derive(Clone, Copy)]
struct Vars {
    cells: [u16; MAX_VARS],
    /// The placement instance bound by each `place` slot.
    placed: [u16; MAX_PLACED],
    /// The loop rounds this path has run (at most [`MAX_PATH_ROUNDS`] while generating).
    rounds: u32,
}

const NO_VARS: Vars = Vars {
    cells: [0; MAX_VARS],
    placed: [0; MAX_PLACED],
    rounds: 0,
};

/// Where the walk goes on after an op: the next op to run, or `None` when this walk ends here
/// (a choice point, having run each option itself, ends it too).
type Next = Option<usize>;

/// One logged change, undone by writing `old` back.
#[derive(Clone, Copy, Debug)]
enum Change {
    Cell { cell: u16, old: u8 },
    Counter { slot: u16, old: i32 },
    Result(Option<GameResult>),
}

const FILTER_WORDS: usize = 16;

/// Past this many ends, a `distinct` walk looks ends up in a hash set, not its list.
const MANY_ENDS: usize = 48;

/// Sets end hashes apart from loop keys in a block's key set.
const END_SALT: u64 = 0x5EED_0F0E_7D5A_17ED;

/// The most keys a spare key set keeps room for: a rare huge walk does not hold its memory.
const MAX_SPARE_KEYS: usize = 1 << 16;

/// The enclosing walk's bookkeeping of a `distinct` block, kept while an inner walk runs.
pub(super) struct DistinctOuter {
    filter: [u64; FILTER_WORDS],
    start: usize,
    len: usize,
    memo: KeySet,
}

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
    /// Generation steps left (choices tried, moves completed, loop rounds): at 0 the walk gives up,
    /// so one position's generation does bounded work (see [`MAX_STEPS`]).
    steps_left: u64,
    /// Whether a `roll` was passed (the moves are chance moves).
    chance: bool,
    /// The values rolled while replaying.
    rolled: Vec<i32>,
    /// With text: the notation in parts, each with the player whose choices it spells.
    parts: Vec<(u8, String)>,
    /// With text: who makes the choices being spelled now, and who makes the next `pick`.
    voice: u8,
    chooser: Option<u8>,
    /// Generating for [`Engine::refusals`]: the moves failed `require`s or cells a `pick`
    /// left out refused, each with what refused it.
    refusals: Option<Vec<(Move, Vec<RefusedBy>, u8)>>,
    /// Generating for [`Engine::refusals`]: the `require`s that failed on this way, and the
    /// parts of `pick` sets that left its cells out, which the walk goes on past.
    refused_by: Vec<RefusedBy>,
    /// How many failures `refused_by` holds (a `pick` that leaves a cell out is one, however
    /// many parts of its set do).
    failures: u8,
    /// Generating for [`Engine::refusals_naming`]: the cells a way may still be refused on
    /// after its first failure; with none, a second failure ends the way.
    named: Vec<u16>,
}

/// The most failures [`Engine::refusals_naming`] follows a way through the turn past.
pub const MAX_FAILURES: u8 = 4;

/// What refuses a move [`Engine::refusals`] lists.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RefusedBy {
    /// The `require` with this condition fails (its source: [`Program::rule_spans`]).
    Rule(BoolId),
    /// A `pick` from the set `set` (its source: [`Program::pick_spans`]) leaves `cell` out:
    /// `part` is the innermost operand of an `&`, a `-` or a `where` of the set's expression
    /// that leaves it out, `inside` when the cell is in it (the right side of a `-`).
    Pick {
        set: SetId,
        cell: u16,
        part: SetId,
        inside: bool,
    },
}

/// The most ways through a turn [`Engine::refusals`] records.
pub const MAX_REFUSALS: usize = 20_000;

/// A move that `require`s or `pick` sets refuse.
#[derive(Clone, Debug)]
pub struct Refusal {
    /// The move's decisions, as a legal move's would be.
    pub decisions: Move,
    /// What refuses it, in the order the way through the turn met it: each failed `require`,
    /// and each part of a `pick` set that leaves the picked cell out.
    pub by: Vec<RefusedBy>,
    /// How many failures (each `require`, each `pick`) refuse it.
    pub failures: u8,
    /// The move's notation.
    pub text: String,
}

/// A game program with a position, ready to generate and play moves.
#[derive(Clone, Debug)]
pub struct Engine<'p> {
    program: &'p Program,
    zobrist: Zobrist,
    pub state: State,
    trail: Vec<Change>,
    /// Move generation compiled to Rust for this program, when the binary holds it.
    compiled: Option<CompiledTurn>,
    /// Seen end-of-block hashes, one list per `distinct` block.
    seen: Vec<Vec<u64>>,
    /// Per `distinct` block, a bit filter over the hashes its current walk has seen: a clear
    /// bit proves a hash is new without scanning the list.
    filters: Vec<[u64; FILTER_WORDS]>,
    /// Per `distinct` block, where the current walk's entries start in `seen`.
    seen_start: Vec<usize>,
    /// Per `distinct` block, the loop heads (position, place and variables) its current walk
    /// has passed (see [`Op::Memo`]).
    memo: Vec<KeySet>,
    /// Emptied key sets of walks that ended, kept with their room: a walk that starts takes
    /// one, so listing moves does not grow a new table each time.
    spare_memo: Vec<KeySet>,
    /// Set by `again` while a move is applied: the mover keeps the turn.
    again: bool,
    /// Whether the moves last listed were chance moves.
    chance: bool,
    /// The values of `let` sets, stored wide; the interpreter reads and writes their first
    /// `words` words.
    locals: [CellSet; MAX_SET_LOCALS],
    /// Words per set the interpreter works in: the fewest the board needs ([`words_for`]).
    words: usize,
    /// Per set: how the interpreter answers it without walking its expressions, worked out
    /// when the engine is made ([`Shortcut`]); `None` for the rest.
    shortcuts: Arc<[Option<Shortcut>]>,
    /// Whether a picked cell takes two decisions ([`Program::wide_picks`]).
    wide_picks: bool,
    /// Set when a turn needed more decisions than a move holds.
    pub overflowed: bool,
    /// Set when a `while` reached its round limit in the interpreter: the moves through it
    /// were dropped (`check` reports the loops it can prove endless, E1006).
    pub runaway: bool,
    /// Set when generating one position's moves needed more than [`Engine::step_limit`] steps
    /// (E1008). Sticky: from then on every list is empty, so whatever loops over positions
    /// (perft, playouts, searches) ends at once, and its caller reports the error.
    pub exhausted: bool,
    /// The most steps one position's move generation may take (see [`MAX_STEPS`]).
    step_limit: u64,
    /// Raised with `exhausted`, and read by every engine that shares it: engines of one
    /// command (threads of a playout, agents' copies) all stop once one runs out of steps.
    alarm: Option<Arc<AtomicBool>>,
    /// Whether changes go on the trail; off while a playout plays moves it will not take back
    /// one by one (see [`Engine::save`]).
    logging: bool,
    /// The position [`Engine::save`] kept.
    saved: Option<Box<State>>,
    /// The game so far, for rules that read it (see [`Engine::rt_repetitions`]).
    history: History,
    /// Per cell, the piece code a `shift` lifted from it: sized once, so that moving many
    /// pieces at once allocates nothing per move.
    lifted: Vec<u8>,
}

/// The hash of every position of the game line, the current one last: kept only when the
/// program reads it ([`Program::uses_history`]), pushed by `apply`, popped by `undo`, cut
/// back by `restore`, so that it always describes the line that led to the engine's position.
#[derive(Clone, Debug, Default)]
struct History {
    kept: bool,
    hashes: Line,
    /// Its length when [`Engine::save`] kept the position.
    saved: usize,
}

impl History {
    /// Out of line, so that `apply` and `undo` of games without history stay as small as
    /// they were.
    #[cold]
    #[inline(never)]
    fn push(&mut self, hash: u64) {
        self.hashes.push(hash);
    }

    #[cold]
    #[inline(never)]
    fn pop(&mut self) {
        self.hashes.pop();
    }
}

/// The keys of a game line ([`history_key`]), the current position's last, with how many
/// times each key occurs: counting a key's earlier occurrences ([`repetitions`], once a ply
/// and once per move the turn lists) is one lookup, however long the line and however often a
/// position repeats. Invariant: `counts[k]` is the number of keys of `keys` equal to `k`, and
/// only keys that occur are in `counts`.
#[derive(Clone, Debug, Default)]
pub(super) struct Line {
    keys: Vec<u64>,
    counts: HashMap<u64, u32, BuildKeyHasher>,
}

impl Line {
    /// The keys, the current position's last.
    #[must_use]
    pub(super) fn keys(&self) -> &[u64] {
        &self.keys
    }

    pub(super) fn len(&self) -> usize {
        self.keys.len()
    }

    pub(super) fn push(&mut self, key: u64) {
        let count = self.counts.entry(key).or_insert(0);
        *count = count.saturating_add(1);
        self.keys.push(key);
    }

    pub(super) fn pop(&mut self) {
        let Some(key) = self.keys.pop() else { return };
        if let Some(count) = self.counts.get_mut(&key) {
            *count -= 1;
            if *count == 0 {
                self.counts.remove(&key);
            }
        }
    }

    /// Cuts the line back to its first `len` keys.
    pub(super) fn truncate(&mut self, len: usize) {
        while self.keys.len() > len {
            self.pop();
        }
    }

    /// How many keys of the line are `key`.
    #[must_use]
    pub(super) fn count(&self, key: u64) -> usize {
        self.counts.get(&key).map_or(0, |&n| n as usize)
    }
}

/// A position's hash with the counters and the player to move that `repetitions ignore`
/// names taken out (`to_move` is the player to move in the position `hash` describes): the key
/// under which a history keeps the position.
pub(super) fn history_key(
    program: &Program,
    zobrist: &Zobrist,
    hash: u64,
    counters: &[i32],
    to_move: u8,
) -> u64 {
    let ignores = &program.history_ignores;
    let mut key = hash;
    for &slot in &ignores.slots {
        let slot = usize::from(slot);
        key ^= zobrist.counter(slot, counters.get(slot).copied().unwrap_or(0));
    }
    if ignores.mover {
        key ^= zobrist.mover(to_move);
    }
    key
}

/// `repetitions` against a game's `history` of keys ([`history_key`]), `mover` to move:
/// how many times the position `hash` (with `counters`, the mover still to move) stands
/// with the opponent to move, counting this time.
pub(super) fn repetitions(
    program: &Program,
    zobrist: &Zobrist,
    history: &Line,
    mover: u8,
    hash: u64,
    counters: &[i32],
) -> i32 {
    let next = hash ^ zobrist.mover(mover) ^ zobrist.mover(1 - mover);
    let key = history_key(program, zobrist, next, counters, 1 - mover);
    let earlier = history.count(key);
    i32::try_from(earlier + 1).unwrap_or(i32::MAX)
}

impl<'p> Engine<'p> {
    /// A copy of this engine that borrows `program` for its own lifetime: a position copied
    /// without replaying its moves, for an owner that holds the program itself (a Python state).
    /// `None` unless `program` is the very program this engine runs.
    #[must_use]
    pub fn for_program<'q>(&self, program: &'q Program) -> Option<Engine<'q>> {
        if !std::ptr::eq(self.program, program) {
            return None;
        }
        let copy = self.clone();
        Some(Engine {
            program,
            state: copy.state,
            zobrist: copy.zobrist,
            trail: copy.trail,
            compiled: copy.compiled,
            seen: copy.seen,
            filters: copy.filters,
            seen_start: copy.seen_start,
            memo: copy.memo,
            spare_memo: copy.spare_memo,
            again: copy.again,
            chance: copy.chance,
            locals: copy.locals,
            words: copy.words,
            shortcuts: copy.shortcuts,
            wide_picks: copy.wide_picks,
            overflowed: copy.overflowed,
            runaway: copy.runaway,
            exhausted: copy.exhausted,
            step_limit: copy.step_limit,
            alarm: copy.alarm,
            logging: copy.logging,
            saved: copy.saved,
            history: copy.history,
            lifted: copy.lifted,
        })
    }

    /// The start position: an empty board, then the setup program. Every move is generated by
    /// the interpreter; [`Engine::with_backend`] chooses another generator.
    #[must_use]
    pub fn new(program: &'p Program) -> Engine<'p> {
        Engine::with_backend(program, Backend::Interpreter)
    }

    /// The start position, with moves generated by `backend` (compiled code only ever comes
    /// from [`Compiled::backend_for`](super::compiled::Compiled::backend_for), which checks
    /// that it was generated from this program).
    #[must_use]
    pub fn with_backend(program: &'p Program, backend: Backend) -> Engine<'p> {
        let zobrist = Zobrist::new(program);
        let state = State::empty(program, &zobrist);
        let mut engine = Engine {
            program,
            zobrist,
            state,
            trail: Vec::with_capacity(256),
            compiled: None,
            seen: vec![Vec::new(); program.distinct_blocks],
            filters: vec![[0; FILTER_WORDS]; program.distinct_blocks],
            seen_start: vec![0; program.distinct_blocks],
            memo: vec![KeySet::default(); program.distinct_blocks],
            spare_memo: Vec::new(),
            again: false,
            chance: false,
            overflowed: false,
            runaway: false,
            exhausted: false,
            step_limit: MAX_STEPS,
            alarm: None,
            locals: [CellSet::EMPTY; MAX_SET_LOCALS],
            words: words_for(program.board.len()),
            shortcuts: (0..program.sets.len())
                .map(|s| Shortcut::of(program, s as SetId))
                .collect(),
            wide_picks: program.wide_picks(),
            logging: true,
            saved: None,
            history: History {
                kept: program.uses_history(),
                ..History::default()
            },
            lifted: vec![0; program.board.len()],
        };
        let mut walk = Walk::replay(Move::default(), false);
        engine.run::<false>(&program.setup, &mut walk);
        engine.trail.clear();
        engine.note_position();
        if let Backend::Compiled(turn) = backend {
            engine.compiled = Some(turn);
        }
        engine
    }

    /// Which generator lists this engine's moves.
    #[must_use]
    pub fn backend(&self) -> BackendKind {
        if self.compiled.is_some() {
            BackendKind::Compiled
        } else {
            BackendKind::Interpreter
        }
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
    ///
    /// A generation that needs more than [`Engine::step_limit`] steps stops, lists nothing and
    /// sets [`Engine::exhausted`]; an exhausted engine lists nothing at all.
    pub fn legal_moves(&mut self, out: &mut Vec<Move>) {
        out.clear();
        if self.state.result.is_some() || self.is_exhausted() {
            return;
        }
        let mark = self.trail.len();
        if let Some(compiled) = self.compiled {
            let mut gen = Gen::new(out, self.step_limit);
            (compiled.generate)(self, &mut gen);
            self.overflowed |= gen.overflow;
            self.chance = gen.chance;
            self.rollback(mark);
            self.note_exhausted(gen.steps_left, out);
            return;
        }
        let mut walk = Walk {
            out: Some(out),
            current: Move::default(),
            read: 0,
            text: None,
            leaves: 0,
            overflow: false,
            steps_left: self.step_limit,
            chance: false,
            rolled: Vec::new(),
            parts: Vec::new(),
            voice: 0,
            chooser: None,
            refusals: None,
            refused_by: Vec::new(),
            failures: 0,
            named: Vec::new(),
        };
        let program = self.program;
        self.run::<true>(&program.turn, &mut walk);
        self.overflowed |= walk.overflow;
        self.chance = walk.chance;
        self.rollback(mark);
        self.note_exhausted(walk.steps_left, out);
    }

    /// After a generation: one that ran out of steps lists nothing and exhausts the engine.
    fn note_exhausted(&mut self, steps_left: u64, out: &mut Vec<Move>) {
        if steps_left == 0 {
            self.mark_exhausted();
            out.clear();
        }
    }

    /// Notes that a generation ran out of steps, here and in every engine sharing the alarm.
    pub(super) fn mark_exhausted(&mut self) {
        self.exhausted = true;
        if let Some(alarm) = &self.alarm {
            alarm.store(true, Ordering::Relaxed);
        }
    }

    /// Whether this engine, or one sharing its alarm, ran out of generation steps.
    fn is_exhausted(&mut self) -> bool {
        if !self.exhausted
            && self
                .alarm
                .as_ref()
                .is_some_and(|a| a.load(Ordering::Relaxed))
        {
            self.exhausted = true;
        }
        self.exhausted
    }

    /// Shares `alarm` with this engine (and its clones): raised when one of them runs out of
    /// generation steps, after which all of them list no moves.
    pub fn share_alarm(&mut self, alarm: Arc<AtomicBool>) {
        self.alarm = Some(alarm);
    }

    /// The most steps (choices tried, moves completed) one position's move generation may take
    /// before it stops with E1008: [`MAX_STEPS`] unless set lower.
    #[must_use]
    pub fn step_limit(&self) -> u64 {
        self.step_limit
    }

    /// Bounds one position's move generation at `steps` (at least 1): for callers that want a
    /// runaway turn program found sooner than [`MAX_STEPS`] allows.
    pub fn set_step_limit(&mut self, steps: u64) {
        self.step_limit = steps.max(1);
    }

    /// The moves that exactly one `require` refuses in this position, each with its notation
    /// and that `require`: what explains why a move someone typed is not legal. The walk goes
    /// on past the first failed `require` of each way through the turn, as a replay does, and
    /// stops at a second; at most [`MAX_REFUSALS`] moves, within the engine's step limit.
    /// Always walks the interpreter (generated code keeps no record of which `require`
    /// failed).
    pub fn refusals(&mut self) -> Vec<Refusal> {
        self.refusals_naming(&[])
    }

    /// [`Engine::refusals`], going on past up to [`MAX_FAILURES`] failures on each way when
    /// `named` lists cells: after the first failure, a `pick` is followed past only on these
    /// cells (those a typed move names), so the walk stays about as small. Each refusal lists
    /// every failure of its way.
    pub fn refusals_naming(&mut self, named: &[usize]) -> Vec<Refusal> {
        if self.state.result.is_some() {
            return Vec::new();
        }
        let mark = self.trail.len();
        let mut walk = Walk::replay(Move::default(), false);
        walk.refusals = Some(Vec::new());
        walk.named = named
            .iter()
            .filter_map(|&c| u16::try_from(c).ok())
            .collect();
        // Bounded as a generation is; out of steps, the refusals found so far are all.
        walk.steps_left = self.step_limit;
        let program = self.program;
        self.run::<true>(&program.turn, &mut walk);
        self.rollback(mark);
        let refused = walk.refusals.unwrap_or_default();
        refused
            .into_iter()
            .map(|(decisions, by, failures)| Refusal {
                text: self.move_text(&decisions),
                decisions,
                failures,
                by,
            })
            .collect()
    }

    /// Whether the moves [`Engine::legal_moves`] last listed are chance moves (the turn
    /// program rolled): a random outcome, not a player's decision.
    #[must_use]
    pub fn chance(&self) -> bool {
        self.chance
    }

    /// The values a chance move rolls, in program order.
    pub fn rolled_values(&mut self, m: &Move) -> Vec<i32> {
        let mark = self.trail.len();
        let mut walk = Walk::replay(*m, false);
        let program = self.program;
        self.run::<false>(&program.turn, &mut walk);
        self.rollback(mark);
        walk.rolled
    }

    /// Plays a move taken from [`Engine::legal_moves`] of this position.
    pub fn apply(&mut self, m: &Move) -> Undo {
        let undo = Undo {
            trail: u32::try_from(self.trail.len()).unwrap_or(u32::MAX),
            mover: self.state.mover,
            ply: self.state.ply,
        };
        self.again = false;
        if let Some(compiled) = self.compiled {
            (compiled.apply)(self, m);
        } else {
            let mut walk = Walk::replay(*m, false);
            let program = self.program;
            self.run::<false>(&program.turn, &mut walk);
        }
        self.end_turn();
        self.note_position();
        undo
    }

    /// Adds the position to the history, when the program reads it.
    #[inline]
    fn note_position(&mut self) {
        if self.history.kept {
            self.history.push(self.position_key());
        }
    }

    /// The key under which the history keeps the current position: its hash, without what
    /// `repetitions ignore` names.
    #[must_use]
    pub fn position_key(&self) -> u64 {
        self.history_key(self.state.hash, &self.state.counters, self.state.mover)
    }

    fn history_key(&self, hash: u64, counters: &[i32], to_move: u8) -> u64 {
        history_key(self.program, &self.zobrist, hash, counters, to_move)
    }

    /// How many times the position the turn has made so far, with the opponent to move, has
    /// stood in this game, counting this time: `hash` is the position's hash with the mover
    /// still to move (`repetitions`; the checker refuses it in turns that may keep the mover
    /// with `again`). Called by the interpreter and by generated code.
    #[doc(hidden)]
    #[must_use]
    pub fn rt_repetitions(&self, hash: u64, counters: &[i32]) -> i32 {
        repetitions(
            self.program,
            &self.zobrist,
            &self.history.hashes,
            self.state.mover,
            hash,
            counters,
        )
    }

    /// The game line's keys with their counts, as `repetitions` reads them.
    pub(super) fn history_line(&self) -> &Line {
        &self.history.hashes
    }

    /// The keys ([`Engine::position_key`]) of the positions of the game so far, the current one
    /// last (empty when the rules do not read the history).
    #[must_use]
    pub fn history(&self) -> &[u64] {
        self.history.hashes.keys()
    }

    /// The history's keys, lent to a run on the position value ([`Fast`]), which pushes a key
    /// per move it plays and pops it when it takes the move back; `None` (and nothing lent)
    /// when the rules do not read the history. Give them back with [`Engine::return_history`].
    ///
    /// [`Fast`]: super::compiled::Fast
    pub(super) fn lend_history(&mut self) -> Option<Line> {
        self.history
            .kept
            .then(|| std::mem::take(&mut self.history.hashes))
    }

    /// Takes back the keys [`Engine::lend_history`] lent, the first `start` of them the
    /// engine's line as it was lent. `played`: the engine now holds the run's end position
    /// (stored after [`Engine::save`], which saw the history lent), and keeps the keys of the
    /// moves that led there as [`Engine::play_unlogged`] would have, until
    /// [`Engine::restore`] cuts them; else those are dropped now.
    pub(super) fn return_history(&mut self, mut hashes: Line, start: usize, played: bool) {
        if played {
            self.history.saved = start;
        } else {
            hashes.truncate(start);
        }
        self.history.hashes = hashes;
    }

    /// Keeps the position, for [`Engine::restore`]: a random playout plays its moves with
    /// [`Engine::play_unlogged`] and then restores the start in one copy instead of taking
    /// every move back.
    pub fn save(&mut self) {
        match &mut self.saved {
            Some(s) => s.as_mut().clone_from(&self.state),
            None => self.saved = Some(Box::new(self.state.clone())),
        }
        self.history.saved = self.history.hashes.len();
    }

    /// Returns to the position [`Engine::save`] kept (unchanged when nothing was saved).
    pub fn restore(&mut self) {
        if let Some(s) = &self.saved {
            self.state.clone_from(s);
            let saved = self.history.saved;
            self.history.hashes.truncate(saved);
        }
    }

    /// Plays a move without logging its changes: it cannot be taken back, only undone by
    /// [`Engine::restore`].
    pub fn play_unlogged(&mut self, m: &Move) {
        self.logging = false;
        let _ = self.apply(m);
        self.logging = true;
    }

    /// The position and the hash keys, apart (the compiled backend writes a position back).
    pub(super) fn state_and_zobrist(&mut self) -> (&mut State, &Zobrist) {
        (&mut self.state, &self.zobrist)
    }

    /// Ends a run of `plies` moves played elsewhere (on the compiled position value, whose
    /// cells and counters are already stored): the player to move and the result, unlogged.
    pub(super) fn finish_unlogged(&mut self, mover: u8, result: Option<GameResult>, plies: u32) {
        self.state.set_mover(&self.zobrist, mover);
        self.state.result = result;
        self.state.ply += plies;
    }

    /// The compiled whole-search runs for this program, if it has them.
    pub(super) fn fast_runs(&self) -> Option<super::compiled::FastRuns> {
        // Runs on the position value borrow the history (`lend_history`).
        self.compiled.and_then(|c| c.fast)
    }

    /// Takes back the move that returned `undo`.
    pub fn undo(&mut self, undo: Undo) {
        self.rollback(undo.trail as usize);
        self.state.set_mover(&self.zobrist, undo.mover);
        self.state.ply = undo.ply;
        if self.history.kept {
            self.history.pop();
        }
    }

    fn end_turn(&mut self) {
        if self.state.result.is_none() && !std::mem::take(&mut self.again) {
            let next = 1 - self.state.mover;
            self.state.set_mover(&self.zobrist, next);
        }
        self.state.ply += 1;
    }

    /// The notation of a legal move in parts, each with the player whose choices it spells: the
    /// mover's, and a part for each `pick ... by p` (up to the mover's next choice).
    #[must_use]
    pub fn move_parts(&mut self, m: &Move) -> Vec<(u8, String)> {
        let mark = self.trail.len();
        let mut walk = Walk::replay(*m, true);
        walk.voice = self.state.mover;
        let program = self.program;
        self.run::<false>(&program.turn, &mut walk);
        self.rollback(mark);
        walk.parts
            .into_iter()
            .map(|(who, text)| (who, text.trim().to_string()))
            .filter(|(_, text)| !text.is_empty())
            .collect()
    }

    /// The notation of a legal move of this position.
    #[must_use]
    pub fn move_text(&mut self, m: &Move) -> String {
        let mark = self.trail.len();
        let mut walk = Walk::replay(*m, true);
        let program = self.program;
        self.run::<false>(&program.turn, &mut walk);
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

    /// The cells of each `marker`, in this position.
    #[must_use]
    pub fn markers(&self) -> Vec<(String, CellSet)> {
        self.program
            .markers
            .iter()
            .map(|m| {
                let cells = at_width!(
                    self.words,
                    self.eval_set::<W>(m.set, &NO_VARS, self.all::<W>(), 0)
                        .to_set()
                );
                (m.text.clone(), cells)
            })
            .collect()
    }

    /// The `status` lines whose conditions hold in this position.
    #[must_use]
    pub fn status_lines(&self) -> Vec<String> {
        self.program
            .status
            .iter()
            .filter(|(_, when)| {
                when.is_none_or(|c| at_width!(self.words, self.eval_bool::<W>(c, &NO_VARS, 0)))
            })
            .map(|(t, _)| at_width!(self.words, self.render::<W>(*t, &NO_VARS)))
            .collect()
    }

    /// Each player's score (`score p = ...`), once the game is over; `None` while it runs or
    /// when the game declares no score.
    pub fn scores(&mut self) -> Option<[i32; 2]> {
        let ids = self.program.score?;
        let result = self.outcome()?;
        let mark = self.trail.len();
        if self.state.result.is_none() {
            self.finish(result);
        }
        let scores = ids.map(|id| at_width!(self.words, self.eval_int::<W>(id, &NO_VARS, 0)));
        self.rollback(mark);
        Some(scores)
    }

    /// Each player's value of the game's `heuristic p = ...` in this position; `None` when the
    /// game declares no heuristic. Evaluated by the interpreter whatever the backend.
    #[must_use]
    pub fn heuristic(&self) -> Option<[i32; 2]> {
        let ids = self.program.heuristic?;
        Some(ids.map(|id| at_width!(self.words, self.eval_int::<W>(id, &NO_VARS, 0))))
    }

    /// The result when the player to move has no legal move, from `on no moves`.
    pub fn stuck_result(&mut self) -> GameResult {
        let mark = self.trail.len();
        let mut walk = Walk::replay(Move::default(), false);
        let program = self.program;
        self.run::<false>(&program.no_moves, &mut walk);
        let r = self.state.result.unwrap_or(GameResult::Draw);
        self.rollback(mark);
        r
    }

    /// Marks the game as ended with `result`, on the trail so that undo clears it.
    pub(super) fn finish(&mut self, result: GameResult) {
        if self.logging {
            self.trail.push(Change::Result(self.state.result));
        }
        self.state.result = Some(result);
    }

    /// Takes back the trail's changes above `mark` (most calls find none: compiled move
    /// generation and unlogged play leave no trail).
    #[inline]
    fn rollback(&mut self, mark: usize) {
        if self.trail.len() > mark {
            self.rollback_changes(mark);
        }
    }

    fn rollback_changes(&mut self, mark: usize) {
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
    pub(super) fn set_cell(&mut self, cell: usize, code: u8) {
        if self.logging {
            self.trail.push(Change::Cell {
                cell: u16::try_from(cell).unwrap_or(u16::MAX),
                old: self.state.board[cell],
            });
        }
        self.state.set_cell(&self.zobrist, cell, code);
    }

    /// `shift`: every piece on `cells` moves at once to its cell's next cell along the
    /// relation's first ray (which lowering made one-to-one), leaving the board where there
    /// is none. All are lifted first, so a piece never lands on one not yet moved.
    fn shift<const W: usize>(&mut self, cells: CellBits<W>, relation: u16) {
        let program = self.program;
        let Some(ray) = program
            .relations
            .get(usize::from(relation))
            .and_then(|r| r.rays.first())
        else {
            return;
        };
        for c in cells.iter() {
            let code = self.state.board[c];
            self.lifted[c] = code;
            if code != 0 {
                self.set_cell(c, 0);
            }
        }
        for c in cells.iter() {
            let code = self.lifted[c];
            let to = ray.next[c];
            if code != 0 && to != NO_CELL {
                self.set_cell(usize::from(to), code);
            }
        }
    }

    #[inline]
    pub(super) fn set_counter(&mut self, slot: usize, value: i32) {
        if self.logging {
            self.trail.push(Change::Counter {
                slot: u16::try_from(slot).unwrap_or(u16::MAX),
                old: self.state.counters[slot],
            });
        }
        self.state.set_counter(&self.zobrist, slot, value);
    }

    // ---- the interpreter --------------------------------------------------------------------

    /// Runs `code` from its start with no variables, in the engine's set width.
    fn run<const GEN: bool>(&mut self, code: &Code, walk: &mut Walk) {
        at_width!(self.words, self.exec::<GEN, W>(code, 0, NO_VARS, walk));
    }

    /// The cells of `through` reached from `start` by steps of `relation` inside `through`,
    /// grown one ring at a time (`group`, `connected`); with `stop`, growing ends as soon as
    /// the region meets it.
    fn grow<const W: usize>(
        &self,
        relation: u16,
        start: CellBits<W>,
        through: CellBits<W>,
        stop: Option<CellBits<W>>,
    ) -> CellBits<W> {
        let masks = self.program.relations[usize::from(relation)].masks_for(self.state.mover);
        let mut reached = start;
        let mut frontier = reached;
        while !frontier.is_empty() && !stop.is_some_and(|s| frontier.intersects(&s)) {
            let mut ring = CellBits::<W>::EMPTY;
            for c in frontier.iter() {
                ring |= masks[c].resized::<W>();
            }
            frontier = (ring & through) - reached;
            reached |= frontier;
        }
        reached
    }

    /// The board's cells, in sets of `W` words.
    #[inline]
    fn all<const W: usize>(&self) -> CellBits<W> {
        self.program.board.all.resized()
    }

    /// Runs `code` from `pc`. In generating mode (`GEN`) every choice point tries each option
    /// and backtracks; otherwise options are read from the walk's move. Each op's work is a
    /// method of its own (`op_*`), which says where the walk goes on ([`Next`]).
    fn exec<const GEN: bool, const W: usize>(
        &mut self,
        code: &Code,
        mut pc: usize,
        mut vars: Vars,
        walk: &mut Walk,
    ) {
        if GEN && walk.out_of_steps() {
            return;
        }
        loop {
            if GEN {
                pc = code.busy[pc] as usize;
            }
            if GEN && code.decided[pc] {
                self.leaf::<GEN>(walk);
                return;
            }
            let next = match &code.ops[pc] {
                op @ Op::Place { .. } => self.op_place::<GEN, W>(code, pc, op, &mut vars, walk),
                Op::PickDir { var, relation } => {
                    self.op_pick_dir::<GEN, W>(code, pc, *var, *relation, &mut vars, walk)
                }
                Op::Pick { var, from } => {
                    self.op_pick::<GEN, W>(code, pc, *var, *from, &mut vars, walk)
                }
                Op::Let { slot, set, replay } => {
                    self.op_let::<GEN, W>(code, pc, (*slot, *set, *replay), &vars, walk)
                }
                Op::Put {
                    code_base,
                    owner,
                    at,
                } => self.op_put::<W>(pc, *code_base, *owner, *at, &vars),
                Op::PutAll {
                    code_base,
                    owner,
                    at,
                } => self.op_put_all::<W>(pc, *code_base, *owner, *at, &vars),
                Op::RemoveAll { at } => self.op_remove_all::<W>(pc, *at, &vars),
                Op::Remove { at } => {
                    let cell = self.cell(*at, &vars, 0);
                    self.set_cell(cell, 0);
                    Some(pc + 1)
                }
                Op::Shift { at, relation } => {
                    let cells = self.eval_set::<W>(*at, &vars, self.all::<W>(), 0);
                    self.shift(cells, *relation);
                    Some(pc + 1)
                }
                Op::Move { from, to } => self.op_move(pc, *from, *to, &vars),
                Op::Require(cond) => self.op_require::<GEN, W>(code, pc, *cond, &vars, walk),
                Op::Unless { cond, target } => Some(if self.eval_bool::<W>(*cond, &vars, 0) {
                    pc + 1
                } else {
                    *target as usize
                }),
                Op::Jump(target) => Some(*target as usize),
                Op::Either(branches) => self.op_either::<GEN, W>(code, branches, &vars, walk),
                Op::First(branches) => self.op_first::<GEN, W>(code, branches, &vars, walk),
                Op::RepeatStart { var } => {
                    vars.cells[usize::from(*var)] = 0;
                    Some(pc + 1)
                }
                Op::RepeatCheck {
                    var,
                    min,
                    max,
                    exit,
                } => {
                    let bounds = ops::repeat_bounds(vars.cells[usize::from(*var)], *min, *max);
                    self.op_repeat_check::<GEN, W>(code, pc, bounds, *exit as usize, &vars, walk)
                }
                Op::RepeatNext { var, check } => {
                    if GEN && (walk.out_of_steps() || walk.past_path_rounds(&mut vars)) {
                        return;
                    }
                    vars.cells[usize::from(*var)] += 1;
                    Some(*check as usize)
                }
                Op::DistinctStart { block } => {
                    self.op_distinct_start::<GEN, W>(code, pc, *block, &vars, walk)
                }
                Op::DistinctEnd { block } => {
                    (!GEN || self.distinct_first(*block, self.state.hash)).then_some(pc + 1)
                }
                Op::Memo { block } => {
                    (!GEN || self.memo_first::<W>(*block, pc, &vars)).then_some(pc + 1)
                }
                Op::Roll { slot, lo, count } => {
                    self.op_roll::<GEN, W>(code, pc, (*slot, *lo, *count), &vars, walk)
                }
                Op::Again => {
                    self.again = true;
                    Some(pc + 1)
                }
                Op::AssignAll {
                    base,
                    cells,
                    op,
                    value,
                } => self.op_assign_all::<W>(pc, (*base, *cells), *op, *value, &vars),
                Op::SetVar { var, set } => self.op_set_var::<W>(pc, *var, *set, &mut vars),
                Op::SetDir { var, relation, dir } => {
                    self.op_set_dir::<W>(pc, *var, *relation, dir, &mut vars)
                }
                Op::WhileCheck { var, cond, exit } => {
                    if GEN && walk.out_of_steps() {
                        return;
                    }
                    let next =
                        self.op_while_check::<W>(pc, (*var, *cond), *exit as usize, &mut vars);
                    if GEN && next == Some(pc + 1) && walk.past_path_rounds(&mut vars) {
                        return;
                    }
                    next
                }
                Op::Write(t) => {
                    self.op_write::<W>(*t, &vars, walk);
                    Some(pc + 1)
                }
                Op::Chooser(p) => {
                    if walk.text.is_some() {
                        walk.chooser = Some(self.player(*p, &vars, 0));
                    }
                    Some(pc + 1)
                }
                Op::Assign { slot, op, value } => {
                    self.op_assign::<W>(pc, *slot, *op, *value, &vars)
                }
                Op::Finish(f) => {
                    self.op_finish::<GEN>(f, &vars, walk);
                    None
                }
                Op::Done => {
                    self.leaf::<GEN>(walk);
                    None
                }
            };
            match next {
                Some(n) => pc = n,
                None => return,
            }
        }
    }

    /// Tries each option of a choice: `take` records option `i`'s decision in the move (false
    /// when the move is full) and prepares the walk, which then runs from `start(i)`; the
    /// position is restored after each. `stop` ends the options early (`first`).
    #[inline(always)]
    fn try_options<const W: usize>(
        &mut self,
        code: &Code,
        options: usize,
        walk: &mut Walk,
        mut step: impl FnMut(&mut Self, usize, &mut Walk) -> Option<(usize, Vars)>,
        stop: impl Fn(&Walk, u64) -> bool,
    ) {
        let mark = self.trail.len();
        let len = walk.current.len();
        for i in 0..options {
            let before = walk.leaves;
            if let Some((start, vars)) = step(self, i, walk) {
                self.exec::<true, W>(code, start, vars, walk);
            }
            walk.current.truncate(len);
            self.rollback(mark);
            if stop(walk, before) {
                break;
            }
        }
    }

    /// `place`: replaying reads the instance's index (two decisions); generating tries every
    /// copy of every shape in the player's stock that rests on `feet` below `max`.
    #[inline(always)]
    fn op_place<const GEN: bool, const W: usize>(
        &mut self,
        code: &Code,
        pc: usize,
        op: &Op,
        vars: &mut Vars,
        walk: &mut Walk,
    ) -> Next {
        let Op::Place {
            slot,
            anchor,
            table,
            player,
            layer,
            max,
            feet,
        } = *op
        else {
            return None;
        };
        let who = self.acting(player, vars)?;
        let table = &self.program.placements[usize::from(table)];
        let (layer, slot, anchor) = (usize::from(layer), usize::from(slot), usize::from(anchor));
        if !GEN {
            let hi = walk.next();
            let index = ops::two_decisions(hi, walk.next());
            let inst = table.instances.get(usize::from(index))?;
            let z = ops::settle(table.parts_of(inst), &self.state.counters, layer);
            self.place_copy(table, inst, layer, z, who);
            walk.voice = self.state.mover;
            vars.placed[slot] = index;
            vars.cells[anchor] = inst.anchor;
            return Some(pc + 1);
        }
        let max = self.eval_int::<W>(max, vars, 0);
        let feet = match feet {
            Some(s) => self.eval_set::<W>(s, vars, self.all::<W>(), 0),
            None => self.all::<W>(),
        };
        let mark = self.trail.len();
        let len = walk.current.len();
        for (s, shape) in self.program.shapes.iter().enumerate() {
            if !ops::has_stock(&self.state.counters, shape, who) {
                continue;
            }
            let (first, end) = table.by_shape[s];
            for index in first..end {
                let inst = &table.instances[index as usize];
                let parts = table.parts_of(inst);
                let z = ops::settle(parts, &self.state.counters, layer);
                if !ops::rests_on(inst, parts, &self.state.counters, layer, z, max, &feet) {
                    continue;
                }
                let [hi, lo] = u16::try_from(index).unwrap_or(u16::MAX).to_be_bytes();
                if walk.current.push(hi) && walk.current.push(lo) {
                    self.place_copy(table, inst, layer, z, who);
                    let mut v = *vars;
                    v.placed[slot] = u16::try_from(index).unwrap_or(u16::MAX);
                    v.cells[anchor] = inst.anchor;
                    self.exec::<true, W>(code, pc + 1, v, walk);
                    self.rollback(mark);
                } else {
                    walk.overflow = true;
                }
                walk.current.truncate(len);
            }
        }
        None
    }

    /// `pick` of a direction: each ray of the relation the mover has.
    #[inline(always)]
    fn op_pick_dir<const GEN: bool, const W: usize>(
        &mut self,
        code: &Code,
        pc: usize,
        var: u8,
        relation: u16,
        vars: &mut Vars,
        walk: &mut Walk,
    ) -> Next {
        if !GEN {
            vars.cells[usize::from(var)] = u16::from(walk.next());
            walk.voice = walk.chooser.take().unwrap_or(self.state.mover);
            return Some(pc + 1);
        }
        let rel = &self.program.relations[usize::from(relation)];
        let vars = *vars;
        self.try_options::<W>(
            code,
            rel.rays.len(),
            walk,
            |e, i, walk| {
                if !rel.has_ray_for(i, e.state.mover) {
                    return None;
                }
                let d = u8::try_from(i).unwrap_or(NO_DIR);
                let mut v = vars;
                v.cells[usize::from(var)] = u16::from(d);
                if walk.current.push(d) {
                    return Some((pc + 1, v));
                }
                walk.overflow = true;
                None
            },
            |_, _| false,
        );
        None
    }

    /// `pick` of a cell: each cell of the set, in order (listed at once when the pick decides
    /// the move).
    #[inline(always)]
    fn op_pick<const GEN: bool, const W: usize>(
        &mut self,
        code: &Code,
        pc: usize,
        var: u8,
        from: SetId,
        vars: &mut Vars,
        walk: &mut Walk,
    ) -> Next {
        if !GEN {
            vars.cells[usize::from(var)] = walk.next_cell(self.wide_picks);
            walk.voice = walk.chooser.take().unwrap_or(self.state.mover);
            return Some(pc + 1);
        }
        let set = self.eval_set::<W>(from, vars, self.all::<W>(), 0);
        if walk.refusals.is_some() && walk.may_fail() {
            self.pick_refusals::<W>(code, pc, (var, from), set, vars, walk);
        }
        let len = walk.current.len();
        if code.decided[pc + 1] {
            // Each candidate completes a move at once: no need to run the rest.
            for c in set.iter() {
                if walk.out_of_steps() {
                    return None;
                }
                if walk.push_cell(c, self.wide_picks) {
                    self.leaf::<true>(walk);
                } else {
                    walk.overflow = true;
                }
                walk.current.truncate(len);
            }
            return None;
        }
        let mark = self.trail.len();
        for c in set.iter() {
            let mut v = *vars;
            v.cells[usize::from(var)] = c as u16;
            if walk.push_cell(c, self.wide_picks) {
                self.exec::<true, W>(code, pc + 1, v, walk);
            } else {
                walk.overflow = true;
            }
            walk.current.truncate(len);
            self.rollback(mark);
        }
        None
    }

    /// Generating for [`Engine::refusals`]: the ways through the turn with each cell the
    /// `pick` leaves out, each refused by that `pick` (a later failure ends the way).
    fn pick_refusals<const W: usize>(
        &mut self,
        code: &Code,
        pc: usize,
        (var, from): (u8, SetId),
        set: CellBits<W>,
        vars: &Vars,
        walk: &mut Walk,
    ) {
        let len = walk.current.len();
        let mark = self.trail.len();
        let (before, failures) = (walk.refused_by.len(), walk.failures);
        for c in (self.all::<W>() - set).iter() {
            let full = walk
                .refusals
                .as_ref()
                .is_none_or(|r| r.len() >= MAX_REFUSALS);
            if full || walk.out_of_steps() {
                break;
            }
            let cell = c as u16;
            if failures > 0 && !walk.named.contains(&cell) {
                continue;
            }
            let mut parts = Vec::new();
            self.excluding_parts::<W>(from, c, vars, &mut parts);
            walk.refused_by.truncate(before);
            walk.refused_by
                .extend(parts.into_iter().map(|(part, inside)| RefusedBy::Pick {
                    set: from,
                    cell,
                    part,
                    inside,
                }));
            walk.failures = failures + 1;
            let mut v = *vars;
            v.cells[usize::from(var)] = cell;
            if walk.push_cell(c, self.wide_picks) {
                if code.decided[pc + 1] {
                    self.leaf::<true>(walk);
                } else {
                    self.exec::<true, W>(code, pc + 1, v, walk);
                }
            }
            walk.current.truncate(len);
            self.rollback(mark);
        }
        walk.refused_by.truncate(before);
        walk.failures = failures;
    }

    /// Every innermost operand of an `&`, a `-` or a `where` of set `id` that leaves `cell`
    /// out (both sides of an `&` when neither has it; a `where`'s base and its condition when
    /// both fail), each with whether the cell is in it (the right side of a `-`): what `why`
    /// names.
    fn excluding_parts<const W: usize>(
        &self,
        id: SetId,
        cell: usize,
        vars: &Vars,
        out: &mut Vec<(SetId, bool)>,
    ) {
        let has = |s: SetId| {
            self.eval_set::<W>(s, vars, self.all::<W>(), 0)
                .contains(cell)
        };
        let candidate = u16::try_from(cell).unwrap_or(u16::MAX);
        match self.program.sets[usize::from(id)] {
            SetExpr::Inter(a, b) => {
                for side in [a, b] {
                    if !has(side) {
                        self.excluding_parts::<W>(side, cell, vars, out);
                    }
                }
            }
            SetExpr::Diff(a, b) if has(a) => out.push((b, true)),
            SetExpr::Diff(base, _) => self.excluding_parts::<W>(base, cell, vars, out),
            SetExpr::Where { base, cond } | SetExpr::AxisRows { base, cond, .. } if !has(base) => {
                self.excluding_parts::<W>(base, cell, vars, out);
                if !self.eval_bool::<W>(cond, vars, candidate) {
                    out.push((id, false));
                }
            }
            SetExpr::AxisKey { base, .. } if !has(base) => {
                self.excluding_parts::<W>(base, cell, vars, out);
            }
            SetExpr::Local(slot) => {
                // The parts of the `let`'s own expression, when one `let` fills the slot and
                // it still leaves the cell out.
                let before = out.len();
                if let Some(set) = self.let_set(slot).filter(|&s| !has(s)) {
                    self.excluding_parts::<W>(set, cell, vars, out);
                }
                if out.len() == before {
                    out.push((id, false));
                }
            }
            _ => out.push((id, false)),
        }
    }

    /// The set of the one `let` of the turn that fills `slot`; `None` when several do.
    fn let_set(&self, slot: u8) -> Option<SetId> {
        let mut found = None;
        for op in &self.program.turn.ops {
            if let Op::Let { slot: s, set, .. } = op {
                if *s == slot {
                    if found.is_some() {
                        return None;
                    }
                    found = Some(*set);
                }
            }
        }
        found
    }

    /// `let`: generating keeps the set for the rest of the walk and restores the slot after;
    /// replaying computes it only when something replayed reads it.
    #[inline(always)]
    fn op_let<const GEN: bool, const W: usize>(
        &mut self,
        code: &Code,
        pc: usize,
        (slot, set, replay): (u8, SetId, bool),
        vars: &Vars,
        walk: &mut Walk,
    ) -> Next {
        if !GEN && !replay {
            return Some(pc + 1);
        }
        let value = self.eval_set::<W>(set, vars, self.all::<W>(), 0);
        let slot = usize::from(slot);
        if GEN {
            // Later ops of this walk read the value; restore it on the way back.
            let outer = self.locals[slot].resized::<W>();
            self.locals[slot].store(value);
            self.exec::<true, W>(code, pc + 1, *vars, walk);
            self.locals[slot].store(outer);
            return None;
        }
        self.locals[slot].store(value);
        Some(pc + 1)
    }

    #[inline(always)]
    fn op_put<const W: usize>(
        &mut self,
        pc: usize,
        code_base: u8,
        owner: PlayerRef,
        at: CellRef,
        vars: &Vars,
    ) -> Next {
        let owner = self.acting(owner, vars)?;
        let cell = self.cell(at, vars, 0);
        self.set_cell(cell, ops::piece_code(code_base, owner));
        Some(pc + 1)
    }

    #[inline(always)]
    fn op_put_all<const W: usize>(
        &mut self,
        pc: usize,
        code_base: u8,
        owner: PlayerRef,
        at: SetId,
        vars: &Vars,
    ) -> Next {
        let owner = self.acting(owner, vars)?;
        let code = ops::piece_code(code_base, owner);
        for cell in self.eval_set::<W>(at, vars, self.all::<W>(), 0).iter() {
            self.set_cell(cell, code);
        }
        Some(pc + 1)
    }

    #[inline(always)]
    fn op_remove_all<const W: usize>(&mut self, pc: usize, at: SetId, vars: &Vars) -> Next {
        for cell in self.eval_set::<W>(at, vars, self.all::<W>(), 0).iter() {
            self.set_cell(cell, 0);
        }
        Some(pc + 1)
    }

    #[inline(always)]
    fn op_move(&mut self, pc: usize, from: CellRef, to: CellRef, vars: &Vars) -> Next {
        let from = self.cell(from, vars, 0);
        let to = self.cell(to, vars, 0);
        let piece = self.state.board[from];
        for (cell, code) in ops::move_changes(from, to, piece).into_iter().flatten() {
            self.set_cell(cell, code);
        }
        Some(pc + 1)
    }

    /// `require`: a failed test ends the walk (generating for [`Engine::refusals`], the first
    /// failure on a way is noted and the walk goes on past it).
    #[inline(always)]
    fn op_require<const GEN: bool, const W: usize>(
        &mut self,
        code: &Code,
        pc: usize,
        cond: BoolId,
        vars: &Vars,
        walk: &mut Walk,
    ) -> Next {
        if !GEN || self.eval_bool::<W>(cond, vars, 0) {
            return Some(pc + 1);
        }
        if walk.may_fail()
            && walk
                .refusals
                .as_ref()
                .is_some_and(|r| r.len() < MAX_REFUSALS)
        {
            walk.refused_by.push(RefusedBy::Rule(cond));
            walk.failures += 1;
            self.exec::<true, W>(code, pc + 1, *vars, walk);
            walk.failures -= 1;
            walk.refused_by.pop();
        }
        None
    }

    /// `either`: every branch, each a decision.
    #[inline(always)]
    fn op_either<const GEN: bool, const W: usize>(
        &mut self,
        code: &Code,
        branches: &[u32],
        vars: &Vars,
        walk: &mut Walk,
    ) -> Next {
        if GEN {
            self.branches::<W>(code, branches, vars, walk, false);
            return None;
        }
        let i = usize::from(walk.next());
        walk.voice = self.state.mover;
        Some(branches.get(i).map_or(code.ops.len() - 1, |s| *s as usize))
    }

    /// `first`: the branches in order, up to the first that lists a move.
    #[inline(always)]
    fn op_first<const GEN: bool, const W: usize>(
        &mut self,
        code: &Code,
        branches: &[u32],
        vars: &Vars,
        walk: &mut Walk,
    ) -> Next {
        if GEN {
            self.branches::<W>(code, branches, vars, walk, true);
            return None;
        }
        let i = usize::from(walk.next());
        Some(branches.get(i).map_or(code.ops.len() - 1, |s| *s as usize))
    }

    /// Generates each branch as a decision; with `first`, stops after one that lists a move.
    #[inline(always)]
    fn branches<const W: usize>(
        &mut self,
        code: &Code,
        branches: &[u32],
        vars: &Vars,
        walk: &mut Walk,
        first: bool,
    ) {
        self.try_options::<W>(
            code,
            branches.len(),
            walk,
            |_, i, walk| {
                if walk.current.push(i as u8) {
                    return Some((branches[i] as usize, *vars));
                }
                walk.overflow = true;
                None
            },
            |walk, before| first && walk.leaves != before,
        );
    }

    /// `repeat`'s test: with `(can_stop, can_go)` both true a decision chooses whether to go
    /// on (0 stops), otherwise the bounds decide.
    #[inline(always)]
    fn op_repeat_check<const GEN: bool, const W: usize>(
        &mut self,
        code: &Code,
        pc: usize,
        bounds: (bool, bool),
        exit: usize,
        vars: &Vars,
        walk: &mut Walk,
    ) -> Next {
        match bounds {
            (true, true) => {
                if GEN {
                    self.try_options::<W>(
                        code,
                        2,
                        walk,
                        |_, d, walk| {
                            if walk.current.push(d as u8) {
                                return Some((if d == 0 { exit } else { pc + 1 }, *vars));
                            }
                            walk.overflow = true;
                            None
                        },
                        |_, _| false,
                    );
                    return None;
                }
                walk.voice = self.state.mover;
                Some(if walk.next() == 0 { exit } else { pc + 1 })
            }
            (true, false) => Some(exit),
            (false, _) => Some(pc + 1),
        }
    }

    /// `distinct`'s start: generating walks the block's ends apart from the enclosing walk's.
    #[inline(always)]
    fn op_distinct_start<const GEN: bool, const W: usize>(
        &mut self,
        code: &Code,
        pc: usize,
        block: u8,
        vars: &Vars,
        walk: &mut Walk,
    ) -> Next {
        if !GEN {
            return Some(pc + 1);
        }
        let outer = self.distinct_enter(block);
        self.exec::<true, W>(code, pc + 1, *vars, walk);
        self.distinct_leave(block, outer);
        None
    }

    /// `roll`: generating tries each value (a chance move); replaying reads it and notes it.
    #[inline(always)]
    fn op_roll<const GEN: bool, const W: usize>(
        &mut self,
        code: &Code,
        pc: usize,
        (slot, lo, count): (u16, i32, u16),
        vars: &Vars,
        walk: &mut Walk,
    ) -> Next {
        let slot = usize::from(slot);
        if GEN {
            walk.chance = true;
            self.try_options::<W>(
                code,
                usize::from(count),
                walk,
                |e, k, walk| {
                    let d = u8::try_from(k).unwrap_or(u8::MAX);
                    if walk.current.push(d) {
                        e.set_counter(
                            slot,
                            ops::roll_value(lo, u16::try_from(k).unwrap_or(u16::MAX)),
                        );
                        return Some((pc + 1, *vars));
                    }
                    walk.overflow = true;
                    None
                },
                |_, _| false,
            );
            return None;
        }
        let v = ops::roll_value(lo, u16::from(walk.next()));
        walk.rolled.push(v);
        self.set_counter(slot, v);
        Some(pc + 1)
    }

    #[inline(always)]
    fn op_assign_all<const W: usize>(
        &mut self,
        pc: usize,
        (base, cells): (u16, SetId),
        op: AssignKind,
        value: IntId,
        vars: &Vars,
    ) -> Next {
        let v = self.eval_int::<W>(value, vars, 0);
        for c in self.eval_set(cells, vars, self.all::<W>(), 0).iter() {
            let slot = usize::from(base) + c;
            self.set_counter(slot, op.apply(self.state.counters[slot], v));
        }
        Some(pc + 1)
    }

    /// A cell variable set to the one cell of a set (no cell, or several, end the walk).
    #[inline(always)]
    fn op_set_var<const W: usize>(
        &mut self,
        pc: usize,
        var: u8,
        set: SetId,
        vars: &mut Vars,
    ) -> Next {
        let s = self.eval_set::<W>(set, vars, self.all::<W>(), 0);
        let c = ops::only_cell(&s)?;
        vars.cells[usize::from(var)] = u16::try_from(c).unwrap_or(u16::MAX);
        Some(pc + 1)
    }

    #[inline(always)]
    fn op_set_dir<const W: usize>(
        &mut self,
        pc: usize,
        var: u8,
        relation: u16,
        dir: &DirExpr,
        vars: &mut Vars,
    ) -> Next {
        let rel = &self.program.relations[usize::from(relation)];
        let d = self.dir::<W>(rel, dir, vars, 0);
        if d == NO_DIR {
            return None;
        }
        vars.cells[usize::from(var)] = u16::from(d);
        Some(pc + 1)
    }

    /// `while`'s test: a round past 255 marks the walk runaway and ends it.
    #[inline(always)]
    fn op_while_check<const W: usize>(
        &mut self,
        pc: usize,
        (var, cond): (u8, BoolId),
        exit: usize,
        vars: &mut Vars,
    ) -> Next {
        if !self.eval_bool::<W>(cond, vars, 0) {
            return Some(exit);
        }
        let rounds = &mut vars.cells[usize::from(var)];
        if *rounds == u16::from(u8::MAX) {
            self.runaway = true;
            return None;
        }
        *rounds += 1;
        Some(pc + 1)
    }

    /// Text of the move's notation, in the part of the player whose choices it spells.
    #[inline(always)]
    fn op_write<const W: usize>(&self, t: u16, vars: &Vars, walk: &mut Walk) {
        if walk.text.is_some() {
            let s = self.render::<W>(t, vars);
            if let Some(text) = walk.text.as_mut() {
                text.push_str(&s);
            }
            match walk.parts.last_mut() {
                Some((who, part)) if *who == walk.voice => part.push_str(&s),
                _ => walk.parts.push((walk.voice, s)),
            }
        }
    }

    #[inline(always)]
    fn op_assign<const W: usize>(
        &mut self,
        pc: usize,
        slot: AssignSlot,
        op: AssignKind,
        value: IntId,
        vars: &Vars,
    ) -> Next {
        let slot = match slot {
            AssignSlot::Global(s) => usize::from(s),
            AssignSlot::PerPlayer { base, player } => {
                usize::from(base) + usize::from(self.acting(player, vars)?)
            }
            AssignSlot::PerCell { base, cell } => usize::from(base) + self.cell(cell, vars, 0),
        };
        let v = self.eval_int::<W>(value, vars, 0);
        self.set_counter(slot, op.apply(self.state.counters[slot], v));
        Some(pc + 1)
    }

    /// `win`, `lose` or `draw`: the result, and the move ends here.
    #[inline(always)]
    fn op_finish<const GEN: bool>(&mut self, f: &Finish, vars: &Vars, walk: &mut Walk) {
        let result = match f {
            Finish::Win(p) | Finish::Lose(p) => {
                let Some(who) = self.acting(*p, vars) else {
                    return;
                };
                ops::finish(matches!(f, Finish::Win(_)), who)
            }
            Finish::Draw => GameResult::Draw,
        };
        self.finish(result);
        self.leaf::<GEN>(walk);
    }

    /// Puts a copy down at base `z`: the layer rises to each cell's top and the copy leaves
    /// the player's stock.
    fn place_copy(
        &mut self,
        table: &rulestone_ir::Placements,
        inst: &Placement,
        layer: usize,
        z: i32,
        who: u8,
    ) {
        let shape = self.program.shapes.get(usize::from(inst.shape));
        let parts = table.parts_of(inst);
        for (slot, value) in
            ops::placement_changes(parts, shape, &self.state.counters, layer, z, who)
        {
            self.set_counter(slot, value);
        }
    }

    /// Starts a walk of a `distinct` block: its ends compete only with each other.
    pub(super) fn distinct_enter(&mut self, block: u8) -> DistinctOuter {
        let b = usize::from(block);
        let start = self.seen[b].len();
        DistinctOuter {
            filter: std::mem::replace(&mut self.filters[b], [0; FILTER_WORDS]),
            start: std::mem::replace(&mut self.seen_start[b], start),
            len: start,
            memo: std::mem::replace(&mut self.memo[b], self.spare_memo.pop().unwrap_or_default()),
        }
    }

    /// Ends the walk begun by [`Engine::distinct_enter`], restoring the enclosing walk's state.
    pub(super) fn distinct_leave(&mut self, block: u8, outer: DistinctOuter) {
        let b = usize::from(block);
        self.seen[b].truncate(outer.len);
        self.filters[b] = outer.filter;
        self.seen_start[b] = outer.start;
        let mut used = std::mem::replace(&mut self.memo[b], outer.memo);
        if used.capacity() <= MAX_SPARE_KEYS {
            used.clear();
            self.spare_memo.push(used);
        }
    }

    /// Whether the current walk of a `distinct` block reaches this loop head for the first
    /// time in this position with these variables (and notes it).
    fn memo_first<const W: usize>(&mut self, block: u8, pc: usize, vars: &Vars) -> bool {
        let locals: [CellBits<W>; MAX_SET_LOCALS] =
            std::array::from_fn(|i| self.locals[i].resized());
        let key =
            super::compiled::memo_key(self.state.hash, pc, &vars.cells, &vars.placed, &locals);
        self.memo_insert(block, key)
    }

    pub(super) fn memo_insert(&mut self, block: u8, key: u64) -> bool {
        self.memo[usize::from(block)].insert(key)
    }

    pub(super) fn set_again(&mut self) {
        self.again = true;
    }

    /// Whether a position with hash `h` is a new end of the block's current walk (and notes it).
    pub(super) fn distinct_first(&mut self, block: u8, h: u64) -> bool {
        let b = usize::from(block);
        let bit = (h >> 58) as usize; // 0..64
        let word = (h as usize) % FILTER_WORDS;
        let filter = &mut self.filters[b][word];
        let seen = &mut self.seen[b];
        let start = self.seen_start[b];
        // A walk with many ends looks them up in the block's key set (which its loop memo
        // shares, with the ends salted apart), filled from the list once it is long.
        let many = seen.len() - start;
        if many >= MANY_ENDS {
            let keys = &mut self.memo[b];
            if many == MANY_ENDS {
                keys.extend(seen[start..].iter().map(|e| e ^ END_SALT));
            }
            if !keys.insert(h ^ END_SALT) {
                return false;
            }
            seen.push(h);
            return true;
        }
        // Only the current walk's entries compete: enclosing walks' entries lie below
        // `seen_start`, and inner walks truncate their own.
        if *filter >> bit & 1 != 0 && seen[start..].contains(&h) {
            return false;
        }
        *filter |= 1 << bit;
        seen.push(h);
        true
    }

    #[inline]
    fn leaf<const GEN: bool>(&mut self, walk: &mut Walk) {
        walk.leaves += 1;
        if GEN {
            if let Some(out) = walk.out.as_mut() {
                out.push(walk.current);
            } else if let Some(refusals) = walk.refusals.as_mut() {
                if refusals.len() < MAX_REFUSALS && !walk.refused_by.is_empty() {
                    refusals.push((walk.current, walk.refused_by.clone(), walk.failures));
                }
            }
        }
    }

    #[inline]
    fn cell(&self, c: CellRef, vars: &Vars, candidate: u16) -> usize {
        usize::from(match c {
            CellRef::Var(v) => vars.cells[usize::from(v)],
            CellRef::Const(c) => c,
            CellRef::Candidate => candidate,
            CellRef::Slot(s) => u16::try_from(self.state.counters[usize::from(s)]).unwrap_or(0),
        })
    }

    #[inline]
    /// The player an action (`put ... of p`, `counter[p] = ...`, `win p`) is for; `None` for
    /// the owner of an empty cell, which is no player: the action fails this way through the
    /// turn, as a failed `require` does.
    fn acting(&self, p: PlayerRef, vars: &Vars) -> Option<u8> {
        Some(self.player(p, vars, 0)).filter(|&who| who < 2)
    }

    fn player(&self, p: PlayerRef, vars: &Vars, candidate: u16) -> u8 {
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
    fn eval_set<const W: usize>(
        &self,
        id: SetId,
        vars: &Vars,
        domain: CellBits<W>,
        candidate: u16,
    ) -> CellBits<W> {
        let p = self.program;
        let s = &self.state;
        match &p.sets[usize::from(id)] {
            SetExpr::Const(c) => c.resized::<W>() & domain,
            SetExpr::Empty => domain - s.occupied.resized::<W>(),
            SetExpr::Occupied => domain & s.occupied.resized::<W>(),
            SetExpr::PlayerPieces(pl) => {
                let who = self.player(*pl, vars, candidate);
                s.by_player
                    .get(usize::from(who))
                    .map_or(CellBits::EMPTY, |b| b.resized::<W>() & domain)
            }
            SetExpr::Pieces { code, player } => {
                let who = self.player(*player, vars, candidate);
                if who > 1 {
                    // No player (the owner of an empty cell) has no pieces.
                    return CellBits::<W>::EMPTY;
                }
                s.by_code
                    .get(usize::from(*code) + usize::from(who) - 1)
                    .map_or(CellBits::EMPTY, |b| b.resized::<W>() & domain)
            }
            SetExpr::Single(c) => {
                let mut one = CellBits::<W>::EMPTY;
                one.insert(self.cell(*c, vars, candidate));
                one & domain
            }
            SetExpr::Union(a, b) => {
                self.eval_set::<W>(*a, vars, domain, candidate)
                    | self.eval_set::<W>(*b, vars, domain, candidate)
            }
            SetExpr::Inter(a, b) => {
                let x = self.eval_set::<W>(*a, vars, domain, candidate);
                if x.is_empty() {
                    x
                } else {
                    self.eval_set::<W>(*b, vars, x, candidate)
                }
            }
            SetExpr::Diff(a, b) => {
                let x = self.eval_set::<W>(*a, vars, domain, candidate);
                if x.is_empty() {
                    x
                } else {
                    x - self.eval_set::<W>(*b, vars, x, candidate)
                }
            }
            SetExpr::All { relation, of } => {
                self.neighbours_filter::<W>(*relation, *of, vars, domain, candidate, |m, of| {
                    m.is_subset(of)
                })
            }
            SetExpr::None { relation, of } => {
                self.neighbours_filter::<W>(*relation, *of, vars, domain, candidate, |m, of| {
                    !m.intersects(of)
                })
            }
            SetExpr::Any { relation, of } => {
                self.neighbours_filter::<W>(*relation, *of, vars, domain, candidate, |m, of| {
                    m.intersects(of)
                })
            }
            SetExpr::Step { relation, of } => {
                let masks = p.relations[usize::from(*relation)].masks_for(self.state.mover);
                let of = self.eval_set::<W>(*of, vars, self.all::<W>(), candidate);
                let mut out = CellBits::<W>::EMPTY;
                for c in of.iter() {
                    out |= masks[c].resized::<W>();
                }
                out & domain
            }
            SetExpr::Group {
                relation,
                from,
                through,
            } => {
                let through = self.eval_set::<W>(*through, vars, self.all::<W>(), candidate);
                let start = self.eval_set::<W>(*from, vars, through, candidate) & through;
                self.grow::<W>(*relation, start, through, None) & domain
            }
            SetExpr::First(of) => {
                let of = self.eval_set::<W>(*of, vars, self.all::<W>(), candidate);
                let mut one = CellBits::<W>::EMPTY;
                if let Some(c) = of.iter().next() {
                    one.insert(c);
                }
                one & domain
            }
            SetExpr::StepDir { relation, dir, of } => {
                let rel = &p.relations[usize::from(*relation)];
                let of = self.eval_set::<W>(*of, vars, self.all::<W>(), candidate);
                rel.step_along(self.dir::<W>(rel, dir, vars, candidate), of) & domain
            }
            SetExpr::Line {
                relation,
                dir,
                from,
                run,
            } => {
                let rel = &p.relations[usize::from(*relation)];
                let d = dir.as_ref().map(|d| self.dir::<W>(rel, d, vars, candidate));
                let from = self.cell(*from, vars, candidate);
                let run = run.map(|r| self.eval_set::<W>(r, vars, self.all::<W>(), candidate));
                rel.line(self.state.mover, d, from, run) & domain
            }
            SetExpr::Between {
                relation,
                from,
                run,
                end,
            } => {
                let from = self.cell(*from, vars, candidate);
                let run = self.eval_set::<W>(*run, vars, self.all::<W>(), candidate);
                let end = self.eval_set::<W>(*end, vars, self.all::<W>(), candidate);
                p.relations[usize::from(*relation)].between(self.state.mover, from, run, end)
                    & domain
            }
            SetExpr::Brackets { relation, run, end } => {
                let run = self.eval_set::<W>(*run, vars, self.all::<W>(), candidate);
                let end = self.eval_set::<W>(*end, vars, self.all::<W>(), candidate);
                p.relations[usize::from(*relation)].brackets(self.state.mover, domain, run, end)
            }
            SetExpr::Local(slot) => self.locals[usize::from(*slot)].resized::<W>() & domain,
            SetExpr::Placed { slot, table } => self
                .placement(*table, vars.placed[usize::from(*slot)])
                .map_or(CellBits::EMPTY, |inst| inst.cells.resized::<W>() & domain),
            SetExpr::AxisCmp { .. } | SetExpr::AxisRows { .. } | SetExpr::AxisKey { .. } => {
                self.eval_axis_set::<W>(id, vars, domain, candidate)
            }
            SetExpr::Where { base, cond } => {
                let x = self.eval_set::<W>(*base, vars, domain, candidate);
                self.eval_where::<W>(id, x, *cond, vars)
            }
        }
    }

    /// The cells of `x` that pass `cond`, the condition of the `where` set `id`: through its
    /// [`Shortcut`] when it has one, else by testing each cell.
    #[inline]
    fn eval_where<const W: usize>(
        &self,
        id: SetId,
        x: CellBits<W>,
        cond: BoolId,
        vars: &Vars,
    ) -> CellBits<W> {
        let mut out = x;
        if let Some(Shortcut::CellCounter { base, op, value }) = &self.shortcuts[usize::from(id)] {
            let layer = &self.state.counters[usize::from(*base)..];
            for c in x.iter() {
                if !compare(*op, layer[c], *value) {
                    out.remove(c);
                }
            }
            return out;
        }
        for c in x.iter() {
            if !self.eval_bool::<W>(cond, vars, c as u16) {
                out.remove(c);
            }
        }
        out
    }

    /// [`Engine::eval_set`] for the lookups in the board's table of cells by coordinate.
    #[inline]
    fn eval_axis_set<const W: usize>(
        &self,
        id: SetId,
        vars: &Vars,
        domain: CellBits<W>,
        candidate: u16,
    ) -> CellBits<W> {
        let p = self.program;
        match &p.sets[usize::from(id)] {
            SetExpr::AxisCmp { axis, op, value } => {
                let v = self.eval_int::<W>(*value, vars, candidate);
                p.board.axis_cmp(usize::from(*axis), *op, v).resized::<W>() & domain
            }
            SetExpr::AxisRows { base, axis, cond } => {
                let within = self.eval_set::<W>(*base, vars, domain, candidate);
                let keep = |c: usize| self.eval_bool::<W>(*cond, vars, c as u16);
                p.board.rows_where(usize::from(*axis), within, keep)
            }
            SetExpr::AxisKey {
                base,
                axis,
                key,
                op,
                value,
            } => {
                let within = self.eval_set::<W>(*base, vars, domain, candidate);
                let value = self.eval_int::<W>(*value, vars, candidate);
                if let Some(Shortcut::Keys(table)) = &self.shortcuts[usize::from(id)] {
                    let mut out = CellBits::<W>::EMPTY;
                    for (k, cells) in table.iter() {
                        if compare(*op, *k, value) {
                            out |= cells.resized::<W>();
                        }
                    }
                    return out & within;
                }
                let keep = |c: usize| compare(*op, self.eval_int::<W>(*key, vars, c as u16), value);
                p.board.rows_where(usize::from(*axis), within, keep)
            }
            _ => CellBits::EMPTY,
        }
    }

    /// The cells of `domain` whose neighbours along `relation` satisfy `keep` against the set
    /// `of` (`all`, `none` and `any`).
    #[inline]
    /// A direction value's index in `rel`, [`NO_DIR`] for none.
    fn dir<const W: usize>(
        &self,
        rel: &rulestone_ir::Relation,
        d: &rulestone_ir::DirExpr,
        vars: &Vars,
        candidate: u16,
    ) -> u8 {
        d.eval(rel, &vars.cells, &|i| {
            self.eval_int::<W>(i, vars, candidate)
        })
    }

    fn neighbours_filter<const W: usize>(
        &self,
        relation: u16,
        of: SetId,
        vars: &Vars,
        domain: CellBits<W>,
        candidate: u16,
        keep: impl Fn(&CellBits<W>, &CellBits<W>) -> bool,
    ) -> CellBits<W> {
        let p = self.program;
        let masks = p.relations[usize::from(relation)].masks_for(self.state.mover);
        let of = self.eval_set::<W>(of, vars, self.all::<W>(), candidate);
        let mut out = domain;
        for c in domain.iter() {
            if !keep(&masks[c].resized::<W>(), &of) {
                out.remove(c);
            }
        }
        out
    }

    fn eval_int<const W: usize>(&self, id: IntId, vars: &Vars, candidate: u16) -> i32 {
        let p = self.program;
        match &p.ints[usize::from(id)] {
            IntExpr::Const(v) => *v,
            IntExpr::Counter(slot) => self.state.counters[usize::from(*slot)],
            IntExpr::PlayerCounter { base, player } => {
                let who = self.player(*player, vars, candidate);
                if who > 1 {
                    // No player (the owner of an empty cell) reads 0.
                    return 0;
                }
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
                let set = self.eval_set::<W>(*s, vars, self.all::<W>(), candidate);
                i32::try_from(set.len()).unwrap_or(i32::MAX)
            }
            IntExpr::CellCounter { base, cell } => {
                self.state.counters[usize::from(*base) + self.cell(*cell, vars, candidate)]
            }
            IntExpr::CellSum { base, of } => {
                let set = self.eval_set::<W>(*of, vars, self.all::<W>(), candidate);
                ops::cell_sum(&self.state.counters, usize::from(*base), &set)
            }
            IntExpr::Points(player) => {
                let who = usize::from(self.player(*player, vars, candidate));
                if who > 1 {
                    // No player (the owner of an empty cell) has no points.
                    return 0;
                }
                stock_points(&p.shapes, &self.state.counters, who)
            }
            IntExpr::Won(player) => {
                let who = self.player(*player, vars, candidate);
                i32::from(self.state.result == Some(GameResult::Win(who)))
            }
            IntExpr::Repetitions => self.rt_repetitions(self.state.hash, &self.state.counters),
            IntExpr::DirIndex { relation, dir } => {
                let rel = &self.program.relations[usize::from(*relation)];
                match self.dir::<W>(rel, dir, vars, candidate) {
                    NO_DIR => -1,
                    d => i32::from(d),
                }
            }
            IntExpr::CellId(cell) => {
                i32::try_from(self.cell(*cell, vars, candidate)).unwrap_or(i32::MAX)
            }
            IntExpr::Cond {
                cond,
                then,
                otherwise,
            } => {
                if self.eval_bool::<W>(*cond, vars, candidate) {
                    self.eval_int::<W>(*then, vars, candidate)
                } else {
                    self.eval_int::<W>(*otherwise, vars, candidate)
                }
            }
            IntExpr::Neg(x) => neg(self.eval_int::<W>(*x, vars, candidate)),
            IntExpr::Bin { op, lhs, rhs } => int_op(
                *op,
                self.eval_int::<W>(*lhs, vars, candidate),
                self.eval_int::<W>(*rhs, vars, candidate),
            ),
        }
    }

    fn eval_bool<const W: usize>(&self, id: BoolId, vars: &Vars, candidate: u16) -> bool {
        let p = self.program;
        match &p.bools[usize::from(id)] {
            BoolExpr::Const(v) => *v,
            BoolExpr::Not(x) => !self.eval_bool::<W>(*x, vars, candidate),
            BoolExpr::And(a, b) => {
                self.eval_bool::<W>(*a, vars, candidate) && self.eval_bool::<W>(*b, vars, candidate)
            }
            BoolExpr::Or(a, b) => {
                self.eval_bool::<W>(*a, vars, candidate) || self.eval_bool::<W>(*b, vars, candidate)
            }
            BoolExpr::Cmp { op, lhs, rhs } => compare(
                *op,
                self.eval_int::<W>(*lhs, vars, candidate),
                self.eval_int::<W>(*rhs, vars, candidate),
            ),
            BoolExpr::CellEq { eq, lhs, rhs } => {
                (self.cell(*lhs, vars, candidate) == self.cell(*rhs, vars, candidate)) == *eq
            }
            BoolExpr::PlayerEq { eq, lhs, rhs } => {
                (self.player(*lhs, vars, candidate) == self.player(*rhs, vars, candidate)) == *eq
            }
            BoolExpr::DirIn {
                relation,
                dir,
                members,
            } => {
                let rel = &p.relations[usize::from(*relation)];
                let d = self.dir::<W>(rel, dir, vars, candidate);
                let mask = members[usize::from(self.state.mover & 1)];
                d < 64 && mask >> d & 1 == 1
            }
            BoolExpr::In { cell, set } => {
                let c = self.cell(*cell, vars, candidate);
                let mut one = CellBits::<W>::EMPTY;
                one.insert(c);
                !self.eval_set::<W>(*set, vars, one, candidate).is_empty()
            }
            BoolExpr::Connected {
                relation,
                through,
                from,
                to,
            } => {
                let all = self.all::<W>();
                let through = self.eval_set::<W>(*through, vars, all, candidate);
                let to = self.eval_set::<W>(*to, vars, all, candidate) & through;
                if to.is_empty() {
                    return false;
                }
                let start = self.eval_set::<W>(*from, vars, through, candidate);
                self.grow::<W>(*relation, start, through, Some(to))
                    .intersects(&to)
            }
            BoolExpr::Completes { pattern, cell, set } => {
                let pat = &p.patterns[usize::from(*pattern)];
                let c = self.cell(*cell, vars, candidate);
                let (a, b) = (pat.offsets[c] as usize, pat.offsets[c + 1] as usize);
                if a == b {
                    return false;
                }
                let s = self.eval_set::<W>(*set, vars, self.all::<W>(), candidate);
                pat.instances[a..b]
                    .iter()
                    .any(|inst| inst.resized::<W>().is_subset(&s))
            }
        }
    }

    fn placement(&self, table: u16, index: u16) -> Option<&'p Placement> {
        self.program
            .placements
            .get(usize::from(table))?
            .instances
            .get(usize::from(index))
    }

    fn render<const W: usize>(&self, t: u16, vars: &Vars) -> String {
        let p = self.program;
        let mut out = String::new();
        for part in &p.templates[usize::from(t)].parts {
            match part {
                TemplatePart::Text(s) => out.push_str(s),
                TemplatePart::Cell(c) => out.push_str(&p.board.names[self.cell(*c, vars, 0)]),
                TemplatePart::Int(i) => out.push_str(&self.eval_int::<W>(*i, vars, 0).to_string()),
                TemplatePart::Player(pl) => {
                    let who = usize::from(self.player(*pl, vars, 0));
                    out.push_str(p.players.get(who).map_or("?", String::as_str));
                }
                TemplatePart::ShapeName { slot, table } => {
                    if let Some(inst) = self.placement(*table, vars.placed[usize::from(*slot)]) {
                        if let Some(shape) = p.shapes.get(usize::from(inst.shape)) {
                            out.push_str(&shape.name);
                            if inst.flipped {
                                out.push_str(shape.flip.as_deref().unwrap_or(""));
                            }
                        }
                    }
                }
                TemplatePart::Dir { relation, dir } => {
                    let rel = &p.relations[usize::from(*relation)];
                    let d = self.dir::<W>(rel, dir, vars, 0);
                    out.push_str(rel.names.get(usize::from(d)).map_or("?", String::as_str));
                }
                TemplatePart::Facing { slot, table } => {
                    if let Some(inst) = self.placement(*table, vars.placed[usize::from(*slot)]) {
                        let names = &p.placements[usize::from(*table)].facings;
                        out.push_str(
                            names
                                .get(usize::from(inst.facing))
                                .map_or("?", String::as_str),
                        );
                    }
                }
                TemplatePart::Decimal(i) => {
                    let v = self.eval_int::<W>(*i, vars, 0);
                    out.push_str(&rulestone_base::decimal::decimal_text(v.into()));
                }
                TemplatePart::Letter(i) => {
                    let v = self.eval_int::<W>(*i, vars, 0);
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
            steps_left: u64::MAX,
            chance: false,
            rolled: Vec::new(),
            parts: Vec::new(),
            voice: 0,
            chooser: None,
            refusals: None,
            refused_by: Vec::new(),
            failures: 0,
            named: Vec::new(),
        }
    }

    /// Records a picked cell: one decision, or two (high byte, then low) when `wide`.
    /// `false` when the move has no room left.
    #[inline]
    fn push_cell(&mut self, cell: usize, wide: bool) -> bool {
        let [hi, lo] = u16::try_from(cell).unwrap_or(u16::MAX).to_be_bytes();
        if wide {
            self.current.push(hi) && self.current.push(lo)
        } else {
            self.current.push(lo)
        }
    }

    /// The next recorded cell, as [`Walk::push_cell`] wrote it.
    #[inline]
    fn next_cell(&mut self, wide: bool) -> u16 {
        let first = self.next();
        if wide {
            ops::two_decisions(first, self.next())
        } else {
            u16::from(first)
        }
    }

    /// Generating for [`Engine::refusals`]: whether this way may be followed past one more
    /// failure (the first always; later ones only towards named cells, up to
    /// [`MAX_FAILURES`]).
    #[inline]
    fn may_fail(&self) -> bool {
        self.failures == 0 || (!self.named.is_empty() && self.failures < MAX_FAILURES)
    }

    /// Counts one generation step; true once the walk has none left (it then stays so).
    #[inline]
    fn out_of_steps(&mut self) -> bool {
        if self.steps_left == 0 {
            return true;
        }
        self.steps_left -= 1;
        false
    }

    /// Counts a loop round on this path; true, with no steps left (so the generation stops as
    /// at the step limit), once the path has run more than [`MAX_PATH_ROUNDS`].
    #[inline]
    fn past_path_rounds(&mut self, vars: &mut Vars) -> bool {
        vars.rounds += 1;
        if vars.rounds > MAX_PATH_ROUNDS {
            self.steps_left = 0;
            return true;
        }
        false
    }

    /// The next recorded decision (0 past the end, so a malformed move cannot panic).
    #[inline]
    fn next(&mut self) -> u8 {
        let d = self.current.get(self.read).unwrap_or(0);
        self.read += 1;
        d
    }
}

#[cfg(test)]
mod line_tests {
    use super::Line;

    /// A line's counts equal a scan's, through pushes, pops and cuts.
    #[test]
    fn counts_follow_the_keys() {
        let mut line = Line::default();
        assert_eq!(line.count(7), 0);
        let keys = [7, 7 + 1024, 7, 99, 7 + 2048, 99, 5];
        for k in keys {
            line.push(k);
        }
        let scan = |line: &Line, k: u64| line.keys().iter().filter(|&&x| x == k).count();
        for k in [7, 7 + 1024, 7 + 2048, 99, 5, 6, 1031] {
            assert_eq!(line.count(k), scan(&line, k), "key {k}");
        }
        line.pop();
        assert_eq!(line.count(5), 0);
        line.truncate(2);
        assert_eq!((line.count(7), line.count(99), line.len()), (1, 0, 2));
        line.truncate(0);
        assert_eq!(line.count(7 + 1024), 0);
    }

    /// Two positions repeated many times over: each count is right, and stays right as the
    /// line is taken back.
    #[test]
    fn many_repetitions_count_right() {
        let mut line = Line::default();
        for _ in 0..5000 {
            line.push(3);
            line.push(3 + 1024);
        }
        assert_eq!((line.count(3), line.count(3 + 1024)), (5000, 5000));
        line.pop();
        assert_eq!((line.count(3), line.count(3 + 1024)), (5000, 4999));
        line.truncate(11);
        assert_eq!((line.count(3), line.count(3 + 1024)), (6, 5));
    }
}
