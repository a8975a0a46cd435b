//! A `sluice serve` child on a free loopback port, and plain HTTP/1.1 GETs
//! over `std::net` (one connection per request, `Connection: close`).

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Serve's flags for the lane tests: one Cpu thread, logins of 1000
/// iterations, and the diagnostic routes (`/hold`, `/release`, `/block`).
pub const ONE_CPU: &[&str] = &[
    "--cpu-threads",
    "1",
    "--login-iterations",
    "1000",
    "--diagnostic-routes",
];

/// A running `sluice serve --listen 127.0.0.1:0 ARGS`.
pub struct Serve {
    pub child: Child,
    pub port: u16,
    /// Lines the server printed after the listening line.
    pub lines: mpsc::Receiver<String>,
}

impl Serve {
    /// Starts the server and waits for its listening line.
    pub fn start(args: &[&str]) -> Serve {
        let mut cmd = super::sluice();
        cmd.args(["serve", "--listen", "127.0.0.1:0"]).args(args);
        Serve::start_command(cmd)
    }

    /// Starts `cmd` (a `sluice serve --listen 127.0.0.1:0 ...`, perhaps
    /// under a wrapper such as `prlimit`) and waits for its listening line.
    pub fn start_command(mut cmd: std::process::Command) -> Serve {
        let mut child = cmd
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::inherit())
            .spawn()
            .unwrap();
        let (tx, lines) = mpsc::channel();
        let stdout = child.stdout.take().unwrap();
        std::thread::spawn(move || {
            for l in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = tx.send(l);
            }
        });
        let first = lines
            .recv_timeout(Duration::from_secs(60))
            .expect("sluice serve printed its listening line");
        let addr = first
            .split("listening on http://")
            .nth(1)
            .and_then(|r| r.split_whitespace().next())
            .unwrap_or_else(|| panic!("no address in {first:?}"));
        let port = addr.rsplit(':').next().unwrap().parse().unwrap();
        Serve { child, port, lines }
    }

    /// The URL of `path`.
    pub fn url(&self, path: &str) -> String {
        format!("http://127.0.0.1:{}{path}", self.port)
    }

    /// GET `path`: (status, body).
    pub fn get(&self, path: &str) -> (u16, String) {
        get(self.port, path)
    }

    /// One series of `/metrics`, e.g. `sluice_queue_depth{lane="cpu"}`.
    pub fn metric(&self, series: &str) -> f64 {
        let (_, text) = self.get("/metrics");
        text.lines()
            .find_map(|l| l.strip_prefix(series)?.trim().parse().ok())
            .unwrap_or_else(|| panic!("no {series} in:\n{text}"))
    }

    /// Polls `/metrics` until `series` equals `want` (a count, so no
    /// sleeping for a guessed time).
    pub fn wait_metric(&self, series: &str, want: f64) {
        let t = Instant::now();
        loop {
            let v = self.metric(series);
            if v == want {
                return;
            }
            assert!(
                t.elapsed() < Duration::from_secs(120),
                "{series} stayed {v}, wanted {want}"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// Holds the Cpu lane's one thread (a `/hold` until `/release`, or
    /// shutdown): returns once it is in flight; the handle answers the hold's
    /// (status, body).
    pub fn hold(&self) -> std::thread::JoinHandle<(u16, String)> {
        let port = self.port;
        let hold = std::thread::spawn(move || get(port, "/hold"));
        self.wait_metric("sluice_in_flight{lane=\"cpu\"}", 1.0);
        hold
    }

    /// Sends `n` `/login`s at once behind a [`Serve::hold`]: returns once
    /// all are queued; the handle answers their statuses.
    pub fn queue_logins(&self, n: usize) -> std::thread::JoinHandle<Vec<u16>> {
        let port = self.port;
        let logins = std::thread::spawn(move || get_many(port, "/login", n));
        self.wait_metric("sluice_queue_depth{lane=\"cpu\"}", n as f64);
        logins
    }

    /// SIGTERM.
    pub fn terminate(&self) {
        let pid = nix::unistd::Pid::from_raw(self.child.id() as i32);
        nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM).unwrap();
    }

    /// Waits for the exit; returns (exit code, the lines printed).
    pub fn wait(mut self) -> (Option<i32>, Vec<String>) {
        let status = self.child.wait().unwrap();
        (status.code(), self.lines.try_iter().collect())
    }

    /// Waits at most `limit` for the exit; `None` (and the server killed)
    /// if it is still running then.
    pub fn wait_at_most(mut self, limit: Duration) -> Option<(Option<i32>, Vec<String>)> {
        let t = Instant::now();
        while t.elapsed() < limit {
            if let Some(status) = self.child.try_wait().unwrap() {
                return Some((status.code(), self.lines.try_iter().collect()));
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        None
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// GET `path` on 127.0.0.1:`port`: (status, body).
pub fn get(port: u16, path: &str) -> (u16, String) {
    let (status, _, body) = get_full(port, path);
    (status, body)
}

/// GET `path` on 127.0.0.1:`port`: (status, head, body).
pub fn get_full(port: u16, path: &str) -> (u16, String, String) {
    let mut s = TcpStream::connect(("127.0.0.1", port)).unwrap();
    write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut raw = Vec::new();
    s.read_to_end(&mut raw).unwrap();
    let text = String::from_utf8_lossy(&raw).into_owned();
    let status = text
        .split_whitespace()
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line in {text:?}"));
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or((&text, ""));
    (status, head.to_string(), body.to_string())
}

/// GETs `path` from `n` threads at once; returns the statuses.
pub fn get_many(port: u16, path: &str, n: usize) -> Vec<u16> {
    let threads: Vec<_> = (0..n)
        .map(|_| {
            let path = path.to_string();
            std::thread::spawn(move || get(port, &path).0)
        })
        .collect();
    threads.into_iter().map(|t| t.join().unwrap()).collect()
}
