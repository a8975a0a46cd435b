//! [`sample_from_text`]: a service's Prometheus text as a
//! [`health::Sample`](sluice_health::Sample), read with
//! [`sluice_health::scrape::parse`]: strictly, as sluice writes it
//! (OpenMetrics: typed families, `# EOF`), so another program's page or a
//! cut-short one is refused with the line named rather than half-read.

use sluice::Lane;
use sluice_health::scrape::{self, Kind};
use sluice_health::{HistogramSample, LaneSample, ParseError, Sample};
use std::collections::BTreeMap;

/// Reads the lanes (`sluice_started_total`, `sluice_saturated_seconds_total`,
/// `sluice_queue_depth`, `sluice_queue_wait_seconds`) and, if present, the
/// loop lag (`sluice_loop_lag_seconds`).
///
/// ```
/// use sluice_serve::doctor::sample_from_text;
///
/// let pool = sluice::Pool::builder().build()?;
/// pool.spawn(sluice::Lane::Cpu, || ()).wait()?;
/// let text = sluice_health::to_prometheus(&pool.metrics(), None);
/// let sample = sample_from_text(&text)?;
/// assert_eq!(sample.lanes.len(), 3);
/// assert_eq!(sample.lanes[0].started_total, 1);
/// assert_eq!(sample.lanes[0].queue_wait.count, 1);
/// assert!(sample.lag.is_none());
///
/// let err = sample_from_text("# TYPE process_cpu_seconds counter\nprocess_cpu_seconds_total 4.5\n# EOF\n").unwrap_err();
/// assert!(err.to_string().starts_with("no sluice_* series"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn sample_from_text(text: &str) -> Result<Sample, ParseError> {
    // Another program's page is named as such before it is read strictly.
    if !text.lines().any(|l| l.starts_with("sluice_")) {
        return Err(ParseError(
            "no sluice_* series in the text: this is not the /metrics of a sluice service (start one with `sluice serve`)".into(),
        ));
    }
    let page =
        scrape::parse(text).map_err(|e| ParseError(format!("reading the metrics text: {e}")))?;
    // (sample name, lane label or "") -> value, for every sample but buckets.
    let mut scalars: BTreeMap<(String, String), f64> = BTreeMap::new();
    // (histogram name, lane label or "") -> cumulative (le, count), +Inf included.
    let mut buckets: BTreeMap<(String, String), Vec<(f64, f64)>> = BTreeMap::new();
    for f in &page.families {
        for s in &f.samples {
            let lane = s.label("lane").unwrap_or("").to_string();
            match s.label("le") {
                Some(le) if f.kind == Kind::Histogram => {
                    let le = match le {
                        "+Inf" => f64::INFINITY,
                        _ => le.parse().unwrap_or(f64::NAN),
                    };
                    buckets
                        .entry((f.name.clone(), lane))
                        .or_default()
                        .push((le, s.value));
                }
                _ => {
                    scalars.insert((s.name.clone(), lane), s.value);
                }
            }
        }
    }
    let raw = |metric: &str, lane: &str| -> Result<f64, ParseError> {
        scalars
            .get(&(metric.to_string(), lane.to_string()))
            .copied()
            .ok_or_else(|| missing(metric, lane))
    };
    let scalar = |metric: &str, lane: &str| -> Result<f64, ParseError> {
        seconds(raw(metric, lane)?, metric, lane)
    };
    let whole = |metric: &str, lane: &str| -> Result<u64, ParseError> {
        count(raw(metric, lane)?, metric, lane)
    };
    let optional = |metric: &str, lane: &str| -> Result<Option<u64>, ParseError> {
        scalars
            .contains_key(&(metric.to_string(), lane.to_string()))
            .then(|| whole(metric, lane))
            .transpose()
    };
    let histogram = |name: &str, lane: &str| -> Result<HistogramSample, ParseError> {
        let bucket = format!("{name}_bucket");
        let raw = buckets
            .get(&(name.to_string(), lane.to_string()))
            .ok_or_else(|| missing(&bucket, lane))?;
        let mut finite = Vec::with_capacity(raw.len());
        for &(le, c) in raw {
            let c = count(c, &bucket, lane)?;
            if le.is_finite() {
                finite.push((le, c));
            } else if le != f64::INFINITY {
                return Err(bad(
                    &bucket,
                    lane,
                    &format!("le=\"{le}\""),
                    "a finite bound or +Inf",
                ));
            }
        }
        finite.sort_by(|a, b| a.0.total_cmp(&b.0));
        Ok(HistogramSample {
            count: whole(&format!("{name}_count"), lane)?,
            sum_seconds: scalar(&format!("{name}_sum"), lane)?,
            buckets: finite,
        })
    };
    let mut lanes = Vec::new();
    for lane in Lane::ALL {
        let name = lane.name();
        if !scalars.contains_key(&("sluice_started_total".to_string(), name.to_string())) {
            continue;
        }
        lanes.push(LaneSample {
            lane: Some(lane),
            started_total: whole("sluice_started_total", name)?,
            saturated_seconds_total: scalar("sluice_saturated_seconds_total", name)?,
            queue_depth: whole("sluice_queue_depth", name)?,
            queue_wait: histogram("sluice_queue_wait_seconds", name)?,
            // Optional: services from before blocking compensation, and the
            // libuv policy (no blocked gauge), do not export them.
            compensated_total: optional("sluice_compensated_total", name)?,
            blocked_threads: optional("sluice_blocked_threads", name)?,
        });
    }
    if lanes.is_empty() {
        return Err(missing("sluice_started_total", "cpu"));
    }
    let lag = if buckets.contains_key(&("sluice_loop_lag_seconds".to_string(), String::new())) {
        Some(histogram("sluice_loop_lag_seconds", "")?)
    } else {
        None
    };
    Ok(Sample { lanes, lag })
}

