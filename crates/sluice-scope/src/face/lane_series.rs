//! sluice's lanes on `--prometheus`'s page: per `lane`, in processes that
//! use sluice's npm package (`crate::sample::lanes`).

use super::prometheus::{FGauge, Labels, Series, Totals, register_present, with};
use crate::verdict::aggregate::Report;
use crate::verdict::doctor::Verdict;
use prometheus_client::metrics::family::Family;
use prometheus_client::registry::Registry;

/// sluice's lanes' gauges, per `lane` (`cpu`, `fastio`, `slowio`), each
/// from the last window.
const LANE_GAUGES: [Series<crate::sample::lanes::LaneReport>; 4] = [
    (
        "lane_threads",
        "sluice lane threads found (the npm package's, by thread name)",
        |l| Some(l.threads as f64),
    ),
    (
        "lane_busy_threads",
        "Mean busy threads of a sluice lane, last window",
        |l| Some(l.busy_threads),
    ),
    (
        "lane_saturation_ratio",
        "Share of samples with every thread of a sluice lane busy, last window",
        |l| Some(l.saturation_pct / 100.0),
    ),
    (
        "lane_queue_depth",
        "Mean tasks waiting in a sluice lane's queue (queued, not yet claimed by a thread), last window; read from the package's gauge block, absent where it is not readable",
        |l| l.queue_depth,
    ),
];

/// sluice's lanes, in processes that use sluice's npm package: the
/// [`LANE_GAUGES`] and `lane_verdict` (1 for the lane's verdict, 0 for the
/// other: `healthy`, `pool-saturated`).
pub(super) fn register_lanes(reg: &mut Registry, entries: &[(Labels, &Report, &Totals)]) {
    for (name, help, read) in LANE_GAUGES {
        let values: Vec<(Labels, Option<f64>)> = entries
            .iter()
            .flat_map(|(labels, r, _)| {
                r.sluice_lanes
                    .iter()
                    .map(move |l| (with(labels, "lane", l.lane), read(l)))
            })
            .collect();
        register_present(
            reg,
            name,
            help,
            values.iter().map(|(l, v)| (l, *v)),
            |g: &FGauge, x| {
                g.set(x);
            },
        );
    }
    let verdicts = Family::<Labels, FGauge>::default();
    for (labels, r, _) in entries {
        for l in &r.sluice_lanes {
            let lane = with(labels, "lane", l.lane);
            for v in [Verdict::Healthy, Verdict::PoolSaturated] {
                let on = l.verdict.as_str() == v.as_str();
                verdicts
                    .get_or_create(&with(&lane, "verdict", v.as_str()))
                    .set(if on { 1.0 } else { 0.0 });
            }
        }
    }
    reg.register(
        "lane_verdict",
        "The doctor's verdict on a sluice lane's last window (1: this one)",
        verdicts,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::face::prometheus::encode;
    use crate::face::prometheus::tests::window_report;

    #[test]
    fn sluice_lanes_get_their_gauges_and_verdict_per_lane() {
        let mut r = window_report();
        let plain = encode(&r, &Totals::default());
        assert!(!plain.contains("sluice_scope_lane_"), "no lanes, no series");
        let cpu_lane = crate::sample::lanes::LaneReport {
            lane: "cpu",
            threads: 2,
            busy_threads: 2.0,
            busy_threads_max: 2,
            saturation_pct: 100.0,
            queue_depth: Some(13.5),
            queue_depth_max: Some(14),
            running: Some(2.0),
            queue_readings: 200,
            queue_unread: None,
            states: Default::default(),
            verdict: Verdict::LaneSaturated(sluice::Lane::Cpu),
            evidence: String::new(),
        };
        let unread_lane = crate::sample::lanes::LaneReport {
            lane: "fastio",
            verdict: Verdict::Healthy,
            queue_depth: None,
            queue_depth_max: None,
            running: None,
            queue_readings: 0,
            queue_unread: Some("the package's pool is not built yet".into()),
            ..cpu_lane.clone()
        };
        r.sluice_lanes = vec![cpu_lane, unread_lane];
        let page = encode(&r, &Totals::default());
        let p = sluice_health::scrape::parse(&page).unwrap();
        let cpu = [("pid", "42"), ("lane", "cpu")];
        assert_eq!(p.value("sluice_scope_lane_threads", &cpu), Some(2.0));
        assert_eq!(
            p.value("sluice_scope_lane_saturation_ratio", &cpu),
            Some(1.0)
        );
        let v = |verdict| {
            p.value(
                "sluice_scope_lane_verdict",
                &[("pid", "42"), ("lane", "cpu"), ("verdict", verdict)],
            )
        };
        assert_eq!((v("pool-saturated"), v("healthy")), (Some(1.0), Some(0.0)));
        assert_eq!(p.value("sluice_scope_lane_queue_depth", &cpu), Some(13.5));
        // A lane whose queue was not read has its other series, no depth.
        let fastio = [("pid", "42"), ("lane", "fastio")];
        assert_eq!(p.value("sluice_scope_lane_threads", &fastio), Some(2.0));
        assert_eq!(p.value("sluice_scope_lane_queue_depth", &fastio), None);
        assert_eq!(
            page.matches("sluice_scope_lane_queue_depth{").count(),
            1,
            "{page}"
        );
        // The pool's own series are unchanged.
        assert!(page.contains("sluice_scope_pool_threads{pid=\"42\"} 2.0"));
    }
}
