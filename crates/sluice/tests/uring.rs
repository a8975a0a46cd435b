//! FastIo's io_uring path (`Builder::fast_io_uring`) answers `fs::read` and
//! `fs::stat` exactly as the thread path does, bytes, fields and errors, and
//! so does its forced fallback. On a kernel or sandbox that refuses
//! io_uring, the "on" pool is a fallback too, and the test says so by its
//! counts.

mod common;

use common::error_key;
use sluice::{Builder, Pool, fs};
use std::io;
use std::path::{Path, PathBuf};

fn cases(dir: &Path) -> Vec<PathBuf> {
    let sizes = [0, 1, 100, 4096, 65_535, sluice_uring_cap(), 100_000];
    let mut paths = Vec::new();
    for n in sizes {
        let p = dir.join(format!("f{n}"));
        let bytes: Vec<u8> = (0..n).map(|i| (i * 7 + n) as u8).collect();
        std::fs::write(&p, bytes).unwrap();
        paths.push(p);
    }
    std::os::unix::fs::symlink(dir.join("f100"), dir.join("link")).unwrap();
    std::fs::create_dir(dir.join("sub")).unwrap();
    paths.extend([
        dir.join("link"),
        dir.join("sub"),                // EISDIR on read
        dir.join("missing"),            // ENOENT
        dir.join("f100").join("below"), // ENOTDIR
        dir.join("nul\0byte"),          // InvalidInput, no errno
    ]);
    paths
}

/// The ring's cap (64 KiB), a file exactly that long goes to the threads.
fn sluice_uring_cap() -> usize {
    64 * 1024
}

#[test]
fn ring_and_fallback_answer_as_the_threads_do() {
    let dir = tempfile::tempdir().unwrap();
    let paths = cases(dir.path());
    let threads = Pool::builder().build().unwrap();
    let ring = Pool::builder().fast_io_uring(true).build().unwrap();
    let refused = Pool::builder().fast_io_uring_refused().build().unwrap();

    // Stats first: a read may move atime.
    for p in &paths {
        let want = fs::stat(&threads, p).wait().unwrap();
        if let Ok(w) = &want {
            let std = std::fs::metadata(p).unwrap();
            assert_eq!(w, &fs::Stat::from(&std), "{p:?}");
        }
        for pool in [&ring, &refused] {
            let got = fs::stat(pool, p).wait().unwrap();
            assert_eq!(error_key(&got), error_key(&want), "stat {p:?}");
            assert_eq!(got.ok(), want.as_ref().ok().copied(), "stat {p:?}");
        }
    }
    for p in &paths {
        let want = fs::read(&threads, p).wait().unwrap();
        for pool in [&ring, &refused] {
            let got = fs::read(pool, p).wait().unwrap();
            assert_eq!(error_key(&got), error_key(&want), "read {p:?}");
            assert_eq!(got.ok(), want.as_ref().ok().cloned(), "read {p:?}");
        }
    }
    let errors = |f: &dyn Fn(&Path) -> bool| paths.iter().filter(|p| f(p)).count() as u64;
    assert_eq!(errors(&|p| std::fs::metadata(p).is_err()), 3);
    assert_eq!(errors(&|p| std::fs::read(p).is_err()), 4);

    let n = paths.len() as u64;
    assert!(threads.fast_io_uring().refused.is_none());
    let s = refused.fast_io_uring();
    assert!(s.requested && !s.active);
    let eperm = io::Error::from_raw_os_error(1); // EPERM, as a seccomp filter answers
    assert_eq!(s.refused, Some(format!("io_uring_setup: {eperm}")));
    assert_eq!((s.ring_ops, s.thread_ops), (0, 2 * n));

    let s = ring.fast_io_uring();
    assert!(s.requested);
    if s.active {
        // Through the threads: the two files of 64 KiB and more (read
        // only) and the path with a NUL byte (read and stat).
        assert_eq!(s.thread_ops, 2 + 2);
        assert_eq!(s.ring_ops, 2 * n - 4);
    } else {
        eprintln!("io_uring refused here: {:?}", s.refused);
        assert_eq!((s.ring_ops, s.thread_ops), (0, 2 * n));
    }
}

#[test]
fn the_environment_turns_it_on_refuses_it_or_rejects_junk() {
    let vars = |v: &'static str| move |k: &str| (k == "SLUICE_FASTIO_URING").then(|| v.to_string());
    let off = Builder::from_vars(vars("off")).unwrap().build().unwrap();
    assert!(!off.fast_io_uring().requested);
    let on = Builder::from_vars(vars("on")).unwrap().build().unwrap();
    assert!(on.fast_io_uring().requested);
    let refused = Builder::from_vars(vars(" Refused "))
        .unwrap()
        .build()
        .unwrap();
    let s = refused.fast_io_uring();
    assert!(s.requested && !s.active);
    let err = Builder::from_vars(vars("maybe")).unwrap_err();
    assert_eq!(err.knob(), Some(sluice::Knob::FastIoUring));
    assert_eq!(
        err.to_string(),
        "SLUICE_FASTIO_URING=\"maybe\" is not accepted; expected on, off, 1, 0, true, false, yes, no or refused"
    );
}
