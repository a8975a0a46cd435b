//! A reference gunzip with Node's rules, written apart from sluice's: the
//! gzip header and trailer are parsed here byte by byte as RFC 1952 and
//! zlib's `inflate.c` read them, the deflate body is inflated by a port of
//! Mark Adler's `puff.c` (zlib's own reference decoder, contrib/puff: every
//! check zlib makes, in zlib's order, none of zlib's code), each refusal
//! named with zlib's message, and members follow `node_zlib.cc`: after a
//! member, a zero byte or the end stops, any other byte starts the next
//! member.
//!
//! [`compare`] runs it beside `sluice::zlib::gunzip_sync` and says how the
//! two differ, if they do: the smoke test (`tests/gunzip_differential.rs`)
//! and the fuzz target (`fuzz/fuzz_targets/gunzip_node.rs`) share it.

use sluice::zlib::{GunzipError, gunzip_sync};

/// What the reference answers: the bytes, or the refusal with zlib's
/// message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum RefOutcome {
    /// The bytes of every member read.
    Bytes(Vec<u8>),
    /// Z_DATA_ERROR, with zlib's message.
    Data(&'static str),
    /// Z_BUF_ERROR, "unexpected end of file".
    End,
    /// The output passed the limit.
    TooLarge,
}

enum Member {
    /// The member ended at this offset of the input.
    Ended(usize),
    Refused(RefOutcome),
}

fn crc32(parts: &[&[u8]]) -> u32 {
    let mut c = flate2::Crc::new();
    for p in parts {
        c.update(p);
    }
    c.sum()
}

/// One member from `data[at..]`, its bytes appended to `out`.
fn member(data: &[u8], at: usize, out: &mut Vec<u8>, limit: usize) -> Member {
    use RefOutcome::{Data, End};
    let rest = &data[at..];
    let need = |n: usize| rest.len() >= n;
    // HEAD: zlib takes 16 bits before it looks at them.
    if !need(2) {
        return Member::Refused(End);
    }
    if rest[..2] != [0x1f, 0x8b] {
        return Member::Refused(Data("incorrect header check"));
    }
    // FLAGS: method and flags, 16 bits, then checked.
    if !need(4) {
        return Member::Refused(End);
    }
    if rest[2] != 8 {
        return Member::Refused(Data("unknown compression method"));
    }
    let flags = rest[3];
    if flags & 0xe0 != 0 {
        return Member::Refused(Data("unknown header flags set"));
    }
    // TIME (4), XFL and OS (2).
    let mut p = 10;
    if !need(p) {
        return Member::Refused(End);
    }
    if flags & 4 != 0 {
        if !need(p + 2) {
            return Member::Refused(End);
        }
        let len = usize::from(u16::from_le_bytes([rest[p], rest[p + 1]]));
        p += 2 + len;
        if !need(p) {
            return Member::Refused(End);
        }
    }
    for bit in [8u8, 16] {
        if flags & bit != 0 {
            match rest[p..].iter().position(|&b| b == 0) {
                Some(nul) => p += nul + 1,
                None => return Member::Refused(End),
            }
        }
    }
    if flags & 2 != 0 {
        if !need(p + 2) {
            return Member::Refused(End);
        }
        let want = u16::from_le_bytes([rest[p], rest[p + 1]]);
        if want != (crc32(&[&rest[..p]]) & 0xffff) as u16 {
            return Member::Refused(Data("header crc mismatch"));
        }
        p += 2;
    }
    // The deflate body.
    let start = out.len();
    let mut puff = Puff {
        input: &rest[p..],
        at: 0,
        bits: 0,
        nbits: 0,
        out,
        start,
        limit,
    };
    match puff.blocks() {
        Ok(()) => {}
        Err(Stop::End) => return Member::Refused(End),
        Err(Stop::Large) => return Member::Refused(RefOutcome::TooLarge),
        Err(Stop::Bad(m)) => return Member::Refused(Data(m)),
    }
    p += puff.at;
    // CHECK: the CRC-32 of the member's bytes, then LENGTH, each checked as
    // soon as its 4 bytes are there.
    if !need(p + 4) {
        return Member::Refused(End);
    }
    let crc = u32::from_le_bytes(rest[p..p + 4].try_into().unwrap());
    if crc != crc32(&[&out[start..]]) {
        return Member::Refused(Data("incorrect data check"));
    }
    p += 4;
    if !need(p + 4) {
        return Member::Refused(End);
    }
    let isize = u32::from_le_bytes(rest[p..p + 4].try_into().unwrap());
    if isize != (out.len() - start) as u32 {
        return Member::Refused(Data("incorrect length check"));
    }
    Member::Ended(at + p + 4)
}

/// The reference's answer for `data`, with output refused past `limit`.
pub(crate) fn reference(data: &[u8], limit: usize) -> RefOutcome {
    let mut out = Vec::new();
    let mut at = 0;
    loop {
        match member(data, at, &mut out, limit) {
            Member::Refused(r) => return r,
            Member::Ended(end) => {
                if end >= data.len() || data[end] == 0 {
                    return RefOutcome::Bytes(out);
                }
                at = end;
            }
        }
    }
}

