//! The doctor: one verdict per window from the numbers, with the numbers
//! as evidence. The two illnesses of seed 000 §3 look alike from a
//! dashboard (requests slow down) and differ here:
//!
//! - **loop blocked**: the main thread spent at least
//!   [`LOOP_BLOCKED_PCT`] % of the window outside its epoll wait (running
//!   JavaScript, or stuck in a synchronous call): every timer, callback and
//!   request on this process waits. Or it spent at least
//!   [`LOOP_STALLED_PCT`] % of the window in stretches of at least
//!   [`LOOP_STALL_MS`] outside it: synchronous calls that hold every
//!   timer and request for their length, with the loop idle only in the
//!   short gaps between them (a 40 ms `JSON.parse` every 50 ms keeps the
//!   loop 80 % busy in 40 ms stretches; by utilisation alone it would be
//!   healthy).
//! - **pool saturated**: every pool thread was busy at once during at least
//!   [`POOL_SATURATED_PCT`] % of the window: new `fs`, `dns.lookup`, async
//!   crypto and `zlib` work queues behind what runs.
//! - **slow I/O throttled** (seed 001's asymmetry): in at least
//!   [`SLOW_IO_THROTTLED_PCT`] % of the queue readings, slow I/O
//!   (`dns.lookup`, `dns.lookupService`: libuv's `UV__WORK_SLOW_IO`) was
//!   waiting in `slow_io_pending_wq` while `slow_io_work_running` stood at
//!   libuv's limit of `(n + 1) / 2` threads ([`slow_io_limit`]), and the
//!   pool was not saturated. libuv keeps the other threads for fs, crypto
//!   and zlib, so lookups queue while threads sit idle: the pool looks half
//!   busy and "healthy" by utilisation, and every lookup waits. Both figures
//!   are read from libuv's statics in memory (the symbol table says where);
//!   without symbols this verdict cannot be reached. A saturated pool wins:
//!   at pool size 1 the limit is the whole pool, and all work waits.
//! - **unknown**: the pool could not be found (every method failed, or
//!   only a futex method ran and no pool thread was idle to be seen): a
//!   pool scope cannot see is never called healthy. The reason is the
//!   evidence. A blocked loop is still reported as such. Also unknown:
//!   without libuv's symbols (its slow-I/O counters unreadable), when
//!   `(n + 1) / 2` threads sat in the resolver's network calls for at least
//!   [`SLOW_IO_THROTTLED_PCT`] % of the window: lookups may wait behind
//!   libuv's limit, and that queue cannot be read.
//! - **healthy**: none of these, with the pool found (or known not to have
//!   started).
//!
//! The loop verdict combines with either pool verdict (`loop-blocked+...`).
//! When the loop is blocked and the pool saturated, the evidence says which
//! came first (from the runs of samples in `onset.rs`: the loop busy, every
//! pool thread busy) and what each is doing, in words: the loop running
//! JavaScript or in a system call, the pool's threads on a CPU (crypto,
//! zlib), in file system calls, or in `getaddrinfo`.

use crate::verdict::onset::Order;
use serde::Serialize;

/// Loop utilisation from which the loop counts as blocked.
pub const LOOP_BLOCKED_PCT: f64 = 90.0;
/// A stretch outside the epoll wait at least this long (ms) is a stall:
/// four samples at scope's default 200 Hz. A stretch is measured from its
/// first busy sample to its last, so a lone busy sample counts 0 ms
/// (below the sampling interval nothing is known of its length).
pub const LOOP_STALL_MS: f64 = 20.0;
/// Share of the window (%) in stalls from which the loop counts as blocked
/// whatever its utilisation.
pub const LOOP_STALLED_PCT: f64 = 60.0;
/// Saturation from which the pool counts as saturated.
pub const POOL_SATURATED_PCT: f64 = 80.0;
/// Share of queue readings with slow I/O throttled from which the verdict
/// is `slow-io-throttled`.
pub const SLOW_IO_THROTTLED_PCT: f64 = 80.0;

