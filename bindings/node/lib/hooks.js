'use strict';
// Whether anyone can see the extra requests of a multi-request call.
//
// Node's fs.readFile makes four requests one after another (open, fstat,
// read, close), each an FSREQCALLBACK that async_hooks see, each completed
// on a later turn of the loop. sluice does the whole read in one task, and
// steps through the other three requests on the loop only for an
// async_hooks hook that would see them (lib/call.js, `stepThrough`):
// three more resources, three more turns, per call. Without a hook,
// nothing can tell them apart from the one request (AsyncLocalStorage's
// store and the caller's domain travel with the first, made in the
// caller's context; the callback still runs in its scope), so the
// callback comes on the turn the outcome arrives: 1.6-1.8x the callback
// readFiles per second (docs/npm.md, "Where the time goes").
//
// The package sees the hooks made through `async_hooks.createHook` once a
// copy of it has loaded: it wraps that function, and counts the hooks
// enabled. The wrapper, and the count, are shared by every copy in the
// thread (a second copy finds the wrapper and uses its count). A hook made
// before the first copy loaded (a module required ahead of `-r
// sluice/patch`) is not seen: its readFile callbacks come in the first
// request's scope, with one FSREQCALLBACK per call instead of Node's four.
// SLUICE_READFILE_STEPS=1 steps through them always; 0 never; unset or
// empty, while a hook the package saw is enabled.

const asyncHooks = require('node:async_hooks');
const { switchOf } = require('./switch.js');

const COUNT = Symbol.for('sluice.enabledAsyncHooks');

// The number of enabled hooks, shared through the wrapper: { enabled }.
function install() {
  const current = asyncHooks.createHook;
  if (current[COUNT] !== undefined) return current[COUNT];
  const count = { enabled: 0 };
  const original = current;
  // `createHook(callbacks)`: the hook Node makes, its enable and disable
  // counted. Argument errors are Node's own, thrown by Node's function.
  const createHook = {
    createHook(callbacks) {
      const hook = original.call(this, callbacks);
      let on = false;
      const { enable, disable } = hook;
      const counted = {
        enable() {
          const r = enable.call(this);
          if (!on) {
            on = true;
            count.enabled++;
          }
          return r;
        },
        disable() {
          const r = disable.call(this);
          if (on) {
            on = false;
            count.enabled--;
          }
          return r;
        },
      };
      for (const name of ['enable', 'disable']) {
        Object.defineProperty(hook, name, { value: counted[name], writable: true, configurable: true });
      }
      return hook;
    },
  }.createHook;
  Object.defineProperty(createHook, COUNT, { value: count });
  asyncHooks.createHook = createHook;
  return count;
}

const count = install();

const STEPS = switchOf(process.env, 'SLUICE_READFILE_STEPS', undefined, 'sluice', 'ERR_SLUICE_ENV');

/**
 * Whether a call's requests after its first are stepped through (see
 * above): a hook the package saw is enabled, or SLUICE_READFILE_STEPS says.
 */
function stepsSeen() {
  return STEPS === undefined ? count.enabled > 0 : STEPS;
}

module.exports = { stepsSeen };
