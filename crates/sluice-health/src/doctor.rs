//! The doctor: two samples of a service's counters, a window apart, and a
//! verdict with its evidence.

use crate::Verdict;
use sluice::{HistogramSnapshot, Lane, Snapshot};
use std::fmt;
use std::time::Duration;

/// A histogram as Prometheus exposes it: count, sum and cumulative buckets.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct HistogramSample {
    /// Values recorded.
    pub count: u64,
    /// Their sum, seconds.
    pub sum_seconds: f64,
    /// Cumulative `(le seconds, count)`, ascending; `+Inf` is `count`.
    pub buckets: Vec<(f64, u64)>,
}

impl HistogramSample {
    /// What was recorded between `earlier` and `self`.
    pub fn since(&self, earlier: &HistogramSample) -> HistogramSample {
        HistogramSample {
            count: self.count.saturating_sub(earlier.count),
            sum_seconds: (self.sum_seconds - earlier.sum_seconds).max(0.0),
            buckets: self
                .buckets
                .iter()
                .map(|&(le, c)| {
                    let before = earlier
                        .buckets
                        .iter()
                        .find(|(l, _)| *l == le)
                        .map_or(0, |b| b.1);
                    (le, c.saturating_sub(before))
                })
                .collect(),
        }
    }

    /// The upper bound of the bucket holding quantile `q` (0..=1), seconds;
    /// `None` when empty. Beyond the last bound it is `+Inf`.
    pub fn quantile_upper(&self, q: f64) -> Option<f64> {
        if self.count == 0 {
            return None;
        }
        let want = (q * self.count as f64).ceil().max(1.0) as u64;
        Some(
            self.buckets
                .iter()
                .find(|(_, c)| *c >= want)
                .map_or(f64::INFINITY, |b| b.0),
        )
    }

    /// The mean, seconds; 0 when empty.
    pub fn mean(&self) -> f64 {
        if self.count == 0 {
            0.0
        } else {
            self.sum_seconds / self.count as f64
        }
    }
}

/// A histogram series without labels (the loop lag of
/// [`exposition`](crate::exposition)).
#[cfg(feature = "prometheus")]
impl prometheus_client::encoding::EncodeMetric for HistogramSample {
    fn encode(
        &self,
        mut encoder: prometheus_client::encoding::MetricEncoder<'_>,
    ) -> Result<(), fmt::Error> {
        // The encoder wants per-bucket counts and accumulates them itself;
        // a sample holds cumulative ones. `+Inf` holds the rest.
        let mut below = 0;
        let mut per_bucket: Vec<(f64, u64)> = Vec::with_capacity(self.buckets.len() + 1);
        for &(le, c) in self.buckets.iter().chain([&(f64::INFINITY, self.count)]) {
            per_bucket.push((le, c.saturating_sub(below)));
            below = c;
        }
        encoder.encode_histogram::<prometheus_client::encoding::NoLabelSet>(
            self.sum_seconds,
            self.count,
            &per_bucket,
            None,
        )
    }

    fn metric_type(&self) -> prometheus_client::metrics::MetricType {
        prometheus_client::metrics::MetricType::Histogram
    }
}

impl From<&HistogramSnapshot> for HistogramSample {
    fn from(h: &HistogramSnapshot) -> Self {
        HistogramSample {
            count: h.count,
            sum_seconds: h.sum_seconds,
            buckets: h.buckets.clone(),
        }
    }
}

/// One lane's counters at one moment, as the doctor needs them.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct LaneSample {
    /// The lane.
    pub lane: Option<Lane>,
    /// `started_total`.
    pub started_total: u64,
    /// `saturated_seconds_total`.
    pub saturated_seconds_total: f64,
    /// `queue_depth` (gauge).
    pub queue_depth: u64,
    /// `queue_wait_seconds`.
    pub queue_wait: HistogramSample,
    /// `compensated_total`: threads started beyond the budget (`None`: the
    /// service does not export it).
    pub compensated_total: Option<u64>,
    /// `blocked_threads` (gauge; `None`: not exported).
    pub blocked_threads: Option<u64>,
}

