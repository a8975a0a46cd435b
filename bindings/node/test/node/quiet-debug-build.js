'use strict';
// Preloaded by run.js before ../../patch.js: marks the package's one
// warning about a debug addon (SLUICE_DEBUG_BUILD, binding.js) as already
// given, so that Node's tests that fail on any unexpected warning test the
// preload's behaviour, not the build's profile. A release addon never
// prints it; the tests of bindings/node/test check the warning itself.
globalThis[Symbol.for('sluice.debugBuildWarned')] = true;
