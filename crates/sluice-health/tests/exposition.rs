//! What `sluice serve` serves at `/metrics` (`exposition`): the pool's own
//! page, then the loop lag and the verdict, compared with
//! `testdata/service_tail.prom` byte for byte (but for the order of
//! `sluice_verdict`'s series, which is a hash map's).

#![cfg(feature = "prometheus")]

use sluice::{BUCKET_BOUNDS, Pool};
use sluice_health::{HistogramSample, Sample, diagnose, exposition};

/// A lag histogram whose cumulative buckets hold `values` (seconds).
fn lag(values: &[f64]) -> HistogramSample {
    HistogramSample {
        count: values.len() as u64,
        sum_seconds: values.iter().sum(),
        buckets: BUCKET_BOUNDS
            .iter()
            .map(|&b| (b, values.iter().filter(|&&v| v <= b).count() as u64))
            .collect(),
    }
}

/// `text` with the samples of `sluice_verdict` (a prometheus-client
/// `Family`: its series come in hash order) sorted.
fn verdicts_sorted(text: &str) -> String {
    let (head, verdicts) = text.split_once("# TYPE sluice_verdict gauge\n").unwrap();
    let mut lines: Vec<&str> = verdicts.lines().filter(|l| *l != "# EOF").collect();
    lines.sort();
    format!(
        "{head}# TYPE sluice_verdict gauge\n{}\n# EOF\n",
        lines.join("\n")
    )
}

#[test]
fn the_service_page_is_the_pool_page_then_the_lag_and_the_verdict() {
    let pool = Pool::builder().build().unwrap();
    let snap = pool.metrics();
    let lag = lag(&[1e-4, 2e-4, 0.03]);
    let d = diagnose(
        &Sample::default(),
        &Sample::from_snapshot(&snap, Some(&lag)),
        std::time::Duration::from_secs(2),
        &Default::default(),
    );
    let text = exposition(&snap, Some(&lag), Some(&d));
    let (pool_part, tail) = text
        .split_once("# HELP sluice_loop_lag_seconds")
        .unwrap_or_else(|| panic!("no loop lag:\n{text}"));
    let pool_page = snap.to_prometheus();
    assert_eq!(
        Some(pool_part),
        pool_page.strip_suffix("# EOF\n"),
        "the pool's series are its own page's"
    );
    let tail = verdicts_sorted(&format!("# HELP sluice_loop_lag_seconds{tail}"));
    let want = verdicts_sorted(include_str!("../testdata/service_tail.prom"));
    assert_eq!(tail, want);
}
