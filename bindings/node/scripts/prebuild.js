'use strict';
// Builds the prebuilt addons the npm tarball ships, in release, stripped,
// laid out as binding.js looks for them: prebuilds/<platform>/sluice.node.
//
//   node scripts/prebuild.js [--target linux-x64-gnu,linux-x64-musl,linux-arm64-gnu] [--locked]
//
// Cross builds link with zig (`cargo zigbuild`: PyPI's ziglang and
// cargo-zigbuild, `pip install ziglang cargo-zigbuild`), and need the Rust
// targets (`rustup target add x86_64-unknown-linux-musl
// aarch64-unknown-linux-gnu`). The glibc builds are linked against glibc
// 2.17's symbols, so they load on any glibc from 2.17 on. Each file is
// checked before it is kept: an ELF shared object for its CPU, no symbol
// table (stripped), the release mark (never a debug build), no test hooks
// (cargo feature `test-hooks`), `sluice_scope_lanes` exported (what `sluice
// scope` reads), and for glibc no symbol newer than 2.17. A failed build or
// check exits 1 naming the target; nothing half-built is left in prebuilds/.
const { spawnSync } = require('node:child_process');
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const TARGETS = {
  'linux-x64-gnu': { triple: 'x86_64-unknown-linux-gnu', zig: 'x86_64-unknown-linux-gnu.2.17', machine: 62 },
  'linux-x64-musl': { triple: 'x86_64-unknown-linux-musl', zig: 'x86_64-unknown-linux-musl', machine: 62 },
  'linux-arm64-gnu': { triple: 'aarch64-unknown-linux-gnu', zig: 'aarch64-unknown-linux-gnu.2.17', machine: 183 },
};
const GLIBC_FLOOR = 17;

const pkg = path.join(__dirname, '..');

function fail(message) {
  console.error(`prebuild: ${message}`);
  process.exit(1);
}

function parseArgs(argv) {
  const out = { targets: Object.keys(TARGETS), locked: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === '--locked') out.locked = true;
    else if (a === '--target' || a.startsWith('--target=')) {
      const v = a === '--target' ? argv[++i] : a.slice('--target='.length);
      if (!v) fail('--target needs a value: a comma-separated list of ' + Object.keys(TARGETS).join(', '));
      out.targets = v.split(',').filter(Boolean);
      for (const t of out.targets) {
        if (!TARGETS[t]) fail(`unknown target "${t}"; expected one of ${Object.keys(TARGETS).join(', ')}`);
      }
    } else if (a === '-h' || a === '--help') {
      console.log(fs.readFileSync(__filename, 'utf8').split('\n').slice(1, 16).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
      process.exit(0);
    } else fail(`unknown argument "${a}" (see --help)`);
  }
  return out;
}

// Section names of an ELF64 little-endian file, and its e_type/e_machine.
function elf(buf) {
  if (buf.length < 64 || buf.readUInt32BE(0) !== 0x7f454c46) return null;
  if (buf[4] !== 2 || buf[5] !== 1) return null; // ELFCLASS64, little-endian
  const type = buf.readUInt16LE(16);
  const machine = buf.readUInt16LE(18);
  const shoff = Number(buf.readBigUInt64LE(0x28));
  const shentsize = buf.readUInt16LE(0x3a);
  const shnum = buf.readUInt16LE(0x3c);
  const shstrndx = buf.readUInt16LE(0x3e);
  if (shoff + shnum * shentsize > buf.length || shstrndx >= shnum) return null;
  const header = (i) => shoff + i * shentsize;
  const strOff = Number(buf.readBigUInt64LE(header(shstrndx) + 0x18));
  const sections = [];
  for (let i = 0; i < shnum; i++) {
    const name = buf.readUInt32LE(header(i));
    const end = buf.indexOf(0, strOff + name);
    sections.push(buf.toString('latin1', strOff + name, end));
  }
  return { type, machine, sections };
}

