//! Password hashes on the `Cpu` lane: the native half of `sluice/argon2`
//! (`argon2.js`, `@node-rs/argon2`'s functions) and `sluice/bcrypt`
//! (`bcrypt.js`, npm `bcrypt`'s). The JavaScript files check the arguments
//! and apply the packages' defaults; the functions here take clean values.
//!
//! The asynchronous ones return an operation id, like every call of the
//! addon (see the crate's docs): a hash settles as its string's bytes (or
//! the raw hash's), a verification as one byte, 1 for a match and 0 for
//! none. The `_sync` ones compute on the calling JavaScript thread, as
//! the packages' `hashSync` and `verifySync` do.

use crate::fs::Cancel;
use crate::outcome::{Done, Failure};
use crate::pool::submit;
use napi::bindgen_prelude::Buffer;
use napi_derive::napi;
use sluice::Lane;
use sluice::crypto::{CryptoError, argon2, bcrypt};
use std::sync::atomic::Ordering;

/// A refused input settles as kind `"invalid"` (the message names it); a
/// failing random source as `"failed"`.
fn failure(err: &CryptoError) -> Failure {
    let kind = match err {
        CryptoError::Invalid(_) => "invalid",
        _ => "failed",
    };
    Failure::message(kind, None, err.to_string())
}

fn thrown(err: &CryptoError) -> napi::Error {
    napi::Error::from_reason(err.to_string())
}

fn done_of(result: Result<Vec<u8>, CryptoError>) -> Done {
    match result {
        Ok(bytes) => Done::Bytes(bytes),
        Err(e) => Done::Fail(failure(&e)),
    }
}

fn matched(result: Result<bool, CryptoError>) -> Done {
    done_of(result.map(|m| vec![u8::from(m)]))
}

/// `@node-rs/argon2`'s options, its defaults applied by `argon2.js`:
/// `[algorithm, version, memoryCost, timeCost, parallelism, outputLen]`,
/// `algorithm` 0, 1, 2 (Argon2d, Argon2i, Argon2id), `version` 0, 1
/// (0x10, 0x13).
fn argon2_params(costs: &[u32]) -> napi::Result<argon2::Params> {
    let &[
        algorithm,
        version,
        memory_cost,
        time_cost,
        parallelism,
        output_len,
    ] = costs
    else {
        return Err(napi::Error::from_reason(format!(
            "argon2: {} parameters; expected 6",
            costs.len()
        )));
    };
    let algorithm = match algorithm {
        0 => argon2::Algorithm::Argon2d,
        1 => argon2::Algorithm::Argon2i,
        2 => argon2::Algorithm::Argon2id,
        other => {
            return Err(napi::Error::from_reason(format!(
                "argon2: algorithm {other}; expected 0 (Argon2d), 1 (Argon2i) or 2 (Argon2id)"
            )));
        }
    };
    let version = match version {
        0 => argon2::Version::V0x10,
        1 => argon2::Version::V0x13,
        other => {
            return Err(napi::Error::from_reason(format!(
                "argon2: version {other}; expected 0 (0x10) or 1 (0x13)"
            )));
        }
    };
    Ok(argon2::Params {
        algorithm,
        version,
        memory_cost,
        time_cost,
        parallelism,
        output_len: output_len as usize,
    })
}

/// `hash` (`raw` false: the PHC string) or `hashRaw` (`raw` true: the
/// bytes) on the `Cpu` lane, into `inbox`; `cancel` (the caller's
/// `AbortSignal`) stops it if it has not started.
#[napi]
pub fn argon2_hash(
    slot: u32,
    password: Buffer,
    costs: Vec<u32>,
    salt: Option<Buffer>,
    secret: Option<Buffer>,
    raw: bool,
    cancel: Option<&Cancel>,
) -> napi::Result<f64> {
    let params = argon2_params(&costs)?;
    let password = password.to_vec();
    let salt = salt.map(|s| s.to_vec());
    let secret = secret.map(|s| s.to_vec());
    let cancel = cancel.map(|c| c.flag.clone());
    submit(slot, Lane::Cpu, move || {
        // A signal that aborted while the hash was queued: it never runs
        // (once running, it runs to its end: the crate cannot stop).
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Done::Fail(Failure::aborted());
        }
        let (salt, secret) = (salt.as_deref(), secret.as_deref());
        done_of(if raw {
            argon2::hash_raw_sync(&password, params, salt, secret)
        } else {
            argon2::hash_sync(&password, params, salt, secret).map(String::into_bytes)
        })
    })
}

