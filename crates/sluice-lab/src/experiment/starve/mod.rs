//! `starve` (seed 001, "Who starves whom"): the asymmetry of libuv's
//! slow-I/O rule. With the pool at 4:
//!
//! - **A**: `--queued` slow waits are queued, then one file read and one CPU
//!   task. libuv lets slow I/O hold at most `(n + 1) / 2` threads, so the two
//!   probes find a free thread and do not wait.
//! - **B**: `--queued` CPU tasks (pbkdf2-sha512, ~`--cpu` each) are
//!   queued, then one file read and one slow wait. Nothing limits CPU work,
//!   so both probes wait for the whole queue: about
//!   `queued × task / min(pool, cores)`.
//!
//! What each probe is, per subject:
//!
//! - file read: one 1 KiB positioned read of a regular file, one pool
//!   request (node: `fs.read` on an open fd; Rust subjects: `pread` in
//!   `FastIo`).
//! - CPU task: pbkdf2-sha512 in `Cpu` (node: `crypto.pbkdf2`). Every
//!   child calibrates its own iteration count to `--cpu` on its event
//!   loop thread just before the run (node with OpenSSL, the Rust subjects
//!   with RustCrypto), so each subject's tasks take about the same time
//!   whatever else the machine was doing when the lab started.
//! - slow wait, Rust subjects: a one-byte read of a FIFO in `SlowIo`, held
//!   `--hold` by the lab's `workload::FifoHolder` after it sees the thread
//!   blocked in `read(2)`; sluice-compat maps `SlowIo` to libuv's slow-I/O
//!   rule, so it reproduces the threshold.
//! - slow wait, node: the only way to submit slow I/O in Node is
//!   `getaddrinfo` (`dns.lookup`), so node's slow waits are the seed's own:
//!   `dns.lookup(name, {family: 4})` of distinct names, each held
//!   `--hold` by the DNS delay server. Node's children run inside a
//!   private network namespace whose only name server is that server
//!   ([`sluice_testnet::netns`]); the server counts the names in flight
//!   (`max_in_flight`). Where namespaces cannot be made (no root, no user
//!   namespaces), node skips A and B's slow wait, saying why.
//! - go (`starve.go`): there is no pool and so no queue; every task is a
//!   goroutine of its own, started at once, and `GOMAXPROCS` (the pool
//!   size) Ps share the computing ones by preemption. Its slow wait is
//!   `syscall.Read` of one byte on a blocking fd of the lab's FIFO (the
//!   goroutine's thread blocks in `read(2)`, its P is handed to another
//!   thread: a thread per wait, counted from `/proc` like the Rust
//!   subjects'); its file read `File.ReadAt` (`pread`), its CPU task
//!   pbkdf2-sha512 over `crypto/hmac`, calibrated in the child.
//!
//! How `wait_ms` is measured: Rust subjects time it inside the job, from the
//! submission to the moment a pool thread starts the job (go: from the `go`
//! statement to the goroutine's first instruction). Node cannot see
//! that moment, so its `wait_ms` is `probe_ms - idle_ms`: submission to
//! callback, minus the median of the same operation on the idle pool
//! measured in the same process just before (floored at 0). node's script
//! submits its probes at the loop's next turn (`setImmediate`) after the
//! queue, so the callback does not also wait for the rest of the turn that
//! submitted the queue (0.5-1 ms of the loop's own time on a 2-core machine,
//! with or without the sluice preload alike).
//!
//! Rows: `params` `scenario` (`A`/`B`), `probe` (`file_read`, `cpu_task`,
//! `slow_wait`, or `total` for the run as a whole), `pool`, `queued`,
//! `stand_in` (what the probe or queue was for that subject) and, for a
//! probe or run that could not be made, `skipped` (why). Metrics:
//! `wait_ms` (queue wait), `probe_ms` (submission to completion seen by the
//! event loop), `idle_ms` (node: the same operation on an idle pool); on
//! `total` rows `total_ms` (first submission to last completion), `task_ms`
//! (one CPU task alone on the idle pool), `iterations` (pbkdf2 iterations
//! that subject used) and `max_in_flight` (the most slow waits in flight at
//! once: Rust subjects', seen blocked by the FIFO holder; node's, the names
//! the DNS delay server held at once), and `completed` (Rust subjects and
//! go: the queued tasks that finished).

