//! `scope`: the lab check of `sluice scope`. Node workloads with known
//! truth run one at a time; scope watches each from outside, as it would
//! watch any Node process, and the table sets what it reports against the
//! truth.
//!
//! Workloads, at each pool size P of `--pools` (default 1, 4, 16):
//! - `idle`: the pool started (one `fs.stat`), then nothing. Truth: P
//!   threads found, none busy, healthy.
//! - `cpu-full`: P pbkdf2 in a loop (each callback submits the next).
//!   Truth: P busy except the loop's resubmission gaps; pool saturated.
//! - `cpu-4x`: 4P pbkdf2 in a loop (at P = 4: the seeds' 16). Truth: P busy,
//!   3P queued; pool saturated.
//! - `read-2x`: 2P one-byte reads of a FIFO nobody writes. Truth: P busy,
//!   blocked in `read` with no CPU, P queued; pool saturated.
//! - `dns-32`: 32 `dns.lookup` of distinct names (`{family: 4}`), each held
//!   by the lab's DNS delay server; node runs inside a private network and
//!   mount namespace whose `/etc/resolv.conf` names that server
//!   ([`sluice_testnet::netns`]; the machine's own is never touched). Truth: libuv
//!   lets slow I/O hold at most `(P + 1) / 2` threads, so `ceil(P / 2)` busy
//!   in `getaddrinfo` (blocked in socket calls), `32 - ceil(P / 2)` queued at
//!   the start and draining, the other threads idle; slow I/O throttled
//!   (pool saturated at P = 1, where the limit is the whole pool). The
//!   server's hold ([`dns_hold`]) keeps lookups queued through the whole
//!   window at every pool size, and the server counts the names it held at
//!   once: the resolver's side of the same truth.
//! - `loop-blocker`: the loop thread spins (synchronous CPU); the pool is
//!   started and idle. Truth: loop 100 %, pool idle; loop blocked.
//!
//! - loop blockers (`json-parse`, `pbkdf2-sync`, `regex-backtrack`,
//!   `tight-loop`): seed 003's synchronous work in named functions, for
//!   `sluice scope --profile` to name; see `scope/blockers.rs`. Truth: the
//!   function and its line, loop blocked. They run once, at the first pool
//!   size, with a table of their own.
//!
//! Protocol: the script starts the pool and prints `ready` with its PID;
//! the lab attaches scope to that PID (discovery happens on an idle pool),
//! sends SIGUSR2 to start the load, waits `RAMP`, watches one
//! `--window` window, and sends SIGUSR2 again to stop; the script prints
//! what it ran and exits.
//!
//! Only the node subject has a libuv pool to watch: the experiment runs
//! node alone and says so.
//!
//! Node builds: `--node PATH` given again and again runs every workload on
//! each build in turn (this machine's node, a distribution's with its
//! shared libuv, nodejs.org's builds of other lines: `scripts/fetch-nodes`
//! fetches them), one table with a `node` column (version and libuv), so
//! each verdict is checked on every build, or says `unknown` with the
//! reason where scope cannot find a build's pool.

mod blockers;
mod table;

use table::{and_list, cells, notes};

use super::{ArgSpec, Args, Experiment, ExperimentSpec, Kind, repeat};
use crate::PoolSize;
use crate::PoolSize::Size;
use crate::child::Watch;
use crate::lab::Lab;
use crate::outcome::{Outcome, Row};
use crate::report::{Chart, Table};
use crate::subject::{Need, SUBJECTS, SubjectSpec};
use crate::sweep::Sweep;
use crate::workload;
use anyhow::{Context, bail};
use blockers::fixed;
use serde_json::{Value, json};
use sluice_scope::{Options, Report, Session, Verdict};
use std::thread::JoinHandle;
use std::time::Duration;

/// The declaration of `scope`.
pub(super) static SPEC: ExperimentSpec = ExperimentSpec::new("scope", &Scope)
    .seed("seed 002 (sluice scope)")
    .flags(ARGS)
    .pools(&[Size(1), Size(4), Size(16)])
    .report_pools(&[Size(1), Size(4)])
    .short_pools(&[Size(4)])
    .short(&[
        (
            "workloads",
            "idle,cpu-full,loop-blocker,json-parse,pbkdf2-sync,regex-backtrack,tight-loop",
        ),
        ("profile", "1s"),
    ])
    .needs(&[Need::Attach]);

