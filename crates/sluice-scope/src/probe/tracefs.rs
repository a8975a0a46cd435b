//! [`Tracefs`]: the kernel's tracing file system, where uprobes are defined
//! (`uprobe_events`), recorded (an instance's ring buffer) and removed.
//!
//! Found where it is mounted (`/proc/mounts`: `tracefs`, or `debugfs`'s
//! `tracing/`). Where it is not mounted (as in many containers and VMs) and
//! the kernel has it, scope mounts it privately under the temporary
//! directory and unmounts it on exit, so the machine is left as found.
//!
//! Probe names carry their owner: group `sluice_<PID>_<N>` for the scope
//! process `PID`. A scope killed with SIGKILL cannot clean up; the next
//! probe session removes groups whose owner is gone ([`Tracefs::sweep`]).

use crate::error::ProbeRefusal;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A tracefs mount.
#[derive(Debug)]
pub struct Tracefs {
    root: PathBuf,
    /// Set when scope mounted it (and must unmount it).
    ours: bool,
}

impl Tracefs {
    /// The tracefs at `root` (tests; a directory without `uprobe_events`
    /// models a kernel without uprobes).
    pub fn at(root: impl Into<PathBuf>) -> Tracefs {
        Tracefs {
            root: root.into(),
            ours: false,
        }
    }

