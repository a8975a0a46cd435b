//! Per-window aggregation: [`Window`] counts `Tick`s, [`Window::finish`]
//! turns the counts into a [`Report`] (one line of `--json`).
//!
//! Definitions (all ratios of counted samples):
//! - `busy_threads`: mean number of busy pool threads per sample.
//! - `utilization_pct`: `busy_threads / pool_size`.
//! - `saturation_pct`: share of samples in which every pool thread was busy.
//! - `loop_utilization_pct`: share of samples in which the loop thread was
//!   outside its epoll wait.
//! - `loop_stalled_pct`: share of samples in stretches outside the epoll
//!   wait (consecutive busy samples) of at least `doctor::LOOP_STALL_MS`,
//!   a stretch of k samples lasting `(k - 1)` mean sampling intervals;
//!   `loop_longest_ms`: the longest stretch (cut at the window's edges).
//! - `slow_io_throttled_pct`: share of queue readings in which slow I/O
//!   waited while libuv's `slow_io_work_running` stood at its limit of
//!   `(pool_size + 1) / 2` (see `doctor.rs`).
//! - `resolver_at_limit_pct`: where those counters cannot be read (no
//!   symbols), the share of samples in which at least `(pool_size + 1) / 2`
//!   pool threads were blocked in the resolver's network calls: slow I/O at
//!   libuv's limit, with whatever waits behind it unseen.

use crate::probe::ProbeReport;
use crate::sample::classify::ThreadState;
use crate::sample::queue::QueueReading;
use crate::sample::sampler::Tick;
use crate::target::discovery::PoolStatus;
use crate::verdict::doctor::{self, Verdict, Vitals};
use crate::verdict::onset::Order;
use serde::Serialize;
use std::collections::BTreeMap;

/// One pool thread over one window.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ThreadReport {
    /// Its TID.
    pub tid: u32,
    /// Share of samples it was busy.
    pub busy_pct: f64,
    /// CPU time over the window, in % of one core (`null` if unreadable).
    pub cpu_pct: Option<f64>,
    /// Its state at the last sample (`idle`, `cpu`, `read`, ...).
    pub state: String,
}

/// Members every `--json` report has, whatever the process's state (a pool
/// not started, no symbols, a sampler that saw nothing).
pub const ALWAYS_IN_JSON: [&str; 6] = [
    "pool_size",
    "busy_threads",
    "utilization_pct",
    "saturation_pct",
    "loop_utilization_pct",
    "verdict",
];

