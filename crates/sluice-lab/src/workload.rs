//! Workloads shared by experiments and by both sides (parent and child):
//! pbkdf2 calibration, the FIFO holder.

use crate::child::Watch;
use crate::procfs;
use anyhow::Context;
use std::collections::VecDeque;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// pbkdf2-HMAC-SHA512 of a fixed password and salt, 64 bytes: the CPU task
/// of the seeds (`crypto.pbkdf2(.., 'sha512', cb)` in Node).
pub fn pbkdf2_sha512(iterations: u32) -> [u8; 64] {
    let mut out = [0u8; 64];
    pbkdf2::pbkdf2_hmac::<sha2::Sha512>(b"secret", b"salt", iterations, &mut out);
    out
}

/// pbkdf2-HMAC-SHA256, 64 bytes (seed 002's `/login`).
pub fn pbkdf2_sha256(iterations: u32) -> [u8; 64] {
    let mut out = [0u8; 64];
    pbkdf2::pbkdf2_hmac::<sha2::Sha256>(b"secret", b"salt", iterations, &mut out);
    out
}

/// Iterations of [`pbkdf2_sha512`] that take about `target` on this machine,
/// from the fastest of five timings of a probe run: on a shared machine the
/// fastest run is the one least disturbed by other work, so it is the
/// closest to the hash's own cost.
pub fn calibrate_pbkdf2(target: Duration) -> u32 {
    let probe = 20_000;
    let fastest = (0..5)
        .map(|_| {
            let t = Instant::now();
            std::hint::black_box(pbkdf2_sha512(probe));
            t.elapsed().as_secs_f64()
        })
        .fold(f64::INFINITY, f64::min);
    let per_iter = fastest / f64::from(probe);
    ((target.as_secs_f64() / per_iter) as u32).max(1)
}

/// [`calibrate_pbkdf2`] three times, the most iterations of the three: the
/// calibration least slowed by whatever else the machine was doing, for
/// experiments whose pool tasks must last at least `target`.
pub fn calibrate_pbkdf2_best_of_three(target: Duration) -> u32 {
    (0..3).map(|_| calibrate_pbkdf2(target)).max().unwrap_or(1)
}

/// Holds a FIFO's write end and releases readers one byte at a time, a
/// fixed hold after it sees each one waiting in `read(2)` on the FIFO.
///
/// The subject opens the FIFO for reading and issues one-byte reads from its
/// pool; each read parks a pool thread in `read(2)` without CPU: the exact
/// "wait" task. Every tick the holder counts the subject's threads blocked in
/// `read` on the FIFO's fd (`/proc/PID/task/*/syscall`) and the bytes already
/// in the pipe (`FIONREAD`). Readers beyond the bytes in the pipe and the
/// bytes already scheduled are waiting for the holder: once that deficit has
/// lasted two ticks (so a reader that took its byte but has not left the
/// system call yet is not counted), the holder schedules one byte per
/// waiting reader, due a hold after it first saw them.
///
/// Counting rather than tracking threads matters: when several bytes are
/// written at once, a thread that finished its read can take the next task
/// and a byte meant for a reader that was woken later, which then goes back
/// to sleep without ever leaving `read(2)`.
///
/// The subject prints `{"event":"begin", "t": NS, ...}` before each round,
/// `t` being its `CLOCK_MONOTONIC` in nanoseconds ([`begin_event`]; node:
/// `process.hrtime.bigint()`); the holder keeps its own samples on the same
/// clock and gives each to the round that had begun by then, so a round's
/// readers are never counted in the previous round when the begin line
/// reaches the holder after they blocked. Without `t`, a sample goes to the
/// last round whose line had arrived.
pub struct FifoHolder {
    path: PathBuf,
    fifo: std::fs::File,
    hold: Duration,
    fd: Option<u64>,
    /// When the current deficit was first seen, and over how many ticks.
    deficit_since: Option<(Instant, u32)>,
    /// When each scheduled byte is due.
    due: VecDeque<Instant>,
    /// Each round's begin stamp (monotonic ns), `None` if the line had none.
    begins: Vec<Option<u64>>,
    /// (monotonic ns, readers blocked, rounds begun when it was taken).
    samples: Vec<(u64, usize, usize)>,
    /// Bytes written so far.
    pub released: usize,
    /// Release `n` bytes `hold` after each round's begin line (`"n": n`)
    /// instead of after readers are seen in `read(2)`: for readers that
    /// wait without a thread (Go's netpoller), which `/proc` cannot see.
    by_count: bool,
    /// (monotonic ns, threads of the process, rounds begun when taken).
    threads: Vec<(u64, usize, usize)>,
}

impl FifoHolder {
    /// Creates the FIFO at `dir/name` and opens it read-write, so opening
    /// never blocks and reads block until a byte is written.
    pub fn create(dir: &Path, name: &str, hold: Duration) -> anyhow::Result<FifoHolder> {
        let path = dir.join(name);
        nix::unistd::mkfifo(&path, nix::sys::stat::Mode::from_bits_truncate(0o600))
            .with_context(|| format!("mkfifo {}", path.display()))?;
        let fifo = std::fs::OpenOptions::new()
            .read(true)
            .write(true)
            .open(&path)
            .with_context(|| format!("opening {} read-write", path.display()))?;
        Ok(FifoHolder {
            path,
            fifo,
            hold,
            fd: None,
            deficit_since: None,
            due: VecDeque::new(),
            begins: Vec::new(),
            samples: Vec::new(),
            released: 0,
            by_count: false,
            threads: Vec::new(),
        })
    }