/// A service's counters at one moment: the lanes and the loop lag.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Sample {
    /// One per lane.
    pub lanes: Vec<LaneSample>,
    /// `sluice_loop_lag_seconds`, if the service measures it.
    pub lag: Option<HistogramSample>,
}

impl Sample {
    /// A sample of an in-process pool (and loop-lag histogram).
    pub fn from_snapshot(pool: &Snapshot, lag: Option<&HistogramSample>) -> Sample {
        Sample {
            lanes: pool
                .lanes
                .iter()
                .map(|l| LaneSample {
                    lane: Some(l.lane),
                    started_total: l.started_total,
                    saturated_seconds_total: l.saturated_seconds_total,
                    queue_depth: l.queue_depth,
                    queue_wait: (&l.queue_wait_seconds).into(),
                    compensated_total: l.threads_alive.map(|_| l.compensated_total),
                    blocked_threads: l.blocked_threads,
                })
                .collect(),
            lag: lag.cloned(),
        }
    }
}

/// A sample that could not be read (bad Prometheus text, missing series).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct ParseError(pub String);

/// When the doctor calls something a problem. The defaults come from the
/// seeds' own probe (seed 000 §6): file latency over 10 ms with loop lag
/// under 20 ms means the pool is saturated; loop lag over 20 ms means the
/// loop is blocked.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Thresholds {
    /// Loop lag p99 above this is a blocked loop (default 20 ms).
    pub loop_lag_p99: Duration,
    /// A lane saturated this share of the window or more is saturated (default 0.5).
    pub saturated_share: f64,
    /// A lane whose queue wait p99 is above this is saturated (default 10 ms).
    pub queue_wait_p99: Duration,
}

impl Default for Thresholds {
    fn default() -> Self {
        Thresholds {
            loop_lag_p99: Duration::from_millis(20),
            saturated_share: 0.5,
            queue_wait_p99: Duration::from_millis(10),
        }
    }
}

/// One lane over the window.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct LaneWindow {
    /// The lane (`None`: a series whose lane label sluice does not know).
    #[cfg_attr(feature = "serde", serde(serialize_with = "lane_text"))]
    pub lane: Option<Lane>,
    /// Tasks started in the window.
    pub started: u64,
    /// Share of the window the lane was saturated, 0..=1.
    pub saturated_share: f64,
    /// Mean queue wait of tasks started in the window, ms.
    pub queue_wait_mean_ms: f64,
    /// Upper bound of the p99 queue-wait bucket, ms (`None`: nothing started).
    pub queue_wait_p99_ms: Option<f64>,
    /// Tasks queued at the end of the window.
    pub queue_depth: u64,
    /// Threads started beyond the budget in the window (`None`: not exported).
    pub compensated: Option<u64>,
    /// Workers blocked at the end of the window (`None`: not exported).
    pub blocked_threads: Option<u64>,
}

/// The verdict and the numbers behind it.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[non_exhaustive]
pub struct Diagnosis {
    /// The conclusion: a token of [`Verdict::TOKENS`] in JSON, with its lane as
    /// `lane` (`null` when the verdict names none).
    pub verdict: Verdict,
    /// The verdict's lane, repeated for JSON readers (`verdict.lane()`).
    #[cfg_attr(feature = "serde", serde(serialize_with = "lane_text"))]
    pub lane: Option<Lane>,
    /// The window, seconds.
    pub window_seconds: f64,
    /// Loop lag ticks in the window (`None`: the service measures no lag).
    pub loop_ticks: Option<u64>,
    /// Upper bound of the p99 loop-lag bucket, ms.
    pub loop_lag_p99_ms: Option<f64>,
    /// Mean loop lag, ms.
    pub loop_lag_mean_ms: Option<f64>,
    /// Every lane.
    pub lanes: Vec<LaneWindow>,
    /// The sentences that justify the verdict, numbers included.
    pub evidence: Vec<String>,
}

