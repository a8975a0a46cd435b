//! The machine an experiment ran on, as the report and `--json` state it.

use serde::{Deserialize, Serialize};
use std::path::Path;
use std::process::Command;

/// Facts about the machine, read once per lab run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
pub struct Machine {
    /// Usable cores (`available_parallelism`: cgroup quota and affinity).
    pub cores: usize,
    /// Kernel release (`uname -r`: `/proc/sys/kernel/osrelease`'s text).
    pub kernel: String,
    /// CPU model name (`/proc/cpuinfo`, the first CPU's).
    pub cpu: String,
    /// `node --version`, if a node was found.
    pub node: Option<String>,
    /// The libuv version inside that node (`process.versions.uv`).
    pub libuv: Option<String>,
    /// The Go that built the `go` subject's programs (`go1.23.5`), if one
    /// was found.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub go: Option<String>,
}

impl Machine {
    /// Reads the machine's facts; `node` is the node binary, if any.
    pub fn detect(node: Option<&Path>) -> Machine {
        // `procfs` reads osrelease only as numbers; uname(2) gives the
        // same text without `/proc`.
        let kernel = rustix::system::uname()
            .release()
            .to_string_lossy()
            .trim()
            .to_string();
        let cpu = {
            use procfs::Current;
            procfs::CpuInfo::current()
                .ok()
                .and_then(|info| info.model_name(0).map(|m| m.trim().to_string()))
                .unwrap_or_else(|| "unknown".into())
        };
        let (node_v, libuv) = match node {
            Some(node) => {
                let out = Command::new(node)
                    .args(["-p", "process.version + ' ' + process.versions.uv"])
                    .output();
                match out {
                    Ok(o) if o.status.success() => {
                        let text = String::from_utf8_lossy(&o.stdout);
                        let mut parts = text.split_whitespace();
                        (
                            parts.next().map(String::from),
                            parts.next().map(String::from),
                        )
                    }
                    _ => (None, None),
                }
            }
            None => (None, None),
        };
        Machine {
            cores: std::thread::available_parallelism().map_or(1, |n| n.get()),
            kernel,
            cpu,
            node: node_v,
            libuv,
            go: None,
        }
    }

    /// One line for headers: `2 cores, Intel(R) ..., Linux 6.1, node v20.20.2 (libuv 1.46.0)`.
    pub fn summary(&self) -> String {
        let node = match (&self.node, &self.libuv) {
            (Some(n), Some(uv)) => format!("node {n} (libuv {uv})"),
            _ => "no node".to_string(),
        };
        let go = match &self.go {
            Some(v) => format!(", {v}"),
            None => String::new(),
        };
        format!(
            "{} cores, {}, Linux {}, {}{go}",
            self.cores, self.cpu, self.kernel, node
        )
    }
}
