//! The uniformly random player: every open decision equally likely (a continuous one with its
//! parameters uniform in their ranges).

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use super::{Agent, Thought};
use rulestone_runtime::Game;

pub struct Random {
    rng: ChaCha8Rng,
}

impl Random {
    #[must_use]
    pub fn new(seed: u64) -> Random {
        Random {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl<G: Game> Agent<G> for Random {
    fn name(&self) -> String {
        "random".to_string()
    }

    fn choose(&mut self, game: &mut G) -> Option<Thought<G::Decision>> {
        let decision = game.sample(&mut self.rng)?;
        Some(Thought {
            decision,
            value: None,
            ranked: Vec::new(),
            unit: "",
            summary: "a random decision".to_string(),
        })
    }
}
