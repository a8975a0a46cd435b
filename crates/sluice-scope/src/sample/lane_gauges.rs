//! sluice's lane gauges, read from the process's memory: each lane's queue
//! depth and thread counters, at the addresses the package's addon
//! publishes in its gauge block (the core's `sluice::observer::GaugeBlock`,
//! found at `sluice_scope_lanes` by `target/addon.rs`).
//!
//! # The layout scope reads: ABI version 1
//!
//! Native-endian, 64-bit; the writer's docs (`sluice::observer`) are the
//! reference, and a test here reads a block the core itself published.
//!
//! | offset | bytes | field |
//! |---|---|---|
//! | 0 | 8 | magic `SLUICEGB` |
//! | 8 | 4 | version, `1` |
//! | 12 | 4 | size, `104` |
//! | 16 | 8 | `seq`: `0` nothing published, odd being written, even published |
//! | 24 | 4 | lane count, `3` |
//! | 28 | 4 | bits per field of a threads word, `21` |
//! | 32 + 24 i | 4, 4 | lane `i` (`0` cpu, `1` fastio, `2` slowio), reserved |
//! | 40 + 24 i | 8 | address of its queue depth (a `usize`), `0`: none |
//! | 48 + 24 i | 8 | address of its thread counters (a `u64`: alive, searching, sleeping from bit 0), `0`: none |
//!
//! # A reading
//!
//! At a window's start, [`read_block`] follows the symbol's pointer, reads
//! the block and checks its magic, version, size, lane count and field
//! width: a block that is not version 1's is never read further. At each
//! sample, [`Block::read`] reads `seq`, every lane's two words and `seq`
//! again, in that order, in one `process_vm_readv`: the reading is kept
//! only if both `seq`s are the block's (even) one, else it is torn. A word
//! is a value the pool held (each is one aligned word, changed whole), but
//! the two words of a lane are not read at one instant. A value no pool
//! holds (a queue depth above [`MAX_DEPTH`], a threads word with bits set
//! above its three fields, or more searching and sleeping threads than
//! alive ones) is refused, never counted.

use crate::target::memory::Gather;
use std::fmt;

/// The layout version this reader knows.
pub(crate) const VERSION: u32 = 1;
/// The first 8 bytes of a block.
pub(crate) const MAGIC: [u8; 8] = *b"SLUICEGB";
/// Version 1's size in bytes.
pub(crate) const SIZE: usize = 104;
/// Offset of `seq`.
const SEQ: u64 = 16;
/// Offset of lane 0's entry; each is [`ENTRY`] bytes.
const LANES: usize = 32;
const ENTRY: usize = 24;
/// The most tasks a queue depth may read as: a larger word is not a queue
/// (each queued task holds heap memory; 2^32 of them would be terabytes).
pub(crate) const MAX_DEPTH: u64 = u32::MAX as u64;

/// Why a lane's gauges were not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Unread {
    /// The process's memory could not be read there.
    Memory(String),
    /// The block's first bytes are not [`MAGIC`].
    Magic([u8; 8]),
    /// A layout version this reader does not know.
    Version(u32),
    /// A version 1 block whose fixed fields say otherwise.
    Layout(String),
    /// `seq` is 0: the package has no pool yet.
    NotPublished,
    /// `seq` was odd, or changed under the reading.
    Torn,
    /// The lane's addresses are 0: its pool keeps no such words.
    NoWords,
    /// A word no pool holds.
    Implausible(String),
}

impl fmt::Display for Unread {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unread::Memory(e) => write!(f, "the gauge words could not be read: {e}"),
            Unread::Magic(m) => write!(
                f,
                "the block at sluice_scope_lanes starts {:?}, not {:?}: not a sluice gauge block",
                String::from_utf8_lossy(m),
                String::from_utf8_lossy(&MAGIC)
            ),
            Unread::Version(v) => write!(
                f,
                "the package's gauge block is layout version {v}; this scope reads version {VERSION} (a newer package: update sluice)"
            ),
            Unread::Layout(what) => write!(f, "the gauge block is not version 1's: {what}"),
            Unread::NotPublished => f.write_str("the package's pool is not built yet"),
            Unread::Torn => f.write_str("every reading raced a write of the gauge block (torn)"),
            Unread::NoWords => f.write_str("the pool keeps no queue-depth word for this lane"),
            Unread::Implausible(what) => write!(f, "a gauge word no pool holds: {what}"),
        }
    }
}

