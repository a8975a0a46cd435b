//! `sluice scope` end to end: errors, the faces (text, JSON lines,
//! Prometheus), the end of a run, probe cleanup on every way out, and the
//! lab check. Counts and text only, never durations.

mod common;

use common::{
    Killed, assert_contains, free_addr, get10, lab, line_with, refused, run, sluice, spawn_piped,
};
use serde_json::Value;
use sluice_scope::probe::tracefs::Tracefs;
use std::io::{BufRead, BufReader};
use std::process::Command;

/// A node process with its pool of `pool` started (one fs.stat), idle;
/// killed on drop.
fn idle(pool: u32) -> Killed {
    common::node::eval(common::node::IDLE_JS, &[], pool)
}

#[test]
fn bad_input_is_named_with_the_fix() {
    refused(&["scope", "node"], "PID \"node\": not a process id");
    refused(&["scope", "0"], "0 is not a process");
    refused(
        &["scope", "99999999"],
        "no process 99999999: /proc/99999999 does not exist",
    );
    let sleeper = Killed(Command::new("sleep").arg("30").spawn().unwrap());
    let pid = sleeper.pid().to_string();
    refused(&["scope", &pid, "--json"], "is not a Node process");
    drop(sleeper);
    // This test process, with one bad flag each.
    let me = std::process::id().to_string();
    for (flags, want) in [
        ("--rate 0", "--rate \"0\": expected samples per second"),
        ("--duration soon", "--duration \"soon\": expected a time"),
        (
            "--prometheus 9464",
            "--prometheus \"9464\": expected IP:PORT",
        ),
        ("--discover psychic", "--discover \"psychic\""),
        ("--json --prometheus 127.0.0.1:1", "cannot be used with"),
    ] {
        let mut args = vec!["scope", &me];
        args.extend(common::words(flags));
        refused(&args, want);
    }
}

#[test]
fn json_lines_carry_the_figures_and_the_summary_goes_to_stderr() {
    let node = idle(4);
    let pid = node.pid().to_string();
    let out = run(&["scope", &pid, "--json", "--duration", "1", "--rate", "100"]).ok();
    let lines = out.json_lines();
    assert_eq!(lines.len(), 1, "one window in one second");
    for v in &lines {
        // The members every report has (scope's own list), and five more.
        let more = [
            "evidence",
            "queue_depth",
            "sampler_cpu_pct",
            "threads",
            "timestamp",
        ];
        for k in sluice_scope::verdict::aggregate::ALWAYS_IN_JSON
            .iter()
            .chain(&more)
        {
            assert!(v.get(k).is_some(), "{k} missing: {v}");
        }
        assert!(
            v["timestamp"].as_str().unwrap().ends_with('Z'),
            "an RFC 3339 UTC time: {v}"
        );
        assert_eq!(v["pool_size"], 4);
        assert_eq!(v["threads"].as_array().unwrap().len(), 4);
        assert_eq!(v["pid"].to_string(), pid);
    }
    assert_contains(
        &out.stderr,
        &["pool of 4 threads (", "sluice scope summary"],
    );
}

#[test]
fn text_lines_when_stdout_is_not_a_terminal() {
    let node = idle(2);
    let out = run(&["scope", &node.pid().to_string(), "--duration", "500ms"]).ok();
    assert_contains(
        &out.stdout,
        &[
            "pool of 2 threads",
            "util%   sat%  loop%",
            "healthy",
            "verdicts (windows): healthy 1",
        ],
    );
}

#[test]
fn the_prometheus_exporter_serves_the_pool() {
    let node = idle(3);
    let pid = node.pid().to_string();
    let addr = free_addr();
    let args = ["scope", &pid, "--prometheus", &addr, "--duration", "30"];
    let mut scope = Killed(spawn_piped(sluice().args(args)));
    // The first window's text line: the exporter has its first page.
    line_with(scope.0.stdout.as_mut().unwrap(), "healthy");
    let page = get10(&addr, "/metrics");
    let other = get10(&addr, "/");
    drop(scope);
    assert!(page.lines().next().unwrap().contains(" 200 "), "{page}");
    for want in [
        format!("sluice_scope_pool_threads{{pid=\"{pid}\"}} 3.0"),
        format!("sluice_scope_verdict{{pid=\"{pid}\",verdict=\"healthy\"}} 1.0"),
        format!("sluice_scope_pool_saturation_ratio{{pid=\"{pid}\"}}"),
        "# TYPE sluice_scope_pool_saturated_seconds counter".to_string(),
    ] {
        assert!(page.contains(&want), "{want} missing:\n{page}");
    }
    assert!(other.lines().next().unwrap().contains(" 404 "), "{other}");
    // The body, strictly: typed families, CPU as counters, # EOF last.
    let body = page.split_once("\r\n\r\n").expect("a body").1;
    let p = sluice_health::scrape::parse(body).unwrap_or_else(|e| panic!("{e}:\n{body}"));
    for family in [
        "sluice_scope_sampler_cpu_seconds",
        "sluice_scope_pool_saturated_seconds",
    ] {
        assert_eq!(
            p.family(family).map(|f| f.kind),
            Some(sluice_health::scrape::Kind::Counter),
            "{family}"
        );
    }
    assert_eq!(
        p.value("sluice_scope_pool_threads", &[("pid", &pid)]),
        Some(3.0)
    );
}

