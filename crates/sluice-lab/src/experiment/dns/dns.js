// sluice lab: dns (seed 001, "The lab: my own resolver"), node's side. Runs
// inside the lab's network namespace, whose only name server is the DNS
// delay server. Looks up every name at once, family 4, and times the batch.
// argv[2]: {"names": [..], "method": "dns.lookup"|"dns.resolve4", "warmup": name, "answer": ip}
// The warm-up name is answered at once (the server's --fast), so the pool
// (dns.lookup) or c-ares (dns.resolve4) is started before the clock runs.
// Prints {"total_ms", "resolved": names answered with `answer`, "errors": [..]}.
'use strict';
const dns = require('node:dns');

const p = JSON.parse(process.argv[2]);
const now = () => Number(process.hrtime.bigint()) / 1e6;

// One name to its IPv4 addresses, by the method under test.
const resolve = (name) =>
  new Promise((ok, fail) => {
    if (p.method === 'dns.lookup') {
      dns.lookup(name, { family: 4, all: true }, (err, addrs) =>
        err ? fail(err) : ok(addrs.map((a) => a.address)));
    } else if (p.method === 'dns.resolve4') {
      dns.resolve4(name, (err, addrs) => (err ? fail(err) : ok(addrs)));
    } else {
      fail(new Error(`unknown method ${p.method}`));
    }
  });

async function main() {
  await resolve(p.warmup);
  const t0 = now();
  const results = await Promise.allSettled(p.names.map(resolve));
  const totalMs = now() - t0;
  const resolved = results.filter(
    (r) => r.status === 'fulfilled' && r.value.length === 1 && r.value[0] === p.answer).length;
  const errors = results
    .filter((r) => r.status === 'rejected')
    .slice(0, 3)
    .map((r) => String(r.reason && r.reason.message ? r.reason.message : r.reason));
  console.log(JSON.stringify({ total_ms: totalMs, resolved, errors }));
}

main().catch((e) => {
  console.error(e && e.stack ? e.stack : String(e));
  process.exit(1);
});
