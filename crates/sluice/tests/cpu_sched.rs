//! `Builder::cpu_sched` / `SLUICE_CPU_SCHED`: the `Cpu` lane's workers run
//! under the policy asked for, at the lane's nice value; the I/O lanes do not
//! change; bad values and the libuv policy are refused with the setting named.

mod common;

use common::spin_until_yield;
use sluice::{Builder, CHECKPOINT_QUANTUM, CpuSched, Lane, Policy, Pool};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The calling thread's scheduling policy (`SCHED_OTHER` 0, `SCHED_BATCH`
/// 3, `SCHED_IDLE` 5) and nice value, from `/proc`.
fn policy_and_nice() -> (u32, i32) {
    let policy = policy_in("/proc/thread-self/sched");
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
    // Field 19 (nice), counted after the command name's closing parenthesis.
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    let nice = after.split(' ').nth(16).unwrap().parse().unwrap();
    (policy, nice)
}

/// The `policy` line of a thread's `sched` file in `/proc`.
fn policy_in(sched: &str) -> u32 {
    std::fs::read_to_string(sched)
        .unwrap()
        .lines()
        .find(|l| l.starts_with("policy"))
        .and_then(|l| l.split(':').nth(1))
        .and_then(|v| v.trim().parse().ok())
        .unwrap()
}

/// The nice value a promoted guarded worker takes: the process's, or with
/// neither `CAP_SYS_NICE` nor `RLIMIT_NICE` the lowest above it the
/// process may set (`20 - RLIMIT_NICE`), at most the lane's.
fn promoted_nice(process_nice: i32, lane_nice: i32) -> i32 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let cap_eff = status
        .lines()
        .find_map(|l| l.strip_prefix("CapEff:"))
        .map(|v| u64::from_str_radix(v.trim(), 16).unwrap())
        .unwrap();
    // CAP_SYS_NICE is capability 23.
    if cap_eff & (1 << 23) != 0 {
        return process_nice;
    }
    let limits = std::fs::read_to_string("/proc/self/limits").unwrap();
    let soft = limits
        .lines()
        .find(|l| l.starts_with("Max nice priority"))
        .and_then(|l| l.split_whitespace().nth(3))
        .unwrap();
    let limit: i32 = if soft == "unlimited" {
        40
    } else {
        soft.parse::<i32>().unwrap().min(40)
    };
    process_nice
        .max(20 - limit)
        .min(lane_nice.max(process_nice))
}

/// `builder` built with a guarded `Cpu` lane; `None` (the test skipped,
/// with a note) where this process may not take a worker out of
/// `SCHED_IDLE`, the one refusal allowed.
fn guarded(builder: Builder) -> Option<Pool> {
    match builder.cpu_sched(CpuSched::Guarded).build() {
        Ok(pool) => Some(pool),
        Err(e) => {
            let e = e.to_string();
            assert!(e.contains("RLIMIT_NICE"), "{e}");
            eprintln!("skipped: {e}");
            None
        }
    }
}

fn on(pool: &Pool, lane: Lane) -> (u32, i32) {
    pool.spawn(lane, policy_and_nice).wait().unwrap()
}

#[test]
fn cpu_workers_run_under_the_policy_asked_for() {
    let process_nice = policy_and_nice().1;
    for (sched, want) in [
        (CpuSched::Normal, 0),
        (CpuSched::Batch, 3),
        (CpuSched::Idle, 5),
    ] {
        let pool = Pool::builder().cpu_sched(sched).build().unwrap();
        let (policy, nice) = on(&pool, Lane::Cpu);
        assert_eq!(policy, want, "{sched:?}");
        assert_eq!(
            nice,
            process_nice.max(10),
            "{sched:?}: the lane's nice value"
        );
        assert_eq!(on(&pool, Lane::FastIo).0, 0, "{sched:?}: FastIo unchanged");
        assert_eq!(on(&pool, Lane::SlowIo).0, 0, "{sched:?}: SlowIo unchanged");
    }
}

#[test]
fn the_environment_chooses_the_policy() {
    let env = |v: &'static str| move |k: &str| (k == "SLUICE_CPU_SCHED").then(|| v.to_string());
    let pool = Builder::from_vars(env(" Idle ")).unwrap().build().unwrap();
    assert_eq!(on(&pool, Lane::Cpu).0, 5);
    let pool = Builder::from_vars(env("batch")).unwrap().build().unwrap();
    assert_eq!(on(&pool, Lane::Cpu).0, 3);
    let err = Builder::from_vars(env("fifo")).unwrap_err().to_string();
    assert!(err.contains("SLUICE_CPU_SCHED"), "{err}");
    assert!(err.contains("fifo"), "{err}");
    assert!(err.contains("normal, batch, idle or guarded"), "{err}");
}

