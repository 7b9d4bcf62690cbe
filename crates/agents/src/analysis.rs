//! Variant analysis: what a game designer wants to know about each variant of a game, measured
//! by playing it. Per variant three kinds of play ([`Play`]): random against random, the agent
//! against itself, and a stronger agent against the agent (the skill gradient: how much more
//! budget pays off, i.e. how decisive skill is). From their games come win rates by seat with
//! 95% intervals, game lengths, branching factor by ply, step-limit hits and the agent's
//! favourite first moves.
//!
//! This module only computes: the caller builds the games (`make`), shows progress, and
//! prints. It depends on `runtime::Game` alone, so every game gets the same analysis.
//!
//! Invariants: a variant's numbers depend only on its game and the [`AnalysisConfig`] (agents,
//! games, seed, step limit), never on the thread count nor on the other variants analysed:
//! game `g` of kind of play `k` gets its seeds from `(seed, k, g)` alone, and games are tallied
//! in order. (An agent with a time budget is the exception: it thinks as far as time allows;
//! so is a deadline, [`AnalysisConfig::deadline`]: which games finish before it depends on the
//! machine.)

use std::collections::BTreeMap;
use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::alphabeta::AlphaBetaConfig;
use super::contest::{mix, play_game_until, wilson, Played};
use super::mcts::MctsConfig;
use super::{Agent, AgentSpec};
use rulestone_runtime::{Game, GameResult};

/// How many of the agent's first moves are reported per variant.
pub const OPENINGS_SHOWN: usize = 5;

/// At most this many bins in a length histogram.
const MAX_BINS: u32 = 25;

/// The settings of an analysis.
#[derive(Clone, Debug)]
pub struct AnalysisConfig {
    /// The agent whose self-play is measured.
    pub agent: AgentSpec,
    /// The stronger agent of the skill gradient (see [`stronger`]).
    pub stronger: AgentSpec,
    /// Games per variant and kind of play.
    pub games: u32,
    pub seed: u64,
    /// A game still running after this many decisions is stopped and counted apart.
    pub max_steps: u32,
    /// Threads; 0 for one per core.
    pub threads: usize,
    /// When to stop: games not started by then are skipped, games still running are given
    /// up; the figures are those of the games finished ([`VariantStats::unplayed`]).
    pub deadline: Option<Instant>,
}

/// The kinds of play measured for each variant.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Play {
    /// Uniformly random decisions on both sides.
    Random,
    /// The agent against itself.
    SelfPlay,
    /// The stronger agent against the agent, seats alternated (the stronger first in even
    /// games).
    Skill,
}

impl Play {
    pub const ALL: [Play; 3] = [Play::Random, Play::SelfPlay, Play::Skill];

    /// The index that seeds this kind of play's games.
    fn index(self) -> u64 {
        match self {
            Play::Random => 0,
            Play::SelfPlay => 1,
            Play::Skill => 2,
        }
    }

    /// The specs in the first and second seat of game `g`.
    fn seats(self, config: &AnalysisConfig, g: u32) -> [AgentSpec; 2] {
        let agent = || within(&config.agent, config.max_steps);
        let stronger = || within(&config.stronger, config.max_steps);
        match self {
            Play::Random => [AgentSpec::Random, AgentSpec::Random],
            Play::SelfPlay => [agent(), agent()],
            Play::Skill if g.is_multiple_of(2) => [stronger(), agent()],
            Play::Skill => [agent(), stronger()],
        }
    }
}

/// The spec with its MCTS playouts no longer than the game's step limit: the game is stopped
/// there anyway, and in a game whose random play rarely ends, longer playouts only cost time.
fn within(spec: &AgentSpec, max_steps: u32) -> AgentSpec {
    match spec {
        AgentSpec::Mcts(c) => AgentSpec::Mcts(MctsConfig {
            max_steps: c.max_steps.min(max_steps),
            ..c.clone()
        }),
        other => other.clone(),
    }
}

