//! The `node+sluice` subject: the real Node running the experiment's own
//! script under `-r bindings/node/patch.js` (the `sluice` npm package's
//! preload), so the script's `crypto.pbkdf2`/`scrypt`, `zlib.gzip`/`gunzip`,
//! `fs.readFile`/`stat` and `dns.lookup` run on sluice's lanes and
//! `sluice::dns` instead of libuv's pool. Runs in `sluice lab report`, and
//! in a single experiment when named in `--subjects`, wherever the
//! experiment's node script makes those calls
//! ([`ExperimentSpec::rerouted`](crate::experiment::ExperimentSpec::rerouted));
//! it needs the addon built (`npm run build` in bindings/node), and is
//! skipped with that advice when it is not. `sluice lab report` builds it
//! first ([`LabConfig::build_addon`](crate::LabConfig::build_addon)), so
//! the README's one command measures the package from a clean clone.

use super::{Need, Rules, Runtime, Subject, SubjectSpec};
use crate::PoolSize;
use crate::lab::Lab;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// Node with the sluice package preloaded.
pub(crate) struct NodeSluice;

/// What `node+sluice` is.
pub(super) static SPEC: SubjectSpec = SubjectSpec {
    about: "the real Node with the sluice npm package preloaded (node -r sluice/patch): its pool work on sluice's lanes",
    lanes: true,
    ratio_label: Some("node+sluice"),
    size_in_env: true,
    by_default: false,
    in_report: true,
    rules: Rules::Lanes,
    cannot: &[
        (
            Need::Attach,
            "its pool work runs on sluice's lanes, not on the libuv pool sluice scope watches",
        ),
        (
            Need::SetSizeInside,
            "sluice's lanes are sized once per process (sluice.configure), not changed while it runs",
        ),
    ],
    ..SubjectSpec::new("node+sluice", Runtime::Node, &NodeSluice)
};

/// How the addon was compiled (`release` or `debug`), asked once.
static PROFILE: OnceLock<Result<String, String>> = OnceLock::new();

/// The `Cpu` policy the addon's pool takes in the lab's environment
/// (`guarded`, or `normal` where the process may not leave `SCHED_IDLE`),
/// asked with the build profile.
static SCHED: OnceLock<String> = OnceLock::new();

/// The release build of the addon, run once per process when the lab
/// builds it ([`LabConfig::build_addon`](crate::LabConfig::build_addon)):
/// `Err` says why it failed.
static BUILT: OnceLock<Result<(), String>> = OnceLock::new();

/// Builds the release addon from this workspace's source with the
/// package's own build script (`node scripts/build.js --release`: cargo
/// builds `sluice-node`, the script copies it to `sluice.node`). Cargo
/// rebuilds only what changed (about a second when nothing did); its
/// output, and the script's, go to stderr, keeping stdout for the lab's
/// tables or JSON.
fn build_release_addon(node: &Path) -> Result<(), String> {
    let dir = package_dir();
    let script = dir.join("scripts/build.js");
    eprintln!(
        "sluice lab: building the node+sluice addon (release, from {}; cargo rebuilds only what changed) ...",
        dir.display()
    );
    let status = Command::new(node)
        .arg(&script)
        .arg("--release")
        .current_dir(&dir)
        .stdout(std::io::stderr())
        .status()
        .map_err(|e| format!("running {} {}: {e}", node.display(), script.display()))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "building the addon failed (`node scripts/build.js --release` in {} ended with {status}; its output is above)",
            dir.display()
        ))
    }
}

/// Asks the addon, in `node`, how it was compiled, and which `Cpu` policy
/// its pool takes here.
fn build_profile(node: &Path) -> Result<String, String> {
    let package = serde_json::to_string(&package_dir()).map_err(|e| e.to_string())?;
    let out = Command::new(node)
        .arg("-p")
        .arg(format!(
            "const s = require({package}); s.buildProfile() + ' ' + s.metricsJson().pool.cpu_sched"
        ))
        .output()
        .map_err(|e| format!("running {}: {e}", node.display()))?;
    let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let (profile, sched) = text.split_once(' ').unwrap_or((&text, ""));
    if out.status.success() && (profile == "release" || profile == "debug") && !sched.is_empty() {
        let _ = SCHED.set(sched.to_string());
        Ok(profile.to_string())
    } else {
        let err = String::from_utf8_lossy(&out.stderr);
        Err(err
            .lines()
            .find(|l| l.contains("Error"))
            .unwrap_or("buildProfile() gave no answer")
            .trim()
            .to_string())
    }
}

/// The npm package's directory in this workspace (canonical where it
/// exists, so messages name it plainly).
fn package_dir() -> PathBuf {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bindings/node");
    dir.canonicalize().unwrap_or(dir)
}

impl Subject for NodeSluice {
    fn unavailable(&self, lab: &Lab) -> Option<String> {
        let node = match lab.toolchain().node() {
            Ok(node) => node,
            Err(e) => return Some(e),
        };
        if lab.builds_addon()
            && let Err(e) = BUILT.get_or_init(|| build_release_addon(node))
        {
            return Some(e.clone());
        }
        let addon = package_dir().join("sluice.node");
        if !addon.is_file() {
            return Some(format!(
                "the addon {} is not built; build it with `npm run build` in bindings/node (cargo builds it from source)",
                addon.display()
            ));
        }
        let profile = PROFILE.get_or_init(|| build_profile(node));
        match profile {
            Ok(p) if p == "release" => None,
            // A report measures: a debug addon would show the build's cost.
            Ok(p) if lab.is_report() => Some(format!(
                "the addon {} is a {p} build (unoptimised: its pbkdf2 and gzip run many times slower, so the report would measure the build, not sluice); build the release one with `npm run build` in bindings/node",
                addon.display()
            )),
            Ok(_) => None,
            Err(e) => Some(format!(
                "the addon {} does not load in {}: {e}; rebuild it with `npm run build` in bindings/node",
                addon.display(),
                node.display()
            )),
        }
    }

    fn node_preload(&self) -> Option<PathBuf> {
        Some(package_dir().join("patch.js"))
    }

    fn pool_note(&self, pool: PoolSize, cores: usize) -> String {
        let debug = match PROFILE.get() {
            Some(Ok(p)) if p != "release" => format!(
                " (the addon is a {p} build, unoptimised: its pbkdf2 and gzip are many times slower than a release build's; `npm run build` in bindings/node builds that)"
            ),
            _ => String::new(),
        };
        // The children inherit the lab's environment, so the addon's pool
        // in them takes the policy it took when asked.
        let sched = match (SCHED.get(), std::env::var("SLUICE_CPU_SCHED")) {
            (Some(s), Ok(v)) => format!("{s} (SLUICE_CPU_SCHED={v})"),
            (Some(s), Err(_)) if s == "guarded" => {
                "guarded, the package's default (SCHED_IDLE at nice 10, SCHED_OTHER while another process starves the lane)".to_string()
            }
            (Some(s), Err(_)) => format!(
                "{s} (the package's default where the process may not leave SCHED_IDLE)"
            ),
            (None, _) => "the package's default policy".to_string(),
        };
        format!(
            "node+sluice: the preloaded calls run on sluice's lanes sized from the machine (Cpu {cores}, its workers under {sched}); {pool} sizes only libuv's pool, left to what the preload does not take{debug}"
        )
    }
}
