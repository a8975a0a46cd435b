//! # sluice-health
//!
//! Event-loop health for services that run a [`sluice`] pool: how late the loop runs ([`LoopMonitor`]) and a
//! *doctor* that reads loop lag and lane counters over a window and says
//! which it is: the loop blocked, a lane saturated, or healthy — with the
//! numbers that prove it ([`diagnose`]).
//!
//! The two failures look alike from outside (slow requests, idle-looking
//! CPU) and are cured differently: a blocked loop needs the sync work moved
//! off the loop thread; a saturated lane needs budget or less work. The
//! tell, measured in the lab's `loop-vs-pool` experiment: when the loop is
//! blocked its timers fire late; when a lane is saturated the loop is on
//! time and the lane's queue wait grows.
//!
//! - `lag.rs`: [`LoopMonitor`], a timer-based lag histogram for tokio
//!   runtimes, like Node's `monitorEventLoopDelay` (feature `tokio`).
//! - `verdict.rs`: [`Verdict`], the one verdict vocabulary of sluice: the
//!   doctor's, `sluice serve`'s `sluice_verdict` and `sluice scope`'s.
//! - `doctor.rs`: [`Sample`], [`diagnose`], [`Diagnosis`], read from a pool
//!   in-process or from its Prometheus text.
//! - `scrape.rs`: [`scrape::parse`], a strict reader of the
//!   OpenMetrics text sluice writes (what the doctor reads).
//! - `watch.rs`: [`Watch`], the doctor over consecutive windows inside a
//!   service.
//!
//! ```
//! use sluice::{Lane, Pool};
//! use sluice_health::{Sample, Verdict, diagnose};
//! use std::time::Duration;
//!
//! let pool = Pool::builder().build()?;
//! let start = Sample::from_snapshot(&pool.metrics(), None);
//! pool.spawn(Lane::FastIo, || ()).wait()?;
//! let end = Sample::from_snapshot(&pool.metrics(), None);
//! let d = diagnose(&start, &end, Duration::from_secs(1), &Default::default());
//! // No loop lag was given, so the verdict speaks of lanes only: healthy,
//! // unless that one task waited 10 ms or more for a thread (a busy machine).
//! assert!(matches!(d.verdict, Verdict::Healthy | Verdict::LaneSaturated(Lane::FastIo)));
//! let fast_io = d.lanes.iter().find(|l| l.lane == Some(Lane::FastIo)).unwrap();
//! assert_eq!(fast_io.started, 1);
//! println!("{}: {}", d.verdict, d.evidence.join("; "));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod doctor;
#[cfg(feature = "tokio")]
mod lag;
pub mod scrape;
mod verdict;
mod watch;

#[cfg(test)]
mod golden;

pub use doctor::{
    Diagnosis, HistogramSample, LaneSample, LaneWindow, ParseError, Sample, Thresholds, diagnose,
};
#[cfg(feature = "tokio")]
pub use lag::{LagSnapshot, LoopMonitor, NoRuntime};
pub use verdict::Verdict;
pub use watch::Watch;

#[cfg(feature = "prometheus")]
/// Prometheus text of a pool's counters and, if given, the loop's lag: what
/// a service serves at `/metrics`.
///
/// ```
/// let pool = sluice::Pool::builder().build()?;
/// let text = sluice_health::to_prometheus(&pool.metrics(), None);
/// assert!(text.contains("sluice_queue_depth{lane=\"cpu\"} 0"));
/// # Ok::<(), sluice::ConfigError>(())
/// ```
pub fn to_prometheus(pool: &sluice::Snapshot, lag: Option<&HistogramSample>) -> String {
    exposition(pool, lag, None)
}

#[cfg(feature = "prometheus")]
/// [`to_prometheus`] plus, if given, the doctor's verdict as
/// `sluice_verdict{verdict, lane}`: 1 for the verdict (and its lane), 0 for
/// every other verdict the pool doctor can give ([`Verdict::of_lanes`];
/// see [`Watch`]).
pub fn exposition(
    pool: &sluice::Snapshot,
    lag: Option<&HistogramSample>,
    verdict: Option<&Diagnosis>,
) -> String {
    let mut r = prometheus_client::registry::Registry::default();
    r.register_collector(Box::new(PoolAndLag {
        pool: pool.clone(),
        lag: lag.cloned(),
        verdict: verdict.map(|d| d.verdict),
    }));
    let mut out = String::new();
    // Writing into a String cannot fail.
    let _ = prometheus_client::encoding::text::encode(&mut out, &r);
    out
}

#[cfg(feature = "prometheus")]
/// A snapshot and a loop-lag histogram, encoded together.
#[derive(Debug)]
struct PoolAndLag {
    pool: sluice::Snapshot,
    lag: Option<HistogramSample>,
    verdict: Option<Verdict>,
}

#[cfg(feature = "prometheus")]
impl prometheus_client::collector::Collector for PoolAndLag {
    fn encode(
        &self,
        mut encoder: prometheus_client::encoding::DescriptorEncoder<'_>,
    ) -> Result<(), std::fmt::Error> {
        use prometheus_client::encoding::EncodeMetric;
        self.pool.encode_into(&mut encoder)?;
        if let Some(lag) = &self.lag {
            let m = encoder.encode_descriptor(
                "sluice_loop_lag_seconds",
                "How late the event loop's timer fired (monitorEventLoopDelay)",
                None,
                lag.metric_type(),
            )?;
            lag.encode(m)?;
        }
        if let Some(v) = self.verdict {
            use prometheus_client::metrics::family::Family;
            use prometheus_client::metrics::gauge::Gauge;
            let family = Family::<Vec<(&'static str, &'static str)>, Gauge>::default();
            for candidate in Verdict::of_lanes(&sluice::Lane::ALL) {
                let mut labels = vec![("verdict", candidate.as_str())];
                if let Some(lane) = candidate.lane() {
                    labels.push(("lane", lane.name()));
                }
                family.get_or_create(&labels).set(i64::from(candidate == v));
            }
            let m = encoder.encode_descriptor(
                "sluice_verdict",
                "The doctor's verdict on the last window (1: this one, with its lane)",
                None,
                family.metric_type(),
            )?;
            family.encode(m)?;
        }
        Ok(())
    }
}