/// The default stronger agent: the same agent with four times its budget (MCTS iterations or
/// time, wall-clock or CPU), or one ply deeper for alpha-beta (a ply multiplies its work by about the branching
/// factor, so four times the depth would be far more than four times the work). Random play
/// has no budget; its stronger agent is a small MCTS, so the gradient says whether any
/// search pays off.
#[must_use]
pub fn stronger(spec: &AgentSpec) -> AgentSpec {
    match spec {
        AgentSpec::Random => AgentSpec::Mcts(MctsConfig {
            iterations: Some(100),
            ..MctsConfig::default()
        }),
        AgentSpec::Mcts(c) => AgentSpec::Mcts(MctsConfig {
            iterations: match (c.iterations, c.has_time_budget()) {
                (None, true) => None,
                _ => Some(c.iteration_limit().saturating_mul(4)),
            },
            time: c.time.map(|t| t.saturating_mul(4)),
            cpu: c.cpu.map(|t| t.saturating_mul(4)),
            ..c.clone()
        }),
        AgentSpec::AlphaBeta(c) => AgentSpec::AlphaBeta(AlphaBetaConfig {
            depth: match (c.depth, c.has_time_budget()) {
                (None, true) => None,
                (depth, _) => Some(depth.unwrap_or(4).saturating_add(1)),
            },
            time: c.time.map(|t| t.saturating_mul(4)),
            cpu: c.cpu.map(|t| t.saturating_mul(4)),
            ..c.clone()
        }),
    }
}

/// A count among some games, its rate, and the rate's 95% Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Proportion {
    pub count: u32,
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

impl Proportion {
    fn of(count: u32, games: u32) -> Proportion {
        let n = f64::from(games);
        let rate = if games == 0 {
            0.0
        } else {
            f64::from(count) / n
        };
        let (low, high) = wilson(rate, n);
        Proportion {
            count,
            rate,
            low,
            high,
        }
    }
}

/// Game lengths in decisions (chance's included).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lengths {
    pub mean: f64,
    pub median: f64,
    pub min: u32,
    pub max: u32,
    pub histogram: Histogram,
}

/// Counts of game lengths: bin `i` holds the lengths from `i * bin_width` to
/// `(i + 1) * bin_width - 1`. Random play and self-play of a variant share the width, so that
/// their histograms compare; it fits the variant's longest game.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Histogram {
    pub bin_width: u32,
    pub counts: Vec<u32>,
}

/// The branching factor: how many decisions were listed at a player's turn (chance's turns
/// and continuous decisions left out).
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Branching {
    /// Over every listed turn of every game; `None` when no turn was listed.
    pub mean: Option<f64>,
    /// Ply `k` (from 1) is the `k`-th turn of a player in a game.
    pub by_ply: Vec<PlyBranching>,
}

#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlyBranching {
    pub ply: u32,
    /// Mean decisions listed at this ply, over the games that reached it.
    pub mean: f64,
    /// The games that reached it.
    pub games: u32,
}

/// A first decision and how often it was taken.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Opening {
    pub decision: String,
    pub games: u32,
    pub share: f64,
}

/// What the games of one kind of play between equal players showed, by seat.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct PlayStats {
    pub games: u32,
    pub first_wins: Proportion,
    pub second_wins: Proportion,
    /// Games that ended drawn.
    pub draws: Proportion,
    /// Games stopped by the step limit (neither won nor drawn), so that the four add up.
    pub step_limit: Proportion,
    pub length: Lengths,
    pub branching: Branching,
    /// The most frequent first decisions, most frequent first (ties in notation order).
    pub openings: Vec<Opening>,
}

/// The stronger agent's results against the agent.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct SkillStats {
    pub games: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games stopped by the step limit (counted as draws in the score).
    pub step_limit: u32,
    /// The stronger agent's score rate, draws (and step-limit games) counting half, with its
    /// 95% interval; 0.5 when extra budget makes no difference.
    pub score: Score,
}

/// A score rate and its 95% Wilson interval.
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
pub struct Score {
    pub rate: f64,
    pub low: f64,
    pub high: f64,
}

/// Everything measured about one variant.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct VariantStats {
    pub random: PlayStats,
    pub self_play: PlayStats,
    pub skill: SkillStats,
    /// Games of this variant the deadline left unplayed or cut (0 without one).
    #[serde(skip_serializing_if = "is_zero")]
    pub unplayed: u32,
}

fn is_zero(n: &u32) -> bool {
    *n == 0
}

/// One game of the analysis: its variant, kind of play and number.
#[derive(Clone, Copy, Debug)]
struct Job {
    variant: usize,
    play: Play,
    game: u32,
}

