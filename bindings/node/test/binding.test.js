'use strict';
// The loader (binding.js): which addon a machine gets, told from fake
// process reports and fake package directories, and the debug build's
// warning.
const test = require('node:test');
const assert = require('node:assert');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { runChild } = require('./helpers');

const loader = require('../binding.js')[Symbol.for('sluice.loader')];

// What /usr/bin/ldd says on each C library (first lines of the real ones).
const GLIBC_LDD = '#! /bin/bash\n# Copyright (C) 1996-2022 Free Software Foundation, Inc.\n# This file is part of the GNU C Library.\n';
const MUSL_LDD = '#!/bin/sh\nexec /lib/ld-musl-x86_64.so.1 --list "$@"\n';
// process.report.getReport()'s header on glibc (Node 20 on Debian) and on
// musl (Node's Alpine build: no glibcVersionRuntime).
const GLIBC_REPORT = { header: { glibcVersionRuntime: '2.36', glibcVersionCompiler: '2.28', osName: 'Linux' } };
const MUSL_REPORT = { header: { osName: 'Linux', osMachine: 'x86_64' } };

test('the C library is told from ldd, else from the process report', () => {
  assert.strictEqual(loader.libc({ lddText: GLIBC_LDD, report: MUSL_REPORT }), 'glibc');
  assert.strictEqual(loader.libc({ lddText: MUSL_LDD, report: GLIBC_REPORT }), 'musl');
  assert.strictEqual(loader.libc({ lddText: null, report: GLIBC_REPORT }), 'glibc');
  assert.strictEqual(loader.libc({ lddText: null, report: MUSL_REPORT }), 'musl');
  // A busybox ldd says nothing of its library: the report decides.
  assert.strictEqual(loader.libc({ lddText: '#!/bin/sh\nexec ldd.real "$@"\n', report: MUSL_REPORT }), 'musl');
  assert.strictEqual(loader.libc({ lddText: null, report: null }), null);
});

test('this machine: the loader agrees with the process report', () => {
  const report = process.report.getReport();
  const expected = report.header.glibcVersionRuntime ? 'glibc' : 'musl';
  assert.strictEqual(loader.libc(), expected);
});

test('platform keys: os, cpu and C library', () => {
  const key = (platform, arch, probe) => loader.platformKey({ platform, arch, probe }).key;
  assert.strictEqual(key('linux', 'x64', { lddText: GLIBC_LDD }), 'linux-x64-gnu');
  assert.strictEqual(key('linux', 'x64', { lddText: MUSL_LDD }), 'linux-x64-musl');
  assert.strictEqual(key('linux', 'arm64', { lddText: null, report: GLIBC_REPORT }), 'linux-arm64-gnu');
  assert.strictEqual(key('linux', 'arm64', { lddText: null, report: MUSL_REPORT }), 'linux-arm64-musl');
  const mac = loader.platformKey({ platform: 'darwin', arch: 'arm64' });
  assert.strictEqual(mac.key, null);
  assert.strictEqual(mac.name, 'darwin-arm64');
  assert.match(mac.reason, /Linux only/);
  const unknown = loader.platformKey({ platform: 'linux', arch: 'x64', probe: { lddText: null, report: null } });
  assert.strictEqual(unknown.key, null);
  assert.match(unknown.reason, /could not be told/);
});

// A fake package directory with the given files (empty stand-ins).
function fakePackage(files) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sluice-loader-'));
  for (const f of files) {
    fs.mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
    fs.writeFileSync(path.join(dir, f), '');
  }
  return dir;
}

test('which file: SLUICE_NODE_ADDON, then a source build, then the prebuild for the platform', (t) => {
  const all = ['sluice.node', 'prebuilds/linux-x64-gnu/sluice.node', 'prebuilds/linux-x64-musl/sluice.node'];
  const dir = fakePackage(all);
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const gnu = { lddText: GLIBC_LDD };
  const musl = { lddText: MUSL_LDD };
  const at = (opts) => loader.locate({ dir, platform: 'linux', arch: 'x64', env: {}, ...opts });

  assert.deepStrictEqual(at({ env: { SLUICE_NODE_ADDON: '/elsewhere/a.node' }, probe: gnu }),
    { file: '/elsewhere/a.node', from: 'env' });
  assert.deepStrictEqual(at({ probe: gnu }), { file: path.join(dir, 'sluice.node'), from: 'source' });
  fs.rmSync(path.join(dir, 'sluice.node'));
  assert.deepStrictEqual(at({ probe: gnu }),
    { file: path.join(dir, 'prebuilds/linux-x64-gnu/sluice.node'), from: 'prebuild', platform: 'linux-x64-gnu' });
  assert.deepStrictEqual(at({ probe: musl }),
    { file: path.join(dir, 'prebuilds/linux-x64-musl/sluice.node'), from: 'prebuild', platform: 'linux-x64-musl' });
});

