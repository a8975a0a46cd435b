//! The lanes policy: budgets, isolation, resize, retirement.

mod common;

use common::{Gate, assert_lane, wait_for};
use sluice::Lane;
use std::time::Duration;

#[test]
fn a_lane_never_runs_more_than_its_budget() {
    let pool = common::fixed().threads(Lane::FastIo, 3).build().unwrap();
    let (gate, tasks) = Gate::held(&pool, Lane::FastIo, 20, 3);
    assert_lane!(pool, Lane::FastIo, in_flight: 3, queue_depth: 17, threads_alive: Some(3));
    gate.release(tasks);
    assert_eq!(gate.max_inside(), 3);
}

#[test]
fn a_cpu_flood_does_not_delay_a_file_read() {
    let cores = std::thread::available_parallelism().unwrap().get();
    let pool = common::fixed().build().unwrap();
    let (gate, flood) = Gate::held(&pool, Lane::Cpu, 64, cores);
    // Every Cpu thread is held and 64 - cores tasks are queued behind them,
    // yet the read runs: FastIo has threads of its own.
    let read = pool.spawn(Lane::FastIo, || {
        std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml")).map(|b| b.len())
    });
    assert!(read.wait().unwrap().unwrap() > 0);
    let snap = pool.metrics();
    assert_eq!(snap.lane(Lane::Cpu).queue_depth, (64 - cores) as u64);
    assert_eq!(snap.lane(Lane::Cpu).in_flight, cores as u64);
    assert_eq!(snap.lane(Lane::FastIo).completed_total, 1);
    assert!(snap.lane(Lane::Cpu).saturated_seconds_total > 0.0);
    gate.release(flood);
}

#[test]
fn every_lane_is_isolated_from_every_other() {
    for flooded in Lane::ALL {
        // Fixed budgets: the flood's held threads must not be compensated.
        let pool = common::threads(common::fixed(), [1, 1, 1]).build().unwrap();
        let (gate, flood) = Gate::held(&pool, flooded, 16, 1);
        for other in Lane::ALL.into_iter().filter(|&l| l != flooded) {
            assert_eq!(pool.spawn(other, move || other).wait().unwrap(), other);
        }
        assert_eq!(pool.metrics().lane(flooded).queue_depth, 15);
        gate.release(flood);
    }
}

#[test]
fn growing_a_lane_starts_queued_work_at_once() {
    let pool = common::fixed().threads(Lane::SlowIo, 1).build().unwrap();
    let (gate, tasks) = Gate::held(&pool, Lane::SlowIo, 6, 1);
    assert_eq!(pool.metrics().lane(Lane::SlowIo).queue_depth, 5);
    pool.resize(Lane::SlowIo, 6).unwrap();
    gate.wait_inside(6); // would hang (and fail) if resize did not apply to queued work
    assert_eq!(pool.metrics().lane(Lane::SlowIo).queue_depth, 0);
    gate.release(tasks);
    assert_eq!(gate.max_inside(), 6);
}

#[test]
fn shrinking_a_lane_lets_running_tasks_finish_then_retires_threads() {
    let pool = common::fixed().threads(Lane::FastIo, 4).build().unwrap();
    let (gate, tasks) = Gate::held(&pool, Lane::FastIo, 12, 4);
    pool.resize(Lane::FastIo, 1).unwrap();
    assert_eq!(gate.inside(), 4, "running tasks are not interrupted");
    gate.release(tasks);
    wait_for(
        || pool.metrics().lane(Lane::FastIo).threads_alive == Some(1),
        "FastIo to shrink to one thread",
    );
    assert_eq!(pool.metrics().lane(Lane::FastIo).completed_total, 12);
}

#[test]
fn idle_threads_retire_after_keep_alive_and_come_back_on_demand() {
    let pool = common::fixed()
        .keep_alive(Lane::SlowIo, Duration::from_millis(20))
        .build()
        .unwrap();
    let (gate, tasks) = Gate::held(&pool, Lane::SlowIo, 8, 8);
    // Eight busy threads and no spare: a submitter and a worker handing on
    // the search never both start one for the same task (the second sees
    // the first one's searcher, or the task claimed).
    assert_lane!(pool, Lane::SlowIo, threads_alive: Some(8), threads_peak: Some(8));
    gate.release(tasks);
    wait_for(
        || pool.metrics().lane(Lane::SlowIo).threads_alive == Some(0),
        "idle SlowIo threads to retire",
    );
    assert_eq!(pool.spawn(Lane::SlowIo, || 5).wait().unwrap(), 5);
    assert_lane!(pool, Lane::SlowIo, completed_total: 9, threads_alive: Some(1));
}

