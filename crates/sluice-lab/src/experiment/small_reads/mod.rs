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

mod child;

use super::{ArgSpec, Args, Experiment, ExperimentSpec, Kind};
use crate::PoolSize::Size;
use crate::lab::Lab;
use crate::outcome::{Outcome, Row};
use crate::report::{Chart, Point, Table, ms, param_cell, ratio, series_of};
use crate::subject::{self, Compared};
use crate::subject::{ChildContext, run_on};
use crate::sweep::Sweep;
use anyhow::{Context, bail};
use futures::StreamExt;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sluice::Lane;
use std::path::PathBuf;
use std::time::Instant;

/// The declaration of `small-reads`.
pub(super) static SPEC: ExperimentSpec = ExperimentSpec::new("small-reads", &SmallReads)
    .seed("seed 000 §5")
    .flags(ARGS)
    .pools(&[Size(1), Size(4), Size(16), Size(64)])
    .report_pools(&[Size(1), Size(4), Size(16)])
    .short(&[("n", "2000"), ("rounds", "3")])
    .rust(&SmallReads)
    .rerouted()
    .bars();

/// What the parent sends each child (`small_reads.js` reads the same).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Params {
    file: PathBuf,
    n: u64,
    in_flight: usize,
    rounds: u64,
    bytes: usize,
}

/// What each child prints.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Reply {
    /// Wall time of each timed round.
    rounds_ms: Vec<f64>,
    /// Reads that did not return `bytes` bytes, warm-up included.
    bad_reads: u64,
}

/// The small-reads experiment.
pub(crate) struct SmallReads;

const ARGS: &[ArgSpec] = &[
    ArgSpec {
        name: "n",
        value_name: "N",
        help: "reads per round",
        default: "4000",
        report: "4000",
        kind: Kind::Number {
            min: 1,
            max: 10_000_000,
        },
    },
    ArgSpec {
        name: "in-flight",
        value_name: "N",
        help: "reads in flight at once",
        default: "200",
        report: "200",
        kind: Kind::Number {
            min: 1,
            max: 100_000,
        },
    },
    ArgSpec {
        name: "bytes",
        value_name: "B",
        help: "the file's size",
        default: "4096",
        report: "4096",
        kind: Kind::Number {
            min: 1,
            max: 64 << 20,
        },
    },
    ArgSpec {
        name: "rounds",
        value_name: "N",
        help: "timed rounds after one warm-up round; the median is reported",
        default: "7",
        report: "5",
        kind: Kind::Number { min: 1, max: 1000 },
    },
];

/// The goal of the issue: sluice at least this many times Node's best.
const GOAL: f64 = 4.0;

impl Experiment for SmallReads {
    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome> {
        let n = args.number("n")?;
        let in_flight = args.number("in-flight")?;
        let bytes = args.number("bytes")?;
        let rounds = args.number("rounds")?;
        let file = lab
            .runner()
            .scratch()
            .join(format!("small-reads-{bytes}.bin"));
        std::fs::write(&file, sluice_serve::payload::text(bytes as usize))
            .with_context(|| format!("writing {}", file.display()))?;
        let params = Params {
            file,
            n,
            in_flight: in_flight as usize,
            rounds,
            bytes: bytes as usize,
        };
        let load_before = crate::procfs::load_average().ok();
        let sweep = Sweep::new(lab, &SPEC);
        let rows = sweep.run(|cell| {
            let out: Reply = cell.call(&params, None)?;
            if out.bad_reads > 0 {
                bail!(
                    "{} pool {}: {} reads did not return {bytes} bytes",
                    cell.subject.name(),
                    cell.pool,
                    out.bad_reads
                );
            }
            let median = crate::outcome::median(out.rounds_ms.clone());
            let best = out.rounds_ms.iter().copied().fold(f64::INFINITY, f64::min);
            Ok(vec![
                cell.row()
                    .metric("total_ms", median)
                    .metric("ops_s", n as f64 / (median / 1e3))
                    .metric("best_ops_s", n as f64 / (best / 1e3))
                    .metric("reads", n as f64),
            ])
        })?;
        let mut notes = sweep.notes();
        notes.push(format!(
            "{n} reads of one {bytes} B file per round, {in_flight} in flight; one warm-up round, then the median of {rounds} rounds (ops_s) and the fastest (best_ops_s)"
        ));
        notes.push("node: fs.promises.readFile, which is four pool requests in turn (open, fstat, read, close), each a round trip between the loop and a pool thread; sluice, sluice-compat: sluice::fs::read, one FastIo task making the same system calls, awaited from the child's tokio current-thread loop; tokio: std::fs::read in spawn_blocking; go: os.ReadFile from as many goroutines as reads in flight (a regular file is not on Go's netpoller: each read(2) blocks its thread, GOMAXPROCS = the pool size)".into());
        if let (Some(a), Ok(b)) = (load_before, crate::procfs::load_average()) {
            notes.push(format!(
                "machine load average (1 min) {:.2} before and {:.2} after the run",
                a[0], b[0]
            ));
        }
        notes.extend(goal(&rows));
        Ok(lab.record().outcome(SPEC.name, rows, notes))
    }

