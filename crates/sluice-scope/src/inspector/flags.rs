//! [`InspectFlags`]: where a Node process's inspector listens, or would
//! listen after SIGUSR1, read from its command line (`/proc/PID/cmdline`)
//! and its `NODE_OPTIONS` (`/proc/PID/environ`), as Node reads them:
//! `NODE_OPTIONS` first, the command line after it (later flags win).
//!
//! - `--inspect[=[host:]port]`, `--inspect-brk[=...]`, `--inspect-wait[=...]`:
//!   the inspector opened at start, on that address.
//! - `--inspect-port=[host:]port` (or `--inspect-port PORT`,
//!   `--debug-port`): the address SIGUSR1 opens it on.
//! - `--disable-sigusr1`: SIGUSR1 does not open it (Node 22.14 and later).
//!
//! Default: `127.0.0.1:9229`. Port 0 asks the kernel for a free port.

use std::net::IpAddr;

/// Node's default inspector port.
pub const DEFAULT_PORT: u16 = 9229;

/// What a process's flags say about its inspector.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InspectFlags {
    /// The host it binds (`127.0.0.1` unless a flag says otherwise).
    pub host: String,
    /// The port; 0: a random one.
    pub port: u16,
    /// `--inspect`, `--inspect-brk` or `--inspect-wait` was given: the
    /// inspector was opened at start.
    pub open_at_start: bool,
    /// Where `--disable-sigusr1` was seen, if it was.
    pub sigusr1_disabled: Option<&'static str>,
}

impl Default for InspectFlags {
    fn default() -> InspectFlags {
        InspectFlags {
            host: "127.0.0.1".into(),
            port: DEFAULT_PORT,
            open_at_start: false,
            sigusr1_disabled: None,
        }
    }
}

/// Options of node's that take their value as the next argument.
const TAKES_VALUE: &[&str] = &[
    "-e",
    "--eval",
    "-p",
    "--print",
    "-r",
    "--require",
    "--import",
    "--loader",
    "--experimental-loader",
    "--inspect-port",
    "--debug-port",
    "--title",
    "-C",
    "--conditions",
    "--input-type",
];

impl InspectFlags {
    /// Reads process `pid`'s flags from `/proc`. An unreadable environment
    /// (another user's process) leaves `NODE_OPTIONS` unread. The
    /// environment is read as bytes and searched in order: `getenv` takes
    /// the first of a repeated variable, `procfs`'s `environ` map the last.
    pub fn of_process(pid: u32) -> std::io::Result<InspectFlags> {
        let argv = crate::target::argv(pid)?;
        let node_options = crate::target::proc::process(pid)
            .ok()
            .and_then(|p| p.read::<_, crate::target::proc::Bytes>("environ").ok())
            .and_then(|crate::target::proc::Bytes(env)| {
                env.split(|b| *b == 0).find_map(|kv| {
                    kv.strip_prefix(b"NODE_OPTIONS=")
                        .map(|v| String::from_utf8_lossy(v).into_owned())
                })
            });
        Ok(InspectFlags::parse(node_options.as_deref(), &argv))
    }

    /// Parses `NODE_OPTIONS` and `argv` (`argv[0]` is the executable).
    ///
    /// ```
    /// use sluice_scope::inspector::flags::InspectFlags;
    /// let argv = |s: &str| s.split(' ').map(String::from).collect::<Vec<_>>();
    /// let f = InspectFlags::parse(None, &argv("node app.js --inspect-port=1"));
    /// assert_eq!((f.port, f.open_at_start), (9229, false)); // an argument of app.js
    /// let f = InspectFlags::parse(Some("--inspect-port=0.0.0.0:9300"), &argv("node app.js"));
    /// assert_eq!((f.host.as_str(), f.port), ("0.0.0.0", 9300));
    /// let f = InspectFlags::parse(Some("--inspect-port=9300"), &argv("node --inspect=9400 app.js"));
    /// assert_eq!((f.port, f.open_at_start), (9400, true));
    /// ```
    pub fn parse(node_options: Option<&str>, argv: &[String]) -> InspectFlags {
        let mut flags = InspectFlags::default();
        if let Some(opts) = node_options {
            let words = split_options(opts);
            flags.apply(&words, "NODE_OPTIONS", false);
        }
        flags.apply(argv.get(1..).unwrap_or(&[]), "its command line", true);
        flags
    }