#[test]
fn the_libuv_policy_refuses_it() {
    let err = Pool::builder()
        .policy(Policy::Libuv { threads: Some(4) })
        .cpu_sched(CpuSched::Idle)
        .build()
        .unwrap_err()
        .to_string();
    assert!(err.contains("cpu_sched"), "{err}");
    assert!(err.contains("scheduling policy"), "{err}");
}

/// Threads of this process that spin at its own policy and nice value until
/// dropped: a neighbour that wants every core.
///
/// The tests of this file run in parallel, and one test's hogs would starve
/// another test's guarded lane (and have it promoted while it is meant to
/// be back under `SCHED_IDLE`). A test that starts hogs holds [`CORES`]
/// for its whole run, so no guarded test sees another's hogs.
struct Hogs {
    stop: Arc<AtomicBool>,
    threads: Vec<std::thread::JoinHandle<()>>,
}

/// Held by each test that starts [`Hogs`], from before its pool judges
/// anything to its end.
static CORES: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// Takes [`CORES`] (a test that failed while holding it does not fail the
/// others).
fn cores_to_myself() -> std::sync::MutexGuard<'static, ()> {
    CORES.lock().unwrap_or_else(|e| e.into_inner())
}

impl Hogs {
    fn start(n: usize) -> Hogs {
        let stop = Arc::new(AtomicBool::new(false));
        let threads = (0..n)
            .map(|_| {
                let stop = Arc::clone(&stop);
                std::thread::spawn(move || {
                    while !stop.load(Ordering::Relaxed) {
                        std::hint::spin_loop();
                    }
                })
            })
            .collect();
        Hogs { stop, threads }
    }
}

impl Drop for Hogs {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
        for t in self.threads.drain(..) {
            t.join().unwrap();
        }
    }
}

/// A `Cpu` task that computes until its own policy is `want` (or 60 s pass),
/// so that the lane is busy while the guard judges it. Returns the policy it
/// ended under.
fn compute_until(pool: &Pool, want: u32) -> u32 {
    pool.spawn(Lane::Cpu, move || computing_until(want))
        .wait()
        .unwrap()
}

/// On a worker: computes until the thread's own policy is `want` (or 60 s
/// pass), and returns the policy it ended under.
fn computing_until(want: u32) -> u32 {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        let (policy, _) = policy_and_nice();
        if policy == want || Instant::now() > until {
            return policy;
        }
        // A little work between reads of /proc.
        let mut x = 0u64;
        for i in 0..200_000u64 {
            x = std::hint::black_box(x.wrapping_add(i));
        }
    }
}

#[test]
fn a_guarded_lane_idles_is_promoted_while_starved_and_returns() {
    let _cores = cores_to_myself();
    let Some(pool) = guarded(Pool::builder()) else {
        return;
    };
    let process_nice = policy_and_nice().1;
    // A short task: SCHED_IDLE at the lane's nice value.
    assert_eq!(on(&pool, Lane::Cpu), (5, process_nice.max(10)));
    assert_eq!(pool.metrics().lane(Lane::Cpu).sched_promoted, Some(false));
    // Every core wanted by this process's own spinning threads, at its own
    // priority: the idle worker starves, and the guard promotes it.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let hogs = Hogs::start(cores + 1);
    assert_eq!(compute_until(&pool, 0), 0, "promoted while starved");
    let m = pool.metrics();
    let cpu = m.lane(Lane::Cpu);
    assert_eq!(cpu.sched_promoted, Some(true));
    assert!(cpu.sched_promotions_total.unwrap() >= 1);
    assert_eq!(cpu.sched_refused_total, Some(0));
    // Promoted at the process's own nice value (or the lowest above it the
    // process may set): beside another process it weighs what the
    // process's other threads weigh.
    assert_eq!(on(&pool, Lane::Cpu), (0, promoted_nice(process_nice, 10)));
    // And its checkpoints do not yield while it is promoted (a hold is
    // 0.5 s at least: judged only when no move came in between).
    let before = pool.metrics().lane(Lane::Cpu).sched_promotions_total;
    let yielded = pool
        .spawn(Lane::Cpu, || spin_until_yield(CHECKPOINT_QUANTUM * 10))
        .wait()
        .unwrap();
    let after = pool.metrics();
    let after = after.lane(Lane::Cpu);
    if after.sched_promoted == Some(true) && after.sched_promotions_total == before {
        assert!(!yielded, "a promoted worker's checkpoint yielded");
    }
    drop(hogs);
    // The cores are free again: after its hold the lane goes back to
    // SCHED_IDLE, at the lane's nice value, and stays there while nothing
    // starves it.
    let promotions = promotions_after_the_hogs(&pool);
    assert_eq!(compute_until(&pool, 5), 5, "back to SCHED_IDLE");
    let promoted = pool.metrics().lane(Lane::Cpu).sched_promoted;
    let policy_and_nice = on(&pool, Lane::Cpu);
    if promoted_again(&pool, promotions) {
        eprintln!(
            "promoted again after the hogs were gone (another process starved the lane): its return is the policy it was seen under"
        );
    } else {
        assert_eq!(promoted, Some(false));
        assert_eq!(policy_and_nice, (5, process_nice.max(10)));
    }
    assert_eq!(pool.metrics().lane(Lane::Cpu).sched_refused_total, Some(0));
    // The I/O lanes are never moved.
    assert_eq!(on(&pool, Lane::FastIo).0, 0);
}

