//! File system calls on [`Lane::FastIo`], the lane CPU work can never fill:
//! what Node runs as `fs.*` on its pool.
//!
//! ```
//! use sluice::{Pool, fs};
//!
//! let pool = Pool::builder().build()?;
//! let dir = std::env::temp_dir().join(format!("sluice-doc-fs-{}", std::process::id()));
//! fs::create_dir_all(&pool, &dir).wait()??;
//! let file = dir.join("hello.txt");
//! fs::write(&pool, &file, b"hello").wait()??;
//! assert_eq!(fs::read(&pool, &file).wait()??, b"hello");
//! assert_eq!(fs::metadata(&pool, &file).wait()??.len(), 5);
//! assert_eq!(fs::read_dir(&pool, &dir).wait()??.len(), 1);
//! fs::remove_dir_all(&pool, &dir).wait()??;
//! assert_eq!(pool.metrics().lane(sluice::Lane::FastIo).completed_total, 6);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use crate::lane::Lane;
use crate::pool::Pool;
use crate::task::Task;
use std::io::{self, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn run<T: Send + 'static>(
    pool: &Pool,
    f: impl FnOnce() -> io::Result<T> + Send + 'static,
) -> Task<io::Result<T>> {
    // A read of a hung mount or a FIFO must not hold the lane: the section
    // counts as blocked once it lasts (see `sluice::blocking`).
    pool.spawn(Lane::FastIo, move || crate::blocking(f))
}

fn owned(path: impl AsRef<Path>) -> PathBuf {
    path.as_ref().to_path_buf()
}

/// Reads a whole file (`fs.readFile`). Through io_uring where the pool
/// asked for it ([`Builder::fast_io_uring`](crate::Builder::fast_io_uring)),
/// with the same bytes and errors.
///
/// A regular file is read to the length `fstat` gives when it is opened,
/// or to an earlier end, as Node's `fs.readFile` reads it: one `read` for
/// a small file, where reading on to see the end would take a second. A
/// file that grows while it is read is read to its length at the open.
/// Files whose length the kernel does not know (`/proc`, pipes) are read
/// to their end.
pub fn read(pool: &Pool, path: impl AsRef<Path>) -> Task<io::Result<Vec<u8>>> {
    let path = owned(path);
    match pool.uring() {
        None => run(pool, move || read_to_length(&path)),
        Some(uring) => run(pool, move || {
            uring.run(|| sluice_uring::read(&path), || read_to_length(&path))
        }),
    }
}

/// `path`'s bytes up to the length `fstat` gives at the open (see [`read`]).
fn read_to_length(path: &Path) -> io::Result<Vec<u8>> {
    let file = std::fs::File::open(path)?;
    let meta = file.metadata()?;
    let mut bytes = Vec::new();
    if !meta.is_file() || meta.len() == 0 {
        (&file).read_to_end(&mut bytes)?;
        return Ok(bytes);
    }
    let len = meta.len();
    let too_large = || {
        io::Error::new(
            io::ErrorKind::OutOfMemory,
            format!("no memory for a file of {len} bytes"),
        )
    };
    let want = usize::try_from(len).map_err(|_| too_large())?;
    bytes.try_reserve_exact(want).map_err(|_| too_large())?;
    // `take` answers the read after the length itself, with no system call.
    (&file).take(len).read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// What `stat` says of a file (`fs.Stats`' numbers): the fields of
/// [`std::os::unix::fs::MetadataExt`], whichever path answered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub struct Stat {
    /// `st_dev`.
    pub dev: u64,
    /// `st_ino`.
    pub ino: u64,
    /// `st_mode`: type and permissions.
    pub mode: u32,
    /// `st_nlink`.
    pub nlink: u64,
    /// `st_uid`.
    pub uid: u32,
    /// `st_gid`.
    pub gid: u32,
    /// `st_rdev`.
    pub rdev: u64,
    /// `st_size` in bytes.
    pub size: u64,
    /// `st_blksize`.
    pub blksize: u64,
    /// `st_blocks` (512-byte units).
    pub blocks: u64,
    /// Last access: seconds and nanoseconds since the epoch.
    pub atime: (i64, i64),
    /// Last modification.
    pub mtime: (i64, i64),
    /// Last status change.
    pub ctime: (i64, i64),
}

impl From<&std::fs::Metadata> for Stat {
    fn from(m: &std::fs::Metadata) -> Stat {
        use std::os::unix::fs::MetadataExt;
        Stat {
            dev: m.dev(),
            ino: m.ino(),
            mode: m.mode(),
            nlink: m.nlink(),
            uid: m.uid(),
            gid: m.gid(),
            rdev: m.rdev(),
            size: m.size(),
            blksize: m.blksize(),
            blocks: m.blocks(),
            atime: (m.atime(), m.atime_nsec()),
            mtime: (m.mtime(), m.mtime_nsec()),
            ctime: (m.ctime(), m.ctime_nsec()),
        }
    }
}