/// The scope experiment.
pub(crate) struct Scope;

const WORKLOADS: &[&str] = &[
    "idle",
    "cpu-full",
    "cpu-4x",
    "read-2x",
    "dns-32",
    "loop-blocker",
    "json-parse",
    "pbkdf2-sync",
    "regex-backtrack",
    "tight-loop",
];

/// From the start signal to the window: the load reaches its steady state.
const RAMP: Duration = Duration::from_millis(200);

/// How many `dns.lookup` the `dns-32` workload fires.
const LOOKUPS: u64 = 32;

/// The names `dns-32` looks up: `s0.` to `s31.` under this.
const NAME_SUFFIX: &str = "scope.sluice.test";

/// How long `dns-32`'s queue outlasts the watched span: room for the start
/// signal's delivery and the resolver's first load on a busy machine.
const DNS_MARGIN: Duration = Duration::from_millis(300);

/// libuv's slow-I/O limit at pool size `pool`, `(P + 1) / 2`: the core's
/// [`slow_work_thread_threshold`](sluice::compat::slow_work_thread_threshold).
fn slow_io_limit(pool: u64) -> u64 {
    let pool = usize::try_from(pool).unwrap_or(usize::MAX);
    u64::try_from(sluice::compat::slow_work_thread_threshold(pool)).unwrap_or(u64::MAX)
}

/// How long the delay server holds each of `dns-32`'s lookups at pool
/// `pool`, so that lookups still wait when the window ends (`watched`:
/// from the start signal to the window's end).
///
/// libuv runs at most `ceil(P / 2)` lookups at once, so the 32 run in
/// `rounds = ceil(32 / ceil(P / 2))` holds and the queue empties when the
/// last round starts, `rounds - 1` holds in. The hold puts that moment
/// [`DNS_MARGIN`] after the window; the child then finishes within about
/// one hold and the margin of the stop signal. With `ceil(P / 2) >= 32`
/// nothing queues: every lookup is held through the span.
fn dns_hold(pool: u64, watched: Duration) -> Duration {
    let at_once = LOOKUPS.min(slow_io_limit(pool)).max(1);
    let rounds = LOOKUPS.div_ceil(at_once);
    let span = (watched + DNS_MARGIN).as_millis() as u64;
    Duration::from_millis(span.div_ceil(rounds.saturating_sub(1).max(1)))
}

const ARGS: &[ArgSpec] = &[
    ArgSpec {
        name: "workloads",
        value_name: "LIST",
        help: "workloads: idle, cpu-full, cpu-4x, read-2x, dns-32 (needs network namespaces), loop-blocker; and the loop blockers sluice scope --profile names: json-parse, pbkdf2-sync, regex-backtrack, tight-loop",
        default: "idle,cpu-full,cpu-4x,read-2x,dns-32,loop-blocker,json-parse,pbkdf2-sync,regex-backtrack,tight-loop",
        report: "idle,cpu-full,cpu-4x,read-2x,dns-32,loop-blocker,json-parse,pbkdf2-sync,regex-backtrack,tight-loop",
        kind: Kind::Choices(WORKLOADS),
    },
    ArgSpec {
        name: "profile",
        value_name: "DURATION",
        help: "loop blockers: how long scope profiles, and each phase before and after",
        default: "2s",
        report: "1500ms",
        kind: Kind::millis(200, 60_000, "profile-ms"),
    },
    ArgSpec {
        name: "every",
        value_name: "DURATION",
        help: "loop blockers: the period of the blocking call's timer",
        default: "50ms",
        report: "50ms",
        kind: Kind::millis(1, 10_000, "every-ms"),
    },
    ArgSpec {
        name: "block",
        value_name: "DURATION",
        help: "loop blockers: size each blocking call to about this long",
        default: "150ms",
        report: "150ms",
        kind: Kind::millis(1, 10_000, "block-ms"),
    },
    ArgSpec {
        name: "window",
        value_name: "DURATION",
        help: "how long scope watches each workload (one window)",
        default: "1s",
        report: "500ms",
        kind: Kind::millis(50, 60_000, "window-ms"),
    },
    ArgSpec {
        name: "rate",
        value_name: "HZ",
        help: "scope's sampling rate",
        default: "200",
        report: "200",
        kind: Kind::Number {
            min: 1,
            max: sluice_scope::sample::session::MAX_RATE_HZ as u64,
        },
    },
    ArgSpec {
        name: "cpu",
        value_name: "DURATION",
        help: "calibrate each pbkdf2 task to about this long",
        default: "20ms",
        report: "20ms",
        kind: Kind::millis(1, 10_000, "cpu-ms"),
    },
];

