//! The learned reader: a small neural network that predicts which card a searching player
//! plays, as the inference's model of the other seats ([`crate::inference`]).
//!
//! The learned policy ([`crate::policy`]) weighs its 16 numbers a card linearly, and predicts
//! the search's cards little better than chance in the Jass games. The reader reads the same
//! numbers and [`EXTRA`] more (the seat's place in the trick, how far the deal has gone, the
//! hand's size, the card's rank in its suit, the hand's cards above and below it, the unseen
//! cards of its suit; then what tells one hand and one seat from another: the hand's sure
//! winners and sure losers, its voids, the tricks the seat has won and where its score stands
//! against the others') through one hidden layer of [`HIDDEN`] rectified units, plus a linear
//! term:
//!
//! ```text
//! logit(card) = w2 · max(0, W1 x + b1) + u · x,   P(card) = softmax over the legal cards
//! ```
//!
//! Fitted to the cards ISMCTS played in self-play, it predicts them about as well as a
//! 200-iteration search standing in for the seat (better in Mini Misère and Mittlere, worse in
//! Molotow: the weights file's header gives every preset), for the cost of a few thousand
//! multiplications a card. So the inference can read many more worlds with it in the same time.
//!
//! One network per preset is compiled in from `crates/bots/weights/reader.txt`, which the
//! `train_reader` example makes again byte for byte. Only card plays are modelled.

use std::sync::OnceLock;

use torite_core::{Card, CardSet, Preset, Ruleset, View};

use crate::eval::Scoring;
use crate::policy::{Decision, FEATURES, features};

/// The weights file compiled in: one line per preset, its id then [`PARAMETERS`] numbers.
pub const WEIGHTS: &str = include_str!("../weights/reader.txt");

/// The numbers the reader adds to the learned policy's ([`crate::policy::features`]).
pub const EXTRA: usize = 16;

/// The numbers describing one card: the policy's, then [`EXTRA`].
pub const INPUTS: usize = FEATURES + EXTRA;

/// The hidden units.
pub const HIDDEN: usize = 32;

/// The numbers of a network, in the order of a weights line: `W1` row by row (one row a
/// hidden unit), `b1`, `w2`, then `u`.
pub const PARAMETERS: usize = HIDDEN * INPUTS + HIDDEN + HIDDEN + INPUTS;

/// What the reader reads of the seat's whole hand and of its standing, the same for every card
/// of a decision: worked out once per decision.
#[derive(Clone, Copy, PartialEq, Debug)]
pub struct HandFacts {
    /// The hand's cards that no unseen card of their suit beats, per trick of the deal.
    winners: f32,
    /// The hand's cards that beat no unseen card of their suit, per trick of the deal.
    losers: f32,
    /// The suits the hand is void in while others are unseen, per four suits.
    voids: f32,
    /// The tricks the seat has won, per trick of the deal.
    won: f32,
    /// The seat's score were the deal to end now, less the best and the worst of the others'
    /// ([`Scoring::standing`]).
    standing: (f32, f32),
}

impl HandFacts {
    /// The facts of `view`'s seat, with the scoring of the view's public facts already worked
    /// out ([`Scoring::of`] any seat's view of the same position).
    #[must_use]
    pub fn of(view: &View<'_>, scoring: &Scoring) -> HandFacts {
        let rules = view.rules();
        let trump = view.trump();
        let tricks = rules.tricks().max(1) as f32;
        let strength = |c: Card| rules.strength(c, c.suit(), trump, false);
        // The strongest and weakest unseen card of each suit, by strength within the suit.
        let mut top = [0u8; 4];
        let mut bottom = [u8::MAX; 4];
        let mut unseen = [false; 4];
        for c in view.unseen() {
            if let Some(s) = c.suit() {
                let i = s as usize;
                top[i] = top[i].max(strength(c));
                bottom[i] = bottom[i].min(strength(c));
                unseen[i] = true;
            }
        }
        let mut held = [false; 4];
        let (mut winners, mut losers) = (0u8, 0u8);
        for c in view.hand() {
            let Some(s) = c.suit() else { continue };
            let i = s as usize;
            held[i] = true;
            let k = strength(c);
            winners += u8::from(k > top[i]);
            losers += u8::from(unseen[i] && k < bottom[i]);
        }
        let voids = (0..4).filter(|&i| unseen[i] && !held[i]).count() as f32;
        HandFacts {
            winners: f32::from(winners) / tricks,
            losers: f32::from(losers) / tricks,
            voids: voids / 4.0,
            won: f32::from(view.tricks_won()[view.seat()]) / tricks,
            standing: scoring.standing(view.seat(), rules.players as usize),
        }
    }
}

