//! Sending a command to a table's task and waiting for its answer, for the HTTP routes, the
//! sockets and the sweeper alike.

use std::time::Duration;

use tokio::sync::oneshot;

use crate::actor::Cmd;
use crate::refusal::{Refusal, RefusalKind, Why};

/// How long sending a command may wait for room in the table's channel.
const SEND_WAIT: Duration = Duration::from_secs(10);
/// How long the table may take to answer.
const ANSWER_WAIT: Duration = Duration::from_secs(30);

/// Sends a command to a table's task and waits for its answer; a busy refusal when the table
/// does not take it or answer in time.
pub(crate) async fn ask<T>(
    tx: &tokio::sync::mpsc::Sender<Cmd>,
    make: impl FnOnce(oneshot::Sender<Result<T, Refusal>>) -> Cmd,
) -> Result<T, Refusal> {
    let (reply, answer) = oneshot::channel();
    let busy = || Refusal::new(RefusalKind::Busy, Why::TableBusy);
    tokio::time::timeout(SEND_WAIT, tx.send(make(reply)))
        .await
        .map_err(|_| busy())?
        .map_err(|_| busy())?;
    tokio::time::timeout(ANSWER_WAIT, answer)
        .await
        .map_err(|_| busy())?
        .map_err(|_| busy())?
}

/// Sends a command whose answer is not a refusal to a table's task and waits for it; `None`
/// when the table does not answer in time.
pub(crate) async fn ask_plain<T>(
    tx: &tokio::sync::mpsc::Sender<Cmd>,
    make: impl FnOnce(oneshot::Sender<T>) -> Cmd,
) -> Option<T> {
    let (reply, answer) = oneshot::channel();
    tokio::time::timeout(SEND_WAIT, tx.send(make(reply)))
        .await
        .ok()?
        .ok()?;
    tokio::time::timeout(ANSWER_WAIT, answer).await.ok()?.ok()
}
