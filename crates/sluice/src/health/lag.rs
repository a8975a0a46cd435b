//! [`LoopMonitor`]: how late a tokio runtime's timers fire, as a histogram —
//! the `monitorEventLoopDelay` of Node, for a Rust event loop.

use crate::health::HistogramSample;
use crate::metrics::BUCKET_BOUNDS;
use crate::metrics::histogram::{Histogram, Merged};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Measures event-loop lag on the tokio runtime it is started on: a task
/// sleeps `resolution` at a time and records how late each wake-up was.
/// When the loop thread is busy with synchronous work, the wake-ups come
/// late by as much; when only the pool is busy, they come on time.
///
/// Recording is single-writer (only the monitor's task writes), as for the
/// pool's own histograms, so it costs a few loads and stores per tick.
///
/// ```
/// use sluice::health::LoopMonitor;
/// use std::time::Duration;
///
/// let rt = tokio::runtime::Builder::new_current_thread().enable_time().build()?;
/// let lag = rt.block_on(async {
///     let monitor = LoopMonitor::start(Duration::from_millis(5))?;
///     tokio::time::sleep(Duration::from_millis(50)).await;
///     Ok::<_, sluice::health::NoRuntime>(monitor.snapshot())
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
    hist: Histogram,
    /// Smallest and largest lag, ns; written by the monitor task only.
    min: AtomicU64,
    max: AtomicU64,
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
            hist: Histogram::new(),
            min: AtomicU64::new(u64::MAX),
            max: AtomicU64::new(0),
        });
        let s = Arc::clone(&shared);
        let task = handle.spawn(async move {
            let mut due = tokio::time::Instant::now() + s.resolution;
            loop {
                tokio::time::sleep_until(due).await;
                let now = tokio::time::Instant::now();
                let late = now.saturating_duration_since(due).as_nanos() as u64;
                s.hist.record(late);
                // Single writer: see `metrics/histogram.rs`.
                if late < s.min.load(Ordering::Relaxed) {
                    s.min.store(late, Ordering::Relaxed);
                }
                if late > s.max.load(Ordering::Relaxed) {
                    s.max.store(late, Ordering::Relaxed);
                }
                due = now + s.resolution;
            }
        });
        Ok(LoopMonitor { shared, task })
    }

    /// Everything measured since [`start`](LoopMonitor::start).
    pub fn snapshot(&self) -> LagSnapshot {
        let mut m = Merged::new();
        m.add(&self.shared.hist);
        let count: u64 = m.counts.iter().sum();
        let ms = |ns: u64| ns as f64 / 1e6;
        let (p50, p90, p99, mean, stddev) = if count == 0 {
            (0.0, 0.0, 0.0, 0.0, 0.0)
        } else {
            let hdr = m.to_hdr();
            (
                ms(hdr.value_at_quantile(0.5)),
                ms(hdr.value_at_quantile(0.9)),
                ms(hdr.value_at_quantile(0.99)),
                ms(m.sum) / count as f64,
                hdr.stdev() / 1e6,
            )
        };
        let min = self.shared.min.load(Ordering::Relaxed);
        LagSnapshot {
            resolution_ms: self.shared.resolution.as_secs_f64() * 1e3,
            seconds: self.shared.started.elapsed().as_secs_f64(),
            count,
            min_ms: if count == 0 { 0.0 } else { ms(min) },
            mean_ms: mean,
            p50_ms: p50,
            p90_ms: p90,
            p99_ms: p99,
            stddev_ms: stddev,
            max_ms: ms(self.shared.max.load(Ordering::Relaxed)),
            sample: sample_of(&m),
        }
    }
}

impl Drop for LoopMonitor {
    fn drop(&mut self) {
        self.task.abort();
    }
}

fn sample_of(m: &Merged) -> HistogramSample {
    let h = crate::metrics::HistogramSnapshot::from_merged(m);
    HistogramSample {
        count: h.count,
        sum_seconds: h.sum_seconds,
        buckets: if h.buckets.is_empty() {
            BUCKET_BOUNDS.iter().map(|&b| (b, 0)).collect()
        } else {
            h.buckets
        },
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
    /// The histogram, for Prometheus and for [`diagnose`](crate::health::diagnose) windows.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub sample: HistogramSample,
}
