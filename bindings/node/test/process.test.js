'use strict';
// One pool per process, admission, and process life: each case in a fresh
// node, since the pool is built once per process.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const { runChild } = require('./helpers.js');

const print = 'console.log(JSON.stringify(out))';

test('configure: bad values name the option; after first use it throws', () => {
  const r = runChild(`
    const s = require('.');
    const out = {};
    const attempt = (name, fn) => { try { fn(); out[name] = 'accepted'; } catch (e) { out[name] = [e.name, e.code, e.message, e.option]; } };
    attempt('cpuZero', () => s.configure({ cpu: 0 }));
    attempt('cpuHuge', () => s.configure({ cpu: 100000 }));
    attempt('slowIoText', () => s.configure({ slowIo: 'many' }));
    attempt('boundFraction', () => s.configure({ cpuQueueBound: 1.5 }));
    attempt('fastIoBoundZero', () => s.configure({ fastIoQueueBound: 0 }));
    attempt('unknown', () => s.configure({ threads: 4 }));
    attempt('notObject', () => s.configure(4));
    out.configuredBefore = s.isConfigured();
    s.crypto.randomBytes(4).then(() => {
      attempt('afterUse', () => s.configure({ cpu: 1 }));
      out.configuredAfter = s.isConfigured();
      ${print};
    });`);
  assert.strictEqual(r.status, 0, r.stderr);
  const o = r.json;
  assert.deepStrictEqual(o.cpuZero.slice(0, 2), ['RangeError', 'ERR_OUT_OF_RANGE']);
  assert.match(o.cpuZero[2], /option "cpu" = 0 is out of range; expected 1\.\.=/);
  // The option, from the pool's typed setting (sluice::Knob), not its text.
  assert.strictEqual(o.cpuZero[3], 'cpu');
  assert.match(o.cpuHuge[2], /option "cpu" = 100000 is out of range/);
  assert.deepStrictEqual(o.slowIoText.slice(0, 2), ['TypeError', 'ERR_INVALID_ARG_TYPE']);
  assert.match(o.slowIoText[2], /option "slowIo" must be a number/);
  assert.match(o.boundFraction[2], /option "cpuQueueBound" = 1\.5 is out of range/);
  assert.strictEqual(o.boundFraction[3], null, 'refused in JavaScript, before the pool (no option property)');
  assert.deepStrictEqual([o.fastIoBoundZero[1], o.fastIoBoundZero[3]], ['ERR_OUT_OF_RANGE', 'fastIoQueueBound'], String(o.fastIoBoundZero));
  assert.match(o.fastIoBoundZero[2], /^sluice\.configure: option "fastIoQueueBound" = 0 is out of range/);
  assert.deepStrictEqual(o.unknown.slice(0, 2), ['TypeError', 'ERR_INVALID_ARG_VALUE']);
  assert.match(o.unknown[2], /unknown option "threads"/);
  assert.strictEqual(o.notObject[1], 'ERR_INVALID_ARG_TYPE');
  assert.strictEqual(o.configuredBefore, false);
  assert.deepStrictEqual(o.afterUse.slice(0, 2), ['Error', 'ERR_SLUICE_CONFIGURED']);
  assert.strictEqual(o.configuredAfter, true);
});

