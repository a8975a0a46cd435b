//! One exit-code convention for every command: 0 healthy (or done), 1 a
//! finding, 2 bad usage or an error. Each command's three cases where it
//! has them; the doctor's healthy and finding cases run in serve_doctor.rs
//! (a served scenario per verdict), serve's clean stop in serve_shutdown.rs.

mod common;

use common::Killed;
use common::serve::Serve;

fn code(args: &[&str]) -> (Option<i32>, String) {
    let run = common::run(args);
    (run.code, run.text())
}

#[test]
fn bad_usage_exits_2_for_every_command() {
    for args in [
        &["no-such-command"][..],
        &["lab"],
        &["lab", "no-such-experiment"],
        &["lab", "list", "--no-such-flag"],
        &["lab", "staircase", "--reps", "0", "--no-progress"],
        &["serve", "--cpu-threads", "many"],
        &["serve", "--idle-timeout", "soon"],
        &["doctor", "--window", "soon"],
        &[
            "doctor",
            "--url",
            "http://127.0.0.1:1/metrics",
            "--window",
            "100ms",
        ],
        &["load", "--duration", "5s"],
        &["load", "http://127.0.0.1:1/", "--duration", "forever"],
        &["scope"],
        &["scope", "not-a-pid"],
        &["dns-delay", "--hold", "soon"],
    ] {
        let (code, text) = code(args);
        assert_eq!(code, Some(2), "{args:?}: {text}");
    }
}

#[test]
fn lab_exits_0_when_done() {
    let (code, text) = code(&["lab", "list"]);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.contains("staircase"), "{text}");
}

#[test]
fn load_exits_0_with_2xx_answers_and_1_without() {
    let s = Serve::start(&[]);
    let (ok, text) = code(&["load", &s.url("/ping"), "-c", "2", "-n", "20"]);
    assert_eq!(ok, Some(0), "{text}");
    assert!(text.contains("20 sent, 20 ok"), "{text}");
    let (none, text) = code(&["load", &s.url("/no-such-route"), "-c", "2", "-n", "20"]);
    assert_eq!(none, Some(1), "{text}");
    assert!(text.contains("no request succeeded"), "{text}");
}

/// A node whose pool of 2 threads has 8 pbkdf2 calls to run, forever:
/// every window is pool-saturated.
const SATURATED: &str = "const c = require('crypto');
function go() { c.pbkdf2('p', 's', 200000, 32, 'sha256', go); }
for (let i = 0; i < 8; i++) go();
console.log('ready');
setInterval(() => {}, 1 << 30);";

/// A node with its pool started (one fs.stat), idle: every window healthy.
const IDLE: &str = common::node::IDLE_JS;

fn scope_code(script: &str) -> (Option<i32>, String) {
    let node = common::node::eval(script, &[], 2);
    code(&[
        "scope",
        &node.pid().to_string(),
        "--json",
        "--duration",
        "1",
    ])
}

#[test]
fn scope_exits_0_healthy_1_on_a_finding() {
    let (healthy, text) = scope_code(IDLE);
    assert_eq!(healthy, Some(0), "{text}");
    assert!(text.contains("\"verdict\":\"healthy\""), "{text}");
    let (finding, text) = scope_code(SATURATED);
    assert_eq!(finding, Some(1), "{text}");
    assert!(text.contains("\"verdict\":\"pool-saturated\""), "{text}");
}

/// A node running `script` with `marker` as its argument (so `--cmdline`
/// picks it, and nothing else on the host), killed on drop.
fn marked(script: &str, marker: &str) -> Killed {
    common::node::eval(script, &[marker], 2)
}

/// A marker no other process on the host has in its command line.
fn marker(what: &str) -> String {
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .subsec_nanos();
    format!("sluice-exit-{what}-{}-{nanos}", std::process::id())
}

/// `scope --all --cmdline` watches only the processes the test started, so
/// its exit code does not depend on other Node processes on the host: 0
/// with two idle ones, 1 when one of them is saturated, 2 when nothing
/// matches. Each run is ended (SIGINT) once every process has reported a
/// window, so a slow attach on a busy machine cannot leave one unjudged.
#[test]
fn scope_all_exits_0_healthy_1_on_a_finding_2_with_nothing_to_watch() {
    let all = |marker: &str, nodes: [&Killed; 2]| {
        let pids = nodes.map(Killed::pid);
        let run = common::scope_all_until(&["--cmdline", marker, "--rate", "100"], &pids);
        let shown: std::collections::BTreeSet<u32> = run
            .json_lines()
            .iter()
            .map(|v| v["pid"].as_u64().unwrap() as u32)
            .collect();
        assert_eq!(
            shown,
            pids.into_iter().collect(),
            "the two started, and no other process: {}{}",
            run.stdout,
            run.stderr
        );
        run
    };
    let healthy = marker("healthy");
    let (a, b) = (marked(IDLE, &healthy), marked(IDLE, &healthy));
    let run = all(&healthy, [&a, &b]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);

    let mixed = marker("mixed");
    let (idle, busy) = (marked(IDLE, &mixed), marked(SATURATED, &mixed));
    let run = all(&mixed, [&idle, &busy]);
    assert_eq!(run.code, Some(1), "{}{}", run.stdout, run.stderr);
    assert!(
        run.stdout.contains("\"verdict\":\"pool-saturated\""),
        "{}",
        run.stdout
    );

    let none = marker("none");
    let (got, text) = code(&[
        "scope",
        "--all",
        "--cmdline",
        &none,
        "--json",
        "--duration",
        "2",
        "--rate",
        "100",
    ]);
    assert_eq!(got, Some(2), "{text}");
    assert!(
        text.contains(&format!(
            "no Node process whose command line matches --cmdline \"{none}\" was found"
        )),
        "{text}"
    );

    let (got, text) = code(&["scope", "--all", "--cmdline", "(", "--duration", "1"]);
    assert_eq!(got, Some(2), "{text}");
    assert!(
        text.contains("--cmdline \"(\": not a regular expression"),
        "{text}"
    );
    let (got, text) = code(&["scope", "--cmdline", "node", "1"]);
    assert_eq!(got, Some(2), "--cmdline needs --all: {text}");
}