/// What each workload should show: busy threads, queued requests (for
/// `dns-32`: at the start, draining), verdict.
fn truth(workload: &str, pool: u64) -> (u64, u64, Verdict) {
    match workload {
        "cpu-full" => (pool, 0, Verdict::PoolSaturated),
        "cpu-4x" => (pool, 3 * pool, Verdict::PoolSaturated),
        "read-2x" => (pool, pool, Verdict::PoolSaturated),
        "dns-32" => {
            let busy = LOOKUPS.min(slow_io_limit(pool));
            let queued = LOOKUPS - busy;
            let verdict = if busy == pool {
                // P = 1: the limit is the whole pool.
                Verdict::PoolSaturated
            } else if queued > 0 {
                Verdict::SlowIoThrottled
            } else {
                Verdict::Healthy
            };
            (busy, queued, verdict)
        }
        "loop-blocker" => (0, 0, Verdict::LoopBlocked),
        _ => (0, 0, Verdict::Healthy),
    }
}

/// The metric that is 1 when scope's verdict was `v`:
/// `verdict_pool_saturated` and so on.
fn verdict_metric(v: Verdict) -> String {
    format!("verdict_{}", v.as_str().replace(['-', '+'], "_"))
}

/// Attaches scope when the script is ready, drives the load with signals,
/// and keeps the window's report.
struct ScopeWatch {
    window: Duration,
    options: Options,
    thread: Option<JoinHandle<anyhow::Result<(Report, String)>>>,
}

impl Watch for ScopeWatch {
    fn tick(&mut self, _child: u32, lines: &[String]) -> anyhow::Result<()> {
        if self.thread.is_none()
            && let Some(ready) = lines.iter().find(|l| l.contains("\"event\":\"ready\""))
        {
            // node's own PID: under `sluice lab-netns` the lab's child is
            // node's parent.
            let pid = serde_json::from_str::<Value>(ready)
                .ok()
                .and_then(|v| v["pid"].as_u64())
                .and_then(|p| u32::try_from(p).ok())
                .with_context(|| format!("scope.js's ready line has no pid: {ready}"))?;
            let (window, options) = (self.window, self.options);
            self.thread = Some(drive(pid, move || {
                let mut s = Session::attach(pid, options)?;
                let found = s.status().summary();
                next_phase(pid, "start")?;
                std::thread::sleep(RAMP);
                let r = s.window(window, &mut || false)?;
                next_phase(pid, "stop")?;
                Ok((r, found))
            }));
        }
        std::thread::sleep(Duration::from_millis(2));
        Ok(())
    }
}

/// Sends node `pid` SIGUSR2: the script's next phase (`what`, for the
/// error).
pub(super) fn next_phase(pid: u32, what: &str) -> anyhow::Result<()> {
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(pid as i32),
        nix::sys::signal::Signal::SIGUSR2,
    )
    .with_context(|| format!("signalling node {pid} to {what}"))
}

/// Runs `watch` (scope attached to node `pid`, driving its phases) on a
/// thread of its own; if it fails, node is killed rather than left waiting
/// for a signal that never comes.
pub(super) fn drive<T: Send + 'static>(
    pid: u32,
    watch: impl FnOnce() -> anyhow::Result<T> + Send + 'static,
) -> JoinHandle<anyhow::Result<T>> {
    std::thread::spawn(move || {
        let seen = watch();
        if seen.is_err() {
            let _ = nix::sys::signal::kill(
                nix::unistd::Pid::from_raw(pid as i32),
                nix::sys::signal::Signal::SIGKILL,
            );
        }
        seen
    })
}

