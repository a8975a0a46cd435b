//! [`Lab`]: one lab run's context — which subjects run, where node is, the
//! machine, and how a subject's child process is started and watched.

use crate::machine::Machine;
use crate::outcome::{Outcome, Row, Skipped};
use crate::subject::{self, Subject};
use crate::{PoolSize, experiment};
use anyhow::{Context, bail};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value;
use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::mpsc;
use std::time::{Duration, Instant};

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
    /// The longest one child may run before it is killed.
    pub child_timeout: Duration,
}

impl LabConfig {
    /// Defaults: every subject, experiment pools, one repetition, progress on.
    pub fn new(exe: PathBuf) -> Self {
        LabConfig {
            exe,
            node: None,
            more_nodes: Vec::new(),
            subjects: None,
            pools: None,
            reps: 1,
            progress: true,
            report: false,
            child_timeout: Duration::from_secs(180),
        }
    }
}

/// Called while a child runs, to watch it from outside (e.g. the FIFO
/// holder of the wait staircase).
pub trait Watch {
    /// One step: look at the child `pid`; `lines` are the stdout lines it
    /// printed since the last step. Should return within a millisecond or so.
    fn tick(&mut self, pid: u32, lines: &[String]) -> anyhow::Result<()>;
}

/// One lab run.
pub struct Lab {
    config: LabConfig,
    node: Result<PathBuf, String>,
    machine: Machine,
    subjects: Vec<&'static dyn Subject>,
    skipped: Vec<Skipped>,
    scripts: tempfile::TempDir,
    /// Numbers the stats files of namespaced runs.
    netns_runs: std::sync::atomic::AtomicUsize,
}

