//! Namespaced runs: a subject's child in a private network and mount
//! namespace whose only name server is the DNS delay server.
//!
//! `sluice lab-netns [SERVER FLAGS] --stats FILE -- PROGRAM ARGS` (hidden;
//! [`wrap`] builds it around a subject's command) does, in order:
//!
//! 1. `unshare(CLONE_NEWNET | CLONE_NEWNS)` while the process has one
//!    thread (as root; otherwise, or if root lacks `CAP_SYS_ADMIN`, with
//!    `CLONE_NEWUSER` too, mapping the caller to root inside). No
//!    permission: an error that says what is needed.
//! 2. Every mount in the new mount namespace is made private, recursively
//!    (`mount --make-rprivate /`, what `unshare --propagation private`
//!    does), and `/proc/self/mountinfo` is checked: if any mount is still
//!    in a shared peer group, it stops before mounting anything.
//! 3. `lo` is brought up (a netlink request; see `loopback.rs`).
//! 4. A `resolv.conf` naming `127.0.0.1` (or `--resolv-conf FILE`) is
//!    bind-mounted over `/etc/resolv.conf`, in this namespace only; so is a copy of
//!    `/etc/nsswitch.conf` whose `hosts:` line is `files dns` when the
//!    machine's says anything else (so `getaddrinfo` reaches the server),
//!    a `--hosts FILE` over `/etc/hosts` if given, and an empty tmpfs over
//!    `/run/nscd` if it exists (so no cache daemon answers from outside).
//!    `/etc/resolv.conf` is read back to check.
//! 5. The delay server starts on `127.0.0.1:53` (UDP and TCP), in-process.
//! 6. `PROGRAM` runs with the same environment and stdio, killed if this
//!    process dies (`PR_SET_PDEATHSIG`); when it exits the server stops,
//!    writes its counts to the stats file, and this process exits with the
//!    child's code.
//!
//! Nothing here writes to the machine's files: the mounts live and die
//! with the namespace. The parent checks that anyway ([`HostGuard`]).

mod guard;
mod loopback;

pub use guard::{HOST_RESOLV_CONF, HostGuard};

use crate::dns_delay::{DelayConfig, DelayServer, Stats};
use anyhow::{Context, anyhow, bail};
use nix::mount::{MsFlags, mount};
use nix::sched::{CloneFlags, unshare};
use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// What `sluice lab-netns` runs.
#[derive(Debug, Clone)]
pub struct NetnsRun {
    /// The delay server (its `listen` is replaced by `127.0.0.1:53`; its
    /// `stats_file` is where the counts go).
    pub server: DelayConfig,
    /// A hosts file to mount over `/etc/hosts`.
    pub hosts: Option<PathBuf>,
    /// The namespace's `resolv.conf` (search list, options) instead of
    /// the one naming `127.0.0.1` alone; it must name `127.0.0.1` itself
    /// for the delay server to be asked.
    pub resolv_conf: Option<PathBuf>,
    /// The program to run inside.
    pub program: OsString,
    /// Its arguments.
    pub args: Vec<OsString>,
}

/// What the namespaces need, for error messages.
const NEEDS: &str = "the DNS experiments run their subjects in a private network and mount namespace, which needs root with CAP_SYS_ADMIN (in a container: --cap-add SYS_ADMIN, or --privileged) or, for a normal user, unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 where it exists, user.max_user_namespaces > 0, and on Ubuntu 24.04 or later kernel.apparmor_restrict_unprivileged_userns=0)";

/// The `resolv.conf` of the namespace.
const RESOLV_CONF: &str = "# sluice lab-netns: this network namespace's name server is the DNS delay server\nnameserver 127.0.0.1\n";

/// Steps 1 to 3: enters new network and mount namespaces with private
/// mounts and `lo` up. Must run before this process starts any thread.
fn enter() -> anyhow::Result<()> {
    if let Ok(threads) = thread_count()
        && threads != 1
    {
        bail!(
            "internal error: the namespaces must be entered before any thread starts ({threads} threads)"
        );
    }
    let uid = nix::unistd::getuid();
    let gid = nix::unistd::getgid();
    let plain = CloneFlags::CLONE_NEWNET | CloneFlags::CLONE_NEWNS;
    let with_user = plain | CloneFlags::CLONE_NEWUSER;
    let first = if uid.is_root() { plain } else { with_user };
    let user_ns = match unshare(first) {
        Ok(()) => !uid.is_root(),
        Err(e) if uid.is_root() && e == nix::errno::Errno::EPERM => match unshare(with_user) {
            Ok(()) => true,
            Err(e2) => bail!(
                "creating the namespaces failed: unshare(CLONE_NEWNET|CLONE_NEWNS) as root: {e}, and with CLONE_NEWUSER: {e2}; {NEEDS}"
            ),
        },
        Err(e) => bail!(
            "creating the namespaces failed: unshare({}) as uid {uid}: {e}; {NEEDS}",
            if uid.is_root() {
                "CLONE_NEWNET|CLONE_NEWNS"
            } else {
                "CLONE_NEWUSER|CLONE_NEWNET|CLONE_NEWNS"
            }
        ),
    };
    if user_ns {
        let write = |file: &str, text: String| {
            std::fs::write(file, &text).with_context(|| {
                format!("writing {text:?} to {file} in the new user namespace; {NEEDS}")
            })
        };
        // `procfs` writes none of these three files.
        write("/proc/self/setgroups", "deny".into())?;
        write("/proc/self/uid_map", format!("0 {uid} 1"))?;
        write("/proc/self/gid_map", format!("0 {gid} 1"))?;
    }
    mount(
        None::<&str>,
        "/",
        None::<&str>,
        MsFlags::MS_REC | MsFlags::MS_PRIVATE,
        None::<&str>,
    )
    .with_context(|| format!("making every mount private in the new mount namespace; {NEEDS}"))?;
    let shared = guard::shared_mounts();
    if !shared.is_empty() {
        bail!(
            "after making every mount private, these are still shared with the machine: {}; refusing to mount anything",
            shared.join(", ")
        );
    }
    loopback::up()
}

