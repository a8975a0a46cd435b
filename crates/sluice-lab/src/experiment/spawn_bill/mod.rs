//! `spawn-bill` (seed 000 §4; seed 001 "The bill for growing it" and "When
//! exactly is the pool born"): what the first pool task costs in threads and
//! address space, and when a size set from inside the process still counts.
//!
//! Part `bill`, one child per subject and pool size. The child reads
//! `/proc/self/status` right before it submits its first pool task (node: one
//! `fs.stat`; Rust subjects: one `std::fs::metadata` in `FastIo`) and right
//! after that task completed. libuv starts its whole pool at the first
//! submission, capped at 1024 without a word; sluice-compat does the same on
//! purpose; sluice's lanes start a thread per task on demand and refuse a
//! budget above their documented maximum; tokio's `spawn_blocking` starts
//! threads on demand. Rows: params `{pool, phase: "startup"}`, metrics
//!
//! - `threads_before`, `threads_after`: `Threads` before and after;
//! - `threads_added`: after − before;
//! - `vm_size_kb`, `vm_rss_kb`: `VmSize` and `VmRSS` after, in kB;
//! - `vm_size_added_kb`, `vm_rss_added_kb`: their increase over before.
//!
//! A subject whose builder refuses the size gets a row with the refusal in
//! `params.error` and no metrics.
//!
//! Part `set`, with `UV_THREADPOOL_SIZE` unset at start: the child sets the
//! size to `--set-size` from inside the process — never (`none`), before its
//! first pool task (`before`) or after it (`after`) — then starts
//! `--set-size` one-byte reads of a FIFO at once, which the lab holds
//! (`workload::FifoHolder`) while it counts how many are blocked in `read(2)`.
//! node sets `process.env.UV_THREADPOOL_SIZE`, sluice-compat calls
//! `std::env::set_var` (read at the first submission, like libuv), sluice
//! calls `Pool::resize(Lane::FastIo, n)`; tokio has nothing to set at run
//! time and is not run. Rows: params `{pool: "unset", phase: "set-inside",
//! set, size}`, metrics
//!
//! - `threads_added`: threads started by the first pool task;
//! - `threads_added_total`: threads added by the end of the FIFO reads;
//! - `max_in_flight`: the most FIFO reads in flight at once;
//! - `fastio_limit` (Rust subjects): the `FastIo` limit the pool reports at
//!   the end — sluice's lane budget, sluice-compat's libuv pool size.
//!
//! sluice's lanes start a burst's threads one after another (each new
//! worker starts the next while work is queued), so its `max_in_flight`
//! reaches the budget only if the ramp beats `--hold`; `fastio_limit`
//! is the count that says whether the resize applied.

mod child;

use child::ARENA_BYTES;

use super::{ArgSpec, Args, Experiment, ExperimentSpec, Kind};
use crate::PoolSize;
use crate::PoolSize::{Size, Unset};
use crate::lab::Lab;
use crate::outcome::{Outcome, Row};
use crate::procfs;
use crate::report::{Chart, Point, Table, series_of};
use crate::subject::{self, ChildContext, Executor, Need, Runtime, SubjectSpec, run_on};
use crate::sweep::Sweep;
use crate::workload::{self, FifoHolder};
use anyhow::{Context, bail};
use serde_json::{Value, json};
use sluice::{Lane, Policy, Pool};
use std::io::Read;
use std::sync::Arc;
use std::time::Duration;

/// The declaration of `spawn-bill`.
pub(super) static SPEC: ExperimentSpec = ExperimentSpec::new("spawn-bill", &SpawnBill)
    .seed("seed 000 §4, seed 001")
    .flags(ARGS)
    .pools(&[Unset, Size(1), Size(16), Size(64), Size(2000)])
    .short_pools(&[Unset, Size(16), Size(2000)])
    .rust(&SpawnBill)
    .bars();

/// The spawn-bill experiment.
pub(crate) struct SpawnBill;

const ARGS: &[ArgSpec] = &[
    ArgSpec {
        name: "part",
        value_name: "bill,set",
        help: "bill: threads and memory of the first pool task per pool size; set: the size set inside the process before or after the first task; a list runs both",
        default: "bill,set",
        report: "bill,set",
        kind: Kind::Choices(&["bill", "set"]),
    },
    ArgSpec {
        name: "set-size",
        value_name: "N",
        help: "set part: the pool size set from inside the process, and how many FIFO reads then run at once",
        default: "16",
        report: "16",
        kind: Kind::Number { min: 1, max: 1024 },
    },
    ArgSpec {
        name: "hold",
        value_name: "DURATION",
        help: "set part: how long the lab holds each FIFO read",
        default: "20ms",
        report: "20ms",
        kind: Kind::millis(1, 60_000, "hold-ms"),
    },
];

