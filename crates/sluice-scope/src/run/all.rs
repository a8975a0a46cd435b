//! `sluice scope --all`: every Node process on the host, and the ones that
//! start later, each watched as `sluice scope PID` watches one.
//!
//! - **Finding them** ([`scan`]): every second the main thread lists
//!   `/proc`; each process not tried before (a PID and its start time) is
//!   opened once as a [`Target`]: it is a Node process when its executable
//!   or a mapped `libuv*.so` exports `uv_queue_work`. Processes in
//!   containers are found the same way: `/proc/PID/exe` and
//!   `/proc/PID/root` name their files across mount namespaces, and every
//!   address scope reads is the process's own, whatever its PID namespace.
//!   With `--cmdline REGEX` ([`CmdlineFilter`]) only processes whose
//!   command line matches are opened.
//! - **Watching them**: one thread per process runs a [`Session`], window
//!   after window, and sends each [`Report`] to the main thread, which
//!   hands it to the face. A process that exits is dropped.
//! - **Labels**: `pid`, `comm`, and where the cgroup path names them the
//!   container ID and the Kubernetes pod UID (`target/container.rs`).
//! - **Each process** ([`Watched`], in `verdict/watched.rs`): who it is and
//!   its windows so far; the faces read it, the loop here counts windows in.
//! - **Faces** (`face/host.rs`, `face/host_tui.rs`): one text line or one
//!   JSON object per process per window, one Prometheus exposition for all,
//!   or the terminal view: one line per process sorted by saturation, Enter
//!   for the per-process view.

pub use super::cmdline::CmdlineFilter;
pub use crate::target::container::Placement;
pub use crate::verdict::watched::{Processes, Watched};

use crate::config::Face as FaceKind;
use crate::error::ScopeError;
use crate::face::host::{HostFace, HostJson, HostPrometheus, HostText, json_line};
use crate::face::host_tui::HostTui;
use crate::face::json::JsonLines;
use crate::run::{End, install_signals};
use crate::sample::session::{Options, Session};
use crate::target::{ImageCache, Target};
use crate::verdict::aggregate::Report;
use crate::verdict::doctor::Verdict;
use std::collections::{BTreeMap, HashSet};
use std::io::ErrorKind;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How often `/proc` is listed for new Node processes.
pub const RESCAN: Duration = Duration::from_secs(1);

/// A validated `sluice scope --all` run.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostConfig {
    /// Sampling rate and discovery (no probes: `--probe` watches one
    /// process).
    pub options: Options,
    /// Stop after this long, then print the summary.
    pub duration: Option<Duration>,
    /// Report window (1 s).
    pub window: Duration,
    /// How reports are shown.
    pub face: FaceKind,
    /// `--json-out FILE`: also write the `--json` lines to this file,
    /// whatever the face.
    pub json_out: Option<PathBuf>,
    /// `--cmdline REGEX`: watch only the processes whose command line (its
    /// arguments joined by spaces) matches.
    pub cmdline: Option<CmdlineFilter>,
}

impl HostConfig {
    /// The defaults: 200 Hz per process, 1 s windows, no end, the terminal
    /// view.
    pub fn new() -> HostConfig {
        HostConfig {
            options: Options::default(),
            duration: None,
            window: Duration::from_secs(1),
            face: FaceKind::Tui,
            json_out: None,
            cmdline: None,
        }
    }
}

impl Default for HostConfig {
    fn default() -> Self {
        HostConfig::new()
    }
}

/// What a run of `--all` did.
#[derive(Debug)]
pub struct HostOutcome {
    /// Why it ended.
    pub end: End,
    /// Every process watched, including those that exited.
    pub processes: Processes,
    /// Processes that could not be read, and why (not this user's: run
    /// as root).
    pub denied: Vec<(u32, String)>,
}

/// What a watcher thread tells the main thread.
enum Event {
    Report(u32, Box<Report>, String),
    Ended(u32, String),
}

