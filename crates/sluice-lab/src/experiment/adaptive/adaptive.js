// sluice lab: adaptive (seed 004). node's side of the wait, cpu and hung
// scenarios, at node's defaults (UV_THREADPOOL_SIZE unset).
// argv[2]: {"scenario": "wait"|"cpu"|"hung", ...} (see adaptive.rs)
// Prints {"event":"begin",...} before each wait round, then one JSON document.
'use strict';
const fs = require('node:fs');
const crypto = require('node:crypto');

const p = JSON.parse(process.argv[2]);
const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function threadsNow() {
  const m = /Threads:\s+(\d+)/.exec(fs.readFileSync('/proc/self/status', 'utf8'));
  return m ? Number(m[1]) : 0;
}

function readOne(fd, position) {
  // One fs.read: one pool request (fs.readFile would be four).
  return new Promise((resolve, reject) =>
    fs.read(fd, Buffer.alloc(position === null ? 1 : 4096), 0, position === null ? 1 : 4096, position,
      (err) => (err ? reject(err) : resolve())));
}

async function wait() {
  const fd = fs.openSync(p.fifo, 'r');
  const largest = Math.max(...p.ns);
  const rows = [];
  for (const n of p.ns) {
    const before = threadsNow();
    const timeline = [];
    const t0 = now();
    // The loop is free while the reads wait, so it samples the threads.
    const sampler = setInterval(() => timeline.push([now() - t0, threadsNow()]), 2);
    timeline.push([0, before]);
    console.log(JSON.stringify({ event: 'begin', t: Number(process.hrtime.bigint()), n }));
    const tasks = [];
    for (let i = 0; i < n; i++) tasks.push(readOne(fd, null));
    await Promise.all(tasks);
    const total_ms = now() - t0;
    await sleep(p.settle_ms);
    clearInterval(sampler);
    const after = threadsNow();
    const row = {
      n, total_ms, threads_before: before, threads_after: after,
      threads_peak: Math.max(...timeline.map((x) => x[1])),
    };
    if (n === largest) row.timeline = timeline;
    rows.push(row);
  }
  return { rows };
}

async function cpu() {
  const t0 = now();
  const tasks = [];
  for (let i = 0; i < p.n; i++) {
    tasks.push(new Promise((resolve, reject) =>
      crypto.pbkdf2('secret', 'salt', p.iterations, 64, 'sha512', (err) => (err ? reject(err) : resolve()))));
  }
  await Promise.all(tasks);
  return { n: p.n, total_ms: now() - t0 };
}

async function hung() {
  // Read-write: opening never blocks; reads block until this process writes.
  const fifo = fs.openSync(p.fifo, 'r+');
  const file = fs.openSync(p.file, 'r');
  const t0 = now();
  setTimeout(() => fs.writeSync(fifo, Buffer.alloc(p.hung, 1)), p.hang_ms);
  const hungReads = [];
  for (let i = 0; i < p.hung; i++) hungReads.push(readOne(fifo, null));
  const hungDone = Promise.all(hungReads).then(() => now() - t0);
  const stream = [];
  for (let i = 0; i < p.reads; i++) {
    stream.push(sleep(100 + 2 * i).then(async () => {
      const t = now();
      await readOne(file, 0);
      return now() - t;
    }));
  }
  const [hung_total_ms, lat] = await Promise.all([hungDone, Promise.all(stream)]);
  lat.sort((a, b) => a - b);
  const q = (x) => lat[Math.min(lat.length, Math.max(1, Math.ceil(lat.length * x))) - 1];
  return { reads: lat.length, p50_ms: q(0.5), p99_ms: q(0.99), max_ms: lat[lat.length - 1], hung_total_ms };
}

const scenarios = { wait, cpu, hung };

(scenarios[p.scenario] || (() => Promise.reject(new Error(`node has no ${p.scenario} scenario`))))()
  .then((out) => console.log(JSON.stringify(out)))
  .catch((e) => {
    console.error(e && e.stack ? e.stack : String(e));
    process.exit(1);
  });
