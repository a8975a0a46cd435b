//! The Rust subjects' side of `adaptive`: one workload per scenario, and
//! the sampler that counts the process's threads every 2 ms.

use crate::subject::{ChildContext, Executor, run_on};
use crate::workload;
use anyhow::{Context, bail};
use serde_json::{Value, json};
use sluice::Lane;
use std::fs::File;
use std::io::{Read, Write};
use std::os::unix::fs::FileExt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Runs the scenario `params` names.
pub(super) fn run(cx: &ChildContext, params: &Value) -> anyhow::Result<Value> {
    match params["scenario"].as_str().context("scenario")? {
        "wait" => wait(cx, params),
        "cpu" => cpu(cx, params),
        "hung" => hung(cx, params),
        "mixed" => mixed(cx, params),
        other => bail!("unknown scenario {other:?}"),
    }
}

/// The process's thread count now.
fn threads_now() -> u64 {
    crate::procfs::status_field(std::process::id(), "Threads").unwrap_or(0)
}

/// Samples the process's threads every 2 ms until finished.
struct ThreadSampler {
    stop: Arc<AtomicBool>,
    handle: Option<std::thread::JoinHandle<Vec<(f64, u64)>>>,
}

impl ThreadSampler {
    fn start() -> Self {
        let stop = Arc::new(AtomicBool::new(false));
        let s = Arc::clone(&stop);
        let handle = std::thread::spawn(move || {
            let t0 = Instant::now();
            let mut points = Vec::new();
            while !s.load(Ordering::Relaxed) {
                // Minus this sampler itself.
                points.push((t0.elapsed().as_secs_f64() * 1e3, threads_now() - 1));
                std::thread::sleep(Duration::from_millis(2));
            }
            points
        });
        ThreadSampler {
            stop,
            handle: Some(handle),
        }
    }

    fn finish(mut self) -> Vec<(f64, u64)> {
        self.stop.store(true, Ordering::Relaxed);
        self.handle
            .take()
            .and_then(|h| h.join().ok())
            .unwrap_or_default()
    }
}

/// `n` one-byte reads of `fifo` on `FastIo`, awaited together.
async fn fifo_reads(exec: &dyn Executor, fifo: &Arc<File>, n: u64) -> anyhow::Result<()> {
    let tasks = (0..n).map(|_| {
        let f = Arc::clone(fifo);
        run_on(exec, Lane::FastIo, move || {
            let mut b = [0u8; 1];
            (&*f).read(&mut b).map(drop).map_err(|e| e.to_string())
        })
    });
    for r in futures::future::join_all(tasks).await {
        r.map_err(anyhow::Error::msg)?.map_err(anyhow::Error::msg)?;
    }
    Ok(())
}

/// One round of the wait staircase: `n` reads held by the parent, the
/// threads before, at peak and `settle` after.
fn wait_round(
    cx: &ChildContext,
    fifo: &Arc<File>,
    n: u64,
    settle: Duration,
) -> anyhow::Result<(Value, Vec<(f64, u64)>)> {
    let before = threads_now();
    let sampler = ThreadSampler::start();
    println!("{}", workload::begin_event(json!({ "n": n })));
    let t0 = Instant::now();
    cx.block_on(fifo_reads(cx.exec.as_ref(), fifo, n))?;
    let total_ms = t0.elapsed().as_secs_f64() * 1e3;
    std::thread::sleep(settle);
    let after = threads_now() - 1;
    let timeline = sampler.finish();
    let peak = timeline.iter().map(|p| p.1).max().unwrap_or(before);
    let mut row = json!({
        "n": n,
        "total_ms": total_ms,
        "threads_before": before,
        "threads_peak": peak,
        "threads_after": after,
    });
    if let Some(m) = cx.exec.metrics() {
        let l = m.lane(Lane::FastIo);
        row["compensated_total"] = json!(l.compensated_total);
        row["blocked_detected_total"] = json!(l.blocked_detected_total);
    }
    Ok((row, timeline))
}

fn wait(cx: &ChildContext, params: &Value) -> anyhow::Result<Value> {
    let ns: Vec<u64> = serde_json::from_value(params["ns"].clone())?;
    let settle = Duration::from_millis(params["settle_ms"].as_u64().unwrap_or(300));
    let fifo =
        Arc::new(File::open(params["fifo"].as_str().context("fifo")?).context("opening the FIFO")?);
    let largest = ns.iter().copied().max().unwrap_or(0);
    let mut rows = Vec::new();
    for n in ns {
        let (mut row, timeline) = wait_round(cx, &fifo, n, settle)?;
        if n == largest {
            row["timeline"] = json!(timeline);
        }
        rows.push(row);
    }
    Ok(json!({ "rows": rows }))
}

fn cpu(cx: &ChildContext, params: &Value) -> anyhow::Result<Value> {
    let n = params["n"].as_u64().context("n")?;
    let iterations = params["iterations"].as_u64().context("iterations")? as u32;
    let exec = cx.exec.as_ref();
    let t0 = Instant::now();
    let tasks: Vec<_> = (0..n)
        .map(|_| {
            run_on(exec, Lane::Cpu, move || {
                workload::pbkdf2_sha512(iterations);
            })
        })
        .collect();
    for r in cx.block_on(futures::future::join_all(tasks)) {
        r.map_err(anyhow::Error::msg)?;
    }
    let mut out = json!({ "n": n, "total_ms": t0.elapsed().as_secs_f64() * 1e3 });
    if let Some(m) = cx.exec.metrics() {
        let l = m.lane(Lane::Cpu);
        out["cpu_threads_peak"] = json!(l.threads_peak);
        out["cpu_compensated_total"] = json!(l.compensated_total);
    }
    Ok(out)
}

