//! A batch (`Pool::spawn_batch`) pushes every task before it reads the
//! counters and notifies once: no task is left queued while a worker
//! sleeps. With one notification for two tasks on two workers, the second
//! worker must come from the first (the last searcher turning busy hands
//! the search on); with one worker that sleeps after a first task, the
//! batch's one notification races its falling asleep. A batch handed on
//! in parts (one task each here) notifies once per part: the second part's
//! notification races the worker that the first part started, as it
//! searches, runs the first task and goes to sleep. If any notification could be
//! lost, loom would find the interleaving where a task stays queued and
//! its waiter parks forever (a deadlock).

use crate::{Lane, Pool};
use std::time::Duration;

fn run_batch(pool: &Pool) {
    let batch = pool.spawn_batch(Lane::FastIo, [|| 1, || 2]);
    let got: Vec<_> = batch.into_iter().map(|t| t.wait()).collect();
    assert_eq!(got, [Ok(1), Ok(2)]);
}

#[test]
fn loom_batch_on_two_workers() {
    loom::model(|| {
        let pool = Pool::builder().threads(Lane::FastIo, 2).build().unwrap();
        run_batch(&pool);
        let l = pool.metrics().lane(Lane::FastIo).clone();
        assert_eq!(
            (l.submitted_total, l.completed_total, l.queue_depth),
            (2, 2, 0)
        );
        assert!(pool.shutdown(Duration::from_secs(1)).drained);
    });
}

#[test]
fn loom_batch_after_the_worker_idles() {
    loom::model(|| {
        let pool = Pool::builder().threads(Lane::FastIo, 1).build().unwrap();
        // The first task starts the worker; after it, the worker searches
        // and then sleeps, racing with the batch.
        assert_eq!(pool.spawn(Lane::FastIo, || 0).wait(), Ok(0));
        run_batch(&pool);
        let l = pool.metrics().lane(Lane::FastIo).clone();
        assert_eq!((l.submitted_total, l.completed_total), (3, 3));
        assert!(pool.shutdown(Duration::from_secs(1)).drained);
    });
}

#[test]
fn loom_batch_in_parts_on_one_worker() {
    loom::model(|| {
        let pool = Pool::builder().threads(Lane::FastIo, 1).build().unwrap();
        let batch = pool.spawn_batch_in_parts(Lane::FastIo, [|| 1, || 2], 1);
        let got: Vec<_> = batch.into_iter().map(|t| t.wait()).collect();
        assert_eq!(got, [Ok(1), Ok(2)]);
        let l = pool.metrics().lane(Lane::FastIo).clone();
        assert_eq!(
            (l.submitted_total, l.completed_total, l.queue_depth),
            (2, 2, 0)
        );
        assert!(pool.shutdown(Duration::from_secs(1)).drained);
    });
}

#[test]
fn loom_batch_on_a_bounded_lane_of_one_place() {
    // The batch asks for both places in one reservation and gets one (the
    // bound), queues that task, then waits for room like `spawn`: the
    // worker that runs the first task must free the place and wake it.
    loom::model(|| {
        let pool = Pool::builder()
            .threads(Lane::FastIo, 1)
            .queue_bound(Lane::FastIo, 1)
            .build()
            .unwrap();
        run_batch(&pool);
        let l = pool.metrics().lane(Lane::FastIo).clone();
        assert_eq!(
            (
                l.submitted_total,
                l.completed_total,
                l.queue_depth,
                l.rejected_total
            ),
            (2, 2, 0, 0)
        );
        assert!(pool.shutdown(Duration::from_secs(1)).drained);
    });
}

/// Two detached tasks gathered in a `DetachedBatch` and submitted with one
/// reservation and one notification, on a worker that ran a first task
/// and then searches and sleeps, racing the submit. The tasks count
/// themselves and the second wakes the model's main thread: a lost
/// notification leaves them queued, the main thread waiting forever, and
/// loom reports the deadlock.
#[test]
fn loom_detached_batch_after_the_worker_idles() {
    use loom::sync::Notify;
    use loom::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    loom::model(|| {
        let pool = Pool::builder().threads(Lane::FastIo, 1).build().unwrap();
        assert_eq!(pool.spawn(Lane::FastIo, || 0).wait(), Ok(0));
        let ran = Arc::new(AtomicUsize::new(0));
        let done = Arc::new(Notify::new());
        let mut batch = pool.detached_batch(Lane::FastIo);
        for _ in 0..2 {
            let (ran, done) = (Arc::clone(&ran), Arc::clone(&done));
            batch.spawn(move || {
                if ran.fetch_add(1, Ordering::SeqCst) == 1 {
                    done.notify();
                }
            });
        }
        batch.submit();
        // A loom `Notify` may wake spuriously: wait until both ran.
        while ran.load(Ordering::SeqCst) < 2 {
            done.wait();
        }
        let l = pool.metrics().lane(Lane::FastIo).clone();
        assert_eq!((l.submitted_total, l.queue_depth), (3, 0));
        assert!(pool.shutdown(Duration::from_secs(1)).drained);
    });
}
