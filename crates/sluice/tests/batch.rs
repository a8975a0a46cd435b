//! `Pool::spawn_batch`: every task of a batch runs once and its handle
//! comes back in order, on every lane and both policies; a bounded lane
//! smaller than the batch still takes it all (the batch queues what it
//! holds before it waits, and counts no rejection); after shutdown every
//! task resolves to `Shutdown`; a long batch is handed on in parts, so its
//! first task runs before its last is made; a batch whose iterator panics
//! queues what it made and gives back the places it reserved ahead.

mod common;

use common::assert_lane;
use sluice::{Lane, Policy, Pool, TaskError};
use std::sync::mpsc;
use std::time::Duration;

fn squares(pool: &Pool, lane: Lane, n: u64) -> Vec<Result<u64, TaskError>> {
    pool.spawn_batch(lane, (0..n).map(|i| move || i * i))
        .into_iter()
        .map(|t| t.wait())
        .collect()
}

#[test]
fn every_task_of_a_batch_runs_once_in_order() {
    for policy in [Policy::Lanes, Policy::Libuv { threads: Some(2) }] {
        let pool = Pool::builder().policy(policy.clone()).build().unwrap();
        for lane in Lane::ALL {
            let got = squares(&pool, lane, 100);
            let want: Vec<_> = (0..100u64).map(|i| Ok(i * i)).collect();
            assert_eq!(got, want, "{policy:?} {lane}");
            assert_lane!(pool, lane, submitted_total: 100, completed_total: 100; "{policy:?} {lane}");
        }
    }
}

#[test]
fn an_empty_batch_is_nothing() {
    let pool = Pool::builder().build().unwrap();
    let none: Vec<sluice::Task<u8>> = pool.spawn_batch(Lane::Cpu, Vec::<fn() -> u8>::new());
    assert!(none.is_empty());
    assert_eq!(pool.metrics().lane(Lane::Cpu).submitted_total, 0);
}

#[test]
fn a_bounded_lane_smaller_than_the_batch_takes_it_all() {
    let pool = common::one_cpu_bounded(2);
    let got = squares(&pool, Lane::Cpu, 50);
    assert_eq!(got, (0..50u64).map(|i| Ok(i * i)).collect::<Vec<_>>());
    assert_lane!(pool, Lane::Cpu, submitted_total: 50, completed_total: 50, rejected_total: 0);
}

#[test]
fn after_shutdown_a_batch_resolves_to_shutdown() {
    let pool = Pool::builder().build().unwrap();
    assert!(pool.shutdown(Duration::from_secs(5)).drained);
    let got = squares(&pool, Lane::FastIo, 3);
    assert_eq!(got, vec![Err(TaskError::Shutdown); 3]);
    assert_eq!(pool.metrics().lane(Lane::FastIo).submitted_total, 0);
}

#[test]
fn a_long_batch_runs_its_first_task_before_its_last_is_made() {
    type Work = Box<dyn FnOnce() -> u64 + Send>;
    for policy in [Policy::Lanes, Policy::Libuv { threads: Some(2) }] {
        let pool = Pool::builder().policy(policy.clone()).build().unwrap();
        let (ran_tx, ran) = mpsc::channel();
        let mut ran_tx = Some(ran_tx);
        let mut first_ran_early = None;
        let works = (0..100u64).map(|i| -> Work {
            if i == 0 {
                let tx = ran_tx.take().expect("made once");
                return Box::new(move || {
                    tx.send(()).expect("the test waits for it");
                    i
                });
            }
            if i == 99 {
                // Made only once the first has run (a batch handed over
                // whole would wait here for ever: the limit fails it).
                first_ran_early = Some(ran.recv_timeout(Duration::from_secs(60)).is_ok());
            }
            Box::new(move || i)
        });
        let tasks = pool.spawn_batch(Lane::Cpu, works);
        let sum: u64 = tasks.into_iter().map(|t| t.wait().unwrap()).sum();
        assert_eq!(first_ran_early, Some(true), "{policy:?}");
        assert_eq!(sum, (0..100).sum::<u64>(), "{policy:?}");
        assert_lane!(pool, Lane::Cpu, submitted_total: 100, completed_total: 100; "{policy:?}");
    }
}

#[test]
fn a_batch_whose_iterator_panics_runs_what_it_made_and_strands_no_place() {
    // 40 tasks made, then the iterator panics: the first part (32) is
    // queued, the second holds 8 made tasks and 24 places reserved ahead
    // for the 92 the iterator's size promised. Unbounded, bounded below a
    // part, and libuv's one queue.
    let pools = [
        ("lanes", Pool::builder().build().unwrap()),
        ("bounded", common::one_cpu_bounded(4)),
        (
            "libuv",
            Pool::builder()
                .policy(Policy::Libuv { threads: Some(2) })
                .build()
                .unwrap(),
        ),
    ];
    for (name, pool) in pools {
        let (done_tx, done) = mpsc::channel();
        let made = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            pool.spawn_batch(
                Lane::Cpu,
                (0..100u64).map(|i| {
                    assert!(i < 40, "the iterator fails at {i}");
                    let tx = done_tx.clone();
                    move || tx.send(i).expect("the test waits")
                }),
            )
        }));
        assert!(made.is_err(), "{name}: the panic reaches the caller");
        drop(done_tx);
        // Every made task runs (its handle was dropped, not its work).
        let mut ran: Vec<u64> = done.iter().collect();
        ran.sort_unstable();
        assert_eq!(ran, (0..40).collect::<Vec<_>>(), "{name}");
        let quiet = std::time::Instant::now() + Duration::from_secs(30);
        while pool.metrics().lane(Lane::Cpu).completed_total < 40
            && std::time::Instant::now() < quiet
        {
            std::thread::sleep(Duration::from_millis(5));
        }
        assert_lane!(pool, Lane::Cpu, submitted_total: 40, completed_total: 40, queue_depth: 0, rejected_total: 0; "{name}");
        common::assert_balanced(pool.metrics().lane(Lane::Cpu));
        // The lane still takes work after it.
        assert_eq!(
            squares(&pool, Lane::Cpu, 3),
            vec![Ok(0), Ok(1), Ok(4)],
            "{name}"
        );
    }
}
