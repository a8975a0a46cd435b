//! The doctor's reading of Prometheus/OpenMetrics text: never a panic; a
//! sample it accepts has finite, non-negative counts.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data);
    let _ = sluice_serve::doctor::sample_from_text(&text);
});
