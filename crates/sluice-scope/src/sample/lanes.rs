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
//! Each lane's queue depth is read from the process's memory: the
//! package's addon exports `sluice_scope_lanes`, a pointer to the core's
//! gauge block, which holds the addresses of each lane's queue depth and
//! thread counters (`target/addon.rs` finds the addon, `lane_gauges.rs`
//! reads the block: version 1). Each sample reads them once, with the
//! threads; `queue_depth` is the window's mean over the readings kept (a
//! torn one is dropped), `queue_depth_max` the deepest, and `running` the
//! pool's own count of threads running a task (no floor: a task waiting on
//! a lock runs). Where they cannot be read (a package from before the
//! block, a layout version this scope does not know, memory it may not
//! read), `queue_depth` is `null` and `queue_unread` says why; threads,
//! busy and saturation need nothing but `/proc`. libuv's pool is found as
//! before: its methods look at libuv's own symbols and static data, never
//! at sluice's threads, so its verdict is not moved by them.

use crate::sample::classify::{self, IdleWait, ThreadState};
use crate::sample::lane_gauges::{self, Block, LaneGauges, Unread};
use crate::sample::sampler::Watched;
use crate::target::Target;
use crate::target::addon::{AddonFinder, AddonSite};
use crate::target::memory::RemoteMemory;
use crate::verdict::doctor::POOL_SATURATED_PCT;
use serde::Serialize;
use sluice_health::Verdict;
use std::collections::BTreeMap;

/// The lanes, as their threads are named: `(lane, comm)`.
pub(crate) const THREAD_NAMES: [(sluice::Lane, &str); 3] = [
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
    /// Mean tasks waiting in the lane's queue (queued, not yet claimed by a
    /// thread) over the window's readings; `null` when none was read
    /// (`queue_unread` says why).
    pub queue_depth: Option<f64>,
    /// Most tasks waiting in one reading.
    pub queue_depth_max: Option<u64>,
    /// Mean threads running a task, by the pool's own count (`null` with
    /// `queue_depth`).
    pub running: Option<f64>,
    /// Samples whose gauges were read (of `samples` in the window's report).
    pub queue_readings: u32,
    /// Why `queue_depth` is `null`: the last reason a reading failed.
    pub queue_unread: Option<String>,
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
    queue: QueueCounts,
}

/// One lane's gauge readings over a window.
#[derive(Debug, Default)]
struct QueueCounts {
    readings: u32,
    queued_sum: u64,
    queued_max: u64,
    running_sum: u64,
    /// Why the last reading failed.
    unread: Option<String>,
}

/// Where the package's gauge blocks are: one per copy of the addon (two
/// packages in one process have two pools, whose lanes' threads share
/// their names: their gauges add up).
#[derive(Debug, Default)]
struct Gauges {
    finder: AddonFinder,
    sites: Vec<AddonSite>,
    /// Each site's block as read at the window's start.
    blocks: Vec<Result<Block, Unread>>,
    /// Why no site was found.
    none: Option<String>,
}

/// Watches every lane that has threads; empty in a process without
/// sluice's package.
#[derive(Debug, Default)]
pub(crate) struct Lanes {
    lanes: Vec<LaneWatch>,
    buf: Vec<u8>,
    gauges: Gauges,
}

impl Lanes {
    /// Lists `target`'s lane threads again (a window's start), keeping the
    /// open files of threads that stay, zeroes the counts, and (where
    /// there are lanes) finds and reads the gauge blocks through `mem`.
    pub(crate) fn rediscover(&mut self, target: &Target, mem: Option<&RemoteMemory>) {
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
                    queue: QueueCounts::default(),
                }
            })
            .collect();
        if self.buf.is_empty() {
            self.buf = vec![0u8; 256];
        }
        if !self.lanes.is_empty() {
            self.gauges.rediscover(target.pid, mem);
        }
    }

    /// Samples every lane thread once, and the lanes' gauges through `mem`.
    pub(crate) fn tick(&mut self, mem: Option<&RemoteMemory>) {
        let readings = self.gauges.read(mem);
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
            l.queue.add(&readings[l.lane_index()]);
        }
    }

    /// The window's reports, one per lane with threads.
    pub(crate) fn reports(&self) -> Vec<LaneReport> {
        self.lanes.iter().map(LaneWatch::report).collect()
    }
}

impl Gauges {
    /// Finds the addon (until found) and reads each block again.
    fn rediscover(&mut self, pid: u32, mem: Option<&RemoteMemory>) {
        let Some(mem) = mem else {
            self.blocks.clear();
            self.none = Some(format!("/proc/{pid}/mem is not readable"));
            return;
        };
        if self.sites.is_empty() {
            match crate::target::maps::read(pid) {
                Ok(maps) => {
                    let found = self.finder.find(pid, &maps);
                    self.none = found.sites.is_empty().then(|| found.why_none());
                    self.sites = found.sites;
                }
                Err(e) => self.none = Some(format!("reading /proc/{pid}/maps: {e}")),
            }
        }
        self.blocks = self
            .sites
            .iter()
            .map(|s| lane_gauges::read_block(mem, s.symbol))
            .collect();
    }

