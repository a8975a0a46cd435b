//! The reduced Go cell CI runs, so the go subject's driver cannot rot:
//! Go's wait staircase (a thread per raw `read(2)`, none on the netpoller),
//! starve (nothing queued: every slow wait in flight at once) and Go's DNS
//! lookups (24 names in flight with Go's own resolver, and a
//! thread per lookup with the C library's). Counts only. Skips, saying why,
//! where no Go is installed (CI installs one: `.ci/run`).

mod common;

use common::{lab, metric, netns_available, no_go, refused, run};
use serde_json::{Value, json};
use std::path::Path;
use std::sync::Mutex;

/// `sluice lab LINE --subjects go` (as [`lab`]), one Go cell at a time:
/// each holds threads and cores the others would count or wait for (2000
/// blocked calls in spawn-bill). `None`, saying why, where no Go is
/// installed.
fn go_lab(line: &str) -> Option<(Value, String)> {
    static SERIAL: Mutex<()> = Mutex::new(());
    let _serial = sluice::sync::lock(&SERIAL);
    let what = line.split_whitespace().next().unwrap_or(line);
    (!skipped(what)).then(|| lab(&format!("{line} --subjects go")))
}

/// Whether no Go is installed (then saying that Go's `what` is skipped).
fn skipped(what: &str) -> bool {
    no_go()
        .inspect(|why| eprintln!("skipping Go's {what}: {why}"))
        .is_some()
}

#[test]
fn go_waits_hold_a_thread_each_in_read_and_none_on_the_netpoller() {
    // Go hands a P on from a blocked thread when its sysmon looks (every
    // 20 us to 10 ms): 16 hand-offs can take 160 ms on a loaded machine, and
    // every read must still be held when the last blocks (--hold-ms 600).
    let Some((v, text)) = go_lab("staircase --kind wait --n 1,4,16 --pools 2 --hold-ms 600") else {
        return;
    };
    common::assert_schema(&v, "staircase");
    assert!(
        v["machine"]["go"].as_str().unwrap().starts_with("go1."),
        "the machine line names the Go that ran: {}",
        v["machine"]
    );
    for n in [1, 4, 16] {
        let p = [("kind", json!("wait")), ("pool", json!(2)), ("n", json!(n))];
        // Raw read(2): each goroutine's thread blocks, the P moves on to a
        // new thread: every wait in flight at once, whatever GOMAXPROCS.
        assert_eq!(metric(&v, "go", &p, "max_in_flight"), n as f64, "go n={n}");
        assert!(metric(&v, "go", &p, "threads_peak") >= n as f64, "go n={n}");
        // The netpoller: no thread in read(2) at all.
        assert_eq!(
            metric(&v, "go-netpoll", &p, "max_in_flight"),
            0.0,
            "go-netpoll n={n}"
        );
        assert!(metric(&v, "go-netpoll", &p, "total_ms") > 0.0);
    }
    let at16 = [
        ("kind", json!("wait")),
        ("pool", json!(2)),
        ("n", json!(16)),
    ];
    assert!(
        metric(&v, "go-netpoll", &at16, "threads_peak") < 16.0,
        "16 netpoller waits did not take a thread each"
    );
    assert!(
        text.contains("go: pool 2 is GOMAXPROCS=2"),
        "the notes say how a pool maps onto Go: {text}"
    );
}

#[test]
fn go_resolves_every_name_at_once_with_its_own_resolver() {
    if let Err(why) = netns_available() {
        eprintln!("skipping Go's dns: sluice lab-netns cannot make its namespaces here: {why}");
        return;
    }
    let Some((v, _)) = go_lab("dns --pools 2 --names 24 --hold-ms 150") else {
        return;
    };
    let at = |method: &str| vec![("pool", json!(2)), ("method", json!(method))];
    // Go's own resolver: every name in flight, GOMAXPROCS 2 or not, no
    // thread per lookup, /etc/hosts honoured as getaddrinfo honours it.
    assert_eq!(metric(&v, "go", &at("pure"), "max_in_flight"), 24.0);
    assert_eq!(metric(&v, "go", &at("pure"), "resolved"), 24.0);
    assert_eq!(metric(&v, "go", &at("pure"), "hosts_match"), 1.0);
    assert!(metric(&v, "go", &at("pure"), "threads_peak") < 24.0);
    // getaddrinfo through cgo: every name in flight too, a thread each.
    assert_eq!(metric(&v, "go", &at("cgo"), "max_in_flight"), 24.0);
    for method in ["pure", "cgo"] {
        // One A query per name, none sent again.
        assert_eq!(metric(&v, "go", &at(method), "queries"), 24.0, "{method}");
        assert_eq!(metric(&v, "go", &at(method), "resolved"), 24.0, "{method}");
    }
    assert!(metric(&v, "go", &at("cgo"), "threads_peak") >= 24.0);
}

