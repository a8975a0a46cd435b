//! The system libuv (`libuv.so.1`, Debian's `libuv1`, or the one
//! `SLUICE_LIBUV` names), loaded at run time through FFI, so the `dispatch` experiment can time the real
//! `uv_queue_work` on a real `uv_loop_t` — no JS in the way.
//!
//! This is the lab's only `unsafe` code, kept in this one file. The rest of
//! the lab sees two safe calls: [`SystemLibuv::load`] (an error naming
//! `libuv.so.1` and the package to install when it is absent, so the
//! experiment can skip the subject) and [`SystemLibuv::queue_work`].
//!
//! Nothing here depends on libuv's struct layouts: the loop and the requests
//! are sized with `uv_loop_size()` and `uv_req_size(UV_WORK)`, and a
//! request's `data` is reached with `uv_req_get_data`/`uv_req_set_data`
//! (libuv ≥ 1.19). The one constant taken from `uv.h` is `UV_WORK = 7`: the
//! seventh entry of `UV_REQ_TYPE_MAP` after `UV_UNKNOWN_REQ = 0`, unchanged
//! since libuv 1.0 (and checked: `uv_req_size(UV_WORK)` must be at least
//! the size of the public fields of a `uv_work_t`).
#![allow(unsafe_code)]

use libloading::Library;
use std::ffi::{CStr, c_char, c_int, c_void};
use std::sync::OnceLock;
use std::time::{Duration, Instant};

/// The shared object looked up, by its soname, on the loader's usual path.
pub(crate) const SONAME: &str = "libuv.so.1";
/// The variable that names another libuv to load instead (a path, or a
/// name for the loader), e.g. one built from source to match node's.
pub(crate) const ENV: &str = "SLUICE_LIBUV";

/// `UV_WORK` of `uv_req_type` (`uv.h`: `UV_UNKNOWN_REQ = 0`, then `REQ`,
/// `CONNECT`, `WRITE`, `SHUTDOWN`, `UDP_SEND`, `FS`, `WORK`).
const UV_WORK: c_int = 7;
/// `UV_RUN_DEFAULT`: run until no handle or request is active.
const UV_RUN_DEFAULT: c_int = 0;
/// The public fields of a `uv_work_t` (`data`, `type`, reserved[6], `loop`,
/// `work_cb`, `after_work_cb`): a lower bound any real size passes.
const MIN_WORK_SIZE: usize = 10 * std::mem::size_of::<*const c_void>();

type WorkCb = unsafe extern "C" fn(req: *mut c_void);
type AfterWorkCb = unsafe extern "C" fn(req: *mut c_void, status: c_int);

/// The libuv functions used, copied out of the library. Valid for as long
/// as the library stays loaded, which is the life of the process: the one
/// [`SystemLibuv`] lives in a `static` and is never dropped.
#[derive(Clone, Copy)]
struct Api {
    version_string: unsafe extern "C" fn() -> *const c_char,
    strerror: unsafe extern "C" fn(err: c_int) -> *const c_char,
    loop_size: unsafe extern "C" fn() -> usize,
    loop_init: unsafe extern "C" fn(lp: *mut c_void) -> c_int,
    loop_close: unsafe extern "C" fn(lp: *mut c_void) -> c_int,
    run: unsafe extern "C" fn(lp: *mut c_void, mode: c_int) -> c_int,
    req_size: unsafe extern "C" fn(kind: c_int) -> usize,
    req_get_data: unsafe extern "C" fn(req: *const c_void) -> *mut c_void,
    req_set_data: unsafe extern "C" fn(req: *mut c_void, data: *mut c_void),
    queue_work: unsafe extern "C" fn(
        lp: *mut c_void,
        req: *mut c_void,
        work_cb: Option<WorkCb>,
        after_work_cb: Option<AfterWorkCb>,
    ) -> c_int,
}

/// The system libuv, loaded once per process and never unloaded.
pub(crate) struct SystemLibuv {
    api: Api,
    version: String,
    /// Held only to keep the library mapped; see [`Api`].
    _lib: Library,
}

static LOADED: OnceLock<Result<SystemLibuv, String>> = OnceLock::new();

/// What one [`SystemLibuv::queue_work`] run did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Batch {
    /// From the first `uv_queue_work` to `uv_run` returning.
    pub(crate) wall: Duration,
    /// `after_work_cb` calls with status 0: tasks whose `work_cb` ran.
    pub(crate) completed: usize,
}

/// The state of one run, shared by its requests through their `data`. Only
/// the loop thread touches it: `after_work_cb` runs there, `work_cb` (on
/// libuv's threads) does not read it.
struct Run {
    api: Api,
    lp: *mut c_void,
    /// Tasks submitted so far (at most `total`).
    submitted: usize,
    /// Tasks that ran and came back with status 0.
    completed: usize,
    /// Tasks to run in all.
    total: usize,
    /// The first error: a status other than 0, or `uv_queue_work`'s.
    error: c_int,
}

