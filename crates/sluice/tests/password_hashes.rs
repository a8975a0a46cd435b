//! sluice's argon2 and bcrypt give the npm packages' strings and read
//! theirs. The expected strings were written by `@node-rs/argon2` 2.0.2,
//! `bcrypt` 6.0.0 and `bcryptjs` 3.0.3 (identical for bcrypt) with the same
//! salts; the npm package's tests (bindings/node/test/hash.test.js) check
//! the same both ways against the live packages.

use sluice::Pool;
use sluice::crypto::CryptoError;
use sluice::crypto::argon2::{self, Algorithm, Params, Version};
use sluice::crypto::bcrypt;

const SALT: &[u8] = b"sluice-salt-0001";

fn pool() -> Pool {
    Pool::builder().build().unwrap()
}

#[test]
fn argon2_writes_node_rs_strings() {
    let pool = pool();
    let cases = [
        (
            Params::default(),
            None,
            "$argon2id$v=19$m=19456,t=2,p=1$c2x1aWNlLXNhbHQtMDAwMQ$kzD63czIVDFP7Bi+m2OYf10ehyuPD1U6wU8wz+9SYf4",
        ),
        (
            Params {
                algorithm: Algorithm::Argon2i,
                version: Version::V0x10,
                time_cost: 1,
                memory_cost: 64,
                parallelism: 2,
                output_len: 16,
            },
            None,
            "$argon2i$v=16$m=64,t=1,p=2$c2x1aWNlLXNhbHQtMDAwMQ$F5Xei37+8ulI696v7lQwnA",
        ),
        (
            Params {
                algorithm: Algorithm::Argon2d,
                time_cost: 3,
                memory_cost: 256,
                ..Params::default()
            },
            Some(&b"pepper"[..]),
            "$argon2d$v=19$m=256,t=3,p=1$c2x1aWNlLXNhbHQtMDAwMQ$XRnEk0zS449dpCEFiOQ6z7Kit5e8DXDq8uUt9uwbK7Y",
        ),
    ];
    for (params, secret, expected) in cases {
        let got = argon2::hash(&pool, b"correct horse", params, Some(SALT), secret)
            .wait()
            .unwrap()
            .unwrap();
        assert_eq!(got, expected, "{params:?}");
        assert!(
            argon2::verify(&pool, expected, b"correct horse", secret)
                .wait()
                .unwrap()
                .unwrap()
        );
        assert!(
            !argon2::verify(&pool, expected, b"correct horsf", secret)
                .wait()
                .unwrap()
                .unwrap()
        );
    }
    // The raw bytes are the PHC string's hash part.
    let raw = argon2::hash_raw_sync(b"correct horse", cases[1].0, Some(SALT), None).unwrap();
    assert_eq!(hex(&raw), "1795de8b7efef2e948ebdeafee54309c");
    // The secret is part of the hash: without it the password fails.
    let peppered = cases[2].2;
    assert!(!argon2::verify_sync(peppered, b"correct horse", None).unwrap());
}

#[test]
fn argon2_random_salts_differ_and_verify() {
    let small = Params {
        memory_cost: 64,
        time_cost: 1,
        ..Params::default()
    };
    let a = argon2::hash_sync(b"pw", small, None, None).unwrap();
    let b = argon2::hash_sync(b"pw", small, None, None).unwrap();
    assert_ne!(a, b);
    assert!(argon2::verify_sync(&a, b"pw", None).unwrap());
    assert!(argon2::verify_sync(&b, b"pw", None).unwrap());
}

#[test]
fn argon2_refuses_bad_input_with_reasons() {
    let err = |r: Result<String, CryptoError>| r.unwrap_err().to_string();
    assert_eq!(
        err(argon2::hash_sync(
            b"pw",
            Params::default(),
            Some(b"short"),
            None
        )),
        "argon2: salt of 5 bytes; expected at least 8"
    );
    let long = Params {
        output_len: 100,
        ..Params::default()
    };
    assert_eq!(
        err(argon2::hash_sync(b"pw", long, Some(SALT), None)),
        "argon2: output length 100; expected 4..=64"
    );
    let tiny = Params {
        memory_cost: 1,
        ..Params::default()
    };
    assert!(
        err(argon2::hash_sync(b"pw", tiny, Some(SALT), None))
            .starts_with("argon2: m = 1, t = 2, p = 1: ")
    );
    assert!(
        argon2::verify_sync("garbage", b"pw", None)
            .unwrap_err()
            .to_string()
            .starts_with("argon2: the hashed password \"garbage\" is not a PHC string")
    );
    // A PHC string of another algorithm is refused, not "false".
    assert!(
        argon2::verify_sync(
            "$scrypt$ln=4,r=8,p=1$c2FsdHNhbHQ$aGFzaGhhc2hoYXNo",
            b"pw",
            None
        )
        .is_err()
    );
}

