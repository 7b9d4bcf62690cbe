//! Exact solving of small games, for any game, through [`Game`] alone: the value of a position
//! for the player to move (win, loss or draw), the number of decisions to the end under best
//! play (the shortest win, the longest loss), and a principal variation.
//!
//! # Scores
//!
//! One integer holds value and distance: `WIN - d` is a win in `d` decisions, `-(WIN - d)` a
//! loss in `d`, `0` a draw. A score belongs to a position and its player to move, not to the
//! root, so a stored score means the same wherever the position comes back. Passing a score up
//! one decision moves it one step towards 0, and negates it when the turn changes hands
//! (`backed`); maximising it picks the shortest win and the longest loss.
//!
//! # The search
//!
//! Depth-first negamax with fail-soft alpha-beta over these scores, on an explicit stack of
//! frames (a line can be as long as the game allows; past [`MAX_LINE`] decisions it stops with an
//! error rather than overflow the stack). Decisions are tried in this order: the table's best
//! decision, then those that were best or cut a search off most often elsewhere (a history
//! table), then the game's order. Every search asks one question with a zero window ("is the
//! score at least `t`?"), so each result is one bound. Three stages:
//!
//! 1. **Value.** "At least 1?" (a win), and if not, "at least 0?" (a draw, else a loss). These
//!    searches have no depth limit; a line that meets a position already on it scores a draw
//!    there, so no line holds a position twice and each search ends.
//! 2. **Distance: iterative deepening.** Iteration `d` asks whether the winner ends the game
//!    within `d` decisions (`score >= WIN - d`, or `score <= -(WIN - d)` for a loss), for
//!    `d = 0, 1, ...` up to the distance the value search found. The window bounds the depth by
//!    itself: a position that is not over scores at most `WIN - 1`, so a frame whose window asks
//!    for more returns at once (mate-distance pruning). So these searches need no repetition
//!    rule (a line that goes round a cycle just runs out of distance) and their results never
//!    depend on the line. The first `d` that succeeds is exact, since every smaller one failed;
//!    a failed iteration's fail-soft bound skips the distances it proved out of reach, and each
//!    iteration reuses what the table learnt before. Iterative deepening rather than
//!    proof-number search: a depth-first search needs memory only for its line and the table,
//!    where proof-number search keeps its tree in memory, and its answer to repetitions (below)
//!    stays simple and exact. The value comes first, unbounded, because deepening cannot prove
//!    a draw, and a win is found faster once known to exist.
//! 3. **Principal variation.** From the root, the first decision (the table's first) whose
//!    position, tested with zero windows, keeps the score; then the same from there, until the
//!    game ends or, in a draw, a position of the line comes back.
//!
//! # Transposition table
//!
//! Keyed by [`Game::position_key`], each entry holds a lower and an upper bound of the
//! position's score and its best decision; two results for one key are intersected. Buckets of
//! four entries; a new entry replaces the one of its bucket that took the least work. The table
//! starts small (it stays in the caches for small searches) and doubles when a quarter full, as
//! long as the old and the new table fit in the budget together (`table_bytes`). It only
//! forgets, so no answer depends on what it keeps.
//!
//! # Repetitions and the graph-history interaction
//!
//! A game that goes on forever is a draw. The value searches see this as "a position that
//! repeats on the line is a draw", and that draw belongs to the line: the same position met by
//! another path may be worth more or less (the graph-history interaction). So:
//!
//! - **Firm and soft claims.** A result claims one bound. A *firm* claim says that some side
//!   wins: a lower bound above 0 or an upper bound below 0. Its proof is a tree in which the
//!   winner reaches the end on every line, so it holds no repetition: firm claims never depend
//!   on the line, and go to the table. The other claims, *soft* ones ("does not lose", "does not
//!   win"), all favour the same side in one search (the side the question does not ask to win),
//!   and so does a repetition's draw.
//! - **Assumptions.** A repetition assumes that the repeated position, a frame still open on
//!   the line, holds for the favoured side. Every result carries the set of frames it assumes
//!   (for a lower bound, those its best child assumes; for an upper bound, those of all its
//!   children), its own frame left out when it closes.
//! - **Pending claims.** A soft claim that assumes nothing goes to the table. One that assumes a
//!   frame above waits on a stack of pending claims, and answers for its position anywhere in
//!   the search, on the same assumptions (they are frames of the line still open, as every
//!   frame above the current position is). When a frame closes, the pending claims made since
//!   it opened (the only ones that can assume it) learn its result: if it holds for the favoured
//!   side and assumes nothing, the assumption goes, and claims left with none are proven and go
//!   to the table; if it fails the favoured side, those that assumed it fall; if it waits on
//!   frames above, those that assumed it wait on those instead.
//!
//! Why proven claims are true. A set of claims, each proved by a search whose leaves are true
//! facts or repetitions of positions of the set, is a closed certificate for the favoured side:
//! each position where it moves has a move into the set, each position of the other side has
//! all its moves there, and so the favoured side keeps what it claims forever. A claim is proven
//! only once every frame it assumed (through the claims it used, too) has closed holding. And a
//! search started at `x` gives `x`'s true value: if the mover wins in `d`, moving always to a
//! position won in fewer decisions never revisits a position, so no repetition hides that win;
//! the loser's replies that take longest keep every win at least `d` away; if neither side can
//! win, each side's drawing strategy keeps every leaf at least (at most) a draw. Table entries
//! enter as leaves holding true bounds, so the argument composes.
//!
//! # Choices made by other players
//!
//! When [`Game::others_choose`] (`pick ... by p`), a decision's later parts are chosen by other
//! players. A frame whose decisions have such parts searches every child (no cut-off) and then
//! plays out the choices part by part, on the children's lower bounds and on their upper
//! bounds: the mover takes the best option of its parts, the others the worst for the mover.
//!
//! # Limits and invariants
//!
//! - Exact for games whose decisions are listed (not continuous) and taken by players, not
//!   chance. [`Solver::solve`] refuses continuous decisions anywhere and chance at the root;
//!   callers that can see the whole game (the CLI reads the program) refuse chance anywhere.
//! - Positions are told apart by their 64-bit key: for the positions a small game has, two
//!   positions sharing a key is far less likely than a hardware fault.
//! - The game is back at the position it was given when [`Solver::solve`] returns, whether it
//!   succeeded or not. Table entries are true bounds, independent of any line. In a value
//!   search no line holds one position twice. Memory: the table, the line (at most
//!   [`MAX_LINE`] frames), the pending claims (at most an eighth of the table's budget in
//!   entries) and the history table (at most [`HISTORY_LIMIT`] decisions).

use rulestone_base::hash::BuildKeyHasher;
use std::collections::HashMap;
use std::time::{Duration, Instant};

use rulestone_runtime::{Game, GameResult};

/// A score: see the module documentation.
type Score = i32;

/// A win now: a win in `d` decisions scores `WIN - d`.
const WIN: Score = 1 << 30;
/// Beyond every score: the open ends of a window.
const INFINITE: Score = WIN + 1;
/// The longest line of play the search follows; deeper, it stops with an error.
pub const MAX_LINE: usize = 100_000;
/// The most decisions the history table remembers (it never grows past this).
pub const HISTORY_LIMIT: usize = 1 << 16;
/// Positions between two calls of the progress callback.
const PROGRESS_EVERY: u64 = 1 << 14;

