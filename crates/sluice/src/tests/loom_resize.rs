//! Growing a lane while work is queued: the new budget applies to the queued
//! work, and the budget in force is never exceeded.

use super::Overlap;
use crate::{Lane, Pool};
use loom::thread;
use std::time::Duration;

#[test]
fn loom_resize_up_while_submitting() {
    loom::model(|| {
        let pool = Pool::builder().threads(Lane::FastIo, 1).build().unwrap();
        let overlap = Overlap::new();
        let a = pool.spawn(Lane::FastIo, overlap.task());
        let b = pool.spawn(Lane::FastIo, overlap.task());
        let p = pool.clone();
        let resizer = thread::spawn(move || p.resize(Lane::FastIo, 2).unwrap());
        a.wait().unwrap();
        b.wait().unwrap();
        resizer.join().unwrap();
        assert!(overlap.most() <= 2);
        assert_eq!(pool.limit(Lane::FastIo), 2);
        assert!(pool.shutdown(Duration::from_secs(1)).drained);
    });
}