impl Lab {
    /// Validates the configuration and finds the subjects. A subject that
    /// cannot run (no node) is skipped with its reason, the others run;
    /// an unknown subject name is an error.
    pub fn new(config: LabConfig) -> anyhow::Result<Lab> {
        if config.reps == 0 {
            bail!("--reps 0: expected at least 1 repetition");
        }
        let node = subject::find_node(config.node.as_deref());
        if config.node.is_some()
            && let Err(e) = &node
        {
            bail!("{e}");
        }
        let machine = Machine::detect(node.as_deref().ok());
        let wanted: Vec<&'static dyn Subject> = match &config.subjects {
            None => subject::SUBJECTS
                .iter()
                .copied()
                .filter(|s| s.by_default())
                .collect(),
            Some(names) if names.is_empty() => bail!(
                "--subjects is empty; expected a comma-separated list of {} (or leave it out for every available one)",
                subject::names()
            ),
            Some(names) => {
                let mut out = Vec::new();
                for name in names {
                    match subject::by_name(name) {
                        Some(s) if !out.iter().any(|o: &&dyn Subject| o.name() == s.name()) => {
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
        };
        let mut lab = Lab {
            node,
            machine,
            subjects: Vec::new(),
            skipped: Vec::new(),
            scripts: tempfile::Builder::new().prefix("sluice-lab-").tempdir()?,
            netns_runs: std::sync::atomic::AtomicUsize::new(0),
            config,
        };
        for s in wanted {
            match s.unavailable(&lab) {
                None => lab.subjects.push(s),
                Some(reason) => lab.skipped.push(Skipped {
                    subject: s.name().to_string(),
                    reason,
                }),
            }
        }
        if lab.subjects.is_empty() {
            bail!(
                "no subject can run: {}",
                lab.skipped
                    .iter()
                    .map(|s| format!("{}: {}", s.subject, s.reason))
                    .collect::<Vec<_>>()
                    .join("; ")
            );
        }
        Ok(lab)
    }

    /// The `sluice` binary.
    pub fn exe(&self) -> &Path {
        &self.config.exe
    }

    /// The node binary, or why there is none.
    pub fn node(&self) -> Result<&Path, String> {
        self.node.as_deref().map_err(Clone::clone)
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

    /// The machine.
    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    /// The subjects that run, in table order.
    pub fn subjects(&self) -> &[&'static dyn Subject] {
        &self.subjects
    }

    /// The subjects that were asked for but cannot run.
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// `--pools`, or `exp`'s default (its report default inside a report).
    pub fn pools_for(&self, exp: &dyn experiment::Experiment) -> Vec<PoolSize> {
        self.config
            .pools
            .clone()
            .unwrap_or_else(|| exp.spec().default_pools(self.config.report))
    }

    /// True inside `sluice lab report`.
    pub fn is_report(&self) -> bool {
        self.config.report
    }

    /// `--reps`.
    pub fn reps(&self) -> usize {
        self.config.reps
    }

    /// A directory for this run's scratch files (FIFOs, data files).
    pub fn scratch(&self) -> &Path {
        self.scripts.path()
    }

    /// Writes `experiment`'s node script into the scratch directory (once)
    /// and returns its path.
    pub fn node_script(&self, experiment: &str) -> anyhow::Result<PathBuf> {
        let exp = experiment::by_name(experiment)
            .with_context(|| format!("unknown experiment {experiment:?}"))?;
        let script = exp
            .spec()
            .workloads
            .node
            .with_context(|| format!("{experiment} has no node script"))?;
        let path = self.scripts.path().join(format!("{experiment}.js"));
        if !path.exists() {
            std::fs::write(&path, script).with_context(|| format!("writing {}", path.display()))?;
        }
        Ok(path)
    }

    /// A progress bar on stderr (hidden when progress is off or stderr is
    /// not a terminal).
    pub fn progress(&self, len: u64, what: &str) -> ProgressBar {
        if !self.config.progress {
            return ProgressBar::hidden();
        }
        let bar = ProgressBar::new(len);
        bar.set_style(
            ProgressStyle::with_template("{prefix:>12} [{bar:30}] {pos}/{len} {elapsed:>4} {msg}")
                .expect("valid template")
                .progress_chars("=> "),
        );
        bar.set_prefix(what.to_string());
        bar
    }

    /// Runs one child: `subject` running `experiment`'s workload with `pool`
    /// and `params`. Returns the JSON document it printed last. `watch`, if
    /// given, is ticked while the child runs.
    pub fn run_child(
        &self,
        subject: &dyn Subject,
        experiment: &str,
        pool: PoolSize,
        params: &Value,
        watch: Option<&mut dyn Watch>,
    ) -> anyhow::Result<Value> {
        let what = format!("{} running {experiment} (pool {pool})", subject.name());
        let cmd = subject.command(self, experiment, pool, params)?;
        self.run_command(cmd, &what, watch)
    }

    /// [`Lab::run_child`] on the typed protocol: sends `params`, reads the
    /// child's result as `R` (see [`crate::child`]).
    pub fn call<P: serde::Serialize, R: serde::de::DeserializeOwned>(
        &self,
        subject: &dyn Subject,
        experiment: &str,
        pool: PoolSize,
        params: &P,
        watch: Option<&mut dyn Watch>,
    ) -> anyhow::Result<R> {
        let got = self.run_child(
            subject,
            experiment,
            pool,
            &serde_json::to_value(params)?,
            watch,
        )?;
        serde_json::from_value(got).with_context(|| {
            format!(
                "reading {}'s result for {experiment} (pool {pool})",
                subject.name()
            )
        })
    }

    /// Like [`Lab::run_child`], with the child inside a private network
    /// and mount namespace whose only name server is a DNS delay server
    /// configured as `server` (see [`sluice_testnet::netns`]). Returns the child's
    /// JSON and the server's counts; fails if the machine's
    /// `/etc/resolv.conf` changed (it never should). `watch`, if given, is
    /// ticked while the child runs; the PID it gets is `sluice lab-netns`'s,
    /// the subject's parent (no PID namespace is made, so a PID the subject
    /// prints of itself is valid outside too).
    pub fn run_child_in_netns(
        &self,
        subject: &dyn Subject,
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
        let guard = sluice_testnet::netns::HostGuard::snapshot();
        let stats = self.scratch().join(format!(
            "dns-stats-{}.json",
            self.netns_runs
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        let inner = subject.command(self, experiment, pool, params)?;
        let cmd = sluice_testnet::netns::wrap(self.exe(), &inner, server, &stats);
        let result = self.run_command(cmd, &what, watch);
        let counts = sluice_testnet::netns::finish(&stats, &guard);
        let result = result?;
        Ok((result, counts.with_context(|| what.clone())?))
    }

    /// Runs `cmd` as a child (stdin closed, stdout and stderr captured,
    /// the lab's timeout) and returns the JSON document it printed last;
    /// `watch`, if given, is ticked while it runs.
    pub fn run_command(
        &self,
        mut cmd: std::process::Command,
        what: &str,
        mut watch: Option<&mut dyn Watch>,
    ) -> anyhow::Result<Value> {
        cmd.stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = cmd
            .spawn()
            .with_context(|| format!("starting {what}: {cmd:?}"))?;
        let pid = child.id();
        let (line_tx, line_rx) = mpsc::channel::<String>();
        let stdout = child.stdout.take().expect("piped");
        let out_reader = std::thread::spawn(move || {
            let mut all = Vec::new();
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let _ = line_tx.send(line.clone());
                all.push(line);
            }
            all
        });
        let mut stderr = child.stderr.take().expect("piped");
        let err_reader = std::thread::spawn(move || {
            let mut s = String::new();
            let _ = stderr.read_to_string(&mut s);
            s
        });
        let start = Instant::now();
        let mut pending = Vec::new();
        let status = loop {
            if let Some(status) = child.try_wait()? {
                break status;
            }
            if start.elapsed() > self.config.child_timeout {
                let _ = child.kill();
                let _ = child.wait();
                bail!(
                    "{what} did not finish within {:?}; killed it",
                    self.config.child_timeout
                );
            }
            pending.extend(line_rx.try_iter());
            match watch.as_deref_mut() {
                Some(w) => {
                    if let Err(e) = w.tick(pid, &pending) {
                        let _ = child.kill();
                        let _ = child.wait();
                        return Err(e.context(format!("watching {what}")));
                    }
                    pending.clear();
                }
                None => std::thread::sleep(Duration::from_millis(2)),
            }
        };
        let lines = out_reader.join().unwrap_or_default();
        let stderr = err_reader.join().unwrap_or_default();
        if !status.success() {
            bail!("{what} failed ({status}):\n{}", tail(&stderr, 2000));
        }
        let last = lines
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .with_context(|| format!("{what} printed nothing; stderr:\n{}", tail(&stderr, 2000)))?;
        serde_json::from_str(last)
            .with_context(|| format!("{what} printed no JSON result: {last:?}"))
    }

    /// An outcome of this lab's machine; its skipped subjects are those
    /// that cannot run on this machine but would run `experiment`.
    pub fn outcome(&self, experiment: &str, rows: Vec<Row>, notes: Vec<String>) -> Outcome {
        let spec = experiment::by_name(experiment).map(|e| e.spec());
        let skipped = self
            .skipped
            .iter()
            .filter(|s| {
                let subject = subject::by_name(&s.subject);
                match (spec, subject) {
                    (Some(e), Some(s)) => e.cell(s) == experiment::Cell::Runs,
                    _ => true,
                }
            })
            .cloned()
            .collect();
        Outcome {
            experiment: experiment.to_string(),
            machine: self.machine.clone(),
            rows,
            notes,
            skipped,
        }
    }

    /// The pool notes for every running subject and pool.
    pub fn pool_notes(&self, pools: &[PoolSize]) -> Vec<String> {
        let mut notes = Vec::new();
        for s in &self.subjects {
            for &p in pools {
                notes.push(s.pool_note(p, self.machine.cores));
            }
        }
        notes
    }
}

fn tail(s: &str, max: usize) -> &str {
    let start = s.len().saturating_sub(max);
    let mut i = start;
    while !s.is_char_boundary(i) {
        i += 1;
    }
    &s[i..]
}
