#!/usr/bin/env python3
"""Checks a Grafana dashboard's queries against a running Prometheus.

    python3 deploy/grafana/check.py http://127.0.0.1:9090 [--dashboard FILE]

Every panel's every target (rows' panels included) and every template
variable's `label_values(...)` query is sent to the Prometheus HTTP API
(/api/v1/query, /api/v1/series) with the dashboard's variables substituted:
`$var` and `${var}` by `.*` (every variable of the sluice dashboard is used
as `=~"$var"`), `$__rate_interval` by 1m, `$__interval` by 15s, `$__range`
by 1h. A query fails when Prometheus answers an error (it does not parse, or
does not run), or when it finds no series: a misspelt metric name parses and
runs and finds nothing. A panel whose description starts with "Needs
--probe" may find nothing (its series exist only in scope's probe mode).

Prints one line per query; exits 1 if any failed, 2 on bad input.
crates/sluice-cli/tests/prometheus_e2e.rs runs it against the Prometheus it
starts (scraping a real `sluice scope --all` and `sluice serve`).
"""

import argparse
import json
import os
import re
import sys
import urllib.error
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
BUILTINS = {"__rate_interval": "1m", "__interval": "15s", "__range": "1h"}


def substitute(expr, variables):
    def one(m):
        name = m.group(1) or m.group(2)
        if name in BUILTINS:
            return BUILTINS[name]
        if name in variables:
            return ".*"
        raise ValueError(f"unknown variable ${name}")

    return re.sub(r"\$\{(\w+)(?::\w+)?\}|\$(\w+)", one, expr)


def api(base, path, params):
    url = f"{base.rstrip('/')}{path}?{urllib.parse.urlencode(params)}"
    try:
        with urllib.request.urlopen(url, timeout=10) as r:
            body = json.load(r)
    except urllib.error.HTTPError as e:
        try:
            body = json.load(e)
        except ValueError:
            return None, f"HTTP {e.code}"
    except (urllib.error.URLError, OSError, ValueError) as e:
        return None, f"{url}: {e}"
    if body.get("status") != "success":
        return None, f"{body.get('errorType')}: {body.get('error')}"
    return body["data"], None


def panels_of(dash):
    for p in dash.get("panels", []):
        yield p
        yield from p.get("panels", [])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("prometheus", help="the Prometheus base URL, e.g. http://127.0.0.1:9090")
    ap.add_argument("--dashboard", default=os.path.join(HERE, "sluice-dashboard.json"))
    a = ap.parse_args()
    try:
        with open(a.dashboard, encoding="utf-8") as f:
            dash = json.load(f)
    except (OSError, ValueError) as e:
        print(f"check.py: {a.dashboard}: {e}", file=sys.stderr)
        return 2
    variables = {v["name"] for v in dash.get("templating", {}).get("list", [])}
    failed = checked = 0

    def report(what, ok, detail):
        nonlocal failed, checked
        checked += 1
        failed += not ok
        print(f"{'ok  ' if ok else 'FAIL'} {what}: {detail}")

    for v in dash.get("templating", {}).get("list", []):
        q = v.get("query")
        q = q.get("query") if isinstance(q, dict) else q
        m = re.fullmatch(r"label_values\((.*),\s*(\w+)\)", q or "")
        if v.get("type") != "query":
            continue
        if not m:
            report(f"variable {v['name']}", False, f"not a label_values(selector, label) query: {q!r}")
            continue
        try:
            selector = substitute(m.group(1), variables)
        except ValueError as e:
            report(f"variable {v['name']}", False, str(e))
            continue
        data, err = api(a.prometheus, "/api/v1/series", {"match[]": selector})
        values = sorted({s.get(m.group(2)) for s in data or [] if m.group(2) in s})
        if err:
            report(f"variable {v['name']}", False, f"{err}: {selector}")
        elif not values:
            report(f"variable {v['name']}", False, f"no series match {selector}")
        else:
            report(f"variable {v['name']}", True, f"{len(values)} values of {m.group(2)}")

    for p in panels_of(dash):
        if p.get("type") == "row":
            continue
        probe_only = p.get("description", "").startswith("Needs --probe")
        for t in p.get("targets", []):
            what = f"panel {p.get('title')!r} {t.get('refId')}"
            try:
                expr = substitute(t["expr"], variables)
            except (KeyError, ValueError) as e:
                report(what, False, f"no query: {e}")
                continue
            data, err = api(a.prometheus, "/api/v1/query", {"query": expr})
            if err:
                report(what, False, f"{err}: {expr}")
                continue
            n = len(data.get("result", []))
            if n == 0 and not probe_only:
                report(what, False, f"no series: {expr}")
            else:
                report(what, True, f"{n} series" + (" (probe mode only)" if probe_only and n == 0
                                                     else ""))
    print(f"{checked} queries, {failed} failed")
    return 1 if failed or not checked else 0


if __name__ == "__main__":
    sys.exit(main())
