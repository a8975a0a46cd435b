//! The lanes policy: budgets, isolation, resize, retirement.

mod common;

use common::{Gate, wait_for};
use sluice::Lane;
use std::time::Duration;

#[test]
fn a_lane_never_runs_more_than_its_budget() {
    let pool = common::fixed().threads(Lane::FastIo, 3).build().unwrap();
    let gate = Gate::new();
    let tasks: Vec<_> = (0..20)
        .map(|_| {
            let g = gate.clone();
            pool.spawn(Lane::FastIo, move || g.pass())
        })
        .collect();
    gate.wait_inside(3);
    let snap = pool.metrics();
    let l = snap.lane(Lane::FastIo);
    assert_eq!(
        (l.in_flight, l.queue_depth, l.threads_alive),
        (3, 17, Some(3))
    );
    gate.open();
    for t in tasks {
        t.wait().unwrap();
    }
    assert_eq!(gate.max_inside(), 3);
}

#[test]
fn a_cpu_flood_does_not_delay_a_file_read() {
    let cores = std::thread::available_parallelism().unwrap().get();
    let pool = common::fixed().build().unwrap();
    let gate = Gate::new();
    let flood: Vec<_> = (0..64)
        .map(|_| {
            let g = gate.clone();
            pool.spawn(Lane::Cpu, move || g.pass())
        })
        .collect();
    gate.wait_inside(cores);
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
    gate.open();
    for t in flood {
        t.wait().unwrap();
    }
}

#[test]
fn every_lane_is_isolated_from_every_other() {
    for flooded in Lane::ALL {
        // Fixed budgets: the flood's held threads must not be compensated.
        let pool = common::fixed()
            .threads(Lane::Cpu, 1)
            .threads(Lane::FastIo, 1)
            .threads(Lane::SlowIo, 1)
            .build()
            .unwrap();
        let gate = Gate::new();
        let flood: Vec<_> = (0..16)
            .map(|_| {
                let g = gate.clone();
                pool.spawn(flooded, move || g.pass())
            })
            .collect();
        gate.wait_inside(1);
        for other in Lane::ALL.into_iter().filter(|&l| l != flooded) {
            assert_eq!(pool.spawn(other, move || other).wait().unwrap(), other);
        }
        assert_eq!(pool.metrics().lane(flooded).queue_depth, 15);
        gate.open();
        flood.into_iter().for_each(|t| t.wait().unwrap());
    }
}

#[test]
fn growing_a_lane_starts_queued_work_at_once() {
    let pool = common::fixed().threads(Lane::SlowIo, 1).build().unwrap();
    let gate = Gate::new();
    let tasks: Vec<_> = (0..6)
        .map(|_| {
            let g = gate.clone();
            pool.spawn(Lane::SlowIo, move || g.pass())
        })
        .collect();
    gate.wait_inside(1);
    assert_eq!(pool.metrics().lane(Lane::SlowIo).queue_depth, 5);
    pool.resize(Lane::SlowIo, 6).unwrap();
    gate.wait_inside(6); // would hang (and fail) if resize did not apply to queued work
    assert_eq!(pool.metrics().lane(Lane::SlowIo).queue_depth, 0);
    gate.open();
    tasks.into_iter().for_each(|t| t.wait().unwrap());
    assert_eq!(gate.max_inside(), 6);
}

#[test]
fn shrinking_a_lane_lets_running_tasks_finish_then_retires_threads() {
    let pool = common::fixed().threads(Lane::FastIo, 4).build().unwrap();
    let gate = Gate::new();
    let tasks: Vec<_> = (0..12)
        .map(|_| {
            let g = gate.clone();
            pool.spawn(Lane::FastIo, move || g.pass())
        })
        .collect();
    gate.wait_inside(4);
    pool.resize(Lane::FastIo, 1).unwrap();
    assert_eq!(gate.inside(), 4, "running tasks are not interrupted");
    gate.open();
    tasks.into_iter().for_each(|t| t.wait().unwrap());
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
    let gate = Gate::new();
    let tasks: Vec<_> = (0..8)
        .map(|_| {
            let g = gate.clone();
            pool.spawn(Lane::SlowIo, move || g.pass())
        })
        .collect();
    gate.wait_inside(8);
    // Eight busy threads and no spare: a submitter and a worker handing on
    // the search never both start one for the same task (the second sees
    // the first one's searcher, or the task claimed).
    let l = pool.metrics().lane(Lane::SlowIo).clone();
    assert_eq!(l.threads_alive, Some(8), "{l:?}");
    assert_eq!(l.threads_peak, Some(8), "{l:?}");
    gate.open();
    tasks.into_iter().for_each(|t| t.wait().unwrap());
    wait_for(
        || pool.metrics().lane(Lane::SlowIo).threads_alive == Some(0),
        "idle SlowIo threads to retire",
    );
    assert_eq!(pool.spawn(Lane::SlowIo, || 5).wait().unwrap(), 5);
    let l = pool.metrics().lane(Lane::SlowIo).clone();
    assert_eq!((l.completed_total, l.threads_alive), (9, Some(1)));
}

#[test]
fn a_full_lane_blocks_spawn_until_there_is_room() {
    let pool = common::fixed()
        .threads(Lane::Cpu, 1)
        .queue_bound(Lane::Cpu, 2)
        .build()
        .unwrap();
    let gate = Gate::new();
    let g = gate.clone();
    let first = pool.spawn(Lane::Cpu, move || g.pass());
    gate.wait_inside(1);
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
    gate.open();
    first.wait().unwrap();
    assert_eq!(waiter.join().unwrap(), Ok(99));
    assert_eq!(
        queued.into_iter().map(|t| t.wait().unwrap()).sum::<i32>(),
        1
    );
    let l = pool.metrics().lane(Lane::Cpu).clone();
    assert_eq!(
        (l.submitted_total, l.rejected_total, l.completed_total),
        (4, 1, 4)
    );
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
    gate.open();
    blocker.wait().unwrap();
    let l = pool.metrics().lane(Lane::FastIo).clone();
    assert_eq!(
        (l.expired_total, l.queue_depth, l.completed_total),
        (3, 0, 1)
    );
}
