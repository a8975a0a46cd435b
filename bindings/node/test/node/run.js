#!/usr/bin/env node
'use strict';
// Runs Node's own tests for the APIs the preload patches (parallel/ and
// async-hooks/ here, vendored from Node's test/ tree: README.md) twice each:
// on plain `node` and under `node -r ../../patch.js`, a few at a time, each
// with a time limit, and prints a table: passes plain / passes preload. A
// test that passes on plain node and fails under the preload is a
// regression, and the run fails (exit 1) unless exceptions.json lists it
// with its reason. A debug addon's one warning on load is turned off
// (SLUICE_DEBUG_BUILD_WARNING=0, the package's switch): tests that refuse
// any unexpected warning would otherwise fail on the build's profile, not
// the preload's behaviour.
//
//   node test/node/run.js [--jobs N] [--timeout SECONDS] [--plain all|failed] [--failures FILE] [NAME_PART...]
//
// --plain failed: runs every test under the preload, and on plain node only
// the ones that failed under it (a test that passes under the preload is no
// regression whatever plain node does): the same regressions found with
// about half the runs (scripts/test uses it). --plain all (the default)
// runs both everywhere, for the whole table.
//
// --failures FILE: writes the tests that fail only under the preload, with
// the first lines of their error, to FILE (excepted ones too, marked).
// NAME_PART: runs only the tests whose path contains one of them.
//
// Retries: a test that passes on plain node and fails under the preload is
// run again under the preload, alone, up to RETRIES times. Some of Node's
// tests race on the machine's scheduling (test-fs-write-stream-eagain's two
// streams truncate one file: plain node loses that race too on a loaded
// machine), and Node's own CI retries such tests. One that passes on a
// retry is reported as intermittent (in the table, the summary and the
// --failures file), not as a regression. A preload run that crashed (killed
// by a signal, or a Rust panic in the addon) is never retried: that is
// the preload's fault however rarely it happens.

const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const HERE = __dirname;
const PATCH = path.join(HERE, '..', '..', 'patch.js');
// Node's test files travel as one archive (README.md: where they come from,
// how it was made); they are unpacked into test/ (ignored by git) on the
// first run, and again whenever the archive changes.
const ARCHIVE = path.join(HERE, 'node-v20.11.1-test.tar.gz');
const TESTS = path.join(HERE, 'test');
const STAMP = path.join(TESTS, '.archive-sha256');
const RETRIES = 2;
// The plain run of a test that passed under the preload, with --plain failed.
const NOT_RUN = Object.freeze({ pass: false, notRun: true });

function usage(msg) {
  process.stderr.write(`run.js: ${msg}\n` +
    'usage: node test/node/run.js [--jobs N] [--timeout SECONDS] [--plain all|failed] [--failures FILE] [NAME_PART...]\n');
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { jobs: Math.max(2, Math.min(4, os.availableParallelism())), timeout: 120, plain: 'all', failures: null, only: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const value = () => {
      if (i + 1 >= argv.length) usage(`${a} needs a value`);
      return argv[++i];
    };
    if (a === '--jobs' || a === '--timeout') {
      const v = value();
      if (!/^[1-9][0-9]*$/.test(v) || Number(v) > 10000) usage(`${a} ${JSON.stringify(v)}: expected a whole number from 1 to 10000`);
      opts[a.slice(2)] = Number(v);
    } else if (a === '--plain') {
      const v = value();
      if (v !== 'all' && v !== 'failed') usage(`--plain ${JSON.stringify(v)}: expected all or failed`);
      opts.plain = v;
    } else if (a === '--failures') {
      opts.failures = value();
    } else if (a.startsWith('-')) {
      usage(`unknown option ${a}`);
    } else {
      opts.only.push(a);
    }
  }
  return opts;
}

// Node's own test harness reads `// Flags: ...` from a test's first lines
// and starts it with them; so does this runner.
function flagsOf(file) {
  const head = fs.readFileSync(file, 'utf8').slice(0, 1500);
  const m = head.match(/\/\/ Flags:\s+(--.*)/);
  return m ? m[1].trim().split(/\s+/) : [];
}

