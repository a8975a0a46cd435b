// sluice lab: spawn-bill (seed 000 §4, seed 001 "The bill for growing it",
// "When exactly is the pool born").
// argv[2]: {"part": "bill"} or
//          {"part": "set", "set": "none"|"before"|"after", "size": n, "n": n, "fifo": path}
// bill: /proc/self/status right before the first pool task (one fs.stat) and
//       right after it completed.
// set:  process.env.UV_THREADPOOL_SIZE = size before or after that first
//       task (or never), then {"event":"begin"} and n one-byte reads of the
//       FIFO at once, the lab counting how many are in flight.
// Prints one JSON document as its last line.
'use strict';
const fs = require('node:fs');

const p = JSON.parse(process.argv[2]);

function status() {
  // Synchronous: runs on the main thread, never in the pool.
  const text = fs.readFileSync('/proc/self/status', 'utf8');
  const field = (name) => {
    const m = text.match(new RegExp(`^${name}:\\s+(\\d+)`, 'm'));
    if (!m) throw new Error(`no ${name} in /proc/self/status`);
    return Number(m[1]);
  };
  return {
    threads: field('Threads'),
    vm_size_kb: field('VmSize'),
    vm_rss_kb: field('VmRSS'),
    malloc_arenas: mallocArenas(fs.readFileSync('/proc/self/maps', 'utf8')),
  };
}

// glibc malloc arenas other than the main one: anonymous mappings that
// exactly cover a 64 MiB-aligned 64 MiB span, the first read-write (the same
// rule as malloc_arenas in spawn_bill.rs). Addresses fit a double exactly.
const ARENA = 64 * 1024 * 1024;
function mallocArenas(maps) {
  const anon = [];
  for (const line of maps.split('\n')) {
    const f = line.trim().split(/\s+/);
    if (f.length !== 5 || f[4] !== '0') continue;
    const [a, b] = f[0].split('-').map((x) => parseInt(x, 16));
    anon.push([a, b, f[1].startsWith('rw')]);
  }
  let count = 0;
  anon.forEach(([start, , rw], i) => {
    if (!rw || start % ARENA !== 0) return;
    let end = start;
    for (const [a, b] of anon.slice(i)) {
      if (a !== end || b > start + ARENA) break;
      end = b;
    }
    if (end === start + ARENA) count++;
  });
  return count;
}

function firstTask() {
  // One fs.stat: one pool request (UV__WORK_FAST_IO).
  return new Promise((resolve, reject) => fs.stat(__filename, (err) => (err ? reject(err) : resolve())));
}

function fifoRead(fd) {
  return new Promise((resolve, reject) =>
    fs.read(fd, Buffer.alloc(1), 0, 1, null, (err) => (err ? reject(err) : resolve())));
}

async function bill() {
  const before = status();
  await firstTask();
  const after = status();
  return { before, after };
}

async function setInside() {
  const fd = fs.openSync(p.fifo, 'r');
  const before = status();
  if (p.set === 'before') process.env.UV_THREADPOOL_SIZE = String(p.size);
  await firstTask();
  const after = status();
  if (p.set === 'after') process.env.UV_THREADPOOL_SIZE = String(p.size);
  console.log(JSON.stringify({ event: 'begin', t: Number(process.hrtime.bigint()), n: p.n }));
  const reads = [];
  for (let i = 0; i < p.n; i++) reads.push(fifoRead(fd));
  await Promise.all(reads);
  const probe = status();
  return { before, after, probe };
}

(p.part === 'set' ? setInside() : bill())
  .then((out) => console.log(JSON.stringify(out)))
  .catch((e) => {
    console.error(e && e.stack ? e.stack : String(e));
    process.exit(1);
  });
