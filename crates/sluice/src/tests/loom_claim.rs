//! Claiming a popped task, against the blocked-worker compensation check
//! and a cancel.
//!
//! A worker claims the task it popped (the cell leaves `Queued`, then the
//! lane's `depth` comes down) *before* it stops searching, and the readers
//! that start threads for queued work read the thread counters before
//! `depth`. So a reader that finds no searcher never counts a task that a
//! worker already holds, and compensation starts exactly the threads the
//! unclaimed work needs (`park/README.md`, "queued and not yet claimed").
//! A worker that stops searching before its claim, or a reader that loads
//! `depth` before the counters and starts a thread without re-reading it
//! (`Park::try_add_searcher`), lets the compensation check start a thread
//! for a task already taken: `loom_compensation_counts_only_unclaimed_work`
//! then fails.

use crate::{Lane, Pool, TaskError};
use loom::sync::{Arc, Condvar, Mutex};
use loom::thread;
use std::time::Duration;

/// A budget of two, both workers' tasks held in blocking sections until
/// the third task is queued behind them: one thread is started beyond the
/// budget at most, whichever worker is found blocked first and whoever pops
/// the third task. (The sections wait for the submitter, so no two idle
/// workers spin on a reservation it has yet to push: loom would starve the
/// submitter between their yields.)
#[test]
fn loom_compensation_counts_only_unclaimed_work() {
    loom::model(|| {
        let pool = Pool::builder().threads(Lane::FastIo, 2).build().unwrap();
        let go = Arc::new((Mutex::new(false), Condvar::new()));
        let held = |go: Arc<(Mutex<bool>, Condvar)>, v: u32| {
            move || {
                crate::blocking(|| {
                    let mut open = go.0.lock().unwrap();
                    while !*open {
                        open = go.1.wait(open).unwrap();
                    }
                });
                v
            }
        };
        let a = pool.spawn(Lane::FastIo, held(go.clone(), 1));
        let b = pool.spawn(Lane::FastIo, held(go.clone(), 2));
        let c = pool.spawn(Lane::FastIo, || 3);
        *go.0.lock().unwrap() = true;
        go.1.notify_all();
        assert_eq!(a.wait().unwrap() + b.wait().unwrap() + c.wait().unwrap(), 6);
        assert!(pool.shutdown(Duration::from_secs(1)).drained);
        let l = pool.metrics().lane(Lane::FastIo).clone();
        assert!(
            l.compensated_total <= 1,
            "{} threads started beyond the budget for one task beyond it",
            l.compensated_total
        );
        assert!(l.threads_peak.unwrap() <= 3, "{l:?}");
        assert_eq!(
            (l.submitted_total, l.started_total, l.completed_total),
            (3, 3, 3)
        );
        assert_eq!((l.queue_depth, l.blocked_threads), (0, Some(0)));
    });
}

/// A cancel races the worker's claim of the queued task while the worker
/// of the other task is counted blocked (and compensation looks at the
/// queue): the task runs or is cancelled, exactly once; nothing is left
/// queued or counted twice, and no waiter hangs.
#[test]
fn loom_cancel_races_claim_and_compensation() {
    loom::model(|| {
        let pool = Pool::builder().threads(Lane::FastIo, 1).build().unwrap();
        let a = pool.spawn(Lane::FastIo, || crate::blocking(|| 1));
        let b = Arc::new(pool.spawn(Lane::FastIo, || 2));
        let canceller = {
            let b = b.clone();
            thread::spawn(move || b.cancel())
        };
        let cancelled = canceller.join().unwrap();
        let b = Arc::try_unwrap(b).expect("the canceller dropped its clone");
        assert_eq!(a.wait(), Ok(1));
        match b.wait() {
            Ok(v) => assert!(!cancelled && v == 2),
            Err(e) => assert!(cancelled && e == TaskError::Cancelled, "{e:?}"),
        }
        assert!(pool.shutdown(Duration::from_secs(1)).drained);
        let l = pool.metrics().lane(Lane::FastIo).clone();
        assert_eq!(l.queue_depth, 0);
        assert_eq!(l.cancelled_total, u64::from(cancelled));
        assert_eq!(l.started_total, 2 - u64::from(cancelled));
        assert_eq!(l.completed_total, l.started_total);
        assert!(l.compensated_total <= 1, "{l:?}");
        assert_eq!(l.blocked_threads, Some(0));
    });
}
