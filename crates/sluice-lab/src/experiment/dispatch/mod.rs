//! `dispatch`: what one trivial pool task costs, submitted from the event
//! loop and waited for there, per subject, in two shapes:
//!
//! - **1 in flight**: submit one, wait for it, repeat (`--rounds` times per
//!   batch): µs per round trip.
//! - **`--batch` in flight** (1000): submit them all, wait for all, and
//!   again, for at least `--batch-time` (100 ms) per timed batch: tasks/s.
//!
//! Each child runs `--warmup` untimed batches of each shape, then
//! `--batches` timed ones; the rows hold the medians. A throughput batch
//! is timed for a while, not for one wave of 1000: a wave takes 0.2–1 ms,
//! and a 2-core virtual machine's cores run at two speeds for 50–500 ms at
//! a time (a plain counting loop shows it too), so nine single waves
//! measured one speed or the other, whichever the child happened on. After the runs the
//! child sits idle and measures its own CPU use from `/proc/self` (an idle
//! pool should use none).
//!
//! Subjects: the registry's (node through the cheapest pool request JS can
//! make, `--node-request`), plus `libuv-ffi`: the system libuv's
//! `uv_queue_work` on a `uv_loop_t`, driven through FFI (`libuv_ffi.rs`) in a
//! `sluice lab-child` of its own, skipped with a note when `libuv.so.1` is
//! absent. It exists only here ([`Experiment::own_child`]), not in
//! `SUBJECTS`: no other experiment can run on it.

mod child;
mod notes;

use super::{ArgSpec, Args, Experiment, ExperimentSpec, Kind};
use crate::PoolSize;
use crate::lab::Lab;
use crate::libuv_ffi::{ENV, SONAME, SystemLibuv};
use crate::outcome::{Outcome, Row, median};
use crate::procfs;
use crate::report::{Chart, Point, Table, ratio, series_of};
use crate::subject::{self, ChildContext, LOOP_SPIN, Runtime};
use crate::sweep::Sweep;
use anyhow::{Context, bail};
use notes::{goal_note, idle_table, loop_goal_note, package_goal_note, spread_note};
use serde_json::{Value, json};
use sluice::Lane;
use std::time::{Duration, Instant};

/// The declaration of `dispatch`.
pub(super) static SPEC: ExperimentSpec = ExperimentSpec::new("dispatch", &Dispatch)
    .seed("the pool's own cost (no seed section)")
    .flags(ARGS)
    .short(&[
        ("rounds", "500"),
        ("batch-time", "20ms"),
        ("batches", "5"),
        ("idle", "500ms"),
    ])
    .rust(&Dispatch)
    .libuv(&Dispatch)
    .rerouted();

/// The dispatch experiment.
pub(crate) struct Dispatch;

/// How long the child lets the pool settle after the runs before the idle
/// window starts (workers that spin after a burst stop within this).
const SETTLE_MS: u64 = 100;

const NODE_REQUESTS: &[&str] = &["fs.access", "fs.fstat", "fs.stat", "crypto.randomFill"];

/// The request of a subject that runs node with the sluice preload
/// (node+sluice): the cheapest call the preload reroutes (`fs.access` and
/// `fs.fstat` stay on libuv's pool). node times it too, beside its own
/// `--node-request`, so the two stand side by side.
const PRELOAD_REQUEST: &str = "fs.stat";

/// The second request of node+sluice: the package's trivial task,
/// `sluice.ping(cb)` (an empty task on the FastIo lane, its callback called
/// from the loop; no promise, like node's rows), the pool's own round trip
/// from JS.
pub const PING_REQUEST: &str = "sluice.ping";

/// The second request of a sluice pool (either policy): the same trivial
/// tasks with each wave handed over in one `Pool::spawn_batch` call (one
/// push and one wake-up per 32 tasks), beside `Pool::spawn` per task.
const BATCH_REQUEST: &str = "Pool::spawn_batch";

/// A sluice pool's third child: `Pool::spawn` as in its first, awaited on a
/// loop without sluice's park hook (`sluice::loop_spin`).
const PLAIN_LOOP_REQUEST: &str = "loop without loop_spin";

