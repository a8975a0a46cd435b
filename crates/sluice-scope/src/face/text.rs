//! One text line per window on stdout: the face for pipes and logs.

use super::Face;
use crate::error::ScopeError;
use crate::sample::session::Session;
use crate::verdict::aggregate::Report;
use std::io::Write;

/// Plain lines.
#[derive(Debug, Default)]
pub(crate) struct Text {
    lines: usize,
}

/// The header of [`line`]'s columns.
pub(crate) const HEADER: &str = "       t  pool   busy  util%   sat%  loop%  queue  verdict";

/// One window as one line under [`HEADER`].
pub(crate) fn line(r: &Report) -> String {
    format!(
        "{:>7.1}s  {:>4}  {:>5.1}  {:>5.0}  {:>5.0}  {:>5.0}  {:>5}  {}",
        r.t_s,
        r.pool_size,
        r.busy_threads,
        r.utilization_pct,
        r.saturation_pct,
        r.loop_utilization_pct,
        r.queue_depth.map_or("-".into(), |q| format!("{q:.1}")),
        r.verdict.as_str()
    )
}

/// One of sluice's lanes under a window's line: its threads, busy and
/// saturation as the pool's columns, and its verdict (with the evidence
/// when saturated).
pub(crate) fn lane_line(l: &crate::sample::lanes::LaneReport) -> String {
    let mut line = format!(
        "  sluice {:<6}  {:>4}  {:>5.1}  {:>5.0}  {:>5.0}         {:>5}  {}",
        l.lane,
        l.threads,
        l.busy_threads,
        if l.threads == 0 {
            0.0
        } else {
            100.0 * l.busy_threads / l.threads as f64
        },
        l.saturation_pct,
        l.queue_depth.map_or("-".into(), |q| format!("{q:.1}")),
        l.verdict.as_str()
    );
    if l.verdict.is_finding() {
        line.push_str(&format!("\n          {}", l.evidence));
    }
    line
}

fn io(e: std::io::Error) -> ScopeError {
    ScopeError::io("writing to stdout", e)
}

impl Face for Text {
    fn start(&mut self, session: &Session) -> Result<(), ScopeError> {
        let t = session.target();
        let mut out = std::io::stdout().lock();
        writeln!(
            out,
            "sluice scope: process {} ({}, {})",
            t.pid, t.comm, t.exe
        )
        .map_err(io)?;
        writeln!(out, "{}", session.status().summary()).map_err(io)?;
        if let Some(g) = session.probe_group() {
            writeln!(out, "probes attached (tracefs group {g})").map_err(io)?;
        }
        out.flush().map_err(io)
    }

    fn show(&mut self, r: &Report, _session: &Session) -> Result<(), ScopeError> {
        let mut out = std::io::stdout().lock();
        if self.lines.is_multiple_of(20) {
            writeln!(out, "{HEADER}").map_err(io)?;
        }
        self.lines += 1;
        writeln!(out, "{}", line(r)).map_err(io)?;
        if r.verdict != crate::Verdict::Healthy {
            writeln!(out, "          {}", r.evidence).map_err(io)?;
        }
        for l in &r.sluice_lanes {
            writeln!(out, "{}", lane_line(l)).map_err(io)?;
        }
        out.flush().map_err(io)
    }

    fn finish(&mut self) -> Result<bool, ScopeError> {
        Ok(true)
    }
}
