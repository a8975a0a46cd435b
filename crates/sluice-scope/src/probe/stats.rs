//! Probe mode's accounting: [`Stats`] follows each request from `submit`
//! through `start` and `end` to `done`, per libuv kind, and turns a window
//! of events into a [`ProbeReport`].
//!
//! Requests submitted before the probes were attached are not in the
//! queue-depth count; those that start afterwards are counted under
//! `unknown` (their kind and submission time were not seen).

use super::events::{Event, What};
use serde::Serialize;
use std::collections::HashMap;

/// A libuv work kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// `UV__WORK_CPU` (async crypto, zlib, `uv_queue_work`).
    Cpu,
    /// `UV__WORK_FAST_IO` (`fs.*`).
    FastIo,
    /// `UV__WORK_SLOW_IO` (`dns.lookup`, `getnameinfo`).
    SlowIo,
    /// Submitted before the probes were attached.
    Unknown,
}

impl Kind {
    /// From libuv's `enum uv__work_kind`.
    pub fn from_libuv(kind: i32) -> Kind {
        match kind {
            0 => Kind::Cpu,
            1 => Kind::FastIo,
            2 => Kind::SlowIo,
            _ => Kind::Unknown,
        }
    }

    fn index(self) -> usize {
        self as usize
    }

    const ALL: [Kind; 4] = [Kind::Cpu, Kind::FastIo, Kind::SlowIo, Kind::Unknown];
}

/// The upper bounds, in seconds, of [`TimeBuckets`]: 100 µs to 10 s in
/// 1-2.5-5 steps, then `+Inf`.
pub const BUCKET_BOUNDS_S: [f64; 16] = [
    0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5,
    5.0, 10.0,
];

/// Durations counted into [`BUCKET_BOUNDS_S`]: a Prometheus histogram's
/// buckets (per bucket, not cumulative; the last is `+Inf`) and exact sum.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct TimeBuckets {
    /// Durations per bucket: `counts[i]` at most `BUCKET_BOUNDS_S[i]` and
    /// above the bound before; the last above every bound.
    pub counts: [u64; BUCKET_BOUNDS_S.len() + 1],
    /// Their sum, in seconds.
    pub sum_s: f64,
}

impl TimeBuckets {
    /// Counts one duration of `ns` nanoseconds.
    ///
    /// ```
    /// let mut b = sluice_scope::probe::stats::TimeBuckets::default();
    /// b.observe_ns(1_000_000); // 1 ms: the 0.001 bucket (inclusive)
    /// b.observe_ns(20_000_000_000); // 20 s: +Inf
    /// assert_eq!((b.counts[3], b.counts[16], b.count()), (1, 1, 2));
    /// assert_eq!(b.sum_s, 20.001);
    /// ```
    pub fn observe_ns(&mut self, ns: u64) {
        let s = ns as f64 / 1e9;
        let i = BUCKET_BOUNDS_S
            .iter()
            .position(|&le| s <= le)
            .unwrap_or(BUCKET_BOUNDS_S.len());
        self.counts[i] += 1;
        self.sum_s += s;
    }

    /// Durations counted.
    pub fn count(&self) -> u64 {
        self.counts.iter().sum()
    }

    /// Adds `other`'s counts and sum.
    pub fn add(&mut self, other: &TimeBuckets) {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
        self.sum_s += other.sum_s;
    }

    /// `(upper bound, count)` per bucket, `+Inf` last: what a Prometheus
    /// histogram encoder takes.
    pub fn per_bucket(&self) -> Vec<(f64, u64)> {
        BUCKET_BOUNDS_S
            .iter()
            .copied()
            .chain([f64::INFINITY])
            .zip(self.counts)
            .collect()
    }
}

/// One kind over one window.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct KindReport {
    /// Requests submitted.
    pub submitted: u64,
    /// Requests a pool thread started.
    pub started: u64,
    /// Requests whose work function returned.
    pub completed: u64,
    /// Completions the loop delivered (callbacks run).
    pub delivered: u64,
    /// Requests waiting for a thread at the window's end.
    pub queue_depth: u64,
    /// Most waiting at once during the window.
    pub queue_depth_max: u64,
    /// Queue wait (submit to start) of the requests started: mean, median,
    /// max, in ms (`null` when none started).
    pub wait_ms_mean: Option<f64>,
    /// Median queue wait in ms.
    pub wait_ms_p50: Option<f64>,
    /// Longest queue wait in ms.
    pub wait_ms_max: Option<f64>,
    /// Run time (start to end) of the requests completed: mean in ms.
    pub run_ms_mean: Option<f64>,
    /// Median run time in ms.
    pub run_ms_p50: Option<f64>,
    /// Longest run time in ms.
    pub run_ms_max: Option<f64>,
    /// The queue waits, bucketed (the exporter's histogram; not in JSON).
    #[serde(skip)]
    pub wait_buckets: TimeBuckets,
    /// The run times, bucketed (the exporter's histogram; not in JSON).
    #[serde(skip)]
    pub run_buckets: TimeBuckets,
}

