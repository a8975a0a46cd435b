//! Pool threads by what they were started with: the start routine glibc
//! keeps in each thread's `struct pthread`, read from `/proc/PID/mem`.
//!
//! A distribution's node links libuv as a shared, stripped `libuv.so.1`:
//! no `nthreads`/`threads` symbols, and before libuv 1.50 no thread names.
//! But libuv starts each pool thread with `pthread_create(..., worker,
//! ...)` (`uv_thread_create_ex` passes its entry straight through), and
//! glibc stores that entry in the new thread's `struct pthread`, which
//! lives at the top of the thread's stack mapping, for the thread's whole
//! life. So, whatever the thread is doing now (busy on a CPU included):
//!
//! 1. **Find the `struct pthread`s.** A glibc thread stack is an anonymous
//!    `rw-p` mapping right above its `---p` guard page; `struct pthread`
//!    sits within its last few KiB (below the top by its own size, rounded
//!    to the static TLS alignment). Its first words are the TCB header
//!    (`tcb`, `dtv`, `self`): `tcb` and `self` both hold its own address,
//!    which is what is looked for, at every 64-byte boundary of the last
//!    [`TAIL`] bytes.
//! 2. **Which thread is which.** The kernel TID is a field of the struct;
//!    its offset is not assumed but found: the offset at which the most
//!    structs hold distinct TIDs of the process (a stack cached after its
//!    thread exited holds 0 there, and drops out).
//! 3. **The start routine.** Its offset is found the same way: the
//!    offset at which every struct holds an address in the process's
//!    executable mappings. A thread whose start routine lies in libuv's code
//!    (`worker` itself when the symbol table has it; otherwise libuv's code
//!    range, [`LibuvImage::text`](crate::target::image::LibuvImage::text)) is a
//!    pool thread: libuv starts no other thread on Linux.
//!
//! Nothing is stopped or written: the same reads as the rest of scope, and
//! no debug information is needed. glibc only: musl lays its thread
//! descriptor out differently, and there this method finds nothing (and
//! says so).

use crate::target::maps::Mapping;
use crate::target::memory::RemoteMemory;
use crate::target::{Target, TidMap};
use std::collections::{BTreeMap, BTreeSet};

/// How much of the top of each stack mapping is searched.
pub(crate) const TAIL: usize = 16 << 10;
/// How much of a `struct pthread` is read (glibc 2.36's is 0x900 bytes on
/// x86_64; its TID and start routine lie well inside).
const STRUCT_LEN: usize = 0xa00;

/// The pool threads found by their start routine.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Found {
    /// Pool threads' TIDs, ascending (empty: no thread was started by
    /// libuv yet).
    pub tids: Vec<u32>,
    /// Threads whose `struct pthread` was read (the main thread has none
    /// on a stack).
    pub described: usize,
    /// The process's threads other than the main thread.
    pub others: usize,
    /// Offset of the TID in `struct pthread`.
    pub tid_offset: usize,
    /// Offset of the start routine in `struct pthread`.
    pub start_offset: usize,
    /// The pool threads' start routine (runtime address).
    pub routine: Option<u64>,
}

/// Finds the threads of `target` started at libuv's `worker`. `tids` are
/// the process's threads now (TIDs in its PID namespace, which glibc
/// stores, and here). `Err` says why the method cannot tell.
pub(crate) fn find(target: &Target, mem: &RemoteMemory, tids: &TidMap) -> Result<Found, String> {
    let maps = crate::target::maps::read(target.pid).map_err(|e| format!("reading maps: {e}"))?;
    let structs = thread_structs(&maps, mem);
    if structs.is_empty() {
        return Err("no glibc struct pthread found at the top of any thread stack (musl, or not glibc's layout)".into());
    }
    let live: BTreeSet<u32> = tids
        .inner_to_host
        .keys()
        .copied()
        .filter(|t| tids.is_other(*t))
        .collect();
    let len = structs.iter().map(|(_, b)| b.len()).min().unwrap_or(0);
    let tid_offset = tid_offset(&structs, &live, len)?;
    let by_tid = by_tid(&structs, tid_offset, &live);
    let code = Code::of(target, &maps);
    let candidates = start_candidates(&by_tid, len, &code);
    let chosen = choose(&candidates, &code, by_tid.len())?;
    let inner = code.pool_threads(&chosen.values);
    let routine = chosen
        .values
        .iter()
        .find(|(t, _)| inner.contains(t))
        .map(|(_, v)| *v);
    let mut host: Vec<u32> = inner.iter().filter_map(|t| tids.host(*t)).collect();
    host.sort_unstable();
    Ok(Found {
        tids: host,
        described: by_tid.len(),
        others: live.len(),
        tid_offset,
        start_offset: chosen.offset,
        routine,
    })
}

