//! [`ChildRunner`]: the parent's side of the child protocol. It starts a
//! subject's child (stdin closed, stdout and stderr captured), ticks a
//! [`Watch`] while it runs, kills it past the lab's timeout, reads the JSON
//! document it printed last, and runs children inside a network namespace
//! (the DNS experiments). It owns the run's scratch directory, where node
//! scripts, Go builds, FIFOs and stats files go.

use anyhow::{Context, bail};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Called while a child runs, to watch it from outside (e.g. the FIFO
/// holder of the wait staircase).
pub trait Watch {
    /// One step: look at the child `pid`; `lines` are the stdout lines it
    /// printed since the last step. Should return within a millisecond or so.
    fn tick(&mut self, pid: u32, lines: &[String]) -> anyhow::Result<()>;
}

/// How one lab run starts its children, and where their files go.
pub struct ChildRunner {
    exe: PathBuf,
    timeout: Duration,
    scratch: tempfile::TempDir,
    /// Numbers the stats files of namespaced runs.
    netns_runs: AtomicUsize,
}

impl ChildRunner {
    /// A runner re-executing `exe` (the `sluice` binary) for the Rust
    /// subjects, killing a child after `timeout`, with a fresh scratch
    /// directory.
    pub fn new(exe: PathBuf, timeout: Duration) -> anyhow::Result<ChildRunner> {
        Ok(ChildRunner {
            exe,
            timeout,
            scratch: tempfile::Builder::new().prefix("sluice-lab-").tempdir()?,
            netns_runs: AtomicUsize::new(0),
        })
    }

    /// The `sluice` binary.
    pub fn exe(&self) -> &Path {
        &self.exe
    }

    /// A directory for this run's scratch files (FIFOs, data files).
    pub fn scratch(&self) -> &Path {
        self.scratch.path()
    }

    /// Writes `experiment`'s node script into the scratch directory (once)
    /// and returns its path.
    pub fn node_script(&self, experiment: &str) -> anyhow::Result<PathBuf> {
        let script = crate::experiment::workload_source(experiment, "node script", |w| w.node)?;
        let path = self.scratch().join(format!("{experiment}.js"));
        if !path.exists() {
            std::fs::write(&path, script).with_context(|| format!("writing {}", path.display()))?;
        }
        Ok(path)
    }

    /// Runs `inner` inside a private network and mount namespace whose
    /// only name server is a DNS delay server configured as `server` (see
    /// [`sluice_testnet::netns`]), like [`ChildRunner::run_command`].
    /// Returns the child's JSON and the server's counts; fails if the
    /// machine's `/etc/resolv.conf` changed (it never should). The PID
    /// `watch` gets is `sluice lab-netns`'s, the child's parent.
    pub fn run_in_netns(
        &self,
        inner: &Command,
        what: &str,
        server: &sluice_testnet::dns_delay::DelayConfig,
        watch: Option<&mut dyn Watch>,
    ) -> anyhow::Result<(Value, sluice_testnet::dns_delay::Stats)> {
        let guard = sluice_testnet::netns::HostGuard::snapshot();
        let stats = self.scratch().join(format!(
            "dns-stats-{}.json",
            self.netns_runs.fetch_add(1, Ordering::Relaxed)
        ));
        let cmd = sluice_testnet::netns::wrap(self.exe(), inner, server, &stats);
        let result = self.run_command(cmd, what, watch);
        let counts = sluice_testnet::netns::finish(&stats, &guard);
        let result = result?;
        Ok((result, counts.with_context(|| what.to_string())?))
    }

    /// Runs `cmd` as a child (stdin closed, stdout and stderr captured,
    /// the lab's timeout) and returns the JSON document it printed last;
    /// `watch`, if given, is ticked while it runs.
    pub fn run_command(
        &self,
        mut cmd: Command,
        what: &str,
        mut watch: Option<&mut dyn Watch>,
    ) -> anyhow::Result<Value> {
        let Captured {
            mut child,
            lines: line_rx,
            stdout: out_reader,
            stderr: err_reader,
        } = spawn_captured(&mut cmd, what)?;
        let pid = child.id();
        let start = Instant::now();
        let mut pending = Vec::new();
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break status;
            }
            if start.elapsed() > self.timeout {
                let _ = child.kill();
                let _ = child.wait();
                bail!("{what} did not finish within {:?}; killed it", self.timeout);
            }
            pending.extend(line_rx.try_iter());
            match watch.as_deref_mut() {
                Some(w) => {
                    if let Err(e) = w.tick(pid, &pending) {
                        let _ = child.kill();
                        let _ = child.wait();
                        return Err(e.context(format!("watching {what}")));
                    }
                    pending.clear();
                }
                None => std::thread::sleep(Duration::from_millis(2)),
            }
        };
        let lines = out_reader.join().unwrap_or_default();
        let stderr = err_reader.join().unwrap_or_default();
        if !status.success() {
            bail!("{what} failed ({status}):\n{}", tail(&stderr, 2000));
        }
        let last = lines
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .with_context(|| format!("{what} printed nothing; stderr:\n{}", tail(&stderr, 2000)))?;
        serde_json::from_str(last)
            .with_context(|| format!("{what} printed no JSON result: {last:?}"))
    }
}

/// The last `max` bytes of `s` (from a character boundary).
pub(crate) fn tail(s: &str, max: usize) -> &str {
    let start = s.len().saturating_sub(max);
    let mut i = start;
    while !s.is_char_boundary(i) {
        i += 1;
    }
    &s[i..]
}

/// A child whose stdin is closed and whose output is read on threads of
/// its own: stdout line by line (each line sent on `lines` as it comes, and
/// all of them returned by `stdout`), stderr whole.
pub(crate) struct Captured {
    /// The child.
    pub(crate) child: std::process::Child,
    /// Its stdout, a line at a time, as it prints them.
    pub(crate) lines: mpsc::Receiver<String>,
    /// Every line of its stdout, once it has closed it.
    pub(crate) stdout: std::thread::JoinHandle<Vec<String>>,
    /// Its stderr, once it has closed it.
    pub(crate) stderr: std::thread::JoinHandle<String>,
}

/// Starts `cmd` as a [`Captured`] child; `what` names it in the error.
pub(crate) fn spawn_captured(cmd: &mut Command, what: &str) -> anyhow::Result<Captured> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .with_context(|| format!("starting {what}: {cmd:?}"))?;
    let out = child.stdout.take().expect("stdout is piped");
    let (tx, lines) = mpsc::channel();
    let stdout = std::thread::spawn(move || {
        let mut all = Vec::new();
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            let _ = tx.send(line.clone());
            all.push(line);
        }
        all
    });
    let mut err = child.stderr.take().expect("stderr is piped");
    let stderr = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    Ok(Captured {
        child,
        lines,
        stdout,
        stderr,
    })
}
