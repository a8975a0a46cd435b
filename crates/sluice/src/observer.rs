//! A pool's lane gauges where a reader outside the process can find them:
//! [`GaugeBlock`], a `#[repr(C)]` block of fixed layout (a versioned ABI)
//! that holds the addresses of each lane's queue depth and thread counters.
//! The program exports it at a symbol (the npm package's addon: the pointer
//! `sluice_scope_lanes`), and `sluice scope PID` finds that symbol in the
//! program's file, follows it, and reads the words with `process_vm_readv`
//! at each sample, the process running on.
//!
//! Both words are the pool's own, kept by the lanes policy anyway: the
//! queue depth every submission and claim changes, and the packed thread
//! counters of the sleep/wake protocol (`park/`). The block only says where
//! they are, so it costs the pool nothing after [`GaugeBlock::publish`]
//! (one store per field, once per process). Each word is aligned and
//! changed whole by atomic read-modify-writes, so a word read whole is a
//! value the pool held; two words are not read at one instant.
//!
//! # Layout, version 1
//!
//! Native-endian, for 64-bit targets (an address is 8 bytes). 104 bytes.
//!
//! | offset | bytes | field | meaning |
//! |---|---|---|---|
//! | 0 | 8 | `magic` | the ASCII bytes `SLUICEGB` ([`GaugeBlock::MAGIC`]) |
//! | 8 | 4 | `version` | `1` ([`GaugeBlock::VERSION`]) |
//! | 12 | 4 | `size` | `104`, the block's bytes ([`GaugeBlock::SIZE`]) |
//! | 16 | 8 | `seq` | `0`: nothing published yet (no pool); odd: being written; even and nonzero: published |
//! | 24 | 4 | `lane_count` | `3` |
//! | 28 | 4 | `thread_field_bits` | `21`: bits per field of a threads word |
//! | 32 + 24 i | 4 | `lane` | lane `i`: `0` cpu, `1` fastio, `2` slowio |
//! | 36 + 24 i | 4 | `reserved` | `0` |
//! | 40 + 24 i | 8 | `queue_depth` | address of the lane's queue depth: a `usize`, tasks queued and not yet claimed by a worker (`LaneSnapshot::queue_depth`); `0`: none |
//! | 48 + 24 i | 8 | `threads` | address of the lane's thread counters: a `u64` of three fields of `thread_field_bits` bits from bit 0, alive, searching, sleeping (running a task: alive − searching − sleeping; the bits above them are 0); `0`: none |
//!
//! A reader reads `seq` before and after the rest and keeps a reading only
//! if both are the same even, nonzero value: a block being written reads
//! odd, a block written during the read reads two values (torn). Every
//! other field is constant from the program's start. The addresses are
//! `0` for a pool whose policy keeps no such words ([`Policy::Libuv`]
//! counts under its lock).
//!
//! A changed layout, or a changed meaning of a word, is a new version; a
//! reader refuses a version it does not know (and a block whose magic or
//! size is not this one's).
//!
//! [`Policy::Libuv`]: crate::Policy::Libuv

use crate::lane::Lane;
use crate::pool::Pool;
// std's atomics, not the `loom` shim's: the block is a static, built by a
// `const fn`, and takes no part in the pool's protocols (it is written
// once, and read only from outside the process).
use std::sync::atomic::{AtomicU64, Ordering};

/// The block of ABI version 1 (see the module's docs for the layout).
///
/// ```
/// use sluice::Pool;
/// use sluice::observer::GaugeBlock;
///
/// static BLOCK: GaugeBlock = GaugeBlock::new();
/// // The block keeps the pool's addresses: the pool lives as long as the program.
/// let pool: &'static Pool = Box::leak(Box::new(Pool::builder().build()?));
/// assert!(!BLOCK.is_published());
/// assert!(BLOCK.publish(pool));
/// assert!(!BLOCK.publish(pool), "published once; a later call changes nothing");
/// assert!(BLOCK.is_published());
/// assert_eq!(size_of::<GaugeBlock>(), GaugeBlock::SIZE as usize);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[repr(C)]
#[derive(Debug)]
pub struct GaugeBlock {
    magic: [u8; 8],
    version: u32,
    size: u32,
    /// 0 until [`GaugeBlock::publish`]; 1 while it writes the addresses;
    /// 2 after, for good (a block is published once).
    seq: AtomicU64,
    lane_count: u32,
    thread_field_bits: u32,
    lanes: [LaneEntry; 3],
}

/// One lane's entry in a [`GaugeBlock`].
#[repr(C)]
#[derive(Debug)]
struct LaneEntry {
    lane: u32,
    reserved: u32,
    queue_depth: AtomicU64,
    threads: AtomicU64,
}

impl GaugeBlock {
    /// The first 8 bytes of a block: `SLUICEGB`.
    pub const MAGIC: [u8; 8] = *b"SLUICEGB";
    /// The layout's version.
    pub const VERSION: u32 = 1;
    /// The block's size in bytes.
    pub const SIZE: u32 = 104;