function runOne(file, preload, opts, tmpRoot, slot) {
  const rel = path.relative(HERE, file);
  const flags = flagsOf(file);
  const args = [...(preload ? ['-r', PATCH] : []), ...flags, file];
  // Each concurrent slot has its own scratch directory (common/tmpdir.js).
  const testDir = path.join(tmpRoot, `${preload ? 'preload' : 'plain'}-${slot}`);
  fs.rmSync(testDir, { recursive: true, force: true });
  fs.mkdirSync(testDir, { recursive: true });
  const env = { ...process.env, NODE_TEST_DIR: testDir, TEST_THREAD_ID: String(slot), SLUICE_DEBUG_BUILD_WARNING: '0' };
  delete env.NODE_OPTIONS;
  delete env.NODE_TEST_CONTEXT;
  return new Promise((resolve) => {
    const started = process.hrtime.bigint();
    const child = spawn(process.execPath, args, { cwd: HERE, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let output = '';
    const keep = (d) => {
      if (output.length < 64 * 1024) output += d;
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, opts.timeout * 1000);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const ms = Number(process.hrtime.bigint() - started) / 1e6;
      fs.rmSync(testDir, { recursive: true, force: true });
      resolve({ rel, pass: code === 0 && !timedOut, code, signal, timedOut, ms, output });
    });
  });
}

function firstLines(r, n = 12) {
  const why = r.timedOut ? `timed out` : r.signal ? `killed by ${r.signal}` : `exit ${r.code}`;
  const lines = r.output.split('\n').filter((l) => l.trim() !== '');
  return [why, ...lines.slice(0, n)].join('\n');
}

// A run that no retry may excuse: the process was killed by a signal it did
// not ask for (an abort, a segfault; not the runner's timeout), or the
// addon panicked.
function crashed(r) {
  return (r.signal !== null && !r.timedOut) || /panicked at|SIGABRT|Segmentation fault|IO Safety violation/.test(r.output);
}

