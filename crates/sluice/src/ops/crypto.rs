//! Key derivation and random bytes on [`Lane::Cpu`]: what Node runs as
//! `crypto.pbkdf2`, `crypto.scrypt`, `crypto.hkdf`, `crypto.randomBytes` and
//! `crypto.generateKeyPair` (RSA, Ed25519, X25519: [`generate_key_pair`])
//! on its pool.
//! Output bytes equal Node's (OpenSSL's) for the same inputs. The password
//! hashes Node apps use from npm are here too: [`argon2`](self::argon2)
//! (`@node-rs/argon2`'s strings) and [`bcrypt`](self::bcrypt) (`bcrypt`'s
//! and `bcryptjs`'s).
//!
//! ```
//! use sluice::{Pool, crypto::{self, Digest}};
//!
//! let pool = Pool::builder().build()?;
//! // node -p "crypto.pbkdf2Sync('secret', 'salt', 1000, 32, 'sha256').toString('hex')"
//! let key = crypto::pbkdf2(&pool, b"secret", b"salt", 1000, 32, Digest::Sha256).wait()??;
//! assert_eq!(hex(&key), "a8df899f3c4f204d967e0ad63c092987c10055ebb017b3d9d28add218d4f7aad");
//! assert_eq!(crypto::random_bytes(&pool, 16).wait()??.len(), 16);
//! # fn hex(b: &[u8]) -> String { b.iter().map(|x| format!("{x:02x}")).collect() }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::lane::Lane;
use crate::pool::Pool;
use crate::task::Task;

pub mod argon2;
pub mod bcrypt;
mod hkdf;
mod keygen;

pub use self::hkdf::{HKDF_MAX_INFO, hkdf, hkdf_sync};
pub use self::keygen::{
    KeyPairDer, KeyPairKind, RSA_MAX_BITS, RSA_MIN_BITS, generate_key_pair, generate_key_pair_sync,
};

/// The hash behind [`pbkdf2()`]'s and [`hkdf()`]'s HMAC, as Node (OpenSSL)
/// names it (`'sha1'`, `'sha512-256'`, ...): SHA-1 and the SHA-2 family,
/// the digests RustCrypto's `sha1` and `sha2` crates compute. Node takes
/// more (`md5`, `sha3-256`, `ripemd160`, ...): the npm package hands those
/// calls to Node's own function.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Digest {
    /// `'sha1'`.
    Sha1,
    /// `'sha224'`.
    Sha224,
    /// `'sha256'`.
    Sha256,
    /// `'sha384'`.
    Sha384,
    /// `'sha512'`.
    Sha512,
    /// `'sha512-224'`.
    Sha512_224,
    /// `'sha512-256'`.
    Sha512_256,
}

impl Digest {
    /// Every digest, SHA-1 first.
    pub const ALL: [Digest; 7] = [
        Digest::Sha1,
        Digest::Sha224,
        Digest::Sha256,
        Digest::Sha384,
        Digest::Sha512,
        Digest::Sha512_224,
        Digest::Sha512_256,
    ];

    /// Node's (OpenSSL's) name: `sha1`, `sha224`, ..., `sha512-256`.
    pub fn name(self) -> &'static str {
        match self {
            Digest::Sha1 => "sha1",
            Digest::Sha224 => "sha224",
            Digest::Sha256 => "sha256",
            Digest::Sha384 => "sha384",
            Digest::Sha512 => "sha512",
            Digest::Sha512_224 => "sha512-224",
            Digest::Sha512_256 => "sha512-256",
        }
    }

    /// The hash's output length in bytes (`HashLen` of RFC 5869).
    pub fn output_len(self) -> usize {
        match self {
            Digest::Sha1 => 20,
            Digest::Sha224 | Digest::Sha512_224 => 28,
            Digest::Sha256 | Digest::Sha512_256 => 32,
            Digest::Sha384 => 48,
            Digest::Sha512 => 64,
        }
    }
}

/// `$f::<H>` for the hash type `H` of `$digest`: the one table from a
/// [`Digest`] to its RustCrypto type, for the generic derivations.
macro_rules! by_digest {
    ($digest:expr, $f:ident) => {
        match $digest {
            Digest::Sha1 => $f::<sha1::Sha1>,
            Digest::Sha224 => $f::<sha2::Sha224>,
            Digest::Sha256 => $f::<sha2::Sha256>,
            Digest::Sha384 => $f::<sha2::Sha384>,
            Digest::Sha512 => $f::<sha2::Sha512>,
            Digest::Sha512_224 => $f::<sha2::Sha512_224>,
            Digest::Sha512_256 => $f::<sha2::Sha512_256>,
        }
    };
}
use by_digest;

