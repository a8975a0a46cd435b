//! Experiments: one folder per experiment of the seeds, and one slice,
//! [`EXPERIMENTS`], that lists them. `sluice lab list`, the command line,
//! the report's table of contents, the grid test and the test that runs
//! every experiment all iterate that slice.
//!
//! An experiment **declares** itself in one [`ExperimentSpec`] value (name,
//! flags, pools, the seed it reproduces, what it needs of a subject, its
//! Rust workload) and implements [`Experiment`] for what varies: how it
//! runs its cells ([`Experiment::run`], usually one [`Sweep`](crate::sweep::Sweep)),
//! and how its results are drawn ([`Experiment::tables`],
//! [`Experiment::chart`]). Its folder holds `mod.rs` (the declaration, plan
//! and tables), `child.rs` (the Rust subjects' workload, with the typed
//! params and result the node script shares), and the files `build.rs`
//! embeds by their names: `about.md` (its help), `<name>.js` (node's
//! workload) and `<name>.go` (the go subject's, where Go can run it).

mod adaptive;
mod app;
pub mod args;
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

/// The experiments' results as typed rows: the fields of their `--json`
/// rows, read with [`Outcome::typed_rows`]. The report reads these, never an
/// experiment's internals.
pub mod rows {
    pub use super::app::FloodRow;
    pub use super::dispatch::{PING_REQUEST, TripRow};
    pub use super::dns::LookupRow;
    pub use super::http::{HttpRow, LoadFigures, LoginShare};
    pub use super::loop_vs_pool::TimerRow;
    pub use super::probe::ProbeRow;
    pub use super::staircase::StaircaseRow;
    pub use super::starve::StarveRow;
}

pub use args::{ArgSpec, Args, Kind};

use crate::PoolSize;
use crate::child::{LibuvWorkload, RustWorkload};
use crate::lab::Lab;
use crate::outcome::Outcome;
use crate::report::{Chart, Table};
use crate::subject::{Need, Runtime, SubjectSpec};

/// What a subject's child runs for one experiment, per runtime.
#[derive(Clone, Copy)]
pub struct Workloads {
    /// Node's script (`<name>.js`): reads its JSON params from `argv[2]`,
    /// prints one JSON document (the experiment's result) as its last line.
    pub node: Option<&'static str>,
    /// The Rust subjects' workload (`child.rs`), on the subject's executor.
    pub rust: Option<&'static dyn RustWorkload>,
    /// A workload that drives a libuv loop of its own (the system libuv
    /// through FFI).
    pub libuv: Option<&'static dyn LibuvWorkload>,
    /// The Go subject's program (`<name>.go`, package main, standard
    /// library only): built once per lab run, run with its JSON params as
    /// `argv[1]`, prints one JSON document as its last line.
    pub go: Option<&'static str>,
}

impl Workloads {
    /// No workload for any runtime (experiments that start servers or
    /// watch from outside fill in only what they use).
    pub const NONE: Workloads = Workloads {
        node: None,
        rust: None,
        libuv: None,
        go: None,
    };

    /// Whether a subject of `runtime` has something to run.
    pub fn supports(&self, runtime: Runtime) -> bool {
        match runtime {
            Runtime::Node => self.node.is_some(),
            Runtime::Rust => self.rust.is_some(),
            Runtime::Libuv => self.libuv.is_some(),
            Runtime::Go => self.go.is_some(),
        }
    }
}

/// An experiment folder's own files, embedded by `build.rs` by their
/// names: `about.md`, `<folder>.js`, `<folder>.go`, each where it exists.
struct Folder {
    /// The folder's name (`loop_vs_pool`).
    name: &'static str,
    /// `about.md`: the one-line about, a blank line, the long help.
    about: Option<&'static str>,
    /// `<folder>.js`: node's script.
    node: Option<&'static str>,
    /// `<folder>.go`: the go subject's program.
    go: Option<&'static str>,
}

/// Every folder under `src/experiment/`, in name order.
const FOLDERS: &[Folder] = include!(concat!(env!("OUT_DIR"), "/experiment_files.rs"));

