//! `--json`: one JSON object per window on stdout (the [`Report`], plus
//! `timestamp`: the wall-clock time the line was written, RFC 3339 UTC), for
//! scripts. Messages and the end summary go to stderr, so stdout holds
//! JSON lines only.
//!
//! [`JsonLines`] writes those lines: to stdout (`--json`), to a file
//! (`--json-out FILE`, whatever the face), or both; each line is made once,
//! so the file holds exactly what stdout shows.

use super::Face;
use crate::error::ScopeError;
use crate::sample::session::Session;
use crate::verdict::aggregate::Report;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::{Path, PathBuf};

/// JSON lines on stdout: the face only says what it watches (on stderr);
/// the lines themselves are written by [`JsonLines`].
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

    fn show(&mut self, _r: &Report, _session: &Session) -> Result<(), ScopeError> {
        Ok(())
    }

    fn finish(&mut self) -> Result<bool, ScopeError> {
        Ok(false)
    }
}

/// Where JSON documents go: stdout (`--json`), the `--json-out` file, both
/// or neither. Each is one line, flushed as it is written, so a reader of
/// the file sees every window as it ends.
#[derive(Debug)]
pub(crate) struct JsonLines {
    stdout: bool,
    file: Option<(PathBuf, BufWriter<File>)>,
}

impl JsonLines {
    /// Creates (or truncates) `file` when given.
    pub(crate) fn open(stdout: bool, file: Option<&Path>) -> Result<JsonLines, ScopeError> {
        let file = file
            .map(|p| {
                File::create(p)
                    .map(|f| (p.to_path_buf(), BufWriter::new(f)))
                    .map_err(|e| ScopeError::io(format!("creating --json-out {}", p.display()), e))
            })
            .transpose()?;
        Ok(JsonLines { stdout, file })
    }

    /// Whether any line is written at all.
    pub(crate) fn wanted(&self) -> bool {
        self.stdout || self.file.is_some()
    }

    /// Writes one document as one line to each destination.
    pub(crate) fn write(&mut self, doc: &impl serde::Serialize) -> Result<(), ScopeError> {
        if !self.wanted() {
            return Ok(());
        }
        let line = serde_json::to_string(doc).expect("a report serialises");
        if self.stdout {
            let mut out = std::io::stdout().lock();
            writeln!(out, "{line}")
                .and_then(|()| out.flush())
                .map_err(|e| ScopeError::io("writing to stdout", e))?;
        }
        if let Some((path, f)) = &mut self.file {
            writeln!(f, "{line}")
                .and_then(|()| f.flush())
                .map_err(|e| ScopeError::io(format!("writing --json-out {}", path.display()), e))?;
        }
        Ok(())
    }

    /// One window: the report and its `timestamp` ([`document`]).
    pub(crate) fn report(&mut self, r: &Report) -> Result<(), ScopeError> {
        if !self.wanted() {
            return Ok(());
        }
        self.write(&document(r))
    }
}

/// One window's line of `--json`: the report's fields and `timestamp`.
pub(crate) fn document(r: &Report) -> serde_json::Value {
    let mut v = serde_json::to_value(r).expect("a report serialises");
    if let Some(o) = v.as_object_mut() {
        o.insert(
            "timestamp".into(),
            humantime::format_rfc3339_millis(std::time::SystemTime::now())
                .to_string()
                .into(),
        );
    }
    v
}
