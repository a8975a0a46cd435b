//! `sluice scope --all` end to end: several Node processes at once, one
//! whose binary exists only inside its own mount namespace, one in its own
//! PID namespace (PID 1 there), one started after scope; JSON lines per process and one Prometheus exposition
//! labelled pid, comm, container, pod. Counts only: the test reads windows
//! until each process has shown what it must (or a generous deadline
//! passes, and the test says what was missing).

mod common;

use common::node::{load_js, path as node_path, script as plain, spawn};
use common::{Killed, free_addr, get10, sluice, spawn_piped};
use serde_json::Value;
use std::collections::BTreeMap;
use std::ffi::OsStr;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Child, Command};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// A node process, killed on drop, and the PID scope is to watch.
struct Node {
    _child: Killed,
    pid: u32,
}

impl Node {
    fn start(cmd: Command, pool: u32) -> Node {
        let child = spawn(cmd, pool);
        let pid = child.pid();
        Node { _child: child, pid }
    }

    /// Started by `unshare --fork`: node is the child of the process
    /// spawned; watch that one.
    fn forked(cmd: Command, pool: u32) -> Node {
        let mut n = Node::start(cmd, pool);
        let children = std::fs::read_to_string(format!("/proc/{0}/task/{0}/children", n.pid))
            .unwrap_or_default();
        n.pid = children
            .split_whitespace()
            .next()
            .and_then(|p| p.parse().ok())
            .expect("unshare --fork has node as its child");
        n
    }
}

/// `unshare UNSHARE ARGS` with `run` after the namespace flags `unshare`,
/// where `unshare UNSHARE true` works; `None` (saying what is skipped)
/// where those namespaces cannot be made (not root).
fn unshared(unshare: &[&str], what: &str, run: &[&OsStr]) -> Option<Command> {
    let ok = Command::new("unshare")
        .args(unshare)
        .arg("true")
        .status()
        .is_ok_and(|s| s.success());
    if !ok {
        println!("no {what} here (unshare needs root): that part is skipped");
        return None;
    }
    let mut c = Command::new("unshare");
    c.args(unshare).args(run);
    Some(c)
}

/// node copied into a tmpfs mounted over `dir` in a private mount
/// namespace: its executable exists only there. `exec` all the way, so the
/// PID is node's.
fn in_own_mount_namespace(dir: &Path, script: &Path) -> Option<Command> {
    let copy =
        r#"mount -t tmpfs sluice-test "$0" && cp "$1" "$0/node" && exec "$0/node" "$2" idle"#;
    let node = node_path();
    let run: [&OsStr; 6] = [
        "sh".as_ref(),
        "-c".as_ref(),
        copy.as_ref(),
        dir.as_ref(),
        node.as_ref(),
        script.as_ref(),
    ];
    unshared(&["-m", "--propagation", "private"], "mount namespace", &run)
}

/// node in its own PID and mount namespace (PID 1 there), killed with
/// `unshare` (`--kill-child`).
fn in_own_pid_namespace(script: &Path) -> Option<Command> {
    let node = node_path();
    let run: [&OsStr; 4] = [
        "--mount-proc".as_ref(),
        node.as_ref(),
        script.as_ref(),
        "idle".as_ref(),
    ];
    unshared(
        &["-p", "-m", "--fork", "--kill-child"],
        "PID namespace",
        &run,
    )
}

