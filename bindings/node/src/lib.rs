//! The native half of the `sluice` npm package: a Node-API addon (napi-rs)
//! that runs Node's pool work on sluice's lanes.
//!
//! `index.js` checks every argument, builds Node's result shapes and error
//! objects, and calls the functions here with clean values. Each operation
//! returns an id at once (`index.js` keys its promise by it) and runs on a
//! sluice lane; when the work is done, its outcome is posted to the calling
//! JavaScript thread's [`Mailbox`], whose bell is one byte written to a
//! socket pair. `index.js` watches the other end (a `net.Socket`, ref'd only
//! while operations are in flight, so an idle pool never keeps Node alive)
//! and on each ring calls [`drain`], which hands back every outcome posted
//! since the last one.
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
//! "never settled" impossible.

use napi::Env;
use napi::bindgen_prelude::{Buffer, BufferSlice, Either, Either6, Float64ArraySlice};
use napi_derive::napi;
use sluice::crypto::{self, Digest};
use sluice::mailbox::Mailbox;
use sluice::zlib::Checkpointed;
use sluice::{ConfigError, CpuSched, Lane, Pool};
use sluice_dns::{DnsError, Family, Resolver};
use std::cell::{Cell, RefCell};
use std::io::{Read, Write};
use std::os::fd::IntoRawFd;
use std::os::unix::net::UnixStream;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, OnceLock};

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

/// An operation's id and its outcome, posted to the mailbox of the
/// JavaScript thread that started it.
type Letter = (f64, Done);

thread_local! {
    /// This JavaScript thread's mailbox (the main thread and each
    /// `worker_thread` run on their own OS thread), opened by [`open_inbox`].
    static INBOX: RefCell<Option<Arc<Mailbox<Letter>>>> = const { RefCell::new(None) };
    /// The id of this thread's next operation.
    static NEXT_ID: Cell<f64> = const { Cell::new(1.0) };
}

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
    /// Its queue bound (kind `"busy"`).
    pub bound: Option<f64>,
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
    /// A new operation of the calling JavaScript thread.
    fn open() -> napi::Result<Settle> {
        let inbox = INBOX.with_borrow(Clone::clone).ok_or_else(|| {
            napi::Error::from_reason(
                "sluice: this thread has no inbox; load the addon through index.js",
            )
        })?;
        let id = NEXT_ID.replace(NEXT_ID.get() + 1.0);
        Ok(Settle {
            id,
            inbox: Some(inbox),
        })
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

/// Opens this JavaScript thread's mailbox and returns the file descriptor
/// `index.js` watches (a `net.Socket`): a byte arrives on it when outcomes
/// are waiting for [`drain`]. Called once per thread, when `index.js` loads;
/// `index.js` owns the descriptor from then on.
#[napi]
pub fn open_inbox() -> napi::Result<i32> {
    let io =
        |e: std::io::Error| napi::Error::from_reason(format!("sluice: opening the inbox: {e}"));
    let (bell, watched) = UnixStream::pair().map_err(io)?;
    // A full socket buffer cannot block a worker: there is at most one
    // unread ring per drain, and a failed ring is one a pending ring covers.
    bell.set_nonblocking(true).map_err(io)?;
    let mailbox = Mailbox::new(move || {
        // EPIPE after the thread's environment closed its end: nobody is
        // left to tell (Node ignores SIGPIPE).
        let _ = (&bell).write(&[1]);
    });
    INBOX.set(Some(Arc::new(mailbox)));
    Ok(watched.into_raw_fd())
}

/// The outcomes posted to this thread's mailbox since the last drain, as
/// `[id, outcome, id, outcome, ...]`. `index.js` calls it when the bell
/// rings.
#[napi]
pub fn drain(env: &Env) -> Vec<Either<f64, Out<'_>>> {
    let mut letters = Vec::new();
    INBOX.with_borrow(|inbox| {
        if let Some(inbox) = inbox {
            inbox.drain(|(id, done)| {
                // A result V8 cannot take (no memory for its buffer) still
                // settles its operation: as a failure that says so.
                let out = done.into_out(env).unwrap_or_else(|e| {
                    let message = format!("handing the result to JavaScript: {e}");
                    Either6::E(Failure::message("failed", None, message))
                });
                letters.push(Either::A(id));
                letters.push(Either::B(out));
            });
        }
    });
    letters
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
/// when [`configure`] was not called.
fn pool() -> napi::Result<&'static Pool> {
    if let Some(pool) = POOL.get() {
        return Ok(pool);
    }
    let pool = sluice::Builder::from_env()
        .and_then(|b| build(b, false))
        .map_err(|e| napi::Error::from_reason(format!("sluice: {e}")))?;
    Ok(POOL.get_or_init(|| pool))
}

