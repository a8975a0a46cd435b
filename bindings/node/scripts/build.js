'use strict';
// Builds the addon from source with cargo and copies it next to index.js as
// sluice.node.
//
//   node scripts/build.js [--release] [--test-hooks | --no-test-hooks] [--locked]
//
// A debug build (the default: what the package's tests use) has the test
// hooks (cargo feature `test-hooks`: `_internal.panicForTest`,
// `_internal.oversizedForTest`) unless --no-test-hooks; a release build
// (`npm run build`) has them only with --test-hooks. The prebuilt addons
// (scripts/prebuild.js) never have them.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const argv = process.argv.slice(2);
if (argv.includes('-h') || argv.includes('--help')) {
  console.log(fs.readFileSync(__filename, 'utf8').split('\n').slice(1, 11).map((l) => l.replace(/^\/\/ ?/, '')).join('\n'));
  process.exit(0);
}
const known = new Set(['--release', '--test-hooks', '--no-test-hooks', '--locked']);
for (const a of argv) {
  if (!known.has(a)) {
    console.error(`sluice: scripts/build.js: unknown argument "${a}" (see --help)`);
    process.exit(2);
  }
}
const release = argv.includes('--release');
const hooks = argv.includes('--test-hooks') || (!release && !argv.includes('--no-test-hooks'));
const pkg = path.join(__dirname, '..');
const args = ['build', '-p', 'sluice-node', ...(release ? ['--release'] : []), ...(hooks ? ['--features', 'test-hooks'] : [])];
if (argv.includes('--locked')) args.push('--locked');
const built = spawnSync('cargo', args, { cwd: pkg, stdio: 'inherit' });
if (built.error || built.status !== 0) {
  console.error(`sluice: \`cargo ${args.join(' ')}\` failed${built.error ? `: ${built.error.message}` : ''}`);
  process.exit(1);
}
const meta = spawnSync('cargo', ['metadata', '--format-version', '1', '--no-deps'], { cwd: pkg, encoding: 'utf8' });
if (meta.status !== 0) {
  console.error('sluice: `cargo metadata` failed:\n' + meta.stderr);
  process.exit(1);
}
const targetDir = JSON.parse(meta.stdout).target_directory;
const names = { linux: 'libsluice_node.so', darwin: 'libsluice_node.dylib', win32: 'sluice_node.dll' };
const lib = path.join(targetDir, release ? 'release' : 'debug', names[process.platform] || names.linux);
const dest = path.join(pkg, 'sluice.node');
fs.copyFileSync(lib, dest);
console.log(`sluice: ${path.relative(process.cwd(), lib)} -> ${path.relative(process.cwd(), dest)}${hooks ? ' (with the test hooks)' : ''}`);
