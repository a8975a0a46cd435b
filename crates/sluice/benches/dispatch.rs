//! Round-trip dispatch cost of a trivial task, sluice beside tokio and rayon.
//!
//! One criterion group, `dispatch`, so every subject lands in the same
//! report, in two shapes:
//!
//! - `1_in_flight/<subject>`: submit one task, wait for it, repeat. The time
//!   per iteration is one round trip (submit, wake or find a worker, run,
//!   complete, wake the waiter).
//! - `1000_in_flight/<subject>`: submit 1000 tasks, then wait for all of
//!   them. Throughput is `Elements(1000)`, so criterion prints tasks/s.
//! - `1_in_flight_4_submitters/<subject>` and
//!   `1000_in_flight_4_submitters/<subject>`: the same two shapes from 4
//!   threads at once (each with 1, or 250, in flight: 4, or 1000, in all),
//!   started once per sample; the time is that of every thread's
//!   iterations (`iter_custom`), the throughput every thread's tasks. The
//!   sluice subjects and tokio.
//!
//! Subjects:
//!
//! - `sluice_lanes`: `Pool::builder().build()`, `Lane::Cpu` (as many threads
//!   as usable cores), `Task::wait`.
//! - `sluice_lanes_fixed`: the same with blocking compensation off
//!   (`Builder::adaptive(Lane::Cpu, false)`): what compensation costs a
//!   task that never blocks.
//! - `sluice_lanes_batch` (1000 in flight): the lanes pool, the 1000 tasks
//!   handed over in one `Pool::spawn_batch` (one notification per part of 32).
//! - `sluice_lanes_detached` (1000 in flight): the lanes pool, each task
//!   handed over with no handle (`Permit::spawn_detached`) and posting its
//!   value to a `Mailbox` that unparks the bench thread once per batch of
//!   completions; the bench thread drains them (the npm addon's way).
//! - `sluice_lanes_detached_batch` (1000 in flight): the same, the tasks
//!   gathered in a `Pool::detached_batch` and submitted every 32 and after
//!   the last (one reservation and one notification per part, as the npm
//!   addon hands over a loop turn's calls).
//! - `sluice_libuv`: `Policy::Libuv { threads: Some(4) }`, `Lane::Cpu`,
//!   `Task::wait`.
//! - `tokio_spawn_blocking`: a multi-thread runtime (default worker count);
//!   `Runtime::spawn_blocking`, then `Runtime::block_on` on the `JoinHandle`
//!   from the bench thread (which is outside the runtime).
//! - `rayon`: a `rayon::ThreadPool` with its default size (the cores);
//!   `ThreadPool::spawn` sends the result on a `std::sync::mpsc` channel, one
//!   channel per task in both shapes, so the result is delivered per task the
//!   way a handle delivers it.
//!
//! Run with `cargo bench -p sluice-pool --bench dispatch`.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, Criterion, Throughput, criterion_group, criterion_main};
use sluice::mailbox::Mailbox;
use sluice::{Lane, Policy, Pool};
use std::hint::black_box;
use std::sync::{Arc, mpsc};
use std::time::Duration;

/// Tasks per iteration in the `1000_in_flight` shape.
const BATCH: usize = 1000;

/// Submitting threads in the `*_4_submitters` shapes.
const SUBMITTERS: usize = 4;

/// `iters` iterations of `each` on every one of `SUBMITTERS` threads at
/// once; the wall time from the first start to the last end.
fn submitters(iters: u64, each: &(dyn Fn() -> u64 + Sync)) -> Duration {
    let start = std::sync::Barrier::new(SUBMITTERS + 1);
    std::thread::scope(|s| {
        for _ in 0..SUBMITTERS {
            s.spawn(|| {
                start.wait();
                for _ in 0..iters {
                    black_box(each());
                }
            });
        }
        start.wait();
        let t0 = std::time::Instant::now();
        // The scope joins every submitter before it returns.
        t0
    })
    .elapsed()
}

