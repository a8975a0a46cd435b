//! sluice's lanes, in a Node process that uses sluice's npm package (the
//! preload `-r sluice/patch`, or `require('sluice')`), beside libuv's pool.
//!
//! The package's pool runs its work on threads of its own, named by lane
//! as the core names them (`sluice::Lane::thread_name`): `sluice-cpu`,
//! `sluice-fastio`, `sluice-slowio` in `/proc/PID/task/TID/comm`. Scope
//! finds them by those names at the start of each window (a lane that
//! compensates for blocked threads starts more, and they retire), samples
//! each with the pool's threads, and counts a lane thread as idle while it
//! waits in `futex` (parked for work, as every sluice worker waits) and
//! busy otherwise: on a CPU, or in a system call of its task (`read`,
//! `poll` in the resolver). A task that itself waits on a lock reads as
//! idle: the counts are a floor.
//!
//! A lane is saturated when every one of its threads was busy in at least
//! [`POOL_SATURATED_PCT`] % of the window's samples: the doctor's
//! `pool-saturated` with the lane named (`sluice_health::Verdict::LaneSaturated`).
//! A lane's queue lives in the process's heap with no symbol to find it,
//! so its depth is not read (`queue_depth` is `null`); threads, busy and
//! saturation need nothing but `/proc`. libuv's pool is found as before:
//! its methods look at libuv's own symbols and static data, never at
//! sluice's threads, so its verdict is not moved by them.

use crate::sample::classify::{self, IdleWait, ThreadState};
use crate::sample::sampler::Watched;
use crate::target::Target;
use crate::verdict::doctor::POOL_SATURATED_PCT;
use serde::Serialize;
use sluice_health::Verdict;
use std::collections::BTreeMap;

/// The lanes, as their threads are named: `(lane, comm)`.
pub const THREAD_NAMES: [(sluice::Lane, &str); 3] = [
    (sluice::Lane::Cpu, sluice::Lane::Cpu.thread_name()),
    (sluice::Lane::FastIo, sluice::Lane::FastIo.thread_name()),
    (sluice::Lane::SlowIo, sluice::Lane::SlowIo.thread_name()),
];

/// One lane over one window: a `sluice_lanes` entry of `--json`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LaneReport {
    /// `cpu`, `fastio`, `slowio`.
    pub lane: &'static str,
    /// Its threads at the window's start.
    pub threads: usize,
    /// Mean busy threads.
    pub busy_threads: f64,
    /// Most threads busy in one sample.
    pub busy_threads_max: usize,
    /// Share of samples with every thread of the lane busy, in %.
    pub saturation_pct: f64,
    /// Mean tasks waiting in the lane's queue: `null`, not readable from
    /// outside (see the module's docs).
    pub queue_depth: Option<f64>,
    /// Busy states and their mean thread counts (`cpu`, `read`, ...).
    pub states: BTreeMap<String, f64>,
    /// `healthy` or `pool-saturated` (this lane's).
    pub verdict: Verdict,
    /// The verdict's numbers, in words.
    pub evidence: String,
}

/// One lane's threads and counts.
#[derive(Debug)]
struct LaneWatch {
    lane: sluice::Lane,
    threads: Vec<Watched>,
    samples: u32,
    busy_sum: u64,
    busy_max: usize,
    all_busy: u32,
    states: BTreeMap<&'static str, u64>,
}

/// Watches every lane that has threads; empty in a process without
/// sluice's package.
#[derive(Debug, Default)]
pub(crate) struct Lanes {
    lanes: Vec<LaneWatch>,
    buf: Vec<u8>,
}

impl Lanes {
    /// Lists `target`'s lane threads again (a window's start), keeping the
    /// open files of threads that stay, and zeroes the counts.
    pub(crate) fn rediscover(&mut self, target: &Target) {
        let mut by_lane: Vec<(sluice::Lane, Vec<u32>)> = Vec::new();
        for tid in target.tids().unwrap_or_default() {
            let Some(name) = target.thread_name(tid) else {
                continue;
            };
            let Some((lane, _)) = THREAD_NAMES.iter().find(|(_, n)| *n == name) else {
                continue;
            };
            match by_lane.iter_mut().find(|(l, _)| l == lane) {
                Some((_, tids)) => tids.push(tid),
                None => by_lane.push((*lane, vec![tid])),
            }
        }
        by_lane.sort_by_key(|(l, _)| THREAD_NAMES.iter().position(|(m, _)| m == l));
        let mut old: Vec<Watched> = self.lanes.drain(..).flat_map(|l| l.threads).collect();
        self.lanes = by_lane
            .into_iter()
            .map(|(lane, mut tids)| {
                tids.sort_unstable();
                LaneWatch {
                    lane,
                    threads: tids
                        .into_iter()
                        .map(|t| match old.iter().position(|w| w.tid == t) {
                            Some(i) => old.swap_remove(i),
                            None => Watched::open(target.pid, t),
                        })
                        .collect(),
                    samples: 0,
                    busy_sum: 0,
                    busy_max: 0,
                    all_busy: 0,
                    states: BTreeMap::new(),
                }
            })
            .collect();
        if self.buf.is_empty() {
            self.buf = vec![0u8; 256];
        }
    }

