//! A learned policy: how likely a seat is to play each of its legal cards, learned from the
//! search's own play.
//!
//! The opponent model of [`crate::inference`] was the rule of thumb with noise, which predicts
//! the search's cards poorly: ISMCTS often plays as the rule of thumb would and yet differs
//! where it matters. This model is fitted to the search instead. Each legal card is described
//! by a few numbers from the acting seat's own [`View`] ([`features`]: whether the card wins
//! the trick as it stands, and whether it then takes it for certain, what the trick would be
//! worth to the seat, how many unseen cards beat it, its suit's length in the hand, whether
//! the ducking rule picks it, …), one block of weights for each of three situations (leading,
//! following suit, and unable to follow), and the probability of a card is the softmax of its
//! weighted sum over the legal cards (multinomial logit).
//!
//! One model per preset is compiled in from `crates/bots/weights/policy.txt`, which the
//! `train_policy` example makes again byte for byte from ISMCTS self-play (its header gives
//! the command and how well each model predicts held-out decisions). Only card plays are
//! modelled; the Lot's questions, suit calls and joker announcements are left to the rule of
//! thumb.
//!
//! The search can use it in three ways, each measured in `docs/STATS.md`: as the model of the
//! other seats' card plays when the inference weighs worlds
//! ([`crate::inference::Inference::with_policy`]), to play the rollouts' cards
//! ([`policy_playout`], [`crate::ismcts::Ismcts::with_policy_rollouts`]), and as a bias towards
//! the cards it expects of the other seats in the tree
//! ([`crate::ismcts::Ismcts::with_policy_prior`]).

use std::sync::OnceLock;

use rand_chacha::ChaCha8Rng;
use torite_core::shuffle::below;
use torite_core::{Action, Card, CardSet, Deal, Preset, Ruleset, View};

use crate::eval::Scoring;
use crate::ismcts::duck_in;

/// The weights file compiled in: one line per preset, its id then [`FEATURES`] weights.
pub const WEIGHTS: &str = include_str!("../weights/policy.txt");

/// The numbers describing one card, in each situation.
pub const PER_SITUATION: usize = 16;

/// The situations with their own weights: leading, following suit, unable to follow.
pub const SITUATIONS: usize = 3;

/// The number of weights of a model.
pub const FEATURES: usize = PER_SITUATION * SITUATIONS;

/// Card points are divided by this.
const POINTS_SCALE: f32 = 20.0;

/// The situation of a decision: 0 leading, 1 following suit, 2 unable to follow.
#[must_use]
pub fn situation(view: &View<'_>, cards: CardSet) -> usize {
    match view.led() {
        _ if view.current_trick().is_empty() => 0,
        Some(led) if !(cards & CardSet::suit(led)).is_empty() => 1,
        _ => 2,
    }
}

/// What every card of one decision shares: worked out once per decision.
#[derive(Clone, Copy, Debug)]
pub struct Decision {
    situation: usize,
    /// What one more trick changes in the seat's score (over the preset's scale).
    next_trick: f32,
    /// The card points in the trick so far.
    trick_points: f32,
    /// Whether the seat is the trick's last to play.
    last: bool,
    /// The strength of the card winning the trick so far ([`Ruleset::strength`]; 0 when the
    /// seat leads).
    winning: u8,
    progress: f32,
    duck: Option<Card>,
    strongest: Option<Card>,
    weakest: Option<Card>,
}

impl Decision {
    /// The shared facts of the decision among `cards` (the legal cards) in `view`.
    #[must_use]
    pub fn of(view: &View<'_>, cards: CardSet, scoring: &Scoring) -> Decision {
        let rules = view.rules();
        let n = rules.players as usize;
        let trump = view.trump();
        let trick = view.current_trick();
        let led = view.led();
        let leading = trick.is_empty();
        let strength = |c: Card| {
            let suit = if leading { c.suit() } else { led };
            rules.strength(c, suit, trump, leading)
        };
        let key = |c: Card| (strength(c), rules.card_value(c, trump), c.index());
        Decision {
            situation: situation(view, cards),
            next_trick: scoring.next(view.seat()),
            trick_points: trick
                .iter()
                .map(|&c| rules.card_value(c, trump))
                .sum::<u32>() as f32
                / POINTS_SCALE,
            last: trick.len() + 1 == n,
            winning: trick
                .iter()
                .enumerate()
                .map(|(i, &c)| rules.strength(c, led, trump, i == 0))
                .max()
                .unwrap_or(0),
            progress: view.tricks_completed() as f32 / rules.tricks().max(1) as f32,
            duck: duck_in(rules, trump, trick, led, cards),
            strongest: cards.iter().max_by_key(|&c| key(c)),
            weakest: cards.iter().min_by_key(|&c| key(c)),
        }
    }
}

