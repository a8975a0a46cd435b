//! [`HostGuard`]: proof, after every namespaced run, that the machine's own
//! `/etc/resolv.conf` was not touched: its content hash and the mounts on
//! it, seen from outside the namespace, before and after.

use anyhow::bail;
use sha2::{Digest, Sha256};

/// The file the namespaces replace, and must never change outside them.
pub const HOST_RESOLV_CONF: &str = "/etc/resolv.conf";

/// A snapshot of the host's `/etc/resolv.conf`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HostGuard {
    /// SHA-256 of its content (`None`: missing or unreadable).
    pub sha256: Option<String>,
    /// Mounts on it in this process's mount namespace.
    pub mounts: usize,
}

impl HostGuard {
    /// Takes the snapshot.
    ///
    /// ```
    /// let g = sluice_testnet::netns::HostGuard::snapshot();
    /// assert!(g.verify().is_ok());
    /// ```
    pub fn snapshot() -> HostGuard {
        HostGuard {
            sha256: std::fs::read(HOST_RESOLV_CONF).ok().map(|b| {
                Sha256::digest(&b)
                    .iter()
                    .map(|x| format!("{x:02x}"))
                    .collect()
            }),
            mounts: mounts_on(HOST_RESOLV_CONF),
        }
    }

    /// Fails, loudly, if the host's file or its mounts differ from the
    /// snapshot.
    pub fn verify(&self) -> anyhow::Result<()> {
        let now = HostGuard::snapshot();
        if now != *self {
            bail!(
                "the machine's {HOST_RESOLV_CONF} changed during a namespaced run (sha256 {:?} -> {:?}, mounts on it {} -> {}); stop and inspect it",
                self.sha256,
                now.sha256,
                self.mounts,
                now.mounts
            );
        }
        Ok(())
    }
}

/// How many mounts in `/proc/self/mountinfo` have `path` as mount point.
pub(crate) fn mounts_on(path: &str) -> usize {
    mountinfo()
        .iter()
        .filter(|m| m.mount_point == std::path::Path::new(path))
        .count()
}

/// Mount points in `/proc/self/mountinfo` still in a peer group (optional
/// field `shared:N`): mounts made under them would propagate.
pub(crate) fn shared_mounts() -> Vec<String> {
    mountinfo()
        .into_iter()
        .filter(|m| {
            m.opt_fields
                .iter()
                .any(|f| matches!(f, procfs::process::MountOptFields::Shared(_)))
        })
        .map(|m| m.mount_point.display().to_string())
        .collect()
}

/// This process's mounts (none if the file cannot be read), mount points
/// as the file writes them.
fn mountinfo() -> Vec<procfs::process::MountInfo> {
    procfs::process::Process::myself()
        .and_then(|me| me.mountinfo())
        .map(|m| m.0)
        .unwrap_or_default()
}