/// Where the size was set, in table order.
const SETS: [&str; 3] = ["none", "before", "after"];

/// What the parent sends a child (node's `spawn_bill.js` or `lab-child`).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
#[serde(tag = "part", rename_all = "lowercase")]
pub(crate) enum BillParams {
    /// The bill: the process before and after its first pool task.
    Bill,
    /// A size set inside the process (`set`: none, before or after the
    /// first pool task), then `n` one-byte reads of `fifo` at once.
    Set {
        set: String,
        size: u64,
        n: u64,
        fifo: std::path::PathBuf,
    },
}

/// The process as `/proc/self/status` and `/proc/self/maps` show it.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub(crate) struct ProcStatus {
    threads: u64,
    vm_size_kb: u64,
    vm_rss_kb: u64,
    malloc_arenas: u64,
}

/// What a child prints: the process before and after its first pool task;
/// for the set part also after the reads (`probe`) and the `FastIo` limit
/// where the child has one.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct BillReply {
    before: ProcStatus,
    after: ProcStatus,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    probe: Option<ProcStatus>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fastio_limit: Option<u64>,
}

/// The compat policy's worker thread name (`THREAD_NAME` in sluice's
/// `policy/libuv.rs`).
const COMPAT_WORKER: &str = "sluice-libuv";

impl Experiment for SpawnBill {
    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome> {
        let parts = args.choices("part")?;
        let bill = parts.contains(&"bill");
        let set = parts.contains(&"set");
        let size = args.number("set-size")?;
        let hold = args.duration("hold")?;
        let bill_sweep = Sweep::new(lab, &SPEC);
        let set_sweep = Sweep::new(lab, &SPEC)
            .with_pools(vec![PoolSize::Unset])
            .variants(SETS.to_vec(), |s| format!("set {s}"))
            .only(|s| s.supports(Need::SetSizeInside));
        let mut rows = Vec::new();
        if bill {
            rows.extend(bill_sweep.run(|cell| {
                if cell.subject.runtime() == Runtime::Go {
                    return go_bill(cell);
                }
                let row = cell.row().param("phase", "startup");
                match cell.call::<_, BillReply>(&BillParams::Bill, None) {
                    Ok(out) => Ok(vec![bill_row(row, &out)?]),
                    Err(err) => match refusal(cell.subject, &err) {
                        Some(msg) => Ok(vec![row.param("error", msg)]),
                        None => Err(err),
                    },
                }
            })?);
        }
        let mut fifo_no = 0;
        if set {
            rows.extend(set_sweep.run(|cell| {
                let where_ = *cell.variant;
                fifo_no += 1;
                let mut holder = FifoHolder::create(
                    lab.runner().scratch(),
                    &format!("spawn-bill-fifo-{fifo_no}"),
                    hold,
                )?;
                let params = BillParams::Set {
                    set: where_.to_string(),
                    size,
                    n: size,
                    fifo: holder.path().to_path_buf(),
                };
                let out: BillReply = cell.call(&params, Some(&mut holder))?;
                let in_flight = holder
                    .max_in_flight()
                    .first()
                    .copied()
                    .context("the FIFO holder saw no round begin")?;
                Ok(vec![set_row(cell.row(), &out, where_, size, in_flight)?])
            })?);
        }
        let mut notes = Vec::new();
        if bill {
            notes.extend(bill_sweep.notes());
            notes.push("first pool task: node fs.stat; Rust subjects std::fs::metadata in FastIo (tokio: spawn_blocking). Threads, VmSize and VmRSS are read from /proc/self/status inside the child right before it is submitted and right after it completed.".into());
            notes.push("worker stacks: libuv (node) and sluice-compat 8 MiB each; sluice lanes 2 MiB (stack_size default); tokio 2 MiB (its default). glibc adds a 4 KiB guard page to each; a Rust thread also maps an 8 KiB alternate signal stack and its guard page (std's stack-overflow handler).".into());
            if bill_sweep.runs(Runtime::Go) {
                notes.push(format!("go: no pool to start; its bill at pool P is P goroutines blocked at once in read(2) of a pipe (a blocking fd, not on the netpoller; 4 when the pool is unset), counted once /proc shows all P in read(2): a thread each, as Go starts them (threads it already had idle are reused, so Threads grows by P less those); above libuv's cap of 1024, {GO_MAX_THREADS} runs the same under debug.SetMaxThreads(P), and its error is Go's answer when the blocked calls need more threads than the limit (the process stops)"));
            }
            notes.extend(fidelity(&rows));
            notes.extend(arena_note(&rows, lab.record().machine().cores));
        }
        if set {
            notes.push(format!("set part: UV_THREADPOOL_SIZE unset at start; node sets process.env.UV_THREADPOOL_SIZE='{size}' and sluice-compat std::env::set_var(\"UV_THREADPOOL_SIZE\", \"{size}\") before or after the first pool task; sluice calls pool.resize(Lane::FastIo, {size}) instead. Then {size} one-byte FIFO reads at once (sluice: FastIo), each held {} ms after the lab sees it blocked in read(2); in flight is the most seen at once. sluice's lanes start a burst's threads one after another (each new worker starts the next while work is queued), so its in flight reaches the budget only if all start within the hold; its size column (Pool::limit) is what shows the resize applied. threads: started by the first pool task.", hold.as_millis()));
            notes.extend(
                set_sweep
                    .skipped()
                    .iter()
                    .map(|why| format!("set part: {why}")),
            );
        }
        Ok(bill_sweep.outcome(rows, notes))
    }