/// The folder of the experiment `name`: its name with `_` for `-`
/// (`loop-vs-pool` lives in `loop_vs_pool/`), if there is one.
const fn folder(name: &str) -> Option<&'static Folder> {
    let mut i = 0;
    while i < FOLDERS.len() {
        let (a, b) = (FOLDERS[i].name.as_bytes(), name.as_bytes());
        let mut same = a.len() == b.len();
        let mut j = 0;
        while same && j < a.len() {
            same = a[j] == b[j] || (a[j] == b'_' && b[j] == b'-');
            j += 1;
        }
        if same {
            return Some(&FOLDERS[i]);
        }
        i += 1;
    }
    None
}

/// An experiment's declaration: everything about it that is data, and the
/// experiment itself. Built in one expression with [`ExperimentSpec::new`]
/// and the builder methods below, so that it can be a `static`.
pub struct ExperimentSpec {
    /// The name: `sluice lab NAME`.
    pub name: &'static str,
    /// `about.md`: its first line is the one-line about, the rest the long
    /// help ([`ExperimentSpec::about`], [`ExperimentSpec::long_about`]).
    help: &'static str,
    /// What runs it and draws its results.
    pub experiment: &'static dyn Experiment,
    /// The seed section it reproduces, e.g. `seed 000 §5`.
    pub seed: &'static str,
    /// Its own flags.
    pub args: &'static [ArgSpec],
    /// Pool sizes when `--pools` is not given.
    pub pools: &'static [PoolSize],
    /// Pool sizes inside `sluice lab report --full`.
    pub report_pools: &'static [PoolSize],
    /// Pool sizes inside `sluice lab report` at its defaults (the short
    /// report), where they differ from `report_pools`.
    pub short_pools: Option<&'static [PoolSize]>,
    /// Flag values of the short report where they differ from the full
    /// report's ([`ArgSpec::report`]): the cells that show the seed's claim,
    /// fewer repetitions, shorter holds.
    pub short: &'static [(&'static str, &'static str)],
    /// Whether the short report runs it at all (false: only `sluice lab
    /// report --full` does; the short report's section says so).
    pub in_short: bool,
    /// What a subject must be able to do to run it.
    pub needs: &'static [Need],
    /// The workloads its children run, per runtime.
    pub workloads: Workloads,
    /// Whether its node script's pool work is made of the calls the sluice
    /// npm package's preload reroutes (`crypto.pbkdf2`, `zlib.gzip`,
    /// `fs.readFile`/`stat`, `dns.lookup`, ...), so that a subject running
    /// node with the preload (`node+sluice`) measures sluice there. Where it
    /// is false, such a subject is skipped with the reason.
    pub rerouted: bool,
    /// Why the go subject does not run it, where it has no Go program
    /// (shown in the notes instead of "no Go workload").
    pub why_no_go: Option<&'static str>,
    /// Whether its chart's x values are categories (pool sizes, probes,
    /// scenarios): `--svg` draws grouped bars, never lines between them.
    pub bars: bool,
}

/// Which defaults an experiment runs with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Scale {
    /// `sluice lab NAME`: the flags' defaults ([`ArgSpec::default`]).
    Command,
    /// `sluice lab report` at its defaults: the short report, the cells that
    /// show each seed's claim ([`ExperimentSpec::short`] over the full
    /// report's values).
    Report,
    /// `sluice lab report --full`: every cell ([`ArgSpec::report`]).
    FullReport,
}

/// Whether one (experiment, subject) cell of the grid runs.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Cell {
    /// The subject runs the experiment.
    Runs,
    /// It cannot, and why (shown in the experiment's notes).
    Skipped(String),
}