    /// Samples every lane thread once.
    pub(crate) fn tick(&mut self) {
        for l in &mut self.lanes {
            let mut busy = 0;
            let mut alive = 0;
            for w in &l.threads {
                let s = classify::pool_thread(w.line(&mut self.buf), &IdleWait::AnyFutex);
                if s != ThreadState::Gone {
                    alive += 1;
                }
                if s.is_busy() {
                    busy += 1;
                    *l.states.entry(s.label()).or_default() += 1;
                }
            }
            l.samples += 1;
            l.busy_sum += busy as u64;
            l.busy_max = l.busy_max.max(busy);
            if alive > 0 && busy == alive {
                l.all_busy += 1;
            }
        }
    }

    /// The window's reports, one per lane with threads.
    pub(crate) fn reports(&self) -> Vec<LaneReport> {
        self.lanes.iter().map(LaneWatch::report).collect()
    }
}

impl LaneWatch {
    fn report(&self) -> LaneReport {
        let n = f64::from(self.samples.max(1));
        let saturation_pct = 100.0 * f64::from(self.all_busy) / n;
        let busy_threads = self.busy_sum as f64 / n;
        let threads = self.threads.len();
        let saturated = self.samples > 0 && saturation_pct >= POOL_SATURATED_PCT;
        let name = self.lane.name();
        let evidence = if saturated {
            format!(
                "sluice's {name} lane saturated: all {threads} of its threads busy in {saturation_pct:.0} % of samples (threshold {POOL_SATURATED_PCT:.0} %); its work waits for a thread (queue depth not readable from outside)"
            )
        } else {
            format!(
                "sluice's {name} lane: {busy_threads:.1} of {threads} threads busy on average, all busy in {saturation_pct:.0} % of samples"
            )
        };
        LaneReport {
            lane: name,
            threads,
            busy_threads,
            busy_threads_max: self.busy_max,
            saturation_pct,
            queue_depth: None,
            states: self
                .states
                .iter()
                .map(|(k, v)| (k.to_string(), *v as f64 / n))
                .collect(),
            verdict: if saturated {
                Verdict::LaneSaturated(self.lane)
            } else {
                Verdict::Healthy
            },
            evidence,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn watch(samples: u32, all_busy: u32) -> LaneWatch {
        LaneWatch {
            lane: sluice::Lane::Cpu,
            threads: Vec::new(),
            samples,
            busy_sum: u64::from(all_busy) * 2,
            busy_max: 2,
            all_busy,
            states: BTreeMap::from([("cpu", u64::from(all_busy) * 2)]),
        }
    }

    #[test]
    fn a_lane_busy_most_of_the_window_is_saturated_and_named() {
        let r = watch(100, 90).report();
        assert_eq!(r.verdict, Verdict::LaneSaturated(sluice::Lane::Cpu));
        assert_eq!(r.verdict.as_str(), "pool-saturated");
        assert!(
            r.evidence.starts_with("sluice's cpu lane saturated"),
            "{}",
            r.evidence
        );
        assert_eq!(r.saturation_pct, 90.0);
        assert_eq!(r.states["cpu"], 1.8);
        let idle = watch(100, 10).report();
        assert_eq!(idle.verdict, Verdict::Healthy);
        // No samples: no verdict from nothing.
        assert_eq!(watch(0, 0).report().verdict, Verdict::Healthy);
    }

    #[test]
    fn every_lane_is_named() {
        assert_eq!(THREAD_NAMES.len(), sluice::Lane::ALL.len());
        assert_eq!(THREAD_NAMES[0].1, "sluice-cpu");
    }
}
