//! Naming the synchronous Node APIs that hold a loop, from what a V8
//! profile shows of them:
//!
//! - **Node's `*Sync` functions** are JavaScript in Node's own scripts:
//!   `pbkdf2Sync` at `node:internal/crypto/pbkdf2` is `crypto.pbkdf2Sync`.
//!   The one nearest the caller's code is the API it called
//!   (`readFileSync` rather than the `tryReadSync` under it).
//! - **A regular expression** runs as its own frame, `RegExp: <source>`:
//!   `RegExp exec /<source>/` (`test`, `exec`, `match`, `replace` all run
//!   it). V8 names only the expressions compiled while the profiler runs;
//!   one compiled before counts as its caller's own time, and is named from
//!   the caller's hot line like `JSON.parse` below.
//! - **`JSON.parse`** and `JSON.stringify` are V8 builtins without a frame:
//!   their time is the caller's own time, on the line that calls them. That
//!   line (V8's per-line ticks) is read from the script
//!   (`/proc/PID/root/...`, so a container's files are read) and the call
//!   is named from its text, which the report says.

/// What a frame in Node's scripts or V8 is, as an API name.
///
/// ```
/// use sluice_scope::profile::sync_api::api_of_frame;
/// assert_eq!(api_of_frame("pbkdf2Sync", "node:internal/crypto/pbkdf2").as_deref(), Some("crypto.pbkdf2Sync"));
/// assert_eq!(api_of_frame("readFileSync", "node:fs").as_deref(), Some("fs.readFileSync"));
/// assert_eq!(api_of_frame("RegExp: ^(a+)+$", "").as_deref(), Some("RegExp exec /^(a+)+$/"));
/// assert_eq!(api_of_frame("readFile", "node:fs"), None);
/// assert_eq!(api_of_frame("spinSync", "file:///app.js"), None); // not Node's
/// ```
pub fn api_of_frame(function: &str, url: &str) -> Option<String> {
    if let Some(source) = function.strip_prefix("RegExp: ") {
        return Some(format!("RegExp exec /{source}/"));
    }
    let module = node_module(url)?;
    if function.ends_with("Sync") && function.len() > 4 {
        return Some(format!("{module}.{function}"));
    }
    None
}

/// `node:internal/crypto/pbkdf2` -> `crypto`; `node:fs` -> `fs`.
pub fn node_module(url: &str) -> Option<&str> {
    let rest = url.strip_prefix("node:")?;
    let rest = rest.strip_prefix("internal/").unwrap_or(rest);
    rest.split('/').next().filter(|m| !m.is_empty())
}

/// Whether a frame is code of the program's own (not Node's scripts, not
/// V8's builtins or its entries).
pub fn is_user_code(function: &str, url: &str) -> bool {
    !(url.is_empty() || url.starts_with("node:") || function.starts_with('('))
}

/// Synchronous calls recognised in a line of source.
const SOURCE_CALLS: &[(&str, &str)] = &[
    ("JSON.parse(", "JSON.parse"),
    ("JSON.stringify(", "JSON.stringify"),
    ("structuredClone(", "structuredClone"),
];

