//! [`MetricsReporter`] (feature `metrics`): the pool's snapshots pushed to
//! the [`metrics`](https://docs.rs/metrics) facade, as tokio-metrics does
//! for tokio: whatever exporter the service installed (Prometheus, StatsD,
//! OpenTelemetry, ...) receives sluice's counters, gauges and histograms.
//!
//! Each [`report`](MetricsReporter::report) reads one snapshot and sets:
//! - counters (`absolute`): `sluice_<count>_total{lane}` for submitted,
//!   started, completed, panicked, rejected, cancelled, expired, abandoned,
//!   compensated;
//! - gauges: `sluice_queue_depth`, `sluice_tasks_running`,
//!   `sluice_concurrency_limit`, `sluice_reservations_waiting`,
//!   `sluice_threads_alive`, `sluice_blocked_threads` (lanes policy) and
//!   `sluice_saturated_seconds` (a running total, in seconds), per `lane`;
//! - histograms: `sluice_queue_wait_seconds` and `sluice_run_time_seconds`,
//!   each task since the last report recorded at the upper bound of its
//!   bucket ([`BUCKET_BOUNDS`](crate::BUCKET_BOUNDS); past the last bound,
//!   at the largest value seen).
//!
//! ```
//! use sluice::report::MetricsReporter;
//! use sluice::{Lane, Pool};
//! use std::time::Duration;
//!
//! let pool = Pool::builder().build()?;
//! // Pushes every 10 s to the recorder the service installed, until dropped.
//! let reporter = MetricsReporter::new(&pool).spawn(Duration::from_secs(10))?;
//! pool.spawn(Lane::Cpu, || ()).wait()?;
//! drop(reporter);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::loom::lock;
use crate::loom::sync::Mutex;
use crate::loom::thread::{JoinHandle, spawn_named};
use crate::metrics::{HistogramSnapshot, Snapshot};
use crate::pool::{Inner, Pool};
use std::sync::Arc;
use std::sync::mpsc;
use std::time::Duration;

/// Pushes a pool's snapshots to the `metrics` facade; see the
/// [module docs](self).
pub struct MetricsReporter {
    inner: Arc<Inner>,
    last: Mutex<Option<Snapshot>>,
}

impl std::fmt::Debug for MetricsReporter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("MetricsReporter").finish_non_exhaustive()
    }
}

/// The reporting thread of [`MetricsReporter::spawn`]; dropping it stops the
/// thread (after one last report).
#[must_use = "dropping the handle stops the reporter"]
#[derive(Debug)]
pub struct ReporterHandle {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Drop for ReporterHandle {
    fn drop(&mut self) {
        drop(self.stop.take());
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

impl MetricsReporter {
    /// A reporter of `pool`. It holds the pool's state, not a handle: it
    /// does not keep the pool open.
    pub fn new(pool: &Pool) -> MetricsReporter {
        MetricsReporter {
            inner: pool.shared(),
            last: Mutex::new(None),
        }
    }

    /// Reports every `interval` on a thread of its own (`sluice-metrics`),
    /// to the global recorder, until the handle is dropped.
    pub fn spawn(self, interval: Duration) -> std::io::Result<ReporterHandle> {
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = spawn_named("sluice-metrics".into(), 256 << 10, move || {
            loop {
                self.report();
                match stopped.recv_timeout(interval) {
                    Err(mpsc::RecvTimeoutError::Timeout) => {}
                    _ => break,
                }
            }
            self.report();
        })?;
        Ok(ReporterHandle {
            stop: Some(stop),
            thread: Some(thread),
        })
    }

    /// Reads one snapshot and pushes it to the current recorder.
    pub fn report(&self) {
        let snap = self.inner.snapshot();
        let mut last = lock(&self.last);
        for (i, l) in snap.lanes.iter().enumerate() {
            let lane = l.lane.name();
            let counters: [(&'static str, u64); 9] = [
                ("sluice_submitted_total", l.submitted_total),
                ("sluice_started_total", l.started_total),
                ("sluice_completed_total", l.completed_total),
                ("sluice_panicked_total", l.panicked_total),
                ("sluice_rejected_total", l.rejected_total),
                ("sluice_cancelled_total", l.cancelled_total),
                ("sluice_expired_total", l.expired_total),
                ("sluice_abandoned_total", l.abandoned_total),
                ("sluice_compensated_total", l.compensated_total),
            ];
            for (name, v) in counters {
                metrics::counter!(name, "lane" => lane).absolute(v);
            }
            let gauges: [(&'static str, Option<u64>); 6] = [
                ("sluice_queue_depth", Some(l.queue_depth)),
                ("sluice_tasks_running", Some(l.in_flight)),
                ("sluice_concurrency_limit", Some(l.limit)),
                ("sluice_reservations_waiting", Some(l.reservations_waiting)),
                ("sluice_threads_alive", l.threads_alive),
                ("sluice_blocked_threads", l.blocked_threads),
            ];
            for (name, v) in gauges {
                if let Some(v) = v {
                    metrics::gauge!(name, "lane" => lane).set(v as f64);
                }
            }
            metrics::gauge!("sluice_saturated_seconds", "lane" => lane)
                .set(l.saturated_seconds_total);
            let before = last.as_ref().map(|s| &s.lanes[i]);
            record(
                &metrics::histogram!("sluice_queue_wait_seconds", "lane" => lane),
                &l.queue_wait_seconds,
                before.map(|b| &b.queue_wait_seconds),
            );
            record(
                &metrics::histogram!("sluice_run_time_seconds", "lane" => lane),
                &l.run_time_seconds,
                before.map(|b| &b.run_time_seconds),
            );
        }
        *last = Some(snap);
    }
}

/// Records the tasks of `now` not in `before`, each at its bucket's bound.
fn record(h: &metrics::Histogram, now: &HistogramSnapshot, before: Option<&HistogramSnapshot>) {
    let mut below_now = 0;
    let mut below_before = 0;
    for (j, &(le, c)) in now.buckets.iter().enumerate() {
        let b = before.map_or(0, |b| b.buckets.get(j).map_or(0, |x| x.1));
        let fresh = (c - below_now).saturating_sub(b.saturating_sub(below_before));
        if fresh > 0 {
            h.record_many(le, usize::try_from(fresh).unwrap_or(usize::MAX));
        }
        below_now = c;
        below_before = b;
    }
    let over_now = now.count.saturating_sub(below_now);
    let over_before = before.map_or(0, |b| b.count.saturating_sub(below_before));
    let fresh = over_now.saturating_sub(over_before);
    if fresh > 0 {
        h.record_many(
            now.max_seconds,
            usize::try_from(fresh).unwrap_or(usize::MAX),
        );
    }
}
