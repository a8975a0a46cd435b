//! [`Snapshot::to_prometheus`] and [`PoolCollector`], via the
//! prometheus-client crate (feature `prometheus`).
//!
//! [`FAMILIES`] is every family sluice writes, in the order written: its
//! name, its help, and how to read it from a snapshot ([`Read`]). One loop
//! walks it at each scrape; a family's series are written in lane order,
//! straight from the snapshot.

use crate::metrics::{HistogramSnapshot, LaneSnapshot, Snapshot};
use prometheus_client::encoding::{
    DescriptorEncoder, EncodeLabelSet, EncodeMetric, MetricEncoder, NoLabelSet,
};
use prometheus_client::metrics::MetricType;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::registry::Registry;

#[derive(Debug, EncodeLabelSet)]
struct LaneLabel {
    lane: &'static str,
}

/// How a family reads its values from a snapshot.
#[derive(Clone, Copy)]
enum Read {
    /// One series per lane.
    Lanes(LaneRead),
    /// A gauge of the whole pool (`NAME`, no label).
    Pool(fn(&Snapshot) -> u64),
}

/// How a per-lane family reads a lane's value.
#[derive(Clone, Copy)]
enum LaneRead {
    /// A count (`NAME_total{lane}`).
    Count(fn(&LaneSnapshot) -> u64),
    /// A gauge every lane has (`NAME{lane}`).
    Value(fn(&LaneSnapshot) -> u64),
    /// A count of seconds (`NAME_total{lane}`).
    Seconds(fn(&LaneSnapshot) -> f64),
    /// A gauge (`NAME{lane}`); a lane without a value has no series, and a
    /// family where no lane has one is not written.
    Gauge(fn(&LaneSnapshot) -> Option<u64>),
    /// A count only some lanes keep (`NAME_total{lane}`); written like
    /// `Gauge`.
    OptCount(fn(&LaneSnapshot) -> Option<u64>),
    /// A histogram (`NAME_bucket{lane,le}`, `NAME_sum`, `NAME_count`).
    Histogram(fn(&LaneSnapshot) -> &HistogramSnapshot),
}

/// One metric family of a snapshot: its name, its help and its values.
struct FamilyDef {
    name: &'static str,
    help: &'static str,
    read: Read,
}

/// A family with one series per lane.
const fn lanes(name: &'static str, help: &'static str, read: LaneRead) -> FamilyDef {
    FamilyDef {
        name,
        help,
        read: Read::Lanes(read),
    }
}

/// A gauge of the whole pool.
const fn pool(name: &'static str, help: &'static str, read: fn(&Snapshot) -> u64) -> FamilyDef {
    FamilyDef {
        name,
        help,
        read: Read::Pool(read),
    }
}

/// A gauge's value: prometheus-client's gauges are `i64`.
fn gauge_value(v: u64) -> i64 {
    i64::try_from(v).unwrap_or(i64::MAX)
}

use LaneRead::{Count, Gauge, Histogram, OptCount, Seconds, Value};