impl ExperimentSpec {
    /// The declaration of experiment `name`, run by `experiment`. Its help,
    /// node script and Go program are its folder's files (`about.md`,
    /// `<folder>.js`, `<folder>.go`, where they exist: see `build.rs`); no
    /// flags, needs or Rust workload yet, and the pool size left unset.
    ///
    /// ```
    /// use sluice_lab::report::{Chart, Table};
    /// use sluice_lab::{ArgSpec, Args, Experiment, ExperimentSpec, Kind, Lab, Outcome, PoolSize};
    ///
    /// struct Echo;
    /// impl Experiment for Echo {
    ///     fn run(&self, lab: &Lab, _args: &Args) -> anyhow::Result<Outcome> {
    ///         Ok(lab.record().outcome(SPEC.name, Vec::new(), Vec::new()))
    ///     }
    ///     fn tables(&self, _outcome: &Outcome) -> Vec<Table> {
    ///         Vec::new()
    ///     }
    ///     fn chart(&self, _outcome: &Outcome) -> Option<Chart> {
    ///         None
    ///     }
    /// }
    ///
    /// const ARGS: &[ArgSpec] = &[ArgSpec {
    ///     name: "n",
    ///     value_name: "N",
    ///     help: "tasks at once",
    ///     default: "4",
    ///     report: "2",
    ///     kind: Kind::Number { min: 1, max: 64 },
    /// }];
    ///
    /// static SPEC: ExperimentSpec = ExperimentSpec::new("echo", &Echo)
    ///     .seed("no seed")
    ///     .flags(ARGS)
    ///     .pools(&[PoolSize::Size(1), PoolSize::Size(4)])
    ///     .report_pools(&[PoolSize::Size(4)]);
    ///
    /// use sluice_lab::experiment::Scale;
    /// assert_eq!(SPEC.default_pools(Scale::Command).len(), 2);
    /// assert_eq!(SPEC.default_pools(Scale::FullReport), [PoolSize::Size(4)]);
    /// // No short-report values: the short report runs the full one's.
    /// assert_eq!(SPEC.default_pools(Scale::Report), [PoolSize::Size(4)]);
    /// assert_eq!(SPEC.default_args(Scale::Report)?.number("n")?, 2);
    /// assert_eq!(SPEC.args.len(), 1);
    /// // No folder `echo/` in the lab: no help, no node script or Go program.
    /// assert_eq!(SPEC.about(), "");
    /// assert!(SPEC.workloads.node.is_none() && SPEC.workloads.go.is_none());
    ///
    /// // `staircase/` holds about.md, staircase.js and staircase.go.
    /// let staircase = sluice_lab::experiment::by_name("staircase").unwrap();
    /// assert!(staircase.about().starts_with("n concurrent pool tasks"));
    /// assert!(staircase.workloads.node.unwrap().contains("process.argv[2]"));
    /// assert!(staircase.workloads.go.unwrap().contains("package main"));
    /// # Ok::<(), anyhow::Error>(())
    /// ```
    pub const fn new(name: &'static str, experiment: &'static dyn Experiment) -> Self {
        let (help, node, go) = match folder(name) {
            Some(f) => (f.about, f.node, f.go),
            None => (None, None, None),
        };
        ExperimentSpec {
            name,
            help: match help {
                Some(text) => text,
                None => "",
            },
            experiment,
            seed: "",
            args: &[],
            pools: &[PoolSize::Unset],
            report_pools: &[PoolSize::Unset],
            short_pools: None,
            short: &[],
            in_short: true,
            needs: &[],
            workloads: Workloads {
                node,
                go,
                ..Workloads::NONE
            },
            rerouted: false,
            why_no_go: None,
            bars: false,
        }
    }

    /// The seed section it reproduces.
    pub const fn seed(mut self, seed: &'static str) -> Self {
        self.seed = seed;
        self
    }

    /// Its own flags.
    pub const fn flags(mut self, args: &'static [ArgSpec]) -> Self {
        self.args = args;
        self
    }

    /// Its pool sizes when `--pools` is not given, also inside `sluice lab
    /// report` unless [`ExperimentSpec::report_pools`] says otherwise.
    pub const fn pools(mut self, pools: &'static [PoolSize]) -> Self {
        self.pools = pools;
        self.report_pools = pools;
        self
    }

    /// Its pool sizes inside `sluice lab report --full`, where they differ.
    pub const fn report_pools(mut self, pools: &'static [PoolSize]) -> Self {
        self.report_pools = pools;
        self
    }

    /// Its pool sizes inside the short report (`sluice lab report` at its
    /// defaults), where they differ from the full report's.
    pub const fn short_pools(mut self, pools: &'static [PoolSize]) -> Self {
        self.short_pools = Some(pools);
        self
    }

    /// Its flags' values inside the short report, where they differ from
    /// the full report's: `(flag, value)`.
    pub const fn short(mut self, values: &'static [(&'static str, &'static str)]) -> Self {
        self.short = values;
        self
    }

    /// Only the full report runs it (`sluice lab report --full`).
    pub const fn full_only(mut self) -> Self {
        self.in_short = false;
        self
    }

