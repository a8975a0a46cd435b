//! The Rust subjects' side of `loop-vs-pool`: the workload `sluice lab-child` runs on
//! the subject's executor.

use super::*;

impl crate::child::Workload for LoopVsPool {
    type Params = Value;
    type Reply = Value;

    fn run(&self, cx: &ChildContext, params: Value) -> anyhow::Result<Value> {
        let params = &params;
        let scenarios = params["scenarios"].as_array().context("scenarios")?;
        let timer = Duration::from_millis(params["timer_ms"].as_u64().context("timer_ms")?);
        let spin = Duration::from_millis(params["loop_ms"].as_u64().context("loop_ms")?);
        let iterations = params["iterations"].as_u64().context("iterations")? as u32;
        let gap = Duration::from_millis(params["gap_ms"].as_u64().unwrap_or(GAP_MS));
        let exec = cx.exec.as_ref();
        let mut rows = Vec::new();
        for sc in scenarios {
            let id = sc["id"].as_str().context("scenario id")?;
            let tasks = sc["tasks"].as_u64().unwrap_or(0);
            std::thread::sleep(gap);
            let (fired, load) = cx.block_on(async {
                let t0 = Instant::now();
                let sleep = tokio::time::sleep_until((t0 + timer).into());
                let timer_task = tokio::spawn(async move {
                    sleep.await;
                    t0.elapsed()
                });
                // Let the timer task register its deadline with the loop.
                tokio::task::yield_now().await;
                let (fired, load) = match id {
                    "idle" => (timer_task.await, Duration::ZERO),
                    "loop" => {
                        let start = Instant::now();
                        while start.elapsed() < spin {
                            std::hint::spin_loop();
                        }
                        let load = t0.elapsed();
                        (timer_task.await, load)
                    }
                    _ if id.starts_with("pool-") => {
                        let jobs = (0..tasks).map(|_| {
                            run_on(exec, Lane::Cpu, move || {
                                std::hint::black_box(workload::pbkdf2_sha512(iterations));
                                Instant::now()
                            })
                        });
                        let (fired, ends) =
                            tokio::join!(timer_task, futures::future::join_all(jobs));
                        let mut last = t0;
                        for e in ends {
                            last = last.max(e.map_err(anyhow::Error::msg)?);
                        }
                        (fired, last.duration_since(t0))
                    }
                    other => bail!("unknown scenario {other:?}"),
                };
                anyhow::Ok((fired.context("the timer task failed")?, load))
            })?;
            rows.push(json!({
                "scenario": id,
                "fired_ms": fired.as_secs_f64() * 1e3,
                "load_ms": load.as_secs_f64() * 1e3,
            }));
        }
        Ok(json!({ "rows": rows }))
    }
}