mod child;

use super::{ArgSpec, Args, Experiment, ExperimentSpec, Kind};
use crate::PoolSize::Size;
use crate::child::Watch;
use crate::lab::Lab;
use crate::outcome::{Outcome, Row};
use crate::report::{Chart, Point, Table, ms, ratio, series_of};
use crate::subject::{ChildContext, Done, Executor, Runtime, SubjectSpec, run_on};
use crate::sweep::{Cell, Sweep};
use crate::workload::{self, FifoHolder};
use anyhow::Context;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sluice::Lane;
use std::collections::BTreeMap;
use std::io::Read;
use std::os::unix::fs::FileExt;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The declaration of `starve`.
pub(super) static SPEC: ExperimentSpec = ExperimentSpec::new("starve", &Starve)
    .seed("seed 001, \"Who starves whom\"")
    .flags(ARGS)
    .pools(&[Size(4)])
    .short(&[("queued", "16"), ("cpu", "30ms")])
    .rust(&Starve)
    .rerouted()
    .bars();

/// What the parent sends each child (`starve.js` reads the same).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Params {
    scenario: String,
    queued: u64,
    cpu_ms: u64,
    file: PathBuf,
    /// Whether node's slow waits have the DNS delay server.
    dns: bool,
    dns_suffix: String,
    /// The FIFO the lab holds (Rust subjects' slow waits).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    fifo: Option<PathBuf>,
}

/// What each child prints.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Reply {
    /// The two probes of the scenario, by name (`null` if not run).
    probes: BTreeMap<String, Option<Timing>>,
    total_ms: f64,
    task_ms: f64,
    iterations: f64,
    /// Queued tasks that finished (Rust subjects and go; node's
    /// `Promise.all` fails the run instead).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    completed: Option<f64>,
}

/// One probe's timing.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Timing {
    wait_ms: f64,
    probe_ms: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    idle_ms: Option<f64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    run_ms: Option<f64>,
}

/// A run's settings, shared by its cells.
struct Plan {
    queued: u64,
    hold: Duration,
    cpu_ms: u64,
    file: PathBuf,
    node_dns: Result<(), String>,
    server: sluice_testnet::dns_delay::DelayConfig,
}

impl Plan {
    /// `row` with what the child measured of `probe`, or why it has
    /// nothing.
    fn probe_row(&self, reply: &Reply, probe: &str, row: Row) -> Row {
        let Some(r) = reply.probes.get(probe).and_then(Option::as_ref) else {
            let why = match &self.node_dns {
                Err(e) if probe == "slow_wait" => node_dns_skip(e),
                _ => "the child did not report this probe".into(),
            };
            return row.param("skipped", why);
        };
        let row = row
            .metric("wait_ms", r.wait_ms)
            .metric("probe_ms", r.probe_ms);
        match r.idle_ms {
            Some(idle) => row.metric("idle_ms", idle),
            None => row,
        }
    }

