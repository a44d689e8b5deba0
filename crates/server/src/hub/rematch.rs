//! Rematches: at a finished game a person who played it asks for a rematch, and the first to
//! ask creates it, a new table with the same rules, timer, privacy and host, the bots back in
//! their seats and every person's seat kept for them; the others accept (the same request)
//! and take their seat with the token they played with. A rematch's table keeps the series'
//! games before it ([`Event::Series`]), the finished game the rematch's id ([`Event::Next`]);
//! both are events of their logs, so a series survives a restart.

use std::sync::Arc;

use torite_core::Seat;

use super::{Hub, internal, now_secs};
use crate::actor::{self, Cmd};
use crate::ask::ask;
use crate::refusal::{Refusal, RefusalKind, Why};
use crate::table::{Event, Occupant, TableState};

impl Hub {
    /// The rematch of finished table `id`, asked by `token` (a seat's): creates it if nobody
    /// has, and seats the asking person in their seat there. Returns the rematch's id and
    /// that seat; the person's token is the same as in the game before.
    ///
    /// # Errors
    ///
    /// The game is not over, the token held no seat in it, the table is gone, or the store
    /// failed.
    pub async fn rematch(&self, id: &str, token: &str) -> Result<(String, Seat), Refusal> {
        // One rematch at a time, so that two people asking at once make one table.
        let _gate = self.create_gate.lock().await;
        let old = self.table(id).await.ok_or_else(|| Refusal::no_table(id))?;
        let game = ask(&old.tx, |reply| Cmd::NextGame {
            token: token.to_owned(),
            reply,
        })
        .await?;
        if let Some(next) = &game.next {
            let table = self
                .table(next)
                .await
                .ok_or_else(|| Refusal::no_table(next))?;
            ask(&table.tx, |reply| Cmd::Rejoin {
                seat: game.seat,
                name: game.name.clone(),
                hash: game.hash.clone(),
                reply,
            })
            .await?;
            return Ok((next.clone(), game.seat));
        }
        let next = actor::new_token()[..12].to_owned();
        let mut seed = [0u8; 8];
        getrandom::fill(&mut seed).map_err(internal)?;
        let mut events = vec![
            Event::Created {
                ruleset: game.ruleset.clone(),
                seed: u64::from_le_bytes(seed),
                host: game.host.clone(),
                timer: game.timer,
                created: now_secs(),
                invite: game.invite.clone(),
            },
            Event::Series {
                games: game.games.clone(),
                reserved: game
                    .seats
                    .iter()
                    .map(|o| match o {
                        Occupant::Human { token, .. } => Some(token.clone()),
                        _ => None,
                    })
                    .collect(),
            },
            Event::Join {
                seat: game.seat,
                name: game.name.clone(),
                token: game.hash.clone(),
            },
        ];
        for (seat, occupant) in game.seats.iter().enumerate() {
            if let Occupant::Bot { spec } = occupant {
                events.push(Event::Bot { seat, bot: *spec });
            }
        }
        let mut state = TableState::new(&next, &events[0])?;
        for event in &events[1..] {
            state.apply(event)?;
        }
        if state.seats().iter().all(|o| *o != Occupant::Empty) {
            // Nobody else to wait for.
            state.apply(&Event::Start)?;
            events.push(Event::Start);
        }
        let store_err = |e: crate::store::StoreError| {
            tracing::error!(table = %next, "rematch not created: {e}");
            Refusal::new(
                RefusalKind::Storage,
                Why::Storage {
                    detail: e.to_string(),
                },
            )
        };
        if let Some(cluster) = &self.cluster {
            cluster.take_new(&next).await.map_err(store_err)?;
        }
        let first = serde_json::to_string(&events[0]).map_err(internal)?;
        self.store
            .create_table(&next, now_secs() as i64, &first)
            .await
            .map_err(store_err)?;
        for (seq, event) in events.iter().enumerate().skip(1) {
            let body = serde_json::to_string(event).map_err(internal)?;
            self.store
                .append(&next, seq as i64, &body)
                .await
                .map_err(store_err)?;
        }
        let handle = actor::spawn_in(
            state,
            Arc::clone(&self.store),
            self.config.clone(),
            self.cluster.clone(),
        );
        self.tables.write().await.insert(next.clone(), handle);
        ask(&old.tx, |reply| Cmd::SetNext {
            table: next.clone(),
            reply,
        })
        .await?;
        tracing::info!(table = %next, of = %id, "rematch created");
        Ok((next, game.seat))
    }
}
