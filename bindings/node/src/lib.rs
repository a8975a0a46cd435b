//! The native half of the `sluice` npm package: a Node-API addon (napi-rs)
//! that runs Node's pool work on sluice's lanes.
//!
//! `index.js` checks every argument, builds Node's result shapes and error
//! objects, and calls the functions here with clean values. Each operation
//! returns an id at once (`index.js` keys its promise by it) and runs on a
//! sluice lane; when the work is done, its outcome is posted to the
//! [`Inbox`] the call named: one per copy of `index.js` (a `require.cache`
//! reset, or jest's module registry, loads a second copy that shares this
//! addon), each a [`Mailbox`] whose bell is one byte written to a socket
//! pair of its own. That copy watches the other end (a `net.Socket`, ref'd
//! only while operations are in flight, so an idle pool never keeps Node
//! alive) and on each ring calls [`Inbox::drain`], which hands back every
//! outcome posted since the last one.
//!
//! Why not a threadsafe function per promise (napi-rs's `JsDeferred`): Node
//! holds a threadsafe function's mutex while it wakes the loop, so the
//! woken loop thread often ran straight into the lock the waking worker
//! still held. The worker is a `Cpu` thread at nice 10 on a busy machine:
//! the loop then waited milliseconds for it to be scheduled again (the
//! `/ping` tail of a server under a `/login` flood). The mailbox holds no
//! lock while it rings, and the loop thread takes none a worker can hold.
//!
//! | state | where | shared by |
//! |-------|-------|-----------|
//! | the pool | `POOL`, built by [`configure`] or at the first call | every `worker_thread` of the process |
//! | the DNS runtime | a tokio runtime of one thread (`sluice-dns`) | every thread |
//! | the resolver | `sluice::dns`'s system resolver, `getaddrinfo` fallback on this pool's `SlowIo` | every thread |
//!
//! An operation never reaches JavaScript as anything but a value or a
//! [`Failure`]: the work runs under `catch_unwind`, so a panic becomes a
//! `Failure` of kind `"panic"` (and is then re-raised for the pool to count),
//! and a task dropped without running (which only a shut-down pool does)
//! still settles its promise (kind `"dropped"`).
//! Settling goes through one guard type, `Settle`, whose `Drop` makes
//! "never settled" impossible. A result too large for JavaScript settles
//! its own operation with an error, never its batch: sizes are checked
//! before the work allocates (Node's 2 GiB for `readFile`, the caller's
//! `maxOutputLength` for `gunzip`), and a value V8 still refuses is turned
//! into that operation's error where [`Inbox::drain`] converts it.

use napi::Env;
use napi::bindgen_prelude::{Array, Buffer, BufferSlice, Either6, Float64ArraySlice};
use napi_derive::napi;
use sluice::crypto::{self, Digest};
use sluice::mailbox::Mailbox;
use sluice::{ConfigError, CpuSched, Lane, Pool};
use sluice_dns::{DnsError, Family, Resolver};
use std::cell::Cell;
use std::io::{Read, Write};
use std::os::fd::IntoRawFd;
use std::os::unix::net::UnixStream;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, OnceLock};

pub mod hash;

/// The pool of this process: one for the main thread and every worker
/// thread, since a Node-API addon is loaded once per process.
static POOL: OnceLock<Pool> = OnceLock::new();
/// The tokio runtime `dns.lookup` runs on (built at the first lookup).
static RUNTIME: OnceLock<Result<tokio::runtime::Runtime, String>> = OnceLock::new();
/// The system resolver, its `getaddrinfo` fallback on [`POOL`]'s `SlowIo`.
static RESOLVER: OnceLock<Result<Resolver, String>> = OnceLock::new();

/// What an operation gives JavaScript: bytes (copied into a buffer of
/// V8's own up to [`COPY_LIMIT`], handed over beyond it), `stat` fields, addresses, a
/// failure, or nothing.
type Out<'env> =
    Either6<BufferSlice<'env>, Buffer, Float64ArraySlice<'env>, Vec<String>, Failure, ()>;

/// The largest result copied into a buffer V8 allocates. A buffer that
/// takes over Rust's allocation instead needs a finalizer, and Node runs
/// finalizers after the garbage collector, on a later turn of the loop: for
/// a small result the copy is the cheaper of the two.
const COPY_LIMIT: usize = 64 * 1024;

/// An operation's id and its outcome, posted to the inbox the call named.
type Letter = (f64, Done);

/// Node's largest `readFile` (`kIoMaxLength`, 2 GiB - 1): a larger file is
/// refused with `ERR_FS_FILE_TOO_LARGE` before anything is allocated.
const IO_MAX_LENGTH: u64 = (1 << 31) - 1;

/// How much a bounded read asks the allocator for at a time.
const READ_CHUNK: usize = 512 * 1024;

/// Why an operation produced no value. `index.js` turns it into the error
/// Node would throw (`code`, `errno`, `syscall`, `path`, ...).
#[napi(object)]
#[derive(Debug, Clone, Default)]
pub struct Failure {
    /// `"sys"` (a system call failed), `"zlib"`, `"dns"`, `"busy"` (a bounded
    /// lane refused), `"panic"`, `"dropped"`, `"invalid"` or `"failed"` (the
    /// result could not be handed to JavaScript).
    pub kind: String,
    /// Node's code: `ENOENT`, `Z_DATA_ERROR`, `ENOTFOUND`, ...
    pub code: Option<String>,
    /// The system error number (positive, as the C library has it).
    pub errno: Option<i32>,
    /// The failing system call, as Node names it (`open`, `read`, `stat`).
    pub syscall: Option<String>,
    /// True when Node's error carries the path (`open` does, `read` not).
    pub with_path: Option<bool>,
    /// A message, where the kind has one of its own.
    pub message: Option<String>,
    /// The lane that refused (kind `"busy"`).
    pub lane: Option<String>,
    /// Its queue bound (kind `"busy"`), or the size limit passed (kind
    /// `"range"`: `ERR_BUFFER_TOO_LARGE`).
    pub bound: Option<f64>,
    /// The size found (kind `"range"`: `ERR_FS_FILE_TOO_LARGE`).
    pub size: Option<f64>,
}

