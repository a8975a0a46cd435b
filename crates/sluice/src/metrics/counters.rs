//! Per-lane counters, cheap enough to leave on.
//!
//! Two kinds of storage, by who writes:
//! - **Worker shards** ([`WorkerShard`]): `started`, `completed`, `panicked`,
//!   `expired` (found past its deadline when popped) and the two histograms.
//!   Each shard has exactly one writer at a time, the worker that checked it
//!   out of the lane's [`Shards`] registry, so increments are a `Relaxed` load
//!   and store, never a contended read-modify-write. A retiring worker returns
//!   its shard to the free list, where the next worker picks it up: counts
//!   are never lost and shards never multiply past the peak thread count.
//! - **Shared counters** on [`LaneMetrics`]: `submitted`, `rejected`,
//!   `cancelled`, `expired` (by the deadline reaper), `abandoned`: written by
//!   any thread with `fetch_add(Relaxed)`.
//!
//! All of these are counts ("monotonically increasing, never decremented or
//! reset"). Gauges (queue depth, threads) live with the protocol state they
//! describe and are read at snapshot time.
//!
//! Every atomic here is a statistic, not a synchronization point, so every
//! access is `Relaxed` and uses `std::sync::atomic` directly even under loom
//! (see `loom.rs`).

use crate::clock;
use crate::loom::lock;
use crate::loom::sync::Mutex;
use crate::metrics::histogram::{Histogram, Merged};
use crossbeam_utils::CachePadded;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

/// Adds one to a single-writer counter (see the module docs for why a load and
/// a store suffice).
fn bump(c: &AtomicU64) {
    c.store(c.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
}

/// The counters one worker writes for one lane.
pub(crate) struct WorkerShard {
    started: AtomicU64,
    completed: AtomicU64,
    panicked: AtomicU64,
    expired: AtomicU64,
    queue_wait: Histogram,
    run_time: Histogram,
}

impl WorkerShard {
    fn new() -> Self {
        WorkerShard {
            started: AtomicU64::new(0),
            completed: AtomicU64::new(0),
            panicked: AtomicU64::new(0),
            expired: AtomicU64::new(0),
            queue_wait: Histogram::new(),
            run_time: Histogram::new(),
        }
    }

    /// A task started after waiting `queue_wait_ns` in its queue.
    pub(crate) fn started(&self, queue_wait_ns: u64, timed: bool) {
        bump(&self.started);
        if timed {
            self.queue_wait.record(queue_wait_ns);
        }
    }

    /// A task finished running after `run_ns`, panicking or not.
    pub(crate) fn finished(&self, run_ns: u64, panicked: bool, timed: bool) {
        bump(if panicked {
            &self.panicked
        } else {
            &self.completed
        });
        if timed {
            self.run_time.record(run_ns);
        }
    }

    /// A worker popped a task whose deadline had passed and failed it.
    pub(crate) fn expired(&self) {
        bump(&self.expired);
    }
}

/// A worker's exclusive claim on a shard; returns it to the free list on drop.
pub(crate) struct ShardLease<'a> {
    shards: &'a Shards,
    shard: Option<Arc<WorkerShard>>,
}

impl std::ops::Deref for ShardLease<'_> {
    type Target = WorkerShard;
    fn deref(&self) -> &WorkerShard {
        self.shard.as_ref().expect("present until drop")
    }
}

impl Drop for ShardLease<'_> {
    fn drop(&mut self) {
        if let Some(shard) = self.shard.take() {
            lock(&self.shards.registry).free.push(shard);
        }
    }
}

#[derive(Default)]
struct Registry {
    all: Vec<Arc<WorkerShard>>,
    free: Vec<Arc<WorkerShard>>,
}

/// The shards of one lane.
#[derive(Default)]
pub(crate) struct Shards {
    registry: Mutex<Registry>,
}

impl Shards {
    /// Checks out a shard for a worker's exclusive use.
    pub(crate) fn lease(&self) -> ShardLease<'_> {
        let mut reg = lock(&self.registry);
        let shard = match reg.free.pop() {
            Some(shard) => shard,
            None => {
                let shard = Arc::new(WorkerShard::new());
                reg.all.push(shard.clone());
                shard
            }
        };
        ShardLease {
            shards: self,
            shard: Some(shard),
        }
    }
}