/// One lane's gauges in one reading.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct LaneGauges {
    /// Tasks queued and not yet claimed by a worker.
    pub(crate) queued: u64,
    /// The lane's threads alive.
    pub(crate) alive: u64,
    /// Of those, running a task (alive − searching − sleeping).
    pub(crate) running: u64,
}

/// A version 1 block, checked: where each lane's words are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Block {
    /// The block's address.
    at: u64,
    /// `seq` as the block was read: even, nonzero.
    seq: u64,
    /// Bits per field of a threads word.
    field_bits: u32,
    /// Per lane (cpu, fastio, slowio): its queue depth's and thread
    /// counters' addresses.
    words: [(u64, u64); 3],
}

fn u32_at(b: &[u8], off: usize) -> u32 {
    u32::from_ne_bytes(b[off..off + 4].try_into().expect("4 bytes"))
}

fn u64_at(b: &[u8], off: usize) -> u64 {
    u64::from_ne_bytes(b[off..off + 8].try_into().expect("8 bytes"))
}

fn memory(e: std::io::Error) -> Unread {
    Unread::Memory(e.to_string())
}

/// Follows the pointer at `symbol` (the runtime address of
/// `sluice_scope_lanes`) and reads and checks the block there.
pub(crate) fn read_block(mem: &dyn Gather, symbol: u64) -> Result<Block, Unread> {
    let mut ptr = [0u8; 8];
    mem.gather(&mut [(symbol, &mut ptr)]).map_err(memory)?;
    let at = u64::from_ne_bytes(ptr);
    if at == 0 {
        return Err(Unread::Layout(
            "the pointer sluice_scope_lanes is null".into(),
        ));
    }
    // The head first: a block of another version may be of another size.
    let mut head = [0u8; 16];
    mem.gather(&mut [(at, &mut head)]).map_err(memory)?;
    let magic: [u8; 8] = head[..8].try_into().expect("8 bytes");
    if magic != MAGIC {
        return Err(Unread::Magic(magic));
    }
    let version = u32_at(&head, 8);
    if version != VERSION {
        return Err(Unread::Version(version));
    }
    let size = u32_at(&head, 12);
    if size as usize != SIZE {
        return Err(Unread::Layout(format!("size {size}, not {SIZE}")));
    }
    let mut b = [0u8; SIZE];
    mem.gather(&mut [(at, &mut b)]).map_err(memory)?;
    let seq = u64_at(&b, SEQ as usize);
    if seq == 0 {
        return Err(Unread::NotPublished);
    }
    if seq % 2 == 1 {
        return Err(Unread::Torn);
    }
    let lanes = u32_at(&b, 24);
    if lanes != 3 {
        return Err(Unread::Layout(format!("{lanes} lanes, not 3")));
    }
    let field_bits = u32_at(&b, 28);
    if !(1..=21).contains(&field_bits) {
        return Err(Unread::Layout(format!(
            "{field_bits} bits per thread counter, not 1..=21"
        )));
    }
    let mut words = [(0, 0); 3];
    for (i, w) in words.iter_mut().enumerate() {
        let e = LANES + i * ENTRY;
        let lane = u32_at(&b, e);
        if lane as usize != i {
            return Err(Unread::Layout(format!("entry {i} names lane {lane}")));
        }
        *w = (u64_at(&b, e + 8), u64_at(&b, e + 16));
    }
    Ok(Block {
        at,
        seq,
        field_bits,
        words,
    })
}

