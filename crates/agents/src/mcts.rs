//! Monte Carlo tree search (UCT) with random playouts, for any game.
//!
//! Each iteration walks down the tree from the position to decide, choosing by UCB1 among a
//! node's children; it adds one child, plays a random continuation from it
//! ([`Game::rollout`], compiled code when the game has it) and credits the result to every
//! node on the way, each for the player who took the decision leading to it.
//!
//! - **Chance** (a roll): the child is drawn uniformly among the outcomes, as
//!   [`Game::sample`] would, so the tree averages over them.
//! - **Continuous decisions** (a table game's shot): children are drawn with
//!   [`Game::sample`], a new one whenever the node's visits allow (progressive widening), so
//!   the search tries many shots and keeps the one whose continuations went best.
//! - **Tree reuse**: [`Agent::observe`] moves the root to the child of the decision taken, so
//!   what was learned about that position carries over to the next decision.
//! - **Proven results** (MCTS-Solver): a finished game is a proven win or loss for the player
//!   who took the decision leading to it. A node among players' decisions whose player to move
//!   has a proven winning child is proven (that child is always chosen), and one whose children
//!   are all listed and all proven losses for that player is proven the other way. Iterations
//!   that reach a proven node credit its result without a playout, proven losses are avoided,
//!   and a proven win at the root is played at once. This is what random playouts miss most:
//!   a win or a loss a few decisions away. Chance and sampled nodes are never proven, and draws
//!   are not proven either (they only count by their playouts).
//!
//! - **First-play urgency and RAVE**: a node's decisions all become children when it is first
//!   walked through. An untried one is worth [`MctsConfig::fpu`] (infinite by default: each is
//!   tried once before any twice). With RAVE on ([`MctsConfig::rave`] above 0), every
//!   iteration also credits, at every node on its path, the children whose decision the same
//!   player took later in the iteration (all moves as first, told by [`Game::decision_key`]);
//!   a child's value blends that in with weight `sqrt(k / (3 visits + k))`, and an untried
//!   child with such values is worth them instead of the urgency, unless the urgency is
//!   infinite. The playouts then run through [`Game::decisions`] and [`Game::apply`] to note
//!   their decisions, not [`Game::rollout`]. RAVE stays off for a game whose decision keys do
//!   not tell the root's decisions apart.
//!
//! - **Bounded tree**: a search stops once its tree holds [`MAX_TREE`] nodes, whatever its
//!   iteration or time budget, so memory never grows without end.
//!
//! - **Threads** ([`MctsConfig::threads`], root parallelisation): with several, each thread
//!   searches a tree of its own, from a copy of the position ([`Game::fork`]) and with its own
//!   seed (mixed from the agent's and the thread's number; thread 0, the calling thread, keeps
//!   the agent's), and the root's decisions are ranked by their visits and values added up
//!   over the trees. An iteration budget is shared out among the threads, so the same seed,
//!   budget and thread count give the same decision; a time budget holds for each thread
//!   (CPU time is each thread's own). A decision proven in any tree is proven: a proven win
//!   is played, and with a time budget a thread that proves its root stops the others. Each
//!   tree is kept between decisions and holds up to [`MAX_TREE`] nodes. One thread searches
//!   exactly as before threads existed; a game that cannot be copied is searched on one.
//!
//! Invariant: the game is at the root's position whenever `choose` starts and ends an
//! iteration (every decision applied on the way down is undone).

use std::time::Duration;

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use std::sync::atomic::{AtomicBool, Ordering};

use super::clock::Clock;
use super::contest::mix;
use super::{rollout_value, Agent, Thought};
use rulestone_base::hash::KeySet;
use rulestone_runtime::{Game, GameResult};

/// The settings of [`Mcts`]; see `AGENTS_HELP` in `spec.rs`.
#[derive(Clone, Debug, PartialEq)]
pub struct MctsConfig {
    /// Iterations per decision; with neither this nor a time budget, 1000.
    pub iterations: Option<u32>,
    /// A wall-clock budget per decision.
    pub time: Option<Duration>,
    /// A budget per decision in CPU time of the searching thread.
    pub cpu: Option<Duration>,
    /// The exploration constant of UCB1.
    pub exploration: f64,
    /// The longest random continuation, in decisions; one cut there is worth what
    /// [`Game::evaluate`] says of the position it reached.
    pub max_steps: u32,
    /// First-play urgency: the value an untried decision is given when nothing is known of
    /// it, against the UCB1 scores of the tried ones (`f64::INFINITY`: every decision is tried
    /// once before any is tried twice).
    pub fpu: f64,
    /// The RAVE equivalence constant (all-moves-as-first values, blended into a decision's
    /// own value with weight `sqrt(k / (3 visits + k))`); 0 turns RAVE off.
    pub rave: f64,
    /// Threads that search at once, each its own tree (root parallelisation); 1 to
    /// [`MAX_THREADS`].
    pub threads: u32,
}

