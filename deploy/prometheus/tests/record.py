#!/usr/bin/env python3
"""Records what a real `sluice scope --all --prometheus` and a real
`sluice serve` export while the lab's workloads run, for the rules' unit
tests (deploy/prometheus/tests/).

    python3 deploy/prometheus/tests/record.py [--sluice target/release/sluice]

It starts, on this machine:

  * four Node processes (workload.js), watched by one
    `sluice scope --all --prometheus 127.0.0.1:PORT --cmdline workload.js`:
      - idle      pool 4, idle the whole time
      - cpu       pool 2, 4 crypto.pbkdf2 kept in flight (the lab's cpu-2x)
                  during the load phase: every pool thread busy
      - loop      pool 4, the loop blocked 45 ms of every 50 ms during the
                  first half of the load phase
      - dns       pool 4, under `sluice lab-netns --hold 500ms` (the lab's DNS
                  delay server), 32 dns.lookup kept in flight during the load
                  phase: libuv's (n + 1) / 2 slow I/O limit throttles them
  * `sluice serve --cpu-threads 1 --cpu-queue 4 --login-iterations 2000
    --diagnostic-routes` (2000 iterations: a debug build under load hashes
    slowly; in the committed recording 65 /login answered in 390 s), flooded
    during the load phase by `sluice load .../login -c 16` (the Cpu lane
    saturated, and refusing past its bound of 4: 429), then, in the block
    phase, by `sluice load .../block?ms=100 -c 1` (the loop blocked).

Phases (seconds from the first scrape): baseline until LOAD_FROM, load until
LOAD_TO, serve's block phase until STOP, then scope and serve are stopped and
scraping goes on until END (failed scrapes: the exporters are down).

Both /metrics pages are fetched every SCRAPE seconds (on a fixed schedule
from the start) and appended, each after a `# sluice-record t=T unix=U
status=ok` line (or `status=failed reason=...`), to recorded/scope.txt.gz and
recorded/serve.txt.gz; recorded/manifest.json names the processes, the
addresses, the phases and the machine's conditions. to_input_series.py turns
them into the unit tests' input series.
"""

import argparse
import gzip
import io
import json
import os
import platform
import re
import signal
import subprocess
import sys
import threading
import time
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.abspath(os.path.join(HERE, "..", "..", ".."))

SCRAPE = 15
LOAD_FROM = 45
LOAD_TO = 435
LOOP_TO = 240
STOP = 615
END = 1020


def free_port():
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_node(args, pool, wrap=()):
    env = dict(os.environ, UV_THREADPOOL_SIZE=str(pool))
    p = spawn(
        [*wrap, "node", os.path.join(HERE, "workload.js"), *map(str, args)],
        stdout=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        env=env,
        text=True,
    )
    line = p.stdout.readline()
    m = re.match(r"ready (\d+)", line)
    if not m:
        sys.exit(f"record.py: node {args} did not start: {line!r}")
    return p, int(m.group(1))


def scrape(url):
    try:
        with urllib.request.urlopen(url, timeout=5) as r:
            return "ok", r.read().decode()
    except Exception as e:  # noqa: BLE001 - a failed scrape is recorded as such
        return f"failed reason={type(e).__name__}", ""


CHILDREN = []


def spawn(*args, **kw):
    p = subprocess.Popen(*args, **kw)
    CHILDREN.append(p)
    return p


def schedule(t0, every, end):
    """Yields t = 0, every, 2 * every, ... up to end, each once t seconds
    have passed since t0 (a fixed schedule: a slow scrape does not move
    the later ones)."""
    k = 0
    while k * every <= end:
        t = k * every
        wait = t0 + t - time.time()
        if wait > 0:
            time.sleep(wait)
        yield t
        k += 1


def gz_text(path):
    """A gzip file (no timestamp in its header) to write text into."""
    return io.TextIOWrapper(gzip.GzipFile(path, "wb", mtime=0), encoding="utf-8")


def record_scrape(f, t, url):
    """Scrapes url into f after its `# sluice-record` line."""
    status, page = scrape(url)
    f.write(f"# sluice-record t={t} unix={time.time():.3f} status={status}\n")
    f.write(page)


