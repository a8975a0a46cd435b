//! The faces of `sluice scope`: how reports reach a person or a program.
//!
//! - `tui.rs`: the live terminal view (ratatui), the default on a terminal;
//!   `screen.rs`: the terminal it (and `host_tui.rs`) takes over and gives back.
//! - `text.rs`: one line per window, when stdout is not a terminal.
//! - `json.rs`: `--json`, one JSON object per window; `--json-out FILE`,
//!   the same lines in a file, whatever the face.
//! - `prometheus.rs`: `--prometheus ADDR`, an exporter for the Prometheus
//!   a fleet already has.
//! - `lane_series.rs`: sluice's lanes on that page.
//! - `host.rs`, `host_tui.rs`: the same faces for `--all` (every Node
//!   process on the host, `crate::run::all`).
//!
//! `crate::run` drives them: attach, one [`Report`] per window, the
//! summary at the end.

#[cfg(test)]
mod golden;
pub(crate) mod host;
pub(crate) mod host_tui;
pub(crate) mod json;
mod lane_series;
pub(crate) mod prometheus;
mod screen;
pub(crate) mod text;
pub(crate) mod tui;

use crate::error::ScopeError;
use crate::inspector::Plan;
use crate::profile::ProfileReport;
use crate::sample::session::Session;
use crate::verdict::aggregate::Report;

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
pub(crate) fn profile_lines(r: &ProfileReport) -> Vec<String> {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inspector::Closed;
    use crate::profile::analysis::analyse;
    use crate::profile::cpuprofile::CpuProfile;
    use crate::profile::report::{Files, InspectorReport};
    use crate::target::discovery::PoolStatus;
    use crate::verdict::aggregate::{Context, Window};

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
