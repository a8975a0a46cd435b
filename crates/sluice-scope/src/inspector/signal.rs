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

/// SIGUSR1's disposition in `status` (the text of `/proc/PID/status`).
///
/// ```
/// use sluice_scope::inspector::signal::sigusr1;
/// // Node 20 after startup: SIGUSR1 (bit 9) is caught.
/// let d = sigusr1("SigIgn:\t0000000001001000\nSigCgt:\t0000000100004602\n");
/// assert!(d.caught && !d.ignored);
/// assert!(!sigusr1("SigIgn:\t0\nSigCgt:\t0\n").caught);
/// ```
pub fn sigusr1(status: &str) -> Disposition {
    let bit = 1u64 << (Signal::SIGUSR1 as u64 - 1);
    let mask = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|v| u64::from_str_radix(v.trim(), 16).ok())
            .unwrap_or(0)
    };
    Disposition {
        caught: mask("SigCgt:") & bit != 0,
        ignored: mask("SigIgn:") & bit != 0,
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
    let status = std::fs::read_to_string(&path).map_err(|cause| InspectorError::Proc {
        path: path.clone(),
        cause,
    })?;
    let d = sigusr1(&status);
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