/// Bind-mounts `file` over `target`, in this (private) mount namespace.
fn bind(file: &Path, target: &str) -> anyhow::Result<()> {
    if !Path::new(target).exists() {
        bail!(
            "{target} does not exist on this machine; the namespace can only mount over an existing file"
        );
    }
    mount(
        Some(file),
        target,
        None::<&str>,
        MsFlags::MS_BIND,
        None::<&str>,
    )
    .with_context(|| {
        format!(
            "bind-mounting {} over {target} inside the namespace",
            file.display()
        )
    })
}

/// Step 4: the namespace's own resolver configuration. Returns the
/// directory holding the mounted files (removed when dropped).
fn configure(
    hosts: Option<&Path>,
    resolv_conf: Option<&Path>,
) -> anyhow::Result<tempfile::TempDir> {
    let dir = tempfile::Builder::new()
        .prefix("sluice-netns-")
        .tempdir()
        .context("creating a directory for the namespace's resolv.conf")?;
    let resolv = dir.path().join("resolv.conf");
    let resolv_text = match resolv_conf {
        Some(path) => std::fs::read_to_string(path)
            .with_context(|| format!("--resolv-conf {}: reading it", path.display()))?,
        None => RESOLV_CONF.to_string(),
    };
    std::fs::write(&resolv, &resolv_text)?;
    bind(&resolv, HOST_RESOLV_CONF)?;
    if let Ok(text) = std::fs::read_to_string("/etc/nsswitch.conf") {
        let hosts_line = |l: &str| l.trim_start().starts_with("hosts:");
        let current = text.lines().find(|l| hosts_line(l)).map(|l| {
            l.split('#')
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        });
        if current.as_deref() != Some("hosts: files dns") {
            let mut rewritten: Vec<String> = text
                .lines()
                .filter(|l| !hosts_line(l))
                .map(str::to_string)
                .collect();
            rewritten.push("hosts: files dns".into());
            let path = dir.path().join("nsswitch.conf");
            std::fs::write(&path, rewritten.join("\n") + "\n")?;
            bind(&path, "/etc/nsswitch.conf")?;
        }
    }
    if let Some(h) = hosts {
        bind(h, "/etc/hosts")?;
    }
    for nscd in ["/run/nscd", "/var/run/nscd"] {
        if Path::new(nscd).is_dir() {
            mount(
                Some("tmpfs"),
                nscd,
                Some("tmpfs"),
                MsFlags::empty(),
                None::<&str>,
            )
            .with_context(|| format!("hiding {nscd} inside the namespace"))?;
        }
    }
    let seen = std::fs::read_to_string(HOST_RESOLV_CONF).unwrap_or_default();
    if seen != resolv_text {
        bail!(
            "after the bind mount, {HOST_RESOLV_CONF} inside the namespace reads {seen:?}, not the namespace's resolv.conf"
        );
    }
    Ok(dir)
}

/// `sluice lab-netns --check`: enters the namespaces and mounts the
/// namespace's `resolv.conf`, then exits. Fails with what is needed.
pub fn check() -> anyhow::Result<()> {
    enter()?;
    configure(None, None).map(drop)
}

/// `sluice lab-netns ... -- PROGRAM ARGS`: steps 1 to 6. Returns the
/// child's exit code (128 + signal if a signal ended it).
pub fn run(r: NetnsRun) -> anyhow::Result<i32> {
    enter()?;
    let _dir = configure(r.hosts.as_deref(), r.resolv_conf.as_deref())?;
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .thread_name("netns-dns")
        .enable_all()
        .build()?;
    let mut config = r.server;
    config.listen = "127.0.0.1:53".parse().expect("a socket address");
    let server = rt.block_on(DelayServer::start(config))?;
    let mut cmd = Command::new(&r.program);
    cmd.args(&r.args);
    kill_with_parent(&mut cmd);
    let status = cmd
        .status()
        .with_context(|| format!("starting {:?} inside the namespace", r.program))?;
    rt.block_on(server.stop());
    use std::os::unix::process::ExitStatusExt;
    Ok(status
        .code()
        .unwrap_or_else(|| 128 + status.signal().unwrap_or(0)))
}

