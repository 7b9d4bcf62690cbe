//! The compiled backend: a turn program translated to Rust by `rulestone-codegen` and
//! linked into a binary (`rulestone compile`). The translation makes the same choices in the same
//! order as the interpreter, only without dispatch; an [`Engine`] built with
//! [`Backend::Compiled`] (which [`Compiled::backend_for`] gives only for the program the code was
//! generated from) lists its moves with it. Apply, undo, notation and everything else
//! stay with the interpreter, so the two backends share one definition of a move.
//!
//! [`Pos`], [`Gen`] and the `rt_*` methods are the small surface generated code calls; they are
//! public only so that code in another crate can call them.

use rand::Rng;
use rand_chacha::ChaCha8Rng;

use super::engine::{history_key, repetitions, DistinctOuter, Line};
use super::{Engine, GameResult, Move, Zobrist};
use rulestone_ir::{CellBits, Program};

/// Lists the legal moves of the engine's position into the walk.
pub type GenerateFn = fn(&mut Engine<'_>, &mut Gen<'_>);

/// Makes one move's changes to the engine's position (on its trail, so `undo` takes them back);
/// the engine then passes the turn.
pub type ApplyFn = fn(&mut Engine<'_>, &Move);

/// One program's compiled move generator.
#[derive(Clone, Copy, Debug)]
pub struct CompiledTurn {
    /// The game's name and options, for messages.
    pub label: &'static str,
    /// [`fingerprint`] of the program it was generated from.
    pub fingerprint: u64,
    pub generate: GenerateFn,
    pub apply: ApplyFn,
    /// Whole searches on the position value alone, for programs whose moves need nothing of
    /// the engine but the position (no `distinct` block).
    pub fast: Option<FastRuns>,
}

/// perft and random play on the compiled position value: copy-make, no trail, no per-cell
/// board, for the turns [`FastTurn`] describes.
#[derive(Clone, Copy, Debug)]
pub struct FastRuns {
    pub perft: fn(&mut Engine<'_>, u32) -> u64,
    pub play: FastPlayFn,
}

/// [`fast_play`] of one turn program: the engine, the random source, the ply limit, a move
/// buffer, whether to keep the end position, and the caller's stop.
pub type FastPlayFn = fn(
    &mut Engine<'_>,
    &mut ChaCha8Rng,
    u32,
    &mut Vec<Move>,
    bool,
    &mut dyn FnMut() -> bool,
) -> FastPlay;

/// How a random game on the position value stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FastPlay {
    pub plies: u32,
    /// The player to move had no legal move (the game's `on no moves` decides).
    pub stuck: bool,
    pub result: Option<GameResult>,
    /// Whether the engine holds the end position (and [`Engine::restore`] its start).
    pub stored: bool,
    /// The caller's `stop` cut the game before its end.
    pub cut: bool,
}

/// Which move generator an engine uses. The caller chooses, with a value: nothing global
/// decides for it.
#[derive(Clone, Copy, Debug, Default)]
pub enum Backend {
    /// The bytecode interpreter: every program.
    #[default]
    Interpreter,
    /// Generated Rust for exactly this program ([`Compiled::backend_for`] checks that).
    Compiled(CompiledTurn),
}

/// The kind of a [`Backend`], for messages and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BackendKind {
    Interpreter,
    Compiled,
}

impl std::fmt::Display for BackendKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            BackendKind::Interpreter => "interpreter",
            BackendKind::Compiled => "compiled",
        })
    }
}

impl Backend {
    #[must_use]
    pub fn kind(&self) -> BackendKind {
        match self {
            Backend::Interpreter => BackendKind::Interpreter,
            Backend::Compiled(_) => BackendKind::Compiled,
        }
    }
}

/// The compiled generators linked into a binary (`rulestone compile` makes one that passes its
/// table to `rulestone::cli::main_with`): a plain value, handed to whoever builds engines.
#[derive(Clone, Copy, Debug, Default)]
pub struct Compiled {
    turns: &'static [CompiledTurn],
}

impl Compiled {
    /// No compiled generator: every program is interpreted.
    pub const NONE: Compiled = Compiled { turns: &[] };

    #[must_use]
    pub const fn new(turns: &'static [CompiledTurn]) -> Compiled {
        Compiled { turns }
    }

