//! Policies: how the pool turns lanes into threads. One file per policy.
//!
//! - `lanes.rs`: [`Policy::Lanes`], sluice's own: independent lanes.
//! - `libuv.rs`: [`Policy::Libuv`], libuv 1.46's thread pool, reproduced.
//!
//! Both run the same task cells (`task/`) and keep the same counters
//! (`metrics/`), so the lab compares policies, not implementations.
//!
//! The contract between [`Pool`](crate::Pool) and a policy is
//! [`Scheduler`]: the pool validates nothing and counts nothing itself; it
//! asks the policy to admit a task (a [`Slot`] token), hands the task over
//! with that token, and forwards every other call once, without matching on
//! the policy.
//!
//! # Queue slots are tokens
//!
//! A task holds one place in its lane's queue from admission until it leaves
//! `Queued`, exactly once (`task/mod.rs`). Both ends of that interval are
//! `#[must_use]` tokens rather than a convention:
//! - [`Slot`]: returned by [`Scheduler::admit`], consumed by
//!   [`Scheduler::enqueue`]. A slot cannot be enqueued twice or forgotten
//!   silently.
//! - [`Vacated`]: returned by the one transition that moves a task out of
//!   `Queued` (`Job::run`'s `started` hook, or `Job::abort`), consumed by the
//!   policy's accounting ([`Scheduler::abort`], the worker's hooks). Dropping
//!   one unaccounted is a bug that debug builds catch at once.

pub(crate) mod lanes;
pub(crate) mod libuv;
mod waiters;

pub(crate) use waiters::Waiters;

use crate::error::ConfigError;
use crate::lane::Lane;
use crate::metrics::Snapshot;
use crate::task::state::Job;
use crate::task::{Aborted, Vacated};
use std::sync::Arc;
use std::time::Instant;

/// What both policies do for [`Pool`](crate::Pool). One call each; the pool
/// owns a `Box<dyn Scheduler>`.
pub(crate) trait Scheduler: Send + Sync {
    /// Reserves a place in `lane`'s queue for one task; `how` says what a
    /// full bounded queue does (see [`Admit`]).
    fn admit(&self, lane: Lane, how: Admit) -> Result<Slot, Refused>;
    /// Reserves places for up to `n` tasks of `lane` (at least one) at
    /// once, for a batch's part: the lanes take them with one
    /// read-modify-write of the queue depth, and a bounded lane grants no
    /// more than its room. The default reserves one with
    /// [`Scheduler::admit`].
    fn admit_many(&self, lane: Lane, _n: usize, how: Admit) -> Result<Reserved, Refused> {
        self.admit(lane, how).map(Reserved::one)
    }
    /// Gives back a place reserved by [`Scheduler::admit`] and never used.
    fn release(&self, slot: Slot);
    /// The reservations waiting for room in `lane` (`None`: the lane is
    /// never full, so nobody waits).
    fn waiters(&self, lane: Lane) -> Option<&Waiters>;
    /// Queues an admitted task and gets a worker to it.
    fn enqueue(&self, slot: Slot, job: Arc<dyn Job>);
    /// Queues admitted tasks of one lane, taking them out of `batch`, all
    /// of them before any worker is woken for them (the lanes: one wake-up
    /// for the batch). The default queues them one by one.
    fn enqueue_batch(&self, batch: &mut Vec<(Slot, Arc<dyn Job>)>) {
        for (slot, job) in batch.drain(..) {
            self.enqueue(slot, job);
        }
    }
    /// The current concurrency budget of `lane`.
    fn limit(&self, lane: Lane) -> usize;
    /// Tasks queued on `lane` and not yet claimed by a worker.
    fn queued(&self, lane: Lane) -> usize;
    /// Where `lane`'s queue depth and thread counters live in memory, for
    /// a reader outside the process (`observer.rs`); `None` where they are
    /// no single words (the libuv policy counts under its lock).
    fn gauge_words(&self, _lane: Lane) -> Option<GaugeWords> {
        None
    }
    /// Changes `lane`'s budget (already checked against its range).
    fn resize(&self, lane: Lane, n: usize) -> Result<(), ConfigError>;
    /// Every counter and gauge.
    fn snapshot(&self) -> Snapshot;
    /// Refuses new work; workers drain what was accepted, then exit.
    fn close(&self);
    /// Waits for the workers until `deadline`, then fails what is queued.
    fn finish_shutdown(&self, deadline: Instant) -> LaneShutdown;
    /// A queued task was moved to `Done` by someone other than a worker
    /// (cancel, deadline reaper): account for its slot.
    fn abort(&self, job: &dyn Job, vacated: Vacated, why: Aborted);
}

