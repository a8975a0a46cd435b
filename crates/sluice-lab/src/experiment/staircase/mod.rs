//! `staircase` (seed 000 §1): n concurrent pool tasks; total wall time per
//! subject, pool size and n. With a pool of P, libuv runs them in batches:
//! wall = ceil(n / P) × one task.
//!
//! - `--kind wait`: each task holds a pool thread an exact time without CPU:
//!   a one-byte read of a FIFO the lab holds (`workload::FifoHolder`), released
//!   `--hold` after the lab sees the thread blocked in `read(2)`. Sluice
//!   subjects run it in `FastIo`. The holder also counts the most tasks it
//!   saw in flight at once: the pool's real concurrency, counted from outside.
//! - `--kind cpu`: pbkdf2-sha512 with iterations calibrated once (~40 ms with
//!   sluice's implementation) and reused by every subject; `Cpu` lane.

mod child;

use super::{ArgSpec, Args, Experiment, ExperimentSpec, Kind};
use crate::PoolSize::Size;
use crate::lab::Lab;
use crate::outcome::{Outcome, Row};
use crate::report::{Chart, Point, Table, ms, param_cell, series_of};
use crate::subject::{self, ChildContext, Runtime, run_on};
use crate::sweep::Sweep;
use crate::workload::{self, FifoHolder};
use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sluice::Lane;
use std::io::Read;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The declaration of `staircase`.
pub(super) static SPEC: ExperimentSpec = ExperimentSpec::new("staircase", &Staircase)
    .seed("seed 000 §1")
    .flags(ARGS)
    .pools(&[Size(1), Size(2), Size(4), Size(8)])
    .report_pools(&[Size(1), Size(4)])
    .short_pools(&[Size(4)])
    .short(&[("n", "1,4,5,8")])
    .rust(&Staircase);

/// What the parent sends each child (`staircase.js` reads the same).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Params {
    /// `wait` (FIFO reads) or `cpu` (pbkdf2).
    kind: String,
    /// The task counts, one round each.
    ns: Vec<u64>,
    /// The pause between rounds.
    gap_ms: u64,
    /// pbkdf2 iterations (cpu).
    iterations: u64,
    /// The FIFO the lab holds (wait).
    #[serde(skip_serializing_if = "Option::is_none")]
    fifo: Option<PathBuf>,
    /// The go subject's way to wait: `raw` (`syscall.Read`, a thread per
    /// wait) or `netpoll` (`os.File` on Go's netpoller, no thread).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    go_wait: Option<String>,
}

/// What each child prints (after one `begin` event per round).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Reply {
    rows: Vec<Round>,
}

/// One round: `n` tasks at once, their wall time.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Round {
    n: u64,
    total_ms: f64,
}

/// The staircase experiment.
pub(crate) struct Staircase;

/// The rows of the go subject's netpoller waits (the go subject's own rows
/// are its raw `read(2)` waits).
const GO_NETPOLL: &str = "go-netpoll";

const ARGS: &[ArgSpec] = &[
    ArgSpec {
        name: "kind",
        value_name: "wait|cpu",
        help: "task kind: wait (hold a thread without CPU) or cpu (pbkdf2); a list runs both",
        default: "wait",
        report: "wait,cpu",
        kind: Kind::Choices(&["wait", "cpu"]),
    },
    ArgSpec {
        name: "n",
        value_name: "N,..",
        help: "concurrent tasks per round",
        default: "1,2,3,4,5,8,12,16",
        report: "1,2,4,5,8,16",
        kind: Kind::Numbers { min: 1, max: 1024 },
    },
    ArgSpec {
        name: "hold",
        value_name: "DURATION",
        help: "wait kind: how long each task holds its thread",
        default: "50ms",
        report: "40ms",
        kind: Kind::millis(1, 60_000, "hold-ms"),
    },
    ArgSpec {
        name: "cpu",
        value_name: "DURATION",
        help: "cpu kind: calibrate pbkdf2-sha512 iterations to about this long",
        default: "40ms",
        report: "40ms",
        kind: Kind::millis(1, 60_000, "cpu-ms"),
    },
];

