//! # sluice-lab
//!
//! The lab: every experiment of the seeds as a command, run against several
//! *subjects* side by side in one run on one machine: the real Node
//! (`node`), sluice's libuv policy (`sluice-compat`), sluice's lanes
//! (`sluice`) and tokio's `spawn_blocking` (`tokio`).
//!
//! - `experiment/`: one folder per experiment (its declaration and code,
//!   help, node script, Go program); the registry
//!   [`experiment::EXPERIMENTS`].
//! - `subject/`: one file per subject; the registry [`subject::SUBJECTS`].
//! - `lab.rs`: a run's context (its config and subjects), composed of
//!   `toolchain.rs` (node, Go, Go builds), `child/` (the child protocol
//!   and runner) and the run's record in `outcome.rs`.
//! - The DNS delay server and namespaced runs are the `sluice-testnet` crate.
//! - `report/`: terminal tables, JSON, SVG, Markdown.
//!
//! The `sluice` binary (crate `sluice-cli`) parses flags and calls
//! [`run_experiment`], [`run_report`] or [`child_main`]; nothing else.

pub mod child;
pub mod experiment;
pub mod lab;
mod libuv_ffi;
pub mod loadgen;
pub mod machine;
pub mod outcome;
mod pool_size;
pub mod procfs;
pub mod report;
pub mod subject;
pub mod sweep;
pub mod toolchain;
pub mod workload;

pub use child::{ChildRunner, Watch};
pub use experiment::{ArgSpec, Args, EXPERIMENTS, Experiment, ExperimentSpec, Kind};
pub use lab::{Lab, LabConfig};
pub use outcome::{Outcome, Row, Skipped};
pub use pool_size::PoolSize;
pub use toolchain::Toolchain;

use anyhow::Context;
use std::path::{Path, PathBuf};
use std::time::Instant;

/// Where an experiment's results go: the table on stdout, or (with
/// `json_stdout`) the JSON there and the table on stderr; and files.
#[derive(Debug, Clone, Default)]
pub struct Outputs {
    /// `--json`: the outcome as JSON on stdout (the table then goes to
    /// stderr, so stdout is one JSON document).
    pub json_stdout: bool,
    /// `--json-out FILE`: the outcome as JSON in FILE.
    pub json: Option<PathBuf>,
    /// `--svg FILE`.
    pub svg: Option<PathBuf>,
}

/// `(name, about)` of every experiment, for `sluice lab list`.
pub fn list() -> Vec<(&'static str, &'static str)> {
    EXPERIMENTS.iter().map(|e| (e.name, e.about())).collect()
}

/// Runs the experiment `name` and prints its tables to stdout; writes the
/// JSON and SVG files asked for.
pub fn run_experiment(
    name: &str,
    config: LabConfig,
    args: &Args,
    outputs: &Outputs,
) -> anyhow::Result<Outcome> {
    let exp = experiment::by_name(name).with_context(|| {
        format!(
            "unknown experiment {name:?}; `sluice lab list` shows them: {}",
            EXPERIMENTS
                .iter()
                .map(|e| e.name)
                .collect::<Vec<_>>()
                .join(", ")
        )
    })?;
    // Before minutes of running: the outputs must be writable.
    for (flag, path) in [("--json-out", &outputs.json), ("--svg", &outputs.svg)] {
        if let Some(path) = path {
            check_writable(flag, path)?;
        }
    }
    refuse_more_nodes(&config, exp.name)?;
    args.check()?;
    let lab = Lab::new(config)?;
    for s in lab.record().skipped() {
        eprintln!("sluice lab: skipping {}: {}", s.subject, s.reason);
    }
    let outcome = exp.experiment.run(&lab, args)?;
    if outputs.json_stdout {
        eprint!("{}", render_text(exp, &outcome));
        println!("{}", serde_json::to_string_pretty(&outcome)?);
    } else {
        print!("{}", render_text(exp, &outcome));
    }
    if let Some(path) = &outputs.json {
        report::json::write(&outcome, path)?;
    }
    if let Some(path) = &outputs.svg {
        match exp.figure(&outcome) {
            Some(figure) => report::svg::write(&figure, path)?,
            None => anyhow::bail!("--svg: experiment {name} has no chart"),
        }
    }
    Ok(outcome)
}

/// Checks that `path` can be written (its directory exists and takes a
/// new file; it is not a directory), before an experiment runs.
///
/// ```
/// let err = sluice_lab::check_writable("--json", "/nonexistent/x.json".as_ref()).unwrap_err();
/// assert_eq!(err.to_string(), "--json /nonexistent/x.json: the directory /nonexistent does not exist");
/// let dir = tempfile::tempdir()?;
/// sluice_lab::check_writable("--json", &dir.path().join("x.json"))?;
/// assert!(sluice_lab::check_writable("--json", dir.path()).unwrap_err().to_string().ends_with("is a directory; give a file path"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn check_writable(flag: &str, path: &std::path::Path) -> anyhow::Result<()> {
    let shown = path.display();
    if path.is_dir() {
        anyhow::bail!("{flag} {shown}: is a directory; give a file path");
    }
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => std::path::Path::new("."),
    };
    if !dir.is_dir() {
        anyhow::bail!(
            "{flag} {shown}: the directory {} does not exist",
            dir.display()
        );
    }
    tempfile::NamedTempFile::new_in(dir)
        .map(drop)
        .map_err(|e| anyhow::anyhow!("{flag} {shown}: cannot write in {}: {e}", dir.display()))
}

