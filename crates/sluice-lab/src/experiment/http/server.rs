//! The servers `http` drives: the Node twin (`http.js`), the Go twin
//! (`http.go`), `sluice serve --libuv` and `sluice serve`, each a child on
//! a free loopback port, stopped with SIGTERM (a clean exit is part of
//! what is tested).

use super::Plan;
use crate::PoolSize;
use crate::lab::Lab;
use crate::subject::{Runtime, SubjectSpec};
use crate::sweep::Cell;
use anyhow::bail;
use serde_json::{Value, json};
use sluice::Policy;
use std::path::Path;
use std::process::{Child, Command};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// The command of `subject`'s server: node's twin, `sluice serve --libuv`,
/// or `sluice serve` with lanes sized from `pool`.
pub(super) fn server_command(
    lab: &Lab,
    subject: &SubjectSpec,
    pool: PoolSize,
    p: &Plan,
    file: &Path,
    admission: Option<usize>,
) -> anyhow::Result<Command> {
    Ok(match (subject.runtime(), subject.sluice_policy()) {
        (Runtime::Node, _) => {
            let node = lab.node().map_err(anyhow::Error::msg)?;
            let mut cmd = Command::new(node);
            let preload = subject.node_preload();
            if let Some(preload) = &preload {
                cmd.arg("-r").arg(preload);
            }
            // With the preload, the twin admits through the package itself:
            // its Cpu lane bounded, a full lane refused with ESLUICEBUSY.
            let package = preload.as_deref().and_then(Path::parent);
            cmd.arg(lab.node_script("http")?).arg(
                json!({
                    "iterations": p.iterations,
                    "gzip_bytes": sluice_serve::config::GZIP_BYTES,
                    "file": file,
                    "cpu_queue": admission,
                    "sluice_package": package,
                    "cluster": p.cluster,
                })
                .to_string(),
            );
            pool_env(&mut cmd, "UV_THREADPOOL_SIZE", pool);
            cmd
        }
        (Runtime::Go, _) => {
            let mut cmd = Command::new(lab.go_program("http")?);
            cmd.arg(
                json!({
                    "iterations": p.iterations,
                    "gzip_bytes": sluice_serve::config::GZIP_BYTES,
                    "file": file,
                    "cpu_queue": admission,
                })
                .to_string(),
            );
            pool_env(&mut cmd, "GOMAXPROCS", pool);
            cmd
        }
        (Runtime::Rust, Some(Policy::Libuv { .. })) => {
            let mut cmd = Command::new(lab.exe());
            cmd.args(["serve", "--listen", "127.0.0.1:0", "--libuv"])
                .args(["--login-iterations", &p.iterations.to_string()])
                .arg("--file")
                .arg(file);
            pool_env(&mut cmd, "UV_THREADPOOL_SIZE", pool);
            cmd
        }
        (Runtime::Rust, Some(Policy::Lanes)) => {
            let mut cmd = Command::new(lab.exe());
            let bound =
                admission.unwrap_or(p.concurrency.max(sluice_serve::config::DEFAULT_CPU_QUEUE));
            cmd.args(["serve", "--listen", "127.0.0.1:0"])
                .args(["--cpu-queue", &bound.to_string()])
                .args(["--login-iterations", &p.iterations.to_string()])
                .arg("--file")
                .arg(file);
            if let PoolSize::Size(n) = pool {
                let cores = lab.machine().cores;
                cmd.args(["--cpu-threads", &n.min(cores).to_string()])
                    .args(["--fastio-threads", &n.to_string()])
                    .args(["--slowio-threads", &n.to_string()]);
            }
            for v in sluice::ENV_VARS {
                cmd.env_remove(v);
            }
            cmd
        }
        _ => bail!("{} has no HTTP server", subject.name()),
    })
}

/// Sets `var` to the pool size, or removes it for an unset pool.
pub(super) fn pool_env(cmd: &mut Command, var: &str, pool: PoolSize) {
    match pool {
        PoolSize::Unset => cmd.env_remove(var),
        PoolSize::Size(n) => cmd.env(var, n.to_string()),
    };
}

/// A server child: the Node twin or `sluice serve`, on a free loopback port.
pub(super) struct Server {
    child: Child,
    pub(super) port: u16,
    what: String,
    /// Node's server may exit non-zero on SIGTERM; sluice serve may not.
    node: bool,
    stderr: std::thread::JoinHandle<String>,
}