impl Failure {
    fn new(kind: &str) -> Failure {
        Failure {
            kind: kind.into(),
            ..Failure::default()
        }
    }

    fn message(kind: &str, code: Option<&str>, message: impl Into<String>) -> Failure {
        Failure {
            code: code.map(Into::into),
            message: Some(message.into()),
            ..Failure::new(kind)
        }
    }

    /// Node's `ERR_FS_FILE_TOO_LARGE` (a `RangeError`) for a file of `size` bytes.
    fn file_too_large(size: u64) -> Failure {
        Failure {
            code: Some("ERR_FS_FILE_TOO_LARGE".into()),
            size: Some(size as f64),
            ..Failure::new("range")
        }
    }

    /// Node's `ERR_BUFFER_TOO_LARGE` (a `RangeError`) past `max` bytes.
    fn buffer_too_large(max: usize) -> Failure {
        Failure {
            code: Some("ERR_BUFFER_TOO_LARGE".into()),
            bound: Some(max as f64),
            ..Failure::new("range")
        }
    }

    /// Node's `ABORT_ERR`: the call's `signal` aborted before it ran.
    fn aborted() -> Failure {
        Failure {
            code: Some("ABORT_ERR".into()),
            ..Failure::new("aborted")
        }
    }

    fn sys(err: &std::io::Error, syscall: &str, with_path: bool) -> Failure {
        match err.raw_os_error() {
            Some(errno) => Failure {
                errno: Some(errno),
                syscall: Some(syscall.into()),
                with_path: Some(with_path),
                ..Failure::new("sys")
            },
            None => Failure::message("sys", None, format!("{syscall}: {err}")),
        }
    }
}

/// A finished operation, built on a worker (everything here is `Send`);
/// it becomes [`Out`] on the JavaScript thread.
#[derive(Debug)]
enum Done {
    Bytes(Vec<u8>),
    Stat(Vec<f64>),
    Addrs(Vec<String>),
    Fail(Failure),
    Unit,
}

impl Done {
    fn into_out(self, env: &Env) -> napi::Result<Out<'_>> {
        Ok(match self {
            Done::Bytes(b) if b.len() <= COPY_LIMIT => Either6::A(BufferSlice::copy_from(env, b)?),
            Done::Bytes(b) => Either6::B(b.into()),
            Done::Stat(f) => Either6::C(Float64ArraySlice::copy_from(env, f)?),
            Done::Addrs(a) => Either6::D(a),
            Done::Fail(f) => Either6::E(f),
            Done::Unit => Either6::F(()),
        })
    }
}

/// Owns one operation until it is settled: [`Settle::finish`] posts the
/// work's outcome to its thread's mailbox; dropping it unsettled posts a
/// `"dropped"` failure.
struct Settle {
    id: f64,
    inbox: Option<Arc<Mailbox<Letter>>>,
}

impl Settle {
    /// A new operation whose outcome goes to `inbox`.
    fn open(inbox: &Inbox) -> Settle {
        let id = inbox.next_id.replace(inbox.next_id.get() + 1.0);
        Settle {
            id,
            inbox: Some(inbox.mailbox.clone()),
        }
    }

    fn finish(mut self, done: Done) {
        if let Some(inbox) = self.inbox.take() {
            inbox.post((self.id, done));
        }
    }
}

impl Drop for Settle {
    fn drop(&mut self) {
        if let Some(inbox) = self.inbox.take() {
            let failure = Failure::message(
                "dropped",
                None,
                "the task was dropped before it ran (the pool shut down)",
            );
            inbox.post((self.id, Done::Fail(failure)));
        }
    }
}

/// Where one copy of `index.js` receives its operations' outcomes: a
/// [`Mailbox`] and the socket its bell rings. Each copy loaded in a thread
/// opens its own, so a second copy (a `require.cache` reset, jest's module
/// registry) never takes the first one's outcomes: every operation names
/// its inbox.
#[napi]
pub struct Inbox {
    mailbox: Arc<Mailbox<Letter>>,
    /// The watched end of the bell, until [`Inbox::take_fd`] hands it over.
    fd: Option<std::os::unix::net::UnixStream>,
    /// The id of this inbox's next operation.
    next_id: Cell<f64>,
}

#[napi]
impl Inbox {
    /// Opens an inbox. `index.js` watches [`Inbox::take_fd`]'s descriptor
    /// (a `net.Socket`): a byte arrives on it when outcomes are waiting for
    /// [`Inbox::drain`].
    #[napi(constructor)]
    pub fn new() -> napi::Result<Inbox> {
        let io =
            |e: std::io::Error| napi::Error::from_reason(format!("sluice: opening the inbox: {e}"));
        let (bell, watched) = UnixStream::pair().map_err(io)?;
        // A full socket buffer cannot block a worker: there is at most one
        // unread ring per drain, and a failed ring is one a pending ring covers.
        bell.set_nonblocking(true).map_err(io)?;
        let mailbox = Mailbox::new(move || {
            // EPIPE after the copy's socket closed: nobody is left to tell
            // (Node ignores SIGPIPE).
            let _ = (&bell).write(&[1]);
        });
        Ok(Inbox {
            mailbox: Arc::new(mailbox),
            fd: Some(watched),
            next_id: Cell::new(1.0),
        })
    }

