//! One WebSocket per connected seat or spectator.
//!
//! The socket receives its seat's state at once and after every change (skipping versions it
//! was too slow to take: the table publishes on a one-slot `watch`). It sends actions. A token
//! acts only for its seat; a socket without one is a spectator's. Oversized messages close the
//! socket; malformed, stale or out-of-turn ones are answered with an `error` and change
//! nothing; a socket that floods the table is closed; one that does not take a message within
//! [`SEND_TIMEOUT`] is dropped.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;
use tokio::sync::oneshot;
use tokio::time::Instant;

use crate::actor::{Auth, Cmd, Published, SocketKind, TableHandle};
use crate::ask::ask;
use crate::hub::Hub;
use crate::protocol::{ClientError, ClientMsg, ServerMsg};
use crate::refusal::{Refusal, RefusalKind, Why, shown};
use crate::table::token_hash;

/// The largest message a client may send.
pub const MAX_MESSAGE: usize = 4096;
/// How long a message to a client may take to send before the socket is dropped.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// Messages a client may send in a burst, and per second after that. An accepted action is
/// not counted: the game itself bounds how fast a seat acts (only on its turn, once a turn),
/// and a client playing quickly against instant bots must never be refused for it.
const BURST: f64 = 20.0;
const PER_SECOND: f64 = 10.0;
/// Messages refused for flooding before the socket is closed.
const FLOOD_LIMIT: u32 = 50;
/// How often the server pings a quiet socket, and how long it waits for any sign of life
/// before closing it (a vanished client must not hold a connection slot).
const PING_EVERY: Duration = Duration::from_secs(30);
const SILENCE_LIMIT: Duration = Duration::from_secs(75);

pub(crate) async fn upgrade(
    State(hub): State<Arc<Hub>>,
    Path(id): Path<String>,
    ConnectInfo(peer): ConnectInfo<SocketAddr>,
    Query(query): Query<HashMap<String, String>>,
    ws: WebSocketUpgrade,
) -> Response {
    let Some(table) = hub.table(&id).await else {
        return Refusal::no_table(&id).into_response();
    };
    let not_running = || Refusal::new(RefusalKind::Busy, Why::TableNotRunning).into_response();
    let closing = hub.closing();
    if *closing.borrow() {
        return not_running();
    }
    let token = query.get("token").filter(|t| !t.is_empty()).cloned();
    let auth = match &token {
        None => Auth {
            seat: None,
            host: false,
            replaced: None,
        },
        Some(token) => {
            let (reply, answer) = oneshot::channel();
            if table
                .tx
                .send(Cmd::Auth {
                    token: token.clone(),
                    reply,
                })
                .await
                .is_err()
            {
                return not_running();
            }
            match answer.await {
                Ok(auth) if auth.seat.is_some() || auth.host => auth,
                Ok(Auth {
                    replaced: Some(seat),
                    ..
                }) => {
                    let replaced = Refusal::forbidden(Why::Replaced {
                        seat: seat.to_string(),
                    });
                    let mut body = replaced.body();
                    body["seat"] = json!(seat);
                    return (StatusCode::FORBIDDEN, axum::Json(body)).into_response();
                }
                Ok(_) => return Refusal::forbidden(Why::NoSeat).into_response(),
                Err(_) => return not_running(),
            }
        }
    };
    let kind = match &token {
        Some(token) => SocketKind::Token(token_hash(token)),
        None => SocketKind::Spectator(crate::hub::client_address(peer.ip())),
    };
    let slot = match table.take_slot(kind, hub.config()) {
        Ok(slot) => slot,
        Err(why) => return Refusal::new(RefusalKind::Busy, why).into_response(),
    };
    // Small reads: clients' messages are small, and the WebSocket layer clears its whole read
    // buffer before each read (128 KiB by default, which costs more than the rest together).
    ws.max_message_size(MAX_MESSAGE)
        .max_frame_size(MAX_MESSAGE)
        .read_buffer_size(MAX_MESSAGE)
        .on_upgrade(move |socket| async move {
            let who = auth.seat.map_or_else(
                || {
                    if auth.host {
                        "host".to_owned()
                    } else {
                        "spectator".to_owned()
                    }
                },
                |s| format!("seat {s}"),
            );
            tracing::info!(table = %table.id, who = %who, peer = %peer.ip(), "socket opened");
            connection(socket, table.clone(), token, auth, closing).await;
            tracing::info!(table = %table.id, who = %who, peer = %peer.ip(), "socket closed");
            drop(slot);
        })
}

