//! Helpers for the end-to-end tests of the `sluice` binary.
#![allow(dead_code, unreachable_pub)]

use serde_json::Value;
use std::process::{Command, Output};

/// The built `sluice` binary.
pub fn sluice() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sluice"))
}

/// What a finished command printed, and how it ended.
pub struct Run {
    /// Its exit code (`None`: killed by a signal).
    pub code: Option<i32>,
    /// Its stdout.
    pub stdout: String,
    /// Its stderr.
    pub stderr: String,
}

impl Run {
    /// Runs `cmd` to its end.
    pub fn of(cmd: &mut Command) -> Run {
        Run::from(cmd.output().unwrap())
    }

    /// Its stdout, then its stderr.
    pub fn text(&self) -> String {
        format!("{}{}", self.stdout, self.stderr)
    }

    /// Asserts that it exited 0 (saying what it printed); returns it.
    #[track_caller]
    pub fn ok(self) -> Run {
        assert_eq!(self.code, Some(0), "{}", self.text());
        self
    }

    /// Asserts that it exited 2 (bad usage) with `want` in its stderr.
    #[track_caller]
    pub fn refused(&self, want: &str) -> &Run {
        assert_eq!(self.code, Some(2), "{}", self.text());
        assert!(
            self.stderr.contains(want),
            "wanted {want:?} in:\n{}",
            self.stderr
        );
        self
    }

    /// Its stdout as one JSON document.
    #[track_caller]
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.stdout).unwrap_or_else(|e| panic!("{e}: {}", self.text()))
    }

    /// Its stdout as JSON lines.
    #[track_caller]
    pub fn json_lines(&self) -> Vec<Value> {
        json_lines(&self.stdout)
    }
}

impl From<Output> for Run {
    fn from(out: Output) -> Run {
        Run {
            code: out.status.code(),
            stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
            stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
        }
    }
}

/// `text` as JSON lines, one document a line.
#[track_caller]
pub fn json_lines(text: &str) -> Vec<Value> {
    text.lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect()
}

/// Runs `sluice ARGS` to its end.
pub fn run(args: &[&str]) -> Run {
    Run::of(sluice().args(args))
}

/// Runs `sluice ARGS` and asserts that it is refused (exit 2) with `want`
/// in its stderr.
#[track_caller]
pub fn refused(args: &[&str], want: &str) -> Run {
    let run = run(args);
    run.refused(want);
    run
}

/// The words of `line`, split at white space: a command line in one string.
pub fn words(line: &str) -> Vec<&str> {
    line.split_whitespace().collect()
}

/// Asserts that `text` holds every one of `wants`.
#[track_caller]
pub fn assert_contains(text: &str, wants: &[&str]) {
    for want in wants {
        assert!(text.contains(want), "{want:?} not in:\n{text}");
    }
}

/// The subjects every experiment runs by default (and `go` where Go is
/// installed: [`with_go`]).
pub const SUBJECTS: [&str; 4] = ["node", "sluice-compat", "sluice", "tokio"];

/// `sluice lab WORDS` (`line`: the experiment and its flags, as typed) with
/// `--json-out FILE --no-progress`: the JSON and the table printed on
/// stdout; fails the test with what it printed if it fails.
pub fn lab(line: &str) -> (Value, String) {
    lab_with(&words(line))
}

/// [`lab`] with its arguments one by one (a path among them).
pub fn lab_with(args: &[&str]) -> (Value, String) {
    let mut cmd = sluice();
    cmd.arg("lab").args(args);
    lab_run(cmd)
}

/// Runs `cmd` (a `sluice lab ...`, its environment set) with `--json-out
/// FILE --no-progress`, as [`lab`].
pub fn lab_run(mut cmd: Command) -> (Value, String) {
    let dir = tempfile::tempdir().unwrap();
    let json = dir.path().join("out.json");
    let run = Run::of(cmd.arg("--json-out").arg(&json).arg("--no-progress")).ok();
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).unwrap()).unwrap();
    (v, run.stdout)
}

/// The notes of an experiment's JSON.
pub fn notes(v: &Value) -> Vec<&str> {
    v["notes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n.as_str().expect("a note is a string"))
        .collect()
}

/// Whether the npm package's addon is built (`bindings/node/sluice.node`):
/// the `node+sluice` subject runs only then.
pub fn addon_built() -> bool {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../bindings/node/sluice.node")
        .is_file()
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

/// The one row of `v` for `subject` whose params match every pair.
#[track_caller]
pub fn row<'a>(v: &'a Value, subject: &str, params: &[(&str, Value)]) -> &'a Value {
    let found = rows(v, subject, params);
    assert_eq!(found.len(), 1, "{subject} {params:?}: {found:?}");
    found[0]
}