    /// Releases each round's `n` bytes `hold` after its begin line arrives,
    /// whether or not any reader is seen blocked in `read(2)` (readers on
    /// an event loop's poller wait without a thread). Readers are still
    /// counted from `/proc`, so `max_in_flight` stays the number of threads
    /// held in `read(2)`.
    pub fn release_on_begin(mut self) -> Self {
        self.by_count = true;
        self
    }

    /// The most threads the process had at once, per round, in round order.
    pub fn max_threads(&self) -> Vec<usize> {
        per_round(&self.begins, &self.threads)
    }

    /// The FIFO's path, for the subject.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The most readers seen blocked at once, per round, in round order.
    pub fn max_in_flight(&self) -> Vec<usize> {
        per_round(&self.begins, &self.samples)
    }
}

/// The largest sample per round: a sample goes to the last round begun
/// before it was taken (by stamp, or by arrival where a begin line had none).
fn per_round(begins: &[Option<u64>], samples: &[(u64, usize, usize)]) -> Vec<usize> {
    let stamped = !begins.is_empty() && begins.iter().all(Option::is_some);
    let mut out = vec![0; begins.len()];
    for &(t, value, begun) in samples {
        let round = if stamped {
            begins.iter().rposition(|b| b.is_some_and(|b| b <= t))
        } else {
            begun.checked_sub(1)
        };
        if let Some(r) = round {
            out[r] = out[r].max(value);
        }
    }
    out
}

/// `CLOCK_MONOTONIC` now, in nanoseconds: the clock node's
/// `process.hrtime.bigint()` reads.
pub fn monotonic_ns() -> u64 {
    let t = rustix::time::clock_gettime(rustix::time::ClockId::Monotonic);
    t.tv_sec as u64 * 1_000_000_000 + t.tv_nsec as u64
}

/// The line a subject prints before a round the [`FifoHolder`] counts:
/// `fields` plus `"event": "begin"` and the monotonic stamp `"t"`.
pub fn begin_event(mut fields: serde_json::Value) -> serde_json::Value {
    fields["event"] = "begin".into();
    fields["t"] = monotonic_ns().into();
    fields
}

impl Watch for FifoHolder {
    fn tick(&mut self, pid: u32, lines: &[String]) -> anyhow::Result<()> {
        let now = Instant::now();
        for l in lines {
            if l.contains("\"event\":\"begin\"") {
                let line = serde_json::from_str::<serde_json::Value>(l).ok();
                let stamp = line.as_ref().and_then(|v| v["t"].as_u64());
                self.begins.push(stamp);
                if self.by_count {
                    let n = line
                        .as_ref()
                        .and_then(|v| v["n"].as_u64())
                        .context("a begin line without its task count \"n\"")?;
                    for _ in 0..n {
                        self.due.push_back(now + self.hold);
                    }
                }
            }
        }
        if self.fd.is_none() {
            self.fd = procfs::fd_of(pid, &self.path);
        }
        if let Some(fd) = self.fd {
            let threads = procfs::threads(pid).unwrap_or_default();
            self.threads
                .push((monotonic_ns(), threads.len(), self.begins.len()));
            let blocked = threads
                .iter()
                .filter(|t| t.syscall == Some((procfs::SYS_READ, fd)))
                .count();
            self.samples
                .push((monotonic_ns(), blocked, self.begins.len()));
            let unread =
                rustix::io::ioctl_fionread(&self.fifo).context("FIONREAD on the FIFO")? as usize;
            let deficit = blocked.saturating_sub(unread + self.due.len());
            if deficit == 0 || self.by_count {
                self.deficit_since = None;
            } else {
                let (since, ticks) = self.deficit_since.unwrap_or((now, 0));
                if ticks >= 1 && now.duration_since(since) >= Duration::from_micros(300) {
                    for _ in 0..deficit {
                        self.due.push_back(since + self.hold);
                    }
                    self.deficit_since = None;
                } else {
                    self.deficit_since = Some((since, ticks + 1));
                }
            }
        }
        while self.due.front().is_some_and(|&d| d <= now) {
            self.due.pop_front();
            self.fifo.write_all(b"x").context("writing to the FIFO")?;
            self.released += 1;
        }
        std::thread::sleep(Duration::from_micros(200));
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stamped_rounds_take_the_samples_taken_after_they_began() {
        let dir = tempfile::tempdir().unwrap();
        let mut h = FifoHolder::create(dir.path(), "f", Duration::from_millis(1)).unwrap();
        // Round 2's readers (2 blocked at t=250) were sampled before its
        // begin line arrived (begun = 1 at the time): the stamp still puts
        // them in round 2.
        h.begins = vec![Some(100), Some(200)];
        h.samples = vec![(50, 3, 0), (150, 1, 1), (250, 2, 1), (300, 0, 2)];
        assert_eq!(h.max_in_flight(), vec![1, 2]);
        // Without stamps, the order of arrival decides.
        h.begins = vec![None, None];
        assert_eq!(h.max_in_flight(), vec![2, 0]);
    }

    #[test]
    fn begin_events_carry_a_monotonic_stamp() {
        let before = monotonic_ns();
        let e = begin_event(serde_json::json!({ "n": 3 }));
        assert_eq!(e["event"], "begin");
        assert_eq!(e["n"], 3);
        assert!(e["t"].as_u64().unwrap() >= before);
    }
}
