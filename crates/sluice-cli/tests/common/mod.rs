//! Helpers for the end-to-end tests of the `sluice` binary.
#![allow(dead_code, unreachable_pub)]

use serde_json::Value;
use std::process::{Command, Output};

/// The built `sluice` binary.
pub fn sluice() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sluice"))
}

/// Runs `sluice ARGS --json-out FILE --no-progress` and returns the parsed JSON
/// and the process output; fails the test with stderr if it fails.
pub fn lab_json(args: &[&str]) -> (Value, Output) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("out.json");
    let out = sluice()
        .args(args)
        .arg("--json-out")
        .arg(&json)
        .arg("--no-progress")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "sluice {args:?} failed:\nstdout:\n{}\nstderr:\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (v, out)
}

/// The rows of `v` for `subject` whose params match every pair.
pub fn rows<'a>(v: &'a Value, subject: &str, params: &[(&str, Value)]) -> Vec<&'a Value> {
    v["rows"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| {
            r["subject"] == subject && params.iter().all(|(k, val)| &r["params"][*k] == val)
        })
        .collect()
}

/// The one metric of the one row matching.
pub fn metric(v: &Value, subject: &str, params: &[(&str, Value)], name: &str) -> f64 {
    let found = rows(v, subject, params);
    assert_eq!(found.len(), 1, "{subject} {params:?}: {found:?}");
    found[0]["metrics"][name]
        .as_f64()
        .unwrap_or_else(|| panic!("{subject} {params:?}: no metric {name}: {}", found[0]))
}

/// The metric `key` of a JSON row, which must be a finite number.
pub fn finite(row: &Value, key: &str) -> f64 {
    let v = row["metrics"][key]
        .as_f64()
        .unwrap_or_else(|| panic!("no {key} in {row}"));
    assert!(v.is_finite(), "{key} is not finite in {row}");
    v
}

/// Checks the `--json` schema every experiment shares.
pub fn assert_schema(v: &Value, experiment: &str) {
    assert_eq!(v["experiment"], experiment);
    assert!(v["machine"]["cores"].as_u64().unwrap() >= 1);
    assert!(v["machine"]["kernel"].is_string());
    assert!(
        v["machine"]["node"].as_str().unwrap().starts_with('v'),
        "node version recorded"
    );
    for r in v["rows"].as_array().unwrap() {
        assert!(r["subject"].is_string());
        assert!(r["params"].is_object());
        for (k, m) in r["metrics"].as_object().unwrap() {
            let x = m.as_f64().unwrap_or(f64::NAN);
            assert!(x.is_finite(), "metric {k} = {m}");
        }
    }
}

/// Why the lab's `go` subject cannot run here (no `go` on `PATH`, none
/// under `/usr/lib/go-*/bin`), if it cannot: the lab then skips it.
pub fn no_go() -> Option<String> {
    let on_path = std::env::var_os("PATH")
        .is_some_and(|p| std::env::split_paths(&p).any(|d| d.join("go").is_file()));
    let debian = std::fs::read_dir("/usr/lib").is_ok_and(|dirs| {
        dirs.flatten().any(|d| {
            d.file_name().to_string_lossy().starts_with("go-") && d.path().join("bin/go").is_file()
        })
    });
    (!on_path && !debian).then(|| "no go on PATH or under /usr/lib/go-*/bin".to_string())
}

/// `subjects` and, where Go is installed, `go`: the subjects a default run
/// of an experiment with a Go program runs.
pub fn with_go<'a>(subjects: &[&'a str]) -> Vec<&'a str> {
    let mut out = subjects.to_vec();
    if no_go().is_none() {
        out.push("go");
    }
    out
}

/// Whether this machine lets `sluice lab-netns` make its namespaces; `Err`
/// says what is missing (tests that need them print it and skip).
pub fn netns_available() -> Result<(), String> {
    let out = sluice().args(["lab-netns", "--check"]).output().unwrap();
    if out.status.success() {
        Ok(())
    } else {
        Err(String::from_utf8_lossy(&out.stderr).trim().to_string())
    }
}

/// SHA-256 of the machine's `/etc/resolv.conf`, to show a namespaced run
/// left it alone.
pub fn host_resolv_conf_hash() -> Option<String> {
    sluice_testnet::netns::HostGuard::snapshot().sha256
}

/// Runs this test binary's test `test` again inside `sluice lab-netns`
/// (with `inner` set in its environment, so the test takes its inside
/// branch), the DNS delay server holding each query `hold` and answering
/// 127.0.0.2 and ::2, and `hosts` as the namespace's hosts file. Returns
/// what the inside run printed (asserting it succeeded) and the delay
/// server's stats, read after the run.
pub fn rerun_in_netns(test: &str, inner: &str, hosts: &str, hold: &str) -> (String, Value) {
    rerun_in_netns_with(
        test,
        &Netns {
            inner,
            hosts,
            hold,
            ..Netns::default()
        },
    )
}

