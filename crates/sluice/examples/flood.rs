//! A CPU flood and a file read, under both policies, side by side.
//!
//! 64 CPU tasks (about 20 ms each) are submitted, then one read of a small
//! file. Under the libuv policy (libuv's pool: one FIFO over 4 threads) the
//! read queues behind the flood; under the lanes policy it has threads of its
//! own. Every number printed is measured in this run.
//!
//! ```text
//! cargo run --release -p sluice-pool --example flood
//! ```

use sluice::{Lane, Policy, Pool};
use std::hint::black_box;
use std::time::{Duration, Instant};

const FLOOD: usize = 64;

/// Busy work: `rounds` of an xorshift, so the task holds a core.
fn spin(rounds: u64) -> u64 {
    let mut x = 0x9e37_79b9_7f4a_7c15u64;
    for _ in 0..rounds {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    black_box(x)
}

/// Rounds of `spin` that take about `target` on this machine.
fn calibrate(target: Duration) -> u64 {
    let mut rounds = 1_000_000;
    loop {
        let t = Instant::now();
        spin(rounds);
        let took = t.elapsed();
        if took >= Duration::from_millis(5) {
            return (rounds as f64 * target.as_secs_f64() / took.as_secs_f64()) as u64;
        }
        rounds *= 4;
    }
}

struct Run {
    read_wait_ms: f64,
    flood_ms: f64,
    read_queue_depth_behind: u64,
}

fn run(pool: &Pool, rounds: u64, file: &'static str) -> Run {
    let start = Instant::now();
    let flood: Vec<_> = (0..FLOOD)
        .map(|_| pool.spawn(Lane::Cpu, move || spin(rounds)))
        .collect();
    let queued_cpu = pool.metrics().lane(Lane::Cpu).queue_depth;
    let t = Instant::now();
    let read = pool.spawn(Lane::FastIo, move || std::fs::read(file).map(|b| b.len()));
    let bytes = read.wait().expect("read task").expect("read the file");
    let read_wait_ms = t.elapsed().as_secs_f64() * 1e3;
    assert!(bytes > 0);
    for task in flood {
        task.wait().expect("cpu task");
    }
    Run {
        read_wait_ms,
        flood_ms: start.elapsed().as_secs_f64() * 1e3,
        read_queue_depth_behind: queued_cpu,
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/Cargo.toml");
    let cores = std::thread::available_parallelism()?.get();
    let rounds = calibrate(Duration::from_millis(20));
    println!(
        "sluice flood: {FLOOD} CPU tasks of ~20 ms, then one file read; {cores} usable cores\n"
    );

    let lanes = Pool::builder().build()?;
    let libuv = Pool::builder()
        .policy(Policy::Libuv { threads: Some(4) })
        .build()?;
    let a = run(&libuv, rounds, file);
    let b = run(&lanes, rounds, file);

    println!(
        "{:<40} {:>16} {:>16}",
        "", "libuv policy (4)", "lanes policy"
    );
    println!(
        "{:<40} {:>16} {:>16}",
        "Cpu tasks queued at the read's submit",
        a.read_queue_depth_behind,
        b.read_queue_depth_behind
    );
    println!(
        "{:<40} {:>13.2} ms {:>13.2} ms",
        "file read: submit to result", a.read_wait_ms, b.read_wait_ms
    );
    println!(
        "{:<40} {:>13.1} ms {:>13.1} ms",
        "whole flood", a.flood_ms, b.flood_ms
    );
    for (name, pool) in [("libuv", &libuv), ("lanes", &lanes)] {
        let snap = pool.metrics();
        let f = snap.lane(Lane::FastIo);
        let c = snap.lane(Lane::Cpu);
        println!(
            "{name}: fastio queue wait p50 {:.3} ms; cpu queue wait p99 {:.1} ms; cpu saturated {:.2} s; threads {}",
            f.queue_wait_seconds.p50_seconds * 1e3,
            c.queue_wait_seconds.p99_seconds * 1e3,
            c.saturated_seconds_total,
            snap.threads_alive
        );
    }
    println!(
        "\nratio (libuv / lanes) for the read: {:.0}x",
        a.read_wait_ms / b.read_wait_ms.max(1e-3)
    );
    Ok(())
}
