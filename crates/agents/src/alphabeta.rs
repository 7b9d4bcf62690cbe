//! Alpha-beta search for any game: iterative-deepening negamax with a transposition table on
//! the position key, the previous iteration's best decision searched first, expectimax over
//! chance (the average over a roll's outcomes), and repetition on the current line scored as
//! a draw.
//!
//! Where it stops short of the end it asks [`Game::evaluate`]: a game's `heuristic` when it
//! declares one, else the default count of material.
//!
//! Invariant: the game is back at the position it was given when `choose` returns, whether
//! the search finished or ran out of time.

use std::time::Duration;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::clock::Clock;
use super::{result_value, Agent, Thought};
use rulestone_runtime::{Game, GameResult};

/// The settings of [`AlphaBeta`]; see `AGENTS_HELP` in `spec.rs`.
#[derive(Clone, Debug, PartialEq)]
pub struct AlphaBetaConfig {
    /// The deepest iteration; with neither this nor a time budget, 4.
    pub depth: Option<u32>,
    /// A wall-clock budget per decision.
    pub time: Option<Duration>,
    /// A budget per decision in CPU time of the searching thread.
    pub cpu: Option<Duration>,
    /// The transposition table's size in MiB.
    pub memory_mb: u32,
}

impl Default for AlphaBetaConfig {
    fn default() -> AlphaBetaConfig {
        AlphaBetaConfig {
            depth: None,
            time: None,
            cpu: None,
            memory_mb: 16,
        }
    }
}

impl AlphaBetaConfig {
    fn depth_limit(&self) -> u32 {
        match (self.depth, self.has_time_budget()) {
            (Some(d), _) => d.min(MAX_DEPTH),
            (None, true) => MAX_DEPTH,
            (None, false) => 4,
        }
    }

    /// Whether a wall-clock or CPU budget is set.
    #[must_use]
    pub fn has_time_budget(&self) -> bool {
        self.time.is_some() || self.cpu.is_some()
    }
}

const MAX_DEPTH: u32 = 64;
/// A won position's score, less the plies it takes: quicker wins score higher.
const WIN: i32 = 1_000_000;
/// The evaluation's `-1.0..=1.0` is scaled to this.
const EVAL_SCALE: f64 = 10_000.0;
/// Decisions drawn at a position whose decisions are continuous.
const SAMPLED: usize = 12;
/// Nodes between looks at the clock.
const CLOCK_EVERY: u64 = 256;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Bound {
    Exact,
    /// The score is at least this (a cut-off).
    Lower,
    /// The score is at most this (no decision raised alpha).
    Upper,
}

#[derive(Clone, Copy, Debug)]
struct Entry {
    key: u64,
    depth: u8,
    bound: Bound,
    score: i32,
    /// The index of the best decision in the listing order.
    best: u16,
}

/// The search ran out of time.
struct OutOfTime;

/// The alpha-beta player.
pub struct AlphaBeta<G: Game> {
    config: AlphaBetaConfig,
    table: Vec<Option<Entry>>,
    /// Position keys on the current line, to score a repetition as a draw.
    line: Vec<u64>,
    clock: Clock,
    nodes: u64,
    rng: ChaCha8Rng,
    _game: std::marker::PhantomData<fn(&mut G)>,
}

impl<G: Game> AlphaBeta<G> {
    #[must_use]
    pub fn new(config: AlphaBetaConfig) -> AlphaBeta<G> {
        AlphaBeta {
            config,
            table: Vec::new(),
            line: Vec::new(),
            clock: Clock::start(None, None),
            nodes: 0,
            rng: ChaCha8Rng::seed_from_u64(0),
            _game: std::marker::PhantomData,
        }
    }

    fn slot(&self, key: u64) -> usize {
        #[allow(clippy::cast_possible_truncation)]
        let i = (key % self.table.len() as u64) as usize;
        i
    }

    fn probe(&self, key: Option<u64>) -> Option<Entry> {
        let key = key?;
        self.table[self.slot(key)].filter(|e| e.key == key)
    }

