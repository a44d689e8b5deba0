//! Rewards: what a finished deal is worth to each seat, for search and the arena.

use torite_core::{Deal, DealFacts, MAX_SEATS, Ruleset, SeatSet};

/// Each seat's score for a finished deal, higher is better: penalty points count negative.
/// Where a draw decides (Molotow's three-way tie), the score is averaged over the tied seats.
/// Held-over points and Mura's never-below-zero bonus depend on the game, not the deal, and
/// are left out (the bonus counts as −1).
#[must_use]
pub fn deal_rewards(deal: &Deal) -> [f64; MAX_SEATS] {
    let rules = deal.rules();
    let facts = DealFacts::of(deal);
    let totals = [1; MAX_SEATS];
    let sign = if rules.scoring.is_penalty() {
        -1.0
    } else {
        1.0
    };
    let mut out = [0.0; MAX_SEATS];
    match rules.draw_needed(&facts) {
        Some(tied) => {
            let seats = SeatSet::from_bits(tied);
            for drawer in seats {
                if let Ok(score) = rules.score(&facts, &totals, Some(drawer)) {
                    for (o, s) in out.iter_mut().zip(score.scores) {
                        *o += sign * f64::from(s) / seats.len() as f64;
                    }
                }
            }
        }
        None => {
            if let Ok(score) = rules.score(&facts, &totals, None) {
                for (o, s) in out.iter_mut().zip(score.scores) {
                    *o = sign * f64::from(s);
                }
            }
        }
    }
    out
}

/// A bound on the size of a deal's scores, to normalise rewards to about `[-1, 1]`: the larger
/// end of the ruleset's score bounds ([`Ruleset::score_bounds`]), at least 1.
#[must_use]
pub fn score_scale(rules: &Ruleset) -> f64 {
    let (low, high) = rules.score_bounds();
    f64::from(low.unsigned_abs().max(high.unsigned_abs()).max(1))
}

#[cfg(test)]
mod tests {
    use torite_core::Preset;

    use super::*;

    /// The scales the searches were tuned with (the exploration constant of `ismcts` is for
    /// rewards divided by them).
    #[test]
    fn score_scales_are_unchanged() {
        let scales: Vec<f64> = Preset::ALL
            .iter()
            .map(|p| score_scale(&p.ruleset()))
            .collect();
        assert_eq!(
            scales,
            [
                12.0, 14.0, 10.0, 10.0, 12.0, 12.0, 2.0, 3.0, 2.0, 2.0, 2.0, 121.0, 10.0, 13.0
            ]
        );
    }
}