/// What scope saw during one window: one line of `--json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Report {
    /// Seconds since scope attached, at the window's end.
    pub t_s: f64,
    /// The process.
    pub pid: u32,
    /// The window's length in seconds.
    pub window_s: f64,
    /// Samples taken in the window.
    pub samples: u32,
    /// Whether pool threads were found.
    pub pool_started: bool,
    /// How the pool was found: `names`, `memory`, `futex-symbols`,
    /// `futex-heuristic`; `not-started` or `not-found` without a pool.
    pub discovery: String,
    /// Pool threads.
    pub pool_size: usize,
    /// Mean busy pool threads.
    pub busy_threads: f64,
    /// Most pool threads busy in one sample.
    pub busy_threads_max: usize,
    /// `busy_threads / pool_size`, in %.
    pub utilization_pct: f64,
    /// Share of samples with every pool thread busy, in %.
    pub saturation_pct: f64,
    /// Share of samples with the loop thread outside its epoll wait, in %.
    pub loop_utilization_pct: f64,
    /// Share of samples in stretches outside the epoll wait of at least
    /// 20 ms (`doctor::LOOP_STALL_MS`), in %.
    pub loop_stalled_pct: f64,
    /// The longest stretch outside the epoll wait in the window, in ms
    /// (first busy sample to last; cut at the window's edges).
    pub loop_longest_ms: f64,
    /// Busy pool states and their mean thread counts (`cpu`, `read`,
    /// `connect`, `futex`, ...).
    pub pool_states: BTreeMap<String, f64>,
    /// Busy loop states and their share of samples in %.
    pub loop_states: BTreeMap<String, f64>,
    /// Mean requests waiting in libuv's queue (`null` when not readable:
    /// no symbols or no access to the process's memory).
    pub queue_depth: Option<f64>,
    /// Most requests waiting in one reading.
    pub queue_depth_max: Option<usize>,
    /// A reading stopped at the walk limit (256): the depth is a floor.
    pub queue_depth_at_least: bool,
    /// Of `queue_depth`, mean slow I/O (`dns.lookup`, `dns.lookupService`)
    /// waiting in libuv's `slow_io_pending_wq` (`null` when not readable).
    pub slow_queue_depth: Option<f64>,
    /// Mean slow I/O running on pool threads: libuv's
    /// `slow_io_work_running` (`null` when not readable).
    pub slow_io_running: Option<f64>,
    /// libuv's limit on threads running slow I/O: `(pool_size + 1) / 2`.
    pub slow_io_limit: usize,
    /// Share of queue readings with slow I/O waiting while
    /// `slow_io_work_running` stood at `slow_io_limit`, in % (`null` when
    /// not readable).
    pub slow_io_throttled_pct: Option<f64>,
    /// Where `slow_io_work_running` cannot be read: share of samples with
    /// at least `slow_io_limit` pool threads blocked in the resolver's
    /// network calls, in % (`null` where it can be read, or below pool 2).
    pub resolver_at_limit_pct: Option<f64>,
    /// CPU time of all pool threads, in % of one core.
    pub pool_cpu_pct: Option<f64>,
    /// CPU time of the loop thread, in % of one core.
    pub loop_cpu_pct: Option<f64>,
    /// The pool threads one by one.
    pub threads: Vec<ThreadReport>,
    /// CPU time of scope's own sampling thread, in % of one core.
    pub sampler_cpu_pct: f64,
    /// The doctor's verdict.
    pub verdict: Verdict,
    /// The verdict's evidence, with its numbers.
    pub evidence: String,
    /// With `loop-blocked+pool-saturated`: since when each held (seconds
    /// since scope attached) and which came first.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub onset: Option<doctor::Onset>,
    /// Probe mode's per-kind figures (absent without `--probe`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub probe: Option<ProbeReport>,
    /// sluice's lanes, in a process that uses sluice's npm package (absent
    /// in one that does not): threads, busy, saturation and each lane's
    /// verdict (`lanes.rs`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sluice_lanes: Vec<crate::sample::lanes::LaneReport>,
}

/// Counts of one window's samples.
#[derive(Debug, Clone, Default)]
pub struct Window {
    pool_tids: Vec<u32>,
    samples: u32,
    busy_sum: u64,
    busy_max: usize,
    all_busy: u32,
    loop_busy: u32,
    /// Consecutive busy loop samples up to now.
    loop_run: u32,
    /// Lengths (in samples) of the loop's finished busy runs.
    loop_runs: Vec<u32>,
    per_thread_busy: Vec<u32>,
    last: Option<Tick>,
    pool_states: BTreeMap<&'static str, u64>,
    loop_states: BTreeMap<&'static str, u32>,
    queue_sum: u64,
    queue_readings: u32,
    queue_max: usize,
    queue_at_least: bool,
    slow_sum: u64,
    slow_running_sum: u64,
    slow_running_readings: u32,
    slow_throttled: u32,
    resolver_at_limit: u32,
}

/// What a window's report needs besides its samples.
#[derive(Debug, Clone)]
pub struct Context<'a> {
    /// Seconds since attach at the window's end.
    pub t_s: f64,
    /// The process.
    pub pid: u32,
    /// The window's length in seconds.
    pub window_s: f64,
    /// The pool as discovered.
    pub status: &'a PoolStatus,
    /// CPU nanoseconds of each pool thread over the window (sampler order).
    pub pool_cpu_ns: Vec<Option<u64>>,
    /// CPU nanoseconds of the loop thread over the window.
    pub loop_cpu_ns: Option<u64>,
    /// CPU nanoseconds of the sampling thread over the window.
    pub sampler_cpu_ns: u64,
    /// Probe mode's figures.
    pub probe: Option<ProbeReport>,
    /// Since when the loop has been busy and the pool saturated, when both
    /// are.
    pub order: Option<Order>,
}

