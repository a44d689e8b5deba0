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

    /// The cards of `options` worth searching: the first (lowest) of each run that plays
    /// alike ([`PlainRules::plays_alike`]) given `others`.
    pub(super) fn distinct(self, options: CardSet, others: CardSet) -> impl Iterator<Item = Card> {
        let mut previous: Option<Card> = None;
        options.into_iter().filter(move |&card| {
            let alike = previous.is_some_and(|p| self.plays_alike(p, card, others));
            if !alike {
                previous = Some(card);
            }
            !alike
        })
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

/// A trick in progress in a search of a plain ending ([`PlainEnding`], and the max^n search's
/// own): `W` is what it keeps of the tricks won so far.
#[derive(Clone, Copy)]
pub(super) struct PlainTrick<W> {
    /// The seat to play.
    pub(super) seat: u8,
    /// Cards played to the trick.
    pub(super) played: u8,
    led: Option<Suit>,
    /// The winning card so far, its strength and its seat (meaningless before the lead).
    winning: Card,
    best: u8,
    pub(super) winner: u8,
    /// Tricks left, this one included.
    pub(super) left: u8,
    /// The tricks won so far.
    pub(super) won: W,
}

impl<W: Copy> PlainTrick<W> {
    /// The trick `leader` is to lead, with `left` tricks to play (this one included).
    pub(super) fn lead(leader: u8, left: u8, won: W) -> PlainTrick<W> {
        PlainTrick {
            seat: leader,
            played: 0,
            led: None,
            winning: Card::JOKER,
            best: 0,
            winner: leader,
            left,
            won,
        }
    }

    /// The cards of `hand` the seat to play may play: of the led suit when it holds any.
    pub(super) fn options(&self, hand: CardSet) -> CardSet {
        match self.led {
            Some(led) if !hand.of_suit(led).is_empty() => hand.of_suit(led),
            _ => hand,
        }
    }

    /// The cards that tell apart the seat to play's cards of one suit: every card `held` by
    /// another hand than its own, `hand`, and the trick's winning card.
    pub(super) fn others(&self, held: CardSet, hand: CardSet) -> CardSet {
        let mut others = held - hand;
        if self.played > 0 {
            others.insert(self.winning);
        }
        others
    }

    /// The trick once the seat to play has played `card`, `next` to play after it.
    pub(super) fn after(self, rules: &Ruleset, card: Card, next: u8) -> PlainTrick<W> {
        let leading = self.played == 0;
        let led = if leading { card.suit() } else { self.led };
        let strength = rules.strength(card, led, Trump::None, leading);
        let takes = leading || strength > self.best;
        PlainTrick {
            seat: next,
            played: self.played + 1,
            led,
            winning: if takes { card } else { self.winning },
            best: if takes { strength } else { self.best },
            winner: if takes { self.seat } else { self.winner },
            ..self
        }
    }
}

/// The seat after `seat` at a table of `players`.
pub(super) fn next_seat(seat: u8, players: u8) -> u8 {
    if seat + 1 == players { 0 } else { seat + 1 }
}

/// The winner of the last trick, every seat holding one card and `leader` to lead (`None`
/// when the hands are empty).
pub(super) fn last_trick_winner(
    rules: &Ruleset,
    hands: &[CardSet; MAX_SEATS],
    players: u8,
    leader: u8,
) -> Option<u8> {
    let lead = hands[usize::from(leader)].first()?;
    let led = lead.suit();
    let mut best = rules.strength(lead, led, Trump::None, true);
    let mut winner = leader;
    let mut seat = next_seat(leader, players);
    while seat != leader {
        if let Some(card) = hands[usize::from(seat)].first() {
            let strength = rules.strength(card, led, Trump::None, false);
            if strength > best {
                best = strength;
                winner = seat;
            }
        }
        seat = next_seat(seat, players);
    }
    Some(winner)
}

impl PlainEnding<'_> {
    /// The value of the trick `leader` is to lead, with `left` tricks to play and `won` taken by
    /// the root, by fail-soft alpha-beta.
    fn trick(&mut self, leader: u8, left: u8, won: u8, alpha: f64, beta: f64) -> f64 {
        self.card(PlainTrick::lead(leader, left, won), alpha, beta)
    }

    /// The root's reward for `won` tricks in all.
    fn value(&self, won: u8) -> f64 {
        table_value(&self.plain.points, usize::from(won))
    }

    /// The value of the last trick, every seat holding one card, `leader` to lead.
    fn last_trick(&self, leader: u8, won: u8) -> f64 {
        let winner = last_trick_winner(self.rules, &self.hands, self.players, leader);
        self.value(won + u8::from(winner == Some(self.root)))
    }

    fn card(&mut self, t: PlainTrick<u8>, mut alpha: f64, mut beta: f64) -> f64 {
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
        let maximising = t.seat == self.root;
        let mut best = if maximising {
            f64::NEG_INFINITY
        } else {
            f64::INFINITY
        };
        let next_seat = next_seat(t.seat, self.players);
        let plain = self.plain;
        for card in plain.distinct(t.options(hand), t.others(self.held, hand)) {
            let next = t.after(self.rules, card, next_seat);
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