    /// The descriptor to watch, once; `index.js` owns it from then on.
    #[napi]
    pub fn take_fd(&mut self) -> napi::Result<i32> {
        self.fd
            .take()
            .map(IntoRawFd::into_raw_fd)
            .ok_or_else(|| napi::Error::from_reason("sluice: the inbox's descriptor was taken"))
    }

    /// The outcomes posted since the last drain, as `[id, outcome, id,
    /// outcome, ...]`. Each outcome is converted on its own: bytes past
    /// `max_buffer` (`buffer.kMaxLength`) become Node's
    /// `ERR_BUFFER_TOO_LARGE` for that operation, and a value V8 refuses
    /// all the same (no memory for it) becomes that operation's error (the
    /// exception V8 raised); the rest of the batch is delivered as usual.
    #[napi(ts_return_type = "Array<number | unknown>")]
    pub fn drain<'env>(&self, env: &'env Env, max_buffer: f64) -> napi::Result<Array<'env>> {
        let mut letters = Vec::new();
        self.mailbox.drain(|letter| letters.push(letter));
        let too_many = || napi::Error::from_reason("sluice: too many outcomes in one drain");
        let len = u32::try_from(letters.len() * 2).map_err(|_| too_many())?;
        let mut out = env.create_array(len)?;
        for (i, (id, done)) in (0..len).step_by(2).zip(letters) {
            out.set(i, id)?;
            let value = match done {
                Done::Bytes(b) if b.len() as f64 > max_buffer => {
                    Done::Fail(Failure::buffer_too_large(max_buffer as usize))
                }
                done => done,
            };
            let converted = value.into_out(env).and_then(|v| out.set(i + 1, v));
            if let Err(e) = converted {
                match raw::take_exception(env) {
                    Some(exception) => out.set(i + 1, exception)?,
                    None => {
                        let message = format!("handing the result to JavaScript: {e}");
                        out.set(i + 1, Failure::message("failed", None, message))?;
                    }
                }
            }
        }
        Ok(out)
    }
}

/// The one thing the safe API lacks: taking the exception V8 left pending
/// when it refused a value, so that the rest of a batch can still be
/// handed over (every later napi call fails while one is pending).
#[allow(unsafe_code)]
mod raw {
    use napi::Env;
    use napi::bindgen_prelude::ToNapiValue;
    use napi::sys;

    /// A JavaScript value as napi handed it over.
    pub(crate) struct Value(sys::napi_value);

    impl ToNapiValue for Value {
        // SAFETY (of the impl): the value came from napi on the same env,
        // within the current call's handle scope, which outlives the
        // conversion; handing it back unchanged is what the trait asks.
        unsafe fn to_napi_value(_env: sys::napi_env, val: Self) -> napi::Result<sys::napi_value> {
            Ok(val.0)
        }
    }

    /// The exception pending on `env`, cleared, if there is one.
    pub(crate) fn take_exception(env: &Env) -> Option<Value> {
        let mut pending = false;
        // SAFETY: `env` is the live environment of the napi call this runs
        // in (drain, on the JavaScript thread), and `pending` is a valid
        // place for the answer.
        let status = unsafe { sys::napi_is_exception_pending(env.raw(), &mut pending) };
        if status != sys::Status::napi_ok || !pending {
            return None;
        }
        let mut exception = std::ptr::null_mut();
        // SAFETY: as above; `exception` is a valid place for the value,
        // which lives in the call's handle scope.
        let status = unsafe { sys::napi_get_and_clear_last_exception(env.raw(), &mut exception) };
        (status == sys::Status::napi_ok && !exception.is_null()).then_some(Value(exception))
    }
}

/// A flag the caller's `AbortSignal` sets: work that has not started when
/// it is set settles as `"aborted"` without running; a file read stops at
/// its next chunk.
#[napi]
pub struct Cancel {
    flag: Arc<AtomicBool>,
}

#[napi]
impl Cancel {
    /// A flag, not set.
    #[napi(constructor)]
    #[allow(clippy::new_without_default)]
    pub fn new() -> Cancel {
        Cancel {
            flag: Arc::new(AtomicBool::new(false)),
        }
    }

    /// Sets the flag (the signal aborted).
    #[napi]
    pub fn cancel(&self) {
        self.flag.store(true, Ordering::Relaxed);
    }
}