test('a full bounded lane rejects with ESLUICEBUSY, lane and bound', () => {
  const r = runChild(`
    const s = require('.');
    s.configure({ cpu: 1, cpuQueueBound: 2 });
    const cpu = () => s.metricsJson().pool.lanes.find((l) => l.lane === 'cpu');
    const out = {};
    s.crypto.pbkdf2('x', 'y', 100000000, 32, 'sha512'); // holds the one thread
    const wait = setInterval(async () => {
      if (cpu().in_flight !== 1) return;            // the one thread is busy
      clearInterval(wait);
      const queued = [s.crypto.pbkdf2('x', 'y', 1, 8, 'sha1'), s.crypto.scrypt('x', 'y', 8, { N: 16 })];
      const refused = await s.zlib.gzip('z').then(() => null, (e) => e);
      out.refused = { code: refused.code, lane: refused.lane, bound: refused.bound, message: refused.message };
      out.depth = cpu().queue_depth;
      out.rejected = cpu().rejected_total;
      out.submitted = cpu().submitted_total;
      ${print};
      process.exit(0); // with three tasks in flight
    }, 1);`);
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json.refused.code, 'ESLUICEBUSY');
  assert.deepStrictEqual([r.json.refused.lane, r.json.refused.bound], ['cpu', 2]);
  assert.match(r.json.refused.message, /cpu lane's queue is full \(bound 2\)/);
  assert.strictEqual(r.json.depth, 2);
  assert.strictEqual(r.json.rejected, 1);
  assert.strictEqual(r.json.submitted, 3);
});

test('one pool per process: the main thread and a worker_thread count into the same lanes', () => {
  const r = runChild(`
    const { Worker } = require('node:worker_threads');
    const s = require('.');
    const lane = (m, name) => m.pool.lanes.find((l) => l.lane === name);
    (async () => {
      for (let i = 0; i < 3; i++) await s.crypto.pbkdf2('a', 'b', 1, 4, 'sha1');
      const w = new Worker(\`
        const { parentPort } = require('node:worker_threads');
        const s = require(\${JSON.stringify(require.resolve('.'))});
        (async () => {
          const seen = s.metricsJson();
          for (let i = 0; i < 5; i++) await s.crypto.pbkdf2('a', 'b', 1, 4, 'sha1');
          await s.fs.stat('.');
          parentPort.postMessage({ seen, after: s.metricsJson() });
        })();\`, { eval: true });
      // Both listeners first: 'exit' may come before the message is delivered.
      const exited = new Promise((res) => w.on('exit', res));
      const msg = await new Promise((res, rej) => { w.on('message', res); w.on('error', rej); });
      await exited;
      const main = s.metricsJson();
      const out = {
        workerSawMainCpu: lane(msg.seen, 'cpu').submitted_total,
        workerAfterCpu: lane(msg.after, 'cpu').submitted_total,
        mainAfterCpu: lane(main, 'cpu').submitted_total,
        mainAfterFastIo: lane(main, 'fastio').submitted_total,
        workerNodeCalls: msg.after.node.calls.pbkdf2,
        mainNodeCalls: main.node.calls.pbkdf2,
      };
      ${print};
    })();`, { env: { SLUICE_NOWAIT: '0' } }); // the worker's stat on the FastIo lane, not answered at once
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json, {
    workerSawMainCpu: 3, // the worker's first look already has the main thread's 3
    workerAfterCpu: 8,
    mainAfterCpu: 8, // and the main thread sees the worker's 5
    mainAfterFastIo: 2, // the worker's stat and the warm-up's one empty task (once per process)
    workerNodeCalls: 5, // the JavaScript-side counters are per thread
    mainNodeCalls: 3,
  });
});

test('every call settles exactly once, with its own value, from the main thread and two workers at once', () => {
  // 3 threads each start 3000 round trips, 200 random reads of distinct
  // sizes and 100 stats at once: every promise settles with its own value
  // (the sizes tell them apart), no id is settled twice or left behind, and
  // the process then exits by itself (the bell is unref'd when the last
  // call settles).
  const burst = `async function burst(s) {
      let settled = 0, wrong = 0;
      const all = [];
      for (let i = 0; i < 3000; i++) all.push(s.ping().then(() => { settled++; }));
      for (let i = 1; i <= 200; i++) all.push(s.crypto.randomBytes(i).then((b) => { settled++; if (b.length !== i) wrong++; }));
      for (let i = 0; i < 100; i++) all.push(s.fs.stat('.').then((st) => { settled++; if (!st.isDirectory()) wrong++; }));
      await Promise.all(all);
      return { settled, wrong };
    }`;
  const r = runChild(`
    const { Worker } = require('node:worker_threads');
    const src = ${JSON.stringify(burst)};
    const burst = new Function('return ' + src)();
    const inWorker = 'const { parentPort } = require("node:worker_threads");' +
      '(' + src + ')(require(' + JSON.stringify(require.resolve('.')) + ')).then((o) => parentPort.postMessage(o));';
    const workers = [0, 1].map(() => new Promise((res, rej) => {
      const w = new Worker(inWorker, { eval: true });
      w.on('message', res);
      w.on('error', rej);
    }));
    Promise.all([burst(require('.')), ...workers]).then((outs) => console.log(JSON.stringify(outs)));`);
  assert.strictEqual(r.signal, null, 'exited by itself');
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json, [0, 1, 2].map(() => ({ settled: 3300, wrong: 0 })));
});

