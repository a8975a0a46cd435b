//! The `go` subject: the experiment's Go program (`<name>.go`, standard
//! library only), built once per lab run into the scratch directory with the
//! Go found on the machine ([`find_go`]) and run as a child of its own.
//!
//! Go has no pool to size. Its scheduler runs goroutines on `GOMAXPROCS`
//! Ps (processors); a goroutine that enters a blocking system call keeps
//! its M (thread), and the P is handed to another M, started if none is
//! idle, so blocking calls get new threads as Go decides (up to
//! `debug.SetMaxThreads`, 10 000 by default). Waits Go can put on its
//! netpoller (sockets, pipes and FIFOs opened through `os`) hold no thread
//! at all. So the lab's pool size P is `GOMAXPROCS=P` (unset: Go's default,
//! the usable cores), which bounds CPU work only; the notes say so.

use super::{Need, Runtime, Subject, SubjectSpec};
use crate::PoolSize;
use crate::lab::Lab;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Go subject.
pub(crate) struct Go;

/// A Go toolchain: its `go` command and the version it reports.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GoToolchain {
    /// The `go` command.
    pub path: PathBuf,
    /// `go env GOVERSION`, e.g. `go1.23.5`.
    pub version: String,
}

/// `go1.23.5` -> (1, 23, 5); `None` for anything else.
fn version_key(v: &str) -> Option<(u32, u32, u32)> {
    let rest = v.strip_prefix("go")?;
    let core = rest
        .split(|c: char| !(c.is_ascii_digit() || c == '.'))
        .next()?;
    let mut parts = core.split('.').map(|p| p.parse::<u32>());
    let major = parts.next()?.ok()?;
    let minor = parts.next()?.ok()?;
    let patch = parts.next().and_then(Result::ok).unwrap_or(0);
    Some((major, minor, patch))
}

/// Asks `go` its version.
fn probe(path: &Path) -> Result<GoToolchain, String> {
    let out = Command::new(path)
        .args(["env", "GOVERSION"])
        .env("GOTOOLCHAIN", "local")
        .output()
        .map_err(|e| format!("{}: {e}", path.display()))?;
    let version = String::from_utf8_lossy(&out.stdout).trim().to_string();
    if !out.status.success() || version_key(&version).is_none() {
        return Err(format!(
            "{}: `go env GOVERSION` did not name a Go version ({}{})",
            path.display(),
            version,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    Ok(GoToolchain {
        path: path.to_path_buf(),
        version,
    })
}

/// Finds Go: `explicit` if given (it must be a working `go`), else the
/// newest of `go` on `PATH` and Debian's versioned installs
/// (`/usr/lib/go-*/bin/go`, e.g. `golang-1.23-go` from bookworm-backports,
/// which is not on `PATH`).
pub fn find_go(explicit: Option<&Path>) -> Result<GoToolchain, String> {
    if let Some(p) = explicit {
        if !p.is_file() {
            return Err(format!(
                "--go {}: no such file; pass the path of a go command, or leave go out of --subjects",
                p.display()
            ));
        }
        return probe(p).map_err(|e| format!("--go {e}"));
    }
    let mut candidates: Vec<PathBuf> = std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join("go"))
        .filter(|p| p.is_file())
        .take(1)
        .collect();
    if let Ok(dirs) = std::fs::read_dir("/usr/lib") {
        for d in dirs.flatten() {
            if d.file_name().to_string_lossy().starts_with("go-") {
                let go = d.path().join("bin/go");
                if go.is_file() {
                    candidates.push(go);
                }
            }
        }
    }
    candidates
        .iter()
        .filter_map(|p| probe(p).ok())
        .max_by_key(|t| version_key(&t.version))
        .ok_or_else(|| {
            "go not found (no go on PATH, none under /usr/lib/go-*/bin); install Go (Debian: golang-go, or golang-1.23-go from bookworm-backports) or pass --go PATH, or leave go out of --subjects".to_string()
        })
}

/// What `go` is.
pub(super) static SPEC: SubjectSpec = SubjectSpec {
    about: "a Go program per experiment (goroutines; blocking system calls get new threads, the netpoller none): seed 004's runtime",
    cannot: &[
        (
            Need::Attach,
            "Go has no libuv pool for sluice scope to watch",
        ),
        (
            Need::SetSizeInside,
            "Go has no pool to size; runtime.GOMAXPROCS and debug.SetMaxThreads are other things",
        ),
    ],
    ..SubjectSpec::new("go", Runtime::Go, &Go)
};

impl Subject for Go {
    fn unavailable(&self, lab: &Lab) -> Option<String> {
        lab.go().err()
    }

    fn lane_label(&self, _lane: ::sluice::Lane) -> String {
        "goroutine".into()
    }

    fn pool_note(&self, pool: PoolSize, cores: usize) -> String {
        match pool {
            PoolSize::Unset => format!(
                "go: GOMAXPROCS unset (Go's default, {cores} usable cores); no pool: a blocking system call gets a thread of its own, a netpoller wait none"
            ),
            PoolSize::Size(n) => format!(
                "go: pool {n} is GOMAXPROCS={n} (goroutines computing at once); no pool: a blocking system call gets a thread of its own, a netpoller wait none"
            ),
        }
    }
}

/// The go subject's child command: the program [`Lab::go_program`] built
/// for `experiment`, its params as the first argument, `GOMAXPROCS` the
/// pool size.
pub(super) fn go_command(
    lab: &Lab,
    experiment: &str,
    pool: PoolSize,
    params: &serde_json::Value,
) -> anyhow::Result<Command> {
    let program = lab.go_program(experiment)?;
    let mut cmd = Command::new(program);
    cmd.arg(params.to_string()).env_remove("GODEBUG");
    match pool {
        PoolSize::Unset => cmd.env_remove("GOMAXPROCS"),
        PoolSize::Size(n) => cmd.env("GOMAXPROCS", n.to_string()),
    };
    Ok(cmd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_order_numerically() {
        assert_eq!(version_key("go1.19.8"), Some((1, 19, 8)));
        assert_eq!(version_key("go1.23.5"), Some((1, 23, 5)));
        assert_eq!(version_key("go1.22"), Some((1, 22, 0)));
        assert_eq!(version_key("go1.23rc1"), Some((1, 23, 0)));
        assert_eq!(version_key("devel"), None);
        assert!(version_key("go1.23.5") > version_key("go1.19.8"));
        assert!(version_key("go1.9.1") < version_key("go1.19.0"));
    }

    #[test]
    fn a_missing_go_is_refused_by_name() {
        let e = find_go(Some(Path::new("/nonexistent/go"))).unwrap_err();
        assert!(e.starts_with("--go /nonexistent/go: no such file"), "{e}");
    }
}
