'use strict';
// Side by side, in one run: plain Node (libuv's pool) and sluice (the lanes)
// on the scenarios of seed 002. `node bench/starve.js [--rounds N]`
//
//   read-behind-4     fs.readFile of a small file issued right behind 4 pbkdf2
//   lookup-behind-4   dns.lookup('localhost') right behind 4 pbkdf2
//   read-behind-32    fs.readFile right behind 32 pbkdf2
//   round-trip        a trivial request, awaited one after another:
//                     node's fs.access (its cheapest pool request) vs sluice's no-op task
//
// Each blocker is pbkdf2(100 000 iterations, sha512, 64 bytes), seed 002's
// shape. Latencies are from the call to its callback/settlement, in ms; the
// median and the worst of the rounds are printed, with /proc/loadavg before
// and after (a busy machine makes every number larger).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const crypto = require('node:crypto');
const dns = require('node:dns');
const { performance } = require('node:perf_hooks');
const sluice = require('..');

const { option, whole } = require('./options.js');

const ROUNDS = option('rounds', 7, whole(1));
const ITER = 100000;

const file = path.join(os.tmpdir(), `sluice-bench-${process.pid}.txt`);
fs.writeFileSync(file, 'x'.repeat(4096));

const subjects = {
  node: {
    blocker: () => new Promise((res, rej) => crypto.pbkdf2('pw', 'salt', ITER, 64, 'sha512', (e, k) => (e ? rej(e) : res(k)))),
    read: () => new Promise((res, rej) => fs.readFile(file, (e, b) => (e ? rej(e) : res(b)))),
    lookup: () => new Promise((res, rej) => dns.lookup('localhost', (e, a) => (e ? rej(e) : res(a)))),
    trivial: () => new Promise((res, rej) => fs.access(file, (e) => (e ? rej(e) : res()))),
  },
  'node+sluice': {
    blocker: () => sluice.crypto.pbkdf2('pw', 'salt', ITER, 64, 'sha512'),
    read: () => sluice.fs.readFile(file),
    lookup: () => sluice.dns.lookup('localhost'),
    trivial: () => sluice.ping(),
  },
};

async function timed(fn) {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

// One round: `blockers` pbkdf2 submitted, then the probe; the probe's
// latency. Waits for the blockers before the next round.
async function behind(subject, blockers, probe) {
  const running = [];
  for (let i = 0; i < blockers; i++) running.push(subject.blocker());
  const ms = await timed(probe);
  await Promise.all(running);
  return ms;
}

function summary(list) {
  const s = [...list].sort((a, b) => a - b);
  return { median: s[Math.floor(s.length / 2)], max: s[s.length - 1] };
}

const fmt = (ms) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(1)} ms`);

async function main() {
  console.log(`loadavg before: ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
  console.log(`node ${process.version}, UV_THREADPOOL_SIZE=${process.env.UV_THREADPOOL_SIZE || '4 (default)'}, ` +
    `${os.availableParallelism ? os.availableParallelism() : os.cpus().length} usable cores, ${ROUNDS} rounds`);
  // Warm both: threads started, resolver built, code paths jitted.
  for (const s of Object.values(subjects)) {
    await s.blocker();
    await s.read();
    await s.lookup();
    for (let i = 0; i < 100; i++) await s.trivial();
  }
  const rows = [];
  const scenarios = [
    ['read-behind-4', 4, 'read'],
    ['lookup-behind-4', 4, 'lookup'],
    ['read-behind-32', 32, 'read'],
  ];
  for (const [name, blockers, probe] of scenarios) {
    const result = {};
    for (const [label, s] of Object.entries(subjects)) {
      const ms = [];
      for (let r = 0; r < ROUNDS; r++) ms.push(await behind(s, blockers, s[probe]));
      result[label] = summary(ms);
    }
    rows.push([name, result]);
  }
  const N = 20000;
  const trip = {};
  for (const [label, s] of Object.entries(subjects)) {
    const t0 = performance.now();
    for (let i = 0; i < N; i++) await s.trivial();
    const per = (performance.now() - t0) / N;
    trip[label] = { median: per, max: per };
  }
  rows.push([`round-trip (mean of ${N})`, trip]);
  console.log('\nscenario                      node (median / worst)        node+sluice (median / worst)');
  for (const [name, r] of rows) {
    const n = r.node;
    const s = r['node+sluice'];
    console.log(`${name.padEnd(30)}${`${fmt(n.median)} / ${fmt(n.max)}`.padEnd(29)}${fmt(s.median)} / ${fmt(s.max)}`);
  }
  console.log(`\nloadavg after: ${fs.readFileSync('/proc/loadavg', 'utf8').trim()}`);
  const m = sluice.metricsJson();
  console.log(`sluice calls: ${JSON.stringify(m.node.calls)}; dns answers from the hosts file: ${m.dns.hosts_total}`);
  fs.rmSync(file, { force: true });
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
