//! What the delay server counts ([`Tally`], under one lock) and reports
//! ([`Stats`]: the stats file, the exit summary, the control query).

use serde::{Deserialize, Serialize};
use std::collections::{HashMap, HashSet};
use std::path::Path;

/// The delay server's counts. Written as JSON to the stats file (see the
/// README), printed on exit, answered to `_stats.dns-delay.` TXT queries.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stats {
    /// Where it listens.
    pub listen: String,
    /// How long a query is held, ms.
    pub hold_ms: u64,
    /// Count: queries held (UDP and TCP), retransmissions included; fast
    /// and control queries are counted apart.
    pub queries_total: u64,
    /// Count: queries with the id, name and type of one still held (a
    /// client re-sending before the hold ended).
    pub retransmits_total: u64,
    /// Count: queries answered after the hold.
    pub answered_total: u64,
    /// Count: queries matching `--fast`, answered at once.
    pub fast_total: u64,
    /// Count: control queries (`_stats.dns-delay.`, `_reset.dns-delay.`).
    pub control_total: u64,
    /// Count: datagrams or TCP messages that are not one well-formed query
    /// (unparsable, a response, not opcode QUERY, not exactly one
    /// question); dropped unanswered.
    pub malformed_total: u64,
    /// Count: held queries that came over UDP.
    pub udp_total: u64,
    /// Count: held queries that came over TCP.
    pub tcp_total: u64,
    /// Count: distinct names held since the start or the last reset. The
    /// set of names seen holds at most [`MAX_SEEN_NAMES`]; when it is full
    /// it starts over (counted in `seen_resets_total`), so a name seen
    /// before then counts again.
    pub names_total: u64,
    /// Count: times the set of names seen was full and started over.
    pub seen_resets_total: u64,
    /// Count: TCP connections dropped because they would not read their
    /// answers (a write blocked past the write timeout) or sent nothing
    /// for the idle timeout.
    pub tcp_dropped_total: u64,
    /// Count: queries dropped unanswered because
    /// [`DelayConfig::max_held`](super::DelayConfig::max_held) were held
    /// already.
    pub overload_total: u64,
    /// Count: TCP `accept()` errors (a full descriptor table: the accept
    /// loop backs off).
    pub accept_errors_total: u64,
    /// Gauge: distinct names held now.
    pub in_flight_names: u64,
    /// The most distinct names held at once (since start or the last reset).
    pub max_in_flight_names: u64,
    /// Gauge: queries held now.
    pub in_flight_queries: u64,
    /// The most queries held at once (since start or the last reset).
    pub max_in_flight_queries: u64,
}

impl Stats {
    /// Reads a stats file.
    pub fn read(path: &Path) -> anyhow::Result<Stats> {
        let text = std::fs::read_to_string(path).map_err(|e| {
            anyhow::anyhow!(
                "reading the DNS delay server's stats {}: {e}",
                path.display()
            )
        })?;
        serde_json::from_str(&text).map_err(|e| {
            anyhow::anyhow!(
                "the DNS delay server's stats {} are not valid: {e}",
                path.display()
            )
        })
    }

    /// Writes the stats file atomically (a temporary file beside it, then a
    /// rename), so a reader never sees half of it. The error says which
    /// step failed and why.
    pub fn write(&self, path: &Path) -> anyhow::Result<()> {
        let what = || format!("writing the DNS delay server's stats {}", path.display());
        if path.is_dir() {
            anyhow::bail!("{}: it is a directory; give a file path", what());
        }
        let tmp = path.with_extension("tmp");
        let json = serde_json::to_string_pretty(self)?;
        if let Err(e) = std::fs::write(&tmp, json + "\n") {
            let dir = match path.parent() {
                Some(d) if !d.as_os_str().is_empty() => d,
                _ => Path::new("."),
            };
            let why = if dir.is_dir() {
                format!("{} does not take new files ({e})", dir.display())
            } else {
                format!("{e}")
            };
            anyhow::bail!(
                "{}: cannot create {} to rename over it: {why}; give a path in a writable directory",
                what(),
                tmp.display()
            );
        }
        std::fs::rename(&tmp, path).map_err(|e| {
            let _ = std::fs::remove_file(&tmp);
            anyhow::anyhow!("{}: renaming {} over it: {e}", what(), tmp.display())
        })
    }

