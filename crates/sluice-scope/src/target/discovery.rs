//! Finding libuv's pool threads among a process's threads.
//!
//! On Node 20 (libuv 1.46) every thread is called `node`: the loop, V8's
//! platform workers, the inspector's thread and the pool. Four ways to tell
//! the pool apart, tried in this order by [`Strategy::Auto`]:
//!
//! 1. **Names** (libuv ≥ 1.50): pool threads are called `libuv-worker`.
//! 2. **Memory** (symbols and `/proc/PID/mem`): libuv's `nthreads` and
//!    `threads` (file statics of `threadpool.c`, found in the symbol table)
//!    hold the pool's size and its `uv_thread_t`s. A glibc (or musl)
//!    `pthread_t` is the address of the thread's `struct pthread`, which
//!    stores the kernel TID at a fixed offset; the offset is not assumed but
//!    found: the one offset at which every `struct pthread` of the pool holds
//!    a distinct TID of the process. Exact, busy threads included, and
//!    `nthreads == 0` says the pool has not started.
//! 3. **Start routine** (no symbols needed, `/proc/PID/mem`): each
//!    thread's `struct pthread` holds what it was started with; libuv
//!    starts its pool threads at `worker`, in libuv's code
//!    (`start_routine.rs`). Exact, busy threads included: this is what
//!    finds the pool of a distribution's node (shared, stripped
//!    `libuv.so.1`, unnamed threads) when every thread is busy.
//! 4. **Futex, with symbols**: an idle pool thread waits in `futex` on a
//!    word inside libuv's `cond` (glibc's condition variable has two group
//!    words, 4 bytes apart, so idle threads may wait on either). Busy
//!    threads are not seen until they go idle once; found threads are kept.
//! 5. **Futex, heuristic** (no symbols): the threads waiting on futex words
//!    in libuv's static data (the writable segments of the image that
//!    exports `uv_queue_work`), grouped by word (words within 8 bytes are one
//!    condition variable). V8's platform workers also share one condition
//!    variable, but it lives on the heap, so they are left out. Node's
//!    inspector thread waits on a semaphore in node's static data too; when
//!    two groups remain, the larger wins, and between equals the one whose
//!    threads started last (libuv starts its pool at the first submission,
//!    after the inspector thread started at boot). A heuristic: the output
//!    says so.
//!
//! Before the first pool submission (an `fs` call, `dns.lookup`, async
//! crypto, `zlib`) there are no pool threads at all: libuv starts them
//! lazily. Methods 1 to 3 then report [`PoolStatus::NotStarted`]; the futex
//! methods cannot tell "not started" from "every thread busy" and report
//! [`PoolStatus::NotFound`].

use crate::error::ScopeError;
use crate::sample::classify::IdleWait;
use crate::sample::syscalls::SyscallLine;
use crate::target::Target;
use crate::target::memory::RemoteMemory;
use std::collections::BTreeMap;
use std::ops::Range;

/// Which discovery method(s) to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Strategy {
    /// Names, then memory, then start routine, then futex (with symbols,
    /// else heuristic).
    #[default]
    Auto,
    /// Threads named `libuv-worker` only.
    Names,
    /// libuv's `nthreads`/`threads` read from memory only.
    Memory,
    /// Each thread's start routine only (glibc's `struct pthread`).
    Start,
    /// Futex words only (with symbols if there are any).
    Futex,
}

impl Strategy {
    /// Parses `auto`, `names`, `memory`, `start` or `futex`.
    pub fn parse(text: &str) -> Result<Strategy, ScopeError> {
        Ok(match text {
            "auto" => Strategy::Auto,
            "names" => Strategy::Names,
            "memory" => Strategy::Memory,
            "start" => Strategy::Start,
            "futex" => Strategy::Futex,
            _ => {
                return Err(ScopeError::Config {
                    flag: "--discover",
                    value: text.into(),
                    expected: "expected one of auto, names, memory, start, futex".into(),
                });
            }
        })
    }
}

/// How a pool was found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    /// Threads named `libuv-worker`.
    Names,
    /// libuv's statics read from memory.
    Memory,
    /// Threads whose start routine is libuv's `worker`.
    StartRoutine,
    /// Futex words inside libuv's `cond` (symbols).
    FutexSymbols,
    /// Futex words in libuv's static data (no symbols): a heuristic.
    FutexHeuristic,
}