/// Reads `reader` to its end into `out`, at most `max` bytes: `Ok(false)`
/// past `max` (nothing more is read). Memory is asked for in chunks and
/// with `try_reserve`, so a read that no memory is left for fails with
/// `ENOMEM` instead of aborting the process; `cancel`, when set, stops it
/// between chunks (`Interrupted`).
fn read_bounded(
    reader: &mut impl Read,
    out: &mut Vec<u8>,
    max: usize,
    cancel: Option<&AtomicBool>,
) -> std::io::Result<bool> {
    loop {
        if cancel.is_some_and(|c| c.load(Ordering::Relaxed)) {
            return Err(std::io::ErrorKind::Interrupted.into());
        }
        if out.len() == out.capacity() {
            // One byte past `max` tells "exactly max" from "more".
            let room = max.saturating_add(1).saturating_sub(out.len());
            out.try_reserve(room.min(READ_CHUNK))
                .map_err(|_| std::io::Error::from_raw_os_error(libc_enomem()))?;
        }
        let len = out.len();
        let spare = out.capacity() - len;
        out.resize(len + spare, 0);
        match reader.read(&mut out[len..]) {
            Ok(0) => {
                out.truncate(len);
                return Ok(true);
            }
            Ok(n) => {
                out.truncate(len + n);
                if out.len() > max {
                    return Ok(false);
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => out.truncate(len),
            Err(e) => {
                out.truncate(len);
                return Err(e);
            }
        }
    }
}

/// `ENOMEM`'s number on Linux.
const fn libc_enomem() -> i32 {
    12
}

/// The panic's message, when it was a string.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "a panic without a message".into())
}

/// Runs `work` and settles the promise with its outcome. A panic settles
/// it as a `"panic"` failure and then goes on unwinding, so the pool counts
/// it (`panicked_total`) like any task's panic.
fn run_settled(settle: Settle, work: impl FnOnce() -> Done) {
    match catch_unwind(AssertUnwindSafe(work)) {
        Ok(done) => settle.finish(done),
        Err(payload) => {
            let message = panic_message(payload.as_ref());
            settle.finish(Done::Fail(Failure::message("panic", None, message)));
            std::panic::resume_unwind(payload);
        }
    }
}

/// The lane names JavaScript sees: the metrics' labels.
fn lane_name(lane: Lane) -> String {
    lane.name().to_string()
}

/// The pool, built from `SLUICE_*` environment variables at the first call
/// (or by [`warm`]) when [`configure`] was not called. A refused variable
/// is an error of its own, `ERR_SLUICE_ENV: SLUICE_X="v" ...`, that
/// `index.js` reports once, naming the variable and its value.
fn pool() -> napi::Result<&'static Pool> {
    if let Some(pool) = POOL.get() {
        return Ok(pool);
    }
    let pool = sluice::Builder::from_env()
        .and_then(|b| build(b, false))
        .map_err(|e| napi::Error::from_reason(env_message(&e)))?;
    Ok(POOL.get_or_init(|| pool))
}

/// `ERR_SLUICE_ENV` and the variable's own error for one that came from a
/// `SLUICE_*` variable, else `ERR_SLUICE_POOL` and the error.
fn env_message(err: &ConfigError) -> String {
    match err.variable() {
        Some(_) => format!("ERR_SLUICE_ENV: {err}"),
        None => format!("ERR_SLUICE_POOL: {err}"),
    }
}

/// Builds the pool of this process. Unless a `Cpu` policy was chosen
/// (`cpuSched`, `SLUICE_CPU_SCHED`), the package's default is `guarded`:
/// `SCHED_IDLE`, so that the event loop preempts a hashing worker at once,
/// and `SCHED_OTHER` at the process's nice value while another process
/// starves the lane. A
/// process that may not take a thread out of `SCHED_IDLE` (no
/// `CAP_SYS_NICE`, `ulimit -e` below 20 - nice) gets the library's default,
/// `normal`; `metricsJson().pool.cpu_sched` says which is in force.
fn build(b: sluice::Builder, chosen: bool) -> Result<Pool, ConfigError> {
    // An empty variable is an unset one, as `Builder::from_env` reads it.
    let chosen = chosen || std::env::var_os("SLUICE_CPU_SCHED").is_some_and(|v| !v.is_empty());
    if !chosen {
        match b.clone().cpu_sched(CpuSched::Guarded).build() {
            Err(ConfigError::Refused { .. }) => {}
            built => return built,
        }
    }
    b.build()
}

/// A `cpuSched` option: `normal`, `batch`, `idle` or `guarded`.
fn parse_cpu_sched(raw: &str) -> napi::Result<CpuSched> {
    match raw {
        "normal" => Ok(CpuSched::Normal),
        "batch" => Ok(CpuSched::Batch),
        "idle" => Ok(CpuSched::Idle),
        "guarded" => Ok(CpuSched::Guarded),
        other => Err(napi::Error::from_reason(format!(
            "ERR_INVALID_ARG_VALUE: option \"cpuSched\" = {other:?} is not accepted; expected 'normal', 'batch', 'idle' or 'guarded'"
        ))),
    }
}

/// Submits `work` to `lane` and returns the operation's id. A bounded lane
/// that is full settles it at once with a `"busy"` failure.
fn submit(
    inbox: &Inbox,
    lane: Lane,
    work: impl FnOnce() -> Done + Send + 'static,
) -> napi::Result<f64> {
    let pool = pool()?;
    let settle = Settle::open(inbox);
    let id = settle.id;
    match pool.try_reserve(lane) {
        Ok(place) => drop(place.spawn(move || run_settled(settle, work))),
        Err(busy) => settle.finish(Done::Fail(Failure {
            lane: Some(lane_name(busy.lane())),
            bound: Some(busy.bound() as f64),
            ..Failure::new("busy")
        })),
    }
    Ok(id)
}

/// The pool's settings, all optional; `index.js` has checked their types.
#[napi(object)]
#[derive(Debug, Clone, Default)]
pub struct PoolOptions {
    /// Threads of the `Cpu` lane.
    pub cpu: Option<u32>,
    /// Threads of the `FastIo` lane.
    pub fast_io: Option<u32>,
    /// Threads of the `SlowIo` lane.
    pub slow_io: Option<u32>,
    /// Queue bound of the `Cpu` lane.
    pub cpu_queue_bound: Option<u32>,
    /// Queue bound of the `FastIo` lane.
    pub fast_io_queue_bound: Option<u32>,
    /// Queue bound of the `SlowIo` lane.
    pub slow_io_queue_bound: Option<u32>,
    /// Worker stack size in bytes.
    pub stack_size: Option<u32>,
    /// Nice value of the `Cpu` workers.
    pub cpu_nice: Option<u32>,
    /// Scheduling policy of the `Cpu` workers: `normal`, `batch` or `idle`
    /// (unset: `SLUICE_CPU_SCHED`, else the library's `normal` at nice 10).
    pub cpu_sched: Option<String>,
}