/// How the solver is set up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveConfig {
    /// The transposition table's size in bytes (at least one bucket is kept).
    pub table_bytes: usize,
}

impl Default for SolveConfig {
    fn default() -> SolveConfig {
        SolveConfig {
            table_bytes: 1024 << 20,
        }
    }
}

/// The value of a position for its player to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    Win,
    Draw,
    Loss,
}

/// How a principal variation ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LineEnd {
    /// The game is over, with this result.
    Over(GameResult),
    /// The position after this many decisions of the line comes back (a draw by endless play).
    Repeats { after: usize },
}

/// A solved position.
#[derive(Clone, Debug)]
pub struct Solution<D> {
    pub value: Value,
    /// Decisions to the end under best play: the shortest win or the longest loss; for a draw,
    /// the length of the principal variation.
    pub distance: u32,
    /// The principal variation: each decision with its notation.
    pub line: Vec<(D, String)>,
    pub end: LineEnd,
    pub stats: Stats,
}

/// The work behind a search or a solution.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Stats {
    /// Positions visited (table hits and repetitions included).
    pub positions: u64,
    /// Entries in the table, and how many it can hold.
    pub table_entries: usize,
    pub table_capacity: usize,
    pub elapsed: Duration,
    pub stage: Stage,
}

/// What the solver is doing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    /// Deciding win, draw or loss.
    Value,
    /// Testing whether the game ends within this many decisions.
    Distance(u32),
    /// Following the principal variation.
    Line,
}

/// Why a position cannot be solved.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// Chance takes the next decision: the value would be an expectation, not a win or loss.
    Chance,
    /// Some decision is continuous (a table game's shot): decisions cannot be listed.
    Continuous,
    /// The game keeps no position key, so repetitions cannot be seen.
    NoPositionKey,
    /// The rules read the game's history: positions with one key may have different moves.
    History,
    /// A position with no decision open and no result.
    NoResult,
    /// A line of play grew past [`MAX_LINE`] decisions without repeating a position.
    LineTooLong,
    /// The system cannot provide a table of this many bytes.
    Memory { bytes: usize },
    /// The deadline given with [`Solver::with_deadline`] passed before the answer was found.
    OutOfTime { positions: u64 },
    /// The stages disagree: a bug, never an answer.
    Inconsistent(String),
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::Chance => write!(f, "chance takes the next decision"),
            SolveError::Continuous => write!(f, "a decision is continuous and cannot be listed"),
            SolveError::NoPositionKey => write!(f, "the game keeps no position key"),
            SolveError::History => write!(
                f,
                "its rules read the game's history (`repetitions`), so a position's moves depend \
                 on the line that reached it"
            ),
            SolveError::NoResult => write!(f, "a position has no decision open and no result"),
            SolveError::LineTooLong => write!(
                f,
                "a line of play reached {MAX_LINE} decisions without repeating a position"
            ),
            SolveError::Memory { bytes } => write!(
                f,
                "cannot allocate a table of {} MB",
                bytes.div_ceil(1 << 20)
            ),
            SolveError::OutOfTime { positions } => write!(
                f,
                "the time limit passed after {positions} positions, before the answer was found"
            ),
            SolveError::Inconsistent(why) => write!(f, "internal error: {why}"),
        }
    }
}

impl std::error::Error for SolveError {}

/// The exact solver. One solver may solve several positions of one game: its table carries
/// over (its entries are true for every line).
pub struct Solver<G: Game> {
    table: Table,
    /// Frames of the current line; `frames[..depth]` are open.
    frames: Vec<Frame<G::Decision>>,
    depth: usize,
    /// The positions of the current line, each with its index.
    on_line: HashMap<u64, usize, BuildKeyHasher>,
    /// Soft claims that wait for their references (see the module documentation), and where
    /// the latest one for each position is.
    pending: Vec<Claim>,
    pending_at: HashMap<u64, usize, BuildKeyHasher>,
    /// How often each decision was the best or cut a frame off: move ordering.
    /// How often each decision (by [`Game::decision_key`]) was best or cut a search off.
    history: HashMap<u64, u32, BuildKeyHasher>,
    others_choose: bool,
    /// Whether this search scores repetitions as draws (searches that ask for the end within a
    /// distance need not: their window bounds their depth).
    repetitions: bool,
    /// The player a repetition's draw favours in this search: the root's opponent when it asks
    /// whether the root's player wins, else that player.
    favoured: u8,
    positions: u64,
    stage: Stage,
    started: Instant,
    progress: Option<Progress>,
    deadline: Option<Instant>,
}

/// A progress callback: called now and then with the search's statistics.
type Progress = Box<dyn FnMut(&Stats)>;

/// A line of decisions with their notation.
type Line<G> = Vec<(<G as Game>::Decision, String)>;

impl<G: Game> Solver<G> {
    /// A solver with an empty table.
    ///
    /// # Errors
    /// The system cannot provide the table's memory.
    pub fn new(config: &SolveConfig) -> Result<Solver<G>, SolveError> {
        Ok(Solver {
            table: Table::new(config.table_bytes)?,
            frames: Vec::new(),
            depth: 0,
            on_line: HashMap::default(),
            pending: Vec::new(),
            pending_at: HashMap::default(),
            history: HashMap::default(),
            others_choose: false,
            repetitions: true,
            favoured: 0,
            positions: 0,
            stage: Stage::Value,
            started: Instant::now(),
            progress: None,
            deadline: None,
        })
    }

    /// Calls `report` every few thousand positions with the work so far.
    #[must_use]
    pub fn with_progress(mut self, report: Box<dyn FnMut(&Stats)>) -> Solver<G> {
        self.progress = Some(report);
        self
    }

    /// Stops the search with [`SolveError::OutOfTime`] once `deadline` has passed (looked at
    /// every few thousand positions).
    #[must_use]
    pub fn with_deadline(mut self, deadline: Instant) -> Solver<G> {
        self.deadline = Some(deadline);
        self
    }

    /// The work so far.
    #[must_use]
    pub fn stats(&self) -> Stats {
        Stats {
            positions: self.positions,
            table_entries: self.table.live,
            table_capacity: self.table.capacity(),
            elapsed: self.started.elapsed(),
            stage: self.stage,
        }
    }

    /// Solves the game's position: its value, distance and principal variation.
    ///
    /// # Errors
    /// Chance at this position, continuous decisions, no position key, a line longer than
    /// [`MAX_LINE`], or the deadline passed.
    pub fn solve(&mut self, game: &mut G) -> Result<Solution<G::Decision>, SolveError> {
        self.started = Instant::now();
        self.positions = 0;
        self.check_root(game)?;
        let score = self.exact_score(game)?;
        self.stage = Stage::Line;
        let (line, end) = self.principal_variation(game, score)?;
        let distance = match value_of(score) {
            Value::Draw => u32::try_from(line.len()).unwrap_or(u32::MAX),
            _ => distance_of(score),
        };
        Ok(Solution {
            value: value_of(score),
            distance,
            line,
            end,
            stats: self.stats(),
        })
    }