#[cfg(feature = "serde")]
fn lane_text<S: serde::Serializer>(l: &Option<Lane>, s: S) -> Result<S::Ok, S::Error> {
    match l {
        Some(l) => s.serialize_str(l.name()),
        None => s.serialize_none(),
    }
}

/// Diagnoses the window between `start` and `end`, `window` apart.
///
/// ```
/// use sluice_health::{Sample, Verdict, diagnose};
/// use sluice::{Lane, Pool};
/// use std::time::{Duration, Instant};
///
/// let pool = Pool::builder().threads(Lane::Cpu, 1).build()?;
/// let start = Sample::from_snapshot(&pool.metrics(), None);
/// let t = Instant::now();
/// let busy: Vec<_> = (0..4)
///     .map(|_| pool.spawn(Lane::Cpu, || std::thread::sleep(Duration::from_millis(30))))
///     .collect();
/// for task in busy { task.wait()?; }
/// let end = Sample::from_snapshot(&pool.metrics(), None);
/// let d = diagnose(&start, &end, t.elapsed(), &Default::default());
/// assert_eq!(d.verdict, Verdict::LaneSaturated(Lane::Cpu)); // 3 of 4 tasks queued ~30-90 ms
/// assert_eq!(d.lanes[0].started, 4);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn diagnose(start: &Sample, end: &Sample, window: Duration, t: &Thresholds) -> Diagnosis {
    let secs = window.as_secs_f64().max(1e-9);
    let lanes: Vec<LaneWindow> = end
        .lanes
        .iter()
        .map(|e| {
            let s = start.lanes.iter().find(|s| s.lane == e.lane);
            LaneWindow::between(&s.cloned().unwrap_or_default(), e, secs)
        })
        .collect();
    let lag = match (&start.lag, &end.lag) {
        (Some(s), Some(e)) => Some(e.since(s)),
        (None, Some(e)) => Some(e.clone()),
        _ => None,
    };
    let lag_p99 = lag.as_ref().and_then(|l| l.quantile_upper(0.99)).map(ms);
    let mut evidence = vec![lag_evidence(lag.as_ref(), lag_p99, t)];
    // Strictly above: a p99 read from the buckets is the bucket's upper
    // bound, and a bound equal to the threshold holds values below it.
    let loop_blocked = lag_p99.is_some_and(|p| p > ms(t.loop_lag_p99.as_secs_f64()));
    let lag_stuck =
        lag.as_ref().is_some_and(|l| l.count == 0) && window >= Duration::from_millis(200);
    let saturated = most_saturated(&lanes, t, &mut evidence);
    let compensating = most_compensating(&lanes, &mut evidence);
    if saturated.is_none() {
        evidence.push(format!(
            "no lane saturated: none over {:.0}% of the window or a queue wait p99 of {} ms",
            t.saturated_share * 100.0,
            t.queue_wait_p99.as_millis()
        ));
    }
    let verdict = if loop_blocked || lag_stuck {
        Verdict::LoopBlocked
    } else if let Some(lane) = saturated.and_then(|l| l.lane) {
        Verdict::LaneSaturated(lane)
    } else if let Some(lane) = compensating.and_then(|l| l.lane) {
        Verdict::LaneCompensating(lane)
    } else {
        Verdict::Healthy
    };
    Diagnosis {
        verdict,
        lane: verdict.lane(),
        window_seconds: secs,
        loop_ticks: lag.as_ref().map(|l| l.count),
        loop_lag_p99_ms: lag_p99,
        loop_lag_mean_ms: lag.as_ref().map(|l| ms(l.mean())),
        lanes,
        evidence,
    }
}

/// Seconds as milliseconds.
fn ms(s: f64) -> f64 {
    s * 1e3
}

