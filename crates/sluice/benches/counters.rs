//! The cost of the always-on timing: 1000-in-flight throughput of the lanes
//! policy with `.timing(true)` (the default: clock reads and histograms)
//! beside `.timing(false)` (counts only), in one criterion group.
//!
//! Run with `cargo bench -p sluice-pool --bench counters`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use sluice::{Lane, Pool, Task};
use std::hint::black_box;
use std::time::Duration;

/// Tasks per iteration.
const BATCH: usize = 1000;

fn batch(pool: &Pool, handles: &mut Vec<Task<u64>>) -> u64 {
    handles.extend((0..BATCH).map(|_| pool.spawn(Lane::Cpu, || black_box(42u64))));
    handles
        .drain(..)
        .map(|t| t.wait().expect("task failed"))
        .sum()
}

fn counters(c: &mut Criterion) {
    let timed = Pool::builder().timing(true).build().expect("timed pool");
    let untimed = Pool::builder().timing(false).build().expect("untimed pool");

    let mut group = c.benchmark_group("counters");
    group
        .sample_size(25)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3))
        .throughput(Throughput::Elements(BATCH as u64));

    let mut handles = Vec::with_capacity(BATCH);
    group.bench_function("1000_in_flight/timing_on", |b| {
        b.iter(|| batch(&timed, &mut handles))
    });
    group.bench_function("1000_in_flight/timing_off", |b| {
        b.iter(|| batch(&untimed, &mut handles))
    });
    group.finish();

    // Sanity check that the two pools really differ: only the timed one
    // records run times.
    let on = timed.metrics().lane(Lane::Cpu).run_time_seconds.count;
    let off = untimed.metrics().lane(Lane::Cpu).run_time_seconds.count;
    println!("run_time_seconds samples: timing_on={on} timing_off={off}");
}

criterion_group!(benches, counters);
criterion_main!(benches);
