//! Dealing the unseen cards of a [`View`] at random: the worlds ("determinisations") a search
//! bot imagines.
//!
//! [`Worlds`] works a view's constraints out once ([`View::possible`] for each other seat,
//! and each seat's hand size), then deals as many worlds as asked without allocating. A world
//! keeps the viewer's hand and every public fact; the unseen cards go to the other seats, each
//! receiving as many as it holds and none it has shown it cannot hold ([`Deal::excluded`]:
//! suits it did not follow, Handjass cards that would have beaten a trick it did not beat,
//! Jass trumps it would have had to play). Those are exactly the constraints the history puts
//! on the hands, so in every world dealt the whole history of the deal, replayed from the
//! world's starting hands (each hand plus the cards its seat has played), is legal action by
//! action; `crates/core/tests/worlds.rs` checks it for every ruleset.
//!
//! The cards that only some seats may hold are placed first, each to an allowed seat with
//! probability proportional to the room left in that seat's hand; the cards any seat may hold
//! are then shuffled into the room left. Without constraints this is exactly uniform over the
//! consistent deals. Weighting by room also keeps it exact when the cards that two or more
//! seats, but not every other seat, may hold all share the same seats (say one seat void in
//! one suit), where picking uniformly among the seats with room is not: with three unseen
//! spades that two seats of three cards each may hold, uniform picking gives one seat all
//! three an eighth of the time instead of a twentieth. Cards only one seat may hold are
//! simply its own, so every world of a three-player game (two other seats) is exactly
//! uniform, Middler's included.
//!
//! **Several groups.** When constrained cards are shared by different sets of seats (with
//! three or more other seats: seat 1 void in spades and seat 2 in hearts, say), placing them
//! one at a time by room is biased (in `mini-misere-4` with those two voids, seen by seat 0,
//! seat 3 gets two spades and a heart in 26% of such worlds instead of 18%). `Worlds::new`
//! then counts, once, the consistent worlds for every room vector left after each group of
//! cards sharing the same seats (the group's split among its seats times the worlds that
//! follow, the free cards last, in closed form), and each world draws every group's split
//! with probability proportional to that count, then which cards go where uniformly: exactly
//! uniform (to floating-point rounding of the counts). The table has a row per room vector
//! (the product of each seat's room plus one) per group; above [`MAX_TABLE`] entries, which
//! only six-player views with several groups can exceed, the placement by room is used with its
//! bias: a world is then dealt with probability proportional to `∏ₖ room(sₖ) / Σ_{t ∈ Aₖ}
//! room(t)` times `1 / multinomial(free; room left)`, where card `k` of the constrained ones
//! (fewest allowed seats first, then card order) went to seat `sₖ` of its allowed seats `Aₖ`,
//! with `room` the room left in each hand just before it, and `free` the cards every other
//! seat may hold. Every consistent world can be dealt, and no inconsistent one is.
//!
//! With several overlapping constraints the placement by room can reach a dead end (a card
//! no seat with room may take); it then starts again, and after [`RESTARTS`] dead ends it
//! searches for an assignment exhaustively, which always exists for a view of a real deal.

use crate::card::{Card, CardSet};
use crate::deal::Deal;
use crate::ruleset::MAX_SEATS;
use crate::seats::SeatSet;
use crate::shuffle::below;
use crate::view::View;

/// How many dead ends the randomised dealing may reach before the exhaustive search.
pub const RESTARTS: usize = 16;

/// The constraints of one view, ready to deal worlds from: each other seat's hand size and
/// the unseen cards it may hold ([`View::possible`]). Every world it deals is consistent with
/// the whole history of the deal, and worlds are dealt uniformly over the consistent ones
/// (see the module documentation for how, and for the one case that is not exact).
#[derive(Clone, Debug)]
pub struct Worlds<'v> {
    view: View<'v>,
    /// The unseen cards, most constrained first.
    cards: [Card; 64],
    /// For each card of `cards`, the seats that may hold it.
    allowed: [SeatSet; 64],
    /// How many cards are unseen.
    len: usize,
    /// Where the cards that every other seat may hold begin in `cards` (they come last).
    free: usize,
    /// How many cards each seat must receive (0 for the viewer).
    sizes: [u8; MAX_SEATS],
    /// The exact dealing, when constrained cards are shared by different sets of seats.
    exact: Option<Exact>,
}