#[test]
fn bcrypt_writes_the_npm_packages_strings() {
    let pool = pool();
    let salt = "$2b$04$abcdefghijklmnopqrstuu";
    let cases: [(&[u8], &str); 5] = [
        (
            b"correct horse",
            "$2b$04$abcdefghijklmnopqrstuujydOTSfIH/d5oUHpsygqV5X9xJLQc6e",
        ),
        // Only the first 72 bytes count.
        (
            &[b'x'; 80],
            "$2b$04$abcdefghijklmnopqrstuubzadhGtS2zEF.gu0yd0opP6cVzb.e0i",
        ),
        (
            "pässwörd".as_bytes(),
            "$2b$04$abcdefghijklmnopqrstuuyx2n0Zzopyr9QuYTMCfOJJOj526QVoC",
        ),
        (
            b"",
            "$2b$04$abcdefghijklmnopqrstuubyCG3zY1GIXMyxfivm.ClDiInHzxjiq",
        ),
        (
            b"a\0b",
            "$2b$04$abcdefghijklmnopqrstuusjHI0zQHpOe3SFDK1IriYv6N79Gzr32",
        ),
    ];
    for (password, expected) in cases {
        let got = bcrypt::hash_with_salt_string(&pool, password, salt)
            .wait()
            .unwrap()
            .unwrap();
        assert_eq!(got, expected);
        assert!(
            bcrypt::verify(&pool, password, expected)
                .wait()
                .unwrap()
                .unwrap()
        );
        assert!(
            !bcrypt::verify(&pool, b"wrong", expected)
                .wait()
                .unwrap()
                .unwrap()
        );
    }
    assert!(bcrypt::verify_sync(&[b'x'; 72], cases[1].1).unwrap());
    // npm bcrypt ignores the 4 bits past the salt in its last character.
    let loose =
        bcrypt::hash_with_salt_string(&pool, b"correct horse", "$2b$04$abcdefghijklmnopqrstuv")
            .wait()
            .unwrap()
            .unwrap();
    assert_eq!(loose, cases[0].1);
    // A whole hash serves as its own salt string; its version is kept.
    let a = bcrypt::hash_with_salt_string(
        &pool,
        b"correct horse",
        "$2a$04$abcdefghijklmnopqrstuujydOTSfIH/d5oUHpsygqV5X9xJLQc6e",
    )
    .wait()
    .unwrap()
    .unwrap();
    assert_eq!(
        a,
        "$2a$04$abcdefghijklmnopqrstuujydOTSfIH/d5oUHpsygqV5X9xJLQc6e"
    );
    assert_eq!(bcrypt::rounds(&a).unwrap(), 4);
}

#[test]
fn bcrypt_random_salts_and_versions() {
    let a = bcrypt::hash_sync(b"pw", 5, None, bcrypt::Version::TwoA).unwrap();
    let b = bcrypt::hash_sync(b"pw", 5, None, bcrypt::Version::TwoB).unwrap();
    assert!(a.starts_with("$2a$05$") && b.starts_with("$2b$05$"));
    assert_ne!(a[7..29], b[7..29]);
    assert!(bcrypt::verify_sync(b"pw", &a).unwrap() && bcrypt::verify_sync(b"pw", &b).unwrap());
    let salt = [7u8; 16];
    let fixed = bcrypt::hash_sync(b"pw", 4, Some(salt), bcrypt::Version::TwoB).unwrap();
    assert_eq!(
        bcrypt::parse_salt(&fixed).unwrap(),
        (bcrypt::Version::TwoB, 4, salt)
    );
}

#[test]
fn bcrypt_refuses_bad_input_with_reasons() {
    let err = |r: Result<String, CryptoError>| r.unwrap_err().to_string();
    assert_eq!(
        err(bcrypt::hash_sync(b"pw", 3, None, bcrypt::Version::TwoB)),
        "bcrypt: cost 3; expected 4..=31"
    );
    assert_eq!(
        err(bcrypt::hash_sync(b"pw", 32, None, bcrypt::Version::TwoB)),
        "bcrypt: cost 32; expected 4..=31"
    );
    for salt in [
        "$2b$04$short",
        "$2c$04$abcdefghijklmnopqrstuu",
        "$2b$03$abcdefghijklmnopqrstuu",
        "$2b$4$abcdefghijklmnopqrstuuu",
        "$2b$04$abcdefghijklmnopqrstu!",
    ] {
        let got = bcrypt::parse_salt(salt).unwrap_err().to_string();
        assert!(
            got.starts_with(&format!("bcrypt: salt {salt:?}; expected $2a$")),
            "{got}"
        );
    }
    // Not a hash: false, as npm bcrypt and bcryptjs answer.
    assert!(!bcrypt::verify_sync(b"pw", "garbage").unwrap());
    assert!(bcrypt::rounds("xx").is_err());
}

fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}
