//! A spin for an event loop's park: [`before_park`] makes a hook that a
//! single-threaded event loop runs when it has nothing left to do. It waits
//! a few microseconds for the pool to finish the task the loop is waiting
//! on, before the loop goes to sleep.
//!
//! # Why
//!
//! A task awaited from an event loop with nothing else to do costs one
//! sleep and one wake-up of the loop: the loop polls the task, finds it
//! pending, sleeps in `epoll_wait`, and the worker's wake-up (an eventfd
//! write) brings it back. At one task in flight that round trip is most of
//! the latency. It is 12–15 µs on a 2-core VM whenever the sleeping core
//! halts, for a task a worker starts within a microsecond.
//!
//! A spin *inside* `Task::poll` would avoid that, but a future cannot tell
//! a loop with nothing else to do from one with other futures to poll. There
//! the spin holds up the loop's other work: `lab small-reads` lost up to a
//! third of its rate under each of four gates (`docs/lab.md`).
//!
//! The loop's own park hook runs only when every future of the loop is
//! pending, so a spin there takes nothing from the loop.
//!
//! # What it watches
//!
//! Once a thread has run the hook, it remembers the first
//! [`Task`](crate::Task) polled pending on it after each park. The reference
//! is weak, and there is one per park, not one per task.
//!
//! The next run of the hook spins until that task's waker has been woken,
//! or until the budget has passed, whichever comes first. It spins as the
//! pool's other spinners do (`park::spin_until`), giving up the core every
//! 64 rounds so that it never starves a worker on a small machine. The loop's park
//! that follows finds the wake-up already made and returns without sleeping.
//!
//! It does not spin:
//! - when no task is remembered: the loop is idle, or waits only on other
//!   things;
//! - when the task's lane has more than one task queued: the cores are
//!   better left to the workers that will run them. This is what keeps the
//!   spin out of the way of a loop with hundreds of reads in flight;
//! - while backing off. A spin that runs out its budget makes the hook skip
//!   the next park; each further miss in a row doubles the skip, up to 64
//!   parks. A hit resets it. So a loop whose tasks take milliseconds
//!   seldom spins.

use crate::park::spin_until;
use crate::task::watch;
use std::cell::Cell;
use std::time::Duration;

/// The most parks skipped after a run of missed spins.
const MAX_SKIP: u32 = 64;

thread_local! {
    /// Parks left to skip, and the skip after the next miss.
    static BACKOFF: Cell<(u32, u32)> = const { Cell::new((0, 1)) };
}

/// What one run of the hook did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Spun {
    /// Nothing remembered, or it is gone (the task was dropped).
    Nothing,
    /// Skipped, backing off after misses.
    Skipped,
    /// Not spun: a zero budget, the wake-up already made, or a queue
    /// deeper than one on the task's lane.
    NotNeeded,
    /// Spun until the wake-up.
    Hit,
    /// Spun the whole budget.
    Missed,
}

/// A hook for an event loop's park: before the loop sleeps, spin up to
/// `budget` for the task it is waiting on. Give it to tokio's
/// [`Builder::on_thread_park`](https://docs.rs/tokio/latest/tokio/runtime/struct.Builder.html#method.on_thread_park)
/// on a current-thread runtime, or call it from any loop just before it
/// blocks. See the [module](self) docs for when it spins.
///
/// A budget of zero turns it off. The hook watches [`Task`](crate::Task)s
/// awaited on the thread that runs it. It does nothing for tasks spawned
/// detached or waited on with [`Task::wait`](crate::Task::wait), which
/// spins on its own.
///
/// On a multi-threaded runtime the hook runs on each worker before it
/// parks. It is safe there, but a worker that parks has no task of its own
/// to wait on, so it seldom helps.
///
/// ```
/// use std::time::Duration;
///
/// let pool = sluice::Pool::builder().build()?;
/// let rt = tokio::runtime::Builder::new_current_thread()
///     .on_thread_park(sluice::loop_spin::before_park(Duration::from_micros(50)))
///     .build()?;
/// let n = rt.block_on(async {
///     let mut n = 0;
///     for _ in 0..100 {
///         n += pool.spawn(sluice::Lane::Cpu, || 1).await?;
///     }
///     Ok::<_, sluice::TaskError>(n)
/// })?;
/// assert_eq!(n, 100);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn before_park(budget: Duration) -> impl Fn() + Send + Sync + 'static {
    let budget_nanos = u64::try_from(budget.as_nanos()).unwrap_or(u64::MAX);
    move || {
        spin(budget_nanos);
    }
}

