//! The Rust subjects' side of `probe`: the workload `sluice lab-child` runs on
//! the subject's executor.

use super::*;

impl crate::child::Workload for Probe {
    type Params = Params;
    type Reply = Reply;

    fn run(&self, cx: &ChildContext, p: Params) -> anyhow::Result<Reply> {
        let probes = &p.probes;
        let idle_runs = p.idle_runs.max(1);
        let files = Files {
            small: p.small_file.clone(),
            data: Arc::new(std::fs::read(&p.big_file).context("reading the gzip input")?),
        };
        let exec = cx.exec.as_ref();
        let port = cx.block_on(listen())?;

        let mut idle = Vec::new();
        for kind in probes {
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
        let can_run = exec.metrics().map_or(p.blockers, |m| {
            (m.lane(Lane::Cpu).limit as usize).min(p.blockers)
        });
        let mut rows = Vec::new();
        for (kind, idle_ms) in probes.iter().zip(idle) {
            let mut rounds = Vec::new();
            for _ in 0..p.rounds.max(1) {
                let (issued, probe_ms, spans) =
                    behind_blockers(cx, &p, can_run, kind, &files, port)?;
                rounds.push(Round::new(issued, probe_ms, &spans));
                std::thread::sleep(Duration::from_millis(20));
            }
            let fewest = |f: fn(&Round) -> f64| rounds.iter().map(f).reduce(f64::min);
            let mid = |f: fn(&Round) -> f64| median(rounds.iter().map(f).collect());
            rows.push(Probed {
                probe: kind.clone(),
                idle_ms,
                probe_ms: mid(|r| r.probe_ms),
                blockers_left: fewest(|r| r.left).unwrap_or(f64::NAN),
                blockers_running: fewest(|r| r.running),
                blocker_ms: mid(|r| r.blocker_ms),
                first_done_ms: mid(|r| r.first_done_ms),
            });
        }
        Ok(Reply { rows })
    }
}

/// A blocker's start and end, and its end since the blockers were submitted.
type Span = (Instant, Instant, Duration);

/// One round behind the blockers, as the row reports it.
struct Round {
    probe_ms: f64,
    /// Blockers not finished when the probe was issued.
    left: f64,
    /// Blockers started and not finished when the probe was issued.
    running: f64,
    blocker_ms: f64,
    first_done_ms: f64,
}

impl Round {
    fn new(issued: Instant, probe_ms: f64, spans: &[Span]) -> Self {
        let left = spans.iter().filter(|(_, end, _)| *end > issued).count();
        let running = spans
            .iter()
            .filter(|(start, end, _)| *start <= issued && *end > issued)
            .count();
        Round {
            probe_ms,
            left: left as f64,
            running: running as f64,
            blocker_ms: median(spans.iter().map(|s| s.2.as_secs_f64() * 1e3).collect()),
            first_done_ms: spans
                .iter()
                .map(|(_, end, _)| signed_ms_between(issued, *end))
                .reduce(f64::min)
                .unwrap_or(f64::NAN),
        }
    }
}

/// Starts `p.blockers` blockers on Cpu, waits until the `can_run` the pool
/// runs at once have started (after `settle_ms`), then times one `kind`
/// probe: when it was issued, how long it took, every blocker's span.
fn behind_blockers(
    cx: &ChildContext,
    p: &Params,
    can_run: usize,
    kind: &str,
    files: &Files,
    port: u16,
) -> anyhow::Result<(Instant, f64, Vec<Span>)> {
    let exec = cx.exec.as_ref();
    let iterations = p.iterations as u32;
    let settle = Duration::from_millis(p.settle_ms);
    cx.block_on(async {
        let t0 = Instant::now();
        let started = Arc::new(AtomicUsize::new(0));
        let jobs = (0..p.blockers).map(|_| {
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
            while started.load(Ordering::SeqCst) < can_run && t0.elapsed() < Duration::from_secs(2)
            {
                tokio::time::sleep(Duration::from_millis(1)).await;
            }
            let issued = Instant::now();
            let took = probe(exec, kind, files, port).await;
            (issued, took)
        };
        let (spans, (issued, took)) = tokio::join!(futures::future::join_all(jobs), probe);
        let spans = spans
            .into_iter()
            .map(|s| s.map(|(a, b)| (a, b, b.duration_since(t0))))
            .collect::<Result<Vec<_>, String>>()
            .map_err(anyhow::Error::msg)?;
        anyhow::Ok((issued, took?, spans))
    })
}
