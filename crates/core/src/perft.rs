//! Perft: counting legal action sequences, which pins down the move generator exactly.

use crate::deal::Deal;

/// The number of distinct legal action sequences of length `depth` from `deal`, where a
/// sequence that ends the deal earlier counts once (so a finished deal counts 1).
///
/// ```
/// use torite_core::{Deal, Preset, perft};
/// let hands = ["AS KS QS JS TS 2S", "AH KH QH JH TH 2H", "AD KD QD JD TD 2D", "AC KC QC JC TC 2C"]
///     .map(|h| h.parse().unwrap());
/// let deal = Deal::new(Preset::MiniMisere4.ruleset(), 3, &hands)?;
/// // Seat 0 leads any of six cards, each with or without declaring the Lot first.
/// assert_eq!(perft(&deal, 1), 7);
/// # Ok::<_, torite_core::SetupError>(())
/// ```
#[must_use]
pub fn perft(deal: &Deal, depth: u32) -> u64 {
    if depth == 0 || deal.is_over() {
        return 1;
    }
    let actions = deal.legal_actions();
    if depth == 1 {
        return actions.len() as u64;
    }
    actions
        .iter()
        .map(|action| {
            let mut child = deal.clone();
            child.apply_unchecked(action);
            perft(&child, depth - 1)
        })
        .sum()
}
