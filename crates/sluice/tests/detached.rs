//! `Permit::spawn_detached`: tasks with no handle are counted like any
//! task, each runs exactly once, and one that never runs (shut down,
//! expired) drops its closure unrun, so whatever it owns is still released.

mod common;

use common::{Gate, Owned, both_policies as both, wait_for};
use sluice::{Lane, Pool};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, mpsc};
use std::time::Duration;

#[test]
fn detached_tasks_from_many_threads_each_run_once_and_are_counted() {
    const THREADS: usize = 4;
    const EACH: usize = 5_000;
    for pool in both(2) {
        let pool = Arc::new(pool);
        let ran = Arc::new(AtomicUsize::new(0));
        let dropped = Arc::new(AtomicUsize::new(0));
        let (tx, rx) = mpsc::channel();
        let submitters: Vec<_> = (0..THREADS)
            .map(|t| {
                let (pool, ran, dropped, tx) = (
                    Arc::clone(&pool),
                    Arc::clone(&ran),
                    Arc::clone(&dropped),
                    tx.clone(),
                );
                std::thread::spawn(move || {
                    for i in 0..EACH {
                        let (ran, tx) = (Arc::clone(&ran), tx.clone());
                        let owned = Owned(Arc::clone(&dropped));
                        pool.try_reserve(Lane::FastIo)
                            .expect("an unbounded lane takes every task")
                            .spawn_detached(move || {
                                let _owned = owned;
                                ran.fetch_add(1, Ordering::SeqCst);
                                tx.send(t * EACH + i).unwrap();
                            });
                    }
                })
            })
            .collect();
        for s in submitters {
            s.join().unwrap();
        }
        drop(tx);
        let mut seen: Vec<usize> = rx.iter().collect();
        seen.sort_unstable();
        assert_eq!(seen, (0..THREADS * EACH).collect::<Vec<_>>());
        assert_eq!(ran.load(Ordering::SeqCst), THREADS * EACH);
        // Dropped on the worker once it ran: every closure's captures.
        wait_for(
            || dropped.load(Ordering::SeqCst) == THREADS * EACH,
            "every closure dropped",
        );
        let snap = pool.metrics();
        let lane = snap.lane(Lane::FastIo);
        let n = (THREADS * EACH) as u64;
        assert_eq!(lane.submitted_total, n, "{}", snap.policy);
        wait_for(
            || pool.metrics().lane(Lane::FastIo).completed_total == n,
            "every detached task counted complete",
        );
        let lane = pool.metrics().lane(Lane::FastIo).clone();
        assert_eq!(lane.started_total, n);
        assert_eq!(lane.queue_depth, 0);
    }
}

#[test]
fn a_permit_of_a_closed_pool_drops_its_closure_unrun() {
    for pool in both(1) {
        assert!(pool.shutdown(Duration::from_secs(10)).drained);
        // A closed pool still hands out a permit: what is spent on it
        // resolves to `Shutdown` (with a handle) or is dropped (without).
        let permit = pool.try_reserve(Lane::FastIo).unwrap();
        let ran = Arc::new(AtomicUsize::new(0));
        let dropped = Arc::new(AtomicUsize::new(0));
        let (r, owned) = (Arc::clone(&ran), Owned(Arc::clone(&dropped)));
        permit.spawn_detached(move || {
            let _owned = owned;
            r.fetch_add(1, Ordering::SeqCst);
        });
        assert_eq!(ran.load(Ordering::SeqCst), 0, "{}", pool.metrics().policy);
        assert_eq!(dropped.load(Ordering::SeqCst), 1);
    }
}

#[test]
fn an_expired_detached_task_drops_its_closure_unrun_and_is_counted() {
    let pool = Pool::builder()
        .threads(Lane::Cpu, 1)
        .queue_timeout(Lane::Cpu, Duration::from_millis(20))
        .build()
        .unwrap();
    // The lane's one thread held until the queued task's deadline passed.
    let (gate, held) = Gate::held(&pool, Lane::Cpu, 1, 1);
    let ran = Arc::new(AtomicUsize::new(0));
    let dropped = Arc::new(AtomicUsize::new(0));
    let (r, owned) = (Arc::clone(&ran), Owned(Arc::clone(&dropped)));
    pool.try_reserve(Lane::Cpu)
        .unwrap()
        .spawn_detached(move || {
            let _owned = owned;
            r.fetch_add(1, Ordering::SeqCst);
        });
    wait_for(
        || pool.metrics().lane(Lane::Cpu).expired_total == 1,
        "the queued task expired",
    );
    gate.release(held);
    wait_for(
        || dropped.load(Ordering::SeqCst) == 1,
        "the expired closure dropped",
    );
    assert_eq!(ran.load(Ordering::SeqCst), 0);
    let lane = pool.metrics().lane(Lane::Cpu).clone();
    assert_eq!(lane.submitted_total, 2);
    assert_eq!(lane.started_total, 1);
    assert_eq!(lane.queue_depth, 0);
}

#[test]
fn a_panicking_detached_task_is_counted_and_the_worker_goes_on() {
    for pool in both(1) {
        let (tx, rx) = mpsc::channel();
        pool.try_reserve(Lane::FastIo)
            .unwrap()
            .spawn_detached(|| panic!("a detached task's panic"));
        pool.try_reserve(Lane::FastIo)
            .unwrap()
            .spawn_detached(move || tx.send(42).unwrap());
        assert_eq!(rx.recv_timeout(Duration::from_secs(20)).unwrap(), 42);
        wait_for(
            || pool.metrics().lane(Lane::FastIo).panicked_total == 1,
            "the panic counted",
        );
        let lane = pool.metrics().lane(Lane::FastIo).clone();
        assert_eq!(lane.submitted_total, 2, "{}", pool.metrics().policy);
    }
}
