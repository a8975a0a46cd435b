//! `workers` (seeds 000 §4 and 001): do event loops on other threads share
//! the process's one pool? The seeds disagree: 000 says every Node worker
//! thread has a pool of its own, 001 says there is one pool per process.
//! The lab settles it by counting.
//!
//! `--workers` event loops each start `--tasks` wait tasks at once; a wait
//! task is a one-byte read of a FIFO that the lab (`workload::FifoHolder`)
//! releases `--hold` after it sees the pool thread blocked in `read(2)`.
//! The holder counts the most reads blocked at once: with one shared pool
//! of P it is P, with a pool per loop it is up to workers × P.
//!
//! - node: `new Worker(...)` from `node:worker_threads`, each worker doing
//!   its `fs.read` calls on its own event loop. The main thread opens the
//!   FIFO once and gives every worker the fd (fds belong to the process),
//!   so the lab watches one fd.
//! - Rust subjects: the same shape in sluice's design: `--workers` OS
//!   threads, each with its own current-thread tokio runtime (its own event
//!   loop), all submitting to the child's one pool (`FastIo` lane).
//!
//! Rows: `params` `pool`, `workers`, `tasks` (per worker). Metrics:
//! `max_in_flight` (most waits blocked at once, counted from /proc),
//! `total_ms` (the loops told to start until every wait is done), `rounds`
//! (`total_ms / hold`, rounded: how many holds the waits took in turn),
//! `threads_before` (the process's threads before any loop or pool work),
//! `threads_ready` (every loop up, no pool work yet), `threads_after`
//! (every wait done, loops still alive), `threads_added`
//! (`threads_after - threads_before`) and `pool_threads_added`
//! (`threads_after - threads_ready`: the pool threads the waits started,
//! once per process if the pool is shared), all from `/proc/self/status`.

mod child;

use super::{ArgSpec, Args, Experiment, ExperimentSpec, Kind};
use crate::PoolSize;
use crate::PoolSize::Size;
use crate::lab::Lab;
use crate::outcome::{Outcome, Row};
use crate::report::{Chart, Point, Table, ms, series_of};
use crate::subject::{ChildContext, run_on};
use crate::sweep::Sweep;
use crate::workload::{self, FifoHolder};
use crate::{procfs, subject};
use anyhow::Context;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sluice::Lane;
use std::io::Read;
use std::path::PathBuf;
use std::sync::{Arc, Barrier};
use std::time::{Duration, Instant};

/// The declaration of `workers`.
pub(super) static SPEC: ExperimentSpec = ExperimentSpec::new("workers", &Workers)
    .seed("seed 000 §4, seed 001")
    .flags(ARGS)
    .pools(&[Size(4), Size(8)])
    .report_pools(&[Size(4)])
    .rust(&Workers)
    .no_go(WHY_NO_GO)
    .bars();

/// Why the go subject does not run it.
const WHY_NO_GO: &str = "the question is whether W event loops share one pool of P threads (P waits in flight) or get a pool each (W x P); Go has neither event loops on other threads nor a pool: however its goroutines are grouped, each blocking read(2) gets a thread of its own and each netpoller read none, so a Go program here would only repeat staircase's wait rows (go: n in flight at any GOMAXPROCS, go-netpoll: 0) with n = W x T";

/// What the parent sends each child (`workers.js` reads the same).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Params {
    workers: usize,
    tasks: usize,
    fifo: PathBuf,
}

/// What each child prints: its wall time and `/proc/self/status` Threads
/// before any loop, with every loop up, and after every wait.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Reply {
    total_ms: f64,
    threads_before: f64,
    threads_ready: f64,
    threads_after: f64,
}

/// The workers experiment.
pub(crate) struct Workers;