/// A value of seconds (or any amount): finite and not negative, else an
/// error naming the series.
fn seconds(v: f64, metric: &str, lane: &str) -> Result<f64, ParseError> {
    if v.is_finite() && v >= 0.0 {
        Ok(v)
    } else {
        Err(bad(
            metric,
            lane,
            &v.to_string(),
            "a finite, non-negative number",
        ))
    }
}

/// A count: a whole number from 0 to 2^64 - 1, else an error naming the
/// series (never cast: `NaN as u64` is 0, `-5.0 as u64` is 0).
fn count(v: f64, metric: &str, lane: &str) -> Result<u64, ParseError> {
    // 2^64 is the first f64 above u64::MAX.
    if v.is_finite() && v >= 0.0 && v.fract() == 0.0 && v < 18_446_744_073_709_551_616.0 {
        Ok(v as u64)
    } else {
        Err(bad(
            metric,
            lane,
            &v.to_string(),
            "a whole number of at least 0",
        ))
    }
}

fn series(metric: &str, lane: &str) -> String {
    if lane.is_empty() {
        metric.to_string()
    } else {
        format!("{metric}{{lane=\"{lane}\"}}")
    }
}

fn bad(metric: &str, lane: &str, got: &str, expected: &str) -> ParseError {
    ParseError(format!(
        "{} = {got}: expected {expected}; these metrics are not a sluice service's",
        series(metric, lane)
    ))
}

