//! Awaitable admission on a full lane: a waiter that found no room is woken
//! when a place frees, whatever the interleaving (no lost wake-up), and a
//! dropped waiter passes its turn on.

use crate::{Lane, Pool};
use loom::thread;
use std::time::Duration;

/// A lane with one place, two reservations racing a task that holds it.
#[test]
fn loom_reserve_wakes_the_waiter() {
    loom::model(|| {
        let pool = Pool::builder()
            .threads(Lane::SlowIo, 1)
            .queue_bound(Lane::SlowIo, 1)
            .adaptive(Lane::SlowIo, false)
            .build()
            .unwrap();
        let first = pool.spawn(Lane::SlowIo, || 1);
        let p = pool.clone();
        let other = thread::spawn(move || {
            let permit = loom::future::block_on(p.reserve(Lane::SlowIo)).unwrap();
            permit.spawn(|| 2).wait().unwrap()
        });
        let permit = loom::future::block_on(pool.reserve(Lane::SlowIo)).unwrap();
        assert_eq!(permit.spawn(|| 3).wait().unwrap(), 3);
        assert_eq!(other.join().unwrap(), 2);
        assert_eq!(first.wait().unwrap(), 1);
        let snap = pool.metrics();
        let lane = snap.lane(Lane::SlowIo);
        assert_eq!((lane.submitted_total, lane.queue_depth), (3, 0));
        assert_eq!(lane.reservations_waiting, 0);
        assert!(pool.shutdown(Duration::from_secs(1)).drained);
    });
}
