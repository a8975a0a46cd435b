//! autocannon, where it is on `PATH`: the cross-check of the lab's load
//! generator (`http` and `app` run their floods again with it).

use anyhow::{Context, bail};
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Duration;

/// `name` on `PATH`, if there.
pub(crate) fn find_on_path(name: &str) -> Option<PathBuf> {
    std::env::var_os("PATH")
        .into_iter()
        .flat_map(|paths| std::env::split_paths(&paths).collect::<Vec<_>>())
        .map(|dir| dir.join(name))
        .find(|p| p.is_file())
}

/// autocannon on `url`: `-c c -d seconds -j`; its req/s average, p50, p99,
/// non-2xx and errors.
pub(crate) fn autocannon(
    cannon: &Path,
    url: &str,
    c: usize,
    duration: Duration,
) -> anyhow::Result<Vec<(&'static str, f64)>> {
    let secs = duration.as_secs_f64().ceil().max(1.0) as u64;
    let out = Command::new(cannon)
        .args(["-c", &c.to_string(), "-d", &secs.to_string(), "-j", url])
        .stdin(Stdio::null())
        .output()
        .with_context(|| format!("running {}", cannon.display()))?;
    if !out.status.success() {
        bail!(
            "autocannon failed ({}): {}",
            out.status,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    let text = String::from_utf8_lossy(&out.stdout);
    let v: Value = text
        .lines()
        .rev()
        .find_map(|l| serde_json::from_str(l).ok())
        .with_context(|| format!("autocannon printed no JSON: {text:?}"))?;
    let num = |p: &[&str]| p.iter().fold(&v, |v, k| &v[*k]).as_f64();
    let ok = num(&["2xx"]).unwrap_or(0.0);
    Ok(vec![
        ("req_s", ok / secs as f64),
        (
            "requests_avg_s",
            num(&["requests", "average"]).unwrap_or(f64::NAN),
        ),
        ("p50_ms", num(&["latency", "p50"]).unwrap_or(f64::NAN)),
        ("p99_ms", num(&["latency", "p99"]).unwrap_or(f64::NAN)),
        ("non2xx", num(&["non2xx"]).unwrap_or(0.0)),
        ("errors", num(&["errors"]).unwrap_or(0.0)),
    ]
    .into_iter()
    .filter(|(_, v)| v.is_finite())
    .collect())
}
