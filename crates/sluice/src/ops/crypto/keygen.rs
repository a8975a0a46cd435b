//! Key pairs on [`Lane::Cpu`] ([`generate_key_pair`]): what Node runs as
//! `crypto.generateKeyPair('rsa' | 'ed25519' | 'x25519', ...)` on its pool.

use super::CryptoError;
use crate::lane::Lane;
use crate::pool::Pool;
use crate::task::Task;
use crypto_bigint::{BitOps, BoxedUint, Limb, NonZero, RandomBits, Word};
use crypto_primes::{Flavor, hazmat::SmallFactorsSieve, is_prime};
use rsa::pkcs8::der::{
    Encode,
    asn1::{ObjectIdentifier, OctetString},
};
use rsa::pkcs8::{AlgorithmIdentifierRef, EncodePrivateKey, EncodePublicKey, PrivateKeyInfoOwned};
use std::num::NonZeroU32;

/// The smallest RSA modulus [`generate_key_pair`] makes: OpenSSL's
/// (`RSA_MIN_MODULUS_BITS`), and so Node's.
pub const RSA_MIN_BITS: u32 = 512;

/// The largest RSA modulus [`generate_key_pair`] makes: the `rsa` crate's
/// `RsaPublicKey::MAX_SIZE`. Node (OpenSSL) goes to 16384; the npm package
/// hands a larger one to Node.
pub const RSA_MAX_BITS: u32 = 8192;

/// The key pair to make (`crypto.generateKeyPair(type, options)`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyPairKind {
    /// `'rsa'` (RSASSA-PKCS1-v1_5 and RSA-OAEP keys, OID `rsaEncryption`):
    /// `modulus_bits` in [`RSA_MIN_BITS`]`..=`[`RSA_MAX_BITS`], an odd
    /// `public_exponent` of at least 3 (Node's default 65537).
    Rsa {
        /// `modulusLength`.
        modulus_bits: u32,
        /// `publicExponent`.
        public_exponent: u32,
    },
    /// `'ed25519'`.
    Ed25519,
    /// `'x25519'`.
    X25519,
}

/// A key pair as DER: the public key's `SubjectPublicKeyInfo`, the private
/// key's PKCS #8 `PrivateKeyInfo` (unencrypted, version 1).
#[derive(Clone, PartialEq, Eq)]
pub struct KeyPairDer {
    /// X.509 `SubjectPublicKeyInfo` (Node's `type: 'spki'`).
    pub public_spki: Vec<u8>,
    /// PKCS #8 `PrivateKeyInfo` (Node's `type: 'pkcs8'`).
    pub private_pkcs8: Vec<u8>,
}

impl std::fmt::Debug for KeyPairDer {
    /// The lengths only: a private key is not for logs.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("KeyPairDer")
            .field(
                "public_spki",
                &format_args!("{} bytes", self.public_spki.len()),
            )
            .field(
                "private_pkcs8",
                &format_args!("{} bytes", self.private_pkcs8.len()),
            )
            .finish()
    }
}

/// Makes a key pair of `kind` on [`Lane::Cpu`]
/// (`crypto.generateKeyPair(type, options)`).
///
/// Each pair comes out as DER, the public key as an X.509
/// `SubjectPublicKeyInfo` (Node's `spki`) and the private key as an
/// unencrypted PKCS #8 `PrivateKeyInfo` (Node's `pkcs8`), as OpenSSL writes
/// them: a caller that wants PEM, PKCS #1 or a JWK re-encodes them (the npm
/// package makes Node's `KeyObject`s of them and exports those).
///
/// - **RSA** (RustCrypto's `rsa`): two primes of half the modulus each, top
///   two bits set (so the modulus has exactly the bits asked for), each
///   with `p - 1` prime to the public exponent, as OpenSSL draws them; `d`
///   modulo λ(n). The prime search is sluice's own loop over
///   `crypto-primes`' sieve and primality test, as the `rsa` crate's
///   `generate_prime_with_rng` is, with a [`checkpoint`](crate::checkpoint)
///   before each candidate's test: a 2048-bit key computes for tens to
///   hundreds of milliseconds, and the crate's loop has no place to hand the
///   core back.
/// - **Ed25519** (`ed25519-dalek`) and **X25519** (`x25519-dalek`): a random
///   32-byte private key (X25519's clamped, as OpenSSL stores it), its public
///   key; RFC 8410's encodings. Microseconds: no checkpoint.
///
/// ```
/// use sluice::{Pool, crypto::{self, KeyPairKind}};
///
/// let pool = Pool::builder().build()?;
/// let pair = crypto::generate_key_pair(&pool, KeyPairKind::Ed25519).wait()??;
/// assert_eq!(pair.public_spki.len(), 44);
/// assert_eq!(pair.private_pkcs8.len(), 48);
/// let rsa = KeyPairKind::Rsa { modulus_bits: 1024, public_exponent: 65537 };
/// let pair = crypto::generate_key_pair(&pool, rsa).wait()??;
/// assert_eq!(pair.public_spki[..4], [0x30, 0x81, 0x9f, 0x30]);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn generate_key_pair(pool: &Pool, kind: KeyPairKind) -> Task<Result<KeyPairDer, CryptoError>> {
    pool.spawn(Lane::Cpu, move || generate_key_pair_sync(kind))
}

