#!/usr/bin/env python3
"""The soak: `sluice serve` and `sluice dns-delay` under a mixed flood on
loopback for DURATION, their RSS, threads and file descriptors sampled every
second and plotted; run by scripts/soak (see it for usage).

Phases, for each server at once:
  warm-up   WARMUP_S of the same flood, so what is made once (pool threads,
            allocator arenas, the runtime's buffers) exists before the
            baseline: what is measured is growth over the flood
  baseline  idle; the mean of its samples is the baseline
  flood     DURATION of abuse (below)
  cool-down idle; the mean of its last 10 samples is "after"
then one SIGTERM, which must end the process.

serve's flood: `sluice load` processes on /login, /gzip and /file, each
restarted every 10 s (a restart of the load drops its connections);
clients that hang up 50 ms after sending /login; slowloris clients (one
header byte a second); connections that never send anything; /ping.
dns-delay's flood: UDP queries for ever new names; TCP clients that
pipeline and read; TCP clients that pipeline and never read; junk.

Pass when, for each server, RSS after the load is at most 10 % above the
baseline (below it is memory given back: reported, not a failure), fds are
within 10 % of the baseline (at least 1 either way, the count being small), serve
sent no status other than 200 and 429, dns-delay ends with nothing in
flight, and each process exits 0 after one SIGTERM.
"""

import json
import os
import random
import signal
import socket
import struct
import subprocess
import sys
import threading
import time

WARMUP_S = 30
BASELINE_S = 20
COOLDOWN_S = 40


def parse_duration(text):
    t = text.strip()
    for suffix, scale in (("ms", 0.001), ("s", 1), ("m", 60), ("h", 3600)):
        if t.endswith(suffix) and t[: -len(suffix)].replace(".", "", 1).isdigit():
            return float(t[: -len(suffix)]) * scale
    if t.replace(".", "", 1).isdigit():
        return float(t)
    sys.exit(f"soak: duration {text!r}: expected e.g. 10m, 300s, 90")


class Sampler(threading.Thread):
    """Samples a process's RSS (KiB), threads and fds every second."""

    def __init__(self, name, pid, t0):
        super().__init__(daemon=True)
        self.name, self.pid, self.t0 = name, pid, t0
        self.samples = []  # (t, phase, rss_kib, threads, fds)
        self.phase = "start"
        self.stop = threading.Event()

    def run(self):
        while not self.stop.is_set():
            try:
                status = open(f"/proc/{self.pid}/status").read()
                rss = int(next(l for l in status.splitlines() if l.startswith("VmRSS:")).split()[1])
                threads = int(next(l for l in status.splitlines() if l.startswith("Threads:")).split()[1])
                fds = len(os.listdir(f"/proc/{self.pid}/fd"))
            except (OSError, StopIteration):
                return
            self.samples.append((round(time.time() - self.t0, 1), self.phase, rss, threads, fds))
            self.stop.wait(1.0)


class Tally:
    def __init__(self):
        self.lock = threading.Lock()
        self.counts = {}

    def add(self, key, n=1):
        with self.lock:
            self.counts[key] = self.counts.get(key, 0) + n


def http_status(raw):
    try:
        return int(raw.split(b" ", 2)[1])
    except (IndexError, ValueError):
        return None


def connections(port, stop, tally, timeout, visit, failed, pause, pause_failed=None):
    """Connects to port again and again until stop: `visit(s)` uses the
    socket and names what to count (or None), `failed(e)` names what to
    count when an OSError ends the connection; then `pause` seconds
    (`pause_failed` after an error, where given)."""
    while not stop.is_set():
        wait = pause
        try:
            s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
            key = visit(s)
            s.close()
        except OSError as e:
            key = failed(e)
            wait = pause if pause_failed is None else pause_failed
        if key:
            tally.add(key)
        time.sleep(wait)


def start_threads(bodies, kinds):
    """kinds[kind] daemon threads running bodies[kind], for each kind."""
    threads = []
    for kind, n in kinds.items():
        for _ in range(n):
            t = threading.Thread(target=bodies[kind], daemon=True)
            t.start()
            threads.append(t)
    return threads


# ----- serve -----

