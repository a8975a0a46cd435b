//! [`Summary`]: the table printed when a run ends (`--duration`, Ctrl-C, or
//! the process exiting): min, mean and max of each figure over the
//! windows, and how many windows got each verdict.

use crate::verdict::aggregate::Report;
use crate::verdict::doctor::Verdict;
use std::fmt::Write;

/// A row of the table: its name, and the figure of one window (`None`: not
/// read in that window).
type Figure = (&'static str, fn(&Report) -> Option<f64>);

/// The rows of every run, in order.
const FIGURES: &[Figure] = &[
    ("pool size", |r| Some(r.pool_size as f64)),
    ("busy threads", |r| Some(r.busy_threads)),
    ("utilization %", |r| Some(r.utilization_pct)),
    ("saturation %", |r| Some(r.saturation_pct)),
    ("loop utilization %", |r| Some(r.loop_utilization_pct)),
    ("queue depth", |r| r.queue_depth),
    ("slow I/O queued", |r| r.slow_queue_depth),
    ("slow I/O running", |r| r.slow_io_running),
    ("slow I/O throttled %", |r| r.slow_io_throttled_pct),
    ("pool CPU % of a core", |r| r.pool_cpu_pct),
    ("sampler CPU % of a core", |r| Some(r.sampler_cpu_pct)),
    ("samples per window", |r| Some(f64::from(r.samples))),
];

/// The rows added when a window had probes.
const PROBE_FIGURES: &[Figure] = &[
    ("probe: submitted per s", |r| {
        r.probe.as_ref().map(|p| p.submitted_per_s)
    }),
    ("probe: cpu wait ms (p50)", |r| {
        r.probe.as_ref().and_then(|p| p.cpu.wait_ms_p50)
    }),
    ("probe: fast_io wait ms (p50)", |r| {
        r.probe.as_ref().and_then(|p| p.fast_io.wait_ms_p50)
    }),
    ("probe: slow_io wait ms (p50)", |r| {
        r.probe.as_ref().and_then(|p| p.slow_io.wait_ms_p50)
    }),
];

/// One row: `name`, then min, mean and max of `v` (dashes when empty).
fn min_mean_max(name: &str, v: &[f64], width: usize) -> String {
    if v.is_empty() {
        return format!("{name:<width$}  {:>8}  {:>8}  {:>8}", "-", "-", "-");
    }
    let min = v.iter().copied().fold(f64::INFINITY, f64::min);
    let max = v.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let mean = v.iter().sum::<f64>() / v.len() as f64;
    format!("{name:<width$}  {min:>8.1}  {mean:>8.1}  {max:>8.1}")
}

/// Figures over every window of a run.
#[derive(Debug, Clone, Default)]
pub struct Summary {
    reports: Vec<Report>,
}

impl Summary {
    /// An empty summary.
    pub fn new() -> Summary {
        Summary::default()
    }

    /// Adds one window.
    pub fn add(&mut self, r: &Report) {
        let mut r = r.clone();
        r.threads.clear(); // not summarised; keep the memory flat
        self.reports.push(r);
    }

    /// Windows added.
    pub fn windows(&self) -> usize {
        self.reports.len()
    }

    /// How many windows got `v`.
    pub fn verdict_count(&self, v: Verdict) -> usize {
        self.reports.iter().filter(|r| r.verdict == v).count()
    }

    /// Each window's verdict and length in seconds, in order: libuv's
    /// pool and the loop's, or where that is no finding, the first of
    /// sluice's lanes that is one (`pool-saturated` with its lane).
    pub fn verdicts(&self) -> impl Iterator<Item = (Verdict, f64)> + '_ {
        self.reports.iter().map(|r| {
            let lane = r
                .sluice_lanes
                .iter()
                .map(|l| l.verdict)
                .find(|v| v.is_finding());
            match lane {
                Some(v) if !r.verdict.is_finding() => (v, r.window_s),
                _ => (r.verdict, r.window_s),
            }
        })
    }

    /// Windows whose verdict is a finding ([`Verdict::is_finding`]).
    pub fn findings(&self) -> usize {
        self.reports
            .iter()
            .filter(|r| r.verdict.is_finding())
            .count()
    }

    /// Windows with a verdict other than `unknown`: healthy or a finding.
    pub fn diagnosed(&self) -> usize {
        self.reports
            .iter()
            .filter(|r| r.verdict != Verdict::Unknown)
            .count()
    }

    /// The table, as text.
    ///
    /// ```
    /// let s = sluice_scope::verdict::summary::Summary::new();
    /// assert_eq!(s.render(), "sluice scope: no window completed\n");
    /// ```
    pub fn render(&self) -> String {
        let Some(last) = self.reports.last() else {
            return "sluice scope: no window completed\n".into();
        };
        let secs: f64 = self.reports.iter().map(|r| r.window_s).sum();
        let mut out = String::new();
        let _ = writeln!(
            out,
            "sluice scope summary: process {}, {} window{} ({secs:.1} s), pool found by {}",
            last.pid,
            self.reports.len(),
            if self.reports.len() == 1 { "" } else { "s" },
            last.discovery
        );
        let probed = self.reports.iter().any(|r| r.probe.is_some());
        let figures: Vec<&Figure> = FIGURES
            .iter()
            .chain(PROBE_FIGURES.iter().filter(|_| probed))
            .collect();
        let width = figures.iter().map(|(n, _)| n.len()).max().unwrap_or(0);
        let _ = writeln!(
            out,
            "{:<width$}  {:>8}  {:>8}  {:>8}",
            "figure", "min", "mean", "max"
        );
        let _ = writeln!(out, "{}", "-".repeat(width + 30));
        for (name, of) in figures {
            let _ = writeln!(out, "{}", min_mean_max(name, &self.col(of), width));
        }
        let verdicts: Vec<String> = Verdict::ALL
            .iter()
            .map(|v| (v, self.verdict_count(*v)))
            .filter(|(_, n)| *n > 0)
            .map(|(v, n)| format!("{} {n}", v.as_str()))
            .collect();
        let _ = writeln!(out, "verdicts (windows): {}", verdicts.join(", "));
        let mut lanes: Vec<(&str, usize, usize)> = Vec::new();
        for l in self.reports.iter().flat_map(|r| &r.sluice_lanes) {
            let saturated = usize::from(l.verdict.is_finding());
            match lanes.iter_mut().find(|(n, _, _)| *n == l.lane) {
                Some((_, seen, sat)) => {
                    *seen += 1;
                    *sat += saturated;
                }
                None => lanes.push((l.lane, 1, saturated)),
            }
        }
        if !lanes.is_empty() {
            let text: Vec<String> = lanes
                .iter()
                .map(|(n, seen, sat)| format!("{n} saturated in {sat} of {seen}"))
                .collect();
            let _ = writeln!(out, "sluice lanes (windows): {}", text.join(", "));
        }
        out
    }

    fn col(&self, f: impl Fn(&Report) -> Option<f64>) -> Vec<f64> {
        self.reports.iter().filter_map(f).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn report(busy: usize, t_s: f64) -> Report {
        crate::verdict::aggregate::one_sample_report(t_s, 9, busy)
    }

    #[test]
    fn the_table_has_min_mean_max_and_verdict_counts() {
        let mut s = Summary::new();
        s.add(&report(2, 1.0));
        s.add(&report(0, 2.0));
        s.add(&report(2, 3.0));
        assert_eq!(s.windows(), 3);
        assert_eq!(s.verdict_count(Verdict::PoolSaturated), 2);
        assert_eq!(s.findings(), 2);
        assert_eq!(s.diagnosed(), 3);
        let text = s.render();
        assert!(
            text.starts_with(
                "sluice scope summary: process 9, 3 windows (3.0 s), pool found by memory\n"
            ),
            "{text}"
        );
        assert!(
            text.contains("saturation %                  0.0      66.7     100.0"),
            "{text}"
        );
        assert!(
            text.contains("verdicts (windows): healthy 1, pool-saturated 2"),
            "{text}"
        );
        assert!(
            text.contains("queue depth                     -         -         -"),
            "{text}"
        );
    }
}
