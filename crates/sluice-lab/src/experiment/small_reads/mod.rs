//! `small-reads` (seed 000 §5, the second counter-example): `--n` reads of
//! one 4 KB file (page cache), `--in-flight` at once, ops/s per subject and
//! pool size. A `read()` from the page cache takes microseconds, so what is
//! measured is the pool's dispatch: handing the job to a thread, waking it,
//! and getting the result back to the loop. In the seed, Node was fastest at
//! pool 1.
//!
//! - node: `fs.promises.readFile`;
//! - sluice, sluice-compat: `sluice::fs::read` (one `FastIo` task) awaited
//!   from the child's event loop (a tokio current-thread runtime);
//! - tokio: `std::fs::read` in `spawn_blocking`, awaited the same way.
//!
//! Every subject runs one warm-up round (the pool starts its threads), then
//! `--rounds` timed rounds; `ops_s` is the median round's.

use super::{ArgSpec, Args, Experiment, repeat};
use crate::PoolSize;
use crate::lab::Lab;
use crate::outcome::{Outcome, Row};
use crate::report::{Chart, Table, ms, ratio};
use crate::subject::{ChildContext, run_on};
use anyhow::{Context, bail};
use futures::StreamExt;
use serde_json::{Value, json};
use sluice::Lane;
use std::path::PathBuf;
use std::time::Instant;

/// The small-reads experiment.
pub(crate) struct SmallReads;

const ARGS: &[ArgSpec] = &[
    ArgSpec {
        name: "n",
        value_name: "N",
        help: "reads per round",
        default: "4000",
        report: "4000",
    },
    ArgSpec {
        name: "in-flight",
        value_name: "N",
        help: "reads in flight at once",
        default: "200",
        report: "200",
    },
    ArgSpec {
        name: "bytes",
        value_name: "B",
        help: "the file's size",
        default: "4096",
        report: "4096",
    },
    ArgSpec {
        name: "rounds",
        value_name: "N",
        help: "timed rounds after one warm-up round; the median is reported",
        default: "7",
        report: "5",
    },
];

/// The goal of the issue: sluice at least this many times Node's best.
const GOAL: f64 = 4.0;