impl std::str::FromStr for Digest {
    type Err = CryptoError;

    /// A name of [`Digest::name`], in any case.
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let lower = s.to_ascii_lowercase();
        Digest::ALL
            .into_iter()
            .find(|d| d.name() == lower)
            .ok_or_else(|| {
                CryptoError::Invalid(format!(
                    "unknown digest {s:?}; expected sha1, sha224, sha256, sha384, sha512, \
                     sha512-224 or sha512-256"
                ))
            })
    }
}

/// A refused input or a failing random source.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum CryptoError {
    /// An input outside what the algorithm accepts; the message names it.
    #[error("{0}")]
    Invalid(String),
    /// The operating system's random source failed.
    #[error("random source: {0}")]
    Random(String),
}

/// The largest key any function here derives, and the most random bytes
/// one call returns: 1 GiB (Node's own limits are of the same order).
pub const MAX_OUTPUT: usize = 1 << 30;

fn check_len(what: &str, len: usize) -> Result<(), CryptoError> {
    if len == 0 || len > MAX_OUTPUT {
        Err(CryptoError::Invalid(format!(
            "{what} = {len}; expected 1..={MAX_OUTPUT}"
        )))
    } else {
        Ok(())
    }
}

/// PBKDF2-HMAC (`crypto.pbkdf2(password, salt, iterations, keylen, digest)`).
/// `iterations` and `key_len` must be at least 1.
pub fn pbkdf2(
    pool: &Pool,
    password: &[u8],
    salt: &[u8],
    iterations: u32,
    key_len: usize,
    digest: Digest,
) -> Task<Result<Vec<u8>, CryptoError>> {
    let (password, salt) = (password.to_vec(), salt.to_vec());
    pool.spawn(Lane::Cpu, move || {
        pbkdf2_sync(&password, &salt, iterations, key_len, digest)
    })
}

/// [`pbkdf2()`] on the calling thread (`crypto.pbkdf2Sync`): for code that
/// submits the work itself, e.g. with [`Pool::try_spawn`] to refuse rather
/// than queue. Never call it on an event loop's thread: it is the CPU work.
///
/// ```
/// use sluice::{Lane, Pool, crypto::{self, Digest}};
///
/// let pool = Pool::builder().queue_bound(Lane::Cpu, 8).build()?;
/// let task = pool
///     .try_spawn(Lane::Cpu, || crypto::pbkdf2_sync(b"secret", b"salt", 1000, 32, Digest::Sha256))
///     .map_err(|busy| busy.to_string())?;
/// assert_eq!(task.wait()??[..4], [0xa8, 0xdf, 0x89, 0x9f]);
/// assert!(crypto::pbkdf2_sync(b"x", b"y", 0, 32, Digest::Sha256).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn pbkdf2_sync(
    password: &[u8],
    salt: &[u8],
    iterations: u32,
    key_len: usize,
    digest: Digest,
) -> Result<Vec<u8>, CryptoError> {
    if iterations == 0 {
        return Err(CryptoError::Invalid(
            "iterations = 0; expected at least 1".into(),
        ));
    }
    check_len("key length", key_len)?;
    let mut out = vec![0u8; key_len];
    let f = by_digest!(digest, pbkdf2_hmac);
    f(password, salt, iterations, &mut out);
    Ok(out)
}