impl Method {
    /// `names`, `memory`, `start-routine`, `futex-symbols`,
    /// `futex-heuristic`.
    pub fn as_str(self) -> &'static str {
        match self {
            Method::Names => "names",
            Method::Memory => "memory",
            Method::StartRoutine => "start-routine",
            Method::FutexSymbols => "futex-symbols",
            Method::FutexHeuristic => "futex-heuristic",
        }
    }

    /// Whether the method sees every pool thread, busy ones included.
    pub fn is_exact(self) -> bool {
        matches!(self, Method::Names | Method::Memory | Method::StartRoutine)
    }
}

/// A pool that was found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Pool {
    /// How.
    pub method: Method,
    /// The pool threads' TIDs, ascending.
    pub tids: Vec<u32>,
    /// How an idle pool thread is recognised.
    pub idle: IdleWait,
    /// What was seen, for the reader: one sentence each.
    pub evidence: Vec<String>,
}

impl Pool {
    /// The number of pool threads found.
    pub fn size(&self) -> usize {
        self.tids.len()
    }
}

/// The outcome of one discovery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PoolStatus {
    /// Known not to have started (no submission yet).
    NotStarted {
        /// Why scope knows.
        evidence: String,
    },
    /// No pool thread seen (not started, or every thread busy): the
    /// pool is unknown, and the doctor says so.
    NotFound {
        /// What was looked for.
        evidence: String,
    },
    /// Found.
    Started(Pool),
}

impl PoolStatus {
    /// The pool, if found.
    pub fn pool(&self) -> Option<&Pool> {
        match self {
            PoolStatus::Started(p) => Some(p),
            _ => None,
        }
    }

    /// One line for the reader.
    pub fn summary(&self) -> String {
        match self {
            PoolStatus::NotStarted { evidence } => format!("pool not started: {evidence}"),
            PoolStatus::NotFound { evidence } => format!("pool not found yet: {evidence}"),
            PoolStatus::Started(p) => format!(
                "pool of {} thread{} ({}): {}",
                p.size(),
                if p.size() == 1 { "" } else { "s" },
                p.method.as_str(),
                p.evidence.join("; ")
            ),
        }
    }
}

/// One thread at discovery time.
#[derive(Debug, Clone)]
struct Snapshot {
    tid: u32,
    name: String,
    line: Option<SyscallLine>,
}

fn snapshot(target: &Target) -> Result<Vec<Snapshot>, ScopeError> {
    let mut out: Vec<Snapshot> = target
        .tids()?
        .into_iter()
        .map(|tid| Snapshot {
            tid,
            name: target.thread_name(tid).unwrap_or_default(),
            line: crate::target::syscall_line(target.pid, tid),
        })
        .collect();
    out.sort_by_key(|s| s.tid);
    Ok(out)
}

/// The name libuv ≥ 1.50 gives its pool threads.
pub const WORKER_NAME: &str = "libuv-worker";

/// Finds the pool of `target`. `mem` is its memory, if readable; `known`
/// the pool found before (futex methods keep threads once found).
pub fn discover(
    target: &Target,
    mem: Option<&RemoteMemory>,
    strategy: Strategy,
    known: Option<&Pool>,
) -> Result<PoolStatus, ScopeError> {
    let threads = snapshot(target)?;
    let cond = target
        .image
        .symbols
        .cond
        .as_ref()
        .map(|r| target.image.runtime_range(r));
    let look = Look {
        target,
        threads: &threads,
        cond: cond.clone(),
        strategy,
    };
    let mut notes = Vec::new();
    if matches!(strategy, Strategy::Auto | Strategy::Names) {
        match look.by_names() {
            Step::Done(status) => return Ok(status),
            Step::Next(why) => notes.push(why),
        }
    }
    if matches!(strategy, Strategy::Auto | Strategy::Memory) {
        match look.by_memory(mem)? {
            Step::Done(status) => return Ok(status),
            Step::Next(why) => notes.push(why),
        }
    }
    if matches!(strategy, Strategy::Auto | Strategy::Start) {
        match by_start_routine(target, mem, &threads) {
            Ok(status) => return Ok(status),
            Err(why) if strategy == Strategy::Start => {
                return Ok(PoolStatus::NotFound {
                    evidence: format!("--discover start: {why}"),
                });
            }
            Err(why) => notes.push(why),
        }
    }
    Ok(match &cond {
        Some(cond) => futex_with_symbols(target, &threads, cond, known, notes),
        None => futex_heuristic(target, &threads, known, notes),
    })
}

