//! Operations on the lanes: the work Node sends to its pool, as sluice tasks.
//!
//! - [`fs`](crate::fs): file system calls on [`Lane::FastIo`](crate::Lane::FastIo).
//! - [`crypto`](crate::crypto): `pbkdf2`, `scrypt`, `hkdf`, random bytes, argon2 and bcrypt on [`Lane::Cpu`](crate::Lane::Cpu).
//! - [`zlib`](crate::zlib): gzip and gunzip on [`Lane::Cpu`](crate::Lane::Cpu).
//!
//! Every operation returns a [`Task`](crate::Task): `.await` it from async
//! code or `.wait()` for it; the outer `?` is the task's
//! ([`TaskError`](crate::TaskError)), the inner one the operation's.
//! The bytes produced match Node's for the same inputs (checked against
//! `node` in `tests/ops_vectors.rs`).

pub mod crypto;
pub mod fs;
pub mod zlib;