/// The synchronous call a source line makes, if it makes one scope knows:
/// `JSON.parse`, `JSON.stringify`, `structuredClone`, a `...Sync(` call, or
/// a regular expression's `test`, `exec`, `match`, `matchAll`, `replace`,
/// `replaceAll`, `search` (named `RegExp exec (receiver.method)`; the
/// receiver of `match` and `replace` is a string, and it runs a regular
/// expression only when given one).
///
/// ```
/// use sluice_scope::profile::sync_api::api_of_source_line;
/// assert_eq!(api_of_source_line("  return JSON.parse(body).length;").as_deref(), Some("JSON.parse"));
/// assert_eq!(api_of_source_line("const k = crypto.scryptSync(p, s, 64);").as_deref(), Some("crypto.scryptSync"));
/// assert_eq!(api_of_source_line("return urlRe.test(u);").as_deref(), Some("RegExp exec (urlRe.test)"));
/// assert_eq!(api_of_source_line("x += Math.sqrt(x);"), None);
/// ```
pub fn api_of_source_line(line: &str) -> Option<String> {
    for (needle, name) in SOURCE_CALLS {
        if line.contains(needle) {
            return Some((*name).to_string());
        }
    }
    // `a.b.fooSync(` -> `a.b.fooSync`
    if let Some(at) = line.find("Sync(") {
        let name = callee(line, at + 4);
        if name.len() > 4 {
            return Some(name.to_string());
        }
    }
    // A regular expression run by a method: V8 shows its own `RegExp:`
    // frame only for expressions compiled while the profiler ran.
    for method in REGEXP_METHODS {
        if let Some(at) = line.find(&format!(".{method}(")) {
            let receiver = callee(line, at);
            if !receiver.is_empty() {
                return Some(format!("RegExp exec ({receiver}.{method})"));
            }
        }
    }
    None
}

/// Methods that run a regular expression.
const REGEXP_METHODS: &[&str] = &[
    "test",
    "exec",
    "match",
    "matchAll",
    "replace",
    "replaceAll",
    "search",
];

/// The dotted name that ends at byte `end` of `line`.
fn callee(line: &str, end: usize) -> &str {
    let start = line[..end]
        .rfind(|c: char| !(c.is_alphanumeric() || c == '_' || c == '.' || c == '$'))
        .map_or(0, |i| i + 1);
    &line[start..end]
}

/// Line `line` (1-based) of the script at `url`, read through
/// `/proc/PID/root` so that a container's files are the ones read. Only
/// `file://` URLs and absolute paths; at most 8 MiB read.
pub fn source_line(pid: u32, url: &str, line: i64) -> Option<String> {
    use std::io::Read;
    let path = url.strip_prefix("file://").unwrap_or(url);
    if !path.starts_with('/') || line < 1 {
        return None;
    }
    let path = percent_decode(path);
    let file = crate::target::proc::process(pid)
        .ok()?
        .open_relative(format!("root{path}"))
        .ok()?;
    let mut text = String::new();
    file.take(8 << 20).read_to_string(&mut text).ok()?;
    let l = text.lines().nth(usize::try_from(line - 1).ok()?)?;
    Some(l.trim().chars().take(160).collect())
}

/// `%20` -> ` ` (file URLs escape spaces and a few others).
fn percent_decode(s: &str) -> String {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%'
            && let Some(v) = s
                .get(i + 1..i + 3)
                .and_then(|h| u8::from_str_radix(h, 16).ok())
        {
            out.push(v);
            i += 3;
            continue;
        }
        out.push(b[i]);
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn user_code_and_modules() {
        assert!(is_user_code("spin", "file:///a.js"));
        assert!(is_user_code("", "file:///a.js"));
        assert!(!is_user_code("(program)", ""));
        assert!(!is_user_code("RegExp: a", ""));
        assert!(!is_user_code("emit", "node:events"));
        assert_eq!(node_module("node:internal/fs/utils"), Some("fs"));
        assert_eq!(
            api_of_frame("execSync", "node:child_process").as_deref(),
            Some("child_process.execSync")
        );
        assert_eq!(percent_decode("/a%20b/c.js"), "/a b/c.js");
        assert_eq!(
            api_of_source_line("fs.readFileSync('/etc/x')").as_deref(),
            Some("fs.readFileSync")
        );
    }

    #[test]
    fn a_source_line_is_read_through_proc_root() {
        let dir = tempfile::tempdir().unwrap();
        let f = dir.path().join("app.js");
        std::fs::write(&f, "a();\n  return JSON.parse(x);\n").unwrap();
        let url = format!("file://{}", f.display());
        let line = source_line(std::process::id(), &url, 2).unwrap();
        assert_eq!(line, "return JSON.parse(x);");
        assert_eq!(source_line(std::process::id(), &url, 9), None);
    }
}
