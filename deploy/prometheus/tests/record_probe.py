#!/usr/bin/env python3
"""Records what a real `sluice scope PID --probe --prometheus` exports (probe
mode: uprobes on libuv, root), for the unit tests of the probe-mode
recording rules (sluice_scope:queue_wait_seconds:p99_rate5m,
sluice_scope:run_time_seconds:p99_rate5m).

    sudo python3 deploy/prometheus/tests/record_probe.py [--sluice target/debug/sluice]

One Node process (workload.js, pool 2) keeps 4 crypto.pbkdf2 in flight from
LOAD_FROM to LOAD_TO seconds (each request waits about one hash for a
thread), watched by scope in probe mode; /metrics is fetched every SCRAPE
seconds until END into recorded-probe/probe.txt.gz, with the same
`# sluice-record` lines as record.py, and recorded-probe/manifest.json.
"""

import argparse
import json
import os
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import record  # noqa: E402  (its helpers: free_port, start_node, spawn, schedule, ...)

SCRAPE = 15
LOAD_FROM = 30
LOAD_TO = 330
END = 360


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sluice", default=os.path.join(record.ROOT, "target", "debug", "sluice"))
    ap.add_argument("--out", default=os.path.join(record.HERE, "recorded-probe"))
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    nodes_started = time.time()
    _, pid = record.start_node(["cpu", 4, LOAD_FROM, LOAD_TO], 2)
    addr = f"127.0.0.1:{record.free_port()}"
    record.spawn(
        [a.sluice, "scope", str(pid), "--probe", "--prometheus", addr],
        stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(a.out, "scope.stderr.txt"), "w"),
    )
    time.sleep(3)
    load_avg = [os.getloadavg()]
    t0 = time.time()
    f = record.gz_text(os.path.join(a.out, "probe.txt.gz"))
    scrapes = 0
    for t in record.schedule(t0, SCRAPE, END):
        record.record_scrape(f, t, f"http://{addr}/metrics")
        print(f"t={t:4d}s scraped", file=sys.stderr)
        scrapes += 1
    f.close()
    load_avg.append(os.getloadavg())
    manifest = {
        **record.manifest_head("record_probe.py", a.sluice, t0),
        "load_average_start_end": [list(x) for x in load_avg],
        "scrape_interval_s": SCRAPE,
        "workloads_started_before_first_scrape_s": round(t0 - nodes_started, 3),
        "phases_s": {"load_from": LOAD_FROM, "load_to": LOAD_TO, "end": END},
        "targets": {"probe": {"job": "sluice-scope", "instance": addr}},
        "processes": {
            "probed": {"pid": pid, "pool": 2,
                       "work": "4 crypto.pbkdf2 in flight, load_from to load_to"},
        },
    }
    with open(os.path.join(a.out, "manifest.json"), "w") as mf:
        json.dump(manifest, mf, indent=2)
        mf.write("\n")
    print(f"recorded {scrapes} scrapes into {a.out}", file=sys.stderr)


if __name__ == "__main__":
    try:
        main()
    finally:
        for p in record.CHILDREN:
            if p.poll() is None:
                p.terminate()
