//! Blocking compensation: lanes grow while their workers are blocked, keep
//! computing threads within the budget, and give the threads back. Every
//! assertion is a count.

mod common;

use common::{Gate, fixed, wait_for};
use rand::Rng;
use sluice::{Lane, Pool, Task, TaskError};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::mpsc::{Receiver, Sender};
use std::time::Duration;

/// A task's body: a declared wait at the gate.
fn declared(g: &Gate, _: usize) {
    sluice::blocking(|| g.pass());
}

/// The counters of a quiet lane balance, and none of its workers is
/// counted blocked.
fn assert_balanced(l: &sluice::LaneSnapshot) {
    common::assert_balanced(l);
    assert_eq!(l.blocked_threads, Some(0), "{l:?}");
}

/// True (and says so) where this kernel has no
/// `/proc/thread-self/schedstat`: the monitor's detection is off, so `then`.
fn no_schedstat(then: &str) -> bool {
    let missing = std::fs::read_to_string("/proc/thread-self/schedstat").is_err();
    if missing {
        eprintln!("skipped: this kernel has no /proc/thread-self/schedstat, so {then}");
    }
    missing
}

#[test]
fn declared_waits_grow_the_lane_to_run_its_queue() {
    let pool = Pool::builder()
        .threads(Lane::FastIo, 2)
        .keep_alive(Lane::FastIo, Duration::from_millis(20))
        .build()
        .unwrap();
    // Would time out with a fixed budget of two.
    let (gate, tasks) = Gate::held_with(&pool, Lane::FastIo, 8, 8, declared);
    let l = pool.metrics().lane(Lane::FastIo).clone();
    assert_eq!((l.in_flight, l.queue_depth), (8, 0));
    assert_eq!(l.threads_alive, Some(8));
    assert_eq!(l.compensated_total, 6, "threads started beyond the budget");
    // Eight threads need a spawn limit of eight: at least six sections were
    // counted, and none leaves before the gate opens. (The monitor stops
    // once the queue is empty, so the last sections may stay uncounted.)
    let blocked = l.blocked_threads.unwrap();
    assert!((6..=8).contains(&blocked), "{l:?}");
    gate.release(tasks);
    let l = pool.metrics().lane(Lane::FastIo).clone();
    assert_eq!(l.threads_peak, Some(8));
    assert_eq!(l.blocking_sections_total, 8);
    assert_balanced(&l);
    // The surplus retires as soon as its task ends; the rest after keep-alive.
    wait_for(
        || pool.metrics().lane(Lane::FastIo).threads_alive == Some(0),
        "the lane to give its threads back",
    );
}

#[test]
fn undeclared_waits_are_found_by_the_monitor() {
    if no_schedstat("only declared sections compensate") {
        return;
    }
    let pool = Pool::builder().threads(Lane::SlowIo, 2).build().unwrap();
    let (gate, tasks) = Gate::held(&pool, Lane::SlowIo, 6, 6);
    let l = pool.metrics().lane(Lane::SlowIo).clone();
    assert_eq!(l.compensated_total, 4, "{l:?}");
    assert!(l.blocked_detected_total >= 4, "{l:?}");
    assert_eq!(l.blocking_sections_total, 0);
    gate.release(tasks);
    wait_for(
        || pool.metrics().lane(Lane::SlowIo).blocked_threads == Some(0),
        "finished tasks to be uncounted",
    );
    assert_balanced(pool.metrics().lane(Lane::SlowIo));
}

#[test]
fn max_threads_caps_compensation_and_adaptive_off_keeps_the_budget() {
    for (adaptive, most) in [(true, 3), (false, 1)] {
        let mut b = Pool::builder()
            .threads(Lane::FastIo, 1)
            .max_threads(Lane::FastIo, 3);
        if !adaptive {
            b = b.adaptive(Lane::FastIo, false);
        }
        let pool = b.build().unwrap();
        let (gate, tasks) = Gate::held_with(&pool, Lane::FastIo, 6, most, declared);
        // Give the monitor time to (wrongly) grow the lane further: a count
        // checked after a pause, not a duration asserted.
        std::thread::sleep(Duration::from_millis(30));
        assert_eq!(gate.inside(), most);
        let l = pool.metrics().lane(Lane::FastIo).clone();
        assert_eq!(l.compensated_total, most as u64 - 1);
        assert_eq!(l.queue_depth, 6 - most as u64);
        gate.release(tasks);
        assert_eq!(gate.max_inside(), most);
        assert_balanced(pool.metrics().lane(Lane::FastIo));
    }
}

