//! sluice's crypto and zlib operations give Node's bytes for Node's inputs.
//!
//! The vectors are `tests/vectors/ops.json`, produced by `node
//! tests/vectors/ops.js`. Where `node` is on PATH the test regenerates them
//! and requires the checked-in file to match, so the file cannot go stale;
//! without node the checked-in file is used as it is.

use serde_json::Value;
use sha2::Digest as _;
use sluice::crypto::{self, Digest, ScryptParams};
use sluice::{Pool, zlib};
use std::io::Write;
use std::process::{Command, Stdio};

const VECTORS: &str = include_str!("vectors/ops.json");

fn node() -> Option<std::path::PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join("node"))
        .find(|p| p.is_file())
}

fn vectors() -> Value {
    serde_json::from_str(VECTORS).unwrap()
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// The gzip test inputs, built exactly as ops.js builds them.
fn text(lines: u64) -> Vec<u8> {
    (0..lines)
        .map(|i| format!("sluice lane {}\n", i % 97))
        .collect::<String>()
        .into_bytes()
}

#[test]
fn checked_in_vectors_match_this_node() {
    let Some(node) = node() else {
        eprintln!("node not on PATH: using the checked-in vectors as they are");
        return;
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/vectors/ops.js");
    let out = Command::new(node).arg(script).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let fresh: Value = serde_json::from_slice(&out.stdout).unwrap();
    let mut stored = vectors();
    // Only the algorithms must agree; the node version may differ.
    stored["node"] = fresh["node"].clone();
    assert_eq!(
        fresh, stored,
        "tests/vectors/ops.json is stale: regenerate it with `node tests/vectors/ops.js`"
    );
}

/// Each vector of `kind`: the key `derive` computes for it on a pool is
/// its `key`.
fn keys_equal_node(kind: &str, derive: impl Fn(&Pool, &Value) -> KeyTask) {
    let pool = Pool::builder().build().unwrap();
    for v in vectors()[kind].as_array().unwrap() {
        let key = derive(&pool, v).wait().unwrap().unwrap();
        assert_eq!(hex(&key), v["key"].as_str().unwrap(), "{v}");
    }
}

/// A key derivation's task.
type KeyTask = sluice::Task<Result<Vec<u8>, crypto::CryptoError>>;

/// Text field `k` of vector `v`, as bytes.
fn field<'v>(v: &'v Value, k: &str) -> &'v [u8] {
    v[k].as_str().unwrap().as_bytes()
}

/// Number field `k` of vector `v`.
fn num(v: &Value, k: &str) -> u64 {
    v[k].as_u64().unwrap()
}

#[test]
fn pbkdf2_equals_node() {
    keys_equal_node("pbkdf2", |pool, v| {
        let digest: Digest = v["digest"].as_str().unwrap().parse().unwrap();
        let (rounds, len) = (num(v, "iterations") as u32, num(v, "key_len") as usize);
        crypto::pbkdf2(
            pool,
            field(v, "password"),
            field(v, "salt"),
            rounds,
            len,
            digest,
        )
    });
}

#[test]
fn scrypt_equals_node() {
    keys_equal_node("scrypt", |pool, v| {
        let params = ScryptParams {
            n: num(v, "n"),
            r: num(v, "r") as u32,
            p: num(v, "p") as u32,
        };
        let len = num(v, "key_len") as usize;
        crypto::scrypt(pool, field(v, "password"), field(v, "salt"), len, params)
    });
}

#[test]
fn hkdf_equals_node() {
    let pool = Pool::builder().build().unwrap();
    let hkdf = vectors()["hkdf"].as_array().unwrap().clone();
    assert_eq!(hkdf.len(), 5 * Digest::ALL.len());
    for v in hkdf {
        let digest: Digest = v["digest"].as_str().unwrap().parse().unwrap();
        let s = |k: &str| v[k].as_str().unwrap().as_bytes().to_vec();
        let len = v["key_len"].as_u64().unwrap() as usize;
        let okm = crypto::hkdf(&pool, digest, &s("key"), &s("salt"), &s("info"), len)
            .wait()
            .unwrap()
            .unwrap();
        assert_eq!(okm.len(), len);
        match v["okm"].as_str() {
            Some(want) => assert_eq!(hex(&okm), want, "{v}"),
            None => assert_eq!(
                hex(&sha2::Sha256::digest(&okm)),
                v["okm_sha256"].as_str().unwrap(),
                "{v}"
            ),
        }
    }
}

/// Each gzip vector on `pool`: the vector, its input (built as ops.js
/// builds it) and sluice's gzip of that input at the default level.
fn gzip_vectors(pool: &Pool) -> Vec<(Value, Vec<u8>, Vec<u8>)> {
    let all = vectors()["gzip"].as_array().unwrap().clone();
    all.into_iter()
        .map(|v| {
            let input = text(num(&v, "input_lines"));
            let ours = zlib::gzip(pool, &input, zlib::DEFAULT_LEVEL);
            let ours = ours.wait().unwrap().unwrap();
            (v, input, ours)
        })
        .collect()
}

#[test]
fn gunzip_reads_nodes_gzip_and_headers_match() {
    let pool = Pool::builder().build().unwrap();
    for (v, input, ours) in gzip_vectors(&pool) {
        assert_eq!(
            hex(&sha2::Sha256::digest(&input)),
            v["input_sha256"].as_str().unwrap()
        );
        let nodes = unhex(v["gzip"].as_str().unwrap());
        assert_eq!(zlib::gunzip(&pool, &nodes).wait().unwrap().unwrap(), input);
        assert_eq!(
            ours[..10],
            nodes[..10],
            "gzip header (magic, method, flags, mtime, xfl, OS)"
        );
    }
}

