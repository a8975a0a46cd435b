//! A lane never runs more tasks at once than its budget, however submitters
//! and workers interleave.

use crate::{Lane, Pool};
use loom::sync::Arc;
use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::thread;
use std::time::Duration;

#[test]
fn loom_lane_budget_of_one() {
    loom::model(|| {
        let pool = Pool::builder().threads(Lane::SlowIo, 1).build().unwrap();
        let inside = Arc::new(AtomicUsize::new(0));
        let max = Arc::new(AtomicUsize::new(0));
        let task = |inside: Arc<AtomicUsize>, max: Arc<AtomicUsize>| {
            move || {
                let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                max.fetch_max(now, Ordering::SeqCst);
                inside.fetch_sub(1, Ordering::SeqCst);
            }
        };
        let p = pool.clone();
        let (i, m) = (inside.clone(), max.clone());
        let other = thread::spawn(move || p.spawn(Lane::SlowIo, task(i, m)).wait());
        pool.spawn(Lane::SlowIo, task(inside.clone(), max.clone()))
            .wait()
            .unwrap();
        other.join().unwrap().unwrap();
        assert_eq!(max.load(Ordering::SeqCst), 1);
        assert!(pool.metrics().lane(Lane::SlowIo).threads_alive.unwrap() <= 1);
        assert!(pool.shutdown(Duration::from_secs(1)).drained);
    });
}