impl Block {
    /// One reading of every lane's gauges, in lane order (cpu, fastio,
    /// slowio); an error for the whole block if the memory could not be
    /// read or the reading is torn.
    pub(crate) fn read(&self, mem: &dyn Gather) -> Result<[Result<LaneGauges, Unread>; 3], Unread> {
        let mut seq = [[0u8; 8]; 2];
        let mut vals = [[0u8; 8]; 6];
        {
            let [seq0, seq1] = &mut seq;
            let mut parts: Vec<(u64, &mut [u8])> = vec![(self.at + SEQ, &mut seq0[..])];
            for ((depth, threads), pair) in self.words.iter().zip(vals.chunks_mut(2)) {
                if *depth != 0 && *threads != 0 {
                    let [d, t] = pair else {
                        unreachable!("chunks of 2")
                    };
                    parts.push((*depth, &mut d[..]));
                    parts.push((*threads, &mut t[..]));
                }
            }
            parts.push((self.at + SEQ, &mut seq1[..]));
            mem.gather(&mut parts).map_err(memory)?;
        }
        if u64::from_ne_bytes(seq[0]) != self.seq || u64::from_ne_bytes(seq[1]) != self.seq {
            return Err(Unread::Torn);
        }
        let mut out = [const { Err(Unread::NoWords) }; 3];
        for (i, (o, (depth, threads))) in out.iter_mut().zip(self.words).enumerate() {
            if depth != 0 && threads != 0 {
                let queued = u64::from_ne_bytes(vals[2 * i]);
                let word = u64::from_ne_bytes(vals[2 * i + 1]);
                *o = decode(queued, word, self.field_bits);
            }
        }
        Ok(out)
    }
}