/// libuv's limit on pool threads running slow I/O at once,
/// `slow_work_thread_threshold()`: `(n + 1) / 2` for a pool of `n`
/// (sluice's one copy of the rule, [`sluice::compat::slow_work_thread_threshold`]).
///
/// ```
/// use sluice_scope::verdict::doctor::slow_io_limit;
/// assert_eq!([1, 2, 4, 5, 16].map(slow_io_limit), [1, 1, 2, 3, 8]);
/// ```
pub fn slow_io_limit(pool_size: usize) -> usize {
    sluice::compat::slow_work_thread_threshold(pool_size)
}

/// The doctor's verdict on one window: sluice's one vocabulary (scope
/// gives the verdicts about a whole pool, [`Verdict::ALL`]).
pub use sluice_health::Verdict;

/// What the doctor reads.
#[derive(Debug, Clone, Default)]
pub struct Vitals {
    /// Pool threads (0: not started or not found).
    pub pool_size: usize,
    /// Why the pool could not be found, when it could not: the verdict is
    /// then [`Verdict::Unknown`] (unless the loop is blocked).
    pub pool_unknown: Option<String>,
    /// Mean busy pool threads.
    pub busy_threads: f64,
    /// Percentage of samples with every pool thread busy.
    pub saturation_pct: f64,
    /// Percentage of samples with the loop thread outside its epoll wait.
    pub loop_utilization_pct: f64,
    /// Percentage of samples in stretches outside the epoll wait of at
    /// least [`LOOP_STALL_MS`].
    pub loop_stalled_pct: f64,
    /// The longest such stretch in the window, in ms (first busy sample to
    /// last).
    pub loop_longest_ms: f64,
    /// The loop's busy states and their share of samples (%), largest first.
    pub loop_states: Vec<(String, f64)>,
    /// The pool's busy states and their mean thread counts, largest first.
    pub pool_states: Vec<(String, f64)>,
    /// Mean queue depth, if read.
    pub queue_depth: Option<f64>,
    /// Of it, mean slow I/O waiting (`slow_io_pending_wq`), if read.
    pub slow_queue_depth: Option<f64>,
    /// Mean slow I/O running on pool threads (`slow_io_work_running`), if
    /// read.
    pub slow_io_running: Option<f64>,
    /// Share of queue readings (%) with slow I/O waiting while
    /// `slow_io_work_running` stood at [`slow_io_limit`], if read.
    pub slow_io_throttled_pct: Option<f64>,
    /// Where that cannot be read (no symbols): share of samples (%) with
    /// at least [`slow_io_limit`] pool threads in the resolver's network
    /// calls. From [`SLOW_IO_THROTTLED_PCT`] the verdict is `unknown`, not
    /// `healthy`: lookups may be queued behind libuv's limit, unseen.
    pub resolver_at_limit_pct: Option<f64>,
    /// Since when the loop has been busy and the pool saturated, when both
    /// are (the session counts it across windows).
    pub order: Option<Order>,
}

/// Since when the loop has been blocked and the pool saturated, and which
/// came first: the JSON's `onset`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Onset {
    /// Start of the loop's run, in seconds since scope attached (0 or the
    /// first sample: it began before scope came).
    pub loop_blocked_since_s: f64,
    /// Start of the pool's run.
    pub pool_saturated_since_s: f64,
    /// `loop`, `pool`, `together`, or `unknown` (both before scope came).
    pub first: &'static str,
}

impl From<Order> for Onset {
    fn from(o: Order) -> Onset {
        Onset {
            loop_blocked_since_s: o.loop_since_s,
            pool_saturated_since_s: o.pool_since_s,
            first: o.first(),
        }
    }
}

