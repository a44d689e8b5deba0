//! Score bounds: what the tallies so far, and a Lot plain from the hands, still leave the
//! root's reward (module documentation of [`super`]).

use super::*;

impl Solver {
    /// Lower and upper bounds on the root's reward from the tallies so far.
    pub(super) fn bounds(&self, deal: &Deal) -> (f64, f64) {
        let rules = deal.rules();
        let root = self.root;
        let tricks = usize::from(deal.tricks_won()[root]);
        let remaining = rules.tricks() - deal.tricks_completed();
        match rules.scoring {
            Scoring::TrickTable { points } => {
                let row = |k: usize| table_value(&points, k);
                let table = (tricks..=tricks + remaining)
                    .map(row)
                    .fold((f64::INFINITY, f64::NEG_INFINITY), |(a, b), v| {
                        (a.min(v), b.max(v))
                    });
                let Some(lot_rules) = rules.lot else {
                    return table;
                };
                let success = f64::from(lot_rules.success);
                let fail = f64::from(lot_rules.fail);
                let lot = deal.lot();
                if deal.lot_open() {
                    let (a, b) = table;
                    return (
                        a.min(0.0).min(success).min(fail),
                        b.max(0.0).max(success).max(fail),
                    );
                }
                let (declaring, failing) = (lot.declaring(), lot.failing());
                if declaring.is_empty() {
                    return table;
                }
                let declared = declaring.contains(root);
                let other = if declared {
                    if failing.contains(root) { 0.0 } else { success }
                } else {
                    fail
                };
                // The other value is 0; which one comes may already be settled.
                let settled = if success > 0.0 && fail > 0.0 {
                    lot_outcome(deal, root)
                } else {
                    None
                };
                match settled {
                    Some(true) if !declared => (0.0, 0.0),
                    Some(true) => (other, other),
                    Some(false) if !declared => (other, other),
                    Some(false) => (0.0, 0.0),
                    None => (other.min(0.0), other.max(0.0)),
                }
            }
            Scoring::Mura {
                threshold,
                bonus_at,
            } => {
                let points = deal.card_points(root);
                if bonus_at.is_some_and(|b| points >= u32::from(b)) {
                    return (1.0, 1.0);
                }
                let mut gone = CardSet::EMPTY;
                for s in 0..deal.players() {
                    gone |= deal.won(s);
                }
                let most = points + rules.most_points(rules.deck() - gone);
                let hi = if bonus_at.is_some_and(|b| most >= u32::from(b)) {
                    1.0
                } else if most >= u32::from(threshold) {
                    0.0
                } else {
                    -((tricks + 1) as f64)
                };
                let lo = if points >= u32::from(threshold) {
                    0.0
                } else {
                    -((tricks + remaining + 1) as f64)
                };
                (lo, hi)
            }
            // The other games' rewards are their scores: the rules' bounds, worked out once.
            _ => self.score_bounds,
        }
    }
}

/// Whether the one declarer still in the Lot is sure to win every remaining trick (`Some(true)`)
/// or sure to lose one (`Some(false)`), from the hands alone, at a trick boundary after the
/// first trick of a no-trump must-follow game (Mini Misère). `None` when neither is plain.
///
/// The declarer has won every trick so far, so it leads every trick from now on and must lead
/// each of its cards in turn. It is sure to win all when each of its cards wins whenever led:
/// a low card or joker that wins when led, or a card above every card of its suit the others
/// hold. It is sure to lose one when a seat that wants it to fail (the root if the root did not
/// declare, any other seat if it did) holds the highest card left in a suit the declarer must
/// still lead a plain card of: that seat keeps its card (it discards others when void, and
/// follows with its lowest), and can only be made to give it up by following a led low card or
/// a led joker with a named suit while it is its last card of the suit, which more cards of
/// the suit than such leads prevent.
pub(super) fn lot_outcome(deal: &Deal, root: Seat) -> Option<bool> {
    let rules = deal.rules();
    if rules.trump != TrumpRule::NoTrump
        || rules.follow != FollowRule::MustFollow
        || rules.ranking != Ranking::AceHigh
        || deal.tricks_completed() == 0
        || deal.phase() != Phase::Play
        || !deal.current_trick().is_empty()
    {
        return None;
    }
    let alive = deal.lot().in_play();
    let (1, Some(d)) = (alive.len(), alive.first()) else {
        return None;
    };
    let hand = deal.hand(d);
    let low = led_low_cards(rules);
    let led_joker_wins = matches!(
        rules.joker,
        Some(JokerRule::LeadWinsFreeFollow | JokerRule::LeadWinsNamesSuit)
    );
    let calls = rules.joker == Some(JokerRule::LeadWinsNamesSuit) && hand.contains(Card::JOKER);
    let mut others = CardSet::EMPTY;
    for s in (0..deal.players()).filter(|s| *s != d) {
        others |= deal.hand(s);
    }
    // The seats that want the declarer to fail.
    let opposed = if root == d {
        !SeatSet::single(d)
    } else {
        SeatSet::single(root)
    };
    let mut sure = true;
    for suit in Suit::ALL {
        let mine = hand.of_suit(suit);
        let plain = mine - low;
        let theirs = others.of_suit(suit);
        if plain.is_empty() {
            continue;
        }
        // The strongest card of the suit left, if another seat holds it (natural order: the
        // highest bit; the low card is the lowest bit and never the highest unless alone).
        let top = (plain | theirs).last();
        if let Some(top) = top
            && !plain.contains(top)
        {
            let holder = (0..deal.players()).find(|s| deal.hand(*s).contains(top));
            if let Some(o) = holder
                && opposed.contains(o)
            {
                let forcing = (mine & low).len() + usize::from(calls);
                if deal.hand(o).of_suit(suit).len() > forcing {
                    return Some(false);
                }
            }
        }
        let their_best = theirs.last();
        if plain.iter().any(|c| their_best.is_some_and(|t| t > c)) {
            sure = false;
        }
    }
    if hand.contains(Card::JOKER) && !led_joker_wins {
        sure = false;
    }
    sure.then_some(true)
}