impl LaneWindow {
    /// A lane between its samples `s` and `e`, `secs` apart.
    fn between(s: &LaneSample, e: &LaneSample, secs: f64) -> LaneWindow {
        let wait = e.queue_wait.since(&s.queue_wait);
        LaneWindow {
            lane: e.lane,
            started: e.started_total.saturating_sub(s.started_total),
            saturated_share: ((e.saturated_seconds_total - s.saturated_seconds_total) / secs)
                .clamp(0.0, 1.0),
            queue_wait_mean_ms: ms(wait.mean()),
            queue_wait_p99_ms: wait.quantile_upper(0.99).map(ms),
            queue_depth: e.queue_depth,
            compensated: e
                .compensated_total
                .map(|c| c.saturating_sub(s.compensated_total.unwrap_or(0))),
            blocked_threads: e.blocked_threads,
        }
    }
}

/// The evidence about the loop: its lag in the window, or why there is none.
fn lag_evidence(lag: Option<&HistogramSample>, lag_p99: Option<f64>, t: &Thresholds) -> String {
    match (lag, lag_p99) {
        (Some(l), Some(p)) => format!(
            "loop lag p99 <= {} ms (mean {:.2} ms over {} ticks); blocked from {} ms",
            fmt_ms(p),
            ms(l.mean()),
            l.count,
            t.loop_lag_p99.as_millis()
        ),
        (Some(_), None) => {
            "loop lag: no timer tick in the window (the loop may be stuck for the whole window)"
                .into()
        }
        (None, _) => "loop lag: not measured by this service".into(),
    }
}

/// The lane most saturated (share of the window plus mean wait), among
/// those whose queue wait p99 or saturated share reach `t`; each of them
/// gets a line of `evidence`.
fn most_saturated<'a>(
    lanes: &'a [LaneWindow],
    t: &Thresholds,
    evidence: &mut Vec<String>,
) -> Option<&'a LaneWindow> {
    let mut saturated: Option<(&LaneWindow, f64)> = None;
    for l in lanes {
        let wait_bad = l
            .queue_wait_p99_ms
            .is_some_and(|p| p >= ms(t.queue_wait_p99.as_secs_f64()));
        let share_bad = l.saturated_share >= t.saturated_share;
        if wait_bad || share_bad {
            evidence.push(format!(
                "lane {}: saturated {:.0}% of the window, queue wait p99 <= {} ms (mean {:.2} ms), {} started, {} queued now",
                lane_name(l.lane),
                l.saturated_share * 100.0,
                l.queue_wait_p99_ms.map_or("-".into(), fmt_ms),
                l.queue_wait_mean_ms,
                l.started,
                l.queue_depth
            ));
            let score = l.saturated_share + l.queue_wait_mean_ms / 1e3;
            if saturated.is_none_or(|(_, s)| score > s) {
                saturated = Some((l, score));
            }
        }
    }
    saturated.map(|(l, _)| l)
}

/// The lane that started the most threads beyond its budget, among those
/// that started any in the window or end it with blocked workers (they
/// live on compensation); each of them gets a line of `evidence`.
fn most_compensating<'a>(
    lanes: &'a [LaneWindow],
    evidence: &mut Vec<String>,
) -> Option<&'a LaneWindow> {
    let mut compensating: Option<&LaneWindow> = None;
    for l in lanes {
        let started = l.compensated.unwrap_or(0);
        let blocked = l.blocked_threads.unwrap_or(0);
        if started > 0 || blocked > 0 {
            evidence.push(format!(
                "lane {}: lives on compensation: {started} threads started beyond its budget in the window, {blocked} workers blocked now; its tasks wait more than they compute (raise its budget, or take the waits off the pool)",
                lane_name(l.lane)
            ));
            if compensating.is_none_or(|c| started > c.compensated.unwrap_or(0)) {
                compensating = Some(l);
            }
        }
    }
    compensating
}

fn lane_name(l: Option<Lane>) -> &'static str {
    l.map_or("?", Lane::name)
}

fn fmt_ms(v: f64) -> String {
    if v.is_infinite() {
        "+Inf".into()
    } else if v < 1.0 {
        format!("{v:.3}")
    } else {
        format!("{v:.0}")
    }
}

