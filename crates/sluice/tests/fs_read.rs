//! `sluice::fs::read` answers as `std::fs::read` does, bytes and errors,
//! for regular files of every size around a page, files whose length the
//! kernel does not know (`/proc`), a directory and a missing path; a file
//! grown after it was read is read whole the next time.

mod common;

use common::error_key;
use sluice::{Lane, Pool, fs};
use std::io::Write;

#[test]
fn regular_files_read_as_std_reads_them() {
    let pool = Pool::builder().build().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let sizes = [0usize, 1, 4095, 4096, 4097, 65_536, 1 << 20, (1 << 20) + 3];
    for n in sizes {
        let p = dir.path().join(format!("f{n}"));
        let bytes: Vec<u8> = (0..n).map(|i| (i * 31 + n) as u8).collect();
        std::fs::write(&p, &bytes).unwrap();
        assert_eq!(
            fs::read(&pool, &p).wait().unwrap().unwrap(),
            bytes,
            "{n} bytes"
        );
    }
    assert_eq!(
        pool.metrics().lane(Lane::FastIo).completed_total,
        sizes.len() as u64
    );
}

#[test]
fn a_file_without_a_known_length_is_read_to_its_end() {
    let pool = Pool::builder().build().unwrap();
    // `/proc` files report a length of 0 and hold text.
    let got = fs::read(&pool, "/proc/self/status")
        .wait()
        .unwrap()
        .unwrap();
    let text = String::from_utf8(got).unwrap();
    assert!(text.starts_with("Name:"), "{text:?}");
    assert!(text.contains("\nThreads:"), "{text:?}");
}

#[test]
fn errors_are_std_s() {
    let pool = Pool::builder().build().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("f");
    std::fs::write(&file, b"x").unwrap();
    for p in [
        dir.path().to_path_buf(),     // EISDIR at the read
        dir.path().join("missing"),   // ENOENT
        file.join("below"),           // ENOTDIR
        dir.path().join("nul\0byte"), // InvalidInput
    ] {
        let got = fs::read(&pool, &p).wait().unwrap();
        let want = std::fs::read(&p);
        assert!(want.is_err(), "{p:?}");
        assert_eq!(error_key(&got), error_key(&want), "{p:?}");
    }
}

#[test]
fn a_file_that_grew_is_read_whole_the_next_time() {
    let pool = Pool::builder().build().unwrap();
    let dir = tempfile::tempdir().unwrap();
    let p = dir.path().join("log");
    let mut f = std::fs::File::create(&p).unwrap();
    f.write_all(b"one\n").unwrap();
    assert_eq!(fs::read(&pool, &p).wait().unwrap().unwrap(), b"one\n");
    f.write_all(b"two\n").unwrap();
    assert_eq!(fs::read(&pool, &p).wait().unwrap().unwrap(), b"one\ntwo\n");
    // Shrunk: read to its new end.
    f.set_len(2).unwrap();
    assert_eq!(fs::read(&pool, &p).wait().unwrap().unwrap(), b"on");
}