def serve_clients(port, stop, tally, kinds):
    """Raw-socket clients of `sluice serve`, each kind in its own thread."""

    def hangup(s):
        s.sendall(b"GET /login HTTP/1.1\r\nHost: soak\r\n\r\n")
        time.sleep(0.05)
        return "hangups"

    def slowloris(s):
        s.sendall(b"GET /ping HTTP/1.1\r\n")
        while not stop.is_set():
            s.sendall(b"X")
            time.sleep(1)
        return None

    def idle(s):
        s.settimeout(30)
        return "idle closed by server" if s.recv(1) == b"" else None

    def ping(s):
        s.sendall(b"GET /ping HTTP/1.1\r\nHost: soak\r\nConnection: close\r\n\r\n")
        data = b""
        while True:
            chunk = s.recv(4096)
            if not chunk:
                break
            data += chunk
        return f"ping status {http_status(data)}"

    def clients(*how):
        return lambda: connections(port, stop, tally, *how)

    return start_threads({
        "hangup": clients(5, hangup, lambda e: f"hangup error {e.__class__.__name__}", 0, 0.1),
        # The header-read timeout cuts a slowloris connection.
        "slowloris": clients(5, slowloris, lambda e: "slowloris cut", 0.2),
        "idle": clients(30, idle, lambda e: "idle closed by server", 0.2),
        "ping": clients(10, ping, lambda e: f"ping error {e.__class__.__name__}", 0.1),
    }, kinds)


def load_loop(sluice, url, conc, stop, tally, statuses):
    """`sluice load` on url, restarted every 10 s until stop."""
    while not stop.is_set():
        out = subprocess.run(
            [sluice, "load", url, "-c", str(conc), "-d", "10s", "--json"],
            capture_output=True,
            text=True,
        )
        tally.add("load runs")
        try:
            r = json.loads(out.stdout)
        except ValueError:
            tally.add(f"load failed: {out.stderr.strip()[:200]}")
            continue
        for code, n in r["statuses"].items():
            statuses.add(int(code), n)
        tally.add("load errors", r["errors"])
        tally.add("load truncated", r.get("truncated", 0))


# ----- dns-delay -----

def dns_query(qid, name, qtype=1):
    q = struct.pack(">HHHHHH", qid, 0x0100, 1, 0, 0, 0)
    for label in name.split("."):
        q += bytes([len(label)]) + label.encode()
    return q + b"\x00" + struct.pack(">HH", qtype, 1)


OPEN = []  # sockets that block in sendall: shut down when their phase ends


def dns_clients(port, stop, tally, kinds):
    def udp():
        s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
        s.settimeout(0)
        n = 0
        while not stop.is_set():
            n += 1
            name = f"n{n}-{random.getrandbits(32):x}.soak.test"
            s.sendto(dns_query(n & 0xFFFF, name), ("127.0.0.1", port))
            if n % 50 == 0:
                s.sendto(b"\x00\x01junk", ("127.0.0.1", port))
                try:
                    while True:
                        s.recv(4096)
                        tally.add("udp answers")
                except BlockingIOError:
                    pass
                time.sleep(0.01)

    def tcp_reader(s):
        for i in range(200):
            q = dns_query(i, f"t{i}-{random.getrandbits(24):x}.soak.test")
            s.sendall(struct.pack(">H", len(q)) + q)
        got = 0
        while got < 200:
            head = s.recv(2, socket.MSG_WAITALL)
            if len(head) < 2:
                break
            (ln,) = struct.unpack(">H", head)
            s.recv(ln, socket.MSG_WAITALL)
            got += 1
        tally.add("tcp answers", got)
        return None

    def tcp_never_reads():
        q = dns_query(7, "pipelined.soak.test")
        framed = (struct.pack(">H", len(q)) + q) * 1000
        while not stop.is_set():
            try:
                s = socket.create_connection(("127.0.0.1", port), timeout=300)
                s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
                OPEN.append(s)
                while not stop.is_set():
                    s.sendall(framed)
            except OSError:
                tally.add("never-reader dropped")
            time.sleep(0.5)

    return start_threads({
        "udp": udp,
        "tcp_reader": lambda: connections(
            port, stop, tally, 10, tcp_reader, lambda e: f"tcp reader error {e.__class__.__name__}", 0, 0.1),
        "tcp_never_reads": tcp_never_reads,
    }, kinds)


# ----- the plot -----

