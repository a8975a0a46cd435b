'use strict';
// Loads the native addon. Which file, first that applies:
//
// 1. SLUICE_NODE_ADDON, when set: that file and no other (an error names it
//    when it does not load).
// 2. sluice.node next to this file: a build from source (`npm run build`,
//    scripts/build.js). It wins over the prebuilt ones so that a checkout
//    being worked on runs the code it has; a published tarball has none.
// 3. prebuilds/<platform>/sluice.node, the build for this machine, where
//    <platform> is linux-x64-gnu, linux-x64-musl or linux-arm64-gnu (the C
//    library from the running process, not guessed from the distribution).
//
// Where none fits, the error names the platform, the prebuilds shipped and
// the command that builds the addon from source. An addon that is not a
// release build says so once per process (warning SLUICE_DEBUG_BUILD),
// unless SLUICE_DEBUG_BUILD_WARNING=0 (also false/off; 1, true, on or
// unset: the warning; anything else stops the load with ERR_SLUICE_ENV).

const fs = require('node:fs');
const path = require('node:path');
const { switchOf } = require('./lib/switch.js');

const PREBUILDS = path.join(__dirname, 'prebuilds');

// The C library of the running process: 'glibc', 'musl', or null where it
// cannot be told (not Linux). `probe` is for tests: { lddText, report }
// stand in for /usr/bin/ldd's text and process.report.getReport().
function libc(probe = {}) {
  // detect-libc's order: the ldd script names its C library (cheap: one
  // small file), else the process report's header says which glibc the
  // process runs on (glibcVersionRuntime is absent on musl).
  const ldd = 'lddText' in probe ? probe.lddText : readLdd();
  if (typeof ldd === 'string') {
    if (ldd.includes('musl')) return 'musl';
    if (ldd.includes('GNU C Library') || ldd.includes('GLIBC')) return 'glibc';
  }
  const report = 'report' in probe ? probe.report : processReport();
  // napi-rs's loader reads it the same way: a Linux process whose report
  // names no glibc runs on musl.
  if (report && report.header) return report.header.glibcVersionRuntime ? 'glibc' : 'musl';
  return null;
}

function readLdd() {
  try {
    return fs.readFileSync('/usr/bin/ldd', 'latin1');
  } catch {
    return null;
  }
}

function processReport() {
  if (!process.report || typeof process.report.getReport !== 'function') return null;
  const exclude = process.report.excludeNetwork;
  try {
    process.report.excludeNetwork = true;
    return process.report.getReport();
  } catch {
    return null;
  } finally {
    process.report.excludeNetwork = exclude;
  }
}

// The prebuild directory's name for a machine: 'linux-x64-gnu' and so on,
// or null where sluice ships none (`reason` then says why).
function platformKey({ platform = process.platform, arch = process.arch, probe } = {}) {
  if (platform !== 'linux') return { key: null, name: `${platform}-${arch}`, reason: 'sluice runs on Linux only' };
  const c = libc(probe);
  const abi = c === 'glibc' ? 'gnu' : c === 'musl' ? 'musl' : null;
  const name = `${platform}-${arch}${abi ? `-${abi}` : ''}`;
  if (!abi) return { key: null, name, reason: 'the C library (glibc or musl) could not be told' };
  return { key: name, name, reason: null };
}

function shipped() {
  try {
    return fs.readdirSync(PREBUILDS).filter((d) => fs.existsSync(path.join(PREBUILDS, d, 'sluice.node'))).sort();
  } catch {
    return [];
  }
}

// The file to load and where it came from ('env', 'source' or 'prebuild'),
// or an error that says what is missing.
function locate({ env = process.env, dir = __dirname, platform, arch, probe } = {}) {
  if (env.SLUICE_NODE_ADDON) return { file: path.resolve(env.SLUICE_NODE_ADDON), from: 'env' };
  const local = path.join(dir, 'sluice.node');
  if (fs.existsSync(local)) return { file: local, from: 'source' };
  const p = platformKey({ platform, arch, probe });
  if (p.key) {
    const file = path.join(dir, 'prebuilds', p.key, 'sluice.node');
    if (fs.existsSync(file)) return { file, from: 'prebuild', platform: p.key };
  }
  const have = dir === __dirname ? shipped() : [];
  const e = new Error(
    `sluice: no native addon for ${p.name}` +
      (p.reason ? ` (${p.reason})` : '') +
      `; prebuilt: ${have.length ? have.join(', ') : 'none in this package'}. ` +
      'Build it from source with `npm run build` in bindings/node of a sluice checkout (needs Rust\'s cargo), ' +
      'or point SLUICE_NODE_ADDON at a built sluice.node');
  e.code = 'ERR_SLUICE_ADDON';
  return { error: e };
}

function load() {
  debugWarningOn(); // a bad value stops the load before anything is loaded
  const found = locate();
  if (found.error) throw found.error;
  let native;
  try {
    native = require(found.file);
  } catch (err) {
    const how = found.from === 'prebuild'
      ? `the prebuilt addon for ${found.platform}`
      : found.from === 'env' ? 'the addon SLUICE_NODE_ADDON names' : 'the addon built from source';
    const e = new Error(
      `sluice: cannot load ${how}, ${found.file} (${err.message}); ` +
        'build it from source with `npm run build` in bindings/node of a sluice checkout (needs Rust\'s cargo), ' +
        'or point SLUICE_NODE_ADDON at a built sluice.node');
    e.code = 'ERR_SLUICE_ADDON';
    e.cause = err;
    throw e;
  }
  warnIfDebug(native, found.file);
  return native;
}

// Once per process, however many copies of the package a process loads
// (the addon itself is loaded once per process).
const WARNED = Symbol.for('sluice.debugBuildWarned');

// SLUICE_DEBUG_BUILD_WARNING: whether a debug build warns (see above).
// Node's own tests under the preload set it to 0 (test/node/run.js): those
// that refuse any unexpected warning test the preload, not the profile.
function debugWarningOn(env = process.env) {
  return switchOf(env, 'SLUICE_DEBUG_BUILD_WARNING', true, 'sluice', 'ERR_SLUICE_ENV');
}

function warnIfDebug(native, file, env = process.env) {
  const profile = typeof native.buildProfile === 'function' ? native.buildProfile() : 'unknown';
  if (profile === 'release' || globalThis[WARNED] || !debugWarningOn(env)) return;
  globalThis[WARNED] = true;
  process.emitWarning(
    `sluice: the native addon ${file} is a ${profile} build: unoptimised, its pbkdf2, scrypt and gzip run many ` +
      'times slower than a release build\'s. Build the release one with `npm run build` in bindings/node (a sluice checkout).',
    { code: 'SLUICE_DEBUG_BUILD' });
}

if (require.main === module) {
  // `node binding.js`: which file this machine would load, and why.
  const found = locate();
  const p = platformKey();
  console.log(JSON.stringify({ platform: p.name, ...(found.error ? { error: found.error.message } : found) }));
} else {
  module.exports = load();
  // For the tests: how the choice is made, without loading anything. The
  // addon's exports are shared by every copy of this file in the thread (a
  // require.cache reset loads a second one): the first copy's stays.
  if (!Object.prototype.hasOwnProperty.call(module.exports, Symbol.for('sluice.loader'))) {
    Object.defineProperty(module.exports, Symbol.for('sluice.loader'), {
      value: { libc, platformKey, locate, warnIfDebug },
      enumerable: false,
    });
  }
}
