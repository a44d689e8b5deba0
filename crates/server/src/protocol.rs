//! The WebSocket messages, as types: what a client sends ([`ClientMsg`]) and what the server
//! sends ([`ServerMsg`]), the state message among them ([`StateMsg`], `state.rs`). Their JSON
//! is the one `docs/PROTOCOL.md` documents: an object whose `"type"` names the message, its
//! other keys in the order shown there. A state message is built from a seat's `View` by
//! [`crate::table::TableState::state_message`].

use serde::{Deserialize, Serialize};
use serde_json::Value;

use torite_core::Seat;

mod state;
mod summary;

pub use state::{DealMsg, LotMsg, PhaseMsg, PlayedMsg, ResultMsg, StateMsg, UndoMsg};
pub use summary::{SeatSummary, Summary};

/// The longest action code a client may send; anything longer is refused unread.
const MAX_ACTION: usize = 16;

/// A message from a client.
#[derive(Clone, PartialEq, Eq, Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ClientMsg {
    /// Take an action for the socket's seat.
    Act {
        /// The action code (`AS`, `lot`, `pass`, `call:S`, `joker:win`), read by the table.
        action: String,
        /// The version of the state the action answers.
        version: u64,
    },
    /// Take back the socket's seat's last action of the deal (`undo`): at once when every
    /// other seat is a bot's, else as a request the other people answer.
    Undo {
        /// The version of the state the undo answers.
        version: u64,
    },
    /// Answer the undo request waiting for the socket's seat (`undo_answer`); the seat that
    /// asked may withdraw it with `accept: false`.
    UndoAnswer {
        /// Whether the seat lets the action be taken back.
        accept: bool,
    },
    /// Ask for a `pong`.
    Ping,
    /// Say something in the table's chat (the socket's seat): a line of `text`, or a quick
    /// `reaction` by its code.
    Chat {
        /// The line.
        #[serde(default)]
        text: Option<String>,
        /// The reaction's code.
        #[serde(default)]
        reaction: Option<String>,
    },
    /// The host mutes a seat's person in the chat, or lets them speak again.
    Mute {
        /// The seat.
        seat: Seat,
        /// Whether the seat is muted from now on.
        muted: bool,
    },
}

/// Why a client's message was not understood.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum ClientError {
    /// The text is not JSON.
    NotJson,
    /// The message has no `"type"`.
    NoType,
    /// The `"type"` is not one the server knows (its first 32 characters).
    UnknownType(String),
    /// An `act` without a string `"action"`.
    NoAction,
    /// An `act` without a whole-number `"version"`.
    NoVersion,
    /// An `act` whose action is too long to be an action code.
    UnknownAction,
    /// An `undo_answer` without a boolean `"accept"`.
    NoAccept,
    /// A `chat` without either a string `"text"` or a string `"reaction"`.
    NoChat,
    /// A `mute` without a seat number `"seat"` and a boolean `"muted"`.
    NoMute,
    /// A binary message.
    Binary,
}

impl std::fmt::Display for ClientError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            ClientError::NotJson => {
                f.write_str("not JSON: messages are JSON objects with a \"type\"")
            }
            ClientError::NoType => f.write_str(
                "a message needs a \"type\": act, undo, undo_answer, ping, chat or mute",
            ),
            ClientError::UnknownType(t) => {
                write!(
                    f,
                    "unknown message type {t:?}: act, undo, undo_answer, ping, chat or mute"
                )
            }
            ClientError::NoAction => f.write_str(
                "\"action\" is needed: a card code, lot, pass, call:S|H|D|C or joker:win|lose",
            ),
            ClientError::NoVersion => {
                f.write_str("\"version\" is needed: the version of the state the action answers")
            }
            ClientError::UnknownAction => f.write_str("unknown action"),
            ClientError::NoAccept => f.write_str("\"accept\" is needed: true or false"),
            ClientError::NoChat => {
                f.write_str("a chat message needs either \"text\" or \"reaction\"")
            }
            ClientError::NoMute => {
                f.write_str("a mute needs \"seat\" (a seat number) and \"muted\" (true or false)")
            }
            ClientError::Binary => {
                f.write_str("binary messages are not understood: send JSON text")
            }
        }
    }
}

