//! The doctor: one verdict per window from the numbers, with the numbers
//! as evidence. The two illnesses of seed 000 §3 look alike from a
//! dashboard (requests slow down) and differ here:
//!
//! - **loop blocked**: the main thread spent at least
//!   [`LOOP_BLOCKED_PCT`] % of the window outside its epoll wait (running
//!   JavaScript, or stuck in a synchronous call): every timer, callback and
//!   request on this process waits.
//! - **pool saturated**: every pool thread was busy at once during at least
//!   [`POOL_SATURATED_PCT`] % of the window: new `fs`, `dns.lookup`, async
//!   crypto and `zlib` work queues behind what runs.
//! - **healthy**: neither.

use serde::Serialize;

/// Loop utilisation from which the loop counts as blocked.
pub const LOOP_BLOCKED_PCT: f64 = 90.0;
/// Saturation from which the pool counts as saturated.
pub const POOL_SATURATED_PCT: f64 = 80.0;

/// The doctor's verdict on one window.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, serde::Deserialize)]
pub enum Verdict {
    /// Neither the loop blocked nor the pool saturated.
    #[serde(rename = "healthy")]
    Healthy,
    /// The loop thread was busy nearly the whole window.
    #[serde(rename = "loop-blocked")]
    LoopBlocked,
    /// All pool threads were busy at once most of the window.
    #[serde(rename = "pool-saturated")]
    PoolSaturated,
    /// Both.
    #[serde(rename = "loop-blocked+pool-saturated")]
    Both,
}

impl Verdict {
    /// `healthy`, `loop-blocked`, `pool-saturated`,
    /// `loop-blocked+pool-saturated` (the JSON's and Prometheus' label).
    pub fn as_str(self) -> &'static str {
        match self {
            Verdict::Healthy => "healthy",
            Verdict::LoopBlocked => "loop-blocked",
            Verdict::PoolSaturated => "pool-saturated",
            Verdict::Both => "loop-blocked+pool-saturated",
        }
    }

    /// Every verdict, in severity order.
    pub const ALL: [Verdict; 4] = [
        Verdict::Healthy,
        Verdict::PoolSaturated,
        Verdict::LoopBlocked,
        Verdict::Both,
    ];
}

/// What the doctor reads.
#[derive(Debug, Clone, Default)]
pub struct Vitals {
    /// Pool threads (0: not started or not found).
    pub pool_size: usize,
    /// Mean busy pool threads.
    pub busy_threads: f64,
    /// Percentage of samples with every pool thread busy.
    pub saturation_pct: f64,
    /// Percentage of samples with the loop thread outside its epoll wait.
    pub loop_utilization_pct: f64,
    /// The loop's busy states and their share of samples (%), largest first.
    pub loop_states: Vec<(String, f64)>,
    /// The pool's busy states and their mean thread counts, largest first.
    pub pool_states: Vec<(String, f64)>,
    /// Mean queue depth, if read.
    pub queue_depth: Option<f64>,
}

