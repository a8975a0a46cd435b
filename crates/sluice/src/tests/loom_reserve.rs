//! Awaitable admission on a full lane: a waiter that found no room is woken
//! when a place frees, whatever the interleaving (no lost wake-up), and a
//! dropped waiter passes its turn on.

use crate::{Lane, Pool};
use loom::sync::{Condvar, Mutex};
use loom::thread;
use std::future::Future;
use std::task::{Context, Poll, Wake, Waker};
use std::time::Duration;

/// A waker on loom's Mutex and Condvar (loom's own `unpark` is lost when
/// the thread is blocked on a mutex at that moment, which std's is not).
#[derive(Default)]
struct Signal {
    woken: Mutex<bool>,
    cv: Condvar,
}

impl Wake for Signal {
    fn wake(self: std::sync::Arc<Self>) {
        *self.woken.lock().unwrap() = true;
        self.cv.notify_one();
    }
}

/// Polls `f` on this loom thread, waiting for a wake between polls.
fn block_on<F: Future>(f: F) -> F::Output {
    let signal = std::sync::Arc::new(Signal::default());
    let waker = Waker::from(std::sync::Arc::clone(&signal));
    let mut cx = Context::from_waker(&waker);
    let mut f = std::pin::pin!(f);
    loop {
        if let Poll::Ready(v) = f.as_mut().poll(&mut cx) {
            return v;
        }
        let mut woken = signal.woken.lock().unwrap();
        while !*woken {
            woken = signal.cv.wait(woken).unwrap();
        }
        *woken = false;
    }
}

/// A pool whose `SlowIo` lane has one worker and one place in its queue.
fn one_place() -> Pool {
    Pool::builder()
        .threads(Lane::SlowIo, 1)
        .queue_bound(Lane::SlowIo, 1)
        .adaptive(Lane::SlowIo, false)
        .build()
        .unwrap()
}

/// A lane with one place, two reservations racing a task that holds it.
#[test]
fn loom_reserve_wakes_the_waiter() {
    loom::model(|| {
        let pool = one_place();
        let first = pool.spawn(Lane::SlowIo, || 1);
        let p = pool.clone();
        let other = thread::spawn(move || {
            let permit = block_on(p.reserve(Lane::SlowIo)).unwrap();
            permit.spawn(|| 2).wait().unwrap()
        });
        let permit = block_on(pool.reserve(Lane::SlowIo)).unwrap();
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

/// A blocking `spawn` on a full lane of one place: the submitter waits on
/// the room condvar (`wait_for_room`) while the worker runs the first task
/// and frees the place; the room pair must not lose that wake-up.
#[test]
fn loom_spawn_waits_for_room() {
    loom::model(|| {
        let pool = one_place();
        let first = pool.spawn(Lane::SlowIo, || 1);
        let second = pool.spawn(Lane::SlowIo, || 2);
        assert_eq!((first.wait(), second.wait()), (Ok(1), Ok(2)));
        let lane = pool.metrics().lane(Lane::SlowIo).clone();
        assert_eq!(
            (lane.submitted_total, lane.queue_depth, lane.rejected_total),
            (2, 0, 0)
        );
        assert!(pool.shutdown(Duration::from_secs(1)).drained);
    });
}