/// Plays every variant's games in parallel and measures them. `make(variant, seed)` builds
/// variant `variant` (of `variants`) at its start; the seed drives any randomness of the game
/// itself. `progress(variant)` is called once per finished game of that variant.
///
/// # Errors
/// The thread pool could not be built.
pub fn analyze<G, F>(
    config: &AnalysisConfig,
    variants: usize,
    make: &F,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<VariantStats>, String>
where
    G: Game,
    F: Fn(usize, u64) -> G + Sync + ?Sized,
{
    let played = play(config, 0..config.games, variants, make, progress)?;
    Ok(played.iter().map(PlayedGames::stats).collect())
}

/// Plays games `range` (numbers from 0, below [`AnalysisConfig::games`]) of every kind of play
/// of every variant in parallel, without measuring them: one share of an analysis split over
/// several runs or machines. Each game is seeded by its number as in [`analyze`], so the shares
/// of `0..games`, merged ([`PlayedGames::merge`]), measure what [`analyze`] measures.
/// `make` and `progress` are as for [`analyze`].
///
/// # Errors
/// The thread pool could not be built.
pub fn play<G, F>(
    config: &AnalysisConfig,
    range: std::ops::Range<u32>,
    variants: usize,
    make: &F,
    progress: &(dyn Fn(usize) + Sync),
) -> Result<Vec<PlayedGames>, String>
where
    G: Game,
    F: Fn(usize, u64) -> G + Sync + ?Sized,
{
    // Game by game across variants and kinds of play, so that a deadline leaves every variant
    // about as many games; each game's seeds depend on its job alone, not on this order.
    let jobs: Vec<Job> = range
        .flat_map(|game| {
            (0..variants).flat_map(move |variant| {
                Play::ALL.into_iter().map(move |play| Job {
                    variant,
                    play,
                    game,
                })
            })
        })
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()
        .map_err(|e| format!("cannot start the worker threads: {e}"))?;
    let played: Vec<Option<Played>> = pool.install(|| {
        jobs.par_iter()
            .map(|job| {
                let played = play_job(config, job, make);
                progress(job.variant);
                played
            })
            .collect()
    });
    let mut by_variant: Vec<PlayedGames> = (0..variants).map(|_| PlayedGames::default()).collect();
    for (job, played) in jobs.iter().zip(played) {
        let games = &mut by_variant[job.variant];
        match played {
            Some(p) => games.of[job.play.index() as usize].push((job.game, p.into())),
            None => games.unplayed += 1,
        }
    }
    Ok(by_variant)
}

/// The games one variant played, by kind of play, each with its number, in order: what
/// [`play`] answers and [`PlayedGames::stats`] measures. Serializable, so that shares played
/// elsewhere can be sent back and merged.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct PlayedGames {
    /// Random play, self-play and the skill games, in that order.
    of: [Vec<(u32, KeptGame)>; 3],
    /// Games the deadline left unplayed or cut.
    unplayed: u32,
}

/// One game as [`PlayedGames`] keeps it: [`Played`] with its result as a number (the winner's
/// seat, -1 for a draw, none when the step limit stopped it), so that it serializes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
struct KeptGame {
    result: Option<i16>,
    steps: u32,
    opening: Option<String>,
    branching: Vec<u32>,
}

impl From<Played> for KeptGame {
    fn from(p: Played) -> KeptGame {
        KeptGame {
            result: p.result.map(|r| match r {
                GameResult::Win(seat) => i16::from(seat),
                GameResult::Draw => -1,
            }),
            steps: p.steps,
            opening: p.opening,
            branching: p.branching,
        }
    }
}

impl KeptGame {
    fn played(&self) -> Played {
        Played {
            result: self.result.map(|r| match u8::try_from(r) {
                Ok(seat) => GameResult::Win(seat),
                Err(_) => GameResult::Draw,
            }),
            steps: self.steps,
            opening: self.opening.clone(),
            branching: self.branching.clone(),
        }
    }
}

