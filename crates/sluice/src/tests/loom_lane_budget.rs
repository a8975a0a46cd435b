//! A lane never runs more tasks at once than its budget, however submitters
//! and workers interleave.

use super::Overlap;
use crate::{Lane, Pool};
use loom::thread;
use std::time::Duration;

#[test]
fn loom_lane_budget_of_one() {
    loom::model(|| {
        let pool = Pool::builder().threads(Lane::SlowIo, 1).build().unwrap();
        let overlap = Overlap::new();
        let (p, theirs) = (pool.clone(), overlap.task());
        let other = thread::spawn(move || p.spawn(Lane::SlowIo, theirs).wait());
        pool.spawn(Lane::SlowIo, overlap.task()).wait().unwrap();
        other.join().unwrap().unwrap();
        assert_eq!(overlap.most(), 1);
        assert!(pool.metrics().lane(Lane::SlowIo).threads_alive.unwrap() <= 1);
        assert!(pool.shutdown(Duration::from_secs(1)).drained);
    });
}
