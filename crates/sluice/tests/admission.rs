//! Awaitable admission (`Pool::reserve`, `spawn_async`): FIFO among waiters,
//! cancel-safety, deadlines, shutdown, and a stress run; counts only.

use futures::FutureExt;
use futures::task::{ArcWake, waker};
use sluice::{Lane, Pool, TaskError};
use std::future::Future;
use std::pin::Pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, mpsc};
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

/// A pool whose Cpu lane has one thread and one queue place, both taken:
/// a running task held by the returned sender, and one queued task.
fn full_lane() -> (Pool, mpsc::Sender<()>, Vec<sluice::Task<()>>) {
    let pool = Pool::builder()
        .threads(Lane::Cpu, 1)
        .queue_bound(Lane::Cpu, 1)
        .build()
        .unwrap();
    let (release, gate) = mpsc::channel::<()>();
    let (started_tx, started) = mpsc::channel();
    let running = pool.spawn(Lane::Cpu, move || {
        started_tx.send(()).unwrap();
        // Every task the test queues after it runs once this returns.
        let _ = gate.recv();
    });
    started.recv().unwrap();
    let queued = pool.spawn(Lane::Cpu, || ());
    assert!(
        pool.try_spawn(Lane::Cpu, || ()).is_err(),
        "the lane is full"
    );
    (pool, release, vec![running, queued])
}

/// A waker that counts its wakes.
#[derive(Default)]
struct Count(AtomicUsize);
impl ArcWake for Count {
    fn wake_by_ref(arc: &Arc<Self>) {
        arc.0.fetch_add(1, Ordering::SeqCst);
    }
}

fn poll_once<F: Future + Unpin>(f: &mut F, count: &Arc<Count>) -> Poll<F::Output> {
    let w = waker(Arc::clone(count));
    Pin::new(f).poll(&mut Context::from_waker(&w))
}

#[test]
fn waiters_are_admitted_in_arrival_order() {
    const N: usize = 24;
    let (pool, release, first) = full_lane();
    let order = Arc::new(Mutex::new(Vec::new()));
    let rt = tokio::runtime::Builder::new_current_thread()
        .build()
        .unwrap();
    rt.block_on(async {
        let mut handles = Vec::new();
        for i in 0..N {
            let (pool2, order) = (pool.clone(), Arc::clone(&order));
            handles.push(tokio::spawn(async move {
                let permit = pool2.reserve(Lane::Cpu).await.unwrap();
                permit
                    .spawn(move || order.lock().unwrap().push(i))
                    .await
                    .unwrap();
            }));
            // Let the new task register before the next one is spawned.
            while pool.metrics().lane(Lane::Cpu).reservations_waiting < i as u64 + 1 {
                tokio::task::yield_now().await;
            }
        }
        assert_eq!(
            pool.metrics().lane(Lane::Cpu).reservations_waiting,
            N as u64
        );
        // The lane drains only because this runtime thread was free to ask.
        release.send(()).unwrap();
        for h in handles {
            h.await.unwrap();
        }
    });
    for t in first {
        t.wait().unwrap();
    }
    assert_eq!(*order.lock().unwrap(), (0..N).collect::<Vec<_>>());
    let cpu = pool.metrics().lane(Lane::Cpu).clone();
    assert_eq!(cpu.submitted_total, N as u64 + 2);
    assert_eq!(cpu.completed_total, N as u64 + 2);
    assert_eq!(cpu.rejected_total, 1, "only the one try_spawn");
    assert_eq!((cpu.queue_depth, cpu.reservations_waiting), (0, 0));
}

