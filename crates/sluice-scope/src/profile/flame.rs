//! The flame graph: each sample's stack as a folded line (`root;...;leaf
//! µs`), drawn as SVG by the `inferno` crate. A frame reads `name
//! (location)`; V8's entries (`(idle)`, `(program)`, `(garbage collector)`)
//! stand alone under the root.

use super::analysis::location;
use super::cpuprofile::Indexed;
use std::collections::BTreeMap;

/// The folded stacks of `p`, one line per distinct stack, weighted by µs.
///
/// ```
/// use sluice_scope::profile::{cpuprofile::CpuProfile, flame::folded};
/// let json = r#"{"nodes":[{"id":1,"callFrame":{"functionName":"(root)","url":"","lineNumber":-1,"columnNumber":-1},"children":[2]},
///   {"id":2,"callFrame":{"functionName":"spin","url":"file:///a.js","lineNumber":0,"columnNumber":13}}],
///   "startTime":0,"endTime":3000,"samples":[2,2,2],"timeDeltas":[0,1000,1000]}"#;
/// let p = CpuProfile::from_json(json.as_bytes()).unwrap();
/// assert_eq!(folded(&p), ["spin (/a.js:1:14) 3000"]);
/// ```
pub fn folded(p: &Indexed) -> Vec<String> {
    let mut stacks: BTreeMap<String, u64> = BTreeMap::new();
    for (&id, us) in p.profile.samples.iter().zip(p.durations_us()) {
        let frames: Vec<String> = p
            .stack(id)
            .iter()
            .rev()
            .filter(|n| n.call_frame.function_name != "(root)")
            .map(|n| {
                let f = &n.call_frame;
                let name = if f.function_name.is_empty() {
                    "(anonymous)"
                } else {
                    &f.function_name
                };
                let text = if f.url.is_empty() {
                    name.to_string()
                } else {
                    format!("{name} ({})", location(f))
                };
                // `;` separates frames in the folded format.
                text.replace(';', ":")
            })
            .collect();
        if frames.is_empty() {
            continue;
        }
        *stacks.entry(frames.join(";")).or_default() += us.round() as u64;
    }
    stacks
        .into_iter()
        .filter(|(_, us)| *us > 0)
        .map(|(s, us)| format!("{s} {us}"))
        .collect()
}

/// The flame graph of `p` as SVG.
pub fn svg(p: &Indexed, title: &str) -> Result<Vec<u8>, String> {
    let lines = folded(p);
    if lines.is_empty() {
        return Err("the profile has no samples to draw".into());
    }
    let mut options = inferno::flamegraph::Options::default();
    options.title = title.to_string();
    options.count_name = "µs".into();
    options.name_type = "Function:".into();
    let mut out = Vec::new();
    inferno::flamegraph::from_lines(&mut options, lines.iter().map(String::as_str), &mut out)
        .map_err(|e| format!("drawing the flame graph: {e}"))?;
    Ok(out)
}
