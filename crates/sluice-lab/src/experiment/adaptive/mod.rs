//! `adaptive` (seed 004 §2.3, §3.3): lanes that grow while their threads
//! wait, and give the threads back. Every subject runs at its defaults
//! (the pool is always unset), and also under each [`Setting`] it
//! declares (sluice: `sluice-fixed`, compensation off; `sluice-bound`,
//! CPU threads bound to cores), as rows of their own.
//!
//! Scenarios (`--scenarios`):
//! - `wait`: the wait staircase at defaults: n one-byte FIFO reads on
//!   `FastIo` (node: `fs.read`), each held `--hold` after the lab sees
//!   its thread blocked (`workload::FifoHolder`). Wall time, the process's
//!   threads at peak (sampled by the child every 2 ms from
//!   `/proc/self/status`) and `--settle` after the round, and the most
//!   reads in flight counted from outside.
//! - `cpu`: n pbkdf2-sha512 tasks on `Cpu` at defaults: compensation must
//!   not oversubscribe (sluice reports its `Cpu` lane's peak threads).
//! - `hung`: `--hung` FIFO reads on `FastIo` that hang `--hang` (the
//!   child writes the bytes then), and meanwhile an open-loop stream of
//!   ordinary 4 KiB file reads, one every 2 ms: their latency p50/p99.
//! - `mixed` (seed 004 §3.3, sluice subjects): a closed loop of
//!   `--mixed-in-flight` operations for `--mixed`, half pbkdf2 on `Cpu`
//!   (~2 ms), half a 5 ms wait on `FastIo` (a sleep, undeclared):
//!   throughput in ops/ms and p99 latency, fixed vs adaptive.
//!
//! The chart is the process's threads over time during the largest wait
//! round: growth, then retirement.
//!
//! Which subjects run comes from their capabilities: one subject per
//! threadpool [`Rules`] (the first in table order: the libuv policy is
//! node's alone here, the others reproduce it), each also under the
//! [`Setting`]s it declares (sluice: fixed budgets, CPU affinity).

mod child;
mod tables;

use super::{ArgSpec, Args, Cell, Experiment, ExperimentSpec, Kind, repeat};
use crate::PoolSize;
use crate::child::Watch;
use crate::lab::Lab;
use crate::outcome::{Outcome, Row};
use crate::report::{Chart, Table};
use crate::subject::{ChildContext, Rules, Runtime, SUBJECTS, Setting, SubjectSpec, Tuning};
use crate::workload::{self, FifoHolder};
use anyhow::{Context, bail};
use serde_json::{Value, json};
use std::path::PathBuf;
use std::time::Duration;

/// The declaration of `adaptive`.
pub(super) static SPEC: ExperimentSpec = ExperimentSpec::new("adaptive", &Adaptive)
    .seed("seed 004 §2.3, §3.3")
    .flags(ARGS)
    .short(&[
        ("n", "4,64"),
        ("hang", "600ms"),
        ("reads", "100"),
        ("mixed", "600ms"),
    ])
    .rust(&Adaptive);

/// The adaptive experiment.
pub(crate) struct Adaptive;

const SCENARIOS: [&str; 4] = ["wait", "cpu", "hung", "mixed"];

const ARGS: &[ArgSpec] = &[
    ArgSpec {
        name: "scenarios",
        value_name: "LIST",
        help: "what to run: wait, cpu, hung, mixed (a comma-separated list)",
        default: "wait,cpu,hung,mixed",
        report: "wait,cpu,hung,mixed",
        kind: Kind::Choices(&SCENARIOS),
    },
    ArgSpec {
        name: "n",
        value_name: "N,..",
        help: "wait: concurrent reads per round",
        default: "1,4,16,64",
        report: "1,4,16,64",
        kind: Kind::Numbers { min: 1, max: 1024 },
    },
    ArgSpec {
        name: "hold",
        value_name: "DURATION",
        help: "wait: how long each read holds its thread",
        default: "100ms",
        report: "100ms",
        kind: Kind::millis(1, 60_000, "hold-ms"),
    },
    ArgSpec {
        name: "settle",
        value_name: "DURATION",
        help: "wait: threads are counted this long after each round",
        default: "300ms",
        report: "200ms",
        kind: Kind::millis(0, 60_000, "settle-ms"),
    },
    ArgSpec {
        name: "cpu-n",
        value_name: "N",
        help: "cpu: concurrent pbkdf2 tasks",
        default: "16",
        report: "16",
        kind: Kind::Number { min: 1, max: 1024 },
    },
    ArgSpec {
        name: "cpu",
        value_name: "DURATION",
        help: "cpu: calibrate pbkdf2-sha512 to about this long per task",
        default: "20ms",
        report: "20ms",
        kind: Kind::millis(1, 10_000, "cpu-ms"),
    },
    ArgSpec {
        name: "hung",
        value_name: "N",
        help: "hung: reads that hang",
        default: "64",
        report: "64",
        kind: Kind::Number { min: 1, max: 1000 },
    },
    ArgSpec {
        name: "hang",
        value_name: "DURATION",
        help: "hung: how long they hang",
        default: "2s",
        report: "1s",
        kind: Kind::millis(200, 60_000, "hang-ms"),
    },
    ArgSpec {
        name: "reads",
        value_name: "N",
        help: "hung: ordinary reads in the stream (one every 2 ms, starting 100 ms in)",
        default: "400",
        report: "200",
        kind: Kind::Number {
            min: 1,
            max: 100_000,
        },
    },
    ArgSpec {
        name: "mixed",
        value_name: "DURATION",
        help: "mixed: how long the closed loop runs",
        default: "2s",
        report: "1s",
        kind: Kind::millis(100, 600_000, "mixed-ms"),
    },
    ArgSpec {
        name: "mixed-in-flight",
        value_name: "N",
        help: "mixed: operations in flight",
        default: "16",
        report: "16",
        kind: Kind::Number { min: 1, max: 1024 },
    },
];