/// The TID's offset in `struct pthread`: where the most structs hold
/// distinct live TIDs (at least two, or the only other thread).
fn tid_offset(
    structs: &[(u64, Vec<u8>)],
    live: &BTreeSet<u32>,
    len: usize,
) -> Result<usize, String> {
    let mut best: Option<(usize, usize)> = None;
    for off in (0..len.saturating_sub(3)).step_by(4) {
        let mut seen = BTreeSet::new();
        for (_, b) in structs {
            let v = u32_at(b, off);
            if live.contains(&v) {
                seen.insert(v);
            }
        }
        if seen.len() > best.map_or(0, |b| b.1) {
            best = Some((off, seen.len()));
        }
    }
    best.filter(|b| b.1 >= 2 || (live.len() == 1 && b.1 == 1))
        .map(|(off, _)| off)
        .ok_or_else(|| {
            format!(
                "no offset of the {} struct pthread found holds the TIDs of the process's threads",
                structs.len()
            )
        })
}

/// The structs of live threads, one per TID.
fn by_tid<'a>(
    structs: &'a [(u64, Vec<u8>)],
    tid_offset: usize,
    live: &BTreeSet<u32>,
) -> BTreeMap<u32, &'a [u8]> {
    let mut by_tid: BTreeMap<u32, &[u8]> = BTreeMap::new();
    for (_, b) in structs {
        let t = u32_at(b, tid_offset);
        if live.contains(&t) {
            by_tid.entry(t).or_insert(b);
        }
    }
    by_tid
}

/// The process's code, and libuv's within it.
struct Code<'a> {
    /// Executable mappings.
    exec: Vec<&'a Mapping>,
    /// `worker`'s runtime address, when the symbol table has it.
    worker: Option<u64>,
    target: &'a Target,
}

impl<'a> Code<'a> {
    fn of(target: &'a Target, maps: &'a [Mapping]) -> Code<'a> {
        Code {
            exec: maps.iter().filter(|m| m.perms.contains('x')).collect(),
            worker: target
                .image
                .symbols
                .worker
                .as_ref()
                .map(|f| target.image.runtime(f.addr)),
            target,
        }
    }

    fn holds(&self, v: u64) -> bool {
        self.exec.iter().any(|m| (m.start..m.end).contains(&v))
    }

    /// `worker` itself, or where the symbol is missing libuv's code range.
    fn is_libuv(&self, v: u64) -> bool {
        match self.worker {
            Some(w) => v == w,
            None => self.target.image.holds_libuv_code(v),
        }
    }

    /// The threads whose value is libuv's code.
    fn pool_threads(&self, values: &[(u32, u64)]) -> Vec<u32> {
        values
            .iter()
            .filter(|(_, v)| self.is_libuv(*v))
            .map(|(t, _)| *t)
            .collect()
    }
}

/// An offset where every struct holds a code address: each thread's value
/// there.
struct Candidate {
    offset: usize,
    values: Vec<(u32, u64)>,
}