#[cfg(test)]
impl<'a> Context<'a> {
    /// A one-second window's context with its time, process and pool only
    /// (no CPU figures, no probes, no onsets): the unit tests' windows.
    pub(crate) fn bare(t_s: f64, pid: u32, status: &'a PoolStatus) -> Context<'a> {
        Context {
            t_s,
            pid,
            window_s: 1.0,
            status,
            pool_cpu_ns: vec![],
            loop_cpu_ns: None,
            sampler_cpu_ns: 0,
            probe: None,
            order: None,
        }
    }
}

impl Window {
    /// An empty window over the pool threads `pool_tids` (sampler order).
    pub fn new(pool_tids: Vec<u32>) -> Window {
        Window {
            per_thread_busy: vec![0; pool_tids.len()],
            pool_tids,
            ..Window::default()
        }
    }

    /// Samples counted so far.
    pub fn samples(&self) -> u32 {
        self.samples
    }

    /// Counts one sample, and a queue reading taken with it.
    pub fn add(&mut self, tick: &Tick, queue: Option<QueueReading>) {
        self.samples += 1;
        let busy = tick.busy();
        self.busy_sum += busy as u64;
        self.busy_max = self.busy_max.max(busy);
        if !tick.pool.is_empty() && busy == tick.pool.len() {
            self.all_busy += 1;
        }
        for (i, s) in tick.pool.iter().enumerate() {
            if s.is_busy() {
                if let Some(c) = self.per_thread_busy.get_mut(i) {
                    *c += 1;
                }
                *self.pool_states.entry(s.label()).or_default() += 1;
            }
        }
        let limit = doctor::slow_io_limit(tick.pool.len());
        if tick.pool.len() >= 2 && tick.pool.iter().filter(|s| s.in_resolver()).count() >= limit {
            self.resolver_at_limit += 1;
        }
        if tick.loop_state.is_busy() {
            self.loop_busy += 1;
            self.loop_run += 1;
            *self.loop_states.entry(tick.loop_state.label()).or_default() += 1;
        } else if self.loop_run > 0 {
            self.loop_runs.push(self.loop_run);
            self.loop_run = 0;
        }
        if let Some(q) = queue {
            self.queue_sum += q.depth as u64;
            self.queue_readings += 1;
            self.queue_max = self.queue_max.max(q.depth);
            self.queue_at_least |= q.at_least;
            self.slow_sum += q.slow as u64;
            if let Some(running) = q.slow_running {
                self.slow_running_sum += u64::from(running);
                self.slow_running_readings += 1;
                let limit = doctor::slow_io_limit(self.pool_tids.len());
                if q.slow > 0 && limit > 0 && running as usize >= limit {
                    self.slow_throttled += 1;
                }
            }
        }
        self.last = Some(tick.clone());
    }

    /// The loop's stretches outside its epoll wait over a window of
    /// `window_s`: the share of samples in stretches of at least
    /// [`doctor::LOOP_STALL_MS`] (%), and the longest stretch (ms). A run of
    /// k busy samples lasts `k - 1` mean sampling intervals.
    fn stretches(&self, window_s: f64) -> (f64, f64) {
        if self.samples == 0 {
            return (0.0, 0.0);
        }
        let interval_ms = 1e3 * window_s / f64::from(self.samples);
        let runs = self
            .loop_runs
            .iter()
            .copied()
            .chain((self.loop_run > 0).then_some(self.loop_run));
        let (mut stalled, mut longest) = (0u32, 0.0f64);
        for k in runs {
            let ms = f64::from(k - 1) * interval_ms;
            longest = longest.max(ms);
            if ms >= doctor::LOOP_STALL_MS {
                stalled += k;
            }
        }
        (
            100.0 * f64::from(stalled) / f64::from(self.samples),
            longest,
        )
    }

