//! No lost wake-up: a task submitted while the only worker is falling asleep
//! still runs. If the submitter's "push, then read the counters" and the
//! worker's "announce sleeping, then read the depth" could both miss each
//! other, some interleaving would leave the task queued and the waiter
//! parked forever, and loom would report the deadlock.

use crate::{Lane, Pool};
use loom::thread;
use std::time::Duration;

fn one_thread_pool() -> Pool {
    Pool::builder().threads(Lane::FastIo, 1).build().unwrap()
}

#[test]
fn loom_submit_after_worker_idles() {
    loom::model(|| {
        let pool = one_thread_pool();
        // The first task starts the worker; after it, the worker searches and
        // then sleeps, racing with the second submit.
        assert_eq!(pool.spawn(Lane::FastIo, || 1).wait(), Ok(1));
        assert_eq!(pool.spawn(Lane::FastIo, || 2).wait(), Ok(2));
        let snap = pool.metrics();
        assert_eq!(snap.lane(Lane::FastIo).completed_total, 2);
        assert!(pool.shutdown(Duration::from_secs(1)).drained);
    });
}

/// This thread's task (20) and `other`'s (10) ran, once each, and the lane
/// is empty and shuts down drained.
fn both_ran(pool: &Pool, other: thread::JoinHandle<Result<i32, crate::TaskError>>) {
    let mine = pool.spawn(Lane::FastIo, || 20).wait();
    assert_eq!(mine, Ok(20));
    assert_eq!(other.join().unwrap(), Ok(10));
    let l = pool.metrics().lane(Lane::FastIo).clone();
    assert_eq!(
        (l.submitted_total, l.completed_total, l.queue_depth),
        (2, 2, 0)
    );
    assert!(pool.shutdown(Duration::from_secs(1)).drained);
}

#[test]
fn loom_two_submitters_one_worker() {
    loom::model(|| {
        let pool = one_thread_pool();
        let p = pool.clone();
        let other = thread::spawn(move || p.spawn(Lane::FastIo, || 10).wait());
        both_ran(&pool, other);
    });
}

/// The queue's two parts (`park/README.md`): a task pushed to the front
/// part while the worker searches the other, or falls asleep, still runs.
#[test]
fn loom_spawn_first_beside_a_plain_submit_one_worker() {
    loom::model(|| {
        let pool = one_thread_pool();
        let p = pool.clone();
        let other = thread::spawn(move || {
            let permit = p.try_reserve(Lane::FastIo).unwrap();
            permit.spawn_first(|| 10).wait()
        });
        both_ran(&pool, other);
    });
}