fn start_candidates(by_tid: &BTreeMap<u32, &[u8]>, len: usize, code: &Code<'_>) -> Vec<Candidate> {
    (0..len.saturating_sub(7))
        .step_by(8)
        .filter_map(|offset| {
            let values: Vec<(u32, u64)> = by_tid
                .iter()
                .map(|(t, b)| (*t, u64_at(b, offset)))
                .collect();
            values
                .iter()
                .all(|(_, v)| code.holds(*v))
                .then_some(Candidate { offset, values })
        })
        .collect()
}

/// The start routine's offset among the candidates: the one that points
/// into libuv for some thread (several only if they agree on which), or the
/// only one.
fn choose<'c>(
    candidates: &'c [Candidate],
    code: &Code<'_>,
    described: usize,
) -> Result<&'c Candidate, String> {
    let with_pool: Vec<&Candidate> = candidates
        .iter()
        .filter(|c| !code.pool_threads(&c.values).is_empty())
        .collect();
    match (with_pool.as_slice(), candidates) {
        ([one], _) => Ok(one),
        ([], [only]) => Ok(only),
        ([], []) => Err(format!(
            "no offset of the {described} struct pthread found holds code addresses for every thread"
        )),
        ([], _) => Err(format!(
            "{} offsets of struct pthread hold code addresses for every thread and none points into libuv's code: cannot tell the start routine",
            candidates.len()
        )),
        (several, _) => {
            // The same threads at each: a field that copies the routine.
            let first = code.pool_threads(&several[0].values);
            if several
                .iter()
                .any(|c| code.pool_threads(&c.values) != first)
            {
                return Err(format!(
                    "{} offsets of struct pthread point into libuv's code for different threads: cannot tell the start routine",
                    several.len()
                ));
            }
            Ok(several[0])
        }
    }
}

/// Every `struct pthread` found at the top of a thread stack: its address
/// and its first bytes.
fn thread_structs(maps: &[Mapping], mem: &RemoteMemory) -> Vec<(u64, Vec<u8>)> {
    let mut out = Vec::new();
    for pair in maps.windows(2) {
        let (guard, stack) = (&pair[0], &pair[1]);
        let is_stack = guard.end == stack.start
            && guard.perms.starts_with("---")
            && stack.perms == "rw-p"
            && stack.inode == 0
            && stack.path.is_empty();
        if !is_stack {
            continue;
        }
        let len = (stack.end - stack.start).min(TAIL as u64);
        let base = stack.end - len;
        let mut tail = vec![0u8; len as usize];
        if mem.read(base, &mut tail).is_err() {
            continue;
        }
        for off in (0..tail.len().saturating_sub(24)).step_by(64) {
            let at = base + off as u64;
            if u64_at(&tail, off) == at && u64_at(&tail, off + 16) == at {
                let end = (off + STRUCT_LEN).min(tail.len());
                out.push((at, tail[off..end].to_vec()));
            }
        }
    }
    out
}

fn u32_at(b: &[u8], off: usize) -> u32 {
    b.get(off..off + 4)
        .and_then(|s| s.try_into().ok())
        .map_or(0, u32::from_ne_bytes)
}

fn u64_at(b: &[u8], off: usize) -> u64 {
    b.get(off..off + 8)
        .and_then(|s| s.try_into().ok())
        .map_or(0, u64::from_ne_bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// This test process's own threads: glibc's structs are found, and the
    /// TID offset is the one that names the spawned threads.
    #[test]
    fn finds_this_processes_thread_structs() {
        let parked: Vec<_> = (0..3).map(|_| crate::target::Parked::start()).collect();
        let spawned: Vec<u32> = parked.iter().map(|p| p.tid).collect();
        let maps = crate::target::maps::read(std::process::id()).unwrap();
        let mem = RemoteMemory::open(std::process::id()).unwrap();
        let structs = thread_structs(&maps, &mem);
        for p in parked {
            p.end();
        }
        let len = structs.iter().map(|(_, b)| b.len()).min().unwrap();
        let named = (0..len - 3).step_by(4).any(|off| {
            spawned
                .iter()
                .all(|t| structs.iter().any(|(_, b)| u32_at(b, off) == *t))
        });
        assert!(named, "{} structs, none name all 3 threads", structs.len());
    }
}