/// PBKDF2-HMAC (RFC 8018 §5.2) over the `hmac` crate, as the `pbkdf2`
/// crate's `pbkdf2_hmac` computes it (the keyed HMAC state cloned for each
/// round), with a [`checkpoint`](crate::checkpoint) every
/// [`ROUNDS_PER_CHECKPOINT`] rounds: that crate's loop has no place to hand
/// the core back, and a hash of 100,000 rounds computes for tens of
/// milliseconds. The tests compare it with the crate and with Node's bytes.
fn pbkdf2_hmac<D: pbkdf2::hmac::EagerHash>(
    password: &[u8],
    salt: &[u8],
    rounds: u32,
    out: &mut [u8],
) {
    use pbkdf2::hmac::digest::{FixedOutput, KeyInit, OutputSizeUser, Update, typenum::Unsigned};
    type Prf<D> = pbkdf2::hmac::Hmac<D>;
    let n = <Prf<D> as OutputSizeUser>::OutputSize::to_usize();
    let Ok(prf) = <Prf<D> as KeyInit>::new_from_slice(password) else {
        unreachable!("HMAC takes a key of any length")
    };
    for (block, chunk) in (1u32..).zip(out.chunks_mut(n)) {
        let mut mac = prf.clone();
        Update::update(&mut mac, salt);
        Update::update(&mut mac, &block.to_be_bytes());
        let mut u = mac.finalize_fixed();
        chunk.copy_from_slice(&u[..chunk.len()]);
        for round in 1..rounds {
            let mut mac = prf.clone();
            Update::update(&mut mac, &u);
            u = mac.finalize_fixed();
            chunk.iter_mut().zip(u.iter()).for_each(|(a, b)| *a ^= b);
            if round % ROUNDS_PER_CHECKPOINT == 0 {
                crate::checkpoint();
            }
        }
    }
}

/// Rounds of PBKDF2 between two [`checkpoint`](crate::checkpoint) calls
/// (64 rounds of HMAC-SHA256: about 15 µs on this project's machine).
const ROUNDS_PER_CHECKPOINT: u32 = 64;

/// The cost parameters of [`scrypt()`]; the default is Node's
/// (`N = 16384, r = 8, p = 1`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScryptParams {
    /// CPU/memory cost; a power of two greater than 1.
    pub n: u64,
    /// Block size.
    pub r: u32,
    /// Parallelization.
    pub p: u32,
}

impl Default for ScryptParams {
    fn default() -> Self {
        ScryptParams {
            n: 16384,
            r: 8,
            p: 1,
        }
    }
}

/// scrypt (`crypto.scrypt(password, salt, keylen, { N, r, p })`).
///
/// ```
/// use sluice::{Pool, crypto};
/// let pool = Pool::builder().build()?;
/// // node -p "crypto.scryptSync('secret', 'salt', 32).toString('hex')"
/// let key = crypto::scrypt(&pool, b"secret", b"salt", 32, Default::default()).wait()??;
/// assert_eq!(key[..4], [0x05, 0xff, 0xae, 0xbc]);
/// let bad = crypto::scrypt(&pool, b"x", b"y", 32, crypto::ScryptParams { n: 1000, r: 8, p: 1 }).wait()?;
/// assert_eq!(bad.unwrap_err().to_string(), "scrypt N = 1000; expected a power of two greater than 1");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn scrypt(
    pool: &Pool,
    password: &[u8],
    salt: &[u8],
    key_len: usize,
    params: ScryptParams,
) -> Task<Result<Vec<u8>, CryptoError>> {
    let (password, salt) = (password.to_vec(), salt.to_vec());
    pool.spawn(Lane::Cpu, move || {
        check_len("key length", key_len)?;
        if params.n < 2 || !params.n.is_power_of_two() {
            return Err(CryptoError::Invalid(format!(
                "scrypt N = {}; expected a power of two greater than 1",
                params.n
            )));
        }
        let log_n = params.n.trailing_zeros() as u8;
        // OpenSSL's (and so Node's) bound N < 2^(16 r), which scrypt 0.12
        // no longer checks.
        if u64::from(log_n) >= 16 * u64::from(params.r) {
            return Err(CryptoError::Invalid(format!(
                "scrypt N = {}, r = {}: expected N below 2^(16 r)",
                params.n, params.r
            )));
        }
        let p = scrypt::Params::new(log_n, params.r, params.p).map_err(|e| {
            CryptoError::Invalid(format!(
                "scrypt N = {}, r = {}, p = {}: {e}",
                params.n, params.r, params.p
            ))
        })?;
        let mut out = vec![0u8; key_len];
        scrypt::scrypt(&password, &salt, &p, &mut out)
            .map_err(|e| CryptoError::Invalid(format!("scrypt key length {key_len}: {e}")))?;
        Ok(out)
    })
}

/// `len` cryptographically secure random bytes from the operating system
/// (`crypto.randomBytes(len)`).
pub fn random_bytes(pool: &Pool, len: usize) -> Task<Result<Vec<u8>, CryptoError>> {
    pool.spawn(Lane::Cpu, move || {
        check_len("random bytes", len)?;
        let mut out = vec![0u8; len];
        getrandom::fill(&mut out).map_err(|e| CryptoError::Random(e.to_string()))?;
        Ok(out)
    })
}
