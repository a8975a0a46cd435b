//! The Rust subjects' side of `staircase`: the workload `sluice lab-child` runs on
//! the subject's executor.

use super::*;

impl crate::child::Workload for Staircase {
    type Params = Params;
    type Reply = Reply;

    fn run(&self, cx: &ChildContext, p: Params) -> anyhow::Result<Reply> {
        let gap = Duration::from_millis(p.gap_ms);
        let iterations = p.iterations as u32;
        let fifo = match (p.kind.as_str(), &p.fifo) {
            ("wait", Some(path)) => Some(Arc::new(
                std::fs::File::open(path).context("opening the FIFO")?,
            )),
            ("wait", None) => bail!("a wait staircase needs a FIFO"),
            _ => None,
        };
        let exec = cx.exec.as_ref();
        let mut rows = Vec::new();
        for n in p.ns {
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
            rows.push(Round {
                n,
                total_ms: t0.elapsed().as_secs_f64() * 1e3,
            });
            std::thread::sleep(gap);
        }
        Ok(Reply { rows })
    }
}
