//! [`Analysis`]: what held the main thread during a profile.
//!
//! - **shares** of the window: JavaScript (any frame of a script, Node's
//!   included), native `(program)` (V8 and Node's C++ outside JavaScript),
//!   `(garbage collector)`, `(idle)` (the loop waiting in epoll).
//! - **self time** per function: the samples in which it was the running
//!   frame, as V8 counts (a regular expression is its own frame, `RegExp:`;
//!   Node's `pbkdf2Sync` is a frame of Node's own script).
//! - **total time** per function: the samples with it anywhere on the stack
//!   (once per sample, recursion or not).
//! - **held by your code**: self time with frames of Node's scripts and V8's
//!   builtins folded into the nearest caller in the program's own code,
//!   with the synchronous APIs they were (`crypto.pbkdf2Sync`,
//!   `RegExp exec /.../`, `JSON.parse` from the hot line): the function to
//!   change. A sample with no frame of the program's own stays with its
//!   running frame.
//!
//! Times are µs of the samples' durations (time to the next sample), shown
//! in ms; shares are of the time the samples cover (first sample to the
//! profile's end), so the four shares add up to 100 %. Locations are `url:line:column`,
//! 1-based as DevTools shows them.

use super::cpuprofile::{CallFrame, Indexed, Node};
use super::sync_api;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};

/// How many functions each table keeps.
pub const TOP: usize = 10;

/// Shares of the profile's span, in %.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct Shares {
    /// Running JavaScript (the program's, Node's scripts, builtins,
    /// regular expressions).
    pub javascript_pct: f64,
    /// Native code outside JavaScript: `(program)`.
    pub native_pct: f64,
    /// `(garbage collector)`.
    pub gc_pct: f64,
    /// `(idle)`: the loop waiting for events.
    pub idle_pct: f64,
}

/// One function in a table.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FunctionTime {
    /// Its name (`(anonymous)` when V8 has none).
    pub function: String,
    /// Its script, as V8 names it.
    pub url: String,
    /// `url:line:column`, 1-based (the script's path for `file://`).
    pub location: String,
    /// Time in ms.
    pub ms: f64,
    /// Share of the sampled time, in %.
    pub pct: f64,
    /// Samples.
    pub samples: u64,
}

/// A synchronous API seen holding the loop.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SyncApi {
    /// `crypto.pbkdf2Sync`, `RegExp exec /.../`, `JSON.parse`.
    pub api: String,
    /// How it was told: `frame` (a frame of Node's or V8's) or
    /// `source line` (the text of the caller's hot line).
    pub seen_as: String,
    /// Time in ms.
    pub ms: f64,
    /// Share of the profile's span, in %.
    pub pct: f64,
    /// The program's function that called it, `location` style.
    pub called_from: String,
}

/// A function of the program's own, with what it held the loop with.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HeldBy {
    /// The function and its time (Node's and V8's frames under it folded
    /// in).
    #[serde(flatten)]
    pub time: FunctionTime,
    /// Its own JavaScript's share of that time, in ms (the rest is the APIs
    /// below it).
    pub own_ms: f64,
    /// Its hottest line (1-based) and the line's text, when V8 recorded
    /// per-line ticks and the script could be read.
    pub hot_line: Option<HotLine>,
    /// The synchronous APIs under it, largest first.
    pub apis: Vec<SyncApi>,
}

/// The line of a function with the most samples.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct HotLine {
    /// 1-based.
    pub line: i64,
    /// Its share of the function's ticks, in %.
    pub pct: f64,
    /// The source text (trimmed), if the script could be read.
    pub text: Option<String>,
}

/// What a profile says.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Analysis {
    /// The profile's span in ms.
    pub span_ms: f64,
    /// Samples.
    pub samples: usize,
    /// Mean time between samples, in µs.
    pub mean_interval_us: f64,
    /// Shares of the span.
    pub shares: Shares,
    /// By self time, largest first (V8's entries left out: they are the
    /// shares).
    pub top_self: Vec<FunctionTime>,
    /// By total time, largest first.
    pub top_total: Vec<FunctionTime>,
    /// By time with Node's and V8's frames folded into the program's
    /// caller, largest first: the code to change.
    pub held_by: Vec<HeldBy>,
    /// Synchronous APIs seen, largest first.
    pub sync_apis: Vec<SyncApi>,
    /// A caution about the top entry, when it is not the program's own
    /// code.
    pub note: Option<String>,
}

/// The caution when most of the time is charged to Node's own code.
fn caution(top: &HeldBy) -> Option<String> {
    if sync_api::is_user_code(&top.time.function, &top.time.url) || top.time.pct < 20.0 {
        return None;
    }
    Some(format!(
        "the top entry, {} at {}, is not your code: V8 charges time in code it compiled before the profile began and does not map (on-stack replacement of a long loop) to the nearest frame it knows, here Node's; take the profile again: code V8 recompiles while profiling is mapped",
        top.time.function, top.time.location
    ))
}