    /// Runs one cell's child: node in the DNS namespace when it can (its
    /// slow waits are lookups), the Rust subjects with the lab holding
    /// their FIFO. Returns the reply and the most slow waits seen at once.
    fn call(
        &self,
        lab: &Lab,
        cell: &Cell<'_, &'static str>,
        fifo_no: usize,
    ) -> anyhow::Result<(Reply, Option<usize>)> {
        let mut params = Params {
            scenario: cell.variant.to_string(),
            queued: self.queued,
            cpu_ms: self.cpu_ms,
            file: self.file.clone(),
            dns: self.node_dns.is_ok(),
            dns_suffix: NAME_SUFFIX.to_string(),
            fifo: None,
        };
        if cell.subject.runtime() == Runtime::Node {
            if self.node_dns.is_err() {
                return Ok((cell.call(&params, None)?, None));
            }
            let (r, stats) = lab.run_child_in_netns(
                cell.subject,
                SPEC.name,
                cell.pool,
                &serde_json::to_value(&params)?,
                &self.server,
                None,
            )?;
            let reply = serde_json::from_value(r).context("reading node's starve result")?;
            return Ok((reply, Some(stats.max_in_flight_names as usize)));
        }
        let mut holder = FifoHolder::create(
            lab.runner().scratch(),
            &format!("starve-{fifo_no}"),
            self.hold,
        )?;
        params.fifo = Some(holder.path().to_path_buf());
        let r = cell.call(&params, Some(&mut Throttled::new(&mut holder)))?;
        Ok((r, holder.max_in_flight().first().copied()))
    }
}

/// What stands in for `probe` on `subject` (the seed's operations on node,
/// their equivalents in the Rust subjects' lanes).
fn stand_in(subject: &SubjectSpec, plan: &Plan, scenario: &str, probe: &str) -> String {
    let (queued, hold_ms) = (plan.queued, plan.hold.as_millis());
    let lane = |l: Lane| subject.lane_label(l);
    if subject.runtime() == Runtime::Go {
        return match probe {
            "file_read" => "File.ReadAt 1 KiB, a goroutine".into(),
            "cpu_task" => "pbkdf2 (crypto/hmac), a goroutine".into(),
            "slow_wait" => format!("FIFO syscall.Read held {hold_ms} ms, a goroutine"),
            _ if scenario == "A" => {
                format!("{queued} x FIFO syscall.Read held {hold_ms} ms, a goroutine each")
            }
            _ => format!("{queued} x pbkdf2, a goroutine each"),
        };
    }
    match (subject.runtime() == Runtime::Node, probe) {
        (true, "file_read") => "fs.read 1 KiB".into(),
        (true, "cpu_task") => "crypto.pbkdf2".into(),
        (true, "slow_wait") => format!("dns.lookup held {hold_ms} ms by the DNS server"),
        (true, _) if scenario == "A" => {
            format!("{queued} x dns.lookup held {hold_ms} ms by the DNS server")
        }
        (true, _) => format!("{queued} x crypto.pbkdf2"),
        (false, "file_read") => format!("pread 1 KiB, {}", lane(Lane::FastIo)),
        (false, "cpu_task") => format!("pbkdf2, {}", lane(Lane::Cpu)),
        (false, "slow_wait") => format!("FIFO read held {hold_ms} ms, {}", lane(Lane::SlowIo)),
        (false, _) if scenario == "A" => format!(
            "{queued} x FIFO read held {hold_ms} ms, {}",
            lane(Lane::SlowIo)
        ),
        (false, _) => format!("{queued} x pbkdf2, {}", lane(Lane::Cpu)),
    }
}