/// `n` tasks on `pool`'s Cpu lane, then every result.
fn sluice_n(pool: &Pool, n: usize) -> u64 {
    let handles: Vec<_> = (0..n).map(|_| pool.spawn(Lane::Cpu, work)).collect();
    handles
        .into_iter()
        .map(|t| t.wait().expect("task failed"))
        .sum()
}

/// `n` tasks on tokio's blocking pool, then every result.
fn tokio_n(rt: &tokio::runtime::Runtime, n: usize) -> u64 {
    let handles: Vec<_> = (0..n).map(|_| rt.spawn_blocking(work)).collect();
    rt.block_on(async move {
        let mut sum = 0;
        for h in handles {
            sum += h.await.expect("task failed");
        }
        sum
    })
}

/// The trivial task every subject runs.
fn work() -> u64 {
    black_box(42)
}

fn sluice_one(pool: &Pool) -> u64 {
    pool.spawn(Lane::Cpu, work).wait().expect("task failed")
}

fn sluice_batch(pool: &Pool, handles: &mut Vec<sluice::Task<u64>>) -> u64 {
    handles.extend((0..BATCH).map(|_| pool.spawn(Lane::Cpu, work)));
    handles
        .drain(..)
        .map(|t| t.wait().expect("task failed"))
        .sum()
}

/// `BATCH` tasks handed over with no handle (`Permit::spawn_detached`),
/// each posting its value to `mailbox`, whose bell unparks this thread;
/// then every value drained, one drain per ring: completions gathered and
/// delivered in batches, the way the npm addon hands its outcomes back.
fn sluice_detached(pool: &Pool, mailbox: &Arc<Mailbox<u64>>) -> u64 {
    for _ in 0..BATCH {
        let mailbox = Arc::clone(mailbox);
        pool.try_reserve(Lane::Cpu)
            .expect("the Cpu lane is unbounded")
            .spawn_detached(move || {
                mailbox.post(work());
            });
    }
    drain_batch(mailbox)
}

/// Every one of `BATCH` values posted to `mailbox`, one drain per ring,
/// parking the bench thread (the mailbox's bell unparks it) in between.
fn drain_batch(mailbox: &Mailbox<u64>) -> u64 {
    let (mut got, mut sum) = (0, 0);
    while got < BATCH {
        got += mailbox.drain(|v| sum += v);
        if got < BATCH {
            // A post that finds the mailbox unarmed unparks: a token left
            // before this park makes it return at once (no lost wake-up).
            std::thread::park();
        }
    }
    sum
}

/// [`sluice_detached`] with the tasks gathered in a `DetachedBatch`,
/// submitted every 32 tasks and after the last.
fn sluice_detached_batch(pool: &Pool, mailbox: &Arc<Mailbox<u64>>) -> u64 {
    let mut batch = pool.detached_batch(Lane::Cpu);
    for _ in 0..BATCH {
        let mailbox = Arc::clone(mailbox);
        batch.spawn(move || {
            mailbox.post(work());
        });
        if batch.len() == 32 {
            batch.submit();
        }
    }
    batch.submit();
    drain_batch(mailbox)
}

fn tokio_one(rt: &tokio::runtime::Runtime) -> u64 {
    rt.block_on(rt.spawn_blocking(work)).expect("task failed")
}

fn rayon_one(pool: &rayon::ThreadPool) -> u64 {
    let (tx, rx) = mpsc::sync_channel(1);
    pool.spawn(move || {
        let _ = tx.send(work());
    });
    rx.recv().expect("task failed")
}

fn rayon_batch(pool: &rayon::ThreadPool) -> u64 {
    let receivers: Vec<_> = (0..BATCH)
        .map(|_| {
            let (tx, rx) = mpsc::sync_channel(1);
            pool.spawn(move || {
                let _ = tx.send(work());
            });
            rx
        })
        .collect();
    receivers
        .into_iter()
        .map(|rx| rx.recv().expect("task failed"))
        .sum()
}

