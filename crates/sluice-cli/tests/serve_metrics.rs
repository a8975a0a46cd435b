//! `/metrics` is valid Prometheus text, checked with a parser independent
//! of the one that wrote it (prometheus-parse reads it; prometheus-client
//! wrote it): every line a HELP, a TYPE, a sample of a declared family, or
//! the final `# EOF`; histogram buckets cumulative with `+Inf` equal to
//! `_count`; and the counts match the requests sent.

mod common;

use common::serve::{Serve, get_full};
use prometheus_parse::{LineInfo, Scrape, Value};
use std::collections::{BTreeMap, BTreeSet};

#[test]
fn metrics_parse_as_prometheus_text_and_count_the_requests() {
    let s = Serve::start(&["--login-iterations", "1000"]);
    for path in ["/ping", "/login", "/login", "/gzip", "/file"] {
        assert_eq!(s.get(path).0, 200, "{path}");
    }
    // The loop-lag monitor has ticked at least once (every 10 ms).
    while s.metric("sluice_loop_lag_seconds_count") < 1.0 {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let (status, head, text) = get_full(s.port, "/metrics");
    assert_eq!(status, 200);
    assert!(
        head.to_ascii_lowercase()
            .contains("content-type: application/openmetrics-text; version=1.0.0"),
        "{head}"
    );

    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.last(), Some(&"# EOF"));
    let mut types: BTreeMap<String, String> = BTreeMap::new();
    let mut helped: BTreeSet<String> = BTreeSet::new();
    for line in &lines[..lines.len() - 1] {
        match LineInfo::parse(line) {
            LineInfo::Doc { metric_name, .. } => {
                helped.insert(metric_name.to_string());
            }
            LineInfo::Type {
                metric_name,
                metric_alias,
                sample_type,
            } => {
                let family = metric_alias.unwrap_or(metric_name);
                assert!(helped.contains(&family), "TYPE before HELP: {line}");
                types.insert(family, format!("{sample_type:?}"));
            }
            LineInfo::Sample {
                metric_name, value, ..
            } => {
                let family = ["_total", "_bucket", "_sum", "_count", "_info"]
                    .iter()
                    .find_map(|suf| {
                        metric_name
                            .strip_suffix(suf)
                            .filter(|f| types.contains_key(*f))
                    })
                    .unwrap_or(metric_name);
                assert!(
                    types.contains_key(family),
                    "sample of an undeclared family: {line}"
                );
                assert!(value.parse::<f64>().is_ok(), "bad value: {line}");
            }
            other => panic!("not a Prometheus line: {line:?} ({other:?})"),
        }
    }
    for family in [
        "sluice_submitted",
        "sluice_rejected",
        "sluice_saturated_seconds",
    ] {
        assert_eq!(types[family], "Counter", "{family}");
    }
    for family in [
        "sluice_queue_depth",
        "sluice_in_flight",
        "sluice_limit",
        "sluice_tasks_running",
        "sluice_concurrency_limit",
        "sluice_verdict",
    ] {
        assert_eq!(types[family], "Gauge", "{family}");
    }
    for family in [
        "sluice_queue_wait_seconds",
        "sluice_run_time_seconds",
        "sluice_loop_lag_seconds",
    ] {
        assert_eq!(types[family], "Histogram", "{family}");
    }

    let scrape = Scrape::parse(text.lines().map(|l| Ok(l.to_string()))).unwrap();
    let scalar = |name: &str, lane: Option<&str>| -> f64 {
        scrape
            .samples
            .iter()
            .find(|s| s.metric == name && s.labels.get("lane") == lane)
            .map(|s| match s.value {
                Value::Counter(v) | Value::Gauge(v) | Value::Untyped(v) => v,
                _ => panic!("{name} is not a scalar"),
            })
            .unwrap_or_else(|| panic!("no {name} {lane:?}"))
    };
    assert_eq!(scalar("sluice_submitted_total", Some("cpu")), 3.0); // 2 logins + 1 gzip
    assert_eq!(scalar("sluice_submitted_total", Some("fastio")), 1.0);
    assert_eq!(scalar("sluice_submitted_total", Some("slowio")), 0.0);
    assert_eq!(scalar("sluice_queue_wait_seconds_count", Some("cpu")), 3.0);
    let mut histograms = 0;
    for sample in &scrape.samples {
        if let Value::Histogram(buckets) = &sample.value {
            histograms += 1;
            let lane = sample.labels.get("lane");
            let mut sorted = buckets.clone();
            sorted.sort_by(|a, b| a.less_than.total_cmp(&b.less_than));
            assert!(
                sorted.windows(2).all(|w| w[0].count <= w[1].count),
                "{} {lane:?}: buckets not cumulative",
                sample.metric
            );
            let inf = sorted.last().unwrap();
            assert!(inf.less_than.is_infinite());
            assert_eq!(
                inf.count,
                scalar(&format!("{}_count", sample.metric), lane),
                "{} {lane:?}: +Inf != _count",
                sample.metric
            );
        }
    }
    assert_eq!(
        histograms,
        3 + 3 + 1,
        "queue wait and run time per lane, loop lag"
    );
    assert!(scalar("sluice_loop_lag_seconds_count", None) >= 1.0);
}
