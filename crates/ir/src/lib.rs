//! The move-table IR: dense tables indexed by cell id and a small bytecode for the turn
//! program. Names survive only for printing; move generation never looks at a string.
//!
//! The IR knows no source: it depends on no stage above it (no syntax tree, no checker). The
//! lowering (`rulestone-lower`) writes programs through [`build`]; the runtime and the code
//! generator read them; [`dump`] and [`parse`] are its exact text form.

pub mod build;
mod cellset;
pub mod dump;
mod error;
pub mod fingerprint;
mod names;
pub mod ops;
pub mod parse;
pub mod passes;
pub mod table;
pub mod unordered;
pub mod visit;

pub use cellset::{words_for, CellBits, CellIter, CellSet, CellSet64, SET_WORDS};
pub use error::BuildError;
pub use names::piece_kind_and_owner;
use rulestone_base::decimal::DECIMAL_SCALE;
pub use visit::Operand;

/// Index of a cell, in declaration order.
pub type Cell = usize;

/// The most turn variables (picked cells and loop counters) a program may use.
pub const MAX_VARS: usize = 16;

/// The most `let` sets a program may hold at once.
pub const MAX_SET_LOCALS: usize = 4;

/// The most `place` variables a turn may bind.
pub const MAX_PLACED: usize = 2;

/// The most decisions one move may hold (a move is three machine words: a length byte and up
/// to 23 decision bytes). `check` refuses a turn that could need more (E1007).
pub const MAX_DECISIONS: usize = 23;

/// The most steps (choices tried, moves completed and loop rounds) generating one position's
/// moves may take, on either backend. A turn that chooses among many cells in many rounds, or
/// loops nested in loops, could otherwise run for ever; past this, generation stops and the
/// command ends with E1008. `check` cannot find it in general: the work depends on the position.
pub const MAX_STEPS: u64 = 10_000_000;

/// The most loop rounds (of `repeat`s and `while`s, nested or one after another) one path
/// through a turn may run while its moves are listed. Compiled code runs a round as a call, so
/// this bounds its stack; past it, generation stops as at [`MAX_STEPS`] (E1008), on either
/// backend.
pub const MAX_PATH_ROUNDS: u32 = 4096;

/// A mark the board drawing puts after the piece on every cell of `set`, and the words that
/// explain it in the legend under the drawing.
#[derive(Clone, Debug, Hash, PartialEq, Eq)]
pub struct Marker {
    pub text: String,
    pub set: SetId,
    pub legend: String,
}

/// The source span (byte range) of each `require` statement, by the condition it lowered to
/// (or of each `pick`'s set, by the set): what `play`'s `why` quotes when a rule refuses a move. Source positions are not part of the
/// program's meaning, so they are left out of its hash and its debug text (the fingerprint of
/// generated code), and the IR text form does not keep them.
#[derive(Clone, Default)]
pub struct RuleSpans(pub Vec<(BoolId, (usize, usize))>);

impl RuleSpans {
    /// The span of the `require` whose condition is `cond` (or of the `pick` set `cond`), if
    /// the source had one.
    #[must_use]
    pub fn of(&self, cond: u16) -> Option<(usize, usize)> {
        self.0.iter().find(|(b, _)| *b == cond).map(|(_, s)| *s)
    }
}

impl std::hash::Hash for RuleSpans {
    fn hash<H: std::hash::Hasher>(&self, _: &mut H) {}
}

impl std::fmt::Debug for RuleSpans {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("RuleSpans")
    }
}

#[derive(Clone, Debug, Default, Hash)]
pub struct Program {
    pub name: String,
    pub players: Vec<String>,
    pub board: Board,
    /// Neighbour tables, one per relation or direction.
    pub relations: Vec<Relation>,
    pub patterns: Vec<Pattern>,
    pub zones: Vec<Zone>,
    pub pieces: Vec<Piece>,
    /// Counter slots; a per-player counter takes one slot per player.
    pub counters: Vec<Counter>,
    pub sets: Vec<SetExpr>,
    pub ints: Vec<IntExpr>,
    pub bools: Vec<BoolExpr>,
    pub templates: Vec<Template>,
    pub setup: Code,
    pub turn: Code,
    pub no_moves: Code,
    /// How many `distinct` blocks the turn program has (each needs a seen-set).
    pub distinct_blocks: usize,
    /// Per-cell counters (`counter height per cell`): name and the slot of cell 0.
    pub layers: Vec<(String, u16)>,
    pub shapes: Vec<Shape>,
    /// One table per `place` statement.
    pub placements: Vec<Placements>,
    /// `score p = ...`, one expression per player.
    pub score: Option<[IntId; 2]>,
    /// Whether the score is a decimal number, its values in hundredths
    /// ([`rulestone_base::decimal::DECIMAL_SCALE`]).
    pub score_decimal: bool,
    /// `heuristic p = ...`, one expression per player: how promising a position looks.
    pub heuristic: Option<[IntId; 2]>,
    /// `marker "o" on CELLS legend "..."`: text drawn on the cells of a set.
    pub markers: Vec<Marker>,
    /// `status "..." when c`: lines shown under the board, with their conditions.
    pub status: Vec<(u16, Option<BoolId>)>,
    /// Options as resolved for this program, for display.
    pub options: Vec<(String, String)>,
    /// What `repetitions` leaves out when it compares positions (`repetitions ignore`).
    pub history_ignores: HistoryIgnores,
    /// Where each `require` of the source is, for explaining a refused move.
    pub rule_spans: RuleSpans,
    /// Where the set of each `pick` of a cell is in the source, by the set it lowered to, for
    /// explaining a cell the `pick` leaves out.
    pub pick_spans: RuleSpans,
}

/// What `repetitions` leaves out of the positions it compares: counter slots, and whether the
/// player to move counts. The engine keys its history with these parts taken out of the hash.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct HistoryIgnores {
    /// Counter slots, ascending, each once.
    pub slots: Vec<u16>,
    /// Whether the player to move is left out.
    pub mover: bool,
}

impl Program {
    /// A score's value as text: an integer, or a decimal number for a decimal score.
    #[must_use]
    pub fn score_text(&self, value: i64) -> String {
        score_text(value, self.score_scale())
    }

    /// How many units of a score make one point: 1, or [`DECIMAL_SCALE`] for a decimal score
    /// (kept in hundredths).
    #[must_use]
    pub fn score_scale(&self) -> i64 {
        if self.score_decimal {
            DECIMAL_SCALE
        } else {
            1
        }
    }

