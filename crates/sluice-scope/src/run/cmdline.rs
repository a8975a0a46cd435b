//! `--cmdline REGEX`: which processes `--all` watches, by their command
//! line. `/proc/PID/cmdline` holds the arguments separated by NUL bytes;
//! they are joined by spaces before matching, so `server\.js` or
//! `node .*--port 3000` match as they read in `ps -o args`.

use crate::error::ScopeError;
use regex::Regex;

/// A compiled `--cmdline` pattern.
#[derive(Debug, Clone)]
pub struct CmdlineFilter(Regex);

impl CmdlineFilter {
    /// Compiles `pattern` (Rust's `regex` syntax: unanchored, so it matches
    /// anywhere in the line unless it says `^` or `$`).
    ///
    /// ```
    /// use sluice_scope::run::all::CmdlineFilter;
    /// let f = CmdlineFilter::new(r"server\.js").unwrap();
    /// assert!(f.matches_line("node /srv/app/server.js --port 3000"));
    /// assert!(!f.matches_line("node worker.js"));
    /// assert_eq!(
    ///     CmdlineFilter::new("(").unwrap_err().to_string().lines().next().unwrap(),
    ///     "--cmdline \"(\": not a regular expression: regex parse error:"
    /// );
    /// ```
    pub fn new(pattern: &str) -> Result<CmdlineFilter, ScopeError> {
        Regex::new(pattern)
            .map(CmdlineFilter)
            .map_err(|e| ScopeError::Config {
                flag: "--cmdline",
                value: pattern.to_string(),
                expected: format!("not a regular expression: {e}"),
            })
    }

    /// The pattern as given.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
    }

    /// Whether `line` (arguments joined by spaces) matches.
    pub fn matches_line(&self, line: &str) -> bool {
        self.0.is_match(line)
    }

    /// Whether process `pid`'s command line matches; `false` when it
    /// cannot be read (the process is gone) or is empty (a kernel thread,
    /// or a process that is exiting).
    pub fn matches(&self, pid: u32) -> bool {
        command_line(pid).is_some_and(|line| self.matches_line(&line))
    }
}

impl PartialEq for CmdlineFilter {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for CmdlineFilter {}

/// `/proc/PID/cmdline` with its arguments joined by spaces; `None` when it
/// cannot be read or is empty.
pub(crate) fn command_line(pid: u32) -> Option<String> {
    let args = crate::target::argv(pid).ok()?;
    (!args.is_empty()).then(|| args.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn this_process_matches_its_own_command_line_and_not_another() {
        let me = std::process::id();
        let line = command_line(me).expect("our own cmdline is readable");
        let first = line.split(' ').next().unwrap();
        assert!(
            CmdlineFilter::new(&regex::escape(first))
                .unwrap()
                .matches(me)
        );
        let other = CmdlineFilter::new("^no such program here$").unwrap();
        assert!(!other.matches(me));
        assert!(!other.matches(u32::MAX), "a process that is not there");
    }

    #[test]
    fn a_bad_pattern_names_the_flag_and_the_value() {
        let e = CmdlineFilter::new("a{2").unwrap_err().to_string();
        assert!(
            e.starts_with("--cmdline \"a{2\": not a regular expression"),
            "{e}"
        );
    }
}
