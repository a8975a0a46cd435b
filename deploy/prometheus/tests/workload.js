// The Node workloads deploy/prometheus/tests/record.py runs while it records
// what `sluice scope --all` exports (the lab's scope workloads, held for
// minutes instead of one window):
//
//   node workload.js idle                    starts the pool (one fs.stat), then idles
//   node workload.js cpu N FROM TO           keeps N crypto.pbkdf2 in flight from FROM s to TO s
//   node workload.js loop FROM TO            blocks the loop 45 ms of every 50 ms from FROM s to TO s
//   node workload.js dns N FROM TO           keeps N dns.lookup in flight from FROM s to TO s
//                                            (run under `sluice lab-netns`: the DNS delay server
//                                            holds every query)
//
// Seconds count from the start of the process. It prints `ready PID` once
// the pool has started, and exits on SIGTERM.
'use strict';
const crypto = require('node:crypto');
const dns = require('node:dns');
const fs = require('node:fs');

const [mode, ...rest] = process.argv.slice(2);
const num = (i) => Number(rest[i]);
const t0 = Date.now();
const now = () => (Date.now() - t0) / 1000;

setInterval(() => {}, 1 << 30);
process.on('SIGTERM', () => process.exit(0));

function between(from, to, start) {
  setTimeout(start, Math.max(0, from * 1000 - (Date.now() - t0)));
  return () => now() < to;
}

fs.stat(__filename, () => {
  console.log(`ready ${process.pid}`);
  if (mode === 'cpu') {
    const [n, from, to] = [num(0), num(1), num(2)];
    const on = between(from, to, () => {
      for (let i = 0; i < n; i++) again();
    });
    function again() {
      if (on()) crypto.pbkdf2('secret', 'salt', 100000, 64, 'sha512', again);
    }
  } else if (mode === 'loop') {
    const [from, to] = [num(0), num(1)];
    const on = between(from, to, () => {
      const timer = setInterval(() => {
        if (!on()) return clearInterval(timer);
        const until = Date.now() + 45;
        while (Date.now() < until);
      }, 50);
    });
  } else if (mode === 'dns') {
    const [n, from, to] = [num(0), num(1), num(2)];
    let k = 0;
    const on = between(from, to, () => {
      for (let i = 0; i < n; i++) again();
    });
    function again() {
      if (on()) dns.lookup(`n${k++}.record.test`, { family: 4 }, again);
    }
  } else if (mode !== 'idle') {
    console.error(`workload.js: unknown mode ${mode}`);
    process.exit(2);
  }
});