    /// Whether a picked cell is recorded in two decisions (high byte, then low): on a board
    /// with more than 256 cells an id may not fit one byte.
    #[must_use]
    pub fn wide_picks(&self) -> bool {
        self.board.len() > 256
    }

    /// Whether the turn program rolls (its moves may be chance moves).
    #[must_use]
    pub fn has_chance(&self) -> bool {
        self.turn.ops.iter().any(|op| matches!(op, Op::Roll { .. }))
    }

    /// Whether the rules read the game's history (`repetitions`): then the engine keeps the
    /// hash of every position of the game, and a position's moves depend on how it was reached.
    #[must_use]
    pub fn uses_history(&self) -> bool {
        self.ints.iter().any(|i| matches!(i, IntExpr::Repetitions))
    }
}

#[derive(Clone, Debug, Default, Hash)]
pub struct Board {
    pub axes: Vec<String>,
    pub names: Vec<String>,
    /// `coords[cell * axes + axis]`
    pub coords: Vec<i32>,
    pub all: CellSet,
    /// Per axis: the lowest coordinate and `at_most[k]` = cells whose coordinate is at most
    /// `lowest + k`, so coordinate comparisons are two table lookups.
    pub axis_tables: Vec<(i32, Vec<CellSet>)>,
}

impl Board {
    /// A board of these cells (`coords[cell * axes + axis]`), with the tables derived from them.
    #[must_use]
    pub fn new(axes: Vec<String>, names: Vec<String>, coords: Vec<i32>) -> Board {
        let axis_tables = Board::build_axis_tables(axes.len(), &coords, names.len());
        Board {
            all: CellSet::first_n(names.len()),
            axes,
            names,
            coords,
            axis_tables,
        }
    }

    #[must_use]
    pub fn len(&self) -> usize {
        self.names.len()
    }

    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    #[inline]
    #[must_use]
    pub fn coord(&self, cell: Cell, axis: usize) -> i32 {
        self.coords[cell * self.axes.len() + axis]
    }

    /// Builds [`Board::axis_tables`] from the coordinates.
    #[must_use]
    pub fn build_axis_tables(
        axes: usize,
        coords: &[i32],
        cells: usize,
    ) -> Vec<(i32, Vec<CellSet>)> {
        (0..axes)
            .map(|a| {
                let values = (0..cells).map(|c| coords[c * axes + a]);
                let lo = values.clone().min().unwrap_or(0);
                let hi = values.max().unwrap_or(0);
                let mut at_most = Vec::new();
                let mut acc = CellSet::EMPTY;
                for v in lo..=hi {
                    for c in 0..cells {
                        if coords[c * axes + a] == v {
                            acc.insert(c);
                        }
                    }
                    at_most.push(acc);
                }
                (lo, at_most)
            })
            .collect()
    }

    /// Cells whose coordinate `v_c` on `axis` is at most `v`.
    #[inline]
    #[must_use]
    pub fn at_most(&self, axis: usize, v: i32) -> CellSet {
        let (lo, table) = &self.axis_tables[axis];
        if v < *lo {
            return CellSet::EMPTY;
        }
        let k = (i64::from(v) - i64::from(*lo)) as usize;
        table.get(k).copied().unwrap_or(self.all)
    }

    /// Cells whose coordinate on `axis` compares with `v` by `op`.
    #[inline]
    #[must_use]
    pub fn axis_cmp(&self, axis: usize, op: CmpOp, v: i32) -> CellSet {
        let le = |x: i32| self.at_most(axis, x);
        match op {
            CmpOp::Le => le(v),
            CmpOp::Lt => le(v.saturating_sub(1)),
            CmpOp::Gt => self.all - le(v),
            CmpOp::Ge => self.all - le(v.saturating_sub(1)),
            CmpOp::Eq => le(v) - le(v.saturating_sub(1)),
            CmpOp::Ne => self.all - (le(v) - le(v.saturating_sub(1))),
        }
    }

    /// The cells of `within` whose row along `axis` (the cells sharing that coordinate)
    /// passes `keep`, asked of the row's first cell: a condition that reads a cell only through
    /// that coordinate is tested once per row that meets `within`, not once per cell.
    #[inline]
    pub fn rows_where<const W: usize>(
        &self,
        axis: usize,
        within: CellBits<W>,
        mut keep: impl FnMut(Cell) -> bool,
    ) -> CellBits<W> {
        let mut out = CellBits::<W>::EMPTY;
        let mut below = CellBits::<W>::EMPTY;
        for at_most in &self.axis_tables[axis].1 {
            let at_most = at_most.resized::<W>();
            let row = at_most - below;
            below = at_most;
            if row.intersects(&within) && row.first().is_some_and(&mut keep) {
                out |= row;
            }
        }
        out & within
    }
}

/// For each cell, the cells one step away along the relation's vectors.
#[derive(Clone, Debug, Hash)]
pub struct Relation {
    pub name: String,
    /// Along every vector, whoever it belongs to.
    pub masks: Vec<CellSet>,
    /// For a player-relative relation (`... for White`), one table per player, with that
    /// player's vectors and the shared ones; empty otherwise.
    pub per_player: Vec<Vec<CellSet>>,
    /// One table per vector, in declaration order, for functions that walk lines
    /// (`between`, `brackets`, `ray`, `run`) and for direction values (`pick d in R`).
    pub rays: Vec<Ray>,
    /// Per vector: the index of the opposite vector, [`NO_DIR`] when the relation lacks it.
    pub opposite: Vec<u8>,
    /// Per vector: its name for notation (the direction declared with it, else the vector).
    pub names: Vec<String>,
    /// Per axis, per vector: the index of the vector with that axis's component negated
    /// (`flip(d, axis)`), [`NO_DIR`] when the relation lacks it.
    pub mirrors: Vec<Vec<u8>>,
}

/// "No direction": the value of `-d` when the relation has no opposite vector.
pub const NO_DIR: u8 = u8::MAX;

/// A direction value: one vector of a relation, by its index in [`Relation::rays`].
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum DirExpr {
    /// A `pick d in R` variable.
    Var(u8),
    /// `-d`: the opposite vector.
    Neg(Box<DirExpr>),
    /// `right(d, k)` (`k` places on in the relation's order, wrapping) or `left(d, k)` (`-k`).
    Turn(Box<DirExpr>, i32),
    /// `dir(R, i)`: the vector at index `i` of the relation (wrapping).
    Index(IntId),
    /// `flip(d, axis)`: the vector with that axis's component negated.
    Mirror(Box<DirExpr>, u8),
}

