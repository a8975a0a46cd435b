//! Functions V8 inlined before the profiler started: recorded profiles of
//! node 22 and 24 (`tests/fixtures/inlined/record.js`), a timer's callback
//! calling `tightLoop` through a property, as `sluice lab scope`'s
//! tight-loop does. With the code kept, V8 has no record of the inlining:
//! every sample of `tightLoop` is charged to the callback, on the line of
//! its call, and no line of `tightLoop` gets a tick, so no attribution by
//! line can name it. With fresh code (`Profiler.startPreciseCoverage`
//! before `Profiler.start`, as `sluice scope --profile` does) `tightLoop`
//! is a frame of its own and the top of "held by your code". Counts only.

use sluice_scope::profile::analysis::{Analysis, HeldBy, analyse};
use sluice_scope::profile::cpuprofile::CpuProfile;

fn fixture(name: &str) -> Analysis {
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/inlined")
        .join(name);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    analyse(&CpuProfile::from_json(&bytes).unwrap(), None)
}

/// The top of "held by your code" in `a`, which must be `function` at a
/// location starting `at` (`node`: which recording).
fn top<'a>(a: &'a Analysis, node: &str, function: &str, at: &str) -> &'a HeldBy {
    let top = &a.held_by[0];
    assert_eq!(top.time.function, function, "{node}");
    assert!(
        top.time.location.starts_with(at),
        "{node}: {}",
        top.time.location
    );
    top
}

#[test]
fn inlined_code_kept_is_charged_to_the_callers_call_line() {
    for node in ["node22", "node24"] {
        let a = fixture(&format!("{node}-keep.cpuprofile"));
        let top = top(&a, node, "(anonymous)", "/fixture/record.js:23:");
        // Every tick of the callback is on its one line, the call's.
        let hot = top.hot_line.as_ref().expect("per-line ticks");
        assert_eq!((hot.line, hot.pct), (23, 100.0), "{node}");
        assert!(top.time.pct > 90.0, "{node}: {}", top.time.pct);
        assert!(
            !a.held_by.iter().any(|h| h.time.function == "tightLoop"),
            "{node}: V8 named the inlined function after all"
        );
    }
}

#[test]
fn inlined_code_discarded_names_the_callee() {
    for node in ["node22", "node24"] {
        let a = fixture(&format!("{node}-fresh.cpuprofile"));
        let top = top(&a, node, "tightLoop", "/fixture/record.js:16:");
        // The samples until the optimized callback running at the start
        // returned stay with it, on the line of the call.
        let caller = &a.held_by[1];
        assert_eq!(caller.time.function, "(anonymous)", "{node}");
        assert!(top.time.samples > 2 * caller.time.samples, "{node}");
        assert_eq!(a.top_self[0].function, "tightLoop", "{node}");
    }
}