    /// Refuses what cannot be solved exactly before any search.
    fn check_root(&mut self, game: &mut G) -> Result<(), SolveError> {
        game.position_key().ok_or(SolveError::NoPositionKey)?;
        // The table shares values between positions with one key, and the line's own
        // repetitions are scored as draws: both assume the moves follow from the position.
        if game.reads_history() {
            return Err(SolveError::History);
        }
        let mut open = Vec::new();
        if !game.decisions(&mut open) {
            return Err(SolveError::Continuous);
        }
        if !open.is_empty() && game.chance() {
            return Err(SolveError::Chance);
        }
        self.others_choose = game.others_choose();
        Ok(())
    }

    /// Stages 1 and 2: the root's exact score.
    fn exact_score(&mut self, game: &mut G) -> Result<Score, SolveError> {
        self.stage = Stage::Value;
        let wins = self.search(game, Window::at_least(1))?;
        if wins >= 1 {
            return self.deepen(game, wins);
        }
        let holds = self.search(game, Window::at_least(0))?;
        if holds >= 0 {
            return Ok(0);
        }
        self.deepen(game, holds)
    }

    /// Stage 2: iterative deepening on the distance, from a win (or loss) within some distance
    /// to the exact score. Iteration `d` tests whether the game ends so within `d` decisions:
    /// every shorter distance was ruled out, so the first success is exact; a failure's
    /// fail-soft bound rules out the distances it can.
    fn deepen(&mut self, game: &mut G, rough: Score) -> Result<Score, SolveError> {
        let winning = rough > 0;
        let known = distance_of(rough);
        let mut d = 0;
        while d < known {
            self.stage = Stage::Distance(d);
            let target = if winning {
                WIN - d_score(d)
            } else {
                d_score(d) - WIN
            };
            let (window, reached): (Window, fn(Score, Score) -> bool) = if winning {
                (Window::at_least(target), |found, target| found >= target)
            } else {
                (Window::at_least(target + 1), |found, target| {
                    found <= target
                })
            };
            let found = self.search(game, window)?;
            if reached(found, target) {
                return Ok(target);
            }
            if value_of(found) != value_of(rough) {
                return Err(SolveError::Inconsistent(
                    "the value search and a distance search disagree".to_string(),
                ));
            }
            d = distance_of(found).max(d + 1);
        }
        Ok(rough)
    }

    /// Stage 3: the line of best play from the root, whose exact score is `score`.
    fn principal_variation(
        &mut self,
        game: &mut G,
        mut score: Score,
    ) -> Result<(Line<G>, LineEnd), SolveError> {
        let mut line: Vec<(G::Decision, String)> = Vec::new();
        let mut seen: HashMap<u64, usize> = HashMap::new();
        let result = loop {
            let key = game.position_key().ok_or(SolveError::NoPositionKey)?;
            if let Some(&after) = seen.get(&key) {
                break Ok(LineEnd::Repeats { after });
            }
            seen.insert(key, line.len());
            if line.len() >= MAX_LINE {
                break Err(SolveError::LineTooLong);
            }
            let mut open = Vec::new();
            if !game.decisions(&mut open) {
                break Err(SolveError::Continuous);
            }
            if open.is_empty() {
                break game
                    .outcome()
                    .map(LineEnd::Over)
                    .ok_or(SolveError::NoResult);
            }
            match self.best_decision(game, &open, score) {
                Ok((decision, child_score)) => {
                    let text = game.text(&decision);
                    game.apply(&decision);
                    line.push((decision, text));
                    score = child_score;
                }
                Err(e) => break Err(e),
            }
        };
        for _ in &line {
            game.undo();
        }
        result.map(|end| (line, end))
    }

    /// A decision of best play at a position whose exact score is `score`, and the exact score
    /// of the position it leads to.
    fn best_decision(
        &mut self,
        game: &mut G,
        open: &[G::Decision],
        score: Score,
    ) -> Result<(G::Decision, Score), SolveError> {
        let me = game.to_move();
        if self.others_choose && parts_by_others(game, open, me).is_some() {
            return self.best_contested(game, open, score);
        }
        let hint = game
            .position_key()
            .and_then(|k| self.table.probe(k))
            .map(|e| usize::from(e.best));
        let mut order: Vec<usize> = (0..open.len()).collect();
        if let Some(first) = hint.filter(|&i| i < open.len()) {
            order.remove(first);
            order.insert(0, first);
        }
        for i in order {
            let (keeps, same) = self.child_reaches(game, &open[i], me, score)?;
            if keeps {
                return Ok((open[i].clone(), child_score(score, same)));
            }
        }
        Err(SolveError::Inconsistent(
            "no decision keeps the position's value".to_string(),
        ))
    }

    /// Whether `decision`'s position, backed up, scores at least `score` for `me`; and whether
    /// `me` moves there too.
    fn child_reaches(
        &mut self,
        game: &mut G,
        decision: &G::Decision,
        me: u8,
        score: Score,
    ) -> Result<(bool, bool), SolveError> {
        game.apply(decision);
        let same = game.to_move() == me;
        let found = self.search(game, Window::at_least(score).for_child(same));
        game.undo();
        Ok((backed(found?, same) >= score, same))
    }

    /// [`Solver::best_decision`] where other players choose parts: each child compared with
    /// `score` (below, equal, above), then the parts played out to a decision that keeps it.
    fn best_contested(
        &mut self,
        game: &mut G,
        open: &[G::Decision],
        score: Score,
    ) -> Result<(G::Decision, Score), SolveError> {
        let me = game.to_move();
        let parts: Vec<Vec<(u8, String)>> = open.iter().map(|d| game.decision_parts(d)).collect();
        let mut compared = Vec::with_capacity(open.len());
        let mut movers = Vec::with_capacity(open.len());
        for d in open {
            let (reaches, same) = self.child_reaches(game, d, me, score)?;
            let above = reaches && self.child_reaches(game, d, me, score + 1)?.0;
            compared.push(match (reaches, above) {
                (false, _) => std::cmp::Ordering::Less,
                (true, false) => std::cmp::Ordering::Equal,
                (true, true) => std::cmp::Ordering::Greater,
            });
            movers.push(same);
        }
        let Some((std::cmp::Ordering::Equal, chosen)) = play_out_parts(&parts, &compared, me)
        else {
            return Err(SolveError::Inconsistent(
                "the choices of the parts do not give the position's value".to_string(),
            ));
        };
        Ok((open[chosen].clone(), child_score(score, movers[chosen])))
    }

