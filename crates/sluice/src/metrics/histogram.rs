//! A high-dynamic-range histogram with single-writer atomic buckets.
//!
//! Values are nanoseconds. Buckets are log-linear, as in HdrHistogram: values
//! below 16 have a bucket each; above, every power of two is split into 16
//! equal sub-buckets, so a bucket's width is at most 1/16 (6.25 %) of its
//! lower bound. The top bucket holds everything from 2^42 ns (about 73 min).
//!
//! Each [`Histogram`] has exactly one writer (a worker thread owns its shard,
//! see `counters.rs`), so recording is a `Relaxed` load and store per bucket:
//! no read-modify-write, no contended cache line. Readers (snapshots) load
//! `Relaxed` and may see a value a few records old; at quiescence they see all.
//!
//! Snapshots merge shards into an [`hdrhistogram::Histogram`] for quantiles.

use std::sync::atomic::{AtomicU64, Ordering};

/// Sub-bucket bits: 2^4 = 16 sub-buckets per power of two.
const SUB_BITS: u32 = 4;
const SUB_COUNT: usize = 1 << SUB_BITS;
/// Values at or above 2^MAX_BITS ns land in the top bucket.
const MAX_BITS: u32 = 42;
/// Number of buckets: exact ones below 16, then 16 per power of two up to 2^42.
pub(crate) const BUCKETS: usize = (MAX_BITS - SUB_BITS + 1) as usize * SUB_COUNT;

/// The bucket a value falls in.
pub(crate) fn bucket_index(value: u64) -> usize {
    if value < SUB_COUNT as u64 {
        return value as usize;
    }
    if value >= 1 << MAX_BITS {
        return BUCKETS - 1;
    }
    let msb = 63 - value.leading_zeros(); // >= SUB_BITS
    let shift = msb - SUB_BITS;
    let sub = ((value >> shift) as usize) & (SUB_COUNT - 1);
    (shift as usize + 1) * SUB_COUNT + sub
}

/// The smallest value of bucket `index`, and its width.
pub(crate) fn bucket_bounds(index: usize) -> (u64, u64) {
    if index < SUB_COUNT {
        return (index as u64, 1);
    }
    let shift = (index / SUB_COUNT - 1) as u32;
    let sub = (index % SUB_COUNT) as u64;
    ((SUB_COUNT as u64 + sub) << shift, 1 << shift)
}

/// A single-writer histogram of nanosecond values.
pub(crate) struct Histogram {
    buckets: Box<[AtomicU64]>,
    /// Sum of recorded values, saturating.
    sum: AtomicU64,
}

impl Histogram {
    pub(crate) fn new() -> Self {
        Histogram {
            buckets: (0..BUCKETS).map(|_| AtomicU64::new(0)).collect(),
            sum: AtomicU64::new(0),
        }
    }

    /// Records one value. Only the histogram's owner may call this.
    ///
    /// `Relaxed` load-then-store instead of `fetch_add`: there is a single
    /// writer, so no increment can be lost, and readers need no ordering with
    /// anything else (a snapshot is a statistic, not a synchronization point).
    pub(crate) fn record(&self, nanos: u64) {
        let bucket = &self.buckets[bucket_index(nanos)];
        bucket.store(bucket.load(Ordering::Relaxed) + 1, Ordering::Relaxed);
        self.sum.store(
            self.sum.load(Ordering::Relaxed).saturating_add(nanos),
            Ordering::Relaxed,
        );
    }

    /// Adds this histogram's counts into `counts` and returns its sum.
    pub(crate) fn add_into(&self, counts: &mut [u64]) -> u64 {
        for (acc, b) in counts.iter_mut().zip(self.buckets.iter()) {
            *acc += b.load(Ordering::Relaxed);
        }
        self.sum.load(Ordering::Relaxed)
    }
}

/// Merged bucket counts of several [`Histogram`]s.
#[derive(Clone)]
pub(crate) struct Merged {
    pub(crate) counts: Vec<u64>,
    pub(crate) sum: u64,
}

impl Merged {
    pub(crate) fn new() -> Self {
        Merged {
            counts: vec![0; BUCKETS],
            sum: 0,
        }
    }

    pub(crate) fn add(&mut self, h: &Histogram) {
        self.sum = self.sum.saturating_add(h.add_into(&mut self.counts));
    }

    /// The merged counts as an [`hdrhistogram::Histogram`], each bucket
    /// recorded at its midpoint.
    pub(crate) fn to_hdr(&self) -> hdrhistogram::Histogram<u64> {
        // 3 significant figures is finer than our buckets; auto-resize keeps
        // any value representable.
        let mut h = hdrhistogram::Histogram::<u64>::new(3).expect("3 sigfigs is valid");
        h.auto(true);
        for (i, &n) in self.counts.iter().enumerate() {
            if n > 0 {
                let (low, width) = bucket_bounds(i);
                // Cannot fail with auto-resize on.
                let _ = h.record_n(low + width / 2, n);
            }
        }
        h
    }
}

#[cfg(all(test, not(loom)))]
mod tests {
    use super::*;

    #[test]
    fn small_values_have_exact_buckets() {
        for v in 0..16 {
            assert_eq!(bucket_index(v), v as usize);
            assert_eq!(bucket_bounds(v as usize), (v, 1));
        }
    }

    #[test]
    fn every_value_lies_in_its_bucket_and_widths_are_at_most_one_sixteenth() {
        let mut v = 1u64;
        while v < 1 << 44 {
            for probe in [v, v + 1, v * 3 / 2, v.saturating_sub(1)] {
                let i = bucket_index(probe);
                let (low, width) = bucket_bounds(i);
                if probe < 1 << MAX_BITS {
                    assert!(
                        low <= probe && probe < low + width,
                        "{probe} not in [{low}, +{width})"
                    );
                    assert!(width == 1 || width * 16 <= low, "bucket {i} too wide");
                } else {
                    assert_eq!(i, BUCKETS - 1);
                }
            }
            v *= 2;
        }
    }

    #[test]
    fn indices_are_dense_and_increasing() {
        let mut last = 0;
        for i in 0..BUCKETS {
            let (low, _) = bucket_bounds(i);
            assert_eq!(bucket_index(low), i);
            assert!(i == 0 || low > last);
            last = low;
        }
    }

    #[test]
    fn records_count_and_sum_and_merge() {
        let a = Histogram::new();
        let b = Histogram::new();
        for v in [5, 1_000, 1_000, 2_000_000] {
            a.record(v);
        }
        b.record(7);
        let mut m = Merged::new();
        m.add(&a);
        m.add(&b);
        assert_eq!(m.counts.iter().sum::<u64>(), 5);
        assert_eq!(m.sum, 5 + 1_000 + 1_000 + 2_000_000 + 7);
        assert_eq!(m.counts[bucket_index(1_000)], 2);
        let hdr = m.to_hdr();
        assert_eq!(hdr.len(), 5);
        assert_eq!(hdr.value_at_quantile(0.0), 5);
    }
}