fn configure(group: &mut BenchmarkGroup<'_, WallTime>) {
    group
        .sample_size(25)
        .warm_up_time(Duration::from_secs(1))
        .measurement_time(Duration::from_secs(3));
}

fn dispatch(c: &mut Criterion) {
    let lanes = Pool::builder().build().expect("lanes pool");
    let fixed = Pool::builder()
        .adaptive(Lane::Cpu, false)
        .build()
        .expect("fixed lanes pool");
    let libuv = Pool::builder()
        .policy(Policy::Libuv { threads: Some(4) })
        .build()
        .expect("libuv pool");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .build()
        .expect("tokio runtime");
    let rayon = rayon::ThreadPoolBuilder::new().build().expect("rayon pool");

    let mut group = c.benchmark_group("dispatch");
    configure(&mut group);

    group.throughput(Throughput::Elements(1));
    group.bench_function("1_in_flight/sluice_lanes", |b| {
        b.iter(|| sluice_one(&lanes))
    });
    group.bench_function("1_in_flight/sluice_lanes_fixed", |b| {
        b.iter(|| sluice_one(&fixed))
    });
    group.bench_function("1_in_flight/sluice_libuv", |b| {
        b.iter(|| sluice_one(&libuv))
    });
    group.bench_function("1_in_flight/tokio_spawn_blocking", |b| {
        b.iter(|| tokio_one(&rt))
    });
    group.bench_function("1_in_flight/rayon", |b| b.iter(|| rayon_one(&rayon)));

    group.throughput(Throughput::Elements(BATCH as u64));
    let mut handles = Vec::with_capacity(BATCH);
    group.bench_function("1000_in_flight/sluice_lanes", |b| {
        b.iter(|| sluice_batch(&lanes, &mut handles))
    });
    group.bench_function("1000_in_flight/sluice_lanes_batch", |b| {
        b.iter(|| {
            lanes
                .spawn_batch(Lane::Cpu, (0..BATCH).map(|_| work))
                .into_iter()
                .map(|t| t.wait().expect("task failed"))
                .sum::<u64>()
        })
    });
    let bench_thread = std::thread::current();
    let mailbox = Arc::new(Mailbox::new(move || bench_thread.unpark()));
    group.bench_function("1000_in_flight/sluice_lanes_detached", |b| {
        b.iter(|| sluice_detached(&lanes, &mailbox))
    });
    group.bench_function("1000_in_flight/sluice_lanes_detached_batch", |b| {
        b.iter(|| sluice_detached_batch(&lanes, &mailbox))
    });
    group.bench_function("1000_in_flight/sluice_lanes_fixed", |b| {
        b.iter(|| sluice_batch(&fixed, &mut handles))
    });
    group.bench_function("1000_in_flight/sluice_libuv", |b| {
        b.iter(|| sluice_batch(&libuv, &mut handles))
    });
    group.bench_function("1000_in_flight/tokio_spawn_blocking", |b| {
        b.iter(|| tokio_n(&rt, BATCH))
    });
    group.bench_function("1000_in_flight/rayon", |b| b.iter(|| rayon_batch(&rayon)));

    let per = BATCH / SUBMITTERS;
    for (shape, n) in [
        ("1_in_flight_4_submitters", 1),
        ("1000_in_flight_4_submitters", per),
    ] {
        group.throughput(Throughput::Elements((SUBMITTERS * n) as u64));
        for (name, pool) in [("sluice_lanes", &lanes), ("sluice_libuv", &libuv)] {
            group.bench_function(format!("{shape}/{name}"), |b| {
                b.iter_custom(|iters| submitters(iters, &|| sluice_n(pool, n)))
            });
        }
        group.bench_function(format!("{shape}/tokio_spawn_blocking"), |b| {
            b.iter_custom(|iters| submitters(iters, &|| tokio_n(&rt, n)))
        });
    }

    group.finish();
}

criterion_group!(benches, dispatch);
criterion_main!(benches);