impl From<&libc::statx> for Stat {
    fn from(s: &libc::statx) -> Stat {
        let time = |t: libc::statx_timestamp| (t.tv_sec, i64::from(t.tv_nsec));
        Stat {
            dev: libc::makedev(s.stx_dev_major, s.stx_dev_minor),
            ino: s.stx_ino,
            mode: u32::from(s.stx_mode),
            nlink: u64::from(s.stx_nlink),
            uid: s.stx_uid,
            gid: s.stx_gid,
            rdev: libc::makedev(s.stx_rdev_major, s.stx_rdev_minor),
            size: s.stx_size,
            blksize: u64::from(s.stx_blksize),
            blocks: s.stx_blocks,
            atime: time(s.stx_atime),
            mtime: time(s.stx_mtime),
            ctime: time(s.stx_ctime),
        }
    }
}

/// A file's [`Stat`], following symlinks (`fs.stat`): [`metadata`]'s
/// numbers, through io_uring's `STATX` where the pool asked for it
/// ([`Builder::fast_io_uring`](crate::Builder::fast_io_uring)).
///
/// ```
/// use sluice::{Pool, fs};
/// let pool = Pool::builder().build()?;
/// let st = fs::stat(&pool, "Cargo.toml").wait()??;
/// assert_eq!(st.size, std::fs::metadata("Cargo.toml")?.len());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub fn stat(pool: &Pool, path: impl AsRef<Path>) -> Task<io::Result<Stat>> {
    let path = owned(path);
    let threads = |path: &Path| std::fs::metadata(path).map(|m| Stat::from(&m));
    match pool.uring() {
        None => run(pool, move || threads(&path)),
        Some(uring) => run(pool, move || {
            uring.run(
                || sluice_uring::stat(&path).map(|r| r.map(|s| Stat::from(&s))),
                || threads(&path),
            )
        }),
    }
}

/// Reads a whole file as UTF-8 (`fs.readFile(path, 'utf8')`).
pub fn read_to_string(pool: &Pool, path: impl AsRef<Path>) -> Task<io::Result<String>> {
    let path = owned(path);
    run(pool, move || std::fs::read_to_string(path))
}

/// Writes a whole file, creating or truncating it (`fs.writeFile`).
pub fn write(
    pool: &Pool,
    path: impl AsRef<Path>,
    contents: impl AsRef<[u8]>,
) -> Task<io::Result<()>> {
    let (path, contents) = (owned(path), contents.as_ref().to_vec());
    run(pool, move || std::fs::write(path, contents))
}

/// Appends to a file, creating it (`fs.appendFile`).
pub fn append(
    pool: &Pool,
    path: impl AsRef<Path>,
    contents: impl AsRef<[u8]>,
) -> Task<io::Result<()>> {
    let (path, contents) = (owned(path), contents.as_ref().to_vec());
    run(pool, move || {
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?
            .write_all(&contents)
    })
}

/// Metadata, following symlinks (`fs.stat`).
pub fn metadata(pool: &Pool, path: impl AsRef<Path>) -> Task<io::Result<std::fs::Metadata>> {
    let path = owned(path);
    run(pool, move || std::fs::metadata(path))
}

/// Metadata of the link itself (`fs.lstat`).
pub fn symlink_metadata(
    pool: &Pool,
    path: impl AsRef<Path>,
) -> Task<io::Result<std::fs::Metadata>> {
    let path = owned(path);
    run(pool, move || std::fs::symlink_metadata(path))
}

/// The entries of a directory, sorted by name (`fs.readdir`).
pub fn read_dir(pool: &Pool, path: impl AsRef<Path>) -> Task<io::Result<Vec<PathBuf>>> {
    let path = owned(path);
    run(pool, move || {
        let mut entries = std::fs::read_dir(path)?
            .map(|e| e.map(|e| e.path()))
            .collect::<io::Result<Vec<_>>>()?;
        entries.sort();
        Ok(entries)
    })
}

/// Creates a directory and its parents (`fs.mkdir(path, { recursive: true })`).
pub fn create_dir_all(pool: &Pool, path: impl AsRef<Path>) -> Task<io::Result<()>> {
    let path = owned(path);
    run(pool, move || std::fs::create_dir_all(path))
}

/// Removes a file (`fs.unlink`).
pub fn remove_file(pool: &Pool, path: impl AsRef<Path>) -> Task<io::Result<()>> {
    let path = owned(path);
    run(pool, move || std::fs::remove_file(path))
}

/// Removes a directory and everything in it (`fs.rm(path, { recursive: true })`).
pub fn remove_dir_all(pool: &Pool, path: impl AsRef<Path>) -> Task<io::Result<()>> {
    let path = owned(path);
    run(pool, move || std::fs::remove_dir_all(path))
}

/// Renames a file or directory (`fs.rename`).
pub fn rename(pool: &Pool, from: impl AsRef<Path>, to: impl AsRef<Path>) -> Task<io::Result<()>> {
    let (from, to) = (owned(from), owned(to));
    run(pool, move || std::fs::rename(from, to))
}

