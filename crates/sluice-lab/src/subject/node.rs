//! The `node` subject: the real Node, running the experiment's script.

use super::{Rules, Runtime, Subject, SubjectSpec, uv_pool_note, uv_threadpool_size};
use crate::PoolSize;
use crate::lab::Lab;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The real Node on the machine.
pub(crate) struct Node;

/// Finds a node binary: `explicit` if given (it must exist), else `node` on
/// `PATH`.
pub fn find_node(explicit: Option<&Path>) -> Result<PathBuf, String> {
    if let Some(p) = explicit {
        return if p.is_file() {
            Ok(p.to_path_buf())
        } else {
            Err(format!(
                "--node {}: no such file; pass the path of a node binary, or --subjects sluice-compat,sluice,tokio to skip node",
                p.display()
            ))
        };
    }
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join("node"))
        .find(|p| p.is_file())
        .ok_or_else(|| {
            "node not found on PATH; install Node (or pass --node PATH), or pass --subjects sluice-compat,sluice,tokio to skip it".to_string()
        })
}

/// What `node` is.
pub(super) static SPEC: SubjectSpec = SubjectSpec {
    about: "the real Node.js on this machine (libuv's pool), driven by a generated script",
    reference: true,
    size_in_env: true,
    rules: Rules::Libuv,
    ..SubjectSpec::new("node", Runtime::Node, &Node)
};

impl Subject for Node {
    fn unavailable(&self, lab: &Lab) -> Option<String> {
        lab.node().err()
    }

    fn pool_note(&self, pool: PoolSize, _cores: usize) -> String {
        uv_pool_note("node", pool, "")
    }
}

/// The child command of a node subject: the lab's node running the
/// experiment's script (after `preload`, with `-r`), the pool size in
/// `UV_THREADPOOL_SIZE`.
pub(super) fn node_command(
    preload: Option<PathBuf>,
    lab: &Lab,
    experiment: &str,
    pool: PoolSize,
    params: &serde_json::Value,
) -> anyhow::Result<Command> {
    let node = lab.node().map_err(anyhow::Error::msg)?;
    let script = lab.node_script(experiment)?;
    let mut cmd = Command::new(node);
    if let Some(preload) = preload {
        cmd.arg("-r").arg(preload);
    }
    cmd.arg(script).arg(params.to_string());
    uv_threadpool_size(&mut cmd, pool);
    Ok(cmd)
}