    fn store(&mut self, key: Option<u64>, entry: Entry) {
        if let Some(key) = key {
            let slot = self.slot(key);
            self.table[slot] = Some(Entry { key, ..entry });
        }
    }

    /// The decisions open, and whether chance takes them; sampled when continuous.
    fn open(&mut self, game: &mut G) -> (Vec<G::Decision>, bool) {
        let mut listed = Vec::new();
        if !game.decisions(&mut listed) {
            listed = (0..SAMPLED)
                .filter_map(|_| game.sample(&mut self.rng))
                .collect();
        }
        let chance = !listed.is_empty() && game.chance();
        (listed, chance)
    }

    /// The score of the position for the player to move, searched `depth` decisions deep.
    fn search(
        &mut self,
        game: &mut G,
        depth: u32,
        mut alpha: i32,
        beta: i32,
        ply: i32,
    ) -> Result<i32, OutOfTime> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(CLOCK_EVERY) && self.clock.expired() {
            return Err(OutOfTime);
        }
        let me = game.to_move();
        if let Some(r) = game.outcome() {
            return Ok(terminal(r, me, ply));
        }
        if depth == 0 {
            return Ok(evaluation(game, me));
        }
        let key = game.position_key();
        let remembered = self.probe(key);
        if let Some(e) = remembered.filter(|e| u32::from(e.depth) >= depth) {
            match e.bound {
                Bound::Exact => return Ok(e.score),
                Bound::Lower if e.score >= beta => return Ok(e.score),
                Bound::Upper if e.score <= alpha => return Ok(e.score),
                _ => {}
            }
        }
        let (decisions, chance) = self.open(game);
        if decisions.is_empty() {
            return Ok(evaluation(game, me));
        }
        if chance {
            return self.average(game, &decisions, depth, ply);
        }
        let mut order: Vec<usize> = (0..decisions.len()).collect();
        if let Some(e) = remembered {
            let first = usize::from(e.best);
            if first < order.len() {
                order.swap(0, first);
            }
        }
        let start_alpha = alpha;
        let mut best = (i32::MIN, 0usize);
        for i in order {
            let score = self.child(game, &decisions[i], me, depth, alpha, beta, ply)?;
            if score > best.0 {
                best = (score, i);
            }
            alpha = alpha.max(score);
            if alpha >= beta {
                break;
            }
        }
        let bound = if best.0 >= beta {
            Bound::Lower
        } else if best.0 <= start_alpha {
            Bound::Upper
        } else {
            Bound::Exact
        };
        self.store(
            key,
            Entry {
                key: 0,
                depth: u8::try_from(depth).unwrap_or(u8::MAX),
                bound,
                score: best.0,
                best: u16::try_from(best.1).unwrap_or(0),
            },
        );
        Ok(best.0)
    }

    /// The score for `me` of taking `decision`: negated when the opponent moves next.
    #[allow(clippy::too_many_arguments)]
    fn child(
        &mut self,
        game: &mut G,
        decision: &G::Decision,
        me: u8,
        depth: u32,
        alpha: i32,
        beta: i32,
        ply: i32,
    ) -> Result<i32, OutOfTime> {
        game.apply(decision);
        let key = game.position_key();
        let repeated = key.is_some_and(|k| self.line.contains(&k));
        let result = if repeated {
            Ok(0)
        } else {
            if let Some(k) = key {
                self.line.push(k);
            }
            let same = game.to_move() == me;
            let r = if same {
                self.search(game, depth - 1, alpha, beta, ply + 1)
            } else {
                self.search(game, depth - 1, -beta, -alpha, ply + 1)
                    .map(|s| -s)
            };
            if key.is_some() {
                self.line.pop();
            }
            r
        };
        game.undo();
        result
    }

    /// Chance decides: the mean over the equally likely outcomes, each searched in full.
    fn average(
        &mut self,
        game: &mut G,
        outcomes: &[G::Decision],
        depth: u32,
        ply: i32,
    ) -> Result<i32, OutOfTime> {
        let me = game.to_move();
        let mut sum = 0i64;
        for d in outcomes {
            sum += i64::from(self.child(game, d, me, depth, -WIN - 1, WIN + 1, ply)?);
        }
        let n = i64::try_from(outcomes.len()).unwrap_or(1).max(1);
        Ok(i32::try_from(sum / n).unwrap_or(0))
    }

    /// The root: every decision with its score at `depth`, best first.
    fn root(
        &mut self,
        game: &mut G,
        decisions: &[G::Decision],
        previous_best: usize,
        depth: u32,
    ) -> Result<Vec<(usize, i32)>, OutOfTime> {
        let me = game.to_move();
        let mut order: Vec<usize> = (0..decisions.len()).collect();
        order.swap(0, previous_best.min(decisions.len() - 1));
        let mut alpha = -WIN - 1;
        let mut scored = Vec::new();
        for i in order {
            let score = self.child(game, &decisions[i], me, depth, alpha, WIN + 1, 0)?;
            alpha = alpha.max(score);
            scored.push((i, score));
        }
        scored.sort_by_key(|s| std::cmp::Reverse(s.1));
        Ok(scored)
    }
}