#[test]
fn guarded_needs_the_adaptive_cpu_lane() {
    let err = Pool::builder()
        .cpu_sched(CpuSched::Guarded)
        .adaptive(Lane::Cpu, false)
        .build()
        .unwrap_err()
        .to_string();
    assert!(err.contains("cpu_sched"), "{err}");
    assert!(err.contains("adaptive"), "{err}");
    let env = |k: &str| (k == "SLUICE_CPU_SCHED").then(|| "Guarded".to_string());
    // The environment's token is accepted; the build then needs the right
    // to leave SCHED_IDLE.
    if let Err(e) = Builder::from_vars(env).unwrap().build() {
        assert!(e.to_string().contains("RLIMIT_NICE"), "{e}");
    }
}

/// The guarded `Cpu` lane's promotions so far, read once this test's own
/// hogs are gone. Other test binaries run beside this one (`scripts/test`
/// runs the slow targets, HTTP floods among them, beside the rest): where
/// they starve the lane, the guard promotes it again, as it should.
fn promotions_after_the_hogs(pool: &Pool) -> Option<u64> {
    pool.metrics().lane(Lane::Cpu).sched_promotions_total
}

/// Whether the guard promoted the lane again since `promotions` was read:
/// another process starved it. Read after a pause, so that a promotion
/// whose flag was seen is counted by then (`guard_move` sets the flag,
/// then counts).
fn promoted_again(pool: &Pool, promotions: Option<u64>) -> bool {
    std::thread::sleep(Duration::from_millis(10));
    pool.metrics().lane(Lane::Cpu).sched_promotions_total != promotions
}

