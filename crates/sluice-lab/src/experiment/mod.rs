//! Experiments: one file per experiment of the seeds, and one slice,
//! [`EXPERIMENTS`], that lists them. `sluice lab list`, the command line,
//! the report's table of contents and the test that runs every experiment
//! all iterate that slice, so adding an experiment is one new file and one
//! new line here.
//!
//! An experiment owns everything about itself: its flags ([`ArgSpec`]), the
//! node script (`<name>.js` beside its `.rs`), the Rust workload its child
//! runs on each Rust subject ([`Experiment::child`]), how the parent
//! orchestrates and watches the children ([`Experiment::run`]), and how its
//! results are drawn ([`Experiment::tables`], [`Experiment::chart`]).

mod adaptive;
mod dispatch;
mod dns;
mod http;
mod loop_vs_pool;
mod probe;
mod scope;
mod small_reads;
mod spawn_bill;
mod staircase;
mod starve;
mod workers;

use crate::PoolSize;
use crate::lab::Lab;
use crate::outcome::Outcome;
use crate::report::{Chart, Table};
use crate::subject::ChildContext;
use anyhow::bail;
use serde_json::Value;
use std::collections::BTreeMap;

/// An experiment-specific flag: `--NAME VALUE`.
#[derive(Debug, Clone, Copy)]
pub struct ArgSpec {
    /// The flag without dashes, e.g. `hold-ms`.
    pub name: &'static str,
    /// Placeholder in help, e.g. `MS`.
    pub value_name: &'static str,
    /// One line of help.
    pub help: &'static str,
    /// The default of `sluice lab NAME`.
    pub default: &'static str,
    /// The default inside `sluice lab report` (small, to fit its budget).
    pub report: &'static str,
}

/// The values of an experiment's flags, by name, as text; typed getters
/// validate and name the flag in their errors.
#[derive(Debug, Clone, Default)]
pub struct Args {
    values: BTreeMap<String, String>,
}

impl Args {
    /// `specs`' defaults, or their report defaults.
    pub fn defaults(specs: &[ArgSpec], report: bool) -> Args {
        Args {
            values: specs
                .iter()
                .map(|s| {
                    (
                        s.name.to_string(),
                        if report { s.report } else { s.default }.to_string(),
                    )
                })
                .collect(),
        }
    }

    /// Sets `name` to `value`.
    pub fn set(&mut self, name: &str, value: impl Into<String>) {
        self.values.insert(name.to_string(), value.into());
    }

    /// The raw text of `name`.
    pub fn text(&self, name: &str) -> anyhow::Result<&str> {
        match self.values.get(name) {
            Some(v) => Ok(v),
            None => bail!("--{name} is not a flag of this experiment"),
        }
    }

    /// `name` as one of `choices`.
    pub fn choice(&self, name: &str, choices: &[&str]) -> anyhow::Result<String> {
        let v = self.text(name)?;
        if choices.contains(&v) {
            Ok(v.to_string())
        } else {
            bail!("--{name} {v:?}: expected one of {}", choices.join(", "))
        }
    }

    /// `name` as a whole number in `min..=max`.
    pub fn number(&self, name: &str, min: u64, max: u64) -> anyhow::Result<u64> {
        let v = self.text(name)?;
        parse_number(name, v.trim(), min, max)
    }

    /// `name` as a comma-separated list of whole numbers in `min..=max`.
    pub fn numbers(&self, name: &str, min: u64, max: u64) -> anyhow::Result<Vec<u64>> {
        let v = self.text(name)?;
        let items: Vec<&str> = v.split(',').map(str::trim).collect();
        if items.iter().any(|i| i.is_empty()) {
            bail!("--{name} {v:?}: empty item; expected numbers like 1,2,4");
        }
        items
            .into_iter()
            .map(|i| parse_number(name, i, min, max))
            .collect()
    }
}

fn parse_number(name: &str, v: &str, min: u64, max: u64) -> anyhow::Result<u64> {
    match v.parse::<i128>() {
        Ok(n) if n >= i128::from(min) && n <= i128::from(max) => Ok(n as u64),
        Ok(_) => bail!("--{name} {v:?} is out of range; expected {min}..={max}"),
        Err(_) => bail!("--{name} {v:?} is not a number; expected {min}..={max}"),
    }
}

