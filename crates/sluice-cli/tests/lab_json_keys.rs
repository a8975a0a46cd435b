//! The keys of `sluice lab NAME --json`, pinned in `testdata/lab_json.txt`
//! without running an experiment (nor Node):
//!
//! - `outcome:` the document every experiment writes ([`Outcome`]: the
//!   experiment, the machine, each row's `subject`, `params` and
//!   `metrics`, notes, skipped subjects), from an outcome with every
//!   optional part;
//! - `row TYPE:` the keys of the rows the report reads, by the typed row
//!   it reads them as (`sluice_lab::experiment::rows`; a row's `subject`,
//!   params and metrics are one object there), each with the JSON type it
//!   takes. The test checks that the typed row reads every key listed (a
//!   key it no longer reads, renamed or gone, fails) and needs no other.
//!
//! After a change that is meant (a rename documented in CHANGELOG.md), run
//! `SLUICE_BLESS=1 cargo test -p sluice-cli --test lab_json_keys`: it
//! writes the `outcome:` lines anew and, for each typed row, drops the keys
//! it no longer reads and adds those it needs (an optional field a typed
//! row gains is not needed, so is added by hand). Read the diff before
//! committing it.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};
use sluice_lab::experiment::rows::{
    FloodRow, HttpRow, LookupRow, ProbeRow, StaircaseRow, StarveRow, TimerRow, TripRow,
};
use sluice_lab::machine::Machine;
use sluice_lab::{Outcome, Row, Skipped};
use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Debug;

/// A typed row read from a JSON object: its `Debug` text, or serde's error.
type Reader = fn(Value) -> Result<String, String>;

fn reader<T: DeserializeOwned + Debug>(v: Value) -> Result<String, String> {
    serde_json::from_value::<T>(v)
        .map(|t| format!("{t:?}"))
        .map_err(|e| e.to_string())
}

/// Every typed row the report reads, by name.
const TYPED: &[(&str, Reader)] = &[
    ("FloodRow", reader::<FloodRow>),
    ("HttpRow", reader::<HttpRow>),
    ("LookupRow", reader::<LookupRow>),
    ("ProbeRow", reader::<ProbeRow>),
    ("StaircaseRow", reader::<StaircaseRow>),
    ("StarveRow", reader::<StarveRow>),
    ("TimerRow", reader::<TimerRow>),
    ("TripRow", reader::<TripRow>),
];

/// A value of JSON type `kind` (`string`, else a number).
fn sample(kind: &str) -> Value {
    match kind {
        "string" => json!("x"),
        _ => json!(1),
    }
}

/// The object of `keys`, each with a value of its type.
fn object(keys: &BTreeMap<String, String>) -> Value {
    Value::Object(
        keys.iter()
            .map(|(k, kind)| (k.clone(), sample(kind)))
            .collect::<Map<_, _>>(),
    )
}

/// Whether the typed row reads `key`: a value of no type it takes there
/// makes the row fail or read differently.
fn reads(read: Reader, keys: &BTreeMap<String, String>, key: &str) -> bool {
    let whole = read(object(keys));
    let mut v = object(keys);
    v[key] = json!({ "not": "a value" });
    read(v) != whole
}

/// The key paths of a JSON document: `a.b`, `a[]` for an array's elements
/// (its first read), `a.*` for `params` and `metrics`, whose keys are each
/// experiment's own.
fn key_paths(v: &Value, path: &str, out: &mut BTreeSet<String>) {
    match v {
        Value::Object(_) if path.ends_with("params") || path.ends_with("metrics") => {
            out.insert(format!("{path}.*"));
        }
        Value::Object(o) => {
            for (k, v) in o {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                out.insert(p.clone());
                key_paths(v, &p, out);
            }
        }
        Value::Array(a) => {
            if let Some(first) = a.first() {
                key_paths(first, &format!("{path}[]"), out);
            }
        }
        _ => {}
    }
}