/// The processes not tried before that are Node processes (and match
/// `filter`, when given), opened. `tried` holds (PID, start time) of every
/// process looked at; `cache` the ELF files read (one node binary is read
/// once for all its processes); `denied` counts the processes this user may
/// not read.
pub fn scan(
    tried: &mut HashSet<(u32, u64)>,
    cache: &mut ImageCache,
    denied: &mut Vec<(u32, String)>,
    filter: Option<&CmdlineFilter>,
) -> Vec<Target> {
    let me = std::process::id();
    let Ok(pids) = crate::target::process_ids() else {
        return Vec::new();
    };
    let mut found = Vec::new();
    let mut present = HashSet::new();
    for pid in pids {
        if pid == me {
            continue;
        }
        let Some(start) = crate::target::process_start_time(pid) else {
            continue;
        };
        present.insert((pid, start));
        if !tried.insert((pid, start)) || filter.is_some_and(|f| !f.matches(pid)) {
            continue;
        }
        match Target::open_cached(pid, cache) {
            Ok(t) => found.push(t),
            Err(e @ ScopeError::PermissionDenied { .. }) => denied.push((pid, e.to_string())),
            Err(e @ ScopeError::Io { .. }) if is_denied(&e) => denied.push((pid, e.to_string())),
            Err(_) => {}
        }
    }
    // Forget processes that are gone: the set stays the size of the host's
    // process table however many come and go.
    tried.retain(|p| present.contains(p));
    found.sort_by_key(|t| t.pid);
    found
}

fn is_denied(e: &ScopeError) -> bool {
    matches!(e, ScopeError::Io { cause, .. } if cause.kind() == ErrorKind::PermissionDenied)
}

/// Runs `sluice scope --all` as configured.
pub fn run(config: &HostConfig) -> Result<HostOutcome, ScopeError> {
    crate::sample::session::check_rate(config.options.rate_hz)?;
    if config.options.probe {
        return Err(ScopeError::Config {
            flag: "--probe",
            value: "--all".into(),
            expected: "probe mode watches one process: give its PID instead of --all".into(),
        });
    }
    let stop = install_signals()?;
    let lines = JsonLines::open(config.face == FaceKind::Json, config.json_out.as_deref())?;
    let face: Box<dyn HostFace> = match config.face {
        FaceKind::Tui => Box::new(HostTui::new()?),
        FaceKind::Text => Box::new(HostText::default()),
        FaceKind::Json => Box::new(HostJson),
        FaceKind::Prometheus(addr) => Box::new(HostPrometheus::start(addr)?),
    };
    let (tx, rx) = mpsc::channel::<Event>();
    let mut host = Host {
        config,
        face,
        lines,
        halt: Arc::new(AtomicBool::new(false)),
        tx,
        rx,
        threads: Vec::new(),
        procs: BTreeMap::new(),
        tried: HashSet::new(),
        cache: ImageCache::default(),
        denied: Vec::new(),
    };
    let result = host.watch(&stop);
    host.halt.store(true, Ordering::Relaxed);
    for t in host.threads.drain(..) {
        let _ = t.join();
    }
    let to_stdout = host.face.finish();
    let end = result?;
    let table = summary(&host.procs, &host.denied);
    if to_stdout? {
        print!("{table}");
    } else {
        eprint!("{table}");
    }
    Ok(HostOutcome {
        end,
        processes: host.procs,
        denied: host.denied,
    })
}

/// The main thread's state: the face, the watchers and what they sent.
struct Host<'a> {
    config: &'a HostConfig,
    face: Box<dyn HostFace>,
    lines: JsonLines,
    /// Tells the watcher threads to end.
    halt: Arc<AtomicBool>,
    tx: mpsc::Sender<Event>,
    rx: mpsc::Receiver<Event>,
    threads: Vec<std::thread::JoinHandle<()>>,
    procs: Processes,
    /// What [`scan`] keeps between scans.
    tried: HashSet<(u32, u64)>,
    cache: ImageCache,
    denied: Vec<(u32, String)>,
}