/// The notes of a run: how each probe and stand-in was made, per runtime.
fn notes(sweep: &Sweep<'_, &'static str>, plan: &Plan) -> Vec<String> {
    let (node_dns, cpu_ms, hold_ms) = (&plan.node_dns, plan.cpu_ms, plan.hold.as_millis());
    let mut notes = sweep.notes();
    notes.push("wait_ms: Rust subjects time it inside the job, from submission until a pool thread starts it; node cannot see that moment, so its wait_ms is submission-to-callback (probe_ms) minus the median of the same operation on the idle pool (idle_ms), floored at 0".into());
    notes.push("file read: one 1 KiB positioned read of a regular file, one pool request (node: fs.read on an open fd; Rust subjects: pread in the FastIo lane)".into());
    notes.push(format!("CPU task: pbkdf2-sha512; every child calibrates its own iteration count to ~{cpu_ms} ms just before its run (Rust subjects: sluice's RustCrypto pbkdf2; node: OpenSSL); task_ms is one task alone on that subject's idle pool, iterations the count it used; with P pool threads on C cores B's probes should wait about (queued - P + 1) x task_ms / min(P, C)"));
    let rust_subjects: Vec<&str> = sweep
        .subjects()
        .iter()
        .filter(|s| s.runtime() == Runtime::Rust)
        .map(|s| s.name())
        .collect();
    if sweep
        .subjects()
        .iter()
        .any(|s| s.runtime() == Runtime::Rust && s.lane_label(Lane::Cpu) != "Cpu")
    {
        notes.push("tokio has no lanes: its file reads, CPU tasks and slow waits all go to the one spawn_blocking pool, in submission order".into());
    }
    if !rust_subjects.is_empty() {
        notes.push(format!("slow wait ({}): a one-byte FIFO read in Lane::SlowIo, released {hold_ms} ms after the lab sees the pool thread blocked in read(2) (the seed's DNS server held each query 300 ms); sluice-compat maps SlowIo to libuv's slow-I/O rule; max_in_flight is the most slow waits the lab saw blocked at once", rust_subjects.join(", ")));
    }
    if sweep.runs(Runtime::Go) {
        notes.push(format!("go: no pool, so nothing is queued: every task is a goroutine of its own, started at once; wait_ms is the go statement until the goroutine runs (it waits for one of the GOMAXPROCS Ps, which computing goroutines share by preemption every 10 ms), probe_ms the go statement until it finished. slow wait: syscall.Read of one byte on a blocking fd of the FIFO the lab holds {hold_ms} ms (the goroutine's thread blocks in read(2) and its P is handed to another thread: a thread per wait, max_in_flight counted from /proc as for the Rust subjects); file read: File.ReadAt of 1 KiB (pread(2)); CPU task: pbkdf2-sha512 over Go's crypto/hmac, calibrated in the child like the others; completed: queued goroutines that finished"));
    }
    if sweep.runs(Runtime::Node) {
        notes.push(match &node_dns {
            Ok(()) => format!("slow wait (node): dns.lookup(name, {{family: 4}}) of a distinct name, getaddrinfo on libuv's pool as slow I/O, held {hold_ms} ms by the DNS delay server (the seed's resolver) inside a private network and mount namespace whose /etc/resolv.conf names it; max_in_flight is the most names the server saw in flight at once; node's idle_ms of the slow wait includes the hold"),
            Err(e) => format!("node: scenario A and B's slow wait skipped: {}", node_dns_skip(e)),
        });
    }
    notes
}