/// What the loop thread's busy states mean, largest first.
///
/// ```
/// use sluice_scope::verdict::doctor::loop_doing;
/// let s = loop_doing(&[("cpu".into(), 97.0), ("read".into(), 2.0)]);
/// assert_eq!(s, "running JavaScript or a synchronous native call on a CPU 97% (sluice scope PID --profile names the JavaScript), in read(2) 2% (a synchronous system call: fs.*Sync, or a native module)");
/// ```
pub fn loop_doing(states: &[(String, f64)]) -> String {
    let parts: Vec<String> = states
        .iter()
        .filter(|(_, x)| *x >= 0.5)
        .map(|(k, x)| match k.as_str() {
            "cpu" => format!(
                "running JavaScript or a synchronous native call on a CPU {x:.0}% (sluice scope PID --profile names the JavaScript)"
            ),
            "futex" => format!("waiting on a lock {x:.0}% (Atomics.wait, or a native module)"),
            sc => format!(
                "in {sc}(2) {x:.0}% (a synchronous system call: fs.*Sync, or a native module)"
            ),
        })
        .collect();
    if parts.is_empty() {
        "in no state long enough to name".into()
    } else {
        parts.join(", ")
    }
}

/// What the pool threads' busy states mean, largest first.
///
/// ```
/// use sluice_scope::verdict::doctor::pool_doing;
/// let s = pool_doing(&[("cpu".into(), 3.0), ("poll".into(), 1.0)]);
/// assert_eq!(s, "3.0 threads on a CPU (crypto: pbkdf2, scrypt, randomBytes; zlib), 1.0 in getaddrinfo (dns.lookup)");
/// ```
pub fn pool_doing(states: &[(String, f64)]) -> String {
    states
        .iter()
        .filter(|(_, x)| *x >= 0.05)
        .enumerate()
        .map(|(i, (k, x))| {
            let what = match k.as_str() {
                "cpu" => "on a CPU (crypto: pbkdf2, scrypt, randomBytes; zlib)".to_string(),
                "poll" | "connect" | "sendto" | "recvfrom" | "sendmmsg" | "recvmsg" => {
                    "in getaddrinfo (dns.lookup)".to_string()
                }
                "futex" => "waiting on a lock".to_string(),
                sc => format!("in {sc}(2) (fs)"),
            };
            format!("{x:.1} {}{what}", if i == 0 { "threads " } else { "" })
        })
        .collect::<Vec<_>>()
        .join(", ")
}

/// The verdict on `v`, and one sentence of evidence with its numbers.
///
/// ```
/// use sluice_scope::verdict::doctor::{Verdict, Vitals, diagnose};
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
/// // A pool that could not be found is never healthy.
/// let unseen = Vitals { pool_unknown: Some("no thread found".into()), ..Vitals::default() };
/// assert_eq!(diagnose(&unseen).0, Verdict::Unknown);
/// // 32 dns.lookup at pool 4: 2 run (libuv's limit), 30 wait, 2 threads idle.
/// let throttled = Vitals {
///     pool_size: 4,
///     busy_threads: 2.0,
///     slow_queue_depth: Some(30.0),
///     slow_io_running: Some(2.0),
///     slow_io_throttled_pct: Some(100.0),
///     ..Vitals::default()
/// };
/// assert_eq!(diagnose(&throttled).0, Verdict::SlowIoThrottled);
/// ```
pub fn diagnose(v: &Vitals) -> (Verdict, String) {
    let found = Findings::of(v);
    let verdict = found.verdict();
    let loop_text = loop_text(v, found.loop_blocked);
    let pool_text = pool_text(v, &found);
    let evidence = match verdict {
        Verdict::Healthy => format!("healthy: {pool_text}; {loop_text}"),
        Verdict::Unknown => format!("{pool_text}; {loop_text}"),
        Verdict::LoopBlocked => format!("{loop_text}; {pool_text}"),
        // The laned verdicts are the pool doctor's (a libuv pool has no lanes).
        Verdict::PoolSaturated
        | Verdict::SlowIoThrottled
        | Verdict::LaneSaturated(_)
        | Verdict::LaneCompensating(_) => format!("{pool_text}; {loop_text}"),
        Verdict::Both => format!(
            "{}; {loop_text}; and {pool_text}. The loop is {}; the pool has {}",
            first_text(v.order),
            loop_doing(&v.loop_states),
            pool_doing(&v.pool_states)
        ),
        Verdict::LoopBlockedSlowIoThrottled => format!("{loop_text}; and {pool_text}"),
    };
    (verdict, evidence)
}