impl Default for MctsConfig {
    fn default() -> MctsConfig {
        MctsConfig {
            iterations: None,
            time: None,
            cpu: None,
            exploration: 0.5,
            max_steps: 200,
            fpu: f64::INFINITY,
            rave: 0.0,
            threads: 1,
        }
    }
}

impl MctsConfig {
    /// The iteration budget that applies: the one given, else none when a time budget is
    /// given, else 1000.
    #[must_use]
    pub fn iteration_limit(&self) -> u32 {
        match (self.iterations, self.has_time_budget()) {
            (Some(n), _) => n,
            (None, true) => u32::MAX,
            (None, false) => 1000,
        }
    }

    /// Whether a wall-clock or CPU budget is set.
    #[must_use]
    pub fn has_time_budget(&self) -> bool {
        self.time.is_some() || self.cpu.is_some()
    }

    /// The iteration budget of thread `thread` of [`MctsConfig::threads`]: the iteration
    /// budget (the default 1000 too) is shared out among the threads, the first ones getting
    /// one more when it does not divide; with only a time budget, each thread runs until its
    /// time is up.
    #[must_use]
    pub fn thread_limit(&self, thread: u32) -> u32 {
        let limit = self.iteration_limit();
        if self.iterations.is_none() && self.has_time_budget() {
            return limit;
        }
        let threads = self.threads.clamp(1, MAX_THREADS);
        limit / threads + u32::from(thread < limit % threads)
    }
}

/// The most threads one search may use (`threads=`): each holds a tree of up to [`MAX_TREE`]
/// nodes.
pub const MAX_THREADS: u32 = 64;

const ROOT: usize = 0;

/// Mixed into the seed of each helper thread's search, so that its seed differs from any
/// other seed that [`mix`] derives from the agent's.
const THREAD_SALT: u64 = 0x7468_7265_6164;

/// The most nodes a search tree holds (a search stops adding once there; one iteration adds
/// at most one position's decisions): a few hundred megabytes at most, however many
/// iterations or seconds the search was given.
pub const MAX_TREE: usize = 2_000_000;

/// What a node knows about the decisions open in its position.
#[derive(Clone, Debug)]
enum Open<D> {
    /// Not listed yet: the node was never walked through.
    Unknown,
    /// The game is over here.
    Over(GameResult),
    /// Players' decisions; `untried` are not children yet.
    Choices { untried: Vec<D> },
    /// Chance decides among `outcomes`, equally likely; children are made as they are drawn.
    Chance { outcomes: Vec<D> },
    /// Continuous decisions, sampled.
    Sampled,
}

#[derive(Clone, Debug)]
struct Node<D> {
    /// The decision leading here (none at the root).
    decision: Option<D>,
    /// The player who took it.
    mover: u8,
    children: Vec<usize>,
    open: Open<D>,
    visits: u32,
    /// Total value credited, for `mover`.
    value: f64,
    /// What is proven of the game from here, for `mover`.
    proof: Proof,
    /// The decision's key for RAVE ([`Game::decision_key`], told apart by `mover`).
    key: u64,
    /// Playouts through the parent in which `mover` took this decision later on (all moves
    /// as first), and the value they credited to `mover`.
    amaf_visits: u32,
    amaf_value: f64,
}

/// A node's proven result for the player who took the decision leading to it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Proof {
    Unknown,
    Win,
    Loss,
}

impl Proof {
    /// The proof for `mover` that a player `winner` wins.
    fn of(mover: u8, winner: u8) -> Proof {
        if mover == winner {
            Proof::Win
        } else {
            Proof::Loss
        }
    }
}

impl<D> Node<D> {
    fn new(decision: Option<D>, mover: u8, key: u64) -> Node<D> {
        Node {
            decision,
            mover,
            children: Vec::new(),
            open: Open::Unknown,
            visits: 0,
            value: 0.0,
            proof: Proof::Unknown,
            key: salted(key, mover),
            amaf_visits: 0,
            amaf_value: 0.0,
        }
    }

    /// The winner this node is proven for, if any.
    fn proven_winner(&self) -> Option<u8> {
        match self.proof {
            Proof::Unknown => None,
            Proof::Win => Some(self.mover),
            Proof::Loss => Some(1 - self.mover.min(1)),
        }
    }

    fn mean(&self) -> f64 {
        if self.visits == 0 {
            0.5
        } else {
            self.value / f64::from(self.visits)
        }
    }
}

