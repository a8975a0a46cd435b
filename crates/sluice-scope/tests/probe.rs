//! Probe mode against a real Node (root, a kernel with uprobes): per-kind
//! counts and queue depth match what the workload submitted, and no probe
//! is left behind. Where probes cannot run, the refusal is what is tested.

mod common;

use common::NodeProc;
use sluice_scope::probe::tracefs::Tracefs;
use sluice_scope::{Options, ProbeRefusal, Report, ScopeError, Session};
use std::io::Write;
use std::time::Duration;

/// `Some(why)` when probes cannot run on process `pid` here: not root,
/// no symbols (a distribution's stripped libuv), no uprobes in the kernel.
fn unavailable(pid: u32) -> Option<ProbeRefusal> {
    let target = sluice_scope::target::Target::open(pid).unwrap();
    if let Err(e) = sluice_scope::probe::preflight(&target) {
        return Some(e);
    }
    match Tracefs::find_or_mount() {
        Err(e) => Some(e),
        Ok(t) => t.check_uprobes().err(),
    }
}

fn probe_options() -> Options {
    Options {
        probe: true,
        ..Options::default()
    }
}

/// Whether group `g` is still defined anywhere in the kernel.
fn defined(g: &str) -> bool {
    let t = Tracefs::find_or_mount().unwrap();
    let in_events = t
        .probes()
        .unwrap()
        .iter()
        .any(|l| l.contains(&format!(":{g}/")));
    in_events || t.root().join("instances").join(g).exists()
}

#[test]
fn counts_per_kind_match_what_node_submitted() {
    let node_dir = tempfile::tempdir().unwrap();
    let fifo = node_dir.path().join("hold");
    rustix::fs::mknodat(
        rustix::fs::CWD,
        &fifo,
        rustix::fs::FileType::Fifo,
        rustix::fs::Mode::from_raw_mode(0o600),
        0,
    )
    .unwrap();
    let mut node = NodeProc::start(None, 2, &["mix", "0", fifo.to_str().unwrap()]);
    let attached = Session::attach(node.pid, probe_options());
    if let Some(why) = unavailable(node.pid) {
        let err = attached.unwrap_err();
        assert!(
            matches!(&err, ScopeError::ProbeRefused(r) if *r == why),
            "{err}"
        );
        return;
    }
    let mut s = attached.unwrap();
    let group = s.probe_group().unwrap().to_string();
    assert!(defined(&group));
    node.go();
    // Both threads block on the FIFO; 8 pbkdf2 and 3 lookups queue behind.
    let mut reports: Vec<Report> =
        vec![s.window(Duration::from_millis(300), &mut || false).unwrap()];
    let mut hold = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&fifo)
        .unwrap();
    hold.write_all(b"xx").unwrap();
    assert_eq!(node.line(), "done");
    for _ in 0..100 {
        match s.window(Duration::from_millis(200), &mut || false) {
            Ok(r) => reports.push(r),
            Err(ScopeError::Exited { .. }) => break,
            Err(e) => panic!("{e}"),
        }
    }
    let probes: Vec<_> = reports.iter().map(|r| r.probe.clone().unwrap()).collect();
    let sum =
        |f: &dyn Fn(&sluice_scope::probe::ProbeReport) -> u64| probes.iter().map(f).sum::<u64>();
    assert_eq!(sum(&|p| p.cpu.submitted), 8);
    assert_eq!(sum(&|p| p.fast_io.submitted), 2);
    assert_eq!(sum(&|p| p.slow_io.submitted), 3);
    for (kind, n) in [("cpu", 8), ("fast_io", 2), ("slow_io", 3)] {
        let k = |p: &sluice_scope::probe::ProbeReport| match kind {
            "cpu" => p.cpu.clone(),
            "fast_io" => p.fast_io.clone(),
            _ => p.slow_io.clone(),
        };
        assert_eq!(sum(&|p| k(p).started), n, "{kind} started");
        assert_eq!(sum(&|p| k(p).completed), n, "{kind} completed");
        assert_eq!(sum(&|p| k(p).delivered), n, "{kind} delivered");
    }
    // While the reads held both threads, everything else waited.
    assert_eq!(probes[0].cpu.queue_depth_max, 8);
    assert_eq!(probes[0].slow_io.queue_depth_max, 3);
    assert_eq!(probes[0].fast_io.queue_depth, 0);
    assert_eq!(sum(&|p| p.unknown.started), 0);
    assert_eq!(sum(&|p| p.lost_events), 0);
    assert!(s.close().is_empty());
    assert!(!defined(&group), "{group} left behind");
}

#[test]
fn a_dropped_session_removes_its_probes() {
    let node = NodeProc::start(None, 2, &["idle"]);
    if let Some(why) = unavailable(node.pid) {
        let err = Session::attach(node.pid, probe_options()).unwrap_err();
        assert!(
            matches!(&err, ScopeError::ProbeRefused(r) if *r == why),
            "{err}"
        );
        return;
    }
    let s = Session::attach(node.pid, probe_options()).unwrap();
    let group = s.probe_group().unwrap().to_string();
    assert!(defined(&group));
    drop(s);
    assert!(!defined(&group), "{group} left behind");
}