/// V8's own entries: not functions of anyone's.
fn is_meta(f: &CallFrame) -> bool {
    matches!(
        f.function_name.as_str(),
        "(root)" | "(program)" | "(idle)" | "(garbage collector)"
    )
}

/// `/app/x.js:3:21` for `file:///app/x.js`, line 2, column 20.
///
/// ```
/// use sluice_scope::profile::analysis::location;
/// use sluice_scope::profile::cpuprofile::CallFrame;
/// let f = |url: &str, l, c| CallFrame { function_name: "f".into(), script_id: "1".into(), url: url.into(), line_number: l, column_number: c };
/// assert_eq!(location(&f("file:///app/x.js", 2, 20)), "/app/x.js:3:21");
/// assert_eq!(location(&f("node:fs", 0, 0)), "node:fs:1:1");
/// assert_eq!(location(&f("", -1, -1)), "(native)");
/// ```
pub fn location(f: &CallFrame) -> String {
    if f.url.is_empty() {
        return "(native)".into();
    }
    let url = f.url.strip_prefix("file://").unwrap_or(&f.url);
    format!("{url}:{}:{}", f.line_number + 1, f.column_number + 1)
}

fn name(f: &CallFrame) -> String {
    if f.function_name.is_empty() {
        "(anonymous)".into()
    } else {
        f.function_name.clone()
    }
}

/// Identity of a function across the tree's nodes.
type Key = (String, String, i64, i64);

fn key(f: &CallFrame) -> Key {
    (
        f.function_name.clone(),
        f.url.clone(),
        f.line_number,
        f.column_number,
    )
}

#[derive(Default)]
struct Acc {
    us: f64,
    samples: u64,
}

impl Acc {
    fn add(&mut self, us: f64) {
        self.us += us;
        self.samples += 1;
    }
}

/// Sample time summed per function, as the samples are walked.
#[derive(Default)]
struct Tally {
    /// Time of JavaScript, native (`(program)`), GC and idle leaves.
    shares_us: [f64; 4],
    /// Time each function was the leaf.
    self_t: HashMap<Key, Acc>,
    /// Time each function was on the stack (once per sample).
    total_t: HashMap<Key, Acc>,
    /// Time folded into the nearest frame of the program's own.
    held: HashMap<Key, Acc>,
    /// Of it, time that frame ran its own code (nothing below it).
    held_own: HashMap<Key, f64>,
    /// Time below a program frame in each synchronous API.
    apis: HashMap<(Key, String), f64>,
    /// A call frame of each function seen.
    frames: HashMap<Key, CallFrame>,
}

impl Tally {
    /// Counts one sample of `us` whose stack, leaf first, is `stack`.
    fn add(&mut self, stack: &[&Node], us: f64) {
        let leaf = &stack[0].call_frame;
        let share = match leaf.function_name.as_str() {
            "(idle)" => 3,
            "(garbage collector)" => 2,
            "(program)" | "(root)" => 1,
            _ => 0,
        };
        self.shares_us[share] += us;
        if is_meta(leaf) {
            return;
        }
        let k = self.frame(leaf);
        self.self_t.entry(k).or_default().add(us);
        let mut seen = HashSet::new();
        for f in stack.iter().map(|n| &n.call_frame).filter(|f| !is_meta(f)) {
            let k = self.frame(f);
            if seen.insert(k.clone()) {
                self.total_t.entry(k).or_default().add(us);
            }
        }
        self.fold(stack, us);
    }

    /// Records `f`'s frame; its key.
    fn frame(&mut self, f: &CallFrame) -> Key {
        let k = key(f);
        self.frames.entry(k.clone()).or_insert_with(|| f.clone());
        k
    }

    /// Folds the sample into the nearest frame of the program's own (the
    /// leaf when there is none), and names the API nearest that frame.
    fn fold(&mut self, stack: &[&Node], us: f64) {
        let owner = stack
            .iter()
            .position(|n| sync_api::is_user_code(&n.call_frame.function_name, &n.call_frame.url));
        let (owner_frame, below) = match owner {
            Some(i) => (&stack[i].call_frame, &stack[..i]),
            None => (&stack[0].call_frame, &stack[..0]),
        };
        let ok = self.frame(owner_frame);
        self.held.entry(ok.clone()).or_default().add(us);
        // The API nearest the program's code names the call it made.
        let api = below
            .iter()
            .rev()
            .find_map(|n| sync_api::api_of_frame(&n.call_frame.function_name, &n.call_frame.url));
        match api {
            Some(api) => *self.apis.entry((ok, api)).or_default() += us,
            None if below.is_empty() => *self.held_own.entry(ok).or_default() += us,
            None => {}
        }
    }

