//! FastIo's io_uring path beside its threads, in one criterion group:
//! `fs::read` and `fs::stat` of one 4 KB file (page cache) through a pool
//! at 1 and 64 in flight, and the bare calls on this thread
//! (`std::fs::read` / `std::fs::metadata` against `sluice_uring::read` /
//! `sluice_uring::stat`), which show the system calls saved without the
//! hand-off. Where the kernel refuses io_uring the "uring" rows run the
//! thread path (the bench says so on stderr).
//!
//! Run with `cargo bench -p sluice-pool --bench uring`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use sluice::{Pool, Task, fs};
use std::hint::black_box;
use std::io;
use std::path::{Path, PathBuf};
use std::time::Duration;

fn file() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().expect("temp dir");
    let path = dir.path().join("small");
    std::fs::write(&path, vec![7u8; 4096]).expect("write the file");
    (dir, path)
}

/// `n` calls of `op` in flight at once, all awaited.
fn batch<T: Send + 'static>(n: usize, op: impl Fn() -> Task<io::Result<T>>) -> usize {
    let tasks: Vec<_> = (0..n).map(|_| op()).collect();
    tasks
        .into_iter()
        .map(|t| t.wait().expect("task").map(|_| 1).expect("io"))
        .sum()
}

fn uring(c: &mut Criterion) {
    let (_dir, path) = file();
    let threads = Pool::builder().build().expect("pool");
    let ring = Pool::builder().fast_io_uring(true).build().expect("pool");
    if let Some(why) = ring.fast_io_uring().refused {
        eprintln!("io_uring refused here ({why}): the uring rows are the thread path");
    }
    let mut group = c.benchmark_group("uring");
    group
        .sample_size(20)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(2));
    for n in [1usize, 64] {
        group.throughput(Throughput::Elements(n as u64));
        for (name, pool) in [("threads", &threads), ("uring", &ring)] {
            group.bench_with_input(BenchmarkId::new(format!("read/{name}"), n), &n, |b, &n| {
                b.iter(|| batch(n, || fs::read(pool, &path)))
            });
            group.bench_with_input(BenchmarkId::new(format!("stat/{name}"), n), &n, |b, &n| {
                b.iter(|| batch(n, || fs::stat(pool, &path)))
            });
        }
    }
    group.throughput(Throughput::Elements(1));
    let p: &Path = &path;
    group.bench_function("bare_read/std", |b| b.iter(|| black_box(std::fs::read(p))));
    group.bench_function("bare_read/uring", |b| {
        b.iter(|| black_box(sluice_uring::read(p)))
    });
    group.bench_function("bare_stat/std", |b| {
        b.iter(|| black_box(std::fs::metadata(p)))
    });
    group.bench_function("bare_stat/uring", |b| {
        b.iter(|| black_box(sluice_uring::stat(p)))
    });
    group.finish();
}

criterion_group!(benches, uring);
criterion_main!(benches);