/// What one method of [`discover`] concluded.
enum Step {
    /// The answer: the pool, not started, or not found by the one method
    /// asked for.
    Done(PoolStatus),
    /// This method cannot tell, and why (evidence for the methods after).
    Next(String),
}

/// What every method of [`discover`] looks at.
struct Look<'a> {
    target: &'a Target,
    threads: &'a [Snapshot],
    /// libuv's `cond` (runtime addresses), when the symbol table has it.
    cond: Option<Range<u64>>,
    strategy: Strategy,
}

impl Look<'_> {
    /// How an idle pool thread waits: on libuv's cond where it is known.
    fn idle_wait(&self) -> IdleWait {
        match &self.cond {
            Some(r) => IdleWait::Cond(r.clone()),
            None => IdleWait::AnyFutex,
        }
    }

    /// Threads named `libuv-worker` (libuv >= 1.50).
    fn by_names(&self) -> Step {
        let named: Vec<u32> = self
            .threads
            .iter()
            .filter(|t| t.name == WORKER_NAME)
            .map(|t| t.tid)
            .collect();
        if !named.is_empty() {
            let evidence = vec![format!(
                "{} named {WORKER_NAME} (libuv >= 1.50 names its pool)",
                threads_text(named.len())
            )];
            return Step::Done(PoolStatus::Started(Pool {
                method: Method::Names,
                tids: named,
                idle: self.idle_wait(),
                evidence,
            }));
        }
        if self.strategy == Strategy::Names {
            return Step::Done(PoolStatus::NotFound {
                evidence: format!(
                    "no thread is named {WORKER_NAME} (libuv before 1.50 names none; try --discover auto)"
                ),
            });
        }
        Step::Next(format!("no thread named {WORKER_NAME} (libuv < 1.50)"))
    }

    /// libuv's `nthreads` and `threads[]` read from memory; with
    /// `--discover memory`, a reason it cannot is an error.
    fn by_memory(&self, mem: Option<&RemoteMemory>) -> Result<Step, ScopeError> {
        let (target, syms) = (self.target, &self.target.image.symbols);
        let why = match (mem, syms.nthreads, syms.threads) {
            (Some(mem), Some(n), Some(t)) => match from_memory(target, mem, n, t) {
                Ok(MemoryPool::NotStarted) => {
                    return Ok(Step::Done(PoolStatus::NotStarted {
                        evidence: "libuv's nthreads is 0: no pool work has been submitted yet (libuv starts its threads at the first fs call, dns.lookup, async crypto or zlib call)".into(),
                    }));
                }
                Ok(MemoryPool::Found { tids, offset }) => {
                    let mut evidence = vec![format!(
                        "libuv's nthreads = {} and threads[] read from memory (threadpool.c statics in {}); TIDs from struct pthread (+{offset:#x})",
                        tids.len(),
                        target.image.shown
                    )];
                    evidence.extend(cross_check(&tids, self.threads, self.cond.as_ref()));
                    return Ok(Step::Done(PoolStatus::Started(Pool {
                        method: Method::Memory,
                        tids,
                        idle: self.idle_wait(),
                        evidence,
                    })));
                }
                Err(why) if self.strategy == Strategy::Memory => {
                    return Err(ScopeError::Elf {
                        path: target.image.shown.clone().into(),
                        message: why,
                    });
                }
                Err(why) => why,
            },
            (None, _, _) => "process memory not readable".into(),
            _ => format!("{} has no nthreads/threads symbols", target.image.shown),
        };
        if self.strategy == Strategy::Memory {
            return Err(ScopeError::Elf {
                path: target.image.shown.clone().into(),
                message: format!("--discover memory: {why}"),
            });
        }
        Ok(Step::Next(why))
    }
}