/// What a watch's thread saw, once the child has exited; `missing` is the
/// error when the watch never started (node never got ready).
pub(super) fn seen<T>(
    thread: Option<JoinHandle<anyhow::Result<T>>>,
    missing: &str,
) -> anyhow::Result<T> {
    match thread {
        Some(t) => t
            .join()
            .map_err(|_| anyhow::anyhow!("the scope thread panicked"))?,
        None => Err(anyhow::anyhow!("{missing}")),
    }
}

impl Experiment for Scope {
    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome> {
        let (rows, notes) = run_node_builds(lab, args)?;
        Ok(lab.record().outcome(SPEC.name, rows, notes))
    }

    fn tables(&self, o: &Outcome) -> Vec<Table> {
        let rows: Vec<Vec<String>> = o
            .rows
            .iter()
            .filter(|r| !blockers::is_blocker(&r.param_text("workload")))
            .map(cells)
            .collect();
        let mut tables = Vec::new();
        if !rows.is_empty() {
            tables.push(Table {
                title: "scope: what `sluice scope` reports against each workload's truth, per node build".into(),
                header: [
                    "node",
                    "workload",
                    "pool",
                    "truth",
                    "pool found",
                    "busy",
                    "saturation %",
                    "loop util %",
                    "queue",
                    "slow I/O run / queued",
                    "verdict",
                    "verdict ok",
                    "scope CPU %",
                ]
                .map(String::from)
                .to_vec(),
                rows,
                note: String::new(),
            });
        }
        tables.extend(blockers::table(o));
        tables
    }

    fn chart(&self, _o: &Outcome) -> Option<Chart> {
        None
    }
}

/// What the flags ask of every node build, read once.
struct Plan {
    /// The pool workloads, watched one window each.
    workloads: Vec<&'static str>,
    /// The loop blockers, profiled once each at the first pool size.
    blockers: Vec<&'static str>,
    /// Workloads this machine cannot run, and why.
    skip_notes: Vec<String>,
    window: Duration,
    rate: u32,
    cpu_ms: u64,
    pools: Vec<u64>,
    /// pbkdf2 iterations of one task (~`cpu_ms`), 0 if no cpu workload.
    iterations: u32,
    options: Options,
}

impl Plan {
    fn new(lab: &Lab, args: &Args) -> anyhow::Result<Plan> {
        let (blockers, mut workloads): (Vec<&str>, Vec<&str>) = args
            .choices("workloads")?
            .into_iter()
            .partition(|w| blockers::is_blocker(w));
        let mut skip_notes = Vec::new();
        if workloads.contains(&"dns-32")
            && let Err(why) = sluice_testnet::netns::available(lab.runner().exe())
        {
            let note = format!(
                "dns-32 skipped: its lookups are held by the DNS delay server inside a private network namespace, and {why}"
            );
            workloads.retain(|w| *w != "dns-32");
            if workloads.is_empty() && blockers.is_empty() {
                bail!("{note}");
            }
            skip_notes.push(note);
        }
        let rate = args.number("rate")? as u32;
        let cpu_ms = args.millis("cpu")?;
        let pools = lab
            .pools_for(&SPEC)
            .iter()
            .map(|p| match p {
                PoolSize::Size(n) => Ok(*n as u64),
                PoolSize::Unset => bail!(
                    "scope: --pools needs sizes (the truth depends on them); \"unset\" is libuv's 4"
                ),
            })
            .collect::<anyhow::Result<_>>()?;
        let iterations = if workloads.iter().any(|w| w.starts_with("cpu-")) {
            workload::calibrate_pbkdf2(Duration::from_millis(cpu_ms))
        } else {
            0
        };
        Ok(Plan {
            window: args.duration("window")?,
            workloads,
            blockers,
            skip_notes,
            rate,
            cpu_ms,
            pools,
            iterations,
            options: Options {
                rate_hz: rate,
                ..Options::default()
            },
        })
    }
}

