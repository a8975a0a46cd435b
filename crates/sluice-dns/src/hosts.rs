//! The hosts file (`/etc/hosts`), read the way glibc's `files` source reads
//! it, and re-read whenever it changes. `crates/sluice-cli/tests/dns_netns.rs`
//! checks these rules against glibc's `getaddrinfo` with a crafted file.
//!
//! - One entry per line: an address, then a canonical name and aliases;
//!   `#` starts a comment. Lines whose address does not parse are skipped.
//! - Names match without regard to ASCII case, and otherwise exactly: a
//!   name asked with a final dot (`db.`) does not match the entry `db`
//!   (glibc asks DNS for it).
//! - Every line naming the host counts, as with glibc's `getaddrinfo`:
//!   the answer is their addresses in file order, one per line (a line
//!   naming the host twice counts once), repeats kept: two lines
//!   `127.0.0.1 localhost` give `127.0.0.1` twice, as glibc gives it.
//! - A lookup for one family answers from the lines of that family only,
//!   with glibc's two exceptions for IPv4 (`nss_files/files-hosts.c`): the
//!   line `::1` counts as `127.0.0.1`, and an IPv4-mapped `::ffff:a.b.c.d`
//!   as `a.b.c.d`. A host with no line of the family is not in the file for
//!   it, and the next source (DNS) is asked.
//! - The file's size, modification time and inode are checked (one
//!   `stat(2)`) on every lookup, and it is read again when any changed, so
//!   an edit is seen by the next lookup, as with `getaddrinfo`. A missing
//!   or unreadable file holds no names.

use super::Family;
use std::collections::HashMap;
use std::net::IpAddr;
use std::os::unix::fs::MetadataExt;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::Mutex;
use std::time::SystemTime;

/// Names to addresses, names lowercased, addresses in file order.
pub(crate) type Table = HashMap<String, Vec<IpAddr>>;

/// What identifies one version of the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Stamp {
    len: u64,
    modified: Option<SystemTime>,
    ino: u64,
}

impl Stamp {
    fn of(m: &std::fs::Metadata) -> Stamp {
        Stamp {
            len: m.len(),
            modified: m.modified().ok(),
            ino: m.ino(),
        }
    }
}

/// The largest hosts file read without a wait (`lookup_now`); a larger one
/// is read by `lookup`.
const MAX_NOWAIT_READ: u64 = 1024 * 1024;

/// A hosts file and its last parsed version.
#[derive(Debug)]
pub(crate) struct HostsFile {
    path: PathBuf,
    /// The stamp the table was read at (`None`: the file was missing).
    /// Guarded by a mutex held only to compare stamps and swap tables.
    loaded: Mutex<(Option<Stamp>, Arc<Table>)>,
}

impl HostsFile {
    /// The hosts file at `path`; read at the first lookup.
    pub(crate) fn new(path: impl Into<PathBuf>) -> Self {
        HostsFile {
            path: path.into(),
            loaded: Mutex::new((None, Arc::new(Table::new()))),
        }
    }

    /// The addresses of `family` the file gives `host`, or `None` if it
    /// gives none.
    pub(crate) fn lookup(&self, host: &str, family: Family) -> Option<Vec<IpAddr>> {
        Self::answer(&self.current(), host, family)
    }

    /// The addresses of `family` that `table` gives `host`.
    fn answer(table: &Table, host: &str, family: Family) -> Option<Vec<IpAddr>> {
        let mut addrs: Vec<IpAddr> = Vec::new();
        for ip in table.get(&normalize(host))? {
            let ip = match (family, ip) {
                (Family::V4, IpAddr::V6(v6)) if v6.is_loopback() => IpAddr::from([127, 0, 0, 1]),
                (Family::V4, IpAddr::V6(v6)) => match v6.to_ipv4_mapped() {
                    Some(v4) => IpAddr::V4(v4),
                    None => continue,
                },
                (_, ip) if family.admits(*ip) => *ip,
                _ => continue,
            };
            addrs.push(ip);
        }
        (!addrs.is_empty()).then_some(addrs)
    }

    /// [`lookup`](Self::lookup) without a wait: `None` where the file's
    /// stamp or text could not be had from the kernel's caches
    /// ([`sluice::nowait`]), else what `lookup` answers.
    pub(crate) fn lookup_now(&self, host: &str, family: Family) -> Option<Option<Vec<IpAddr>>> {
        let table = self.current_now()?;
        Some(Self::answer(&table, host, family))
    }

