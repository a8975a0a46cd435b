//! The loop-lag monitor and the doctor on built scenarios: a loop blocked by
//! synchronous work, a Cpu lane flooded, and an idle service. Verdicts are
//! asserted; the lag values only by the direction the scenario forces.

use sluice::{Lane, Pool};
use sluice_health::{LoopMonitor, Sample, Thresholds, Verdict, diagnose};
use std::time::{Duration, Instant};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_current_thread()
        .enable_time()
        .build()
        .unwrap()
}

/// Runs `scenario` on a current-thread runtime with a lag monitor, sampling
/// the pool and the lag before and after.
fn window<F: std::future::Future<Output = ()>>(
    pool: &Pool,
    scenario: impl FnOnce(Pool) -> F,
) -> (sluice_health::Diagnosis, u64) {
    let rt = runtime();
    let _guard = rt.enter();
    let monitor = LoopMonitor::start(Duration::from_millis(5)).unwrap();
    rt.block_on(tokio::time::sleep(Duration::from_millis(30)));
    let start = Sample::from_snapshot(&pool.metrics(), Some(&monitor.snapshot().sample));
    let t = Instant::now();
    rt.block_on(async {
        scenario(pool.clone()).await;
        // Let the monitor's next tick record how late it is.
        tokio::time::sleep(Duration::from_millis(20)).await;
    });
    let lag = monitor.snapshot();
    let end = Sample::from_snapshot(&pool.metrics(), Some(&lag.sample));
    let thresholds = Thresholds {
        loop_lag_p99: Duration::from_millis(100),
        ..Default::default()
    };
    (diagnose(&start, &end, t.elapsed(), &thresholds), lag.count)
}

#[test]
fn sync_work_on_the_loop_is_a_blocked_loop() {
    let pool = Pool::builder().build().unwrap();
    let (d, ticks) = window(&pool, |_| async {
        let t = Instant::now();
        while t.elapsed() < Duration::from_millis(300) {
            std::hint::spin_loop();
        }
    });
    assert!(ticks > 0);
    assert_eq!(d.verdict, Verdict::LoopBlocked, "{d}");
}

#[test]
fn a_flooded_cpu_lane_is_a_saturated_lane_with_the_loop_fine() {
    let pool = Pool::builder().threads(Lane::Cpu, 1).build().unwrap();
    let (d, _) = window(&pool, |pool| async move {
        let tasks: Vec<_> = (0..6)
            .map(|_| pool.spawn(Lane::Cpu, || std::thread::sleep(Duration::from_millis(40))))
            .collect();
        // Awaited, not waited: the loop stays free while the lane queues.
        for t in tasks {
            t.await.unwrap();
        }
    });
    assert_eq!(d.verdict, Verdict::LaneSaturated(Lane::Cpu), "{d}");
    let cpu = &d.lanes[0];
    assert_eq!(cpu.started, 6);
    assert!(cpu.queue_wait_p99_ms.unwrap() >= 10.0, "{d}");
}

#[test]
fn an_idle_service_is_healthy() {
    let pool = Pool::builder().build().unwrap();
    // The lane's first worker starts before the window: while a thread is
    // being spawned the queued task counts as saturated time, and on a loaded
    // machine that spawn alone can fill half of a 0.1 s window.
    pool.spawn(Lane::FastIo, || ()).wait().unwrap();
    let (d, _) = window(&pool, |pool| async move {
        for _ in 0..3 {
            pool.spawn(Lane::FastIo, || ()).await.unwrap();
        }
    });
    assert_eq!(d.verdict, Verdict::Healthy, "{d}");
    assert_eq!(d.lanes[1].started, 3, "the warm-up ran before the window");
}

#[test]
fn the_monitor_needs_a_runtime() {
    let err = LoopMonitor::start(Duration::from_millis(10)).unwrap_err();
    assert!(err.to_string().contains("inside a tokio runtime"));
}