    /// The score of the game's position for a zero window: a lower bound of at least `beta`, or
    /// an upper bound of at most `alpha` (fail soft). The line starts afresh at this position;
    /// the game is left where it was.
    fn search(&mut self, game: &mut G, window: Window) -> Result<Score, SolveError> {
        self.on_line.clear();
        self.pending.clear();
        self.pending_at.clear();
        self.depth = 0;
        self.repetitions = !window.bounded();
        let mover = game.to_move();
        self.favoured = if window.beta > 0 {
            1 - (mover & 1)
        } else {
            mover
        };
        let result = match self.enter(game, window) {
            Ok(Entered::Known(found)) => Ok(found.score),
            Ok(Entered::Opened) => self.drive(game).map(|found| found.score),
            Err(e) => Err(e),
        };
        if result.is_err() {
            self.unwind(game);
        }
        result
    }

    /// Runs the open frames until the first one closes.
    fn drive(&mut self, game: &mut G) -> Result<Found, SolveError> {
        loop {
            let top = self.depth - 1;
            let Some(index) = self.frames[top].next_decision() else {
                let found = self.close();
                if self.depth == 0 {
                    return Ok(found);
                }
                game.undo();
                self.frames[self.depth - 1].receive(found);
                continue;
            };
            let frame = &self.frames[top];
            let decision = frame.decisions[index].clone();
            let mover = frame.mover;
            let window = frame.window();
            game.apply(&decision);
            let same = game.to_move() == mover;
            self.frames[top].pending = Some(Pending { index, same });
            match self.enter(game, window.for_child(same)) {
                Ok(Entered::Known(found)) => {
                    game.undo();
                    self.frames[top].receive(found);
                }
                Ok(Entered::Opened) => {}
                Err(e) => {
                    game.undo();
                    return Err(e);
                }
            }
        }
    }

    /// Visits a position: settles it from the table, a repetition, a pending claim or its end,
    /// or opens a frame.
    fn enter(&mut self, game: &mut G, window: Window) -> Result<Entered, SolveError> {
        self.count_position()?;
        let key = game.position_key().ok_or(SolveError::NoPositionKey)?;
        let remembered = self.table.probe(key);
        if let Some(score) = remembered.and_then(|e| e.bounds.settles(window)) {
            return Ok(Entered::Known(Found::settled(score)));
        }
        if let Some(&index) = self.on_line.get(&key).filter(|_| self.repetitions) {
            return Ok(Entered::Known(Found {
                score: 0,
                assumes: Assumed::frame(index),
            }));
        }
        if let Some(found) = self.pending_answer(key, window) {
            return Ok(Entered::Known(found));
        }
        if self.depth >= MAX_LINE {
            return Err(SolveError::LineTooLong);
        }
        if self.frames.len() == self.depth {
            self.frames.push(Frame::default());
        }
        let frame = &mut self.frames[self.depth];
        let listed = game.decisions(&mut frame.decisions);
        frame.keys.clear();
        frame
            .keys
            .extend(frame.decisions.iter().map(|d| game.decision_key(d)));
        if !listed {
            return Err(SolveError::Continuous);
        }
        let me = game.to_move();
        if frame.decisions.is_empty() {
            let result = game.outcome().ok_or(SolveError::NoResult)?;
            return Ok(Entered::Known(Found::settled(terminal(result, me))));
        }
        if let Some(score) = window.out_of_reach() {
            return Ok(Entered::Known(Found::settled(score)));
        }
        let parts = if self.others_choose {
            parts_by_others(game, &frame.decisions, me)
        } else {
            None
        };
        frame.open(key, me, window, self.positions, self.pending.len());
        frame.parts = parts;
        frame.order_moves(remembered.map(|e| e.best), &self.history);
        self.on_line.entry(key).or_insert(self.depth);
        self.depth += 1;
        Ok(Entered::Opened)
    }

    /// A pending claim for the position that answers the window. Its assumptions are frames
    /// of the line (see [`Solver::resolve`]), so it holds here on the same terms.
    fn pending_answer(&self, key: u64, window: Window) -> Option<Found> {
        let claim = self.pending.get(*self.pending_at.get(&key)?)?;
        let score = claim.bounds.settles(window)?;
        Some(Found {
            score,
            assumes: claim.assumes,
        })
    }

    /// Closes the top frame: its claim goes to the table, or waits on the pending stack; the
    /// pending claims that assumed it learn what it proved.
    fn close(&mut self) -> Found {
        self.depth -= 1;
        let index = self.depth;
        let frame = &mut self.frames[index];
        if self.on_line.get(&frame.key) == Some(&index) {
            self.on_line.remove(&frame.key);
        }
        frame.settle_parts();
        let claim = frame.claim(index, self.positions);
        let mark = frame.pending_mark;
        if let Some(&d) = frame.keys.get(frame.best_index) {
            if let Some(count) = self.history.get_mut(&d) {
                *count += 1;
            } else if self.history.len() < HISTORY_LIMIT {
                self.history.insert(d, 1);
            }
        }
        let found = Found {
            score: claim.score,
            assumes: claim.assumes,
        };
        let held = claim
            .assumes
            .is_none()
            .then(|| claim.favours(self.favoured));
        self.resolve(mark, index, held, claim.assumes);
        if held.is_some() {
            self.table
                .store(claim.key, claim.bounds, claim.best, claim.work);
        } else if self.pending.len() < self.table.budget / 8 {
            self.pending_at.insert(claim.key, self.pending.len());
            self.pending.push(claim);
        }
        found
    }

    /// The frame at `index` closed: the pending claims made since it opened (from `mark` on,
    /// the only ones that can assume it) learn what it proved. When its claim fails the
    /// favoured side (`held == Some(false)`), those that assumed it fall; when it holds
    /// (`Some(true)`), the assumption goes, and claims left with none are proven (into the
    /// table); when it waits on frames above (`None`), those that assumed it wait on `instead`.
    fn resolve(&mut self, mark: usize, index: usize, held: Option<bool>, instead: Assumed) {
        let mut kept = mark;
        for at in mark..self.pending.len() {
            let claim = &mut self.pending[at];
            let stays = !claim.assumes.includes(index)
                || match held {
                    Some(false) => false,
                    Some(true) => {
                        claim.assumes = claim.assumes.without(index);
                        if claim.assumes.is_none() {
                            self.table
                                .store(claim.key, claim.bounds, claim.best, claim.work);
                        }
                        !claim.assumes.is_none()
                    }
                    None => {
                        claim.assumes = claim.assumes.without(index).with(instead);
                        true
                    }
                };
            let key = claim.key;
            let indexed = self.pending_at.get(&key) == Some(&at);
            if stays {
                self.pending.swap(kept, at);
                if indexed {
                    self.pending_at.insert(key, kept);
                }
                kept += 1;
            } else if indexed {
                self.pending_at.remove(&key);
            }
        }
        self.pending.truncate(kept);
    }

    /// After an error: takes back every decision of the line, down to the search's start.
    fn unwind(&mut self, game: &mut G) {
        while self.depth > 1 {
            game.undo();
            self.depth -= 1;
        }
        self.depth = 0;
        self.on_line.clear();
        self.pending.clear();
        self.pending_at.clear();
    }

    /// Counts a visit; every [`PROGRESS_EVERY`] visits, reports progress and looks at the
    /// deadline.
    fn count_position(&mut self) -> Result<(), SolveError> {
        self.positions += 1;
        if self.positions.is_multiple_of(PROGRESS_EVERY) {
            let stats = self.stats();
            if let Some(report) = self.progress.as_mut() {
                report(&stats);
            }
            if self.deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(SolveError::OutOfTime {
                    positions: self.positions,
                });
            }
        }
        Ok(())
    }
}