#[test]
fn a_waiter_dropped_after_its_wake_passes_the_turn_on() {
    let (pool, release, first) = full_lane();
    let (a_count, b_count, c_count) = (
        Arc::new(Count::default()),
        Arc::new(Count::default()),
        Arc::new(Count::default()),
    );
    let mut a = pool.reserve(Lane::Cpu);
    let mut b = pool.reserve(Lane::Cpu);
    let mut c = pool.reserve(Lane::Cpu);
    assert!(poll_once(&mut a, &a_count).is_pending());
    assert!(poll_once(&mut b, &b_count).is_pending());
    assert!(poll_once(&mut c, &c_count).is_pending());
    assert_eq!(pool.metrics().lane(Lane::Cpu).reservations_waiting, 3);
    // Dropping a waiter that is not at the front wakes nobody.
    drop(c);
    assert_eq!(pool.metrics().lane(Lane::Cpu).reservations_waiting, 2);
    assert_eq!(b_count.0.load(Ordering::SeqCst), 0);

    // The blocker ends; the queued task starts: one place frees, `a` is woken.
    release.send(()).unwrap();
    for t in first {
        t.wait().unwrap();
    }
    assert!(
        a_count.0.load(Ordering::SeqCst) >= 1,
        "the front waiter was woken"
    );
    assert_eq!(
        b_count.0.load(Ordering::SeqCst),
        0,
        "only the front is woken"
    );
    // `a` is dropped before it polls again: its turn goes to `b`.
    drop(a);
    assert!(
        b_count.0.load(Ordering::SeqCst) >= 1,
        "the turn was passed on"
    );
    let permit = match poll_once(&mut b, &b_count) {
        Poll::Ready(p) => p.unwrap(),
        Poll::Pending => panic!("b should have the free place"),
    };
    assert_eq!(
        pool.metrics().lane(Lane::Cpu).queue_depth,
        1,
        "the permit holds it"
    );
    // A permit dropped unspent gives its place back.
    drop(permit);
    let cpu = pool.metrics().lane(Lane::Cpu).clone();
    assert_eq!((cpu.queue_depth, cpu.reservations_waiting), (0, 0));
    assert_eq!(
        cpu.submitted_total, 2,
        "nothing submitted by the reservations"
    );
}

#[test]
fn a_reservation_cancelled_by_a_timeout_holds_nothing() {
    let (pool, release, first) = full_lane();
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap();
    rt.block_on(async {
        for _ in 0..10 {
            let r = tokio::time::timeout(Duration::from_millis(2), pool.reserve(Lane::Cpu)).await;
            assert!(r.is_err(), "the lane stays full");
        }
        assert_eq!(pool.metrics().lane(Lane::Cpu).reservations_waiting, 0);
        release.send(()).unwrap();
        let task = pool.spawn_async(Lane::Cpu, || 7).await.unwrap();
        assert_eq!(task.await.unwrap(), 7);
    });
    for t in first {
        t.wait().unwrap();
    }
    let cpu = pool.metrics().lane(Lane::Cpu).clone();
    assert_eq!(cpu.submitted_total, 3);
    assert_eq!(cpu.rejected_total, 1);
}

#[test]
fn a_deadline_ends_the_wait_and_shutdown_wakes_waiters() {
    let (pool, release, first) = full_lane();
    let late = pool.reserve_before(Lane::Cpu, Instant::now() + Duration::from_millis(10));
    assert_eq!(
        futures::executor::block_on(late).unwrap_err(),
        TaskError::DeadlineExceeded
    );
    // A deadline already past resolves at the first poll.
    let past = pool.reserve_before(Lane::Cpu, Instant::now());
    assert_eq!(
        past.now_or_never().unwrap().unwrap_err(),
        TaskError::DeadlineExceeded
    );

    let waiting = Arc::new(Count::default());
    let mut w = pool.reserve(Lane::Cpu);
    assert!(poll_once(&mut w, &waiting).is_pending());
    let p2 = pool.clone();
    let closer = std::thread::spawn(move || p2.shutdown(Duration::from_secs(10)));
    // The close wakes the waiter, which learns the pool is shut.
    while waiting.0.load(Ordering::SeqCst) == 0 {
        std::thread::yield_now();
    }
    match poll_once(&mut w, &waiting) {
        Poll::Ready(r) => assert_eq!(r.unwrap_err(), TaskError::Shutdown),
        Poll::Pending => panic!("a closed lane must end the wait"),
    }
    release.send(()).unwrap();
    assert!(closer.join().unwrap().drained);
    for t in first {
        t.wait().unwrap();
    }
    assert_eq!(
        futures::executor::block_on(pool.reserve(Lane::Cpu)).unwrap_err(),
        TaskError::Shutdown
    );
}

