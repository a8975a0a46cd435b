//! The cost of a scrape: a pool's snapshot encoded as Prometheus text
//! (`Snapshot::to_prometheus`, the same encoder `Pool::register`'s
//! collector runs at each scrape), and a registry scrape that also takes
//! the snapshot.
//!
//! Run with `cargo bench -p sluice-pool --bench export`.

use criterion::{Criterion, criterion_group, criterion_main};
use prometheus_client::registry::Registry;
use sluice::{Lane, Pool};
use std::hint::black_box;
use std::time::Duration;

fn export(c: &mut Criterion) {
    let pool = Pool::builder()
        .queue_bound(Lane::FastIo, 64)
        .build()
        .expect("pool");
    // Work on every lane, so that each histogram has buckets filled.
    for lane in Lane::ALL {
        for i in 0..100u64 {
            pool.spawn(lane, move || black_box(i)).wait().expect("task");
        }
    }
    let snap = pool.metrics();
    let mut registry = Registry::default();
    pool.register(&mut registry);

    let mut group = c.benchmark_group("export");
    group
        .sample_size(50)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
    group.bench_function("to_prometheus", |b| b.iter(|| snap.to_prometheus()));
    group.bench_function("registry_scrape", |b| {
        b.iter(|| {
            let mut out = String::new();
            prometheus_client::encoding::text::encode(&mut out, &registry).expect("encode");
            out
        })
    });
    group.finish();

    // What was measured: a page with every family, 100 tasks a lane.
    let page = snap.to_prometheus();
    let series = page.lines().filter(|l| !l.starts_with('#')).count();
    println!("page: {} bytes, {series} sample lines", page.len());
}

criterion_group!(benches, export);
criterion_main!(benches);
