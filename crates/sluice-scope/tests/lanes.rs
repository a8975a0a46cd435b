//! sluice's lanes beside libuv's pool, on a real node that uses sluice's npm
//! package through its preload (`node -r bindings/node/patch.js`): a Cpu
//! lane kept busy by `crypto.pbkdf2` calls (the preload runs them on the
//! lane) is saturated and named, with its queue read from the package's
//! gauge block (deep while more calls than threads are in flight, empty
//! once they have drained); an idle one is healthy; libuv's pool is found
//! with its own size and is not saturated by sluice's threads. Counts and
//! verdicts, never durations. Without the addon
//! (`bindings/node/sluice.node`, built by `node scripts/build.js`) the
//! tests say so and pass, as the other addon tests do.

use sluice_scope::{Options, Session, Verdict};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// `busy`: 16 pbkdf2 calls in flight at all times (more than the lane has
/// threads) until SIGUSR2, then none: it prints `drained` once the last
/// has settled. Otherwise one call, then idle. A second argument, the
/// package's directory, builds the pool first with
/// `configure({ cpu: 1, cpuSched: 'normal' })` (the other way the pool comes
/// to be; `normal`, because a `guarded` lane that other threads crowd runs
/// up to twice its budget, and the test counts the one thread). One `fs.access` starts libuv's
/// pool (the preload leaves it on libuv). 5000 iterations: a few hundred
/// ms each in the debug addon, so the queue drains in seconds.
const SCRIPT: &str = "if (process.argv[3]) require(process.argv[3]).configure({ cpu: 1, cpuSched: 'normal' });\nconst crypto = require('crypto');\nlet inflight = 0, stop = false;\nfunction go() { while (!stop && inflight < 16) { inflight++; crypto.pbkdf2('pw', 'salt', 5000, 64, 'sha512', () => { inflight--; if (stop && inflight === 0) console.log('drained'); go(); }); } }\nprocess.on('SIGUSR2', () => { stop = true; if (inflight === 0) console.log('drained'); });\nrequire('fs').access(__filename, () => {});\nif (process.argv[2] === 'busy') go(); else crypto.pbkdf2('pw', 'salt', 1, 64, 'sha512', () => {});\nsetInterval(() => {}, 1000);\nsetTimeout(() => console.log('ready'), 300);\n";

fn package() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../bindings/node");
    if dir.join("sluice.node").is_file() {
        Some(dir)
    } else {
        eprintln!(
            "skipped: {} is not built (cd bindings/node && node scripts/build.js)",
            dir.join("sluice.node").display()
        );
        None
    }
}

/// `node -r patch.js app.js MODE` with a libuv pool of 3; killed on drop.
struct Node {
    child: Child,
    stdout: BufReader<std::process::ChildStdout>,
    /// Holds app.js for the process's life.
    _dir: tempfile::TempDir,
}

impl Node {
    fn start(package: &Path, args: &[&str]) -> Node {
        let dir = tempfile::tempdir().unwrap();
        let app = dir.path().join("app.js");
        std::fs::write(&app, SCRIPT).unwrap();
        let mut child = Command::new("node")
            .arg("-r")
            .arg(package.join("patch.js"))
            .arg(&app)
            .args(args)
            .env("UV_THREADPOOL_SIZE", "3")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("node on PATH");
        let stdout = BufReader::new(child.stdout.take().unwrap());
        let mut node = Node {
            child,
            stdout,
            _dir: dir,
        };
        assert_eq!(node.line(), "ready");
        node
    }

    /// The next line it prints.
    fn line(&mut self) -> String {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        line.trim_end().to_string()
    }

    /// SIGUSR2: the busy script stops calling and says `drained` once the
    /// calls in flight have settled.
    fn stop_and_drain(&mut self) {
        rustix::process::kill_process(
            rustix::process::Pid::from_raw(self.child.id() as i32).unwrap(),
            rustix::process::Signal::USR2,
        )
        .unwrap();
        assert_eq!(self.line(), "drained");
    }
}

