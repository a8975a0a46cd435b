'use strict';
// Builds the addon from source with cargo and copies it next to index.js as
// sluice.node. `node scripts/build.js [--release]`.
const { spawnSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const release = process.argv.includes('--release');
const pkg = path.join(__dirname, '..');
const args = ['build', '-p', 'sluice-node', ...(release ? ['--release'] : [])];
if (process.argv.includes('--locked')) args.push('--locked');
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
console.log(`sluice: ${path.relative(process.cwd(), lib)} -> ${path.relative(process.cwd(), dest)}`);
