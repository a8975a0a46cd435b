//! sluice's npm package in a process: the mapped file that exports
//! [`SYMBOL`] (the package's addon, `sluice.node` wherever it lies: the
//! source build beside `index.js`, `prebuilds/<platform>/sluice.node`, or
//! whatever `SLUICE_NODE_ADDON` names), and where that symbol lies in the
//! running process.
//!
//! The candidates are the files mapped under a name that ends in `.node`
//! (Node's addons) or holds `sluice`. Each is read once per session: its
//! dynamic symbol table (through `object`, from the sparse buffer
//! `image.rs` reads) and its loadable segments; the symbol's link-time
//! address plus the mapping's load bias is its address in the process.
//! What is found there is the core's `sluice::observer::GaugeBlock`,
//! read by `sample/lane_gauges.rs`.

use crate::target::image::{bias, sparse_read};
use crate::target::maps::Mapping;
use object::{Object, ObjectSegment, ObjectSymbol};
use std::collections::HashMap;

/// The symbol the package's addon exports: a pointer to its gauge block.
pub(crate) const SYMBOL: &str = "sluice_scope_lanes";

/// One copy of the addon in the process.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct AddonSite {
    /// The file, as the process maps it.
    pub(crate) shown: String,
    /// The runtime address of [`SYMBOL`].
    pub(crate) symbol: u64,
}

/// What a file says about [`SYMBOL`]: its link-time address, and the
/// file's loadable segments (link-time address, file offset) for its bias.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Exported {
    addr: u64,
    segments: Vec<(u64, u64)>,
}

/// The addon copies found in a process, and why none were (when none).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub(crate) struct Found {
    /// Each mapped file that exports [`SYMBOL`].
    pub(crate) sites: Vec<AddonSite>,
    /// What kept a candidate from being read (`(deleted)`, permission).
    pub(crate) problems: Vec<String>,
}

impl Found {
    /// Why no site was found, in words.
    pub(crate) fn why_none(&self) -> String {
        if self.problems.is_empty() {
            format!(
                "no mapped addon exports {SYMBOL} (a sluice package from before scope read its lanes' queues)"
            )
        } else {
            format!(
                "no readable addon exports {SYMBOL}: {}",
                self.problems.join("; ")
            )
        }
    }
}

/// Finds the addon in processes, reading each file once.
#[derive(Debug, Default)]
pub(crate) struct AddonFinder {
    /// By (inode, path as mapped): what the file exports (`None`: not the
    /// symbol), or why it could not be read.
    files: HashMap<(u64, String), Result<Option<Exported>, String>>,
}

impl AddonFinder {
    /// The addon copies mapped in process `pid` (its mappings `maps`).
    pub(crate) fn find(&mut self, pid: u32, maps: &[Mapping]) -> Found {
        let mut found = Found::default();
        let mut done: Vec<u64> = Vec::new();
        for m in maps {
            if m.inode == 0 || done.contains(&m.inode) || !is_candidate(&m.path) {
                continue;
            }
            done.push(m.inode);
            if m.path.ends_with(" (deleted)") {
                found
                    .problems
                    .push(format!("{} (replaced on disk since it was loaded)", m.path));
                continue;
            }
            let key = (m.inode, m.path.clone());
            let read = self.files.entry(key).or_insert_with(|| {
                read_exported(pid, &m.path).map_err(|e| format!("{}: {e}", m.path))
            });
            match read {
                Ok(Some(e)) => match bias(&e.segments, m.inode, maps) {
                    Some(b) => found.sites.push(AddonSite {
                        shown: m.path.clone(),
                        symbol: e.addr.wrapping_add(b),
                    }),
                    None => found.problems.push(format!(
                        "{}: no mapping matches its loadable segments",
                        m.path
                    )),
                },
                Ok(None) => {}
                Err(e) => found.problems.push(e.clone()),
            }
        }
        found
    }
}

/// Whether a mapped path may be the package's addon.
fn is_candidate(path: &str) -> bool {
    let path = path.strip_suffix(" (deleted)").unwrap_or(path);
    let name = path.rsplit('/').next().unwrap_or(path);
    name.ends_with(".node") || name.contains("sluice")
}

/// [`exported`] of the file at `path` in process `pid`'s root (a
/// container's files, not this mount namespace's).
fn read_exported(pid: u32, path: &str) -> Result<Option<Exported>, String> {
    let root_relative = format!("root/{}", path.trim_start_matches('/'));
    let file = crate::target::proc::process(pid)
        .and_then(|p| {
            p.open_relative(root_relative)
                .map_err(crate::target::proc::io_error)
        })
        .map_err(|e| e.to_string())?;
    exported(&sparse_read(&file)?)
}

/// Where an ELF image exports [`SYMBOL`] (a defined dynamic symbol), with
/// its loadable segments; `Ok(None)` when it does not, an error when it is
/// not an ELF file `object` reads.
pub(crate) fn exported(data: &[u8]) -> Result<Option<Exported>, String> {
    let obj = object::File::parse(data).map_err(|e| e.to_string())?;
    let Some(sym) = obj
        .dynamic_symbols()
        .find(|s| s.is_definition() && s.name_bytes().is_ok_and(|n| n == SYMBOL.as_bytes()))
    else {
        return Ok(None);
    };
    Ok(Some(Exported {
        addr: sym.address(),
        segments: obj
            .segments()
            .map(|seg| (seg.address(), seg.file_range().0))
            .collect(),
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addons_and_sluice_files_are_the_candidates() {
        for p in [
            "/app/node_modules/sluice/sluice.node",
            "/app/node_modules/sluice/prebuilds/linux-x64-gnu/sluice.node",
            "/opt/lib/libsluice_node.so",
            "/app/node_modules/bcrypt/build/Release/bcrypt_lib.node (deleted)",
        ] {
            assert!(is_candidate(p), "{p}");
        }
        for p in [
            "/usr/lib/x86_64-linux-gnu/libc.so.6",
            "/usr/bin/node",
            "[heap]",
        ] {
            assert!(!is_candidate(p), "{p}");
        }
    }

    #[test]
    fn a_file_without_the_symbol_exports_nothing_and_junk_is_an_error() {
        let me = std::fs::read(std::env::current_exe().unwrap()).unwrap();
        assert_eq!(exported(&me), Ok(None));
        assert!(exported(b"#!/bin/sh\n").is_err());
    }

    #[test]
    fn a_process_without_the_addon_says_so() {
        let maps = crate::target::maps::read(std::process::id()).unwrap();
        let found = AddonFinder::default().find(std::process::id(), &maps);
        assert!(found.sites.is_empty());
        assert!(
            found
                .why_none()
                .starts_with("no mapped addon exports sluice_scope_lanes")
        );
    }
}
