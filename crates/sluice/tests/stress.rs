//! Many submitters, 100 000 tasks (a quarter of them `spawn_first`),
//! random cancels, panics and deadlines:
//! afterwards every counter balances exactly and agrees with what the
//! submitters saw.

mod common;

use rand::{Rng, SeedableRng};
use sluice::{Lane, Pool, TaskError};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

const SUBMITTERS: usize = 8;
const TASKS: usize = 100_000;

#[derive(Default)]
struct Seen {
    ok: AtomicU64,
    panicked: AtomicU64,
    cancelled: AtomicU64,
    cancel_true: AtomicU64,
    expired: AtomicU64,
}

fn run(pool: Pool, tasks: usize) {
    let seen = Arc::new(Seen::default());
    let barrier = Arc::new(Barrier::new(SUBMITTERS));
    let per = tasks / SUBMITTERS;
    let submitters: Vec<_> = (0..SUBMITTERS)
        .map(|s| {
            let (pool, seen, barrier) = (pool.clone(), seen.clone(), barrier.clone());
            std::thread::spawn(move || {
                barrier.wait();
                submit(&pool, s as u64, per, &seen);
            })
        })
        .collect();
    for s in submitters {
        s.join().unwrap();
    }
    assert!(pool.shutdown(Duration::from_secs(60)).drained);
    let snap = pool.metrics();
    assert_balanced(&snap);
    assert_agrees(&snap, &seen, per * SUBMITTERS);
}

/// One submitter: `per` tasks on random lanes, some panicking, some with
/// a deadline, some cancelled, waited for in batches.
fn submit(pool: &Pool, seed: u64, per: usize, seen: &Seen) {
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut handles = Vec::with_capacity(per);
    for i in 0..per {
        let lane = Lane::ALL[rng.random_range(0..3)];
        let panics = rng.random_ratio(1, 50);
        let job = move || {
            if panics {
                panic!("stress panic {i}");
            }
            i
        };
        let task = if rng.random_ratio(1, 50) {
            // Some deadlines pass before a worker gets there, some not.
            let at = Instant::now() + Duration::from_micros(rng.random_range(0..200));
            pool.spawn_before(lane, at, job)
        } else if rng.random_ratio(1, 4) {
            // The front part of the lane's queue.
            match pool.try_reserve(lane) {
                Ok(permit) => permit.spawn_first(job),
                Err(_) => pool.spawn(lane, job),
            }
        } else {
            pool.spawn(lane, job)
        };
        if rng.random_ratio(1, 10) && task.cancel() {
            seen.cancel_true.fetch_add(1, Ordering::Relaxed);
        }
        handles.push(task);
        if handles.len() >= 256 {
            drain(&mut handles, seen);
        }
    }
    drain(&mut handles, seen);
}

/// Each lane of an idle pool: nothing queued or running, every submitted
/// task accounted for once, every started one timed.
fn assert_balanced(snap: &sluice::Snapshot) {
    for l in &snap.lanes {
        assert_eq!(l.queue_depth, 0, "{l:?}");
        assert_eq!(l.in_flight, 0, "{l:?}");
        assert_eq!(
            l.submitted_total,
            l.started_total + l.cancelled_total + l.expired_total + l.abandoned_total,
            "{} {l:?}",
            snap.policy
        );
        assert_eq!(
            l.started_total,
            l.completed_total + l.panicked_total,
            "{l:?}"
        );
        assert_eq!(l.queue_wait_seconds.count, l.started_total);
        assert_eq!(l.run_time_seconds.count, l.started_total);
    }
}

/// The pool's counts, all lanes, are what the submitters saw.
fn assert_agrees(snap: &sluice::Snapshot, seen: &Seen, submitted: usize) {
    let sum = |f: fn(&sluice::LaneSnapshot) -> u64| snap.lanes.iter().map(f).sum::<u64>();
    let load = |n: &AtomicU64| n.load(Ordering::Relaxed);
    let counts: [(&str, u64, u64); 7] = [
        ("submitted", sum(|l| l.submitted_total), submitted as u64),
        ("completed", sum(|l| l.completed_total), load(&seen.ok)),
        ("panicked", sum(|l| l.panicked_total), load(&seen.panicked)),
        (
            "cancelled",
            sum(|l| l.cancelled_total),
            load(&seen.cancelled),
        ),
        (
            "cancel true",
            sum(|l| l.cancelled_total),
            load(&seen.cancel_true),
        ),
        ("expired", sum(|l| l.expired_total), load(&seen.expired)),
        ("abandoned", sum(|l| l.abandoned_total), 0),
    ];
    for (what, pool_count, seen_count) in counts {
        assert_eq!(pool_count, seen_count, "{what}");
    }
    assert!(
        seen.panicked.load(Ordering::Relaxed) > 0 && seen.cancelled.load(Ordering::Relaxed) > 0
    );
}

fn drain(handles: &mut Vec<sluice::Task<usize>>, seen: &Seen) {
    for t in handles.drain(..) {
        let counter = match t.wait() {
            Ok(_) => &seen.ok,
            Err(TaskError::Panicked(msg)) => {
                assert!(msg.starts_with("stress panic"), "{msg}");
                &seen.panicked
            }
            Err(TaskError::Cancelled) => &seen.cancelled,
            Err(TaskError::DeadlineExceeded) => &seen.expired,
            Err(other) => panic!("unexpected {other:?}"),
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

fn quiet_panics() {
    // 2 % of 100 000 tasks panic on purpose; keep their messages off stderr.
    std::panic::set_hook(Box::new(|info| {
        let msg = info.to_string();
        if !msg.contains("stress panic") {
            eprintln!("{msg}");
        }
    }));
}

#[test]
fn stress_lanes() {
    quiet_panics();
    run(Pool::builder().build().unwrap(), TASKS);
}

#[test]
fn stress_lanes_tiny_budgets_and_bounds() {
    quiet_panics();
    let pool = common::threads(Pool::builder(), [1, 1, 2])
        .queue_bound(Lane::FastIo, 8)
        .keep_alive(Lane::SlowIo, Duration::from_micros(50))
        .build()
        .unwrap();
    run(pool, TASKS / 4);
}

#[test]
fn stress_libuv() {
    quiet_panics();
    run(common::libuv(4), TASKS);
}