const ARGS: &[ArgSpec] = &[
    ArgSpec {
        name: "rounds",
        value_name: "N",
        help: "round trips per timed batch at 1 in flight",
        default: "2000",
        report: "1000",
        kind: Kind::Number {
            min: 1,
            max: 10_000_000,
        },
    },
    ArgSpec {
        name: "batch",
        value_name: "N",
        help: "tasks in flight at once in the throughput shape",
        default: "1000",
        report: "1000",
        kind: Kind::Number {
            min: 2,
            max: 1_000_000,
        },
    },
    ArgSpec {
        name: "batch-time",
        value_name: "DURATION",
        help: "how long each timed batch of the throughput shape runs its waves of --batch (at least; whole waves)",
        default: "100ms",
        report: "100ms",
        kind: Kind::duration(1, 60_000),
    },
    ArgSpec {
        name: "batches",
        value_name: "N",
        help: "timed batches of each shape per child; rows hold their median",
        default: "9",
        report: "9",
        kind: Kind::Number { min: 1, max: 1000 },
    },
    ArgSpec {
        name: "warmup",
        value_name: "N",
        help: "untimed batches of each shape first",
        default: "2",
        report: "2",
        kind: Kind::Number { min: 0, max: 1000 },
    },
    ArgSpec {
        name: "idle",
        value_name: "DURATION",
        help: "after the runs: the window over which the idle process's CPU is measured",
        default: "1s",
        report: "1s",
        kind: Kind::millis(1, 600_000, "idle-ms"),
    },
    ArgSpec {
        name: "lane",
        value_name: "cpu|fastio",
        help: "the sluice lane tasks go to (uv_queue_work's kind is CPU)",
        default: "cpu",
        report: "cpu",
        kind: Kind::Choice(&["cpu", "fastio"]),
    },
    ArgSpec {
        name: "node-request",
        value_name: "REQ",
        help: "node's pool request: fs.access (of \"/\"), fs.fstat (of fd 0), fs.stat (of \"/\") or crypto.randomFill (1 byte); node+sluice always times fs.stat, the cheapest call its preload reroutes",
        default: "fs.access",
        report: "fs.access",
        kind: Kind::Choice(NODE_REQUESTS),
    },
    ArgSpec {
        name: "libuv-ffi",
        value_name: "on|off",
        help: "also time the system libuv's uv_queue_work through FFI (skipped with a note when libuv.so.1 is absent; SLUICE_LIBUV=PATH loads another libuv)",
        default: "on",
        report: "on",
        kind: Kind::Choice(&["on", "off"]),
    },
];

/// The validated flags, as the children get them.
#[derive(Debug, Clone, Copy)]
struct Params {
    lane: Lane,
    rounds: u64,
    batch: u64,
    batch_ms: u64,
    batches: u64,
    warmup: u64,
    idle_ms: u64,
}

impl Params {
    fn from_args(args: &Args) -> anyhow::Result<Params> {
        Ok(Params {
            lane: args.choice("lane")?.parse().map_err(anyhow::Error::msg)?,
            rounds: args.number("rounds")?,
            batch: args.number("batch")?,
            batch_ms: args.millis("batch-time")?,
            batches: args.number("batches")?,
            warmup: args.number("warmup")?,
            idle_ms: args.millis("idle")?,
        })
    }

    fn to_wire(self, node_request: &str, sluice_package: Option<&std::path::Path>) -> ChildParams {
        ChildParams {
            lane: self.lane.name().to_string(),
            rounds: self.rounds,
            batch: self.batch,
            batch_ms: self.batch_ms,
            batches: self.batches,
            warmup: self.warmup,
            settle_ms: SETTLE_MS,
            idle_ms: self.idle_ms,
            request: node_request.to_string(),
            sluice_package: sluice_package.map(std::path::Path::to_path_buf),
        }
    }

    fn from_wire(v: &ChildParams) -> anyhow::Result<Params> {
        Ok(Params {
            lane: v.lane.parse().map_err(anyhow::Error::msg)?,
            rounds: v.rounds,
            batch: v.batch,
            batch_ms: v.batch_ms,
            batches: v.batches,
            warmup: v.warmup,
            idle_ms: v.idle_ms,
        })
    }
}

/// What the parent sends a child (node's `dispatch.js`, `lab-child`, or
/// the libuv-ffi child).
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct ChildParams {
    /// The lane of the Rust subjects' tasks (`cpu` or `fastio`).
    lane: String,
    rounds: u64,
    batch: u64,
    /// The least time of a timed throughput batch: its waves of `batch`
    /// run until their walls add up to this.
    batch_ms: u64,
    batches: u64,
    warmup: u64,
    /// How long the child waits before the idle window.
    settle_ms: u64,
    idle_ms: u64,
    /// node's request kind.
    request: String,
    /// The sluice npm package's directory, for node's `sluice.ping`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sluice_package: Option<std::path::PathBuf>,
}

/// The idle window as a child measured it.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct IdleWindow {
    window_ns: f64,
    ticks: f64,
    thread_ns: f64,
    switches: f64,
    threads: f64,
}

/// What a child prints: the wall times of the series and the idle window.
#[derive(Debug, Clone, serde::Serialize, serde::Deserialize)]
pub(crate) struct ChildReply {
    one_wall_ns: Vec<f64>,
    /// Each timed throughput batch's wall (its waves' walls added up)...
    batch_wall_ns: Vec<f64>,
    /// ...and the tasks it ran (whole waves of `batch`).
    batch_tasks: Vec<f64>,
    idle: IdleWindow,
    /// The system libuv's version (the libuv-ffi child).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    version: Option<String>,
    /// The request node ran (node).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    request: Option<String>,
}

