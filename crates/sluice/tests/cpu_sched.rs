//! `Builder::cpu_sched` / `SLUICE_CPU_SCHED`: the `Cpu` lane's workers run
//! under the policy asked for, at the lane's nice value; the I/O lanes do not
//! change; bad values and the libuv policy are refused with the setting named.

use sluice::{Builder, CpuSched, Lane, Policy, Pool};

/// The calling thread's scheduling policy (`SCHED_OTHER` 0, `SCHED_BATCH`
/// 3, `SCHED_IDLE` 5) and nice value, from `/proc`.
fn policy_and_nice() -> (u32, i32) {
    let sched = std::fs::read_to_string("/proc/thread-self/sched").unwrap();
    let policy = sched
        .lines()
        .find(|l| l.starts_with("policy"))
        .and_then(|l| l.split(':').nth(1))
        .and_then(|v| v.trim().parse().ok())
        .unwrap();
    let stat = std::fs::read_to_string("/proc/thread-self/stat").unwrap();
    // Field 19 (nice), counted after the command name's closing parenthesis.
    let after = &stat[stat.rfind(')').unwrap() + 2..];
    let nice = after.split(' ').nth(16).unwrap().parse().unwrap();
    (policy, nice)
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
    assert!(err.contains("normal, batch or idle"), "{err}");
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
