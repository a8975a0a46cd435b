#!/usr/bin/env node
'use strict';
// `sluice` from npm: runs the static binary for this CPU (dist/linux-x64 or
// dist/linux-arm64, musl, statically linked: it runs on any Linux C library)
// with this process's arguments, stdio and environment, and ends as it
// ends: the same exit code, or the same signal. Signals sent to this
// process (a `kill` of its PID, Ctrl-C) are passed on to the binary.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const key = `${process.platform}-${process.arch}`;
const binary = path.join(__dirname, '..', 'dist', key, 'sluice');
if (!fs.existsSync(binary)) {
  const have = (() => {
    try {
      return fs.readdirSync(path.join(__dirname, '..', 'dist')).sort().join(', ') || 'none';
    } catch {
      return 'none';
    }
  })();
  console.error(
    `sluice: no sluice binary for ${key} in this package (it has: ${have}); ` +
      'build it from source: `cargo install --locked --path crates/sluice-cli` in a clone of the repository');
  process.exit(2);
}

const child = spawn(binary, process.argv.slice(2), { stdio: 'inherit' });
const forward = ['SIGINT', 'SIGTERM', 'SIGHUP', 'SIGQUIT'];
for (const sig of forward) process.on(sig, () => child.kill(sig));
child.on('error', (err) => {
  console.error(`sluice: cannot run ${binary}: ${err.message}`);
  process.exit(2);
});
child.on('exit', (code, signal) => {
  if (signal) {
    for (const sig of forward) process.removeAllListeners(sig);
    process.kill(process.pid, signal);
    return;
  }
  process.exit(code);
});