    fn tables(&self, o: &Outcome) -> Vec<Table> {
        let mut tables = Vec::new();
        let phase = |p: &str| -> Vec<&Row> {
            o.rows
                .iter()
                .filter(|r| r.param_text("phase") == p)
                .collect()
        };
        let bill = phase("startup");
        if !bill.is_empty() {
            tables.extend(bill_tables(o, &bill));
        }
        let set = phase("set-inside");
        if !set.is_empty() {
            tables.push(set_table(&set));
        }
        tables
    }

    fn chart(&self, o: &Outcome) -> Option<Chart> {
        let startup = o.rows.iter().filter(|r| r.param_text("phase") == "startup");
        let series = series_of(startup, |r| {
            let pool = r.params.get("pool").and_then(Value::as_f64)?;
            Some(Point::subject(
                r,
                (pool, r.metrics.get("vm_size_added_kb")? / 1024.0),
            ))
        });
        Some(Chart {
            title: "spawn-bill: VmSize added by the first pool task".into(),
            x_label: "pool size asked for".into(),
            y_label: "VmSize added (MiB)".into(),
            series,
        })
    }
}

/// A bill row from the child's `{before, after}`.
/// The set part's row: threads the first task and the reads started, the
/// most reads in flight, the `FastIo` limit where the child reports it.
fn set_row(
    row: Row,
    out: &BillReply,
    set: &str,
    size: u64,
    in_flight: usize,
) -> anyhow::Result<Row> {
    let probe = out
        .probe
        .as_ref()
        .context("the child's set result has no probe")?;
    let before = out.before.threads as f64;
    let row = match out.fastio_limit {
        Some(limit) => row.metric("fastio_limit", limit as f64),
        None => row,
    };
    Ok(row
        .param("phase", "set-inside")
        .param("set", set)
        .param("size", size)
        .metric("threads_added", out.after.threads as f64 - before)
        .metric("threads_added_total", probe.threads as f64 - before)
        .metric("max_in_flight", in_flight as f64))
}

/// Go's bill at pool P: P goroutines blocked in read(2) at once, a thread
/// each (4 when the pool is unset); past libuv's cap of 1024, the same
/// again under `debug.SetMaxThreads(P)`, whose fatal error is the row's
/// `error` (row `go-max-threads`).
fn go_bill(cell: &crate::sweep::Cell<'_, ()>) -> anyhow::Result<Vec<Row>> {
    let blocked = cell.pool.size().unwrap_or(4) as u64;
    let row = |name: &str| {
        Row::new(name)
            .param("pool", cell.pool.to_value())
            .param("phase", "startup")
    };
    let params = json!({ "part": "bill", "blocked": blocked, "max_threads": 0 });
    let out: BillReply = cell.call(&params, None)?;
    let mut rows = vec![bill_row(row(cell.subject.name()), &out)?];
    if blocked > 1024 {
        let params = json!({ "part": "bill", "blocked": blocked, "max_threads": blocked });
        let got: Value = cell.call(&params, None)?;
        let r = match got["fatal"].as_str() {
            Some(fatal) => row(GO_MAX_THREADS).param("error", format!("fatal: {fatal}")),
            None => bill_row(
                row(GO_MAX_THREADS),
                &serde_json::from_value(got.clone())
                    .with_context(|| format!("go's limited bill: {got}"))?,
            )?,
        };
        rows.push(r);
    }
    Ok(rows)
}

