//! The task that owns one table.
//!
//! Everything that changes a table goes through its task as a `Cmd` on a bounded channel;
//! the task writes each event to the store *before* applying it and publishing the new state,
//! so nothing acknowledged or shown is ever lost. States are published on a `watch` channel:
//! one slot holding the latest state, so a slow subscriber skips versions instead of holding
//! the table up. Bots act from the task (quick bots inline, search bots on the blocking pool),
//! after a short pause so that people can follow the play; an optional per-move timer lets a
//! bot play for a person who does not act in time.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::extract::ws::Utf8Bytes;
use serde_json::Value;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::time::Instant;
use torite_bots::standing::Standing;
use torite_bots::{Bot, BotSpec};
use torite_core::{Action, ParseActionError, Seat, View};

use crate::Config;
use crate::protocol::ResultMsg;
use crate::refusal::Why;
use crate::store::Store;
use crate::table::{
    Actor as By, Event, Occupant, Refusal, RefusalKind, Summary, TableState, UndoWay, token_hash,
};

mod series;
mod talk;

pub(crate) use series::NextGame;

/// How deep a table's command queue is. Senders wait (HTTP requests, sockets) when it is
/// full; the table itself never waits on a subscriber.
const QUEUE: usize = 64;

/// What a token may do at a table.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Auth {
    /// The seat it acts for.
    pub seat: Option<Seat>,
    /// Whether it is the host's.
    pub host: bool,
    /// The seat it held before the host gave that seat to a bot, if it did.
    pub replaced: Option<Seat>,
}

/// Milliseconds since the Unix epoch, by the server's clock.
pub(crate) fn now_ms() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
}

