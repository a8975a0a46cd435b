//! Subjects: the systems the lab measures side by side. One file each, and
//! one slice, [`SUBJECTS`], that lists them all.
//!
//! Every subject runs an experiment's workload in a child process of its
//! own, so thread counts and memory are its alone and the pool size is set
//! the only way libuv honours it: in the environment, before start.
//! - `node`: the real Node, running the experiment's generated script.
//! - `sluice`, `sluice-compat`, `tokio`: this very binary, re-executed as
//!   `sluice lab-child SUBJECT EXPERIMENT POOL PARAMS`, running the
//!   experiment's Rust workload on an [`Executor`] of that subject.

mod executor;
mod node;
pub(crate) mod sluice;
mod sluice_compat;
mod tokio;

pub use executor::{ChildContext, Done, Executor, Job, run_on};
pub use node::find_node;

use crate::PoolSize;
use crate::lab::Lab;
use std::process::Command;

/// Whether a subject is Node or a Rust pool inside the `sluice` binary.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// The real Node, driven by a generated script.
    Node,
    /// A pool run by `sluice lab-child`.
    Rust,
}

/// A system under test.
pub trait Subject: Sync {
    /// The name used in `--subjects`, tables and JSON rows.
    fn name(&self) -> &'static str;
    /// One line saying what it is.
    fn about(&self) -> &'static str;
    /// Node or Rust.
    fn kind(&self) -> Kind;
    /// Why it cannot run on this machine, if it cannot (what was looked
    /// for, how to fix it, how to skip it).
    fn unavailable(&self, lab: &Lab) -> Option<String>;
    /// How a pool size maps onto this subject, for the report's notes.
    fn pool_note(&self, pool: PoolSize, cores: usize) -> String;
    /// The child command for one run (program, args, environment). The lab
    /// adds stdout/stderr capture and the timeout.
    fn command(
        &self,
        lab: &Lab,
        experiment: &str,
        pool: PoolSize,
        params: &serde_json::Value,
    ) -> anyhow::Result<Command>;
    /// Builds the executor inside the child process (Rust subjects only).
    fn executor(&self, pool: PoolSize) -> anyhow::Result<Box<dyn Executor>>;
}

/// Every subject, in the order tables show them.
pub static SUBJECTS: &[&dyn Subject] = &[
    &node::Node,
    &sluice_compat::SluiceCompat,
    &sluice::Sluice,
    &tokio::Tokio,
];

/// The subject called `name`.
pub fn by_name(name: &str) -> Option<&'static dyn Subject> {
    SUBJECTS.iter().copied().find(|s| s.name() == name)
}

/// The child command for a Rust subject: this binary's hidden `lab-child`.
pub(crate) fn rust_child_command(
    lab: &Lab,
    subject: &str,
    experiment: &str,
    pool: PoolSize,
    params: &serde_json::Value,
) -> Command {
    let mut cmd = Command::new(lab.exe());
    cmd.arg("lab-child")
        .arg(subject)
        .arg(experiment)
        .arg(pool.to_string())
        .arg(params.to_string());
    cmd
}