/// One line of a per-scenario table: its label, the probe whose row it
/// reads, and what of that row it shows.
type Line = (String, &'static str, fn(&Row) -> String);

/// A table of one pool: for each scenario of `here`, its `lines`, a column
/// per subject (`-` where the subject has no such row).
fn scenario_table(
    o: &Outcome,
    subjects: &[String],
    pool: &Value,
    here: &[&(String, Value, Value)],
    (second, title): (&str, String),
    lines: impl Fn(&str) -> Vec<Line>,
) -> Table {
    let mut header = vec!["scenario".to_string(), second.to_string()];
    header.extend(subjects.iter().cloned());
    let mut rows = Vec::new();
    for (sc, _, q) in here {
        for (label, probe, show) in lines(sc) {
            let mut row = vec![scenario_label(sc, q.as_u64().unwrap_or(0)), label];
            let key = row_key(sc, pool, q, probe);
            row.extend(
                subjects
                    .iter()
                    .map(|s| o.find(s, &key).next().map_or("-".into(), show)),
            );
            rows.push(row);
        }
    }
    Table {
        title,
        header,
        rows,
        note: String::new(),
    }
}

/// Two tables at `pool`: what each subject ran in each probe (the
/// stand-ins), and the slow waits in flight at once and one CPU task's
/// time, per scenario.
fn stand_ins_and_measures(
    o: &Outcome,
    subjects: &[String],
    pool: &Value,
    here: &[&(String, Value, Value)],
) -> [Table; 2] {
    let pool_text = crate::report::param_cell(pool);
    let title = format!("starve, pool {pool_text}: what each subject ran (stand-ins)");
    let stand_ins = scenario_table(o, subjects, pool, here, ("probe", title), |sc| {
        let stand_in: fn(&Row) -> String = |r| r.param_text("stand_in");
        let mut lines: Vec<Line> = probes(sc)
            .into_iter()
            .map(|p| (probe_label(p).to_string(), p, stand_in))
            .collect();
        lines.push(("queued tasks".to_string(), "total", stand_in));
        lines
    });
    let title = format!(
        "starve, pool {pool_text}: slow waits in flight at once (FIFO holder; node: the DNS server), and one CPU task's time"
    );
    let measures = scenario_table(o, subjects, pool, here, ("measure", title), |_| {
        vec![
            (
                "slow waits in flight at once".to_string(),
                "total",
                |r: &Row| measure(r, "max_in_flight", |v| format!("{v:.0}")),
            ),
            ("one CPU task alone, ms".to_string(), "total", |r: &Row| {
                measure(r, "task_ms", ms)
            }),
        ]
    });
    [stand_ins, measures]
}

/// A measure of a scenario's `total` row: `skipped` where the subject
/// could not run it.
fn measure(r: &Row, metric: &str, format: fn(f64) -> String) -> String {
    if r.params.contains_key("skipped") {
        "skipped".into()
    } else {
        r.metrics.get(metric).map_or("-".into(), |v| format(*v))
    }
}

/// The params of a starve row.
fn row_key(sc: &str, pool: &Value, q: &Value, probe: &str) -> Vec<(&'static str, Value)> {
    vec![
        ("scenario", json!(sc)),
        ("pool", pool.clone()),
        ("queued", q.clone()),
        ("probe", json!(probe)),
    ]
}

/// The starve experiment.
pub(crate) struct Starve;

const ARGS: &[ArgSpec] = &[
    ArgSpec {
        name: "scenario",
        value_name: "A,B",
        help: "A: slow waits queued, then a file read and a CPU task; B: CPU tasks queued, then a file read and a slow wait",
        default: "A,B",
        report: "A,B",
        kind: Kind::Choices(&["A", "B"]),
    },
    ArgSpec {
        name: "queued",
        value_name: "N",
        help: "how many tasks are queued before the probes",
        default: "32",
        report: "32",
        kind: Kind::Number { min: 1, max: 1024 },
    },
    ArgSpec {
        name: "hold",
        value_name: "DURATION",
        help: "how long the lab holds each slow wait (the seed's DNS server: 300 ms)",
        default: "300ms",
        report: "100ms",
        kind: Kind::millis(1, 60_000, "hold-ms"),
    },
    ArgSpec {
        name: "cpu",
        value_name: "DURATION",
        help: "calibrate each CPU task (pbkdf2-sha512) to about this long",
        default: "100ms",
        report: "50ms",
        kind: Kind::millis(1, 60_000, "cpu-ms"),
    },
];

/// Why node skips its slow waits where namespaces cannot be made.
fn node_dns_skip(why: &str) -> String {
    format!(
        "node's slow waits are dns.lookup calls held by the DNS delay server inside a private network namespace, and {why}"
    )
}

/// The names node's slow waits look up (under `NAMES.starve...`).
const NAME_SUFFIX: &str = "starve.sluice.test";

/// The probes of a scenario, in submission order.
fn probes(scenario: &str) -> [&'static str; 2] {
    if scenario == "A" {
        ["file_read", "cpu_task"]
    } else {
        ["file_read", "slow_wait"]
    }
}

fn probe_label(probe: &str) -> &'static str {
    match probe {
        "file_read" => "file read",
        "cpu_task" => "CPU task",
        "slow_wait" => "slow wait",
        _ => "all done (total_ms)",
    }
}

fn scenario_label(scenario: &str, queued: u64) -> String {
    if scenario == "A" {
        format!("A: {queued} slow waits queued")
    } else {
        format!("B: {queued} CPU tasks queued")
    }
}

