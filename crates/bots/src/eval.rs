//! A learned evaluation: what a position is worth to a seat, predicted from that seat's
//! [`View`] by a linear model per preset, trained from torite's own self-play.
//!
//! The `ismcts-eval` bot ([`crate::ismcts::Ismcts::with_eval`]) uses it as the leaf value of
//! truncated rollouts: a rollout plays at random only to the end of the trick after the one in
//! progress (to the deal's end once the Lot is declared), and each seat's reward is then the
//! model's prediction from that seat's view of the determinisation, instead of the score of a
//! deal played out at random.
//!
//! # Features
//!
//! [`features`] reads only a [`View`]: the cards the seat holds (one feature for each card,
//! and the same again weighted by how far the deal has gone), how many it holds in each suit
//! (and the square) and in trumps, whether a trump is set; for every seat, counted from the
//! viewer, its tricks and card points so far (card points valued by the ruleset,
//! [`View::card_points`]), whether it declared the Lot and whether it has failed, and whether
//! it is winning the trick in progress; whether the viewer is to act and how full the trick
//! is; and what the ruleset's own scoring makes of the tricks and points so far ([`Scoring`]:
//! each seat's score if the deal ended now, and what one more trick would change), with the
//! viewer's tricks counted one-hot, since trick tables are far from linear. Nothing else: no
//! other seat's hand.
//!
//! # Training
//!
//! `cargo run --release -p torite-bots --example train_eval -- --seed 1 --deals 10000 --out
//! crates/bots/weights/eval.txt`: `heuristic` plays seeded deals of every preset (one action
//! in ten at random, to reach positions the rule of thumb would not), every position of every
//! seat is a row, and its target is that seat's final score ([`deal_rewards`]) divided by
//! [`score_scale`]; ridge regression (normal equations, Cholesky) fits each preset's weights.
//! The weights are [`WEIGHTS`], compiled in. A ruleset that is not exactly a preset has no
//! model ([`Model::for_rules`] is `None`), and the search then plays its rollouts out.
//!
//! # Measured
//!
//! The models explain little of a deal's score (R² on held-out deals, in the weights file:
//! 0.04–0.38 over all positions), and `ismcts-eval` has not beaten `ismcts` at equal time in
//! any preset measured (`docs/STATS.md`, "Does a learned evaluation make the search
//! stronger?"); the *Expert* level keeps the plain search.

use std::sync::OnceLock;

use torite_core::{
    Deal, DealFacts, LotResult, MAX_SEATS, Preset, Ruleset, Seat, Suit, Trump, View,
};

use crate::reward::{deal_rewards, score_scale};

/// The trained weights, as the training example writes them: comment lines (`#`), then one
/// line per preset, its id and [`FEATURES`] numbers.
pub const WEIGHTS: &str = include_str!("../weights/eval.txt");

/// The number of features.
pub const FEATURES: usize = 370;

const HELD: usize = 1;
const HELD_LATE: usize = HELD + 64;
/// The index of the feature that says how far the deal has gone (tricks completed over
/// tricks in a deal).
pub const PROGRESS: usize = HELD_LATE + 64;
const SEATS: usize = PROGRESS + 1;
const PER_SEAT: usize = 5;
const TO_ACT: usize = SEATS + PER_SEAT * MAX_SEATS;
const TRICK_FILL: usize = TO_ACT + 1;
const TRUMP_SET: usize = TRICK_FILL + 1;
const TRUMPS_HELD: usize = TRUMP_SET + 1;
const SUITS: usize = TRUMPS_HELD + 1;
const SUITS_SQUARED: usize = SUITS + 4;
const SCORE_NOW: usize = SUITS_SQUARED + 4;
const SCORE_NEXT: usize = SCORE_NOW + MAX_SEATS;
const MY_TRICKS: usize = SCORE_NEXT + MAX_SEATS;
/// Tricks won counted one-hot up to this many (more count as this many).
const MAX_TRICKS: usize = 16;
const TRICKS_BY_TIME: usize = MY_TRICKS + MAX_TRICKS + 1;
/// The viewer's tricks won and the tricks completed, counted one-hot as a pair up to this
/// many each.
const PAIR_TRICKS: usize = 12;
const _: () = assert!(TRICKS_BY_TIME + (PAIR_TRICKS + 1) * (PAIR_TRICKS + 1) == FEATURES);

/// Card points are divided by this, to be of the size of the other features.
const POINTS_SCALE: f32 = 100.0;