#[test]
fn a_flood_of_short_sections_is_counted_and_balanced() {
    // Sections that end within the grace are not counted blocked; every
    // section is counted as entered.
    let pool = Pool::builder().threads(Lane::FastIo, 2).build().unwrap();
    let tasks: Vec<_> = (0..2_000)
        .map(|i| pool.spawn(Lane::FastIo, move || sluice::blocking(|| i)))
        .collect();
    let sum: usize = tasks.into_iter().map(|t| t.wait().unwrap()).sum();
    assert_eq!(sum, 1_999 * 1_000);
    let l = pool.metrics().lane(Lane::FastIo).clone();
    assert_eq!(l.blocking_sections_total, 2_000);
    assert!(l.threads_peak.unwrap() <= l.max_threads.unwrap(), "{l:?}");
    assert_balanced(&l);
}

#[test]
fn blocking_outside_a_worker_just_runs() {
    assert_eq!(sluice::blocking(|| 7), 7);
    let pool = fixed().build().unwrap();
    assert_eq!(
        pool.spawn(Lane::FastIo, || sluice::blocking(|| 8)).wait(),
        Ok(8)
    );
    assert_eq!(pool.metrics().lane(Lane::FastIo).blocking_sections_total, 0);
}

/// The `Cpu` lane grows for blocked sections, yet the parts of its tasks
/// outside them (computing, as far as the pool knows) never run on more
/// threads than the budget.
#[test]
fn cpu_threads_computing_never_exceed_the_budget() {
    let pool = Pool::builder().threads(Lane::Cpu, 1).build().unwrap();
    let computing = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let gate = Gate::new();
    let (c, m) = (computing.clone(), most.clone());
    let tasks = gate.hold_with(&pool, Lane::Cpu, 6, move |g, _| {
        let compute = || {
            let now = c.fetch_add(1, Ordering::SeqCst) + 1;
            m.fetch_max(now, Ordering::SeqCst);
            let x: u64 = (0..20_000u64).map(std::hint::black_box).sum();
            c.fetch_sub(1, Ordering::SeqCst);
            x
        };
        let a = compute();
        declared(g, 0);
        a + compute()
    });
    gate.wait_inside(6);
    let l = pool.metrics().lane(Lane::Cpu).clone();
    assert_eq!(l.compensated_total, 5);
    for sum in gate.release(tasks) {
        assert_eq!(sum, 2 * (0..20_000u64).sum::<u64>());
    }
    assert_eq!(most.load(Ordering::SeqCst), 1, "computing parts overlapped");
    assert_balanced(pool.metrics().lane(Lane::Cpu));
}