/// The largest table of world counts the exact dealing builds (room vectors times groups);
/// beyond it, worlds are dealt by the randomised placement alone (see the module
/// documentation).
pub const MAX_TABLE: usize = 1 << 16;

/// The exact dealing of a view whose constrained cards are shared by different sets of seats:
/// the number of consistent worlds for every room vector, group by group.
#[derive(Clone, Debug)]
struct Exact {
    /// Cards only one seat may hold, with that seat.
    forced: Vec<(Card, usize)>,
    /// The shared cards, group by group: group `g` is `cards[starts[g]..starts[g + 1]]`, and
    /// `seats[g]` may hold them.
    cards: Vec<Card>,
    starts: Vec<usize>,
    seats: Vec<SeatSet>,
    /// The room each seat has once its forced cards are dealt.
    room: [u8; MAX_SEATS],
    /// Each seat's stride in a room vector's index (radix: its room plus one).
    stride: [usize; MAX_SEATS],
    /// How many room vectors there are.
    states: usize,
    /// `counts[g * states + index(r)]`: the ways to deal groups `g..` and then the free cards
    /// into the room `r`.
    counts: Vec<f64>,
    /// `n!` for `n` up to 64.
    fact: [f64; 65],
    /// For each group, every split of its cards that fits the room.
    splits: Vec<Vec<Split>>,
}

impl Exact {
    /// The tables for `worlds`, or `None` when its randomised placement is exact already (at
    /// most one group of shared cards), the table would be too large, or the view has no
    /// consistent world.
    fn new(worlds: &Worlds<'_>) -> Option<Exact> {
        let mut forced = Vec::new();
        let mut shared: Vec<(u8, Card)> = Vec::new();
        for (card, allowed) in worlds.cards[..worlds.free].iter().zip(&worlds.allowed) {
            match allowed.len() {
                0 => return None,
                1 => forced.push((*card, allowed.first()?)),
                _ => shared.push((allowed.bits(), *card)),
            }
        }
        shared.sort_unstable();
        let mut cards = Vec::with_capacity(shared.len());
        let mut starts = Vec::new();
        let mut seats = Vec::new();
        for (i, (bits, card)) in shared.iter().enumerate() {
            if i == 0 || shared[i - 1].0 != *bits {
                starts.push(i);
                seats.push(SeatSet::from_bits(*bits));
            }
            cards.push(*card);
        }
        starts.push(cards.len());
        let groups = seats.len();
        if groups < 2 {
            return None;
        }
        let mut room = worlds.sizes;
        for (_, seat) in &forced {
            room[*seat] = room[*seat].checked_sub(1)?;
        }
        let mut stride = [0; MAX_SEATS];
        let mut states = 1usize;
        for seat in 0..MAX_SEATS {
            stride[seat] = states;
            states = states.checked_mul(usize::from(room[seat]) + 1)?;
        }
        if states.checked_mul(groups + 1)? > MAX_TABLE {
            return None;
        }
        let mut fact = [1f64; 65];
        for n in 1..65 {
            fact[n] = fact[n - 1] * n as f64;
        }
        let mut exact = Exact {
            forced,
            cards,
            starts,
            seats,
            room,
            stride,
            states,
            counts: vec![0.0; states * (groups + 1)],
            fact,
            splits: Vec::with_capacity(groups),
        };
        for g in 0..groups {
            let members: Vec<usize> = exact.seats[g].iter().collect();
            let count = exact.starts[g + 1] - exact.starts[g];
            let mut list = Vec::new();
            let mut take = [0; MAX_SEATS];
            exact.list_splits(&members, count, count as u8, &mut take, &mut list);
            exact.splits.push(list);
        }
        let free = worlds.len - worlds.free;
        for g in (0..=groups).rev() {
            for index in 0..states {
                let r = exact.decode(index);
                exact.counts[g * states + index] = if g == groups {
                    if r.iter().map(|x| usize::from(*x)).sum::<usize>() == free {
                        r.iter()
                            .fold(exact.fact[free], |w, x| w / exact.fact[usize::from(*x)])
                    } else {
                        0.0
                    }
                } else {
                    let mut total = 0.0;
                    exact.each_split(g, &r, |_, w| total += w);
                    total
                };
            }
        }
        (exact.counts[exact.index(&room)] > 0.0).then_some(exact)
    }