/// The go subject's rows under `debug.SetMaxThreads(pool)`.
const GO_MAX_THREADS: &str = "go-max-threads";

fn bill_row(row: Row, out: &BillReply) -> anyhow::Result<Row> {
    let delta = |name: fn(&ProcStatus) -> u64| {
        let after = name(&out.after) as f64;
        (after, after - name(&out.before) as f64)
    };
    let (threads, threads_added) = delta(|s| s.threads);
    let (vm_size, vm_size_added) = delta(|s| s.vm_size_kb);
    let (vm_rss, vm_rss_added) = delta(|s| s.vm_rss_kb);
    let (_, arenas_added) = delta(|s| s.malloc_arenas);
    Ok(row
        .metric("threads_before", threads - threads_added)
        .metric("threads_after", threads)
        .metric("threads_added", threads_added)
        .metric("vm_size_kb", vm_size)
        .metric("vm_rss_kb", vm_rss)
        .metric("vm_size_added_kb", vm_size_added)
        .metric("vm_rss_added_kb", vm_rss_added)
        .metric("malloc_arenas_added", arenas_added)
        .metric(
            "vm_arena_added_kb",
            arenas_added * (ARENA_BYTES / 1024) as f64,
        ))
}

/// The refusal in a Rust child's failure, if its pool builder refused the
/// size (the child prints `sluice: <error>` and exits before any work).
fn refusal(subject: &SubjectSpec, err: &anyhow::Error) -> Option<String> {
    if subject.runtime() != Runtime::Rust {
        return None;
    }
    let text = format!("{err:#}");
    text.lines()
        .filter_map(|l| l.trim().strip_prefix("sluice: "))
        .find(|l| l.contains("is out of range"))
        .map(str::to_string)
}

/// Notes comparing the reference's twin's thread counts (the compared
/// subject without lanes: sluice-compat) with the reference's, pool by pool.
fn fidelity(rows: &[Row]) -> Vec<String> {
    let names: Vec<String> = rows.iter().map(|r| r.subject.clone()).collect();
    let Some(twin) = subject::compared(&names).into_iter().find(|c| !c.lanes) else {
        return Vec::new();
    };
    let (node, compat) = (twin.reference, twin.subject);
    let get = |subject: &str, pool: &Value| {
        rows.iter()
            .find(|r| {
                r.subject == subject
                    && r.params.get("phase") == Some(&json!("startup"))
                    && r.params.get("pool") == Some(pool)
            })
            .and_then(|r| r.metrics.get("threads_added").copied())
    };
    let mut pools: Vec<&Value> = Vec::new();
    for r in rows {
        if let Some(p) = r.params.get("pool")
            && r.params.get("phase") == Some(&json!("startup"))
            && !pools.contains(&p)
        {
            pools.push(p);
        }
    }
    let mut compared = 0;
    let mut out = Vec::new();
    for p in pools {
        if let (Some(n), Some(c)) = (get(node, p), get(compat, p)) {
            compared += 1;
            if n != c {
                out.push(format!(
                    "MISMATCH at pool {}: {node} started {n:.0} threads, {compat} {c:.0}",
                    crate::report::param_cell(p)
                ));
            }
        }
    }
    if compared > 0 && out.is_empty() {
        out.push(format!(
            "{compat} started exactly as many threads as {node} at each of the {compared} pool sizes."
        ));
    }
    out
}

/// What the malloc arenas in the memory tables are, with the most each
/// subject's first task added.
fn arena_note(rows: &[Row], cores: usize) -> Option<String> {
    let mut most: Vec<(String, f64)> = Vec::new();
    for r in rows {
        let Some(&n) = r.metrics.get("malloc_arenas_added") else {
            continue;
        };
        match most.iter_mut().find(|(s, _)| *s == r.subject) {
            Some((_, m)) => *m = m.max(n),
            None => most.push((r.subject.clone(), n)),
        }
    }
    if most.iter().all(|(_, n)| *n == 0.0) {
        return None;
    }
    Some(format!(
        "malloc arenas (counted in /proc/self/maps): glibc gives a thread that calls malloc an arena of its own, 64 MiB of address space, until there are 8 per core ({} here, the main one included). A Rust std thread calls malloc as it starts, so each new Rust worker takes one while they last; libuv's workers running fs.stat never call malloc. Most added by one first task: {}.",
        8 * cores,
        most.iter()
            .map(|(s, n)| format!("{s} {n:.0}"))
            .collect::<Vec<_>>()
            .join(", ")
    ))
}

