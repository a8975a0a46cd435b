//! [`ServerChild`]: a server a cell drives (http's twins and `sluice
//! serve`, app's Express app): started captured, waited on until it says
//! where it listens, stopped with SIGTERM.

use super::runner::{Captured, spawn_captured};
use anyhow::bail;
use serde_json::Value;
use std::process::{Child, Command, ExitStatus};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A server child listening on a loopback port.
pub(crate) struct ServerChild {
    child: Child,
    /// The port it said it listens on.
    pub(crate) port: u16,
    /// What it is, for errors (`node server (pool 4)`).
    pub(crate) what: String,
    stderr: std::thread::JoinHandle<String>,
}

impl ServerChild {
    /// Starts `cmd` and waits up to 30 s for its "listening" line (either
    /// form, [`listening_port`]); kills it if none comes.
    pub(crate) fn start(mut cmd: Command, what: String) -> anyhow::Result<ServerChild> {
        let Captured {
            mut child,
            lines,
            stderr,
            ..
        } = spawn_captured(&mut cmd, &format!("the {what}"))?;
        let started = Instant::now();
        let port = loop {
            match lines.recv_timeout(Duration::from_millis(50)) {
                Ok(line) => {
                    if let Some(port) = listening_port(&line) {
                        break port;
                    }
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    let _ = child.wait();
                    bail!(
                        "the {what} exited before listening: {}",
                        stderr.join().unwrap_or_default()
                    );
                }
            }
            if started.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                let _ = child.wait();
                bail!("the {what} did not start listening within 30 s");
            }
        };
        Ok(ServerChild {
            child,
            port,
            what,
            stderr,
        })
    }

    /// Its process ID.
    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }

    /// SIGTERM, then wait up to 30 s for it to exit (killed after that, an
    /// error); its exit status and stderr.
    pub(crate) fn stop(mut self) -> anyhow::Result<(ExitStatus, String)> {
        let pid = nix::unistd::Pid::from_raw(self.child.id() as i32);
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
        let t = Instant::now();
        let status = loop {
            if let Some(s) = self.child.try_wait()? {
                break s;
            }
            if t.elapsed() > Duration::from_secs(30) {
                let _ = self.child.kill();
                let _ = self.child.wait();
                bail!("the {} did not exit within 30 s of SIGTERM", self.what);
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        Ok((status, self.stderr.join().unwrap_or_default()))
    }
}

/// The port of a "listening" line of either server: the Node and Go twins'
/// JSON `{"event":"listening","port":N}`, `sluice serve`'s
/// `listening on http://ADDR`.
pub(crate) fn listening_port(line: &str) -> Option<u16> {
    if let Ok(v) = serde_json::from_str::<Value>(line)
        && v["event"] == "listening"
    {
        return v["port"].as_u64().and_then(|p| u16::try_from(p).ok());
    }
    let rest = line.split("listening on http://").nth(1)?;
    let addr = rest.split_whitespace().next()?;
    addr.parse::<std::net::SocketAddr>().ok().map(|a| a.port())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_servers_listening_lines() {
        assert_eq!(
            listening_port(r#"{"event":"listening","port":4321,"pool":4}"#),
            Some(4321)
        );
        assert_eq!(
            listening_port("sluice serve: listening on http://127.0.0.1:8080 (cpu 2 threads)"),
            Some(8080)
        );
        assert_eq!(listening_port("something else"), None);
    }
}
