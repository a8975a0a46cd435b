//! `sluice scope` end to end: errors, the faces (text, JSON lines,
//! Prometheus), the end of a run, probe cleanup on every way out, and the
//! lab check. Counts and text only, never durations.

mod common;

use common::sluice;
use serde_json::Value;
use sluice_scope::probe::tracefs::Tracefs;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{Child, Command, Stdio};

/// A node process with its pool started (one fs.stat), idle; killed on
/// drop. Prints `ready` once the pool is up.
struct Node(Child);

impl Node {
    fn idle(pool: u32) -> Node {
        let mut child = Command::new("node")
            .arg("-e")
            .arg("require('fs').stat('.', () => console.log('ready')); setInterval(() => {}, 1 << 30);")
            .env("UV_THREADPOOL_SIZE", pool.to_string())
            .stdout(Stdio::piped())
            .spawn()
            .expect("node on PATH");
        common::await_ready(&mut child);
        Node(child)
    }

    fn pid(&self) -> String {
        self.0.id().to_string()
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

fn fails_with(args: &[&str], want: &str) {
    let out = sluice().args(args).output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.contains(want),
        "{args:?}: wanted {want:?} in:\n{stderr}"
    );
}

#[test]
fn bad_input_is_named_with_the_fix() {
    fails_with(&["scope", "node"], "PID \"node\": not a process id");
    fails_with(&["scope", "0"], "0 is not a process");
    fails_with(
        &["scope", "99999999"],
        "no process 99999999: /proc/99999999 does not exist",
    );
    let mut sleeper = Command::new("sleep").arg("30").spawn().unwrap();
    let pid = sleeper.id().to_string();
    fails_with(&["scope", &pid, "--json"], "is not a Node process");
    let _ = sleeper.kill();
    let _ = sleeper.wait();
    let me = std::process::id().to_string();
    fails_with(
        &["scope", &me, "--rate", "0"],
        "--rate \"0\": expected samples per second",
    );
    fails_with(
        &["scope", &me, "--duration", "soon"],
        "--duration \"soon\": expected a time",
    );
    fails_with(
        &["scope", &me, "--prometheus", "9464"],
        "--prometheus \"9464\": expected IP:PORT",
    );
    fails_with(
        &["scope", &me, "--discover", "psychic"],
        "--discover \"psychic\"",
    );
    fails_with(
        &["scope", &me, "--json", "--prometheus", "127.0.0.1:1"],
        "cannot be used with",
    );
}

#[test]
fn json_lines_carry_the_figures_and_the_summary_goes_to_stderr() {
    let node = Node::idle(4);
    let out = sluice()
        .args([
            "scope",
            &node.pid(),
            "--json",
            "--duration",
            "1",
            "--rate",
            "100",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let lines: Vec<Value> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    assert_eq!(lines.len(), 1, "one window in one second");
    for v in &lines {
        for k in [
            "pool_size",
            "busy_threads",
            "utilization_pct",
            "saturation_pct",
            "loop_utilization_pct",
            "verdict",
            "evidence",
            "queue_depth",
            "sampler_cpu_pct",
            "threads",
            "timestamp",
        ] {
            assert!(v.get(k).is_some(), "{k} missing: {v}");
        }
        assert!(
            v["timestamp"].as_str().unwrap().ends_with('Z'),
            "an RFC 3339 UTC time: {v}"
        );
        assert_eq!(v["pool_size"], 4);
        assert_eq!(v["threads"].as_array().unwrap().len(), 4);
        assert_eq!(v["pid"].to_string(), node.pid());
    }
    assert!(stderr.contains("pool of 4 threads ("), "{stderr}");
    assert!(stderr.contains("sluice scope summary"), "{stderr}");
}

#[test]
fn text_lines_when_stdout_is_not_a_terminal() {
    let node = Node::idle(2);
    let out = sluice()
        .args(["scope", &node.pid(), "--duration", "500ms"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("pool of 2 threads"), "{text}");
    assert!(text.contains("util%   sat%  loop%"), "{text}");
    assert!(text.contains("healthy"), "{text}");
    assert!(text.contains("verdicts (windows): healthy 1"), "{text}");
}

#[test]
fn the_prometheus_exporter_serves_the_pool() {
    let node = Node::idle(3);
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let addr = format!("127.0.0.1:{port}");
    let mut scope = sluice()
        .args([
            "scope",
            &node.pid(),
            "--prometheus",
            &addr,
            "--duration",
            "30",
        ])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // The first window's text line: the exporter has its first page.
    let mut out = BufReader::new(scope.stdout.take().unwrap());
    let mut line = String::new();
    while !line.contains("healthy") {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "scope ended early");
    }
    let get = |path: &str| {
        let mut c = std::net::TcpStream::connect(&addr).unwrap();
        write!(c, "GET {path} HTTP/1.0\r\nHost: x\r\n\r\n").unwrap();
        let mut s = String::new();
        c.read_to_string(&mut s).unwrap();
        s
    };
    let page = get("/metrics");
    let other = get("/");
    let _ = scope.kill();
    let _ = scope.wait();
    let pid = node.pid();
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
    let mut node = Node::idle(2);
    let mut scope = sluice()
        .args(["scope", &node.pid(), "--json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = BufReader::new(scope.stdout.take().unwrap());
    let mut line = String::new();
    out.read_line(&mut line).unwrap();
    assert!(line.contains("\"pool_size\":2"), "{line}");
    node.0.kill().unwrap();
    node.0.wait().unwrap();
    let status = scope.wait().unwrap();
    let mut err = String::new();
    scope
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut err)
        .unwrap();
    assert!(status.success(), "{err}");
    assert!(
        err.contains(&format!("process {} exited", node.pid())),
        "{err}"
    );
}

/// Whether probes can be set on `node` here (root, libuv's symbols,
/// tracefs with uprobes).
fn probes_available(node: &Node) -> bool {
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
    let node = Node::idle(2);
    if !probes_available(&node) {
        fails_with(
            &["scope", &node.pid(), "--probe", "--json"],
            "probe mode refused",
        );
        return;
    }
    // 1. --duration ends the run.
    let scope = sluice()
        .args([
            "scope",
            &node.pid(),
            "--probe",
            "--json",
            "--duration",
            "600ms",
        ])
        .output()
        .unwrap();
    assert!(
        scope.status.success(),
        "{}",
        String::from_utf8_lossy(&scope.stderr)
    );
    let first: Value = serde_json::from_str(
        String::from_utf8_lossy(&scope.stdout)
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert!(first["probe"]["cpu"].is_object(), "{first}");
    // 2. Ctrl-C (SIGINT) and 3. the watched process dying, mid-run.
    for how in ["sigint", "node dies"] {
        let mut node = Node::idle(2);
        let mut scope = sluice()
            .args(["scope", &node.pid(), "--probe", "--json"])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
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
    let (v, out) = common::lab_json(&[
        "lab",
        "scope",
        "--pools",
        "4",
        "--workloads",
        "idle,read-2x,loop-blocker",
        "--window-ms",
        "300",
    ]);
    common::assert_schema(&v, "scope");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for r in rows {
        assert_eq!(r["subject"], "node");
        assert_eq!(r["metrics"]["pool_found"], 4.0, "{r}");
        assert_eq!(r["metrics"]["verdict_ok"], 1.0, "{r}");
    }
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.contains("scope's own cost"), "{text}");
    let out = sluice()
        .args(["lab", "scope", "--no-progress", "--subjects", "sluice"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("runs the node subject only"), "{err}");
}

#[test]
fn the_lab_check_sees_dns_lookups_throttled_at_libuvs_slow_io_limit() {
    if let Err(why) = common::netns_available() {
        eprintln!("skipped: dns-32 runs node in a private network namespace, and {why}");
        return;
    }
    let before = common::host_resolv_conf_hash();
    let (v, _) = common::lab_json(&[
        "lab",
        "scope",
        "--pools",
        "4",
        "--workloads",
        "dns-32",
        "--window-ms",
        "300",
    ]);
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
