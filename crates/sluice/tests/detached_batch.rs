//! `Pool::detached_batch`: tasks gathered on one thread run only once the
//! batch is submitted (or dropped), each exactly once, in the order they
//! were added on a one-thread lane, and are counted like any task, on both
//! policies; a bounded lane smaller than the batch still takes it all; a
//! task whose queue timeout passes while it waits in the batch expires
//! unrun; after shutdown the tasks are dropped unrun; many threads'
//! batches at once lose nothing.

mod common;

use common::{Gate, Owned, assert_lane, both_policies as both, wait_for};
use sluice::{DetachedBatch, Lane, Pool};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::thread;
use std::time::Duration;

/// A batch of `n` tasks for `lane` that each count themselves in the
/// returned counter when they run.
fn counting_batch(pool: &Pool, lane: Lane, n: usize) -> (DetachedBatch, Arc<AtomicUsize>) {
    let ran = Arc::new(AtomicUsize::new(0));
    let mut batch = pool.detached_batch(lane);
    for _ in 0..n {
        let ran = Arc::clone(&ran);
        batch.spawn(move || {
            ran.fetch_add(1, Ordering::SeqCst);
        });
    }
    (batch, ran)
}

#[test]
fn nothing_runs_until_the_batch_is_submitted_then_each_once_in_order() {
    for pool in both(1) {
        let (tx, rx) = mpsc::channel();
        let mut batch = pool.detached_batch(Lane::FastIo);
        for i in 0..100u32 {
            let tx = tx.clone();
            batch.spawn(move || tx.send(i).unwrap());
        }
        assert_eq!(batch.len(), 100);
        assert_eq!(batch.lane(), Lane::FastIo);
        assert_eq!(
            rx.recv_timeout(Duration::from_millis(50)),
            Err(mpsc::RecvTimeoutError::Timeout)
        );
        assert_lane!(pool, Lane::FastIo, submitted_total: 0);
        batch.submit();
        assert!(batch.is_empty());
        drop(tx);
        // One thread on the lane: the queue's order is the run order.
        let got: Vec<u32> = rx.iter().take(100).collect();
        assert_eq!(got, (0..100).collect::<Vec<_>>());
        assert_lane!(pool, Lane::FastIo, submitted_total: 100);
        wait_for(
            || pool.metrics().lane(Lane::FastIo).completed_total == 100,
            "every task counted complete",
        );
        // Used again after a submit; an empty submit is nothing.
        batch.submit();
        let (tx, rx) = mpsc::channel();
        batch.spawn(move || tx.send(7).unwrap());
        drop(batch); // dropping submits
        assert_eq!(rx.recv_timeout(Duration::from_secs(10)), Ok(7));
        assert_lane!(pool, Lane::FastIo, submitted_total: 101);
    }
}

#[test]
fn a_bounded_lane_smaller_than_the_batch_takes_it_all() {
    let pool = common::one_cpu_bounded(2);
    let (mut batch, ran) = counting_batch(&pool, Lane::Cpu, 50);
    // Two places at a time: the submit waits for room, as spawn_batch does.
    batch.submit();
    wait_for(|| ran.load(Ordering::SeqCst) == 50, "every task ran");
    assert_lane!(pool, Lane::Cpu, submitted_total: 50, rejected_total: 0);
}

#[test]
fn a_queue_timeout_that_passes_in_the_batch_expires_the_task_unrun() {
    let pool = Pool::builder()
        .threads(Lane::FastIo, 1)
        .queue_timeout(Lane::FastIo, Duration::from_millis(20))
        .build()
        .unwrap();
    let dropped = Arc::new(AtomicUsize::new(0));
    let ran = Arc::new(AtomicUsize::new(0));
    let mut batch = pool.detached_batch(Lane::FastIo);
    let (owned, r) = (Owned(Arc::clone(&dropped)), Arc::clone(&ran));
    batch.spawn(move || {
        let _owned = owned;
        r.fetch_add(1, Ordering::SeqCst);
    });
    // The task's queue wait began when it was added.
    thread::sleep(Duration::from_millis(60));
    batch.submit();
    wait_for(
        || pool.metrics().lane(Lane::FastIo).expired_total == 1,
        "the task expired",
    );
    wait_for(
        || dropped.load(Ordering::SeqCst) == 1,
        "its closure dropped",
    );
    assert_eq!(ran.load(Ordering::SeqCst), 0);
    assert_lane!(pool, Lane::FastIo, submitted_total: 1, expired_total: 1, queue_depth: 0);
}

#[test]
fn after_shutdown_the_tasks_are_dropped_unrun() {
    let pool = Pool::builder().build().unwrap();
    let mut batch = pool.detached_batch(Lane::Cpu);
    let dropped = Arc::new(AtomicUsize::new(0));
    let ran = Arc::new(AtomicUsize::new(0));
    for _ in 0..3 {
        let (owned, ran) = (Owned(Arc::clone(&dropped)), Arc::clone(&ran));
        batch.spawn(move || {
            let _owned = owned;
            ran.fetch_add(1, Ordering::SeqCst);
        });
    }
    assert!(pool.shutdown(Duration::from_secs(5)).drained);
    batch.submit();
    assert_eq!(dropped.load(Ordering::SeqCst), 3);
    assert_eq!(ran.load(Ordering::SeqCst), 0);
    assert_lane!(pool, Lane::Cpu, submitted_total: 0, queue_depth: 0);
}

#[test]
fn a_batch_submitted_while_the_workers_are_busy_waits_its_turn_and_runs() {
    let pool = Pool::builder()
        .threads(Lane::FastIo, 2)
        .adaptive(Lane::FastIo, false)
        .build()
        .unwrap();
    let gate = Gate::new();
    let held = gate.hold(&pool, Lane::FastIo, 2);
    gate.wait_inside(2);
    let (mut batch, ran) = counting_batch(&pool, Lane::FastIo, 10);
    batch.submit();
    assert_lane!(pool, Lane::FastIo, queue_depth: 10);
    gate.release(held);
    wait_for(
        || ran.load(Ordering::SeqCst) == 10,
        "the batch ran after the held tasks",
    );
}

#[test]
fn many_threads_batches_at_once_each_task_runs_once() {
    const THREADS: usize = 4;
    const BATCHES: usize = 200;
    const EACH: usize = 25;
    for pool in both(2) {
        let pool = Arc::new(pool);
        let (tx, rx) = mpsc::channel();
        let submitters: Vec<_> = (0..THREADS)
            .map(|t| {
                let (pool, tx) = (Arc::clone(&pool), tx.clone());
                thread::spawn(move || {
                    let mut batch = pool.detached_batch(Lane::Cpu);
                    for b in 0..BATCHES {
                        for i in 0..EACH {
                            let tx = tx.clone();
                            let n = (t * BATCHES + b) * EACH + i;
                            batch.spawn(move || tx.send(n).unwrap());
                        }
                        batch.submit();
                    }
                })
            })
            .collect();
        for s in submitters {
            s.join().unwrap();
        }
        drop(tx);
        let mut seen: Vec<usize> = rx.iter().collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..THREADS * BATCHES * EACH).collect::<Vec<_>>());
        let n = (THREADS * BATCHES * EACH) as u64;
        wait_for(
            || pool.metrics().lane(Lane::Cpu).completed_total == n,
            "every task counted complete",
        );
        assert_lane!(pool, Lane::Cpu, submitted_total: n, started_total: n, queue_depth: 0);
    }
}