test('an idle pool does not keep node alive; work in flight does, until it settles', () => {
  const r = runChild(`
    const s = require('.');
    s.crypto.pbkdf2('a', 'b', 200000, 16, 'sha256').then((k) => console.log(JSON.stringify({ settled: k.length })));
    s.dns.lookup('localhost');`, { timeout: 120000 });
  // Exits by itself (no timeout kill) after printing the result.
  assert.strictEqual(r.signal, null);
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json, { settled: 16 });
});

test('exit never waits for work in flight; a terminated worker with work in flight is harmless', () => {
  let r = runChild(`
    const s = require('.');
    for (let i = 0; i < 8; i++) s.crypto.pbkdf2('a', 'b', 50000000, 64, 'sha512');
    setTimeout(() => { console.log(JSON.stringify({ exiting: true })); process.exit(7); }, 50);`, { timeout: 120000 });
  assert.strictEqual(r.signal, null, 'not killed by the timeout');
  assert.strictEqual(r.status, 7, r.stderr);
  r = runChild(`
    const { Worker } = require('node:worker_threads');
    const w = new Worker(\`
      const s = require(\${JSON.stringify(require.resolve('.'))});
      s.crypto.pbkdf2('a', 'b', 3000000, 64, 'sha512');
      require('node:worker_threads').parentPort.postMessage('started');\`, { eval: true });
    w.on('message', async () => {
      await w.terminate();
      // The worker's promise is gone; its task still runs and finishes into nothing.
      const s = require('.');
      const key = await s.crypto.pbkdf2('a', 'b', 1, 8, 'sha1');
      setTimeout(() => console.log(JSON.stringify({ after: key.length })), 200);
    });`, { timeout: 120000 });
  assert.strictEqual(r.signal, null);
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json, { after: 8 });
});

test('buildProfile says how the addon was compiled', () => {
  const r = runChild(`console.log(JSON.stringify(require('.').buildProfile()))`);
  assert.strictEqual(r.status, 0, r.stderr);
  assert.ok(['release', 'debug'].includes(r.json), r.stdout);
});

