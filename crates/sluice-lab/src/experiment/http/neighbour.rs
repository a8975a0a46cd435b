//! The `login-neighbour` cell's neighbour: another process of the machine
//! that wants every core (one `sh` busy loop per core, at the lab's own
//! priority), as a compile, a batch job or a second service would.

use anyhow::Context;
use std::process::{Child, Command, Stdio};

/// Busy loops, killed when dropped.
pub(super) struct Neighbour {
    children: Vec<Child>,
}

impl Neighbour {
    /// Starts `n` busy loops.
    pub(super) fn start(n: usize) -> anyhow::Result<Neighbour> {
        let mut me = Neighbour {
            children: Vec::with_capacity(n),
        };
        for _ in 0..n {
            let child = Command::new("/bin/sh")
                .args(["-c", "while :; do :; done"])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .context("starting the neighbour's busy loop (/bin/sh)")?;
            me.children.push(child);
        }
        Ok(me)
    }

    /// CPU seconds the loops have used so far (`None` if one is unreadable).
    pub(super) fn cpu_seconds(&self) -> Option<f64> {
        self.children
            .iter()
            .map(|c| crate::procfs::cpu_seconds(c.id()).ok())
            .sum()
    }
}

impl Drop for Neighbour {
    fn drop(&mut self) {
        for c in &mut self.children {
            let _ = c.kill();
        }
        for c in &mut self.children {
            let _ = c.wait();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_loops_use_cpu_and_are_gone_when_dropped() {
        let n = Neighbour::start(2).unwrap();
        let pids: Vec<u32> = n.children.iter().map(Child::id).collect();
        let t = std::time::Instant::now();
        while n.cpu_seconds().unwrap() == 0.0 {
            assert!(t.elapsed().as_secs() < 30, "the loops never ran");
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        drop(n);
        for pid in pids {
            assert!(
                crate::procfs::cpu_seconds(pid).is_err(),
                "{pid} still there"
            );
        }
    }
}