    /// These generators followed by those of `more` for programs not here yet, as one table.
    /// A program has one fingerprint, and generators of one program list the same moves, so
    /// which of two copies is kept does not matter. A joined table lives as long as the process
    /// (the generators it points to do too); joining what adds nothing allocates nothing, so a
    /// front end may join a plugin's table each time it is loaded.
    #[must_use]
    pub fn and(self, more: Compiled) -> Compiled {
        let known = |t: &CompiledTurn| self.turns.iter().any(|k| k.fingerprint == t.fingerprint);
        if more.turns.iter().all(known) {
            return self;
        }
        if self.turns.is_empty() {
            return more;
        }
        let added = more.turns.iter().filter(|t| !known(t));
        let joined: Vec<CompiledTurn> = self.turns.iter().chain(added).copied().collect();
        Compiled {
            turns: Box::leak(joined.into_boxed_slice()),
        }
    }

    /// The generators, in the order they were generated.
    #[must_use]
    pub fn turns(&self) -> &'static [CompiledTurn] {
        self.turns
    }

    /// The compiled generator for exactly this program (same rules, same options, same version
    /// of the lowering), else the interpreter: a stale or different program is never run by
    /// code generated for another.
    #[must_use]
    pub fn backend_for(&self, program: &Program) -> Backend {
        if self.turns.is_empty() {
            return Backend::Interpreter;
        }
        let f = fingerprint(program);
        self.turns
            .iter()
            .find(|t| t.fingerprint == f)
            .map_or(Backend::Interpreter, |t| Backend::Compiled(*t))
    }
}

/// The program's fingerprint, which generated code records (defined with the IR).
pub use rulestone_ir::fingerprint::fingerprint;

/// Where compiled move generation puts finished moves. The move being built is not kept
/// here: generated code passes it by value from choice to choice (as it does the turn's
/// variables), so its decisions stay in registers and backtracking needs no truncation.
pub struct Gen<'o> {
    out: &'o mut Vec<Move>,
    /// Set when a turn needed more decisions than a move holds.
    pub(super) overflow: bool,
    /// Set when a `roll` was passed.
    pub(super) chance: bool,
    /// Steps (decisions and loop rounds) this generation may still take: at 0 every choice is
    /// refused and every loop left, so the walk unwinds at once and its caller reports E1008
    /// (see [`rulestone_ir::MAX_STEPS`]).
    pub(super) steps_left: u64,
    /// The loop rounds the path being walked has run: each is a call still on the stack.
    path_rounds: u32,
}

