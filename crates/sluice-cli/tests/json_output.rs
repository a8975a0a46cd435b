//! `--json` writes JSON to stdout on every command, `--json-out FILE`
//! writes the same document to a file: a lab experiment (its table then
//! on stderr), `sluice load` and `sluice doctor` against a served service.

mod common;

use common::serve::Serve;
use common::sluice;
use serde_json::Value;

fn json(bytes: &[u8]) -> Value {
    serde_json::from_slice(bytes)
        .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(bytes)))
}

fn file(path: &std::path::Path) -> Value {
    json(&std::fs::read(path).unwrap())
}

#[test]
fn a_lab_experiment_prints_its_outcome_and_the_table_goes_to_stderr() {
    let dir = tempfile::tempdir().unwrap();
    let out_file = dir.path().join("bill.json");
    let out = sluice()
        .args([
            "lab",
            "spawn-bill",
            "--part",
            "bill",
            "--subjects",
            "sluice",
            "--pools",
            "1",
            "--no-progress",
            "--json",
            "--json-out",
        ])
        .arg(&out_file)
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(0), "{stderr}");
    let v = json(&out.stdout);
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
    let out = sluice()
        .args([
            "load",
            &s.url("/ping"),
            "-c",
            "2",
            "-n",
            "30",
            "--json",
            "--json-out",
        ])
        .arg(&load_file)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let v = json(&out.stdout);
    assert_eq!(v["sent"], 30, "{v}");
    assert_eq!(v["ok"], 30, "{v}");
    assert_eq!(file(&load_file), v);

    // --json-out without --json: the text on stdout, the JSON in the file.
    let doctor_file = dir.path().join("doctor.json");
    let out = sluice()
        .args(["doctor", "--url", &s.url("/metrics"), "--window", "500ms"])
        .args(["--lag-p99", "1s", "--json-out"])
        .arg(&doctor_file)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("verdict: healthy"), "{text}");
    let v = file(&doctor_file);
    assert_eq!(v["verdict"], "healthy", "{v}");
    assert_eq!(v["exit_code"], 0, "{v}");

    // An unwritable --json-out is refused before the window is waited for.
    let out = sluice()
        .args([
            "doctor",
            "--url",
            &s.url("/metrics"),
            "--json-out",
            "/nonexistent/d.json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("--json-out /nonexistent/d.json: the directory /nonexistent does not exist")
    );
}

/// A node with its pool of 2 started (one fs.stat), idle; `marker` is its
/// argument, for `--all --cmdline`.
fn idle_node(marker: &str) -> std::process::Child {
    let mut node = std::process::Command::new("node")
        .args([
            "-e",
            "require('fs').stat('.', () => console.log('ready')); setInterval(() => {}, 1 << 30);",
            marker,
        ])
        .env("UV_THREADPOOL_SIZE", "2")
        .stdout(std::process::Stdio::piped())
        .spawn()
        .expect("node on PATH");
    common::await_ready(&mut node);
    node
}

fn lines(bytes: &[u8]) -> Vec<Value> {
    String::from_utf8_lossy(bytes)
        .lines()
        .map(|l| json(l.as_bytes()))
        .collect()
}

#[test]
fn scope_writes_its_json_lines_to_a_file_too() {
    let marker = format!("sluice-json-out-{}", std::process::id());
    let mut node = idle_node(&marker);
    let pid = node.id().to_string();
    let dir = tempfile::tempdir().unwrap();
    let both = dir.path().join("both.jsonl");
    let out = sluice()
        .args([
            "scope",
            &pid,
            "--json",
            "--duration",
            "2",
            "--rate",
            "100",
            "--json-out",
        ])
        .arg(&both)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shown = lines(&out.stdout);
    assert!(!shown.is_empty(), "no window on stdout");
    assert_eq!(
        lines(&std::fs::read(&both).unwrap()),
        shown,
        "the file holds the same lines"
    );
    assert_eq!(shown[0]["pool_size"], 2, "{}", shown[0]);
    assert_eq!(shown[0]["verdict"], "healthy", "{}", shown[0]);

    // --json-out without --json: the text on stdout, the JSON in the file.
    let only = dir.path().join("only.jsonl");
    let out = sluice()
        .args([
            "scope",
            &pid,
            "--duration",
            "2",
            "--rate",
            "100",
            "--json-out",
        ])
        .arg(&only)
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{text}");
    assert!(text.contains("healthy"), "{text}");
    assert!(!text.contains('{'), "no JSON on stdout: {text}");
    let written = lines(&std::fs::read(&only).unwrap());
    assert!(
        written.iter().filter(|v| v["verdict"] == "healthy").count() >= 1,
        "{written:?}"
    );
    assert!(
        written
            .iter()
            .all(|v| v["pid"] == node.id() && v["timestamp"].is_string())
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
        &[node.id()],
    );
    let _ = node.kill();
    let _ = node.wait();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let shown = lines(run.stdout.as_bytes());
    assert!(!shown.is_empty(), "no window on stdout");
    assert_eq!(lines(&std::fs::read(&all).unwrap()), shown);
    assert!(
        shown
            .iter()
            .all(|v| v["pid"] == node.id() && v["comm"] == "node" && v["verdict"] == "healthy"),
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
        let out = sluice().args(args).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains(
                "--json-out /nonexistent/s.jsonl: the directory /nonexistent does not exist"
            ),
            "{args:?}: {err}"
        );
    }
}