    /// The [`TOP`] functions of `m`, most time first.
    fn table(&self, m: &HashMap<Key, Acc>, pct: impl Fn(f64) -> f64) -> Vec<FunctionTime> {
        let mut v: Vec<FunctionTime> = m
            .iter()
            .map(|(k, a)| {
                let f = &self.frames[k];
                FunctionTime {
                    function: name(f),
                    url: f.url.clone(),
                    location: location(f),
                    ms: a.us / 1e3,
                    pct: pct(a.us),
                    samples: a.samples,
                }
            })
            .collect();
        v.sort_by(|a, b| {
            b.ms.total_cmp(&a.ms)
                .then_with(|| a.location.cmp(&b.location))
        });
        v.truncate(TOP);
        v
    }

    /// The key of the function a table row names.
    fn key_of(&self, time: &FunctionTime) -> Key {
        self.frames
            .iter()
            .find(|(_, f)| location(f) == time.location && name(f) == time.function)
            .map(|(k, _)| k.clone())
            .expect("a function in the table has a frame")
    }

    /// One row of `held_by`: the function, its hot line, the synchronous
    /// APIs under it (by frame, or by its hot line's call where a builtin
    /// has no frame of its own).
    fn held_by(
        &self,
        time: FunctionTime,
        lines: &HashMap<Key, BTreeMap<i64, u64>>,
        pid: Option<u32>,
        pct: impl Fn(f64) -> f64,
    ) -> HeldBy {
        let k = self.key_of(&time);
        let own_us = self.held_own.get(&k).copied().unwrap_or(0.0);
        let hot_line = lines.get(&k).and_then(|l| hot_line(l, &time.url, pid));
        let mut mine: Vec<SyncApi> = self
            .apis
            .iter()
            .filter(|((o, _), _)| *o == k)
            .map(|((_, api), us)| SyncApi {
                api: api.clone(),
                seen_as: "frame".into(),
                ms: us / 1e3,
                pct: pct(*us),
                called_from: time.location.clone(),
            })
            .collect();
        // A builtin without a frame: the hot line's call, if it makes one
        // scope knows, carries the function's own time.
        if let Some(api) = hot_line
            .as_ref()
            .and_then(|h| h.text.as_deref())
            .and_then(sync_api::api_of_source_line)
            && own_us > 0.0
            && !mine.iter().any(|m| m.api == api)
        {
            mine.push(SyncApi {
                api,
                seen_as: "source line".into(),
                ms: own_us / 1e3,
                pct: pct(own_us),
                called_from: time.location.clone(),
            });
        }
        mine.sort_by(|a, b| b.ms.total_cmp(&a.ms));
        HeldBy {
            own_ms: own_us / 1e3,
            time,
            hot_line,
            apis: mine,
        }
    }
}

/// Per-line ticks of each function, over all its nodes, where it ran its
/// own code.
fn line_ticks(p: &Indexed) -> HashMap<Key, BTreeMap<i64, u64>> {
    let mut lines: HashMap<Key, BTreeMap<i64, u64>> = HashMap::new();
    for n in &p.profile.nodes {
        for t in &n.position_ticks {
            *lines
                .entry(key(&n.call_frame))
                .or_default()
                .entry(t.line)
                .or_default() += t.ticks;
        }
    }
    lines
}

/// The line with the most ticks (the first of equals), its share, and its
/// text from the process's file `url` when `pid` is given.
fn hot_line(ticks: &BTreeMap<i64, u64>, url: &str, pid: Option<u32>) -> Option<HotLine> {
    let total: u64 = ticks.values().sum();
    let (line, n) = ticks.iter().max_by_key(|(line, t)| (**t, -**line))?;
    Some(HotLine {
        line: *line,
        pct: 100.0 * *n as f64 / total.max(1) as f64,
        text: pid.and_then(|pid| sync_api::source_line(pid, url, *line)),
    })
}