    /// The table for the file as it is now, re-read if it changed, without
    /// a wait; `None` where that would need one.
    fn current_now(&self) -> Option<Arc<Table>> {
        use sluice::nowait::{self, Answer};
        let stamp = match nowait::stat(&self.path, true) {
            Answer::Ready(Ok(m)) => Some(Stamp::of(&m)),
            Answer::Ready(Err(_)) => None,
            Answer::WouldWait => return None,
        };
        let mut loaded = sluice::sync::lock(&self.loaded);
        if loaded.0 == stamp && stamp.is_some() {
            return Some(loaded.1.clone());
        }
        let text = match stamp {
            // Missing or unreadable: no names, as `current` has it.
            None => String::new(),
            Some(_) => match nowait::read_file(&self.path, MAX_NOWAIT_READ) {
                Answer::Ready(Ok(bytes)) => String::from_utf8(bytes).unwrap_or_default(),
                Answer::Ready(Err(_)) => String::new(),
                Answer::WouldWait => return None,
            },
        };
        *loaded = (stamp, Arc::new(parse(&text)));
        Some(loaded.1.clone())
    }

    /// The table for the file as it is now, re-read if it changed.
    fn current(&self) -> Arc<Table> {
        let stamp = std::fs::metadata(&self.path).ok().map(|m| Stamp::of(&m));
        let mut loaded = sluice::sync::lock(&self.loaded);
        if loaded.0 != stamp || stamp.is_none() {
            let text = std::fs::read_to_string(&self.path).unwrap_or_default();
            *loaded = (stamp, Arc::new(parse(&text)));
        }
        loaded.1.clone()
    }
}

/// The lookup key of a host: lowercased.
fn normalize(host: &str) -> String {
    host.to_ascii_lowercase()
}

/// Parses hosts-file text.
///
/// ```text
/// 127.0.0.1   localhost
/// ::1         localhost ip6-localhost   # aliases
/// ```
pub(crate) fn parse(text: &str) -> Table {
    let mut table = Table::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("");
        let mut fields = line.split_whitespace();
        let Some(Ok(addr)) = fields.next().map(str::parse::<IpAddr>) else {
            continue;
        };
        let mut names: Vec<String> = fields.map(str::to_ascii_lowercase).collect();
        names.sort_unstable();
        names.dedup();
        for name in names {
            table.entry(name).or_default().push(addr);
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_line_of_a_name_counts_in_file_order_repeats_kept() {
        let t = parse(
            "127.0.0.1 localhost\n# comment\n10.0.0.1 db DB-alias db # trailing\n::1 localhost\n10.0.0.2 db\n10.0.0.1 db\nnot-an-ip name\n\n",
        );
        assert_eq!(t["localhost"].len(), 2);
        let ip = |s: &str| s.parse::<IpAddr>().unwrap();
        assert_eq!(
            t["db"],
            vec![ip("10.0.0.1"), ip("10.0.0.2"), ip("10.0.0.1")]
        );
        assert_eq!(t["db-alias"].len(), 1);
        assert!(!t.contains_key("name"));
        assert_eq!(t.len(), 3);
    }

    #[test]
    fn lookups_filter_by_family_and_see_edits() {
        let dir = tempdir();
        let path = dir.join("hosts");
        std::fs::write(
            &path,
            "127.0.0.1 localhost\n::1 localhost ip6-localhost\nfd00::5 six\n::ffff:10.0.0.9 mapped\n",
        )
        .unwrap();
        let hosts = HostsFile::new(&path);
        assert_eq!(hosts.lookup("LocalHost", Family::Any).unwrap().len(), 2);
        assert_eq!(hosts.lookup("localhost.", Family::Any), None, "as glibc");
        assert_eq!(
            hosts.lookup("localhost", Family::V4).unwrap().len(),
            2,
            "127.0.0.1 and ::1 as it"
        );
        assert_eq!(hosts.lookup("six", Family::V6).unwrap().len(), 1);
        assert_eq!(hosts.lookup("six", Family::V4), None);
        // glibc's IPv4 exceptions: ::1 is 127.0.0.1, a mapped address its IPv4.
        let v4 = |name| hosts.lookup(name, Family::V4).unwrap();
        assert_eq!(v4("ip6-localhost"), vec![IpAddr::from([127, 0, 0, 1])]);
        // As glibc: the 127.0.0.1 line, and ::1 as 127.0.0.1.
        assert_eq!(v4("localhost"), vec![IpAddr::from([127, 0, 0, 1]); 2]);
        assert_eq!(v4("mapped"), vec![IpAddr::from([10, 0, 0, 9])]);
        assert_eq!(hosts.lookup("seven", Family::Any), None);
        // An edit (a different size) is seen by the next lookup.
        std::fs::write(&path, "127.0.0.1 localhost\n10.7.7.7 seven\n").unwrap();
        assert_eq!(hosts.lookup("seven", Family::V4).unwrap().len(), 1);
        assert_eq!(hosts.lookup("six", Family::Any), None);
        // A missing file holds no names.
        std::fs::remove_file(&path).unwrap();
        assert_eq!(hosts.lookup("localhost", Family::Any), None);
        std::fs::remove_dir_all(dir).unwrap();
    }

    fn tempdir() -> PathBuf {
        let dir = std::env::temp_dir().join(format!(
            "sluice-hosts-{}-{:?}",
            std::process::id(),
            std::thread::current().id()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }
}
