//! [`CpuProfile`]: V8's `.cpuprofile` (what `Profiler.stop` returns and
//! Chrome DevTools loads): a call tree of nodes, each with its call frame
//! and children, and the samples, each the id of the node that was running
//! with the time since the previous sample.

use serde::Deserialize;
use std::collections::HashMap;

/// Where a function is: V8's call frame. Lines and columns are 0-based.
#[derive(Debug, Clone, PartialEq, Eq, Hash, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CallFrame {
    /// The function's name (empty for an anonymous function or a script's
    /// top level; `(program)`, `(idle)`, `(garbage collector)`, `(root)`
    /// for V8's own entries; `RegExp: ...` for a regular expression).
    pub function_name: String,
    /// The script's id.
    #[serde(default)]
    pub script_id: String,
    /// The script (`file:///...`, `node:internal/...`; empty for V8's
    /// entries and builtins).
    #[serde(default)]
    pub url: String,
    /// 0-based line (-1: none).
    #[serde(default)]
    pub line_number: i64,
    /// 0-based column (-1: none).
    #[serde(default)]
    pub column_number: i64,
}

/// Ticks on one line of a function (1-based line).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
pub struct PositionTick {
    /// 1-based line.
    pub line: i64,
    /// Samples on it.
    pub ticks: u64,
}

/// One node of the call tree.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Node {
    /// Its id.
    pub id: u64,
    /// The function.
    pub call_frame: CallFrame,
    /// Its children's ids.
    #[serde(default)]
    pub children: Vec<u64>,
    /// Samples per line, where V8 recorded them.
    #[serde(default)]
    pub position_ticks: Vec<PositionTick>,
}

/// A `.cpuprofile`.
#[derive(Debug, Clone, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CpuProfile {
    /// The call tree's nodes, the root first.
    pub nodes: Vec<Node>,
    /// Start, in µs of V8's clock.
    pub start_time: f64,
    /// End, in µs.
    pub end_time: f64,
    /// The node running at each sample.
    #[serde(default)]
    pub samples: Vec<u64>,
    /// µs since the previous sample (the first: since `start_time`).
    #[serde(default)]
    pub time_deltas: Vec<i64>,
}

/// A profile with its tree indexed.
#[derive(Debug, Clone)]
pub struct Indexed {
    /// The profile.
    pub profile: CpuProfile,
    index: HashMap<u64, usize>,
    parent: HashMap<u64, u64>,
}

impl CpuProfile {
    /// Parses and checks a profile: every sample and child names a node,
    /// and there is a time delta per sample.
    ///
    /// ```
    /// use sluice_scope::profile::cpuprofile::CpuProfile;
    /// let json = r#"{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","scriptId":"0","url":"","lineNumber":-1,"columnNumber":-1},"children":[2]},
    ///   {"id":2,"callFrame":{"functionName":"spin","scriptId":"9","url":"file:///a.js","lineNumber":0,"columnNumber":13}}],
    ///   "startTime":0,"endTime":3000,"samples":[2,2,2],"timeDeltas":[0,1000,1000]}"#;
    /// let p = CpuProfile::from_json(json.as_bytes()).unwrap();
    /// assert_eq!(p.profile.samples.len(), 3);
    /// assert_eq!(p.stack(2).len(), 2);
    /// ```
    pub fn from_json(bytes: &[u8]) -> Result<Indexed, String> {
        let profile: CpuProfile =
            serde_json::from_slice(bytes).map_err(|e| format!("not a .cpuprofile: {e}"))?;
        profile.index()
    }

    /// Indexes the tree, checking it.
    pub fn index(self) -> Result<Indexed, String> {
        let index: HashMap<u64, usize> = self
            .nodes
            .iter()
            .enumerate()
            .map(|(i, n)| (n.id, i))
            .collect();
        let mut parent = HashMap::new();
        for n in &self.nodes {
            for c in &n.children {
                if !index.contains_key(c) {
                    return Err(format!(
                        "node {} names a child {c} that is not in the profile",
                        n.id
                    ));
                }
                parent.insert(*c, n.id);
            }
        }
        if let Some(s) = self.samples.iter().find(|s| !index.contains_key(s)) {
            return Err(format!(
                "a sample names node {s}, which is not in the profile"
            ));
        }
        if self.time_deltas.len() != self.samples.len() {
            return Err(format!(
                "{} samples but {} time deltas",
                self.samples.len(),
                self.time_deltas.len()
            ));
        }
        Ok(Indexed {
            profile: self,
            index,
            parent,
        })
    }
}

impl Indexed {
    /// The node with id `id`.
    pub fn node(&self, id: u64) -> &Node {
        &self.profile.nodes[self.index[&id]]
    }

    /// The stack of node `id`: itself first, then its callers up to the
    /// root (included).
    pub fn stack(&self, id: u64) -> Vec<&Node> {
        let mut out = vec![self.node(id)];
        let mut at = id;
        while let Some(&p) = self.parent.get(&at) {
            out.push(self.node(p));
            at = p;
        }
        out
    }

    /// Each sample's duration in µs: until the next sample; the last one
    /// until `end_time` (as Chrome DevTools counts). Never negative.
    pub fn durations_us(&self) -> Vec<f64> {
        let p = &self.profile;
        let mut t = p.start_time;
        let stamps: Vec<f64> = p
            .time_deltas
            .iter()
            .map(|d| {
                t += *d as f64;
                t
            })
            .collect();
        stamps
            .iter()
            .enumerate()
            .map(|(i, s)| {
                let next = stamps.get(i + 1).copied().unwrap_or(p.end_time);
                (next - s).max(0.0)
            })
            .collect()
    }
}
