//! [`Lab`]: one lab run's context — which subjects run, where node is, the
//! machine, and how a subject's child process is started and watched.

use crate::machine::Machine;
use crate::outcome::{Outcome, Row, Skipped};
use crate::subject::{self, SubjectSpec};
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
    /// `--go PATH`; otherwise the newest Go on `PATH` or under
    /// `/usr/lib/go-*/bin` ([`subject::find_go`]).
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
    go: Result<subject::GoToolchain, String>,
    /// The Go programs built so far, by experiment (built once per run;
    /// a failed build is kept too, so it is reported once).
    go_programs: std::sync::Mutex<std::collections::HashMap<String, Result<PathBuf, String>>>,
    machine: Machine,
    subjects: Vec<&'static SubjectSpec>,
    skipped: Vec<Skipped>,
    scripts: tempfile::TempDir,
    /// Numbers the stats files of namespaced runs.
    netns_runs: std::sync::atomic::AtomicUsize,
}

/// The helpers every experiment's Go program shares (pbkdf2-sha512, ms,
/// fail, monotonicNs), built beside its `main.go`.
const GO_COMMON: &str = include_str!("experiment/common.go");

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
        let node = subject::find_node(config.node.as_deref());
        if config.node.is_some()
            && let Err(e) = &node
        {
            bail!("{e}");
        }
        let wants_go = config
            .subjects
            .as_ref()
            .is_none_or(|names| names.iter().any(|n| n == "go"));
        let go = if wants_go || config.go.is_some() {
            subject::find_go(config.go.as_deref())
        } else {
            Err("go was not asked for".to_string())
        };
        if config.go.is_some()
            && let Err(e) = &go
        {
            bail!("{e}");
        }
        let mut machine = Machine::detect(node.as_deref().ok());
        machine.go = go.as_ref().ok().map(|g| g.version.clone());
        let wanted = wanted_subjects(&config)?;
        let mut lab = Lab {
            node,
            go,
            go_programs: Default::default(),
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

    /// The Go toolchain, or why there is none.
    pub fn go(&self) -> Result<&subject::GoToolchain, String> {
        self.go.as_ref().map_err(Clone::clone)
    }

    /// `experiment`'s Go program, built on first use into the scratch
    /// directory: its `<name>.go` as `main.go` beside a `go.mod` without
    /// requirements, built with module downloads off (`GOPROXY=off`,
    /// `GOFLAGS=-mod=mod`, `GOTOOLCHAIN=local`; no user `go env` file:
    /// `GOENV=off`), `GOPATH` in the scratch
    /// directory and the lab's own `GOCACHE` (kept between runs in the
    /// system's temporary directory, so the standard library is compiled
    /// once per machine, not per run).
    pub fn go_program(&self, experiment: &str) -> anyhow::Result<PathBuf> {
        let mut built = self
            .go_programs
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let result = built
            .entry(experiment.to_string())
            .or_insert_with(|| self.build_go(experiment).map_err(|e| format!("{e:#}")));
        result.clone().map_err(anyhow::Error::msg)
    }

    fn build_go(&self, experiment: &str) -> anyhow::Result<PathBuf> {
        let go = self.go().map_err(anyhow::Error::msg)?;
        let program = workload_source(experiment, "Go program", |w| w.go)?;
        let root = self.scripts.path().join("go");
        let dir = root.join(experiment);
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        std::fs::write(
            dir.join("go.mod"),
            format!("module sluicelab/{experiment}\n\ngo 1.19\n"),
        )?;
        std::fs::write(dir.join("main.go"), program)?;
        std::fs::write(dir.join("common.go"), GO_COMMON)?;
        let out = dir.join(format!("{experiment}-go"));
        let cache = std::env::var_os("SLUICE_GO_CACHE")
            .map(PathBuf::from)
            .unwrap_or_else(|| std::env::temp_dir().join("sluice-lab-go-cache"));
        let started = Instant::now();
        let result = std::process::Command::new(&go.path)
            .args(["build", "-trimpath", "-o"])
            .arg(&out)
            .arg(".")
            .current_dir(&dir)
            .env("GOCACHE", &cache)
            .env("GOPATH", root.join("gopath"))
            .env("GOPROXY", "off")
            .env("GOFLAGS", "-mod=mod")
            .env("GOTOOLCHAIN", "local")
            .env("GOSUMDB", "off")
            .env("GOWORK", "off")
            .env("GOENV", "off")
            .env("GO111MODULE", "on")
            .env_remove("GOOS")
            .env_remove("GOARCH")
            .stdin(Stdio::null())
            .output()
            .with_context(|| format!("starting {} build", go.path.display()))?;
        if !result.status.success() {
            bail!(
                "{} build of {experiment}.go failed ({}):\n{}",
                go.version,
                result.status,
                tail(&String::from_utf8_lossy(&result.stderr), 2000)
            );
        }
        if self.config.progress {
            eprintln!(
                "built {experiment}.go with {} in {:.1} s",
                go.version,
                started.elapsed().as_secs_f64()
            );
        }
        Ok(out)
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
    pub fn subjects(&self) -> &[&'static SubjectSpec] {
        &self.subjects
    }

    /// The subjects that were asked for but cannot run.
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
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

    /// A directory for this run's scratch files (FIFOs, data files).
    pub fn scratch(&self) -> &Path {
        self.scripts.path()
    }

    /// Writes `experiment`'s node script into the scratch directory (once)
    /// and returns its path.
    pub fn node_script(&self, experiment: &str) -> anyhow::Result<PathBuf> {
        let script = workload_source(experiment, "node script", |w| w.node)?;
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
        let got = self.run_command(cmd, &what, watch)?;
        serde_json::from_value(got).with_context(|| {
            format!(
                "reading {}'s result for {experiment} (pool {pool})",
                subject.name()
            )
        })
    }

    /// Like [`Lab::call`] (untyped), with the child inside a private network
    /// and mount namespace whose only name server is a DNS delay server
    /// configured as `server` (see [`sluice_testnet::netns`]). Returns the child's
    /// JSON and the server's counts; fails if the machine's
    /// `/etc/resolv.conf` changed (it never should). `watch`, if given, is
    /// ticked while the child runs; the PID it gets is `sluice lab-netns`'s,
    /// the subject's parent (no PID namespace is made, so a PID the subject
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
        let Captured {
            mut child,
            lines: line_rx,
            stdout: out_reader,
            stderr: err_reader,
        } = spawn_captured(&mut cmd, what)?;
        let pid = child.id();
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
        let spec = experiment::by_name(experiment);
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

/// A child whose stdin is closed and whose output is read on threads of
/// its own: stdout line by line (each line sent on `lines` as it comes, and
/// all of them returned by `stdout`), stderr whole.
pub(crate) struct Captured {
    /// The child.
    pub(crate) child: std::process::Child,
    /// Its stdout, a line at a time, as it prints them.
    pub(crate) lines: mpsc::Receiver<String>,
    /// Every line of its stdout, once it has closed it.
    pub(crate) stdout: std::thread::JoinHandle<Vec<String>>,
    /// Its stderr, once it has closed it.
    pub(crate) stderr: std::thread::JoinHandle<String>,
}

/// Starts `cmd` as a [`Captured`] child; `what` names it in the error.
pub(crate) fn spawn_captured(
    cmd: &mut std::process::Command,
    what: &str,
) -> anyhow::Result<Captured> {
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = cmd
        .spawn()
        .with_context(|| format!("starting {what}: {cmd:?}"))?;
    let out = child.stdout.take().expect("stdout is piped");
    let (tx, lines) = mpsc::channel();
    let stdout = std::thread::spawn(move || {
        let mut all = Vec::new();
        for line in BufReader::new(out).lines().map_while(Result::ok) {
            let _ = tx.send(line.clone());
            all.push(line);
        }
        all
    });
    let mut err = child.stderr.take().expect("stderr is piped");
    let stderr = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    Ok(Captured {
        child,
        lines,
        stdout,
        stderr,
    })
}

/// The source `pick` takes from `experiment`'s workloads (its node script,
/// its Go program), or an error saying it has no `what`.
fn workload_source(
    experiment: &str,
    what: &str,
    pick: impl Fn(&experiment::Workloads) -> Option<&'static str>,
) -> anyhow::Result<&'static str> {
    let exp = experiment::by_name(experiment)
        .with_context(|| format!("unknown experiment {experiment:?}"))?;
    pick(&exp.workloads).with_context(|| format!("{experiment} has no {what}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The subjects a lab runs or skips, by name.
    fn asked(lab: &Lab) -> Vec<String> {
        lab.subjects()
            .iter()
            .map(|s| s.name().to_string())
            .chain(lab.skipped().iter().map(|s| s.subject.clone()))
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
        for s in report.skipped() {
            if s.subject == "node+sluice" && report.node().is_ok() {
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
        let reason = &lab.skipped()[0].reason;
        assert!(
            reason.starts_with("building the addon failed (`node scripts/build.js --release` in ")
                && reason.contains("bindings/node ended with exit status: 3"),
            "{reason}"
        );
        assert!(!reason.contains('\n'), "one line: {reason}");
    }
}