    fn apply(&mut self, args: &[String], source: &'static str, stop_at_script: bool) {
        let mut i = 0;
        while i < args.len() {
            let arg = args[i].as_str();
            i += 1;
            if arg == "--" || (stop_at_script && !arg.starts_with('-')) || arg == "-" {
                break;
            }
            let (name, value) = match arg.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (arg, None),
            };
            // A value in the next argument.
            let value = match value {
                Some(v) => Some(v),
                None if TAKES_VALUE.contains(&name) => {
                    let v = args.get(i).cloned();
                    i += 1;
                    v
                }
                None => None,
            };
            match name {
                "--inspect" | "--inspect-brk" | "--inspect-wait" => {
                    self.open_at_start = true;
                    if let Some(v) = value {
                        self.set_host_port(&v);
                    }
                }
                "--inspect-port" | "--debug-port" => {
                    if let Some(v) = value {
                        self.set_host_port(&v);
                    }
                }
                "--disable-sigusr1" => self.sigusr1_disabled = Some(source),
                _ => {}
            }
        }
    }

    /// `[host:]port`, `[v6]:port`, or a host alone.
    fn set_host_port(&mut self, v: &str) {
        let (host, port) = if let Some(rest) = v.strip_prefix('[') {
            match rest.split_once(']') {
                Some((h, p)) => (Some(h), p.strip_prefix(':')),
                None => (None, None),
            }
        } else if let Some((h, p)) = v.rsplit_once(':') {
            (Some(h), Some(p))
        } else if v.bytes().all(|b| b.is_ascii_digit()) {
            (None, Some(v))
        } else {
            (Some(v), None)
        };
        if let Some(h) = host.filter(|h| !h.is_empty()) {
            self.host = h.to_string();
        }
        if let Some(p) = port.and_then(|p| p.parse().ok()) {
            self.port = p;
        }
    }

    /// The address to connect to: the bound host, with a wildcard
    /// (`0.0.0.0`, `::`) or `localhost` as the loopback address.
    pub fn connect_ip(&self) -> Option<IpAddr> {
        match self.host.as_str() {
            "" | "0.0.0.0" | "localhost" => Some(IpAddr::from([127, 0, 0, 1])),
            "::" => Some(IpAddr::from(std::net::Ipv6Addr::LOCALHOST)),
            h => h.parse().ok(),
        }
    }
}

/// Splits `NODE_OPTIONS` as Node does: on spaces, with double quotes
/// grouping and `\` escaping inside them.
fn split_options(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    let mut chars = s.chars();
    while let Some(c) = chars.next() {
        match c {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            '\\' if quoted => {
                if let Some(n) = chars.next() {
                    cur.push(n);
                }
            }
            c if c.is_whitespace() && !quoted => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            c => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn argv(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    #[test]
    fn every_form_of_the_flags() {
        let f = InspectFlags::parse(None, &argv("node app.js"));
        assert_eq!(f, InspectFlags::default());
        let f = InspectFlags::parse(None, &argv("node --inspect app.js"));
        assert_eq!((f.port, f.open_at_start), (9229, true));
        let f = InspectFlags::parse(None, &argv("node --inspect=0 app.js"));
        assert_eq!((f.port, f.open_at_start), (0, true));
        let f = InspectFlags::parse(None, &argv("node --inspect-port 9333 -e 1"));
        assert_eq!((f.port, f.open_at_start), (9333, false));
        let f = InspectFlags::parse(None, &argv("node --inspect-brk=[::1]:9444 x.js"));
        assert_eq!((f.host.as_str(), f.port), ("::1", 9444));
        assert_eq!(f.connect_ip(), Some("::1".parse().unwrap()));
        let f = InspectFlags::parse(None, &argv("node --inspect=localhost x.js"));
        assert_eq!((f.host.as_str(), f.port), ("localhost", 9229));
        assert_eq!(f.connect_ip(), Some("127.0.0.1".parse().unwrap()));
        // -e's code is a value, not the script: flags after it still count.
        let f = InspectFlags::parse(None, &argv("node -e 1 --inspect-port=7"));
        assert_eq!(f.port, 7);
        let f = InspectFlags::parse(Some("--disable-sigusr1"), &argv("node x.js"));
        assert_eq!(f.sigusr1_disabled, Some("NODE_OPTIONS"));
        let f = InspectFlags::parse(None, &argv("node --disable-sigusr1 x.js"));
        assert_eq!(f.sigusr1_disabled, Some("its command line"));
        let f = InspectFlags::parse(None, &argv("node x.js --disable-sigusr1"));
        assert_eq!(f.sigusr1_disabled, None);
    }

    #[test]
    fn node_options_split_like_node() {
        assert_eq!(
            split_options(r#"--require "./a b.js"  --inspect-port=1 "" "#),
            ["--require", "./a b.js", "--inspect-port=1", ""]
        );
    }
}
