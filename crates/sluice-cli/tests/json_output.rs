//! `--json` writes JSON to stdout on every command, `--json-out FILE`
//! writes the same document to a file: a lab experiment (its table then
//! on stderr), `sluice load` and `sluice doctor` against a served service.

mod common;

use common::serve::Serve;
use common::{Run, json_lines, refused, sluice};
use serde_json::Value;

/// The JSON document in the file at `path`.
fn file(path: &std::path::Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

/// The JSON lines in the file at `path`.
fn file_lines(path: &std::path::Path) -> Vec<Value> {
    json_lines(&std::fs::read_to_string(path).unwrap())
}

/// Runs `sluice ARGS --json-out FILE`.
fn json_out(args: &[&str], file: &std::path::Path) -> Run {
    Run::of(sluice().args(args).arg("--json-out").arg(file))
}

#[test]
fn a_lab_experiment_prints_its_outcome_and_the_table_goes_to_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("bill.json");
    let args = "lab spawn-bill --part bill --subjects sluice --pools 1 --no-progress --json";
    let out = json_out(&common::words(args), &out_file).ok();
    let stderr = &out.stderr;
    let v = out.json();
    assert_eq!(v["experiment"], "spawn-bill");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1, "{v}");
    assert_eq!(rows[0]["subject"], "sluice");
    assert_eq!(file(&out_file), v, "the file holds the same document");
    assert!(
        stderr.contains("threads_added") || stderr.contains("threads"),
        "{stderr}"
    );
}

#[test]
fn load_and_doctor_print_json_and_write_the_same_to_a_file() {
    let s = Serve::start(&[]);
    let dir = tempfile::tempdir().unwrap();
    let load_file = dir.path().join("load.json");
    let url = s.url("/ping");
    let out = json_out(&["load", &url, "-c", "2", "-n", "30", "--json"], &load_file).ok();
    let v = out.json();
    assert_eq!(v["sent"], 30, "{v}");
    assert_eq!(v["ok"], 30, "{v}");
    assert_eq!(file(&load_file), v);

    // --json-out without --json: the text on stdout, the JSON in the file.
    let doctor_file = dir.path().join("doctor.json");
    let metrics = s.url("/metrics");
    let doctor = [
        "doctor",
        "--url",
        &metrics,
        "--window",
        "500ms",
        "--lag-p99",
        "1s",
    ];
    let out = json_out(&doctor, &doctor_file).ok();
    assert!(out.stdout.contains("verdict: healthy"), "{}", out.stdout);
    let v = file(&doctor_file);
    assert_eq!(v["verdict"], "healthy", "{v}");
    assert_eq!(v["exit_code"], 0, "{v}");

    // An unwritable --json-out is refused before the window is waited for.
    let out = json_out(
        &["doctor", "--url", &metrics],
        "/nonexistent/d.json".as_ref(),
    );
    out.refused("--json-out /nonexistent/d.json: the directory /nonexistent does not exist");
}

#[test]
fn scope_writes_its_json_lines_to_a_file_too() {
    let marker = format!("sluice-json-out-{}", std::process::id());
    // A node with its pool of 2 started, idle; `marker` is its argument,
    // for `--all --cmdline`.
    let node = common::node::eval(common::node::IDLE_JS, &[&marker], 2);
    let pid = node.pid().to_string();
    let dir = tempfile::tempdir().unwrap();
    let both = dir.path().join("both.jsonl");
    let scope = ["scope", &pid, "--duration", "2", "--rate", "100"];
    let out = json_out(&[&scope[..], &["--json"]].concat(), &both).ok();
    let shown = out.json_lines();
    assert!(!shown.is_empty(), "no window on stdout");
    assert_eq!(file_lines(&both), shown, "the file holds the same lines");
    assert_eq!(shown[0]["pool_size"], 2, "{}", shown[0]);
    assert_eq!(shown[0]["verdict"], "healthy", "{}", shown[0]);

    // --json-out without --json: the text on stdout, the JSON in the file.
    let only = dir.path().join("only.jsonl");
    let text = json_out(&scope, &only).ok().stdout;
    assert!(text.contains("healthy"), "{text}");
    assert!(!text.contains('{'), "no JSON on stdout: {text}");
    let written = file_lines(&only);
    assert!(
        written.iter().filter(|v| v["verdict"] == "healthy").count() >= 1,
        "{written:?}"
    );
    assert!(
        written
            .iter()
            .all(|v| v["pid"] == node.pid() && v["timestamp"].is_string())
    );

    // --all: the same lines as stdout, each labelled with the process (the
    // run ended once the process has reported a window).
    let all = dir.path().join("all.jsonl");
    let all_arg = all.display().to_string();
    let run = common::scope_all_until(
        &[
            "--cmdline",
            &marker,
            "--rate",
            "100",
            "--json-out",
            &all_arg,
        ],
        &[node.pid()],
    );
    let node_pid = node.pid();
    drop(node);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let shown = run.json_lines();
    assert!(!shown.is_empty(), "no window on stdout");
    assert_eq!(file_lines(&all), shown);
    assert!(
        shown
            .iter()
            .all(|v| v["pid"] == node_pid && v["comm"] == "node" && v["verdict"] == "healthy"),
        "{shown:?}"
    );
}

#[test]
fn scope_refuses_an_unwritable_json_out_before_it_attaches() {
    // This test process is no Node process: had scope attached first, the
    // error would say so.
    let me = std::process::id().to_string();
    for args in [
        &["scope", &me, "--json-out", "/nonexistent/s.jsonl"][..],
        &["scope", "--all", "--json-out", "/nonexistent/s.jsonl"],
    ] {
        refused(
            args,
            "--json-out /nonexistent/s.jsonl: the directory /nonexistent does not exist",
        );
    }
}
