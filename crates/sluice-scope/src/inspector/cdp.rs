//! [`Cdp`]: a DevTools protocol client over one WebSocket (`tungstenite`,
//! which does the framing): commands `{id, method, params}` and their
//! answers `{id, result}` / `{id, error}`; events (messages without an
//! `id`) are skipped.

use super::error::InspectorError;
use serde_json::{Value, json};
use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};
use tungstenite::protocol::WebSocketConfig;
use tungstenite::{Message, WebSocket};

/// The largest message accepted: a long profile of a big program is tens
/// of megabytes; past this the profile is refused, not cut.
pub(crate) const MAX_MESSAGE: usize = 1 << 30;

/// A connected DevTools session.
pub(crate) struct Cdp {
    ws: WebSocket<TcpStream>,
    pid: u32,
    addr: SocketAddr,
    next_id: u64,
    alive: Box<dyn Fn() -> bool + Send>,
}

impl std::fmt::Debug for Cdp {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Cdp")
            .field("pid", &self.pid)
            .field("addr", &self.addr)
            .finish_non_exhaustive()
    }
}

impl Cdp {
    /// Opens the WebSocket at `ws://addr{path}` (call it inside the
    /// target's network namespace). `alive` tells an exited process from a
    /// broken connection.
    pub(crate) fn connect(
        pid: u32,
        addr: SocketAddr,
        path: &str,
        alive: Box<dyn Fn() -> bool + Send>,
    ) -> Result<Cdp, InspectorError> {
        let bad = |what: String| InspectorError::Protocol {
            pid,
            addr: addr.to_string(),
            what,
        };
        let stream = TcpStream::connect_timeout(&addr, Duration::from_secs(5))
            .map_err(|e| bad(format!("connecting: {e}")))?;
        stream
            .set_read_timeout(Some(Duration::from_secs(5)))
            .map_err(|e| bad(e.to_string()))?;
        let config = WebSocketConfig::default()
            .max_message_size(Some(MAX_MESSAGE))
            .max_frame_size(Some(MAX_MESSAGE));
        let url = format!("ws://{addr}{path}");
        let (ws, _) = tungstenite::client::client_with_config(url.as_str(), stream, Some(config))
            .map_err(|e| bad(format!("WebSocket handshake at {url}: {e}")))?;
        Ok(Cdp {
            ws,
            pid,
            addr,
            next_id: 1,
            alive,
        })
    }

    fn exited_or(&self, when: &str, what: String) -> InspectorError {
        // A killed process closes its sockets before /proc shows it gone
        // (the kernel tears the files down first, then the state becomes
        // Z): give a dying target up to half a second to show it.
        let mut alive = (self.alive)();
        for _ in 0..10 {
            if !alive {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
            alive = (self.alive)();
        }
        if alive {
            InspectorError::Protocol {
                pid: self.pid,
                addr: self.addr.to_string(),
                what,
            }
        } else {
            InspectorError::Exited {
                pid: self.pid,
                when: when.to_string(),
            }
        }
    }

    /// Sends `method` without waiting for its answer (for a command that
    /// closes the connection).
    pub(crate) fn send(&mut self, method: &str, params: Value) -> Result<(), InspectorError> {
        let id = self.next_id;
        self.next_id += 1;
        let text = json!({"id": id, "method": method, "params": params}).to_string();
        self.ws.send(Message::text(text)).map_err(|e| {
            self.exited_or(
                &format!("sending {method}"),
                format!("sending {method}: {e}"),
            )
        })
    }

    /// Calls `method` and waits up to `timeout` for its result.
    pub(crate) fn call(
        &mut self,
        method: &str,
        params: Value,
        timeout: Duration,
    ) -> Result<Value, InspectorError> {
        let id = self.next_id;
        self.send(method, params)?;
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return Err(InspectorError::Timeout {
                    pid: self.pid,
                    method: method.to_string(),
                    secs: timeout.as_secs(),
                });
            }
            let _ = self.ws.get_ref().set_read_timeout(Some(left));
            let msg = match self.ws.read() {
                Ok(m) => m,
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) =>
                {
                    continue;
                }
                Err(e) => {
                    return Err(self.exited_or(
                        &format!("while scope waited for {method}"),
                        format!("waiting for {method}: {e}"),
                    ));
                }
            };
            let text = match msg {
                Message::Text(t) => t,
                Message::Close(_) => {
                    return Err(self.exited_or(
                        &format!("while scope waited for {method}"),
                        format!("the inspector closed the connection while {method} ran"),
                    ));
                }
                _ => continue,
            };
            let v: Value =
                serde_json::from_str(text.as_str()).map_err(|e| InspectorError::Protocol {
                    pid: self.pid,
                    addr: self.addr.to_string(),
                    what: format!("a message that is not JSON: {e}"),
                })?;
            if v["id"].as_u64() != Some(id) {
                continue; // an event, or an answer to a command sent without waiting
            }
            if let Some(err) = v.get("error") {
                return Err(InspectorError::Command {
                    pid: self.pid,
                    method: method.to_string(),
                    message: err["message"].as_str().unwrap_or("").to_string(),
                });
            }
            return Ok(v.get("result").cloned().unwrap_or(Value::Null));
        }
    }

    /// Reads until the inspector closes the connection, or `timeout`.
    /// Returns whether it closed.
    pub(crate) fn wait_closed(&mut self, timeout: Duration) -> bool {
        let deadline = Instant::now() + timeout;
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            let _ = self.ws.get_ref().set_read_timeout(Some(left));
            match self.ws.read() {
                Ok(Message::Close(_)) => {
                    let _ = self.ws.flush();
                }
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut
                    ) => {}
                Err(_) => return true,
            }
        }
    }

    /// Closes the WebSocket politely (the inspector stays as it was).
    pub(crate) fn close(mut self) {
        let _ = self.ws.close(None);
        let _ = self.wait_closed(Duration::from_secs(2));
    }
}