/// Builds the pool of this process. Unless a `Cpu` policy was chosen
/// (`cpuSched`, `SLUICE_CPU_SCHED`), the package's default is `guarded`:
/// `SCHED_IDLE`, so that the event loop preempts a hashing worker at once,
/// and `SCHED_OTHER` at nice 10 while another process starves the lane. A
/// process that may not take a thread out of `SCHED_IDLE` (no
/// `CAP_SYS_NICE`, `ulimit -e` below 20 - nice) gets the library's default,
/// `normal`; `metricsJson().pool.cpu_sched` says which is in force.
fn build(b: sluice::Builder, chosen: bool) -> Result<Pool, ConfigError> {
    let chosen = chosen || std::env::var_os("SLUICE_CPU_SCHED").is_some();
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
fn submit(lane: Lane, work: impl FnOnce() -> Done + Send + 'static) -> napi::Result<f64> {
    let pool = pool()?;
    let settle = Settle::open()?;
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

/// The JavaScript option a builder setting came from.
fn option_name(setting: &str) -> &str {
    match setting {
        "threads(Lane::Cpu)" => "cpu",
        "threads(Lane::FastIo)" => "fastIo",
        "threads(Lane::SlowIo)" => "slowIo",
        "queue_bound(Lane::Cpu)" => "cpuQueueBound",
        "queue_bound(Lane::FastIo)" => "fastIoQueueBound",
        "queue_bound(Lane::SlowIo)" => "slowIoQueueBound",
        "stack_size" => "stackSize",
        "cpu_nice" => "cpuNice",
        "cpu_sched" => "cpuSched",
        other => other,
    }
}

/// A refused setting, in JavaScript's words: `option "cpu" = 99 is out of
/// range; expected 1..=2 (...)`.
fn config_message(err: &ConfigError) -> String {
    match err {
        ConfigError::OutOfRange {
            setting,
            value,
            expected,
            why,
        } => format!(
            "option \"{}\" = {value} is out of range; expected {expected}{why}",
            option_name(setting)
        ),
        ConfigError::NotANumber {
            setting,
            value,
            expected,
        } => format!(
            "option \"{}\" = {value:?} is not a number; expected {expected}",
            option_name(setting)
        ),
        other => other.to_string(),
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
    let mut b = sluice::Builder::from_env()
        .map_err(|e| napi::Error::from_reason(format!("ERR_OUT_OF_RANGE: {e}")))?;
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
        napi::Error::from_reason(format!("ERR_OUT_OF_RANGE: {}", config_message(&e)))
    })?;
    if POOL.set(pool).is_err() {
        return Err(napi::Error::from_reason(
            "ERR_SLUICE_CONFIGURED: sluice.configure() raced another thread's first use; the pool of this process is already built",
        ));
    }
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
    submit(Lane::Cpu, move || {
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
    password: Buffer,
    salt: Buffer,
    keylen: u32,
    n: u32,
    r: u32,
    p: u32,
) -> napi::Result<f64> {
    let (password, salt) = (password.to_vec(), salt.to_vec());
    submit(Lane::Cpu, move || {
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
pub fn random_bytes(size: u32) -> napi::Result<f64> {
    submit(Lane::Cpu, move || {
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
pub fn gzip(data: Buffer, level: i32) -> napi::Result<f64> {
    let level = if level < 0 {
        sluice::zlib::DEFAULT_LEVEL
    } else {
        level.unsigned_abs()
    };
    let data = data.to_vec();
    submit(Lane::Cpu, move || {
        match sluice::zlib::gzip_sync(&data, level) {
            Ok(packed) => Done::Bytes(packed),
            Err(e) => Done::Fail(Failure::message("invalid", None, e.to_string())),
        }
    })
}

/// `zlib.gunzip(buffer)` on the `Cpu` lane, with Node's rules: members are
/// read in turn until the input ends; bytes after a member that do not
/// start another are `incorrect header check`, as in Node.
#[napi]
pub fn gunzip(data: Buffer) -> napi::Result<f64> {
    let data = data.to_vec();
    submit(Lane::Cpu, move || gunzip_members(&data))
}

fn zlib_failure(code: &str, message: &str) -> Done {
    Done::Fail(Failure::message("zlib", Some(code), message))
}

fn gunzip_members(data: &[u8]) -> Done {
    if data.is_empty() {
        return zlib_failure("Z_BUF_ERROR", "unexpected end of file");
    }
    let mut out = Vec::with_capacity(data.len().saturating_mul(3));
    let mut rest = data;
    loop {
        if rest.len() >= 2 && (rest[0] != 0x1f || rest[1] != 0x8b) {
            return zlib_failure("Z_DATA_ERROR", "incorrect header check");
        }
        let mut member = Checkpointed::new(flate2::bufread::GzDecoder::new(rest));
        if let Err(e) = member.read_to_end(&mut out) {
            let text = e.to_string();
            return if e.kind() == std::io::ErrorKind::UnexpectedEof {
                zlib_failure("Z_BUF_ERROR", "unexpected end of file")
            } else if text.contains("checksum") {
                zlib_failure("Z_DATA_ERROR", "incorrect data check")
            } else if text.contains("header") {
                zlib_failure("Z_DATA_ERROR", "incorrect header check")
            } else {
                zlib_failure("Z_DATA_ERROR", &text)
            };
        }
        rest = member.into_inner().into_inner();
        if rest.is_empty() {
            return Done::Bytes(out);
        }
    }
}

/// `fs.readFile(path)` on the `FastIo` lane: `open` (the error names the
/// path), then `read` (it does not, as in Node).
#[napi]
pub fn read_file(path: String) -> napi::Result<f64> {
    submit(Lane::FastIo, move || {
        let mut file = match std::fs::File::open(&path) {
            Ok(f) => f,
            Err(e) => return Done::Fail(Failure::sys(&e, "open", true)),
        };
        let mut bytes = Vec::new();
        match file.read_to_end(&mut bytes) {
            Ok(_) => Done::Bytes(bytes),
            Err(e) => Done::Fail(Failure::sys(&e, "read", false)),
        }
    })
}

/// `fs.stat(path)` on the `FastIo` lane: the fields in the order of Node's
/// `Stats` constructor, each time as seconds and nanoseconds.
#[napi]
pub fn stat(path: String) -> napi::Result<f64> {
    submit(Lane::FastIo, move || match std::fs::metadata(&path) {
        Ok(m) => Done::Stat(stat_fields(&m)),
        Err(e) => Done::Fail(Failure::sys(&e, "stat", true)),
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
        DnsError::Timeout { .. } => "EAI_AGAIN",
        _ => "EAI_FAIL",
    };
    Failure::message("dns", Some(code), err.to_string())
}

/// `dns.lookup(host, { family })` through `sluice::dns` on the addon's
/// tokio runtime: no pool thread waits on a name server. `family` is 0, 4
/// or 6; the addresses come back in the resolver's order.
#[napi]
pub fn lookup(host: String, family: u32) -> napi::Result<f64> {
    let family = match family {
        4 => Family::V4,
        6 => Family::V6,
        _ => Family::Any,
    };
    let settle = Settle::open()?;
    let id = settle.id;
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
pub fn noop() -> napi::Result<f64> {
    submit(Lane::FastIo, || Done::Unit)
}

/// A task that panics on the `Cpu` lane: the test of "a panic becomes a
/// rejected promise".
#[napi]
pub fn panic_for_test(message: String) -> napi::Result<f64> {
    submit(Lane::Cpu, move || panic!("{message}"))
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
