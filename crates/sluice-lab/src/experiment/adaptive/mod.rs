//! `adaptive` (seed 004 §2.3, §3.3): lanes that grow while their threads
//! wait, and give the threads back. Every subject runs at its defaults
//! (the pool is always unset); `sluice-fixed` is sluice with blocking
//! compensation off (`SLUICE_ADAPTIVE=off`), a subject of this experiment
//! only.
//!
//! Scenarios (`--scenarios`):
//! - `wait`: the wait staircase at defaults: n one-byte FIFO reads on
//!   `FastIo` (node: `fs.read`), each held `--hold-ms` after the lab sees
//!   its thread blocked (`workload::FifoHolder`). Wall time, the process's
//!   threads at peak (sampled by the child every 2 ms from
//!   `/proc/self/status`) and `--settle-ms` after the round, and the most
//!   reads in flight counted from outside.
//! - `cpu`: n pbkdf2-sha512 tasks on `Cpu` at defaults: compensation must
//!   not oversubscribe (sluice reports its `Cpu` lane's peak threads).
//! - `hung`: `--hung` FIFO reads on `FastIo` that hang `--hang-ms` (the
//!   child writes the bytes then), and meanwhile an open-loop stream of
//!   ordinary 4 KiB file reads, one every 2 ms: their latency p50/p99.
//! - `mixed` (seed 004 §3.3, sluice subjects): a closed loop of
//!   `--mixed-in-flight` operations for `--mixed-ms`, half pbkdf2 on `Cpu`
//!   (~2 ms), half a 5 ms wait on `FastIo` (a sleep, undeclared):
//!   throughput in ops/ms and p99 latency, fixed vs adaptive.
//!
//! The chart is the process's threads over time during the largest wait
//! round: growth, then retirement.

use super::{ArgSpec, Args, Experiment, ExperimentSpec, Workloads, repeat};
use crate::PoolSize;
use crate::lab::Lab;
use crate::outcome::{Outcome, Row};
use crate::report::{Chart, Series, Table, ms};
use crate::subject::{ChildContext, Subject, run_on};
use crate::workload::{self, FifoHolder};
use anyhow::{Context, bail};
use serde_json::{Value, json};
use sluice::Lane;
use std::io::{Read, Write};
use std::os::unix::fs::FileExt;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// The adaptive experiment.
pub(crate) struct Adaptive;

/// The sluice subject run with `SLUICE_ADAPTIVE=off`: fixed budgets.
const FIXED: &str = "sluice-fixed";
/// The sluice subject run with `SLUICE_CPU_AFFINITY=on`, for the CPU-bound
/// scenarios.
const BOUND: &str = "sluice-bound";

/// How this experiment runs each of its subjects: a subject of the lab, and
/// the row name and environment it runs under.
struct Variant {
    subject: &'static dyn Subject,
    name: &'static str,
    env: Option<(&'static str, &'static str)>,
}

const SCENARIOS: [&str; 4] = ["wait", "cpu", "hung", "mixed"];

