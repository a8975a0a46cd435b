//! What an operation hands back: `Done`, built on a worker, and
//! [`Failure`], why it produced no value; on the JavaScript thread a `Done`
//! becomes numbers in the drain's slab (`stat` fields, or nothing) or
//! `Out`, a value napi converts.

use napi::Env;
use napi::bindgen_prelude::{Buffer, BufferSlice, Either4};
use napi_derive::napi;

/// What an operation gives JavaScript as a value of its own: bytes (copied
/// into a buffer of V8's own up to [`COPY_LIMIT`], handed over beyond it),
/// addresses, or a failure. `stat` fields and "nothing" are no value: they
/// are written into the drain's slab (`Inbox::drain`).
pub(crate) type Out<'env> = Either4<BufferSlice<'env>, Buffer, Vec<String>, Failure>;

/// The numbers of one `stat` outcome (`fs::stat_fields`).
pub(crate) const STAT_FIELDS: usize = 18;

/// The largest result copied into a buffer V8 allocates. A buffer that
/// takes over Rust's allocation instead needs a finalizer, and Node runs
/// finalizers after the garbage collector, on a later turn of the loop: for
/// a small result the copy is the cheaper of the two.
pub(crate) const COPY_LIMIT: usize = 64 * 1024;

/// Why an operation produced no value. `lib/errors.js` turns it into the error
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
    pub(crate) fn new(kind: &str) -> Failure {
        Failure {
            kind: kind.into(),
            ..Failure::default()
        }
    }

    pub(crate) fn message(kind: &str, code: Option<&str>, message: impl Into<String>) -> Failure {
        Failure {
            code: code.map(Into::into),
            message: Some(message.into()),
            ..Failure::new(kind)
        }
    }

    /// Node's `ERR_FS_FILE_TOO_LARGE` (a `RangeError`) for a file of `size` bytes.
    pub(crate) fn file_too_large(size: u64) -> Failure {
        Failure {
            code: Some("ERR_FS_FILE_TOO_LARGE".into()),
            size: Some(size as f64),
            ..Failure::new("range")
        }
    }

    /// Node's `ERR_BUFFER_TOO_LARGE` (a `RangeError`) past `max` bytes.
    pub(crate) fn buffer_too_large(max: usize) -> Failure {
        Failure {
            code: Some("ERR_BUFFER_TOO_LARGE".into()),
            bound: Some(max as f64),
            ..Failure::new("range")
        }
    }

    /// Node's `ABORT_ERR`: the call's `signal` aborted before it ran.
    pub(crate) fn aborted() -> Failure {
        Failure {
            code: Some("ABORT_ERR".into()),
            ..Failure::new("aborted")
        }
    }

    pub(crate) fn sys(err: &std::io::Error, syscall: &str, with_path: bool) -> Failure {
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
pub(crate) enum Done {
    Bytes(Vec<u8>),
    /// Inline, so that a `stat` allocates nothing on the worker.
    Stat([f64; STAT_FIELDS]),
    Addrs(Vec<String>),
    Fail(Failure),
    Unit,
    /// A number: a descriptor, a count of bytes.
    Number(f64),
    /// `stat` fields handed over as the numbers themselves (a
    /// `Float64Array`, as Node's fs binding gives `FileHandle`), not a
    /// `Stats`.
    Fields([f64; STAT_FIELDS]),
}

impl Done {
    /// The value of an outcome that has one: not `Stat`, not `Unit` (an
    /// error, which `Inbox::drain` never meets: it writes those two into
    /// the slab).
    pub(crate) fn into_out(self, env: &Env) -> napi::Result<Out<'_>> {
        Ok(match self {
            Done::Bytes(b) if b.len() <= COPY_LIMIT => Either4::A(BufferSlice::copy_from(env, b)?),
            Done::Bytes(b) => Either4::B(b.into()),
            Done::Addrs(a) => Either4::C(a),
            Done::Fail(f) => Either4::D(f),
            Done::Stat(_) | Done::Unit | Done::Number(_) | Done::Fields(_) => {
                return Err(napi::Error::from_reason(
                    "sluice: a stat, number or empty outcome has no value of its own",
                ));
            }
        })
    }
}

/// `ENOMEM`'s number on Linux.
pub(crate) const fn libc_enomem() -> i32 {
    12
}