/// Reads `sluice scope --all --json` lines until `done` says every
/// expectation is met by the last report of each PID, or 90 s pass.
fn watch_until(
    scope: &mut Child,
    mut on_first: impl FnMut(),
    done: impl Fn(&BTreeMap<u32, Value>) -> bool,
) -> BTreeMap<u32, Value> {
    let (tx, rx) = mpsc::channel();
    let out = scope.stdout.take().unwrap();
    std::thread::spawn(move || {
        for line in BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut last: BTreeMap<u32, Value> = BTreeMap::new();
    let deadline = Instant::now() + Duration::from_secs(90);
    let mut first = true;
    while Instant::now() < deadline && !done(&last) {
        let Ok(line) = rx.recv_timeout(Duration::from_millis(200)) else {
            continue;
        };
        let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
        let pid = v["pid"].as_u64().unwrap() as u32;
        last.insert(pid, v);
        if first {
            first = false;
            on_first();
        }
    }
    last
}

#[test]
fn all_watches_every_node_in_own_mount_and_pid_namespaces_and_started_later() {
    let dir = tempfile::tempdir().unwrap();
    let script = load_js(dir.path(), "load.js");
    let mnt = dir.path().join("ns-only");
    std::fs::create_dir(&mnt).unwrap();
    let idle = plain(&script, &["idle"], 2);
    let busy = plain(&script, &["cpu", "16"], 4);
    let hidden = in_own_mount_namespace(&mnt, &script).map(|c| Node::start(c, 3));
    // Its TIDs there differ from those here: struct pthread holds the former.
    let contained = in_own_pid_namespace(&script).map(|c| Node::forked(c, 5));
    let mut scope = spawn_piped(sluice().args(["scope", "--all", "--json", "--rate", "100"]));
    let mut late: Option<Killed> = None;
    let mut expect: Vec<(u32, u64, &str)> = vec![
        (idle.pid(), 2, "healthy"),
        (busy.pid(), 4, "pool-saturated"),
    ];
    if let Some(h) = &hidden {
        expect.push((h.pid, 3, "healthy"));
    }
    if let Some(c) = &contained {
        expect.push((c.pid, 5, "healthy"));
    }
    let late_pid = std::cell::Cell::new(0u32);
    let last = watch_until(
        &mut scope,
        || {
            // scope is running: a node that starts now must be found too.
            let n = plain(&script, &["idle"], 1);
            late_pid.set(n.pid());
            late = Some(n);
        },
        |last| {
            let met = |pid: u32, pool: u64, verdict: &str| {
                last.get(&pid).is_some_and(|v| {
                    v["pool_size"].as_u64() == Some(pool) && v["verdict"] == verdict
                })
            };
            late_pid.get() != 0
                && met(late_pid.get(), 1, "healthy")
                && expect.iter().all(|(p, n, v)| met(*p, *n, v))
        },
    );
    let _ = scope.kill();
    let _ = scope.wait();
    let err = common::stderr_of(&mut scope);
    expect.push((late_pid.get(), 1, "healthy"));
    for (pid, pool, verdict) in &expect {
        let v = last
            .get(pid)
            .unwrap_or_else(|| panic!("no window for process {pid}; stderr:\n{err}"));
        assert_eq!(v["pool_size"].as_u64(), Some(*pool), "process {pid}: {v}");
        assert_eq!(v["verdict"], *verdict, "process {pid}: {v}");
        assert_eq!(v["comm"], "node", "{v}");
        // Found exactly (TIDs matched through the PID namespace too), not
        // by a futex method that only sees idle threads.
        assert!(
            ["names", "memory", "start-routine"].contains(&v["discovery"].as_str().unwrap()),
            "process {pid}: {v}"
        );
        assert!(
            v.get("container").is_some() && v.get("pod").is_some(),
            "{v}"
        );
        assert_eq!(
            err.matches(&format!("watching process {pid} (node, "))
                .count(),
            1,
            "{pid} announced once, and watched by one thread:\n{err}"
        );
    }
    if let Some(h) = &hidden {
        // Its executable is a file only its own mount namespace sees.
        let exe = last[&h.pid]["exe"].as_str().unwrap().to_string();
        assert_eq!(exe, mnt.join("node").display().to_string());
        assert!(!Path::new(&exe).exists(), "{exe} is visible outside");
    }
    drop(late);
}

#[test]
fn all_serves_one_exposition_labelled_pid_comm_container_pod() {
    let dir = tempfile::tempdir().unwrap();
    let script = load_js(dir.path(), "load.js");
    let a = plain(&script, &["idle"], 2);
    let b = plain(&script, &["idle"], 3);
    let addr = free_addr();
    let mut scope =
        spawn_piped(sluice().args(["scope", "--all", "--prometheus", &addr, "--rate", "100"]));
    // The text lines say when both have a window.
    let mut out = BufReader::new(scope.stdout.take().unwrap());
    let mut seen = (false, false);
    let mut line = String::new();
    let deadline = Instant::now() + Duration::from_secs(90);
    while !(seen.0 && seen.1) && Instant::now() < deadline {
        line.clear();
        assert!(out.read_line(&mut line).unwrap() > 0, "scope ended early");
        let first = line.split_whitespace().next().unwrap_or("");
        let row = line.contains("healthy");
        seen.0 |= row && first == a.pid().to_string();
        seen.1 |= row && first == b.pid().to_string();
    }
    // The page is rebuilt within one tick of the report.
    std::thread::sleep(Duration::from_millis(300));
    let page = get10(&addr, "/metrics");
    let _ = scope.kill();
    let _ = scope.wait();
    for (pid, n) in [(a.pid(), 2), (b.pid(), 3)] {
        let labels = format!("pid=\"{pid}\",comm=\"node\",container=\"\",pod=\"\"");
        for want in [
            format!("sluice_scope_pool_threads{{{labels}}} {n}.0"),
            format!("sluice_scope_verdict{{{labels},verdict=\"healthy\"}} 1.0"),
            format!("sluice_scope_pool_saturation_ratio{{{labels}}}"),
        ] {
            assert!(page.contains(&want), "{want} missing:\n{page}");
        }
    }
    assert_eq!(
        page.matches("# TYPE sluice_scope_pool_threads gauge")
            .count(),
        1,
        "one family for every process:\n{page}"
    );
}