/// `work_cb`: the trivial task, on one of libuv's pool threads.
unsafe extern "C" fn work(req: *mut c_void) {
    std::hint::black_box(req);
}

/// `after_work_cb`, on the loop thread: count the task, and send the same
/// request out again while tasks remain.
unsafe extern "C" fn after_work(req: *mut c_void, status: c_int) {
    // SAFETY: `queue_work` set every request's data to the `Run` it leaked
    // with `Box::into_raw` before submitting it, and reclaims that box only
    // after `uv_run` has returned, that is after the last `after_work_cb`.
    // libuv calls this function on the loop thread, the only thread that
    // touches the `Run`, so the `&mut` is unique while it lives.
    let run = unsafe { &mut *((run_api().req_get_data)(req) as *mut Run) };
    if status != 0 {
        run.error = status;
        return;
    }
    run.completed += 1;
    if run.submitted < run.total && run.error == 0 {
        run.submitted += 1;
        // SAFETY: libuv is done with `req` once it calls its `after_work_cb`
        // (`uv__queue_done` has unregistered it), so it may be submitted
        // again; `req` and `run.lp` stay allocated until `uv_run` returns.
        let rc = unsafe { (run.api.queue_work)(run.lp, req, Some(work), Some(after_work)) };
        if rc != 0 {
            run.error = rc;
        }
    }
}

/// The API of the loaded library, for the callbacks (which can only be
/// called by a loop that [`SystemLibuv::queue_work`] runs, so it is loaded).
fn run_api() -> Api {
    match LOADED.get() {
        Some(Ok(uv)) => uv.api,
        // Unreachable: callbacks come only from loops run by a loaded library.
        _ => std::process::abort(),
    }
}