fn mib(kb: f64) -> String {
    format!("{:.1}", kb / 1024.0)
}

/// A number read from a row, for ratio columns.
type RowValue<'a> = dyn Fn(&Row) -> Option<f64> + 'a;

/// What the bill's tables share: the rows' subjects and pools, and the
/// ratio columns.
struct Bill<'a> {
    o: &'a Outcome,
    subjects: Vec<String>,
    pools: Vec<Value>,
    compared: Vec<subject::Compared>,
}

impl Bill<'_> {
    fn find(&self, s: &str, pool: &Value) -> Option<Row> {
        self.o
            .find(s, &[("pool", pool.clone()), ("phase", json!("startup"))])
            .next()
            .cloned()
    }

    /// One table: a cell per subject and pool (`text`), and ratio columns
    /// of `value` where it is per thread (totals carry each runtime's own
    /// baseline: V8's reservations, malloc arenas). A refusal in full in
    /// the `first` table, as "refused" in the others.
    fn table(
        &self,
        title: &str,
        value: Option<&RowValue<'_>>,
        text: &dyn Fn(&Row) -> Option<String>,
        first: bool,
    ) -> Table {
        let mut header = vec!["pool".to_string()];
        header.extend(self.subjects.iter().cloned());
        let ratios: &[subject::Compared] = if value.is_some() { &self.compared } else { &[] };
        header.extend(ratios.iter().map(|c| c.header.clone()));
        let rows = self
            .pools
            .iter()
            .map(|p| {
                let mut row = vec![crate::report::param_cell(p)];
                row.extend(self.subjects.iter().map(|s| match self.find(s, p) {
                    None => "-".to_string(),
                    Some(r) => match r.params.get("error") {
                        Some(e) if first => format!("refused: {}", crate::report::param_cell(e)),
                        Some(_) => "refused".to_string(),
                        None => text(&r).unwrap_or_else(|| "-".into()),
                    },
                }));
                let v = |s: &str| self.find(s, p).and_then(|r| value.and_then(|f| f(&r)));
                row.extend(ratios.iter().map(|c| c.ratio(v)));
                row
            })
            .collect();
        Table {
            title: title.to_string(),
            header,
            rows,
            note: String::new(),
        }
    }
}

fn bill_tables(o: &Outcome, rows: &[&Row]) -> Vec<Table> {
    let mut subjects: Vec<String> = Vec::new();
    let mut pools: Vec<Value> = Vec::new();
    for r in rows {
        if !subjects.contains(&r.subject) {
            subjects.push(r.subject.clone());
        }
        if !pools.contains(&r.params["pool"]) {
            pools.push(r.params["pool"].clone());
        }
    }
    let bill = Bill {
        o,
        compared: subject::compared(&subjects),
        subjects,
        pools,
    };
    let table = |title: &str,
                 value: Option<&RowValue<'_>>,
                 text: &dyn Fn(&Row) -> Option<String>,
                 first: bool| { bill.table(title, value, text, first) };
    let m = |r: &Row, k: &str| r.metrics.get(k).copied();
    let threads = |r: &Row| m(r, "threads_added");
    let per_thread = |r: &Row| {
        let t = threads(r).filter(|t| *t > 0.0)?;
        Some((m(r, "vm_size_added_kb")? - m(r, "vm_arena_added_kb")?) / t / 1024.0)
    };
    vec![
        table(
            "spawn-bill: threads started by the first pool task (Threads after − before)",
            Some(&threads),
            &|r| threads(r).map(|v| format!("{v:.0}")),
            true,
        ),
        table(
            "spawn-bill: VmSize added per thread started, MiB (the stack and its guard; glibc malloc arenas left out)",
            Some(&per_thread),
            &|r| per_thread(r).map(|v| format!("{v:.2}")),
            false,
        ),
        table(
            "spawn-bill: VmSize added by the first pool task, MiB (of which glibc malloc arenas, 64 MiB each)",
            None,
            &|r| {
                let total = mib(m(r, "vm_size_added_kb")?);
                Some(match m(r, "malloc_arenas_added")? {
                    1.0 => format!("{total} (1 arena)"),
                    n if n > 0.0 => format!("{total} ({n:.0} arenas)"),
                    _ => total,
                })
            },
            false,
        ),
        table(
            "spawn-bill: the process after the first pool task, VmSize / VmRSS MiB",
            None,
            &|r| {
                Some(format!(
                    "{} / {}",
                    mib(m(r, "vm_size_kb")?),
                    mib(m(r, "vm_rss_kb")?)
                ))
            },
            false,
        ),
    ]
}