fn missing(metric: &str, lane: &str) -> ParseError {
    ParseError(format!(
        "the metrics have sluice_* series but not {}; the doctor needs a sluice service's /metrics (sluice serve)",
        series(metric, lane)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One lane's series, as `sluice serve` writes them.
    const ONE_LANE: &str = "\
# TYPE sluice_started counter
sluice_started_total{lane=\"cpu\"} 1
# TYPE sluice_saturated_seconds counter
sluice_saturated_seconds_total{lane=\"cpu\"} 0.0
# TYPE sluice_queue_depth gauge
sluice_queue_depth{lane=\"cpu\"} 0
# TYPE sluice_queue_wait_seconds histogram
sluice_queue_wait_seconds_sum{lane=\"cpu\"} 0.000294964
sluice_queue_wait_seconds_count{lane=\"cpu\"} 1
sluice_queue_wait_seconds_bucket{le=\"0.001\",lane=\"cpu\"} 1
sluice_queue_wait_seconds_bucket{le=\"+Inf\",lane=\"cpu\"} 1
# EOF
";

    /// The fuzzer's find (fuzz target `exposition`): a histogram sum of
    /// `0.01e308964` (+Inf) was accepted, and so would NaN and negative
    /// values have been, cast to 0 as counts. Each is refused, naming the
    /// series.
    #[test]
    fn non_finite_negative_and_fractional_values_are_refused_with_the_series() {
        let crash =
            String::from_utf8_lossy(include_bytes!("testdata/fuzz-exposition-crash-d1343d8b"));
        // Strictly read, the crash's text (two pages, one after # EOF) is
        // refused before its values are looked at; its +Inf sum is the
        // first case of the table below.
        let err = sample_from_text(&crash).unwrap_err().to_string();
        assert!(err.starts_with("reading the metrics text: line "), "{err}");
        assert_eq!(
            sample_from_text(ONE_LANE).unwrap().lanes[0].started_total,
            1
        );
        for (from, to, series, expected) in [
            (
                "} 0.000294964",
                "} 0.01e308964",
                "sluice_queue_wait_seconds_sum{lane=\"cpu\"} = inf",
                "a finite, non-negative number",
            ),
            (
                "sluice_started_total{lane=\"cpu\"} 1",
                "sluice_started_total{lane=\"cpu\"} NaN",
                "sluice_started_total{lane=\"cpu\"} = NaN",
                "a whole number",
            ),
            (
                "sluice_started_total{lane=\"cpu\"} 1",
                "sluice_started_total{lane=\"cpu\"} -5",
                "sluice_started_total{lane=\"cpu\"} = -5",
                "a whole number",
            ),
            (
                "sluice_queue_depth{lane=\"cpu\"} 0",
                "sluice_queue_depth{lane=\"cpu\"} 2.5",
                "sluice_queue_depth{lane=\"cpu\"} = 2.5",
                "a whole number",
            ),
            (
                "sluice_queue_depth{lane=\"cpu\"} 0",
                "sluice_queue_depth{lane=\"cpu\"} 1e30",
                "sluice_queue_depth{lane=\"cpu\"} = 1000000000000000000000000000000",
                "a whole number",
            ),
            (
                "seconds_total{lane=\"cpu\"} 0.0",
                "seconds_total{lane=\"cpu\"} -Inf",
                "sluice_saturated_seconds_total{lane=\"cpu\"} = -inf",
                "a finite, non-negative number",
            ),
            (
                "{le=\"0.001\",lane=\"cpu\"} 1",
                "{le=\"0.001\",lane=\"cpu\"} NaN",
                "sluice_queue_wait_seconds_bucket{lane=\"cpu\"} = NaN",
                "a whole number",
            ),
        ] {
            let text = ONE_LANE.replace(from, to);
            assert_ne!(text, ONE_LANE, "{from}");
            let err = sample_from_text(&text).unwrap_err().to_string();
            assert!(
                err.starts_with(&format!("{series}: expected {expected}")),
                "{to}: {err}"
            );
        }
        let nan_bound = ONE_LANE.replace("le=\"0.001\"", "le=\"NaN\"");
        let err = sample_from_text(&nan_bound).unwrap_err().to_string();
        assert!(
            err.ends_with("buckets not in order or not cumulative"),
            "{err}"
        );
        let with_blocked = ONE_LANE.replace(
            "# EOF\n",
            "# TYPE sluice_blocked_threads gauge\nsluice_blocked_threads{lane=\"cpu\"} -1\n# EOF\n",
        );
        assert!(
            sample_from_text(&with_blocked)
                .unwrap_err()
                .to_string()
                .starts_with("sluice_blocked_threads{lane=\"cpu\"} = -1: expected a whole number")
        );
    }

    #[test]
    fn reads_the_loop_lag_and_every_lane() {
        let pool = sluice::Pool::builder().build().unwrap();
        for _ in 0..3 {
            pool.spawn(Lane::FastIo, || ()).wait().unwrap();
        }
        let lag = HistogramSample {
            count: 4,
            sum_seconds: 0.004,
            buckets: vec![(0.0005, 1), (0.001, 3), (0.002, 4)],
        };
        let text = sluice_health::to_prometheus(&pool.metrics(), Some(&lag));
        let s = sample_from_text(&text).unwrap();
        assert_eq!(s.lanes.len(), 3);
        assert_eq!(s.lanes[1].lane, Some(Lane::FastIo));
        assert_eq!(s.lanes[1].started_total, 3);
        assert_eq!(s.lanes[1].queue_wait.count, 3);
        let got = s.lag.unwrap();
        assert_eq!(got.count, 4);
        assert_eq!(got.buckets, lag.buckets);
        assert!((got.sum_seconds - 0.004).abs() < 1e-12);
    }

    #[test]
    fn a_missing_series_is_named() {
        let text = "# TYPE sluice_started counter\nsluice_started_total{lane=\"cpu\"} 1\n# EOF\n";
        assert_eq!(
            sample_from_text(text).unwrap_err().to_string(),
            "the metrics have sluice_* series but not sluice_saturated_seconds_total{lane=\"cpu\"}; the doctor needs a sluice service's /metrics (sluice serve)"
        );
    }
}