/// The JavaScript option of a builder setting.
fn option_name(knob: sluice::Knob) -> Option<&'static str> {
    use sluice::Knob;
    Some(match knob {
        Knob::Threads(Some(Lane::Cpu)) => "cpu",
        Knob::Threads(Some(Lane::FastIo)) => "fastIo",
        Knob::Threads(Some(Lane::SlowIo)) => "slowIo",
        Knob::QueueBound(Some(Lane::Cpu)) => "cpuQueueBound",
        Knob::QueueBound(Some(Lane::FastIo)) => "fastIoQueueBound",
        Knob::QueueBound(Some(Lane::SlowIo)) => "slowIoQueueBound",
        Knob::StackSize => "stackSize",
        Knob::CpuNice => "cpuNice",
        Knob::CpuSched => "cpuSched",
        _ => return None,
    })
}

/// A refused setting, in JavaScript's words: `option "cpu" = 99 is out of
/// range; expected 1..=2 (...)`.
fn config_message(err: &ConfigError) -> String {
    // A value from a `SLUICE_*` variable is named by its variable.
    let option = err
        .variable()
        .is_none()
        .then(|| err.knob().and_then(option_name))
        .flatten();
    match (err, option) {
        (
            ConfigError::OutOfRange {
                value,
                expected,
                why,
                ..
            },
            Some(option),
        ) => format!("option \"{option}\" = {value} is out of range; expected {expected}{why}"),
        (
            ConfigError::NotANumber {
                value, expected, ..
            },
            Some(option),
        ) => format!("option \"{option}\" = {value:?} is not a number; expected {expected}"),
        (other, _) => other.to_string(),
    }
}

/// Builds the process's pool with `options` on top of the `SLUICE_*`
/// environment variables. Fails, naming the option, for a refused value,
/// and fails if the pool exists already (configured, or built by a call).
#[napi]
pub fn configure(options: PoolOptions) -> napi::Result<()> {
    if POOL.get().is_some() {
        return Err(napi::Error::from_reason(
            "ERR_SLUICE_CONFIGURED: sluice.configure() must run before the first sluice call and only once; the pool of this process is already built",
        ));
    }
    let mut b =
        sluice::Builder::from_env().map_err(|e| napi::Error::from_reason(env_message(&e)))?;
    let lanes = [Lane::Cpu, Lane::FastIo, Lane::SlowIo];
    let threads = [options.cpu, options.fast_io, options.slow_io];
    let bounds = [
        options.cpu_queue_bound,
        options.fast_io_queue_bound,
        options.slow_io_queue_bound,
    ];
    for ((lane, n), bound) in lanes.into_iter().zip(threads).zip(bounds) {
        if let Some(n) = n {
            b = b.threads(lane, n as usize);
        }
        if let Some(bound) = bound {
            b = b.queue_bound(lane, bound as usize);
        }
    }
    if let Some(bytes) = options.stack_size {
        b = b.stack_size(bytes as usize);
    }
    if let Some(nice) = options.cpu_nice {
        let nice = u8::try_from(nice).map_err(|_| {
            napi::Error::from_reason(format!(
                "ERR_OUT_OF_RANGE: option \"cpuNice\" = {nice} is out of range; expected 0..=19"
            ))
        })?;
        b = b.cpu_nice(nice);
    }
    if let Some(sched) = &options.cpu_sched {
        b = b.cpu_sched(parse_cpu_sched(sched)?);
    }
    let pool = build(b, options.cpu_sched.is_some()).map_err(|e| {
        let message = config_message(&e);
        napi::Error::from_reason(match e.variable() {
            Some(_) => format!("ERR_SLUICE_ENV: {message}"),
            None => format!("ERR_OUT_OF_RANGE: {message}"),
        })
    })?;
    if POOL.set(pool).is_err() {
        return Err(napi::Error::from_reason(
            "ERR_SLUICE_CONFIGURED: sluice.configure() raced another thread's first use; the pool of this process is already built",
        ));
    }
    warm()
}

/// A `SLUICE_*` variable the pool refuses.
#[napi(object)]
#[derive(Debug, Clone)]
pub struct EnvProblem {
    /// The variable, `SLUICE_CPU_THREADS`.
    pub variable: String,
    /// Its value, as set.
    pub value: Option<String>,
    /// The pool's error, naming both: `SLUICE_CPU_THREADS="4" is out of range; ...`.
    pub message: String,
}

/// Whether the `SLUICE_*` variables build a pool, before anything is run:
/// the variable the pool refuses, or nothing (also once the pool exists).
/// `index.js` asks when it loads, and reports a refusal once.
#[napi]
pub fn check_env() -> Option<EnvProblem> {
    if POOL.get().is_some() {
        return None;
    }
    // No thread starts in `build`: the pool made here is dropped unused.
    let err = sluice::Builder::from_env()
        .and_then(|b| build(b, false))
        .err()?;
    let variable = err.variable()?.to_string();
    let value = match &err {
        ConfigError::NotANumber { value, .. }
        | ConfigError::NotUnicode { value, .. }
        | ConfigError::OutOfRange { value, .. }
        | ConfigError::NotAccepted { value, .. } => Some(value.clone()),
        _ => None,
    };
    Some(EnvProblem {
        variable,
        value,
        message: err.to_string(),
    })
}