impl Experiment for Dispatch {
    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome> {
        let p = Params::from_args(args)?;
        let request = args.choice("node-request")?;
        let ffi = args.choice("libuv-ffi")? == "on";
        let sweep = Sweep::new(lab, &SPEC)
            .adding(|s| ffi && s.runtime() == Runtime::Libuv)
            .only(|s| {
                if ffi || s.runtime() != Runtime::Libuv {
                    Ok(())
                } else {
                    Err("--libuv-ffi off".into())
                }
            });
        let preloaded = lab.subjects().iter().any(|s| s.node_preload().is_some());
        let mut ffi_version: Option<String> = None;
        let reps = sweep.run_reps(|cell| {
            let name = cell.subject.name();
            let preload = cell.subject.node_preload();
            let package = preload.as_deref().and_then(std::path::Path::parent);
            let requests = requests_of(
                cell.subject.runtime(),
                preload.is_some(),
                preloaded,
                request,
                cell.subject.sluice_policy().is_some(),
            );
            let mut rows = Vec::new();
            for (i, req) in requests.iter().enumerate() {
                let got: ChildReply = cell.call(&p.to_wire(req, package), None)?;
                if let Some(v) = &got.version {
                    ffi_version = Some(v.clone());
                }
                let request = (!req.is_empty()).then_some(*req);
                // The idle window of the first child only: one per subject.
                let mut got_rows = rows_of(name, cell.pool, &p, &got, request)
                    .with_context(|| format!("reading {name}'s result ({req})"))?;
                if i > 0 {
                    got_rows.retain(|r| !r.params.contains_key("idle_ms"));
                }
                rows.extend(got_rows);
            }
            Ok(rows)
        })?;
        let spread = spread_note(&reps, sweep.pools(), &p);
        let rows = crate::outcome::median_rows(reps);
        let mut notes = sweep.notes();
        notes.extend(self.notes(lab, &p, request, ffi_version.as_deref()));
        notes.extend(goal_note(&rows, sweep.pools(), &p));
        notes.extend(loop_goal_note(&rows, sweep.pools(), &p));
        notes.extend(spread);
        notes.extend(package_goal_note(&rows, request));
        Ok(sweep.outcome(rows, notes))
    }

    fn tables(&self, o: &Outcome) -> Vec<Table> {
        let mut tables = Vec::new();
        for pool in o.distinct("pool") {
            let at_pool = |r: &&Row| r.params.get("pool") == Some(&pool);
            let batch = o
                .rows
                .iter()
                .filter(at_pool)
                .filter_map(|r| r.params.get("in_flight"))
                .find(|v| v.as_u64() != Some(1))
                .cloned()
                .unwrap_or(json!(1000));
            // One line per subject and request, in the order they ran: the
            // rows at 1 in flight name them.
            let lines: Vec<&Row> = o
                .rows
                .iter()
                .filter(at_pool)
                .filter(|r| r.params.get("in_flight") == Some(&json!(1)))
                .collect();
            let get = |line: &Row, in_flight: &Value, m: &str| {
                o.rows
                    .iter()
                    .filter(at_pool)
                    .find(|r| {
                        r.subject == line.subject
                            && r.params.get("request") == line.params.get("request")
                            && r.params.get("in_flight") == Some(in_flight)
                    })
                    .and_then(|r| r.metrics.get(m).copied())
            };
            let one = json!(1);
            let mut header = vec![
                "subject".to_string(),
                "µs per round trip, 1 in flight".to_string(),
                format!("tasks/s, {batch} in flight"),
            ];
            // The lines the others are compared to: the reference's (node,
            // its first request: --node-request) and the bare libuv's.
            let bases: Vec<&Row> = subject::SUBJECTS
                .iter()
                .filter(|s| s.is_reference() || s.runtime() == Runtime::Libuv)
                .filter_map(|s| lines.iter().find(|l| l.subject == s.name()).copied())
                .collect();
            for b in &bases {
                header.push(format!("x {} (1 / {batch})", label(b)));
            }
            let rows = lines
                .iter()
                .map(|line| {
                    let us = get(line, &one, "us_per_task");
                    let tps = get(line, &batch, "tasks_per_s");
                    let mut row = vec![
                        label(line),
                        us.map_or("-".into(), micros),
                        tps.map_or("-".into(), rate),
                    ];
                    for b in &bases {
                        // Speed against the base: >1x means faster than it.
                        row.push(format!(
                            "{} / {}",
                            ratio(get(b, &one, "us_per_task"), us),
                            ratio(tps, get(b, &batch, "tasks_per_s"))
                        ));
                    }
                    row
                })
                .collect();
            tables.push(Table {
                title: format!(
                    "dispatch, pool {}: round trip of a trivial task, submitted and awaited on the event loop",
                    text(&pool)
                ),
                header,
                rows,
                note: "x base: how many times faster than the base (1 in flight / batch); >1x is faster; node's rows (in brackets: the request) are JS calls that reach a pool"
                    .into(),
            });

            tables.extend(idle_table(o, &pool));
        }
        tables
    }