impl Drop for Node {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn window(pid: u32) -> sluice_scope::Report {
    let mut s = Session::attach(pid, Options::default()).unwrap();
    s.window(Duration::from_secs(2), &mut || false).unwrap()
}

#[test]
fn a_busy_cpu_lane_is_named_saturated_beside_an_idle_libuv_pool() {
    let Some(pkg) = package() else { return };
    let node = Node::start(&pkg, &["busy"]);
    let r = window(node.child.id());
    let cpu = r
        .sluice_lanes
        .iter()
        .find(|l| l.lane == "cpu")
        .unwrap_or_else(|| panic!("no cpu lane: {:?}", r.sluice_lanes));
    assert!(cpu.threads >= 1, "{cpu:?}");
    assert_eq!(
        cpu.verdict,
        Verdict::LaneSaturated(sluice::Lane::Cpu),
        "{cpu:?}"
    );
    assert!(cpu.evidence.starts_with("sluice's cpu lane saturated"));
    // 16 calls in flight on fewer threads: the rest wait in the queue.
    let depth = cpu.queue_depth.unwrap_or_else(|| panic!("{cpu:?}"));
    assert!(depth > 0.0, "{cpu:?}");
    assert!(cpu.queue_depth_max.unwrap() <= 16, "{cpu:?}");
    // libuv's pool is its own three threads, idle: sluice's busy threads
    // are not counted in it.
    assert_eq!(r.pool_size, 3, "{}", r.evidence);
    assert!(r.pool_started);
    assert_ne!(r.verdict, Verdict::PoolSaturated, "{}", r.evidence);
    assert_ne!(r.verdict, Verdict::Both, "{}", r.evidence);
    assert!(r.busy_threads_max <= 1, "{}", r.evidence);
    // The JSON names the lanes beside the pool.
    let json = serde_json::to_value(&r).unwrap();
    assert_eq!(json["sluice_lanes"][0]["lane"], "cpu");
    assert_eq!(json["sluice_lanes"][0]["verdict"], "pool-saturated");
    assert!(json["sluice_lanes"][0]["queue_depth"].as_f64().unwrap() > 0.0);
}

#[test]
fn a_lanes_queue_reads_deep_while_calls_wait_and_empty_once_drained() {
    let Some(pkg) = package() else { return };
    deep_then_drained(Node::start(&pkg, &["busy"]), None);
}

/// A pool built by `configure()` publishes its gauges as the one the first
/// call builds does: one Cpu thread (`normal`: never promoted, so never
/// more), the other 15 calls queued.
#[test]
fn a_configured_pools_queue_is_read_too() {
    let Some(pkg) = package() else { return };
    let dir = pkg.to_str().unwrap();
    deep_then_drained(Node::start(&pkg, &["busy", dir]), Some(1));
}

/// 16 calls in flight: the lane's queue reads deep (with `threads`, the
/// Cpu lane's threads, when known); after SIGUSR2 and the drain, empty.
fn deep_then_drained(mut node: Node, threads: Option<usize>) {
    let mut s = Session::attach(node.child.id(), Options::default()).unwrap();
    let busy = s.window(Duration::from_secs(2), &mut || false).unwrap();
    let cpu = busy.sluice_lanes.iter().find(|l| l.lane == "cpu").unwrap();
    eprintln!(
        "busy: {} threads, queue {:?} (max {:?}), running {:?}, {} of {} samples read: {}",
        cpu.threads,
        cpu.queue_depth,
        cpu.queue_depth_max,
        cpu.running,
        cpu.queue_readings,
        busy.samples,
        cpu.evidence
    );
    assert_eq!(cpu.queue_unread, None, "{cpu:?}");
    assert!(cpu.queue_readings > 0, "{cpu:?}");
    // Every one of the 16 calls is queued or running: the queue holds
    // what the lane's threads do not.
    let depth = cpu.queue_depth.unwrap();
    assert!(depth > 0.0 && depth <= 16.0, "{cpu:?}");
    let max = cpu.queue_depth_max.unwrap();
    assert!(max > 0 && max <= 16, "{cpu:?}");
    assert!(cpu.running.unwrap() > 0.0, "{cpu:?}");
    if let Some(n) = threads {
        assert_eq!(cpu.threads, n, "{cpu:?}");
        assert!(depth >= 10.0, "16 in flight on {n} thread: {cpu:?}");
    }
    assert!(
        cpu.evidence
            .contains("tasks waited in its queue on average"),
        "{}",
        cpu.evidence
    );
    node.stop_and_drain();
    let idle = s.window(Duration::from_secs(1), &mut || false).unwrap();
    let cpu = idle.sluice_lanes.iter().find(|l| l.lane == "cpu").unwrap();
    eprintln!(
        "drained: queue {:?} (max {:?}), running {:?}, {} of {} samples read",
        cpu.queue_depth, cpu.queue_depth_max, cpu.running, cpu.queue_readings, idle.samples
    );
    assert_eq!(cpu.queue_depth, Some(0.0), "{cpu:?}");
    assert_eq!(cpu.queue_depth_max, Some(0), "{cpu:?}");
    assert_eq!(cpu.verdict, Verdict::Healthy, "{cpu:?}");
    // The other lanes' queues are read too (empty: nothing waits there).
    for l in &idle.sluice_lanes {
        assert_eq!(l.queue_depth, Some(0.0), "{l:?}");
    }
}

#[test]
fn an_idle_package_has_healthy_lanes_and_a_process_without_it_none() {
    let Some(pkg) = package() else { return };
    let node = Node::start(&pkg, &["idle"]);
    let r = window(node.child.id());
    assert!(
        r.sluice_lanes
            .iter()
            .any(|l| l.lane == "cpu" && l.threads >= 1),
        "{:?}",
        r.sluice_lanes
    );
    for l in &r.sluice_lanes {
        assert_eq!(l.verdict, Verdict::Healthy, "{l:?}");
        assert!(l.saturation_pct < 80.0, "{l:?}");
    }
    assert_eq!(r.pool_size, 3, "{}", r.evidence);
    // Plain node: no lanes, and the JSON has no such field.
    let mut plain = Command::new("node")
        .args(["-e", "setInterval(() => {}, 1000); console.log('ready')"])
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut line = String::new();
    BufReader::new(plain.stdout.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    let r = window(plain.id());
    let _ = plain.kill();
    let _ = plain.wait();
    assert!(r.sluice_lanes.is_empty());
    assert!(
        serde_json::to_value(&r)
            .unwrap()
            .get("sluice_lanes")
            .is_none()
    );
}
