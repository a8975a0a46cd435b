//! `/metrics` is valid OpenMetrics text, checked with a strict parser
//! written apart from the encoder (`sluice_health::scrape`; prometheus-client
//! wrote it): every line a HELP, a TYPE, a sample of a declared family, or
//! the final `# EOF`; histogram buckets cumulative with `+Inf` equal to
//! `_count`; every family with its HELP; and the counts match the requests
//! sent.

mod common;

use common::serve::{Serve, get_full};
use sluice_health::scrape::{self, Kind};

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

    // Strictly: every sample in the family its TYPE declared, no series
    // twice, buckets cumulative with +Inf equal to _count, # EOF last.
    let page = scrape::parse(&text).unwrap_or_else(|e| panic!("{e}:\n{text}"));
    for f in &page.families {
        assert!(f.help.is_some(), "{} has no HELP", f.name);
    }
    let kind = |family: &str| {
        page.family(family)
            .unwrap_or_else(|| panic!("no family {family}"))
            .kind
    };
    let kinds: [(Kind, &[&str]); 3] = [
        (
            Kind::Counter,
            &[
                "sluice_submitted",
                "sluice_rejected",
                "sluice_saturated_seconds",
            ],
        ),
        (
            Kind::Gauge,
            &[
                "sluice_queue_depth",
                "sluice_in_flight",
                "sluice_limit",
                "sluice_tasks_running",
                "sluice_concurrency_limit",
                "sluice_verdict",
            ],
        ),
        (
            Kind::Histogram,
            &[
                "sluice_queue_wait_seconds",
                "sluice_run_time_seconds",
                "sluice_loop_lag_seconds",
            ],
        ),
    ];
    for (want, families) in kinds {
        for family in families {
            assert_eq!(kind(family), want, "{family}");
        }
    }
    let scalar = |name: &str, lane: Option<&str>| -> f64 {
        let labels: Vec<(&str, &str)> = lane.map(|l| ("lane", l)).into_iter().collect();
        page.value(name, &labels)
            .unwrap_or_else(|| panic!("no {name} {lane:?}"))
    };
    assert_eq!(scalar("sluice_submitted_total", Some("cpu")), 3.0); // 2 logins + 1 gzip
    assert_eq!(scalar("sluice_submitted_total", Some("fastio")), 1.0);
    assert_eq!(scalar("sluice_submitted_total", Some("slowio")), 0.0);
    assert_eq!(scalar("sluice_queue_wait_seconds_count", Some("cpu")), 3.0);
    let histograms: usize = page
        .families
        .iter()
        .filter(|f| f.kind == Kind::Histogram)
        .map(|f| {
            f.samples
                .iter()
                .filter(|s| s.name.ends_with("_count"))
                .count()
        })
        .sum();
    assert_eq!(
        histograms,
        3 + 3 + 1,
        "queue wait and run time per lane, loop lag"
    );
    assert!(scalar("sluice_loop_lag_seconds_count", None) >= 1.0);
}