impl std::error::Error for ClientError {}

impl ClientMsg {
    /// Reads a client's text message.
    ///
    /// # Errors
    ///
    /// What is wrong with the message, first problem first: not JSON, no type, an unknown
    /// type, then a missing or bad field.
    pub fn read(text: &str) -> Result<ClientMsg, ClientError> {
        let value: Value = serde_json::from_str(text).map_err(|_| ClientError::NotJson)?;
        let kind = match value.get("type").and_then(Value::as_str) {
            None => return Err(ClientError::NoType),
            Some(kind @ ("act" | "undo" | "undo_answer" | "ping" | "chat" | "mute")) => kind,
            Some(other) => {
                return Err(ClientError::UnknownType(other.chars().take(32).collect()));
            }
        };
        let msg = match ClientMsg::deserialize(&value) {
            Ok(msg) => msg,
            Err(_) if kind == "undo" => return Err(ClientError::NoVersion),
            Err(_) if kind == "undo_answer" => return Err(ClientError::NoAccept),
            Err(_) if kind == "chat" => return Err(ClientError::NoChat),
            Err(_) if kind == "mute" => return Err(ClientError::NoMute),
            Err(_) if !value.get("action").is_some_and(Value::is_string) => {
                return Err(ClientError::NoAction);
            }
            Err(_) => return Err(ClientError::NoVersion),
        };
        match &msg {
            ClientMsg::Act { action, .. } if action.len() > MAX_ACTION => {
                Err(ClientError::UnknownAction)
            }
            ClientMsg::Chat { text, reaction } if text.is_some() == reaction.is_some() => {
                Err(ClientError::NoChat)
            }
            _ => Ok(msg),
        }
    }
}

/// A message from the server.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum ServerMsg {
    /// The table as the receiving seat may see it, whenever it changes.
    State(Box<StateMsg>),
    /// The first message on a socket: which table, which seat, whether the host.
    Welcome {
        /// The table id.
        table: String,
        /// The socket's seat (`null` for a spectator or a host without a seat).
        seat: Option<Seat>,
        /// Whether the token is the host's.
        host: bool,
    },
    /// A message was refused; nothing changed.
    Error {
        /// What and why, one line, in English.
        message: String,
        /// The refusal's code: its message in the catalogs is `err-{code}`.
        code: &'static str,
        /// The message's named arguments (`crate::refusal::Refusal::args`).
        args: serde_json::Map<String, Value>,
    },
    /// The answer to a `ping`.
    Pong,
    /// The host gave this socket's seat to a bot; the socket closes.
    Replaced {
        /// The seat.
        seat: Seat,
    },
    /// The table's chat: its last lines, oldest first, and the muted seats; sent when a
    /// socket opens at a table with a chat, and whenever the chat changes.
    Chat {
        /// The last lines.
        lines: Vec<ChatLineMsg>,
        /// The seats the host has muted.
        muted: Vec<Seat>,
    },
}

/// A line of a table's chat, as sent.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct ChatLineMsg {
    /// The seat that spoke.
    pub seat: Seat,
    /// Its name when it spoke.
    pub name: String,
    /// What it said (absent for a reaction).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// The reaction's code (absent for a line of text).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reaction: Option<String>,
    /// When, ms since the Unix epoch (the server's clock).
    pub at: u64,
}

impl ServerMsg {
    /// The message as JSON text.
    #[must_use]
    pub fn to_text(&self) -> String {
        serde_json::to_string(self).unwrap_or_default()
    }

