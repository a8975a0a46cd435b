//! Cancel racing a worker's start: exactly one wins. The task either runs
//! (cancel returns false, the handle has the value) or is pulled (cancel
//! returns true, the closure never runs, the handle says Cancelled), and the
//! lane's counters account for it exactly once either way.

use crate::{Lane, Pool, TaskError};
use loom::sync::Arc;
use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::thread;
use std::time::Duration;

#[test]
fn loom_cancel_vs_start() {
    loom::model(|| {
        let pool = Pool::builder().threads(Lane::Cpu, 1).build().unwrap();
        let ran = Arc::new(AtomicUsize::new(0));
        let r = ran.clone();
        let task = Arc::new(pool.spawn(Lane::Cpu, move || {
            r.fetch_add(1, Ordering::SeqCst);
            7
        }));
        let t = task.clone();
        let canceller = thread::spawn(move || t.cancel());
        let cancelled = canceller.join().unwrap();
        let task = Arc::try_unwrap(task).expect("the canceller dropped its clone");
        let result = task.wait();
        if cancelled {
            assert_eq!(result, Err(TaskError::Cancelled));
            assert_eq!(ran.load(Ordering::SeqCst), 0);
        } else {
            assert_eq!(result, Ok(7));
            assert_eq!(ran.load(Ordering::SeqCst), 1);
        }
        assert!(pool.shutdown(Duration::from_secs(1)).drained);
        let l = pool.metrics().lane(Lane::Cpu).clone();
        assert_eq!(l.queue_depth, 0);
        assert_eq!(l.cancelled_total + l.started_total, 1);
        assert_eq!(l.cancelled_total, u64::from(cancelled));
    });
}
