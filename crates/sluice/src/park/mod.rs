//! Code that decides when lane workers sleep and who wakes them.
//! See `README.md` in this directory for the protocol and its proof sketch.
//!
//! The names of the methods are the steps of the protocol:
//! [`Park::try_add_worker`], [`Park::work_found`], [`Park::no_work_found`],
//! [`Park::sleep`], [`Park::wake_one`], [`Park::try_retire_busy`],
//! [`Park::close`], [`Park::wait_exited`].

use crate::clock;
use crate::loom::Unpoison;
use crate::loom::lock;
use crate::loom::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use crate::loom::sync::{Condvar, Mutex, MutexGuard};
use crate::loom::{SPIN_ROUNDS, hint, thread};
use std::time::{Duration, Instant};

/// Bits per field of the packed [`Counters`] word (`observer.rs` publishes
/// it with the word's address: a reader outside the process decodes by it).
pub(crate) const FIELD_BITS: u32 = 21;
const FIELD_MASK: u64 = (1 << FIELD_BITS) - 1;
const ONE_ALIVE: u64 = 1;
const ONE_SEARCHING: u64 = 1 << FIELD_BITS;
const ONE_SLEEPING: u64 = 1 << (2 * FIELD_BITS);

/// The thread counters of one lane, packed into one word so a submitter reads
/// all three consistently in a single load:
///
/// ```text
///   bits 63  62..42      41..21       20..0
///        0   sleeping    searching    alive
///   e.g. 0x0000_0400_0020_0003: 1 sleeping, 1 searching, 3 alive (so 1 busy)
/// ```
///
/// - `alive`: worker threads that exist (busy + searching + sleeping).
/// - `searching`: awake and looking for work (popping, spinning).
/// - `sleeping`: announced sleep and parked, or about to park, on the condvar.
/// - busy (derived): `alive - searching - sleeping`, running a task.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct Counters(u64);

impl Counters {
    pub(crate) fn alive(self) -> usize {
        (self.0 & FIELD_MASK) as usize
    }
    pub(crate) fn searching(self) -> usize {
        ((self.0 >> FIELD_BITS) & FIELD_MASK) as usize
    }
    pub(crate) fn sleeping(self) -> usize {
        ((self.0 >> (2 * FIELD_BITS)) & FIELD_MASK) as usize
    }
    pub(crate) fn busy(self) -> usize {
        self.alive() - self.searching() - self.sleeping()
    }
}

impl std::fmt::Debug for Counters {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Counters {{ alive: {}, searching: {}, sleeping: {} }}",
            self.alive(),
            self.searching(),
            self.sleeping()
        )
    }
}

/// What a worker does after [`Park::sleep`] returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Wake {
    /// Work may be queued: search again (the worker is counted as searching).
    Search,
    /// The thread must exit (closed and drained, over the limit, or idle past
    /// its keep-alive); it is no longer counted.
    Exit,
}

struct ParkState {
    /// Wake-ups handed out by [`Park::wake_one`] and not yet taken by a
    /// sleeper. Counting them (as tokio's `num_notify` does) tells a real
    /// wake-up from a spurious one, and keeps two submitters from both
    /// "waking" the same sleeper.
    notified: usize,
    /// Set once by [`Park::close`]; never unset.
    closed: bool,
}

/// The sleep/wake state of one lane's workers.
pub(crate) struct Park {
    /// Packed [`Counters`]. Every change is a `SeqCst` read-modify-write and
    /// every protocol read a `SeqCst` load: the submitter's "push, then read
    /// the counters" and the worker's "announce sleeping, then read the queue
    /// depth" form a store-load (Dekker) pair, which needs sequential
    /// consistency on both sides (see README.md, "the lost wake-up").
    counters: AtomicU64,
    /// Mirror of `ParkState::closed` for the lock-free check in submit.
    closed: AtomicBool,
    state: Mutex<ParkState>,
    /// Sleepers wait here.
    wakeup: Condvar,
    /// [`Park::wait_exited`] waits here for `alive` to reach 0.
    exited: Condvar,
}

impl Park {
    pub(crate) fn new() -> Self {
        Park {
            counters: AtomicU64::new(0),
            closed: AtomicBool::new(false),
            state: Mutex::new(ParkState {
                notified: 0,
                closed: false,
            }),
            wakeup: Condvar::new(),
            exited: Condvar::new(),
        }
    }

    /// The counters now.
    pub(crate) fn counters(&self) -> Counters {
        Counters(self.counters.load(Ordering::SeqCst))
    }

    /// Where the packed [`Counters`] word lives, for a reader outside the
    /// process (`observer.rs`): the address only, never a way to change it.
    pub(crate) fn counters_addr(&self) -> usize {
        std::ptr::from_ref(&self.counters).addr()
    }

    /// True once [`Park::close`] ran.
    pub(crate) fn is_closed(&self) -> bool {
        self.closed.load(Ordering::SeqCst)
    }