/// [`generate_key_pair`] on the calling thread (`crypto.generateKeyPairSync`),
/// for code that submits the work itself. Never call it on an event loop's
/// thread: an RSA key is long work.
pub fn generate_key_pair_sync(kind: KeyPairKind) -> Result<KeyPairDer, CryptoError> {
    match kind {
        KeyPairKind::Rsa {
            modulus_bits,
            public_exponent,
        } => rsa_key_pair(modulus_bits, public_exponent),
        KeyPairKind::Ed25519 => {
            let seed = random_32()?;
            let public = ed25519_dalek::SigningKey::from_bytes(&seed)
                .verifying_key()
                .to_bytes();
            curve_key_pair(ED25519, &seed, &public)
        }
        KeyPairKind::X25519 => {
            let mut private = random_32()?;
            // RFC 7748's clamping, as OpenSSL applies it to the key it stores.
            private[0] &= 248;
            private[31] &= 127;
            private[31] |= 64;
            let public = x25519_dalek::x25519(private, x25519_dalek::X25519_BASEPOINT_BYTES);
            curve_key_pair(X25519, &private, &public)
        }
    }
}

/// id-Ed25519 (RFC 8410).
const ED25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.112");
/// id-X25519 (RFC 8410).
const X25519: ObjectIdentifier = ObjectIdentifier::new_unwrap("1.3.101.110");

fn random_32() -> Result<[u8; 32], CryptoError> {
    let mut b = [0u8; 32];
    getrandom::fill(&mut b).map_err(|e| CryptoError::Random(e.to_string()))?;
    Ok(b)
}

fn der_error(e: impl std::fmt::Display) -> CryptoError {
    CryptoError::Invalid(format!("key encoding: {e}"))
}

/// RFC 8410's encodings: the private key a `CurvePrivateKey` (an OCTET
/// STRING) inside PKCS #8 version 1, the public key the raw point; no
/// algorithm parameters.
fn curve_key_pair(
    oid: ObjectIdentifier,
    private: &[u8; 32],
    public: &[u8; 32],
) -> Result<KeyPairDer, CryptoError> {
    let algorithm = AlgorithmIdentifierRef {
        oid,
        parameters: None,
    };
    let spki = rsa::pkcs8::SubjectPublicKeyInfoRef {
        algorithm,
        subject_public_key: rsa::pkcs8::der::asn1::BitStringRef::from_bytes(public)
            .map_err(der_error)?,
    };
    let curve_private_key = OctetString::new(private.to_vec())
        .and_then(|o| o.to_der())
        .map_err(der_error)?;
    let pkcs8 = PrivateKeyInfoOwned::new(
        rsa::pkcs8::spki::AlgorithmIdentifierOwned {
            oid,
            parameters: None,
        },
        OctetString::new(curve_private_key).map_err(der_error)?,
    );
    Ok(KeyPairDer {
        public_spki: spki.to_der().map_err(der_error)?,
        private_pkcs8: pkcs8.to_der().map_err(der_error)?,
    })
}

fn rsa_key_pair(bits: u32, e: u32) -> Result<KeyPairDer, CryptoError> {
    if !(RSA_MIN_BITS..=RSA_MAX_BITS).contains(&bits) {
        return Err(CryptoError::Invalid(format!(
            "RSA modulus of {bits} bits; expected {RSA_MIN_BITS}..={RSA_MAX_BITS}"
        )));
    }
    if e < 3 || e.is_multiple_of(2) {
        return Err(CryptoError::Invalid(format!(
            "RSA public exponent {e}; expected an odd number of at least 3"
        )));
    }
    // p takes the larger half of an odd bit count, as OpenSSL's does. With
    // their top two bits set, the product of two primes of p_bits and
    // q_bits has exactly p_bits + q_bits bits.
    let (p_bits, q_bits) = (bits.div_ceil(2), bits / 2);
    let key = loop {
        let p = rsa_prime(p_bits, e)?;
        let q = rsa_prime(q_bits, e)?;
        if p != q {
            break rsa::PrivateKey::from_p_q(p, q, BoxedUint::from(u64::from(e)))
                .map_err(|err| CryptoError::Invalid(format!("RSA key: {err}")))?;
        }
    };
    let public = key.to_public_key().to_public_key_der().map_err(der_error)?;
    let private = key.to_pkcs8_der().map_err(der_error)?;
    Ok(KeyPairDer {
        public_spki: public.as_bytes().to_vec(),
        private_pkcs8: private.as_bytes().to_vec(),
    })
}