impl Experiment for Staircase {
    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome> {
        let kinds: Vec<String> = args
            .choices("kind")?
            .into_iter()
            .map(String::from)
            .collect();
        let ns = args.numbers("n")?;
        let hold = args.duration("hold")?;
        let cpu_ms = args.millis("cpu")?;
        let iterations = if kinds.iter().any(|k| k == "cpu") {
            workload::calibrate_pbkdf2(Duration::from_millis(cpu_ms))
        } else {
            0
        };
        let sweep = Sweep::new(lab, &SPEC).variants(kinds.clone(), Clone::clone);
        let mut fifo_no = 0;
        let rows = sweep.run(|cell| {
            let kind = cell.variant.as_str();
            // Go waits two ways; the netpoller's rows are go-netpoll's.
            let go_waits: &[Option<&str>] = match (cell.subject.runtime(), kind) {
                (Runtime::Go, "wait") => &[Some("raw"), Some("netpoll")],
                _ => &[None],
            };
            let mut rows = Vec::new();
            for &go_wait in go_waits {
                let mut params = Params {
                    kind: kind.to_string(),
                    ns: ns.clone(),
                    gap_ms: 20,
                    iterations: iterations as u64,
                    fifo: None,
                    go_wait: go_wait.map(str::to_string),
                };
                let (reply, counts): (Reply, _) = if kind == "wait" {
                    fifo_no += 1;
                    let mut holder = FifoHolder::create(
                        lab.runner().scratch(),
                        &format!("fifo-{fifo_no}"),
                        hold,
                    )?;
                    if go_wait == Some("netpoll") {
                        holder = holder.release_on_begin();
                    }
                    params.fifo = Some(holder.path().to_path_buf());
                    let r = cell.call(&params, Some(&mut holder))?;
                    (r, Some((holder.max_in_flight(), holder.max_threads())))
                } else {
                    (cell.call(&params, None)?, None)
                };
                let name = match go_wait {
                    Some("netpoll") => GO_NETPOLL,
                    _ => cell.subject.name(),
                };
                for (i, r) in reply.rows.iter().enumerate() {
                    let mut row = Row::new(name)
                        .param("kind", kind)
                        .param("pool", cell.pool.to_value())
                        .param("n", r.n)
                        .metric("total_ms", r.total_ms);
                    if let Some((in_flight, threads)) = &counts {
                        let seen = in_flight
                            .get(i)
                            .copied()
                            .context("the FIFO holder missed a round")?;
                        row = row.metric("max_in_flight", seen as f64);
                        if let Some(&t) = threads.get(i) {
                            row = row.metric("threads_peak", t as f64);
                        }
                    }
                    rows.push(row);
                }
            }
            Ok(rows)
        })?;
        let mut notes = sweep.notes();
        let has_go = sweep.runs(Runtime::Go);
        notes.extend(run_notes(&kinds, has_go, hold, iterations, cpu_ms));
        Ok(sweep.outcome(rows, notes))
    }

    fn tables(&self, o: &Outcome) -> Vec<Table> {
        let subjects = o.subjects();
        let compared = subject::compared(&subjects);
        let ns = o.distinct("n");
        let mut tables = Vec::new();
        for kind in o.distinct("kind").iter().map(param_cell) {
            for pool in &o.distinct("pool") {
                let mut header = vec!["n".to_string()];
                header.extend(subjects.iter().map(|s| format!("{s} ms")));
                header.extend(compared.iter().map(|c| c.header.clone()));
                let key = |n: &Value| {
                    vec![
                        ("kind", json!(kind)),
                        ("pool", pool.clone()),
                        ("n", n.clone()),
                    ]
                };
                let mut rows = Vec::new();
                for n in &ns {
                    let get = |s: &str| o.metric(s, &key(n), "total_ms");
                    let mut row = vec![n.to_string()];
                    row.extend(subjects.iter().map(|s| get(s).map_or("-".into(), ms)));
                    row.extend(compared.iter().map(|c| c.ratio(get)));
                    rows.push(row);
                }
                tables.push(Table {
                    title: format!(
                        "staircase, {kind} tasks, pool {}: total wall ms",
                        crate::report::param_cell(pool)
                    ),
                    header,
                    rows,
                    note: String::new(),
                });
                if kind == "wait" {
                    let pool = crate::report::param_cell(pool);
                    tables.push(count_table(o, &ns, &key, "max_in_flight", format!("staircase, wait tasks, pool {pool}: most tasks in flight at once, counted by the FIFO holder"), String::new()));
                    tables.push(count_table(o, &ns, &key, "threads_peak", format!("staircase, wait tasks, pool {pool}: most threads of the process during the round, from /proc"), "a pool's threads stay once started; go starts a thread for each read(2) in flight and keeps it; go-netpoll's reads hold none".into()));
                }
            }
        }
        tables
    }

