//! How much CPU an idle pool burns.
//!
//! For each policy: build a pool, run a burst on every lane so that each
//! lane's threads exist (as many 5 ms sleeping tasks as the lane's limit,
//! then 1000 trivial ones), let the workers' post-burst spinning end, then
//! measure the process's CPU time over an idle window while the main thread
//! sleeps. A plain `main` (no criterion): one measurement per policy, printed
//! as a table.
//!
//! CPU time is read from `/proc` (the workspace forbids `unsafe`, so no
//! `getrusage`): `utime + stime` of `/proc/self/stat` (clock ticks, whole
//! process, exited threads included) and the sum of the first field of
//! `/proc/self/task/*/schedstat` (nanoseconds on CPU per live thread, the
//! main thread left out). The context switches of `/proc/self/task/*/status`
//! (same threads) count the wake-ups.
//!
//! Run with `cargo bench -p sluice-pool --bench idle`. Linux only.

use sluice::{Lane, Policy, Pool};
use std::fs;
use std::thread;
use std::time::{Duration, Instant};

/// How long the workers get to stop spinning after the burst.
const SETTLE: Duration = Duration::from_millis(200);
/// The idle window that is measured.
const WINDOW: Duration = Duration::from_secs(2);
/// Linux's `USER_HZ`: the unit of `utime` and `stime`.
const TICKS_PER_SEC: u64 = 100;

/// CPU use of the whole process at one instant.
#[derive(Clone, Copy, Default)]
struct Cpu {
    /// `utime + stime`, in ticks.
    ticks: u64,
    /// Sum over live threads other than the main one of the time on CPU,
    /// in ns. The main thread is left out: it is the one reading `/proc`,
    /// and that reading costs more the more threads there are.
    thread_ns: u64,
    /// Sum over the same threads of voluntary + involuntary context switches.
    switches: u64,
}

impl Cpu {
    fn now() -> Cpu {
        let stat = fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
        // The command name may hold spaces; fields resume after its ')'.
        let rest = &stat[stat.rfind(')').expect("malformed stat") + 2..];
        let fields: Vec<&str> = rest.split_whitespace().collect();
        // `rest` starts at field 3 (state): utime is field 14, stime 15.
        let ticks =
            fields[11].parse::<u64>().expect("utime") + fields[12].parse::<u64>().expect("stime");
        let mut cpu = Cpu {
            ticks,
            ..Cpu::default()
        };
        let main_tid = std::process::id().to_string();
        for task in fs::read_dir("/proc/self/task")
            .expect("/proc/self/task")
            .flatten()
        {
            if task.file_name().to_str() == Some(main_tid.as_str()) {
                continue;
            }
            let dir = task.path();
            // A thread may exit between the listing and the reads.
            if let Ok(s) = fs::read_to_string(dir.join("schedstat")) {
                cpu.thread_ns += s
                    .split_whitespace()
                    .next()
                    .and_then(|n| n.parse::<u64>().ok())
                    .unwrap_or(0);
            }
            if let Ok(s) = fs::read_to_string(dir.join("status")) {
                cpu.switches += s
                    .lines()
                    .filter(|l| l.contains("ctxt_switches:"))
                    .filter_map(|l| l.split_whitespace().nth(1)?.parse::<u64>().ok())
                    .sum::<u64>();
            }
        }
        cpu
    }

    /// (ms by ticks, ms by per-thread ns, context switches) from `self` to `later`.
    fn until(self, later: Cpu) -> (f64, f64, u64) {
        (
            (later.ticks.saturating_sub(self.ticks) * 1000) as f64 / TICKS_PER_SEC as f64,
            later.thread_ns.saturating_sub(self.thread_ns) as f64 / 1e6,
            later.switches.saturating_sub(self.switches),
        )
    }
}

/// Runs a burst on every lane so that each lane's threads exist.
fn burst(pool: &Pool) {
    let mut sleepers = Vec::new();
    for lane in Lane::ALL {
        // The libuv policy reports its sizes only once started.
        let n = pool.limit(lane).max(4);
        sleepers
            .extend((0..n).map(|_| pool.spawn(lane, || thread::sleep(Duration::from_millis(5)))));
    }
    for t in sleepers {
        t.wait().expect("sleeper failed");
    }
    for lane in Lane::ALL {
        let tasks: Vec<_> = (0..1000u64).map(|i| pool.spawn(lane, move || i)).collect();
        for t in tasks {
            t.wait().expect("task failed");
        }
    }
}

struct Row {
    subject: &'static str,
    threads: u64,
    settle: (f64, f64, u64),
    idle: (f64, f64, u64),
}

fn measure(subject: &'static str, pool: Option<Pool>) -> Row {
    if let Some(pool) = &pool {
        burst(pool);
    }
    let threads = pool.as_ref().map_or(0, |p| p.metrics().threads_alive);
    let t0 = Cpu::now();
    thread::sleep(SETTLE);
    let t1 = Cpu::now();
    let start = Instant::now();
    thread::sleep(WINDOW);
    let elapsed = start.elapsed();
    let t2 = Cpu::now();
    if let Some(pool) = pool {
        let alive = pool.metrics().threads_alive;
        assert_eq!(
            alive, threads,
            "{subject}: threads exited during the window"
        );
        drop(pool);
    }
    // Give the dropped pool's threads time to exit before the next row.
    thread::sleep(Duration::from_millis(100));
    assert!(
        elapsed < WINDOW + Duration::from_millis(100),
        "window overran"
    );
    Row {
        subject,
        threads,
        settle: t0.until(t1),
        idle: t1.until(t2),
    }
}

fn main() {
    // `cargo bench` passes `--bench`; nothing here takes arguments.
    let rows = [
        measure("no pool (baseline)", None),
        measure(
            "sluice lanes (default)",
            Some(Pool::builder().build().expect("lanes pool")),
        ),
        measure(
            "sluice libuv (threads: 4)",
            Some(
                Pool::builder()
                    .policy(Policy::Libuv { threads: Some(4) })
                    .build()
                    .expect("libuv pool"),
            ),
        ),
    ];
    println!(
        "idle CPU: {} ms settle after the burst, then a {} ms idle window (main thread asleep)",
        SETTLE.as_millis(),
        WINDOW.as_millis()
    );
    println!(
        "{:<27} {:>7} | {:>12} {:>12} {:>9} | {:>12} {:>12} {:>9}",
        "subject", "threads", "settle ms", "settle ms", "settle", "idle ms", "idle ms", "idle"
    );
    println!(
        "{:<27} {:>7} | {:>12} {:>12} {:>9} | {:>12} {:>12} {:>9}",
        "", "alive", "(ticks)", "(sched ns)", "switches", "(ticks)", "(sched ns)", "switches"
    );
    for r in &rows {
        println!(
            "{:<27} {:>7} | {:>12.1} {:>12.3} {:>9} | {:>12.1} {:>12.3} {:>9}",
            r.subject, r.threads, r.settle.0, r.settle.1, r.settle.2, r.idle.0, r.idle.1, r.idle.2
        );
    }
}
