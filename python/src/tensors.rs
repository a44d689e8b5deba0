//! A deal's observation and information-state tensors (`float32`, every seat counted from the
//! observer), laid out as python/README.md describes.

use torite_core::{Action, CardSet, Phase, Seat, Trump, View};

use crate::deal::PyDeal;

impl PyDeal {
    pub(crate) fn observation(&self, seat: Seat) -> Vec<f32> {
        let deal = &self.deal;
        let view = View::new(deal, seat);
        let n = deal.players();
        let d = self.space.deck_len();
        let rel = |s: Seat| (s + n - seat) % n;
        let mut out = vec![0f32; observation_len(n, d)];
        let mut at = 0;
        let cards = |out: &mut [f32], at: usize, set: CardSet| {
            for card in set.iter() {
                out[at + self.space.ids[card.index() as usize] as usize] = 1.0;
            }
        };
        cards(&mut out, at, view.hand());
        at += d;
        for s in 0..n {
            cards(&mut out, at + rel(s) * d, view.won(s));
        }
        at += n * d;
        let leader = view.leader();
        for (k, card) in view.current_trick().iter().enumerate() {
            cards(
                &mut out,
                at + rel((leader + k) % n) * d,
                CardSet::single(*card),
            );
        }
        at += n * d;
        for s in 0..n {
            for suit in 0..4 {
                if view.voids(s) & (1 << suit) != 0 {
                    out[at + rel(s) * 4 + suit] = 1.0;
                }
            }
        }
        at += n * 4;
        let trump = match view.trump() {
            Trump::None => 0,
            Trump::Suit(suit) => 1 + suit.index(),
            Trump::JokerOnly => 5,
        };
        out[at + trump] = 1.0;
        at += 6;
        if let Some(led) = view.led() {
            out[at + led.index()] = 1.0;
        }
        at += 4;
        let lot = view.lot();
        for s in lot.declaring() {
            out[at + rel(s)] = 1.0;
        }
        at += n;
        for s in lot.failing() {
            out[at + rel(s)] = 1.0;
        }
        at += n;
        let phase = match view.phase() {
            Phase::LotQuestion => 0,
            Phase::Play => 1,
            Phase::CallSuit => 2,
            Phase::Over => 3,
            Phase::SayJoker => 4,
            // A phase the engine adds later (the last slot).
            #[allow(unreachable_patterns)]
            _ => 4,
        };
        out[at + phase] = 1.0;
        at += 5;
        if !deal.is_over() {
            out[at + rel(view.to_act())] = 1.0;
        }
        at += n;
        out[at + rel(view.dealer())] = 1.0;
        at += n;
        out[at + rel(leader)] = 1.0;
        at += n;
        let tricks = deal.rules().tricks().max(1) as f32;
        for s in 0..n {
            out[at + rel(s)] = f32::from(view.tricks_won()[s]) / tricks;
        }
        at += n;
        debug_assert_eq!(at, out.len());
        out
    }

    pub(crate) fn information_state(&self, seat: Seat) -> Vec<f32> {
        let n = self.deal.players();
        let d = self.space.deck_len();
        let t = self.deal.rules().tricks();
        let mut out = self.observation(seat);
        let base = out.len();
        let e = self.space.extra_len();
        out.resize(information_state_len(n, d, t, e), 0.0);
        let rel = |s: Seat| (s + n - seat) % n;
        for card in self.start[seat].iter() {
            out[base + self.space.ids[card.index() as usize] as usize] = 1.0;
        }
        let mut at = base + d;
        let mut trick_no = 0;
        let mut in_trick = 0;
        for (s, action) in &self.history {
            if let Action::Play(card) = action {
                // Trick `trick_no`, position `in_trick` from the leader: seat and card.
                let slot = at + (trick_no * n + in_trick) * (n + d);
                out[slot + rel(*s)] = 1.0;
                out[slot + n + self.space.ids[card.index() as usize] as usize] = 1.0;
                in_trick += 1;
                if in_trick == n {
                    in_trick = 0;
                    trick_no += 1;
                }
            } else if let Some(i) = self.space.extra(*action) {
                // Which seat took each non-card action (`lot`, `pass`, a call).
                out[at + t * n * (n + d) + rel(*s) * e + i] = 1.0;
            }
        }
        at += t * n * (n + d) + n * e;
        debug_assert_eq!(at, out.len());
        out
    }
}

/// The length of `observation_tensor` for `n` seats and a deck of `d` cards.
pub(crate) const fn observation_len(n: usize, d: usize) -> usize {
    d + 2 * n * d + 4 * n + 6 + 4 + 2 * n + 5 + 4 * n
}

/// The length of `information_state_tensor` for `n` seats, `d` cards, `t` tricks and `e`
/// non-card actions.
pub(crate) const fn information_state_len(n: usize, d: usize, t: usize, e: usize) -> usize {
    observation_len(n, d) + d + t * n * (n + d) + n * e
}