/// Time the lane spent saturated: its whole budget busy with work still queued.
///
/// Edge-triggered: whoever changes queue depth, busy threads or the limit
/// re-evaluates the predicate and, on a flip, starts or stops the clock. Under
/// a sustained flood nothing flips, so nothing is timed per task.
#[derive(Default)]
pub(crate) struct Saturation {
    /// Raw clock ticks when the current saturated interval began; 0 if none.
    since: AtomicU64,
    /// Nanoseconds of finished saturated intervals.
    total_ns: AtomicU64,
}

impl Saturation {
    /// Re-evaluates after a change; `saturated` reads the lane's state
    /// (with `SeqCst` loads). Concurrent callers may race, but `since` is
    /// claimed with a CAS and released with a swap, so each interval is
    /// opened once and closed once; never counted twice, never negative.
    ///
    /// A reading can be stale by the time the clock moves: a caller that read
    /// "saturated" may be preempted while the lane drains and another caller
    /// finds the clock closed and does nothing. So after opening (or closing)
    /// the predicate is read again and, if it changed, the step is undone.
    /// With every access `SeqCst` the last change of the lane's state is
    /// always followed by a reading that sees it: the change's own caller
    /// either finds the interval open and closes it, or its load of `since`
    /// precedes the opener's CAS, and then the opener's re-reading follows
    /// the change.
    pub(crate) fn update(&self, saturated: impl Fn() -> bool) {
        // A few rounds at most: each one follows a real change of the lane.
        for _ in 0..4 {
            let sat = saturated();
            let since = self.since.load(Ordering::SeqCst);
            if sat && since == 0 {
                if self
                    .since
                    .compare_exchange(0, clock::now().max(1), Ordering::SeqCst, Ordering::SeqCst)
                    .is_err()
                {
                    return; // someone else opened it
                }
            } else if !sat && since != 0 {
                let began = self.since.swap(0, Ordering::SeqCst);
                if began == 0 {
                    return; // someone else closed it
                }
                self.total_ns
                    .fetch_add(clock::nanos_between(began, clock::now()), Ordering::Relaxed);
            } else {
                return;
            }
            if saturated() == sat {
                return;
            }
        }
    }

    /// Seconds saturated so far, including an interval still open.
    pub(crate) fn seconds(&self) -> f64 {
        let mut ns = self.total_ns.load(Ordering::Relaxed);
        let since = self.since.load(Ordering::Relaxed);
        if since != 0 {
            ns += clock::nanos_between(since, clock::now());
        }
        ns as f64 / 1e9
    }
}

