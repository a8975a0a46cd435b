//! Embeds each experiment folder's own files by their names, so that the
//! folder is all an experiment's help and its node and Go workloads need:
//! `src/experiment/<folder>/about.md` (the help), `<folder>.js` (node's
//! script) and `<folder>.go` (the go subject's program), each where it
//! exists. Writes `$OUT_DIR/experiment_files.rs`, the list that
//! `src/experiment/mod.rs` includes as `FOLDERS`.

use std::fmt::Write as _;
use std::path::Path;

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/experiment");
    // A directory: cargo reruns this script when anything below it changes.
    println!("cargo:rerun-if-changed=src/experiment");
    let mut folders: Vec<_> = std::fs::read_dir(&root)
        .unwrap_or_else(|e| panic!("reading {}: {e}", root.display()))
        .filter_map(Result::ok)
        .map(|e| e.path())
        .filter(|p| p.is_dir())
        .collect();
    folders.sort();
    let mut out = String::from("&[\n");
    for dir in &folders {
        let name = dir
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or_else(|| panic!("{}: not a UTF-8 folder name", dir.display()));
        let file = |f: String| {
            let path = dir.join(f);
            if path.is_file() {
                format!("Some(include_str!({:?}))", path.display().to_string())
            } else {
                "None".to_string()
            }
        };
        let _ = writeln!(
            out,
            "    Folder {{ name: {name:?}, about: {}, node: {}, go: {} }},",
            file("about.md".into()),
            file(format!("{name}.js")),
            file(format!("{name}.go")),
        );
    }
    out.push(']');
    let dest = Path::new(&std::env::var("OUT_DIR").expect("cargo sets OUT_DIR"))
        .join("experiment_files.rs");
    std::fs::write(&dest, out).unwrap_or_else(|e| panic!("writing {}: {e}", dest.display()));
}