const ARGS: &[ArgSpec] = &[
    ArgSpec {
        name: "workers",
        value_name: "N",
        help: "event loops (node: worker threads; Rust subjects: threads with a runtime each)",
        default: "4",
        report: "4",
        kind: Kind::Number { min: 1, max: 64 },
    },
    ArgSpec {
        name: "tasks",
        value_name: "N",
        help: "wait tasks each loop starts at once",
        default: "4",
        report: "4",
        kind: Kind::Number { min: 1, max: 64 },
    },
    ArgSpec {
        name: "hold",
        value_name: "DURATION",
        help: "how long the lab holds each wait task",
        default: "100ms",
        report: "100ms",
        kind: Kind::millis(1, 60_000, "hold-ms"),
    },
];

impl Experiment for Workers {
    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome> {
        let workers = args.number("workers")?;
        let tasks = args.number("tasks")?;
        let hold_ms = args.millis("hold")?;
        let hold = Duration::from_millis(hold_ms);
        let sweep = Sweep::new(lab, &SPEC);
        let mut fifo_no = 0;
        let rows = sweep.run(|cell| {
            fifo_no += 1;
            let mut holder =
                FifoHolder::create(lab.runner().scratch(), &format!("workers-{fifo_no}"), hold)?;
            let params = Params {
                workers: workers as usize,
                tasks: tasks as usize,
                fifo: holder.path().to_path_buf(),
            };
            let r: Reply = cell.call(&params, Some(&mut holder))?;
            let max = holder.max_in_flight().first().copied().with_context(|| {
                format!(
                    "{} workers pool {}: the FIFO holder saw no round",
                    cell.subject.name(),
                    cell.pool
                )
            })?;
            Ok(vec![
                cell.row()
                    .param("workers", workers)
                    .param("tasks", tasks)
                    .metric("max_in_flight", max as f64)
                    .metric("total_ms", r.total_ms)
                    .metric("rounds", (r.total_ms / hold_ms as f64).round())
                    .metric("threads_before", r.threads_before)
                    .metric("threads_ready", r.threads_ready)
                    .metric("threads_after", r.threads_after)
                    .metric("threads_added", r.threads_after - r.threads_before)
                    .metric("pool_threads_added", r.threads_after - r.threads_ready),
            ])
        })?;
        let mut notes = sweep.notes();
        notes.push(format!("wait task: a one-byte read of a FIFO (node: fs.read; Rust subjects: FastIo lane), released {hold_ms} ms after the lab sees the pool thread blocked in read(2); max_in_flight counted from /proc/PID/task/*/syscall; rounds = total_ms / {hold_ms} ms, rounded"));
        notes.push(format!("node: {workers} worker_threads Workers, each doing {tasks} fs.read on its own event loop (the main thread opens the FIFO once and hands every worker the fd); Rust subjects: {workers} OS threads, each with its own current-thread tokio runtime, all submitting to the child's one pool"));
        notes.push("threads: /proc/self/status Threads, read by the child: before any loop or pool work, with every loop up, and after every wait is done (loops still alive)".into());
        for row in &rows {
            notes.push(verdict(row, lab.record().machine().cores));
        }
        Ok(sweep.outcome(rows, notes))
    }