/// Probe mode's figures for one window.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ProbeReport {
    /// Submissions per second, all kinds.
    pub submitted_per_s: f64,
    /// `UV__WORK_CPU`.
    pub cpu: KindReport,
    /// `UV__WORK_FAST_IO`.
    pub fast_io: KindReport,
    /// `UV__WORK_SLOW_IO`.
    pub slow_io: KindReport,
    /// Requests started that were submitted before the probes attached.
    pub unknown: KindReport,
    /// Events the kernel dropped because the trace buffer was full (the
    /// counts above miss them).
    pub lost_events: u64,
}

#[derive(Debug, Clone, Default)]
struct Acc {
    submitted: u64,
    started: u64,
    completed: u64,
    delivered: u64,
    depth_max: u64,
    waits_ns: Vec<u64>,
    runs_ns: Vec<u64>,
}

/// Follows requests through the probes.
#[derive(Debug, Default)]
pub struct Stats {
    /// Submitted, not started: request → (kind, submit time).
    queued: HashMap<u64, (Kind, u64)>,
    /// Running: thread → (kind, start time).
    running: HashMap<u32, (Kind, u64)>,
    /// Ran, callback not yet delivered: request → kind.
    finished: HashMap<u64, Kind>,
    /// Requests waiting, per kind.
    depth: [u64; 4],
    window: [Acc; 4],
}

impl Stats {
    /// Counts one event.
    pub fn on_event(&mut self, e: &Event) {
        match e.what {
            What::Submit { w, kind } => self.submitted(w, Kind::from_libuv(kind), e.ts_ns),
            What::QueueWork { w } => self.submitted(w, Kind::Cpu, e.ts_ns),
            What::Start { w } => {
                let (kind, wait) = match self.queued.remove(&w) {
                    Some((k, t)) => {
                        self.depth[k.index()] = self.depth[k.index()].saturating_sub(1);
                        (k, Some(e.ts_ns.saturating_sub(t)))
                    }
                    None => (Kind::Unknown, None),
                };
                let a = &mut self.window[kind.index()];
                a.started += 1;
                a.waits_ns.extend(wait);
                self.running.insert(e.tid, (kind, e.ts_ns));
                self.finished.insert(w, kind);
            }
            What::End => {
                if let Some((kind, t)) = self.running.remove(&e.tid) {
                    let a = &mut self.window[kind.index()];
                    a.completed += 1;
                    a.runs_ns.push(e.ts_ns.saturating_sub(t));
                }
            }
            What::Done { w } => {
                let kind = self.finished.remove(&w).unwrap_or(Kind::Unknown);
                self.window[kind.index()].delivered += 1;
            }
        }
    }

    fn submitted(&mut self, w: u64, kind: Kind, ts: u64) {
        self.queued.insert(w, (kind, ts));
        let i = kind.index();
        self.depth[i] += 1;
        let a = &mut self.window[i];
        a.submitted += 1;
        a.depth_max = a.depth_max.max(self.depth[i]);
    }

    /// The report of the window that ends now, `window_s` long; starts the
    /// next window.
    pub fn take(&mut self, window_s: f64, lost_events: u64) -> ProbeReport {
        let accs = std::mem::take(&mut self.window);
        let mut kinds = Kind::ALL.iter().zip(accs).map(|(k, a)| {
            let depth = self.depth[k.index()];
            // The window's max is at least the depth it started with.
            self.window[k.index()].depth_max = depth;
            kind_report(a, depth)
        });
        let cpu = kinds.next().expect("4 kinds");
        let fast_io = kinds.next().expect("4 kinds");
        let slow_io = kinds.next().expect("4 kinds");
        let unknown = kinds.next().expect("4 kinds");
        let submitted = cpu.submitted + fast_io.submitted + slow_io.submitted;
        ProbeReport {
            submitted_per_s: submitted as f64 / window_s.max(1e-9),
            cpu,
            fast_io,
            slow_io,
            unknown,
            lost_events,
        }
    }
}