impl DirExpr {
    /// The vector index, [`NO_DIR`] when there is none; `vars` holds the turn variables and
    /// `int` evaluates the integers `dir(R, i)` reads.
    #[must_use]
    pub fn eval(&self, rel: &Relation, vars: &[u16], int: &dyn Fn(IntId) -> i32) -> u8 {
        match self {
            DirExpr::Var(v) => vars
                .get(usize::from(*v))
                .and_then(|&d| u8::try_from(d).ok())
                .unwrap_or(NO_DIR),
            DirExpr::Neg(d) => match d.eval(rel, vars, int) {
                NO_DIR => NO_DIR,
                i => rel.opposite.get(usize::from(i)).copied().unwrap_or(NO_DIR),
            },
            DirExpr::Turn(d, k) => match d.eval(rel, vars, int) {
                NO_DIR => NO_DIR,
                i => rel.turn(i, *k),
            },
            DirExpr::Index(i) => rel.turn(0, int(*i)),
            DirExpr::Mirror(d, axis) => match d.eval(rel, vars, int) {
                NO_DIR => NO_DIR,
                i => rel
                    .mirrors
                    .get(usize::from(*axis))
                    .and_then(|m| m.get(usize::from(i)))
                    .copied()
                    .unwrap_or(NO_DIR),
            },
        }
    }

    /// Whether it reads the position (`dir(R, i)` does).
    #[must_use]
    pub fn reads_position(&self) -> bool {
        match self {
            DirExpr::Var(_) => false,
            DirExpr::Neg(d) | DirExpr::Turn(d, _) | DirExpr::Mirror(d, _) => d.reads_position(),
            DirExpr::Index(_) => true,
        }
    }
}

impl Relation {
    /// The vector `k` places on from vector `i` in declaration order, wrapping.
    #[must_use]
    pub fn turn(&self, i: u8, k: i32) -> u8 {
        let n = i64::try_from(self.rays.len()).unwrap_or(1).max(1);
        let j = (i64::from(i) + i64::from(k)).rem_euclid(n);
        u8::try_from(j).unwrap_or(NO_DIR)
    }
}

/// The cells reached by repeating one vector: `next[c]` is the cell one step on from `c`,
/// [`NO_CELL`] off the board.
#[derive(Clone, Debug)]
pub struct Ray {
    /// The player whose vector this is (`... for White`); `None` for both.
    pub owner: Option<u8>,
    pub next: Vec<u16>,
    /// The ray as one cell-index offset, when it is one: `Some((k, has))` when every cell of
    /// `has` (the cells with a next cell) steps to `c + k`. On boards numbered row by row every
    /// straight vector is, and then a whole set walks the ray with one shift.
    pub shift: Option<(i32, CellSet)>,
    /// Every cell's whole line, for `ray` and `run` without walking (see [`Reach`]).
    pub reach: Reach,
}

/// A [`Ray`]'s lines as bitsets: for each cell, the cells after it to the board's edge, in the
/// board's width of words ([`words_for`]). Kept when cell ids only rise (or only fall) along
/// the vector, as on boards numbered row by row: the cell of a set on a line nearest its start
/// is then the set's lowest (or highest), and `run(R, from, S)` is the line from `from` less
/// the line from its first cell outside `S` (a bit scan and two lookups per vector, not a
/// step per cell). Derived from `next` alone, so it takes no part in the program's hash.
/// Only for boards of at most 256 cells, which keeps the table small (32 bytes a line).
#[derive(Clone, Debug, Default)]
pub struct Reach {
    /// Words per line; 0 when the ray has no table.
    words: usize,
    /// Whether ids rise along the vector (else they fall).
    rising: bool,
    lines: Vec<u64>,
}

/// The largest board whose rays keep [`Reach`] tables.
const REACH_MAX_CELLS: usize = 256;

impl Reach {
    /// The table of the ray `next`, when ids run one way along it.
    fn of(next: &[u16]) -> Reach {
        let cells = next.len();
        let steps = || next.iter().enumerate().filter(|(_, &t)| t != NO_CELL);
        let rising = steps().all(|(c, &t)| usize::from(t) > c);
        let falling = steps().all(|(c, &t)| usize::from(t) < c);
        if cells > REACH_MAX_CELLS || !(rising || falling) {
            return Reach::default();
        }
        let words = words_for(cells);
        let mut lines = vec![0u64; cells * words];
        for from in 0..cells {
            let line = &mut lines[from * words..(from + 1) * words];
            let mut c = next[from];
            // Ids move one way, so the walk ends within `cells` steps.
            while c != NO_CELL {
                let c_at = usize::from(c);
                line[c_at / 64] |= 1 << (c_at % 64);
                c = next[c_at];
            }
        }
        Reach {
            words,
            rising,
            lines,
        }
    }

    /// The cells after `from` to the edge, when the table is kept in `W` words.
    #[inline]
    fn line<const W: usize>(&self, from: usize) -> Option<CellBits<W>> {
        if self.words != W {
            return None;
        }
        let words = self.lines.get(from * W..(from + 1) * W)?;
        Some(CellBits::from_words(std::array::from_fn(|i| words[i])))
    }

    /// The cells after `from` while in `run` (to the edge for `None`), from the table.
    #[inline]
    fn run<const W: usize>(&self, from: usize, run: Option<CellBits<W>>) -> Option<CellBits<W>> {
        let line = self.line::<W>(from)?;
        let Some(run) = run else {
            return Some(line);
        };
        let stops = line - run;
        let first = if self.rising {
            stops.first()
        } else {
            stops.last()
        };
        match first {
            None => Some(line),
            Some(stop) => Some(line - self.line::<W>(stop)? - CellBits::single(stop)),
        }
    }
}

/// The hash of the ray's definition: the derived tables add nothing (the same as before they
/// were kept, so that fingerprints of generated code stay valid).
impl std::hash::Hash for Ray {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.owner.hash(state);
        self.next.hash(state);
        self.shift.hash(state);
    }
}

/// "No cell" in [`Ray::next`].
pub const NO_CELL: u16 = u16::MAX;

impl Relation {
    /// The vectors `player` moves along.
    fn rays_for(&self, player: u8) -> impl Iterator<Item = &Ray> {
        self.rays
            .iter()
            .filter(move |r| r.owner.is_none_or(|o| o == player))
    }

    /// Whether vector `i` is one `player` moves along.
    #[must_use]
    pub fn has_ray_for(&self, i: usize, player: u8) -> bool {
        self.rays
            .get(i)
            .is_some_and(|r| r.owner.is_none_or(|o| o == player))
    }