impl<'o> Gen<'o> {
    pub(super) fn new(out: &'o mut Vec<Move>, steps: u64) -> Gen<'o> {
        Gen {
            out,
            overflow: false,
            chance: false,
            steps_left: steps,
            path_rounds: 0,
        }
    }

    /// Counts one step of the generation: a choice tried, or a round of a loop (a `repeat` or
    /// `while` that chooses nothing still spends them); true once none are left, and the walk
    /// unwinds.
    #[inline]
    pub fn out_of_steps(&mut self) -> bool {
        if self.steps_left == 0 {
            return true;
        }
        self.steps_left -= 1;
        false
    }

    /// Enters a loop round of the path being walked; true, with no steps left (the walk
    /// unwinds and E1008 is reported), past [`rulestone_ir::MAX_PATH_ROUNDS`], which bounds
    /// the stack the rounds' calls take. The round's code calls [`Gen::leave_round`] after.
    #[inline]
    pub fn enter_round(&mut self) -> bool {
        if self.path_rounds >= rulestone_ir::MAX_PATH_ROUNDS {
            self.steps_left = 0;
            return true;
        }
        self.path_rounds += 1;
        false
    }

    /// Leaves the round [`Gen::enter_round`] entered, once its path has been walked.
    #[inline]
    pub fn leave_round(&mut self) {
        self.path_rounds = self.path_rounds.saturating_sub(1);
    }

    /// Notes that the moves listed are chance moves (the program rolled).
    #[inline]
    pub fn set_chance(&mut self) {
        self.chance = true;
    }

    /// The move with one more decision; `None` (and the overflow noted) when it is full, or
    /// when the generation has used all its steps.
    #[inline]
    pub fn extend(&mut self, m: Move, decision: u8) -> Option<Move> {
        if self.out_of_steps() {
            return None;
        }
        let mut longer = m;
        if longer.push(decision) {
            Some(longer)
        } else {
            self.overflow = true;
            None
        }
    }

    /// [`Gen::extend`] where the move holds exactly `D` decisions (the code generator has
    /// proved it for the choice), so it cannot be full.
    #[inline]
    pub fn extend_at<const D: usize>(&mut self, m: Move, decision: u8) -> Option<Move> {
        if self.out_of_steps() {
            return None;
        }
        Some(m.pushed_at::<D>(decision))
    }

    /// [`Gen::leaf_with`] where the move holds exactly `D` decisions.
    #[inline]
    pub fn leaf_with_at<const D: usize>(&mut self, m: Move, decision: u8) {
        if let Some(m) = self.extend_at::<D>(m, decision) {
            self.out.push(m);
        }
    }

    /// [`Gen::leaf`] for a move of at most seven decisions ([`Move::short`]).
    #[inline]
    pub fn leaf_short(&mut self, m: Move) {
        self.out.push(m.short());
    }

    /// [`Gen::leaf_with_at`] for a move of at most seven decisions ([`Move::short`]).
    #[inline]
    pub fn leaf_short_with_at<const D: usize>(&mut self, m: Move, decision: u8) {
        if let Some(m) = self.extend_at::<D>(m, decision) {
            self.out.push(m.short());
        }
    }

    /// The move is complete.
    #[inline]
    pub fn leaf(&mut self, m: Move) {
        self.out.push(m);
    }

    /// The move with one more decision is complete.
    #[inline]
    pub fn leaf_with(&mut self, m: Move, decision: u8) {
        if let Some(m) = self.extend(m, decision) {
            self.out.push(m);
        }
    }

    /// Moves completed so far (a `first` branch is used when it added some).
    #[inline]
    #[must_use]
    pub fn leaves(&self) -> u64 {
        // Only differences are read, and the walk only appends to the list.
        self.out.len() as u64
    }
}

/// The position as compiled move generation sees it: the bitsets, counters and hash of the
/// engine's [`State`](super::State) in sets of `W` words (one for a board of at most 64
/// cells, where every set operation is then a single instruction), with `K` piece kinds, `C`
/// counter slots and `L` `let` slots. A kind's set holds both players' pieces of that kind
/// (the player's set tells them apart), so the value is half as large as one set per piece
/// code would make it (a game of six kinds: 192 bytes, copied by a call to `memcpy` at every
/// choice, became 128). `K` is 0 when the game has one piece kind: then a cell's code follows from
/// its owner. It is small and `Copy`, and every choice point hands each option its own copy
/// (copy-make), so generation needs no trail and no undo.
///
/// Piece codes are `1 + 2 * kind + player`, as everywhere in the runtime.
#[derive(Clone, Copy, Debug)]
pub struct Pos<const W: usize, const K: usize, const C: usize, const L: usize> {
    pub occupied: CellBits<W>,
    pub by_player: [CellBits<W>; 2],
    pub by_kind: [CellBits<W>; K],
    pub counters: [i32; C],
    pub hash: u64,
    pub locals: [CellBits<W>; L],
}

/// Up to this many piece kinds, [`Pos::set_cell`] picks a kind's set by comparisons rather
/// than by an index.
const SELECTED_KINDS: usize = 4;

impl<const W: usize, const K: usize, const C: usize, const L: usize> Pos<W, K, C, L> {
    /// The engine's position.
    #[must_use]
    pub fn of(e: &Engine<'_>) -> Self {
        let s = &e.state;
        let code = |k: usize| CellBits::from_set(s.by_code.get(k).copied().unwrap_or_default());
        Pos {
            occupied: CellBits::from_set(s.occupied),
            by_player: s.by_player.map(CellBits::from_set),
            by_kind: std::array::from_fn(|k| code(2 * k) | code(2 * k + 1)),
            counters: std::array::from_fn(|k| s.counters.get(k).copied().unwrap_or_default()),
            hash: s.hash,
            locals: [CellBits::EMPTY; L],
        }
    }

    /// A kind's pieces of one player (none for any other value).
    #[inline]
    #[must_use]
    pub fn of_kind(&self, kind: usize, player: u8) -> CellBits<W> {
        self.by_kind
            .get(kind)
            .map_or(CellBits::EMPTY, |b| *b & self.of_player(player))
    }

    /// A player's pieces (none for any other value), picked by a branch so that the position
    /// can stay in registers.
    #[inline]
    #[must_use]
    pub fn of_player(&self, player: u8) -> CellBits<W> {
        match player {
            0 => self.by_player[0],
            1 => self.by_player[1],
            _ => CellBits::EMPTY,
        }
    }

