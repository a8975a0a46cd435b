//! [`Gate`]: what the diagnostic `/hold` route waits on. A held task keeps
//! one `Cpu` thread busy, without CPU, until `/release` or shutdown opens
//! the gate: a lane kept full by a count, not by a clock, so tests and demos
//! can build "the lane is saturated" exactly.

use std::sync::{Condvar, Mutex};

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
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let generation = s.generation;
        s.waiting += 1;
        while !s.open && s.generation == generation {
            s = self.opened.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        s.waiting -= 1;
    }

    /// Releases every holder waiting now; returns how many.
    pub fn release(&self) -> u64 {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.generation += 1;
        self.opened.notify_all();
        s.waiting
    }

    /// Releases every holder, now and later (at shutdown).
    pub fn open_for_good(&self) {
        let mut s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        s.open = true;
        self.opened.notify_all();
    }

    /// Holders waiting now.
    pub fn waiting(&self) -> u64 {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).waiting
    }
}