impl crate::child::Workload for Adaptive {
    type Params = Value;
    type Reply = Value;

    fn run(&self, cx: &ChildContext, params: Value) -> anyhow::Result<Value> {
        child::run(cx, &params)
    }
}

impl Experiment for Adaptive {
    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome> {
        if lab.pools_for(&SPEC) != [PoolSize::Unset] {
            bail!("adaptive measures every subject at its defaults: leave --pools unset");
        }
        let plan = Plan::new(lab, args)?;
        let (runs, skipped) = runs(lab.subjects());
        let children = (lab.reps() * runs.len() * plan.scenarios.len()) as u64;
        let bar = lab.record().progress(children, SPEC.name);
        let mut fifo_no = 0;
        let rows = repeat(lab, |_| {
            let mut rows = Vec::new();
            for scenario in &plan.scenarios {
                for run in &runs {
                    bar.set_message(format!("{} {scenario}", run.name()));
                    if run.takes(scenario) {
                        fifo_no += 1;
                        rows.extend(plan.cell(lab, run, scenario, fifo_no)?);
                    }
                    bar.inc(1);
                }
            }
            Ok(rows)
        })?;
        bar.finish_and_clear();
        let mut notes = plan.notes(lab, &runs);
        notes.extend(skipped);
        Ok(lab.record().outcome(SPEC.name, rows, notes))
    }

    fn tables(&self, o: &Outcome) -> Vec<Table> {
        tables::tables(o)
    }

    fn chart(&self, o: &Outcome) -> Option<Chart> {
        tables::chart(o)
    }
}

/// One run of a subject: as it is, or under one of its settings.
struct Run {
    subject: &'static SubjectSpec,
    setting: Option<&'static Setting>,
}

impl Run {
    /// Its row name.
    fn name(&self) -> &'static str {
        self.setting.map_or(self.subject.name(), |s| s.name)
    }

    /// Whether it takes part in `scenario`: `mixed` compares sluice pools'
    /// budgets (fixed, adaptive, bound), and CPU affinity matters to the
    /// CPU-bound scenarios only.
    fn takes(&self, scenario: &str) -> bool {
        let cpu_bound = matches!(scenario, "cpu" | "mixed");
        let bound = self
            .setting
            .is_some_and(|s| s.tuning == Tuning::CpuAffinity);
        (scenario != "mixed" || self.subject.sluice_policy().is_some()) && (cpu_bound || !bound)
    }
}

