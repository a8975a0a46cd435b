//! [`LibuvImage`]: the ELF file that holds libuv in the watched process
//! (node's own executable when libuv is linked in, as in the official
//! builds; `libuv.so.1` when a distribution links it shared), and what its
//! symbol table says about libuv's pool.
//!
//! libuv 1.x keeps its pool in file-local statics of `src/threadpool.c`:
//! `mutex` and `cond` (one lock, one condition variable), `wq` (the queue),
//! `nthreads` and `threads` (the pool's size and its `uv_thread_t`s),
//! `idle_threads`, `run_slow_work_message`, `slow_io_pending_wq` and
//! `slow_io_work_running` (the slow-I/O gate). Unstripped binaries keep them in `.symtab`, grouped after
//! the `threadpool.c` FILE symbol, which is how they are told apart from
//! other files' statics of the same name (`cond`, `mutex` and `once` are
//! common names). The functions probe mode attaches to are there too:
//! `uv__work_submit` (hidden: local after linking), `worker`,
//! `uv__work_done`, and the exported `uv_queue_work`.
//!
//! Addresses here are link-time addresses; [`LibuvImage::bias`] turns them
//! into the running process's (0 for a non-PIE executable such as
//! nodejs.org's node; the load address for a PIE or a shared library).

use crate::error::ScopeError;
use crate::target::maps::Mapping;
use object::{Object, ObjectSegment, ObjectSymbol, SymbolKind};
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// A function of libuv's pool: where it is and its machine code.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Function {
    /// Link-time address.
    pub addr: u64,
    /// Size in bytes.
    pub size: u64,
    /// Offset of its first byte in the file (what a uprobe is set on).
    pub file_offset: u64,
    /// Its machine code.
    pub code: Vec<u8>,
}

/// libuv's pool symbols found in an image; `None` where the symbol table
/// lacks one (or the image is stripped).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ThreadpoolSymbols {
    /// `static uv_cond_t cond`: idle pool threads wait on it.
    pub cond: Option<Range<u64>>,
    /// `static uv_mutex_t mutex`: guards the queue.
    pub mutex: Option<Range<u64>>,
    /// `static struct uv__queue wq`: the queue of CPU and fast-I/O work.
    pub wq: Option<u64>,
    /// `static unsigned int nthreads`: the pool size, 0 before the first
    /// submission.
    pub nthreads: Option<u64>,
    /// `static uv_thread_t* threads`: the pool's threads.
    pub threads: Option<u64>,
    /// `static unsigned int idle_threads`.
    pub idle_threads: Option<u64>,
    /// `static struct uv__queue run_slow_work_message`: stands in `wq` for
    /// all pending slow I/O.
    pub run_slow_work_message: Option<u64>,
    /// `static struct uv__queue slow_io_pending_wq`.
    pub slow_io_pending_wq: Option<u64>,
    /// `static unsigned int slow_io_work_running`: slow I/O running on pool
    /// threads now, at most `(nthreads + 1) / 2`.
    pub slow_io_work_running: Option<u64>,
    /// `static uv_loop_t default_loop_struct` (`uv-common.c`): the loop
    /// Node's main thread runs; its `backend_fd` is the loop's epoll fd.
    pub default_loop: Option<u64>,
    /// `static RB_HEAD(...) uv__signal_tree` (`unix/signal.c`): every
    /// started `uv_signal_t` (a JavaScript `process.on(SIGNAL)` listener
    /// is one).
    pub signal_tree: Option<u64>,
    /// `static void worker(void*)`: a pool thread's loop.
    pub worker: Option<Function>,
    /// `void uv__work_done(uv_async_t*)`: runs completions on the loop.
    pub work_done: Option<Function>,
    /// `void uv__work_submit(loop, w, kind, work, done)`.
    pub work_submit: Option<Function>,
    /// `int uv_queue_work(loop, req, work_cb, after_work_cb)`.
    pub queue_work: Option<Function>,
}

