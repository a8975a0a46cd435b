//! Connecting inside a process's network namespace. A container's
//! `127.0.0.1:9229` is its own loopback, not the host's: the connection is
//! made on a dedicated thread that first joins the target's namespace with
//! `setns(2)` (a per-thread change; the thread ends with the connection
//! made, and the socket stays in the namespace it was made in). In the
//! same namespace the thread connects directly.

use super::error::InspectorError;
use crate::target::proc;
use nix::sched::{CloneFlags, setns};
use procfs::process::Process;
use std::os::unix::fs::MetadataExt;

/// Whether process `pid` is in another network namespace than this one.
pub(crate) fn is_foreign(pid: u32) -> Result<bool, InspectorError> {
    let ino = |process: std::io::Result<Process>, path: String| {
        process
            .and_then(|p| net_ns(&p))
            .and_then(|ns| ns.metadata())
            .map(|m| m.ino())
            .map_err(|cause| InspectorError::Proc { path, cause })
    };
    let here = Process::myself().map_err(proc::io_error);
    Ok(ino(here, "/proc/self/ns/net".into())?
        != ino(proc::process(pid), format!("/proc/{pid}/ns/net"))?)
}

/// `process`'s network namespace, opened (`ns/net`).
fn net_ns(process: &Process) -> std::io::Result<std::fs::File> {
    process.open_relative("ns/net").map_err(proc::io_error)
}

/// Runs `connect` on a new thread in process `pid`'s network namespace.
pub(crate) fn run_in<T: Send + 'static>(
    pid: u32,
    connect: impl FnOnce() -> Result<T, InspectorError> + Send + 'static,
) -> Result<T, InspectorError> {
    let foreign = is_foreign(pid)?;
    let thread = std::thread::Builder::new()
        .name("scope-netns".into())
        .spawn(move || {
            if foreign {
                let path = format!("/proc/{pid}/ns/net");
                let fail = |cause: String| InspectorError::Namespace {
                    pid,
                    path: path.clone(),
                    cause,
                };
                let ns = proc::process(pid)
                    .and_then(|p| net_ns(&p))
                    .map_err(|e| fail(e.to_string()))?;
                setns(&ns, CloneFlags::CLONE_NEWNET).map_err(|e| fail(e.desc().to_string()))?;
            }
            connect()
        })
        .map_err(|cause| InspectorError::Proc {
            path: "a thread for the namespace".into(),
            cause,
        })?;
    thread.join().unwrap_or_else(|_| {
        Err(InspectorError::Protocol {
            pid,
            addr: String::new(),
            what: "the connecting thread panicked".into(),
        })
    })
}
