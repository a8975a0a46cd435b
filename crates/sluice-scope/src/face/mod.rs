//! The faces of `sluice scope`: how reports reach a person or a program.
//!
//! - `tui.rs`: the live terminal view (ratatui), the default on a terminal.
//! - `text.rs`: one line per window, when stdout is not a terminal.
//! - `json.rs`: `--json`, one JSON object per window.
//! - `prometheus.rs`: `--prometheus ADDR`, an exporter for the Prometheus
//!   a fleet already has.
//! - `host.rs`, `host_tui.rs`: the same faces for `--all` (every Node
//!   process on the host, `crate::host`).
//!
//! [`run`] drives any of them: attach, one [`Report`] per window, the
//! summary at the end. It ends at `--duration`, on Ctrl-C / SIGTERM /
//! SIGHUP (or `q` in the terminal view), or when the process exits, and
//! removes probe mode's probes in every case.

pub(crate) mod host;
pub(crate) mod host_tui;
mod json;
pub(crate) mod prometheus;
pub(crate) mod text;
pub(crate) mod tui;

use crate::aggregate::Report;
use crate::config::{Face as FaceKind, ScopeConfig};
use crate::error::ScopeError;
use crate::session::Session;
use crate::summary::Summary;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A way of showing reports.
pub(crate) trait Face {
    /// Called once after attaching, before the first window.
    fn start(&mut self, session: &Session) -> Result<(), ScopeError>;
    /// Called after every window.
    fn show(&mut self, report: &Report, session: &Session) -> Result<(), ScopeError>;
    /// Asked after every sample: whether the person asked to stop.
    fn wants_stop(&mut self) -> bool {
        false
    }
    /// Called once at the end (restores the terminal); returns the stream
    /// the summary goes to: `true` for stdout, `false` for stderr.
    fn finish(&mut self) -> Result<bool, ScopeError>;
}

/// Why a run ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum End {
    /// `--duration` elapsed.
    Duration,
    /// Ctrl-C, SIGTERM, SIGHUP, or `q`.
    Stopped,
    /// The watched process exited.
    Exited,
}

/// What a run did.
#[derive(Debug)]
pub struct RunOutcome {
    /// Why it ended.
    pub end: End,
    /// Its windows.
    pub summary: Summary,
    /// Probes that could not be removed (empty normally).
    pub left_behind: Vec<String>,
}

/// A flag that Ctrl-C, SIGTERM and SIGHUP set.
pub(crate) fn install_signals() -> Result<Arc<AtomicBool>, ScopeError> {
    let stop = Arc::new(AtomicBool::new(false));
    for sig in [
        signal_hook::consts::SIGINT,
        signal_hook::consts::SIGTERM,
        signal_hook::consts::SIGHUP,
    ] {
        signal_hook::flag::register(sig, Arc::clone(&stop))
            .map_err(|e| ScopeError::io("installing the signal handlers", e))?;
    }
    Ok(stop)
}

/// Runs `sluice scope` as configured.
pub fn run(config: &ScopeConfig) -> Result<RunOutcome, ScopeError> {
    let stop = install_signals()?;
    let mut session = Session::attach(config.pid, config.options)?;
    let mut face: Box<dyn Face> = match config.face {
        FaceKind::Tui => Box::new(tui::Tui::new()?),
        FaceKind::Text => Box::new(text::Text::default()),
        FaceKind::Json => Box::new(json::Json),
        FaceKind::Prometheus(addr) => Box::new(prometheus::Exporter::start(addr)?),
    };
    let started = Instant::now();
    let mut summary = Summary::new();
    let result = (|| {
        face.start(&session)?;
        loop {
            let len = match config.duration {
                Some(d) => {
                    let left = d.saturating_sub(started.elapsed());
                    if left.is_zero() {
                        return Ok(End::Duration);
                    }
                    left.min(config.window)
                }
                None => config.window,
            };
            // Relaxed: a flag polled every sample; nothing else is
            // published through it.
            let report = match session.window(len, &mut || {
                stop.load(Ordering::Relaxed) || face.wants_stop()
            }) {
                Ok(r) => r,
                Err(ScopeError::Exited { .. }) => return Ok(End::Exited),
                Err(e) => return Err(e),
            };
            summary.add(&report);
            face.show(&report, &session)?;
            if stop.load(Ordering::Relaxed) || face.wants_stop() {
                return Ok(End::Stopped);
            }
        }
    })();
    let to_stdout = face.finish();
    let pid = session.target().pid;
    let left_behind = session.close();
    let end = result?;
    let to_stdout = to_stdout?;
    if end == End::Exited {
        eprintln!("sluice scope: process {pid} exited");
    }
    let table = summary.render();
    if to_stdout {
        print!("{table}");
    } else {
        eprint!("{table}");
    }
    Ok(RunOutcome {
        end,
        summary,
        left_behind,
    })
}
