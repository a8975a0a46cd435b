//! The servers `http` drives: the Node twin (`http.js`), the Go twin
//! (`http.go`), `sluice serve --libuv` and `sluice serve`, each a child on
//! a free loopback port, stopped with SIGTERM (a clean exit is part of
//! what is tested).

use super::Plan;
use crate::PoolSize;
use crate::child::ServerChild;
use crate::lab::Lab;
use crate::subject::{Runtime, SubjectSpec};
use crate::sweep::Cell;
use anyhow::bail;
use serde_json::json;
use sluice::Policy;
use std::path::Path;
use std::process::Command;
use std::time::Duration;

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
            let node = lab.toolchain().node().map_err(anyhow::Error::msg)?;
            let mut cmd = Command::new(node);
            let preload = subject.node_preload();
            if let Some(preload) = &preload {
                cmd.arg("-r").arg(preload);
            }
            // With the preload, the twin admits through the package itself:
            // its Cpu lane bounded, a full lane refused with ESLUICEBUSY.
            let package = preload.as_deref().and_then(Path::parent);
            cmd.arg(lab.runner().node_script("http")?).arg(
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
            let mut cmd = Command::new(lab.toolchain().go_program("http")?);
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
            let mut cmd = Command::new(lab.runner().exe());
            cmd.args(["serve", "--listen", "127.0.0.1:0", "--libuv"])
                .args(["--login-iterations", &p.iterations.to_string()])
                .arg("--file")
                .arg(file);
            pool_env(&mut cmd, "UV_THREADPOOL_SIZE", pool);
            cmd
        }
        (Runtime::Rust, Some(Policy::Lanes)) => {
            let mut cmd = Command::new(lab.runner().exe());
            let bound =
                admission.unwrap_or(p.concurrency.max(sluice_serve::config::DEFAULT_CPU_QUEUE));
            cmd.args(["serve", "--listen", "127.0.0.1:0"])
                .args(["--cpu-queue", &bound.to_string()])
                .args(["--login-iterations", &p.iterations.to_string()])
                .arg("--file")
                .arg(file);
            if let PoolSize::Size(n) = pool {
                let cores = lab.record().machine().cores;
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
    child: ServerChild,
    pub(super) port: u16,
    /// Node's server may exit non-zero on SIGTERM; sluice serve may not.
    node: bool,
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
        let cmd = server_command(lab, subject, pool, p, file, admission)?;
        let child = ServerChild::start(cmd, what)?;
        Ok(Server {
            port: child.port,
            child,
            node: subject.runtime() == Runtime::Node,
        })
    }

    /// CPU seconds the server has used so far.
    pub(super) fn cpu_seconds(&self) -> Option<f64> {
        crate::procfs::cpu_seconds(self.child.pid()).ok()
    }

    /// SIGTERM, then wait for a clean exit (sluice serve's graceful
    /// shutdown is part of what is tested).
    pub(super) fn stop(self) -> anyhow::Result<()> {
        let what = self.child.what.clone();
        let (status, stderr) = self.child.stop()?;
        if !status.success() && !self.node {
            bail!("the {what} exited with {status} after SIGTERM: {stderr}");
        }
        Ok(())
    }
}

/// One GET, for the cross-check of the answers' bytes.
pub(super) fn get(url: &str) -> anyhow::Result<Vec<u8>> {
    let u = sluice_serve::loopback::check_url(url).map_err(anyhow::Error::msg)?;
    sluice_serve::doctor::fetch_bytes(&u, Duration::from_secs(60))
}
