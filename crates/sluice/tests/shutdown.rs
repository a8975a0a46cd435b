//! Shutdown: accepted work completes or says why not; nothing hangs.

mod common;

use common::{Gate, wait_for};
use sluice::{Lane, Policy, Pool, TaskError};
use std::time::Duration;

fn both(threads: usize) -> Vec<Pool> {
    vec![
        Pool::builder()
            .threads(Lane::Cpu, 1)
            .threads(Lane::FastIo, threads)
            .build()
            .unwrap(),
        Pool::builder()
            .policy(Policy::Libuv {
                threads: Some(threads),
            })
            .build()
            .unwrap(),
    ]
}

#[test]
fn shutdown_drains_every_accepted_task() {
    for pool in both(1) {
        let tasks: Vec<_> = (0..500u64)
            .map(|i| {
                pool.spawn(
                    if i % 2 == 0 {
                        Lane::FastIo
                    } else {
                        Lane::SlowIo
                    },
                    move || i,
                )
            })
            .collect();
        let report = pool.shutdown(Duration::from_secs(30));
        assert!(report.drained, "{report:?}");
        assert_eq!(
            tasks.into_iter().map(|t| t.wait().unwrap()).sum::<u64>(),
            500 * 499 / 2
        );
        assert_eq!(
            pool.spawn(Lane::Cpu, || ()).wait(),
            Err(TaskError::Shutdown)
        );
        assert_eq!(
            pool.try_spawn(Lane::Cpu, || ()).unwrap().wait(),
            Err(TaskError::Shutdown)
        );
        let snap = pool.metrics();
        assert_eq!(snap.threads_alive, 0, "{}", snap.policy);
        let done: u64 = snap.lanes.iter().map(|l| l.completed_total).sum();
        assert_eq!(done, 500);
    }
}

#[test]
fn shutdown_timeout_fails_queued_work_and_reports_running_work() {
    for pool in both(1) {
        let gate = Gate::new();
        let g = gate.clone();
        let running = pool.spawn(Lane::FastIo, move || {
            g.pass();
            "finished late"
        });
        gate.wait_inside(1);
        let queued: Vec<_> = (0..4)
            .map(|_| pool.spawn(Lane::FastIo, || "never"))
            .collect();
        let report = pool.shutdown(Duration::from_millis(30));
        assert!(!report.drained);
        assert_eq!(
            (report.abandoned, report.still_running),
            (4, 1),
            "{}",
            pool.policy().name()
        );
        for t in queued {
            assert_eq!(t.wait(), Err(TaskError::Shutdown));
        }
        gate.open();
        assert_eq!(running.wait(), Ok("finished late"));
        let l = pool.metrics().lane(Lane::FastIo).clone();
        assert_eq!(
            (l.abandoned_total, l.completed_total, l.queue_depth),
            (4, 1, 0)
        );
    }
}

#[test]
fn dropping_the_pool_runs_what_was_accepted_without_blocking() {
    for pool in both(2) {
        let gate = Gate::new();
        let tasks: Vec<_> = (0..6)
            .map(|i| {
                let g = gate.clone();
                pool.spawn(Lane::FastIo, move || {
                    g.pass();
                    i
                })
            })
            .collect();
        gate.wait_inside(2);
        drop(pool); // returns at once although work is running and queued
        gate.open();
        assert_eq!(
            tasks.into_iter().map(|t| t.wait().unwrap()).sum::<i32>(),
            15
        );
    }
}

#[test]
fn a_second_shutdown_is_harmless() {
    for pool in both(1) {
        pool.spawn(Lane::Cpu, || ()).wait().unwrap();
        assert!(pool.shutdown(Duration::from_secs(5)).drained);
        let again = pool.shutdown(Duration::from_secs(5));
        assert!(again.drained);
        wait_for(|| pool.metrics().threads_alive == 0, "threads to exit");
    }
}
