//! Probe mode (`--probe`, root): uprobes on libuv's pool give what /proc
//! cannot: per request, when it was submitted, started and finished, and
//! its kind. Hence queue depth, queue wait and run time per libuv kind
//! (CPU, fast I/O, slow I/O) and submissions per second.
//!
//! - `sites.rs`: where the probes go (symbols plus the machine code of
//!   `worker` and `uv__work_done`).
//! - `tracefs.rs`: the kernel side: defining, recording, removing.
//! - `events.rs`: parsing what the kernel records.
//! - `stats.rs`: following requests per kind, the per-window report.
//!
//! **Why tracefs uprobes, not eBPF.** A uprobe event defined in
//! `uprobe_events` fetches the registers it needs (`%rsi`, `%edx`, `%rdi`)
//! and the kernel records them with thread, process and a monotonic
//! timestamp in a ring buffer of a private tracefs instance; scope reads
//! its text. That needs root and a kernel with `CONFIG_UPROBE_EVENTS`,
//! nothing else: no BPF compiler, no BPF loader crate, no kernel headers,
//! no BTF. The cost is one trap per probed call (a few microseconds) and
//! text parsing in scope; eBPF would aggregate in the kernel and copy less,
//! which matters above some hundred thousand pool requests per second.
//!
//! **Cleanup.** Every probe belongs to one group, `sluice_<PID>_<N>`, and is
//! recorded only in the instance of the same name. [`ProbeSession`]
//! removes both when it ends: normally, on Ctrl-C and on SIGTERM (the
//! faces stop their loop and drop the session), when the watched process
//! exits (its threads disappear; the session ends), and on a panic (the
//! `Drop` runs while unwinding). A SIGKILL of scope itself leaves them;
//! the next probe session sweeps groups whose owner is gone.
//!
//! uprobes are per file, not per process: while scope runs, every process
//! running the same node binary traps on the probed instructions; the
//! instance records only the watched process's threads (`set_event_pid`,
//! and the parser checks the process id again).

pub mod events;
pub(crate) mod sites;
pub mod stats;
pub mod tracefs;

pub use sites::Site;
pub use stats::{Kind, KindReport, ProbeReport};

use crate::error::ProbeRefusal;
use crate::target::Target;
use std::fs::File;
use std::io::Read;
use std::sync::atomic::{AtomicU32, Ordering};
use tracefs::Tracefs;

/// Sessions started by this process, to name each group uniquely.
static SESSIONS: AtomicU32 = AtomicU32::new(0);

/// Checks what can be checked without touching the kernel: architecture,
/// root, symbols and code shapes. Returns the probe sites.
pub fn preflight(target: &Target) -> Result<Vec<sites::Site>, ProbeRefusal> {
    if !cfg!(target_arch = "x86_64") {
        return Err(ProbeRefusal::Arch {
            arch: std::env::consts::ARCH,
        });
    }
    let euid = rustix::process::geteuid().as_raw();
    if euid != 0 {
        return Err(ProbeRefusal::NotRoot { euid });
    }
    sites::sites(&target.image)
}

/// Uprobes on one process's pool, recording into a private instance.
#[derive(Debug)]
pub struct ProbeSession {
    tracefs: Tracefs,
    group: String,
    pipe: Option<File>,
    partial: Vec<u8>,
    tgid: u32,
    stats: stats::Stats,
    events_seen: u64,
    removed: bool,
}

