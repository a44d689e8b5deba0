//! What the server's integration tests share: a real server on 127.0.0.1.

#![allow(dead_code)]

use std::net::SocketAddr;

use serde_json::Value;
use torite_server::Config;
use torite_server::client::request;

/// A server on its own runtime, so that dropping it stops every task at once, like `kill -9`.
pub struct Server {
    pub addr: SocketAddr,
    runtime: Option<tokio::runtime::Runtime>,
}

impl Server {
    pub fn start(db: &str, config: Config) -> Server {
        let runtime = tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("a runtime");
        let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("a port on 127.0.0.1");
        listener.set_nonblocking(true).expect("non-blocking");
        let addr = listener.local_addr().expect("an address");
        let db = db.to_owned();
        runtime.spawn(async move {
            let listener = tokio::net::TcpListener::from_std(listener).expect("a listener");
            if let Err(e) = torite_server::serve_on(listener, &db, config).await {
                eprintln!("server: {e}");
            }
        });
        Server {
            addr,
            runtime: Some(runtime),
        }
    }

    /// Stops every task of the server at once: nothing is flushed or closed cleanly.
    pub fn kill(mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        if let Some(rt) = self.runtime.take() {
            rt.shutdown_background();
        }
    }
}

/// A POST of `body` as JSON: the status and the JSON answer.
pub async fn post(addr: SocketAddr, path: &str, body: Value) -> (u16, Value) {
    let a = request(addr, "POST", path, Some(&body))
        .await
        .expect("an answer");
    (a.status, a.json())
}

/// A GET: the status and the JSON answer.
pub async fn get(addr: SocketAddr, path: &str) -> (u16, Value) {
    let a = request(addr, "GET", path, None).await.expect("an answer");
    (a.status, a.json())
}
