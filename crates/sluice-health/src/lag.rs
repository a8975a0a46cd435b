//! [`LoopMonitor`]: how late a tokio runtime's timers fire, as a histogram —
//! the `monitorEventLoopDelay` of Node, for a Rust event loop.

use crate::HistogramSample;
use sluice::BUCKET_BOUNDS;
use sluice::sync::lock;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Measures event-loop lag on the tokio runtime it is started on: a task
/// sleeps `resolution` at a time and records how late each wake-up was.
/// When the loop thread is busy with synchronous work, the wake-ups come
/// late by as much; when only the pool is busy, they come on time.
///
/// Each tick records into one histogram behind a mutex that only the
/// monitor's task and [`snapshot`](LoopMonitor::snapshot) take: one
/// uncontended lock per tick (at most a thousand a second).
///
/// ```
/// use sluice_health::LoopMonitor;
/// use std::time::Duration;
///
/// let rt = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
/// let lag = rt.block_on(async {
///     let monitor = LoopMonitor::start(Duration::from_millis(5))?;
///     tokio::time::sleep(Duration::from_millis(50)).await;
///     Ok::<_, sluice_health::NoRuntime>(monitor.snapshot())
/// })?;
/// assert!(lag.count >= 1); // ticks measured; how late they were is a number, not a rule
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct LoopMonitor {
    shared: Arc<Shared>,
    task: tokio::task::JoinHandle<()>,
}

struct Shared {
    resolution: Duration,
    started: Instant,
    lags: Mutex<Lags>,
}

/// Every lag recorded, nanoseconds.
struct Lags {
    /// For the quantiles and the standard deviation.
    hdr: hdrhistogram::Histogram<u64>,
    /// Lags at or below each of [`BUCKET_BOUNDS`] and above the one
    /// before (the last: above them all), for Prometheus's buckets.
    per_bound: [u64; BUCKET_BOUNDS.len() + 1],
    sum: u64,
    min: u64,
    max: u64,
}

impl Lags {
    fn new() -> Lags {
        // 3 significant figures, growing to hold any value.
        let mut hdr = hdrhistogram::Histogram::<u64>::new(3).expect("3 sigfigs is valid");
        hdr.auto(true);
        Lags {
            hdr,
            per_bound: [0; BUCKET_BOUNDS.len() + 1],
            sum: 0,
            min: u64::MAX,
            max: 0,
        }
    }

    fn record(&mut self, late_ns: u64) {
        // Cannot fail with auto-resize on.
        let _ = self.hdr.record(late_ns);
        let secs = late_ns as f64 / 1e9;
        let bucket = BUCKET_BOUNDS.partition_point(|&le| le < secs);
        self.per_bound[bucket] += 1;
        self.sum = self.sum.saturating_add(late_ns);
        self.min = self.min.min(late_ns);
        self.max = self.max.max(late_ns);
    }

    fn sample(&self) -> HistogramSample {
        let mut below = 0;
        HistogramSample {
            count: self.hdr.len(),
            sum_seconds: self.sum as f64 / 1e9,
            buckets: BUCKET_BOUNDS
                .iter()
                .zip(self.per_bound)
                .map(|(&le, n)| {
                    below += n;
                    (le, below)
                })
                .collect(),
        }
    }
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Shared")
            .field("resolution", &self.resolution)
            .finish_non_exhaustive()
    }
}

/// [`LoopMonitor::start`] was called outside a tokio runtime.
#[derive(Debug, Clone, thiserror::Error)]
#[error(
    "LoopMonitor::start must be called from inside a tokio runtime (it spawns its timer task there)"
)]
pub struct NoRuntime;

impl LoopMonitor {
    /// Starts measuring on the current tokio runtime, one timer every
    /// `resolution` (Node's default is 10 ms; at least 1 ms).
    pub fn start(resolution: Duration) -> Result<LoopMonitor, NoRuntime> {
        let handle = tokio::runtime::Handle::try_current().map_err(|_| NoRuntime)?;
        let resolution = resolution.max(Duration::from_millis(1));
        let shared = Arc::new(Shared {
            resolution,
            started: Instant::now(),
            lags: Mutex::new(Lags::new()),
        });
        let s = Arc::clone(&shared);
        let task = handle.spawn(async move {
            let mut due = tokio::time::Instant::now() + s.resolution;
            loop {
                tokio::time::sleep_until(due).await;
                let now = tokio::time::Instant::now();
                let late = now.saturating_duration_since(due).as_nanos() as u64;
                lock(&s.lags).record(late);
                due = now + s.resolution;
            }
        });
        Ok(LoopMonitor { shared, task })
    }

    /// Everything measured since [`start`](LoopMonitor::start).
    pub fn snapshot(&self) -> LagSnapshot {
        let lags = lock(&self.shared.lags);
        let count = lags.hdr.len();
        let ms = |ns: f64| ns / 1e6;
        let (min, mean, p50, p90, p99, stddev) = if count == 0 {
            (0.0, 0.0, 0.0, 0.0, 0.0, 0.0)
        } else {
            let q = |q: f64| ms(lags.hdr.value_at_quantile(q) as f64);
            (
                ms(lags.min as f64),
                ms(lags.sum as f64) / count as f64,
                q(0.5),
                q(0.9),
                q(0.99),
                ms(lags.hdr.stdev()),
            )
        };
        LagSnapshot {
            resolution_ms: self.shared.resolution.as_secs_f64() * 1e3,
            seconds: self.shared.started.elapsed().as_secs_f64(),
            count,
            min_ms: min,
            mean_ms: mean,
            p50_ms: p50,
            p90_ms: p90,
            p99_ms: p99,
            stddev_ms: stddev,
            max_ms: ms(lags.max as f64),
            sample: lags.sample(),
        }
    }
}

impl Drop for LoopMonitor {
    fn drop(&mut self) {
        self.task.abort();
    }
}

/// Loop lag since the monitor started, in milliseconds, like
/// `monitorEventLoopDelay`'s `min`, `mean`, `stddev`, `percentile(50|90|99)`,
/// `max` — with one difference: Node's histogram records the whole delay of
/// each timer (the resolution included, so an idle loop reads about
/// 10 ms), sluice's records only how *late* the timer fired past its due
/// time (an idle loop reads about 0). Subtract the resolution from Node's
/// numbers to compare. prom-client's `nodejs_eventloop_lag_*_seconds` are
/// the same numbers as Node's, in seconds.
#[derive(Debug, Clone)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct LagSnapshot {
    /// The timer period.
    pub resolution_ms: f64,
    /// How long the monitor has run.
    pub seconds: f64,
    /// Timer ticks measured.
    pub count: u64,
    /// Least lag.
    pub min_ms: f64,
    /// Mean lag.
    pub mean_ms: f64,
    /// Median lag.
    pub p50_ms: f64,
    /// 90th percentile lag.
    pub p90_ms: f64,
    /// 99th percentile lag.
    pub p99_ms: f64,
    /// Most lag.
    pub max_ms: f64,
    /// Standard deviation of the lag.
    pub stddev_ms: f64,
    /// The histogram, for Prometheus and for [`diagnose`](crate::diagnose) windows.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub sample: HistogramSample,
}
