//! Computer players. Every agent plays any game through [`runtime::Game`] alone, so a new
//! `.game` file gets all of them with no code of its own; this crate depends only on the
//! runtime (and reads no game's names).
//!
//! An agent is chosen by a spec string (`random`, `mcts:iterations=2000`,
//! `alphabeta:depth=4`; see [`AgentSpec`]) that every command reads the same way. The
//! [`contest`] module plays agents against each other; [`analysis`] measures a game's variants
//! by playing them.
//!
//! Invariants: an agent returns a decision of the position it was given and leaves the game
//! at that position; the same spec and seed give the same decisions (time budgets aside).
//!
//! [`runtime::Game`]: rulestone_runtime::Game

pub mod alphabeta;
pub mod analysis;
pub mod clock;
pub mod contest;
pub mod mcts;
pub mod random;
pub mod solve;
pub mod spec;

pub use spec::{AgentSpec, SpecError};

use rulestone_runtime::{Game, GameResult};

/// What an agent decided, and why: its estimate and the alternatives it weighed.
#[derive(Clone, Debug)]
pub struct Thought<D> {
    pub decision: D,
    /// The expected result for the player to move, from 0 (a loss) to 1 (a win), when the
    /// agent estimates one.
    pub value: Option<f64>,
    /// The decisions it weighed, best first, each with its value for the player to move and
    /// the work behind it, counted in `unit`.
    pub ranked: Vec<(D, f64, u64)>,
    /// What the work in `ranked` counts: `visits` for a tree search, `depth` for alpha-beta.
    pub unit: &'static str,
    /// A short account of the work done ("1000 iterations, 0.41 s").
    pub summary: String,
}

/// A computer player.
pub trait Agent<G: Game> {
    /// The spec that built it, for tables and logs.
    fn name(&self) -> String;

    /// A decision for the player to move, `None` when no decision is open. The game is left
    /// at the position it was given.
    fn choose(&mut self, game: &mut G) -> Option<Thought<G::Decision>>;

    /// Told every decision taken in the game (its own, the opponent's, chance's) after it was
    /// applied, so that a search can keep what it learned about the position reached.
    fn observe(&mut self, _decision: &G::Decision) {}

    /// Forgets the game so far, before a new one starts.
    fn reset(&mut self) {}
}

/// The value of a finished game for `player`: 1 for a win, 0.5 for a draw, 0 for a loss.
#[must_use]
pub fn result_value(result: GameResult, player: u8) -> f64 {
    match result {
        GameResult::Win(p) if p == player => 1.0,
        GameResult::Win(_) => 0.0,
        GameResult::Draw => 0.5,
    }
}

/// The value for `player` of a random continuation that ended as `result`. With scores, a
/// finished game that is a draw by its result is split by the score difference, so that a
/// search prefers the better draw. A continuation the step limit cut (`result` is `None`) is
/// worth what the evaluation of its last position says (`evaluation`, for the first player).
#[must_use]
pub fn rollout_value(
    result: Option<GameResult>,
    scores: Option<[i32; 2]>,
    evaluation: f64,
    player: u8,
) -> f64 {
    match (result, scores) {
        (Some(GameResult::Draw), Some(s)) => {
            let me = usize::from(player & 1);
            let diff = f64::from(s[me]) - f64::from(s[1 - me]);
            let total = f64::from(s[0].unsigned_abs()) + f64::from(s[1].unsigned_abs());
            if total > 0.0 {
                0.5 + 0.25 * diff / total
            } else {
                0.5
            }
        }
        (Some(r), _) => result_value(r, player),
        (None, _) => {
            let mine = if player == 0 { evaluation } else { -evaluation };
            0.5 + 0.5 * mine.clamp(-1.0, 1.0)
        }
    }
}