    fn tables(&self, o: &Outcome) -> Vec<Table> {
        let subjects = o.subjects();
        // The lanes subject over the reference, as the goal is put.
        let compared: Vec<Compared> = subject::compared(&subjects)
            .into_iter()
            .filter(|c| c.lanes)
            .collect();
        let mut header = vec!["pool".to_string()];
        header.extend(subjects.iter().map(|s| format!("{s} ops/s")));
        header.extend(subjects.iter().map(|s| format!("{s} ms")));
        header.extend(compared.iter().map(|c| c.header.clone()));
        let get = |s: &str, pool: &Value, m: &str| o.metric(s, &[("pool", pool.clone())], m);
        let rows = o
            .distinct("pool")
            .iter()
            .map(|pool| {
                let mut row = vec![param_cell(pool)];
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
                row.extend(compared.iter().map(|c| c.ratio(|s| get(s, pool, "ops_s"))));
                row
            })
            .collect();
        let mut tables = vec![Table {
            title: "small-reads: 4 KB reads per second (median round) per pool size".into(),
            header,
            rows,
            note: String::new(),
        }];
        let reference = subject::reference(&subjects);
        let mut best_rows = Vec::new();
        for s in &subjects {
            if let Some((v, pool)) = best(&o.rows, s) {
                let vs_node = match reference {
                    Some(r) => ratio(Some(v), best(&o.rows, r).map(|b| b.0)),
                    None => "-".into(),
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
        let series = series_of(&o.rows, |r| {
            Some(Point::subject(
                r,
                (r.params["pool"].as_f64()?, *r.metrics.get("ops_s")?),
            ))
        });
        (!series.is_empty()).then(|| Chart {
            title: "small-reads: 4 KB reads per second, 200 in flight, per pool size".into(),
            x_label: "pool size".into(),
            y_label: "reads per second".into(),
            series,
        })
    }
}

/// A subject's best `ops_s` and the pool size it was reached at.
fn best(rows: &[Row], subject: &str) -> Option<(f64, String)> {
    rows.iter()
        .filter(|r| r.subject == subject)
        .filter_map(|r| r.metrics.get("ops_s").map(|v| (*v, r.param_text("pool"))))
        .max_by(|a, b| a.0.total_cmp(&b.0))
}

/// The goal, on this run's numbers: the lanes subject against the
/// reference's best pool size.
fn goal(rows: &[Row]) -> Option<String> {
    let names: Vec<String> = rows.iter().map(|r| r.subject.clone()).collect();
    let c = subject::compared(&names).into_iter().find(|c| c.lanes)?;
    let (node, node_pool) = best(rows, c.reference)?;
    let (sluice, sluice_pool) = best(rows, c.subject)?;
    let x = sluice / node;
    Some(format!(
        "goal {s} >= {GOAL}x {r}'s best pool size: {s} {sluice:.0} ops/s (pool {sluice_pool}) vs {r} {node:.0} ops/s (pool {node_pool}) = {x:.2}x: {}",
        if x >= GOAL { "met" } else { "NOT met" },
        s = c.subject,
        r = c.reference,
    ))
}