/// Many submitters, every lane, random blocking sections (some long enough
/// to be counted, most not), random computing: the counts balance and the
/// `Cpu` lane's computing parts stay within its budget.
#[test]
fn stress_random_blocking_sections() {
    let cores = std::thread::available_parallelism().unwrap().get();
    let pool = Pool::builder()
        .threads(Lane::FastIo, 2)
        .threads(Lane::SlowIo, 2)
        .max_threads(Lane::FastIo, 16)
        .max_threads(Lane::SlowIo, 16)
        .build()
        .unwrap();
    let computing = Arc::new(AtomicUsize::new(0));
    let most = Arc::new(AtomicUsize::new(0));
    let per_thread = 1_500;
    let submitters: Vec<_> = (0..4)
        .map(|s| {
            let (pool, c, m) = (pool.clone(), computing.clone(), most.clone());
            std::thread::spawn(move || {
                let mut rng = rand::rng();
                let mut tasks = Vec::new();
                for i in 0..per_thread {
                    let lane = Lane::ALL[rng.random_range(0..3)];
                    let sleep_us = if rng.random_bool(0.05) {
                        rng.random_range(100..2_000)
                    } else {
                        0
                    };
                    let (c, m) = (c.clone(), m.clone());
                    tasks.push(pool.spawn(lane, move || {
                        let compute = |c: &AtomicUsize| {
                            if lane == Lane::Cpu {
                                let now = c.fetch_add(1, Ordering::SeqCst) + 1;
                                m.fetch_max(now, Ordering::SeqCst);
                            }
                            let x: u64 = (0..500u64).map(std::hint::black_box).sum();
                            if lane == Lane::Cpu {
                                c.fetch_sub(1, Ordering::SeqCst);
                            }
                            x
                        };
                        compute(&c);
                        sluice::blocking(|| std::thread::sleep(Duration::from_micros(sleep_us)));
                        compute(&c);
                        s * per_thread + i
                    }));
                }
                tasks
                    .into_iter()
                    .map(|t| t.wait().unwrap())
                    .collect::<Vec<_>>()
            })
        })
        .collect();
    let mut seen: Vec<usize> = submitters
        .into_iter()
        .flat_map(|h| h.join().unwrap())
        .collect();
    seen.sort_unstable();
    assert_eq!(seen, (0..4 * per_thread).collect::<Vec<_>>());
    assert!(most.load(Ordering::SeqCst) <= cores);
    let snap = pool.metrics();
    let mut started = 0;
    for l in &snap.lanes {
        assert_balanced(l);
        assert_eq!(l.blocking_sections_total, l.started_total);
        assert!(l.threads_peak.unwrap() <= l.max_threads.unwrap());
        started += l.started_total;
    }
    assert_eq!(started, 4 * per_thread as u64);
    assert!(pool.shutdown(Duration::from_secs(10)).drained);
}

/// `cpu_affinity(true)`: each `Cpu` worker runs on one CPU of its own.
#[test]
fn cpu_affinity_pins_each_cpu_worker_to_a_core_of_its_own() {
    let cores = std::thread::available_parallelism().unwrap().get();
    let pool = match Pool::builder().cpu_affinity(true).build() {
        Ok(p) => p,
        Err(e) => {
            // The error names the refusal; nothing else to check here.
            assert!(
                e.to_string()
                    .starts_with("cpu_affinity: the kernel refused"),
                "{e}"
            );
            eprintln!("skipped: {e}");
            return;
        }
    };
    let all_in = Arc::new(std::sync::Barrier::new(cores));
    let tasks: Vec<_> = (0..cores)
        .map(|_| {
            let all_in = Arc::clone(&all_in);
            pool.spawn(Lane::Cpu, move || {
                all_in.wait();
                let status = std::fs::read_to_string("/proc/thread-self/status").unwrap();
                status
                    .lines()
                    .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
                    .unwrap()
                    .trim()
                    .to_string()
            })
        })
        .collect();
    let mut cpus: Vec<String> = tasks.into_iter().map(|t| t.wait().unwrap()).collect();
    for c in &cpus {
        assert!(c.parse::<usize>().is_ok(), "one CPU per worker, got {c:?}");
    }
    cpus.sort();
    cpus.dedup();
    assert_eq!(cpus.len(), cores, "every worker on a CPU of its own");
}