/// The file holding libuv in a process, and its pool symbols.
#[derive(Debug, Clone)]
pub struct LibuvImage {
    /// A path the file can be opened by (`/proc/PID/exe`,
    /// `/proc/PID/root/...`): it names the mapped file even when it was
    /// replaced on disk or lives in another mount namespace.
    pub path: PathBuf,
    /// The path as the process maps it, for messages.
    pub shown: String,
    /// Runtime address minus link-time address.
    pub bias: u64,
    /// The writable segments (link-time): libuv's statics live there.
    pub data: Vec<Range<u64>>,
    /// What the symbol table says about the pool.
    pub symbols: ThreadpoolSymbols,
    /// Where libuv's code lies (link-time), for telling a pool thread by
    /// its start routine when `worker` has no symbol: a `libuv*.so`'s
    /// executable segments (all of it is libuv), else the span of the
    /// `uv_*` functions its symbol tables name (node exports them in
    /// `.dynsym` for addons, so a stripped node keeps them).
    pub text: Vec<Range<u64>>,
    /// How [`LibuvImage::text`] was found, for the evidence.
    pub text_source: String,
    /// The loadable segments' link-time address and file offset, for
    /// placing the image in a process ([`LibuvImage::placed`]).
    pub segments: Vec<(u64, u64)>,
}

impl LibuvImage {
    /// Reads `path` (mapped as `shown`, inode `inode`, in `maps`) if it
    /// exports `uv_queue_work`; `Ok(None)` if it does not (not libuv).
    pub fn load(
        path: &Path,
        shown: &str,
        inode: u64,
        maps: &[Mapping],
    ) -> Result<Option<LibuvImage>, ScopeError> {
        LibuvImage::parse(path, shown)?
            .map(|img| img.placed(inode, maps))
            .transpose()
    }

    /// This image as mapped in a process whose mappings are `maps` (the
    /// file's inode `inode`): the same symbols, that process's load bias.
    /// Parsing once and placing per process is what lets `--all` watch
    /// many processes of one node binary for the cost of one.
    pub fn placed(&self, inode: u64, maps: &[Mapping]) -> Result<LibuvImage, ScopeError> {
        let bias = bias(&self.segments, inode, maps).ok_or_else(|| ScopeError::Elf {
            path: PathBuf::from(&self.shown),
            message: format!("no mapping of inode {inode} matches its loadable segments"),
        })?;
        Ok(LibuvImage {
            bias,
            ..self.clone()
        })
    }

    /// Reads `path` (shown as `shown`) if it exports `uv_queue_work`, not
    /// yet placed in a process (bias 0); `Ok(None)` if it is not libuv.
    pub fn parse(path: &Path, shown: &str) -> Result<Option<LibuvImage>, ScopeError> {
        let elf_err = |message: String| ScopeError::Elf {
            path: PathBuf::from(shown),
            message,
        };
        let file = std::fs::File::open(path).map_err(|e| match e.kind() {
            std::io::ErrorKind::PermissionDenied => ScopeError::io(
                format!(
                    "opening {} (run as the process's user or root)",
                    path.display()
                ),
                e,
            ),
            _ => ScopeError::io(format!("opening {}", path.display()), e),
        })?;
        let buf = sparse_read(&file).map_err(elf_err)?;
        let obj = object::File::parse(&*buf).map_err(|e| elf_err(e.to_string()))?;
        let exports = |name: &[u8]| {
            obj.dynamic_symbols()
                .chain(obj.symbols())
                .any(|s| s.is_definition() && s.name_bytes().is_ok_and(|n| n == name))
        };
        if !exports(b"uv_queue_work") {
            return Ok(None);
        }
        let (mut symbols, functions) = threadpool_symbols(&obj);
        let data = obj
            .segments()
            .filter(|s| s.permissions().writable())
            .map(|s| s.address()..s.address() + s.size())
            .collect();
        let segments = obj
            .segments()
            .map(|seg| (seg.address(), seg.file_range().0))
            .collect();
        // The code of the pool's functions, for probe mode: the sparse
        // buffer does not hold .text, so read it from the file.
        for (name, addr, size) in functions {
            // A pool function is a few KiB; a symbol claiming more is not
            // read (a corrupt or hostile table must not allocate gigabytes).
            if size > MAX_FUNCTION_BYTES {
                continue;
            }
            let Some(file_offset) = file_offset(&obj, addr, size) else {
                continue;
            };
            let mut code = vec![0u8; size as usize];
            file.read_exact_at(&mut code, file_offset)
                .map_err(|e| elf_err(format!("reading {name}: {e}")))?;
            let f = Some(Function {
                addr,
                size,
                file_offset,
                code,
            });
            match name {
                "worker" => symbols.worker = f,
                "uv__work_done" => symbols.work_done = f,
                "uv__work_submit" => symbols.work_submit = f,
                _ => symbols.queue_work = f,
            }
        }
        let (text, text_source) = libuv_text(&obj, shown);
        Ok(Some(LibuvImage {
            path: path.to_path_buf(),
            shown: shown.to_string(),
            bias: 0,
            data,
            symbols,
            text,
            text_source,
            segments,
        }))
    }