const ARGS: &[ArgSpec] = &[
    ArgSpec {
        name: "scenarios",
        value_name: "LIST",
        help: "what to run: wait, cpu, hung, mixed (a comma-separated list)",
        default: "wait,cpu,hung,mixed",
        report: "wait,cpu,hung,mixed",
    },
    ArgSpec {
        name: "n",
        value_name: "N,..",
        help: "wait: concurrent reads per round",
        default: "1,4,16,64",
        report: "1,4,16,64",
    },
    ArgSpec {
        name: "hold-ms",
        value_name: "MS",
        help: "wait: how long each read holds its thread",
        default: "100",
        report: "100",
    },
    ArgSpec {
        name: "settle-ms",
        value_name: "MS",
        help: "wait: threads are counted this long after each round",
        default: "300",
        report: "200",
    },
    ArgSpec {
        name: "cpu-n",
        value_name: "N",
        help: "cpu: concurrent pbkdf2 tasks",
        default: "16",
        report: "16",
    },
    ArgSpec {
        name: "cpu-ms",
        value_name: "MS",
        help: "cpu: calibrate pbkdf2-sha512 to about this long per task",
        default: "20",
        report: "20",
    },
    ArgSpec {
        name: "hung",
        value_name: "N",
        help: "hung: reads that hang",
        default: "64",
        report: "64",
    },
    ArgSpec {
        name: "hang-ms",
        value_name: "MS",
        help: "hung: how long they hang",
        default: "2000",
        report: "1000",
    },
    ArgSpec {
        name: "reads",
        value_name: "N",
        help: "hung: ordinary reads in the stream (one every 2 ms, starting 100 ms in)",
        default: "400",
        report: "200",
    },
    ArgSpec {
        name: "mixed-ms",
        value_name: "MS",
        help: "mixed: how long the closed loop runs",
        default: "2000",
        report: "1000",
    },
    ArgSpec {
        name: "mixed-in-flight",
        value_name: "N",
        help: "mixed: operations in flight",
        default: "16",
        report: "16",
    },
];

/// The subjects this experiment compares (the rest of the registry is
/// left out: the libuv policy has no compensation to measure).
const COMPARED: [&str; 4] = ["node", "sluice", "tokio", "go"];

/// The declaration of `adaptive`.
static SPEC: ExperimentSpec = ExperimentSpec {
    name: "adaptive",
    about: "lanes that grow while threads wait and give them back: waits, hung reads, CPU, mixed (seed 004)",
    long_about: include_str!("about.md"),
    seed: "seed 004 §2.3, §3.3",
    args: ARGS,
    pools: &[PoolSize::Unset],
    report_pools: &[PoolSize::Unset],
    workloads: Workloads::node_rust(include_str!("adaptive.js"), &Adaptive)
        .with_go(include_str!("adaptive.go")),
    ..ExperimentSpec::BASE
};

impl crate::child::Workload for Adaptive {
    type Params = Value;
    type Reply = Value;

    fn run(&self, cx: &ChildContext, params: Value) -> anyhow::Result<Value> {
        match params["scenario"].as_str().context("scenario")? {
            "wait" => child_wait(cx, &params),
            "cpu" => child_cpu(cx, &params),
            "hung" => child_hung(cx, &params),
            "mixed" => child_mixed(cx, &params),
            other => bail!("unknown scenario {other:?}"),
        }
    }
}