/// The runs of `subjects` that can run adaptive: one subject per
/// threadpool rules, each as it is and under each of its settings; and a
/// note for each subject left out.
fn runs(subjects: &[&'static SubjectSpec]) -> (Vec<Run>, Vec<String>) {
    let mut runs = Vec::new();
    let mut skipped = Vec::new();
    let mut shown: Vec<(Rules, &str)> = Vec::new();
    // Table order, whatever the order of --subjects.
    let mut subjects = subjects.to_vec();
    subjects.sort_by_key(|s| SUBJECTS.iter().position(|t| t.name() == s.name()));
    for s in subjects {
        if let Cell::Skipped(why) = SPEC.cell(s) {
            skipped.push(why);
            continue;
        }
        if let Some((_, by)) = shown
            .iter()
            .find(|(r, _)| *r == s.rules() && *r != Rules::Own)
        {
            skipped.push(format!(
                "{} skipped: adaptive compares threadpool rules at their defaults, and its rules are {by}'s",
                s.name()
            ));
            continue;
        }
        shown.push((s.rules(), s.name()));
        runs.push(Run {
            subject: s,
            setting: None,
        });
        runs.extend(s.settings().iter().map(|set| Run {
            subject: s,
            setting: Some(set),
        }));
    }
    (runs, skipped)
}

/// The flags, read once, and what the parent prepares for the children.
struct Plan {
    scenarios: Vec<&'static str>,
    ns: Vec<u64>,
    hold: Duration,
    settle_ms: u64,
    cpu_n: u64,
    cpu_ms: u64,
    /// pbkdf2 iterations of a `cpu` task (~`cpu_ms`), 0 if not run.
    iterations: u32,
    hung: u64,
    hang_ms: u64,
    reads: u64,
    mixed_ms: u64,
    mixed_in_flight: u64,
    /// pbkdf2 iterations of a `mixed` CPU operation (~2 ms), 0 if not run.
    mixed_iterations: u32,
    /// The 4 KiB file the `hung` scenario's ordinary reads read.
    small: PathBuf,
}

impl Plan {
    fn new(lab: &Lab, args: &Args) -> anyhow::Result<Plan> {
        let scenarios = args.choices("scenarios")?;
        let calibrate = |scenario: &str, ms: u64| {
            if scenarios.contains(&scenario) {
                workload::calibrate_pbkdf2(Duration::from_millis(ms))
            } else {
                0
            }
        };
        let cpu_ms = args.millis("cpu")?;
        let plan = Plan {
            ns: args.numbers("n")?,
            hold: args.duration("hold")?,
            settle_ms: args.millis("settle")?,
            cpu_n: args.number("cpu-n")?,
            cpu_ms,
            hung: args.number("hung")?,
            hang_ms: args.millis("hang")?,
            reads: args.number("reads")?,
            mixed_ms: args.millis("mixed")?,
            mixed_in_flight: args.number("mixed-in-flight")?,
            iterations: calibrate("cpu", cpu_ms),
            mixed_iterations: calibrate("mixed", 2),
            small: lab.runner().scratch().join("adaptive-small-file"),
            scenarios,
        };
        std::fs::write(&plan.small, vec![7u8; 4096]).context("writing the small file")?;
        Ok(plan)
    }

    /// Runs `run` in `scenario` and reads its rows; `fifo_no` numbers the
    /// FIFOs of the scratch directory.
    fn cell(
        &self,
        lab: &Lab,
        run: &Run,
        scenario: &str,
        fifo_no: usize,
    ) -> anyhow::Result<Vec<Row>> {
        let mut params = json!({ "scenario": scenario });
        match scenario {
            "wait" => {
                let name = format!("adaptive-fifo-{fifo_no}");
                let mut holder = FifoHolder::create(lab.runner().scratch(), &name, self.hold)?;
                params["fifo"] = json!(holder.path());
                params["ns"] = json!(self.ns);
                params["settle_ms"] = json!(self.settle_ms);
                let got = call(lab, run, &params, Some(&mut holder))?;
                return to_rows(run.name(), scenario, &got, Some(&holder.max_in_flight()));
            }
            "cpu" => {
                params["n"] = json!(self.cpu_n);
                params["iterations"] = json!(self.iterations);
            }
            "hung" => {
                let fifo = lab
                    .runner()
                    .scratch()
                    .join(format!("adaptive-hung-{fifo_no}"));
                nix::unistd::mkfifo(&fifo, nix::sys::stat::Mode::from_bits_truncate(0o600))
                    .with_context(|| format!("mkfifo {}", fifo.display()))?;
                params["fifo"] = json!(fifo);
                params["file"] = json!(self.small);
                params["hung"] = json!(self.hung);
                params["hang_ms"] = json!(self.hang_ms);
                params["reads"] = json!(self.reads);
            }
            _ => {
                params["ms"] = json!(self.mixed_ms);
                params["in_flight"] = json!(self.mixed_in_flight);
                params["iterations"] = json!(self.mixed_iterations);
            }
        }
        let got = call(lab, run, &params, None)?;
        to_rows(run.name(), scenario, &got, None)
    }

    /// The notes: how each run is set up, then what each scenario did.
    fn notes(&self, lab: &Lab, runs: &[Run]) -> Vec<String> {
        let cores = lab.record().machine().cores;
        let setups: Vec<String> = runs
            .iter()
            .map(|r| match r.setting {
                None => r.subject.pool_note(PoolSize::Unset, cores),
                Some(s) => s.about.to_string(),
            })
            .collect();
        let mut notes = vec![
            format!("every subject at its defaults on {cores} usable cores; {}", setups.join("; ")),
            "threads: the whole process's (/proc/self/status), sampled by the child every 2 ms; threads_after is counted --settle after the round (sluice's budget threads stay for their 60 s keep-alive, threads above the budget retire when their task ends)".to_string(),
        ];
        let has = |s: &str| self.scenarios.contains(&s);
        if has("wait") {
            notes.push(format!("wait: one-byte read of a FIFO on FastIo (node: fs.read), released {} ms after the lab sees the thread blocked in read(2); the Rust subjects' read is a plain read(2), not declared with sluice::blocking, so sluice finds it with its monitor", self.hold.as_millis()));
        }
        if runs.iter().any(|r| r.subject.runtime() == Runtime::Go) {
            notes.push("go at its defaults (GOMAXPROCS = the usable cores): a wait is syscall.Read on a blocking fd, so its thread blocks in read(2) and Go hands the P to another thread (the hand-off sluice's compensation copies); Go keeps idle threads rather than retiring them; cpu: pbkdf2 goroutines; hung: the stream's reads are ReadAt (pread) from goroutines".into());
        }
        if has("cpu") {
            notes.push(format!(
                "cpu: {} pbkdf2-sha512 tasks of {} iterations (~{} ms) on Cpu",
                self.cpu_n, self.iterations, self.cpu_ms
            ));
        }
        if has("hung") {
            notes.push(format!("hung: {} one-byte FIFO reads on FastIo hang {} ms (the child writes the bytes then); from 100 ms in, {} reads of a 4 KiB file, one every 2 ms, each timed from its submission", self.hung, self.hang_ms, self.reads));
        }
        if has("mixed") {
            notes.push(format!("mixed: {} operations in flight for {} ms, alternating pbkdf2-sha512 of {} iterations (~2 ms) on Cpu and a 5 ms sleep on FastIo; sluice pools only, under each of their settings", self.mixed_in_flight, self.mixed_ms, self.mixed_iterations));
        }
        notes
    }
}

/// One child of `run` with `params`, watched or not.
fn call(
    lab: &Lab,
    run: &Run,
    params: &Value,
    watch: Option<&mut dyn Watch>,
) -> anyhow::Result<Value> {
    let mut cmd = run
        .subject
        .command(lab, SPEC.name, PoolSize::Unset, params)?;
    if let Some(s) = run.setting {
        cmd.env(s.env.0, s.env.1);
    }
    lab.runner()
        .run_command(cmd, &format!("{} running adaptive", run.name()), watch)
}

/// A row's metrics: every number of `obj` but `n`.
fn with_metrics(mut row: Row, obj: &Value) -> Row {
    if let Some(map) = obj.as_object() {
        for (k, x) in map {
            if let Some(f) = x.as_f64()
                && k != "n"
            {
                row = row.metric(k, f);
            }
        }
    }
    row
}

/// Turns one child's JSON into rows; `in_flight` is the reads the FIFO
/// holder saw in flight per round (`wait`).
fn to_rows(
    subject: &str,
    scenario: &str,
    v: &Value,
    in_flight: Option<&[usize]>,
) -> anyhow::Result<Vec<Row>> {
    if scenario != "wait" {
        let mut row = Row::new(subject).param("scenario", scenario);
        if let Some(n) = v.get("n") {
            row = row.param("n", n.clone());
        }
        return Ok(vec![with_metrics(row, v)]);
    }
    let got = v["rows"]
        .as_array()
        .context("no rows in the child's result")?;
    let mut rows = Vec::new();
    for (i, r) in got.iter().enumerate() {
        let mut row = Row::new(subject)
            .param("scenario", "wait")
            .param("n", r["n"].clone());
        if let Some(t) = r.get("timeline") {
            row = row.param("timeline", t.clone());
        }
        row = with_metrics(row, r);
        if let Some(f) = in_flight {
            let seen = f
                .get(i)
                .copied()
                .context("the FIFO holder missed a round")?;
            row = row.metric("max_in_flight", seen as f64);
        }
        rows.push(row);
    }
    Ok(rows)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_subject_per_rules_each_under_its_settings() {
        // --subjects in an order of its own: table order decides.
        let mut subjects = SUBJECTS.to_vec();
        subjects.reverse();
        let (runs, skipped) = runs(&subjects);
        let names: Vec<&str> = runs.iter().map(Run::name).collect();
        assert_eq!(
            names,
            [
                "node",
                "sluice",
                "sluice-fixed",
                "sluice-bound",
                "tokio",
                "go"
            ]
        );
        assert_eq!(skipped.len(), SUBJECTS.len() - 4, "{skipped:?}");
        assert!(
            skipped
                .iter()
                .any(|w| w.starts_with("sluice-compat skipped")
                    && w.ends_with("its rules are node's")),
            "{skipped:?}"
        );
        let taking = |scenario: &str| -> Vec<&str> {
            runs.iter()
                .filter(|r| r.takes(scenario))
                .map(Run::name)
                .collect()
        };
        assert_eq!(
            taking("wait"),
            ["node", "sluice", "sluice-fixed", "tokio", "go"]
        );
        assert_eq!(taking("cpu"), names);
        assert_eq!(taking("mixed"), ["sluice", "sluice-fixed", "sluice-bound"]);
    }
}