#[test]
fn an_unbounded_lane_and_the_libuv_policy_are_ready_at_once() {
    let pool = Pool::builder().build().unwrap();
    let permit = pool.reserve(Lane::FastIo).now_or_never().unwrap().unwrap();
    assert_eq!(permit.spawn(|| 5).wait().unwrap(), 5);
    let compat = Pool::builder()
        .policy(sluice::Policy::Libuv { threads: Some(2) })
        .build()
        .unwrap();
    let permit = compat
        .reserve(Lane::SlowIo)
        .now_or_never()
        .unwrap()
        .unwrap();
    drop(permit);
    let t = compat
        .reserve(Lane::Cpu)
        .now_or_never()
        .unwrap()
        .unwrap()
        .spawn(|| 1);
    assert_eq!(t.wait().unwrap(), 1);
    assert_eq!(compat.metrics().lane(Lane::SlowIo).submitted_total, 0);
}

/// Many threads, each its own executor, reserve on a lane with two places;
/// some give up at a deadline. Every reservation ends once, and the counts
/// balance.
#[test]
fn stress_many_threads_reserving_on_a_small_lane() {
    const THREADS: usize = 8;
    const EACH: usize = 400;
    let pool = Pool::builder()
        .threads(Lane::Cpu, 2)
        .queue_bound(Lane::Cpu, 2)
        .build()
        .unwrap();
    let ran = Arc::new(AtomicUsize::new(0));
    let threads: Vec<_> = (0..THREADS)
        .map(|t| {
            let (pool, ran) = (pool.clone(), Arc::clone(&ran));
            std::thread::spawn(move || {
                let (mut admitted, mut expired, mut dropped) = (0usize, 0usize, 0usize);
                for i in 0..EACH {
                    let ran = Arc::clone(&ran);
                    let work = move || {
                        ran.fetch_add(1, Ordering::SeqCst);
                    };
                    match (t + i) % 4 {
                        // A deadline that may pass before a place frees.
                        0 => {
                            let at = Instant::now() + Duration::from_micros(50);
                            match futures::executor::block_on(pool.reserve_before(Lane::Cpu, at)) {
                                Ok(p) => {
                                    p.spawn(work).wait().unwrap();
                                    admitted += 1;
                                }
                                Err(TaskError::DeadlineExceeded) => expired += 1,
                                Err(e) => panic!("{e}"),
                            }
                        }
                        // A permit taken and dropped unspent.
                        1 => {
                            drop(futures::executor::block_on(pool.reserve(Lane::Cpu)).unwrap());
                            dropped += 1;
                        }
                        _ => {
                            let task =
                                futures::executor::block_on(pool.spawn_async(Lane::Cpu, work))
                                    .unwrap();
                            futures::executor::block_on(task).unwrap();
                            admitted += 1;
                        }
                    }
                }
                (admitted, expired, dropped)
            })
        })
        .collect();
    let (mut admitted, mut expired, mut dropped) = (0, 0, 0);
    for t in threads {
        let (a, e, d) = t.join().unwrap();
        admitted += a;
        expired += e;
        dropped += d;
    }
    assert_eq!(admitted + expired + dropped, THREADS * EACH);
    assert_eq!(ran.load(Ordering::SeqCst), admitted);
    let cpu = pool.metrics().lane(Lane::Cpu).clone();
    assert_eq!(cpu.submitted_total, admitted as u64);
    assert_eq!(cpu.completed_total, admitted as u64);
    assert_eq!(cpu.rejected_total, 0);
    assert_eq!((cpu.queue_depth, cpu.reservations_waiting), (0, 0));
    assert!(pool.shutdown(Duration::from_secs(10)).drained);
}
