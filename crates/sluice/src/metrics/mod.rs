//! Counters built in, cheap enough to leave on, and the [`Snapshot`] that
//! exports them.
//!
//! - `counters.rs`: per-lane counts and worker shards, the saturation clock.
//! - `histogram.rs`: the single-writer HDR histogram of queue wait and run time.
//! - `export.rs`: `Snapshot::to_prometheus` and `PoolCollector` (feature
//!   `prometheus`); `Snapshot::to_json` is here (feature `serde`).
//!
//! One name per metric everywhere: the snapshot field `submitted_total` is the
//! JSON key `submitted_total` and the Prometheus series
//! `sluice_submitted_total{lane="cpu"}`. Counters end in `_total`, durations
//! are in `_seconds`. Gauges are current values; counters only ever grow.

pub(crate) mod counters;
#[cfg(feature = "prometheus")]
mod export;
#[cfg(feature = "prometheus")]
pub use export::PoolCollector;
#[cfg(feature = "prometheus")]
pub(crate) use export::Snapshots;
pub(crate) mod histogram;

use crate::lane::Lane;
use histogram::Merged;
#[cfg(feature = "serde")]
use serde::Serializer;

/// A point-in-time reading of every counter and gauge of a pool.
///
/// ```
/// use sluice::{Lane, Pool};
///
/// let pool = Pool::builder().build()?;
/// for i in 0..10 {
///     pool.spawn(Lane::FastIo, move || i).wait()?;
/// }
/// let snap = pool.metrics();
/// let fastio = snap.lane(Lane::FastIo);
/// assert_eq!(fastio.submitted_total, 10);
/// assert_eq!(fastio.completed_total, 10);
/// assert_eq!(fastio.queue_depth, 0);
/// assert_eq!(fastio.queue_wait_seconds.count, 10);
/// assert!(snap.to_prometheus().contains("sluice_completed_total{lane=\"fastio\"} 10"));
/// assert!(snap.to_json().contains("\"completed_total\": 10"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Snapshot {
    /// The pool's policy (its [`name`](crate::Policy::name), `"lanes"` or
    /// `"libuv"`, in JSON and in `sluice_info{policy}`).
    #[cfg_attr(feature = "serde", serde(serialize_with = "policy_name"))]
    pub policy: crate::Policy,
    /// The `Cpu` workers' scheduling policy ([`Builder::cpu_sched`](crate::Builder::cpu_sched);
    /// its token in JSON: `"normal"`, `"batch"`, `"idle"`, `"guarded"`);
    /// `None` under the libuv policy.
    #[cfg_attr(feature = "serde", serde(serialize_with = "sched_token"))]
    pub cpu_sched: Option<crate::CpuSched>,
    /// Gauge: worker threads alive, all lanes.
    pub threads_alive: u64,
    /// Gauge: worker threads alive and waiting for work, all lanes.
    pub threads_idle: u64,
    /// One entry per lane, in [`Lane::ALL`] order.
    pub lanes: Vec<LaneSnapshot>,
}

impl Snapshot {
    /// The entry for `lane`.
    pub fn lane(&self, lane: Lane) -> &LaneSnapshot {
        &self.lanes[lane.index()]
    }
}

