//! The `node+sluice` subject: the real Node running the experiment's own
//! script under `-r bindings/node/patch.js` (the `sluice` npm package's
//! preload), so the script's `crypto.pbkdf2`/`scrypt`, `zlib.gzip`/`gunzip`,
//! `fs.readFile`/`stat` and `dns.lookup` run on sluice's lanes and
//! `sluice::dns` instead of libuv's pool. Runs only when named in
//! `--subjects`: it needs the addon built (`npm run build` in bindings/node).

use super::{Need, Rules, Runtime, Subject, SubjectSpec};
use crate::PoolSize;
use crate::lab::Lab;
use std::path::PathBuf;

/// Node with the sluice package preloaded.
pub(crate) struct NodeSluice;

static SPEC: SubjectSpec = SubjectSpec {
    name: "node+sluice",
    about: "the real Node with the sluice npm package preloaded (node -r sluice/patch): its pool work on sluice's lanes",
    runtime: Runtime::Node,
    lanes: true,
    ratio_label: Some("node+sluice"),
    size_in_env: true,
    by_default: false,
    rules: Rules::Lanes,
    ..SubjectSpec::BASE
};

/// The npm package's directory in this workspace.
fn package_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../bindings/node")
}

impl Subject for NodeSluice {
    fn spec(&self) -> &'static SubjectSpec {
        &SPEC
    }

    fn supports(&self, need: Need) -> Result<(), String> {
        match need {
            Need::HttpServer => Ok(()),
            Need::Attach => Err(
                "its pool work runs on sluice's lanes, not on the libuv pool sluice scope watches"
                    .into(),
            ),
            Need::SetSizeInside => Err(
                "sluice's lanes are sized once per process (sluice.configure), not changed while it runs"
                    .into(),
            ),
        }
    }

    fn unavailable(&self, lab: &Lab) -> Option<String> {
        if let Err(e) = lab.node() {
            return Some(e);
        }
        let addon = package_dir().join("sluice.node");
        (!addon.is_file()).then(|| {
            format!(
                "{} is not built: run `npm run build` in bindings/node (a cargo build of the addon), or leave node+sluice out of --subjects",
                addon.display()
            )
        })
    }

    fn node_preload(&self) -> Option<PathBuf> {
        Some(package_dir().join("patch.js"))
    }

    fn pool_note(&self, pool: PoolSize, cores: usize) -> String {
        format!(
            "node+sluice: the preloaded calls run on sluice's lanes sized from the machine (Cpu {cores}); {pool} sizes only libuv's pool, left to what the preload does not take"
        )
    }
}
