//! [`sample_from_text`]: a service's Prometheus text as a
//! [`health::Sample`](sluice::health::Sample), read with the
//! `prometheus-parse` crate.
//!
//! The crate reads the text format line by line (HELP, TYPE, samples,
//! histogram buckets grouped by their labels). It types a histogram's
//! buckets but leaves OpenMetrics counters (`# TYPE x counter` with samples
//! `x_total`) and a histogram's `_sum`/`_count` untyped, so values are read
//! by name whatever their type.

use prometheus_parse::{Scrape, Value};
use sluice::Lane;
use sluice::health::{HistogramSample, LaneSample, ParseError, Sample};
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
/// let text = sluice::health::to_prometheus(&pool.metrics(), None);
/// let sample = sample_from_text(&text)?;
/// assert_eq!(sample.lanes.len(), 3);
/// assert_eq!(sample.lanes[0].started_total, 1);
/// assert_eq!(sample.lanes[0].queue_wait.count, 1);
/// assert!(sample.lag.is_none());
///
/// let err = sample_from_text("process_cpu_seconds_total 4.5\n").unwrap_err();
/// assert!(err.to_string().starts_with("no sluice_* series"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn sample_from_text(text: &str) -> Result<Sample, ParseError> {
    let scrape = Scrape::parse(text.lines().map(|l| Ok(l.to_string())))
        .map_err(|e| ParseError(format!("reading the metrics text: {e}")))?;
    if !scrape
        .samples
        .iter()
        .any(|s| s.metric.starts_with("sluice_"))
    {
        return Err(ParseError(
            "no sluice_* series in the text: this is not the /metrics of a sluice service (start one with `sluice serve`)".into(),
        ));
    }
    // (metric, lane label or "") -> value, for scalar samples.
    let mut scalars: BTreeMap<(String, String), f64> = BTreeMap::new();
    // (metric, lane label or "") -> cumulative (le, count), +Inf included.
    let mut buckets: BTreeMap<(String, String), Vec<(f64, f64)>> = BTreeMap::new();
    for s in &scrape.samples {
        let lane = s.labels.get("lane").unwrap_or("").to_string();
        let key = (s.metric.clone(), lane);
        match &s.value {
            Value::Counter(v) | Value::Gauge(v) | Value::Untyped(v) => {
                scalars.insert(key, *v);
            }
            Value::Histogram(h) => {
                buckets.insert(key, h.iter().map(|b| (b.less_than, b.count)).collect());
            }
            Value::Summary(_) => {}
        }
    }
    let scalar = |metric: &str, lane: &str| -> Result<f64, ParseError> {
        scalars
            .get(&(metric.to_string(), lane.to_string()))
            .copied()
            .ok_or_else(|| missing(metric, lane))
    };
    let histogram = |name: &str, lane: &str| -> Result<HistogramSample, ParseError> {
        let raw = buckets
            .get(&(name.to_string(), lane.to_string()))
            .ok_or_else(|| missing(&format!("{name}_bucket"), lane))?;
        let mut finite: Vec<(f64, u64)> = raw
            .iter()
            .filter(|(le, _)| le.is_finite())
            .map(|&(le, c)| (le, c as u64))
            .collect();
        finite.sort_by(|a, b| a.0.total_cmp(&b.0));
        Ok(HistogramSample {
            count: scalar(&format!("{name}_count"), lane)? as u64,
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
            started_total: scalar("sluice_started_total", name)? as u64,
            saturated_seconds_total: scalar("sluice_saturated_seconds_total", name)?,
            queue_depth: scalar("sluice_queue_depth", name)? as u64,
            queue_wait: histogram("sluice_queue_wait_seconds", name)?,
            // Optional: services from before blocking compensation, and the
            // libuv policy (no blocked gauge), do not export them.
            compensated_total: scalars
                .get(&("sluice_compensated_total".to_string(), name.to_string()))
                .map(|v| *v as u64),
            blocked_threads: scalars
                .get(&("sluice_blocked_threads".to_string(), name.to_string()))
                .map(|v| *v as u64),
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

fn missing(metric: &str, lane: &str) -> ParseError {
    let series = if lane.is_empty() {
        metric.to_string()
    } else {
        format!("{metric}{{lane=\"{lane}\"}}")
    };
    ParseError(format!(
        "the metrics have sluice_* series but not {series}; the doctor needs a sluice service's /metrics (sluice serve)"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

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
        let text = sluice::health::to_prometheus(&pool.metrics(), Some(&lag));
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
        let text = "# TYPE sluice_started counter\nsluice_started_total{lane=\"cpu\"} 1\n";
        assert_eq!(
            sample_from_text(text).unwrap_err().to_string(),
            "the metrics have sluice_* series but not sluice_saturated_seconds_total{lane=\"cpu\"}; the doctor needs a sluice service's /metrics (sluice serve)"
        );
    }
}