/// The pool by each thread's start routine (`start_routine.rs`); `Err`
/// when the method cannot tell.
fn by_start_routine(
    target: &Target,
    mem: Option<&RemoteMemory>,
    threads: &[Snapshot],
) -> Result<PoolStatus, String> {
    // `threads` (this /proc's view) feeds the cross-check below.
    let mem = mem.ok_or("start routine: process memory not readable")?;
    let map = target
        .tid_map()
        .map_err(|e| format!("start routine: {e}"))?;
    let found = crate::target::start_routine::find(target, mem, &map)
        .map_err(|why| format!("start routine: {why}"))?;
    let img = &target.image;
    let what = match (&img.symbols.worker, found.routine) {
        (Some(_), _) => format!("libuv's worker (symbol in {})", img.shown),
        (None, Some(r)) => format!("{r:#x}, in libuv's code ({})", img.text_source),
        (None, None) => format!("libuv's code ({})", img.text_source),
    };
    let how = format!(
        "start routine read from glibc's struct pthread at the top of each thread's stack (+{:#x}; TID at +{:#x}), {} of the {} other threads described",
        found.start_offset, found.tid_offset, found.described, found.others
    );
    if found.tids.is_empty() {
        if found.described == found.others {
            return Ok(PoolStatus::NotStarted {
                evidence: format!(
                    "no thread was started at {what}: libuv has not started its pool yet (it does at the first fs call, dns.lookup, async crypto or zlib call); {how}"
                ),
            });
        }
        return Err(format!(
            "no thread seen started at {what}, but only {} of the {} other threads were described",
            found.described, found.others
        ));
    }
    let cond = img.symbols.cond.as_ref().map(|r| img.runtime_range(r));
    let idle = match &cond {
        Some(r) => IdleWait::Cond(r.clone()),
        None => IdleWait::Data(img.data_ranges()),
    };
    let idle_text = match &cond {
        Some(_) => "idle: waiting on libuv's cond (symbol)".to_string(),
        None => format!(
            "idle: a futex wait in {}'s static data, where libuv's cond lives (no symbols)",
            img.shown
        ),
    };
    let mut evidence = vec![format!(
        "{} started at {what}; {how}; {idle_text}",
        threads_text(found.tids.len())
    )];
    evidence.extend(cross_check(&found.tids, threads, cond.as_ref()));
    Ok(PoolStatus::Started(Pool {
        method: Method::StartRoutine,
        tids: found.tids,
        idle,
        evidence,
    }))
}

enum MemoryPool {
    NotStarted,
    Found { tids: Vec<u32>, offset: usize },
}

/// Reads `nthreads` and `threads[]`, then maps each `pthread_t` to a TID.
fn from_memory(
    target: &Target,
    mem: &RemoteMemory,
    nthreads: u64,
    threads: u64,
) -> Result<MemoryPool, String> {
    let read_err = |what: &str, e: std::io::Error| format!("reading libuv's {what}: {e}");
    let n = mem
        .u32(target.image.runtime(nthreads))
        .map_err(|e| read_err("nthreads", e))?;
    if n == 0 {
        return Ok(MemoryPool::NotStarted);
    }
    if n > 1024 {
        return Err(format!(
            "libuv's nthreads reads {n}, above libuv's limit of 1024: not libuv's pool"
        ));
    }
    let array = mem
        .u64(target.image.runtime(threads))
        .map_err(|e| read_err("threads", e))?;
    if array == 0 {
        return Ok(MemoryPool::NotStarted);
    }
    let mut handles = vec![0u8; n as usize * 8];
    mem.read(array, &mut handles)
        .map_err(|e| read_err("threads[]", e))?;
    let blocks: Vec<Vec<u8>> = handles
        .chunks_exact(8)
        .map(|c| {
            let p = u64::from_ne_bytes(c.try_into().expect("8 bytes"));
            // struct pthread is ~2.3 KiB on glibc x86_64; it sits at the top
            // of the thread's stack mapping, so a long read may run off it.
            [0x800usize, 0x400]
                .iter()
                .find_map(|&len| {
                    let mut b = vec![0u8; len];
                    mem.read(p, &mut b).ok().map(|_| b)
                })
                .ok_or_else(|| format!("reading struct pthread at {p:#x}"))
        })
        .collect::<Result<_, _>>()?;
    // struct pthread holds TIDs as the process's PID namespace numbers
    // them; /proc here may number them otherwise (a container).
    let map = target.tid_map().map_err(|e| e.to_string())?;
    let len = blocks.iter().map(Vec::len).min().unwrap_or(0);
    for offset in (0..len.saturating_sub(3)).step_by(4) {
        let at: Vec<u32> = blocks
            .iter()
            .map(|b| u32::from_ne_bytes(b[offset..offset + 4].try_into().expect("4 bytes")))
            .collect();
        let distinct: std::collections::BTreeSet<u32> = at.iter().copied().collect();
        if distinct.len() == at.len() && at.iter().all(|t| map.is_other(*t)) {
            let mut found: Vec<u32> = at.iter().filter_map(|t| map.host(*t)).collect();
            found.sort_unstable();
            return Ok(MemoryPool::Found {
                tids: found,
                offset,
            });
        }
    }
    Err(format!(
        "no offset of struct pthread holds the TIDs of libuv's {n} threads"
    ))
}