impl Experiment for Starve {
    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome> {
        let scenarios = args.choices("scenario")?;
        let queued = args.number("queued")?;
        let hold_ms = args.millis("hold")?;
        let hold = Duration::from_millis(hold_ms);
        let cpu_ms = args.millis("cpu")?;
        let node_dns = sluice_testnet::netns::available(lab.runner().exe());
        let file = lab.runner().scratch().join("starve-read.dat");
        std::fs::write(&file, [b'x'; 1024])
            .with_context(|| format!("writing {}", file.display()))?;
        let plan = Plan {
            queued,
            hold,
            cpu_ms,
            file,
            node_dns,
            server: super::dns::delay_server(hold),
        };
        let sweep = Sweep::new(lab, &SPEC).variants(scenarios, |s| s.to_string());
        let mut fifo_no = 0;
        let rows = sweep.run(|cell| {
            let scenario = *cell.variant;
            let base = |probe: &str| {
                cell.row()
                    .param("scenario", scenario)
                    .param("probe", probe)
                    .param("queued", queued)
            };
            let stand_in = |probe: &str| stand_in(cell.subject, &plan, scenario, probe);
            let is_node = cell.subject.runtime() == Runtime::Node;
            if is_node
                && scenario == "A"
                && let Err(why) = &plan.node_dns
            {
                return Ok(probes(scenario)
                    .into_iter()
                    .chain(["total"])
                    .map(|probe| {
                        base(probe)
                            .param("stand_in", "skipped")
                            .param("skipped", node_dns_skip(why))
                    })
                    .collect());
            }
            fifo_no += 1;
            let (reply, in_flight) = plan.call(lab, cell, fifo_no)?;
            let mut rows: Vec<Row> = probes(scenario)
                .into_iter()
                .map(|probe| {
                    plan.probe_row(
                        &reply,
                        probe,
                        base(probe).param("stand_in", stand_in(probe)),
                    )
                })
                .collect();
            let total = base("total")
                .param("stand_in", stand_in("total"))
                .metric("total_ms", reply.total_ms)
                .metric("task_ms", reply.task_ms)
                .metric("iterations", reply.iterations);
            let total = match reply.completed {
                Some(n) => total.metric("completed", n),
                None => total,
            };
            rows.push(match in_flight {
                Some(n) => total.metric("max_in_flight", n as f64),
                None => total,
            });
            Ok(rows)
        })?;
        let notes = notes(&sweep, &plan);
        Ok(sweep.outcome(rows, notes))
    }