    /// The cells one step along vector `dir` from the cells of `of`, in sets of `W` words
    /// (the fewest the board needs; see [`words_for`]).
    #[must_use]
    pub fn step_along<const W: usize>(&self, dir: u8, of: CellBits<W>) -> CellBits<W> {
        let mut out = CellBits::<W>::EMPTY;
        if let Some(ray) = self.rays.get(usize::from(dir)) {
            for c in of.iter() {
                match ray.next.get(c).copied() {
                    Some(NO_CELL) | None => {}
                    Some(t) => out.insert(usize::from(t)),
                }
            }
        }
        out
    }

    /// `ray` and `run`: the cells after `from` along vector `dir` (every vector `player` moves
    /// along, for `None`; nothing for [`NO_DIR`]), stopping at the board's edge or, with `run`,
    /// at the first cell outside it.
    #[must_use]
    pub fn line<const W: usize>(
        &self,
        player: u8,
        dir: Option<u8>,
        from: usize,
        run: Option<CellBits<W>>,
    ) -> CellBits<W> {
        let walk = |ray: &Ray| {
            if let Some(line) = ray.reach.run(from, run) {
                return line;
            }
            let mut out = CellBits::<W>::EMPTY;
            let mut c = ray.next.get(from).copied().unwrap_or(NO_CELL);
            for _ in 0..ray.next.len() {
                if c == NO_CELL || run.is_some_and(|r| !r.contains(usize::from(c))) {
                    break;
                }
                out.insert(usize::from(c));
                c = ray.next[usize::from(c)];
            }
            out
        };
        match dir {
            None => {
                let mut out = CellBits::<W>::EMPTY;
                for ray in self.rays_for(player) {
                    out |= walk(ray);
                }
                out
            }
            Some(d) => self.rays.get(usize::from(d)).map_or(CellBits::EMPTY, walk),
        }
    }

    /// `between(R, from, run, end)`: per vector, the run of `run` cells starting next to
    /// `from` when the cell just past it is in `end`.
    #[must_use]
    pub fn between<const W: usize>(
        &self,
        player: u8,
        from: usize,
        run: CellBits<W>,
        end: CellBits<W>,
    ) -> CellBits<W> {
        let mut out = CellBits::<W>::EMPTY;
        for ray in self.rays_for(player) {
            if let Some(line) = ray.closed_run(from, run, end) {
                out |= line;
            }
        }
        out
    }

    /// `brackets(R, run, end)` within `domain`: cells with a closed run along some vector.
    #[must_use]
    pub fn brackets<const W: usize>(
        &self,
        player: u8,
        domain: CellBits<W>,
        run: CellBits<W>,
        end: CellBits<W>,
    ) -> CellBits<W> {
        let mut out = CellBits::<W>::EMPTY;
        for ray in self.rays_for(player) {
            out |= ray.brackets(domain - out, run, end);
        }
        out
    }
}

impl Ray {
    #[must_use]
    pub fn new(owner: Option<u8>, next: Vec<u16>) -> Ray {
        let mut ray = Ray {
            owner,
            reach: Reach::of(&next),
            next,
            shift: None,
        };
        ray.shift = ray.as_shift();
        ray
    }

    /// The cells of `domain` whose next cell starts a closed run of `run` (see
    /// [`Ray::closed_run`]), in sets of `W` words (the fewest the board needs, so that the
    /// growing loop costs a small board no more than its own width). As a shift, the runs
    /// grow backwards from `end` (only `end - run` closes one: a run stops at its first cell
    /// outside `run`) until they stop growing.
    #[must_use]
    pub fn brackets<const W: usize>(
        &self,
        domain: CellBits<W>,
        run: CellBits<W>,
        end: CellBits<W>,
    ) -> CellBits<W> {
        let Some((k, has)) = self.shift else {
            let mut out = CellBits::<W>::EMPTY;
            for c in domain.iter() {
                if self.closed_run(c, run, end).is_some() {
                    out.insert(c);
                }
            }
            return out;
        };
        let has = CellBits::<W>::from_set(has);
        let on = run & has;
        let mut x = (end - run).shifted(-k) & on;
        if x.is_empty() {
            return CellBits::EMPTY;
        }
        loop {
            let y = x | (x.shifted(-k) & on);
            if y == x {
                break;
            }
            x = y;
        }
        x.shifted(-k) & has & domain
    }

    /// [`Ray::shift`], found from the table.
    fn as_shift(&self) -> Option<(i32, CellSet)> {
        let mut offset = None;
        let mut has = CellSet::EMPTY;
        for (c, &t) in self.next.iter().enumerate() {
            if t == NO_CELL {
                continue;
            }
            let k = i32::from(t) - i32::try_from(c).ok()?;
            if *offset.get_or_insert(k) != k {
                return None;
            }
            has.insert(c);
        }
        match offset {
            // A zero vector never leaves its cell: no walk may treat it as a shift.
            Some(0) => None,
            k => Some((k.unwrap_or(0), has)),
        }
    }

    /// The cells after `from` while they are in `run`, if there is at least one and the
    /// next cell is in `end`.
    #[must_use]
    pub fn closed_run<const W: usize>(
        &self,
        from: usize,
        run: CellBits<W>,
        end: CellBits<W>,
    ) -> Option<CellBits<W>> {
        let mut line = CellBits::<W>::EMPTY;
        let mut c = self.next.get(from).copied().unwrap_or(NO_CELL);
        // A line never revisits a cell; the bound only guards a zero vector.
        for _ in 0..self.next.len() {
            if c == NO_CELL || !run.contains(usize::from(c)) {
                break;
            }
            line.insert(usize::from(c));
            c = self.next[usize::from(c)];
        }
        (!line.is_empty() && c != NO_CELL && end.contains(usize::from(c))).then_some(line)
    }
}

impl Relation {
    /// Its neighbour tables: the one table, or one per player when it is player-relative.
    #[must_use]
    pub fn tables(&self) -> Vec<&[CellSet]> {
        if self.per_player.is_empty() {
            vec![&self.masks]
        } else {
            self.per_player.iter().map(Vec::as_slice).collect()
        }
    }

    /// The neighbour table as seen by `player`.
    #[inline]
    #[must_use]
    pub fn masks_for(&self, player: u8) -> &[CellSet] {
        self.per_player
            .get(usize::from(player))
            .map_or(&self.masks, |t| t.as_slice())
    }
}

/// For each cell, the instances of the pattern that contain it.
#[derive(Clone, Debug, Hash)]
pub struct Pattern {
    pub name: String,
    /// `instances[offsets[c]..offsets[c + 1]]` contain cell `c`.
    pub offsets: Vec<u32>,
    pub instances: Vec<CellSet>,
}

#[derive(Clone, Debug, Hash)]
pub struct Zone {
    pub name: String,
    pub cells: CellSet,
}

