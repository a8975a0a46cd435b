//! Shutdown: accepted work completes or says why not; nothing hangs.

mod common;

use common::{Gate, assert_lane, both_policies as both, wait_for};
use sluice::{Lane, TaskError};
use std::time::Duration;

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
        let (gate, running) = Gate::held_with(&pool, Lane::FastIo, 1, 1, |g, _| {
            g.pass();
            "finished late"
        });
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
        assert_eq!(gate.release(running), ["finished late"]);
        assert_lane!(pool, Lane::FastIo, abandoned_total: 4, completed_total: 1, queue_depth: 0);
    }
}

#[test]
fn dropping_the_pool_runs_what_was_accepted_without_blocking() {
    for pool in both(2) {
        let (gate, tasks) = Gate::held_with(&pool, Lane::FastIo, 6, 2, |g, i| {
            g.pass();
            i
        });
        drop(pool); // returns at once although work is running and queued
        assert_eq!(gate.release(tasks).into_iter().sum::<usize>(), 15);
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