/// The position has no decision open: its score for `me`.
fn terminal(result: GameResult, me: u8) -> Score {
    match result {
        GameResult::Win(p) if p == me => WIN,
        GameResult::Win(_) => -WIN,
        GameResult::Draw => 0,
    }
}

/// A child's score seen from its parent: one decision further from the end, negated when the
/// child's player to move is the parent's opponent.
fn backed(child: Score, same_mover: bool) -> Score {
    let further = child - child.signum();
    if same_mover {
        further
    } else {
        -further
    }
}

/// The child's score whose [`backed`] score is `parent` (the inverse, for scores that occur).
fn child_score(parent: Score, same_mover: bool) -> Score {
    away(if same_mover { parent } else { -parent })
}

/// One step away from 0 (the inverse of moving one step towards it), kept within the window's
/// open ends.
fn away(score: Score) -> Score {
    (score + score.signum()).clamp(-INFINITE, INFINITE)
}

/// `d` as a score offset.
fn d_score(d: u32) -> Score {
    Score::try_from(d).unwrap_or(WIN)
}

fn value_of(score: Score) -> Value {
    match score.signum() {
        1 => Value::Win,
        -1 => Value::Loss,
        _ => Value::Draw,
    }
}

/// The decisions to the end of a win or loss score.
fn distance_of(score: Score) -> u32 {
    u32::try_from(WIN - score.abs()).unwrap_or(0)
}

/// An alpha-beta window: a result at or below `alpha` is an upper bound, at or above `beta` a
/// lower bound (scores strictly between would be exact; zero windows leave none that occur).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Window {
    alpha: Score,
    beta: Score,
}

impl Window {
    /// The zero window that asks "at least `score`?".
    fn at_least(score: Score) -> Window {
        Window {
            alpha: score - 1,
            beta: score,
        }
    }

    /// The child's window whose results, [`backed`], answer this window.
    fn for_child(self, same_mover: bool) -> Window {
        if same_mover {
            Window {
                alpha: away(self.alpha),
                beta: away(self.beta),
            }
        } else {
            Window {
                alpha: away(-self.beta),
                beta: away(-self.alpha),
            }
        }
    }

    /// Whether the window asks for a win or a loss within some distance: then its depth is
    /// bounded (see [`Window::out_of_reach`]).
    fn bounded(self) -> bool {
        self.beta > WIN / 2 || self.alpha < -(WIN / 2)
    }

    /// A bound that settles any position that is not over, when the window asks for a win or
    /// a loss faster than one decision: mate-distance pruning, the depth limit of stage 2.
    fn out_of_reach(self) -> Option<Score> {
        if self.alpha >= WIN - 1 {
            Some(WIN - 1)
        } else if self.beta <= -(WIN - 1) {
            Some(-(WIN - 1))
        } else {
            None
        }
    }
}

/// A search result: the score, and the frames of the line its claim assumes to hold for the
/// favoured side (none: it holds on every line).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Found {
    score: Score,
    assumes: Assumed,
}

impl Found {
    fn settled(score: Score) -> Found {
        Found {
            score,
            assumes: Assumed::NONE,
        }
    }
}

/// A set of frames of the line, by index. Frames from [`DEEP`] on share one element: one of
/// them closing leaves the element in place (the others may still be assumed) until the frame
/// at `DEEP` closes, the last of them. That errs on the safe side, for lines that deep only.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Assumed(u128);

/// The first line index whose frames share an element of [`Assumed`].
const DEEP: usize = 127;

impl Assumed {
    const NONE: Assumed = Assumed(0);

    fn frame(index: usize) -> Assumed {
        Assumed(1 << index.min(DEEP))
    }

    fn with(self, other: Assumed) -> Assumed {
        Assumed(self.0 | other.0)
    }

    fn is_none(self) -> bool {
        self.0 == 0
    }

    fn includes(self, index: usize) -> bool {
        self.0 & Assumed::frame(index).0 != 0
    }

    /// Without the frame at `index`, unless deeper frames share its element.
    fn without(self, index: usize) -> Assumed {
        if index <= DEEP {
            Assumed(self.0 & !Assumed::frame(index).0)
        } else {
            self
        }
    }
}

enum Entered {
    /// Settled without a frame.
    Known(Found),
    /// A frame was opened for it.
    Opened,
}

/// The child being searched: its decision's index, and whether its mover is the frame's.
#[derive(Clone, Copy, Debug)]
struct Pending {
    index: usize,
    same: bool,
}

/// Bounds of a score: `lo <= score <= hi`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Bounds {
    lo: Score,
    hi: Score,
}

impl Bounds {
    /// The score the bounds give for `window` without a search.
    fn settles(self, window: Window) -> Option<Score> {
        if self.lo == self.hi || self.lo >= window.beta {
            Some(self.lo)
        } else if self.hi <= window.alpha {
            Some(self.hi)
        } else {
            None
        }
    }
}

/// What a closed frame proved about its position.
#[derive(Clone, Debug)]
struct Claim {
    key: u64,
    mover: u8,
    score: Score,
    bounds: Bounds,
    best: u16,
    work: u64,
    /// The frames of the line it assumes, its own left out.
    assumes: Assumed,
}

impl Claim {
    /// Whether the claim says that some side wins: such a proof holds no repetition.
    fn firm(&self) -> bool {
        self.bounds.lo > 0 || self.bounds.hi < 0
    }

    /// Whether the claim gives `favoured` what the search's repetitions give it: not losing
    /// when it moves (`lo >= 0`), the opponent not winning when the opponent moves.
    fn favours(&self, favoured: u8) -> bool {
        if self.mover == favoured {
            self.bounds.lo >= 0
        } else {
            self.bounds.hi <= 0
        }
    }
}

/// One open position of the line.
struct Frame<D> {
    key: u64,
    mover: u8,
    alpha: Score,
    beta: Score,
    alpha_at_open: Score,
    /// In the game's listing order.
    decisions: Vec<D>,
    /// Each decision's [`Game::decision_key`], for the history table.
    keys: Vec<u64>,
    /// Indices into `decisions`, in search order.
    order: Vec<usize>,
    next: usize,
    best: Score,
    best_index: usize,
    /// What the best child assumes (what a lower bound uses) and what all children assume
    /// (what an upper bound uses).
    best_assumes: Assumed,
    all_assume: Assumed,
    positions_at_open: u64,
    /// The pending stack's length when the frame opened.
    pending_mark: usize,
    pending: Option<Pending>,
    /// When other players choose parts: each decision's parts, and the bounds of each child.
    parts: Option<Vec<Vec<(u8, String)>>>,
    child_bounds: Vec<Bounds>,
}

