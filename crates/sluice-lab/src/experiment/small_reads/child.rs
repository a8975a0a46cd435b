//! The Rust subjects' side of `small-reads`: the workload `sluice lab-child` runs on
//! the subject's executor.

use super::*;

impl crate::child::Workload for SmallReads {
    type Params = Params;
    type Reply = Reply;

    fn run(&self, cx: &ChildContext, p: Params) -> anyhow::Result<Reply> {
        let Params {
            file,
            n,
            in_flight,
            rounds,
            bytes,
        } = p;
        let exec = cx.exec.as_ref();
        let round = || async {
            let t0 = Instant::now();
            let reads = futures::stream::iter(0..n)
                .map(|_| {
                    let file = file.clone();
                    async move {
                        match exec.pool() {
                            Some(pool) => sluice::fs::read(pool, &file)
                                .await
                                .map_err(|e| e.to_string())?
                                .map_err(|e| e.to_string()),
                            None => run_on(exec, Lane::FastIo, move || std::fs::read(&file))
                                .await?
                                .map_err(|e| e.to_string()),
                        }
                    }
                })
                .buffer_unordered(in_flight);
            let mut bad = 0u64;
            let mut reads = std::pin::pin!(reads);
            while let Some(r) = reads.next().await {
                if r.map_err(anyhow::Error::msg)?.len() != bytes {
                    bad += 1;
                }
            }
            anyhow::Ok((t0.elapsed().as_secs_f64() * 1e3, bad))
        };
        let (_, mut bad_reads) = cx.block_on(round())?;
        let mut times = Vec::new();
        for _ in 0..rounds {
            let (t, bad) = cx.block_on(round())?;
            times.push(t);
            bad_reads += bad;
        }
        Ok(Reply {
            rounds_ms: times,
            bad_reads,
        })
    }
}