/// One experiment of the seeds.
pub trait Experiment: Sync {
    /// The name: `sluice lab NAME`.
    fn name(&self) -> &'static str;
    /// One line for `sluice lab list` and `--help`.
    fn about(&self) -> &'static str;
    /// What it reproduces and how, for `--help` and the report.
    fn long_about(&self) -> &'static str;
    /// Its own flags.
    fn args(&self) -> &'static [ArgSpec] {
        &[]
    }
    /// Pool sizes when `--pools` is not given; `report` for the report's.
    fn default_pools(&self, report: bool) -> Vec<PoolSize>;
    /// The node script (`<name>.js`): reads its JSON params from argv[2],
    /// prints one JSON document as its last line.
    fn node_script(&self) -> &'static str;
    /// Runs the experiment: starts every subject's children, watches them,
    /// and turns what they print into rows.
    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome>;
    /// The Rust subjects' side, inside `sluice lab-child`: runs the workload
    /// on `cx.exec` and returns the JSON the parent reads.
    fn child(&self, cx: &ChildContext, params: &Value) -> anyhow::Result<Value>;
    /// The child of a subject that exists only inside this experiment and
    /// runs its own event loop rather than an [`Executor`](crate::subject::Executor)
    /// (dispatch's `libuv-ffi`): its JSON result, or `None` if `subject` is
    /// not one of this experiment's own (the default: none are).
    fn own_child(&self, subject: &str, params: &Value) -> Option<anyhow::Result<Value>> {
        let _ = (subject, params);
        None
    }
    /// Seed-style tables of an outcome, subjects side by side.
    fn tables(&self, outcome: &Outcome) -> Vec<Table>;
    /// A chart of an outcome, if the experiment has one.
    fn chart(&self, outcome: &Outcome) -> Option<Chart>;
    /// The one table the report's headlines show (default: the first).
    fn headline(&self, outcome: &Outcome) -> Option<Table> {
        self.tables(outcome).into_iter().next()
    }
}

/// Every experiment, in report order.
pub static EXPERIMENTS: &[&dyn Experiment] = &[
    &staircase::Staircase,
    &probe::Probe,
    &loop_vs_pool::LoopVsPool,
    &starve::Starve,
    &spawn_bill::SpawnBill,
    &workers::Workers,
    &small_reads::SmallReads,
    &http::Http,
    &dispatch::Dispatch,
    &dns::Dns,
    &scope::Scope,
    &adaptive::Adaptive,
];

/// The experiment called `name`.
pub fn by_name(name: &str) -> Option<&'static dyn Experiment> {
    EXPERIMENTS.iter().copied().find(|e| e.name() == name)
}

/// Runs `f` once per repetition and merges the rows by median.
pub(crate) fn repeat(
    lab: &Lab,
    mut f: impl FnMut(usize) -> anyhow::Result<Vec<crate::outcome::Row>>,
) -> anyhow::Result<Vec<crate::outcome::Row>> {
    let mut reps = Vec::with_capacity(lab.reps());
    for i in 0..lab.reps() {
        reps.push(f(i)?);
    }
    Ok(crate::outcome::median_rows(reps))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_unique() {
        for (i, a) in EXPERIMENTS.iter().enumerate() {
            for b in &EXPERIMENTS[i + 1..] {
                assert_ne!(a.name(), b.name());
            }
        }
    }

    #[test]
    fn typed_getters_name_the_flag() {
        let mut a = Args::default();
        a.set("n", "1,x");
        assert_eq!(
            a.numbers("n", 1, 64).unwrap_err().to_string(),
            "--n \"x\" is not a number; expected 1..=64"
        );
        a.set("n", "1,0");
        assert_eq!(
            a.numbers("n", 1, 64).unwrap_err().to_string(),
            "--n \"0\" is out of range; expected 1..=64"
        );
        a.set("kind", "disk");
        assert_eq!(
            a.choice("kind", &["wait", "cpu"]).unwrap_err().to_string(),
            "--kind \"disk\": expected one of wait, cpu"
        );
        assert!(a.text("nope").is_err());
    }

    #[test]
    fn every_default_parses_through_its_getter_shape() {
        // Every spec has a non-empty default and report default.
        for e in EXPERIMENTS {
            for s in e.args() {
                assert!(
                    !s.default.is_empty() && !s.report.is_empty(),
                    "{} --{}",
                    e.name(),
                    s.name
                );
            }
        }
    }
}
