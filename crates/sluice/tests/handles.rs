//! Task handles: futures, blocking waits, cancel, panics, drops.

mod common;

use common::{Gate, assert_lane, wait_for};
use sluice::{Lane, Pool, TaskError};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// A pool of one `Cpu` and one `FastIo` thread under each policy.
fn pools() -> Vec<Pool> {
    common::both_policies(1)
}

#[test]
fn tasks_are_futures_on_any_executor() {
    for pool in pools() {
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .unwrap();
        let p = pool.clone();
        let sum = rt.block_on(async move {
            let a = p.spawn(Lane::Cpu, || 20);
            let b = p.spawn(Lane::FastIo, || 22);
            a.await.unwrap() + b.await.unwrap()
        });
        assert_eq!(sum, 42);
        let v = futures_executor::block_on(pool.spawn(Lane::SlowIo, || "x")).unwrap();
        assert_eq!(v, "x");
    }
}

#[test]
fn a_panic_fails_its_own_handle_only() {
    for pool in pools() {
        let bad = pool.spawn(Lane::Cpu, || -> () {
            std::panic::panic_any(String::from("owned message"))
        });
        let also_bad = pool.spawn(Lane::Cpu, || -> () { std::panic::panic_any(17u8) });
        let good = pool.spawn(Lane::Cpu, || 1);
        assert_eq!(bad.wait(), Err(TaskError::Panicked("owned message".into())));
        assert_eq!(
            also_bad.wait(),
            Err(TaskError::Panicked("non-string panic payload".into()))
        );
        assert_eq!(good.wait(), Ok(1));
        assert_lane!(pool, Lane::Cpu, panicked_total: 2, completed_total: 1);
    }
}

#[test]
fn cancel_pulls_queued_work_and_leaves_started_work_alone() {
    for pool in pools() {
        let (gate, running) = Gate::held(&pool, Lane::FastIo, 1, 1);
        let ran = Arc::new(AtomicUsize::new(0));
        let queued: Vec<_> = (0..5)
            .map(|_| {
                let r = ran.clone();
                pool.spawn(Lane::FastIo, move || {
                    r.fetch_add(1, Ordering::SeqCst);
                })
            })
            .collect();
        assert!(!running[0].cancel());
        assert!(queued[1].cancel());
        assert!(queued[3].cancel());
        assert!(!queued[3].cancel(), "a second cancel finds it done");
        let snap = pool.metrics();
        assert_eq!(snap.lane(Lane::FastIo).queue_depth, 3);
        gate.release(running);
        let results: Vec<_> = queued.into_iter().map(|t| t.wait()).collect();
        assert_eq!(
            results,
            vec![
                Ok(()),
                Err(TaskError::Cancelled),
                Ok(()),
                Err(TaskError::Cancelled),
                Ok(())
            ]
        );
        assert_eq!(ran.load(Ordering::SeqCst), 3);
        assert_lane!(pool, Lane::FastIo, cancelled_total: 2, started_total: 4, queue_depth: 0);
    }
}

#[test]
fn dropping_a_handle_neither_cancels_nor_leaks() {
    for pool in pools() {
        let payload = Arc::new(());
        let ran = Arc::new(AtomicUsize::new(0));
        for _ in 0..10 {
            let (r, p) = (ran.clone(), payload.clone());
            drop(pool.spawn(Lane::Cpu, move || {
                r.fetch_add(1, Ordering::SeqCst);
                p
            }));
        }
        wait_for(|| ran.load(Ordering::SeqCst) == 10, "dropped tasks to run");
        // Results of dropped handles are freed: only our reference remains.
        wait_for(|| Arc::strong_count(&payload) == 1, "results to be dropped");
    }
}

#[test]
fn a_cancelled_closure_is_dropped_at_once() {
    let pool = pools().remove(0);
    let (gate, blocker) = Gate::held(&pool, Lane::Cpu, 1, 1);
    let captured = Arc::new(());
    let c = captured.clone();
    let task = pool.spawn(Lane::Cpu, move || drop(c));
    assert_eq!(Arc::strong_count(&captured), 2);
    assert!(task.cancel());
    assert_eq!(
        Arc::strong_count(&captured),
        1,
        "the closure's captures are released by cancel"
    );
    gate.release(blocker);
}

#[test]
fn is_finished_and_lane_report_the_task() {
    for pool in pools() {
        let t = pool.spawn(Lane::SlowIo, || 3);
        assert_eq!(t.lane(), Lane::SlowIo);
        wait_for(|| t.is_finished(), "task to finish");
        assert_eq!(t.wait(), Ok(3));
    }
}

#[test]
fn a_result_is_counted_before_its_handle_sees_it() {
    for pool in pools() {
        for i in 1..=300u64 {
            let panics = i % 10 == 0;
            let _ = pool
                .spawn(Lane::FastIo, move || assert!(!panics, "on purpose"))
                .wait();
            let l = pool.metrics().lane(Lane::FastIo).clone();
            assert_eq!(
                l.completed_total + l.panicked_total,
                i,
                "{}",
                pool.policy().name()
            );
            assert_eq!(l.run_time_seconds.count, i);
        }
    }
}