    fn index(&self, room: &[u8; MAX_SEATS]) -> usize {
        (0..MAX_SEATS)
            .map(|s| usize::from(room[s]) * self.stride[s])
            .sum()
    }

    fn decode(&self, index: usize) -> [u8; MAX_SEATS] {
        std::array::from_fn(|s| ((index / self.stride[s]) % (usize::from(self.room[s]) + 1)) as u8)
    }

    /// Calls `f` with every split of group `g` that fits the room `r` (how many of its cards
    /// each seat takes) and its weight: the ways to choose the cards times the worlds that
    /// follow.
    fn each_split(&self, g: usize, r: &[u8; MAX_SEATS], mut f: impl FnMut(&[u8; MAX_SEATS], f64)) {
        let index = self.index(r);
        let next = &self.counts[(g + 1) * self.states..];
        for split in &self.splits[g] {
            if (0..MAX_SEATS).all(|s| split.take[s] <= r[s]) {
                let w = split.ways * next[index - split.offset];
                if w > 0.0 {
                    f(&split.take, w);
                }
            }
        }
    }

    /// Every split of `count` cards among `seats` that fits the room `room`, into `out`.
    fn list_splits(
        &self,
        seats: &[usize],
        count: usize,
        left: u8,
        take: &mut [u8; MAX_SEATS],
        out: &mut Vec<Split>,
    ) {
        match seats {
            [] => {}
            [last] => {
                if left <= self.room[*last] {
                    take[*last] = left;
                    let ways = (0..MAX_SEATS)
                        .fold(self.fact[count], |w, s| w / self.fact[usize::from(take[s])]);
                    let offset = (0..MAX_SEATS)
                        .map(|s| usize::from(take[s]) * self.stride[s])
                        .sum();
                    out.push(Split {
                        take: *take,
                        ways,
                        offset,
                    });
                    take[*last] = 0;
                }
            }
            [first, rest @ ..] => {
                for k in 0..=left.min(self.room[*first]) {
                    take[*first] = k;
                    self.list_splits(rest, count, left - k, take, out);
                }
                take[*first] = 0;
            }
        }
    }
}

/// One way to split a group of shared cards among its seats.
#[derive(Clone, Copy, Debug)]
struct Split {
    /// How many cards each seat takes.
    take: [u8; MAX_SEATS],
    /// The ways to choose which: a multinomial coefficient.
    ways: f64,
    /// How much the split lowers a room vector's index.
    offset: usize,
}

impl<'v> Worlds<'v> {
    /// Works out `view`'s constraints.
    #[must_use]
    pub fn new(view: View<'v>) -> Worlds<'v> {
        let me = view.seat();
        let n = usize::from(view.rules().players);
        let mut possible = [CardSet::EMPTY; MAX_SEATS];
        let mut sizes = [0u8; MAX_SEATS];
        let mut others = SeatSet::EMPTY;
        for seat in (0..n).filter(|s| *s != me) {
            possible[seat] = view.possible(seat);
            sizes[seat] = view.hand_len(seat) as u8;
            others.insert(seat);
        }
        let mut entries = [(0u32, Card::JOKER, SeatSet::EMPTY); 64];
        let mut len = 0;
        for card in view.unseen() {
            let allowed: SeatSet = (0..n).filter(|s| possible[*s].contains(card)).collect();
            entries[len] = (allowed.len() as u32, card, allowed);
            len += 1;
        }
        entries[..len].sort_unstable_by_key(|(count, card, _)| (*count, *card));
        let mut worlds = Worlds {
            view,
            cards: [Card::JOKER; 64],
            allowed: [SeatSet::EMPTY; 64],
            len,
            free: len,
            sizes,
            exact: None,
        };
        for (i, (_, card, allowed)) in entries[..len].iter().enumerate() {
            worlds.cards[i] = *card;
            worlds.allowed[i] = *allowed;
            if *allowed == others {
                worlds.free = worlds.free.min(i);
            }
        }
        worlds.exact = Exact::new(&worlds);
        worlds
    }

    /// The view the worlds are dealt for.
    #[must_use]
    pub const fn view(&self) -> View<'v> {
        self.view
    }

