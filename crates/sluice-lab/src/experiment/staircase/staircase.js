// sluice lab: staircase (seed 000 §1). n concurrent pool tasks, total wall ms.
// argv[2]: {"kind": "wait"|"cpu", "ns": [..], "fifo": path, "gap_ms": ms, "iterations": n}
// Prints {"event":"begin","n":n} before each round, then {"rows":[{"n","total_ms"}]}.
'use strict';
const fs = require('node:fs');
const crypto = require('node:crypto');

const p = JSON.parse(process.argv[2]);
const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function waitTask(fd) {
  // One byte from the FIFO: one fs.read, one pool request, parked in read(2)
  // until the lab writes a byte (fs.readFile would be four requests).
  return new Promise((resolve, reject) =>
    fs.read(fd, Buffer.alloc(1), 0, 1, null, (err) => (err ? reject(err) : resolve())));
}

function cpuTask(iterations) {
  return new Promise((resolve, reject) =>
    crypto.pbkdf2('secret', 'salt', iterations, 64, 'sha512', (err) => (err ? reject(err) : resolve())));
}

async function main() {
  const fd = p.kind === 'wait' ? fs.openSync(p.fifo, 'r') : -1;
  const rows = [];
  for (const n of p.ns) {
    console.log(JSON.stringify({ event: 'begin', t: Number(process.hrtime.bigint()), n }));
    const t0 = now();
    const tasks = [];
    for (let i = 0; i < n; i++) tasks.push(p.kind === 'wait' ? waitTask(fd) : cpuTask(p.iterations));
    await Promise.all(tasks);
    rows.push({ n, total_ms: now() - t0 });
    await sleep(p.gap_ms);
  }
  console.log(JSON.stringify({ rows }));
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