/// Every family of a snapshot after `sluice_info`, in the order written.
const FAMILIES: &[FamilyDef] = &[
    lanes(
        "sluice_submitted",
        "Tasks accepted into the lane",
        Count(|l| l.submitted_total),
    ),
    lanes(
        "sluice_started",
        "Tasks a worker started",
        Count(|l| l.started_total),
    ),
    lanes(
        "sluice_completed",
        "Tasks that returned",
        Count(|l| l.completed_total),
    ),
    lanes(
        "sluice_panicked",
        "Tasks that panicked",
        Count(|l| l.panicked_total),
    ),
    lanes(
        "sluice_rejected",
        "Submissions refused with Busy (queue at its bound)",
        Count(|l| l.rejected_total),
    ),
    lanes(
        "sluice_cancelled",
        "Queued tasks pulled by Task::cancel",
        Count(|l| l.cancelled_total),
    ),
    lanes(
        "sluice_expired",
        "Tasks whose queue deadline passed before they started",
        Count(|l| l.expired_total),
    ),
    lanes(
        "sluice_abandoned",
        "Queued tasks failed because no thread would run them (shutdown)",
        Count(|l| l.abandoned_total),
    ),
    lanes(
        "sluice_spawn_failures",
        "Worker threads the OS refused to start",
        Count(|l| l.spawn_failures_total),
    ),
    lanes(
        "sluice_compensated",
        "Threads started beyond the lane's budget because workers were blocked",
        Count(|l| l.compensated_total),
    ),
    lanes(
        "sluice_blocking_sections",
        "sluice::blocking sections entered by the lane's tasks",
        Count(|l| l.blocking_sections_total),
    ),
    lanes(
        "sluice_blocked_detected",
        "Tasks the monitor found blocked without a declared section",
        Count(|l| l.blocked_detected_total),
    ),
    lanes(
        "sluice_saturated_seconds",
        "Seconds the lane's whole budget was busy with work still queued",
        Seconds(|l| l.saturated_seconds_total),
    ),
    lanes(
        "sluice_limit",
        "How many of the lane's tasks may run at once",
        Value(|l| l.limit),
    ),
    lanes(
        "sluice_queue_depth",
        "Tasks waiting in the lane's queue",
        Value(|l| l.queue_depth),
    ),
    lanes(
        "sluice_in_flight",
        "Tasks running now",
        Value(|l| l.in_flight),
    ),
    lanes(
        "sluice_concurrency_limit",
        "How many of the lane's tasks may compute at once (its budget; sluice_limit is the old name)",
        Value(|l| l.limit),
    ),
    lanes(
        "sluice_tasks_running",
        "Tasks running now (sluice_in_flight is the old name)",
        Value(|l| l.in_flight),
    ),
    lanes(
        "sluice_queue_bound",
        "The most tasks the lane's queue holds (bounded lanes only)",
        Gauge(|l| l.queue_bound),
    ),
    lanes(
        "sluice_reservations_waiting",
        "Pool::reserve calls waiting for room in the lane's full queue",
        Gauge(|l| l.queue_bound.map(|_| l.reservations_waiting)),
    ),
    lanes(
        "sluice_threads_alive",
        "The lane's worker threads",
        Gauge(|l| l.threads_alive),
    ),
    lanes(
        "sluice_blocked_threads",
        "The lane's workers whose task is blocked (declared or detected)",
        Gauge(|l| l.blocked_threads),
    ),
    lanes(
        "sluice_threads_peak",
        "The most worker threads the lane had at once",
        Gauge(|l| l.threads_peak),
    ),
    lanes(
        "sluice_max_threads",
        "The most threads the lane may run, compensation included",
        Gauge(|l| l.max_threads),
    ),
    lanes(
        "sluice_threads_idle",
        "The lane's idle worker threads",
        Gauge(|l| l.threads_idle),
    ),
    lanes(
        "sluice_sched_promoted",
        "A guarded Cpu lane's workers run SCHED_OTHER (1: the lane starved) or SCHED_IDLE (0)",
        Gauge(|l| l.sched_promoted.map(u64::from)),
    ),
    lanes(
        "sluice_sched_promotions",
        "A guarded Cpu lane's moves to SCHED_OTHER",
        OptCount(|l| l.sched_promotions_total),
    ),
    lanes(
        "sluice_sched_refused",
        "A guarded Cpu lane's policy changes the kernel refused",
        OptCount(|l| l.sched_refused_total),
    ),
    pool(
        "sluice_pool_threads_alive",
        "Worker threads alive, all lanes",
        |s| s.threads_alive,
    ),
    pool(
        "sluice_pool_threads_idle",
        "Idle worker threads, all lanes",
        |s| s.threads_idle,
    ),
    lanes(
        "sluice_queue_wait_seconds",
        "Time from submission to start",
        Histogram(|l| &l.queue_wait_seconds),
    ),
    lanes(
        "sluice_run_time_seconds",
        "Time from start to finish",
        Histogram(|l| &l.run_time_seconds),
    ),
];