    /// The piece code on a cell (0 when empty).
    #[inline]
    #[must_use]
    pub fn code(&self, cell: usize) -> u8 {
        let who = self.owner(cell);
        if who == u8::MAX {
            return 0;
        }
        let kind = (0..K)
            .find(|&k| self.by_kind[k].contains(cell))
            .unwrap_or(0);
        1 + 2 * kind as u8 + who
    }

    /// The owner of the piece on a cell, `u8::MAX` when empty (as the interpreter's `owner`).
    #[inline]
    #[must_use]
    pub fn owner(&self, cell: usize) -> u8 {
        if self.by_player[0].contains(cell) {
            0
        } else if self.by_player[1].contains(cell) {
            1
        } else {
            u8::MAX
        }
    }

    /// Puts piece `code` on a cell (0 clears it); `HASHED`: whether the hash follows.
    #[inline(always)]
    pub fn set_cell<const HASHED: bool>(&mut self, z: &Zobrist, cell: usize, code: u8) {
        // Without the hash the old code is not needed: the cell leaves every set, then joins
        // the new code's (no lookups, and a constant `code` folds away).
        let old = if HASHED { self.code(cell) } else { 0 };
        if HASHED && old == code {
            return;
        }
        let one = CellBits::<W>::single(cell);
        self.occupied = self.occupied - one;
        self.by_player[0] = self.by_player[0] - one;
        self.by_player[1] = self.by_player[1] - one;
        for b in &mut self.by_kind {
            *b = *b - one;
        }
        if code != 0 {
            self.occupied |= one;
            // The player's set is picked by a branch, not an index, so that a position held
            // in registers stays there (see `CellSet::single`).
            if (code - 1) & 1 == 0 {
                self.by_player[0] |= one;
            } else {
                self.by_player[1] |= one;
            }
            let kind = usize::from(code - 1) / 2;
            if K <= SELECTED_KINDS {
                // Each kind's set is picked by a comparison, not an index, so that the sets
                // can stay in registers and a later read of the position does not wait for a
                // store to memory.
                for (k, b) in self.by_kind.iter_mut().enumerate() {
                    if k == kind {
                        *b |= one;
                    }
                }
            } else if let Some(b) = self.by_kind.get_mut(kind) {
                *b |= one;
            }
        }
        if HASHED {
            self.hash ^= z.cell(cell, old) ^ z.cell(cell, code);
        }
    }

    #[inline]
    pub fn set_counter<const HASHED: bool>(&mut self, z: &Zobrist, slot: usize, value: i32) {
        if HASHED {
            self.hash ^= z.counter(slot, self.counters[slot]) ^ z.counter(slot, value);
        }
        self.counters[slot] = value;
    }
}

/// A position value that can be read from the engine and written back to it.
pub trait Position: Copy {
    fn of(e: &Engine<'_>) -> Self;
    /// The position's hash, as the engine's [`State`](super::State) keeps it (with the player
    /// to move), where the run keeps it (programs that read `repetitions`).
    fn hash_mut(&mut self) -> &mut u64;
    fn counters(&self) -> &[i32];
    /// Makes the engine's position this one (cells, counters and hash; unlogged, as after
    /// [`Engine::play_unlogged`]).
    fn store(&self, e: &mut Engine<'_>);
}

impl<const W: usize, const K: usize, const C: usize, const L: usize> Position for Pos<W, K, C, L> {
    fn of(e: &Engine<'_>) -> Self {
        Pos::of(e)
    }

    #[inline]
    fn hash_mut(&mut self) -> &mut u64 {
        &mut self.hash
    }

    #[inline]
    fn counters(&self) -> &[i32] {
        &self.counters
    }

    fn store(&self, e: &mut Engine<'_>) {
        let (state, z) = e.state_and_zobrist();
        for cell in 0..state.board.len() {
            state.set_cell(z, cell, self.code(cell));
        }
        for (slot, value) in self.counters.iter().enumerate() {
            state.set_counter(z, slot, *value);
        }
    }
}

/// What the functions generated for sets, integers and conditions read besides the position:
/// the program's tables, whose turn it is, the result and the game's history. Both hosts lend
/// one ([`Host::view`]), so that those functions are generated and compiled once, not once
/// per host.
#[derive(Clone, Copy)]
pub struct View<'a> {
    program: &'a Program,
    zobrist: &'a Zobrist,
    history: &'a Line,
    mover: u8,
    result: Option<GameResult>,
}

#[doc(hidden)]
impl<'a> View<'a> {
    #[inline]
    #[must_use]
    pub fn program(&self) -> &'a Program {
        self.program
    }
    #[inline]
    #[must_use]
    pub fn zobrist(&self) -> &'a Zobrist {
        self.zobrist
    }
    #[inline]
    #[must_use]
    pub fn rt_mover(&self) -> u8 {
        self.mover
    }
    #[inline]
    #[must_use]
    pub fn rt_result(&self) -> Option<GameResult> {
        self.result
    }
    /// `repetitions` ([`Engine::rt_repetitions`]) against the host's history.
    #[inline]
    #[must_use]
    pub fn rt_repetitions(&self, hash: u64, counters: &[i32]) -> i32 {
        repetitions(
            self.program,
            self.zobrist,
            self.history,
            self.mover,
            hash,
            counters,
        )
    }
}

