//! Bad input gets a clear error, exit code 2, and nothing else runs.

mod common;

use common::{Run, assert_contains, refused, run, sluice};

/// `sluice ARGS --no-progress` is refused (exit 2) with `want` in its
/// stderr.
#[track_caller]
fn fails_with(args: &[&str], env: &[(&str, &str)], want: &str) {
    let mut cmd = sluice();
    cmd.args(args)
        .arg("--no-progress")
        .envs(env.iter().copied());
    Run::of(&mut cmd).refused(want);
}

#[test]
fn bad_pools_are_refused_with_the_value() {
    fails_with(
        &["lab", "staircase", "--pools", "1,zero"],
        &[],
        "--pools \"1,zero\": pool size \"zero\" is not a number",
    );
    fails_with(
        &["lab", "staircase", "--pools", "0"],
        &[],
        "pool size 0 is out of range",
    );
}

#[test]
fn bad_experiment_flags_are_refused() {
    fails_with(
        &["lab", "staircase", "--kind", "disk"],
        &[],
        "--kind \"disk\": expected one of wait, cpu (or a comma-separated list of them)",
    );
    fails_with(
        &["lab", "staircase", "--n", "1,-2"],
        &[],
        "--n \"-2\" is out of range",
    );
    fails_with(
        &["lab", "staircase", "--reps", "0"],
        &[],
        "--reps \"0\": expected a whole number in 1..=100",
    );
    fails_with(
        &[
            "lab",
            "http",
            "--subjects",
            "sluice",
            "--ping-during",
            "50ms",
        ],
        &[],
        "--ping-during 50ms is too short; expected 0 (as long as --duration) or 100ms..=10m",
    );
}

#[test]
fn unknown_experiment_and_subject_are_named() {
    refused(&["lab", "nosuch"], "nosuch");
    fails_with(
        &["lab", "staircase", "--subjects", "node,bun"],
        &[],
        "unknown subject \"bun\"; expected one of node, sluice-compat, sluice, tokio",
    );
}

#[test]
fn an_explicit_node_that_does_not_exist_is_an_error() {
    fails_with(
        &["lab", "staircase", "--node", "/nonexistent/node"],
        &[],
        "--node /nonexistent/node: no such file",
    );
}

#[test]
fn without_node_the_other_subjects_still_run() {
    let dir = tempfile::tempdir().unwrap();
    let args = "lab staircase --kind wait --n 2 --pools 1 --hold-ms 10 --no-progress";
    let out = Run::of(sluice().args(common::words(args)).env("PATH", dir.path())).ok();
    let (stdout, stderr) = (&out.stdout, &out.stderr);
    assert!(
        stderr.contains("skipping node: node not found on PATH"),
        "{stderr}"
    );
    assert!(
        stdout.contains("sluice-compat ms") && !stdout.contains("node ms"),
        "{stdout}"
    );
}

#[test]
fn list_names_every_experiment() {
    let text = run(&["lab", "list"]).ok().stdout;
    assert!(text.contains("staircase"));
}

/// `sluice serve`, `load` and `doctor` refuse bad input with one line naming
/// the flag and the fix, and exit 2 before serving or sending anything.
#[track_caller]
fn serve_fails_with(args: &[&str], env: &[(&str, &str)], want: &str) {
    let mut cmd = sluice();
    cmd.args(args)
        .stdin(std::process::Stdio::null())
        .envs(env.iter().copied());
    let out = Run::of(&mut cmd);
    out.refused(want);
    let stderr = &out.stderr;
    assert_eq!(stderr.lines().count(), 1, "{args:?}: one line: {stderr}");
}

#[test]
fn serve_startup_errors_are_one_line() {
    let taken = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let addr = taken.local_addr().unwrap().to_string();
    serve_fails_with(
        &["serve", "--listen", &addr],
        &[],
        &format!(
            "sluice: --listen {addr}: the address is already in use; stop the server on that port or choose another (--listen 127.0.0.1:0 picks a free one)"
        ),
    );
    serve_fails_with(
        &["serve", "--listen", "localhost:http"],
        &[],
        "sluice: --listen \"localhost:http\": expected IP:PORT, such as 127.0.0.1:8080",
    );
    serve_fails_with(
        &["serve", "--listen", "127.0.0.1:0", "--cpu-threads", "0"],
        &[],
        "sluice: --cpu-threads 0 is out of range; expected 1..=",
    );
    serve_fails_with(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--libuv",
            "--cpu-queue",
            "4",
        ],
        &[],
        "sluice: --cpu-queue does not apply with --libuv",
    );
    serve_fails_with(
        &["serve", "--listen", "127.0.0.1:0"],
        &[("SLUICE_QUEUE_BOUND", "8")],
        "SLUICE_QUEUE_BOUND=\"8\" is not used by sluice serve",
    );
    serve_fails_with(
        &[
            "serve",
            "--listen",
            "127.0.0.1:0",
            "--file",
            "/nonexistent/file",
        ],
        &[],
        "sluice: --file /nonexistent/file: cannot read it",
    );
}

#[test]
fn load_refuses_targets_off_this_machine() {
    serve_fails_with(
        &["load", "http://192.168.1.1:8080/login", "-d", "1s"],
        &[],
        "192.168.1.1 is not a loopback address",
    );
    serve_fails_with(
        &["load", "http://127.0.0.1:8080/", "-c", "0"],
        &[],
        "concurrency 0 is out of range; expected 1..=10000",
    );
}