/// Submitters, a canceller and blocking tasks all at once, on small adaptive
/// budgets: tasks declare waits (counted blocked, so their lane starts
/// threads for its queue), wait without declaring (found by the monitor on
/// the I/O lanes), or just compute, while about one in six is cancelled,
/// by its submitter or by another thread, racing the worker that pops it.
/// No task is lost: each one runs exactly once or is cancelled exactly
/// once (never both, never neither), every handle resolves, and every
/// lane's counts balance with nothing left queued or counted blocked.
#[test]
fn stress_submit_cancel_and_block_at_once() {
    let pool = common::threads(Pool::builder(), [1, 1, 2])
        .max_threads(Lane::FastIo, 8)
        .max_threads(Lane::SlowIo, 8)
        .keep_alive(Lane::FastIo, Duration::from_millis(1))
        .build()
        .unwrap();
    let ledger = Arc::new(Ledger {
        ran: (0..STRESS_TOTAL).map(|_| AtomicUsize::new(0)).collect(),
        cancelled_ok: AtomicUsize::new(0),
    });
    let (to_canceller, inbox) = std::sync::mpsc::channel();
    let canceller = {
        let ledger = ledger.clone();
        std::thread::spawn(move || cancel_each(inbox, &ledger))
    };
    let submitters: Vec<_> = (0..STRESS_SUBMITTERS)
        .map(|s| {
            let (pool, ledger, to_canceller) = (pool.clone(), ledger.clone(), to_canceller.clone());
            std::thread::spawn(move || submit_some_cancel_some(&pool, s, &ledger, &to_canceller))
        })
        .collect();
    drop(to_canceller);
    let sent: usize = submitters.into_iter().map(|h| h.join().unwrap()).sum();
    assert_eq!(
        canceller.join().unwrap(),
        sent,
        "every handed-over task resolved"
    );
    let ran_once = ledger
        .ran
        .iter()
        .filter(|r| r.load(Ordering::SeqCst) == 1)
        .count();
    assert!(
        ledger.ran.iter().all(|r| r.load(Ordering::SeqCst) <= 1),
        "a task ran twice"
    );
    let cancelled = ledger.cancelled_ok.load(Ordering::SeqCst);
    assert_eq!(
        ran_once + cancelled,
        STRESS_TOTAL,
        "every task ran or was cancelled, once"
    );
    assert!(cancelled > 0);
    let snap = pool.metrics();
    let (mut started, mut cancelled_total) = (0, 0);
    for l in &snap.lanes {
        assert_balanced(l);
        assert_eq!((l.queue_depth, l.in_flight), (0, 0), "{l:?}");
        assert!(l.threads_peak.unwrap() <= l.max_threads.unwrap(), "{l:?}");
        started += l.started_total;
        cancelled_total += l.cancelled_total;
    }
    assert_eq!(started, ran_once as u64);
    assert_eq!(cancelled_total, cancelled as u64);
    assert!(pool.shutdown(Duration::from_secs(10)).drained);
}

const STRESS_SUBMITTERS: usize = 8;
const STRESS_PER: usize = 1_500;
const STRESS_TOTAL: usize = STRESS_SUBMITTERS * STRESS_PER;

/// What the stress test's threads saw.
struct Ledger {
    /// How many times each task's closure ran.
    ran: Vec<AtomicUsize>,
    /// Tasks whose cancel returned true, by whichever thread called it.
    cancelled_ok: AtomicUsize,
}

/// The canceller: cancels each task handed over, then checks that its
/// handle agrees (cancelled and never run, or run and not cancelled).
/// Returns how many it resolved.
fn cancel_each(inbox: Receiver<(usize, Task<usize>)>, ledger: &Ledger) -> usize {
    let mut resolved = 0;
    for (id, task) in inbox {
        let cancelled = task.cancel();
        match task.wait() {
            Ok(v) => assert!(!cancelled && v == id),
            Err(e) => {
                assert!(cancelled && e == TaskError::Cancelled, "{e:?}");
                assert_eq!(
                    ledger.ran[id].load(Ordering::SeqCst),
                    0,
                    "cancelled task {id} ran"
                );
                ledger.cancelled_ok.fetch_add(1, Ordering::SeqCst);
            }
        }
        resolved += 1;
    }
    resolved
}