impl Host<'_> {
    /// Scans, watches and shows until the run ends; why it ended.
    fn watch(&mut self, stop: &AtomicBool) -> Result<End, ScopeError> {
        let started = Instant::now();
        let mut next_scan = started;
        loop {
            // Relaxed: flags polled in a loop; nothing else is published
            // through them.
            if stop.load(Ordering::Relaxed) || self.face.wants_stop() {
                return Ok(End::Stopped);
            }
            if self.config.duration.is_some_and(|d| started.elapsed() >= d) {
                return Ok(End::Duration);
            }
            if Instant::now() >= next_scan {
                self.watch_new()?;
                next_scan = Instant::now() + RESCAN;
            }
            if let Ok(event) = self.rx.recv_timeout(Duration::from_millis(50)) {
                self.receive(event)?;
            }
            self.face.tick(&self.procs)?;
        }
    }

    /// A watcher thread for each Node process not seen before.
    fn watch_new(&mut self) -> Result<(), ScopeError> {
        let filter = self.config.cmdline.as_ref();
        for target in scan(&mut self.tried, &mut self.cache, &mut self.denied, filter) {
            let w = Watched::new(&target);
            self.face.added(&w)?;
            self.procs.insert(w.pid, w);
            self.threads.push(spawn_watcher(
                target,
                self.config.options,
                self.config.window,
                self.tx.clone(),
                Arc::clone(&self.halt),
            )?);
        }
        Ok(())
    }

    /// A watcher's window (counted, shown, written as a JSON line) or end.
    fn receive(&mut self, event: Event) -> Result<(), ScopeError> {
        match event {
            Event::Report(pid, r, found) => {
                if let Some(w) = self.procs.get_mut(&pid) {
                    w.found = found;
                    w.add(&r);
                    self.lines.write(&json_line(w, &r))?;
                    self.face.report(w, &r)?;
                }
            }
            Event::Ended(pid, why) => {
                if let Some(w) = self.procs.get_mut(&pid) {
                    w.ended = Some(why);
                    self.face.ended(w)?;
                }
            }
        }
        Ok(())
    }
}

fn spawn_watcher(
    target: Target,
    options: Options,
    window: Duration,
    tx: mpsc::Sender<Event>,
    halt: Arc<AtomicBool>,
) -> Result<std::thread::JoinHandle<()>, ScopeError> {
    let pid = target.pid;
    std::thread::Builder::new()
        .name(format!("scope-{pid}"))
        .spawn(move || {
            let mut session = match Session::attach_target(target, options) {
                Ok(s) => s,
                Err(e) => {
                    let _ = tx.send(Event::Ended(pid, e.to_string()));
                    return;
                }
            };
            loop {
                if halt.load(Ordering::Relaxed) {
                    return;
                }
                match session.window(window, &mut || halt.load(Ordering::Relaxed)) {
                    Ok(r) => {
                        if halt.load(Ordering::Relaxed) {
                            // A window cut short by the end: not reported.
                            return;
                        }
                        let found = session.status().summary();
                        if tx.send(Event::Report(pid, Box::new(r), found)).is_err() {
                            return;
                        }
                    }
                    Err(e) => {
                        let why = match e {
                            ScopeError::Exited { .. } => "exited".to_string(),
                            e => e.to_string(),
                        };
                        let _ = tx.send(Event::Ended(pid, why));
                        return;
                    }
                }
            }
        })
        .map_err(|e| ScopeError::io("starting a watcher thread", e))
}

/// The table at the end: one line per process watched.
pub fn summary(procs: &Processes, denied: &[(u32, String)]) -> String {
    let mut out = format!(
        "sluice scope --all summary: {} Node process{} watched{}\n",
        procs.len(),
        if procs.len() == 1 { "" } else { "es" },
        match denied {
            [] => String::new(),
            [(pid, why)] => format!("; process {pid} could not be read: {why}"),
            [(pid, why), ..] => format!(
                "; {} processes could not be read (run as root to see every user's), e.g. {pid}: {why}",
                denied.len()
            ),
        }
    );
    out.push_str(&format!(
        "{:>8}  {:<15}  {:<12}  {:>7}  {:>5}  {:>10}  {:>11}  {}\n",
        "pid",
        "comm",
        "container",
        "windows",
        "pool",
        "mean sat%",
        "scope CPU%",
        "verdicts (windows)"
    ));
    for w in procs.values() {
        let mean = |sum: f64| {
            if w.windows == 0 {
                "-".to_string()
            } else {
                format!("{:.1}", sum / w.windows as f64)
            }
        };
        let mut verdicts: Vec<String> = Verdict::ALL
            .iter()
            .filter_map(|v| {
                w.verdicts
                    .get(v.as_str())
                    .map(|n| format!("{} {n}", v.as_str()))
            })
            .collect();
        if let Some(why) = &w.ended {
            verdicts.push(format!("({why})"));
        }
        out.push_str(&format!(
            "{:>8}  {:<15}  {:<12}  {:>7}  {:>5}  {:>10}  {:>11}  {}\n",
            w.pid,
            w.comm,
            w.container_short(),
            w.windows,
            w.last
                .as_ref()
                .map_or("-".into(), |r| r.pool_size.to_string()),
            mean(w.saturation_sum),
            mean(w.sampler_cpu_sum),
            verdicts.join(", ")
        ));
    }
    out
}
