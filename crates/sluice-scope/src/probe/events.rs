//! Parsing tracefs's text output (`trace_pipe` with `record-tgid` on):
//!
//! ```text
//!             node-26332   (  26325) [001] DBZff  4704.208125: start: (0x18a7b3d) w=0x20fc18d0
//! ```
//!
//! task name and TID, the process's TGID in parentheses, CPU, flags, the
//! timestamp (seconds, microseconds; `mono` clock), the event name, the
//! probed address, and the fetched arguments.

/// One probe hit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Event {
    /// The thread.
    pub tid: u32,
    /// Its process.
    pub tgid: u32,
    /// When, in nanoseconds of the trace clock.
    pub ts_ns: u64,
    /// What.
    pub what: What,
}

/// Which probe fired, with its arguments.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum What {
    /// `uv__work_submit(.., w, kind, ..)`.
    Submit {
        /// The request's `struct uv__work`.
        w: u64,
        /// libuv's kind: 0 CPU, 1 fast I/O, 2 slow I/O.
        kind: i32,
    },
    /// `uv_queue_work(.., req, ..)` (kind CPU); `w` is `req + 0x58`.
    QueueWork {
        /// The request's `struct uv__work`.
        w: u64,
    },
    /// A pool thread calls `w->work(w)`.
    Start {
        /// The request.
        w: u64,
    },
    /// `w->work(w)` returned on that thread.
    End,
    /// The loop calls `w->done(w, err)`.
    Done {
        /// The request.
        w: u64,
    },
}

/// Parses one line; `None` for headers, comments and other events.
///
/// ```
/// use sluice_scope::probe::events::{parse, What};
/// let line = "node-26325 (  26325) [001] DBZff  4704.213733: submit: (0x18a80b0) w=0x20f8d088 kind=1";
/// let e = parse(line).unwrap();
/// assert_eq!((e.tid, e.tgid, e.ts_ns), (26325, 26325, 4_704_213_733_000));
/// assert_eq!(e.what, What::Submit { w: 0x20f8d088, kind: 1 });
/// ```
pub fn parse(line: &str) -> Option<Event> {
    let line = line.trim();
    if line.starts_with('#') {
        return None;
    }
    // The TGID: the parenthesised number before " [CPU]".
    let cpu = line.find(") [")?;
    let head = &line[..cpu];
    let open = head.rfind('(')?;
    let tgid: u32 = head[open + 1..].trim().parse().ok()?;
    let tid: u32 = head[..open].trim_end().rsplit('-').next()?.parse().ok()?;
    let mut rest = line[cpu + 3..].split_whitespace();
    let ts_ns = loop {
        let tok = rest.next()?;
        if let Some(t) = tok.strip_suffix(':')
            && let Some(ns) = parse_ts(t)
        {
            break ns;
        }
    };
    let event = rest.next()?.strip_suffix(':')?;
    let _ip = rest.next()?;
    let mut w = None;
    let mut kind = None;
    let mut req = None;
    for kv in rest {
        let (k, v) = kv.split_once('=')?;
        match k {
            "w" => w = Some(hex(v)?),
            "req" => req = Some(hex(v)?),
            "kind" => kind = Some(v.parse().ok()?),
            _ => {}
        }
    }
    let what = match event {
        "submit" => What::Submit { w: w?, kind: kind? },
        "queue_work" => What::QueueWork {
            w: req?.wrapping_add(super::sites::WORK_REQ_OFFSET),
        },
        "start" => What::Start { w: w? },
        "end" => What::End,
        "done" => What::Done { w: w? },
        _ => return None,
    };
    Some(Event {
        tid,
        tgid,
        ts_ns,
        what,
    })
}

fn hex(v: &str) -> Option<u64> {
    u64::from_str_radix(v.trim_start_matches("0x"), 16).ok()
}

/// `4704.213733` (seconds.microseconds; nanoseconds with 9 digits) in ns.
fn parse_ts(t: &str) -> Option<u64> {
    let (s, frac) = t.split_once('.')?;
    let secs: u64 = s.parse().ok()?;
    if frac.is_empty() || frac.len() > 9 || !frac.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let frac_ns: u64 = frac.parse::<u64>().ok()? * 10u64.pow(9 - frac.len() as u32);
    Some(secs * 1_000_000_000 + frac_ns)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_event_parses() {
        let l = |s: &str| parse(s).unwrap().what;
        assert_eq!(
            l("  node-26332   (  26325) [001] DBZff  4704.208125: start: (0x18a7b3d) w=0x20fc18d0"),
            What::Start { w: 0x20fc18d0 }
        );
        assert_eq!(
            l("node-26333 (  26325) [001] DBZff  4704.220047: end: (0x18a7b40)"),
            What::End
        );
        assert_eq!(
            l("node-26325 (26325) [000] ..... 4704.220069: done: (0x18a822a) w=0x20f8d088"),
            What::Done { w: 0x20f8d088 }
        );
        assert_eq!(
            l("node-26325 (26325) [000] ..... 4704.220069: queue_work: (0x18a8290) req=0x1000"),
            What::QueueWork { w: 0x1058 }
        );
    }

    #[test]
    fn names_with_dashes_and_spaces_keep_the_tid() {
        let e = parse("libuv-worker-77 (   70) [000] ..... 1.5: end: (0x1)").unwrap();
        assert_eq!((e.tid, e.tgid, e.ts_ns), (77, 70, 1_500_000_000));
        let e = parse("my app-9 (9) [000] ..... 2.000000001: end: (0x1)").unwrap();
        assert_eq!((e.tid, e.ts_ns), (9, 2_000_000_001));
    }

    #[test]
    fn headers_and_foreign_lines_are_skipped() {
        assert_eq!(parse("# tracer: nop"), None);
        assert_eq!(parse(""), None);
        assert_eq!(
            parse("node-1 (1) [000] ..... 1.0: sched_switch: prev=1"),
            None
        );
        assert_eq!(
            parse("node-1 (1) [000] ..... 1.0: submit: (0x1) w=zz kind=0"),
            None
        );
    }
}
