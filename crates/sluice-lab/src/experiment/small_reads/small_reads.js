// sluice lab: small-reads (seed 000 §5, the second counter-example). Many
// 4 KB fs.promises.readFile calls, a fixed number in flight: the pool's
// dispatch cost against a read() of a few microseconds from the page cache.
// argv[2]: {"file": path, "n": 4000, "in_flight": 200, "rounds": r, "bytes": 4096}
// One warm-up round (the pool starts at the first read), then `rounds`
// timed rounds. Prints {"rounds_ms": [..], "bad_reads": n}.
'use strict';
const fs = require('node:fs');

const p = JSON.parse(process.argv[2]);
const now = () => Number(process.hrtime.bigint()) / 1e6;

let badReads = 0;

async function round() {
  let next = 0;
  const t0 = now();
  async function worker() {
    while (next < p.n) {
      next++;
      const data = await fs.promises.readFile(p.file);
      if (data.length !== p.bytes) badReads++;
    }
  }
  const workers = [];
  for (let i = 0; i < Math.min(p.in_flight, p.n); i++) workers.push(worker());
  await Promise.all(workers);
  return now() - t0;
}

async function main() {
  await round();
  const rounds = [];
  for (let i = 0; i < p.rounds; i++) rounds.push(await round());
  console.log(JSON.stringify({ rounds_ms: rounds, bad_reads: badReads }));
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
