//! Every experiment in the registry is reachable from the command line,
//! documents its flags, and draws an empty outcome without panicking.

mod common;

use common::sluice;
use sluice_lab::{EXPERIMENTS, Outcome, machine::Machine};

#[test]
fn every_experiment_is_listed_and_has_help() {
    let list = sluice().args(["lab", "list"]).output().unwrap();
    let listed = String::from_utf8_lossy(&list.stdout);
    for e in EXPERIMENTS {
        assert!(
            listed.lines().any(|l| l.starts_with(e.name)),
            "{} missing from `sluice lab list`",
            e.name
        );
        let help = sluice().args(["lab", e.name, "--help"]).output().unwrap();
        assert!(help.status.success(), "{}", e.name);
        let text = String::from_utf8_lossy(&help.stdout);
        for a in e.args {
            // A duration is shown with its placeholder (its former
            // whole-milliseconds spelling is hidden, still read).
            let shown = match a.kind {
                sluice_lab::Kind::Duration { old, .. } => {
                    if let Some(old) = old {
                        assert!(!text.contains(&format!("--{old} ")), "{old}");
                    }
                    format!("--{} <DURATION>", a.name)
                }
                _ => format!("--{}", a.name),
            };
            assert!(text.contains(&shown), "{}: {shown} not in --help", e.name,);
        }
        for common in [
            "--subjects",
            "--pools",
            "--reps",
            "--json",
            "--json-out",
            "--svg",
            "--node",
        ] {
            assert!(text.contains(common), "{}: {common} not in --help", e.name);
        }
    }
}

#[test]
fn lab_list_json_names_every_experiment() {
    let out = sluice().args(["lab", "list", "--json"]).output().unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("JSON on stdout");
    let list = v.as_array().unwrap();
    assert_eq!(list.len(), EXPERIMENTS.len());
    for (item, e) in list.iter().zip(EXPERIMENTS) {
        assert_eq!(item["name"], e.name);
        assert_eq!(item["about"], e.about());
    }
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("list.json");
    let out = sluice()
        .args(["lab", "list", "--json-out"])
        .arg(&file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let written: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&file).unwrap()).unwrap();
    assert_eq!(written, v);
    assert!(String::from_utf8_lossy(&out.stdout).contains("staircase"));
}

#[test]
fn every_experiment_draws_an_empty_outcome() {
    for e in EXPERIMENTS {
        let empty = Outcome {
            experiment: e.name.to_string(),
            machine: Machine::detect(None),
            rows: Vec::new(),
            notes: Vec::new(),
            skipped: Vec::new(),
        };
        let _ = e.experiment.tables(&empty);
        let _ = e.experiment.chart(&empty);
        if let Some(f) = e.figure(&empty) {
            sluice_lab::report::svg::render(&f).unwrap();
        }
        let _ = e.experiment.headline(&empty);
        assert!(
            !e.about().is_empty() && !e.long_about().is_empty(),
            "{}",
            e.name
        );
        assert!(
            e.workloads.node.is_some_and(|js| !js.is_empty()),
            "{}",
            e.name
        );
    }
}
