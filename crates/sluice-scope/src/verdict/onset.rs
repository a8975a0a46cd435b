//! [`Onsets`]: since when the loop has been busy and the pool saturated,
//! counted over samples across windows, so that when both hold the doctor
//! can say which came first.
//!
//! A condition holds at a sample when, over the last [`SPAN_S`], the
//! share of samples with it reaches the doctor's threshold (90 % for the
//! loop, 80 % for the pool): a loop that answers a callback now and then is
//! not blocked. A run starts where the condition begins to hold (at the
//! oldest sample of that span) after more than [`GAP_S`] without it: a
//! loop that runs a 150 ms callback every 50 ms is one run. A run that
//! started at scope's first sample began before scope attached: its start
//! is not known.

use crate::verdict::doctor::{LOOP_BLOCKED_PCT, POOL_SATURATED_PCT};
use std::collections::VecDeque;

/// Longest pause that does not end a run, in seconds.
pub(crate) const GAP_S: f64 = 0.5;
/// The span over which a condition's share is counted, in seconds.
pub(crate) const SPAN_S: f64 = 0.25;
/// Fewest samples in a span to judge it.
const MIN_SAMPLES: usize = 5;

/// One condition's current run.
#[derive(Debug, Clone, Default, PartialEq)]
struct Run {
    threshold_pct: f64,
    span: VecDeque<(f64, bool)>,
    start: Option<f64>,
    last: Option<f64>,
}

impl Run {
    fn new(threshold_pct: f64) -> Run {
        Run {
            threshold_pct,
            ..Run::default()
        }
    }

    fn add(&mut self, t: f64, busy: bool) {
        self.span.push_back((t, busy));
        while self.span.front().is_some_and(|(s, _)| t - s > SPAN_S) {
            self.span.pop_front();
        }
        let n = self.span.len();
        let hits = self.span.iter().filter(|(_, b)| *b).count();
        let holds = n >= MIN_SAMPLES && 100.0 * hits as f64 >= self.threshold_pct * n as f64;
        if !holds {
            return;
        }
        let fresh = self.last.is_none_or(|last| t - last > GAP_S);
        if fresh {
            self.start = self.span.front().map(|(s, _)| *s);
        }
        self.last = Some(t);
    }

    /// The run's start, if the condition held within the last [`GAP_S`].
    fn since(&self, now: f64) -> Option<f64> {
        match (self.start, self.last) {
            (Some(s), Some(l)) if now - l <= GAP_S => Some(s),
            _ => None,
        }
    }
}

/// The runs of the loop being busy and the pool being saturated.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Onsets {
    first_sample: Option<f64>,
    loop_busy: Run,
    pool_saturated: Run,
}

impl Default for Onsets {
    fn default() -> Onsets {
        Onsets {
            first_sample: None,
            loop_busy: Run::new(LOOP_BLOCKED_PCT),
            pool_saturated: Run::new(POOL_SATURATED_PCT),
        }
    }
}

/// Which began first, for the doctor.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Order {
    /// When the loop's run began, in seconds since scope attached.
    pub loop_since_s: f64,
    /// When the pool's run began.
    pub pool_since_s: f64,
    /// The loop's run began at scope's first sample (before scope came).
    pub loop_before_scope: bool,
    /// The pool's run began at scope's first sample.
    pub pool_before_scope: bool,
}

impl Order {
    /// `loop`, `pool`, `together` (within [`SPAN_S`] of each other) or
    /// `unknown` (both began before scope attached).
    ///
    pub fn first(&self) -> &'static str {
        match (self.loop_before_scope, self.pool_before_scope) {
            (true, true) => "unknown",
            (true, false) => "loop",
            (false, true) => "pool",
            _ if (self.loop_since_s - self.pool_since_s).abs() <= SPAN_S => "together",
            _ if self.loop_since_s < self.pool_since_s => "loop",
            _ => "pool",
        }
    }
}

impl Onsets {
    /// Counts one sample at `t` seconds since attach.
    pub(crate) fn add(&mut self, t: f64, loop_busy: bool, pool_saturated: bool) {
        self.first_sample.get_or_insert(t);
        self.loop_busy.add(t, loop_busy);
        self.pool_saturated.add(t, pool_saturated);
    }

    /// Both runs as they stand at `now`, if both are on.
    pub(crate) fn order(&self, now: f64) -> Option<Order> {
        let first = self.first_sample?;
        let l = self.loop_busy.since(now)?;
        let p = self.pool_saturated.since(now)?;
        Some(Order {
            loop_since_s: l,
            pool_since_s: p,
            loop_before_scope: l <= first,
            pool_before_scope: p <= first,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn which_came_first_is_named() {
        let o = Order {
            loop_since_s: 3.0,
            pool_since_s: 1.0,
            loop_before_scope: false,
            pool_before_scope: false,
        };
        assert_eq!(o.first(), "pool");
        let o = Order {
            loop_before_scope: true,
            pool_since_s: 2.0,
            ..o
        };
        assert_eq!(o.first(), "loop");
    }

    #[test]
    fn runs_survive_short_gaps_and_say_which_came_first() {
        let mut o = Onsets::default();
        // Pool saturated throughout; the loop busy one sample in ten until
        // 1.5 s, then always, with a 0.1 s pause at 2.0 s.
        let mut t = 0.0;
        let mut i = 0;
        while t < 3.0 {
            i += 1;
            let loop_busy = (t >= 1.5 || i % 10 == 0) && !(2.0..2.1).contains(&t);
            o.add(t, loop_busy, true);
            t += 0.005;
        }
        let order = o.order(t).unwrap();
        assert!((order.loop_since_s - 1.5).abs() < 0.05, "{order:?}");
        assert_eq!(order.pool_since_s, 0.0);
        assert!(order.pool_before_scope && !order.loop_before_scope);
        assert_eq!(order.first(), "pool");
        // A pause longer than the gap starts a new run, for both.
        let t1 = t + 1.0;
        for k in 0..50 {
            o.add(t1 + f64::from(k) * 0.005, true, true);
        }
        let order = o.order(t1 + 0.25).unwrap();
        assert_eq!(order.first(), "together");
        // One condition off for longer than the gap: no order.
        for k in 0..200 {
            o.add(t1 + 0.3 + f64::from(k) * 0.005, false, true);
        }
        assert_eq!(o.order(t1 + 1.3), None);
    }
}