    /// The runtime address of link-time address `addr`.
    pub fn runtime(&self, addr: u64) -> u64 {
        addr.wrapping_add(self.bias)
    }

    /// The runtime range of link-time range `r`.
    pub fn runtime_range(&self, r: &Range<u64>) -> Range<u64> {
        self.runtime(r.start)..self.runtime(r.end)
    }

    /// Whether runtime address `addr` lies in libuv's code
    /// ([`LibuvImage::text`]).
    pub fn holds_libuv_code(&self, addr: u64) -> bool {
        self.text
            .iter()
            .any(|r| self.runtime_range(r).contains(&addr))
    }

    /// The runtime ranges of the image's writable data.
    pub fn data_ranges(&self) -> Vec<Range<u64>> {
        self.data.iter().map(|r| self.runtime_range(r)).collect()
    }

    /// Whether runtime address `addr` lies in the image's writable data.
    pub fn holds_data(&self, addr: u64) -> bool {
        self.data
            .iter()
            .any(|r| self.runtime_range(r).contains(&addr))
    }
}

/// Where libuv's code lies in `obj` (link-time), and how that was found.
fn libuv_text<'data, R: object::ReadRef<'data>>(
    obj: &object::File<'data, R>,
    shown: &str,
) -> (Vec<Range<u64>>, String) {
    let file_name = shown.rsplit('/').next().unwrap_or(shown);
    if file_name.starts_with("libuv") {
        let text: Vec<Range<u64>> = obj
            .segments()
            .filter(|s| s.permissions().executable())
            .map(|s| s.address()..s.address() + s.size())
            .collect();
        return (text, format!("the executable segment of {file_name}"));
    }
    let mut funcs: Vec<(u64, u64)> = obj
        .dynamic_symbols()
        .chain(obj.symbols())
        .filter(|sym| {
            sym.name_bytes().is_ok_and(|n| n.starts_with(b"uv_"))
                && sym.kind() == SymbolKind::Text
                && sym.is_definition()
                && sym.address() != 0
        })
        .map(|sym| (sym.address(), sym.address() + sym.size().max(1)))
        .collect();
    funcs.sort_unstable();
    funcs.dedup();
    // libuv is linked in as one archive, so its functions sit together; a
    // stray `uv_*` elsewhere (the embedder's own) must not widen the span
    // over other code: keep the largest cluster, split at gaps of more
    // than UV_GAP.
    const UV_GAP: u64 = 256 << 10;
    let mut clusters: Vec<(Range<u64>, usize)> = Vec::new();
    for (lo, hi) in funcs {
        match clusters.last_mut() {
            Some((r, n)) if lo <= r.end + UV_GAP => {
                r.end = r.end.max(hi);
                *n += 1;
            }
            _ => clusters.push((lo..hi, 1)),
        }
    }
    match clusters.into_iter().max_by_key(|(_, n)| *n) {
        Some((span, n)) => (
            vec![span],
            format!("the span of the {n} uv_* functions {file_name}'s symbol tables name together"),
        ),
        None => (Vec::new(), format!("{file_name} names no uv_* function")),
    }
}