/// Analyses `p`; `pid` is the process whose files the source lines are
/// read from (`None`: no source read).
pub fn analyse(p: &Indexed, pid: Option<u32>) -> Analysis {
    let durations = p.durations_us();
    let span_us = (p.profile.end_time - p.profile.start_time).max(1.0);
    // Shares are of the time the samples cover (from the first sample to
    // the end), so that they add up to 100.
    let covered_us = durations.iter().sum::<f64>().max(1.0);
    let pct = |us: f64| 100.0 * us / covered_us;
    let mut tally = Tally::default();
    for (&id, &us) in p.profile.samples.iter().zip(&durations) {
        tally.add(&p.stack(id), us);
    }
    let lines = line_ticks(p);
    let held_by: Vec<HeldBy> = tally
        .table(&tally.held, pct)
        .into_iter()
        .map(|time| tally.held_by(time, &lines, pid, pct))
        .collect();
    let mut sync_apis: Vec<SyncApi> = held_by.iter().flat_map(|h| h.apis.clone()).collect();
    sync_apis.sort_by(|a, b| b.ms.total_cmp(&a.ms));
    let n = p.profile.samples.len();
    let s = &tally.shares_us;
    Analysis {
        span_ms: span_us / 1e3,
        samples: n,
        mean_interval_us: if n == 0 { 0.0 } else { span_us / n as f64 },
        shares: Shares {
            javascript_pct: pct(s[0]),
            native_pct: pct(s[1]),
            gc_pct: pct(s[2]),
            idle_pct: pct(s[3]),
        },
        top_self: tally.table(&tally.self_t, pct),
        top_total: tally.table(&tally.total_t, pct),
        note: held_by.first().and_then(caution),
        held_by,
        sync_apis,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::profile::cpuprofile::CpuProfile;
    use serde_json::json;

    fn frame(name: &str, url: &str, line: i64) -> serde_json::Value {
        json!({"functionName": name, "scriptId": "1", "url": url, "lineNumber": line, "columnNumber": 4})
    }

    /// root -> main -> hashLegacy -> pbkdf2Sync; main -> validate -> RegExp;
    /// idle, gc.
    fn profile() -> Indexed {
        let app = "file:///srv/app.js";
        let p = json!({
            "nodes": [
                {"id": 1, "callFrame": frame("(root)", "", -1), "children": [2, 6, 7]},
                {"id": 2, "callFrame": frame("main", app, 0), "children": [3, 5]},
                {"id": 3, "callFrame": frame("hashLegacy", app, 9), "children": [4]},
                {"id": 4, "callFrame": frame("pbkdf2Sync", "node:internal/crypto/pbkdf2", 60)},
                {"id": 5, "callFrame": frame("validate", app, 19), "children": [8],
                 "positionTicks": [{"line": 21, "ticks": 1}]},
                {"id": 6, "callFrame": frame("(idle)", "", -1)},
                {"id": 7, "callFrame": frame("(garbage collector)", "", -1)},
                {"id": 8, "callFrame": frame("RegExp: ^(a+)+$", "", -1)}
            ],
            "startTime": 0, "endTime": 10000,
            // 1 ms apart: pbkdf2 x4, regexp x2, validate x1, main x1, idle x1, gc x1
            "samples": [4, 4, 4, 4, 8, 8, 5, 2, 6, 7],
            "timeDeltas": [0, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000, 1000]
        });
        serde_json::from_value::<CpuProfile>(p)
            .unwrap()
            .index()
            .unwrap()
    }

    #[test]
    fn shares_self_total_and_folding_count_samples() {
        let a = analyse(&profile(), None);
        assert_eq!(a.samples, 10);
        assert_eq!(a.shares.javascript_pct, 80.0);
        assert_eq!(
            (a.shares.idle_pct, a.shares.gc_pct, a.shares.native_pct),
            (10.0, 10.0, 0.0)
        );
        assert_eq!(a.top_self[0].function, "pbkdf2Sync");
        assert_eq!(a.top_self[0].location, "node:internal/crypto/pbkdf2:61:5");
        assert_eq!(a.top_self[0].ms, 4.0);
        assert_eq!(a.top_self[1].function, "RegExp: ^(a+)+$");
        assert_eq!(a.top_total[0].function, "main");
        assert_eq!(a.top_total[0].samples, 8);
        // Folded: hashLegacy holds 4 ms, all of it crypto.pbkdf2Sync;
        // validate 3 ms, 2 of them the regular expression.
        assert_eq!(a.held_by[0].time.function, "hashLegacy");
        assert_eq!(a.held_by[0].time.location, "/srv/app.js:10:5");
        assert_eq!(a.held_by[0].apis[0].api, "crypto.pbkdf2Sync");
        assert_eq!(a.held_by[0].apis[0].ms, 4.0);
        assert_eq!(a.held_by[0].own_ms, 0.0);
        assert_eq!(a.held_by[1].time.function, "validate");
        assert_eq!(a.held_by[1].time.ms, 3.0);
        assert_eq!(a.held_by[1].own_ms, 1.0);
        assert_eq!(a.held_by[1].apis[0].api, "RegExp exec /^(a+)+$/");
        assert_eq!(a.held_by[1].hot_line.as_ref().unwrap().line, 21);
        assert_eq!(a.held_by[2].time.function, "main");
        assert_eq!(a.sync_apis.len(), 2);
    }
}