/// sluice's answer and the reference's for `data`; `Err` says how they
/// differ: accepted by one only, other bytes, another class of error, or
/// (for the header and trailer checks) another message.
pub(crate) fn compare(data: &[u8], limit: usize) -> Result<(), String> {
    let ours = gunzip_sync(data, limit);
    let want = reference(data, limit);
    let same = match (&ours, &want) {
        (Ok(a), RefOutcome::Bytes(b)) => a == b,
        (Err(GunzipError::UnexpectedEnd), RefOutcome::End) => true,
        (Err(GunzipError::TooLarge { .. }), RefOutcome::TooLarge) => true,
        (Err(GunzipError::Data { message }), RefOutcome::Data(m)) => m == message,
        _ => false,
    };
    if same {
        Ok(())
    } else {
        let ours = match &ours {
            Ok(b) => format!("Ok({} bytes)", b.len()),
            Err(e) => format!("{e:?}"),
        };
        let want = match &want {
            RefOutcome::Bytes(b) => format!("Bytes({} bytes)", b.len()),
            other => format!("{other:?}"),
        };
        Err(format!(
            "sluice {ours}, reference {want}, on {} bytes: {:02x?}",
            data.len(),
            &data[..data.len().min(64)]
        ))
    }
}

enum Stop {
    /// The input ended (puff's "ran out of input").
    End,
    /// Output past the limit.
    Large,
    /// zlib's message for the refusal.
    Bad(&'static str),
}

/// puff.c's state: the input, its bit buffer, the output (the member's
/// bytes start at `start`; a distance may not reach before it).
struct Puff<'a> {
    input: &'a [u8],
    at: usize,
    bits: u32,
    nbits: u32,
    out: &'a mut Vec<u8>,
    start: usize,
    limit: usize,
}

/// A canonical Huffman code: the number of codes of each length, and the
/// symbols ordered by code.
struct Huffman {
    count: [u16; 16],
    symbol: Vec<u16>,
}

impl Huffman {
    /// puff's `construct`: the code, and how many codes are left unused
    /// (negative: over-subscribed, positive: incomplete, 0: complete).
    fn new(lengths: &[u8]) -> (Huffman, i32) {
        let mut count = [0u16; 16];
        for &l in lengths {
            count[usize::from(l)] += 1;
        }
        let mut h = Huffman {
            count,
            symbol: vec![0; lengths.len()],
        };
        if usize::from(count[0]) == lengths.len() {
            return (h, 0);
        }
        let mut left: i32 = 1;
        for &n in &count[1..] {
            left <<= 1;
            left -= i32::from(n);
            if left < 0 {
                return (h, left);
            }
        }
        let mut offs = [0u16; 16];
        for len in 1..15 {
            offs[len + 1] = offs[len] + count[len];
        }
        for (sym, &l) in lengths.iter().enumerate() {
            if l != 0 {
                h.symbol[usize::from(offs[usize::from(l)])] = sym as u16;
                offs[usize::from(l)] += 1;
            }
        }
        h.count = count;
        (h, left)
    }
}

const LBASE: [u16; 29] = [
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131,
    163, 195, 227, 258,
];
const LEXT: [u8; 29] = [
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
];
const DBASE: [u16; 30] = [
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537,
    2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577,
];
const DEXT: [u8; 30] = [
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13,
    13,
];

