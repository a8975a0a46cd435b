//! The Rust subjects' side of `workers`: the workload `sluice lab-child` runs on
//! the subject's executor.

use super::*;

impl crate::child::Workload for Workers {
    type Params = Params;
    type Reply = Reply;

    fn run(&self, cx: &ChildContext, p: Params) -> anyhow::Result<Reply> {
        let (workers, tasks) = (p.workers, p.tasks);
        let me = std::process::id();
        let threads_before = procfs::status_field(me, "Threads")?;
        let fifo = Arc::new(std::fs::File::open(&p.fifo).context("opening the FIFO")?);
        let exec = cx.exec.as_ref();
        // ready: every loop is up; go: start the waits; done: every wait
        // finished; exit: the threads are counted, the loops may end.
        let [ready, go, done, exit] = [(); 4].map(|()| Arc::new(Barrier::new(workers + 1)));
        std::thread::scope(|s| -> anyhow::Result<Reply> {
            let handles: Vec<_> = (0..workers)
                .map(|i| {
                    let (ready, go, done, exit) =
                        (ready.clone(), go.clone(), done.clone(), exit.clone());
                    let fifo = fifo.clone();
                    std::thread::Builder::new()
                        .name(format!("loop-{i}"))
                        .spawn_scoped(s, move || {
                            let rt = tokio::runtime::Builder::new_current_thread()
                                .enable_all()
                                .build()
                                .map_err(|e| format!("building loop {i}'s runtime: {e}"));
                            ready.wait();
                            go.wait();
                            let result = rt.and_then(|rt| reads(&rt, exec, &fifo, tasks));
                            done.wait();
                            exit.wait();
                            result
                        })
                })
                .collect::<Result<_, _>>()
                .context("starting the loops")?;
            // No `?` until every barrier is passed: the loops wait on them.
            ready.wait();
            let threads_ready = procfs::status_field(me, "Threads");
            println!("{}", workload::begin_event(json!({})));
            let t0 = Instant::now();
            go.wait();
            done.wait();
            let total = t0.elapsed();
            // A sluice pool started threads beyond its FastIo budget while the
            // waits blocked; they retire as their tasks end. Count after they
            // have (at most a second), so the count is the pool's own.
            if let Some(pool) = exec.pool() {
                settle(pool);
            }
            let threads_after = procfs::status_field(me, "Threads");
            exit.wait();
            for h in handles {
                h.join()
                    .map_err(|_| anyhow::anyhow!("a loop thread panicked"))?
                    .map_err(anyhow::Error::msg)?;
            }
            Ok(Reply {
                total_ms: total.as_secs_f64() * 1e3,
                threads_before: threads_before as f64,
                threads_ready: threads_ready? as f64,
                threads_after: threads_after? as f64,
            })
        })
    }
}

/// On one event loop of its own (`rt`, a current-thread runtime, as a
/// worker thread has): `tasks` one-byte FIFO reads on `FastIo`, awaited
/// together.
fn reads(
    rt: &tokio::runtime::Runtime,
    exec: &dyn crate::subject::Executor,
    fifo: &Arc<std::fs::File>,
    tasks: usize,
) -> Result<(), String> {
    let reads = (0..tasks).map(|_| {
        let fifo = fifo.clone();
        run_on(exec, Lane::FastIo, move || {
            let mut b = [0u8; 1];
            (&*fifo).read(&mut b).map(drop).map_err(|e| e.to_string())
        })
    });
    rt.block_on(futures::future::join_all(reads))
        .into_iter()
        .try_for_each(|r| r.and_then(|r| r))
}

/// Waits (at most a second) until a sluice pool's threads beyond its
/// FastIo budget, started while the waits blocked, have retired as their
/// tasks ended, so the count after is the pool's own.
fn settle(pool: &sluice::Pool) {
    let t0 = Instant::now();
    while t0.elapsed() < std::time::Duration::from_secs(1)
        && pool.metrics().lane(Lane::FastIo).threads_alive > Some(pool.limit(Lane::FastIo) as u64)
    {
        std::thread::sleep(std::time::Duration::from_millis(1));
    }
}