    /// An unpublished block (`seq` 0, no addresses), for a `static`.
    pub const fn new() -> GaugeBlock {
        const fn entry(lane: Lane) -> LaneEntry {
            LaneEntry {
                lane: lane.index() as u32,
                reserved: 0,
                queue_depth: AtomicU64::new(0),
                threads: AtomicU64::new(0),
            }
        }
        GaugeBlock {
            magic: GaugeBlock::MAGIC,
            version: GaugeBlock::VERSION,
            size: GaugeBlock::SIZE,
            seq: AtomicU64::new(0),
            lane_count: Lane::ALL.len() as u32,
            thread_field_bits: crate::park::FIELD_BITS,
            lanes: [entry(Lane::Cpu), entry(Lane::FastIo), entry(Lane::SlowIo)],
        }
    }

    /// Writes where `pool`'s lane gauges are, once: `true` if this call
    /// published, `false` if the block was published (or is being
    /// published) already, by this pool or another. `'static`: the block
    /// hands out the pool's addresses for the rest of the program.
    pub fn publish(&self, pool: &'static Pool) -> bool {
        // Claims the one write: a second caller, on any thread, returns.
        // Relaxed: nothing this thread reads depends on the claim; the
        // addresses are ordered by the Release store below.
        if self
            .seq
            .compare_exchange(0, 1, Ordering::Relaxed, Ordering::Relaxed)
            .is_err()
        {
            return false;
        }
        for (entry, lane) in self.lanes.iter().zip(Lane::ALL) {
            let (depth, threads) = pool
                .gauge_words(lane)
                .map_or((0, 0), |w| (w.queue_depth, w.threads));
            // Relaxed: ordered for any reader in the process by the
            // Release store of `seq`; a reader outside the process has no
            // ordering to rely on and checks `seq` before and after.
            entry.queue_depth.store(depth as u64, Ordering::Relaxed);
            entry.threads.store(threads as u64, Ordering::Relaxed);
        }
        self.seq.store(2, Ordering::Release);
        true
    }

    /// Whether [`GaugeBlock::publish`] has finished.
    pub fn is_published(&self) -> bool {
        self.seq.load(Ordering::Acquire) == 2
    }
}

impl Default for GaugeBlock {
    fn default() -> GaugeBlock {
        GaugeBlock::new()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::offset_of;

    #[test]
    fn the_layout_is_version_1s() {
        assert_eq!(size_of::<GaugeBlock>(), 104);
        assert_eq!(offset_of!(GaugeBlock, magic), 0);
        assert_eq!(offset_of!(GaugeBlock, version), 8);
        assert_eq!(offset_of!(GaugeBlock, size), 12);
        assert_eq!(offset_of!(GaugeBlock, seq), 16);
        assert_eq!(offset_of!(GaugeBlock, lane_count), 24);
        assert_eq!(offset_of!(GaugeBlock, thread_field_bits), 28);
        assert_eq!(offset_of!(GaugeBlock, lanes), 32);
        assert_eq!(size_of::<LaneEntry>(), 24);
        assert_eq!(offset_of!(LaneEntry, lane), 0);
        assert_eq!(offset_of!(LaneEntry, reserved), 4);
        assert_eq!(offset_of!(LaneEntry, queue_depth), 8);
        assert_eq!(offset_of!(LaneEntry, threads), 16);
        let b = GaugeBlock::new();
        assert_eq!(&b.magic, b"SLUICEGB");
        assert_eq!((b.version, b.size, b.lane_count), (1, 104, 3));
        assert_eq!(b.thread_field_bits, 21);
        let lanes: Vec<u32> = b.lanes.iter().map(|l| l.lane).collect();
        assert_eq!(lanes, [0, 1, 2]);
    }

    #[test]
    fn publishing_writes_the_lanes_own_words_once() {
        let pool: &'static Pool = Box::leak(Box::new(Pool::builder().build().unwrap()));
        let b = GaugeBlock::new();
        assert_eq!(b.seq.load(Ordering::Relaxed), 0);
        assert!(b.publish(pool));
        assert_eq!(b.seq.load(Ordering::Relaxed), 2);
        for (entry, lane) in b.lanes.iter().zip(Lane::ALL) {
            let w = pool.gauge_words(lane).unwrap();
            assert_eq!(
                entry.queue_depth.load(Ordering::Relaxed),
                w.queue_depth as u64
            );
            assert_eq!(entry.threads.load(Ordering::Relaxed), w.threads as u64);
            assert_ne!(w.queue_depth, 0);
            assert_ne!(w.queue_depth, w.threads);
        }
        let other: &'static Pool = Box::leak(Box::new(Pool::builder().build().unwrap()));
        assert!(!b.publish(other), "a block is published once");
        let w = pool.gauge_words(Lane::Cpu).unwrap();
        assert_eq!(
            b.lanes[0].queue_depth.load(Ordering::Relaxed),
            w.queue_depth as u64
        );
    }

    #[test]
    fn a_libuv_pool_has_no_words_to_publish() {
        let pool: &'static Pool = Box::leak(Box::new(
            Pool::builder()
                .policy(crate::Policy::Libuv { threads: Some(2) })
                .build()
                .unwrap(),
        ));
        let b = GaugeBlock::new();
        assert!(b.publish(pool));
        assert!(b.is_published());
        for entry in &b.lanes {
            assert_eq!(entry.queue_depth.load(Ordering::Relaxed), 0);
            assert_eq!(entry.threads.load(Ordering::Relaxed), 0);
        }
    }
}
