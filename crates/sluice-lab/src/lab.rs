//! [`Lab`]: one lab run, as the experiments receive it — its
//! configuration and the subjects that run, composed of the parts that do
//! the work: the [`Toolchain`] (node, Go, the built Go programs), the
//! [`ChildRunner`] (children, timeouts, namespaced runs, the scratch
//! directory) and the [`RunRecord`] (machine, skipped subjects, outcomes,
//! progress).

use crate::child::{ChildRunner, Watch};
use crate::machine::Machine;
use crate::outcome::RunRecord;
use crate::subject::{self, SubjectSpec};
use crate::toolchain::Toolchain;
use crate::{PoolSize, experiment};
use anyhow::{Context, bail};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// How a lab run is configured (validated by [`Lab::new`]).
#[derive(Debug, Clone)]
pub struct LabConfig {
    /// The `sluice` binary, re-executed for the Rust subjects' children.
    pub exe: PathBuf,
    /// `--node PATH`; otherwise node is looked up on `PATH`.
    pub node: Option<PathBuf>,
    /// `--node` given again: further node builds, compared side by side
    /// (only `lab scope` runs them; the other experiments refuse).
    pub more_nodes: Vec<PathBuf>,
    /// `--go PATH`; otherwise the newest Go on `PATH` or under
    /// `/usr/lib/go-*/bin` ([`crate::toolchain::find_go`]).
    pub go: Option<PathBuf>,
    /// `--subjects`; `None` means every available subject.
    pub subjects: Option<Vec<String>>,
    /// `--pools`; `None` means the experiment's default.
    pub pools: Option<Vec<PoolSize>>,
    /// `--reps`: repetitions, medians reported.
    pub reps: usize,
    /// Draw progress bars on stderr.
    pub progress: bool,
    /// Running inside `sluice lab report`: experiments use their report
    /// defaults (pools included).
    pub report: bool,
    /// With `report`: `sluice lab report --full`, every cell at the full
    /// report's values; without it the short report's
    /// ([`experiment::Scale`]).
    pub full: bool,
    /// The longest one child may run before it is killed.
    pub child_timeout: Duration,
    /// Print the experiments' tables on stderr, not stdout (`lab report
    /// --json` keeps stdout for its JSON).
    pub tables_on_stderr: bool,
    /// Build the `node+sluice` subject's addon (release) before checking
    /// it, when that subject is asked for: cargo rebuilds what changed, so
    /// the run measures the code it is run from. [`run_report`] sets it.
    ///
    /// [`run_report`]: crate::run_report
    pub build_addon: bool,
}

impl LabConfig {
    /// Defaults: every subject, experiment pools, one repetition, progress on.
    pub fn new(exe: PathBuf) -> Self {
        LabConfig {
            exe,
            node: None,
            more_nodes: Vec::new(),
            go: None,
            subjects: None,
            pools: None,
            reps: 1,
            progress: true,
            report: false,
            full: false,
            child_timeout: Duration::from_secs(180),
            tables_on_stderr: false,
            build_addon: false,
        }
    }
}

/// One lab run.
pub struct Lab {
    config: LabConfig,
    toolchain: Toolchain,
    runner: ChildRunner,
    record: RunRecord,
    subjects: Vec<&'static SubjectSpec>,
}

/// The subjects `--subjects` names (each once, in its order), or every
/// subject that runs by default (in a report, those marked for it).
fn wanted_subjects(config: &LabConfig) -> anyhow::Result<Vec<&'static SubjectSpec>> {
    Ok(match &config.subjects {
        None => subject::SUBJECTS
            .iter()
            .copied()
            .filter(|s| s.by_default(config.report))
            .collect(),
        Some(names) if names.is_empty() => bail!(
            "--subjects is empty; expected a comma-separated list of {} (or leave it out for every available one)",
            subject::names()
        ),
        Some(names) => {
            let mut out = Vec::new();
            for name in names {
                match subject::by_name(name) {
                    Some(s) if !out.iter().any(|o: &&SubjectSpec| o.name() == s.name()) => {
                        out.push(s)
                    }
                    Some(_) => {}
                    None => bail!(
                        "unknown subject {name:?}; expected one of {}",
                        subject::names()
                    ),
                }
            }
            out
        }
    })
}