impl FamilyDef {
    /// Writes this family of `snap` (nothing for a gauge no lane has).
    fn encode(&self, snap: &Snapshot, r: &mut Sink<'_, '_>) -> Result<(), std::fmt::Error> {
        match self.read {
            Read::Pool(value) => r.family(
                self.name,
                self.help,
                &ConstGauge::new(gauge_value(value(snap))),
            ),
            Read::Lanes(LaneRead::Gauge(value) | LaneRead::OptCount(value))
                if snap.lanes.iter().all(|l| value(l).is_none()) =>
            {
                Ok(())
            }
            Read::Lanes(read) => r.family(
                self.name,
                self.help,
                &PerLane {
                    lanes: &snap.lanes,
                    read,
                },
            ),
        }
    }
}

/// One family's series, one per lane, in lane order.
struct PerLane<'a> {
    lanes: &'a [LaneSnapshot],
    read: LaneRead,
}

impl EncodeMetric for PerLane<'_> {
    fn encode(&self, mut encoder: MetricEncoder<'_>) -> Result<(), std::fmt::Error> {
        for l in self.lanes {
            let label = LaneLabel {
                lane: l.lane.name(),
            };
            match self.read {
                LaneRead::Count(value) => encoder
                    .encode_family(&label)?
                    .encode_counter::<NoLabelSet, _, u64>(&value(l), None)?,
                LaneRead::Seconds(value) => encoder
                    .encode_family(&label)?
                    .encode_counter::<NoLabelSet, _, u64>(&value(l), None)?,
                LaneRead::Value(value) => encoder
                    .encode_family(&label)?
                    .encode_gauge(&gauge_value(value(l)))?,
                LaneRead::Gauge(value) => {
                    if let Some(v) = value(l) {
                        encoder
                            .encode_family(&label)?
                            .encode_gauge(&gauge_value(v))?;
                    }
                }
                LaneRead::OptCount(value) => {
                    if let Some(v) = value(l) {
                        encoder
                            .encode_family(&label)?
                            .encode_counter::<NoLabelSet, _, u64>(&v, None)?;
                    }
                }
                LaneRead::Histogram(value) => {
                    let h = value(l);
                    encoder
                        .encode_family(&label)?
                        .encode_histogram::<NoLabelSet>(
                            h.sum_seconds,
                            h.count,
                            &per_bucket(&h.buckets, h.count),
                            None,
                        )?;
                }
            }
        }
        Ok(())
    }

    fn metric_type(&self) -> MetricType {
        match self.read {
            LaneRead::Count(_) | LaneRead::Seconds(_) | LaneRead::OptCount(_) => {
                MetricType::Counter
            }
            LaneRead::Value(_) | LaneRead::Gauge(_) => MetricType::Gauge,
            LaneRead::Histogram(_) => MetricType::Histogram,
        }
    }
}

/// The encoder wants per-bucket counts and accumulates them itself; the
/// snapshots hold cumulative ones. `+Inf` holds the rest.
fn per_bucket(cumulative: &[(f64, u64)], count: u64) -> Vec<(f64, u64)> {
    let mut out = Vec::with_capacity(cumulative.len() + 1);
    let mut below = 0;
    for &(le, c) in cumulative {
        out.push((le, c.saturating_sub(below)));
        below = c;
    }
    out.push((f64::INFINITY, count.saturating_sub(below)));
    out
}

/// Where a snapshot's metric families go: one call per family.
struct Sink<'a, 'b> {
    encoder: &'a mut DescriptorEncoder<'b>,
}

impl<'a, 'b> Sink<'a, 'b> {
    fn new(encoder: &'a mut DescriptorEncoder<'b>) -> Self {
        Sink { encoder }
    }

    /// Encodes one family.
    fn family(
        &mut self,
        name: &str,
        help: &str,
        metric: &dyn EncodeMetric,
    ) -> Result<(), std::fmt::Error> {
        let m = self
            .encoder
            .encode_descriptor(name, help, None, metric.metric_type())?;
        metric.encode(m)
    }
}

#[derive(Clone, Debug, Hash, PartialEq, Eq, EncodeLabelSet)]
struct InfoLabels {
    policy: &'static str,
    version: &'static str,
}