    /// What a subject must be able to do to run it.
    pub const fn needs(mut self, needs: &'static [Need]) -> Self {
        self.needs = needs;
        self
    }

    /// The Rust subjects' workload (`child.rs`).
    pub const fn rust(mut self, workload: &'static dyn RustWorkload) -> Self {
        self.workloads.rust = Some(workload);
        self
    }

    /// The libuv-ffi subject's workload.
    pub const fn libuv(mut self, workload: &'static dyn LibuvWorkload) -> Self {
        self.workloads.libuv = Some(workload);
        self
    }

    /// Why the go subject does not run it (it has no Go program).
    pub const fn no_go(mut self, why: &'static str) -> Self {
        self.why_no_go = Some(why);
        self
    }

    /// Its node script's pool work is made of the calls the sluice preload
    /// reroutes (the field `rerouted`).
    pub const fn rerouted(mut self) -> Self {
        self.rerouted = true;
        self
    }

    /// Its chart's x values are categories: drawn as grouped bars.
    pub const fn bars(mut self) -> Self {
        self.bars = true;
        self
    }

    /// What `--svg` draws: the experiment's own figure if it has one, else
    /// its chart as one panel, grouped bars where the spec says
    /// [`ExperimentSpec::bars`], lines otherwise.
    pub fn figure(&self, outcome: &Outcome) -> Option<crate::report::Figure> {
        self.experiment.figure(outcome).or_else(|| {
            let chart = self.experiment.chart(outcome)?;
            Some(if self.bars {
                crate::report::Figure::bars(vec![chart])
            } else {
                crate::report::Figure::lines(chart)
            })
        })
    }