#[test]
fn node_gunzips_our_gzip() {
    let Some(node) = node() else {
        eprintln!("node not on PATH: skipping the node side of the gzip round trip");
        return;
    };
    let pool = Pool::builder().build().unwrap();
    let input = text(5000);
    let ours = zlib::gzip(&pool, &input, 9).wait().unwrap().unwrap();
    let mut child = Command::new(node)
        .args(["-e", "let c=[];process.stdin.on('data',d=>c.push(d)).on('end',()=>process.stdout.write(require('zlib').gunzipSync(Buffer.concat(c))))"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(&ours).unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(out.stdout, input);
}

#[test]
fn bad_inputs_are_refused_with_the_value() {
    let pool = Pool::builder().build().unwrap();
    let e = crypto::pbkdf2(&pool, b"p", b"s", 0, 32, Digest::Sha256)
        .wait()
        .unwrap()
        .unwrap_err();
    assert_eq!(e.to_string(), "iterations = 0; expected at least 1");
    let e = crypto::pbkdf2(&pool, b"p", b"s", 1, 0, Digest::Sha256)
        .wait()
        .unwrap()
        .unwrap_err();
    assert_eq!(e.to_string(), "key length = 0; expected 1..=1073741824");
    assert_eq!(
        "md5".parse::<Digest>().unwrap_err().to_string(),
        "unknown digest \"md5\"; expected sha1, sha224, sha256, sha384, sha512, sha512-224 or sha512-256"
    );
    assert_eq!("SHA512-256".parse::<Digest>().unwrap(), Digest::Sha512_256);
    let e = crypto::hkdf(&pool, Digest::Sha256, b"k", b"", b"", 255 * 32 + 1)
        .wait()
        .unwrap()
        .unwrap_err();
    assert_eq!(
        e.to_string(),
        "hkdf key length = 8161; expected at most 8160 (255 times sha256's 32 bytes)"
    );
    let e = zlib::gzip(&pool, b"x", 10).wait().unwrap().unwrap_err();
    assert_eq!(e.to_string(), "gzip level 10; expected 0..=9");
    let e = zlib::gunzip(&pool, b"\x1f\x8b\x08\x00garbage")
        .wait()
        .unwrap()
        .unwrap_err();
    assert_eq!(e.kind(), std::io::ErrorKind::InvalidData, "{e}");
    let snap = pool.metrics();
    assert_eq!(
        snap.lane(sluice::Lane::Cpu).completed_total,
        5,
        "refusals are answers, not panics"
    );
}

#[test]
fn gzip_bytes_equal_nodes() {
    let pool = Pool::builder().build().unwrap();
    for (v, _, ours) in gzip_vectors(&pool) {
        assert_eq!(
            hex(&ours),
            v["gzip"].as_str().unwrap(),
            "{} lines",
            v["input_lines"]
        );
    }
}

#[test]
fn pbkdf2_equals_the_pbkdf2_crate_around_every_checkpoint() {
    // sluice computes pbkdf2 itself (to call `checkpoint` every 64 rounds):
    // rounds on both sides of a checkpoint, keys of partial and whole blocks.
    for digest in Digest::ALL {
        for rounds in [1, 2, 63, 64, 65, 128, 129, 1000] {
            for key_len in [1, 20, 32, 33, 64, 65, 130] {
                let ours = crypto::pbkdf2_sync(b"pass", b"salt!", rounds, key_len, digest).unwrap();
                let mut theirs = vec![0u8; key_len];
                let crate_fn = match digest {
                    Digest::Sha1 => pbkdf2::pbkdf2_hmac::<sha1::Sha1>,
                    Digest::Sha224 => pbkdf2::pbkdf2_hmac::<sha2::Sha224>,
                    Digest::Sha256 => pbkdf2::pbkdf2_hmac::<sha2::Sha256>,
                    Digest::Sha384 => pbkdf2::pbkdf2_hmac::<sha2::Sha384>,
                    Digest::Sha512 => pbkdf2::pbkdf2_hmac::<sha2::Sha512>,
                    Digest::Sha512_224 => pbkdf2::pbkdf2_hmac::<sha2::Sha512_224>,
                    Digest::Sha512_256 => pbkdf2::pbkdf2_hmac::<sha2::Sha512_256>,
                };
                crate_fn(b"pass", b"salt!", rounds, &mut theirs);
                assert_eq!(ours, theirs, "{digest:?}, {rounds} rounds, {key_len} bytes");
            }
        }
    }
}

#[test]
fn gzip_in_pieces_equals_gzip_in_one_write_at_every_level() {
    // gzip_sync writes its input in 16 KiB pieces with a checkpoint after
    // each; deflate's bytes must not depend on that.
    let input = text(20_000);
    for level in 0..=9 {
        let mut one = flate2::GzBuilder::new()
            .operating_system(3)
            .write(Vec::new(), flate2::Compression::new(level));
        one.write_all(&input).unwrap();
        let one = one.finish().unwrap();
        assert_eq!(
            zlib::gzip_sync(&input, level).unwrap(),
            one,
            "level {level}"
        );
    }
}

#[test]
fn gunzip_in_pieces_gives_back_every_byte() {
    let pool = Pool::builder().build().unwrap();
    let input = text(100_000);
    let packed = zlib::gzip_sync(&input, 1).unwrap();
    let back = zlib::gunzip(&pool, &packed).wait().unwrap().unwrap();
    assert_eq!(back.len(), input.len());
    assert!(back == input);
}
