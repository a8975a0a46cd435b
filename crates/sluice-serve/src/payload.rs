//! The bytes `/gzip` compresses and `/file` serves: 256 KiB of pseudo-random
//! lowercase text, the same in `sluice serve` and the lab's Node twin
//! (`http.js` has the same generator), so both compress the same input.

/// `len` bytes of the generator: a 31-bit linear congruential sequence
/// (`x = x * 1103515245 + 12345 mod 2^31`, from `x = 1`), each step picking
/// one of 32 characters (26 letters and 6 spaces/newlines) by `x >> 16`.
///
/// ```
/// let p = sluice_serve::payload::text(64 * 1024);
/// assert_eq!(p.len(), 65_536);
/// assert!(p.iter().all(|b| b.is_ascii_lowercase() || *b == b' ' || *b == b'\n'));
/// assert_eq!(&p[..8], b"g bll c "); // the same as http.js
/// ```
pub fn text(len: usize) -> Vec<u8> {
    const ALPHABET: &[u8; 32] = b"abcdefghijklmnopqrstuvwxyz     \n";
    let mut x: u32 = 1;
    (0..len)
        .map(|_| {
            x = x.wrapping_mul(1_103_515_245).wrapping_add(12_345) & 0x7fff_ffff;
            ALPHABET[((x >> 16) & 31) as usize]
        })
        .collect()
}