test('no addon fits: the error names the platform and the source build', (t) => {
  const dir = fakePackage(['prebuilds/linux-x64-gnu/sluice.node']);
  t.after(() => fs.rmSync(dir, { recursive: true, force: true }));
  const arm = loader.locate({ dir, platform: 'linux', arch: 'arm64', env: {}, probe: { lddText: MUSL_LDD } });
  assert.strictEqual(arm.error.code, 'ERR_SLUICE_ADDON');
  assert.match(arm.error.message, /no native addon for linux-arm64-musl/);
  assert.match(arm.error.message, /`npm run build`/);
  const mac = loader.locate({ dir, platform: 'darwin', arch: 'x64', env: {} });
  assert.match(mac.error.message, /no native addon for darwin-x64 \(sluice runs on Linux only\)/);
});

test('a debug build warns once per process, a release build not at all', () => {
  // The fake addons' warnings only: the real addon's own (a debug build's)
  // names another file. The once-flag is cleared after the real load.
  const r = runChild(`
    const loader = require('./binding.js')[Symbol.for('sluice.loader')];
    globalThis[Symbol.for('sluice.debugBuildWarned')] = false;
    const seen = [];
    process.on('warning', (w) => { if (w.message.includes('/x/')) seen.push({ code: w.code, message: w.message }); });
    loader.warnIfDebug({ buildProfile: () => 'release' }, '/x/release.node');
    loader.warnIfDebug({ buildProfile: () => 'debug' }, '/x/debug.node');
    loader.warnIfDebug({ buildProfile: () => 'debug' }, '/x/debug.node');
    setImmediate(() => console.log(JSON.stringify(seen)));`);
  assert.strictEqual(r.status, 0, r.stderr);
  assert.strictEqual(r.json.length, 1, r.stdout);
  assert.strictEqual(r.json[0].code, 'SLUICE_DEBUG_BUILD');
  assert.match(r.json[0].message, /\/x\/debug\.node is a debug build/);
});

test('SLUICE_DEBUG_BUILD_WARNING=0 silences a debug build\'s warning; a bad value stops the load', () => {
  const r = runChild(`
    const loader = require('./binding.js')[Symbol.for('sluice.loader')];
    const seen = [];
    process.on('warning', (w) => { if (w.message.includes('/x/')) seen.push(w.code); });
    for (const v of ['0', 'off', 'FALSE']) {
      globalThis[Symbol.for('sluice.debugBuildWarned')] = false;
      loader.warnIfDebug({ buildProfile: () => 'debug' }, '/x/debug.node', { SLUICE_DEBUG_BUILD_WARNING: v });
    }
    globalThis[Symbol.for('sluice.debugBuildWarned')] = false;
    loader.warnIfDebug({ buildProfile: () => 'debug' }, '/x/debug.node', { SLUICE_DEBUG_BUILD_WARNING: '1' });
    setImmediate(() => console.log(JSON.stringify(seen)));`);
  assert.strictEqual(r.status, 0, r.stderr);
  assert.deepStrictEqual(r.json, ['SLUICE_DEBUG_BUILD'], 'only the one with 1');
  const quiet = runChild(`require('.'); setImmediate(() => console.log('{}'));`, { env: { SLUICE_DEBUG_BUILD_WARNING: '0' } });
  assert.strictEqual(quiet.status, 0, quiet.stderr);
  assert.doesNotMatch(quiet.stderr, /SLUICE_DEBUG_BUILD/);
  const bad = runChild(`require('.')`, { env: { SLUICE_DEBUG_BUILD_WARNING: 'maybe' } });
  assert.notStrictEqual(bad.status, 0);
  assert.match(bad.stderr, /SLUICE_DEBUG_BUILD_WARNING="maybe": expected 1 or 0/);
});

test('loading the package: the warning matches the addon\'s build profile', () => {
  const r = runChild(`
    const seen = [];
    process.on('warning', (w) => { if (w.code === 'SLUICE_DEBUG_BUILD') seen.push(w.message); });
    const s = require('.');
    require('./binding.js');
    setImmediate(() => console.log(JSON.stringify({ profile: s.buildProfile(), seen })));`);
  assert.strictEqual(r.status, 0, r.stderr);
  if (r.json.profile === 'release') {
    assert.deepStrictEqual(r.json.seen, []);
  } else {
    assert.strictEqual(r.json.seen.length, 1, r.stderr);
    assert.match(r.json.seen[0], /is a debug build: unoptimised/);
    assert.match(r.json.seen[0], /`npm run build`/);
  }
});
