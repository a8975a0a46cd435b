//! The Rust subjects' side of `starve`: the workload `sluice lab-child` runs on
//! the subject's executor.

use super::*;

impl crate::child::Workload for Starve {
    type Params = Params;
    type Reply = Reply;

    fn run(&self, cx: &ChildContext, p: Params) -> anyhow::Result<Reply> {
        let (scenario, queued, cpu_ms) = (p.scenario.as_str(), p.queued, p.cpu_ms);
        let iterations = calibrate(Duration::from_millis(cpu_ms));
        let fifo = Arc::new(
            std::fs::File::open(p.fifo.as_ref().context("no FIFO in the params")?)
                .context("opening the FIFO")?,
        );
        let file = Arc::new(std::fs::File::open(&p.file).context("opening the file to read")?);
        let exec = cx.exec.as_ref();
        let jobs = Jobs {
            file,
            fifo,
            iterations,
        };
        let read_file = || jobs.read_file();
        let read_fifo = || jobs.read_fifo();
        let cpu = || jobs.cpu();

        // Warm every lane up first: a lazily started pool or lane starts its
        // threads here, not inside the measurement. The CPU task alone is
        // task_ms.
        cx.block_on(run_on(exec, Lane::FastIo, read_file()))
            .and_then(|r| r)
            .map_err(anyhow::Error::msg)?;
        cx.block_on(run_on(exec, Lane::SlowIo, || ()))
            .map_err(anyhow::Error::msg)?;
        let alone = cx
            .block_on(submit_timed(exec, Lane::Cpu, cpu()).finish())
            .map_err(anyhow::Error::msg)?;

        println!("{}", workload::begin_event(json!({ "scenario": scenario })));
        let t0 = Instant::now();
        let mut queue = Vec::with_capacity(queued as usize);
        for _ in 0..queued {
            queue.push(if scenario == "A" {
                submit_timed(exec, Lane::SlowIo, read_fifo())
            } else {
                submit_timed(exec, Lane::Cpu, cpu())
            });
        }
        let [p1, p2] = probes(scenario);
        let first = submit_timed(exec, Lane::FastIo, read_file());
        let second = if scenario == "A" {
            submit_timed(exec, Lane::Cpu, cpu())
        } else {
            submit_timed(exec, Lane::SlowIo, read_fifo())
        };
        let (queue, first, second) = cx.block_on(async {
            futures::join!(
                futures::future::join_all(queue.into_iter().map(Timed::finish)),
                first.finish(),
                second.finish()
            )
        });
        let total = t0.elapsed();
        let mut completed = 0;
        for r in queue {
            r.map_err(anyhow::Error::msg)?;
            completed += 1;
        }
        let first = first.map_err(anyhow::Error::msg)?;
        let second = second.map_err(anyhow::Error::msg)?;
        Ok(Reply {
            probes: [
                (p1.to_string(), Some(first.timing())),
                (p2.to_string(), Some(second.timing())),
            ]
            .into(),
            total_ms: total.as_secs_f64() * 1e3,
            task_ms: alone.run.as_secs_f64() * 1e3,
            iterations: iterations as f64,
            completed: Some(f64::from(completed)),
        })
    }
}

/// The jobs of a starve child: a 1 KiB read of a file, a one-byte read of
/// the FIFO the lab holds, a pbkdf2 of `iterations`.
struct Jobs {
    file: Arc<std::fs::File>,
    fifo: Arc<std::fs::File>,
    iterations: u32,
}

impl Jobs {
    fn read_file(&self) -> Job {
        let file = self.file.clone();
        Box::new(move || {
            let mut buf = [0u8; 1024];
            file.read_at(&mut buf, 0)
                .map(drop)
                .map_err(|e| e.to_string())
        })
    }

    fn read_fifo(&self) -> Job {
        let fifo = self.fifo.clone();
        Box::new(move || {
            let mut b = [0u8; 1];
            (&*fifo).read(&mut b).map(drop).map_err(|e| e.to_string())
        })
    }

    fn cpu(&self) -> Job {
        let iterations = self.iterations;
        Box::new(move || {
            std::hint::black_box(workload::pbkdf2_sha512(iterations));
            Ok(())
        })
    }
}