impl Server {
    /// Starts `c`'s subject's server at `c`'s pool size.
    pub(super) fn start(
        c: &Cell<'_, ()>,
        p: &Plan,
        file: &Path,
        admission: Option<usize>,
    ) -> anyhow::Result<Server> {
        let (lab, subject, pool) = (c.lab(), c.subject, c.pool);
        let what = format!("{} server (pool {pool})", subject.name());
        let mut cmd = server_command(lab, subject, pool, p, file, admission)?;
        let crate::lab::Captured {
            mut child,
            lines: rx,
            stderr,
            ..
        } = crate::lab::spawn_captured(&mut cmd, &format!("the {what}"))?;
        let port = match wait_listening(&mut child, &rx) {
            Ok(port) => port,
            Err(Unready::Exited) => bail!(
                "the {what} exited before listening: {}",
                stderr.join().unwrap_or_default()
            ),
            Err(Unready::Silent) => bail!("the {what} did not start listening within 30 s"),
        };
        Ok(Server {
            child,
            port,
            what,
            node: subject.runtime() == Runtime::Node,
            stderr,
        })
    }

    /// CPU seconds the server has used so far.
    pub(super) fn cpu_seconds(&self) -> Option<f64> {
        crate::procfs::cpu_seconds(self.child.id()).ok()
    }

    /// SIGTERM, then wait for a clean exit (sluice serve's graceful
    /// shutdown is part of what is tested).
    pub(super) fn stop(mut self) -> anyhow::Result<()> {
        let pid = nix::unistd::Pid::from_raw(self.child.id() as i32);
        let _ = nix::sys::signal::kill(pid, nix::sys::signal::Signal::SIGTERM);
        let t = Instant::now();
        let status = loop {
            if let Some(s) = self.child.try_wait()? {
                break s;
            }
            if t.elapsed() > Duration::from_secs(30) {
                let _ = self.child.kill();
                let _ = self.child.wait();
                bail!("the {} did not exit within 30 s of SIGTERM", self.what);
            }
            std::thread::sleep(Duration::from_millis(5));
        };
        let stderr = self.stderr.join().unwrap_or_default();
        if !status.success() && !self.node {
            bail!(
                "the {} exited with {status} after SIGTERM: {stderr}",
                self.what
            );
        }
        Ok(())
    }
}

/// Why a server child never said it was listening.
pub(crate) enum Unready {
    /// It exited first (its stderr says why).
    Exited,
    /// It said nothing for 30 s (it has been killed).
    Silent,
}

/// Waits up to 30 s for a server child's "listening" line (either form,
/// [`listening_port`]) on `lines`, its stdout; kills it if none comes.
pub(crate) fn wait_listening(
    child: &mut Child,
    lines: &mpsc::Receiver<String>,
) -> Result<u16, Unready> {
    let started = Instant::now();
    loop {
        match lines.recv_timeout(Duration::from_millis(50)) {
            Ok(line) => {
                if let Some(port) = listening_port(&line) {
                    return Ok(port);
                }
            }
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                let _ = child.wait();
                return Err(Unready::Exited);
            }
        }
        if started.elapsed() > Duration::from_secs(30) {
            let _ = child.kill();
            let _ = child.wait();
            return Err(Unready::Silent);
        }
    }
}

/// The port of a "listening" line of either server.
pub(super) fn listening_port(line: &str) -> Option<u16> {
    if let Ok(v) = serde_json::from_str::<Value>(line)
        && v["event"] == "listening"
    {
        return v["port"].as_u64().and_then(|p| u16::try_from(p).ok());
    }
    let rest = line.split("listening on http://").nth(1)?;
    let addr = rest.split_whitespace().next()?;
    addr.parse::<std::net::SocketAddr>().ok().map(|a| a.port())
}

/// One GET, for the cross-check of the answers' bytes.
pub(super) fn get(url: &str) -> anyhow::Result<Vec<u8>> {
    let u = sluice_serve::loopback::check_url(url).map_err(anyhow::Error::msg)?;
    sluice_serve::doctor::fetch_bytes(&u, Duration::from_secs(60))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_both_servers_listening_lines() {
        assert_eq!(
            listening_port(r#"{"event":"listening","port":4321,"pool":4}"#),
            Some(4321)
        );
        assert_eq!(
            listening_port("sluice serve: listening on http://127.0.0.1:8080 (cpu 2 threads)"),
            Some(8080)
        );
        assert_eq!(listening_port("something else"), None);
    }
}