    /// Counts a new worker, born searching, if the lane is below `limit`.
    /// The caller then starts the thread, or calls [`Park::undo_add_worker`].
    /// Returns the counters before the change, or `None` at the limit.
    pub(crate) fn try_add_worker(&self, limit: usize) -> Option<Counters> {
        self.add_worker(limit, None)
    }

    /// Like [`Park::try_add_worker`], but also `None` while a worker is
    /// searching (that searcher takes the queued work, and hands the search
    /// on when it turns busy with more queued), or when `has_work` (the
    /// lane's queue depth, `SeqCst`) says nothing is queued and unclaimed.
    /// `has_work` is read after the counters the CAS compares against: a
    /// worker claims its task before it stops searching, so if the CAS
    /// succeeds, no searcher took the work `has_work` saw in between. Two
    /// callers that both saw no searcher (a submitter and the last searcher
    /// turning busy, say) start one thread between them, not two, even when
    /// the first one's thread has already claimed the task.
    pub(crate) fn try_add_searcher(
        &self,
        limit: usize,
        has_work: impl Fn() -> bool,
    ) -> Option<Counters> {
        self.add_worker(limit, Some(&has_work))
    }

    fn add_worker(
        &self,
        limit: usize,
        searcher_for: Option<&dyn Fn() -> bool>,
    ) -> Option<Counters> {
        let mut cur = self.counters.load(Ordering::SeqCst);
        loop {
            if Counters(cur).alive() >= limit {
                return None;
            }
            if let Some(has_work) = searcher_for
                && (Counters(cur).searching() > 0 || !has_work())
            {
                return None;
            }
            match self.counters.compare_exchange(
                cur,
                cur + ONE_ALIVE + ONE_SEARCHING,
                Ordering::SeqCst,
                Ordering::SeqCst,
            ) {
                Ok(prev) => return Some(Counters(prev)),
                Err(actual) => cur = actual,
            }
        }
    }

    /// The thread for a counted worker could not be started.
    pub(crate) fn undo_add_worker(&self) {
        let prev = Counters(
            self.counters
                .fetch_sub(ONE_ALIVE + ONE_SEARCHING, Ordering::SeqCst),
        );
        self.note_exit(prev);
    }

    /// Searching → busy. Returns the counters before the change, so the
    /// caller can tell whether it was the last searcher.
    pub(crate) fn work_found(&self) -> Counters {
        Counters(self.counters.fetch_sub(ONE_SEARCHING, Ordering::SeqCst))
    }

    /// Busy → searching.
    pub(crate) fn no_work_found(&self) {
        self.counters.fetch_add(ONE_SEARCHING, Ordering::SeqCst);
    }

    /// A busy worker leaves because the lane's limit shrank below `alive`.
    /// Returns true if it must exit now.
    pub(crate) fn try_retire_busy(&self, limit: usize) -> bool {
        let mut cur = self.counters.load(Ordering::SeqCst);
        loop {
            if Counters(cur).alive() <= limit {
                return false;
            }
            match self.counters.compare_exchange(
                cur,
                cur - ONE_ALIVE,
                Ordering::SeqCst,
                Ordering::SeqCst,
            ) {
                Ok(prev) => {
                    self.note_exit(Counters(prev));
                    return true;
                }
                Err(actual) => cur = actual,
            }
        }
    }

    /// Searching → sleeping, then park until woken, closed, shrunk or idle
    /// past `keep_alive`.
    ///
    /// `has_work` must read the lane's queue depth with `SeqCst`. `over_limit`
    /// says whether the lane has more threads than its limit now.
    pub(crate) fn sleep(
        &self,
        keep_alive: Duration,
        has_work: impl Fn() -> bool,
        over_limit: impl Fn(Counters) -> bool,
    ) -> Wake {
        let mut st = self.lock();
        // Announce: from here on a submitter that reads the counters sees us
        // and takes the `state` lock to wake us, which it cannot get until we
        // wait on the condvar (which releases it) or leave.
        self.counters
            .fetch_add(ONE_SLEEPING.wrapping_sub(ONE_SEARCHING), Ordering::SeqCst);
        let mut timed_out = false;
        loop {
            if st.notified > 0 {
                st.notified -= 1;
                return self.leave_sleep_searching();
            }
            // Re-check after announcing: the other half of the Dekker pair.
            if has_work() {
                return self.leave_sleep_searching();
            }
            if st.closed || timed_out || over_limit(self.counters()) {
                let prev = Counters(
                    self.counters
                        .fetch_sub(ONE_SLEEPING + ONE_ALIVE, Ordering::SeqCst),
                );
                if prev.alive() == 1 {
                    self.exited.notify_all();
                }
                return Wake::Exit;
            }
            let (guard, result) = self.wakeup.wait_timeout(st, keep_alive).unpoisoned();
            st = guard;
            timed_out = result.timed_out();
        }
    }

    fn leave_sleep_searching(&self) -> Wake {
        self.counters
            .fetch_add(ONE_SEARCHING.wrapping_sub(ONE_SLEEPING), Ordering::SeqCst);
        Wake::Search
    }

