//! Plain endings: the last tricks of a plain trick-table deal played out on the bare hands
//! (module documentation of [`super`]).

use super::*;

impl Solver {
    /// The value for the root of a trick boundary with at most [`PLAIN_ENDING_TRICKS`] tricks
    /// left, in rules accepted by [`PlainRules::new`] and with no Lot in play, by fail-soft
    /// alpha-beta over the hands alone, as double-dummy solvers play out their last tricks:
    /// no deal to copy, no table, each card's strength the rules' own
    /// ([`Ruleset::strength`], so a led low card wins as it does in the deal). `None` when the
    /// position is not such an ending.
    pub(super) fn plain_ending(&mut self, deal: &Deal, alpha: f64, beta: f64) -> Option<f64> {
        let plain = self.plain?;
        let left = deal.rules().tricks() - deal.tricks_completed();
        if left > PLAIN_ENDING_TRICKS
            || deal.tricks_completed() == 0
            || deal.phase() != Phase::Play
            || !deal.current_trick().is_empty()
            || !deal.lot().declaring().is_empty()
        {
            return None;
        }
        let rules = deal.rules();
        let n = deal.players();
        let mut hands = [CardSet::EMPTY; MAX_SEATS];
        let mut held = CardSet::EMPTY;
        for (seat, hand) in hands.iter_mut().enumerate().take(n) {
            *hand = deal.hand(seat);
            held |= *hand;
        }
        // Seats, tricks and counts below MAX_SEATS and 16 fit a byte.
        let byte = |x: usize| x as u8;
        let mut ending = PlainEnding {
            rules,
            plain,
            root: byte(self.root),
            players: byte(n),
            hands,
            held,
            history: &mut self.history,
        };
        let won = deal.tricks_won()[self.root];
        Some(ending.trick(byte(deal.to_act()), byte(left), won, alpha, beta))
    }
}

/// The most tricks left at which [`Solver::plain_ending`] plays a deal out directly.
const PLAIN_ENDING_TRICKS: usize = 3;

/// What [`Solver::plain_ending`] needs of rules simple enough for it: no trump, no joker, no
/// card points, every seat following suit when it can, and a score read from the trick table
/// alone.
#[derive(Clone, Copy, Debug)]
pub(super) struct PlainRules {
    /// The trick table.
    pub(super) points: [i8; 8],
    /// Whether the plain order is the natural (bit) order.
    pub(super) natural: bool,
    /// The low cards that win when led (never equivalent to another).
    pub(super) special: CardSet,
}

impl PlainRules {
    pub(super) fn new(rules: &Ruleset) -> Option<PlainRules> {
        let Scoring::TrickTable { points } = rules.scoring else {
            return None;
        };
        (rules.trump == TrumpRule::NoTrump
            && rules.follow == FollowRule::MustFollow
            && rules.joker.is_none()
            && matches!(rules.card_points, CardPoints::None))
        .then(|| PlainRules {
            points,
            natural: rules.ranking == Ranking::AceHigh,
            special: led_low_cards(rules),
        })
    }

    /// Whether `card` wins and loses alike with `previous`, the card of its suit searched just
    /// before it (ordered low to high), for every seat: in the natural order, neither a led low
    /// card, with no card of `others` (every other hand's, and the trick's winning card)
    /// between them.
    pub(super) fn plays_alike(&self, previous: Card, card: Card, others: CardSet) -> bool {
        self.natural
            && !self.special.contains(card)
            && !self.special.contains(previous)
            && previous.suit() == card.suit()
            && others.bits() & ((1u64 << card.index()) - 1) & !((2u64 << previous.index()) - 1) == 0
    }
}

/// The search state of [`Solver::plain_ending`].
struct PlainEnding<'a> {
    rules: &'a Ruleset,
    plain: PlainRules,
    root: u8,
    players: u8,
    hands: [CardSet; MAX_SEATS],
    /// Every card still held.
    held: CardSet,
    /// The solver's move-ordering history, which the cut-offs here feed.
    history: &'a mut [[u32; HISTORY_SLOTS]; MAX_SEATS],
}