    /// One world at random: the viewer's hand and the public facts as they are, the unseen
    /// cards dealt to the other seats within [`View::possible`] and their hand sizes.
    pub fn sample(&self, rng: &mut (impl rand_core::Rng + ?Sized)) -> Deal {
        if let Some(exact) = &self.exact
            && let Some(hands) = self.deal_exact(exact, rng)
        {
            return self.view.world(&hands);
        }
        for _ in 0..RESTARTS {
            if let Some(hands) = self.deal_hands(rng) {
                return self.view.world(&hands);
            }
        }
        // Rare: constraints too tight for the randomised dealing.
        let mut hands = [CardSet::EMPTY; MAX_SEATS];
        let mut room = self.sizes;
        if !self.assign(0, &mut room, &mut hands) {
            // Unreachable for a view of a real deal, whose true hands satisfy every
            // constraint. Deal by hand size alone rather than panic.
            hands = [CardSet::EMPTY; MAX_SEATS];
            let mut room = self.sizes;
            for &card in &self.cards[..self.len] {
                if let Some(seat) = (0..MAX_SEATS).find(|s| room[*s] > 0) {
                    room[seat] -= 1;
                    hands[seat].insert(card);
                }
            }
        }
        self.view.world(&hands)
    }

    /// The other seats' hands of one world, or `None` at a dead end.
    fn deal_hands(&self, rng: &mut (impl rand_core::Rng + ?Sized)) -> Option<[CardSet; MAX_SEATS]> {
        let mut room = self.sizes;
        let mut hands = [CardSet::EMPTY; MAX_SEATS];
        // The constrained cards, one at a time, each to an allowed seat with probability
        // proportional to the room left in its hand.
        for (card, allowed) in self.cards[..self.free].iter().zip(&self.allowed) {
            let total: u32 = allowed.iter().map(|s| u32::from(room[s])).sum();
            if total == 0 {
                return None;
            }
            let mut pick = below(rng, total);
            for seat in allowed.iter() {
                let r = u32::from(room[seat]);
                if pick < r {
                    hands[seat].insert(*card);
                    room[seat] -= 1;
                    break;
                }
                pick -= r;
            }
        }
        self.deal_free(room, hands, rng)
    }

    /// The other seats' hands of one world, dealt exactly uniformly with `exact`'s tables;
    /// `None` only if rounding left no split to choose (never seen).
    fn deal_exact(
        &self,
        exact: &Exact,
        rng: &mut (impl rand_core::Rng + ?Sized),
    ) -> Option<[CardSet; MAX_SEATS]> {
        let mut hands = [CardSet::EMPTY; MAX_SEATS];
        for (card, seat) in &exact.forced {
            hands[*seat].insert(*card);
        }
        let mut room = exact.room;
        let mut deck = [Card::JOKER; 64];
        for g in 0..exact.seats.len() {
            // A split with probability proportional to its weight.
            let total = exact.counts[g * exact.states + exact.index(&room)];
            let mut pick = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
            let mut chosen = None;
            let mut last = None;
            exact.each_split(g, &room, |split, w| {
                if chosen.is_none() {
                    if pick < w {
                        chosen = Some(*split);
                    } else {
                        pick -= w;
                        last = Some(*split);
                    }
                }
            });
            let split = chosen.or(last)?;
            // The group's cards, at random, as many to each seat as the split says.
            let group = &exact.cards[exact.starts[g]..exact.starts[g + 1]];
            let mut rest = group.len();
            deck[..rest].copy_from_slice(group);
            for seat in exact.seats[g] {
                for _ in 0..split[seat] {
                    let j = below(rng, rest as u32) as usize;
                    rest -= 1;
                    deck.swap(j, rest);
                    hands[seat].insert(deck[rest]);
                }
                room[seat] -= split[seat];
            }
        }
        self.deal_free(room, hands, rng)
    }

