'use strict';
// The Cpu workers' scheduling policy, A/B interleaved: for each round, each
// policy in turn (SLUICE_CPU_SCHED=normal|batch|idle|guarded) measures
//
//   timer   how late setTimeout(1) fires while 4 sluice pbkdf2 blockers fill
//           the Cpu lane: p99 over every wake-up of the run (some hundreds),
//           in a child node; and how long the 4 blockers took (the lane's
//           throughput under the policy)
//   http    /ping p99 during a /login flood, and /login as % of the ideal
//           (cores / one hash's time), through the lab's node+sluice
//           subject: `sluice lab http --cells login-1,login,ping-during-login,
//           login-neighbour` (skipped with --no-lab); and /login beside a
//           neighbour that spins on every core, as % of the flood alone
//           (what the lane keeps when another process wants the cores)
//
// and prints per policy the median and the range over the rounds, with
// /proc/loadavg: the rounds alternate so a busy machine weighs on every
// policy alike. Build the addon first (`npm run build`).
//
//   node bench/cpu-sched.js [--rounds N] [--policies normal,batch,idle,guarded]
//                           [--no-lab] [--lab PATH] [--duration-ms MS] [--pool N]
//
// --lab is the sluice binary (default: target/release/sluice, else
// target/debug/sluice).

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { spawnSync } = require('node:child_process');
const { option, whole, someOf } = require('./options.js');

const ROOT = path.join(__dirname, '..', '..', '..');
const POLICIES = ['normal', 'batch', 'idle', 'guarded'];

const ROUNDS = option('rounds', 5, whole(1));
const DURATION = option('duration-ms', 3000, whole(100));
const POOL = option('pool', 4, whole(1));
const policies = option('policies', POLICIES, someOf(POLICIES));
const NO_LAB = process.argv.includes('--no-lab');
const lab = NO_LAB ? null : option('lab', null, (raw) => (raw && fs.existsSync(raw) ? raw : undefined))
  || ['release', 'debug'].map((p) => path.join(ROOT, 'target', p, 'sluice')).find((p) => fs.existsSync(p));
if (!NO_LAB && !lab) {
  console.error('bench: no sluice binary in target/release or target/debug; build it or pass --lab');
  process.exit(2);
}

const load = () => fs.readFileSync('/proc/loadavg', 'utf8').split(' ')[0];
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-cpu-sched-'));

// Runs one lab experiment under a policy; returns node+sluice's rows.
function run(policy, argv) {
  const json = path.join(tmp, 'out.json');
  const r = spawnSync(lab, [...argv, '--subjects', 'node+sluice', '--reps', '1', '--no-progress', '--json-out', json], {
    cwd: ROOT,
    env: { ...process.env, SLUICE_CPU_SCHED: policy },
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    console.error(`bench: ${lab} ${argv.join(' ')} (SLUICE_CPU_SCHED=${policy}) failed:\n${r.stderr}`);
    process.exit(1);
  }
  return JSON.parse(fs.readFileSync(json, 'utf8')).rows.filter((row) => row.subject === 'node+sluice');
}

// setTimeout(1)'s lateness behind 4 blockers, in a child node under `policy`.
const TIMER = `
  const s = require(${JSON.stringify(path.join(__dirname, '..'))});
  const now = () => Number(process.hrtime.bigint()) / 1e6;
  (async () => {
    const t0 = now();
    const blockers = [1, 2, 3, 4].map(() => s.crypto.pbkdf2('x', 'y', 600000, 64, 'sha256').then(() => now() - t0));
    let done = false;
    Promise.all(blockers).then(() => { done = true; });
    await new Promise((r) => setTimeout(r, 20));
    const late = [];
    while (!done) {
      const t = now();
      await new Promise((r) => setTimeout(r, 1));
      late.push(now() - t - 1);
    }
    late.sort((a, b) => a - b);
    const ends = await Promise.all(blockers);
    console.log(JSON.stringify({ wakeups: late.length, p99: late[Math.floor(0.99 * (late.length - 1))], blockers_ms: Math.max(...ends) }));
  })();`;

function timer(policy) {
  const r = spawnSync(process.execPath, ['-e', TIMER], {
    env: { ...process.env, SLUICE_CPU_SCHED: policy },
    encoding: 'utf8',
  });
  if (r.status !== 0) {
    console.error(`bench: the timer run (SLUICE_CPU_SCHED=${policy}) failed:\n${r.stderr}`);
    process.exit(1);
  }
  return JSON.parse(r.stdout.trim().split('\n').pop());
}

const metric = (rows, cell, name) => {
  const row = rows.find((x) => x.params.cell === cell);
  return row ? row.metrics[name] : undefined;
};

const seen = Object.fromEntries(policies.map((p) => [p, { timer: [], blockers: [], ping: [], login: [], beside: [], loads: [] }]));
for (let round = 1; round <= ROUNDS; round++) {
  for (const policy of policies) {
    const before = load();
    const s = seen[policy];
    const t = timer(policy);
    s.timer.push(t.p99);
    s.blockers.push(t.blockers_ms);
    let line = `round ${round} ${policy.padEnd(6)} setTimeout(1) late p99 ${t.p99.toFixed(2)} ms `
      + `(${t.wakeups} wake-ups)  4 blockers ${t.blockers_ms.toFixed(0)} ms`;
    if (!NO_LAB) {
      const http = run(policy, ['lab', 'http', '--cells', 'login-1,login,ping-during-login,login-neighbour', '--pools', String(POOL),
        '--autocannon', 'off', '--duration-ms', String(DURATION)]);
      const oneHash = metric(http, 'login-1', 'p50_ms');
      const loginPct = 100 * metric(http, 'login', 'req_s') / (os.availableParallelism() / (oneHash / 1e3));
      const ping = metric(http, 'ping-during-login', 'p99_ms');
      const beside = 100 * metric(http, 'login-neighbour', 'req_s') / metric(http, 'login', 'req_s');
      s.ping.push(ping);
      s.login.push(loginPct);
      s.beside.push(beside);
      line += `  /ping p99 ${ping.toFixed(2)} ms  /login ${loginPct.toFixed(0)}% of ideal, ${beside.toFixed(0)}% beside a neighbour`;
    }
    s.loads.push(Number(before), Number(load()));
    console.log(`${line}  load ${before} -> ${load()}`);
  }
}

const median = (v) => {
  const s = [...v].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const spread = (v, digits) =>
  `${median(v).toFixed(digits)} [${Math.min(...v).toFixed(digits)}..${Math.max(...v).toFixed(digits)}]`;
const show = (v, digits) => (v.length ? spread(v, digits) : '-');
console.log(`\n${ROUNDS} rounds, interleaved; median [min..max]${NO_LAB ? '' : `; lab ${lab}`}`);
console.log('policy  setTimeout(1) late p99 ms  4 blockers ms         /ping p99 ms during /login  /login % of ideal  beside neighbour %  load average');
for (const policy of policies) {
  const s = seen[policy];
  console.log(`${policy.padEnd(7)} ${show(s.timer, 2).padEnd(25)} ${show(s.blockers, 0).padEnd(21)} `
    + `${show(s.ping, 2).padEnd(27)} ${show(s.login, 0).padEnd(18)} ${show(s.beside, 0).padEnd(19)} `
    + `${Math.min(...s.loads)}..${Math.max(...s.loads)}`);
}
fs.rmSync(tmp, { recursive: true, force: true });