#[test]
fn serve_refuses_a_directory_as_its_file() {
    serve_fails_with(
        &["serve", "--listen", "127.0.0.1:0", "--file", "/tmp"],
        &[],
        "sluice: --file /tmp: is a directory; /file serves one file, so give the path of a file",
    );
    serve_fails_with(
        &["serve", "--listen", "127.0.0.1:0", "--max-connections", "0"],
        &[],
        "sluice: --max-connections 0 is out of range",
    );
}

#[test]
fn a_sluice_variable_that_is_not_utf8_is_refused_not_unset() {
    use std::os::unix::ffi::OsStrExt;
    let mut cmd = sluice();
    cmd.args(["serve", "--listen", "127.0.0.1:0"])
        .stdin(std::process::Stdio::null())
        .env(
            "SLUICE_CPU_THREADS",
            std::ffi::OsStr::from_bytes(b"\xff\xfe2"),
        );
    Run::of(&mut cmd).refused(
        "SLUICE_CPU_THREADS=\"\u{fffd}\u{fffd}2\" is not valid UTF-8; expected a whole number",
    );
}

#[test]
fn a_negative_value_is_refused_by_its_flag() {
    for (args, flag) in [
        (&["serve", "--cpu-threads", "-1"][..], "--cpu-threads <N>"),
        (
            &["load", "http://127.0.0.1:9/", "-c", "-3"][..],
            "--concurrency <N>",
        ),
    ] {
        refused(args, "invalid value '-").refused(flag);
    }
    refused(
        &["serve", "--shutdown-timeout", "-5"],
        "--shutdown-timeout \"-5\" is not a duration",
    );
    fails_with(
        &["lab", "staircase", "--n", "-2"],
        &[],
        "--n \"-2\" is out of range",
    );
}

#[test]
fn empty_subjects_and_unwritable_outputs_are_refused_before_running() {
    fails_with(
        &["lab", "staircase", "--subjects", ""],
        &[],
        "--subjects is empty; expected a comma-separated list of node, sluice-compat, sluice, tokio",
    );
    fails_with(
        &["lab", "staircase", "--json-out", "/nonexistent/x.json"],
        &[],
        "--json-out /nonexistent/x.json: the directory /nonexistent does not exist",
    );
    fails_with(
        &["lab", "staircase", "--json", "x.json"],
        &[],
        "unexpected argument 'x.json'",
    );
    fails_with(
        &["lab", "staircase", "--svg", "/proc/x.svg"],
        &[],
        "--svg /proc/x.svg: cannot write in /proc",
    );
}

#[test]
fn scope_run_as_root_does_not_say_to_run_it_as_root() {
    if !rustix::process::geteuid().is_root() {
        eprintln!("skipped: needs root");
        return;
    }
    let out = run(&["scope", "1", "--duration", "1"]);
    let stderr = &out.stderr;
    assert_ne!(out.code, Some(0), "{stderr}");
    assert!(!stderr.contains("or as root"), "{stderr}");
    if stderr.contains("permission denied") {
        assert!(
            stderr.contains("permission denied, although sluice scope runs as root: process 1 is out of this root's reach"),
            "{stderr}"
        );
    }
}

/// The lab's duration flags: a bare number is seconds (`--hold 61` is
/// 61 s, past the range, where the old `--hold-ms 61` is 61 ms); the
/// errors name the flag given and the range its declaration holds.
#[test]
fn lab_durations_read_one_grammar_and_name_the_flag() {
    fails_with(
        &["lab", "staircase", "--hold", "61"],
        &[],
        "--hold \"61\" is out of range; expected 1ms..=1m",
    );
    fails_with(
        &["lab", "staircase", "--cpu", "1.5ms"],
        &[],
        "--cpu \"1ms 500us\": expected whole milliseconds",
    );
    fails_with(
        &["lab", "staircase", "--hold", "soon"],
        &[],
        "--hold \"soon\" is not a duration",
    );
    fails_with(
        &["lab", "staircase", "--hold", "1s", "--hold-ms", "100"],
        &[],
        "cannot be used with",
    );
    fails_with(
        &["lab", "staircase", "--hold-ms", "61001"],
        &[],
        "--hold-ms \"61001\" is out of range; expected 1ms..=1m",
    );
}

#[test]
fn every_command_has_version_and_help_that_speaks_to_users() {
    for cmd in ["scope", "serve", "doctor", "load", "dns-delay"] {
        let version = run(&[cmd, "--version"]).ok().stdout;
        assert_contains(&version, &[env!("CARGO_PKG_VERSION")]);
        let help = run(&[cmd, "--help"]).ok().stdout;
        assert!(
            !help.contains("seed"),
            "{cmd} --help cites the articles:\n{help}"
        );
    }
}

/// Every lab experiment's duration flag, and its former `-ms` spelling
/// where it has one, refuses a huge, a negative and a junk value by name (the range its
/// declaration holds; the table test in `src/main.rs` walks them too).
#[test]
fn every_lab_duration_flag_refuses_huge_negative_and_junk() {
    for e in sluice_lab::EXPERIMENTS {
        for a in e.args {
            let sluice_lab::Kind::Duration { old, .. } = a.kind else {
                continue;
            };
            // A flag that came with the duration grammar has no `-ms`
            // spelling (`old` is `None`).
            for name in std::iter::once(a.name).chain(old) {
                for v in ["18446744073709551615s", "-1", "junk"] {
                    let flag = format!("--{name}={v}");
                    fails_with(&["lab", e.name, &flag], &[], &format!("--{name} "));
                }
            }
        }
    }
}