/// The message this connection should see: its seat's while its token still holds the seat,
/// `replaced` once the seat has been given to a bot (then the socket is closed).
fn message_for(published: &Published, seat: Option<usize>, hash: Option<&str>) -> Seen {
    match (seat, hash) {
        (Some(s), Some(h)) if published.owners.get(s).and_then(Option::as_deref) == Some(h) => {
            Seen::State(published.seats[s].clone())
        }
        (Some(s), _) => Seen::Replaced(ServerMsg::Replaced { seat: s }.to_text()),
        _ => Seen::State(published.spectator.clone()),
    }
}

/// The chat message to send, when the chat has changed since the socket was last sent it
/// (`sent`: the changes it has been sent, brought up to date).
fn chat_for(published: &Published, sent: &mut u64) -> Option<Utf8Bytes> {
    if published.chat_changes == *sent {
        return None;
    }
    *sent = published.chat_changes;
    published.chat.clone()
}

/// What a socket is sent after a change.
enum Seen {
    /// The state (the table's own text, not a copy).
    State(Utf8Bytes),
    /// The `replaced` message, the last.
    Replaced(String),
}

/// Sends what the socket should see; false when the socket is to be closed.
async fn show(socket: &mut WebSocket, seen: Seen) -> bool {
    match seen {
        Seen::State(text) => send(socket, text).await,
        Seen::Replaced(text) => {
            let _ = send(socket, text).await;
            false
        }
    }
}

/// Sends a text message; a state is sent as the table published it, not copied.
async fn send(socket: &mut WebSocket, text: impl Into<Utf8Bytes>) -> bool {
    matches!(
        tokio::time::timeout(SEND_TIMEOUT, socket.send(Message::Text(text.into()))).await,
        Ok(Ok(()))
    )
}

/// The close frame of a socket the server closes because it is shutting down: 1001 (going
/// away), so that a client knows to reconnect rather than give up.
fn going_away() -> Message {
    Message::Close(Some(axum::extract::ws::CloseFrame {
        code: axum::extract::ws::close_code::AWAY,
        reason: "the server is shutting down".into(),
    }))
}