/// The features of playing `card` in `view` (its seat to act), written into `out`: the
/// decision's situation's block ([`situation`]) holds them, the other blocks are zero. In
/// order: whether the card wins the trick as it stands (a lead: whether no unseen card beats
/// it), whether it then takes the trick for certain (last to play, or nothing unseen beats
/// it), those two times what the trick would be worth (its card points with this card's, and
/// what one more trick changes in the seat's score), the unseen cards that would beat it and
/// those of its suit it beats (per trick of the deal), its card points, its suit's length in
/// the hand and whether it is a singleton, whether it is a trump, its place among the hand's
/// cards of its suit (0 the lowest, 1 the highest), whether the ducking rule plays it, whether
/// it is the strongest and the weakest legal card, and whether it wins times the share of the
/// deal played.
pub fn features(view: &View<'_>, card: Card, decision: &Decision, out: &mut [f32; FEATURES]) {
    out.fill(0.0);
    let rules = view.rules();
    let trump = view.trump();
    let tricks = rules.tricks().max(1) as f32;
    let leading = view.current_trick().is_empty();
    let led = if leading { card.suit() } else { view.led() };
    let mine = rules.strength(card, led, trump, leading);
    let unseen = view.unseen();
    let higher = unseen
        .iter()
        .filter(|&u| rules.strength(u, led, trump, false) > mine)
        .count() as f32;
    // Within the card's own suit, whatever was led.
    let suit = card.suit().map_or(CardSet::EMPTY, CardSet::suit);
    let in_suit = |c: Card| rules.strength(c, card.suit(), trump, false);
    let own = in_suit(card);
    let lower = (unseen & suit).iter().filter(|&u| in_suit(u) < own).count() as f32;
    let hand = view.hand() & suit;
    let length = hand.len();
    let below_in_hand = hand.iter().filter(|&c| in_suit(c) < own).count();
    // Leading, a card wins for now; it is said to win when no unseen card beats it.
    let wins = if leading {
        higher == 0.0
    } else {
        mine > decision.winning
    };
    let takes = wins && (decision.last || higher == 0.0);
    let value = rules.card_value(card, trump) as f32 / POINTS_SCALE;
    let flag = |b: bool| f32::from(u8::from(b));
    let x = &mut out[decision.situation * PER_SITUATION..][..PER_SITUATION];
    x[0] = flag(wins);
    x[1] = flag(takes);
    x[2] = flag(wins) * (decision.trick_points + value);
    x[3] = flag(wins) * decision.next_trick;
    x[4] = flag(takes) * decision.next_trick;
    x[5] = higher / tricks;
    x[6] = lower / tricks;
    x[7] = value;
    x[8] = length as f32 / tricks;
    x[9] = flag(length == 1);
    x[10] = flag(trump.suit().is_some() && card.suit() == trump.suit());
    x[11] = if length > 1 {
        below_in_hand as f32 / (length - 1) as f32
    } else {
        0.5
    };
    x[12] = flag(decision.duck == Some(card));
    x[13] = flag(decision.strongest == Some(card));
    x[14] = flag(decision.weakest == Some(card));
    x[15] = flag(wins) * decision.progress;
}

/// A preset's policy: a weight for each feature.
#[derive(Clone, PartialEq, Debug)]
pub struct Policy {
    weights: [f32; FEATURES],
}

impl Policy {
    /// A policy with these weights.
    #[must_use]
    pub const fn new(weights: [f32; FEATURES]) -> Policy {
        Policy { weights }
    }

    /// The weights.
    #[must_use]
    pub const fn weights(&self) -> &[f32; FEATURES] {
        &self.weights
    }