/// One run of the hook.
fn spin(budget_nanos: u64) -> Spun {
    let Some((job, pool)) = watch::arm_and_take() else {
        return Spun::Nothing;
    };
    let (skip, next) = BACKOFF.get();
    if skip > 0 {
        BACKOFF.set((skip - 1, next));
        return Spun::Skipped;
    }
    let header = job.header();
    if budget_nanos == 0 || header.is_woken() || pool.queued(header.lane) > 1 {
        return Spun::NotNeeded;
    }
    if spin_until(budget_nanos, || header.is_woken()) {
        BACKOFF.set((0, 1));
        Spun::Hit
    } else {
        BACKOFF.set((next, next.saturating_mul(2).min(MAX_SKIP)));
        Spun::Missed
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;
    use crate::{Lane, Pool, Task};
    use std::future::Future;
    use std::pin::Pin;
    use std::sync::mpsc;
    use std::task::{Context, Waker};
    // Not under loom (`cfg(not(loom))` above): plain threads, not the shim's.
    use std::thread;

    /// A long budget: a spin that waits for a wake-up always sees it.
    const LONG: u64 = 10_000_000_000;

    /// Polls `task` once on this thread, as a loop would.
    fn poll_once<T: Send + 'static>(task: &mut Task<T>) -> bool {
        let mut cx = Context::from_waker(Waker::noop());
        Pin::new(task).poll(&mut cx).is_ready()
    }

    /// Clears this thread's state, as a fresh loop thread has it, armed.
    fn armed() {
        watch::reset(true);
        BACKOFF.set((0, 1));
    }

    /// A task held on `lane` until the returned sender sends.
    fn held(pool: &Pool, lane: Lane) -> (Task<u32>, mpsc::Sender<()>) {
        let (go, wait) = mpsc::channel::<()>();
        let task = pool.spawn(lane, move || {
            wait.recv().expect("released");
            7
        });
        (task, go)
    }

    /// A held FastIo task polled pending once on this thread.
    fn held_pending(pool: &Pool) -> (Task<u32>, mpsc::Sender<()>) {
        let (mut task, go) = held(pool, Lane::FastIo);
        assert!(!poll_once(&mut task));
        (task, go)
    }

    #[test]
    fn an_idle_loop_does_not_spin() {
        armed();
        assert_eq!(spin(LONG), Spun::Nothing);
    }

    #[test]
    fn a_thread_that_never_ran_the_hook_remembers_nothing() {
        watch::reset(false);
        let pool = Pool::builder().build().expect("pool");
        let (task, go) = held_pending(&pool);
        assert_eq!(watch::remembered(), None);
        go.send(()).expect("send");
        assert_eq!(task.wait(), Ok(7));
    }

    /// Sends on `go` from another thread after a few milliseconds, so the
    /// hook is already spinning when the task finishes.
    fn release_soon(go: mpsc::Sender<()>) -> thread::JoinHandle<()> {
        thread::spawn(move || {
            thread::sleep(Duration::from_millis(20));
            go.send(()).expect("send");
        })
    }

    /// Polls a new held task pending, releases it soon, and spins: a hit,
    /// unless this thread lost its core for longer than the release took
    /// (then the wake-up was already made and it tries again).
    fn spin_until_hit(pool: &Pool) -> Task<u32> {
        for _ in 0..50 {
            let (task, go) = held_pending(pool);
            let release = release_soon(go);
            let spun = spin(LONG);
            release.join().expect("release");
            match spun {
                Spun::Hit => return task,
                Spun::NotNeeded => assert!(task.is_finished()),
                other => panic!("spun {other:?}"),
            }
        }
        panic!("no spin saw its task's wake-up in 50 tries")
    }

    #[test]
    fn the_spin_waits_for_the_wake_up_of_the_first_pending_task() {
        armed();
        let pool = Pool::builder().build().expect("pool");
        let mut first = spin_until_hit(&pool);
        assert!(poll_once(&mut first), "the task is done at a hit");
        // One task remembered per park: only the first polled pending.
        let (a, go_a) = held_pending(&pool);
        let (mut b, go_b) = held_pending(&pool);
        // `b` done and woken, `a` still held: the hook waits for `a`, so it
        // misses; had it remembered `b`, there would be nothing to wait for.
        go_b.send(()).expect("send");
        while !b.is_finished() {
            thread::yield_now();
        }
        assert_eq!(spin(5_000_000), Spun::Missed);
        go_a.send(()).expect("send");
        assert_eq!(a.wait(), Ok(7));
        assert!(poll_once(&mut b));
    }

    #[test]
    fn misses_back_off_and_a_hit_resets_the_backoff() {
        armed();
        let pool = Pool::builder().build().expect("pool");
        let (mut task, go) = held(&pool, Lane::FastIo);
        // Missed, then the next 1, 2, 4 parks skipped after each miss.
        let mut seen = Vec::new();
        for _ in 0..10 {
            assert!(!poll_once(&mut task));
            seen.push(spin(1_000));
        }
        use Spun::{Missed as M, Skipped as S};
        assert_eq!(seen, [M, S, M, S, S, M, S, S, S, S]);
        assert_eq!(BACKOFF.get(), (0, 8));
        go.send(()).expect("send");
        assert_eq!(task.wait(), Ok(7));
        // A hit resets it.
        let mut hit = spin_until_hit(&pool);
        assert_eq!(BACKOFF.get(), (0, 1));
        assert!(poll_once(&mut hit));
    }

    #[test]
    fn a_queue_deeper_than_one_leaves_the_cores_to_the_workers() {
        armed();
        let pool = Pool::builder()
            .threads(Lane::FastIo, 1)
            .max_threads(Lane::FastIo, 1)
            .build()
            .expect("pool");
        let (started, on_start) = mpsc::channel::<()>();
        let (go, wait) = mpsc::channel::<()>();
        let running = pool.spawn(Lane::FastIo, move || {
            started.send(()).expect("send");
            wait.recv().expect("released");
            7
        });
        // The one worker holds it: the two below stay queued.
        on_start.recv().expect("started");
        let mut queued: Vec<Task<u32>> = (0..2).map(|_| pool.spawn(Lane::FastIo, || 1)).collect();
        assert!(!poll_once(&mut queued[0]));
        assert_eq!(spin(LONG), Spun::NotNeeded);
        go.send(()).expect("send");
        assert_eq!(running.wait(), Ok(7));
        for t in queued {
            assert_eq!(t.wait(), Ok(1));
        }
    }

    #[test]
    fn a_dropped_task_is_not_waited_for() {
        armed();
        let pool = Pool::builder().build().expect("pool");
        let (task, go) = held_pending(&pool);
        drop(task);
        go.send(()).expect("send");
        // The worker drops the last reference once it has run it.
        let dropped = (0..10_000).any(|_| {
            thread::sleep(Duration::from_millis(1));
            watch::remembered() == Some(false)
        });
        assert!(dropped, "the worker let go of the task");
        assert_eq!(spin(LONG), Spun::Nothing);
    }

    #[test]
    fn a_zero_budget_never_spins() {
        armed();
        let pool = Pool::builder().build().expect("pool");
        let (task, go) = held_pending(&pool);
        assert_eq!(spin(0), Spun::NotNeeded);
        go.send(()).expect("send");
        assert_eq!(task.wait(), Ok(7));
    }

    #[test]
    fn a_current_thread_runtime_with_the_hook_gets_every_result() {
        let pool = Pool::builder().build().expect("pool");
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .on_thread_park(before_park(Duration::from_micros(50)))
            .build()
            .expect("runtime");
        let sum = rt.block_on(async {
            let mut sum = 0u64;
            for i in 0..2_000u64 {
                let lane = [Lane::Cpu, Lane::FastIo, Lane::SlowIo][(i % 3) as usize];
                sum += pool.spawn(lane, move || i).await.expect("task");
            }
            let wave: Vec<_> = (0..500u64)
                .map(|i| pool.spawn(Lane::FastIo, move || i))
                .collect();
            for t in wave {
                sum += t.await.expect("task");
            }
            sum
        });
        assert_eq!(sum, (0..2_000u64).sum::<u64>() + (0..500u64).sum::<u64>());
    }
}
