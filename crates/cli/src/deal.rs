//! Seeded deals and seeded random games, as records.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_core::shuffle::below;
use torite_core::{Game, Record, RecordDeal, Ruleset, SeatSet};

use crate::Failure;

/// Deals from `seed` with ChaCha8 (`seed_from_u64`) and the engine's own shuffle: one deal, or
/// with `play` a whole game of uniformly random legal actions drawn from the same generator.
pub fn seeded(rules: Ruleset, seed: u64, dealer: usize, play: bool) -> Result<Record, Failure> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut game = Game::new(rules, dealer).map_err(Failure::input)?;
    let mut deals = Vec::new();
    loop {
        let deal = game.start_random_deal(&mut rng).map_err(Failure::input)?;
        let mut record = RecordDeal {
            dealer: deal.dealer(),
            hands: (0..deal.players()).map(|s| deal.hand(s)).collect(),
            actions: Vec::new(),
            draw: None,
        };
        if !play {
            deals.push(record);
            break;
        }
        while let Some(deal) = game.deal().filter(|d| !d.is_over()) {
            let actions = deal.legal_actions();
            let action = actions
                .nth(below(&mut rng, actions.len() as u32) as usize)
                .expect("a deal in progress has a legal action");
            record.actions.push(action);
            game.apply(action).map_err(Failure::input)?;
        }
        if let Some(tied) = game.draw_needed() {
            let seats: Vec<usize> = SeatSet::from_bits(tied).iter().collect();
            record.draw = Some(seats[below(&mut rng, seats.len() as u32) as usize]);
        }
        game.finish_deal(record.draw).map_err(Failure::input)?;
        deals.push(record);
        if game.is_finished() {
            break;
        }
    }
    Ok(Record {
        ruleset: rules,
        players: None,
        deals,
    })
}
