//! Argon2 password hashes on [`Lane::Cpu`], with the RustCrypto `argon2`
//! crate: what `@node-rs/argon2` runs on libuv's pool (it uses the same
//! crate). The strings are PHC strings (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`),
//! the ones `@node-rs/argon2` writes and reads, and the defaults are its own.
//!
//! No [`checkpoint`](crate::checkpoint) here: the crate fills its memory in
//! one call (`hash_password_into`) with no place to hand the core back, so
//! a hash computes for its whole time (tens of milliseconds at the
//! defaults) like any other task on the lane.
//!
//! ```
//! use sluice::{Pool, crypto::argon2::{self, Params}};
//!
//! let pool = Pool::builder().build()?;
//! let small = Params { memory_cost: 64, time_cost: 1, ..Params::default() };
//! let hashed = argon2::hash(&pool, b"correct horse", small, None, None).wait()??;
//! assert!(hashed.starts_with("$argon2id$v=19$m=64,t=1,p=1$"));
//! assert!(argon2::verify(&pool, &hashed, b"correct horse", None).wait()??);
//! assert!(!argon2::verify(&pool, &hashed, b"battery staple", None).wait()??);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::CryptoError;
use crate::lane::Lane;
use crate::pool::Pool;
use crate::task::Task;
use ::argon2::{Argon2, PasswordHash};

/// The Argon2 variant (`@node-rs/argon2`'s `Algorithm`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Algorithm {
    /// Argon2d: data-dependent memory access.
    Argon2d,
    /// Argon2i: data-independent memory access.
    Argon2i,
    /// Argon2id, the default: the hybrid of both.
    #[default]
    Argon2id,
}

/// The Argon2 version (`@node-rs/argon2`'s `Version`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Version {
    /// Version 16 (0x10).
    V0x10,
    /// Version 19 (0x13), the default.
    #[default]
    V0x13,
}

/// The cost parameters of [`hash()`]; the default is `@node-rs/argon2`'s
/// (and the crate's): Argon2id v19, 19 MiB, 2 passes, 1 lane, 32 bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Params {
    /// The variant.
    pub algorithm: Algorithm,
    /// The version.
    pub version: Version,
    /// Memory in KiB (at least 8 per lane).
    pub memory_cost: u32,
    /// Passes over the memory (at least 1).
    pub time_cost: u32,
    /// Lanes (1 ..= 2^24 - 1); computed one after another here.
    pub parallelism: u32,
    /// Length of the hash in bytes (4 ..= 64, as a PHC string holds).
    pub output_len: usize,
}

impl Default for Params {
    fn default() -> Self {
        Params {
            algorithm: Algorithm::default(),
            version: Version::default(),
            memory_cost: ::argon2::Params::DEFAULT_M_COST,
            time_cost: ::argon2::Params::DEFAULT_T_COST,
            parallelism: ::argon2::Params::DEFAULT_P_COST,
            output_len: ::argon2::Params::DEFAULT_OUTPUT_LEN,
        }
    }
}

/// The longest hash a PHC string holds (and `@node-rs/argon2` writes).
pub const MAX_OUTPUT_LEN: usize = 64;

fn invalid(what: impl std::fmt::Display) -> CryptoError {
    CryptoError::Invalid(format!("argon2: {what}"))
}

/// The crate's algorithm and version for `params`'.
fn kind(params: &Params) -> (::argon2::Algorithm, ::argon2::Version) {
    let algorithm = match params.algorithm {
        Algorithm::Argon2d => ::argon2::Algorithm::Argon2d,
        Algorithm::Argon2i => ::argon2::Algorithm::Argon2i,
        Algorithm::Argon2id => ::argon2::Algorithm::Argon2id,
    };
    let version = match params.version {
        Version::V0x10 => ::argon2::Version::V0x10,
        Version::V0x13 => ::argon2::Version::V0x13,
    };
    (algorithm, version)
}

