//! Random playouts: uniformly random legal actions to the end of a deal, as benchmarks and
//! simple bots use them.

use rand_core::Rng;

use crate::deal::{Action, Deal, Phase};
use crate::shuffle::below;

/// Plays uniformly random legal actions until the deal is over; returns how many were taken.
pub fn random_playout(deal: &mut Deal, rng: &mut (impl Rng + ?Sized)) -> u32 {
    let mut taken = 0;
    while !deal.is_over() {
        if deal.phase() == Phase::Play && !deal.may_declare_with_card() {
            // Only cards are legal: pick one straight from the card set.
            let cards = deal.legal_plays();
            if let Some(card) = cards.nth(below(rng, cards.len() as u32) as usize) {
                deal.apply_unchecked(Action::Play(card));
                taken += 1;
            }
            continue;
        }
        let actions = deal.legal_actions();
        let pick = below(rng, actions.len() as u32) as usize;
        if let Some(action) = actions.nth(pick) {
            deal.apply_unchecked(action);
            taken += 1;
        }
    }
    taken
}
