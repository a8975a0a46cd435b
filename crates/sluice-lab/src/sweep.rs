//! [`Sweep`]: the one loop of the lab. It owns repetitions × variants ×
//! pools × subjects, the progress bar, the medians over `--reps`, and the
//! subjects that cannot run a cell (skipped, with the reason in the notes).
//! An experiment describes one cell ([`Cell`]: which subject, which pool,
//! which variant) and turns its child's result into rows.

use crate::PoolSize;
use crate::child::Watch;
use crate::experiment::{self, ExperimentSpec};
use crate::lab::Lab;
use crate::outcome::{Outcome, Row, Skipped, median_rows};
use crate::subject::{SUBJECTS, SubjectSpec};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// One cell of a sweep.
pub struct Cell<'a, V> {
    /// The repetition, from 0.
    pub rep: usize,
    /// The experiment's variant (a kind, a scenario; `()` if none).
    pub variant: &'a V,
    /// The pool size.
    pub pool: PoolSize,
    /// The subject.
    pub subject: &'static SubjectSpec,
    lab: &'a Lab,
    spec: &'static ExperimentSpec,
}

impl<V> Cell<'_, V> {
    /// Runs this cell's child with `params` and reads its typed result;
    /// `watch`, if given, is ticked while it runs.
    pub fn call<P: Serialize, R: DeserializeOwned>(
        &self,
        params: &P,
        watch: Option<&mut dyn Watch>,
    ) -> anyhow::Result<R> {
        self.lab
            .call(self.subject, self.spec.name, self.pool, params, watch)
    }

    /// The lab the cell runs in.
    pub fn lab(&self) -> &Lab {
        self.lab
    }

    /// A row for this cell's subject with its `pool` parameter set.
    pub fn row(&self) -> Row {
        Row::new(self.subject.name()).param("pool", self.pool.to_value())
    }
}

/// Repetitions × variants × pools × subjects of one experiment.
pub struct Sweep<'l, V = ()> {
    lab: &'l Lab,
    spec: &'static ExperimentSpec,
    pools: Vec<PoolSize>,
    variants: Vec<(String, V)>,
    subjects: Vec<&'static SubjectSpec>,
    skipped: Vec<String>,
    unavailable: Vec<Skipped>,
}

impl<'l> Sweep<'l, ()> {
    /// The experiment's sweep: `--pools` (or its default pools), and every
    /// running subject that can run it; the others are skipped with their
    /// reason.
    pub fn new(lab: &'l Lab, spec: &'static ExperimentSpec) -> Self {
        let mut subjects = Vec::new();
        let mut skipped = Vec::new();
        for &s in lab.subjects() {
            match spec.cell(s) {
                experiment::Cell::Runs => subjects.push(s),
                experiment::Cell::Skipped(why) => skipped.push(why),
            }
        }
        Sweep {
            lab,
            spec,
            pools: lab.pools_for(spec),
            variants: vec![(String::new(), ())],
            subjects,
            skipped,
            unavailable: Vec::new(),
        }
    }
}

