//! The answer cache: DNS answers kept for their TTL.
//!
//! - The key is the host as asked (lowercased) and the family: `db` and
//!   `db.` are different questions when a search list applies.
//! - An answer lives for the smallest TTL among its records, at most the
//!   resolver's `max_ttl`. A TTL of 0 is not cached: the next lookup asks
//!   again. Failures (NXDOMAIN, timeouts) are not cached.
//! - At capacity, expired entries go first, then the one that expires
//!   soonest. Capacity 0 turns the cache off.
//! - Answers from `/etc/hosts` and from `getaddrinfo` never enter it: the
//!   file is re-read when it changes, and `getaddrinfo` reports no TTL.

use super::Family;
use std::collections::HashMap;
use std::net::IpAddr;
use std::time::{Duration, Instant};

/// The cache's key: the host lowercased, and the family.
pub(crate) type Key = (String, Family);

/// Cached answers with their expiry.
#[derive(Debug)]
pub(crate) struct Cache {
    capacity: usize,
    max_ttl: Duration,
    entries: HashMap<Key, (Vec<IpAddr>, Instant)>,
}

impl Cache {
    /// An empty cache of at most `capacity` answers, each kept at most
    /// `max_ttl`.
    pub(crate) fn new(capacity: usize, max_ttl: Duration) -> Self {
        Cache {
            capacity,
            max_ttl,
            entries: HashMap::new(),
        }
    }

    /// The answer for `key` if it has not expired at `now`.
    pub(crate) fn get(&mut self, key: &Key, now: Instant) -> Option<Vec<IpAddr>> {
        match self.entries.get(key) {
            Some((addrs, expires)) if *expires > now => Some(addrs.clone()),
            Some(_) => {
                self.entries.remove(key);
                None
            }
            None => None,
        }
    }

    /// Keeps `addrs` for `ttl` (capped at `max_ttl`) from `now`; a zero TTL
    /// keeps nothing.
    pub(crate) fn insert(&mut self, key: Key, addrs: Vec<IpAddr>, ttl: Duration, now: Instant) {
        let ttl = ttl.min(self.max_ttl);
        if ttl.is_zero() || self.capacity == 0 {
            return;
        }
        if self.entries.len() >= self.capacity && !self.entries.contains_key(&key) {
            self.entries.retain(|_, (_, expires)| *expires > now);
            if self.entries.len() >= self.capacity {
                let soonest = self
                    .entries
                    .iter()
                    .min_by_key(|(_, (_, expires))| *expires)
                    .map(|(k, _)| k.clone());
                if let Some(k) = soonest {
                    self.entries.remove(&k);
                }
            }
        }
        self.entries.insert(key, (addrs, now + ttl));
    }

    /// How many answers are cached (expired ones included until touched).
    #[cfg(test)]
    pub(crate) fn len(&self) -> usize {
        self.entries.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(name: &str) -> Key {
        (name.to_string(), Family::V4)
    }

    fn ip(last: u8) -> Vec<IpAddr> {
        vec![IpAddr::from([10, 0, 0, last])]
    }

    #[test]
    fn answers_live_for_their_ttl_and_a_zero_ttl_is_not_kept() {
        let t0 = Instant::now();
        let mut c = Cache::new(16, Duration::from_secs(3600));
        c.insert(key("a"), ip(1), Duration::from_secs(60), t0);
        c.insert(key("zero"), ip(2), Duration::ZERO, t0);
        assert_eq!(c.len(), 1);
        assert_eq!(c.get(&key("a"), t0 + Duration::from_secs(59)), Some(ip(1)));
        assert_eq!(c.get(&key("a"), t0 + Duration::from_secs(60)), None);
        assert_eq!(c.get(&key("zero"), t0), None);
        assert_eq!(c.len(), 0);
        // The family is part of the key.
        c.insert(key("a"), ip(1), Duration::from_secs(60), t0);
        assert_eq!(c.get(&("a".to_string(), Family::V6), t0), None);
    }

    #[test]
    fn ttls_are_capped_and_capacity_evicts_the_soonest_expiry() {
        let t0 = Instant::now();
        let mut c = Cache::new(2, Duration::from_secs(10));
        c.insert(key("a"), ip(1), Duration::from_secs(86_400), t0);
        assert_eq!(c.get(&key("a"), t0 + Duration::from_secs(10)), None);
        c.insert(key("a"), ip(1), Duration::from_secs(5), t0);
        c.insert(key("b"), ip(2), Duration::from_secs(9), t0);
        c.insert(key("c"), ip(3), Duration::from_secs(9), t0);
        assert_eq!(c.len(), 2);
        assert_eq!(c.get(&key("a"), t0), None, "a expired soonest, so it went");
        assert_eq!(c.get(&key("c"), t0), Some(ip(3)));
        let mut off = Cache::new(0, Duration::from_secs(10));
        off.insert(key("a"), ip(1), Duration::from_secs(5), t0);
        assert_eq!(off.len(), 0);
    }
}
