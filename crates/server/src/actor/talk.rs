//! The table's chat, as its task takes it: a seat's person says a line or a quick reaction
//! (within an allowance per seat, so that nobody floods the others), the host mutes a seat.
//! Both are stored as events of the table's log before anyone sees them
//! ([`crate::table::Event::Chat`]).

use std::collections::HashMap;

use tokio::time::Instant;
use torite_core::Seat;

use super::{Actor, now_ms};
use crate::refusal::Why;
use crate::table::{Event, Refusal, RefusalKind, check_chat_text, check_reaction, token_hash};

/// Lines a seat may say in a burst, and how many seconds each one takes to come back.
const BURST: f64 = 5.0;
const SECONDS_PER_LINE: f64 = 2.0;

/// Each seat's allowance of chat lines: a token bucket, kept in memory only.
#[derive(Debug, Default)]
pub(super) struct Allowance(HashMap<Seat, (f64, Instant)>);

impl Allowance {
    /// Takes one line from `seat`'s allowance, or says how many seconds until it has one.
    fn take(&mut self, seat: Seat, now: Instant) -> Result<(), u64> {
        let (left, at) = self.0.entry(seat).or_insert((BURST, now));
        *left = (*left + now.duration_since(*at).as_secs_f64() / SECONDS_PER_LINE).min(BURST);
        *at = now;
        if *left < 1.0 {
            // Whole seconds, rounded up, until one line has come back.
            let wait = ((1.0 - *left) * SECONDS_PER_LINE).ceil();
            return Err(wait as u64);
        }
        *left -= 1.0;
        Ok(())
    }
}

impl Actor {
    /// A seat's person says a line (`text`) or a reaction.
    pub(super) async fn chat(
        &mut self,
        token: &str,
        text: Option<String>,
        reaction: Option<String>,
    ) -> Result<(), Refusal> {
        let Some(seat) = self.state.seat_of(&token_hash(token)) else {
            return Err(Refusal::forbidden(Why::ChatNoSeat));
        };
        if self.state.is_muted(seat) {
            return Err(Refusal::forbidden(Why::ChatMuted));
        }
        let text = text.as_deref().map(check_chat_text).transpose()?;
        if let Some(code) = &reaction {
            check_reaction(code)?;
        }
        if text.is_some() == reaction.is_some() {
            return Err(Refusal::bad(Why::MessageNoChat));
        }
        self.talk.take(seat, Instant::now()).map_err(|wait| {
            Refusal::new(
                RefusalKind::TooMany,
                Why::ChatTooFast {
                    seconds: wait.to_string(),
                },
            )
        })?;
        self.commit(Event::Chat {
            seat,
            text,
            reaction,
            at: now_ms(),
        })
        .await
    }

    /// The host mutes `seat`'s person (or lets them speak again).
    pub(super) async fn mute(
        &mut self,
        token: &str,
        seat: Seat,
        muted: bool,
    ) -> Result<(), Refusal> {
        let hash = token_hash(token);
        if !self.state.is_host(&hash) {
            return Err(Refusal::forbidden(Why::HostOnlyMute));
        }
        if self.state.seat_of(&hash) == Some(seat) {
            return Err(Refusal::bad(Why::MuteSelf));
        }
        if seat >= self.state.seats().len() {
            return Err(Refusal::bad(Why::NoSuchSeat {
                seat: seat.to_string(),
                last: (self.state.seats().len() - 1).to_string(),
            }));
        }
        self.commit(Event::Mute { seat, muted }).await
    }
}

#[cfg(test)]
mod tests {
    use std::time::Duration;

    use super::*;

    #[test]
    fn a_seat_may_say_a_burst_then_one_line_every_two_seconds() {
        let mut allowance = Allowance::default();
        let now = Instant::now();
        for _ in 0..5 {
            allowance.take(0, now).unwrap();
        }
        assert_eq!(allowance.take(0, now), Err(2));
        // Another seat has its own allowance.
        allowance.take(1, now).unwrap();
        assert_eq!(allowance.take(0, now + Duration::from_secs(1)), Err(1));
        allowance.take(0, now + Duration::from_secs(2)).unwrap();
        assert_eq!(allowance.take(0, now + Duration::from_secs(2)), Err(2));
    }
}