    fn chart(&self, o: &Outcome) -> Option<Chart> {
        let series = series_of(&o.rows, |r| {
            let n = r.params.get("in_flight").and_then(Value::as_f64)?;
            let point = Point::pool(o, r, (n, r.metrics.get("tasks_per_s")? / 1e6));
            // node's requests each a line of their own.
            Some(Point {
                series: format!("{} pool {}", label(r), r.param_text("pool")),
                ..point
            })
        });
        Some(Chart {
            title: "dispatch: trivial tasks per second by tasks in flight".into(),
            x_label: "tasks in flight".into(),
            y_label: "million tasks/s".into(),
            series,
        })
    }
}

impl Dispatch {
    fn notes(
        &self,
        lab: &Lab,
        p: &Params,
        request: &str,
        ffi_version: Option<&str>,
    ) -> Vec<String> {
        let mut notes = vec![
            format!(
                "shapes: {} round trips one after another (µs per round trip = wall / {}), and {} tasks submitted at once then all awaited (tasks/s); per child and shape, untimed warm-up batches: {}, then the median of {} timed ones",
                p.rounds, p.rounds, p.batch, p.warmup, p.batches
            ),
            format!(
                "Rust subjects: the task is a plain function on the {} lane, handed over with the subject's own typed call (Pool::spawn; tokio: spawn_blocking) from the child's event loop (a tokio current-thread runtime), its handle awaited there: no boxed job or future per task, as libuv-ffi's requests are allocated up front; a round trip includes waking that loop, as node's and libuv's include waking theirs. A sluice pool runs a second child ({BATCH_REQUEST}): each wave (1 task, or the whole batch) handed over in one Pool::spawn_batch call, which queues its tasks 32 at a time with one wake-up each, the burst API libuv has no counterpart of",
                p.lane
            ),
            format!(
                "the Rust children's loop runs sluice's park hook, sluice::loop_spin::before_park({} µs), as the crate's docs tell a loop that awaits sluice tasks to: when the loop has nothing else to do and the task it awaits is its lane's only queued one, the loop spins for that task's wake-up instead of sleeping in epoll_wait, and spins that run out the budget back off. It watches sluice tasks only, so the other Rust subjects run unchanged. A sluice pool's third child ({PLAIN_LOOP_REQUEST}) times Pool::spawn on a loop without it",
                LOOP_SPIN.as_micros()
            ),
        ];
        notes.push(format!(
            "throughput: each timed batch runs waves of {} back to back until they took at least {} ms, so that it spans more than one of the moments in which a virtual machine's cores run slower or faster (docs/lab.md: the machine's two speeds)",
            p.batch, p.batch_ms
        ));
        if lab.reps() == 1 {
            notes.push("one child per subject and request, one after another: --reps N runs them all in turn N times and keeps each row's median, so that every subject meets the machine's slow and fast moments alike".into());
        }
        for s in lab.subjects() {
            if s.node_preload().is_some() {
                notes.push(format!(
                    "{0}: two children. ({1}): each task is {2} with its plain callback, the cheapest call the sluice preload reroutes (fs.access and fs.fstat are not rerouted): a stat(2) on sluice's FastIo lane through the addon, the callback called from the loop when the outcome arrives, as node calls its own; node times the same call beside it. ({3}): each task is the package's trivial task, `sluice.ping(cb)` (an empty task on the FastIo lane) with its plain callback, no promise, like node's rows: the pool's own round trip from JS, what node cannot issue (its nearest is --node-request's call)",
                    s.name(),
                    PRELOAD_REQUEST,
                    node_request_text(PRELOAD_REQUEST),
                    PING_REQUEST,
                ));
            }
        }
        if lab.subjects().iter().any(|s| s.runtime() == Runtime::Node) {
            notes.push(format!(
                "node: uv_queue_work is not reachable from JS; each task is {} with its plain callback (no promise). It goes through libuv's one queue like uv_queue_work, and its time also includes the JS binding, the system call and the JS callback. fs.access of \"/\" is the default as the request with the least work around the pool (one system call on the shortest path, no object built for its callback); --node-request fs.fstat or crypto.randomFill times the others",
                node_request_text(request)
            ));
        }
        if lab.subjects().iter().any(|s| s.runtime() == Runtime::Go) {
            notes.push("go: no pool to dispatch to; a round trip is a goroutine started with `go` that sends on a channel the caller receives from (1 in flight), or the batch's goroutines started at once then every answer received (a buffered channel); GOMAXPROCS = the pool size; its idle window leaves out the process's first thread, as node's leaves out its loop thread".into());
        }
        if let Some(v) = ffi_version {
            let ffi = subject::SUBJECTS
                .iter()
                .find(|s| s.runtime() == Runtime::Libuv)
                .map_or("libuv", |s| s.name());
            notes.push(format!(
                "{ffi}: the system libuv {v} ({}), loaded with dlopen; an empty work_cb through uv_queue_work on a uv_loop_t run by the child's main thread, the after_work_cb resubmitting the request (1 in flight) or counting the batch down; no JS",
                std::env::var(ENV)
                    .ok()
                    .filter(|v| !v.is_empty())
                    .map_or_else(|| format!("{SONAME}; {ENV} may name another"), |p| format!("{ENV}={p}"))
            ));
        }
        notes.push(format!(
            "idle: each child, {SETTLE_MS} ms after its last task, sleeps on its event loop's thread for the window and reads its own /proc/self/stat (utime + stime of the whole process, in {} ms ticks) at both ends, and each other thread's schedstat and context switches just outside them (so the reading is not counted); the pool's threads are alive throughout",
            1000 / procfs::clock_ticks_per_second().max(1)
        ));
        notes
    }
}