    /// Wakes one sleeper that has not already been handed a wake-up.
    /// Returns false if there was none (the caller may then start a thread).
    pub(crate) fn wake_one(&self) -> bool {
        let mut st = self.lock();
        if self.counters().sleeping() > st.notified {
            st.notified += 1;
            self.wakeup.notify_one();
            true
        } else {
            false
        }
    }

    /// Wakes every sleeper to re-check its conditions (limit shrank, closed).
    pub(crate) fn wake_all(&self) {
        let _st = self.lock();
        self.wakeup.notify_all();
    }

    /// Refuses new work from now on; sleepers drain what is queued and exit.
    pub(crate) fn close(&self) {
        let mut st = self.lock();
        st.closed = true;
        self.closed.store(true, Ordering::SeqCst);
        self.wakeup.notify_all();
    }

    /// Waits until no worker is alive or `deadline` passes. True if none is.
    pub(crate) fn wait_exited(&self, deadline: Instant) -> bool {
        let mut st = self.lock();
        loop {
            if self.counters().alive() == 0 {
                return true;
            }
            let now = Instant::now();
            if now >= deadline {
                return false;
            }
            st = self.exited.wait_timeout(st, deadline - now).unpoisoned().0;
        }
    }

    /// Called after `alive` dropped outside `sleep`: tells `wait_exited`.
    fn note_exit(&self, prev: Counters) {
        if prev.alive() == 1 {
            let _st = self.lock();
            self.exited.notify_all();
        }
    }

    fn lock(&self) -> MutexGuard<'_, ParkState> {
        lock(&self.state)
    }
}

/// Spins until `done()` or until about `budget_nanos` have passed, yielding
/// the core every 64 rounds so a spinner never starves the thread it waits
/// for on a small machine. Returns `done()`'s last answer. Under loom it does
/// not spin at all.
pub(crate) fn spin_until(budget_nanos: u64, mut done: impl FnMut() -> bool) -> bool {
    if done() {
        return true;
    }
    if SPIN_ROUNDS == 0 {
        return false;
    }
    let start = clock::now();
    let mut round: u32 = 0;
    loop {
        round = round.wrapping_add(1);
        if round.is_multiple_of(64) {
            if clock::nanos_between(start, clock::now()) > budget_nanos {
                return done();
            }
            thread::yield_now();
        } else {
            hint::spin_loop();
        }
        if done() {
            return true;
        }
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn counters_pack_and_unpack() {
        let c = Counters(3 * ONE_ALIVE + ONE_SEARCHING + ONE_SLEEPING);
        assert_eq!(
            (c.alive(), c.searching(), c.sleeping(), c.busy()),
            (3, 1, 1, 1)
        );
        assert_eq!(
            format!("{c:?}"),
            "Counters { alive: 3, searching: 1, sleeping: 1 }"
        );
    }

    #[test]
    fn add_worker_respects_the_limit() {
        let p = Park::new();
        assert!(p.try_add_worker(2).is_some());
        assert_eq!(p.try_add_worker(2).map(|c| c.alive()), Some(1));
        assert!(p.try_add_worker(2).is_none());
        assert_eq!((p.counters().alive(), p.counters().searching()), (2, 2));
        p.work_found();
        assert_eq!(p.counters().busy(), 1);
        assert!(p.try_retire_busy(1));
        assert!(!p.try_retire_busy(1));
        assert_eq!(p.counters().alive(), 1);
    }

    #[test]
    fn a_searcher_is_added_only_where_none_searches() {
        let p = Park::new();
        let work = || true;
        assert!(p.try_add_searcher(4, work).is_some());
        // The first still searches: a second caller adds none.
        assert!(p.try_add_searcher(4, work).is_none());
        assert_eq!((p.counters().alive(), p.counters().searching()), (1, 1));
        // It turned busy: the next caller adds one, if work is queued.
        p.work_found();
        assert!(p.try_add_searcher(4, || false).is_none());
        assert_eq!(p.try_add_searcher(4, work).map(|c| c.alive()), Some(1));
        assert!(p.try_add_searcher(4, work).is_none());
        assert_eq!((p.counters().alive(), p.counters().searching()), (2, 1));
        // The plain form does not look at searchers.
        assert!(p.try_add_worker(4).is_some());
        assert_eq!(p.counters().searching(), 2);
    }

    #[test]
    fn sleeper_with_queued_work_does_not_park() {
        let p = Park::new();
        assert!(p.try_add_worker(1).is_some());
        assert_eq!(
            p.sleep(Duration::from_secs(60), || true, |_| false),
            Wake::Search
        );
        assert_eq!(p.counters().searching(), 1);
        assert_eq!(p.counters().sleeping(), 0);
    }

    #[test]
    fn closed_idle_sleeper_exits() {
        let p = Park::new();
        assert!(p.try_add_worker(1).is_some());
        p.close();
        assert_eq!(
            p.sleep(Duration::from_secs(60), || false, |_| false),
            Wake::Exit
        );
        assert_eq!(p.counters().alive(), 0);
        assert!(p.wait_exited(Instant::now()));
    }

    #[test]
    fn wake_one_needs_a_sleeper() {
        let p = Park::new();
        assert!(!p.wake_one());
    }
}