impl Experiment for Adaptive {
    fn spec(&self) -> &'static ExperimentSpec {
        &SPEC
    }

    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome> {
        let scenarios: Vec<String> = args
            .text("scenarios")?
            .split(',')
            .map(|s| s.trim().to_string())
            .collect();
        for s in &scenarios {
            if !SCENARIOS.contains(&s.as_str()) {
                bail!(
                    "--scenarios {s:?}: expected a list of {}",
                    SCENARIOS.join(", ")
                );
            }
        }
        let ns = args.numbers("n", 1, 1024)?;
        let hold = Duration::from_millis(args.number("hold-ms", 1, 60_000)?);
        let settle_ms = args.number("settle-ms", 0, 60_000)?;
        let cpu_n = args.number("cpu-n", 1, 1024)?;
        let cpu_ms = args.number("cpu-ms", 1, 10_000)?;
        let hung = args.number("hung", 1, 1000)?;
        let hang_ms = args.number("hang-ms", 200, 60_000)?;
        let reads = args.number("reads", 1, 100_000)?;
        let mixed_ms = args.number("mixed-ms", 100, 600_000)?;
        let mixed_in_flight = args.number("mixed-in-flight", 1, 1024)?;
        if lab.pools_for(self) != [PoolSize::Unset] {
            bail!("adaptive measures every subject at its defaults: leave --pools unset");
        }
        let mut subjects: Vec<Variant> = Vec::new();
        for &s in lab.subjects() {
            if !COMPARED.contains(&s.name()) {
                continue;
            }
            subjects.push(Variant {
                subject: s,
                name: s.name(),
                env: None,
            });
            if s.name() == "sluice" {
                subjects.push(Variant {
                    subject: s,
                    name: FIXED,
                    env: Some(("SLUICE_ADAPTIVE", "off")),
                });
                subjects.push(Variant {
                    subject: s,
                    name: BOUND,
                    env: Some(("SLUICE_CPU_AFFINITY", "on")),
                });
            }
        }
        // One child of `variant` with `params`, watched or not.
        let run_child = |v: &Variant, params: &Value, watch: Option<&mut dyn crate::lab::Watch>| {
            let mut cmd = v.subject.command(lab, SPEC.name, PoolSize::Unset, params)?;
            if let Some((k, val)) = v.env {
                cmd.env(k, val);
            }
            lab.run_command(cmd, &format!("{} running adaptive", v.name), watch)
        };
        let iterations = if scenarios.iter().any(|s| s == "cpu") {
            workload::calibrate_pbkdf2(Duration::from_millis(cpu_ms))
        } else {
            0
        };
        let mixed_iterations = if scenarios.iter().any(|s| s == "mixed") {
            workload::calibrate_pbkdf2(Duration::from_millis(2))
        } else {
            0
        };
        let small = lab.scratch().join("adaptive-small-file");
        std::fs::write(&small, vec![7u8; 4096]).context("writing the small file")?;
        let children = (lab.reps() * subjects.len() * scenarios.len()) as u64;
        let bar = lab.progress(children, "adaptive");
        let mut fifo_no = 0;
        let rows = repeat(lab, |_| {
            let mut rows = Vec::new();
            for scenario in &scenarios {
                for variant in &subjects {
                    let name = variant.name;
                    bar.set_message(format!("{name} {scenario}"));
                    let sluice_only = scenario == "mixed";
                    let cpu_bound = scenario == "mixed" || scenario == "cpu";
                    if (sluice_only && !name.starts_with("sluice")) || (name == BOUND && !cpu_bound)
                    {
                        bar.inc(1);
                        continue;
                    }
                    let mut params = json!({ "scenario": scenario });
                    let mut in_flight = None;
                    let result = match scenario.as_str() {
                        "wait" => {
                            fifo_no += 1;
                            let mut holder = FifoHolder::create(
                                lab.scratch(),
                                &format!("adaptive-fifo-{fifo_no}"),
                                hold,
                            )?;
                            params["fifo"] = json!(holder.path());
                            params["ns"] = json!(ns);
                            params["settle_ms"] = json!(settle_ms);
                            let r = run_child(variant, &params, Some(&mut holder))?;
                            in_flight = Some(holder.max_in_flight());
                            r
                        }
                        "cpu" => {
                            params["n"] = json!(cpu_n);
                            params["iterations"] = json!(iterations);
                            run_child(variant, &params, None)?
                        }
                        "hung" => {
                            fifo_no += 1;
                            let fifo = lab.scratch().join(format!("adaptive-hung-{fifo_no}"));
                            nix::unistd::mkfifo(
                                &fifo,
                                nix::sys::stat::Mode::from_bits_truncate(0o600),
                            )
                            .with_context(|| format!("mkfifo {}", fifo.display()))?;
                            params["fifo"] = json!(fifo);
                            params["file"] = json!(small);
                            params["hung"] = json!(hung);
                            params["hang_ms"] = json!(hang_ms);
                            params["reads"] = json!(reads);
                            run_child(variant, &params, None)?
                        }
                        _ => {
                            params["ms"] = json!(mixed_ms);
                            params["in_flight"] = json!(mixed_in_flight);
                            params["iterations"] = json!(mixed_iterations);
                            run_child(variant, &params, None)?
                        }
                    };
                    rows.extend(to_rows(name, scenario, &result, in_flight.as_deref())?);
                    bar.inc(1);
                }
            }
            Ok(rows)
        })?;
        bar.finish_and_clear();
        let cores = lab.machine().cores;
        let mut notes = vec![
            format!(
                "every subject at its defaults on {cores} usable cores: node's pool 4; sluice's budgets Cpu {}, FastIo {}, SlowIo {}, compensated up to max_threads (FastIo {}); sluice-fixed the same budgets with SLUICE_ADAPTIVE=off; sluice-bound with SLUICE_CPU_AFFINITY=on; tokio's spawn_blocking up to 512 threads",
                sluice::budget::default_threads(Lane::Cpu, cores),
                sluice::budget::default_threads(Lane::FastIo, cores),
                sluice::budget::default_threads(Lane::SlowIo, cores),
                sluice::budget::default_max_threads(Lane::FastIo, cores),
            ),
            "threads: the whole process's (/proc/self/status), sampled by the child every 2 ms; threads_after is counted --settle-ms after the round (sluice's budget threads stay for their 60 s keep-alive, threads above the budget retire when their task ends)".to_string(),
        ];
        if scenarios.iter().any(|s| s == "wait") {
            notes.push(format!("wait: one-byte read of a FIFO on FastIo (node: fs.read), released {} ms after the lab sees the thread blocked in read(2); the Rust subjects' read is a plain read(2), not declared with sluice::blocking, so sluice finds it with its monitor", hold.as_millis()));
        }
        if subjects.iter().any(|v| v.name == "go") {
            notes.push("go at its defaults (GOMAXPROCS = the usable cores): a wait is syscall.Read on a blocking fd, so its thread blocks in read(2) and Go hands the P to another thread (the hand-off sluice's compensation copies); Go keeps idle threads rather than retiring them; cpu: pbkdf2 goroutines; hung: the stream's reads are ReadAt (pread) from goroutines".into());
        }
        if scenarios.iter().any(|s| s == "cpu") {
            notes.push(format!(
                "cpu: {cpu_n} pbkdf2-sha512 tasks of {iterations} iterations (~{cpu_ms} ms) on Cpu"
            ));
        }
        if scenarios.iter().any(|s| s == "hung") {
            notes.push(format!("hung: {hung} one-byte FIFO reads on FastIo hang {hang_ms} ms (the child writes the bytes then); from 100 ms in, {reads} reads of a 4 KiB file, one every 2 ms, each timed from its submission"));
        }
        if scenarios.iter().any(|s| s == "mixed") {
            notes.push(format!("mixed: {mixed_in_flight} operations in flight for {mixed_ms} ms, alternating pbkdf2-sha512 of {mixed_iterations} iterations (~2 ms) on Cpu and a 5 ms sleep on FastIo; sluice subjects only; {BOUND} is sluice with SLUICE_CPU_AFFINITY=on (Builder::cpu_affinity)"));
        }
        Ok(lab.outcome(SPEC.name, rows, notes))
    }

    fn tables(&self, o: &Outcome) -> Vec<Table> {
        let subjects = o.subjects();
        let mut tables = Vec::new();
        let at = |scenario: &str| {
            o.rows
                .iter()
                .filter(|r| r.param_text("scenario") == scenario)
                .collect::<Vec<_>>()
        };
        let cell = |s: &str, p: &[(&str, Value)], m: &str, f: fn(f64) -> String| {
            o.metric(s, p, m).map_or("-".to_string(), f)
        };
        let count = |v: f64| format!("{v:.0}");
        let wait = at("wait");
        if !wait.is_empty() {
            let mut ns: Vec<Value> = Vec::new();
            for r in &wait {
                if !ns.contains(&r.params["n"]) {
                    ns.push(r.params["n"].clone());
                }
            }
            let waited: Vec<&String> = subjects
                .iter()
                .filter(|s| wait.iter().any(|r| &r.subject == *s))
                .collect();
            let mut header = vec!["n".to_string()];
            for s in &waited {
                header.push(format!("{s} ms"));
                header.push(format!("{s} in flight"));
                header.push(format!("{s} threads peak/after"));
            }
            let rows = ns
                .iter()
                .map(|n| {
                    let p = [("scenario", json!("wait")), ("n", n.clone())];
                    let mut row = vec![n.to_string()];
                    for s in &waited {
                        row.push(cell(s, &p, "total_ms", ms));
                        row.push(cell(s, &p, "max_in_flight", count));
                        row.push(format!(
                            "{}/{}",
                            cell(s, &p, "threads_peak", count),
                            cell(s, &p, "threads_after", count)
                        ));
                    }
                    row
                })
                .collect();
            tables.push(Table {
                title: "adaptive, wait staircase at defaults: total wall ms, reads in flight, process threads".into(),
                header,
                rows,
                note: "targets: sluice n=16 <= 120 ms, n=64 <= 130 ms at 100 ms holds".into(),
            });
        }
        let cpu = at("cpu");
        if !cpu.is_empty() {
            let header = vec![
                "subject".to_string(),
                "n".into(),
                "total ms".into(),
                "vs sluice-fixed".into(),
                "Cpu threads peak".into(),
            ];
            let fixed = o.metric(FIXED, &[("scenario", json!("cpu"))], "total_ms");
            let rows = cpu
                .iter()
                .map(|r| {
                    let t = r.metrics.get("total_ms").copied();
                    vec![
                        r.subject.clone(),
                        r.param_text("n"),
                        t.map_or("-".into(), ms),
                        crate::report::ratio(t, fixed),
                        r.metrics
                            .get("cpu_threads_peak")
                            .map_or("-".into(), |v| format!("{v:.0}")),
                    ]
                })
                .collect();
            tables.push(Table {
                title: "adaptive, CPU staircase at defaults: compensation must not oversubscribe"
                    .into(),
                header,
                rows,
                note: "target: sluice within 5 % of sluice-fixed; its Cpu threads never above the usable cores".into(),
            });
        }
        let hung = at("hung");
        if !hung.is_empty() {
            let header = vec![
                "subject".to_string(),
                "reads".into(),
                "p50 ms".into(),
                "p99 ms".into(),
                "max ms".into(),
                "hung reads done ms".into(),
            ];
            let rows = hung
                .iter()
                .map(|r| {
                    let m = |k: &str| r.metrics.get(k).map_or("-".into(), |v| ms(*v));
                    vec![
                        r.subject.clone(),
                        r.metrics
                            .get("reads")
                            .map_or("-".into(), |v| format!("{v:.0}")),
                        m("p50_ms"),
                        m("p99_ms"),
                        m("max_ms"),
                        m("hung_total_ms"),
                    ]
                })
                .collect();
            tables.push(Table {
                title: "adaptive, file reads beside hung reads: latency of each ordinary read"
                    .into(),
                header,
                rows,
                note: "target: sluice p99 <= 1 ms (libuv: they wait for the hang)".into(),
            });
        }
        let mixed = at("mixed");
        if !mixed.is_empty() {
            let header = vec![
                "subject".to_string(),
                "ops/ms".into(),
                "p50 ms".into(),
                "p99 ms".into(),
                "threads peak".into(),
            ];
            let rows = mixed
                .iter()
                .map(|r| {
                    let m = |k: &str| r.metrics.get(k).copied();
                    vec![
                        r.subject.clone(),
                        m("ops_per_ms").map_or("-".into(), |v| format!("{v:.2}")),
                        m("p50_ms").map_or("-".into(), ms),
                        m("p99_ms").map_or("-".into(), ms),
                        m("threads_peak").map_or("-".into(), |v| format!("{v:.0}")),
                    ]
                })
                .collect();
            tables.push(Table {
                title: "adaptive, mixed CPU + I/O (seed 004 §3.3): fixed vs adaptive vs adaptive + binding".into(),
                header,
                rows,
                note: "seed 004: fixed 8 threads 42.1 ops/ms p99 18.7 ms; dynamic + binding 58.6 ops/ms p99 11.2 ms".into(),
            });
        }
        tables
    }

    fn chart(&self, o: &Outcome) -> Option<Chart> {
        let mut series = Vec::new();
        let largest = o
            .rows
            .iter()
            .filter(|r| r.param_text("scenario") == "wait")
            .filter_map(|r| r.params["n"].as_u64())
            .max()?;
        for r in o.rows.iter().filter(|r| {
            r.param_text("scenario") == "wait" && r.params["n"].as_u64() == Some(largest)
        }) {
            let Some(points) = r.params.get("timeline").and_then(Value::as_array) else {
                continue;
            };
            let points: Vec<(f64, f64)> = points
                .iter()
                .filter_map(|p| Some((p[0].as_f64()?, p[1].as_f64()?)))
                .collect();
            series.push(Series {
                name: r.subject.clone(),
                points,
                color_key: r.subject.clone(),
                dashed: r.subject == FIXED,
                steps: false,
            });
        }
        Some(Chart {
            title: format!("adaptive: process threads during {largest} waits (then the settle)"),
            x_label: "ms since the round began".into(),
            y_label: "threads".into(),
            series,
        })
    }
}