    /// The wait staircase at the largest pool: the steps and the fidelity.
    fn headline(&self, o: &Outcome) -> Option<Table> {
        let tables = self.tables(o);
        let wait_totals =
            |t: &&Table| t.title.contains("wait tasks") && t.title.ends_with("total wall ms");
        tables
            .iter()
            .rfind(wait_totals)
            .or_else(|| tables.first())
            .cloned()
    }

    fn chart(&self, o: &Outcome) -> Option<Chart> {
        // One kind per chart, wait if it ran: 4 subjects x pools is enough lines.
        let kind = if o.rows.iter().any(|r| r.param_text("kind") == "wait") {
            "wait"
        } else {
            "cpu"
        };
        let rows = o.rows.iter().filter(|r| r.param_text("kind") == kind);
        let mut series = series_of(rows, |r| {
            let xy = (r.params["n"].as_f64()?, *r.metrics.get("total_ms")?);
            let line = Point::pool(o, r, xy);
            Some(Point {
                series: format!("{} {kind} pool {}", r.subject, r.param_text("pool")),
                ..line
            })
        });
        // The wall time changes only in whole batches of the pool size.
        for s in &mut series {
            s.steps = true;
        }
        Some(Chart {
            title: format!("staircase ({kind} tasks): total wall ms for n concurrent tasks"),
            x_label: "n (concurrent tasks)".into(),
            y_label: "total ms".into(),
            series,
        })
    }
}

/// The run's notes: what each kind of task is, per runtime.
fn run_notes(
    kinds: &[String],
    has_go: bool,
    hold: Duration,
    iterations: u32,
    cpu_ms: u64,
) -> Vec<String> {
    let mut notes = Vec::new();
    if has_go {
        notes.push(format!("go: no pool; pool P is GOMAXPROCS=P. wait: go reads the FIFO with syscall.Read on a blocking fd (its M blocks in read(2), the P is handed to another M: a thread per wait), {GO_NETPOLL} with (*os.File).Read, which Go parks on its netpoller (no thread in read(2); the holder releases each round's n bytes {} ms after the round begins). cpu: pbkdf2-sha512 over crypto/hmac, one goroutine per task", hold.as_millis()));
    }
    if kinds.iter().any(|k| k == "wait") {
        notes.push(format!("wait: one-byte fs.read of a FIFO (sluice: FastIo lane), released {} ms after the lab sees the pool thread blocked in read(2); max_in_flight counted from /proc/PID/task/*/syscall; threads_peak: the most threads the process had during the round", hold.as_millis()));
    }
    if kinds.iter().any(|k| k == "cpu") {
        notes.push(format!("cpu: pbkdf2-sha512, {iterations} iterations for every subject (calibrated to ~{cpu_ms} ms with sluice's RustCrypto pbkdf2; node uses OpenSSL, see its n=1 row)"));
    }
    notes
}

/// One count per subject and n (`metric`, whole numbers), for one pool.
fn count_table(
    o: &Outcome,
    ns: &[Value],
    key: &dyn Fn(&Value) -> Vec<(&'static str, Value)>,
    metric: &str,
    title: String,
    note: String,
) -> Table {
    let subjects = o.subjects();
    let mut header = vec!["n".to_string()];
    header.extend(subjects.iter().cloned());
    let rows = ns
        .iter()
        .map(|n| {
            let mut row = vec![n.to_string()];
            row.extend(subjects.iter().map(|s| {
                o.metric(s, &key(n), metric)
                    .map_or("-".into(), |v| format!("{v:.0}"))
            }));
            row
        })
        .collect();
    Table {
        title,
        header,
        rows,
        note,
    }
}

/// One row of `staircase`'s result, typed (the fields of its `--json`
/// rows): a round of `n` tasks of one kind.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct StaircaseRow {
    /// Whose row: the subject and the pool size.
    #[serde(flatten)]
    pub key: crate::outcome::RowKey,
    /// `wait` or `cpu`.
    pub kind: String,
    /// Tasks started at once.
    pub n: u64,
    /// The round's wall time, ms.
    pub total_ms: f64,
    /// The most tasks seen in flight at once (wait tasks).
    pub max_in_flight: Option<f64>,
    /// The most threads the child had.
    pub threads_peak: Option<f64>,
}
