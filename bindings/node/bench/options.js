'use strict';
// The benches' command-line options: `--name value`, checked.
const path = require('node:path');

// The value after `--name` on the command line, as `check` takes it
// (`fallback` when the option is absent). A value `check` refuses (it
// returns undefined) ends the bench with exit status 2, saying what was
// expected: `check.expected` where it says, else see the bench's header.
function option(name, fallback, check) {
  const args = process.argv.slice(2);
  const at = args.indexOf(`--${name}`);
  if (at < 0) return fallback;
  const raw = args[at + 1];
  const value = check(raw);
  if (value === undefined) {
    const bench = path.basename(require.main ? require.main.filename : 'the bench');
    console.error(`bench: --${name} ${raw}: ${check.expected || `not accepted (see the header of bench/${bench})`}`);
    process.exit(2);
  }
  return value;
}

// A check: a whole number of at least `min`.
const whole = (min) => Object.assign((raw) => {
  const n = Number(raw);
  return Number.isInteger(n) && n >= min ? n : undefined;
}, { expected: `expected a whole number >= ${min}` });

// A check: a positive number.
const positive = Object.assign((raw) => {
  const n = Number(raw);
  return Number.isFinite(n) && n > 0 ? n : undefined;
}, { expected: 'expected a positive number' });

// A check: a comma-separated list of some of `known`.
const someOf = (known) => (raw) => {
  const list = String(raw || '').split(',');
  return list.length && list.every((x) => known.includes(x)) ? list : undefined;
};

module.exports = { option, whole, positive, someOf };