/// What a namespaced rerun gets ([`rerun_in_netns_with`]).
#[derive(Default)]
pub struct Netns<'a> {
    /// The environment variable that sends the rerun to its inside branch
    /// (set to `variant`, or `1`).
    pub inner: &'a str,
    /// Its value: which of the test's cases runs inside.
    pub variant: &'a str,
    /// The namespace's hosts file.
    pub hosts: &'a str,
    /// How long the delay server holds each query.
    pub hold: &'a str,
    /// The namespace's `resolv.conf` (it must name 127.0.0.1); none: one
    /// naming 127.0.0.1 alone.
    pub resolv_conf: Option<&'a str>,
    /// The names the server knows, as a hosts file (others get NXDOMAIN);
    /// none: every name is 127.0.0.2 and ::2.
    pub zone: Option<&'a str>,
    /// Names answered at once (`--fast`).
    pub fast: &'a [&'a str],
}

/// [`rerun_in_netns`] with a `resolv.conf`, a zone and fast names of the
/// test's choosing.
pub fn rerun_in_netns_with(test: &str, n: &Netns<'_>) -> (String, Value) {
    let dir = tempfile::tempdir().unwrap();
    let file = |name: &str, text: &str| {
        let path = dir.path().join(name);
        std::fs::write(&path, text).unwrap();
        path
    };
    let stats = dir.path().join("stats.json");
    let mut cmd = sluice();
    cmd.args([
        "lab-netns",
        "--hold",
        n.hold,
        "--answer",
        "127.0.0.2",
        "--answer",
        "::2",
    ])
    .arg("--hosts")
    .arg(file("hosts", n.hosts))
    .arg("--stats")
    .arg(&stats);
    if let Some(text) = n.resolv_conf {
        cmd.arg("--resolv-conf").arg(file("resolv.conf", text));
    }
    if let Some(text) = n.zone {
        cmd.arg("--zone").arg(file("zone", text));
    }
    for f in n.fast {
        cmd.args(["--fast", f]);
    }
    let out = cmd
        .arg("--")
        .arg(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads", "1"])
        .env(n.inner, if n.variant.is_empty() { "1" } else { n.variant })
        .output()
        .unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "inside the namespace:\n{text}");
    let stats = serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    (text, stats)
}

/// A TCP port on 127.0.0.1 that was free a moment ago (bound and released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

pub mod serve;

/// Waits for the first line `child` prints on its piped stdout and checks
/// that it is `ready` (the node scripts the scope tests start print it once
/// their pool is up).
pub fn await_ready(child: &mut std::process::Child) {
    use std::io::BufRead;
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.as_mut().expect("stdout piped"))
        .read_line(&mut line)
        .unwrap();
    assert_eq!(line.trim(), "ready", "node did not start");
}

/// What a `sluice scope --all` run printed, and how it ended.
pub struct AllRun {
    /// Its exit code.
    pub code: Option<i32>,
    /// Its stdout: with `--json`, one JSON line per process per window.
    pub stdout: String,
    /// Its stderr.
    pub stderr: String,
}

/// Runs `sluice scope --all ARGS --json` until every process of `pids` has
/// reported a window (or 90 s pass), then ends it with SIGINT, as a person
/// would with Ctrl-C: the run covers those windows however long attaching
/// took on a busy machine, and its exit code judges them.
pub fn scope_all_until(args: &[&str], pids: &[u32]) -> AllRun {
    use std::io::{BufRead, Read};
    let mut scope = sluice()
        .args(["scope", "--all", "--json"])
        .args(args)
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let (tx, rx) = std::sync::mpsc::channel();
    let out = scope.stdout.take().unwrap();
    let reader = std::thread::spawn(move || {
        for line in std::io::BufReader::new(out).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    let mut lines: Vec<String> = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(90);
    while !pids.iter().all(|p| seen.contains(p)) && std::time::Instant::now() < deadline {
        let Ok(line) = rx.recv_timeout(std::time::Duration::from_millis(200)) else {
            continue;
        };
        let v: Value = serde_json::from_str(&line).unwrap_or_else(|e| panic!("{e}: {line}"));
        seen.insert(v["pid"].as_u64().unwrap() as u32);
        lines.push(line);
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(scope.id() as i32),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let status = scope.wait().unwrap();
    reader.join().unwrap();
    lines.extend(rx.try_iter());
    let mut stderr = String::new();
    scope
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    AllRun {
        code: status.code(),
        stdout: lines.iter().map(|l| format!("{l}\n")).collect(),
        stderr,
    }
}
