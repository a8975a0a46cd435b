//! `--json-out FILE`: the outcome as JSON.

use crate::outcome::Outcome;
use anyhow::Context;
use std::path::Path;

/// Writes `outcome` to `path`, pretty-printed.
pub fn write(outcome: &Outcome, path: &Path) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(outcome)?;
    std::fs::write(path, text + "\n")
        .with_context(|| format!("writing --json-out {}", path.display()))
}