impl<'l, V> Sweep<'l, V> {
    /// Runs every cell once per variant; `label` names a variant on the
    /// progress bar.
    pub fn variants<W>(self, variants: Vec<W>, label: impl Fn(&W) -> String) -> Sweep<'l, W> {
        Sweep {
            lab: self.lab,
            spec: self.spec,
            pools: self.pools,
            variants: variants.into_iter().map(|v| (label(&v), v)).collect(),
            subjects: self.subjects,
            skipped: self.skipped,
            unavailable: self.unavailable,
        }
    }

    /// Keeps only the subjects `keep` accepts; the others are skipped with
    /// the reason it gives.
    pub fn only(mut self, keep: impl Fn(&SubjectSpec) -> Result<(), String>) -> Self {
        let mut skipped = Vec::new();
        self.subjects.retain(|s| match keep(s) {
            Ok(()) => true,
            Err(why) => {
                skipped.push(format!("{} skipped: {why}", s.name()));
                false
            }
        });
        self.skipped.extend(skipped);
        self
    }

    /// Adds the registry's subjects that `add` accepts and that can run the
    /// experiment, even if `--subjects` did not name them (a subject that
    /// exists for one experiment, added by its flag). One that cannot run
    /// on this machine is skipped with its reason.
    pub fn adding(mut self, add: impl Fn(&SubjectSpec) -> bool) -> Self {
        for &s in SUBJECTS {
            let known = self.subjects.iter().any(|o| o.name() == s.name());
            if known || !add(s) || self.spec.cell(s) != experiment::Cell::Runs {
                continue;
            }
            match s.unavailable(self.lab) {
                None => self.subjects.push(s),
                Some(reason) => {
                    self.skipped.push(format!("{} skipped: {reason}", s.name()));
                    self.unavailable.push(Skipped {
                        subject: s.name().to_string(),
                        reason,
                    });
                }
            }
        }
        self
    }

    /// The outcome of this sweep's rows and `notes`, with the subjects it
    /// skipped for want of something on this machine.
    pub fn outcome(&self, rows: Vec<Row>, notes: Vec<String>) -> Outcome {
        let mut o = self.lab.record().outcome(self.spec.name, rows, notes);
        o.skipped.extend(self.unavailable.iter().cloned());
        o
    }

    /// Runs with `pools` instead of the experiment's.
    pub fn with_pools(mut self, pools: Vec<PoolSize>) -> Self {
        self.pools = pools;
        self
    }

    /// The pool sizes.
    pub fn pools(&self) -> &[PoolSize] {
        &self.pools
    }

    /// Why subjects were left out of this sweep, one line each.
    pub fn skipped(&self) -> &[String] {
        &self.skipped
    }

    /// The subjects that run.
    pub fn subjects(&self) -> &[&'static SubjectSpec] {
        &self.subjects
    }

    /// True where a subject of `runtime` runs (a note about that runtime
    /// applies).
    pub fn runs(&self, runtime: crate::subject::Runtime) -> bool {
        self.subjects.iter().any(|s| s.runtime() == runtime)
    }

    /// Runs `cell` for every repetition, variant, pool and subject (in that
    /// nesting), with a progress bar, and merges the repetitions' rows by
    /// median.
    pub fn run(
        &self,
        cell: impl FnMut(&Cell<'_, V>) -> anyhow::Result<Vec<Row>>,
    ) -> anyhow::Result<Vec<Row>> {
        Ok(median_rows(self.run_reps(cell)?))
    }

    /// [`Sweep::run`] without the merge: each repetition's rows, in the
    /// order they ran (for an experiment that also reports how far its
    /// repetitions spread; `median_rows` merges them).
    pub fn run_reps(
        &self,
        mut cell: impl FnMut(&Cell<'_, V>) -> anyhow::Result<Vec<Row>>,
    ) -> anyhow::Result<Vec<Vec<Row>>> {
        let per_rep = self.variants.len() * self.pools.len() * self.subjects.len();
        let bar = self
            .lab
            .record()
            .progress((self.lab.reps() * per_rep) as u64, self.spec.name);
        let mut reps = Vec::with_capacity(self.lab.reps());
        for rep in 0..self.lab.reps() {
            let mut rows = Vec::new();
            for (label, variant) in &self.variants {
                for &pool in &self.pools {
                    for &subject in &self.subjects {
                        let sep = if label.is_empty() { "" } else { " " };
                        bar.set_message(format!("{}{sep}{label} pool {pool}", subject.name()));
                        let c = Cell {
                            rep,
                            variant,
                            pool,
                            subject,
                            lab: self.lab,
                            spec: self.spec,
                        };
                        rows.extend(cell(&c)?);
                        bar.inc(1);
                    }
                }
            }
            reps.push(rows);
        }
        bar.finish_and_clear();
        Ok(reps)
    }

    /// The notes every outcome of this sweep starts with: how each pool
    /// size maps onto each subject, then the subjects skipped and why.
    pub fn notes(&self) -> Vec<String> {
        let cores = self.lab.record().machine().cores;
        let mut notes: Vec<String> = self
            .subjects
            .iter()
            .flat_map(|s| self.pools.iter().map(move |&p| s.pool_note(p, cores)))
            .collect();
        notes.extend(self.skipped.iter().cloned());
        notes
    }
}
