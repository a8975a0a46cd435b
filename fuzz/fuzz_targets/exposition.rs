//! The doctor's reading of Prometheus/OpenMetrics text: never a panic; a
//! sample it accepts has finite, non-negative counts and seconds (anything
//! else is refused with the series named), and the doctor's diagnosis of
//! it, against itself and against an empty start, never panics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sluice_health::{HistogramSample, Sample, Thresholds, diagnose};
use std::time::Duration;

fn histogram_ok(h: &HistogramSample) {
    assert!(h.sum_seconds.is_finite() && h.sum_seconds >= 0.0, "{h:?}");
    for (le, _) in &h.buckets {
        assert!(le.is_finite(), "{h:?}");
    }
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    if let Ok(sample) = sluice_serve::doctor::sample_from_text(&text) {
        for lane in &sample.lanes {
            let s = lane.saturated_seconds_total;
            assert!(s.is_finite() && s >= 0.0, "{lane:?}");
            histogram_ok(&lane.queue_wait);
        }
        if let Some(lag) = &sample.lag {
            histogram_ok(lag);
        }
        let t = Thresholds::default();
        let _ = diagnose(&sample, &sample, Duration::from_secs(1), &t).to_string();
        let _ = diagnose(&Sample::default(), &sample, Duration::from_millis(1), &t).to_string();
    }
});