/// What generated code reads and changes besides its own copy of the position `P`: the
/// program's tables, whose turn it is, and the real position its moves change. The engine is
/// one host of a move's replay (every change logged on its trail); [`Fast`] is the other,
/// for whole searches on the position value alone, and the only host of the generating walk
/// ([`fast_generate`] runs it for the engine).
pub trait Host<'p, P> {
    /// What the generated functions for sets, integers and conditions read.
    fn view(&self) -> View<'_>;
    /// The program, borrowed apart from the host so that its tables can be read while the
    /// position changes.
    fn program(&self) -> &'p Program;
    fn zobrist(&self) -> &Zobrist;
    fn rt_mover(&self) -> u8;
    fn rt_result(&self) -> Option<GameResult>;
    /// Changes a cell of the real position, or not: a host may take the whole position at
    /// [`Host::rt_end`] instead.
    fn rt_set_cell(&mut self, cell: usize, code: u8);
    fn rt_set_counter(&mut self, slot: usize, value: i32);
    fn rt_finish(&mut self, result: GameResult);
    /// `again`: the mover keeps the turn after this move.
    fn rt_again(&mut self);
    /// The move's changes are all made: `pos` is the position after it.
    fn rt_end(&mut self, pos: &P);
    /// `repetitions` ([`Engine::rt_repetitions`]) against the host's history.
    fn rt_repetitions(&self, hash: u64, counters: &[i32]) -> i32;
}

impl<'p, const W: usize, const K: usize, const C: usize, const L: usize> Host<'p, Pos<W, K, C, L>>
    for Engine<'p>
{
    #[inline]
    fn view(&self) -> View<'_> {
        Engine::view(self)
    }
    #[inline]
    fn program(&self) -> &'p Program {
        Engine::program(self)
    }
    #[inline]
    fn zobrist(&self) -> &Zobrist {
        Engine::zobrist(self)
    }
    #[inline]
    fn rt_mover(&self) -> u8 {
        self.state.mover
    }
    #[inline]
    fn rt_result(&self) -> Option<GameResult> {
        self.state.result
    }
    #[inline]
    fn rt_set_cell(&mut self, cell: usize, code: u8) {
        self.set_cell(cell, code);
    }
    #[inline]
    fn rt_set_counter(&mut self, slot: usize, value: i32) {
        self.set_counter(slot, value);
    }
    #[inline]
    fn rt_finish(&mut self, result: GameResult) {
        self.finish(result);
    }
    #[inline]
    fn rt_again(&mut self) {
        self.set_again();
    }
    #[inline]
    fn rt_end(&mut self, _pos: &Pos<W, K, C, L>) {}
    #[inline]
    fn rt_repetitions(&self, hash: u64, counters: &[i32]) -> i32 {
        Engine::rt_repetitions(self, hash, counters)
    }
}

