//! Rewards: what a finished deal is worth to each seat, for search and the arena.

use torite_core::{Deal, DealFacts, MAX_SEATS, Ruleset, Scoring};

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
            let seats: Vec<usize> = (0..MAX_SEATS).filter(|s| tied & (1 << s) != 0).collect();
            for drawer in &seats {
                if let Ok(score) = rules.score(&facts, &totals, Some(*drawer)) {
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

/// A bound on the size of a deal's scores, to normalise rewards to about `[-1, 1]`.
#[must_use]
pub fn score_scale(rules: &Ruleset) -> f64 {
    let tricks = rules.tricks() as f64;
    match rules.scoring {
        Scoring::TrickTable { points } => {
            let table = points
                .iter()
                .map(|p| f64::from(p.unsigned_abs()))
                .fold(0.0, f64::max);
            let lot = rules.lot.map_or(0.0, |l| f64::from(l.success.max(l.fail)));
            table.max(lot).max(1.0)
        }
        Scoring::Mittlere { .. } | Scoring::PlusMinus => 2.0,
        Scoring::Molotow { .. } => 3.0,
        Scoring::OwnPoints => 121.0,
        Scoring::Mura { .. } => tricks + 1.0,
        _ => 1.0,
    }
}