fn node_request_text(request: &str) -> &'static str {
    match request {
        "fs.fstat" => "fs.fstat(0, cb) (fstat(2) of the child's stdin)",
        "fs.stat" => "fs.stat(\"/\", cb) (stat(2) of \"/\", a Stats object for its callback)",
        "crypto.randomFill" => {
            "crypto.randomFill(1-byte buffer, cb) (a CryptoJob through uv_queue_work)"
        }
        _ => "fs.access(\"/\", cb)",
    }
}

/// The trivial task.
fn trivial() {
    std::hint::black_box(42u64);
}

/// Runs `warmup` untimed then `batches` timed batches of each shape:
/// `one(rounds)` returns a batch's wall time, `wave()` one wave's of
/// `batch` tasks, run again until the batch's waves took `batch_ms`.
/// Returns the timed walls in ns, and each throughput batch's tasks.
fn series(
    p: &Params,
    mut one: impl FnMut(u64) -> anyhow::Result<Duration>,
    mut wave: impl FnMut() -> anyhow::Result<Duration>,
) -> anyhow::Result<(Vec<f64>, Vec<f64>, Vec<f64>)> {
    let ns = |d: Duration| d.as_nanos() as f64;
    for _ in 0..p.warmup {
        one(p.rounds)?;
    }
    let one_walls = (0..p.batches)
        .map(|_| one(p.rounds).map(ns))
        .collect::<anyhow::Result<_>>()?;
    let mut batch = || waves_for(Duration::from_millis(p.batch_ms), &mut wave);
    for _ in 0..p.warmup {
        batch()?;
    }
    let (mut walls, mut tasks) = (Vec::new(), Vec::new());
    for _ in 0..p.batches {
        let (wall, waves) = batch()?;
        walls.push(ns(wall));
        tasks.push((waves * p.batch) as f64);
    }
    Ok((one_walls, walls, tasks))
}

/// Runs `wave` until the walls it returns add up to `least` (at least
/// once): their sum and how many waves ran.
fn waves_for(
    least: Duration,
    mut wave: impl FnMut() -> anyhow::Result<Duration>,
) -> anyhow::Result<(Duration, u64)> {
    let (mut wall, mut waves) = (Duration::ZERO, 0);
    while waves == 0 || wall < least {
        wall += wave()?;
        waves += 1;
    }
    Ok((wall, waves))
}

/// Sleeps `SETTLE_MS`, then measures this process's CPU use over `idle_ms`.
fn idle_window(p: &Params) -> anyhow::Result<IdleWindow> {
    std::thread::sleep(Duration::from_millis(SETTLE_MS));
    let used = procfs::idle_cpu(Duration::from_millis(p.idle_ms)).context("reading /proc/self")?;
    Ok(IdleWindow {
        window_ns: used.window.as_nanos() as f64,
        ticks: used.ticks as f64,
        thread_ns: used.others_ns as f64,
        switches: used.others_wakeups as f64,
        threads: used.threads as f64,
    })
}