/// Makes the first call as fast as the next ones: builds the pool (from
/// `SLUICE_*`, unless [`configure`] built it), starts a `FastIo` worker
/// with one task that reads `/proc/self/comm` as `readFile` reads (counted
/// in the lane's totals; the worker then waits for work for the lane's
/// keep-alive), and builds the DNS runtime and the resolver (reading
/// `/etc/hosts` and `/etc/resolv.conf`), which looks `localhost` up once
/// (counted in the resolver's totals). The
/// `Cpu` lane is left alone: its first task pays for a thread start, which
/// hashing and compression do not notice.
/// `index.js` calls it once the tick that loaded it has ended, unless
/// `configure` ran first (which calls it itself); the empty task runs once
/// per process. Fails as `pool` does.
#[napi]
pub fn warm() -> napi::Result<()> {
    static WARMED: std::sync::Once = std::sync::Once::new();
    let pool = pool()?;
    // Once per process, whichever thread or copy of `index.js` asks first.
    WARMED.call_once(|| {
        // A read of the readFile path's own code (its pages are faulted in
        // here, not on the first call), of a file every process has.
        if let Ok(place) = pool.try_reserve(Lane::FastIo) {
            drop(place.spawn(|| drop(read_whole("/proc/self/comm", None))));
        }
        // The runtime's and resolver's errors are the first lookup's to
        // report. One lookup of `localhost` (answered from the hosts file)
        // runs the lookup path once, and starts the runtime's thread.
        if let (Ok(rt), Ok(resolver)) = (runtime(), resolver()) {
            drop(rt.spawn(async move {
                let _ = resolver.lookup("localhost", Family::Any).await;
            }));
        }
    });
    Ok(())
}

/// True once the pool exists (configured or used).
#[napi]
pub fn is_configured() -> bool {
    POOL.get().is_some()
}

/// How the addon was compiled: `"release"` (`npm run build`) or `"debug"`
/// (`npm run build:debug`, unoptimised: its hashes and gzip run many times
/// slower, so a debug addon is for tests, not for measurements).
#[napi]
pub fn build_profile() -> &'static str {
    // Read through `black_box` so the whole mark stays in the file:
    // `scripts/prebuild.js` finds it in a cross-built addon it cannot load.
    let mark: &'static str = std::hint::black_box(PROFILE_MARK);
    mark.rsplit_once('=').map_or(mark, |(_, profile)| profile)
}

/// The build profile as the addon's bytes say it, for packaging scripts
/// that check a file without loading it.
const PROFILE_MARK: &str = if cfg!(debug_assertions) {
    "sluice-addon-build-profile=debug"
} else {
    "sluice-addon-build-profile=release"
};

/// `crypto.pbkdf2` on the `Cpu` lane; `digest` is `sha1`, `sha256` or `sha512`.
#[napi]
pub fn pbkdf2(
    inbox: &Inbox,
    password: Buffer,
    salt: Buffer,
    iterations: u32,
    keylen: u32,
    digest: String,
) -> napi::Result<f64> {
    let digest: Digest = digest
        .parse()
        .map_err(|e: crypto::CryptoError| napi::Error::from_reason(e.to_string()))?;
    let (password, salt) = (password.to_vec(), salt.to_vec());
    submit(inbox, Lane::Cpu, move || {
        match crypto::pbkdf2_sync(&password, &salt, iterations, keylen as usize, digest) {
            Ok(key) => Done::Bytes(key),
            Err(e) => Done::Fail(Failure::message("invalid", None, e.to_string())),
        }
    })
}

/// `crypto.scrypt` on the `Cpu` lane (`n` a power of two; `index.js` has
/// checked the parameters against the memory limit).
#[napi]
pub fn scrypt(
    inbox: &Inbox,
    password: Buffer,
    salt: Buffer,
    keylen: u32,
    n: u32,
    r: u32,
    p: u32,
) -> napi::Result<f64> {
    let (password, salt) = (password.to_vec(), salt.to_vec());
    submit(inbox, Lane::Cpu, move || {
        if n < 2 || !n.is_power_of_two() {
            return Done::Fail(Failure::message(
                "invalid",
                None,
                format!("scrypt N = {n}; expected a power of two greater than 1"),
            ));
        }
        let log_n = n.trailing_zeros() as u8;
        // OpenSSL's (and so Node's) bound N < 2^(16 r), which scrypt 0.12
        // no longer checks.
        if u64::from(log_n) >= 16 * u64::from(r) {
            let message = format!("scrypt N = {n}, r = {r}: expected N below 2^(16 r)");
            return Done::Fail(Failure::message("invalid", None, message));
        }
        let params = match scrypt::Params::new(log_n, r, p) {
            Ok(params) => params,
            Err(e) => {
                let message = format!("scrypt N = {n}, r = {r}, p = {p}: {e}");
                return Done::Fail(Failure::message("invalid", None, message));
            }
        };
        let mut out = vec![0u8; keylen as usize];
        match scrypt::scrypt(&password, &salt, &params, &mut out) {
            Ok(()) => Done::Bytes(out),
            Err(e) => Done::Fail(Failure::message("invalid", None, e.to_string())),
        }
    })
}

