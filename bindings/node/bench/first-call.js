'use strict';
// The first call of a kind against the second, behind 8 libuv pbkdf2
// blockers: `node bench/first-call.js [--runs N]`. Each run is a fresh node
// (a first call happens once per process):
//
//   node      plain Node: dns.lookup and fs.readFile on libuv's pool, behind
//             the blockers
//   warm      node -r sluice/patch, the calls made once the package's
//             warm-up ran (the tick that loaded it has ended, as for a
//             server's first request)
//   cold      node -r sluice/patch, the calls made in the tick that loaded
//             the package (before its warm-up): what the first call costs
//             when it builds the pool, starts a worker and reads the
//             resolver's files itself
//   lane      as warm, with SLUICE_NOWAIT=0: every call through the FastIo
//             lane or the resolver's thread, none answered on the loop's
//             thread (lib/ops.js, the no-wait path)
//
// The lookup is of `localhost` for IPv4 (an any-family lookup asks the name
// server for IPv6 where the hosts file has no ::1, as on the sandboxed
// machine these numbers were first taken on: then the name server's time,
// not the package's, is measured).
//
// The blockers are Node's own crypto.pbkdf2 (SLUICE_PATCH_PBKDF2=0: they
// stay on libuv's pool), 8 of them, 300 000 sha512 iterations each. Times
// are from the call to its callback, in ms: the median of the runs (and
// the worst), with /proc/loadavg before and after.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const { option, whole } = require('./options.js');

const RUNS = option('runs', 5, whole(1));

const child = (warm) => `
  const crypto = require('node:crypto'), dns = require('node:dns'), fs = require('node:fs');
  const { performance } = require('node:perf_hooks');
  const time = (start) => new Promise((res) => { const t0 = performance.now(); start(() => res(performance.now() - t0)); });
  const lookup = (done) => dns.lookup('localhost', { family: 4 }, done);
  const read = (done) => fs.readFile(${JSON.stringify(__filename)}, done);
  async function measure() {
    for (let i = 0; i < 8; i++) crypto.pbkdf2('pw', 'salt', 300000, 64, 'sha512', () => {});
    const out = {};
    out.lookup1 = await time(lookup);
    out.lookup2 = await time(lookup);
    out.read1 = await time(read);
    out.read2 = await time(read);
    console.log(JSON.stringify(out));
    process.exit(0);
  }
  ${warm ? 'setTimeout(measure, 50);' : 'measure();'}
`;

const modes = {
  node: { env: { SLUICE_PATCH: '0' }, warm: true },
  warm: { env: { SLUICE_PATCH_PBKDF2: '0' }, warm: true },
  cold: { env: { SLUICE_PATCH_PBKDF2: '0' }, warm: false },
  lane: { env: { SLUICE_PATCH_PBKDF2: '0', SLUICE_NOWAIT: '0' }, warm: true },
};

const loadavg = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const before = loadavg();
const rows = {};
for (let run = 0; run < RUNS; run++) {
  // Modes interleaved, so that a change of the machine's load hits each alike.
  for (const [name, mode] of Object.entries(modes)) {
    const r = spawnSync(process.execPath, ['-r', path.join(__dirname, '..', 'patch.js'), '-e', child(mode.warm)], {
      env: { ...process.env, ...mode.env }, encoding: 'utf8', timeout: 120000,
    });
    const line = (r.stdout || '').trim().split('\n').pop();
    if (r.status !== 0 || !line) {
      console.error(`bench: ${name} run ${run} failed (status ${r.status}): ${r.stderr}`);
      process.exit(1);
    }
    (rows[name] ||= []).push(JSON.parse(line));
  }
}
const profile = require('..').buildProfile();
console.log(`first call vs second, behind 8 libuv pbkdf2 blockers; ${RUNS} runs per mode; addon ${profile}; node ${process.version}`);
console.log(`loadavg before ${before}, after ${loadavg()}`);
console.log(`${'mode'.padEnd(6)} ${['lookup#1', 'lookup#2', 'readFile#1', 'readFile#2'].map((h) => h.padEnd(19)).join(' ')}(ms: median / worst)`);
const cell = (xs) => `${median(xs).toFixed(3)} / ${Math.max(...xs).toFixed(2)}`.padEnd(19);
for (const [name, list] of Object.entries(rows)) {
  const col = (k) => cell(list.map((o) => o[k]));
  console.log(`${name.padEnd(6)} ${['lookup1', 'lookup2', 'read1', 'read2'].map(col).join(' ')}`);
}
