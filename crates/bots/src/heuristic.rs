//! The `heuristic` bot: a rule-based player per game family.
//!
//! It reads only its [`View`] and follows a few plain principles:
//!
//! - **Mini Misère** (trick table): from its hand it estimates how many tricks it can make and
//!   aims at the best row of the table near that estimate — usually none (the 0-trick score) or
//!   four or five — but never every trick (which scores 0). It plays to win while it is short
//!   of its aim and ducks once it has reached it. It declares the Lot only when every card it
//!   holds is a sure winner (and it has or takes the lead); when another seat has declared, it
//!   tries to beat the declarer.
//! - **Jass avoidance games** (Mittlere, Molotow, Plus-Minus, Middler): keep points low, away
//!   from the middle and from 100. It ducks under the trick with its highest safe card, dumps
//!   high-point cards on tricks others win, leads low, and where a trickless deal is punished
//!   (Mittlere, Middler) it takes one cheap trick when it can. In Plus-Minus, where the
//!   highest scores as well as the lowest, a seat already well ahead on points (and far from
//!   100) keeps collecting instead.
//! - **Middler with joker** (own points score): the highest and lowest score their points, so
//!   it goes for tricks rich in points and ducks empty ones.
//! - **Mura**: shed tricks, unless the exemption threshold is within reach of its counting
//!   cards (then it wins tricks to capture them) or already reached (then tricks cost nothing).

use rand_chacha::ChaCha8Rng;
use rand_chacha::rand_core::SeedableRng;
use torite_core::{
    Action, Card, CardSet, JokerRule, Phase, Rank, STRENGTH_TRUMP, Scoring, Suit, Trump, View,
};

use crate::Bot;

/// The rule-based player described in the module documentation.
#[derive(Debug, Clone)]
pub struct Heuristic {
    // Kept for reproducible tie-breaks should a future rule need them.
    _rng: ChaCha8Rng,
}