// Unpacks ARCHIVE into TESTS unless the stamp there names its digest.
function unpackTests() {
  const { createHash } = require('node:crypto');
  const { execFileSync } = require('node:child_process');
  let archive;
  try {
    archive = fs.readFileSync(ARCHIVE);
  } catch (e) {
    usage(`cannot read Node's test files ${ARCHIVE}: ${e.message}`);
  }
  const digest = createHash('sha256').update(archive).digest('hex');
  let stamp = null;
  try {
    stamp = fs.readFileSync(STAMP, 'utf8').trim();
  } catch {}
  if (stamp === digest) return;
  fs.rmSync(TESTS, { recursive: true, force: true });
  try {
    execFileSync('tar', ['-xzf', ARCHIVE, '-C', HERE], { stdio: ['ignore', 'ignore', 'inherit'] });
  } catch (e) {
    usage(`cannot unpack ${ARCHIVE} with tar: ${e.message}`);
  }
  fs.writeFileSync(STAMP, `${digest}\n`);
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  unpackTests();
  const exceptions = JSON.parse(fs.readFileSync(path.join(HERE, 'exceptions.json'), 'utf8'));
  const selection = JSON.parse(fs.readFileSync(path.join(HERE, 'selection.json'), 'utf8'));
  let files = Object.keys(selection.tests);
  for (const f of files) {
    if (!fs.existsSync(path.join(HERE, f))) usage(`selection.json names ${f}, which is not here`);
  }
  for (const f of Object.keys(exceptions)) {
    if (!selection.tests[f]) usage(`exceptions.json names ${f}, which selection.json does not`);
  }
  if (opts.only.length) files = files.filter((f) => opts.only.some((o) => f.includes(o)));
  if (!files.length) usage('no test matches');

  const tmpRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-node-tests-'));
  const results = new Map(files.map((f) => [f, {}]));
  const started = Date.now();
  const runAll = async (jobs) => {
    let next = 0;
    await Promise.all(Array.from({ length: Math.min(opts.jobs, jobs.length) }, async (_, slot) => {
      while (next < jobs.length) {
        const { f, preload } = jobs[next++];
        results.get(f)[preload ? 'preload' : 'plain'] = await runOne(path.join(HERE, f), preload, opts, tmpRoot, slot);
      }
    }));
  };
  if (opts.plain === 'all') {
    await runAll(files.flatMap((f) => [{ f, preload: false }, { f, preload: true }]));
  } else {
    // Under the preload first; plain node only where the preload failed.
    await runAll(files.map((f) => ({ f, preload: true })));
    await runAll(files.filter((f) => !results.get(f).preload.pass).map((f) => ({ f, preload: false })));
    for (const f of files) {
      if (!results.get(f).plain) results.get(f).plain = NOT_RUN;
    }
  }
  // A preload failure of a test that passed plain is run again, alone.
  const retried = new Map();
  for (const f of files) {
    const { plain, preload } = results.get(f);
    if (!plain.pass || preload.pass || exceptions[f] || crashed(preload)) continue;
    const tries = [];
    for (let i = 0; i < RETRIES; i++) {
      const r = await runOne(path.join(HERE, f), true, opts, tmpRoot, 0);
      tries.push(r);
      if (r.pass) break;
    }
    retried.set(f, tries);
  }
  fs.rmSync(tmpRoot, { recursive: true, force: true });
  // Node's trace-events tests write node_trace.N.log into their working
  // directory (this one).
  for (const f of fs.readdirSync(HERE)) {
    if (/^node_trace\.\d+\.log$/.test(f)) fs.rmSync(path.join(HERE, f), { force: true });
  }

  const yes = (r) => (r.notRun ? '-' : r.pass ? 'pass' : r.timedOut ? 'TIMEOUT' : 'FAIL');
  const width = Math.max(...files.map((f) => f.length));
  const rows = [];
  const regressions = [];
  const excepted = [];
  const intermittent = [];
  const staleExceptions = [];
  let plainPass = 0;
  let bothPass = 0;
  let preloadPass = 0;
  let plainFail = 0;
  for (const f of files) {
    const { plain, preload } = results.get(f);
    if (plain.pass) plainPass++;
    if (plain.pass && preload.pass) bothPass++;
    if (preload.pass) preloadPass++;
    if (!plain.pass && !plain.notRun) plainFail++;
    let verdict = '';
    if (plain.pass && !preload.pass) {
      const tries = retried.get(f) || [];
      if (exceptions[f]) {
        verdict = `excepted: ${exceptions[f]}`;
        excepted.push({ f, r: preload });
      } else if (tries.some((r) => r.pass)) {
        verdict = `intermittent: failed once, passed on retry ${tries.findIndex((r) => r.pass) + 1}`;
        intermittent.push({ f, r: preload });
      } else {
        if (tries.length) verdict = `failed ${tries.length + 1} of ${tries.length + 1} runs: `;
        verdict = `${verdict}REGRESSION`;
        regressions.push({ f, r: preload });
      }
    } else if (!plain.pass && !plain.notRun) {
      verdict = 'fails on plain node (not counted)';
    } else if (exceptions[f]) {
      verdict = 'passes: its exception can go';
      staleExceptions.push(f);
    }
    rows.push(`${f.padEnd(width)}  ${yes(plain).padEnd(7)}  ${yes(preload).padEnd(7)}  ${(selection.tests[f] || []).join(',')}${verdict ? `  ${verdict}` : ''}`);
  }
  const how = opts.plain === 'all' ? 'plain and under the preload' : 'under the preload, and on plain node where the preload failed (--plain failed; - is not run)';
  console.log(`Node's own tests (${selection.release}, ${selection.commit.slice(0, 12)}) on ${process.version}, ${how} (${opts.jobs} at a time, ${opts.timeout} s each)\n`);
  console.log(`${'test'.padEnd(width)}  plain    preload  patched APIs it calls`);
  for (const r of rows) console.log(r);
  const counts = opts.plain === 'all'
    ? `${plainPass} pass on plain node, ${bothPass} of them also under the preload`
    : `${preloadPass} pass under the preload; of the ${files.length - preloadPass} that fail under it, ${plainFail} fail on plain node too (not counted)`;
  console.log(`\n${files.length} tests: ${counts}; ` +
    `${regressions.length} regressions, ${excepted.length} excepted (exceptions.json), ${intermittent.length} intermittent (failed, then passed on a retry), ` +
    `${staleExceptions.length} exceptions no longer needed; ` +
    `${((Date.now() - started) / 1000).toFixed(0)} s`);

  if (opts.failures) {
    const only = [...regressions.map((x) => ({ ...x, tag: 'REGRESSION' })),
      ...intermittent.map((x) => ({ ...x, tag: 'intermittent: passed on a retry' })),
      ...excepted.map((x) => ({ ...x, tag: `excepted: ${exceptions[x.f]}` }))];
    const text = [`# Node's tests that pass on plain node and fail under the preload (${new Date().toISOString()}, ${process.version})`,
      `# ${only.length} (${regressions.length} not excepted). Run: cd bindings/node && node test/node/run.js NAME`, '',
      ...only.map(({ f, r, tag }) => `## ${f}  [${tag}]\n${firstLines(r)}\n`)].join('\n');
    fs.writeFileSync(opts.failures, text + '\n');
    console.log(`(written to ${opts.failures})`);
  }
  for (const { f, r } of intermittent) console.log(`\nINTERMITTENT ${f} under the preload (passed on a retry); the failed run:\n${firstLines(r, 30)}`);
  for (const { f, r } of regressions) console.log(`\nREGRESSION ${f} under the preload:\n${firstLines(r, 30)}`);
  if (regressions.length) process.exitCode = 1;
}

main().catch((e) => {
  console.error(e);
  process.exit(2);
});
