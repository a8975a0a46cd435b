#!/usr/bin/env python3
"""The app soak: the lab's real Express app under sluice's preload for
DURATION of mixed load, its RSS, threads and fds sampled every second and
plotted; run by scripts/soak-app (see it for usage). It runs inside
`sluice lab-netns` (a private network namespace whose name server is the
DNS delay server, holding each query 2 ms), so lookups reach a real name
server without touching the machine's.

Phases: warm-up WARMUP_S of the load (what is made once exists before the
baseline), baseline idle, the load for DURATION, cool-down idle; then one
SIGTERM, which must end the app.

The load, each a `sluice load` restarted every 10 s (a restart drops its
connections): /login (argon2id on sluice/argon2), /static/small-N.txt and
/static/large.txt (express.static, compression), /ping, /lookup
(dns.lookup of a new name, or localhost), /gzip (zlib.gzip), /file
(fs.readFile).

Pass when every request was answered 200 (no other status, no load error,
none cut short), RSS after the load is at most 10 % above the baseline,
fds within 10 % (at least 1 either way), threads back to the baseline, and
the app exits 0 on one SIGTERM.
"""

import importlib.util
import json
import os
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("soak", os.path.join(HERE, "soak.py"))
soak = importlib.util.module_from_spec(spec)
spec.loader.exec_module(soak)

# The idle and warm-up phases (seconds); SOAK_PHASES="W,B,C" shortens them
# for a smoke run.
WARMUP_S, BASELINE_S, COOLDOWN_S = (
    float(x) for x in os.environ.get("SOAK_PHASES", "30,20,40").split(","))
# (path, connections): about two cores' worth on a quiet machine.
LOAD = [
    ("/login", 2),
    ("/static/small-0.txt", 4),
    ("/static/large.txt", 2),
    ("/ping", 2),
    ("/lookup", 4),
    ("/gzip", 2),
    ("/file", 2),
]


def main():
    sluice, duration_text, out_dir, modules, package, statics = sys.argv[1:7]
    duration = soak.parse_duration(duration_text)
    os.makedirs(out_dir, exist_ok=True)
    t0 = time.time()
    app = subprocess.Popen(
        ["node", "-r", os.path.join(package, "patch.js"), os.path.join(HERE, "soak_app.js"),
         json.dumps({"modules": modules, "static": statics, "sluice_package": package})],
        stdout=subprocess.PIPE, text=True,
    )
    port = json.loads(app.stdout.readline())["port"]
    app_lines = []
    threading.Thread(target=lambda: app_lines.extend(app.stdout), daemon=True).start()
    sampler = soak.Sampler("app", app.pid, t0)
    sampler.start()
    statuses, tally = soak.Tally(), soak.Tally()
    per_route = {path: soak.Tally() for path, _ in LOAD}
    phases = {}

    def phase(name, seconds, load):
        start = time.time() - t0
        sampler.phase = name
        print(f"soak-app: {name} for {seconds:.0f} s", flush=True)
        stop = threading.Event()
        workers = []
        if load:
            for path, conc in LOAD:
                workers.append(threading.Thread(
                    target=soak.load_loop,
                    args=(sluice, f"http://127.0.0.1:{port}{path}", conc, stop, tally, per_route[path]),
                    daemon=True))
        for w in workers:
            w.start()
        deadline = time.time() + seconds
        while time.time() < deadline:
            time.sleep(min(10, max(0, deadline - time.time())))
            s = sampler.samples[-1] if sampler.samples else None
            if s and load:
                print(f"soak-app:   t={s[0]:.0f}s rss {s[2] / 1024:.1f} MiB threads {s[3]} fds {s[4]}", flush=True)
        stop.set()
        for w in workers:
            w.join(timeout=60)
        phases[name] = (start, time.time() - t0)

    phase("warm-up", WARMUP_S, True)
    phase("baseline", BASELINE_S, False)
    phase("flood", duration, True)
    phase("cool-down", COOLDOWN_S, False)

    exit_info = soak.terminate(app, 60)
    sampler.stop.set()
    sampler.join()

    for path, t in per_route.items():
        for code_, n in t.counts.items():
            statuses.add(code_, n)
    v = soak.verdict(sampler)
    threads = v["threads"]
    v["threads_ok"] = threads["after"] <= threads["baseline"]
    bad = {c: n for c, n in statuses.counts.items() if c != 200}
    answered = sum(statuses.counts.values())
    errors = tally.counts.get("load errors", 0)
    truncated = tally.counts.get("load truncated", 0)
    failed_runs = {k: n for k, n in tally.counts.items() if k.startswith("load failed")}
    result = {
        "duration_s": duration,
        "loadavg_end": open("/proc/loadavg").read().split()[:3],
        "app": v,
        "requests_answered": answered,
        "statuses": statuses.counts,
        "per_route": {p: t.counts for p, t in per_route.items()},
        "load_errors": errors,
        "load_truncated": truncated,
        "load_runs": tally.counts.get("load runs", 0),
        "load_failed": failed_runs,
        "exit": exit_info,
        "app_output": [l.strip() for l in app_lines][-20:],
    }
    ok = (v["rss_ok"] and v["fds_ok"] and v["threads_ok"] and not bad and errors == 0
          and truncated == 0 and not failed_runs and answered > 0 and exit_info["code"] == 0)
    result["pass"] = ok
    soak.write_samples(out_dir, sampler, f"Express app under sluice's preload: {duration_text} of mixed load", phases)
    soak.finish(out_dir, "soak-app", result, ok)

if __name__ == "__main__":
    main()
