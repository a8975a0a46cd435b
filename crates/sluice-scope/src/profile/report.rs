//! [`ProfileReport`]: one `--profile` run, as JSON (`--json`) or text.

use super::analysis::{Analysis, FunctionTime, SyncApi};
use crate::inspector::Closed;
use crate::verdict::aggregate::Report;
use serde::Serialize;
use std::fmt::Write;

/// Where the inspector was and how it was left.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct InspectorReport {
    /// Its address.
    pub addr: String,
    /// `/json/list`'s title.
    pub title: String,
    /// Opened by scope or not, closed or not, and what stays changed.
    #[serde(flatten)]
    pub closed: Closed,
}

/// The files written.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Files {
    /// The profile as V8 sent it (Chrome DevTools: Performance, Load
    /// profile).
    pub cpuprofile: String,
    /// The flame graph (absent when the profile had no samples).
    pub flamegraph: Option<String>,
}

/// One profile.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ProfileReport {
    /// The process.
    pub pid: u32,
    /// The window asked for, in s.
    pub duration_s: f64,
    /// V8's sampling interval, in µs.
    pub interval_us: u64,
    /// Whether V8's optimized code was discarded as the profile began
    /// (precise coverage), so that functions inlined before it are named.
    pub fresh_code: bool,
    /// The inspector.
    pub inspector: InspectorReport,
    /// scope's own window over the same time: pool, loop, verdict.
    pub window: Report,
    /// What held the main thread.
    #[serde(flatten)]
    pub analysis: Analysis,
    /// The files.
    pub files: Files,
}

fn table(out: &mut String, title: &str, rows: &[FunctionTime], n: usize) {
    let _ = writeln!(out, "{title}");
    header(out);
    for r in rows.iter().take(n) {
        row(out, r);
    }
}

/// The column heads of a function table.
fn header(out: &mut String) {
    let _ = writeln!(
        out,
        "  {:>9}  {:>5}  {:<28}  location",
        "ms", "%", "function"
    );
}

/// One function's line under [`header`].
fn row(out: &mut String, r: &FunctionTime) {
    let _ = writeln!(
        out,
        "  {:>9.1}  {:>5.1}  {:<28}  {}",
        r.ms,
        r.pct,
        clip(&r.function, 28),
        r.location
    );
}

fn clip(s: &str, n: usize) -> String {
    if s.chars().count() <= n {
        s.to_string()
    } else {
        let mut t: String = s.chars().take(n - 1).collect();
        t.push('…');
        t
    }
}

impl ProfileReport {
    /// The report as text.
    pub fn render(&self) -> String {
        let mut out = String::new();
        self.header(&mut out);
        held_by(&mut out, &self.analysis);
        let a = &self.analysis;
        table(&mut out, "top self time (V8's frames):", &a.top_self, 5);
        let _ = writeln!(out);
        table(&mut out, "top total time:", &a.top_total, 5);
        let _ = writeln!(out);
        sync_apis(&mut out, &a.sync_apis);
        let _ = writeln!(out);
        self.files_and_changes(&mut out);
        out
    }

    /// The process, the samples, the verdict over the same window and the
    /// main thread's shares.
    fn header(&self, out: &mut String) {
        let a = &self.analysis;
        let _ = writeln!(
            out,
            "sluice scope --profile: process {} ({}), {:.1} s of samples every {} µs: {} samples",
            self.pid,
            self.inspector.title,
            a.span_ms / 1e3,
            self.interval_us,
            a.samples
        );
        let _ = writeln!(
            out,
            "verdict over the same window: {}: {}",
            self.window.verdict.as_str(),
            self.window.evidence
        );
        let s = &a.shares;
        let _ = writeln!(
            out,
            "main thread: JavaScript {:.1}%, native (program) {:.1}%, garbage collector {:.1}%, idle {:.1}%",
            s.javascript_pct, s.native_pct, s.gc_pct, s.idle_pct
        );
        let _ = writeln!(out);
    }

    /// The files written, and what stays changed in the process.
    fn files_and_changes(&self, out: &mut String) {
        let _ = writeln!(
            out,
            "profile: {} (Chrome DevTools: Performance, Load profile)",
            self.files.cpuprofile
        );
        if let Some(svg) = &self.files.flamegraph {
            let _ = writeln!(out, "flame graph: {svg}");
        }
        let _ = writeln!(out, "inspector: {}", self.inspector.closed.note);
        if self.fresh_code {
            let _ = writeln!(
                out,
                "V8's optimized code was discarded as the profile began (precise coverage, turned off after), so that functions V8 had inlined into their callers are named; the process runs unoptimized code until V8 optimizes it again"
            );
        }
    }
}

/// The program's functions that held the loop (top 5), each with its APIs
/// and hot line, and the caution, if any.
fn held_by(out: &mut String, a: &Analysis) {
    let _ = writeln!(
        out,
        "held by your code (Node's and V8's frames folded into the caller):"
    );
    header(out);
    for h in a.held_by.iter().take(5) {
        row(out, &h.time);
        for api in &h.apis {
            let _ = writeln!(
                out,
                "  {:>9.1}  {:>5.1}    via {} ({})",
                api.ms, api.pct, api.api, api.seen_as
            );
        }
        if let Some(line) = &h.hot_line {
            let _ = writeln!(
                out,
                "                   hot line {} ({:.0}% of its ticks){}",
                line.line,
                line.pct,
                line.text
                    .as_deref()
                    .map(|t| format!(": {t}"))
                    .unwrap_or_default()
            );
        }
    }
    if let Some(note) = &a.note {
        let _ = writeln!(out, "  note: {note}");
    }
    let _ = writeln!(out);
}

/// Every synchronous API seen on the loop, most time first.
fn sync_apis(out: &mut String, apis: &[SyncApi]) {
    if apis.is_empty() {
        let _ = writeln!(out, "synchronous APIs on the loop: none seen");
        return;
    }
    let _ = writeln!(out, "synchronous APIs on the loop:");
    for api in apis {
        let _ = writeln!(
            out,
            "  {:>9.1} ms {:>5.1}%  {}  from {}",
            api.ms, api.pct, api.api, api.called_from
        );
    }
}
