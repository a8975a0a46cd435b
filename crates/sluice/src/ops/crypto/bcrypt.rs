//! bcrypt password hashes on [`Lane::Cpu`], with the `bcrypt` crate: what
//! the npm packages `bcrypt` and `bcryptjs` compute (the first on libuv's
//! pool, the second on the event loop itself). The strings are the modular
//! crypt format both write and read: `$2b$10$` + 22 characters of salt + 31
//! of hash. Passwords are bytes; as in both packages, only the first 72
//! count.
//!
//! No [`checkpoint`](crate::checkpoint) here: the crate runs its 2^cost
//! rounds of key expansion in one call, with no place to hand the core
//! back (a cost-10 hash computes for tens of milliseconds).
//!
//! ```
//! use sluice::{Pool, crypto::bcrypt::{self, Version}};
//!
//! let pool = Pool::builder().build()?;
//! let hashed = bcrypt::hash(&pool, b"correct horse", 4, None, Version::TwoB).wait()??;
//! assert!(hashed.starts_with("$2b$04$") && hashed.len() == 60);
//! assert!(bcrypt::verify(&pool, b"correct horse", &hashed).wait()??);
//! // A salt string of npm `bcrypt` (`genSaltSync(4)`) gives its hash.
//! let salted = bcrypt::hash_with_salt_string(&pool, b"correct horse", "$2b$04$abcdefghijklmnopqrstuu").wait()??;
//! assert_eq!(salted, "$2b$04$abcdefghijklmnopqrstuujydOTSfIH/d5oUHpsygqV5X9xJLQc6e");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use super::CryptoError;
use crate::lane::Lane;
use crate::pool::Pool;
use crate::task::Task;

/// The prefix a hash is written with (`$2b$` unless asked otherwise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Version {
    /// `$2a$`.
    TwoA,
    /// `$2b$`, what `bcrypt` and `bcryptjs` write by default.
    #[default]
    TwoB,
    /// `$2x$`.
    TwoX,
    /// `$2y$` (PHP's).
    TwoY,
}

impl Version {
    fn of_crate(self) -> ::bcrypt::Version {
        match self {
            Version::TwoA => ::bcrypt::Version::TwoA,
            Version::TwoB => ::bcrypt::Version::TwoB,
            Version::TwoX => ::bcrypt::Version::TwoX,
            Version::TwoY => ::bcrypt::Version::TwoY,
        }
    }

    fn of_minor(minor: u8) -> Option<Version> {
        match minor {
            b'a' => Some(Version::TwoA),
            b'b' => Some(Version::TwoB),
            b'x' => Some(Version::TwoX),
            b'y' => Some(Version::TwoY),
            _ => None,
        }
    }
}

/// The smallest and largest cost (log2 of the rounds) bcrypt accepts.
pub const COSTS: std::ops::RangeInclusive<u32> = 4..=31;

/// The alphabet of bcrypt's base 64 (not the standard one).
const ALPHABET: &[u8; 64] = b"./ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";

fn invalid(what: impl std::fmt::Display) -> CryptoError {
    CryptoError::Invalid(format!("bcrypt: {what}"))
}

/// Hashes `password` at `cost` (4..=31) with `salt`, or 16 random bytes.
pub fn hash(
    pool: &Pool,
    password: &[u8],
    cost: u32,
    salt: Option<[u8; 16]>,
    version: Version,
) -> Task<Result<String, CryptoError>> {
    let password = password.to_vec();
    pool.spawn(Lane::Cpu, move || hash_sync(&password, cost, salt, version))
}

/// [`hash()`] on the calling thread (`hashSync`). Never call it on an
/// event loop's thread.
pub fn hash_sync(
    password: &[u8],
    cost: u32,
    salt: Option<[u8; 16]>,
    version: Version,
) -> Result<String, CryptoError> {
    if !COSTS.contains(&cost) {
        return Err(invalid(format!("cost {cost}; expected 4..=31")));
    }
    let salt = match salt {
        Some(salt) => salt,
        None => {
            let mut salt = [0u8; 16];
            getrandom::fill(&mut salt).map_err(|e| CryptoError::Random(e.to_string()))?;
            salt
        }
    };
    let parts = ::bcrypt::hash_with_salt(password, cost, salt).map_err(invalid)?;
    Ok(parts.format_for_version(version.of_crate()))
}

