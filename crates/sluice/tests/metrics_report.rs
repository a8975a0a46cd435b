//! Feature `metrics`: `MetricsReporter::report` pushes counts, gauges and
//! each task's queue wait into the `metrics` facade once. Counts only.
#![cfg(feature = "metrics")]

use metrics::{
    Counter, CounterFn, Gauge, GaugeFn, Histogram, HistogramFn, Key, KeyName, Metadata, Recorder,
    SharedString, Unit,
};
use sluice::report::MetricsReporter;
use sluice::{Lane, Pool};
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

/// Every value pushed, by `name{lane}`.
#[derive(Default)]
struct Seen {
    counters: Mutex<BTreeMap<String, u64>>,
    gauges: Mutex<BTreeMap<String, f64>>,
    samples: Mutex<BTreeMap<String, usize>>,
}

/// Adds `v` to `key`'s entry of `map` (from zero).
fn add<N: Default + std::ops::AddAssign>(map: &Mutex<BTreeMap<String, N>>, key: &str, v: N) {
    *map.lock().unwrap().entry(key.to_owned()).or_default() += v;
}

struct Handle(Arc<Seen>, String);
impl CounterFn for Handle {
    fn increment(&self, v: u64) {
        add(&self.0.counters, &self.1, v);
    }
    fn absolute(&self, v: u64) {
        self.0.counters.lock().unwrap().insert(self.1.clone(), v);
    }
}
impl GaugeFn for Handle {
    fn increment(&self, _: f64) {}
    fn decrement(&self, _: f64) {}
    fn set(&self, v: f64) {
        self.0.gauges.lock().unwrap().insert(self.1.clone(), v);
    }
}
impl HistogramFn for Handle {
    fn record(&self, _: f64) {
        add(&self.0.samples, &self.1, 1);
    }
}

struct Rec(Arc<Seen>);
fn name(key: &Key) -> String {
    let labels: Vec<String> = key
        .labels()
        .map(|l| format!("{}={}", l.key(), l.value()))
        .collect();
    format!("{}{{{}}}", key.name(), labels.join(","))
}
impl Recorder for Rec {
    fn describe_counter(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_gauge(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn describe_histogram(&self, _: KeyName, _: Option<Unit>, _: SharedString) {}
    fn register_counter(&self, key: &Key, _: &Metadata<'_>) -> Counter {
        Counter::from_arc(Arc::new(Handle(Arc::clone(&self.0), name(key))))
    }
    fn register_gauge(&self, key: &Key, _: &Metadata<'_>) -> Gauge {
        Gauge::from_arc(Arc::new(Handle(Arc::clone(&self.0), name(key))))
    }
    fn register_histogram(&self, key: &Key, _: &Metadata<'_>) -> Histogram {
        Histogram::from_arc(Arc::new(Handle(Arc::clone(&self.0), name(key))))
    }
}

#[test]
fn a_report_pushes_counts_gauges_and_each_new_task_once() {
    let seen = Arc::new(Seen::default());
    let rec = Rec(Arc::clone(&seen));
    let pool = Pool::builder().queue_bound(Lane::Cpu, 4).build().unwrap();
    let reporter = MetricsReporter::new(&pool);
    for _ in 0..5 {
        pool.spawn(Lane::Cpu, || ()).wait().unwrap();
    }
    pool.spawn(Lane::FastIo, || ()).wait().unwrap();
    metrics::with_local_recorder(&rec, || reporter.report());
    // Reported again with two more Cpu tasks: only those two are new samples.
    for _ in 0..2 {
        pool.spawn(Lane::Cpu, || ()).wait().unwrap();
    }
    metrics::with_local_recorder(&rec, || reporter.report());

    let c = seen.counters.lock().unwrap().clone();
    assert_eq!(c["sluice_submitted_total{lane=cpu}"], 7);
    assert_eq!(c["sluice_completed_total{lane=fastio}"], 1);
    assert_eq!(c["sluice_rejected_total{lane=slowio}"], 0);
    let g = seen.gauges.lock().unwrap().clone();
    assert_eq!(g["sluice_queue_depth{lane=cpu}"], 0.0);
    assert_eq!(g["sluice_tasks_running{lane=cpu}"], 0.0);
    assert_eq!(
        g["sluice_concurrency_limit{lane=cpu}"],
        pool.limit(Lane::Cpu) as f64
    );
    let h = seen.samples.lock().unwrap().clone();
    assert_eq!(
        h["sluice_queue_wait_seconds{lane=cpu}"], 7,
        "each task once: {h:?}"
    );
    assert_eq!(h["sluice_run_time_seconds{lane=cpu}"], 7, "{h:?}");
    assert_eq!(h["sluice_queue_wait_seconds{lane=fastio}"], 1, "{h:?}");
    assert!(
        !h.contains_key("sluice_queue_wait_seconds{lane=slowio}"),
        "{h:?}"
    );
}