#[derive(Clone, Debug, Hash)]
pub struct Piece {
    pub name: String,
    /// One display symbol per player.
    pub symbols: Vec<String>,
}

/// A piece made of cells with spans (`shape`); each player starts with `count` copies.
#[derive(Clone, Debug, Hash)]
pub struct Shape {
    pub name: String,
    pub count: i32,
    pub points: i32,
    /// The mark after the name of an upside-down copy; `None`: it is never turned over.
    pub flip: Option<String>,
    /// The counter slot of player 0's stock (player 1's is next).
    pub stock: u16,
}

/// Every distinct way one `place` statement can put each shape on the board, precomputed: the
/// move generator only settles and tests them. Placements covering the same cells with the
/// same spans are kept once, the first in generation order (anchor in board order, then turn,
/// then right side up before upside down).
#[derive(Clone, Debug, Hash)]
pub struct Placements {
    /// The turns' names (the relation's members), for notation.
    pub facings: Vec<String>,
    /// `instances[by_shape[s].0..by_shape[s].1]` place shape `s`.
    pub by_shape: Vec<(u32, u32)>,
    pub instances: Vec<Placement>,
    pub parts: Vec<PlacedCell>,
}

#[derive(Clone, Copy, Debug, Hash)]
pub struct Placement {
    pub shape: u8,
    pub anchor: u16,
    pub facing: u8,
    pub flipped: bool,
    pub cells: CellSet,
    /// `parts[first..first + len]` of the table.
    pub first: u32,
    pub len: u8,
    /// The highest top face, above the base.
    pub max_top: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct PlacedCell {
    pub cell: u16,
    pub bottom: u8,
    pub top: u8,
    pub foot: bool,
}

impl Placements {
    #[must_use]
    pub fn parts_of(&self, p: &Placement) -> &[PlacedCell] {
        let first = p.first as usize;
        &self.parts[first..first + usize::from(p.len)]
    }
}

#[derive(Clone, Debug, Hash)]
pub struct Counter {
    pub name: String,
    /// Which player this slot belongs to, for per-player counters.
    pub player: Option<u8>,
    pub initial: i32,
    pub view: CounterView,
}

/// How the board drawing shows a counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CounterView {
    Plain,
    Hidden,
    /// The name of the direction of this relation whose index the counter holds.
    Directions(u16),
}

pub type SetId = u16;
pub type IntId = u16;
pub type BoolId = u16;

/// Where a cell value comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CellRef {
    Var(u8),
    Const(u16),
    /// The cell being tested by a `where` filter.
    Candidate,
    /// The cell a token is on: the index held in this counter slot.
    Slot(u16),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PlayerRef {
    Mover,
    Opponent,
    Const(u8),
    Owner(CellRef),
}

#[derive(Clone, Debug, Hash)]
pub enum SetExpr {
    Const(CellSet),
    Empty,
    Occupied,
    PlayerPieces(PlayerRef),
    Pieces {
        code: u8,
        player: PlayerRef,
    },
    Single(CellRef),
    Union(SetId, SetId),
    Inter(SetId, SetId),
    Diff(SetId, SetId),
    /// Cells whose neighbours along the relation all lie in the set.
    All {
        relation: u16,
        of: SetId,
    },
    /// Cells with no neighbour along the relation in the set.
    None {
        relation: u16,
        of: SetId,
    },
    /// Cells with some neighbour along the relation in the set.
    Any {
        relation: u16,
        of: SetId,
    },
    /// Every neighbour along the relation of the set's cells.
    Step {
        relation: u16,
        of: SetId,
    },
    /// `group(R, S, T)`: the cells of `through` joined to a cell of `from` by steps of the
    /// relation that stay in `through` (the cells of `from` in `through` included).
    Group {
        relation: u16,
        from: SetId,
        through: SetId,
    },
    /// `one(S)`: the first cell of the set in board order (empty when the set is).
    First(SetId),
    /// `step(d, S)`: one step along a direction value of the relation.
    StepDir {
        relation: u16,
        dir: DirExpr,
        of: SetId,
    },
    /// `ray(d, c)` / `run(d, c, S)`: the cells after `from` along the direction (every
    /// direction of the relation when `dir` is `None`), up to the edge or the end of `run`.
    Line {
        relation: u16,
        dir: Option<DirExpr>,
        from: CellRef,
        run: Option<SetId>,
    },
    /// Per vector of the relation: the run of `run` cells that starts next to `from`, when
    /// the cell just past it is in `end`.
    Between {
        relation: u16,
        from: CellRef,
        run: SetId,
        end: SetId,
    },
    /// Cells from which, along some vector of the relation, a run of one or more `run` cells
    /// is closed by an `end` cell.
    Brackets {
        relation: u16,
        run: SetId,
        end: SetId,
    },
    Where {
        base: SetId,
        cond: BoolId,
    },
    /// The value of a `let`.
    Local(u8),
    /// The cells covered by the placement in a `place` slot.
    Placed {
        slot: u8,
        table: u16,
    },
    /// Cells whose coordinate on `axis` compares with `value` by `op` (a table lookup).
    AxisCmp {
        axis: u8,
        op: CmpOp,
        value: IntId,
    },
    /// The cells of `base` whose row along `axis` passes `cond`, tested once per row
    /// ([`Board::rows_where`]): `cond` reads the candidate only through that coordinate.
    AxisRows {
        base: SetId,
        axis: u8,
        cond: BoolId,
    },
    /// The cells of `base` whose row along `axis` has a `key` that compares with `value` by
    /// `op`: `key` reads the candidate only through that coordinate and is computed once per
    /// row ([`Board::rows_where`]), `value` does not read it and is computed once.
    AxisKey {
        base: SetId,
        axis: u8,
        key: IntId,
        op: CmpOp,
        value: IntId,
    },
}