/// How many of the pool's threads wait on libuv's `cond` right now, and on
/// which words: the symbols' cross-check of a discovery.
fn cross_check(
    tids: &[u32],
    threads: &[Snapshot],
    cond: Option<&std::ops::Range<u64>>,
) -> Option<String> {
    let cond = cond?;
    let mut words = std::collections::BTreeSet::new();
    let mut on_cond = 0;
    for t in threads.iter().filter(|t| tids.contains(&t.tid)) {
        if let Some(w) = t.line.and_then(|l| l.futex_wait_word())
            && cond.contains(&w)
        {
            on_cond += 1;
            words.insert(w);
        }
    }
    let others = threads
        .iter()
        .filter(|t| !tids.contains(&t.tid))
        .filter(|t| {
            t.line
                .and_then(|l| l.futex_wait_word())
                .is_some_and(|w| cond.contains(&w))
        })
        .count();
    let on = if words.is_empty() {
        String::new()
    } else {
        format!(
            " (words {})",
            words
                .iter()
                .map(|w| format!("{w:#x}"))
                .collect::<Vec<_>>()
                .join(", ")
        )
    };
    let n = tids.len();
    let ours = match on_cond {
        0 => format!("none of the {n} waits on libuv's cond ({cond:#x?}) now: all busy"),
        c if c == n => format!("all {n} wait on libuv's cond ({cond:#x?}) now{on}"),
        c => format!("{c} of {n} wait on libuv's cond ({cond:#x?}) now{on}, the rest are busy"),
    };
    let theirs = match others {
        0 => "no other thread waits there".to_string(),
        1 => "1 other thread waits there".to_string(),
        k => format!("{k} other threads wait there"),
    };
    Some(format!("{ours}; {theirs}"))
}

fn futex_with_symbols(
    target: &Target,
    threads: &[Snapshot],
    cond: &std::ops::Range<u64>,
    known: Option<&Pool>,
    notes: Vec<String>,
) -> PoolStatus {
    let mut tids: Vec<u32> = known
        .filter(|k| k.method == Method::FutexSymbols)
        .map(|k| k.tids.clone())
        .unwrap_or_default();
    let alive: Vec<u32> = threads.iter().map(|t| t.tid).collect();
    tids.retain(|t| alive.contains(t));
    for t in threads {
        if t.tid != target.pid
            && t.line
                .and_then(|l| l.futex_wait_word())
                .is_some_and(|w| cond.contains(&w))
            && !tids.contains(&t.tid)
        {
            tids.push(t.tid);
        }
    }
    tids.sort_unstable();
    if tids.is_empty() {
        return PoolStatus::NotFound {
            evidence: format!(
                "no thread waits on libuv's cond ({cond:#x?}): the pool has not started, or every pool thread is busy{}",
                notes_suffix(&notes)
            ),
        };
    }
    let evidence = vec![format!(
        "{} seen waiting on libuv's cond ({cond:#x?}, symbol in {}); a thread busy since scope started is not seen until it goes idle{}",
        threads_text(tids.len()),
        target.image.shown,
        notes_suffix(&notes)
    )];
    PoolStatus::Started(Pool {
        method: Method::FutexSymbols,
        tids,
        idle: IdleWait::Cond(cond.clone()),
        evidence,
    })
}

fn futex_heuristic(
    target: &Target,
    threads: &[Snapshot],
    known: Option<&Pool>,
    notes: Vec<String>,
) -> PoolStatus {
    let groups = futex_groups(target, threads);
    if let Some(k) = known.filter(|k| k.method == Method::FutexHeuristic) {
        return PoolStatus::Started(keep_known(k, threads, &groups));
    }
    if groups.is_empty() {
        return PoolStatus::NotFound {
            evidence: format!(
                "no thread waits on a futex in libuv's static data ({}): the pool has not started, or every pool thread is busy{}",
                target.image.shown,
                notes_suffix(&notes)
            ),
        };
    }
    PoolStatus::Started(likeliest_group(target, groups, &notes))
}

/// Threads waiting on futex words close together: one condition variable.
struct WordGroup {
    /// The words, ascending.
    words: Vec<u64>,
    /// The threads waiting on them.
    tids: Vec<u32>,
}