/// The inputs of playing `card` in `view` (its seat to act) among the legal cards the
/// `decision` and the hand's `facts` were worked out for, written into `out`: the policy's
/// [`features`], then the seat's place in the trick (0 leading, 1 last), the share of the
/// deal's tricks completed, the hand's size (per trick of the deal), the card's rank among the
/// cards of its suit still in play (the hand's and the unseen; 0 the lowest), the hand's cards
/// of its suit above it and the unseen cards of its suit (both per trick of the deal), whether
/// no card of its suit is unseen; then what tells one hand and one seat from another: the
/// unseen cards of its suit above it and the hand's cards of its suit below it (per trick of
/// the deal), and the [`HandFacts`] in their order; and 1.
pub fn inputs(
    view: &View<'_>,
    card: Card,
    decision: &Decision,
    facts: &HandFacts,
    out: &mut [f32; INPUTS],
) {
    let mut x = [0.0; FEATURES];
    features(view, card, decision, &mut x);
    out[..FEATURES].copy_from_slice(&x);
    let rules = view.rules();
    let trump = view.trump();
    let players = f32::from(rules.players);
    let tricks = rules.tricks().max(1) as f32;
    let hand = view.hand();
    let strength = |c: Card| rules.strength(c, c.suit(), trump, false);
    let suit = card.suit().map_or(CardSet::EMPTY, CardSet::suit);
    let own = strength(card);
    let count = |cards: CardSet, above: bool| {
        cards
            .iter()
            .filter(|&c| {
                if above {
                    strength(c) > own
                } else {
                    strength(c) < own
                }
            })
            .count() as f32
    };
    let in_play = (hand | view.unseen()) & suit;
    let unseen = view.unseen() & suit;
    let extra = &mut out[FEATURES..];
    extra[0] = view.current_trick().len() as f32 / (players - 1.0).max(1.0);
    extra[1] = view.tricks_completed() as f32 / tricks;
    extra[2] = hand.len() as f32 / tricks;
    extra[3] = count(in_play, false) / in_play.len().max(1) as f32;
    extra[4] = count(hand & suit, true) / tricks;
    extra[5] = unseen.len() as f32 / tricks;
    extra[6] = f32::from(u8::from(unseen.is_empty()));
    extra[7] = count(unseen, true) / tricks;
    extra[8] = count(hand & suit, false) / tricks;
    extra[9] = facts.winners;
    extra[10] = facts.losers;
    extra[11] = facts.voids;
    extra[12] = facts.won;
    extra[13] = facts.standing.0;
    extra[14] = facts.standing.1;
    extra[15] = 1.0;
}

/// A preset's network.
#[derive(Clone, PartialEq, Debug)]
pub struct Reader {
    /// `W1` column by column: the weights of each input to every hidden unit, so that
    /// [`Reader::logit`] adds each input's column to all the hidden units at once and skips
    /// the inputs that are zero (most of the policy's, whose other situations' blocks are).
    w1_by_input: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    u: Vec<f32>,
}

impl Reader {
    /// The network whose numbers are `parameters`, in the order of [`PARAMETERS`]; `None`
    /// unless there are exactly that many.
    #[must_use]
    pub fn from_parameters(parameters: &[f32]) -> Option<Reader> {
        if parameters.len() != PARAMETERS {
            return None;
        }
        let (w1, rest) = parameters.split_at(HIDDEN * INPUTS);
        let (b1, rest) = rest.split_at(HIDDEN);
        let (w2, u) = rest.split_at(HIDDEN);
        let w1_by_input = (0..INPUTS * HIDDEN)
            .map(|k| w1[(k % HIDDEN) * INPUTS + k / HIDDEN])
            .collect();
        Some(Reader {
            w1_by_input,
            b1: b1.to_vec(),
            w2: w2.to_vec(),
            u: u.to_vec(),
        })
    }

    /// The network's numbers, in the order of [`PARAMETERS`].
    #[must_use]
    pub fn parameters(&self) -> Vec<f32> {
        let w1: Vec<f32> = (0..HIDDEN * INPUTS)
            .map(|k| self.w1_by_input[(k % INPUTS) * HIDDEN + k / INPUTS])
            .collect();
        [&w1[..], &self.b1, &self.w2, &self.u].concat()
    }