    /// `count` samples as a percentage of the window's.
    fn pct(&self, count: u32) -> f64 {
        100.0 * f64::from(count) / f64::from(self.samples.max(1))
    }

    /// The pool's busy states with their mean thread counts, and the
    /// loop's with their share of samples (%).
    fn state_shares(&self) -> (BTreeMap<String, f64>, BTreeMap<String, f64>) {
        let n = f64::from(self.samples.max(1));
        let pool = self
            .pool_states
            .iter()
            .map(|(k, v)| (k.to_string(), *v as f64 / n))
            .collect();
        let lp = self
            .loop_states
            .iter()
            .map(|(k, v)| (k.to_string(), self.pct(*v)))
            .collect();
        (pool, lp)
    }

    /// Mean queue depth, and slow I/O's figures: counted where
    /// `slow_io_work_running` was read (the same symbol group as
    /// `slow_io_pending_wq`); where it was not, the share of samples with
    /// libuv's limit of pool threads in the resolver.
    fn queue_vitals(&self, v: &mut Vitals) {
        v.queue_depth = (self.queue_readings > 0)
            .then(|| self.queue_sum as f64 / f64::from(self.queue_readings));
        if self.slow_running_readings > 0 {
            let running_readings = f64::from(self.slow_running_readings);
            v.slow_queue_depth = Some(self.slow_sum as f64 / f64::from(self.queue_readings));
            v.slow_io_running = Some(self.slow_running_sum as f64 / running_readings);
            v.slow_io_throttled_pct =
                Some(100.0 * f64::from(self.slow_throttled) / running_readings);
        } else if v.pool_size >= 2 {
            v.resolver_at_limit_pct = Some(self.pct(self.resolver_at_limit));
        }
    }

    /// What the doctor reads of this window.
    fn vitals(
        &self,
        cx: &Context<'_>,
        pool_states: &BTreeMap<String, f64>,
        loop_states: &BTreeMap<String, f64>,
    ) -> Vitals {
        let pool_size = self.pool_tids.len();
        let (loop_stalled_pct, loop_longest_ms) = self.stretches(cx.window_s);
        let mut v = Vitals {
            order: cx.order,
            pool_size,
            pool_unknown: match cx.status {
                PoolStatus::NotFound { evidence } => Some(evidence.clone()),
                _ => None,
            },
            busy_threads: self.busy_sum as f64 / f64::from(self.samples.max(1)),
            saturation_pct: if pool_size == 0 {
                0.0
            } else {
                self.pct(self.all_busy)
            },
            loop_utilization_pct: self.pct(self.loop_busy),
            loop_stalled_pct,
            loop_longest_ms,
            loop_states: largest_first(loop_states),
            pool_states: largest_first(pool_states),
            ..Vitals::default()
        };
        self.queue_vitals(&mut v);
        v
    }

    /// Each pool thread: its busy share, CPU, and state at the last sample.
    fn thread_reports(&self, cx: &Context<'_>) -> Vec<ThreadReport> {
        let last = self.last.as_ref();
        self.pool_tids
            .iter()
            .enumerate()
            .map(|(i, &tid)| ThreadReport {
                tid,
                busy_pct: self.pct(self.per_thread_busy[i]),
                cpu_pct: cx
                    .pool_cpu_ns
                    .get(i)
                    .copied()
                    .flatten()
                    .map(|ns| cpu_pct(ns, cx.window_s)),
                state: last
                    .and_then(|t| t.pool.get(i))
                    .map_or(ThreadState::Gone, |s| *s)
                    .label()
                    .to_string(),
            })
            .collect()
    }

