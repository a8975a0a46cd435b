//! The tokens of a task leaving its queue: [`Vacated`], made by the one
//! transition out of `Queued`, and why it left without running ([`Aborted`]).

use crate::lane::Lane;

/// Why a queued task left its queue without running (not by a worker).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Aborted {
    Cancelled,
    Expired,
    Abandoned,
}

/// The queue place of a task that just left `Queued`. Exactly one exists per
/// task, made by the transition that moved it; it must reach the policy's
/// accounting ([`Vacated::account`]).
#[must_use = "a vacated queue slot must be accounted for"]
#[derive(Debug)]
pub(crate) struct Vacated {
    lane: Lane,
}

impl Vacated {
    /// Made only by the task cell's transitions (`task/state.rs`).
    pub(crate) fn new(lane: Lane) -> Self {
        Vacated { lane }
    }

    /// The lane whose queue the task left.
    pub(crate) fn lane(&self) -> Lane {
        self.lane
    }

    /// The policy has accounted for the slot (or, for a task refused before
    /// it was queued, there was none to account for).
    pub(crate) fn account(self) {
        std::mem::forget(self);
    }
}

impl Drop for Vacated {
    fn drop(&mut self) {
        // Reached only if a token was dropped instead of accounted: the lane's
        // depth would never come down.
        debug_assert!(
            std::thread::panicking(),
            "a vacated queue slot of lane {:?} was dropped without being accounted",
            self.lane
        );
    }
}