    fn tables(&self, o: &Outcome) -> Vec<Table> {
        let subjects = o.subjects();
        let mut keys: Vec<(Value, Value, Value)> = Vec::new();
        for r in &o.rows {
            let k = (
                r.params["pool"].clone(),
                r.params["workers"].clone(),
                r.params["tasks"].clone(),
            );
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        let mut tables = Vec::new();
        for (pool, workers, tasks) in &keys {
            let key = vec![
                ("pool", pool.clone()),
                ("workers", workers.clone()),
                ("tasks", tasks.clone()),
            ];
            let mut header = vec!["measure".to_string()];
            header.extend(subjects.iter().cloned());
            let measures: [(&str, &str); 8] = [
                ("max_in_flight", "waits in flight at once (max_in_flight)"),
                ("total_ms", "all waits done, ms (total_ms)"),
                ("rounds", "holds in turn (rounds)"),
                ("threads_before", "threads before (threads_before)"),
                ("threads_ready", "threads, loops up (threads_ready)"),
                ("threads_after", "threads after the waits (threads_after)"),
                ("threads_added", "threads added (threads_added)"),
                (
                    "pool_threads_added",
                    "threads the waits added (pool_threads_added)",
                ),
            ];
            let rows = measures
                .iter()
                .map(|(m, label)| {
                    let mut row = vec![label.to_string()];
                    row.extend(subjects.iter().map(|s| {
                        o.metric(s, &key, m).map_or("-".into(), |v| {
                            if *m == "total_ms" {
                                ms(v)
                            } else {
                                format!("{v:.0}")
                            }
                        })
                    }));
                    row
                })
                .collect();
            let total = workers.as_u64().unwrap_or(0) * tasks.as_u64().unwrap_or(0);
            tables.push(Table {
                title: format!(
                    "workers, pool {}: {workers} event loops x {tasks} wait tasks ({total} waits)",
                    crate::report::param_cell(pool)
                ),
                header,
                rows,
                note: format!(
                    "One shared pool of P: at most P waits in flight; a pool per loop: up to {workers} x P. node's loops are worker_threads; the Rust subjects' are threads with a runtime each."
                ),
            });
        }
        tables
    }

    fn chart(&self, o: &Outcome) -> Option<Chart> {
        // max_in_flight over pool size, one line per subject.
        let series = series_of(&o.rows, |r| {
            let xy = (r.params["pool"].as_f64()?, *r.metrics.get("max_in_flight")?);
            Some(Point {
                series: format!(
                    "{} ({} loops x {} waits)",
                    r.subject,
                    r.param_text("workers"),
                    r.param_text("tasks")
                ),
                ..Point::subject(r, xy)
            })
        });
        Some(Chart {
            title: "workers: waits in flight at once, all loops together".into(),
            x_label: "pool size".into(),
            y_label: "max in flight".into(),
            series,
        })
    }
}

/// The verdict of one row, derived from what was counted.
fn verdict(row: &Row, cores: usize) -> String {
    let name = row.subject.as_str();
    let pool: PoolSize = row.param_text("pool").parse().unwrap_or(PoolSize::Unset);
    let Some(subject) = subject::by_name(name) else {
        return format!("{name}: not a subject of this lab");
    };
    let p = subject.wait_threads(pool, cores);
    let workers = row.params["workers"].as_u64().unwrap_or(0) as usize;
    let tasks = row.params["tasks"].as_u64().unwrap_or(0) as usize;
    let total = workers * tasks;
    let m = row.metrics.get("max_in_flight").copied().unwrap_or(0.0) as usize;
    let loops = if subject.runtime() == subject::Runtime::Node {
        "worker_threads"
    } else {
        "event-loop threads"
    };
    let per_loop_max = workers * p.min(tasks);
    if m > p {
        format!(
            "{name}, pool {pool}: the {workers} {loops} do NOT share one pool: {m} of {total} waits in flight at once, more than the pool of {p}"
        )
    } else if m < per_loop_max {
        format!(
            "{name}, pool {pool}: the {workers} {loops} share one pool: at most {m} of {total} waits in flight"
        )
    } else {
        format!(
            "{name}, pool {pool}: cannot tell: {m} of {total} waits in flight, and one pool of {p} holds them all"
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(subject: &str, pool: PoolSize, m: f64) -> Row {
        Row::new(subject)
            .param("pool", pool.to_value())
            .param("workers", 4)
            .param("tasks", 4)
            .metric("max_in_flight", m)
    }

    #[test]
    fn the_verdict_follows_the_count() {
        assert_eq!(
            verdict(&row("node", PoolSize::Size(4), 4.0), 2),
            "node, pool 4: the 4 worker_threads share one pool: at most 4 of 16 waits in flight"
        );
        assert!(
            verdict(&row("node", PoolSize::Size(4), 16.0), 2).contains("do NOT share one pool")
        );
        assert!(verdict(&row("tokio", PoolSize::Unset, 16.0), 2).contains("cannot tell"));
        assert!(
            verdict(&row("sluice", PoolSize::Size(8), 8.0), 2).contains("event-loop threads share")
        );
    }
}