impl Lab {
    /// Validates the configuration and finds the subjects. A subject that
    /// cannot run (no node) is skipped with its reason, the others run;
    /// an unknown subject name is an error.
    pub fn new(config: LabConfig) -> anyhow::Result<Lab> {
        if config.reps == 0 {
            bail!("--reps 0: expected at least 1 repetition");
        }
        let runner = ChildRunner::new(config.exe.clone(), config.child_timeout)?;
        let toolchain = Toolchain::find(&config, runner.scratch().join("go"))?;
        let mut machine = Machine::detect(toolchain.node().ok());
        machine.go = toolchain.go().ok().map(|g| g.version.clone());
        let wanted = wanted_subjects(&config)?;
        let mut lab = Lab {
            record: RunRecord::new(machine, config.progress),
            toolchain,
            runner,
            subjects: Vec::new(),
            config,
        };
        for s in wanted {
            match s.unavailable(&lab) {
                None => lab.subjects.push(s),
                Some(reason) => lab.record.skip(s.name(), reason),
            }
        }
        if lab.subjects.is_empty() {
            bail!(
                "no subject can run: {}",
                lab.record
                    .skipped()
                    .iter()
                    .map(|s| format!("{}: {}", s.subject, s.reason))
                    .collect::<Vec<_>>()
                    .join("; ")
            );
        }
        Ok(lab)
    }

    /// node, Go and the Go programs.
    pub fn toolchain(&self) -> &Toolchain {
        &self.toolchain
    }

    /// How children start, and the scratch directory.
    pub fn runner(&self) -> &ChildRunner {
        &self.runner
    }

    /// The machine, the skipped subjects, outcomes and progress.
    pub fn record(&self) -> &RunRecord {
        &self.record
    }

    /// The further node builds of a repeated `--node`.
    pub fn more_nodes(&self) -> &[PathBuf] {
        &self.config.more_nodes
    }

    /// The same lab with `node` as its node build, node alone (for an
    /// experiment that compares node builds).
    pub fn for_node(&self, node: &Path) -> anyhow::Result<Lab> {
        let mut config = self.config.clone();
        config.node = Some(node.to_path_buf());
        config.more_nodes = Vec::new();
        config.subjects = Some(vec!["node".to_string()]);
        Lab::new(config)
    }

    /// The subjects that run, in table order.
    pub fn subjects(&self) -> &[&'static SubjectSpec] {
        &self.subjects
    }

    /// `--pools`, or `exp`'s default at this lab's [`Lab::scale`].
    pub fn pools_for(&self, exp: &experiment::ExperimentSpec) -> Vec<PoolSize> {
        self.config
            .pools
            .clone()
            .unwrap_or_else(|| exp.default_pools(self.scale()))
    }

    /// Which defaults the experiments run with: a single command's, the
    /// short report's or the full report's.
    pub fn scale(&self) -> experiment::Scale {
        match (self.config.report, self.config.full) {
            (false, _) => experiment::Scale::Command,
            (true, false) => experiment::Scale::Report,
            (true, true) => experiment::Scale::FullReport,
        }
    }

    /// True inside `sluice lab report`.
    pub fn is_report(&self) -> bool {
        self.config.report
    }

    /// True when the `node+sluice` addon is built before it is checked
    /// ([`LabConfig::build_addon`]).
    pub fn builds_addon(&self) -> bool {
        self.config.build_addon
    }

    /// `--reps`.
    pub fn reps(&self) -> usize {
        self.config.reps
    }

    /// Runs one child: `subject` running `experiment`'s workload with `pool`
    /// and `params` (see [`crate::child`]), and reads the JSON document it
    /// printed last as `R`. `watch`, if given, is ticked while the child
    /// runs.
    pub fn call<P: serde::Serialize, R: serde::de::DeserializeOwned>(
        &self,
        subject: &SubjectSpec,
        experiment: &str,
        pool: PoolSize,
        params: &P,
        watch: Option<&mut dyn Watch>,
    ) -> anyhow::Result<R> {
        let what = format!("{} running {experiment} (pool {pool})", subject.name());
        let cmd = subject.command(self, experiment, pool, &serde_json::to_value(params)?)?;
        let got = self.runner.run_command(cmd, &what, watch)?;
        serde_json::from_value(got).with_context(|| {
            format!(
                "reading {}'s result for {experiment} (pool {pool})",
                subject.name()
            )
        })
    }