    fn tables(&self, o: &Outcome) -> Vec<Table> {
        let subjects = o.subjects();
        let compared = crate::subject::compared(&subjects);
        let mut keys: Vec<(String, Value, Value)> = Vec::new();
        for r in &o.rows {
            let k = (
                r.param_text("scenario"),
                r.params["pool"].clone(),
                r.params["queued"].clone(),
            );
            if !keys.contains(&k) {
                keys.push(k);
            }
        }
        let mut tables = Vec::new();
        for pool in &o.distinct("pool") {
            let here: Vec<&(String, Value, Value)> =
                keys.iter().filter(|(_, p, _)| p == pool).collect();
            let key = |sc: &str, q: &Value, probe: &str| row_key(sc, pool, q, probe);
            let cell = |s: &str, sc: &str, q: &Value, probe: &str, metric: &str| -> String {
                let k = key(sc, q, probe);
                match o.find(s, &k).next() {
                    None => "-".into(),
                    Some(r) if r.params.contains_key("skipped") => "skipped".into(),
                    Some(r) => r.metrics.get(metric).map_or("-".into(), |v| ms(*v)),
                }
            };
            let mut header = vec!["scenario".to_string(), "probe".to_string()];
            header.extend(subjects.iter().cloned());
            header.extend(compared.iter().map(|c| c.header.clone()));
            let mut rows = Vec::new();
            for (sc, _, q) in &here {
                for probe in probes(sc).into_iter().chain(["total"]) {
                    let metric = if probe == "total" {
                        "total_ms"
                    } else {
                        "wait_ms"
                    };
                    let mut row = vec![
                        scenario_label(sc, q.as_u64().unwrap_or(0)),
                        probe_label(probe).to_string(),
                    ];
                    row.extend(subjects.iter().map(|s| cell(s, sc, q, probe, metric)));
                    let get = |s: &str| o.metric(s, &key(sc, q, probe), metric);
                    row.extend(
                        compared
                            .iter()
                            .map(|c| small_ratio(get(c.subject), get(c.reference))),
                    );
                    rows.push(row);
                }
            }
            let mut note = String::from(
                "wait_ms: submission until a pool thread started the probe (node: callback latency minus the idle latency of the same operation, the probes submitted at the loop's turn after the queue's). ",
            );
            note.push_str("Rust subjects' slow waits are FIFO reads in SlowIo held by the lab; node's are dns.lookup calls held by the DNS delay server; go has no queue (a goroutine per task): its wait_ms is the go statement until the goroutine got a P, its slow waits raw FIFO reads held by the lab.");
            tables.push(Table {
                title: format!(
                    "starve, pool {}: how long each probe waited in the queue (wait_ms)",
                    crate::report::param_cell(pool)
                ),
                header,
                rows,
                note,
            });

            tables.extend(stand_ins_and_measures(o, &subjects, pool, &here));
        }
        tables
    }

    fn chart(&self, o: &Outcome) -> Option<Chart> {
        // x: the probes in table order (A file read, A CPU task, B file read,
        // B slow wait), one line per subject and pool.
        let order = [
            ("A", "file_read"),
            ("A", "cpu_task"),
            ("B", "file_read"),
            ("B", "slow_wait"),
        ];
        let series = series_of(&o.rows, |r| {
            let (sc, probe) = (r.param_text("scenario"), r.param_text("probe"));
            let x = order.iter().position(|&(s, p)| s == sc && p == probe)?;
            Some(Point::pool(
                o,
                r,
                ((x + 1) as f64, *r.metrics.get("wait_ms")?),
            ))
        });
        Some(Chart {
            title: "starve: how long each probe waited in the queue".into(),
            x_label: "probe: 1 A file read, 2 A CPU task, 3 B file read, 4 B slow wait".into(),
            y_label: "wait ms".into(),
            series,
        })
    }
}

/// Ticks a watch at most once per [`Throttled::EVERY`]: the FIFO holder
/// reads `/proc` on every tick, and on a machine with few cores a parent
/// polling flat out would take CPU from the very CPU tasks scenario B times
/// (node, which has no holder, would not pay it). A slow wait is then held
/// its hold plus at most a tick or two.
struct Throttled<'a> {
    inner: &'a mut dyn Watch,
    last: Option<Instant>,
}

impl<'a> Throttled<'a> {
    const EVERY: Duration = Duration::from_millis(2);

    fn new(inner: &'a mut dyn Watch) -> Self {
        Throttled { inner, last: None }
    }
}

impl Watch for Throttled<'_> {
    fn tick(&mut self, pid: u32, lines: &[String]) -> anyhow::Result<()> {
        if let Some(last) = self.last {
            let since = last.elapsed();
            if since < Self::EVERY {
                std::thread::sleep(Self::EVERY - since);
            }
        }
        self.last = Some(Instant::now());
        self.inner.tick(pid, lines)
    }
}

/// Iterations of pbkdf2-sha512 that take about `target` on an uncontended
/// core: a probe size that takes at least 2 ms (grown from 1000, so a debug
/// build does not spend seconds here), then the fastest of five timed runs
/// of it, scaled. The fastest, not the median: on a shared machine a probe
/// run is only ever slowed down; node's side (`starve.js`) does the same.
fn calibrate(target: Duration) -> u32 {
    let time = |iterations: u32| {
        let t = Instant::now();
        std::hint::black_box(workload::pbkdf2_sha512(iterations));
        t.elapsed().as_secs_f64()
    };
    let mut probe: u32 = 1000;
    while probe < 1 << 24 && time(probe) < 0.002 {
        probe *= 4;
    }
    let fastest = (0..5).map(|_| time(probe)).fold(f64::INFINITY, f64::min);
    ((target.as_secs_f64() / fastest * f64::from(probe)) as u32).max(1)
}

