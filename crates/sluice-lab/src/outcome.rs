//! What an experiment produces: rows of measured metrics per subject and
//! parameters, the machine they were measured on, and notes. This is exactly
//! what `--json` prints and `--json-out FILE` writes. [`RunRecord`] is what
//! a lab run keeps for its outcomes: the machine, the subjects it skipped,
//! and its progress bars.

use crate::machine::Machine;
use crate::{experiment, subject};
use indicatif::{ProgressBar, ProgressStyle};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// The result of one experiment run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Outcome {
    /// The experiment's name, e.g. `staircase`.
    pub experiment: String,
    /// Where it ran.
    pub machine: Machine,
    /// One row per (subject, parameters): the measured metrics.
    pub rows: Vec<Row>,
    /// What the reader needs to interpret the rows: how pool sizes map to
    /// each subject, which stand-ins were used, what was calibrated.
    #[serde(default)]
    pub notes: Vec<String>,
    /// Subjects that did not run, and why.
    #[serde(default)]
    pub skipped: Vec<Skipped>,
}

/// A subject that was asked for but could not run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Skipped {
    /// The subject's name.
    pub subject: String,
    /// Why, and how to fix or skip it.
    pub reason: String,
}

/// Whose row a typed row is ([`Row::typed`]): its subject and pool size,
/// the first fields of every experiment's typed row.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct RowKey {
    /// The subject.
    pub subject: String,
    /// The pool size (`pool`: a number or `"unset"`).
    pub pool: crate::PoolSize,
}

impl RowKey {
    /// True for `subject`'s row at `pool`.
    pub fn is(&self, subject: &str, pool: crate::PoolSize) -> bool {
        self.subject == subject && self.pool == pool
    }
}

/// One measurement: a subject, the parameters it ran with, the metrics.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq)]
pub struct Row {
    /// `node`, `sluice`, `sluice-compat`, `tokio`, ...
    pub subject: String,
    /// e.g. `{"pool": 4, "n": 8}`; `pool` is a number or `"unset"`.
    pub params: BTreeMap<String, Value>,
    /// e.g. `{"total_ms": 207.0}` (names documented in docs/lab.md).
    pub metrics: BTreeMap<String, f64>,
}

impl Row {
    /// A row for `subject` with no params or metrics yet.
    pub fn new(subject: &str) -> Self {
        Row {
            subject: subject.to_string(),
            params: BTreeMap::new(),
            metrics: BTreeMap::new(),
        }
    }

    /// Adds a parameter.
    pub fn param(mut self, key: &str, value: impl Into<Value>) -> Self {
        self.params.insert(key.to_string(), value.into());
        self
    }

    /// Adds a metric.
    pub fn metric(mut self, key: &str, value: f64) -> Self {
        self.metrics.insert(key.to_string(), value);
        self
    }

    /// This row as an experiment's typed row `T`: one JSON object of its
    /// `subject`, params and metrics (the fields its `--json` row carries;
    /// a metric that is not a number reads as null). `None` where a field
    /// `T` needs is missing or of another type.
    pub fn typed<T: DeserializeOwned>(&self) -> Option<T> {
        let mut fields = serde_json::Map::new();
        fields.insert("subject".into(), self.subject.clone().into());
        fields.extend(self.params.clone());
        for (k, v) in &self.metrics {
            let n = serde_json::Number::from_f64(*v).map_or(Value::Null, Value::Number);
            fields.insert(k.clone(), n);
        }
        serde_json::from_value(Value::Object(fields)).ok()
    }

    /// A parameter's value as text (`4`, `unset`, `wait`).
    pub fn param_text(&self, key: &str) -> String {
        match self.params.get(key) {
            Some(Value::String(s)) => s.clone(),
            Some(v) => v.to_string(),
            None => String::new(),
        }
    }
}

impl Outcome {
    /// An outcome of `experiment` with `rows` on this machine, for tests.
    #[cfg(test)]
    pub(crate) fn of_rows(experiment: &str, rows: Vec<Row>) -> Outcome {
        Outcome {
            experiment: experiment.into(),
            machine: Machine::detect(None),
            rows,
            notes: Vec::new(),
            skipped: Vec::new(),
        }
    }

    /// The rows that read as `T` ([`Row::typed`]), in order: an
    /// experiment's result as its typed rows.
    pub fn typed_rows<T: DeserializeOwned>(&self) -> Vec<T> {
        self.rows.iter().filter_map(Row::typed).collect()
    }