#[test]
fn go_queues_nothing_in_starve_every_slow_wait_holds_a_thread() {
    // Every raw read must be blocked before the first is released (--hold-ms
    // 400): Go hands a P on from a blocked thread when its sysmon looks.
    let Some((v, text)) = go_lab("starve --pools 4 --queued 8 --hold-ms 400 --cpu-ms 20") else {
        return;
    };
    common::assert_schema(&v, "starve");
    let at = |scenario: &str, probe: &str| {
        vec![
            ("scenario", json!(scenario)),
            ("pool", json!(4)),
            ("queued", json!(8)),
            ("probe", json!(probe)),
        ]
    };
    // A: no pool, no slow-I/O rule: all 8 raw reads blocked in read(2) at
    // once, each on a thread of its own (libuv's rule would allow 2).
    assert_eq!(metric(&v, "go", &at("A", "total"), "max_in_flight"), 8.0);
    // B: the one slow wait is the only FIFO read.
    assert_eq!(metric(&v, "go", &at("B", "total"), "max_in_flight"), 1.0);
    for scenario in ["A", "B"] {
        let total = at(scenario, "total");
        assert_eq!(metric(&v, "go", &total, "completed"), 8.0, "{scenario}");
        assert!(metric(&v, "go", &total, "iterations") >= 1.0);
        assert!(metric(&v, "go", &total, "task_ms") > 0.0);
    }
    for (scenario, probe) in [
        ("A", "file_read"),
        ("A", "cpu_task"),
        ("B", "file_read"),
        ("B", "slow_wait"),
    ] {
        let wait = metric(&v, "go", &at(scenario, probe), "wait_ms");
        let probe_ms = metric(&v, "go", &at(scenario, probe), "probe_ms");
        assert!(wait >= 0.0 && probe_ms >= wait, "go {scenario} {probe}");
    }
    let slow = common::rows(&v, "go", &at("B", "slow_wait"));
    assert!(
        slow[0]["params"]["stand_in"]
            .as_str()
            .unwrap()
            .contains("FIFO syscall.Read held 400 ms"),
        "{}",
        slow[0]
    );
    assert!(
        text.contains("starve, pool 4: how long each probe waited") && text.contains("go"),
        "the report's starve table has a go column: {text}"
    );
}

#[test]
fn go_says_why_workers_does_not_apply() {
    if skipped("workers note") {
        return;
    }
    let text = run(&["lab", "workers", "--subjects", "go", "--no-progress"]).text();
    assert!(
        text.contains("go skipped") && text.contains("W x P") && text.contains("staircase"),
        "{text}"
    );
}

#[test]
fn a_missing_go_is_refused_by_name() {
    refused(
        &[
            "lab",
            "staircase",
            "--go",
            "/nonexistent/go",
            "--no-progress",
        ],
        "--go /nonexistent/go: no such file",
    );
    assert!(!Path::new("/nonexistent/go").exists());
}

#[test]
fn the_go_twin_serves_and_admits_gomaxprocs_plus_the_queue() {
    // Hashes longer than Go's 10 ms preemption slice (--iterations 60000:
    // about 25 ms here): at GOMAXPROCS 1 shorter ones finish one after
    // another and never overlap, so nothing is refused.
    let Some((v, _)) = go_lab(
        "http --cells ping,admission,crowd --pools 1 --concurrency 16 --crowd 32 \
         --crowd-iterations 1000 --duration-ms 800 --iterations 60000 --autocannon off",
    ) else {
        return;
    };
    let at = |cell: &str| vec![("pool", json!(1)), ("cell", json!(cell))];
    assert!(metric(&v, "go", &at("ping"), "ok") > 0.0);
    assert_eq!(metric(&v, "go", &at("ping"), "errors"), 0.0);
    // 16 clients against GOMAXPROCS 1 + a queue of 4: some are refused.
    assert!(metric(&v, "go", &at("admission"), "status_429") > 0.0);
    assert!(metric(&v, "go", &at("admission"), "ok") > 0.0);
    // The crowd: every connection answered, none refused or broken.
    assert_eq!(metric(&v, "go", &at("crowd"), "connections"), 32.0);
    assert!(metric(&v, "go", &at("crowd"), "ok") >= 32.0);
    assert_eq!(metric(&v, "go", &at("crowd"), "errors"), 0.0);
    assert_eq!(metric(&v, "go", &at("crowd"), "status_429"), 0.0);
    assert!(metric(&v, "go", &at("crowd-ping"), "ok") > 0.0);
}

#[test]
fn go_pays_a_thread_per_blocked_call_and_dies_past_its_thread_limit() {
    let Some((v, _)) = go_lab("spawn-bill --part bill --pools 16,2000") else {
        return;
    };
    for pool in [16u64, 2000] {
        let p = [("pool", json!(pool)), ("phase", json!("startup"))];
        // Every blocked call was seen in read(2) before the count: the
        // process holds at least one thread per call.
        assert!(
            metric(&v, "go", &p, "threads_after") > pool as f64,
            "pool {pool}"
        );
        assert!(metric(&v, "go", &p, "threads_added") >= 1.0, "pool {pool}");
    }
    // Past debug.SetMaxThreads, Go stops the process: reported, not hidden.
    let limited = common::rows(&v, "go-max-threads", &[("pool", json!(2000))]);
    assert_eq!(limited.len(), 1);
    let error = limited[0]["params"]["error"]
        .as_str()
        .expect("an error param");
    assert!(error.contains("thread exhaustion"), "{error}");
    assert!(common::rows(&v, "go-max-threads", &[("pool", json!(16))]).is_empty());
}