fn hasher<'k>(params: &Params, secret: Option<&'k [u8]>) -> Result<Argon2<'k>, CryptoError> {
    if !(4..=MAX_OUTPUT_LEN).contains(&params.output_len) {
        return Err(invalid(format!(
            "output length {}; expected 4..={MAX_OUTPUT_LEN}",
            params.output_len
        )));
    }
    let costs = ::argon2::Params::new(
        params.memory_cost,
        params.time_cost,
        params.parallelism,
        Some(params.output_len),
    )
    .map_err(|e| {
        invalid(format!(
            "m = {}, t = {}, p = {}: {e}",
            params.memory_cost, params.time_cost, params.parallelism
        ))
    })?;
    let (algorithm, version) = kind(params);
    match secret {
        None => Ok(Argon2::new(algorithm, version, costs)),
        Some(secret) => Argon2::new_with_secret(secret, algorithm, version, costs)
            .map_err(|e| invalid(format!("secret: {e}"))),
    }
}

/// The largest memory a thread keeps between hashes (64 MiB of blocks, three
/// times `@node-rs/argon2`'s default 19 MiB): a larger hash's memory is its
/// own, freed after it.
const KEPT_BLOCKS: usize = 64 * 1024;

thread_local! {
    /// This thread's argon2 memory, kept between hashes. The crate's own
    /// `hash_password_into` allocates `m` KiB per hash; with glibc's
    /// dynamic mmap threshold every block after the first then comes from
    /// the thread's arena and stays resident once freed, fragments and all:
    /// 32 hashes at m = 19 MiB on two Cpu threads left 357-433 MiB (see
    /// docs/lab.md). One buffer per thread, reused, holds m KiB at most.
    static BLOCKS: std::cell::RefCell<Vec<::argon2::Block>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// `hasher.hash_password_into(password, salt, out)` on this thread's kept
/// memory. Its old contents do not matter: argon2's first pass writes every
/// block before any is read.
fn hash_into(
    hasher: &Argon2<'_>,
    password: &[u8],
    salt: &[u8],
    out: &mut [u8],
) -> Result<(), ::argon2::Error> {
    let n = hasher.params().block_count();
    if n > KEPT_BLOCKS {
        return hasher.hash_password_into(password, salt, out);
    }
    BLOCKS.with(|cell| {
        // Not re-entered: nothing here calls back into a hash.
        let mut blocks = cell.borrow_mut();
        if blocks.len() < n {
            blocks.resize(n, ::argon2::Block::default());
        }
        hasher.hash_password_into_with_memory(password, salt, out, &mut blocks[..n])
    })
}

/// The PHC string of `password` hashed with `hasher` and `salt`, as the
/// crate's `hash_password_with_salt` writes it, on [`hash_into`]'s memory.
fn phc(
    hasher: &Argon2<'_>,
    (algorithm, version): (::argon2::Algorithm, ::argon2::Version),
    password: &[u8],
    salt: &[u8],
) -> Result<PasswordHash, CryptoError> {
    use ::argon2::password_hash::phc::{Output, ParamsString, Salt};
    let salt = Salt::new(salt).map_err(invalid)?;
    let len = hasher
        .params()
        .output_len()
        .unwrap_or(::argon2::Params::DEFAULT_OUTPUT_LEN);
    let mut buffer = [0u8; Output::MAX_LENGTH];
    let out = buffer
        .get_mut(..len)
        .ok_or_else(|| invalid("output length"))?;
    hash_into(hasher, password, &salt, out).map_err(invalid)?;
    Ok(PasswordHash {
        algorithm: algorithm.ident(),
        version: Some(version.into()),
        params: ParamsString::try_from(hasher.params()).map_err(invalid)?,
        salt: Some(salt),
        hash: Some(Output::new(out).map_err(invalid)?),
    })
}

/// Hashes `password` into a PHC string (`@node-rs/argon2`'s `hash`).
/// `salt` defaults to 16 random bytes (at least 8 when given); `secret`
/// is the optional key (pepper) that [`verify()`] must be given too.
pub fn hash(
    pool: &Pool,
    password: &[u8],
    params: Params,
    salt: Option<&[u8]>,
    secret: Option<&[u8]>,
) -> Task<Result<String, CryptoError>> {
    let password = password.to_vec();
    let salt = salt.map(<[u8]>::to_vec);
    let secret = secret.map(<[u8]>::to_vec);
    pool.spawn(Lane::Cpu, move || {
        hash_sync(&password, params, salt.as_deref(), secret.as_deref())
    })
}

/// [`hash()`] on the calling thread (`hashSync`): for code that submits
/// the work itself. Never call it on an event loop's thread.
pub fn hash_sync(
    password: &[u8],
    params: Params,
    salt: Option<&[u8]>,
    secret: Option<&[u8]>,
) -> Result<String, CryptoError> {
    let hasher = hasher(&params, secret)?;
    let mut random = [0u8; ::argon2::RECOMMENDED_SALT_LEN];
    let salt = salt_or_random(salt, &mut random)?;
    Ok(phc(&hasher, kind(&params), password, salt)?.to_string())
}

/// The hash's bytes alone, without the PHC string (`hashRawSync`); the
/// salt and secret as for [`hash_sync()`].
pub fn hash_raw_sync(
    password: &[u8],
    params: Params,
    salt: Option<&[u8]>,
    secret: Option<&[u8]>,
) -> Result<Vec<u8>, CryptoError> {
    let hasher = hasher(&params, secret)?;
    let mut random = [0u8; ::argon2::RECOMMENDED_SALT_LEN];
    let salt = salt_or_random(salt, &mut random)?;
    let mut out = vec![0u8; params.output_len];
    hash_into(&hasher, password, salt, &mut out).map_err(invalid)?;
    Ok(out)
}

/// `salt`, checked, or 16 random bytes kept in `random`.
fn salt_or_random<'a>(
    salt: Option<&'a [u8]>,
    random: &'a mut [u8; ::argon2::RECOMMENDED_SALT_LEN],
) -> Result<&'a [u8], CryptoError> {
    let salt = match salt {
        Some(salt) => salt,
        None => {
            getrandom::fill(random).map_err(|e| CryptoError::Random(e.to_string()))?;
            &random[..]
        }
    };
    if salt.len() < ::argon2::MIN_SALT_LEN {
        return Err(invalid(format!(
            "salt of {} bytes; expected at least {}",
            salt.len(),
            ::argon2::MIN_SALT_LEN
        )));
    }
    Ok(salt)
}