/// A pool's series in a prometheus-client [`Registry`]: a
/// [`Collector`](prometheus_client::collector::Collector) that reads the
/// pool at each scrape. Made by [`Pool::collector`](crate::Pool::collector);
/// [`Pool::register`](crate::Pool::register) registers one.
///
/// It holds the pool's shared state, not a [`Pool`](crate::Pool) handle:
/// registering a pool does not keep it open (dropping every handle still
/// shuts it down), and its final counts stay readable.
pub struct PoolCollector {
    inner: std::sync::Arc<dyn Snapshots>,
}

/// What a [`PoolCollector`] reads at each scrape: the pool's shared state
/// (`pool::Inner`), behind a trait so that the metrics sit below the pool.
pub(crate) trait Snapshots: Send + Sync {
    /// Every counter and gauge, now.
    fn snapshot(&self) -> Snapshot;
}

impl PoolCollector {
    pub(crate) fn new(inner: std::sync::Arc<dyn Snapshots>) -> Self {
        PoolCollector { inner }
    }
}

impl std::fmt::Debug for PoolCollector {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PoolCollector").finish_non_exhaustive()
    }
}

impl prometheus_client::collector::Collector for PoolCollector {
    fn encode(&self, mut encoder: DescriptorEncoder<'_>) -> Result<(), std::fmt::Error> {
        self.inner.snapshot().encode(&mut Sink::new(&mut encoder))
    }
}

/// A fixed snapshot as a collector (what [`Snapshot::to_prometheus`] encodes).
#[derive(Debug)]
struct SnapshotCollector(Snapshot);

impl prometheus_client::collector::Collector for SnapshotCollector {
    fn encode(&self, mut encoder: DescriptorEncoder<'_>) -> Result<(), std::fmt::Error> {
        self.0.encode(&mut Sink::new(&mut encoder))
    }
}

impl Snapshot {
    /// The snapshot as Prometheus text (OpenMetrics 1.0 exposition format),
    /// every series named `sluice_*` with the lane as a label. The text is
    /// finished (it ends in `# EOF`): to serve sluice's series next to your
    /// own, register the pool in your registry instead
    /// ([`Pool::register`](crate::Pool::register)).
    ///
    /// ```
    /// let pool = sluice::Pool::builder().build()?;
    /// pool.spawn(sluice::Lane::Cpu, || ()).wait()?;
    /// let text = pool.metrics().to_prometheus();
    /// assert!(text.contains("# TYPE sluice_submitted counter"));
    /// assert!(text.contains("sluice_submitted_total{lane=\"cpu\"} 1"));
    /// assert!(text.contains("sluice_queue_wait_seconds_count{lane=\"cpu\"} 1"));
    /// assert!(text.contains(&format!("sluice_info{{policy=\"lanes\",version=\"{}\"}} 1", sluice::VERSION)));
    /// assert!(text.ends_with("# EOF\n"));
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn to_prometheus(&self) -> String {
        let mut r = Registry::default();
        r.register_collector(Box::new(SnapshotCollector(self.clone())));
        let mut out = String::new();
        // Writing into a String cannot fail.
        let _ = prometheus_client::encoding::text::encode(&mut out, &r);
        out
    }

    /// Encodes every series of this snapshot into a prometheus-client
    /// collector's encoder: for a
    /// [`Collector`](prometheus_client::collector::Collector) that serves a
    /// snapshot with series of its own (`sluice_health::exposition` adds
    /// the loop lag and the verdict so). [`to_prometheus`](Snapshot::to_prometheus)
    /// is this, alone in a registry.
    pub fn encode_into(&self, encoder: &mut DescriptorEncoder<'_>) -> Result<(), std::fmt::Error> {
        self.encode(&mut Sink::new(encoder))
    }