/// Turns one child's JSON into rows.
fn to_rows(
    subject: &str,
    scenario: &str,
    v: &Value,
    in_flight: Option<&[usize]>,
) -> anyhow::Result<Vec<Row>> {
    let mut rows = Vec::new();
    let metrics = |mut row: Row, obj: &Value, skip: &[&str]| {
        if let Some(map) = obj.as_object() {
            for (k, x) in map {
                if let Some(f) = x.as_f64()
                    && !skip.contains(&k.as_str())
                {
                    row = row.metric(k, f);
                }
            }
        }
        row
    };
    match scenario {
        "wait" => {
            let got = v["rows"]
                .as_array()
                .context("no rows in the child's result")?;
            for (i, r) in got.iter().enumerate() {
                let mut row = Row::new(subject)
                    .param("scenario", "wait")
                    .param("n", r["n"].clone());
                if let Some(t) = r.get("timeline") {
                    row = row.param("timeline", t.clone());
                }
                row = metrics(row, r, &["n"]);
                if let Some(f) = in_flight {
                    let seen = f
                        .get(i)
                        .copied()
                        .context("the FIFO holder missed a round")?;
                    row = row.metric("max_in_flight", seen as f64);
                }
                rows.push(row);
            }
        }
        _ => {
            let mut row = Row::new(subject).param("scenario", scenario);
            if let Some(n) = v.get("n") {
                row = row.param("n", n.clone());
            }
            rows.push(metrics(row, v, &["n"]));
        }
    }
    Ok(rows)
}