/// A lane's two words as gauges, or why they are no pool's.
fn decode(queued: u64, threads: u64, bits: u32) -> Result<LaneGauges, Unread> {
    if queued > MAX_DEPTH {
        return Err(Unread::Implausible(format!("queue depth {queued}")));
    }
    let mask = (1u64 << bits) - 1;
    let (alive, searching, sleeping) = (
        threads & mask,
        (threads >> bits) & mask,
        (threads >> (2 * bits)) & mask,
    );
    if threads >> (3 * bits) != 0 || searching + sleeping > alive {
        return Err(Unread::Implausible(format!("thread counters {threads:#x}")));
    }
    Ok(LaneGauges {
        queued,
        alive,
        running: alive - searching - sleeping,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;

    /// A fake process: one block at [`AT`] (the pointer to it at [`SYM`])
    /// and words at [`WORDS`]; `flip_seq_after` reads in, `seq` changes
    /// (a writer republishing under the reading).
    struct Fake {
        block: Vec<u8>,
        words: [u64; 6],
        reads: Cell<usize>,
        flip_seq_after: Option<usize>,
    }

    const SYM: u64 = 0x1000;
    const AT: u64 = 0x2000;
    const WORDS: u64 = 0x3000;

    impl Fake {
        /// A published version 1 block whose lanes' words hold `words`.
        fn new(words: [u64; 6]) -> Fake {
            let mut b = vec![0u8; SIZE];
            b[..8].copy_from_slice(&MAGIC);
            b[8..12].copy_from_slice(&1u32.to_ne_bytes());
            b[12..16].copy_from_slice(&(SIZE as u32).to_ne_bytes());
            b[16..24].copy_from_slice(&2u64.to_ne_bytes());
            b[24..28].copy_from_slice(&3u32.to_ne_bytes());
            b[28..32].copy_from_slice(&21u32.to_ne_bytes());
            for i in 0..3 {
                let e = LANES + i * ENTRY;
                b[e..e + 4].copy_from_slice(&(i as u32).to_ne_bytes());
                let depth = WORDS + 16 * i as u64;
                b[e + 8..e + 16].copy_from_slice(&depth.to_ne_bytes());
                b[e + 16..e + 24].copy_from_slice(&(depth + 8).to_ne_bytes());
            }
            Fake {
                block: b,
                words,
                reads: Cell::new(0),
                flip_seq_after: None,
            }
        }

        fn byte(&self, addr: u64) -> Option<u8> {
            let n = self.reads.get();
            if let Some(k) = self.flip_seq_after
                && n > k
                && (AT + SEQ..AT + SEQ + 8).contains(&addr)
            {
                return Some(4u64.to_ne_bytes()[(addr - AT - SEQ) as usize]);
            }
            if (SYM..SYM + 8).contains(&addr) {
                return Some(AT.to_ne_bytes()[(addr - SYM) as usize]);
            }
            if (AT..AT + SIZE as u64).contains(&addr) {
                return Some(self.block[(addr - AT) as usize]);
            }
            let w = addr.checked_sub(WORDS)? as usize;
            Some(self.words.get(w / 8)?.to_ne_bytes()[w % 8])
        }
    }

    impl Gather for Fake {
        fn gather(&self, parts: &mut [(u64, &mut [u8])]) -> std::io::Result<()> {
            for (addr, buf) in parts.iter_mut() {
                for (i, out) in buf.iter_mut().enumerate() {
                    *out = self.byte(*addr + i as u64).ok_or_else(|| {
                        std::io::Error::new(std::io::ErrorKind::UnexpectedEof, "unmapped")
                    })?;
                }
                self.reads.set(self.reads.get() + 1);
            }
            Ok(())
        }
    }

    /// A threads word: alive, searching, sleeping.
    fn threads(alive: u64, searching: u64, sleeping: u64) -> u64 {
        alive | searching << 21 | sleeping << 42
    }

    #[test]
    fn reads_each_lanes_queue_and_threads() {
        let fake = Fake::new([
            14,
            threads(2, 0, 0),
            0,
            threads(1, 0, 1),
            3,
            threads(4, 1, 0),
        ]);
        let b = read_block(&fake, SYM).unwrap();
        let r = b.read(&fake).unwrap();
        assert_eq!(
            r,
            [
                Ok(LaneGauges {
                    queued: 14,
                    alive: 2,
                    running: 2
                }),
                Ok(LaneGauges {
                    queued: 0,
                    alive: 1,
                    running: 0
                }),
                Ok(LaneGauges {
                    queued: 3,
                    alive: 4,
                    running: 3
                }),
            ]
        );
    }

    #[test]
    fn another_version_or_magic_or_size_is_not_read() {
        let mut fake = Fake::new([0; 6]);
        fake.block[8..12].copy_from_slice(&2u32.to_ne_bytes());
        let err = read_block(&fake, SYM).unwrap_err();
        assert_eq!(err, Unread::Version(2));
        assert_eq!(
            err.to_string(),
            "the package's gauge block is layout version 2; this scope reads version 1 (a newer package: update sluice)"
        );
        let mut fake = Fake::new([0; 6]);
        fake.block[..8].copy_from_slice(b"NOTSLUIC");
        assert_eq!(read_block(&fake, SYM), Err(Unread::Magic(*b"NOTSLUIC")));
        let mut fake = Fake::new([0; 6]);
        fake.block[12..16].copy_from_slice(&112u32.to_ne_bytes());
        assert_eq!(
            read_block(&fake, SYM),
            Err(Unread::Layout("size 112, not 104".into()))
        );
        let mut fake = Fake::new([0; 6]);
        fake.block[LANES + ENTRY..LANES + ENTRY + 4].copy_from_slice(&2u32.to_ne_bytes());
        assert_eq!(
            read_block(&fake, SYM),
            Err(Unread::Layout("entry 1 names lane 2".into()))
        );
    }

    #[test]
    fn an_unpublished_or_half_written_block_is_not_read() {
        let mut fake = Fake::new([0; 6]);
        fake.block[16..24].copy_from_slice(&0u64.to_ne_bytes());
        assert_eq!(read_block(&fake, SYM), Err(Unread::NotPublished));
        fake.block[16..24].copy_from_slice(&1u64.to_ne_bytes());
        assert_eq!(read_block(&fake, SYM), Err(Unread::Torn));
    }

    #[test]
    fn a_reading_torn_by_a_write_is_dropped() {
        let mut fake = Fake::new([5, threads(2, 0, 0), 0, 0, 0, 0]);
        let b = read_block(&fake, SYM).unwrap();
        // 3 reads for the block; in the next reading the first seq reads
        // as before, and the last one as written since.
        fake.flip_seq_after = Some(fake.reads.get());
        let err = b.read(&fake).unwrap_err();
        assert_eq!(err, Unread::Torn);
        assert_eq!(
            err.to_string(),
            "every reading raced a write of the gauge block (torn)"
        );
        // Written before the reading: both seqs differ from the block's.
        assert_eq!(b.read(&fake), Err(Unread::Torn));
        // Undisturbed, the same words read.
        fake.flip_seq_after = None;
        assert_eq!(b.read(&fake).unwrap()[0].as_ref().unwrap().queued, 5);
    }

    #[test]
    fn words_no_pool_holds_are_refused_per_lane() {
        let fake = Fake::new([
            MAX_DEPTH + 1,
            threads(2, 0, 0),
            1,
            threads(1, 1, 1),
            1,
            1 << 63,
        ]);
        let r = read_block(&fake, SYM).unwrap().read(&fake).unwrap();
        assert_eq!(
            r[0],
            Err(Unread::Implausible(format!(
                "queue depth {}",
                MAX_DEPTH + 1
            )))
        );
        assert!(matches!(&r[1], Err(Unread::Implausible(w)) if w.starts_with("thread counters")));
        assert!(matches!(&r[2], Err(Unread::Implausible(_))));
    }

    #[test]
    fn a_lane_without_words_and_unmapped_words_say_so() {
        let mut fake = Fake::new([7, threads(1, 0, 0), 0, 0, 0, 0]);
        let e = LANES + ENTRY;
        fake.block[e + 8..e + 24].fill(0);
        let b = read_block(&fake, SYM).unwrap();
        let r = b.read(&fake).unwrap();
        assert_eq!(r[0].as_ref().unwrap().queued, 7);
        assert_eq!(r[1], Err(Unread::NoWords));
        let gone = Fake::new([0; 6]);
        let b = read_block(&gone, SYM).unwrap();
        let mut short = b.clone();
        short.words[2].0 = 0x9000; // not mapped
        assert!(matches!(short.read(&gone), Err(Unread::Memory(_))));
    }

    /// The core's own block, published for a real pool in this process,
    /// read back through this process's memory: the writer's layout is the
    /// one this reader knows.
    #[test]
    fn reads_the_block_the_core_publishes() {
        use crate::target::memory::RemoteMemory;
        use sluice::observer::GaugeBlock;
        static BLOCK: GaugeBlock = GaugeBlock::new();
        static POINTER: &GaugeBlock = &BLOCK;
        let mem = RemoteMemory::open(std::process::id()).unwrap();
        let symbol = std::ptr::from_ref(&POINTER).addr() as u64;
        assert_eq!(read_block(&mem, symbol), Err(Unread::NotPublished));
        assert_eq!((GaugeBlock::MAGIC, GaugeBlock::VERSION), (MAGIC, VERSION));
        assert_eq!(GaugeBlock::SIZE as usize, SIZE);
        let pool: &'static sluice::Pool = Box::leak(Box::new(
            sluice::Pool::builder()
                .threads(sluice::Lane::Cpu, 1)
                .build()
                .unwrap(),
        ));
        assert!(BLOCK.publish(pool));
        let b = read_block(&mem, symbol).unwrap();
        let idle = b.read(&mem).unwrap();
        assert_eq!(idle[0].as_ref().unwrap().queued, 0);
        // One task holds the Cpu lane's one thread; two more wait.
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        let (started_tx, started_rx) = std::sync::mpsc::channel::<()>();
        let first = pool.spawn(sluice::Lane::Cpu, move || {
            started_tx.send(()).unwrap();
            let _ = rx.recv();
        });
        started_rx.recv().unwrap();
        let waiting: Vec<_> = (0..2)
            .map(|_| pool.spawn(sluice::Lane::Cpu, || ()))
            .collect();
        let busy = b.read(&mem).unwrap();
        assert_eq!(
            busy[0],
            Ok(LaneGauges {
                queued: 2,
                alive: 1,
                running: 1
            })
        );
        assert_eq!(
            busy[0].as_ref().unwrap().queued,
            pool.metrics().lane(sluice::Lane::Cpu).queue_depth
        );
        tx.send(()).unwrap();
        first.wait().unwrap();
        for t in waiting {
            t.wait().unwrap();
        }
        assert_eq!(b.read(&mem).unwrap()[0].as_ref().unwrap().queued, 0);
    }
}
