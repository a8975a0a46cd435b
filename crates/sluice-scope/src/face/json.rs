//! `--json`: one JSON object per window on stdout (the [`Report`], plus
//! `timestamp`: the wall-clock time the line was written, RFC 3339 UTC), for
//! scripts. Messages and the end summary go to stderr, so stdout holds
//! JSON lines only.

use super::Face;
use crate::aggregate::Report;
use crate::error::ScopeError;
use crate::session::Session;
use std::io::Write;

/// JSON lines.
#[derive(Debug)]
pub(crate) struct Json;

impl Face for Json {
    fn start(&mut self, session: &Session) -> Result<(), ScopeError> {
        let t = session.target();
        eprintln!("sluice scope: process {} ({}, {})", t.pid, t.comm, t.exe);
        eprintln!("{}", session.status().summary());
        if let Some(g) = session.probe_group() {
            eprintln!("probes attached (tracefs group {g})");
        }
        Ok(())
    }

    fn show(&mut self, r: &Report, _session: &Session) -> Result<(), ScopeError> {
        let mut v = serde_json::to_value(r).expect("a report serialises");
        if let Some(o) = v.as_object_mut() {
            o.insert(
                "timestamp".into(),
                humantime::format_rfc3339_millis(std::time::SystemTime::now())
                    .to_string()
                    .into(),
            );
        }
        let line = v.to_string();
        let mut out = std::io::stdout().lock();
        writeln!(out, "{line}")
            .and_then(|()| out.flush())
            .map_err(|e| ScopeError::io("writing to stdout", e))
    }

    fn finish(&mut self) -> Result<bool, ScopeError> {
        Ok(false)
    }
}