    /// `key=value` lines, one per count, in declaration order (the TXT
    /// records of the control query).
    pub fn lines(&self) -> Vec<String> {
        let v = serde_json::to_value(self).unwrap_or_default();
        let order = [
            "listen",
            "hold_ms",
            "queries_total",
            "retransmits_total",
            "answered_total",
            "fast_total",
            "control_total",
            "malformed_total",
            "udp_total",
            "tcp_total",
            "names_total",
            "seen_resets_total",
            "tcp_dropped_total",
            "accept_errors_total",
            "overload_total",
            "in_flight_names",
            "max_in_flight_names",
            "in_flight_queries",
            "max_in_flight_queries",
        ];
        order
            .iter()
            .map(|k| match &v[*k] {
                serde_json::Value::String(s) => format!("{k}={s}"),
                other => format!("{k}={other}"),
            })
            .collect()
    }
}

/// The most names the tally remembers to count distinct names; past it
/// the set starts over (see [`Stats::names_total`]). Each is kept as a
/// 64-bit keyed hash (collisions among 65 536 names: about 1 in 10^10), so
/// at most ~1 MB whatever the names' length.
pub const MAX_SEEN_NAMES: usize = 65_536;

/// A held query, for the tally: its name and its (id, type) for spotting
/// retransmissions.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(crate) struct Ticket {
    pub(crate) name: String,
    pub(crate) id: u16,
    pub(crate) qtype: u16,
}

/// The live counts, under the server's one lock.
#[derive(Debug, Default)]
pub(crate) struct Tally {
    pub(crate) stats: Stats,
    /// Held queries per name.
    names: HashMap<String, u64>,
    /// Held queries per ticket (a retransmission adds to its ticket).
    held: HashMap<Ticket, u64>,
    /// Hashes of the names held since the start, the last reset, or the
    /// set last filled up (at most [`MAX_SEEN_NAMES`]).
    seen: HashSet<u64>,
    /// The key of those hashes.
    hasher: std::collections::hash_map::RandomState,
    /// Bumped on every change, so the stats file is rewritten only then.
    pub(crate) generation: u64,
}

impl Tally {
    /// A query starts its hold.
    pub(crate) fn hold(&mut self, t: &Ticket) {
        let s = &mut self.stats;
        let n = self.held.entry(t.clone()).or_default();
        if *n > 0 {
            s.retransmits_total += 1;
        }
        *n += 1;
        *self.names.entry(t.name.clone()).or_default() += 1;
        let h = std::hash::BuildHasher::hash_one(&self.hasher, &t.name);
        if !self.seen.contains(&h) {
            if self.seen.len() >= MAX_SEEN_NAMES {
                self.seen = HashSet::new();
                s.seen_resets_total += 1;
            }
            self.seen.insert(h);
            s.names_total += 1;
        }
        s.in_flight_queries += 1;
        s.in_flight_names = self.names.len() as u64;
        s.max_in_flight_queries = s.max_in_flight_queries.max(s.in_flight_queries);
        s.max_in_flight_names = s.max_in_flight_names.max(s.in_flight_names);
        self.generation += 1;
    }

    /// A held query was answered (or its client went away).
    pub(crate) fn release(&mut self, t: &Ticket, answered: bool) {
        let s = &mut self.stats;
        if let Some(n) = self.held.get_mut(t) {
            *n -= 1;
            if *n == 0 {
                self.held.remove(t);
            }
        }
        if let Some(n) = self.names.get_mut(&t.name) {
            *n -= 1;
            if *n == 0 {
                self.names.remove(&t.name);
            }
        }
        s.in_flight_queries = s.in_flight_queries.saturating_sub(1);
        s.in_flight_names = self.names.len() as u64;
        // A flood's tables do not keep their size once it is over.
        if self.held.is_empty() && self.held.capacity() > 1024 {
            self.held.shrink_to_fit();
            self.names.shrink_to_fit();
        }
        if answered {
            s.answered_total += 1;
        }
        self.generation += 1;
    }

