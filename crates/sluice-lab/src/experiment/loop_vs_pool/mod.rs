//! `loop-vs-pool` (seed 000 §3): a blocked event loop and a busy pool are
//! two different illnesses. Set a `--timer` timer (50 ms) on the event
//! loop, then load the system one of four ways, and measure how late the
//! timer fires:
//!
//! - `idle`: nothing else runs.
//! - `loop`: the loop thread itself runs `--loop` (200 ms) of synchronous
//!   CPU right after setting the timer (node: a busy loop on the main thread;
//!   Rust subjects: a spin inside an async task of the child's current-thread
//!   runtime, which is their event loop).
//! - `pool-N`: the pool runs N pbkdf2-sha512 tasks (`--pool-tasks`, 4 and 16;
//!   iterations calibrated once to `--cpu` with sluice's implementation
//!   and reused by every subject; sluice submits them to `Cpu`).
//!
//! Metrics per (subject, pool, scenario): `fired_ms` (when the timer's
//! callback ran, from just before it was set), `lateness_ms` (`fired_ms -
//! timer`; may be slightly negative for node, whose timers count from the
//! loop's cached millisecond clock), `load_ms` (how long the load lasted from
//! the same start: the spin, or until the last pool task finished; 0 when
//! idle), so a reader can check the pool was still busy when the timer fired.

mod child;

use super::{ArgSpec, Args, Experiment, ExperimentSpec, Kind};
use crate::lab::Lab;
use crate::outcome::Outcome;
use crate::report::{Chart, Point, Table, ms, series_of};
use crate::subject::{ChildContext, run_on};
use crate::sweep::Sweep;
use crate::workload;
use anyhow::{Context, bail};
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use sluice::Lane;
use std::time::{Duration, Instant};

/// The declaration of `loop-vs-pool`.
pub(super) static SPEC: ExperimentSpec = ExperimentSpec::new("loop-vs-pool", &LoopVsPool)
    .seed("seed 000 §3")
    .flags(ARGS)
    .rust(&LoopVsPool)
    .bars();

/// What the parent sends each child (`loop_vs_pool.js` reads the same).
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Params {
    scenarios: Vec<Scenario>,
    timer_ms: u64,
    loop_ms: u64,
    iterations: u64,
    gap_ms: u64,
}

/// One scenario: `idle`, `loop`, or `pool-N` with `tasks` N.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Scenario {
    id: String,
    #[serde(default)]
    tasks: u64,
}

impl Scenario {
    fn new(id: &str, tasks: u64) -> Self {
        Scenario {
            id: id.to_string(),
            tasks,
        }
    }
}

/// What each child prints.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Reply {
    rows: Vec<Fired>,
}

/// When the timer fired in one scenario, and how long its load ran.
#[derive(Debug, Serialize, Deserialize)]
pub(crate) struct Fired {
    scenario: String,
    fired_ms: f64,
    load_ms: f64,
}

/// The loop-vs-pool experiment.
pub(crate) struct LoopVsPool;

const ARGS: &[ArgSpec] = &[
    ArgSpec {
        name: "timer",
        value_name: "DURATION",
        help: "the timer set on the event loop",
        default: "50ms",
        report: "50ms",
        kind: Kind::millis(1, 60_000, "timer-ms"),
    },
    ArgSpec {
        name: "loop",
        value_name: "DURATION",
        help: "loop scenario: synchronous CPU on the loop thread right after setting the timer",
        default: "200ms",
        report: "200ms",
        kind: Kind::millis(1, 60_000, "loop-ms"),
    },
    ArgSpec {
        name: "pool-tasks",
        value_name: "N,..",
        help: "pool scenarios: how many pbkdf2 tasks the pool runs, one scenario each",
        default: "4,16",
        report: "4,16",
        kind: Kind::Numbers { min: 1, max: 1024 },
    },
    ArgSpec {
        name: "cpu",
        value_name: "DURATION",
        help: "calibrate each pool task's pbkdf2-sha512 iterations to about this long",
        default: "80ms",
        report: "80ms",
        kind: Kind::millis(1, 60_000, "cpu-ms"),
    },
];

/// Pause between scenarios, so each starts on a quiet loop and pool.
const GAP_MS: u64 = 30;

impl Experiment for LoopVsPool {
    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome> {
        let timer_ms = args.millis("timer")?;
        let loop_ms = args.millis("loop")?;
        let tasks = args.numbers("pool-tasks")?;
        let cpu_ms = args.millis("cpu")?;
        let iterations = workload::calibrate_pbkdf2_best_of_three(Duration::from_millis(cpu_ms));
        let mut scenarios = vec![Scenario::new("idle", 0), Scenario::new("loop", 0)];
        scenarios.extend(
            tasks
                .iter()
                .map(|&n| Scenario::new(&format!("pool-{n}"), n)),
        );
        let params = Params {
            scenarios,
            timer_ms,
            loop_ms,
            iterations: iterations as u64,
            gap_ms: GAP_MS,
        };
        let sweep = Sweep::new(lab, &SPEC);
        let rows = sweep.run(|cell| {
            let reply: Reply = cell.call(&params, None)?;
            Ok(reply
                .rows
                .into_iter()
                .map(|r| {
                    cell.row()
                        .param("scenario", r.scenario)
                        .metric("fired_ms", r.fired_ms)
                        .metric("lateness_ms", r.fired_ms - timer_ms as f64)
                        .metric("load_ms", r.load_ms)
                })
                .collect())
        })?;
        let mut notes = sweep.notes();
        notes.push(format!(
            "timer: {timer_ms} ms, set on the event loop (node: setTimeout; Rust subjects: tokio::time::sleep_until on the child's current-thread runtime); lateness = fired - {timer_ms} ms"
        ));
        notes.push(format!(
            "loop: {loop_ms} ms of busy CPU on the loop thread right after setting the timer; pool-N: N pbkdf2-sha512 tasks of {iterations} iterations (calibrated, best of three, to ~{cpu_ms} ms on one thread with sluice's RustCrypto pbkdf2; node uses OpenSSL), submitted right after setting the timer; sluice runs them on Cpu"
        ));
        if sweep.runs(crate::subject::Runtime::Go) {
            notes.push(format!("go has no event loop: its timer is a time.Timer read by a goroutine; loop: another goroutine locks its thread (runtime.LockOSThread) and spins {loop_ms} ms, which Go answers by running the timer's goroutine on another P, or with GOMAXPROCS=1 by preempting the spin (asynchronous preemption, Go >= 1.14); pool-N: N goroutines of the same pbkdf2-sha512, GOMAXPROCS = the pool size"));
        }
        notes.push("tokio's timer wheel has 1 ms resolution and rounds deadlines up, so the Rust subjects' idle lateness sits near +1 ms; node's timers count from the loop's cached millisecond clock".into());
        Ok(sweep.outcome(rows, notes))
    }