/// Hashes `password` with a salt string as `genSalt` writes it
/// (`$2b$10$` and 22 characters; a whole hash's first 29 characters are
/// its salt string, as npm `bcrypt` reads them), with the salt string's
/// version and cost: `bcrypt.hash(data, salt)`.
pub fn hash_with_salt_string(
    pool: &Pool,
    password: &[u8],
    salt: &str,
) -> Task<Result<String, CryptoError>> {
    let (password, salt) = (password.to_vec(), salt.to_string());
    pool.spawn(Lane::Cpu, move || {
        let (version, cost, raw) = parse_salt(&salt)?;
        hash_sync(&password, cost, Some(raw), version)
    })
}

/// The version, cost and raw salt of a salt string (or of a hash). The
/// salt's last character carries 4 bits beyond the 128 of the salt: like
/// npm `bcrypt`, they are ignored.
pub fn parse_salt(salt: &str) -> Result<(Version, u32, [u8; 16]), CryptoError> {
    let refuse = || {
        invalid(format!(
            "salt {salt:?}; expected $2a$, $2b$, $2x$ or $2y$, a cost of two digits 04..=31, $ and 22 characters of bcrypt's base 64"
        ))
    };
    let b = salt.as_bytes();
    if b.len() < 29 || !salt.is_ascii() || b[0] != b'$' || b[1] != b'2' || b[3] != b'$' {
        return Err(refuse());
    }
    if b[6] != b'$' || !b[4].is_ascii_digit() || !b[5].is_ascii_digit() {
        return Err(refuse());
    }
    let version = Version::of_minor(b[2]).ok_or_else(refuse)?;
    let cost = u32::from(b[4] - b'0') * 10 + u32::from(b[5] - b'0');
    if !COSTS.contains(&cost) {
        return Err(refuse());
    }
    // Clear the 4 bits past the salt, then read it with the crate's parser
    // (which wants a whole hash: any 31 characters of hash serve).
    let last = ALPHABET
        .iter()
        .position(|&c| c == b[28])
        .ok_or_else(refuse)?;
    let mut whole = String::with_capacity(60);
    whole.push_str("$2b$");
    whole.push_str(&salt[4..28]);
    whole.push(char::from(ALPHABET[last & !0xf]));
    whole.push_str(&".".repeat(31));
    let parts: ::bcrypt::HashParts = whole.parse().map_err(|_| refuse())?;
    Ok((version, cost, parts.get_salt_raw()))
}

/// True when `password` hashes to `hashed` (`$2a$`, `$2b$`, `$2x$` or
/// `$2y$`, all read as `$2b$`); `bcrypt.compare(data, encrypted)`. A string
/// that is not a bcrypt hash is `false`, as in both npm packages.
pub fn verify(pool: &Pool, password: &[u8], hashed: &str) -> Task<Result<bool, CryptoError>> {
    let (password, hashed) = (password.to_vec(), hashed.to_string());
    pool.spawn(Lane::Cpu, move || verify_sync(&password, &hashed))
}

/// [`verify()`] on the calling thread (`compareSync`).
pub fn verify_sync(password: &[u8], hashed: &str) -> Result<bool, CryptoError> {
    match ::bcrypt::verify(password, hashed) {
        Ok(matched) => Ok(matched),
        Err(::bcrypt::BcryptError::InvalidHash(_) | ::bcrypt::BcryptError::CostNotAllowed(_)) => {
            Ok(false)
        }
        Err(e) => Err(invalid(e)),
    }
}

/// The cost of a hash or salt string (`bcrypt.getRounds`).
pub fn rounds(hashed: &str) -> Result<u32, CryptoError> {
    parse_salt(hashed).map(|(_, cost, _)| cost)
}