/// The addresses of a lane's two gauge words ([`Scheduler::gauge_words`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct GaugeWords {
    /// The lane's queue depth: a `usize`, tasks queued and not yet claimed
    /// by a worker (`LaneSnapshot::queue_depth`).
    pub(crate) queue_depth: usize,
    /// The lane's packed thread counters: a `u64`, alive, searching and
    /// sleeping in fields of `park::FIELD_BITS` bits from bit 0.
    pub(crate) threads: usize,
}

/// What [`Scheduler::admit`] does when a bounded queue is full.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Admit {
    /// Blocks the caller until there is room (`Pool::spawn`).
    Wait,
    /// Refuses at once, counting a rejection (`Pool::try_spawn`).
    Refuse,
    /// Refuses at once without counting: an awaiting reservation that will
    /// try again when woken (`Pool::reserve`).
    Quiet,
}

/// Why a lane would not admit a task.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Refused {
    Full { bound: usize },
    Closed,
}

/// What [`Pool::shutdown`](crate::Pool::shutdown) left behind, per lane or in total.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(crate) struct LaneShutdown {
    pub(crate) abandoned: u64,
    pub(crate) still_running: u64,
}

/// A place reserved in a lane's queue by [`Scheduler::admit`]; the only way
/// to [`Scheduler::enqueue`] a task.
#[must_use = "an admitted slot must be enqueued"]
#[derive(Debug)]
pub(crate) struct Slot {
    pub(crate) lane: Lane,
    /// The lane's queue was empty before this reservation (the moment a
    /// submit may open a saturated interval).
    pub(crate) was_empty: bool,
    /// The task goes to the front part of the lane's queue, ahead of the
    /// tasks queued without it ([`Permit::spawn_first`](crate::Permit::spawn_first)).
    /// The libuv policy keeps libuv's one queue and ignores it.
    pub(crate) first: bool,
}

/// Places reserved together by [`Scheduler::admit_many`], handed out one
/// [`Slot`] at a time; the first carries whether the queue was empty
/// before them. Places never taken go back through
/// [`Scheduler::release`], one slot each.
#[must_use = "reserved places must be taken or released"]
#[derive(Debug)]
pub(crate) struct Reserved {
    lane: Lane,
    left: usize,
    was_empty: bool,
}

impl Reserved {
    /// `n` places of `lane`; `was_empty`: the queue was empty before them.
    pub(crate) fn new(lane: Lane, n: usize, was_empty: bool) -> Reserved {
        Reserved {
            lane,
            left: n,
            was_empty,
        }
    }

    /// No places.
    pub(crate) fn none(lane: Lane) -> Reserved {
        Reserved::new(lane, 0, false)
    }

    /// The one place of `slot`.
    pub(crate) fn one(slot: Slot) -> Reserved {
        Reserved::new(slot.lane, 1, slot.was_empty)
    }

    /// The next place, if one is left.
    pub(crate) fn take(&mut self) -> Option<Slot> {
        self.left = self.left.checked_sub(1)?;
        Some(Slot {
            lane: self.lane,
            was_empty: std::mem::take(&mut self.was_empty),
            first: false,
        })
    }
}