/// Copies a file; returns the bytes copied (`fs.copyFile`).
pub fn copy(pool: &Pool, from: impl AsRef<Path>, to: impl AsRef<Path>) -> Task<io::Result<u64>> {
    let (from, to) = (owned(from), owned(to));
    run(pool, move || std::fs::copy(from, to))
}

/// The canonical, absolute path (`fs.realpath`).
pub fn canonicalize(pool: &Pool, path: impl AsRef<Path>) -> Task<io::Result<PathBuf>> {
    let path = owned(path);
    run(pool, move || std::fs::canonicalize(path))
}

/// An open file whose every call is one FastIo task, like Node's
/// `fs.open` / `fs.read` / `fs.write` / `fs.close` on a file descriptor.
/// Dropping it closes the descriptor (the last handle to it does).
///
/// ```
/// use sluice::{Pool, fs::File};
///
/// let pool = Pool::builder().build()?;
/// let path = std::env::temp_dir().join(format!("sluice-doc-file-{}", std::process::id()));
/// let file = File::create(&pool, &path).wait()??;
/// file.write_all(b"0123456789").wait()??;
/// let file = File::open(&pool, &path).wait()??;
/// assert_eq!(file.read_at(3, 4).wait()??, b"3456");
/// assert_eq!(file.read(2).wait()??, b"01");       // from the file's own position
/// file.close().wait()??;
/// sluice::fs::remove_file(&pool, &path).wait()??;
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone)]
pub struct File {
    file: Arc<std::fs::File>,
    pool: Pool,
}

impl File {
    /// Opens a file for reading (`fs.open(path, 'r')`).
    pub fn open(pool: &Pool, path: impl AsRef<Path>) -> Task<io::Result<File>> {
        File::opened(pool, owned(path), std::fs::File::open)
    }

    /// Creates or truncates a file for writing (`fs.open(path, 'w')`).
    pub fn create(pool: &Pool, path: impl AsRef<Path>) -> Task<io::Result<File>> {
        File::opened(pool, owned(path), std::fs::File::create)
    }

    /// The file `open` opens at `path`, on the pool, as a `File` of `pool`.
    fn opened(
        pool: &Pool,
        path: PathBuf,
        open: fn(PathBuf) -> io::Result<std::fs::File>,
    ) -> Task<io::Result<File>> {
        let p = pool.clone();
        run(pool, move || {
            Ok(File {
                file: Arc::new(open(path)?),
                pool: p,
            })
        })
    }

    /// Runs `f` on the open file, on the pool.
    fn with_file<T: Send + 'static>(
        &self,
        f: impl FnOnce(&std::fs::File) -> io::Result<T> + Send + 'static,
    ) -> Task<io::Result<T>> {
        let file = Arc::clone(&self.file);
        run(&self.pool, move || f(&file))
    }

    /// Up to `len` bytes, as `read` (which returns how many it read into
    /// the buffer) reads them from the open file, on the pool.
    fn read_with(
        &self,
        len: usize,
        read: impl FnOnce(&std::fs::File, &mut [u8]) -> io::Result<usize> + Send + 'static,
    ) -> Task<io::Result<Vec<u8>>> {
        self.with_file(move |file| {
            let mut buf = vec![0; len];
            let n = read(file, &mut buf)?;
            buf.truncate(n);
            Ok(buf)
        })
    }

    /// Reads up to `len` bytes from the file's position (`fs.read(fd, .., null)`).
    pub fn read(&self, len: usize) -> Task<io::Result<Vec<u8>>> {
        self.read_with(len, |mut file, buf| file.read(buf))
    }

    /// Reads up to `len` bytes at `offset`, leaving the position alone
    /// (`fs.read(fd, .., position)`, a `pread`).
    pub fn read_at(&self, offset: u64, len: usize) -> Task<io::Result<Vec<u8>>> {
        self.read_with(len, move |file, buf| {
            std::os::unix::fs::FileExt::read_at(file, buf, offset)
        })
    }

    /// Writes all of `bytes` at the file's position (`fs.write`).
    pub fn write_all(&self, bytes: impl AsRef<[u8]>) -> Task<io::Result<()>> {
        let bytes = bytes.as_ref().to_vec();
        self.with_file(move |mut file| file.write_all(&bytes))
    }

    /// Moves the file's position (`lseek`).
    pub fn seek(&self, to: SeekFrom) -> Task<io::Result<u64>> {
        self.with_file(move |mut file| file.seek(to))
    }

    /// Flushes data and metadata to the device (`fs.fsync`).
    pub fn sync_all(&self) -> Task<io::Result<()>> {
        self.with_file(std::fs::File::sync_all)
    }

    /// Metadata of the open file (`fs.fstat`).
    pub fn metadata(&self) -> Task<io::Result<std::fs::Metadata>> {
        self.with_file(std::fs::File::metadata)
    }

    /// Closes this handle on the pool (`fs.close`): the descriptor closes
    /// when the last clone of this `File` is gone.
    pub fn close(self) -> Task<io::Result<()>> {
        let File { file, pool } = self;
        run(&pool, move || {
            drop(file);
            Ok(())
        })
    }
}