    /// The mounted tracefs, or a private mount of it.
    pub fn find_or_mount() -> Result<Tracefs, ProbeRefusal> {
        // Read through `procfs`, parsed here: its own parse leaves a space
        // in a mount point escaped (`\040`).
        let mounts = procfs::process::Process::myself()
            .and_then(|me| me.read::<_, crate::target::proc::Text>("mounts"))
            .map(|t| t.0)
            .unwrap_or_default();
        let mut debugfs = None;
        for line in mounts.lines() {
            let mut f = line.split_whitespace();
            let (_, Some(dir), Some(fs)) = (f.next(), f.next(), f.next()) else {
                continue;
            };
            match fs {
                "tracefs" => return Ok(Tracefs::at(unescape(dir))),
                "debugfs" if debugfs.is_none() => debugfs = Some(unescape(dir).join("tracing")),
                _ => {}
            }
        }
        if let Some(d) = debugfs
            && d.join("uprobe_events").exists()
        {
            return Ok(Tracefs::at(d));
        }
        // `procfs` does not read this file.
        let filesystems = std::fs::read_to_string("/proc/filesystems").unwrap_or_default();
        if !filesystems
            .lines()
            .any(|l| l.trim_end().ends_with("tracefs"))
        {
            return Err(ProbeRefusal::NoTracefs {
                looked: "no tracefs or debugfs mount in /proc/mounts, and tracefs is not in /proc/filesystems".into(),
            });
        }
        // One directory per mount: sessions in one process mount and
        // unmount independently.
        static MOUNTS: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let dir = std::env::temp_dir().join(format!(
            "sluice-tracefs-{}-{}",
            std::process::id(),
            // A unique number, nothing to order.
            MOUNTS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).map_err(|e| ProbeRefusal::Kernel {
            what: format!("creating {} to mount tracefs", dir.display()),
            error: e.to_string(),
            log: String::new(),
        })?;
        if let Err(e) = rustix::mount::mount(
            "nodev",
            &dir,
            "tracefs",
            rustix::mount::MountFlags::empty(),
            None,
        ) {
            let _ = std::fs::remove_dir(&dir);
            return Err(ProbeRefusal::NoTracefs {
                looked: format!(
                    "not mounted, and mounting it at {} failed: {e}",
                    dir.display()
                ),
            });
        }
        Ok(Tracefs {
            root: dir,
            ours: true,
        })
    }

    /// Its directory.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// Refuses when the kernel has no uprobe events.
    pub fn check_uprobes(&self) -> Result<(), ProbeRefusal> {
        if self.root.join("uprobe_events").exists() {
            Ok(())
        } else {
            Err(ProbeRefusal::NoUprobes {
                dir: self.root.clone(),
            })
        }
    }

    /// The lines of `uprobe_events` (every uprobe defined on the machine).
    pub fn probes(&self) -> std::io::Result<Vec<String>> {
        Ok(std::fs::read_to_string(self.root.join("uprobe_events"))?
            .lines()
            .map(str::to_string)
            .collect())
    }

    /// The uprobe groups owned by scope process `pid`.
    pub fn groups_of(&self, pid: u32) -> std::io::Result<Vec<String>> {
        let mut out: Vec<String> = self
            .probes()?
            .iter()
            .filter_map(|l| group_of(l))
            .filter(|g| owner(g) == Some(pid))
            .map(str::to_string)
            .collect();
        out.dedup();
        Ok(out)
    }

    /// Appends `line` to `uprobe_events`; a refusal quotes the kernel's
    /// `error_log` when it says why.
    pub fn define(&self, line: &str) -> Result<(), ProbeRefusal> {
        self.append("uprobe_events", line)
    }

    /// Writes `value` to `file` (relative to the root), replacing it.
    pub fn write(&self, file: &str, value: &str) -> Result<(), ProbeRefusal> {
        std::fs::write(self.root.join(file), value).map_err(|e| self.refusal(file, value, e))
    }

    fn append(&self, file: &str, line: &str) -> Result<(), ProbeRefusal> {
        let path = self.root.join(file);
        std::fs::OpenOptions::new()
            .append(true)
            .open(&path)
            .and_then(|mut f| f.write_all(format!("{line}\n").as_bytes()))
            .map_err(|e| self.refusal(file, line, e))
    }

    fn refusal(&self, file: &str, value: &str, e: std::io::Error) -> ProbeRefusal {
        let log = std::fs::read_to_string(self.root.join("error_log"))
            .ok()
            .and_then(|l| {
                l.lines()
                    .rev()
                    .find(|x| !x.trim().is_empty())
                    .map(str::to_string)
            })
            .map(|l| format!("; error_log: {}", l.trim()))
            .unwrap_or_default();
        ProbeRefusal::Kernel {
            what: format!("writing {value:?} to {}", self.root.join(file).display()),
            error: e.to_string(),
            log,
        }
    }

    /// Removes group `group`: disables and deletes its instance, then its
    /// events. Returns what could not be removed.
    pub fn remove_group(&self, group: &str) -> Vec<String> {
        let mut left = Vec::new();
        let instance = self.root.join("instances").join(group);
        if instance.exists() {
            let _ = std::fs::write(instance.join("events").join(group).join("enable"), "0");
            if let Err(e) = std::fs::remove_dir(&instance) {
                left.push(format!("instance {}: {e}", instance.display()));
            }
        }
        let events: Vec<String> = self
            .probes()
            .unwrap_or_default()
            .iter()
            .filter(|l| group_of(l) == Some(group))
            .filter_map(|l| l.split_whitespace().next()?.split_once(':'))
            .map(|(_, name)| name.to_string())
            .collect();
        for ev in events {
            if let Err(e) = self.append("uprobe_events", &format!("-:{ev}")) {
                left.push(format!("uprobe {ev}: {e}"));
            }
        }
        left
    }

    /// Removes the groups of scope processes that no longer run (killed
    /// before they could clean up); returns the groups removed.
    pub fn sweep(&self) -> Vec<String> {
        let mut groups: Vec<String> = self
            .probes()
            .unwrap_or_default()
            .iter()
            .filter_map(|l| group_of(l))
            .filter(|g| owner(g).is_some_and(|pid| crate::target::proc::process(pid).is_err()))
            .map(str::to_string)
            .collect();
        groups.dedup();
        for g in &groups {
            self.remove_group(g);
        }
        groups
    }
}

impl Drop for Tracefs {
    fn drop(&mut self) {
        if self.ours {
            let _ = rustix::mount::unmount(&self.root, rustix::mount::UnmountFlags::DETACH);
            let _ = std::fs::remove_dir(&self.root);
        }
    }
}

/// The group of a `uprobe_events` line: `p:GROUP/EVENT PATH:OFFSET ...`.
fn group_of(line: &str) -> Option<&str> {
    let def = line.split_whitespace().next()?;
    let (_, name) = def.split_once(':')?;
    Some(name.split_once('/')?.0)
}

/// The scope process owning group `sluice_<PID>_<N>`.
fn owner(group: &str) -> Option<u32> {
    group
        .strip_prefix("sluice_")?
        .split('_')
        .next()?
        .parse()
        .ok()
}

/// `/proc/mounts` escapes spaces and such as `\040`.
fn unescape(s: &str) -> PathBuf {
    let mut out = Vec::new();
    let b = s.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'\\'
            && i + 3 < b.len()
            && let Ok(v) = u8::from_str_radix(&s[i + 1..i + 4], 8)
        {
            out.push(v);
            i += 4;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    PathBuf::from(String::from_utf8_lossy(&out).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_tracefs_without_uprobe_events_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let t = Tracefs::at(dir.path());
        let err = t.check_uprobes().unwrap_err();
        assert_eq!(
            err,
            ProbeRefusal::NoUprobes {
                dir: dir.path().to_path_buf()
            }
        );
        assert!(
            err.to_string()
                .contains("this kernel was built without CONFIG_UPROBE_EVENTS; drop --probe"),
            "{err}"
        );
    }

    #[test]
    fn groups_name_their_owner() {
        assert_eq!(
            group_of("p:sluice_42_1/start /usr/bin/node:0x14a7b3d w=%di:x64"),
            Some("sluice_42_1")
        );
        assert_eq!(owner("sluice_42_1"), Some(42));
        assert_eq!(owner("other_42"), None);
        assert_eq!(group_of("garbage"), None);
    }

    #[test]
    fn groups_and_sweeps_read_uprobe_events() {
        let dir = tempfile::tempdir().unwrap();
        // 99999999 is no PID; this process is alive.
        let me = std::process::id();
        std::fs::write(
            dir.path().join("uprobe_events"),
            format!("p:sluice_99999999_1/start /x:0x1\np:sluice_{me}_1/end /x:0x2\n"),
        )
        .unwrap();
        let t = Tracefs::at(dir.path());
        assert_eq!(t.groups_of(me).unwrap(), vec![format!("sluice_{me}_1")]);
        // A plain file cannot delete lines, but the sweep picks the right
        // group and appends the kernel's delete command for it.
        assert_eq!(t.sweep(), vec!["sluice_99999999_1".to_string()]);
        let text = std::fs::read_to_string(dir.path().join("uprobe_events")).unwrap();
        assert!(text.ends_with("-:sluice_99999999_1/start\n"), "{text}");
    }

    #[test]
    fn mount_paths_are_unescaped() {
        assert_eq!(unescape("/a\\040b"), PathBuf::from("/a b"));
        assert_eq!(
            unescape("/sys/kernel/tracing"),
            PathBuf::from("/sys/kernel/tracing")
        );
    }
}