/// The `libuv-ffi` child: the system libuv, or why it is absent.
fn ffi_child(params: &ChildParams) -> anyhow::Result<ChildReply> {
    let uv = SystemLibuv::load().map_err(anyhow::Error::msg)?;
    let p = Params::from_wire(params)?;
    let run = |in_flight: u64, total: u64| -> anyhow::Result<Duration> {
        let b = uv
            .queue_work(in_flight as usize, total as usize)
            .map_err(anyhow::Error::msg)?;
        if b.completed != total as usize {
            bail!("libuv ran {} of {total} tasks", b.completed);
        }
        Ok(b.wall)
    };
    let (one, batch, tasks) = series(&p, |n| run(1, n), || run(p.batch, p.batch))?;
    Ok(ChildReply {
        version: Some(uv.version().to_string()),
        one_wall_ns: one,
        batch_wall_ns: batch,
        batch_tasks: tasks,
        idle: idle_window(&p)?,
        request: None,
    })
}

/// The requests a subject's children time, one child each: node+sluice the
/// call its preload reroutes and the package's trivial task; node its
/// `--node-request`, and the rerouted call too when node+sluice runs beside
/// it; a sluice pool its trivial task one `Pool::spawn` at a time (the
/// empty string), in batches (`BATCH_REQUEST`), and one at a time on a loop
/// without the park hook (`PLAIN_LOOP_REQUEST`); every other subject its
/// own trivial task.
fn requests_of(
    runtime: Runtime,
    has_preload: bool,
    preload_in_lab: bool,
    node_request: &str,
    sluice_pool: bool,
) -> Vec<&str> {
    match runtime {
        Runtime::Node if has_preload => vec![PRELOAD_REQUEST, PING_REQUEST],
        Runtime::Node if preload_in_lab && node_request != PRELOAD_REQUEST => {
            vec![node_request, PRELOAD_REQUEST]
        }
        Runtime::Node => vec![node_request],
        Runtime::Rust if sluice_pool => vec!["", BATCH_REQUEST, PLAIN_LOOP_REQUEST],
        _ => vec![""],
    }
}

/// Turns a child's result into its three rows: 1 in flight, the batch, idle;
/// each with the `request` param where one is given (node's children).
fn rows_of(
    subject: &str,
    pool: PoolSize,
    p: &Params,
    got: &ChildReply,
    request: Option<&str>,
) -> anyhow::Result<Vec<Row>> {
    let walls = |k: &str, v: &[f64]| -> anyhow::Result<Vec<f64>> {
        let v = v.to_vec();
        if v.is_empty() || v.iter().any(|w| !(w.is_finite() && *w > 0.0)) {
            bail!("{k}: expected positive wall times, got {v:?}");
        }
        Ok(v)
    };
    // Each wall with the tasks it timed.
    let shape = |in_flight: u64, timed: Vec<(f64, f64)>| {
        let us = median(timed.iter().map(|(w, n)| w / n / 1e3).collect());
        let tps = median(timed.iter().map(|(w, n)| n * 1e9 / w).collect());
        Row::new(subject)
            .param("pool", pool.to_value())
            .param("in_flight", in_flight)
            .metric("us_per_task", us)
            .metric("tasks_per_s", tps)
    };
    let idle = &got.idle;
    let tick_ms = 1e3 / procfs::clock_ticks_per_second().max(1) as f64;
    let one = walls("one_wall_ns", &got.one_wall_ns)?;
    let batch = walls("batch_wall_ns", &got.batch_wall_ns)?;
    let tasks = &got.batch_tasks;
    if tasks.len() != batch.len() || tasks.iter().any(|&n| n.is_nan() || n < p.batch as f64) {
        bail!(
            "batch_tasks: expected a count of at least {} for each of the {} batches, got {tasks:?}",
            p.batch,
            batch.len()
        );
    }
    let rows = vec![
        shape(1, one.into_iter().map(|w| (w, p.rounds as f64)).collect()),
        shape(
            p.batch,
            batch.into_iter().zip(tasks.iter().copied()).collect(),
        ),
        Row::new(subject)
            .param("pool", pool.to_value())
            .param("idle_ms", p.idle_ms)
            .metric("idle_cpu_ms", idle.ticks * tick_ms)
            .metric("idle_thread_cpu_ms", idle.thread_ns / 1e6)
            .metric("idle_wakeups", idle.switches)
            .metric("threads", idle.threads),
    ];
    Ok(match request {
        Some(r) => rows
            .into_iter()
            .map(|row| row.param("request", r))
            .collect(),
        None => rows,
    })
}

/// A row's label in the tables: the subject, and node's request beside it.
fn label(r: &Row) -> String {
    match r.params.get("request").and_then(Value::as_str) {
        Some(req) => format!("{} ({req})", r.subject),
        None => r.subject.clone(),
    }
}

fn text(v: &Value) -> String {
    v.as_str().map_or_else(|| v.to_string(), str::to_string)
}

/// µs for a cell: `0.84`, `12.3`, `140`.
fn micros(v: f64) -> String {
    crate::report::ms(v)
}

