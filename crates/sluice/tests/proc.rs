//! What `/proc` shows: thread names and counts. Each check runs in a child
//! process (this test binary re-executed) so no other test's threads or
//! environment interfere, and `UV_THREADPOOL_SIZE` is set the only safe way:
//! before the process starts.

mod common;

use common::Gate;
use sluice::{Lane, Policy, Pool};
use std::process::Command;

/// Threads of this process whose name is `name`.
fn threads_named(name: &str) -> usize {
    std::fs::read_dir("/proc/self/task")
        .unwrap()
        .filter(|t| {
            let comm = t.as_ref().unwrap().path().join("comm");
            std::fs::read_to_string(comm).is_ok_and(|c| c.trim_end() == name)
        })
        .count()
}

/// Runs the named child test in a fresh process with `env`, returning its stdout.
fn child(test: &str, env: &[(&str, Option<&str>)]) -> String {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args([
        test,
        "--exact",
        "--ignored",
        "--nocapture",
        "--test-threads=1",
    ]);
    cmd.env("SLUICE_PROC_CHILD", "1");
    for (k, v) in env {
        match v {
            Some(v) => cmd.env(k, v),
            None => cmd.env_remove(k),
        };
    }
    let out = cmd.output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(
        out.status.success(),
        "child {test} failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
}

fn reported(stdout: &str, key: &str) -> usize {
    // The harness prints "test NAME ... " before the child's first line.
    stdout
        .split_whitespace()
        .find_map(|w| w.strip_prefix(&format!("{key}=")))
        .unwrap_or_else(|| panic!("no {key}= in {stdout}"))
        .trim()
        .parse()
        .unwrap()
}

#[test]
#[ignore = "child process of lanes_threads_are_named_by_lane"]
fn child_lanes_names() {
    let pool = Pool::builder().threads(Lane::FastIo, 3).build().unwrap();
    let gate = Gate::new();
    let tasks = gate.hold(&pool, Lane::FastIo, 3);
    // The burst's threads start one after another: count once all three
    // tasks are running.
    gate.wait_inside(3);
    let slow = pool.spawn(Lane::SlowIo, || ());
    let cpu = pool.spawn(Lane::Cpu, || ());
    slow.wait().unwrap();
    cpu.wait().unwrap();
    println!("fastio={}", threads_named("sluice-fastio"));
    println!("slowio={}", threads_named("sluice-slowio"));
    println!("cpu={}", threads_named("sluice-cpu"));
    println!("cpu_nice={}", nice_of("sluice-cpu"));
    println!("fastio_nice={}", nice_of("sluice-fastio"));
    println!(
        "own_nice={}",
        rustix::process::getpriority_process(None).unwrap()
    );
    gate.release(tasks);
}

#[test]
fn lanes_threads_are_named_by_lane() {
    let out = child("child_lanes_names", &[]);
    assert_eq!(reported(&out, "fastio"), 3);
    assert_eq!(reported(&out, "slowio"), 1);
    assert_eq!(reported(&out, "cpu"), 1);
    // Relative to the process's own nice value (0 unless the tests run under
    // `nice`): Cpu workers at 10 or lower priority, I/O workers at the
    // process's.
    let own = reported(&out, "own_nice");
    assert_eq!(
        reported(&out, "cpu_nice"),
        own.max(10),
        "Cpu workers yield to the loop and the I/O lanes"
    );
    assert_eq!(reported(&out, "fastio_nice"), own);
}

/// The nice value of the first thread named `name` (`/proc/self/task/TID/stat`
/// field 19).
fn nice_of(name: &str) -> i64 {
    for t in std::fs::read_dir("/proc/self/task").unwrap() {
        let dir = t.unwrap().path();
        if std::fs::read_to_string(dir.join("comm")).is_ok_and(|c| c.trim_end() == name) {
            let stat = std::fs::read_to_string(dir.join("stat")).unwrap();
            let after_comm = &stat[stat.rfind(')').unwrap() + 2..];
            // Fields from 3 (state) on; nice is field 19.
            return after_comm
                .split_whitespace()
                .nth(19 - 3)
                .unwrap()
                .parse()
                .unwrap();
        }
    }
    panic!("no thread named {name}");
}

#[test]
#[ignore = "child process of libuv_policy_reads_uv_threadpool_size_once_at_first_submit"]
fn child_libuv_lazy() {
    let pool = Pool::builder()
        .policy(Policy::Libuv { threads: None })
        .build()
        .unwrap();
    println!("after_build={}", threads_named("sluice-libuv"));
    pool.spawn(Lane::FastIo, || ()).wait().unwrap();
    println!("after_first={}", threads_named("sluice-libuv"));
    println!("limit_slowio={}", pool.limit(Lane::SlowIo));
}

#[test]
fn libuv_policy_reads_uv_threadpool_size_once_at_first_submit() {
    // Node 20 (libuv 1.46) on this machine: unset → 4, "0"/"abc" → 1,
    // "3abc" → 3, "-1"/"2000" → 1024 (compat::libuv_nthreads has the table).
    for (value, want) in [
        (None, 4),
        (Some("1"), 1),
        (Some("abc"), 1),
        (Some("3abc"), 3),
        (Some("16"), 16),
        (Some("-1"), 1024),
        (Some("2000"), 1024),
    ] {
        let out = child("child_libuv_lazy", &[("UV_THREADPOOL_SIZE", value)]);
        assert_eq!(
            reported(&out, "after_build"),
            0,
            "no thread before the first submission"
        );
        assert_eq!(
            reported(&out, "after_first"),
            want,
            "UV_THREADPOOL_SIZE={value:?}"
        );
        assert_eq!(reported(&out, "limit_slowio"), want.div_ceil(2));
    }
}

#[test]
#[ignore = "child process of from_env_reads_sluice_variables"]
fn child_from_env() {
    match sluice::Builder::from_env().and_then(|b| b.build()) {
        Ok(pool) => println!("fastio={}", pool.limit(Lane::FastIo)),
        Err(e) => println!("error={e}"),
    }
}

#[test]
fn from_env_reads_sluice_variables() {
    let out = child("child_from_env", &[("SLUICE_FASTIO_THREADS", Some("12"))]);
    assert_eq!(reported(&out, "fastio"), 12);
    let out = child(
        "child_from_env",
        &[("SLUICE_FASTIO_THREADS", Some("twelve"))],
    );
    assert!(
        out.contains("error=SLUICE_FASTIO_THREADS=\"twelve\" is not a number; expected 1..=1024"),
        "{out}"
    );
}

/// This process's descriptors whose link names a `schedstat` file: their
/// numbers.
fn schedstat_numbers() -> Vec<i32> {
    std::fs::read_dir("/proc/self/fd")
        .unwrap()
        .filter_map(|e| {
            let e = e.ok()?;
            let target = std::fs::read_link(e.path()).ok()?;
            target
                .to_string_lossy()
                .ends_with("/schedstat")
                .then(|| e.file_name().to_string_lossy().parse().unwrap())
        })
        .collect()
}

#[test]
#[ignore = "child process of a_worker_started_later_takes_no_number_the_program_closed"]
fn child_closed_number() {
    let pool = Pool::builder().threads(Lane::FastIo, 4).build().unwrap();
    // The lowest free number, as a program's open takes it, then closed.
    let file = std::fs::File::open("/dev/null").unwrap();
    let number = std::os::fd::AsRawFd::as_raw_fd(&file);
    drop(file);
    // Four workers start now, each opening its schedstat file.
    let gate = Gate::new();
    let tasks = gate.hold(&pool, Lane::FastIo, 4);
    gate.wait_inside(4);
    let names = std::fs::read_link(format!("/proc/self/fd/{number}"))
        .map_or_else(|_| "closed".to_owned(), |t| t.display().to_string());
    println!("number_after_spawns={names}");
    let numbers = schedstat_numbers();
    println!("schedstat_files={}", numbers.len());
    println!(
        "schedstat_low={}",
        numbers
            .iter()
            .filter(|&&n| n < sluice::fd::HIGH_FLOOR)
            .count()
    );
    gate.release(tasks);
}

#[test]
fn a_worker_started_later_takes_no_number_the_program_closed() {
    // A program that reads or closes a number it has just closed gets
    // EBADF from the kernel, with or without sluice: a worker started
    // after the close must not take the number for its schedstat file.
    let out = child("child_closed_number", &[]);
    assert!(
        out.contains("number_after_spawns=closed"),
        "a worker's file took the number: {out}"
    );
    assert_eq!(reported(&out, "schedstat_files"), 4, "{out}");
    assert_eq!(reported(&out, "schedstat_low"), 0, "{out}");
}
