//! Subjects: the systems the lab measures side by side. One file each, and
//! one slice, [`SUBJECTS`], that lists them all.
//!
//! A subject carries its capabilities, so experiments never name one: its
//! [`Runtime`] (which of an experiment's workloads it runs), whether it has
//! lanes, how a pool size maps onto it ([`Subject::pool_note`]), and which
//! [`Need`]s beyond running a child it meets. An experiment a subject
//! cannot run is skipped with the reason in its notes
//! ([`ExperimentSpec::cell`](crate::experiment::ExperimentSpec::cell)).
//!
//! Every subject runs an experiment's workload in a child process of its
//! own, so thread counts and memory are its alone and the pool size is set
//! the only way libuv honours it: in the environment, before start.
//! - `node`: the real Node, running the experiment's script.
//! - `node+sluice`: the same, with the `sluice` npm package preloaded
//!   (`bindings/node`, `node -r sluice/patch`); in `sluice lab report` and
//!   when named, in the experiments whose node script makes the calls the
//!   preload reroutes.
//! - `sluice`, `sluice-compat`, `tokio`: this very binary, re-executed as
//!   `sluice lab-child SUBJECT EXPERIMENT POOL PARAMS`, running the
//!   experiment's Rust workload on an [`Executor`] of that subject.
//! - `libuv-ffi`: the same, running the experiment's libuv workload on the
//!   system libuv through FFI.
//! - `go`: the experiment's Go program (`<name>.go`), built once per lab
//!   run with the Go found on the machine; Go has no pool, so a pool size
//!   is `GOMAXPROCS`.

mod executor;
mod go;
mod libuv_ffi;
mod node;
mod node_sluice;
pub(crate) mod sluice;
mod sluice_compat;
mod tokio;

pub use executor::{
    ChildContext, Done, Executor, Job, LOOP_SPIN, Waves, child_loop, in_batched_waves, in_waves,
    run_on,
};

use crate::PoolSize;
use crate::lab::Lab;
use std::fmt;
use std::process::Command;

/// What runs a subject's side of an experiment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Runtime {
    /// The real Node, running the experiment's script.
    Node,
    /// A pool inside `sluice lab-child`, running the experiment's Rust
    /// workload on an [`Executor`].
    Rust,
    /// A libuv loop inside `sluice lab-child`, driven through FFI.
    Libuv,
    /// A Go program (the experiment's `<name>.go`), built once per lab run.
    Go,
}

impl fmt::Display for Runtime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Runtime::Node => "node",
            Runtime::Rust => "Rust",
            Runtime::Libuv => "libuv (FFI)",
            Runtime::Go => "Go",
        })
    }
}

/// What an experiment may need of a subject beyond running its workload.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Need {
    /// Serve the demo service's routes over HTTP (`/login`, `/ping`, ...):
    /// node with the experiment's script, a sluice pool with `sluice serve`.
    HttpServer,
    /// Be a process whose libuv pool `sluice scope` can attach to.
    Attach,
    /// Change its pool size from inside the running process.
    SetSizeInside,
}

impl fmt::Display for Need {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Need::HttpServer => "an HTTP server of the demo service",
            Need::Attach => "a libuv pool sluice scope can attach to",
            Need::SetSizeInside => "a pool size set from inside the process",
        })
    }
}

/// Whose threadpool rules a subject's pool follows. An experiment that
/// compares the rules themselves at their defaults (`adaptive`) runs one
/// subject of each: the first in table order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rules {
    /// libuv 1.46's pool: one FIFO, 4 threads, the slow-I/O rule (node,
    /// and the subjects that reproduce it).
    Libuv,
    /// sluice's lanes: Cpu, FastIo and SlowIo with budgets of their own,
    /// blocked threads compensated.
    Lanes,
    /// Rules no other subject shares.
    Own,
}

/// What a [`Setting`] changes, so that tables can find the run that
/// shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Tuning {
    /// Budgets stay fixed: blocked threads are not compensated.
    FixedBudgets,
    /// CPU threads are bound to cores; it matters to CPU-bound work only.
    CpuAffinity,
}