#[test]
fn a_full_lane_blocks_spawn_until_there_is_room() {
    let pool = common::one_cpu_bounded(2);
    let (gate, first) = Gate::held(&pool, Lane::Cpu, 1, 1);
    let queued: Vec<_> = (0..2).map(|i| pool.spawn(Lane::Cpu, move || i)).collect();
    // The queue is at its bound: a third spawn waits in another thread.
    let p = pool.clone();
    let waiter = std::thread::spawn(move || p.spawn(Lane::Cpu, || 99).wait());
    wait_for(
        || pool.metrics().lane(Lane::Cpu).queue_depth == 2,
        "queue full",
    );
    assert!(pool.try_spawn(Lane::Cpu, || 0).is_err());
    assert_eq!(pool.metrics().lane(Lane::Cpu).submitted_total, 3);
    gate.release(first);
    assert_eq!(waiter.join().unwrap(), Ok(99));
    assert_eq!(
        queued.into_iter().map(|t| t.wait().unwrap()).sum::<i32>(),
        1
    );
    assert_lane!(pool, Lane::Cpu, submitted_total: 4, rejected_total: 1, completed_total: 4);
}

#[test]
fn queue_timeout_applies_to_every_task_of_the_lane() {
    let pool = common::fixed()
        .threads(Lane::FastIo, 1)
        .queue_timeout(Lane::FastIo, Duration::from_millis(10))
        .build()
        .unwrap();
    let gate = Gate::new();
    let g = gate.clone();
    // The blocker's own deadline is far: on a loaded machine its worker may
    // take longer than the lane's 10 ms to start.
    let far = std::time::Instant::now() + Duration::from_secs(3600);
    let blocker = pool.spawn_before(Lane::FastIo, far, move || g.pass());
    gate.wait_inside(1);
    let late: Vec<_> = (0..3).map(|_| pool.spawn(Lane::FastIo, || ())).collect();
    for t in late {
        assert_eq!(t.wait(), Err(sluice::TaskError::DeadlineExceeded));
    }
    gate.release(vec![blocker]);
    assert_lane!(pool, Lane::FastIo, expired_total: 3, queue_depth: 0, completed_total: 1);
}

/// `spawn_first`: with the lane's one thread held, tasks queued with it run
/// before those queued without it, each part in the order it came; the
/// libuv policy keeps libuv's one FIFO.
#[test]
fn spawn_first_runs_ahead_of_the_queued_rest_in_order() {
    use std::sync::{Arc, Mutex};
    for libuv in [false, true] {
        let pool = if libuv {
            common::libuv(1)
        } else {
            common::fixed().threads(Lane::Cpu, 1).build().unwrap()
        };
        let (gate, held) = Gate::held(&pool, Lane::Cpu, 1, 1);
        let order = Arc::new(Mutex::new(Vec::new()));
        let mut tasks = Vec::new();
        for (i, first) in [false, false, true, false, true, true]
            .into_iter()
            .enumerate()
        {
            let log = Arc::clone(&order);
            let permit = pool.try_reserve(Lane::Cpu).unwrap();
            let f = move || log.lock().unwrap().push(i);
            tasks.push(if first {
                permit.spawn_first(f)
            } else {
                permit.spawn(f)
            });
        }
        gate.release(held);
        for t in tasks {
            t.wait().unwrap();
        }
        let want: Vec<usize> = if libuv {
            (0..6).collect()
        } else {
            vec![2, 4, 5, 0, 1, 3]
        };
        assert_eq!(*order.lock().unwrap(), want, "libuv policy: {libuv}");
        let snap = pool.metrics();
        assert_eq!(snap.lane(Lane::Cpu).completed_total, 7);
        assert_eq!(snap.lane(Lane::Cpu).queue_depth, 0);
    }
}