/// A request to a table's task.
pub(crate) enum Cmd {
    Act {
        token: String,
        action: String,
        version: u64,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    Undo {
        token: String,
        version: u64,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    UndoAnswer {
        token: String,
        accept: bool,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// A line or a reaction for the chat.
    Chat {
        token: String,
        text: Option<String>,
        reaction: Option<String>,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// What this finished game's rematch needs, asked by a seat's token.
    NextGame {
        token: String,
        reply: oneshot::Sender<Result<NextGame, Refusal>>,
    },
    /// Records the rematch's table.
    SetNext {
        table: String,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Seats a person of the game before (by their token's hash) in a rematch's table.
    Rejoin {
        seat: Seat,
        name: String,
        hash: String,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// The host mutes a seat in the chat, or lets it speak again.
    Mute {
        token: String,
        seat: Seat,
        muted: bool,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    Join {
        seat: Seat,
        name: String,
        reply: oneshot::Sender<Result<String, Refusal>>,
    },
    Bot {
        token: String,
        seat: Seat,
        bot: BotSpec,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    Start {
        token: String,
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    Auth {
        token: String,
        reply: oneshot::Sender<Auth>,
    },
    Record {
        reply: oneshot::Sender<Value>,
    },
    /// Lets the table go if it was never started and has been idle (no event, no socket)
    /// for [`Config::expire_open`]: marks it expired in the store and ends the task.
    Expire {
        reply: oneshot::Sender<bool>,
    },
    /// The node no longer holds the table's lease: the task ends (its sockets close).
    Release,
    BotDone {
        version: u64,
        seat: Seat,
        action: Action,
        bot: Box<dyn Bot>,
        by_timer: bool,
    },
}

/// The state a table publishes: one message per seat and one for spectators.
#[derive(Debug)]
pub struct Published {
    /// The state's version.
    pub version: u64,
    /// The lobby summary.
    pub summary: Summary,
    /// When the game ended or a socket last closed after it ended (seconds since the Unix
    /// epoch); 0 while it goes on.
    pub finished_at: u64,
    /// The state message of each seat (JSON text), shared by every socket that sends it.
    pub seats: Vec<Utf8Bytes>,
    /// The spectators' state message (JSON text).
    pub spectator: Utf8Bytes,
    /// The token hash of each seat's person (`None`: no person), so that a connection whose
    /// seat was given to a bot falls back to the spectators' message.
    pub owners: Vec<Option<String>>,
    /// The table's `chat` message (JSON text), once anyone has said anything.
    pub chat: Option<Utf8Bytes>,
    /// How many chat lines and mutes the table has taken, so that a socket sends the chat
    /// again when it changes.
    pub chat_changes: u64,
}

/// A live table: how to reach its task and watch its state.
#[derive(Clone, Debug)]
pub struct TableHandle {
    /// The table id.
    pub id: String,
    pub(crate) tx: mpsc::Sender<Cmd>,
    pub(crate) presence: mpsc::UnboundedSender<(Seat, i32)>,
    /// The latest published state.
    pub states: watch::Receiver<Arc<Published>>,
    /// Open sockets at this table.
    pub connections: Arc<AtomicUsize>,
    /// Who holds those sockets, for the per-table caps.
    pub(crate) sockets: Arc<Mutex<Sockets>>,
    /// When an event was last stored or a socket last opened or closed (ms since the Unix
    /// epoch).
    pub(crate) last_active: Arc<AtomicU64>,
    /// The address that created the table (unknown for tables reloaded on start).
    pub(crate) creator: Option<IpAddr>,
    /// The hash of a private table's invite secret (`None`: a public table).
    pub(crate) invite: Option<Arc<str>>,
}

/// The open sockets of a table, counted by kind.
#[derive(Debug, Default)]
pub(crate) struct Sockets {
    spectators: usize,
    by_address: HashMap<IpAddr, usize>,
    by_token: HashMap<String, usize>,
}

/// Who a socket is, for the caps: a spectator from an address, or a token's holder (by the
/// token's hash).
#[derive(Clone, PartialEq, Eq, Debug)]
pub(crate) enum SocketKind {
    Spectator(IpAddr),
    Token(String),
}

/// A socket's place at a table, given back when dropped.
#[derive(Debug)]
pub(crate) struct SocketSlot {
    table: TableHandle,
    kind: SocketKind,
}

impl TableHandle {
    /// Takes a place for a new socket: spectators within [`Config::max_spectators`] and
    /// [`Config::max_spectators_per_address`], a token's holder within
    /// [`Config::max_token_sockets`] whatever the spectators hold.
    pub(crate) fn take_slot(&self, kind: SocketKind, config: &Config) -> Result<SocketSlot, Why> {
        let mut sockets = self.sockets.lock().unwrap_or_else(PoisonError::into_inner);
        match &kind {
            SocketKind::Spectator(ip) => {
                if sockets.spectators >= config.max_spectators {
                    return Err(Why::SpectatorsFull);
                }
                let mine = sockets.by_address.entry(*ip).or_insert(0);
                if *mine >= config.max_spectators_per_address {
                    return Err(Why::SpectatorsPerAddress);
                }
                *mine += 1;
                sockets.spectators += 1;
            }
            SocketKind::Token(hash) => {
                let mine = sockets.by_token.entry(hash.clone()).or_insert(0);
                if *mine >= config.max_token_sockets {
                    return Err(Why::TokenSockets);
                }
                *mine += 1;
            }
        }
        self.connections.fetch_add(1, Ordering::SeqCst);
        self.last_active.store(now_ms(), Ordering::SeqCst);
        Ok(SocketSlot {
            table: self.clone(),
            kind,
        })
    }
}

impl Drop for SocketSlot {
    fn drop(&mut self) {
        let mut sockets = self
            .table
            .sockets
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        match &self.kind {
            SocketKind::Spectator(ip) => {
                sockets.spectators = sockets.spectators.saturating_sub(1);
                if let Some(n) = sockets.by_address.get_mut(ip) {
                    *n -= 1;
                    if *n == 0 {
                        sockets.by_address.remove(ip);
                    }
                }
            }
            SocketKind::Token(hash) => {
                if let Some(n) = sockets.by_token.get_mut(hash) {
                    *n -= 1;
                    if *n == 0 {
                        sockets.by_token.remove(hash);
                    }
                }
            }
        }
        self.table.connections.fetch_sub(1, Ordering::SeqCst);
        self.table.last_active.store(now_ms(), Ordering::SeqCst);
    }
}

impl std::fmt::Debug for Cmd {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Cmd")
    }
}

/// A fresh random token: 128 bits, hex.
#[must_use]
pub fn new_token() -> String {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).expect("the system's random source works");
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn bot_seed(seed: u64, seat: Seat, version: u64) -> u64 {
    seed.wrapping_mul(0x9E37_79B9_7F4A_7C15)
        .wrapping_add(seat as u64 + 1)
        .wrapping_add(version << 8)
}

struct Actor {
    state: TableState,
    store: Arc<dyn Store>,
    config: Config,
    rx: mpsc::Receiver<Cmd>,
    me: mpsc::WeakSender<Cmd>,
    presence_rx: mpsc::UnboundedReceiver<(Seat, i32)>,
    connected: Vec<u32>,
    /// Since when each seat has had no socket (ms since the Unix epoch).
    absent_since: Vec<Option<u64>>,
    connections: Arc<AtomicUsize>,
    last_active: Arc<AtomicU64>,
    /// The table was let go ([`Cmd::Expire`]): the task ends.
    expired: bool,
    states: watch::Sender<Arc<Published>>,
    bots: Vec<Option<Box<dyn Bot>>>,
    /// Bots that play for people whose time ran out.
    stand_ins: Vec<Option<Box<dyn Bot>>>,
    thinking: bool,
    /// When the state last changed: the turn of the seat to act began then.
    turn_started: Instant,
    /// When the move timer of a person to act runs out (ms since the Unix epoch), as sent.
    turn_deadline: Option<u64>,
    /// When the pause after a deal ends.
    pause_until: Option<Instant>,
    wake: Option<Instant>,
    /// Storage failed: retry the table's own steps from then.
    retry_at: Option<Instant>,
    /// Each seat's allowance of chat lines ([`talk`]).
    talk: talk::Allowance,
    /// The cluster whose lease on the table every append checks (`None`: the only node).
    cluster: Option<Arc<crate::cluster::Cluster>>,
}

/// Starts the task of a table already built (new, or replayed from the store).
pub(crate) fn spawn(state: TableState, store: Arc<dyn Store>, config: Config) -> TableHandle {
    spawn_in(state, store, config, None)
}

/// [`spawn`] on a node of `cluster`: each event is stored only while the node holds the
/// table's lease, and the task ends once it does not.
pub(crate) fn spawn_in(
    state: TableState,
    store: Arc<dyn Store>,
    config: Config,
    cluster: Option<Arc<crate::cluster::Cluster>>,
) -> TableHandle {
    let (tx, rx) = mpsc::channel(QUEUE);
    let (presence, presence_rx) = mpsc::unbounded_channel();
    let n = state.seats().len();
    let id = state.id().to_owned();
    let invite = state.invite().map(Arc::from);
    let turn_deadline = deadline(&state, Instant::now(), config.timer_unit);
    let started = now_ms();
    let absent_since = vec![Some(started); n];
    let replace_after_ms = u64::try_from(config.replace_after.as_millis()).unwrap_or(u64::MAX);
    let first = Arc::new(publish_of(
        &state,
        &vec![0; n],
        &absent_since,
        replace_after_ms,
        turn_deadline,
    ));
    let (states_tx, states) = watch::channel(first);
    let connections = Arc::new(AtomicUsize::new(0));
    let last_active = Arc::new(AtomicU64::new(started));
    let mut actor = Actor {
        state,
        store,
        config,
        rx,
        me: tx.downgrade(),
        presence_rx,
        connected: vec![0; n],
        absent_since,
        connections: Arc::clone(&connections),
        last_active: Arc::clone(&last_active),
        expired: false,
        states: states_tx,
        bots: (0..n).map(|_| None).collect(),
        stand_ins: (0..n).map(|_| None).collect(),
        thinking: false,
        turn_started: Instant::now(),
        turn_deadline,
        pause_until: None,
        wake: None,
        retry_at: None,
        talk: talk::Allowance::default(),
        cluster,
    };
    if actor.state.between_deals() {
        actor.pause_until = Some(Instant::now() + actor.config.deal_pause);
    }
    tokio::spawn(async move { actor.run().await });
    TableHandle {
        id,
        tx,
        presence,
        states,
        connections,
        sockets: Arc::default(),
        last_active,
        creator: None,
        invite,
    }
}

/// When the move timer of the seat to act runs out (milliseconds since the Unix epoch), if
/// the table has a timer and a person is to act.
fn deadline(state: &TableState, turn_started: Instant, unit: Duration) -> Option<u64> {
    let secs = state.timer()?;
    let seat = state.to_act()?;
    if !matches!(state.seats()[seat], Occupant::Human { .. }) {
        return None;
    }
    let left = (turn_started + unit * secs).saturating_duration_since(Instant::now());
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap_or_default();
    u64::try_from((now + left).as_millis()).ok()
}

fn publish_of(
    state: &TableState,
    connected: &[u32],
    absent_since: &[Option<u64>],
    replace_after_ms: u64,
    deadline: Option<u64>,
) -> Published {
    let finished_at = if state.is_finished() {
        crate::now_secs()
    } else {
        0
    };
    let summary = Arc::new(
        state
            .summary(connected)
            .with_presence(absent_since, replace_after_ms),
    );
    let results: Arc<[ResultMsg]> = state.results().into();
    let n = state.seats().len();
    // Only a person's seat can have a socket: bots' and empty seats get no message of their
    // own (a socket without a seat of its own is shown the spectators' message).
    let seats = (0..n)
        .map(|s| match state.seats()[s] {
            Occupant::Human { .. } => Utf8Bytes::from(
                state
                    .state_message(Some(s), &summary, &results, deadline)
                    .to_text(),
            ),
            _ => Utf8Bytes::from_static(""),
        })
        .collect();
    let spectator = Utf8Bytes::from(
        state
            .state_message(None, &summary, &results, deadline)
            .to_text(),
    );
    let owners = state
        .seats()
        .iter()
        .map(|o| match o {
            Occupant::Human { token, .. } => Some(token.clone()),
            _ => None,
        })
        .collect();
    Published {
        version: state.version(),
        finished_at,
        summary: Summary::clone(&summary),
        seats,
        spectator,
        owners,
        chat: (state.chat_changes() > 0).then(|| Utf8Bytes::from(state.chat_message().to_text())),
        chat_changes: state.chat_changes(),
    }
}

impl Actor {
    async fn run(&mut self) {
        loop {
            self.drive().await;
            if self.expired {
                return;
            }
            let wake = self.wake.take();
            tokio::select! {
                cmd = self.rx.recv() => match cmd {
                    Some(cmd) => {
                        self.handle(cmd).await;
                        if self.expired {
                            // Let go: requests still queued find the table gone.
                            return;
                        }
                    }
                    None => return,
                },
                Some(first) = self.presence_rx.recv() => {
                    // Sockets opened or closed together (a game's end, a reconnecting
                    // client's) make one publication, not one each.
                    let mut change = Some(first);
                    while let Some((seat, delta)) = change {
                        if let Some(c) = self.connected.get_mut(seat) {
                            *c = c.saturating_add_signed(delta);
                            self.absent_since[seat] = (*c == 0).then(now_ms);
                        }
                        change = self.presence_rx.try_recv().ok();
                    }
                    self.publish();
                }
                () = tokio::time::sleep_until(wake.unwrap_or_else(Instant::now)), if wake.is_some() => {}
            }
        }
    }

    fn publish(&self) {
        self.states.send_replace(Arc::new(publish_of(
            &self.state,
            &self.connected,
            &self.absent_since,
            self.replace_after_ms(),
            self.turn_deadline,
        )));
    }

    fn replace_after_ms(&self) -> u64 {
        u64::try_from(self.config.replace_after.as_millis()).unwrap_or(u64::MAX)
    }

    /// Whether the host may give `seat` to a bot now: an empty seat or a bot's, or a person
    /// who has had no socket open for [`Config::replace_after`].
    fn may_replace(&self, seat: Seat) -> Result<(), Refusal> {
        let Some(Occupant::Human { name, .. }) = self.state.seats().get(seat) else {
            return Ok(());
        };
        if self.connected[seat] > 0 {
            return Err(Refusal::conflict(Why::ReplaceConnected {
                seat: seat.to_string(),
                name: name.clone(),
            }));
        }
        let away = now_ms().saturating_sub(self.absent_since[seat].unwrap_or(0));
        let needed = self.replace_after_ms();
        if away < needed {
            return Err(Refusal::conflict(Why::ReplaceTooSoon {
                seat: seat.to_string(),
                name: name.clone(),
                away: (away / 1000).to_string(),
                needed: needed.div_ceil(1000).to_string(),
            }));
        }
        Ok(())
    }

    fn set_wake(&mut self, at: Instant) {
        self.wake = Some(self.wake.map_or(at, |w| w.min(at)));
    }

    /// Stores the event, then applies and publishes it. Nothing changes if it is refused or
    /// cannot be stored.
    async fn commit(&mut self, event: Event) -> Result<(), Refusal> {
        self.store_event(event).await?;
        self.publish();
        Ok(())
    }

    /// Stores the event, then applies it, leaving it to the caller to publish. Nothing
    /// changes if it is refused or cannot be stored.
    async fn store_event(&mut self, event: Event) -> Result<(), Refusal> {
        self.state.check(&event)?;
        let body = serde_json::to_string(&event).map_err(|e| {
            Refusal::bad(Why::Internal {
                detail: e.to_string(),
            })
        })?;
        let seq = self.state.seq() as i64;
        let stored = match &self.cluster {
            Some(cluster) => match cluster.append(self.state.id(), seq, &body).await {
                Ok(()) => Ok(()),
                Err(crate::cluster::AppendError::Failed(e)) => Err(e),
                Err(crate::cluster::AppendError::Lost) => {
                    tracing::warn!(table = %self.state.id(), seq, "event not stored: the table's lease is another node's now; this node stops driving it");
                    // The table is driven elsewhere: end the task rather than fork the log.
                    self.expired = true;
                    return Err(Refusal::new(RefusalKind::Busy, Why::TableNotRunning));
                }
            },
            None => self.store.append(self.state.id(), seq, &body).await,
        };
        if let Err(e) = stored {
            tracing::error!(table = %self.state.id(), "event not stored: {e}");
            return Err(Refusal::new(
                RefusalKind::Storage,
                Why::Storage {
                    detail: e.to_string(),
                },
            ));
        }
        self.state
            .apply(&event)
            .expect("an event that passed its check applies");
        self.last_active.store(now_ms(), Ordering::SeqCst);
        if event.is_talk() {
            // The chat leaves the game, its turn and its timer as they were.
            return Ok(());
        }
        match &event {
            Event::Join { seat, .. } if self.connected[*seat] == 0 => {
                self.absent_since[*seat] = Some(now_ms());
            }
            Event::Start => tracing::info!(table = %self.state.id(), "table started"),
            _ => {}
        }
        self.turn_started = Instant::now();
        self.turn_deadline = deadline(&self.state, self.turn_started, self.config.timer_unit);
        if matches!(event, Event::Score { .. }) {
            self.pause_until = Some(self.turn_started + self.config.deal_pause);
            if self.state.is_finished() {
                tracing::info!(table = %self.state.id(), "game finished");
                let record = self.state.record().to_string();
                if let Err(e) = self.store.save_record(self.state.id(), &record).await {
                    tracing::error!(table = %self.state.id(), "record not kept: {e}");
                }
            }
        }
        Ok(())
    }

    /// Takes the table's own steps (deal, score, bots, timers) until a person must act or
    /// something must be waited for, then publishes what they changed. Steps taken at one
    /// moment (a deal's last card, its score and the next deal) make one publication: every
    /// table ending a deal at once would otherwise send each socket three states.
    async fn drive(&mut self) {
        self.take_steps().await;
        if self.states.borrow().version != self.state.version() {
            self.publish();
        }
    }

    /// [`Actor::drive`]'s steps, unpublished but for a bot's action, which is published as
    /// it is taken.
    async fn take_steps(&mut self) {
        let now = Instant::now();
        if let Some(at) = self.retry_at {
            if now < at {
                self.set_wake(at);
                return;
            }
            self.retry_at = None;
        }
        loop {
            // The lease was lost (an append refused): nothing more is tried here.
            if self.expired {
                return;
            }
            let now = Instant::now();
            if let Some(event) = self.state.next_step() {
                if matches!(event, Event::Deal { .. })
                    && let Some(until) = self.pause_until
                    && now < until
                {
                    self.set_wake(until);
                    return;
                }
                if self.store_event(event).await.is_err() {
                    self.retry_at = Some(Instant::now() + Duration::from_secs(1));
                    self.set_wake(self.retry_at.unwrap_or(now));
                    return;
                }
                continue;
            }
            let Some(seat) = self.state.to_act() else {
                return;
            };
            if self.thinking {
                return;
            }
            let (spec, by_timer) = match &self.state.seats()[seat] {
                Occupant::Bot { spec } => {
                    let deal = self.state.game().deal();
                    let trick_done = deal
                        .is_some_and(|d| d.current_trick().is_empty() && d.tricks_completed() > 0);
                    let pause = if trick_done {
                        self.config.trick_pause
                    } else {
                        self.config.bot_delay
                    };
                    let ready = self.turn_started + pause;
                    if now < ready {
                        self.set_wake(ready);
                        return;
                    }
                    (*spec, false)
                }
                Occupant::Human { .. } => {
                    let Some(secs) = self.state.timer() else {
                        return;
                    };
                    let due = self.turn_started + self.config.timer_unit * secs;
                    if now < due {
                        self.set_wake(due);
                        return;
                    }
                    (BotSpec::STRONGEST, true)
                }
                Occupant::Empty => return,
            };
            let version = self.state.version();
            let seed = self.state.seed();
            let slot = if by_timer {
                &mut self.stand_ins[seat]
            } else {
                &mut self.bots[seat]
            };
            let mut bot = match slot.take() {
                Some(bot) if bot.name() == spec.name() => bot,
                _ => spec.build(bot_seed(seed, seat, version)),
            };
            let Some(deal) = self.state.game().deal().cloned() else {
                return;
            };
            bot.observe_standing(&Standing::of(self.state.game()));
            // A bot that decides at once runs on the table's task.
            if spec.is_instant() {
                let action = bot.act(&View::new(&deal, seat));
                self.bot_done(version, seat, action, bot, by_timer).await;
                if self.retry_at.is_some() {
                    return;
                }
            } else {
                self.thinking = true;
                let me = self.me.clone();
                tokio::spawn(async move {
                    let done = tokio::task::spawn_blocking(move || {
                        let action = bot.act(&View::new(&deal, seat));
                        (action, bot)
                    })
                    .await;
                    if let (Ok((action, bot)), Some(tx)) = (done, me.upgrade()) {
                        let _ = tx
                            .send(Cmd::BotDone {
                                version,
                                seat,
                                action,
                                bot,
                                by_timer,
                            })
                            .await;
                    }
                });
                return;
            }
        }
    }

    async fn bot_done(
        &mut self,
        version: u64,
        seat: Seat,
        action: Action,
        bot: Box<dyn Bot>,
        by_timer: bool,
    ) {
        if by_timer {
            self.stand_ins[seat] = Some(bot);
        } else {
            self.bots[seat] = Some(bot);
        }
        if version != self.state.version() {
            return;
        }
        let event = Event::Act {
            seat,
            action,
            by: if by_timer { By::Timer } else { By::Occupant },
        };
        match self.commit(event).await {
            Ok(()) => {}
            // The lease was lost: the task ends.
            Err(_) if self.expired => {}
            Err(e) if e.kind == RefusalKind::Storage => {
                self.retry_at = Some(Instant::now() + Duration::from_secs(1));
            }
            Err(e) => {
                // A bot chose an illegal action: a bug in that bot. Play the first legal
                // action rather than stall the table.
                tracing::error!(table = %self.state.id(), seat, "bot played an illegal action: {e}");
                let first = self
                    .state
                    .game()
                    .deal()
                    .and_then(|d| d.legal_actions().nth(0));
                if let Some(first) = first {
                    let _ = self
                        .commit(Event::Act {
                            seat,
                            action: first,
                            by: By::Fallback,
                        })
                        .await;
                }
            }
        }
    }

    async fn handle(&mut self, cmd: Cmd) {
        match cmd {
            Cmd::Act {
                token,
                action,
                version,
                reply,
            } => {
                let result = self.act(&token, &action, version).await;
                let _ = reply.send(result);
            }
            Cmd::Undo {
                token,
                version,
                reply,
            } => {
                let result = self.undo(&token, version).await;
                let _ = reply.send(result);
            }
            Cmd::UndoAnswer {
                token,
                accept,
                reply,
            } => {
                let result = self.answer_undo(&token, accept).await;
                let _ = reply.send(result);
            }
            Cmd::Chat {
                token,
                text,
                reaction,
                reply,
            } => {
                let result = self.chat(&token, text, reaction).await;
                let _ = reply.send(result);
            }
            Cmd::Mute {
                token,
                seat,
                muted,
                reply,
            } => {
                let result = self.mute(&token, seat, muted).await;
                let _ = reply.send(result);
            }
            Cmd::NextGame { token, reply } => {
                let _ = reply.send(self.next_game(&token));
            }
            Cmd::SetNext { table, reply } => {
                let _ = reply.send(self.commit(Event::Next { table }).await);
            }
            Cmd::Rejoin {
                seat,
                name,
                hash,
                reply,
            } => {
                let _ = reply.send(self.rejoin(seat, name, hash).await);
            }
            Cmd::Join { seat, name, reply } => {
                let token = new_token();
                let event = Event::Join {
                    seat,
                    name,
                    token: token_hash(&token),
                };
                let _ = reply.send(self.commit(event).await.map(|()| token));
            }
            Cmd::Bot {
                token,
                seat,
                bot,
                reply,
            } => {
                let result = if self.state.is_host(&token_hash(&token)) {
                    match self.may_replace(seat) {
                        Ok(()) => self.commit(Event::Bot { seat, bot }).await,
                        Err(refusal) => Err(refusal),
                    }
                } else {
                    Err(Refusal::forbidden(Why::HostOnlyBot))
                };
                if result.is_ok() {
                    self.bots[seat] = None;
                }
                // A rematch starts once its last seat is filled.
                let result = match result {
                    Ok(()) => self.start_when_full().await,
                    Err(e) => Err(e),
                };
                let _ = reply.send(result);
            }
            Cmd::Start { token, reply } => {
                let result = if self.state.is_host(&token_hash(&token)) {
                    self.commit(Event::Start).await
                } else {
                    Err(Refusal::forbidden(Why::HostOnlyStart))
                };
                let _ = reply.send(result);
            }
            Cmd::Auth { token, reply } => {
                let hash = token_hash(&token);
                let _ = reply.send(Auth {
                    seat: self.state.seat_of(&hash),
                    host: self.state.is_host(&hash),
                    replaced: self.state.replaced_seat(&hash),
                });
            }
            Cmd::Record { reply } => {
                let _ = reply.send(self.state.record());
            }
            Cmd::Expire { reply } => {
                let expired = self.expire().await;
                let _ = reply.send(expired);
                self.expired = expired;
            }
            Cmd::Release => self.expired = true,
            Cmd::BotDone {
                version,
                seat,
                action,
                bot,
                by_timer,
            } => {
                self.thinking = false;
                self.bot_done(version, seat, action, bot, by_timer).await;
            }
        }
    }

    /// Marks the table expired if it was never started and has been idle for
    /// [`Config::expire_open`]; true when it was.
    async fn expire(&mut self) -> bool {
        let idle = now_ms().saturating_sub(self.last_active.load(Ordering::SeqCst));
        let quiet = self.connections.load(Ordering::SeqCst) == 0;
        let limit = u64::try_from(self.config.expire_open.as_millis()).unwrap_or(u64::MAX);
        if self.state.status() != crate::table::Status::Open || !quiet || idle < limit {
            return false;
        }
        let at = i64::try_from(crate::now_secs()).unwrap_or(i64::MAX);
        match self.store.expire(self.state.id(), at).await {
            Ok(()) => {
                tracing::info!(table = %self.state.id(), idle_s = idle / 1000, "table expired (never started)");
                true
            }
            Err(e) => {
                tracing::error!(table = %self.state.id(), "table not marked expired: {e}");
                false
            }
        }
    }

    async fn act(&mut self, token: &str, action: &str, version: u64) -> Result<(), Refusal> {
        let Some(seat) = self.state.seat_of(&token_hash(token)) else {
            return Err(Refusal::forbidden(Why::ActNoSeat));
        };
        if version != self.state.version() {
            return Err(Refusal::conflict(Why::Stale {
                version: self.state.version().to_string(),
                sent: version.to_string(),
            }));
        }
        match self.state.to_act() {
            Some(to_act) if to_act == seat => {}
            Some(to_act) => {
                return Err(Refusal::conflict(Why::NotYourTurn {
                    seat: to_act.to_string(),
                }));
            }
            None => return Err(Refusal::conflict(Why::NobodyToAct)),
        }
        let action: Action = action.parse().map_err(|e: ParseActionError| {
            Refusal::bad(Why::UnknownAction {
                action: crate::refusal::shown(&e.token),
            })
        })?;
        self.commit(Event::Act {
            seat,
            action,
            by: By::Occupant,
        })
        .await
    }

    /// A seat takes back its last action: at once against bots only, else as a request.
    async fn undo(&mut self, token: &str, version: u64) -> Result<(), Refusal> {
        let Some(seat) = self.state.seat_of(&token_hash(token)) else {
            return Err(Refusal::forbidden(Why::ActNoSeat));
        };
        if version != self.state.version() {
            return Err(Refusal::conflict(Why::Stale {
                version: self.state.version().to_string(),
                sent: version.to_string(),
            }));
        }
        match self.state.undo_way(seat)? {
            UndoWay::Now => self.commit(Event::Undo { seat }).await,
            UndoWay::Ask(people) => {
                self.state.ask_undo(seat, people)?;
                self.publish();
                Ok(())
            }
        }
    }

    /// A person answers the waiting undo request; the last acceptance takes the undo.
    async fn answer_undo(&mut self, token: &str, accept: bool) -> Result<(), Refusal> {
        let Some(seat) = self.state.seat_of(&token_hash(token)) else {
            return Err(Refusal::forbidden(Why::ActNoSeat));
        };
        let granted = self.state.answer_undo(seat, accept)?;
        match granted {
            Some(by) => self.commit(Event::Undo { seat: by }).await,
            None => {
                self.publish();
                Ok(())
            }
        }
    }
}