/// The counters and gauges of one lane.
///
/// They balance: once the pool is idle,
/// `submitted_total = queue_depth + started_total + cancelled_total + expired_total + abandoned_total`
/// and `started_total = in_flight + completed_total + panicked_total`.
/// `rejected_total` counts refusals, which were never submitted.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct LaneSnapshot {
    /// The lane.
    #[cfg_attr(feature = "serde", serde(serialize_with = "lane_name"))]
    pub lane: Lane,
    /// Gauge: how many of this lane's tasks may run at once. Under the libuv
    /// policy: the pool size for `cpu` and `fastio`, the slow-I/O threshold
    /// `(nthreads + 1) / 2` for `slowio`; 0 before the lazy start.
    pub limit: u64,
    /// The queue bound, if any.
    pub queue_bound: Option<u64>,
    /// Count: tasks accepted into the lane.
    pub submitted_total: u64,
    /// Count: tasks a worker started.
    pub started_total: u64,
    /// Count: tasks that returned.
    pub completed_total: u64,
    /// Count: tasks that panicked (their handles got `TaskError::Panicked`).
    pub panicked_total: u64,
    /// Count: `try_spawn` refusals (`Busy`); these were never submitted.
    pub rejected_total: u64,
    /// Count: tasks pulled off the queue by `Task::cancel`.
    pub cancelled_total: u64,
    /// Count: tasks whose queue deadline passed before they started.
    pub expired_total: u64,
    /// Count: queued tasks failed with `TaskError::Shutdown` or
    /// `TaskError::NoThread` because no thread would ever run them.
    pub abandoned_total: u64,
    /// Count: worker threads the operating system refused to start.
    pub spawn_failures_total: u64,
    /// Blocking compensation is on for this lane (lanes policy; see
    /// [`Builder::adaptive`](crate::Builder::adaptive)).
    pub adaptive: bool,
    /// The most threads the lane may run, compensation included; `None`
    /// under the libuv policy.
    pub max_threads: Option<u64>,
    /// Gauge: the lane's workers whose task is blocked now (in a
    /// [`blocking`](crate::blocking) section, or found waiting by the
    /// monitor); `None` under the libuv policy.
    pub blocked_threads: Option<u64>,
    /// Gauge: a guarded `Cpu` lane's workers run `SCHED_OTHER` now (the
    /// guard found the lane starving), not `SCHED_IDLE`; `None` for a lane
    /// that is not guarded ([`CpuSched::Guarded`](crate::CpuSched::Guarded)).
    pub sched_promoted: Option<bool>,
    /// Count: a guarded lane's moves to `SCHED_OTHER`; `None` when not
    /// guarded.
    pub sched_promotions_total: Option<u64>,
    /// Count: a guarded lane's policy changes the kernel refused (the
    /// worker kept its policy); `None` when not guarded.
    pub sched_refused_total: Option<u64>,
    /// Count: threads started beyond the lane's budget because workers were
    /// blocked. A lane where this keeps growing lives on compensation.
    pub compensated_total: u64,
    /// Count: [`blocking`](crate::blocking) sections entered by the lane's tasks.
    pub blocking_sections_total: u64,
    /// Count: tasks the monitor found blocked without a declared section.
    pub blocked_detected_total: u64,
    /// Gauge: the most worker threads the lane had at once; `None` under
    /// the libuv policy.
    pub threads_peak: Option<u64>,
    /// Gauge: tasks waiting in the queue: admitted, and neither claimed by
    /// a worker nor cancelled yet.
    pub queue_depth: u64,
    /// Gauge: [`Pool::reserve`](crate::Pool::reserve) calls waiting for
    /// room in the full queue (they are not in `queue_depth` yet).
    pub reservations_waiting: u64,
    /// Gauge: tasks running now.
    pub in_flight: u64,
    /// Gauge: this lane's worker threads; `None` under the libuv policy,
    /// whose threads serve every lane (see [`Snapshot::threads_alive`]).
    pub threads_alive: Option<u64>,
    /// Gauge: this lane's idle worker threads; `None` under the libuv policy.
    pub threads_idle: Option<u64>,
    /// Count: seconds during which the lane's whole budget was busy and work
    /// was still queued.
    pub saturated_seconds_total: f64,
    /// Time from submission to start, of every started task.
    pub queue_wait_seconds: HistogramSnapshot,
    /// Time from start to finish, of every finished task.
    pub run_time_seconds: HistogramSnapshot,
}