    /// Like [`Lab::call`] (untyped), with the child inside a private network
    /// and mount namespace whose only name server is a DNS delay server
    /// configured as `server` ([`ChildRunner::run_in_netns`]). Returns the
    /// child's JSON and the server's counts. `watch`, if given, is ticked
    /// while the child runs; the PID it gets is `sluice lab-netns`'s, the
    /// subject's parent (no PID namespace is made, so a PID the subject
    /// prints of itself is valid outside too).
    pub fn run_child_in_netns(
        &self,
        subject: &SubjectSpec,
        experiment: &str,
        pool: PoolSize,
        params: &Value,
        server: &sluice_testnet::dns_delay::DelayConfig,
        watch: Option<&mut dyn Watch>,
    ) -> anyhow::Result<(Value, sluice_testnet::dns_delay::Stats)> {
        let what = format!(
            "{} running {experiment} (pool {pool}) in a network namespace",
            subject.name()
        );
        let inner = subject.command(self, experiment, pool, params)?;
        self.runner.run_in_netns(&inner, &what, server, watch)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The subjects a lab runs or skips, by name.
    fn asked(lab: &Lab) -> Vec<String> {
        lab.subjects()
            .iter()
            .map(|s| s.name().to_string())
            .chain(lab.record().skipped().iter().map(|s| s.subject.clone()))
            .collect()
    }

    /// `node+sluice` is in every report (run, or skipped with how to build
    /// its addon) and in a single experiment only when named.
    #[test]
    fn node_sluice_is_asked_for_by_the_report_and_by_name() {
        let mut config = LabConfig::new(PathBuf::from("sluice"));
        let single = Lab::new(config.clone()).unwrap();
        assert!(!asked(&single).iter().any(|s| s == "node+sluice"));
        assert!(!asked(&single).iter().any(|s| s == "libuv-ffi"));
        config.report = true;
        let report = Lab::new(config.clone()).unwrap();
        assert!(asked(&report).iter().any(|s| s == "node+sluice"));
        assert!(!asked(&report).iter().any(|s| s == "libuv-ffi"));
        for s in report.record().skipped() {
            if s.subject == "node+sluice" && report.toolchain().node().is_ok() {
                assert!(
                    s.reason.contains("npm run build` in bindings/node"),
                    "{}",
                    s.reason
                );
                assert!(!s.reason.contains('\n'), "one line: {}", s.reason);
            }
        }
        config.report = false;
        config.subjects = Some(vec!["node+sluice".into(), "sluice".into()]);
        // Run or skipped (an addon not built is skipped, listed after the
        // subjects that run): both asked, nothing else.
        let mut named = asked(&Lab::new(config).unwrap());
        named.sort();
        assert_eq!(named, ["node+sluice", "sluice"]);
    }

    /// A lab that builds the addon (a report) and cannot: `node+sluice` is
    /// skipped with the build's failure on one line, the other subjects
    /// run. (The only test here that sets `build_addon`: the build runs
    /// once per process.)
    #[test]
    fn a_failed_addon_build_skips_node_sluice_with_the_reason() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let node = dir.path().join("node");
        std::fs::write(&node, "#!/bin/sh\nexit 3\n").unwrap();
        std::fs::set_permissions(&node, std::fs::Permissions::from_mode(0o755)).unwrap();
        let mut config = LabConfig::new(PathBuf::from("sluice"));
        config.node = Some(node);
        config.build_addon = true;
        config.subjects = Some(vec!["node+sluice".into(), "sluice".into()]);
        let lab = Lab::new(config).unwrap();
        assert_eq!(asked(&lab), ["sluice", "node+sluice"]);
        let reason = &lab.record().skipped()[0].reason;
        assert!(
            reason.starts_with("building the addon failed (`node scripts/build.js --release` in ")
                && reason.contains("bindings/node ended with exit status: 3"),
            "{reason}"
        );
        assert!(!reason.contains('\n'), "one line: {reason}");
    }
}