def manifest_head(script, sluice, t0):
    """A manifest's first members: what recorded it, when, with what."""
    version = subprocess.run([sluice, "--version"], capture_output=True, text=True).stdout.strip()
    node = subprocess.run(["node", "--version"], capture_output=True, text=True).stdout.strip()
    return {
        "recorded_by": f"deploy/prometheus/tests/{script}",
        "date_utc": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(t0)),
        "sluice": version,
        "sluice_binary": os.path.relpath(sluice, ROOT),
        "node": node,
        "kernel": platform.release(),
        "cores": os.cpu_count(),
    }


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--sluice", default=os.path.join(ROOT, "target", "debug", "sluice"))
    ap.add_argument("--out", default=os.path.join(HERE, "recorded"))
    ap.add_argument("--scale", type=float, default=1.0,
                    help="multiply every phase and the scrape interval (a quick trial: 0.1)")
    ap.add_argument("--login-iterations", type=int, default=2000,
                    help="serve's pbkdf2 iterations per /login (a debug build hashes ~4000/s here)")
    a = ap.parse_args()
    global SCRAPE, LOAD_FROM, LOAD_TO, LOOP_TO, STOP, END
    SCRAPE, LOAD_FROM, LOAD_TO, LOOP_TO, STOP, END = (
        max(1, round(x * a.scale)) for x in (SCRAPE, LOAD_FROM, LOAD_TO, LOOP_TO, STOP, END))
    os.makedirs(a.out, exist_ok=True)
    sluice = a.sluice
    procs = []

    # The workloads' clocks start at their own start: give them the phases
    # relative to the first scrape, which follows at once.
    nodes_started = time.time()
    idle, idle_pid = start_node(["idle"], 4)
    cpu, cpu_pid = start_node(["cpu", 4, LOAD_FROM, LOAD_TO], 2)
    loop, loop_pid = start_node(["loop", LOAD_FROM, LOOP_TO], 4)
    dnsn, dns_pid = start_node(
        ["dns", 32, LOAD_FROM, LOAD_TO], 4, wrap=(sluice, "lab-netns", "--hold", "500ms", "--")
    )
    procs += [idle, cpu, loop, dnsn]

    scope_addr = f"127.0.0.1:{free_port()}"
    scope = spawn(
        [sluice, "scope", "--all", "--prometheus", scope_addr, "--cmdline", "workload\\.js"],
        stdout=subprocess.DEVNULL,
        stderr=open(os.path.join(a.out, "scope.stderr.txt"), "w"),
    )
    serve = spawn(
        [sluice, "serve", "--listen", "127.0.0.1:0", "--cpu-threads", "1", "--cpu-queue", "4",
         "--login-iterations", str(a.login_iterations), "--diagnostic-routes"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    serve_addr = None
    for line in serve.stdout:
        m = re.search(r"listening on http://(\S+)", line)
        if m:
            serve_addr = m.group(1)
            break
    if not serve_addr:
        sys.exit("record.py: sluice serve did not start")
    threading.Thread(target=lambda: [None for _ in serve.stdout], daemon=True).start()
    time.sleep(3)  # scope's first windows

    loads = []

    def load(path, conc, dur, name):
        out = open(os.path.join(a.out, f"load-{name}.json"), "w")
        loads.append(
            spawn(
                [sluice, "load", f"http://{serve_addr}{path}", "-c", str(conc), "-d", f"{dur}s",
                 "--json"],
                stdout=out,
                stderr=subprocess.DEVNULL,
            )
        )

    files = {name: gz_text(os.path.join(a.out, f"{name}.txt.gz")) for name in ("scope", "serve")}
    urls = {"scope": f"http://{scope_addr}/metrics", "serve": f"http://{serve_addr}/metrics"}
    load_avg = [os.getloadavg()]
    t0 = time.time()
    events = [
        (LOAD_FROM, "login_load", lambda: load("/login", 16, LOAD_TO - LOAD_FROM, "login")),
        (LOAD_TO, "block_load", lambda: load("/block?ms=100", 1, STOP - LOAD_TO, "block")),
        (STOP, "exporters_stopped",
         lambda: [p.send_signal(signal.SIGTERM) for p in (scope, serve)]),
    ]
    started = {}
    scrapes = 0
    for t in schedule(t0, SCRAPE, END):
        # A phase begins just before the scrape at its time.
        while events and events[0][0] <= t:
            name, start = events.pop(0)[1:]
            started[name] = round(time.time() - t0, 3)
            start()
        for name, url in urls.items():
            record_scrape(files[name], t, url)
        print(f"t={t:4d}s scraped", file=sys.stderr)
        if t == LOAD_TO:
            load_avg.append(os.getloadavg())
        scrapes += 1
    load_avg.append(os.getloadavg())
    for f in files.values():
        f.close()
    for p in procs + loads + [scope, serve]:
        if p.poll() is None:
            p.terminate()
        p.wait()

    manifest = {
        **manifest_head("record.py", sluice, t0),
        "load_average_start_load_end": [list(x) for x in load_avg],
        "scrape_interval_s": SCRAPE,
        "started_s": started,
        "workloads_started_before_first_scrape_s": round(t0 - nodes_started, 3),
        "phases_s": {"load_from": LOAD_FROM, "loop_blocked_to": LOOP_TO, "load_to": LOAD_TO,
                     "stop": STOP, "end": END},
        "targets": {
            "scope": {"job": "sluice-scope", "instance": scope_addr},
            "serve": {"job": "sluice", "instance": serve_addr},
        },
        "processes": {
            "idle": {"pid": idle_pid, "pool": 4, "work": "idle"},
            "cpu": {"pid": cpu_pid, "pool": 2, "work": "4 crypto.pbkdf2 in flight, load phase"},
            "loop": {"pid": loop_pid, "pool": 4,
                     "work": "loop blocked 45 ms of every 50 ms, load_from to loop_blocked_to"},
            "dns": {"pid": dns_pid, "pool": 4,
                    "work": "32 dns.lookup in flight held 500 ms each (sluice lab-netns), load phase"},
        },
        "serve": {
            "flags": f"--cpu-threads 1 --cpu-queue 4 --login-iterations {a.login_iterations} "
                 "--diagnostic-routes",
            "load": "sluice load /login -c 16 (load phase), then /block?ms=100 -c 1 (load_to to stop)",
        },
    }
    with open(os.path.join(a.out, "manifest.json"), "w") as f:
        json.dump(manifest, f, indent=2)
        f.write("\n")
    print(f"recorded {scrapes} scrapes of each into {a.out}", file=sys.stderr)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, lambda *_: sys.exit("record.py: SIGTERM"))
    try:
        main()
    finally:
        for p in CHILDREN:
            if p.poll() is None:
                p.terminate()
