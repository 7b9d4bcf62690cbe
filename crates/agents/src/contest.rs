//! Agents against each other: one game ([`play_game`]) and round robins ([`arena`]) with seats
//! alternated, results per pair with confidence intervals, and an Elo table.
//!
//! Invariant: results depend only on the specs, the seed and the game count, never on the
//! number of threads: game `i` of a pair gets its seeds from `(seed, pair, i)` alone, and the
//! games are tallied in that order. A deadline ([`ArenaConfig::deadline`]) is the exception:
//! which games finish before it depends on the machine, and games it cuts are not tallied.

use std::time::Instant;

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

use super::{Agent, AgentSpec};
use rulestone_runtime::{Game, GameResult};

/// How one game between two agents went.
#[derive(Clone, Debug, PartialEq)]
pub struct Played {
    /// `None` when the step limit ended the game first (counted as a draw).
    pub result: Option<GameResult>,
    /// Decisions taken, chance's included.
    pub steps: u32,
    /// The first decision, in notation.
    pub opening: Option<String>,
    /// How many decisions were open at each player's turn, in order (chance's turns left
    /// out; a continuous turn is not counted).
    pub branching: Vec<u32>,
}

/// Plays one game from the game's position: `agents[p]` decides for player `p`, chance's
/// decisions are drawn from `nature`. Stops after `max_steps` decisions. The game is left at
/// its end position.
pub fn play_game<G: Game>(
    game: &mut G,
    agents: &mut [Box<dyn Agent<G> + '_>; 2],
    nature: &mut ChaCha8Rng,
    max_steps: u32,
) -> Played {
    play_game_until(game, agents, nature, max_steps, None).unwrap_or(Played {
        result: None,
        steps: 0,
        opening: None,
        branching: Vec::new(),
    })
}

/// [`play_game`], given up (`None`) when `deadline` passes before the game ends: it is looked
/// at before each decision.
pub fn play_game_until<G: Game>(
    game: &mut G,
    agents: &mut [Box<dyn Agent<G> + '_>; 2],
    nature: &mut ChaCha8Rng,
    max_steps: u32,
    deadline: Option<Instant>,
) -> Option<Played> {
    for a in agents.iter_mut() {
        a.reset();
    }
    let mut played = Played {
        result: None,
        steps: 0,
        opening: None,
        branching: Vec::new(),
    };
    let mut listed = Vec::new();
    while played.steps < max_steps {
        if let Some(r) = game.outcome() {
            played.result = Some(r);
            break;
        }
        if deadline.is_some_and(|d| Instant::now() >= d) {
            return None;
        }
        let decision = if game.chance() {
            game.sample(nature)
        } else {
            if game.decisions(&mut listed) {
                played
                    .branching
                    .push(u32::try_from(listed.len()).unwrap_or(u32::MAX));
            }
            let mover = usize::from(game.to_move() & 1);
            agents[mover].choose(game).map(|t| t.decision)
        };
        let Some(decision) = decision else { break };
        if played.opening.is_none() {
            played.opening = Some(game.text(&decision));
        }
        game.apply(&decision);
        for a in agents.iter_mut() {
            a.observe(&decision);
        }
        played.steps += 1;
    }
    if played.result.is_none() {
        played.result = game.outcome();
    }
    Some(played)
}

/// Wins, draws and losses of one agent against another, over games with seats alternated.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Games the step limit ended (also counted as draws).
    pub unfinished: u32,
}

impl Tally {
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score rate, draws counting half, and its 95% confidence interval (Wilson).
    #[must_use]
    pub fn score(&self) -> (f64, f64, f64) {
        let n = f64::from(self.games());
        if n == 0.0 {
            return (0.5, 0.0, 1.0);
        }
        let p = (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / n;
        let (lo, hi) = wilson(p, n);
        (p, lo, hi)
    }
}

/// The 95% Wilson interval of a rate `p` over `n` trials.
#[must_use]
pub fn wilson(p: f64, n: f64) -> (f64, f64) {
    if n <= 0.0 {
        return (0.0, 1.0);
    }
    let z = 1.96f64;
    let z2 = z * z;
    let centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// One pairing of a round robin: `first` against `second`, from `first`'s side.
#[derive(Clone, Debug, PartialEq)]
pub struct Pairing {
    pub first: usize,
    pub second: usize,
    pub tally: Tally,
    /// Mean decisions per game.
    pub mean_steps: f64,
}

/// A round robin's results.
#[derive(Clone, Debug, PartialEq)]
pub struct Arena {
    pub agents: Vec<String>,
    pub pairings: Vec<Pairing>,
    /// Each agent's Elo rating, the first agent's fixed at 0... shifted so that they average 0.
    pub elo: Vec<f64>,
    /// Games not played, or given up, because the deadline passed (0 without one).
    pub unplayed: u64,
}

/// The settings of a round robin.
#[derive(Clone, Debug)]
pub struct ArenaConfig {
    pub specs: Vec<AgentSpec>,
    /// Games per pair (seats alternate: even games the first agent plays first).
    pub games: u32,
    pub seed: u64,
    pub max_steps: u32,
    /// Threads; 0 for one per core.
    pub threads: usize,
    /// When to stop: games not started by then are skipped, games still running are given up.
    pub deadline: Option<Instant>,
}

/// Plays every pair of agents `config.games` times, seats alternated, in parallel. `make(seed)`
/// builds a game at its start (the seed drives any randomness the game itself has, such as a
/// table game's shuffles). `progress` is called once per finished game.
///
/// # Errors
/// The thread pool could not be built, or `make` failed (its message).
pub fn arena<G, F>(
    config: &ArenaConfig,
    make: &F,
    progress: &(dyn Fn() + Sync),
) -> Result<Arena, String>
where
    G: Game,
    F: Fn(u64) -> Result<G, String> + Sync,
{
    Ok(arena_games(config, 0..config.games, make, progress)?.arena(config))
}

/// Plays games `range` (numbers from 0, below [`ArenaConfig::games`]) of every pair of agents,
/// seeded as [`arena`] seeds them, and tallies them: one share of a round robin split over
/// several runs or machines. The shares of `0..games`, merged ([`ArenaGames::merge`]), give
/// what [`arena`] gives.
///
/// # Errors
/// The thread pool could not be built, or `make` failed (its message).
pub fn arena_games<G, F>(
    config: &ArenaConfig,
    range: std::ops::Range<u32>,
    make: &F,
    progress: &(dyn Fn() + Sync),
) -> Result<ArenaGames, String>
where
    G: Game,
    F: Fn(u64) -> Result<G, String> + Sync,
{
    let n = config.specs.len();
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|a| (a + 1..n).map(move |b| (a, b)))
        .collect();
    let jobs: Vec<(usize, u32)> = (0..pairs.len())
        .flat_map(|p| range.clone().map(move |g| (p, g)))
        .collect();
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()
        .map_err(|e| format!("cannot start the worker threads: {e}"))?;
    let outcomes: Vec<Option<(usize, Played, bool)>> = pool.install(|| {
        jobs.par_iter()
            .map(|&(p, g)| {
                if config.deadline.is_some_and(|d| Instant::now() >= d) {
                    return Ok(None);
                }
                let (a, b) = pairs[p];
                let swapped = g % 2 == 1;
                let seats = if swapped { [b, a] } else { [a, b] };
                let seed = mix(config.seed, p as u64, u64::from(g));
                let mut game = make(seed)?;
                let mut agents: [Box<dyn Agent<G>>; 2] = [
                    config.specs[seats[0]].build(mix(seed, 1, 0)),
                    config.specs[seats[1]].build(mix(seed, 2, 0)),
                ];
                let mut nature = ChaCha8Rng::seed_from_u64(mix(seed, 3, 0));
                let played = play_game_until(
                    &mut game,
                    &mut agents,
                    &mut nature,
                    config.max_steps,
                    config.deadline,
                );
                progress();
                Ok(played.map(|played| (p, played, swapped)))
            })
            .collect::<Result<_, String>>()
    })?;
    let mut shares: Vec<PairGames> = pairs.iter().map(|_| PairGames::default()).collect();
    for (&(p, g), outcome) in jobs.iter().zip(&outcomes) {
        let share = &mut shares[p];
        share.numbers.push(g);
        let Some((_, played, swapped)) = outcome else {
            share.unplayed += 1;
            continue;
        };
        let first_seat = u8::from(*swapped);
        let t = &mut share.tally;
        match played.result {
            Some(GameResult::Win(w)) if w == first_seat => t.wins += 1,
            Some(GameResult::Win(_)) => t.losses += 1,
            Some(GameResult::Draw) => t.draws += 1,
            None => {
                t.draws += 1;
                t.unfinished += 1;
            }
        }
        share.steps += u64::from(played.steps);
    }
    Ok(ArenaGames { pairs: shares })
}

/// The tallied games of a round robin, or of a share of it ([`arena_games`]), pair by pair in
/// [`arena`]'s order. Serializable, so that shares played elsewhere can be sent back and merged.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ArenaGames {
    pairs: Vec<PairGames>,
}

/// One pair's games of a share: their numbers, their tally from the pair's first agent's side,
/// their decisions in all, and how many the deadline left unplayed.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
struct PairGames {
    numbers: Vec<u32>,
    tally: Tally,
    steps: u64,
    unplayed: u32,
}

impl ArenaGames {
    /// Adds the games of `other`, another share of the same round robin.
    ///
    /// # Errors
    /// The shares are of round robins of different sizes, or a game is in both; `self` is left
    /// unchanged.
    pub fn merge(&mut self, other: ArenaGames) -> Result<(), String> {
        if self.pairs.is_empty() {
            *self = other;
            return Ok(());
        }
        if other.pairs.len() != self.pairs.len() {
            return Err(format!(
                "a share of {} pairs cannot join one of {}",
                other.pairs.len(),
                self.pairs.len()
            ));
        }
        for (mine, theirs) in self.pairs.iter().zip(&other.pairs) {
            if let Some(g) = theirs.numbers.iter().find(|g| mine.numbers.contains(g)) {
                return Err(format!("game {g} is in two of the shares merged"));
            }
        }
        for (mine, theirs) in self.pairs.iter_mut().zip(other.pairs) {
            mine.numbers.extend(theirs.numbers);
            mine.numbers.sort_unstable();
            let (t, o) = (&mut mine.tally, theirs.tally);
            t.wins += o.wins;
            t.draws += o.draws;
            t.losses += o.losses;
            t.unfinished += o.unfinished;
            mine.steps += theirs.steps;
            mine.unplayed += theirs.unplayed;
        }
        Ok(())
    }

    /// Whether every pair holds games `0..games` exactly once.
    #[must_use]
    pub fn covers(&self, pairs: usize, games: u32) -> bool {
        let every: Vec<u32> = (0..games).collect();
        self.pairs.len() == pairs && self.pairs.iter().all(|p| p.numbers == every)
    }

    /// The round robin's results: each pairing's tally and mean length, and the Elo ratings.
    #[must_use]
    pub fn arena(&self, config: &ArenaConfig) -> Arena {
        let n = config.specs.len();
        let pairs = (0..n).flat_map(|a| (a + 1..n).map(move |b| (a, b)));
        let pairings: Vec<Pairing> = pairs
            .zip(&self.pairs)
            .map(|((first, second), share)| Pairing {
                first,
                second,
                tally: share.tally,
                mean_steps: mean(share.steps, share.tally.games()),
            })
            .collect();
        let elo = elo(n, &pairings);
        Arena {
            agents: config.specs.iter().map(ToString::to_string).collect(),
            pairings,
            elo,
            unplayed: self.pairs.iter().map(|p| u64::from(p.unplayed)).sum(),
        }
    }
}

/// `steps / games` (0 without games); exact as long as the sum is (below 2^53).
#[allow(clippy::cast_precision_loss)]
fn mean(steps: u64, games: u32) -> f64 {
    steps as f64 / f64::from(games.max(1))
}

/// Mixes seeds (SplitMix64 steps), so that nearby inputs give unrelated seeds.
#[must_use]
pub fn mix(a: u64, b: u64, c: u64) -> u64 {
    let mut x = a ^ b.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ c.wrapping_mul(0xD1B5_4A32_D192_ED03);
    x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    x ^ (x >> 31)
}

/// Elo ratings fitted to the pairings' scores (Bradley–Terry by minorization–maximization,
/// with half a draw added to each side so that a clean sweep stays finite), averaging 0.
fn elo(n: usize, pairings: &[Pairing]) -> Vec<f64> {
    let mut strength = vec![1.0f64; n];
    for _ in 0..200 {
        let mut next = strength.clone();
        for (i, s) in next.iter_mut().enumerate() {
            let mut won = 0.0;
            let mut denom = 0.0;
            for p in pairings {
                let (me_first, other) = if p.first == i {
                    (true, p.second)
                } else if p.second == i {
                    (false, p.first)
                } else {
                    continue;
                };
                let t = p.tally;
                let games = f64::from(t.games()) + 1.0;
                let mine = if me_first {
                    f64::from(t.wins) + 0.5 * f64::from(t.draws) + 0.5
                } else {
                    f64::from(t.losses) + 0.5 * f64::from(t.draws) + 0.5
                };
                won += mine;
                denom += games / (strength[i] + strength[other]);
            }
            if denom > 0.0 {
                *s = won / denom;
            }
        }
        strength = next;
    }
    let ratings: Vec<f64> = strength
        .iter()
        .map(|s| 400.0 * libm::log10(s.max(1e-12)))
        .collect();
    #[allow(clippy::cast_precision_loss)]
    let mean = ratings.iter().sum::<f64>() / n.max(1) as f64;
    ratings.iter().map(|r| r - mean).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two pairs' games `range`, tallied as [`arena_games`] would.
    fn share(range: std::ops::Range<u32>) -> ArenaGames {
        let pair = |bias: u32| {
            let mut p = PairGames::default();
            for g in range.clone() {
                p.numbers.push(g);
                match (g + bias) % 3 {
                    0 => p.tally.wins += 1,
                    1 => p.tally.losses += 1,
                    _ => p.tally.draws += 1,
                }
                p.steps += u64::from(10 + g);
            }
            p
        };
        ArenaGames {
            pairs: vec![pair(0), pair(1), pair(2)],
        }
    }

    #[test]
    fn shares_merge_into_the_whole() {
        let config = ArenaConfig {
            specs: vec![AgentSpec::Random; 3],
            games: 8,
            seed: 1,
            max_steps: 100,
            threads: 1,
            deadline: None,
        };
        let mut merged = ArenaGames::default();
        for range in [5..8, 0..2, 2..5] {
            merged.merge(share(range)).expect("disjoint shares");
        }
        assert_eq!(merged, share(0..8));
        assert!(merged.covers(3, 8) && !share(0..7).covers(3, 8));
        let whole = share(0..8).arena(&config);
        assert_eq!(merged.arena(&config), whole);
        assert_eq!(whole.pairings[1].tally.games(), 8);
        assert_eq!(whole.pairings[0].mean_steps, 13.5);
        let mut overlap = share(0..3);
        assert!(overlap.merge(share(2..4)).is_err());
        assert!(overlap
            .merge(ArenaGames {
                pairs: vec![PairGames::default()]
            })
            .is_err());
        assert_eq!(overlap, share(0..3));
    }

    #[test]
    fn wilson_interval_holds_the_rate() {
        let (lo, hi) = wilson(0.9, 100.0);
        assert!(lo < 0.9 && 0.9 < hi && lo > 0.8 && hi < 0.96, "{lo} {hi}");
        assert_eq!(wilson(0.5, 0.0), (0.0, 1.0));
    }

    #[test]
    fn elo_orders_by_strength() {
        let tally = |wins, losses| Tally {
            wins,
            draws: 0,
            losses,
            unfinished: 0,
        };
        let pairings = vec![
            Pairing {
                first: 0,
                second: 1,
                tally: tally(90, 10),
                mean_steps: 0.0,
            },
            Pairing {
                first: 1,
                second: 2,
                tally: tally(70, 30),
                mean_steps: 0.0,
            },
            Pairing {
                first: 0,
                second: 2,
                tally: tally(95, 5),
                mean_steps: 0.0,
            },
        ];
        let e = elo(3, &pairings);
        assert!(e[0] > e[1] && e[1] > e[2], "{e:?}");
        // 90% expected score is about 380 Elo.
        assert!((e[0] - e[1] - 380.0).abs() < 150.0, "{e:?}");
    }
}