    /// The report of this window.
    pub fn finish(self, cx: Context<'_>) -> Report {
        let (pool_states, loop_states) = self.state_shares();
        let v = self.vitals(&cx, &pool_states, &loop_states);
        let (verdict, evidence) = doctor::diagnose(&v);
        let threads = self.thread_reports(&cx);
        let cpu = |ns: u64| cpu_pct(ns, cx.window_s);
        let pool_cpu_pct = (!cx.pool_cpu_ns.is_empty())
            .then(|| cx.pool_cpu_ns.iter().map(|c| c.unwrap_or(0)).sum::<u64>())
            .map(cpu);
        let (pool_started, discovery) = match cx.status {
            PoolStatus::Started(p) => (true, p.method.as_str()),
            PoolStatus::NotStarted { .. } => (false, "not-started"),
            PoolStatus::NotFound { .. } => (false, "not-found"),
        };
        Report {
            t_s: cx.t_s,
            pid: cx.pid,
            window_s: cx.window_s,
            samples: self.samples,
            pool_started,
            discovery: discovery.to_string(),
            pool_size: v.pool_size,
            busy_threads: v.busy_threads,
            busy_threads_max: self.busy_max,
            utilization_pct: if v.pool_size == 0 {
                0.0
            } else {
                100.0 * v.busy_threads / v.pool_size as f64
            },
            saturation_pct: v.saturation_pct,
            loop_utilization_pct: v.loop_utilization_pct,
            loop_stalled_pct: v.loop_stalled_pct,
            loop_longest_ms: v.loop_longest_ms,
            pool_states,
            loop_states,
            queue_depth: v.queue_depth,
            queue_depth_max: (self.queue_readings > 0).then_some(self.queue_max),
            queue_depth_at_least: self.queue_at_least,
            slow_queue_depth: v.slow_queue_depth,
            slow_io_running: v.slow_io_running,
            slow_io_limit: doctor::slow_io_limit(v.pool_size),
            slow_io_throttled_pct: v.slow_io_throttled_pct,
            resolver_at_limit_pct: v.resolver_at_limit_pct,
            pool_cpu_pct,
            loop_cpu_pct: cx.loop_cpu_ns.map(cpu),
            threads,
            sampler_cpu_pct: cpu(cx.sampler_cpu_ns),
            onset: (verdict == Verdict::Both)
                .then(|| cx.order.map(doctor::Onset::from))
                .flatten(),
            verdict,
            evidence,
            probe: cx.probe,
            sluice_lanes: Vec::new(),
        }
    }
}

/// CPU nanoseconds over a window of `window_s` as a percentage of a core.
fn cpu_pct(ns: u64, window_s: f64) -> f64 {
    100.0 * ns as f64 / 1e9 / window_s.max(1e-9)
}

/// A map's entries, largest value first.
fn largest_first(m: &BTreeMap<String, f64>) -> Vec<(String, f64)> {
    let mut v: Vec<(String, f64)> = m.iter().map(|(k, x)| (k.clone(), *x)).collect();
    v.sort_by(|a, b| b.1.total_cmp(&a.1));
    v
}

/// For other modules' tests: the report of one window at `t_s` of process
/// `pid`, one sample of a 2-thread pool with `busy` of its threads on CPU
/// and the loop idle.
#[cfg(test)]
pub(crate) fn one_sample_report(t_s: f64, pid: u32, busy: usize) -> Report {
    use crate::sample::classify::IdleWait;
    use crate::target::discovery::{Method, Pool};
    let status = PoolStatus::Started(Pool {
        method: Method::Memory,
        tids: vec![1, 2],
        idle: IdleWait::AnyFutex,
        evidence: vec![],
    });
    let mut w = Window::new(vec![1, 2]);
    let mut pool = vec![ThreadState::Idle; 2];
    for s in pool.iter_mut().take(busy) {
        *s = ThreadState::OnCpu;
    }
    w.add(
        &Tick {
            pool,
            loop_state: ThreadState::Idle,
        },
        None,
    );
    w.finish(Context::bare(t_s, pid, &status))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sample::classify::IdleWait;
    use crate::target::discovery::{Method, Pool};

    fn started(n: usize) -> PoolStatus {
        PoolStatus::Started(Pool {
            method: Method::Memory,
            tids: (1..=n as u32).collect(),
            idle: IdleWait::AnyFutex,
            evidence: vec![],
        })
    }

    fn cx(status: &PoolStatus) -> Context<'_> {
        Context {
            t_s: 1.0,
            pid: 7,
            window_s: 1.0,
            status,
            pool_cpu_ns: vec![],
            loop_cpu_ns: None,
            sampler_cpu_ns: 10_000_000,
            probe: None,
            order: None,
        }
    }