fn set_table(rows: &[&Row]) -> Table {
    let mut subjects: Vec<String> = Vec::new();
    for r in rows {
        if !subjects.contains(&r.subject) {
            subjects.push(r.subject.clone());
        }
    }
    let size = rows
        .first()
        .map(|r| r.param_text("size"))
        .unwrap_or_default();
    // A subject with lanes sets its size with a resize, not the environment.
    fn label(s: &str) -> String {
        match subject::by_name(s) {
            Some(x) if x.has_lanes() => format!("{s} (resize)"),
            _ => s.to_string(),
        }
    }
    let mut header = vec!["where it was set".to_string()];
    header.extend(subjects.iter().map(|s| format!("{} threads", label(s))));
    header.extend(subjects.iter().map(|s| format!("{} in flight", label(s))));
    let limited: Vec<&String> = subjects
        .iter()
        .filter(|s| {
            rows.iter()
                .any(|r| r.subject == **s && r.metrics.contains_key("fastio_limit"))
        })
        .collect();
    header.extend(limited.iter().map(|s| format!("{} size", label(s))));
    let out = SETS
        .iter()
        .map(|&set| {
            let mut row = vec![
                match set {
                    "none" => "nowhere (default)",
                    "before" => "before the first pool task",
                    _ => "after the first pool task",
                }
                .to_string(),
            ];
            for (m, of) in [
                ("threads_added", subjects.iter().collect::<Vec<_>>()),
                ("max_in_flight", subjects.iter().collect()),
                ("fastio_limit", limited.clone()),
            ] {
                row.extend(of.iter().map(|s| {
                    rows.iter()
                        .find(|r| r.subject == **s && r.param_text("set") == set)
                        .and_then(|r| r.metrics.get(m))
                        .map_or("-".into(), |v| format!("{v:.0}"))
                }));
            }
            row
        })
        .collect();
    Table {
        title: format!(
            "spawn-bill: pool size {size} set inside the process — threads started by the first pool task, the most of {size} FIFO reads in flight afterwards, the size the pool reports at the end"
        ),
        header,
        rows: out,
        note: String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::child::malloc_arenas;
    use super::*;

    #[test]
    fn arenas_are_found_and_stacks_are_not() {
        let maps = "\
55c7b1989000-55c7b19aa000 rw-p 00000000 00:00 0                          [heap]
7f0b68000000-7f0b68021000 rw-p 00000000 00:00 0
7f0b68021000-7f0b6c000000 ---p 00000000 00:00 0
7f0b6c000000-7f0b70000000 rw-p 00000000 00:00 0
7f0b70000000-7f0b70021000 rw-p 00000000 00:00 0
7f0b70021000-7f0b73000000 ---p 00000000 00:00 0
7f0b74000000-7f0b74001000 ---p 00000000 00:00 0
7f0b74001000-7f0b74801000 rw-p 00000000 00:00 0
7f0b75346000-7f0b75347000 r--p 00000000 08:01 1234                       /usr/lib/libc.so.6
7ffed0399000-7ffed03ba000 rw-p 00000000 00:00 0                          [stack]
";
        // Two arenas (one fully grown); a span that ends short of 64 MiB, and
        // a stack whose guard page sits on a 64 MiB boundary, are not arenas.
        assert_eq!(malloc_arenas(&sluice_scope::target::maps::parse(maps)), 2);
        assert_eq!(malloc_arenas(&[]), 0);
    }

    #[test]
    fn a_refusal_is_read_from_the_childs_error() {
        let err = anyhow::anyhow!(
            "sluice running spawn-bill (pool 2000) failed (exit status: 2):\nsluice: threads(Lane::FastIo)=\"2000\" is out of range; expected 1..=1024\n"
        );
        let sluice = crate::subject::by_name("sluice").unwrap();
        let node = crate::subject::by_name("node").unwrap();
        assert_eq!(
            refusal(sluice, &err).as_deref(),
            Some("threads(Lane::FastIo)=\"2000\" is out of range; expected 1..=1024")
        );
        assert_eq!(refusal(node, &err), None);
        assert_eq!(refusal(sluice, &anyhow::anyhow!("killed")), None);
    }
}
