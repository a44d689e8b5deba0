//! Seeded deals and seeded random games, as records.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_core::Record;
use torite_core::Ruleset;
use torite_core::shuffle::below;
use torite_core::table::{Step, Table, first_dealer};

use crate::Failure;

/// What the table seed is mixed with to seed the stream of random actions of `--play`.
pub const ACTION_STREAM: u64 = 0xAC7;

/// A game of `rules` from table seed `seed` (`torite_core::Seeds`, the deals and draws every
/// surface deals from), its first deal dealt by `dealer` (by default core's
/// [`first_dealer`], the last seat, as on every surface): only the first deal, or with `play`
/// the whole game, each action drawn uniformly among the legal ones from a separate ChaCha8
/// stream (`seed_from_u64(seed ^ ACTION_STREAM)`, one bounded draw per action), so that the
/// deals and draws are those of the same seed anywhere else.
pub fn seeded(
    rules: Ruleset,
    seed: u64,
    dealer: Option<usize>,
    play: bool,
) -> Result<Record, Failure> {
    let dealer = dealer.unwrap_or_else(|| first_dealer(&rules));
    let mut table = Table::new(rules, dealer, seed).map_err(Failure::input)?;
    if !play {
        return Ok(table.record().clone());
    }
    let mut actions = ChaCha8Rng::seed_from_u64(seed ^ ACTION_STREAM);
    loop {
        match table.next_step() {
            Step::Act { seat } => {
                let legal = table
                    .view(seat)
                    .map(|view| view.legal_actions())
                    .filter(|legal| !legal.is_empty())
                    .ok_or_else(|| Failure::input(format!("seat {seat} has no legal action")))?;
                let action = legal
                    .nth(below(&mut actions, legal.len() as u32) as usize)
                    .ok_or_else(|| Failure::input(format!("seat {seat} has no legal action")))?;
                table.apply(action).map_err(Failure::input)?;
            }
            Step::Draw { .. } => {
                table.draw().map_err(Failure::input)?;
            }
            Step::GameOver => return Ok(table.record().clone()),
        }
    }
}
