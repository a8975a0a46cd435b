//! SIGUSR1, sent only when it is safe: Node's handler must be installed
//! (`SigCgt` in `/proc/PID/status`), or the signal's default action
//! terminates the process. Node installs it early in startup, and not at
//! all with `--disable-sigusr1`.

use super::error::InspectorError;
use nix::sys::signal::{Signal, kill};
use nix::unistd::Pid;

/// Whether a signal is caught and whether it is ignored, from
/// `/proc/PID/status`'s `SigCgt` and `SigIgn` masks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Disposition {
    /// A handler is installed.
    pub caught: bool,
    /// The signal is ignored.
    pub ignored: bool,
}

/// SIGUSR1's disposition in `/proc/PID/status`'s `SigCgt` and `SigIgn`
/// masks (bit `n - 1` is signal `n`).
///
/// ```
/// use sluice_scope::inspector::signal::sigusr1;
/// // Node 20 after startup: SIGUSR1 (bit 9) is caught.
/// let d = sigusr1(0x0000000100004602, 0x0000000001001000);
/// assert!(d.caught && !d.ignored);
/// assert!(!sigusr1(0, 0).caught);
/// ```
pub fn sigusr1(sigcgt: u64, sigign: u64) -> Disposition {
    let bit = 1u64 << (Signal::SIGUSR1 as u64 - 1);
    Disposition {
        caught: sigcgt & bit != 0,
        ignored: sigign & bit != 0,
    }
}

/// Sends SIGUSR1 to `pid` if its handler is installed.
pub fn open_inspector(pid: u32, disabled_by: Option<&'static str>) -> Result<(), InspectorError> {
    if let Some(source_of_flag) = disabled_by {
        return Err(InspectorError::Sigusr1Disabled {
            pid,
            source_of_flag,
        });
    }
    let path = format!("/proc/{pid}/status");
    let status = crate::target::proc::process(pid)
        .and_then(|p| p.status().map_err(crate::target::proc::io_error))
        .map_err(|cause| InspectorError::Proc {
            path: path.clone(),
            cause,
        })?;
    let d = sigusr1(status.sigcgt, status.sigign);
    if !d.caught {
        return Err(InspectorError::Sigusr1NotHandled {
            pid,
            ignored: if d.ignored { ", and SigIgn has it" } else { "" },
            effect: if d.ignored {
                "be ignored"
            } else {
                "terminate it"
            },
        });
    }
    let target = i32::try_from(pid).map_err(|_| InspectorError::Proc {
        path,
        cause: std::io::Error::other("PID out of range"),
    })?;
    kill(Pid::from_raw(target), Signal::SIGUSR1).map_err(|errno| match errno {
        nix::errno::Errno::ESRCH => InspectorError::Exited {
            pid,
            when: "before SIGUSR1 was sent".into(),
        },
        errno => InspectorError::NoPermission { pid, errno },
    })
}

/// Whether the process's JavaScript listens for SIGUSR1 itself.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AppListener {
    /// A started `uv_signal_t` for SIGUSR1 is in libuv's signal tree: a
    /// `process.on('SIGUSR1')` listener (or an addon's handle). libuv's
    /// handler then replaces Node's: SIGUSR1 fires the app's listener and
    /// does not open the inspector.
    Listens,
    /// libuv's signal tree was read and holds no SIGUSR1 handle.
    None,
    /// Scope could not read the tree (why, in words).
    Unknown(String),
}

/// The most handles one walk of libuv's signal tree reads.
const TREE_LIMIT: usize = 256;
/// `uv_signal_t` on 64-bit Linux (libuv 1.x): the handle's `type` at 16
/// (`UV_SIGNAL` is 16), `signum` at 104, `tree_entry.rbe_left`/`rbe_right`
/// at 112 and 120.
const TYPE_OFFSET: u64 = 16;
const UV_SIGNAL: u32 = 16;
const SIGNUM_OFFSET: u64 = 104;
const LEFT_OFFSET: u64 = 112;

/// Whether `target` has its own SIGUSR1 listener: walks libuv's
/// `uv__signal_tree` (every started signal handle, of every loop) in the
/// process's memory, reading each handle's `type` and `signum`. A handle
/// whose `type` is not `UV_SIGNAL`, a walk over `TREE_LIMIT` (256) handles, or
/// a failed read is [`AppListener::Unknown`], never a guess.
pub fn app_listener(target: &crate::target::Target) -> AppListener {
    let Some(root) = target.image.symbols.signal_tree else {
        return AppListener::Unknown(format!(
            "{} has no symbol uv__signal_tree (stripped)",
            target.image.shown
        ));
    };
    let mem = match crate::target::memory::RemoteMemory::open(target.pid) {
        Ok(m) => m,
        Err(e) => return AppListener::Unknown(format!("/proc/{}/mem: {e}", target.pid)),
    };
    let unknown = |why: &str| AppListener::Unknown(format!("libuv's signal tree: {why}"));
    let Ok(first) = mem.u64(target.image.runtime(root)) else {
        return unknown("unreadable");
    };
    let mut stack = vec![first];
    let mut seen = 0;
    while let Some(node) = stack.pop() {
        if node == 0 {
            continue;
        }
        seen += 1;
        if seen > TREE_LIMIT {
            return unknown(&format!("more than {TREE_LIMIT} handles"));
        }
        let (Ok(kind), Ok(signum), Ok(left), Ok(right)) = (
            mem.u32(node + TYPE_OFFSET),
            mem.u32(node + SIGNUM_OFFSET),
            mem.u64(node + LEFT_OFFSET),
            mem.u64(node + LEFT_OFFSET + 8),
        ) else {
            return unknown("a handle could not be read");
        };
        if kind != UV_SIGNAL {
            return unknown(&format!("a handle of type {kind}, not UV_SIGNAL"));
        }
        if signum == Signal::SIGUSR1 as u32 {
            return AppListener::Listens;
        }
        stack.extend([left, right]);
    }
    AppListener::None
}