    /// A window of 200 samples over 1 s (5 ms apart) whose loop runs
    /// `busy` samples, then idles `idle`, over and over.
    fn loop_pattern(busy: usize, idle: usize) -> Report {
        use ThreadState::*;
        let status = started(1);
        let mut w = Window::new(vec![1]);
        for i in 0..200 {
            let loop_state = if i % (busy + idle) < busy {
                OnCpu
            } else {
                Idle
            };
            w.add(
                &Tick {
                    pool: vec![Idle],
                    loop_state,
                },
                None,
            );
        }
        w.finish(cx(&status))
    }

    #[test]
    fn long_stretches_are_counted_and_block_the_loop() {
        // 9 busy samples (40 ms from first to last), 1 idle: a 40 ms
        // synchronous call every 50 ms.
        let r = loop_pattern(9, 1);
        assert_eq!(r.loop_utilization_pct, 90.0 * 200.0 / 200.0);
        assert_eq!(r.loop_longest_ms, 40.0);
        assert_eq!(r.loop_stalled_pct, 90.0);
        assert_eq!(r.verdict, Verdict::LoopBlocked);
        // 8 busy, 2 idle: 80 % busy in 35 ms stretches: still blocked
        // (by utilisation alone it would be healthy).
        let r = loop_pattern(8, 2);
        assert_eq!(r.loop_utilization_pct, 80.0);
        assert_eq!(r.loop_longest_ms, 35.0);
        assert_eq!(r.loop_stalled_pct, 80.0);
        assert_eq!(r.verdict, Verdict::LoopBlocked);
        // 4 busy, 1 idle: 80 % busy in 15 ms stretches: busy, not blocked.
        let r = loop_pattern(4, 1);
        assert_eq!(r.loop_utilization_pct, 80.0);
        assert_eq!(r.loop_longest_ms, 15.0);
        assert_eq!(r.loop_stalled_pct, 0.0);
        assert_eq!(r.verdict, Verdict::Healthy);
        // A run still going at the window's end counts too.
        let r = loop_pattern(200, 0);
        assert_eq!(r.loop_longest_ms, 199.0 * 5.0);
        assert_eq!(r.loop_stalled_pct, 100.0);
    }

    #[test]
    fn counts_become_ratios() {
        use ThreadState::*;
        let status = started(4);
        let mut w = Window::new(vec![1, 2, 3, 4]);
        // 3 samples all busy (one thread in read), 1 sample with 2 busy.
        for _ in 0..3 {
            w.add(
                &Tick {
                    pool: vec![OnCpu, OnCpu, OnCpu, Blocked(0)],
                    loop_state: Idle,
                },
                Some(QueueReading {
                    depth: 6,
                    slow: 0,
                    at_least: false,
                    slow_running: None,
                }),
            );
        }
        w.add(
            &Tick {
                pool: vec![OnCpu, Idle, OnCpu, Idle],
                loop_state: OnCpu,
            },
            Some(QueueReading::default()),
        );
        let r = w.finish(cx(&status));
        assert_eq!(r.samples, 4);
        assert_eq!(r.pool_size, 4);
        assert_eq!(r.busy_threads, 14.0 / 4.0);
        assert_eq!(r.busy_threads_max, 4);
        assert_eq!(r.saturation_pct, 75.0);
        assert_eq!(r.utilization_pct, 87.5);
        assert_eq!(r.loop_utilization_pct, 25.0);
        assert_eq!(r.pool_states["cpu"], 11.0 / 4.0);
        assert_eq!(r.pool_states["read"], 3.0 / 4.0);
        assert_eq!(r.loop_states["cpu"], 25.0);
        assert_eq!(r.queue_depth, Some(4.5));
        assert_eq!(r.queue_depth_max, Some(6));
        assert_eq!(r.threads[1].busy_pct, 75.0);
        assert_eq!(r.threads[1].state, "idle");
        assert_eq!(r.sampler_cpu_pct, 1.0);
        assert_eq!(r.verdict, Verdict::Healthy);
        assert_eq!(r.discovery, "memory");
    }

