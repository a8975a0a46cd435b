//! `/proc/PID/maps`: which file is mapped where, so link-time addresses of
//! libuv's symbols can be turned into addresses in the running process.

/// One line of `/proc/PID/maps`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mapping {
    /// First address.
    pub start: u64,
    /// One past the last address.
    pub end: u64,
    /// `rwxp` flags as text, e.g. `r-xp`.
    pub perms: String,
    /// Offset in the file of `start`.
    pub offset: u64,
    /// The file's inode (0 for anonymous mappings).
    pub inode: u64,
    /// The path, `[heap]`, `[stack]`, or empty.
    pub path: String,
}

impl Mapping {
    /// Whether the mapping is writable.
    pub fn is_writable(&self) -> bool {
        self.perms.as_bytes().get(1) == Some(&b'w')
    }
}

/// Parses the text of `/proc/PID/maps`; lines that do not parse are skipped.
///
/// ```
/// let text = "00400000-00b6f000 r--p 00000000 fe:00 247584    /usr/bin/node\n";
/// let maps = sluice_scope::target::maps::parse(text);
/// assert_eq!(maps.len(), 1);
/// assert_eq!((maps[0].start, maps[0].inode), (0x400000, 247584));
/// assert_eq!(maps[0].path, "/usr/bin/node");
/// ```
pub fn parse(text: &str) -> Vec<Mapping> {
    text.lines().filter_map(parse_line).collect()
}

fn parse_line(line: &str) -> Option<Mapping> {
    let mut rest = line;
    let mut field = || {
        rest = rest.trim_start();
        let end = rest.find(' ').unwrap_or(rest.len());
        let (f, r) = rest.split_at(end);
        rest = r;
        Some(f).filter(|f| !f.is_empty())
    };
    let range = field()?;
    let perms = field()?.to_string();
    let offset = u64::from_str_radix(field()?, 16).ok()?;
    let _dev = field()?;
    let inode = field()?.parse().ok()?;
    let (s, e) = range.split_once('-')?;
    Some(Mapping {
        start: u64::from_str_radix(s, 16).ok()?,
        end: u64::from_str_radix(e, 16).ok()?,
        perms,
        offset,
        inode,
        path: rest.trim().to_string(),
    })
}

/// The mappings of `pid`.
pub fn read(pid: u32) -> std::io::Result<Vec<Mapping>> {
    of(&crate::target::proc::process(pid)?)
}

/// The mappings of `process`, read through `procfs` and parsed by
/// [`parse`]: `procfs`'s own parse fails the whole file on one line it
/// cannot read, and panics on a file named `/SYSV` and fewer than eight
/// more bytes (which a container's root may hold).
pub(crate) fn of(process: &procfs::process::Process) -> std::io::Result<Vec<Mapping>> {
    let crate::target::proc::Text(text) = process
        .read("maps")
        .map_err(crate::target::proc::io_error)?;
    Ok(parse(&text))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_files_anonymous_and_special_lines() {
        let text = "\
00400000-00b6f000 r--p 00000000 fe:00 247584                             /usr/bin/node
0566f000-05671000 rw-p 00000000 00:00 0 
7ffd25800000-7ffd25821000 rw-p 00000000 00:00 0                          [stack]
7f00-7f10 r-xp 00001000 fe:00 12 /usr/lib/x86_64-linux-gnu/libuv.so.1.0.0
garbage
";
        let m = parse(text);
        assert_eq!(m.len(), 4);
        assert_eq!(m[0].perms, "r--p");
        assert!(!m[0].is_writable());
        assert!(m[1].is_writable());
        assert_eq!((m[1].inode, m[1].path.as_str()), (0, ""));
        assert_eq!(m[2].path, "[stack]");
        assert_eq!(m[3].offset, 0x1000);
        assert_eq!(m[3].path, "/usr/lib/x86_64-linux-gnu/libuv.so.1.0.0");
    }
}
