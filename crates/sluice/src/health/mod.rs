//! Event-loop health: how late the loop runs ([`LoopMonitor`]) and a
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
//! - `doctor.rs`: [`Sample`], [`diagnose`], [`Diagnosis`], read from a pool
//!   in-process or from its Prometheus text.
//! - `scrape.rs`: [`scrape::parse`], a strict reader of the
//!   OpenMetrics text sluice writes (what the doctor reads).

mod doctor;
#[cfg(feature = "tokio")]
mod lag;
pub mod scrape;
mod watch;

pub use doctor::{
    Diagnosis, HistogramSample, LaneSample, LaneWindow, ParseError, Sample, Thresholds, VERDICTS,
    Verdict, diagnose,
};
#[cfg(feature = "tokio")]
pub use lag::{LagSnapshot, LoopMonitor, NoRuntime};
pub use watch::Watch;

#[cfg(feature = "prometheus")]
/// Prometheus text of a pool's counters and, if given, the loop's lag: what
/// a service serves at `/metrics`.
///
/// ```
/// let pool = sluice::Pool::builder().build()?;
/// let text = sluice::health::to_prometheus(&pool.metrics(), None);
/// assert!(text.contains("sluice_queue_depth{lane=\"cpu\"} 0"));
/// # Ok::<(), sluice::ConfigError>(())
/// ```
pub fn to_prometheus(pool: &crate::Snapshot, lag: Option<&HistogramSample>) -> String {
    exposition(pool, lag, None)
}

#[cfg(feature = "prometheus")]
/// [`to_prometheus`] plus, if given, the doctor's verdict as
/// `sluice_verdict{verdict, lane}`: 1 for the verdict (and its lane), 0 for
/// every other token of [`VERDICTS`] a pool can get (see [`Watch`]).
pub fn exposition(
    pool: &crate::Snapshot,
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
    pool: crate::Snapshot,
    lag: Option<HistogramSample>,
    verdict: Option<Verdict>,
}

#[cfg(feature = "prometheus")]
impl prometheus_client::collector::Collector for PoolAndLag {
    fn encode(
        &self,
        mut encoder: prometheus_client::encoding::DescriptorEncoder<'_>,
    ) -> Result<(), std::fmt::Error> {
        let mut sink = crate::metrics::Sink::new(&mut encoder);
        self.pool.encode(&mut sink)?;
        if let Some(lag) = &self.lag {
            sink.family(
                "sluice_loop_lag_seconds",
                "How late the event loop's timer fired (monitorEventLoopDelay)",
                &crate::metrics::ConstHistogram::new(
                    lag.sum_seconds,
                    lag.count,
                    lag.buckets.clone(),
                ),
            )?;
        }
        if let Some(v) = self.verdict {
            use prometheus_client::metrics::family::Family;
            use prometheus_client::metrics::gauge::Gauge;
            let family = Family::<Vec<(&'static str, &'static str)>, Gauge>::default();
            let mut every = vec![Verdict::Healthy, Verdict::LoopBlocked];
            for lane in crate::Lane::ALL {
                every.push(Verdict::LaneSaturated(lane));
            }
            for lane in crate::Lane::ALL {
                every.push(Verdict::LaneCompensating(lane));
            }
            for candidate in every {
                let mut labels = vec![("verdict", candidate.as_str())];
                if let Some(lane) = candidate.lane() {
                    labels.push(("lane", lane.name()));
                }
                family.get_or_create(&labels).set(i64::from(candidate == v));
            }
            sink.family(
                "sluice_verdict",
                "The doctor's verdict on the last window (1: this one, with its lane)",
                &family,
            )?;
        }
        Ok(())
    }
}