/// True when `password` hashes to `hashed`, a PHC string of any variant
/// and version, with its own parameters (`@node-rs/argon2`'s `verify`).
/// A string that is not an Argon2 PHC string is an error, as there.
pub fn verify(
    pool: &Pool,
    hashed: &str,
    password: &[u8],
    secret: Option<&[u8]>,
) -> Task<Result<bool, CryptoError>> {
    let (hashed, password) = (hashed.to_string(), password.to_vec());
    let secret = secret.map(<[u8]>::to_vec);
    pool.spawn(Lane::Cpu, move || {
        verify_sync(&hashed, &password, secret.as_deref())
    })
}

/// [`verify()`] on the calling thread (`verifySync`).
pub fn verify_sync(
    hashed: &str,
    password: &[u8],
    secret: Option<&[u8]>,
) -> Result<bool, CryptoError> {
    let parsed = PasswordHash::new(hashed).map_err(|e| {
        invalid(format!(
            "the hashed password {hashed:?} is not a PHC string: {e}"
        ))
    })?;
    // The hash's own algorithm, version and costs, as the crate's
    // verify_password reads them, and the caller's secret.
    let bad = |e: &dyn std::fmt::Display| invalid(format!("the hashed password {hashed:?}: {e}"));
    let (Some(salt), Some(expected)) = (&parsed.salt, &parsed.hash) else {
        return Ok(false);
    };
    let algorithm =
        ::argon2::Algorithm::try_from(parsed.algorithm.as_str()).map_err(|e| bad(&e))?;
    let version = parsed
        .version
        .map(::argon2::Version::try_from)
        .transpose()
        .map_err(|e| bad(&e))?
        .unwrap_or_default();
    let costs = ::argon2::Params::try_from(&parsed).map_err(|e| bad(&e))?;
    let hasher = match secret {
        None => Argon2::new(algorithm, version, costs),
        Some(secret) => Argon2::new_with_secret(secret, algorithm, version, costs)
            .map_err(|e| invalid(format!("secret: {e}")))?,
    };
    let computed = phc(&hasher, (algorithm, version), password, salt.as_ref())?;
    // Output's == is constant-time.
    Ok(computed.hash.as_ref() == Some(expected))
}