/// A trick in progress in a [`PlainEnding`].
#[derive(Clone, Copy)]
struct PlainTrick {
    /// The seat to play.
    seat: u8,
    /// Cards played to the trick.
    played: u8,
    led: Option<Suit>,
    /// The winning card so far, its strength and its seat (meaningless before the lead).
    winning: Card,
    best: u8,
    winner: u8,
    /// Tricks left, this one included.
    left: u8,
    /// The root's tricks so far.
    won: u8,
}

impl PlainEnding<'_> {
    /// The value of the trick `leader` is to lead, with `left` tricks to play and `won` taken by
    /// the root, by fail-soft alpha-beta.
    fn trick(&mut self, leader: u8, left: u8, won: u8, alpha: f64, beta: f64) -> f64 {
        let start = PlainTrick {
            seat: leader,
            played: 0,
            led: None,
            winning: Card::JOKER,
            best: 0,
            winner: leader,
            left,
            won,
        };
        self.card(start, alpha, beta)
    }

    /// The root's reward for `won` tricks in all.
    fn value(&self, won: u8) -> f64 {
        table_value(&self.plain.points, usize::from(won))
    }

    /// The seat after `seat`.
    fn next(&self, seat: u8) -> u8 {
        if seat + 1 == self.players {
            0
        } else {
            seat + 1
        }
    }

    /// The value of the last trick, every seat holding one card, `leader` to lead.
    fn last_trick(&self, leader: u8, won: u8) -> f64 {
        let Some(lead) = self.hands[usize::from(leader)].first() else {
            return self.value(won);
        };
        let led = lead.suit();
        let mut best = self.rules.strength(lead, led, Trump::None, true);
        let mut winner = leader;
        let mut seat = self.next(leader);
        while seat != leader {
            if let Some(card) = self.hands[usize::from(seat)].first() {
                let strength = self.rules.strength(card, led, Trump::None, false);
                if strength > best {
                    best = strength;
                    winner = seat;
                }
            }
            seat = self.next(seat);
        }
        self.value(won + u8::from(winner == self.root))
    }

    fn card(&mut self, t: PlainTrick, mut alpha: f64, mut beta: f64) -> f64 {
        if t.played == self.players {
            let won = t.won + u8::from(t.winner == self.root);
            return match t.left {
                2 => self.last_trick(t.winner, won),
                1 => self.value(won),
                _ => self.trick(t.winner, t.left - 1, won, alpha, beta),
            };
        }
        let seat = usize::from(t.seat);
        let hand = self.hands[seat];
        let options = match t.led {
            Some(led) if !hand.of_suit(led).is_empty() => hand.of_suit(led),
            _ => hand,
        };
        let leading = t.played == 0;
        let maximising = t.seat == self.root;
        let mut best = if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        // Cards of one suit with no card between them in another hand or on the trick's
        // winning card win and lose alike: the first of each run is searched.
        let mut others = self.held - hand;
        if !leading {
            others.insert(t.winning);
        }
        let mut previous: Option<Card> = None;
        for card in options {
            if previous.is_some_and(|p| self.plain.plays_alike(p, card, others)) {
                continue;
            }
            previous = Some(card);
            let led = if leading { card.suit() } else { t.led };
            let strength = self.rules.strength(card, led, Trump::None, leading);
            let next = if leading || strength > t.best {
                PlainTrick {
                    winning: card,
                    best: strength,
                    winner: t.seat,
                    ..t
                }
            } else {
                t
            };
            let next = PlainTrick {
                seat: self.next(t.seat),
                played: t.played + 1,
                led,
                ..next
            };
            self.hands[seat].remove(card);
            self.held.remove(card);
            let v = self.card(next, alpha, beta);
            self.hands[seat].insert(card);
            self.held.insert(card);
            if maximising {
                best = best.max(v);
                alpha = alpha.max(v);
            } else {
                best = best.min(v);
                beta = beta.min(v);
            }
            if alpha >= beta {
                self.history[seat][card.index() as usize] += 1;
                break;
            }
        }
        best
    }
}