/// Which of the thresholds a window's vitals cross.
struct Findings {
    /// Outside epoll_pwait at least [`LOOP_BLOCKED_PCT`], or in long
    /// stretches at least [`LOOP_STALLED_PCT`].
    loop_blocked: bool,
    /// Every pool thread busy at least [`POOL_SATURATED_PCT`].
    saturated: bool,
    /// Not saturated, but slow I/O at libuv's limit with more waiting.
    throttled: bool,
    /// No queue to read, but libuv's limit of threads in the resolver.
    slow_unseen: bool,
    /// The pool could not be found.
    pool_unknown: bool,
}

impl Findings {
    fn of(v: &Vitals) -> Findings {
        let saturated = v.pool_size > 0 && v.saturation_pct >= POOL_SATURATED_PCT;
        Findings {
            loop_blocked: v.loop_utilization_pct >= LOOP_BLOCKED_PCT
                || v.loop_stalled_pct >= LOOP_STALLED_PCT,
            saturated,
            throttled: v.pool_size > 0
                && !saturated
                && v.slow_io_throttled_pct
                    .is_some_and(|p| p >= SLOW_IO_THROTTLED_PCT),
            slow_unseen: v.slow_io_throttled_pct.is_none()
                && v.resolver_at_limit_pct
                    .is_some_and(|p| p >= SLOW_IO_THROTTLED_PCT),
            pool_unknown: v.pool_unknown.is_some(),
        }
    }

    fn verdict(&self) -> Verdict {
        match (self.loop_blocked, self.saturated, self.throttled) {
            (false, false, false) if self.pool_unknown || self.slow_unseen => Verdict::Unknown,
            (false, false, false) => Verdict::Healthy,
            (true, false, false) => Verdict::LoopBlocked,
            (false, true, _) => Verdict::PoolSaturated,
            (true, true, _) => Verdict::Both,
            (false, false, true) => Verdict::SlowIoThrottled,
            (true, false, true) => Verdict::LoopBlockedSlowIoThrottled,
        }
    }
}