impl ProbeSession {
    /// Defines the probes on `target`'s libuv and starts recording.
    pub fn attach(target: &Target) -> Result<ProbeSession, ProbeRefusal> {
        let sites = preflight(target)?;
        let tracefs = Tracefs::find_or_mount()?;
        tracefs.check_uprobes()?;
        tracefs.sweep();
        let group = format!(
            "sluice_{}_{}",
            std::process::id(),
            SESSIONS.fetch_add(1, Ordering::Relaxed) // a unique number, nothing to order
        );
        let mut session = ProbeSession {
            tracefs,
            group,
            pipe: None,
            partial: Vec::new(),
            tgid: target.pid,
            stats: stats::Stats::default(),
            events_seen: 0,
            removed: false,
        };
        // On an error below, dropping `session` removes what was defined.
        let path = target.image.path.display().to_string();
        for s in &sites {
            session.tracefs.define(
                format!(
                    "p:{}/{} {path}:{:#x} {}",
                    session.group, s.event, s.file_offset, s.fetch
                )
                .trim_end(),
            )?;
        }
        let inst = format!("instances/{}", session.group);
        std::fs::create_dir(session.tracefs.root().join(&inst)).map_err(|e| {
            ProbeRefusal::Kernel {
                what: format!("creating tracefs {inst}"),
                error: e.to_string(),
                log: String::new(),
            }
        })?;
        let t = &session.tracefs;
        t.write(&format!("{inst}/trace_clock"), "mono")?;
        t.write(&format!("{inst}/buffer_size_kb"), "2048")?;
        t.write(&format!("{inst}/options/record-tgid"), "1")?;
        t.write(&format!("{inst}/options/event-fork"), "1")?;
        let tids = target
            .tids()
            .map_err(|e| ProbeRefusal::Kernel {
                what: format!("listing the threads of {}", target.pid),
                error: e.to_string(),
                log: String::new(),
            })?
            .iter()
            .map(u32::to_string)
            .collect::<Vec<_>>()
            .join(" ");
        t.write(&format!("{inst}/set_event_pid"), &tids)?;
        let pipe_path = t.root().join(&inst).join("trace_pipe");
        let pipe = {
            use std::os::unix::fs::OpenOptionsExt;
            std::fs::OpenOptions::new()
                .read(true)
                .custom_flags(rustix::fs::OFlags::NONBLOCK.bits() as i32)
                .open(&pipe_path)
                .map_err(|e| ProbeRefusal::Kernel {
                    what: format!("opening {}", pipe_path.display()),
                    error: e.to_string(),
                    log: String::new(),
                })?
        };
        session.pipe = Some(pipe);
        t.write(&format!("{inst}/events/{}/enable", session.group), "1")?;
        Ok(session)
    }

    /// The uprobe group (and instance) name, `sluice_<PID>_<N>`.
    pub fn group(&self) -> &str {
        &self.group
    }

    /// Reads and counts every event recorded so far (never blocks).
    pub fn poll(&mut self) {
        let Some(pipe) = self.pipe.as_mut() else {
            return;
        };
        let mut buf = [0u8; 64 * 1024];
        loop {
            match pipe.read(&mut buf) {
                Ok(0) | Err(_) => break, // EAGAIN: nothing more for now
                Ok(n) => self.partial.extend_from_slice(&buf[..n]),
            }
        }
        let Some(last_nl) = self.partial.iter().rposition(|&b| b == b'\n') else {
            return;
        };
        let complete: Vec<u8> = self.partial.drain(..=last_nl).collect();
        for line in String::from_utf8_lossy(&complete).lines() {
            if let Some(e) = events::parse(line)
                && e.tgid == self.tgid
            {
                self.events_seen += 1;
                self.stats.on_event(&e);
            }
        }
    }

    /// Events counted since attach.
    pub fn events_seen(&self) -> u64 {
        self.events_seen
    }

    /// The report of the window that ends now (`window_s` long).
    pub fn take_report(&mut self, window_s: f64) -> ProbeReport {
        self.poll();
        let lost = self.lost_events();
        self.stats.take(window_s, lost)
    }

    /// Events the instance dropped (overruns, all CPUs, since attach).
    fn lost_events(&self) -> u64 {
        let per_cpu = self
            .tracefs
            .root()
            .join("instances")
            .join(&self.group)
            .join("per_cpu");
        std::fs::read_dir(per_cpu)
            .into_iter()
            .flatten()
            .flatten()
            .filter_map(|d| std::fs::read_to_string(d.path().join("stats")).ok())
            .filter_map(|s| {
                s.lines()
                    .find_map(|l| l.strip_prefix("overrun:"))
                    .and_then(|v| v.trim().parse::<u64>().ok())
            })
            .sum()
    }

    /// Stops recording and removes every probe of this session. Returns
    /// what could not be removed (empty when all went).
    pub fn detach(mut self) -> Vec<String> {
        self.remove()
    }

    fn remove(&mut self) -> Vec<String> {
        if self.removed {
            return Vec::new();
        }
        self.removed = true;
        // Close the pipe first: an open trace_pipe keeps the instance busy.
        self.pipe = None;
        self.tracefs.remove_group(&self.group)
    }
}

impl Drop for ProbeSession {
    fn drop(&mut self) {
        let left = self.remove();
        if !left.is_empty() {
            eprintln!(
                "sluice scope: could not remove probes: {}; remove them with `echo '-:{}/EVENT' >> {}/uprobe_events`",
                left.join("; "),
                self.group,
                self.tracefs.root().display()
            );
        }
    }
}