/// The host of whole searches on the position value: the position, the player to move and
/// the result, copied whole to take a move back (copy-make). The engine's position stays as
/// it was until [`Position::store`]. For rules that read `repetitions`, the run also keeps
/// the position's hash and the game's history: the engine's keys, lent for the run
/// (`Engine::lend_history`), one more pushed per move played and popped when it is taken
/// back, so that the history always describes the line that led to `pos`.
pub struct Fast<'p, P> {
    program: &'p Program,
    zobrist: &'p Zobrist,
    pub pos: P,
    pub mover: u8,
    pub result: Option<GameResult>,
    again: bool,
    /// Set when a turn needed more decisions than a move holds.
    overflow: bool,
    /// The engine's step limit for one position's generation, and whether one ran out of it.
    step_limit: u64,
    exhausted: bool,
    /// The keys of the positions of the game line, the current one last (`history_key`).
    history: Line,
    /// Whether the rules read the history (then `pos.hash` is kept and `history` grows).
    keeps_history: bool,
}

impl<'p, const W: usize, const K: usize, const C: usize, const L: usize> Host<'p, Pos<W, K, C, L>>
    for Fast<'p, Pos<W, K, C, L>>
{
    #[inline]
    fn view(&self) -> View<'_> {
        View {
            program: self.program,
            zobrist: self.zobrist,
            history: &self.history,
            mover: self.mover,
            result: self.result,
        }
    }
    #[inline]
    fn program(&self) -> &'p Program {
        self.program
    }
    #[inline]
    fn zobrist(&self) -> &Zobrist {
        self.zobrist
    }
    #[inline]
    fn rt_mover(&self) -> u8 {
        self.mover
    }
    #[inline]
    fn rt_result(&self) -> Option<GameResult> {
        self.result
    }
    // The position is taken whole at the end of the move (`rt_end`).
    #[inline]
    fn rt_set_cell(&mut self, _cell: usize, _code: u8) {}
    #[inline]
    fn rt_set_counter(&mut self, _slot: usize, _value: i32) {}
    #[inline]
    fn rt_finish(&mut self, result: GameResult) {
        self.result = Some(result);
    }
    #[inline]
    fn rt_again(&mut self) {
        self.again = true;
    }
    #[inline]
    fn rt_end(&mut self, pos: &Pos<W, K, C, L>) {
        // The hash is kept only for rules that read `repetitions` (their replay makes its
        // changes hashed); `distinct` blocks read it too, but their programs have no fast
        // runs. `let` sets start empty in every walk.
        self.pos = Pos {
            locals: [CellBits::EMPTY; L],
            ..*pos
        };
    }
    #[inline]
    fn rt_repetitions(&self, hash: u64, counters: &[i32]) -> i32 {
        repetitions(
            self.program,
            self.zobrist,
            &self.history,
            self.mover,
            hash,
            counters,
        )
    }
}

/// A compiled turn that can run on [`Fast`]: generated for each program without `distinct`.
pub trait FastTurn {
    type P: Position;
    fn generate(h: &mut Fast<'_, Self::P>, g: &mut Gen<'_>);
    /// Makes the move's changes to `h.pos` and notes a result or `again` (the caller passes
    /// the turn).
    fn apply(h: &mut Fast<'_, Self::P>, m: &Move);
}

impl<'p, P: Position> Fast<'p, P> {
    /// The engine's position, player to move and result, with the history it lent.
    fn of(e: &'p Engine<'_>, history: Option<Line>) -> Fast<'p, P> {
        Fast {
            keeps_history: history.is_some(),
            history: history.unwrap_or_default(),
            program: e.program(),
            zobrist: e.zobrist(),
            pos: P::of(e),
            mover: e.state.mover,
            result: e.state.result,
            again: false,
            overflow: false,
            step_limit: e.step_limit(),
            exhausted: e.exhausted,
        }
    }

    /// Lists the legal moves (none once the game is over), as [`Engine::legal_moves`].
    #[inline]
    fn legal_moves<T: FastTurn<P = P>>(&mut self, out: &mut Vec<Move>) {
        out.clear();
        if self.result.is_some() || self.exhausted {
            return;
        }
        let mut g = Gen::new(out, self.step_limit);
        T::generate(self, &mut g);
        self.overflow |= g.overflow;
        if g.steps_left == 0 {
            self.exhausted = true;
            out.clear();
        }
    }

    /// Returns to the position, player to move and (unfinished) game before a move.
    #[inline]
    fn take_back(&mut self, pos: P, mover: u8) {
        self.pos = pos;
        self.mover = mover;
        self.result = None;
        if self.keeps_history {
            self.history.pop();
        }
    }

