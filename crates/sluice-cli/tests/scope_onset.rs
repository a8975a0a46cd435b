//! `sluice scope`'s doctor when the loop is blocked and the pool saturated
//! at once: the evidence says which came first and what each is doing.
//! Against a real node whose pool saturates first and whose loop blocks
//! 2.5 s later; the assertions are on verdicts and words, not durations.

mod common;

use serde_json::Value;

const POOL_THEN_LOOP: &str = r#"
const crypto = require('crypto');
let inflight = 0;
function top() { while (inflight < 32) { inflight++; crypto.pbkdf2('p', 's', 200000, 32, 'sha256', () => { inflight--; }); } }
setInterval(top, 5); top();
console.log('ready');
setTimeout(() => setInterval(function blockLoop() { const end = Date.now() + 200; while (Date.now() < end) {} top(); }, 1), 2500);
"#;

#[test]
fn the_pool_saturated_first_then_the_loop_blocked() {
    let node = common::node::eval(POOL_THEN_LOOP, &[], 2);
    let out = common::run(&[
        "scope",
        &node.pid().to_string(),
        "--json",
        "--duration",
        "6",
    ]);
    drop(node);
    // A problem found: exit code 1.
    assert_eq!(out.code, Some(1), "{}", out.stderr);
    let windows = out.json_lines();
    let verdicts: Vec<&str> = windows
        .iter()
        .map(|w| w["verdict"].as_str().unwrap())
        .collect();
    assert_eq!(verdicts[0], "pool-saturated", "{verdicts:?}");
    let both: Vec<&Value> = windows
        .iter()
        .filter(|w| w["verdict"] == "loop-blocked+pool-saturated")
        .collect();
    assert!(!both.is_empty(), "{verdicts:?}");
    for w in both {
        assert_eq!(w["onset"]["first"], "pool", "{}", w["onset"]);
        let e = w["evidence"].as_str().unwrap();
        assert!(
            e.starts_with("the pool saturated first (before scope attached), the loop blocked at "),
            "{e}"
        );
        assert!(e.contains("The loop is running JavaScript"), "{e}");
        assert!(e.contains("threads on a CPU (crypto"), "{e}");
    }
}
