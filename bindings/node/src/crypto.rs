//! `crypto.pbkdf2`, `crypto.scrypt`, `crypto.hkdf`, `crypto.randomBytes` and
//! `crypto.generateKeyPair` on the `Cpu` lane.

use crate::outcome::{Done, Failure};
use crate::pool::submit;
use napi::bindgen_prelude::Buffer;
use napi_derive::napi;
use sluice::Lane;
use sluice::crypto::{self, Digest, KeyPairKind};

/// A `sluice::crypto` digest by its name; another name is thrown at the
/// call.
fn parse_digest(name: &str) -> napi::Result<Digest> {
    name.parse()
        .map_err(|e: crypto::CryptoError| napi::Error::from_reason(e.to_string()))
}

/// Runs `key` on the `Cpu` lane: its bytes, or its error as an `invalid`
/// failure.
fn derive(
    slot: u32,
    key: impl FnOnce() -> Result<Vec<u8>, crypto::CryptoError> + Send + 'static,
) -> napi::Result<f64> {
    submit(slot, Lane::Cpu, move || match key() {
        Ok(key) => Done::Bytes(key),
        Err(e) => Done::Fail(Failure::message("invalid", None, e.to_string())),
    })
}

/// `crypto.pbkdf2` on the `Cpu` lane; `digest` is `sha1`, `sha256` or `sha512`.
#[napi]
pub fn pbkdf2(
    slot: u32,
    password: Buffer,
    salt: Buffer,
    iterations: u32,
    keylen: u32,
    digest: String,
) -> napi::Result<f64> {
    let digest = parse_digest(&digest)?;
    let (password, salt) = (password.to_vec(), salt.to_vec());
    derive(slot, move || {
        crypto::pbkdf2_sync(&password, &salt, iterations, keylen as usize, digest)
    })
}

/// `crypto.hkdf` on the `Cpu` lane: `digest` one of `sluice::crypto::Digest`'s
/// names (`lib/keys.js` hands the others to Node), `keylen` at most 255
/// times its length.
#[napi]
pub fn hkdf(
    slot: u32,
    digest: String,
    ikm: Buffer,
    salt: Buffer,
    info: Buffer,
    keylen: u32,
) -> napi::Result<f64> {
    let digest = parse_digest(&digest)?;
    let (ikm, salt, info) = (ikm.to_vec(), salt.to_vec(), info.to_vec());
    derive(slot, move || {
        crypto::hkdf_sync(digest, &ikm, &salt, &info, keylen as usize)
    })
}

/// `crypto.scrypt` on the `Cpu` lane (`n` a power of two; `lib/shapes.js` has
/// checked the parameters against the memory limit).
#[napi]
pub fn scrypt(
    slot: u32,
    password: Buffer,
    salt: Buffer,
    keylen: u32,
    n: u32,
    r: u32,
    p: u32,
) -> napi::Result<f64> {
    let (password, salt) = (password.to_vec(), salt.to_vec());
    submit(slot, Lane::Cpu, move || {
        if n < 2 || !n.is_power_of_two() {
            return Done::Fail(Failure::message(
                "invalid",
                None,
                format!("scrypt N = {n}; expected a power of two greater than 1"),
            ));
        }
        let log_n = n.trailing_zeros() as u8;
        // OpenSSL's (and so Node's) bound N < 2^(16 r), which scrypt 0.12
        // no longer checks.
        if u64::from(log_n) >= 16 * u64::from(r) {
            let message = format!("scrypt N = {n}, r = {r}: expected N below 2^(16 r)");
            return Done::Fail(Failure::message("invalid", None, message));
        }
        let params = match scrypt::Params::new(log_n, r, p) {
            Ok(params) => params,
            Err(e) => {
                let message = format!("scrypt N = {n}, r = {r}, p = {p}: {e}");
                return Done::Fail(Failure::message("invalid", None, message));
            }
        };
        let mut out = vec![0u8; keylen as usize];
        match scrypt::scrypt(&password, &salt, &params, &mut out) {
            Ok(()) => Done::Bytes(out),
            Err(e) => Done::Fail(Failure::message("invalid", None, e.to_string())),
        }
    })
}

/// `crypto.randomBytes(size)` on the `Cpu` lane.
#[napi]
pub fn random_bytes(slot: u32, size: u32) -> napi::Result<f64> {
    submit(slot, Lane::Cpu, move || {
        let mut out = vec![0u8; size as usize];
        match getrandom::fill(&mut out) {
            Ok(()) => Done::Bytes(out),
            Err(e) => Done::Fail(Failure::message(
                "invalid",
                None,
                format!("random source: {e}"),
            )),
        }
    })
}

/// `crypto.generateKeyPair` on the `Cpu` lane: `kind` `"rsa"` (with
/// `modulus_bits` and `public_exponent`; `lib/keys.js` has checked them
/// against `sluice::crypto`'s limits), `"ed25519"` or `"x25519"`. The
/// outcome is one buffer: the public key's DER length as 4 bytes, little
/// endian, its SPKI DER, then the private key's PKCS #8 DER.
#[napi]
pub fn generate_key_pair(
    slot: u32,
    kind: String,
    modulus_bits: u32,
    public_exponent: u32,
) -> napi::Result<f64> {
    let kind = match kind.as_str() {
        "rsa" => KeyPairKind::Rsa {
            modulus_bits,
            public_exponent,
        },
        "ed25519" => KeyPairKind::Ed25519,
        "x25519" => KeyPairKind::X25519,
        other => {
            return Err(napi::Error::from_reason(format!(
                "key pair type {other:?}; expected rsa, ed25519 or x25519"
            )));
        }
    };
    submit(
        slot,
        Lane::Cpu,
        move || match crypto::generate_key_pair_sync(kind) {
            Ok(pair) => {
                let public_len = u32::try_from(pair.public_spki.len()).unwrap_or(u32::MAX);
                let mut out =
                    Vec::with_capacity(4 + pair.public_spki.len() + pair.private_pkcs8.len());
                out.extend_from_slice(&public_len.to_le_bytes());
                out.extend_from_slice(&pair.public_spki);
                out.extend_from_slice(&pair.private_pkcs8);
                Done::Bytes(out)
            }
            Err(e) => Done::Fail(Failure::message("invalid", None, e.to_string())),
        },
    )
}
