//! The faces of `sluice scope --all` for pipes and programs: one text
//! line per process per window, one JSON object per process per window
//! (the report's fields plus `comm`, `exe`, `container`, `pod`), or one
//! Prometheus exposition for every process, its series labelled `pid`,
//! `comm`, `container` and `pod`.

use super::prometheus::{Exporter, Totals, encode_many};
use super::text;
use crate::error::ScopeError;
use crate::verdict::aggregate::Report;
use crate::verdict::watched::{Processes, Watched};
use std::collections::BTreeMap;
use std::io::Write;
use std::net::SocketAddr;

/// A way of showing many processes' reports.
pub(crate) trait HostFace {
    /// A process is found and about to be watched.
    fn added(&mut self, w: &Watched) -> Result<(), ScopeError>;
    /// A window of `w` ended (`w.last` is `r`).
    fn report(&mut self, w: &Watched, r: &Report) -> Result<(), ScopeError>;
    /// Watching `w` ended (`w.ended` says why).
    fn ended(&mut self, w: &Watched) -> Result<(), ScopeError>;
    /// Called often (about every 50 ms) with every process.
    fn tick(&mut self, _procs: &Processes) -> Result<(), ScopeError> {
        Ok(())
    }
    /// Whether the person asked to stop.
    fn wants_stop(&mut self) -> bool {
        false
    }
    /// Called once at the end; `true` sends the summary to stdout.
    fn finish(&mut self) -> Result<bool, ScopeError>;
}

fn io(e: std::io::Error) -> ScopeError {
    ScopeError::io("writing to stdout", e)
}

/// `PID comm container` before each line.
fn who(w: &Watched) -> String {
    format!("{:>8}  {:<15}  {:<12}", w.pid, w.comm, w.container_short())
}

/// The `--all` announcement of a new process, on `out`.
fn announce(out: &mut dyn Write, w: &Watched) -> std::io::Result<()> {
    let place = match (&w.placement.container, &w.placement.pod) {
        (Some(c), Some(p)) => format!(", container {c}, pod {p}"),
        (Some(c), None) => format!(", container {c}"),
        (None, Some(p)) => format!(", pod {p}"),
        (None, None) => String::new(),
    };
    writeln!(
        out,
        "sluice scope: watching process {} ({}, {}{place})",
        w.pid, w.comm, w.exe
    )
}

/// Plain lines for every process.
#[derive(Debug, Default)]
pub(crate) struct HostText {
    lines: usize,
}

impl HostFace for HostText {
    fn added(&mut self, w: &Watched) -> Result<(), ScopeError> {
        let mut out = std::io::stdout().lock();
        announce(&mut out, w).map_err(io)?;
        out.flush().map_err(io)
    }

    fn report(&mut self, w: &Watched, r: &Report) -> Result<(), ScopeError> {
        let mut out = std::io::stdout().lock();
        if self.lines.is_multiple_of(20) {
            writeln!(
                out,
                "{:>8}  {:<15}  {:<12}{}",
                "pid",
                "comm",
                "container",
                text::HEADER
            )
            .map_err(io)?;
        }
        if w.windows == 1 {
            writeln!(out, "{}  {}", who(w), w.found).map_err(io)?;
        }
        self.lines += 1;
        writeln!(out, "{}{}", who(w), text::line(r)).map_err(io)?;
        if r.verdict != crate::Verdict::Healthy {
            writeln!(out, "{:>40}{}", "", r.evidence).map_err(io)?;
        }
        out.flush().map_err(io)
    }

    fn ended(&mut self, w: &Watched) -> Result<(), ScopeError> {
        let mut out = std::io::stdout().lock();
        writeln!(
            out,
            "sluice scope: process {} ({}): {}",
            w.pid,
            w.comm,
            w.ended.as_deref().unwrap_or("ended")
        )
        .map_err(io)?;
        out.flush().map_err(io)
    }

    fn finish(&mut self) -> Result<bool, ScopeError> {
        Ok(true)
    }
}

/// JSON lines for every process (written by `face::json::JsonLines`, the
/// same for `--json-out`); announcements on stderr.
pub(crate) struct HostJson;

