//! A batch (`Pool::spawn_batch`) pushes every task before it reads the
//! counters and notifies once: no task is left queued while a worker
//! sleeps. With one notification for three tasks, the wake-ups must chain
//! from worker to worker (the last searcher turning busy hands the search
//! on); if that chain could break, loom would find the interleaving where
//! a task stays queued and its waiter parks forever (a deadlock).

use crate::{Lane, Pool};
use loom::thread;
use std::time::Duration;

#[test]
fn loom_batch_beside_a_single_submit() {
    loom::model(|| {
        let pool = Pool::builder().threads(Lane::FastIo, 2).build().unwrap();
        let p = pool.clone();
        let other = thread::spawn(move || p.spawn(Lane::FastIo, || 10).wait());
        let batch = pool.spawn_batch(Lane::FastIo, [|| 1, || 2, || 3]);
        let got: Vec<_> = batch.into_iter().map(|t| t.wait()).collect();
        assert_eq!(got, [Ok(1), Ok(2), Ok(3)]);
        assert_eq!(other.join().unwrap(), Ok(10));
        let l = pool.metrics().lane(Lane::FastIo).clone();
        assert_eq!(
            (l.submitted_total, l.completed_total, l.queue_depth),
            (4, 4, 0)
        );
        assert!(pool.shutdown(Duration::from_secs(1)).drained);
    });
}