    /// The trained network of `rules`, if it is exactly a preset (and [`WEIGHTS`] has one).
    #[must_use]
    pub fn for_rules(rules: &Ruleset) -> Option<&'static Reader> {
        trained()[crate::weights::preset_index(rules)?].as_ref()
    }

    /// The logit of a card with the inputs `x`; `hidden` receives the hidden units' values.
    ///
    /// Each hidden unit sums its weighted inputs in the inputs' order and then adds its bias,
    /// as `b1[j] + Σ W1[j][i] x[i]` reads; an input that is zero adds nothing and is skipped.
    #[must_use]
    pub fn logit(&self, x: &[f32; INPUTS], hidden: &mut [f32; HIDDEN]) -> f32 {
        let mut logit: f32 = self.u.iter().zip(x).map(|(u, x)| u * x).sum();
        hidden.fill(-0.0);
        for (&xi, column) in x.iter().zip(self.w1_by_input.chunks_exact(HIDDEN)) {
            if xi != 0.0 {
                for (h, w) in hidden.iter_mut().zip(column) {
                    *h += w * xi;
                }
            }
        }
        for ((h, b), w) in hidden.iter_mut().zip(&self.b1).zip(&self.w2) {
            *h = (b + *h).max(0.0);
            logit += w * *h;
        }
        logit
    }

    /// The probability of each card of `cards` (the legal cards of `view`'s seat, to act), in
    /// [`CardSet::iter`] order, written into `out` (cleared first), with the scoring of the
    /// view's public facts already worked out ([`Scoring::of`] any seat's view of the same
    /// position).
    pub fn probabilities_with(
        &self,
        view: &View<'_>,
        cards: CardSet,
        scoring: &Scoring,
        out: &mut Vec<(Card, f64)>,
    ) {
        out.clear();
        let decision = Decision::of(view, cards, scoring);
        let facts = HandFacts::of(view, scoring);
        let mut x = [0.0; INPUTS];
        let mut hidden = [0.0; HIDDEN];
        for card in cards {
            inputs(view, card, &decision, &facts, &mut x);
            out.push((card, f64::from(self.logit(&x, &mut hidden))));
        }
        crate::policy::softmax(out);
    }

    /// [`Reader::probabilities_with`], working the scoring out.
    pub fn probabilities(&self, view: &View<'_>, cards: CardSet, out: &mut Vec<(Card, f64)>) {
        self.probabilities_with(view, cards, &Scoring::of(view), out);
    }
}

/// Reads weights in the form of [`WEIGHTS`]: one network per preset, in [`Preset::ALL`] order.
///
/// # Errors
///
/// A line that names no preset, names one twice, or does not have [`PARAMETERS`] numbers.
pub fn parse_weights(text: &str) -> Result<Vec<Option<Reader>>, String> {
    crate::weights::parse::<PARAMETERS>(text, "network").map(|lines| {
        lines
            .into_iter()
            .map(|w| w.and_then(|w| Reader::from_parameters(&w)))
            .collect()
    })
}

