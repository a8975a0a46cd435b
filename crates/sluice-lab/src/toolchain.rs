//! [`Toolchain`]: the node and Go a lab run uses, found once (`--node`,
//! `--go`, else on `PATH`), and the experiments' Go programs, each built
//! once per run.

use crate::LabConfig;
use anyhow::{Context, bail};
use sluice::sync::lock;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::time::Instant;

/// The helpers every experiment's Go program shares (pbkdf2-sha512, ms,
/// fail, monotonicNs), built beside its `main.go`.
const GO_COMMON: &str = include_str!("experiment/common.go");

/// The node and Go of one lab run, or why each is missing.
pub struct Toolchain {
    node: Result<PathBuf, String>,
    go: Result<GoToolchain, String>,
    /// Where Go programs are built (`go/` in the run's scratch directory).
    go_root: PathBuf,
    /// Say on stderr what was built (`--progress`).
    progress: bool,
    /// The Go programs built so far, by experiment (built once per run;
    /// a failed build is kept too, so it is reported once).
    go_programs: Mutex<HashMap<String, Result<PathBuf, String>>>,
}

impl Toolchain {
    /// Finds node and Go for `config`: a missing `--node` or `--go` is an
    /// error; otherwise a missing one is kept with its reason (its
    /// subjects are skipped). Go is looked for only where it may run (asked
    /// for by `--subjects`, by `--go`, or every subject). Go programs are
    /// built under `go_root`.
    pub fn find(config: &LabConfig, go_root: PathBuf) -> anyhow::Result<Toolchain> {
        let node = find_node(config.node.as_deref());
        if config.node.is_some()
            && let Err(e) = &node
        {
            bail!("{e}");
        }
        let wants_go = config
            .subjects
            .as_ref()
            .is_none_or(|names| names.iter().any(|n| n == "go"));
        let go = if wants_go || config.go.is_some() {
            find_go(config.go.as_deref())
        } else {
            Err("go was not asked for".to_string())
        };
        if config.go.is_some()
            && let Err(e) = &go
        {
            bail!("{e}");
        }
        Ok(Toolchain {
            node,
            go,
            go_root,
            progress: config.progress,
            go_programs: Mutex::default(),
        })
    }

    /// The node binary, or why there is none.
    pub fn node(&self) -> Result<&Path, String> {
        self.node.as_deref().map_err(Clone::clone)
    }

    /// The Go toolchain, or why there is none.
    pub fn go(&self) -> Result<&GoToolchain, String> {
        self.go.as_ref().map_err(Clone::clone)
    }

    /// `experiment`'s Go program, built on first use under the scratch
    /// directory: its `<name>.go` as `main.go` beside a `go.mod` without
    /// requirements, built with module downloads off (`GOPROXY=off`,
    /// `GOFLAGS=-mod=mod`, `GOTOOLCHAIN=local`; no user `go env` file:
    /// `GOENV=off`), `GOPATH` in the scratch
    /// directory and the lab's own `GOCACHE` (kept between runs in the
    /// system's temporary directory, so the standard library is compiled
    /// once per machine, not per run).
    pub fn go_program(&self, experiment: &str) -> anyhow::Result<PathBuf> {
        let mut built = lock(&self.go_programs);
        let result = built
            .entry(experiment.to_string())
            .or_insert_with(|| self.build_go(experiment).map_err(|e| format!("{e:#}")));
        result.clone().map_err(anyhow::Error::msg)
    }

    fn build_go(&self, experiment: &str) -> anyhow::Result<PathBuf> {
        let go = self.go().map_err(anyhow::Error::msg)?;
        let program = crate::experiment::workload_source(experiment, "Go program", |w| w.go)?;
        let dir = self.go_root.join(experiment);
        std::fs::create_dir_all(&dir).with_context(|| format!("creating {}", dir.display()))?;
        std::fs::write(
            dir.join("go.mod"),
            format!("module sluicelab/{experiment}\n\ngo 1.19\n"),
        )?;
        std::fs::write(dir.join("main.go"), program)?;
        std::fs::write(dir.join("common.go"), GO_COMMON)?;
        let out = dir.join(format!("{experiment}-go"));
        let cache = std::env::var_os("SLUICE_GO_CACHE")
            .map(PathBuf::from)
            .unwrap_or_else(|| std::env::temp_dir().join("sluice-lab-go-cache"));
        let started = Instant::now();
        let result = Command::new(&go.path)
            .args(["build", "-trimpath", "-o"])
            .arg(&out)
            .arg(".")
            .current_dir(&dir)
            .env("GOCACHE", &cache)
            .env("GOPATH", self.go_root.join("gopath"))
            .env("GOPROXY", "off")
            .env("GOFLAGS", "-mod=mod")
            .env("GOTOOLCHAIN", "local")
            .env("GOSUMDB", "off")
            .env("GOWORK", "off")
            .env("GOENV", "off")
            .env("GO111MODULE", "on")
            .env_remove("GOOS")
            .env_remove("GOARCH")
            .stdin(Stdio::null())
            .output()
            .with_context(|| format!("starting {} build", go.path.display()))?;
        if !result.status.success() {
            bail!(
                "{} build of {experiment}.go failed ({}):\n{}",
                go.version,
                result.status,
                crate::child::tail(&String::from_utf8_lossy(&result.stderr), 2000)
            );
        }
        if self.progress {
            eprintln!(
                "built {experiment}.go with {} in {:.1} s",
                go.version,
                started.elapsed().as_secs_f64()
            );
        }
        Ok(out)
    }
}

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
