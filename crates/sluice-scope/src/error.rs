//! [`ScopeError`]: everything that can stop `sluice scope`, each naming its
//! input and the fix; [`ProbeRefusal`]: why probe mode will not start.

use std::path::PathBuf;

/// Why `sluice scope` cannot watch a process.
#[derive(Debug, thiserror::Error)]
pub enum ScopeError {
    /// The PID names no process.
    #[error(
        "no process {pid}: /proc/{pid} does not exist; pass the PID of a running Node process (`pgrep -a node` lists them)"
    )]
    NoSuchProcess {
        /// The PID asked for.
        pid: u32,
    },
    /// The PID is a thread of another process.
    #[error("{pid} is a thread of process {tgid}, not a process; pass {tgid}")]
    NotAProcess {
        /// The TID asked for.
        pid: u32,
        /// The process it belongs to.
        tgid: u32,
    },
    /// `/proc` refused to show what scope needs.
    #[error(
        "cannot read {path}: permission denied; run sluice scope as the user that runs process {pid}, or as root (where kernel.yama.ptrace_scope is 1 or more, only root may read another process's system calls)"
    )]
    PermissionDenied {
        /// The process watched.
        pid: u32,
        /// The file that could not be read.
        path: PathBuf,
    },
    /// `/proc` refused even though scope runs as root.
    #[error(
        "cannot read {path}: permission denied, although sluice scope runs as root: process {pid} is out of this root's reach (a process of another user namespace or of the host, as seen from a container, or CAP_SYS_PTRACE is missing); run sluice scope where that process's owner or the host's root is"
    )]
    DeniedToRoot {
        /// The process watched.
        pid: u32,
        /// The file that could not be read.
        path: PathBuf,
    },
    /// The process has no libuv pool to watch.
    #[error(
        "process {pid} ({comm}, {exe}) is not a Node process: neither its executable nor a library it maps exports libuv's uv_queue_work; point sluice scope at a node process (`pgrep -a node` lists them)"
    )]
    NotNode {
        /// The process.
        pid: u32,
        /// Its `comm`.
        comm: String,
        /// Its executable.
        exe: String,
    },
    /// The process exited while scope watched it.
    #[error("process {pid} exited")]
    Exited {
        /// The process.
        pid: u32,
    },
    /// An I/O error on a named file.
    #[error("{what}: {cause}")]
    Io {
        /// What was being done, with the path.
        what: String,
        /// The error (in the message, so not also a `source`).
        cause: std::io::Error,
    },
    /// The ELF file of the libuv image could not be read.
    #[error("reading the symbols of {path}: {message}")]
    Elf {
        /// The file.
        path: PathBuf,
        /// What went wrong.
        message: String,
    },
    /// A flag had a bad value.
    #[error("{flag} {value:?}: {expected}")]
    Config {
        /// The flag, e.g. `--rate`.
        flag: &'static str,
        /// The value given.
        value: String,
        /// What is accepted.
        expected: String,
    },
    /// Probe mode cannot start.
    #[error("probe mode refused: {0}")]
    ProbeRefused(ProbeRefusal),
    /// The Prometheus exporter could not listen.
    #[error(
        "--prometheus {addr}: cannot listen: {message}; pick a free address such as 127.0.0.1:9464"
    )]
    Listen {
        /// The address.
        addr: String,
        /// Why.
        message: String,
    },
    /// A profile could not be taken (`--profile`).
    #[error("{0}")]
    Profile(crate::inspector::error::InspectorError),
    /// The terminal could not be driven.
    #[error("terminal: {0}; pass --json for output that needs no terminal")]
    Terminal(std::io::Error),
}

impl ScopeError {
    /// Wraps `cause` with what was being done.
    pub fn io(what: impl Into<String>, cause: std::io::Error) -> ScopeError {
        ScopeError::Io {
            what: what.into(),
            cause,
        }
    }
}

// Not `#[from]`: that would also make the refusal the error's `source`, and
// a chain printer (`{:#}`) would print it twice.
impl From<ProbeRefusal> for ScopeError {
    fn from(r: ProbeRefusal) -> ScopeError {
        ScopeError::ProbeRefused(r)
    }
}

impl From<crate::inspector::error::InspectorError> for ScopeError {
    fn from(e: crate::inspector::error::InspectorError) -> ScopeError {
        ScopeError::Profile(e)
    }
}

/// Why probe mode (`--probe`) will not start. /proc mode is unaffected:
/// drop `--probe` to watch without probes.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum ProbeRefusal {
    /// Uprobes are set through tracefs, which only root may write.
    #[error(
        "uprobes are set through tracefs, which needs root (effective uid is {euid}); run as root, or drop --probe"
    )]
    NotRoot {
        /// The effective uid.
        euid: u32,
    },
    /// No tracefs: neither mounted nor mountable.
    #[error(
        "the kernel offers no tracefs ({looked}); probe mode needs a kernel with CONFIG_FTRACE and CONFIG_UPROBE_EVENTS; drop --probe"
    )]
    NoTracefs {
        /// Where scope looked.
        looked: String,
    },
    /// tracefs is there but has no `uprobe_events`.
    #[error(
        "{dir} has no uprobe_events: this kernel was built without CONFIG_UPROBE_EVENTS; drop --probe"
    )]
    NoUprobes {
        /// The tracefs directory.
        dir: PathBuf,
    },
    /// The binary lacks the symbols the probes attach to.
    #[error(
        "{path} lacks the libuv symbols probes attach to ({missing}); a stripped binary or a libuv without symbols cannot be probed; drop --probe (/proc mode works without them)"
    )]
    MissingSymbols {
        /// The image.
        path: PathBuf,
        /// The names not found, comma-separated.
        missing: String,
    },
    /// The machine code of a function does not have the expected shape.
    #[error("{path}: {why}; drop --probe")]
    UnexpectedCode {
        /// The image.
        path: PathBuf,
        /// What was expected and what was found.
        why: String,
    },
    /// The kernel refused a probe or a tracefs write.
    #[error("{what}: {error}{log}; drop --probe")]
    Kernel {
        /// The write that failed.
        what: String,
        /// The error.
        error: String,
        /// The tracefs `error_log` line, if any, with a leading `; `.
        log: String,
    },
    /// Probes are written for x86_64 only.
    #[error("probe mode supports x86_64 only (this is {arch}); drop --probe")]
    Arch {
        /// The architecture.
        arch: &'static str,
    },
}