    /// The `error` message of a refusal: its English text, code and arguments.
    #[must_use]
    pub fn refused(refusal: &crate::refusal::Refusal) -> ServerMsg {
        ServerMsg::Error {
            message: refusal.message(),
            code: refusal.code(),
            args: refusal.args(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The examples of `docs/PROTOCOL.md`, byte for byte.
    #[test]
    fn server_messages_are_written_as_documented() {
        let cases = [
            (
                ServerMsg::Welcome {
                    table: "3f2a9c01b4de".into(),
                    seat: Some(2),
                    host: false,
                },
                r#"{"type":"welcome","table":"3f2a9c01b4de","seat":2,"host":false}"#,
            ),
            (
                ServerMsg::Welcome {
                    table: "t".into(),
                    seat: None,
                    host: true,
                },
                r#"{"type":"welcome","table":"t","seat":null,"host":true}"#,
            ),
            (
                ServerMsg::refused(&crate::refusal::Refusal::illegal(
                    "9H",
                    &torite_core::PlayError::MustFollow {
                        led: torite_core::Suit::Spades,
                    },
                )),
                r#"{"type":"error","message":"you must follow spades","code":"must-follow","args":{"suit":{"key":"suit-S"},"action":"9H"}}"#,
            ),
            (ServerMsg::Pong, r#"{"type":"pong"}"#),
            (
                ServerMsg::Replaced { seat: 1 },
                r#"{"type":"replaced","seat":1}"#,
            ),
        ];
        for (msg, text) in cases {
            assert_eq!(msg.to_text(), text);
        }
    }

    #[test]
    fn client_messages_read_as_documented() {
        assert_eq!(
            ClientMsg::read(r#"{"type": "act", "action": "AS", "version": 17}"#),
            Ok(ClientMsg::Act {
                action: "AS".into(),
                version: 17
            })
        );
        assert_eq!(ClientMsg::read(r#"{"type": "ping"}"#), Ok(ClientMsg::Ping));
        assert_eq!(
            ClientMsg::read(r#"{"type": "undo", "version": 9}"#),
            Ok(ClientMsg::Undo { version: 9 })
        );
        assert_eq!(
            ClientMsg::read(r#"{"type": "undo_answer", "accept": false}"#),
            Ok(ClientMsg::UndoAnswer { accept: false })
        );
        // Extra keys are ignored, as before.
        assert_eq!(
            ClientMsg::read(r#"{"type": "ping", "id": 3}"#),
            Ok(ClientMsg::Ping)
        );
    }

    #[test]
    fn bad_client_messages_say_what_is_wrong() {
        let long = format!(r#"{{"type":"{}"}}"#, "x".repeat(40));
        for (text, error) in [
            ("{", ClientError::NotJson),
            ("[1]", ClientError::NoType),
            (r#"{"type": 3}"#, ClientError::NoType),
            (
                r#"{"type": "hello"}"#,
                ClientError::UnknownType("hello".into()),
            ),
            (&long, ClientError::UnknownType("x".repeat(32))),
            (r#"{"type": "act", "version": 1}"#, ClientError::NoAction),
            (
                r#"{"type": "act", "action": 5, "version": 1}"#,
                ClientError::NoAction,
            ),
            (r#"{"type": "act", "action": "AS"}"#, ClientError::NoVersion),
            (
                r#"{"type": "act", "action": "AS", "version": -1}"#,
                ClientError::NoVersion,
            ),
            (
                r#"{"type": "act", "action": "AAAAAAAAAAAAAAAAA", "version": 1}"#,
                ClientError::UnknownAction,
            ),
            (r#"{"type": "undo"}"#, ClientError::NoVersion),
            (
                r#"{"type": "undo", "version": "7"}"#,
                ClientError::NoVersion,
            ),
            (r#"{"type": "undo_answer"}"#, ClientError::NoAccept),
            (
                r#"{"type": "undo_answer", "accept": 1}"#,
                ClientError::NoAccept,
            ),
        ] {
            assert_eq!(ClientMsg::read(text), Err(error), "{text}");
        }
        assert_eq!(
            ClientError::UnknownType("hello".into()).to_string(),
            r#"unknown message type "hello": act, undo, undo_answer, ping, chat or mute"#
        );
    }
}
