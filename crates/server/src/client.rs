//! A small client of the server's protocol, for the load test and the integration tests:
//! HTTP/1.1 requests with JSON bodies over a plain TCP connection, and WebSocket sessions.

use std::net::SocketAddr;
use std::time::Duration;

use futures_util::{SinkExt, StreamExt};
use serde_json::Value;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::tungstenite::protocol::WebSocketConfig;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// How long [`Session::next_brief`] lets a socket be quiet before it pings the server (the
/// browser's figure).
pub const PING_AFTER: Duration = Duration::from_secs(20);
/// How long [`Session::next_brief`] waits for anything at all (a message, a ping, the answer
/// to its ping) before it takes the socket for broken (the browser's figure).
pub const SILENCE_LIMIT: Duration = Duration::from_secs(30);
/// The longest [`Session::next_brief`] waits for a message on a live socket.
pub const QUIET_LIMIT: Duration = Duration::from_secs(120);

/// An HTTP answer: status, headers and body.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Answer {
    /// The status code.
    pub status: u16,
    /// The headers, names in lower case, in the order received.
    pub headers: Vec<(String, String)>,
    /// The body as text.
    pub body: String,
}

impl Answer {
    /// The first header of that name (lower case), if any.
    #[must_use]
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }

    /// The body parsed as JSON (`null` if it is not JSON).
    #[must_use]
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or(Value::Null)
    }
}

/// Sends one HTTP/1.1 request (`Connection: close`) and reads the whole answer.
///
/// # Errors
///
/// The connection fails, or the answer is not HTTP.
pub async fn request(
    addr: SocketAddr,
    method: &str,
    path: &str,
    body: Option<&Value>,
) -> Result<Answer, String> {
    let body = body.map(Value::to_string).unwrap_or_default();
    let request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    raw(addr, request.as_bytes()).await
}