/// The shared event counters of a lane, declared once: each `method =>
/// field` is a counter in [`Events`], its total in [`EventTotals`], and
/// `LaneMetrics::method`, which counts one event.
macro_rules! events {
    ($($(#[$doc:meta])* $method:ident => $field:ident,)+) => {
        /// The shared event counters of a lane (`fetch_add(Relaxed)`, any
        /// thread).
        #[derive(Default)]
        struct Events {
            $($(#[$doc])* $field: AtomicU64,)+
        }

        /// What [`Events`] held when read.
        pub(crate) struct EventTotals {
            $($(#[$doc])* pub(crate) $field: u64,)+
        }

        impl Events {
            fn totals(&self) -> EventTotals {
                EventTotals {
                    $($field: self.$field.load(Ordering::Relaxed),)+
                }
            }
        }

        impl LaneMetrics {
            $(
                /// Counts one event of its kind.
                pub(crate) fn $method(&self) {
                    self.events.$field.fetch_add(1, Ordering::Relaxed);
                }
            )+
        }
    };
}

events! {
    rejected => rejected,
    cancelled => cancelled,
    /// By the deadline reaper (a worker's are in its shard).
    expired => expired,
    abandoned => abandoned,
    spawn_failed => spawn_failures,
    /// Threads started beyond the lane's budget (blocking compensation).
    compensated => compensated,
    /// Blocking sections entered (`sluice::blocking`).
    declared => declared,
    /// Blocked tasks the monitor found.
    detected => detected,
}

/// Everything counted about one lane.
pub(crate) struct LaneMetrics {
    /// When false, no clock is read and no histogram recorded; counts remain.
    /// Only for measuring what the timing costs.
    pub(crate) timed: bool,
    submitted: CachePadded<AtomicU64>,
    events: Events,
    /// The most threads alive at once.
    peak: AtomicU64,
    pub(crate) saturation: Saturation,
    pub(crate) shards: Shards,
}

/// Totals read from a [`LaneMetrics`].
pub(crate) struct Totals {
    pub(crate) submitted: u64,
    pub(crate) started: u64,
    pub(crate) completed: u64,
    pub(crate) panicked: u64,
    /// Every expiry: the reaper's (`events.expired`) and the workers'.
    pub(crate) expired: u64,
    pub(crate) events: EventTotals,
    pub(crate) peak: u64,
    pub(crate) saturated_seconds: f64,
    pub(crate) queue_wait: Merged,
    pub(crate) run_time: Merged,
}

/// The gauges a policy reads from its own state for a [`LaneSnapshot`].
pub(crate) struct Gauges {
    pub(crate) lane: crate::lane::Lane,
    pub(crate) limit: u64,
    pub(crate) queue_bound: Option<u64>,
    pub(crate) queue_depth: u64,
    /// Reservations awaiting room (`Pool::reserve`).
    pub(crate) reservations_waiting: u64,
    /// `(alive, idle)` for a lane with threads of its own.
    pub(crate) threads: Option<(u64, u64)>,
    /// Blocking compensation's gauges (lanes policy).
    pub(crate) adaptive: Option<AdaptiveGauges>,
    /// A guarded `Cpu` lane's `(promoted, promotions, refused)`.
    pub(crate) guard: Option<(bool, u64, u64)>,
}

/// The gauges of a lane's blocking compensation.
pub(crate) struct AdaptiveGauges {
    pub(crate) on: bool,
    pub(crate) max_threads: u64,
    pub(crate) blocked: u64,
}

impl Totals {
    /// The lane's snapshot: these counts plus the policy's gauges.
    pub(crate) fn snapshot(self, g: Gauges) -> crate::metrics::LaneSnapshot {
        use crate::metrics::HistogramSnapshot;
        crate::metrics::LaneSnapshot {
            lane: g.lane,
            limit: g.limit,
            queue_bound: g.queue_bound,
            submitted_total: self.submitted,
            started_total: self.started,
            completed_total: self.completed,
            panicked_total: self.panicked,
            rejected_total: self.events.rejected,
            cancelled_total: self.events.cancelled,
            expired_total: self.expired,
            abandoned_total: self.events.abandoned,
            spawn_failures_total: self.events.spawn_failures,
            adaptive: g.adaptive.as_ref().is_some_and(|a| a.on),
            max_threads: g.adaptive.as_ref().map(|a| a.max_threads),
            blocked_threads: g.adaptive.as_ref().map(|a| a.blocked),
            sched_promoted: g.guard.map(|g| g.0),
            sched_promotions_total: g.guard.map(|g| g.1),
            sched_refused_total: g.guard.map(|g| g.2),
            compensated_total: self.events.compensated,
            blocking_sections_total: self.events.declared,
            blocked_detected_total: self.events.detected,
            threads_peak: g.threads.map(|_| self.peak),
            queue_depth: g.queue_depth,
            reservations_waiting: g.reservations_waiting,
            in_flight: self.started.saturating_sub(self.completed + self.panicked),
            threads_alive: g.threads.map(|t| t.0),
            threads_idle: g.threads.map(|t| t.1),
            saturated_seconds_total: self.saturated_seconds,
            queue_wait_seconds: HistogramSnapshot::from_merged(&self.queue_wait),
            run_time_seconds: HistogramSnapshot::from_merged(&self.run_time),
        }
    }
}

impl LaneMetrics {
    pub(crate) fn new(timed: bool) -> Self {
        LaneMetrics {
            timed,
            submitted: CachePadded::new(AtomicU64::new(0)),
            events: Events::default(),
            peak: AtomicU64::new(0),
            saturation: Saturation::default(),
            shards: Shards::default(),
        }
    }

    /// `n` tasks were submitted.
    pub(crate) fn submitted(&self, n: u64) {
        self.submitted.fetch_add(n, Ordering::Relaxed);
    }
    /// `alive` threads exist now: raise the peak if it is higher.
    pub(crate) fn peak_threads(&self, alive: usize) {
        self.peak.fetch_max(alive as u64, Ordering::Relaxed);
    }

    /// Reads every count. Not atomic across counters: a snapshot of a busy
    /// pool may be a few events apart between fields; of an idle one, exact.
    pub(crate) fn totals(&self) -> Totals {
        let events = self.events.totals();
        let mut t = Totals {
            submitted: self.submitted.load(Ordering::Relaxed),
            started: 0,
            completed: 0,
            panicked: 0,
            expired: events.expired,
            events,
            peak: self.peak.load(Ordering::Relaxed),
            saturated_seconds: self.saturation.seconds(),
            queue_wait: Merged::new(),
            run_time: Merged::new(),
        };
        let reg = lock(&self.shards.registry);
        for s in &reg.all {
            t.started += s.started.load(Ordering::Relaxed);
            t.completed += s.completed.load(Ordering::Relaxed);
            t.panicked += s.panicked.load(Ordering::Relaxed);
            t.expired += s.expired.load(Ordering::Relaxed);
            t.queue_wait.add(&s.queue_wait);
            t.run_time.add(&s.run_time);
        }
        t
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    /// One task on `shard`: started after a 10 ns wait, ended after 20 ns,
    /// panicked or not.
    fn ran(shard: &ShardLease<'_>, panicked: bool, timed: bool) {
        shard.started(10, timed);
        shard.finished(20, panicked, timed);
    }

    #[test]
    fn leased_shards_are_reused_and_counts_survive() {
        let m = LaneMetrics::new(true);
        ran(&m.shards.lease(), false, true);
        {
            let b = m.shards.lease(); // reuses the returned shard
            ran(&b, true, true);
            let c = m.shards.lease(); // a second concurrent worker gets a new one
            c.expired();
        }
        let t = m.totals();
        assert_eq!(
            (t.started, t.completed, t.panicked, t.expired),
            (2, 1, 1, 1)
        );
        assert_eq!(lock(&m.shards.registry).all.len(), 2);
        assert_eq!(t.queue_wait.counts.iter().sum::<u64>(), 2);
    }

    #[test]
    fn untimed_shards_count_but_do_not_record() {
        let m = LaneMetrics::new(false);
        ran(&m.shards.lease(), false, false);
        let t = m.totals();
        assert_eq!((t.started, t.completed), (1, 1));
        assert_eq!(t.run_time.counts.iter().sum::<u64>(), 0);
    }

    #[test]
    fn saturation_opens_and_closes_intervals_once() {
        let s = Saturation::default();
        s.update(|| false);
        assert_eq!(s.seconds(), 0.0);
        s.update(|| true);
        s.update(|| true); // already open: no new interval
        std::thread::sleep(std::time::Duration::from_millis(2));
        s.update(|| false);
        let closed = s.seconds();
        assert!(closed > 0.0);
        s.update(|| false);
        assert_eq!(s.seconds(), closed);
    }

    /// The race a one-reading clock lost: a caller read "saturated", the lane
    /// drained before it opened the interval, and the drain's own caller had
    /// found nothing open to close. The interval then stayed open on an idle
    /// lane, counting seconds forever. Here the lane drains between the
    /// caller's first reading and its second.
    #[test]
    fn a_stale_saturated_reading_does_not_leave_the_clock_open() {
        let s = Saturation::default();
        let readings = std::cell::Cell::new(0);
        // First reading: saturated (stale); every later one: idle.
        s.update(|| {
            readings.set(readings.get() + 1);
            readings.get() == 1
        });
        assert_eq!(
            s.since.load(Ordering::SeqCst),
            0,
            "left open on an idle lane"
        );
        // Open on the stale reading, re-read (idle), then closed and confirmed.
        assert_eq!(readings.get(), 4);
        let after = s.seconds();
        std::thread::sleep(std::time::Duration::from_millis(2));
        assert_eq!(s.seconds(), after, "an idle lane's clock must not run");
    }
}