/// A subject run under one setting of its environment, measured beside
/// it as a row of its own where an experiment measures what the setting
/// changes (`adaptive`).
#[derive(Debug, Clone, Copy)]
pub struct Setting {
    /// Its row name in tables and JSON.
    pub name: &'static str,
    /// The environment variable it sets, and the value.
    pub env: (&'static str, &'static str),
    /// What it changes.
    pub tuning: Tuning,
    /// What it is, for the notes.
    pub about: &'static str,
}

/// A system under test: what it is, as data, and what it does
/// ([`SubjectSpec::subject`]). Declared as a struct literal that starts
/// from [`SubjectSpec::new`] (`..SubjectSpec::new(name, runtime, &Name)`),
/// so that it can be a `static`.
pub struct SubjectSpec {
    /// The name used in `--subjects`, tables and JSON rows.
    pub name: &'static str,
    /// One line saying what it is.
    pub about: &'static str,
    /// Which of an experiment's workloads it runs.
    pub runtime: Runtime,
    /// Whether its pool has lanes (Cpu, FastIo, SlowIo apart).
    pub lanes: bool,
    /// Whether it is the reference the others are compared to (ratio
    /// columns `X/node`).
    pub reference: bool,
    /// Its label in ratio columns (`compat/node`), if tables compare it
    /// with the reference.
    pub ratio_label: Option<&'static str>,
    /// The sluice policy its pool runs, if it is a sluice pool.
    pub policy: Option<::sluice::Policy>,
    /// Whether the pool size travels as `UV_THREADPOOL_SIZE` (libuv's
    /// rule) rather than in the child's arguments.
    pub size_in_env: bool,
    /// Whether `--subjects` left out means it runs; a subject that does not
    /// runs only when named, or when an experiment asks for it.
    pub by_default: bool,
    /// Whether `sluice lab report` runs it when `--subjects` is left out,
    /// even though single experiments run it only when named.
    pub in_report: bool,
    /// Whose threadpool rules its pool follows.
    pub rules: Rules,
    /// The settings it also runs under where an experiment measures them.
    pub settings: &'static [Setting],
    /// The [`Need`]s it does not meet, each with why (shown in the notes
    /// of the experiments that need it); it meets every other.
    pub cannot: &'static [(Need, &'static str)],
    /// What it does.
    pub subject: &'static dyn Subject,
}

impl SubjectSpec {
    /// The subject `name`, running `runtime`'s workloads, done by
    /// `subject`: no lanes, not the reference, no ratio column, its own
    /// rules, the size in its arguments, run by default, able to do what
    /// any experiment needs.
    pub const fn new(name: &'static str, runtime: Runtime, subject: &'static dyn Subject) -> Self {
        SubjectSpec {
            name,
            about: "",
            runtime,
            lanes: false,
            reference: false,
            ratio_label: None,
            policy: None,
            size_in_env: false,
            by_default: true,
            in_report: false,
            rules: Rules::Own,
            settings: &[],
            cannot: &[],
            subject,
        }
    }