// The Cpu workers' policy and nice value, read back from /proc for every
// thread named sluice-cpu once a call has run (SCHED_OTHER 0, SCHED_BATCH 3,
// SCHED_IDLE 5: field 41 of /proc/PID/task/TID/stat; nice is field 19), with
// the lane's count of live threads and the process's own nice value. A
// worker starting or retiring at that moment (the lane counts it a moment
// before /proc lists it, or after /proc dropped it) makes the two counts
// differ for a few milliseconds: read again until they agree.
const cpuThreadsScript = (configure) => `
  const fs = require('node:fs');
  const s = require('.');
  ${configure}
  const read = (file) => { try { return fs.readFileSync(file, 'utf8'); } catch { return null; } };
  // Nice value and policy from a stat line, fields counted after the name.
  const sched = (stat) => {
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { nice: Number(f[16]), policy: Number(f[38]) };
  };
  function look() {
    const threads = [];
    for (const tid of fs.readdirSync('/proc/self/task')) {
      const dir = '/proc/self/task/' + tid;
      const comm = read(dir + '/comm');
      const stat = read(dir + '/stat');
      if (comm === null || stat === null || comm.trim() !== 'sluice-cpu') continue;
      threads.push(sched(stat));
    }
    const cpu = s.metricsJson().pool.lanes.find((l) => l.lane === 'cpu');
    return { threads, alive: cpu.threads_alive, promoted: cpu.sched_promoted, sched: s.metricsJson().pool.cpu_sched, own: sched(read('/proc/self/stat')).nice };
  }
  Promise.all([1, 2, 3, 4].map(() => s.crypto.pbkdf2('a', 'b', 20000, 8, 'sha256'))).then(async () => {
    // Settled: every live worker listed, and the same answer 10 ms later.
    // A worker in its first microseconds (started by a promotion or by
    // compensation, not yet moved to the lane's policy) or a lane being
    // moved between policies is a moment, not an answer; a worker left
    // under the wrong policy stays wrong in both looks.
    const pause = () => new Promise((res) => setTimeout(res, 10));
    let seen = look();
    for (let i = 0; i < 200; i++) {
      await pause();
      const again = look();
      if (again.threads.length === again.alive && JSON.stringify(again) === JSON.stringify(seen)) break;
      seen = again;
    }
    console.log(JSON.stringify(seen));
    process.exit(0);
  });`;

// Whether this process may take a thread out of SCHED_IDLE (the kernel's
// rule): CAP_SYS_NICE, or RLIMIT_NICE >= 20 - 10 for the Cpu lane's nice 10.
function mayLeaveIdle() {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const capEff = BigInt('0x' + /CapEff:\s*([0-9a-f]+)/.exec(status)[1]);
  if (capEff & (1n << 23n)) return true;
  const limits = fs.readFileSync('/proc/self/limits', 'utf8');
  const soft = /Max nice priority\s+(\S+)/.exec(limits)[1];
  return soft === 'unlimited' || Number(soft) >= 10;
}

// The nice value of a promoted guarded worker: the process's with
// CAP_SYS_NICE, else the lowest above it that RLIMIT_NICE allows (20 - the
// limit), at most the lane's.
function promotedNice(own, lane) {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const capEff = BigInt('0x' + /CapEff:\s*([0-9a-f]+)/.exec(status)[1]);
  if (capEff & (1n << 23n)) return own;
  const soft = /Max nice priority\s+(\S+)/.exec(fs.readFileSync('/proc/self/limits', 'utf8'))[1];
  const limit = soft === 'unlimited' ? 40 : Math.min(Number(soft), 40);
  return Math.min(Math.max(own, 20 - limit), Math.max(lane, own));
}

