'use strict';
// The Cpu lane beside other processes that compute, side by side in one
// run: 32 crypto.pbkdf2 calls (60,000 iterations, sha512, 64 bytes) in
// flight at once, timed from the first call to the last callback, in a
// child node per setup:
//
//   node            plain Node (libuv's pool, UV_THREADPOOL_SIZE 4)
//   <policy>        node with the preload (`-r sluice/patch`) and
//                   SLUICE_CPU_SCHED=<policy>; `guarded` is the package's
//                   default, `normal-0` is `normal` with SLUICE_CPU_NICE=0
//
// each alone and beside `--hogs N` (default: the cores) `node -e
// 'while(1){}'` processes started for the run (same session, same
// priority: the kernel's autogroup puts them beside the subject, as a
// cluster's other workers or a build started from the same shell). Rounds
// alternate the setups so a busy machine weighs on every one alike; per
// setup the median [min..max] of the rounds and the ratio of medians to
// plain Node beside the same hogs, with /proc/loadavg.
//
//   node bench/neighbours.js [--rounds N] [--hogs N] [--calls N]
//                            [--setups node,guarded,normal,normal-0,batch,idle]
//
// (`idle` is left out by default: beside the hogs a SCHED_IDLE lane gets
// only what they leave, which on a machine they fill is nothing.)
// Build the addon first (`npm run build`).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { option, whole, someOf } = require('./options.js');

const SETUPS = ['node', 'guarded', 'normal', 'normal-0', 'batch', 'idle'];

const ROUNDS = option('rounds', 3, whole(1));
const HOGS = option('hogs', os.availableParallelism(), whole(0));
const CALLS = option('calls', 32, whole(1));
const setups = option('setups', ['node', 'guarded', 'normal', 'normal-0'], someOf(SETUPS));

const PATCH = path.join(__dirname, '..', 'patch.js');
if (!fs.existsSync(path.join(__dirname, '..', 'sluice.node'))) {
  console.error('bench: no sluice.node; build the addon first (npm run build)');
  process.exit(2);
}

// The work, in the child: every call in flight at once; the wall time and
// the Cpu lane's policy as the pool reports it.
const work = (setup) => `
  const crypto = require('node:crypto');
  const t0 = process.hrtime.bigint();
  let left = ${CALLS};
  for (let i = 0; i < ${CALLS}; i++) {
    crypto.pbkdf2('pw', 'salt' + i, 60000, 64, 'sha512', (e) => {
      if (e) throw e;
      if (--left === 0) {
        const ms = Number(process.hrtime.bigint() - t0) / 1e6;
        let sched = '-';
        if (${JSON.stringify(setup)} !== 'node') try { sched = require(${JSON.stringify(path.join(__dirname, '..'))}).metricsJson().pool.cpu_sched; } catch {}
        console.log(JSON.stringify({ ms, sched }));
      }
    });
  }`;

function child(setup) {
  const env = { ...process.env };
  delete env.SLUICE_CPU_SCHED;
  delete env.SLUICE_CPU_NICE;
  const argv = [];
  if (setup !== 'node') {
    argv.push('-r', PATCH);
    const [sched, nice] = setup.split('-');
    env.SLUICE_CPU_SCHED = sched;
    if (nice !== undefined) env.SLUICE_CPU_NICE = nice;
  }
  argv.push('-e', work(setup));
  const r = spawnSync(process.execPath, argv, { env, encoding: 'utf8' });
  if (r.status !== 0) {
    console.error(`bench: ${setup} failed:\n${r.stderr}`);
    process.exit(1);
  }
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

function hogs(n) {
  return Array.from({ length: n }, () => spawn(process.execPath, ['-e', 'while(1){}'], { stdio: 'ignore' }));
}

const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const range = (v) => `${median(v).toFixed(0)} [${Math.min(...v).toFixed(0)}..${Math.max(...v).toFixed(0)}]`;

const seen = { alone: {}, beside: {} };
const scheds = {};
for (const s of setups) {
  seen.alone[s] = [];
  seen.beside[s] = [];
}
const loads = [load()];
for (let round = 1; round <= ROUNDS; round++) {
  for (const where of ['alone', 'beside']) {
    const running = where === 'beside' ? hogs(HOGS) : [];
    // Let the hogs reach their cores.
    if (running.length) spawnSync('sleep', ['0.3']);
    for (const s of setups) {
      const r = child(s);
      seen[where][s].push(r.ms);
      scheds[s] = r.sched;
      console.log(`round ${round} ${where.padEnd(6)} ${s.padEnd(9)} ${r.ms.toFixed(0).padStart(7)} ms  (${r.sched})  load ${load()}`);
    }
    for (const h of running) h.kill('SIGKILL');
  }
  loads.push(load());
}

console.log(`\n${CALLS} pbkdf2 (60,000 x sha512) in flight; ${ROUNDS} rounds interleaved; beside = ${HOGS} \`node -e 'while(1){}'\`; ${os.availableParallelism()} cores`);
console.log('setup      cpu_sched     alone ms              beside ms             beside / node beside');
for (const s of setups) {
  const ratio = median(seen.beside[s]) / median(seen.beside.node || seen.beside[s]);
  console.log(`${s.padEnd(10)} ${String(scheds[s]).padEnd(13)} ${range(seen.alone[s]).padEnd(21)} ${range(seen.beside[s]).padEnd(21)} ${seen.beside.node ? ratio.toFixed(2) : '-'}`);
}
console.log(`load average (1, 5, 15 min) at each round's end: ${loads.join(' | ')}`);