impl<D> Default for Frame<D> {
    fn default() -> Frame<D> {
        Frame {
            key: 0,
            mover: 0,
            alpha: -INFINITE,
            beta: INFINITE,
            alpha_at_open: -INFINITE,
            decisions: Vec::new(),
            keys: Vec::new(),
            order: Vec::new(),
            next: 0,
            best: -INFINITE,
            best_index: usize::MAX,
            best_assumes: Assumed::NONE,
            all_assume: Assumed::NONE,
            positions_at_open: 0,
            pending_mark: 0,
            pending: None,
            parts: None,
            child_bounds: Vec::new(),
        }
    }
}

impl<D> Frame<D> {
    fn open(&mut self, key: u64, mover: u8, window: Window, positions: u64, pending_mark: usize) {
        self.key = key;
        self.mover = mover;
        self.alpha = window.alpha;
        self.beta = window.beta;
        self.alpha_at_open = window.alpha;
        self.next = 0;
        self.best = -INFINITE;
        self.best_index = usize::MAX;
        self.best_assumes = Assumed::NONE;
        self.all_assume = Assumed::NONE;
        self.positions_at_open = positions;
        self.pending_mark = pending_mark;
        self.pending = None;
        self.child_bounds.clear();
    }

    /// The table's best decision first, then by history, then in the game's order.
    fn order_moves(
        &mut self,
        remembered: Option<u16>,
        history: &HashMap<u64, u32, BuildKeyHasher>,
    ) {
        self.order.clear();
        self.order.extend(0..self.decisions.len());
        if !history.is_empty() {
            let weights: Vec<u32> = self
                .keys
                .iter()
                .map(|k| history.get(k).copied().unwrap_or(0))
                .collect();
            self.order.sort_by_key(|&i| std::cmp::Reverse(weights[i]));
        }
        if let Some(first) = remembered.map(usize::from) {
            if let Some(at) = self.order.iter().position(|&i| i == first) {
                self.order[..=at].rotate_right(1);
            }
        }
    }

    /// The next decision to search, `None` when all are searched or one cut the rest off.
    fn next_decision(&mut self) -> Option<usize> {
        if self.alpha >= self.beta && self.parts.is_none() {
            return None;
        }
        let index = self.order.get(self.next).copied()?;
        self.next += 1;
        Some(index)
    }

    fn window(&self) -> Window {
        Window {
            alpha: self.alpha,
            beta: self.beta,
        }
    }

    /// Takes in the result of the pending child.
    fn receive(&mut self, found: Found) {
        let Some(Pending { index, same }) = self.pending.take() else {
            return;
        };
        let score = backed(found.score, same);
        self.all_assume = self.all_assume.with(found.assumes);
        if self.parts.is_some() {
            if self.child_bounds.len() < self.decisions.len() {
                let unknown = Bounds {
                    lo: -INFINITE,
                    hi: INFINITE,
                };
                self.child_bounds.resize(self.decisions.len(), unknown);
            }
            self.child_bounds[index] = if score >= self.beta {
                Bounds {
                    lo: score,
                    hi: INFINITE,
                }
            } else {
                Bounds {
                    lo: -INFINITE,
                    hi: score,
                }
            };
            return;
        }
        if score > self.best {
            self.best = score;
            self.best_index = index;
            self.best_assumes = found.assumes;
        }
        self.alpha = self.alpha.max(score);
    }

    /// With parts chosen by others: the parts played out on the children's lower bounds (a
    /// lower bound of the frame) and on their upper bounds (an upper bound); the one that
    /// answers the window is the result.
    fn settle_parts(&mut self) {
        let Some(parts) = &self.parts else {
            return;
        };
        let lows: Vec<Score> = self.child_bounds.iter().map(|b| b.lo).collect();
        let highs: Vec<Score> = self.child_bounds.iter().map(|b| b.hi).collect();
        let lower = play_out_parts(parts, &lows, self.mover);
        let upper = play_out_parts(parts, &highs, self.mover);
        let settled = match (lower, upper) {
            (Some(lower), _) if lower.0 >= self.beta => Some(lower),
            (_, upper) => upper,
        };
        if let Some((best, index)) = settled {
            (self.best, self.best_index) = (best, index);
        }
        self.best_assumes = self.all_assume;
    }

    /// What the frame proved: a lower bound on a fail-high, an upper bound on a fail-low. A
    /// firm claim assumes nothing (its proof holds no repetition), whatever its children
    /// carried along.
    fn claim(&self, own_index: usize, positions: u64) -> Claim {
        let (bounds, assumes) = if self.best >= self.beta {
            let lower = Bounds {
                lo: self.best,
                hi: INFINITE,
            };
            (lower, self.best_assumes)
        } else if self.best <= self.alpha_at_open {
            let upper = Bounds {
                lo: -INFINITE,
                hi: self.best,
            };
            (upper, self.all_assume)
        } else {
            let exact = Bounds {
                lo: self.best,
                hi: self.best,
            };
            (exact, self.all_assume)
        };
        let mut claim = Claim {
            key: self.key,
            mover: self.mover,
            score: self.best,
            bounds,
            best: u16::try_from(self.best_index).unwrap_or(u16::MAX),
            work: positions - self.positions_at_open,
            assumes: assumes.without(own_index),
        };
        if claim.firm() {
            claim.assumes = Assumed::NONE;
        }
        claim
    }
}

/// Each decision's parts, when some part of some decision is chosen by a player other than
/// `me`; `None` otherwise.
fn parts_by_others<G: Game>(
    game: &mut G,
    decisions: &[G::Decision],
    me: u8,
) -> Option<Vec<Vec<(u8, String)>>> {
    let parts: Vec<Vec<(u8, String)>> = decisions.iter().map(|d| game.decision_parts(d)).collect();
    parts
        .iter()
        .any(|p| p.iter().any(|(who, _)| *who != me))
        .then_some(parts)
}

/// The outcome for `me` of a position whose decisions are spelt in `parts` (each part chosen by
/// its player) and lead to `outcomes`, and the decision best play takes; `None` without
/// decisions. Part by part, as the `play` command asks: the options are the distinct texts of
/// the next part, in order; `me` takes the best for itself, anyone else the worst for `me`.
fn play_out_parts<T: Ord + Copy>(
    parts: &[Vec<(u8, String)>],
    outcomes: &[T],
    me: u8,
) -> Option<(T, usize)> {
    let all: Vec<usize> = (0..parts.len().min(outcomes.len())).collect();
    choose_part(parts, outcomes, me, &all, 0)
}

fn choose_part<T: Ord + Copy>(
    parts: &[Vec<(u8, String)>],
    outcomes: &[T],
    me: u8,
    candidates: &[usize],
    level: usize,
) -> Option<(T, usize)> {
    let chooser = candidates
        .iter()
        .find_map(|&i| parts[i].get(level).map(|(who, _)| *who));
    let Some(chooser) = chooser.filter(|_| candidates.len() > 1) else {
        // One candidate, or nothing left to tell them apart: the mover's pick.
        return best_of(candidates.iter().map(|&i| (outcomes[i], i)), true);
    };
    let text = |i: usize| parts[i].get(level).map_or("", |(_, t)| t.as_str());
    let mut options: Vec<&str> = Vec::new();
    for &i in candidates {
        if !options.contains(&text(i)) {
            options.push(text(i));
        }
    }
    let results = options.iter().filter_map(|option| {
        let group: Vec<usize> = candidates
            .iter()
            .copied()
            .filter(|&i| text(i) == *option)
            .collect();
        choose_part(parts, outcomes, me, &group, level + 1)
    });
    best_of(results, chooser == me)
}

