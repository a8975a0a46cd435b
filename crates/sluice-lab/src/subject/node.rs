//! The `node` subject: the real Node, running the experiment's script.

use super::{Rules, Runtime, Subject, SubjectSpec, uv_pool_note, uv_threadpool_size};
use crate::PoolSize;
use crate::lab::Lab;
use std::path::PathBuf;
use std::process::Command;

/// The real Node on the machine.
pub(crate) struct Node;

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
        lab.toolchain().node().err()
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
    let node = lab.toolchain().node().map_err(anyhow::Error::msg)?;
    let script = lab.runner().node_script(experiment)?;
    let mut cmd = Command::new(node);
    if let Some(preload) = preload {
        cmd.arg("-r").arg(preload);
    }
    cmd.arg(script).arg(params.to_string());
    uv_threadpool_size(&mut cmd, pool);
    Ok(cmd)
}