/// Refuses a repeated `--node` where `what` runs one node build.
fn refuse_more_nodes(config: &LabConfig, what: &str) -> anyhow::Result<()> {
    if config.more_nodes.is_empty() || what == "scope" || what == "report" {
        return Ok(());
    }
    anyhow::bail!(
        "--node given {} times: only `sluice lab scope` (and `sluice lab report`, for its scope section) compares node builds; `{what}` takes one --node",
        config.more_nodes.len() + 1
    )
}

/// The terminal text of an outcome: machine, tables, notes.
pub fn render_text(exp: &ExperimentSpec, outcome: &Outcome) -> String {
    let mut out = format!(
        "\n{} — {}\n{}\n\n",
        exp.name,
        exp.about(),
        outcome.machine.summary()
    );
    for t in exp.experiment.tables(outcome) {
        out.push_str(&report::table::render(&t));
        out.push('\n');
    }
    for n in &outcome.notes {
        out.push_str(&format!("note: {n}\n"));
    }
    for s in &outcome.skipped {
        out.push_str(&format!("skipped {}: {}\n", s.subject, s.reason));
    }
    out
}

/// What [`run_report`] wrote.
#[derive(Debug, Clone)]
pub struct ReportSummary {
    /// `REPORT.md`.
    pub markdown: PathBuf,
    /// One SVG per experiment with a chart.
    pub svgs: Vec<PathBuf>,
    /// One JSON per experiment.
    pub json: Vec<PathBuf>,
    /// Experiments that failed, with the error; the report still has the rest.
    pub failed: Vec<(String, String)>,
}

/// Runs every experiment with the report's small defaults and writes
/// `dir/REPORT.md`, `dir/<experiment>.svg` and `dir/<experiment>.json`.
/// The `node+sluice` subject's addon is built first (release, from this
/// workspace's source; cargo rebuilds only what changed).
/// With `--node` given several times, every experiment runs the first
/// build and `scope` compares them all in one table.
pub fn run_report(mut config: LabConfig, dir: &Path) -> anyhow::Result<ReportSummary> {
    config.report = true;
    config.build_addon = true;
    refuse_more_nodes(&config, "report")?;
    std::fs::create_dir_all(dir).with_context(|| format!("creating {}", dir.display()))?;
    let started = Instant::now();
    let pools_override = config.pools.clone();
    let tables_on_stderr = config.tables_on_stderr;
    let lab = Lab::new(config)?;
    for s in lab.record().skipped() {
        eprintln!("sluice lab report: skipping {}: {}", s.subject, s.reason);
    }
    let mut md = report_header(&lab, pools_override.is_some());
    let mut summary = ReportSummary {
        markdown: dir.join("REPORT.md"),
        svgs: Vec::new(),
        json: Vec::new(),
        failed: Vec::new(),
    };
    let mut body = String::new();
    let mut headlines = String::new();
    let mut outcomes = Vec::new();
    for &spec in EXPERIMENTS {
        body.push_str(&format!("\n## {}\n\n{}\n\n", spec.name, spec.long_about()));
        if lab.scale() == experiment::Scale::Report && !spec.in_short {
            body.push_str(&format!(
                "Not in the short report: `sluice lab report --full` runs it, and so does `sluice lab {}`.\n",
                spec.name
            ));
            continue;
        }
        eprintln!("sluice lab report: {} ...", spec.name);
        let t = Instant::now();
        let args = spec.default_args(lab.scale())?;
        let pools = lab.pools_for(spec);
        match spec.experiment.run(&lab, &args) {
            Ok(outcome) => {
                let seconds = t.elapsed().as_secs_f64();
                let out = Sections {
                    body: &mut body,
                    headlines: &mut headlines,
                    summary: &mut summary,
                    tables_on_stderr,
                };
                report_outcome(spec, (&args, &pools), &outcome, dir, seconds, out)?;
                outcomes.push(outcome);
            }
            Err(err) => {
                let msg = format!("{err:#}");
                eprintln!("sluice lab report: {} failed: {msg}", spec.name);
                body.push_str(&format!("**Failed:** {msg}\n"));
                summary.failed.push((spec.name.to_string(), msg));
            }
        }
    }
    for s in lab.record().skipped() {
        body.push_str(&format!("\nSkipped `{}`: {}\n", s.subject, s.reason));
    }
    md.push_str("\n## Headlines\n\nOne table per experiment; the full tables follow.\n\n");
    md.push_str(&headlines);
    md.extend(report::package::section(&outcomes));
    md.extend(report::seed004::section(&outcomes));
    md.push_str(&body);
    md.push_str(&format!(
        "\n---\nGenerated in {:.0} s.\n",
        started.elapsed().as_secs_f64()
    ));
    std::fs::write(&summary.markdown, md)
        .with_context(|| format!("writing {}", summary.markdown.display()))?;
    Ok(summary)
}

