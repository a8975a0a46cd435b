//! The two drivers of `sluice scope`: [`run`] watches one process
//! (`sluice scope PID`), [`all::run`] every Node process on the host
//! (`--all`), one watcher thread each. Both feed reports to a face
//! (`crate::face`) and end on `--duration`, Ctrl-C / SIGTERM / SIGHUP (or
//! `q` in the terminal view), or when the process exits, removing probe
//! mode's probes in every case.
//!
//! - `all.rs`: `--all`: scan, one [`Session`] per process, the faces of
//!   `face/host*.rs`.
//! - `cmdline.rs`: `--cmdline` filters, and `/proc/PID/cmdline`'s
//!   arguments.

pub mod all;
pub(crate) mod cmdline;

use crate::config::{Face as FaceKind, ScopeConfig};
use crate::error::ScopeError;
use crate::face::json::JsonLines;
use crate::face::{Face, ask_on_terminal, json, profile_lines, prometheus, text, tui};
use crate::inspector::Plan;
use crate::profile::{Consent, ProfileReport};
use crate::sample::session::Session;
use crate::verdict::aggregate::Report;
use crate::verdict::summary::Summary;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
    /// The profiles taken (`--profile`, or `p` in the terminal view).
    pub profiles: Vec<ProfileReport>,
}

/// `--profile`: one profile, shown as text or JSON.
fn profile_once(
    config: &ScopeConfig,
    profile: &crate::profile::ProfileConfig,
    stop: &AtomicBool,
) -> Result<RunOutcome, ScopeError> {
    let mut lines = JsonLines::open(config.face == FaceKind::Json, config.json_out.as_deref())?;
    let mut session = Session::attach(config.pid, config.options)?;
    let mut ask = ask_on_terminal;
    let consent = if config.interactive {
        Consent::Ask(&mut ask)
    } else {
        Consent::NonInteractive
    };
    let result = crate::profile::take(&mut session, profile, consent, &mut || {
        stop.load(Ordering::Relaxed)
    });
    let left_behind = session.close();
    let report = result?;
    if config.face != FaceKind::Json {
        print!("{}", report.render());
    }
    lines.write(&report)?;
    let mut summary = Summary::new();
    summary.add(&report.window);
    Ok(RunOutcome {
        end: End::Duration,
        summary,
        left_behind,
        profiles: vec![report],
    })
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
    if let Some(profile) = &config.profile
        && config.face != FaceKind::Tui
    {
        return profile_once(config, profile, &stop);
    }
    let lines = JsonLines::open(config.face == FaceKind::Json, config.json_out.as_deref())?;
    let session = Session::attach(config.pid, config.options)?;
    let face: Box<dyn Face> = match config.face {
        FaceKind::Tui => Box::new(tui::Tui::new()?),
        FaceKind::Text => Box::new(text::Text::default()),
        FaceKind::Json => Box::new(json::Json),
        FaceKind::Prometheus(addr) => Box::new(prometheus::Exporter::start(addr)?),
    };
    let mut watch = Watch {
        config,
        stop: &stop,
        session,
        face,
        lines,
        started: Instant::now(),
        summary: Summary::new(),
        profiles: Vec::new(),
    };
    let result = watch.windows();
    let Watch {
        session,
        mut face,
        summary,
        profiles,
        ..
    } = watch;
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
        profiles,
    })
}

/// One watched process shown on one face, window after window.
struct Watch<'a> {
    config: &'a ScopeConfig,
    /// Set by Ctrl-C, SIGTERM and SIGHUP.
    stop: &'a AtomicBool,
    session: Session,
    face: Box<dyn Face>,
    lines: JsonLines,
    started: Instant,
    summary: Summary,
    profiles: Vec<ProfileReport>,
}

impl Watch<'_> {
    /// Whether a signal came. Relaxed: a flag polled every sample; nothing
    /// else is published through it.
    fn signalled(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// The next window's length: the window, or what is left of
    /// `--duration` (`None` when nothing is).
    fn next_len(&self) -> Option<Duration> {
        match self.config.duration {
            Some(d) => {
                let left = d.saturating_sub(self.started.elapsed());
                (!left.is_zero()).then(|| left.min(self.config.window))
            }
            None => Some(self.config.window),
        }
    }

    /// Windows until the run ends; why it ended.
    fn windows(&mut self) -> Result<End, ScopeError> {
        self.face.start(&self.session)?;
        loop {
            let Some(len) = self.next_len() else {
                return Ok(End::Duration);
            };
            let (stop, face) = (self.stop, &mut self.face);
            let report = match self.session.window(len, &mut || {
                stop.load(Ordering::Relaxed) || face.wants_stop()
            }) {
                Ok(r) => r,
                Err(ScopeError::Exited { .. }) => return Ok(End::Exited),
                Err(e) => return Err(e),
            };
            self.show(&report)?;
            if self.signalled() || self.face.wants_stop() {
                return Ok(End::Stopped);
            }
            if let Some(end) = self.profile_if_asked()? {
                return Ok(end);
            }
        }
    }

    /// Counts a window and shows it (and writes its JSON line).
    fn show(&mut self, report: &Report) -> Result<(), ScopeError> {
        self.summary.add(report);
        self.lines.report(report)?;
        self.face.show(report, &self.session)
    }

    /// The terminal view's `p`: a profile between two windows, its window
    /// shown like any other. `Some(End::Exited)` when the process exited
    /// during it; a profile that failed otherwise is shown as such.
    fn profile_if_asked(&mut self) -> Result<Option<End>, ScopeError> {
        let Some(p) = &self.config.profile else {
            return Ok(None);
        };
        if !self.face.take_profile_request() {
            return Ok(None);
        }
        self.face.show_profile(vec![format!(
            "profiling for {:.1} s…",
            p.duration.as_secs_f64()
        )])?;
        let (stop, face) = (self.stop, &mut self.face);
        let mut ask = |plan: &Plan| face.confirm_open(plan);
        let taken = crate::profile::take(&mut self.session, p, Consent::Ask(&mut ask), &mut || {
            stop.load(Ordering::Relaxed)
        });
        match taken {
            Ok(r) => {
                self.show(&r.window)?;
                self.face.show_profile(profile_lines(&r))?;
                self.profiles.push(r);
            }
            Err(ScopeError::Exited { .. }) => return Ok(Some(End::Exited)),
            Err(e) => self.face.show_profile(vec![format!("no profile: {e}")])?,
        }
        Ok(None)
    }
}