#[test]
fn a_run_ends_when_the_process_exits() {
    let mut node = idle(2);
    let pid = node.pid();
    let mut scope = spawn_piped(sluice().args(["scope", &pid.to_string(), "--json"]));
    let mut line = String::new();
    BufReader::new(scope.stdout.as_mut().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.contains("\"pool_size\":2"), "{line}");
    node.0.kill().unwrap();
    node.0.wait().unwrap();
    let status = scope.wait().unwrap();
    let err = common::stderr_of(&mut scope);
    assert!(status.success(), "{err}");
    assert!(err.contains(&format!("process {pid} exited")), "{err}");
}

/// Whether probes can be set on `node` here (root, libuv's symbols,
/// tracefs with uprobes).
fn probes_available(node: &Killed) -> bool {
    let target = sluice_scope::target::Target::open(node.0.id()).unwrap();
    sluice_scope::probe::preflight(&target).is_ok()
        && Tracefs::find_or_mount().is_ok_and(|t| t.check_uprobes().is_ok())
}

/// Uprobe groups or instances of scope process `pid` still in the kernel.
fn left_by(pid: u32) -> Vec<String> {
    let t = Tracefs::find_or_mount().unwrap();
    let mut left = t.groups_of(pid).unwrap();
    for e in std::fs::read_dir(t.root().join("instances"))
        .unwrap()
        .flatten()
    {
        let name = e.file_name().to_string_lossy().into_owned();
        if name.starts_with(&format!("sluice_{pid}_")) {
            left.push(name);
        }
    }
    left
}

#[test]
fn probes_are_removed_on_every_way_out() {
    let node = idle(2);
    let pid = node.pid().to_string();
    if !probes_available(&node) {
        refused(&["scope", &pid, "--probe", "--json"], "probe mode refused");
        return;
    }
    // 1. --duration ends the run.
    let scope = run(&["scope", &pid, "--probe", "--json", "--duration", "600ms"]).ok();
    let first: Value = serde_json::from_str(scope.stdout.lines().next().unwrap()).unwrap();
    assert!(first["probe"]["cpu"].is_object(), "{first}");
    // 2. Ctrl-C (SIGINT) and 3. the watched process dying, mid-run.
    for how in ["sigint", "node dies"] {
        let mut node = idle(2);
        let pid = node.pid().to_string();
        let mut scope = spawn_piped(sluice().args(["scope", &pid, "--probe", "--json"]));
        let mut line = String::new();
        BufReader::new(scope.stdout.as_mut().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert!(line.contains("\"probe\""), "{how}: {line}");
        assert!(!left_by(scope.id()).is_empty(), "{how}: probes were set");
        if how == "sigint" {
            rustix::process::kill_process(
                rustix::process::Pid::from_raw(scope.id() as i32).unwrap(),
                rustix::process::Signal::INT,
            )
            .unwrap();
        } else {
            node.0.kill().unwrap();
            node.0.wait().unwrap();
        }
        let status = scope.wait().unwrap();
        assert!(status.success(), "{how}: {status}");
        assert_eq!(left_by(scope.id()), Vec::<String>::new(), "{how}");
    }
}

#[test]
fn the_lab_check_runs_node_against_known_truth() {
    let (v, text) = lab("scope --pools 4 --workloads idle,read-2x,loop-blocker --window-ms 300");
    common::assert_schema(&v, "scope");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for r in rows {
        assert_eq!(r["subject"], "node");
        assert_eq!(r["metrics"]["pool_found"], 4.0, "{r}");
        assert_eq!(r["metrics"]["verdict_ok"], 1.0, "{r}");
    }
    assert!(text.contains("scope's own cost"), "{text}");
    refused(
        &["lab", "scope", "--no-progress", "--subjects", "sluice"],
        "runs the node subject only",
    );
}

#[test]
fn the_lab_check_sees_dns_lookups_throttled_at_libuvs_slow_io_limit() {
    if let Err(why) = common::netns_available() {
        eprintln!("skipped: dns-32 runs node in a private network namespace, and {why}");
        return;
    }
    let before = common::host_resolv_conf_hash();
    let (v, _) = lab("scope --pools 4 --workloads dns-32 --window-ms 300");
    assert_eq!(common::host_resolv_conf_hash(), before);
    common::assert_schema(&v, "scope");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    assert_eq!(r["params"]["workload"], "dns-32");
    assert_eq!(r["metrics"]["pool_found"], 4.0, "{r}");
    // libuv lets slow I/O hold (4 + 1) / 2 = 2 threads: 2 busy in
    // getaddrinfo, counted by scope, by libuv's own counter and by the
    // resolver; the other 30 lookups wait.
    let busy = common::finite(r, "busy_threads");
    assert!((1.5..=2.5).contains(&busy), "busy {busy}: {r}");
    assert_eq!(r["metrics"]["truth_busy"], 2.0, "{r}");
    assert_eq!(r["metrics"]["truth_queue"], 30.0, "{r}");
    let running = common::finite(r, "slow_io_running");
    assert!((1.5..=2.0).contains(&running), "running {running}: {r}");
    assert!(common::finite(r, "slow_queue_depth") > 0.0, "{r}");
    assert_eq!(r["metrics"]["dns_max_in_flight"], 2.0, "{r}");
    assert_eq!(r["metrics"]["verdict_slow_io_throttled"], 1.0, "{r}");
    assert_eq!(r["params"]["truth_verdict"], "slow-io-throttled");
    assert_eq!(r["metrics"]["verdict_ok"], 1.0, "{r}");
    assert_eq!(r["metrics"]["completed"], 32.0, "{r}");
}
