//! sluice's lanes beside libuv's pool, on a real node that uses sluice's npm
//! package through its preload (`node -r bindings/node/patch.js`): a Cpu
//! lane kept busy by `crypto.pbkdf2` calls (the preload runs them on the
//! lane) is saturated and named; an idle one is healthy; libuv's pool is
//! found with its own size and is not saturated by sluice's threads.
//! Counts and verdicts, never durations. Without the addon
//! (`bindings/node/sluice.node`, built by `node scripts/build.js`) the
//! tests say so and pass, as the other addon tests do.

use sluice_scope::{Options, Session, Verdict};
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

/// `busy`: 16 pbkdf2 calls in flight at all times (more than the lane has
/// threads); otherwise one, then idle. One `fs.access` starts libuv's pool
/// (the preload leaves it on libuv).
const SCRIPT: &str = "const crypto = require('crypto');\nlet inflight = 0;\nfunction go() { while (inflight < 16) { inflight++; crypto.pbkdf2('pw', 'salt', 50000, 64, 'sha512', () => { inflight--; go(); }); } }\nrequire('fs').access(__filename, () => {});\nif (process.argv[2] === 'busy') go(); else crypto.pbkdf2('pw', 'salt', 1, 64, 'sha512', () => {});\nsetInterval(() => {}, 1000);\nsetTimeout(() => console.log('ready'), 300);\n";

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
    /// Holds app.js for the process's life.
    _dir: tempfile::TempDir,
}

impl Node {
    fn start(package: &Path, mode: &str) -> Node {
        let dir = tempfile::tempdir().unwrap();
        let app = dir.path().join("app.js");
        std::fs::write(&app, SCRIPT).unwrap();
        let mut child = Command::new("node")
            .arg("-r")
            .arg(package.join("patch.js"))
            .arg(&app)
            .arg(mode)
            .env("UV_THREADPOOL_SIZE", "3")
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("node on PATH");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        assert_eq!(line.trim(), "ready");
        Node { child, _dir: dir }
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
    let node = Node::start(&pkg, "busy");
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
    assert_eq!(cpu.queue_depth, None, "not readable from outside");
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
}

#[test]
fn an_idle_package_has_healthy_lanes_and_a_process_without_it_none() {
    let Some(pkg) = package() else { return };
    let node = Node::start(&pkg, "idle");
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