// What is wrong with a built addon for `key`, or null.
function check(file, key) {
  const t = TARGETS[key];
  const buf = fs.readFileSync(file);
  const e = elf(buf);
  if (!e) return 'not a 64-bit little-endian ELF file';
  if (e.type !== 3) return `ELF type ${e.type}, not a shared object (3)`;
  if (e.machine !== t.machine) return `ELF machine ${e.machine}, expected ${t.machine}`;
  if (e.sections.includes('.symtab')) return 'not stripped (it has a .symtab)';
  if (buf.includes('sluice-addon-build-profile=debug')) return 'a debug build (its build mark says debug)';
  if (!buf.includes('sluice-addon-build-profile=release')) return 'no release build mark (sluice-addon-build-profile=release)';
  // The test hooks' names, as napi-rs registers them (cargo feature `test-hooks`).
  if (buf.includes('panicForTest\0') || buf.includes('oversizedForTest\0')) return 'built with the test hooks (cargo feature test-hooks)';
  // The one symbol `sluice scope` reads the lanes' queues by (src/scope_lanes.rs),
  // as the dynamic string table holds it (strip keeps .dynsym and .dynstr).
  if (!buf.includes('\0sluice_scope_lanes\0')) return 'does not export sluice_scope_lanes (sluice scope reads the lanes\' queues through it)';
  if (key.endsWith('-gnu')) {
    const versions = [...buf.toString('latin1').matchAll(/GLIBC_2\.(\d+)/g)].map((m) => Number(m[1]));
    const newest = Math.max(0, ...versions);
    if (newest > GLIBC_FLOOR) return `needs GLIBC_2.${newest}, newer than the floor 2.${GLIBC_FLOOR}`;
  }
  return null;
}

function run(cmd, args, env) {
  console.error(`prebuild: ${cmd} ${args.join(' ')}`);
  const r = spawnSync(cmd, args, { cwd: pkg, stdio: ['ignore', process.stderr, 'inherit'], env: { ...process.env, ...env } });
  if (r.error) return r.error.message;
  return r.status === 0 ? null : `exit status ${r.status}`;
}

function targetDir() {
  const meta = spawnSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], { cwd: pkg, encoding: 'utf8' });
  if (meta.error || meta.status !== 0) fail(`\`cargo metadata\` failed: ${meta.error ? meta.error.message : meta.stderr}`);
  return JSON.parse(meta.stdout).target_directory;
}

function main() {
  const opts = parseArgs(process.argv.slice(2));
  const zb = spawnSync('cargo', ['zigbuild', '--help'], { encoding: 'utf8' });
  if (zb.error || zb.status !== 0) {
    fail('`cargo zigbuild` is not installed: `pip install ziglang cargo-zigbuild` (PyPI), then run again');
  }
  const installed = spawnSync('rustup', ['target', 'list', '--installed'], { encoding: 'utf8' });
  const have = installed.status === 0 ? installed.stdout.split('\n') : null;
  const target = targetDir();
  const results = [];
  for (const key of opts.targets) {
    const t = TARGETS[key];
    if (have && !have.includes(t.triple)) fail(`${key}: the Rust target ${t.triple} is not installed: rustup target add ${t.triple}`);
    // zig's linker leaves no symbol table in a release build (the check
    // below makes sure), so no cross binutils are needed to strip.
    const env = {};
    // A cdylib on musl links the C library dynamically (Rust's musl
    // default is static, which a shared object cannot be).
    if (key.endsWith('-musl')) env[`CARGO_TARGET_${t.triple.toUpperCase().replace(/-/g, '_')}_RUSTFLAGS`] = '-C target-feature=-crt-static';
    const args = ['zigbuild', '-p', 'sluice-node', '--release', '--target', t.zig];
    if (opts.locked) args.push('--locked');
    const started = Date.now();
    const err = run('cargo', args, env);
    if (err) fail(`${key}: \`cargo ${args.join(' ')}\` failed (${err}); its output is above`);
    const built = path.join(target, t.triple, 'release', 'libsluice_node.so');
    const wrong = check(built, key);
    if (wrong) fail(`${key}: ${built} is ${wrong}; not copied`);
    const dir = path.join(pkg, 'prebuilds', key);
    fs.mkdirSync(dir, { recursive: true });
    const dest = path.join(dir, 'sluice.node');
    fs.copyFileSync(built, `${dest}.tmp`);
    fs.renameSync(`${dest}.tmp`, dest);
    const bytes = fs.readFileSync(dest);
    results.push({
      platform: key,
      file: path.relative(pkg, dest),
      bytes: bytes.length,
      sha256: crypto.createHash('sha256').update(bytes).digest('hex'),
      seconds: Math.round((Date.now() - started) / 100) / 10,
    });
    console.error(`prebuild: ${key}: ${path.relative(pkg, dest)} (${bytes.length} bytes, release, stripped)`);
  }
  console.log(JSON.stringify(results));
}

if (require.main === module) main();
module.exports = { TARGETS, check, elf };
