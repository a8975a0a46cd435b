// sluice lab: starve (seed 001, "Who starves whom"), node's side.
// A: N slow waits queued, then one file read (fs.read of 1 KiB, one pool
// request) and one CPU task (crypto.pbkdf2).
// B: N CPU tasks queued, then one file read and one slow wait.
// A slow wait is dns.lookup(name, {family: 4}) of a distinct name:
// getaddrinfo, libuv's slow I/O, held by the lab's DNS delay server (the
// lab runs this script in a network namespace whose only name server is
// that server). Without it ("dns": false) the lab runs B only, without the
// slow wait.
// argv[2]: {"scenario": "A"|"B", "queued": n, "cpu_ms": ms, "file": path, "dns": bool, "dns_suffix": domain}
// Prints {"event":"begin"} before the scenario, then
// {"probes": {"file_read": {...}, "cpu_task"|"slow_wait": {...}}, "total_ms", "task_ms", "iterations"}
// where each probe has probe_ms (submission to callback), idle_ms (the same
// operation on the idle pool, median of 5) and wait_ms = probe_ms - idle_ms.
'use strict';
const fs = require('node:fs');
const dns = require('node:dns');
const crypto = require('node:crypto');

const p = JSON.parse(process.argv[2]);
const now = () => Number(process.hrtime.bigint()) / 1e6;
const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};

// Iterations of pbkdf2-sha512 that take about `ms` with node's OpenSSL on an
// uncontended core, timed synchronously on the main thread before the pool
// starts, as the Rust subjects do: a probe size that takes at least 2 ms
// (grown from 1000), then the fastest of five runs of it, scaled.
function calibrate(ms) {
  const time = (iterations) => {
    const t = now();
    crypto.pbkdf2Sync('secret', 'salt', iterations, 64, 'sha512');
    return now() - t;
  };
  let probe = 1000;
  while (probe < 1 << 24 && time(probe) < 2) probe *= 4;
  const fastest = Math.min(...[0, 1, 2, 3, 4].map(() => time(probe)));
  return Math.max(1, Math.floor((ms / fastest) * probe));
}

const cpuTask = (iterations) =>
  new Promise((resolve, reject) =>
    crypto.pbkdf2('secret', 'salt', iterations, 64, 'sha512', (err) => (err ? reject(err) : resolve())));

async function main() {
  if (p.scenario === 'A' && !p.dns) throw new Error('scenario A needs the DNS delay server ("dns": true)');
  const fd = fs.openSync(p.file, 'r');
  const buf = Buffer.alloc(1024);
  const fileRead = () =>
    new Promise((resolve, reject) => fs.read(fd, buf, 0, buf.length, 0, (err) => (err ? reject(err) : resolve())));
  // Every slow wait asks a name of its own, so the server counts it apart.
  let lookups = 0;
  const slowWait = () => {
    const name = `w${++lookups}.${p.dns_suffix}`;
    return new Promise((resolve, reject) => dns.lookup(name, { family: 4 }, (err) => (err ? reject(err) : resolve())));
  };
  const timed = async (f) => {
    const t = now();
    await f();
    return now() - t;
  };
  const idle = async (f) => {
    await f(); // warm up (the first lookup loads the resolver's modules)
    const v = [];
    for (let i = 0; i < 5; i++) v.push(await timed(f));
    return median(v);
  };

  const iterations = calibrate(p.cpu_ms);
  await fileRead(); // starts the pool
  const taskMs = await timed(() => cpuTask(iterations));
  const idleMs = { file_read: await idle(fileRead) };
  if (p.scenario === 'A') idleMs.cpu_task = await idle(() => cpuTask(iterations));
  else if (p.dns) idleMs.slow_wait = await idle(slowWait);

  console.log(JSON.stringify({ event: 'begin', t: Number(process.hrtime.bigint()), scenario: p.scenario }));
  const t0 = now();
  const all = [];
  for (let i = 0; i < p.queued; i++) all.push(p.scenario === 'A' ? slowWait() : cpuTask(iterations));
  // The probes go in at the loop's next turn, behind the tasks already
  // submitted: what they wait for is then the pool, not the rest of the turn
  // that submitted the queue (its callbacks' bookkeeping, about 0.5-1 ms of
  // the loop's own time here, node's as much as node+sluice's).
  await new Promise((resolve) => setImmediate(resolve));
  const probes = {};
  const probe = (name, f) => {
    const t = now();
    return f().then(() => {
      const probeMs = now() - t;
      probes[name] = { probe_ms: probeMs, idle_ms: idleMs[name], wait_ms: Math.max(0, probeMs - idleMs[name]) };
    });
  };
  all.push(probe('file_read', fileRead));
  if (p.scenario === 'A') all.push(probe('cpu_task', () => cpuTask(iterations)));
  else if (p.dns) all.push(probe('slow_wait', slowWait));
  await Promise.all(all);
  const totalMs = now() - t0;
  fs.closeSync(fd);
  console.log(JSON.stringify({ probes, total_ms: totalMs, task_ms: taskMs, iterations }));
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
