//! The inspector's HTTP side: `GET /json/list` names the target's
//! WebSocket URL (`ws://HOST:PORT/UUID`). The response is parsed with
//! `httparse`; the body is JSON.

use super::error::InspectorError;
use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::time::Duration;

/// How long one HTTP exchange may take.
const HTTP_TIMEOUT: Duration = Duration::from_secs(5);

/// One target of `/json/list`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    /// `webSocketDebuggerUrl`'s path (`/UUID`).
    pub path: String,
    /// `title` (`node[PID]` for `-e`, else the script).
    pub title: String,
}

/// `GET /json/list` at `addr`; the first target of type `node`.
pub fn list(pid: u32, addr: SocketAddr) -> Result<Listing, InspectorError> {
    let bad = |what: String| InspectorError::Protocol {
        pid,
        addr: addr.to_string(),
        what,
    };
    let mut stream = TcpStream::connect_timeout(&addr, HTTP_TIMEOUT)
        .map_err(|e| bad(format!("connecting: {e}")))?;
    stream
        .set_read_timeout(Some(HTTP_TIMEOUT))
        .map_err(|e| bad(e.to_string()))?;
    write!(
        stream,
        "GET /json/list HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .map_err(|e| bad(format!("sending GET /json/list: {e}")))?;
    let mut buf = Vec::new();
    let body = loop {
        let mut chunk = [0u8; 16 * 1024];
        let n = stream
            .read(&mut chunk)
            .map_err(|e| bad(format!("reading /json/list: {e}")))?;
        buf.extend_from_slice(&chunk[..n]);
        let mut headers = [httparse::EMPTY_HEADER; 32];
        let mut resp = httparse::Response::new(&mut headers);
        match resp.parse(&buf) {
            Ok(httparse::Status::Complete(head)) => {
                if resp.code != Some(200) {
                    return Err(bad(format!(
                        "GET /json/list answered {:?}: not Node's inspector",
                        resp.code
                    )));
                }
                let len: Option<usize> = resp
                    .headers
                    .iter()
                    .find(|h| h.name.eq_ignore_ascii_case("content-length"))
                    .and_then(|h| std::str::from_utf8(h.value).ok()?.trim().parse().ok());
                match len {
                    Some(len) if buf.len() >= head + len => break buf[head..head + len].to_vec(),
                    None if n == 0 => break buf[head..].to_vec(),
                    _ if n == 0 => return Err(bad("/json/list: the answer was cut short".into())),
                    _ => {}
                }
            }
            Ok(httparse::Status::Partial) if n == 0 => {
                return Err(bad("/json/list: the answer was cut short".into()));
            }
            Ok(httparse::Status::Partial) => {}
            Err(e) => return Err(bad(format!("/json/list: not HTTP ({e})"))),
        }
    };
    parse_list(&body).map_err(bad)
}

/// The first `node` target of a `/json/list` body.
///
/// ```
/// use sluice_scope::inspector::discover::parse_list;
/// let body = br#"[{"type":"node","title":"node[7]","webSocketDebuggerUrl":"ws://127.0.0.1:9229/ab-cd"}]"#;
/// assert_eq!(parse_list(body).unwrap().path, "/ab-cd");
/// assert!(parse_list(b"[]").is_err());
/// ```
pub fn parse_list(body: &[u8]) -> Result<Listing, String> {
    let v: serde_json::Value = serde_json::from_slice(body)
        .map_err(|e| format!("/json/list is not JSON ({e}): not Node's inspector"))?;
    let target = v
        .as_array()
        .and_then(|a| a.iter().find(|t| t["type"] == "node"))
        .ok_or("/json/list names no target of type node: not Node's inspector")?;
    let url = target["webSocketDebuggerUrl"].as_str().ok_or(
        "/json/list's target has no webSocketDebuggerUrl: another debugger is attached in the old single-client mode",
    )?;
    let path = url
        .strip_prefix("ws://")
        .and_then(|rest| rest.find('/').map(|i| rest[i..].to_string()))
        .ok_or_else(|| format!("webSocketDebuggerUrl {url:?} is not ws://HOST:PORT/PATH"))?;
    Ok(Listing {
        path,
        title: target["title"].as_str().unwrap_or("").to_string(),
    })
}
