'use strict';
// The package's on/off variables (SLUICE_PATCH_*, SLUICE_DEBUG_BUILD_WARNING):
// 1, true or on; 0, false or off (any case); unset or empty: `fallback`.
// Anything else is an error with `code`, naming the variable and its value.

function switchOf(env, name, fallback, who, code) {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const v = raw.toLowerCase();
  if (v === '1' || v === 'true' || v === 'on') return true;
  if (v === '0' || v === 'false' || v === 'off') return false;
  const err = new Error(`${who}: ${name}=${JSON.stringify(raw)}: expected 1 or 0 (true/false, on/off)`);
  err.code = code;
  throw err;
}

module.exports = { switchOf };
