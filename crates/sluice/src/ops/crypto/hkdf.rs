//! HKDF (RFC 5869) on [`Lane::Cpu`] ([`hkdf()`]): `crypto.hkdf(digest, ikm,
//! salt, info, keylen)`, over RustCrypto's `hkdf` crate.

use super::{CryptoError, Digest, by_digest};
use crate::lane::Lane;
use crate::pool::Pool;
use crate::task::Task;

/// The most bytes of `info` Node takes (`ERR_OUT_OF_RANGE` past it, as
/// OpenSSL's HKDF refuses more). [`hkdf_sync`] takes any length, as RFC
/// 5869 does; the npm package hands a longer `info` to Node, which refuses it.
pub const HKDF_MAX_INFO: usize = 1024;

/// Bytes of input key material HMAC'd between two checkpoints (64 KiB:
/// about 100 µs of SHA-256 on this project's machine).
const IKM_PIECE: usize = 64 * 1024;

/// HKDF (`crypto.hkdf(digest, ikm, salt, info, keylen)`): extract with
/// `salt` (empty is RFC 5869's default, `HashLen` zeros), expand to
/// `key_len` bytes with `info`. `key_len` is at most 255 times the digest's
/// [`output_len`](Digest::output_len) (Node's `ERR_CRYPTO_INVALID_KEYLEN`
/// past it); 0 gives no bytes, as Node's does.
///
/// The work is an HMAC over the input key material (extract), then at most
/// 255 HMACs of one block each (expand): microseconds, unless the key
/// material is large. The extract reads it in pieces of 64 KiB with a
/// [`checkpoint`](crate::checkpoint) between two, so a key of megabytes
/// still hands the core back; the salt (HMAC's key, hashed in one call when
/// longer than a block) and the expand have no such place and need none at
/// Node's sizes (`info` at most [`HKDF_MAX_INFO`] bytes).
///
/// ```
/// use sluice::{Pool, crypto::{self, Digest}};
///
/// let pool = Pool::builder().build()?;
/// // node -p "Buffer.from(crypto.hkdfSync('sha256', 'key', 'salt', 'info', 16)).toString('hex')"
/// let key = crypto::hkdf(&pool, Digest::Sha256, b"key", b"salt", b"info", 16).wait()??;
/// assert_eq!(hex(&key), "9ca0d662557439e3b83365f2da4626d3");
/// let long = crypto::hkdf(&pool, Digest::Sha1, b"key", b"", b"", 255 * 20 + 1).wait()?;
/// assert!(long.is_err());
/// # fn hex(b: &[u8]) -> String { b.iter().map(|x| format!("{x:02x}")).collect() }
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn hkdf(
    pool: &Pool,
    digest: Digest,
    ikm: &[u8],
    salt: &[u8],
    info: &[u8],
    key_len: usize,
) -> Task<Result<Vec<u8>, CryptoError>> {
    let (ikm, salt, info) = (ikm.to_vec(), salt.to_vec(), info.to_vec());
    pool.spawn(Lane::Cpu, move || {
        hkdf_sync(digest, &ikm, &salt, &info, key_len)
    })
}

/// [`hkdf()`] on the calling thread (`crypto.hkdfSync`), for code that
/// submits the work itself. Never call it on an event loop's thread.
pub fn hkdf_sync(
    digest: Digest,
    ikm: &[u8],
    salt: &[u8],
    info: &[u8],
    key_len: usize,
) -> Result<Vec<u8>, CryptoError> {
    let max = 255 * digest.output_len();
    if key_len > max {
        return Err(CryptoError::Invalid(format!(
            "hkdf key length = {key_len}; expected at most {max} (255 times {}'s {} bytes)",
            digest.name(),
            digest.output_len()
        )));
    }
    let mut out = vec![0u8; key_len];
    let f = by_digest!(digest, derive);
    f(ikm, salt, info, &mut out);
    Ok(out)
}

fn derive<H: ::hkdf::hmac::EagerHash>(ikm: &[u8], salt: &[u8], info: &[u8], out: &mut [u8]) {
    let mut extract = ::hkdf::HkdfExtract::<H>::new(Some(salt));
    for (i, piece) in ikm.chunks(IKM_PIECE).enumerate() {
        if i > 0 {
            crate::checkpoint();
        }
        extract.input_ikm(piece);
    }
    let (_, expander) = extract.finalize();
    let Ok(()) = expander.expand(info, out) else {
        unreachable!("hkdf_sync checked the length against 255 * HashLen")
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hex(b: &[u8]) -> String {
        b.iter().map(|x| format!("{x:02x}")).collect()
    }

    // RFC 5869, Appendix A.1 and A.3 (SHA-256), A.4 (SHA-1).
    #[test]
    fn rfc5869_vectors() {
        let ikm = [0x0b; 22];
        let salt: Vec<u8> = (0x00..=0x0c).collect();
        let info: Vec<u8> = (0xf0..=0xf9).collect();
        let okm = hkdf_sync(Digest::Sha256, &ikm, &salt, &info, 42).unwrap();
        assert_eq!(
            hex(&okm),
            "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"
        );
        let okm = hkdf_sync(Digest::Sha256, &ikm, b"", b"", 42).unwrap();
        assert_eq!(
            hex(&okm),
            "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"
        );
        let okm = hkdf_sync(Digest::Sha1, &[0x0b; 11], &salt, &info, 42).unwrap();
        assert_eq!(
            hex(&okm),
            "085a01ea1b10f36933068b56efa5ad81a4f14b822f5b091568a9cdd4f155fda2c22e422478d305f3f896"
        );
    }

    #[test]
    fn key_material_in_pieces_equals_one_hmac() {
        // Around the piece size: the checkpointed extract is one HMAC.
        for len in [
            0,
            1,
            IKM_PIECE - 1,
            IKM_PIECE,
            IKM_PIECE + 1,
            3 * IKM_PIECE + 7,
        ] {
            let ikm: Vec<u8> = (0..len).map(|i| (i * 31 % 251) as u8).collect();
            let (_, whole) = ::hkdf::Hkdf::<sha2::Sha384>::extract(Some(b"salt"), &ikm);
            let mut want = [0u8; 100];
            whole.expand(b"info", &mut want).unwrap();
            let got = hkdf_sync(Digest::Sha384, &ikm, b"salt", b"info", 100).unwrap();
            assert_eq!(got, want, "ikm of {len} bytes");
        }
    }

    #[test]
    fn lengths_up_to_255_hashes() {
        for d in Digest::ALL {
            let max = 255 * d.output_len();
            assert_eq!(hkdf_sync(d, b"k", b"", b"", 0).unwrap(), Vec::<u8>::new());
            assert_eq!(hkdf_sync(d, b"k", b"", b"", max).unwrap().len(), max);
            let err = hkdf_sync(d, b"k", b"", b"", max + 1).unwrap_err();
            assert!(err.to_string().contains(d.name()), "{err}");
        }
    }
}