/// `crypto.randomBytes(size)` on the `Cpu` lane.
#[napi]
pub fn random_bytes(inbox: &Inbox, size: u32) -> napi::Result<f64> {
    submit(inbox, Lane::Cpu, move || {
        let mut out = vec![0u8; size as usize];
        match getrandom::fill(&mut out) {
            Ok(()) => Done::Bytes(out),
            Err(e) => Done::Fail(Failure::message(
                "invalid",
                None,
                format!("random source: {e}"),
            )),
        }
    })
}

/// `zlib.gzip(buffer, { level })` on the `Cpu` lane; `level` -1 is zlib's
/// default (6).
#[napi]
pub fn gzip(inbox: &Inbox, data: Buffer, level: i32) -> napi::Result<f64> {
    let level = if level < 0 {
        sluice::zlib::DEFAULT_LEVEL
    } else {
        level.unsigned_abs()
    };
    let data = data.to_vec();
    submit(inbox, Lane::Cpu, move || {
        match sluice::zlib::gzip_sync(&data, level) {
            Ok(packed) => Done::Bytes(packed),
            Err(e) => Done::Fail(Failure::message("invalid", None, e.to_string())),
        }
    })
}

/// `zlib.gunzip(buffer, { maxOutputLength })` on the `Cpu` lane, with
/// Node's rules and messages (`sluice::zlib::gunzip_sync`: members in turn,
/// zero padding ends the data, other trailing bytes are read as a member).
/// Output past `max_output` bytes (the caller's `maxOutputLength`, else
/// `buffer.kMaxLength`) stops the inflation with Node's
/// `ERR_BUFFER_TOO_LARGE`.
#[napi]
pub fn gunzip(inbox: &Inbox, data: Buffer, max_output: f64) -> napi::Result<f64> {
    let data = data.to_vec();
    // A limit past the address space is no limit at all.
    let max = if max_output >= usize::MAX as f64 {
        usize::MAX
    } else {
        max_output.max(0.0) as usize
    };
    submit(inbox, Lane::Cpu, move || gunzip_members(&data, max))
}

fn gunzip_members(data: &[u8], max: usize) -> Done {
    use sluice::zlib::GunzipError;
    match sluice::zlib::gunzip_sync(data, max) {
        Ok(out) => Done::Bytes(out),
        Err(GunzipError::TooLarge { .. }) => Done::Fail(Failure::buffer_too_large(max)),
        Err(GunzipError::NoMemory) => Done::Fail(Failure::sys(
            &std::io::Error::from_raw_os_error(libc_enomem()),
            "inflate",
            false,
        )),
        Err(e) => Done::Fail(Failure::message("zlib", Some(e.code()), e.to_string())),
    }
}

/// `fs.readFile(path)` on the `FastIo` lane: `open` (the error names the
/// path), `fstat`, then `read` (it does not name it, as in Node). As in
/// Node, a file over 2 GiB is refused with `ERR_FS_FILE_TOO_LARGE`: by its
/// size before anything is allocated, or, for a file whose size `fstat`
/// does not tell (a pipe, `/proc`), once the read passes 2 GiB. `cancel`
/// (the caller's `signal`) stops it before it opens the file or between
/// chunks.
#[napi]
pub fn read_file(inbox: &Inbox, path: String, cancel: Option<&Cancel>) -> napi::Result<f64> {
    let cancel = cancel.map(|c| c.flag.clone());
    submit(inbox, Lane::FastIo, move || {
        read_whole(&path, cancel.as_deref())
    })
}

/// `read_file`'s work, on the worker.
fn read_whole(path: &str, cancel: Option<&AtomicBool>) -> Done {
    {
        let cancelled = || cancel.is_some_and(|c| c.load(Ordering::Relaxed));
        if cancelled() {
            return Done::Fail(Failure::aborted());
        }
        let mut file = match std::fs::File::open(path) {
            Ok(f) => f,
            Err(e) => return Done::Fail(Failure::sys(&e, "open", true)),
        };
        let size = match file.metadata() {
            Ok(m) if m.is_file() => m.len(),
            Ok(_) => 0,
            Err(e) => return Done::Fail(Failure::sys(&e, "fstat", false)),
        };
        if size > IO_MAX_LENGTH {
            return Done::Fail(Failure::file_too_large(size));
        }
        let mut bytes = Vec::new();
        // The size, and one byte to see the end (a file that grew reads on).
        if bytes.try_reserve_exact(size as usize + 1).is_err() {
            let e = std::io::Error::from_raw_os_error(libc_enomem());
            return Done::Fail(Failure::sys(&e, "read", false));
        }
        let max = IO_MAX_LENGTH as usize;
        match read_bounded(&mut file, &mut bytes, max, cancel) {
            Ok(true) => Done::Bytes(bytes),
            Ok(false) => Done::Fail(Failure::file_too_large(bytes.len() as u64)),
            Err(_) if cancelled() => Done::Fail(Failure::aborted()),
            Err(e) => Done::Fail(Failure::sys(&e, "read", false)),
        }
    }
}

/// `fs.stat(path)` on the `FastIo` lane: the fields in the order of Node's
/// `Stats` constructor, each time as seconds and nanoseconds.
#[napi]
pub fn stat(inbox: &Inbox, path: String) -> napi::Result<f64> {
    submit(inbox, Lane::FastIo, move || {
        match std::fs::metadata(&path) {
            Ok(m) => Done::Stat(stat_fields(&m)),
            Err(e) => Done::Fail(Failure::sys(&e, "stat", true)),
        }
    })
}