/// The process's thread count now.
fn threads_now() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Threads:"))
                .and_then(|v| v.trim().parse().ok())
        })
        .unwrap_or(0)
}

/// Samples the process's threads every 2 ms until dropped.
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

fn child_wait(cx: &ChildContext, params: &Value) -> anyhow::Result<Value> {
    let ns: Vec<u64> = serde_json::from_value(params["ns"].clone())?;
    let settle = Duration::from_millis(params["settle_ms"].as_u64().unwrap_or(300));
    let fifo = Arc::new(
        std::fs::File::open(params["fifo"].as_str().context("fifo")?)
            .context("opening the FIFO")?,
    );
    let exec = cx.exec.as_ref();
    let largest = ns.iter().copied().max().unwrap_or(0);
    let mut rows = Vec::new();
    for n in ns {
        let before = threads_now();
        let sampler = ThreadSampler::start();
        println!("{}", workload::begin_event(json!({ "n": n })));
        let t0 = Instant::now();
        let tasks: Vec<_> = (0..n)
            .map(|_| {
                let f = Arc::clone(&fifo);
                run_on(exec, Lane::FastIo, move || {
                    let mut b = [0u8; 1];
                    (&*f).read(&mut b).map(drop).map_err(|e| e.to_string())
                })
            })
            .collect();
        for r in cx.block_on(futures::future::join_all(tasks)) {
            r.map_err(anyhow::Error::msg)?.map_err(anyhow::Error::msg)?;
        }
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
        if n == largest {
            row["timeline"] = json!(timeline);
        }
        rows.push(row);
    }
    Ok(json!({ "rows": rows }))
}