async fn connection(
    mut socket: WebSocket,
    table: TableHandle,
    token: Option<String>,
    auth: Auth,
    mut closing: tokio::sync::watch::Receiver<bool>,
) {
    let hash = token.as_deref().map(token_hash);
    let mut states = table.states.clone();
    if let Some(seat) = auth.seat {
        let _ = table.presence.send((seat, 1));
    }
    let welcome = ServerMsg::Welcome {
        table: table.id.clone(),
        seat: auth.seat,
        host: auth.host,
    };
    let mut open = send(&mut socket, welcome.to_text()).await;
    // The chat's changes this socket has been sent.
    let mut chat_sent = 0;
    if open {
        let (first, chat) = {
            let published = states.borrow_and_update();
            let seen = message_for(&published, auth.seat, hash.as_deref());
            (seen, chat_for(&published, &mut chat_sent))
        };
        open = show(&mut socket, first).await;
        if open && let Some(chat) = chat {
            open = send(&mut socket, chat).await;
        }
    }
    let mut allowance = BURST;
    let mut last = Instant::now();
    let mut flooded = 0u32;
    let mut last_heard = Instant::now();
    let mut pings = tokio::time::interval_at(Instant::now() + PING_EVERY, PING_EVERY);
    let mut going = false;
    // One wait for the shutdown for the socket's whole life: made again at each turn of the
    // loop, it would take the lock that every socket of the server shares, twice a message.
    let shutdown = async move { drop(closing.wait_for(|c| *c).await) };
    tokio::pin!(shutdown);
    while open {
        tokio::select! {
            () = &mut shutdown => {
                going = true;
                break;
            }
            _ = pings.tick() => {
                if last_heard.elapsed() > SILENCE_LIMIT {
                    break;
                }
                open = matches!(
                    tokio::time::timeout(SEND_TIMEOUT, socket.send(Message::Ping(Default::default()))).await,
                    Ok(Ok(()))
                );
            }
            changed = states.changed() => {
                if changed.is_err() {
                    // The table's task ended here (its lease is another node's now): the
                    // client reconnects, as after a restart.
                    going = true;
                    break;
                }
                let (seen, chat) = {
                    let published = states.borrow_and_update();
                    let seen = message_for(&published, auth.seat, hash.as_deref());
                    (seen, chat_for(&published, &mut chat_sent))
                };
                open = show(&mut socket, seen).await;
                if open && let Some(chat) = chat {
                    open = send(&mut socket, chat).await;
                }
            }
            incoming = socket.recv() => {
                last_heard = Instant::now();
                let text = match incoming {
                    Some(Ok(Message::Text(text))) => text,
                    Some(Ok(Message::Binary(_))) => {
                        open = send(&mut socket, refused(Refusal::bad(client_error(&ClientError::Binary)))).await;
                        continue;
                    }
                    Some(Ok(Message::Ping(_) | Message::Pong(_))) => continue,
                    Some(Ok(Message::Close(_)) | Err(_)) | None => break,
                };
                let now = Instant::now();
                allowance = (allowance + now.duration_since(last).as_secs_f64() * PER_SECOND).min(BURST);
                last = now;
                if allowance < 1.0 {
                    flooded += 1;
                    if flooded > FLOOD_LIMIT {
                        break;
                    }
                    open = send(&mut socket, refused(Refusal::new(RefusalKind::TooMany, Why::TooManyMessages))).await;
                    continue;
                }
                allowance -= 1.0;
                let handled = handle(&table, token.as_deref(), text.as_str()).await;
                if handled.played {
                    allowance += 1.0;
                }
                if let Some(answer) = handled.answer {
                    open = send(&mut socket, answer).await;
                }
            }
        }
    }
    if let Some(seat) = auth.seat {
        let _ = table.presence.send((seat, -1));
    }
    let close = if going {
        going_away()
    } else {
        Message::Close(None)
    };
    let _ = tokio::time::timeout(SEND_TIMEOUT, socket.send(close)).await;
}

/// What came of one client message.
pub(crate) struct Handled {
    /// The answer to send back, if any (a new state is not an answer: it reaches every socket
    /// through the table's publication).
    pub answer: Option<String>,
    /// Whether the message was an action the table accepted.
    pub played: bool,
}

/// Handles one client message.
pub(crate) async fn handle(table: &TableHandle, token: Option<&str>, text: &str) -> Handled {
    let message = ClientMsg::read(text);
    let is_act = matches!(message, Ok(ClientMsg::Act { .. }));
    let answer = answer(table, token, message).await;
    Handled {
        played: is_act && answer.is_none(),
        answer,
    }
}

/// Carries out one client message; returns the answer to send, if any.
async fn answer(
    table: &TableHandle,
    token: Option<&str>,
    message: Result<ClientMsg, ClientError>,
) -> Option<String> {
    match message {
        Err(e) => Some(refused(Refusal::bad(client_error(&e)))),
        Ok(ClientMsg::Ping) => Some(ServerMsg::Pong.to_text()),
        Ok(ClientMsg::Act { action, version }) => match token {
            None => Some(refused(Refusal::forbidden(Why::SpectatorCannotAct))),
            Some(token) => {
                let result = ask(&table.tx, |reply| Cmd::Act {
                    token: token.to_owned(),
                    action,
                    version,
                    reply,
                })
                .await;
                result.err().map(refused)
            }
        },
        Ok(ClientMsg::Undo { version }) => match token {
            None => Some(refused(Refusal::forbidden(Why::SpectatorCannotAct))),
            Some(token) => {
                let result = ask(&table.tx, |reply| Cmd::Undo {
                    token: token.to_owned(),
                    version,
                    reply,
                })
                .await;
                result.err().map(refused)
            }
        },
        Ok(ClientMsg::Chat { text, reaction }) => match token {
            None => Some(refused(Refusal::forbidden(Why::ChatNoSeat))),
            Some(token) => {
                let result = ask(&table.tx, |reply| Cmd::Chat {
                    token: token.to_owned(),
                    text,
                    reaction,
                    reply,
                })
                .await;
                result.err().map(refused)
            }
        },
        Ok(ClientMsg::Mute { seat, muted }) => match token {
            None => Some(refused(Refusal::forbidden(Why::HostOnlyMute))),
            Some(token) => {
                let result = ask(&table.tx, |reply| Cmd::Mute {
                    token: token.to_owned(),
                    seat,
                    muted,
                    reply,
                })
                .await;
                result.err().map(refused)
            }
        },
        Ok(ClientMsg::UndoAnswer { accept }) => match token {
            None => Some(refused(Refusal::forbidden(Why::SpectatorCannotAct))),
            Some(token) => {
                let result = ask(&table.tx, |reply| Cmd::UndoAnswer {
                    token: token.to_owned(),
                    accept,
                    reply,
                })
                .await;
                result.err().map(refused)
            }
        },
    }
}