/// Futex waits in the image's static data (the main thread's left out),
/// grouped: words within 8 bytes of each other are one condition variable.
fn futex_groups(target: &Target, threads: &[Snapshot]) -> Vec<WordGroup> {
    let mut by_word: BTreeMap<u64, Vec<u32>> = BTreeMap::new();
    for t in threads.iter().filter(|t| t.tid != target.pid) {
        if let Some(w) = t.line.and_then(|l| l.futex_wait_word())
            && target.image.holds_data(w)
        {
            by_word.entry(w).or_default().push(t.tid);
        }
    }
    let mut groups: Vec<WordGroup> = Vec::new();
    for (w, tids) in by_word {
        match groups.last_mut() {
            Some(g) if w - g.words.last().copied().unwrap_or(w) <= 8 => {
                g.words.push(w);
                g.tids.extend(tids);
            }
            _ => groups.push(WordGroup {
                words: vec![w],
                tids,
            }),
        }
    }
    groups
}

/// The known pool, its threads still alive, joined by the threads of any
/// group on (or next to) its words.
fn keep_known(k: &Pool, threads: &[Snapshot], groups: &[WordGroup]) -> Pool {
    let IdleWait::Words(kw) = &k.idle else {
        unreachable!("heuristic pools wait on words")
    };
    let alive: Vec<u32> = threads.iter().map(|t| t.tid).collect();
    let mut tids: Vec<u32> = k
        .tids
        .iter()
        .copied()
        .filter(|t| alive.contains(t))
        .collect();
    let mut words = kw.clone();
    let near_known = |g: &&WordGroup| {
        g.words
            .iter()
            .any(|w| kw.iter().any(|k| w.abs_diff(*k) <= 8))
    };
    for g in groups.iter().filter(near_known) {
        for w in &g.words {
            if !words.contains(w) {
                words.push(*w);
            }
        }
        for t in &g.tids {
            if !tids.contains(t) {
                tids.push(*t);
            }
        }
    }
    tids.sort_unstable();
    Pool {
        method: Method::FutexHeuristic,
        tids,
        idle: IdleWait::Words(words),
        evidence: k.evidence.clone(),
    }
}

/// The pool among the groups (not empty): the largest, then the newest
/// (the latest first thread start), labelled a heuristic.
fn likeliest_group(target: &Target, groups: Vec<WordGroup>, notes: &[String]) -> Pool {
    let newest = |g: &[u32]| {
        g.iter()
            .filter_map(|t| target.thread_start_time(*t))
            .min()
            .unwrap_or(0)
    };
    let candidates = groups.len();
    let WordGroup { words, mut tids } = groups
        .into_iter()
        .max_by_key(|g| (g.tids.len(), newest(&g.tids)))
        .expect("not empty");
    tids.sort_unstable();
    let lone = if tids.len() == 1 {
        "; a lone thread may also be node's inspector thread (its semaphore lives there too) if the pool has not started"
    } else {
        ""
    };
    let evidence = vec![format!(
        "heuristic: {} wait on futex word{} {} in the static data of {} (libuv's cond lives there; no symbols to confirm it); chosen from {candidates} such group{}: the largest, then the newest{lone}{}",
        threads_text(tids.len()),
        if words.len() == 1 { "" } else { "s" },
        words
            .iter()
            .map(|w| format!("{w:#x}"))
            .collect::<Vec<_>>()
            .join(", "),
        target.image.shown,
        if candidates == 1 { "" } else { "s" },
        notes_suffix(notes)
    )];
    Pool {
        method: Method::FutexHeuristic,
        tids,
        idle: IdleWait::Words(words),
        evidence,
    }
}

/// `1 thread`, `4 threads`.
fn threads_text(n: usize) -> String {
    format!("{n} thread{}", if n == 1 { "" } else { "s" })
}

fn notes_suffix(notes: &[String]) -> String {
    if notes.is_empty() {
        String::new()
    } else {
        format!(" ({})", notes.join("; "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strategies_parse_and_bad_ones_are_named() {
        assert_eq!(Strategy::parse("memory").unwrap(), Strategy::Memory);
        assert_eq!(
            Strategy::parse("psychic").unwrap_err().to_string(),
            "--discover \"psychic\": expected one of auto, names, memory, start, futex"
        );
    }

    #[test]
    fn only_names_and_memory_are_exact() {
        assert!(Method::Names.is_exact() && Method::Memory.is_exact());
        assert!(Method::StartRoutine.is_exact());
        assert!(!Method::FutexSymbols.is_exact() && !Method::FutexHeuristic.is_exact());
    }
}
