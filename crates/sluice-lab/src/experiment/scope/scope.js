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
  if (BLOCKERS.has(p.workload)) return blockerSignal();
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

// ---- Loop blockers: the synchronous work of seed 003, for
// `sluice scope --profile` to name. Each runs in a function of its own,
// every `every_ms` (setInterval), holding the loop ~150 ms:
//   json-parse:      parseBigJson()        JSON.parse of a 5-10 MB string
//   pbkdf2-sync:     hashLegacyPassword()  crypto.pbkdf2Sync, ~150 ms
//   regex-backtrack: validateUrl()         a URL regex with catastrophic
//                                          backtracking on a crafted URL
//   tight-loop:      tightLoop()           a plain JavaScript loop
// Protocol (four SIGUSR2): start the blocker (phase "before"), phase
// "during" (the lab profiles now), phase "after", stop. Per phase: the
// loop's lag (perf_hooks.monitorEventLoopDelay) and the blocker's calls.
// An HTTP server on 127.0.0.1:0 answers /ping: the lab asks it after the
// profile (the process still serves). Calibration runs before `ready`.
const BLOCKERS = new Set(['json-parse', 'pbkdf2-sync', 'regex-backtrack', 'tight-loop']);
const blocker = { calls: 0, phase: null, phases: {}, timer: null, fn: null, signals: 0 };

let bigJson = '';
function parseBigJson() {
  return JSON.parse(bigJson).length;
}

let pbkdf2Iterations = 0;
function hashLegacyPassword() {
  return crypto.pbkdf2Sync('legacy-secret', 'salt', pbkdf2Iterations, 64, 'sha512').length;
}

const urlRe = /^(https?:\/\/)?([\w-]+(\.[\w-]+)+)+(\/[\w-]+)*\/?$/;
let craftedUrl = '';
function validateUrl() {
  return urlRe.test(craftedUrl);
}

let loopMs = 0;
function tightLoop() {
  const end = Date.now() + loopMs;
  let x = 0;
  while (Date.now() < end) x += Math.sqrt(x + 1);
  return x;
}

function timeOnce(fn) {
  const t0 = now();
  fn();
  return now() - t0;
}

// Sizes each blocker to about `block_ms`; returns what it ran.
function calibrateBlocker() {
  const target = p.block_ms;
  switch (p.workload) {
    case 'json-parse': {
      const rows = [];
      for (let i = 0; i < 60000; i++) {
        rows.push({ id: i, name: `user${i}`, tags: ['a', 'b', 'c'], score: i * 1.5, nested: { x: i, y: 'z'.repeat(20) } });
      }
      bigJson = JSON.stringify(rows);
      return { fn: parseBigJson, size_bytes: bigJson.length, ms: timeOnce(parseBigJson) };
    }
    case 'pbkdf2-sync': {
      pbkdf2Iterations = 10000;
      const ms = timeOnce(hashLegacyPassword);
      pbkdf2Iterations = Math.max(1000, Math.round(10000 * target / ms));
      return { fn: hashLegacyPassword, iterations: pbkdf2Iterations, ms: timeOnce(hashLegacyPassword) };
    }
    case 'regex-backtrack': {
      // Each extra `w.w` doubles the backtracking.
      let n = 14;
      let ms = 0;
      for (; n <= 26; n++) {
        craftedUrl = `http://${'w.w'.repeat(n)}!`;
        ms = timeOnce(validateUrl);
        if (ms >= target) break;
      }
      return { fn: validateUrl, url_length: craftedUrl.length, ms };
    }
    case 'tight-loop':
      loopMs = target;
      return { fn: tightLoop, ms: timeOnce(tightLoop) };
    default:
      throw new Error(`unknown blocker ${p.workload}`);
  }
}

function blockerPhase(name) {
  if (blocker.phase) {
    const h = blocker.histogram;
    h.disable();
    blocker.phases[blocker.phase] = {
      calls: blocker.calls,
      ms: now() - blocker.phaseStart,
      lag_p50_ms: h.percentile(50) / 1e6,
      lag_p99_ms: h.percentile(99) / 1e6,
      lag_max_ms: h.max / 1e6,
    };
  }
  blocker.phase = name;
  blocker.calls = 0;
  blocker.phaseStart = now();
  if (name) {
    blocker.histogram = require('node:perf_hooks').monitorEventLoopDelay({ resolution: 10 });
    blocker.histogram.enable();
  }
}

function blockerSignal() {
  blocker.signals++;
  if (blocker.signals === 1) {
    blockerPhase('before');
    blocker.timer = setInterval(() => { blocker.fn(); blocker.calls++; }, p.every_ms);
  } else if (blocker.signals === 2) {
    blockerPhase('during');
  } else if (blocker.signals === 3) {
    blockerPhase('after');
  } else {
    clearInterval(blocker.timer);
    blockerPhase(null);
    console.log(JSON.stringify({
      workload: p.workload, pool: p.pool, tasks: 0, completed: 0, loop_spin_ms: 0,
      calibration: blocker.calibration, phases: blocker.phases,
    }));
    process.exit(0);
  }
}

if (BLOCKERS.has(p.workload)) {
  const c = calibrateBlocker();
  blocker.fn = c.fn;
  blocker.calibration = { ...c, fn: c.fn.name };
  const server = require('node:http').createServer((req, res) => res.end('pong'));
  server.listen(0, '127.0.0.1', () => {
    console.log(JSON.stringify({ event: 'serving', port: server.address().port }));
  });
}
