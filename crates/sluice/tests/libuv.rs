//! `Policy::Libuv` reproduces libuv 1.46's pool: one FIFO, the slow-I/O
//! threshold, cancel semantics.

mod common;

use common::{Gate, libuv as compat};
use sluice::{Lane, Policy, Pool};
use std::sync::{Arc, Mutex};

#[test]
fn cpu_and_fastio_share_one_fifo() {
    let pool = compat(1);
    let (gate, blocker) = Gate::held(&pool, Lane::Cpu, 1, 1);
    let order = Arc::new(Mutex::new(Vec::new()));
    let lanes = [
        Lane::FastIo,
        Lane::Cpu,
        Lane::FastIo,
        Lane::Cpu,
        Lane::Cpu,
        Lane::FastIo,
    ];
    let tasks: Vec<_> = lanes
        .iter()
        .enumerate()
        .map(|(i, &lane)| {
            let o = order.clone();
            pool.spawn(lane, move || o.lock().unwrap().push(i))
        })
        .collect();
    let snap = pool.metrics();
    assert_eq!(snap.lane(Lane::FastIo).queue_depth, 3);
    assert_eq!(snap.lane(Lane::Cpu).queue_depth, 3);
    gate.release(blocker);
    tasks.into_iter().for_each(|t| t.wait().unwrap());
    assert_eq!(
        *order.lock().unwrap(),
        vec![0, 1, 2, 3, 4, 5],
        "strict FIFO across Cpu and FastIo"
    );
}

#[test]
fn slow_io_uses_at_most_half_the_pool_rounded_up() {
    for (threads, threshold) in [(1, 1), (2, 1), (3, 2), (4, 2), (6, 3), (8, 4)] {
        let pool = compat(threads);
        let (gate, slow) = Gate::held(&pool, Lane::SlowIo, 12, threshold);
        // Other work passes the slow queue while any thread is free.
        if threads > threshold {
            assert_eq!(pool.spawn(Lane::FastIo, || 7).wait(), Ok(7));
            assert_eq!(pool.spawn(Lane::Cpu, || 8).wait(), Ok(8));
        }
        let snap = pool.metrics();
        assert_eq!(snap.lane(Lane::SlowIo).limit, threshold as u64);
        assert_eq!(snap.lane(Lane::SlowIo).in_flight, threshold as u64);
        assert_eq!(snap.lane(Lane::SlowIo).queue_depth, (12 - threshold) as u64);
        gate.release(slow);
        assert_eq!(gate.max_inside(), threshold, "pool of {threads}");
    }
}

#[test]
fn cpu_work_can_starve_slow_io_but_not_the_reverse() {
    // Seed 001's asymmetry, counted: 4 threads, all held by Cpu work.
    let pool = compat(4);
    let (gate, cpu) = Gate::held(&pool, Lane::Cpu, 8, 4);
    let slow = pool.spawn(Lane::SlowIo, || ());
    let snap = pool.metrics();
    assert_eq!(
        snap.lane(Lane::SlowIo).queue_depth,
        1,
        "slow work waits behind Cpu work"
    );
    assert_eq!(snap.lane(Lane::Cpu).queue_depth, 4);
    gate.release(cpu);
    slow.wait().unwrap();
}

#[test]
fn cancelling_the_last_slow_request_leaves_the_sentinel_harmless() {
    let pool = compat(1);
    let (gate, blocker) = Gate::held(&pool, Lane::Cpu, 1, 1);
    let slow = pool.spawn(Lane::SlowIo, || 1);
    let after = pool.spawn(Lane::FastIo, || 2);
    assert!(slow.cancel());
    assert_eq!(pool.metrics().lane(Lane::SlowIo).queue_depth, 0);
    gate.release(blocker);
    assert_eq!(after.wait(), Ok(2));
    assert_eq!(slow.wait(), Err(sluice::TaskError::Cancelled));
    // The pool still runs slow work afterwards.
    assert_eq!(pool.spawn(Lane::SlowIo, || 3).wait(), Ok(3));
}

#[test]
fn compat_cannot_be_resized_and_refuses_lane_settings() {
    let pool = compat(2);
    let err = pool.resize(Lane::Cpu, 4).unwrap_err();
    assert_eq!(
        err.to_string(),
        "resize(Lane::Cpu) is not supported by the libuv policy: libuv reads its size once, at the first submission"
    );
    let err = Pool::builder()
        .policy(Policy::Libuv { threads: None })
        .queue_bound(Lane::Cpu, 5)
        .build()
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "queue_bound(Lane::Cpu) is not supported by the libuv policy: libuv's queue is unbounded"
    );
}

#[test]
fn compat_starts_every_thread_at_the_first_submission() {
    let pool = compat(5);
    assert_eq!(pool.metrics().threads_alive, 0);
    assert_eq!(pool.limit(Lane::Cpu), 0);
    pool.spawn(Lane::FastIo, || ()).wait().unwrap();
    assert_eq!(pool.metrics().threads_alive, 5);
    assert_eq!(pool.limit(Lane::Cpu), 5);
}