/// Tasks/s for a cell: `812 k`, `2.05 M`.
fn rate(v: f64) -> String {
    if !v.is_finite() {
        "-".into()
    } else if v >= 1e6 {
        format!("{:.2} M", v / 1e6)
    } else if v >= 1e3 {
        format!("{:.0} k", v / 1e3)
    } else {
        format!("{v:.0}")
    }
}

/// One round-trip row of `dispatch`'s result, typed (the fields of its
/// `--json` rows): tasks of one request kind at one depth.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct TripRow {
    /// Whose row: the subject and the pool size.
    #[serde(flatten)]
    pub key: crate::outcome::RowKey,
    /// Tasks in flight at once.
    pub in_flight: u64,
    /// The request (`fs.access`, `sluice.ping`, ...), where the subject
    /// has several.
    pub request: Option<String>,
    /// One task's round trip, µs.
    pub us_per_task: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn node_times_the_rerouted_call_beside_node_sluice() {
        assert_eq!(
            requests_of(Runtime::Node, true, true, "fs.access", false),
            ["fs.stat", "sluice.ping"]
        );
        assert_eq!(
            requests_of(Runtime::Node, false, true, "fs.access", false),
            ["fs.access", "fs.stat"]
        );
        assert_eq!(
            requests_of(Runtime::Node, false, true, "fs.stat", false),
            ["fs.stat"]
        );
        assert_eq!(
            requests_of(Runtime::Node, false, false, "fs.access", false),
            ["fs.access"]
        );
        assert_eq!(
            requests_of(Runtime::Rust, false, true, "fs.access", false),
            [""]
        );
        assert_eq!(
            requests_of(Runtime::Rust, false, false, "fs.access", true),
            ["", "Pool::spawn_batch", "loop without loop_spin"]
        );
    }

    #[test]
    fn a_throughput_batch_runs_whole_waves_until_their_walls_reach_its_time() {
        let ms = Duration::from_millis;
        let mut calls = 0;
        let got = waves_for(ms(10), || {
            calls += 1;
            Ok(ms(3))
        })
        .unwrap();
        assert_eq!((got, calls), ((ms(12), 4), 4));
        // A wave longer than the time: one wave, never none.
        assert_eq!(waves_for(ms(1), || Ok(ms(20))).unwrap(), (ms(20), 1));
        // A failing wave ends it.
        assert!(waves_for(ms(10), || anyhow::bail!("no pool")).is_err());
    }

    #[test]
    fn rates_and_rows_are_computed_from_the_walls() {
        assert_eq!(rate(2_050_000.0), "2.05 M");
        assert_eq!(rate(812_300.0), "812 k");
        let p = Params {
            lane: Lane::Cpu,
            rounds: 100,
            batch: 10,
            batch_ms: 1,
            batches: 3,
            warmup: 0,
            idle_ms: 50,
        };
        let got: ChildReply = serde_json::from_value(json!({
            "one_wall_ns": [2000e3, 1000e3, 3000e3],
            "batch_wall_ns": [10e3, 20e3, 5e3],
            "batch_tasks": [10, 40, 10],
            "idle": {"window_ns": 5e7, "ticks": 0, "thread_ns": 2e6, "switches": 3, "threads": 5},
        }))
        .unwrap();
        let rows = rows_of("sluice", PoolSize::Unset, &p, &got, None).unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(rows[0].metrics["us_per_task"], 20.0);
        assert_eq!(rows[0].metrics["tasks_per_s"], 50_000.0);
        assert_eq!(rows[1].params["in_flight"], json!(10));
        // 1, 2 and 2 M tasks/s: the second batch ran four waves.
        assert_eq!(rows[1].metrics["tasks_per_s"], 2e6);
        assert_eq!(rows[2].metrics["idle_thread_cpu_ms"], 2.0);
        assert_eq!(rows[2].metrics["idle_wakeups"], 3.0);
        let bad = ChildReply {
            one_wall_ns: Vec::new(),
            ..got.clone()
        };
        assert!(rows_of("sluice", PoolSize::Unset, &p, &bad, None).is_err());
        let node = rows_of("node", PoolSize::Unset, &p, &got, Some("fs.stat")).unwrap();
        assert!(node.iter().all(|r| r.params["request"] == json!("fs.stat")));
        assert_eq!(label(&node[0]), "node (fs.stat)");
        assert_eq!(label(&rows[0]), "sluice");
        let short = ChildReply {
            batch_tasks: vec![10.0, 5.0, 10.0],
            ..got.clone()
        };
        assert!(rows_of("sluice", PoolSize::Unset, &p, &short, None).is_err());
        let no_idle =
            json!({"one_wall_ns": [1.0], "batch_wall_ns": [1.0], "batch_tasks": [10], "idle": {}});
        assert!(serde_json::from_value::<ChildReply>(no_idle).is_err());
    }

    /// The params of the judged notes' tests: a batch of 1000.
    fn judged_params() -> Params {
        Params {
            lane: Lane::Cpu,
            rounds: 100,
            batch: 1000,
            batch_ms: 1,
            batches: 3,
            warmup: 0,
            idle_ms: 50,
        }
    }

    /// A row of `subject` at pool unset with one metric, and `request`'s
    /// param where given.
    fn row(subject: &str, request: Option<&str>, in_flight: u64, m: &str, x: f64) -> Row {
        let r = Row::new(subject)
            .param("pool", "unset")
            .param("in_flight", in_flight)
            .metric(m, x);
        match request {
            Some(req) => r.param("request", req),
            None => r,
        }
    }

    #[test]
    fn the_loop_goals_are_judged_against_libuv_ffi() {
        let p = judged_params();
        let rows = |us: f64, tps: f64| {
            vec![
                row("sluice", None, 1, "us_per_task", us),
                row("sluice", None, 1000, "tasks_per_s", tps),
                row("sluice", Some(BATCH_REQUEST), 1000, "tasks_per_s", 6e6),
                row("sluice", Some(PLAIN_LOOP_REQUEST), 1, "us_per_task", 15.0),
                row("libuv-ffi", None, 1, "us_per_task", 24.0),
                row("libuv-ffi", None, 1000, "tasks_per_s", 4e6),
            ]
        };
        let pools = [PoolSize::Unset];
        let note = loop_goal_note(&rows(3.0, 2e6), &pools, &p).unwrap();
        assert_eq!(
            note,
            format!(
                "goal sluice through the loop against libuv-ffi: 1 in flight 3.0 µs against 24.0 µs, 8.00x ({PLAIN_LOOP_REQUEST}: 1.60x) (>= 4x: met); 1000 in flight 2.00 M against 4.00 M, 0.50x ({BATCH_REQUEST}: 1.50x) (>= 2x: NOT met)"
            )
        );
        // The bounds: exactly 4x and exactly 2x are met; just short is not.
        let note = loop_goal_note(&rows(6.0, 8e6), &pools, &p).unwrap();
        assert!(
            note.contains("(>= 4x: met)") && note.ends_with("(>= 2x: met)"),
            "{note}"
        );
        let note = loop_goal_note(&rows(6.1, 7.9e6), &pools, &p).unwrap();
        assert!(
            note.contains("(>= 4x: NOT met)") && note.ends_with("(>= 2x: NOT met)"),
            "{note}"
        );
        // Without libuv-ffi's rows (--libuv-ffi off, or no libuv.so.1): none.
        assert!(loop_goal_note(&rows(3.0, 2e6)[..4], &pools, &p).is_none());
    }

    #[test]
    fn the_repetitions_spread_is_judged_against_libuv_ffi() {
        let p = judged_params();
        let row = |subject: &str, request: Option<&str>, in_flight: u64, tps: f64| {
            row(subject, request, in_flight, "tasks_per_s", tps)
        };
        // sluice 2-3 M (1.5x), its batch 3-3.3 M, libuv-ffi 4-5 M (1.25x);
        // the 1-in-flight rows are not counted.
        let rep = |s: f64, b: f64, f: f64| {
            vec![
                row("sluice", None, 1, 1.0),
                row("sluice", None, 1000, s),
                row("sluice", Some(BATCH_REQUEST), 1000, b),
                row("libuv-ffi", None, 1000, f),
            ]
        };
        let pools = [PoolSize::Unset];
        let reps = vec![
            rep(2e6, 3e6, 4e6),
            rep(3e6, 3.3e6, 5e6),
            rep(2.5e6, 3.1e6, 4.5e6),
        ];
        let note = spread_note(&reps, &pools, &p).unwrap();
        assert!(note.contains("over the 3 repetitions"), "{note}");
        assert!(note.contains("sluice 1.50x (2.00 M to 3.00 M)"), "{note}");
        assert!(
            note.contains(&format!(
                "sluice ({BATCH_REQUEST}) 1.10x (3.00 M to 3.30 M)"
            )),
            "{note}"
        );
        assert!(
            note.contains("libuv-ffi 1.25x (4.00 M to 5.00 M)"),
            "{note}"
        );
        assert!(note.ends_with("NOT met"), "{note}");
        // Narrower than libuv-ffi's: met.
        let reps = vec![rep(2.9e6, 3e6, 4e6), rep(3e6, 3e6, 5e6)];
        assert!(spread_note(&reps, &pools, &p).unwrap().ends_with(": met"));
        // One repetition has no spread.
        assert!(spread_note(&reps[..1], &pools, &p).is_none());
        // Without libuv-ffi: the spreads, no judgement.
        let reps: Vec<Vec<Row>> = reps.iter().map(|r| r[..3].to_vec()).collect();
        let note = spread_note(&reps, &pools, &p).unwrap();
        assert!(!note.contains("goal"), "{note}");
    }
}
