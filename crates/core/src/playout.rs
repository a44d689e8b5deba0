//! Random playouts: uniformly random legal actions to the end of a deal, as benchmarks and
//! simple bots use them.

use rand_core::Rng;

use crate::deal::Deal;
use crate::shuffle::below;

/// Plays uniformly random legal actions until the deal is over; returns how many were taken.
pub fn random_playout(deal: &mut Deal, rng: &mut (impl Rng + ?Sized)) -> u32 {
    let mut taken = 0;
    while !deal.is_over() {
        let actions = deal.legal_actions();
        let pick = below(rng, actions.len() as u32) as usize;
        if let Some(action) = actions.nth(pick) {
            deal.apply_unchecked(action);
            taken += 1;
        }
    }
    taken
}