    /// The trained policy of `rules`, if it is exactly a preset (and [`WEIGHTS`] has one).
    #[must_use]
    pub fn for_rules(rules: &Ruleset) -> Option<&'static Policy> {
        trained()[crate::weights::preset_index(rules)?].as_ref()
    }

    /// The probability of each card of `cards` (the legal cards of `view`'s seat, to act), in
    /// [`CardSet::iter`] order, written into `out` (cleared first).
    pub fn probabilities(&self, view: &View<'_>, cards: CardSet, out: &mut Vec<(Card, f64)>) {
        self.probabilities_with(view, cards, &Scoring::of(view), out);
    }

    /// [`Policy::probabilities`] with the scoring of the view's public facts already worked
    /// out ([`Scoring::of`] any seat's view of the same position).
    pub fn probabilities_with(
        &self,
        view: &View<'_>,
        cards: CardSet,
        scoring: &Scoring,
        out: &mut Vec<(Card, f64)>,
    ) {
        out.clear();
        let decision = Decision::of(view, cards, scoring);
        let mut x = [0.0; FEATURES];
        for card in cards {
            features(view, card, &decision, &mut x);
            let logit: f32 = self.weights.iter().zip(&x).map(|(w, x)| w * x).sum();
            out.push((card, f64::from(logit)));
        }
        softmax(out);
    }
}

/// Plays `deal` to its end as [`torite_core::random_playout`] does, except that each card
/// play with a choice is, with probability `permille` / 1000, drawn from `policy`'s
/// probabilities for the seat to act (its own view of the determinisation).
pub fn policy_playout(deal: &mut Deal, rng: &mut ChaCha8Rng, policy: &Policy, permille: u32) {
    let mut scratch = Vec::new();
    // The scoring changes only when a trick is completed.
    let mut scored = usize::MAX;
    let mut scoring = Scoring::default();
    while !deal.is_over() {
        let actions = deal.legal_actions();
        let cards = actions.cards;
        let action =
            if cards.len() > 1 && cards.len() == actions.len() && below(rng, 1000) < permille {
                if scored != deal.tricks_completed() {
                    scored = deal.tricks_completed();
                    scoring = Scoring::of(&View::new(deal, 0));
                }
                policy.probabilities_with(
                    &View::new(deal, deal.to_act()),
                    cards,
                    &scoring,
                    &mut scratch,
                );
                let mut r = f64::from(below(rng, 1 << 24)) / f64::from(1u32 << 24);
                scratch
                    .iter()
                    .find(|(_, p)| {
                        r -= p;
                        r < 0.0
                    })
                    .or(scratch.last())
                    .map(|(c, _)| Action::Play(*c))
            } else {
                actions.nth(below(rng, actions.len() as u32) as usize)
            };
        match action {
            Some(a) => deal.apply_unchecked(a),
            None => break,
        }
    }
}

/// Turns the logits of `out` into probabilities, in place.
pub(crate) fn softmax(out: &mut [(Card, f64)]) {
    let top = out.iter().map(|o| o.1).fold(f64::NEG_INFINITY, f64::max);
    let mut total = 0.0;
    for o in out.iter_mut() {
        o.1 = (o.1 - top).exp();
        total += o.1;
    }
    for o in out.iter_mut() {
        o.1 /= total;
    }
}

/// Reads weights in the form of [`WEIGHTS`]: one policy per preset, in [`Preset::ALL`] order.
///
/// # Errors
///
/// A line that names no preset, names one twice, or does not have [`FEATURES`] numbers.
pub fn parse_weights(text: &str) -> Result<Vec<Option<Policy>>, String> {
    crate::weights::parse::<FEATURES>(text, "policy")
        .map(|lines| lines.into_iter().map(|w| w.map(Policy::new)).collect())
}

