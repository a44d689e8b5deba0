//! The `random` bot: uniform over the legal actions.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_core::shuffle::below;
use torite_core::{Action, View};

use crate::Bot;

/// Chooses uniformly among the legal actions.
#[derive(Debug, Clone)]
pub struct RandomBot {
    rng: ChaCha8Rng,
}

impl RandomBot {
    /// A random bot seeded with `seed`.
    #[must_use]
    pub fn new(seed: u64) -> RandomBot {
        RandomBot {
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Bot for RandomBot {
    fn name(&self) -> &str {
        "random"
    }

    fn act(&mut self, view: &View<'_>) -> Action {
        let actions = view.legal_actions();
        let pick = below(&mut self.rng, actions.len().max(1) as u32) as usize;
        actions.nth(pick).unwrap_or(Action::Pass)
    }
}