/// The subject with a libuv pool sluice scope can attach to (node), or
/// why none can run.
fn watched_subject(lab: &Lab) -> anyhow::Result<&'static SubjectSpec> {
    let sweep = Sweep::new(lab, &SPEC);
    if let Some(s) = sweep.subjects().first() {
        return Ok(*s);
    }
    let mut why: Vec<String> = sweep.skipped().to_vec();
    why.extend(
        lab.record()
            .skipped()
            .iter()
            .map(|s| format!("{}: {}", s.subject, s.reason)),
    );
    if why.is_empty() {
        why.push("--subjects left it out".into());
    }
    let able: Vec<&str> = SUBJECTS
        .iter()
        .filter(|s| s.supports(Need::Attach).is_ok())
        .map(|s| s.name())
        .collect();
    let able = and_list(&able);
    bail!(
        "scope watches Node's libuv pool, so it runs the {able} subject only, and {able} cannot run: {}",
        why.join("; ")
    );
}

/// What one window of scope saw of one workload.
struct Watched {
    report: Report,
    /// scope's summary of the pool it found, before the load.
    found: String,
    /// What the script printed.
    result: Value,
    /// dns-32: how long the delay server held each lookup, and the most
    /// it held at once.
    held: Option<(Duration, u64)>,
}

/// Runs workload `w` at pool `pool` on `node` and watches one window of
/// it; `fifo_no` numbers the scratch directory's FIFOs.
fn watch_one(
    lab: &Lab,
    node: &SubjectSpec,
    plan: &Plan,
    w: &str,
    pool: u64,
    fifo_no: usize,
) -> anyhow::Result<Watched> {
    let fifo = lab.runner().scratch().join(format!("scope-fifo-{fifo_no}"));
    if w == "read-2x" {
        nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600))
            .with_context(|| format!("mkfifo {}", fifo.display()))?;
    }
    let params = json!({
        "workload": w,
        "pool": pool,
        "iterations": plan.iterations,
        "fifo": fifo,
        "spin_ms": (RAMP + plan.window).as_millis() as u64 + 300,
        "lookups": LOOKUPS,
        "dns_suffix": NAME_SUFFIX,
    });
    let mut watch = ScopeWatch {
        window: plan.window,
        options: plan.options,
        thread: None,
    };
    let size = PoolSize::Size(pool as usize);
    let mut held = None;
    let child = if w == "dns-32" {
        let hold = dns_hold(pool, RAMP + plan.window);
        let server = super::dns::delay_server(hold);
        lab.run_child_in_netns(node, SPEC.name, size, &params, &server, Some(&mut watch))
            .map(|(r, stats)| {
                held = Some((hold, stats.max_in_flight_names));
                r
            })
    } else {
        lab.call(node, SPEC.name, size, &params, Some(&mut watch))
    };
    let (report, found) = seen(watch.thread.take(), "node never printed ready")
        .with_context(|| format!("scope watching {w} at pool {pool}"))?;
    Ok(Watched {
        report,
        found,
        result: child?,
        held,
    })
}

/// The row of one watched window: the truth beside what scope reported.
fn judge(
    node: &SubjectSpec,
    node_label: &str,
    w: &str,
    pool: u64,
    seen: &Watched,
) -> anyhow::Result<Row> {
    let r = &seen.report;
    let (busy, queued, verdict) = truth(w, pool);
    let completed = seen.result["completed"].as_f64().context("completed")?;
    let mut row = Row::new(node.name())
        .param("node", node_label)
        .param("workload", w)
        .param("pool", pool)
        .param("truth_verdict", verdict.as_str())
        .param("discovery", r.discovery.as_str())
        .metric("truth_busy", busy as f64)
        .metric("truth_queue", queued as f64)
        .metric("pool_found", r.pool_size as f64)
        .metric("busy_threads", r.busy_threads)
        .metric("utilization_pct", r.utilization_pct)
        .metric("saturation_pct", r.saturation_pct)
        .metric("loop_utilization_pct", r.loop_utilization_pct)
        .metric("sampler_cpu_pct", r.sampler_cpu_pct)
        .metric("samples", f64::from(r.samples))
        .metric("verdict_ok", f64::from(u8::from(r.verdict == verdict)))
        .metric("completed", completed);
    // One-hot, so repetitions merge by median like any metric.
    for v in Verdict::ALL {
        row = row.metric(&verdict_metric(v), f64::from(u8::from(r.verdict == v)));
    }
    for (k, v) in [
        ("queue_depth", r.queue_depth),
        ("pool_cpu_pct", r.pool_cpu_pct),
        ("slow_queue_depth", r.slow_queue_depth),
        ("slow_io_running", r.slow_io_running),
        ("slow_io_throttled_pct", r.slow_io_throttled_pct),
    ] {
        if let Some(v) = v {
            row = row.metric(k, v);
        }
    }
    if let Some((hold, in_flight)) = seen.held {
        row = row
            .metric("dns_hold_ms", hold.as_millis() as f64)
            .metric("dns_max_in_flight", in_flight as f64);
    }
    Ok(row)
}