/// Submitter `s`: its tasks on random lanes, one in twelve cancelled by
/// itself at once and one in twelve handed to the canceller; waits for
/// the rest. Returns how many it handed over.
fn submit_some_cancel_some(
    pool: &Pool,
    s: usize,
    ledger: &Arc<Ledger>,
    to_canceller: &Sender<(usize, Task<usize>)>,
) -> usize {
    let mut rng = rand::rng();
    let mut mine = Vec::new();
    let mut sent = 0;
    for i in 0..STRESS_PER {
        let id = s * STRESS_PER + i;
        let lane = Lane::ALL[rng.random_range(0..3)];
        let (wait_us, kind) = (rng.random_range(50..800), rng.random_range(0..100));
        let counts = ledger.clone();
        let task = pool.spawn(lane, move || {
            counts.ran[id].fetch_add(1, Ordering::SeqCst);
            wait_or_compute(kind, wait_us);
            id
        });
        match rng.random_range(0..12) {
            0 => {
                if task.cancel() {
                    ledger.cancelled_ok.fetch_add(1, Ordering::SeqCst);
                }
                mine.push((id, task));
            }
            1 => {
                to_canceller.send((id, task)).unwrap();
                sent += 1;
            }
            _ => mine.push((id, task)),
        }
    }
    for (id, task) in mine {
        match task.wait() {
            Ok(v) => assert_eq!(v, id),
            Err(e) => assert_eq!(e, TaskError::Cancelled, "task {id}"),
        }
    }
    sent
}

/// A stress task's work, by `kind` (0..100): a declared wait, an
/// undeclared one, or a little computing.
fn wait_or_compute(kind: u32, wait_us: u64) {
    match kind {
        // A declared wait, long enough to be counted.
        0..8 => sluice::blocking(|| std::thread::sleep(Duration::from_micros(wait_us))),
        // An undeclared wait (the monitor's to find).
        8..11 => std::thread::sleep(Duration::from_micros(wait_us)),
        _ => {
            std::hint::black_box((0..200u64).sum::<u64>());
        }
    }
}

/// Pins the calling thread to `cpu`.
fn pin_to(cpu: usize) {
    let mut set = rustix::thread::CpuSet::new();
    set.set(cpu);
    rustix::thread::sched_setaffinity(None, &set).expect("pinning a thread to a CPU it may use");
}

#[test]
fn a_worker_preempted_mid_task_is_not_counted_blocked() {
    if no_schedstat("nothing is detected") {
        return;
    }
    let allowed = rustix::thread::sched_getaffinity(None).unwrap();
    let cpu = (0..rustix::thread::CpuSet::MAX_CPU)
        .find(|&c| allowed.is_set(c))
        .unwrap();
    let pool = Pool::builder().threads(Lane::FastIo, 1).build().unwrap();
    // A spinning thread and the lane's one worker share one CPU, the
    // worker under SCHED_IDLE: for the task's 300 ms the worker is
    // runnable but almost never on the CPU, so its schedstat shows no
    // progress, as a sleeping thread's would. It is preempted, not blocked.
    let stop = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let hog = {
        let stop = Arc::clone(&stop);
        std::thread::spawn(move || {
            pin_to(cpu);
            while !stop.load(Ordering::Relaxed) {
                std::hint::spin_loop();
            }
        })
    };
    let preempted = pool.spawn(Lane::FastIo, move || {
        pin_to(cpu);
        let tid = sluice_sched::current_tid();
        let idle = sluice_sched::set_policy(tid, sluice_sched::Policy::Idle).is_ok();
        let start = std::time::Instant::now();
        while start.elapsed() < Duration::from_millis(300) {
            std::hint::spin_loop();
        }
        let _ = sluice_sched::set_policy(tid, sluice_sched::Policy::Other);
        rustix::thread::sched_setaffinity(None, &allowed).unwrap();
        idle
    });
    // Queued behind it, so that the monitor watches the lane.
    let queued = pool.spawn(Lane::FastIo, || ());
    let idle = preempted.wait().unwrap();
    queued.wait().unwrap();
    stop.store(true, Ordering::Relaxed);
    hog.join().unwrap();
    let l = pool.metrics().lane(Lane::FastIo).clone();
    assert!(idle, "the task could not move its worker to SCHED_IDLE");
    assert_eq!(l.blocked_detected_total, 0, "{l:?}");
    assert_eq!(l.compensated_total, 0, "{l:?}");
    assert_balanced(&l);
}