impl Experiment for SmallReads {
    fn name(&self) -> &'static str {
        "small-reads"
    }

    fn about(&self) -> &'static str {
        "4000 x 4 KB readFile, 200 in flight: ops/s per pool size; bigger pools were slower in the seed (seed 000 §5)"
    }

    fn long_about(&self) -> &'static str {
        "Seed 000 §5, the second counter-example: 4000 reads of one 4 KB file from the page cache, 200 in flight. A read takes microseconds, so the pool's dispatch cost (wake a thread, hand over the job, get the result back to the loop) is what is measured; in the seed Node was fastest at pool 1. node uses fs.promises.readFile; sluice and sluice-compat sluice::fs::read (one FastIo task) awaited from the child's event loop; tokio std::fs::read in spawn_blocking. One warm-up round, then the median of --rounds timed rounds. Goal checked in the run: sluice >= 4x Node's best pool size."
    }

    fn args(&self) -> &'static [ArgSpec] {
        ARGS
    }

    fn default_pools(&self, report: bool) -> Vec<PoolSize> {
        if report {
            [1, 4, 16].map(PoolSize::Size).to_vec()
        } else {
            [1, 4, 16, 64].map(PoolSize::Size).to_vec()
        }
    }

    fn node_script(&self) -> &'static str {
        include_str!("small_reads.js")
    }

    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome> {
        let n = args.number("n", 1, 10_000_000)?;
        let in_flight = args.number("in-flight", 1, 100_000)?;
        let bytes = args.number("bytes", 1, 64 << 20)?;
        let rounds = args.number("rounds", 1, 1000)?;
        let pools = lab.pools_for(self);
        let file = lab.scratch().join(format!("small-reads-{bytes}.bin"));
        std::fs::write(&file, sluice_serve::payload::text(bytes as usize))
            .with_context(|| format!("writing {}", file.display()))?;
        let params = json!({ "file": file, "n": n, "in_flight": in_flight, "rounds": rounds, "bytes": bytes });
        let load_before = crate::procfs::load_average().ok();
        let bar = lab.progress(
            (lab.reps() * pools.len() * lab.subjects().len()) as u64,
            "small-reads",
        );
        let rows = repeat(lab, |_| {
            let mut rows = Vec::new();
            for &pool in &pools {
                for subject in lab.subjects() {
                    bar.set_message(format!("{} pool {pool}", subject.name()));
                    let out = lab.run_child(*subject, self.name(), pool, &params, None)?;
                    let bad = out["bad_reads"].as_u64().context("bad_reads")?;
                    if bad > 0 {
                        bail!(
                            "{} pool {pool}: {bad} reads did not return {bytes} bytes",
                            subject.name()
                        );
                    }
                    let times: Vec<f64> =
                        serde_json::from_value(out["rounds_ms"].clone()).context("rounds_ms")?;
                    let median = crate::outcome::median(times.clone());
                    let best = times.iter().copied().fold(f64::INFINITY, f64::min);
                    rows.push(
                        Row::new(subject.name())
                            .param("pool", pool.to_value())
                            .metric("total_ms", median)
                            .metric("ops_s", n as f64 / (median / 1e3))
                            .metric("best_ops_s", n as f64 / (best / 1e3))
                            .metric("reads", n as f64),
                    );
                    bar.inc(1);
                }
            }
            Ok(rows)
        })?;
        bar.finish_and_clear();
        let mut notes = lab.pool_notes(&pools);
        notes.push(format!(
            "{n} reads of one {bytes} B file per round, {in_flight} in flight; one warm-up round, then the median of {rounds} rounds (ops_s) and the fastest (best_ops_s)"
        ));
        notes.push("node: fs.promises.readFile, which is four pool requests in turn (open, fstat, read, close), each a round trip between the loop and a pool thread; sluice, sluice-compat: sluice::fs::read, one FastIo task making the same system calls, awaited from the child's tokio current-thread loop; tokio: std::fs::read in spawn_blocking".into());
        if let (Some(a), Ok(b)) = (load_before, crate::procfs::load_average()) {
            notes.push(format!(
                "machine load average (1 min) {:.2} before and {:.2} after the run",
                a[0], b[0]
            ));
        }
        notes.extend(goal(&rows));
        Ok(lab.outcome(self.name(), rows, notes))
    }

    fn child(&self, cx: &ChildContext, params: &Value) -> anyhow::Result<Value> {
        let file = PathBuf::from(params["file"].as_str().context("file")?);
        let n = params["n"].as_u64().context("n")?;
        let in_flight = params["in_flight"].as_u64().context("in_flight")? as usize;
        let rounds = params["rounds"].as_u64().context("rounds")?;
        let bytes = params["bytes"].as_u64().context("bytes")? as usize;
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
        Ok(json!({ "rounds_ms": times, "bad_reads": bad_reads }))
    }

    fn tables(&self, o: &Outcome) -> Vec<Table> {
        let subjects = o.subjects();
        let has = |s: &str| subjects.iter().any(|x| x == s);
        let mut pools: Vec<Value> = Vec::new();
        for r in &o.rows {
            if !pools.contains(&r.params["pool"]) {
                pools.push(r.params["pool"].clone());
            }
        }
        let mut header = vec!["pool".to_string()];
        header.extend(subjects.iter().map(|s| format!("{s} ops/s")));
        header.extend(subjects.iter().map(|s| format!("{s} ms")));
        if has("node") && has("sluice") {
            header.push("sluice/node".into());
        }
        let get = |s: &str, pool: &Value, m: &str| o.metric(s, &[("pool", pool.clone())], m);
        let rows = pools
            .iter()
            .map(|pool| {
                let mut row = vec![
                    pool.as_str()
                        .map_or_else(|| pool.to_string(), str::to_string),
                ];
                row.extend(
                    subjects
                        .iter()
                        .map(|s| get(s, pool, "ops_s").map_or("-".into(), |v| format!("{v:.0}"))),
                );
                row.extend(
                    subjects
                        .iter()
                        .map(|s| get(s, pool, "total_ms").map_or("-".into(), ms)),
                );
                if has("node") && has("sluice") {
                    row.push(ratio(
                        get("sluice", pool, "ops_s"),
                        get("node", pool, "ops_s"),
                    ));
                }
                row
            })
            .collect();
        let mut tables = vec![Table {
            title: "small-reads: 4 KB reads per second (median round) per pool size".into(),
            header,
            rows,
            note: String::new(),
        }];
        let best = |s: &str| {
            o.rows
                .iter()
                .filter(|r| r.subject == s)
                .filter_map(|r| r.metrics.get("ops_s").map(|v| (*v, r.param_text("pool"))))
                .max_by(|a, b| a.0.total_cmp(&b.0))
        };
        let mut best_rows = Vec::new();
        for s in &subjects {
            if let Some((v, pool)) = best(s) {
                let vs_node = if has("node") {
                    ratio(Some(v), best("node").map(|b| b.0))
                } else {
                    "-".into()
                };
                best_rows.push(vec![s.clone(), pool, format!("{v:.0}"), vs_node]);
            }
        }
        tables.push(Table {
            title: "small-reads: each subject at its best pool size".into(),
            header: ["subject", "best pool", "ops/s", "vs node's best"]
                .map(String::from)
                .to_vec(),
            rows: best_rows,
            note: String::new(),
        });
        tables
    }

    fn chart(&self, o: &Outcome) -> Option<Chart> {
        let mut series = Vec::new();
        for r in &o.rows {
            let (Some(pool), Some(v)) = (r.params["pool"].as_f64(), r.metrics.get("ops_s")) else {
                continue;
            };
            crate::report::add_point(
                &mut series,
                r.subject.clone(),
                &r.subject,
                false,
                (pool, *v),
            );
        }
        (!series.is_empty()).then(|| Chart {
            title: "small-reads: 4 KB reads per second, 200 in flight, per pool size".into(),
            x_label: "pool size".into(),
            y_label: "reads per second".into(),
            series,
        })
    }
}

/// The goal, on this run's numbers.
fn goal(rows: &[Row]) -> Option<String> {
    let best = |s: &str| {
        rows.iter()
            .filter(|r| r.subject == s)
            .filter_map(|r| r.metrics.get("ops_s").map(|v| (*v, r.param_text("pool"))))
            .max_by(|a, b| a.0.total_cmp(&b.0))
    };
    let (node, node_pool) = best("node")?;
    let (sluice, sluice_pool) = best("sluice")?;
    let x = sluice / node;
    Some(format!(
        "goal sluice >= {GOAL}x node's best pool size: sluice {sluice:.0} ops/s (pool {sluice_pool}) vs node {node:.0} ops/s (pool {node_pool}) = {x:.2}x: {}",
        if x >= GOAL { "met" } else { "NOT met" }
    ))
}