impl Puff<'_> {
    fn bits(&mut self, need: u32) -> Result<u32, Stop> {
        let mut val = self.bits;
        while self.nbits < need {
            let Some(&b) = self.input.get(self.at) else {
                return Err(Stop::End);
            };
            self.at += 1;
            val |= u32::from(b) << self.nbits;
            self.nbits += 8;
        }
        self.bits = val >> need;
        self.nbits -= need;
        Ok(val & ((1u32 << need) - 1))
    }

    fn emit(&mut self, byte: u8) -> Result<(), Stop> {
        self.out.push(byte);
        if self.out.len() > self.limit {
            Err(Stop::Large)
        } else {
            Ok(())
        }
    }

    fn stored(&mut self) -> Result<(), Stop> {
        self.bits = 0;
        self.nbits = 0;
        if self.at + 4 > self.input.len() {
            return Err(Stop::End);
        }
        let len = u16::from_le_bytes([self.input[self.at], self.input[self.at + 1]]);
        let nlen = u16::from_le_bytes([self.input[self.at + 2], self.input[self.at + 3]]);
        self.at += 4;
        if len != !nlen {
            return Err(Stop::Bad("invalid stored block lengths"));
        }
        for _ in 0..len {
            let Some(&b) = self.input.get(self.at) else {
                return Err(Stop::End);
            };
            self.at += 1;
            self.emit(b)?;
        }
        Ok(())
    }

    /// puff's `decode`, bit by bit; `None` for a code the set leaves unused,
    /// known once as many bits are read as its longest code has (as zlib's
    /// tables know it: a set of no codes, or a single code of length 1,
    /// takes one bit).
    fn decode(&mut self, h: &Huffman) -> Result<Option<u16>, Stop> {
        let longest = (1..16).rev().find(|&l| h.count[l] != 0).unwrap_or(1);
        let (mut code, mut first, mut index) = (0i32, 0i32, 0i32);
        for len in 1..=longest {
            code |= self.bits(1)? as i32;
            let count = i32::from(h.count[len]);
            if code - count < first {
                return Ok(Some(h.symbol[(index + (code - first)) as usize]));
            }
            index += count;
            first += count;
            first <<= 1;
            code <<= 1;
        }
        Ok(None)
    }

    fn codes(&mut self, lencode: &Huffman, distcode: &Huffman) -> Result<(), Stop> {
        loop {
            let symbol = self
                .decode(lencode)?
                .ok_or(Stop::Bad("invalid literal/length code"))?;
            if symbol < 256 {
                self.emit(symbol as u8)?;
                continue;
            }
            if symbol == 256 {
                return Ok(());
            }
            let s = usize::from(symbol - 257);
            if s >= 29 {
                return Err(Stop::Bad("invalid literal/length code"));
            }
            let len = usize::from(LBASE[s]) + self.bits(u32::from(LEXT[s]))? as usize;
            let d = usize::from(
                self.decode(distcode)?
                    .ok_or(Stop::Bad("invalid distance code"))?,
            );
            if d >= 30 {
                return Err(Stop::Bad("invalid distance code"));
            }
            let dist = usize::from(DBASE[d]) + self.bits(u32::from(DEXT[d]))? as usize;
            if dist > self.out.len() - self.start {
                return Err(Stop::Bad("invalid distance too far back"));
            }
            for _ in 0..len {
                let b = self.out[self.out.len() - dist];
                self.emit(b)?;
            }
        }
    }

    fn fixed(&mut self) -> Result<(), Stop> {
        let mut lengths = [0u8; 288];
        for (i, l) in lengths.iter_mut().enumerate() {
            *l = match i {
                0..=143 => 8,
                144..=255 => 9,
                256..=279 => 7,
                _ => 8,
            };
        }
        let (lencode, _) = Huffman::new(&lengths);
        let (distcode, _) = Huffman::new(&[5u8; 30]);
        self.codes(&lencode, &distcode)
    }

    fn dynamic(&mut self) -> Result<(), Stop> {
        const ORDER: [usize; 19] = [
            16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15,
        ];
        let nlen = self.bits(5)? as usize + 257;
        let ndist = self.bits(5)? as usize + 1;
        let ncode = self.bits(4)? as usize + 4;
        if nlen > 286 || ndist > 30 {
            return Err(Stop::Bad("too many length or distance symbols"));
        }
        let mut lengths = [0u8; 316];
        for &o in &ORDER[..ncode] {
            lengths[o] = self.bits(3)? as u8;
        }
        let (lencode, err) = Huffman::new(&lengths[..19]);
        if err != 0 {
            return Err(Stop::Bad("invalid code lengths set"));
        }
        // zlib reads a code length with a set of no codes (all 19 lengths
        // zero) as one bit meaning length 0 (its table's filler entry).
        let none = usize::from(lencode.count[0]) == 19;
        let mut index = 0;
        while index < nlen + ndist {
            let symbol = if none {
                self.bits(1)?;
                0
            } else {
                self.decode(&lencode)?
                    .ok_or(Stop::Bad("invalid code lengths set"))?
            };
            if symbol < 16 {
                lengths[index] = symbol as u8;
                index += 1;
                continue;
            }
            let (len, times) = match symbol {
                16 => {
                    if index == 0 {
                        return Err(Stop::Bad("invalid bit length repeat"));
                    }
                    (lengths[index - 1], 3 + self.bits(2)? as usize)
                }
                17 => (0, 3 + self.bits(3)? as usize),
                _ => (0, 11 + self.bits(7)? as usize),
            };
            if index + times > nlen + ndist {
                return Err(Stop::Bad("invalid bit length repeat"));
            }
            lengths[index..index + times].fill(len);
            index += times;
        }
        if lengths[256] == 0 {
            return Err(Stop::Bad("invalid code -- missing end-of-block"));
        }
        // Incomplete codes are allowed only as a single code of length 1.
        let (lencode, err) = Huffman::new(&lengths[..nlen]);
        if err < 0 || (err > 0 && nlen != usize::from(lencode.count[0] + lencode.count[1])) {
            return Err(Stop::Bad("invalid literal/lengths set"));
        }
        let (distcode, err) = Huffman::new(&lengths[nlen..nlen + ndist]);
        if err < 0 || (err > 0 && ndist != usize::from(distcode.count[0] + distcode.count[1])) {
            return Err(Stop::Bad("invalid distances set"));
        }
        self.codes(&lencode, &distcode)
    }

    /// Every block up to the last; the input left at the byte after it.
    fn blocks(&mut self) -> Result<(), Stop> {
        loop {
            let last = self.bits(1)?;
            match self.bits(2)? {
                0 => self.stored()?,
                1 => self.fixed()?,
                2 => self.dynamic()?,
                _ => return Err(Stop::Bad("invalid block type")),
            }
            if last == 1 {
                return Ok(());
            }
        }
    }
}
