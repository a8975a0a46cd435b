//! `sluice::checkpoint`: a pool task under `SCHED_IDLE` yields its core
//! once it has computed for `CHECKPOINT_QUANTUM`; one under `SCHED_OTHER` or
//! `SCHED_BATCH`, and any other thread, never does (the guarded lane's
//! case, idle then promoted: `cpu_sched.rs`).

mod common;

use common::spin_until_yield;
use sluice::{CHECKPOINT_QUANTUM, CpuSched, Lane, Pool};
use std::time::Duration;

#[test]
fn a_thread_of_its_own_never_yields() {
    // Ten quanta of computing: still nothing to hand back.
    assert!(!spin_until_yield(CHECKPOINT_QUANTUM * 10));
}

#[test]
fn an_idle_cpu_lane_yields_once_the_quantum_is_up() {
    let pool = Pool::builder().cpu_sched(CpuSched::Idle).build().unwrap();
    let yielded = pool
        .spawn(Lane::Cpu, || spin_until_yield(Duration::from_secs(10)))
        .wait();
    assert_eq!(yielded, Ok(true));
}

#[test]
fn workers_under_sched_other_or_batch_never_yield() {
    for sched in [CpuSched::Normal, CpuSched::Batch, CpuSched::Idle] {
        let pool = Pool::builder().cpu_sched(sched).build().unwrap();
        for lane in Lane::ALL {
            if lane == Lane::Cpu && sched == CpuSched::Idle {
                continue;
            }
            let yielded = pool
                .spawn(lane, || spin_until_yield(CHECKPOINT_QUANTUM * 10))
                .wait();
            assert_eq!(yielded, Ok(false), "{sched:?} {lane}");
        }
    }
}

#[test]
fn a_task_yields_again_and_again() {
    let pool = Pool::builder().cpu_sched(CpuSched::Idle).build().unwrap();
    let yields = pool
        .spawn(Lane::Cpu, || {
            (0..5)
                .filter(|_| spin_until_yield(Duration::from_secs(10)))
                .count()
        })
        .wait();
    assert_eq!(yields, Ok(5));
}

#[test]
fn libuv_policy_workers_never_yield() {
    let pool = common::libuv(1);
    let yielded = pool
        .spawn(Lane::Cpu, || spin_until_yield(CHECKPOINT_QUANTUM * 10))
        .wait();
    assert_eq!(yielded, Ok(false));
}