    /// The name used in `--subjects`, tables and JSON rows.
    pub fn name(&self) -> &'static str {
        self.name
    }
    /// One line saying what it is.
    pub fn about(&self) -> &'static str {
        self.about
    }
    /// Which of an experiment's workloads it runs.
    pub fn runtime(&self) -> Runtime {
        self.runtime
    }
    /// Whether its pool has lanes.
    pub fn has_lanes(&self) -> bool {
        self.lanes
    }
    /// Whether it is the reference of ratio columns.
    pub fn is_reference(&self) -> bool {
        self.reference
    }
    /// Its label in ratio columns, if it has one.
    pub fn ratio_label(&self) -> Option<&'static str> {
        self.ratio_label
    }
    /// The sluice policy its pool runs, if it is a sluice pool.
    pub fn sluice_policy(&self) -> Option<::sluice::Policy> {
        self.policy.clone()
    }
    /// Whether the pool size travels as `UV_THREADPOOL_SIZE`.
    pub fn size_in_env(&self) -> bool {
        self.size_in_env
    }
    /// Whether it runs when `--subjects` is left out (`report`: inside
    /// `sluice lab report`).
    pub fn by_default(&self, report: bool) -> bool {
        self.by_default || (report && self.in_report)
    }
    /// Whose threadpool rules its pool follows.
    pub fn rules(&self) -> Rules {
        self.rules
    }
    /// The settings it also runs under where an experiment measures them.
    pub fn settings(&self) -> &'static [Setting] {
        self.settings
    }
    /// Whether it meets `need`; if not, why (shown in the notes).
    pub fn supports(&self, need: Need) -> Result<(), String> {
        match self.cannot.iter().find(|(n, _)| *n == need) {
            Some((_, why)) => Err((*why).to_string()),
            None => Ok(()),
        }
    }
    /// Where it runs work meant for `lane` ([`Subject::lane_label`]).
    pub fn lane_label(&self, lane: ::sluice::Lane) -> String {
        self.subject.lane_label(lane)
    }
    /// Why it cannot run on this machine ([`Subject::unavailable`]).
    pub fn unavailable(&self, lab: &Lab) -> Option<String> {
        self.subject.unavailable(lab)
    }
    /// Threads that run I/O waits at `pool` ([`Subject::wait_threads`]).
    pub fn wait_threads(&self, pool: PoolSize, cores: usize) -> usize {
        self.subject.wait_threads(pool, cores)
    }
    /// How a pool size maps onto it ([`Subject::pool_note`]).
    pub fn pool_note(&self, pool: PoolSize, cores: usize) -> String {
        self.subject.pool_note(pool, cores)
    }
    /// The script node preloads for it ([`Subject::node_preload`]).
    pub fn node_preload(&self) -> Option<std::path::PathBuf> {
        self.subject.node_preload()
    }
    /// Builds its executor inside the child process (Rust subjects only).
    pub fn executor(&self, pool: PoolSize) -> anyhow::Result<Box<dyn Executor>> {
        anyhow::ensure!(
            self.runtime == Runtime::Rust,
            "{} has no Rust executor",
            self.name
        );
        self.subject.executor(pool)
    }
    /// The child command for one run (program, args, environment), by its
    /// runtime: node runs the experiment's script (after
    /// [`Subject::node_preload`]), go the experiment's program
    /// [`Toolchain::go_program`](crate::Toolchain::go_program) built, the others this binary's hidden
    /// `lab-child`. The lab adds stdout/stderr capture and the timeout.
    pub fn command(
        &self,
        lab: &Lab,
        experiment: &str,
        pool: PoolSize,
        params: &serde_json::Value,
    ) -> anyhow::Result<Command> {
        match self.runtime {
            Runtime::Node => node::node_command(self.node_preload(), lab, experiment, pool, params),
            Runtime::Go => go::go_command(lab, experiment, pool, params),
            Runtime::Rust | Runtime::Libuv => {
                let mut cmd = Command::new(lab.runner().exe());
                cmd.arg("lab-child")
                    .arg(self.name)
                    .arg(experiment)
                    .arg(pool.to_string())
                    .arg(params.to_string());
                if self.size_in_env {
                    uv_threadpool_size(&mut cmd, pool);
                }
                Ok(cmd)
            }
        }
    }
}

/// What a subject does that differs from one subject to the next; what it
/// is lives in its [`SubjectSpec`].
pub trait Subject: Sync {
    /// Where it runs work meant for `lane`: the lane's name, or its one
    /// queue's (`spawn_blocking`) when it has no lanes to honour.
    fn lane_label(&self, lane: ::sluice::Lane) -> String {
        format!("{lane:?}")
    }
    /// Why it cannot run on this machine, if it cannot (what was looked
    /// for, how to fix it, how to skip it).
    fn unavailable(&self, lab: &Lab) -> Option<String> {
        let _ = lab;
        None
    }
    /// How many threads run I/O waits (sluice: its `FastIo` lane) at `pool`.
    fn wait_threads(&self, pool: PoolSize, cores: usize) -> usize {
        let _ = cores;
        pool.size().unwrap_or(4)
    }
    /// How a pool size maps onto this subject, for the report's notes.
    fn pool_note(&self, pool: PoolSize, cores: usize) -> String;
    /// The script node preloads with `-r` for this subject (node+sluice:
    /// the npm package's `patch.js`); `None` runs the script as it is.
    fn node_preload(&self) -> Option<std::path::PathBuf> {
        None
    }
    /// Builds the executor inside the child process (Rust subjects only).
    fn executor(&self, pool: PoolSize) -> anyhow::Result<Box<dyn Executor>> {
        let _ = pool;
        anyhow::bail!("no Rust executor")
    }
}