/// What the ruleset's scoring makes of the tricks and points so far, the same for every
/// seat's view: each seat's score if the deal ended now (a declarer still winning every trick
/// counted as succeeding), and how much one more trick for that seat would change it; in
/// score units over [`score_scale`], gains positive and penalties negative.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub struct Scoring {
    points: [u32; MAX_SEATS],
    now: [f32; MAX_SEATS],
    next: [f32; MAX_SEATS],
}

impl Scoring {
    /// What one more trick for `seat` would change in its score (over [`score_scale`]).
    #[must_use]
    pub fn next(&self, seat: Seat) -> f32 {
        self.next.get(seat).copied().unwrap_or(0.0)
    }

    /// Where `seat`'s score if the deal ended now ([`Scoring`]) stands against the others':
    /// less the best of theirs, and less the worst (over [`score_scale`]).
    #[must_use]
    pub fn standing(&self, seat: Seat, players: usize) -> (f32, f32) {
        let own = self.now.get(seat).copied().unwrap_or(0.0);
        let others = || {
            (0..players.min(MAX_SEATS))
                .filter(|&s| s != seat)
                .map(|s| self.now[s])
        };
        let best = others().fold(f32::NEG_INFINITY, f32::max);
        let worst = others().fold(f32::INFINITY, f32::min);
        if best.is_finite() {
            (own - best, own - worst)
        } else {
            (0.0, 0.0)
        }
    }

    /// The scoring of the public facts of `view`.
    #[must_use]
    pub fn of(view: &View<'_>) -> Scoring {
        let rules = view.rules();
        let n = rules.players as usize;
        let mut facts = DealFacts {
            players: n,
            ..DealFacts::default()
        };
        for (seat, &t) in view.tricks_won().iter().enumerate().take(n) {
            facts.tricks[seat] = t;
        }
        for (seat, p) in view.card_points().into_iter().enumerate().take(n) {
            facts.points[seat] = p;
        }
        let lot = view.lot();
        if lot.declarers != 0 {
            facts.lot = Some(LotResult {
                declarers: lot.declarers,
                winner: lot.in_play().first(),
            });
        }
        let scale = score_scale(rules);
        let sign = if rules.scoring.is_penalty() {
            -1.0
        } else {
            1.0
        };
        let totals = [1; MAX_SEATS];
        let score = |facts: &DealFacts| -> [f32; MAX_SEATS] {
            let mut out = [0.0; MAX_SEATS];
            if let Ok(s) = rules.score(facts, &totals, None) {
                for (o, s) in out.iter_mut().zip(s.scores) {
                    *o = (sign * f64::from(s) / scale) as f32;
                }
            }
            out
        };
        let now = score(&facts);
        let mut next = [0.0; MAX_SEATS];
        for (seat, o) in next.iter_mut().enumerate().take(n) {
            let mut more = facts;
            more.tricks[seat] = more.tricks[seat].saturating_add(1);
            *o = score(&more)[seat] - now[seat];
        }
        Scoring {
            points: facts.points,
            now,
            next,
        }
    }
}

/// The features of `view`'s position for its seat, written into `out` (every entry is set).
pub fn features(view: &View<'_>, out: &mut [f32; FEATURES]) {
    features_with(view, &Scoring::of(view), out);
}

/// [`features`] with the scoring of the view's public facts already worked out
/// ([`Scoring::of`] any seat's view of the same position).
pub fn features_with(view: &View<'_>, scoring: &Scoring, out: &mut [f32; FEATURES]) {
    out.fill(0.0);
    let rules = view.rules();
    let n = rules.players as usize;
    let me = view.seat();
    let tricks = rules.tricks().max(1) as f32;
    let progress = view.tricks_completed() as f32 / tricks;
    out[0] = 1.0;
    out[PROGRESS] = progress;
    let hand = view.hand();
    for card in hand {
        let i = usize::from(card.index());
        out[HELD + i] = 1.0;
        out[HELD_LATE + i] = progress;
    }
    let won = view.tricks_won();
    let lot = view.lot();
    let winning = view.winning();
    for seat in 0..n {
        let base = SEATS + PER_SEAT * ((seat + n - me) % n);
        let bit = 1u8 << seat;
        out[base] = f32::from(won.get(seat).copied().unwrap_or(0)) / tricks;
        out[base + 1] = scoring.points[seat] as f32 / POINTS_SCALE;
        out[base + 2] = f32::from(u8::from(lot.declarers & bit != 0));
        out[base + 3] = f32::from(u8::from(lot.failed & bit != 0));
        out[base + 4] = f32::from(u8::from(winning == Some(seat)));
        let relative = (seat + n - me) % n;
        out[SCORE_NOW + relative] = scoring.now[seat];
        out[SCORE_NEXT + relative] = scoring.next[seat];
    }
    let mine = usize::from(won.get(me).copied().unwrap_or(0));
    out[MY_TRICKS + mine.min(MAX_TRICKS)] = 1.0;
    let done = view.tricks_completed().min(PAIR_TRICKS);
    out[TRICKS_BY_TIME + mine.min(PAIR_TRICKS) * (PAIR_TRICKS + 1) + done] = 1.0;
    out[TO_ACT] = f32::from(u8::from(view.to_act() == me));
    out[TRICK_FILL] = view.current_trick().len() as f32 / n as f32;
    let trump = view.trump();
    out[TRUMP_SET] = f32::from(u8::from(trump != Trump::None));
    if let Some(suit) = trump.suit() {
        out[TRUMPS_HELD] = hand.of_suit(suit).len() as f32 / tricks;
    }
    for suit in Suit::ALL {
        let held = hand.of_suit(suit).len() as f32 / tricks;
        out[SUITS + suit.index()] = held;
        out[SUITS_SQUARED + suit.index()] = held * held;
    }
}