/// The highest (or lowest) outcome with its decision; the first on ties.
fn best_of<T: Ord + Copy>(
    results: impl Iterator<Item = (T, usize)>,
    highest: bool,
) -> Option<(T, usize)> {
    let mut best: Option<(T, usize)> = None;
    for (outcome, i) in results {
        let better = match best {
            None => true,
            Some((b, _)) if highest => outcome > b,
            Some((b, _)) => outcome < b,
        };
        if better {
            best = Some((outcome, i));
        }
    }
    best
}

/// Entries per bucket: a key lives in one bucket, in any of its entries.
const BUCKET: usize = 4;

/// One table entry: true bounds of a position's score and its best decision.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    key: u64,
    bounds: Bounds,
    /// The best decision's index in the game's listing order (`u16::MAX`: none).
    best: u16,
    /// The work behind it, as the bit length of the positions searched: what replacement keeps.
    work: u8,
    live: bool,
}

/// An entry as the table holds it: three words, all zero when free.
type Packed = [u64; 3];

impl Entry {
    fn pack(self) -> Packed {
        let bounds = u64::from(self.bounds.lo.cast_unsigned())
            | u64::from(self.bounds.hi.cast_unsigned()) << 32;
        let meta = u64::from(self.best) | u64::from(self.work) << 16 | u64::from(self.live) << 24;
        [self.key, bounds, meta]
    }

    fn unpack(packed: Packed) -> Entry {
        let [key, bounds, meta] = packed;
        #[allow(clippy::cast_possible_truncation)]
        Entry {
            key,
            bounds: Bounds {
                lo: (bounds as u32).cast_signed(),
                hi: ((bounds >> 32) as u32).cast_signed(),
            },
            best: meta as u16,
            work: (meta >> 16) as u8,
            live: (meta >> 24) & 1 == 1,
        }
    }
}

/// The transposition table: entries in buckets, doubling as it fills up to its budget.
struct Table {
    entries: Vec<Packed>,
    buckets: usize,
    live: usize,
    /// The most entries the budget allows at once (while the table doubles, the old entries
    /// and the new ones together).
    budget: usize,
    /// Whether the table may still double.
    growing: bool,
}

/// Entries a table starts with (1.5 MB): small searches stay in the caches.
const FIRST_ENTRIES: usize = 1 << 16;

impl Table {
    /// A table within `bytes`.
    ///
    /// # Errors
    /// The system cannot provide that much memory.
    fn new(bytes: usize) -> Result<Table, SolveError> {
        let budget = (bytes / std::mem::size_of::<Packed>()).max(BUCKET);
        // Ask for the whole budget first, so that a size the system refuses is an error now
        // rather than an abort later; it is given back at once.
        let mut probe: Vec<Packed> = Vec::new();
        probe
            .try_reserve_exact(budget)
            .map_err(|_| SolveError::Memory { bytes })?;
        drop(probe);
        let entries = zeroed(FIRST_ENTRIES.min(budget) / BUCKET * BUCKET)
            .ok_or(SolveError::Memory { bytes })?;
        Ok(Table {
            buckets: entries.len() / BUCKET,
            entries,
            live: 0,
            budget,
            growing: true,
        })
    }

    fn capacity(&self) -> usize {
        self.entries.len()
    }

    /// The key's bucket: its entries.
    fn bucket(&self, key: u64) -> std::ops::Range<usize> {
        let bucket = (u128::from(key) * self.buckets as u128) >> 64;
        let first = usize::try_from(bucket).unwrap_or(0) * BUCKET;
        first..first + BUCKET
    }

    fn probe(&self, key: u64) -> Option<Entry> {
        self.entries
            .get(self.bucket(key))?
            .iter()
            .map(|&p| Entry::unpack(p))
            .find(|e| e.live && e.key == key)
    }

    /// Stores bounds for a key: intersected with the bounds already known for it, else in a
    /// free entry of its bucket, else over the entry that took the least work.
    fn store(&mut self, key: u64, bounds: Bounds, best: u16, positions: u64) {
        let fresh = Entry {
            key,
            bounds,
            best,
            work: u8::try_from(64 - positions.leading_zeros()).unwrap_or(u8::MAX),
            live: true,
        };
        if self.put(fresh) && self.growing && self.live * 4 > self.capacity() {
            self.grow();
        }
    }

    /// Puts an entry in its bucket; `true` when it took a free entry.
    fn put(&mut self, fresh: Entry) -> bool {
        let range = self.bucket(fresh.key);
        let Some(bucket) = self.entries.get_mut(range) else {
            return false;
        };
        let held: [Entry; BUCKET] = std::array::from_fn(|i| Entry::unpack(bucket[i]));
        let (slot, entry, took_free) =
            if let Some(i) = held.iter().position(|e| e.live && e.key == fresh.key) {
                (i, merged(held[i], fresh), false)
            } else if let Some(i) = held.iter().position(|e| !e.live) {
                (i, fresh, true)
            } else {
                let cheapest = (0..BUCKET).min_by_key(|&i| held[i].work).unwrap_or(0);
                (cheapest, fresh, false)
            };
        bucket[slot] = entry.pack();
        self.live += usize::from(took_free);
        took_free
    }

    /// Doubles the table (or grows it as far as the budget allows with the old entries still
    /// held), moving every entry over; stops growing when memory runs out.
    fn grow(&mut self) {
        let size = (self.capacity() * 2).min(self.budget.saturating_sub(self.capacity()));
        let size = size / BUCKET * BUCKET;
        let Some(entries) = zeroed(size).filter(|_| size > self.capacity()) else {
            self.growing = false;
            return;
        };
        let old = std::mem::replace(&mut self.entries, entries);
        self.buckets = size / BUCKET;
        self.live = 0;
        for packed in old {
            let entry = Entry::unpack(packed);
            if entry.live {
                self.put(entry);
            }
        }
    }
}

/// `len` free entries, or `None` when the system cannot provide them.
fn zeroed(len: usize) -> Option<Vec<Packed>> {
    let mut entries: Vec<Packed> = Vec::new();
    entries.try_reserve_exact(len).ok()?;
    entries.resize(len, [0; 3]);
    Some(entries)
}