/// One window of `w` as a JSON object: the report's fields, then `comm`,
/// `exe`, `container` and `pod` (null on the host).
pub(crate) fn json_line(w: &Watched, r: &Report) -> serde_json::Value {
    let mut v = serde_json::to_value(r).unwrap_or_default();
    if let Some(o) = v.as_object_mut() {
        o.insert("comm".into(), w.comm.clone().into());
        o.insert("exe".into(), w.exe.clone().into());
        o.insert("container".into(), w.placement.container.clone().into());
        o.insert("pod".into(), w.placement.pod.clone().into());
    }
    v
}

impl HostFace for HostJson {
    fn added(&mut self, w: &Watched) -> Result<(), ScopeError> {
        let _ = announce(&mut std::io::stderr().lock(), w);
        Ok(())
    }

    fn report(&mut self, _w: &Watched, _r: &Report) -> Result<(), ScopeError> {
        Ok(())
    }

    fn ended(&mut self, w: &Watched) -> Result<(), ScopeError> {
        eprintln!(
            "sluice scope: process {} ({}): {}",
            w.pid,
            w.comm,
            w.ended.as_deref().unwrap_or("ended")
        );
        Ok(())
    }

    fn finish(&mut self) -> Result<bool, ScopeError> {
        Ok(false)
    }
}

/// One exposition for every process (processes that ended leave it), and
/// the text lines.
pub(crate) struct HostPrometheus {
    exporter: Exporter,
    text: HostText,
    dirty: bool,
    /// Each watched process's counters over its windows, by PID.
    totals: BTreeMap<u32, Totals>,
}

impl HostPrometheus {
    /// Listens on `addr`.
    pub(crate) fn start(addr: SocketAddr) -> Result<HostPrometheus, ScopeError> {
        let exporter = Exporter::start(addr)?;
        eprintln!("sluice scope: serving http://{addr}/metrics");
        Ok(HostPrometheus {
            exporter,
            text: HostText::default(),
            dirty: false,
            totals: BTreeMap::new(),
        })
    }
}

/// The exposition of every process still watched that has a window, with
/// its counters from `totals`.
pub(crate) fn exposition(procs: &Processes, totals: &BTreeMap<u32, Totals>) -> String {
    let entries: Vec<_> = procs
        .values()
        .filter(|w| w.ended.is_none())
        .filter_map(|w| Some((w.labels(), w.last.as_ref()?, totals.get(&w.pid)?)))
        .collect();
    if entries.is_empty() {
        return "# sluice scope --all: no window completed yet\n".into();
    }
    encode_many(&entries)
}

impl HostFace for HostPrometheus {
    fn added(&mut self, w: &Watched) -> Result<(), ScopeError> {
        // A new process, even under a PID seen before: counted from zero.
        self.totals.remove(&w.pid);
        self.text.added(w)
    }

    fn report(&mut self, w: &Watched, r: &Report) -> Result<(), ScopeError> {
        self.dirty = true;
        self.totals.entry(w.pid).or_default().add(r);
        self.text.report(w, r)
    }

    fn ended(&mut self, w: &Watched) -> Result<(), ScopeError> {
        self.dirty = true;
        // An ended process leaves the exposition.
        self.totals.remove(&w.pid);
        self.text.ended(w)
    }

    fn tick(&mut self, procs: &Processes) -> Result<(), ScopeError> {
        if std::mem::take(&mut self.dirty) {
            self.exporter.set_page(exposition(procs, &self.totals));
        }
        Ok(())
    }

    fn finish(&mut self) -> Result<bool, ScopeError> {
        Ok(true)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::verdict::watched::tests::watched;

    #[test]
    fn the_exposition_sums_each_process_windows_and_leaves_ended_ones_out() {
        let mut procs = Processes::new();
        let mut totals = BTreeMap::new();
        // Two windows of 1 s, every sample of the one pool thread busy.
        for w in [watched(10, Some(100), false), watched(11, Some(100), true)] {
            let r = w.last.clone().unwrap();
            let t: &mut Totals = totals.entry(w.pid).or_default();
            t.add(&r);
            t.add(&r);
            procs.insert(w.pid, w);
        }
        let page = exposition(&procs, &totals);
        let labels = "pid=\"10\",comm=\"node\",container=\"\",pod=\"\"";
        for want in [
            format!("sluice_scope_pool_saturated_seconds_total{{{labels}}} 2.0"),
            format!("sluice_scope_pool_busy_thread_seconds_total{{{labels}}} 2.0"),
        ] {
            assert!(page.contains(&want), "{want} missing:\n{page}");
        }
        assert!(
            !page.contains("pid=\"11\""),
            "an ended process left:\n{page}"
        );
    }
}