/// What the windows of one build showed beyond their rows: the pool scope
/// found at each size, the delay server's counts, scope's `unknown`s.
#[derive(Default)]
struct Seen {
    found: Vec<(u64, String)>,
    dns: Vec<(u64, String)>,
    unknown: Vec<String>,
}

impl Seen {
    fn add(&mut self, w: &str, pool: u64, seen: &Watched) {
        if !self.found.iter().any(|(p, _)| *p == pool) {
            self.found.push((pool, seen.found.clone()));
        }
        if let Some((hold, in_flight)) = seen.held
            && !self.dns.iter().any(|(p, _)| *p == pool)
        {
            self.dns.push((
                pool,
                format!(
                    "dns-32 at pool {pool}: the delay server held each lookup {} ms, and at most {in_flight} at once (libuv's slow-I/O limit (P + 1) / 2 = {})",
                    hold.as_millis(),
                    slow_io_limit(pool)
                ),
            ));
        }
        if seen.report.verdict == Verdict::Unknown {
            self.unknown.push(format!(
                "{w} at pool {pool}: scope said unknown: {}",
                seen.report.evidence
            ));
        }
    }
}

/// Runs every workload against one node build (`lab`'s node) and returns
/// its rows, labelled `node`, and its notes.
fn run_one_build(
    lab: &Lab,
    args: &Args,
    node_label: &str,
) -> anyhow::Result<(Vec<Row>, Vec<String>)> {
    let mut plan = Plan::new(lab, args)?;
    let node = watched_subject(lab)?;
    let bar = lab.record().progress(
        (lab.reps() * plan.pools.len() * plan.workloads.len()) as u64,
        "scope",
    );
    let mut fifo_no = 0;
    let mut seen = Seen::default();
    let mut rows = repeat(lab, |_| {
        let mut rows = Vec::new();
        for &pool in &plan.pools {
            for w in &plan.workloads {
                bar.set_message(format!("{w} pool {pool}"));
                fifo_no += 1;
                let watched = watch_one(lab, node, &plan, w, pool, fifo_no)?;
                seen.add(w, pool, &watched);
                rows.push(judge(node, node_label, w, pool, &watched)?);
                bar.inc(1);
            }
        }
        Ok(rows)
    })?;
    bar.finish_and_clear();
    if !plan.blockers.is_empty() {
        let (blocker_rows, note) = run_blockers(lab, node, node_label, &plan, args)?;
        rows.extend(blocker_rows);
        plan.skip_notes.push(note);
    }
    let notes = notes(&plan, node, seen, &rows);
    Ok((rows, notes))
}

/// The loop blockers, profiled once each at the first pool size: their
/// rows, and the note that says how.
fn run_blockers(
    lab: &Lab,
    node: &SubjectSpec,
    node_label: &str,
    plan: &Plan,
    args: &Args,
) -> anyhow::Result<(Vec<Row>, String)> {
    let settings = blockers::Settings {
        pool: plan.pools[0],
        phase: args.duration("profile")?,
        every_ms: args.millis("every")?,
        block_ms: args.millis("block")?,
        options: plan.options,
    };
    let script = include_str!("scope.js");
    let rows = repeat(lab, |_| {
        blockers::run(lab, (node, node_label), script, &plan.blockers, &settings)
    })?;
    let note = format!(
        "loop blockers (pool {}): each call sized to ~{} ms, every {} ms; scope profiled {} ms through the process's inspector (opened with SIGUSR1 on a port of the kernel's choice, closed after) with sluice_scope::profile::take (V8's optimized code discarded as it starts, so that functions V8 inlined are named), after a phase of {} ms and before another; `scope named` is the top of `held by your code`, right when its function and line are the truth's and the verdict over the profiled window is loop-blocked; loop lag is node's monitorEventLoopDelay per phase, blocker calls/s the calls completed per second of each phase (the profiler's cost: during against before and after); `serves after`: node answered GET /ping right after the profile",
        settings.pool,
        settings.block_ms,
        settings.every_ms,
        settings.phase.as_millis(),
        settings.phase.as_millis()
    );
    Ok((rows, note))
}

