//! The core takes its synchronization primitives from `crate::loom` so that
//! the loom models check the code that ships. This test fails if a core
//! module reaches for `std::sync::{Mutex, Condvar}` or `std::thread` directly.

use std::path::Path;

#[test]
fn sync_shim_is_used() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut offenders = Vec::new();
    let mut stack = vec![src.clone()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("src is readable") {
            let path = entry.expect("dir entry").path();
            if path.is_dir() {
                stack.push(path);
                continue;
            }
            if path.extension().is_none_or(|e| e != "rs") || path.ends_with("loom.rs") {
                continue;
            }
            let text = std::fs::read_to_string(&path).expect("source is UTF-8");
            for (no, line) in text.lines().enumerate() {
                let code = line.split("//").next().unwrap_or("");
                let banned = [
                    "std::sync::Mutex",
                    "std::sync::Condvar",
                    "std::sync::RwLock",
                    "std::thread::spawn",
                    "std::thread::Builder",
                ];
                let in_use_list = code.contains("use std::sync::{")
                    && (code.contains("Mutex") || code.contains("Condvar"));
                if banned.iter().any(|b| code.contains(b)) || in_use_list {
                    offenders.push(format!("{}:{}: {}", path.display(), no + 1, line.trim()));
                }
            }
        }
    }
    assert!(
        offenders.is_empty(),
        "use crate::loom instead:\n{}",
        offenders.join("\n")
    );
}
