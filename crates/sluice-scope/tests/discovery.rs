//! Pool discovery against a real Node: the pool's thread count, exactly,
//! for UV_THREADPOOL_SIZE 1, 4 and 16, by every method; nothing before the
//! first submission; a stripped node, idle and with every pool thread busy.
//! Counts only. (Debian's node with its shared, stripped libuv is in
//! `distro.rs`.)

mod common;

use common::NodeProc;
use sluice_scope::target::Target;
use sluice_scope::target::discovery::{self, Method, PoolStatus, Strategy};
use sluice_scope::target::memory::RemoteMemory;
use sluice_scope::{Options, Session};

/// The pool of `target` found by `strategy` (reading the symbols once per
/// target keeps the test quick).
fn found(target: &Target, strategy: Strategy) -> PoolStatus {
    let mem = RemoteMemory::open(target.pid).ok();
    discovery::discover(target, mem.as_ref(), strategy, None).unwrap()
}

/// Whether `t`'s libuv keeps the symbols of its pool (nodejs.org builds
/// do; a distribution's stripped `libuv.so.1` does not).
fn has_symbols(t: &Target) -> bool {
    let s = &t.image.symbols;
    s.nthreads.is_some() && s.threads.is_some() && s.cond.is_some()
}

fn size(status: &PoolStatus) -> (usize, Method) {
    let p = status
        .pool()
        .unwrap_or_else(|| panic!("no pool: {status:?}"));
    (p.size(), p.method)
}

#[test]
fn pool_threads_found_exactly_for_1_4_16() {
    for n in [1u32, 4, 16] {
        let node = NodeProc::start(None, n, &["idle"]);
        let t = Target::open(node.pid).unwrap();
        let n = n as usize;
        if has_symbols(&t) {
            // Node's official builds keep libuv's symbols: memory is exact.
            assert_eq!(size(&found(&t, Strategy::Auto)), (n, Method::Memory));
            assert_eq!(size(&found(&t, Strategy::Memory)), (n, Method::Memory));
            // Every thread idle: the futex on libuv's cond finds them all.
            assert_eq!(size(&found(&t, Strategy::Futex)), (n, Method::FutexSymbols));
        } else {
            assert_eq!(size(&found(&t, Strategy::Auto)), (n, Method::StartRoutine));
        }
        // Every build: each thread's start routine names the pool exactly.
        assert_eq!(size(&found(&t, Strategy::Start)), (n, Method::StartRoutine));
        let status = found(&t, Strategy::Auto);
        let tids = &status.pool().unwrap().tids;
        assert!(
            !tids.contains(&node.pid),
            "the loop thread is not a pool thread"
        );
    }
}

#[test]
fn before_the_first_submission_there_is_no_pool() {
    let node = NodeProc::start(None, 4, &["none"]);
    let t = Target::open(node.pid).unwrap();
    let status = found(&t, Strategy::Auto);
    if has_symbols(&t) {
        assert!(
            matches!(&status, PoolStatus::NotStarted { evidence } if evidence.contains("nthreads is 0")),
            "{status:?}"
        );
    } else {
        assert!(
            matches!(&status, PoolStatus::NotStarted { evidence } if evidence.contains("no thread was started at")),
            "{status:?}"
        );
    }
    let by_start = found(&t, Strategy::Start);
    assert!(
        matches!(&by_start, PoolStatus::NotStarted { .. }),
        "{by_start:?}"
    );
    // The futex method cannot tell "not started" from "all busy".
    assert!(matches!(
        found(&t, Strategy::Futex),
        PoolStatus::NotFound { .. }
    ));
}

#[test]
fn a_stripped_node_is_found_by_start_routine_busy_or_idle_and_by_the_heuristic_idle() {
    let dir = tempfile::tempdir().unwrap();
    let stripped = common::stripped_node(dir.path());
    for n in [1u32, 4, 16] {
        let node = NodeProc::start(Some(&stripped), n, &["idle"]);
        let t = Target::open(node.pid).unwrap();
        // Idle threads: the futex heuristic sees them too.
        for (strategy, method, says) in [
            (Strategy::Auto, Method::StartRoutine, "uv_* functions"),
            (Strategy::Futex, Method::FutexHeuristic, "heuristic"),
        ] {
            let status = found(&t, strategy);
            assert_eq!(size(&status), (n as usize, method), "{status:?}");
            assert!(status.summary().contains(says), "{}", status.summary());
        }
    }
    // Every pool thread busy: the start routine still finds them all; the
    // futex heuristic cannot, and says the pool is not found.
    let node = NodeProc::start(Some(&stripped), 4, &["cpu", "16"]);
    node.go();
    let t = Target::open(node.pid).unwrap();
    let busy = |tids: &[u32]| {
        tids.iter()
            .filter(|tid| {
                std::fs::read_to_string(format!("/proc/{}/task/{tid}/syscall", node.pid))
                    .is_ok_and(|s| s.starts_with("running"))
            })
            .count()
    };
    let mut all_busy = false;
    for _ in 0..100 {
        let status = found(&t, Strategy::Auto);
        assert_eq!(size(&status), (4, Method::StartRoutine), "{status:?}");
        if busy(&status.pool().unwrap().tids) == 4 {
            all_busy = true;
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    assert!(all_busy, "the 4 pool threads never ran at once");
    drop(node);
    // No symbols: probe mode refuses (root) or refuses earlier (not root).
    let node = NodeProc::start(Some(&stripped), 2, &["idle"]);
    let err = Session::attach(
        node.pid,
        Options {
            probe: true,
            ..Options::default()
        },
    )
    .unwrap_err()
    .to_string();
    let want = if rustix::process::geteuid().is_root() {
        "lacks the libuv symbols probes attach to (uv__work_submit, worker, uv__work_done)"
    } else {
        "uprobes are set through tracefs, which needs root"
    };
    assert!(err.contains(want), "{err}");
}