/// Sends raw bytes as a request and reads the whole answer (for malformed-request tests).
///
/// # Errors
///
/// The connection fails, or the answer is not HTTP.
pub async fn raw(addr: SocketAddr, request: &[u8]) -> Result<Answer, String> {
    let mut stream = TcpStream::connect(addr).await.map_err(|e| e.to_string())?;
    stream.write_all(request).await.map_err(|e| e.to_string())?;
    let mut bytes = Vec::new();
    tokio::time::timeout(Duration::from_secs(30), stream.read_to_end(&mut bytes))
        .await
        .map_err(|_| "no answer within 30 s".to_owned())?
        .map_err(|e| e.to_string())?;
    let text = String::from_utf8_lossy(&bytes);
    let (head, rest) = text
        .split_once("\r\n\r\n")
        .ok_or_else(|| format!("not an HTTP answer: {text:?}"))?;
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .ok_or_else(|| format!("no status in {head:?}"))?;
    let headers: Vec<(String, String)> = head
        .lines()
        .skip(1)
        .filter_map(|l| l.split_once(':'))
        .map(|(k, v)| (k.trim().to_ascii_lowercase(), v.trim().to_owned()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(k, v)| k == "transfer-encoding" && v.eq_ignore_ascii_case("chunked"));
    let body = if chunked {
        dechunk(rest)
    } else {
        rest.to_owned()
    };
    Ok(Answer {
        status,
        headers,
        body,
    })
}

fn dechunk(mut text: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = text.split_once("\r\n") {
        let Ok(n) = usize::from_str_radix(size.trim(), 16) else {
            break;
        };
        if n == 0 || rest.len() < n {
            break;
        }
        out.push_str(&rest[..n]);
        text = rest[n..].trim_start_matches("\r\n");
    }
    out
}

/// The parts of a server message that a playing client needs, read without building a
/// JSON tree (the load test's clients).
#[derive(Clone, PartialEq, Eq, Debug, Default, serde::Deserialize)]
pub struct Brief {
    /// The message type.
    #[serde(rename = "type")]
    pub kind: String,
    /// A state's version.
    #[serde(default)]
    pub version: u64,
    /// Whether the game has ended.
    #[serde(default)]
    pub finished: bool,
    /// The legal actions of the receiving seat.
    #[serde(default)]
    pub legal: Vec<String>,
    /// An error's code.
    #[serde(default)]
    pub code: String,
    /// An error's arguments.
    #[serde(default)]
    pub args: Value,
}

/// A WebSocket session with a table.
#[derive(Debug)]
pub struct Session {
    socket: WebSocketStream<MaybeTlsStream<TcpStream>>,
    /// The latest state received.
    pub state: Value,
    /// The welcome message.
    pub welcome: Value,
}

impl Session {
    /// Connects to a table, as a seat (with its token) or as a spectator, and waits for the
    /// welcome and the first state.
    ///
    /// # Errors
    ///
    /// The connection or the handshake fails (e.g. a 403 for a bad token).
    pub async fn connect(
        addr: SocketAddr,
        table: &str,
        token: Option<&str>,
    ) -> Result<Session, String> {
        let url = match token {
            Some(t) => format!("ws://{addr}/ws/{table}?token={t}"),
            None => format!("ws://{addr}/ws/{table}"),
        };
        // The WebSocket layer clears its whole read buffer before each read: keep it near the
        // size of a typical state message (1 to 2 KiB) rather than the default 128 KiB; a
        // larger message takes more reads.
        let config = WebSocketConfig::default().read_buffer_size(4 * 1024);
        // A server whose machine is gone, or cut off, may accept the connection and never
        // answer: the handshake is given a bounded time.
        let (socket, _) = tokio::time::timeout(
            Duration::from_secs(10),
            // TCP_NODELAY, as the server sets it: an action is sent at once.
            tokio_tungstenite::connect_async_with_config(url, Some(config), true),
        )
        .await
        .map_err(|_| "no answer to the WebSocket handshake within 10 s".to_owned())?
        .map_err(|e| e.to_string())?;
        let mut session = Session {
            socket,
            state: Value::Null,
            welcome: Value::Null,
        };
        session.welcome = session.next().await?;
        let state = session.next().await?;
        session.state = state;
        Ok(session)
    }

    /// The next message (a `state` message also becomes [`Session::state`]).
    ///
    /// # Errors
    ///
    /// The socket closed or failed, or nothing came within 30 s.
    pub async fn next(&mut self) -> Result<Value, String> {
        loop {
            let msg = tokio::time::timeout(Duration::from_secs(30), self.socket.next())
                .await
                .map_err(|_| "no message within 30 s".to_owned())?
                .ok_or_else(|| "the socket closed".to_owned())?
                .map_err(|e| e.to_string())?;
            match msg {
                Message::Text(text) => {
                    let value: Value = serde_json::from_str(text.as_str())
                        .map_err(|e| format!("not JSON: {e}"))?;
                    if value["type"] == "state" {
                        self.state = value.clone();
                    }
                    return Ok(value);
                }
                Message::Close(_) => return Err("the socket closed".to_owned()),
                _ => {}
            }
        }
    }

    /// The next message, read as a [`Brief`] ([`Session::state`] is not updated). It waits
    /// as the browser does: a socket quiet for [`PING_AFTER`] is pinged, and only one from
    /// which nothing at all (not even the answer to the ping) has come for [`SILENCE_LIMIT`]
    /// is taken for broken, so that a table that is quiet (not started yet, or waiting for a
    /// slow seat) is not mistaken for a lost node. A table that sends no message at all for
    /// [`QUIET_LIMIT`] is an error too.
    ///
    /// # Errors
    ///
    /// The socket closed or failed, nothing came within [`SILENCE_LIMIT`], or no message
    /// within [`QUIET_LIMIT`].
    pub async fn next_brief(&mut self) -> Result<Brief, String> {
        let asked = tokio::time::Instant::now();
        let mut heard = asked;
        let mut pinged = false;
        loop {
            let wake = if pinged {
                heard + SILENCE_LIMIT
            } else {
                heard + PING_AFTER
            }
            .min(asked + QUIET_LIMIT);
            let Ok(frame) = tokio::time::timeout_at(wake, self.socket.next()).await else {
                if tokio::time::Instant::now() >= asked + QUIET_LIMIT {
                    return Err(format!("no message within {} s", QUIET_LIMIT.as_secs()));
                }
                if pinged {
                    return Err(format!(
                        "nothing within {} s, not even the answer to a ping",
                        SILENCE_LIMIT.as_secs()
                    ));
                }
                self.socket
                    .send(Message::Ping(Vec::new().into()))
                    .await
                    .map_err(|e| e.to_string())?;
                pinged = true;
                continue;
            };
            let msg = frame
                .ok_or_else(|| "the socket closed".to_owned())?
                .map_err(|e| e.to_string())?;
            heard = tokio::time::Instant::now();
            pinged = false;
            match msg {
                Message::Text(text) => {
                    return serde_json::from_str(text.as_str())
                        .map_err(|e| format!("not JSON: {e}"));
                }
                Message::Close(_) => return Err("the socket closed".to_owned()),
                _ => {}
            }
        }
    }

    /// Sends an action answering the state of `version`.
    ///
    /// # Errors
    ///
    /// The socket failed.
    pub async fn act_at(&mut self, action: &str, version: u64) -> Result<(), String> {
        let msg = serde_json::json!({"type": "act", "action": action, "version": version});
        self.send_text(&msg.to_string()).await
    }

    /// Waits for a state message that satisfies `pred`, returning it.
    ///
    /// # Errors
    ///
    /// As [`Session::next`].
    pub async fn until(&mut self, mut pred: impl FnMut(&Value) -> bool) -> Result<Value, String> {
        if pred(&self.state) {
            return Ok(self.state.clone());
        }
        loop {
            let msg = self.next().await?;
            if msg["type"] == "state" && pred(&msg) {
                return Ok(msg);
            }
        }
    }

    /// Waits for a state message that satisfies `pred`, as [`Session::until`] does, but gives
    /// up at the first `error` message: for a client that expects none, so that a refusal
    /// shows as itself rather than as a wait for a state that never comes.
    ///
    /// # Errors
    ///
    /// As [`Session::next`], or the server sent an error message (returned whole, as text).
    pub async fn until_unrefused(
        &mut self,
        mut pred: impl FnMut(&Value) -> bool,
    ) -> Result<Value, String> {
        if pred(&self.state) {
            return Ok(self.state.clone());
        }
        loop {
            let msg = self.next().await?;
            if msg["type"] == "error" {
                return Err(format!("the server refused: {msg}"));
            }
            if msg["type"] == "state" && pred(&msg) {
                return Ok(msg);
            }
        }
    }

    /// Sends a text message as it is.
    ///
    /// # Errors
    ///
    /// The socket failed.
    pub async fn send_text(&mut self, text: &str) -> Result<(), String> {
        self.socket
            .send(Message::text(text))
            .await
            .map_err(|e| e.to_string())
    }

    /// Sends an action answering the latest state.
    ///
    /// # Errors
    ///
    /// The socket failed.
    pub async fn act(&mut self, action: &str) -> Result<(), String> {
        let version = self.state["version"].as_u64().unwrap_or(0);
        let msg = serde_json::json!({"type": "act", "action": action, "version": version});
        self.send_text(&msg.to_string()).await
    }

    /// Whether this seat is to act in the latest state.
    #[must_use]
    pub fn my_turn(&self) -> bool {
        self.state["legal"]
            .as_array()
            .is_some_and(|legal| !legal.is_empty())
    }

    /// Closes the socket.
    pub async fn close(mut self) {
        let _ = self.socket.close(None).await;
    }
}