impl SystemLibuv {
    /// Loads `libuv.so.1`, or what `SLUICE_LIBUV` names (once per process).
    /// The error names the file and the package that provides it (or the
    /// variable), for the experiment's skip note.
    pub(crate) fn load() -> Result<&'static SystemLibuv, String> {
        LOADED
            .get_or_init(Self::open)
            .as_ref()
            .map_err(Clone::clone)
    }

    fn open() -> Result<SystemLibuv, String> {
        let chosen = std::env::var_os(ENV).filter(|v| !v.is_empty());
        let name = chosen.clone().unwrap_or_else(|| SONAME.into());
        // SAFETY: loading runs libuv's ELF constructors; libuv 1.x has none
        // with preconditions (its threadpool's destructor, `cleanup`, runs
        // only at unload or exit, and stops the threads it started).
        let lib = unsafe { Library::new(&name) }.map_err(|e| match &chosen {
            Some(v) => format!(
                "{ENV}={}: cannot load it ({e}); point {ENV} at a libuv shared object, or unset it to use the system's {SONAME}",
                v.to_string_lossy()
            ),
            None => format!(
                "{SONAME} not found ({e}); install Debian's libuv1-dev (apt-get install libuv1-dev) to time the system libuv"
            ),
        })?;
        macro_rules! sym {
            ($name:literal) => {
                // SAFETY: each symbol is declared with its C signature from
                // uv.h (uv_req_type and uv_run_mode are C enums: int), and
                // the pointer is used only while `lib` is loaded (see `Api`).
                *unsafe { lib.get(concat!($name, "\0").as_bytes()) }.map_err(|e| {
                    format!(
                        "{SONAME} has no {} ({e}); it is too old (need libuv 1.19 or later)",
                        $name
                    )
                })?
            };
        }
        let api = Api {
            version_string: sym!("uv_version_string"),
            strerror: sym!("uv_strerror"),
            loop_size: sym!("uv_loop_size"),
            loop_init: sym!("uv_loop_init"),
            loop_close: sym!("uv_loop_close"),
            run: sym!("uv_run"),
            req_size: sym!("uv_req_size"),
            req_get_data: sym!("uv_req_get_data"),
            req_set_data: sym!("uv_req_set_data"),
            queue_work: sym!("uv_queue_work"),
        };
        // SAFETY: uv_version_string returns a pointer to a static,
        // NUL-terminated string.
        let version = unsafe { CStr::from_ptr((api.version_string)()) }
            .to_string_lossy()
            .into_owned();
        // SAFETY: a plain query of a constant.
        let work_size = unsafe { (api.req_size)(UV_WORK) };
        if work_size < MIN_WORK_SIZE {
            return Err(format!(
                "{SONAME} (libuv {version}) says a uv_work_t is {work_size} bytes; expected at least {MIN_WORK_SIZE}: not a libuv this lab understands"
            ));
        }
        Ok(SystemLibuv {
            api,
            version,
            _lib: lib,
        })
    }

    /// libuv's version, e.g. `1.44.2`.
    pub(crate) fn version(&self) -> &str {
        &self.version
    }

    /// Zeroed, 16-byte aligned storage for one loop and `requests` work
    /// requests, and the size of one request in 16-byte words.
    fn storage(&self, requests: usize) -> (Vec<u128>, Vec<u128>, usize) {
        let words = |bytes: usize| bytes.div_ceil(16);
        // SAFETY: plain queries of constants.
        let (loop_words, req_words) = unsafe {
            (
                words((self.api.loop_size)()),
                words((self.api.req_size)(UV_WORK)),
            )
        };
        (
            vec![0u128; loop_words],
            vec![0u128; req_words * requests],
            req_words,
        )
    }

    /// Runs `total` trivial tasks through `uv_queue_work` on a fresh loop,
    /// `in_flight` at a time: `in_flight` requests are submitted, and each
    /// `after_work_cb` submits its request again until `total` were. With
    /// `in_flight = 1` that is one round trip after another; with
    /// `in_flight = total`, one batch waited for as a whole.
    pub(crate) fn queue_work(&self, in_flight: usize, total: usize) -> Result<Batch, String> {
        let in_flight = in_flight.clamp(1, total.max(1));
        let api = self.api;
        let (mut loop_mem, mut req_mem, req_words) = self.storage(in_flight);
        let lp = loop_mem.as_mut_ptr().cast::<c_void>();
        // SAFETY: `lp` points to `uv_loop_size()` writable, aligned bytes
        // that stay put (the vector is never resized) until after
        // `uv_loop_close` below.
        let rc = unsafe { (api.loop_init)(lp) };
        if rc != 0 {
            return Err(format!("uv_loop_init: {}", self.error_text(rc)));
        }
        let run = Box::into_raw(Box::new(Run {
            api,
            lp,
            submitted: 0,
            completed: 0,
            total,
            error: 0,
        }));
        let reqs = req_mem.as_mut_ptr();
        let t0 = Instant::now();
        for i in 0..in_flight.min(total) {
            // SAFETY: request `i` is `uv_req_size(UV_WORK)` bytes inside
            // `req_mem` (`i < in_flight`), which is neither moved nor freed
            // before `uv_run` has returned, after libuv's last use of any
            // request. `run` is a live `Box` allocation; this thread is the
            // loop thread and no callback runs before `uv_run`, so writing
            // it here is unique.
            let rc = unsafe {
                let req = reqs.add(i * req_words).cast::<c_void>();
                (api.req_set_data)(req, run.cast());
                (*run).submitted += 1;
                (api.queue_work)(lp, req, Some(work), Some(after_work))
            };
            if rc != 0 {
                // SAFETY: as above; nothing was submitted with this request.
                unsafe {
                    (*run).submitted -= 1;
                    (*run).error = rc;
                }
                break;
            }
        }
        // SAFETY: `lp` was initialised above; `uv_run` returns once no
        // request is active, i.e. after every submitted request's
        // `after_work_cb`, which are the last uses of `run` and `req_mem`.
        unsafe { (api.run)(lp, UV_RUN_DEFAULT) };
        let wall = t0.elapsed();
        // SAFETY: `run` came from `Box::into_raw` above and no callback can
        // run any more (see `uv_run`).
        let run = unsafe { Box::from_raw(run) };
        // SAFETY: the loop has no active requests or user handles left;
        // libuv's own internal handles are closed by `uv_loop_close`.
        let rc = unsafe { (api.loop_close)(lp) };
        if rc != 0 {
            // libuv may still point into the loop: never free it.
            std::mem::forget(loop_mem);
            std::mem::forget(req_mem);
            return Err(format!("uv_loop_close: {}", self.error_text(rc)));
        }
        drop(req_mem);
        drop(loop_mem);
        if run.error != 0 {
            return Err(format!(
                "uv_queue_work: {} after {} of {total} tasks",
                self.error_text(run.error),
                run.completed
            ));
        }
        Ok(Batch {
            wall,
            completed: run.completed,
        })
    }

    fn error_text(&self, code: c_int) -> String {
        // SAFETY: uv_strerror returns a pointer to a static, NUL-terminated
        // string for any code (unknown ones included).
        let text = unsafe { CStr::from_ptr((self.api.strerror)(code)) };
        format!("{} ({code})", text.to_string_lossy())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Present: every task runs and comes back, whatever the shape. Absent:
    /// the error names the file and the package (the e2e test covers how
    /// the experiment reports it).
    #[test]
    fn every_task_comes_back_or_the_absence_is_named() {
        match SystemLibuv::load() {
            Ok(uv) => {
                assert!(uv.version().starts_with("1."), "{}", uv.version());
                for (in_flight, total) in [(1, 50), (7, 50), (50, 50), (80, 50)] {
                    let b = uv.queue_work(in_flight, total).unwrap();
                    assert_eq!(b.completed, total, "{in_flight} in flight");
                }
                assert_eq!(uv.queue_work(1, 0).unwrap().completed, 0);
            }
            Err(e) => {
                assert!(e.contains(SONAME) && e.contains("libuv1-dev"), "{e}");
            }
        }
    }
}