    /// Deals the cards any seat may hold into `room`, completing `hands`; `None` when they do
    /// not fit.
    fn deal_free(
        &self,
        room: [u8; MAX_SEATS],
        mut hands: [CardSet; MAX_SEATS],
        rng: &mut (impl rand_core::Rng + ?Sized),
    ) -> Option<[CardSet; MAX_SEATS]> {
        // The cards any seat may hold: shuffled into the room left, seat by seat (the last
        // seat with room takes the rest without drawing).
        let mut deck = [Card::JOKER; 64];
        let mut rest = self.len - self.free;
        deck[..rest].copy_from_slice(&self.cards[self.free..self.len]);
        let mut open = room.iter().enumerate().filter(|(_, r)| **r > 0).peekable();
        while let Some((seat, r)) = open.next() {
            let r = usize::from(*r);
            if r > rest {
                return None;
            }
            if open.peek().is_none() {
                hands[seat] |= deck[..rest].iter().copied().collect::<CardSet>();
                rest = 0;
                break;
            }
            for _ in 0..r {
                let j = below(rng, rest as u32) as usize;
                rest -= 1;
                deck.swap(j, rest);
                hands[seat].insert(deck[rest]);
            }
        }
        (rest == 0).then_some(hands)
    }

    /// Places `cards[i..]` by backtracking; true when every card found a seat.
    fn assign(
        &self,
        i: usize,
        room: &mut [u8; MAX_SEATS],
        hands: &mut [CardSet; MAX_SEATS],
    ) -> bool {
        if i == self.len {
            return true;
        }
        let card = self.cards[i];
        for seat in self.allowed[i] {
            if room[seat] > 0 {
                room[seat] -= 1;
                hands[seat].insert(card);
                if self.assign(i + 1, room, hands) {
                    return true;
                }
                hands[seat].remove(card);
                room[seat] += 1;
            }
        }
        false
    }
}

impl View<'_> {
    /// A complete deal consistent with this view: the viewer's hand and every public fact are
    /// kept, and the unseen cards are dealt to the other seats at random, each receiving as many
    /// as it holds and none it has shown it cannot hold ([`View::possible`]), so the history
    /// of the deal is legal in it. Search bots sample
    /// these worlds ("determinisations"); nothing in the result comes from the other seats'
    /// real hands. To deal many worlds of one view, make its [`Worlds`] once.
    pub fn sample_world(&self, rng: &mut (impl rand_core::Rng + ?Sized)) -> Deal {
        Worlds::new(*self).sample(rng)
    }
}

#[cfg(test)]
mod tests {
    use rand_chacha::ChaCha8Rng;
    use rand_chacha::rand_core::SeedableRng;

    use super::*;
    use crate::{Action, Preset};

    fn hand(list: &str) -> CardSet {
        list.split_whitespace()
            .map(|c| c.parse::<Card>().expect("a card"))
            .collect()
    }

    /// The share of `trials` worlds of `view` in which `seat` holds all of `cards`.
    fn share_holding(view: View<'_>, seat: usize, cards: CardSet, trials: u32) -> f64 {
        let worlds = Worlds::new(view);
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        let hits = (0..trials)
            .filter(|_| cards.is_subset(worlds.sample(&mut rng).hand(seat)))
            .count();
        hits as f64 / f64::from(trials)
    }

    #[test]
    fn uniform_without_voids() {
        // Seat 0 to lead in mini-misere-4: 18 unseen cards in three hands of 6, so seat 1
        // holds a given one a third of the time.
        let deal = Deal::random(
            Preset::MiniMisere4.ruleset(),
            3,
            &mut ChaCha8Rng::seed_from_u64(3),
        );
        let view = View::new(&deal, 0);
        let card = view.unseen().first().expect("unseen cards");
        let share = share_holding(view, 1, CardSet::EMPTY.with(card), 6000);
        assert!((share - 1.0 / 3.0).abs() < 0.03, "share {share}");
    }