/// The report's title, machine, subjects and table of contents.
fn report_header(lab: &Lab, pools_overridden: bool) -> String {
    let mut md = String::new();
    md.push_str("# sluice lab report\n\n");
    md.push_str(&format!(
        "Machine: {}.\n\n",
        lab.record().machine().summary()
    ));
    md.push_str(&format!(
        "Subjects: {}.{}\n\n",
        lab.subjects()
            .iter()
            .map(|s| format!("`{}` ({})", s.name(), s.about()))
            .collect::<Vec<_>>()
            .join("; "),
        if pools_overridden {
            " Pool sizes overridden with --pools."
        } else {
            ""
        }
    ));
    md.push_str(match lab.scale() {
        experiment::Scale::FullReport => "The full report: every cell of every experiment (`sluice lab report --full`); `sluice lab report` alone runs the cells that show each seed's claim.\n\n",
        _ => "The short report: the cells that show each seed's claim, at short holds (`sluice lab report --full` runs every cell of every experiment).\n\n",
    });
    md.push_str(&report::seeds::section());
    md.push('\n');
    md.push_str(&format!(
        "Every number below was measured in this run; `sluice lab report{}` regenerates it.\n\n## Contents\n\n",
        if lab.scale() == experiment::Scale::FullReport { " --full" } else { "" }
    ));
    for spec in EXPERIMENTS {
        md.push_str(&format!(
            "- [{}](#{}) — {}\n",
            spec.name,
            spec.name,
            spec.about()
        ));
    }
    md
}

/// Where one experiment's part of the report goes.
struct Sections<'a> {
    body: &'a mut String,
    headlines: &'a mut String,
    summary: &'a mut ReportSummary,
    /// The text table on stderr instead of stdout.
    tables_on_stderr: bool,
}

/// One experiment's part of the report: its text on stdout, its JSON, the
/// command that reproduces it, its headline, tables, chart and notes.
fn report_outcome(
    spec: &ExperimentSpec,
    (args, pools): (&Args, &[PoolSize]),
    outcome: &Outcome,
    dir: &Path,
    seconds: f64,
    out: Sections<'_>,
) -> anyhow::Result<()> {
    let Sections {
        body,
        headlines,
        summary,
        tables_on_stderr,
    } = out;
    if tables_on_stderr {
        eprint!("{}", render_text(spec, outcome));
    } else {
        print!("{}", render_text(spec, outcome));
    }
    let json = dir.join(format!("{}.json", spec.name));
    report::json::write(outcome, &json)?;
    summary.json.push(json);
    let mut flags = args.command_line();
    flags.push(format!(
        "--pools {}",
        pools
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join(",")
    ));
    body.push_str(&format!(
        "Run: `sluice lab {} {}` ({:.1} s). Raw rows: [{}.json]({}.json).\n\n",
        spec.name,
        flags.join(" "),
        seconds,
        spec.name,
        spec.name
    ));
    let tables = spec.experiment.tables(outcome);
    if let Some(h) = spec.experiment.headline(outcome) {
        headlines.push_str(&format!(
            "### {}\n\n{}\n",
            spec.name,
            report::markdown::table(&h)
        ));
    }
    for tb in &tables {
        body.push_str(&report::markdown::table(tb));
        body.push('\n');
    }
    if let Some(figure) = spec.figure(outcome) {
        let svg = dir.join(format!("{}.svg", spec.name));
        report::svg::write(&figure, &svg)?;
        body.push_str(&format!("![{}]({}.svg)\n\n", spec.name, spec.name));
        summary.svgs.push(svg);
    }
    for n in &outcome.notes {
        body.push_str(&format!("- {n}\n"));
    }
    Ok(())
}

/// The child side of the `sluice`-binary subjects: `sluice lab-child
/// SUBJECT EXPERIMENT POOL PARAMS`. Runs the experiment's workload for the
/// subject's runtime and prints its JSON result.
pub fn child_main(subject: &str, experiment: &str, pool: &str, params: &str) -> anyhow::Result<()> {
    let e = experiment::by_name(experiment)
        .with_context(|| format!("unknown experiment {experiment:?}"))?;
    let s = subject::by_name(subject).with_context(|| format!("unknown subject {subject:?}"))?;
    let pool: PoolSize = pool.parse().map_err(anyhow::Error::msg)?;
    let workloads = &e.workloads;
    let out = match s.runtime() {
        subject::Runtime::Rust => {
            let w = workloads
                .rust
                .with_context(|| format!("{experiment} has no Rust workload"))?;
            let exec = s.executor(pool)?;
            let rt = subject::child_loop(true)?;
            w.run_json(&subject::ChildContext { exec, rt, pool }, params)?
        }
        subject::Runtime::Libuv => workloads
            .libuv
            .with_context(|| format!("{experiment} has no libuv workload"))?
            .run_json(params)?,
        other => anyhow::bail!("{subject} runs {other} workloads, not in sluice lab-child"),
    };
    println!("{out}");
    Ok(())
}