    /// The rows matching `subject` and every `(key, value)` of `params`.
    pub fn find<'a>(
        &'a self,
        subject: &'a str,
        params: &'a [(&'a str, Value)],
    ) -> impl Iterator<Item = &'a Row> + 'a {
        self.rows.iter().filter(move |r| {
            r.subject == subject && params.iter().all(|(k, v)| r.params.get(*k) == Some(v))
        })
    }

    /// The metric of the first row matching `subject` and `params`.
    pub fn metric(&self, subject: &str, params: &[(&str, Value)], metric: &str) -> Option<f64> {
        self.find(subject, params)
            .next()
            .and_then(|r| r.metrics.get(metric).copied())
    }

    /// True if `row`'s pool is not the first pool size of this outcome (charts
    /// draw those lines dashed).
    pub fn is_later_pool(&self, row: &Row) -> bool {
        self.rows
            .first()
            .is_some_and(|first| first.params.get("pool") != row.params.get("pool"))
    }

    /// The distinct values of the parameter `key`, in first-seen order.
    pub fn distinct(&self, key: &str) -> Vec<Value> {
        let mut out: Vec<Value> = Vec::new();
        for r in &self.rows {
            if let Some(v) = r.params.get(key)
                && !out.contains(v)
            {
                out.push(v.clone());
            }
        }
        out
    }

    /// The distinct subjects, in first-seen order.
    pub fn subjects(&self) -> Vec<String> {
        let mut out: Vec<String> = Vec::new();
        for r in &self.rows {
            if !out.contains(&r.subject) {
                out.push(r.subject.clone());
            }
        }
        out
    }
}

/// What one lab run records beside its rows: the machine, the subjects
/// asked for that cannot run, and whether progress is drawn.
pub struct RunRecord {
    machine: Machine,
    skipped: Vec<Skipped>,
    progress: bool,
}

impl RunRecord {
    /// A record of a run on `machine`, nothing skipped yet.
    pub fn new(machine: Machine, progress: bool) -> RunRecord {
        RunRecord {
            machine,
            skipped: Vec::new(),
            progress,
        }
    }

    /// The machine.
    pub fn machine(&self) -> &Machine {
        &self.machine
    }

    /// The subjects that were asked for but cannot run.
    pub fn skipped(&self) -> &[Skipped] {
        &self.skipped
    }

    /// Records that `subject` cannot run, and why.
    pub fn skip(&mut self, subject: &str, reason: String) {
        self.skipped.push(Skipped {
            subject: subject.to_string(),
            reason,
        });
    }

    /// An outcome of this run's machine; its skipped subjects are those
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

    /// A progress bar on stderr (hidden when progress is off or stderr is
    /// not a terminal).
    pub fn progress(&self, len: u64, what: &str) -> ProgressBar {
        if !self.progress {
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
}

/// Merges repetitions: rows with the same subject and params are combined
/// into one whose every metric is the median of the repetitions.
pub fn median_rows(reps: Vec<Vec<Row>>) -> Vec<Row> {
    let mut order: Vec<(String, BTreeMap<String, Value>)> = Vec::new();
    let mut values: Vec<BTreeMap<String, Vec<f64>>> = Vec::new();
    for rep in reps {
        for row in rep {
            let key = (row.subject.clone(), row.params.clone());
            let idx = match order.iter().position(|k| *k == key) {
                Some(i) => i,
                None => {
                    order.push(key);
                    values.push(BTreeMap::new());
                    order.len() - 1
                }
            };
            for (m, v) in row.metrics {
                values[idx].entry(m).or_default().push(v);
            }
        }
    }
    order
        .into_iter()
        .zip(values)
        .map(|((subject, params), metrics)| Row {
            subject,
            params,
            metrics: metrics.into_iter().map(|(k, v)| (k, median(v))).collect(),
        })
        .collect()
}

/// The median of `v` (the mean of the middle two for an even count).
pub fn median(mut v: Vec<f64>) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let mid = v.len() / 2;
    if v.len() % 2 == 1 {
        v[mid]
    } else {
        (v[mid - 1] + v[mid]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn medians_merge_repetitions_per_subject_and_params() {
        let rep = |t: f64| {
            vec![
                Row::new("node").param("n", 1).metric("total_ms", t),
                Row::new("sluice").param("n", 1).metric("total_ms", t * 2.0),
            ]
        };
        let rows = median_rows(vec![rep(3.0), rep(1.0), rep(2.0)]);
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0].metrics["total_ms"], 2.0);
        assert_eq!(rows[1].metrics["total_ms"], 4.0);
        assert_eq!(median(vec![4.0, 1.0, 3.0, 2.0]), 2.5);
    }
}