/// Makes `cmd`'s process receive SIGKILL when this one dies, so a child
/// never outlives its namespace's name server.
#[allow(unsafe_code)]
fn kill_with_parent(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    let parent = nix::unistd::getpid();
    // SAFETY: the closure runs in the forked child before exec. It calls
    // only prctl(2) and getppid(2), both async-signal-safe, takes no lock
    // and allocates nothing (errors are raw OS errors), so it is sound in a
    // child forked from a multi-threaded process.
    unsafe {
        cmd.pre_exec(move || {
            nix::sys::prctl::set_pdeathsig(nix::sys::signal::Signal::SIGKILL)?;
            // The parent died between fork and prctl: do not run orphaned.
            if nix::unistd::getppid() != parent {
                return Err(std::io::Error::from_raw_os_error(
                    nix::errno::Errno::ESRCH as i32,
                ));
            }
            Ok(())
        });
    }
}

/// Whether namespaced runs work here: `exe lab-netns --check`, once per
/// process. `Err` is what is missing.
pub fn available(exe: &Path) -> Result<(), String> {
    static CHECKED: OnceLock<Result<(), String>> = OnceLock::new();
    CHECKED
        .get_or_init(|| {
            let out = Command::new(exe)
                .args(["lab-netns", "--check"])
                .output()
                .map_err(|e| format!("running {} lab-netns --check: {e}", exe.display()))?;
            if out.status.success() {
                return Ok(());
            }
            let err = String::from_utf8_lossy(&out.stderr);
            let last = err
                .lines()
                .rev()
                .find(|l| !l.trim().is_empty())
                .unwrap_or("no error printed");
            Err(last.trim().trim_start_matches("sluice: ").to_string())
        })
        .clone()
}

/// The child's `--hold` value: the one duration grammar's own text
/// (`sluice_duration::format`, e.g. `1s 500ms`), which the child's flag
/// reads back exactly with `parse_duration`; not a float re-printed as ms.
pub fn hold_arg(hold: std::time::Duration) -> String {
    sluice_duration::format(hold)
}

/// `cmd`, run inside the namespace by `exe lab-netns`, with a delay server
/// configured as `server` writing its counts to `stats`. The environment
/// changes and working directory of `cmd` carry over.
pub fn wrap(exe: &Path, cmd: &Command, server: &DelayConfig, stats: &Path) -> Command {
    let mut w = Command::new(exe);
    w.arg("lab-netns")
        .arg("--hold")
        .arg(hold_arg(server.hold))
        .arg("--ttl")
        .arg(server.ttl.to_string());
    for ip in server
        .answer_v4
        .iter()
        .map(ToString::to_string)
        .chain(server.answer_v6.iter().map(ToString::to_string))
    {
        w.arg("--answer").arg(ip);
    }
    for p in &server.fast {
        w.arg("--fast").arg(p.to_string());
    }
    w.arg("--stats")
        .arg(stats)
        .arg("--")
        .arg(cmd.get_program())
        .args(cmd.get_args());
    for (k, v) in cmd.get_envs() {
        match v {
            Some(v) => w.env(k, v),
            None => w.env_remove(k),
        };
    }
    if let Some(d) = cmd.get_current_dir() {
        w.current_dir(d);
    }
    w
}

/// Reads the stats a namespaced run left, and checks the host's
/// `/etc/resolv.conf` against `guard`.
pub fn finish(stats: &Path, guard: &HostGuard) -> anyhow::Result<Stats> {
    guard.verify()?;
    Stats::read(stats).map_err(|e| anyhow!("{e:#} (the namespaced run left no counts)"))
}

/// This process's thread count, from `/proc/self/task`.
fn thread_count() -> procfs::ProcResult<usize> {
    Ok(procfs::process::Process::myself()?.tasks()?.count())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn the_hold_reaches_the_child_exactly() {
        for hold in [
            Duration::ZERO,
            Duration::from_nanos(1),
            Duration::from_millis(300),
            Duration::from_nanos(33_333_333),
            Duration::from_millis(1500),
            Duration::from_secs(3600),
        ] {
            let cmd = wrap(
                Path::new("sluice"),
                &Command::new("true"),
                &DelayConfig {
                    hold,
                    ..DelayConfig::default()
                },
                Path::new("stats.json"),
            );
            let args: Vec<_> = cmd.get_args().map(|a| a.to_str().unwrap()).collect();
            let at = args.iter().position(|a| *a == "--hold").unwrap();
            assert_eq!(args[at + 1], hold_arg(hold));
            assert_eq!(
                sluice_duration::parse_duration(args[at + 1]).unwrap(),
                hold,
                "{:?}",
                args[at + 1]
            );
        }
    }
}