impl PlayedGames {
    /// Adds the games of `other` (another share of the same variant's analysis), keeping each
    /// kind of play's games in number order.
    ///
    /// # Errors
    /// A game number in both shares (the shares overlap); `self` is left unchanged.
    pub fn merge(&mut self, other: PlayedGames) -> Result<(), String> {
        for (mine, theirs) in self.of.iter().zip(&other.of) {
            let numbers: std::collections::BTreeSet<u32> = mine.iter().map(|g| g.0).collect();
            if let Some((g, _)) = theirs.iter().find(|g| numbers.contains(&g.0)) {
                return Err(format!("game {g} is in two of the shares merged"));
            }
        }
        for (mine, theirs) in self.of.iter_mut().zip(other.of) {
            mine.extend(theirs);
            mine.sort_by_key(|g| g.0);
        }
        self.unplayed = self.unplayed.saturating_add(other.unplayed);
        Ok(())
    }

    /// How many games are held, every kind of play together, and how many were left unplayed.
    #[must_use]
    pub fn counts(&self) -> (u64, u32) {
        let held = self.of.iter().map(|g| g.len() as u64).sum();
        (held, self.unplayed)
    }

    /// The numbers of the games held of each kind of play, in order (random play, self-play,
    /// skill), for checking that shares cover an analysis.
    #[must_use]
    pub fn numbers(&self) -> [Vec<u32>; 3] {
        self.of
            .clone()
            .map(|games| games.iter().map(|g| g.0).collect())
    }

    /// The variant's statistics: random play, self-play, then the skill games.
    #[must_use]
    pub fn stats(&self) -> VariantStats {
        let of = |play: Play| -> Vec<Played> {
            self.of[play.index() as usize]
                .iter()
                .map(|(_, g)| g.played())
                .collect()
        };
        let (random, self_play) = (of(Play::Random), of(Play::SelfPlay));
        let skill: Vec<(u32, Played)> = self.of[Play::Skill.index() as usize]
            .iter()
            .map(|(n, g)| (*n, g.played()))
            .collect();
        let longest = random
            .iter()
            .chain(&self_play)
            .map(|p| p.steps)
            .max()
            .unwrap_or(0);
        let bin_width = bin_width(longest);
        VariantStats {
            random: play_stats(&random, bin_width),
            self_play: play_stats(&self_play, bin_width),
            skill: skill_stats(&skill),
            unplayed: self.unplayed,
        }
    }
}

/// Plays one game of the analysis; `None` when the deadline left it unplayed or cut it.
fn play_job<G, F>(config: &AnalysisConfig, job: &Job, make: &F) -> Option<Played>
where
    G: Game,
    F: Fn(usize, u64) -> G + Sync + ?Sized,
{
    if config.deadline.is_some_and(|d| Instant::now() >= d) {
        return None;
    }
    let seed = mix(config.seed, job.play.index(), u64::from(job.game));
    let mut game = make(job.variant, seed);
    let [first, second] = job.play.seats(config, job.game);
    let mut agents: [Box<dyn Agent<G>>; 2] =
        [first.build(mix(seed, 1, 0)), second.build(mix(seed, 2, 0))];
    let mut nature = ChaCha8Rng::seed_from_u64(mix(seed, 3, 0));
    play_game_until(
        &mut game,
        &mut agents,
        &mut nature,
        config.max_steps,
        config.deadline,
    )
}

/// Statistics by seat of games between equal players.
fn play_stats(games: &[Played], bin_width: u32) -> PlayStats {
    let n = count(games.len());
    let ended =
        |wanted: Option<GameResult>| count(games.iter().filter(|p| p.result == wanted).count());
    PlayStats {
        games: n,
        first_wins: Proportion::of(ended(Some(GameResult::Win(0))), n),
        second_wins: Proportion::of(ended(Some(GameResult::Win(1))), n),
        draws: Proportion::of(ended(Some(GameResult::Draw)), n),
        step_limit: Proportion::of(ended(None), n),
        length: lengths(games, bin_width),
        branching: branching(games),
        openings: openings(games),
    }
}

