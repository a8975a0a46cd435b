//! Helpers for sluice-scope's tests: a Node process running
//! `workload.js` in a mode with known truth.
#![allow(dead_code, unreachable_pub)]

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdout, Command, Stdio};

/// The test workload script.
pub const WORKLOAD: &str = include_str!("workload.js");

/// A running `node workload.js MODE N [FIFO]`, killed on drop.
pub struct NodeProc {
    child: Child,
    stdout: BufReader<ChildStdout>,
    /// Its PID.
    pub pid: u32,
    _dir: tempfile::TempDir,
}

impl NodeProc {
    /// Starts `node` (`node` on PATH unless `binary` is given) with
    /// `UV_THREADPOOL_SIZE=pool` and waits for its `ready` line.
    pub fn start(binary: Option<&std::path::Path>, pool: u32, args: &[&str]) -> NodeProc {
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("workload.js");
        std::fs::write(&script, WORKLOAD).unwrap();
        let mut child = Command::new(binary.map_or("node".as_ref(), |b| b.as_os_str()))
            .arg(&script)
            .args(args)
            .env("UV_THREADPOOL_SIZE", pool.to_string())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .spawn()
            .expect("node on PATH (the tests watch a real Node)");
        let pid = child.id();
        let mut p = NodeProc {
            stdout: BufReader::new(child.stdout.take().unwrap()),
            child,
            pid,
            _dir: dir,
        };
        assert_eq!(p.line(), "ready");
        p
    }

    /// The next line it prints.
    pub fn line(&mut self) -> String {
        let mut l = String::new();
        self.stdout.read_line(&mut l).unwrap();
        l.trim_end().to_string()
    }

    /// Sends SIGUSR2: start the load.
    pub fn go(&self) {
        rustix::process::kill_process(
            rustix::process::Pid::from_raw(self.pid as i32).unwrap(),
            rustix::process::Signal::USR2,
        )
        .unwrap();
    }

    /// Waits for it to exit.
    pub fn wait(mut self) -> std::process::ExitStatus {
        self.child.wait().unwrap()
    }

    /// Kills it and reaps it.
    pub fn wait_killed(mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }
}

impl Drop for NodeProc {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// A stripped copy of node: no `.symtab`, so libuv's statics and pool
/// functions are unknown (what a distribution's stripped build looks like).
pub fn stripped_node(dir: &std::path::Path) -> std::path::PathBuf {
    let node = which("node").expect("node on PATH");
    let out = dir.join("node-stripped");
    let status = Command::new("strip")
        .arg("-o")
        .arg(&out)
        .arg(&node)
        .status()
        .expect("strip (binutils) on PATH: apt-get install binutils");
    assert!(
        status.success(),
        "strip -o {} {}",
        out.display(),
        node.display()
    );
    out
}

fn which(name: &str) -> Option<std::path::PathBuf> {
    std::env::split_paths(&std::env::var_os("PATH")?)
        .map(|d| d.join(name))
        .find(|p| p.is_file())
}

/// A Node build from `scripts/fetch-nodes NAME` (`debian-18`,
/// `official-22`, ...), fetched into the cache (`target/nodes`, or
/// `$SLUICE_NODES_DIR`) the first time: its runnable path, or why it
/// cannot be had here (the caller prints that and skips).
pub fn fetched_node(name: &str) -> Result<std::path::PathBuf, String> {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/fetch-nodes");
    let out = Command::new("bash")
        .arg(&script)
        .arg(name)
        .output()
        .map_err(|e| format!("running {}: {e}", script.display()))?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(name)?.strip_prefix(' '))
        .map(std::path::PathBuf::from)
        .ok_or_else(|| format!("fetch-nodes printed no path for {name}: {stdout}"))
}
