//! Hand-built deals shared by the unit tests.

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_core::shuffle::below;
use torite_core::{Action, Card, CardSet, Deal, Preset};

/// Hands in the record's notation (`"AS KS 2H"`), one a seat.
pub(crate) fn hands<const N: usize>(text: [&str; N]) -> [CardSet; N] {
    text.map(|h| h.parse().expect("hand"))
}

/// The deal of `preset` dealt `hands` by the last seat, so that seat 0 leads, after `moves`
/// (actions in the record's notation).
pub(crate) fn after<const N: usize>(preset: Preset, hands: [&str; N], moves: &[&str]) -> Deal {
    let mut deal = Deal::new(preset.ruleset(), N - 1, &self::hands(hands)).expect("deal");
    for m in moves {
        deal.apply(m.parse().expect("action")).expect("legal");
    }
    deal
}

/// Plays a random deal of `preset` (seeded by the preset) with random legal actions, and
/// calls `visit` with the deal and the legal cards at each card play with a choice.
pub(crate) fn each_card_choice(preset: Preset, mut visit: impl FnMut(&Deal, CardSet)) {
    let mut rng = ChaCha8Rng::seed_from_u64(preset as u64);
    let mut deal = Deal::random(preset.ruleset(), 0, &mut rng);
    while !deal.is_over() {
        let legal = deal.legal_actions();
        if legal.len() == legal.cards.len() && legal.cards.len() > 1 {
            visit(&deal, legal.cards);
        }
        let pick = legal.nth(below(&mut rng, legal.len() as u32) as usize);
        deal.apply(pick.unwrap_or(Action::Pass)).expect("legal");
    }
}

/// A Molotow deal in which seat 0 leads the ace of hearts and seat 1 can follow with the six;
/// seat 2 holds the eight and ten of hearts and seat 3, last, the jack, queen and king.
pub(crate) const MOLOTOW_HEARTS: [&str; 4] = [
    "AH 7H 9H 6S 7S 6D 7D 6C 7C",
    "6H 8S 9S TS 8D 9D 8C 9C TC",
    "8H TH JS QS TD JD JC QC KC",
    "JH QH KH KS AS QD KD AD AC",
];

/// Fails unless `out` is a probability for each of the legal `cards` of a decision of
/// `preset`, each above zero, summing to 1.
pub(crate) fn assert_a_distribution(preset: Preset, cards: CardSet, out: &[(Card, f64)]) {
    assert_eq!(out.len(), cards.len());
    assert!(out.iter().all(|(c, p)| cards.contains(*c) && *p > 0.0));
    let total: f64 = out.iter().map(|(_, p)| p).sum();
    assert!(
        (total - 1.0).abs() < 1e-9,
        "{} sums to {total}",
        preset.id()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seat_zero_leads_the_molotow_hearts() {
        let deal = after(Preset::MolotowJass, MOLOTOW_HEARTS, &["AH", "6H"]);
        assert_eq!(deal.to_act(), 2);
        assert_eq!(
            deal.hand(2),
            "8H TH JS QS TD JD JC QC KC".parse().expect("hand")
        );
    }
}
