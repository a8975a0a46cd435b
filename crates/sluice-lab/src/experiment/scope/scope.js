// sluice lab: scope. A workload with known truth for `sluice scope` to
// watch from outside.
// argv[2]: {"workload": "idle"|"cpu-full"|"cpu-4x"|"read-2x"|"dns-32"|"loop-blocker",
//           "pool": P, "iterations": n, "fifo": path, "spin_ms": ms,
//           "lookups": n, "dns_suffix": domain}
// Starts the pool (one fs.stat), prints {"event":"ready","pid":PID} (its own
// PID: under `sluice lab-netns` node is not the lab's child but its
// grandchild), then waits for SIGUSR2 to start the load and a second
// SIGUSR2 to stop; prints {"workload", "pool", "tasks", "completed",
// "loop_spin_ms"} and exits.
'use strict';
const fs = require('node:fs');
const dns = require('node:dns');
const crypto = require('node:crypto');

const p = JSON.parse(process.argv[2]);
const now = () => Number(process.hrtime.bigint()) / 1e6;
let running = false;
let completed = 0;
let tasks = 0;
let spun = 0;
let fifo = null;
let stopping = false;

function cpuLoop() {
  if (!running) return;
  crypto.pbkdf2('secret', 'salt', p.iterations, 64, 'sha512', (err) => {
    if (err) throw err;
    completed++;
    cpuLoop();
  });
}

function start() {
  running = true;
  switch (p.workload) {
    case 'idle':
      break;
    case 'cpu-full':
    case 'cpu-4x':
      tasks = p.workload === 'cpu-full' ? p.pool : 4 * p.pool;
      for (let i = 0; i < tasks; i++) cpuLoop();
      break;
    case 'read-2x': {
      // Reads of a FIFO nobody writes until stop(): each holds a pool
      // thread in read(2).
      fifo = fs.openSync(p.fifo, 'r+');
      tasks = 2 * p.pool;
      for (let i = 0; i < tasks; i++) {
        fs.read(fifo, Buffer.alloc(1), 0, 1, null, (err) => {
          if (err) throw err;
          completed++;
          if (stopping && completed === tasks) finish();
        });
      }
      break;
    }
    case 'dns-32': {
      // Lookups of distinct names, family 4: getaddrinfo on the pool as
      // libuv's slow I/O, each held by the DNS delay server (the lab runs
      // this script in a network namespace whose only name server is that
      // server). libuv runs at most (P + 1) / 2 at once; the rest wait.
      tasks = p.lookups;
      for (let i = 0; i < tasks; i++) {
        dns.lookup(`s${i}.${p.dns_suffix}`, { family: 4 }, (err) => {
          if (err) throw err;
          completed++;
          if (stopping && completed === tasks) finish();
        });
      }
      break;
    }
    case 'loop-blocker': {
      // Synchronous CPU on the loop thread: nothing else runs meanwhile,
      // not even the stop signal's handler.
      const t0 = now();
      while (now() - t0 < p.spin_ms) {
        // busy
      }
      spun = now() - t0;
      break;
    }
    default:
      throw new Error(`unknown workload ${p.workload}`);
  }
}

function finish() {
  console.log(JSON.stringify({
    workload: p.workload, pool: p.pool, tasks, completed, loop_spin_ms: spun,
  }));
  process.exit(0);
}

function stop() {
  running = false;
  stopping = true;
  if (fifo !== null && completed < tasks) {
    // Release the readers first: at exit libuv joins its pool threads,
    // which would wait forever on a read nobody answers.
    fs.writeSync(fifo, Buffer.alloc(tasks - completed, 120));
  } else if (p.workload === 'dns-32' && completed < tasks) {
    // The lookups still held end within about one hold: the last one's
    // callback finishes.
  } else {
    finish();
  }
}

let signals = 0;
process.on('SIGUSR2', () => {
  signals++;
  if (signals === 1) start();
  else stop();
});
// Keep the loop alive while waiting for the signals.
const keepAlive = setInterval(() => {}, 1 << 30);
fs.stat(__filename, (err) => {
  if (err) throw err;
  console.log(JSON.stringify({ event: 'ready', pid: process.pid }));
});
void keepAlive;