/// `lab`'s node build, then each further `--node`: one table. A build
/// that cannot run at all is an error naming it.
fn run_node_builds(lab: &Lab, args: &Args) -> anyhow::Result<(Vec<Row>, Vec<String>)> {
    let mut builds = vec![(
        None,
        lab.toolchain()
            .node()
            .map_err(anyhow::Error::msg)?
            .to_path_buf(),
    )];
    for p in lab.more_nodes() {
        // Lab::new names the path in its error (no such file, ...).
        let other = lab.for_node(p)?;
        builds.push((Some(other), p.clone()));
    }
    let mut labels: Vec<String> = Vec::new();
    let mut rows = Vec::new();
    let mut per_build: Vec<(String, Vec<String>)> = Vec::new();
    for (other, path) in &builds {
        let this = other.as_ref().unwrap_or(lab);
        let m = this.record().machine();
        let mut label = match (&m.node, &m.libuv) {
            (Some(v), Some(uv)) => format!("{v} (libuv {uv})"),
            _ => path.display().to_string(),
        };
        let same = labels.iter().filter(|l| l.starts_with(&label)).count();
        if same > 0 {
            label = format!("{label} #{}", same + 1);
        }
        labels.push(label.clone());
        let (r, mut n) = run_one_build(this, args, &label)
            .with_context(|| format!("node {label} at {}", path.display()))?;
        rows.extend(r);
        if builds.len() > 1 {
            n.insert(0, format!("node build: {}", path.display()));
        }
        per_build.push((label, n));
    }
    // A note every build gave is said once; the others name their build.
    let mut notes: Vec<String> = Vec::new();
    let everywhere = |n: &String| per_build.iter().all(|(_, ns)| ns.contains(n));
    for (label, ns) in &per_build {
        for n in ns {
            if !everywhere(n) {
                notes.push(format!("{label}: {n}"));
            } else if !notes.contains(n) {
                notes.push(n.clone());
            }
        }
    }
    Ok((rows, notes))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn truth_follows_the_pool() {
        assert_eq!(truth("cpu-4x", 4), (4, 12, Verdict::PoolSaturated));
        assert_eq!(truth("read-2x", 16), (16, 16, Verdict::PoolSaturated));
        assert_eq!(truth("loop-blocker", 4), (0, 0, Verdict::LoopBlocked));
        assert_eq!(truth("idle", 1), (0, 0, Verdict::Healthy));
        assert_eq!(truth("dns-32", 1), (1, 31, Verdict::PoolSaturated));
        assert_eq!(truth("dns-32", 4), (2, 30, Verdict::SlowIoThrottled));
        assert_eq!(truth("dns-32", 16), (8, 24, Verdict::SlowIoThrottled));
        assert_eq!(truth("dns-32", 64), (32, 0, Verdict::Healthy));
    }

    #[test]
    fn the_hold_keeps_lookups_queued_past_the_window() {
        let watched = Duration::from_millis(1200);
        assert_eq!(dns_hold(1, watched), Duration::from_millis(49)); // 1500 / 31
        assert_eq!(dns_hold(4, watched), Duration::from_millis(100)); // 1500 / 15
        assert_eq!(dns_hold(16, watched), Duration::from_millis(500)); // 1500 / 3
        assert_eq!(dns_hold(64, watched), Duration::from_millis(1500));
        for pool in 1..=80u64 {
            let at_once = LOOKUPS.min(slow_io_limit(pool));
            let rounds = LOOKUPS.div_ceil(at_once) as u32;
            let hold = dns_hold(pool, watched);
            // The last round starts after the window and its margin (or,
            // with one round, the only one lasts past them) ...
            assert!(
                hold * rounds.saturating_sub(1).max(1) >= watched + DNS_MARGIN,
                "pool {pool}"
            );
            // ... and ends within one hold and the margin of the stop.
            assert!(
                hold * rounds <= watched + DNS_MARGIN + hold * 2,
                "pool {pool}"
            );
        }
    }
}