    /// Encodes every series of this snapshot: `sluice_info`, then
    /// [`FAMILIES`].
    fn encode(&self, r: &mut Sink<'_, '_>) -> Result<(), std::fmt::Error> {
        r.family(
            "sluice",
            "The pool's policy and sluice's version",
            &prometheus_client::metrics::info::Info::new(InfoLabels {
                policy: self.policy.name(),
                version: crate::VERSION,
            }),
        )?;
        for family in FAMILIES {
            family.encode(self, r)?;
        }
        Ok(())
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    //! The whole text the exporter writes, compared with the pages in
    //! `testdata/`: every family, its order, HELP text, labels and values.
    use super::*;
    use crate::lane::Lane;
    use crate::metrics::BUCKET_BOUNDS;

    /// A histogram whose cumulative buckets hold `values` (seconds).
    fn hist(values: &[f64]) -> HistogramSnapshot {
        HistogramSnapshot {
            count: values.len() as u64,
            sum_seconds: values.iter().sum(),
            buckets: BUCKET_BOUNDS
                .iter()
                .map(|&b| (b, values.iter().filter(|&&v| v <= b).count() as u64))
                .collect(),
            ..Default::default()
        }
    }

    /// A lane whose every field holds its own number (`k` hundreds plus
    /// the field's place), so a family reading the wrong field shows.
    fn lane(lane: Lane, k: u64, lanes_policy: bool) -> LaneSnapshot {
        let some = |v: u64| lanes_policy.then_some(v);
        LaneSnapshot {
            lane,
            limit: k * 100 + 1,
            queue_bound: (lane != Lane::FastIo && lanes_policy).then_some(k * 100 + 2),
            submitted_total: k * 100 + 3,
            started_total: k * 100 + 4,
            completed_total: k * 100 + 5,
            panicked_total: k * 100 + 6,
            rejected_total: k * 100 + 7,
            cancelled_total: k * 100 + 8,
            expired_total: k * 100 + 9,
            abandoned_total: k * 100 + 10,
            spawn_failures_total: k * 100 + 11,
            adaptive: lanes_policy,
            max_threads: some(k * 100 + 12),
            blocked_threads: some(k * 100 + 13),
            sched_promoted: (lane == Lane::Cpu && lanes_policy).then_some(true),
            sched_promotions_total: (lane == Lane::Cpu && lanes_policy).then_some(k * 100 + 23),
            sched_refused_total: (lane == Lane::Cpu && lanes_policy).then_some(k * 100 + 24),
            compensated_total: k * 100 + 14,
            blocking_sections_total: k * 100 + 15,
            blocked_detected_total: k * 100 + 16,
            threads_peak: some(k * 100 + 17),
            queue_depth: k * 100 + 18,
            reservations_waiting: k * 100 + 19,
            in_flight: k * 100 + 20,
            // Above i64::MAX: the gauge shows i64::MAX.
            threads_alive: some(if lane == Lane::SlowIo {
                u64::MAX
            } else {
                k * 100 + 21
            }),
            threads_idle: some(k * 100 + 22),
            saturated_seconds_total: k as f64 + 0.25,
            queue_wait_seconds: hist(&[2e-6, 3e-4, 0.015, 0.015, 7.0][..k as usize + 1]),
            run_time_seconds: if k == 2 {
                hist(&[])
            } else {
                hist(&[1e-3, 99.0])
            },
        }
    }

    fn snapshot(policy: crate::Policy) -> Snapshot {
        let lanes_policy = policy == crate::Policy::Lanes;
        Snapshot {
            policy,
            cpu_sched: lanes_policy.then_some(crate::CpuSched::Guarded),
            threads_alive: 61,
            threads_idle: 62,
            lanes: Lane::ALL
                .iter()
                .zip(1..)
                .map(|(&l, k)| lane(l, k, lanes_policy))
                .collect(),
        }
    }

    /// `text`, without the crate's version, is `want`.
    fn same(text: &str, want: &str, page: &str) {
        // The version is the crate's, not the page's.
        let text = text.replace(
            &format!("version=\"{}\"", crate::VERSION),
            "version=\"VERSION\"",
        );
        crate::tests::golden::same(&text, want, page);
    }

    #[test]
    fn the_lanes_page_is_the_one_on_file() {
        let text = snapshot(crate::Policy::Lanes).to_prometheus();
        same(
            &text,
            include_str!("../../testdata/export_lanes.prom"),
            "export_lanes.prom",
        );
    }

    #[test]
    fn the_libuv_page_is_the_one_on_file() {
        let text = snapshot(crate::Policy::Libuv { threads: Some(4) }).to_prometheus();
        same(
            &text,
            include_str!("../../testdata/export_libuv.prom"),
            "export_libuv.prom",
        );
    }
}