/// `hashSync` (`raw` false: the PHC string) or `hashRawSync` (`raw` true:
/// the bytes) on the calling thread.
#[napi]
pub fn argon2_hash_sync(
    password: Buffer,
    costs: Vec<u32>,
    salt: Option<Buffer>,
    secret: Option<Buffer>,
    raw: bool,
) -> napi::Result<napi::Either<String, Buffer>> {
    let params = argon2_params(&costs)?;
    let (salt, secret) = (salt.as_deref(), secret.as_deref());
    let hashed = if raw {
        argon2::hash_raw_sync(&password, params, salt, secret)
            .map(|h| napi::Either::B(Buffer::from(h)))
    } else {
        argon2::hash_sync(&password, params, salt, secret).map(napi::Either::A)
    };
    hashed.map_err(|e| thrown(&e))
}

/// `verify` on the `Cpu` lane: the hash's own parameters, `secret` if
/// given; `cancel` as for [`argon2_hash`].
#[napi]
pub fn argon2_verify(
    slot: u32,
    hashed: String,
    password: Buffer,
    secret: Option<Buffer>,
    cancel: Option<&Cancel>,
) -> napi::Result<f64> {
    let password = password.to_vec();
    let secret = secret.map(|s| s.to_vec());
    let cancel = cancel.map(|c| c.flag.clone());
    submit(slot, Lane::Cpu, move || {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Done::Fail(Failure::aborted());
        }
        matched(argon2::verify_sync(&hashed, &password, secret.as_deref()))
    })
}

/// `verifySync` on the calling thread.
#[napi]
pub fn argon2_verify_sync(
    hashed: String,
    password: Buffer,
    secret: Option<Buffer>,
) -> napi::Result<bool> {
    argon2::verify_sync(&hashed, &password, secret.as_deref()).map_err(|e| thrown(&e))
}

/// `bcrypt.hash(data, salt)` on the `Cpu` lane, with a salt string
/// (`bcrypt.js` makes one from a number of rounds, as `bcrypt` does).
#[napi]
pub fn bcrypt_hash(slot: u32, password: Buffer, salt: String) -> napi::Result<f64> {
    let password = password.to_vec();
    submit(slot, Lane::Cpu, move || {
        done_of(hash_with_salt(&password, &salt).map(String::into_bytes))
    })
}

fn hash_with_salt(password: &[u8], salt: &str) -> Result<String, CryptoError> {
    let (version, cost, raw) = bcrypt::parse_salt(salt)?;
    bcrypt::hash_sync(password, cost, Some(raw), version)
}

/// `bcrypt.hashSync(data, salt)` on the calling thread.
#[napi]
pub fn bcrypt_hash_sync(password: Buffer, salt: String) -> napi::Result<String> {
    hash_with_salt(&password, &salt).map_err(|e| thrown(&e))
}

/// `bcrypt.compare(data, encrypted)` on the `Cpu` lane.
#[napi]
pub fn bcrypt_compare(slot: u32, password: Buffer, hashed: String) -> napi::Result<f64> {
    let password = password.to_vec();
    submit(slot, Lane::Cpu, move || {
        matched(bcrypt::verify_sync(&password, &hashed))
    })
}

/// `bcrypt.compareSync(data, encrypted)` on the calling thread.
#[napi]
pub fn bcrypt_compare_sync(password: Buffer, hashed: String) -> napi::Result<bool> {
    bcrypt::verify_sync(&password, &hashed).map_err(|e| thrown(&e))
}

/// `bcrypt.getRounds(encrypted)`.
#[napi]
pub fn bcrypt_rounds(hashed: String) -> napi::Result<u32> {
    bcrypt::rounds(&hashed).map_err(|e| thrown(&e))
}
