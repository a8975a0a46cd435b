//! The Rust subjects' side of `loop-vs-pool`: the workload `sluice lab-child` runs on
//! the subject's executor.

use super::*;

impl crate::child::Workload for LoopVsPool {
    type Params = Params;
    type Reply = Reply;

    fn run(&self, cx: &ChildContext, p: Params) -> anyhow::Result<Reply> {
        let timer = Duration::from_millis(p.timer_ms);
        let spin = Duration::from_millis(p.loop_ms);
        let iterations = p.iterations as u32;
        let gap = Duration::from_millis(p.gap_ms);
        let exec = cx.exec.as_ref();
        let mut rows = Vec::new();
        for sc in &p.scenarios {
            let (id, tasks) = (sc.id.as_str(), sc.tasks);
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
            rows.push(Fired {
                scenario: id.to_string(),
                fired_ms: fired.as_secs_f64() * 1e3,
                load_ms: load.as_secs_f64() * 1e3,
            });
        }
        Ok(Reply { rows })
    }
}