/// The compiled-in policies, read once.
fn trained() -> &'static [Option<Policy>] {
    static POLICIES: OnceLock<Vec<Option<Policy>>> = OnceLock::new();
    // Checked by a test: a broken file there is a failing build, here no policies (the
    // inference then keeps the rule of thumb).
    POLICIES
        .get_or_init(|| parse_weights(WEIGHTS).unwrap_or_else(|_| vec![None; Preset::ALL.len()]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{MOLOTOW_HEARTS, after};

    /// Molotow, seat 0 leading: seat 0 leads the ace of hearts, seat 1 the six; seat 2 holds
    /// the eight and ten of hearts and seat 3, last, the jack, queen and king.
    fn molotow_after(plays: &[&str]) -> Deal {
        after(Preset::MolotowJass, MOLOTOW_HEARTS, plays)
    }

    fn features_of(deal: &Deal, card: &str) -> [f32; FEATURES] {
        let view = View::new(deal, deal.to_act());
        let cards = view.legal_actions().cards;
        let decision = Decision::of(&view, cards, &Scoring::of(&view));
        let mut x = [0.0; FEATURES];
        features(&view, card.parse().expect("card"), &decision, &mut x);
        x
    }

    #[test]
    fn the_weights_file_has_a_policy_for_every_preset() {
        let policies = parse_weights(WEIGHTS).expect("the compiled-in weights parse");
        for (preset, policy) in Preset::ALL.iter().zip(&policies) {
            assert!(policy.is_some(), "no policy for {}", preset.id());
            assert!(Policy::for_rules(&preset.ruleset()).is_some());
        }
    }

    #[test]
    fn a_house_rule_has_no_policy() {
        let mut rules = Preset::MiniMisere4.ruleset();
        rules.lot = None;
        assert!(!rules.is_preset());
        assert!(Policy::for_rules(&rules).is_none());
    }

    #[test]
    fn a_bad_weights_line_is_refused_with_its_line_number() {
        let ones = vec!["1"; FEATURES].join(" ");
        let few = format!("mura-4 {}", vec!["1"; FEATURES - 1].join(" "));
        let cases = [
            (
                format!("# a comment\nnowhere {ones}"),
                "line 2: no preset is called \"nowhere\"",
            ),
            (few, "line 1: 47 weights for mura-4, not 48"),
            (
                format!("mura-4 {ones}\nmura-4 {ones}"),
                "line 2: a second policy of mura-4",
            ),
            (
                format!("mura-4 x{}", " 1".repeat(FEATURES - 1)),
                "line 1: \"x\" is not a number",
            ),
        ];
        for (text, error) in cases {
            assert_eq!(parse_weights(&text).unwrap_err(), error);
        }
    }

    #[test]
    fn the_situations_are_leading_following_and_unable_to_follow() {
        let lead = molotow_after(&[]);
        let view = View::new(&lead, 0);
        assert_eq!(situation(&view, view.legal_actions().cards), 0);
        let follow = molotow_after(&["AH"]);
        let view = View::new(&follow, 1);
        assert_eq!(situation(&view, view.legal_actions().cards), 1);
        // Seat 1's only heart gone, it cannot follow the next heart.
        let mut void = molotow_after(&["AH", "6H", "8H", "JH"]);
        // Seat 0 won the trick with the ace and leads again.
        void.apply("7H".parse().expect("card")).expect("legal");
        let view = View::new(&void, 1);
        assert_eq!(situation(&view, view.legal_actions().cards), 2);
        let x = features_of(&void, "8S");
        assert!(x[..2 * PER_SITUATION].iter().all(|&v| v == 0.0));
    }

    #[test]
    fn a_card_that_wins_as_last_to_play_takes_the_trick_for_certain() {
        let deal = molotow_after(&["AH", "6H", "8H"]);
        // Seat 3 is last: no heart of its beats the ace, so none wins.
        let jack = features_of(&deal, "JH");
        let base = PER_SITUATION;
        assert_eq!(jack[base], 0.0, "the jack does not win under the ace");
        assert_eq!(jack[base + 1], 0.0);
        // Seat 2, second to follow the ace: neither of its hearts wins; the eight is its
        // weakest card and the ten its strongest.
        let deal = molotow_after(&["AH", "6H"]);
        let eight = features_of(&deal, "8H");
        let ten = features_of(&deal, "TH");
        assert_eq!(eight[base + 14], 1.0, "the eight is the weakest card");
        assert_eq!(ten[base + 13], 1.0, "the ten is the strongest card");
        assert_eq!(eight[base + 9], 0.0, "two hearts: not a singleton");
        assert!(
            ten[base + 7] > eight[base + 7],
            "the ten is worth points, the eight none"
        );
    }

    #[test]
    fn a_lead_that_no_unseen_card_beats_wins_for_certain() {
        let deal = molotow_after(&[]);
        let ace = features_of(&deal, "AH");
        let seven = features_of(&deal, "7H");
        assert_eq!(ace[0], 1.0, "no unseen heart beats the ace");
        assert_eq!(ace[1], 1.0);
        assert_eq!(ace[5], 0.0, "no unseen heart is higher");
        assert_eq!(seven[0], 0.0);
        // Above the seven: the eight, ten, jack, queen and king unseen (the nine and the ace
        // are seat 0's own), over nine tricks.
        assert!((seven[5] - 5.0 / 9.0).abs() < 1e-6, "{}", seven[5]);
    }

    #[test]
    fn the_probabilities_are_a_distribution_over_the_legal_cards() {
        for preset in Preset::ALL {
            let rules = preset.ruleset();
            let Some(policy) = Policy::for_rules(&rules) else {
                continue;
            };
            let mut out = Vec::new();
            crate::fixtures::each_card_choice(preset, |deal, cards| {
                policy.probabilities(&View::new(deal, deal.to_act()), cards, &mut out);
                crate::fixtures::assert_a_distribution(preset, cards, &out);
            });
        }
    }
}