/// Every subject, in the order tables show them.
pub static SUBJECTS: &[&SubjectSpec] = &[
    &node::SPEC,
    &sluice_compat::SPEC,
    &sluice::SPEC,
    &tokio::SPEC,
    &libuv_ffi::SPEC,
    &node_sluice::SPEC,
    &go::SPEC,
];

/// Every subject's name, comma-separated, for errors and help.
pub fn names() -> String {
    SUBJECTS
        .iter()
        .map(|s| s.name())
        .collect::<Vec<_>>()
        .join(", ")
}

/// The subject called `name`.
pub fn by_name(name: &str) -> Option<&'static SubjectSpec> {
    SUBJECTS.iter().copied().find(|s| s.name() == name)
}

/// The setting of the registry's subjects that changes `tuning`, if one
/// does (tables find its row by this setting's name).
pub fn setting(tuning: Tuning) -> Option<&'static Setting> {
    SUBJECTS
        .iter()
        .flat_map(|s| s.settings())
        .find(|s| s.tuning == tuning)
}

/// Sets (or removes, for `Unset`) `UV_THREADPOOL_SIZE` in `cmd`.
pub(crate) fn uv_threadpool_size(cmd: &mut Command, pool: PoolSize) {
    match pool {
        PoolSize::Unset => cmd.env_remove("UV_THREADPOOL_SIZE"),
        PoolSize::Size(n) => cmd.env("UV_THREADPOOL_SIZE", n.to_string()),
    };
}

/// The pool note of a subject whose size is libuv's `UV_THREADPOOL_SIZE`.
pub(crate) fn uv_pool_note(name: &str, pool: PoolSize, extra: &str) -> String {
    match pool {
        PoolSize::Unset => format!("{name}: UV_THREADPOOL_SIZE unset (libuv's default, 4)"),
        PoolSize::Size(n) => format!("{name}: UV_THREADPOOL_SIZE={n}{extra}"),
    }
}

/// The reference subject among `names` (node), if it is there.
pub fn reference(names: &[String]) -> Option<&'static str> {
    names
        .iter()
        .filter_map(|n| by_name(n))
        .find(|s| s.is_reference())
        .map(|s| s.name())
}

/// A subject's short label in column headers (`compat busy`): its ratio
/// label if it has one, else its name.
pub fn short(name: &str) -> String {
    by_name(name)
        .and_then(|s| s.ratio_label())
        .unwrap_or(name)
        .to_string()
}

/// A ratio column of a table: `subject`'s figure over the reference's.
#[derive(Debug, Clone)]
pub struct Compared {
    /// The subject in the numerator.
    pub subject: &'static str,
    /// The reference in the denominator.
    pub reference: &'static str,
    /// The column's header, e.g. `compat/node`.
    pub header: String,
    /// Whether the subject has lanes.
    pub lanes: bool,
}

impl Compared {
    /// The column's cell: the subject's figure over the reference's, each
    /// read with `get` (`-` where either is missing).
    pub fn ratio(&self, get: impl Fn(&str) -> Option<f64>) -> String {
        crate::report::ratio(get(self.subject), get(self.reference))
    }
}

/// The ratio columns for the subjects `names` of an outcome: every subject
/// with a ratio label over the reference, in table order; none without the
/// reference.
pub fn compared(names: &[String]) -> Vec<Compared> {
    let Some(reference) = reference(names) else {
        return Vec::new();
    };
    SUBJECTS
        .iter()
        .filter(|s| names.iter().any(|n| n == s.name()))
        .filter_map(|s| {
            s.ratio_label().map(|label| Compared {
                subject: s.name(),
                reference,
                header: format!("{label}/{reference}"),
                lanes: s.has_lanes(),
            })
        })
        .collect()
}
