//! The faces of `sluice scope`: how reports reach a person or a program.
//!
//! - `tui.rs`: the live terminal view (ratatui), the default on a terminal;
//!   `screen.rs`: the terminal it (and `host_tui.rs`) takes over and gives back.
//! - `text.rs`: one line per window, when stdout is not a terminal.
//! - `json.rs`: `--json`, one JSON object per window; `--json-out FILE`,
//!   the same lines in a file, whatever the face.
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
pub(crate) mod json;
pub(crate) mod prometheus;
mod screen;
pub(crate) mod text;
pub(crate) mod tui;

use crate::aggregate::Report;
use crate::config::{Face as FaceKind, ScopeConfig};
use crate::error::ScopeError;
use crate::inspector::Plan;
use crate::profile::{Consent, ProfileReport};
use crate::session::Session;
use crate::summary::Summary;
use json::JsonLines;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

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
    /// Whether the person asked for a profile since the last call (`p`).
    fn take_profile_request(&mut self) -> bool {
        false
    }
    /// Asks whether to open a closed inspector; `true` is yes.
    fn confirm_open(&mut self, _plan: &Plan) -> bool {
        false
    }
    /// Shows a profile's progress, its report's lines, or why it failed.
    fn show_profile(&mut self, _lines: Vec<String>) -> Result<(), ScopeError> {
        Ok(())
    }
}

/// The lines a face shows of a profile: the verdict, the top functions of
/// the program with their APIs, the files.
fn profile_lines(r: &ProfileReport) -> Vec<String> {
    let a = &r.analysis;
    let mut out = vec![format!(
        "{:.1} s, {} samples: JavaScript {:.0}%, native {:.0}%, GC {:.0}%, idle {:.0}%",
        a.span_ms / 1e3,
        a.samples,
        a.shares.javascript_pct,
        a.shares.native_pct,
        a.shares.gc_pct,
        a.shares.idle_pct
    )];
    for h in a.held_by.iter().take(3) {
        let apis: Vec<String> = h.apis.iter().map(|x| x.api.clone()).collect();
        out.push(format!(
            "{:>5.1}%  {}  {}{}",
            h.time.pct,
            h.time.function,
            h.time.location,
            if apis.is_empty() {
                String::new()
            } else {
                format!("  via {}", apis.join(", "))
            }
        ));
    }
    if let Some(note) = &a.note {
        out.push(format!("note: {note}"));
    }
    out.push(format!(
        "{}{}",
        r.files.cpuprofile,
        r.files
            .flamegraph
            .as_deref()
            .map(|s| format!(", {s}"))
            .unwrap_or_default()
    ));
    out.push(r.inspector.closed.note.clone());
    out
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
    /// The profiles taken (`--profile`, or `p` in the terminal view).
    pub profiles: Vec<ProfileReport>,
}

/// Asks on the terminal whether to open a closed inspector.
pub(crate) fn ask_on_terminal(plan: &Plan) -> bool {
    use std::io::{BufRead, Write};
    let mut err = std::io::stderr().lock();
    let _ = write!(
        err,
        "process {}'s inspector is closed. Open it with SIGUSR1 (it listens on {} during the profile; scope closes it after; Node's `Debugger listening` lines stay on the process's stderr){}? [y/N] ",
        plan.pid,
        plan.addr_text(),
        match &plan.app_listener {
            crate::inspector::signal::AppListener::Unknown(why) => format!(
                "; scope cannot tell whether the program listens for SIGUSR1 itself ({why}): if it does, SIGUSR1 fires that listener"
            ),
            _ => String::new(),
        }
    );
    let _ = err.flush();
    let mut line = String::new();
    if std::io::stdin().lock().read_line(&mut line).is_err() {
        return false;
    }
    matches!(line.trim(), "y" | "Y" | "yes" | "YES" | "Yes")
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::aggregate::{Context, Window};
    use crate::discovery::PoolStatus;
    use crate::inspector::Closed;
    use crate::profile::analysis::analyse;
    use crate::profile::cpuprofile::CpuProfile;
    use crate::profile::report::{Files, InspectorReport};

    /// The terminal view's profile pane: shares, the program's functions
    /// with their APIs, the files, what stays changed.
    #[test]
    fn the_profile_pane_names_the_function_and_its_api() {
        let json = r#"{"nodes":[
            {"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1},"children":[2]},
            {"id":2,"callFrame":{"functionName":"hashLegacy","url":"file:///srv/app.js","lineNumber":1,"columnNumber":19},"children":[3]},
            {"id":3,"callFrame":{"functionName":"pbkdf2Sync","url":"node:internal/crypto/pbkdf2","lineNumber":61,"columnNumber":19}}],
            "startTime":0,"endTime":4000000,"samples":[3,3,3,3],"timeDeltas":[0,1000000,1000000,1000000]}"#;
        let profile = CpuProfile::from_json(json.as_bytes()).unwrap();
        let status = PoolStatus::NotStarted {
            evidence: String::new(),
        };
        let window = Window::new(vec![]).finish(Context::bare(1.0, 7, &status));
        let report = ProfileReport {
            pid: 7,
            duration_s: 4.0,
            interval_us: 1000,
            fresh_code: true,
            inspector: InspectorReport {
                addr: "127.0.0.1:9229".into(),
                title: "app".into(),
                closed: Closed {
                    opened_by_scope: true,
                    port_closed: true,
                    note: "closed again".into(),
                },
            },
            window,
            analysis: analyse(&profile, None),
            files: Files {
                cpuprofile: "p.cpuprofile".into(),
                flamegraph: None,
            },
        };
        let lines = profile_lines(&report);
        assert_eq!(
            lines[0],
            "4.0 s, 4 samples: JavaScript 100%, native 0%, GC 0%, idle 0%"
        );
        assert_eq!(
            lines[1],
            "100.0%  hashLegacy  /srv/app.js:2:20  via crypto.pbkdf2Sync"
        );
        assert_eq!(lines[2..], ["p.cpuprofile", "closed again"]);
        assert!(
            report
                .render()
                .contains("crypto.pbkdf2Sync  from /srv/app.js:2:20")
        );
    }
}