impl Heuristic {
    /// A heuristic bot; `seed` makes it reproducible.
    #[must_use]
    pub fn new(seed: u64) -> Heuristic {
        Heuristic {
            _rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Bot for Heuristic {
    fn name(&self) -> &str {
        "heuristic"
    }

    fn act(&mut self, view: &View<'_>) -> Action {
        let legal = view.legal_actions();
        if legal.len() == 1 {
            return legal.nth(0).unwrap_or(Action::Pass);
        }
        match view.phase() {
            Phase::LotQuestion => {
                if lot_is_safe(view, view.leader() == view.seat()) {
                    Action::Lot
                } else {
                    Action::Pass
                }
            }
            Phase::CallSuit => Action::Call(call_suit(view)),
            // The three-player joker played last: take the trick when more tricks are wanted.
            Phase::SayJoker => {
                if wants_tricks(view) {
                    Action::JokerWins
                } else {
                    Action::JokerLoses
                }
            }
            _ => {
                if legal.lot && lot_is_safe(view, view.current_trick().is_empty()) {
                    return Action::Lot;
                }
                Action::Play(choose_card(view, legal.cards))
            }
        }
    }
}

fn choose_card(view: &View<'_>, cards: CardSet) -> Card {
    let rules = view.rules();
    match rules.scoring {
        Scoring::TrickTable { .. } => mini_misere(view, cards),
        Scoring::OwnPoints => collect_points(view, cards),
        Scoring::Mura { threshold, .. } => mura(view, cards, threshold),
        Scoring::PlusMinus => plus_minus(view, cards),
        _ => avoid_points(view, cards),
    }
}

/// How strongly `card` ranks for holding on to or shedding: trumps above plain cards, each in
/// its suit's order.
pub(crate) fn power(view: &View<'_>, card: Card) -> u8 {
    let rules = view.rules();
    match (card.suit(), card.rank()) {
        (Some(suit), Some(rank)) => {
            if view.trump() == Trump::Suit(suit) {
                STRENGTH_TRUMP + rules.trump_ranking.strength(rank)
            } else {
                rules.ranking.strength(rank)
            }
        }
        _ => 40,
    }
}

/// The card's value in captured points with the trump known so far ([`Ruleset::card_value`]).
///
/// [`Ruleset::card_value`]: torite_core::Ruleset::card_value
fn points(view: &View<'_>, card: Card) -> u32 {
    view.rules().card_value(card, view.trump())
}

fn by_key(cards: CardSet, key: impl Fn(Card) -> (u32, u32)) -> Option<Card> {
    cards.iter().max_by_key(|c| key(*c))
}

fn highest(view: &View<'_>, cards: CardSet) -> Card {
    by_key(cards, |c| (u32::from(power(view, c)), 0)).unwrap_or(Card::JOKER)
}

fn lowest(view: &View<'_>, cards: CardSet) -> Card {
    by_key(cards, |c| (u32::from(100 - power(view, c)), 0)).unwrap_or(Card::JOKER)
}

fn winners(view: &View<'_>, cards: CardSet) -> CardSet {
    cards.iter().filter(|c| view.wins_with(*c)).collect()
}

/// A card that wins its trick for sure when this seat leads it: a led low card that beats its
/// suit, a Mini Misère joker, or a card above every unseen card of its suit.
fn sure_when_led(view: &View<'_>, card: Card) -> bool {
    let rules = view.rules();
    if card.is_joker() {
        return matches!(
            rules.joker,
            Some(
                JokerRule::LeadWinsFreeFollow
                    | JokerRule::LeadWinsNamesSuit
                    | JokerRule::HighestTrump
            )
        );
    }
    let (Some(suit), Some(rank)) = (card.suit(), card.rank()) else {
        return false;
    };
    if rules.led_low_wins && rules.low_card == Some(rank) {
        return true;
    }
    let mine = rules.ranking.strength(rank);
    view.unseen()
        .of_suit(suit)
        .iter()
        .all(|c| c.rank().is_some_and(|r| rules.ranking.strength(r) < mine))
        && view.trump() == Trump::None
}

/// Whether declaring the Lot is safe: every card a sure winner and this seat on lead (or, when
/// following in the first trick, able to take it with a sure winner).
fn lot_is_safe(view: &View<'_>, leading: bool) -> bool {
    let hand = view.hand();
    if view.lot().declaring().contains(view.seat()) {
        return false;
    }
    if leading {
        return hand.iter().all(|c| sure_when_led(view, c));
    }
    let Some(led) = view.led() else {
        return false;
    };
    let takes = hand
        .of_suit(led)
        .iter()
        .any(|c| view.wins_with(c) && sure_when_led(view, c) && !is_led_low(view, c));
    takes && hand.iter().all(|c| sure_when_led(view, c))
}

fn is_led_low(view: &View<'_>, card: Card) -> bool {
    view.rules().led_low_wins && card.rank() == view.rules().low_card
}

/// After leading the joker (1989 rules): name the suit this seat is shortest in, so the others
/// spend cards of a suit it will not have to follow.
fn call_suit(view: &View<'_>) -> Suit {
    Suit::ALL
        .into_iter()
        .min_by_key(|s| view.hand().of_suit(*s).len())
        .unwrap_or(Suit::Spades)
}

fn mini_misere(view: &View<'_>, cards: CardSet) -> Card {
    let me = view.seat();
    let lot = view.lot();
    if lot.declaring().contains(me) {
        return play_to_win(view, cards);
    }
    let alive = lot.in_play();
    if !alive.is_empty() {
        // Beat the declarer: win this trick if the declarer is winning it.
        let declarer_winning = view.winning().is_some_and(|w| alive.contains(w));
        let win = winners(view, cards);
        if (declarer_winning || view.current_trick().is_empty()) && !win.is_empty() {
            return highest(view, win);
        }
        return lowest(view, cards);
    }
    if wants_tricks(view) {
        play_to_win(view, cards)
    } else {
        play_to_lose(view, cards)
    }
}

/// Whether the seat still wants tricks under a trick table: it aims at the best row of the
/// table near the tricks it can expect, never at every trick.
fn wants_tricks(view: &View<'_>) -> bool {
    let rules = view.rules();
    let Scoring::TrickTable { points } = rules.scoring else {
        return false;
    };
    let total = rules.tricks();
    let won = usize::from(view.tricks_won()[view.seat()]);
    let left = total - view.tricks_completed();
    let expected = won as f64 + estimated_winners(view);
    let aim = (won..=(won + left).min(total - 1))
        .max_by(|a, b| {
            let value = |t: usize| f64::from(points[t]) - 2.5 * (t as f64 - expected).abs();
            value(*a).total_cmp(&value(*b))
        })
        .unwrap_or(won);
    won < aim
}

/// Tricks the hand can expect to take from here: sure winners count fully, other aces and
/// guarded kings partly.
fn estimated_winners(view: &View<'_>) -> f64 {
    view.hand()
        .iter()
        .map(|c| {
            if sure_when_led(view, c) {
                1.0
            } else if c.rank() == Some(Rank::KING) {
                0.5
            } else {
                0.0
            }
        })
        .sum()
}

fn play_to_win(view: &View<'_>, cards: CardSet) -> Card {
    if view.current_trick().is_empty() {
        let sure: CardSet = cards.iter().filter(|c| sure_when_led(view, *c)).collect();
        if let Some(card) = sure.iter().find(|c| is_led_low(view, *c)) {
            return card;
        }
        return if sure.is_empty() {
            highest(view, cards)
        } else {
            highest(view, sure)
        };
    }
    let win = winners(view, cards);
    if win.is_empty() {
        lowest(view, cards)
    } else {
        lowest(view, win)
    }
}

fn play_to_lose(view: &View<'_>, cards: CardSet) -> Card {
    if view.current_trick().is_empty() {
        let safe: CardSet = cards.iter().filter(|c| !is_led_low(view, *c)).collect();
        return lowest(view, if safe.is_empty() { cards } else { safe });
    }
    let losing = cards - winners(view, cards);
    if losing.is_empty() {
        highest(view, cards)
    } else {
        highest(view, losing)
    }
}

fn trick_points(view: &View<'_>) -> u32 {
    view.current_trick().iter().map(|c| points(view, *c)).sum()
}

fn avoid_points(view: &View<'_>, cards: CardSet) -> Card {
    let me = view.seat();
    let no_trick_hurts = matches!(view.rules().scoring, Scoring::Mittlere { .. });
    let left = view.rules().tricks() - view.tricks_completed();
    let win = winners(view, cards);
    if view.current_trick().is_empty() {
        return by_key(cards, |c| {
            (u32::from(100 - power(view, c)), 100 - points(view, c))
        })
        .unwrap_or(Card::JOKER);
    }
    if no_trick_hurts && view.tricks_won()[me] == 0 && !win.is_empty() {
        let cheap = by_key(win, |c| {
            (100 - points(view, c), u32::from(100 - power(view, c)))
        })
        .unwrap_or(Card::JOKER);
        if trick_points(view) + points(view, cheap) <= 4 || left <= 2 {
            return cheap;
        }
    }
    let losing = cards - win;
    if losing.is_empty() {
        // Must win: take as few points as possible with the card given.
        by_key(cards, |c| {
            (100 - points(view, c), u32::from(power(view, c)))
        })
        .unwrap_or(Card::JOKER)
    } else {
        // Dump points on someone else's trick, and shed high cards.
        by_key(losing, |c| (points(view, c), u32::from(power(view, c)))).unwrap_or(Card::JOKER)
    }
}

/// Plus-Minus: the highest and the lowest both score, the middle scores nothing, and 100
/// points score nothing. A seat already clearly ahead on points, and far enough from 100 to
/// take a rich trick safely, goes on collecting (the others are busy avoiding points); every
/// other seat keeps its points low.
fn plus_minus(view: &View<'_>, cards: CardSet) -> Card {
    let me = view.seat();
    let points = view.card_points();
    let mine = points[me];
    let others = points
        .iter()
        .enumerate()
        .filter(|(s, _)| *s != me)
        .map(|(_, p)| *p)
        .max()
        .unwrap_or(0);
    if mine >= others + 15 && mine < 60 {
        collect_points(view, cards)
    } else {
        avoid_points(view, cards)
    }
}

fn collect_points(view: &View<'_>, cards: CardSet) -> Card {
    let win = winners(view, cards);
    if view.current_trick().is_empty() {
        return highest(view, cards);
    }
    if !win.is_empty() && trick_points(view) > 0 {
        return by_key(win, |c| (u32::from(100 - power(view, c)), points(view, c)))
            .unwrap_or(Card::JOKER);
    }
    let losing = cards - win;
    let pool = if losing.is_empty() { cards } else { losing };
    by_key(pool, |c| {
        (100 - points(view, c), u32::from(100 - power(view, c)))
    })
    .unwrap_or(Card::JOKER)
}

fn mura(view: &View<'_>, cards: CardSet, threshold: u8) -> Card {
    let me = view.seat();
    let captured = view.card_points()[me];
    if captured >= u32::from(threshold) {
        // Exempt already: tricks cost nothing, and taking points denies the others.
        return play_to_win(view, cards);
    }
    let counting = view.hand().iter().filter(|c| points(view, *c) > 0).count() as u32;
    if view.current_trick().is_empty() {
        return if captured + counting >= u32::from(threshold) {
            play_to_win(view, cards)
        } else {
            play_to_lose(view, cards)
        };
    }
    // Take tricks that carry counting cards (the exemption is often within reach: a deal has
    // 16 to 20 points for four seats); duck the empty ones.
    let win = winners(view, cards);
    let worth =
        trick_points(view) + by_key(win, |c| (points(view, c), 0)).map_or(0, |c| points(view, c));
    if !win.is_empty() && worth > 0 {
        return by_key(win, |c| (points(view, c), u32::from(100 - power(view, c))))
            .unwrap_or(Card::JOKER);
    }
    play_to_lose(view, cards)
}
