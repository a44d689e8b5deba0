//! Rematches, as a table's task takes part in them: a finished table says what its rematch
//! needs ([`NextGame`]) and records the rematch's table ([`crate::table::Event::Next`]); a
//! rematch's table seats a person of the game before in the seat kept for them, with the
//! token they played with, and starts once every seat is filled.

use serde_json::Value;
use torite_core::Seat;

use super::Actor;
use crate::refusal::Why;
use crate::table::{Event, Occupant, Refusal, SeriesGame, token_hash};

/// What a finished game's rematch is made of, as its table knows it.
#[derive(Clone, Debug)]
pub(crate) struct NextGame {
    /// The asking person's seat, name and token hash.
    pub seat: Seat,
    pub name: String,
    pub hash: String,
    /// The rematch's table, if someone asked before.
    pub next: Option<String>,
    /// The same rules, timer, privacy and host.
    pub ruleset: Value,
    pub timer: Option<u32>,
    pub invite: Option<String>,
    pub host: String,
    /// Who sat where.
    pub seats: Vec<Occupant>,
    /// The series' games, this one last.
    pub games: Vec<SeriesGame>,
}

impl Actor {
    /// What the rematch of this finished game needs, asked by `token` (a seat's).
    pub(super) fn next_game(&self, token: &str) -> Result<NextGame, Refusal> {
        let state = &self.state;
        if !state.is_finished() {
            return Err(Refusal::conflict(Why::RematchNotYet));
        }
        let hash = token_hash(token);
        let seat = state
            .seat_of(&hash)
            .ok_or_else(|| Refusal::forbidden(Why::RematchNoSeat))?;
        let mut games = state.series().to_vec();
        games.push(SeriesGame {
            table: state.id().to_owned(),
            totals: state.game().totals().to_vec(),
            winners: state.game().winners().to_vec(),
        });
        Ok(NextGame {
            seat,
            name: state.name(seat),
            hash,
            next: state.next().map(str::to_owned),
            ruleset: state.rules().to_json(),
            timer: state.timer(),
            invite: state.invite().map(str::to_owned),
            host: state.host_hash().to_owned(),
            seats: state.seats().to_vec(),
            games,
        })
    }

    /// Seats a person of the game before in the seat kept for them (at once if they hold it
    /// already), and starts the game once every seat is filled.
    pub(super) async fn rejoin(
        &mut self,
        seat: Seat,
        name: String,
        hash: String,
    ) -> Result<(), Refusal> {
        if self.state.seat_of(&hash) != Some(seat) {
            self.commit(Event::Join {
                seat,
                name,
                token: hash,
            })
            .await?;
        }
        self.start_when_full().await
    }

    /// Starts a rematch's game once every seat is filled (the people of the game before
    /// have all come back, or the host has given the others' seats to bots).
    pub(super) async fn start_when_full(&mut self) -> Result<(), Refusal> {
        let full = self.state.seats().iter().all(|o| *o != Occupant::Empty);
        if full
            && !self.state.series().is_empty()
            && self.state.status() == crate::table::Status::Open
        {
            self.commit(Event::Start).await?;
        }
        Ok(())
    }
}