/// Polls `f` every 10 ms until it holds or 60 s pass; returns its last value.
fn eventually(mut f: impl FnMut() -> bool) -> bool {
    let until = Instant::now() + Duration::from_secs(60);
    loop {
        if f() || Instant::now() > until {
            return f();
        }
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn a_promoted_lane_runs_its_neighbour_share_and_gives_it_back() {
    let _cores = cores_to_myself();
    let budget = 2;
    let Some(pool) = guarded(Pool::builder().threads(Lane::Cpu, budget)) else {
        return;
    };
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let hogs = Hogs::start(cores + 1);
    // Four budgets' worth of tasks that compute until released, counting
    // how many run at once.
    let release = Arc::new(AtomicBool::new(false));
    let running = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let most = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let tasks: Vec<_> = (0..4 * budget)
        .map(|_| {
            let (release, running, most) = (release.clone(), running.clone(), most.clone());
            pool.spawn(Lane::Cpu, move || {
                let now = running.fetch_add(1, Ordering::SeqCst) + 1;
                most.fetch_max(now, Ordering::SeqCst);
                let mut x = 0u64;
                while !release.load(Ordering::Relaxed) {
                    for i in 0..10_000u64 {
                        x = std::hint::black_box(x.wrapping_add(i));
                    }
                    sluice::checkpoint();
                }
                running.fetch_sub(1, Ordering::SeqCst);
            })
        })
        .collect();
    // Starved beside the spinning threads, the lane is promoted and runs
    // twice its budget; never more.
    assert!(
        eventually(|| most.load(Ordering::SeqCst) == 2 * budget),
        "the promoted lane ran at most {} tasks at once",
        most.load(Ordering::SeqCst)
    );
    let cpu = pool.metrics();
    let cpu = cpu.lane(Lane::Cpu);
    assert!(cpu.sched_promotions_total.unwrap() >= 1);
    assert_eq!(cpu.compensated_total, 0, "no worker was blocked");
    assert!(cpu.threads_peak.unwrap() <= 2 * budget as u64);
    drop(hogs);
    release.store(true, Ordering::Relaxed);
    for t in tasks {
        t.wait().unwrap();
    }
    assert_eq!(most.load(Ordering::SeqCst), 2 * budget);
    // The cores are free: after its hold the lane is back under
    // SCHED_IDLE and back to its budget (or, where another process starved
    // it again meanwhile, promoted again, and counted).
    let promotions = promotions_after_the_hogs(&pool);
    assert_eq!(compute_until(&pool, 5), 5, "back to SCHED_IDLE");
    assert!(
        eventually(
            || pool.metrics().lane(Lane::Cpu).threads_alive.unwrap() <= budget as u64
                || promoted_again(&pool, promotions)
        ),
        "{:?} threads alive after the hold",
        pool.metrics().lane(Lane::Cpu).threads_alive
    );
}

/// The policy (`/proc/self/task/TID/sched`) of thread `tid` of this process.
fn policy_of(tid: i32) -> u32 {
    policy_in(&format!("/proc/self/task/{tid}/sched"))
}

/// A worker started by a worker under `SCHED_IDLE` inherits `SCHED_IDLE`
/// and keeps it until it registers with its lane. A promotion that comes
/// in between moves it too: it does not wait, starved, for the slice that
/// would let it register. The worker is held in the start hook (which runs
/// before it registers) until the promotion has been seen.
#[test]
fn a_promotion_reaches_a_worker_that_has_not_registered_yet() {
    use std::sync::{Condvar, Mutex};
    let _cores = cores_to_myself();
    // The held worker's thread id, and whether it may go on.
    #[derive(Default)]
    struct Held {
        tid: Option<i32>,
        go: bool,
    }
    let held = Arc::new((Mutex::new(Held::default()), Condvar::new()));
    let hook = Arc::clone(&held);
    let Some(pool) = guarded(
        Pool::builder()
            .threads(Lane::Cpu, 2)
            .on_thread_start(move || {
                // Only a Cpu worker born under SCHED_IDLE (started by an idle
                // worker), and only the first.
                if std::thread::current().name() != Some("sluice-cpu") || policy_and_nice().0 != 5 {
                    return;
                }
                let (lock, cv) = &*hook;
                let mut h = lock.lock().unwrap();
                if h.tid.is_some() {
                    return;
                }
                h.tid = Some(sluice_sched::current_tid());
                cv.notify_all();
                while !h.go {
                    h = cv.wait(h).unwrap();
                }
            }),
    ) else {
        return;
    };
    // Two tasks in one batch: one wake-up, so the first worker (started by
    // this thread, idle once registered) claims the first task and, the
    // last searcher turning busy with one more queued, starts the next
    // worker itself: it inherits SCHED_IDLE and is held before it
    // registers. The first task computes until the lane is promoted.
    let mut tasks = pool
        .spawn_batch(
            Lane::Cpu,
            [true, false].map(|computes| {
                move || {
                    if computes {
                        computing_until(0)
                    } else {
                        policy_and_nice().0
                    }
                }
            }),
        )
        .into_iter();
    let (first, second) = (tasks.next().unwrap(), tasks.next().unwrap());
    let release = || {
        let (lock, cv) = &*held;
        lock.lock().unwrap().go = true;
        cv.notify_all();
    };
    // The held worker's id; or none, where another process starved the
    // lane so that it was promoted before the first worker started the
    // second (which is then born outside SCHED_IDLE, and not held).
    let until = Instant::now() + Duration::from_secs(60);
    let tid = loop {
        let (lock, cv) = &*held;
        let h = cv
            .wait_timeout(lock.lock().unwrap(), Duration::from_millis(10))
            .unwrap()
            .0;
        if let Some(tid) = h.tid {
            break Some(tid);
        }
        drop(h);
        if pool.metrics().lane(Lane::Cpu).sched_promoted == Some(true) {
            break None;
        }
        assert!(
            Instant::now() < until,
            "no Cpu worker was started by an idle worker"
        );
    };
    let Some(tid) = tid else {
        eprintln!("skipped: the lane was promoted before a worker was born under SCHED_IDLE");
        release();
        first.wait().unwrap();
        second.wait().unwrap();
        return;
    };
    assert_eq!(policy_of(tid), 5, "born under SCHED_IDLE");
    // Starved beside the spinning threads, the lane is promoted: the first
    // task sees itself leave SCHED_IDLE, and so was the held worker.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let hogs = Hogs::start(cores + 1);
    assert_eq!(first.wait().unwrap(), 0, "promoted while starved");
    let promoted = pool.metrics().lane(Lane::Cpu).sched_promoted;
    let policy = policy_of(tid);
    drop(hogs);
    release();
    second.wait().unwrap();
    // Judged only where the lane was still promoted when the held worker
    // was read (a hold is 0.5 s at least, so it nearly always is).
    if promoted == Some(true) {
        assert_eq!(policy, 0, "a promotion left an unregistered worker idle");
    } else {
        eprintln!("the lane went back to SCHED_IDLE before the held worker was read");
    }
}