/// The compiled-in networks, read once.
fn trained() -> &'static [Option<Reader>] {
    static READERS: OnceLock<Vec<Option<Reader>>> = OnceLock::new();
    // Checked by a test: a broken file there is a failing build, here no networks (the
    // inference then keeps the rule of thumb).
    READERS.get_or_init(|| parse_weights(WEIGHTS).unwrap_or_else(|_| vec![None; Preset::ALL.len()]))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fixtures::{MOLOTOW_HEARTS, after};

    #[test]
    fn the_weights_file_has_a_network_for_every_preset() {
        let readers = parse_weights(WEIGHTS).expect("the compiled-in weights parse");
        for (preset, reader) in Preset::ALL.iter().zip(&readers) {
            assert!(reader.is_some(), "no network for {}", preset.id());
            assert!(Reader::for_rules(&preset.ruleset()).is_some());
        }
    }

    #[test]
    fn a_house_rule_has_no_network() {
        let mut rules = Preset::MiniMisere4.ruleset();
        rules.lot = None;
        assert!(Reader::for_rules(&rules).is_none());
    }

    #[test]
    fn a_bad_weights_line_is_refused_with_its_line_number() {
        let few = format!("mura-4 {}", vec!["1"; PARAMETERS - 1].join(" "));
        assert_eq!(
            parse_weights(&few).unwrap_err(),
            format!(
                "line 1: {} weights for mura-4, not {PARAMETERS}",
                PARAMETERS - 1
            )
        );
        let twice = format!("mura-4{0}\n# a comment\nmura-4{0}", " 0".repeat(PARAMETERS));
        assert_eq!(
            parse_weights(&twice).unwrap_err(),
            "line 3: a second network of mura-4"
        );
    }

    #[test]
    fn a_network_is_its_parameters_in_order() {
        let parameters: Vec<f32> = (0..PARAMETERS).map(|i| i as f32).collect();
        let reader = Reader::from_parameters(&parameters).expect("the right count");
        assert_eq!(reader.parameters(), parameters);
        assert!(Reader::from_parameters(&parameters[1..]).is_none());
        // The hidden unit j reads row j of W1; with b1 = w2 = u = 0 but w2[0] = 1, the logit is
        // max(0, row 0 · x).
        let mut numbers = vec![0.0; PARAMETERS];
        numbers[..INPUTS].fill(1.0);
        numbers[HIDDEN * INPUTS + HIDDEN] = 1.0;
        let reader = Reader::from_parameters(&numbers).expect("the right count");
        let mut x = [0.5; INPUTS];
        let mut hidden = [0.0; HIDDEN];
        assert_eq!(reader.logit(&x, &mut hidden), 0.5 * INPUTS as f32);
        x.fill(-0.5);
        assert_eq!(reader.logit(&x, &mut hidden), 0.0);
    }

    #[test]
    fn the_extra_inputs_place_a_card_in_its_suit_and_the_deal() {
        // Molotow: seat 0 led the ace of hearts, seat 1 followed with the six; seat 2, third
        // of four to play, holds the eight and ten of hearts. Still in play in hearts, as seat
        // 2 sees them: its own two and the seven, nine, jack, queen and king, unseen. No hand
        // holds a sure winner or loser yet, nor a void, and no trick is won. Were the deal to end
        // now, every seat on nought, Molotow's scoring would give seat 0 +1 and seat 1 −1 (a
        // third of its scale each way): seat 2, on 0, stands a third below the best and a third
        // above the worst.
        let deal = after(Preset::MolotowJass, MOLOTOW_HEARTS, &["AH", "6H"]);
        let view = View::new(&deal, 2);
        let cards = view.legal_actions().cards;
        let scoring = Scoring::of(&view);
        let decision = Decision::of(&view, cards, &scoring);
        let facts = HandFacts::of(&view, &scoring);
        let extra = |card: &str| {
            let mut x = [0.0; INPUTS];
            inputs(
                &view,
                card.parse().expect("card"),
                &decision,
                &facts,
                &mut x,
            );
            x[FEATURES..].to_vec()
        };
        let third = 2.0 / 3.0;
        // The card's own numbers, then what every card of the decision shares: no sure winner,
        // sure loser, void or trick won, the standing, and 1.
        let (th, eight) = (extra("TH"), extra("8H"));
        let card_numbers = [
            third,
            0.0,
            1.0,
            3.0 / 7.0,
            0.0,
            5.0 / 9.0,
            0.0,
            3.0 / 9.0,
            1.0 / 9.0,
        ];
        assert_eq!(th[..9], card_numbers);
        let card_numbers = [
            third,
            0.0,
            1.0,
            1.0 / 7.0,
            1.0 / 9.0,
            5.0 / 9.0,
            0.0,
            4.0 / 9.0,
            0.0,
        ];
        assert_eq!(eight[..9], card_numbers);
        let shared = [0.0, 0.0, 0.0, 0.0, -1.0 / 3.0, 1.0 / 3.0, 1.0];
        assert_eq!(th[9..], shared);
        assert_eq!(eight[9..], shared);
    }

    #[test]
    fn the_probabilities_are_a_distribution_over_the_legal_cards() {
        for preset in Preset::ALL {
            let rules = preset.ruleset();
            let reader = Reader::for_rules(&rules).expect("a network for every preset");
            let mut out = Vec::new();
            crate::fixtures::each_card_choice(preset, |deal, cards| {
                reader.probabilities(&View::new(deal, deal.to_act()), cards, &mut out);
                crate::fixtures::assert_a_distribution(preset, cards, &out);
            });
        }
    }
}