    /// Starts the maxima over from what is held now, and forgets the names
    /// seen (`names_total` starts over from zero).
    pub(crate) fn reset_max(&mut self) {
        let s = &mut self.stats;
        s.max_in_flight_names = s.in_flight_names;
        s.max_in_flight_queries = s.in_flight_queries;
        s.names_total = 0;
        self.seen = HashSet::new();
        self.generation += 1;
    }

    /// Names remembered now (for tests of the bound).
    #[cfg(test)]
    pub(crate) fn seen_len(&self) -> usize {
        self.seen.len()
    }

    /// Counts something that is not held (a change to the file, too).
    pub(crate) fn count(&mut self, f: impl FnOnce(&mut Stats)) {
        f(&mut self.stats);
        self.generation += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(name: &str, id: u16, qtype: u16) -> Ticket {
        Ticket {
            name: name.into(),
            id,
            qtype,
        }
    }

    #[test]
    fn names_not_queries_are_what_is_in_flight() {
        let mut tally = Tally::default();
        tally.hold(&t("a", 1, 1));
        tally.hold(&t("a", 2, 28)); // AAAA of the same name: still one name
        tally.hold(&t("b", 3, 1));
        tally.hold(&t("b", 3, 1)); // a retransmission
        let s = &tally.stats;
        assert_eq!((s.in_flight_names, s.in_flight_queries), (2, 4));
        assert_eq!((s.retransmits_total, s.names_total), (1, 2));
        tally.release(&t("a", 1, 1), true);
        tally.release(&t("a", 2, 28), true);
        assert_eq!(tally.stats.in_flight_names, 1);
        tally.hold(&t("c", 4, 1));
        assert_eq!(tally.stats.max_in_flight_names, 2);
        tally.reset_max();
        assert_eq!(tally.stats.max_in_flight_names, 2, "b and c are held");
        tally.release(&t("b", 3, 1), true);
        tally.release(&t("b", 3, 1), true);
        tally.release(&t("c", 4, 1), false);
        let s = &tally.stats;
        assert_eq!(
            (s.in_flight_names, s.in_flight_queries, s.answered_total),
            (0, 0, 4)
        );
        assert_eq!(s.names_total, 0, "the reset forgot a, b and c");
    }

    #[test]
    fn the_names_seen_are_bounded_and_reset_forgets_them() {
        let mut tally = Tally::default();
        for i in 0..MAX_SEEN_NAMES + 10 {
            let q = t(&format!("n{i}.test"), 1, 1);
            tally.hold(&q);
            tally.release(&q, true);
        }
        assert_eq!(tally.seen_len(), 10);
        assert_eq!(tally.stats.seen_resets_total, 1);
        assert_eq!(tally.stats.names_total, (MAX_SEEN_NAMES + 10) as u64);
        tally.reset_max();
        assert_eq!((tally.seen_len(), tally.stats.names_total), (0, 0));
        tally.hold(&t("n1.test", 1, 1));
        assert_eq!(tally.stats.names_total, 1);
    }

    #[test]
    fn the_file_round_trips_and_lines_name_every_count() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("stats.json");
        let s = Stats {
            listen: "127.0.0.1:53".into(),
            max_in_flight_names: 24,
            ..Stats::default()
        };
        s.write(&path).unwrap();
        assert_eq!(Stats::read(&path).unwrap(), s);
        let lines = s.lines();
        assert_eq!(lines.len(), 19);
        assert!(lines.contains(&"max_in_flight_names=24".to_string()));
        assert!(lines.contains(&"listen=127.0.0.1:53".to_string()));
        let err = s.write(Path::new("/proc/version")).unwrap_err().to_string();
        assert_eq!(
            err,
            "writing the DNS delay server's stats /proc/version: cannot create /proc/version.tmp to rename over it: /proc does not take new files (No such file or directory (os error 2)); give a path in a writable directory"
        );
        let err = s.write(dir.path()).unwrap_err().to_string();
        assert!(
            err.ends_with("it is a directory; give a file path"),
            "{err}"
        );
        let err = Stats::read(&dir.path().join("none.json"))
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("reading the DNS delay server's stats"),
            "{err}"
        );
    }
}
