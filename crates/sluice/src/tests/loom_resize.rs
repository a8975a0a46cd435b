//! Growing a lane while work is queued: the new budget applies to the queued
//! work, and the budget in force is never exceeded.

use crate::{Lane, Pool};
use loom::sync::Arc;
use loom::sync::atomic::{AtomicUsize, Ordering};
use loom::thread;
use std::time::Duration;

#[test]
fn loom_resize_up_while_submitting() {
    loom::model(|| {
        let pool = Pool::builder().threads(Lane::FastIo, 1).build().unwrap();
        let inside = Arc::new(AtomicUsize::new(0));
        let max = Arc::new(AtomicUsize::new(0));
        let spawn = |pool: &Pool| {
            let (inside, max) = (inside.clone(), max.clone());
            pool.spawn(Lane::FastIo, move || {
                let now = inside.fetch_add(1, Ordering::SeqCst) + 1;
                max.fetch_max(now, Ordering::SeqCst);
                inside.fetch_sub(1, Ordering::SeqCst);
            })
        };
        let a = spawn(&pool);
        let b = spawn(&pool);
        let p = pool.clone();
        let resizer = thread::spawn(move || p.resize(Lane::FastIo, 2).unwrap());
        a.wait().unwrap();
        b.wait().unwrap();
        resizer.join().unwrap();
        assert!(max.load(Ordering::SeqCst) <= 2);
        assert_eq!(pool.limit(Lane::FastIo), 2);
        assert!(pool.shutdown(Duration::from_secs(1)).drained);
    });
}