/// A decision's key told apart by the player who takes it, mixed (a multiply by an odd
/// constant, one to one) so that it can serve as its own hash in a [`KeySet`].
fn salted(key: u64, mover: u8) -> u64 {
    (key ^ u64::from(mover)
        .wrapping_add(1)
        .wrapping_mul(0x9E37_79B9_7F4A_7C15))
    .wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The UCT player.
pub struct Mcts<G: Game> {
    config: MctsConfig,
    rng: ChaCha8Rng,
    /// The tree, root at index 0.
    nodes: Vec<Node<G::Decision>>,
    /// The position key of the root, to notice a game that moved on without telling.
    root_key: Option<u64>,
    /// Whether `observe` moved the root since the last `choose`: for games without position
    /// keys, the only sign that the tree still matches the game.
    observed: bool,
    /// Reused buffers.
    path: Vec<usize>,
    listed: Vec<G::Decision>,
    /// Iterations run since the agent was made (a proven root stops a search short of its
    /// limit, so the limit alone overstates the work).
    iterations: u64,
    /// Whether this search keeps RAVE values: asked for, and the game's decision keys tell
    /// the root's decisions apart.
    rave_on: bool,
    /// The salted keys of the decisions of the last playout, and the set of those after a
    /// node, reused.
    trace: Vec<u64>,
    seen: KeySet,
    /// The searches of threads 2 and on ([`MctsConfig::threads`]), each with its own tree and
    /// seed; empty on one thread.
    helpers: Vec<Mcts<G>>,
}

/// What a search found of one decision at the root: its proof, the decision, the value credited
/// to it and its visits.
type RootStat<D> = (Proof, D, f64, u64);

impl<G: Game> Mcts<G> {
    /// A searcher; `seed` fixes its random choices. With several threads, thread `t` (from 0)
    /// searches with a seed mixed from `seed` and `t`, thread 0 with `seed` itself.
    #[must_use]
    pub fn new(mut config: MctsConfig, seed: u64) -> Mcts<G> {
        config.threads = config.threads.clamp(1, MAX_THREADS);
        let helpers = (1..config.threads)
            .map(|t| {
                let one = MctsConfig {
                    threads: 1,
                    ..config.clone()
                };
                Mcts::new(one, mix(seed, u64::from(t), THREAD_SALT))
            })
            .collect();
        Mcts {
            config,
            rng: ChaCha8Rng::seed_from_u64(seed),
            nodes: Vec::new(),
            root_key: None,
            observed: false,
            path: Vec::new(),
            listed: Vec::new(),
            iterations: 0,
            rave_on: false,
            trace: Vec::new(),
            seen: KeySet::default(),
            helpers,
        }
    }

    /// Iterations run since the agent was made, over every search.
    #[must_use]
    pub fn iterations(&self) -> u64 {
        self.iterations
    }

    /// One iteration from the root (the game's position); returns the value credited to the
    /// root's player to move.
    fn iterate(&mut self, game: &mut G) {
        self.path.clear();
        self.path.push(ROOT);
        let mut node = ROOT;
        let mut applied = 0usize;
        let over = loop {
            if matches!(self.nodes[node].open, Open::Unknown) {
                self.nodes[node].open = self.list(game);
                if let Open::Over(GameResult::Win(w)) = self.nodes[node].open {
                    let n = &mut self.nodes[node];
                    n.proof = Proof::of(n.mover, w);
                }
            }
            if let Open::Over(r) = self.nodes[node].open {
                break Some(r);
            }
            if node != ROOT {
                if let Some(w) = self.nodes[node].proven_winner() {
                    break Some(GameResult::Win(w));
                }
            }
            let Some((next, fresh)) = self.step(game, node) else {
                // A continuous decision that could not be drawn: nothing to search.
                break Some(GameResult::Draw);
            };
            let decision = self.nodes[next]
                .decision
                .clone()
                .expect("every child has the decision leading to it");
            game.apply(&decision);
            applied += 1;
            self.path.push(next);
            node = next;
            if fresh {
                break None;
            }
        };
        self.trace.clear();
        let (result, scores, evaluation) = match over {
            Some(r) => (Some(r), game.scores(), 0.0),
            None => match game.outcome() {
                Some(r) => (Some(r), game.scores(), 0.0),
                None if self.rave_on => self.traced_rollout(game),
                None => {
                    let r = game.rollout(&mut self.rng, self.config.max_steps);
                    (r.result, r.scores, r.evaluation)
                }
            },
        };
        for &n in &self.path {
            let node = &mut self.nodes[n];
            node.visits += 1;
            node.value += rollout_value(result, scores, evaluation, node.mover);
        }
        if self.rave_on {
            self.credit_amaf(|mover| rollout_value(result, scores, evaluation, mover));
        }
        for at in (0..self.path.len().saturating_sub(1)).rev() {
            if !self.settle(self.path[at]) {
                break;
            }
        }
        for _ in 0..applied {
            game.undo();
        }
    }

    /// A random continuation from the game's position, as [`Game::rollout`] plays it, that
    /// also notes each decision's salted key in `trace`; back at the position afterwards.
    fn traced_rollout(&mut self, game: &mut G) -> (Option<GameResult>, Option<[i32; 2]>, f64) {
        let mut listed = std::mem::take(&mut self.listed);
        let mut steps = 0u32;
        while steps < self.config.max_steps {
            let mover = game.to_move();
            let decision = if game.decisions(&mut listed) {
                if listed.is_empty() {
                    break;
                }
                listed[self.rng.gen_range(0..listed.len())].clone()
            } else {
                match game.sample(&mut self.rng) {
                    Some(d) => d,
                    None => break,
                }
            };
            self.trace.push(salted(game.decision_key(&decision), mover));
            game.apply(&decision);
            steps += 1;
        }
        self.listed = listed;
        let result = game.outcome();
        let out = match result {
            Some(_) => (result, game.scores(), 0.0),
            None if steps < self.config.max_steps => (Some(GameResult::Draw), None, 0.0),
            None => (None, None, game.evaluate(0)),
        };
        for _ in 0..steps {
            game.undo();
        }
        out
    }

    /// Credits the last iteration to the all-moves-as-first values of the children of every
    /// node on its path: a child gets it when its player took its decision later in the
    /// iteration (first occurrence or not: a key is in the set or not). `value` is the
    /// iteration's value for a player.
    fn credit_amaf(&mut self, value: impl Fn(u8) -> f64) {
        let mut seen = std::mem::take(&mut self.seen);
        seen.clear();
        seen.extend(self.trace.iter().copied());
        let values = [value(0), value(1)];
        for at in (0..self.path.len()).rev() {
            if let Some(&below) = self.path.get(at + 1) {
                seen.insert(self.nodes[below].key);
            }
            let node = self.path[at];
            for i in 0..self.nodes[node].children.len() {
                let c = self.nodes[node].children[i];
                let child = &mut self.nodes[c];
                if seen.contains(&child.key) {
                    child.amaf_visits += 1;
                    child.amaf_value += values[usize::from(child.mover & 1)];
                }
            }
        }
        self.seen = seen;
    }

    /// Proves `node` from its children where it can; `true` when it became proven.
    fn settle(&mut self, node: usize) -> bool {
        let n = &self.nodes[node];
        let Open::Choices { untried } = &n.open else {
            return false;
        };
        if n.proof != Proof::Unknown {
            return false;
        }
        let Some(&first) = n.children.first() else {
            return false;
        };
        // Every child's decision was taken by the player to move here.
        let to_move = self.nodes[first].mover;
        let children = || n.children.iter().map(|&c| self.nodes[c].proof);
        let winner = if children().any(|p| p == Proof::Win) {
            to_move
        } else if untried.is_empty() && children().all(|p| p == Proof::Loss) {
            1 - to_move.min(1)
        } else {
            return false;
        };
        let proof = Proof::of(n.mover, winner);
        self.nodes[node].proof = proof;
        true
    }

    /// What is open at the game's position.
    fn list(&mut self, game: &mut G) -> Open<G::Decision> {
        let mut listed = std::mem::take(&mut self.listed);
        let discrete = game.decisions(&mut listed);
        let open = if !discrete {
            Open::Sampled
        } else if listed.is_empty() {
            match game.outcome() {
                Some(r) => Open::Over(r),
                None => Open::Over(GameResult::Draw),
            }
        } else if game.chance() {
            Open::Chance {
                outcomes: listed.clone(),
            }
        } else {
            let mut untried = listed.clone();
            untried.shuffle(&mut self.rng);
            Open::Choices { untried }
        };
        self.listed = listed;
        open
    }

    /// The child to walk into from `node`, and whether it was just made.
    fn step(&mut self, game: &mut G, node: usize) -> Option<(usize, bool)> {
        let mover = game.to_move();
        let drawn = match &mut self.nodes[node].open {
            Open::Choices { untried } => {
                // Every decision becomes a child at once (in the shuffled order), so that
                // first-play urgency and RAVE can rank the untried ones.
                for d in std::mem::take(untried).into_iter().rev() {
                    self.add_child(game, node, d, mover);
                }
                None
            }
            Open::Chance { outcomes } => {
                Some(outcomes[self.rng.gen_range(0..outcomes.len())].clone())
            }
            Open::Sampled => {
                let n = &self.nodes[node];
                // Progressive widening: about 2·√visits children.
                let room = 2.0 * f64::from(n.visits + 1).sqrt();
                #[allow(clippy::cast_precision_loss)]
                let widen = (n.children.len() as f64) < room || n.children.is_empty();
                if widen {
                    if let Some(d) = game.sample(&mut self.rng) {
                        return Some((self.add_child(game, node, d, mover), true));
                    }
                }
                None
            }
            Open::Unknown | Open::Over(_) => None,
        };
        let Some(d) = drawn else {
            return self
                .best_by_ucb(node)
                .map(|c| (c, self.nodes[c].visits == 0));
        };
        let found = self.nodes[node]
            .children
            .iter()
            .copied()
            .find(|&c| self.nodes[c].decision.as_ref() == Some(&d));
        Some(match found {
            Some(c) => (c, false),
            None => (self.add_child(game, node, d, mover), true),
        })
    }

    fn add_child(&mut self, game: &G, parent: usize, decision: G::Decision, mover: u8) -> usize {
        let id = self.nodes.len();
        let key = game.decision_key(&decision);
        self.nodes.push(Node::new(Some(decision), mover, key));
        self.nodes[parent].children.push(id);
        id
    }

    /// The child to walk into by UCB1: a proven win at once, a proven loss only when every
    /// child is one.
    fn best_by_ucb(&self, node: usize) -> Option<usize> {
        let parent = &self.nodes[node];
        // `libm`'s logarithm, not the platform's: the same bits on every machine, so a seeded
        // search makes the same choices everywhere (`sqrt` is exact by IEEE 754 already).
        let log_n = libm::log(f64::from(parent.visits.max(1)));
        let c = self.config.exploration;
        let k = self.config.rave;
        let mut best = *parent.children.first()?;
        let mut best_score = f64::NEG_INFINITY;
        for &child in &parent.children {
            let n = &self.nodes[child];
            let visits = f64::from(n.visits);
            let score = if n.proof == Proof::Win {
                return Some(child);
            } else if n.proof == Proof::Loss {
                f64::MIN
            } else {
                // The decision's own value (first-play urgency before it has one), blended
                // with its all-moves-as-first value while its own visits are few.
                let own = if n.visits == 0 {
                    self.config.fpu
                } else {
                    n.mean()
                };
                // An infinite urgency tries every decision once first, RAVE or not.
                let untried_first = n.visits == 0 && self.config.fpu.is_infinite();
                let value = if self.rave_on && n.amaf_visits > 0 && !untried_first {
                    let beta = (k / (3.0 * visits + k)).sqrt();
                    let amaf = n.amaf_value / f64::from(n.amaf_visits);
                    if n.visits == 0 {
                        amaf
                    } else {
                        (1.0 - beta) * own + beta * amaf
                    }
                } else {
                    own
                };
                if n.visits == 0 {
                    value
                } else {
                    value + c * (log_n / visits).sqrt()
                }
            };
            if score > best_score {
                best_score = score;
                best = child;
            }
        }
        Some(best)
    }

    /// Whether the game's decision keys tell the root's decisions apart (a game whose keys
    /// are all alike gives RAVE nothing to go by).
    fn root_keys_distinct(&self, game: &G) -> bool {
        let root = &self.nodes[ROOT];
        let mut keys: Vec<u64> = match &root.open {
            Open::Choices { untried } => untried.iter().map(|d| game.decision_key(d)).collect(),
            _ => Vec::new(),
        };
        keys.extend(root.children.iter().map(|&c| self.nodes[c].key));
        let count = keys.len();
        keys.sort_unstable();
        keys.dedup();
        count > 1 && keys.len() == count
    }

    /// Makes `child` the root, keeping its subtree (renumbered; the rest is dropped).
    fn reroot(&mut self, child: usize) {
        let mut kept = Vec::new();
        let mut map = vec![usize::MAX; self.nodes.len()];
        let mut stack = vec![child];
        while let Some(n) = stack.pop() {
            map[n] = kept.len();
            kept.push(n);
            stack.extend(self.nodes[n].children.iter().rev());
        }
        let mut nodes = Vec::with_capacity(kept.len());
        for &old in &kept {
            let mut node = std::mem::replace(&mut self.nodes[old], Node::new(None, 0, 0));
            for c in &mut node.children {
                *c = map[*c];
            }
            nodes.push(node);
        }
        self.nodes = nodes;
    }

    /// Starts a fresh tree at the game's position, unless the tree's root is that position.
    fn ensure_root(&mut self, game: &G) {
        // With history read by the rules, one key may stand for positions with different
        // moves: only the moves observed tell that the tree's root is still the position.
        let key = game.position_key().filter(|_| !game.reads_history());
        let moved_on = match key {
            Some(_) => self.root_key.is_some() && key != self.root_key,
            None => !self.observed,
        };
        if self.nodes.is_empty() || moved_on {
            self.nodes.clear();
            self.nodes
                .push(Node::new(None, 1 - game.to_move().min(1), 0));
        }
        self.root_key = key;
        self.observed = false;
    }

    /// Runs up to `limit` iterations from the root (the game's position, already listed),
    /// within the time budget and [`MAX_TREE`], until the root is proven or `others` says
    /// another thread proved its own (looked at only with a time budget, so that a search by
    /// iterations stays repeatable). Returns the iterations run and the time spent, as text.
    fn search(&mut self, game: &mut G, limit: u32, others: Option<&AtomicBool>) -> (u32, String) {
        self.rave_on = self.config.rave > 0.0 && self.root_keys_distinct(game);
        let mut clock = Clock::start(self.config.time, self.config.cpu);
        let others = others.filter(|_| self.config.has_time_budget());
        let mut done = 0u32;
        // A proven root needs no more search: its winning decision, or any, is known.
        while done < limit
            && self.nodes.len() < MAX_TREE
            && self.nodes[ROOT].proof == Proof::Unknown
            && !clock.expired()
            && !others.is_some_and(|o| o.load(Ordering::Relaxed))
        {
            self.iterate(game);
            done += 1;
        }
        if self.nodes[ROOT].proof != Proof::Unknown {
            if let Some(o) = others {
                o.store(true, Ordering::Relaxed);
            }
        }
        (done, clock.spent())
    }

    /// Searches on [`MctsConfig::threads`] threads, each its own tree from a copy of the game
    /// ([`Game::fork`]), this one on the calling thread; `None` when the game cannot be
    /// copied. The root's decisions are then counted over every tree.
    fn search_in_parallel(&mut self, game: &mut G) -> Option<Searched<G::Decision>> {
        let forks: Vec<G> = self
            .helpers
            .iter()
            .map(|_| game.fork())
            .collect::<Option<_>>()?;
        let mut helpers = std::mem::take(&mut self.helpers);
        let config = self.config.clone();
        let proven = AtomicBool::new(false);
        let (mine, theirs) = std::thread::scope(|scope| {
            let handles: Vec<_> = helpers
                .iter_mut()
                .zip(forks)
                .zip(1u32..)
                .map(|((helper, mut fork), t)| {
                    let limit = config.thread_limit(t);
                    let proven = &proven;
                    scope.spawn(move || {
                        helper.prepare(&mut fork);
                        let (done, _) = helper.search(&mut fork, limit, Some(proven));
                        (done, helper.nodes.len(), helper.root_stats())
                    })
                })
                .collect();
            let mine = self.search(game, config.thread_limit(0), Some(&proven));
            let theirs: Vec<_> = handles
                .into_iter()
                .map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
                .collect();
            (mine, theirs)
        });
        self.helpers = helpers;
        let mut searched = Searched {
            done: u64::from(mine.0),
            spent: format!("{} on {} threads", mine.1, self.config.threads),
            nodes: self.nodes.len(),
            stats: self.root_stats(),
        };
        for (done, nodes, stats) in theirs {
            searched.done += u64::from(done);
            searched.nodes += nodes;
            merge(&mut searched.stats, stats);
        }
        Some(searched)
    }

    /// Gets the tree ready for a search of the game's position: a fresh root unless the
    /// tree's is that position, with its decisions listed.
    fn prepare(&mut self, game: &mut G) {
        self.ensure_root(game);
        if matches!(self.nodes[ROOT].open, Open::Unknown) {
            self.nodes[ROOT].open = self.list(game);
        }
    }

    /// What the search found of each of the root's decisions.
    fn root_stats(&self) -> Vec<RootStat<G::Decision>> {
        self.nodes[ROOT]
            .children
            .iter()
            .filter_map(|&c| {
                let n = &self.nodes[c];
                Some((n.proof, n.decision.clone()?, n.value, u64::from(n.visits)))
            })
            .collect()
    }
}

/// A search's account, over every thread.
struct Searched<D> {
    /// Iterations run.
    done: u64,
    /// The time the calling thread spent, as text.
    spent: String,
    /// Nodes in the trees.
    nodes: usize,
    stats: Vec<RootStat<D>>,
}

/// Adds another tree's root decisions to `into`: visits and values add up, and a decision
/// proven in either tree is proven (a proof holds whichever tree found it).
fn merge<D: PartialEq>(into: &mut Vec<RootStat<D>>, other: Vec<RootStat<D>>) {
    for (proof, decision, value, visits) in other {
        match into.iter_mut().find(|s| s.1 == decision) {
            Some(s) => {
                if s.0 == Proof::Unknown {
                    s.0 = proof;
                }
                s.2 += value;
                s.3 += visits;
            }
            None => into.push((proof, decision, value, visits)),
        }
    }
}

/// The root's decisions best first, each with its value for the player to move and its
/// visits: proven wins first and proven losses last, by visits in between, then by value.
fn ranked<D>(stats: Vec<RootStat<D>>) -> Vec<(D, f64, u64)> {
    let mut ranked: Vec<(Proof, D, f64, u64)> = stats
        .into_iter()
        .map(|(proof, decision, value, visits)| {
            let value = match proof {
                Proof::Win => 1.0,
                Proof::Loss => 0.0,
                Proof::Unknown => mean(value, visits),
            };
            (proof, decision, value, visits)
        })
        .collect();
    let rank = |p: Proof| match p {
        Proof::Win => 0,
        Proof::Unknown => 1,
        Proof::Loss => 2,
    };
    ranked.sort_by(|a, b| {
        rank(a.0)
            .cmp(&rank(b.0))
            .then(b.3.cmp(&a.3))
            .then(b.2.total_cmp(&a.2))
    });
    ranked.into_iter().map(|(_, d, v, n)| (d, v, n)).collect()
}

/// The mean value of `visits` visits crediting `value` in all (0.5 for none).
#[allow(clippy::cast_precision_loss)]
fn mean(value: f64, visits: u64) -> f64 {
    if visits == 0 {
        0.5
    } else {
        value / visits as f64
    }
}

impl<G: Game> Agent<G> for Mcts<G> {
    fn name(&self) -> String {
        super::AgentSpec::Mcts(self.config.clone()).to_string()
    }

    fn choose(&mut self, game: &mut G) -> Option<Thought<G::Decision>> {
        self.prepare(game);
        match &self.nodes[ROOT].open {
            Open::Over(_) => return None,
            Open::Chance { outcomes } => {
                // Chance's decision is not the agent's to take: draw one as the game would.
                let decision = outcomes[self.rng.gen_range(0..outcomes.len())].clone();
                return Some(Thought {
                    decision,
                    value: None,
                    ranked: Vec::new(),
                    unit: "visits",
                    summary: "chance decides".to_string(),
                });
            }
            _ => {}
        }
        let searched = if self.helpers.is_empty() {
            None
        } else {
            self.search_in_parallel(game)
        };
        // One thread, or a game that cannot be copied: the search runs on this thread alone.
        let searched = match searched {
            Some(s) => s,
            None => {
                let (done, spent) = self.search(game, self.config.iteration_limit(), None);
                Searched {
                    done: u64::from(done),
                    spent,
                    nodes: self.nodes.len(),
                    stats: self.root_stats(),
                }
            }
        };
        self.iterations += searched.done;
        let ranked = ranked(searched.stats);
        let (decision, value, _) = ranked.first()?.clone();
        Some(Thought {
            decision,
            value: Some(value),
            ranked,
            unit: "visits",
            summary: format!(
                "{} iterations in {}, {} nodes",
                searched.done, searched.spent, searched.nodes
            ),
        })
    }

    fn observe(&mut self, decision: &G::Decision) {
        for helper in &mut self.helpers {
            helper.observe(decision);
        }
        let child = self.nodes.first().and_then(|root| {
            root.children
                .iter()
                .copied()
                .find(|&c| self.nodes[c].decision.as_ref() == Some(decision))
        });
        match child {
            Some(c) => {
                self.reroot(c);
                self.root_key = None;
                self.observed = true;
            }
            None => self.nodes.clear(),
        }
    }

    fn reset(&mut self) {
        for helper in &mut self.helpers {
            helper.reset();
        }
        self.nodes.clear();
        self.root_key = None;
        self.observed = false;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A tree of positions given as a table, not any real game: each position lists the
    /// positions its decisions lead to, or ends with a result.
    #[derive(Clone, Debug)]
    struct Table {
        children: Vec<Vec<usize>>,
        ends: Vec<Option<GameResult>>,
        movers: Vec<u8>,
        /// The positions of the line so far, the current one last.
        line: Vec<usize>,
        /// Whether [`Game::fork`] copies it.
        forks: bool,
    }

    impl Table {
        /// A random tree `depth` decisions deep, 2 to 4 decisions a position, the players
        /// taking turns; a leaf is a win for either or a draw.
        fn random(seed: u64, depth: u32) -> Table {
            let mut t = Table {
                children: Vec::new(),
                ends: Vec::new(),
                movers: Vec::new(),
                line: vec![0],
                forks: true,
            };
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            t.grow(&mut rng, 0, depth);
            t
        }

        /// Adds a random subtree of `depth` with `mover` to move at its top; returns its top.
        fn grow(&mut self, rng: &mut ChaCha8Rng, mover: u8, depth: u32) -> usize {
            let at = self.children.len();
            self.children.push(Vec::new());
            self.movers.push(mover);
            if depth == 0 {
                self.ends.push(Some(match rng.gen_range(0..3) {
                    0 => GameResult::Draw,
                    w => GameResult::Win(w - 1),
                }));
                return at;
            }
            self.ends.push(None);
            for _ in 0..rng.gen_range(2..5) {
                let child = self.grow(rng, 1 - mover, depth - 1);
                self.children[at].push(child);
            }
            at
        }

        /// The tree with one more decision at the top, which wins at once for the player to
        /// move there: it is the top's decision `index`.
        fn with_win_at(mut self, index: usize) -> Table {
            let win = self.children.len();
            self.children.push(Vec::new());
            self.ends.push(Some(GameResult::Win(self.movers[0])));
            self.movers.push(1 - self.movers[0]);
            let index = index.min(self.children[0].len());
            self.children[0].insert(index, win);
            self
        }

        fn at(&self) -> usize {
            self.line.last().copied().unwrap_or(0)
        }
    }

    impl Game for Table {
        type Decision = usize;

        fn player_name(&self, player: u8) -> String {
            format!("P{player}")
        }

        fn to_move(&self) -> u8 {
            self.movers[self.at()]
        }

        fn fork(&self) -> Option<Table> {
            self.forks.then(|| self.clone())
        }

        fn outcome(&mut self) -> Option<GameResult> {
            self.ends[self.at()]
        }

        fn decisions(&mut self, out: &mut Vec<usize>) -> bool {
            out.clear();
            out.extend(0..self.children[self.at()].len());
            true
        }

        fn chance(&mut self) -> bool {
            false
        }

        fn decisions_text(&mut self) -> Vec<String> {
            (0..self.children[self.at()].len())
                .map(|i| i.to_string())
                .collect()
        }

        fn sample(&mut self, rng: &mut ChaCha8Rng) -> Option<usize> {
            let n = self.children[self.at()].len();
            (n > 0).then(|| rng.gen_range(0..n))
        }

        fn apply(&mut self, decision: &usize) {
            let next = self.children[self.at()][*decision];
            self.line.push(next);
        }

        fn undo(&mut self) -> bool {
            self.line.len() > 1 && self.line.pop().is_some()
        }

        fn text(&mut self, decision: &usize) -> String {
            decision.to_string()
        }

        fn parse(&mut self, text: &str) -> Result<usize, String> {
            text.parse().map_err(|_| format!("`{text}` is no decision"))
        }

        fn decision_key(&self, decision: &usize) -> u64 {
            *decision as u64
        }

        fn position_key(&self) -> Option<u64> {
            Some(self.at() as u64)
        }
    }

    fn config(iterations: u32, threads: u32) -> MctsConfig {
        MctsConfig {
            iterations: Some(iterations),
            threads,
            ..MctsConfig::default()
        }
    }

    /// The iterations a thought's summary counts (its first word).
    fn iterations(thought: &Thought<usize>) -> u64 {
        thought
            .summary
            .split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    }

    #[test]
    fn threads_share_an_iteration_budget() {
        let c = config(1001, 4);
        let shares: Vec<u32> = (0..4).map(|t| c.thread_limit(t)).collect();
        assert_eq!(shares, [251, 250, 250, 250]);
        assert_eq!(config(1000, 1).thread_limit(0), 1000);
        let default = MctsConfig {
            threads: 2,
            ..MctsConfig::default()
        };
        assert_eq!(
            default.thread_limit(1),
            500,
            "the default 1000 is shared too"
        );
        let timed = MctsConfig {
            cpu: Some(Duration::from_millis(10)),
            threads: 2,
            ..MctsConfig::default()
        };
        assert_eq!(
            timed.thread_limit(1),
            u32::MAX,
            "each thread runs until its time"
        );
    }

    #[test]
    fn threads_repeat_the_same_choice_from_the_same_seed() {
        for seed in 0..6 {
            let mut game = Table::random(seed, 9);
            let think = |game: &mut Table| {
                let mut agent = Mcts::<Table>::new(config(600, 2), seed);
                agent.choose(game).expect("a decision")
            };
            let first = think(&mut game);
            let again = think(&mut game);
            assert_eq!(first.decision, again.decision, "seed {seed}");
            assert_eq!(first.ranked, again.ranked, "seed {seed}");
            assert_eq!(game.line, [0], "the game is where it was");
            // The threads share the budget.
            assert_eq!(iterations(&first), 600, "{}", first.summary);
            assert!(first.summary.contains("on 2 threads"), "{}", first.summary);
            let visits: u64 = first.ranked.iter().map(|r| r.2).sum();
            assert_eq!(visits, 600, "every tree counts at the root");
        }
    }

    #[test]
    fn threads_find_an_immediate_win() {
        for seed in 0..4 {
            let mut game = Table::random(seed, 8).with_win_at(2);
            let mut agent = Mcts::<Table>::new(config(2000, 2), seed);
            let thought = agent.choose(&mut game).expect("a decision");
            assert_eq!(thought.decision, 2, "seed {seed}: {:?}", thought.ranked);
            assert_eq!(thought.value, Some(1.0));
            // With a time budget, the thread that proves the win stops the others.
            let timed = MctsConfig {
                cpu: Some(Duration::from_secs(5)),
                threads: 2,
                ..MctsConfig::default()
            };
            let mut agent = Mcts::<Table>::new(timed, seed);
            let thought = agent.choose(&mut game).expect("a decision");
            assert_eq!(thought.decision, 2, "seed {seed}");
            assert!(iterations(&thought) < 2000, "{}", thought.summary);
        }
    }

    #[test]
    fn a_game_that_cannot_be_copied_is_searched_on_one_thread() {
        let mut game = Table::random(3, 10);
        game.forks = false;
        let mut agent = Mcts::<Table>::new(config(300, 2), 3);
        let thought = agent.choose(&mut game).expect("a decision");
        assert_eq!(iterations(&thought), 300, "{}", thought.summary);
        assert!(!thought.summary.contains("threads"), "{}", thought.summary);
    }

    /// Every thread's tree follows the game through `observe`, to its end.
    #[test]
    fn threaded_agents_play_a_whole_game() {
        let mut game = Table::random(11, 9);
        let mut agents = [
            Mcts::<Table>::new(config(200, 2), 1),
            Mcts::<Table>::new(config(200, 3), 2),
        ];
        while game.outcome().is_none() {
            let mover = usize::from(game.to_move());
            let thought = agents[mover].choose(&mut game).expect("a decision");
            assert!(thought.decision < game.children[game.at()].len());
            game.apply(&thought.decision);
            for agent in &mut agents {
                agent.observe(&thought.decision);
            }
        }
        assert!(agents.iter().all(|a| a.iterations() > 0));
    }
}