/// The stronger agent's tally: it sits first in even games, second in odd ones.
/// The skill games, each with its number: the stronger agent is first in even games.
fn skill_stats(games: &[(u32, Played)]) -> SkillStats {
    let mut stats = SkillStats {
        games: count(games.len()),
        wins: 0,
        draws: 0,
        losses: 0,
        step_limit: 0,
        score: Score {
            rate: 0.5,
            low: 0.0,
            high: 1.0,
        },
    };
    for (g, played) in games {
        let stronger_seat = u8::from(g % 2 == 1);
        match played.result {
            Some(GameResult::Win(w)) if w == stronger_seat => stats.wins += 1,
            Some(GameResult::Win(_)) => stats.losses += 1,
            Some(GameResult::Draw) => stats.draws += 1,
            None => stats.step_limit += 1,
        }
    }
    let n = f64::from(stats.games);
    let score = if stats.games == 0 {
        0.5
    } else {
        (f64::from(stats.wins) + 0.5 * f64::from(stats.draws + stats.step_limit)) / n
    };
    let (low, high) = wilson(score, n);
    stats.score = Score {
        rate: score,
        low,
        high,
    };
    stats
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

/// A histogram bin width that keeps at most [`MAX_BINS`] bins up to `longest`: 1, 2 or 5
/// times a power of ten, so that bin edges read well.
fn bin_width(longest: u32) -> u32 {
    let wanted = (longest / MAX_BINS).saturating_add(1);
    let mut power = 1u32;
    loop {
        for step in [1u32, 2, 5] {
            let width = step.saturating_mul(power);
            if width >= wanted || width == u32::MAX {
                return width;
            }
        }
        power = power.saturating_mul(10);
    }
}

fn lengths(games: &[Played], bin_width: u32) -> Lengths {
    let mut steps: Vec<u32> = games.iter().map(|p| p.steps).collect();
    steps.sort_unstable();
    let total: f64 = steps.iter().map(|s| f64::from(*s)).sum();
    let mean = if steps.is_empty() {
        0.0
    } else {
        total / steps.len() as f64
    };
    let mut counts = Vec::new();
    for s in &steps {
        let bin = (s / bin_width.max(1)) as usize;
        if counts.len() <= bin {
            counts.resize(bin + 1, 0);
        }
        counts[bin] += 1;
    }
    Lengths {
        mean,
        median: median(&steps),
        min: steps.first().copied().unwrap_or(0),
        max: steps.last().copied().unwrap_or(0),
        histogram: Histogram { bin_width, counts },
    }
}

/// The median of sorted values: the middle one, or the mean of the two middle ones.
fn median(sorted: &[u32]) -> f64 {
    let n = sorted.len();
    match (
        sorted.get(n / 2),
        n.checked_sub(1).and_then(|_| sorted.get((n - 1) / 2)),
    ) {
        (Some(hi), Some(lo)) => (f64::from(*lo) + f64::from(*hi)) / 2.0,
        _ => 0.0,
    }
}

fn branching(games: &[Played]) -> Branching {
    let mut sums: Vec<(u64, u32)> = Vec::new();
    for played in games {
        if sums.len() < played.branching.len() {
            sums.resize(played.branching.len(), (0, 0));
        }
        for (slot, listed) in sums.iter_mut().zip(&played.branching) {
            slot.0 += u64::from(*listed);
            slot.1 += 1;
        }
    }
    let listed: u64 = sums.iter().map(|s| s.0).sum();
    let turns: u64 = sums.iter().map(|s| u64::from(s.1)).sum();
    Branching {
        mean: (turns > 0).then(|| listed as f64 / turns as f64),
        by_ply: sums
            .iter()
            .enumerate()
            .map(|(k, (sum, games))| PlyBranching {
                ply: count(k + 1),
                mean: *sum as f64 / f64::from((*games).max(1)),
                games: *games,
            })
            .collect(),
    }
}

fn openings(games: &[Played]) -> Vec<Opening> {
    let mut counts: BTreeMap<&str, u32> = BTreeMap::new();
    for opening in games.iter().filter_map(|p| p.opening.as_deref()) {
        *counts.entry(opening).or_default() += 1;
    }
    let mut ranked: Vec<(&str, u32)> = counts.into_iter().collect();
    // Stable: equal counts keep the map's notation order.
    ranked.sort_by_key(|r| std::cmp::Reverse(r.1));
    let n = f64::from(count(games.len()).max(1));
    ranked
        .into_iter()
        .take(OPENINGS_SHOWN)
        .map(|(decision, games)| Opening {
            decision: decision.to_string(),
            games,
            share: f64::from(games) / n,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn played(result: Option<GameResult>, steps: u32, opening: &str, branching: &[u32]) -> Played {
        Played {
            result,
            steps,
            opening: Some(opening.to_string()),
            branching: branching.to_vec(),
        }
    }

    #[test]
    fn seats_tally_and_add_up() {
        let games = [
            played(Some(GameResult::Win(0)), 3, "a", &[4, 3]),
            played(Some(GameResult::Win(1)), 5, "b", &[4, 3, 2]),
            played(Some(GameResult::Draw), 9, "a", &[4]),
            played(None, 10, "c", &[]),
        ];
        let s = play_stats(&games, 2);
        let total = s.first_wins.count + s.second_wins.count + s.draws.count + s.step_limit.count;
        assert_eq!(total, 4);
        assert_eq!(s.first_wins.count, 1);
        assert!(s.first_wins.low < 0.25 && 0.25 < s.first_wins.high);
        assert_eq!(s.length.median, 7.0);
        assert_eq!(s.length.histogram.counts, vec![0, 1, 1, 0, 1, 1]);
        assert_eq!(s.branching.by_ply[0].games, 3);
        assert_eq!(s.branching.by_ply[2].mean, 2.0);
        assert_eq!(s.branching.mean, Some(20.0 / 6.0));
        assert_eq!(s.openings[0].decision, "a");
        assert_eq!(s.openings[0].games, 2);
    }

    #[test]
    fn skill_seats_alternate() {
        // Game 0: the stronger agent is first and first wins; game 1: it is second and first
        // wins (a loss); game 2: a draw.
        let games = [
            (0, played(Some(GameResult::Win(0)), 3, "a", &[])),
            (1, played(Some(GameResult::Win(0)), 3, "a", &[])),
            (2, played(Some(GameResult::Draw), 3, "a", &[])),
        ];
        let s = skill_stats(&games);
        assert_eq!((s.wins, s.losses, s.draws), (1, 1, 1));
        assert!((s.score.rate - 0.5).abs() < 1e-12);
    }

    /// Variant games `range` of every kind of play, as [`play`] would keep them.
    fn share(range: std::ops::Range<u32>) -> PlayedGames {
        let game = |g: u32| {
            let result = match g % 3 {
                0 => Some(GameResult::Win(0)),
                1 => Some(GameResult::Draw),
                _ => None,
            };
            played(
                result,
                3 + g,
                if g.is_multiple_of(2) { "a" } else { "b" },
                &[4, g],
            )
        };
        let games: Vec<(u32, KeptGame)> = range.map(|g| (g, game(g).into())).collect();
        PlayedGames {
            of: [games.clone(), games.clone(), games],
            unplayed: 0,
        }
    }

    #[test]
    fn shares_merge_into_the_whole() {
        let whole = share(0..9);
        // Merged in any order, the shares hold the same games as the whole, in order.
        let mut merged = share(5..9);
        merged.merge(share(0..2)).expect("disjoint shares");
        merged.merge(share(2..5)).expect("disjoint shares");
        assert_eq!(merged, whole);
        assert_eq!(merged.stats(), whole.stats());
        assert_eq!(merged.counts(), (27, 0));
        assert_eq!(merged.numbers()[2], (0..9).collect::<Vec<_>>());
        // Results survive the round trip through the kept form.
        let skill = whole.stats().skill;
        assert_eq!(
            (skill.wins, skill.losses, skill.draws, skill.step_limit),
            (2, 1, 3, 3)
        );
        // Overlapping shares are refused and leave the first unchanged.
        let mut overlap = share(0..3);
        assert!(overlap.merge(share(2..4)).is_err());
        assert_eq!(overlap, share(0..3));
    }

    #[test]
    fn bins_read_well() {
        assert_eq!(bin_width(0), 1);
        assert_eq!(bin_width(24), 1);
        assert_eq!(bin_width(30), 2);
        assert_eq!(bin_width(120), 5);
        assert_eq!(bin_width(1000), 50);
        assert_eq!(bin_width(u32::MAX), 200_000_000);
    }

    #[test]
    fn stronger_has_more_budget() {
        let parse = |s: &str| AgentSpec::parse(s).expect("a valid spec");
        assert_eq!(
            stronger(&parse("mcts:iterations=200")),
            parse("mcts:iterations=800")
        );
        assert_eq!(stronger(&parse("mcts")), parse("mcts:iterations=4000"));
        assert_eq!(stronger(&parse("mcts:time=1s")), parse("mcts:time=4s"));
        assert_eq!(stronger(&parse("alphabeta")), parse("alphabeta:depth=5"));
        assert_eq!(stronger(&parse("random")), parse("mcts:iterations=100"));
    }
}
