'use strict';
// The package's call paths compiled when they load, not at the first call.
//
// V8 compiles a function to bytecode the first time it runs (lazy
// compilation). Every function on a call's path, from the patched
// `dns.lookup` through `lib/call.js` and `lib/inbox.js` and back into the
// callback, is thus compiled by the process's first call of each kind, on
// the event loop, in that call's time: 1.2 ms of a first `dns.lookup`'s
// 2.2 ms on an idle machine (the second took 0.35 ms), and several times
// that behind busy pool threads that share the cores. `eagerly(load)` runs
// `load` (the package's `require`s) with V8's `--no-lazy`, under which
// every function of a script is compiled along with the script, and turns
// lazy compilation back on after it: the package's own modules cost their
// compilation when they load (about 2 ms for all of them, once per
// process), and a first call runs already-compiled code.
//
// Node's own modules that the package's modules require are loaded first,
// outside that window, as Node loads them (from its code cache, lazily):
// compiled whole they cost 20 ms more at load. Where the process set
// `--lazy` or `--no-lazy` itself (on its command line or in NODE_OPTIONS),
// the flag is left as it is.

const v8 = require('node:v8');

// Every `node:` module the package's modules require (a test holds this
// list to the sources).
const BUILTINS = ['async_hooks', 'buffer', 'crypto', 'dns', 'events', 'fs', 'net', 'os', 'path', 'perf_hooks', 'util',
  'worker_threads', 'zlib'];

const LAZY_FLAG = /^--(no-)?lazy$/;
const own = process.execArgv.some((a) => LAZY_FLAG.test(a)) ||
  (process.env.NODE_OPTIONS || '').split(/\s+/).some((a) => LAZY_FLAG.test(a));

let depth = 0;

/** `load()`, its scripts compiled whole (see above); returns its value. */
function eagerly(load) {
  if (own) return load();
  if (depth++ === 0) {
    for (const name of BUILTINS) require(`node:${name}`);
    // The modules behind these getters too (Node loads them on first use).
    void require('node:fs').promises;
    void require('node:dns').promises;
    v8.setFlagsFromString('--no-lazy');
  }
  try {
    return load();
  } finally {
    if (--depth === 0) v8.setFlagsFromString('--lazy');
  }
}

module.exports = { eagerly, BUILTINS };