#[derive(Clone, Debug, Hash)]
pub enum IntExpr {
    Const(i32),
    Counter(u16),
    /// A per-player counter: `base` is the slot of player 0.
    PlayerCounter {
        base: u16,
        player: PlayerRef,
    },
    Axis {
        cell: CellRef,
        axis: u8,
    },
    /// A per-cell counter: `base` is the slot of cell 0.
    CellCounter {
        base: u16,
        cell: CellRef,
    },
    /// The points of the player's unplayed shapes.
    Points(PlayerRef),
    /// `index(d)`: a direction value's index in its relation (-1 for none).
    DirIndex {
        relation: u16,
        dir: DirExpr,
    },
    /// 1 when the game is over and won by the player, else 0.
    Won(PlayerRef),
    /// `repetitions`: how many times the position the turn has made so far, with the
    /// opponent to move, has stood in this game, counting this time (see
    /// [`Program::uses_history`]).
    Repetitions,
    /// A cell's index (what a token's counter slot holds).
    CellId(CellRef),
    /// `then` when the condition holds, else `otherwise` (tracks read the mover's lanes so).
    Cond {
        cond: BoolId,
        then: IntId,
        otherwise: IntId,
    },
    Count(SetId),
    /// `sum(counter, S)`: the per-cell counter whose slot for cell 0 is `base`, added up over
    /// the cells of the set (wrapping, as `+` does).
    CellSum {
        base: u16,
        of: SetId,
    },
    Neg(IntId),
    Bin {
        op: IntOp,
        lhs: IntId,
        rhs: IntId,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    /// The larger operand (`max(a, b)`).
    Max,
    /// The smaller operand (`min(a, b)`).
    Min,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl CmpOp {
    /// Whether `a op b` holds: the one meaning of the comparisons, for the integers of board
    /// programs and the measures of table games alike.
    #[inline]
    #[must_use]
    pub fn holds<T: PartialOrd>(self, a: T, b: T) -> bool {
        match self {
            Self::Eq => a == b,
            Self::Ne => a != b,
            Self::Lt => a < b,
            Self::Le => a <= b,
            Self::Gt => a > b,
            Self::Ge => a >= b,
        }
    }

    /// The operator as the language writes it.
    #[must_use]
    pub fn symbol(self) -> &'static str {
        match self {
            Self::Eq => "==",
            Self::Ne => "!=",
            Self::Lt => "<",
            Self::Le => "<=",
            Self::Gt => ">",
            Self::Ge => ">=",
        }
    }

    /// The same comparison with its operands swapped: `a < b` is `b > a`.
    #[must_use]
    pub fn mirrored(self) -> Self {
        match self {
            Self::Eq => Self::Eq,
            Self::Ne => Self::Ne,
            Self::Lt => Self::Gt,
            Self::Le => Self::Ge,
            Self::Gt => Self::Lt,
            Self::Ge => Self::Le,
        }
    }
}

#[derive(Clone, Debug, Hash)]
pub enum BoolExpr {
    Const(bool),
    Not(BoolId),
    And(BoolId, BoolId),
    Or(BoolId, BoolId),
    Cmp {
        op: CmpOp,
        lhs: IntId,
        rhs: IntId,
    },
    CellEq {
        eq: bool,
        lhs: CellRef,
        rhs: CellRef,
    },
    PlayerEq {
        eq: bool,
        lhs: PlayerRef,
        rhs: PlayerRef,
    },
    In {
        cell: CellRef,
        set: SetId,
    },
    Completes {
        pattern: u16,
        cell: CellRef,
        set: SetId,
    },
    /// `d in R`: the direction value's vector is one of `R`'s for the mover (`members[player]`
    /// has bit `i` for vector `i` of the direction's relation).
    DirIn {
        relation: u16,
        dir: DirExpr,
        members: [u64; 2],
    },
    /// Some cell of `from` and some cell of `to` are joined by a path of `through` cells, each
    /// step along `relation` (the path's ends included in `through`).
    Connected {
        relation: u16,
        through: SetId,
        from: SetId,
        to: SetId,
    },
}

#[derive(Clone, Debug, Hash)]
pub struct Template {
    pub parts: Vec<TemplatePart>,
}

#[derive(Clone, Debug, Hash)]
pub enum TemplatePart {
    Text(String),
    Cell(CellRef),
    Int(IntId),
    Player(PlayerRef),
    Letter(IntId),
    /// A decimal number in hundredths, shown with its decimals (`7.5`).
    Decimal(IntId),
    /// A placed shape's name, with its flip mark when upside down.
    ShapeName {
        slot: u8,
        table: u16,
    },
    /// A placed shape's turn.
    Facing {
        slot: u8,
        table: u16,
    },
    /// A direction value's name.
    Dir {
        relation: u16,
        dir: DirExpr,
    },
}

/// How a `win`, `lose` or `draw` statement ends the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Finish {
    Win(PlayerRef),
    Lose(PlayerRef),
    Draw,
}

/// One instruction of a turn program. Choice points (`Pick`, `Either`, `Repeat` when both ways
/// are open) add one decision byte to the move.
#[derive(Clone, Debug, Hash)]
pub enum Op {
    Pick {
        var: u8,
        from: SetId,
    },
    /// The mover chooses one of the relation's directions (those that are the mover's): the
    /// decision is the vector's index.
    PickDir {
        var: u8,
        relation: u16,
    },
    /// Chance sets a counter to one of `count` values from `lo`: the decision is the value's
    /// offset. A move that rolls is a chance move.
    Roll {
        slot: u16,
        lo: i32,
        count: u16,
    },
    /// The player who made this move makes the next one too.
    Again,
    /// The next `pick` is chosen by this player (`pick ... by p`): nothing for generation, the
    /// notation's parts say who chose them.
    Chooser(PlayerRef),
    /// Gives a cell variable the one cell of a set (the walk ends when it is not one cell).
    SetVar {
        var: u8,
        set: SetId,
    },
    /// Gives a direction variable a new value (the walk ends on no direction).
    SetDir {
        var: u8,
        relation: u16,
        dir: DirExpr,
    },
    /// The head of a `while` loop: on to the body when `cond` holds (counting rounds in `var`;
    /// the walk ends after 255), else to `exit`.
    WhileCheck {
        var: u8,
        cond: BoolId,
        exit: u32,
    },
    /// A loop head inside a `distinct` block: a walk that reaches it again in the same position
    /// with the same variables can only find ends already found, so it stops.
    Memo {
        block: u8,
    },
    /// The mover chooses a placement of one of `player`'s unplayed shapes (two decisions: the
    /// instance's index, high byte first), settled on the layer; the copy leaves the stock.
    Place {
        slot: u8,
        /// The turn variable that receives the anchor cell.
        anchor: u8,
        table: u16,
        player: PlayerRef,
        layer: u16,
        /// No covered cell may rise above this.
        max: IntId,
        /// Cells a foot may rest on (`feet in`); `None`: any.
        feet: Option<SetId>,
    },
    /// Computes a set once and keeps it in a local slot.
    Let {
        slot: u8,
        set: SetId,
        /// Whether replaying a known move needs the value (some op other than a `pick` reads
        /// it); a replay skips the choices that `pick` sets only serve.
        replay: bool,
    },
    Put {
        code_base: u8,
        owner: PlayerRef,
        at: CellRef,
    },
    Remove {
        at: CellRef,
    },
    /// `move a to b`: the piece code on `from` goes to `to` (replacing what is there).
    Move {
        from: CellRef,
        to: CellRef,
    },
    /// `shift S along m`: the pieces on the cells of `at` move at once, each along the first
    /// ray of `relation` (a map's images, or a direction's step); a piece whose cell has no
    /// next cell leaves the board. The ray is one-to-one (maps are checked when lowered).
    Shift {
        at: SetId,
        relation: u16,
    },
    /// `put` on every cell of a set.
    PutAll {
        code_base: u8,
        owner: PlayerRef,
        at: SetId,
    },
    /// `remove` on every cell of a set.
    RemoveAll {
        at: SetId,
    },
    Require(BoolId),
    /// Jump to `target` when the condition is false.
    Unless {
        cond: BoolId,
        target: u32,
    },
    Jump(u32),
    /// The mover chooses a branch: the decision is its index.
    Either(Vec<u32>),
    /// The first branch (in order) that completes a turn is the only one used.
    First(Vec<u32>),
    /// Sets a loop counter to zero.
    RepeatStart {
        var: u8,
    },
    /// Stop (decision 0) or run the body once more (decision 1) within `min..=max` rounds.
    RepeatCheck {
        var: u8,
        min: u8,
        max: u8,
        exit: u32,
    },
    /// Counts a finished round and jumps back to the check at `check`.
    RepeatNext {
        var: u8,
        check: u32,
    },
    DistinctStart {
        block: u8,
    },
    DistinctEnd {
        block: u8,
    },
    Write(u16),
    /// The game ends now; the turn is complete.
    Finish(Finish),
    Assign {
        slot: AssignSlot,
        op: AssignKind,
        value: IntId,
    },
    /// A per-cell counter changed on every cell of a set (the value is computed once).
    AssignAll {
        base: u16,
        cells: SetId,
        op: AssignKind,
        value: IntId,
    },
    /// Normal end of the program.
    Done,
}

