//! `sluice lab scope` over several node builds (`--node` given again):
//! this machine's node and Debian's node 18 (shared, stripped libuv.so.1,
//! fetched by `scripts/fetch-nodes`; the Debian part is skipped, with the
//! reason, where it cannot be had), one table, every verdict right; other
//! experiments refuse a repeated `--node`. Counts only.

mod common;

use common::{lab_with, refused, words};
use std::collections::BTreeSet;

fn debian_node() -> Result<String, String> {
    let script = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/fetch-nodes");
    let out = std::process::Command::new("bash")
        .arg(&script)
        .arg("debian-18")
        .output()
        .map_err(|e| format!("running {}: {e}", script.display()))?;
    if !out.status.success() {
        return Err(String::from_utf8_lossy(&out.stderr).trim().to_string());
    }
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .find_map(|l| l.strip_prefix("debian-18 "))
        .map(str::to_string)
        .ok_or_else(|| "fetch-nodes printed no path".into())
}

fn system_node() -> String {
    common::node::path().display().to_string()
}

#[test]
fn lab_scope_compares_node_builds_in_one_table() {
    let debian = match debian_node() {
        Ok(p) => p,
        Err(why) => {
            println!("skipped: Debian's node 18 cannot be had here: {why}");
            return;
        }
    };
    let node = system_node();
    let mut args = words("scope --pools 4 --workloads idle,read-2x,loop-blocker --window-ms 300");
    args.extend(["--node", &node, "--node", &debian]);
    let (v, stdout) = lab_with(&args);
    common::assert_schema(&v, "scope");
    let rows = v["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 6, "3 workloads x 2 builds");
    let builds: BTreeSet<String> = rows
        .iter()
        .map(|r| r["params"]["node"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(builds.len(), 2, "{builds:?}");
    assert!(builds.contains("v18.20.4 (libuv 1.44.2)"), "{builds:?}");
    for r in rows {
        assert_eq!(r["metrics"]["pool_found"], 4.0, "{r}");
        assert_eq!(r["metrics"]["verdict_ok"], 1.0, "{r}");
        if r["params"]["node"] == "v18.20.4 (libuv 1.44.2)" {
            // libuv.so.1 is stripped: the pool is told by start routine.
            assert_eq!(r["params"]["discovery"], "start-routine", "{r}");
        }
    }
    assert!(stdout.contains("v18.20.4 (libuv 1.44.2)"), "{stdout}");
    assert!(
        stdout.contains(&format!("node build: {debian}")),
        "{stdout}"
    );
}

#[test]
fn other_experiments_refuse_several_nodes_and_a_missing_build_is_named() {
    let node = system_node();
    refused(
        &[
            "lab",
            "staircase",
            "--no-progress",
            "--node",
            &node,
            "--node",
            &node,
        ],
        "--node given 2 times: only `sluice lab scope` (and `sluice lab report`, for its scope section) compares node builds",
    );
    let mut args = words("lab scope --no-progress --workloads idle --pools 1");
    args.extend(["--node", &node, "--node", "/nonexistent/node"]);
    refused(&args, "--node /nonexistent/node: no such file");
}