fn terminal(result: GameResult, me: u8, ply: i32) -> i32 {
    match result_value(result, me) {
        v if v > 0.75 => WIN - ply,
        v if v < 0.25 => -WIN + ply,
        _ => 0,
    }
}

fn evaluation<G: Game>(game: &mut G, me: u8) -> i32 {
    #[allow(clippy::cast_possible_truncation)]
    let score = (game.evaluate(me).clamp(-1.0, 1.0) * EVAL_SCALE) as i32;
    score
}

/// A score as the expected result for the player to move, 0 to 1.
fn as_value(score: i32) -> f64 {
    if score >= WIN - 10_000 {
        1.0
    } else if score <= -WIN + 10_000 {
        0.0
    } else {
        0.5 + 0.5 * (f64::from(score) / EVAL_SCALE).clamp(-1.0, 1.0)
    }
}

impl<G: Game> Agent<G> for AlphaBeta<G> {
    fn name(&self) -> String {
        super::AgentSpec::AlphaBeta(self.config.clone()).to_string()
    }

    fn choose(&mut self, game: &mut G) -> Option<Thought<G::Decision>> {
        if game.outcome().is_some() {
            return None;
        }
        if self.table.is_empty() {
            let entries =
                (self.config.memory_mb as usize * (1 << 20)) / std::mem::size_of::<Option<Entry>>();
            self.table = vec![None; entries.max(1024)];
        }
        self.clock = Clock::start(self.config.time, self.config.cpu);
        self.nodes = 0;
        self.line.clear();
        self.line.extend(game.position_key());
        let (decisions, chance) = self.open(game);
        if decisions.is_empty() {
            return None;
        }
        if chance {
            // Chance's decision is not the agent's to take: draw one as the game would.
            let d = game.sample(&mut self.rng)?;
            return Some(Thought {
                decision: d,
                value: None,
                ranked: Vec::new(),
                unit: "depth",
                summary: "chance decides".to_string(),
            });
        }
        let mut scored: Vec<(usize, i32)> = vec![(0, 0)];
        let mut reached = 0;
        for depth in 1..=self.config.depth_limit() {
            match self.root(game, &decisions, scored[0].0, depth) {
                Ok(s) => {
                    scored = s;
                    reached = depth;
                }
                Err(OutOfTime) => break,
            }
            if scored[0].1.abs() >= WIN - 10_000 {
                break;
            }
        }
        let best = scored[0];
        Some(Thought {
            decision: decisions[best.0].clone(),
            value: Some(as_value(best.1)),
            ranked: scored
                .iter()
                .take(1)
                .map(|&(i, s)| (decisions[i].clone(), as_value(s), u64::from(reached)))
                .collect(),
            unit: "depth",
            summary: format!(
                "depth {reached}, {} nodes in {}",
                self.nodes,
                self.clock.spent()
            ),
        })
    }

    fn reset(&mut self) {
        self.table.iter_mut().for_each(|e| *e = None);
    }
}