/// The `p`-quantile of sorted, non-empty `lat`.
fn quantile(lat: &[f64], p: f64) -> f64 {
    lat[((lat.len() as f64 * p).ceil() as usize).clamp(1, lat.len()) - 1]
}

/// The open-loop stream of the `hung` scenario: `reads` 4 KiB reads of
/// `file` on `FastIo`, one every 2 ms from 100 ms in, each timed (ms) from
/// its submission.
async fn stream(
    exec: &dyn Executor,
    file: &Arc<File>,
    reads: u64,
    start: tokio::time::Instant,
) -> Result<Vec<f64>, String> {
    let reads = (0..reads).map(|i| {
        let f = Arc::clone(file);
        async move {
            let at = Duration::from_millis(100) + Duration::from_micros(2_000 * i);
            tokio::time::sleep_until(start + at).await;
            let t = Instant::now();
            run_on(exec, Lane::FastIo, move || {
                let mut b = vec![0u8; 4096];
                f.read_at(&mut b, 0).map_err(|e| e.to_string())
            })
            .await?
            .map(|_| t.elapsed().as_secs_f64() * 1e3)
        }
    });
    futures::future::join_all(reads).await.into_iter().collect()
}

fn hung(cx: &ChildContext, params: &Value) -> anyhow::Result<Value> {
    let hung = params["hung"].as_u64().context("hung")?;
    let hang = Duration::from_millis(params["hang_ms"].as_u64().context("hang_ms")?);
    let reads = params["reads"].as_u64().context("reads")?;
    // Read-write: opening never blocks, and reads block until the writer
    // below writes (this process is the writer).
    let fifo = Arc::new(
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(params["fifo"].as_str().context("fifo")?)
            .context("opening the FIFO")?,
    );
    let file = Arc::new(
        File::open(params["file"].as_str().context("file")?).context("opening the small file")?,
    );
    let writer = {
        let f = Arc::clone(&fifo);
        std::thread::spawn(move || {
            std::thread::sleep(hang);
            (&*f).write_all(&vec![1u8; hung as usize])
        })
    };
    let exec = cx.exec.as_ref();
    let t0 = Instant::now();
    let start = tokio::time::Instant::now();
    let (hung_done, latencies) = cx.block_on(async {
        let held = async {
            let r = fifo_reads(exec, &fifo, hung).await;
            r.map(|()| t0.elapsed().as_secs_f64() * 1e3)
        };
        futures::join!(held, stream(exec, &file, reads, start))
    });
    let hung_total_ms = hung_done?;
    writer
        .join()
        .map_err(|_| anyhow::anyhow!("the FIFO writer panicked"))?
        .context("writing the FIFO")?;
    let mut lat = latencies.map_err(anyhow::Error::msg)?;
    if lat.is_empty() {
        bail!("no ordinary read ran");
    }
    lat.sort_by(f64::total_cmp);
    Ok(json!({
        "reads": lat.len(),
        "p50_ms": quantile(&lat, 0.5),
        "p99_ms": quantile(&lat, 0.99),
        "max_ms": lat[lat.len() - 1],
        "hung_total_ms": hung_total_ms,
    }))
}

/// The closed loop of the `mixed` scenario: half pbkdf2 on `Cpu`, half a
/// 5 ms sleep on `FastIo`.
fn mixed(cx: &ChildContext, params: &Value) -> anyhow::Result<Value> {
    let run_for = Duration::from_millis(params["ms"].as_u64().context("ms")?);
    let in_flight = params["in_flight"].as_u64().context("in_flight")?;
    let iterations = params["iterations"].as_u64().context("iterations")? as u32;
    let exec = cx.exec.as_ref();
    let sampler = ThreadSampler::start();
    let t0 = Instant::now();
    let loops: Vec<_> = (0..in_flight)
        .map(|w| async move {
            let mut lat = Vec::new();
            let mut i = w;
            while t0.elapsed() < run_for {
                let t = Instant::now();
                if i % 2 == 0 {
                    run_on(exec, Lane::Cpu, move || {
                        workload::pbkdf2_sha512(iterations);
                    })
                    .await?;
                } else {
                    run_on(exec, Lane::FastIo, || {
                        std::thread::sleep(Duration::from_millis(5))
                    })
                    .await?;
                }
                lat.push(t.elapsed().as_secs_f64() * 1e3);
                i += 1;
            }
            Ok::<_, String>(lat)
        })
        .collect();
    let mut lat = Vec::new();
    for r in cx.block_on(futures::future::join_all(loops)) {
        lat.extend(r.map_err(anyhow::Error::msg)?);
    }
    let wall_ms = t0.elapsed().as_secs_f64() * 1e3;
    let peak = sampler.finish().iter().map(|p| p.1).max().unwrap_or(0);
    if lat.is_empty() {
        bail!("no operation finished");
    }
    lat.sort_by(f64::total_cmp);
    Ok(json!({
        "ops": lat.len(),
        "ops_per_ms": lat.len() as f64 / wall_ms,
        "p50_ms": quantile(&lat, 0.5),
        "p99_ms": quantile(&lat, 0.99),
        "threads_peak": peak,
    }))
}
