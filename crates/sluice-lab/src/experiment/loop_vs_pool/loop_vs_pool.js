// sluice lab: loop-vs-pool (seed 000 §3). How late does a timer fire when
// the loop thread is busy, and when the pool is?
// argv[2]: {"scenarios": [{"id": "idle"|"loop"|"pool-N", "tasks": N}],
//           "timer_ms": ms, "loop_ms": ms, "iterations": n, "gap_ms": ms}
// Prints {"rows":[{"scenario","fired_ms","load_ms"}]}.
'use strict';
const crypto = require('node:crypto');

const p = JSON.parse(process.argv[2]);
const now = () => Number(process.hrtime.bigint()) / 1e6;
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function cpuTask() {
  return new Promise((resolve, reject) =>
    crypto.pbkdf2('secret', 'salt', p.iterations, 64, 'sha512', (err) => (err ? reject(err) : resolve(now()))));
}

async function scenario(sc) {
  const t0 = now();
  const fired = new Promise((resolve) => setTimeout(() => resolve(now() - t0), p.timer_ms));
  let load = 0;
  if (sc.id === 'loop') {
    const start = now();
    while (now() - start < p.loop_ms) {
      // the loop thread is busy: nothing else on it can run
    }
    load = now() - t0;
  } else if (sc.id.startsWith('pool-')) {
    const tasks = [];
    for (let i = 0; i < sc.tasks; i++) tasks.push(cpuTask());
    const firedMs = await fired;
    const ends = await Promise.all(tasks);
    return { fired_ms: firedMs, load_ms: Math.max(...ends) - t0 };
  } else if (sc.id !== 'idle') {
    throw new Error(`unknown scenario ${sc.id}`);
  }
  return { fired_ms: await fired, load_ms: load };
}

async function main() {
  const rows = [];
  for (const sc of p.scenarios) {
    await sleep(p.gap_ms);
    const r = await scenario(sc);
    rows.push({ scenario: sc.id, ...r });
  }
  console.log(JSON.stringify({ rows }));
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