/// A preset's linear model: a weight for each feature.
#[derive(Clone, PartialEq, Debug)]
pub struct Model {
    weights: [f32; FEATURES],
}

impl Model {
    /// A model with these weights.
    #[must_use]
    pub const fn new(weights: [f32; FEATURES]) -> Model {
        Model { weights }
    }

    /// The weights.
    #[must_use]
    pub const fn weights(&self) -> &[f32; FEATURES] {
        &self.weights
    }

    /// The trained model of `rules`, if it is exactly a preset (and [`WEIGHTS`] has one).
    #[must_use]
    pub fn for_rules(rules: &Ruleset) -> Option<&'static Model> {
        trained()[crate::weights::preset_index(rules)?].as_ref()
    }

    /// The predicted final score of the view's seat, divided by [`score_scale`].
    #[must_use]
    pub fn predict(&self, view: &View<'_>) -> f32 {
        let mut x = [0.0; FEATURES];
        features(view, &mut x);
        self.weights.iter().zip(&x).map(|(w, x)| w * x).sum()
    }

    /// Each seat's predicted score in `deal` (score units, as [`deal_rewards`]), from its own
    /// view; the exact scores once the deal is over.
    #[must_use]
    pub fn values(&self, deal: &Deal) -> [f64; MAX_SEATS] {
        if deal.is_over() {
            return deal_rewards(deal);
        }
        let scale = score_scale(deal.rules());
        let scoring = Scoring::of(&View::new(deal, 0));
        let mut out = [0.0; MAX_SEATS];
        for (seat, o) in out.iter_mut().enumerate().take(deal.players()) {
            *o = f64::from(self.value_with(&View::new(deal, seat), &scoring)) * scale;
        }
        out
    }

    /// [`Model::predict`] with the scoring of the view's public facts already worked out,
    /// summing only the features that can be non-zero (the same value as the weights times
    /// [`features_with`], up to rounding; a test checks it).
    #[must_use]
    pub fn value_with(&self, view: &View<'_>, scoring: &Scoring) -> f32 {
        let w = &self.weights;
        let rules = view.rules();
        let n = rules.players as usize;
        let me = view.seat();
        let tricks = rules.tricks().max(1) as f32;
        let done = view.tricks_completed();
        let progress = done as f32 / tricks;
        let mut v = w[0] + w[PROGRESS] * progress;
        let hand = view.hand();
        for card in hand {
            let i = usize::from(card.index());
            v += w[HELD + i] + w[HELD_LATE + i] * progress;
        }
        let won = view.tricks_won();
        let lot = view.lot();
        let winning = view.winning();
        for seat in 0..n {
            let relative = (seat + n - me) % n;
            let base = SEATS + PER_SEAT * relative;
            let bit = 1u8 << seat;
            v += w[base] * f32::from(won.get(seat).copied().unwrap_or(0)) / tricks
                + w[base + 1] * scoring.points[seat] as f32 / POINTS_SCALE
                + w[SCORE_NOW + relative] * scoring.now[seat]
                + w[SCORE_NEXT + relative] * scoring.next[seat];
            if lot.declarers & bit != 0 {
                v += w[base + 2];
            }
            if lot.failed & bit != 0 {
                v += w[base + 3];
            }
            if winning == Some(seat) {
                v += w[base + 4];
            }
        }
        if view.to_act() == me {
            v += w[TO_ACT];
        }
        v += w[TRICK_FILL] * view.current_trick().len() as f32 / n as f32;
        let trump = view.trump();
        if trump != Trump::None {
            v += w[TRUMP_SET];
        }
        if let Some(suit) = trump.suit() {
            v += w[TRUMPS_HELD] * hand.of_suit(suit).len() as f32 / tricks;
        }
        for suit in Suit::ALL {
            let held = hand.of_suit(suit).len() as f32 / tricks;
            v += w[SUITS + suit.index()] * held + w[SUITS_SQUARED + suit.index()] * held * held;
        }
        let mine = usize::from(won.get(me).copied().unwrap_or(0));
        v += w[MY_TRICKS + mine.min(MAX_TRICKS)];
        v += w[TRICKS_BY_TIME + mine.min(PAIR_TRICKS) * (PAIR_TRICKS + 1) + done.min(PAIR_TRICKS)];
        v
    }
}