/// Summary of an HDR histogram of durations, in seconds.
///
/// Quantiles have at most 6.25 % relative error (16 buckets per power of two).
#[derive(Debug, Clone, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct HistogramSnapshot {
    /// Values recorded.
    pub count: u64,
    /// Sum of values.
    pub sum_seconds: f64,
    /// Median.
    pub p50_seconds: f64,
    /// 90th percentile.
    pub p90_seconds: f64,
    /// 99th percentile.
    pub p99_seconds: f64,
    /// 99.9th percentile.
    pub p999_seconds: f64,
    /// Largest value (upper end of its bucket).
    pub max_seconds: f64,
    /// Cumulative counts at the Prometheus bucket bounds [`BUCKET_BOUNDS`].
    pub buckets: Vec<(f64, u64)>,
}

/// Upper bounds (seconds) of the exported histogram buckets, `+Inf` implied:
/// 1-2.5-5 steps from 1 µs to 10 s, then a minute. Fine enough around the
/// doctor's thresholds (10 ms queue wait, 20 ms loop lag) that a p99 read
/// from the buckets is off by at most one step.
pub const BUCKET_BOUNDS: [f64; 23] = [
    1e-6, 2.5e-6, 5e-6, 1e-5, 2.5e-5, 5e-5, 1e-4, 2.5e-4, 5e-4, 1e-3, 2.5e-3, 5e-3, 1e-2, 2e-2,
    5e-2, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 60.0,
];

impl HistogramSnapshot {
    pub(crate) fn from_merged(m: &Merged) -> Self {
        let count: u64 = m.counts.iter().sum();
        if count == 0 {
            return HistogramSnapshot {
                buckets: BUCKET_BOUNDS.iter().map(|&b| (b, 0)).collect(),
                ..Default::default()
            };
        }
        let hdr = m.to_hdr();
        let secs = |ns: u64| ns as f64 / 1e9;
        let mut buckets = Vec::with_capacity(BUCKET_BOUNDS.len());
        let mut cumulative = 0;
        let mut idx = 0;
        for &bound in &BUCKET_BOUNDS {
            // A bucket counts toward `le` when its midpoint is within it.
            while idx < m.counts.len() {
                let (low, width) = histogram::bucket_bounds(idx);
                if secs(low + width / 2) > bound {
                    break;
                }
                cumulative += m.counts[idx];
                idx += 1;
            }
            buckets.push((bound, cumulative));
        }
        let max_bucket = m.counts.iter().rposition(|&n| n > 0).unwrap_or(0);
        let (low, width) = histogram::bucket_bounds(max_bucket);
        HistogramSnapshot {
            count,
            sum_seconds: secs(m.sum),
            p50_seconds: secs(hdr.value_at_quantile(0.5)),
            p90_seconds: secs(hdr.value_at_quantile(0.9)),
            p99_seconds: secs(hdr.value_at_quantile(0.99)),
            p999_seconds: secs(hdr.value_at_quantile(0.999)),
            max_seconds: secs(low + width - 1),
            buckets,
        }
    }
}

#[cfg(feature = "serde")]
fn policy_name<S: Serializer>(p: &crate::Policy, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(p.name())
}

#[cfg(feature = "serde")]
fn sched_token<S: Serializer>(p: &Option<crate::CpuSched>, s: S) -> Result<S::Ok, S::Error> {
    match p {
        Some(p) => s.serialize_str(p.token()),
        None => s.serialize_none(),
    }
}

#[cfg(feature = "serde")]
fn lane_name<S: Serializer>(lane: &Lane, s: S) -> Result<S::Ok, S::Error> {
    s.serialize_str(lane.name())
}

#[cfg(feature = "serde")]
impl Snapshot {
    /// The snapshot as pretty-printed JSON, with the same field names as the
    /// Rust struct and the Prometheus series.
    ///
    /// ```
    /// let pool = sluice::Pool::builder().build()?;
    /// let json: serde_json::Value = serde_json::from_str(&pool.metrics().to_json())?;
    /// assert_eq!(json["policy"], "lanes");
    /// assert_eq!(json["lanes"][0]["lane"], "cpu");
    /// assert_eq!(json["lanes"][2]["submitted_total"], 0);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("a snapshot always serializes")
    }
}