    /// One reading of every lane's gauges, summed over the blocks, by
    /// lane index; a lane is read only if every block read it.
    fn read(&self, mem: Option<&RemoteMemory>) -> [Result<LaneGauges, String>; 3] {
        let (Some(mem), false) = (mem, self.blocks.is_empty()) else {
            let none = self.none.clone().unwrap_or_else(|| "no gauge block".into());
            return std::array::from_fn(|_| Err(none.clone()));
        };
        let mut sum: [Result<LaneGauges, String>; 3] =
            std::array::from_fn(|_| Ok(LaneGauges::default()));
        for block in &self.blocks {
            let reading = match block {
                Ok(b) => b.read(mem),
                Err(e) => Err(e.clone()),
            };
            for (i, total) in sum.iter_mut().enumerate() {
                let lane = match &reading {
                    Ok(lanes) => lanes[i].clone(),
                    Err(e) => Err(e.clone()),
                };
                match (total.as_mut(), lane) {
                    (Ok(t), Ok(g)) => {
                        t.queued += g.queued;
                        t.alive += g.alive;
                        t.running += g.running;
                    }
                    (_, Err(e)) => *total = Err(e.to_string()),
                    (Err(_), Ok(_)) => {}
                }
            }
        }
        sum
    }
}

impl QueueCounts {
    fn add(&mut self, reading: &Result<LaneGauges, String>) {
        match reading {
            Ok(g) => {
                self.readings += 1;
                self.queued_sum += g.queued;
                self.queued_max = self.queued_max.max(g.queued);
                self.running_sum += g.running;
            }
            Err(e) => self.unread = Some(e.clone()),
        }
    }

    /// `(mean queued, most queued, mean running)`, if any reading was kept.
    fn means(&self) -> Option<(f64, u64, f64)> {
        let n = f64::from(self.readings);
        (self.readings > 0).then(|| {
            (
                self.queued_sum as f64 / n,
                self.queued_max,
                self.running_sum as f64 / n,
            )
        })
    }
}

impl LaneWatch {
    fn lane_index(&self) -> usize {
        sluice::Lane::ALL
            .iter()
            .position(|l| *l == self.lane)
            .expect("every lane is in Lane::ALL")
    }

    fn report(&self) -> LaneReport {
        let n = f64::from(self.samples.max(1));
        let saturation_pct = 100.0 * f64::from(self.all_busy) / n;
        let busy_threads = self.busy_sum as f64 / n;
        let threads = self.threads.len();
        let saturated = self.samples > 0 && saturation_pct >= POOL_SATURATED_PCT;
        let name = self.lane.name();
        let means = self.queue.means();
        let unread = match (&means, &self.queue.unread) {
            (None, Some(why)) => Some(why.clone()),
            (None, None) => Some("no sample read the gauges".to_string()),
            (Some(_), _) => None,
        };
        let queue = match (means, &unread) {
            (Some((mean, max, _)), _) => {
                format!("{mean:.1} tasks waited in its queue on average ({max} at most)")
            }
            (None, Some(why)) => format!("queue depth not read: {why}"),
            (None, None) => unreachable!("unread is set where means are not"),
        };
        let evidence = if saturated {
            format!(
                "sluice's {name} lane saturated: all {threads} of its threads busy in {saturation_pct:.0} % of samples (threshold {POOL_SATURATED_PCT:.0} %); {queue}"
            )
        } else {
            format!(
                "sluice's {name} lane: {busy_threads:.1} of {threads} threads busy on average, all busy in {saturation_pct:.0} % of samples; {queue}"
            )
        };
        LaneReport {
            lane: name,
            threads,
            busy_threads,
            busy_threads_max: self.busy_max,
            saturation_pct,
            queue_depth: means.map(|m| m.0),
            queue_depth_max: means.map(|m| m.1),
            running: means.map(|m| m.2),
            queue_readings: self.queue.readings,
            queue_unread: unread,
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
            queue: QueueCounts::default(),
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
    fn a_saturated_lanes_verdict_says_how_deep_its_queue_was() {
        let mut w = watch(4, 4);
        for queued in [12, 14, 14, 16] {
            w.queue.add(&Ok(LaneGauges {
                queued,
                alive: 2,
                running: 2,
            }));
        }
        // A torn reading is left out of the means, not counted as 0.
        w.queue.add(&Err("torn".into()));
        let r = w.report();
        assert_eq!(r.verdict, Verdict::LaneSaturated(sluice::Lane::Cpu));
        assert_eq!(
            (r.queue_depth, r.queue_depth_max, r.running),
            (Some(14.0), Some(16), Some(2.0))
        );
        assert_eq!((r.queue_readings, r.queue_unread), (4, None));
        assert!(
            r.evidence
                .ends_with("; 14.0 tasks waited in its queue on average (16 at most)"),
            "{}",
            r.evidence
        );
    }

    #[test]
    fn an_unread_queue_is_null_with_the_reason() {
        let mut w = watch(2, 2);
        w.queue
            .add(&Err("the package's pool is not built yet".into()));
        let r = w.report();
        assert_eq!(
            (r.queue_depth, r.queue_depth_max, r.running),
            (None, None, None)
        );
        assert_eq!(
            r.queue_unread.as_deref(),
            Some("the package's pool is not built yet")
        );
        assert!(
            r.evidence
                .ends_with("; queue depth not read: the package's pool is not built yet"),
            "{}",
            r.evidence
        );
        let json = serde_json::to_value(&r).unwrap();
        assert!(json["queue_depth"].is_null());
        assert_eq!(json["queue_unread"], "the package's pool is not built yet");
        // No sample at all: null, and said.
        let r = watch(0, 0).report();
        assert_eq!(r.queue_unread.as_deref(), Some("no sample read the gauges"));
    }

    #[test]
    fn every_lane_is_named() {
        assert_eq!(THREAD_NAMES.len(), sluice::Lane::ALL.len());
        assert_eq!(THREAD_NAMES[0].1, "sluice-cpu");
    }
}