/// Reads weights in the form of [`WEIGHTS`]: one model per preset, in [`Preset::ALL`] order.
///
/// # Errors
///
/// A line that names no preset, names one twice, or does not have [`FEATURES`] numbers.
pub fn parse_weights(text: &str) -> Result<Vec<Option<Model>>, String> {
    crate::weights::parse::<FEATURES>(text, "model")
        .map(|lines| lines.into_iter().map(|w| w.map(Model::new)).collect())
}

/// The compiled-in models, read once.
fn trained() -> &'static [Option<Model>] {
    static MODELS: OnceLock<Vec<Option<Model>>> = OnceLock::new();
    // The weights are compiled in and checked by a test: a broken file is a build error
    // there, and here means no models (the search then plays its rollouts out).
    MODELS.get_or_init(|| parse_weights(WEIGHTS).unwrap_or_else(|_| vec![None; Preset::ALL.len()]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;
    use torite_core::{Action, Card, CardSet};

    #[test]
    fn the_features_of_a_hand_built_view() {
        let rules = Preset::MiniMisere4.ruleset();
        let deck: Vec<Card> = rules.deck().into_iter().collect();
        let hands: Vec<CardSet> = deck
            .chunks(deck.len() / 4)
            .map(|c| c.iter().copied().collect())
            .collect();
        let mut deal = Deal::new(rules, 3, &hands).unwrap();
        let first = deal.to_act();
        let lead = deal.legal_plays().first().unwrap();
        deal.apply(Action::Play(lead)).unwrap();
        let me = deal.to_act();
        let view = View::new(&deal, me);
        let mut x = [9.0; FEATURES];
        features(&view, &mut x);
        let tricks = rules.tricks() as f32;
        assert_eq!(x[0], 1.0);
        for c in rules.deck() {
            let held = hands[me].contains(c);
            assert_eq!(
                x[HELD + usize::from(c.index())],
                f32::from(u8::from(held)),
                "{c}"
            );
            assert_eq!(
                x[HELD_LATE + usize::from(c.index())],
                0.0,
                "nothing played yet"
            );
        }
        assert_eq!(x[PROGRESS], 0.0);
        // The seat that led is the last counted from the viewer, and is winning the trick.
        let leader = SEATS + PER_SEAT * ((first + 4 - me) % 4);
        assert_eq!(x[leader + 4], 1.0);
        assert_eq!(
            (SEATS..TO_ACT)
                .step_by(PER_SEAT)
                .map(|b| x[b + 4])
                .sum::<f32>(),
            1.0
        );
        assert_eq!(x[TO_ACT], 1.0);
        assert_eq!(x[TRICK_FILL], 0.25);
        for suit in Suit::ALL {
            let held = hands[me].of_suit(suit).len() as f32 / tricks;
            assert_eq!(x[SUITS + suit.index()], held);
            assert_eq!(x[SUITS_SQUARED + suit.index()], held * held);
        }
        // Seats beyond the table's are zero.
        assert!(x[SEATS + 4 * PER_SEAT..TO_ACT].iter().all(|&v| v == 0.0));
        // Another seat's view of the same deal: its own hand, and it is not to act.
        let other = (me + 1) % 4;
        let mut y = [0.0; FEATURES];
        features(&View::new(&deal, other), &mut y);
        assert_eq!(y[TO_ACT], 0.0);
        for c in hands[other] {
            assert_eq!(y[HELD + usize::from(c.index())], 1.0);
            assert_eq!(x[HELD + usize::from(c.index())], 0.0);
        }
    }

    #[test]
    fn the_features_see_only_the_view() {
        // Two deals that differ only in the other seats' hands give the viewer the same
        // features.
        let rules = Preset::MittlereJass.ruleset();
        let mut rng = ChaCha8Rng::seed_from_u64(4);
        let deal = Deal::random(rules, 0, &mut rng);
        let me = deal.to_act();
        let view = View::new(&deal, me);
        let mut x = [0.0; FEATURES];
        let mut y = [0.0; FEATURES];
        features(&view, &mut x);
        for _ in 0..10 {
            let world = view.sample_world(&mut rng);
            features(&View::new(&world, me), &mut y);
            assert_eq!(x, y);
        }
    }

    #[test]
    fn the_weights_load_and_predict_in_the_score_range() {
        let models = parse_weights(WEIGHTS).expect("the committed weights read");
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for (preset, model) in Preset::ALL.into_iter().zip(&models) {
            let rules = preset.ruleset();
            let model = model
                .as_ref()
                .unwrap_or_else(|| panic!("{} has a model", preset.id()));
            assert_eq!(Model::for_rules(&rules), Some(model));
            let (low, high) = rules.score_bounds();
            let slack = score_scale(&rules) * 0.5;
            for _ in 0..20 {
                let mut deal = Deal::random(rules, 0, &mut rng);
                let steps = torite_core::shuffle::below(&mut rng, rules.deck().len() as u32);
                for _ in 0..steps {
                    if deal.is_over() {
                        break;
                    }
                    let legal = deal.legal_actions();
                    let a = legal
                        .nth(torite_core::shuffle::below(&mut rng, legal.len() as u32) as usize)
                        .unwrap();
                    deal.apply(a).unwrap();
                }
                let values = model.values(&deal);
                for v in &values[..deal.players()] {
                    assert!(v.is_finite());
                    // Scores are penalties (negative) or gains; the prediction stays near
                    // the range of the ruleset's scores.
                    let (lo, hi) = if rules.scoring.is_penalty() {
                        (-f64::from(high), -f64::from(low))
                    } else {
                        (f64::from(low), f64::from(high))
                    };
                    assert!(
                        *v >= lo.min(0.0) - slack && *v <= hi.max(0.0) + slack,
                        "{}: {v} outside {lo}..{hi}",
                        preset.id()
                    );
                }
            }
        }
    }

    #[test]
    fn the_fast_value_is_the_weights_times_the_features() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        for preset in Preset::ALL {
            let rules = preset.ruleset();
            let model = Model::for_rules(&rules).expect("a model");
            let mut deal = Deal::random(rules, 1, &mut rng);
            while !deal.is_over() {
                let scoring = Scoring::of(&View::new(&deal, 0));
                for seat in 0..deal.players() {
                    let view = View::new(&deal, seat);
                    let mut x = [0.0; FEATURES];
                    features(&view, &mut x);
                    let dense: f32 = model.weights().iter().zip(&x).map(|(w, x)| w * x).sum();
                    let fast = model.value_with(&view, &scoring);
                    assert!(
                        (dense - fast).abs() < 1e-4,
                        "{}: {dense} {fast}",
                        preset.id()
                    );
                    assert_eq!(model.predict(&view), dense);
                }
                let legal = deal.legal_actions();
                let a = legal
                    .nth(torite_core::shuffle::below(&mut rng, legal.len() as u32) as usize)
                    .unwrap();
                deal.apply(a).unwrap();
            }
        }
    }

    #[test]
    fn a_ruleset_with_a_house_rule_has_no_model() {
        let mut rules = Preset::MiniMisere4.ruleset();
        assert!(Model::for_rules(&rules).is_some());
        rules.lot = None;
        assert!(!rules.is_preset());
        assert_eq!(Model::for_rules(&rules), None);
    }

    #[test]
    fn bad_weights_are_refused_in_one_line() {
        assert_eq!(
            parse_weights("nope 1 2").unwrap_err(),
            "line 1: no preset is called \"nope\""
        );
        assert_eq!(
            parse_weights("# c\nmura-4 1 2").unwrap_err(),
            format!("line 2: 2 weights for mura-4, not {FEATURES}")
        );
        assert_eq!(
            parse_weights("mura-4 x").unwrap_err(),
            "line 1: \"x\" is not a number"
        );
        let line = format!("mura-4{}\n", " 0".repeat(FEATURES));
        let models = parse_weights(&line).unwrap();
        assert!(models.iter().filter(|m| m.is_some()).count() == 1);
        assert_eq!(
            parse_weights(&format!("{line}{line}")).unwrap_err(),
            "line 2: a second model of mura-4"
        );
    }
}