impl Op {
    /// Calls `f` on each op index this op may jump to, to read or re-aim it.
    pub fn for_each_target(&mut self, mut f: impl FnMut(&mut u32)) {
        match self {
            Op::Unless { target: t, .. }
            | Op::Jump(t)
            | Op::WhileCheck { exit: t, .. }
            | Op::RepeatCheck { exit: t, .. }
            | Op::RepeatNext { check: t, .. } => f(t),
            Op::Either(ts) | Op::First(ts) => ts.iter_mut().for_each(f),
            Op::Pick { .. }
            | Op::PickDir { .. }
            | Op::Roll { .. }
            | Op::Again
            | Op::Chooser(_)
            | Op::SetVar { .. }
            | Op::SetDir { .. }
            | Op::Memo { .. }
            | Op::Place { .. }
            | Op::Let { .. }
            | Op::Put { .. }
            | Op::Remove { .. }
            | Op::Move { .. }
            | Op::Shift { .. }
            | Op::PutAll { .. }
            | Op::RemoveAll { .. }
            | Op::Require(_)
            | Op::RepeatStart { .. }
            | Op::DistinctStart { .. }
            | Op::DistinctEnd { .. }
            | Op::Write(_)
            | Op::Finish(_)
            | Op::Assign { .. }
            | Op::AssignAll { .. }
            | Op::Done => {}
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AssignSlot {
    Global(u16),
    PerPlayer {
        base: u16,
        player: PlayerRef,
    },
    /// A per-cell counter: `base` is the slot of cell 0.
    PerCell {
        base: u16,
        cell: CellRef,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AssignKind {
    Set,
    Add,
    Sub,
}

impl AssignKind {
    /// The counter's new value from its old one and the assigned value, saturating as `+`
    /// and `-` do ([`ops::int_op`]).
    #[inline]
    #[must_use]
    pub fn apply(self, old: i32, value: i32) -> i32 {
        match self {
            AssignKind::Set => value,
            AssignKind::Add => ops::int_op(IntOp::Add, old, value),
            AssignKind::Sub => ops::int_op(IntOp::Sub, old, value),
        }
    }
}

#[derive(Clone, Debug, Default, Hash)]
pub struct Code {
    pub ops: Vec<Op>,
    /// `decided[pc]`: from `pc` on, no choice point and no test that can reject the move is
    /// reachable (an action for a cell's owner counts as a test: it fails on an empty cell), so
    /// move generation may record the move there without running the rest.
    pub decided: Vec<bool>,
    /// `busy[pc]`: the first op at or after `pc`, following jumps and passing `write`s, that
    /// does something while moves are generated (where no text is written).
    pub busy: Vec<u32>,
}

impl Code {
    #[must_use]
    pub fn new(ops: Vec<Op>) -> Code {
        let mut memo = vec![None; ops.len()];
        for pc in (0..ops.len()).rev() {
            decided_from(&ops, pc, &mut memo);
        }
        let decided = memo.into_iter().map(|d| d.unwrap_or(false)).collect();
        let busy = (0..ops.len())
            .map(|start| {
                let mut pc = start;
                // Bounded: a jump cycle without work cannot run forever here.
                for _ in 0..=ops.len() {
                    match &ops[pc] {
                        Op::Write(_) | Op::Chooser(_) => pc += 1,
                        Op::Jump(t) => pc = *t as usize,
                        Op::Pick { .. }
                        | Op::PickDir { .. }
                        | Op::Roll { .. }
                        | Op::Again
                        | Op::SetVar { .. }
                        | Op::SetDir { .. }
                        | Op::WhileCheck { .. }
                        | Op::Memo { .. }
                        | Op::Place { .. }
                        | Op::Let { .. }
                        | Op::Put { .. }
                        | Op::Remove { .. }
                        | Op::Move { .. }
                        | Op::Shift { .. }
                        | Op::PutAll { .. }
                        | Op::RemoveAll { .. }
                        | Op::Require(_)
                        | Op::Unless { .. }
                        | Op::Either(_)
                        | Op::First(_)
                        | Op::RepeatStart { .. }
                        | Op::RepeatCheck { .. }
                        | Op::RepeatNext { .. }
                        | Op::DistinctStart { .. }
                        | Op::DistinctEnd { .. }
                        | Op::Finish(_)
                        | Op::Assign { .. }
                        | Op::AssignAll { .. }
                        | Op::Done => break,
                    }
                }
                u32::try_from(pc).unwrap_or(0)
            })
            .collect();
        Code { ops, decided, busy }
    }
}

fn decided_from(ops: &[Op], pc: usize, memo: &mut [Option<bool>]) -> bool {
    if let Some(d) = memo.get(pc).copied().flatten() {
        return d;
    }
    // Mark as undecided while visiting, so a loop back here counts as undecided.
    if let Some(slot) = memo.get_mut(pc) {
        *slot = Some(false);
    } else {
        return false;
    }
    let d = match &ops[pc] {
        // An action for the owner of a cell fails when the cell is empty (no player).
        Op::Put {
            owner: PlayerRef::Owner(_),
            ..
        }
        | Op::PutAll {
            owner: PlayerRef::Owner(_),
            ..
        }
        | Op::Assign {
            slot:
                AssignSlot::PerPlayer {
                    player: PlayerRef::Owner(_),
                    ..
                },
            ..
        }
        | Op::Finish(Finish::Win(PlayerRef::Owner(_)) | Finish::Lose(PlayerRef::Owner(_))) => false,
        Op::Put { .. }
        | Op::Remove { .. }
        | Op::Move { .. }
        | Op::Shift { .. }
        | Op::PutAll { .. }
        | Op::RemoveAll { .. }
        | Op::Assign { .. }
        | Op::AssignAll { .. }
        | Op::Write(_)
        | Op::Let { .. }
        | Op::Again
        | Op::Chooser(_)
        | Op::RepeatStart { .. }
        | Op::DistinctStart { .. } => decided_from(ops, pc + 1, memo),
        Op::Unless { target, .. } => {
            decided_from(ops, pc + 1, memo) && decided_from(ops, *target as usize, memo)
        }
        Op::Jump(target) => decided_from(ops, *target as usize, memo),
        Op::Finish(_) | Op::Done => true,
        Op::Pick { .. }
        | Op::PickDir { .. }
        | Op::Place { .. }
        | Op::Require(_)
        | Op::Either(_)
        | Op::First(_)
        | Op::RepeatCheck { .. }
        | Op::RepeatNext { .. }
        | Op::DistinctEnd { .. }
        | Op::Roll { .. }
        | Op::SetVar { .. }
        | Op::SetDir { .. }
        | Op::WhileCheck { .. }
        | Op::Memo { .. } => false,
    };
    memo[pc] = Some(d);
    d
}

/// A score of `value` units, `scale` units to a point, as text: `7`, `7.5`.
#[must_use]
pub fn score_text(value: i64, scale: i64) -> String {
    rulestone_base::decimal::number_text(value, scale == DECIMAL_SCALE)
}

/// Test support: a game's program from its source, lowered by the real pipeline and read back
/// through the IR's exact text form (the lowering links its own build of this crate, so its
/// `Program` is another type to the compiler).
#[cfg(test)]
pub(crate) fn compile(source: &str, options: &[(String, String)]) -> Result<Program, String> {
    let program = rulestone_lower::compile(source, options).map_err(|e| e.to_string())?;
    parse::parse(&rulestone_lower::ir::dump::dump(&program)).map_err(|e| format!("{e:?}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};

    /// A ray on a `w` × `h` board numbered row by row, by vector `(dx, dy)`.
    fn ray(w: i32, h: i32, dx: i32, dy: i32) -> Ray {
        let next = (0..w * h)
            .map(|c| {
                let (x, y) = (c % w + dx, c / w + dy);
                if (0..w).contains(&x) && (0..h).contains(&y) {
                    u16::try_from(y * w + x).unwrap_or(NO_CELL)
                } else {
                    NO_CELL
                }
            })
            .collect();
        Ray::new(None, next)
    }

    /// `ray` and `run` read from the [`Reach`] tables give the cells the step-by-step walk
    /// gives, for rising and falling vectors, knight-like jumps and both widths of set.
    #[test]
    fn lines_from_reach_tables_are_the_walked_lines() {
        fn check<const W: usize>(w: i32, h: i32, rng: &mut rand_chacha::ChaCha8Rng) {
            for (dx, dy) in [(1, 0), (-1, 0), (1, 1), (0, -1), (-1, 1), (2, 1), (-1, -2)] {
                let r = ray(w, h, dx, dy);
                assert!(
                    r.reach.words > 0,
                    "a grid's straight vector keeps its table"
                );
                let walked = Ray {
                    reach: Reach::default(),
                    ..r.clone()
                };
                let one = |ray: &Ray, from: usize, run: Option<CellBits<W>>| {
                    Relation {
                        name: String::new(),
                        masks: Vec::new(),
                        per_player: Vec::new(),
                        rays: vec![ray.clone()],
                        opposite: vec![NO_DIR],
                        names: vec![String::new()],
                        mirrors: Vec::new(),
                    }
                    .line(0, Some(0), from, run)
                };
                let cells = usize::try_from(w * h).unwrap_or(0);
                for _ in 0..100 {
                    let mut run = CellBits::<W>::EMPTY;
                    for c in 0..cells {
                        if rng.gen_bool(0.7) {
                            run.insert(c);
                        }
                    }
                    let from = rng.gen_range(0..cells);
                    assert_eq!(one(&r, from, Some(run)), one(&walked, from, Some(run)));
                    assert_eq!(one(&r, from, None), one(&walked, from, None));
                }
            }
        }
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(11);
        check::<1>(8, 8, &mut rng);
        check::<2>(10, 10, &mut rng);
        check::<2>(9, 11, &mut rng);
        // A board past the tables' bound walks.
        assert_eq!(ray(17, 17, 1, 0).reach.words, 0);
    }

    #[test]
    fn straight_rays_are_shifts_and_bracket_as_the_cell_walk_does() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for (dx, dy) in [(1, 0), (1, 1), (0, -1), (-1, 1), (2, 1)] {
            let r = ray(8, 7, dx, dy);
            let (k, has) = r.shift.expect("a straight vector on a grid is one offset");
            assert_eq!(k, dy * 8 + dx);
            assert_eq!(has.len(), r.next.iter().filter(|&&t| t != NO_CELL).count());
            let walk = Ray {
                shift: None,
                ..r.clone()
            };
            for _ in 0..200 {
                let mut run = CellSet::EMPTY;
                let mut end = CellSet::EMPTY;
                for c in 0..56 {
                    match rng.gen_range(0..4) {
                        0 | 1 => run.insert(c),
                        2 => end.insert(c),
                        _ => {}
                    }
                }
                // Overlapping `run` and `end` too: a run stops at its first cell outside `run`.
                if rng.gen_bool(0.3) {
                    end |= run;
                }
                let all = CellSet::first_n(56);
                assert_eq!(r.brackets(all, run, end), walk.brackets(all, run, end));
            }
        }
    }

    #[test]
    fn a_zero_vector_is_no_shift() {
        assert!(ray(4, 4, 0, 0).shift.is_none());
    }
}