/// The `outcome:` lines: an outcome with every optional part.
fn outcome_lines() -> BTreeSet<String> {
    let outcome = Outcome {
        experiment: "staircase".into(),
        machine: Machine {
            cores: 2,
            kernel: "6.1".into(),
            cpu: "cpu".into(),
            node: Some("v20".into()),
            libuv: Some("1.46".into()),
            go: Some("go1.22".into()),
        },
        rows: vec![Row::new("sluice").param("pool", 4).metric("total_ms", 1.0)],
        notes: vec!["a note".into()],
        skipped: vec![Skipped {
            subject: "go".into(),
            reason: "no go".into(),
        }],
    };
    let mut paths = BTreeSet::new();
    key_paths(&serde_json::to_value(&outcome).unwrap(), "", &mut paths);
    paths.into_iter().map(|p| format!("outcome: {p}")).collect()
}

/// The file's `row TYPE: KEY KIND` lines, by type.
fn typed_keys(text: &str) -> BTreeMap<String, BTreeMap<String, String>> {
    let mut out: BTreeMap<String, BTreeMap<String, String>> = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("row ") else {
            continue;
        };
        let (ty, key_kind) = rest.split_once(": ").expect("row TYPE: KEY KIND");
        let (key, kind) = key_kind.split_once(' ').expect("KEY KIND");
        out.entry(ty.into())
            .or_default()
            .insert(key.into(), kind.into());
    }
    out
}

/// `keys` made right for `read`: keys it does not read dropped, keys it
/// needs added (a number, or a string where a number is refused).
fn blessed(read: Reader, mut keys: BTreeMap<String, String>) -> BTreeMap<String, String> {
    for _ in 0..64 {
        match read(object(&keys)) {
            Ok(_) => break,
            Err(e) => {
                let missing = e
                    .strip_prefix("missing field `")
                    .and_then(|r| r.split('`').next())
                    .unwrap_or_else(|| panic!("{e}: not a missing field; edit by hand"));
                keys.insert(missing.into(), "number".into());
                if read(object(&keys)).is_err_and(|e| e.starts_with("invalid type")) {
                    keys.insert(missing.into(), "string".into());
                }
            }
        }
    }
    let all = keys.clone();
    keys.retain(|k, _| reads(read, &all, k));
    keys
}

#[test]
fn the_lab_json_keys_are_as_before() {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("testdata/lab_json.txt");
    let text = std::fs::read_to_string(&path).unwrap_or_default();
    let listed = typed_keys(&text);
    let outcome = outcome_lines();
    if std::env::var_os("SLUICE_BLESS").is_some_and(|v| v == "1") {
        let mut lines = outcome;
        for (ty, read) in TYPED {
            let keys = blessed(*read, listed.get(*ty).cloned().unwrap_or_default());
            lines.extend(keys.iter().map(|(k, kind)| format!("row {ty}: {k} {kind}")));
        }
        let text: String = lines.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&path, text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        return;
    }
    let want: BTreeSet<String> = text
        .lines()
        .filter(|l| l.starts_with("outcome: "))
        .map(String::from)
        .collect();
    let gone: Vec<&String> = want.difference(&outcome).collect();
    assert!(gone.is_empty(), "keys gone from the lab's --json: {gone:?}");
    let new: Vec<&String> = outcome.difference(&want).collect();
    assert!(
        new.is_empty(),
        "new keys (SLUICE_BLESS=1 writes them): {new:?}"
    );
    for (ty, read) in TYPED {
        let keys = listed
            .get(*ty)
            .unwrap_or_else(|| panic!("no `row {ty}:` lines in {}", path.display()));
        if let Err(e) = read(object(keys)) {
            panic!("{ty} needs a key the file does not list: {e}");
        }
        for key in keys.keys() {
            assert!(
                reads(*read, keys, key),
                "{ty} no longer reads `{key}`: a key of the lab's --json rows the report read is gone"
            );
        }
    }
    assert_eq!(
        listed.keys().map(String::as_str).collect::<Vec<_>>(),
        TYPED.iter().map(|(t, _)| *t).collect::<Vec<_>>(),
        "a typed row in the file is not in TYPED"
    );
}