    /// Plays a move and passes the turn, as [`Engine::apply`].
    #[inline]
    fn play<T: FastTurn<P = P>>(&mut self, m: &Move) {
        self.again = false;
        T::apply(self, m);
        if self.result.is_none() && !self.again {
            self.mover = 1 - self.mover;
            if self.keeps_history {
                let z = self.zobrist;
                *self.pos.hash_mut() ^= z.mover(1 - self.mover) ^ z.mover(self.mover);
            }
        }
        if self.keeps_history {
            self.note_position();
        }
    }

    /// Adds the position to the history, as [`Engine::apply`] does.
    fn note_position(&mut self) {
        let key = history_key(
            self.program,
            self.zobrist,
            *self.pos.hash_mut(),
            self.pos.counters(),
            self.mover,
        );
        self.history.push(key);
    }

    /// The history lent by the engine, for [`Engine::return_history`].
    fn take_history(&mut self) -> Option<Line> {
        self.keeps_history
            .then(|| std::mem::take(&mut self.history))
    }
}

/// The engine's [`GenerateFn`] for a [`FastTurn`]: its walk run on the engine's position
/// value, so that a generated crate holds one copy of the walk, not one per host.
pub fn fast_generate<T: FastTurn>(e: &mut Engine<'_>, g: &mut Gen<'_>) {
    let lent = e.lend_history();
    let start = lent.as_ref().map_or(0, Line::len);
    let mut host = Fast::<T::P>::of(e, lent);
    T::generate(&mut host, g);
    if let Some(history) = host.take_history() {
        e.return_history(history, start, false);
    }
}

/// [`perft`](super::perft::perft) on the position value: every move applied to a copy.
pub fn fast_perft<T: FastTurn>(e: &mut Engine<'_>, depth: u32) -> u64 {
    let lent = e.lend_history();
    let start = lent.as_ref().map_or(0, Line::len);
    let mut host = Fast::<T::P>::of(e, lent);
    let mut buffers: Vec<Vec<Move>> = (0..depth).map(|_| Vec::with_capacity(64)).collect();
    let nodes = fast_count::<T>(&mut host, &mut buffers);
    let (overflow, exhausted) = (host.overflow, host.exhausted);
    let history = host.take_history();
    if let Some(history) = history {
        e.return_history(history, start, false);
    }
    e.overflowed |= overflow;
    if exhausted {
        e.mark_exhausted();
    }
    nodes
}

fn fast_count<T: FastTurn>(h: &mut Fast<'_, T::P>, buffers: &mut [Vec<Move>]) -> u64 {
    let Some((moves, deeper)) = buffers.split_first_mut() else {
        return 1;
    };
    h.legal_moves::<T>(moves);
    let (pos, mover) = (h.pos, h.mover);
    if deeper.is_empty() {
        // The last ply: each move is still applied, without a call for its count of one.
        for m in moves.iter() {
            h.play::<T>(m);
            h.take_back(pos, mover);
        }
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for m in moves.iter() {
        h.play::<T>(m);
        nodes += fast_count::<T>(h, deeper);
        h.take_back(pos, mover);
    }
    nodes
}

/// Plays uniformly random moves on the position value until the game ends, the player to
/// move is stuck, `max_plies` were played or `stop` (asked before each ply) cuts it. Draws
/// from `rng` exactly as the engine's own loop in
/// [`random_game`](super::playout::random_game). When the player to move is stuck, or when
/// asked to `keep` it, the end position goes to the engine (unlogged, as
/// [`Engine::play_unlogged`] would) after [`Engine::save`]; otherwise the engine is untouched.
pub fn fast_play<T: FastTurn>(
    e: &mut Engine<'_>,
    rng: &mut ChaCha8Rng,
    max_plies: u32,
    moves: &mut Vec<Move>,
    keep: bool,
    stop: &mut dyn FnMut() -> bool,
) -> FastPlay {
    let lent = e.lend_history();
    let start = lent.as_ref().map_or(0, Line::len);
    let mut host = Fast::<T::P>::of(e, lent);
    let mut plies = 0;
    let mut stuck = false;
    let mut cut = false;
    while plies < max_plies && host.result.is_none() {
        if stop() {
            cut = true;
            break;
        }
        host.legal_moves::<T>(moves);
        if moves.is_empty() {
            stuck = true;
            break;
        }
        let m = moves[rng.gen_range(0..moves.len())];
        host.play::<T>(&m);
        plies += 1;
    }
    let (pos, mover, result) = (host.pos, host.mover, host.result);
    let (overflow, exhausted) = (host.overflow, host.exhausted);
    let history = host.take_history();
    e.overflowed |= overflow;
    if exhausted {
        e.mark_exhausted();
    }
    let stored = stuck || keep;
    if stored {
        e.save();
        pos.store(e);
        e.finish_unlogged(mover, result, plies);
    }
    if let Some(history) = history {
        e.return_history(history, start, stored);
    }
    FastPlay {
        plies,
        stuck,
        result,
        stored,
        cut,
    }
}

/// The decisions of a move being applied, read in order.
pub struct Replay<'m> {
    decisions: &'m Move,
    read: usize,
}