/// The pool's statics and `worker`, from the `threadpool.c` group of the
/// symbol table; the other functions by their (unique) names.
/// The largest function body [`LibuvImage::load`] reads for probe mode.
pub const MAX_FUNCTION_BYTES: u64 = 1 << 20;

/// What the symbol table of an ELF image in memory says about libuv's
/// pool: `Ok(None)` if it does not export `uv_queue_work`, an error if it
/// is not an ELF file object can read. The pure part of
/// [`LibuvImage::load`], for tests and fuzzing.
///
/// ```
/// assert!(sluice_scope::target::image::symbols_from_bytes(b"not an ELF file").is_err());
/// let me = std::fs::read(std::env::current_exe()?)?;
/// assert!(sluice_scope::target::image::symbols_from_bytes(&me)?.is_none()); // no libuv in a doctest
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn symbols_from_bytes(data: &[u8]) -> Result<Option<ThreadpoolSymbols>, String> {
    let obj = object::File::parse(data).map_err(|e| e.to_string())?;
    let exports = obj
        .dynamic_symbols()
        .chain(obj.symbols())
        .any(|s| s.is_definition() && s.name_bytes().is_ok_and(|n| n == b"uv_queue_work"));
    if !exports {
        return Ok(None);
    }
    Ok(Some(threadpool_symbols(&obj).0))
}