/// `cpu 3.0, read 1.0` (with `unit` after each figure); states too rare to
/// show at one decimal are left out.
fn states_text(s: &[(String, f64)], unit: &str) -> String {
    s.iter()
        .filter(|(_, x)| *x >= 0.05)
        .map(|(k, x)| format!("{k} {x:.1}{unit}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The loop's half of the evidence.
fn loop_text(v: &Vitals, blocked: bool) -> String {
    let stretches = if v.loop_longest_ms >= LOOP_STALL_MS {
        format!(
            ", {:.0}% in stretches of {LOOP_STALL_MS:.0} ms or more, the longest {:.0} ms",
            v.loop_stalled_pct, v.loop_longest_ms
        )
    } else {
        String::new()
    };
    if blocked {
        format!(
            "loop blocked: the main thread was outside epoll_pwait {:.0}% of the window{stretches} ({}); timers, I/O callbacks and requests wait",
            v.loop_utilization_pct,
            states_text(&v.loop_states, "%")
        )
    } else {
        format!("loop {:.0}% busy{stretches}", v.loop_utilization_pct)
    }
}

/// The pool's half of the evidence.
fn pool_text(v: &Vitals, found: &Findings) -> String {
    if let Some(why) = &v.pool_unknown {
        format!("pool unknown: {why}")
    } else if found.slow_unseen && !found.saturated {
        unseen_text(v)
    } else if v.pool_size == 0 {
        "no pool thread seen (libuv starts its pool at the first fs, dns.lookup, crypto or zlib call)".to_string()
    } else if found.saturated {
        saturated_text(v)
    } else if found.throttled {
        throttled_text(v)
    } else {
        format!(
            "pool {:.1} of {} threads busy, all busy {:.0}% of the window{}",
            v.busy_threads,
            v.pool_size,
            v.saturation_pct,
            queue_text(v)
        )
    }
}

/// `; 3.0 requests queued on average, 1.0 of them slow I/O`, where the
/// queue was read.
fn queue_text(v: &Vitals) -> String {
    v.queue_depth
        .map(|q| {
            let slow = v
                .slow_queue_depth
                .filter(|s| *s >= 0.05)
                .map(|s| format!(", {s:.1} of them slow I/O"))
                .unwrap_or_default();
            format!("; {q:.1} requests queued on average{slow}")
        })
        .unwrap_or_default()
}

/// Slow I/O at libuv's limit where its queue cannot be read.
fn unseen_text(v: &Vitals) -> String {
    let n = v.pool_size;
    format!(
        "slow I/O at libuv's limit, queue unseen: {} of {n} threads (libuv's (n + 1) / 2 limit) were in the resolver's network calls (getaddrinfo) {:.0}% of the window; lookups beyond them wait in slow_io_pending_wq, which cannot be read without libuv's symbols, so whether lookups are throttled is unknown (pool {:.1} of {n} busy)",
        slow_io_limit(n),
        v.resolver_at_limit_pct.unwrap_or(0.0),
        v.busy_threads
    )
}

/// Every pool thread busy at once.
fn saturated_text(v: &Vitals) -> String {
    format!(
        "pool saturated: {} busy at once {:.0}% of the window ({:.1} busy on average: {}{}); new fs, dns.lookup, crypto and zlib work waits",
        match v.pool_size {
            1 => "its one thread".to_string(),
            n => format!("all {n} threads"),
        },
        v.saturation_pct,
        v.busy_threads,
        states_text(&v.pool_states, ""),
        queue_text(v)
    )
}

/// Slow I/O held at libuv's (n + 1) / 2 while other threads are idle.
fn throttled_text(v: &Vitals) -> String {
    let n = v.pool_size;
    let limit = slow_io_limit(n);
    let running = v.slow_io_running.unwrap_or(0.0);
    let busy_states = states_text(&v.pool_states, "");
    format!(
        "slow I/O throttled: {:.1} slow requests (dns.lookup, dns.lookupService) queued on average while {running:.1} threads ran slow I/O, at libuv's limit of (n + 1) / 2 = {limit} of {n} threads, in {:.0}% of the window; the other {} threads were {:.1} busy on average, so new lookups wait though {:.1} threads are idle (pool {:.1} of {n} busy{})",
        v.slow_queue_depth.unwrap_or(0.0),
        v.slow_io_throttled_pct.unwrap_or(0.0),
        n - limit,
        (v.busy_threads - running).max(0.0),
        (n as f64 - v.busy_threads).max(0.0),
        v.busy_threads,
        if busy_states.is_empty() {
            String::new()
        } else {
            format!(": {busy_states}")
        }
    )
}

/// Which came first, in words.
fn first_text(order: Option<Order>) -> String {
    let Some(o) = order else {
        return "which came first is not known (scope saw both in this window only)".into();
    };
    match o.first() {
        "unknown" => "both were so when scope attached: which came first is not known".into(),
        "together" => format!(
            "both began together (loop at {:.1} s, pool at {:.1} s after scope attached)",
            o.loop_since_s, o.pool_since_s
        ),
        "loop" => format!(
            "the loop blocked first ({}), the pool saturated at {:.1} s: work the loop hands the pool piles up behind it",
            if o.loop_before_scope {
                "before scope attached".to_string()
            } else {
                format!("at {:.1} s", o.loop_since_s)
            },
            o.pool_since_s
        ),
        _ => format!(
            "the pool saturated first ({}), the loop blocked at {:.1} s: the pool's callbacks, or synchronous work, now hold the loop too",
            if o.pool_before_scope {
                "before scope attached".to_string()
            } else {
                format!("at {:.1} s", o.pool_since_s)
            },
            o.loop_since_s
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `v`'s diagnosis, which must be `want`: its text.
    fn text_of(v: &Vitals, want: Verdict) -> String {
        let (verdict, text) = diagnose(v);
        assert_eq!(verdict, want, "{text}");
        text
    }

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
        let v2 = Vitals {
            loop_states: vec![("cpu".into(), 100.0)],
            pool_states: vec![("cpu".into(), 2.0)],
            order: Some(Order {
                loop_since_s: 4.0,
                pool_since_s: 1.5,
                loop_before_scope: false,
                pool_before_scope: false,
            }),
            ..v.clone()
        };
        let (_, text) = diagnose(&v2);
        assert!(
            text.starts_with("the pool saturated first (at 1.5 s), the loop blocked at 4.0 s"),
            "{text}"
        );
        assert!(
            text.ends_with("The loop is running JavaScript or a synchronous native call on a CPU 100% (sluice scope PID --profile names the JavaScript); the pool has 2.0 threads on a CPU (crypto: pbkdf2, scrypt, randomBytes; zlib)"),
            "{text}"
        );
        let v = Vitals {
            saturation_pct: POOL_SATURATED_PCT - 0.1,
            loop_utilization_pct: LOOP_BLOCKED_PCT - 0.1,
            ..v
        };
        assert_eq!(diagnose(&v).0, Verdict::Healthy);
    }

    #[test]
    fn long_stretches_block_the_loop_below_the_utilisation_threshold() {
        // A 40 ms synchronous call every 50 ms: 80 % busy, all of it in
        // 40 ms stretches.
        let v = Vitals {
            loop_utilization_pct: 80.0,
            loop_stalled_pct: 80.0,
            loop_longest_ms: 40.0,
            loop_states: vec![("cpu".into(), 80.0)],
            ..Vitals::default()
        };
        let text = text_of(&v, Verdict::LoopBlocked);
        assert!(
            text.starts_with("loop blocked: the main thread was outside epoll_pwait 80% of the window, 80% in stretches of 20 ms or more, the longest 40 ms (cpu 80.0%)"),
            "{text}"
        );
        // The same utilisation in short stretches (many small callbacks):
        // busy, not blocked.
        let busy = Vitals {
            loop_stalled_pct: 10.0,
            loop_longest_ms: 25.0,
            ..v.clone()
        };
        let text = text_of(&busy, Verdict::Healthy);
        assert!(
            text.ends_with("loop 80% busy, 10% in stretches of 20 ms or more, the longest 25 ms"),
            "{text}"
        );
        // The threshold is inclusive.
        let edge = Vitals {
            loop_stalled_pct: LOOP_STALLED_PCT,
            ..v
        };
        assert_eq!(diagnose(&edge).0, Verdict::LoopBlocked);
        let below = Vitals {
            loop_stalled_pct: LOOP_STALLED_PCT - 0.1,
            ..edge
        };
        assert_eq!(diagnose(&below).0, Verdict::Healthy);
    }

    #[test]
    fn a_pool_not_started_is_never_saturated() {
        let v = Vitals {
            pool_size: 0,
            saturation_pct: 100.0,
            ..Vitals::default()
        };
        let text = text_of(&v, Verdict::Healthy);
        assert!(text.contains("no pool thread seen"), "{text}");
    }

    #[test]
    fn a_pool_not_found_is_unknown_with_the_reason_unless_the_loop_blocks() {
        let v = Vitals {
            pool_unknown: Some("no thread waits on libuv's cond".into()),
            loop_utilization_pct: 10.0,
            ..Vitals::default()
        };
        let text = text_of(&v, Verdict::Unknown);
        assert_eq!(
            text,
            "pool unknown: no thread waits on libuv's cond; loop 10% busy"
        );
        assert_eq!(
            serde_json::to_string(&Verdict::Unknown).unwrap(),
            "\"unknown\""
        );
        let blocked = Vitals {
            loop_utilization_pct: 100.0,
            ..v
        };
        let text = text_of(&blocked, Verdict::LoopBlocked);
        assert!(text.contains("pool unknown: no thread waits"), "{text}");
    }

    /// 32 dns.lookup at pool 4: 2 threads in getaddrinfo (libuv's limit),
    /// 30 lookups queued, the other 2 threads idle.
    fn dns_32_at_pool_4() -> Vitals {
        Vitals {
            pool_size: 4,
            busy_threads: 2.0,
            saturation_pct: 0.0,
            loop_utilization_pct: 1.0,
            pool_states: vec![("poll".into(), 2.0)],
            queue_depth: Some(29.5),
            slow_queue_depth: Some(29.5),
            slow_io_running: Some(2.0),
            slow_io_throttled_pct: Some(99.0),
            ..Vitals::default()
        }
    }

    #[test]
    fn slow_io_queued_at_the_limit_is_throttled_with_its_numbers() {
        let text = text_of(&dns_32_at_pool_4(), Verdict::SlowIoThrottled);
        assert_eq!(
            text,
            "slow I/O throttled: 29.5 slow requests (dns.lookup, dns.lookupService) queued on average while 2.0 threads ran slow I/O, at libuv's limit of (n + 1) / 2 = 2 of 4 threads, in 99% of the window; the other 2 threads were 0.0 busy on average, so new lookups wait though 2.0 threads are idle (pool 2.0 of 4 busy: poll 2.0); loop 1% busy"
        );
        assert_eq!(
            serde_json::to_string(&Verdict::SlowIoThrottled).unwrap(),
            "\"slow-io-throttled\""
        );
        // With the loop blocked too.
        let v = Vitals {
            loop_utilization_pct: 100.0,
            ..dns_32_at_pool_4()
        };
        assert_eq!(diagnose(&v).0, Verdict::LoopBlockedSlowIoThrottled);
        assert_eq!(
            Verdict::LoopBlockedSlowIoThrottled.as_str(),
            "loop-blocked+slow-io-throttled"
        );
    }

    #[test]
    fn throttling_needs_the_share_and_yields_to_saturation() {
        // Under the threshold, or unread (no symbols): not throttled.
        for pct in [Some(SLOW_IO_THROTTLED_PCT - 0.1), None] {
            let v = Vitals {
                slow_io_throttled_pct: pct,
                ..dns_32_at_pool_4()
            };
            assert_eq!(diagnose(&v).0, Verdict::Healthy, "{pct:?}");
        }
        let v = Vitals {
            slow_io_throttled_pct: Some(SLOW_IO_THROTTLED_PCT),
            ..dns_32_at_pool_4()
        };
        assert_eq!(diagnose(&v).0, Verdict::SlowIoThrottled);
        // Pool 1: the limit is the whole pool; saturated wins, and says how
        // much of the queue is slow I/O.
        let one = Vitals {
            pool_size: 1,
            busy_threads: 1.0,
            saturation_pct: 100.0,
            slow_io_running: Some(1.0),
            queue_depth: Some(31.0),
            slow_queue_depth: Some(31.0),
            ..dns_32_at_pool_4()
        };
        let text = text_of(&one, Verdict::PoolSaturated);
        assert!(
            text.contains("31.0 requests queued on average, 31.0 of them slow I/O"),
            "{text}"
        );
        assert_eq!(Verdict::ALL.len(), 7);
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