def svg(path, title, samples, phases):
    """Three stacked panels: RSS (MiB), threads, fds against seconds."""
    w, ph, left, top = 900, 170, 70, 40
    panels = [("RSS MiB", 2, lambda v: v / 1024), ("threads", 3, float), ("fds", 4, float)]
    h = top + len(panels) * (ph + 40) + 20
    t_max = max(s[0] for s in samples) or 1
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{w}" height="{h}" font-family="sans-serif" font-size="12">',
        f'<rect width="{w}" height="{h}" fill="white"/>',
        f'<text x="{left}" y="20" font-size="15">{title}</text>',
    ]
    colors = {"warm-up": "#eef", "baseline": "#efe", "flood": "#fee", "cool-down": "#efe"}
    for i, (label, idx, f) in enumerate(panels):
        y0 = top + i * (ph + 40)
        vals = [f(s[idx]) for s in samples]
        vmax = max(vals) * 1.1 or 1
        x = lambda t: left + (w - left - 20) * t / t_max
        y = lambda v: y0 + ph - ph * v / vmax
        for name, (a, b) in phases.items():
            out.append(
                f'<rect x="{x(a):.1f}" y="{y0}" width="{max(x(b) - x(a), 0):.1f}" height="{ph}" fill="{colors.get(name, "#eee")}"/>'
            )
            if i == 0:
                out.append(f'<text x="{x(a) + 3:.1f}" y="{y0 + 12}" fill="#555">{name}</text>')
        out.append(f'<rect x="{left}" y="{y0}" width="{w - left - 20}" height="{ph}" fill="none" stroke="#888"/>')
        pts = " ".join(f"{x(s[0]):.1f},{y(v):.1f}" for s, v in zip(samples, vals))
        out.append(f'<polyline points="{pts}" fill="none" stroke="#c33" stroke-width="1.5"/>')
        out.append(f'<text x="5" y="{y0 + ph / 2:.0f}">{label}</text>')
        out.append(f'<text x="{left - 5}" y="{y0 + 10}" text-anchor="end">{vmax:.0f}</text>')
        out.append(f'<text x="{left - 5}" y="{y0 + ph}" text-anchor="end">0</text>')
        out.append(f'<text x="{w - 20}" y="{y0 + ph + 15}" text-anchor="end">{t_max:.0f} s</text>')
    out.append("</svg>")
    with open(path, "w") as fh:
        fh.write("\n".join(out) + "\n")


def terminate(proc, timeout):
    """One SIGTERM; how `proc` ended and how long it took (killed and said
    so if it is still running after `timeout` seconds)."""
    t = time.time()
    proc.send_signal(signal.SIGTERM)
    try:
        code = proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        code = f"still running {timeout} s after one SIGTERM"
    return {"code": code, "seconds": round(time.time() - t, 2)}


def write_samples(out_dir, sampler, title, phases):
    """OUT_DIR/NAME.csv (the samples) and OUT_DIR/NAME.svg (their plot)."""
    with open(os.path.join(out_dir, f"{sampler.name}.csv"), "w") as fh:
        fh.write("t_s,phase,rss_kib,threads,fds\n")
        for row in sampler.samples:
            fh.write(",".join(map(str, row)) + "\n")
    svg(os.path.join(out_dir, f"{sampler.name}.svg"), title, sampler.samples, phases)


def finish(out_dir, name, result, ok):
    """Writes OUT_DIR/NAME.json, prints it and the verdict, exits 0 on pass."""
    with open(os.path.join(out_dir, f"{name}.json"), "w") as fh:
        json.dump(result, fh, indent=2, default=str)
    print(json.dumps(result, indent=2, default=str))
    print(f"{name}: {'PASS' if ok else 'FAIL'}; plots and samples in {out_dir}")
    sys.exit(0 if ok else 1)


def mean(xs):
    return sum(xs) / len(xs) if xs else float("nan")


def verdict(sampler):
    base = [s for s in sampler.samples if s[1] == "baseline"]
    after = [s for s in sampler.samples if s[1] == "cool-down"][-10:]
    flood = [s for s in sampler.samples if s[1] == "flood"]
    out = {}
    for key, idx in (("rss_kib", 2), ("threads", 3), ("fds", 4)):
        b, a = mean([s[idx] for s in base]), mean([s[idx] for s in after])
        out[key] = {
            "baseline": round(b, 1),
            "flood_max": max((s[idx] for s in flood), default=None),
            "after": round(a, 1),
        }
    rss, fds = out["rss_kib"], out["fds"]
    # Growth is what fails: after may be at most 10 % above the baseline.
    # Below it is memory given back (glibc trims its heap in steps), which
    # is reported (rss_within_10pct) but not a failure.
    out["rss_within_10pct"] = abs(rss["after"] - rss["baseline"]) <= 0.10 * rss["baseline"]
    out["rss_ok"] = rss["after"] <= 1.10 * rss["baseline"]
    out["fds_ok"] = abs(fds["after"] - fds["baseline"]) <= max(0.10 * fds["baseline"], 1)
    return out


