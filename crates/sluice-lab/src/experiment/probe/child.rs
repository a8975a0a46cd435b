//! The Rust subjects' side of `probe`: the workload `sluice lab-child` runs on
//! the subject's executor.

use super::*;

impl crate::child::Workload for Probe {
    type Params = Value;
    type Reply = Value;

    fn run(&self, cx: &ChildContext, params: Value) -> anyhow::Result<Value> {
        let params = &params;
        let probes: Vec<String> = serde_json::from_value(params["probes"].clone())?;
        let blockers = params["blockers"].as_u64().context("blockers")? as usize;
        let iterations = params["iterations"].as_u64().context("iterations")? as u32;
        let settle = Duration::from_millis(params["settle_ms"].as_u64().unwrap_or(SETTLE_MS));
        let idle_runs = params["idle_runs"].as_u64().unwrap_or(5).max(1) as usize;
        let files = Files {
            small: PathBuf::from(params["small_file"].as_str().context("small_file")?),
            data: Arc::new(
                std::fs::read(params["big_file"].as_str().context("big_file")?)
                    .context("reading the gzip input")?,
            ),
        };
        let exec = cx.exec.as_ref();
        let port = cx.block_on(listen())?;

        let mut idle = Vec::new();
        for kind in &probes {
            let mut times = Vec::new();
            for i in 0..=idle_runs {
                let t = cx.block_on(probe(exec, kind, &files, port))?;
                if i > 0 {
                    times.push(t);
                }
            }
            idle.push(median(times));
        }

        // How many blockers the pool runs at once: sluice's Cpu budget
        // (both policies report it), else all of them.
        let can_run = exec.metrics().map_or(blockers, |m| {
            (m.lane(Lane::Cpu).limit as usize).min(blockers)
        });
        let mut rows = Vec::new();
        for (kind, idle_ms) in probes.iter().zip(idle) {
            let (issued, probe_ms, spans) = cx.block_on(async {
                let t0 = Instant::now();
                let started = Arc::new(AtomicUsize::new(0));
                let jobs = (0..blockers).map(|_| {
                    let started = started.clone();
                    run_on(exec, Lane::Cpu, move || {
                        let start = Instant::now();
                        started.fetch_add(1, Ordering::SeqCst);
                        std::hint::black_box(workload::pbkdf2_sha512(iterations));
                        (start, Instant::now())
                    })
                });
                let probe = async {
                    tokio::time::sleep(settle).await;
                    // On a loaded machine a pool thread can take longer than
                    // the settle to pick its blocker up: wait for every
                    // blocker the pool can run at once to have started.
                    while started.load(Ordering::SeqCst) < can_run
                        && t0.elapsed() < Duration::from_secs(2)
                    {
                        tokio::time::sleep(Duration::from_millis(1)).await;
                    }
                    let issued = Instant::now();
                    let took = probe(exec, kind, &files, port).await;
                    (issued, took)
                };
                let (spans, (issued, took)) = tokio::join!(futures::future::join_all(jobs), probe);
                let spans = spans
                    .into_iter()
                    .map(|s| s.map(|(a, b)| (a, b, b.duration_since(t0))))
                    .collect::<Result<Vec<_>, String>>()
                    .map_err(anyhow::Error::msg)?;
                anyhow::Ok((issued, took?, spans))
            })?;
            let left = spans.iter().filter(|(_, end, _)| *end > issued).count();
            let running = spans
                .iter()
                .filter(|(start, end, _)| *start <= issued && *end > issued)
                .count();
            let blocker_ms = median(spans.iter().map(|s| s.2.as_secs_f64() * 1e3).collect());
            let first_done_ms = spans
                .iter()
                .map(|(_, end, _)| signed_ms_between(issued, *end))
                .reduce(f64::min)
                .unwrap_or(f64::NAN);
            rows.push(json!({
                "probe": kind,
                "idle_ms": idle_ms,
                "probe_ms": probe_ms,
                "blockers_left": left,
                "blockers_running": running,
                "blocker_ms": blocker_ms,
                "first_done_ms": first_done_ms,
            }));
            std::thread::sleep(Duration::from_millis(20));
        }
        Ok(json!({ "rows": rows }))
    }
}
