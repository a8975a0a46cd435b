#!/usr/bin/env python3
"""Checks a Grafana dashboard's queries against a running Prometheus.

    python3 deploy/grafana/check.py http://127.0.0.1:9090 [--dashboard FILE]
    python3 deploy/grafana/check.py                     # layout and ids only

The dashboard is first checked on its own: unique panel ids, panels inside
Grafana's 24-column grid and not overlapping, each panel with at least one
query and unique refIds.

Every panel's every target (rows' panels included) and every template
variable's `label_values(...)` query is sent to the Prometheus HTTP API
(/api/v1/query, /api/v1/series) with the dashboard's variables substituted:
`$var` and `${var}` by `.*` (every variable of the sluice dashboard is used
as `=~"$var"`), `$__rate_interval` by 1m, `$__interval` by 15s, `$__range`
by 1h. A query fails when Prometheus answers an error (it does not parse, or
does not run), or when it finds no series: a misspelt metric name parses and
runs and finds nothing. A panel whose description starts with "Needs
--probe" may find nothing (its series exist only in scope's probe mode).

Prints one line per query (and per problem); exits 1 if any failed, 2 on
bad input.
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


def lint(dash):
    """What a dashboard must be before any query runs: the problems found."""
    problems = []
    seen_ids = set()
    cells = {}
    for p in panels_of(dash):
        what = f"panel {p.get('title')!r}"
        if p.get("id") in seen_ids:
            problems.append(f"{what}: id {p.get('id')} used twice")
        seen_ids.add(p.get("id"))
        g = p.get("gridPos", {})
        try:
            x, y, w, h = (int(g[k]) for k in ("x", "y", "w", "h"))
        except (KeyError, TypeError, ValueError):
            problems.append(f"{what}: no gridPos x, y, w, h")
            continue
        if x < 0 or w < 1 or x + w > 24 or y < 0 or h < 1:
            problems.append(f"{what}: gridPos {g} is outside the 24-column grid")
        for cx in range(x, x + w):
            for cy in range(y, y + h):
                if (cx, cy) in cells:
                    problems.append(f"{what}: overlaps panel {cells[(cx, cy)]!r} at {cx},{cy}")
                    break
                cells[(cx, cy)] = p.get("title")
            else:
                continue
            break
        if p.get("type") == "row":
            continue
        refs = [t.get("refId") for t in p.get("targets", [])]
        if not refs:
            problems.append(f"{what}: no query")
        if len(set(refs)) != len(refs):
            problems.append(f"{what}: refIds {refs} not unique")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("prometheus", nargs="?",
                    help="the Prometheus base URL, e.g. http://127.0.0.1:9090 (without it: only "
                    "the dashboard's layout and ids are checked)")
    ap.add_argument("--dashboard", default=os.path.join(HERE, "sluice-dashboard.json"))
    a = ap.parse_args()
    try:
        with open(a.dashboard, encoding="utf-8") as f:
            dash = json.load(f)
    except (OSError, ValueError) as e:
        print(f"check.py: {a.dashboard}: {e}", file=sys.stderr)
        return 2
    problems = lint(dash)
    for problem in problems:
        print(f"FAIL {problem}")
    if a.prometheus is None:
        print(f"{a.dashboard}: layout and ids checked, {len(problems)} problems; no queries run "
              "(no Prometheus URL given)")
        return 1 if problems else 0
    variables = {v["name"] for v in dash.get("templating", {}).get("list", [])}
    failed, checked = len(problems), 0

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
