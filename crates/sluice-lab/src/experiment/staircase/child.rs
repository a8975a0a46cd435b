//! The Rust subjects' side of `staircase`: the workload `sluice lab-child` runs on
//! the subject's executor.

use super::*;

impl crate::child::Workload for Staircase {
    type Params = Value;
    type Reply = Value;

    fn run(&self, cx: &ChildContext, params: Value) -> anyhow::Result<Value> {
        let params = &params;
        let kind = params["kind"].as_str().context("kind")?;
        let ns: Vec<u64> = serde_json::from_value(params["ns"].clone())?;
        let gap = Duration::from_millis(params["gap_ms"].as_u64().unwrap_or(20));
        let iterations = params["iterations"].as_u64().unwrap_or(0) as u32;
        let fifo = match kind {
            "wait" => Some(Arc::new(
                std::fs::File::open(params["fifo"].as_str().context("fifo")?)
                    .context("opening the FIFO")?,
            )),
            _ => None,
        };
        let exec = cx.exec.as_ref();
        let mut rows = Vec::new();
        for n in ns {
            println!("{}", workload::begin_event(json!({ "n": n })));
            let t0 = Instant::now();
            let tasks: Vec<_> = (0..n)
                .map(|_| {
                    let fifo = fifo.clone();
                    async move {
                        match fifo {
                            Some(f) => run_on(exec, Lane::FastIo, move || {
                                let mut b = [0u8; 1];
                                (&*f).read(&mut b).map(drop).map_err(|e| e.to_string())
                            })
                            .await
                            .and_then(|r| r),
                            None => {
                                run_on(exec, Lane::Cpu, move || {
                                    workload::pbkdf2_sha512(iterations);
                                })
                                .await
                            }
                        }
                    }
                })
                .collect();
            for r in cx.block_on(futures::future::join_all(tasks)) {
                r.map_err(anyhow::Error::msg)?;
            }
            rows.push(json!({ "n": n, "total_ms": t0.elapsed().as_secs_f64() * 1e3 }));
            std::thread::sleep(gap);
        }
        Ok(json!({ "rows": rows }))
    }
}