impl fmt::Display for Diagnosis {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.verdict.lane() {
            Some(lane) => writeln!(
                f,
                "verdict: {} lane={lane} (window {:.1} s)",
                self.verdict, self.window_seconds
            )?,
            None => writeln!(
                f,
                "verdict: {} (window {:.1} s)",
                self.verdict, self.window_seconds
            )?,
        }
        for e in &self.evidence {
            writeln!(f, "  - {e}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hist(values_ms: &[f64]) -> HistogramSample {
        let bounds = sluice::BUCKET_BOUNDS;
        HistogramSample {
            count: values_ms.len() as u64,
            sum_seconds: values_ms.iter().sum::<f64>() / 1e3,
            buckets: bounds
                .iter()
                .map(|&b| {
                    (
                        b,
                        values_ms.iter().filter(|&&v| v / 1e3 <= b).count() as u64,
                    )
                })
                .collect(),
        }
    }

    fn sample(cpu_sat: f64, cpu_wait_ms: &[f64], lag_ms: &[f64]) -> Sample {
        let lane = |l, sat, wait: &[f64]| LaneSample {
            lane: Some(l),
            started_total: wait.len() as u64,
            saturated_seconds_total: sat,
            queue_depth: 0,
            queue_wait: hist(wait),
            compensated_total: Some(0),
            blocked_threads: Some(0),
        };
        Sample {
            lanes: vec![
                lane(Lane::Cpu, cpu_sat, cpu_wait_ms),
                lane(Lane::FastIo, 0.0, &[0.01]),
                lane(Lane::SlowIo, 0.0, &[]),
            ],
            lag: Some(hist(lag_ms)),
        }
    }

    #[test]
    fn loop_blocked_when_lag_is_high() {
        let d = diagnose(
            &Sample::default(),
            &sample(0.0, &[0.01], &[0.5, 150.0, 150.0]),
            Duration::from_secs(1),
            &Thresholds::default(),
        );
        assert_eq!(d.verdict, Verdict::LoopBlocked);
        assert!(
            d.evidence[0].starts_with("loop lag p99 <= 250 ms"),
            "{:?}",
            d.evidence
        );
    }

    #[test]
    fn lane_saturated_when_loop_is_fine_and_queue_waits() {
        let start = sample(0.0, &[], &[]);
        let end = sample(0.8, &[50.0, 60.0, 70.0], &[0.5; 100]);
        let d = diagnose(&start, &end, Duration::from_secs(1), &Thresholds::default());
        assert_eq!(d.verdict, Verdict::LaneSaturated(Lane::Cpu));
        assert_eq!(d.lanes[0].started, 3);
        assert!((d.lanes[0].saturated_share - 0.8).abs() < 1e-9);
        assert!(
            d.to_string()
                .contains("lane cpu: saturated 80% of the window"),
            "{d}"
        );
    }

    #[test]
    fn a_lane_that_lives_on_compensation_is_a_finding() {
        let start = sample(0.0, &[], &[]);
        let mut end = sample(0.0, &[0.01], &[0.5; 100]);
        end.lanes[1].compensated_total = Some(12);
        end.lanes[1].blocked_threads = Some(3);
        let d = diagnose(&start, &end, Duration::from_secs(1), &Thresholds::default());
        assert_eq!(d.verdict, Verdict::LaneCompensating(Lane::FastIo));
        assert_eq!(d.lanes[1].compensated, Some(12));
        assert!(
            d.to_string().contains(
                "lane fastio: lives on compensation: 12 threads started beyond its budget in the window, 3 workers blocked now"
            ),
            "{d}"
        );
        // A saturated lane comes first.
        let end = {
            let mut e = sample(0.8, &[50.0, 60.0, 70.0], &[0.5; 100]);
            e.lanes[1].compensated_total = Some(12);
            e
        };
        let d = diagnose(&start, &end, Duration::from_secs(1), &Thresholds::default());
        assert_eq!(d.verdict, Verdict::LaneSaturated(Lane::Cpu));
    }

    #[test]
    fn healthy_when_nothing_waits() {
        let d = diagnose(
            &sample(0.0, &[], &[]),
            &sample(0.0, &[0.02, 0.03], &[0.4; 50]),
            Duration::from_secs(1),
            &Thresholds::default(),
        );
        assert_eq!(d.verdict, Verdict::Healthy);
    }

    #[test]
    fn a_loop_without_ticks_over_a_long_window_is_blocked() {
        let d = diagnose(
            &sample(0.0, &[], &[1.0]),
            &sample(0.0, &[], &[1.0]),
            Duration::from_secs(2),
            &Thresholds::default(),
        );
        assert_eq!(d.loop_ticks, Some(0));
        assert_eq!(d.verdict, Verdict::LoopBlocked);
    }

    /// Windows `(name, start, end, length)` that reach each branch of
    /// [`diagnose`].
    fn verdict_cases() -> Vec<(&'static str, Sample, Sample, Duration)> {
        let second = Duration::from_secs(1);
        let quiet = sample(0.0, &[], &[]);
        let no_tick = sample(0.0, &[], &[1.0]);
        let mut compensating = sample(0.0, &[0.01], &[0.5; 100]);
        compensating.lanes[1].compensated_total = Some(12);
        compensating.lanes[1].blocked_threads = Some(3);
        compensating.lanes[2].blocked_threads = Some(1);
        let mut both = sample(0.8, &[50.0, 60.0, 70.0], &[0.5; 100]);
        both.lanes[1].compensated_total = Some(12);
        let mut unmeasured = sample(0.6, &[0.02], &[]);
        unmeasured.lag = None;
        unmeasured.lanes[2].saturated_seconds_total = 0.9;
        unmeasured.lanes[2].queue_depth = 7;
        let mut lag_at_end = sample(0.0, &[], &[3.0, 4.0]);
        lag_at_end.lanes[0].lane = None;
        lag_at_end.lanes[0].saturated_seconds_total = 0.7;
        let mut unlagged = quiet.clone();
        unlagged.lag = None;
        let saturated = sample(0.8, &[50.0, 60.0, 70.0], &[0.5; 100]);
        let lagging = sample(0.0, &[0.01], &[0.5, 150.0, 150.0]);
        let healthy = sample(0.0, &[0.02, 0.03], &[0.4; 50]);
        let beyond = sample(0.0, &[90_000.0], &[90_000.0]);
        let (short, long) = (Duration::from_millis(150), Duration::from_secs(2));
        vec![
            ("loop blocked", Sample::default(), lagging, second),
            ("lane saturated", quiet.clone(), saturated, second),
            ("healthy", quiet.clone(), healthy, second),
            (
                "no tick over a long window",
                no_tick.clone(),
                no_tick.clone(),
                long,
            ),
            (
                "no tick over a short window",
                no_tick.clone(),
                no_tick,
                short,
            ),
            (
                "waits beyond the last bucket",
                quiet.clone(),
                beyond,
                second,
            ),
            ("compensating", quiet.clone(), compensating, second),
            ("saturated and compensating", quiet.clone(), both, second),
            ("no lag, saturated by share", quiet, unmeasured, second),
            (
                "an unknown lane, lag at the end only",
                unlagged,
                lag_at_end,
                second,
            ),
        ]
    }

    /// The doctor's whole answer (its text and every number) for windows
    /// that reach each branch, compared with `testdata/doctor.txt`.
    #[test]
    fn every_verdict_reads_as_on_file() {
        let mut text = String::new();
        for (name, start, end, window) in verdict_cases() {
            let d = diagnose(&start, &end, window, &Thresholds::default());
            text.push_str(&format!("== {name}\n{d}{d:#?}\n"));
        }
        crate::golden::same(&text, include_str!("../testdata/doctor.txt"), "doctor.txt");
    }

    #[test]
    fn window_quantiles_use_only_the_window() {
        let a = hist(&[100.0; 10]);
        let b = hist(&[
            100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 100.0, 0.5, 0.5,
        ]);
        let w = b.since(&a);
        assert_eq!(w.count, 2);
        assert_eq!(w.quantile_upper(0.99), Some(0.0005)); // 0.5 ms sits in the le=0.5 ms bucket
    }
}
