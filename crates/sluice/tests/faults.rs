//! Fault injection: the operating system refusing worker threads, a storm
//! of panicking tasks, and shutdown racing cancels. In every case each task
//! resolves exactly once, to its value or a `TaskError`, nothing panics
//! outside a task, and the lane's counters balance.

mod common;

use common::{Gate, assert_balanced, assert_lane, wait_for};
use sluice::{Lane, Pool, TaskError};
use std::process::Command;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Set in the child that runs a test under a lowered address-space limit.
const CHILD: &str = "SLUICE_FAULTS_CHILD";

/// Runs test `name` of this binary again in a child process with `CHILD`
/// set, and fails if it fails. Returns false in the child itself (run the
/// test's body then).
fn run_in_child(name: &str) -> bool {
    if std::env::var_os(CHILD).is_some() {
        return false;
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", name, "--nocapture", "--test-threads=1"])
        .env(CHILD, "1")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "child {name} failed:\n{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("1 passed"), "{stdout}");
    true
}

/// Lowers this process's address-space limit to what it maps now plus
/// `room` bytes: a thread stack bigger than what is left cannot be mapped,
/// so `pthread_create` fails (the limit holds for root too, unlike
/// `RLIMIT_NPROC`).
fn leave_room(room: u64) {
    use rustix::process::{Resource, Rlimit, getrlimit, setrlimit};
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let vm_kb: u64 = status
        .lines()
        .find_map(|l| l.strip_prefix("VmSize:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap();
    let max = getrlimit(Resource::As).maximum;
    setrlimit(
        Resource::As,
        Rlimit {
            current: Some(vm_kb * 1024 + room),
            maximum: max,
        },
    )
    .unwrap();
}

const STACK: usize = 256 << 20;

/// Test `name`'s pool, in the child only (`run_in_child` runs it there and
/// the parent gets `None`): four `SlowIo` threads of `STACK` bytes each, and
/// an address-space limit that leaves `room` bytes.
fn starved_pool(name: &str, room: u64) -> Option<Pool> {
    if run_in_child(name) {
        return None;
    }
    let pool = Pool::builder()
        .threads(Lane::SlowIo, 4)
        .stack_size(STACK)
        .build()
        .unwrap();
    leave_room(room);
    Some(pool)
}

#[test]
fn refused_threads_fail_tasks_with_no_thread_and_lose_none() {
    // Room for no 256 MiB stack: every thread is refused.
    let name = "refused_threads_fail_tasks_with_no_thread_and_lose_none";
    let Some(pool) = starved_pool(name, 64 << 20) else {
        return;
    };
    let tasks: Vec<_> = (0..100)
        .map(|i| pool.spawn(Lane::SlowIo, move || i))
        .collect();
    let mut no_thread = 0;
    for t in tasks {
        match t.wait() {
            Err(TaskError::NoThread(why)) => {
                assert!(!why.is_empty());
                no_thread += 1;
            }
            other => panic!("expected NoThread, got {other:?}"),
        }
    }
    assert_eq!(no_thread, 100);
    assert_lane!(pool, Lane::SlowIo, submitted_total: 100, abandoned_total: 100, started_total: 0);
    let l = pool.metrics().lane(Lane::SlowIo).clone();
    assert!(l.spawn_failures_total >= 1, "{l:#?}");
    assert_balanced(&l);
}

#[test]
fn with_room_for_one_thread_every_task_still_runs() {
    // Room for one 256 MiB stack, not two: one worker, the others refused.
    let name = "with_room_for_one_thread_every_task_still_runs";
    let Some(pool) = starved_pool(name, STACK as u64 + (96 << 20)) else {
        return;
    };
    let (gate, first) = Gate::held(&pool, Lane::SlowIo, 1, 1);
    // Queued behind the one worker: the lane asks for more threads and is refused.
    let rest: Vec<_> = (0..200)
        .map(|i| pool.spawn(Lane::SlowIo, move || i))
        .collect();
    gate.release(first);
    let sum: u64 = rest.into_iter().map(|t| t.wait().unwrap()).sum();
    assert_eq!(sum, (0..200).sum::<u64>());
    let l = pool.metrics().lane(Lane::SlowIo).clone();
    assert_eq!((l.submitted_total, l.completed_total), (201, 201));
    assert!(l.spawn_failures_total >= 1, "{l:#?}");
    assert_eq!(l.threads_alive, Some(1));
    assert_balanced(&l);
}

#[test]
fn a_panic_storm_leaves_every_counter_balanced() {
    let pool = common::threads(Pool::builder(), [1, 4, 8]).build().unwrap();
    let submitters: Vec<_> = [Lane::Cpu, Lane::FastIo, Lane::SlowIo]
        .into_iter()
        .flat_map(|lane| (0..2).map(move |s| (lane, s)))
        .map(|(lane, s)| {
            let pool = pool.clone();
            std::thread::spawn(move || {
                let mut ok = 0u64;
                let mut panicked = 0u64;
                let tasks: Vec<_> = (0..2_000u64)
                    .map(|i| {
                        pool.spawn(lane, move || {
                            if (i + s) % 3 != 0 {
                                panic!("storm {i}");
                            }
                            i
                        })
                    })
                    .collect();
                for t in tasks {
                    match t.wait() {
                        Ok(_) => ok += 1,
                        Err(TaskError::Panicked(msg)) => {
                            assert!(msg.starts_with("storm "));
                            panicked += 1;
                        }
                        Err(e) => panic!("{e}"),
                    }
                }
                (lane, ok, panicked)
            })
        })
        .collect();
    let mut seen = std::collections::HashMap::<Lane, (u64, u64)>::new();
    for s in submitters {
        let (lane, ok, panicked) = s.join().unwrap();
        let e = seen.entry(lane).or_default();
        e.0 += ok;
        e.1 += panicked;
    }
    let m = pool.metrics();
    for lane in [Lane::Cpu, Lane::FastIo, Lane::SlowIo] {
        let l = m.lane(lane);
        let (ok, panicked) = seen[&lane];
        assert_eq!(ok + panicked, 4_000);
        assert_eq!(
            (l.completed_total, l.panicked_total),
            (ok, panicked),
            "{lane}"
        );
        assert_eq!((l.queue_depth, l.in_flight), (0, 0));
        assert_balanced(l);
        assert!(l.threads_alive.unwrap() <= l.limit, "{l:#?}");
    }
    // The workers survived the storm.
    assert_eq!(pool.spawn(Lane::Cpu, || 5).wait(), Ok(5));
}

#[test]
fn shutdown_racing_cancels_reports_every_task_once() {
    let pool = Pool::builder().threads(Lane::Cpu, 1).build().unwrap();
    let (gate, running) = Gate::held_with(&pool, Lane::Cpu, 1, 1, |g, _| {
        g.pass();
        u64::MAX
    });
    let queued: Arc<Vec<_>> = Arc::new(
        (0..1_000u64)
            .map(|i| pool.spawn(Lane::Cpu, move || i))
            .collect(),
    );
    // One thread cancels every other queued task while shutdown begins;
    // the gate opens only after shutdown's timeout, so whatever is still
    // queued then is abandoned.
    let cancelled = Arc::new(AtomicUsize::new(0));
    let (first_tx, first) = std::sync::mpsc::channel();
    let canceller = {
        let (queued, cancelled) = (Arc::clone(&queued), Arc::clone(&cancelled));
        std::thread::spawn(move || {
            for t in queued.iter().step_by(2) {
                if t.cancel() {
                    cancelled.fetch_add(1, Ordering::SeqCst);
                }
                let _ = first_tx.send(());
            }
        })
    };
    first.recv().unwrap();
    let shutdown = {
        let pool = pool.clone();
        std::thread::spawn(move || pool.shutdown(Duration::from_millis(50)))
    };
    let report = shutdown.join().unwrap();
    canceller.join().unwrap();
    assert_eq!(gate.release(running), [u64::MAX]);
    let queued = Arc::into_inner(queued).unwrap();
    let (mut ok, mut cancel, mut shut) = (0u64, 0u64, 0u64);
    for t in queued {
        match t.wait() {
            Ok(_) => ok += 1,
            Err(TaskError::Cancelled) => cancel += 1,
            Err(TaskError::Shutdown) => shut += 1,
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(ok + cancel + shut, 1_000);
    // The odd ones were never cancelled and nothing queued could start
    // before shutdown gave up: all abandoned.
    assert!(
        cancel >= 1 && shut >= 500 && ok == 0,
        "{ok} {cancel} {shut}"
    );
    assert_eq!(cancel, cancelled.load(Ordering::SeqCst) as u64);
    assert!(!report.drained);
    assert_eq!(report.still_running, 1);
    assert_eq!(report.abandoned, shut);
    wait_for(
        || pool.metrics().lane(Lane::Cpu).in_flight == 0,
        "the held task to finish",
    );
    assert_lane!(pool, Lane::Cpu, submitted_total: 1_001, cancelled_total: cancel, abandoned_total: shut, completed_total: ok + 1);
    assert_balanced(pool.metrics().lane(Lane::Cpu));
}