    fn tables(&self, o: &Outcome) -> Vec<Table> {
        let subjects = o.subjects();
        let mut pools: Vec<Value> = Vec::new();
        let mut scenarios: Vec<String> = Vec::new();
        for r in &o.rows {
            if !pools.contains(&r.params["pool"]) {
                pools.push(r.params["pool"].clone());
            }
            let s = r.param_text("scenario");
            if !scenarios.contains(&s) {
                scenarios.push(s);
            }
        }
        let timer = o
            .rows
            .iter()
            .find_map(|r| Some(r.metrics.get("fired_ms")? - r.metrics.get("lateness_ms")?))
            .unwrap_or(f64::NAN);
        let mut tables = Vec::new();
        for pool in &pools {
            let key = |s: &str| vec![("scenario", json!(s)), ("pool", pool.clone())];
            let get = |subject: &str, s: &str, m: &str| o.metric(subject, &key(s), m);
            let mut header = vec!["scenario".to_string()];
            header.extend(subjects.iter().map(|s| format!("{s} late ms")));
            let rows = scenarios
                .iter()
                .map(|s| {
                    let mut row = vec![label(s)];
                    row.extend(subjects.iter().map(|x| {
                        get(x, s, "lateness_ms").map_or("-".into(), crate::report::signed_ms)
                    }));
                    row
                })
                .collect();
            tables.push(Table {
                title: format!(
                    "loop-vs-pool, pool {}: how late a {timer:.0} ms timer fires",
                    crate::report::param_cell(pool)
                ),
                header,
                rows,
                note: String::new(),
            });

            let mut header = vec!["scenario".to_string()];
            header.extend(subjects.iter().map(|s| format!("{s} fired")));
            header.extend(subjects.iter().map(|s| format!("{s} load")));
            let rows = scenarios
                .iter()
                .map(|s| {
                    let mut row = vec![label(s)];
                    for m in ["fired_ms", "load_ms"] {
                        row.extend(subjects.iter().map(|x| get(x, s, m).map_or("-".into(), ms)));
                    }
                    row
                })
                .collect();
            tables.push(Table {
                title: format!(
                    "loop-vs-pool, pool {}: ms when the timer fired, and how long the load ran",
                    crate::report::param_cell(pool)
                ),
                header,
                rows,
                note: "load: the spin on the loop thread, or until the pool's last task finished; a pool load longer than the timer means the pool was still busy when it fired".into(),
            });
        }
        tables
    }

    fn chart(&self, o: &Outcome) -> Option<Chart> {
        let mut order: Vec<String> = Vec::new();
        for r in &o.rows {
            let s = r.param_text("scenario");
            if !order.contains(&s) {
                order.push(s);
            }
        }
        let series = series_of(&o.rows, |r| {
            let s = r.param_text("scenario");
            let x = order.iter().position(|o| *o == s)?;
            Some(Point::pool(
                o,
                r,
                ((x + 1) as f64, *r.metrics.get("fired_ms")?),
            ))
        });
        let legend: Vec<String> = order
            .iter()
            .enumerate()
            .map(|(i, s)| format!("{} {s}", i + 1))
            .collect();
        Some(Chart {
            title: "loop-vs-pool: when the timer fired".into(),
            x_label: format!("scenario ({})", legend.join(", ")),
            y_label: "timer fired at ms".into(),
            series,
        })
    }
}

fn label(id: &str) -> String {
    match id {
        "idle" => "idle".into(),
        "loop" => "loop thread runs CPU".into(),
        s => match s.strip_prefix("pool-") {
            Some(n) => format!("pool runs {n} pbkdf2"),
            None => s.into(),
        },
    }
}

/// One row of `loop-vs-pool`'s result, typed (the fields of its `--json`
/// rows): a timer during one scenario's load.
#[derive(Debug, Clone, serde::Deserialize)]
pub struct TimerRow {
    /// Whose row: the subject and the pool size.
    #[serde(flatten)]
    pub key: crate::outcome::RowKey,
    /// The scenario (`loop`, `pool`, ...).
    pub scenario: String,
    /// How late the timer fired, ms.
    pub lateness_ms: f64,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_name_the_scenarios() {
        assert_eq!(label("pool-16"), "pool runs 16 pbkdf2");
        assert_eq!(label("loop"), "loop thread runs CPU");
        assert_eq!(crate::report::signed_ms(-0.5), "-0.50");
        assert_eq!(crate::report::signed_ms(150.2), "+150");
    }
}
