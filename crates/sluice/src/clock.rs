//! The pool's clock: raw ticks for the hot path, converted to nanoseconds only
//! when metrics are read.
//!
//! Reading `std::time::Instant` costs a `clock_gettime` call (about 20 ns);
//! the pool reads the clock three times per task (queued, started, finished),
//! so it uses [quanta](https://docs.rs/quanta), which reads the TSC where the
//! CPU has an invariant one and falls back to the OS clock otherwise.

use std::sync::OnceLock;

fn clock() -> &'static quanta::Clock {
    static CLOCK: OnceLock<quanta::Clock> = OnceLock::new();
    CLOCK.get_or_init(quanta::Clock::new)
}

/// Calibrates the clock now, so that the first task does not pay for it.
pub(crate) fn warm_up() {
    clock();
}

/// A raw, monotonic tick count.
pub(crate) fn now() -> u64 {
    clock().raw()
}

/// Nanoseconds from `start` to `end` (0 if `end` is earlier).
pub(crate) fn nanos_between(start: u64, end: u64) -> u64 {
    if end <= start {
        0
    } else {
        clock().delta_as_nanos(start, end)
    }
}
