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

/// Each of the `players` seats' `rewards` less the table's mean: what the seat gains over the
/// average seat of the deal. Where the deal's scores always add up to the same total (the card
/// points of Mittlere, Molotow and the Middler), it is the score less a constant; where they do
/// not (the tricks of Mini Misère, Mura's penalties), a seat valuing a deal by it prefers a
/// lower score of its own that leaves the others lower still.
#[must_use]
pub fn over_the_table(rewards: &[f64; MAX_SEATS], players: usize) -> [f64; MAX_SEATS] {
    let players = players.clamp(1, MAX_SEATS);
    let mean = rewards[..players].iter().sum::<f64>() / players as f64;
    let mut out = [0.0; MAX_SEATS];
    for (o, r) in out.iter_mut().zip(&rewards[..players]) {
        *o = r - mean;
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

    #[test]
    fn over_the_table_is_each_score_less_the_mean_of_the_seats_that_play() {
        let mut rewards = [0.0; MAX_SEATS];
        rewards[..4].copy_from_slice(&[6.0, 1.0, 2.0, 3.0]);
        rewards[4] = 99.0; // not a seat of this table
        let table = over_the_table(&rewards, 4);
        assert_eq!(table[..4], [3.0, -2.0, -1.0, 0.0]);
        assert!(table[4..].iter().all(|&r| r == 0.0));
        // Where the scores always add up to the same total (card points), each seat's value
        // is its score less the same constant.
        let points = [1.0, -1.0, 0.0, 0.0, 0.0, 0.0];
        assert_eq!(over_the_table(&points, 3), points);
    }

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