fn kind_report(mut a: Acc, depth: u64) -> KindReport {
    let ms = |ns: u64| ns as f64 / 1e6;
    let summary = |v: &mut Vec<u64>| {
        if v.is_empty() {
            return (None, None, None);
        }
        v.sort_unstable();
        let mean = v.iter().sum::<u64>() as f64 / v.len() as f64 / 1e6;
        (
            Some(mean),
            Some(ms(v[(v.len() - 1) / 2])),
            Some(ms(*v.last().expect("not empty"))),
        )
    };
    let buckets = |v: &[u64]| {
        let mut b = TimeBuckets::default();
        for &ns in v {
            b.observe_ns(ns);
        }
        b
    };
    let wait_buckets = buckets(&a.waits_ns);
    let run_buckets = buckets(&a.runs_ns);
    let (wait_ms_mean, wait_ms_p50, wait_ms_max) = summary(&mut a.waits_ns);
    let (run_ms_mean, run_ms_p50, run_ms_max) = summary(&mut a.runs_ns);
    KindReport {
        submitted: a.submitted,
        started: a.started,
        completed: a.completed,
        delivered: a.delivered,
        queue_depth: depth,
        queue_depth_max: a.depth_max.max(depth),
        wait_ms_mean,
        wait_ms_p50,
        wait_ms_max,
        run_ms_mean,
        run_ms_p50,
        run_ms_max,
        wait_buckets,
        run_buckets,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ev(tid: u32, ms: u64, what: What) -> Event {
        Event {
            tid,
            tgid: 1,
            ts_ns: ms * 1_000_000,
            what,
        }
    }

    #[test]
    fn follows_requests_per_kind() {
        let mut s = Stats::default();
        // Two CPU requests (one via uv_queue_work), one fast I/O; one
        // thread runs them in turn.
        s.on_event(&ev(1, 0, What::QueueWork { w: 0x100 }));
        s.on_event(&ev(1, 0, What::Submit { w: 0x200, kind: 0 }));
        s.on_event(&ev(1, 1, What::Submit { w: 0x300, kind: 1 }));
        s.on_event(&ev(2, 2, What::Start { w: 0x100 }));
        s.on_event(&ev(2, 12, What::End));
        s.on_event(&ev(1, 13, What::Done { w: 0x100 }));
        s.on_event(&ev(2, 12, What::Start { w: 0x300 }));
        s.on_event(&ev(2, 13, What::End));
        let r = s.take(1.0, 0);
        assert_eq!(r.submitted_per_s, 3.0);
        assert_eq!(
            (
                r.cpu.submitted,
                r.cpu.started,
                r.cpu.completed,
                r.cpu.delivered
            ),
            (2, 1, 1, 1)
        );
        assert_eq!((r.cpu.queue_depth, r.cpu.queue_depth_max), (1, 2));
        assert_eq!(r.cpu.wait_ms_max, Some(2.0));
        assert_eq!(r.cpu.run_ms_p50, Some(10.0));
        // One CPU wait of 2 ms (the 0.0025 s bucket), one run of 10 ms.
        assert_eq!(r.cpu.wait_buckets.count(), 1);
        assert_eq!(r.cpu.wait_buckets.counts[4], 1);
        assert_eq!(r.cpu.run_buckets.counts[6], 1);
        assert_eq!(r.cpu.run_buckets.sum_s, 0.01);
        assert_eq!((r.fast_io.submitted, r.fast_io.queue_depth), (1, 0));
        assert_eq!(r.fast_io.wait_ms_p50, Some(11.0));
        // The next window starts from the depth left over.
        s.on_event(&ev(2, 14, What::Start { w: 0x200 }));
        let r = s.take(1.0, 3);
        assert_eq!((r.cpu.submitted, r.cpu.started), (0, 1));
        assert_eq!((r.cpu.queue_depth, r.cpu.queue_depth_max), (0, 1));
        assert_eq!(r.cpu.wait_ms_max, Some(14.0));
        assert_eq!(r.lost_events, 3);
    }

    #[test]
    fn requests_from_before_attach_are_unknown() {
        let mut s = Stats::default();
        s.on_event(&ev(5, 0, What::Start { w: 0x900 }));
        s.on_event(&ev(5, 4, What::End));
        s.on_event(&ev(1, 5, What::Done { w: 0x900 }));
        let r = s.take(0.5, 0);
        assert_eq!(
            (r.unknown.started, r.unknown.completed, r.unknown.delivered),
            (1, 1, 1)
        );
        assert_eq!(r.unknown.wait_ms_max, None);
        assert_eq!(r.unknown.run_ms_max, Some(4.0));
        assert_eq!(r.submitted_per_s, 0.0);
    }
}