fn threadpool_symbols<'data, R: object::ReadRef<'data>>(
    obj: &object::File<'data, R>,
) -> (ThreadpoolSymbols, Vec<(&'static str, u64, u64)>) {
    let mut out = ThreadpoolSymbols::default();
    let mut functions = Vec::new();
    let mut in_threadpool = false;
    // A second threadpool.c group (another library's) must not overwrite
    // libuv's: stop at the first group that had `cond`.
    let mut done = false;
    // .dynsym last: a stripped file still exports uv_queue_work there.
    for sym in obj.symbols().chain(obj.dynamic_symbols()) {
        let Ok(name) = sym.name() else { continue };
        if sym.kind() == SymbolKind::File {
            if in_threadpool && out.cond.is_some() {
                done = true;
            }
            in_threadpool = !done && name.ends_with("threadpool.c");
            continue;
        }
        // The functions have unique names: hidden ones (`uv__work_submit`,
        // `uv__work_done`) turn local at link time but are listed apart
        // from their file's group, and `uv_queue_work` is global.
        if let Some(f) = ["uv_queue_work", "uv__work_submit", "uv__work_done"]
            .into_iter()
            .find(|f| *f == name)
        {
            if sym.is_definition() && !functions.iter().any(|g: &(&str, u64, u64)| g.0 == f) {
                functions.push((f, sym.address(), sym.size()));
            }
            continue;
        }
        // Two statics of other files, with names no other file uses.
        if sym.is_local() && sym.is_definition() {
            match name {
                "default_loop_struct" => out.default_loop = Some(sym.address()),
                "uv__signal_tree" => out.signal_tree = Some(sym.address()),
                _ => {}
            }
        }
        if !in_threadpool || !sym.is_local() {
            continue;
        }
        let range = sym.address()..sym.address() + sym.size();
        match name {
            "cond" => out.cond = Some(range),
            "mutex" => out.mutex = Some(range),
            "wq" => out.wq = Some(range.start),
            "nthreads" => out.nthreads = Some(range.start),
            "threads" => out.threads = Some(range.start),
            "idle_threads" => out.idle_threads = Some(range.start),
            "run_slow_work_message" => out.run_slow_work_message = Some(range.start),
            "slow_io_pending_wq" => out.slow_io_pending_wq = Some(range.start),
            "slow_io_work_running" => out.slow_io_work_running = Some(range.start),
            "worker" => functions.push(("worker", sym.address(), sym.size())),
            _ => {}
        }
    }
    (out, functions)
}

/// The file offset of `size` bytes at link-time address `addr`.
fn file_offset<'data, R: object::ReadRef<'data>>(
    obj: &object::File<'data, R>,
    addr: u64,
    size: u64,
) -> Option<u64> {
    if size == 0 {
        return None;
    }
    obj.segments().find_map(|seg| {
        let (offset, filesz) = seg.file_range();
        let rel = addr.checked_sub(seg.address())?;
        (rel + size <= filesz).then_some(offset + rel)
    })
}

/// The file's bytes that the symbol tables need, at their offsets, in a
/// buffer as long as the file: ELF and program headers, section headers,
/// symbol and string tables. The rest stays zero: allocated zeroed, those
/// pages are never touched, so a 100 MB node costs the ~15 MB of its
/// tables (reading the whole file, or each name on demand, is far slower).
pub(crate) fn sparse_read(file: &std::fs::File) -> Result<Vec<u8>, String> {
    use object::read::elf::{FileHeader, SectionHeader};
    let len = file.metadata().map_err(|e| e.to_string())?.len();
    let cache = object::ReadCache::new(file);
    let header = object::elf::FileHeader64::<object::Endianness>::parse(&cache)
        .map_err(|e| format!("{e} (scope reads 64-bit ELF files)"))?;
    let endian = header.endian().map_err(|e| e.to_string())?;
    let shdrs = header
        .section_headers(endian, &cache)
        .map_err(|e| e.to_string())?;
    let phoff = header.e_phoff(endian);
    let shoff = header.e_shoff(endian);
    let mut ranges = vec![
        (0, 64),
        (phoff, u64::from(header.e_phnum(endian)) * 56),
        (shoff, shdrs.len() as u64 * 64),
    ];
    for sh in shdrs {
        use object::elf::{SHT_DYNSYM, SHT_STRTAB, SHT_SYMTAB, SHT_SYMTAB_SHNDX};
        if matches!(
            sh.sh_type(endian),
            SHT_SYMTAB | SHT_DYNSYM | SHT_STRTAB | SHT_SYMTAB_SHNDX
        ) && let Some(r) = sh.file_range(endian)
        {
            ranges.push(r);
        }
    }
    let len = usize::try_from(len).map_err(|e| e.to_string())?;
    let mut buf = vec![0u8; len];
    for (offset, size) in ranges {
        let (Ok(start), Ok(size)) = (usize::try_from(offset), usize::try_from(size)) else {
            return Err("a table lies beyond the address space".into());
        };
        let dst = buf
            .get_mut(start..start.saturating_add(size))
            .ok_or_else(|| format!("a table at {offset:#x} ({size} bytes) lies past the end"))?;
        file.read_exact_at(dst, offset).map_err(|e| e.to_string())?;
    }
    Ok(buf)
}

/// Runtime minus link-time address, from the lowest mapping of the file:
/// `start - offset` is where file offset 0 landed, and a segment's
/// `p_vaddr - p_offset` is where file offset 0 sits at link time.
pub(crate) fn bias(segments: &[(u64, u64)], inode: u64, maps: &[Mapping]) -> Option<u64> {
    let m = maps
        .iter()
        .filter(|m| m.inode == inode && m.inode != 0)
        .min_by_key(|m| m.offset)?;
    let (address, offset) = segments
        .iter()
        .filter(|(_, off)| off & !0xfff <= m.offset)
        .max_by_key(|(_, off)| *off)?;
    let link_base = address.wrapping_sub(*offset);
    Some(m.start.wrapping_sub(m.offset).wrapping_sub(link_base))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_image_without_libuv_is_not_loaded() {
        // The test binary itself: an ELF file, no uv_queue_work.
        let exe = std::env::current_exe().unwrap();
        let maps = crate::target::maps::read(std::process::id()).unwrap();
        assert!(LibuvImage::load(&exe, "test", 0, &maps).unwrap().is_none());
    }

    #[test]
    fn a_file_that_is_not_elf_is_named_in_the_error() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("not-elf");
        std::fs::write(&p, b"#!/bin/sh\n").unwrap();
        let err = LibuvImage::load(&p, "not-elf", 0, &[]).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("reading the symbols of not-elf:"),
            "{err}"
        );
    }
}