fn child_cpu(cx: &ChildContext, params: &Value) -> anyhow::Result<Value> {
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

fn child_hung(cx: &ChildContext, params: &Value) -> anyhow::Result<Value> {
    let hung = params["hung"].as_u64().context("hung")?;
    let hang = Duration::from_millis(params["hang_ms"].as_u64().context("hang_ms")?);
    let reads = params["reads"].as_u64().context("reads")?;
    let path = params["fifo"].as_str().context("fifo")?;
    // Read-write: opening never blocks, and reads block until the writer
    // below writes (this process is the writer).
    let fifo = Arc::new(
        std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(path)
            .context("opening the FIFO")?,
    );
    let file = Arc::new(
        std::fs::File::open(params["file"].as_str().context("file")?)
            .context("opening the small file")?,
    );
    let exec = cx.exec.as_ref();
    let writer = {
        let f = Arc::clone(&fifo);
        let n = hung as usize;
        std::thread::spawn(move || {
            std::thread::sleep(hang);
            (&*f).write_all(&vec![1u8; n])
        })
    };
    let t0 = Instant::now();
    let start = tokio::time::Instant::now();
    let hung_reads: Vec<_> = (0..hung)
        .map(|_| {
            let f = Arc::clone(&fifo);
            run_on(exec, Lane::FastIo, move || {
                let mut b = [0u8; 1];
                (&*f).read(&mut b).map(drop).map_err(|e| e.to_string())
            })
        })
        .collect();
    let stream: Vec<_> = (0..reads)
        .map(|i| {
            let f = Arc::clone(&file);
            async move {
                tokio::time::sleep_until(
                    start + Duration::from_millis(100) + Duration::from_micros(2_000 * i),
                )
                .await;
                let t = Instant::now();
                run_on(exec, Lane::FastIo, move || {
                    let mut b = vec![0u8; 4096];
                    f.read_at(&mut b, 0).map_err(|e| e.to_string())
                })
                .await?
                .map(|_| t.elapsed().as_secs_f64() * 1e3)
            }
        })
        .collect();
    let (hung_done, latencies) = cx.block_on(async {
        let hung = async {
            let r = futures::future::join_all(hung_reads).await;
            (r, t0.elapsed().as_secs_f64() * 1e3)
        };
        futures::join!(hung, futures::future::join_all(stream))
    });
    for r in hung_done.0 {
        r.map_err(anyhow::Error::msg)?.map_err(anyhow::Error::msg)?;
    }
    writer
        .join()
        .map_err(|_| anyhow::anyhow!("the FIFO writer panicked"))?
        .context("writing the FIFO")?;
    let mut lat = latencies
        .into_iter()
        .collect::<Result<Vec<f64>, String>>()
        .map_err(anyhow::Error::msg)?;
    lat.sort_by(f64::total_cmp);
    let q = |p: f64| lat[((lat.len() as f64 * p).ceil() as usize).clamp(1, lat.len()) - 1];
    Ok(json!({
        "reads": lat.len(),
        "p50_ms": q(0.5),
        "p99_ms": q(0.99),
        "max_ms": lat[lat.len() - 1],
        "hung_total_ms": hung_done.1,
    }))
}

fn child_mixed(cx: &ChildContext, params: &Value) -> anyhow::Result<Value> {
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
    let q = |p: f64| lat[((lat.len() as f64 * p).ceil() as usize).clamp(1, lat.len()) - 1];
    Ok(json!({
        "ops": lat.len(),
        "ops_per_ms": lat.len() as f64 / wall_ms,
        "p50_ms": q(0.5),
        "p99_ms": q(0.99),
        "threads_peak": peak,
    }))
}