/// dev, mode, nlink, uid, gid, rdev, blksize, ino, size, blocks, then
/// (seconds, nanoseconds) of atime, mtime, ctime, birthtime.
fn stat_fields(m: &std::fs::Metadata) -> Vec<f64> {
    use std::os::unix::fs::MetadataExt;
    let birth = m
        .created()
        .ok()
        .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
        .map(|d| (d.as_secs() as f64, f64::from(d.subsec_nanos())))
        .unwrap_or((0.0, 0.0));
    vec![
        m.dev() as f64,
        f64::from(m.mode()),
        m.nlink() as f64,
        f64::from(m.uid()),
        f64::from(m.gid()),
        m.rdev() as f64,
        m.blksize() as f64,
        m.ino() as f64,
        m.size() as f64,
        m.blocks() as f64,
        m.atime() as f64,
        m.atime_nsec() as f64,
        m.mtime() as f64,
        m.mtime_nsec() as f64,
        m.ctime() as f64,
        m.ctime_nsec() as f64,
        birth.0,
        birth.1,
    ]
}

fn runtime() -> Result<&'static tokio::runtime::Runtime, String> {
    RUNTIME
        .get_or_init(|| {
            tokio::runtime::Builder::new_multi_thread()
                .worker_threads(1)
                .thread_name("sluice-dns")
                .enable_all()
                .build()
                .map_err(|e| format!("sluice: the DNS runtime could not start: {e}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

fn resolver() -> Result<&'static Resolver, String> {
    RESOLVER
        .get_or_init(|| {
            let pool = pool().map_err(|e| e.reason.clone())?;
            sluice_dns::Builder::system()
                .and_then(|b| b.fallback_pool(pool.clone()).build())
                .map_err(|e| format!("sluice: {e}"))
        })
        .as_ref()
        .map_err(Clone::clone)
}

/// Node's code for a failed lookup (`getaddrinfo`'s, as Node renames it).
fn dns_failure(err: &DnsError) -> Failure {
    let code = match err {
        DnsError::NotFound { .. } | DnsError::InvalidName { .. } => "ENOTFOUND",
        DnsError::AddressFamily { .. } => "EAI_ADDRFAMILY",
        DnsError::Timeout { .. } => "EAI_AGAIN",
        _ => "EAI_FAIL",
    };
    Failure::message("dns", Some(code), err.to_string())
}

/// libuv's `uv_getaddrinfo` copies the name into a 256-byte buffer: a name
/// that does not fit with its NUL is `EINVAL`, before any lookup.
const LIBUV_MAX_HOST: usize = 256;

/// `dns.lookup(host, { family })` through `sluice_dns` on the addon's
/// tokio runtime: no pool thread waits on a name server. `family` is 0, 4
/// or 6; the addresses come back in the resolver's order.
#[napi]
pub fn lookup(inbox: &Inbox, host: String, family: u32) -> napi::Result<f64> {
    let family = match family {
        4 => Family::V4,
        6 => Family::V6,
        _ => Family::Any,
    };
    let settle = Settle::open(inbox);
    let id = settle.id;
    if host.len() >= LIBUV_MAX_HOST {
        let message =
            format!("getaddrinfo EINVAL {host}: libuv refuses names of 256 bytes or more");
        settle.finish(Done::Fail(Failure::message("dns", Some("EINVAL"), message)));
        return Ok(id);
    }
    let (runtime, resolver) = match runtime().and_then(|rt| Ok((rt, resolver()?))) {
        Ok(both) => both,
        Err(message) => {
            settle.finish(Done::Fail(Failure::message(
                "dns",
                Some("EAI_FAIL"),
                message,
            )));
            return Ok(id);
        }
    };
    runtime.spawn(async move {
        let done = match resolver.lookup(&host, family).await {
            Ok(addrs) => Done::Addrs(addrs.iter().map(ToString::to_string).collect()),
            Err(e) => Done::Fail(dns_failure(&e)),
        };
        settle.finish(done);
    });
    Ok(id)
}

/// The cheapest task there is, on the `FastIo` lane: what a round trip
/// from JavaScript to a sluice worker and back costs.
#[napi]
pub fn noop(inbox: &Inbox) -> napi::Result<f64> {
    submit(inbox, Lane::FastIo, || Done::Unit)
}

/// A task that panics on the `Cpu` lane: the test of "a panic becomes a
/// rejected promise".
#[napi]
pub fn panic_for_test(inbox: &Inbox, message: String) -> napi::Result<f64> {
    submit(inbox, Lane::Cpu, move || panic!("{message}"))
}

/// An outcome of `len` zero bytes, allocated untouched (the kernel maps
/// zero pages only when they are read): the test of a result past
/// `buffer.kMaxLength` that V8 refuses, which must settle its own call
/// with an error and leave the rest of the batch alone.
#[napi]
pub fn oversized_for_test(inbox: &Inbox, len: f64) -> napi::Result<f64> {
    let len = len as usize;
    submit(inbox, Lane::FastIo, move || Done::Bytes(vec![0u8; len]))
}

/// The pool's metrics as Prometheus text (OpenMetrics), `index.js` turns
/// it into text that appends to prom-client's.
#[napi]
pub fn metrics_text() -> napi::Result<String> {
    Ok(pool()?.metrics().to_prometheus())
}

/// The pool's metrics and, once a lookup ran, the resolver's, as JSON:
/// `{"pool": ..., "dns": ... | null}`.
#[napi]
pub fn metrics_json() -> napi::Result<String> {
    let pool = pool()?.metrics().to_json();
    let dns = match RESOLVER.get() {
        Some(Ok(r)) => serde_json::to_string(&r.metrics())
            .map_err(|e| napi::Error::from_reason(e.to_string()))?,
        _ => "null".into(),
    };
    Ok(format!("{{\"pool\":{pool},\"dns\":{dns}}}"))
}
