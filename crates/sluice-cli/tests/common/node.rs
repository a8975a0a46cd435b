//! The Node processes the scope tests watch: started, waited for until
//! their pool is up (they print `ready`), killed on drop.

use super::Killed;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

/// A node with its pool started (one `fs.stat`), idle: every window
/// healthy.
pub const IDLE_JS: &str =
    "require('fs').stat('.', () => console.log('ready')); setInterval(() => {}, 1 << 30);";

/// Starts the pool (one `fs.stat`), prints ready; `cpu N` then keeps N
/// pbkdf2 in flight. Run from a file ([`load_js`]): it reads its argv.
pub const LOAD_JS: &str = r"
const [mode, n] = [process.argv[2], Number(process.argv[3] || 0)];
const crypto = require('node:crypto');
setInterval(() => {}, 1 << 30);
function again() { crypto.pbkdf2('secret', 'salt', 100000, 64, 'sha512', again); }
require('node:fs').stat(__filename, () => {
  console.log('ready');
  if (mode === 'cpu') for (let i = 0; i < n; i++) again();
});
";

/// [`LOAD_JS`] written to `dir/name`.
pub fn load_js(dir: &Path, name: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, LOAD_JS).unwrap();
    path
}

/// Starts `cmd` (a node, or what execs one) with a libuv pool of `pool`
/// threads and waits for its `ready` line.
pub fn spawn(mut cmd: Command, pool: u32) -> Killed {
    cmd.env("UV_THREADPOOL_SIZE", pool.to_string());
    let mut child = cmd
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .spawn()
        .expect("node on PATH");
    super::await_ready(&mut child);
    Killed(child)
}

/// `node -e SCRIPT ARGS` with a pool of `pool`, once `ready`.
pub fn eval(script: &str, args: &[&str], pool: u32) -> Killed {
    let mut cmd = Command::new("node");
    cmd.arg("-e").arg(script).args(args);
    spawn(cmd, pool)
}

/// `node SCRIPT ARGS` with a pool of `pool`, once `ready`.
pub fn script(script: &Path, args: &[&str], pool: u32) -> Killed {
    let mut cmd = Command::new("node");
    cmd.arg(script).args(args);
    spawn(cmd, pool)
}

/// The `node` on `PATH`.
pub fn path() -> PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap())
        .map(|d| d.join("node"))
        .find(|p| p.is_file())
        .expect("node on PATH")
}