    #[test]
    fn slow_io_at_the_limit_counts_as_throttled() {
        use ThreadState::*;
        let status = started(4);
        let mut w = Window::new(vec![1, 2, 3, 4]);
        let reading = |slow: usize, running: u32| {
            Some(QueueReading {
                depth: slow,
                slow,
                at_least: false,
                slow_running: Some(running),
            })
        };
        // 9 readings: 30 lookups wait while 2 run (the limit at pool 4);
        // 1 reading: one lookup just finished, its thread not back yet.
        for _ in 0..9 {
            w.add(
                &Tick {
                    pool: vec![Blocked(7), Blocked(7), Idle, Idle],
                    loop_state: Idle,
                },
                reading(30, 2),
            );
        }
        w.add(
            &Tick {
                pool: vec![Blocked(7), OnCpu, Idle, Idle],
                loop_state: Idle,
            },
            reading(30, 1),
        );
        let r = w.finish(cx(&status));
        assert_eq!(r.slow_io_limit, 2);
        assert_eq!(r.slow_queue_depth, Some(30.0));
        assert_eq!(r.slow_io_running, Some(1.9));
        assert_eq!(r.slow_io_throttled_pct, Some(90.0));
        assert_eq!(r.busy_threads, 2.0);
        assert_eq!(r.verdict, Verdict::SlowIoThrottled, "{}", r.evidence);
        // Without slow_io_work_running (no symbol) there is no slow figure.
        let mut w = Window::new(vec![1, 2, 3, 4]);
        w.add(
            &Tick {
                pool: vec![Blocked(7), Blocked(7), Idle, Idle],
                loop_state: Idle,
            },
            Some(QueueReading {
                slow_running: None,
                ..reading(30, 2).unwrap()
            }),
        );
        let r = w.finish(cx(&status));
        assert_eq!((r.slow_queue_depth, r.slow_io_throttled_pct), (None, None));
        // 2 of 4 threads in poll (getaddrinfo) is libuv's limit: whether
        // lookups wait behind them cannot be read, so not healthy.
        assert_eq!(r.resolver_at_limit_pct, Some(100.0));
        assert_eq!(r.verdict, Verdict::Unknown, "{}", r.evidence);
        assert!(r.evidence.contains("cannot be read"), "{}", r.evidence);
        // One thread in poll: under the limit, nothing can be throttled.
        let mut w = Window::new(vec![1, 2, 3, 4]);
        w.add(
            &Tick {
                pool: vec![Blocked(7), Idle, Idle, Idle],
                loop_state: Idle,
            },
            None,
        );
        let r = w.finish(cx(&status));
        assert_eq!(r.resolver_at_limit_pct, Some(0.0));
        assert_eq!(r.verdict, Verdict::Healthy, "{}", r.evidence);
    }

    #[test]
    fn a_pool_not_started_reports_zeros() {
        let status = PoolStatus::NotStarted {
            evidence: "nthreads is 0".into(),
        };
        let mut w = Window::new(vec![]);
        w.add(
            &Tick {
                pool: vec![],
                loop_state: ThreadState::OnCpu,
            },
            None,
        );
        let r = w.finish(cx(&status));
        assert_eq!((r.pool_size, r.saturation_pct), (0, 0.0));
        assert!(!r.pool_started);
        assert_eq!(r.discovery, "not-started");
        assert_eq!(r.loop_utilization_pct, 100.0);
        assert_eq!(r.verdict, Verdict::LoopBlocked);
        assert_eq!(r.queue_depth, None);
        let json = serde_json::to_value(&r).unwrap();
        for k in super::ALWAYS_IN_JSON {
            assert!(json.get(k).is_some(), "{k} missing from {json}");
        }
        assert!(json.get("probe").is_none());
    }
}