/// A random prime of exactly `bits` bits, its top two bits set, with
/// `gcd(p - 1, e) = 1` (so that `e` is invertible): the `rsa` crate's
/// `generate_prime_with_rng` over `crypto-primes`, with a checkpoint
/// before each candidate's primality test.
fn rsa_prime(bits: u32, e: u32) -> Result<BoxedUint, CryptoError> {
    let Some(bit_length) = NonZeroU32::new(bits).filter(|b| b.get() >= 2) else {
        unreachable!("rsa_key_pair asks for 256 bits at least")
    };
    let e_limb = NonZero::new(Limb::from(e)).expect("e >= 3");
    loop {
        let mut start = BoxedUint::try_random_bits(&mut getrandom::SysRng, bits)
            .map_err(|err| CryptoError::Random(format!("{err:?}")))?;
        start.set_bit_vartime(0, true);
        start.set_bit_vartime(bits - 1, true);
        start.set_bit_vartime(bits - 2, true);
        let Ok(mut sieve) = SmallFactorsSieve::new(start, bit_length, false) else {
            unreachable!("the candidate has `bits` bits of precision")
        };
        let found = sieve.find(|candidate| {
            crate::checkpoint();
            // (p - 1) mod e, then Euclid's gcd in a limb.
            let e = Word::from(e);
            let r = (candidate.rem_limb(e_limb).0 + e - 1) % e;
            gcd(e, r) == 1 && is_prime(Flavor::Any, candidate)
        });
        if let Some(prime) = found {
            return Ok(prime);
        }
    }
}

fn gcd(mut a: Word, mut b: Word) -> Word {
    while b != 0 {
        (a, b) = (b, a % b);
    }
    a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rsa_primes_have_their_bits_and_are_prime_to_e() {
        for (bits, e) in [(256, 65537), (257, 3), (512, 17)] {
            let p = rsa_prime(bits, e).unwrap();
            assert_eq!(p.bit_width_vartime(), bits);
            assert!(p.bit_vartime(bits - 2), "top two bits set");
            let r = p.rem_limb(NonZero::new(Limb::from(e)).unwrap()).0;
            assert_ne!(r % Word::from(e), 1, "p - 1 is not a multiple of e = {e}");
        }
    }

    #[test]
    fn refused_sizes_and_exponents() {
        for (bits, e) in [(511, 65537), (8193, 65537), (1024, 1), (1024, 4)] {
            let kind = KeyPairKind::Rsa {
                modulus_bits: bits,
                public_exponent: e,
            };
            assert!(
                generate_key_pair_sync(kind).is_err(),
                "{bits} bits, e = {e}"
            );
        }
    }

    #[test]
    fn curve_keys_are_rfc_8410s() {
        let pair = generate_key_pair_sync(KeyPairKind::X25519).unwrap();
        // RFC 8410, section 10: the prefixes before the 32 key bytes.
        assert_eq!(
            pair.public_spki[..12],
            [
                0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x03, 0x21, 0x00
            ]
        );
        assert_eq!(
            pair.private_pkcs8[..16],
            [
                0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x6e, 0x04, 0x22,
                0x04, 0x20
            ]
        );
        let private: [u8; 32] = pair.private_pkcs8[16..].try_into().unwrap();
        assert_eq!((private[0] & 7, private[31] & 0xc0), (0, 0x40), "clamped");
        let public = x25519_dalek::x25519(private, x25519_dalek::X25519_BASEPOINT_BYTES);
        assert_eq!(pair.public_spki[12..], public);

        let pair = generate_key_pair_sync(KeyPairKind::Ed25519).unwrap();
        assert_eq!(
            pair.public_spki[..12],
            [
                0x30, 0x2a, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x03, 0x21, 0x00
            ]
        );
        let seed: [u8; 32] = pair.private_pkcs8[16..].try_into().unwrap();
        let signing = ed25519_dalek::SigningKey::from_bytes(&seed);
        assert_eq!(pair.public_spki[12..], signing.verifying_key().to_bytes());
    }
}