impl<'m> Replay<'m> {
    #[must_use]
    pub fn new(decisions: &'m Move) -> Replay<'m> {
        Replay { decisions, read: 0 }
    }

    /// The next decision. The length is not checked: compiled apply replays moves its own
    /// walk listed, which take exactly the decisions it reads (a move cut short reads bytes
    /// left over past its length, where the interpreter reads 0).
    #[inline]
    pub fn decision(&mut self) -> u8 {
        let d = self.decisions.raw_decision(self.read);
        self.read += 1;
        d
    }
}

/// The enclosing walk of a `distinct` block, restored by [`Engine::rt_distinct_leave`].
pub struct DistinctSaved(DistinctOuter);

#[doc(hidden)]
impl Engine<'_> {
    /// What the generated functions for sets, integers and conditions read.
    #[inline]
    #[must_use]
    pub fn view(&self) -> View<'_> {
        View {
            program: self.program(),
            zobrist: self.zobrist(),
            history: self.history_line(),
            mover: self.state.mover,
            result: self.state.result,
        }
    }

    /// The player to move (generated code for programs with `distinct` calls the engine by
    /// name; other programs go through [`Host`]).
    #[inline]
    #[must_use]
    pub fn rt_mover(&self) -> u8 {
        self.state.mover
    }

    #[inline]
    #[must_use]
    pub fn rt_result(&self) -> Option<GameResult> {
        self.state.result
    }

    /// Changes a cell of the real position, on the trail.
    #[inline]
    pub fn rt_set_cell(&mut self, cell: usize, code: u8) {
        self.set_cell(cell, code);
    }

    #[inline]
    pub fn rt_set_counter(&mut self, slot: usize, value: i32) {
        self.set_counter(slot, value);
    }

    #[inline]
    pub fn rt_finish(&mut self, result: super::GameResult) {
        self.finish(result);
    }

    #[inline]
    pub fn rt_distinct_enter(&mut self, block: u8) -> DistinctSaved {
        DistinctSaved(self.distinct_enter(block))
    }

    #[inline]
    pub fn rt_distinct_leave(&mut self, block: u8, saved: DistinctSaved) {
        self.distinct_leave(block, saved.0);
    }

    /// Whether a position with this hash is a new end of the block's current walk.
    #[inline]
    pub fn rt_distinct_first(&mut self, block: u8, hash: u64) -> bool {
        self.distinct_first(block, hash)
    }

    /// Whether the block's current walk reaches a loop head with this key for the first time.
    #[inline]
    pub fn rt_memo_first(&mut self, block: u8, key: u64) -> bool {
        self.memo_insert(block, key)
    }

    /// `again`: the mover keeps the turn after this move.
    #[inline]
    pub fn rt_again(&mut self) {
        self.set_again();
    }
}

/// The key of a loop head in a `distinct` walk ([`rulestone_ir::Op::Memo`]): the position's
/// hash, the op, the turn variables, the `place` slots and the `let` sets.
#[must_use]
pub fn memo_key<const W: usize>(
    hash: u64,
    pc: usize,
    vars: &[u16],
    placed: &[u16],
    locals: &[CellBits<W>],
) -> u64 {
    const K: u64 = 0x9E37_79B9_7F4A_7C15;
    let mix = |h: u64, x: u64| (h.rotate_left(23) ^ x).wrapping_mul(K);
    let mut h = mix(hash, pc as u64);
    for chunk in vars.chunks(4) {
        let word = chunk
            .iter()
            .rev()
            .fold(0u64, |w, &x| (w << 16) | u64::from(x));
        h = mix(h, word);
    }
    for p in placed {
        h = mix(h, u64::from(*p));
    }
    for set in locals {
        for w in set.words() {
            h = mix(h, w);
        }
    }
    h
}