/// The `error` message of a refusal, as text.
fn refused(refusal: Refusal) -> String {
    ServerMsg::refused(&refusal).to_text()
}

/// The reason a client's message was not understood.
fn client_error(e: &ClientError) -> Why {
    match e {
        ClientError::NotJson => Why::MessageNotJson,
        ClientError::NoType => Why::MessageNoType,
        ClientError::UnknownType(t) => Why::MessageUnknownType { name: shown(t) },
        ClientError::NoAction => Why::MessageNoAction,
        ClientError::NoVersion => Why::MessageNoVersion,
        ClientError::NoAccept => Why::MessageNoAccept,
        ClientError::NoChat => Why::MessageNoChat,
        ClientError::NoMute => Why::MessageNoMute,
        ClientError::UnknownAction => Why::MessageActionTooLong,
        ClientError::Binary => Why::MessageBinary,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::Value;

    fn published(owner: Option<&str>) -> Published {
        Published {
            version: 3,
            summary: crate::table::TableState::new(
                "t",
                &crate::table::Event::Created {
                    ruleset: json!("mura-3"),
                    seed: 0,
                    host: String::new(),
                    timer: None,
                    created: 0,
                    invite: None,
                },
            )
            .unwrap()
            .summary(&[0, 0, 0]),
            finished_at: 0,
            seats: vec!["seat 0".into(), "seat 1".into(), "".into()],
            spectator: "spectator".into(),
            owners: vec![None, owner.map(str::to_owned), None],
            chat: None,
            chat_changes: 0,
        }
    }

    /// A client's mistake is sent with the same English words as [`ClientError`] says it.
    #[test]
    fn client_errors_keep_their_words() {
        for e in [
            ClientError::NotJson,
            ClientError::NoType,
            ClientError::UnknownType("dance".into()),
            ClientError::NoAction,
            ClientError::NoVersion,
            ClientError::UnknownAction,
            ClientError::NoAccept,
            ClientError::NoChat,
            ClientError::NoMute,
            ClientError::Binary,
        ] {
            assert_eq!(Refusal::bad(client_error(&e)).message(), e.to_string());
        }
    }

    /// A socket whose seat no longer answers to its token is told `replaced` (then closed);
    /// the seat's own socket gets its state, a spectator the spectators'.
    #[test]
    fn a_socket_whose_seat_was_given_away_is_told_so() {
        let mine = published(Some("hash"));
        assert!(
            matches!(message_for(&mine, Some(1), Some("hash")), Seen::State(t) if &*t == "seat 1")
        );
        assert!(matches!(message_for(&mine, None, None), Seen::State(t) if &*t == "spectator"));
        let given = published(None);
        match message_for(&given, Some(1), Some("hash")) {
            Seen::Replaced(text) => {
                assert_eq!(
                    serde_json::from_str::<Value>(&text).unwrap(),
                    json!({"type": "replaced", "seat": 1})
                );
            }
            Seen::State(text) => panic!("a state instead of replaced: {text}"),
        }
    }
}