/// The one metric of the one row matching.
#[track_caller]
pub fn metric(v: &Value, subject: &str, params: &[(&str, Value)], name: &str) -> f64 {
    let found = row(v, subject, params);
    found["metrics"][name]
        .as_f64()
        .unwrap_or_else(|| panic!("{subject} {params:?}: no metric {name}: {found}"))
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

/// Runs `inside` if this run is the one inside the namespace (`inner` is
/// set); otherwise [`rerun_in_netns`].
pub fn in_netns(
    inside: fn(),
    test: &str,
    inner: &str,
    hosts: &str,
    hold: &str,
) -> Option<(String, Value)> {
    if std::env::var_os(inner).is_some() {
        inside();
        return None;
    }
    rerun_in_netns(test, inner, hosts, hold)
}

/// Runs this test binary's test `test` again inside `sluice lab-netns`
/// (with `inner` set in its environment, so the test takes its inside
/// branch), the DNS delay server holding each query `hold` and answering
/// 127.0.0.2 and ::2, and `hosts` as the namespace's hosts file. Returns
/// what the inside run printed (asserting it succeeded) and the delay
/// server's stats, read after the run, having checked that the machine's
/// `/etc/resolv.conf` is as it was; `None` (saying why) where the
/// namespaces cannot be made here.
pub fn rerun_in_netns(test: &str, inner: &str, hosts: &str, hold: &str) -> Option<(String, Value)> {
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
pub fn rerun_in_netns_with(test: &str, n: &Netns<'_>) -> Option<(String, Value)> {
    if let Err(why) = netns_available() {
        eprintln!("skipping: sluice lab-netns cannot make its namespaces here: {why}");
        return None;
    }
    let before = host_resolv_conf_hash();
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
    cmd.arg("--")
        .arg(std::env::current_exe().unwrap())
        .args(["--exact", test, "--nocapture", "--test-threads", "1"])
        .env(n.inner, if n.variant.is_empty() { "1" } else { n.variant });
    let inside = Run::of(&mut cmd);
    let text = inside.text();
    assert_eq!(inside.code, Some(0), "inside the namespace:\n{text}");
    assert_eq!(
        host_resolv_conf_hash(),
        before,
        "the machine's /etc/resolv.conf changed"
    );
    let stats = serde_json::from_str(&std::fs::read_to_string(&stats).unwrap()).unwrap();
    Some((text, stats))
}

/// A TCP port on 127.0.0.1 that was free a moment ago (bound and released).
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// `127.0.0.1:PORT` with a [`free_port`].
pub fn free_addr() -> String {
    format!("127.0.0.1:{}", free_port())
}

/// GET `path` from the HTTP server at `addr` over HTTP/1.0 (the exporter
/// of `sluice scope --prometheus`): the whole answer, head and body.
pub fn get10(addr: &str, path: &str) -> String {
    use std::io::{Read, Write};
    let mut c = std::net::TcpStream::connect(addr).unwrap();
    write!(c, "GET {path} HTTP/1.0\r\nHost: x\r\n\r\n").unwrap();
    let mut answer = String::new();
    c.read_to_string(&mut answer).unwrap();
    answer
}

/// A child process, killed (and reaped) on drop.
pub struct Killed(pub std::process::Child);

impl Killed {
    /// Its process id.
    pub fn pid(&self) -> u32 {
        self.0.id()
    }
}

impl Drop for Killed {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

/// Starts `cmd` with its stdout and stderr piped.
pub fn spawn_piped(cmd: &mut Command) -> std::process::Child {
    cmd.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap()
}

/// Reads lines of `r` until one holds `want`, and returns it; fails the
/// test if the stream ends first. (What `r` had sent past that line is
/// dropped.)
#[track_caller]
pub fn line_with(r: impl std::io::Read, want: &str) -> String {
    use std::io::BufRead;
    let mut r = std::io::BufReader::new(r);
    let mut line = String::new();
    while !line.contains(want) {
        line.clear();
        assert!(
            r.read_line(&mut line).unwrap() > 0,
            "the stream ended before a line with {want:?}"
        );
    }
    line
}

/// The rest of `child`'s piped stderr, to its end.
pub fn stderr_of(child: &mut std::process::Child) -> String {
    use std::io::Read;
    let mut err = String::new();
    child
        .stderr
        .take()
        .expect("stderr piped")
        .read_to_string(&mut err)
        .unwrap();
    err
}

pub mod node;
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

/// Runs `sluice scope --all ARGS --json` until every process of `pids` has
/// reported a window (or 90 s pass), then ends it with SIGINT, as a person
/// would with Ctrl-C: the run covers those windows however long attaching
/// took on a busy machine, and its exit code judges them.
pub fn scope_all_until(args: &[&str], pids: &[u32]) -> Run {
    use std::io::BufRead;
    let mut scope = spawn_piped(sluice().args(["scope", "--all", "--json"]).args(args));
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
    Run {
        code: status.code(),
        stdout: lines.iter().map(|l| format!("{l}\n")).collect(),
        stderr: stderr_of(&mut scope),
    }
}