/// A job that reports whether its work succeeded.
type Job = Box<dyn FnOnce() -> Result<(), String> + Send + 'static>;

/// A submitted job whose submission, start and end are timed.
struct Timed {
    submitted: Instant,
    done: Done,
    rx: tokio::sync::oneshot::Receiver<(Instant, Instant, Result<(), String>)>,
}

/// What a timed job measured.
struct Measured {
    /// Submission until a pool thread started it.
    wait: Duration,
    /// Its own run time on the pool thread.
    run: Duration,
    /// Submission until the event loop saw it complete.
    latency: Duration,
}

impl Measured {
    fn timing(&self) -> Timing {
        Timing {
            wait_ms: self.wait.as_secs_f64() * 1e3,
            probe_ms: self.latency.as_secs_f64() * 1e3,
            idle_ms: None,
            run_ms: Some(self.run.as_secs_f64() * 1e3),
        }
    }
}

/// Submits `job` to `lane` now (every executor submits eagerly), recording
/// when it was submitted and when it started and ended on its thread.
fn submit_timed(exec: &dyn Executor, lane: Lane, job: Job) -> Timed {
    let (tx, rx) = tokio::sync::oneshot::channel();
    let submitted = Instant::now();
    let done = exec.submit(
        lane,
        Box::new(move || {
            let start = Instant::now();
            let r = job();
            let _ = tx.send((start, Instant::now(), r));
        }),
    );
    Timed {
        submitted,
        done,
        rx,
    }
}

impl Timed {
    async fn finish(self) -> Result<Measured, String> {
        self.done.await?;
        let (start, end, r) = self
            .rx
            .await
            .map_err(|_| "job finished without a value".to_string())?;
        let seen = Instant::now();
        r?;
        Ok(Measured {
            wait: start.saturating_duration_since(self.submitted),
            run: end.saturating_duration_since(start),
            latency: seen.saturating_duration_since(self.submitted),
        })
    }
}

/// `a / b`, readable also when `a` is orders of magnitude below `b`.
fn small_ratio(a: Option<f64>, b: Option<f64>) -> String {
    match (a, b) {
        (Some(a), Some(b)) if b > 0.0 && a == 0.0 && b.is_finite() => "0x".into(),
        (Some(a), Some(b)) if b > 0.0 && a.is_finite() && b.is_finite() && a / b < 0.01 => {
            format!("{:.1e}x", a / b)
        }
        _ => ratio(a, b),
    }
}

/// One row of `starve`'s result, typed (the fields of its `--json` rows):
/// one probe of a scenario behind the queued work.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct StarveRow {
    /// Whose row: the subject and the pool size.
    #[serde(flatten)]
    pub key: crate::outcome::RowKey,
    /// The scenario (`A`, `B`, ...).
    pub scenario: String,
    /// The probe (`file_read`, ..., `total`).
    pub probe: String,
    /// How many tasks were queued ahead of it.
    pub queued: u64,
    /// What the probe ran on this subject (`fs.read 1 KiB`, ...).
    pub stand_in: String,
    /// The probe's wait behind the queue, ms (absent where it was skipped).
    pub wait_ms: Option<f64>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiny_ratios_stay_readable() {
        assert_eq!(small_ratio(Some(0.01), Some(2000.0)), "5.0e-6x");
        assert_eq!(small_ratio(Some(800.0), Some(1600.0)), "0.50x");
        assert_eq!(small_ratio(Some(0.0), Some(1600.0)), "0x");
        assert_eq!(small_ratio(None, Some(1.0)), "-");
    }
}
