//! [`Gate`]: what the diagnostic `/hold` route waits on. A held task keeps
//! one `Cpu` thread busy, without CPU, until `/release` or shutdown opens
//! the gate: a lane kept full by a count, not by a clock, so tests and demos
//! can build "the lane is saturated" exactly.

use sluice::sync::{Unpoison, lock};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Condvar, Mutex};
use std::time::{Duration, Instant};

/// What ended a [`Gate::hold_for`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HoldEnd {
    /// `/release` or shutdown.
    Released,
    /// The hold's timeout passed.
    TimedOut,
    /// Its client hung up.
    Abandoned,
}

/// Holds pool threads until released.
#[derive(Debug, Default)]
pub struct Gate {
    state: Mutex<State>,
    opened: Condvar,
}

#[derive(Debug, Default)]
struct State {
    /// Bumped by every release; a holder waits for it to change.
    generation: u64,
    /// Holders waiting now.
    waiting: u64,
    /// Open for good (shutdown): holders return at once.
    open: bool,
}

impl Gate {
    /// Blocks the calling thread until the next [`release`](Gate::release)
    /// or [`open_for_good`](Gate::open_for_good).
    ///
    /// ```
    /// use sluice_serve::gate::Gate;
    /// use std::sync::Arc;
    ///
    /// let gate = Arc::new(Gate::default());
    /// let g = Arc::clone(&gate);
    /// let holder = std::thread::spawn(move || g.hold());
    /// while gate.waiting() == 0 { std::thread::yield_now(); }
    /// assert_eq!(gate.release(), 1);
    /// holder.join().unwrap();
    /// gate.open_for_good();
    /// gate.hold(); // returns at once
    /// assert_eq!(gate.waiting(), 0);
    /// ```
    pub fn hold(&self) {
        let mut s = lock(&self.state);
        let generation = s.generation;
        s.waiting += 1;
        while !s.open && s.generation == generation {
            s = self.opened.wait(s).unpoisoned();
        }
        s.waiting -= 1;
    }

    /// Like [`hold`](Gate::hold), but also ends after `timeout`, or once
    /// `abandoned` is set and [`wake_all`](Gate::wake_all) called (its
    /// client hung up); says which ended it.
    ///
    /// ```
    /// use sluice_serve::gate::{Gate, HoldEnd};
    /// use std::sync::atomic::AtomicBool;
    /// use std::time::Duration;
    ///
    /// let gate = Gate::default();
    /// let gone = AtomicBool::new(false);
    /// assert_eq!(gate.hold_for(Duration::from_millis(1), &gone), HoldEnd::TimedOut);
    /// gone.store(true, std::sync::atomic::Ordering::Relaxed);
    /// assert_eq!(gate.hold_for(Duration::from_secs(60), &gone), HoldEnd::Abandoned);
    /// gate.open_for_good();
    /// assert_eq!(gate.hold_for(Duration::from_secs(60), &AtomicBool::new(false)), HoldEnd::Released);
    /// assert_eq!(gate.waiting(), 0);
    /// ```
    pub fn hold_for(&self, timeout: Duration, abandoned: &AtomicBool) -> HoldEnd {
        // A timeout past what an Instant holds waits as long as a day at a time.
        let now = Instant::now();
        let until = now
            .checked_add(timeout)
            .unwrap_or(now + Duration::from_secs(86_400));
        let mut s = lock(&self.state);
        let generation = s.generation;
        s.waiting += 1;
        let end = loop {
            if s.open || s.generation != generation {
                break HoldEnd::Released;
            }
            // Relaxed: read under the gate's lock, which wake_all takes.
            if abandoned.load(Ordering::Relaxed) {
                break HoldEnd::Abandoned;
            }
            let now = Instant::now();
            if now >= until {
                break HoldEnd::TimedOut;
            }
            s = self.opened.wait_timeout(s, until - now).unpoisoned().0;
        };
        s.waiting -= 1;
        end
    }

    /// Wakes every holder to look at its `abandoned` flag (see
    /// [`hold_for`](Gate::hold_for)); releases none.
    pub fn wake_all(&self) {
        let _s = lock(&self.state);
        self.opened.notify_all();
    }

    /// Releases every holder waiting now; returns how many.
    pub fn release(&self) -> u64 {
        let mut s = lock(&self.state);
        s.generation += 1;
        self.opened.notify_all();
        s.waiting
    }

    /// Releases every holder, now and later (at shutdown).
    pub fn open_for_good(&self) {
        let mut s = lock(&self.state);
        s.open = true;
        self.opened.notify_all();
    }

    /// Holders waiting now.
    pub fn waiting(&self) -> u64 {
        lock(&self.state).waiting
    }
}