test('Cpu workers are guarded by default (SCHED_IDLE, nice 10; promoted: SCHED_OTHER at the process\'s nice) where the process may leave SCHED_IDLE, else SCHED_OTHER nice 10; SLUICE_CPU_SCHED and cpuSched choose another policy', () => {
  const guarded = mayLeaveIdle();
  const cases = [
    { name: 'default', env: { SLUICE_CPU_SCHED: undefined, SLUICE_CPU_NICE: undefined }, configure: '', policy: guarded ? 'guarded' : 0, nice: 10, sched: guarded ? 'guarded' : 'normal' },
    { name: 'env normal', env: { SLUICE_CPU_SCHED: 'normal', SLUICE_CPU_NICE: undefined }, configure: '', policy: 0, nice: 10, sched: 'normal' },
    { name: 'env idle', env: { SLUICE_CPU_SCHED: 'idle', SLUICE_CPU_NICE: undefined }, configure: '', policy: 5 },
    { name: 'env batch', env: { SLUICE_CPU_SCHED: 'batch', SLUICE_CPU_NICE: '19' }, configure: '', policy: 3, nice: 19 },
    { name: 'option idle', env: { SLUICE_CPU_SCHED: undefined }, configure: "s.configure({ cpuSched: 'idle' });", policy: 5 },
    // Guarded: SCHED_IDLE, or SCHED_OTHER where a busy machine starved the
    // lane (its gauge says which; nothing moves once the calls are done).
    { name: 'option guarded', env: { SLUICE_CPU_SCHED: undefined, SLUICE_CPU_NICE: undefined }, configure: "s.configure({ cpuSched: 'guarded' });", policy: 'guarded', nice: 10 },
    { name: 'option over env', env: { SLUICE_CPU_SCHED: 'idle', SLUICE_CPU_NICE: undefined }, configure: "s.configure({ cpuSched: 'normal', cpuNice: 7 });", policy: 0, nice: 7 },
  ];
  for (const c of cases) {
    const r = runChild(cpuThreadsScript(c.configure), { env: c.env });
    assert.strictEqual(r.status, 0, `${c.name}: ${r.stderr}`);
    const { threads, alive, own, promoted, sched } = r.json;
    if (c.sched) assert.strictEqual(sched, c.sched, `${c.name}: cpu_sched in force`);
    const policy = c.policy === 'guarded' ? (promoted ? 0 : 5) : c.policy;
    // The gauge exists only for a guarded lane.
    assert.strictEqual(typeof promoted, c.policy === 'guarded' ? 'boolean' : 'object', `${c.name}: sched_promoted`);
    // Every live Cpu worker is counted, and each carries the policy.
    assert.ok(threads.length >= 1, `${c.name}: no sluice-cpu thread`);
    assert.strictEqual(threads.length, alive, `${c.name}: /proc and the lane disagree`);
    assert.deepStrictEqual(threads.map((t) => t.policy), threads.map(() => policy), c.name);
    if (c.nice !== undefined) {
      // A worker only lowers its priority: under `nice -n 19` it stays at 19.
      // A promoted guarded worker runs at the process's own nice value (or
      // the lowest above it that the process may set).
      const want = c.policy === 'guarded' && promoted ? promotedNice(own, c.nice) : Math.max(c.nice, own);
      assert.deepStrictEqual(threads.map((t) => t.nice), threads.map(() => want), c.name);
    }
  }
});

test('configure: cpuSched takes normal, batch, idle or guarded, and names itself when refused', () => {
  const r = runChild(`
    const s = require('.');
    const out = {};
    const attempt = (name, fn) => { try { fn(); out[name] = 'accepted'; } catch (e) { out[name] = [e.name, e.code, e.message]; } };
    attempt('fifo', () => s.configure({ cpuSched: 'fifo' }));
    attempt('number', () => s.configure({ cpuSched: 5 }));
    out.configured = s.isConfigured();
    ${print};`);
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json.fifo.slice(0, 2), ['TypeError', 'ERR_INVALID_ARG_VALUE']);
  assert.match(r.json.fifo[2], /option "cpuSched" = 'fifo' is not accepted; expected one of normal, batch, idle, guarded/);
  assert.deepStrictEqual(r.json.number.slice(0, 2), ['TypeError', 'ERR_INVALID_ARG_TYPE']);
  assert.match(r.json.number[2], /option "cpuSched" must be a string/);
  assert.strictEqual(r.json.configured, false);
});

test('worker threads that load the package and end at once exit cleanly (the warm-up handle is closed)', () => {
  // A worker's loop is closed when it ends: a libuv handle left open there
  // aborts the process. Half end before their loop ever runs.
  const r = runChild(`
    const { Worker } = require('node:worker_threads');
    const path = require('node:path');
    const codes = [];
    for (let i = 0; i < 6; i++) {
      const w = new Worker('require(' + JSON.stringify(path.resolve('index.js')) + ');' + (i % 2 ? 'process.exit(3)' : ''), { eval: true });
      w.on('exit', (c) => { codes.push(c); if (codes.length === 6) console.log(JSON.stringify(codes.sort())); });
    }`, { env: { SLUICE_DEBUG_BUILD_WARNING: '0' } });
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json, [0, 0, 0, 3, 3, 3]);
});