def main():
    sluice, duration_text, out_dir = sys.argv[1], sys.argv[2], sys.argv[3]
    duration = parse_duration(duration_text)
    os.makedirs(out_dir, exist_ok=True)
    t0 = time.time()

    serve = subprocess.Popen(
        [sluice, "serve", "--listen", "127.0.0.1:0", "--login-iterations", "10000",
         "--header-read-timeout-ms", "3000", "--idle-timeout-ms", "2000", "--max-connections", "200"],
        stdout=subprocess.PIPE, text=True,
    )
    first = serve.stdout.readline()
    port = int(first.split("listening on http://")[1].split()[0].rsplit(":", 1)[1])
    serve_lines = []
    threading.Thread(target=lambda: serve_lines.extend(serve.stdout), daemon=True).start()

    stats_path = os.path.join(out_dir, "dns-delay-stats.json")
    dns = subprocess.Popen(
        [sluice, "dns-delay", "--listen", "127.0.0.1:0", "--hold", "50ms", "--stats", stats_path],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    dns_first = dns.stderr.readline()
    dns_port = int(dns_first.split()[4].rsplit(":", 1)[1])

    samplers = [Sampler("serve", serve.pid, t0), Sampler("dns-delay", dns.pid, t0)]
    for s in samplers:
        s.start()
    statuses, tally = Tally(), Tally()
    phases = {}

    def phase(name, seconds, flood):
        start = time.time() - t0
        for s in samplers:
            s.phase = name
        print(f"soak: {name} for {seconds:.0f} s", flush=True)
        stop = threading.Event()
        workers = []
        if flood == "light":
            workers += serve_clients(port, stop, tally, {"ping": 1})
            workers.append(threading.Thread(target=load_loop, args=(sluice, f"http://127.0.0.1:{port}/login", 2, stop, tally, statuses), daemon=True))
            workers += dns_clients(dns_port, stop, tally, {"tcp_reader": 1})
        elif flood == "full":
            for path, conc in (("/login", 16), ("/gzip", 8), ("/file", 8)):
                workers.append(threading.Thread(target=load_loop, args=(sluice, f"http://127.0.0.1:{port}{path}", conc, stop, tally, statuses), daemon=True))
            workers += serve_clients(port, stop, tally, {"hangup": 4, "slowloris": 20, "idle": 20, "ping": 2})
            workers += dns_clients(dns_port, stop, tally, {"udp": 2, "tcp_reader": 2, "tcp_never_reads": 2})
        for w in workers:
            if not w.is_alive() and not w.ident:
                w.start()
        deadline = time.time() + seconds
        while time.time() < deadline:
            time.sleep(min(10, max(0, deadline - time.time())))
            if flood == "full":
                s0 = samplers[0].samples[-1] if samplers[0].samples else None
                if s0:
                    print(f"soak:   t={s0[0]:.0f}s serve rss {s0[2] / 1024:.1f} MiB threads {s0[3]} fds {s0[4]}", flush=True)
        stop.set()
        for sock in OPEN:
            try:
                sock.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass
        OPEN.clear()
        for w in workers:
            w.join(timeout=40)
        phases[name] = (start, time.time() - t0)

    phase("warm-up", WARMUP_S, "full")
    phase("baseline", BASELINE_S, None)
    phase("flood", duration, "full")
    phase("cool-down", COOLDOWN_S, None)

    exits = {}
    for name, p in (("serve", serve), ("dns-delay", dns)):
        exits[name] = terminate(p, 120)
    for s in samplers:
        s.stop.set()
        s.join()

    dns_stats = json.load(open(stats_path))
    bad = {code: n for code, n in statuses.counts.items() if code not in (200, 429)}
    ping_bad = {k: n for k, n in tally.counts.items() if k.startswith("ping status") and k != "ping status 200"}
    result = {
        "duration_s": duration,
        "loadavg": open("/proc/loadavg").read().split()[:3],
        "serve": verdict(samplers[0]),
        "dns_delay": verdict(samplers[1]),
        "statuses": statuses.counts,
        "clients": tally.counts,
        "exits": exits,
        "serve_shutdown_log": [l.strip() for l in serve_lines if "SIGTERM" in l or "connections:" in l or "pool" in l],
        "dns_delay_stats": dns_stats,
    }
    ok = (
        result["serve"]["rss_ok"] and result["serve"]["fds_ok"]
        and result["dns_delay"]["rss_ok"] and result["dns_delay"]["fds_ok"]
        and not bad and not ping_bad
        and dns_stats["in_flight_queries"] == 0
        and exits["serve"]["code"] == 0 and exits["dns-delay"]["code"] == 0
    )
    result["pass"] = ok
    for s in samplers:
        write_samples(out_dir, s, f"sluice {s.name}: {duration_text} flood", phases)
    finish(out_dir, "soak", result, ok)


if __name__ == "__main__":
    main()