/// Two entries for one key: both bounds hold, so their intersection does. Disjoint bounds can
/// only come from two positions sharing a key: the newer wins.
fn merged(old: Entry, new: Entry) -> Entry {
    let lo = old.bounds.lo.max(new.bounds.lo);
    let hi = old.bounds.hi.min(new.bounds.hi);
    if lo > hi {
        return new;
    }
    Entry {
        bounds: Bounds { lo, hi },
        work: old.work.max(new.work),
        ..new
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Scores that occur: draws, and wins and losses at every distance up to 40.
    fn scores() -> Vec<Score> {
        let mut all = vec![0, WIN, -WIN];
        for d in 1..40 {
            all.push(WIN - d);
            all.push(d - WIN);
        }
        all
    }

    #[test]
    fn backing_up_adds_a_decision_and_changes_sides() {
        // A loss in 3 for the opponent is a win in 4 for the player who moved there.
        assert_eq!(backed(3 - WIN, false), WIN - 4);
        assert_eq!(backed(WIN - 2, false), 3 - WIN);
        assert_eq!(backed(WIN - 2, true), WIN - 3);
        assert_eq!(backed(0, false), 0);
        for s in scores() {
            for same in [false, true] {
                assert_eq!(child_score(backed(s, same), same), s, "{s} {same}");
            }
        }
    }

    #[test]
    fn a_childs_window_answers_the_parents() {
        let windows = [
            Window::at_least(1),
            Window::at_least(0),
            Window::at_least(WIN - 5),
            Window::at_least(6 - WIN),
        ];
        for w in windows {
            for same in [false, true] {
                let c = w.for_child(same);
                for s in scores() {
                    let parent = backed(s, same);
                    if same {
                        assert_eq!(s >= c.beta, parent >= w.beta, "{w:?} {s}");
                        assert_eq!(s <= c.alpha, parent <= w.alpha, "{w:?} {s}");
                    } else {
                        assert_eq!(s >= c.beta, parent <= w.alpha, "{w:?} {s}");
                        assert_eq!(s <= c.alpha, parent >= w.beta, "{w:?} {s}");
                    }
                }
            }
        }
    }

    #[test]
    fn only_distance_windows_are_bounded() {
        assert!(!Window::at_least(1).bounded());
        assert!(!Window::at_least(0).bounded());
        assert!(Window::at_least(WIN - 30).bounded());
        assert!(Window::at_least(31 - WIN).bounded());
        // Asking a position that is not over for a win now: settled at once.
        assert_eq!(Window::at_least(WIN).out_of_reach(), Some(WIN - 1));
        assert_eq!(Window::at_least(1 - WIN).out_of_reach(), Some(1 - WIN));
        assert_eq!(Window::at_least(WIN - 1).out_of_reach(), None);
    }

    #[test]
    fn firm_claims_say_that_someone_wins() {
        let claim = |lo, hi| Claim {
            key: 1,
            mover: 0,
            score: 0,
            bounds: Bounds { lo, hi },
            best: 0,
            work: 1,
            assumes: Assumed::NONE,
        };
        assert!(claim(WIN - 3, INFINITE).firm());
        assert!(claim(-INFINITE, 3 - WIN).firm());
        assert!(!claim(0, INFINITE).firm());
        assert!(!claim(-INFINITE, 0).firm());
        assert!(!claim(-INFINITE, WIN - 4).firm(), "no win within 3: soft");
        assert!(!claim(4 - WIN, INFINITE).firm(), "no loss within 3: soft");
    }

    #[test]
    fn entries_pack_and_unpack() {
        let e = Entry {
            key: 0xDEAD_BEEF_0123_4567,
            bounds: Bounds {
                lo: 7 - WIN,
                hi: INFINITE,
            },
            best: 513,
            work: 40,
            live: true,
        };
        assert_eq!(Entry::unpack(e.pack()), e);
        assert_eq!(Entry::unpack([0; 3]), Entry::default());
    }

    #[test]
    fn the_table_intersects_bounds_and_replaces_the_cheapest() {
        let mut t = Table::new(BUCKET * std::mem::size_of::<Packed>()).expect("a table");
        assert_eq!(t.capacity(), BUCKET);
        let lower = Bounds {
            lo: 0,
            hi: INFINITE,
        };
        let upper = Bounds {
            lo: -INFINITE,
            hi: 0,
        };
        t.store(10, lower, 2, 1000);
        t.store(10, upper, 3, 10);
        let e = t.probe(10).expect("stored");
        assert_eq!(e.bounds, Bounds { lo: 0, hi: 0 });
        assert_eq!((e.best, e.live), (3, true));
        assert_eq!(t.live, 1);
        // Three more fill the bucket; the fifth replaces the one that took least work.
        for (key, work) in [(11, 100), (12, 5), (13, 50)] {
            t.store(key, lower, 0, work);
        }
        assert_eq!(t.live, 4);
        t.store(14, lower, 0, 60);
        assert!(t.probe(12).is_none());
        assert!(t.probe(10).is_some() && t.probe(14).is_some());
        assert_eq!(t.live, 4);
    }

    #[test]
    fn the_table_doubles_as_it_fills_within_its_budget() {
        let budget = 10 * FIRST_ENTRIES * std::mem::size_of::<Packed>();
        let mut t = Table::new(budget).expect("a table");
        assert_eq!(t.capacity(), FIRST_ENTRIES);
        let keys: Vec<u64> = (1..=200_000u64)
            .map(|k| k.wrapping_mul(0x9E37_79B9_7F4A_7C15))
            .collect();
        let lower = Bounds {
            lo: 0,
            hi: INFINITE,
        };
        for &k in &keys {
            t.store(k, lower, 0, 1);
        }
        // 64k, 128k, 256k entries, then 384k: with the 256k still held, the budget of 640k
        // allows no more; and no more after that.
        assert_eq!(t.capacity(), 6 * FIRST_ENTRIES);
        t.grow();
        assert_eq!((t.capacity(), t.growing), (6 * FIRST_ENTRIES, false));
        let found = keys.iter().filter(|&&k| t.probe(k).is_some()).count();
        assert!(found * 100 >= keys.len() * 99, "{found}");
        assert_eq!(t.live, found);
    }

    #[test]
    fn a_table_the_system_cannot_give_is_an_error() {
        assert!(matches!(
            Table::new(usize::MAX / 2),
            Err(SolveError::Memory { .. })
        ));
    }

    #[test]
    fn bounds_settle_what_they_can() {
        let w = Window::at_least(1);
        let lower = |lo| Bounds { lo, hi: INFINITE };
        let upper = |hi| Bounds { lo: -INFINITE, hi };
        assert_eq!(lower(WIN - 3).settles(w), Some(WIN - 3));
        assert_eq!(upper(0).settles(w), Some(0));
        assert_eq!(lower(0).settles(w), None);
        assert_eq!(Bounds { lo: 0, hi: 0 }.settles(w), Some(0));
    }

    #[test]
    fn parts_are_chosen_by_their_players() {
        let part = |who: u8, text: &str| (who, text.to_string());
        // Player 0 moves: `a` (then player 1 picks /x or /y) or `b`.
        let parts = vec![
            vec![part(0, "a"), part(1, "/x")],
            vec![part(0, "a"), part(1, "/y")],
            vec![part(0, "b")],
        ];
        // Player 1 answers `a` with the worse of 9 and 1: `a` is worth 1, less than `b`'s 5.
        assert_eq!(play_out_parts(&parts, &[9, 1, 5], 0), Some((5, 2)));
        assert_eq!(play_out_parts(&parts, &[9, 7, 5], 0), Some((7, 1)));
        assert_eq!(play_out_parts::<Score>(&[], &[], 0), None);
    }
}