/// The verdict on `v`, and one sentence of evidence with its numbers.
///
/// ```
/// use sluice_scope::doctor::{Verdict, Vitals, diagnose};
/// let saturated = Vitals {
///     pool_size: 4,
///     busy_threads: 4.0,
///     saturation_pct: 99.0,
///     loop_utilization_pct: 3.0,
///     pool_states: vec![("cpu".into(), 4.0)],
///     ..Vitals::default()
/// };
/// assert_eq!(diagnose(&saturated).0, Verdict::PoolSaturated);
/// let blocked = Vitals { loop_utilization_pct: 100.0, ..Vitals::default() };
/// assert_eq!(diagnose(&blocked).0, Verdict::LoopBlocked);
/// assert_eq!(diagnose(&Vitals::default()).0, Verdict::Healthy);
/// ```
pub fn diagnose(v: &Vitals) -> (Verdict, String) {
    let loop_blocked = v.loop_utilization_pct >= LOOP_BLOCKED_PCT;
    let saturated = v.pool_size > 0 && v.saturation_pct >= POOL_SATURATED_PCT;
    let verdict = match (loop_blocked, saturated) {
        (false, false) => Verdict::Healthy,
        (true, false) => Verdict::LoopBlocked,
        (false, true) => Verdict::PoolSaturated,
        (true, true) => Verdict::Both,
    };
    // States too rare to show at one decimal are left out.
    let states = |s: &[(String, f64)], unit: &str| {
        s.iter()
            .filter(|(_, x)| *x >= 0.05)
            .map(|(k, x)| format!("{k} {x:.1}{unit}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let loop_text = if loop_blocked {
        format!(
            "loop blocked: the main thread was outside epoll_pwait {:.0}% of the window ({}); timers, I/O callbacks and requests wait",
            v.loop_utilization_pct,
            states(&v.loop_states, "%")
        )
    } else {
        format!("loop {:.0}% busy", v.loop_utilization_pct)
    };
    let queue = v
        .queue_depth
        .map(|q| format!("; {q:.1} requests queued on average"))
        .unwrap_or_default();
    let pool_text = if v.pool_size == 0 {
        "no pool thread seen (libuv starts its pool at the first fs, dns.lookup, crypto or zlib call)".to_string()
    } else if saturated {
        format!(
            "pool saturated: {} busy at once {:.0}% of the window ({:.1} busy on average: {}{queue}); new fs, dns.lookup, crypto and zlib work waits",
            match v.pool_size {
                1 => "its one thread".to_string(),
                n => format!("all {n} threads"),
            },
            v.saturation_pct,
            v.busy_threads,
            states(&v.pool_states, "")
        )
    } else {
        format!(
            "pool {:.1} of {} threads busy, all busy {:.0}% of the window{queue}",
            v.busy_threads, v.pool_size, v.saturation_pct
        )
    };
    let evidence = match verdict {
        Verdict::Healthy => format!("healthy: {pool_text}; {loop_text}"),
        Verdict::LoopBlocked => format!("{loop_text}; {pool_text}"),
        Verdict::PoolSaturated => format!("{pool_text}; {loop_text}"),
        Verdict::Both => format!("{loop_text}; and {pool_text}"),
    };
    (verdict, evidence)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thresholds_are_inclusive_and_both_can_hold() {
        let v = Vitals {
            pool_size: 2,
            busy_threads: 2.0,
            saturation_pct: POOL_SATURATED_PCT,
            loop_utilization_pct: LOOP_BLOCKED_PCT,
            ..Vitals::default()
        };
        assert_eq!(diagnose(&v).0, Verdict::Both);
        let v = Vitals {
            saturation_pct: POOL_SATURATED_PCT - 0.1,
            loop_utilization_pct: LOOP_BLOCKED_PCT - 0.1,
            ..v
        };
        assert_eq!(diagnose(&v).0, Verdict::Healthy);
    }

    #[test]
    fn a_pool_not_started_is_never_saturated() {
        let v = Vitals {
            pool_size: 0,
            saturation_pct: 100.0,
            ..Vitals::default()
        };
        let (verdict, text) = diagnose(&v);
        assert_eq!(verdict, Verdict::Healthy);
        assert!(text.contains("no pool thread seen"), "{text}");
    }

    #[test]
    fn evidence_carries_the_numbers() {
        let v = Vitals {
            pool_size: 4,
            busy_threads: 3.96,
            saturation_pct: 97.0,
            loop_utilization_pct: 2.0,
            pool_states: vec![("cpu".into(), 3.9), ("read".into(), 0.06)],
            queue_depth: Some(12.0),
            ..Vitals::default()
        };
        let (_, text) = diagnose(&v);
        assert_eq!(
            text,
            "pool saturated: all 4 threads busy at once 97% of the window (4.0 busy on average: cpu 3.9, read 0.1; 12.0 requests queued on average); new fs, dns.lookup, crypto and zlib work waits; loop 2% busy"
        );
        assert_eq!(
            serde_json::to_string(&Verdict::Both).unwrap(),
            "\"loop-blocked+pool-saturated\""
        );
    }
}