    #[test]
    fn exact_with_one_seat_void_in_one_suit() {
        let hands = [
            "AS AH KH QH JH TH",
            "2H AD KD QD JD TD",
            "KS QS JS 2D AC KC",
            "TS 2S QC JC TC 2C",
        ]
        .map(hand);
        let mut deal = Deal::new(Preset::MiniMisere4.ruleset(), 3, &hands).expect("a deal");
        for card in ["AS", "2H", "KS", "2S"] {
            let action = Action::Play(card.parse().expect("a card"));
            deal.apply(action).expect("legal");
        }
        // Seat 1 has shown void in spades: the three unseen spades are shared by seats 2 and
        // 3 (five cards each, with seat 1's five non-spades among the ten others). Of the
        // C(10, 5) = 252 ways to fill seat 2 from the ten cards seats 2 and 3 share, C(7, 2) = 21
        // give it all three spades: 1/12 (picking seats uniformly would give 1/8).
        let view = View::new(&deal, 0);
        assert_eq!(view.voids(1), 1 << crate::Suit::Spades.index());
        let spades = hand("QS JS TS");
        assert!(spades.is_subset(view.unseen()));
        for seat in [2, 3] {
            let share = share_holding(view, seat, spades, 12_000);
            assert!(
                (share - 1.0 / 12.0).abs() < 0.015,
                "seat {seat}: share {share}"
            );
        }
        assert_eq!(share_holding(view, 1, hand("QS"), 500), 0.0);
    }

    /// Seat 1 void in spades and seat 2 void in hearts, seen by seat 0: two groups of shared
    /// cards, which the randomised placement deals with a bias and the exact dealing without.
    fn two_groups() -> Deal {
        let hands = [
            "AS AH AD KD QD JD",
            "KH QH JH TD 2D AC",
            "KS QS JS KC QC JC",
            "TS 2S TH 2H TC 2C",
        ]
        .map(hand);
        let mut deal = Deal::new(Preset::MiniMisere4.ruleset(), 3, &hands).expect("a deal");
        for card in ["AS", "AC", "KS", "TS", "AH", "KH", "KC", "TH"] {
            deal.apply(Action::Play(card.parse().expect("a card")))
                .expect("legal");
        }
        deal
    }

    /// The share of worlds by (spades, hearts) in seat 3's hand: from every consistent world,
    /// and from `trials` dealt by `worlds`.
    fn shares(worlds: &Worlds<'_>, trials: u32) -> ([[f64; 4]; 4], [[f64; 4]; 4]) {
        let view = worlds.view();
        let unseen: Vec<Card> = view.unseen().iter().collect();
        let possible = [1, 2, 3].map(|s| view.possible(s));
        let key = |h: CardSet| {
            (
                h.of_suit(crate::Suit::Spades).len(),
                h.of_suit(crate::Suit::Hearts).len(),
            )
        };
        let mut exact = [[0f64; 4]; 4];
        let mut total = 0f64;
        for code in 0..3usize.pow(unseen.len() as u32) {
            let mut hands = [CardSet::EMPTY; 3];
            let mut c = code;
            for card in &unseen {
                hands[c % 3].insert(*card);
                c /= 3;
            }
            if (0..3).all(|s| hands[s].len() == 4 && hands[s].is_subset(possible[s])) {
                let (sp, he) = key(hands[2]);
                exact[sp][he] += 1.0;
                total += 1.0;
            }
        }
        let mut dealt = [[0f64; 4]; 4];
        let mut rng = ChaCha8Rng::seed_from_u64(5);
        for _ in 0..trials {
            let world = worlds.sample(&mut rng);
            for s in 1..4 {
                assert!(world.hand(s).is_subset(view.possible(s)));
            }
            let (sp, he) = key(world.hand(3));
            dealt[sp][he] += 1.0 / f64::from(trials);
        }
        (exact.map(|row| row.map(|x| x / total)), dealt)
    }

    #[test]
    fn exact_with_constrained_cards_shared_by_different_seats() {
        let deal = two_groups();
        let view = View::new(&deal, 0);
        let worlds = Worlds::new(view);
        assert!(worlds.exact.is_some(), "two groups: the exact dealing");
        let (exact, dealt) = shares(&worlds, 40_000);
        for sp in 0..4 {
            for he in 0..4 {
                let (e, d) = (exact[sp][he], dealt[sp][he]);
                assert!(
                    (e - d).abs() < 0.01,
                    "{sp} spades, {he} hearts: {d} for {e}"
                );
            }
        }
        // The randomised placement alone is measurably biased here.
        let mut approximate = worlds.clone();
        approximate.exact = None;
        let (_, biased) = shares(&approximate, 40_000);
        let worst = (0..16)
            .map(|i| (exact[i / 4][i % 4] - biased[i / 4][i % 4]).abs())
            .fold(0.0, f64::max);
        assert!(worst > 0.02, "bias {worst}");
    }
}