    /// One line for `sluice lab list` and `--help`: `about.md`'s first line.
    pub fn about(&self) -> &'static str {
        self.help.lines().next().unwrap_or("").trim()
    }

    /// What it reproduces and how: `about.md` after its first line.
    pub fn long_about(&self) -> &'static str {
        self.help
            .split_once('\n')
            .map_or("", |(_, rest)| rest)
            .trim()
    }

    /// Whether the subject's own server is its workload here: an
    /// experiment that needs [`Need::HttpServer`] runs `sluice serve` for the
    /// Rust subjects (node runs the experiment's script).
    pub fn serves(&self, subject: &SubjectSpec) -> bool {
        self.needs.contains(&Need::HttpServer) && subject.runtime() == Runtime::Rust
    }

    /// Pool sizes at `scale`: the command's, the full report's or the
    /// short report's defaults.
    pub fn default_pools(&self, scale: Scale) -> Vec<PoolSize> {
        match scale {
            Scale::Command => self.pools,
            Scale::FullReport => self.report_pools,
            Scale::Report => self.short_pools.unwrap_or(self.report_pools),
        }
        .to_vec()
    }

    /// Its flags at their defaults at `scale` (the short report's values
    /// over the full report's).
    pub fn default_args(&self, scale: Scale) -> anyhow::Result<Args> {
        let mut args = Args::defaults(self.args, scale != Scale::Command);
        if scale == Scale::Report {
            for (name, value) in self.short {
                args.set(name, *value)?;
            }
        }
        Ok(args)
    }

    /// Whether `subject` can run this experiment: it has every capability
    /// the experiment needs, and the experiment has a workload for its
    /// runtime.
    pub fn cell(&self, subject: &SubjectSpec) -> Cell {
        for need in self.needs {
            if let Err(why) = subject.supports(*need) {
                return Cell::Skipped(format!(
                    "{} skipped: {} needs {need}, and {why}",
                    subject.name(),
                    self.name
                ));
            }
        }
        if subject.node_preload().is_some() && !self.rerouted {
            return Cell::Skipped(format!(
                "{} skipped: {} measures libuv's own pool (its sizes, threads or queue), not the calls the sluice preload reroutes; {} runs in {}",
                subject.name(),
                self.name,
                subject.name(),
                EXPERIMENTS
                    .iter()
                    .filter(|s| s.rerouted)
                    .map(|s| s.name)
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
        if !self.serves(subject) && !self.workloads.supports(subject.runtime()) {
            if let (Runtime::Go, Some(why)) = (subject.runtime(), self.why_no_go) {
                return Cell::Skipped(format!("{} skipped: {why}", subject.name()));
            }
            return Cell::Skipped(format!(
                "{} skipped: {} has no {} workload",
                subject.name(),
                self.name,
                subject.runtime()
            ));
        }
        Cell::Runs
    }
}

/// One experiment of the seeds: what varies between experiments.
pub trait Experiment: Sync {
    /// Runs the experiment: describes its cells to a sweep (or starts its
    /// own processes) and turns what the children print into rows.
    fn run(&self, lab: &Lab, args: &Args) -> anyhow::Result<Outcome>;
    /// Seed-style tables of an outcome, subjects side by side.
    fn tables(&self, outcome: &Outcome) -> Vec<Table>;
    /// A chart of an outcome, if the experiment has one.
    fn chart(&self, outcome: &Outcome) -> Option<Chart>;
    /// A figure of its own, where one chart is not enough (one panel per
    /// unit); `None` (the default) draws [`Experiment::chart`]
    /// ([`ExperimentSpec::figure`]).
    fn figure(&self, outcome: &Outcome) -> Option<crate::report::Figure> {
        let _ = outcome;
        None
    }
    /// The one table the report's headlines show (default: the first).
    fn headline(&self, outcome: &Outcome) -> Option<Table> {
        self.tables(outcome).into_iter().next()
    }
}

/// Every experiment, in report order.
pub static EXPERIMENTS: &[&ExperimentSpec] = &[
    &staircase::SPEC,
    &probe::SPEC,
    &loop_vs_pool::SPEC,
    &starve::SPEC,
    &spawn_bill::SPEC,
    &workers::SPEC,
    &small_reads::SPEC,
    &http::SPEC,
    &app::SPEC,
    &dispatch::SPEC,
    &dns::SPEC,
    &scope::SPEC,
    &adaptive::SPEC,
];

/// The experiment called `name`.
pub fn by_name(name: &str) -> Option<&'static ExperimentSpec> {
    EXPERIMENTS.iter().copied().find(|e| e.name == name)
}

/// The source `pick` takes from `experiment`'s workloads (its node script,
/// its Go program), or an error saying it has no `what`.
pub(crate) fn workload_source(
    experiment: &str,
    what: &str,
    pick: impl Fn(&Workloads) -> Option<&'static str>,
) -> anyhow::Result<&'static str> {
    let exp =
        by_name(experiment).ok_or_else(|| anyhow::anyhow!("unknown experiment {experiment:?}"))?;
    pick(&exp.workloads).ok_or_else(|| anyhow::anyhow!("{experiment} has no {what}"))
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
    use crate::subject::SUBJECTS;

    #[test]
    fn names_are_unique() {
        for (i, a) in EXPERIMENTS.iter().enumerate() {
            for b in &EXPERIMENTS[i + 1..] {
                assert_ne!(a.name, b.name);
            }
        }
    }

    /// Each folder under `src/experiment/` is one registered experiment's,
    /// with its help; each experiment has its folder.
    #[test]
    fn every_folder_is_an_experiment() {
        for f in FOLDERS {
            assert!(f.about.is_some(), "{}/ has no about.md", f.name);
            assert!(
                EXPERIMENTS
                    .iter()
                    .any(|e| folder(e.name).is_some_and(|g| g.name == f.name)),
                "{}/ belongs to no experiment of EXPERIMENTS",
                f.name
            );
        }
        assert_eq!(FOLDERS.len(), EXPERIMENTS.len());
    }

    #[test]
    fn every_spec_is_complete() {
        for e in EXPERIMENTS {
            let s = e;
            assert!(
                !s.about().is_empty() && !s.long_about().is_empty(),
                "{}",
                s.name
            );
            assert!(!s.seed.is_empty(), "{}", s.name);
            assert!(
                !s.pools.is_empty() && !s.report_pools.is_empty(),
                "{}",
                s.name
            );
            for a in s.args {
                assert!(
                    !a.default.is_empty() && !a.report.is_empty(),
                    "{} --{}",
                    s.name,
                    a.name
                );
            }
        }
    }

    /// Every flag's defaults (the command's, the full and the short
    /// report's) are values its kind accepts; a duration's former spelling,
    /// where it has one, is its name with `-ms`.
    #[test]
    fn every_default_is_a_value_of_its_kind() {
        for e in EXPERIMENTS {
            for scale in [Scale::Command, Scale::Report, Scale::FullReport] {
                let args = e.default_args(scale).unwrap();
                if let Err(err) = args.check() {
                    panic!("{} at {scale:?}: {err:#}", e.name);
                }
            }
            for a in e.args {
                if let Kind::Duration { old, .. } = a.kind {
                    if let Some(old) = old {
                        assert_eq!(old, format!("{}-ms", a.name), "{}", e.name);
                    }
                    assert_eq!(a.value_name, "DURATION", "{} --{}", e.name, a.name);
                }
            }
        }
    }

    /// The experiment × subject grid, built from the two registries: every
    /// cell either runs (the experiment has a workload for the subject's
    /// runtime, and `lab-child` finds it) or is skipped with a reason that
    /// names the subject.
    #[test]
    fn every_cell_of_the_grid_runs_or_says_why_not() {
        let mut runs = 0;
        let mut skipped = 0;
        for e in EXPERIMENTS {
            let spec = *e;
            for s in SUBJECTS {
                match spec.cell(s) {
                    Cell::Runs => {
                        runs += 1;
                        match s.runtime() {
                            Runtime::Node => assert!(
                                spec.workloads
                                    .node
                                    .is_some_and(|js| js.contains("process.argv")),
                                "{} on {}: no node script reading its params",
                                spec.name,
                                s.name()
                            ),
                            Runtime::Rust => {
                                assert!(spec.workloads.rust.is_some() || spec.serves(s))
                            }
                            Runtime::Libuv => assert!(spec.workloads.libuv.is_some()),
                            Runtime::Go => assert!(
                                spec.workloads
                                    .go
                                    .is_some_and(|go| go.contains("package main")
                                        && (go.contains("readParams(")
                                            || go.contains("os.Args[1]"))),
                                "{} on {}: no Go program reading its params",
                                spec.name,
                                s.name()
                            ),
                        }
                        for need in spec.needs {
                            assert!(s.supports(*need).is_ok());
                        }
                    }
                    Cell::Skipped(why) => {
                        skipped += 1;
                        assert!(
                            why.starts_with(s.name()) && why.len() > s.name().len() + 20,
                            "{} on {}: {why:?}",
                            spec.name,
                            s.name()
                        );
                    }
                }
            }
        }
        assert_eq!(runs + skipped, EXPERIMENTS.len() * SUBJECTS.len());
        // Every experiment runs on node, and every subject runs something.
        for e in EXPERIMENTS {
            assert!(
                SUBJECTS
                    .iter()
                    .any(|s| s.runtime() == Runtime::Node && e.cell(s) == Cell::Runs),
                "{}",
                e.name
            );
        }
        for s in SUBJECTS {
            assert!(
                EXPERIMENTS.iter().any(|e| e.cell(s) == Cell::Runs),
                "{} runs nothing",
                s.name()
            );
        }
    }

    /// A subject that runs node with the sluice preload runs exactly the
    /// experiments whose node script makes the calls it reroutes, and says
    /// where it runs in the others' notes.
    #[test]
    fn the_preloaded_node_runs_where_its_calls_are_rerouted() {
        let preloaded: Vec<_> = SUBJECTS
            .iter()
            .filter(|s| s.node_preload().is_some())
            .collect();
        assert_eq!(preloaded.len(), 1);
        let mut runs = Vec::new();
        for e in EXPERIMENTS {
            let spec = *e;
            match spec.cell(preloaded[0]) {
                Cell::Runs => runs.push(spec.name),
                // Skipped for what it cannot do (scope: attach), or for
                // what the experiment measures.
                Cell::Skipped(why) if !spec.rerouted => assert!(
                    why.contains(" needs ")
                        || (why.contains("not the calls the sluice preload reroutes")
                            && why.contains(" runs in ")
                            && why.contains("small-reads")),
                    "{}: {why}",
                    spec.name
                ),
                Cell::Skipped(why) => panic!("{}: rerouted, yet skipped: {why}", spec.name),
            }
        }
        runs.sort_unstable();
        assert_eq!(
            runs,
            [
                "app",
                "dispatch",
                "dns",
                "http",
                "probe",
                "small-reads",
                "starve"
            ]
        );
    }
}
